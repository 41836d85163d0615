"""dsl.source.faster_init: spans and AST nodes built by a faster __init__, the same otherwise."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from compiler import symbols as sym
from dsl import nodes as n
from dsl.source import Span, faster_init

NODE_CLASSES = [c for c in vars(n).values() if isinstance(c, type) and issubclass(c, n.Node)]
SPAN = Span("f.rules", 1, 2, 3, 4)


def reference_init_signature(cls: type) -> inspect.Signature:
    """The signature dataclasses gives cls's __init__: that of a fresh copy of the class."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default, kw_only=f.kw_only))
              for f in dataclasses.fields(cls)]
    copy = dataclasses.make_dataclass(cls.__name__, fields, frozen=True)
    return inspect.signature(vars(copy)["__init__"])


def test_every_node_and_span_has_the_faster_init() -> None:
    for cls in [Span, *NODE_CLASSES]:
        assert "_set_" in " ".join(vars(cls)["__init__"].__code__.co_names), cls


@pytest.mark.parametrize("cls", [Span, *NODE_CLASSES], ids=lambda c: c.__name__)
def test_signature_is_the_dataclass_one(cls: type) -> None:
    got = inspect.signature(vars(cls)["__init__"])
    want = reference_init_signature(cls)
    assert [(p.name, p.kind, p.default) for p in got.parameters.values()] == [
        (p.name, p.kind, p.default) for p in want.parameters.values()]


def test_built_objects_are_the_same() -> None:
    span = Span(file="f.rules", line=1, column=2, end_line=3, end_column=4)
    assert span == SPAN and hash(span) == hash(SPAN) and repr(span) == (
        "Span(file='f.rules', line=1, column=2, end_line=3, end_column=4)")
    assert str(span) == "f.rules:1:2" and dataclasses.replace(span, line=7).line == 7
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.line = 2  # type: ignore[misc]
    field = n.FieldDecl("cost", n.NamedType("int", span=SPAN), False, None, "public", span=SPAN)
    assert field.per_card is False and field.span is SPAN
    assert n.FieldDecl(name="cost", type=field.type, per_player=False, default=None,
                       visibility="public", span=SPAN, per_card=True).per_card is True
    assert pickle.loads(pickle.dumps(field)) == field
    assert dataclasses.replace(field, name="x").name == "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        field.name = "y"  # type: ignore[misc]


def test_argument_errors_are_the_same() -> None:
    with pytest.raises(TypeError, match=r"Span.__init__\(\) missing 1 required"):
        Span("f", 1, 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="span"):
        n.IntLit(3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        n.IntLit(3, SPAN)  # type: ignore[call-arg]  # span is keyword-only
    with pytest.raises(TypeError):
        n.IntLit(3, span=SPAN, extra=1)  # type: ignore[call-arg]


def test_classes_it_does_not_cover_keep_their_init() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        items: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        value: int

    for cls in (Checked, Factory, NoSlots):
        before = vars(cls)["__init__"]
        faster_init(cls)
        assert vars(cls)["__init__"] is before
    with pytest.raises(ValueError, match="negative"):
        Checked(-1)
    assert Factory().items == []


SYMBOL_CLASSES = [c for c in vars(sym).values() if isinstance(c, type)
                  and c.__module__ == sym.__name__ and dataclasses.is_dataclass(c)
                  and c.__dataclass_params__.frozen]  # type: ignore[attr-defined]


def test_the_symbol_classes_are_found() -> None:
    assert len(SYMBOL_CLASSES) > 20 and sym.Card in SYMBOL_CLASSES


@pytest.mark.parametrize("cls", [*NODE_CLASSES, *SYMBOL_CLASSES], ids=lambda c: c.__name__)
def test_equality_hash_and_repr_are_the_dataclass_ones(cls: type) -> None:
    """Node and symbol classes get value_eq, value_hash and value_repr (dsl.source.
    value_dataclass): what dataclasses writes for a frozen copy of the class gives the same for
    the same values."""
    fields = dataclasses.fields(cls)
    reference = dataclasses.make_dataclass(
        cls.__name__, [(f.name, f.type, dataclasses.field(
            default=f.default, kw_only=f.kw_only, compare=f.compare, hash=f.hash, repr=f.repr))
            for f in fields], frozen=True)
    other_span = Span("g.rules", 5, 6, 7, 8)

    def both(values: dict[str, Any]) -> tuple[object, object]:
        return cls(**values), reference(**values)

    values: dict[str, Any] = {f.name: (f"{f.name}-1", 1) for f in fields}
    if issubclass(cls, n.Node):
        values["span"] = SPAN
    first, first_ref = both(values)
    assert repr(first) == repr(first_ref) and hash(first) == hash(first_ref)
    if issubclass(cls, n.Node):
        assert first == cls(**{**values, "span": other_span})  # spans are not compared
    for f in fields:
        if f.name == "span":
            continue
        changed, changed_ref = both({**values, f.name: (f"{f.name}-2", 2)})
        assert (changed == first) == (changed_ref == first_ref), f.name
        assert repr(changed) == repr(changed_ref) and hash(changed) == hash(changed_ref)
    assert first != first_ref and first.__eq__(first_ref) is NotImplemented
    for f in fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(first, f.name, other_span)
    assert pickle.loads(pickle.dumps(first)) == first
