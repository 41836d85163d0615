"""Moving the spans of an effect's tree: an effect whose text is not one piece of its card set
(quoted or folded over several lines, escapes) is parsed on its own, and its spans and its
diagnostics are then moved to their places in the file through a map of its scalar
(dsl.yaml_origins); dsl.cardset does this, and asks first whether a constant shift is right.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from dsl import nodes as n
from dsl.diagnostics import Diagnostic
from dsl.source import Span
from dsl.yaml_origins import Origins, Shift


def moved(
    block: n.Block | None, found: list[Diagnostic], move: Shift | Origins
) -> tuple[n.Block | None, list[Diagnostic]]:
    """The block and the diagnostics of a text parsed on its own, at their places in the file."""
    if found:
        file = found[0].span.file
        note = re.compile(re.escape(file) + r":(\d+):(\d+)")

        def moved_note(match: re.Match[str]) -> str:
            line, column = move.point(int(match[1]), int(match[2]))
            return f"{file}:{line}:{column}"

        found = [dataclasses.replace(d, span=move.span(d.span),
                                     notes=tuple(note.sub(moved_note, x) for x in d.notes))
                 for d in found]
    if block is not None:
        try:
            copy = _rebuilt(block, move.span, {})
        except RecursionError:  # a long sum is a deep tree
            copy = _with_spans(block, move.span)
        assert isinstance(copy, n.Block)
        block = copy
    return block, found


# Types of node fields that hold no node and no span: taken over as they are.
_CONSTANT_TYPES = frozenset({"str", "int", "bool", "str | None", "int | None",
                             "tuple[str, ...]", "tuple[tuple[str, str], ...]"})
# Per node class: its positional fields, then its keyword fields but the span, each with
# whether it is of a constant type.
_PLANS: dict[type, tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...]]] = {}


def _plan(node: n.Node) -> tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...]]:
    fields = [f for f in dataclasses.fields(node) if f.init and f.name != "span"]
    plan = _PLANS[type(node)] = (
        tuple((f.name, f.type in _CONSTANT_TYPES) for f in fields if not f.kw_only),
        tuple((f.name, f.type in _CONSTANT_TYPES) for f in fields if f.kw_only))
    return plan


def within(block: n.Block, line: int, first: int, last: int) -> bool:
    """Whether every span of block is on `line`, from column `first` to column `last` at most
    (its end, exclusive, at most last + 1)."""
    stack: list[object] = [block]
    seen: set[int] = set()
    while stack:
        value = stack.pop()
        if isinstance(value, n.Node):
            if id(value) in seen:
                continue
            seen.add(id(value))
            s = value.span
            if not (s.line == s.end_line == line and first <= s.column <= last
                    and s.column <= s.end_column <= last + 1):
                return False
            positional, keywords = _PLANS.get(type(value)) or _plan(value)
            stack.extend(getattr(value, name) for name, constant in positional if not constant)
            stack.extend(getattr(value, name) for name, constant in keywords if not constant)
        elif isinstance(value, Span):
            if not (value.line == value.end_line == line and first <= value.column <= last
                    and value.column <= value.end_column <= last + 1):
                return False
        elif isinstance(value, tuple):
            stack.extend(value)
    return True


def _rebuilt(value: object, move: Callable[[Span], Span], done: dict[int, object]) -> object:
    """_with_spans, recursively: each effect whose text is not a piece of its file (quoted or
    folded over several lines, as yaml.safe_dump writes every effect) is rebuilt, and this
    does about half the work."""
    if isinstance(value, n.Node):
        found = done.get(id(value))
        if found is not None:
            return found
        cls = type(value)
        positional, keywords = _PLANS.get(cls) or _plan(value)
        made: Callable[..., object] = cls
        copy = made(*[getattr(value, name) if constant else
                      _rebuilt(getattr(value, name), move, done)
                      for name, constant in positional],
                    span=move(value.span),
                    **{name: getattr(value, name) if constant else
                       _rebuilt(getattr(value, name), move, done)
                       for name, constant in keywords})
        done[id(value)] = copy
        return copy
    if isinstance(value, Span):
        return move(value)
    if isinstance(value, tuple):
        return tuple([_rebuilt(item, move, done) for item in value])
    return value


_INIT_FIELDS: dict[type, tuple[str, ...]] = {}


def _with_spans(root: object, move: Callable[[Span], Span]) -> object:
    """root (a node, or a tuple or span in one) rebuilt with every span moved. Without
    recursion: a long sum is a deep tree."""
    done: dict[int, object] = {}
    stack: list[tuple[object, bool]] = [(root, False)]
    while stack:
        value, ready = stack.pop()
        if id(value) in done:
            continue
        if isinstance(value, Span):
            done[id(value)] = move(value)
            continue
        parts: tuple[Any, ...]
        if isinstance(value, n.Node):
            names = _INIT_FIELDS.get(type(value))
            if names is None:
                names = _INIT_FIELDS[type(value)] = tuple(
                    f.name for f in dataclasses.fields(value) if f.init)
            parts = tuple(getattr(value, name) for name in names)
        elif isinstance(value, tuple):
            parts = value
        else:
            done[id(value)] = value
            continue
        if not ready:
            stack.append((value, True))
            stack.extend((part, False) for part in parts if id(part) not in done)
            continue
        rebuilt = [done[id(part)] for part in parts]
        if isinstance(value, n.Node):
            make: Callable[..., object] = type(value)
            done[id(value)] = make(**dict(zip(_INIT_FIELDS[type(value)], rebuilt, strict=True)))
        else:
            done[id(value)] = tuple(rebuilt)
    return done[id(root)]
