"""Runaway nesting, reported as a diagnostic before Lark or any pass recurses: brackets nested
beyond MAX_NESTING, long runs of prefix operators, and (caught while building) an expression
nested too deeply to compile. Also the text with its strings and comments blanked out, which the
syntax errors read too.
"""

from __future__ import annotations

import re

from dsl.diagnostics import Diagnostics
from dsl.source import SourceFile, Span

MAX_NESTING = 200
NESTING_OPENERS = {"{": "}", "(": ")", "[": "]"}
_BRACKET = re.compile(r"[{}()\[\]]")
_PREFIX_RUN = re.compile(r"(?:(?:\bnot\b|-)\s*){" + str(MAX_NESTING) + ",}")


def too_deep(source: SourceFile, diagnostics: Diagnostics) -> None:
    """Report runaway nesting at the longest line: where such expressions are written."""
    number = max(range(len(source.lines)), key=lambda i: len(source.lines[i]), default=0) + 1
    diagnostics.add("E0006", Span.point(source.name, number, 1),
                    "this expression is nested too deeply to compile",
                    hint="split it with 'let' or a function")


def innermost_open(text: str, opening: str = "([{", closing: str = ")]}") -> int | None:
    """The index of the bracket the end of `text` is innermost inside (one of `opening`, not
    closed before the end), or None when every bracket is closed."""
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        char = text[index]
        if char in closing:
            depth += 1
        elif char in opening:
            if depth == 0:
                return index
            depth -= 1
    return None


def nesting_ok(source: SourceFile, diagnostics: Diagnostics) -> bool:
    """Brackets nested beyond MAX_NESTING are reported before Lark or any pass recurses."""
    depth = 0
    code = code_only(source.text)
    for bracket in _BRACKET.finditer(code):
        if bracket.group() in NESTING_OPENERS:
            depth += 1
            if depth > MAX_NESTING:
                start = bracket.start()
                diagnostics.add(
                    "E0006",
                    Span.point(source.name, code.count("\n", 0, start) + 1,
                               start - code.rfind("\n", 0, start)),
                    f"brackets are nested more than {MAX_NESTING} deep",
                    hint="flatten the rule with 'let' or a procedure",
                )
                return False
        elif depth > 0:
            depth -= 1
    # (the search takes longer than all the rest: made only when a run is possible)
    operators = _PREFIX_RUN.search(code) if (
        code.count("-") + code.count("not") >= MAX_NESTING) else None
    if operators:
        start = operators.start()
        line_number = code.count("\n", 0, start) + 1
        column_number = start - (code.rfind("\n", 0, start) + 1) + 1
        diagnostics.add(
            "E0006",
            Span.point(source.name, line_number, column_number),
            f"more than {MAX_NESTING} prefix operators in a row",
        )
        return False
    return True


# Without backslashes, a string runs to its closing quote or the end of its line, and a comment
# that is not in one to the end of its line: what code_only's loop reads, found by one pattern.
_STRING_OR_COMMENT = re.compile(r'"[^"\n]*"?|#[^\n]*')


def _blanked(found: re.Match[str]) -> str:
    text = found.group()
    return '"' + " " * (len(text) - 1) if text[0] == '"' else " " * len(text)


def code_only(text: str) -> str:
    """The text with strings and comments blanked out, keeping every position (a string's
    opening quote kept)."""
    if "\\" not in text:
        return _STRING_OR_COMMENT.sub(_blanked, text)
    return code_only_by_character(text)


def code_only_by_character(text: str) -> str:
    """code_only, reading every character (escapes included)."""
    out = list(text)
    in_string = escaped = in_comment = False
    for i, char in enumerate(text):
        if char == "\n":
            in_comment = in_string = False
            continue
        if in_comment:
            out[i] = " "
        elif in_string:
            out[i] = " "
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == "#":
            in_comment = True
            out[i] = " "
        elif char == '"':
            in_string = True
    return "".join(out)
