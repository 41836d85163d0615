"""Compile-time evaluation of the constant expressions in card requirements.

A card type's `require` lines are tested on every definition when the cards are compiled, so a
card that can never be played is reported with the card set's line. Only what is known without a
game is allowed: literals, the card's own fields, options' defaults and enum members.
"""

from __future__ import annotations

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
        if isinstance(e, n.Call) and e.func in ("size", "abs", "min", "max"):
            args = [self.value(a) for a in e.args]
            if e.func == "size" and len(args) == 1 and isinstance(args[0], tuple):
                return len(args[0])
            if all(isinstance(a, int) and not isinstance(a, bool) for a in args) and args:
                ints = [a for a in args if isinstance(a, int)]
                return {"abs": lambda: abs(ints[0]), "min": lambda: min(ints),
                        "max": lambda: max(ints)}[e.func]()
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
        value = self.value(e)
        if not isinstance(value, int) or isinstance(value, bool):
            raise _Unknown
        return value

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
        if e.op in ("<", "<=", ">", ">="):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op]
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        if e.op == "/":
            return a // b
        if e.op == "%":
            return a % b
        raise _Unknown


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
