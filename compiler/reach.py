"""Pass 3 — reach: what can happen at all.

Phases unreachable from setup, actions no one can take, triggers on events nothing raises, zones
no card can enter, declarations never used, phases with no way on, games that cannot end, and
seed rules neither encoded nor explained.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from compiler.ast_walk import Push, pusher
from compiler.model import GameModel, RecordInfo
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, did_you_mean
from dsl.source import Span


@dataclass
class Effects:
    """What a body can do, directly or through the procedures it calls."""

    gotos: set[str] = field(default_factory=set)
    raises: set[str] = field(default_factory=set)
    calls: set[str] = field(default_factory=set)
    ends: bool = False

    def absorb(self, other: Effects) -> set[str]:
        """Add what `other` does; return the procedures it calls that were not known yet."""
        self.gotos |= other.gotos
        self.raises |= other.raises
        self.ends |= other.ends
        new = other.calls - self.calls
        self.calls |= new
        return new


# What a `return` adds to a body's gotos: a way on to the phase that called, never a phase name.
RETURN = "<return>"


def direct_effects(model: GameModel, body: n.Node) -> Effects:
    effects = Effects()
    for node in n.walk(body):
        note_effect(model, effects, node)
    return effects


def note_effect(model: GameModel, effects: Effects, node: n.Node) -> None:
    """What one node of a body does (not counting its children)."""
    match node:
        case n.Goto():
            effects.gotos.add(node.phase)
        case n.Return():
            effects.gotos.add(RETURN)
        case n.Raise():
            effects.raises.add(node.event)
        case n.Win() | n.Lose() | n.DrawGame():
            effects.ends = True
        case n.Call() if node.func in model.procedures:
            effects.calls.add(node.func)
        case n.EffectCall():
            effect = model.symbols.effects.get(id(node))
            if effect is not None:
                effects.calls.add(effect_key(effect.card_type, effect.name))
        case _:
            pass  # any other node does nothing by itself


def stuck_phase_hint(phase: n.PhaseDecl) -> str:
    """A way on that would run: 'on done' runs only when the phase's actor gives none, so a
    phase with an actor is told to move on from an action or a checkpoint instead."""
    if phase.actor is None and phase.responders is None:
        return "add: on done { goto NEXT_PHASE }, or end the game there"
    return ("give an action a 'goto NEXT_PHASE', or end the game ('win', 'lose' or 'draw game') "
            "in a checkpoint; 'on done' runs only when 'actor' gives none")


def effect_key(record: str, field: str) -> str:
    """The name under which the effects of every card's `field` count as one procedure."""
    return f"{record}.{field} effects"


def card_effects(
    model: GameModel, known: dict[int, tuple[n.Block, Effects]] | None = None
) -> dict[str, Effects]:
    """What running a card type's effect field can do, over all of its cards. `known`: the
    direct effects of bodies already found, by id of the body (kept beside them)."""
    result: dict[str, Effects] = {}
    for record in model.records.values():
        for name, bodies in known_effect_bodies(record).items():
            total = Effects()
            for body in bodies:
                found = known.get(id(body)) if known is not None else None
                total.absorb(found[1] if found is not None else direct_effects(model, body))
            result[effect_key(record.name, name)] = total
    return result


def known_effect_bodies(record: RecordInfo) -> dict[str, list[n.Block]]:
    """effect_bodies from the texts resolve kept (RecordInfo.effect_texts)."""
    found: dict[str, list[n.Block]] = {}
    for name, info in record.fields.items():
        bodies: dict[int, n.Block] = {}
        if isinstance(info.default, n.EffectLit):
            bodies[id(info.default.body)] = info.default.body
        for key, body in record.effect_texts.get(name, {}).items():
            bodies.setdefault(key, body)
        if bodies:
            found[name] = list(bodies.values())
    return found


# Data values that name nothing and hold no other node (most of a card set's values).
_PLAIN_VALUES = frozenset({n.IntLit, n.StrLit, n.BoolLit, n.NoneLit, n.DataWord})


@dataclass
class Uses:
    """What the rules and the cards name: what `unused`, `zones_entered` and `coverage` look
    for in every node of every module (each effect text that cards share looked at once)."""

    names: set[str] = field(default_factory=set)  # names and the types that are named
    fields: set[str] = field(default_factory=set)  # fields read, and fields data gives
    read: set[str] = field(default_factory=set)  # fields read (attributes) only
    calls: set[str] = field(default_factory=set)
    entered: set[str] = field(default_factory=set)  # zones cards are moved, drawn or created in
    annotations: list[n.Annotation] = field(default_factory=list)  # in the order of the nodes
    called_phases: set[str] = field(default_factory=set)  # phases some `call PHASE` enters


