"""Typecheck, data: the values of entries and the defaults of fields, effect texts (checked like
procedure bodies), the zones an effect type reaches, the `require` lines of card types (tested
on every card) and the deck rules.

Card sets have thousands of entries: their values are typed by a fast path (data_type) that
records and reports what the general one (expr) would; tests/test_fast_paths.py checks both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.check_base import Context, Scope
from compiler.check_builtins import BUILTINS, SEAT_BUILTINS
from compiler.check_statements import StatementChecker, effect_key
from compiler.consteval import compile_rule, constant_rule, evaluate
from compiler.model import EntryInfo, FieldInfo, GameModel, RecordInfo
from compiler.text_templates import TEMPLATE_FIELD, words
from dsl import nodes as n
from dsl.diagnostics import CONTROL_CHARACTERS, Diagnostics, did_you_mean
from dsl.source import Span

# What a field of each type needs, and how to write it, for a word that names nothing.
# control characters other than tabs and line breaks, which card text may hold
_CONTROL = re.compile(f"[{CONTROL_CHARACTERS}]")
_WRITE: dict[type[t.Type], str] = {
    t.IntT: "write a whole number, such as 3",
    t.BoolT: "write true or false",
}


def _needs(wanted: t.Type) -> str:
    if isinstance(wanted, t.IntT):
        return "a number (int)"
    if isinstance(wanted, t.BoolT):
        return "true or false (bool)"
    if isinstance(wanted, (t.EnumT, t.NodeT)):
        return f"a {wanted} value"
    return f"a {wanted}" if not isinstance(wanted, t.PlayerT) else "a player"


# The type of each literal in a data value, as data_type gives it (a DataWord is reported by
# resolve).
_LITERAL_TYPES: dict[type[n.Expr], t.Type] = {
    n.IntLit: t.INT, n.StrLit: t.TEXT, n.BoolLit: t.BOOL, n.NoneLit: t.NONE, n.DataWord: t.ANY,
}

# Data values (entries, defaults, options): no game, no statements.
DATA = Context("constant", effects=False)


class DataChecker(StatementChecker):
    """Checks the data of the rulebook and its card sets, and the deck rules."""

    def __init__(self, model: GameModel, diagnostics: Diagnostics) -> None:
        super().__init__(model, diagnostics)
        self.checked_effects: set[int] = set()
        # What each name that data values use means, and its type (see data_name).
        self.data_names: dict[str, tuple[sym.NameSymbol, t.Type]] = {}
        # Every name a data value may use, with its type (made when a word names nothing).
        self.typed_data_names: list[tuple[str, t.Type]] | None = None
        self.known_data_words: set[str] | None = None
        # For effect fields (by id of the FieldInfo, kept beside): what effect_value makes,
        # and the names its texts start with (the effect type's parameters and `this`).
        self.effect_fields: dict[
            int, tuple[FieldInfo, str, str, Context, dict[str, tuple[t.Type, sym.Bound]]]] = {}
        # One list type per element type object (kept alive beside it), so that the lists of
        # data values share their types too.
        self.list_types: dict[int, tuple[t.Type, t.ListT]] = {}

    def entries(self, record: RecordInfo) -> None:
        """Each value of the type's entries against its field's type; effects as bodies."""
        # Per field: whether each type object met so far fits it, by id (the object is kept
        # alive beside its answer): thousands of values share a handful of type objects.
        fields = {name: (info, isinstance(info.type, t.EffectT), f"field '{name}'",
                         dict[int, tuple[t.Type, bool]]())
                  for name, info in record.fields.items()}
        types, names, data_names = self.model.types, self.model.symbols.names, self.data_names
        for entry in record.entries:
            if _CONTROL.search(entry.description):
                self.control_character(entry.span, entry.description, "its description")
            for name, value in entry.values.items():
                info, effect, what, fits = fields[name]
                if effect or isinstance(value, n.EffectLit):
                    self.effect_value(record.name, info, value)
                    continue
                if type(value) is n.StrLit and _CONTROL.search(value.value):
                    self.control_character(value.span, value.value, what)
                # Most values are literals and names already met: what data_type records for
                # them, without its calls (reported_as_word passes over both).
                actual = _LITERAL_TYPES.get(type(value))
                if actual is not None:
                    types[id(value)] = actual
                elif isinstance(value, n.Name) and (met := data_names.get(value.id)) is not None:
                    names[id(value)] = met[0]
                    actual = types[id(value)] = met[1]
                elif self.reported_as_word(value, info):
                    continue
                else:
                    actual = self.data_type(value)
                if actual is not info.type:
                    known = fits.get(id(actual))
                    if known is None:
                        known = fits[id(actual)] = (actual, t.assignable(actual, info.type))
                    if not known[1]:
                        self.expect(value, actual, info.type, what)

    def control_character(self, span: Span, text: str, what: str) -> None:
        """Card text is shown in rulebooks, pages and terminals: a control character (a YAML
        escape, "\\e[2J") would make the SVG of a face unreadable or act on a terminal."""
        found = _CONTROL.search(text)
        assert found is not None
        self.diagnostics.add("E0403", span, f"the text of {what} holds the control character "
                             f"U+{ord(found[0]):04X}", hint="remove it: a card's text is shown "
                             "to players, in rulebooks, pages and terminals")

    def reported_as_word(self, value: n.Expr, info: FieldInfo) -> bool:
        """Report a card field's value that is a word naming nothing, saying what the field
        needs; whether it was one. Both the fast and the general way of checking entries ask
        this first."""
        if isinstance(value, n.Name) and value.id not in self.data_names \
                and self.names_nothing(value.id):
            self.unknown_data_word(value, info)
            return True
        return False

    def names_nothing(self, word: str) -> bool:
        """Whether a word in a data value is no name at all (a name of the wrong kind is
        reported by `name`)."""
        return word not in self.data_words() and word not in BUILTINS \
            and word not in self.model.functions and word not in self.model.procedures

    def data_words(self) -> set[str]:
        if self.known_data_words is None:
            words = set(self.visible_names(Scope()))
            for record in self.model.records.values():
                words.update(record.entry_names())
            self.known_data_words = words
        return self.known_data_words

    def unknown_data_word(self, value: n.Name, info: FieldInfo) -> None:
        """A word in a card field that names nothing: the error says what the field needs, and
        suggests only names that would fit it (a word in a number field is no misspelt colour)."""
        self.model.types[id(value)] = t.ANY
        wanted = t.strip_optional(info.type)
        if isinstance(wanted, t.ListT):
            wanted = t.strip_optional(wanted.element)
        fitting = [name for name, type_ in self.data_names_with_types()
                   if t.assignable(type_, wanted)]
        needs = _needs(wanted)
        if fitting:
            self.error("E0101", value.span,
                       f"unknown name '{value.id}': field '{info.name}' needs {needs}",
                       hint=did_you_mean(value.id, fitting) or f"one of: {', '.join(fitting[:12])}")
        else:
            self.error("E0201", value.span,
                       f"field '{info.name}' needs {needs}, not the word '{value.id}'",
                       hint=_WRITE.get(type(wanted)))

    def data_names_with_types(self) -> list[tuple[str, t.Type]]:
        """The names a data value can use and their types, in declaration order."""
        if self.typed_data_names is None:
            m = self.model
            names: list[tuple[str, t.Type]] = [(o.name, o.type) for o in m.options.values()]
            names += [(player, t.PLAYER) for player in m.player_names]
            for enum in m.enums.values():
                names += [(member, t.EnumT(enum.name)) for member in enum.members]
            for board in m.boards.values():
                names += [(node, t.NodeT(board.name)) for node in board.nodes]
            for record in m.records.values():
                entry_type = t.DefT(record.name) if record.is_card else t.RecordT(record.name)
                names += [(entry, entry_type) for entry in record.entry_names()]
            self.typed_data_names = names
        return self.typed_data_names

    def data_type(self, e: n.Expr) -> t.Type:
        """expr(e) for a value of a data entry: what it records in the model and reports is
        the same, but the literals, words and lists of them that card sets are made of are
        typed here directly, and each name is looked up once (a name's type and meaning are
        the same in every data value)."""
        result: t.Type
        if isinstance(e, n.Name):
            known = self.data_names.get(e.id)
            if known is None:
                return self.data_name(e)
            self.model.symbols.names[id(e)] = known[0]
            result = known[1]
        elif isinstance(e, n.IntLit):
            result = t.INT
        elif isinstance(e, n.DataWord):  # reported by resolve
            result = t.ANY
        elif isinstance(e, n.ListLit):
            result = self.data_list(e)
        elif isinstance(e, n.BoolLit):
            result = t.BOOL
        elif isinstance(e, n.StrLit):
            result = t.TEXT
        elif isinstance(e, n.NoneLit):
            result = t.NONE
        else:
            return self.expr(e, Scope(), DATA)
        self.model.types[id(e)] = result
        return result

    def data_name(self, e: n.Name) -> t.Type:
        """A name in a data value, looked up in full; what it means is kept when that is no
        error (an error is reported at each use)."""
        errors = len(self.diagnostics.items)
        result = self.expr(e, Scope(), DATA)
        symbol = self.model.symbols.names.get(id(e))
        if len(self.diagnostics.items) == errors and symbol is not None:
            self.data_names[e.id] = (symbol, result)
        return result

    def data_list(self, e: n.ListLit) -> t.Type:
        """What _expr does for a list, its items typed by data_type."""
        items = [self.data_type(item) for item in e.items]
        element: t.Type = t.ANY
        for item_expr, item in zip(e.items, items, strict=True):
            if isinstance(element, t.AnyT):
                element = item
            elif item is not element and not t.assignable(item, element):
                self.error("E0201", item_expr.span,
                           f"list items must share a type: {item} among {element}")
        known = self.list_types.get(id(element))
        if known is None:
            known = self.list_types[id(element)] = (element, t.ListT(element))
        return known[1]

    def field_defaults(self, fields: Iterable[FieldInfo], card_type: str = "") -> None:
        for info in fields:
            if info.default is None:
                continue
            if isinstance(info.type, t.EffectT) or isinstance(info.default, n.EffectLit):
                self.effect_value(card_type, info, info.default)
                continue
            actual = self.expr(info.default, Scope(), Context("constant", effects=False))
            self.expect(info.default, actual, info.type, f"the default of '{info.name}'")

    def effect_value(self, card_type: str, info: FieldInfo, value: n.Expr) -> None:
        """An effect is checked like a procedure whose parameters are the effect type's, plus
        `this`, the card whose effect runs."""
        wanted = info.type
        if not isinstance(value, n.EffectLit) or not isinstance(wanted, t.EffectT):
            self.error("E0201", value.span,
                       f"this must be {wanted}" if not isinstance(value, n.EffectLit)
                       else f"statements are given where {wanted} is expected")
            return
        if id(value.body) in self.checked_effects:
            return  # a text several cards share: its tree is shared, and checked once
        self.checked_effects.add(id(value.body))
        # A card set has thousands of texts for a few fields: what depends only on the field
        # (the card type, the call-graph node, the context) is made once per field.
        known = self.effect_fields.get(id(info))
        if known is None or known[0] is not info or known[1] != card_type:
            # Every card's text for one effect field is one node of the call graph: running
            # `c.field(...)` may run any of them (recursion through effects is caught so).
            names = self.params_scope(
                list(wanted.params),
                info.type_expr.params if isinstance(info.type_expr, n.EffectType) else (),
                info.span).names
            if card_type:
                names["this"] = (t.CardT(card_type), sym.Parameter("this", info.span))
            known = self.effect_fields[id(info)] = (
                info, card_type, effect_key(card_type, info.name),
                Context("effect", reaches=wanted.reaches), names)
        _, _, key, ctx, names = known
        scope = Scope(dict(names))
        self.spans[key] = info.span
        # what body_of does, without making a context manager for each text
        previous, self.current = self.current, key
        self.calls.setdefault(key, set())
        try:
            self.block(value.body, scope, ctx)
        finally:
            self.current = previous

    def reaches(self, record: RecordInfo) -> None:
        """The zones an effect type's `reaches` names must exist."""
        for info in record.fields.values():
            expr = info.type_expr
            if isinstance(expr, n.EffectType) and expr.reaches:
                for name, span in expr.reaches:
                    if name not in self.model.zones:
                        self.error("E0106", span, f"unknown zone '{name}' in 'reaches'",
                                   hint=did_you_mean(name, self.model.zones))

    def card_requires(self, record: RecordInfo) -> None:
        """`require` lines of a card type: typed here, then tested on every definition."""
        if not record.requires:
            return
        scope = Scope()
        data = {name: f for name, f in record.data_fields().items()
                if not isinstance(f.type, t.EffectT)}
        for name, f in data.items():
            scope.names[name] = (f.type, sym.OwnField(record.name, name, f.span))
        ctx = Context("constant", effects=False)
        for rule in record.requires:
            self.condition(rule.cond, scope, ctx)
            # the message names the card that fails it: {name} and its data fields
            self.template(rule.message, rule.span, {"name", *data},
                          what=f"'name' or a data field of {record.name}")
        rules = []
        for rule in record.requires:
            if constant_rule(rule.cond, set(data), self.model):
                rules.append((rule, self.card_rule(rule.cond, data)))
            else:
                self.error("E0207", rule.cond.span,
                           "a card's require can use only its own fields, options, numbers "
                           "and size, abs, min and max", hint="it is checked when the cards "
                           "are compiled, before any game exists")
        defaults = {name: f.default for name, f in data.items()}
        effects = [name for name in record.data_fields() if name not in data]
        for entry in record.entries:
            values = self.rule_values(entry, defaults, effects)
            for rule, test in rules:
                # None: a value of the entry is already reported as wrong
                if test(values) is False:
                    self.error("E0406", entry.span,
                               f"{record.name} '{entry.name}' can never be played: "
                               f"{self.card_message(rule.message, entry, values, data)}",
                               hint=f"the rule is at {rule.span}")

    def card_message(self, message: str, entry: EntryInfo, values: dict[str, n.Expr | None],
                     data: dict[str, FieldInfo]) -> str:
        """A card rule's message with its fields filled from the card that fails it."""
        def shown(match: re.Match[str]) -> str:
            field = match.group(1)
            if field == "name":
                return entry.name
            given = values.get(field)
            value = None if given is None else evaluate(given, values, self.model)
            if isinstance(value, str) and isinstance(data[field].type, t.EnumT):
                return words(value.split(".", 1)[-1])  # evaluate gives "Kind.creature"
            return _words(value)

        return TEMPLATE_FIELD.sub(shown, message)

    @staticmethod
    def rule_values(
        entry: EntryInfo, defaults: dict[str, n.Expr | None], effects: list[str]
    ) -> dict[str, n.Expr | None]:
        """What a card's rules see: each field's value (its default when the entry gives
        none), the effect fields left out. A merge, then the effects the entry gave taken out
        again (an entry holds nothing else), costs less than a lookup of each field."""
        values = {**defaults, **entry.values}
        if len(values) != len(defaults):
            for name in effects:
                values.pop(name, None)
        return values

    def card_rule(
        self, cond: n.Expr, data: dict[str, FieldInfo]
    ) -> Callable[[dict[str, n.Expr | None]], object]:
        """The rule as a function of a card's values: compiled once, as it runs on every card."""
        compiled = compile_rule(cond, data, self.model)
        if compiled is not None:
            return compiled
        model = self.model
        return lambda values: evaluate(cond, values, model)

    def deck_rules(self, deck: n.DeckDecl) -> None:
        scope = Scope()
        scope.names["cards"] = (t.ListT(t.DefT(deck.card_type)), sym.Parameter("cards", deck.span))
        # the side deck: swapped with `cards` between games, so rules may count both
        scope.names["side"] = (t.ListT(t.DefT(deck.card_type)), sym.Parameter("side", deck.span))
        with self.body_of("deck rules"):
            self.deck_block(deck.body, scope)
        # A deck is checked before any game exists: only the cards and fixed data are known.
        allowed_builtins = {"size", "empty", "first", "last", "abs", "min", "max"}
        reported: set[tuple[int, int]] = set()
        symbols = self.model.symbols
        for node in n.walk(deck.body):
            if isinstance(node, n.PlayersRef) or _reads_the_game(symbols.of(node),
                                                                  allowed_builtins):
                if (node.span.line, node.span.column) in reported:
                    continue  # `A.score`: one error, not one for A and one for .score
                reported.add((node.span.line, node.span.column))
                self.error("E0207", node.span, "deck rules see only the deck's cards and the "
                           "card data, not the game", hint="a deck is checked before any game "
                           "exists")

    def diagram(self, d: n.DiagramDecl) -> None:
        """A diagram: `from` a list of a grid's cells, `for` an enum, `where` a condition that
        the compiler evaluates when it builds the rulebook, so it may not read the game."""
        m = self.model
        ctx = Context("diagram", effects=False)
        scope = Scope()
        origins = self.expr(d.origins, scope, ctx)
        cell = t.element_type(origins) if isinstance(origins, t.ListT) else None
        board = m.boards.get(cell.board) if isinstance(cell, t.NodeT) else None
        if board is None or board.kind != "grid":
            if origins != t.ANY:
                grids = [b.name for b in m.boards.values() if b.kind == "grid"]
                self.error("E0201", d.origins.span, "a diagram draws a grid: 'from' takes a list "
                           f"of cells of a grid board, not {origins}",
                           hint=f"for example [{m.boards[grids[0]].nodes[0]}]" if grids
                           and m.boards[grids[0]].nodes else "declare board B: grid R by C { }")
            return
        assert isinstance(cell, t.NodeT)
        if d.opposing and not board.facing:
            self.error("E0201", d.origins.span, f"'mark opposing' marks the other side of a "
                       f"facing grid, and the grid {board.name} is not 'facing'",
                       hint=f"declare board {board.name}: grid R by C facing {{ }}, or mark "
                       "this side's cells: mark NAME where ...")
            return
        inner = scope.child()
        if d.each_var is not None and d.each_enum is not None and d.each_span is not None:
            if d.each_enum not in m.enums:
                self.error("E0201", d.each_span, f"a diagram's 'for' takes an enum, and "
                           f"'{d.each_enum}' is not one: one drawing is made per member",
                           hint=did_you_mean(d.each_enum, list(m.enums))
                           or "declare enum NAME { ... }")
                return
            inner.names[d.each_var] = (t.EnumT(d.each_enum),
                                       sym.Local(d.each_var, "loop", d.each_span))
        inner.names[d.origin_var] = (cell, sym.Local(d.origin_var, "loop", d.origins.span))
        inner.names[d.mark_var] = (cell, sym.Local(d.mark_var, "loop", d.cond.span))
        before = len(self.diagnostics.items)
        self.condition(d.cond, inner, ctx)
        if len(self.diagnostics.items) == before:
            self.diagram_reads(d.cond)

    def diagram_reads(self, cond: n.Expr) -> None:
        """A diagram is drawn before any game exists: its condition, and the functions that it
        calls, may read only their parameters, the grid and constant data."""
        m = self.model
        symbols = m.symbols
        seen: set[str] = set()
        bodies: list[tuple[n.Expr, str | None]] = [(cond, None)]
        while bodies:
            body, function = bodies.pop()
            for node in n.walk(body):
                used = symbols.of(node)
                if isinstance(used, sym.Function) and used.name not in seen:
                    seen.add(used.name)
                    decl = m.functions[used.name].decl
                    assert isinstance(decl, n.FunctionDecl)
                    bodies.append((decl.body, used.name))
                elif isinstance(node, n.PlayersRef | n.ActorRef) or (
                        _reads_the_game(used, set(BUILTINS) - _CHANCE)
                        and not isinstance(used, sym.Function | sym.Player | sym.BoardNode)):
                    via = (f", through function '{function}' (line {node.span.line})"
                           if function else "")
                    self.error("E0207", cond.span if function else node.span,
                               "a diagram is drawn when the rulebook is built, before any "
                               f"game: its condition reads the game{via}",
                               hint="draw a function of the diagram's names and constant data "
                               "only, and let the game's own rule call it")
                    return

    def deck_block(self, block: n.Block, scope: Scope) -> None:
        """Deck rules: requires, with let, for and if around them."""
        ctx = Context("deck", effects=False)
        inner = scope.child()
        for stmt in block.statements:
            if isinstance(stmt, n.Require):
                self.condition(stmt.cond, inner, ctx)
                self.template(stmt.message, stmt.span, set(inner.all_names()),
                              "a name bound by 'for' or 'let' in the deck rules")
            elif isinstance(stmt, n.Let):
                inner.names[stmt.name] = (self.expr(stmt.value, inner, ctx),
                                          sym.Local(stmt.name, "let", stmt.span))
            elif isinstance(stmt, n.For):
                self.deck_block(stmt.body, self.loop_scope(stmt, inner, ctx))
            elif isinstance(stmt, n.If):
                for cond, body in stmt.branches:
                    self.condition(cond, inner, ctx)
                    self.deck_block(body, self.narrowed_scope(cond, inner))
                if stmt.otherwise is not None:
                    self.deck_block(stmt.otherwise, inner)
            else:
                self.error("E0207", stmt.span,
                           "deck rules hold only require, let, for and if",
                           hint="a deck rule says what a legal deck is; it changes nothing")


