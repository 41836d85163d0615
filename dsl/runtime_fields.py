"""How a generated state describes itself to the runtime: its fields (game, player, node
and 'per card' fields, each with its codec and visibility) and the rules of its phases; and
what the runtime reads in a stored value by its codec (the cards it holds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from dsl.runtime_base import Action, Codec


class GameField(NamedTuple):
    """A game field as the state keeps it: its name in the rules, the State attribute that
    holds it, how its values are written to JSON, and who may see it."""

    name: str
    attr: str
    codec: Codec
    visibility: str


class PlayerField(NamedTuple):
    """A player field: as a game field, and whether it holds one value per player (a field
    declared `per player`) for each player."""

    name: str
    attr: str
    codec: Codec
    visibility: str
    per_player: bool


class NodeField(NamedTuple):
    """A field of a board's nodes: the board, its nodes' names, then as a player field."""

    board: str
    nodes: tuple[str, ...]
    name: str
    attr: str
    codec: Codec
    per_player: bool
    visibility: str


class CardField(NamedTuple):
    """A `per card` field: one list entry per physical card."""

    name: str
    attr: str
    codec: Codec
    visibility: str


class PhaseRules(NamedTuple):
    """What the phase loop runs in one phase; None where the rulebook gives nothing."""

    name: str
    enter: Callable[[Any], None] | None
    actor: Callable[[Any], int | None] | None
    done: Callable[[Any], None] | None
    checkpoints: Callable[[Any, int], None] | None
    legal: Callable[[Any, int, list[Action], bool], None] | None
    # a listed action applied and the next actor asked in one function (StateCore.PLY)
    ply: Callable[[Any, Action], bool] | None = None


def has_cards(codec: Codec) -> bool:
    kind = codec[0]
    if kind in ("option", "list"):
        return has_cards(codec[1])
    return bool(kind == "card")


def cards_in(codec: Codec, raw: Any, out: set[int]) -> None:
    """Add the card instances a stored value holds (codec as in GameState.decode)."""
    if raw is None:
        return
    kind = codec[0]
    if kind == "card":
        out.add(raw)
    elif kind == "option":
        cards_in(codec[1], raw, out)
    elif kind == "list":
        for item in raw:
            cards_in(codec[1], item, out)



def holds(codec: Codec, raw: Any, card: int) -> bool:
    """Whether a stored value (codec as in GameState.decode) holds the card instance."""
    if raw is None:
        return False
    kind = codec[0]
    if kind == "card":
        return bool(raw == card)
    if kind == "option":
        return holds(codec[1], raw, card)
    if kind == "list":
        if codec[1][0] == "card":
            return card in raw
        return any(holds(codec[1], item, card) for item in raw)
    return False
