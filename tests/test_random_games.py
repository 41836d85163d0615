"""1,000 seeded random games of Dynasties, played to the end through the public API.

Every ply of every game checks, through `observation()` only (one per player per ply):

(a) armies are conserved: reserve + removed + armies in the player's provinces + the player's
    6 markers == starting armies (21, or 18 with warlords) + bonus;
(b) a province is held by one player or nobody: owner none iff armies == 0, armies >= 0;
(c) tiles are conserved: basics + deck + drawn + rack + placed + discarded == 14 (16 with
    warlords) per player, and basic tiles stay basic;
(d) current_player() is a player exactly while the game is not over (TERMINAL after), and a
    player to act always has legal actions;
(e) the game ends within MAX_PLIES plies with returns [1, -1], [-1, 1] or [0, 0];

plus action ids in [0, NUM_DISTINCT_ACTIONS), distinct for distinct legal actions, and secrecy:
the opponent's placed tiles show a count only and their Warlord never shows.

Smaller samples check seeded replay, clone(), to_json()/from_json() mid-game, a global
id <-> action mapping and that `get()` reads what `observation()` shows.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import generated.dynasties as game
from tests.playing import State, play

PLAYERS = ("A", "B")
PROVINCES = ("mongolia", "qinghai", "mandarin", "xinjiang", "tibet")
BASIC_TILES = ("1", "2", "3", "4", "5", "6")
VARIANTS = (("basic", False), ("warlords", True))
STARTING_ARMIES = {False: 21, True: 18}
EXTRA_TILES = {False: 8, True: 10}  # 7-10, +1, -1, 2 Plagues (+ +2 and +3 with warlords)
GAMES_PER_VARIANT = 500
SAMPLE_GAMES = 20  # per variant, for the replay, clone, JSON and get() tests
MAX_PLIES = 300
RESULTS = ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
PLACED = tuple((p, tuple(f"placed.{p}.{v}" for v in PROVINCES)) for p in PLAYERS)
LISTED_ZONES = tuple(
    (p, tuple(f"{zone}.{p}" for zone in ("basics", "deck", "drawn", "rack", "discarded")))
    for p in PLAYERS
)



class GameFailure(AssertionError):
    """A failed check, named by variant, seed and the ply it happened at."""


def size(shown: Any) -> int:
    """The number of tiles in a zone as an observation shows it: a list or {"count": n}."""
    return len(shown) if isinstance(shown, list) else int(shown["count"])


def new_state(seed: int, warlords: bool) -> State:
    return game.new_game(seed=seed, players=2, options={"warlords": warlords}, decks=None)


def check_ply(state: State, warlords: bool) -> list[Any]:
    """Check every invariant of the position; return its legal actions."""
    terminal = state.is_terminal()
    current = state.current_player()
    legal: list[Any] = state.legal_actions()
    # (d) the player to act, and legal actions
    if terminal:
        assert current == game.TERMINAL, f"terminal but current_player() == {current}"
        assert legal == [], "a finished game still has legal actions"
    else:
        assert current in (0, 1), f"current_player() == {current} while not terminal"
        assert legal, "no legal actions while the game is not over"
        prefix = PLAYERS[current] + " "
        assert all(str(a).startswith(prefix) for a in legal), (
            f"an action not of {PLAYERS[current]}: {[str(a) for a in legal]}"
        )
        assert len(set(legal)) == len(legal), f"repeated legal actions: {legal}"
        ids = {state.action_id(a) for a in legal}
        assert len(ids) == len(legal), f"two legal actions share an id: {legal}"
        assert all(0 <= i < game.NUM_DISTINCT_ACTIONS for i in ids), f"ids out of range: {ids}"

    views = (state.observation(0), state.observation(1))
    view = views[0]
    assert view["terminal"] is terminal
    assert view["actor"] == (None if terminal else PLAYERS[current])
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

    # Secrecy, and what each player sees of their own tiles.
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
        assert returns in RESULTS, f"returns {returns}"
        dynasty, track = view["state"]["dynasty"], view["state"]["track"]
        assert dynasty in (3, 6, 9), f"the game ended in dynasty {dynasty}"
        assert dynasty == 9 or abs(track) >= 9, f"ended in dynasty {dynasty}, track {track}"
        expected_returns = [1.0, -1.0] if track > 0 else [-1.0, 1.0] if track < 0 else [0.0, 0.0]
        assert returns == expected_returns, f"returns {returns} with track {track}"
    return legal


def play_checked(seed: int, warlords: bool) -> list[str]:
    """Play one random game with every check at every ply; return the actions' texts."""
    variant = "warlords" if warlords else "basic"
    choose = random.Random(seed).choice
    history: list[str] = []

    def fail(error: BaseException) -> GameFailure:
        return GameFailure(
            f"{variant} seed {seed}, after {len(history)} actions "
            f"(last: {history[-6:]}): {type(error).__name__}: {error}"
        )

    try:
        state = new_state(seed, warlords)
        legal = check_ply(state, warlords)
        while not state.is_terminal():
            assert len(history) < MAX_PLIES, f"the game did not end within {MAX_PLIES} plies"
            action = choose(legal)
            history.append(str(action))
            state.apply_action(action)
            legal = check_ply(state, warlords)
    except Exception as error:  # noqa: BLE001 - engine exceptions are reported with the seed
        raise fail(error) from error
    return history


