"""Writing the generated module's lines: wrap() breaks a line of Python at 100 characters,
wrap_items() is its shortcut for the long lines of data tables, and Writer indents, wraps and
joins the lines of the module."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator, Sequence
from types import TracebackType

from dsl.source import Span

LINE_LIMIT = 100
_OPEN, _CLOSE = "([{", ")]}"


# A string literal (to the end of the text when it is never closed), or a bracket: what
# decides where a line of Python may be broken. Table lines hold thousands of values, so they
# are scanned by token, not by character.
_STRING_OR_BRACKET = re.compile(
    r"""'(?:[^'\\]|\\.)*(?:'|\\?\Z)|"(?:[^"\\]|\\.)*(?:"|\\?\Z)|[()\[\]{}]""", re.DOTALL
)
# Where a bracket's contents are broken when they hold no top-level comma, by preference.
_SEPARATORS = tuple(
    re.compile("(?=" + "|".join(re.escape(s) for s in group) + ")")
    for group in ((" and ", " or "), (" if ", " else ", " for "), (" + ", " - "))
)


def _top_gaps(text: str) -> list[tuple[int, int]]:
    """(start, end) of each stretch of text outside string literals and brackets, at depth 0."""
    gaps: list[tuple[int, int]] = []
    depth = 0
    done = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        start = match.start()
        if depth == 0 and start > done:
            gaps.append((done, start))
        char = text[start]
        if char in _CLOSE:
            depth -= 1
        elif char in _OPEN:
            depth += 1
        done = match.end()
    if depth == 0 and len(text) > done:
        gaps.append((done, len(text)))
    return gaps


def _find_all(text: str, char: str, start: int, end: int) -> Iterator[int]:
    i = text.find(char, start, end)
    while i != -1:
        yield i
        i = text.find(char, i + 1, end)


def _split_top(text: str) -> tuple[list[str], bool]:
    """Split bracket contents at depth-0 commas (True), else before depth-0 operators."""
    gaps = _top_gaps(text)
    commas = [i + 1 for start, end in gaps for i in _find_all(text, ",", start, end)]
    cuts = commas
    if not cuts:
        for separators in _SEPARATORS:
            # an operator is made of spaces and letters, so it lies inside one stretch
            cuts = [found.start() for start, end in gaps
                    for found in separators.finditer(text, start, end)]
            if cuts:
                break
    pieces: list[str] = []
    start = 0
    for cut in [*cuts, len(text)]:
        piece = text[start:cut].strip()
        if piece:
            pieces.append(piece)
        start = cut
    return pieces, bool(commas)


def wrap(line: str, limit: int = LINE_LIMIT) -> list[str]:
    """Break a too-long line of Python inside its widest bracket pair, recursively."""
    if len(line) <= limit or line.lstrip().startswith("#"):
        return [line]
    indent = line[: len(line) - len(line.lstrip())]
    best: tuple[int, int] | None = None
    stack: list[int] = []
    for match in _STRING_OR_BRACKET.finditer(line):
        i = match.start()
        if line[i] in _OPEN:
            stack.append(i)
        elif line[i] in _CLOSE and stack:
            start = stack.pop()
            if not stack and (best is None or i - start > best[1] - best[0]):
                best = (start, i)
    if best is None or best[1] - best[0] < 2:
        return [line]
    start, end = best
    pieces, by_comma = _split_top(line[start + 1 : end])
    out = [line[: start + 1]]
    for piece in pieces:
        text = indent + "    " + piece
        if by_comma and not piece.endswith(","):
            text += ","
        out.extend(wrap(text, limit))
    out.append(indent + line[end:])
    return out


# Table items that wrap() keeps whole, each followed by a newline: items with no comma of their
# own outside brackets and strings (a number or name, a string literal, or a bracketed list of
# numbers and names) and no newline. Possessive: a plain `*` keeps a state per item to go back
# to, megabytes for a table of 10,000 items.
_TABLE_ITEMS = re.compile(
    r"""(?:(?:[-\w.]+|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\([-\w., ]*\)|\[[-\w., ]*\])\n)*+"""
)


def wrap_items(head: str, items: Sequence[str], trailing_comma: bool,
               limit: int = LINE_LIMIT) -> str:
    """The lines wrap() makes of the line `head(item, item, ...)` (with `, ` after the last item
    too when trailing_comma, else as repr() writes a tuple), joined by newlines, without
    scanning the line token by token: a card table's line holds 10,000 items. Lines that
    wrap() might break elsewhere than after each item are left to it."""
    if trailing_comma:
        body = "".join([item + ", " for item in items])
    else:
        body = ", ".join(items) + ("," if len(items) == 1 else "")
    line = f"{head}({body})"
    if len(line) <= limit:
        return line
    indent = head[: len(head) - len(head.lstrip())]
    if not items or head.lstrip().startswith("#") or not _breaks_at_items(head, len(body) + 1):
        return "\n".join(wrap(line, limit))
    listed = "\n".join(items) + "\n"
    if listed.count("\n") != len(items) or _TABLE_ITEMS.fullmatch(listed) is None:
        return "\n".join(wrap(line, limit))
    inner = indent + "    "
    if max(map(len, items)) + len(inner) + 1 <= limit:  # no item line to break
        return f"{head}(\n{inner}" + f",\n{inner}".join(items) + f",\n{indent})"
    out = [head + "("]
    for item in items:
        out.extend(wrap(f"{inner}{item},", limit))
    out.append(indent + ")")
    return "\n".join(out)


