"""What every AST node shares: the base class (a node's span), the annotation a statement or a
declaration may carry, the faster __init__ each node class gets, and the walk over a tree of any
nodes (`children`, `walk`). The node classes are in dsl.nodes_code (expressions and statements)
and dsl.nodes (declarations); every one, and `children` and `walk`, is a name of dsl.nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dsl.source import Span, faster_init, value_dataclass, value_eq, value_hash, value_repr


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Node:
    """A node of the AST. Its equality, hash and repr are those dataclasses writes for each
    class (eq=True), the same for every node class (see dsl.source.value_dataclass)."""

    span: Span = field(kw_only=True, compare=False)

    __eq__ = value_eq
    __hash__ = value_hash
    __repr__ = value_repr


# What @dataclass(frozen=True, slots=True) makes of a node class, at run time: dsl.nodes
# imports this under its name (type checkers see dataclasses' own).
node_dataclass = value_dataclass


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
