"""The Python generator's shared ground: helpers for Python types, codecs and names,
the bindings of one generated function, and GeneratorBase, the state and small methods that
every part of the generator (compiler.pygen_*) builds on."""

from __future__ import annotations

import linecache
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType, TracebackType

from compiler import types as t
from compiler.model import ActionInfo, FieldInfo, GameModel
from compiler.pygen_wrap import Writer
from compiler.text_templates import template_fields
from dsl import nodes as n
from dsl.runtime_base import COPY_CHOICES
from dsl.source import Span

VERSION = "0.1.0"


def grouped(code: str) -> str:
    """code as an operand of a tighter operator: parenthesized unless it is one name, number or
    bracketed group already (ruff flags doubled parentheses)."""
    if code.isidentifier() or code.isdigit():
        return code
    if code.startswith("(") and code.endswith(")"):
        depth = 0
        for i, char in enumerate(code):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth == 0 and i < len(code) - 1:
                break
        else:
            return code
    return f"({code})"


def ungrouped(code: str) -> str:
    """code as the only argument of a call: without the parentheses that wrap all of it, if
    any and it is no tuple (ruff flags `abs((a - b))`)."""
    if not (code.startswith("(") and grouped(code) == code):
        return code
    depth = 0
    for char in code[1:-1]:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            return code
    return code[1:-1]


def upper(name: str) -> str:
    return name.upper()


# The first words of the module's own names (K_PLAY, SLOT_NAMES, ...): an enum member's
# constant never starts with one, so it cannot take the place of one.
RESERVED_HEADS = frozenset({
    "K", "C", "R", "Z", "E", "N", "FX", "SLOT", "PLAYER", "NUM", "DEF", "DECK", "DECKS",
    "TERMINAL", "PHASES", "OPTIONS", "INFO", "ACTIONS", "LISTED",
})


def enum_constants(enums: Iterable[tuple[str, Sequence[str]]]) -> dict[tuple[str, int], str]:
    """The named constant of each enum member the code uses (`TILE_KIND_PLAGUE` for member
    plague of TileKind). A name that would start with a word of the module's own names, or that
    two members would share, is not given: those members stay numbers, so a name never means
    two things."""
    names: dict[tuple[str, int], str] = {}
    taken: dict[str, int] = {}
    for enum, members in enums:
        head = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", enum).upper()
        for index, member in enumerate(members):
            name = f"{head}_{member.upper()}"
            names[(enum, index)] = name
            taken[name] = taken.get(name, 0) + 1
    return {key: name for key, name in names.items()
            if taken[name] == 1 and name.split("_", 1)[0] not in RESERVED_HEADS
            and name.isidentifier()}


def py_type(type_: t.Type) -> str:
    if isinstance(type_, t.BoolT):
        return "bool"
    if isinstance(type_, t.TextT):
        return "str"
    if isinstance(type_, t.OptionT):
        return f"{py_type(type_.inner)} | None"
    if isinstance(type_, (t.ListT, t.PerPlayerT)):
        return f"list[{py_type(type_.element)}]"
    if isinstance(type_, t.NoneT):
        return "None"
    return "int"


def names_table(type_: t.Type) -> str | None:
    """The generated table of display names for values of this type, if it has one."""
    if isinstance(type_, t.PlayerT):
        return "PLAYER_NAMES"
    if isinstance(type_, t.EnumT):
        return f"E_{upper(type_.name)}_NAMES"
    if isinstance(type_, t.NodeT):
        return f"N_{upper(type_.board)}_NAMES"
    if isinstance(type_, t.RecordT):
        return f"R_{upper(type_.name)}_NAMES"
    if isinstance(type_, t.DefT):
        return "DEF_NAMES"
    return None


