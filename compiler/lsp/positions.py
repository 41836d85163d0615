"""Where the compiler's places and the protocol's meet: the one place columns and file names
are converted.

The compiler counts a column in characters from 1 (a span's column); the protocol counts a
line's code units from 0, in the encoding agreed at initialize: UTF-16 unless the client
offered UTF-8 or UTF-32 (pygls's position codec counts the units). They part on a line that
holds a character outside the Basic Multilingual Plane, an emoji: one character, two UTF-16
units. Converting needs the line's text: the editor's text of an open file, else the text the
check read, else the file on disk.

The compiler names a file by its resolved path (symbolic links followed); the client by the URI
it opened it with, which may go through a link (Uris).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from lsprotocol import types as lsp
from pygls.uris import from_fs_path, to_fs_path
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
        # Kept by the path asked for too: resolving it costs more than converting a column.
        found = self._lines.get(path)
        if found is not None:
            return found
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
        self._lines[path] = found
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


class Uris:
    """The URI the client knows a file by, for a resolved path: the URI a document was opened
    with; else the file's path under the most specific folder the client opened (a workspace
    folder, an open document's folder) when that folder is reached through a symbolic link;
    else the resolved path's. An answer about the resolved path of a file the client opened
    through a link would be about a file it never opened: its diagnostics not shown, a
    definition opening a second copy."""

    def __init__(self, opened: Iterable[str], folders: Iterable[str]) -> None:
        self.opened: dict[Path, str] = {}
        named = [Path(path) for path in map(to_fs_path, folders) if path is not None]
        for uri in opened:
            path = to_fs_path(uri)
            if path is not None:
                self.opened.setdefault(resolved(Path(path)), uri)
                named.append(Path(path).parent)
        linked: dict[Path, Path] = {}  # resolved folder: the folder as the client names it
        for folder in named:
            if resolved(folder) != folder:
                linked.setdefault(resolved(folder), folder)
        self.folders = sorted(linked.items(), key=lambda pair: len(pair[0].parts),
                              reverse=True)

    def of(self, path: Path) -> str:
        target = resolved(path)
        found = self.opened.get(target)
        if found is not None:
            return found
        named = target
        for real, folder in self.folders:
            if target.is_relative_to(real):
                named = folder / target.relative_to(real)
                break
        return from_fs_path(str(named)) or str(named)
