"""Statements and expressions of the rules compiled to Python (the layer above
compiler.pygen_aggregates; seats and teams in compiler.pygen_seats)."""

from __future__ import annotations

import re
from typing import assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.ast_walk import walk_rules
from compiler.pygen_aggregates import LOOPED, AggregateGenerator
from compiler.pygen_base import Bindings, grouped, names_table, ungrouped, upper
from compiler.pygen_facts import ACTS, HARMLESS
from compiler.pygen_grid import grid_call
from compiler.pygen_seats import after_assigning, order_key, seat_call, shown_to, team_key
from dsl import nodes as n

# Arguments that a function's body may read as often as it names the parameter (inlined): a
# name, a field of the state, a number, or the other seat of two (`(1 - v_p)`).
_PLAIN_ARGUMENT = re.compile(r"[A-Za-z_][\w.]*|\d+|\(1 - [A-Za-z_]\w*\)")
# Arguments that a procedure's test may read again where it is called (procedure_guard): a
# variable or a number.
_PLAIN_NAME = re.compile(r"[A-Za-z_]\w*|\d+")


class ExpressionGenerator(AggregateGenerator):
    """Rule statements and expressions as Python source."""

    # ---- statements
    def block(self, block: n.Block) -> None:
        with self.bindings.frame():
            self.statements(list(block.statements))

    def statements(self, statements: list[n.Stmt]) -> None:
        if not statements:
            self.w.line("pass")
        for stmt in statements:
            self.stmt(stmt)

    def stmt(self, stmt: n.Stmt) -> None:
        self.w.source(stmt.span)
        strict: n.Expr | None = None  # what the statement always evaluates first
        match stmt:
            case n.Let() if isinstance(stmt.value, n.Aggregate) and stmt.value.func in LOOPED:
                var = self.bindings.reserve(stmt.name)
                self.looped(stmt.value, var)
                self.bindings.bind(stmt.name, var)
                return
            case n.Let() | n.Assign():
                strict = stmt.value
            case n.CallStmt():
                strict = stmt.call
            case n.If():
                strict = stmt.branches[0][0]
            case _:
                pass
        with self.loop_aggregates(strict):
            self.stmt_body(stmt)

    def stmt_body(self, stmt: n.Stmt) -> None:
        w = self.w
        m = self.model
        match stmt:
            case n.Let():
                value = self.expr(stmt.value)
                var = self.bindings.bind(stmt.name)
                value_type = m.type_of(stmt.value)
                if isinstance(value_type, t.ListT) and isinstance(value_type.element, t.AnyT):
                    w.line(f"{var}: list[Any] = {value}")
                else:
                    w.line(f"{var} = {value}")
            case n.Assign():
                target = self.lvalue(stmt.target)
                w.line(f"{target} {stmt.op} {self.expr(stmt.value)}")
                for line in after_assigning(m, stmt.target, self.expr):
                    w.line(line)
            case n.CallStmt():
                guard = self.procedure_guard(stmt.call)
                if guard is None:
                    w.line(self.expr(stmt.call))
                else:
                    w.line(f"# {guard[0]} does nothing unless")
                    with w.block(f"if {guard[1]}:"):
                        w.line(self.expr(stmt.call))
            case n.If():
                self.if_stmt(stmt)
            case n.For():
                self.for_stmt(stmt)
            case n.Repeat():
                with w.block(f"for _ in range({self.expr(stmt.count)}):"):
                    if stmt.while_ is not None:
                        with w.block(f"if {self.negated(stmt.while_)}:"):
                            w.line("break")
                    self.idle_ending = self.idle_test(stmt.body)
                    self.block(stmt.body)
            case n.Break():
                w.line("break")
            case n.Move():
                top = "True" if stmt.end == "top" else "False"
                what_type = m.type_of(stmt.what)
                dest = self.expr(stmt.dest)
                dest_type = m.type_of(stmt.dest)
                if (isinstance(what_type, t.CardT) and top == "False"
                        and isinstance(dest_type, t.ZoneT)
                        and m.zones[dest_type.zone].capacity is None):
                    # a zone without a capacity is never full: no test of it (move_uncapped)
                    w.line(f"s.move_uncapped({self.expr(stmt.what)}, {dest})")
                elif isinstance(what_type, t.CardT):
                    w.line(f"s.move({self.expr(stmt.what)}, {dest}, {top})")
                else:
                    w.line(f"s.move_all({self.collection(stmt.what)}, {dest}, {top})")
            case n.Draw():
                w.line(f"s.draw({self.expr(stmt.count)}, {self.expr(stmt.source)}, "
                       f"{self.expr(stmt.dest)})")
            case n.Shuffle():
                w.line(f"s.rng.shuffle({self.collection(stmt.zone)})")
            case n.Create():
                w.line(f"s.create({self.expr(stmt.what)}, {self.expr(stmt.dest)})")
            case n.Reveal() if stmt.to is not None:
                whom = shown_to(m, stmt.to, self.expr(stmt.to))
                if isinstance(m.type_of(stmt.what), t.CardT):
                    w.line(f"s.show([{self.expr(stmt.what)}], {whom})")
                else:
                    w.line(f"s.show({self.collection(stmt.what)}, {whom})")
            case n.Reveal():
                if isinstance(m.type_of(stmt.what), t.CardT):
                    w.line(f"s.card_up[{self.expr(stmt.what)}] = True")
                else:
                    w.line(f"s.reveal({self.collection(stmt.what)})")
            case n.CallPhase():
                w.line(f"s.call({self.phase_index[stmt.phase]})  # {stmt.phase}")
            case n.Goto():
                w.line(f"s.goto({self.phase_index[stmt.phase]})  # {stmt.phase}")
            case n.Return():
                w.line("s.back()")
            case n.Win():
                w.line(f"s.win({self.expr(stmt.player)})")
            case n.Lose():
                w.line(f"s.lose({self.expr(stmt.player)})")
            case n.DrawGame():
                w.line("s.end_draw()")
            case n.Raise():
                args = "".join(f", {self.expr(a)}" for a in stmt.args)
                w.line(f"raise_{stmt.event}(s{args})")
            case n.Require():  # pragma: no cover - compiled into check_ functions
                raise AssertionError("a require among an action's effects")
            case _:
                assert_never(stmt)

    def if_stmt(self, stmt: n.If) -> None:
        w = self.w
        idle_ending = stmt is self.idle_ending
        self.idle_ending = None
        for i, (cond, body) in enumerate(stmt.branches):
            test = self.expr(cond)
            while len(stmt.branches) == 1 and stmt.otherwise is None:
                # `if a { if b { ... } }` reads as `if a and b:` (ruff SIM102)
                inner = body.statements[0] if len(body.statements) == 1 else None
                if not (isinstance(inner, n.If) and len(inner.branches) == 1
                        and inner.otherwise is None):
                    break
                test = f"{grouped(test)} and {grouped(self.expr(inner.branches[0][0]))}"
                body = inner.branches[0][1]
            call = body.statements[0] if len(body.statements) == 1 else None
            guard = None
            if not isinstance(call, n.CallStmt):
                call = None
            elif len(stmt.branches) == 1 and stmt.otherwise is None:
                guard = self.procedure_guard(call.call)
            if call is not None and guard is not None:
                # the guard of a lone call joins the test, as a nested `if` would (SIM102)
                w.line(f"# {guard[0]} does nothing unless the last test holds")
                with w.block(f"if {grouped(test)} and {grouped(guard[1])}:"):
                    w.source(call.span)
                    w.line(self.expr(call.call))
                continue
            with w.block(f"{'if' if i == 0 else 'elif'} {test}:"):
                self.block(body)
        if stmt.otherwise is not None:
            with w.block("else:"):
                self.block(stmt.otherwise)
        elif idle_ending:
            with w.block("else:"):
                w.line("break  # a turn that does nothing: so would every turn after it")

    def procedure_guard(self, call: n.Expr) -> tuple[str, str] | None:
        """(name, test) for a call of a procedure whose body is one `if` without `else` or
        `elif`, on a small test that does not act, with plain arguments: the test made where
        the call stands (the procedure makes it again), so that a call that would do nothing
        is not made (pay_cost of a tile without a cost). A test that raises raises there as
        it would first thing in the procedure."""
        if not isinstance(call, n.Call) or not isinstance(
                self.model.symbols.calls.get(id(call)), sym.Procedure):
            return None
        info = self.model.procedures[call.func]
        cond = self.guard_test(call.func)
        if cond is None:
            return None
        args = [self.expr(a) for a in call.args]
        if not all(_PLAIN_NAME.fullmatch(a) for a in args):
            return None
        outer, self.bindings = self.bindings, Bindings()
        try:
            for (name, _), arg in zip(info.params, args, strict=True):
                self.bindings.bind(name, arg)
            return call.func, self.expr(cond)
        finally:
            self.bindings = outer

    def guard_test(self, procedure: str) -> n.Expr | None:
        """The test of procedure_guard, if the procedure's body is such an `if`: worked out
        once per procedure (a card set's effects call the same few thousands of times)."""
        if procedure in self.guard_tests:
            return self.guard_tests[procedure]
        decl = self.model.procedures[procedure].decl
        assert isinstance(decl, n.ProcedureDecl)
        statements = decl.body.statements
        first = statements[0] if len(statements) == 1 else None
        cond: n.Expr | None = None
        if isinstance(first, n.If) and len(first.branches) == 1 and not first.otherwise:
            cond = first.branches[0][0]
            if not self.small(cond) or self.risk(cond) == ACTS:
                cond = None
        self.guard_tests[procedure] = cond
        return cond

    def idle_test(self, body: n.Block) -> n.If | None:
        """The `if` that ends a repeated body, when a turn that takes none of its branches does
        nothing: the lets before it change nothing (no draw from the random generator either)
        and it has no `else`. The turns after such a turn would find the state as it was and
        do nothing too, so the loop may stop there (a queue found empty)."""
        *lets, last = body.statements or (None,)
        if not isinstance(last, n.If) or last.otherwise is not None:
            return None
        if any(not isinstance(let, n.Let) or self.risk(let.value) == ACTS for let in lets):
            return None
        if any(self.risk(cond) == ACTS for cond, _ in last.branches):
            return None
        return last

    def for_stmt(self, stmt: n.For) -> None:
        w = self.w
        domain_type = self.model.type_of(stmt.domain)
        collection = self.collection(stmt.domain)
        single = (isinstance(domain_type, t.ZoneT) and stmt.where is None
                  and stmt.order_by is None and self.model.zones[domain_type.zone].capacity == 1
                  and not any(isinstance(node, n.Break) for node in walk_rules([stmt.body])))
        if isinstance(domain_type, t.ZoneT) and not single:
            collection = f"list({collection})"  # the body may move cards out of the zone
        with self.bindings.frame():
            var = self.bindings.bind(stmt.var)
            if single:
                # a zone of one card at most: its card, if it has one (no copy of the zone to
                # loop over, for a body that may move the card)
                zone = self.bindings.reserve(f"{stmt.var}_zone")
                w.line(f"{zone} = {collection}")
                with w.block(f"if {zone}:"):
                    w.line(f"{var} = {zone}[0]")
                    self.block(stmt.body)
            elif stmt.order_by is not None:
                where = f" if {self.expr(stmt.where)}" if stmt.where is not None else ""
                items = f"[{var} for {var} in {collection}{where}]"
                key = order_key(var, self.expr(stmt.order_by), stmt.descending)
                if self.risk(stmt.order_by, unwrapping=False) == HARMLESS:
                    # a key that only gives a value need not be worked out to order one item
                    order = self.bindings.reserve(f"{stmt.var}_order")
                    w.line(f"{order} = {items}")
                    with w.block(f"if len({order}) > 1:"):
                        w.line(f"{order}.sort({key})")
                    header = f"for {var} in {order}:"
                else:
                    header = f"for {var} in sorted({items}, {key}):"
                with w.block(header):
                    self.block(stmt.body)
            elif stmt.where is not None:
                with w.block(f"for {var} in {collection}:"), \
                        w.block(f"if {self.expr(stmt.where)}:"):
                    self.block(stmt.body)
            else:
                with w.block(f"for {var} in {collection}:"):
                    self.block(stmt.body)

    def return_value(self, e: n.Expr) -> None:
        """`return e`: an aggregate that is all of e, as a plain loop."""
        if isinstance(e, n.Aggregate) and e.func in LOOPED:
            self.looped(e, None)
        else:
            with self.loop_aggregates(e):
                self.w.line(f"return {self.expr(e)}")

    def assign_value(self, e: n.Expr, target: str) -> None:
        """`target = e`, an aggregate that is all of e as a plain loop (return_value)."""
        if isinstance(e, n.Aggregate) and e.func in LOOPED:
            self.looped(e, target)
        else:
            with self.loop_aggregates(e):
                self.w.line(f"{target} = {self.expr(e)}")

    def lvalue(self, target: n.Expr) -> str:
        if isinstance(target, n.Name):
            if isinstance(self.model.symbols.names.get(id(target)), sym.Local):
                return self.bindings.lookup(target.id)
            return f"s.g_{target.id}"  # the only other name that can be assigned
        return self.expr(target, narrow=False)

    # ---- expressions
    def rings_row(self, e: n.Call) -> str | None:
        """ring(node, k) at a distance k that the rules work out, a name (read twice, which
        costs nothing): the row of N_<board>_RINGS that holds it, which a distance beyond the
        board does not have (rt.ring then); None for any other call."""
        node_type = self.model.type_of(e.args[0])
        radius = e.args[1]
        if (e.func != "ring" or not isinstance(node_type, t.NodeT)
                or not isinstance(radius, n.Name) or id(radius) in self.model.narrowed):
            return None
        board = node_type.board
        self.areas.add((board, "ring", -1))
        node, k = self.expr(e.args[0]), self.expr(radius)
        return (f"(N_{upper(board)}_RINGS[{node}][{k}] if 0 <= {k} <= {self.board_span(board)} "
                f"else rt.ring(N_{upper(board)}_DISTANCE[{node}], {k}))")

    def collection(self, expr: n.Expr) -> str:
        """Python source for iterating the value of expr."""
        if (isinstance(expr, n.Call) and expr.func in ("within", "ring")
                and id(expr) not in self.model.narrowed):
            area = self.area_table(expr)
            if area is not None:  # a row of the table, not a list of one's own
                return f"{area}[{self.expr(expr.args[0])}]"
            row = self.rings_row(expr)
            if row is not None:
                return row
        type_ = self.model.type_of(expr)
        source = self.expr(expr)
        if isinstance(type_, t.ZoneT):
            return f"s.zones[{source}]"
        return source

    def expr(self, e: n.Expr, state: str = "s", narrow: bool = True) -> str:
        source = self._expr(e, state)
        if narrow and id(e) in self.model.narrowed and not self.never_reassigned(e):
            return f"rt.some({ungrouped(source)})"
        return source

    def never_reassigned(self, e: n.Expr) -> bool:
        """Whether e is a variable that nothing assigns after it is bound (a parameter, a loop
        variable, a `let` never assigned): once tested present it stays present, so it needs
        no rt.some, and mypy narrows it where the test stands as the checker does."""
        if not isinstance(e, n.Name):
            return False
        symbol = self.model.symbols.names.get(id(e))
        if isinstance(symbol, sym.Parameter):
            return True
        if not isinstance(symbol, sym.Local):
            return False
        if self.assigned_lets is None:
            names = self.model.symbols.names
            self.assigned_lets = {
                names[id(node.target)] for node in walk_rules(self.model.modules)
                if isinstance(node, n.Assign) and id(node.target) in names}
        return symbol not in self.assigned_lets

    def _expr(self, e: n.Expr, s: str) -> str:
        match e:
            case n.IntLit():
                return str(e.value)
            case n.StrLit():
                return repr(e.value)
            case n.BoolLit():
                return "True" if e.value else "False"
            case n.NoneLit():
                return "None"
            case n.ActorRef():
                return "actor"
            case n.PlayersRef():
                return f"range({s}.num_players)"
            case n.Name():
                return self.name(e, s)
            case n.ListLit():
                return "[" + ", ".join(self.expr(item, s) for item in e.items) + "]"
            case n.Attribute():
                return self.attribute(e, s)
            case n.Index():
                return self.index(e, s)
            case n.Call():
                return self.call(e, s)
            case n.EffectCall():
                effect = self.model.symbols.effects[id(e)]
                card = self.expr(e.card, s)
                args = "".join(f", {self.expr(a, s)}" for a in e.args)
                table = f"FX_{upper(effect.card_type)}_{upper(effect.name)}"
                return f"{table}[{s}.card_def[{card}]]({s}, {card}{args})"
            case n.Aggregate():
                return self.aggregate(e, s)
            case n.Conditional():
                return (f"({self.expr(e.then, s)} if {self.expr(e.cond, s)} "
                        f"else {self.expr(e.otherwise, s)})")
            case n.BinaryOp() if e.op in ("and", "or") and s == "s":
                return self.card_test(e, self.binary(e, s))
            case n.BinaryOp():
                return self.binary(e, s)
            case n.Not():
                return grouped(self.negated(e.operand, s))
            case n.Negate():
                return f"(-{self.expr(e.operand, s)})"
            case n.Range():
                return f"range({self.expr(e.low, s)}, {self.expr(e.high, s)} + 1)"
            case n.DataWord() | n.EffectLit():  # pragma: no cover - resolved, or made functions
                raise AssertionError(type(e).__name__)
            case _:
                assert_never(e)

    def name(self, e: n.Name, s: str) -> str:
        symbol = self.model.symbols.names.get(id(e))
        match symbol:
            case sym.Local() | sym.Parameter():
                return self.bindings.lookup(e.id)
            case sym.Option():
                return f"{s}.o_{e.id}"
            case sym.GameField():
                return f"{s}.g_{e.id}"
            case sym.EnumMember():
                return self.enum_constants.get((symbol.enum, symbol.index), str(symbol.index))
            case sym.Player() | sym.BoardNode() | sym.RecordEntry():
                return str(symbol.index)
            case sym.Card():
                return str(self.def_offset.get(symbol.card_type, 0) + symbol.index)
            case sym.Zone():
                return f"Z_{upper(e.id)}"
            case sym.Domain():
                element = self.model.type_of(e)
                assert isinstance(element, t.ListT)
                return self.type_domain(element.element)
            case sym.OwnField() | None:  # pragma: no cover - card rules are not compiled
                raise AssertionError(f"unresolved name {e.id}")
            case _:
                assert_never(symbol)

    def attribute(self, e: n.Attribute, s: str) -> str:
        m = self.model
        obj = self.expr(e.obj, s)
        symbol = m.symbols.attributes.get(id(e))
        match symbol:
            case sym.PlayerField():
                return f"{s}.p_{e.name}[{self.seated(e.obj, obj, s)}]"
            case sym.NodeField():
                return f"{s}.n_{symbol.board}_{e.name}[{obj}]"
            case sym.RecordField():
                return f"R_{upper(symbol.record)}_{upper(e.name)}[{obj}]"
            case sym.CardField():
                if symbol.per_card:
                    return f"{s}.k_{symbol.card_type}_{e.name}[{obj}]"
                return f"C_{upper(symbol.card_type)}_{upper(e.name)}[{s}.card_def[{obj}]]"
            case sym.DefField():
                return f"C_{upper(symbol.card_type)}_{upper(e.name)}[{obj}]"
            case sym.CardOwner():
                return f"{s}.card_owner[{obj}]"
            case sym.NameOf():
                # the name as data (compared, stored), not as words for a reader
                type_ = m.type_of(e.obj)
                if isinstance(type_, t.PlayerT) and m.seat_names:
                    return f"{s}.player_name({obj})"  # the seats of the count played
                table = names_table(type_)
                if table is not None:
                    return f"{table}[{obj}]"
                return self.display(m.type_of(e.obj), obj).replace("s.card_def", f"{s}.card_def")
            case None:  # pragma: no cover
                raise AssertionError(f"unresolved field {e.name}")
            case _:
                assert_never(symbol)

    def index(self, e: n.Index, s: str) -> str:
        symbol = self.model.symbols.indexes.get(id(e))
        match symbol:
            case sym.ZoneSlot():
                return self.zone_slot(symbol.zone, e.keys, s)
            case sym.ListIndex() if not (isinstance(e.keys[0], n.IntLit)
                                         and e.keys[0].value >= 0):
                # counted from 0: a negative index would count from the end in Python
                return f"rt.item({self.expr(e.obj, s)}, {self.expr(e.keys[0], s)})"
            case sym.PerPlayerIndex() | sym.ListIndex() | None:
                return f"{self.expr(e.obj, s)}[{self.expr(e.keys[0], s)}]"
            case _:
                assert_never(symbol)

    def zone_slot(self, zone: str, keys: tuple[n.Expr, ...], s: str) -> str:
        dims = self.zone_dims[zone]
        index = ""
        for i, key in enumerate(keys):
            value = team_key(self.model, zone, i, self.seated(key, self.expr(key, s), s), s)
            index = value if i == 0 else f"{grouped(index)} * {dims[i]} + {value}"
        return f"Z_{upper(zone)} + {index}" if index else f"Z_{upper(zone)}"

    def seated(self, e: n.Expr, code: str, s: str) -> str:
        """The code of a player whose zone or field is read: a seat named in the rules that
        games of fewer players lack is refused by name in such a game (its zones exist,
        unused, and its fields do not), where it would read nothing or fail."""
        symbol = self.model.symbols.names.get(id(e)) if isinstance(e, n.Name) else None
        if isinstance(symbol, sym.Player) and symbol.index >= self.model.min_players:
            return f"{s}.seat({code})"
        return code

    def call(self, e: n.Call, s: str) -> str:
        args = [self.expr(a, s) for a in e.args]
        symbol = self.model.symbols.calls.get(id(e))
        match symbol:
            case sym.Function():
                inlined = self.inlined(e, args, s)
                if inlined is not None:
                    return inlined
                return f"f_{e.func}({s}" + "".join(f", {a}" for a in args) + ")"
            case sym.Procedure():
                return f"proc_{e.func}({s}" + "".join(f", {a}" for a in args) + ")"
            case sym.Builtin() | None:
                return self.builtin(e, args, s)
            case _:
                assert_never(symbol)

    def inlined(self, e: n.Call, args: list[str], s: str, negated: bool = False) -> str | None:
        """A call of a small function (inlinable) whose arguments are plain (_PLAIN_ARGUMENT):
        its body, reading the arguments for the parameters (`negated`: the body's negation, so
        that `not f(x)` of a body `x in z` reads `x not in z`). A Python call costs more than
        most such bodies: in a listing, which asks them of every hex or card, and in the
        rules' procedures (Dynasties' resolution asks `warlord_acts` about 24 times a
        dynasty)."""
        if not all(_PLAIN_ARGUMENT.fullmatch(a) for a in args):
            return None
        info = self.model.functions[e.func]
        decl = info.decl
        assert isinstance(decl, n.FunctionDecl)
        # a sum of slot sizes (slot_sizes) is a call: no loop, and no parentheses to add
        sized = (isinstance(decl.body, n.Aggregate) and self.function_risk(e.func) == HARMLESS
                 and self.sized_slots(decl.body) is not None)
        if not sized and not self.inlinable(e.func):
            return None
        outer, self.bindings = self.bindings, Bindings()
        try:
            for (name, _), arg in zip(info.params, args, strict=True):
                self.bindings.bind(name, arg)
            if negated:
                return None if sized else grouped(self.negated(decl.body, s))
            body = self.expr(decl.body, s)
            return body if sized else grouped(body)
        finally:
            self.bindings = outer

    def builtin(self, e: n.Call, args: list[str], s: str) -> str:
        m = self.model
        name = e.func
        coll = [self.collection(a) for a in e.args] if name in (
            "size", "empty", "first", "last", "shuffled") else []
        if name == "size":
            return f"len({coll[0]})"
        if name == "empty":
            return f"(not {coll[0]})"
        if name in ("first", "last"):
            return f"rt.{name}({coll[0]})"
        if name == "shuffled":
            return f"{s}.rng.shuffled({coll[0]})"
        seats = seat_call(name, args, self.max_players, s)
        if seats is not None:
            return seats
        if name in ("abs", "min", "max"):
            return f"{name}({', '.join(args) if len(args) > 1 else ungrouped(args[0])})"
        if name == "roll":
            return f"{s}.rng.roll({args[0]})"
        if name == "flip":
            return f"{s}.rng.flip()"
        if name == "decklist":
            return f"{s}.d_decklists[{args[0]}][:]"
        node_type = m.type_of(e.args[0]) if e.args else None
        board = upper(node_type.board) if isinstance(node_type, t.NodeT) else ""
        if name == "neighbours":
            return f"N_{board}_NEIGHBOURS[{args[0]}]"
        if name == "adjacent":
            return f"({args[1]} in N_{board}_NEIGHBOURS[{args[0]}])"
        if name == "distance":
            return f"N_{board}_DISTANCE[{args[0]}][{args[1]}]"
        if name in ("within", "ring"):
            area = self.area_table(e)
            if area is not None:
                return f"list({area}[{args[0]}])"
            row = self.rings_row(e)
            if row is not None:
                return f"list({row})"
            return f"rt.{name}(N_{board}_DISTANCE[{args[0]}], {args[1]})"
        if name == "connected":
            return f"rt.connected({args[0]}, {args[1]}, N_{board}_NEIGHBOURS)"
        return grid_call(self.model, self.grids, e, args)

    def negated(self, e: n.Expr, s: str = "s", test: bool = False) -> str:
        """Python source that is true exactly when e is false, without double negations; as
        the `test` of an `if`, it need only be truthy (no bool())."""
        flipped = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
        if isinstance(e, n.Not):
            return self.expr(e.operand, s)
        if isinstance(e, n.BinaryOp) and e.op in flipped:
            return self.expr(n.BinaryOp(flipped[e.op], e.left, e.right, span=e.span), s)
        if isinstance(e, n.BinaryOp) and e.op == "in":
            return f"{self.expr(e.left, s)} not in {self.collection(e.right)}"
        if isinstance(e, n.Call) and e.func == "empty" and not self.model.narrowed & {id(e)}:
            collection = self.collection(e.args[0])
            return collection if test else f"bool({collection})"
        if isinstance(e, n.Call) and isinstance(self.model.symbols.calls.get(id(e)), sym.Function):
            inlined = self.inlined(e, [self.expr(a, s) for a in e.args], s, negated=True)
            if inlined is not None:
                return inlined
        return f"not {self.expr(e, s)}"

    def binary(self, e: n.BinaryOp, s: str) -> str:
        m = self.model
        op = e.op
        if op in ("==", "!=") and (isinstance(e.left, n.NoneLit) or isinstance(e.right, n.NoneLit)):
            other = e.right if isinstance(e.left, n.NoneLit) else e.left
            return f"({self.expr(other, s, narrow=False)} {'is' if op == '==' else 'is not'} None)"
        if op == "in":
            return f"({self.expr(e.left, s)} in {self.collection(e.right)})"
        left_type = m.type_of(e.left)
        if op == "+" and t.element_type(left_type) is not None:
            return f"[*{self.collection(e.left)}, *{self.collection(e.right)}]"
        python_op = {"/": "//"}.get(op, op)
        return f"({self.expr(e.left, s)} {python_op} {self.expr(e.right, s)})"
