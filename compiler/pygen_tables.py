"""The generated module's data tables (names, words, boards, card columns) and its State
class (attributes, defaults, copying)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from compiler import symbols as sym
from compiler import types as t
from compiler.ast_walk import walk_rules
from compiler.model import BoardInfo, EntryInfo, FieldInfo, RecordInfo
from compiler.pygen_base import copy_expr, list_depth, py_type, upper
from compiler.pygen_exprs import ExpressionGenerator
from compiler.pygen_facts import HARMLESS
from compiler.pygen_wrap import LINE_LIMIT, escape_docstring
from compiler.text_templates import words
from dsl import nodes as n
from dsl.runtime_base import article

# A starting value that is one immutable object, which a list may hold many times over.
_IMMUTABLE = re.compile(r"-?\d+|True|False|None|'[^'\\]*'|\"[^\"\\]*\"")


def repeated(value: str, count: str) -> str:
    """A new list of `count` starting values: `[0] * players` when the value is one immutable
    object (one step, where a comprehension is a function call), else a comprehension that
    makes each anew (a list in each place, not one list shared)."""
    if _IMMUTABLE.fullmatch(value):
        return f"[{value}] * {count}"
    return f"[{value} for _ in range({count})]"


class TableGenerator(ExpressionGenerator):
    """The module's data tables and its State class."""

    def tables(self) -> None:
        m = self.model
        w = self.w
        w.line(f"PLAYER_NAMES: Final = {tuple(m.player_names)!r}")
        if m.seat_names:
            seats = {count: tuple(names) for count, names in sorted(m.seat_names.items())}
            w.line(f"SEAT_NAMES: Final = {seats!r}")
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
        if self.wants("DEF_NAMES"):
            if self.lazy_columns is not None:
                self.lazy_columns["DEF_NAMES"] = lambda d: repr(names[d])
                w.line('DEF_NAMES: Final = COLUMNS["DEF_NAMES"]')
            else:
                w.items("DEF_NAMES: Final = ", [repr(name) for name in names],
                        trailing_comma=False)
        for record in self.card_types:
            offset = self.def_offset[record.name]
            for name, info in record.fields.items():
                if info.per_card or isinstance(info.type, t.EffectT):
                    continue
                table = f"C_{upper(record.name)}_{upper(name)}"
                if not self.wants(table):
                    continue
                if self.lazy_columns is not None:
                    self.lazy_columns[table] = self.lazy_column(record, name, info.default)
                    w.line(f"{table}: Final[tuple[{py_type(info.type)}, ...]] = "
                           f"COLUMNS[{table!r}]")
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

    def definition_tests(self, tests: list[n.Require], param: str) -> list[n.Require]:
        """The tests taken out of `tests` (a listing's, inside the loop over the card
        parameter `param`) that read the card through its definition's tables only (its
        cost, its kind: C_<TYPE>_<FIELD>), not its own state nor a function of it. They give
        every copy of a definition the same answer while actions are listed, so the listing
        makes them before it tells copies apart (same_choice), which is the dearer work. Only
        harmless tests, and none after a test that is not: one that may raise guards those
        after it."""
        taken: list[n.Require] = []
        for require in list(tests):
            if self.risk(require.cond) != HARMLESS:
                break
            if self.reads_definition_only(require.cond, param):
                tests.remove(require)
                taken.append(require)
        return taken

    def reads_definition_only(self, e: n.Expr, param: str) -> bool:
        """Whether e reads the card parameter `param` only as `param.field` of its
        definition's data (or not at all)."""
        names = self.model.symbols.names
        attributes = self.model.symbols.attributes
        calls = self.model.symbols.calls
        stack: list[n.Node] = [e]
        while stack:
            node = stack.pop()
            if isinstance(node, n.Attribute) and isinstance(node.obj, n.Name):
                field = attributes.get(id(node))
                if (node.obj.id == param and isinstance(field, sym.CardField)
                        and not field.per_card):
                    continue
            if isinstance(node, n.Call) and isinstance(calls.get(id(node)), sym.Function):
                # the card handed to a function that reads its parameter so (spell_allowed)
                for index, arg in enumerate(node.args):
                    if (isinstance(arg, n.Name) and arg.id == param
                            and isinstance(names.get(id(arg)), sym.Parameter)):
                        if not self.parameter_by_definition(node.func, index):
                            return False
                    else:
                        stack.append(arg)
                continue
            if (isinstance(node, n.Name) and node.id == param
                    and isinstance(names.get(id(node)), sym.Parameter)):
                return False
            stack.extend(n.children(node))
        return True

    def parameter_by_definition(self, function: str, index: int) -> bool:
        """Whether the body of `function` reads its parameter `index` only through its
        definition's data (reads_definition_only); no, while that is being found out (a
        function that calls itself)."""
        key = (function, index)
        known = self.definition_parameters.get(key)
        if known is None:
            self.definition_parameters[key] = False
            info = self.model.functions[function]
            decl = info.decl
            assert isinstance(decl, n.FunctionDecl)
            known = self.reads_definition_only(decl.body, info.params[index][0])
            self.definition_parameters[key] = known
        return known

    def wants(self, table: str) -> bool:
        """Whether to write a card table: all of them, unless only some are asked for."""
        return self.only_tables is None or table in self.only_tables

    def creates_in_play(self) -> bool:
        """Whether rules other than setup create cards (units recruited during the game): then
        scenarios may set a zone to cards that do not exist yet."""
        modules = self.model.modules
        in_setup = {id(node) for module in modules for decl in module.declarations
                    if isinstance(decl, n.SetupDecl)
                    for node in walk_rules([decl]) if isinstance(node, n.Create)}
        # the walk of every module, which the docs and the narrowing have made already in a
        # build (ast_walk.walks_kept)
        return any(isinstance(node, n.Create) and id(node) not in in_setup
                   for node in walk_rules(modules))

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

    def lazy_column(self, record: RecordInfo, name: str, default: n.Expr | None,
                    ) -> Callable[[int], str]:
        """What column() writes for one definition, by its number (0 for another type's)."""
        offset, entries = self.def_offset[record.name], record.entries

        def value(d: int) -> str:
            if not offset <= d < offset + len(entries):
                return "0"
            return self.constant(entries[d - offset].values.get(name, default))
        return value

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
                          repeated(inner, "players")))
        for board in m.boards.values():
            for info in board.fields.values():
                inner = self.per_player_default(info)
                value = repeated(inner, str(len(board.nodes)))
                if info.name in board.initial:
                    value = self.map_values(board, info)
                attrs.append((f"n_{board.name}_{info.name}", f"list[{self.stored_type(info)}]",
                              value))
        for record, info in self.card_state():
            attrs.append((f"k_{record}_{info.name}", f"list[{py_type(info.type)}]", "[]"))
        if m.deck_rules is not None:
            attrs.append(("d_decklists", "list[list[int]]", "[[] for _ in range(players)]"))
        if m.has_out:
            attrs.append(("t_out_order", "list[int]", "[]"))
        if m.team_size is not None:
            # the size may iterate the players, which generated aggregates read from `s`
            attrs.append(("t_team", "list[int]",
                          f"rt.seat_teams(players, (lambda s: {self.expr(m.team_size, 's')})"
                          "(self))"))
        elif m.team_seats:
            attrs.append(("t_team", "list[int]",
                          f"rt.listed_teams(players, {tuple(map(tuple, m.team_seats))!r})"))
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
        return repeated(value, "players") if info.per_player else value

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
                         "card_def", "card_owner", "card_zone", "card_up", "card_home",
                         "card_shown", "calls", "windows"):
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
                    # the fields first: a look each, where the holders of the cards that
                    # super() compares are worked out
                    w.line("return (")
                    for i, (record, info) in enumerate(self.card_state()):
                        field = f"self.k_{record}_{info.name}"
                        w.line(f"    {'and ' if i else ''}{field}[a] == {field}[b]")
                    w.line("    and super().alike(a, b)")
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
                w.line("c.card_shown = self.card_shown.copy()")
                w.line("c.calls = self.calls[:]")
                w.line("c.windows = {k: v[:] for k, v in self.windows.items()}")
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
        if m.has_out:
            result.append(("t_out_order", 1))
        if m.team_size is not None or m.team_seats:
            result.append(("t_team", 0))  # never changes: the copies may share it
        return result
