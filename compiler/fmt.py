"""`rulecraft fmt`: one canonical layout for `.rules` files.

The formatter works on tokens, not on the AST, so that every comment and `##` doc comment stays
on the line it was written on, next to the code it talks about. Newlines are insignificant in
the language, so the only thing the formatter may change is the white space between tokens:

* each statement starts a line (where, the parsed file says: compiler.fmt_lines), but the
  only one of a block written on one line; an expression broken over several lines is joined
  again (unless a comment or a blank line comes between) and broken where the width says
  (_break_points), so that it wraps the same way whatever the author's breaks;
* indentation is computed: two spaces per open brace, two more on a continuation line (one that
  goes on with the expression of the line before), two more per bracket left open;
* spacing between tokens on a line is fixed by the kinds of the two tokens;
* runs of blank lines become one, blank lines at the edges of a block go, and declarations that
  span several lines are set apart from their neighbours by one blank line;
* trailing comments of consecutive lines are aligned.

A file that does not parse is refused with its diagnostics, and the result is parsed again and
compared with the original AST (spans aside) before anything is written: the formatter never
changes what a rulebook means.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from compiler.fmt_lines import (
    cut_statements,
    else_after_brace,
    own_lines_for_braces,
    statement_starts,
)
from compiler.project import path_problem
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, render
from dsl.keyword_lexer import RESERVED_WORDS
from dsl.parser import parse, read_source
from dsl.source import SourceFile, Span, display_name

WIDTH = 100
INDENT = "  "

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<string>"(?:[^"\\\n]|\\["\\nt{}])*")
  | (?P<comment>\#[^\n]*)
  | (?P<annotation>@[A-Za-z0-9_.]+)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<int>[0-9]+)
  | (?P<op>->|\.\.|--|==|!=|<=|>=|\+=|-=|[{}()\[\],.:;=<>+\-*/%?])
""", re.VERBOSE)

# Words after which an expression follows: a bracket after them opens a value, not a call.
_LEADING_WORDS = (RESERVED_WORDS - {"true", "false", "none", "actor", "players"}) | {
    "by", "to", "from", "into", "where", "when", "while", "of", "says", "on", "mark",
    "capacity", "reaches", "omitted",
}
_VALUE_WORDS = frozenset({"true", "false", "none", "actor", "players"})
_BINARY = frozenset({"=", "+=", "-=", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/",
                     "%", "->", "--"})
# A line that ends with one of these goes on on the next line...
_OPEN_ENDS = frozenset({"=", "+=", "-=", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/",
                        "%", "->", "--", "..", ".", ":", "(", "[", "and", "or", "not", "in",
                        "if", "elif", "then", "else", "let", "require", "repeat"})
# ...and so does a line that starts with one of these (`else`/`elif` only after an expression).
_CONTINUING_STARTS = frozenset({"and", "or", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*",
                                "/", "%", "..", ".", ")", "]", ",", "then", "else", "where",
                                "in", "to", "from", "into", "->", "=", "says", "omitted",
                                "when", "while", "ordered"})
_DECLARATION_WORDS = frozenset({
    "game", "enum", "record", "card", "data", "board", "zone", "state", "player", "event",
    "trigger", "function", "procedure", "setup", "phase", "checkpoint", "seed", "decision",
    "cards", "decks", "keyword", "deck", "diagram",
})


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    column: int = field(default=0, compare=False)  # 1-based, where the text has it


def tokenize(text: str) -> list[list[Token]] | None:
    """The tokens of each line of text (blank lines are empty), or None where no token of the
    language starts (the parser reports those)."""
    lines: list[list[Token]] = [[]]
    position = line_start = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            return None
        position = match.end()
        kind = match.lastgroup
        assert kind is not None
        if kind == "newline":
            lines.append([])
            line_start = position
        elif kind != "space":
            lines[-1].append(Token(kind, match.group().rstrip() if kind == "comment" else
                                   match.group(), match.start() - line_start + 1))
    if not lines[-1]:
        lines.pop()
    return lines


