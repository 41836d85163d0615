"""Determinization for information-set search: `state.resample(player, rng)`, a state that
`player` cannot tell from this one. Every game gets it from the tables the compiler writes (each
zone's owner and visibility, each field's visibility), so no rulebook writes it."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, Self

from dsl.runtime_rng import Rng
from dsl.runtime_views import _SEE_ALL, StateViews


class Resampling(StateViews):
    """resample: unseen cards redistributed, secret choices of others re-drawn."""

    def resample(self, player: int, rng: random.Random) -> Self:
        """A copy of this state that observation(player) cannot tell from it: the cards that
        player cannot see change places (each keeps the zone, owner, face and 'per card'
        fields of the place it takes, so every zone keeps its count), the other players'
        secret choices among named values are re-drawn, and the random generator is reseeded
        so that future shuffles are not known either.

        Unseen cards are exchanged only among cards of the same owner that were made in the
        same zone (a deck's cards stay that deck's, basic tiles stay basic tiles): the rules
        may rely on it, and a designer's deck list is what a player knows of an opponent."""
        return self.resampler(player)(rng)

    def resampler(self, player: int) -> Callable[[random.Random], Self]:
        """`resample(player, rng)` of this state as a function of rng alone: what the player
        sees is worked out once, so a search drawing many determinizations of one state pays
        for it once. Each call draws from rng exactly as resample does (same rng, same copy)."""
        seen = self.visible_cards(player)
        groups: dict[tuple[int, int], list[int]] = {}
        for slot, cards in enumerate(self.zones):
            if self._zone_sight(slot, player) == _SEE_ALL:
                continue
            for card in cards:
                if card not in seen:
                    groups.setdefault((self.card_owner[card], self.card_home[card]),
                                      []).append(card)
        exchanged = [(cards, [self.card_def[c] for c in cards])
                     for _key, cards in sorted(groups.items())]
        secrets = [(attr, codec) for _name, attr, codec, visibility, per_player
                   in self.PLAYER_FIELDS if visibility == "secret" and not per_player]
        others = [p for p in range(self.num_players) if p != player]

        return partial(self._draw, exchanged, secrets, others)

    def _draw(self, exchanged: list[tuple[list[int], list[int]]],
              secrets: list[tuple[str, Any]], others: list[int], rng: random.Random) -> Self:
        copy = self.clone()
        card_def = copy.card_def
        for cards, kept in exchanged:
            definitions = list(kept)
            rng.shuffle(definitions)
            for card, definition in zip(cards, definitions, strict=True):
                card_def[card] = definition
        for attr, codec in secrets:
            values: list[Any] = getattr(copy, attr)
            for p in others:
                values[p] = _redraw(codec, values[p], rng)
        copy.rng = Rng(rng.getrandbits(64))
        return copy


def _redraw(codec: Any, value: Any, rng: random.Random) -> Any:
    """Another value a secret field of this codec could hold: one of its names, drawn at
    random (a choice not made yet stays not made). A secret number or truth value is often
    tied to other state (a tile already played), so it is kept."""
    if value is None:
        return None
    kind = codec[0]
    if kind == "option":
        return _redraw(codec[1], value, rng)
    if kind == "names":
        return rng.randrange(len(codec[1]))
    return value
