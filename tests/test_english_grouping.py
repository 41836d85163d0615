"""The rules in English keep the grouping of the source.

English has no operator precedence: "A or B and C" can be read either way. So the property is
checked by reading the words back with a reader that knows none either: a chain of `and`s and
`or`s must use one word throughout unless parentheses group it, and `not` takes what follows it
in parentheses or a single condition. Read that way, the English must mean what the source means
(same truth table). Arithmetic is read with the usual school precedence (times before plus and
minus, left to right), and must give the same value as the source.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.english import English
from compiler.model import GameModel
from dsl import nodes as n
from dsl.source import Span

SPAN = Span("test.rules", 1, 1, 1, 1)
ENGLISH = English(GameModel(sources={}, modules=[]))
CONDITIONS = ["a", "b", "c", "d"]


def name(text: str) -> n.Name:
    return n.Name(text, span=SPAN)


def condition(text: str) -> n.Expr:
    return n.BinaryOp("==", name(text), n.IntLit(1, span=SPAN), span=SPAN)


def conditions() -> st.SearchStrategy[n.Expr]:
    leaves = st.sampled_from(CONDITIONS).map(condition)

    def extend(children: st.SearchStrategy[n.Expr]) -> st.SearchStrategy[n.Expr]:
        both = st.tuples(st.sampled_from(["and", "or"]), children, children)
        return st.one_of(
            both.map(lambda t: n.BinaryOp(t[0], t[1], t[2], span=SPAN)),
            children.map(lambda c: n.Not(c, span=SPAN)),
        )

    return st.recursive(leaves, extend, max_leaves=8)


def truth(e: n.Expr, values: dict[str, bool]) -> bool:
    if isinstance(e, n.Not):
        return not truth(e.operand, values)
    assert isinstance(e, n.BinaryOp)
    if e.op == "==":
        assert isinstance(e.left, n.Name)
        return values[e.left.id]
    left, right = truth(e.left, values), truth(e.right, values)
    return left and right if e.op == "and" else left or right


_CONDITION_WORDS = re.compile(r"\*([a-d])\* is 1|\(|\)|\band\b|\bor\b|\bnot\b|\S+")


class StrictReader:
    """Reads conditions in words with no precedence between 'and' and 'or'."""

    def __init__(self, text: str) -> None:
        self.tokens = [m.group(1) or m.group(0) for m in _CONDITION_WORDS.finditer(text)]
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def whole(self) -> object:
        tree = self.chain()
        assert self.peek() is None, f"words left over at {self.tokens[self.at:]}"
        return tree

    def chain(self) -> object:
        items = [self.unary()]
        words: set[str] = set()
        while self.peek() in ("and", "or"):
            words.add(self.take())
            items.append(self.unary())
        assert len(words) <= 1, f"'and' and 'or' mixed without grouping in {self.tokens}"
        return (words.pop(), items) if words else items[0]

    def unary(self) -> object:
        token = self.take()
        if token == "not":
            return ("not", self.unary())
        if token == "(":
            inner = self.chain()
            assert self.take() == ")"
            return inner
        assert token in CONDITIONS, f"unexpected word {token!r}"
        return token


def read_truth(tree: object, values: dict[str, bool]) -> bool:
    if isinstance(tree, str):
        return values[tree]
    assert isinstance(tree, tuple)
    word, operand = tree
    if word == "not":
        return not read_truth(operand, values)
    results = [read_truth(item, values) for item in operand]
    return all(results) if word == "and" else any(results)


# 100 examples in the default tier, 1,000 in the soak tier
@settings(max_examples=100, deadline=None)
@given(conditions())
def test_conditions_in_words_mean_what_the_source_means(e: n.Expr) -> None:
    conditions_in_words_mean_what_the_source_means(e)


@pytest.mark.soak
@settings(max_examples=1000, deadline=None)
@given(conditions())
def test_conditions_in_words_mean_what_the_source_means_soak(e: n.Expr) -> None:
    conditions_in_words_mean_what_the_source_means(e)


def conditions_in_words_mean_what_the_source_means(e: n.Expr) -> None:
    text = ENGLISH.expr(e)
    tree = StrictReader(text).whole()
    for row in itertools.product([False, True], repeat=len(CONDITIONS)):
        values = dict(zip(CONDITIONS, row, strict=True))
        assert read_truth(tree, values) == truth(e, values), text


def test_the_issue_example_keeps_its_parentheses() -> None:
    # (dynasty == 3 or dynasty == 6) and abs(track) >= 9
    e = n.BinaryOp("and", n.BinaryOp("or", condition("a"), condition("b"), span=SPAN),
                   condition("c"), span=SPAN)
    assert ENGLISH.expr(e) == "(*a* is 1 or *b* is 1) and *c* is 1"


NUMBERS = {"a": 2, "b": 3, "c": 5, "d": 7}


def sums() -> st.SearchStrategy[n.Expr]:
    leaves = st.one_of(st.sampled_from(CONDITIONS).map(name),
                       st.integers(1, 9).map(lambda v: n.IntLit(v, span=SPAN)))
    return st.recursive(leaves, lambda children: st.tuples(
        st.sampled_from(["+", "-", "*"]), children, children).map(
        lambda t: n.BinaryOp(t[0], t[1], t[2], span=SPAN)), max_leaves=8)


def value(e: n.Expr) -> int:
    if isinstance(e, n.IntLit):
        return e.value
    if isinstance(e, n.Name):
        return NUMBERS[e.id]
    assert isinstance(e, n.BinaryOp)
    left, right = value(e.left), value(e.right)
    return {"+": left + right, "-": left - right, "*": left * right}[e.op]


def read_value(text: str) -> int:
    """Arithmetic in words, read with school precedence: the words become Python's operators."""
    spoken = {"plus": "+", "minus": "-", "times": "*"}
    python = []
    for token in re.findall(r"\*[a-d]\*|\d+|plus|minus|times|\(|\)|\S+", text):
        if token.startswith("*"):
            python.append(str(NUMBERS[token.strip("*")]))
        elif token in spoken:
            python.append(spoken[token])
        else:
            assert token.isdigit() or token in "()", f"unexpected word {token!r} in {text!r}"
            python.append(token)
    result = eval(" ".join(python), {"__builtins__": {}})  # noqa: S307 - digits and + - * ( ) only
    assert isinstance(result, int)
    return result


@settings(max_examples=100, deadline=None)
@given(sums())
def test_arithmetic_in_words_gives_the_source_value(e: n.Expr) -> None:
    arithmetic_in_words_gives_the_source_value(e)


@pytest.mark.soak
@settings(max_examples=1000, deadline=None)
@given(sums())
def test_arithmetic_in_words_gives_the_source_value_soak(e: n.Expr) -> None:
    arithmetic_in_words_gives_the_source_value(e)


def arithmetic_in_words_gives_the_source_value(e: n.Expr) -> None:
    text = ENGLISH.expr(e)
    assert read_value(text) == value(e), text