def _is_value_end(token: Token | None) -> bool:
    """Whether an expression may end with this token (so a `-` after it is binary)."""
    if token is None:
        return False
    if token.kind in ("string", "int"):
        return True
    if token.kind == "word":
        return token.text in _VALUE_WORDS or token.text not in _LEADING_WORDS
    return token.text in (")", "]", "?")


def _space_between(left: Token, right: Token, before_left: Token | None) -> bool:
    """Whether one space separates two tokens of a line."""
    if right.kind == "comment":
        return True
    a, b = left.text, right.text
    if b in (",", ";", ")", "]", ".", ":", "?") or a in ("(", "[", "."):
        return False
    if a == "-" and left.kind == "op" and not _is_value_end(before_left):
        return False  # a unary minus
    if a == ".." or b == "..":
        return False
    if b in ("(", "["):
        return not (_is_value_end(left) and left.kind != "string" and
                    (left.kind != "word" or left.text not in _VALUE_WORDS or b == "["))
    return not (a == "{" and b == "}")


def _glued(left: Token, right: Token) -> bool:
    """Whether the two tokens would read as other tokens without a space between them."""
    joined = tokenize(left.text + right.text)
    return joined is None or joined != [[left, right]]


@dataclass
class _Line:
    """A line of output: its indent, its code, its trailing comment and what the layout of the
    lines around it needs to know."""

    depth: int  # open braces before it
    indent: int
    code: str
    comment: str
    top_declaration: bool = False  # starts a declaration at the top level


def _continues(code: Sequence[Token], stack: list[str], previous: Token | None,
               reaching: bool = False) -> bool:
    """Whether a line of code (not empty) goes on with the expression of the line before, with
    the brackets `stack` open and `previous` the last code token before it (`reaching`: in the
    zone list of a `reaches`)."""
    first = code[0]
    braces = stack.count("{")
    brackets = len(stack) - braces - (first.text in (")", "]"))
    innermost = stack[-1] if stack else ""
    word_start = first.kind == "word" and first.text not in RESERVED_WORDS
    if word_start and len(code) > 1 and code[1].text in (".", "[", "(", "=", "+=", "-="):
        word_start = False  # a name that starts a statement, not a keyword
    elif word_start:
        word_start = first.text in _CONTINUING_STARTS
    if first.text in (")", "]") and innermost in ("(", "["):
        return brackets > 0 or (previous is not None and previous.text in _OPEN_ENDS)
    return (
        innermost in ("(", "[")
        or (reaching and previous is not None and previous.text == ",")
        or (previous is not None and previous.text in _OPEN_ENDS
            and previous.kind in ("op", "word") and previous.text != "{"
            and not (previous.text == "," and innermost == "{"))
        or word_start
        or (first.text in _CONTINUING_STARTS and (first.kind == "op" or (
            first.kind == "word" and first.text in RESERVED_WORDS))
            and not (first.text in ("else", "elif") and previous is not None
                     and previous.text == "}")
            and first.text != "}")
    )


def _track(code: Sequence[Token], stack: list[str], previous: Token | None) -> Token | None:
    """The brackets open after a line of code, in `stack`; its last token (else `previous`)."""
    for token in code:
        if token.kind == "op" and token.text in ("{", "(", "["):
            stack.append(token.text)
        elif token.kind == "op" and token.text in ("}", ")", "]") and stack:
            stack.pop()
        previous = token
    return previous


def _joined(lines: list[list[Token]]) -> list[list[Token]]:
    """The lines with each expression that the author broke over several lines on one line
    again, so that where it breaks depends on the width only: a line that goes on with the
    expression of the one before joins it, unless a comment or a blank line comes between."""
    out: list[list[Token]] = []
    stack: list[str] = []
    previous: Token | None = None
    reaching = False
    last: list[Token] = []  # the output line that the next one may join
    for tokens in lines:
        code = [t for t in tokens if t.kind != "comment"]
        joins = (bool(code) and bool(last) and last[-1].kind != "comment"
                 and tokens[-1].kind != "comment" and code[0].kind != "annotation"
                 and _continues(code, stack, previous, reaching))
        if joins:
            last = last + tokens
            out[-1] = last
        else:
            last = list(tokens) if code else []
            out.append(list(tokens))
        reaching = _reaching(code, reaching)
        previous = _track(code, stack, previous)
    return out


