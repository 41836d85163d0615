"""The fast card-set reader against the PyYAML path on card sets written by a program (issue 12):
`yaml.safe_dump` sorts the keys (`cards` before `type`), writes lists as block sequences at
their key's indentation, folds long texts over several lines and quotes effects on several lines
(single quotes, or double quotes with escapes and escaped line breaks).

Every card set of the repository and random card sets full of awkward strings are dumped in
several layouts; the fast reader must give what the PyYAML path gives (values, spans and
diagnostics: tests.card_reading.check) and must read the layout safe_dump writes by default.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.bench_cards import dumped_yaml
from dsl import cardset, effect_spans
from dsl import nodes as n
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.parser import parse_effect
from dsl.simple_yaml import LINE, fold_plain, unquote_double, unquote_single
from dsl.source import SourceFile
from dsl.yaml_origins import Shift
from tests.card_reading import RG_FIELDS, ROOT, check, differences
from tests.test_fastcards import CARD_SETS
from tests.tiers import soak

# The layout of issue 12, then others safe_dump writes: no folding, escapes instead of
# unicode, keys in their order; and, not read by the fast reader, cards as flow mappings and
# deeper indentation. Whether a shipped card set in that layout is read fast.
LAYOUTS: list[tuple[dict[str, Any], bool]] = [
    ({"sort_keys": True, "allow_unicode": True, "width": 80}, True),
    ({"sort_keys": True, "allow_unicode": True}, True),
    ({"sort_keys": True, "allow_unicode": True, "width": 10**6}, True),
    ({"sort_keys": True, "allow_unicode": False, "width": 40}, True),
    ({"sort_keys": False, "allow_unicode": True, "width": 20}, True),
    ({"sort_keys": True, "allow_unicode": True, "default_flow_style": None}, False),
    ({"sort_keys": True, "allow_unicode": True, "indent": 4, "width": 30}, False),
]
SHIPPED = [(path, fields) for path, fields in CARD_SETS
           if path.is_relative_to(ROOT / "rulebooks")]


def loaded(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        return None


def test_shipped_card_sets_are_found() -> None:
    assert {path.parent.name for path, _ in SHIPPED} >= {"rulers_gambit", "dojo"}


@pytest.mark.parametrize(("path", "fields"), SHIPPED, ids=[p.parent.name for p, _ in SHIPPED])
def test_dumped_shipped_card_sets_are_read_fast(path: Path, fields: dict[str, set[str]]) -> None:
    """Issue 12: the layout safe_dump writes is read by the fast reader, not PyYAML."""
    data = loaded(path)
    assert isinstance(data, dict)
    assert check(dumped_yaml(data), fields, path.name)
    assert check(dumped_yaml(data, width=None), fields, path.name)
    mapped_alike(dumped_yaml(data), fields)


# The card sets that load as YAML: a test case's broken YAML has no data to dump again.
DUMPABLE = [(path, fields) for path, fields in CARD_SETS if loaded(path) is not None]


def test_the_card_sets_left_out_of_the_layouts_are_broken_yaml() -> None:
    """Only the test cases written as broken YAML are left out: a card set that stopped
    loading would otherwise drop out of the layouts unseen."""
    dumpable = {path for path, _ in DUMPABLE}
    left_out = [path for path, _ in CARD_SETS if path not in dumpable]
    assert sorted(path.name for path in left_out) == [
        "yaml_invalid.cards.yaml", "yaml_python_tag.cards.yaml"]
    for path in left_out:
        with pytest.raises(yaml.YAMLError):
            yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("path", "fields"), DUMPABLE, ids=[p.name for p, _ in DUMPABLE])
def test_dumped_card_sets_in_every_layout(path: Path, fields: dict[str, set[str]]) -> None:
    """Every card set of the repository that loads (the test cases' mistakes too) in every
    layout: the fast reader declines or agrees with the PyYAML path."""
    data = loaded(path)
    for layout, fast in LAYOUTS:
        read = check(yaml.safe_dump(data, **layout), fields, path.name)
        if path in dict(SHIPPED) and fast:
            assert read, layout


# ------------------------------------------------------------------ random card sets

# Strings that YAML reads as something else, or quotes, folds or escapes.
NASTY = ["", " ", "  x", "x  ", "a  b", "'", "''", '"', "it's", 'say "hi"', "a: b", "a:b",
         "a #b", "#x", "- x", "[a]", "{a}", "a, b", "? x", "!x", "&a", "*a", "|", ">", "%x",
         "@x", "`x", "\\", "\\n", "3", "-3", "+3", "0x1F", "0o7", "1e3", "1.5", ".5", "1_000",
         "yes", "No", "on", "OFF", "y", "null", "Null", "~", "true", "False", "---", "...",
         "é", "日本語", "émoji \U0001F600", "\u00a0nbsp", "tab\there", "a\nb", "a\n\nb",
         "\nlead", "trail\n", "x\n  y", "2024-01-01", "12:30", "=", "<<",
         "word " * 25, "a " * 60 + "b", "long-" * 30]
SAFE_WORD = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda word: word not in ("y", "n", "yes", "no", "on", "off", "true", "false", "null"))
TEXT = st.one_of(st.sampled_from(NASTY), st.text(
    st.characters(codec="utf-8"),
    max_size=30), st.lists(st.sampled_from(NASTY), min_size=1, max_size=6).map(" ".join))
# Effects as the rule language writes them (on several lines, indented), and some mistakes.
STATEMENTS = ["draw_cards(you, 1)", "heal(you, 2)", "damage(opponent(you), 3)",
              "if target != none { injure(target) }", "let c = first(hand[you])",
              "for u in units[you] { buff(u, 1, 0, 0) }", "draw_cards(you 1)", "heal(you,",
              "nobody(1)", "if size(hand[you]) <= 2 {\n  draw_cards(you, 1)\n}"]
EFFECT = st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=3).flatmap(
    lambda lines: st.sampled_from(["\n", "\n\n", " \n", "\n  "]).map(
        lambda sep: sep.join(lines))).flatmap(
    lambda text: st.sampled_from(["", "\n", "  "]).map(lambda tail: text + tail))
VALUE = st.one_of(st.integers(-50, 10**12), st.booleans(), st.none(), TEXT, SAFE_WORD,
                  st.lists(st.one_of(SAFE_WORD, TEXT, st.integers(0, 9)), max_size=4))
CARD = st.fixed_dictionaries(
    {"name": st.one_of(TEXT, SAFE_WORD.map(str.title)), "effect": EFFECT},
    optional={"description": TEXT, "passive": EFFECT, "cost": st.integers(0, 12),
              "keywords": st.lists(SAFE_WORD, max_size=3), "colour": SAFE_WORD,
              "flavour": VALUE, "x_extra": VALUE})
CARD_SET = st.fixed_dictionaries(
    {"cards": st.lists(CARD, min_size=1, max_size=4)},
    optional={"type": st.sampled_from(["Card", "Other"]), "set": TEXT})
LAYOUT = st.fixed_dictionaries({
    "sort_keys": st.booleans(), "allow_unicode": st.booleans(),
    "width": st.sampled_from([12, 30, 80, 10**6]),
    "default_flow_style": st.sampled_from([False, None])})


def mapped_alike(text: str, fields: dict[str, set[str]] = RG_FIELDS) -> None:
    """An effect of one line quoted (dsl.yaml_origins.first_line_shift) is read as its
    scalar's map would read it."""
    def load() -> tuple[Any, list[Diagnostic]]:
        diagnostics = Diagnostics()
        module = cardset.load_card_set(SourceFile("x.cards.yaml", text), fields, diagnostics)
        return module, diagnostics.items

    got = load()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cardset, "first_line_shift", lambda *_: None)
        expected = load()
    assert not list(differences(expected[0], got[0])) and expected[1] == got[1], text


