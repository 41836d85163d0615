"""The hand-written effect parser (dsl.effect_parser) against the Lark parser it stands in for.

For every text, the fast parser either declines (None) or gives exactly the AST the Lark path
gives, spans included (nodes compare without their spans, so the trees are walked field by
field), and it never accepts a text the Lark path reports. The texts: every effect text of every
shipped card set, the body of every block of every shipped rulebook, the benchmark's varied
effect texts, random texts from the statement grammar (every statement and expression rule,
keywords used as names, comments, parentheses), and all of these mutated at random.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
import yaml

from benchmarks.bench_cards import VariedEffects
from dsl import effect_parser
from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.effect_parser import MAX_TOKENS, parse_effect_fast
from dsl.keyword_lexer import RESERVED_WORDS, grammar_words
from dsl.nesting import MAX_NESTING
from dsl.parser import parse, parse_effect
from dsl.source import SourceFile
from tests.card_reading import differences, effect_fields_of
from tests.tiers import seeds

ROOT = Path(__file__).resolve().parent.parent
FILE = "cards.yaml"
SHIFT = (5, 6)


def lark(text: str, shift: tuple[int, int] = SHIFT) -> tuple[n.Block | None, int]:
    """The Lark path's block of text, and how many diagnostics it gave."""
    diagnostics = Diagnostics()
    with mock.patch("dsl.parser.parse_effect_fast", return_value=None):
        block = parse_effect(text, SourceFile(FILE, ""), shift, diagnostics)
    return block, len(diagnostics.items)


def same_or_declined(text: str, shift: tuple[int, int] = SHIFT) -> bool:
    """Whether the fast parser took the text; asserts it took it right."""
    fast = parse_effect_fast(text, FILE, shift)
    if fast is None:
        return False
    expected, errors = lark(text, shift)
    assert errors == 0 and expected is not None, f"accepted a text Lark reports: {text!r}"
    found = list(differences(fast, expected, "block"))
    assert not found, f"{text!r}: {found[:5]}"
    return True


def shipped_effect_texts() -> list[str]:
    texts: set[str] = set()
    for cards in sorted(ROOT.glob("rulebooks/*/*.cards.yaml")):
        rules = next(cards.parent.glob("*.rules"))
        fields = set().union(*effect_fields_of(rules).values())
        for card in yaml.safe_load(cards.read_text(encoding="utf-8"))["cards"]:
            texts.update(v for k, v in card.items() if k in fields and isinstance(v, str))
    return sorted(texts)


def rulebook_blocks() -> list[str]:
    """The statements of every block of every shipped rulebook, as the text between its
    braces."""
    texts: list[str] = []
    for rules in sorted(ROOT.glob("rulebooks/*/*.rules")):
        source = SourceFile(rules.name, rules.read_text(encoding="utf-8"))
        module = parse(source, Diagnostics())
        assert module is not None, rules
        starts = [0]
        for line in source.text.split("\n"):
            starts.append(starts[-1] + len(line) + 1)
        for node in n.walk(module):
            if isinstance(node, n.Block) and node.statements:
                s = node.span
                texts.append(source.text[starts[s.line - 1] + s.column:
                                         starts[s.end_line - 1] + s.end_column - 2])
    return texts


def varied_texts(count: int, seed: int) -> list[str]:
    effects = VariedEffects(random.Random(seed))
    return [effects.text(has_target=i % 2 == 0) for i in range(count)]


# ---- random texts of the statement grammar ------------------------------------------------
CONTEXTUAL = sorted(grammar_words() - RESERVED_WORDS)


