"""Pass 3 — reach: what can happen at all.

Phases unreachable from setup, actions no one can take, triggers on events nothing raises, zones
no card can enter, declarations never used, phases with no way on, games that cannot end, and
seed rules neither encoded nor explained.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


def direct_effects(model: GameModel, body: n.Node) -> Effects:
    effects = Effects()
    for node in n.walk(body):
        if isinstance(node, n.Goto):
            effects.gotos.add(node.phase)
        elif isinstance(node, n.Raise):
            effects.raises.add(node.event)
        elif isinstance(node, (n.Win, n.Lose, n.DrawGame)):
            effects.ends = True
        elif isinstance(node, n.Call) and node.func in model.procedures:
            effects.calls.add(node.func)
        elif isinstance(node, n.EffectCall):
            symbol = model.symbols.get(id(node))
            if symbol is not None:
                effects.calls.add(effect_key(symbol[1], symbol[2]))
    return effects


def effect_key(record: str, field: str) -> str:
    """The name under which the effects of every card's `field` count as one procedure."""
    return f"{record}.{field} effects"


def card_effects(model: GameModel) -> dict[str, Effects]:
    """What running a card type's effect field can do, over all of its cards."""
    result: dict[str, Effects] = {}
    for record in model.records.values():
        for name, bodies in effect_bodies(record).items():
            total = Effects()
            for body in bodies:
                total.absorb(direct_effects(model, body))
            result[effect_key(record.name, name)] = total
    return result


def effect_bodies(record: RecordInfo) -> dict[str, list[n.Block]]:
    """Each field's distinct effect texts, the default's first, then the cards' in order. One
    pass over the cards' values, not one per field: a card type has tens of fields."""
    found: dict[str, dict[int, n.Block]] = {name: {} for name in record.fields}
    for name, info in record.fields.items():
        if isinstance(info.default, n.EffectLit):
            found[name][id(info.default.body)] = info.default.body
    for entry in record.entries:
        for name, value in entry.values.items():
            if isinstance(value, n.EffectLit) and name in found:
                found[name].setdefault(id(value.body), value.body)
    return {name: list(bodies.values()) for name, bodies in found.items() if bodies}


def every_node(model: GameModel) -> list[n.Node]:
    """Every node of every module, each effect text that cards share walked once."""
    found: list[n.Node] = []
    shared: set[int] = set()
    for module in model.modules:
        stack: list[n.Node] = [module]
        while stack:
            node = stack.pop()
            if isinstance(node, n.EffectLit):
                if id(node.body) in shared:
                    continue
                shared.add(id(node.body))
            found.append(node)
            stack.extend(reversed(n.children(node)))
    return found


