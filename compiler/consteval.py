"""Compile-time evaluation of the constant expressions in card requirements.

A card type's `require` lines are tested on every definition when the cards are compiled, so a
card that can never be played is reported with the card set's line. Only what is known without a
game is allowed: literals, the card's own fields, options' defaults and enum members.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable

from compiler.model import GameModel
from dsl import nodes as n

Value = int | bool | str | None | tuple["Value", ...]


class _Unknown(Exception):  # noqa: N818 - internal signal: not a compile-time constant
    pass


def evaluate(expr: n.Expr, fields: dict[str, n.Expr | None], model: GameModel) -> Value | None:
    """The value of expr with the card's field values, or None when it is not constant."""
    try:
        return _Evaluator(fields, model).value(expr)
    except (_Unknown, RecursionError, ZeroDivisionError):
        return None


class _Evaluator:
    def __init__(self, fields: dict[str, n.Expr | None], model: GameModel) -> None:
        self.fields = fields
        self.model = model

    def value(self, e: n.Expr) -> Value:
        if isinstance(e, (n.IntLit, n.BoolLit, n.StrLit)):
            return e.value
        if isinstance(e, n.NoneLit):
            return None
        if isinstance(e, n.Name):
            return self.name(e.id)
        if isinstance(e, n.ListLit):
            return tuple(self.value(item) for item in e.items)
        if isinstance(e, n.Not):
            return not self.value(e.operand)
        if isinstance(e, n.Negate):
            return -self.int(e.operand)
        if isinstance(e, n.Conditional):
            return self.value(e.then) if self.value(e.cond) else self.value(e.otherwise)
        if isinstance(e, n.BinaryOp):
            return self.binary(e)
        if isinstance(e, n.Call) and e.func in _BUILTINS:
            return _builtin(e.func, [self.value(a) for a in e.args])
        raise _Unknown

    def name(self, name: str) -> Value:
        m = self.model
        if name in self.fields:
            given = self.fields[name]
            return None if given is None else self.value(given)
        if name in m.options:
            return self.value(m.options[name].default)
        for enum in m.enums.values():
            if name in enum.members:
                return f"{enum.name}.{name}"
        raise _Unknown

    def int(self, e: n.Expr) -> int:
        return _whole(self.value(e))

    def binary(self, e: n.BinaryOp) -> Value:
        if e.op == "and":
            return bool(self.value(e.left)) and bool(self.value(e.right))
        if e.op == "or":
            return bool(self.value(e.left)) or bool(self.value(e.right))
        if e.op in ("==", "!="):
            equal = self.value(e.left) == self.value(e.right)
            return equal if e.op == "==" else not equal
        if e.op == "in":
            container = self.value(e.right)
            if not isinstance(container, tuple):
                raise _Unknown
            return self.value(e.left) in container
        a, b = self.int(e.left), self.int(e.right)
        return _arithmetic(e.op, a, b)


_BUILTINS = ("size", "abs", "min", "max")


def _builtin(func: str, args: list[Value]) -> Value:
    """size, abs, min or max of evaluated arguments."""
    if func == "size":
        if len(args) == 1 and isinstance(args[0], tuple):
            return len(args[0])
        raise _Unknown  # a value of the wrong type, reported by the type checker
    ints = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
    if not ints or len(ints) != len(args):
        raise _Unknown
    if func == "abs" and len(ints) == 1:
        return abs(ints[0])
    if func == "min":
        return min(ints)
    if func == "max":
        return max(ints)
    raise _Unknown


