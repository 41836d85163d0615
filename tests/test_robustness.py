"""Bad input never gives a traceback: every broken file becomes a located diagnostic.

Most cases run the CLI in-process (`compiler.cli.main`, output captured) from a temporary working
directory; two run `python -m compiler` as a subprocess to cover the real entry point. A fuzz
test checks seeded random mutations of the Dynasties rulebook: MUTANTS in the default tier,
the rest of SOAK_MUTANTS in the soak tier (`-m soak`).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from compiler import cli
from compiler.driver import check_rulebook
from dsl.codes import CODES
from dsl.nesting import MAX_NESTING
from dsl.parser import MAX_SOURCE_BYTES

ROOT = Path(__file__).resolve().parent.parent
DYNASTIES = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"
CHINA_MAP = DYNASTIES.parent / "china.map.yaml"
VALID = (Path(__file__).resolve().parent / "cases" / "valid_minimal.rules").read_text("utf-8")

HEADER = 'game g {\n  title "G"\n  players 2\n}\n\n'
DIAGNOSTIC_LINE = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning)"
    r"\[(?P<code>[EW]\d{4})\]: ",
    re.MULTILINE,
)

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """Run the CLI in-process from tmp_path; returns (exit code, stdout + stderr)."""
    monkeypatch.chdir(tmp_path)

    def go(*argv: str) -> tuple[int, str]:
        code = cli.main(list(argv))
        out = capsys.readouterr()
        return code, out.out + out.err

    return go


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return name


def errors(output: str) -> list[tuple[str, int, int, str]]:
    return [
        (m["file"], int(m["line"]), int(m["col"]), m["code"])
        for m in DIAGNOSTIC_LINE.finditer(output)
        if m["severity"] == "error"
    ]


def assert_rejected(
    code: int, output: str, expected: str, line: int | None = None, file: str | None = None
) -> list[tuple[str, int, int, str]]:
    """Exit 1, a `file:line:col: error[CODE]` line with the expected code, no traceback."""
    assert "Traceback" not in output, output
    assert code == 1, output
    found = errors(output)
    assert found, f"no 'file:line:col: error[CODE]' line in:\n{output}"
    assert "E0000" not in {c for *_, c in found}, output
    assert expected in {c for *_, c in found}, output
    if line is not None:
        assert any(c == expected and ln == line for _, ln, _, c in found), output
    if file is not None:
        assert all(f == file for f, *_ in found), output
    return found


# ---- the valid baseline --------------------------------------------------------------------------
def test_valid_rulebook_checks_clean(run: Run, tmp_path: Path) -> None:
    name = write(tmp_path, "mini.rules", VALID)
    code, output = run("check", name)
    assert code == 0, output
    assert errors(output) == []


def test_byte_order_mark_and_crlf_are_accepted(run: Run, tmp_path: Path) -> None:
    name = write(tmp_path, "mini.rules", "\ufeff" + VALID.replace("\n", "\r\n"))
    code, output = run("check", name)
    assert code == 0, output


def test_crlf_keeps_line_numbers(run: Run, tmp_path: Path) -> None:
    broken = VALID.replace("round += 1", "round += true")
    line = VALID.split("\n").index("    round += 1") + 1
    name = write(tmp_path, "crlf.rules", broken.replace("\n", "\r\n"))
    code, output = run("check", name)
    assert_rejected(code, output, "E0201", line=line, file=name)


# ---- unreadable and empty sources ----------------------------------------------------------------
@pytest.mark.parametrize("content", ["", "   \n\t  \n\n"], ids=["empty", "whitespace"])
def test_empty_source(run: Run, tmp_path: Path, content: str) -> None:
    name = write(tmp_path, "empty.rules", content)
    code, output = run("check", name)
    assert_rejected(code, output, "E0007", line=1, file=name)


def test_binary_garbage(run: Run, tmp_path: Path) -> None:
    rng = random.Random(1234)
    data = bytes(rng.randrange(256) for _ in range(4096)) + b"\x00\x00\xff"
    name = write(tmp_path, "garbage.rules", data)
    code, output = run("check", name)
    assert_rejected(code, output, "E0004", file=name)


def test_non_utf8_latin1(run: Run, tmp_path: Path) -> None:
    text = HEADER + 'state {\n  caf\xe9: int = 0\n}\n'
    name = write(tmp_path, "latin1.rules", text.encode("latin-1"))
    code, output = run("check", name)
    found = assert_rejected(code, output, "E0004", line=7, file=name)
    assert ("latin1.rules", 7, 6, "E0004") in found  # the column of the 0xe9 byte
    assert "0xe9" in output


def test_missing_path(run: Run) -> None:
    code, output = run("check", "no_such_rulebook.rules")
    assert_rejected(code, output, "E0004", file="no_such_rulebook.rules")


def test_directory_named_like_a_rulebook(run: Run, tmp_path: Path) -> None:
    (tmp_path / "books" / "odd.rules").mkdir(parents=True)
    code, output = run("check", "books")
    assert_rejected(code, output, "E0004", file="books/odd.rules")


def test_directory_passed_as_a_rulebook_path(run: Run, tmp_path: Path) -> None:
    (tmp_path / "empty.rules").mkdir()
    code, output = run("check", "empty.rules")
    assert "Traceback" not in output
    assert code == 1, output  # nothing was checked: a failure, not a success


# ---- syntax ------------------------------------------------------------------------------------
def test_unclosed_block(run: Run, tmp_path: Path) -> None:
    name = write(tmp_path, "open.rules", HEADER + "setup {\n  goto play\n")
    code, output = run("check", name)
    assert_rejected(code, output, "E0002", line=7, file=name)
    assert "6:7" in output  # the note names the '{' that is never closed


def test_unclosed_string(run: Run, tmp_path: Path) -> None:
    name = write(tmp_path, "string.rules", 'game g {\n  title "G\n  players 2\n}\n')
    code, output = run("check", name)
    assert_rejected(code, output, "E0002", line=2, file=name)


# ---- runaway nesting and size -------------------------------------------------------------------
DEPTH = 10_000


def test_deeply_nested_parentheses(run: Run, tmp_path: Path) -> None:
    expr = "(" * DEPTH + "1" + ")" * DEPTH
    name = write(tmp_path, "parens.rules", HEADER + f"state {{\n  x: int = {expr}\n}}\n")
    code, output = run("check", name)
    assert_rejected(code, output, "E0006", line=7, file=name)


def test_deeply_nested_blocks(run: Run, tmp_path: Path) -> None:
    body = "if true {\n" * DEPTH + "}\n" * DEPTH
    name = write(tmp_path, "blocks.rules", HEADER + "setup {\n" + body + "}\n")
    code, output = run("check", name)
    # the first bracket beyond the limit: the setup's '{' is depth 1, on line 6
    assert_rejected(code, output, "E0006", line=6 + MAX_NESTING, file=name)


def test_many_nots_in_a_row(run: Run, tmp_path: Path) -> None:
    expr = "not " * DEPTH + "true"
    name = write(tmp_path, "nots.rules", HEADER + f"state {{\n  x: bool = {expr}\n}}\n")
    code, output = run("check", name)
    assert_rejected(code, output, "E0006", line=7, file=name)


def test_many_minus_signs_in_a_row(run: Run, tmp_path: Path) -> None:
    expr = "- " * DEPTH + "1"
    name = write(tmp_path, "minus.rules", HEADER + f"state {{\n  x: int = {expr}\n}}\n")
    code, output = run("check", name)
    assert_rejected(code, output, "E0006", line=7, file=name)


def long_flat_chain(tmp_path: Path, name: str, expr: str) -> str:
    return write(tmp_path, name, VALID.replace("round += 1", f"round += {expr}"))


def test_code_only_by_pattern_is_code_only_by_character() -> None:
    """Texts without backslashes are blanked by one pattern (dsl.nesting.code_only): the same
    text as the character loop, for every real rulebook and random texts of quotes, comments,
    brackets and line breaks."""
    from dsl.nesting import code_only, code_only_by_character

    texts = [p.read_text(encoding="utf-8") for p in sorted(ROOT.glob("rulebooks/*/*.rules"))]
    rng = random.Random(12)
    texts += ["".join(rng.choice('"#\n ab{}()[]') for _ in range(rng.randrange(60)))
              for _ in range(3000)]
    for text in texts:
        assert code_only(text) == code_only_by_character(text), repr(text)
    assert code_only('say("a # b") # c "d"\n"e') == 'say("      )        \n" '


def test_long_flat_sum_is_rejected_without_a_crash(run: Run, tmp_path: Path) -> None:
    name = long_flat_chain(tmp_path, "sum.rules", " + ".join(["1"] * DEPTH))
    code, output = run("check", name)
    assert_rejected(code, output, "E0006", file=name)


def test_long_flat_sum_is_reported_where_it_is(run: Run, tmp_path: Path) -> None:
    name = long_flat_chain(tmp_path, "sum.rules", " + ".join(["1"] * DEPTH))
    line = VALID.split("\n").index("    round += 1") + 1
    code, output = run("check", name)
    assert_rejected(code, output, "E0006", line=line, file=name)


def test_long_conditional_chain_is_not_an_internal_error(run: Run, tmp_path: Path) -> None:
    expr = "if true then 1 else " * 1000 + "1"
    name = long_flat_chain(tmp_path, "cond.rules", expr)
    code, output = run("check", name)
    assert_rejected(code, output, "E0006", file=name)


def test_huge_integer_literal_is_not_an_internal_error(run: Run, tmp_path: Path) -> None:
    name = long_flat_chain(tmp_path, "bigint.rules", "9" * 5000)
    code, output = run("check", name)
    assert "Traceback" not in output
    assert code == 1, output
    assert errors(output), output
    assert "E0000" not in {c for *_, c in errors(output)}, output


HUGE = 50 * 1024 * 1024


def make_huge_file(path: Path) -> None:
    assert HUGE > MAX_SOURCE_BYTES
    with path.open("wb") as f:
        f.write(HEADER.encode())
        f.write(b"# padding")
        f.seek(HUGE - 1)  # sparse: the padding costs no time and no disk
        f.write(b"\n")
    assert path.stat().st_size == HUGE


def test_huge_file_is_rejected_by_size(run: Run, tmp_path: Path) -> None:
    make_huge_file(tmp_path / "huge.rules")
    code, output = run("check", "huge.rules")
    assert_rejected(code, output, "E0005", line=1, file="huge.rules")


def test_huge_file_is_never_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "huge.rules"
    make_huge_file(path)

    def refuse(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("the oversized file was read")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    monkeypatch.setattr(Path, "read_text", refuse)
    compilation = check_rulebook(path)
    assert [d.code for d in compilation.diagnostics.sorted()] == ["E0005"]


# ---- the real entry point -----------------------------------------------------------------------
def run_subprocess(tmp_path: Path, *argv: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    result = subprocess.run(
        [sys.executable, "-m", "compiler", *argv],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env, check=False,
    )
    return result.returncode, result.stdout + result.stderr


def test_subprocess_garbage_and_nesting(tmp_path: Path) -> None:
    write(tmp_path, "garbage.rules", bytes(random.Random(7).randrange(256) for _ in range(2048)))
    write(tmp_path, "deep.rules", HEADER + "setup {\n" + "if true {\n" * DEPTH + "}\n")
    write(tmp_path, "nul.rules", HEADER + "setup {\x00}\n")
    code, output = run_subprocess(tmp_path, "check", "garbage.rules", "deep.rules", "nul.rules")
    assert "Traceback" not in output, output
    assert code == 1, output
    found = {(f, c) for f, _, _, c in errors(output)}
    assert {("garbage.rules", "E0004"), ("deep.rules", "E0006"), ("nul.rules", "E0004")} <= found


def test_subprocess_output_is_whole_when_the_process_ends_at_once(tmp_path: Path) -> None:
    """`rulecraft` ends without freeing what it made (compiler.cli.run): its output, buffered
    when piped, must still all arrive, with the command's exit code."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "compiler", *argv], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120, check=False)

    rules = ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules"
    result = run("check", "--format", "json", str(rules))
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout) == []
    write(tmp_path, "broken.rules", HEADER + "setup {\n" + "  nothing_at_all()\n" * 400 + "}\n")
    result = run("check", "broken.rules")
    assert result.returncode == 1, result.stdout + result.stderr
    assert len([e for e in errors(result.stdout) if e[3] == "E0101"]) == 400, result.stdout
    assert result.stderr.rstrip().endswith("warnings"), result.stderr


