"""The typecheck pass's ground floor: scopes, contexts, and what every part of the checker shares.

The checker is made of one class per kind of thing it checks (check_expressions, check_statements,
check_data, check_actions, check_termination), each built on the ones below it; compiler.typecheck
combines them. CheckerBase holds the model, the diagnostics and the call graph that bodies add to,
and the reporting helpers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from compiler import symbols as sym
from compiler import types as t
from compiler.model import GameModel
from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.source import Span


@dataclass
class Scope:
    names: dict[str, tuple[t.Type, sym.Bound]] = field(default_factory=dict)  # type, symbol
    narrowed: dict[str, t.Type] = field(default_factory=dict)
    parent: Scope | None = None

    def lookup(self, name: str) -> tuple[t.Type, sym.Bound] | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def narrowed_type(self, key: str) -> t.Type | None:
        scope: Scope | None = self
        while scope is not None:
            if key in scope.narrowed:
                return scope.narrowed[key]
            scope = scope.parent
        return None

    def child(self) -> Scope:
        return Scope(parent=self)

    def all_names(self) -> list[str]:
        names: list[str] = []
        scope: Scope | None = self
        while scope is not None:
            names.extend(scope.names)
            scope = scope.parent
        return names


@dataclass(frozen=True)
class Context:
    kind: str  # setup, enter, done, action, checkpoint, procedure, function, trigger, constant,
    #            effect, deck
    actor: bool = False
    effects: bool = True
    reaches: tuple[str, ...] | None = None  # an effect may name only these zones
    in_loop: bool = False  # inside a `for` or `repeat`, where `break` may stand


class CheckerBase:
    """What every part of the checker shares: the model and diagnostics, the call graph
    that bodies add to, and the reporting helpers."""

    def __init__(self, model: GameModel, diagnostics: Diagnostics) -> None:
        self.model = model
        self.diagnostics = diagnostics
        self.calls: dict[str, set[str]] = {}  # callable → callables its body calls
        self.spans: dict[str, Span] = {}  # where each effect node of the call graph is declared
        self.current: str | None = None  # the callable whose body is being checked

    # ---- reporting helpers
    def error(self, code: str, span: Span, message: str, hint: str | None = None) -> t.Type:
        self.diagnostics.add(code, span, message, hint=hint)
        return t.ANY

    def expect(self, expr: n.Expr, actual: t.Type, wanted: t.Type, what: str) -> None:
        if not t.assignable(actual, wanted):
            if isinstance(actual, t.OptionT) and t.assignable(actual.inner, wanted):
                self.error(
                    "E0202",
                    expr.span,
                    f"{what} may be none here, but {wanted} is required",
                    hint="test it first: if x != none { ... }",
                )
            else:
                self.error("E0201", expr.span, f"{what} must be {wanted}, not {actual}")

    @contextmanager
    def body_of(self, name: str) -> Iterator[None]:
        previous, self.current = self.current, name
        self.calls.setdefault(name, set())
        try:
            yield
        finally:
            self.current = previous

    # ---- scopes
    def params_scope(self, params: list[tuple[str, t.Type]], decls: Sequence[n.Param],
                     declared: Span) -> Scope:
        """A scope of the parameters, each declared by its node in decls (or at `declared`,
        the declaration they belong to, when it has none)."""
        scope = Scope()
        for i, (name, type_) in enumerate(params):
            span = decls[i].span if i < len(decls) else declared
            scope.names[name] = (type_, sym.Parameter(name, span))
        return scope