def _whole(value: Value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Unknown
    return value


def _arithmetic(op: str, a: int, b: int) -> Value:
    """A comparison or arithmetic operator on two whole numbers."""
    apply = _OPERATORS.get(op)
    if apply is None:
        raise _Unknown
    return apply(a, b)


# The comparison and arithmetic operators on whole numbers (`/` rounds down, as in the rules).
_OPERATORS: dict[str, Callable[[int, int], Value]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv,
    "%": operator.mod,
}

_CONSTANT_NODES = (n.IntLit, n.BoolLit, n.StrLit, n.NoneLit, n.Name, n.ListLit, n.Not,
                   n.Negate, n.Conditional, n.BinaryOp, n.Call)


def constant_rule(expr: n.Expr, fields: set[str], model: GameModel) -> bool:
    """Can expr be evaluated from a card's own fields alone (what `evaluate` handles)?"""
    members = {m for enum in model.enums.values() for m in enum.members}
    for node in n.walk(expr):
        if not isinstance(node, _CONSTANT_NODES):
            return False
        if isinstance(node, n.Name) and not (
            node.id in fields or node.id in model.options or node.id in members
        ):
            return False
        if isinstance(node, n.Call) and node.func not in ("size", "abs", "min", "max"):
            return False
    return True


# ---- compiled rules ---------------------------------------------------------------------------
# A card type's rules are tested on every card: compiled once into closures, they skip the
# interpreter's dispatch on node types per card. Each closure does exactly what _Evaluator does
# for its node, in the same order (so the same exception escapes, if any).

Fields = dict[str, n.Expr | None]
Compiled = Callable[[Fields], Value]


def compile_rule(
    expr: n.Expr, field_names: Iterable[str], model: GameModel
) -> Callable[[Fields], Value | None] | None:
    """expr as a function of a card's field values (a dict with exactly the keys field_names)
    giving what `evaluate` gives; None when it cannot be compiled (then use `evaluate`)."""
    try:
        compiled = _Compiler(set(field_names), model).compile(expr)
    except RecursionError:
        return None

    def rule(fields: Fields) -> Value | None:
        try:
            return compiled(fields)
        except (_Unknown, RecursionError, ZeroDivisionError):
            return None

    return rule


class _Compiler:
    def __init__(self, field_names: set[str], model: GameModel) -> None:
        self.field_names = field_names
        self.model = model
        # What a bare word that names no field and no option stands for: an enum member (the
        # first enum's that has it), as _Evaluator.name finds it. Card values are mostly such
        # words; looked up here, they need no evaluator.
        self.members: dict[str, Value] = {}
        for enum in model.enums.values():
            for member in enum.members:
                if member not in field_names and member not in model.options:
                    self.members.setdefault(member, f"{enum.name}.{member}")
        # The compiled constants, with their values: an operator with a constant operand
        # (`cost <= 12`, `kind != spell`) uses the value instead of calling for it.
        self.constants: dict[Compiled, Value] = {}

    def compile(self, e: n.Expr) -> Compiled:
        if isinstance(e, (n.IntLit, n.BoolLit, n.StrLit)):
            return self.constant(e.value)
        if isinstance(e, n.NoneLit):
            return self.constant(None)
        if isinstance(e, n.Name):
            return self.name(e.id)
        if isinstance(e, n.ListLit):
            items = [self.compile(item) for item in e.items]
            return lambda f: tuple(item(f) for item in items)
        if isinstance(e, n.Not):
            operand = self.compile(e.operand)
            return lambda f: not operand(f)
        if isinstance(e, n.Negate):
            negated = self.compile(e.operand)
            return lambda f: -_whole(negated(f))
        if isinstance(e, n.Conditional):
            cond, then, otherwise = (self.compile(x) for x in (e.cond, e.then, e.otherwise))
            return lambda f: then(f) if cond(f) else otherwise(f)
        if isinstance(e, n.BinaryOp):
            return self.binary(e.op, self.compile(e.left), self.compile(e.right))
        if isinstance(e, n.Call) and e.func in _BUILTINS:
            func, args = e.func, [self.compile(a) for a in e.args]
            return lambda f: _builtin(func, [a(f) for a in args])
        return _unknown

    def constant(self, value: Value) -> Compiled:
        compiled = _constant(value)
        self.constants[compiled] = value
        return compiled

    def name(self, name: str) -> Compiled:
        m = self.model
        if name in self.field_names:
            return self.field(name)
        if name in m.options:
            return self.compile(m.options[name].default)
        for enum in m.enums.values():
            if name in enum.members:
                return self.constant(f"{enum.name}.{name}")
        return _unknown

    def field(self, name: str) -> Compiled:
        model, members = self.model, self.members

        def value(fields: Fields) -> Value:
            given = fields[name]
            if given is None:
                return None
            if isinstance(given, (n.IntLit, n.BoolLit, n.StrLit)):
                return given.value  # most card values: no evaluator needed
            if isinstance(given, n.Name):
                member = members.get(given.id)
                if member is not None:
                    return member
            return _Evaluator(fields, model).value(given)

        return value

    def binary(self, op: str, left: Compiled, right: Compiled) -> Compiled:
        if op == "and":
            return lambda f: bool(left(f)) and bool(right(f))
        if op == "or":
            return lambda f: bool(left(f)) or bool(right(f))
        if op in ("==", "!="):
            if right in self.constants:
                value = self.constants[right]
                if op == "==":
                    return lambda f: left(f) == value
                return lambda f: left(f) != value
            if op == "==":
                return lambda f: left(f) == right(f)
            return lambda f: left(f) != right(f)  # the same for these values
        if op == "in":
            return lambda f: _member(left, right(f), f)
        apply = _OPERATORS.get(op)
        if apply is None:
            return lambda f: _arithmetic(op, _whole(left(f)), _whole(right(f)))
        number = self.constants.get(right)
        if isinstance(number, int) and not isinstance(number, bool):
            fixed = number  # what _whole(right(f)) gives, every time
            return lambda f: apply(_whole(left(f)), fixed)
        return lambda f: apply(_whole(left(f)), _whole(right(f)))


def _constant(value: Value) -> Compiled:
    return lambda f: value


def _unknown(fields: Fields) -> Value:
    raise _Unknown


def _member(element: Compiled, container: Value, fields: Fields) -> Value:
    if not isinstance(container, tuple):
        raise _Unknown
    return element(fields) in container
