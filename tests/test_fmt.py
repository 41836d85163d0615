"""`rulecraft fmt`: idempotent, the same AST (spans aside), every comment kept, 100 columns where
the code can be broken, --check with a diff, and a refusal of what does not parse."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.fmt import (
    _CONTINUING_STARTS,
    WIDTH,
    _break_points,
    _Layout,
    format_source,
    layout,
    tokenize,
    without_spans,
)
from dsl.diagnostics import Diagnostics
from dsl.parser import parse
from dsl.source import SourceFile
from tests.fuzz_inputs import mutate_rulebook
from tests.tiers import seeds, soak

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulebooks").glob("*/*.rules"))
CASES = sorted((ROOT / "tests" / "cases").glob("*.rules"))


def _fmt(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "compiler", "fmt", *argv], capture_output=True,
                          text=True, cwd=cwd, env=env, check=False)


def _comments(text: str) -> list[str]:
    lines = tokenize(text)
    assert lines is not None
    return [t.text for line in lines for t in line if t.kind == "comment"]


def _ast(text: str) -> object:
    module = parse(SourceFile("x.rules", text), Diagnostics())
    assert module is not None
    return without_spans(module)


def assert_formats_well(text: str) -> str:
    formatted = format_source(SourceFile("x.rules", text), Diagnostics())
    assert formatted is not None
    assert format_source(SourceFile("x.rules", formatted), Diagnostics()) == formatted, \
        "not idempotent"
    assert _ast(formatted) == _ast(text)
    assert _comments(formatted) == _comments(text)
    lines = tokenize(formatted)
    assert lines is not None
    # (unless breaking lines would move a declaration away from its `##` doc comment)
    broken = layout(text) == formatted
    for number, (line, tokens) in enumerate(zip(formatted.split("\n"), lines, strict=False), 1):
        if not tokens:
            continue
        indent = len(line) - len(line.lstrip(" "))
        code = line[:-len(tokens[-1].text)].rstrip() if tokens[-1].kind == "comment" else line
        if len(code) > WIDTH and broken:
            widths = _Layout._widths([t for t in tokens if t.kind != "comment"], None)
            assert not _break_points(tokens, indent, widths), f"line {number} could be broken"
        assert line == line.rstrip(), f"line {number} ends in white space"
    assert "\n\n\n" not in formatted
    return formatted


@pytest.mark.parametrize("rules", [SHIPPED[0], *soak(SHIPPED[1:])], ids=lambda p: p.stem)
def test_shipped_rulebook_copies_format_well(rules: Path) -> None:
    assert_formats_well(rules.read_text(encoding="utf-8"))


@pytest.mark.soak
def test_fmt_formats_a_copy_in_place_then_check_passes(tmp_path: Path) -> None:
    rules = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"
    copy = tmp_path / rules.name
    shutil.copy(rules, copy)
    done = _fmt(tmp_path, str(copy))
    assert done.returncode == 0, done.stdout + done.stderr
    assert copy.read_text() == format_source(SourceFile("x", rules.read_text()), Diagnostics())
    again = _fmt(tmp_path, "--check", str(copy))
    assert again.returncode == 0 and again.stdout == "", again.stdout


def test_shipped_rulebooks_are_formatted() -> None:
    done = _fmt(ROOT, "--check", "rulebooks")
    assert done.returncode == 0, done.stdout[:2000]


@pytest.mark.parametrize("case", [*CASES[::8], *soak(c for i, c in enumerate(CASES) if i % 8)],
                         ids=lambda p: p.stem)
def test_fixture_formats_well_or_is_refused(case: Path) -> None:
    text = case.read_text(encoding="utf-8")
    diagnostics = Diagnostics()
    if parse(SourceFile("x.rules", text), diagnostics) is None or diagnostics.has_errors:
        assert format_source(SourceFile("x.rules", text), Diagnostics()) is None
    else:
        assert_formats_well(text)


@pytest.mark.parametrize("seed", seeds(6, 120))
def test_fuzzed_rulebooks_format_well_or_are_refused(seed: int) -> None:
    """Token-mutated rulebooks of the fuzz corpus: those that still parse format well, the
    others are refused with diagnostics."""
    rng = random.Random(seed)
    original = SHIPPED[seed % len(SHIPPED)].read_text(encoding="utf-8")
    text = mutate_rulebook(original, rng)
    diagnostics = Diagnostics()
    module = parse(SourceFile("x.rules", text), diagnostics)
    if module is None or diagnostics.has_errors:
        again = Diagnostics()
        assert format_source(SourceFile("x.rules", text), again) is None
        assert again.has_errors
    else:
        assert_formats_well(text)


def _relaid(text: str, breaks: list[int]) -> str:
    """text with the white space between tokens replaced: a space or a newline, as breaks
    says, and always a newline after a comment."""
    lines = tokenize(text)
    assert lines is not None
    tokens = [t for line in lines for t in line]
    out = []
    for index, token in enumerate(tokens):
        out.append(token.text)
        choice = breaks[index % len(breaks)]
        out.append("\n" if token.kind == "comment" else ("\n" * choice or " "))
    return "".join(out)


def test_another_layout_of_a_rulebook_formats_well() -> None:
    text = (ROOT / "rulebooks" / "dynasties" / "dynasties.rules").read_text(encoding="utf-8")
    assert_formats_well(_relaid(text, [1, 0, 0, 2, 1, 0]))


@pytest.mark.soak
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.lists(st.integers(0, 2), min_size=1, max_size=40))
def test_many_layouts_of_rulebooks_format_well(rules: Path, breaks: list[int]) -> None:
    assert_formats_well(_relaid(rules.read_text(encoding="utf-8"), breaks))


def _rebroken(text: str, rng: random.Random) -> str:
    """text with the line breaks inside its expressions changed: each line that goes on with
    the expression of the line before is joined to it, or a line is broken where a token goes
    leaves the expression open: before an `and` or `or`, by chance."""
    lines = tokenize(text)
    assert lines is not None
    out: list[str] = []
    for tokens, line in zip(lines, text.split("\n"), strict=False):
        code = [t for t in tokens if t.kind != "comment"]
        before = out[-1] if out else ""
        if code and before.strip() and "#" not in before and "#" not in line \
                and rng.random() < 0.7 and (_CONTINUING_STARTS & {code[0].text}) \
                and code[0].text not in ("else", "then", "where", "when", "to", "from", "in"):
            out[-1] = before + " " + line.strip()
            continue
        if "#" not in line and '"' not in line and rng.random() < 0.3:
            line = re.sub(r"(?<=\S) (and|or) ", lambda m: "\n" + m.group(1) + " ", line, count=1)
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("seed", seeds(2, 12))
def test_line_breaks_do_not_change_the_layout(seed: int) -> None:
    """One canonical layout: a shipped rulebook with the line breaks of its expressions moved
    formats to the same bytes."""
    rules = SHIPPED[seed % len(SHIPPED)]
    expected = format_source(SourceFile("x.rules", rules.read_text(encoding="utf-8")),
                             Diagnostics())
    assert expected is not None
    changed = _rebroken(expected, random.Random(seed))
    assert changed != expected
    assert format_source(SourceFile("x.rules", changed), Diagnostics()) == expected


def test_a_long_expression_wraps_the_same_way_whatever_its_breaks() -> None:
    condition = " and ".join(f"value_{i} > {i}" for i in range(12))
    one_line = f"function f() -> bool = {condition}\n"
    broken = one_line.replace(" and ", "\n and ").replace("= ", "=\n      ")
    assert layout(broken) == layout(one_line) == (
        "function f() -> bool =\n"
        "  value_0 > 0 and value_1 > 1 and value_2 > 2 and value_3 > 3 and value_4 > 4"
        " and value_5 > 5\n"
        "  and value_6 > 6 and value_7 > 7 and value_8 > 8 and value_9 > 9 and value_10 > 10\n"
        "  and value_11 > 11\n")
    # An `if` that does not fit starts each `else` on a line of its own.
    chain = ("function g(x: int) -> int = if x == 1 then value_one_is_long else if x == 2 "
             "then value_two_is_long else value_three_is_long + 1\n")
    assert layout(chain) == (
        "function g(x: int) -> int =\n"
        "  if x == 1 then value_one_is_long\n"
        "  else if x == 2 then value_two_is_long\n"
        "  else value_three_is_long + 1\n")


def test_a_comment_keeps_the_author_s_break() -> None:
    text = "function f() -> bool =\n  a and b  # why a\n  and c\n"
    assert layout(text) == text


def test_check_prints_a_diff_and_fails(tmp_path: Path) -> None:
    rules = tmp_path / "g.rules"
    rules.write_text('game g {\ntitle "G"\n    players 2}\nzone hand:Card   per player\n')
    card = 'card Card {\n  cost: int=1\n}\n'
    rules.write_text(rules.read_text() + card)
    before = rules.read_text()
    done = _fmt(tmp_path, "--check", str(rules))
    assert done.returncode == 1
    assert "+zone hand: Card per player" in done.stdout and done.stdout.startswith("---")
    assert rules.read_text() == before
    done = _fmt(tmp_path, str(rules))
    assert done.returncode == 0
    assert rules.read_text() == ('game g {\n  title "G"\n  players 2\n}\n\n'
                                 'zone hand: Card per player\n\n'
                                 'card Card {\n  cost: int = 1\n}\n')


def test_unparsable_file_is_refused_with_its_diagnostic(tmp_path: Path) -> None:
    rules = tmp_path / "g.rules"
    text = 'game g {\n  title "G"\n  players 2 $\n}\n'
    rules.write_text(text)
    done = _fmt(tmp_path, str(rules))
    assert done.returncode == 1
    assert "error[E0003]" in done.stdout and "g.rules:3:13" in done.stdout
    assert rules.read_text() == text
    assert "0 files checked, reformatted 0, 1 left as it is (errors above)" in done.stderr


def test_a_file_that_is_not_a_rulebook_is_refused_without_its_text(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("password: hunter2\n")
    done = _fmt(tmp_path, str(notes))
    assert done.returncode == 1
    assert "error[E0004]: fmt formats rules files (.rules) only" in done.stdout
    assert "hunter2" not in done.stdout + done.stderr


def test_comments_stay_where_they_are() -> None:
    text = ('## the game\ngame g {   # trailing\n  # inside\n title "G"\n  players 2\n'
            '     # before the brace\n}\n# the end\n')
    assert layout(text) == ('## the game\ngame g {  # trailing\n  # inside\n  title "G"\n'
                            '  players 2\n  # before the brace\n}\n# the end\n')


def test_long_condition_breaks_before_and_or_else() -> None:
    condition = " and ".join(f"value_{i} > {i}" for i in range(12))
    text = f'deck Card {{\n  require {condition} else "too long"\n}}\n'
    formatted = layout(text)
    assert formatted is not None
    assert all(len(line) <= WIDTH for line in formatted.splitlines())
    assert formatted.splitlines()[2].startswith("    and ")


def test_unary_minus_and_ranges() -> None:
    assert layout("function f(x: int) -> int = - x + -1 - - 2 * x [ 1 ]\n") == (
        "function f(x: int) -> int = -x + -1 - -2 * x[1]\n")
    assert layout("game g { players 2 .. 4 }\n") == "game g { players 2..4 }\n"


LAYOUT_CASES = sorted((ROOT / "tests" / "fmt_cases").glob("*.rules"))


@pytest.mark.parametrize("case", LAYOUT_CASES, ids=lambda p: p.stem)
def test_layout_rules_before_and_after(case: Path) -> None:
    """Each rule of the layout, shown by a fixture (`X.rules`) and its formatted text
    (`X.formatted`): what fmt makes of it, idempotent and with the same AST."""
    before = case.read_text(encoding="utf-8")
    after = case.with_suffix(".formatted").read_text(encoding="utf-8")
    assert before != after
    assert assert_formats_well(before) == after


def test_statements_on_one_line_get_lines_of_their_own() -> None:
    text = ("procedure p() {\n  let a = 1 let b = 2\n"
            "  if a > b { a += 1 b += 1 } else { b += 1 }\n}\n")
    assert assert_formats_well(text) == (
        "procedure p() {\n  let a = 1\n  let b = 2\n  if a > b {\n    a += 1\n    b += 1\n"
        "  } else { b += 1 }\n}\n")
