"""`rulecraft test` on scenario files of the wrong shape: each is a failed scenario at its line,
never a traceback (found by the fuzz tier, tests/test_fuzz.py)."""

from __future__ import annotations

import json
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
    ("expect: {terminal: 'false'}", "'expect: terminal' must be true or false, not 'false'"),
    ("expect: {error: 3}", "'expect: error' must be a text"),
    # a misspelt key would check nothing and pass
    ("expects: {dynasty: 2}", "unknown key 'expects'; did you mean 'expect'?"),
    ("action: [A passes]", "unknown key 'action'; did you mean one of 'actions', 'options'?"),
])
def test_a_value_of_the_wrong_shape_fails_the_scenario(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    body: str, message: str,
) -> None:
    base, line = (GOOD.replace("seed: 0\n", ""), 3) if body.startswith("seed") else (GOOD, 4)
    code, output = run_test(tmp_path, base + body + "\n", monkeypatch, capsys)
    assert code == 1, output
    assert f"shape.scenario.yaml:{line} shaped: {message}" in output  # the line of its key


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


PLACE = GOOD + 'actions:\n  - "A places 1 on mongolia"\n  - "A places 1 on qinghai"\n'


def test_a_failure_is_reported_at_the_line_it_is_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    code, output = run_test(tmp_path, PLACE, monkeypatch, capsys)
    assert code == 1, output
    assert "shape.scenario.yaml:6 shaped: action 2 'A places 1 on qinghai' is illegal" in output
    text = PLACE.replace("qinghai", "tibet") + "expect:\n  dynasty: 1\n  track: 5\n  dynsaty: 1\n"
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert "shape.scenario.yaml:6 shaped: action 2" in output  # the second 1 is not there
    code, output = run_test(tmp_path, GOOD + "actions:\n  - A: places 1 on mongolia\n",
                            monkeypatch, capsys)
    assert ("shape.scenario.yaml:5 shaped: action 1 must be a text, like \"A passes\", not "
            "{'A': 'places 1 on mongolia'} (quote a text that holds ': ')") in output
    text = GOOD + "expect:\n  dynasty: 1\n  track: 5\n  ilegal: []\n"
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert "shape.scenario.yaml:6 shaped: expected track = 5, got 0" in output
    assert ("shape.scenario.yaml:7 shaped: expect ilegal: no path 'ilegal' in dynasties; did "
            "you mean one of 'illegal', 'legal'?") in output


def test_an_illegal_text_that_reads_as_no_action_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    good = GOOD + 'expect:\n  illegal: ["B places 1 on mongolia", "A plays warlord on tibet"]\n'
    code, output = run_test(tmp_path, good, monkeypatch, capsys)
    assert code == 0, output
    for text in ("A plaes 1 on mongolia", "C places 1 on mongolia", "A places 1 mongolia"):
        code, output = run_test(tmp_path, GOOD + f'expect:\n  illegal: ["{text}"]\n',
                                monkeypatch, capsys)
        assert code == 1, output
        assert (f"shape.scenario.yaml:5 shaped: expected '{text}' not to be legal, but it reads "
                "as no action of this game (a seat of A, B, then an action's text)") in output


def test_a_file_that_is_not_yaml_fails_at_the_line_of_the_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    code, output = run_test(tmp_path, GOOD + "setup:\n  dynasty: [1\n", monkeypatch, capsys)
    assert code == 1, output
    assert ("shape.scenario.yaml:6 (file): cannot read: not valid YAML at column 1: expected "
            "',' or ']', but got '<stream end>', while parsing a flow sequence that began at "
            "line 5, column 12\n") in output


def test_github_annotations_are_one_line_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    text = GOOD.replace("name: shaped", 'name: "two\\nlines, 100%"') + "expect:\n  track: 5\n"
    (tmp_path / "shape.scenario.yaml").write_text(text, encoding="utf-8")
    code = cli.main(["test", "--format", "github", str(tmp_path / "shape.scenario.yaml")])
    out = capsys.readouterr().out
    assert code == 1
    [annotation, counts] = out.splitlines()
    assert annotation.startswith("::error file=")
    assert annotation.endswith(",line=5,col=1,title=two%0Alines%2C 100%25::two%0Alines, 100%25: "
                               "expected track = 5, got 0")
    assert counts == "scenarios: 0 passed, 1 failed"


def test_json_gives_the_line_of_each_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "shape.scenario.yaml").write_text(
        GOOD + "expect:\n  track: 5\n  dynasty: 2\n", encoding="utf-8")
    code = cli.main(["test", "--format", "json", str(tmp_path / "shape.scenario.yaml")])
    [result] = json.loads(capsys.readouterr().out)
    assert code == 1
    assert result["failures"] == ["expected track = 5, got 0", "expected dynasty = 2, got 1"]
    assert result["failure_lines"] == [5, 6]
    assert result["line"] == 5


def test_a_key_written_twice_fails_at_its_second_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    text = GOOD + "expect:\n  track: 99\n  track: 0\n"
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert ("shape.scenario.yaml:6 (file): cannot read: the key 'track' is written twice, at "
            "lines 5 and 6: keep one") in output


@pytest.mark.parametrize("expected", ["false", "true"])
def test_true_and_false_are_not_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    expected: str,
) -> None:
    track = "0" if expected == "false" else "1"
    text = GOOD + f"setup:\n  track: {track}\nexpect:\n  track: {expected}\n"
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert f"expected track = {expected.title()}, got {track}" in output