def codec(type_: t.Type, model: GameModel) -> str:
    """The runtime codec (see dsl.runtime_base.Codec) of a type, as Python source."""
    if isinstance(type_, t.OptionT):
        return f'("option", {codec(type_.inner, model)})'
    if isinstance(type_, (t.ListT, t.PerPlayerT)):
        return f'("list", {codec(type_.element, model)})'
    if isinstance(type_, t.PlayerT):
        return '("player",)'
    if isinstance(type_, t.BoolT):
        return '("bool",)'
    if isinstance(type_, t.TextT):
        return '("text",)'
    table = names_table(type_)
    if table is not None:
        return f'("names", {table})'
    if isinstance(type_, t.CardT):
        return '("card",)'
    return '("int",)'


def list_depth(info: FieldInfo, per: int) -> int:
    """How deep a state attribute's lists nest: one level per player/node, one per list."""
    depth = per + (1 if info.per_player else 0)
    return depth + (1 if isinstance(info.type, t.ListT) else 0)


def copy_expr(source: str, depth: int) -> str:
    if depth == 0:
        return source
    if depth == 1:
        return f"{source}[:]"
    var = f"x{depth}"
    return f"[{copy_expr(var, depth - 1)} for {var} in {source}]"



def run_in_memory(module: ModuleType, source: str, filename: str) -> None:
    """Run generated `source` as `module`'s code, its lines kept in linecache under `filename`:
    for tracebacks, and for the rulebook line of a rule that fails (runtime_base.rule_at)."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), module.__dict__)  # noqa: S102


@dataclass
class Bindings:
    """DSL names → Python names within one generated function (unique per binding)."""

    used: set[str] = field(default_factory=set)
    frames: list[dict[str, str]] = field(default_factory=lambda: [{}])

    def bind(self, name: str, python: str | None = None) -> str:
        """A new Python name for `name` (or the one `reserve` gave it)."""
        candidate = python or self.reserve(name)
        self.frames[-1][name] = candidate
        return candidate

    def reserve(self, name: str) -> str:
        """A new Python name for `name`, taken but not yet bound (a `let` binds its name after
        the value, which may read an earlier one of that name)."""
        candidate = f"v_{name}"
        k = 2
        while candidate in self.used:
            candidate = f"v_{name}_{k}"
            k += 1
        self.used.add(candidate)
        return candidate

    def lookup(self, name: str) -> str:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        raise KeyError(name)

    def frame(self) -> Frame:
        """`with bindings.frame():` names bound within are forgotten after it."""
        return Frame(self.frames)


class Frame:
    """Bindings.frame's context: a class, not a generator (a 10,000-card module opens 22,000
    frames, and the generator's machinery cost more than the frame)."""

    __slots__ = ("frames",)

    def __init__(self, frames: list[dict[str, str]]) -> None:
        self.frames = frames

    def __enter__(self) -> None:
        self.frames.append({})

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.frames.pop()


# "a" or "an" just before a field of a text: "a {k}".
ARTICLE = re.compile(r"(?:^|(?<=\s))(a|an|A|An)\s+$")


