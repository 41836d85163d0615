"""compiler.pygen.wrap breaks long lines exactly as the first, character-by-character version
did (kept here as the reference): generated modules must stay byte-identical. Checked on random
lines of brackets, quotes, escapes, commas and operators, and on every line of the Ruler's
Gambit module."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from compiler import pygen
from compiler.driver import check_rulebook
from compiler.pygen import generate_python

ROOT = Path(__file__).resolve().parent.parent
_OPEN, _CLOSE = "([{", ")]}"


# ---- the reference: the first version, one character at a time
def scan(text: str) -> list[tuple[int, int]]:
    result: list[tuple[int, int]] = []
    depth = 0
    quote = ""
    escaped = False
    for i, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char in "'\"":
            quote = char
            continue
        if char in _CLOSE:
            depth -= 1
        result.append((i, depth))
        if char in _OPEN:
            depth += 1
    return result


def split_top(text: str) -> tuple[list[str], bool]:
    positions = [i for i, depth in scan(text) if depth == 0]
    commas = [i + 1 for i in positions if text[i] == ","]
    cuts = commas
    if not cuts:
        for separators in ((" and ", " or "), (" if ", " else ", " for "), (" + ", " - ")):
            cuts = [i for i in positions if any(text.startswith(sep, i) for sep in separators)]
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


def wrap(line: str, limit: int = 100) -> list[str]:
    if len(line) <= limit or line.lstrip().startswith("#"):
        return [line]
    indent = line[: len(line) - len(line.lstrip())]
    best: tuple[int, int] | None = None
    stack: list[int] = []
    for i, _depth in scan(line):
        if line[i] in _OPEN:
            stack.append(i)
        elif line[i] in _CLOSE and stack:
            start = stack.pop()
            if not stack and (best is None or i - start > best[1] - best[0]):
                best = (start, i)
    if best is None or best[1] - best[0] < 2:
        return [line]
    start, end = best
    pieces, by_comma = split_top(line[start + 1 : end])
    out = [line[: start + 1]]
    for piece in pieces:
        text = indent + "    " + piece
        if by_comma and not piece.endswith(","):
            text += ","
        out.extend(wrap(text, limit))
    out.append(indent + line[end:])
    return out


# ---- the tests
PARTS = ["(", ")", "[", "]", "{", "}", "'", '"', "\\", ",", " ", " and ", " or ", " if ",
         " else ", " for ", " + ", " - ", "x", "12", "abc", "\n", "#", "  "]


@pytest.mark.parametrize("seed", range(3))
def test_random_lines_wrap_as_the_reference_does(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3000):
        line = "".join(rng.choice(PARTS) for _ in range(rng.randint(0, 90)))
        for limit in (10, 40, 100):
            assert pygen.wrap(line, limit) == wrap(line, limit), (line, limit)
        assert pygen._split_top(line) == split_top(line), line


def test_every_line_of_a_generated_module_wraps_as_the_reference_does() -> None:
    compilation = check_rulebook(ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules")
    assert compilation.model is not None
    lines: list[str] = []
    original = pygen.wrap

    def recording(line: str, limit: int = pygen.LINE_LIMIT) -> list[str]:
        lines.append(line)
        return original(line, limit)

    pygen.wrap = recording  # type: ignore[assignment]
    try:
        generate_python(compilation.model)
    finally:
        pygen.wrap = original  # type: ignore[assignment]
    assert any(len(line) > 1000 for line in lines)  # the card tables
    for line in lines:
        assert original(line) == wrap(line), line
