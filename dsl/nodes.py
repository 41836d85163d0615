"""The parsed AST: frozen dataclasses, each with the span it came from.

Class names match the grammar's rule names (grammar/rulecraft.lark) where a rule makes a node.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dsl.source import Span, faster_init


@dataclass(frozen=True, slots=True)
class Node:
    span: Span = field(kw_only=True, compare=False)


@dataclass(frozen=True, slots=True)
class Annotation(Node):
    rule: str


# ---- types ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TypeExpr(Node):
    pass


@dataclass(frozen=True, slots=True)
class NamedType(TypeExpr):
    name: str


@dataclass(frozen=True, slots=True)
class ListType(TypeExpr):
    element: TypeExpr


@dataclass(frozen=True, slots=True)
class OptionalType(TypeExpr):
    inner: TypeExpr


@dataclass(frozen=True, slots=True)
class Param(Node):
    name: str
    type: TypeExpr


@dataclass(frozen=True, slots=True)
class EffectType(TypeExpr):
    """`effect(you: player, target: Card?) reaches hand, deck`: rule text stored with a card."""

    params: tuple[Param, ...]
    reaches: tuple[tuple[str, Span], ...] | None


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


@dataclass(frozen=True, slots=True)
class Goto(StmtBase):
    phase: str


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


# ---- declarations -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Decl(Node):
    annotations: tuple[Annotation, ...] = field(kw_only=True, default=(), compare=False)
    doc: str = field(kw_only=True, default="", compare=False)


@dataclass(frozen=True, slots=True)
class OptionDecl(Node):
    name: str
    type: TypeExpr
    default: Expr
    description: str


@dataclass(frozen=True, slots=True)
class Game(Decl):
    name: str
    title: str
    min_players: int
    max_players: int
    player_names: tuple[str, ...]
    options: tuple[OptionDecl, ...]
    player_spans: tuple[Span, ...] = field(default=(), compare=False)  # of each name


@dataclass(frozen=True, slots=True)
class FieldDecl(Node):
    name: str
    type: TypeExpr
    per_player: bool
    default: Expr | None
    visibility: str  # public, secret (owner only), hidden
    per_card: bool = field(default=False, kw_only=True)  # state of each physical card


@dataclass(frozen=True, slots=True)
class EnumDecl(Decl):
    name: str
    members: tuple[tuple[str, Span], ...]


@dataclass(frozen=True, slots=True)
class CardRequire(Node):
    """`require cost <= 12 else "..."` in a card type: every definition must satisfy it."""

    cond: Expr
    message: str


@dataclass(frozen=True, slots=True)
class RecordDecl(Decl):
    name: str
    fields: tuple[FieldDecl, ...]
    is_card: bool
    requires: tuple[CardRequire, ...] = ()


@dataclass(frozen=True, slots=True)
class KeywordDecl(Decl):
    """`keyword trample "reminder text"`: a value of the built-in type `keyword`."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class DeckDecl(Decl):
    """`deck Card { require ... }`: deck-construction rules; `cards` is the deck's list."""

    card_type: str
    card_type_span: Span
    body: Block


@dataclass(frozen=True, slots=True)
class FieldValue(Node):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Entry(Node):
    name: str
    values: tuple[FieldValue, ...]
    description: str


@dataclass(frozen=True, slots=True)
class DataDecl(Decl):
    type_name: str
    entries: tuple[Entry, ...]
    # The names of cards a card set gives but that were dropped for errors while it was read
    # (an effect that does not parse): they exist, so a deck listing one is not wrong.
    rejected: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardsDecl(Decl):
    path: str


@dataclass(frozen=True, slots=True)
class DecksDecl(Decl):
    """`decks "decks"`: the folder of `*.deck.yaml` files that `rulecraft check` validates."""

    path: str


@dataclass(frozen=True, slots=True)
class DeckEntry(Node):
    card: str
    count: int


@dataclass(frozen=True, slots=True)
class DeckList(Node):
    """A `*.deck.yaml` file: card names and counts, spans in the YAML file."""

    name: str
    title: str
    entries: tuple[DeckEntry, ...]


@dataclass(frozen=True, slots=True)
class BoardShape(Node):
    pass


@dataclass(frozen=True, slots=True)
class GraphFile(BoardShape):
    path: str


@dataclass(frozen=True, slots=True)
class GraphInline(BoardShape):
    edges: tuple[tuple[str, str], ...]
    nodes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GridShape(BoardShape):
    rows: int
    columns: int


@dataclass(frozen=True, slots=True)
class HexFile(BoardShape):
    path: str
    variants: tuple[str, ...] = ()  # more maps: each one a variant of the game (its own module)


