"""`rulecraft explain-symbol FILE:LINE:COL`: every name of the shipped rulebooks knows its symbol,
and every symbol where it is declared (what "go to definition", "find references" and "hover"
of an editor need). Positions are found in the rulebooks' text, not written down, so the tests
follow the rulebooks when they change."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pytest

from compiler import cli
from compiler import symbols as sym
from compiler.driver import check_rulebook
from compiler.explain import declaration, explain, explain_symbol, references, rule_nodes, uses
from compiler.model import GameModel
from dsl import nodes as n

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = sorted((ROOT / "rulebooks").glob("*/*.rules"))
DYNASTIES = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"
GAMBIT = ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules"
CARDS = ROOT / "rulebooks" / "rulers_gambit" / "starter.cards.yaml"
DECK = ROOT / "rulebooks" / "rulers_gambit" / "decks" / "red_green_rush.deck.yaml"


@cache
def model_of(rules: Path) -> GameModel:
    compilation = check_rulebook(rules)
    assert compilation.ok and compilation.model is not None, rules
    return compilation.model


def find(path: Path, line_text: str, word: str) -> tuple[int, int]:
    """(line, column) of `word` in the first line of path that holds line_text."""
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if line_text in line:
            return number, line.index(line_text) + line_text.index(word) + 1
    raise AssertionError(f"no line with {line_text!r} in {path}")


def line_of(path: Path, line_text: str) -> int:
    return find(path, line_text, line_text)[0]


def explained(path: Path, line_text: str, word: str) -> dict[str, str]:
    """What explain-symbol prints for `word` where it is written in line_text."""
    line, column = find(path, line_text, word)
    out, err = io.StringIO(), io.StringIO()
    assert explain_symbol(f"{path}:{line}:{column}", out, err) == 0, err.getvalue()
    fields = dict(row.split(": ", 1) for row in out.getvalue().splitlines())
    assert list(fields) == ["symbol", "kind", "type", "declared", "doc"]
    return fields


def declared_at(path: Path, line_text: str, word: str | None = None) -> str:
    line, column = find(path, line_text, word or line_text)
    return f"{path.relative_to(ROOT).as_posix()}:{line}:{column}"


@pytest.fixture(autouse=True)
def _from_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # spans name files from the working directory


def test_a_local() -> None:
    got = explained(DYNASTIES, "need -= from_reserve", "need")
    assert got["kind"] == "local variable" and got["type"] == "int"
    assert got["declared"] == declared_at(DYNASTIES, "let need = n")


def test_a_parameter() -> None:
    got = explained(DYNASTIES, "p.reserve -= from_reserve", "p")
    assert (got["symbol"], got["kind"], got["type"]) == ("p", "parameter", "player")
    assert got["declared"] == declared_at(DYNASTIES, "procedure take_armies(p: player", "p:")


def test_a_player_field_with_its_doc() -> None:
    got = explained(DYNASTIES, "p.reserve -= from_reserve", "reserve")
    assert (got["kind"], got["type"]) == ("player field", "int")
    assert got["declared"] == declared_at(DYNASTIES, "  reserve: int = 21", "reserve")
    removed = explained(DYNASTIES, "p.removed +=", "removed")
    assert removed["doc"] == "armies killed in battle or paid for tiles"


def test_a_zone() -> None:
    got = explained(GAMBIT, "move c to graveyard[", "graveyard")
    assert got["kind"] == "zone"
    assert got["declared"] == declared_at(GAMBIT, "zone graveyard:")


def test_a_card_in_a_card_set() -> None:
    """A deck file's card is the card of the card set; its description is its doc."""
    got = explained(DECK, "Ember Scout: 2", "Ember Scout")
    assert (got["symbol"], got["kind"], got["type"]) == ("Ember Scout", "card",
                                                         "definition of Card")
    assert got["declared"] == declared_at(CARDS, "- name: Ember Scout", "name")
    assert got["doc"].startswith("A torch-bearer of the Crimson March")


def test_an_enum_member_in_a_card_set() -> None:
    at = line_of(CARDS, "- name: Ember Scout")
    line = CARDS.read_text(encoding="utf-8").split("\n")[at:].index("    colour: red") + at + 1
    out = io.StringIO()
    assert explain_symbol(f"{CARDS}:{line}:13", out, io.StringIO()) == 0
    assert out.getvalue().splitlines()[:3] == ["symbol: red", "kind: enum member",
                                              "type: Colour"]
    assert f"declared: {declared_at(GAMBIT, 'enum Colour { blue, red', 'red')}" \
        in out.getvalue()


