"""The fast card-set reader (dsl.fastcards) against the PyYAML path it stands in for.

For every card set in the repository, a generated one, and a battery of YAML edge cases, the
fast reader either declines (raises Unsupported, and load_card_set reads the file with PyYAML)
or gives the same AST as the PyYAML path, spans included (Node.span does not take part in
equality, so they are compared here field by field), and the same diagnostics. It is also
checked that the fast reader does read the real and the generated card sets, so that it cannot
silently decline everything. Every other case of the long batteries (values, block scalars,
variants) and the extra random seeds run in the soak tier. The edge cases are in
tests/test_fastcards_edge_cases.py, the random edits in tests/test_fastcards_random_edits.py.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import cast

import pytest
import yaml

from benchmarks.bench_cards import generate
from dsl import cardset, fastcards, node_builders
from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.source import SourceFile, Span
from tests.card_reading import (
    REFUSED,
    RG_FIELDS,
    ROOT,
    RULERS_GAMBIT,
    check,
    differences,
    effect_fields_of,
    slow,
)
from tests.tiers import soak


def test_differences_sees_spans() -> None:
    """The comparison used here would notice a wrong span (equality alone does not)."""
    source = SourceFile("x.cards.yaml", "type: Card\ncards:\n  - name: A\n    cost: 1\n")
    module, _ = slow(source, RG_FIELDS)
    moved = dataclasses.replace(module, span=dataclasses.replace(module.span, end_column=99))
    assert moved == module
    assert list(differences(module, moved))


# ------------------------------------------------------------------ real and generated sets


def card_sets() -> list[tuple[Path, dict[str, set[str]]]]:
    """Every card set in the repository, with the effect fields of a rulebook that loads it."""
    found: dict[Path, dict[str, set[str]]] = {}
    for rules in sorted([*ROOT.glob("rulebooks/**/*.rules"), *ROOT.glob("tests/**/*.rules")]):
        text = rules.read_text(encoding="utf-8")
        for path in re.findall(r'^\s*cards\s+"([^"]+)"', text, re.MULTILINE):
            file = (rules.parent / path).resolve()
            if file.is_file() and file not in found:
                found[file] = effect_fields_of(rules)
    for file in sorted([*ROOT.glob("rulebooks/**/*.cards.yaml"),
                        *ROOT.glob("tests/**/*.cards.yaml")]):
        found.setdefault(file.resolve(), RG_FIELDS)
    return sorted(found.items())


CARD_SETS = card_sets()


def test_card_sets_are_found() -> None:
    names = {path.name for path, _ in CARD_SETS}
    assert "starter.cards.yaml" in names and "valid.cards.yaml" in names
    assert len(CARD_SETS) >= 20


@pytest.mark.parametrize(("path", "fields"), CARD_SETS,
                         ids=[path.name for path, _ in CARD_SETS])
def test_repository_card_sets(path: Path, fields: dict[str, set[str]]) -> None:
    check(path.read_text(encoding="utf-8"), fields, path.name)


def test_real_card_set_is_read_fast() -> None:
    path = RULERS_GAMBIT / "starter.cards.yaml"
    assert check(path.read_text(encoding="utf-8"), RG_FIELDS, "starter.cards.yaml")


def test_valid_test_card_set_is_read_fast() -> None:
    path = ROOT / "tests" / "cases" / "cards" / "valid.cards.yaml"
    assert check(path.read_text(encoding="utf-8"), effect_fields_of(
        ROOT / "tests" / "cases" / "cards_valid.rules"), "valid.cards.yaml")


def test_effect_diagnostics_are_the_same() -> None:
    """Effects that do not parse are reported by both paths alike (and the card dropped)."""
    path = ROOT / "tests" / "cases" / "cards" / "effect_quoted.cards.yaml"
    fields = effect_fields_of(ROOT / "tests" / "cases" / "cards_effect_quoted.rules")
    assert check(path.read_text(encoding="utf-8"), fields)
    assert slow(SourceFile("x", path.read_text(encoding="utf-8")), fields)[1]


@pytest.mark.parametrize("seed", [1, *soak([2])])
def test_generated_card_set_is_read_fast(tmp_path: Path, seed: int) -> None:
    generate(tmp_path, 300, seed)
    path = tmp_path / "starter.cards.yaml"
    assert check(path.read_text(encoding="utf-8"), RG_FIELDS, str(path))


def test_fast_path_is_used_by_load_card_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """load_card_set does not compose the real card set with PyYAML."""
    def no_yaml(*args: object, **kwargs: object) -> None:
        raise AssertionError("PyYAML was used")

    monkeypatch.setattr(yaml, "compose", no_yaml)
    path = RULERS_GAMBIT / "starter.cards.yaml"
    diagnostics = Diagnostics()
    module = cardset.load_card_set(SourceFile("s", path.read_text(encoding="utf-8")),
                                   RG_FIELDS, diagnostics)
    assert module is not None and not diagnostics.items
    data = module.declarations[0]
    assert isinstance(data, n.DataDecl) and len(data.entries) > 50


def test_declined_diagnostics_are_taken_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the fast reader gives up after reporting an effect, the report is not doubled."""
    text = ("type: Card\ncards:\n  - name: A\n    effect: |\n      draw_cards(you 1)\n"
            "  - name: B\n    cost: 1.5\n")
    assert not check(text)
    _, expected = slow(SourceFile("x.cards.yaml", text), RG_FIELDS)
    diagnostics = Diagnostics()
    cardset.load_card_set(SourceFile("x.cards.yaml", text), RG_FIELDS, diagnostics)
    assert diagnostics.items == expected and len(expected) == 2


