"""The balance lab: agents by name and from Python, the figures of `rulecraft simulate`, seats
swapped, --jobs giving the same totals, Ctrl-C, usage errors and the --coverage gate."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from compiler import agents, api, cli, lab
from compiler.lab_stats import summarize, wilson
from compiler.pygen import generate_python
from compiler.scenarios import load_scenarios, run_scenario
from tests.playing import load

ROOT = Path(__file__).resolve().parent.parent


def simulate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = cli.main(["simulate", *argv])
    out = capsys.readouterr()
    try:
        report = json.loads(out.out)
    except json.JSONDecodeError:
        report = out.out
    return code, report, out.err


def test_agent_specs() -> None:
    assert agents.parse("mcts:iterations=200,c=1.5,random") == [
        ("mcts", {"iterations": 200, "c": 1.5}), ("random", {})]
    assert agents.label(("mcts", {"iterations": 200})) == "mcts:iterations=200"
    with pytest.raises(agents.AgentError, match="unknown agent 'mtcs'"):
        agents.parse("mtcs,random")
    with pytest.raises(agents.AgentError, match="mcts"):
        agents.make("mcts:depth=3")
    with pytest.raises(agents.AgentError, match="at least 1"):
        agents.make("mcts:iterations=0")


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=8"])
@pytest.mark.parametrize("name", ["dynasties", "rulers_gambit"])
def test_agents_choose_legal_actions(name: str, spec: str) -> None:
    game = load(name)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    agent = agents.make(spec)
    for _ in range(6):
        action = agent.step(state, rng)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_greedy_follows_a_declared_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a rulebook's heuristic(p) the greedy agent takes the action it scores best."""
    game = load("dynasties")
    state = game.new_game(seed=1)
    target = state.legal_actions()[-1]
    after = state.clone()
    after.apply_action(target)
    wanted = after.observation(0)
    monkeypatch.setattr(game, "f_heuristic",
                        lambda s, p: 1 if s.observation(0) == wanted else 0, raising=False)
    assert agents.make("greedy").step(state, random.Random(0)) == target


def test_an_agent_from_python() -> None:
    class First:
        def step(self, state: Any, rng: random.Random) -> Any:
            return state.legal_actions()[0]

    game = load("dynasties")
    setup = lab.Setup(game="dynasties", agents=[("first", {}), ("random", {})])
    records = list(lab.run(game, setup, 2, chosen_agents=[First(), agents.make("random")]))
    assert [r.seats for r in records] == [[0, 1], [1, 0]]
    agents.register("first", First)
    try:
        again = list(lab.run(game, setup, 2))
    finally:
        del agents._AGENTS["first"]  # noqa: SLF001 - the registry's own test cleans up
    assert [r.returns for r in again] == [r.returns for r in records]


@pytest.mark.soak
def test_mcts_beats_random_at_dynasties() -> None:
    """A small proof run (docs/lab.md has the long one): MCTS(100) wins at least 8 of 10
    games against random, 5 in each seat."""
    game = load("dynasties")
    setup = lab.Setup(game="dynasties", seed=5,
                      agents=[("mcts", {"iterations": 100}), ("random", {})])
    report = summarize(list(lab.run(game, setup, 10)), ["A", "B"], ["mcts", "random"])
    assert report["by_agent"]["mcts"]["wins"] >= 8, report["by_agent"]


def test_wilson_intervals() -> None:
    assert wilson(0, 0) == [0.0, 1.0]
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775


