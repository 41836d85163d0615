"""Pass 1 — resolve: collect every declaration into the game model.

Reports duplicate declarations, unknown types, a missing or repeated game header, and problems
with data files (maps). Bodies are left to typecheck. Boards and their data files are
resolved by the BoardResolver mixin (compiler.resolve_boards).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from compiler import types as t
from compiler.model import (
    ActionInfo,
    CallableInfo,
    EntryInfo,
    EnumInfo,
    FieldInfo,
    GameModel,
    OptionInfo,
    PhaseInfo,
    RecordInfo,
    ZoneInfo,
)
from compiler.resolve_boards import BoardResolver, data_file
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, did_you_mean
from dsl.source import Span

BUILTIN_TYPES: dict[str, t.Type] = {
    "int": t.INT,
    "bool": t.BOOL,
    "text": t.TEXT,
    "player": t.PLAYER,
}
# A data value as the field's type reads it (bare words become names or texts); the second
# argument is the name of the value's entry, for messages.
DataValue = Callable[[n.Expr, str], n.Expr]
_TYPED_BY_FIELD = (n.DataWord, n.ListLit)
# seats are named A to Z by default; a game for more players is not one this language plays
MAX_PLAYERS = 26
MAX_FACE_BYTES = 1_000_000  # a card face layout's template


class Resolver(BoardResolver):
    def __init__(self, model: GameModel, diagnostics: Diagnostics, root: Path | None) -> None:
        self.model = model
        self.diagnostics = diagnostics
        self.root = root  # data files must stay inside this folder
        self.seen: dict[tuple[str, str], Span] = {}

    # -- helpers
    def declare(self, namespace: str, name: str, span: Span, what: str) -> bool:
        key = (namespace, name)
        if key in self.seen:
            first = self.seen[key]
            self.diagnostics.add(
                "E0102",
                span,
                f"{what} '{name}' is declared twice",
                notes=[f"first declared at {first}"],
            )
            return False
        self.seen[key] = span
        return True

    def type_names(self) -> list[str]:
        m = self.model
        return [*BUILTIN_TYPES, *m.enums, *m.records, *m.boards]

    def resolve_type(self, expr: n.TypeExpr) -> t.Type:
        if isinstance(expr, n.EffectType):
            params = tuple(self.params(expr.params))
            reaches = tuple(name for name, _ in expr.reaches) if expr.reaches else None
            return t.EffectT(params, reaches)
        if isinstance(expr, n.OptionalType):
            return t.optional(self.resolve_type(expr.inner))
        if isinstance(expr, n.ListType):
            return t.ListT(self.resolve_type(expr.element))
        assert isinstance(expr, n.NamedType)
        name = expr.name
        m = self.model
        if name in BUILTIN_TYPES:
            return BUILTIN_TYPES[name]
        if name in m.enums:
            return t.EnumT(name)
        if name in m.records:
            return t.CardT(name) if m.records[name].is_card else t.RecordT(name)
        if name in m.boards:
            return t.NodeT(name)
        self.diagnostics.add(
            "E0103",
            expr.span,
            f"unknown type '{name}'",
            hint=did_you_mean(name, self.type_names()) or "declare it with enum, record or card",
        )
        return t.ANY

    def fields(self, decls: tuple[n.FieldDecl, ...], owner: str) -> dict[str, FieldInfo]:
        result: dict[str, FieldInfo] = {}
        for f in decls:
            if f.name in result:
                self.diagnostics.add(
                    "E0102",
                    f.span,
                    f"field '{f.name}' of {owner} is declared twice",
                    notes=[f"first declared at {result[f.name].span}"],
                )
                continue
            # every `##` line above the field, as a declaration's: a doc of two lines was
            # cut to its last one
            doc = self.model.doc_above(f.span)
            # A field has no cards to count, so `owner` and `private` mean the same as
            # `secret`: only its own player sees it (game and node fields: nobody).
            visibility = "secret" if f.visibility in ("owner", "private") else f.visibility
            if f.per_card and not owner.startswith("card type"):
                self.diagnostics.add(
                    "E0207", f.span, f"'per card' fields belong in a card type, not in {owner}",
                    hint="each physical card has its own value of a 'per card' field",
                )
            if isinstance(f.type, n.EffectType) and (
                f.per_card or f.per_player or not owner.startswith("card type")
            ):
                self.diagnostics.add(
                    "E0207", f.type.span,
                    "an effect is data of a card type: declare it as a plain card field",
                )
            if f.per_team and owner != "players":
                self.diagnostics.add(
                    "E0207", f.span, f"'per team' fields belong in the player block, not in "
                    f"{owner}", hint="a 'per team' player field is one value that teammates "
                    "share: p.health reads and writes the health of p's team",
                )
            if visibility == "team" and owner != "players":
                self.diagnostics.add(
                    "E0207", f.span, f"'team' visibility is for player fields and zones, not "
                    f"for a field of {owner}", hint="a 'team' field or zone is seen by its "
                    "player and that player's teammates",
                )
            result[f.name] = FieldInfo(
                f.name, t.ANY, f.per_player, f.default, visibility, f.span, doc, f.type,
                per_card=f.per_card, per_team=f.per_team and owner == "players",
            )
        return result

    # -- the pass
    def run(self) -> None:
        decls = [d for module in self.model.modules for d in module.declarations]
        # Types first, so that any declaration may use any type, whatever the order.
        for d in decls:
            if isinstance(d, n.EnumDecl) and self.declare("type", d.name, d.span, "type"):
                enum = EnumInfo(d.name, [], d.span, d.doc)
                for member, span in d.members:
                    if member in enum.members:
                        self.diagnostics.add(
                            "E0102", span, f"'{member}' appears twice in enum {d.name}"
                        )
                        continue
                    # members are used by bare name, so one name means one member
                    if self.declare("enum_member", member, span, "enum member"):
                        enum.members.append(member)
                        enum.member_spans.append(span)
                self.model.enums[d.name] = enum
            elif isinstance(d, n.RecordDecl) and self.declare("type", d.name, d.span, "type"):
                what = "card type" if d.is_card else "record"
                self.model.records[d.name] = RecordInfo(
                    d.name, self.fields(d.fields, f"{what} {d.name}"), d.is_card, d.span, d.doc,
                    requires=list(d.requires),
                )
                if d.face is not None and d.face_span is not None:
                    # the same rule as a map's file: inside the rulebook's folder, a file
                    self.model.records[d.name].face = data_file(
                        d.face, d.face_span, self.root, self.diagnostics, MAX_FACE_BYTES)
            elif isinstance(d, n.BoardDecl) and self.declare("type", d.name, d.span, "type"):
                self.board(d)
        self.keywords([d for d in decls if isinstance(d, n.KeywordDecl)])
        self.resolve_field_types()
        games = [d for d in decls if isinstance(d, n.Game)]
        if not games:
            first = self.model.modules[0].span if self.model.modules else None
            if first is not None:
                self.diagnostics.add(
                    "E0108",
                    Span.point(first.file),
                    "the rulebook has no game header",
                    hint="start it with: game NAME { title \"...\" players 2 }",
                )
        for extra in games[1:]:
            self.diagnostics.add(
                "E0108", extra.span, "a second game header", notes=[f"first at {games[0].span}"]
            )
        for d in decls:
            self.declaration(d, games[0] if games else None)
        for board in self.model.boards.values():  # map values may name players
            self.map_values(board, board.span)

    def keywords(self, decls: list[n.KeywordDecl]) -> None:
        """Keywords are the members of the built-in enum `keyword`."""
        if not decls or not self.declare("type", "keyword", decls[0].span, "type"):
            return
        info = EnumInfo("keyword", [], decls[0].span, "The keywords cards can have.")
        for d in decls:
            if self.declare("enum_member", d.name, d.span, "keyword"):
                info.members.append(d.name)
                info.member_spans.append(d.span)
                self.model.keywords[d.name] = d
        self.model.enums["keyword"] = info

    def resolve_field_types(self) -> None:
        """Record and board fields may name types declared after them: resolved once all are."""
        m = self.model
        groups = [r.fields for r in m.records.values()] + [b.fields for b in m.boards.values()]
        for group in groups:
            for info in group.values():
                if info.type_expr is not None:
                    info.type = self.resolve_type(info.type_expr)

    def declaration(self, d: n.Decl, game: n.Game | None) -> None:
        m = self.model
        if isinstance(d, n.Game) and d is game:
            self.game(d)
        elif isinstance(d, n.DataDecl):
            self.data(d)
        elif isinstance(d, n.ZoneDecl):
            self.zone(d, game)
        elif isinstance(d, n.StateDecl):
            for name, info in self.fields(d.fields, "the game").items():
                if self.declare("value", name, info.span, "game field"):
                    info.type = self.resolve_type(info.type_expr) if info.type_expr else t.ANY
                    m.game_fields[name] = info
        elif isinstance(d, n.PlayerDecl):
            for name, info in self.fields(d.fields, "players").items():
                if self.declare("player_field", name, info.span, "player field"):
                    info.type = self.resolve_type(info.type_expr) if info.type_expr else t.ANY
                    m.player_fields[name] = info
        elif isinstance(d, n.EventDecl):
            if self.declare("callable", d.name, d.span, "event"):
                m.events[d.name] = CallableInfo(d.name, self.params(d.params), d.span, d, doc=d.doc)
        elif isinstance(d, n.FunctionDecl):
            if self.declare("callable", d.name, d.span, "function"):
                m.functions[d.name] = CallableInfo(
                    d.name, self.params(d.params), d.span, d, self.resolve_type(d.returns), d.doc
                )
        elif isinstance(d, n.ProcedureDecl):
            if self.declare("callable", d.name, d.span, "procedure"):
                m.procedures[d.name] = CallableInfo(
                    d.name, self.params(d.params), d.span, d, doc=d.doc
                )
        elif isinstance(d, n.TriggerDecl):
            if self.declare("trigger", d.name, d.span, "trigger"):
                m.triggers.append(d)
        elif isinstance(d, n.CheckpointDecl):
            if self.declare("checkpoint", d.name, d.span, "checkpoint"):
                m.checkpoints.append(d)
        elif isinstance(d, n.SetupDecl):
            if m.setup is not None:
                self.diagnostics.add(
                    "E0102", d.span, "a second setup block", notes=[f"first at {m.setup.span}"]
                )
            else:
                m.setup = d
        elif isinstance(d, n.PhaseDecl):
            self.phase(d)
        elif isinstance(d, n.SeedDecl):
            m.seeds.append(d)
        elif isinstance(d, n.DecisionDecl):
            if self.declare("decision", d.id, d.span, "decision"):
                m.decisions.append(d)
        elif isinstance(d, n.DeckDecl):
            self.deck(d)
        elif isinstance(d, n.DiagramDecl) and self.declare("diagram", d.title, d.span,
                                                           "diagram"):
            m.diagrams.append(d)

    def params(self, params: tuple[n.Param, ...]) -> list[tuple[str, t.Type]]:
        result: list[tuple[str, t.Type]] = []
        for p in params:
            if any(p.name == name for name, _ in result):
                self.diagnostics.add("E0102", p.span, f"parameter '{p.name}' is declared twice")
            result.append((p.name, self.resolve_type(p.type)))
        return result

    def seat_names(self, d: n.Game) -> None:
        """`names 2: N, S; 4: N, E, S, W`. A name in the rules is one seat, so the rules may
        name only the seats that every count has at the same place (check_expressions); the
        largest count's names are the seats the rules and tables are written against."""
        m = self.model
        for seats in d.seat_names:
            if seats.count not in m.player_counts:
                self.diagnostics.add("E0220", seats.span, f"{d.name} is not for {seats.count} "
                                     "players", hint="the counts are those of 'players'")
            elif seats.count in m.seat_names:
                self.diagnostics.add("E0220", seats.span, f"two lists of names for {seats.count} "
                                     "players")
            elif len(seats.names) != seats.count:
                plural = "s" if len(seats.names) != 1 else ""
                self.diagnostics.add("E0220", seats.span, f"{len(seats.names)} name{plural} "
                                     f"for {seats.count} players", hint="give one name per seat")
            else:
                repeated = [i for i, name in enumerate(seats.names) if name in seats.names[:i]]
                for i in repeated:
                    self.diagnostics.add("E0220", seats.name_spans[i], f"'{seats.names[i]}' is "
                                         f"two seats of {seats.count} players")
                if not repeated:
                    m.seat_names[seats.count] = list(seats.names)
        missing = [c for c in m.player_counts if c not in m.seat_names]
        if missing and len(d.seat_names) == len(m.seat_names):
            self.diagnostics.add("E0220", d.span, "no seat names for " + ", ".join(
                map(str, missing)) + " players", hint="'names' with a list per count lists "
                "every count of 'players'")
        largest = m.seat_names.get(m.max_players)
        if largest is not None:
            m.player_names = list(largest)
            spans = next(s.name_spans for s in d.seat_names if s.count == m.max_players)
            m.player_spans = list(spans)
        declared: set[str] = set()
        for seats in d.seat_names:
            for name, span in zip(seats.names, seats.name_spans, strict=False):
                if name not in declared:
                    declared.add(name)
                    self.declare("value", name, span, "player name")

    def teams(self, d: n.Teams) -> None:
        """The game's teams: a size (checked by typecheck) or the seats of each team."""
        m = self.model
        if d.size is not None:
            m.team_size = d.size
            return
        seats = m.player_names[: m.max_players]
        placed: dict[str, Span] = {}
        teams: list[list[int]] = []
        for team, spans in zip(d.seats, d.seat_spans, strict=True):
            members = []
            for name, span in zip(team, spans, strict=True):
                if name not in seats:
                    self.diagnostics.add("E0212", span, f"'{name}' is not a seat of this game",
                                         hint=did_you_mean(name, seats)
                                         or f"the seats are {', '.join(seats)}")
                elif name in placed:
                    self.diagnostics.add("E0212", span, f"seat '{name}' is in two teams",
                                         hint="each seat plays in exactly one team")
                else:
                    placed[name] = span
                    members.append(seats.index(name))
            teams.append(members)
        missing = [name for name in seats if name not in placed]
        if missing:
            self.diagnostics.add("E0212", d.span, f"seat{'s' * (len(missing) > 1)} "
                                 f"{', '.join(missing)} {'are' if len(missing) > 1 else 'is'} "
                                 "in no team", hint="list every seat of the largest count once")
        m.team_seats = teams

    def game(self, d: n.Game) -> None:
        m = self.model
        m.name, m.title, m.doc, m.game_span = d.name, d.title, d.doc, d.span
        m.source_file = d.span.file
        m.min_players, m.max_players = d.min_players, d.max_players
        counts = d.counts or ((d.min_players, d.max_players),)
        if any(low < 1 or high < low for low, high in counts):
            self.diagnostics.add("E0209", d.span, "the player count must be 1 or more, low..high")
        elif d.max_players > MAX_PLAYERS:
            self.diagnostics.add("E0209", d.span, f"a game is for at most {MAX_PLAYERS} players, "
                                 f"not {d.max_players}")
            # the rest of the checks go on with seats that can be named
            m.min_players, m.max_players = min(d.min_players, MAX_PLAYERS), MAX_PLAYERS
        else:
            m.player_counts = sorted({c for low, high in counts for c in range(low, high + 1)})
            lines = [(sorted({c for low, high in line.counts for c in range(low, high + 1)}),
                      line.condition, line.span) for line in d.conditional_counts]
            if lines:
                m.count_lines = lines
                # the header's counts are the plain line's, then each `if` line's
                plain = counts[: len(counts) - sum(len(x.counts) for x in d.conditional_counts)]
                m.always_counts = sorted({c for low, high in plain for c in range(low, high + 1)})
        if d.player_names:
            spans = list(d.player_spans) or [d.span] * len(d.player_names)
            if len(d.player_names) != d.max_players:
                self.diagnostics.add(
                    "E0209",
                    spans[0].to(spans[-1]),
                    f"{len(d.player_names)} player names for up to {d.max_players} players",
                )
            for name, span in zip(d.player_names, spans, strict=True):
                # a name written twice is reported at the second
                self.declare("value", name, span, "player name")
        m.player_names = list(d.player_names) or [
            chr(ord("A") + i) for i in range(min(max(d.max_players, 0), MAX_PLAYERS))
        ]
        m.player_spans = list(d.player_spans) if d.player_names else []
        if d.seat_names:
            self.seat_names(d)
        if d.teams is not None:
            self.teams(d.teams)
        for option in d.options:
            if self.declare("value", option.name, option.span, "option"):
                m.options[option.name] = OptionInfo(
                    option.name,
                    self.resolve_type(option.type),
                    option.default,
                    option.description,
                    option.span,
                )

    def deck(self, d: n.DeckDecl) -> None:
        m = self.model
        if m.deck_rules is not None:
            self.diagnostics.add("E0102", d.span, "a second deck block",
                                 notes=[f"first at {m.deck_rules.span}"])
            return
        record = m.records.get(d.card_type)
        if record is None or not record.is_card:
            cards = [r.name for r in m.records.values() if r.is_card]
            self.diagnostics.add(
                "E0103", d.card_type_span, f"'{d.card_type}' is not a card type",
                hint=did_you_mean(d.card_type, cards) or "deck rules name the card type decks hold",
            )
            return
        m.deck_rules = d

    def data_value(self, value: n.Expr, type_: t.Type, what: str) -> n.Expr:
        """A value from a data file, where bare words are names or texts by the field's type."""
        inner = t.strip_optional(type_)
        if isinstance(value, n.ListLit) and isinstance(inner, t.ListT):
            items = tuple(self.data_value(v, inner.element, what) for v in value.items)
            return n.ListLit(items, span=value.span)
        if not isinstance(value, n.DataWord):
            return value
        if isinstance(inner, t.TextT):
            return n.StrLit(value.text, span=value.span)
        if isinstance(inner, t.EnumT):
            members = self.model.enums[inner.name].members
            if value.text not in members:
                noun = "keyword" if inner.name == "keyword" else f"{inner.name} value"
                self.diagnostics.add(
                    "E0101", value.span, f"unknown {noun} '{value.text}' in {what}",
                    hint=did_you_mean(value.text, members)
                    or f"one of: {', '.join(members[:12])}",
                )
                return value  # reported: the checker takes a data word for any type
        return n.Name(value.text, span=value.span)

    def data_converter(self, type_: t.Type) -> DataValue:
        """data_value for values of one type, what depends on the type alone decided once: a
        card set gives each field thousands of values. The function takes a value and the name
        of its entry (for messages)."""
        inner = t.strip_optional(type_)
        if isinstance(inner, t.ListT):
            element = self.data_converter(inner.element)

            def items(value: n.Expr, entry: str) -> n.Expr:
                if isinstance(value, n.ListLit):
                    return n.ListLit(tuple(element(v, entry) for v in value.items),
                                     span=value.span)
                if isinstance(value, n.DataWord):
                    return n.Name(value.text, span=value.span)
                return value

            return items
        if isinstance(inner, t.TextT):
            return _text_word
        if isinstance(inner, t.EnumT):
            members = frozenset(self.model.enums[inner.name].members)

            def member(value: n.Expr, entry: str) -> n.Expr:
                if isinstance(value, n.DataWord) and value.text in members:
                    return n.Name(value.text, span=value.span)
                return self.data_value(value, type_, f"'{entry}'")  # reported there

            return member
        return _name_word

    def data(self, d: n.DataDecl) -> None:
        record = self.model.records.get(d.type_name)
        if record is None:
            self.diagnostics.add(
                "E0103",
                d.span,
                f"data for unknown type '{d.type_name}'",
                hint=did_you_mean(d.type_name, self.model.records),
            )
            return
        record.rejected_entries.update(d.rejected)
        fields = record.data_fields()
        converters = {name: self.data_converter(info.type) for name, info in fields.items()}
        required = [name for name, info in fields.items() if info.default is None]
        namespace = f"entry:{record.name}"
        for entry in d.entries:
            if not self.declare(namespace, entry.name, entry.span, "entry"):
                continue
            values: dict[str, n.Expr] = {}
            for fv in entry.values:
                convert = converters.get(fv.name)
                if convert is None:
                    per_card = fv.name in record.fields
                    self.diagnostics.add(
                        "E0104",
                        fv.span,
                        f"'{fv.name}' is the state of each {record.name}, not data"
                        if per_card else f"{record.name} has no field '{fv.name}'",
                        hint=None if per_card else did_you_mean(fv.name, fields)
                        or f"its fields: {', '.join(list(fields)[:12])}",
                    )
                elif fv.name in values:
                    self.diagnostics.add("E0102", fv.span, f"field '{fv.name}' is given twice")
                else:
                    value = fv.value
                    if isinstance(value, _TYPED_BY_FIELD):  # read by the field's type
                        value = convert(value, entry.name)
                    elif isinstance(value, n.EffectLit):
                        texts = record.effect_texts.setdefault(fv.name, {})
                        texts.setdefault(id(value.body), value.body)
                    values[fv.name] = value
            for name in required:
                if name not in values:
                    self.diagnostics.add(
                        "E0201",
                        entry.span,
                        f"entry '{entry.name}' gives no value for field '{name}'",
                        hint=f"add '{name}: ...' or give the field a default",
                    )
            record.entries.append(EntryInfo(entry.name, values, entry.description, entry.span))

    def zone(self, d: n.ZoneDecl, game: n.Game | None) -> None:
        m = self.model
        if not self.declare("value", d.name, d.span, "zone"):
            return
        record = m.records.get(d.card_type)
        if record is None or not record.is_card:
            self.diagnostics.add(
                "E0103",
                d.card_type_span,
                f"zone '{d.name}' holds '{d.card_type}', which is not a card type",
                hint=did_you_mean(d.card_type, [r for r in m.records if m.records[r].is_card]),
            )
        per: list[str] = []
        per_team = False
        for name, span in d.per:
            if name == "team":
                per_team = self.zone_per_team(d, span, game, per_team or "player" in per)
                name = "player"  # a slot per seat; a team's cards lie in its captain's
            elif name != "player" and name not in m.boards and name not in m.enums:
                self.diagnostics.add(
                    "E0103",
                    span,
                    f"a zone can be 'per player', 'per team', per board or per enum, not per "
                    f"'{name}'",
                    hint=did_you_mean(name, ["player", "team", *m.boards, *m.enums]),
                )
            elif name == "player" and per_team:
                self.diagnostics.add(
                    "E0218", span, f"zone '{d.name}' is both 'per team' and 'per player'",
                    hint="keep 'per team' for a zone the team holds as one, or 'per player' "
                         "for one of each player (a 'team' zone its teammates see)")
            per.append(name)
        if d.visibility == "team" and "player" not in per:
            self.diagnostics.add(
                "E0207", d.span, f"zone '{d.name}' is seen by a team, but it belongs to no player",
                hint="declare it 'per player' (one player's zone that its teammates see) or "
                     "'per team' (a zone the team holds as one)",
            )
        m.zones[d.name] = ZoneInfo(
            d.name, d.card_type, d.ordered, d.visibility, per, d.capacity, d.span, d.doc,
            per_team=per_team,
        )

    def zone_per_team(self, d: n.ZoneDecl, span: Span, game: n.Game | None,
                      keyed: bool) -> bool:
        """`per team` on a zone: not with another player key, and in a game with teams
        (E0218 otherwise)."""
        if keyed:
            self.diagnostics.add(
                "E0218", span, f"zone '{d.name}' is both 'per team' and 'per player'",
                hint="keep 'per team' for a zone the team holds as one, or 'per player' for "
                     "one of each player (a 'team' zone its teammates see)")
            return True
        if game is not None and game.teams is None:
            self.diagnostics.add(
                "E0218", span, f"zone '{d.name}' is 'per team', but the game has no teams",
                hint="give the game header teams ('teams of 2' or 'teams [A, C], [B, D]'), or "
                     "make it 'per player': without teams each player is a team of one")
        return True

    def phase(self, d: n.PhaseDecl) -> None:
        if not self.declare("phase", d.name, d.span, "phase"):
            return
        info = PhaseInfo(d.name, d)
        for a in d.actions:
            if not self.declare("action", a.name, a.span, "action"):
                continue
            params: list[tuple[str, t.Type, n.Expr | None]] = []
            for p in a.params:
                if p.name in ("actor", *(name for name, _, _ in params)):
                    self.diagnostics.add("E0102", p.span, f"parameter '{p.name}' is declared twice")
                params.append((p.name, self.resolve_type(p.type), p.domain))
            action = ActionInfo(a.name, d.name, params, a)
            info.actions.append(action)
        self.model.phases[d.name] = info


def _text_word(value: n.Expr, entry: str) -> n.Expr:
    return n.StrLit(value.text, span=value.span) if isinstance(value, n.DataWord) else value


def _name_word(value: n.Expr, entry: str) -> n.Expr:
    return n.Name(value.text, span=value.span) if isinstance(value, n.DataWord) else value


def resolve(model: GameModel, diagnostics: Diagnostics, root: Path | None = None) -> None:
    Resolver(model, diagnostics, root).run()