@pytest.mark.parametrize("seed", range(GAMES_PER_VARIANT))
@pytest.mark.parametrize("variant, warlords", VARIANTS, ids=[v for v, _ in VARIANTS])
def test_random_game(variant: str, warlords: bool, seed: int) -> None:
    history = play_checked(seed, warlords)
    assert 0 < len(history) <= MAX_PLIES


# ------------------------------------------------------------------ the smaller samples


def sample() -> list[tuple[int, bool]]:
    return [(seed, warlords) for _, warlords in VARIANTS for seed in range(SAMPLE_GAMES)]


def sample_id(case: tuple[int, bool]) -> str:
    return f"{'warlords' if case[1] else 'basic'}-{case[0]}"


@pytest.mark.parametrize("case", sample(), ids=sample_id)
def test_seeded_replay_is_identical(case: tuple[int, bool]) -> None:
    seed, warlords = case
    first = new_state(seed, warlords)
    first_texts = play(first, random.Random(seed).choice)
    second = new_state(seed, warlords)
    second_texts = play(second, random.Random(seed).choice)
    assert first_texts == second_texts
    assert first.to_json() == second.to_json()
    # The same texts, chosen by name from the legal actions, give the same game again.
    third = new_state(seed, warlords)
    for text in first_texts:
        by_text = {str(a): a for a in third.legal_actions()}
        assert text in by_text, f"{text!r} is not legal on replay"
        third.apply_action(by_text[text])
    assert third.to_json() == first.to_json()
    assert third.returns() == first.returns()


def midpoint(seed: int, warlords: bool) -> tuple[State, int]:
    """A game advanced to a random ply of its first half; the number of plies it is at."""
    state = new_state(seed, warlords)
    plies = random.Random(seed + 10_000).randrange(1, 60)
    return state, len(play(state, random.Random(seed).choice, plies))


@pytest.mark.parametrize("case", sample(), ids=sample_id)
def test_clone_mid_game_continues_identically(case: tuple[int, bool]) -> None:
    seed, warlords = case
    state, _ = midpoint(seed, warlords)
    before = state.to_json()
    copy = state.clone()
    assert copy.to_json() == before
    copy_texts = play(copy, random.Random(seed + 1).choice)
    assert state.to_json() == before, "playing the clone changed the original"
    state_texts = play(state, random.Random(seed + 1).choice)
    assert state_texts == copy_texts
    assert state.to_json() == copy.to_json()
    assert state.returns() == copy.returns()