class Grammar:
    """Random statements of the grammar's statement rules, valid or nearly: every rule, words
    of the grammar used as names, comments, parentheses and odd spacing."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def space(self) -> str:
        return self.rng.choice([" ", " ", " ", "", "\n  ", "  # 3 of (them) \n", "\t", "\r\n"])

    def name(self) -> str:
        return self.rng.choice(["x", "you", "target", "u1", "_a9", *CONTEXTUAL])

    def atom(self, depth: int) -> str:
        rng = self.rng
        roll = rng.randrange(12 if depth < 3 else 7)
        if roll == 0:
            return str(rng.choice([0, 1, 7, 42, 10**17]))
        if roll == 1:
            return rng.choice(['"a"', '""', '"say \\"hi\\"\\n\\t\\{x\\}"', '"# not a comment"'])
        if roll == 2:
            return rng.choice(["true", "false", "none", "actor", "players"])
        if roll < 7:
            return self.name()
        if roll == 7:
            return f"({self.space()}{self.expr(depth + 1)}{self.space()})"
        if roll == 8:
            items = [self.expr(depth + 1) for _ in range(rng.randrange(3))]
            return "[" + ", ".join(items) + "]"
        return self.postfix(depth + 1)

    def postfix(self, depth: int) -> str:
        rng = self.rng
        text = self.atom(depth)
        for _ in range(rng.randrange(3)):
            roll = rng.randrange(5)
            if roll == 0:
                text += f".{self.name()}"
            elif roll == 1:
                text += "[" + ", ".join(self.expr(depth + 1)
                                        for _ in range(rng.randint(1, 2))) + "]"
            elif roll == 2:
                where = f" where {self.expr(depth + 1)}" if rng.random() < 0.5 else ""
                text += (f"({self.expr(depth + 1)} for {self.name()} in "
                         f"{self.expr(depth + 1)}{where})")
            else:
                text += "(" + ", ".join(self.expr(depth + 1)
                                        for _ in range(rng.randrange(3))) + ")"
        return text

    def expr(self, depth: int = 0) -> str:
        rng = self.rng
        if depth > 4:
            return self.atom(depth)
        roll = rng.randrange(14)
        sub = self.expr
        if roll == 0:
            return f"if {sub(depth + 1)} then {sub(depth + 1)} else {sub(depth + 1)}"
        if roll == 1:
            return f"{sub(depth + 1)} {rng.choice(['or', 'and'])} {sub(depth + 1)}"
        if roll == 2:
            return f"not {sub(depth + 1)}"
        if roll == 3:
            op = rng.choice(["==", "!=", "<=", ">=", "<", ">", "in"])
            return f"{self.arith(depth + 1)}{self.space()}{op} {self.arith(depth + 1)}"
        if roll == 4:
            return f"{self.arith(depth + 1)}..{self.arith(depth + 1)}"
        return self.arith(depth)

    def arith(self, depth: int) -> str:
        rng = self.rng
        if depth > 5 or rng.random() < 0.5:
            return self.unary(depth)
        op = rng.choice(["+", "-", "*", "/", "%"])
        return f"{self.arith(depth + 1)}{self.space()}{op}{self.space()}{self.arith(depth + 1)}"

    def unary(self, depth: int) -> str:
        if self.rng.random() < 0.15:
            return "-" + self.rng.choice(["", " "]) + self.unary(depth + 1)
        return self.postfix(depth)

    def block(self, depth: int) -> str:
        body = self.statements(depth + 1, self.rng.randrange(3))
        return "{" + self.space() + body + self.space() + "}"

    def statements(self, depth: int, count: int) -> str:
        return self.space().join(self.statement(depth) for _ in range(count)) or ""

    def statement(self, depth: int) -> str:
        rng, e = self.rng, self.expr
        roll = rng.randrange(18 if depth < 3 else 14)
        choices = [
            lambda: f"let {self.name()} = {e()}",
            lambda: f"{self.postfix(1)} {rng.choice(['=', '+=', '-='])} {e()}",
            lambda: self.postfix(0),
            lambda: "break",
            lambda: f"move {e()} to {rng.choice(['', 'top of ', 'bottom of '])}{e()}",
            lambda: rng.choice(["draw game", f"draw {e()} from {e()} to {e()}"]),
            lambda: f"shuffle {e()}",
            lambda: f"create {e()} into {e()}",
            lambda: f"reveal {e()}",
            lambda: f"goto {self.name()}",
            lambda: f"{rng.choice(['win', 'lose'])} {e()}",
            lambda: f"raise {self.name()}(" + ", ".join(e() for _ in range(rng.randrange(3)))
            + ")",
            lambda: f'require {e()} else "no \\"way\\""',
            lambda: self.postfix(0),
            lambda: (f"if {e()} {self.block(depth)}"
                     + "".join(f" elif {e()} {self.block(depth)}"
                               for _ in range(rng.randrange(2)))
                     + (f" else {self.block(depth)}" if rng.random() < 0.5 else "")),
            lambda: (f"for {self.name()} in {e()}"
                     + (f" where {e()}" if rng.random() < 0.5 else "")
                     + (f" ordered by {e()}{rng.choice(['', ' desc'])}"
                        if rng.random() < 0.5 else "")
                     + f" {self.block(depth)}"),
            lambda: (f"repeat {e()}" + (f" while {e()}" if rng.random() < 0.5 else "")
                     + f" {self.block(depth)}"),
            lambda: self.block(depth),  # a stray block: a syntax error
        ]
        return choices[roll]()

    def text(self) -> str:
        return self.statements(0, self.rng.randint(1, 4)) + self.rng.choice(["", "\n", " # end"])


VOCABULARY = [*sorted(RESERVED_WORDS), *CONTEXTUAL, "x", "1", "99", '"s"', "(", ")", "[", "]",
              "{", "}", ",", ".", "..", "=", "==", "+=", "-", "*", "<", ":", "@a", "#", "\n",
              '"', "\\", "é", "\v", "1" * 19]


def mutated(text: str, rng: random.Random) -> str:
    """text with a few random edits: a token or character inserted, deleted or repeated."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        roll = rng.randrange(4)
        if roll == 0:
            text = text[:at] + " " + rng.choice(VOCABULARY) + " " + text[at:]
        elif roll == 1:
            text = text[:at] + text[at + rng.randint(1, 4):]
        elif roll == 2:
            text = text[:at] + rng.choice(VOCABULARY) + text[at:]
        else:
            end = min(len(text), at + rng.randint(1, 12))
            text = text[:end] + text[at:]
    return text


