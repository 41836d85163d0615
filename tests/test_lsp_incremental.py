"""The language server's declaration-by-declaration parse (compiler.lsp.incremental) gives what
a parse of the whole file gives, spans and diagnostics included, before and after edits, and
parses again only the declarations an edit touched."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from compiler.lsp import incremental
from compiler.lsp.incremental import IncrementalParser, keywords_at, pieces
from dsl.diagnostics import Diagnostics
from dsl.parser import parse
from dsl.source import SourceFile
from tests.fuzz_inputs import mutate_rulebook
from tests.tiers import seeds, soak

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulebooks").glob("*/*.rules"))
CASES = sorted((ROOT / "tests" / "cases").glob("*.rules"))


def assert_same_parse(parser: IncrementalParser, name: str, text: str) -> None:
    source = SourceFile(name, text)
    whole, whole_diagnostics = Diagnostics(), Diagnostics()
    expected = parse(source, whole_diagnostics)
    found = parser.parse(source, whole)
    assert repr(found) == repr(expected)  # the repr shows every span
    assert whole.items == whole_diagnostics.items


@pytest.mark.parametrize("rules", [SHIPPED[-1], *soak(SHIPPED[:-1])], ids=lambda p: p.stem)
def test_same_as_a_whole_parse_before_and_after_edits(rules: Path) -> None:
    text = rules.read_text(encoding="utf-8")
    parser = IncrementalParser()
    assert_same_parse(parser, rules.name, text)
    cut = pieces(text)
    assert cut is not None and len(cut) > 20
    rng = random.Random(rules.name)
    for _ in range(3):
        line = rng.randrange(text.count("\n"))
        at = sum(len(x) + 1 for x in text.split("\n")[:line])
        text = text[:at] + " " + text[at:]  # a keystroke
        before = dict(parser.kept)
        assert_same_parse(parser, rules.name, text)
        assert len(set(parser.kept) - set(before)) <= 1, "more than one declaration parsed"


@pytest.mark.parametrize("case", [*CASES[::10], *soak(c for i, c in enumerate(CASES) if i % 10)],
                         ids=lambda p: p.stem)
def test_same_as_a_whole_parse_on_fixtures(case: Path) -> None:
    assert_same_parse(IncrementalParser(), case.name, case.read_text(encoding="utf-8"))


@pytest.mark.parametrize("seed", seeds(4, 80))
def test_same_as_a_whole_parse_on_fuzzed_rulebooks(seed: int) -> None:
    original = SHIPPED[seed % len(SHIPPED)].read_text(encoding="utf-8")
    parser = IncrementalParser()
    assert_same_parse(parser, "x.rules", original)
    assert_same_parse(parser, "x.rules", mutate_rulebook(original, random.Random(seed)))


@pytest.mark.parametrize("rules", [SHIPPED[0], *soak(SHIPPED[1:])], ids=lambda p: p.stem)
def test_a_syntax_error_worded_from_its_piece_as_from_the_whole_file(
        rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keystrokes that break one declaration: the error the server words from that piece alone
    (incremental.syntax_error) is the whole file's parse's, code, span, message, hint and notes;
    and most such errors are worded so (else the comparison proves little)."""
    worded: list[bool] = []

    def counted(*args: object) -> object:
        found = syntax_error(*args)  # type: ignore[arg-type]
        worded.append(found is not None)
        return found

    syntax_error = incremental.syntax_error
    monkeypatch.setattr(incremental, "syntax_error", counted)
    original = rules.read_text(encoding="utf-8")
    parser = IncrementalParser()
    assert_same_parse(parser, rules.name, original)
    rng = random.Random(rules.stem)
    wanted = 3 if rules == SHIPPED[0] else 40
    for _ in range(20 * wanted):
        at = rng.randrange(len(original))
        if rng.random() < 0.6:
            text = original[:at] + rng.choice("x{}();:.,=\"@ 1+") + original[at:]
        else:
            text = original[:at] + original[at + rng.randint(1, 3):]
        assert_same_parse(parser, rules.name, text)
        if len(worded) == wanted:
            break
    assert worded.count(True) >= wanted // 2, worded


def test_a_piece_whose_error_the_whole_file_words_otherwise() -> None:
    """A too-large number is found when the tree is built, after the whole file has parsed:
    a syntax error further down is the whole file's error. An unclosed brace runs on into the
    next piece."""
    text = SHIPPED[0].read_text(encoding="utf-8")
    cut = pieces(text)
    assert cut is not None
    lines = text.split("\n")
    last = cut[-1][0]
    huge = "\n".join([*lines[:last], "function huge() -> int = 1" + "9" * 40, *lines[last:]])
    for broken in (huge + "\nfunction f(a b) -> int = 1\n",
                   text.replace("{", "{ (", 1)):
        parser = IncrementalParser()
        assert_same_parse(parser, "x.rules", text)
        assert_same_parse(parser, "x.rules", broken)


def test_keywords_where_the_grammar_takes_them() -> None:
    text = (ROOT / "rulebooks" / "dojo" / "dojo.rules").read_text(encoding="utf-8")
    top = keywords_at(text, 1, 1)
    assert top is not None and {"phase", "function", "zone"} <= top and "move" not in top
    lines = text.split("\n")
    number = next(i for i, line in enumerate(lines, 1) if "turn_player.ended = false" in line)
    column = lines[number - 1].index("turn_player") + 1
    statement = keywords_at(text, number, column + 3)  # the word being typed is left out
    assert statement is not None and {"move", "let", "goto"} <= statement
    assert "phase" not in statement and "function" not in statement
    assert keywords_at("game g { players ] ", 1, 20) is None  # no reading: every word