@pytest.mark.parametrize("case", sample(), ids=sample_id)
def test_json_round_trip_mid_game_continues_identically(case: tuple[int, bool]) -> None:
    seed, warlords = case
    state, _ = midpoint(seed, warlords)
    text = state.to_json()
    restored = game.from_json(text)
    assert restored.to_json() == text
    assert restored.current_player() == state.current_player()
    assert [str(a) for a in restored.legal_actions()] == [str(a) for a in state.legal_actions()]
    for player in (0, 1):
        assert restored.observation(player) == state.observation(player)
    restored_texts = play(restored, random.Random(seed + 2).choice)
    state_texts = play(state, random.Random(seed + 2).choice)
    assert restored_texts == state_texts
    assert restored.to_json() == state.to_json()
    assert restored.returns() == state.returns()


def test_action_ids_name_one_action_each() -> None:
    """Over many games, an id always stands for the same action (apart from its actor)."""
    assert isinstance(game.NUM_DISTINCT_ACTIONS, int) and game.NUM_DISTINCT_ACTIONS > 0
    meaning: dict[int, str] = {}
    ids: dict[str, int] = {}
    for seed, warlords in sample():
        state = new_state(seed, warlords)
        choose = random.Random(seed).choice
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in legal:
                number = state.action_id(action)
                assert 0 <= number < game.NUM_DISTINCT_ACTIONS
                what = str(action).split(" ", 1)[1]
                assert meaning.setdefault(number, what) == what, (
                    f"id {number} is both {meaning[number]!r} and {what!r}"
                )
                assert ids.setdefault(what, number) == number, f"{what!r} has two ids"
            state.apply_action(choose(legal))
    assert len(meaning) <= game.NUM_DISTINCT_ACTIONS


def read_with_get(state: State) -> dict[str, Any]:
    """The invariants' inputs read path by path with `get`."""
    values: dict[str, Any] = {}
    for name in PLAYERS:
        for field in ("reserve", "removed", "bonus"):
            values[f"player.{name}.{field}"] = state.get(f"player.{name}.{field}")
        for zone in ("basics", "deck", "drawn", "rack", "discarded"):
            values[f"zone.{zone}.{name}"] = len(state.get(f"zone.{zone}.{name}"))
        for province in PROVINCES:
            values[f"zone.placed.{name}.{province}"] = len(
                state.get(f"zone.placed.{name}.{province}")
            )
            values[f"province.{province}.marker.{name}"] = state.get(
                f"province.{province}.marker.{name}"
            )
    for province in PROVINCES:
        for field in ("owner", "armies"):
            values[f"province.{province}.{field}"] = state.get(f"province.{province}.{field}")
    return values


def read_from_observation(views: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    """The values of read_with_get, each read from the view of a player allowed to see it."""
    values: dict[str, Any] = {}
    view = views[0]
    board = view["board"]["Province"]
    for index, name in enumerate(PLAYERS):
        for field in ("reserve", "removed", "bonus"):
            values[f"player.{name}.{field}"] = view["players"][name][field]
        for zone in ("basics", "deck", "drawn", "rack", "discarded"):
            values[f"zone.{zone}.{name}"] = size(views[index]["zones"][f"{zone}.{name}"])
        for province in PROVINCES:
            values[f"zone.placed.{name}.{province}"] = size(
                view["zones"][f"placed.{name}.{province}"]
            )
            values[f"province.{province}.marker.{name}"] = board[province]["marker"][index]
    for province in PROVINCES:
        for field in ("owner", "armies"):
            values[f"province.{province}.{field}"] = board[province][field]
    return values


@pytest.mark.parametrize("case", sample()[:: SAMPLE_GAMES // 5], ids=sample_id)
def test_get_reads_what_observation_shows(case: tuple[int, bool]) -> None:
    seed, warlords = case
    state = new_state(seed, warlords)
    choose = random.Random(seed).choice
    while True:
        views = (state.observation(0), state.observation(1))
        assert read_with_get(state) == read_from_observation(views)
        if state.is_terminal():
            break
        state.apply_action(choose(state.legal_actions()))


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
