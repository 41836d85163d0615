"""Typecheck, statements: blocks and each statement in them, assignments, calls of procedures and
of card effects, the `{name}` fields of texts, and the words written after a keyword statement on
its line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.check_base import Context, Scope
from compiler.check_builtins import AGGREGATES, BUILTINS
from compiler.check_expressions import ExpressionChecker, narrowing_key
from compiler.text_templates import TEMPLATE_FIELD
from dsl import nodes as n
from dsl.diagnostics import did_you_mean
from dsl.source import Span

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
    n.Reveal: ("reveal", "'reveal CARD', 'reveal ZONE', 'reveal CARDS to PLAYER' or "
                         "'reveal CARDS to PLAYERS'"),
    n.Goto: ("goto", "'goto PHASE'"),
    n.CallPhase: ("call", "'call PHASE'"),
    n.Return: ("return", "'return'"),
    n.Win: ("win", "'win PLAYER'"),
    n.Lose: ("lose", "'lose PLAYER'"),
    n.Raise: ("raise", "'raise EVENT(ARGUMENTS)'"),
    n.Require: ("require", "'require CONDITION else \"message\"'"),
}


class StatementChecker(ExpressionChecker):
    """Checks blocks of statements, in the scope and context they run in."""

    def block(self, block: n.Block, scope: Scope, ctx: Context) -> None:
        inner = scope.child()
        statements = block.statements
        if len(statements) == 1:  # nothing after it (most blocks of card texts)
            self.stmt(statements[0], inner, ctx)
            return
        for stmt, trailing in self.with_trailing_words(statements):
            self.stmt(stmt, inner, ctx)
            self.trailing_words(stmt, trailing)

    def in_loop(self, ctx: Context) -> Context:
        """ctx inside a `for` or `repeat` (one object per context: made for every loop)."""
        looped = self.looped.get(ctx)
        if looped is None:
            looped = self.looped[ctx] = replace(ctx, in_loop=True)
        return looped

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
        if not trailing or (isinstance(stmt, n.Reveal) and isinstance(stmt.to, n.Name)
                            and stmt.to.id == "team"
                            and id(stmt.to) not in self.model.symbols.names):
            return  # (`reveal X to team of p`: E0219 says what to write, at 'team')
        keyword, forms = STATEMENT_FORMS[type(stmt)]
        first = trailing[0]
        word = first.call.id if isinstance(first, n.CallStmt) and isinstance(
            first.call, n.Name) else None
        what = f"'{word}'" if word is not None else "the rest of the line"
        # (imported here: the grammar's words need the Lark parser, rarely loaded otherwise)
        from dsl.keyword_lexer import grammar_words

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
        return ("'reveal X' turns the cards face up for every player; 'reveal X to p' shows "
                "them to player p only, and 'reveal X to allies(p)' to p's team, until they "
                "move")

    def team_word(self, to: n.Expr, scope: Scope) -> bool:
        """Whether `reveal X to team ...` names no `team` of the rulebook's: the team form
        that does not exist (a team is the list of its players)."""
        return (isinstance(to, n.Name) and to.id == "team"
                and "team" not in self.visible_names(scope))

    def reveal_to(self, stmt: n.Reveal, revealed: t.Type, scope: Scope, ctx: Context) -> None:
        """`reveal X to p` or `reveal X to LIST`: a player or a list of players (a team:
        `allies(p)`), and X cards that only a reveal can show to them, those of a `secret`
        zone."""
        assert stmt.to is not None
        if self.team_word(stmt.to, scope):
            self.error("E0219", stmt.to.span,
                       "'reveal ... to team of p' is not a form: a team is shown cards as the "
                       "list of its players",
                       hint="'reveal X to allies(p)' shows them to p's teammates still in, "
                            "'reveal X to [p] + allies(p)' to p too, 'reveal X to p' to p alone")
            return
        whom = self.expr(stmt.to, scope, ctx)
        if (not isinstance(whom, t.AnyT) and not t.assignable(whom, t.PLAYER)
                and not t.assignable(whom, t.ListT(t.PLAYER))):
            self.error("E0201", stmt.to.span,
                       f"'reveal ... to' shows cards to a player or a list of players, not to "
                       f"{whom}",
                       hint="name one player ('reveal hand[t] to actor') or a list of players "
                            "('reveal hand[t] to allies(actor)', a team); to show cards to "
                            "every player, write 'reveal X' without 'to'")
        if not isinstance(revealed, t.ZoneT):
            return  # a card: where it lies is known only in play (docs/language.md §4)
        zone = self.model.zones.get(revealed.zone)
        if zone is None or zone.visibility == "secret":
            return
        why = {"public": "every player sees its cards already",
               "private": "other players do not even see how many cards it holds",
               }.get(zone.visibility, "other players see only how many cards it holds")
        self.error("E0214", stmt.what.span,
                   f"zone '{zone.name}' is '{zone.visibility}': {why}, so 'reveal ... to' "
                   "would show nothing",
                   hint=f"declare it 'secret' (its owner sees it, others its count and the "
                        f"cards revealed to them): 'zone {zone.name}: {zone.card_type} secret"
                        f"{' per ' + ', per '.join(zone.per_words()) if zone.per else ''}'")

    def stmt(self, stmt: n.Stmt, scope: Scope, ctx: Context) -> None:
        m = self.model
        if not ctx.effects:
            self.error("E0207", stmt.span, "statements are not allowed here")
            return
        match stmt:
            case n.Let():
                value = self.expr(stmt.value, scope, ctx)
                if isinstance(value, t.NoneT):
                    self.error(
                        "E0201", stmt.value.span,
                        f"'{stmt.name}' takes its type from its value, and 'none' alone has "
                        "no type",
                        hint="start it at a value of the type it will hold ('let x = A'), or at an "
                             "optional one ('let x = first(p for p in players where ...)' is a "
                             "player? that may be none). A variable's type cannot be written out; "
                             "a field's can: 'x: player? = none' in 'state { }'")
                    value = t.ANY  # what the variable holds is unknown: no error at its uses
                scope.names[stmt.name] = (value, sym.Local(stmt.name, "let", stmt.span))
                self.unnarrow(stmt.name, scope)
            case n.Assign():
                self.assign(stmt, scope, ctx)
            case n.CallStmt():
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
            case n.If():
                for cond, body in stmt.branches:
                    self.condition(cond, scope, ctx)
                    self.block(body, self.narrowed_scope(cond, scope), ctx)
                if stmt.otherwise is not None:
                    self.block(stmt.otherwise, scope, ctx)
            case n.For():
                self.block(stmt.body, self.loop_scope(stmt, scope, ctx), self.in_loop(ctx))
            case n.Repeat():
                self.expect(stmt.count, self.expr(stmt.count, scope, ctx), t.INT, "the count")
                body_scope = scope
                if stmt.while_ is not None:
                    self.condition(stmt.while_, scope, ctx)
                    body_scope = self.narrowed_scope(stmt.while_, scope)
                self.block(stmt.body, body_scope, self.in_loop(ctx))
            case n.Break():
                if not ctx.in_loop:
                    self.error("E0207", stmt.span,
                               "'break' leaves a 'for' or 'repeat' loop, and none is around it",
                               hint="to end a phase's work, go to another phase with 'goto'")
            case n.Move():
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
            case n.Draw():
                self.expect(stmt.count, self.expr(stmt.count, scope, ctx), t.INT, "the count")
                source = self.zone(stmt.source, scope, ctx)
                self.needs_order(source, stmt.source, "draw from")
                dest = self.zone(stmt.dest, scope, ctx)
                if source and dest and source.card_type != dest.card_type:
                    self.error("E0201", stmt.dest.span,
                               f"cannot draw {source.card_type} into a zone of {dest.card_type}")
            case n.Shuffle():
                self.needs_order(self.zone(stmt.zone, scope, ctx), stmt.zone, "shuffle")
            case n.Create():
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
            case n.Reveal():
                revealed = self.expr(stmt.what, scope, ctx)
                if not isinstance(revealed, (t.ZoneT, t.CardT, t.AnyT)):
                    self.error("E0201", stmt.what.span,
                               f"only zones and cards are revealed, not {revealed}")
                if stmt.to is not None:
                    self.reveal_to(stmt, revealed, scope, ctx)
            case n.CallPhase() if ctx.kind == "setup":
                self.error("E0207", stmt.span,
                           "'call' comes back to the phase that called, and setup is none",
                           hint=f"start with 'goto {stmt.phase}'")
            case n.Return() if ctx.kind not in ("enter", "done", "action", "procedure"):
                self.error("E0207", stmt.span,
                           "'return' ends a called phase: it belongs in that phase's "
                           "'on enter', 'on done' or actions, or in a procedure they call",
                           hint="to move on from here, use 'goto PHASE'")
            case n.Return():
                pass  # which phases return, and whether a `call` enters them: reach.py
            case n.Goto():
                if stmt.phase not in m.phases:
                    span = stmt.span
                    if span.line == span.end_line and span.end_column - len(stmt.phase) > \
                            span.column:  # the name ends the statement: underline it alone
                        span = Span(span.file, span.line, span.end_column - len(stmt.phase),
                                    span.line, span.end_column)
                    self.error("E0105", span, f"unknown phase '{stmt.phase}'",
                               hint=did_you_mean(stmt.phase, m.phases))
            case n.Win() | n.Lose():
                self.expect(stmt.player, self.expr(stmt.player, scope, ctx), t.PLAYER, "the player")
            case n.DrawGame():
                pass
            case n.Raise():
                event = m.events.get(stmt.event)
                if event is None:
                    self.error("E0101", stmt.span, f"unknown event '{stmt.event}'",
                               hint=did_you_mean(stmt.event, m.events))
                    for arg in stmt.args:
                        self.expr(arg, scope, ctx)
                else:
                    self.arguments(stmt.event, event.params, stmt.args, stmt.span, scope, ctx)
            case n.Require():
                self.error("E0207", stmt.span,
                           "'require' may only open an action, before its effects",
                           hint="move it to the top of the action")
            case _:  # mypy checks that every statement class is handled above
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
        symbol = self.procedure_symbols.get(call.func)
        if symbol is None:
            symbol = self.procedure_symbols[call.func] = sym.Procedure(call.func, info.span)
        self.model.symbols.calls[id(call)] = symbol
        if self.current is not None:
            self.calls[self.current].add(call.func)
        self.arguments(call.func, info.params, call.args, call.span, scope, ctx)

    def needs_order(self, zone: t.ZoneT | None, expr: n.Expr, what: str) -> None:
        if zone is not None and not self.model.zones[zone.zone].ordered:
            self.error("E0208", expr.span,
                       f"cannot {what} zone '{zone.zone}': it is not ordered",
                       hint=f"declare it: zone {zone.zone}: {zone.card_type} ordered ...")

    def written_in(self, span: Span, part: str) -> Span:
        """Where `part` (a `{field}`) is written within span's first line; span when it is
        not written there as it reads (an escape in the text before it)."""
        source = self.model.sources.get(span.file)
        if source is None or span.line > len(source.lines):
            return span
        line = source.line(span.line)
        end = span.end_column - 1 if span.end_line == span.line else len(line)
        found = line.find(part, span.column - 1, end)
        if found < 0:
            return span
        return Span(span.file, span.line, found + 1, span.line, found + 1 + len(part))

    def template(self, text: str, span: Span, names: set[str],
                 what: str = "a parameter of the action") -> None:
        left = TEMPLATE_FIELD.sub("", text)
        for brace, partner in (("{", "}"), ("}", "{")):
            if brace in left:  # it would print as it is written, braces and all
                self.error("E0210", span, f"a '{brace}' in the text without its '{partner}'",
                           hint="a field is written {name}, whole; a text cannot show a brace")
                break
        for match in TEMPLATE_FIELD.finditer(text):
            if match.group(1) not in names:
                self.error(
                    "E0210",
                    self.written_in(span, match.group(0)),
                    f"'{{{match.group(1)}}}' in the text is not {what}",
                    hint=did_you_mean(match.group(1), names)
                    or "use {actor} or a parameter's name",
                )


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


def effect_key(card_type: str, field: str) -> str:
    """The call-graph name of every card's text for one effect field."""
    return f"the {field} of {card_type} cards"