def _reaching(code: Sequence[Token], reaching: bool) -> bool:
    """Whether, after a line of code, the list of zones after an effect type's `reaches` goes
    on (its commas are outside brackets, and a line after one of them continues it)."""
    for token in code:
        if token.text == "reaches":
            reaching = True
        elif token.text in ("=", "{", "}", ")"):
            reaching = False
    return reaching


class _Layout:
    def __init__(self, lines: list[list[Token]], breaking: bool) -> None:
        if breaking:
            lines = _joined(lines)
        self.lines = lines
        self.breaking = breaking

    def run(self) -> list[_Line | None]:
        """One output line per input line (None for a blank one), a line of code too long for
        WIDTH broken in several where it may be broken."""
        out: list[_Line | None] = []
        stack: list[str] = []  # the open brackets
        previous: Token | None = None  # the last code token so far
        reaching = False
        pending = list(reversed(self.lines))
        while pending:
            tokens = pending.pop()
            code = [t for t in tokens if t.kind != "comment"]
            comment = tokens[-1].text if tokens and tokens[-1].kind == "comment" else ""
            if not tokens:
                out.append(None)
                continue
            if not code:
                out.append(_Line(stack.count("{"), -1, "", comment))
                continue
            first = code[0]
            braces = stack.count("{")
            brackets = len(stack) - braces
            if first.text == "}":
                braces -= 1
            elif first.text in (")", "]"):
                brackets -= 1
            continuing = _continues(code, stack, previous, reaching)
            indent = 2 * braces + (2 if continuing else 0) + 2 * max(brackets, 0)
            text = self._join(code, previous)
            if self.breaking and indent + len(text) > WIDTH:
                widths = self._widths(code, previous)
                points = _break_points(tokens, indent, widths)
                if points and all(tokens[point].text == "else" for point in points):
                    # An `if` that does not fit has each `else` start a line.
                    cuts = [0, *points]
                elif points:
                    chosen = points[0]
                    for point in points:
                        if indent + widths[point] <= WIDTH:
                            chosen = point
                    cuts = [0, chosen]
                if points:
                    # Each piece is laid out again: the first may still be too long.
                    pending.extend(reversed([tokens[a:b] for a, b in zip(
                        cuts, [*cuts[1:], len(tokens)], strict=True)]))
                    continue
            top = (not stack and not continuing
                   and (first.kind == "annotation" or first.text in _DECLARATION_WORDS))
            out.append(_Line(stack.count("{"), indent, text, comment, top))
            reaching = _reaching(code, reaching)
            previous = _track(code, stack, previous)
        return out

    @staticmethod
    def _widths(code: Sequence[Token], before: Token | None) -> list[int]:
        """The width of _join(code[:i], before) for each i, in one pass."""
        widths = [0, len(code[0].text)] if code else [0]
        for index in range(1, len(code)):
            left, right = code[index - 1], code[index]
            before_left = code[index - 2] if index >= 2 else before
            space = _space_between(left, right, before_left) or (
                left.kind == right.kind == "op" and _glued(left, right))
            widths.append(widths[-1] + space + len(right.text))
        return widths

    @staticmethod
    def _join(code: Sequence[Token], before: Token | None) -> str:
        parts = [code[0].text]
        for index in range(1, len(code)):
            left, right = code[index - 1], code[index]
            before_left = code[index - 2] if index >= 2 else before
            if _space_between(left, right, before_left) or (
                    left.kind == right.kind == "op" and _glued(left, right)):
                parts.append(" ")
            parts.append(right.text)
        return "".join(parts)


