"""Side decks (`side:` in a deck file, `side` in the deck rules): Dynasty TCG's shipped side
decks are legal and never played, and a side deck that breaks a rule is reported with its code,
message and line. The small fixtures are tests/cases/decks_side*.rules (checked by
test_diagnostics.py); these cases run against the real rulebook, in a copy of its folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import generated.dynasty_tcg as game
from compiler.driver import check_rulebook
from dsl import nodes as n
from dsl.cardset import load_deck
from dsl.diagnostics import Diagnostics
from dsl.source import SourceFile
from tests.playing import ROOT

RULEBOOK = ROOT / "rulebooks" / "dynasty_tcg"
# a legal main deck of 50: 3 copies each of 16 cards, and 2 Jinso
MAIN = {name: 3 for name in (
    "Footman", "Shield Bearer", "Blade Dancer", "Spear Recruit", "Javelin Thrower",
    "Halberdier", "Pike Sergeant", "Scout Rider", "Lancer", "Slinger", "Archer", "Crossbowman",
    "Longbow Veteran", "Stone Wall", "Palisade", "Fire Catapult")} | {"Jinso": 2}


def read_deck(text: str) -> tuple[n.DeckList | None, Diagnostics]:
    diagnostics = Diagnostics()
    return load_deck(SourceFile("x.deck.yaml", text), "x", diagnostics), diagnostics


def test_a_side_deck_is_read_with_the_line_of_each_entry() -> None:
    deck, diagnostics = read_deck("cards:\n  Jinso: 3\nside:\n  Archer: 2\n  Lancer: 1\n")
    assert not diagnostics.sorted()
    assert deck is not None
    assert [(e.card, e.count, e.span.line) for e in deck.side] == [
        ("Archer", 2, 4), ("Lancer", 1, 5)]
    assert deck.side_span is not None and deck.side_span.line == 3
    without, _ = read_deck("cards:\n  Jinso: 3\n")
    assert without is not None and without.side == () and without.side_span is None


@pytest.mark.parametrize(("text", "line", "message"), [
    ("cards:\n  Jinso: 3\nside:\n  - Archer\n", 4, "the side deck's cards must be a mapping"),
    ("cards:\n  Jinso: 3\nside:\n  Archer: two\n", 4, "the count of 'Archer' must be a whole"),
    ("cards:\n  Jinso: 3\nsides:\n  Archer: 1\n", 3, "unknown key 'sides' in a deck"),
])
def test_a_side_deck_of_the_wrong_shape_is_a_located_error(text: str, line: int,
                                                            message: str) -> None:
    deck, diagnostics = read_deck(text)
    (found,) = diagnostics.sorted()
    assert deck is None
    assert (found.code, found.span.line) == ("E0404", line)
    assert found.message.startswith(message), found.message


def test_the_shipped_side_decks_are_legal_and_hold_5_to_15_cards() -> None:
    compilation = check_rulebook(RULEBOOK / "dynasty_tcg.rules")
    assert not compilation.diagnostics.sorted()
    assert compilation.model is not None
    decks = {deck.name: deck for deck in compilation.model.decks}
    assert sorted(decks) == sorted(game.DECKS)
    index = {name: i for i, name in enumerate(game.DEF_NAMES)}
    for name, deck in decks.items():
        side = [index[e.card] for e in deck.side for _ in range(e.count)]
        assert 5 <= len(side) <= 15, (name, len(side))
        assert game.deck_problem(list(game.DECKS[name]), side) is None
        # the side deck is not in the game's deck
        assert len(game.DECKS[name]) == sum(e.count for e in deck.entries)


def test_a_game_is_played_with_the_main_deck_only() -> None:
    state = game.new_game(seed=3, decks={"A": "fortress", "B": "siege"})
    held = sum(len(state.get(f"zone.{zone}.A")) for zone in ("deck", "hand", "aside"))
    assert held == len(game.DECKS["fortress"]) == 56


def check_deck(tmp_path: Path, side: dict[str, int]) -> list[tuple[str, int, str]]:
    folder = tmp_path / "dynasty_tcg"
    shutil.copytree(RULEBOOK, folder)
    text = ("name: Swapped\ncards:\n" + "".join(f"  {n}: {c}\n" for n, c in MAIN.items())
            + "side:\n" + "".join(f"  {n}: {c}\n" for n, c in side.items()))
    (folder / "decks" / "swapped.deck.yaml").write_text(text, encoding="utf-8")
    diagnostics = check_rulebook(folder / "dynasty_tcg.rules").diagnostics.sorted()
    assert all(d.span.file.endswith("swapped.deck.yaml") for d in diagnostics)
    return [(d.code, d.span.line, d.message) for d in diagnostics]


SIDE_LINE = 2 + len(MAIN) + 1  # the `side:` key
JINSO_LINE = 3 + list(MAIN).index("Jinso")  # its line in the main deck
CASES = [
    ({"Jinso": 1, "Ironclad Brute": 3}, []),
    # 16 side cards: reported at `side:`; with them, 7 champions and 12 costly units, each
    # rule once, at the deck's name (they are about no one card)
    ({"Jinso": 1, "Ironclad Brute": 3, "Warhorse Captain": 3, "Siege Ballista": 3,
      "General Tao": 3, "Mei the Unbroken": 3},
     [("E0405", 1, "deck 'Swapped' breaks a deck rule: at most 4 champion cards, main and side "
                   "deck together"),
      ("E0405", 1, "deck 'Swapped' breaks a deck rule: at most 7 units costing 7 or more, main "
                   "and side deck together"),
      ("E0405", SIDE_LINE,
       "deck 'Swapped' breaks a deck rule: a side deck has 0 to 15 cards, not 16")]),
    # 2 Jinso in the deck and 2 in the side deck: a swap could make 4; at Jinso's line
    ({"Jinso": 2}, [("E0405", JINSO_LINE, "deck 'Swapped' breaks a deck rule: at most 3 "
                                          "copies of Jinso, main and side deck together")]),
    ({"General Tao": 3, "Lady Mei": 2},
     [("E0405", 1, "deck 'Swapped' breaks a deck rule: at most 4 champion cards, main and side "
                   "deck together")]),
    ({"Ironclad Brute": 3, "Warhorse Captain": 3, "Siege Ballista": 2},
     [("E0405", 1, "deck 'Swapped' breaks a deck rule: at most 7 units costing 7 or more, main "
                   "and side deck together")]),
    ({"Jinso": 1, "Jinzo": 1},
     [("E0404", SIDE_LINE + 2, "deck 'swapped' names unknown card 'Jinzo'")]),
]


@pytest.mark.parametrize(("side", "expected"), CASES,
                         ids=["legal", "sixteen", "copies", "champions", "costly", "unknown"])
def test_each_side_deck_rule_is_reported_with_its_message_and_line(
        tmp_path: Path, side: dict[str, int], expected: list[tuple[str, int, str]]) -> None:
    assert check_deck(tmp_path, side) == expected


def definitions(counts: dict[str, int]) -> list[int]:
    index = {name: i for i, name in enumerate(game.DEF_NAMES)}
    return [index[name] for name, count in counts.items() for _ in range(count)]


def test_deck_problems_gives_every_rule_broken_once_with_the_card_it_is_about() -> None:
    # 4 Footmen and 3 Jinso with 1 more in the side deck: two cards over the copy limit, each
    # counted on every copy's turn of the loop and listed once; and 51 + 1 cards, still legal
    cards = definitions(MAIN | {"Footman": 4, "Jinso": 3})
    side = definitions({"Jinso": 1})
    problems = game.deck_problems(cards, side)
    copies = "at most 3 copies of {}, main and side deck together"
    assert [(message, game.DEF_NAMES[card]) for message, _line, card in problems] == [
        (copies.format("Footman"), "Footman"), (copies.format("Jinso"), "Jinso")]
    assert len({line for _message, line, _card in problems}) == 1
    assert game.deck_problem(cards, side) == problems[0][:2]
    # a rule about the whole deck names no card
    short = game.deck_problems(definitions({"Footman": 3}), [])
    assert short == [("a main deck has 50 to 60 cards, not 3", short[0][1], -1)]
    assert game.deck_problems(definitions(MAIN), []) == []
    assert game.deck_problem(definitions(MAIN), []) is None