def test_figures_and_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, report, err = simulate(capsys, "rulers_gambit", "-n", "4", "--json",
                                 "--decks", "red_green_rush,blue_purple_tidewall")
    assert code == 0, err
    assert report["games"] == 4 and "4/4 games" in err
    seats = report["seats"]
    draws = report["draws"]["count"]
    assert seats["A"]["wins"] + seats["B"]["wins"] + draws == 4
    assert sum(a["wins"] for a in report["by_agent"].values()) == seats["A"]["wins"] + \
        seats["B"]["wins"]
    for agent, by_seat in report["by_agent_seat"].items():
        assert sum(f["wins"] for f in by_seat.values()) == report["by_agent"][agent]["wins"]
        assert [f["games"] for f in by_seat.values()] == [2, 2]
    # each deck sat in each seat in half the games: the deck travels with its agent
    assert {deck: {s: f["games"] for s, f in by.items()} for deck, by in report["decks"].items()} \
        == {"red_green_rush": {"A": 2, "B": 2}, "blue_purple_tidewall": {"A": 2, "B": 2}}
    assert set(report["matchups"]) == {"red_green_rush vs blue_purple_tidewall",
                                       "blue_purple_tidewall vs red_green_rush"}
    assert report["plies"]["min"] <= report["plies"]["mean"] <= report["plies"]["max"]
    assert sum(report["plies"]["histogram"].values()) == 4
    chosen = sum(a["chosen"] for a in report["actions"].values())
    assert chosen == round(report["plies"]["mean"] * 4)
    cards = report["cards"]
    assert all(c["played"] <= c["owned"] for c in cards.values())
    assert set(report["never_played"]) == {c for c, f in cards.items() if f["played"] == 0}
    code, text, _ = simulate(capsys, "rulers_gambit", "-n", "2")
    assert code == 0 and "win rate by seat (95% interval)" in text and "%" in text


def test_jobs_give_the_same_totals(capsys: pytest.CaptureFixture[str]) -> None:
    _, one, _ = simulate(capsys, "dynasties", "-n", "8", "--seed", "11", "--json")
    _, two, _ = simulate(capsys, "dynasties", "-n", "8", "--seed", "11", "--json", "--jobs", "2")
    _, three, _ = simulate(capsys, "dynasties", "-n", "8", "--seed", "11", "--json", "--jobs", "3")
    _, other, _ = simulate(capsys, "dynasties", "-n", "8", "--seed", "12", "--json")
    assert one == two == three
    assert one != other


