"""The AST of rule code: expressions and statements, frozen dataclasses each with its span.

They are one module because they hold each other (a statement holds expressions; an effect
literal, an expression, holds a block of statements). `Expr` and `Stmt` name every class of
each. Every name here is also a name of dsl.nodes, which importers use (`n.IntLit`).
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same classes, made faster (see node_dataclass)
    from dsl.nodes_base import node_dataclass as dataclass

from dsl.nodes_base import Annotation, Node
from dsl.source import Span


# ---- expressions ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ExprBase(Node):
    """The base class of the expressions; in annotations, `Expr` (below) names them all."""


@dataclass(frozen=True, slots=True)
class IntLit(ExprBase):
    value: int


@dataclass(frozen=True, slots=True)
class StrLit(ExprBase):
    value: str


@dataclass(frozen=True, slots=True)
class BoolLit(ExprBase):
    value: bool


@dataclass(frozen=True, slots=True)
class NoneLit(ExprBase):
    pass


@dataclass(frozen=True, slots=True)
class Name(ExprBase):
    id: str


@dataclass(frozen=True, slots=True)
class DataWord(ExprBase):
    """A bare word from a data file: a name or a text, decided by the type of its field."""

    text: str


@dataclass(frozen=True, slots=True)
class ActorRef(ExprBase):
    pass


@dataclass(frozen=True, slots=True)
class PlayersRef(ExprBase):
    pass


@dataclass(frozen=True, slots=True)
class ListLit(ExprBase):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Attribute(ExprBase):
    obj: Expr
    name: str
    name_span: Span


@dataclass(frozen=True, slots=True)
class Index(ExprBase):
    obj: Expr
    keys: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Call(ExprBase):
    func: str
    func_span: Span
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Aggregate(ExprBase):
    """`sum(e for x in domain where cond)`: sum, count, min, max, any, all, first, list."""

    func: str
    func_span: Span
    element: Expr
    var: str
    domain: Expr
    where: Expr | None
    # `ordered by key [asc|desc]`: the order in which first, list and the rest see elements
    order_by: Expr | None = field(default=None, kw_only=True)
    descending: bool = field(default=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class EffectCall(ExprBase):
    """`c.effect(actor, t)`: run the effect field of card instance c's definition."""

    card: Expr
    field: str
    field_span: Span
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Conditional(ExprBase):
    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True, slots=True)
class BinaryOp(ExprBase):
    op: str  # and or == != < <= > >= in + - * / %
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Not(ExprBase):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Negate(ExprBase):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Range(ExprBase):
    low: Expr
    high: Expr


# ---- statements -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StmtBase(Node):
    """The base class of the statements; in annotations, `Stmt` (below) names them all."""

    annotations: tuple[Annotation, ...] = field(kw_only=True, default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Block(Node):
    statements: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class EffectLit(ExprBase):
    """An effect value: statements written as `{ ... }` in a rulebook or as text in a card set."""

    body: Block


@dataclass(frozen=True, slots=True)
class Let(StmtBase):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Assign(StmtBase):
    target: Expr
    op: str  # = += -=
    value: Expr


@dataclass(frozen=True, slots=True)
class CallStmt(StmtBase):
    call: Expr


@dataclass(frozen=True, slots=True)
class If(StmtBase):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True, slots=True)
class For(StmtBase):
    var: str
    domain: Expr
    where: Expr | None
    order_by: Expr | None
    descending: bool
    body: Block


@dataclass(frozen=True, slots=True)
class Repeat(StmtBase):
    count: Expr
    body: Block
    # `repeat N while C`: C is tested before each of the at most N runs
    while_: Expr | None


@dataclass(frozen=True, slots=True)
class Break(StmtBase):
    """Leaves the innermost `for` or `repeat`."""


@dataclass(frozen=True, slots=True)
class Move(StmtBase):
    what: Expr
    dest: Expr
    end: str | None  # "top", "bottom" or None (bottom)


@dataclass(frozen=True, slots=True)
class Draw(StmtBase):
    count: Expr
    source: Expr
    dest: Expr


@dataclass(frozen=True, slots=True)
class Shuffle(StmtBase):
    zone: Expr


@dataclass(frozen=True, slots=True)
class Create(StmtBase):
    what: Expr
    dest: Expr


@dataclass(frozen=True, slots=True)
class Reveal(StmtBase):
    what: Expr
    to: Expr | None = None  # a player: shown to that player only


@dataclass(frozen=True, slots=True)
class Goto(StmtBase):
    phase: str


@dataclass(frozen=True, slots=True)
class CallPhase(Goto):
    """`call PHASE`: a goto that `return` comes back from. A Goto to every pass that follows
    gotos (reachability, the turn diagram); only the generator tells them apart."""


@dataclass(frozen=True, slots=True)
class Return(StmtBase):
    """`return`: back to the phase that called this one, which goes on where it was."""


@dataclass(frozen=True, slots=True)
class Win(StmtBase):
    player: Expr


@dataclass(frozen=True, slots=True)
class Lose(StmtBase):
    player: Expr


@dataclass(frozen=True, slots=True)
class DrawGame(StmtBase):
    pass


@dataclass(frozen=True, slots=True)
class Raise(StmtBase):
    event: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Require(StmtBase):
    cond: Expr
    message: str


# Every expression and every statement, by class: a dispatch on a node's class (`match` with a
# case per class, ending in `assert_never`) is checked by mypy to cover each of them.
Expr = (
    IntLit | StrLit | BoolLit | NoneLit | Name | DataWord | ActorRef | PlayersRef | ListLit
    | Attribute | Index | Call | Aggregate | EffectCall | Conditional | BinaryOp | Not | Negate
    | Range | EffectLit
)
Stmt = (
    Let | Assign | CallStmt | If | For | Repeat | Move | Draw | Shuffle | Create | Reveal
    | Goto | Win | Lose | DrawGame | Raise | Require | Break | Return
)

