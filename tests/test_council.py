"""Zones a team holds as one (`zone treasury: Gem team per team`) and cards shown to a team
(`reveal g to allies(actor)`), on Council (tests/games/council.rules, compiled here): four or
six players in teams of two.

Seeded random games are played to the end; every ply checks that
(a) every gem is in exactly one zone, and a team's treasury and vault are one zone each, named
    by any of its players (the slots of the others stay empty);
(b) each player sees its team's treasury and only the count of the others', the count of every
    vault (its own team's too: `hidden`), and `observation()` lists a team zone once, under its
    captain's name;
(c) a card of a hand is shown to a player only if that player is a teammate of its holder.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from compiler.docgen import generate_docs
from compiler.driver import check_rulebook
from compiler.pygen import load_python
from compiler.scenarios import load_scenarios, run_scenario
from tests.playing import State, named_failures, play_checked
from tests.test_api_contract import Contract
from tests.tiers import batch_id, batches

HERE = Path(__file__).resolve().parent / "games"
DEFAULT_SEEDS = 2
SOAK_SEEDS = 200
MAX_PLIES = 200
TEAM_ZONES = ("treasury", "vault")


@pytest.fixture(scope="module")
def game() -> ModuleType:
    compilation = check_rulebook(HERE / "council.rules")
    assert compilation.ok and compilation.model is not None
    return load_python(compilation.model)


def check(state: State) -> None:
    players = state.num_players
    names = state.PLAYER_NAMES[:players]
    teams = [state.team_of(p) for p in range(players)]
    captains = [teams.index(teams[p]) for p in range(players)]
    gems = len(state.get("zone.mine")) + sum(len(state.get(f"zone.hand.{n}")) for n in names)
    for zone in TEAM_ZONES:
        for p, name in enumerate(names):
            assert state.get(f"zone.{zone}.{name}") == state.get(
                f"zone.{zone}.{names[captains[p]]}"), f"{zone} of {name} is its team's"
        gems += sum(len(state.get(f"zone.{zone}.{names[p]}")) for p in set(captains))
    assert gems == 3 * players, f"{gems} gems, not {3 * players}"
    for viewer in range(players):
        zones = state.observation(viewer)["zones"]
        for p, name in enumerate(names):
            if captains[p] != p:
                assert f"treasury.{name}" not in zones and f"vault.{name}" not in zones
                continue
            treasury = state.get(f"zone.treasury.{name}")
            assert zones[f"treasury.{name}"] == (
                treasury if teams[p] == teams[viewer] else {"count": len(treasury)})
            assert zones[f"vault.{name}"] == {"count": len(state.get(f"zone.vault.{name}"))}
        for p, name in enumerate(names):
            hand = zones[f"hand.{name}"]
            if p != viewer and hand["revealed"]:
                assert teams[p] == teams[viewer], f"{names[viewer]} saw {name}'s {hand}"


def play_games(game: ModuleType, players: int, seeds: range) -> int:
    """Plays the games; gives how many times a player saw a teammate's card shown to it."""
    shown = 0
    for seed in seeds:
        rng, history = random.Random(seed), []
        with named_failures(f"council {players} seed {seed}", history):
            state = game.new_game(seed=seed, players=players)

            def counted(state: State) -> None:
                nonlocal shown
                check(state)
                shown += sum(bool(state.observation(v)["zones"][f"hand.{name}"]["revealed"])
                             for v in range(players) for name in state.PLAYER_NAMES[:players]
                             if name != state.PLAYER_NAMES[v])

            play_checked(state, rng.choice, history, counted, MAX_PLIES)
            returns = state.returns()
            assert [returns[p] for p in range(players)] == [
                returns[state.captain(p)] for p in range(players)], "teammates win together"
    return shown


@pytest.mark.parametrize("players", [4, 6])
def test_random_games(game: ModuleType, players: int) -> None:
    assert play_games(game, players, range(DEFAULT_SEEDS)) > 0, "no card was ever shown"


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(DEFAULT_SEEDS, SOAK_SEEDS), ids=batch_id)
@pytest.mark.parametrize("players", [4, 6])
def test_random_games_soak(game: ModuleType, players: int, seeds: range) -> None:
    play_games(game, players, seeds)


def test_the_scenarios_pass(game: ModuleType) -> None:
    """A teammate pays into, and buries from, the team's one treasury; an opponent cannot."""
    file = HERE / "council.scenario.yaml"
    results = [run_scenario(game, data, file.name, line) for data, line in load_scenarios(file)]
    assert len(results) >= 6
    assert all(r.passed for r in results), [(r.name, r.failures) for r in results if not r.passed]


def _shown(game: ModuleType) -> State:
    state = game.new_game(seed=1, players=4)
    state.set("zone.hand.A", ["ruby", "opal"])
    state.apply_action(state.parse_action("A shows ruby to the team"))
    return state


