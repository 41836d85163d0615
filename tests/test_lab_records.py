"""Records files of `rulecraft simulate`: `--records` keeps each game's record, `--resume` plays
only what a file misses, `--first-game` plays a slice of a run and `--merge` adds slices up to
the run: the records and the report equal those of the run played at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from compiler import cli
from tests.test_lab import simulate

ROOT = Path(__file__).resolve().parent.parent


def lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_slice_holds_the_same_games_as_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    code, _, err = simulate(capsys, "dynasties", "--seed", "3", "-n", "10", "--records", str(run))
    assert code == 0, err
    head, *games = lines(run)
    assert head["seed"] == 3 and len(games) == 10
    assert [g["seed"] for g in games] == list(range(3, 13))
    # --seed S+K with K even: game i of the slice is game K+i of the run
    even = tmp_path / "even.jsonl"
    simulate(capsys, "dynasties", "--seed", "7", "-n", "4", "--records", str(even))
    assert lines(even)[1:] == games[4:8]
    # with K odd the seats of the slice's games are not the run's: --first-game keeps them
    odd = tmp_path / "odd.jsonl"
    simulate(capsys, "dynasties", "--seed", "6", "-n", "4", "--records", str(odd))
    assert [g["seats"] for g in lines(odd)[1:]] != [g["seats"] for g in games[3:7]]
    first = tmp_path / "first.jsonl"
    simulate(capsys, "dynasties", "--seed", "3", "--first-game", "3", "-n", "5",
             "--records", str(first))
    assert lines(first) == [head, *games[3:8]]


def test_merged_slices_report_the_run(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Three slices, starting at odd games, merged in any order: the run's report,
    every figure (medians, histograms, intervals, coverage) included."""
    argv = ["rulers_gambit", "--seed", "5", "--json", "--coverage",
            "--decks", "red_green_rush,yellow_orange_crown"]
    _, whole, _ = simulate(capsys, *argv, "-n", "4")
    files = []
    for first, n in ((0, 1), (1, 2), (3, 1)):
        files.append(str(tmp_path / f"from-{first}.jsonl"))
        code, part, err = simulate(capsys, *argv, "--first-game", str(first), "-n", str(n),
                                   "--records", files[-1])
        assert code in (0, 1), err
        assert part["games"] == n and part.get("first_game", 0) == first
    code, merged, err = simulate(capsys, "rulers_gambit", "--json", "--merge", *files[::-1])
    assert merged == whole, err
    assert code == (1 if whole["coverage"]["never_fired"] else 0)
    # a slice alone is reported as the games it holds
    _, tail, _ = simulate(capsys, "rulers_gambit", "--json", "--merge", files[2])
    assert tail["games"] == 1 and tail["first_game"] == 3


def test_resume_plays_only_the_missing_games(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["dynasties", "--seed", "2", "-n", "9", "--json"]
    full = tmp_path / "full.jsonl"
    _, whole, _ = simulate(capsys, *argv, "--records", str(full))
    text = full.read_text(encoding="utf-8").splitlines(keepends=True)
    # four games kept, the fifth's line cut short: the process was killed while writing it
    part = tmp_path / "part.jsonl"
    part.write_text("".join(text[:5]) + text[5][:40], encoding="utf-8")
    code, resumed, err = simulate(capsys, *argv, "--records", str(part), "--resume")
    assert code == 0, err
    assert resumed == whole
    assert "5/5 games" in err  # games 4..8 played, not the four the file held
    assert part.read_text(encoding="utf-8") == full.read_text(encoding="utf-8")
    # all there: nothing is played, the run is reported
    code, again, err = simulate(capsys, *argv, "--records", str(part), "--resume")
    assert code == 0 and again == whole and "games" not in err
    # --resume on a file not written yet starts it
    fresh = tmp_path / "fresh.jsonl"
    _, started, _ = simulate(capsys, *argv, "--records", str(fresh), "--resume")
    assert started == whole and fresh.read_text(encoding="utf-8") == full.read_text("utf-8")


def _files(tmp_path: Path) -> dict[str, Path]:
    """Records of dynasties seed 1: games 0-3 (a), 4-5 (b), 2-4 (c, overlapping both)."""
    made = {}
    for key, first, n in (("a", 0, 4), ("b", 4, 2), ("c", 2, 3)):
        made[key] = tmp_path / f"{key}.jsonl"
        assert cli.main(["simulate", "dynasties", "--seed", "1", "--first-game", str(first),
                         "-n", str(n), "--json", "--records", str(made[key])]) == 0
    (tmp_path / "text.jsonl").write_text("games: 4\n", "utf-8")
    head, game = made["a"].read_text("utf-8").splitlines()[:2]
    (tmp_path / "junk.jsonl").write_text(f"{head}\n[1, 2]\n", "utf-8")
    (tmp_path / "bad-head.jsonl").write_text(head.replace('"seed":1', '"seed":"1"') + "\n",
                                             "utf-8")
    record = json.loads(game)
    record["seats"], record["returns"] = [0], [1.0]
    (tmp_path / "one-seat.jsonl").write_text(f"{head}\n{json.dumps(record)}\n", "utf-8")
    (tmp_path / "report.jsonl").write_text("{\"games\": 4}\n", "utf-8")
    return made


@pytest.mark.parametrize(("argv", "message"), [
    (["-n", "4", "--records", "a.jsonl"], "a.jsonl exists: --resume plays the games"),
    (["-n", "4", "--seed", "2", "--records", "a.jsonl", "--resume"],
     "holds the records of another run: seed: 1 there, 2 in this run"),
    (["-n", "4", "--seed", "1", "--agents", "greedy,random", "--records", "a.jsonl",
      "--resume"], "another run: agents: [[\"random\", {}], [\"random\", {}]] there, "
     "[[\"greedy\", {}], [\"random\", {}]] in this run"),
    (["-n", "4", "--seed", "1", "--no-swap", "--records", "a.jsonl", "--resume"],
     "another run: swap: true there, false in this run"),
    (["-n", "2", "--seed", "1", "--records", "a.jsonl", "--resume"],
     "holds game 2, which is not one of this run's games 0-1"),
    (["-n", "2", "--resume"], "--resume needs --records"),
    (["-n", "2", "--first-game", "-1"], "--first-game must be 0 or more"),
    (["--merge", "a.jsonl", "c.jsonl"], "game 2 (seed 3) is in both"),
    (["--merge", "a.jsonl", "missing.jsonl"], "cannot read"),
    (["--merge", "b.jsonl", "missing-too.jsonl"], "missing-too.jsonl: No such file"),
    (["--merge", "junk.jsonl"], "junk.jsonl:2: not a game's record"),
    (["--merge", "text.jsonl"], "text.jsonl:1: not a JSON line"),
    (["--merge", "bad-head.jsonl"], "bad-head.jsonl:1: a rulecraft-records/1 header with a"),
    (["--merge", "one-seat.jsonl"], "one-seat.jsonl:2: a game of 1 players in a run of 2"),
    (["--merge", "."], "cannot read"),
    (["-n", "2", "--records", "."], "cannot write"),
    (["--merge", "report.jsonl"], "report.jsonl:1: not a records file of rulecraft simulate"),
    (["--merge", "a.jsonl", "--records", "x.jsonl"], "--merge plays no game"),
])
def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                      message: str) -> None:
    _files(tmp_path)
    capsys.readouterr()
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, _, err = simulate(capsys, str(ROOT / "rulebooks" / "dynasties"), *argv)
    finally:
        os.chdir(here)
    assert code == 2, err
    assert message in err and "Traceback" not in err