@pytest.mark.soak
def test_a_real_ctrl_c_stops_the_processes_and_reports(tmp_path: Path) -> None:
    """SIGINT to `rulecraft simulate --jobs 2`: the games finished are reported, exit 130."""
    child = subprocess.Popen(
        [sys.executable, "-m", "compiler", "simulate", "dynasties", "-n", "2000", "--jobs",
         "2", "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stderr is not None
    first = child.stderr.readline()  # "200/2000 games": the processes are playing
    assert first == "200/2000 games\n"
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    report = json.loads(out)
    assert report["interrupted"] is True and 200 <= report["games"] < 2000
    assert f"interrupted: {report['games']} of 2000 games played" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("argv", "message"), [
    (["-n", "0"], "-n must be at least 1"),
    (["-n", "-3"], "-n must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--agents", "mtcs,random"], "unknown agent 'mtcs'"),
    (["--agents", "random,random,random"], "3 agents for a game of 2 players"),
    (["--players", "7"], "dynasties is for 2 players, not 7"),
    (["-n", "2", "--report", "no/such/folder/r.html"], "cannot write the report: no folder"),
    (["--address", "127.0.0.1:6379"], "--address is for --backend ray"),
])
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = simulate(capsys, "dynasties", *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_ctrl_c_reports_the_games_played(capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C in the third game: the report of the two played, exit 130."""
    class Interrupting:
        def step(self, state: Any, rng: random.Random) -> Any:
            raise KeyboardInterrupt

    made: list[str] = []

    def make() -> Any:
        made.append("one")
        # the first agent made only checks the spec; then one per game
        return Interrupting() if len(made) == 4 else agents.RandomAgent()

    agents.register("interrupting", make)
    try:
        code, report, err = simulate(capsys, "dynasties", "-n", "9", "--json",
                                     "--agents", "interrupting,random")
    finally:
        del agents._AGENTS["interrupting"]  # noqa: SLF001
    assert code == 130
    assert report["interrupted"] is True and report["games"] == 2
    assert "interrupted: 2 of 9 games played" in err


def _broken_dojo(tmp_path: Path) -> Path:
    """Dojo with a homeland that has an on_play text: a homeland is never played."""
    folder = tmp_path / "dojo"
    shutil.copytree(ROOT / "rulebooks" / "dojo", folder)
    cards = folder / "starter.cards.yaml"
    text = cards.read_text(encoding="utf-8")
    anchor = '    caste: water\n    health: 25\n'
    assert anchor in text
    cards.write_text(text.replace(anchor, anchor + "    on_play: draw_cards(you, 1)\n", 1),
                     encoding="utf-8")
    return folder / "dojo.rules"


def test_coverage_flags_a_broken_ability(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["-n", "2", "--coverage", "--json", "--decks",
            "water_electricity_tide,fire_earth_blaze"]
    code, report, _ = simulate(capsys, str(_broken_dojo(tmp_path)), *argv)
    assert code == 1
    assert "ability Tidehaven: on_play" in report["coverage"]["never_fired"]
    _, shipped, _ = simulate(capsys, "dojo", *argv)
    assert "ability Tidehaven: on_play" not in shipped["coverage"]["never_fired"]
    assert "ability Tidehaven: on_play" not in lab.declared(load("dojo"), {"Tidehaven"})
    assert shipped["coverage"]["declared"] > 20
    assert "action end_turn" not in shipped["coverage"]["never_fired"]


def _rulers_gambit_with_a_dead_keyword(tmp_path: Path) -> Path:
    """Ruler's Gambit with a keyword `mystery` that no rule reads, printed on Ember Scout."""
    folder = tmp_path / "rulers_gambit"
    shutil.copytree(ROOT / "rulebooks" / "rulers_gambit", folder)
    rules = folder / "rulers_gambit.rules"
    text = rules.read_text(encoding="utf-8")
    anchor = 'keyword seal "'
    assert anchor in text
    rules.write_text(text.replace(anchor, 'keyword mystery "Nothing reads it."\n' + anchor, 1),
                     encoding="utf-8")
    cards = folder / "starter.cards.yaml"
    text = cards.read_text(encoding="utf-8")
    anchor = "  - name: Ember Scout\n"
    start = text.index(anchor)
    end = text.index("keywords: [first_strike]", start)
    cards.write_text(text[:end] + "keywords: [first_strike, mystery]"
                     + text[end + len("keywords: [first_strike]"):], encoding="utf-8")
    return folder / "rulers_gambit.rules"


def shipped_never(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What never fired in the same games of the shipped Ruler's Gambit."""
    _, report, _ = simulate(capsys, "rulers_gambit", "-n", "4", "--coverage", "--json",
                            "--decks", "red_green_rush,blue_purple_tidewall")
    never: list[str] = report["coverage"]["never_fired"]
    return never


def test_coverage_flags_a_keyword_no_rule_finds(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["-n", "4", "--coverage", "--json", "--decks", "red_green_rush,blue_purple_tidewall"]
    code, report, _ = simulate(capsys, str(_rulers_gambit_with_a_dead_keyword(tmp_path)), *argv)
    assert code == 1
    never = report["coverage"]["never_fired"]
    assert "keyword mystery" in never
    # levitate, which attacks read (only levitate or overthrow attack a levitate unit), fires
    assert "keyword levitate" not in never and "keyword mystery" not in shipped_never(capsys)
    shipped = load("rulers_gambit")
    tables = lab.keyword_tables(api.load_game_model("rulers_gambit")[0])
    assert tables == ["C_CARD_KEYWORDS", "C_CARD_RULER_KEYWORDS"]
    assert "keyword first_strike" in lab.declared(shipped, {"Ember Scout"}, tables)
    assert "keyword mystery" not in lab.declared(shipped, {"Ember Scout"}, tables)
    # the tables are the module's own again after the games
    assert type(shipped.C_CARD_KEYWORDS[0]) is list


@pytest.mark.parametrize(("scenario", "keyword"), [
    ("Double Attack: two attacks in one Battle Phase, the second while rested", "double_attack"),
    ("Recovery Zone, Retain: D higher than A injures the attacker", "retain"),
    ("Lifelink: when the unit is destroyed, its owner takes damage equal to its C", "lifelink"),
])
def test_keywords_random_play_seldom_reaches_fire_in_their_scenarios(scenario: str,
                                                                     keyword: str) -> None:
    """100 random games of the shipped decks (blue-purple, in name order) never fire
    double_attack or retain: only Nightmare Regent and Storm Leviathan (cost 8) print them there,
    and random players never held more than 5 mana; what coverage watches does see them fire
    where the rules use them. Lifelink's trigger reads a table of answers made at load
    (`T_CARD_...`, `lifelink in c.keywords` for each definition), which coverage did not watch:
    it never fired, in any number of games."""
    module = load("rulers_gambit")
    folder = ROOT / "rulebooks" / "rulers_gambit"
    matches = [(data, line, path) for path in sorted(folder.glob("*.scenario.yaml"))
               for data, line in load_scenarios(path) if data.get("name") == scenario]
    assert len(matches) == 1
    data, line, path = matches[0]
    model = api.load_game_model("rulers_gambit")[0]
    tables = lab.keyword_tables(model)
    tests = lab.keyword_tests(generate_python(model), tables)
    assert any("KEYWORD_LIFELINK" in test for test in tests.values())
    with lab.watching(module, tables, tests) as found:
        result = run_scenario(module, data, str(path), line)
    assert not result.failures
    assert keyword in {module.E_KEYWORD_NAMES[k] for k in found}
    # the module's own tables again
    assert type(module.C_CARD_KEYWORDS[0]) is list
    assert all(type(getattr(module, name)) is tuple for name in tests)


def test_an_equip_printed_with_retain_is_an_error(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Coral Mail was printed with Retain, which acts only in the Recovery Zone, where no unit
    keeps an equip (its equips go to the GY as it enters): coverage rightly never saw it fire.
    The card set's rules now refuse it."""
    folder = tmp_path / "rulers_gambit"
    shutil.copytree(ROOT / "rulebooks" / "rulers_gambit", folder)
    cards = folder / "starter.cards.yaml"
    text = cards.read_text(encoding="utf-8")
    anchor = "  - name: Coral Mail\n"
    start = text.index(anchor)
    end = text.index("    defence: 3\n", start) + len("    defence: 3\n")
    cards.write_text(text[:end] + "    keywords: [retain]\n" + text[end:], encoding="utf-8")
    assert cli.main(["check", str(folder / "rulers_gambit.rules")]) == 1
    out = capsys.readouterr()
    said = out.out + out.err
    assert "error[E0406]: Card 'Coral Mail'" in said
    assert "an equip's Retain never acts" in said
    assert cli.main(["check", str(ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules")]) \
        == 0


def test_a_card_put_back_or_kept_in_hand_is_not_played() -> None:
    """A card named by an action counts as played only if the action leaves it where others
    can see it: a mulligan's put_back named Nightmare Regent and Storm Leviathan, which random
    players never call (cost 8), and made them "played" in 15 of 100 games."""
    module = load("rulers_gambit")
    said: list[str] = []

    class Noting(agents.RandomAgent):
        def step(self, state: Any, rng: random.Random) -> Any:
            action = super().step(state, rng)
            said.append(state.action_text(action, state.current_player()))
            return action

    setup = lab.Setup(game="rulers_gambit", seed=0)
    records = list(lab.run(module, setup, 20, chosen_agents=[Noting(), Noting()]))
    big = ("Nightmare Regent", "Storm Leviathan")
    assert any("puts back" in text and any(b in text for b in big) for text in said)
    assert not any("calls" in text and any(b in text for b in big) for text in said)
    played = {card for r in records for seat in r.played for card in seat}
    assert not played & set(big)
    assert {"Tide Caller", "Frost Wisp"} <= played  # cheap units called, played


BREAKS = ROOT / "tests" / "cases" / "rules_break_in_play.rules"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_game_the_rules_break_ends_the_run_with_its_error(
    capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    """Random players put a third token in a pile of 2 in some game: the run stops with which
    game and why (a traceback before), in one process or in a pool's."""
    code, report, err = simulate(capsys, str(BREAKS), "-n", "40", "--jobs", jobs)
    assert code == 1, (report, err)
    broke = re.fullmatch(r"breaks: game (\d+) \(seed (\d+)\): the rules broke after 2 actions: "
                         r"zone pile is full \(2\)\n  to play it alone, run the same command "
                         r"with --first-game (\d+) -n 1\n", err)
    assert broke is not None, err
    assert broke[1] == broke[2] == broke[3]
    code, _, alone = simulate(capsys, str(BREAKS), "-n", "1", "--first-game", broke[1])
    assert (code, alone) == (1, err)


def test_rules_that_break_in_setup_end_the_run_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rules = tmp_path / "breaks.rules"
    rules.write_text(BREAKS.read_text(encoding="utf-8").replace(
        "  goto turn", "  draw 3 from supply to pile\n  goto turn"), encoding="utf-8")
    code, _, err = simulate(capsys, str(rules), "-n", "5")
    assert (code, err) == (1, "breaks: setup failed: zone pile is full (2)\n")


def test_a_game_past_max_plies_is_stopped_and_reported_unfinished(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Agents may repeat a move the rules allow without end (Ruler's Gambit's Stock moves: a
    run of low-iteration MCTS never ended); a game still going after --max-plies actions is
    stopped and counted as a draw, and the report says how many were."""
    code, report, err = simulate(capsys, "dynasties", "-n", "3", "--json", "--max-plies", "4")
    assert code == 0, err
    assert report["unfinished"] == 3 and report["draws"]["count"] == 3
    assert report["plies"]["max"] == 4
    code, text, _ = simulate(capsys, "dynasties", "-n", "2", "--max-plies", "4")
    assert "unfinished: 2 game(s) stopped at --max-plies, counted as draws" in text
    code, report, _ = simulate(capsys, "dynasties", "-n", "2", "--json")
    assert report["unfinished"] == 0
    code, _, err = simulate(capsys, "dynasties", "-n", "2", "--max-plies", "0")
    assert code == 2 and "--max-plies must be at least 1" in err


def test_the_text_shows_no_rate_for_a_seat_an_agent_never_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Three agents on three seats in two games: each agent misses a seat;
    'in seat A 0.0% (0 of 0)' said nothing."""
    rules = ROOT / "tests" / "games" / "last_stand.rules"
    code, text, err = simulate(capsys, str(rules), "-n", "2",
                               "--agents", "random,greedy,random")
    assert code == 0, err
    assert "(0 of 0)" not in text
    assert "in seat B" in text


def test_with_three_players_each_agent_sits_in_each_seat_alike(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Seats reversed in odd games kept the middle agent in seat B for ever: game i moves the
    agents i seats on, so three games seat each agent once in each seat."""
    rules = ROOT / "tests" / "games" / "last_stand.rules"
    code, report, err = simulate(capsys, str(rules), "-n", "3",
                                 "--agents", "random,greedy,random", "--json")
    assert code == 0, err
    for agent, seats in report["by_agent_seat"].items():
        assert {seat: figures["games"] for seat, figures in seats.items()} == {
            "A": 1, "B": 1, "C": 1}, agent


def test_a_shared_decks_cards_are_owned_by_each_seat_that_held_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """The Whispering Court deals from one deck: its cards were all 'owned' by seat A, so B's
    and C's plays were dropped and 'not played' meant A's games without the card."""
    rules = ROOT / "tests" / "games" / "court" / "court.rules"
    records = tmp_path / "court.jsonl"
    code, report, err = simulate(capsys, str(rules), "-n", "20", "--records", str(records),
                                 "--json")
    assert code == 0, err
    games = [json.loads(line) for line in records.read_text().splitlines()[1:]]
    for game in games:
        for seat, played in enumerate(game["played"]):
            assert set(played) <= set(game["owned"][seat])
    assert all(any(game["owned"][seat] for game in games) for seat in range(3))
    plays = Counter(card for game in games for played in game["played"] for card in played)
    assert {card: figures["played"] for card, figures in report["cards"].items()} == dict(plays)


def test_the_first_player_is_the_games_starter_and_the_baseline_the_winners_share(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """Ruler's Gambit's coin chooses its starter, while A always decides first on a mulligan:
    the first player was seat A in every game. In a war of two teams half the seats win, so
    the advantage is measured against 1/2, not 1/4."""
    records = tmp_path / "rg.jsonl"
    code, report, err = simulate(capsys, "rulers_gambit", "-n", "6", "--seed", "2",
                                 "--records", str(records), "--json")
    assert code == 0, err
    module = load("rulers_gambit")
    games = [json.loads(line) for line in records.read_text().splitlines()[1:]]
    starters = [module.new_game(seed=g["seed"], decks=g["decks"]).get("starter") for g in games]
    assert [g["first"] for g in games] == [["A", "B"].index(s) for s in starters]
    assert set(starters) == {"A", "B"}  # the coin chose both in these games
    code, report, err = simulate(capsys, "dynasty_tcg", "--option", "mode=war", "-n", "2",
                                 "--seed", "100", "--json")
    assert code == 0, err
    first = report["first_player"]
    assert report["shared_wins"] and first["baseline"] == 0.5
    assert first["advantage"] == first["rate"] - 0.5
    code, text, err = simulate(capsys, "dynasty_tcg", "--option", "mode=war", "-n", "2",
                               "--seed", "100")
    assert "over a seat's 50.0%" in text and "teammates share a win" in text


def test_a_rate_over_no_games_is_none_not_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, report, err = simulate(capsys, "dynasties", "-n", "4", "--no-swap", "--json")
    assert code == 0, err
    never = report["by_agent_seat"]["random#1"]["B"]
    assert never == {"wins": 0, "games": 0, "rate": None, "ci95": None}
    assert wilson(0, 7)[0] == 0.0 and wilson(7, 7)[1] == 1.0
    unplayed = [c for c in report["cards"].values() if c["played"] == c["owned"]]
    assert unplayed and all(c["when_not_played"]["rate"] is None for c in unplayed)
    code, text, err = simulate(capsys, "dynasties", "-n", "4", "--no-swap")
    assert " / —\n" in text


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:c=abc", "mcts: c must be a number, not 'abc'"),
    ("mcts:iterations=2.5", "mcts: iterations must be a whole number, not 2.5"),
    ("mcts:iter=3", "mcts takes no option 'iter'; its options: iterations, c, rollout_depth"),
    ("greedy:depth=2", "greedy takes no option 'depth'; it takes none"),
])
def test_an_agent_option_of_the_wrong_name_or_kind_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], spec: str, message: str,
) -> None:
    """`c=abc` failed at the agent's first move with a traceback; `iter=3` said
    'MctsAgent.__init__() got an unexpected keyword argument'."""
    code, _, err = simulate(capsys, "dynasties", "-n", "1", "--agents", f"{spec},random")
    assert code == 2 and message in err and "Traceback" not in err
    assert agents.make("mcts:c=2,iterations=3,rollout_depth=4") is not None


def test_a_refused_option_with_a_count_out_of_range_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Saying the counts the options allow read the options first, and refused them with a
    traceback."""
    code, _, err = simulate(capsys, "dynasty_tcg", "--option", "mode=melee", "--players", "9")
    assert code == 2 and "option 'mode' is one of duel, war, royale, not 'melee'" in err
    assert "Traceback" not in err


def test_an_enum_option_without_a_member_names_the_members(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = simulate(capsys, "dynasty_tcg", "-n", "1", "--option", "mode")
    assert code == 2 and "option 'mode' is one of duel, war, royale, not True" in err
    with pytest.raises(ValueError, match="is one of duel, war, royale, not None"):
        load("dynasty_tcg").new_game(options={"mode": None})
    # shown by name, as given (it was the member's number: {'mode': 2})
    game = load("dynasty_tcg")
    assert game.INFO["options"] == {"mode": "duel"}
    royale = game.new_game(players=3, options={"mode": "royale"})
    assert royale.observation(0)["options"] == {"mode": "royale"}
    assert royale.get("options.mode") == "royale"