def test_an_expected_refusal_of_a_text_that_is_no_action_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    # the refusal of a misspelt text lists the legal actions, so it holds most messages
    text = GOOD + 'actions: ["A plaecs 1 on mongolia"]\nexpect:\n  error: "legal: A places"\n'
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert ("shape.scenario.yaml:4 shaped: action 1 'A plaecs 1 on mongolia' reads as no "
            "action of this game, so its refusal tests nothing") in output
    text = GOOD + 'actions: ["B places 1 on mongolia"]\nexpect:\n  error: "legal: A places"\n'
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert ("action 1 'B places 1 on mongolia' was refused with 'it is A's turn, not B's: 'B "
            "places 1 on mongolia'', expected a message containing 'legal: A places'") in output
    text = GOOD + 'actions: ["B places 1 on mongolia"]\nexpect:\n  error: ""\n'
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert "'expect: error' must be a text, a part of the refusal's message" in output


@pytest.mark.parametrize(("body", "line", "words"), [
    # U+2028 and NEL end a line for YAML, not for an editor: the failure is at the line shown
    ('name: "a\u2028b\x85c"\nseed: 0\nexpect:\n  turn: 99\n', 5, "expect turn:"),
    ("expect:\n  turn: " + "9" * 5000 + "\n", 5,
     "a value that cannot be read at column 9: a whole number of 5,000 digits"),
    ("expect:\n  yes: 1\n", 5, "expect yes: no path 'yes'"),
    ("yes: 1\n", 4, "unknown key 'yes'"),
    ("decks: {1: red, ~: blue}\n", 4, "decks given for unknown players: 1, ~"),  # Ruler's Gambit
], ids=["line separators", "a huge number", "an expected path yes", "a key yes", "seat keys"])
def test_what_yaml_reads_otherwise_is_reported_as_written_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    body: str, line: int, words: str,
) -> None:
    base = GOOD.replace("name: shaped\nseed: 0\n", "") if body.startswith("name") else GOOD
    if body.startswith("decks"):
        base = base.replace("dynasties", "rulers_gambit")
    code, output = run_test(tmp_path, base + body, monkeypatch, capsys)
    assert code == 1, output
    assert f"shape.scenario.yaml:{line} " in output and words in output, output
    assert "Exceeds the limit" not in output and "True" not in output


@pytest.mark.parametrize("fmt", ["json", "github", "text"])
def test_a_path_that_cannot_be_read_is_a_failed_result_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    fmt: str,
) -> None:
    """`test --format json nosuch` printed nothing on stdout (the message went to stderr): a
    pipeline reading the results saw none."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(["test", "--format", fmt, "nosuch"]) == 1
    out = capsys.readouterr().out
    if fmt == "json":
        [result] = json.loads(out)
        assert (result["file"], result["passed"], result["failures"]) == (
            "nosuch", False, ["cannot read: no such file or folder"])
    else:
        assert "nosuch" in out and "no such file or folder" in out, out


@pytest.mark.parametrize(("path", "words"), [
    ("view.D.zones", "'D' is not a seat of 2 players (A, B)"),
    ("view.A.zones.rack.C", "A sees no 'rack.C' there; it sees: "),
    ("view.A.phase.x", "A sees 'placement', which has no 'x'"),
], ids=["no such seat", "no such zone", "into a text"])
def test_a_view_path_that_names_nothing_the_seat_sees_fails_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    path: str, words: str,
) -> None:
    code, output = run_test(tmp_path, GOOD + f"expect:\n  {path}: 1\n", monkeypatch, capsys)
    assert code == 1 and f"shape.scenario.yaml:5 shaped: expect {path}: " in output, output
    assert words in output, output


@pytest.mark.parametrize(("body", "message"), [
    ("players: 3", "setup failed: dynasties is for 2 players, not 3"),
    ("options: {nowarlords: true}", "setup failed: unknown option 'nowarlords'"),
    ("decks: [red, blue]", "setup failed: dynasties takes no decks"),
])
def test_a_refused_count_option_or_deck_fails_at_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    body: str, message: str,
) -> None:
    """They were reported at the scenario's first line, where `seed:` and `rolls:` were at
    their own."""
    code, output = run_test(tmp_path, GOOD + body + "\n", monkeypatch, capsys)
    assert code == 1, output
    assert f"shape.scenario.yaml:4 shaped: {message}" in output


def test_an_expected_refusal_is_matched_against_the_reason_not_the_legal_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """'A places 99 on mongolia' reads as a placement, and its refusal lists the legal
    actions: an `error:` naming one of them passed, testing nothing."""
    text = GOOD + 'actions: ["A places 99 on mongolia"]\nexpect:\n  error: "A places 2 on tibet"\n'
    code, output = run_test(tmp_path, text, monkeypatch, capsys)
    assert code == 1, output
    assert "expected a message containing 'A places 2 on tibet'" in output


def test_no_scenario_found_fails_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    for fmt in ("text", "json"):
        code = cli.main(["test", "--format", fmt, str(tmp_path)])
        out = capsys.readouterr()
        assert code == 1
        assert f"no scenario found in {tmp_path}: scenario files end in .scenario.yaml" in out.err
