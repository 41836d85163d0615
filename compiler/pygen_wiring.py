"""Wiring the generated tables into the runtime (fields, codecs, actions) and the module's
API functions."""

from __future__ import annotations

from compiler import symbols as sym
from compiler import types as t
from compiler.consteval import evaluate
from compiler.english import counts_text
from compiler.model import GameModel
from compiler.pygen_base import VERSION, codec, names_table, py_type, ungrouped, upper
from compiler.pygen_rules import RuleGenerator
from compiler.pygen_seats import team_zone_slots
from dsl import nodes as n


class WiringGenerator(RuleGenerator):
    """The tables wired into the runtime's classes, and the module's API."""

    def wiring(self) -> None:
        m = self.model
        w = self.w
        w.line()
        w.line()
        w.line("State.GAME = " + repr(m.name))
        w.line("State.LISTED = Listed")
        w.line("State.PLAYER_NAMES = PLAYER_NAMES")
        if m.seat_names:
            w.line("State.SEAT_NAMES = SEAT_NAMES")
        w.line("State.DEF_NAMES = DEF_NAMES")
        w.line("State.SLOT_OWNER = SLOT_OWNER")
        w.line("State.SLOT_CAPACITY = SLOT_CAPACITY")
        w.line("State.SLOT_NAMES = SLOT_NAMES")
        w.line("State.SLOT_VISIBILITY = SLOT_VISIBILITY")
        team_slots = team_zone_slots(m, self.zone_base, self.zone_dims)
        if team_slots:
            w.line(f"State.TEAM_SLOTS = {team_slots!r}")
        zones = []
        for zone in m.zones.values():
            dims = "(" + "".join(self.dimension_names(per) + ", " for per in zone.per) + ")"
            zones.append(f"({zone.name!r}, Z_{upper(zone.name)}, {dims})")
        self.tuple_assign("State.ZONES", zones)
        self.tuple_assign("State.OPTION_FIELDS", [f"({o.name!r}, 'o_{o.name}', {codec(o.type, m)})"
                                                  for o in m.options.values()])
        self.tuple_assign("State.GAME_FIELDS", [
            f"rt.GameField({f.name!r}, 'g_{f.name}', {codec(f.type, m)}, {f.visibility!r})"
            for f in m.game_fields.values()])
        self.tuple_assign("State.PLAYER_FIELDS", [
            f"rt.PlayerField({f.name!r}, 'p_{f.name}', {codec(f.type, m)}, {f.visibility!r}, "
            f"per_player={f.per_player})"
            for f in m.player_fields.values()])
        self.tuple_assign("State.NODE_FIELDS", [
            f"rt.NodeField({b.name!r}, N_{upper(b.name)}_NAMES, {f.name!r}, "
            f"'n_{b.name}_{f.name}', {codec(f.type, m)}, per_player={f.per_player}, "
            f"visibility={f.visibility!r})"
            for b in m.boards.values() for f in b.fields.values()])
        if self.card_state():
            self.tuple_assign("State.CARD_FIELDS", [
                f"rt.CardField({f.name!r}, 'k_{record}_{f.name}', {codec(f.type, m)}, "
                f"{f.visibility!r})"
                for record, f in self.card_state()])
        self.tuple_assign("State.STATE_ATTRS", [repr(a) for a, _, _ in self.state_attrs()])
        if m.team_size is not None or m.team_seats:
            w.line("State.HAS_TEAMS = True")
        if m.has_out:
            w.line("State.OUT_FIELD = 'p_out'")
        shared = sorted(f"p_{f.name}" for f in m.player_fields.values() if f.per_team)
        if shared and (m.team_size is not None or m.team_seats):
            w.line(f"State.TEAM_FIELDS = frozenset({shared!r})")
        phases = list(m.phases.values())
        w.line("rt.install_phases(State, (")
        for p in phases:
            w.line("    rt.PhaseRules(")
            w.line(f"        {p.name!r},")
            w.line(f"        enter={f'enter_{p.name}' if p.decl.enter is not None else None},")
            asks = p.decl.actor is not None or p.decl.responders is not None
            w.line(f"        actor={f'actor_{p.name}' if asks else None},")
            w.line(f"        done={f'done_{p.name}' if p.decl.done is not None else None},")
            checks = p.decl.checkpoints or p.decl.responders is not None
            w.line(f"        checkpoints={f'checkpoints_{p.name}' if checks else None},")
            legal = (f"phase_legal_{p.name}" if len(p.actions) > 1
                     else f"legal_{p.actions[0].name}" if p.actions else None)
            w.line(f"        legal={legal},")
            if self.has_ply(p):
                w.line(f"        ply=ply_{p.name},")
            w.line("    ),")
        w.line("))")
        if any(p.decl.responders is not None for p in phases):
            self.tuple_assign("State.WINDOW_START", [
                f"window_{p.name}" if p.decl.responders is not None else "None"
                for p in phases])
            last = [self.phase_index[p.name] for p in phases
                    if p.decl.responders is not None and p.decl.responders.every]
            if last:
                w.line(f"State.WINDOW_LAST = frozenset({last!r})")
        self.tuple_assign("State.CHECKPOINTS", [f"checkpoint_{c.name}" for c in m.checkpoints])
        if self.creates_in_play():
            w.line("State.SET_CREATES = True")
        w.line("State.APPLY = {")
        for phase in phases:
            for action in phase.actions:
                w.line(f"    ({self.phase_index[phase.name]}, K_{upper(action.name)}): "
                       f"apply_{action.name},")
        w.line("}")
        cards = [tuple(i for i, (_, type_, _) in enumerate(a.params) if isinstance(type_, t.CardT))
                 for a in self.action_kinds]
        self.tuple_assign("State.CARD_PARAMS", [repr(c) for c in cards])
        announced = [sum(1 << i for i, p in enumerate(a.decl.params) if p.announced)
                     for a in self.action_kinds]
        if any(announced):  # a table only for the games that announce a parameter
            self.tuple_assign("State.ANNOUNCED", [str(bits) for bits in announced])
        self.tuple_assign("State.PICK", [
            f"pick_{a.name}" if c else "None" for a, c in zip(self.action_kinds, cards,
                                                             strict=True)])
        encodings: list[str] = []
        offset = 0
        for action in self.action_kinds:
            params = []
            size = 1
            for base, count in self.arg_sizes(action):
                params.append(f"({base}, {count})")
                size *= count
            encodings.append(f"({offset}, ({''.join(p + ', ' for p in params)}))")
            offset += size
        self.tuple_assign("State.ENCODING", encodings)
        w.line("State.ACTION_NAMES = ACTIONS")
        w.line(f"NUM_DISTINCT_ACTIONS: Final = {offset}")

    def player_counts(self, merge: str) -> None:
        """`player_counts(options)`: the counts the game is for with these options (each line
        of `players ... if` whose condition holds), for new_game and the tools' defaults."""
        m = self.model
        w = self.w
        # `teams of SIZE` of the options alone: the counts it does not divide are left out
        # (a size that reads the players is known once a game has them: new_game refuses)
        sized = m.team_size is not None and all(
            isinstance(m.symbols.names.get(id(node)), sym.Option) if isinstance(node, n.Name)
            else not isinstance(node, n.Call) for node in n.walk(m.team_size))
        with w.block("def player_counts(options: dict[str, object] | None = None) -> "
                     "tuple[int, ...]:"):
            w.line('"""The player counts the game is for with these options'
                   + (', that its teams divide."""' if sized else '."""'))
            if not m.count_lines and not sized:
                w.line(f"return {tuple(m.player_counts)!r}")
            else:
                w.line(f"o = rt.OptionView({merge})")
                always = m.always_counts if m.count_lines else m.player_counts
                w.line(f"counts: set[int] = set({tuple(always)!r})")
                for counts, condition, _ in m.count_lines:
                    with w.block(f"if {ungrouped(self.expr(condition, 'o'))}:"):
                        w.line(f"counts.update({tuple(counts)!r})")
                if sized:
                    assert m.team_size is not None
                    w.line(f"size = {ungrouped(self.expr(m.team_size, 'o'))}")
                    w.line("return tuple(sorted(c for c in counts if size >= 1 and c % size == 0))")
                else:
                    w.line("return tuple(sorted(counts))")
        w.line()
        w.line()

    def api(self) -> None:
        m = self.model
        w = self.w
        w.line()
        if m.deck_rules is not None:
            self.decks_table()
        options = ", ".join(
            f"{o.name!r}: ({py_type(o.type)}, {self.constant(o.default)})"
            for o in m.options.values())
        w.line(f"OPTIONS: Final[dict[str, tuple[type, object]]] = {{{options}}}")
        words = {o.name: names_table(o.type) for o in m.options.values()
                 if isinstance(o.type, t.EnumT)}
        merge = "rt.merge_options(OPTIONS, options)"
        if words:
            table = ", ".join(f"{name!r}: {table}" for name, table in words.items())
            w.line(f"OPTION_WORDS: Final[dict[str, tuple[str, ...]]] = {{{table}}}")
            merge = "rt.merge_options(OPTIONS, options, OPTION_WORDS)"
        w.line("INFO: Final[dict[str, Any]] = {")
        w.line(f"    'name': {m.name!r},")
        w.line(f"    'title': {m.title!r},")
        w.line(f"    'players': ({m.min_players}, {m.max_players}),")
        w.line("    'player_names': PLAYER_NAMES,")
        # an enum option by its member's name, as new_game, observations and get give it
        shown = ", ".join(
            f"{o.name!r}: "
            + (f"{words[o.name]}[{self.constant(o.default)}]" if o.name in words
               else self.constant(o.default))
            for o in m.options.values())
        w.line(f"    'options': {{{shown}}},")
        w.line("    'phases': PHASES,")
        w.line("    'actions': ACTIONS,")
        w.line(f"    'source': {m.source_file!r},")
        if m.deck_rules is not None:
            w.line("    'decks': tuple(DECKS),")
        w.line(f"    'compiler': {VERSION!r},")
        w.line("}")
        w.line()
        w.line()
        with w.block("def new_game(\n    seed: int = 0,\n    players: int = "
                     f"{default_players(m)},\n    options: dict[str, object] | None = None,\n"
                     "    decks: object = None,\n) -> State:"):
            w.line('"""A new game, set up and advanced to the first decision."""')
            counts = m.player_counts
            if m.count_lines:
                w.line(f"opts = {merge}")
                w.line("counts = player_counts(opts)")
                with w.block("if players not in counts:"):
                    w.line(f"given = rt.options_text(opts, {'OPTION_WORDS' if words else '{}'})")
                    w.line("allowed = rt.counts_text(counts)")
                    w.line(f"raise ValueError(f'{m.name} with {{given}} is for {{allowed}} "
                           "players, not {players!r}')")
            else:
                shown = "players"
                if counts == list(range(m.min_players, m.max_players + 1)):
                    # (not an int: '3' would raise TypeError at the comparison)
                    test = (f"not isinstance(players, (int, float)) or not {m.min_players} "
                            f"<= players <= {m.max_players}")
                    shown = "players!r"
                else:  # (any value may be compared: '4' is shown quoted, as it is not 4)
                    test, shown = f"players not in {tuple(counts)!r}", "players!r"
                with w.block(f"if {test}:"):
                    w.line(f"raise ValueError(f'{m.name} is for {counts_text(counts)}"
                           f" players, not {{{shown}}}')")
            if m.deck_rules is None:
                with w.block("if decks is not None:"):
                    w.line(f"raise ValueError('{m.name} takes no decks')")
            w.line(f"s = State(seed, players, {'opts' if m.count_lines else merge})")
            if m.deck_rules is not None:
                w.line("s.d_decklists = rt.choose_decks(decks, players, DECKS, DEF_NAMES, "
                       "deck_problem, PLAYER_NAMES)")
            w.line("s.begin(setup)")
            w.line("return s")
        w.line()
        w.line()
        self.player_counts(merge)
        with w.block("def from_json(text: str) -> State:"):
            w.line('"""The state that State.to_json() saved."""')
            w.line("s = State.__new__(State)")
            w.line("s.load_json(text)")
            w.line("return s")


def default_players(m: GameModel) -> int:
    """new_game's players: the fewest the default options allow."""
    counts = list(m.always_counts)
    for line, condition, _ in m.count_lines:
        if evaluate(condition, {}, m) is True:
            counts += line
    return min(counts or [m.min_players])