@dataclass(frozen=True, slots=True)
class BoardDecl(Decl):
    name: str
    shape: BoardShape
    fields: tuple[FieldDecl, ...]


@dataclass(frozen=True, slots=True)
class ZoneDecl(Decl):
    name: str
    card_type: str
    card_type_span: Span
    ordered: bool
    visibility: str  # public, hidden, owner, secret
    per: tuple[tuple[str, Span], ...]
    capacity: int | None


@dataclass(frozen=True, slots=True)
class StateDecl(Decl):
    fields: tuple[FieldDecl, ...]


@dataclass(frozen=True, slots=True)
class PlayerDecl(Decl):
    fields: tuple[FieldDecl, ...]


@dataclass(frozen=True, slots=True)
class EventDecl(Decl):
    name: str
    params: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class TriggerDecl(Decl):
    name: str
    event: str
    event_span: Span
    when: Expr | None
    body: Block


@dataclass(frozen=True, slots=True)
class FunctionDecl(Decl):
    name: str
    params: tuple[Param, ...]
    returns: TypeExpr
    body: Expr


@dataclass(frozen=True, slots=True)
class ProcedureDecl(Decl):
    name: str
    params: tuple[Param, ...]
    body: Block


@dataclass(frozen=True, slots=True)
class SetupDecl(Decl):
    body: Block


@dataclass(frozen=True, slots=True)
class CheckpointDecl(Decl):
    name: str
    body: Block


@dataclass(frozen=True, slots=True)
class ActionParam(Node):
    name: str
    type: TypeExpr
    domain: Expr | None


@dataclass(frozen=True, slots=True)
class ActionDecl(Decl):
    name: str
    params: tuple[ActionParam, ...]
    says: str | None
    says_span: Span | None
    body: Block


@dataclass(frozen=True, slots=True)
class PhaseDecl(Decl):
    name: str
    enter: Block | None
    done: Block | None
    actor: Expr | None
    actions: tuple[ActionDecl, ...]
    checkpoints: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class SeedRule(Node):
    id: str
    text: str
    omitted: str | None


@dataclass(frozen=True, slots=True)
class SeedDecl(Decl):
    path: str
    rules: tuple[SeedRule, ...]


@dataclass(frozen=True, slots=True)
class DecisionDecl(Decl):
    id: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Module(Node):
    """One parsed source file."""

    declarations: tuple[Decl, ...]


# Every expression and every statement, by class: a dispatch on a node's class (`match` with a
# case per class, ending in `assert_never`) is checked by mypy to cover each of them.
Expr = (
    IntLit | StrLit | BoolLit | NoneLit | Name | DataWord | ActorRef | PlayersRef | ListLit
    | Attribute | Index | Call | Aggregate | EffectCall | Conditional | BinaryOp | Not | Negate
    | Range | EffectLit
)
Stmt = (
    Let | Assign | CallStmt | If | For | Repeat | Move | Draw | Shuffle | Create | Reveal
    | Goto | Win | Lose | DrawGame | Raise | Require
)


# Nodes are built by the hundred thousand for a big card set: see faster_init.
for _class in list(globals().values()):
    if isinstance(_class, type) and issubclass(_class, Node):
        faster_init(_class)
del _class


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# Fields declared with these types never hold a node, so they are not looked into: most nodes
# of a card set are literals and names, whose fields are all such.
_NODELESS_TYPES = frozenset({
    "str", "int", "bool", "str | None", "int | None", "Span", "Span | None", "tuple[str, ...]",
    "tuple[Span, ...]",
    "tuple[tuple[str, str], ...]", "tuple[tuple[str, Span], ...]",
    "tuple[tuple[str, Span], ...] | None",
})


def children(node: Node) -> list[Node]:
    """The direct child nodes of any AST node, in source order."""
    names = _CHILD_FIELDS.get(type(node))
    if names is None:
        names = tuple(f.name for f in node.__dataclass_fields__.values()
                      if f.name not in ("span", "annotations") and f.type not in _NODELESS_TYPES)
        _CHILD_FIELDS[type(node)] = names
    if not names:
        return []
    found: list[Node] = []
    for name in names:
        value = getattr(node, name)
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple) and value:
            _collect(value, found)
    return found


def _collect(values: tuple[object, ...], found: list[Node]) -> None:
    for value in values:
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple):
            _collect(value, found)


def walk(node: Node) -> list[Node]:
    """Every node below and including `node`, iteratively (no recursion limit)."""
    order: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        order.append(current)
        stack.extend(reversed(children(current)))
    return order