def _breaks_at_items(head: str, width: int) -> bool:
    """Whether wrap() breaks `head(...)` inside the bracket pair after head, `width` apart:
    head has no string and its brackets pair up, each pair narrower."""
    if "'" in head or '"' in head or "\n" in head:
        return False
    stack: list[int] = []
    for match in _STRING_OR_BRACKET.finditer(head):
        i = match.start()
        if head[i] in _OPEN:
            stack.append(i)
        elif not stack or i - stack.pop() >= width:
            return False
    return not stack


class Writer:
    """An indenting line writer, as in Jinja2's CodeGenerator."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.level = 0
        self.joined = 0  # lines[:joined] are runs of lines joined already, see block()

    def line(self, text: str = "") -> None:
        if not text:
            self.lines.append("")
            return
        if "\n" not in text:  # most lines: one, short, as wrap() would keep it
            full = "    " * self.level + text
            self.lines.append(full if len(full) <= LINE_LIMIT else "\n".join(wrap(full)))
            return
        for part in text.split("\n"):
            # a wrapped line stays one entry: a table of 10,000 values is one string, not
            # 10,000 (the module is these entries joined by newlines all the same)
            self.lines.append("\n".join(wrap("    " * self.level + part)))

    def items(self, head: str, items: Sequence[str], trailing_comma: bool = True) -> None:
        """The line `head(item, item, ...)`, as line() writes it (see wrap_items): head and
        items are of one line each, as line() would otherwise split them."""
        assert "\n" not in head and "\n" not in "".join(items)
        self.lines.append(wrap_items("    " * self.level + head, items, trailing_comma))

    def source(self, span: Span) -> None:
        self.line(f"# {comment_text(span.file)}:{span.line}")

    def block(self, header: str) -> Block:
        """`with w.block("if x:"):` writes the header and indents what the block writes
        (`pass` when it writes nothing)."""
        return Block(self, header)

    def docstring(self, text: str) -> None:
        width = LINE_LIMIT - 4 * self.level - 6
        text = escape_docstring(text)
        if 0 < len(text) <= width and text.isprintable() and not text[-1].isspace():
            # what textwrap.wrap gives such a text (no tab, no other whitespace than spaces,
            # nothing to drop at its end), without its chunking: most effects' docstrings
            lines = [text]
        else:
            lines = textwrap.wrap(text, width) or [""]
        if len(lines) == 1:
            self.line(f'"""{lines[0]}"""')
            return
        self.line(f'"""{lines[0]}')
        for line in lines[1:]:
            self.line(line)
        self.line('"""')

    def text(self) -> str:
        """The lines joined, without trailing whitespace, ending in one newline: in one join,
        not a join then a copy for the end (the module is megabytes long)."""
        lines = self.lines
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            return "\n"
        lines[-1] = lines[-1].rstrip()
        lines.append("")
        return "\n".join(lines)


class Block:
    """Writer.block's context: a class, not a generator, as the generator's machinery took
    a tenth of a second of a 10,000-card build (56,000 blocks). A block that raises leaves the
    writer as it was when it raised, as the generator did."""

    __slots__ = ("writer", "header", "mark")

    def __init__(self, writer: Writer, header: str) -> None:
        self.writer = writer
        self.header = header
        self.mark = 0

    def __enter__(self) -> None:
        writer = self.writer
        writer.line(self.header)
        writer.level += 1
        self.mark = len(writer.lines)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is not None:
            return
        writer = self.writer
        if len(writer.lines) == self.mark:
            writer.line("pass")
        writer.level -= 1
        if writer.level == 0 and len(writer.lines) - writer.joined >= 1024:
            # Between top-level blocks, no block's mark points into the lines: a thousand
            # short strings become one, a tenth of their memory in object headers.
            writer.lines[writer.joined:] = ["\n".join(writer.lines[writer.joined:])]
            writer.joined += 1


def escape_docstring(text: str) -> str:
    """Text of the rules that a docstring holds as written: its backslashes and quotes cannot
    end the string (a `"` last would run into the closing quotes), and it is one line."""
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').replace("\n", " ")
    return text[:-1] + '\\"' if text.endswith('"') else text


def comment_text(text: str) -> str:
    """Text of the rules (a file name) that a `#` comment holds: one line of printable
    characters, so that no line break in it starts a line of code."""
    return text if text.isprintable() else repr(text)[1:-1]
