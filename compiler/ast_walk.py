"""Walking the rules: the nodes the back ends look at (pygen, docgen), below both of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dsl import nodes as n

# Nodes that hold no other node: a card set is mostly made of them.
_LITERALS = frozenset({n.IntLit, n.StrLit, n.BoolLit, n.NoneLit, n.Name, n.DataWord})


def walk_rules(roots: Iterable[n.Node]) -> Iterator[n.Node]:
    """Every node under the roots, in no particular order, but the literals and the fields of
    card sets' cards (whose values are walked), and each effect text that cards share (its
    EffectLits differ, its tree is one) once: what rules say, without the card set's data."""
    shared: set[int] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if type(node) is n.Entry:  # a card: its children are its fields, each with a value
            yield node
            stack.extend([field.value for field in node.values
                          if type(field.value) not in _LITERALS])
            continue
        if type(node) is n.FieldValue:
            node = node.value
        if type(node) in _LITERALS:
            continue
        if isinstance(node, n.EffectLit):
            if id(node.body) in shared:
                continue
            shared.add(id(node.body))
        yield node
        stack.extend(n.children(node))
