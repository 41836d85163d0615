"""Spans in card sets: a diagnostic inside an effect points at the token's line and column in
the YAML, whatever the scalar's style; card names that are rulebook words break nothing.

The games are written and built by tests/cardset_games.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compiler import cli
from tests.cardset_games import (
    build_game,
    errors_of,
    play_through,
    rulebook,
    where_is,
    write_game,
)
from tests.tiers import every_other


def effect_card(effect: str, before: str = "") -> str:
    return f"type: Card\ncards:\n  - name: Spark\n{before}    cost: 1\n    effect: {effect}\n"


SPAN_CASES = {
    "block": effect_card("|\n      gain(you, 1)\n      gain(you, nobody)"),
    "block_keep": effect_card("|+\n      gain(you, nobody)\n"),
    "block_strip_indicator": effect_card("|-\n      if you.score > 0 {\n        gain(you, nobody)\n"
                                         "      }"),
    "block_nested_deeper": effect_card("|\n        gain(you, 1)\n        gain(you, nobody)"),
    "plain": effect_card("gain(you, nobody)"),
    "double_quoted": effect_card('"gain(you, nobody)"'),
    "single_quoted": effect_card("'gain(you, nobody)'"),
    "after_a_comment": "# a card set\n\n" + effect_card("gain(you, nobody)  # a comment"),
    "crlf": effect_card("|\n      gain(you, 1)\n      gain(you, nobody)").replace("\n", "\r\n"),
    "unicode_before": effect_card("gain(you, nobody)", "    description: \"火☃ é\"\n"),
    "block_blank_first_line": effect_card("|\n\n      gain(you, nobody)"),
    "unicode_in_effect": effect_card("|\n      gain(you, 1)  # ☃☃☃\n      gain(you, nobody)"),
    # the value is not a copy of the file: positions go through a map of the scalar
    "folded": effect_card(">\n      gain(you,\n      nobody)"),
    "folded_blank_lines": effect_card(">-\n\n      gain(you, 1)\n\n\n      gain(you,\n"
                                      "        1) gain(you, 2)\n      gain(you, nobody)"),
    "plain_two_lines": effect_card("gain(you,\n      nobody)"),
    "plain_blank_line": effect_card("gain(you, 1)\n\n      gain(you,   \n         nobody)"),
    "double_quoted_escapes": effect_card('"gain(you, \\"x\\" + nobody)"'),
    "double_quoted_unicode_escapes": effect_card('"gain(\\u0079ou, \\x31) gain(you, nobody)"'),
    "double_quoted_two_lines": effect_card('"gain(you, 1)\n\n      gain(you,\n  nobody)"'),
    "double_quoted_escaped_line_break": effect_card('"gain(you, 1) gain(you, \\\n   nobody)"'),
    "single_quoted_quotes": effect_card("'let t = \"it''s\" gain(you, nobody)'"),
    "single_quoted_two_lines": effect_card("'gain(you, 1)\n      gain(you, nobody)'"),
    "block_indentation_indicator": effect_card("|2\n        gain(you, 1)\n      gain(you, nobody)"),
    "crlf_folded": effect_card(">\n      gain(you,\n      nobody)").replace("\n", "\r\n"),
    # libyaml ends lines at these too; SourceFile, Lark and editors do not
    "line_separator_before": effect_card("gain(you, nobody)", "    description: \"a\u2028b\"\n"),
    "paragraph_separator_before": effect_card("gain(you, nobody)",
                                              "    description: \"a\u2029b\"\n"),
    "next_line_before": effect_card("gain(you, nobody)", "    description: \"a\x85b\"\n"),
    "carriage_return_before": effect_card("gain(you, nobody)", "    description: \"a\rb\"\n"),
    "line_separator_before_folded": effect_card(">\n      gain(you,\n      nobody)",
                                                "    description: \"a\u2028b\"\n"),
}


def span_case(tmp_path: Path, cards: str) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "core.cards.yaml").write_bytes(cards.encode("utf-8"))
    rules = folder / "cardtest.rules"
    rules.write_text(rulebook("cardtest", False), encoding="utf-8")
    found = errors_of(rules)
    assert [(d.code, d.message) for d in found] == [("E0101", "unknown name 'nobody'")]
    span = found[0].span
    assert Path(span.file).name == "core.cards.yaml"
    assert (span.line, span.column) == where_is(cards, "nobody")
    assert span.end_column - span.column == len("nobody")


@pytest.mark.parametrize("case", list(SPAN_CASES))
def test_effect_spans_point_at_the_token(tmp_path: Path, case: str) -> None:
    span_case(tmp_path, SPAN_CASES[case])


@pytest.mark.parametrize(("effect", "token", "code"), [
    ("|\n      gain(you, 1)\n      if you.score > 1 {\n        gain(you 2)\n      }", "2)",
     "E0001"),
    ("gain(you, 1) gain(you, 2) }", "}", "E0001"),
    ("'gain(you, @)'", "@", "E0003"),
    ('"gain(you, 1)\\tgain(you, @)"', "@", "E0003"),
    ('"gain(you, 1)\\tgain(you 2)"', "2)", "E0001"),
    (">\n      gain(you, 1)\n      gain(you,\n      @)", "@", "E0003"),
    (">\n      gain(you,\n      1 2)", "2)", "E0001"),
    ("gain(you,\n      1 2)", "2)", "E0001"),
    ('"gain(you, 1)\u2028gain(you, 2)"', "\u2028", "E0003"),
])
def test_syntax_errors_in_effects_point_at_the_token(
    tmp_path: Path, effect: str, token: str, code: str
) -> None:
    cards = effect_card(effect)
    rules = write_game(tmp_path / "game", cards)
    found = errors_of(rules)
    assert [d.code for d in found] == [code]
    assert (found[0].span.line, found[0].span.column) == where_is(cards, token)


@pytest.mark.parametrize("effect", [
    "|\n      gain(you, 1)\n      if you.score > 0 {\n        gain(you, 1)",
    ">\n      gain(you, 1)\n\n      if you.score > 0 {\n        gain(you, 1)",
    '"gain(you, 1)\n\n      if you.score > 0 {\n      gain(you, 1)"',
])
def test_an_unclosed_brace_in_an_effect_is_shown_where_it_opens(
    tmp_path: Path, effect: str
) -> None:
    """The note naming the open brace, and the end of the text, are positions in the YAML."""
    cards = effect_card(effect)
    rules = write_game(tmp_path / "game", cards)
    found = errors_of(rules)
    assert [d.code for d in found] == ["E0002"]
    note = re.search(r"core\.cards\.yaml:(\d+):(\d+) is never closed", " ".join(found[0].notes))
    assert note, found[0].notes
    assert (int(note[1]), int(note[2])) == where_is(cards, "{")
    last = cards.rstrip("\n").split("\n")[-1].rstrip('"')
    assert (found[0].span.line, found[0].span.column) == (cards.count("\n"), len(last) + 1)


def test_python_in_an_effect_is_a_syntax_error(tmp_path: Path) -> None:
    sentinel = tmp_path / "pwned"
    cards = effect_card(f"|\n      gain(you, 1)\n      __import__('os').system('touch {sentinel}')")
    rules = write_game(tmp_path / "game", cards)
    found = errors_of(rules)
    assert found and {d.code for d in found} <= {"E0001", "E0003"}
    assert not sentinel.exists()


def test_json_diagnostics_name_the_yaml_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = effect_card("gain(you, nobody)")
    rules = write_game(tmp_path / "game", cards, {"red": "cards:\n  Sprak: 4\n"})
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", "--format", "json", str(rules.relative_to(tmp_path))])
    assert code != 0
    found = json.loads(capsys.readouterr().out)
    assert {(d["file"], d["line"], d["column"], d["code"]) for d in found} == {
        ("game/core.cards.yaml", *where_is(cards, "nobody"), "E0101"),
        ("game/decks/red.deck.yaml", 2, 3, "E0404"),
    }
    assert any("did you mean 'Spark'" in (d["hint"] or "") for d in found)


def test_a_card_named_like_its_type_breaks_nothing(tmp_path: Path) -> None:
    """A card set's names must not shadow the rulebook's names: anything wrong is said in the
    YAML, never as an error in rules that were fine."""
    rules = write_game(tmp_path / "game", "cards:\n  - name: Card\n  - name: Spark\n")
    wrong = [d for d in errors_of(rules) if not d.span.file.endswith(".yaml")]
    assert not wrong, "\n".join(str(d) for d in wrong)


@pytest.mark.parametrize("name", every_other(
    ["red", "none", "gain", "A", "deck", "actor", "class", "s", "players", "trample", "Colour",
     "score", "this", "you"]))
def test_cards_named_like_rulebook_words_play(tmp_path: Path, name: str) -> None:
    cards = (f"cards:\n  - name: {name}\n    cost: 1\n  - name: Spark\n    colour: red\n"
             "    effect: gain(you, this.cost)\n")
    game = build_game(write_game(tmp_path / "game", cards, hand=2), tmp_path / "out")
    assert list(game.DEF_NAMES) == [name, "Spark"]
    assert list(game.C_CARD_COLOUR) == [0, 0]
    assert sorted(play_through(game)) == sorted(
        f"{p} casts {c}" for p in "AB" for c in (name, "Spark"))
