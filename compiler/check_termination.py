"""Typecheck, termination: no function, procedure or card effect calls itself, directly or
through others (the call graph the bodies recorded while they were checked).
"""

from __future__ import annotations

from compiler.check_base import CheckerBase
from dsl.source import Span


class TerminationChecker(CheckerBase):
    """Reports every call cycle in the call graph."""

    def recursion(self) -> None:
        m = self.model
        spans = {name: info.span for name, info in {**m.functions, **m.procedures}.items()}
        spans.update(self.spans)
        state: dict[str, int] = {}
        for name in sorted(spans):
            if name not in state:
                self.visit_calls(name, [name], state, spans)

    def visit_calls(
        self, name: str, path: list[str], state: dict[str, int], spans: dict[str, Span]
    ) -> None:
        """Depth first through the call graph from name. A method, not a closure that calls
        itself: such a closure is a reference cycle, which would keep this checker and the
        whole model alive after the compilation is dropped, until a full collection."""
        state[name] = 1
        for callee in sorted(self.calls.get(name, ())):
            if state.get(callee) == 1:
                cycle = path[path.index(callee):] + [callee] if callee in path else [callee]
                self.error("E0211", spans[callee],
                           f"'{callee}' calls itself: " + " → ".join(cycle))
            elif callee not in state and callee in spans:
                self.visit_calls(callee, [*path, callee], state, spans)
        state[name] = 2
