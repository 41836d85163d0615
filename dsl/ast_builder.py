"""Lark tree → AST (dsl.nodes): one transformer method per grammar rule.

Also holds the integer-size limit the builder enforces (MAX_INT_DIGITS) and the signal it raises
when a number is too long, which dsl.parser turns into a diagnostic.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, v_args

from dsl import lexical
from dsl import nodes as n
from dsl.source import SourceFile, Span

MAX_INT_DIGITS = lexical.MAX_INT_DIGITS


class NumberTooLarge(Exception):  # noqa: N818 - internal signal, turned into a diagnostic
    def __init__(self, span: Span) -> None:
        super().__init__("number too large")
        self.span = span


# ---- Lark tree → AST -----------------------------------------------------------------------
_unescape = lexical.unescape


@v_args(meta=True)
class AstBuilder(Transformer[Token, Any]):
    """One method per grammar rule; each returns the AST node of the same name."""

    def __init__(self, source: SourceFile, shift: tuple[int, int] = (0, 0)) -> None:
        super().__init__()
        self.source = source
        self.docs = self._doc_comments(source)
        # An effect parsed out of a data file: (lines, columns) to add to every position.
        self.line_shift, self.column_shift = shift
        # Where each IntLit's number is in the text, and its sign (see EffectShapes.block).
        self.int_origins: dict[int, tuple[int, int]] = {}

    @staticmethod
    def _doc_comments(source: SourceFile) -> dict[int, str]:
        """`##` comment lines directly above a line become that line's documentation."""
        docs: dict[int, str] = {}
        pending: list[str] = []
        for number, line in enumerate(source.lines, 1):
            stripped = line.strip()
            if stripped.startswith("##"):
                pending.append(stripped[2:].strip())
            elif stripped.startswith("@") and pending:
                continue
            else:
                if pending and stripped:
                    docs[number] = " ".join(pending)
                pending = []
        return docs

    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span.point(self.source.name, 1 + self.line_shift, 1 + self.column_shift)
        return self._shifted(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, token: Token) -> Span:
        return self._shifted(
            token.line or 1,
            token.column or 1,
            token.end_line or token.line or 1,
            token.end_column or (token.column or 1) + len(token),
        )

    def _shifted(self, line: int, column: int, end_line: int, end_column: int) -> Span:
        dl, dc = self.line_shift, self.column_shift
        return Span(self.source.name, line + dl, column + dc, end_line + dl, end_column + dc)

    def _doc(self, meta: Any) -> str:
        return self.docs.get(getattr(meta, "line", 0), "")

    # -- module and items
    def start(self, meta: Any, items: list[n.Decl]) -> n.Module:
        return n.Module(tuple(items), span=self._span(meta))

    def item(self, meta: Any, children: list[Any]) -> n.Decl:
        annotations, decl = children
        doc = self.docs.get(decl.span.line, "")
        first = annotations[0].span.line if annotations else decl.span.line
        doc = doc or self.docs.get(first, "")
        return type(decl)(  # type: ignore[no-any-return]
            **{f: getattr(decl, f) for f in decl.__dataclass_fields__ if f not in ("span",)}
            | {"annotations": tuple(annotations), "doc": doc},
            span=decl.span,
        )

    def annotations(self, meta: Any, tokens: list[Token]) -> list[n.Annotation]:
        return [n.Annotation(str(t)[1:], span=self._tspan(t)) for t in tokens]

    def game(self, meta: Any, children: list[Any]) -> n.Game:
        name, *items = children
        title = str(name)
        counts: tuple[tuple[int, int], ...] | None = None
        conditional: list[n.PlayerCounts] = []
        names: tuple[Token, ...] = ()
        teams: n.Teams | None = None
        seat_names: tuple[n.SeatNames, ...] = ()
        options = []
        for kind, value in items:
            if kind == "title":
                title = value
            elif kind == "players" and isinstance(value, n.PlayerCounts):
                conditional.append(value)
            elif kind == "players":
                counts = value
            elif kind == "names":
                names = value
            elif kind == "teams":
                teams = value
            elif kind == "seat names":
                seat_names = value
            else:
                options.append(value)
        # the game is for the counts of every line together (two players without one); a
        # line without `if` always holds
        counts = (counts or ()) + tuple(part for line in conditional for part in line.counts)
        counts = counts or ((2, 2),)
        return n.Game(
            str(name), title, min(low for low, _ in counts), max(high for _, high in counts),
            tuple(str(t) for t in names), tuple(options), tuple(self._tspan(t) for t in names),
            counts=counts, teams=teams, seat_names=seat_names,
            conditional_counts=tuple(conditional), span=self._span(meta),
        )

    def title(self, meta: Any, c: list[Token]) -> tuple[str, str]:
        return ("title", _unescape(c[0]))

    def player_count(self, meta: Any, c: list[Any]
                     ) -> tuple[str, tuple[tuple[int, int], ...] | n.PlayerCounts]:
        *parts, condition = c
        if condition is None:
            return ("players", tuple(parts))
        return ("players", n.PlayerCounts(tuple(parts), condition, span=self._span(meta)))

    def count_part(self, meta: Any, c: list[Token | None]) -> tuple[int, int]:
        for token in c:
            if token is not None and len(token) > MAX_INT_DIGITS:
                raise NumberTooLarge(self._tspan(token))
        low = int(str(c[0]))
        high = int(str(c[1])) if len(c) > 1 and c[1] is not None else low
        return (low, high)

    def teams_of(self, meta: Any, c: list[n.Expr]) -> tuple[str, n.Teams]:
        return ("teams", n.Teams(c[0], (), (), span=self._span(meta)))

    def teams_listed(self, meta: Any, c: list[tuple[Token, ...]]) -> tuple[str, n.Teams]:
        seats = tuple(tuple(str(t) for t in team) for team in c)
        spans = tuple(tuple(self._tspan(t) for t in team) for team in c)
        return ("teams", n.Teams(None, seats, spans, span=self._span(meta)))

    def team_seats(self, meta: Any, c: list[Token]) -> tuple[Token, ...]:
        return tuple(c)

    def player_names(self, meta: Any, c: list[Token]) -> tuple[str, tuple[Token, ...]]:
        return ("names", tuple(c))

    def seat_names(self, meta: Any, c: list[n.SeatNames]) -> tuple[str, tuple[n.SeatNames, ...]]:
        return ("seat names", tuple(c))

    def count_seats(self, meta: Any, c: list[Token]) -> n.SeatNames:
        count, *names = c
        return n.SeatNames(int(count), tuple(str(t) for t in names),
                           tuple(self._tspan(t) for t in names), span=self._tspan(count))

    def option_decl(self, meta: Any, c: list[Any]) -> tuple[str, n.OptionDecl]:
        name, type_, default, description = c
        text = _unescape(description) if description is not None else ""
        return ("option", n.OptionDecl(str(name), type_, default, text, span=self._span(meta)))

    # -- types and data
    def enum_decl(self, meta: Any, c: list[Token]) -> n.EnumDecl:
        name, *members = c
        return n.EnumDecl(
            str(name),
            tuple((str(m), self._tspan(m)) for m in members),
            span=self._span(meta),
        )

    def record_decl(self, meta: Any, c: list[Any]) -> n.RecordDecl:
        return n.RecordDecl(str(c[0]), tuple(c[1:]), False, span=self._span(meta))

    def card_decl(self, meta: Any, c: list[Any]) -> n.RecordDecl:
        fields = tuple(x for x in c[2:] if isinstance(x, n.FieldDecl))
        requires = tuple(x for x in c[2:] if isinstance(x, n.CardRequire))
        face, face_span = c[1] if c[1] is not None else (None, None)
        return n.RecordDecl(str(c[0]), fields, True, requires, face, face_span,
                            span=self._span(meta))

    def card_face(self, meta: Any, c: list[Token]) -> tuple[str, Span]:
        return _unescape(c[0]), self._tspan(c[0])

    def card_require(self, meta: Any, c: list[Any]) -> n.CardRequire:
        return n.CardRequire(c[0], _unescape(c[1]), span=self._span(meta))

    def field_decl(self, meta: Any, c: list[Any]) -> n.FieldDecl:
        name, type_, per, default, visibility = c
        return n.FieldDecl(
            str(name),
            type_,
            per == "player",
            default,
            str(visibility) if visibility is not None else "public",
            per_card=per == "card",
            per_team=per == "team",
            span=self._span(meta),
        )

    def per_player(self, meta: Any, c: list[Any]) -> str:
        return "player"

    def per_card(self, meta: Any, c: list[Any]) -> str:
        return "card"

    def per_team(self, meta: Any, c: list[Any]) -> str:
        return "team"

    def effect_lit(self, meta: Any, c: list[n.Block]) -> n.EffectLit:
        return n.EffectLit(c[0], span=self._span(meta))

    def effect_body(self, meta: Any, c: list[n.Stmt]) -> n.Block:
        return n.Block(tuple(c), span=self._span(meta))

    def keyword_decl(self, meta: Any, c: list[Token]) -> n.KeywordDecl:
        return n.KeywordDecl(str(c[0]), _unescape(c[1]), span=self._span(meta))

    def deck_decl(self, meta: Any, c: list[Any]) -> n.DeckDecl:
        return n.DeckDecl(str(c[0]), self._tspan(c[0]), c[1], span=self._span(meta))

    def effect_type(self, meta: Any, c: list[Any]) -> n.EffectType:
        reaches = c[-1] if c and isinstance(c[-1], tuple) else None
        params = tuple(p for p in c if isinstance(p, n.Param))
        return n.EffectType(params, reaches, span=self._span(meta))

    def reaches(self, meta: Any, c: list[Token]) -> tuple[tuple[str, Span], ...]:
        return tuple((str(t), self._tspan(t)) for t in c)

    def visibility(self, meta: Any, c: list[Token]) -> str:
        return str(c[0])

    def data_decl(self, meta: Any, c: list[Any]) -> n.DataDecl:
        return n.DataDecl(str(c[0]), tuple(c[1:]), span=self._span(meta))

    def entry(self, meta: Any, c: list[Any]) -> n.Entry:
        name, description, *values = c
        text = _unescape(name) if name.type == "STRING" else str(name)
        return n.Entry(
            text,
            tuple(v for v in values if v is not None),
            description or "",
            span=self._span(meta),
        )

    def description(self, meta: Any, c: list[Token]) -> str:
        return _unescape(c[0])

    def field_value(self, meta: Any, c: list[Any]) -> n.FieldValue:
        return n.FieldValue(str(c[0]), c[1], span=self._span(meta))

    def cards_decl(self, meta: Any, c: list[Token]) -> n.CardsDecl:
        return n.CardsDecl(_unescape(c[0]), span=self._span(meta))

    def decks_decl(self, meta: Any, c: list[Token]) -> n.DecksDecl:
        return n.DecksDecl(_unescape(c[0]), span=self._span(meta))

    def named_type(self, meta: Any, c: list[Token]) -> n.NamedType:
        return n.NamedType(str(c[0]), span=self._span(meta))

    def list_type(self, meta: Any, c: list[n.TypeExpr]) -> n.ListType:
        return n.ListType(c[0], span=self._span(meta))

    def optional_type(self, meta: Any, c: list[n.TypeExpr]) -> n.OptionalType:
        return n.OptionalType(c[0], span=self._span(meta))

    # -- boards and zones
    def board_decl(self, meta: Any, c: list[Any]) -> n.BoardDecl:
        return n.BoardDecl(str(c[0]), c[1], tuple(c[2:]), span=self._span(meta))

    def graph_file(self, meta: Any, c: list[Token]) -> n.GraphFile:
        return n.GraphFile(_unescape(c[0]), span=self._span(meta))

    def graph_inline(self, meta: Any, c: list[list[str]]) -> n.GraphInline:
        edges: list[tuple[str, str]] = []
        nodes: dict[str, None] = {}
        for chain in c:
            nodes.update(dict.fromkeys(chain))
            edges.extend(zip(chain, chain[1:], strict=False))
        return n.GraphInline(tuple(edges), tuple(nodes), span=self._span(meta))

    def edge(self, meta: Any, c: list[Token]) -> list[str]:
        return [str(t) for t in c]

    def grid_shape(self, meta: Any, c: list[Any]) -> n.GridShape:
        options: dict[str, str | bool] = dict(x for x in c[2:] if isinstance(x, tuple))
        return n.GridShape(int(str(c[0])), int(str(c[1])), str(options.get("rows", "")),
                           str(options.get("columns", "")), bool(options.get("facing", False)),
                           span=self._span(meta))

    def grid_rows(self, meta: Any, c: list[Token]) -> tuple[str, str]:
        return ("rows", _unescape(c[0]))

    def grid_columns(self, meta: Any, c: list[Token]) -> tuple[str, str]:
        return ("columns", _unescape(c[0]))

    def grid_facing(self, meta: Any, c: list[Token]) -> tuple[str, bool]:
        return ("facing", True)

    def diagram_each(self, meta: Any, c: list[Token]) -> tuple[str, str, Span]:
        return (str(c[0]), str(c[1]), self._tspan(c[1]))

    def diagram_decl(self, meta: Any, c: list[Any]) -> n.DiagramDecl:
        each = c[1]
        return n.DiagramDecl(
            _unescape(c[0]), each[0] if each else None, each[1] if each else None,
            each[2] if each else None, str(c[2]), c[3], c[4] is not None, str(c[5]), c[6],
            span=self._span(meta))

    def hex_file(self, meta: Any, c: list[Token]) -> n.HexFile:
        return n.HexFile(_unescape(c[0]), tuple(_unescape(x) for x in c[1:]),
                         span=self._span(meta))

    def zone_decl(self, meta: Any, c: list[Any]) -> n.ZoneDecl:
        name, card_type, *attrs = c
        ordered = False
        visibility = "public"
        per: list[tuple[str, Span]] = []
        capacity = None
        for kind, value in attrs:
            if kind == "ordered":
                ordered = True
            elif kind == "visibility":
                visibility = value
            elif kind == "per":
                per.append(value)
            else:
                capacity = value
        return n.ZoneDecl(
            str(name), str(card_type), self._tspan(card_type), ordered, visibility,
            tuple(per), capacity, span=self._span(meta),
        )

    def zone_order(self, meta: Any, c: list[Token]) -> tuple[str, bool]:
        return ("ordered", True)

    def zone_visibility(self, meta: Any, c: list[str]) -> tuple[str, str]:
        return ("visibility", c[0])

    def zone_per(self, meta: Any, c: list[Token]) -> tuple[str, tuple[str, Span]]:
        return ("per", (str(c[0]), self._tspan(c[0])))

    def zone_capacity(self, meta: Any, c: list[Token]) -> tuple[str, int]:
        return ("capacity", int(str(c[0])))

    def state_decl(self, meta: Any, c: list[n.FieldDecl]) -> n.StateDecl:
        return n.StateDecl(tuple(c), span=self._span(meta))

    def player_decl(self, meta: Any, c: list[n.FieldDecl]) -> n.PlayerDecl:
        return n.PlayerDecl(tuple(c), span=self._span(meta))

    # -- events and rules
    def param(self, meta: Any, c: list[Any]) -> n.Param:
        return n.Param(str(c[0]), c[1], span=self._span(meta))

    def event_decl(self, meta: Any, c: list[Any]) -> n.EventDecl:
        params = tuple(p for p in c[1:] if p is not None)
        return n.EventDecl(str(c[0]), params, span=self._span(meta))

    def trigger_decl(self, meta: Any, c: list[Any]) -> n.TriggerDecl:
        name, event, when, body = c
        return n.TriggerDecl(
            str(name), str(event), self._tspan(event), when, body, span=self._span(meta)
        )

    def function_decl(self, meta: Any, c: list[Any]) -> n.FunctionDecl:
        name, *params, returns, body = c
        return n.FunctionDecl(
            str(name), tuple(p for p in params if p is not None), returns, body,
            span=self._span(meta),
        )

    def procedure_decl(self, meta: Any, c: list[Any]) -> n.ProcedureDecl:
        name, *params, body = c
        return n.ProcedureDecl(
            str(name), tuple(p for p in params if p is not None), body, span=self._span(meta)
        )

    def setup_decl(self, meta: Any, c: list[n.Block]) -> n.SetupDecl:
        return n.SetupDecl(c[0], span=self._span(meta))

    def checkpoint_decl(self, meta: Any, c: list[Any]) -> n.CheckpointDecl:
        return n.CheckpointDecl(str(c[0]), c[1], span=self._span(meta))

    def phase_decl(self, meta: Any, c: list[Any]) -> n.PhaseDecl:
        name, *items = c
        enter = done = actor = responders = None
        actions: list[n.ActionDecl] = []
        checkpoints: list[n.Block] = []
        for kind, value in items:
            if kind == "enter":
                enter = value
            elif kind == "done":
                done = value
            elif kind == "actor":
                actor = value
            elif kind == "responders":
                responders = value
            elif kind == "action":
                actions.append(value)
            else:
                checkpoints.append(value)
        return n.PhaseDecl(
            str(name), enter, done, actor, tuple(actions), tuple(checkpoints), responders,
            span=self._span(meta),
        )

    def on_enter(self, meta: Any, c: list[n.Block]) -> tuple[str, n.Block]:
        return ("enter", c[0])

    def on_done(self, meta: Any, c: list[n.Block]) -> tuple[str, n.Block]:
        return ("done", c[0])

    def responders_clause(self, meta: Any, c: list[Any]) -> tuple[str, n.Responders]:
        every, start, where = c
        return ("responders", n.Responders(start, where[1] if where is not None else None,
                                           every is not None, span=self._span(meta)))

    def actor_clause(self, meta: Any, c: list[n.Expr]) -> tuple[str, n.Expr]:
        return ("actor", c[0])

    def phase_checkpoint(self, meta: Any, c: list[n.Block]) -> tuple[str, n.Block]:
        return ("checkpoint", c[0])

    def action_decl(self, meta: Any, c: list[Any]) -> tuple[str, n.ActionDecl]:
        annotations, name, *params, says, body = c
        says_text = says[0] if says is not None else None
        says_span = says[1] if says is not None else None
        # The span starts at the 'action' keyword's line, not at its annotations, like every
        # other declaration; the keyword is on the name's line.
        whole = self._span(meta)
        start = self._tspan(name)
        line = self.source.line(start.line)
        column = line.find("action") + 1 if "action" in line else start.column
        span = Span(whole.file, start.line, column, whole.end_line, whole.end_column)
        action = n.ActionDecl(
            str(name), tuple(p for p in params if p is not None), says_text, says_span, body,
            span=span, annotations=tuple(annotations), doc=self.docs.get(start.line, ""),
        )
        return ("action", action)

    def action_param(self, meta: Any, c: list[Any]) -> n.ActionParam:
        name, type_, *rest = c
        # the optional ANNOUNCED comes last, None when absent; `in D` comes as IN and D
        announced = rest.pop() is not None if rest else False
        domain = rest[-1] if rest else None
        return n.ActionParam(str(name), type_, domain, announced, span=self._span(meta))

    def says(self, meta: Any, c: list[Token]) -> tuple[str, Span]:
        return (_unescape(c[0]), self._tspan(c[0]))

    def seed_decl(self, meta: Any, c: list[Any]) -> n.SeedDecl:
        return n.SeedDecl(_unescape(c[0]), tuple(c[1:]), span=self._span(meta))

    def seed_rule(self, meta: Any, c: list[Any]) -> n.SeedRule:
        return n.SeedRule(str(c[0]), _unescape(c[1]), c[2], span=self._span(meta))

    def omitted(self, meta: Any, c: list[Token]) -> str:
        return _unescape(c[0])

    def decision_decl(self, meta: Any, c: list[Token]) -> n.DecisionDecl:
        return n.DecisionDecl(
            str(c[0]), _unescape(c[1]), _unescape(c[2]), span=self._span(meta)
        )

    # -- statements
    def block(self, meta: Any, c: list[n.Stmt]) -> n.Block:
        return n.Block(tuple(c), span=self._span(meta))

    def statement(self, meta: Any, c: list[Any]) -> n.Stmt:
        annotations, stmt = c
        if not annotations:
            return stmt  # type: ignore[no-any-return]
        fields = {f: getattr(stmt, f) for f in stmt.__dataclass_fields__ if f != "span"}
        fields["annotations"] = tuple(annotations)
        return type(stmt)(**fields, span=stmt.span)  # type: ignore[no-any-return]

    def let_stmt(self, meta: Any, c: list[Any]) -> n.Let:
        return n.Let(str(c[0]), c[1], span=self._span(meta))

    def assign_stmt(self, meta: Any, c: list[Any]) -> n.Assign:
        return n.Assign(c[0], str(c[1]), c[2], span=self._span(meta))

    def call_stmt(self, meta: Any, c: list[n.Expr]) -> n.CallStmt:
        return n.CallStmt(c[0], span=self._span(meta))

    def if_stmt(self, meta: Any, c: list[Any]) -> n.If:
        cond, body, *rest = c
        branches = [(cond, body)]
        otherwise = None
        for item in rest:
            if isinstance(item, tuple):
                branches.append(item)
            else:
                otherwise = item
        return n.If(tuple(branches), otherwise, span=self._span(meta))

    def elif_clause(self, meta: Any, c: list[Any]) -> tuple[n.Expr, n.Block]:
        return (c[0], c[1])

    def else_clause(self, meta: Any, c: list[n.Block]) -> n.Block:
        return c[0]

    def for_stmt(self, meta: Any, c: list[Any]) -> n.For:
        var, _in, domain, *rest = c
        body = rest[-1]
        where = order = None
        descending = False
        for item in rest[:-1]:
            if item is None:
                continue
            if item[0] == "where":
                where = item[1]
            else:
                order, descending = item[1], item[2]
        return n.For(str(var), domain, where, order, descending, body, span=self._span(meta))

    def where_clause(self, meta: Any, c: list[n.Expr]) -> tuple[str, n.Expr]:
        return ("where", c[0])

    def order_clause(self, meta: Any, c: list[Any]) -> tuple[str, n.Expr, bool]:
        return ("order", c[0], len(c) > 1 and c[1] is not None and str(c[1]) == "desc")

    def repeat_stmt(self, meta: Any, c: list[Any]) -> n.Repeat:
        count, *clauses, body = c
        condition = clauses[0] if clauses else None
        return n.Repeat(count, body, condition, span=self._span(meta))

    def while_clause(self, meta: Any, c: list[n.Expr]) -> n.Expr:
        return c[0]

    def break_stmt(self, meta: Any, c: list[Any]) -> n.Break:
        return n.Break(span=self._span(meta))

    def move_stmt(self, meta: Any, c: list[Any]) -> n.Move:
        what, end, dest = c
        return n.Move(what, dest, end, span=self._span(meta))

    def zone_end(self, meta: Any, c: list[Token]) -> str:
        return str(c[0])

    def draw_stmt(self, meta: Any, c: list[Any]) -> n.Draw:
        return n.Draw(c[0], c[1], c[2], span=self._span(meta))

    def shuffle_stmt(self, meta: Any, c: list[Any]) -> n.Shuffle:
        return n.Shuffle(c[0], span=self._span(meta))

    def create_stmt(self, meta: Any, c: list[Any]) -> n.Create:
        return n.Create(c[0], c[1], span=self._span(meta))

    def reveal_stmt(self, meta: Any, c: list[Any]) -> n.Reveal:
        return n.Reveal(c[0], c[1], span=self._span(meta))

    def goto_stmt(self, meta: Any, c: list[Token]) -> n.Goto:
        return n.Goto(str(c[0]), span=self._span(meta))

    def call_phase_stmt(self, meta: Any, c: list[Token]) -> n.CallPhase:
        return n.CallPhase(str(c[0]), span=self._span(meta))

    def return_stmt(self, meta: Any, c: list[Any]) -> n.Return:
        return n.Return(span=self._span(meta))

    def win_stmt(self, meta: Any, c: list[n.Expr]) -> n.Win:
        return n.Win(c[0], span=self._span(meta))

    def lose_stmt(self, meta: Any, c: list[n.Expr]) -> n.Lose:
        return n.Lose(c[0], span=self._span(meta))

    def draw_game_stmt(self, meta: Any, c: list[Any]) -> n.DrawGame:
        return n.DrawGame(span=self._span(meta))

    def raise_stmt(self, meta: Any, c: list[Any]) -> n.Raise:
        return n.Raise(str(c[0]), tuple(a for a in c[1:] if a is not None), span=self._span(meta))

    def require_stmt(self, meta: Any, c: list[Any]) -> n.Require:
        return n.Require(c[0], _unescape(c[1]), span=self._span(meta))

    # -- expressions
    def conditional(self, meta: Any, c: list[n.Expr]) -> n.Conditional:
        return n.Conditional(c[0], c[1], c[2], span=self._span(meta))

    def binary_or(self, meta: Any, c: list[n.Expr]) -> n.BinaryOp:
        return n.BinaryOp("or", c[0], c[1], span=self._span(meta))

    def binary_and(self, meta: Any, c: list[n.Expr]) -> n.BinaryOp:
        return n.BinaryOp("and", c[0], c[1], span=self._span(meta))

    def not_op(self, meta: Any, c: list[n.Expr]) -> n.Not:
        return n.Not(c[0], span=self._span(meta))

    def comparison(self, meta: Any, c: list[Any]) -> n.BinaryOp:
        return n.BinaryOp(str(c[1]), c[0], c[2], span=self._span(meta))

    def range(self, meta: Any, c: list[n.Expr]) -> n.Range:
        return n.Range(c[0], c[1], span=self._span(meta))

    def arith(self, meta: Any, c: list[Any]) -> n.BinaryOp:
        return n.BinaryOp(str(c[1]), c[0], c[2], span=self._span(meta))

    def negate(self, meta: Any, c: list[n.Expr]) -> n.Expr:
        if isinstance(c[0], n.IntLit):
            negated = n.IntLit(-c[0].value, span=self._span(meta))
            start, sign = self.int_origins.get(id(c[0]), (-1, 1))
            self.int_origins[id(negated)] = (start, -sign)
            return negated
        return n.Negate(c[0], span=self._span(meta))

    def attribute(self, meta: Any, c: list[Any]) -> n.Attribute:
        return n.Attribute(c[0], str(c[1]), self._tspan(c[1]), span=self._span(meta))

    def index(self, meta: Any, c: list[Any]) -> n.Index:
        return n.Index(c[0], tuple(c[1:]), span=self._span(meta))

    def call(self, meta: Any, c: list[Any]) -> n.Expr:
        func, arguments = c[0], c[1] if len(c) > 1 else None
        span = self._span(meta)
        if isinstance(func, n.Attribute) and not (
            isinstance(arguments, tuple) and arguments and arguments[0] == "comprehension"
        ):
            args = tuple(arguments) if isinstance(arguments, list) else ()
            return n.EffectCall(func.obj, func.name, func.name_span, args, span=span)
        if not isinstance(func, n.Name):
            # Only named builtins, functions and procedures can be called; the checker says so.
            return n.Call("<expression>", func.span, (), span=span)
        if isinstance(arguments, tuple) and arguments and arguments[0] == "comprehension":
            _, element, var, domain, where, order = arguments
            if order is not None:
                return n.Aggregate(func.id, func.span, element, var, domain, where,
                                   order_by=order[1], descending=order[2], span=span)
            return n.Aggregate(func.id, func.span, element, var, domain, where, span=span)
        args = tuple(arguments) if isinstance(arguments, list) else ()
        return n.Call(func.id, func.span, args, span=span)

    def args(self, meta: Any, c: list[n.Expr]) -> list[n.Expr]:
        return list(c)

    def comprehension(self, meta: Any, c: list[Any]) -> tuple[Any, ...]:
        element, var, _in, domain, where, order = c
        return ("comprehension", element, str(var), domain, where[1] if where else None,
                order)

    def int_lit(self, meta: Any, c: list[Token]) -> n.IntLit:
        if len(c[0]) > MAX_INT_DIGITS:
            # in the coordinates of the parsed text: a shifted effect shifts its diagnostics
            raise NumberTooLarge(Span(self.source.name, meta.line, meta.column, meta.end_line,
                                 meta.end_column))
        literal = n.IntLit(int(str(c[0])), span=self._span(meta))
        self.int_origins[id(literal)] = (c[0].start_pos or 0, 1)
        return literal

    def str_lit(self, meta: Any, c: list[Token]) -> n.StrLit:
        return n.StrLit(_unescape(c[0]), span=self._span(meta))

    def true_lit(self, meta: Any, c: list[Any]) -> n.BoolLit:
        return n.BoolLit(True, span=self._span(meta))

    def false_lit(self, meta: Any, c: list[Any]) -> n.BoolLit:
        return n.BoolLit(False, span=self._span(meta))

    def none_lit(self, meta: Any, c: list[Any]) -> n.NoneLit:
        return n.NoneLit(span=self._span(meta))

    def name(self, meta: Any, c: list[Token]) -> n.Name:
        return n.Name(str(c[0]), span=self._span(meta))

    def actor_ref(self, meta: Any, c: list[Any]) -> n.ActorRef:
        return n.ActorRef(span=self._span(meta))

    def players_ref(self, meta: Any, c: list[Any]) -> n.PlayersRef:
        return n.PlayersRef(span=self._span(meta))

    def list_lit(self, meta: Any, c: list[Any]) -> n.ListLit:
        return n.ListLit(tuple(x for x in c if x is not None), span=self._span(meta))