class GeneratorBase:
    """What every part of the Python generator shares: the model, the writer, the
    numbering of slots, definitions and actions, and how values read as text."""

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.w = Writer()
        self.bindings = Bindings()
        self.enum_constants = enum_constants(
            (enum.name, enum.members) for enum in model.enums.values())
        m = model
        self.max_players = m.max_players
        self.phase_index = {name: i for i, name in enumerate(m.phases)}
        self.card_types = [r for r in m.records.values() if r.is_card]
        self.def_offset: dict[str, int] = {}
        offset = 0
        for record in self.card_types:
            self.def_offset[record.name] = offset
            offset += len(record.entries)
        self.def_count = offset
        self.zone_base: dict[str, int] = {}
        self.zone_dims: dict[str, list[int]] = {}
        slots = 0
        for zone in m.zones.values():
            dims = [self.dimension(per) for per in zone.per]
            self.zone_base[zone.name] = slots
            self.zone_dims[zone.name] = dims
            size = 1
            for d in dims:
                size *= d
            slots += size
        self.slot_count = slots
        self.action_kinds: list[ActionInfo] = [a for p in m.phases.values() for a in p.actions]
        self.articled = self.articled_types()
        self.deck_types: dict[str, t.Type] = {}
        self.has_effects = any(isinstance(f.type, t.EffectT)
                               for r in self.card_types for f in r.fields.values())
        # the card tables to write (DEF_NAMES, C_...): None for all of them
        self.only_tables: frozenset[str] | None = None
        # With it, the card tables are not written but read from COLUMNS, which makes each
        # value from its source, the text this gives, when it is read: the deck checker of
        # `rulecraft check` reads a few cards' values, and compiling all of them took longer
        # than checking the decks (by table, a definition's number → its value's source).
        self.lazy_columns: dict[str, Callable[[int], str]] | None = None
        # what calling each function may do (ExpressionFacts.function_risk), once known
        self.function_risks: dict[str, int] = {}
        # whether calls of each function are its body (ExpressionFacts.inlinable), once known
        self.inlinable_functions: dict[str, bool] = {}
        # the test of each procedure that procedure_guard may make where it is called, or None
        # (ExpressionGenerator.guard_test), once known
        self.guard_tests: dict[str, n.Expr | None] = {}
        # the tests of a card's definition alone read from tables made at load: by test (its
        # source with `d` for the definition), the table's name (None: not made here, as in
        # listings and deck checkers, whose tables are needed before the end of the module)
        self.card_tests: dict[str, str] | None = None
        # whether a function reads a card parameter through its definition's data only, by
        # (function, index) (TableGenerator.parameter_by_definition), once known
        self.definition_parameters: dict[tuple[str, int], bool] = {}
        # the `if` that ends a repeated body, whose untaken turn ends the loop (idle_test)
        self.idle_ending: n.If | None = None
        # the areas (board, within or ring, radius) read from tables (area_table; radius -1:
        # ring at every distance, rings_row)
        self.areas: set[tuple[str, str, int]] = set()
        # the grid boards whose rows and columns the rules ask for (grid_tables)
        self.grids: set[str] = set()
        # the aggregates worked out by loops before the statement that reads them: by id,
        # the variable that holds the value (ExpressionGenerator.loop_aggregates)
        self.looped_values: dict[int, str] = {}
        # the parts of the listing's tests worked out outside their loops, by require
        # (ActionGenerator.settled_parts)
        self.listing_parts: dict[int, tuple[n.Require, int, int, str]] = {}
        # the `let` variables that some statement assigns (ExpressionGenerator.never_reassigned)
        self.assigned_lets: set[object] | None = None

    def dimension(self, per: str) -> int:
        m = self.model
        if per == "player":
            return self.max_players
        if per in m.boards:
            return len(m.boards[per].nodes)
        return len(m.enums[per].members)

    def dimension_names(self, per: str) -> str:
        if per == "player":
            return "PLAYER_NAMES"
        if per in self.model.boards:
            return f"N_{upper(per)}_NAMES"
        return f"E_{upper(per)}_NAMES"

    def articled_types(self) -> set[str]:
        """The tables (by prefix) of the enums and entries that some action's text or refusal
        writes after "a" or "an"."""
        found: set[str] = set()
        for action in self.action_kinds:
            types = {name: type_ for name, type_, _ in action.params}
            for text in [action.decl.says or "", *(r.message for r in action.requires)]:
                for start, _, name in template_fields(text):
                    type_ = types.get(name)
                    table = names_table(type_) if type_ is not None else None
                    if (isinstance(type_, (t.EnumT, t.RecordT)) and table is not None
                            and ARTICLE.search(text[:start])):
                        found.add(table.removesuffix("_NAMES"))
        return found

    def words_table(self, type_: t.Type) -> str | None:
        """The table a value of this type reads from in texts: its words, else its names."""
        table = names_table(type_)
        m = self.model
        names: Sequence[str] = ()
        if isinstance(type_, t.EnumT):
            names = m.enums[type_.name].members
        elif isinstance(type_, t.RecordT):
            names = [e.name for e in m.records[type_.name].entries]
        elif isinstance(type_, t.NodeT):
            names = m.boards[type_.board].nodes
        if table is not None and any("_" in name for name in names):
            return table.removesuffix("_NAMES") + "_WORDS"
        return table


    def type_bounds(self, type_: t.Type) -> tuple[int, int]:
        """(first value, number of values) of a type whose values are all known statically."""
        m = self.model
        if isinstance(type_, t.EnumT):
            return 0, len(m.enums[type_.name].members)
        if isinstance(type_, t.RecordT):
            return 0, len(m.records[type_.name].entries)
        if isinstance(type_, t.NodeT):
            return 0, len(m.boards[type_.board].nodes)
        if isinstance(type_, (t.DefT, t.CardT)):
            return self.def_offset[type_.name], len(m.records[type_.name].entries)
        raise AssertionError(type_)

    def copy_choices(self, domain: n.Expr | None) -> int:
        """How many differing copies of a card a card parameter tells apart: rt.COPY_CHOICES for
        each two seats of the largest game, or fewer when the domain is a zone that holds
        fewer cards."""
        # rt.COPY_CHOICES is for two seats' copies (a deck rule of 3 copies each); cards that
        # change hands bring every seat's into one domain, so more seats tell more apart
        limit = COPY_CHOICES * max(1, (self.max_players + 1) // 2)
        zone = self.model.type_of(domain) if domain is not None else None
        if isinstance(zone, t.ZoneT):
            capacity = self.model.zones[zone.zone].capacity
            if capacity is not None:
                return max(1, min(limit, capacity))
        return limit

    def encoding(self, type_: t.Type, domain: n.Expr | None) -> tuple[int, int]:
        if isinstance(type_, t.IntT):
            assert isinstance(domain, n.Range)
            assert isinstance(domain.low, n.IntLit) and isinstance(domain.high, n.IntLit)
            return domain.low.value, domain.high.value - domain.low.value + 1
        if isinstance(type_, t.PlayerT):
            return 0, self.max_players
        return self.type_bounds(type_)

    def arg_sizes(self, action: ActionInfo) -> list[tuple[int, int]]:
        """(first value, number of values) of each argument of an action (State.ENCODING)."""
        sizes = []
        for _, type_, domain in action.params:
            base, count = self.encoding(type_, domain)
            if isinstance(type_, t.CardT):
                # a card argument also says which copy (rt.COPY_CHOICES)
                count += self.def_count * (self.copy_choices(domain) - 1)
            sizes.append((base, count))
        return sizes

    def type_domain(self, type_: t.Type) -> str:
        if isinstance(type_, t.PlayerT):
            return "range(s.num_players)"
        first, count = self.type_bounds(type_)
        if isinstance(type_, t.DefT):  # card definitions are numbered across card types
            return f"range({first}, {first + count})"
        return f"range({count})"

    def display(self, type_: t.Type, value: str, card_as_def: bool = False) -> str:
        """Python source for the text a value shows in messages and action texts. An action's
        card argument (card_as_def) names a definition and which copy (rt.COPY_CHOICES)."""
        table = self.words_table(type_)
        if isinstance(type_, t.PlayerT) and self.model.seat_names:
            return f"s.player_name({value})"  # the seats of the count played
        if table is not None:
            return f"{table}[{value}]"
        if isinstance(type_, t.CardT) and card_as_def:
            return f"DEF_NAMES[{value} % {self.def_count}]"
        if isinstance(type_, t.CardT):
            return f"DEF_NAMES[s.card_def[{value}]]"
        if isinstance(type_, t.TextT):
            return value
        return f"str({value})"


    @contextmanager
    def function(self, header: str, span: Span, doc: str = "") -> Iterator[None]:
        self.w.line()
        self.w.line()
        self.w.source(span)
        with self.w.block(header):
            if doc:
                self.w.docstring(doc)
            yield

    def params(self, params: list[tuple[str, t.Type]]) -> str:
        return "".join(f", {self.bindings.bind(name)}: {py_type(type_)}"
                       for name, type_ in params)


    def tuple_assign(self, target: str, items: list[str]) -> None:
        if not items:
            self.w.line(f"{target} = ()")
            return
        self.w.line(f"{target} = (")
        for item in items:
            self.w.line(f"    {item},")
        self.w.line(")")
