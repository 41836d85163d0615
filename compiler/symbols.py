"""What the rules' names mean: one class per kind of symbol, each with where it is declared.

Typecheck resolves every name, field, index and call of the rules to one of these and records
it in the model's SymbolTable, by id() of the node; the back ends read them there and dispatch
on the class with `match`, ending in `assert_never`, so a kind of symbol one of them forgets is
a type error. A symbol that stands for a declaration carries the declaration's span (its `span`,
where the name is declared); builtins carry none. Symbols are compared by value: two uses of one
declaration have equal symbols, which is what "find references" looks for.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, ClassVar, Literal

from dsl import nodes as n
from dsl.source import Span

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same classes, made faster (see value_dataclass)
    from dataclasses import dataclass as _dataclass

    from dsl.source import value_dataclass

    def dataclass(cls: type | None = None, /, **options: bool) -> object:
        """value_dataclass for the frozen, slotted symbols; dataclasses' own for the rest."""
        if cls is not None or options != {"frozen": True, "slots": True}:
            return _dataclass(cls, **options) if cls is not None else _dataclass(**options)
        return value_dataclass(frozen=True, slots=True)

# ---- names ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Local:
    """A variable: bound by `let`, or by a `for` or an aggregate (`loop`, not assignable)."""

    KIND: ClassVar[str] = "local variable"
    name: str
    binding: Literal["let", "loop"]
    span: Span  # the `let`, `for` or aggregate that binds it


@dataclass(frozen=True, slots=True)
class Parameter:
    """A parameter of a function, procedure, event (in its triggers), action or effect type;
    also `this` in a card's effect and `cards` in the deck rules."""

    KIND: ClassVar[str] = "parameter"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class OwnField:
    """A field of a card type named bare in the type's own `require` lines (`cost <= 12`)."""

    KIND: ClassVar[str] = "field of the card being checked"
    card_type: str
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Option:
    KIND: ClassVar[str] = "option"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class GameField:
    KIND: ClassVar[str] = "game field"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Player:
    KIND: ClassVar[str] = "player"
    name: str
    index: int
    span: Span  # its name in the game header (the header, when it only counts the players)


@dataclass(frozen=True, slots=True)
class Zone:
    KIND: ClassVar[str] = "zone"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class BoardNode:
    KIND: ClassVar[str] = "board node"
    board: str
    name: str
    index: int
    span: Span  # the board's shape: its edges, grid or map file


@dataclass(frozen=True, slots=True)
class EnumMember:
    KIND: ClassVar[str] = "enum member"
    enum: str
    name: str
    index: int
    span: Span


@dataclass(frozen=True, slots=True)
class Domain:
    """A type named as the list of all its values: an enum's members, a board's nodes, a card
    type's definitions or a record type's entries (`for d in Tile`)."""

    KIND: ClassVar[str] = "type"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Card:
    """A card definition: an entry of a card type, in the rules or a card set."""

    KIND: ClassVar[str] = "card"
    card_type: str
    name: str
    index: int
    span: Span


@dataclass(frozen=True, slots=True)
class RecordEntry:
    KIND: ClassVar[str] = "record entry"
    record: str
    name: str
    index: int
    span: Span


# ---- fields (attributes) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerField:
    KIND: ClassVar[str] = "player field"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class NodeField:
    KIND: ClassVar[str] = "node field"
    board: str
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class RecordField:
    KIND: ClassVar[str] = "record field"
    record: str
    name: str
    span: Span
    per_card: bool  # wrongly 'per card' (reported): a record has no physical cards


@dataclass(frozen=True, slots=True)
class CardField:
    """A field of a card type read on a card: its definition's data, or, `per_card`, the
    state of that physical card."""

    KIND: ClassVar[str] = "card field"
    card_type: str
    name: str
    span: Span
    per_card: bool


@dataclass(frozen=True, slots=True)
class DefField:
    """A field of a card type read on a card definition (not on a physical card)."""

    KIND: ClassVar[str] = "card field"
    card_type: str
    name: str
    span: Span
    per_card: bool  # state of each physical card, which a definition does not have (reported)


@dataclass(frozen=True, slots=True)
class NameOf:
    """`x.name`: the name of a player, node, enum member, card or entry, as text."""

    KIND: ClassVar[str] = "built-in field"
    name: ClassVar[str] = "name"