AFTER_REFUSAL = ['    flavour: "\\q"\n', '    flavour: "\\x41"\n', '    keywords: ["\\q"]\n',
                 "    keywords: [a, , b]\n", "    keywords: [a, b]\n", "    flavour: |\n",
                 "    flavour: |\n        a\n       b\n", "    flavour: |\n      a\n\n      b\n",
                 "    flavour: >\n      a\n      b\n", "    cost: 1.5\n", "    yes: 1\n",
                 "    effect: x\n", "    name: B\n", "    flavour: 'a'' b'\n",
                 "    on: |\n      x\n"]


@pytest.mark.parametrize("extra", AFTER_REFUSAL)
def test_text_after_a_refused_effect_is_still_checked(extra: str) -> None:
    """A card whose effect does not parse is dropped by both paths, but what follows it must
    still be valid YAML: the PyYAML path reports only that when it is not."""
    for tail in ("  - name: B\n    cost: 1\n", ""):
        check(REFUSED + extra + tail)
    assert check(REFUSED + "    keywords: [a, b]\n" + "    flavour: |\n      x\n")


@pytest.mark.parametrize("name", ["Late", "'Late'", '"Late"'])
def test_a_card_dropped_for_its_effect_keeps_its_name_on_both_paths(name: str) -> None:
    """Decks listing a dropped card are told it has errors, not that it is unknown (W0401):
    both readers keep its name, given before or after the effect."""
    after = (f"type: Card\ncards:\n  - cost: 2\n    effect: |\n      draw_cards(you 1)\n"
             f"    name: {name}\n"
             "  - name: B\n    cost: 1\n")
    before = REFUSED + "  - name: B\n    cost: 1\n"
    for text, rejected in ((after, ("Late",)), (before, ("A",))):
        assert check(text)
        module, _ = slow(SourceFile("x.cards.yaml", text), RG_FIELDS)
        assert module.declarations[0].rejected == rejected


# ------------------------------------------------------------------ the builders


def test_builders_make_ordinary_nodes() -> None:
    span = fastcards._span("f", 1, 2, 3, 4)
    assert fastcards._span is cast(object, node_builders._SpanBuilder)  # passed its check
    assert type(span) is Span and span == Span("f", 1, 2, 3, 4)
    assert hash(span) == hash(Span("f", 1, 2, 3, 4)) and repr(span) == repr(Span("f", 1, 2, 3, 4))
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.line = 2  # type: ignore[misc]
    value = fastcards._int_lit(3, span)
    node = fastcards._field_value("k", value, span)
    assert type(node) is n.FieldValue and node.span is span and node.value is value
    assert node == n.FieldValue("k", n.IntLit(3, span=span), span=span)
    assert repr(node) == repr(n.FieldValue("k", n.IntLit(3, span=span), span=span))
    entry = fastcards._entry("A", (node,), "text", span)
    assert entry == n.Entry("A", (node,), "text", span=span) and entry.span is span
    assert list(differences(entry, n.Entry("A", (node,), "text", span=span))) == []


def test_builders_fall_back_to_the_constructor() -> None:
    """A class the builders cannot copy (here one with a __post_init__) is built by its own
    constructor."""
    calls: list[int] = []

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked(n.ExprBase):
        value: int

        def __post_init__(self) -> None:
            calls.append(self.value)

    build = node_builders.node_builder(Checked, 1)
    calls.clear()
    node = build(5, Span("f", 1, 2, 3, 4))
    assert calls == [5] and node == Checked(5, span=Span("f", 1, 2, 3, 4))

    @dataclasses.dataclass(frozen=True)
    class Unslotted(n.ExprBase):  # its field lives in the instance's __dict__
        value: int = 0

    unslotted = node_builders.node_builder(Unslotted, 1)(2, Span("f", 1, 2, 3, 4))
    assert unslotted == Unslotted(2, span=Span("f", 1, 2, 3, 4))