def test_a_card_shown_to_the_team_is_seen_by_the_teammates_only(game: ModuleType) -> None:
    state = _shown(game)
    assert state.observation(0)["zones"]["hand.A"] == ["ruby", "opal"]
    assert state.observation(2)["zones"]["hand.A"] == {"count": 2, "revealed": ["ruby"]}
    for other in (1, 3, -1):
        assert state.observation(other)["zones"]["hand.A"] == {"count": 2, "revealed": []}
    assert game.from_json(state.to_json()).observation(2) == state.observation(2)


def test_a_card_shown_to_the_team_is_hidden_again_once_it_moves(game: ModuleType) -> None:
    state = _shown(game)
    state.set("current", "A")
    pay = state.parse_action("A pays ruby into the treasury")
    # C saw the ruby and sees the treasury; B and D see neither
    assert state.action_text(pay, 2) == "A pays ruby into the treasury"
    assert state.action_text(pay, 1) == "A pays a gem into the treasury"
    state.apply_action(pay)
    assert state.observation(2)["zones"]["treasury.A"] == ["ruby"]
    assert state.observation(2)["zones"]["hand.A"]["revealed"] == []
    state.apply_action(state.parse_action("B waits"))
    state.set("zone.hand.A", ["opal", "ruby"])  # another ruby, from the mine: never shown
    assert state.observation(2)["zones"]["hand.A"] == {"count": 2, "revealed": []}
    assert state.get("zone.treasury.A") == ["ruby"]


def test_resample_keeps_what_the_player_sees_and_deals_the_rest(game: ModuleType) -> None:
    """From B's seat, the treasury of A and C is a count: its gems change places with the other
    unseen ones; B's own team's treasury does not; every zone keeps its count."""
    state = game.new_game(seed=3, players=4)
    state.set("zone.treasury.C", ["ruby", "ruby", "jade"])
    state.set("zone.treasury.D", ["opal", "jade"])
    seen = set()
    for seed in range(40):
        copy = state.resample(1, random.Random(seed))
        assert copy.observation(1) == state.observation(1)
        assert copy.get("zone.treasury.B") == ["opal", "jade"]
        assert len(copy.get("zone.treasury.A")) == 3
        seen.add(tuple(sorted(copy.get("zone.treasury.A"))))
        mine = state.resample(2, random.Random(seed))  # C sees its team's treasury
        assert mine.get("zone.treasury.A") == ["ruby", "ruby", "jade"]
    assert len(seen) > 1, "the gems B cannot see never changed"


def test_the_player_count_is_validated(game: ModuleType) -> None:
    for players in (2, 3, 5, 7):
        with pytest.raises(ValueError, match=f"council is for 4 or 6 players, not {players}"):
            game.new_game(players=players)
    with pytest.raises(ValueError, match="council takes a whole number of players, not 4.0"):
        game.new_game(players=4.0)
    with pytest.raises(ValueError, match="council is for 4 or 6 players, not True"):
        game.new_game(players=True)
    with pytest.raises(ValueError, match="council is for 4 or 6 players, not '4'"):
        game.new_game(players="4")


def test_the_rulebook_says_the_zone_is_the_team_s() -> None:
    compilation = check_rulebook(HERE / "council.rules")
    assert compilation.model is not None
    markdown = generate_docs(compilation.model)
    assert "| `treasury` | Gem | team |" in markdown, markdown


def test_the_documented_example_checks_clean_and_plays(tmp_path: Path) -> None:
    """The rulebook of "Zones a team holds as one" in docs/language.md compiles and plays, and
    the team's treasury is one zone for both its players."""
    text = (HERE.parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("### Zones a team holds as one: `per team`", 1)[1]
    example = section.split("```rulecraft\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "council.rules"
    path.write_text(example, encoding="utf-8")
    compilation = check_rulebook(path)
    assert compilation.ok and compilation.model is not None, compilation.diagnostics.items
    game = load_python(compilation.model)
    state = game.new_game(seed=1, players=4)
    state.set("zone.hand.C", ["ruby"])
    state.set("current", "C")
    state.apply_action(state.parse_action("C pays ruby into the treasury"))
    assert state.get("zone.treasury.A") == ["ruby"]
    assert state.observation(1)["zones"]["treasury.A"] == {"count": 1}
    play_checked(state, random.Random(1).choice, [], check_counts, MAX_PLIES)
    assert state.returns() in ([1, -1, 1, -1], [-1, 1, -1, 1])


def check_counts(state: State) -> None:
    """Every gem is in the mine, a hand, or the treasury or vault of a team (A's or B's)."""
    names = state.PLAYER_NAMES[:state.num_players]
    held = sum(len(state.get(f"zone.hand.{name}")) for name in names)
    held += sum(len(state.get(f"zone.{zone}.{captain}"))
                for zone in ("treasury", "vault") for captain in ("A", "B"))
    assert held + len(state.get("zone.mine")) == 2 * len(names)


@pytest.mark.parametrize("seed", [0, 2])  # (seats(): 4 players, then 6)
def test_the_module_contract_holds(game: ModuleType, seed: int) -> None:
    """tests/test_api_contract.py's checks of every generated game, on Council: observation()
    agrees with get() for the zones a team holds as one, listed once, seen by the team."""
    history = Contract(game).play("default", {}, seed, deep_every=5)
    assert history
