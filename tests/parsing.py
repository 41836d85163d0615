"""Helpers for the parser's tests (tests/test_parser*.py): parsing snippets, the one error of a
snippet, and `shape`, a readable picture of an expression.

Nodes compare by value and ignore spans, so most tests turn a node into a small nested tuple
(`shape`) that reads like the expected tree.
"""

from __future__ import annotations

import re

from dsl import nodes as n
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.keyword_lexer import lark_parser
from dsl.parser import parse
from dsl.source import SourceFile

HEADER = 'game g {\n  title "G"\n  players 2\n}\n\nstate {\n  x: int = 0\n}\n\n'


def parse_text(text: str, name: str = "snippet.rules") -> tuple[n.Module | None, list[Diagnostic]]:
    diagnostics = Diagnostics()
    module = parse(SourceFile(name, text), diagnostics)
    return module, diagnostics.sorted()


def parse_ok(text: str) -> n.Module:
    module, diagnostics = parse_text(text)
    assert module is not None and not diagnostics, [d.message for d in diagnostics]
    return module


def expression(text: str) -> n.Expr:
    """The body of `function f() -> int = TEXT`."""
    module = parse_ok(f"function f() -> int = {text}\n")
    decl = module.declarations[0]
    assert isinstance(decl, n.FunctionDecl)
    return decl.body


def statements(text: str) -> tuple[n.Stmt, ...]:
    """The statements of `setup { TEXT }`."""
    module = parse_ok("setup {\n" + text + "\n}\n")
    decl = module.declarations[0]
    assert isinstance(decl, n.SetupDecl)
    return decl.body.statements


def shape(node: object) -> object:
    """A readable nested-tuple picture of an expression."""
    if isinstance(node, n.Name):
        return node.id
    if isinstance(node, n.IntLit):
        return node.value
    if isinstance(node, n.BoolLit):
        return node.value
    if isinstance(node, n.NoneLit):
        return None
    if isinstance(node, n.ActorRef):
        return "actor"
    if isinstance(node, n.PlayersRef):
        return "players"
    if isinstance(node, n.BinaryOp):
        return (node.op, shape(node.left), shape(node.right))
    if isinstance(node, n.Not):
        return ("not", shape(node.operand))
    if isinstance(node, n.Negate):
        return ("neg", shape(node.operand))
    if isinstance(node, n.Conditional):
        return ("if", shape(node.cond), shape(node.then), shape(node.otherwise))
    if isinstance(node, n.Attribute):
        return (".", shape(node.obj), node.name)
    if isinstance(node, n.Index):
        return ("[]", shape(node.obj), *[shape(k) for k in node.keys])
    if isinstance(node, n.Call):
        return ("call", node.func, *[shape(a) for a in node.args])
    if isinstance(node, n.Aggregate):
        return ("agg", node.func, shape(node.element), node.var, shape(node.domain),
                shape(node.where) if node.where is not None else None)
    if isinstance(node, n.Range):
        return ("..", shape(node.low), shape(node.high))
    if isinstance(node, n.ListLit):
        return ["list", *[shape(i) for i in node.items]]
    raise AssertionError(f"no shape for {type(node).__name__}")


def only_error(text: str) -> Diagnostic:
    module, diagnostics = parse_text(text)
    assert module is None
    assert len(diagnostics) == 1, [d.message for d in diagnostics]
    return diagnostics[0]


def grammar_words() -> set[str]:
    return {t.pattern.value for t in lark_parser().terminals
            if t.pattern.type == "str" and re.fullmatch(r"[A-Za-z_]\w*", t.pattern.value)}
