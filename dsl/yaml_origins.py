"""Where the characters of a YAML scalar's value are in its file.

A card's effect is the *value* of a YAML scalar, which is not always a piece of the file copied:
a folded block (`>`) and a plain or quoted scalar written on several lines join their lines with
spaces, a double-quoted scalar has escapes, a single-quoted one doubles its quotes. A diagnostic
in an effect is found at a position in the value; this module maps it back to the file by
reading the scalar's text again the way libyaml's scanner does (yaml/scanner.c:
yaml_parser_scan_flow_scalar, _scan_plain_scalar, _scan_block_scalar), noting for each character
of the value where it came from. What it reads is compared with the value libyaml gave: a map is
only made when they are the same, so a style this reading gets wrong gives no map (and the
caller an approximate position), never a wrong one.

Positions here are those of dsl.source: only "\\n" ends a line and columns count characters.
libyaml also ends lines at CR, NEL (U+0085), U+2028 and U+2029, so only the character indices of
its marks are used, never their lines and columns.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from dsl.source import SourceFile, Span

_NEWLINE = re.compile("\n")
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}


@dataclass(frozen=True, slots=True)
class Scalar:
    """Where a scalar is in its file's text. style: "" (plain), "'", '"', "|" or ">"; start:
    the index of its first character (an opening quote, a block's indicator); end: the index
    just after its last one (a closing quote; not used for a block, whose end is found by
    reading it); line, column: those of start, 0-based."""

    style: str
    start: int
    end: int
    line: int
    column: int


class Shift:
    """The map of a value that is one piece of the file, or whose every line is: positions move
    by a constant number of lines and columns."""

    def __init__(self, lines: int, columns: int) -> None:
        self.lines = lines
        self.columns = columns

    def span(self, s: Span) -> Span:
        dl, dc = self.lines, self.columns
        return Span(s.file, s.line + dl, s.column + dc, s.end_line + dl, s.end_column + dc)

    def point(self, line: int, column: int) -> tuple[int, int]:
        return line + self.lines, column + self.columns


class Origins:
    """The map of a value whose characters are each somewhere in the file: built by origins()."""

    def __init__(self, text: str, scalar: Scalar, value: str, starts: list[int],
                 ends: list[int], after: int) -> None:
        self.length = len(value)
        self.value_lines = [0, *(m.end() for m in _NEWLINE.finditer(value))]
        self.starts = starts  # where each character of the value starts in the text
        self.ends = ends  # and ends (an escape, a line break: several characters of the text)
        self.after = after  # where the end of the value is in the text
        self.base = scalar.start - scalar.column  # the index where the scalar's line starts
        self.base_line = scalar.line
        last = max(after, max(ends, default=after))
        self.newlines = [m.start() for m in _NEWLINE.finditer(text, self.base, last + 1)]

    def where(self, index: int) -> tuple[int, int]:
        """The 1-based line and column of an index of the text."""
        before = bisect.bisect_left(self.newlines, index)
        line_start = self.newlines[before - 1] + 1 if before else self.base
        return self.base_line + before + 1, index - line_start + 1

    def offset(self, line: int, column: int) -> int:
        """The index in the value of a 1-based line and column of it."""
        if line < 1:
            return 0
        if line > len(self.value_lines):
            return self.length
        return min(max(self.value_lines[line - 1] + column - 1, 0), self.length)

    def start(self, offset: int) -> tuple[int, int]:
        return self.where(self.starts[offset] if offset < self.length else self.after)

    def span(self, s: Span) -> Span:
        begin, finish = self.offset(s.line, s.column), self.offset(s.end_line, s.end_column)
        line, column = self.start(begin)
        if begin < finish:
            end_line, end_column = self.where(self.ends[finish - 1])
            last_line, last_column = self.where(self.starts[finish - 1])
            if end_line != last_line:  # it ends with a line break: at the end of its line
                end_line, end_column = last_line, last_column + 1
        else:  # empty in the value, or past its end: as wide as it was
            width = s.end_column - s.column if s.end_line == s.line else 1
            end_line, end_column = line, column + max(width, 0)
        return Span(s.file, line, column, end_line, end_column)

    def point(self, line: int, column: int) -> tuple[int, int]:
        return self.start(self.offset(line, column))


def same_lines(text: str) -> bool:
    """Whether libyaml's lines in text are ours: it also ends lines at CR, NEL, U+2028 and
    U+2029 (substring tests: a card set may be megabytes long)."""
    return not ("\x85" in text or "\u2028" in text or "\u2029" in text
                or text.count("\r") != text.count("\r\n"))


class _Mismatch(Exception):  # noqa: N818 - internal signal: this is not what libyaml read
    pass


class _Reading:
    """Where each character of value comes from, as read so far. Reading stops at the first
    character that is not value's: a block read at a wrong indentation would otherwise go on
    to the end of the file."""

    def __init__(self, value: str) -> None:
        self.value = value
        self.starts: list[int] = []
        self.ends: list[int] = []

    def add(self, char: str, start: int, end: int) -> None:
        if self.value[len(self.starts):len(self.starts) + 1] != char:
            raise _Mismatch
        self.starts.append(start)
        self.ends.append(end)

    def complete(self) -> bool:
        return len(self.starts) == len(self.value)


_Break = tuple[str, int, int]  # a line break as libyaml keeps it, its start and its end


def _break(text: str, p: int) -> int:
    """The length of the line break at p (0 when there is none)."""
    char = text[p:p + 1]
    if char == "\r":
        return 2 if text[p + 1:p + 2] == "\n" else 1
    return 1 if char and char in "\n\x85\u2028\u2029" else 0


def _line_break(text: str, p: int, width: int) -> _Break:
    # libyaml reads CR LF, CR, LF and NEL as "\n" and keeps U+2028 and U+2029
    char = text[p]
    return ("\n" if char in "\r\n\x85" else char), p, p + width


def exact_shift(source: SourceFile, scalar: Scalar, value: str) -> tuple[int, int] | None:
    """(lines, columns) that take every position in value to its position in the file, when
    there are such: a flow scalar whose value is its text; a block whose every line is the rest
    of a line of the file after the block's indentation (a literal block, a folded one that
    folds nothing). None otherwise."""
    text = source.text
    if scalar.style in ("|", ">"):
        indent = -1
        for number, piece in enumerate(value.split("\n")):
            if piece:
                line = source.line(scalar.line + 2 + number)
                if indent < 0:
                    indent = len(line) - len(piece)
                    if indent < 0 or line[:indent].strip(" "):
                        return None
                if line[indent:] != piece:
                    return None
        return scalar.line + 1, max(indent, 0)
    quote = 1 if scalar.style in ("'", '"') else 0
    if text[scalar.start + quote:scalar.end - quote] == value:
        return scalar.line, scalar.column + quote
    return None


def first_line_shift(text: str, scalar: Scalar, value: str) -> tuple[int, int] | None:
    """(lines, columns) that take the positions of value's first line to the file, when value
    is one line and a line break and that line is a piece of a quoted scalar's first line (as
    yaml.safe_dump writes an effect of one line: 'S', an empty line, the closing quote); None
    otherwise. Positions at and after the line break are not moved right by it."""
    if scalar.style not in ("'", '"') or not value.endswith("\n"):
        return None
    line = value[:-1]
    piece = text[scalar.start + 1:scalar.start + 1 + len(line)]
    if piece != line or "\n" in line or ("\\" if scalar.style == '"' else "'") in line:
        return None  # (an escape or a doubled quote: its characters are not the file's)
    return scalar.line, scalar.column + 1


def approximate_shift(source: SourceFile, scalar: Scalar) -> tuple[int, int]:
    """The shift of the start of the scalar's text, when no map could be made: exact for its
    first line (but for a block's first line that str.strip() finds blank)."""
    if scalar.style in ("|", ">"):
        for number in range(scalar.line + 2, len(source.lines) + 1):
            line = source.line(number)
            if line.strip():
                return scalar.line + 1, len(line) - len(line.lstrip(" "))
        return scalar.line + 1, 0
    return scalar.line, scalar.column + (1 if scalar.style in ("'", '"') else 0)


def origins(text: str, scalar: Scalar, value: str) -> Origins | None:
    """The map of value, read from text where scalar is; None when what is read there is not
    value (a style or an input this reading does not follow)."""
    try:
        if scalar.style in ("|", ">"):
            return _block(text, scalar, value)
        reading = _Reading(value)
        after = _flow(text, scalar, reading)
        if not reading.complete():
            return None
        return Origins(text, scalar, value, reading.starts, reading.ends, after)
    except Exception:  # noqa: BLE001 - odd input must cost the precise position, not a crash
        return None


def _flow(text: str, scalar: Scalar, reading: _Reading) -> int:
    """Read a plain, single- or double-quoted scalar; where its value ends in the text."""
    single, double = scalar.style == "'", scalar.style == '"'
    if single or double:
        p, limit = scalar.start + 1, scalar.end - 1
        if limit < p or text[scalar.start] != scalar.style or text[limit] != scalar.style:
            raise _Mismatch
    else:
        p, limit = scalar.start, scalar.end
    while p < limit:
        # the characters up to a space, a tab or a line break
        leading_blanks = False
        leading: _Break | None = None
        while p < limit and text[p] not in " \t" and not _break(text, p):
            char = text[p]
            if single and char == "'":
                if text[p + 1] != "'":
                    raise _Mismatch
                reading.add("'", p, p + 2)
                p += 2
            elif double and char == "\\":
                width = _break(text, p + 1)
                if width:  # an escaped line break: the lines join with nothing between
                    p += 1 + width
                    leading_blanks = True
                    break
                code = text[p + 1]
                if code in _HEX_DIGITS:
                    end = p + 2 + _HEX_DIGITS[code]
                    digits = text[p + 2:end]
                    if len(digits) != _HEX_DIGITS[code] or not all(
                            d in "0123456789abcdefABCDEF" for d in digits):
                        raise _Mismatch
                    reading.add(chr(int(digits, 16)), p, end)
                    p = end
                elif code in _ESCAPES:
                    reading.add(_ESCAPES[code], p, p + 2)
                    p += 2
                else:
                    raise _Mismatch
            else:
                reading.add(char, p, p + 1)
                p += 1
        # then spaces and line breaks: spaces between words are kept; spaces around a line
        # break go, and the break becomes a space, or the breaks after it stay
        spaces: list[int] = []
        trailing: list[_Break] = []
        while p < limit:
            if text[p] in " \t":
                if not leading_blanks:
                    spaces.append(p)
                p += 1
                continue
            width = _break(text, p)
            if not width:
                break
            if leading_blanks:
                trailing.append(_line_break(text, p, width))
            else:
                spaces.clear()
                leading = _line_break(text, p, width)
                leading_blanks = True
            p += width
        if leading_blanks:
            if leading is not None and leading[0] == "\n":
                if trailing:
                    for found in trailing:
                        reading.add(*found)
                else:
                    reading.add(" ", leading[1], leading[2])
            else:
                for found in ([leading] if leading is not None else []) + trailing:
                    reading.add(*found)
        else:
            for at in spaces:
                reading.add(text[at], at, at + 1)
    return p


def _block(text: str, scalar: Scalar, value: str) -> Origins | None:
    """The map of a block scalar's value: its header, then its lines read at each indentation
    libyaml may have used (that of its parent, which only the parser knows, plus an explicit
    indentation indicator; or found from its first lines), keeping the one that gives value."""
    p = scalar.start + 1
    chomping = 0
    increment = 0
    for _ in range(2):
        char = text[p:p + 1]
        if char in ("+", "-") and char and not chomping:
            chomping = 1 if char == "+" else -1
            p += 1
        elif char in ("1", "2", "3", "4", "5", "6", "7", "8", "9") and not increment:
            increment = int(char)
            p += 1
    while text[p:p + 1] in (" ", "\t") and p < len(text):
        p += 1
    if text[p:p + 1] == "#":
        while p < len(text) and not _break(text, p):
            p += 1
    width = _break(text, p)
    if not width and p < len(text):
        raise _Mismatch
    p += width
    literal = text[scalar.start] == "|"
    if increment:
        indents = [increment + parent for parent in range(scalar.column + 1)]
    else:
        indents = [0, *range(1, scalar.column + 2)]  # 0: found from the lines
    for indent in indents:
        reading = _Reading(value)
        try:
            after = _block_lines(text, p, indent, literal, chomping, reading)
        except _Mismatch:
            continue
        if reading.complete():
            return Origins(text, scalar, value, reading.starts, reading.ends, after)
    return None


def _block_lines(text: str, p: int, indent: int, literal: bool, chomping: int,
                 reading: _Reading) -> int:
    """Read a block scalar's lines from p (the start of the line after its header) at
    indentation indent (0: found as libyaml does); where its value ends in the text."""
    size = len(text)
    line_start = p
    leading: _Break | None = None
    trailing: list[_Break] = []

    def breaks() -> None:
        """Skip indentation and empty lines, keeping their line breaks."""
        nonlocal p, line_start, indent
        widest = 0
        while True:
            while (not indent or p - line_start < indent) and p < size and text[p] == " ":
                p += 1
            widest = max(widest, p - line_start)
            if (not indent or p - line_start < indent) and p < size and text[p] == "\t":
                raise _Mismatch  # a tab in the indentation: libyaml refuses it
            width = _break(text, p)
            if not width:
                break
            trailing.append(_line_break(text, p, width))
            p += width
            line_start = p
        if not indent:
            indent = max(widest, 1)

    breaks()
    leading_blank = False
    after = p
    while p - line_start == indent and p < size:
        trailing_blank = text[p] in " \t"
        # a folded block joins two lines with a space, unless one starts with a space or
        # there are empty lines between them (which give their line breaks instead)
        if (not literal and leading is not None and leading[0] == "\n"
                and not leading_blank and not trailing_blank):
            if not trailing:
                reading.add(" ", leading[1], leading[2])
        elif leading is not None:
            reading.add(*leading)
        leading = None
        for found in trailing:
            reading.add(*found)
        trailing.clear()
        leading_blank = trailing_blank
        while p < size and not _break(text, p):
            reading.add(text[p], p, p + 1)
            p += 1
        after = p
        width = _break(text, p)
        if width:
            leading = _line_break(text, p, width)
            p += width
            line_start = p
        breaks()
    if chomping != -1 and leading is not None:
        reading.add(*leading)
    if chomping == 1:
        for found in trailing:
            reading.add(*found)
    return after