# What UseFinder and note_effect look at in a node, by the node's class: one lookup instead
# of their chains of isinstance tests (classes tested in the same order).
_NOTHING, _NAME, _ATTRIBUTE, _CALL, _NAMED_TYPE, _FIELD_VALUE, _DEST = range(7)
_GOTO, _RAISE, _END, _EFFECT_CALL, _EFFECT_LIT, _DATA = range(7, 13)
_ROLES: tuple[tuple[type | tuple[type, ...], int], ...] = (
    (n.EffectLit, _EFFECT_LIT), (n.DataDecl, _DATA),
    (n.Name, _NAME), (n.Attribute, _ATTRIBUTE), (n.Call, _CALL), (n.NamedType, _NAMED_TYPE),
    (n.FieldValue, _FIELD_VALUE), ((n.Move, n.Draw, n.Create), _DEST),
    (n.Goto, _GOTO), (n.Raise, _RAISE), ((n.Win, n.Lose, n.DrawGame), _END),
    (n.EffectCall, _EFFECT_CALL),
)
# class → role, whether it has annotations, and its pusher (most nodes of an effect text, names
# and numbers, hold no node: their children are not looked for)
_ROLE_OF: dict[type, tuple[int, bool, Push | None]] = {}


def _role(kind: type[n.Node]) -> tuple[int, bool, Push | None]:
    role = next((role for classes, role in _ROLES if issubclass(kind, classes)), _NOTHING)
    found = _ROLE_OF[kind] = (role, hasattr(kind, "annotations"), pusher(kind))
    return found


class UseFinder:
    """What every node uses, in one walk that also finds the direct effects of each effect text:
    every node in the order of a generic walk (n.children), each shared effect text walked
    once, the entries of data declarations (a card set's cards) without the generic children(),
    and each node's class looked up once instead of tested against each kind that matters."""

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.uses = Uses()
        self.shared: set[int] = set()
        # direct_effects of each effect text walked, by id (the body kept beside them)
        self.effects: dict[int, tuple[n.Block, Effects]] = {}

    def run(self) -> Uses:
        for module in self.model.modules:
            self.walk(module, None)
        return self.uses

    def effect_lit(self, node: n.EffectLit) -> None:
        """An effect value: its text, unless one walked already."""
        if id(node.body) in self.shared:
            return
        self.shared.add(id(node.body))
        effects = Effects()
        if self.walk(node.body, effects):
            self.effects[id(node.body)] = (node.body, effects)

    def walk(self, root: n.Node, effects: Effects | None) -> bool:
        """Note what the nodes under root (included) use, and do when `effects` is given; false
        when an effect value inside kept some nodes out of `effects`."""
        uses, model = self.uses, self.model
        whole = True
        stack: list[n.Node] = [root]
        while stack:
            node = stack.pop()
            kind = type(node)
            role, annotated, push = _ROLE_OF.get(kind) or _role(kind)
            if role == _NOTHING and not annotated:  # most nodes: none of the tests below
                if push is not None:
                    push(stack, node)
                continue
            if role == _EFFECT_LIT:
                assert isinstance(node, n.EffectLit)
                if effects is not None:
                    whole = False
                self.effect_lit(node)  # what every_node lists next: its nodes, if any
                continue
            if role == _DATA and effects is None:
                assert isinstance(node, n.DataDecl)
                uses.annotations.extend(node.annotations)
                self.entries(node)
                continue
            if role == _NAME:
                assert isinstance(node, n.Name)
                uses.names.add(node.id)
            elif role == _ATTRIBUTE:
                assert isinstance(node, n.Attribute)
                uses.fields.add(node.name)
                uses.read.add(node.name)
            elif role == _CALL:
                assert isinstance(node, n.Call)
                uses.calls.add(node.func)
                if effects is not None and node.func in model.procedures:
                    effects.calls.add(node.func)
            elif role == _NAMED_TYPE:
                assert isinstance(node, n.NamedType)
                uses.names.add(node.name)
            elif role == _FIELD_VALUE:
                assert isinstance(node, n.FieldValue)
                uses.fields.add(node.name)
            elif role == _DEST:
                assert isinstance(node, (n.Move, n.Draw, n.Create))
                base = node.dest.obj if isinstance(node.dest, n.Index) else node.dest
                if isinstance(base, n.Name):
                    uses.entered.add(base.id)
            elif role == _GOTO:
                assert isinstance(node, n.Goto)
                if isinstance(node, n.CallPhase):
                    uses.called_phases.add(node.phase)
                if effects is not None:
                    note_effect(model, effects, node)
            elif effects is not None and role != _NOTHING:
                note_effect(model, effects, node)  # raise, win, lose, draw, c.effect()
            if annotated:
                # statements and declarations: _role found that the class has annotations
                annotations = cast("n.Stmt | n.Decl", node).annotations
                if annotations:
                    uses.annotations.extend(annotations)
            if push is not None:
                push(stack, node)
        return whole

    def entries(self, decl: n.DataDecl) -> None:
        """The nodes under a data declaration, as walk() would take them. Entries and lists
        use nothing themselves (no annotations, no names): only their values are looked at."""
        add_field = self.uses.fields.add
        plain = _PLAIN_VALUES
        for entry in decl.entries:
            for field_value in entry.values:
                add_field(field_value.name)  # what walk() notes for a FieldValue
                value = field_value.value
                if type(value) in plain:
                    continue
                if isinstance(value, n.EffectLit):
                    self.effect_lit(value)
                elif isinstance(value, n.ListLit):
                    for item in value.items:
                        if type(item) not in plain:
                            self.walk(item, None)
                else:
                    self.walk(value, None)


