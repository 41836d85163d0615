"""Building spans and AST nodes quickly, for the fast card-set reader (dsl.fastcards).

A big card set makes a few hundred thousand spans and nodes, and building them through their
classes (a Python __init__ called by the class, setting each field through its descriptor) took as
long as reading the text. The builders here make the same objects about twice as fast; each is
checked once, when it is made, to give what the class's own constructor gives (type, fields,
span, repr), and the constructor itself is used when it does not (a class that gains a field, a
default, a __post_init__ or loses its slots).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from dsl import nodes as n
from dsl.source import Span


class _SpanBuilder:
    """Builds a Span: a class with Span's slots, not frozen, so its fields are set as plain
    attributes, whose instance then becomes a Span (assigning __class__ between classes of the
    same layout). What comes out is an ordinary Span."""

    __slots__ = Span.__slots__

    def __init__(self, file: str, line: int, column: int, end_line: int,
                 end_column: int) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.__class__ = Span  # type: ignore[assignment]


def _same(built: object, made: object) -> bool:
    return (type(built) is type(made) and repr(built) == repr(made)
            and all(getattr(built, f.name) == getattr(made, f.name)
                    for f in dataclasses.fields(made)))  # type: ignore[arg-type]


def span_builder() -> Callable[[str, int, int, int, int], Span]:
    """build(file, line, column, end_line, end_column) for Span(...)."""
    try:
        if _same(_SpanBuilder("f", 1, 2, 3, 4), Span("f", 1, 2, 3, 4)):
            return _SpanBuilder  # type: ignore[return-value]
    except TypeError:  # the layouts differ: Span gained a slot
        pass
    return Span


_N = TypeVar("_N", bound=n.Node)


def node_builder(cls: type[_N], *example: Any) -> Callable[..., _N]:
    """build(*fields, span) for cls(*fields, span=span): a bare object of cls (object.__new__)
    with its slots set through their descriptors, in C."""
    def construct(*values: Any) -> _N:
        return cls(*values[:-1], span=values[-1])

    names = [f.name for f in dataclasses.fields(cls) if f.name != "span"]
    try:
        setters = [_slot(cls, name).__set__ for name in names]
        set_span = _slot(cls, "span").__set__
    except AttributeError:  # a field without a slot
        return construct
    new = object.__new__

    def build(*values: Any) -> _N:
        node = new(cls)
        set_span(node, values[-1])
        for setter, value in zip(setters, values, strict=False):
            setter(node, value)
        return node

    span = Span("f", 1, 2, 3, 4)
    if (len(names) != len(example) or hasattr(cls, "__post_init__")
            or not _same(build(*example, span), cls(*example, span=span))):
        return construct
    if len(names) == 1:
        (set_a,) = setters

        def build1(a: Any, span: Span) -> _N:
            node = new(cls)
            set_a(node, a)
            set_span(node, span)
            return node

        return build1
    if len(names) == 2:
        set_a, set_b = setters

        def build2(a: Any, b: Any, span: Span) -> _N:
            node = new(cls)
            set_a(node, a)
            set_b(node, b)
            set_span(node, span)
            return node

        return build2
    if len(names) == 3:
        set_a, set_b, set_c = setters

        def build3(a: Any, b: Any, c: Any, span: Span) -> _N:
            node = new(cls)
            set_a(node, a)
            set_b(node, b)
            set_c(node, c)
            set_span(node, span)
            return node

        return build3
    return build


def _slot(cls: type, name: str) -> Any:
    """The slot descriptor of cls's field `name` (of cls or of the base class declaring it)."""
    for owner in cls.__mro__:
        found = vars(owner).get(name)
        if found is not None:
            if not hasattr(found, "__set__"):
                break
            return found
    raise AttributeError(name)
