"""Seats, teams, shared fields, team zones and players who are out, on Last stand
(tests/games/last_stand.rules, compiled here): three to six players, alone or in teams of two.

Seeded random games of each setup are played to the end; every ply checks that
(a) a 'per team' field (health) is one value for all the teammates;
(b) the player to act is never out, and a team is out together or not at all;
(c) every chip is in exactly one zone (the bag, a stash or a team's spent pile, its captain's);
(d) each player sees the stashes and spent piles of its team, and only the count of the
    others', and the team of every seat;
and at the end, that returns() gives one value per player, the same to teammates, +1 to exactly
one team, one that still has a player in, and that ranks() puts that team first, alone.

The default tier plays DEFAULT_SEEDS games of each setup; the soak tier (`-m soak`) plays the
rest of SOAK_SEEDS (1,000 games in all).
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from compiler import cli
from compiler.docgen import generate_docs
from compiler.driver import check_rulebook
from compiler.pygen import load_python
from compiler.scenarios import load_scenarios, run_scenario
from tests.playing import State, named_failures, play_checked
from tests.tiers import batch_id, batches

HERE = Path(__file__).resolve().parent / "games"
SETUPS = [(3, False), (4, False), (4, True), (6, False), (6, True)]
SETUP_IDS = [f"{n}{'-pairs' if pairs else ''}" for n, pairs in SETUPS]
DEFAULT_SEEDS = 6
SOAK_SEEDS = 200
MAX_PLIES = 400
ZONES = ("stash", "spent")  # the team zones: each player's, and each team's (its captain's)


@pytest.fixture(scope="module")
def game() -> ModuleType:
    compilation = check_rulebook(HERE / "last_stand.rules")
    assert compilation.ok and compilation.model is not None
    return load_python(compilation.model)


def checks(game: ModuleType, players: int) -> tuple[list[str], Callable[[State], None]]:
    names = game.PLAYER_NAMES[:players]

    def check(state: State) -> None:
        teams = [state.team_of(p) for p in range(players)]
        out = [state.get(f"player.{name}.out") for name in names]
        health = [state.get(f"player.{name}.health") for name in names]
        for p in range(players):
            for q in range(players):
                if teams[p] == teams[q]:
                    assert health[p] == health[q], f"{names[p]} and {names[q]} share health"
                    assert out[p] == out[q], f"{names[p]} and {names[q]} are out together"
        if not state.is_terminal():
            assert not out[state.current_player()], "a player who is out acts"
        chips = len(state.get("zone.bag")) + sum(
            len(state.get(f"zone.{zone}.{name}")) for name in names for zone in ZONES)
        assert chips == 2 * players, f"{chips} chips, not {2 * players}"
        captains = {p for p in range(players) if teams.index(teams[p]) == p}
        assert all(not state.get(f"zone.spent.{names[p]}")
                   for p in range(players) if p not in captains), "a spent pile not a team's"
        for viewer in range(players):
            view = state.observation(viewer)
            assert view["teams"] == dict(zip(names, teams, strict=True))
            for p, name in enumerate(names):
                for zone in ZONES:
                    shown = view["zones"][f"{zone}.{name}"]
                    actual = state.get(f"zone.{zone}.{name}")
                    if teams[p] == teams[viewer]:
                        assert shown == actual, f"{names[viewer]} sees {zone}.{name} as {shown}"
                    else:
                        assert shown == {"count": len(actual)}, (
                            f"{names[viewer]} sees {zone}.{name} as {shown}")

    return names, check


def play_games(game: ModuleType, players: int, pairs: bool, seeds: range) -> None:
    names, check = checks(game, players)
    for seed in seeds:
        rng, history = random.Random(seed), []
        with named_failures(f"last_stand {players} pairs={pairs} seed {seed}", history):
            state = game.new_game(seed=seed, players=players, options={"pairs": pairs})
            play_checked(state, rng.choice, history, check, MAX_PLIES)
            returns = state.returns()
            teams = [state.team_of(p) for p in range(players)]
            assert len(returns) == players
            winners = {teams[p] for p in range(players) if returns[p] == 1}
            assert len(winners) == 1, f"returns {returns}"
            for p in range(players):
                assert returns[p] == (1 if teams[p] in winners else -1), f"returns {returns}"
            assert any(not state.get(f"player.{names[p]}.out")
                       for p in range(players) if teams[p] in winners)
            ranks = state.ranks()
            for p in range(players):
                assert (ranks[p] == 1) == (teams[p] in winners), f"ranks {ranks}"
                assert all(ranks[q] == ranks[p] for q in range(players) if teams[q] == teams[p])


@pytest.mark.parametrize(("players", "pairs"), SETUPS, ids=SETUP_IDS)
def test_random_games(game: ModuleType, players: int, pairs: bool) -> None:
    play_games(game, players, pairs, range(DEFAULT_SEEDS))


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(DEFAULT_SEEDS, SOAK_SEEDS), ids=batch_id)
@pytest.mark.parametrize(("players", "pairs"), SETUPS, ids=SETUP_IDS)
def test_random_games_soak(game: ModuleType, players: int, pairs: bool, seeds: range) -> None:
    play_games(game, players, pairs, seeds)


def test_teams_take_turns(game: ModuleType) -> None:
    """`teams of 2`: seat i plays in team i % (players / 2), so the teams take turns."""
    assert [game.new_game(players=4, options={"pairs": True}).team_of(p)
            for p in range(4)] == [0, 1, 0, 1]
    assert [game.new_game(players=6, options={"pairs": True}).team_of(p)
            for p in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [game.new_game(players=3).team_of(p) for p in range(3)] == [0, 1, 2]


def test_new_game_validates_the_player_count(game: ModuleType) -> None:
    for players in (1, 2, 5, 7):
        with pytest.raises(ValueError, match=f"last_stand is for 3-4 or 6 players, not {players}"):
            game.new_game(players=players)
    with pytest.raises(ValueError, match="3 players cannot play in teams of 2"):
        game.new_game(players=3, options={"pairs": True})
    assert game.INFO["players"] == (3, 6)


def test_the_scenarios_pass(game: ModuleType) -> None:
    """Seat order after elimination, shared health, attacks on opponents only, team wins."""
    file = HERE / "last_stand.scenario.yaml"
    results = [run_scenario(game, data, file.name, line) for data, line in load_scenarios(file)]
    assert len(results) >= 9
    assert all(r.passed for r in results), [(r.name, r.failures) for r in results if not r.passed]


def test_json_and_clone_keep_the_teams(game: ModuleType) -> None:
    state = game.new_game(seed=3, players=6, options={"pairs": True})
    state.set("player.A.health", 2)
    copy = game.from_json(state.to_json())
    assert [copy.team_of(p) for p in range(6)] == [0, 1, 2, 0, 1, 2]
    assert copy.get("player.D.health") == 2
    clone = state.clone()
    clone.set("player.D.health", 1)
    assert (clone.get("player.A.health"), state.get("player.A.health")) == (1, 2)


def test_simulate_and_play_take_the_number_of_players(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rules = str(HERE / "last_stand.rules")
    code = cli.main(["simulate", rules, "-n", "4", "--players", "4", "--option", "pairs=true",
                     "--json"])
    report = json.loads(capsys.readouterr().out)
    seats = report["seats"]
    assert code == 0 and set(seats) == {"A", "B", "C", "D"}
    # teammates win together
    assert seats["A"]["wins"] == seats["C"]["wins"] and report["games"] == 4
    assert seats["A"]["wins"] + seats["B"]["wins"] == 4
    assert cli.main(["simulate", rules, "-n", "1", "--players", "5"]) == 2
    assert "last_stand is for 3-4 or 6 players, not 5" in capsys.readouterr().err
    assert cli.main(["simulate", rules, "-n", "1", "--players", "3", "--option",
                     "pairs=true"]) == 2
    assert "3 players cannot play in teams of 2" in capsys.readouterr().err
    # the default (no --agents) fills every seat; a pair the user lists is one agent per seat
    assert cli.main(["simulate", rules, "-n", "1", "--players", "3", "--agents",
                     "random,random"]) == 2
    assert "2 agents for --players 3" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert cli.main(["play", rules, "--players", "6", "--as", "F"]) == 0
    assert "F rests" in capsys.readouterr().out


def test_the_documented_example_checks_clean(tmp_path: Path) -> None:
    """The rulebook of "Players, seats and teams" in docs/language.md compiles and plays."""
    text = (HERE.parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("### Players, seats and teams", 1)[1]
    example = section.split("```rulecraft\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "last_stand.rules"
    path.write_text(example, encoding="utf-8")
    compilation = check_rulebook(path)
    assert compilation.ok and compilation.model is not None, compilation.diagnostics.items
    game = load_python(compilation.model)
    state = game.new_game(seed=1, players=4, options={"pairs": True})
    play_checked(state, random.Random(1).choice, [], lambda s: None, MAX_PLIES)
    assert state.returns() in ([1, -1, 1, -1], [-1, 1, -1, 1])


@pytest.mark.parametrize("players", [2, 4])
def test_listed_teams_and_team_fields_play(players: int) -> None:
    """tests/cases/teams_seat_order.rules: `teams [A, C], [B, D]` (two players: A against B),
    a 'per team' pool, a 'team' field seen by teammates only."""
    compilation = check_rulebook(HERE.parent / "cases" / "teams_seat_order.rules")
    assert compilation.model is not None
    game = load_python(compilation.model)
    names = game.PLAYER_NAMES[:players]
    teams = [0, 1, 0, 1][:players]

    def check(state: State) -> None:
        pools = [state.get(f"player.{name}.pool") for name in names]
        for p in range(players):
            view = state.observation(p)["players"]
            for q in range(players):
                assert (pools[p] == pools[q]) or teams[p] != teams[q]
                assert ("secret_plan" in view[names[q]]) == (teams[p] == teams[q])

    for seed in range(5):
        state = game.new_game(seed=seed, players=players)
        assert [state.team_of(p) for p in range(players)] == teams
        play_checked(state, random.Random(seed).choice, [], check, MAX_PLIES)
        assert state.returns() == [1.0 if t == teams[state.returns().index(1.0)] else -1.0
                                   for t in teams]


def test_ranks_put_the_last_standing_first(game: ModuleType) -> None:
    """A free-for-all of four: C goes out, then A; D wins; B, still in, is second."""
    state = game.new_game(seed=1, players=4)
    assert state.ranks() == [1, 1, 1, 1]
    state.set("player.C.out", True)
    state.set("player.A.out", True)
    assert state.ranks() == [3, 1, 4, 1]
    state.set("player.B.health", 1)
    state.apply_action(state.parse_action("D attacks B"))
    assert state.returns() == [-1, -1, -1, 1]
    assert state.ranks() == [3, 2, 4, 1]


def test_ranks_of_teams(game: ModuleType) -> None:
    state = game.new_game(seed=1, players=6, options={"pairs": True})
    state.set("player.B.health", 1)
    state.apply_action(state.parse_action("F attacks B"))  # B and E go out together
    assert state.ranks() == [1, 3, 1, 1, 3, 1]


def test_the_rulebook_says_who_plays_with_whom() -> None:
    compilation = check_rulebook(HERE / "last_stand.rules")
    assert compilation.model is not None
    markdown = generate_docs(compilation.model)
    assert ("- **Players:** 3 to 4 or 6, in teams of 2 if the *pairs* option, otherwise 1"
            in markdown)
    assert "the players still in, highest *q*'s health first" in markdown
    assert "its owner and teammates see the cards; others see how many" in markdown
    listed = check_rulebook(HERE.parent / "cases" / "teams_seat_order.rules")
    assert listed.model is not None
    assert "- **Players:** 2 or 4, in teams: A and C; B and D" in generate_docs(listed.model)


def test_the_counts_the_teams_do_not_divide_are_not_the_games(game: ModuleType,
                                                               capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    """`teams of if pairs then 2 else 1`: with pairs, 3 players cannot play, and the tools'
    default count (the fewest) was 3, which new_game then refused."""
    assert game.player_counts() == (3, 4, 6)
    assert game.player_counts({"pairs": True}) == (4, 6)
    code = cli.main(["simulate", str(HERE / "last_stand.rules"), "-n", "2", "--option",
                     "pairs=true", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["games"] == 2 and len(json.loads(out.out)["seats"]) == 4
