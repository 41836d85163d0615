"""The parsed AST: frozen dataclasses, each with the span it came from. Every node class is a
name of this module, which is how the compiler uses them (`from dsl import nodes as n`: `n.Game`,
`n.IntLit`, `n.Expr`, `n.walk`).

Class names match the grammar's rule names (grammar/rulecraft.lark) where a rule makes a node.
This module holds the declarations and the type expressions they use; the expressions and
statements are in dsl.nodes_code, the base class and the walk over a tree in dsl.nodes_base.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same classes, made faster (see node_dataclass)
    from dsl.nodes_base import node_dataclass as dataclass

from dsl.nodes_base import (
    Annotation,
    Node,
    child_fields,
    children,
    walk,
)
from dsl.nodes_code import (
    ActorRef,
    Aggregate,
    Assign,
    Attribute,
    BinaryOp,
    Block,
    BoolLit,
    Break,
    Call,
    CallPhase,
    CallStmt,
    Conditional,
    Create,
    DataWord,
    Draw,
    DrawGame,
    EffectCall,
    EffectLit,
    Expr,
    ExprBase,
    For,
    Goto,
    If,
    Index,
    IntLit,
    Let,
    ListLit,
    Lose,
    Move,
    Name,
    Negate,
    NoneLit,
    Not,
    PlayersRef,
    Raise,
    Range,
    Repeat,
    Require,
    Return,
    Reveal,
    Shuffle,
    Stmt,
    StmtBase,
    StrLit,
    Win,
)
from dsl.source import Span

__all__ = [
    "ActionDecl", "ActionParam", "ActorRef", "Aggregate", "Annotation", "Assign", "Attribute",
    "BinaryOp", "Block", "BoardDecl", "BoardShape", "BoolLit", "Break", "Call", "CallPhase",
    "CallStmt",
    "CardRequire", "CardsDecl", "CheckpointDecl", "Conditional", "Create", "DataDecl", "DataWord",
    "DecisionDecl", "DeckDecl", "DeckEntry", "DeckList", "DecksDecl", "Decl", "DiagramDecl", "Draw",
    "DrawGame", "EffectCall", "EffectLit", "EffectType", "Entry", "EnumDecl", "EventDecl", "Expr",
    "ExprBase",
    "FieldDecl", "FieldValue", "For", "FunctionDecl", "Game", "Goto", "GraphFile", "GraphInline",
    "GridShape", "HexFile", "If", "Index", "IntLit", "KeywordDecl", "Let", "ListLit", "ListType",
    "Lose", "Module", "Move", "Name", "NamedType", "Negate", "Node", "NoneLit", "SeatNames", "Not",
    "OptionDecl", "OptionalType", "Param", "PhaseDecl", "PlayerCounts", "PlayerDecl", "PlayersRef",
    "ProcedureDecl", "Raise", "Range", "RecordDecl", "Repeat", "Require", "Responders",
    "Return", "Reveal", "SeedDecl", "SeedRule", "SetupDecl", "Shuffle", "StateDecl", "Stmt",
    "StmtBase", "StrLit", "Teams", "TriggerDecl",
    "TypeExpr", "Win", "ZoneDecl", "child_fields", "children", "walk",
]


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
    # each range of `players 2..4, 6` as (low, high)
    counts: tuple[tuple[int, int], ...] = field(default=(), kw_only=True)
    teams: Teams | None = field(default=None, kw_only=True)
    # `names 2: N, S; 4: N, E, S, W`: the seats of each count, in the order written
    seat_names: tuple[SeatNames, ...] = field(default=(), kw_only=True)
    # `players 3..4 if mode == royale`: the lines of counts that hold under a condition
    conditional_counts: tuple[PlayerCounts, ...] = field(default=(), kw_only=True)


@dataclass(frozen=True, slots=True)
class SeatNames(Node):
    """The seat names of one player count (`4: North, East, South, West`)."""

    count: int
    names: tuple[str, ...]
    name_spans: tuple[Span, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class PlayerCounts(Node):
    """A `players ... if CONDITION` line: its counts hold when the condition on the options
    does."""

    counts: tuple[tuple[int, int], ...]
    condition: Expr


@dataclass(frozen=True, slots=True)
class Teams(Node):
    """`teams of EXPR` (size, read from the options at the start) or `teams [A, C], [B, D]`."""

    size: Expr | None
    seats: tuple[tuple[str, ...], ...]
    seat_spans: tuple[tuple[Span, ...], ...] = field(compare=False)


@dataclass(frozen=True, slots=True)
class FieldDecl(Node):
    name: str
    type: TypeExpr
    per_player: bool
    default: Expr | None
    visibility: str  # public, secret (owner only), hidden
    per_card: bool = field(default=False, kw_only=True)  # state of each physical card
    # a player field shared by the teammates: one value per team, read and written through any
    per_team: bool = field(default=False, kw_only=True)


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
    # `card Unit face "unit.svg.j2" {`: the card type's face layout, beside the rulebook
    face: str | None = None
    face_span: Span | None = None


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
class DiagramDecl(Decl):
    """`diagram "TITLE" { for V in ENUM from O in CELLS mark [opposing] T where COND }`: a
    drawing of the grid of CELLS in the rulebook, one small grid per member of ENUM (when
    given) and per origin O, with O and every cell T where COND holds marked, on the other
    side of a `facing` grid when `opposing`."""

    title: str
    each_var: str | None
    each_enum: str | None
    each_span: Span | None
    origin_var: str
    origins: Expr
    opposing: bool
    mark_var: str
    cond: Expr


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
    """A `*.deck.yaml` file: card names and counts, spans in the YAML file. `side` is the side
    deck (`side:`), never played; `side_span` is its key's, when the file has one."""

    name: str
    title: str
    entries: tuple[DeckEntry, ...]
    side: tuple[DeckEntry, ...] = ()
    side_span: Span | None = None


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
    """`grid R by C`, optionally `rows "WORD" columns "WORD"` (what the rulebook calls a row and
    a column, for its drawings) and `facing` (one side per player, the sides facing each other
    across their rows A, as `facing_distance` counts)."""

    rows: int
    columns: int
    row_word: str = ""
    column_word: str = ""
    facing: bool = False


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
    announced: bool = False  # named to every player in action_text (a guess, a target)


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
    responders: Responders | None = None


@dataclass(frozen=True, slots=True)
class Responders(Node):
    """`responders from START where COND`: every other player in turn order from START, each
    asked once, skipping those for whom COND (with `actor` standing for them) is false;
    `responders all from START` asks START too, last."""

    start: Expr
    where: Expr | None
    every: bool = False  # `all`: START is asked too, after everyone else


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

