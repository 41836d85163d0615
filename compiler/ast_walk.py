"""Walking the rules: the nodes the back ends look at (pygen, docgen), below both of them; and
the pushers that put a node's children on a walk's stack without n.children (reach's walk and
walk_rules)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from typing import Any

from dsl import nodes as n

# Nodes that hold no other node: a card set is mostly made of them.
_LITERALS = frozenset({n.IntLit, n.StrLit, n.BoolLit, n.NoneLit, n.Name, n.DataWord})

# What puts the children of a node on a walk's stack, in the order n.children gives them,
# reversed; None for a node that holds none.
Push = Callable[[list[n.Node], n.Node], None]

# The declared types of the fields that hold one node, and a tuple of nodes.
_ONE_NODE = frozenset({"Expr", "Stmt", "Block"})
_NODES = frozenset({"tuple[Expr, ...]", "tuple[Stmt, ...]"})


def push_children(stack: list[n.Node], node: n.Node) -> None:
    stack.extend(reversed(n.children(node)))


def pusher(kind: type[n.Node]) -> Push | None:
    """n.children's order without its calls, for the classes an effect text is made of: one
    node (a call statement's call), a tuple of nodes (a block's statements, a call's
    arguments), or two nodes, or a node then a tuple (an index); any other class goes
    through n.children."""
    names = n.child_fields(kind)
    if not names:
        return None
    fields = kind.__dataclass_fields__
    shapes = tuple("one" if fields[name].type in _ONE_NODE
                   else "many" if fields[name].type in _NODES else "" for name in names)
    get: Callable[[n.Node], Any] = attrgetter(*names)
    if shapes == ("one",):
        def push_one(stack: list[n.Node], node: n.Node) -> None:
            stack.append(get(node))
        return push_one
    if shapes == ("many",):
        def push_many(stack: list[n.Node], node: n.Node) -> None:
            stack.extend(reversed(get(node)))
        return push_many
    if shapes == ("one", "one"):
        def push_two(stack: list[n.Node], node: n.Node) -> None:
            first, second = get(node)
            stack.append(second)
            stack.append(first)
        return push_two
    if shapes == ("one", "many"):
        def push_one_many(stack: list[n.Node], node: n.Node) -> None:
            first, rest = get(node)
            stack.extend(reversed(rest))
            stack.append(first)
        return push_one_many
    return push_children


class _Pushers(dict[type, Push | None]):
    """pusher() of each class met by the walks below, worked out the first time it is met
    (one lookup a node)."""

    def __missing__(self, kind: type[n.Node]) -> Push | None:
        push = self[kind] = pusher(kind)
        return push


_PUSHERS = _Pushers()


# The walks of whole models kept by walks_kept(): (the list of modules walked, its items then,
# the nodes found).
_KEPT: list[tuple[list[n.Node], tuple[n.Node, ...], list[n.Node]]] = []
_KEEPING = [False]


@contextmanager
def walks_kept() -> Iterator[None]:
    """Within, walk_rules of a list of modules walked before, unchanged, gives the nodes of
    that walk again: the docs and the module of a rulebook walk its whole model three times
    (0.09 s each for 10,000 cards). The nodes are frozen, so the walk of the same modules is the
    same; what was kept is dropped at the end."""
    was = _KEEPING[0]
    _KEEPING[0] = True
    try:
        yield
    finally:
        _KEEPING[0] = was
        if not was:
            _KEPT.clear()


def walk_rules(roots: Iterable[n.Node]) -> Iterator[n.Node]:
    """Every node under the roots, in no particular order, but the literals and the fields of
    card sets' cards (whose values are walked), and each effect text that cards share (its
    EffectLits differ, its tree is one) once: what rules say, without the card set's data."""
    if not (_KEEPING[0] and type(roots) is list and roots
            and all(type(root) is n.Module for root in roots)):
        return _walk_rules(roots)
    items = tuple(roots)
    for walked, then, nodes in _KEPT:
        if walked is roots and then == items:
            return iter(nodes)
    nodes = list(_walk_rules(items))
    _KEPT.append((roots, items, nodes))
    return iter(nodes)


def _walk_rules(roots: Iterable[n.Node]) -> Iterator[n.Node]:
    shared: set[int] = set()
    stack = list(roots)
    pop, pushers, literals = stack.pop, _PUSHERS, _LITERALS
    while stack:
        node = pop()
        kind = type(node)
        if kind in literals:
            continue
        if kind is n.Entry:  # a card: its children are its fields, each with a value
            yield node
            stack.extend([field.value for field in node.values  # type: ignore[attr-defined]
                          if type(field.value) not in literals])
            continue
        if kind is n.FieldValue:
            node = node.value  # type: ignore[attr-defined]
            kind = type(node)
            if kind in literals:
                continue
        if kind is n.EffectLit:
            body = id(node.body)  # type: ignore[attr-defined]
            if body in shared:
                continue
            shared.add(body)
        yield node
        push = pushers[kind]
        if push is not None:
            push(stack, node)


def names_in_order(root: n.Node) -> list[n.Name]:
    """The names under root (included) in source order, as n.walk(root) meets them: with each
    class's pusher instead of n.children, and without listing the other nodes (docgen's
    keyword uses, over every effect text of a card set)."""
    found: list[n.Name] = []
    stack = [root]
    pop, pushers, add, name = stack.pop, _PUSHERS, found.append, n.Name
    while stack:
        node = pop()
        kind = type(node)
        if kind is name:
            add(node)  # type: ignore[arg-type]
            continue
        push = pushers[kind]
        if push is not None:
            push(stack, node)
    return found
