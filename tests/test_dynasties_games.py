"""Seeded random games of Dynasties, played to the end through the public API: what this
game's rules promise, on top of the API contract that tests/test_api_contract.py checks of
every generated game (the player to act, legal actions and their ids, secrecy as each zone and
field is declared, get() against observation(), replay, clone() and JSON).

Every ply of every game checks, through `observation()` only (one per player per ply):

(a) armies are conserved: reserve + removed + armies in the player's provinces + the player's
    6 markers == starting armies (21, or 18 with warlords) + bonus;
(b) a province is held by one player or nobody: owner none iff armies == 0, armies >= 0;
(c) tiles are conserved: basics + deck + drawn + rack + placed + discarded == 14 (16 with
    warlords) per player, and basic tiles stay basic;
(d) what is secret in this game stays so: the opponent's racks, basics, placed tiles (a count
    only), Warlord and its target, and whether they used the 1;
(e) the game ends within MAX_PLIES plies, in dynasty 3, 6 or 9, its returns following the
    score track.

The default tier plays GAMES_PER_VARIANT games of each variant; the soak tier (`-m soak`) the
rest of SOAK_GAMES. Whichever Warlord is chosen or placed tile played, the opponent's
observation is the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import generated.dynasties as game
from tests.playing import State, named_failures, play_checked
from tests.tiers import batch_id, batches

PLAYERS = ("A", "B")
PROVINCES = ("mongolia", "qinghai", "mandarin", "xinjiang", "tibet")
BASIC_TILES = ("1", "2", "3", "4", "5", "6")
VARIANTS = (("basic", False), ("warlords", True))
STARTING_ARMIES = {False: 21, True: 18}
EXTRA_TILES = {False: 8, True: 10}  # 7-10, +1, -1, 2 Plagues (+ +2 and +3 with warlords)
GAMES_PER_VARIANT, SOAK_GAMES = 5, 500
SAMPLE_GAMES = 20  # for the Warlord secrecy test
MAX_PLIES = 300
PLACED = tuple((p, tuple(f"placed.{p}.{v}" for v in PROVINCES)) for p in PLAYERS)
LISTED_ZONES = tuple(
    (p, tuple(f"{zone}.{p}" for zone in ("basics", "deck", "drawn", "rack", "discarded")))
    for p in PLAYERS
)


def size(shown: Any) -> int:
    """The number of tiles in a zone as an observation shows it: a list or {"count": n}."""
    return len(shown) if isinstance(shown, list) else int(shown["count"])


def new_state(seed: int, warlords: bool) -> State:
    return game.new_game(seed=seed, players=2, options={"warlords": warlords}, decks=None)


def check_ply(state: State, warlords: bool) -> None:
    """Check every invariant of the position."""
    terminal = state.is_terminal()
    views = (state.observation(0), state.observation(1))
    view = views[0]
    players = view["players"]
    board = view["board"]["Province"]

    # (b) one owner per province, owner none iff no armies
    for province in PROVINCES:
        node = board[province]
        owner, armies = node["owner"], node["armies"]
        assert owner in (None, "A", "B"), f"{province}: owner {owner!r}"
        assert armies >= 0, f"{province}: {armies} armies"
        assert (owner is None) == (armies == 0), f"{province}: owner {owner}, {armies} armies"
        assert all(m >= 0 for m in node["marker"]), f"{province}: markers {node['marker']}"

    # (a) armies conserved
    for index, name in enumerate(PLAYERS):
        fields = players[name]
        on_board = sum(board[v]["armies"] for v in PROVINCES if board[v]["owner"] == name)
        markers = sum(board[v]["marker"][index] for v in PROVINCES)
        assert fields["reserve"] >= 0 and fields["removed"] >= 0, f"{name}: {fields}"
        total = fields["reserve"] + fields["removed"] + on_board + markers
        expected = STARTING_ARMIES[warlords] + fields["bonus"]
        assert total == expected, (
            f"{name}: reserve {fields['reserve']} + removed {fields['removed']} + board "
            f"{on_board} + markers {markers} = {total} != {expected}"
        )

    # (c) tiles conserved; racks are private, so each player's tiles are counted in their own view
    for index, (name, placed) in enumerate(PLACED):
        listed = dict(LISTED_ZONES)[name]
        own_zones = views[index]["zones"]
        count = sum(size(own_zones[z]) for z in listed) + sum(size(own_zones[z]) for z in placed)
        assert count == 6 + EXTRA_TILES[warlords], f"{name} has {count} tiles"

    # (d) secrecy, and what each player sees of their own tiles.
    for viewer, mine in enumerate(views):
        me, other = PLAYERS[viewer], PLAYERS[1 - viewer]
        assert "warlord" not in mine["players"][other], f"{me} sees {other}'s warlord"
        assert "warlord_target" not in mine["players"][other], f"{me} sees {other}'s target"
        assert "used_one" not in mine["players"][other], f"{me} sees whether {other} used the 1"
        for private in ("basics", "rack"):
            assert f"{private}.{other}" not in mine["zones"], f"{me} sees {private}.{other}"
        own = dict(PLACED)[me]
        for zone_name, own_zone in zip(dict(PLACED)[other], own, strict=True):
            shown = mine["zones"][zone_name]
            assert isinstance(shown, dict) and not shown.get("revealed"), (
                f"{me} sees {zone_name}: {shown}"
            )
            assert shown["count"] == len(views[1 - viewer]["zones"][zone_name])
            assert isinstance(mine["zones"][own_zone], list), f"{me} cannot see {own_zone}"
        basics = mine["zones"][f"basics.{me}"]
        placed_basics = [t for z in own for t in mine["zones"][z] if t in BASIC_TILES]
        assert sorted(basics + placed_basics, key=int) == list(BASIC_TILES), (
            f"{me}'s basic tiles: {basics} + placed {placed_basics}"
        )
        for zone in ("rack", "drawn", "discarded"):
            assert not set(mine["zones"][f"{zone}.{me}"]) & set(BASIC_TILES), (
                f"a basic tile in {zone}.{me}: {mine['zones'][f'{zone}.{me}']}"
            )

    # (e) the result, and that it follows the score track
    if terminal:
        returns = state.returns()
        dynasty, track = view["state"]["dynasty"], view["state"]["track"]
        assert dynasty in (3, 6, 9), f"the game ended in dynasty {dynasty}"
        assert dynasty == 9 or abs(track) >= 9, f"ended in dynasty {dynasty}, track {track}"
        expected_returns = [1.0, -1.0] if track > 0 else [-1.0, 1.0] if track < 0 else [0.0, 0.0]
        assert returns == expected_returns, f"returns {returns} with track {track}"


def play_one(seed: int, warlords: bool) -> list[str]:
    """Play one random game with every check at every ply; return the actions' texts."""
    variant = "warlords" if warlords else "basic"
    choose = random.Random(seed).choice
    history: list[str] = []
    with named_failures(f"{variant} seed {seed}", history):
        play_checked(new_state(seed, warlords), choose, history,
                     lambda state: check_ply(state, warlords), MAX_PLIES)
    return history


