"""Seat names per player count (`names 2: North, South; 4: North, East, South, West`), on
Compass (tests/games/compass.rules, compiled here): the names of the count played are those of
the actions, the observation, the scenarios and the saved state; the rules name only North, the
seat that both counts have first."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from compiler import cli
from compiler.driver import check_rulebook
from compiler.pygen import load_python
from compiler.scenarios import load_scenarios, run_scenario

HERE = Path(__file__).resolve().parent / "games"
SEATS = {2: ["North", "South"], 4: ["North", "East", "South", "West"]}


@pytest.fixture(scope="module")
def game() -> ModuleType:
    compilation = check_rulebook(HERE / "compass.rules")
    assert compilation.ok and compilation.model is not None
    return load_python(compilation.model)


def test_the_scenarios_pass(game: ModuleType) -> None:
    file = HERE / "compass.scenario.yaml"
    results = [run_scenario(game, data, file.name, line) for data, line in load_scenarios(file)]
    assert len(results) >= 6
    assert all(r.passed for r in results), [(r.name, r.failures) for r in results if not r.passed]


@pytest.mark.parametrize("players", [2, 4])
def test_games_read_the_names_of_their_count(game: ModuleType, players: int) -> None:
    """Every action, observation and saved state of a game names only the seats of its count,
    also after a round trip through JSON and clone."""
    names = SEATS[players]
    for seed in range(3):
        state = game.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        while not state.is_terminal():
            view = state.observation(state.current_player())
            assert list(view["players"]) == names
            assert view["actor"] == names[state.current_player()]
            actions = state.legal_actions()
            for action in actions:
                who = str(action).split(" ")[0]
                assert who == names[action.actor], str(action)
                assert str(action).split(" ")[-1] in [*names, "rests"]
                assert state.action_text(action, 0) == str(action)
            if rng.random() < 0.2:
                state = game.from_json(state.to_json()) if seed % 2 else state.clone()
                assert [str(a) for a in state.legal_actions()] == [str(a) for a in actions]
            state.apply_action(rng.choice(actions))
        assert len(state.returns()) == players


def test_a_seat_reads_by_the_count_played(game: ModuleType) -> None:
    """South is seat 1 of two and seat 2 of four; East and West are no seats of two."""
    two, four = game.new_game(players=2), game.new_game(players=4)
    two.set("player.South.health", 1)
    four.set("player.South.health", 2)
    assert (two.p_health[1], four.p_health[2]) == (1, 2)
    assert two.parse_action("North strikes South").args == (1,)
    assert four.parse_action("North strikes South").args == (2,)
    with pytest.raises(KeyError):
        two.get("player.West.health")
    assert game.INFO["player_names"] == tuple(SEATS[4])


def test_a_range_of_counts_refuses_text_with_a_value_error(tmp_path: Path) -> None:
    """`players 2..4` compares the count: text gets the ValueError of a listed count, not
    Python's TypeError."""
    rules = (HERE / "compass.rules").read_text(encoding="utf-8")
    rules = rules.replace("players 2, 4", "players 2..4").replace(
        "names 2: North, South; 4: North, East, South, West", "names North, East, South, West")
    path = tmp_path / "compass.rules"
    path.write_text(rules, encoding="utf-8")
    compilation = check_rulebook(path)
    assert compilation.ok and compilation.model is not None
    ranged = load_python(compilation.model)
    with pytest.raises(ValueError, match="compass is for 2-4 players, not '3'"):
        ranged.new_game(players="3")
    with pytest.raises(ValueError, match="compass is for 2-4 players, not None"):
        ranged.new_game(players=None)
    assert ranged.new_game(players=3).num_players == 3


def test_the_documented_example_checks_clean_and_plays(tmp_path: Path) -> None:
    """The rulebook of "Seat names for each count" in docs/language.md compiles and plays at
    both counts with the names of each."""
    text = (HERE.parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("### Seat names for each count", 1)[1]
    example = section.split("```rulecraft\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "compass.rules"
    path.write_text(example, encoding="utf-8")
    compilation = check_rulebook(path)
    assert compilation.ok and compilation.model is not None, compilation.diagnostics.items
    documented = load_python(compilation.model)
    for players, names in SEATS.items():
        state = documented.new_game(seed=1, players=players)
        assert [str(a) for a in state.legal_actions()] == [
            f"North strikes {name}" for name in names[1:]]
        rng = random.Random(players)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert sorted(state.returns()) == [-1] * (players - 1) + [1]


@pytest.mark.parametrize("players", [2, 4])
def test_simulate_reports_the_seats_of_the_count(
        players: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["simulate", str(HERE / "compass.rules"), "-n", "2", "--players",
                     str(players), "--json"])
    assert code == 0
    assert list(json.loads(capsys.readouterr().out)["seats"]) == SEATS[players]


@pytest.mark.parametrize("players", [2, 4])
def test_a_players_name_as_data_is_the_seat_of_the_count_played(
        tmp_path: Path, players: int) -> None:
    """`target.name` stored in a field or compared (not in a `says` text) reads the seat names
    of the count played: South at two is seat 1, which is East at four."""
    rules = (HERE / "compass.rules").read_text(encoding="utf-8")
    rules = rules.replace("  turns: int = 0\n", "  turns: int = 0\n  struck: text = \"\"\n"
                          "  struck_south: bool = false\n")
    rules = rules.replace("    target.health -= 1\n", "    target.health -= 1\n"
                          "    struck = target.name\n"
                          "    struck_south = target.name == \"South\"\n")
    path = tmp_path / "compass.rules"
    path.write_text(rules, encoding="utf-8")
    compilation = check_rulebook(path)
    assert compilation.ok and compilation.model is not None, compilation.diagnostics.items
    state = load_python(compilation.model).new_game(seed=1, players=players)
    state.apply_action(state.parse_action("North strikes South"))
    assert (state.g_struck, state.g_struck_south) == ("South", True)


def test_a_seat_the_count_lacks_has_no_zones_in_a_view_or_a_path() -> None:
    """Dynasty TCG one on one: seats C to F have zones (the tables keep the shape of the
    largest count), which observations listed and `get` read as empty; a scenario expecting
    `zone.hand.C: []` passed."""
    import generated.dynasty_tcg as game

    state = game.new_game(seed=1)
    for player in (0, 1):
        owners = {key.split(".")[1] for key in state.observation(player)["zones"]
                  if "." in key}
        assert owners == {"A", "B"}, owners
    with pytest.raises(KeyError, match="C is not a seat of 2 players"):
        state.get("zone.hand.C")
    with pytest.raises(KeyError, match="F is not a seat of 2 players"):
        state.get("zone.field.F.A1.size")
    assert state.get("zone.hand.A")