def corpus(seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    grammar = Grammar(rng)
    yield from (grammar.text() for _ in range(300))
    real = shipped_effect_texts() + varied_texts(50, seed)
    yield from (mutated(rng.choice(real), rng) for _ in range(300))
    yield from (mutated(grammar.text(), rng) for _ in range(300))


# ---- the tests -------------------------------------------------------------------------------
def test_every_shipped_effect_text_is_parsed_fast_and_the_same() -> None:
    texts = shipped_effect_texts()
    assert len(texts) > 50
    for text in texts:
        assert same_or_declined(text), f"declined: {text!r}"
        assert same_or_declined(text, (0, 0))


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_every_block_of_the_shipped_rulebooks_is_parsed_the_same() -> None:
    texts = rulebook_blocks()
    taken = sum(same_or_declined(text) for text in texts)
    assert taken > 0.8 * len(texts) > 300  # declined: annotations, and very long blocks


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_the_benchmarks_varied_effect_texts_are_parsed_fast_and_the_same() -> None:
    for text in varied_texts(400, 2024):
        assert same_or_declined(text), f"declined: {text!r}"


@pytest.mark.parametrize("seed", seeds(1, 20))
def test_random_and_mutated_texts_are_parsed_the_same_or_declined(seed: int) -> None:
    taken = declined = 0
    for text in corpus(seed):
        if same_or_declined(text):
            taken += 1
        else:
            declined += 1
    assert taken > 100 and declined > 100  # both paths were exercised


@pytest.mark.parametrize("text", [
    "let to = top\nmove to to top of bottom\ndraw game\ndraw from from to to into",
    "for by in ordered where desc ordered by by desc { goto while }",
    "repeat while while while { (c).d = -(-(3))\nx = (a) or (b) }",
    "x = f(a)\n(g)(b)",            # a call across lines, as Lark reads it
    "x = 3abc = 4",                # two statements: 3, then abc = 4
    "# only a comment",
    "damage(you, -3) # 3",
    "  damage(you, 1)  \n \t\r\n  ",  # whitespace around
])
def test_words_parentheses_and_lines_as_lark_reads_them(text: str) -> None:
    assert same_or_declined(text), text


@pytest.mark.parametrize("text", [
    "@S1 damage(you, 1)",           # annotations: left to Lark
    "x = a: b",                     # a colon
    "x = 1 < 2 < 3",                # comparisons do not chain
    "x = " + "1" * 19,              # too large: Lark reports it
    'say("\\q")',                   # an escape strings do not have
    "f(a,)",
    "x = (a) or (b)\n(c).d = 1",    # (b)(c).d = 1: a call across lines, a syntax error
    "x = é",
    "x = " + "- " * MAX_NESTING + "1",  # runs of prefix operators that dsl.nesting reports
    "x = " + "not " * MAX_NESTING + "a",
    "x = a " + "- " * MAX_NESTING + "1",
    "x = a -= " + "- " * (MAX_NESTING - 1) + "1",
])
def test_texts_the_fast_parser_leaves_to_lark(text: str) -> None:
    assert parse_effect_fast(text, FILE, SHIFT) is None
    assert lark(text)[1] > 0 or "@" in text  # reported by Lark (an annotation is no error)


def test_texts_as_long_as_the_fast_parser_takes_nest_no_deeper_than_lark_builds() -> None:
    """The longest texts taken, nested as deeply as tokens allow, are built by the Lark path
    (its transformer recurses per level) even from a deep stack: so no text the fast parser
    takes would be one Lark reports as too deep."""
    size = MAX_TOKENS - 4
    texts = [
        # one level per token, as many as taken, then one per two
        "x = " + "- " * (MAX_NESTING - 1) + "f" + "()" * ((size - MAX_NESTING - 2) // 2),
        "if a {" * (size // 4) + "}" * (size // 4),
        "x = " + "+".join(["1"] * (size // 2)),
        "x = a" + ".b" * (size // 2),
        "x = f" + "()" * (size // 2),
    ]

    def from_deep_stack(text: str, frames: int) -> tuple[n.Block | None, int]:
        return from_deep_stack(text, frames - 1) if frames else lark(text)

    for text in texts:
        assert MAX_TOKENS - 6 <= len(re.findall(r"\d+|\w+|\.\.|\S", text)) <= MAX_TOKENS
        assert same_or_declined(text), text[:40]
        block, errors = from_deep_stack(text, 150)
        assert block is not None and errors == 0, text[:40]


def test_token_kinds_kept_between_texts_are_the_kinds_told_from_the_text() -> None:
    """dsl.effect_parser keeps the kind of each word and number it met (a card pool says the
    same ones thousands of times): texts read with that table empty, full, and full to its
    bound (nothing more kept) give the same trees, and the same as Lark's."""
    texts = shipped_effect_texts() + varied_texts(40, 7) + [
        "let to = top\nmove to to top of bottom", "x = 3abc = 4", "damage(you, -3) # 3"]
    fresh = dict(effect_parser._FIXED)
    with mock.patch.dict(effect_parser._KINDS, fresh, clear=True):
        cold = [parse_effect_fast(text, FILE, SHIFT) for text in texts]
        assert len(effect_parser._KINDS) > len(fresh)  # words and numbers were kept
        warm = [parse_effect_fast(text, FILE, SHIFT) for text in texts]
    with mock.patch.dict(effect_parser._KINDS, fresh, clear=True), \
            mock.patch.object(effect_parser, "_MAX_KINDS", len(fresh)):
        bounded = [parse_effect_fast(text, FILE, SHIFT) for text in texts]
        assert fresh == effect_parser._KINDS  # full: nothing more is kept
    for text, one, two, three in zip(texts, cold, warm, bounded, strict=True):
        assert one is not None, text
        assert one == two == three, text
        assert same_or_declined(text), text