def test_subprocess_explain(tmp_path: Path) -> None:
    code, output = run_subprocess(tmp_path, "explain", "NOPE")
    assert code == 2, output
    assert "Traceback" not in output
    assert "unknown code" in output


def test_explain(run: Run) -> None:
    code, output = run("explain", "NOPE")
    assert code == 2
    assert "E0201" in output  # the known codes are listed
    code, output = run("explain", "e0201")
    assert code == 0
    assert output.startswith("E0201: type mismatch")


def test_check_usage_error(run: Run) -> None:
    with pytest.raises(SystemExit) as exit_info:
        run("check", "--format", "yaml", "x.rules")
    assert exit_info.value.code == 2


# ---- fuzzing ------------------------------------------------------------------------------------
ALPHABET = (
    "abcdefghijklmnopqrstuvwxyz_ABZ0123456789 \n\t{}()[]<>=!+-*/%.,:;#@\"\\?|&$é\u2028"
)
# The mutants depend on the rulebook's text: 52 of today's Dynasties give 8 kinds of
# diagnostic (24 did before pay_cost and take_armies gained their `if`s)
MUTANTS, SOAK_MUTANTS = 52, 300


def mutate(text: str, rng: random.Random) -> str:
    """One to three deletions, insertions or swaps of characters."""
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(("delete", "insert", "swap"))
        i = rng.randrange(len(chars))
        if kind == "delete":
            del chars[i : i + rng.randint(1, 8)]
        elif kind == "insert":
            count = rng.choice((1, 1, 2, 5))
            chars[i:i] = [rng.choice(ALPHABET) for _ in range(count)]
        else:
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


