"""The fuzz tier: seeded broken rulebooks, bytes and YAML, each checked by the command line in a
child process with a time and a memory cap (tests/fuzzing.py). Every input must end in exit 0
or in a located diagnostic; a traceback, an internal error, a crash by signal, a timeout or
running out of memory fails the test, which lists the inputs and writes each, with the files
it runs with and a command that reproduces it, under the test's temporary folder.

The default run is short (SHORT_INPUTS, a few seconds on two cores); the soak run (marker
`soak`, deselected unless `-m soak` is given; CI runs it) checks RULECRAFT_FUZZ_INPUTS inputs
(default SOAK_INPUTS) of seed RULECRAFT_FUZZ_SEED (default 1), and the harness's own test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import fuzzing
from tests.fuzz_inputs import Input, fuzz_inputs, source_of
from tests.fuzzing import run_inputs, save_failures, summary

SHORT_INPUTS = 12
SOAK_INPUTS = 3000
WORKERS = min(2, os.cpu_count() or 1)


def assert_all_pass(results: list[fuzzing.Result], out: Path) -> None:
    failing = [r for r in results if r.outcome not in fuzzing.PASSING]
    if failing:
        report = save_failures(results, out)
        pytest.fail(f"{len(failing)} of {len(results)} fuzz inputs failed ({summary(results)});"
                    f" written to {out}:\n{report}", pytrace=False)


def test_fuzz_short(tmp_path: Path) -> None:
    inputs = fuzz_inputs(seed=0, count=SHORT_INPUTS)
    assert {i.kind for i in inputs} == {"rulebook", "bytes", "yaml"}
    # one child: a second costs more to start than it saves on a dozen inputs
    results = run_inputs(inputs, 1, folder=tmp_path)
    assert [r.input.name for r in results] == [i.name for i in inputs]
    assert_all_pass(results, tmp_path / "failing")
    # the inputs are broken: most are reported, and by a diagnostic
    assert sum(r.outcome == "diagnostic" for r in results) > SHORT_INPUTS // 2


@pytest.mark.soak
def test_fuzz_short_rest(tmp_path: Path) -> None:
    """The inputs of seed 0 that the default tier's short run leaves out (it ran 60 once)."""
    results = run_inputs(fuzz_inputs(seed=0, count=60)[SHORT_INPUTS:], WORKERS, folder=tmp_path)
    assert_all_pass(results, tmp_path / "failing")


@pytest.mark.soak
def test_fuzz_soak(tmp_path: Path) -> None:
    count = int(os.environ.get("RULECRAFT_FUZZ_INPUTS", SOAK_INPUTS))
    seed = int(os.environ.get("RULECRAFT_FUZZ_SEED", 1))
    results = run_inputs(fuzz_inputs(seed, count), WORKERS, folder=tmp_path)
    assert len(results) == count
    assert_all_pass(results, tmp_path / "failing")


def test_inputs_are_seeded_and_do_not_depend_on_the_count() -> None:
    assert fuzz_inputs(3, 12) == fuzz_inputs(3, 12)
    assert fuzz_inputs(3, 12)[:5] == fuzz_inputs(3, 5)
    assert fuzz_inputs(3, 5) != fuzz_inputs(4, 5)


@pytest.mark.soak
def test_the_harness_tells_every_outcome_apart(tmp_path: Path) -> None:
    """Children that crash by a signal, hang, raise or run out of memory are each counted
    against their own input, and the inputs after them still run (`selftest` commands of
    tests.fuzzing.child stand in for a broken compiler). In the soak tier: it waits out a
    hanging child and starts several, and it tests the harness rather than Rulecraft."""
    rules = "cases/valid_minimal.rules"
    kinds = [("fine", ("check", rules)), ("segfault", ("selftest", "segfault")),
             ("after-crash", ("check", rules)), ("hang", ("selftest", "hang")),
             ("raise", ("selftest", "raise")), ("memory", ("selftest", "memory")),
             ("internal", ("selftest", "internal")), ("silent", ("selftest", "silent")),
             ("last", ("check", "cases/syntax_missing_brace.rules"))]
    inputs = [Input(name, "selftest", rules, source_of(rules).read_bytes(), argv)
              for name, argv in kinds]
    results = run_inputs(inputs, workers=1, time_cap=3, folder=tmp_path)
    assert [(r.input.name, r.outcome) for r in results] == [
        ("fine", "ok"), ("segfault", "crash"), ("after-crash", "ok"), ("hang", "timeout"),
        ("raise", "traceback"), ("memory", "memory"), ("internal", "internal"),
        ("silent", "unlocated"), ("last", "diagnostic")]
    assert "signal 11" in results[1].output
    assert "ZeroDivisionError" in results[4].output
    report = save_failures(results, tmp_path / "failing")
    assert "segfault [selftest] crash" in report
    assert (tmp_path / "failing" / "segfault-crash" / "REPRODUCE").is_file()