def _break_points(tokens: list[Token], indent: int, widths: list[int]) -> list[int]:
    """Where a long line of code may be broken (indexes of the token that would start the new
    line). First after the `=` of a definition or assignment, when what comes before it fits:
    the expression then starts a line of its own. Else before `and`, `or`, `then`, `ordered`,
    a binary `+` or `-` and an `else` that opens no block, and after a comma inside brackets
    that close past the width. Only the places least deep in brackets count, so that a break
    splits the outermost expression."""
    code = [t for t in tokens if t.kind != "comment"]
    closes: dict[int, int] = {}  # an open bracket's index: its closing bracket's
    opened: list[int] = []
    for index, token in enumerate(code):
        if token.kind == "op" and token.text in ("(", "[", "{"):
            opened.append(index)
        elif token.kind == "op" and token.text in (")", "]", "}") and opened:
            closes[opened.pop()] = index
    points: list[tuple[int, int, int]] = []  # (depth in brackets, rank, index)
    depth: list[int] = []
    reaching = False
    for index, token in enumerate(code):
        reaching = _reaching([token], reaching)
        previous = code[index - 1] if index else token
        if index and previous.kind == "op" and previous.text in ("=", "+=", "-=") \
                and not depth and indent + widths[index] <= WIDTH \
                and _worth_a_line(code[index:], indent + 2 + widths[-1] - widths[index]):
            return [index]
        if token.kind == "op" and token.text in ("(", "[", "{"):
            depth.append(index)
        elif token.kind == "op" and token.text in (")", "]", "}") and depth:
            depth.pop()
        if index == 0:
            continue
        if token.kind == "word" and token.text in _BREAK_RANKS or (
                token.text == "else" and index + 1 < len(code)
                and code[index + 1].text != "{" and previous.text != "}"):
            points.append((len(depth), _BREAK_RANKS.get(token.text, 0), index))
        elif token.kind == "op" and token.text in _OPERATOR_RANKS and index + 1 < len(code) \
                and _is_value_end(previous) and previous.text != "?":
            points.append((len(depth), _OPERATOR_RANKS[token.text], index))
        elif (previous.text == "," or token.text in ("for", "where")) and depth \
                and code[depth[-1]].text in ("(", "["):
            close = closes.get(depth[-1], len(code) - 1)
            if indent + widths[close + 1] > WIDTH:
                points.append((len(depth), 1, index))
        elif previous.text == "," and not depth and reaching:
            points.append((0, 1, index))
    best = min(((d, rank) for d, rank, _ in points), default=(0, 0))
    return [index for d, rank, index in points if (d, rank) == best]


# Which places of a long line are broken first (the lower the sooner): the places of the least
# deep operator of the expression, so that each line holds whole operands.
_BREAK_RANKS = {"else": 0, "says": 0, "then": 1, "ordered": 1, "or": 2, "and": 3}
# Before a binary operator, the lowest in precedence first: comparisons, then `+` `-`, then
# `*` `/` `%`.
_OPERATOR_RANKS = {"==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5,
                   "*": 6, "/": 6, "%": 6}


def _worth_a_line(rest: list[Token], width: int) -> bool:
    """Whether the expression after a `=` gains from a line of its own: it fits there, or it
    can be broken (a long string alone would only move)."""
    return width <= WIDTH or any(
        token.text in ("and", "or", "then", "else", "says", "ordered", ",", *_OPERATOR_RANKS)
        for token in rest)


def _is_code(line: _Line | None) -> bool:
    return line is not None and bool(line.code) and not line.code.startswith("@")


def _is_lead_in(line: _Line | None) -> bool:
    """A comment, doc comment or annotation line at the top level: part of what follows."""
    return line is not None and line.depth == 0 and not _is_code(line)


