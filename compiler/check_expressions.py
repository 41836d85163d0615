"""Pass 2 — typecheck: resolve every name in its scope and give every expression a type.

Records, in the model, the type of each expression and what each name, attribute, index and call
refers to, for the generators. Errors are collected; an expression with an error gets the type
`?`, which fits everywhere, so one mistake does not cascade into many.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.consteval import compile_rule, constant_rule, evaluate
from compiler.model import ActionInfo, EntryInfo, EnumInfo, FieldInfo, GameModel, RecordInfo
from compiler.text_templates import TEMPLATE_FIELD
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, did_you_mean
from dsl.parser import grammar_words
from dsl.source import Span

AGGREGATES = {"sum", "count", "min", "max", "any", "all", "first", "list"}
BUILTINS = {
    "size": "size(zone or list) -> int",
    "empty": "empty(zone or list) -> bool",
    "first": "first(zone or list) -> element?",
    "last": "last(zone or list) -> element?",
    "opponent": "opponent(player) -> player",
    "next_player": "next_player(player) -> player",
    "abs": "abs(int) -> int",
    "min": "min(int, int, ...) -> int",
    "max": "max(int, int, ...) -> int",
    "roll": "roll(sides: int) -> int, from 1 to sides",
    "flip": "flip() -> bool, a coin flip",
    "shuffled": "shuffled(list) -> list in random order",
    "neighbours": "neighbours(node) -> list of node",
    "adjacent": "adjacent(node, node) -> bool",
    "distance": "distance(node, node) -> int",
    "within": "within(node, radius: int) -> list of node",
    "ring": "ring(node, radius: int) -> list of node: the nodes at exactly that distance",
    "connected": "connected(start: node, area: list of node) -> list of node: the nodes of area "
                 "joined to start by steps between neighbours inside area",
    "decklist": "decklist(player) -> list of card definitions: the deck the player brought",
}
# The statements that begin with a keyword and end without a block, with their forms
# (docs/language.md, section 4), for words written after one of them on its line.
STATEMENT_FORMS: dict[type[n.Stmt], tuple[str, str]] = {
    n.Let: ("let", "'let NAME = VALUE'"),
    n.Move: ("move", "'move CARDS to ZONE', 'move CARDS to top of ZONE' or "
                     "'move CARDS to bottom of ZONE'"),
    n.Draw: ("draw", "'draw N from ZONE to ZONE'"),
    n.DrawGame: ("draw game", "'draw game'"),
    n.Shuffle: ("shuffle", "'shuffle ZONE'"),
    n.Create: ("create", "'create DEFINITION into ZONE'"),
    n.Reveal: ("reveal", "'reveal CARD' or 'reveal ZONE'"),
    n.Goto: ("goto", "'goto PHASE'"),
    n.Win: ("win", "'win PLAYER'"),
    n.Lose: ("lose", "'lose PLAYER'"),
    n.Raise: ("raise", "'raise EVENT(ARGUMENTS)'"),
    n.Require: ("require", "'require CONDITION else \"message\"'"),
}


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


# What a field of each type needs, and how to write it, for a word that names nothing.
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


# Data values (entries, defaults, options): no game, no statements.
DATA = Context("constant", effects=False)


def narrowing_key(expr: n.Expr) -> str | None:
    """Names and one-step attributes of names or of `actor` (`x`, `p.warlord`,
    `actor.target`) can be narrowed."""
    if isinstance(expr, n.Name):
        return expr.id
    if isinstance(expr, n.Attribute) and isinstance(expr.obj, n.Name):
        return f"{expr.obj.id}.{expr.name}"
    if isinstance(expr, n.Attribute) and isinstance(expr.obj, n.ActorRef):
        return f"actor.{expr.name}"
    return None


def narrowings(cond: n.Expr) -> list[str]:
    """The paths a condition proves are not none when it holds."""
    if isinstance(cond, n.BinaryOp):
        if cond.op == "and":
            return narrowings(cond.left) + narrowings(cond.right)
        if cond.op == "!=":
            if isinstance(cond.right, n.NoneLit):
                key = narrowing_key(cond.left)
            elif isinstance(cond.left, n.NoneLit):
                key = narrowing_key(cond.right)
            else:
                key = None
            return [key] if key else []
    return []


class Checker:
    def __init__(self, model: GameModel, diagnostics: Diagnostics) -> None:
        self.model = model
        self.diagnostics = diagnostics
        self.calls: dict[str, set[str]] = {}  # callable → callables its body calls
        self.texts: dict[str, str] = {}  # an action text's shape → the action that has it
        self.checked_effects: set[int] = set()
        # Enum members by name: (symbol, type), or None when no enum has it. Thousands of card
        # values name the same members; they share one symbol and one type object.
        self.members: dict[str, tuple[sym.EnumMember, t.EnumT] | None] = {}
        self.spans: dict[str, Span] = {}  # where each effect node of the call graph is declared
        # What each name that data values use means, and its type (see data_name).
        self.data_names: dict[str, tuple[sym.NameSymbol, t.Type]] = {}
        # Every name a data value may use, with its type (made when a word names nothing).
        self.typed_data_names: list[tuple[str, t.Type]] | None = None
        self.known_data_words: set[str] | None = None
        # For effect fields (by id of the FieldInfo, kept beside): what effect_value makes,
        # and the names its texts start with (the effect type's parameters and `this`).
        self.effect_fields: dict[
            int, tuple[FieldInfo, str, str, Context, dict[str, tuple[t.Type, sym.Bound]]]] = {}
        # The symbol of each field that attributes name: (type of the value, owner, field).
        self.field_symbols: dict[tuple[type, str, str], sym.AttributeSymbol] = {}
        # One list type per element type object (kept alive beside it), so that the lists of
        # data values share their types too.
        self.list_types: dict[int, tuple[t.Type, t.ListT]] = {}
        self.current: str | None = None

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

    # ---- the pass
    def run(self) -> None:
        m = self.model
        constant = Context("constant", effects=False)
        for option in m.options.values():
            actual = self.expr(option.default, Scope(), constant)
            if not t.assignable(actual, option.type):
                self.error(
                    "E0209",
                    option.default.span,
                    f"option '{option.name}' is {option.type}, its default is {actual}",
                )
        for record in m.records.values():
            self.entries(record)
            self.field_defaults(record.fields.values(), record.name)
            self.reaches(record)
            self.card_requires(record)
        if m.deck_rules is not None:
            self.deck_rules(m.deck_rules)
        for board in m.boards.values():
            self.field_defaults(board.fields.values())
        self.field_defaults(m.game_fields.values())
        self.field_defaults(m.player_fields.values())
        for function in m.functions.values():
            body = function.decl
            assert isinstance(body, n.FunctionDecl)
            with self.body_of(function.name):
                scope = self.params_scope(function.params, body.params, body.span)
                actual = self.expr(body.body, scope, Context("function", effects=False))
                if function.returns is not None:
                    self.expect(body.body, actual, function.returns,
                                f"the result of '{function.name}'")
        for procedure in m.procedures.values():
            proc = procedure.decl
            assert isinstance(proc, n.ProcedureDecl)
            with self.body_of(procedure.name):
                scope = self.params_scope(procedure.params, proc.params, proc.span)
                self.block(proc.body, scope, Context("procedure"))
        for trigger in m.triggers:
            event = m.events.get(trigger.event)
            if event is None:
                self.error(
                    "E0101",
                    trigger.event_span,
                    f"unknown event '{trigger.event}'",
                    hint=did_you_mean(trigger.event, m.events),
                )
                params: list[tuple[str, t.Type]] = []
                decls: tuple[n.Param, ...] = ()
            else:
                params = event.params
                decls = event.decl.params
            with self.body_of(f"trigger {trigger.name}"):
                scope = self.params_scope(params, decls, trigger.span)
                if trigger.when is not None:
                    self.condition(trigger.when, scope, Context("trigger", effects=False))
                self.block(trigger.body, scope, Context("trigger"))
        for checkpoint in m.checkpoints:
            with self.body_of(f"checkpoint {checkpoint.name}"):
                self.block(checkpoint.body, Scope(), Context("checkpoint"))
        if m.setup is not None:
            with self.body_of("setup"):
                self.block(m.setup.body, Scope(), Context("setup"))
        for phase in m.phases.values():
            decl = phase.decl
            with self.body_of(f"phase {phase.name}"):
                if decl.enter is not None:
                    self.block(decl.enter, Scope(), Context("enter"))
                if decl.actor is not None:
                    actual = self.expr(decl.actor, Scope(), Context("actor", effects=False))
                    self.expect(decl.actor, actual, t.optional(t.PLAYER), "the actor")
                if decl.done is not None:
                    self.block(decl.done, Scope(), Context("done"))
                for checkpoint_block in decl.checkpoints:
                    self.block(checkpoint_block, Scope(), Context("checkpoint", actor=True))
                for action in phase.actions:
                    self.action(action)
        self.recursion()

    def entries(self, record: RecordInfo) -> None:
        """Each value of the type's entries against its field's type; effects as bodies."""
        # Per field: whether each type object met so far fits it, by id (the object is kept
        # alive beside its answer): thousands of values share a handful of type objects.
        fields = {name: (info, isinstance(info.type, t.EffectT), f"field '{name}'",
                         dict[int, tuple[t.Type, bool]]())
                  for name, info in record.fields.items()}
        for entry in record.entries:
            for name, value in entry.values.items():
                info, effect, what, fits = fields[name]
                if effect or isinstance(value, n.EffectLit):
                    self.effect_value(record.name, info, value)
                    continue
                if self.reported_as_word(value, info):
                    continue
                actual = self.data_type(value)
                if actual is not info.type:
                    known = fits.get(id(actual))
                    if known is None:
                        known = fits[id(actual)] = (actual, t.assignable(actual, info.type))
                    if not known[1]:
                        self.expect(value, actual, info.type, what)

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
                               f"{rule.message}",
                               hint=f"the rule is at {rule.span}")

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

    def params_scope(self, params: list[tuple[str, t.Type]], decls: Sequence[n.Param],
                     declared: Span) -> Scope:
        """A scope of the parameters, each declared by its node in decls (or at `declared`,
        the declaration they belong to, when it has none)."""
        scope = Scope()
        for i, (name, type_) in enumerate(params):
            span = decls[i].span if i < len(decls) else declared
            scope.names[name] = (type_, sym.Parameter(name, span))
        return scope

    # ---- actions
    def action(self, action: ActionInfo) -> None:
        decl = action.decl
        ctx = Context("action", actor=True)
        scope = Scope()
        for (name, type_, domain), param in zip(action.params, decl.params, strict=True):
            if domain is not None:
                domain_type = self.expr(domain, scope, Context("action", actor=True,
                                                              effects=False))
                element = t.element_type(domain_type)
                if element is None:
                    self.error("E0205", domain.span, f"a parameter's domain must be a "
                               f"collection, not {domain_type}")
                elif not t.assignable(element, type_):
                    self.error("E0201", domain.span,
                               f"'{name}' is {type_} but its domain holds {element}")
                if isinstance(type_, t.IntT) and not (
                    isinstance(domain, n.Range)
                    and isinstance(domain.low, n.IntLit)
                    and isinstance(domain.high, n.IntLit)
                ):
                    self.error("E0201", domain.span,
                               "an int parameter's domain must be a range of numbers, like 1..3")
            elif not isinstance(type_, (t.PlayerT, t.EnumT, t.RecordT, t.NodeT, t.AnyT)):
                self.error(
                    "E0205",
                    param.span,
                    f"parameter '{name}' of type {type_} needs a domain: '{name}: {type_} in ...'",
                )
            scope.names[name] = (type_, sym.Parameter(name, param.span))
        names = {name for name, _, _ in action.params} | {"actor"}
        if decl.says is not None and decl.says_span is not None:
            self.template(decl.says, decl.says_span, names)
            shape = TEMPLATE_FIELD.sub("{}", " ".join(decl.says.split()))
            other = self.texts.get(shape)
            if other is not None:
                self.error("E0210", decl.says_span,
                           f"actions '{other}' and '{action.name}' could print the same text",
                           hint="scenarios and players name actions by their text: reword one")
            else:
                self.texts[shape] = action.name
        leading = True
        with self.body_of(f"action {action.name}"):
            for stmt, trailing in self.with_trailing_words(decl.body.statements):
                if isinstance(stmt, n.Require) and leading:
                    self.condition(stmt.cond, scope, Context("action", actor=True, effects=False))
                    self.template(stmt.message, stmt.span, names)
                    action.requires.append(stmt)
                else:
                    leading = False
                    action.effects.append(stmt)
                    self.stmt(stmt, scope, ctx)
                self.trailing_words(stmt, trailing)

    def template(self, text: str, span: Span, names: set[str],
                 what: str = "a parameter of the action") -> None:
        for match in TEMPLATE_FIELD.finditer(text):
            if match.group(1) not in names:
                self.error(
                    "E0210",
                    span,
                    f"'{{{match.group(1)}}}' in the text is not {what}",
                    hint=did_you_mean(match.group(1), names)
                    or "use {actor} or a parameter's name",
                )

    # ---- statements
    def block(self, block: n.Block, scope: Scope, ctx: Context) -> None:
        inner = scope.child()
        for stmt, trailing in self.with_trailing_words(block.statements):
            self.stmt(stmt, inner, ctx)
            self.trailing_words(stmt, trailing)

    def with_trailing_words(
        self, statements: tuple[n.Stmt, ...]
    ) -> Iterator[tuple[n.Stmt, tuple[n.Stmt, ...]]]:
        """Each statement with the words written after it on its line, when it is a keyword
        statement (STATEMENT_FORMS) and they make only statements that do nothing. Newlines do
        not end statements, so `reveal hand[p] to actor` is `reveal hand[p]` and then `to` and
        `actor`, two statements of their own: one mistake, reported once, at the words."""
        i = 0
        while i < len(statements):
            stmt = statements[i]
            j = i + 1
            if type(stmt) in STATEMENT_FORMS:
                while (j < len(statements) and statements[j].span.line == stmt.span.end_line
                       and self.does_nothing(statements[j])):
                    j += 1
            yield stmt, statements[i + 1 : j]
            i = j

    def does_nothing(self, stmt: n.Stmt) -> bool:
        """Whether a statement is an expression that is not a procedure or effect call."""
        if not isinstance(stmt, n.CallStmt) or isinstance(stmt.call, n.EffectCall):
            return False
        return not (isinstance(stmt.call, n.Call) and stmt.call.func in self.model.procedures)

    def trailing_words(self, stmt: n.Stmt, trailing: tuple[n.Stmt, ...]) -> None:
        """Report the words after a keyword statement on its line (with_trailing_words): the
        forms the statement has, and for `reveal`, how to show cards to one player."""
        if not trailing:
            return
        keyword, forms = STATEMENT_FORMS[type(stmt)]
        first = trailing[0]
        word = first.call.id if isinstance(first, n.CallStmt) and isinstance(
            first.call, n.Name) else None
        what = f"'{word}'" if word is not None else "the rest of the line"
        if word is not None and word in grammar_words():
            message = f"'{keyword}' has no '{word}' form: it is written {forms}"
        else:
            message = f"{what} after '{keyword}' does nothing: '{keyword}' is written {forms}"
        start, end = first.span, trailing[-1].span
        self.diagnostics.add(
            "E0402", Span(start.file, start.line, start.column, end.end_line, end.end_column),
            message,
            notes=[f"the '{keyword}' statement ends before {what}: newlines do not end "
                   "statements, so the rest of the line was read as statements of its own, "
                   "which do nothing"],
            hint=self.reveal_hint(stmt) if isinstance(stmt, n.Reveal) else None,
        )

    def reveal_hint(self, stmt: n.Reveal) -> str:
        revealed = self.model.types.get(id(stmt.what))
        card = (revealed.card_type if isinstance(revealed, t.ZoneT)
                else revealed.name if isinstance(revealed, t.CardT) else "Card")
        return ("'reveal' turns the cards face up for every player. To show cards to one "
                "player only, record them in a 'secret' field of that player, which only they "
                f"see: 'seen: list of {card} = [] secret' in 'player {{ }}', set with "
                "'actor.seen = list(c for c in ZONE)'")

    def condition(self, expr: n.Expr, scope: Scope, ctx: Context) -> None:
        actual = self.expr(expr, scope, ctx)
        self.expect(expr, actual, t.BOOL, "the condition")

    def narrowed_scope(self, cond: n.Expr, scope: Scope) -> Scope:
        inner = scope.child()
        for key in narrowings(cond):
            base = self.path_type(key, scope)
            if isinstance(base, t.OptionT):
                inner.narrowed[key] = base.inner
        return inner

    def path_type(self, key: str, scope: Scope) -> t.Type | None:
        head, _, attr = key.partition(".")
        found = scope.lookup(head)
        base: t.Type | None
        if head == "actor":
            base = t.PLAYER
        elif found is not None:
            base = found[0]
        elif head in self.model.game_fields and not attr:
            base = self.model.game_fields[head].type
        else:
            return None
        if not attr:
            return scope.narrowed_type(key) or base
        return self.field_type(t.strip_optional(base), attr)

    def field_type(self, base: t.Type, attr: str) -> t.Type | None:
        info = self.field_info(base, attr)
        if info is None:
            return None
        return t.PerPlayerT(info.type) if info.per_player else info.type

    def field_info(self, base: t.Type, attr: str) -> FieldInfo | None:
        """The field `attr` of a value of type base, if it has one."""
        m = self.model
        if isinstance(base, t.PlayerT):
            return m.player_fields.get(attr)
        if isinstance(base, t.NodeT) and base.board in m.boards:
            return m.boards[base.board].fields.get(attr)
        if isinstance(base, (t.RecordT, t.CardT, t.DefT)) and base.name in m.records:
            return m.records[base.name].fields.get(attr)
        return None

    def field_symbol(self, base: t.Type, info: FieldInfo) -> sym.AttributeSymbol:
        """What an attribute naming the field `info` of a value of type base refers to: made
        once for each field and type (card effects read the same few fields thousands of
        times)."""
        owner = base.board if isinstance(base, t.NodeT) else getattr(base, "name", "")
        key = (type(base), owner, info.name)
        known = self.field_symbols.get(key)
        if known is not None:
            return known
        symbol: sym.AttributeSymbol
        if isinstance(base, t.PlayerT):
            symbol = sym.PlayerField(info.name, info.span)
        elif isinstance(base, t.NodeT):
            symbol = sym.NodeField(owner, info.name, info.span)
        elif isinstance(base, t.RecordT):
            symbol = sym.RecordField(owner, info.name, info.span, info.per_card)
        elif isinstance(base, t.CardT):
            symbol = sym.CardField(owner, info.name, info.span, info.per_card)
        else:
            assert isinstance(base, t.DefT)
            symbol = sym.DefField(owner, info.name, info.span, info.per_card)
        self.field_symbols[key] = symbol
        return symbol

    def stmt(self, stmt: n.Stmt, scope: Scope, ctx: Context) -> None:
        m = self.model
        if not ctx.effects:
            self.error("E0207", stmt.span, "statements are not allowed here")
            return
        if isinstance(stmt, n.Let):
            value = self.expr(stmt.value, scope, ctx)
            if isinstance(value, t.NoneT):
                self.error(
                    "E0201", stmt.value.span,
                    f"'{stmt.name}' takes its type from its value, and 'none' alone has no type",
                    hint="start it at a value of the type it will hold ('let x = A'), or at an "
                         "optional one ('let x = first(p for p in players where ...)' is a "
                         "player? that may be none). A variable's type cannot be written out; "
                         "a field's can: 'x: player? = none' in 'state { }'")
                value = t.ANY  # what the variable holds is unknown: no error at its uses
            scope.names[stmt.name] = (value, sym.Local(stmt.name, "let", stmt.span))
            self.unnarrow(stmt.name, scope)
        elif isinstance(stmt, n.Assign):
            self.assign(stmt, scope, ctx)
        elif isinstance(stmt, n.CallStmt):
            call = stmt.call
            if isinstance(call, n.EffectCall):
                self.effect_call(call, scope, ctx)
            elif isinstance(call, n.Call) and call.func in m.procedures:
                self.call_procedure(call, scope, ctx)
            elif isinstance(call, n.Call) and call.func not in (
                m.functions.keys() | BUILTINS.keys() | AGGREGATES | {"<expression>"}
            ):
                for arg in call.args:
                    self.expr(arg, scope, ctx)
                self.error("E0101", call.func_span, f"unknown procedure '{call.func}'",
                           hint=did_you_mean(call.func, [*m.procedures, *m.functions]))
            else:
                if isinstance(call, n.Call | n.Aggregate):
                    self.expr(call, scope, ctx)
                what = (
                    f"the result of '{call.func}' is not used"
                    if isinstance(call, n.Call) and call.func in m.functions | BUILTINS
                    else "this expression does nothing on its own"
                )
                self.error("E0402", stmt.span, what,
                           hint="only procedure calls can stand alone as statements")
        elif isinstance(stmt, n.If):
            for cond, body in stmt.branches:
                self.condition(cond, scope, ctx)
                self.block(body, self.narrowed_scope(cond, scope), ctx)
            if stmt.otherwise is not None:
                self.block(stmt.otherwise, scope, ctx)
        elif isinstance(stmt, n.For):
            self.block(stmt.body, self.loop_scope(stmt, scope, ctx), ctx)
        elif isinstance(stmt, n.Repeat):
            self.expect(stmt.count, self.expr(stmt.count, scope, ctx), t.INT, "the count")
            self.block(stmt.body, scope, ctx)
        elif isinstance(stmt, n.Move):
            moved = self.expr(stmt.what, scope, ctx)
            dest = self.zone(stmt.dest, scope, ctx)
            card = (
                moved if isinstance(moved, t.CardT)
                else t.CardT(moved.card_type) if isinstance(moved, t.ZoneT)
                else moved.element if isinstance(moved, t.ListT) else moved
            )
            if isinstance(card, t.OptionT) and isinstance(card.inner, t.CardT):
                self.error("E0202", stmt.what.span,
                           f"this may be none, so it cannot be moved ({moved})",
                           hint="test it first: if x != none { move x to ... }")
            elif not isinstance(card, (t.CardT, t.AnyT)):
                self.error("E0201", stmt.what.span,
                           f"only cards can be moved, not {moved}",
                           hint="move a card, a zone's cards, or a list of cards")
            elif dest is not None and isinstance(card, t.CardT) and card.name != dest.card_type:
                self.error("E0201", stmt.dest.span,
                           f"zone '{dest.zone}' holds {dest.card_type}, not {card.name}")
            if stmt.end is not None:
                self.needs_order(dest, stmt.dest, f"put cards on the {stmt.end} of")
        elif isinstance(stmt, n.Draw):
            self.expect(stmt.count, self.expr(stmt.count, scope, ctx), t.INT, "the count")
            source = self.zone(stmt.source, scope, ctx)
            self.needs_order(source, stmt.source, "draw from")
            dest = self.zone(stmt.dest, scope, ctx)
            if source and dest and source.card_type != dest.card_type:
                self.error("E0201", stmt.dest.span,
                           f"cannot draw {source.card_type} into a zone of {dest.card_type}")
        elif isinstance(stmt, n.Shuffle):
            self.needs_order(self.zone(stmt.zone, scope, ctx), stmt.zone, "shuffle")
        elif isinstance(stmt, n.Create):
            created = self.expr(stmt.what, scope, ctx)
            into = self.zone(stmt.dest, scope, ctx)
            if not isinstance(created, (t.DefT, t.AnyT)):
                self.error("E0201", stmt.what.span,
                           f"'create' needs a card definition, not {created}",
                           hint="iterate the card type: for d in Tile { create d into ... }")
            elif (into is not None and isinstance(created, t.DefT)
                    and created.name != into.card_type):
                self.error("E0201", stmt.dest.span,
                           f"zone '{into.zone}' holds {into.card_type}, not {created.name}")
        elif isinstance(stmt, n.Reveal):
            revealed = self.expr(stmt.what, scope, ctx)
            if not isinstance(revealed, (t.ZoneT, t.CardT, t.AnyT)):
                self.error("E0201", stmt.what.span,
                           f"only zones and cards are revealed, not {revealed}")
        elif isinstance(stmt, n.Goto):
            if stmt.phase not in m.phases:
                self.error("E0105", stmt.span, f"unknown phase '{stmt.phase}'",
                           hint=did_you_mean(stmt.phase, m.phases))
        elif isinstance(stmt, (n.Win, n.Lose)):
            self.expect(stmt.player, self.expr(stmt.player, scope, ctx), t.PLAYER, "the player")
        elif isinstance(stmt, n.DrawGame):
            pass
        elif isinstance(stmt, n.Raise):
            event = m.events.get(stmt.event)
            if event is None:
                self.error("E0101", stmt.span, f"unknown event '{stmt.event}'",
                           hint=did_you_mean(stmt.event, m.events))
                for arg in stmt.args:
                    self.expr(arg, scope, ctx)
            else:
                self.arguments(stmt.event, event.params, stmt.args, stmt.span, scope, ctx)
        elif isinstance(stmt, n.Require):
            self.error("E0207", stmt.span,
                       "'require' may only open an action, before its effects",
                       hint="move it to the top of the action")
        else:  # mypy checks that every statement class is handled above
            assert_never(stmt)

    def loop_scope(self, stmt: n.For, scope: Scope, ctx: Context) -> Scope:
        """The scope of a `for` body: the loop variable, narrowed by the `where` test."""
        element = self.iterable(stmt.domain, scope, ctx)
        inner = scope.child()
        inner.names[stmt.var] = (element, sym.Local(stmt.var, "loop", stmt.span))
        if stmt.where is not None:
            self.condition(stmt.where, inner, ctx)
            inner = self.narrowed_scope(stmt.where, inner)
        if stmt.order_by is not None:
            key = self.expr(stmt.order_by, inner, ctx)
            self.expect(stmt.order_by, key, t.INT, "the sort key")
        return inner

    def unnarrow(self, key: str, scope: Scope) -> None:
        """A new binding or an assignment ends what a `!= none` test proved about a path."""
        keys = {key}
        ancestor: Scope | None = scope
        while ancestor is not None:
            keys |= {k for k in ancestor.narrowed if k.startswith(key + ".")}
            ancestor = ancestor.parent
        for k in keys:
            head, _, attr = k.partition(".")
            found = scope.lookup(head)
            if not attr and found is not None:
                scope.narrowed[k] = found[0]
            elif attr:
                base = t.PLAYER if head == "actor" else found[0] if found else None
                declared = self.field_type(t.strip_optional(base), attr) if base else None
                if declared is not None:
                    scope.narrowed[k] = declared

    def assign(self, stmt: n.Assign, scope: Scope, ctx: Context) -> None:
        target = stmt.target
        value = self.expr(stmt.value, scope, ctx)
        target_type: t.Type | None = None
        symbols = self.model.symbols
        if isinstance(target, n.Name):
            found = scope.lookup(target.id)
            if found is not None:
                bound = found[1]
                if not isinstance(bound, sym.Local) or bound.binding != "let":
                    self.error("E0204", target.span,
                               f"{_binding(bound)} '{target.id}' cannot be assigned",
                               hint="copy it into a variable with let")
                    return
                target_type = found[0]
                symbols.names[id(target)] = bound
                self.model.types[id(target)] = target_type
                self.unnarrow(target.id, scope)
            elif target.id in self.model.game_fields:
                info = self.model.game_fields[target.id]
                target_type = info.type
                symbols.names[id(target)] = sym.GameField(target.id, info.span)
                self.model.types[id(target)] = target_type
            else:
                self.expr(target, scope, ctx)
                if id(target) in symbols.names:  # known, but not something assignable
                    self.error("E0204", target.span, f"'{target.id}' cannot be assigned")
                return
        elif isinstance(target, (n.Attribute, n.Index)):
            target_type = self.expr(target, scope, ctx)
            if id(target) in self.model.narrowed and isinstance(target, n.Attribute):
                self.model.narrowed.discard(id(target))
                obj_type = self.model.types.get(id(target.obj), t.ANY)
                target_type = self.field_type(t.strip_optional(obj_type), target.name) or t.ANY
                self.model.types[id(target)] = target_type
                key = narrowing_key(target)
                if key is not None:
                    self.unnarrow(key, scope)
            if isinstance(target, n.Index):
                assignable_field = isinstance(symbols.indexes.get(id(target)),
                                              sym.PerPlayerIndex) and isinstance(
                    symbols.of(target.obj), sym.PlayerField | sym.NodeField)
            else:
                assignable_field = _assignable(symbols.attributes.get(id(target)))
            if isinstance(target_type, t.PerPlayerT):
                self.error("E0204", target.span, "index a 'per player' field with a player")
                return
            if not assignable_field and not isinstance(target_type, t.AnyT):
                self.error("E0204", target.span,
                           "only fields of the game, of players, of board nodes and 'per card' "
                           "fields can be assigned; card and record data is fixed")
                return
        else:
            self.error("E0204", target.span, "this cannot be assigned")
            return
        if stmt.op in ("+=", "-="):
            self.expect(target, target_type, t.INT, f"the target of '{stmt.op}'")
            self.expect(stmt.value, value, t.INT, f"the value of '{stmt.op}'")
        else:
            self.expect(stmt.value, value, target_type, "the assigned value")

    def effect_call(self, call: n.EffectCall, scope: Scope, ctx: Context) -> None:
        m = self.model
        card = self.expr(call.card, scope, ctx)
        if isinstance(card, t.AnyT):
            for arg in call.args:
                self.expr(arg, scope, ctx)
            return
        if isinstance(card, t.OptionT):
            self.error("E0202", call.card.span, f"this may be none, so it has no "
                       f"'{call.field}' to run", hint="test it first: if x != none { ... }")
            return
        record = m.records.get(card.name) if isinstance(card, t.CardT) else None
        info = record.fields.get(call.field) if record is not None else None
        if record is None or info is None or not isinstance(info.type, t.EffectT):
            effects = [name for name, f in record.fields.items()
                       if isinstance(f.type, t.EffectT)] if record is not None else []
            for arg in call.args:
                self.expr(arg, scope, ctx)
            self.error("E0201", call.field_span,
                       f"'{call.field}' is not an effect of {card}",
                       hint=did_you_mean(call.field, effects)
                       or "only a card's effect fields can be run: card.effect(...)")
            return
        m.symbols.effects[id(call)] = sym.Effect(record.name, call.field, info.span)
        if self.current is not None:
            self.calls[self.current].add(effect_key(record.name, call.field))
        self.arguments(call.field, list(info.type.params), call.args, call.span, scope, ctx)

    def call_procedure(self, call: n.Call, scope: Scope, ctx: Context) -> None:
        info = self.model.procedures[call.func]
        self.model.symbols.calls[id(call)] = sym.Procedure(call.func, info.span)
        if self.current is not None:
            self.calls[self.current].add(call.func)
        self.arguments(call.func, info.params, call.args, call.span, scope, ctx)

    def arguments(
        self,
        name: str,
        params: list[tuple[str, t.Type]],
        args: tuple[n.Expr, ...],
        span: Span,
        scope: Scope,
        ctx: Context,
    ) -> None:
        actual = [self.expr(arg, scope, ctx) for arg in args]
        if len(args) != len(params):
            self.error("E0203", span,
                       f"'{name}' takes {len(params)} argument{'s' * (len(params) != 1)}, "
                       f"{len(args)} given",
                       hint=f"{name}(" + ", ".join(f"{p}: {ty}" for p, ty in params) + ")")
            return
        for arg, type_, (pname, wanted) in zip(args, actual, params, strict=True):
            if not t.assignable(type_, wanted):  # what expect tests, before naming the argument
                self.expect(arg, type_, wanted, f"argument '{pname}'")

    def needs_order(self, zone: t.ZoneT | None, expr: n.Expr, what: str) -> None:
        if zone is not None and not self.model.zones[zone.zone].ordered:
            self.error("E0208", expr.span,
                       f"cannot {what} zone '{zone.zone}': it is not ordered",
                       hint=f"declare it: zone {zone.zone}: {zone.card_type} ordered ...")

    def known_name(self, name: str, scope: Scope) -> bool:
        m = self.model
        return (
            scope.lookup(name) is not None or name in m.options or name in m.game_fields
            or name in m.player_names or name in m.zones or name in m.enums
            or name in m.records or name in m.boards
            or any(name in b.nodes for b in m.boards.values())
            or any(name in e.members for e in m.enums.values())
            or any(name in r.entry_names() for r in m.records.values())
        )

    def zone(self, expr: n.Expr, scope: Scope, ctx: Context) -> t.ZoneT | None:
        base = expr.obj if isinstance(expr, n.Index) else expr
        if isinstance(base, n.Name) and not self.known_name(base.id, scope):
            if isinstance(expr, n.Index):
                for key in expr.keys:
                    self.expr(key, scope, ctx)
            self.error("E0106", base.span, f"unknown zone '{base.id}'",
                       hint=did_you_mean(base.id, self.model.zones))
            return None
        actual = self.expr(expr, scope, ctx)
        if isinstance(actual, t.ZoneT):
            return actual
        if isinstance(actual, t.ZoneFamilyT):
            per = self.model.zones[actual.zone].per
            self.error("E0208", expr.span,
                       f"zone '{actual.zone}' is per {' per '.join(per)}: index it",
                       hint=f"{actual.zone}[" + ", ".join(per) + "]")
        elif not isinstance(actual, t.AnyT):
            self.error("E0201", expr.span, f"a zone is needed here, not {actual}")
        return None

    def iterable(self, expr: n.Expr, scope: Scope, ctx: Context) -> t.Type:
        actual = self.expr(expr, scope, ctx)
        element = t.element_type(actual)
        if element is None:
            if isinstance(actual, t.ZoneFamilyT):
                self.zone(expr, scope, ctx)
            else:
                self.error("E0205", expr.span, f"{actual} cannot be iterated",
                           hint="iterate a zone, a list, a type, players or a range a..b")
            return t.ANY
        return element

    # ---- expressions
    def expr(self, expr: n.Expr, scope: Scope, ctx: Context) -> t.Type:
        compound = _COMPOUND.get(type(expr))  # what _expr would only hand to a method
        if compound is not None:
            result = compound(self, expr, scope, ctx)
        else:
            result = self._expr(expr, scope, ctx)
        self.model.types[id(expr)] = result
        return result

    def _expr(self, e: n.Expr, scope: Scope, ctx: Context) -> t.Type:
        if isinstance(e, n.IntLit):
            return t.INT
        if isinstance(e, n.StrLit):
            return t.TEXT
        if isinstance(e, n.BoolLit):
            return t.BOOL
        if isinstance(e, n.NoneLit):
            return t.NONE
        if isinstance(e, n.Name):
            return self.name(e, scope, ctx)
        if isinstance(e, n.ActorRef):
            if not ctx.actor:
                return self.error("E0207", e.span,
                                  "'actor' is only known inside an action",
                                  hint="pass the player as a parameter")
            return t.PLAYER
        if isinstance(e, n.PlayersRef):
            return t.ListT(t.PLAYER)
        if isinstance(e, n.ListLit):
            items = [self.expr(item, scope, ctx) for item in e.items]
            element: t.Type = t.ANY
            for item_expr, item in zip(e.items, items, strict=True):
                if isinstance(element, t.AnyT):
                    element = item
                elif not t.assignable(item, element):
                    self.error("E0201", item_expr.span,
                               f"list items must share a type: {item} among {element}")
            return t.ListT(element)
        if isinstance(e, n.Attribute):
            return self.attribute(e, scope, ctx)
        if isinstance(e, n.Index):
            return self.index(e, scope, ctx)
        if isinstance(e, n.Call):
            return self.call(e, scope, ctx)
        if isinstance(e, n.Aggregate):
            return self.aggregate(e, scope, ctx)
        if isinstance(e, n.Conditional):
            self.condition(e.cond, scope, ctx)
            then = self.expr(e.then, self.narrowed_scope(e.cond, scope), ctx)
            otherwise = self.expr(e.otherwise, scope, ctx)
            return self.unify(then, otherwise, e.otherwise)
        if isinstance(e, n.BinaryOp):
            return self.binary(e, scope, ctx)
        if isinstance(e, n.Not):
            self.operand(e.operand, self.expr(e.operand, scope, ctx), t.BOOL, "not")
            return t.BOOL
        if isinstance(e, n.Negate):
            self.operand(e.operand, self.expr(e.operand, scope, ctx), t.INT, "-")
            return t.INT
        if isinstance(e, n.EffectCall):
            for arg in e.args:
                self.expr(arg, scope, ctx)
            self.expr(e.card, scope, ctx)
            return self.error("E0207", e.span,
                              f"running '{e.field}' gives no value; use it as a statement")
        if isinstance(e, n.EffectLit):
            return self.error("E0201", e.span, "statements cannot be used as a value here")
        if isinstance(e, n.DataWord):  # resolve turns these into names or texts
            return t.ANY
        if isinstance(e, n.Range):
            self.expect(e.low, self.expr(e.low, scope, ctx), t.INT, "the start of a range")
            self.expect(e.high, self.expr(e.high, scope, ctx), t.INT, "the end of a range")
            return t.ListT(t.INT)
        assert_never(e)  # mypy checks that every expression class is handled above

    def unify(self, a: t.Type, b: t.Type, where: n.Expr) -> t.Type:
        if isinstance(b, t.NoneT) and not isinstance(a, t.NoneT):
            return t.optional(a)
        if t.assignable(b, a):
            return a if not isinstance(b, t.NoneT) else t.optional(a)
        if t.assignable(a, b):
            return b if not isinstance(a, t.NoneT) else t.optional(b)
        if isinstance(a, t.NoneT):
            return t.optional(b)
        return self.error("E0201", where.span, f"the two branches differ: {a} and {b}")

    def visible_names(self, scope: Scope) -> list[str]:
        m = self.model
        names = scope.all_names() + list(m.options) + list(m.game_fields) + m.player_names
        names += list(m.zones) + list(m.enums) + list(m.records) + list(m.boards)
        for enum in m.enums.values():
            names += enum.members
        for board in m.boards.values():
            names += board.nodes
        return names

    def mark_narrowed(self, e: n.Expr, narrowed: t.Type, declared: t.Type) -> t.Type:
        """A use under a `!= none` test. A new binding or an assignment records the type it
        gives the same way: that is no narrowing when the type is still optional, or was never
        optional (`let n = 3`), and the back end then reads the value as it is."""
        if isinstance(declared, t.OptionT) and not isinstance(narrowed, t.OptionT):
            self.model.narrowed.add(id(e))
        return narrowed

    def player_symbol(self, name: str) -> sym.Player:
        """A player named in the game header (or by default, A, B, ...: then declared by the
        header's player count)."""
        m = self.model
        index = m.player_names.index(name)
        spans = m.player_spans
        return sym.Player(name, index, spans[index] if index < len(spans)
                          else m.game_span or Span.point(m.source_file))

    def enum_member(self, name: str) -> tuple[sym.EnumMember, t.EnumT] | None:
        """The symbol and type of the member `name` of the first enum that has one."""
        if name not in self.members:
            self.members[name] = next(
                ((_member_symbol(enum, enum.members.index(name)), t.EnumT(enum.name))
                 for enum in self.model.enums.values() if name in enum.members), None)
        return self.members[name]

    def name(self, e: n.Name, scope: Scope, ctx: Context) -> t.Type:
        m = self.model
        symbols = m.symbols.names
        found = scope.lookup(e.id)
        if found is not None:
            symbols[id(e)] = found[1]
            narrowed = scope.narrowed_type(e.id)
            if narrowed is not None:
                return self.mark_narrowed(e, narrowed, found[0])
            return found[0]
        if e.id in m.options:
            option = m.options[e.id]
            symbols[id(e)] = sym.Option(e.id, option.span)
            return option.type
        if ctx.kind == "deck" and (e.id in m.game_fields or e.id in m.zones):
            return self.error("E0207", e.span, f"deck rules see only the deck's cards, not "
                              f"'{e.id}'", hint="a deck is checked before any game exists")
        if e.id in m.game_fields:
            if ctx.kind == "constant":
                return self.error("E0201", e.span,
                                  f"game field '{e.id}' cannot be used in a default or data")
            info = m.game_fields[e.id]
            symbols[id(e)] = sym.GameField(e.id, info.span)
            narrowed = scope.narrowed_type(e.id)
            if narrowed is not None:
                return self.mark_narrowed(e, narrowed, info.type)
            return info.type
        if e.id in m.player_names:
            symbols[id(e)] = self.player_symbol(e.id)
            return t.PLAYER
        if e.id in m.zones:
            zone = m.zones[e.id]
            symbols[id(e)] = sym.Zone(e.id, zone.span)
            if ctx.reaches is not None and e.id not in ctx.reaches:
                self.error("E0407", e.span, f"this effect reaches zone '{e.id}', which is not "
                           "in its card type's 'reaches' list",
                           hint="reachable zones: " + (", ".join(ctx.reaches) or "none"))
            return t.ZoneFamilyT(e.id) if zone.per else t.ZoneT(e.id, zone.card_type)
        for board in m.boards.values():
            if e.id in board.nodes:
                symbols[id(e)] = sym.BoardNode(board.name, e.id, board.nodes.index(e.id),
                                               board.span)
                return t.NodeT(board.name)
        member = self.enum_member(e.id)
        if member is not None:
            symbols[id(e)] = member[0]
            return member[1]
        domain: t.Type | None = None
        if e.id in m.enums:
            domain, declared = t.EnumT(e.id), m.enums[e.id].span
        elif e.id in m.records:
            record = m.records[e.id]
            domain = t.DefT(e.id) if record.is_card else t.RecordT(e.id)
            declared = record.span
        elif e.id in m.boards:
            domain, declared = t.NodeT(e.id), m.boards[e.id].span
        if domain is not None:
            symbols[id(e)] = sym.Domain(e.id, declared)
            return t.ListT(domain)
        for record in m.records.values():  # after types: an entry may be named like one
            names = record.entry_names()
            if e.id in names:
                index = names.index(e.id)
                span = record.entries[index].span
                symbols[id(e)] = (sym.Card(record.name, e.id, index, span) if record.is_card
                                  else sym.RecordEntry(record.name, e.id, index, span))
                return t.DefT(record.name) if record.is_card else t.RecordT(record.name)
        if e.id in m.functions or e.id in m.procedures or e.id in BUILTINS:
            return self.error("E0201", e.span, f"'{e.id}' must be called: {e.id}(...)")
        return self.error("E0101", e.span, f"unknown name '{e.id}'",
                          hint=did_you_mean(e.id, self.visible_names(scope)))

    def attribute(self, e: n.Attribute, scope: Scope, ctx: Context) -> t.Type:
        m = self.model
        base = self.expr(e.obj, scope, ctx)
        key = narrowing_key(e)
        if isinstance(base, t.AnyT):
            return t.ANY
        if isinstance(base, (t.RecordT, t.CardT, t.DefT)) and base.name not in m.records:
            return t.ANY  # the unknown type was reported where it was named
        if isinstance(base, t.OptionT):
            return self.error("E0202", e.obj.span,
                              f"this may be none, so it has no field '{e.name}'",
                              hint="test it first: if x != none { ... }")
        named = (t.NodeT, t.RecordT, t.CardT, t.DefT, t.EnumT, t.PlayerT)
        if (e.name == "name" and isinstance(base, named)
                and not (isinstance(base, t.PlayerT) and "name" in m.player_fields)):
            m.symbols.attributes[id(e)] = sym.NAME_OF
            return t.TEXT
        if e.name == "owner" and isinstance(base, t.CardT):
            m.symbols.attributes[id(e)] = sym.CARD_OWNER
            return t.PLAYER
        info = self.field_info(base, e.name)
        if info is None:
            candidates: list[str] = []
            if isinstance(base, t.PlayerT):
                candidates = list(m.player_fields)
            elif isinstance(base, t.NodeT):
                candidates = list(m.boards[base.board].fields)
            elif isinstance(base, (t.RecordT, t.CardT, t.DefT)) and base.name in m.records:
                candidates = list(m.records[base.name].fields)
            return self.error("E0104", e.name_span, f"{base} has no field '{e.name}'",
                              hint=did_you_mean(e.name, candidates))
        result = t.PerPlayerT(info.type) if info.per_player else info.type
        symbol = m.symbols.attributes[id(e)] = self.field_symbol(base, info)
        if isinstance(result, t.EffectT):
            return self.error("E0207", e.name_span, f"'{e.name}' is an effect: run it as a "
                              f"statement, {e.name}(...) on a card")
        if isinstance(symbol, sym.DefField | sym.RecordField) and symbol.per_card:
            return self.error("E0104", e.name_span, f"'{e.name}' is the state of each physical "
                              "card, and a definition is not a card", hint="read it on a card")
        if key is not None:
            narrowed = scope.narrowed_type(key)
            if narrowed is not None:
                return self.mark_narrowed(e, narrowed, result)
        return result

    def index(self, e: n.Index, scope: Scope, ctx: Context) -> t.Type:
        m = self.model
        base = self.expr(e.obj, scope, ctx)
        keys = [self.expr(k, scope, ctx) for k in e.keys]
        if isinstance(base, t.AnyT):
            return t.ANY
        if isinstance(base, t.ZoneFamilyT):
            zone = m.zones[base.zone]
            if len(keys) != len(zone.per):
                return self.error("E0208", e.span,
                                  f"zone '{zone.name}' takes {len(zone.per)} "
                                  f"ke{'ys' if len(zone.per) != 1 else 'y'}, "
                                  f"{len(keys)} given",
                                  hint=f"{zone.name}[" + ", ".join(zone.per) + "]")
            for key_expr, key, per in zip(e.keys, keys, zone.per, strict=True):
                if per != "player" and per not in m.boards and per not in m.enums:
                    continue  # already reported where the zone is declared
                wanted = (t.PLAYER if per == "player" else
                          t.NodeT(per) if per in m.boards else t.EnumT(per))
                self.expect(key_expr, key, wanted, f"the {per} key of zone '{zone.name}'")
            m.symbols.indexes[id(e)] = sym.ZoneSlot(zone.name, zone.span)
            return t.ZoneT(zone.name, zone.card_type)
        if isinstance(base, t.ZoneT):
            return self.error("E0208", e.span, f"zone '{base.zone}' takes no index")
        if len(keys) != 1:
            return self.error("E0208", e.span, "only zones take more than one key")
        if isinstance(base, t.PerPlayerT):
            self.expect(e.keys[0], keys[0], t.PLAYER, "the index of a 'per player' field")
            m.symbols.indexes[id(e)] = sym.PER_PLAYER_INDEX
            return base.element
        if isinstance(base, t.ListT):
            self.expect(e.keys[0], keys[0], t.INT, "a list index")
            m.symbols.indexes[id(e)] = sym.LIST_INDEX
            return base.element
        return self.error("E0208", e.span, f"{base} cannot be indexed")

    def call(self, e: n.Call, scope: Scope, ctx: Context) -> t.Type:
        m = self.model
        if e.func in m.functions and ctx.kind == "deck":
            for arg in e.args:
                self.expr(arg, scope, ctx)
            return self.error("E0207", e.span, "deck rules cannot call functions: functions "
                              "may read the game, and a deck is checked before any game exists")
        if e.func in m.functions:
            info = m.functions[e.func]
            m.symbols.calls[id(e)] = sym.Function(e.func, info.span)
            if self.current is not None:
                self.calls[self.current].add(e.func)
            self.arguments(e.func, info.params, e.args, e.span, scope, ctx)
            return info.returns or t.ANY
        if e.func in m.procedures:
            for arg in e.args:
                self.expr(arg, scope, ctx)
            return self.error("E0207", e.span,
                              f"procedure '{e.func}' has no value; call it as a statement")
        if e.func in BUILTINS:
            m.symbols.calls[id(e)] = sym.Builtin(e.func)
            return self.builtin(e, [self.expr(a, scope, ctx) for a in e.args])
        for arg in e.args:
            self.expr(arg, scope, ctx)
        if e.func in AGGREGATES:
            return self.error("E0201", e.span,
                              f"'{e.func}' takes a comprehension: {e.func}(x for x in ...)")
        if e.func == "<expression>":
            return self.error("E0201", e.span, "only named functions can be called")
        return self.error("E0101", e.func_span, f"unknown function '{e.func}'",
                          hint=did_you_mean(e.func, [*m.functions, *BUILTINS]))

    def builtin(self, e: n.Call, args: list[t.Type]) -> t.Type:
        name = e.func
        signature = BUILTINS[name]

        def arity(count: int) -> bool:
            if len(args) != count:
                self.error("E0203", e.span,
                           f"'{name}' takes {count} argument{'s' * (count != 1)}, "
                           f"{len(args)} given", hint=signature)
                return False
            return True

        def want(i: int, wanted: t.Type) -> None:
            self.expect(e.args[i], args[i], wanted, f"argument {i + 1} of '{name}'")

        def collection(i: int) -> t.Type:
            element = t.element_type(args[i])
            if element is None:
                self.error("E0205", e.args[i].span,
                           f"'{name}' needs a zone or a list, not {args[i]}", hint=signature)
                return t.ANY
            return element

        def node(i: int) -> t.Type:
            if not isinstance(args[i], (t.NodeT, t.AnyT)):
                self.error("E0201", e.args[i].span,
                           f"argument {i + 1} of '{name}' must be a board node, not {args[i]}")
                return t.ANY
            return args[i]

        if name in ("size", "empty"):
            if arity(1):
                collection(0)
            return t.INT if name == "size" else t.BOOL
        if name in ("first", "last"):
            return t.optional(collection(0)) if arity(1) else t.ANY
        if name in ("opponent", "next_player"):
            if arity(1):
                want(0, t.PLAYER)
            return t.PLAYER
        if name in ("abs", "roll"):
            if arity(1):
                want(0, t.INT)
            return t.INT
        if name in ("min", "max"):
            if len(args) < 2:
                self.error("E0203", e.span, f"'{name}' takes two or more ints", hint=signature)
            for i in range(len(args)):
                want(i, t.INT)
            return t.INT
        if name == "flip":
            arity(0)
            return t.BOOL
        if name == "decklist":
            if arity(1):
                want(0, t.PLAYER)
            deck = self.model.deck_rules
            if deck is None:
                return self.error("E0201", e.span, "decklist() needs deck rules: deck CardType "
                                  "{ ... }", hint="the deck rules say which card type decks hold")
            return t.ListT(t.DefT(deck.card_type))
        if name == "shuffled":
            return t.ListT(collection(0)) if arity(1) else t.ANY
        if name in ("neighbours", "within", "ring"):
            if not arity(1 if name == "neighbours" else 2):
                return t.ANY
            if name != "neighbours":
                want(1, t.INT)
            return t.ListT(node(0))
        if name == "connected":
            if not arity(2):
                return t.ANY
            start = node(0)
            self.expect(e.args[1], args[1], t.ListT(start), f"argument 2 of '{name}'")
            return t.ListT(start)
        if name in ("adjacent", "distance"):
            if arity(2):
                a, b = node(0), node(1)
                if not isinstance(a, t.AnyT) and not isinstance(b, t.AnyT) and a != b:
                    self.error("E0201", e.span, f"'{name}' needs two nodes of one board")
            return t.BOOL if name == "adjacent" else t.INT
        raise AssertionError(name)  # pragma: no cover

    def aggregate(self, e: n.Aggregate, scope: Scope, ctx: Context) -> t.Type:
        m = self.model
        if e.func not in AGGREGATES:
            self.iterable(e.domain, scope, ctx)
            return self.error("E0101", e.func_span,
                              f"'{e.func}' is not an aggregate",
                              hint="aggregates: " + ", ".join(sorted(AGGREGATES)))
        element = self.iterable(e.domain, scope, ctx)
        inner = scope.child()
        inner.names[e.var] = (element, sym.Local(e.var, "loop", e.span))
        if e.where is not None:
            self.condition(e.where, inner, ctx)
            inner = self.narrowed_scope(e.where, inner)
        value = self.expr(e.element, inner, ctx)
        m.symbols.aggregates[id(e)] = sym.Aggregator(e.func)
        if e.func in ("sum", "min", "max"):
            self.expect(e.element, value, t.INT, f"what '{e.func}' adds up")
            return t.INT
        if e.func in ("any", "all"):
            self.expect(e.element, value, t.BOOL, f"what '{e.func}' tests")
            return t.BOOL
        if e.func == "count":
            return t.INT
        if e.func == "first":
            return t.optional(value)
        return t.ListT(value)

    def operand(self, expr: n.Expr, actual: t.Type, wanted: t.Type, op: str) -> None:
        if isinstance(actual, t.OptionT) and t.assignable(actual.inner, wanted):
            self.expect(expr, actual, wanted, f"the operand of '{op}'")
        elif not t.assignable(actual, wanted):
            self.error("E0206", expr.span, f"'{op}' needs {wanted}, not {actual}")

    def binary(self, e: n.BinaryOp, scope: Scope, ctx: Context) -> t.Type:
        op = e.op
        left = self.expr(e.left, scope, ctx)
        if op in ("and", "or"):
            self.operand(e.left, left, t.BOOL, op)
            right_scope = self.narrowed_scope(e.left, scope) if op == "and" else scope
            right = self.expr(e.right, right_scope, ctx)
            self.operand(e.right, right, t.BOOL, op)
            return t.BOOL
        right = self.expr(e.right, scope, ctx)
        if isinstance(left, t.AnyT) or isinstance(right, t.AnyT):
            return t.BOOL if op in ("==", "!=", "<", "<=", ">", ">=", "in") else t.ANY
        if op in ("==", "!="):
            if not t.comparable(left, right):
                self.error("E0201", e.span, f"cannot compare {left} with {right}")
            return t.BOOL
        if op in ("<", "<=", ">", ">="):
            if left != t.INT or right != t.INT:
                self.error("E0206", e.span, f"'{op}' compares ints, not {left} and {right}")
            return t.BOOL
        if op == "in":
            element = t.element_type(right)
            if element is None:
                self.error("E0205", e.right.span, f"'in' needs a zone or a list, not {right}")
            elif not t.comparable(left, element):
                self.error("E0201", e.span, f"{left} can never be in a collection of {element}")
            return t.BOOL
        if op == "+":
            le, re_ = t.element_type(left), t.element_type(right)
            if le is not None and re_ is not None:
                if not t.comparable(le, re_):
                    self.error("E0206", e.span, f"cannot join {left} and {right}")
                return t.ListT(le)
            if left == t.TEXT and right == t.TEXT:
                return t.TEXT
        if left == t.INT and right == t.INT:
            return t.INT
        return self.error("E0206", e.span, f"'{op}' is not defined for {left} and {right}")

    # ---- termination
    def recursion(self) -> None:
        m = self.model
        spans = {name: info.span for name, info in {**m.functions, **m.procedures}.items()}
        spans.update(self.spans)
        state: dict[str, int] = {}
        for name in sorted(spans):
            if name not in state:
                self.visit_calls(name, [name], state, spans)

    def visit_calls(
        self, name: str, path: list[str], state: dict[str, int], spans: dict[str, Span]
    ) -> None:
        """Depth first through the call graph from name. A method, not a closure that calls
        itself: such a closure is a reference cycle, which would keep this checker and the
        whole model alive after the compilation is dropped, until a full collection."""
        state[name] = 1
        for callee in sorted(self.calls.get(name, ())):
            if state.get(callee) == 1:
                cycle = path[path.index(callee):] + [callee] if callee in path else [callee]
                self.error("E0211", spans[callee],
                           f"'{callee}' calls itself: " + " → ".join(cycle))
            elif callee not in state and callee in spans:
                self.visit_calls(callee, [*path, callee], state, spans)
        state[name] = 2


# The expressions _expr hands to a method of their own, by class: found with one lookup
# rather than after a dozen isinstance tests.
_COMPOUND: dict[type, Callable[..., t.Type]] = {
    n.Name: Checker.name,
    n.Attribute: Checker.attribute,
    n.Index: Checker.index,
    n.Call: Checker.call,
    n.Aggregate: Checker.aggregate,
    n.BinaryOp: Checker.binary,
}


def _member_symbol(enum: EnumInfo, index: int) -> sym.EnumMember:
    spans = enum.member_spans
    return sym.EnumMember(enum.name, enum.members[index], index,
                          spans[index] if index < len(spans) else enum.span)


def _binding(bound: sym.Bound) -> str:
    """What messages call a name bound in a scope: let, loop, param or card_field."""
    match bound:
        case sym.Local():
            return bound.binding
        case sym.Parameter():
            return "param"
        case sym.OwnField():
            return "card_field"
        case _:
            assert_never(bound)


def _assignable(field: sym.AttributeSymbol | None) -> bool:
    """Whether an attribute that refers to `field` can be assigned: fields of players and
    board nodes, and the state of each physical card."""
    match field:
        case sym.PlayerField() | sym.NodeField():
            return True
        case sym.CardField():
            return field.per_card
        case (sym.RecordField() | sym.DefField() | sym.NameOf() | sym.CardOwner()
              | None):
            return False
        case _:
            assert_never(field)


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


def effect_key(card_type: str, field: str) -> str:
    """The call-graph name of every card's text for one effect field."""
    return f"the {field} of {card_type} cards"


def typecheck(model: GameModel, diagnostics: Diagnostics) -> None:
    Checker(model, diagnostics).run()
