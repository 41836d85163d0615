"""The rule bodies compiled to Python: functions, procedures, effects, deck rules, events,
checkpoints, setup and phases."""

from __future__ import annotations

from compiler import types as t
from compiler.model import PhaseInfo
from compiler.pygen_actions import ActionGenerator
from compiler.pygen_base import Bindings, py_type, upper
from compiler.pygen_decks import DeckRuleGenerator
from dsl import nodes as n
from dsl.source import Span


class RuleGenerator(ActionGenerator, DeckRuleGenerator):
    """The rule bodies: functions, procedures, effects, deck rules, events,
    checkpoints, setup and phases (with their actions)."""

    def functions(self) -> None:
        for info in self.model.functions.values():
            decl = info.decl
            assert isinstance(decl, n.FunctionDecl) and info.returns is not None
            self.bindings = Bindings()
            params = self.params(info.params)
            with self.function(f"def f_{info.name}(s: State{params}) -> "
                               f"{py_type(info.returns)}:", decl.span, info.doc):
                self.return_value(decl.body)

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

    def responders(self, phase: str, window: n.Responders) -> None:
        """A window every other player gets (`responders`): where it starts, who may answer,
        and the actor, whom the runtime finds in turn order (GameState.responder)."""
        self.bindings = Bindings()
        with self.function(f"def window_{phase}(s: State) -> int:", window.start.span):
            self.return_value(window.start)
        where = "None"
        if window.where is not None:
            where = f"responds_{phase}"
            self.bindings = Bindings()
            with self.function(f"def responds_{phase}(s: State, actor: int) -> bool:",
                               window.where.span):
                self.return_value(window.where)
        with self.function(f"def actor_{phase}(s: State) -> int | None:", window.span):
            self.w.line(f"return s.responder({self.phase_index[phase]}, {where})")

    def phases(self) -> None:
        for phase in self.model.phases.values():
            decl = phase.decl
            if decl.enter is not None:
                self.callable_body(f"enter_{phase.name}", [], decl.enter, decl.enter.span)
            if decl.done is not None:
                self.callable_body(f"done_{phase.name}", [], decl.done, decl.done.span)
            if decl.actor is not None:
                self.bindings = Bindings()
                # the actor is asked after every action, as often as a listing is made
                with self.function(f"def actor_{phase.name}(s: State) -> int | None:",
                                   decl.actor.span):
                    self.return_value(decl.actor)
            if decl.responders is not None:
                self.responders(phase.name, decl.responders)
            for i, block in enumerate(decl.checkpoints):
                self.callable_body(f"checkpoint_{phase.name}_{i}", [], block, block.span,
                                   extra=", actor: int")
            if decl.checkpoints or decl.responders is not None:
                with self.function(f"def checkpoints_{phase.name}(s: State, actor: int) -> None:",
                                   decl.span):
                    if decl.responders is not None:  # who acted has answered the window
                        self.w.line(f"s.answered({self.phase_index[phase.name]}, actor)")
                    for i in range(len(decl.checkpoints)):
                        self.w.line(f"checkpoint_{phase.name}_{i}(s, actor)")
            for action in phase.actions:
                self.action(action)
            if self.has_ply(phase):
                self.ply(phase)
            if len(phase.actions) < 2:  # the phase lists its one action's legal_ (wiring)
                continue
            with self.function(f"def phase_legal_{phase.name}(s: State, actor: int, "
                               "out: list[Action], check: bool) -> None:", decl.span):
                for action in phase.actions:
                    self.w.line(f"legal_{action.name}(s, actor, out, check)")

    def has_ply(self, phase: PhaseInfo) -> bool:
        """Whether a phase gets a ply (ply): it has actions and an actor of its own (not a
        window's), in a game where nobody is ever out (whom advance() refuses as an actor)."""
        decl = phase.decl
        return (bool(phase.actions) and decl.actor is not None and decl.responders is None
                and not self.model.has_out)

    def ply(self, phase: PhaseInfo) -> None:
        """A listed action of the phase applied and the next actor asked in one function
        (StateCore.PLY): what apply_action and advance() do after most actions, without the
        dispatch through their tables or the call of the actor (Dynasties' playouts 2 to 3%
        faster). apply_action has checked that the action is listed (rt.Listed) and is its
        actor's; False leaves a kind the phase does not have to it."""
        decl = phase.decl
        assert decl.actor is not None
        w = self.w
        self.bindings = Bindings()
        with self.function(f"def ply_{phase.name}(s: State, a: Action) -> bool:", decl.span):
            w.line("kind = a.kind")
            for i, action in enumerate(phase.actions):
                with w.block(f"{'if' if i == 0 else 'elif'} kind == K_{upper(action.name)}:"):
                    w.line(f"reason = apply_{action.name}(s, a)")
            with w.block("else:"):
                w.line("return False")
            with w.block("if reason is not None:"):
                w.line("raise IllegalAction(reason)")
            if decl.checkpoints:
                w.line(f"checkpoints_{phase.name}(s, a.actor)")
            if self.model.checkpoints:
                w.line("s.run_checkpoints()")
            with w.block("if s.pending == -1 and s.result is None:"):
                who = self.bindings.reserve("who")
                w.source(decl.actor.span)
                self.assign_value(decl.actor, who)
                with w.block(f"if {who} is not None:"):
                    w.line(f"s.actor = {who}")
                    w.line("return True")
                w.line("s.phase_over()")
                w.line("return True")
            w.line("s.follow()")
            w.line("return True")
