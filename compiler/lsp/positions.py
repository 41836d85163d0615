"""Where the compiler's columns and the protocol's meet: the one place they are converted.

The compiler counts a column in characters from 1 (a span's column); the protocol counts a
line's code units from 0, in the encoding agreed at initialize: UTF-16 unless the client
offered UTF-8 or UTF-32 (pygls's position codec counts the units). They part on a line that
holds a character outside the Basic Multilingual Plane, an emoji: one character, two UTF-16
units. Converting needs the line's text: the editor's text of an open file, else the text the
check read, else the file on disk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from lsprotocol import types as lsp
from pygls.workspace import PositionCodec

from dsl.source import SourceFile, Span, resolved


class Columns:
    """Positions of the files of one answer, in the protocol's units and the compiler's."""

    def __init__(self, codec: PositionCodec, texts: dict[Path, str],
                 checked: Callable[[Path], str | None] | None = None) -> None:
        """texts: the open documents' texts by resolved path; checked: the text the check
        read of a file (None: not one of the rulebook's)."""
        self.codec = codec
        self.texts = texts
        self.checked = checked
        self._lines: dict[Path, Sequence[str]] = {}

    def lines(self, path: Path) -> Sequence[str]:
        target = resolved(path)
        found = self._lines.get(target)
        if found is None:
            text = self.texts.get(target)
            if text is None and self.checked is not None:
                text = self.checked(target)
            if text is None:
                try:
                    text = target.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    text = ""
            found = self._lines[target] = SourceFile(str(target), text).lines
        return found

    def line(self, path: Path, number: int) -> str:
        """The text of a 1-based line ("" past the end)."""
        lines = self.lines(path)
        return lines[number - 1] if 0 < number <= len(lines) else ""

    # ---- compiler to protocol -------------------------------------------------------------
    def units(self, text: str, column: int) -> int:
        """The protocol's character (from 0) of a 1-based character column of a line; a
        column past the line's end stays as far past it."""
        index = max(column - 1, 0)
        if text.isascii():
            return index
        return int(self.codec.client_num_units(text[:index])) + max(index - len(text), 0)

    def position(self, path: Path, line: int, column: int) -> lsp.Position:
        return lsp.Position(line=max(line - 1, 0),
                            character=self.units(self.line(path, line), column))

    def range(self, span: Span, path: Path | None = None) -> lsp.Range:
        """A span as a range of its file (or of `path`, the file it is known to be in)."""
        where = Path(span.file) if path is None else path
        return lsp.Range(start=self.position(where, span.line, span.column),
                         end=self.position(where, span.end_line, span.end_column))

    # ---- protocol to compiler -------------------------------------------------------------
    def column(self, text: str, character: int) -> int:
        """The 1-based character column of the protocol's character of a line: a position
        inside a character (between the halves of a surrogate pair) is the one after it."""
        if text.isascii():
            return character + 1
        counted = 0
        for index, char in enumerate(text):
            if counted >= character:
                return index + 1
            counted += int(self.codec.client_num_units(char))
        return len(text) + max(character - counted, 0) + 1

    def at(self, path: Path, position: lsp.Position) -> tuple[int, int]:
        """The 1-based line and character column of a position in a file."""
        line = position.line + 1
        return line, self.column(self.line(path, line), position.character)

    def span(self, path: Path, where: lsp.Range) -> Span:
        start, end = self.at(path, where.start), self.at(path, where.end)
        return Span(str(path), start[0], start[1], end[0], end[1])
