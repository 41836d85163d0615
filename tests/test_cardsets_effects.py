"""Card effects and decks, end to end: behaviour, not just diagnostics.

* Effects run when a card is cast and only then, with `this` bound to that card; 'per card'
  fields start at their defaults and are independent per card, and survive clone() and JSON.
* Decks: `decklist` and `new_game(decks=...)` in every documented form, and their errors.

The games are written and built by tests/cardset_games.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.cardset_games import (
    EFFECT_CARDS,
    build_game,
    diagnostics_of,
    write_game,
)

EFFECT_DECKS = {
    "blue": "name: Blue Tide\ncards:\n  Wave: 2\n  Spark: 2\n",
    "drain": "cards:\n  Drain: 2\n  Dud: 2\n",
    "red": "name: Red\ncards:\n  Spark: 2\n  Dud: 2\n",
}


@pytest.fixture(scope="module")
def effects_game(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("effects")
    return build_game(write_game(folder / "game", EFFECT_CARDS, EFFECT_DECKS), folder / "out")


def cast(state: Any, card: str) -> None:
    for action in state.legal_actions():
        if str(action) == f"{state.player_name(state.actor)} casts {card}":
            state.apply_action(action)
            return
    pytest.fail(f"no cast of {card}: {[str(a) for a in state.legal_actions()]}")


def hand(state: Any, player: str) -> list[str]:
    return list(state.get(f"zone.hand.{player}"))


def card_state(state: Any, zone: str, field: str) -> list[tuple[str, Any]]:
    """(name, value of a 'per card' field) for each card of a zone, in order."""
    names = state.get(f"zone.{zone}")
    return [(name, state.get(f"card.{zone}.{i}.{field}")) for i, name in enumerate(names)]


def test_effects_run_when_cast_and_only_then(effects_game: ModuleType) -> None:
    state = effects_game.new_game(seed=1, decks=["blue", "red"])
    assert state.get("A.score") == 0 and state.get("B.score") == 0  # setup ran no effect
    cast(state, "Spark")
    assert (state.get("A.score"), state.get("A.casts"), state.get("B.score")) == (2, 1, 0)
    cast(state, "Wave")  # gain(you, this.cost): Wave costs 3
    assert (state.get("A.score"), state.get("A.casts")) == (5, 2)
    before = state.to_json()
    state.legal_actions()
    state.clone()
    assert state.to_json() == before  # looking at actions or cloning runs no effect


def test_this_is_the_cast_card_and_per_card_state_is_independent(
    effects_game: ModuleType,
) -> None:
    state = effects_game.new_game(seed=2, decks={"A": "drain", "B": "red"})
    assert sorted(hand(state, "A")) == ["Drain", "Drain", "Dud", "Dud"]
    assert {v for _, v in card_state(state, "hand.A", "charges")} == {3}  # the default
    assert {v for _, v in card_state(state, "hand.A", "rested")} == {False}
    cast(state, "Drain")
    assert state.get("A.score") == 20  # 10 * (3 - 1): this.charges is the cast card's
    assert card_state(state, "graveyard.A", "charges") == [("Drain", 2)]
    assert card_state(state, "graveyard.A", "rested") == [("Drain", True)]
    assert ("Drain", 3) in card_state(state, "hand.A", "charges")
    assert {v for _, v in card_state(state, "hand.A", "rested")} == {False}
    cast(state, "Drain")  # the second copy starts from its own 3 charges
    assert state.get("A.score") == 40
    assert card_state(state, "graveyard.A", "charges") == [("Drain", 2), ("Drain", 2)]
    cast(state, "Dud")  # no effect: the default, empty one
    assert state.get("A.score") == 40 and state.get("A.casts") == 3


def test_clone_and_json_keep_per_card_state(effects_game: ModuleType) -> None:
    state = effects_game.new_game(seed=3, decks=["drain", "blue"])
    cast(state, "Drain")
    copies = [state.clone(), effects_game.from_json(state.to_json())]
    for copy in copies:
        assert copy.to_json() == state.to_json()
        assert card_state(copy, "graveyard.A", "charges") == [("Drain", 2)]
        assert card_state(copy, "graveyard.A", "rested") == [("Drain", True)]
    cast(copies[0], "Drain")  # a copy moves on alone
    assert card_state(state, "graveyard.A", "charges") == [("Drain", 2)]
    assert state.get("A.score") == 20 and copies[0].get("A.score") == 40
    for copy in (state, copies[1]):
        cast(copy, "Drain")
    assert copies[1].to_json() == state.to_json() == copies[0].to_json()
    while not state.is_terminal():
        action = state.legal_actions()[0]
        for copy in copies:
            copy.apply_action(copy.parse_action(str(action)))
        state.apply_action(action)
    assert all(c.to_json() == state.to_json() for c in copies)


def test_decks_none_gives_the_shipped_decks_in_name_order(effects_game: ModuleType) -> None:
    assert tuple(effects_game.INFO["decks"]) == ("blue", "drain", "red")
    assert effects_game.DECK_TITLES == {"blue": "Blue Tide", "drain": "drain", "red": "Red"}
    state = effects_game.new_game(seed=4)
    assert sorted(hand(state, "A")) == ["Spark", "Spark", "Wave", "Wave"]
    assert sorted(hand(state, "B")) == ["Drain", "Drain", "Dud", "Dud"]


@pytest.mark.parametrize("decks", [
    ["red", "drain"],
    {"B": "drain", "A": "red"},
    [["Spark", "Dud", "Spark", "Dud"], ["Drain", "Dud", "Drain", "Dud"]],
    [("Dud", "Spark", "Dud", "Spark"), "drain"],
])
def test_decks_by_list_dict_and_card_names(effects_game: ModuleType, decks: object) -> None:
    state = effects_game.new_game(seed=5, decks=decks)
    assert sorted(hand(state, "A")) == ["Dud", "Dud", "Spark", "Spark"]
    assert sorted(hand(state, "B")) == ["Drain", "Drain", "Dud", "Dud"]


@pytest.mark.parametrize(("decks", "message"), [
    ([["Spark", "Spark", "Spark", "Dud"], "red"], "deck 1 breaks a deck rule: at most 2 copies "
                                                  "of Spark"),
    (["red", ["Spark", "Dud"]], "deck 2 breaks a deck rule: a deck has 4 cards"),
    ({"A": "red", "B": []}, "deck 2 breaks a deck rule: a deck has 4 cards"),
    (["red", "nope"], "unknown deck 'nope'"),
    ([["Sprak", "Spark", "Dud", "Dud"], "red"], "unknown cards in deck 1: Sprak"),
    (["red"], "1 decks for 2 players"),
    ({"A": "red"}, "no deck given for B"),
    ({"A": "red", "B": "red", "C": "red"}, "decks given for unknown players: C"),
    ("red", "decks must be a list"),
    ([1, 2], "deck 1 must be a deck name or a list of card names"),
])
def test_bad_decks_raise_value_error(
    effects_game: ModuleType, decks: object, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        effects_game.new_game(seed=0, decks=decks)


def test_deck_rules_agree_with_the_checker(tmp_path: Path) -> None:
    """A shipped deck new_game would refuse is an E0405 at the deck file, at the card the
    broken rule is about."""
    decks = {"red": "name: Red\ncards:\n  Spark: 3\n  Dud: 1\n"}
    rules = write_game(tmp_path / "game", EFFECT_CARDS, decks)
    found = diagnostics_of(rules)
    assert [(Path(d.span.file).name, d.span.line, d.code) for d in found] == [
        ("red.deck.yaml", 3, "E0405")]
    assert "at most 2 copies of Spark" in found[0].message
