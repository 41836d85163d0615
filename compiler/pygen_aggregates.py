"""Aggregates compiled to Python (`sum`, `count`, `min`, `max`, `any`, `all`, `first`,
`list`): as comprehensions, as plain loops that a statement runs before it, or as the sizes of
consecutive zone slots added up. The layer between compiler.pygen_facts and
compiler.pygen_exprs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

from compiler import symbols as sym
from compiler.pygen_base import grouped, py_type
from compiler.pygen_facts import HARMLESS, ExpressionFacts, walk_expr
from compiler.pygen_seats import order_key
from dsl import nodes as n

# Aggregates that a statement computes with a plain loop (AggregateGenerator.looped).
LOOPED = frozenset({"sum", "count", "any", "all", "first"})

# Expressions that hold no other node (find_once_aggregates looks for none under them).
_LEAVES = frozenset({n.Name, n.IntLit, n.StrLit, n.BoolLit, n.NoneLit})
# loop_aggregates when a statement has no aggregate to loop: a nullcontext can be entered again
_NOTHING_LOOPED = nullcontext()

# The most slots whose sizes a sum adds up one by one (slot_sizes); more go to sum(map(...)).
UNROLLED_SIZES = 6


class AggregateGenerator(ExpressionFacts):
    """Aggregates as Python source."""

    # (written by compiler.pygen_exprs.ExpressionGenerator, which aggregates are part of)
    def expr(self, e: n.Expr, state: str = "s", narrow: bool = True) -> str:
        raise NotImplementedError

    def collection(self, expr: n.Expr) -> str:
        raise NotImplementedError

    def negated(self, e: n.Expr, s: str = "s", test: bool = False) -> str:
        raise NotImplementedError

    def zone_slot(self, zone: str, keys: tuple[n.Expr, ...], s: str) -> str:
        raise NotImplementedError

    def loop_aggregates(self, e: n.Expr | None) -> AbstractContextManager[None]:
        """Work out with plain loops, before the statement that evaluates e, the harmless
        aggregates that e always evaluates once (not under `and`, `or`, `if` or another
        aggregate's element): within, e reads their values from variables. Their turn among
        e's parts makes no difference, as they are harmless."""
        found: list[n.Aggregate] = []
        if e is not None:
            self.find_once_aggregates(e, found)
        if not found:  # most statements: no generator made and run for nothing
            return _NOTHING_LOOPED
        return self._looped_aggregates(found)

    @contextmanager
    def _looped_aggregates(self, found: list[n.Aggregate]) -> Iterator[None]:
        for aggregate in found:
            var = self.bindings.reserve(aggregate.func)
            self.looped(aggregate, var)
            self.looped_values[id(aggregate)] = var
        try:
            yield
        finally:
            for aggregate in found:
                del self.looped_values[id(aggregate)]

    def find_once_aggregates(self, x: n.Node, found: list[n.Aggregate]) -> None:
        """The harmless aggregates of loop_aggregates, added to `found` (a method, not a
        recursive closure: a closure that calls itself is a reference cycle, and a dropped
        compilation must be freed without the cycle collector)."""
        kind = type(x)
        if kind in _LEAVES:
            return
        if isinstance(x, n.Aggregate):
            self.find_once_aggregates(x.domain, found)
            if x.func in LOOPED and self.risk(x) == HARMLESS:
                found.append(x)
        elif isinstance(x, n.BinaryOp) and x.op in ("and", "or"):
            self.find_once_aggregates(x.left, found)
        elif isinstance(x, n.Conditional):
            self.find_once_aggregates(x.cond, found)
        else:
            for child in n.children(x):
                self.find_once_aggregates(child, found)

    def looped(self, e: n.Aggregate, target: str | None) -> None:
        """An aggregate as a plain loop, its value returned (no target) or assigned to
        `target`: cheaper than a generator over the few values most domains have, and it
        stops where any, all and first stop."""
        w = self.w
        func = e.func
        sizes = self.slot_sizes(e)
        if sizes is not None:  # one expression, no loop of its own
            w.line(f"return {sizes}" if target is None else f"{target} = {sizes}")
            return
        collection = self.collection(e.domain)
        with self.bindings.frame():
            var = self.bindings.bind(e.var)
            where = self.expr(e.where) if e.where is not None else None
            if e.order_by is not None:
                collection = self.sorted_domain(e, var, collection,
                                                f" if {where}" if where else "", "s")
                where = None
            element = "1" if func == "count" else self.expr(e.element)
            if func == "all":
                element = self.negated(e.element, test=True)
            if func in ("sum", "count"):
                total = target or self.bindings.reserve(func)
                w.line(f"{total} = 0")
                with w.block(f"for {var} in {collection}:"):
                    if where is not None:
                        with w.block(f"if {where}:"):
                            w.line(f"{total} += {element}")
                    else:
                        w.line(f"{total} += {element}")
                if target is None:
                    w.line(f"return {total}")
                return
            if func == "first":
                found, value, test = "None", element, where
                if target is not None:
                    w.line(f"{target}: {py_type(self.model.type_of(e))} = None")
            else:
                found, value = ("False", "True") if func == "any" else ("True", "False")
                test = element if where is None else f"{grouped(where)} and {grouped(element)}"
                if target is not None:
                    w.line(f"{target} = {found}")
            test_block = w.block(f"if {test}:") if test is not None else nullcontext()
            with w.block(f"for {var} in {collection}:"), test_block:
                if target is None:
                    w.line(f"return {value}")
                else:
                    w.line(f"{target} = {value}")
                    w.line("break")
            if target is None:
                w.line(f"return {found}")

    def sized_slots(self, e: n.Aggregate) -> tuple[str, list[n.Expr], int] | None:
        """(zone, its keys but the last, the size of the last) when e is
        `sum(size(zone[k.., v]) for v in T)` over every value of T, the last key of the zone:
        its slots are consecutive (slot_sizes). None for any other aggregate."""
        element = e.element
        if (e.func != "sum" or e.where is not None or not isinstance(element, n.Call)
                or element.func != "size" or len(element.args) != 1):
            return None
        slot = element.args[0]
        zone = self.model.symbols.indexes.get(id(slot))
        if not isinstance(slot, n.Index) or not isinstance(zone, sym.ZoneSlot):
            return None
        dims = self.zone_dims[zone.zone]
        *outer, last = slot.keys
        if (len(slot.keys) != len(dims) or not isinstance(last, n.Name) or last.id != e.var
                or any(isinstance(node, n.Name) and node.id == e.var
                       for key in outer for node in walk_expr(key))):
            return None
        if self.collection(e.domain) != f"range({dims[-1]})":  # every value, in order
            return None
        return zone.zone, outer, dims[-1]

    def slot_sizes(self, e: n.Aggregate, s: str = "s") -> str | None:
        """sized_slots as one expression, without a loop of the generated code's own: the
        lengths of a few slots added up (a zone per node of a small board), or those of a
        slice of the zones added up in C (sum and map cost more than a few additions)."""
        sized = self.sized_slots(e)
        if sized is None:
            return None
        zone, outer, count = sized
        first = self.zone_slot(zone, (*outer, n.IntLit(0, span=e.span)), s).removesuffix(" + 0")
        if count <= UNROLLED_SIZES:
            return "(" + " + ".join(
                f"len({s}.zones[{first}{f' + {k}' if k else ''}])" for k in range(count)) + ")"
        return f"sum(map(len, {s}.zones[{first}:{first} + {count}]))"

    def aggregate(self, e: n.Aggregate, s: str) -> str:
        looped = self.looped_values.get(id(e))
        if looped is not None:
            return looped
        sizes = self.slot_sizes(e, s)
        if sizes is not None:
            return sizes
        collection = self.collection(e.domain)
        with self.bindings.frame():
            var = self.bindings.bind(e.var)
            where = f" if {self.expr(e.where, s)}" if e.where is not None else ""
            if e.order_by is not None:
                collection, where = self.sorted_domain(e, var, collection, where, s), ""
            element = self.expr(e.element, s)
            loop = f"for {var} in {collection}{where}"
            self.bindings.used.discard(var)  # comprehension variables have their own scope
        func = e.func
        if func == "sum":
            return f"sum({element} {loop})"
        if func == "count":
            return f"sum(1 {loop})"
        if func in ("min", "max"):
            return f"{func}(({element} {loop}), default=0)"
        if func in ("any", "all"):
            return f"{func}({element} {loop})"
        if func == "first":
            return f"next(({element} {loop}), None)"
        return f"[{element} {loop}]"

    def sorted_domain(self, e: n.Aggregate, var: str, collection: str, where: str,
                      s: str) -> str:
        """The elements of an aggregate's domain that pass its `where`, in the order of its
        `ordered by` (sorted is stable: ties keep the domain's order)."""
        assert e.order_by is not None
        key = order_key(var, self.expr(e.order_by, s), e.descending)
        return f"sorted([{var} for {var} in {collection}{where}], {key})"
