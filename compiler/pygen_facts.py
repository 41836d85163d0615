"""What the Python generator knows of an expression before it writes it (what it reads, what
evaluating it may do, whether a call of a function may be its body) and the tables of areas
of boards that expressions read: the layer between compiler.pygen_base and
compiler.pygen_exprs."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from compiler import symbols as sym
from compiler import types as t
from compiler.pygen_base import GeneratorBase, ungrouped, upper
from compiler.pygen_grid import write_grid_tables
from dsl import nodes as n

# What evaluating an expression may do besides giving its value (ExpressionFacts.risk),
# from least to most: nothing, raise an error, or change the state or its random generator.
HARMLESS, MAY_RAISE, ACTS = 0, 1, 2

# Builtins that draw from the random generator.
_RANDOM_BUILTINS = frozenset({"roll", "flip", "shuffled"})

# The most nodes a function's body has to be inlined where it is called.
INLINE_NODES = 24

# A card's definition in generated code, and code that reads nothing else: the definitions
# (marked \0 for s.card_def[), module tables, numbers and operators.
CARD_DEF = re.compile(r"s\.card_def\[(v_\w+)\]")
# Possessive: it never tries another way of cutting a long text that does not match.
DEFINITION_ONLY = re.compile(
    r"(?:\0v_\w++\]|(?:and|or|not|in|is|None|True|False)\b|[A-Z][A-Z0-9_]*+|[0-9]++"
    r"|[][()=<>!+*%/ -])++")
# Tests of a card's definition are read from tables (card_test) in games of at most this many
# definitions: each table has a value per definition, made when the module is loaded.
CARD_TEST_LIMIT = 1024


class ExpressionFacts(GeneratorBase):
    """What an expression reads and may do, and the board tables it reads."""

    def reads(self, e: n.Expr, params: Collection[str]) -> set[str]:
        """The parameters among `params` that e reads (a name an aggregate binds is not one)."""
        found: set[str] = set()
        stack: list[n.Node] = [e]
        names = self.model.symbols.names
        while stack:
            node = stack.pop()
            if (isinstance(node, n.Name) and node.id in params
                    and isinstance(names.get(id(node)), sym.Parameter)):
                found.add(node.id)
            stack.extend(n.children(node))
        return found

    def risk(self, e: n.Expr, unwrapping: bool = True) -> int:
        """HARMLESS when evaluating e can neither raise an error nor change anything, so that
        when it is evaluated, and how often, makes no difference; MAY_RAISE when it may raise
        (an unwrapped optional, a division, a list index, a player named beyond the fewest
        players); ACTS when it may change the state or draw from the random generator.
        Without `unwrapping`, an unwrapped optional does not count: rt.some raises only if the
        checker's proof that the value is there were wrong."""
        m = self.model
        worst = HARMLESS
        stack: list[n.Node] = [e]
        while stack and worst < ACTS:
            node = stack.pop()
            stack.extend(n.children(node))
            if unwrapping and id(node) in m.narrowed:
                worst = max(worst, MAY_RAISE)
            match node:
                case n.Name():
                    symbol = m.symbols.names.get(id(node))
                    if isinstance(symbol, sym.Player) and symbol.index >= m.min_players:
                        worst = max(worst, MAY_RAISE)
                case n.Index():
                    if not isinstance(m.symbols.indexes.get(id(node)),
                                      (sym.ZoneSlot, sym.PerPlayerIndex)):
                        worst = max(worst, MAY_RAISE)
                case n.BinaryOp() if node.op in ("/", "%"):
                    worst = max(worst, MAY_RAISE)
                case n.Call():
                    called = m.symbols.calls.get(id(node))
                    if isinstance(called, sym.Function):
                        worst = max(worst, self.function_risk(node.func))
                    elif isinstance(called, sym.Procedure) or node.func in _RANDOM_BUILTINS:
                        worst = ACTS
                case n.EffectCall() | n.EffectLit() | n.DataWord():
                    worst = ACTS
        return worst

    def function_risk(self, name: str) -> int:
        """risk() of a call of the function `name`: of its body (a recursive one: ACTS, the
        worst, as no body is known to be harmless while it is being looked at)."""
        known = self.function_risks.get(name)
        if known is None:
            self.function_risks[name] = ACTS
            decl = self.model.functions[name].decl
            assert isinstance(decl, n.FunctionDecl)
            known = self.function_risks[name] = self.risk(decl.body)
        return known

    def inlinable(self, name: str) -> bool:
        """Whether calls of the function `name` may be its body: one that does not act (nor
        recurse: function_risk) of at most INLINE_NODES nodes and no aggregate, whose loop is
        cheaper in a function of its own (return_value). A body that may raise raises the
        same where it is written out, as its plain arguments cannot raise."""
        known = self.inlinable_functions.get(name)
        if known is None:
            decl = self.model.functions[name].decl
            assert isinstance(decl, n.FunctionDecl)
            known = self.small(decl.body) and self.function_risk(name) < ACTS
            self.inlinable_functions[name] = known
        return known

    def small(self, e: n.Expr) -> bool:
        """Whether e may be written where a call stands (inlinable, a procedure's guard): at
        most INLINE_NODES nodes and no aggregate."""
        nodes = list(walk_expr(e))
        return len(nodes) <= INLINE_NODES and not any(isinstance(node, n.Aggregate)
                                                      for node in nodes)

    def card_test(self, e: n.BinaryOp, source: str) -> str:
        """An `and` or `or` that reads one card's definition alone, twice or more (a tile's
        kind and its value), harmless, as a table of its answer for each definition, made at
        load (card_tables): one lookup instead of several and their comparisons. Any other
        test is its source."""
        if (self.card_tests is None or self.def_count > CARD_TEST_LIMIT
                or source.count("s.card_def[") < 2
                or DEFINITION_ONLY.fullmatch(source.replace("s.card_def[", "\0")) is None):
            return source
        cards = set(CARD_DEF.findall(source))
        if len(cards) != 1 or self.risk(e, unwrapping=False) != HARMLESS:
            return source
        card = cards.pop()
        test = source.replace(f"s.card_def[{card}]", "d")
        table = self.card_tests.get(test)
        if table is None:
            table = f"T_CARD_{e.span.line}"
            taken = set(self.card_tests.values())
            count = 1
            while table in taken:
                count += 1
                table = f"T_CARD_{e.span.line}_{count}"
            self.card_tests[test] = table
        return f"{table}[s.card_def[{card}]]"

    def card_tables(self) -> None:
        """The tables of card_test, after every rule that reads them (none runs at load)."""
        if not self.card_tests:
            return
        w = self.w
        w.line()
        w.line()
        w.line("# tests of a card's definition alone, their answer for each definition")
        for test, table in self.card_tests.items():
            w.line(f"{table}: Final[tuple[bool, ...]] = tuple(bool({ungrouped(test)}) "
                   f"for d in range({self.def_count}))")

    def area_table(self, e: n.Call) -> str | None:
        """The table of the nodes within (or at) a fixed distance of each node, for a call
        of within() or ring() whose radius is a number; None for one that is worked out."""
        node_type = self.model.type_of(e.args[0])
        radius = e.args[1]
        if not isinstance(radius, n.IntLit) or not isinstance(node_type, t.NodeT):
            return None
        area = (node_type.board, e.func, radius.value)
        self.areas.add(area)
        return f"N_{upper(area[0])}_{upper(area[1])}_{area[2]}"

    def board_span(self, board: str) -> int:
        """The greatest distance between two nodes of a board."""
        return max(max(row) for row in self.model.boards[board].distances())

    def area_tables(self) -> None:
        """The tables of area_table, each a row per node (the nodes in board order). They
        come last, once the rules have said which they read; no rule runs before the module
        is loaded. The grid tables follow, for the same reason."""
        write_grid_tables(self.model, self.w, self.grids)
        if not self.areas:
            return
        self.w.line()
        self.w.line()
        self.w.line("# the nodes within a distance of each node, or at it (ring), for the rules")
        self.w.line("# that name the distance")
        for board, func, radius in sorted(self.areas):
            if radius < 0:  # every distance (rings_row)
                count = self.board_span(board) + 1
                self.w.line(f"N_{upper(board)}_RINGS: Final = tuple(rt.rings(row, {count}) "
                            f"for row in N_{upper(board)}_DISTANCE)")
                continue
            test = f"d == {radius}" if func == "ring" else f"0 <= d <= {radius}"
            self.w.line(f"N_{upper(board)}_{upper(func)}_{radius}: Final = tuple(")
            self.w.line(f"    tuple(node for node, d in enumerate(row) if {test}) "
                        f"for row in N_{upper(board)}_DISTANCE")
            self.w.line(")")


def walk_expr(e: n.Node) -> Iterator[n.Node]:
    """Every node of an expression, e first."""
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(n.children(node))