def fuzz_results(seeds: range, folder: Path) -> list[tuple[int, list[str], str]]:
    """(seed, codes, first message) of every mutant; an exception fails the test."""
    shutil.copy(CHINA_MAP, folder / CHINA_MAP.name)
    original = DYNASTIES.read_text(encoding="utf-8")
    results = []
    for seed in seeds:
        path = folder / "dynasties.rules"
        path.write_text(mutate(original, random.Random(seed)), encoding="utf-8")
        try:
            compilation = check_rulebook(path)
        except BaseException as error:  # noqa: BLE001 - report the seed, whatever it was
            raise AssertionError(f"seed {seed}: check_rulebook raised {error!r}") from error
        diagnostics = compilation.diagnostics.sorted()
        results.append((
            seed,
            [d.code for d in diagnostics],
            "; ".join(f"{d.span.line}:{d.span.column} {d.code} {d.message}"
                      for d in diagnostics)[:500],
        ))
    return results


def check_fuzz(seeds: range, folder: Path) -> None:
    results = fuzz_results(seeds, folder)
    assert len(results) == len(seeds)
    unregistered = [(seed, code) for seed, codes, _ in results for code in codes
                    if code not in CODES]
    assert not unregistered
    internal = [(seed, text) for seed, codes, text in results if "E0000" in codes]
    assert not internal, "internal compiler errors:\n" + "\n".join(
        f"  seed {seed}: {text}" for seed, text in internal)
    # the mutations really break the rulebook, and in many different ways
    broken = sum(1 for _, codes, _ in results if any(c.startswith("E") for c in codes))
    assert broken > len(seeds) // 2
    assert len({code for _, codes, _ in results for code in codes}) >= 8


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_fuzz_never_raises_and_uses_registered_codes(tmp_path: Path) -> None:
    check_fuzz(range(MUTANTS), tmp_path)


