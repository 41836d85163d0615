"""Helpers for the fast card-set reader's tests (tests/test_fastcards*.py): `check`, which
compares the fast reader with the PyYAML path it stands in for, and card-set texts to start from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dsl import cardset, fastcards
from dsl import nodes as n
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.parser import parse
from dsl.simple_yaml import Unsupported
from dsl.source import SourceFile

ROOT = Path(__file__).resolve().parent.parent
RULERS_GAMBIT = ROOT / "rulebooks" / "rulers_gambit"
DECLINED = "declined"


def effect_fields_of(rules: Path) -> dict[str, set[str]]:
    """The effect fields of each card type of a rulebook, as compiler.driver computes them."""
    module = parse(SourceFile(str(rules), rules.read_text(encoding="utf-8")), Diagnostics())
    assert module is not None, rules
    return {
        d.name: {f.name for f in d.fields if isinstance(f.type, n.EffectType)}
        for d in module.declarations
        if isinstance(d, n.RecordDecl) and d.is_card
    }


RG_FIELDS = effect_fields_of(RULERS_GAMBIT / "rulers_gambit.rules")


def slow(source: SourceFile, fields: dict[str, set[str]]) -> tuple[Any, list[Diagnostic]]:
    """load_card_set with the fast reader switched off: the PyYAML path."""
    diagnostics = Diagnostics()
    module = cardset._load_card_set_yaml(source, fields, diagnostics)
    return module, diagnostics.items


def fast(source: SourceFile, fields: dict[str, set[str]]) -> tuple[Any, list[Diagnostic]]:
    """The fast reader alone, or DECLINED."""
    diagnostics = Diagnostics()
    reader = cardset._Reader(source, diagnostics, "E0403")
    try:
        module = fastcards.read_card_set(source, fields, cardset._Semantics(reader))
    except Unsupported:
        return DECLINED, []
    return module, diagnostics.items


def differences(a: object, b: object, path: str = "module") -> Iterator[str]:
    """Where a and b differ, spans included."""
    if type(a) is not type(b):
        yield f"{path}: {type(a).__name__} != {type(b).__name__}"
    elif dataclasses.is_dataclass(a):
        for field in dataclasses.fields(a):
            yield from differences(getattr(a, field.name), getattr(b, field.name),
                                   f"{path}.{field.name}")
    elif isinstance(a, tuple | list):
        assert isinstance(b, tuple | list)
        if len(a) != len(b):
            yield f"{path}: {len(a)} items != {len(b)}"
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from differences(x, y, f"{path}[{index}]")
    elif a != b:
        yield f"{path}: {a!r} != {b!r}"


def check(text: str, fields: dict[str, set[str]] | None = None, name: str = "x.cards.yaml"
          ) -> bool:
    """Assert the fast reader declines or agrees with the PyYAML path; True when it read."""
    fields = RG_FIELDS if fields is None else fields
    source = SourceFile(name, text)
    expected, expected_diagnostics = slow(source, fields)
    got, got_diagnostics = fast(source, fields)
    if got is DECLINED:
        return False
    found = list(differences(expected, got))
    assert not found, (text, found[:5])
    assert got_diagnostics == expected_diagnostics, text
    # Diagnostic compares its span too (a dataclass field), but make the point explicit
    assert [d.span for d in got_diagnostics] == [d.span for d in expected_diagnostics]
    # and load_card_set itself gives the same
    diagnostics = Diagnostics()
    again = cardset.load_card_set(source, fields, diagnostics)
    assert not list(differences(expected, again)) and diagnostics.items == expected_diagnostics
    return True


# Card-set texts to start from: a card refused for its effect, a set's head and a card, and a
# set with most of what the fast reader reads.
REFUSED = "type: Card\ncards:\n  - name: A\n    effect: |\n      draw_cards(you 1)\n"
HEAD = "type: Card\nset: Edge cases\ncards:\n"


def card(*lines: str, name: str = "A") -> str:
    return f"  - name: {name}\n" + "".join(f"    {line}\n" for line in lines)


BASE = (
    "# A card set\n"
    "type: Card\n"
    "set: Starter\n"
    "cards:\n"
    "  - name: Ember Throne\n"
    '    description: "A seat. Of fire: # not a comment"\n'
    "    kind: kingdom\n"
    "    colour: red\n"
    "    cost: 3\n"
    "    keywords: [double_attack, retain]\n"
    "    has_ability: true\n"
    "    effect: |\n"
    "      if target != none { injure(target) }\n"
    "\n"
    "  - name: 'Tidal Keep'\n"
    "    colour: blue  # a comment\n"
    "    passive: |\n"
    "      for u in units[you] { buff(u, 1, 0, 0) }\n"
    "      draw_cards(you, 1)\n"
    "    effect: draw_cards(you, 2)\n"
)


def shift_indented(text: str, by: int) -> str:
    """text with every indented line moved right by `by` columns (left when negative)."""
    return "\n".join(line[-by:] if by < 0 and line.startswith(" ") else
                     " " * by + line if by > 0 and line.startswith(" ") else line
                     for line in text.split("\n"))
