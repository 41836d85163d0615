"""YAML files are measured before they are composed (dsl.yaml_limits): nesting deeper than
MAX_YAML_NESTING is E0006, aliases that repeat too much are E0005 and a character YAML does not
allow is E0003, at the place in the file, for every reader (card sets, decks, maps, scenarios).

A file nested 30,000 levels deep used to kill `rulecraft check` with a segmentation fault
(libyaml's composer recursing in C): the CLI cases of deep nesting run in a child process,
so that a crash fails the test instead of ending pytest; those of aliases, which never
crashed, run in process.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from compiler import cli
from compiler.driver import check_rulebook
from dsl.yaml_limits import MAX_ALIASED_VALUES, MAX_YAML_NESTING, crossed_limit
from tests.fuzzing import run_cli
from tests.tiers import soak

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"
LOADERS = [yaml.SafeLoader, *([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])]
DEEP = 30_000
LOCATED = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"error\[(?P<code>E\d{4})\]: (?P<message>.*)$", re.MULTILINE)


def nested(depth: int, opener: str = "[") -> str:
    """A value nested depth levels deep, closed."""
    closer = {"[": "]", "{a: ": "}"}[opener]
    return opener * depth + "x" + closer * depth


def block_nested(depth: int) -> str:
    """Block sequences depth levels deep, one indentation step each."""
    items = [f"{'  ' * level}-\n" for level in range(depth - 1)]
    return "".join(items) + "  " * (depth - 1) + "- x\n"


# ---- the scan --------------------------------------------------------------------------------
@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize("text", [
    nested(MAX_YAML_NESTING), nested(MAX_YAML_NESTING, "{a: "), block_nested(MAX_YAML_NESTING),
    "- " * MAX_YAML_NESTING + "x\n",
], ids=["flow sequence", "flow mapping", "block sequence", "compact sequence"])
def test_the_limit_itself_is_allowed(loader: type, text: str) -> None:
    assert crossed_limit(text, loader) is None


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize(("text", "line", "column"), [
    # the mapping holding `a` is the first level: the 100th bracket opens the 101st
    ("a: " + nested(MAX_YAML_NESTING), 1, 3 + MAX_YAML_NESTING),
    ("a: 1\nb: " + nested(MAX_YAML_NESTING, "{a: "), 2, 4 + 4 * (MAX_YAML_NESTING - 1)),
    (block_nested(MAX_YAML_NESTING + 1), MAX_YAML_NESTING + 1, 2 * MAX_YAML_NESTING + 1),
    ("- " * (MAX_YAML_NESTING + 1) + "x\n", 1, 2 * MAX_YAML_NESTING + 1),
    ("[" * DEEP, 1, MAX_YAML_NESTING + 1),
], ids=["flow sequence", "flow mapping", "block sequence", "compact sequence", "unclosed"])
def test_one_level_more_is_reported_where_it_opens(
    loader: type, text: str, line: int, column: int
) -> None:
    crossed = crossed_limit(text, loader)
    assert crossed is not None
    assert crossed.code == "E0006"
    assert f"more than {MAX_YAML_NESTING} levels" in crossed.message
    span = crossed.span("f.yaml", text)
    assert (span.line, span.column) == (line, column)


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize("text", [
    'a: "' + "[" * 500 + '"\n',
    "a: '" + "{" * 500 + "'\n",
    "a: x " + "[" * 500 + "\n",  # a plain scalar: brackets after its first character
    "# " + "[" * 500 + "\nb: 1\n",
    "a: |\n  " + "[" * 500 + "\n  " + "- " * 500 + "\nb: 1\n",
    "a: >\n  " + "{a: " * 500 + "\n",
], ids=["double-quoted", "single-quoted", "plain", "comment", "literal block", "folded block"])
def test_brackets_that_are_text_are_not_counted(loader: type, text: str) -> None:
    assert crossed_limit(text, loader) is None


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_every_shipped_and_fixture_yaml_file_is_within_the_limits() -> None:
    files = sorted([*(ROOT / "rulebooks").rglob("*.yaml"), *CASES.rglob("*.yaml")])
    assert len(files) > 40
    for path in files:
        text = path.read_text(encoding="utf-8")
        for loader in LOADERS:
            assert crossed_limit(text, loader) is None, path


def test_positions_are_ours_after_a_byte_order_mark_and_other_line_breaks() -> None:
    text = "\ufeffa: 1\r\nb: \u2028\nc: " + "[" * (MAX_YAML_NESTING + 1)
    for loader in LOADERS:
        crossed = crossed_limit(text, loader)
        assert crossed is not None
        span = crossed.span("f.yaml", text)
        assert (span.line, span.column) == (3, 3 + MAX_YAML_NESTING), loader


def billion_laughs(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_aliases_that_repeat_too_much_are_refused_at_the_alias(loader: type) -> None:
    text = billion_laughs()
    crossed = crossed_limit(text, loader)
    assert crossed is not None
    assert crossed.code == "E0005"
    assert f"{MAX_ALIASED_VALUES:,}" in crossed.message
    # an alias of a0 repeats 10 values, of a1 91, a2 820, a3 7,381, a4 66,430: the aliases
    # of lines 2 to 5 repeat 74,718 values, and the first alias on line 6 crosses 100,000
    span = crossed.span("f.yaml", text)
    assert (span.line, span.column) == (6, 10)
    assert crossed_limit(text, loader, aliases=False) is None  # a reader that refuses aliases


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_an_alias_inside_its_own_value_is_refused(loader: type) -> None:
    crossed = crossed_limit("a: &x [1, [2, *x]]\n", loader)
    assert crossed is not None
    assert (crossed.code, crossed.index) == ("E0005", 14)
    assert "*x" in crossed.message


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_nesting_counts_what_an_alias_repeats(loader: type) -> None:
    half = MAX_YAML_NESTING // 2 + 1
    text = f"a: &deep {nested(half)}\nb: {'[' * half}*deep{']' * half}\n"
    crossed = crossed_limit(text, loader)
    assert crossed is not None
    assert crossed.code == "E0006"
    assert "*deep" in crossed.message
    assert crossed_limit(f"a: &deep {nested(half)}\nb: [*deep, *deep]\n", loader) is None


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_a_few_aliases_are_fine_and_anchors_end_with_their_document(loader: type) -> None:
    assert crossed_limit("a: &x [1, 2]\nb: *x\nc: [*x, *x]\n", loader) is None
    # the second document's *x names nothing: left to the composer, which reports it
    assert crossed_limit("a: &x [*y]\n---\nb: *x\n", loader) is None


def test_invalid_yaml_is_left_to_the_reader() -> None:
    for loader in LOADERS:
        assert crossed_limit("a: [1, 2\nb: {", loader) is None


# ---- each reader, through the command line, in a child process ------------------------------
def copy_case(tmp_path: Path, rulebook: str, *data: str) -> Path:
    """A fixture rulebook of tests/cases and the data files it reads, in tmp_path."""
    for relative in (rulebook, *data):
        source = CASES / relative
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy(source, target)
    return tmp_path / rulebook


DEEP_TEXTS = {
    "flow sequence": "[" * DEEP,
    "flow mapping": "{a: " * DEEP,
    "block sequence": "- " * DEEP + "x\n",
}


def assert_reported_in(code: int, output: str, file: str, expected: str = "E0006") -> None:
    assert code == 1, f"exit {code} (a negative exit is a signal):\n{output[-2000:]}"
    assert "Traceback" not in output, output[-2000:]
    found = [m for m in LOCATED.finditer(output) if m["file"] == file]
    assert found, f"no 'file:line:col: error[CODE]' line for {file}:\n{output[-2000:]}"
    assert expected in {m["code"] for m in found}, output[-2000:]


# One shape per reader in the default tier (a child process each), every shape in the soak tier;
# the scan itself is checked on every shape in process above.
@pytest.mark.parametrize("shape", ["block sequence", *soak(["flow mapping", "flow sequence"])])
def test_a_deep_card_set_is_a_diagnostic_not_a_crash(tmp_path: Path, shape: str) -> None:
    copy_case(tmp_path, "cards_valid.rules", "cards/valid.cards.yaml", "decks/cards_valid")
    (tmp_path / "cards" / "valid.cards.yaml").write_text(DEEP_TEXTS[shape], encoding="utf-8")
    code, output = run_cli(tmp_path, "check", "cards_valid.rules")
    assert_reported_in(code, output, "cards/valid.cards.yaml")


@pytest.mark.parametrize("shape", ["flow mapping", *soak(["block sequence", "flow sequence"])])
def test_a_deep_deck_is_a_diagnostic_not_a_crash(tmp_path: Path, shape: str) -> None:
    copy_case(tmp_path, "cards_valid.rules", "cards/valid.cards.yaml", "decks/cards_valid")
    deck = tmp_path / "decks" / "cards_valid" / "red.deck.yaml"
    deck.write_text("name: Red\ncards: " + DEEP_TEXTS[shape].replace("- ", "\n- ", 1),
                    encoding="utf-8")
    code, output = run_cli(tmp_path, "check", "cards_valid.rules")
    assert_reported_in(code, output, "decks/cards_valid/red.deck.yaml")


@pytest.mark.parametrize(("rulebook", "map_file"), [
    ("data_map_valid.rules", "maps/ring.map.yaml"),
    *soak([("board_hex_valid.rules", "maps/hex_small.map.yaml")]),
])
def test_a_deep_map_is_reported_in_the_map(tmp_path: Path, rulebook: str, map_file: str) -> None:
    copy_case(tmp_path, rulebook, map_file)
    (tmp_path / map_file).write_text("nodes:\n  a: " + "[" * DEEP, encoding="utf-8")
    code, output = run_cli(tmp_path, "check", rulebook)
    assert_reported_in(code, output, map_file)
    # the file's mapping and `nodes` are two levels: the 99th bracket opens the 101st
    assert f"{map_file}:2:{5 + MAX_YAML_NESTING - 1}: error[E0006]" in output
    assert f"the board at {rulebook}:7:" in output  # a note says which rulebook reads it


def test_a_deep_scenario_fails_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "deep.scenario.yaml").write_text("game: dynasties\nsetup:\n  x: " + "{a: " * DEEP,
                                                encoding="utf-8")
    code, output = run_cli(tmp_path, "test", "deep.scenario.yaml")
    assert code == 1, output
    assert "Traceback" not in output
    assert re.search(r"^FAIL deep\.scenario\.yaml:3 \(file\): cannot read: the YAML is nested "
                     rf"more than {MAX_YAML_NESTING} levels deep \(column {6 + 4 * 98}",
                     output, re.MULTILINE), output


# ---- aliases, in process (they never crashed; they could run for ever) -----------------------
def test_a_billion_laughs_map_is_refused(tmp_path: Path) -> None:
    rules = copy_case(tmp_path, "data_map_valid.rules", "maps/ring.map.yaml")
    (tmp_path / "maps" / "ring.map.yaml").write_text(billion_laughs() + "nodes: {a: [a]}\n",
                                                     encoding="utf-8")
    found = [(Path(d.span.file).name, d.span.line, d.code)
             for d in check_rulebook(rules).diagnostics.sorted()]
    assert found == [("ring.map.yaml", 6, "E0005")]


def test_a_billion_laughs_scenario_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bomb.scenario.yaml").write_text("game: dynasties\n" + billion_laughs(),
                                                 encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["test", "bomb.scenario.yaml"])
    output = "".join(capsys.readouterr())
    assert code == 1, output
    assert "FAIL bomb.scenario.yaml:7 (file): cannot read: aliases repeat more than" in output


# ---- characters YAML does not allow (the reader refuses them before any event) ---------------
@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize(("text", "line", "column", "named"), [
    ("a: 1\nb: x\x7fy\n", 2, 5, "control character U+007F"),
    ("a: \x00\n", 1, 4, "control character U+0000"),
    ("a: 'quoted \x1b'\n", 1, 12, "control character U+001B"),
    # a byte order mark and two-byte letters before it: libyaml's index counts bytes
    ("\ufeffa: \u00e9\u00e9\nb: \x85\x07\n", 2, 5, "control character U+0007"),
    ("a: \ufffe\n", 1, 4, "character U+FFFE"),
], ids=["delete", "nul", "escape", "after bom and accents", "non-character"])
def test_a_character_yaml_refuses_is_reported_where_it_is(
    loader: type, text: str, line: int, column: int, named: str
) -> None:
    crossed = crossed_limit(text, loader)
    assert crossed is not None
    assert crossed.code == "E0003"
    assert crossed.message == f"the {named} is not allowed in YAML"
    span = crossed.span("f.yaml", text)
    assert (span.line, span.column) == (line, column)


def test_the_hint_writes_the_character_as_an_escape_yaml_reads_back() -> None:
    for character in ("\x7f", "\x00", "\ufffe"):
        crossed = crossed_limit(f"a: {character}\n", yaml.SafeLoader)
        assert crossed is not None
        escape = re.search(r'"(.*)"', crossed.hint)
        assert escape is not None, crossed.hint
        assert yaml.safe_load(f'a: "{escape[1]}"') == {"a": character}


def located(rules: Path) -> list[tuple[str, int, int, str]]:
    return [(d.span.file, d.span.line, d.span.column, d.code)
            for d in check_rulebook(rules).diagnostics.sorted()]


def test_a_refused_character_in_a_map_is_shown_in_the_map(tmp_path: Path) -> None:
    rules = copy_case(tmp_path, "data_map_valid.rules", "maps/ring.map.yaml")
    (tmp_path / "maps" / "ring.map.yaml").write_text("nodes:\n  north: [ea\x7fst]\n",
                                                     encoding="utf-8")
    result = check_rulebook(rules)
    [refused] = result.diagnostics.sorted()
    assert (Path(refused.span.file).name, refused.span.line, refused.span.column,
            refused.code) == ("ring.map.yaml", 2, 13, "E0003")
    assert refused.notes == (f"the board at {rules}:7:15 reads this map",)


@pytest.mark.parametrize("content", [
    "cards:\n  - name: Sp\x7fark\n", b"\x00", b"\xff\xfe", "[" * (MAX_YAML_NESTING + 1),
], ids=["refused character", "binary", "not utf-8", "too deep"])
def test_a_card_set_that_is_not_read_is_one_warning_a_deck(
    tmp_path: Path, content: str | bytes
) -> None:
    rules = copy_case(tmp_path, "cards_valid.rules", "cards/valid.cards.yaml", "decks/cards_valid")
    card_set = tmp_path / "cards" / "valid.cards.yaml"
    if isinstance(content, bytes):
        card_set.write_bytes(content)
    else:
        card_set.write_text(content, encoding="utf-8")
    found = located(rules)
    codes = [code for file, *_, code in found if file.endswith("valid.cards.yaml")]
    assert len(codes) == 1 and codes[0] in {"E0003", "E0004", "E0006"}, found
    # the decks name cards the set would have given: one warning each, no unknown card
    assert [(Path(file).name, code) for file, *_, code in found
            if not file.endswith("valid.cards.yaml")] == [("blue.deck.yaml", "W0401"),
                                                           ("red.deck.yaml", "W0401")]


def test_a_refused_character_in_a_card_set_or_deck_is_shown_where_it_is(tmp_path: Path) -> None:
    rules = copy_case(tmp_path, "cards_valid.rules", "cards/valid.cards.yaml", "decks/cards_valid")
    card_set = tmp_path / "cards" / "valid.cards.yaml"
    card_set.write_text(card_set.read_text(encoding="utf-8").replace("Spark", "Sp\x7fark", 1),
                        encoding="utf-8")
    assert ("cards/valid.cards.yaml", 5, 13, "E0003") in [
        (Path(file).relative_to(tmp_path).as_posix(), *rest) for file, *rest in located(rules)]
    copy_case(tmp_path, "cards/valid.cards.yaml")
    deck = tmp_path / "decks" / "cards_valid" / "red.deck.yaml"
    deck.write_text("name: Red Rush\ncards:\n  Spark: 2\x07\n", encoding="utf-8")
    assert [(Path(file).name, line, column, code) for file, line, column, code in located(rules)
            ] == [("red.deck.yaml", 3, 11, "E0003")]


def test_a_refused_character_in_a_scenario_fails_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "odd.scenario.yaml").write_text("game: dynasties\nname: a\x00b\n",
                                                encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["test", "odd.scenario.yaml"])
    output = "".join(capsys.readouterr())
    assert code == 1, output
    assert ("FAIL odd.scenario.yaml:2 (file): cannot read: the control character U+0000 is not "
            "allowed in YAML (column 8;") in output, output


# ---- map files: what YAML would read silently otherwise --------------------------------------
@pytest.mark.parametrize(("text", "where", "message"), [
    ("nodes:\n  north: [east]\n  north: []\n  east: []\n", (3, 3),
     "'north' is given twice (first at line 2): keep one"),
    ("nodes:\n  east: []\n  ~: [east]\n", (3, 3), "map node name '~' is not a valid name"),
    ("nodes:\n  yes: []\n", (2, 3), "map node name 'yes' is not a valid name"),
], ids=["a node twice", "none", "true"])
def test_a_map_key_yaml_would_misread_is_reported_at_the_key(
    tmp_path: Path, text: str, where: tuple[int, int], message: str
) -> None:
    rules = copy_case(tmp_path, "data_map_valid.rules", "maps/ring.map.yaml")
    (tmp_path / "maps" / "ring.map.yaml").write_text(text, encoding="utf-8")
    [found] = check_rulebook(rules).diagnostics.sorted()
    assert (Path(found.span.file).name, found.span.line, found.span.column, found.code,
            found.message) == ("ring.map.yaml", *where, "E0401", message)
