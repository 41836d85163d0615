"""Whispering Court (`tests/games/court/`), a designer's sixth game for 3 to 6 players written
in the rules language and compiled here, not shipped: it proves issue 15's information and
flow constructs.

* Scenario setup where every card starts in one shared deck (`setup.scenario.yaml`): any
  player may be given a card from the deck; setting a hand never takes another hand's cards;
  `from:` names other zones; a setting that cannot be met fails at its own file:line.
* Seeded random games over 3 to 6 players, played to the end: at every ply, no player's
  observation names a card of another player's hand, and the court deck is a count only; the
  cards are conserved (15 in all, each in one zone).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from compiler import load_game
from compiler.scenarios import load_scenarios, run_scenario
from tests.tiers import batch_id, batches

COURT = Path(__file__).parent / "games" / "court"
MAX_PLIES = 2_000
DEFAULT_GAMES = 12
SOAK_GAMES = 400


@pytest.fixture(scope="module")
def game() -> ModuleType:
    return load_game(str(COURT / "court.rules"))


def scenarios() -> list[Any]:
    found = []
    for file in sorted(COURT.glob("*.scenario.yaml")):
        for data, line in load_scenarios(file):
            found.append(pytest.param(file, data, line, id=f"{file.name}:{line}"))
    return found


@pytest.mark.parametrize(("file", "data", "line"), scenarios())
def test_scenario(game: ModuleType, file: Path, data: dict[str, Any], line: int) -> None:
    result = run_scenario(game, data, file.name, line)
    assert result.passed, result.failures


def test_a_setting_that_cannot_be_met_fails_at_its_line(game: ModuleType, tmp_path: Path) -> None:
    file = tmp_path / "bad.scenario.yaml"
    file.write_text(
        "game: court\nname: four of a role\nseed: 1\nplayers: 3\nsetup:\n"
        "  zone.hand.A: [Seer, Seer]\n"
        "  zone.hand.B: [Seer, Seer]\n",
        encoding="utf-8")
    [(data, line)] = load_scenarios(file)
    result = run_scenario(game, data, "bad.scenario.yaml", line)
    assert result.line == 7  # the line of `zone.hand.B`, not of the document
    [failure] = result.failures
    assert failure.startswith("setup of 'zone.hand.B' failed: no spare card 'Seer' to put in "
                              "hand.B")
    assert "the other copies are in" in failure and "hand.A" in failure and "from:" in failure


def test_setting_a_hand_takes_no_card_of_another_player(game: ModuleType) -> None:
    state = game.new_game(seed=3, players=3)
    state.set("zone.lost.C", ["Seer"])  # a role C lost face up: not a spare card any more
    in_court = state.get("zone.court").count("Seer")
    in_hands = sum(state.get(f"zone.hand.{p}").count("Seer") for p in "ABC")
    wanted = ["Seer"] * (in_court + 1 + state.get("zone.hand.A").count("Seer"))
    with pytest.raises(ValueError, match="no spare card 'Seer'"):
        state.set("zone.hand.A", wanted)
    assert state.get("zone.lost.C") == ["Seer"]
    assert in_court + in_hands == 2


Shown = dict[tuple[int, str], Counter[str]]


def _check_ply(state: Any, players: int, before: Shown) -> Shown:
    """Checks one position; returns what each player sees of each other hand, for the next."""
    names = "ABCDEF"[:players]
    cards = Counter(card for slot in state.observation(-1)["zones"] if slot != "court"
                    for card in state.get(f"zone.{slot}"))
    cards.update(state.get("zone.court"))
    assert sum(cards.values()) == 15 and all(n == 3 for n in cards.values()), cards
    if state.get("phase") == "turn":  # every called phase has come back
        assert "calls" not in json.loads(state.to_json())
    seer = (state.get("claimer"), state.get("target")) if state.get("claim") == "seer" else None
    shown: Shown = {}
    for p, name in enumerate(names):
        zones = state.observation(p)["zones"]
        assert set(zones["court"]) == {"count"}
        assert zones[f"hand.{name}"] == state.get(f"zone.hand.{name}")
        for other in names:
            if other == name:
                continue
            hand = zones[f"hand.{other}"]
            assert isinstance(hand, dict) and set(hand) == {"count", "revealed"}, hand
            seen = Counter(hand["revealed"])
            assert not seen - Counter(state.get(f"zone.hand.{other}")), (name, other)
            # a card of another hand is named only after this player's own Seer looked at it
            if seer != (name, other):
                assert not seen - before.get((p, other), Counter()), (name, other, hand)
            shown[p, other] = seen
    return shown


def _play(game: ModuleType, seed: int) -> int:
    """Plays one game; returns how many times a player saw a card of another hand."""
    players = 3 + seed % 4
    state = game.new_game(seed=seed, players=players)
    rng = random.Random(seed)
    shown: Shown = {}
    looks = 0
    for _ in range(MAX_PLIES):
        shown = _check_ply(state, players, shown)
        looks += sum(sum(seen.values()) for seen in shown.values())
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal(), f"seed {seed}: no end within {MAX_PLIES} plies"
    returns = state.returns()
    assert sorted(returns) == [-1.0] * (players - 1) + [1.0]
    winner = returns.index(1.0)
    assert state.get(f"zone.hand.{'ABCDEF'[winner]}"), "the winner holds a role"
    return looks


def test_random_games_keep_hands_private(game: ModuleType) -> None:
    looks = sum(_play(game, seed) for seed in range(DEFAULT_GAMES))
    assert looks > 0, "no Seer ever looked: the games prove nothing about 'reveal ... to'"


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(DEFAULT_GAMES, SOAK_GAMES), ids=batch_id)
def test_random_games_keep_hands_private_soak(game: ModuleType, seeds: range) -> None:
    for seed in seeds:
        _play(game, seed)


def _seer_looks(game: ModuleType) -> Any:
    state = game.new_game(seed=1, players=3)
    state.set("zone.hand.A", ["Seer", "Steward"])
    state.set("zone.hand.B", ["Bandit", "Poisoner"])
    state.set("zone.hand.C", ["Inquisitor", "Steward"])
    for text in ("A claims the Seer and looks at B's roles", "B lets it pass", "C lets it pass"):
        state.apply_action(state.parse_action(text))
    return state


def test_reveal_to_shows_the_cards_to_that_player_only(game: ModuleType) -> None:
    state = _seer_looks(game)
    assert state.observation(0)["zones"]["hand.B"] == {"count": 2,
                                                       "revealed": ["Bandit", "Poisoner"]}
    assert state.observation(2)["zones"]["hand.B"] == {"count": 2, "revealed": []}
    assert state.observation(-1)["zones"]["hand.B"] == {"count": 2, "revealed": []}
    assert state.observation(0)["zones"]["hand.C"] == {"count": 2, "revealed": []}
    copy = game.from_json(state.to_json())
    assert copy.observation(0) == state.observation(0)
    assert state.clone().observation(0) == state.observation(0)


def test_a_card_shown_to_one_player_is_hidden_again_once_it_moves(game: ModuleType) -> None:
    state = _seer_looks(game)
    # B bluffs the Steward, A calls it: B gives up the Bandit, which goes face up to lost.B
    for text in ("B claims the Steward and collects 3", "C lets it pass", "A challenges"):
        state.apply_action(state.parse_action(text))
    assert [str(a) for a in state.legal_actions()] == ["B gives up Bandit", "B gives up Poisoner"]
    state.apply_action(state.parse_action("B gives up Bandit"))
    assert state.observation(0)["zones"]["hand.B"] == {"count": 1, "revealed": ["Poisoner"]}
    assert state.observation(2)["zones"]["lost.B"] == ["Bandit"]
    state.set("zone.hand.B", ["Seer"])  # the Poisoner goes back to the deck: shown no more
    assert state.observation(0)["zones"]["hand.B"] == {"count": 1, "revealed": []}


def test_the_action_of_a_card_shown_to_one_player_names_it_to_that_player(
        game: ModuleType) -> None:
    state = _seer_looks(game)
    for text in ("B claims the Steward and collects 3", "C lets it pass", "A challenges"):
        state.apply_action(state.parse_action(text))
    give_up = state.parse_action("B gives up Poisoner")
    assert state.action_text(give_up, 0) == "B gives up Poisoner"  # A saw it, and sees it lost
    assert state.action_text(give_up, 2) == "B gives up Poisoner"  # lost roles are face up


ACCUSE = "A claims the Inquisitor and names seer in B's hand"


def test_an_announced_guess_is_read_by_every_player(game: ModuleType) -> None:
    state = game.new_game(seed=1, players=3)
    accuse = state.parse_action(ACCUSE)
    assert [state.action_text(accuse, p) for p in (1, 2, -1)] == [ACCUSE] * 3
    assert "guess" not in state.observation(2)["state"]  # kept hidden: only the text says it


def test_without_announced_the_guess_reads_neutrally(tmp_path: Path) -> None:
    for file in COURT.glob("court.*"):
        text = file.read_text(encoding="utf-8")
        (tmp_path / file.name).write_text(text.replace(" announced)", ")"), encoding="utf-8")
    state = load_game(str(tmp_path / "court.rules")).new_game(seed=1, players=3)
    accuse = state.parse_action(ACCUSE)
    assert state.action_text(accuse, 2) == (
        "A claims the Inquisitor and names a role name in B's hand")


def test_a_saved_game_keeps_the_way_back_and_the_cards_shown(game: ModuleType) -> None:
    state = _seer_looks(game)
    for text in ("B claims the Steward and collects 3", "C lets it pass", "A challenges"):
        state.apply_action(state.parse_action(text))
    saved = json.loads(state.to_json())
    assert state.get("phase") == "fall" and saved["calls"] and saved["card_shown"]
    copies = [game.from_json(state.to_json()), state.clone()]
    rng = random.Random(5)
    while not state.is_terminal():
        legal = [str(a) for a in state.legal_actions()]
        action = rng.choice(legal)
        for each in (state, *copies):
            assert [str(a) for a in each.legal_actions()] == legal
            each.apply_action(each.parse_action(action))
    assert all(copy.to_json() == state.to_json() for copy in copies)


REMOVED = """
game removal {
  title "Removal"
  players 3
  names A, B, C
}
card Tile { value: int }
data Tile {
  low { value: 1 }
  high { value: 2 }
}
## every tile starts in one shared pile; one is removed face down before play
zone pile: Tile ordered hidden
zone removed: Tile hidden
zone hand: Tile owner per player
setup {
  for t in Tile { create t into pile }
  for t in Tile { create t into pile }
  shuffle pile
  draw 1 from pile to removed
  goto play
}
phase play {
  actor if empty(hand[A]) then A else none
  action take(t: Tile in pile) says "{actor} takes {t}" { move t to hand[actor] }
  on done { win A }
}
"""


def test_a_card_removed_face_down_is_no_spare_card(tmp_path: Path) -> None:
    (tmp_path / "removal.rules").write_text(REMOVED, encoding="utf-8")
    game = load_game(str(tmp_path / "removal.rules"))
    state = game.new_game(seed=0, players=3)
    [removed] = state.get("zone.removed")
    state.set("zone.hand.B", [removed])  # the other copy, from the shared pile
    with pytest.raises(ValueError, match=f"no spare card '{removed}' to put in hand.C"):
        state.set("zone.hand.C", [removed])
    assert state.get("zone.removed") == [removed]
    state.set("zone.hand.C", {"cards": [removed], "from": "removed"})
    assert state.get("zone.removed") == [] and state.get("zone.hand.C") == [removed]


ROUND_TABLE = """
game round_table {
  title "Round table"
  players 3
  names A, B, C
}