class Reach:
    def __init__(self, model: GameModel, diagnostics: Diagnostics) -> None:
        self.model = model
        self.diagnostics = diagnostics
        self.procedure_effects = {
            name: direct_effects(model, info.decl) for name, info in model.procedures.items()
        }
        self.procedure_effects.update(card_effects(model))
        self.all_nodes = every_node(model)
        self.trigger_effects = {
            trigger.name: direct_effects(model, trigger) for trigger in model.triggers
        }

    def closure(self, effects: Effects) -> Effects:
        """Effects including those of every procedure and trigger reachable from the body."""
        total = Effects(set(effects.gotos), set(effects.raises), set(effects.calls), effects.ends)
        pending = list(total.calls)
        seen_triggers: set[str] = set()
        while True:
            while pending:
                inner = self.procedure_effects.get(pending.pop())
                if inner is not None:
                    pending.extend(total.absorb(inner))
            fired = [
                trigger for trigger in self.model.triggers
                if trigger.event in total.raises and trigger.name not in seen_triggers
            ]
            if not fired:
                return total
            for trigger in fired:
                seen_triggers.add(trigger.name)
                pending.extend(total.absorb(self.trigger_effects[trigger.name]))

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
        for checkpoint in m.checkpoints:
            everything.absorb(self.closure(direct_effects(m, checkpoint)))
        for name, info in m.phases.items():
            decl = info.decl
            if name not in reachable:
                self.diagnostics.add("W0301", decl.span, f"phase '{name}' is never reached",
                                     hint="no goto reachable from setup leads here")
                continue
            if decl.actor is None:
                for action in info.actions:
                    self.diagnostics.add(
                        "W0302", action.decl.span,
                        f"action '{action.name}' can never be taken: phase '{name}' has no actor",
                        hint="add an 'actor' clause to the phase")
            ways_on = Effects()
            for body in (decl.enter, decl.done):
                if body is not None:
                    inner = self.closure(direct_effects(m, body))
                    # re-entering itself from here would spin with nobody to act
                    ways_on.gotos |= inner.gotos - {name}
                    ways_on.ends |= inner.ends
            if decl.actor is not None:
                for action in info.actions:
                    inner = self.closure(direct_effects(m, action.decl))
                    ways_on.gotos |= inner.gotos
                    ways_on.ends |= inner.ends
            if not ways_on.gotos and not ways_on.ends:  # an action may restart its own phase
                self.diagnostics.add(
                    "E0301", decl.span,
                    f"phase '{name}' never moves on: nothing in it has a goto or ends the game",
                    hint="add: on done { goto NEXT_PHASE }")
        if not everything.ends:
            span = m.game_span or m.setup.span
            self.diagnostics.add("E0303", span, "no rule ever ends the game",
                                 hint="use 'win PLAYER', 'lose PLAYER' or 'draw game'")
        self.trigger_cycles()
        for trigger in m.triggers:
            if trigger.event in m.events and trigger.event not in everything.raises:
                self.diagnostics.add("W0303", trigger.span,
                                     f"trigger '{trigger.name}' never fires: nothing raises "
                                     f"'{trigger.event}'")
        self.zones_entered()
        self.unused(everything)
        self.coverage()

    def trigger_cycles(self) -> None:
        """A trigger whose effects raise its own event again would never stop."""
        m = self.model
        raised_by: dict[str, set[str]] = {}
        for trigger in m.triggers:
            own = self.trigger_effects[trigger.name]
            total = set(own.raises)
            for callee in self.closure(Effects(calls=set(own.calls))).raises:
                total.add(callee)
            raised_by.setdefault(trigger.event, set()).update(total)
        for trigger in m.triggers:
            seen: set[str] = set()
            pending = list(raised_by.get(trigger.event, ()))
            while pending:
                event = pending.pop()
                if event == trigger.event:
                    self.diagnostics.add(
                        "E0211", trigger.span,
                        f"trigger '{trigger.name}' raises '{trigger.event}' again, directly or "
                        "through other triggers, so it would never stop")
                    break
                if event not in seen:
                    seen.add(event)
                    pending.extend(raised_by.get(event, ()))

    def zones_entered(self) -> None:
        m = self.model
        entered: set[str] = set()
        for node in self.all_nodes:
            dest = None
            if isinstance(node, (n.Move, n.Draw, n.Create)):
                dest = node.dest
            if dest is not None:
                base = dest.obj if isinstance(dest, n.Index) else dest
                if isinstance(base, n.Name):
                    entered.add(base.id)
        for zone in m.zones.values():
            if zone.name not in entered:
                self.diagnostics.add("W0304", zone.span,
                                     f"no card ever enters zone '{zone.name}'",
                                     hint="move, draw or create cards into it, or remove it")

    def unused(self, everything: Effects) -> None:
        m = self.model
        used_names: set[str] = set()
        used_fields: set[str] = set()
        called: set[str] = set()
        for node in self.all_nodes:
            if isinstance(node, n.Name):
                used_names.add(node.id)
            elif isinstance(node, n.Attribute):
                used_fields.add(node.name)
            elif isinstance(node, n.Call):
                called.add(node.func)
            elif isinstance(node, n.NamedType):
                used_names.add(node.name)
            elif isinstance(node, (n.FieldValue,)):
                used_fields.add(node.name)
        for name, info in {**m.functions, **m.procedures}.items():
            if name not in called:
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
        read_fields = {node.name for node in self.all_nodes if isinstance(node, n.Attribute)}
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
        for node in self.all_nodes:
            for annotation in getattr(node, "annotations", ()):
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