def _spacing(laid: list[_Line | None]) -> list[_Line | None]:
    """Blank lines: one at most in a row, none at the edges of a block or of the file, and one
    before and after a top-level declaration that spans several lines."""
    kept: list[_Line | None] = []
    for index, line in enumerate(laid):
        if line is None:
            after = next((x for x in laid[index + 1:] if x is not None), None)
            if not kept or kept[-1] is None or after is None:
                continue
            if kept[-1].code.endswith("{") or after.code.startswith("}"):
                continue
        kept.append(line)
    starts = []
    for index, line in enumerate(kept):
        if line is not None and line.top_declaration and _is_code(line):
            start = index
            while start > 0 and _is_lead_in(kept[start - 1]):
                start -= 1
            starts.append(start)
    bounds = list(zip(starts, starts[1:] + [len(kept)], strict=True))
    long = [sum(_is_code(kept[i]) for i in range(a, b)) > 1 for a, b in bounds]
    wanted = {bounds[k][0] for k in range(1, len(bounds))
              if kept[bounds[k][0] - 1] is not None and (long[k] or long[k - 1])}
    result: list[_Line | None] = []
    for index, line in enumerate(kept):
        if index in wanted:
            result.append(None)
        result.append(line)
    return result


def _render(lines: list[_Line | None]) -> str:
    """The text of the lines, with the trailing comments of consecutive lines aligned."""
    columns: list[int] = [0] * len(lines)
    run: list[int] = []
    for index, line in enumerate([*lines, None]):
        if line is not None and line.code and line.comment:
            run.append(index)
            continue
        if run:
            column = max(_width(lines[k]) for k in run) + 2
            for k in run:
                columns[k] = column
            run = []
    out = []
    for index, line in enumerate(lines):
        if line is None:
            out.append("")
        elif not line.code:
            out.append(" " * line.indent + line.comment)
        elif line.comment:
            out.append((" " * line.indent + line.code).ljust(columns[index]) + line.comment)
        else:
            out.append(" " * line.indent + line.code)
    return "\n".join(out) + "\n" if out else ""


def _width(line: _Line | None) -> int:
    return 0 if line is None else line.indent + len(line.code)


def _comment_indents(lines: list[_Line | None]) -> None:
    """A comment alone on its line takes the indent of the code below it (of the block's
    contents, when that code closes the block)."""
    following: _Line | None = None
    for line in reversed(lines):
        if line is None:
            continue
        if line.code:
            following = line
            continue
        if following is None:
            line.indent = 0
        elif following.code.startswith("}"):
            line.indent = following.indent + 2
        else:
            line.indent = following.indent


def layout(text: str, *, breaking: bool = True,
           statements: set[tuple[int, int]] | None = None) -> str | None:
    """text in the canonical layout, or None when it is not made of the language's tokens.
    It does not check that text parses: `format_source` does. `statements`: where the text's
    statements start (fmt_lines.statement_starts), each then starting a line. Without
    breaking, no line is broken: not a long one, nor one with code after the `{` or before the
    `}` of a block that spans several lines, nor one that holds several statements."""
    lines = tokenize(text)
    if lines is None:
        return None
    if breaking:
        lines = else_after_brace(own_lines_for_braces(cut_statements(lines, statements or set())))
    laid = _Layout(lines, breaking).run()
    _comment_indents(laid)
    return _render(_spacing(laid))


class FormatError(Exception):
    """The formatted text would not mean what the original means (a bug of the formatter)."""


def format_source(source: SourceFile, diagnostics: Diagnostics) -> str | None:
    """The formatted text of a rules file, or None with diagnostics when it does not parse."""
    original = parse(source, diagnostics)
    if original is None or diagnostics.has_errors:
        return None
    formatted = layout(source.text, statements=statement_starts(original))
    if formatted is None:
        raise FormatError(f"{source.name}: tokens the parser took but the formatter did not")
    if formatted == source.text:
        return formatted
    again = parse(SourceFile(source.name, formatted), Diagnostics())
    if not _same(original, again):
        # A `##` doc comment documents every declaration on the line below it: breaking that
        # line would take the doc from those moved to the next one. Such a file keeps its
        # long lines.
        formatted = layout(source.text, breaking=False) or source.text
        again = parse(SourceFile(source.name, formatted), Diagnostics())
        if not _same(original, again):
            raise FormatError(f"{source.name}: the formatted text parses differently")
    return formatted


