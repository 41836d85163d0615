"""The fast card-set reader against the PyYAML path: card sets edited at random, mostly into
invalid YAML or another shape (see tests/test_fastcards.py).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from dsl.source import SourceFile, Span
from tests.card_reading import BASE, HEAD, REFUSED, RG_FIELDS, card, check, shift_indented, slow
from tests.tiers import seeds

PIECES = [" ", "  ", "\n", ":", ": ", "-", "- ", "#", " #", '"', "'", "|", ">", "[", "]", ",",
          "a", "1", "\\", "\\n", "|-", "\n    ", "\n  - ", "\n\n", "x: 1\n", "{", "&", "*", "!",
          "?", "~", "é", ".", "0x", "\t", "\r"]
FUZZ_BASES = [
    BASE,
    shift_indented(BASE, -2),
    REFUSED + '    flavour: "a"\n  - name: B\n    keywords: [a, b]\n    cost: 2\n'
    "    effect: |\n      draw_cards(you, 1)\n",
    HEAD + card("flavour: >-\n        a\n        b\n\n        c", "keywords: ['x', \"y\", z]",
                "cost: -3")
    + card("effect: |+\n        draw_cards(you, 1)\n\n", name="'B''s'") + "# end\n",
]


@pytest.mark.parametrize("seed", seeds(1, 4))
def test_random_edits(seed: int) -> None:
    """Card sets edited at random (mostly into invalid YAML, or another shape): the fast reader
    declines or agrees. (Many more seeds were run while writing it.)"""
    rng = random.Random(seed)
    read = 0
    for _ in range(150):
        text = rng.choice(FUZZ_BASES)
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(text) + 1)
            choice = rng.random()
            if choice < 0.5:
                text = text[:pos] + rng.choice(PIECES) + text[pos:]
            elif choice < 0.8:
                text = text[:pos] + text[pos + rng.randint(1, 3):]
            else:
                text = text[:pos] + rng.choice(PIECES) + text[pos + 1:]
        read += check(text)
    assert read > 10  # some edits keep the shape the fast reader reads


# Effects of every style, some with errors: folded, plain and quoted on several lines, escapes,
# doubled quotes, an indentation indicator, lines libyaml breaks and SourceFile does not.
STYLES_BASE = (
    HEAD
    + card("effect: >\n        draw_cards(you,\n        nobody)")
    + card("effect: draw_cards(you,\n        1) heal(you 2)", name="B")
    + card('effect: "draw_cards(you, \\"x\\"\\t+ nobody)\\\n        heal(you, 2)"', name="C")
    + card("effect: 'draw_cards(you, ''x'' 1)\n\n        if true {'", name="D")
    + card("effect: |2\n         draw_cards(you, 1)\n        heal(you, 2)", name="E")
    + card('description: "a\u2028b\x85c"', "effect: draw_cards(nobody, 1)", name="F")
    + card("effect: >-\n        draw_cards(you, 1)\n\n          heal(you, 2)\n        x", name="G")
)
STYLE_PIECES = [*PIECES, "\u2028", "\x85", "\r\n", "\\t", "\\x41", "''", "\\\n", ">2", "|1",
                "\n        ", "{", "}", "(", ")"]


def spans_in(value: object) -> Iterator[Span]:
    if isinstance(value, Span):
        yield value
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from spans_in(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from spans_in(item)


@pytest.mark.parametrize("seed", seeds(1, 3))
def test_random_edits_of_effects_in_every_style(seed: int) -> None:
    """Effects that are not copies of the file (their positions go through dsl.yaml_origins),
    edited at random: nothing raises, both paths agree, and every position (of a diagnostic,
    of a node) is in the file."""
    rng = random.Random(seed)
    for _ in range(150):
        text = STYLES_BASE
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(text) + 1)
            if rng.random() < 0.7:
                text = text[:pos] + rng.choice(STYLE_PIECES) + text[pos:]
            else:
                text = text[:pos] + text[pos + rng.randint(1, 3):]
        check(text)
        source = SourceFile("x.cards.yaml", text)
        module, found = slow(source, RG_FIELDS)
        for span in [*spans_in(module), *(d.span for d in found)]:
            assert 1 <= span.line <= len(source.lines) + 1, (text, span)
            assert span.column >= 1 and (span.end_line, span.end_column) >= (span.line,
                                                                              span.column)
            assert span.column <= len(source.line(span.line)) + 2, (text, span)
