"""Parsing effects by shape (dsl.parser.EffectShapes) gives exactly what parsing each text does.

Card texts that differ only in their numbers share one parse, and one AST built from it
that each text copies with its own numbers and positions. These differential tests
parse every effect text of the real card set, and a few hundred varied ones (other numbers,
numbers in strings, comments and annotations, too-large numbers, broken texts), both ways, and
compare the ASTs node by node, spans included (nodes compare without their spans), and the
diagnostics.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest
import yaml

from dsl import nodes as n
from dsl.ast_builder import MAX_INT_DIGITS
from dsl.diagnostics import Diagnostics
from dsl.effect_shapes import EffectShapes
from dsl.parser import parse_effect
from dsl.source import SourceFile
from tests.tiers import soak

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rulebooks" / "rulers_gambit"
EFFECT_FIELD = re.compile(r"^\s*(\w+)\s*:\s*effect\s*\(", re.MULTILINE)
NUMBER = re.compile(r"\b\d+\b")
SOURCE = SourceFile("cards.yaml", "")
SHIFT = (7, 6)


def real_effect_texts() -> list[str]:
    fields = set(EFFECT_FIELD.findall((GAME / "rulers_gambit.rules").read_text("utf-8")))
    cards = yaml.safe_load((GAME / "starter.cards.yaml").read_text("utf-8"))["cards"]
    texts = {card[f] for card in cards for f in fields if isinstance(card.get(f), str)}
    return sorted(texts)


def varied(texts: list[str], count: int, seed: int) -> list[str]:
    """Real texts with other numbers (some huge or with leading zeros), and some with numbers
    in places that are not INT tokens, or broken."""
    rng = random.Random(seed)

    def number(_: re.Match[str]) -> str:
        return rng.choice([str(rng.randint(0, 99)), str(rng.randint(0, 10**12)), "007",
                           "9" * MAX_INT_DIGITS, "1" * (MAX_INT_DIGITS + 1)])

    out: list[str] = []
    for _ in range(count):
        text = NUMBER.sub(number, rng.choice(texts))
        twist = rng.randrange(6)
        if twist == 1:
            text = f'require 3 > 2 else "only 3 or 4 times"\n{text}'
        elif twist == 2:
            text = f"# costs 2 more when 3 are out\n{text}  # 12 x3"
        elif twist == 3:
            text = f"@rule.4 let x{rng.randint(1, 9)} = {rng.randint(1, 99)}\n{text}"
        elif twist == 4:
            text = text[: rng.randrange(len(text))]  # usually a syntax error
        elif twist == 5:
            negatives = f"let n = -{rng.randint(1, 9)} - -({rng.randint(1, 9)})"
            text = text.replace(" ", "", 1) + "\n" + negatives
        out.append(text)
    return out


def deep(value: object) -> object:
    """A node tree as plain values, spans included."""
    if isinstance(value, n.Node):
        fields = tuple((f.name, deep(getattr(value, f.name))) for f in dataclasses.fields(value))
        return (type(value).__name__, fields)
    if isinstance(value, (tuple, list)):
        return tuple(deep(v) for v in value)
    return value


def both_ways(text: str, shapes: EffectShapes) -> tuple[object, object]:
    """The text parsed directly, and by shape: copied from its shape's template when it has one
    (asked first, as parse_effect asks only for texts dsl.effect_parser declines, and the copies
    must be right for any text), else as parse_effect with shapes reads it."""
    direct, by_shape = Diagnostics(), Diagnostics()
    expected = parse_effect(text, SOURCE, SHIFT, direct)
    got = shapes.block(text, SOURCE.name, SHIFT) or parse_effect(
        text, SOURCE, SHIFT, by_shape, shapes)
    return (deep(expected), direct.items), (deep(got), by_shape.items)


def test_parse_effect_asks_shapes_only_for_texts_the_fast_parser_declines() -> None:
    """dsl.effect_parser reads a card's text faster than a template is copied: the shapes see
    only the texts it declines (here, annotated ones), and those are still copied."""
    shapes = EffectShapes()
    for number in range(3, 9):
        plain = f"damage(target, {number})"
        assert parse_effect(plain, SOURCE, SHIFT, Diagnostics(), shapes) == parse_effect(
            plain, SOURCE, SHIFT, Diagnostics())
    assert not shapes.rough and not shapes.templates
    for number in range(3, 9):
        annotated = f"@combat let x = {number}"
        direct = parse_effect(annotated, SOURCE, SHIFT, Diagnostics())
        assert deep(parse_effect(annotated, SOURCE, SHIFT, Diagnostics(), shapes)) == deep(direct)
    assert any(copy is not None for copy in shapes.templates.values())


def test_every_real_effect_text_parses_the_same_by_shape() -> None:
    shapes = EffectShapes()
    texts = real_effect_texts()
    assert len(texts) > 50
    for text in texts:
        expected, got = both_ways(text, shapes)
        assert got == expected, text
    assert not shapes.trees  # no shape needed Lark: dsl.effect_parser read them all
    assert any(template is not None for template in shapes.templates.values())  # and copied


@pytest.mark.parametrize("seed", [1, *soak([2, 3])])
def test_varied_effect_texts_parse_the_same_by_shape(seed: int) -> None:
    shapes = EffectShapes()
    texts = varied(real_effect_texts(), 150, seed)
    for text in texts:
        expected, got = both_ways(text, shapes)
        assert got == expected, text
    assert len(shapes.trees) < len(texts)


@pytest.mark.parametrize("text", [
    "@S12 let x = 3\nlet y = [4, 5]",       # an annotation (a keyword field of its node)
    "## adds 3\n@combat damage(target, 3)",  # documentation and an annotation
    "if x > 2 { draw_cards(you, 1) } else { discard(first(hand[you])) }",
])
def test_texts_with_keyword_fields_and_nested_blocks_are_copied_with_their_spans(
        text: str) -> None:
    shapes = EffectShapes()
    for other in "89":  # the text's shape, met twice: its copier is made
        head, three, tail = text.rpartition("3")  # the last 3, never the comment's
        both_ways(head + (other if three else "") + tail, shapes)
    expected, got = both_ways(text, shapes)
    assert got == expected
    assert any(copy is not None for copy in shapes.templates.values())


def test_a_shape_is_copied_from_its_second_text_even_when_worked_out_late() -> None:
    """A shape is worked out only when a second text of its rough shape (digits as 1s) comes;
    the second text of a shape is still the first copied, and texts whose rough shapes agree
    but whose names differ (c1, c2) share nothing."""
    shapes = EffectShapes()
    texts = ["damage(c1, 3)", "heal(you, 12)", "damage(c2, 3)", "damage(c1, 7)",
             "heal(you, 95)", "damage(c2, 4)", "damage(c1, 1)"]
    copied = [shapes.block(text, SOURCE.name, SHIFT) is not None for text in texts]
    assert copied == [False, False, False, True, True, True, True]
    for text in texts:
        expected, got = both_ways(text, shapes)
        assert got == expected, text


def test_a_shape_is_used_for_texts_that_differ_only_in_numbers() -> None:
    shapes = EffectShapes()
    first = shapes.tree("damage(target, 3)\nlet x = [1, 22]")
    second = shapes.tree("damage(target, 7)\nlet x = [4, 56]")
    assert first is not None and second is not None
    assert len(shapes.trees) == 1


@pytest.mark.parametrize("text", [
    'say("3")',                    # a number in a string: part of the shape, not taken out
    "x = 1 # 3",                   # and in a comment
    "draw_cards(you, 0)",          # nothing
])
def test_numbers_in_strings_and_comments_stay_in_the_shape(text: str) -> None:
    shapes = EffectShapes()
    shapes.tree(text)
    assert all(key.count('"3"') == text.count('"3"') for key in shapes.trees)
    assert all("# 3" in key for key in shapes.trees if "#" in text)


@pytest.mark.parametrize("text", [
    "@rule.3 let x = 1",           # a run of digits that is not an INT token
    "let x = 1 +",                 # a syntax error
    "let x = " + "1" * (MAX_INT_DIGITS + 1),  # too large: reported by the direct parse
    "let x = y",                   # no numbers
])
def test_texts_a_shape_cannot_stand_for_are_parsed_directly(text: str) -> None:
    assert EffectShapes().tree(text) is None