@pytest.mark.soak
def test_fuzz_never_raises_and_uses_registered_codes_soak(tmp_path: Path) -> None:
    check_fuzz(range(MUTANTS, SOAK_MUTANTS), tmp_path)


@pytest.mark.parametrize("argv", [
    ["fmt", "x" * 300 + ".rules"], ["fmt", "--check", "x" * 300 + ".rules"],
    ["simulate", "DYNASTIES", "-n", "1", "--records", "x" * 300 + ".jsonl"],
], ids=["fmt", "fmt --check", "simulate --records"])
def test_a_name_too_long_for_the_system_is_a_message(run: Run, argv: list[str]) -> None:
    code, output = run(*[str(DYNASTIES) if a == "DYNASTIES" else a for a in argv])
    assert "Traceback" not in output and "File name too long" in output, output
    assert code == (2 if argv[0] == "simulate" else 1), output


def test_the_highlighter_says_what_it_cannot_read(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    from compiler import highlight

    assert highlight.main([str(tmp_path / "nosuch.md"), "-o", str(tmp_path / "out")]) == 1
    assert "No such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["rulebook", "deck", "scenario"])
def test_a_pipe_named_like_a_file_is_a_diagnostic_not_a_wait_for_ever(
    tmp_path: Path, where: str
) -> None:
    """A named pipe `x.rules` in a folder being checked was opened and read, and the command
    waited for a writer for ever (found when a test's folder search reached one)."""
    from tests.fuzzing import run_cli

    game = tmp_path / "game"
    game.mkdir()
    (game / "game.rules").write_text(VALID, encoding="utf-8")
    pipe = {"rulebook": game / "x.rules", "deck": game / "decks" / "x.deck.yaml",
            "scenario": game / "x.scenario.yaml"}[where]
    pipe.parent.mkdir(exist_ok=True)
    os.mkfifo(pipe)
    command = ["test", "."] if where == "scenario" else ["check", "."]
    if where == "deck":
        rules = (game / "game.rules").read_text(encoding="utf-8")
        (game / "game.rules").write_text(rules + '\ndecks "decks"\n', encoding="utf-8")
    code, output = run_cli(game, *command, timeout=60)
    assert code == 1 and "Traceback" not in output, output
    assert "x." in output and ("pipe" in output or "no deck rules" in output), output


def test_a_console_that_cannot_show_a_character_gets_an_escape(tmp_path: Path) -> None:
    """With an ASCII console (LC_ALL=C), an excerpt holding 'é' ended the report with a
    UnicodeEncodeError traceback, exit 1: a crash a CI could not tell from errors found."""
    rules = tmp_path / "accent.rules"
    rules.write_text('game accent {\n  title "Accent"\n  players 2\n}\n'
                     'state { x: int = "Chiné" }\n', encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "compiler", "check", str(rules)], capture_output=True,
        cwd=ROOT, check=False,
        env={**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C"})
    err = completed.stderr.decode("ascii") + completed.stdout.decode("ascii")
    assert completed.returncode == 1
    assert "Traceback" not in err and "E0201" in err and 'x: int = "Chin\\xe9"' in err