@settings(database=None, deadline=None, max_examples=20,
          suppress_health_check=[HealthCheck.too_slow])
@given(CARD_SET, LAYOUT)
def test_random_dumped_card_sets(data: dict[str, Any], layout: dict[str, Any]) -> None:
    check(yaml.safe_dump(data, **layout))
    mapped_alike(yaml.safe_dump(data, **layout))


@pytest.mark.soak
@settings(database=None, deadline=None, max_examples=3000,
          suppress_health_check=[HealthCheck.too_slow])
@given(CARD_SET, LAYOUT)
def test_random_dumped_card_sets_soak(data: dict[str, Any], layout: dict[str, Any]) -> None:
    check(yaml.safe_dump(data, **layout))
    mapped_alike(yaml.safe_dump(data, **layout))


ONE_LINE_EFFECTS = ["heal(you, 1)", "if target != none { injure(target) }", "heal(you 1)",
                    "heal(you,", "nobody(1)", "", " heal(you, 1)", "heal(you, 1)  ",
                    "heal(you, 1) # c", "heal(you, 'x')", 'heal(you, "x")', "heal(you, 1) \\",
                    "é(you, 1)", "heal(you, 1) {", "}"]


@pytest.mark.parametrize("effect", ONE_LINE_EFFECTS)
def test_one_line_effects_are_placed_as_by_the_map(effect: str) -> None:
    for width in (12, 80):
        mapped_alike(yaml.safe_dump({"cards": [{"name": "A", "effect": effect + "\n"}]},
                                    width=width, allow_unicode=True))


