"""The language server's check, which keeps the parse of unchanged declarations and the card sets
and decks whose text did not change (compiler.lsp.incremental.EditorSources), gives the
diagnostics of a check from scratch (codes, spans, messages, hints and notes alike) after
random keystrokes in a shipped rulebook, its card set and its decks."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from compiler.driver import Sources, check_rulebook
from compiler.lsp.analysis import Analysis
from dsl import nodes as n
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.parser import decode_source, parse
from dsl.source import SourceFile, resolved
from tests.tiers import seeds, soak

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ["rulers_gambit", *soak(["dynasties", "dojo", "dynasty_tcg", "dynasty_builder"])]
_NAME = re.compile(r"\b[a-z_][a-z0-9_]{2,}\b")


class FromScratch(Sources):
    """The editor's texts, every file read and parsed whole, nothing kept."""

    def __init__(self, texts: dict[Path, str]) -> None:
        self.texts = texts

    def read(self, path: Path, name: str, diagnostics: Diagnostics) -> SourceFile | None:
        text = self.texts.get(resolved(path))
        if text is None:
            return super().read(path, name, diagnostics)
        return decode_source(text.encode("utf-8", "replace"), name, diagnostics)

    def parse(self, source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
        return parse(source, diagnostics)


def keystroke(text: str, rng: random.Random) -> str:
    """One small edit at a random place: a character typed or deleted, or a name misspelt."""
    at = rng.randrange(len(text))
    choice = rng.random()
    if choice < 0.4:
        return text[:at] + rng.choice("x {}();:.,\"#\n 1") + text[at:]
    if choice < 0.7:
        return text[:at] + text[at + rng.randint(1, 3):]
    names = list(_NAME.finditer(text))
    name = rng.choice(names)
    return text[:name.end()] + "q" + text[name.end():]


def editable(rules: Path) -> list[Path]:
    folder = rules.parent
    return [rules, *sorted(folder.glob("*.cards.yaml")), *sorted(folder.glob("decks/*.yaml"))]


def assert_same(rules: Path, texts: dict[Path, str]) -> list[Diagnostic]:
    found = Analysis.of(rules, texts).compilation.diagnostics.sorted()
    expected = check_rulebook(rules, sources=FromScratch(texts)).diagnostics.sorted()
    assert found == expected
    return found


@pytest.mark.parametrize("game", RULEBOOKS)
@pytest.mark.parametrize("seed", seeds(1, 4))
def test_keystrokes_give_the_diagnostics_of_a_check_from_scratch(game: str, seed: int) -> None:
    rules = resolved(ROOT / "rulebooks" / game / f"{game}.rules")
    files = editable(rules)
    originals = {resolved(f): f.read_text(encoding="utf-8") for f in files}
    texts = dict(originals)
    rng = random.Random(f"{game}{seed}")
    assert_same(rules, texts)
    reported: set[str] = set()
    # twelve keystrokes, and more (up to forty) until one brings a diagnostic: which keystrokes
    # break something depends on the rulebook's text, which `rulecraft fmt` may lay out anew
    for done in range(40):
        if done >= 12 and reported:
            break
        if rng.random() < 0.3:
            texts = dict(originals)
        # Mostly the rules, where an edit reuses the most.
        file = rules if rng.random() < 0.7 else resolved(rng.choice(files))
        texts[file] = keystroke(texts[file], rng)
        reported.update(d.code for d in assert_same(rules, texts))
    assert reported, "no keystroke brought a diagnostic: the comparison proves little"


def test_edits_that_change_what_other_declarations_read() -> None:
    """A series of edits, each compared with a check from scratch: in a comment (the earlier
    check's model is given back), a signature other declarations call, a type's name, a
    declaration added and removed, each undone (the earlier model given back again), a card set
    and a deck."""
    rules = resolved(ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules")
    folder = rules.parent
    cards = resolved(folder / "starter.cards.yaml")
    deck = resolved(folder / "decks" / "red_green_rush.deck.yaml")
    original = {f: f.read_text(encoding="utf-8") for f in (rules, cards, deck)}
    text = original[rules]

    def check(texts: dict[Path, str]) -> tuple[set[str], object]:
        found = assert_same(rules, texts)
        return {d.code for d in found}, Analysis.of(rules, texts).model

    codes, model = check(dict(original))
    assert not codes
    comment = text.replace("# Card writers:", "# Card  writers:", 1)
    codes, again = check({**original, rules: comment})
    assert not codes and again is model, "a comment edit checked the rulebook again"
    edits = [
        # a signature used elsewhere: callers now pass a Card where an int is wanted
        text.replace("function printed_attack(c: Card)", "function printed_attack(c: int)", 1),
        # a type renamed at its declaration only
        text.replace("enum SpellType {", "enum SpellKind {", 1),
        # a declaration added, then one removed
        text.replace("enum Kind {", "enum Extra { one }\nenum Kind {", 1),
        text.replace("function in_recovery(c: Card) -> bool = c in recovery[c.owner]", "", 1),
    ]
    for edited in edits:
        codes, changed = check({**original, rules: edited})
        assert codes and changed is not model
        codes, again = check(dict(original))
        assert not codes and again is model, "undoing the edit checked the rulebook again"
    codes, _ = check({**original, cards: original[cards].replace("name:", "nmae:", 1)})
    assert codes
    codes, _ = check({**original, deck: original[deck].replace("Ember Scout: 2", "Ember Scot: 2")})
    assert codes
    codes, _ = check(dict(original))
    assert not codes


def test_a_map_file_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    """Resolve reads a graph board's map from disk: a check is given back only while the map
    holds the same bytes, and while data_file says the same of its path."""
    import shutil

    folder = tmp_path / "dynasties"
    shutil.copytree(ROOT / "rulebooks" / "dynasties", folder)
    rules = resolved(folder / "dynasties.rules")
    text = rules.read_text(encoding="utf-8")
    codes = {d.code for d in assert_same(rules, {rules: text})}
    assert not codes
    model = Analysis.of(rules, {rules: text}).model
    commented = text.replace("# ", "#  ", 1)
    assert not assert_same(rules, {rules: commented})
    assert Analysis.of(rules, {rules: commented}).model is model
    board = folder / "china.map.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("nodes:", "nodez:", 1),
                     encoding="utf-8")
    assert assert_same(rules, {rules: commented})
    assert Analysis.of(rules, {rules: commented}).model is not model
    board.unlink()  # no file, then a folder: two messages, and no bytes either time
    assert assert_same(rules, {rules: commented})
    board.mkdir()
    assert assert_same(rules, {rules: commented})
