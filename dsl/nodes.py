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
class Expr(Node):
    pass


@dataclass(frozen=True, slots=True)
class IntLit(Expr):
    value: int


@dataclass(frozen=True, slots=True)
class StrLit(Expr):
    value: str


@dataclass(frozen=True, slots=True)
class BoolLit(Expr):
    value: bool


@dataclass(frozen=True, slots=True)
class NoneLit(Expr):
    pass


@dataclass(frozen=True, slots=True)
class Name(Expr):
    id: str


@dataclass(frozen=True, slots=True)
class DataWord(Expr):
    """A bare word from a data file: a name or a text, decided by the type of its field."""

    text: str


@dataclass(frozen=True, slots=True)
class ActorRef(Expr):
    pass


@dataclass(frozen=True, slots=True)
class PlayersRef(Expr):
    pass


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Attribute(Expr):
    obj: Expr
    name: str
    name_span: Span


@dataclass(frozen=True, slots=True)
class Index(Expr):
    obj: Expr
    keys: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: str
    func_span: Span
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Aggregate(Expr):
    """`sum(e for x in domain where cond)`: sum, count, min, max, any, all, first, list."""

    func: str
    func_span: Span
    element: Expr
    var: str
    domain: Expr
    where: Expr | None


@dataclass(frozen=True, slots=True)
class EffectCall(Expr):
    """`c.effect(actor, t)`: run the effect field of card instance c's definition."""

    card: Expr
    field: str
    field_span: Span
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Conditional(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True, slots=True)
class BinaryOp(Expr):
    op: str  # and or == != < <= > >= in + - * / %
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Negate(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Range(Expr):
    low: Expr
    high: Expr


# ---- statements -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Stmt(Node):
    annotations: tuple[Annotation, ...] = field(kw_only=True, default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Block(Node):
    statements: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class EffectLit(Expr):
    """An effect value: statements written as `{ ... }` in a rulebook or as text in a card set."""

    body: Block


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    target: Expr
    op: str  # = += -=
    value: Expr


@dataclass(frozen=True, slots=True)
class CallStmt(Stmt):
    call: Expr


@dataclass(frozen=True, slots=True)
class If(Stmt):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True, slots=True)
class For(Stmt):
    var: str
    domain: Expr
    where: Expr | None
    order_by: Expr | None
    descending: bool
    body: Block


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class Move(Stmt):
    what: Expr
    dest: Expr
    end: str | None  # "top", "bottom" or None (bottom)


@dataclass(frozen=True, slots=True)
class Draw(Stmt):
    count: Expr
    source: Expr
    dest: Expr


@dataclass(frozen=True, slots=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True, slots=True)
class Create(Stmt):
    what: Expr
    dest: Expr


@dataclass(frozen=True, slots=True)
class Reveal(Stmt):
    what: Expr


@dataclass(frozen=True, slots=True)
class Goto(Stmt):
    phase: str


@dataclass(frozen=True, slots=True)
class Win(Stmt):
    player: Expr


@dataclass(frozen=True, slots=True)
class Lose(Stmt):
    player: Expr


@dataclass(frozen=True, slots=True)
class DrawGame(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Raise(Stmt):
    event: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Require(Stmt):
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
