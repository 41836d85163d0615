"""compiler.doc_render._render writes what render() then the blank-line fix-ups write, though it
joins and fixes the text a few thousand pieces at a time: runs of blank lines across the cuts,
text that is only whitespace, text with characters beyond Latin-1, and both documents'
patterns."""

from __future__ import annotations

import random
import re

import jinja2
import pytest

from compiler.doc_render import _render

PATTERNS = [(r"\n{3,}", "\n\n"), (r"\n\s*\n", "\n")]
# with characters that take two or four bytes in a str, which _render keeps apart
PIECES = ["\n", "\n\n", "  ", "\t", " \n ", "x", "word", "\n\n\n\n", " ", "a\n", "—", "é—",
          "😀\n", "x“y”z"]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("pattern", "by"), PATTERNS)
def test_rendering_by_pieces_gives_what_render_gives(seed: int, pattern: str, by: str) -> None:
    rng = random.Random(seed)
    template = jinja2.Environment().from_string("{% for p in pieces %}{{ p }}{% endfor %}")
    for size in (0, 1, 5000, 9000, 20000):
        pieces = [rng.choice(PIECES) for _ in range(size)]
        if seed == 3:
            pieces = [" "] * size  # nothing but whitespace
        expected = re.sub(pattern, by, template.render(pieces=pieces)).rstrip() + "\n"
        assert _render(template, {"pieces": pieces}, re.compile(pattern), by) == expected