state {
  opener: player = A
  raises: int = 0
}

setup { goto bids }

## Every player may raise, the opener last; a raise opens a new window from the raiser.
phase bids {
  responders all from opener where actor != C or raises == 0
  action hold() says "{actor} holds" {}
  action raise_bid() says "{actor} raises" {
    raises += 1
    opener = actor
    goto bids
  }
  on done { win opener }
}
"""


def test_a_window_of_all_asks_its_starting_player_last(tmp_path: Path) -> None:
    (tmp_path / "round_table.rules").write_text(ROUND_TABLE, encoding="utf-8")
    state = load_game(str(tmp_path / "round_table.rules")).new_game(seed=1, players=3)
    asked = []
    for text in ("B holds", "C holds", "A raises", "B holds", "A holds"):
        asked.append(state.player_name(state.current_player()))
        state.apply_action(state.parse_action(text))
    # B, C, then A itself; A's raise opens a window from A again, where C (after a raise) is
    # skipped by the condition and A answers last
    assert asked == ["B", "C", "A", "B", "A"]
    assert state.is_terminal() and state.returns() == [1.0, -1.0, -1.0]


COUNTER_CLAIMS = """game counter_claims {
  title "Counter Claims"
  players 4
}
state { claimer: player = A  depth: int = 0 }
setup { goto turn }
phase turn {
  actor A
  action go() says "{actor} claims" {
    claimer = actor
    call window
  }
  action stop() says "{actor} stops" { win A }
}
phase window {
  responders from claimer where depth < 3
  action pass_it() says "{actor} passes" { }
  action counter() says "{actor} counters" {
    depth += 1
    call window
  }
  on done { return }
}
"""


def test_a_window_that_calls_itself_goes_on_where_it_was_when_the_call_returns(
    tmp_path: Path,
) -> None:
    """B counters A's claim from the window, which calls the window again: once the inner
    window is done, the outer one asks C and D, who had not answered (it was wiped, and
    play went back to the turn)."""
    (tmp_path / "counter_claims.rules").write_text(COUNTER_CLAIMS, encoding="utf-8")
    game = load_game(str(tmp_path / "counter_claims.rules"))
    state = game.new_game(seed=1, players=4)
    asked = []
    for text in ("A claims", "B counters", "B passes", "C passes", "D passes", "C passes",
                 "D passes"):
        asked.append(state.player_name(state.current_player()))
        state.apply_action(state.parse_action(text))
        again = game.from_json(state.to_json())  # the kept window is saved with the game
        assert again.to_json() == state.to_json()
        assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert asked == ["A", "B", "B", "C", "D", "C", "D"]
    assert [str(a) for a in state.legal_actions()] == ["A claims", "A stops"]