def _same(a: n.Module, b: n.Module | None) -> bool:
    """Whether two modules are the same AST, spans aside."""
    return b is not None and without_spans(a) == without_spans(b)


def without_spans(value: object) -> object:
    """A node as nested tuples of its values, without any span: node equality leaves out
    `span` but not the other fields that hold one (a call's `func_span`, ...)."""
    if isinstance(value, Span):
        return None
    if isinstance(value, tuple):
        return tuple(without_spans(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            without_spans(getattr(value, f.name)) for f in dataclasses.fields(value)
            if f.name != "span")
    return value


def unified_diff(name: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=f"{name} (original)", tofile=f"{name} (formatted)"))


@dataclass
class FormatResult:
    checked: list[Path]
    changed: list[Path]
    diffs: list[str]


def format_paths(files: list[Path], *, check: bool, diagnostics: Diagnostics) -> FormatResult:
    """Format each file in place (or, with check, only report what would change)."""
    result = FormatResult([], [], [])
    for path in files:
        name = display_name(path)
        source = read_source(path, name, diagnostics)
        if source is None:
            continue
        try:
            formatted = format_source(source, diagnostics)
        except FormatError as error:
            diagnostics.add("E0000", Span.point(name), f"fmt: {error}; the file is left as it is")
            continue
        if formatted is None:
            continue
        result.checked.append(path)
        if formatted != source.text:
            result.changed.append(path)
            if check:
                result.diffs.append(unified_diff(name, source.text, formatted))
            else:
                path.write_text(formatted, encoding="utf-8")
    return result


def rules_files(paths: list[Path], diagnostics: Diagnostics) -> list[Path]:
    """The `.rules` files named or found under the folders named, sorted, without repeats."""
    found: dict[Path, None] = {}
    for path in paths:
        problem = path_problem(path)
        if problem is not None:
            diagnostics.add("E0004", Span.point(display_name(path)), problem)
        elif path.is_dir():
            found.update(dict.fromkeys(sorted(path.rglob("*.rules"))))
        elif path.suffix == ".rules":
            found[path] = None
        else:
            diagnostics.add("E0004", Span.point(display_name(path)),
                            "fmt formats rules files (.rules) only")
    return list(found)


def fmt_command(paths: list[Path], *, check: bool) -> int:
    """`rulecraft fmt [--check] [PATH...]`: 0 when every file is (or now is) formatted."""
    from compiler.api import targets

    diagnostics = Diagnostics()
    files = rules_files(targets(paths or None, diagnostics), diagnostics)
    result = format_paths(files, check=check, diagnostics=diagnostics)
    sources: dict[str, SourceFile] = {}
    for diagnostic in diagnostics.sorted():
        text = sources.get(diagnostic.span.file)
        # the lines of rules files only: a file fmt refused is not shown (`fmt /etc/passwd`)
        if text is None and diagnostic.span.file.endswith(".rules") \
                and path_problem(Path(diagnostic.span.file)) is None \
                and Path(diagnostic.span.file).is_file():
            source = read_source(Path(diagnostic.span.file), diagnostic.span.file, Diagnostics())
            if source is not None:
                sources[source.name] = source
    if diagnostics.items:
        print(render(diagnostics.sorted(), sources, "text"))
    for diff in result.diffs:
        sys.stdout.write(diff)
    verb = "would reformat" if check else "reformatted"
    unread = len(files) - len(result.checked)  # not formatted: they do not parse
    print(f"{len(result.checked)} file{'s' * (len(result.checked) != 1)} checked, "
          f"{verb} {len(result.changed)}"
          + (f", {unread} left as {'it is' if unread == 1 else 'they are'} (errors above)"
             if unread else ""), file=sys.stderr)
    failed = diagnostics.has_errors or (check and bool(result.changed))
    return 1 if failed else 0
