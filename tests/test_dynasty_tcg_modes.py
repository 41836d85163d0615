"""Dynasty TCG's All-out war and Victory Royale (the option `mode`): seeded random games of each
setup played to the end through the public API, with the checks of the one-on-one game
(tests/test_dynasty_tcg_games.py) over every seat, plus what the modes promise:

(a) card conservation over every seat's zones, one unit per zone, only orders in the order
    zones, only items under units (check_cards of the one-on-one game, for each seat);
(b) team pools consistent: the commanders of an army have one health and one pool of
    resources, from 0 to 10 for each commander; in a royale each commander's own, 0 to 10;
(c) health only falls, but for the 20 that everyone still in gains at once (decision
    BOTH_ZERO);
(d) no card of one team is visible to the other: in the observation of every player of
    another team, a player's hand, deck and mulligan cards are counts; and the text of every
    action, read by a seat of another team than the actor's (a different one each time), names
    only cards that seat sees before or after it. The text read is the card text at every ply
    (`_card_text`: cards masked as action_text masks them, every other parameter named, so it
    names every card action_text names), and action_text itself at one ply in TEXT_EVERY, where
    the test also checks that the card text names each card action_text names;
(e) in a royale, a commander who is out never acts again, and the game ends with the last one
    standing as the only winner or in a draw; in a war, teammates get the same result and the
    losing army is at 0 health, has nothing left to play, or lost a stalemate.

The default tier plays one short game of a 2v2 and of a 1v1v1 (DEFAULT_SETUPS); the soak tier
(`-m soak`) SOAK_GAMES a mode (1,000), its seeds alternating between the mode's two setups,
every game with every check above. The war's soak is here and the royale's in
tests/test_dynasty_tcg_royale.py: pytest-xdist gives a file to a process (`--dist loadfile`),
so the two modes run side by side on CI's two cores.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest

import generated.dynasty_tcg as game
from compiler import cli
from tests.playing import State, named_failures, play_checked, shown_names
from tests.test_dynasty_tcg_games import MAX_PLIES, NAMES, check_cards, zone_paths
from tests.tiers import batch_id, batches

SETUPS = [("war", 4), ("war", 6), ("royale", 3), ("royale", 4)]
SOAK_GAMES = 1000
# the default tier's games: seeds among the shortest of the first twelve (338 and 247 plies
# against a mean near 450 and 400), to keep the tier within its minute
DEFAULT_SETUPS = [("war", 4, 5), ("royale", 3, 9)]
# the plies whose whole action text is read: one in TEXT_EVERY, in every game (action_text
# plays out every legal alternative, half a game's checking time at one in 4, which made 1,000
# games a mode too long for CI's budget: benchmarks/bench_modes_soak.py, docs/performance.md);
# the card text, which plays out the action alone, is read at every ply
TEXT_EVERY = 8


def seats(players: int) -> tuple[str, ...]:
    return tuple(game.INFO["player_names"])[:players]


def teams_of(state: State) -> dict[str, int]:
    return {p: state.team_of(i) for i, p in enumerate(seats(state.num_players))}


def decks_of(seed: int, players: int) -> dict[str, str]:
    """The shipped decks in name order, from one that turns with the seed."""
    names = sorted(game.DECKS)
    return {p: names[(seed + i) % len(names)] for i, p in enumerate(seats(players))}


def check_armies(state: State, mode: str, health: dict[str, int]) -> None:
    """(b) one health and one pool per army, in bounds; (c) health falls but for BOTH_ZERO."""
    players = seats(state.num_players)
    teams = teams_of(state)
    now = {p: state.get(f"player.{p}.health") for p in players}
    pools = {p: state.get(f"player.{p}.resources") for p in players}
    for player in players:
        mates = [q for q in players if teams[q] == teams[player]]
        assert len(mates) == (state.num_players // 2 if mode == "war" else 1), teams
        resources = pools[player]
        assert 0 <= resources <= 10 * len(mates), f"{player} has {resources} resources"
        for mate in mates:
            assert now[mate] == now[player], f"{player} and {mate} differ in health: {now}"
            assert pools[mate] == resources, f"{player} and {mate} differ in resources"
    risen = [p for p in players if now[p] > health[p]]
    if risen:
        still = [p for p in players if not state.get(f"player.{p}.out")]
        assert sorted(risen) == sorted(still), f"only {risen} gained health: {health} -> {now}"
        assert all(now[p] <= health[p] + 20 for p in risen), f"{health} -> {now}"
    health.update(now)


def check_secrets(state: State, index: int, view: dict[str, Any]) -> None:
    """(d), observations: a player's hidden zones are counts to every seat of another team, as
    seat `index` sees them in `view` (the caller turns it from ply to ply: one observation a
    ply)."""
    players = seats(state.num_players)
    teams = teams_of(state)
    viewer = players[index]
    for player in players:
        if teams[player] != teams[viewer]:
            for zone in ("hand", "deck", "aside"):
                shown = view["zones"][f"{zone}.{player}"]
                assert isinstance(shown, dict) and not shown.get("revealed"), (
                    f"{viewer} sees {player}'s {zone}: {shown}")


def check_result(state: State, mode: str) -> None:
    """(e) one winner in a royale, the last standing; in a war the armies' results."""
    players = seats(state.num_players)
    returns = state.returns()
    if mode == "royale":
        winners = [p for p, r in zip(players, returns, strict=True) if r > 0]
        standing = [p for p in players if not state.get(f"player.{p}.out")]
        assert returns.count(0) in (0, len(players)), returns
        if winners:
            assert len(winners) == 1 and winners[0] in standing, (returns, standing)
        return
    teams = teams_of(state)
    for player, result in zip(players, returns, strict=True):
        mates = [returns[i] for i, q in enumerate(players) if teams[q] == teams[player]]
        assert all(m == result for m in mates), f"teammates differ: {returns}"
    losers = [p for p, r in zip(players, returns, strict=True) if r < 0]
    if losers:
        army = [q for q in players if teams[q] == teams[losers[0]]]
        other = next(q for q in players if q not in army)
        health = state.get(f"player.{losers[0]}.health")
        nothing = not any(state.get(path) for q in army for path in zone_paths(q)
                          if not path.startswith(("zone.discard", "zone.trade")))
        assert health <= 0 or nothing or health < state.get(f"player.{other}.health"), (
            f"{losers[0]}'s army lost with {health} health and cards left")


