"""Source files and spans: where every AST node, diagnostic and generated line points back to."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open region of a source file, 1-based lines and columns."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    @staticmethod
    def point(file: str, line: int = 1, column: int = 1) -> Span:
        return Span(file, line, column, line, column + 1)

    def to(self, other: Span) -> Span:
        """The span from the start of self to the end of other."""
        return Span(self.file, self.line, self.column, other.end_line, other.end_column)


@dataclass(frozen=True)
class SourceFile:
    """A decoded source text and the name diagnostics use for it."""

    name: str
    text: str
    lines: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Only "\n" ends a line, as for Lark: splitlines() would also break at form feeds and
        # other separators and shift every line number after them.
        lines = self.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        object.__setattr__(self, "lines", tuple(line.removesuffix("\r") for line in lines))

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


def display_name(path: Path) -> str:
    """Paths relative to the working directory when possible, so messages stay short."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()
