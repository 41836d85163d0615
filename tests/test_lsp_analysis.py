"""The language server's answers across files (compiler.lsp.analysis), in process: a card named
in a scenario or a deck jumps to its card set, its references and a rename reach the card set,
the decks and the scenarios; hover on a seed annotation gives the seed rule's text; editor texts
replace the files on disk."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler.lsp.analysis import Analysis, Refused, did_you_mean, misspelt_at
from dsl.source import resolved
from tests.tiers import soak

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
    with pytest.raises(Refused, match="'not a name' is not a name"):
        analysis.rename(rules, line, column, "not a name")
    edits = analysis.rename(rules, line, column, "a_name")
    assert edits is not None and resolved(rules) in edits


def test_rename_refuses_what_would_break_the_rulebook(dojo: tuple[Path, Analysis]) -> None:
    """A keyword, a name given twice in one enum, a name the place reads as another thing,
    a card name already taken: refused, saying why; a free name is renamed."""
    folder, analysis = dojo
    rules = folder / "dojo.rules"
    member = _at(rules, "facedown_item")
    for new_name, why in (("move", "'move' is a keyword"),
                          ("item", "'item' appears twice in enum Kind (dojo.rules:"),
                          ("hand", "would break the rulebook: "),
                          ("2nd_item", "'2nd_item' is not a name")):
        with pytest.raises(Refused, match=re.escape(why)):
            analysis.rename(rules, *member, new_name)
    assert analysis.rename(rules, *member, "spare_item")
    cards = folder / "starter.cards.yaml"
    with pytest.raises(Refused, match="would break the rulebook"):
        analysis.rename(cards, *_at(cards, "Pebble Golem"), "Ripple Sprite")
    with pytest.raises(Refused, match="empty name"):
        analysis.rename(cards, *_at(cards, "Pebble Golem"), " ")


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


def test_fields_after_a_dot_on_a_line_being_typed(dojo: tuple[Path, Analysis]) -> None:
    """A line typed since the last check: the type of the name before the dot is read from
    what declares it above (the actor, a parameter `c: Card`, a loop over a zone)."""
    folder, analysis = dojo
    rules = folder / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    anchor = "    move a to discard[a.owner]\n"
    for typed, wanted, unwanted in (("    require actor.", "actions", "kind"),
                                    ("    for x in hand[actor] { x.", "kind", "actions")):
        half = text.replace(anchor, anchor + typed + "\n", 1)
        found = {label for label, _, _ in _completions(analysis, rules, half, anchor + typed)}
        assert wanted in found and unwanted not in found, typed


def _completions(analysis: Analysis, path: Path, text: str,
                 needle: str) -> list[tuple[str, str, str]]:
    """The completions just after the (first) needle of text."""
    index = text.index(needle) + len(needle)
    line = text.count("\n", 0, index) + 1
    return analysis.completions(path, line, index - text.rfind("\n", 0, index), text)


def test_completion_offers_first_what_the_expected_type_takes(
        dojo: tuple[Path, Analysis]) -> None:
    folder, analysis = dojo
    assert analysis.model is not None
    rules = folder / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    kinds = analysis.model.enums["Kind"].members
    targets = analysis.model.enums["Target"].members
    # `move c to |`: nothing but zones can follow, and only those of the card's type
    moved = _completions(analysis, rules, text, "move c to ")
    assert {label for label, _, _ in moved} == set(analysis.model.zones)
    assert all(kind == "zone" and detail.startswith("zone of Card") for _, kind, detail in moved)
    # the right of `==` and `!=`: the members of the left's enum first, keywords still later
    for needle in ("require kind == ", "kind != ", "c.targets == "):
        found = [label for label, _, _ in _completions(analysis, rules, text, needle)]
        wanted = targets if "targets" in needle else kinds
        assert found[:len(wanted)] == wanted, needle
        assert {"none", "true", "size"} <= set(found[len(wanted):])  # the rest still offered
    # a field's default: the values of its type
    found = [label for label, _, _ in _completions(analysis, rules, text, "targets: Target = ")]
    assert found[:len(targets)] == targets
    # an action parameter's domain: zones of its card type, then functions giving a list of
    # them, with their signatures
    domain = _completions(analysis, rules, text, "action play_creature(c: Card in ")
    zones = len(analysis.model.zones)
    assert {label for label, _, _ in domain[:zones]} == set(analysis.model.zones)
    details = dict((label, detail) for label, _, detail in domain)
    assert details["item_targets"] == "item_targets(c: Card, p: player) -> list of Card"
    assert [kind for _, kind, _ in domain[zones:zones + 3]] == ["function"] * 3
    # a builtin's and a function's player argument: the player-valued game fields and
    # builtins first, not the cards' fields or the enum members
    for needle in ("opponent(", "sum(health_left(h) for h in homelands["):
        found = [label for label, _, _ in _completions(analysis, rules, text, needle)]
        first = found[:found.index("actor")]  # the typed ones, before the keywords
        assert {"turn_player", "opponent", "A", "B"} <= set(first), needle
        assert not set(first) & set(kinds)


def test_completion_in_a_half_typed_line_that_does_not_parse(
        dojo: tuple[Path, Analysis]) -> None:
    """The text being typed does not parse; the last check that did types what it names:
    the expression ending there, else the nearest use of the name, else a `let` above."""
    folder, analysis = dojo
    assert analysis.model is not None
    rules = folder / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    anchor = "    move a to discard[a.owner]\n"
    kinds = analysis.model.enums["Kind"].members
    for typed in ("    if a.kind == ", "    let k = a.kind\n    if k != ",
                  "    if a.kind == cr"):
        half = text.replace(anchor, anchor + typed + "\n", 1)
        assert Analysis.of(rules, {rules: half}).model is None  # it does not parse
        found = [label for label, _, _ in _completions(analysis, rules, half, anchor + typed)]
        assert found[:len(kinds)] == kinds, typed
    half = text.replace(anchor, anchor + "    move a to \n", 1)
    found = {label for label, _, _ in _completions(analysis, rules, half,
                                                    anchor + "    move a to ")}
    assert found == set(analysis.model.zones)


def test_completion_of_card_set_values() -> None:
    rules = ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules"
    cards = ROOT / "rulebooks" / "rulers_gambit" / "starter.cards.yaml"
    analysis = Analysis.of(rules, {})
    assert analysis.model is not None
    text = cards.read_text(encoding="utf-8")
    keywords = analysis.model.keywords
    for written, needle in ((text, "    ruler_keywords: ["),
                            (text, "    ruler_keywords: [retain, "),
                            (text.replace("ruler_keywords: [double_attack]",
                                          "ruler_keywords:\n      - ", 1),
                             "ruler_keywords:\n      - ")):
        found = _completions(analysis, cards, written, needle)
        assert {label for label, _, _ in found} == set(keywords), needle
        assert all(detail == keywords[label].text for label, _, detail in found)
    colours = analysis.model.enums["Colour"].members
    found = _completions(analysis, cards, text, "    colours: [red, ")
    assert [label for label, _, _ in found] == colours
    found = _completions(analysis, cards, text, "    kind: ")
    assert {label for label, _, _ in found} == set(analysis.model.enums["Kind"].members)
    # where a field's name goes: the card type's field names, not values
    fields = {label for label, _, _ in _completions(analysis, cards, text.replace(
        "    has_ability: true", "    has_", 1), "    has_")}
    assert "ability_cost" in fields and "double_attack" not in fields


# (file, what is written, a misspelling of it): a name in the rules, a card set and a deck
# whose diagnostic offers "did you mean", in each kind of place a span covers more than it.
MISSPELT = [
    ("dojo.rules", "c.bonus_attack", "c.bonus_atack"),
    ("dojo.rules", "raise played(actor, c)", "raise playd(actor, c)"),
    ("dojo.rules", "goto turn_start", "goto turn_strt"),
    ("dojo.rules", "@S14\n", "@S14x\n"),
    ("dojo.rules", 'says "{actor} banks 3 CU"', 'says "{actr} banks 3 CU"'),
    ("dojo.rules", "health_left(h)", "helth_left(h)"),
    ("dojo.rules", "move c to discard[", "move c to discrd["),
    ("dojo.rules", "function max_health(c: Card)", "function max_health(c: Crd)"),
    ("dojo.rules", "move c to creatures[actor]", "move c to creatures[actr]"),
    ("dojo.rules", "move c to discard[c.owner]", "move c to discard[c.ownr]"),
    ("starter.cards.yaml", "    cost: 5", "    cot: 5"),
    ("starter.cards.yaml", "    kind: homeland", "    kind: homelnd"),
    ("starter.cards.yaml", "    caste: water", "    caste: watr"),
    ("decks/earth_water_stone.deck.yaml", "  Pebble Golem: 2", "  Pebble Golm: 2"),
]


@pytest.mark.parametrize(("name", "written", "misspelt"), [
    *MISSPELT[::3], *soak(m for i, m in enumerate(MISSPELT) if i % 3)])
def test_did_you_mean_fixes_the_name_alone(dojo: tuple[Path, Analysis], name: str,
                                           written: str, misspelt: str) -> None:
    """The quick fix of each "did you mean" diagnostic gives back what was written: it
    replaces the misspelt name, not all that the diagnostic's span covers."""
    folder, _ = dojo
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert written in text
    broken = text.replace(written, misspelt, 1)
    analysis = Analysis.of(folder / "dojo.rules", {resolved(path): broken})
    found = [d for d in analysis.compilation.diagnostics.sorted() if did_you_mean(d)
             and resolved(Path(d.span.file)) == resolved(path)]
    assert found, misspelt
    lines = broken.split("\n")
    for diagnostic in found:
        span = diagnostic.span
        start = sum(len(line) + 1 for line in lines[:span.line - 1]) + span.column - 1
        end = sum(len(line) + 1 for line in lines[:span.end_line - 1]) + span.end_column - 1
        names = did_you_mean(diagnostic)
        at = misspelt_at(broken[start:end], diagnostic.message, names)
        assert at is not None
        fixed = [broken[:start + at[0]] + name + broken[start + at[1]:] for name in names]
        assert text in fixed, (diagnostic.message, broken[start:end], names)


