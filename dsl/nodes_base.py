"""What every AST node shares: the base class (a node's span), the annotation a statement or a
declaration may carry, the faster __init__ each node class gets, and the walk over a tree of any
nodes (`children`, `walk`). The node classes are in dsl.nodes_code (expressions and statements)
and dsl.nodes (declarations); every one, and `children` and `walk`, is a name of dsl.nodes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from dsl.source import Span, faster_init

_C = TypeVar("_C", bound=type)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Node:
    """A node of the AST. Its equality, hash and repr are those dataclasses writes for each
    class (eq=True): written here once, for the classes node_dataclass makes."""

    span: Span = field(kw_only=True, compare=False)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            names = _facts(type(self))[0]
            return tuple([getattr(self, name) for name in names]) == tuple(
                [getattr(other, name) for name in names])
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple([getattr(self, name) for name in _facts(type(self))[1]]))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _facts(type(self))[2])
        return f"{type(self).__qualname__}({shown})"


# By node class: the fields its equality compares, those its hash takes, those its repr shows.
_FACTS: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


def _facts(kind: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    found = _FACTS.get(kind)
    if found is None:
        fields = dataclasses.fields(kind)
        found = _FACTS[kind] = (
            tuple(f.name for f in fields if f.compare),
            tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)),
            tuple(f.name for f in fields if f.repr))
    return found


def node_dataclass(*, frozen: bool, slots: bool) -> Callable[[_C], _C]:
    """What @dataclass(frozen=True, slots=True) makes of a node class, at run time (type
    checkers see dataclasses' own: dsl.nodes imports this under its name), in a third of the
    time: dataclasses compiles each of __init__, __repr__, __eq__, __hash__, __setattr__ and
    __delattr__ for every class, and making the hundred node classes was a third of the
    imports of `rulecraft check`. Equality, hash and repr are Node's, the same for every
    class; __init__ is faster_init's, with dataclasses' signature."""
    if not (frozen and slots):
        raise TypeError("node classes are frozen and slotted")

    def make(cls: _C) -> _C:
        if cls.__doc__ is None:  # (else dataclasses works one out from the signature)
            cls.__doc__ = cls.__name__
        made: _C = dataclass(  # type: ignore[assignment]  # (a class in, a class out)
            frozen=True, slots=True, init=False, repr=False, eq=False)(cls)
        faster_init(made)
        if "_set_" not in " ".join(vars(made)["__init__"].__code__.co_names):
            raise TypeError(f"{cls.__name__}: a node class needs every field in a slot, "
                            "without a default factory or __post_init__")
        return made
    return make


faster_init(Node)


@dataclass(frozen=True, slots=True)
class Annotation(Node):
    rule: str


faster_init(Annotation)


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# Fields declared with these types never hold a node, so they are not looked into: most nodes
# of a card set are literals and names, whose fields are all such.
_NODELESS_TYPES = frozenset({
    "str", "int", "bool", "str | None", "int | None", "Span", "Span | None", "tuple[str, ...]",
    "tuple[Span, ...]",
    "tuple[tuple[str, str], ...]", "tuple[tuple[str, Span], ...]",
    "tuple[tuple[str, Span], ...] | None",
})


def child_fields(kind: type[Node]) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes: none for literals and names."""
    names = _CHILD_FIELDS.get(kind)
    if names is None:
        names = tuple(f.name for f in kind.__dataclass_fields__.values()
                      if f.name not in ("span", "annotations") and f.type not in _NODELESS_TYPES)
        _CHILD_FIELDS[kind] = names
    return names


def children(node: Node) -> list[Node]:
    """The direct child nodes of any AST node, in source order."""
    names = _CHILD_FIELDS.get(type(node))
    if names is None:
        names = child_fields(type(node))
    if not names:
        return []
    found: list[Node] = []
    for name in names:
        value = getattr(node, name)
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple) and value:
            _collect(value, found)
    return found


def _collect(values: tuple[object, ...], found: list[Node]) -> None:
    for value in values:
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple):
            _collect(value, found)


def walk(node: Node) -> list[Node]:
    """Every node below and including `node`, iteratively (no recursion limit)."""
    order: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        order.append(current)
        stack.extend(reversed(children(current)))
    return order