# builtins that read the game: its random generator, its decks and its number of players
_CHANCE = frozenset({"flip", "roll", "shuffled", "decklist", "opponent", "next_player",
                     *SEAT_BUILTINS})


def _reads_the_game(symbol: sym.Symbol | None, builtins: set[str]) -> bool:
    """Whether a use of symbol reads the game, which the deck rules cannot see (they are
    checked before any game exists); builtins: the builtin functions they may call."""
    match symbol:
        case (sym.Option() | sym.Player() | sym.PlayerField() | sym.BoardNode()
              | sym.NodeField() | sym.CardField() | sym.CardOwner() | sym.Function()):
            return True
        case sym.Builtin():
            return symbol.name not in builtins
        case (sym.Local() | sym.Parameter() | sym.OwnField() | sym.GameField() | sym.Zone()
              | sym.EnumMember() | sym.Domain() | sym.Card() | sym.RecordEntry()
              | sym.RecordField() | sym.DefField() | sym.NameOf() | sym.ZoneSlot()
              | sym.PerPlayerIndex() | sym.ListIndex() | sym.Procedure() | sym.Effect()
              | sym.Aggregator() | None):
            return False  # game fields and zones are refused where they are named
        case _:
            assert_never(symbol)


def _words(value: object) -> str:
    """A card's value as a message reads it: `none`, `true`, a list's items with commas."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(_words(item) for item in value)
    return str(value)
