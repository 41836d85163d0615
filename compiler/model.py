"""The checked game model: what resolve and typecheck learn, and what both generators read."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from compiler.symbols import SymbolTable
from compiler.types import Type
from dsl import nodes as n
from dsl.source import SourceFile, Span


@dataclass
class FieldInfo:
    name: str
    type: Type
    per_player: bool
    default: n.Expr | None
    visibility: str
    span: Span
    doc: str = ""
    type_expr: n.TypeExpr | None = None
    per_card: bool = False  # state of each physical card, not data of its definition
    per_team: bool = False  # a player field whose value the teammates share


@dataclass
class OptionInfo:
    name: str
    type: Type
    default: n.Expr
    description: str
    span: Span


@dataclass
class EnumInfo:
    name: str
    members: list[str]
    span: Span
    doc: str = ""
    member_spans: list[Span] = field(default_factory=list)  # where each member is declared


@dataclass
class EntryInfo:
    name: str
    values: dict[str, n.Expr]
    description: str
    span: Span


@dataclass
class RecordInfo:
    name: str
    fields: dict[str, FieldInfo]
    is_card: bool
    span: Span
    doc: str = ""
    entries: list[EntryInfo] = field(default_factory=list)
    requires: list[n.CardRequire] = field(default_factory=list)
    # The distinct effect texts the entries give each field, by id, in the order of the
    # entries: kept by resolve as it adds entries, so that no later pass looks at every value
    # of every card to find the few effects.
    effect_texts: dict[str, dict[int, n.Block]] = field(default_factory=dict)
    # Entries a card set gives but that were dropped for errors as it was read.
    rejected_entries: set[str] = field(default_factory=set)
    # `card Unit face "unit.svg.j2"`: the face layout's file, checked to be inside the
    # rulebook's folder (None: the type's default layout)
    face: Path | None = None

    def data_fields(self) -> dict[str, FieldInfo]:
        """Fields every definition gives a value for (not the per-card state)."""
        return {name: f for name, f in self.fields.items() if not f.per_card}

    def entry_names(self) -> list[str]:
        return [entry.name for entry in self.entries]


@dataclass
class BoardInfo:
    name: str
    kind: str  # graph, grid, hex
    nodes: list[str]
    neighbours: list[list[int]]
    fields: dict[str, FieldInfo]
    span: Span
    doc: str = ""
    source: str = ""  # the map file, when the board is loaded from one
    coords: list[tuple[int, int]] = field(default_factory=list)
    # A grid's words for a row and a column (`rows "row" columns "lane"`), and whether it is
    # one side per player facing the other across rows A (`facing`): for its drawings.
    row_word: str = ""
    column_word: str = ""
    facing: bool = False
    # Values a map file gives each node for some fields (a hex map's terrain), as written.
    initial: dict[str, list[str | int | bool]] = field(default_factory=dict)
    # where the map file writes each (field, value), and each field first, for its diagnostics
    value_spans: dict[tuple[str, str | int | bool], Span] = field(default_factory=dict)
    field_spans: dict[str, Span] = field(default_factory=dict)

    def distances(self) -> list[list[int]]:
        """All-pairs distances, computed at compile time: on a hex map the geometric distance
        (holes and terrain do not lengthen it), elsewhere shortest paths (-1: unreachable)."""
        if self.kind == "hex":
            cubes = [hex_cube(r, c) for r, c in self.coords]
            return [[max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) for b in cubes]
                    for a in cubes]
        table: list[list[int]] = []
        for start in range(len(self.nodes)):
            row = [-1] * len(self.nodes)
            row[start] = 0
            frontier = [start]
            while frontier:
                following: list[int] = []
                for node in frontier:
                    for other in self.neighbours[node]:
                        if row[other] < 0:
                            row[other] = row[node] + 1
                            following.append(other)
                frontier = following
            table.append(row)
        return table


def hex_cube(row: int, column: int) -> tuple[int, int, int]:
    """Cube coordinates of a hex in an "odd-r" map (odd rows shifted half a hex right)."""
    x = column - (row - (row & 1)) // 2
    return x, row, -x - row


def hex_neighbour_offsets(row: int) -> tuple[tuple[int, int], ...]:
    """(row, column) steps to the six neighbours of a hex in an odd-r map."""
    if row & 1:
        return ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1))
    return ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0))


@dataclass
class ZoneInfo:
    name: str
    card_type: str
    ordered: bool
    visibility: str
    per: list[str]  # "player", or the name of a board or enum
    capacity: int | None
    span: Span
    doc: str = ""
    # `per team`: its "player" key is any player of the team, and the team's cards lie in
    # the slot of its captain (the first seat of the team); the owner of that slot is its team
    per_team: bool = False

    def per_words(self) -> list[str]:
        """Its `per` clauses as the rulebook writes them: "team" for the key of a `per team`
        zone, which is a player's."""
        return ["team" if self.per_team and per == "player" else per for per in self.per]