def _events_in_loop(event: str, raised_by: dict[str, set[str]]) -> set[str]:
    """The events on a loop back to event (each reached from it and leading back to it);
    empty when raising event never raises it again."""
    reached = _reached_from(event, raised_by)
    if event not in reached:
        return set()
    return {e for e in reached if event in _reached_from(e, raised_by)}


def _reached_from(event: str, raised_by: dict[str, set[str]]) -> set[str]:
    """The events that raising event raises, directly or through triggers."""
    reached: set[str] = set()
    pending = list(raised_by.get(event, ()))
    while pending:
        current = pending.pop()
        if current not in reached:
            reached.add(current)
            pending.extend(raised_by.get(current, ()))
    return reached


class Reach:
    def __init__(self, model: GameModel, diagnostics: Diagnostics) -> None:
        self.model = model
        self.diagnostics = diagnostics
        self.procedure_effects = {
            name: direct_effects(model, info.decl) for name, info in model.procedures.items()
        }
        finder = UseFinder(model)
        self.uses = finder.run()
        self.procedure_effects.update(card_effects(model, finder.effects))
        self.trigger_effects = {
            trigger.name: direct_effects(model, trigger) for trigger in model.triggers
        }

    def closure(self, effects: Effects) -> Effects:
        """Effects including those of every procedure and trigger reachable from the body."""
        total = self.closure_without_triggers(effects)
        seen_triggers: set[str] = set()
        while True:
            fired = [
                trigger for trigger in self.model.triggers
                if trigger.event in total.raises and trigger.name not in seen_triggers
            ]
            if not fired:
                return total
            for trigger in fired:
                seen_triggers.add(trigger.name)
                self.absorb_calls(total, total.absorb(self.trigger_effects[trigger.name]))

    def run(self) -> None:
        m = self.model
        if m.setup is None:
            span = m.game_span or Span.point(next(iter(m.sources), "?"))
            self.diagnostics.add("E0302", span, "the rulebook has no setup block",
                                 hint="add: setup { ... goto FIRST_PHASE }")
            return
        setup = self.closure(direct_effects(m, m.setup))
        if not setup.gotos:
            self.diagnostics.add("E0302", m.setup.span, "setup never moves to a first phase",
                                 hint="end setup with: goto PHASE")
        phase_effects = {
            name: self.closure(direct_effects(m, info.decl)) for name, info in m.phases.items()
        }
        reachable: set[str] = set()
        pending = [p for p in setup.gotos if p in m.phases]
        everything = Effects(set(setup.gotos), set(setup.raises), set(setup.calls), setup.ends)
        while pending:
            name = pending.pop()
            if name in reachable:
                continue
            reachable.add(name)
            everything.absorb(phase_effects[name])
            pending.extend(p for p in phase_effects[name].gotos if p in m.phases)
        # Global checkpoints run after every step of every phase (docs/language.md, the phase
        # loop), so a goto or an end in one is a way on for each phase.
        global_checkpoints = Effects()
        for checkpoint in m.checkpoints:
            global_checkpoints.absorb(self.closure(direct_effects(m, checkpoint)))
        everything.absorb(global_checkpoints)
        for name, info in m.phases.items():
            decl = info.decl
            if name not in reachable:
                self.diagnostics.add("W0301", decl.span, f"phase '{name}' is never reached",
                                     hint="no goto reachable from setup leads here")
                continue
            if decl.actor is None and decl.responders is None:
                for action in info.actions:
                    self.diagnostics.add(
                        "W0302", action.decl.span,
                        f"action '{action.name}' can never be taken: phase '{name}' has no actor",
                        hint="add an 'actor' clause to the phase")
            ways_on = Effects()
            # re-entering itself from these would spin with nobody to act
            ways_on.gotos |= global_checkpoints.gotos - {name}
            ways_on.ends |= global_checkpoints.ends
            for body in (decl.enter, decl.done):
                if body is not None:
                    inner = self.closure(direct_effects(m, body))
                    ways_on.gotos |= inner.gotos - {name}
                    ways_on.ends |= inner.ends
            if decl.actor is not None or decl.responders is not None:
                # The phase's own checkpoints run after each of its actions, so only with an actor.
                bodies: list[n.Node] = [action.decl for action in info.actions]
                for body_node in [*bodies, *decl.checkpoints]:
                    inner = self.closure(direct_effects(m, body_node))
                    ways_on.gotos |= inner.gotos  # an action may restart its own phase
                    ways_on.ends |= inner.ends
            if not ways_on.gotos and not ways_on.ends:
                self.diagnostics.add(
                    "E0301", decl.span,
                    f"phase '{name}' never moves on: nothing in it or in a checkpoint has a "
                    "goto or ends the game", hint=stuck_phase_hint(decl))
        if not everything.ends:
            span = m.game_span or m.setup.span
            self.diagnostics.add("E0303", span, "no rule ever ends the game",
                                 hint="use 'win PLAYER', 'lose PLAYER' or 'draw game'")
        self.returns_called(phase_effects)
        self.trigger_cycles()
        for trigger in m.triggers:
            if trigger.event in m.events and trigger.event not in everything.raises:
                self.diagnostics.add("W0303", trigger.span,
                                     f"trigger '{trigger.name}' never fires: nothing raises "
                                     f"'{trigger.event}'")
        self.zones_entered()
        self.unused(everything)
        self.coverage()

    def returns_called(self, phase_effects: dict[str, Effects]) -> None:
        """A `return` in a phase that no `call` enters, even through gotos from a called
        phase (which keep the way back), could only fail in play."""
        called = set(self.uses.called_phases)  # UseFinder met every node of every module
        pending = list(called)
        while pending:
            for later in phase_effects.get(pending.pop(), Effects()).gotos:
                if later in self.model.phases and later not in called:
                    called.add(later)
                    pending.append(later)
        for name, info in self.model.phases.items():
            if name in called:
                continue
            for node in n.walk(info.decl):
                if isinstance(node, n.Return):
                    self.diagnostics.add(
                        "E0207", node.span,
                        f"phase '{name}' returns, but no 'call' leads to it: there is no "
                        "phase to come back to",
                        hint=f"enter it with 'call {name}' where the game should come back, "
                             "or move on with 'goto PHASE' instead of 'return'")

    def trigger_cycles(self) -> None:
        """A trigger whose effects raise its own event again would never stop. When card texts
        raise the events of the loop, those texts are blamed (a designer changing a card set
        made the loop) rather than the trigger, which is named in a note."""
        m = self.model
        raised_by: dict[str, set[str]] = {}
        raises: dict[str, set[str]] = {}  # by trigger
        for trigger in m.triggers:
            own = self.trigger_effects[trigger.name]
            total = raises[trigger.name] = set(own.raises)
            for callee in self.closure(Effects(calls=set(own.calls))).raises:
                total.add(callee)
            raised_by.setdefault(trigger.event, set()).update(total)
        blamed: set[int] = set()
        for trigger in m.triggers:
            loop = _events_in_loop(trigger.event, raised_by)
            if not loop & raises[trigger.name]:
                continue  # not in a loop, or only listening to one (it raises nothing of it)
            texts = self.card_texts_raising(trigger, loop)
            if not texts:
                self.diagnostics.add(
                    "E0211", trigger.span,
                    f"trigger '{trigger.name}' raises '{trigger.event}' again, directly or "
                    "through other triggers, so it would never stop")
            for field_name, body, event in texts:
                if id(body) in blamed:
                    continue
                blamed.add(id(body))
                # the text's own `raise` of the event, when it has one (not via a procedure)
                where = next((node.span for node in n.walk(body)
                              if isinstance(node, n.Raise) and node.event == event), body.span)
                self.diagnostics.add(
                    "E0211", where,
                    f"this '{field_name}' text raises '{event}', which runs trigger "
                    f"'{trigger.name}' and so '{field_name}' texts again: it would never stop",
                    hint=f"raise '{event}' from the rules rather than from '{field_name}' "
                         f"texts, or have trigger '{trigger.name}' run another field",
                    notes=[f"trigger '{trigger.name}' at {trigger.span} runs '{field_name}' "
                           f"texts on '{trigger.event}'"])

    def card_texts_raising(
        self, trigger: n.TriggerDecl, loop: set[str]
    ) -> list[tuple[str, n.Block, str]]:
        """The card texts a trigger runs (through procedures, not other triggers) that raise
        an event of the loop themselves or through procedures: (field, text, event)."""
        runs = self.closure_without_triggers(self.trigger_effects[trigger.name]).calls
        found: list[tuple[str, n.Block, str]] = []
        for record in self.model.records.values():
            for field_name, bodies in known_effect_bodies(record).items():
                if effect_key(record.name, field_name) not in runs:
                    continue
                for body in bodies:
                    raised = self.closure_without_triggers(direct_effects(self.model, body))
                    event = min(raised.raises & loop, default=None)
                    if event is not None:
                        found.append((field_name, body, event))
        return found

    def closure_without_triggers(self, effects: Effects) -> Effects:
        """Effects including those of every procedure (and card effect field) reachable."""
        total = Effects(set(effects.gotos), set(effects.raises), set(effects.calls), effects.ends)
        self.absorb_calls(total, total.calls)
        return total

    def absorb_calls(self, total: Effects, calls: set[str]) -> None:
        """Add to total what the procedures called do, and those they call, and so on."""
        pending = list(calls)
        while pending:
            inner = self.procedure_effects.get(pending.pop())
            if inner is not None:
                pending.extend(total.absorb(inner))

    def zones_entered(self) -> None:
        m = self.model
        for zone in m.zones.values():
            if zone.name not in self.uses.entered:
                self.diagnostics.add("W0304", zone.span,
                                     f"no card ever enters zone '{zone.name}'",
                                     hint="move, draw or create cards into it, or remove it")

    def unused(self, everything: Effects) -> None:
        m = self.model
        used_names = set(self.uses.names)
        used_fields = self.uses.fields
        called = self.uses.calls
        for name, info in {**m.functions, **m.procedures}.items():
            # the lab's search agents call `heuristic(p)` from outside the rules
            if name not in called and not (name == "heuristic" and name in m.functions):
                self.diagnostics.add("W0305", info.span, f"'{name}' is never called")
        for name, event in m.events.items():
            if name not in everything.raises and not any(t.event == name for t in m.triggers):
                self.diagnostics.add("W0305", event.span, f"event '{name}' is never raised")
        for name, enum in m.enums.items():
            if name not in used_names and not any(member in used_names for member in enum.members):
                self.diagnostics.add("W0305", enum.span, f"enum '{name}' is never used")
        used_names |= {zone.card_type for zone in m.zones.values()}
        for name, record in m.records.items():
            if not record.is_card and name not in used_names:
                self.diagnostics.add("W0305", record.span, f"record '{name}' is never used")
        read_fields = self.uses.read
        for board in m.boards.values():
            for name, field_info in board.fields.items():
                if name not in read_fields:
                    self.diagnostics.add("W0305", field_info.span,
                                         f"field '{name}' of {board.name} is never used")
        for group in (m.game_fields, m.player_fields):
            for name, field_info in group.items():
                if name not in used_names and name not in used_fields:
                    self.diagnostics.add("W0305", field_info.span,
                                         f"field '{name}' is never used")

    def coverage(self) -> None:
        m = self.model
        rules = {rule.id: rule for seed in m.seeds for rule in seed.rules}
        covered: set[str] = set()
        for annotation in self.uses.annotations:
            if annotation.rule in rules:
                covered.add(annotation.rule)
            else:
                self.diagnostics.add(
                    "E0107", annotation.span,
                    f"'@{annotation.rule}' names no rule of the seed block",
                    hint=did_you_mean(annotation.rule, rules))
        for rule in rules.values():
            if rule.id not in covered and rule.omitted is None:
                self.diagnostics.add(
                    "W0306", rule.span,
                    f"seed rule {rule.id} is neither encoded nor omitted: {rule.text}",
                    hint="annotate the rule's source with @" + rule.id
                    + ", or add: omitted \"reason\"")


def reach(model: GameModel, diagnostics: Diagnostics) -> None:
    Reach(model, diagnostics).run()
