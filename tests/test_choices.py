"""How actions read and which choices they offer.

* Every text a game writes for a reader uses words, never identifiers (that no legal action's
  text, the actor's or another's, holds a name with an underscore is part of the API contract
  checked over random games of every generated game, tests/test_api_contract.py): the Warlords
  and `siege_tower` read "sun tzu" and "siege tower", and an article before such a word agrees
  with it ("an archer").
* Copies of a card are one choice only when they are alike in every state (GUARDS, a small
  game with damage, a rested flag and a hidden mark per card): two Guards, one damaged, give
  two attacks, each with the result of its own Guard, named by what sets them apart; copies
  that differ only in a hidden field are numbered; alike copies stay one choice; the names
  are texts that parse_action and scenarios take.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import pytest

from compiler.api import load_game
from dsl.runtime import Action, IllegalAction

GUARDS = """\
game guards {
  title "Guards"
  players 2
}

enum Rank { archer, siege_tower }

card Unit {
  power: int
  damage: int per card = 0
  rested: bool per card = false
  mark: bool per card = false hidden
}

data Unit {
  "Guard" { power: 3 }
  "Scout" { power: 1 }
}

zone board: Unit public per player

state {
  turn: int = 0
}

setup {
  for p in players {
    for d in Unit {
      create d into board[p]
      create d into board[p]
    }
  }
  goto play
}

phase play {
  actor if turn % 2 == 0 then A else B
  action wound(t: Unit in board[opponent(actor)]) says "{actor} wounds {t}" {
    t.damage += 2
    turn += 1
  }
  action mark(t: Unit in board[actor]) says "{actor} marks {t}" {
    t.mark = true
    turn += 1
  }
  action attack(u: Unit in board[actor], t: Unit in board[opponent(actor)])
      says "{actor} attacks {t} with {u}" {
    require not u.rested else "{u} is rested"
    t.damage += max(0, u.power - u.damage)
    u.rested = true
    turn += 1
  }
  action recruit(r: Rank) says "{actor} recruits a {r}" {
    require r != siege_tower or turn > 0 else "A {r} needs a turn to build"
    turn += 1
  }
  action pass() says "{actor} passes" {
    turn += 1
  }
  action stop() says "{actor} stops the game" {
    draw game
  }
}
"""


@pytest.fixture(scope="module")
def guards(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    path = tmp_path_factory.mktemp("guards") / "guards.rules"
    path.write_text(GUARDS, encoding="utf-8")
    return load_game(str(path))


def texts(state: Any) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def act(state: Any, text: str) -> None:
    state.apply_action(state.parse_action(text))


# ------------------------------------------------------------------ words, not identifiers


def test_dynasties_warlords_read_as_words() -> None:
    game = load_game("dynasties")
    state = game.new_game(seed=1, options={"warlords": True})
    assert {"A chooses sun tzu", "A chooses zhuge liang"} <= set(texts(state))


def test_siege_tower_reads_as_words() -> None:
    game = load_game("dynasty_builder")
    kind = list(game.R_KIND_NAMES).index("siege_tower")
    city, hex_ = 0, 1
    recruit = Action(game.K_RECRUIT, 0, (city, kind, hex_), game.text_recruit)
    names = game.N_HEX_NAMES
    assert str(recruit) == (
        f"A recruits a siege tower at {names[hex_]} from the city at {names[city]}")
    enlist = Action(game.K_ENLIST, 1, (kind, hex_), game.text_enlist)
    assert str(enlist) == f"B spends military tokens on a siege tower at {names[hex_]}"
    # the name stays what the rules and scenarios read and write
    assert "siege_tower" in game.R_KIND_NAMES


def test_an_article_agrees_with_the_word(guards: ModuleType) -> None:
    state = guards.new_game(seed=0)
    assert {"A recruits an archer", "B recruits a siege tower"} & set(texts(state)) == {
        "A recruits an archer"}
    with pytest.raises(IllegalAction, match="A siege tower needs a turn to build"):
        act(state, "A recruits a siege tower")
    act(state, "A passes")
    assert "B recruits a siege tower" in texts(state)


# ------------------------------------------------------------------ copies of a card


def test_two_guards_one_damaged_are_two_attacks(guards: ModuleType) -> None:
    state = guards.new_game(seed=0)
    assert texts(state).count("A attacks Guard with Guard") == 1  # alike copies: one choice
    act(state, "A wounds Guard")  # B's first Guard
    attacks = [t for t in texts(state) if t.startswith("B attacks Scout with Guard")]
    assert attacks == ["B attacks Scout with Guard (damage 2)", "B attacks Scout with Guard"]
    # the damaged Guard hits for 3 - 2; the other for 3
    damaged = state.clone()
    act(damaged, "B attacks Scout with Guard (damage 2)")
    assert damaged.get("card.board.A.2.damage") == 1
    assert damaged.get("card.board.B.0.rested") is True
    assert damaged.get("card.board.B.1.rested") is False
    whole = state.clone()
    act(whole, "B attacks Scout with Guard")
    assert whole.get("card.board.A.2.damage") == 3
    assert whole.get("card.board.B.0.rested") is False
    assert whole.get("card.board.B.1.rested") is True


def test_naming_copies_leaves_the_actions_of_other_listings_alone(guards: ModuleType) -> None:
    # listings share their action objects (LISTED_ tables); naming the copies of a listing
    # names its own actions, not the ones another listing shows
    state = guards.new_game(seed=0)
    act(state, "A wounds Guard")
    assert "B attacks Guard with Guard (damage 2)" in texts(state)
    fresh = guards.new_game(seed=0)
    act(fresh, "A passes")
    assert texts(fresh).count("B attacks Guard with Guard") == 1
    assert not [t for t in texts(fresh) if "(" in t]


def test_a_target_copy_is_chosen_too(guards: ModuleType) -> None:
    state = guards.new_game(seed=0)
    act(state, "A wounds Guard")
    act(state, "B wounds Scout")
    assert {"A attacks Guard (damage 2) with Guard", "A attacks Guard with Guard"} <= set(
        texts(state))
    act(state, "A attacks Guard with Guard")
    assert state.get("card.board.B.0.damage") == 2
    assert state.get("card.board.B.1.damage") == 3


def test_copies_that_differ_in_a_hidden_field_are_numbered(guards: ModuleType) -> None:
    state = guards.new_game(seed=0)
    act(state, "A marks Guard")
    act(state, "B passes")
    marks = [t for t in texts(state) if t.startswith("A marks Guard")]
    assert marks == ["A marks Guard (1)", "A marks Guard (2)"]
    act(state, "A marks Guard (2)")
    act(state, "B passes")
    assert [t for t in texts(state) if t.startswith("A marks Guard")] == ["A marks Guard"]


def test_copies_change_ids_not_meanings(guards: ModuleType) -> None:
    state = guards.new_game(seed=0)
    act(state, "A wounds Guard")
    legal = state.legal_actions()
    ids = [state.action_id(a) for a in legal]
    assert len(set(ids)) == len(ids)
    assert all(0 <= i < guards.NUM_DISTINCT_ACTIONS for i in ids)
    by_name = {str(a.plain()) for a in legal if str(a).startswith("B attacks Scout with")}
    assert by_name == {"B attacks Scout with Guard", "B attacks Scout with Scout"}


def test_a_copy_name_is_refused_once_the_copies_are_alike(guards: ModuleType) -> None:
    state = guards.new_game(seed=0)
    text = "A attacks Guard with Guard (damage 2)"
    with pytest.raises(IllegalAction, match=re.escape(f"no action '{text}'")):
        act(state, text)