@dataclass
class CallableInfo:
    name: str
    params: list[tuple[str, Type]]
    span: Span
    decl: n.FunctionDecl | n.ProcedureDecl | n.EventDecl
    returns: Type | None = None
    doc: str = ""


@dataclass
class ActionInfo:
    name: str
    phase: str
    params: list[tuple[str, Type, n.Expr | None]]
    decl: n.ActionDecl
    requires: list[n.Require] = field(default_factory=list)
    effects: list[n.Stmt] = field(default_factory=list)


@dataclass
class PhaseInfo:
    name: str
    decl: n.PhaseDecl
    actions: list[ActionInfo] = field(default_factory=list)


@dataclass
class GameModel:
    sources: dict[str, SourceFile]
    modules: list[n.Module]
    name: str = ""
    title: str = ""
    doc: str = ""
    source_file: str = ""
    game_span: Span | None = None
    min_players: int = 2
    max_players: int = 2
    # every count of players the game is for, ascending (`players 2..4, 6`: 2, 3, 4, 6)
    player_counts: list[int] = field(default_factory=lambda: [2])
    # `players 3..4 if mode == royale`: each line's counts and the condition they hold under;
    # the counts of a line without `if` are `always_counts` (the game is for every one of both)
    count_lines: list[tuple[list[int], n.Expr, Span]] = field(default_factory=list)
    always_counts: list[int] = field(default_factory=list)
    # `teams of EXPR` (its size) or `teams [A, C], [B, D]` (seats by team); neither: no teams
    team_size: n.Expr | None = None
    team_seats: list[list[int]] = field(default_factory=list)
    player_names: list[str] = field(default_factory=list)
    # `names 2: N, S; 4: ...`: the seats of each count (empty: every count seats the first
    # player_names, which are then the names of the largest count)
    seat_names: dict[int, list[str]] = field(default_factory=dict)
    # Where each name is declared (none: the names are the default A, B, ...).
    player_spans: list[Span] = field(default_factory=list)
    options: dict[str, OptionInfo] = field(default_factory=dict)
    enums: dict[str, EnumInfo] = field(default_factory=dict)
    records: dict[str, RecordInfo] = field(default_factory=dict)
    boards: dict[str, BoardInfo] = field(default_factory=dict)
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    game_fields: dict[str, FieldInfo] = field(default_factory=dict)
    player_fields: dict[str, FieldInfo] = field(default_factory=dict)
    events: dict[str, CallableInfo] = field(default_factory=dict)
    functions: dict[str, CallableInfo] = field(default_factory=dict)
    procedures: dict[str, CallableInfo] = field(default_factory=dict)
    triggers: list[n.TriggerDecl] = field(default_factory=list)
    checkpoints: list[n.CheckpointDecl] = field(default_factory=list)
    setup: n.SetupDecl | None = None
    phases: dict[str, PhaseInfo] = field(default_factory=dict)
    seeds: list[n.SeedDecl] = field(default_factory=list)
    decisions: list[n.DecisionDecl] = field(default_factory=list)
    keywords: dict[str, n.KeywordDecl] = field(default_factory=dict)
    deck_rules: n.DeckDecl | None = None
    diagrams: list[n.DiagramDecl] = field(default_factory=list)  # drawn in the rulebook
    decks: list[n.DeckList] = field(default_factory=list)  # the shipped *.deck.yaml files
    card_sets: list[str] = field(default_factory=list)  # source names of *.cards.yaml files
    # A game whose hex board lists more maps has variants: (module name, map file) each.
    variants: list[tuple[str, str]] = field(default_factory=list)
    # Filled by typecheck: the type of every expression and what every name, attribute, index
    # and call refers to, keyed by id() of the AST node (nodes compare by value, so equal nodes
    # must not collide).
    types: dict[int, Type] = field(default_factory=dict)
    symbols: SymbolTable = field(default_factory=SymbolTable)
    # Uses of an optional value that a `!= none` test has narrowed to its inner type.
    narrowed: set[int] = field(default_factory=set)

    def type_of(self, expr: n.Expr) -> Type:
        return self.types[id(expr)]

    @property
    def has_out(self) -> bool:
        """Whether players may be out (a player field `out`, docs/language.md "Out"): the
        runtime then keeps the order they went out in and refuses them as actors."""
        return "out" in self.player_fields

    def entry_names(self, record: str) -> list[str]:
        return [e.name for e in self.records[record].entries]

    def doc_above(self, span: Span) -> str:
        """The `##` lines right above a declaration that starts its line (annotation lines may
        stand between them), joined as the parser joins them: the doc of what the declaration
        holds that has no doc of its own in the model (an enum member, say)."""
        source = self.sources.get(span.file)
        if source is None or source.line(span.line)[: span.column - 1].strip():
            return ""
        lines: list[str] = []
        number = span.line - 1
        while number > 0:
            text = source.line(number).strip()
            if text.startswith("##"):
                lines.append(text[2:].strip())
            elif not text.startswith("@"):
                break
            number -= 1
        return " ".join(reversed(lines))
