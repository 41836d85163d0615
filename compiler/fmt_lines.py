"""Where `rulecraft fmt` starts a new line whatever the width: before each statement (from the
AST), and around the contents of a block that spans several lines. Used by compiler.fmt on its
lines of tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import nodes as n

if TYPE_CHECKING:
    from compiler.fmt import Token


def statement_starts(module: n.Module) -> set[tuple[int, int]]:
    """The (line, column) of each statement that starts a line of its own: every statement,
    but the only statement of a block written on one line that holds no block itself
    (`on done { goto main }` stays one line; `{ a = 1 b = 2 }` does not)."""
    starts: set[tuple[int, int]] = set()
    for node in n.walk(module):
        if not isinstance(node, n.Block) or not node.statements:
            continue
        first = node.statements[0]
        last = node.statements[-1]
        if len(node.statements) == 1 and node.span.line == last.span.end_line and not any(
                isinstance(inner, n.Block) for inner in n.walk(first) if inner is not first):
            continue
        starts.update((statement.span.line, statement.span.column)
                      for statement in node.statements)
    return starts


def cut_statements(lines: list[list[Token]], starts: set[tuple[int, int]]) -> list[list[Token]]:
    """The lines cut before each token that starts one of the statements `starts` names,
    unless it already starts its line. The lines are those of the text, in order."""
    if not starts:
        return lines
    out: list[list[Token]] = []
    for number, tokens in enumerate(lines, 1):
        at = [index for index, token in enumerate(tokens)
              if index and (number, token.column) in starts]
        out.extend(tokens[a:b] for a, b in zip([0, *at], [*at, len(tokens)], strict=True))
    return out


def own_lines_for_braces(lines: list[list[Token]]) -> list[list[Token]]:
    """A block that spans several lines opens at the end of a line and closes at the start of
    one: split the lines where code follows such a `{` or precedes such a `}`."""
    cuts: set[tuple[int, int]] = set()  # (line, token index) where a new line starts
    opened: list[tuple[int, int]] = []
    for number, tokens in enumerate(lines):
        for index, token in enumerate(tokens):
            if token.kind != "op":
                continue
            if token.text == "{":
                opened.append((number, index))
            elif token.text == "}" and opened:
                start_line, start_index = opened.pop()
                if start_line == number:
                    continue
                if start_index + 1 < len(lines[start_line]) and \
                        lines[start_line][start_index + 1].kind != "comment":
                    cuts.add((start_line, start_index + 1))
                if index > 0:
                    cuts.add((number, index))
    if not cuts:
        return lines
    out: list[list[Token]] = []
    for number, tokens in enumerate(lines):
        at = sorted(index for line, index in cuts if line == number)
        for start, end in zip([0, *at], [*at, len(tokens)], strict=True):
            out.append(tokens[start:end])
    return out


def else_after_brace(lines: list[list[Token]]) -> list[list[Token]]:
    """`else` and `elif` go on the line of the `}` that closes the block before them, when that
    `}` has a line to itself (a ladder of one-line branches keeps its lines)."""
    out: list[list[Token]] = []
    for tokens in lines:
        before = out[-1] if out else []
        if tokens and tokens[0].text in ("else", "elif") and tokens[0].kind == "word" \
                and len(before) == 1 and before[0].kind == "op" and before[0].text == "}":
            out[-1] = before + tokens
        else:
            out.append(tokens)
    return out