@pytest.mark.parametrize("variant, warlords", VARIANTS, ids=[v for v, _ in VARIANTS])
def test_random_games(variant: str, warlords: bool) -> None:
    for seed in range(GAMES_PER_VARIANT):
        assert 0 < len(play_one(seed, warlords)) <= MAX_PLIES


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(GAMES_PER_VARIANT, SOAK_GAMES), ids=batch_id)
@pytest.mark.parametrize("variant, warlords", VARIANTS, ids=[v for v, _ in VARIANTS])
def test_random_games_soak(variant: str, warlords: bool, seeds: range) -> None:
    for seed in seeds:
        assert 0 < len(play_one(seed, warlords)) <= MAX_PLIES


# ------------------------------------------------------------------ secret choices


def commits_seen_by_opponent(state: State) -> list[tuple[str, dict[str, Any]]]:
    """Each legal action of the player to act, with the opponent's observation after it."""
    opponent = 1 - state.current_player()
    seen = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        seen.append((str(action), after.observation(opponent)))
    return seen


@pytest.mark.parametrize("seed", range(SAMPLE_GAMES))
def test_warlord_commits_are_hidden(seed: int) -> None:
    """Whichever Warlord a player chooses, and wherever (or whether) they play it, the
    opponent's observation is the same."""
    state = new_state(seed, True)
    choose = random.Random(seed).choice
    checked = 0
    while not state.is_terminal():
        if state.get("phase") in ("choose_warlord", "warlord_step"):
            seen = commits_seen_by_opponent(state)
            for text, view in seen[1:]:
                assert view == seen[0][1], f"the opponent can tell {text!r} from {seen[0][0]!r}"
            checked += 1
        state.apply_action(choose(state.legal_actions()))
    assert checked >= 4


@pytest.mark.parametrize("warlords", [False, True], ids=["basic", "warlords"])
def test_placed_basic_tiles_are_hidden(warlords: bool) -> None:
    """Placing one basic tile or another on the same province looks the same to the opponent."""
    state = new_state(3, warlords)
    choose = random.Random(3).choice
    while state.get("phase") != "placement":
        state.apply_action(choose(state.legal_actions()))
    seen = [
        (text, view) for text, view in commits_seen_by_opponent(state)
        if text.endswith(" on mongolia") and text.split()[2] in BASIC_TILES
    ]
    assert len(seen) == len(BASIC_TILES)
    for text, view in seen[1:]:
        assert view == seen[0][1], f"the opponent can tell {text!r} from {seen[0][0]!r}"
