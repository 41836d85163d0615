"""The language's types. Values at run time: ints for players, nodes, enum members, record
entries, card instances and card definitions; bools; strs; lists; None for `none`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    def __str__(self) -> str:
        return type(self).__name__


@dataclass(frozen=True)
class IntT(Type):
    def __str__(self) -> str:
        return "int"


@dataclass(frozen=True)
class BoolT(Type):
    def __str__(self) -> str:
        return "bool"


@dataclass(frozen=True)
class TextT(Type):
    def __str__(self) -> str:
        return "text"


@dataclass(frozen=True)
class PlayerT(Type):
    def __str__(self) -> str:
        return "player"


@dataclass(frozen=True)
class NoneT(Type):
    def __str__(self) -> str:
        return "none"


@dataclass(frozen=True)
class AnyT(Type):
    """The type of an expression that already has an error; it fits everywhere."""

    def __str__(self) -> str:
        return "?"


@dataclass(frozen=True)
class EnumT(Type):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class RecordT(Type):
    """An entry of a `record` type's data."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class CardT(Type):
    """A card instance: a physical card in some zone."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DefT(Type):
    """A card definition: an entry of a card type's data, from which instances are created."""

    name: str

    def __str__(self) -> str:
        return f"definition of {self.name}"


@dataclass(frozen=True)
class NodeT(Type):
    board: str

    def __str__(self) -> str:
        return self.board


@dataclass(frozen=True)
class ZoneT(Type):
    """One concrete zone (already indexed): holds cards of card_type."""

    zone: str
    card_type: str

    def __str__(self) -> str:
        return f"zone of {self.card_type}"


@dataclass(frozen=True)
class ZoneFamilyT(Type):
    """A zone declared `per ...` before it is indexed."""

    zone: str

    def __str__(self) -> str:
        return f"zone family {self.zone}"


@dataclass(frozen=True)
class PerPlayerT(Type):
    """A field declared `per player` before it is indexed with a player."""

    element: Type

    def __str__(self) -> str:
        return f"{self.element} per player"


@dataclass(frozen=True)
class ListT(Type):
    element: Type

    def __str__(self) -> str:
        return f"list of {self.element}"


@dataclass(frozen=True)
class OptionT(Type):
    inner: Type

    def __str__(self) -> str:
        return f"{self.inner}?"


@dataclass(frozen=True)
class EffectT(Type):
    """A card field holding rule statements: run as `card.field(args)` with `this` bound."""

    params: tuple[tuple[str, Type], ...]
    reaches: tuple[str, ...] | None  # the only zones the body may name; None: any

    def __str__(self) -> str:
        return "effect(" + ", ".join(f"{name}: {t}" for name, t in self.params) + ")"


INT = IntT()
BOOL = BoolT()
TEXT = TextT()
PLAYER = PlayerT()
NONE = NoneT()
ANY = AnyT()


def optional(t: Type) -> Type:
    return t if isinstance(t, (OptionT, AnyT, NoneT)) else OptionT(t)


def strip_optional(t: Type) -> Type:
    return t.inner if isinstance(t, OptionT) else t


def assignable(value: Type, target: Type) -> bool:
    """Can a value of type `value` be stored where `target` is expected?"""
    if value is target:  # the commonest case (INT, PLAYER, ...), without dataclass equality
        return True
    if isinstance(value, AnyT) or isinstance(target, AnyT) or value == target:
        return True
    if isinstance(target, OptionT):
        return isinstance(value, NoneT) or assignable(value, target.inner)
    if isinstance(target, ListT) and isinstance(value, ListT):
        return assignable(value.element, target.element)
    return False


def comparable(a: Type, b: Type) -> bool:
    return assignable(a, b) or assignable(b, a) or (
        strip_optional(a) == strip_optional(b)
    )


def element_type(t: Type) -> Type | None:
    """What iterating over a value of this type yields, or None if it is not iterable."""
    if isinstance(t, AnyT):
        return ANY
    if isinstance(t, ListT):
        return t.element
    if isinstance(t, ZoneT):
        return CardT(t.card_type)
    return None
