"""What a player sees of a state: the observation, the cards it names, and how an action
reads to a player other than its actor (action_text)."""

from __future__ import annotations

from typing import Any, Self

from dsl.runtime_base import Action, IllegalAction, RuleError
from dsl.runtime_fields import cards_in, has_cards
from dsl.runtime_seats import StateSeats

# How much of a zone a player sees (StateViews._zone_sight).
_SEE_NOTHING, _SEE_COUNT, _SEE_REVEALED, _SEE_ALL = 0, 1, 2, 3
# Card instances; a name of its own because GameState.set hides the builtin in the class.
CardIds = set[int]
# the codec kinds that decode() changes (it returns the others' values as they are)
_DECODED = frozenset({"player", "names", "card", "option", "list"})
# StateViews._glanced: the zones and fields that _glance reads
_Seating = tuple[type, int, tuple[int, ...], int]  # a state class, count, teams and player
_GLANCED: dict[_Seating, tuple[tuple[int, ...], tuple[str, ...]]] = {}
# StateViews._shown_zones, by the same key
_SHOWN: dict[_Seating, tuple[tuple[int, int, str], ...]] = {}


class StateViews(StateSeats):
    """observation, visible_cards and action_text, for players and their agents."""

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may see: hidden zones and other players' secrets show counts only.
        `cards` holds the public 'per card' fields of the cards named in `zones` (a secret
        zone's revealed cards too), keyed like `zones`, in zone order. A number that is no seat
        of this count (5 in a game of two) sees what a spectator sees."""
        if type(player) is not int:
            raise TypeError(f"observation takes a seat's number (0 for "
                            f"{self.player_name(0)}), not {player!r}")
        if not 0 <= player < self.num_players:
            player = -1  # seat F of a game of two was named and shown as a player
        view: dict[str, Any] = {
            "game": self.GAME,
            "player": self.player_name(player),
            "phase": self.PHASES[self.phase] if self.phase >= 0 else None,
            "actor": self.player_name(self.actor) if self.actor >= 0 else None,
            "terminal": self.result is not None,
            "options": {name: self.decode(codec, getattr(self, attr))
                        for name, attr, codec in self.OPTION_FIELDS},
        }
        view["state"] = {
            name: self.decode(codec, getattr(self, attr))
            for name, attr, codec, visibility in self.GAME_FIELDS
            if visibility == "public"
        }
        players: dict[str, Any] = {}
        for p in range(self.num_players):
            fields: dict[str, Any] = {}
            for name, attr, codec, visibility, per_player in self.PLAYER_FIELDS:
                if not self._sees_player_field(visibility, p, player):
                    continue
                value = getattr(self, attr)[p]
                fields[name] = (
                    [self.decode(codec, v) for v in value] if per_player
                    else self.decode(codec, value)
                )
            players[self.seats()[p]] = fields
        view["players"] = players
        if self.HAS_TEAMS:  # who plays with whom is no secret
            view["teams"] = {self.seats()[p]: self.t_team[p] for p in range(self.num_players)}
        boards: dict[str, dict[str, dict[str, Any]]] = {}
        for board, nodes, name, attr, codec, per_player, visibility in self.NODE_FIELDS:
            if visibility != "public":
                continue  # a node belongs to no player: secret node fields are hidden from all
            table = getattr(self, attr)
            for i, node in enumerate(nodes):
                value = table[i]
                boards.setdefault(board, {}).setdefault(node, {})[name] = (
                    [self.decode(codec, v) for v in value] if per_player
                    else self.decode(codec, value)
                )
        view["board"] = boards
        zones: dict[str, Any] = {}
        card_fields: dict[str, list[dict[str, Any]]] = {}
        # an int or bool field reads as it is kept: decode only the others
        public = [(name, getattr(self, attr), codec, codec[0] in _DECODED)
                  for name, attr, codec, vis in self.CARD_FIELDS if vis == "public"]
        decode = self.decode
        for slot, sight, slot_name in self._shown_zones(player):
            cards = self.zones[slot]
            named = self._named_cards(slot, sight, player)
            if sight == _SEE_ALL:
                shown: Any = [self.DEF_NAMES[self.card_def[c]] for c in cards]
            elif sight == _SEE_REVEALED:
                shown = {"count": len(cards),
                         "revealed": [self.DEF_NAMES[self.card_def[c]] for c in named]}
            else:
                shown = {"count": len(cards)}
            zones[slot_name] = shown
            if named and self.CARD_FIELDS:
                # a revealed card's public state is as public as a face-up card's: the target
                # an activated set spell was given
                card_fields[slot_name] = [
                    {name: decode(codec, table[c]) if coded else table[c]
                     for name, table, codec, coded in public}
                    for c in named
                ]
        view["zones"] = zones
        if self.CARD_FIELDS:
            view["cards"] = card_fields  # the public 'per card' state of the cards shown
        return view

    def _shown_zones(self, player: int) -> tuple[tuple[int, int, str], ...]:
        """The zones observation(player) lists, in slot order: (slot, sight, name). Not those
        it sees nothing of (not even the count: it would tell which kind of card was played),
        nor a `per team` zone's slots other than the captain's (the team's cards are shown
        once, under its captain's name), nor those of seats the count played lacks. Worked out
        once for a seating and a player, as _glanced is: it is the same at every ply."""
        key = self._seating(player)
        found = _SHOWN.get(key)
        if found is None:
            found = _SHOWN[key] = tuple(
                (slot, sight, self.slot_name(slot)) for slot in range(len(self.zones))
                if self.SLOT_OWNER[slot] < self.num_players  # not a seat the count lacks
                and (sight := self._zone_sight(slot, player)) != _SEE_NOTHING
                and (not self.TEAM_SLOTS or self.team_holds(slot)))
        return found

    def _seating(self, player: int) -> _Seating:
        """What decides which zones `player` sees, which no rule changes: the game, the count
        and the teams of the seats (the key of the tables worked out once per seating)."""
        return type(self), self.num_players, tuple(self.t_team) if self.HAS_TEAMS else (), player

    def _zone_sight(self, slot: int, player: int) -> int:
        """How much of a zone observation(player) shows: _SEE_ALL, _SEE_REVEALED (a count and
        the revealed cards), _SEE_COUNT or _SEE_NOTHING. A player who is not seated (-1) sees
        what everyone sees."""
        visibility = self.SLOT_VISIBILITY[slot]
        if visibility == "public":
            return _SEE_ALL
        owner = self.SLOT_OWNER[slot]
        if owner >= 0 and owner == player and visibility in ("owner", "secret", "private"):
            return _SEE_ALL
        if (slot in self.TEAM_SLOTS and visibility != "hidden" and player >= 0
                and owner < self.num_players and self.ally(owner, player)):
            return _SEE_ALL  # the owner of a team's zone is its team
        if visibility == "team":  # the owner and its teammates see it, the others its count
            seen = (0 <= owner < self.num_players and player >= 0
                    and self.ally(owner, player))
            return _SEE_ALL if seen else _SEE_COUNT
        if visibility == "private":
            return _SEE_NOTHING
        return _SEE_REVEALED if visibility == "secret" else _SEE_COUNT

    def _sees_player_field(self, visibility: str, owner: int, player: int) -> bool:
        """Whether observation(player) shows a field of player `owner`: a secret one only to
        its owner, a team one to its owner and teammates, a hidden one to nobody."""
        if visibility == "team":
            return player >= 0 and self.ally(owner, player)
        return visibility != "hidden" and (visibility != "secret" or owner == player)

    def _named_cards(self, slot: int, sight: int, player: int) -> list[int]:
        """The cards of a zone that an observation of `player` with this sight of it names:
        in a secret zone, those revealed to all and those shown to `player` alone."""
        if sight == _SEE_ALL:
            return self.zones[slot]
        if sight == _SEE_REVEALED:
            shown = self.card_shown
            if shown and player >= 0:
                return [c for c in self.zones[slot]
                        if self.card_up[c] or shown.get(c, 0) >> player & 1]
            return [c for c in self.zones[slot] if self.card_up[c]]
        return []

    def visible_cards(self, player: int) -> CardIds:
        """The cards (instances) that observation(player) names: those in zones it shows, the
        revealed ones, and those held by the fields it shows (a public `chain: list of Card`
        names its cards wherever they lie)."""
        named: list[int] = []
        for slot in range(len(self.zones)):
            named.extend(self._named_cards(slot, self._zone_sight(slot, player), player))
        seen: CardIds = set(named)
        for _name, attr, codec, visibility in self.GAME_FIELDS:
            if visibility == "public" and has_cards(codec):
                cards_in(codec, getattr(self, attr), seen)
        for _name, attr, codec, visibility, per_player in self.PLAYER_FIELDS:
            if not has_cards(codec):
                continue
            for p, value in enumerate(getattr(self, attr)[: self.num_players]):
                if not self._sees_player_field(visibility, p, player):
                    continue
                for item in value if per_player else (value,):
                    cards_in(codec, item, seen)
        for _board, _nodes, _name, attr, codec, per_player, visibility in self.NODE_FIELDS:
            if visibility == "public" and has_cards(codec):
                for value in getattr(self, attr):
                    for item in value if per_player else (value,):
                        cards_in(codec, item, seen)
        for _name, attr, codec, visibility in self.CARD_FIELDS:
            if visibility == "public" and has_cards(codec):
                table = getattr(self, attr)
                for card in named:
                    cards_in(codec, table[card], seen)
        return seen

    def action_text(self, action: Action, player: int) -> str:
        """How `action`, about to be applied to this state, reads to `player` (OpenSpiel's
        action_to_string, but `player` is the one who reads, not the one who acts).

        The actor reads str(action). Anyone else reads a card parameter by name only when
        observation(player) names that card before or after the action, and otherwise as a
        neutral phrase ("a card", "the card"). Another parameter is written neutrally when
        another legal value of it would leave observation(player) the same, and the whole
        action reads "A makes a secret choice" when a legal action of another kind would:
        then the player cannot tell which choice was made (a Warlord held or committed). An
        action that cannot be applied now is read against this state alone, and names no card
        it could not be taken with. A parameter declared `announced` is always named, and an
        action with one never reads as a secret choice. The state is not changed: the work is
        done on clones, and costs nothing until it is asked for."""
        if not isinstance(action, Action):
            raise TypeError(f"not an action: {action!r}")
        if player == action.actor:
            return str(action)
        announced = self._announced(action)
        shown, after = self._cards_shown(action, player)
        if after is None:
            return action.masked_text(shown | announced)
        cards = self.card_params(action)
        glance = after._glance(player)
        target: tuple[dict[str, Any], list[str] | None] | None = None
        others = [i for i in range(len(action.args))
                  if i not in cards and not announced >> i & 1]
        for other in self.legal_actions():
            if other == action:
                continue
            differs = [i for i in others
                       if other.kind == action.kind and other.args[i] != action.args[i]
                       and shown >> i & 1]
            if other.kind == action.kind and not differs:
                continue  # it could hide nothing more
            alternative = self._after(other)
            if alternative is None or alternative._glance(player) != glance:
                continue
            if target is None:
                target = after._sight(player)
            if alternative._sight(player) != target:
                continue
            if other.kind != action.kind and not announced:
                return f"{self.player_name(action.actor)} makes a secret choice"
            for i in differs:
                shown &= ~(1 << i)
        return action.masked_text(shown | announced)

    def _card_text(self, action: Action, player: int) -> str:
        """action_text without its look at the other legal actions: card parameters are
        masked by the same rule (only a card observation(player) names before or after the
        action is named), every other parameter is named. It names every card action_text
        names, and perhaps more (action_text may hide a parameter, or the whole choice), for
        the cost of one copy of the state instead of one per legal action: a test that no text
        names a card its reader cannot see can afford it at every ply. Private, because it may
        say more than the reader should learn (a secret choice's kind, a masked lane)."""
        if not isinstance(action, Action):
            raise TypeError(f"not an action: {action!r}")
        if player == action.actor:
            return str(action)
        return action.masked_text(self._cards_shown(action, player)[0] | self._announced(action))

    def _announced(self, action: Action) -> int:
        """The parameters of `action` declared `announced` (bits): said aloud (a named guess),
        so every player reads them, and so which kind of action it was."""
        return self.ANNOUNCED[action.kind] if self.ANNOUNCED else 0

    def _cards_shown(self, action: Action, player: int) -> tuple[int, Self | None]:
        """The parameters of `action` that `player` may read, as bits, with only its card
        parameters masked (those naming a card observation(player) names neither before nor
        after the action); and the state after it, None when it cannot be applied."""
        shown = -1
        after = self._after(action)
        cards = self.card_params(action)
        if cards:
            pick = self.PICK[action.kind]
            chosen = pick(self, action) if pick is not None else None
            before = self.visible_cards(player)
            later: CardIds = after.visible_cards(player) if after is not None else set()
            for i in cards:
                if chosen is None or (chosen[i] not in before and chosen[i] not in later):
                    shown &= ~(1 << i)
        return shown, after

    def card_params(self, action: Action) -> tuple[int, ...]:
        """The positions of `action`'s card parameters (the lab reads them too)."""
        return self.CARD_PARAMS[action.kind] if action.kind < len(self.CARD_PARAMS) else ()

    def _after(self, action: Action) -> Self | None:
        """A copy of this state with `action` applied, or None when it cannot be."""
        after = self.clone()
        try:
            after.apply_action(action)
        except (IllegalAction, RuleError):
            return None
        return after

    def _glance(self, player: int) -> tuple[Any, ...]:
        """A little of what observation(player) shows, quick to compare: states that differ
        here differ in the observation too, and most alternatives do. Fields that hold cards
        are left out: two copies of a card are different values that read the same."""
        slots, attrs = self._glanced(player)
        zones = self.zones
        sizes = list(map(len, map(zones.__getitem__, slots)))
        values = [getattr(self, attr) for attr in attrs]
        return self.phase, self.actor, self.result is None, sizes, values

    def _glanced(self, player: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The zones (those the player sees something of) and the fields that _glance reads.
        action_text glances at every legal alternative, so they are worked out once for a
        seating (the count and its teams, which no rule changes) and a player."""
        key = self._seating(player)
        found = _GLANCED.get(key)
        if found is None:
            slots = tuple(slot for slot in range(len(self.zones))
                          if self._zone_sight(slot, player) != _SEE_NOTHING)
            attrs = tuple(attr for _, attr, codec, visibility in self.GAME_FIELDS
                          if visibility == "public" and not has_cards(codec))
            attrs += tuple(attr for _, _, _, attr, codec, _, visibility in self.NODE_FIELDS
                           if visibility == "public" and not has_cards(codec))
            found = _GLANCED[key] = (slots, attrs)
        return found

    def _sight(self, player: int) -> tuple[dict[str, Any], list[str] | None]:
        """Everything `player` knows of this state: the observation, and the player's own
        legal actions when it is their turn (they can depend on others' secrets)."""
        mine = [str(a) for a in self.legal_actions()] if self.current_player() == player else None
        return self.observation(player), mine



