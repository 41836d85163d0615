"""What the card-set tests (tests/test_cardsets_*.py) share: a small card game written into a
folder with its card set and deck files, checked, or built and imported; the card sets more
than one of them read (hostile names and text, effects); and where a token is in a text.

Every game is written into a test's tmp_path and built with `compiler.build.build`; the
generated module is imported from the output folder like `generated/<game>.py`.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from compiler.build import build
from compiler.driver import check_rulebook
from dsl.diagnostics import Diagnostic, Diagnostics

RULES = """\
game NAME {
  title "Card test"
  players 2
}

enum Colour { red, blue }
keyword trample "Excess damage goes through."

card Card {
  colour: Colour = red
  cost: int = 0
  flavour: text = ""
  keywords: list of keyword = []
  rested: bool per card = false
  charges: int per card = 3
  effect: effect(you: player, target: Card?) reaches hand, graveyard = {}
  require cost <= 5 else "its cost is above the 5-mana cap"
}

cards "core.cards.yaml"
DECKS
zone deck: Card ordered hidden per player
zone hand: Card owner per player
zone graveyard: Card public per player

player {
  score: int = 0
  casts: int = 0
}

procedure gain(p: player, n: int) { p.score += n }

setup {
  for p in players {
    SETUP
    draw HAND from deck[p] to hand[p]
  }
  goto play
}

phase play {
  actor first(p for p in players where not empty(hand[p]))
  action cast(c: Card in hand[actor]) says "{actor} casts {c}" {
    actor.casts += 1
    c.rested = true
    c.effect(actor, none)
    move c to graveyard[actor]
  }
  on done {
    if A.score > B.score { win A } elif B.score > A.score { win B } else { draw game }
  }
}
"""

DECK_RULES = """\
decks "decks"
deck Card {
  require size(cards) == 4 else "a deck has 4 cards"
  for c in cards {
    require count(x for x in cards where x == c) <= 2 else "at most 2 copies of {c}"
  }
}
"""


def rulebook(name: str, decks: bool, hand: int = 4) -> str:
    setup = ("for d in decklist(p) { create d into deck[p] }" if decks
             else "for c in Card { create c into deck[p] }")
    return (RULES.replace("NAME", name).replace("DECKS", DECK_RULES if decks else "")
            .replace("SETUP", setup).replace("HAND", str(hand)))


def write_game(
    folder: Path, cards: str, decks: dict[str, str] | None = None, name: str = "cardtest",
    hand: int = 4,
) -> Path:
    """A rulebook with its card set (and deck files) in `folder`; returns the .rules path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "core.cards.yaml").write_text(cards, encoding="utf-8")
    if decks is not None:
        (folder / "decks").mkdir(exist_ok=True)
        for stem, text in decks.items():
            (folder / "decks" / f"{stem}.deck.yaml").write_text(text, encoding="utf-8")
    rules = folder / f"{name}.rules"
    rules.write_text(rulebook(name, decks is not None, hand), encoding="utf-8")
    return rules


def diagnostics_of(rules: Path) -> list[Diagnostic]:
    return check_rulebook(rules).diagnostics.sorted()


def errors_of(rules: Path) -> list[Diagnostic]:
    """The errors only: a card set that is refused leaves procedures unused (W0305)."""
    return [d for d in diagnostics_of(rules) if d.code.startswith("E")]


def build_game(rules: Path, out: Path) -> ModuleType:
    """Build the rulebook into `out` (module and docs) and import the module it wrote."""
    diagnostics = Diagnostics()
    result = build([rules], out, False, diagnostics)
    found = [d for c in result.compilations for d in c.diagnostics.sorted()]
    found += diagnostics.sorted()
    assert not found, "\n".join(str(d) for d in found)
    path = out / f"{rules.stem}.py"
    name = f"cardset_test_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def play_through(game: ModuleType, **kwargs: Any) -> list[str]:
    """Play a game to the end (first legal action each time); the action texts."""
    state = game.new_game(**kwargs)
    texts: list[str] = []
    for _ in range(500):
        if state.is_terminal():
            return texts
        actions = state.legal_actions()
        assert actions, "a player to act has no legal action"
        texts.append(str(actions[0]))
        state.apply_action(actions[0])
    pytest.fail("the game did not end")


# ---------------------------------------------------------------------------------------------
# Card sets

def yaml_text(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid double-quoted YAML scalar


def hostile_names(sentinel: Path) -> list[str]:
    return [
        "O'Brien \"the Bold\"",
        "Triple \"\"\" and ''' quotes",
        'Ends in a quote"',
        "Back\\slash\\",
        f"__import__('os').system('touch {sentinel}')",
        f"\"\"\"; __import__('os').system('touch {sentinel}'); \"\"\"",
        "{{ 7*7 }} {% for x in range(3) %}loop{% endfor %}",
        "<script>alert(1)</script>",
        "{actor} casts {c}",
        "# not a comment",
        "Ünïcødé ☃ 火 – ‘curly’",
        "Pipe | in | a table",
        "*bold* _em_ `code` [link](javascript:alert(1))",
        "L" + "o" * 197 + "ng",  # 200 characters, the longest name allowed
    ]


def hostile_card_set(sentinel: Path) -> tuple[str, list[str]]:
    names = hostile_names(sentinel)
    lines = ["type: Card", "set: \"<b>{{ set }}</b> \\\" '''\"", "cards:"]
    for i, name in enumerate(names):
        lines += [
            f"  - name: {yaml_text(name)}",
            f"    description: {yaml_text('Description: ' + name + chr(10) + 'second line')}",
            f"    flavour: {yaml_text('Flavour: ' + name)}",
            f"    cost: {i % 5}",
            "    effect: |",
            f"      gain(you, this.cost)  # {name.splitlines()[0]}",
        ]
    return "\n".join(lines) + "\n", names


EFFECT_CARDS = """\
type: Card
cards:
  - name: Spark
    description: Two points.
    keywords: [trample]
    effect: |
      gain(you, 2)
  - name: Wave
    colour: blue
    cost: 3
    effect: gain(you, this.cost)
  - name: Drain
    cost: 1
    effect: |
      this.charges -= 1
      gain(you, 10 * this.charges)
  - name: Dud
    cost: 4
"""


def where_is(text: str, token: str) -> tuple[int, int]:
    """1-based line and column of the token, lines counted at '\\n' only."""
    for number, line in enumerate(text.split("\n"), 1):
        if token in line:
            return number, line.index(token) + 1
    raise AssertionError(token)