def test_an_open_scenario_is_read_from_the_editor(dojo: tuple[Path, Analysis]) -> None:
    """A scenario's unsaved text, not the disk's: a card named there jumps to its card set,
    and a rename edits the lines where the editor has the card's name."""
    folder, _ = dojo
    scenario = folder / "wins.scenario.yaml"
    text = "# a note\n# another\n" + scenario.read_text(encoding="utf-8")
    analysis = Analysis.of(folder / "dojo.rules", {resolved(scenario): text})
    line, column = next((number, row.index("Tidehaven") + 2)
                        for number, row in enumerate(text.split("\n"), 1) if "Tidehaven" in row)
    found = analysis.definition(scenario, line, column)
    assert found is not None and found.path.name == "starter.cards.yaml"
    cards = folder / "starter.cards.yaml"
    edits = analysis.rename(cards, *_at(cards, "Tidehaven"), "Coralhold")
    assert edits is not None
    lines = text.split("\n")
    spans = edits[resolved(scenario)]
    assert spans and all(lines[span.line - 1][span.column - 1:span.end_column - 1]
                         == "Tidehaven" for span, _ in spans)


def test_no_completion_in_comments_strings_or_a_number(dojo: tuple[Path, Analysis]) -> None:
    """Nothing is offered where no name is written: in a comment or a `##` doc comment, in a
    string, after a number's dot; the same text as code is still completed."""
    folder, analysis = dojo
    rules = folder / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    anchor = "    move a to discard[a.owner]\n"
    for typed in ("    # the creature attacks.", "    ## The end of the turn. ",
                  '    require c.kind == creature else "the c.', "    require 3.",
                  '    require "a \\" # b" != "', "    require x # c."):
        half = text.replace(anchor, anchor + typed + "\n", 1)
        assert _completions(analysis, rules, half, anchor + typed) == [], typed
    for typed in ("    require c.", '    require "# \\"" != "" and c.', "    require c3."):
        half = text.replace(anchor, anchor + typed + "\n", 1)
        assert _completions(analysis, rules, half, anchor + typed), typed
    cards = folder / "starter.cards.yaml"
    written = cards.read_text(encoding="utf-8")
    half = written.replace("    cost: 5\n", "    cost: 5\n    # k\n", 1)
    assert _completions(analysis, cards, written, "    cost: ")  # (a value is offered)
    assert _completions(analysis, cards, half, "    # k") == []
