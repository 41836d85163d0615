"""Typecheck, expressions: the type of every expression, and what each name, attribute, index and
call refers to, recorded in the model; conditions and the `!= none` tests that narrow a scope.

An expression with an error gets the type `?`, which fits everywhere, so one mistake does not
cascade into many.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.check_base import Context, Scope
from compiler.check_builtins import AGGREGATES, BUILTINS, TEAM_HINT, TEAM_WORDS, BuiltinChecker
from compiler.model import EnumInfo, FieldInfo, GameModel
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, did_you_mean
from dsl.source import Span


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


# Where `actor` is not known, what stands for the player meant there.
_ACTOR_HINTS = {
    "enter": "nobody has acted yet when a phase is entered: keep the player in a game field "
             "(`current`) and read it here",
    "done": "nobody acts once a phase is done: keep the player in a game field (`current`)",
    "setup": "nobody acts in setup: name a seat, or go through `players`",
    "trigger": "keep the player in a game field, or read the card's owner",
}


class ExpressionChecker(BuiltinChecker):
    """Types expressions and records what they refer to."""

    def __init__(self, model: GameModel, diagnostics: Diagnostics) -> None:
        super().__init__(model, diagnostics)
        # Enum members by name: (symbol, type), or None when no enum has it. Thousands of card
        # values name the same members; they share one symbol and one type object.
        self.members: dict[str, tuple[sym.EnumMember, t.EnumT] | None] = {}
        # The symbol of each field that attributes name: (type of the value, owner, field).
        self.field_symbols: dict[tuple[type, str, str], sym.AttributeSymbol] = {}
        self.looped: dict[Context, Context] = {}  # each context inside a loop
        # The symbol of each function, procedure and builtin that calls name: thousands of
        # card texts call the same few, and a symbol is a frozen value, so they share one.
        self.function_symbols: dict[str, sym.Function] = {}
        self.procedure_symbols: dict[str, sym.Procedure] = {}
        self.builtin_symbols: dict[str, sym.Builtin] = {}

    def expr(self, expr: n.Expr, scope: Scope, ctx: Context) -> t.Type:
        compound = _COMPOUND.get(type(expr))  # what _expr would only hand to a method
        if compound is not None:
            result = compound(self, expr, scope, ctx)
        else:
            result = self._expr(expr, scope, ctx)
        self.model.types[id(expr)] = result
        return result

    def _expr(self, e: n.Expr, scope: Scope, ctx: Context) -> t.Type:
        match e:
            case n.IntLit():
                return t.INT
            case n.StrLit():
                return t.TEXT
            case n.BoolLit():
                return t.BOOL
            case n.NoneLit():
                return t.NONE
            case n.Name():
                return self.name(e, scope, ctx)
            case n.ActorRef():
                if not ctx.actor:
                    return self.error("E0207", e.span,
                                      "'actor' is only known in an action and in the "
                                      "checkpoints after one", hint=_ACTOR_HINTS.get(
                                          ctx.kind, "pass the player as a parameter"))
                return t.PLAYER
            case n.PlayersRef():
                return t.ListT(t.PLAYER)
            case n.ListLit():
                items = [self.expr(item, scope, ctx) for item in e.items]
                element: t.Type = t.ANY
                for item_expr, item in zip(e.items, items, strict=True):
                    if isinstance(element, t.AnyT):
                        element = item
                    elif not t.assignable(item, element):
                        self.error("E0201", item_expr.span,
                                   f"list items must share a type: {item} among {element}")
                return t.ListT(element)
            case n.Attribute():
                return self.attribute(e, scope, ctx)
            case n.Index():
                return self.index(e, scope, ctx)
            case n.Call():
                return self.call(e, scope, ctx)
            case n.Aggregate():
                return self.aggregate(e, scope, ctx)
            case n.Conditional():
                self.condition(e.cond, scope, ctx)
                then = self.expr(e.then, self.narrowed_scope(e.cond, scope), ctx)
                otherwise = self.expr(e.otherwise, scope, ctx)
                return self.unify(then, otherwise, e.otherwise)
            case n.BinaryOp():
                return self.binary(e, scope, ctx)
            case n.Not():
                self.operand(e.operand, self.expr(e.operand, scope, ctx), t.BOOL, "not")
                return t.BOOL
            case n.Negate():
                self.operand(e.operand, self.expr(e.operand, scope, ctx), t.INT, "-")
                return t.INT
            case n.EffectCall():
                for arg in e.args:
                    self.expr(arg, scope, ctx)
                self.expr(e.card, scope, ctx)
                return self.error("E0207", e.span,
                                  f"running '{e.field}' gives no value; use it as a statement")
            case n.EffectLit():
                return self.error("E0201", e.span, "statements cannot be used as a value here")
            case n.DataWord():  # resolve turns these into names or texts
                return t.ANY
            case n.Range():
                self.expect(e.low, self.expr(e.low, scope, ctx), t.INT, "the start of a range")
                self.expect(e.high, self.expr(e.high, scope, ctx), t.INT, "the end of a range")
                return t.ListT(t.INT)
            case _:  # mypy checks that every expression class is handled above
                assert_never(e)

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
        if any(e.id in names for names in m.seat_names.values()):
            places = {names.index(e.id) if e.id in names else -1
                      for names in m.seat_names.values()}
            if len(places) > 1:
                where = ", ".join(
                    (f"seat {names.index(e.id) + 1}" if e.id in names else "no seat")
                    + f" of {count}" for count, names in sorted(m.seat_names.items()))
                self.diagnostics.add("E0220", e.span, f"'{e.id}' is not the same seat in every "
                                     f"count of players ({where})", hint="name in the rules "
                                     "only a seat that every count has at the same place; "
                                     "reach the others through players, next_in or after")
                return t.ANY
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
        # `actor` is a word of the language, not a name: offered where an action has one.
        visible = [*self.visible_names(scope), *(["actor"] if ctx.actor else [])]
        return self.error("E0101", e.span, f"unknown name '{e.id}'",
                          hint=did_you_mean(e.id, visible))

    def attribute(self, e: n.Attribute, scope: Scope, ctx: Context) -> t.Type:
        m = self.model
        base = self.expr(e.obj, scope, ctx)
        key = narrowing_key(e)
        if isinstance(base, t.AnyT):
            return t.ANY
        if isinstance(base, t.OptionT):
            name = e.obj.id if isinstance(e.obj, n.Name) else None
            what = f"'{name}'" if name else "this value"
            self.error("E0202", e.obj.span, f"{what} may be none, so it has no field '{e.name}'",
                       hint=f"test it first: if {name or 'x'} != none {{ ... }}")
            obj_key = narrowing_key(e.obj)
            if obj_key is not None:  # said once: the rest of the block reads it as tested
                scope.narrowed[obj_key] = base.inner
            base = base.inner  # the field is still checked: a misspelt one is said now too
        if isinstance(base, (t.RecordT, t.CardT, t.DefT)) and base.name not in m.records:
            return t.ANY  # the unknown type was reported where it was named
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
            # the attributes every value of the kind has, besides its declared fields
            candidates += ["name"] if isinstance(base, named) else []
            candidates += ["owner"] if isinstance(base, t.CardT) else []
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
            # `hand[actor][0]`: the cards of a zone are not numbered
            return self.error("E0208", e.span,
                              f"the cards of zone '{base.zone}' are not read by position",
                              hint="take one with first(...) or last(...), or go through them "
                                   "with 'for c in ...'")
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
            function = self.function_symbols.get(e.func)
            if function is None:
                function = self.function_symbols[e.func] = sym.Function(e.func, info.span)
            m.symbols.calls[id(e)] = function
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
            builtin = self.builtin_symbols.get(e.func)
            if builtin is None:
                builtin = self.builtin_symbols[e.func] = sym.Builtin(e.func)
            m.symbols.calls[id(e)] = builtin
            return self.builtin(e, [self.expr(a, scope, ctx) for a in e.args])
        for arg in e.args:
            self.expr(arg, scope, ctx)
        if e.func in AGGREGATES:
            return self.error("E0201", e.span,
                              f"'{e.func}' takes a comprehension: {e.func}(x for x in ...)")
        if e.func == "<expression>":
            return self.error("E0201", e.span, "only named functions can be called")
        if e.func in TEAM_WORDS:  # a team is no value of its own: its players stand for it
            return self.error("E0101", e.func_span, f"unknown function '{e.func}': a team is "
                              "named by its players", hint=TEAM_HINT)
        return self.error("E0101", e.func_span, f"unknown function '{e.func}'",
                          hint=did_you_mean(e.func, [*m.functions, *BUILTINS]))

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
        if e.order_by is not None:
            key = self.expr(e.order_by, inner, ctx)
            self.expect(e.order_by, key, t.INT, "the sort key")
            if e.func not in ("first", "list"):
                self.error("E0213", e.order_by.span,
                           f"'ordered by' changes nothing in '{e.func}(...)'",
                           hint="order matters only to first(...), list(...) and a for loop: "
                                "drop 'ordered by' here")
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


# The expressions _expr hands to a method of their own, by class: found with one lookup
# rather than after a dozen isinstance tests.
_COMPOUND: dict[type, Callable[..., t.Type]] = {
    n.Name: ExpressionChecker.name,
    n.Attribute: ExpressionChecker.attribute,
    n.Index: ExpressionChecker.index,
    n.Call: ExpressionChecker.call,
    n.Aggregate: ExpressionChecker.aggregate,
    n.BinaryOp: ExpressionChecker.binary,
}


def _member_symbol(enum: EnumInfo, index: int) -> sym.EnumMember:
    spans = enum.member_spans
    return sym.EnumMember(enum.name, enum.members[index], index,
                          spans[index] if index < len(spans) else enum.span)
