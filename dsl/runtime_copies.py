"""Copies of a card as choices of actions: when two copies of a definition in a parameter's
domain are one choice (interchangeable: same zone, owner, face, fields and holders), the
action arguments of those that differ, and how each group of them reads ("Guard (rested)")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from dsl.runtime_base import NO_NAMES, Action
from dsl.runtime_fields import CardField, GameField, PlayerField, cards_in, has_cards, holds
from dsl.runtime_state import StateCore


class CardCopies(StateCore):
    """The copies of cards in the actions a generated listing makes (find_cards, same_choice,
    copy_arg, copy_args) and what tells them apart (alike, copy_key)."""

    _COPY_PLAN: ClassVar[_CopyPlan | None] = None

    def find_cards(self, cards: Iterable[int], arg: int) -> list[int]:
        """The cards that a card argument of an action (see copy_args) stands for among
        `cards`, in order: the copies of its definition in its group of interchangeable ones."""
        count = len(self.DEF_NAMES)
        card_def = self.card_def
        if arg < count:  # the first group, as every listed action without named copies is
            # a loop, not a comprehension: every action that names a card comes here, and
            # (before Python 3.12) a comprehension is a function call of its own
            copies = []
            for card in cards:
                if card_def[card] == arg:
                    copies.append(card)
            if len(copies) < 2:
                return copies
            definition, copy = arg, 0
        else:
            definition, copy = arg % count, arg // count
            copies = [card for card in cards if card_def[card] == definition]
            if len(copies) < 2:
                return []
        groups, _ = self._copy_groups_of(copies)
        return [card for card, group in zip(copies, groups, strict=True) if group == copy]

    def same_choice(self, card: int, first: int) -> bool:
        """While actions are listed: whether `card` is alike `first`, an earlier copy in the
        same domain, so that both are one choice. Remembered for the listing, whose actions
        meet the same copies again and again (a hand with two copies of a card)."""
        memo = self._listing_memo()
        if memo is None:
            return self.alike(card, first)
        found = memo.alike.get((card, first))
        if found is None:
            found = memo.alike[card, first] = self.alike(card, first)
        return found

    def copy_arg(
        self, cards: Sequence[int], card: int, out: list[Action], start: int, param: int
    ) -> tuple[int, Mapping[int, str]]:
        """While actions are listed: the argument of `card`, a further copy of a definition
        met in `cards`, the domain of parameter `param`, and how the copies of that domain
        read. When the copies differ, the actions listed since the loop over the domain began
        (out[start:]) are named too: they were listed before anyone knew."""
        args, names = self.copy_args(cards)
        if names:
            for action in out[start:]:
                label = names.get(action.args[param])
                if label is not None:
                    labels = list(action.names or (None,) * len(action.args))
                    labels[param] = label
                    action.names = tuple(labels)
        return args[cards.index(card)], names

    def copy_args(self, cards: Sequence[int]) -> tuple[list[int], Mapping[int, str]]:
        """The action argument of each of `cards` (a parameter's domain, in order), and how the
        arguments of cards with differing copies read.

        Two copies of a definition are one choice only if they are interchangeable: the same
        zone, owner and face, equal 'per card' fields, and held alike by the cards whose fields
        name them (equips). The first group of a definition has argument definition, the next
        definition + len(DEF_NAMES), and so on. Domains without two copies of a definition,
        the common case, cost one pass."""
        if len(cards) < 2:
            return [self.card_def[card] for card in cards], NO_NAMES
        memo = self._listing_memo()
        if memo is None:
            return self._copy_groups(cards)
        domain = tuple(cards)
        found = memo.copies.get(domain)
        if found is None:
            found = memo.copies[domain] = self._copy_groups(cards)
        return found

    def _copy_groups(self, cards: Sequence[int]) -> tuple[list[int], Mapping[int, str]]:
        """copy_args, without the cache of a listing."""
        args = list(map(self.card_def.__getitem__, cards))
        if len(set(args)) == len(args):
            return args, NO_NAMES
        count = len(self.DEF_NAMES)
        names: dict[int, str] = {}
        for definition in {d for d in args if args.count(d) > 1}:
            where = [i for i, d in enumerate(args) if d == definition]
            groups, firsts = self._copy_groups_of([cards[i] for i in where])
            if len(firsts) == 1:
                continue  # all alike: one choice, the definition's
            for i, group in zip(where, groups, strict=True):
                args[i] = definition + group * count
            keys = [self.copy_key(card) for card in firsts]
            for copy, label in enumerate(self._copy_labels(definition, firsts, keys)):
                names[definition + copy * count] = label
        return args, names

    def _copy_groups_of(self, copies: list[int]) -> tuple[list[int], list[int]]:
        """For copies of one definition, in domain order: the group of each (0 for the first
        card's), and the first card of each group."""
        firsts = [copies[0]]
        groups = [0]
        alike = self.alike
        for card in copies[1:]:
            for group, first in enumerate(firsts):
                if alike(card, first):
                    groups.append(group)
                    break
            else:
                groups.append(len(firsts))
                firsts.append(card)
        return groups, firsts

    def alike(self, a: int, b: int) -> bool:
        """Whether two cards have equal copy_keys, found out more quickly; generated games
        with 'per card' fields compare those too."""
        if (self.card_zone[a] != self.card_zone[b] or self.card_owner[a] != self.card_owner[b]
                or self.card_up[a] != self.card_up[b]):
            return False
        shown = self.card_shown
        if shown and shown.get(a, 0) != shown.get(b, 0):
            return False
        if self._copy_plan().holders:
            held = self._held_cards()
            if a in held or b in held:
                return sorted(self._held_by(a)) == sorted(self._held_by(b))
        return True

    def copy_key(self, card: int) -> tuple[Any, ...]:
        """What two copies of a card must share to be the same choice (see copy_args): zone,
        owner, face and the fields that hold it; generated games with 'per card' fields add
        those, in the order of CARD_FIELDS (_copy_labels reads them there). The position in a
        zone is left out: which of two alike cards in a hand is played is no choice."""
        holders: tuple[tuple[str, int, bool], ...] = ()
        if self._copy_plan().holders and card in self._held_cards():
            holders = tuple(sorted(self._held_by(card)))
        return self.card_zone[card], self.card_owner[card], self._face(card), holders

    def _face(self, card: int) -> bool | tuple[int, ...]:
        """Face up (True) or down (False), or, for a card down but shown to some players
        (`reveal X to p`), those players."""
        bits = self.card_shown.get(card, 0) if self.card_shown else 0
        if self.card_up[card] or not bits:
            return self.card_up[card]
        return tuple(p for p in range(self.num_players) if bits >> p & 1)

    def _copy_plan(self) -> _CopyPlan:
        """Which fields copy_key reads, worked out once per game (class)."""
        plan = self._COPY_PLAN
        if plan is None:
            cls = type(self)
            plan = cls._COPY_PLAN = _CopyPlan(cls.CARD_FIELDS, cls.GAME_FIELDS,
                                              cls.PLAYER_FIELDS)
        return plan

    def _held_cards(self) -> set[Any]:
        """Every card that a field holds (see _held_by), worked out once per listing of
        actions: most cards are held by none, and one look settles them."""
        memo = self._listing_memo()
        if memo is not None and memo.held is not None:
            return memo.held
        plan = self._copy_plan()
        held: set[Any] = set()
        for _, attr, codec, _ in plan.card_holders:
            if codec[0] == "list":
                for raw in getattr(self, attr):
                    cards_in(codec, raw, held)
            else:
                held.update(getattr(self, attr))
        for _, attr, codec, _ in plan.game_holders:
            cards_in(codec, getattr(self, attr), held)
        for _, attr, codec, _, per_player in plan.player_holders:
            for value in getattr(self, attr):
                for raw in value if per_player else [value]:
                    cards_in(codec, raw, held)
        if memo is not None:
            memo.held = held
        return held

    def _held_by(self, card: int) -> list[tuple[str, int, bool]]:
        """(field, definition of the card whose field it is, shown) for each 'per card' field
        of another card that holds `card` (an equip's `equipped_to`), and (field, -1, shown)
        for each field of the game or of a player that holds it (an attacker, a chain). Shown:
        every player sees the field, and the card whose field it is."""
        plan = self._copy_plan()
        held: list[tuple[str, int, bool]] = []
        for name, attr, codec, public in plan.card_holders:
            table = getattr(self, attr)
            if codec[0] == "list":
                holders = [other for other, raw in enumerate(table)
                           if raw is not None and holds(codec, raw, card)]
            else:  # a card or an optional card: found at C speed
                holders = _positions(table, card)
            for other in holders:
                if other != card:
                    shown = public and (self.card_up[other] or self.SLOT_VISIBILITY[
                        self.card_zone[other]] == "public")
                    held.append((name, self.card_def[other], shown))
        for name, attr, codec, public in plan.game_holders:
            if holds(codec, getattr(self, attr), card):
                held.append((name, -1, public))
        for name, attr, codec, public, per_player in plan.player_holders:
            for value in getattr(self, attr):
                if any(holds(codec, v, card) for v in (value if per_player else [value])):
                    held.append((name, -1, public))
        return held

    def _copy_labels(
        self, definition: int, cards: list[int], keys: list[tuple[Any, ...]]
    ) -> list[str]:
        """How each group of differing copies of a definition reads (a card of each, and its
        copy_key): its name, with what sets the group apart in brackets ("Guard (rested)",
        "Guard (in B's units)", "Guard (with Iron Mail)", "Guard (attacker)", "Mirror Trap
        (revealed)"). A group without a set value of its own reads as the plain name; groups
        that would still read alike are numbered in domain order ("Guard (2)"). Only what
        every player may see is named: fields that are not public are told apart by number."""
        name = self.DEF_NAMES[definition]
        parts: list[list[str]] = [[] for _ in cards]
        columns = list(zip(*keys, strict=True))
        if len(set(columns[0])) > 1:
            for part, zone in zip(parts, columns[0], strict=True):
                part.append(self._zone_words(zone))
        if len(set(columns[2])) > 1:
            for part, up in zip(parts, columns[2], strict=True):
                if up is True:
                    part.append("revealed")
                elif up:
                    part.append("shown to " + " and ".join(self.player_name(p) for p in up))
        for (field, attr, codec, visibility), column in zip(self.CARD_FIELDS, columns[4:],
                                                            strict=True):
            if visibility != "public" or column.count(column[0]) == len(column):
                continue
            table = getattr(self, attr)
            for part, card, value in zip(parts, cards, column, strict=True):
                if value:
                    part.append(_field_words(field, self.decode(codec, table[card])))
        if columns[3].count(columns[3][0]) != len(cards):
            for part, held in zip(parts, columns[3], strict=True):
                # a game's or player's field by its name ("attacker"), a card by the card
                # whose field holds it ("with Coral Mail"), if every player sees them
                part.extend(field.replace("_", " ") for field, d, shown in held
                            if d < 0 and shown)
                holders = [self.DEF_NAMES[d] for _, d, shown in held if d >= 0 and shown]
                if holders:
                    part.append("with " + ", ".join(holders))
        labels = [f"{name} ({', '.join(part)})" if part else name for part in parts]
        alike = {label for label in labels if labels.count(label) > 1}
        return [f"{name} ({i + 1})" if label in alike else label
                for i, label in enumerate(labels)]

    def _zone_words(self, slot: int) -> str:
        """A zone for a reader: "in B's recovery", "in A's units at mongolia"."""
        zone, *keys = self.slot_name(slot).split(".")
        words = zone.replace("_", " ")
        if keys and keys[0] in self.seats():
            words = f"{keys.pop(0)}'s {words}"
        return "in " + words + "".join(" at " + key.replace("_", " ") for key in keys)


class _CopyPlan:
    """The fields that may hold a card, which GameState.copy_key reads, found once per game."""

    __slots__ = ("card_holders", "game_holders", "player_holders", "holders")

    def __init__(
        self,
        card_fields: Sequence[CardField],
        game_fields: Sequence[GameField],
        player_fields: Sequence[PlayerField],
    ) -> None:
        self.card_holders = [(name, attr, codec, visibility == "public")
                             for name, attr, codec, visibility in card_fields
                             if has_cards(codec)]
        self.game_holders = [(name, attr, codec, visibility == "public")
                             for name, attr, codec, visibility in game_fields
                             if has_cards(codec)]
        self.player_holders = [(name, attr, codec, visibility == "public", per_player)
                               for name, attr, codec, visibility, per_player in player_fields
                               if has_cards(codec)]
        self.holders = bool(self.card_holders or self.game_holders or self.player_holders)


def _positions(table: list[Any], value: Any) -> list[int]:
    """Where `value` stands in `table`."""
    found: list[int] = []
    start = 0
    while True:
        try:
            start = table.index(value, start)
        except ValueError:
            return found
        found.append(start)
        start += 1


def _field_words(field: str, value: Any) -> str:
    """A set 'per card' field for a reader: "rested", "attacks made 1", "extra keywords
    trample"."""
    words = field.replace("_", " ")
    if value is True:
        return words
    if isinstance(value, list):
        value = ", ".join(str(item) for item in value)
    return f"{words} {str(value).replace('_', ' ')}"
