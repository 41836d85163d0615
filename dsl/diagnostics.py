"""Diagnostics as data: collected by every pass, rendered in one place."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from enum import Enum

from dsl.codes import CODES
from dsl.source import SourceFile, Span


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    code: str
    span: Span
    message: str
    notes: tuple[str, ...] = ()
    hint: str | None = None

    @property
    def severity(self) -> Severity:
        return Severity.ERROR if self.code.startswith("E") else Severity.WARNING

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.span.file, self.span.line, self.span.column, self.code)


@dataclass
class Diagnostics:
    """A bag that passes add to; nothing is raised, so one run reports every problem."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(
        self,
        code: str,
        span: Span,
        message: str,
        *,
        hint: str | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        if code not in CODES:  # a compiler bug, not a user error
            raise KeyError(f"unregistered diagnostic code {code}")
        self.items.append(Diagnostic(code, span, message, tuple(notes), hint))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        unique = dict.fromkeys(self.items)
        return sorted(unique, key=Diagnostic.sort_key)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming up to four close matches, as Elm does."""
    matches = get_close_matches(name, sorted(set(candidates)), n=4, cutoff=0.6)
    if not matches:
        return None
    if len(matches) == 1:
        return f"did you mean '{matches[0]}'?"
    return "did you mean one of " + ", ".join(f"'{m}'" for m in matches) + "?"


# Characters of a user's file that a terminal would act on instead of showing: control
# characters (an escape sequence clears the screen or retitles the window) and the
# bidirectional controls that reorder what is read ("Trojan Source"), and the line and paragraph
# separators. Tabs and line ends are laid out as they are.
CONTROL_CHARACTERS = "\x00-\x08\x0b-\x1f\x7f-\x9f"  # a character class: all but tab, line feed
_UNSHOWN = re.compile(f"[{CONTROL_CHARACTERS}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def shown(text: str) -> str:
    """Text from a user's files (a name, a message quoting one) as a terminal may print it:
    each character it would act on written as its escape, `\\x1b`."""
    if _UNSHOWN.search(text) is None:
        return text
    return _UNSHOWN.sub(lambda m: m[0].encode("unicode_escape").decode("ascii"), text)


def render_text(diagnostic: Diagnostic, sources: dict[str, SourceFile]) -> str:
    span = diagnostic.span
    lines = [f"{shown(str(span))}: {diagnostic.severity.value}[{diagnostic.code}]: "
             f"{shown(diagnostic.message)}"]
    source = sources.get(span.file)
    if source is not None and span.line <= len(source.lines):
        # one character for one, so that the caret stays under its column
        raw = _UNSHOWN.sub("\ufffd", source.line(span.line))
        text = raw.expandtabs(4)
        # the caret goes under the column as the line is shown, its tabs expanded
        column = len(raw[: span.column - 1].expandtabs(4)) + 1
        gutter = " " * len(str(span.line))
        width = (
            len(raw[: span.end_column - 1].expandtabs(4)) + 1 - column
            if span.end_line == span.line and span.end_column > span.column
            else 1
        )
        width = max(1, min(width, len(text) - column + 2))
        lines.append(f"{span.line:>{len(gutter)}} | {text}")
        lines.append(f"{gutter} | {' ' * (column - 1)}{'^' * width}")
        prefix = gutter
    else:
        prefix = " "
    for note in diagnostic.notes:
        lines.append(f"{prefix} = note: {shown(note)}")
    if diagnostic.hint:
        lines.append(f"{prefix} = help: {shown(diagnostic.hint)}")
    return "\n".join(lines)


def to_json_object(diagnostic: Diagnostic) -> dict[str, object]:
    span = diagnostic.span
    return {
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "file": span.file,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "message": diagnostic.message,
        "notes": list(diagnostic.notes),
        "hint": diagnostic.hint,
    }


def github_escape(text: str, *, prop: bool = False) -> str:
    """Text for a GitHub workflow command: its message, or with `prop` a property's value."""
    text = shown(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render(
    diagnostics: Sequence[Diagnostic], sources: dict[str, SourceFile], fmt: str = "text"
) -> str:
    """Every diagnostic in one of the CLI's formats: text, json or github."""
    if fmt == "json":
        return json.dumps([to_json_object(d) for d in diagnostics], indent=2)
    if fmt == "github":
        out = []
        for d in diagnostics:
            s = d.span
            kind = "error" if d.severity is Severity.ERROR else "warning"
            # an annotation's message may hold several lines: the notes, then the help
            message = "\n".join([f"[{d.code}] {d.message}", *(f"note: {note}" for note in d.notes),
                                  *([f"help: {d.hint}"] if d.hint else [])])
            out.append(
                f"::{kind} file={github_escape(s.file, prop=True)},line={s.line},"
                f"col={s.column},endLine={s.end_line},endColumn={s.end_column},"
                f"title={d.code}::{github_escape(message)}"
            )
        return "\n".join(out)
    return "\n\n".join(render_text(d, sources) for d in diagnostics)


def summary(diagnostics: Sequence[Diagnostic]) -> str:
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    warnings = len(diagnostics) - errors
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