@pytest.mark.parametrize("text", [*NASTY[::2], *soak(NASTY[1::2])])
def test_nasty_strings_are_read_fast(text: str) -> None:
    """A card whose texts (name aside: a name is one line) are each of the awkward strings,
    dumped folded and not: read by the fast reader, and alike."""
    card = {"name": "Nasty", "description": text, "flavour": text, "effect": "heal(you, 1)\n",
            "keywords": [text, "word"], "race": text}
    for width in (12, 80):
        for allow_unicode in (True, False):
            dumped = yaml.safe_dump({"type": "Card", "cards": [card]}, sort_keys=True,
                                    allow_unicode=allow_unicode, width=width)
            assert check(dumped, RG_FIELDS), dumped


@settings(database=None, deadline=None, max_examples=150)
@given(TEXT, st.sampled_from([8, 20, 80]), st.booleans())
def test_scalars_are_unfolded_as_libyaml_does(text: str, width: int, allow_unicode: bool
                                              ) -> None:
    """The values of quoted and plain scalars written over several lines."""
    dumped = yaml.safe_dump({"k": text}, width=width, allow_unicode=allow_unicode)
    if not dumped.startswith("k: ") or "\n..." in dumped or "\t" in dumped:
        return  # a block scalar or an explicit document end: not a one-key scalar
    scalar = dumped[3:].rstrip("\n")
    line = LINE.match(dumped)
    if line is None or line.group("other") is not None or line.end() != len(dumped):
        return  # a scalar the fast reader leaves to PyYAML ('\x85  ': NEL is a line break)
    if scalar[0] == "'":
        assert unquote_single(scalar) == text
    elif scalar[0] == '"':
        assert unquote_double(scalar) == text
    else:
        assert fold_plain(scalar, 0) == text


