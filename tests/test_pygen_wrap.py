"""compiler.pygen_wrap.wrap breaks long lines exactly as the first, character-by-character
version did (kept here as the reference): generated modules must stay byte-identical. Checked on
random lines of brackets, quotes, escapes, commas and operators, and on every line of the Ruler's
Gambit module. So does compiler.pygen_wrap.wrap_items, its shortcut for the card tables' lines
of thousands of items."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from compiler import pygen_wrap
from compiler.driver import check_rulebook
from compiler.pygen import generate_python
from tests.tiers import seeds

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


@pytest.mark.parametrize("seed", seeds(1, 3))
def test_random_lines_wrap_as_the_reference_does(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3000):
        line = "".join(rng.choice(PARTS) for _ in range(rng.randint(0, 90)))
        for limit in (10, 40, 100):
            assert pygen_wrap.wrap(line, limit) == wrap(line, limit), (line, limit)
        assert pygen_wrap._split_top(line) == split_top(line), line


def table_line(head: str, items: list[str], trailing_comma: bool) -> str:
    body = "".join(f"{item}, " for item in items) if trailing_comma else ", ".join(items)
    return f"{head}({body}{',' if len(items) == 1 and not trailing_comma else ''})"


ITEMS = ["0", "-7", "12345", "True", "None", "x.y", "'a'", "'a, b'", "'(['", '"it\'s"',
         "'\\'", "'q\\'x'", "[]", "[1, 2]", "(3, 4)", "(x, 'y')", "'#'", "# no", "a + b",
         "f(1, 2)", "'" + "w" * 120 + "'", "[" + ", ".join(["99"] * 40) + "]", "", " 1", "x,"]
HEADS = ["T: Final = ", "C_X: Final[tuple[int, ...]] = ", "    S.Z = ", "# T = ", "f(",
         "T: Final[tuple[int, ...], ...] = ", "a[", "x] = ", "'s' = ", "T = (1) + ", ""]


@pytest.mark.parametrize("seed", seeds(1, 3))
def test_table_lines_wrap_as_the_reference_does(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        head = rng.choice(HEADS)
        size = rng.choice([0, 1, 2, 3, rng.randint(0, 60)])
        pool = ITEMS if rng.random() < 0.5 else ITEMS[:6]  # many lines take the shortcut
        items = [rng.choice(pool) for _ in range(size)]
        trailing = rng.random() < 0.5
        line = table_line(head, items, trailing)
        for limit in (10, 40, 100):
            expected = "\n".join(wrap(line, limit))
            assert pygen_wrap.wrap_items(head, items, trailing, limit) == expected, (line, limit)


def test_table_lines_are_written_as_repr_writes_tuples() -> None:
    for names in ([], ["a"], ["a", "b's", 'c"'], [f"card {i}" for i in range(50)]):
        items = [repr(name) for name in names]
        assert table_line("T = ", items, False) == f"T = {tuple(names)!r}"
        writer = pygen_wrap.Writer()
        writer.line(f"T = {tuple(names)!r}")
        writer.items("T = ", items, trailing_comma=False)
        assert writer.lines[0] == writer.lines[1]


def test_every_line_of_a_generated_module_wraps_as_the_reference_does() -> None:
    compilation = check_rulebook(ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules")
    assert compilation.model is not None
    lines: list[str] = []
    tables: list[tuple[str, str]] = []
    original, original_items = pygen_wrap.wrap, pygen_wrap.wrap_items

    def recording(line: str, limit: int = pygen_wrap.LINE_LIMIT) -> list[str]:
        lines.append(line)
        return original(line, limit)

    def recording_items(head: str, items: Sequence[str], trailing_comma: bool,
                        limit: int = pygen_wrap.LINE_LIMIT) -> str:
        text = original_items(head, items, trailing_comma, limit)
        tables.append((table_line(head, list(items), trailing_comma), text))
        return text

    pygen_wrap.wrap = recording  # type: ignore[assignment]
    pygen_wrap.wrap_items = recording_items  # type: ignore[assignment]
    try:
        generate_python(compilation.model)
    finally:
        pygen_wrap.wrap = original  # type: ignore[assignment]
        pygen_wrap.wrap_items = original_items  # type: ignore[assignment]
    assert any(len(line) > 1000 for line, _ in tables)  # the card tables
    for line in lines:
        assert original(line) == wrap(line), line
    for line, text in tables:
        assert text == "\n".join(wrap(line)), line


DOC_PARTS = ["a", "word", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "é", '"""', "\\", "-",
             "x" * 30, "end.", "\x0b"]


def docstring_reference(text: str, level: int) -> list[str]:
    """Writer.docstring as it was: every text through textwrap.wrap."""
    writer = pygen_wrap.Writer()
    writer.level = level
    width = pygen_wrap.LINE_LIMIT - 4 * level - 6
    lines = textwrap.wrap(pygen_wrap.escape_docstring(text), width) or [""]
    if len(lines) == 1:
        writer.line(f'"""{lines[0]}"""')
        return writer.lines
    writer.line(f'"""{lines[0]}')
    for line in lines[1:]:
        writer.line(line)
    writer.line('"""')
    return writer.lines


@pytest.mark.parametrize("seed", seeds(1, 3))
def test_writer_writes_lines_and_docstrings_as_wrap_and_textwrap_do(seed: int) -> None:
    """Writer.line's way for one line that fits, and Writer.docstring's for a text that fits
    one line, write what wrap() and textwrap.wrap write."""
    rng = random.Random(seed)
    for _ in range(3000):
        level = rng.randint(0, 4)
        line = "".join(rng.choice(PARTS) for _ in range(rng.randint(0, 40)))
        writer = pygen_wrap.Writer()
        writer.level = level
        writer.line(line)
        assert writer.lines == ([""] if not line else [
            "\n".join(wrap("    " * level + part, pygen_wrap.LINE_LIMIT))
            for part in line.split("\n")]), line
        text = "".join(rng.choice(DOC_PARTS) for _ in range(rng.randint(0, 12)))
        writer = pygen_wrap.Writer()
        writer.level = level
        writer.docstring(text)
        assert writer.lines == docstring_reference(text, level), text


def test_a_block_that_raises_leaves_the_writer_as_it_was_then() -> None:
    writer = pygen_wrap.Writer()
    with pytest.raises(ValueError), writer.block("if x:"):
        writer.line("y = 1")
        raise ValueError
    assert (writer.lines, writer.level) == (["if x:", "    y = 1"], 1)
    writer = pygen_wrap.Writer()
    with writer.block("if x:"):
        pass
    assert (writer.lines, writer.level) == (["if x:", "    pass"], 0)
