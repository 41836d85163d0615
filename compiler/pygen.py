"""Code generation: the checked model → a Python module of straight-line rules.

Every rule becomes a typed function specialised to its game: zones are integer slots, players,
nodes, enum members and cards are ints, and tables of data are tuples. Names from the rulebook
only ever reach the output behind a prefix (`v_`, `f_`, `p_`, ...) after the grammar has limited
them to ASCII identifiers, and every string is written with repr(), so no rulebook text can
become code. Output is deterministic: same model, same bytes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.ast_walk import walk_rules
from compiler.english import words
from compiler.model import ActionInfo, BoardInfo, EntryInfo, FieldInfo, GameModel
from compiler.pygen_wrap import LINE_LIMIT, Writer, escape_docstring
from compiler.text_templates import template_fields
from dsl import nodes as n
from dsl.runtime import COPY_CHOICES, article
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


def upper(name: str) -> str:
    return name.upper()


# The first words of the module's own names (K_PLAY, SLOT_NAMES, ...): an enum member's
# constant never starts with one, so it cannot take the place of one.
RESERVED_HEADS = frozenset({
    "K", "C", "R", "Z", "E", "N", "FX", "SLOT", "PLAYER", "NUM", "DEF", "DECK", "DECKS",
    "TERMINAL", "PHASES", "OPTIONS", "INFO", "ACTIONS",
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
    """The runtime codec (see dsl.runtime.Codec) of a type, as Python source."""
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


@dataclass
class Bindings:
    """DSL names → Python names within one generated function (unique per binding)."""

    used: set[str] = field(default_factory=set)
    frames: list[dict[str, str]] = field(default_factory=lambda: [{}])

    def bind(self, name: str) -> str:
        candidate = f"v_{name}"
        k = 2
        while candidate in self.used:
            candidate = f"v_{name}_{k}"
            k += 1
        self.used.add(candidate)
        self.frames[-1][name] = candidate
        return candidate

    def lookup(self, name: str) -> str:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        raise KeyError(name)

    @contextmanager
    def frame(self) -> Iterator[None]:
        self.frames.append({})
        try:
            yield
        finally:
            self.frames.pop()


class PythonGenerator:
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

    # ---- the module
    def generate(self) -> str:
        m = self.model
        w = self.w
        w.line(f"# Generated by Rulecraft {VERSION} from {m.source_file}. Do not edit:")
        w.line("# change the rulebook and run `rulecraft build`.")
        w.line(f'"""{escape_docstring(m.title)}: the rules compiled to Python."""')
        w.line()
        w.line("from __future__ import annotations")
        w.line()
        if self.has_effects:
            w.line("from collections.abc import Callable")
        w.line("from typing import Any, Final")
        w.line()
        w.line("from dsl import runtime as rt")
        w.line("from dsl.runtime import Action, IllegalAction, RuleError")
        w.line()
        w.line('__all__ = ["ACTIONS", "INFO", "NUM_DISTINCT_ACTIONS", "TERMINAL", "Action",')
        w.line('           "IllegalAction", "RuleError", "State", "from_json", "new_game"]')
        w.line()
        w.line("TERMINAL: Final = rt.TERMINAL")
        self.tables()
        self.state_class()
        self.functions()
        self.procedures()
        self.effects()
        self.deck_rules()
        self.events()
        self.checkpoints()
        self.setup()
        self.phases()
        self.wiring()
        self.api()
        return w.text()

    def tables(self) -> None:
        m = self.model
        w = self.w
        w.line(f"PLAYER_NAMES: Final = {tuple(m.player_names)!r}")
        w.line(f"PHASES: Final = {tuple(m.phases)!r}")
        for enum in m.enums.values():
            w.line(f"E_{upper(enum.name)}_NAMES: Final = {tuple(enum.members)!r}")
            self.words_tables(f"E_{upper(enum.name)}", enum.members)
        for enum in m.enums.values():
            for index in range(len(enum.members)):
                constant = self.enum_constants.get((enum.name, index))
                if constant is not None:
                    w.line(f"{constant}: Final = {index}")
        for record in m.records.values():
            if record.is_card:
                continue
            w.items(f"R_{upper(record.name)}_NAMES: Final = ",
                    [repr(e.name) for e in record.entries], trailing_comma=False)
            self.words_tables(f"R_{upper(record.name)}", [e.name for e in record.entries])
            for name, info in record.fields.items():
                values = self.column(record.entries, name, info.default)
                w.items(f"R_{upper(record.name)}_{upper(name)}: Final[tuple["
                        f"{py_type(info.type)}, ...]] = ", values)
        names = [e.name for r in self.card_types for e in r.entries]
        w.items("DEF_NAMES: Final = ", [repr(name) for name in names], trailing_comma=False)
        for record in self.card_types:
            offset = self.def_offset[record.name]
            for name, info in record.fields.items():
                if info.per_card or isinstance(info.type, t.EffectT):
                    continue
                values = ["0"] * self.def_count
                values[offset : offset + len(record.entries)] = self.column(
                    record.entries, name, info.default)
                w.items(f"C_{upper(record.name)}_{upper(name)}: Final[tuple["
                        f"{py_type(info.type)}, ...]] = ", values)
        for board in m.boards.values():
            self.board_tables(board)
        for zone in m.zones.values():
            w.line(f"Z_{upper(zone.name)}: Final = {self.zone_base[zone.name]}")
        owners: list[int] = []
        capacity: list[int] = []
        slot_names: list[str] = []
        visibility: list[str] = []
        for zone in m.zones.values():
            keys: list[list[str]] = [[]]
            for per in zone.per:
                names_of = (m.player_names[: self.max_players] if per == "player"
                            else m.boards[per].nodes if per in m.boards else m.enums[per].members)
                keys = [k + [x] for k in keys for x in names_of]
            for key in keys:
                owner = -1
                if "player" in zone.per:
                    owner = m.player_names.index(key[zone.per.index("player")])
                owners.append(owner)
                capacity.append(zone.capacity if zone.capacity is not None else -1)
                slot_names.append(".".join([zone.name, *key]))
                visibility.append(zone.visibility)
        w.line(f"SLOT_OWNER: Final = {tuple(owners)!r}")
        w.line(f"SLOT_CAPACITY: Final = {tuple(capacity)!r}")
        w.line(f"SLOT_NAMES: Final = {tuple(slot_names)!r}")
        w.line(f"SLOT_VISIBILITY: Final = {tuple(visibility)!r}")
        for i, action in enumerate(self.action_kinds):
            w.line(f"K_{upper(action.name)}: Final = {i}")
        w.line(f"ACTIONS: Final = {tuple(a.name for a in self.action_kinds)!r}")

    def creates_in_play(self) -> bool:
        """Whether rules other than setup create cards (units recruited during the game): then
        scenarios may set a zone to cards that do not exist yet."""
        roots = [decl for module in self.model.modules for decl in module.declarations
                 if not isinstance(decl, n.SetupDecl)]
        return any(isinstance(node, n.Create) for node in walk_rules(roots))

    def words_tables(self, prefix: str, names: Sequence[str]) -> None:
        """Names that are identifiers ("siege_tower") read as words ("siege tower") in texts:
        a second table, written only when some name differs; and the words with their
        article ("a siege tower", "an archer"), when a text puts "a" or "an" before them."""
        if any("_" in name for name in names):
            self.w.items(f"{prefix}_WORDS: Final = ", [repr(words(name)) for name in names],
                         trailing_comma=False)
        if prefix in self.articled:
            self.w.items(f"{prefix}_WITH_ARTICLE: Final = ",
                         [repr(f"{article(words(name))} {words(name)}") for name in names],
                         trailing_comma=False)

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
                            and _ARTICLE.search(text[:start])):
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

    def board_tables(self, board: BoardInfo) -> None:
        w = self.w
        name = upper(board.name)
        w.line(f"N_{name}_NAMES: Final = {tuple(board.nodes)!r}")
        self.words_tables(f"N_{name}", board.nodes)
        w.line(f"N_{name}_NEIGHBOURS: Final = {tuple(tuple(r) for r in board.neighbours)!r}")
        self.int_rows(f"N_{name}_DISTANCE", board.distances())

    def int_rows(self, name: str, rows: Sequence[Sequence[int]]) -> None:
        """A table of ints with many numbers to a line: one per line (the wrapper's way) makes a
        200-hex map's distance table 40,000 lines long."""
        w = self.w
        w.line(f"{name}: Final[tuple[tuple[int, ...], ...]] = (")
        width = LINE_LIMIT - 12
        for row in rows:
            numbers = [f"{value}," for value in row]
            chunks: list[str] = []
            for number in numbers:
                if chunks and len(chunks[-1]) + 1 + len(number) <= width:
                    chunks[-1] += " " + number
                else:
                    chunks.append(number)
            if len(chunks) == 1:
                w.line(f"    ({chunks[0].removesuffix(',') if len(row) > 1 else chunks[0]}),")
                continue
            w.line("    (")
            for chunk in chunks:
                w.line(f"        {chunk}")
            w.line("    ),")
        w.line(")")

    def column(self, entries: Sequence[EntryInfo], name: str, default: n.Expr | None,
               ) -> list[str]:
        """Each entry's value of a field, as constant() writes it: the default written once,
        and the numbers most values are, with their text shared, without the general way."""
        narrowed = self.model.narrowed
        numbers: dict[int, str] = {}
        default_text: str | None = None
        values: list[str] = []
        for entry in entries:
            expr = entry.values.get(name, default)
            if expr is default:
                if default_text is None:
                    default_text = self.constant(default)
                values.append(default_text)
            elif type(expr) is n.IntLit and id(expr) not in narrowed:
                text = numbers.get(expr.value)
                if text is None:
                    text = numbers[expr.value] = str(expr.value)
                values.append(text)
            else:
                values.append(self.constant(expr))
        return values

    def constant(self, expr: n.Expr | None) -> str:
        if expr is None:
            return "None"
        # The card tables hold hundreds of thousands of values, mostly numbers and enum
        # members: written here as _expr writes them, when they are not narrowed.
        if id(expr) not in self.model.narrowed:
            if type(expr) is n.IntLit:
                return str(expr.value)
            if type(expr) is n.Name:
                symbol = self.model.symbols.names.get(id(expr))
                if type(symbol) is sym.EnumMember:
                    return str(symbol.index)
        return self.expr(expr, "None")

    # ---- the state class
    def state_attrs(self) -> list[tuple[str, str, str]]:
        """(attribute, python type, initial value source) for every rulebook-declared value."""
        m = self.model
        attrs: list[tuple[str, str, str]] = []
        for option in m.options.values():
            attrs.append((f"o_{option.name}", py_type(option.type),
                          f"opts[{option.name!r}]"))
        for info in m.game_fields.values():
            attrs.append((f"g_{info.name}", py_type(info.type), self.default(info)))
        for info in m.player_fields.values():
            inner = self.per_player_default(info)
            attrs.append((f"p_{info.name}", f"list[{self.stored_type(info)}]",
                          f"[{inner} for _ in range(players)]"))
        for board in m.boards.values():
            for info in board.fields.values():
                inner = self.per_player_default(info)
                value = f"[{inner} for _ in range({len(board.nodes)})]"
                if info.name in board.initial:
                    value = self.map_values(board, info)
                attrs.append((f"n_{board.name}_{info.name}", f"list[{self.stored_type(info)}]",
                              value))
        for record, info in self.card_state():
            attrs.append((f"k_{record}_{info.name}", f"list[{py_type(info.type)}]", "[]"))
        if m.deck_rules is not None:
            attrs.append(("d_decklists", "list[list[int]]", "[[] for _ in range(players)]"))
        return attrs

    def card_state(self) -> list[tuple[str, FieldInfo]]:
        """The 'per card' fields: one list per field, indexed by card."""
        return [(r.name, f) for r in self.card_types for f in r.fields.values() if f.per_card]

    def map_values(self, board: BoardInfo, info: FieldInfo) -> str:
        """The list of a node field's starting values that the board's map file gives."""
        items: list[str] = []
        for value in board.initial[info.name]:
            if value == "":
                items.append(self.default(info))
            elif isinstance(t.strip_optional(info.type), t.EnumT):
                enum = t.strip_optional(info.type)
                assert isinstance(enum, t.EnumT)
                items.append(str(self.model.enums[enum.name].members.index(str(value))))
            elif isinstance(t.strip_optional(info.type), t.PlayerT):
                items.append(str(self.model.player_names.index(str(value))))
            else:
                items.append(repr(value))
        return "[" + ", ".join(items) + "]"

    def stored_type(self, info: FieldInfo) -> str:
        base = py_type(info.type)
        return f"list[{base}]" if info.per_player else base

    def default(self, info: FieldInfo) -> str:
        if info.default is not None:
            return self.expr(info.default, "self")
        return {
            "int": "0", "bool": "False", "str": '""'
        }.get(py_type(info.type), "[]" if isinstance(info.type, t.ListT) else "None")

    def per_player_default(self, info: FieldInfo) -> str:
        value = self.default(info)
        return f"[{value} for _ in range(players)]" if info.per_player else value

    def state_class(self) -> None:
        m = self.model
        w = self.w
        attrs = self.state_attrs()
        w.line()
        w.line()
        with w.block("class State(rt.GameState):"):
            w.line(f'"""A position of {escape_docstring(m.title)}."""')
            w.line()
            w.line("__slots__ = (")
            for attr, _, _ in attrs:
                w.line(f"    {attr!r},")
            for name in ("num_players", "phase", "pending", "actor", "result", "rng", "zones",
                         "card_def", "card_owner", "card_zone", "card_up", "card_home"):
                w.line(f"    {name!r},")
            w.line(")")
            w.line()
            for attr, type_, _ in attrs:
                w.line(f"{attr}: {type_}")
            w.line()
            with w.block("def __init__(self, seed: int, players: int, opts: dict[str, Any]) "
                         "-> None:"):
                w.line(f"self.init_runtime(seed, players, {self.slot_count})")
                for attr, _type, value in attrs:
                    w.line(f"self.{attr} = {value}")
            if self.card_state():
                w.line()
                with w.block("def init_card(self) -> None:"):
                    for record, info in self.card_state():
                        w.line(f"self.k_{record}_{info.name}.append({self.default(info)})")
                # copies that differ in any 'per card' field are different choices
                w.line()
                with w.block("def copy_key(self, card: int) -> tuple[Any, ...]:"):
                    w.line('"""rt.GameState.copy_key and the \'per card\' fields."""')
                    fields = []
                    for record, info in self.card_state():
                        value = f"self.k_{record}_{info.name}[card]"
                        fields.append(f"rt.frozen({value})" if isinstance(info.type, t.ListT)
                                      else value)
                    w.line("return super().copy_key(card) + ("
                           + "".join(f"{f}, " for f in fields) + ")")
                w.line()
                with w.block("def alike(self, a: int, b: int) -> bool:"):
                    w.line('"""rt.GameState.alike and the \'per card\' fields."""')
                    w.line("return (")
                    w.line("    super().alike(a, b)")
                    for record, info in self.card_state():
                        field = f"self.k_{record}_{info.name}"
                        w.line(f"    and {field}[a] == {field}[b]")
                    w.line(")")
            w.line()
            with w.block("def clone(self) -> State:"):
                w.line('"""An independent copy: same position, same future under the same '
                       'actions."""')
                w.line("c = State.__new__(State)")
                w.line("c.num_players = self.num_players")
                w.line("c.phase = self.phase")
                w.line("c.pending = self.pending")
                w.line("c.actor = self.actor")
                w.line("c.result = None if self.result is None else self.result[:]")
                w.line("c.rng = self.rng.clone()")
                w.line("c.zones = [z[:] for z in self.zones]")
                for name in ("card_def", "card_owner", "card_zone", "card_up", "card_home"):
                    w.line(f"c.{name} = self.{name}[:]")
                for attr, depth in self.attr_depths():
                    w.line(f"c.{attr} = {copy_expr('self.' + attr, depth)}")
                w.line("return c")

    def attr_depths(self) -> list[tuple[str, int]]:
        m = self.model
        result: list[tuple[str, int]] = [(f"o_{o}", 0) for o in m.options]
        result += [(f"g_{f.name}", list_depth(f, 0)) for f in m.game_fields.values()]
        result += [(f"p_{f.name}", list_depth(f, 1)) for f in m.player_fields.values()]
        for board in m.boards.values():
            result += [(f"n_{board.name}_{f.name}", list_depth(f, 1))
                       for f in board.fields.values()]
        result += [(f"k_{record}_{f.name}", list_depth(f, 1)) for record, f in self.card_state()]
        if m.deck_rules is not None:
            result.append(("d_decklists", 2))
        return result

    # ---- rule bodies
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

    def functions(self) -> None:
        for info in self.model.functions.values():
            decl = info.decl
            assert isinstance(decl, n.FunctionDecl) and info.returns is not None
            self.bindings = Bindings()
            params = self.params(info.params)
            with self.function(f"def f_{info.name}(s: State{params}) -> "
                               f"{py_type(info.returns)}:", decl.span, info.doc):
                self.w.line(f"return {self.expr(decl.body)}")

    def procedures(self) -> None:
        for info in self.model.procedures.values():
            decl = info.decl
            assert isinstance(decl, n.ProcedureDecl)
            self.callable_body(f"proc_{info.name}", info.params, decl.body, decl.span, info.doc)

    def callable_body(
        self, name: str, params: list[tuple[str, t.Type]], body: n.Block, span: Span,
        doc: str = "", extra: str = "",
    ) -> None:
        self.bindings = Bindings()
        signature = self.params(params)
        with self.function(f"def {name}(s: State{extra}{signature}) -> None:", span, doc):
            self.block(body)

    def effects(self) -> None:
        """Each card's effect compiles to a function; FX_ tables map definitions to them."""
        for record in self.card_types:
            for name, info in record.fields.items():
                if not isinstance(info.type, t.EffectT):
                    continue
                prefix = f"fx_{record.name}_{name}"
                default = f"{prefix}_default"
                params = [("this", t.CardT(record.name)), *info.type.params]
                body = info.default.body if isinstance(info.default, n.EffectLit) else None
                self.callable_body(default, params, body or n.Block((), span=info.span),
                                   info.span, f"The {name} of cards that give none.")
                table = [default] * self.def_count
                offset = self.def_offset[record.name]
                compiled: dict[int, str] = {}  # cards sharing an effect text share its function
                for i, entry in enumerate(record.entries):
                    value = entry.values.get(name)
                    if not isinstance(value, n.EffectLit):
                        continue
                    function = compiled.get(id(value.body))
                    if function is None:
                        function = compiled[id(value.body)] = f"{prefix}_{i}"
                        self.callable_body(function, params, value.body, value.span,
                                           f"The {name} of {entry.name}.")
                    table[offset + i] = function
                signature = ", ".join(["State", "int", *(py_type(p) for _, p in
                                                         info.type.params)])
                self.w.line()
                self.w.line()
                self.tuple_assign(f"FX_{upper(record.name)}_{upper(name)}: "
                                  f"Final[tuple[Callable[[{signature}], None], ...]]", table)

    def deck_rules(self) -> None:
        """deck_problem(cards): the first deck rule the list of definitions breaks, if any,
        with the rule's line."""
        deck = self.model.deck_rules
        if deck is None:
            return
        self.bindings = Bindings()
        with self.function("def deck_problem(cards: list[int]) -> tuple[str, int] | None:",
                           deck.span, "The first deck-construction rule broken, if any."):
            with self.bindings.frame():
                self.bindings.frames[-1]["cards"] = "cards"
                self.deck_types = {"cards": t.ListT(t.DefT(deck.card_type))}
                self.deck_statements(deck.body.statements)
            self.w.line("return None")

    def deck_statements(self, statements: tuple[n.Stmt, ...]) -> None:
        w = self.w
        m = self.model
        for stmt in statements:
            w.source(stmt.span)
            if isinstance(stmt, n.Require):
                parts = {name: self.display(self.deck_types[name], var)
                         for name, var in self.visible_bindings().items()
                         if name in self.deck_types}
                with w.block(f"if {self.negated(stmt.cond)}:"):
                    w.line(f"return {self.template(stmt.message, parts)}, {stmt.span.line}")
            elif isinstance(stmt, n.Let):
                value = self.expr(stmt.value)
                self.deck_types[stmt.name] = m.type_of(stmt.value)
                w.line(f"{self.bindings.bind(stmt.name)} = {value}")
            elif isinstance(stmt, n.For):
                collection = self.collection(stmt.domain)
                with self.bindings.frame():
                    var = self.bindings.bind(stmt.var)
                    self.deck_types[stmt.var] = t.element_type(m.type_of(stmt.domain)) or t.ANY
                    with w.block(f"for {var} in {collection}:"):
                        if stmt.where is not None:
                            with w.block(f"if {self.negated(stmt.where)}:"):
                                w.line("continue")
                        self.deck_statements(stmt.body.statements)
            elif isinstance(stmt, n.If):
                for i, (cond, body) in enumerate(stmt.branches):
                    header = f"{'if' if i == 0 else 'elif'} {self.expr(cond)}:"
                    with w.block(header), self.bindings.frame():
                        w.line("pass")
                        self.deck_statements(body.statements)
                if stmt.otherwise is not None:
                    with w.block("else:"), self.bindings.frame():
                        w.line("pass")
                        self.deck_statements(stmt.otherwise.statements)

    def decks_table(self) -> None:
        """The shipped decks, by file name: definitions, one per copy."""
        m = self.model
        index = {e.name: self.def_offset[r.name] + i
                 for r in self.card_types for i, e in enumerate(r.entries)}
        self.w.line("DECKS: Final[dict[str, tuple[int, ...]]] = {")
        for deck in sorted(m.decks, key=lambda d: d.name):
            cards = [index[e.card] for e in deck.entries if e.card in index for _ in range(e.count)]
            self.w.line(f"    {deck.name!r}: ({''.join(f'{c}, ' for c in cards)}),")
        self.w.line("}")
        self.w.line("DECK_TITLES: Final[dict[str, str]] = {")
        for deck in sorted(m.decks, key=lambda d: d.name):
            self.w.line(f"    {deck.name!r}: {deck.title!r},")
        self.w.line("}")

    def visible_bindings(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for frame in self.bindings.frames:
            found.update(frame)
        return found

    def events(self) -> None:
        m = self.model
        for event in m.events.values():
            self.bindings = Bindings()
            signature = self.params(event.params)
            with self.function(f"def raise_{event.name}(s: State{signature}) -> None:",
                               event.span):
                for trigger in m.triggers:
                    if trigger.event != event.name:
                        continue
                    self.w.source(trigger.span)
                    if trigger.when is not None:
                        with self.w.block(f"if {self.expr(trigger.when)}:"):
                            self.block(trigger.body)
                    else:
                        self.block(trigger.body)

    def checkpoints(self) -> None:
        for checkpoint in self.model.checkpoints:
            self.callable_body(f"checkpoint_{checkpoint.name}", [], checkpoint.body,
                               checkpoint.span, checkpoint.doc)

    def setup(self) -> None:
        setup = self.model.setup
        assert setup is not None
        self.callable_body("setup", [], setup.body, setup.span, "The game's setup.")

    def phases(self) -> None:
        for phase in self.model.phases.values():
            decl = phase.decl
            if decl.enter is not None:
                self.callable_body(f"enter_{phase.name}", [], decl.enter, decl.enter.span)
            if decl.done is not None:
                self.callable_body(f"done_{phase.name}", [], decl.done, decl.done.span)
            if decl.actor is not None:
                self.bindings = Bindings()
                with self.function(f"def actor_{phase.name}(s: State) -> int | None:",
                                   decl.actor.span):
                    self.w.line(f"return {self.expr(decl.actor)}")
            for i, block in enumerate(decl.checkpoints):
                self.callable_body(f"checkpoint_{phase.name}_{i}", [], block, block.span,
                                   extra=", actor: int")
            if decl.checkpoints:
                with self.function(f"def checkpoints_{phase.name}(s: State, actor: int) -> None:",
                                   decl.span):
                    for i in range(len(decl.checkpoints)):
                        self.w.line(f"checkpoint_{phase.name}_{i}(s, actor)")
            for action in phase.actions:
                self.action(action)
            with self.function(f"def phase_legal_{phase.name}(s: State, actor: int, "
                               "out: list[Action], check: bool) -> None:", decl.span):
                for action in phase.actions:
                    self.w.line(f"legal_{action.name}(s, actor, out, check)")

    # ---- actions
    def action(self, action: ActionInfo) -> None:
        decl = action.decl
        w = self.w
        params = [(name, type_) for name, type_, _ in action.params]
        # the text; a bit of `shown` left clear writes that parameter as a neutral phrase, for
        # players who may not see it (State.action_text)
        # `names` says how cards with differing copies read (rt.Action.names)
        with self.function(f"def text_{action.name}(actor: int, args: tuple[int, ...], "
                           "shown: int = -1, names: rt.CopyNames = None) -> str:",
                           decl.span):
            template = decl.says or "{actor} " + words(action.name) + "".join(
                f" {{{name}}}" for name, _, _ in action.params)
            parts = {"actor": "PLAYER_NAMES[actor]"}
            neutral: dict[str, tuple[int, str]] = {}
            for i, (name, type_, _) in enumerate(action.params):
                if isinstance(type_, t.CardT):
                    parts[name] = f"rt.card_name(DEF_NAMES, args, names, {i})"
                else:
                    parts[name] = self.display(type_, f"args[{i}]")
                neutral[name] = (1 << i, neutral_noun(type_))
            self.action_text_body(template, parts, neutral, self.worded(
                action.params, [f"args[{i}]" for i in range(len(action.params))]))
        # the preconditions
        self.bindings = Bindings()
        signature = self.params(params)
        with self.function(f"def check_{action.name}(s: State, actor: int"
                           f"{signature}) -> str | None:", decl.span):
            for require in action.requires:
                w.source(require.span)
                parts = {"actor": "PLAYER_NAMES[actor]"}
                for name, type_ in params:
                    parts[name] = self.display(type_, self.bindings.lookup(name))
                message = self.template(require.message, parts, self.worded(
                    action.params, [self.bindings.lookup(name) for name, _ in params]))
                with w.block(f"if {self.negated(require.cond)}:"):
                    w.line(f"return {message}")
            w.line("return None")
        # the effects
        self.bindings = Bindings()
        signature = self.params(params)
        with self.function(f"def do_{action.name}(s: State, actor: int{signature}) -> None:",
                           decl.span, decl.doc):
            self.statements(action.effects)
        # enumerating the legal actions
        self.bindings = Bindings()
        with self.function(f"def legal_{action.name}(s: State, actor: int, out: list[Action], "
                           "check: bool) -> None:", decl.span):
            has_cards = any(isinstance(type_, t.CardT) for _, type_, _ in action.params)
            if has_cards:
                w.line("seen: set[tuple[int, ...]] = set()")
            self.legal_loops(action, 0, has_cards)
        # applying one
        self.bindings = Bindings()
        with self.function(f"def apply_{action.name}(s: State, a: Action) -> str | None:",
                           decl.span):
            w.line("actor = a.actor")
            with w.block(f"if len(a.args) != {len(action.params)}:"):
                w.line('return "malformed action"')
            if not any(isinstance(type_, t.CardT) for _, type_, _ in action.params):
                names: list[str] = []
                for i, (name, type_, domain) in enumerate(action.params):
                    var = self.bindings.bind(name)
                    names.append(var)
                    w.line(f"{var} = a.args[{i}]")
                    with w.block(f"if {var} not in {self.domain(type_, domain)}:"):
                        w.line(f"return {self.not_a_choice(type_, var)}")
                args = "".join(f", {v}" for v in names)
                w.line(f"reason = check_{action.name}(s, actor{args})")
                with w.block("if reason is None:"):
                    w.line(f"do_{action.name}(s, actor{args})")
                w.line("return reason")
            else:
                # Cards are named by definition: the action is taken with the first copies
                # that allow it, and refused with the first reason found if none does.
                w.line("first: str | None = None")
                self.apply_nest(action, 0, [])
                w.line("return first or 'this is not possible now'")
        if any(isinstance(type_, t.CardT) for _, type_, _ in action.params):
            # which copies applying the action would take: whether another player may see
            # them is a question about those very cards (State.action_text)
            self.bindings = Bindings()
            with self.function(f"def pick_{action.name}(s: State, a: Action) -> "
                               "tuple[int, ...] | None:", decl.span):
                w.line("actor = a.actor")
                with w.block(f"if len(a.args) != {len(action.params)}:"):
                    w.line("return None")
                self.pick_nest(action, 0, [], [])
                w.line("return None")

    def not_a_choice(self, type_: t.Type, var: str) -> str:
        if isinstance(type_, t.IntT):
            return f"str({var}) + ' is not a choice here'"
        return f"{self.display(type_, var)!s} + ' is not a choice here'"

    def apply_nest(self, action: ActionInfo, i: int, names: list[str]) -> None:
        """Nested loops over the copies of each card parameter (a domain may depend on the
        parameters before it), trying the action with each combination in order."""
        w = self.w
        if i == len(action.params):
            args = "".join(f", {v}" for v in names)
            w.line(f"reason = check_{action.name}(s, actor{args})")
            with w.block("if reason is None:"):
                w.line(f"do_{action.name}(s, actor{args})")
                w.line("return None")
            w.line("first = first or reason")
            return
        name, type_, domain = action.params[i]
        var = self.bindings.bind(name)
        collection = self.domain(type_, domain)
        if isinstance(type_, t.CardT):
            copies = f"{var}_copies"
            w.line(f"{copies} = s.find_cards({collection}, a.args[{i}])")
            with w.block(f"if not {copies}:"):
                w.line(f"first = first or 'no ' + "
                       f"{self.display(type_, f'a.args[{i}]', True)} + ' is available'")
            with w.block(f"for {var} in {copies}:"):
                self.apply_nest(action, i + 1, [*names, var])
        else:
            w.line(f"{var} = a.args[{i}]")
            with w.block(f"if {var} not in {collection}:"):
                w.line(f"first = first or {self.not_a_choice(type_, var)}")
            with w.block("else:"):
                self.apply_nest(action, i + 1, [*names, var])

    def pick_nest(self, action: ActionInfo, i: int, names: list[str], tests: list[str]) -> None:
        """The loops of apply_nest, returning the arguments (cards as instances) that the
        action would be taken with instead of taking it. `tests` are the domain tests of the
        parameters since the last loop, joined into the next `if`."""
        w = self.w
        if i == len(action.params):
            args = "".join(f", {v}" for v in names)
            test = " and ".join([*tests, f"check_{action.name}(s, actor{args}) is None"])
            with w.block(f"if {test}:"):
                w.line("return (" + "".join(f"{v}, " for v in names) + ")")
            return
        name, type_, domain = action.params[i]
        var = self.bindings.bind(name)
        collection = self.domain(type_, domain)
        if isinstance(type_, t.CardT):
            loop = f"for {var} in s.find_cards({collection}, a.args[{i}]):"
            if tests:
                with w.block(f"if {' and '.join(tests)}:"), w.block(loop):
                    self.pick_nest(action, i + 1, [*names, var], [])
            else:
                with w.block(loop):
                    self.pick_nest(action, i + 1, [*names, var], [])
        else:
            # the walrus binds the value where the tests stand, in order, for the next domains
            self.pick_nest(action, i + 1, [*names, var],
                           [*tests, f"({var} := a.args[{i}]) in {collection}"])

    def legal_loops(self, action: ActionInfo, i: int, has_cards: bool) -> None:
        w = self.w
        if i == len(action.params):
            values = [self.bindings.lookup(name) for name, _, _ in action.params]
            encoded = [f"{v}_arg" if isinstance(type_, t.CardT) else v
                       for v, (_, type_, _) in zip(values, action.params, strict=True)]
            key = "(" + "".join(f"{e}, " for e in encoded) + ")"
            names = ""
            if has_cards:
                w.line(f"key = {key}")
                with w.block("if key in seen:"):
                    w.line("continue" if action.params else "return")
                key = "key"
                cards = [v for v, (_, type_, _) in zip(values, action.params, strict=True)
                         if isinstance(type_, t.CardT)]
                names = (", (" + "".join(f"{v}_names.get({v}_arg), " if v in cards else "None, "
                                         for v in values)
                         + f") if {' or '.join(f'{v}_names' for v in cards)} else None")
            args = "".join(f", {v}" for v in values)
            with w.block(f"if not check or check_{action.name}(s, actor{args}) is None:"):
                if has_cards:
                    # copies alike in every state are one choice: the first that may act
                    # stands for all (rt.GameState.copy_args)
                    w.line("seen.add(key)")
                w.line(f"out.append(Action(K_{upper(action.name)}, actor, {key}, "
                       f"text_{action.name}{names}))")
            return
        name, type_, domain = action.params[i]
        collection = self.domain(type_, domain)
        var = self.bindings.bind(name)
        if isinstance(type_, t.CardT):
            # a card is named by its definition; only a second copy of one in the domain
            # costs more: it is a choice of its own if it differs (rt.GameState.copy_arg)
            w.line(f"{var}_cards = {collection}")
            # the loop is all that its enclosing block does: an empty domain ends it at once
            with w.block(f"if not {var}_cards:"):
                w.line("continue" if i > 0 else "return")
            w.line(f"{var}_first: dict[int, int] = {{}}")
            w.line(f"{var}_names = rt.NO_NAMES")
            w.line(f"{var}_start = len(out)")
            with w.block(f"for {var} in {var}_cards:"):
                w.line(f"{var}_arg = s.card_def[{var}]")
                with w.block(f"if ({var}_other := {var}_first.setdefault({var}_arg, {var})) "
                             f"!= {var} and not s.same_choice({var}, {var}_other):"):
                    w.line(f"{var}_arg, {var}_names = s.copy_arg({var}_cards, {var}, out, "
                           f"{var}_start, {i})")
                self.legal_loops(action, i + 1, has_cards)
            return
        with w.block(f"for {var} in {collection}:"):
            self.legal_loops(action, i + 1, has_cards)

    def domain(self, type_: t.Type, domain: n.Expr | None) -> str:
        if domain is not None:
            return self.collection(domain)
        return self.type_domain(type_)

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
        if table is not None:
            return f"{table}[{value}]"
        if isinstance(type_, t.CardT) and card_as_def:
            return f"DEF_NAMES[{value} % {self.def_count}]"
        if isinstance(type_, t.CardT):
            return f"DEF_NAMES[s.card_def[{value}]]"
        if isinstance(type_, t.TextT):
            return value
        return f"str({value})"

    def worded(
        self, params: Sequence[tuple[str, t.Type, object]], values: Sequence[str]
    ) -> dict[str, str]:
        """For the parameters whose values read as words of the rulebook (enum members,
        entries), the source of the value with its article, for a text that puts "a" or "an"
        before it: "a siege tower", "an archer" (see words_tables)."""
        worded: dict[str, str] = {}
        for (name, type_, _), value in zip(params, values, strict=True):
            table = names_table(type_)
            if isinstance(type_, (t.EnumT, t.RecordT)) and table is not None:
                worded[name] = f"{table.removesuffix('_NAMES')}_WITH_ARTICLE[{value}]"
        return worded

    def template(
        self, text: str, parts: dict[str, str], worded: dict[str, str] | None = None
    ) -> str:
        pieces: list[str] = []
        position = 0
        for start, end, name in template_fields(text):
            before = text[position:start]
            value = parts[name]
            if worded and name in worded:
                before, value = _articled(before, value, worded[name])
            if before:
                pieces.append(repr(before))
            pieces.append(value)
            position = end
        if position < len(text) or not pieces:
            pieces.append(repr(text[position:]))
        return " + ".join(pieces)

    def action_text_body(
        self, text: str, parts: dict[str, str], neutral: dict[str, tuple[int, str]],
        worded: dict[str, str],
    ) -> None:
        """The body of an action's text function. A field named in `neutral` (bit, noun) reads
        as a neutral phrase when that bit of `shown` is clear. A determiner before the field
        stays, so "the {u}" reads "the troop"; an article goes with the value, so "a {k}" does
        not read "a army"."""
        pieces: list[str] = []
        position = 0
        for k, (start, end, name) in enumerate(template_fields(text)):
            before = text[position:start]
            value = parts[name]
            if name in neutral:
                bit, noun = neutral[name]
                found = _DETERMINER.search(before)
                word = found.group(1).lower() if found is not None else ""
                phrase = noun if word and word not in ("a", "an") else f"{article(noun)} {noun}"
                if found is not None and word in ("a", "an"):
                    value = f"{before[found.start():]!r} + {value}"
                    before = before[: found.start()]
                if position == 0 and not before:
                    phrase = phrase[0].upper() + phrase[1:]
                if found is not None and name in worded and word in ("a", "an"):
                    value = worded[name]
                    if found.group(1)[0] == "A":
                        value = f"rt.capitalised({value})"
                self.w.line(f"t_{k} = {value} if shown & {bit} else {phrase!r}")
                value = f"t_{k}"
            elif name in worded:
                before, value = _articled(before, value, worded[name])
            if before:
                pieces.append(repr(before))
            pieces.append(value)
            position = end
        if position < len(text) or not pieces:
            pieces.append(repr(text[position:]))
        self.w.line(f"return {' + '.join(pieces)}")

    # ---- wiring the tables into the class
    def wiring(self) -> None:
        m = self.model
        w = self.w
        w.line()
        w.line()
        w.line("State.GAME = " + repr(m.name))
        w.line("State.PLAYER_NAMES = PLAYER_NAMES")
        w.line("State.DEF_NAMES = DEF_NAMES")
        w.line("State.SLOT_OWNER = SLOT_OWNER")
        w.line("State.SLOT_CAPACITY = SLOT_CAPACITY")
        w.line("State.SLOT_NAMES = SLOT_NAMES")
        w.line("State.SLOT_VISIBILITY = SLOT_VISIBILITY")
        zones = []
        for zone in m.zones.values():
            dims = "(" + "".join(self.dimension_names(per) + ", " for per in zone.per) + ")"
            zones.append(f"({zone.name!r}, Z_{upper(zone.name)}, {dims})")
        self.tuple_assign("State.ZONES", zones)
        self.tuple_assign("State.OPTION_FIELDS", [f"({o!r}, 'o_{o}')" for o in m.options])
        self.tuple_assign("State.GAME_FIELDS", [
            f"rt.GameField({f.name!r}, 'g_{f.name}', {codec(f.type, m)}, {f.visibility!r})"
            for f in m.game_fields.values()])
        self.tuple_assign("State.PLAYER_FIELDS", [
            f"rt.PlayerField({f.name!r}, 'p_{f.name}', {codec(f.type, m)}, {f.visibility!r}, "
            f"per_player={f.per_player})"
            for f in m.player_fields.values()])
        self.tuple_assign("State.NODE_FIELDS", [
            f"rt.NodeField({b.name!r}, N_{upper(b.name)}_NAMES, {f.name!r}, "
            f"'n_{b.name}_{f.name}', {codec(f.type, m)}, per_player={f.per_player}, "
            f"visibility={f.visibility!r})"
            for b in m.boards.values() for f in b.fields.values()])
        if self.card_state():
            self.tuple_assign("State.CARD_FIELDS", [
                f"rt.CardField({f.name!r}, 'k_{record}_{f.name}', {codec(f.type, m)}, "
                f"{f.visibility!r})"
                for record, f in self.card_state()])
        self.tuple_assign("State.STATE_ATTRS", [repr(a) for a, _, _ in self.state_attrs()])
        phases = list(m.phases.values())
        w.line("rt.install_phases(State, (")
        for p in phases:
            w.line("    rt.PhaseRules(")
            w.line(f"        {p.name!r},")
            w.line(f"        enter={f'enter_{p.name}' if p.decl.enter is not None else None},")
            w.line(f"        actor={f'actor_{p.name}' if p.decl.actor is not None else None},")
            w.line(f"        done={f'done_{p.name}' if p.decl.done is not None else None},")
            w.line(f"        checkpoints="
                   f"{f'checkpoints_{p.name}' if p.decl.checkpoints else None},")
            w.line(f"        legal={f'phase_legal_{p.name}' if p.actions else None},")
            w.line("    ),")
        w.line("))")
        self.tuple_assign("State.CHECKPOINTS", [f"checkpoint_{c.name}" for c in m.checkpoints])
        if self.creates_in_play():
            w.line("State.SET_CREATES = True")
        w.line("State.APPLY = {")
        for phase in phases:
            for action in phase.actions:
                w.line(f"    ({self.phase_index[phase.name]}, K_{upper(action.name)}): "
                       f"apply_{action.name},")
        w.line("}")
        cards = [tuple(i for i, (_, type_, _) in enumerate(a.params) if isinstance(type_, t.CardT))
                 for a in self.action_kinds]
        self.tuple_assign("State.CARD_PARAMS", [repr(c) for c in cards])
        self.tuple_assign("State.PICK", [
            f"pick_{a.name}" if c else "None" for a, c in zip(self.action_kinds, cards,
                                                             strict=True)])
        encodings: list[str] = []
        offset = 0
        for action in self.action_kinds:
            params = []
            size = 1
            for _, type_, domain in action.params:
                base, count = self.encoding(type_, domain)
                if isinstance(type_, t.CardT):
                    # a card argument also says which copy (rt.COPY_CHOICES)
                    count += self.def_count * (self.copy_choices(domain) - 1)
                params.append(f"({base}, {count})")
                size *= count
            encodings.append(f"({offset}, ({''.join(p + ', ' for p in params)}))")
            offset += size
        self.tuple_assign("State.ENCODING", encodings)
        w.line("State.ACTION_NAMES = ACTIONS")
        w.line(f"NUM_DISTINCT_ACTIONS: Final = {offset}")

    def copy_choices(self, domain: n.Expr | None) -> int:
        """How many differing copies of a card a card parameter tells apart: rt.COPY_CHOICES,
        or fewer when the domain is a zone that holds fewer cards."""
        zone = self.model.type_of(domain) if domain is not None else None
        if isinstance(zone, t.ZoneT):
            capacity = self.model.zones[zone.zone].capacity
            if capacity is not None:
                return max(1, min(COPY_CHOICES, capacity))
        return COPY_CHOICES

    def encoding(self, type_: t.Type, domain: n.Expr | None) -> tuple[int, int]:
        if isinstance(type_, t.IntT):
            assert isinstance(domain, n.Range)
            assert isinstance(domain.low, n.IntLit) and isinstance(domain.high, n.IntLit)
            return domain.low.value, domain.high.value - domain.low.value + 1
        if isinstance(type_, t.PlayerT):
            return 0, self.max_players
        return self.type_bounds(type_)

    def tuple_assign(self, target: str, items: list[str]) -> None:
        if not items:
            self.w.line(f"{target} = ()")
            return
        self.w.line(f"{target} = (")
        for item in items:
            self.w.line(f"    {item},")
        self.w.line(")")

    def api(self) -> None:
        m = self.model
        w = self.w
        w.line()
        if m.deck_rules is not None:
            self.decks_table()
        options = ", ".join(
            f"{o.name!r}: ({py_type(o.type)}, {self.constant(o.default)})"
            for o in m.options.values())
        w.line(f"OPTIONS: Final[dict[str, tuple[type, object]]] = {{{options}}}")
        w.line("INFO: Final[dict[str, Any]] = {")
        w.line(f"    'name': {m.name!r},")
        w.line(f"    'title': {m.title!r},")
        w.line(f"    'players': ({m.min_players}, {m.max_players}),")
        w.line("    'player_names': PLAYER_NAMES,")
        w.line("    'options': {name: default for name, (_, default) in OPTIONS.items()},")
        w.line("    'phases': PHASES,")
        w.line("    'actions': ACTIONS,")
        w.line(f"    'source': {m.source_file!r},")
        if m.deck_rules is not None:
            w.line("    'decks': tuple(DECKS),")
        w.line(f"    'compiler': {VERSION!r},")
        w.line("}")
        w.line()
        w.line()
        with w.block("def new_game(\n    seed: int = 0,\n    players: int = "
                     f"{m.min_players},\n    options: dict[str, object] | None = None,\n"
                     "    decks: object = None,\n) -> State:"):
            w.line('"""A new game, set up and advanced to the first decision."""')
            with w.block(f"if not {m.min_players} <= players <= {m.max_players}:"):
                w.line(f"raise ValueError(f'{m.name} is for {m.min_players}"
                       f"{'' if m.min_players == m.max_players else '-' + str(m.max_players)}"
                       f" players, not {{players}}')")
            if m.deck_rules is None:
                with w.block("if decks is not None:"):
                    w.line(f"raise ValueError('{m.name} takes no decks')")
            w.line("s = State(seed, players, rt.merge_options(OPTIONS, options))")
            if m.deck_rules is not None:
                w.line("s.d_decklists = rt.choose_decks(decks, players, DECKS, DEF_NAMES, "
                       "deck_problem, PLAYER_NAMES)")
            w.line("setup(s)")
            w.line("s.advance()")
            w.line("return s")
        w.line()
        w.line()
        with w.block("def from_json(text: str) -> State:"):
            w.line('"""The state that State.to_json() saved."""')
            w.line("s = State.__new__(State)")
            w.line("s.load_json(text)")
            w.line("return s")

    # ---- statements
    def block(self, block: n.Block) -> None:
        with self.bindings.frame():
            self.statements(list(block.statements))

    def statements(self, statements: list[n.Stmt]) -> None:
        if not statements:
            self.w.line("pass")
        for stmt in statements:
            self.stmt(stmt)

    def stmt(self, stmt: n.Stmt) -> None:
        w = self.w
        m = self.model
        w.source(stmt.span)
        match stmt:
            case n.Let():
                value = self.expr(stmt.value)
                var = self.bindings.bind(stmt.name)
                value_type = m.type_of(stmt.value)
                if isinstance(value_type, t.ListT) and isinstance(value_type.element, t.AnyT):
                    w.line(f"{var}: list[Any] = {value}")
                else:
                    w.line(f"{var} = {value}")
            case n.Assign():
                target = self.lvalue(stmt.target)
                w.line(f"{target} {stmt.op} {self.expr(stmt.value)}")
            case n.CallStmt():
                w.line(self.expr(stmt.call))
            case n.If():
                self.if_stmt(stmt)
            case n.For():
                self.for_stmt(stmt)
            case n.Repeat():
                with w.block(f"for _ in range({self.expr(stmt.count)}):"):
                    self.block(stmt.body)
            case n.Move():
                top = "True" if stmt.end == "top" else "False"
                what_type = m.type_of(stmt.what)
                dest = self.expr(stmt.dest)
                if isinstance(what_type, t.CardT):
                    w.line(f"s.move({self.expr(stmt.what)}, {dest}, {top})")
                else:
                    w.line(f"s.move_all({self.collection(stmt.what)}, {dest}, {top})")
            case n.Draw():
                w.line(f"s.draw({self.expr(stmt.count)}, {self.expr(stmt.source)}, "
                       f"{self.expr(stmt.dest)})")
            case n.Shuffle():
                w.line(f"s.rng.shuffle({self.collection(stmt.zone)})")
            case n.Create():
                w.line(f"s.create({self.expr(stmt.what)}, {self.expr(stmt.dest)})")
            case n.Reveal():
                if isinstance(m.type_of(stmt.what), t.CardT):
                    w.line(f"s.card_up[{self.expr(stmt.what)}] = True")
                else:
                    w.line(f"s.reveal({self.collection(stmt.what)})")
            case n.Goto():
                w.line(f"s.goto({self.phase_index[stmt.phase]})  # {stmt.phase}")
            case n.Win():
                w.line(f"s.win({self.expr(stmt.player)})")
            case n.Lose():
                w.line(f"s.lose({self.expr(stmt.player)})")
            case n.DrawGame():
                w.line("s.end_draw()")
            case n.Raise():
                args = "".join(f", {self.expr(a)}" for a in stmt.args)
                w.line(f"raise_{stmt.event}(s{args})")
            case n.Require():  # pragma: no cover - compiled into check_ functions
                raise AssertionError("a require among an action's effects")
            case _:
                assert_never(stmt)

    def if_stmt(self, stmt: n.If) -> None:
        w = self.w
        for i, (cond, body) in enumerate(stmt.branches):
            test = self.expr(cond)
            while len(stmt.branches) == 1 and stmt.otherwise is None:
                # `if a { if b { ... } }` reads as `if a and b:` (ruff SIM102)
                inner = body.statements[0] if len(body.statements) == 1 else None
                if not (isinstance(inner, n.If) and len(inner.branches) == 1
                        and inner.otherwise is None):
                    break
                test = f"{grouped(test)} and {grouped(self.expr(inner.branches[0][0]))}"
                body = inner.branches[0][1]
            with w.block(f"{'if' if i == 0 else 'elif'} {test}:"):
                self.block(body)
        if stmt.otherwise is not None:
            with w.block("else:"):
                self.block(stmt.otherwise)

    def for_stmt(self, stmt: n.For) -> None:
        w = self.w
        domain_type = self.model.type_of(stmt.domain)
        collection = self.collection(stmt.domain)
        if isinstance(domain_type, t.ZoneT):
            collection = f"list({collection})"  # the body may move cards out of the zone
        with self.bindings.frame():
            var = self.bindings.bind(stmt.var)
            if stmt.order_by is not None:
                where = f" if {self.expr(stmt.where)}" if stmt.where is not None else ""
                items = f"[{var} for {var} in {collection}{where}]"
                reverse = ", reverse=True" if stmt.descending else ""
                header = (f"for {var} in sorted({items}, key=lambda {var}: "
                          f"{self.expr(stmt.order_by)}{reverse}):")
                with w.block(header):
                    self.block(stmt.body)
            elif stmt.where is not None:
                with w.block(f"for {var} in {collection}:"), \
                        w.block(f"if {self.expr(stmt.where)}:"):
                    self.block(stmt.body)
            else:
                with w.block(f"for {var} in {collection}:"):
                    self.block(stmt.body)

    def lvalue(self, target: n.Expr) -> str:
        if isinstance(target, n.Name):
            if isinstance(self.model.symbols.names.get(id(target)), sym.Local):
                return self.bindings.lookup(target.id)
            return f"s.g_{target.id}"  # the only other name that can be assigned
        return self.expr(target, narrow=False)

    # ---- expressions
    def collection(self, expr: n.Expr) -> str:
        """Python source for iterating the value of expr."""
        type_ = self.model.type_of(expr)
        source = self.expr(expr)
        if isinstance(type_, t.ZoneT):
            return f"s.zones[{source}]"
        return source

    def expr(self, e: n.Expr, state: str = "s", narrow: bool = True) -> str:
        source = self._expr(e, state)
        if narrow and id(e) in self.model.narrowed:
            return f"rt.some({source})"
        return source

    def _expr(self, e: n.Expr, s: str) -> str:
        match e:
            case n.IntLit():
                return str(e.value)
            case n.StrLit():
                return repr(e.value)
            case n.BoolLit():
                return "True" if e.value else "False"
            case n.NoneLit():
                return "None"
            case n.ActorRef():
                return "actor"
            case n.PlayersRef():
                return f"range({s}.num_players)"
            case n.Name():
                return self.name(e, s)
            case n.ListLit():
                return "[" + ", ".join(self.expr(item, s) for item in e.items) + "]"
            case n.Attribute():
                return self.attribute(e, s)
            case n.Index():
                return self.index(e, s)
            case n.Call():
                return self.call(e, s)
            case n.EffectCall():
                effect = self.model.symbols.effects[id(e)]
                card = self.expr(e.card, s)
                args = "".join(f", {self.expr(a, s)}" for a in e.args)
                table = f"FX_{upper(effect.card_type)}_{upper(effect.name)}"
                return f"{table}[{s}.card_def[{card}]]({s}, {card}{args})"
            case n.Aggregate():
                return self.aggregate(e, s)
            case n.Conditional():
                return (f"({self.expr(e.then, s)} if {self.expr(e.cond, s)} "
                        f"else {self.expr(e.otherwise, s)})")
            case n.BinaryOp():
                return self.binary(e, s)
            case n.Not():
                return f"({self.negated(e.operand, s)})"
            case n.Negate():
                return f"(-{self.expr(e.operand, s)})"
            case n.Range():
                return f"range({self.expr(e.low, s)}, {self.expr(e.high, s)} + 1)"
            case n.DataWord() | n.EffectLit():  # pragma: no cover - resolved, or made functions
                raise AssertionError(type(e).__name__)
            case _:
                assert_never(e)

    def name(self, e: n.Name, s: str) -> str:
        symbol = self.model.symbols.names.get(id(e))
        match symbol:
            case sym.Local() | sym.Parameter():
                return self.bindings.lookup(e.id)
            case sym.Option():
                return f"{s}.o_{e.id}"
            case sym.GameField():
                return f"{s}.g_{e.id}"
            case sym.EnumMember():
                return self.enum_constants.get((symbol.enum, symbol.index), str(symbol.index))
            case sym.Player() | sym.BoardNode() | sym.RecordEntry():
                return str(symbol.index)
            case sym.Card():
                return str(self.def_offset.get(symbol.card_type, 0) + symbol.index)
            case sym.Zone():
                return f"Z_{upper(e.id)}"
            case sym.Domain():
                element = self.model.type_of(e)
                assert isinstance(element, t.ListT)
                return self.type_domain(element.element)
            case sym.OwnField() | None:  # pragma: no cover - card rules are not compiled
                raise AssertionError(f"unresolved name {e.id}")
            case _:
                assert_never(symbol)

    def attribute(self, e: n.Attribute, s: str) -> str:
        m = self.model
        obj = self.expr(e.obj, s)
        symbol = m.symbols.attributes.get(id(e))
        match symbol:
            case sym.PlayerField():
                return f"{s}.p_{e.name}[{obj}]"
            case sym.NodeField():
                return f"{s}.n_{symbol.board}_{e.name}[{obj}]"
            case sym.RecordField():
                return f"R_{upper(symbol.record)}_{upper(e.name)}[{obj}]"
            case sym.CardField():
                if symbol.per_card:
                    return f"{s}.k_{symbol.card_type}_{e.name}[{obj}]"
                return f"C_{upper(symbol.card_type)}_{upper(e.name)}[{s}.card_def[{obj}]]"
            case sym.DefField():
                return f"C_{upper(symbol.card_type)}_{upper(e.name)}[{obj}]"
            case sym.CardOwner():
                return f"{s}.card_owner[{obj}]"
            case sym.NameOf():
                # the name as data (compared, stored), not as words for a reader
                table = names_table(m.type_of(e.obj))
                if table is not None:
                    return f"{table}[{obj}]"
                return self.display(m.type_of(e.obj), obj).replace("s.card_def", f"{s}.card_def")
            case None:  # pragma: no cover
                raise AssertionError(f"unresolved field {e.name}")
            case _:
                assert_never(symbol)

    def index(self, e: n.Index, s: str) -> str:
        symbol = self.model.symbols.indexes.get(id(e))
        match symbol:
            case sym.ZoneSlot():
                return self.zone_slot(symbol.zone, e.keys, s)
            case sym.PerPlayerIndex() | sym.ListIndex() | None:
                return f"{self.expr(e.obj, s)}[{self.expr(e.keys[0], s)}]"
            case _:
                assert_never(symbol)

    def zone_slot(self, zone: str, keys: tuple[n.Expr, ...], s: str) -> str:
        dims = self.zone_dims[zone]
        index = ""
        for i, key in enumerate(keys):
            value = self.expr(key, s)
            index = value if i == 0 else f"{grouped(index)} * {dims[i]} + {value}"
        return f"Z_{upper(zone)} + {index}" if index else f"Z_{upper(zone)}"

    def call(self, e: n.Call, s: str) -> str:
        args = [self.expr(a, s) for a in e.args]
        symbol = self.model.symbols.calls.get(id(e))
        match symbol:
            case sym.Function():
                return f"f_{e.func}({s}" + "".join(f", {a}" for a in args) + ")"
            case sym.Procedure():
                return f"proc_{e.func}({s}" + "".join(f", {a}" for a in args) + ")"
            case sym.Builtin() | None:
                return self.builtin(e, args, s)
            case _:
                assert_never(symbol)

    def builtin(self, e: n.Call, args: list[str], s: str) -> str:
        m = self.model
        name = e.func
        coll = [self.collection(a) for a in e.args] if name in (
            "size", "empty", "first", "last", "shuffled") else []
        if name == "size":
            return f"len({coll[0]})"
        if name == "empty":
            return f"(not {coll[0]})"
        if name in ("first", "last"):
            return f"rt.{name}({coll[0]})"
        if name == "shuffled":
            return f"{s}.rng.shuffled({coll[0]})"
        if name == "opponent":
            if self.max_players == 2:
                return f"(1 - {args[0]})"
            return f"(({args[0]}) + 1) % {s}.num_players"
        if name == "next_player":
            return f"(({args[0]}) + 1) % {s}.num_players"
        if name in ("abs", "min", "max"):
            return f"{name}({', '.join(args)})"
        if name == "roll":
            return f"{s}.rng.roll({args[0]})"
        if name == "flip":
            return f"{s}.rng.flip()"
        if name == "decklist":
            return f"{s}.d_decklists[{args[0]}][:]"
        node_type = m.type_of(e.args[0]) if e.args else None
        board = upper(node_type.board) if isinstance(node_type, t.NodeT) else ""
        if name == "neighbours":
            return f"N_{board}_NEIGHBOURS[{args[0]}]"
        if name == "adjacent":
            return f"({args[1]} in N_{board}_NEIGHBOURS[{args[0]}])"
        if name == "distance":
            return f"N_{board}_DISTANCE[{args[0]}][{args[1]}]"
        if name in ("within", "ring"):
            return f"rt.{name}(N_{board}_DISTANCE[{args[0]}], {args[1]})"
        if name == "connected":
            return f"rt.connected({args[0]}, {args[1]}, N_{board}_NEIGHBOURS)"
        raise AssertionError(name)

    def aggregate(self, e: n.Aggregate, s: str) -> str:
        collection = self.collection(e.domain)
        with self.bindings.frame():
            var = self.bindings.bind(e.var)
            where = f" if {self.expr(e.where, s)}" if e.where is not None else ""
            element = self.expr(e.element, s)
            loop = f"for {var} in {collection}{where}"
            self.bindings.used.discard(var)  # comprehension variables have their own scope
        func = e.func
        if func == "sum":
            return f"sum({element} {loop})"
        if func == "count":
            return f"sum(1 {loop})"
        if func in ("min", "max"):
            return f"{func}(({element} {loop}), default=0)"
        if func in ("any", "all"):
            return f"{func}({element} {loop})"
        if func == "first":
            return f"next(({element} {loop}), None)"
        return f"[{element} {loop}]"

    def negated(self, e: n.Expr, s: str = "s") -> str:
        """Python source that is true exactly when e is false, without double negations."""
        flipped = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
        if isinstance(e, n.Not):
            return self.expr(e.operand, s)
        if isinstance(e, n.BinaryOp) and e.op in flipped:
            return self.expr(n.BinaryOp(flipped[e.op], e.left, e.right, span=e.span), s)
        if isinstance(e, n.BinaryOp) and e.op == "in":
            return f"{self.expr(e.left, s)} not in {self.collection(e.right)}"
        if isinstance(e, n.Call) and e.func == "empty" and not self.model.narrowed & {id(e)}:
            return f"bool({self.collection(e.args[0])})"
        return f"not {self.expr(e, s)}"

    def binary(self, e: n.BinaryOp, s: str) -> str:
        m = self.model
        op = e.op
        if op in ("==", "!=") and (isinstance(e.left, n.NoneLit) or isinstance(e.right, n.NoneLit)):
            other = e.right if isinstance(e.left, n.NoneLit) else e.left
            return f"({self.expr(other, s, narrow=False)} {'is' if op == '==' else 'is not'} None)"
        if op == "in":
            return f"({self.expr(e.left, s)} in {self.collection(e.right)})"
        left_type = m.type_of(e.left)
        if op == "+" and t.element_type(left_type) is not None:
            return f"[*{self.collection(e.left)}, *{self.collection(e.right)}]"
        python_op = {"/": "//"}.get(op, op)
        return f"({self.expr(e.left, s)} {python_op} {self.expr(e.right, s)})"


# A determiner just before a field of a text: "the {u}", "a {k}", "their {c}".
_DETERMINER = re.compile(r"(?:^|(?<=\s))(the|a|an|their|its|his|her|your|my|our|this|that)\s+$",
                         re.IGNORECASE)
_ARTICLE = re.compile(r"(?:^|(?<=\s))(a|an|A|An)\s+$")


def neutral_noun(type_: t.Type) -> str:
    """How a value of this type reads when the viewer may not see which it is: the type's name
    in lower case words (Tile: "tile", SpellCard: "spell card", Province: "province")."""
    if isinstance(type_, (t.CardT, t.DefT, t.EnumT, t.RecordT)):
        name = type_.name
    elif isinstance(type_, t.NodeT):
        name = type_.board
    elif isinstance(type_, t.PlayerT):
        return "player"
    elif isinstance(type_, t.IntT):
        return "number"
    else:
        return "choice"
    if name.isupper():  # an acronym keeps its letters: "NPC"
        return name
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return " ".join(words.split()).lower()


def _articled(before: str, value: str, with_article: str) -> tuple[str, str]:
    """A template's text before a field whose value is a word, and the value's source: an
    article "a"/"an" right before it goes, and the value is read with its own article
    (`with_article`, the source of that), to agree with the word."""
    found = _ARTICLE.search(before)
    if found is None:
        return before, value
    if found.group(1)[0] == "A":
        return before[: found.start()], f"rt.capitalised({with_article})"
    return before[: found.start()], with_article


def generate_python(model: GameModel) -> str:
    return PythonGenerator(model).generate()


def generate_deck_checker(model: GameModel) -> str:
    """Just the data tables and deck_problem: what `rulecraft check` runs on deck files,
    the same code as in the full module without compiling every rule."""
    generator = PythonGenerator(model)
    generator.w.line("from typing import Final")
    generator.tables()
    generator.deck_rules()
    return generator.w.text()


def load_python(model: GameModel, source: str | None = None) -> ModuleType:
    """Generate the model's module and load it in memory, as `generated/<game>.py` would be."""
    source = generate_python(model) if source is None else source
    module = ModuleType(f"rulecraft_games.{model.name}")
    module.__file__ = model.source_file
    sys.modules[module.__name__] = module
    exec(compile(source, f"<{model.name} compiled from {model.source_file}>", "exec"),  # noqa: S102
         module.__dict__)
    return module
