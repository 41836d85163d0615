"""Pass 2 — typecheck: resolve every name in its scope and give every expression a type.

Records, in the model, the type of each expression and what each name, attribute, index and call
refers to, for the generators. Errors are collected; an expression with an error gets the type
`?`, which fits everywhere, so one mistake does not cascade into many.

The Checker combines one class per kind of thing checked, each in a module of its own:
check_data (entries, defaults, effect texts, card requires, deck rules), check_actions,
check_statements, check_expressions (with check_builtins), check_termination (no recursion),
all on check_base (scopes, contexts, reporting). Here: the order in which the pass checks
the model's parts.
"""

from __future__ import annotations

from compiler import types as t
from compiler.check_actions import ActionChecker
from compiler.check_base import Context, Scope
from compiler.check_data import DataChecker
from compiler.check_termination import TerminationChecker
from compiler.consteval import evaluate
from compiler.model import GameModel
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, did_you_mean


class Checker(DataChecker, ActionChecker, TerminationChecker):
    """The typecheck pass: every part of the model, checked by the part of the checker
    that knows it."""

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
        if m.team_size is not None:
            # worked out before setup, from the options and the defaults of the state
            actual = self.expr(m.team_size, Scope(), constant)
            self.expect(m.team_size, actual, t.INT, "the size of a team")
        self.count_lines(constant)
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
        heuristic = m.functions.get("heuristic")
        if heuristic is not None and (
                [kind for _name, kind in heuristic.params] != [t.PLAYER]
                or heuristic.returns != t.INT):
            # the lab's agents call it as heuristic(state, p) and compare numbers
            self.error("E0201", heuristic.span,
                       "'heuristic' is the score the lab's agents read: it takes one player "
                       "and gives an int",
                       hint="declare it as 'function heuristic(p: player) -> int = ...'")
        for diagram in m.diagrams:  # after the functions, whose symbols it reads
            self.diagram(diagram)
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
                if decl.responders is not None:
                    self.responders(decl)
                if decl.done is not None:
                    self.block(decl.done, Scope(), Context("done"))
                for checkpoint_block in decl.checkpoints:
                    self.block(checkpoint_block, Scope(), Context("checkpoint", actor=True))
                for action in phase.actions:
                    self.action(action)
        self.recursion()

    def count_lines(self, constant: Context) -> None:
        """`players ... if CONDITION`: a bool on the options alone (there is no state yet when
        new_game checks the count), and one line at least that holds with the defaults."""
        m = self.model
        members = {member for enum in m.enums.values() for member in enum.members}
        holds = bool(m.always_counts)
        for _, condition, _ in m.count_lines:
            bad = [e for e in n.walk(condition) if not isinstance(e, _OPTION_NODES)
                   or isinstance(e, n.Name) and e.id not in m.options and e.id not in members]
            if bad:
                what = f"'{bad[0].id}'" if isinstance(bad[0], n.Name) else "this"
                self.error("E0217", bad[0].span, f"{what} is not an option: a players line's "
                           "condition reads the options only",
                           hint=f"options: {', '.join(m.options) or 'none declared'}")
                holds = True  # which lines hold is not known: one error at a time
                continue
            actual = self.expr(condition, Scope(), constant)
            self.expect(condition, actual, t.BOOL, "the condition of a players line")
            if evaluate(condition, {}, m) is True:
                holds = True
        if m.count_lines and not holds:
            self.error("E0217", m.count_lines[0][2], "no players line holds with the default "
                       "options: new_game() could start no game",
                       hint="give one line no 'if', or one whose condition the defaults meet")

    def responders(self, decl: n.PhaseDecl) -> None:
        """`responders from START where COND`: START a player, COND a condition on `actor`."""
        window = decl.responders
        assert window is not None
        if decl.actor is not None:
            self.error("E0207", window.span,
                       f"phase '{decl.name}' has both 'actor' and 'responders'",
                       hint="'responders' says who acts: every other player in turn order; "
                            "remove the 'actor' clause")
        start = self.expr(window.start, Scope(), Context("actor", effects=False))
        self.expect(window.start, start, t.PLAYER, "the player the window starts from")
        if window.where is not None:
            self.condition(window.where, Scope(),
                           Context("actor", actor=True, effects=False))


def typecheck(model: GameModel, diagnostics: Diagnostics) -> None:
    Checker(model, diagnostics).run()


# what a players line's condition is made of: options, enum members, literals and operators
_OPTION_NODES = (n.Name, n.BoolLit, n.IntLit, n.StrLit, n.BinaryOp, n.Not, n.Negate,
                 n.Conditional)