class Views:
    """The observations of one game's checks, shared: the ply's reader of an action text sees
    the position after it once, for the text and for the secrets (check_secrets)."""

    def __init__(self) -> None:
        self.viewer = -1  # the seat that read this ply's action text, if any
        self.after: dict[str, Any] = {}

    def read_by_another_team(self, state: State, action: Any) -> Callable[[State], None]:
        """(d), action texts: read by a seat of another team than the actor's, a different
        one each time; the card text at every ply, action_text too on every TEXT_EVERY-th."""
        self.viewer = -1
        turn = state.get("turn") + state.action_id(action)
        players = seats(state.num_players)
        teams = teams_of(state)
        actor = state.current_player()
        others = [i for i, p in enumerate(players) if teams[p] != teams[players[actor]]]
        viewer = others[turn % len(others)]
        before = shown_names(state.observation(viewer))
        text = state._card_text(action, viewer)
        if turn % TEXT_EVERY == 0:
            full = state.action_text(action, viewer)
            missing = set(NAMES.findall(full)) - set(NAMES.findall(text))
            assert not missing, f"'{full}' names {missing}, its card text '{text}' does not"

        def check(after_state: State) -> None:
            self.viewer, self.after = viewer, after_state.observation(viewer)
            after = shown_names(self.after)
            for name in NAMES.findall(text):
                assert name in before or name in after, (
                    f"{players[viewer]} reads '{text}', which names {name}, a card they cannot "
                    "see")
        return check

    def secrets(self, state: State, plies: int) -> None:
        """check_secrets as the ply's reader of a text sees it (on the first position, before
        any text is read, as the seats in turn)."""
        if self.viewer >= 0:
            check_secrets(state, self.viewer, self.after)
        else:
            index = plies % state.num_players
            check_secrets(state, index, state.observation(index))
        self.viewer = -1


