"""The language server's answers across files (compiler.lsp.analysis), in process: a card named
in a scenario or a deck jumps to its card set, its references and a rename reach the card set,
the decks and the scenarios; hover on a seed annotation gives the seed rule's text; editor texts
replace the files on disk."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.lsp.analysis import Analysis
from dsl.source import resolved

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dojo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Analysis]:
    folder = tmp_path_factory.mktemp("analysis") / "dojo"
    shutil.copytree(ROOT / "rulebooks" / "dojo", folder)
    rules = folder / "dojo.rules"
    return folder, Analysis.of(rules, {})


def _at(path: Path, needle: str, nth: int = 0) -> tuple[int, int]:
    lines = path.read_text(encoding="utf-8").split("\n")
    seen = 0
    for number, line in enumerate(lines, 1):
        if needle in line:
            if seen == nth:
                return number, line.index(needle) + 2
            seen += 1
    raise AssertionError(needle)


def test_card_in_a_scenario_jumps_to_its_card_set(dojo: tuple[Path, Analysis]) -> None:
    folder, analysis = dojo
    scenario = folder / "facedown.scenario.yaml"
    line, column = _at(scenario, "Pebble Golem")
    found = analysis.definition(scenario, line, column)
    assert found is not None and resolved(found.path) == resolved(folder / "starter.cards.yaml")
    cards = (folder / "starter.cards.yaml").read_text(encoding="utf-8").split("\n")
    assert "Pebble Golem" in cards[found.span.line - 1]


def test_card_references_and_rename_reach_every_file(dojo: tuple[Path, Analysis]) -> None:
    folder, analysis = dojo
    cards = folder / "starter.cards.yaml"
    line, column = _at(cards, "Pebble Golem")
    files = {resolved(r.path).name for r in analysis.references(cards, line, column)}
    assert "starter.cards.yaml" in files and "facedown.scenario.yaml" in files
    assert any(name.endswith(".deck.yaml") for name in files)
    edits = analysis.rename(cards, line, column, "Gravel Golem")
    assert edits is not None
    names = {path.name for path in edits}
    assert {"starter.cards.yaml", "facedown.scenario.yaml"} <= names
    for path, spans in edits.items():
        lines = path.read_text(encoding="utf-8").split("\n")
        for span, text in spans:
            assert lines[span.line - 1][span.column - 1:span.end_column - 1] == "Pebble Golem"
            assert text == "Gravel Golem"


def test_rename_keeps_a_name_a_name(dojo: tuple[Path, Analysis]) -> None:
    folder, analysis = dojo
    rules = folder / "dojo.rules"
    line, column = _at(rules, "function ")
    column += len("function ")
    assert analysis.rename(rules, line, column, "not a name") is None
    edits = analysis.rename(rules, line, column, "a_name")
    assert edits is not None and resolved(rules) in edits


def test_hover_on_a_seed_annotation(dojo: tuple[Path, Analysis]) -> None:
    folder, analysis = dojo
    rules = folder / "dojo.rules"
    lines = rules.read_text(encoding="utf-8").split("\n")
    line = next(i for i, x in enumerate(lines, 1) if x.startswith("@S"))
    column = 3
    text = analysis.hover(rules, line, column)
    assert text is not None and "(seed rule)" in text


def test_editor_text_replaces_the_file(dojo: tuple[Path, Analysis]) -> None:
    folder, _ = dojo
    rules = folder / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    broken = text + "zone zone zone\n"
    analysis = Analysis.of(rules, {resolved(rules): broken})
    diagnostics = analysis.diagnostics()[resolved(rules)]
    assert diagnostics and diagnostics[0].code.startswith("E")


def test_fields_after_a_dot_are_those_of_the_expression_s_type(
        dojo: tuple[Path, Analysis]) -> None:
    folder, analysis = dojo
    rules = folder / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    line, column = _at(rules, "turn_player.ended")
    after = column - 1 + len("turn_player.")
    player = {label for label, _, _ in analysis.completions(rules, line, after, text)}
    assert "actions" in player and "kind" not in player  # a player's fields, no card's
    line, column = _at(rules, "c.bonus_attack")
    card = {label for label, _, _ in analysis.completions(rules, line, column + 1, text)}
    assert {"kind", "bonus_attack"} <= card and "actions" not in card
