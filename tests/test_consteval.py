"""Card `require` rules compiled into closures (compiler.consteval.compile_rule) give exactly what
the interpreter (`evaluate`) gives: differential tests on the real rulebook's rules and cards,
and on random expressions over its fields, options and enum members (unknown names, wrong
types, division by zero and builtins misused included)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from compiler.consteval import compile_rule, evaluate
from compiler.driver import check_rulebook
from compiler.model import GameModel, RecordInfo
from compiler.types import EffectT
from dsl import nodes as n
from dsl.source import Span

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules"
AT = Span.point("test")
OPS = ("and", "or", "==", "!=", "in", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "..")
FUNCS = ("size", "abs", "min", "max", "first")


@pytest.fixture(scope="module")
def model() -> GameModel:
    compilation = check_rulebook(RULES)
    assert compilation.ok and compilation.model is not None
    return compilation.model


def card_record(model: GameModel) -> RecordInfo:
    return next(r for r in model.records.values() if r.is_card and r.requires)


def data_fields(record: RecordInfo) -> dict[str, object]:
    return {name: f for name, f in record.data_fields().items()
            if not isinstance(f.type, EffectT)}


def card_values(record: RecordInfo) -> list[dict[str, n.Expr | None]]:
    data = data_fields(record)
    return [{name: entry.values.get(name, record.fields[name].default) for name in data}
            for entry in record.entries]


def outcome(func: Callable[..., object], *args: object) -> object:
    """What a call gives, or the type of what it raises."""
    try:
        return ("value", func(*args))
    except Exception as error:  # noqa: BLE001 - compared, not handled
        return ("raises", type(error))


def random_expr(rng: random.Random, names: list[str], depth: int = 0) -> n.Expr:
    leaf = depth > 4 or rng.random() < 0.3
    if leaf:
        kind = rng.randrange(5)
        if kind == 0:
            return n.IntLit(rng.randint(-3, 12), span=AT)
        if kind == 1:
            return n.BoolLit(rng.random() < 0.5, span=AT)
        if kind == 2:
            return n.StrLit(rng.choice(["a", "spell"]), span=AT)
        if kind == 3:
            return n.NoneLit(span=AT)
        return n.Name(rng.choice(names), span=AT)
    kind = rng.randrange(7)
    sub = [random_expr(rng, names, depth + 1) for _ in range(3)]
    if kind == 0:
        return n.ListLit(tuple(sub[: rng.randrange(4)]), span=AT)
    if kind == 1:
        return n.Not(sub[0], span=AT)
    if kind == 2:
        return n.Negate(sub[0], span=AT)
    if kind == 3:
        return n.Conditional(sub[0], sub[1], sub[2], span=AT)
    if kind == 4:
        return n.Call(rng.choice(FUNCS), AT, tuple(sub[: rng.randrange(1, 3)]), span=AT)
    if kind == 5:
        return n.PlayersRef(span=AT)  # never constant
    return n.BinaryOp(rng.choice(OPS), sub[0], sub[1], span=AT)


def test_the_real_card_rules_compile_to_what_the_interpreter_says(model: GameModel) -> None:
    record = card_record(model)
    fields = data_fields(record)
    for rule in record.requires:
        compiled = compile_rule(rule.cond, fields, model)
        assert compiled is not None
        for values in card_values(record):
            assert compiled(values) == evaluate(rule.cond, values, model)


@pytest.mark.parametrize("seed", range(4))
def test_random_rules_compile_to_what_the_interpreter_says(model: GameModel, seed: int) -> None:
    rng = random.Random(seed)
    record = card_record(model)
    fields = data_fields(record)
    members = [m for enum in model.enums.values() for m in enum.members][:20]
    names = [*fields, *model.options, *members, "no_such_name"]
    cards = card_values(record)
    for _ in range(400):
        expr = random_expr(rng, names)
        compiled = compile_rule(expr, fields, model)
        assert compiled is not None
        for values in rng.sample(cards, 5):
            expected = outcome(evaluate, expr, values, model)
            got = outcome(compiled, values)
            assert got == expected, expr
