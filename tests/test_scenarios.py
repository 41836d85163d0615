"""`rulecraft test` on scenario files of the wrong shape: each is a failed scenario at its line,
never a traceback (found by the fuzz tier, tests/test_fuzz.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import cli

ROOT = Path(__file__).resolve().parent.parent
# The scenario lives outside the project, so it names its game by path.
GOOD = f"game: '{ROOT / 'rulebooks' / 'dynasties' / 'dynasties.rules'}'\nname: shaped\nseed: 0\n"


def run_test(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "shape.scenario.yaml"
    path.write_text(text, encoding="utf-8")
    code = cli.main(["test", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize(("body", "message"), [
    ("setup: [1, 2]", "'setup' must be a mapping of state paths to values"),
    ("setup: 3.5", "'setup' must be a mapping of state paths to values"),
    ("expect: [a]", "'expect' must be a mapping of state paths to values"),
    ("expect: yes", "'expect' must be a mapping of state paths to values"),
    ("actions: 5", "'actions' must be a list of action texts"),
    ("seed: .inf", "'seed' must be a whole number"),
    ("seed: true", "'seed' must be a whole number"),
    ("players: two", "'players' must be a whole number"),
    ("options: [warlords]", "'options' must be a mapping of option names to values"),
    ("decks: 3", "'decks' must be a mapping or a list of decks"),
    ("rolls: {a: 1}", "'rolls' must be a list of dice results"),
    ("rolls: [1, six]", "'rolls' must be a list of whole numbers"),
    ("expect: {legal: A passes}", "'expect: legal' must be a list of action texts"),
    ("expect: {illegal: [[A passes]]}", "'expect: illegal' must be a list of action texts"),
    ("expect: {returns: [1, a]}", "'expect: returns' must be a list of numbers"),
])
def test_a_value_of_the_wrong_shape_fails_the_scenario(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    body: str, message: str,
) -> None:
    code, output = run_test(tmp_path, GOOD + body + "\n", monkeypatch, capsys)
    assert code == 1, output
    assert f"shape.scenario.yaml:1 shaped: {message}" in output


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\ufeff"])
def test_a_file_without_a_scenario_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    text: str,
) -> None:
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert "shape.scenario.yaml:1 (file): the file holds no scenario" in output


def test_a_scenario_of_the_right_shape_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    code, output = run_test(tmp_path, GOOD + "expect: {returns: [0, 0], legal: []}\n",
                            monkeypatch, capsys)
    assert code == 0, output
    assert "PASS" in output