def check_ply(state: State, mode: str, decks: dict[str, str], health: dict[str, int],
              plies: int, views: Views) -> None:
    check_cards(state, decks, seats(state.num_players))
    check_armies(state, mode, health)
    views.secrets(state, plies)
    if state.is_terminal():
        check_result(state, mode)
    elif mode == "royale":
        actor = seats(state.num_players)[state.current_player()]
        assert not state.get(f"player.{actor}.out"), f"{actor} acts while out"


def play_one(mode: str, players: int, seed: int) -> list[str]:
    """One game, checked at every ply: (a) to (e)."""
    decks = decks_of(seed, players)
    choose = random.Random(seed).choice
    history: list[str] = []
    views = Views()
    state = game.new_game(seed=seed, players=players, options={"mode": mode}, decks=decks)
    health = {p: state.get(f"player.{p}.health") for p in seats(players)}
    with named_failures(f"{mode} {players} players {decks} seed {seed}", history):
        play_checked(state, choose, history,
                     lambda s: check_ply(s, mode, decks, health, len(history), views),
                     MAX_PLIES, views.read_by_another_team)
    return history


def play_soak(mode: str, seeds: range) -> None:
    """The soak tier's games of a mode: the seeds alternate between the mode's setups."""
    counts = [n for m, n in SETUPS if m == mode]
    for seed in seeds:
        players = counts[seed % len(counts)]
        assert 0 < len(play_one(mode, players, seed)) <= MAX_PLIES


@pytest.mark.parametrize(("mode", "players", "seed"), DEFAULT_SETUPS,
                         ids=[f"{m}{n}-seed{s}" for m, n, s in DEFAULT_SETUPS])
def test_random_games(mode: str, players: int, seed: int) -> None:
    """The default tier: a 2v2 and a 1v1v1 (3v3 and 1v1v1v1 play in the soak tier)."""
    assert 0 < len(play_one(mode, players, seed)) <= MAX_PLIES


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(0, SOAK_GAMES), ids=batch_id)
def test_random_wars_soak(seeds: range) -> None:
    """1,000 wars, 2v2 and 3v3 in turn (the royales: tests/test_dynasty_tcg_royale.py)."""
    play_soak("war", seeds)


def test_modes_refuse_the_counts_they_do_not_allow() -> None:
    with pytest.raises(ValueError, match="with mode=royale is for 3-4 players, not 2"):
        game.new_game(players=2, options={"mode": "royale"})
    with pytest.raises(ValueError, match="with mode=war is for 4 or 6 players, not 3"):
        game.new_game(players=3, options={"mode": "war"})
    with pytest.raises(ValueError, match="with mode=duel is for 2 players, not 4"):
        game.new_game(players=4)
    assert game.player_counts({"mode": "war"}) == (4, 6)
    assert game.new_game(players=4, options={"mode": "war"}).observation(0)["teams"] == {
        "A": 0, "B": 1, "C": 0, "D": 1}


def test_the_command_line_seats_each_mode(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`--option mode=...` without --players seats the fewest the mode allows; a count the mode
    does not allow exits 2 with new_game's message and no traceback."""
    assert cli.main(["simulate", "dynasty_tcg", "--players", "2", "--option", "mode=royale"]) == 2
    err = capsys.readouterr().err
    assert "dynasty_tcg with mode=royale is for 3-4 players, not 2" in err
    assert "Traceback" not in err
    assert cli.main(["simulate", "dynasty_tcg", "--players", "3", "--option", "mode=war"]) == 2
    assert "with mode=war is for 4 or 6 players, not 3" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert cli.main(["play", "dynasty_tcg", "--option", "mode=war", "--as", "D"]) == 0
    assert "D keeps the hand" in capsys.readouterr().out


def test_a_scenario_without_players_has_the_fewest_its_options_allow() -> None:
    """As the commands do: `options: {mode: royale}` alone is a game of three (and a count
    given that the mode does not allow fails the scenario with new_game's message)."""
    from compiler.scenarios import run_scenario

    three = {"game": "dynasty_tcg", "name": "three", "seed": 1, "options": {"mode": "royale"},
             "expect": {"current": "A", "player.C.out": False}}
    result = run_scenario(game, three, "inline", 1)
    assert result.passed, result.failures
    two = dict(three, name="two", players=2)
    failures = run_scenario(game, two, "inline", 1).failures
    assert any("is for 3-4 players, not 2" in f for f in failures), failures