def test_a_keyword_with_its_reminder_text() -> None:
    got = explained(CARDS, "ruler_keywords: [double_attack]", "double_attack")
    assert (got["kind"], got["type"]) == ("keyword", "keyword")
    assert got["declared"] == declared_at(GAMBIT, "keyword double_attack")
    assert "two attacks" in got["doc"]


def test_a_function() -> None:
    got = explained(DYNASTIES, "= warlord_acts(", "warlord_acts")
    assert got["kind"] == "function" and got["type"].startswith("warlord_acts(")
    assert got["declared"] == declared_at(DYNASTIES, "function warlord_acts")


def test_a_procedure_with_its_doc_above_annotations() -> None:
    line = line_of(DYNASTIES, "procedure take_armies(")
    text = DYNASTIES.read_text(encoding="utf-8").split("\n")
    call = next(i for i, row in enumerate(text, 1)
                if i != line and "take_armies(" in row and "procedure" not in row)
    out = io.StringIO()
    column = text[call - 1].index("take_armies") + 1
    assert explain_symbol(f"{DYNASTIES}:{call}:{column}", out, io.StringIO()) == 0
    fields = dict(row.split(": ", 1) for row in out.getvalue().splitlines())
    assert fields["kind"] == "procedure"
    assert fields["type"] == "take_armies(p: player, near: Province?, n: int, near_first: bool)"
    assert fields["declared"] == declared_at(DYNASTIES, "procedure take_armies")
    assert fields["doc"].startswith("Take n of p's armies off the board's supply")


def test_a_builtin_says_so() -> None:
    got = explained(DYNASTIES, "let from_reserve = min(need", "min")
    assert got["kind"] == "built-in function"
    assert got["type"] == "min(int, int, ...) -> int"
    assert got["declared"] == "built into the language"


def test_the_command_line() -> None:
    line, column = find(DYNASTIES, "p.reserve -= from_reserve", "reserve")
    assert cli.main(["explain-symbol", f"{DYNASTIES}:{line}:{column}"]) == 0
    assert cli.main(["explain-symbol", f"{DYNASTIES}:{line}"]) == 2
    assert cli.main(["explain-symbol", f"{DYNASTIES}:1:1"]) == 1  # a comment: no name there
    assert cli.main(["explain-symbol", "no/such.rules:1:1"]) == 1


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda p: p.stem)
def test_every_name_has_a_symbol_and_a_declaration(rules: Path) -> None:
    model = model_of(rules)
    nodes = rule_nodes(model)
    names = [node for node in nodes if isinstance(node, n.Name)]
    assert names
    for name in names:
        symbol = model.symbols.names.get(id(name))
        assert symbol is not None, f"{name.span}: '{name.id}' has no symbol"
        span = declaration(symbol)
        assert span is not None and span.file in model.sources, f"{name.span}: {symbol}"
        assert 1 <= span.line <= len(model.sources[span.file].lines)
        if not isinstance(symbol, sym.BoardNode | sym.Parameter | sym.Local):
            # declared where its name is written (nodes: by the board; `this` and `cards`: by
            # the effect field and the deck rules; a variable: by its `for` or aggregate)
            assert name.id in model.sources[span.file].line(span.line), f"{name.span}: {symbol}"
    use_of = {id(use.node): use for use in uses(model)}
    for node in nodes:  # the other uses: fields, calls, effects, aggregates
        if isinstance(node, n.Attribute | n.Call | n.EffectCall | n.Aggregate):
            used = model.symbols.of(node)
            assert used is not None, f"{node.span}: no symbol"
            if isinstance(used, sym.Builtin | sym.Aggregator | sym.NameOf | sym.CardOwner):
                assert declaration(used) is None
                said = explain(model, use_of[id(node)]).text().splitlines()
                assert said[3] == "declared: built into the language"
            else:
                assert declaration(used) is not None, f"{node.span}: {used}"


def test_references_find_every_use() -> None:
    model = model_of(DYNASTIES)
    reserve = sym.PlayerField("reserve", model.player_fields["reserve"].span)
    found = references(model, reserve)
    text = DYNASTIES.read_text(encoding="utf-8").split("\n")
    written = [(span.line, span.column) for span in found]
    assert written == sorted(written) and len(found) > 3
    assert all(text[line - 1][column - 1:].startswith("reserve") for line, column in written)
    assert (line_of(DYNASTIES, "p.reserve -= from_reserve"),
            find(DYNASTIES, "p.reserve -= from_reserve", "reserve")[1]) in written