LISTS = [  # a block list under a card's key, and whether the fast reader reads it
    ("  - red\n  - green\n", True),
    ("    - red  # a comment\n    - 'g''s'\n    - \"b\\tc\"\n    - 3\n    - null\n", True),
    ("  - \"\\xE9moji\\\n    \\ \\U0001F600\"\n  - word\n", True),
    ("  - word word word\n    more words\n\n    and more\n  - b\n", True),
    ("    - 'a\n\n      b'\n    - c\n", True),
    ("  - word word word\n  more words\n  - b\n", False),  # refused by PyYAML
    ("  - a\n    - b\n", False),  # a continuation line starting with a dash
    ("  - a\n\n  - b\n", False),  # a blank line between items
    ("  - a\n   - b\n", False),
    ("  - [a]\n", False),
    ("  - a: 1\n", False),
    ("  -\n", False),
    (" - a\n", False),  # left of its key
]


@pytest.mark.parametrize(("items", "fast"), LISTS)
def test_block_lists(items: str, fast: bool) -> None:
    """A list ends where the next token starts (the next key, the next card, a top-level key
    or the end, after blank lines and comments): its span and its field's end there."""
    for after in ("  cost: 2\n", "  # c\n\n  cost: 2\n", "- name: B\n", "type: Card\n", ""):
        assert check("cards:\n- name: A\n  keywords:\n" + items + after) == fast, after
        assert check("cards:\n- keywords:  # k\n" + items + "  name: A\n" + after) == fast
TWO_TYPES = {"Card": {"effect"}, "Other": {"passive"}}
CARDS_FIRST = "cards:\n- effect: heal(you, 1)\n  name: A\n  passive: 'draw_cards(you,\n    1)'\n"


@pytest.mark.parametrize(("tail", "fast"), [
    ("type: Other\n", True), ("type: Card\n", True), ("set: x\ntype: Other  # last\n", True),
    ("type: 'Other'\n", False), ("", False), ("set: |\n  type: Card\n", False),
    ("type: Card\ntype: Other\n", False),
])
def test_type_after_the_cards(tail: str, fast: bool) -> None:
    """Keys sorted put 'type:' after the cards: with several card types, the cards are read
    as the type a later top-level line names, which must be the 'type:' read there."""
    assert check(CARDS_FIRST + tail, TWO_TYPES) == fast
    assert check(CARDS_FIRST + tail, {"Card": {"effect"}}) == ("Other" not in tail
                                                               and "|" not in tail)


# ------------------------------------------------------------------ moving an effect's spans


def parsed_effects(text: str) -> list[n.Block]:
    """The effects of a card set parsed on their own (at no shift), as parsed_effect parses a
    text whose positions it must move through a map."""
    source = SourceFile("x.cards.yaml", text)
    data = yaml.safe_load(text)
    blocks = []
    for card in data["cards"]:
        for key, value in card.items():
            if key in RG_FIELDS["Card"]:
                block = parse_effect(value, source, (0, 0), Diagnostics())
                assert block is not None
                blocks.append(block)
    return blocks


def test_effects_are_rebuilt_as_before() -> None:
    """effect_spans._rebuilt (recursive, the fast way) gives what effect_spans._with_spans gives."""
    path = ROOT / "rulebooks" / "rulers_gambit" / "starter.cards.yaml"
    move = Shift(3, 5).span
    for block in parsed_effects(path.read_text(encoding="utf-8")):
        expected = effect_spans._with_spans(block, move)
        assert isinstance(expected, n.Block) and expected.span == move(block.span)
        assert not list(differences(expected, effect_spans._rebuilt(block, move, {})))


def test_a_deep_effect_is_moved_without_recursion() -> None:
    """Where the stack is too short for _rebuilt, _with_spans moves the tree."""
    effect = "damage(you, " + " + ".join(["1"] * 300) + ")"
    (block,) = parsed_effects(f"cards:\n- name: A\n  effect: '{effect}'\n")
    move = Shift(3, 5)
    expected = effect_spans._with_spans(block, move.span)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 200)
    try:
        with pytest.raises(RecursionError):
            effect_spans._rebuilt(block, move.span, {})
        moved, _ = effect_spans.moved(block, [], move)
    finally:
        sys.setrecursionlimit(limit)
    assert not list(differences(expected, moved))