@dataclass(frozen=True, slots=True)
class CardOwner:
    """`c.owner`: the player a card belongs to."""

    KIND: ClassVar[str] = "built-in field"
    name: ClassVar[str] = "owner"


# ---- indexes ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZoneSlot:
    """`hand[p]`: one zone of a zone declared per player, board or enum."""

    KIND: ClassVar[str] = "zone"
    zone: str
    span: Span


@dataclass(frozen=True, slots=True)
class PerPlayerIndex:
    """`f[p]`: a 'per player' field's value for one player."""

    KIND: ClassVar[str] = "per player index"


@dataclass(frozen=True, slots=True)
class ListIndex:
    KIND: ClassVar[str] = "list index"


# ---- calls ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Function:
    KIND: ClassVar[str] = "function"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Procedure:
    KIND: ClassVar[str] = "procedure"
    name: str
    span: Span


# The builtins of teams and of the players still in: calls of the state's own methods
# (dsl.runtime_seats), typed by compiler.check_builtins.
SEAT_BUILTINS = frozenset({"ally", "allies", "opponents", "after", "standing",
                           "last_standing", "next_in", "previous_in", "captain"})


@dataclass(frozen=True, slots=True)
class Builtin:
    """A built-in function (`size`, `opponent`, `roll`, ...): declared by the language."""

    KIND: ClassVar[str] = "built-in function"
    name: str


@dataclass(frozen=True, slots=True)
class Effect:
    """`c.on_play(...)`: the effect field of a card type, run on a card."""

    KIND: ClassVar[str] = "effect"
    card_type: str
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Aggregator:
    """`sum(... for x in ...)` and the other aggregates: declared by the language."""

    KIND: ClassVar[str] = "built-in aggregate"
    name: str


# What a scope binds: the names the rules declare inside a body.
Bound = Local | Parameter | OwnField
# What each kind of node can refer to.
NameSymbol = (Local | Parameter | OwnField | Option | GameField | Player | Zone | BoardNode
              | EnumMember | Domain | Card | RecordEntry)
AttributeSymbol = PlayerField | NodeField | RecordField | CardField | DefField | NameOf | CardOwner
IndexSymbol = ZoneSlot | PerPlayerIndex | ListIndex
CallSymbol = Function | Procedure | Builtin
Symbol = NameSymbol | AttributeSymbol | IndexSymbol | CallSymbol | Effect | Aggregator

# The ones whose uses are all alike share one instance.
NAME_OF = NameOf()
CARD_OWNER = CardOwner()
PER_PLAYER_INDEX = PerPlayerIndex()
LIST_INDEX = ListIndex()


@dataclass
class SymbolTable:
    """What each name, attribute, index and call of the rules refers to, by id() of the node
    (nodes compare by value, so equal nodes must not collide); one table per kind of node, so
    each is typed by what that kind can refer to."""

    names: dict[int, NameSymbol] = field(default_factory=dict)
    attributes: dict[int, AttributeSymbol] = field(default_factory=dict)
    indexes: dict[int, IndexSymbol] = field(default_factory=dict)
    calls: dict[int, CallSymbol] = field(default_factory=dict)
    effects: dict[int, Effect] = field(default_factory=dict)  # EffectCall nodes
    aggregates: dict[int, Aggregator] = field(default_factory=dict)
    deck_cards: dict[int, Card] = field(default_factory=dict)  # DeckEntry nodes (deck files)

    def of(self, node: n.Node) -> Symbol | None:
        """What node refers to, if it is a name, attribute, index, call or deck entry that was
        resolved."""
        key = id(node)
        kind = type(node)
        if kind is n.Name:
            return self.names.get(key)
        if kind is n.Attribute:
            return self.attributes.get(key)
        if kind is n.Index:
            return self.indexes.get(key)
        if kind is n.Call:
            return self.calls.get(key)
        if kind is n.EffectCall:
            return self.effects.get(key)
        if kind is n.Aggregate:
            return self.aggregates.get(key)
        if kind is n.DeckEntry:
            return self.deck_cards.get(key)
        return None

    def __len__(self) -> int:
        return (len(self.names) + len(self.attributes) + len(self.indexes) + len(self.calls)
                + len(self.effects) + len(self.aggregates) + len(self.deck_cards))
