"""Typecheck, actions: the parameters and their domains, the text an action says (no two alike),
the `require` lines that open its body and the effects after them.
"""

from __future__ import annotations

from compiler import symbols as sym
from compiler import types as t
from compiler.check_base import Context, Scope
from compiler.check_statements import StatementChecker
from compiler.model import ActionInfo, GameModel
from compiler.text_templates import TEMPLATE_FIELD
from dsl import nodes as n
from dsl.diagnostics import Diagnostics


class ActionChecker(StatementChecker):
    """Checks each action of a phase."""

    def __init__(self, model: GameModel, diagnostics: Diagnostics) -> None:
        super().__init__(model, diagnostics)
        self.texts: dict[str, str] = {}  # an action text's shape → the action that has it

    def unseen_choices(self, name: str, domain: n.Expr) -> None:
        """W0221: a parameter whose choices are the cards of another player's zone that the
        actor may not see: the legal actions list them, by name, to the actor (and `play`,
        `serve` and every agent show them)."""
        if not isinstance(domain, n.Index):
            return
        slot = self.model.symbols.indexes.get(id(domain))
        if not isinstance(slot, sym.ZoneSlot):
            return
        zone = self.model.zones[slot.zone]
        if zone.visibility not in ("owner", "secret", "private", "team") \
                or "player" not in zone.per:
            return
        key = domain.keys[zone.per.index("player")] if len(domain.keys) > len(
            zone.per) - 1 else None
        if key is None or isinstance(key, n.ActorRef):
            return
        self.diagnostics.add(
            "W0221", domain.span,
            f"the choices of '{name}' are the cards of a {zone.visibility} zone the actor may "
            f"not see: the legal actions name each one to them",
            hint="choose something the actor can see (a value to guess), or reveal the zone "
                 "to the actor first")

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
                self.unseen_choices(name, domain)
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
        fields = {field.strip() for field in TEMPLATE_FIELD.findall(decl.says or "")}
        for param in decl.params:
            if param.announced and decl.says is not None and param.name not in fields:
                self.error("E0210", param.span,
                           f"parameter '{param.name}' is announced but the action's text "
                           "never says it",
                           hint=f"write '{{{param.name}}}' in the 'says' text: an announced "
                                "parameter is what every player reads there")
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