def test_merge_refuses_gaps_and_other_games(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    made = _files(tmp_path)
    later = tmp_path / "later.jsonl"
    cli.main(["simulate", "dynasties", "--seed", "1", "--first-game", "8", "-n", "2",
              "--records", str(later)])
    capsys.readouterr()
    code, _, err = simulate(capsys, "dynasties", "--merge", str(made["a"]), str(later))
    assert code == 2 and "games 4-7 of the run are in none of the files" in err
    code, _, err = simulate(capsys, "rulers_gambit", "--merge", str(made["a"]))
    assert code == 2 and "the files hold games of dynasties, not of rulers_gambit" in err
    other = tmp_path / "other.jsonl"
    cli.main(["simulate", "dynasties", "--seed", "9", "--first-game", "4", "-n", "2",
              "--records", str(other)])
    capsys.readouterr()
    code, _, err = simulate(capsys, "dynasties", "--merge", str(made["a"]), str(other))
    assert code == 2 and "is not of the run of" in err and "seed: 9 there, 1 in this run" in err


@pytest.mark.soak
def test_a_run_stopped_by_ctrl_c_resumes_to_the_whole_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SIGINT to `simulate --jobs 2 --records F`, then `--resume`: the report of the run played
    at once, and F holds every game once."""
    records = tmp_path / "run.jsonl"
    argv = ["simulate", "dynasties", "--seed", "4", "-n", "2000", "--json"]
    child = subprocess.Popen(
        [sys.executable, "-m", "compiler", *argv, "--jobs", "2", "--records", str(records)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stderr is not None
    assert child.stderr.readline() == "200/2000 games\n"
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    stopped = json.loads(out)["games"]
    assert 200 <= stopped < 2000
    assert len(lines(records)) == 1 + stopped
    code, resumed, err = simulate(capsys, *argv[1:], "--records", str(records), "--resume")
    assert code == 0, err
    assert f"{2000 - stopped}/{2000 - stopped} games" in err
    _, whole, _ = simulate(capsys, *argv[1:])
    assert resumed == whole
    assert [g["seed"] for g in lines(records)[1:]] == list(range(4, 2004))


def test_a_file_of_three_players_with_reversed_seats_is_another_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """Seats of three or more players once were reversed in odd games: such a file, resumed by
    a run that moves them on, would mix two seatings."""
    rules = str(Path(__file__).resolve().parent / "games" / "last_stand.rules")
    records = tmp_path / "three.jsonl"
    argv = ["simulate", rules, "--agents", "random,greedy,random", "-n", "2", "--json",
            "--records", str(records)]
    assert cli.main(argv) == 0
    lines = records.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["seating"] == "rotate"
    del head["seating"]  # as the earlier lab wrote it
    records.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    capsys.readouterr()
    assert cli.main([*argv, "--resume", "-n", "3"]) == 2
    assert 'another run: seating: null there, "rotate" in this run' in capsys.readouterr().err
