"""A state read and written by rulebook names: paths for get and set (`player.A.reserve`,
`zone.rack.A`, `card.units.A.0.rested`), the values they set stored as the state keeps them
(encode; the core decodes), and the whole state as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from dsl.runtime_base import TERMINAL, Codec
from dsl.runtime_rng import Rng
from dsl.runtime_seats import StateSeats

# The runtime's parts of a saved state that load_json takes as to_json wrote them.
_SAVED_AS_IS = ("num_players", "phase", "pending", "actor", "result", "zones", "card_def",
                "card_owner", "card_zone", "card_up", "card_home")


class StatePaths(StateSeats):
    """get, set, to_json and load_json, for scenarios and tools."""

    def encode(self, codec: Codec, value: Any) -> Any:
        kind = codec[0]
        if value is None:
            if kind == "option":
                return None
            raise ValueError("none is not allowed here")
        if kind == "option":
            return self.encode(codec[1], value)
        if kind == "list":
            if not isinstance(value, list):
                raise ValueError(f"a list is needed, not {value!r}")
            return [self.encode(codec[1], item) for item in value]
        if kind == "player":
            return _index_of(self.seats()[: self.num_players], value, "player")
        if kind == "names":
            return _index_of(codec[1], value, "name")
        if kind == "card":
            definition = _index_of(self.DEF_NAMES, value, "card")
            for card, card_definition in enumerate(self.card_def):
                if card_definition == definition:
                    return card
            raise ValueError(f"no card {value!r} exists in this game")
        if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"an int is needed, not {value!r}")
        if kind == "bool" and not isinstance(value, bool):
            raise ValueError(f"true or false is needed, not {value!r}")
        if kind == "text" and not isinstance(value, str):
            raise ValueError(f"a text is needed, not {value!r}")
        return value

    def _resolve(self, path: str) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        parts = path.split(".")
        head = parts[0]
        if path == "phase":
            return (
                lambda: self.PHASES[self.phase] if self.phase >= 0 else None,
                lambda v: setattr(self, "phase", _index_of(self.PHASES, v, "phase")),
            )
        # `current` is another word for the actor, unless the game has a field of that name:
        # then it is that field, as the rulebook reads it (Dynasty Builder's `current`).
        if path == "actor" or (path == "current"
                               and all(name != path for name, *_ in self.GAME_FIELDS)):
            return (lambda: self.player_name(self.actor) if self.actor >= 0 else None,
                    _read_only(path))
        if head == "options" and len(parts) == 2:
            for name, attr, codec in self.OPTION_FIELDS:
                if name == parts[1]:
                    return self._attribute(attr, codec)[0], _read_only(path)
        for name, attr, codec, _vis in self.GAME_FIELDS:
            if path == name:
                return self._attribute(attr, codec)
        if head == "player" and len(parts) > 1:
            parts = parts[1:]
            head = parts[0]
        if head in self.seats() and len(parts) >= 2:
            player = self.seats().index(head)
            if player >= self.num_players:
                raise KeyError(f"{head} is not a seat of {self.num_players} players")
            for name, attr, codec, _vis, per_player in self.PLAYER_FIELDS:
                if name == parts[1]:
                    read, write = self._cell(getattr(self, attr), player, codec, per_player,
                                             parts[2:])
                    if attr in self.TEAM_FIELDS or attr == self.OUT_FIELD:
                        return read, self._shared(write, attr, player)
                    return read, write
        for board, nodes, name, attr, codec, per_player, _vis in self.NODE_FIELDS:
            if head in (board, board.lower()) and len(parts) >= 3 and parts[2] == name:
                node = _index_of(nodes, parts[1], board)
                return self._cell(getattr(self, attr), node, codec, per_player, parts[3:])
        if head == "card" and len(parts) >= 4:
            return self._card_field(parts[1:])
        if head == "zone":
            parts = parts[1:]
        for name, base, dims in self.seated_zones():
            if parts and parts[0] == name:
                keys = parts[1:]
                if len(keys) == len(dims) + 1 and keys[-1] == "size":
                    # a scenario can expect how many cards a shuffled zone holds, which it
                    # cannot expect card by card
                    return self._zone_size(
                        self.team_slot(base + self._zone_index(name, keys[:-1], dims)), path)
                if len(keys) != len(dims):
                    raise KeyError(f"zone {name} takes {len(dims)} keys in a path")
                return self._zone(self.team_slot(base + self._zone_index(name, keys, dims)))
        raise KeyError(f"no path {path!r} in {self.GAME}")

    def seated_zones(self) -> tuple[tuple[str, int, tuple[tuple[str, ...], ...]], ...]:
        """ZONES with each player key read by the seat names of the count played."""
        if not self.SEAT_NAMES:
            return self.ZONES
        seats = self.seats()
        return tuple((name, base, tuple(seats if keys is self.PLAYER_NAMES else keys
                                        for keys in dims)) for name, base, dims in self.ZONES)

    def _zone_index(self, name: str, keys: list[str],
                    dims: tuple[tuple[str, ...], ...]) -> int:
        """The slot offset of zone `name`'s keys: a seat the count played lacks is no key
        (its zones exist, unused, as the largest count's tables keep their shape)."""
        index = _flat_index(keys, dims)
        plain = next(d for zone, _, d in self.ZONES if zone == name)
        for key, names, original in zip(keys, dims, plain, strict=True):
            if original is self.PLAYER_NAMES and names.index(key) >= self.num_players:
                raise KeyError(f"{key} is not a seat of {self.num_players} players")
        return index

    def _card_field(self, parts: list[str]) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        """`card.ZONE[.KEY...].INDEX.FIELD`: a 'per card' field of the card at a zone position
        (0 is the first card), e.g. `card.units.A.0.rested`."""
        *where, position, field_name = parts
        for name, base, dims in self.seated_zones():
            if where and where[0] == name:
                if len(where) - 1 != len(dims):
                    raise KeyError(f"zone {name} takes {len(dims)} keys in a path")
                zone = self.zones[self.team_slot(base + self._zone_index(name, where[1:], dims))]
                if not position.isdigit() or int(position) >= len(zone):
                    raise KeyError(f"zone {'.'.join(where)} has no card at position {position}")
                card = zone[int(position)]
                for field_name_, attr, codec, _vis in self.CARD_FIELDS:
                    if field_name_ == field_name:
                        return self._cell(getattr(self, attr), card, codec, False, [])
                names = ", ".join(f for f, _, _, _ in self.CARD_FIELDS) or "none"
                raise KeyError(f"no 'per card' field {field_name!r}; fields: {names}")
        raise KeyError(f"no zone {'.'.join(where)!r} in {self.GAME}")

    def _attribute(
        self, attr: str, codec: Codec
    ) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        return (lambda: self.decode(codec, getattr(self, attr)),
                lambda v: setattr(self, attr, self.encode(codec, v)))

    def _zone_size(
        self, slot: int, path: str
    ) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        return (lambda: len(self.zones[slot])), _read_only(path)

    def _zone(self, slot: int) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        return (lambda: [self.DEF_NAMES[self.card_def[c]] for c in self.zones[slot]],
                lambda v: self._set_zone(slot, v))

    def _shared(self, write: Callable[[Any], None], attr: str, player: int
                ) -> Callable[[Any], None]:
        """A write of a 'per team' field that the player's teammates see too, or of `out`,
        whose order ranks() keeps."""
        def both(value: Any) -> None:
            write(value)
            if attr in self.TEAM_FIELDS:
                self.share(getattr(self, attr), player)
            if attr == self.OUT_FIELD:
                self.mark_out(player)

        return both

    def _cell(
        self, table: list[Any], index: int, codec: Codec, per_player: bool, rest: list[str]
    ) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        if per_player:
            if len(rest) != 1:
                raise KeyError("a 'per player' field needs a player name at the end of the path")
            row: list[Any] = table[index]
            player = _index_of(self.seats()[: self.num_players], rest[0], "player")
            return (lambda: self.decode(codec, row[player]),
                    lambda v: row.__setitem__(player, self.encode(codec, v)))
        if rest:
            raise KeyError(f"unexpected {'.'.join(rest)!r} at the end of the path")
        return (lambda: self.decode(codec, table[index]),
                lambda v: table.__setitem__(index, self.encode(codec, v)))

    def _set_zone(self, slot: int, value: Any) -> None:
        """Fill a zone with the named cards (a list, or `{cards: [...], from: [zones]}`).

        Cards already in the zone are kept first. A card the zone lacks is a spare one: by
        default only a card still in the zone it was created in (a deck, a supply: cards not
        dealt yet), the zone's owner's own first, then those of shared zones; with `from:`,
        only a card in the zones named there. A card in a hand, on a board or in any other zone
        is never taken silently, so setting one zone cannot undo another (DESIGN.md §5).

        Cards leaving the zone go back to the zone they were created in; when that is the zone
        being set, the call is refused rather than guessing. In games whose rules create cards
        only in setup (decks), no card is created or destroyed, so card counts stay conserved;
        in games that create cards during play (SET_CREATES: recruited units), the cards a
        player's zone lacks are created there instead."""
        names, sources = self._zone_request(value)
        owner = self.SLOT_OWNER[slot]
        wanted = [_index_of(self.DEF_NAMES, name, "card") for name in names]
        current = list(self.zones[slot])
        keep: list[int] = []
        for definition in wanted:
            card = next((c for c in current if self.card_def[c] == definition and c not in keep),
                        -1)
            if card < 0 and self.SET_CREATES and owner >= 0:
                # cards come and go in play (recruited units): a zone set by a scenario gets
                # new cards rather than cards taken from wherever else they stand
                card = self.create(definition, slot)
                current.append(card)
            if card < 0:
                card = self._spare(definition, slot, keep, sources)
            keep.append(card)
        leaving = [c for c in current if c not in keep]
        homeless = [self.DEF_NAMES[self.card_def[c]] for c in leaving
                    if self.card_home[c] == slot]
        if homeless:
            raise ValueError(
                f"setting {self.slot_name(slot)} would leave {', '.join(homeless)} with no "
                "zone to go to; put them in another zone first (set that zone to include them)"
            )
        for card in leaving:
            self.move(card, self.card_home[card])
        for card in keep:
            if self.card_zone[card] != slot:
                self.zones[self.card_zone[card]].remove(card)
                self.card_zone[card] = slot
                self.card_shown.pop(card, None)
        self.zones[slot][:] = keep
        # a zone once set is not raided by later settings: they would undo it silently
        self.__dict__.setdefault("_set_slots", set()).add(slot)

    def will_set(self, paths: Sequence[str]) -> None:
        """Say which paths a scenario's setup is about to set: a zone among them may give its
        cards to the zones set before it, since its own setting replaces them anyway."""
        slots = self.__dict__.setdefault("_set_later", set())
        for path in paths:
            try:
                slots.add(self._slot_of(path))
            except ValueError:
                continue  # not a zone: a field, set as it is

    def _zone_request(self, value: Any) -> tuple[list[str], set[int] | None]:
        """The card names of a zone's setting and the slots its spare cards may come from
        (None: the zones the cards were created in)."""
        sources: set[int] | None = None
        names = value
        if isinstance(value, dict):
            unknown = sorted(str(key) for key in value if key not in ("cards", "from"))
            if unknown or "cards" not in value:
                raise ValueError("a zone is set with a list of card names, or a mapping with "
                                 "'cards' (the list) and 'from' (the zones spare cards come "
                                 f"from){'; unknown key ' + unknown[0] if unknown else ''}")
            names = value["cards"]
            origin = value.get("from", [])
            origin = [origin] if isinstance(origin, str) else origin
            if not isinstance(origin, list) or not all(isinstance(x, str) for x in origin):
                raise ValueError("'from' names a zone (`deck`, `hand.A`) or a list of zones")
            sources = {self._slot_of(name) for name in origin}
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise ValueError("a zone is set with a list of card names")
        return names, sources

    def _slot_of(self, path: str) -> int:
        parts = path.split(".")
        if parts and parts[0] == "zone":
            parts = parts[1:]
        for name, base, dims in self.seated_zones():
            if parts and parts[0] == name:
                if len(parts) - 1 != len(dims):
                    raise ValueError(f"zone {name} takes {len(dims)} keys in a path")
                try:
                    return self.team_slot(base + self._zone_index(name, parts[1:], dims))
                except (KeyError, ValueError) as error:
                    raise ValueError(f"'from: {path}': {error}") from None
        zones = ", ".join(name for name, _, _ in self.ZONES)
        raise ValueError(f"'from: {path}' is not a zone; zones: {zones}")

    def _spare(self, definition: int, slot: int, keep: list[int],
               sources: set[int] | None) -> int:
        """A card of `definition` the zone may take, or a ValueError saying where they all are.

        Without `from:`, in this order: a card still in the zone it was created in, of the
        zone's owner, then of a shared zone (a shared deck gives to every player); then a card
        in another zone of the same owner that no earlier setting set (a card dealt to that
        player's hand at the start). Never a card in another player's zone, in a zone set
        earlier, or in a shared zone it was moved to (a card removed face down)."""
        owner = self.SLOT_OWNER[slot]
        fixed: set[int] = self.__dict__.get("_set_slots", set())
        later: set[int] = self.__dict__.get("_set_later", set())
        best, best_rank = -1, 5
        for card, card_definition in enumerate(self.card_def):
            zone = self.card_zone[card]
            if card_definition != definition or zone == slot or card in keep:
                continue
            if sources is not None:
                if zone in sources:
                    return card
                continue
            zone_owner = self.SLOT_OWNER[zone]
            if zone == self.card_home[card] and (owner < 0 or zone_owner == owner):
                return card
            rank = (1 if zone == self.card_home[card] and zone_owner < 0
                    else 2 if zone in later and zone not in fixed
                    else 3 if owner >= 0 and zone_owner == owner and zone not in fixed
                    else 4 if owner >= 0 and zone_owner == owner
                    else 5)
            if rank < best_rank:
                best, best_rank = card, rank
        if best >= 0:
            return best
        name = self.DEF_NAMES[definition]
        where = sorted({self.slot_name(self.card_zone[c]) for c, d in enumerate(self.card_def)
                        if d == definition and c not in keep and self.card_zone[c] != slot})
        found = f"the other copies are in {', '.join(where)}" if where else "no other copy exists"
        allowed = (", ".join(sorted(self.slot_name(s) for s in sources))
                   if sources is not None else
                   "the zone each card starts in (its deck) or the zone's owner's other zones")
        raise ValueError(
            f"no spare card {name!r} to put in {self.slot_name(slot)}: spare cards come from "
            f"{allowed}, and {found}; set the zone holding one to leave it out first, or name "
            "the zones to take from: `{cards: [...], from: [zone, ...]}`")

    def get(self, path: str) -> Any:
        """Read a value by its rulebook name: `dynasty`, `player.A.reserve`,
        `province.mongolia.armies`, `province.mongolia.marker.A`, `zone.rack.A`, `phase`;
        `zone.rack.A.size` is how many cards the zone holds (read only)."""
        return self._accessors(path)[0]()

    def _accessors(self, path: str) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        """A path's getter and setter, worked out once per state: tools read the same paths
        every step. Card positions move, so `card.` paths are worked out every time."""
        cache: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] | None = (
            self.__dict__.get("_path_cache")
        )
        if cache is None:
            cache = self.__dict__["_path_cache"] = {}
        found = cache.get(path)
        if found is None:
            found = self._resolve(path)
            if not path.startswith("card."):
                cache[path] = found
        return found

    def set(self, path: str, value: Any) -> None:
        """Write a value by its rulebook name (scenarios use this to build a position)."""
        self._accessors(path)[1](value)
        if self.result is None:
            self.advance()

    def to_json(self) -> str:
        data = {attr: getattr(self, attr) for attr in self.STATE_ATTRS}
        data.update(
            game=self.GAME,
            rng=self.rng.state,
            num_players=self.num_players,
            phase=self.phase,
            pending=self.pending,
            actor=self.actor,
            result=self.result,
            zones=self.zones,
            card_def=self.card_def,
            card_owner=self.card_owner,
            card_zone=self.card_zone,
            card_up=self.card_up,
            card_home=self.card_home,
        )
        # saved only when there are some, so saved games without them read as before
        if self.card_shown:
            data["card_shown"] = sorted(self.card_shown.items())
        if self.calls:
            data["calls"] = self.calls
        if self.windows:
            data["windows"] = sorted([phase, *window] for phase, window in self.windows.items())
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def load_json(self, text: str) -> None:
        data = json.loads(text)
        self.__dict__.pop("_path_cache", None)
        if not isinstance(data, dict) or data.get("game") != self.GAME:
            raise ValueError(f"not a saved {self.GAME} state")
        problem = self._saved_problem(data)
        if problem is not None:  # a file edited by hand: refused here, not failing later
            raise ValueError(f"not a saved {self.GAME} state: {problem}")
        for attr in (*self.STATE_ATTRS, *_SAVED_AS_IS):
            setattr(self, attr, data[attr])
        self.card_shown = {int(card): int(bits) for card, bits in data.get("card_shown", [])}
        self.calls = [int(phase) for phase in data.get("calls", [])]
        self.windows = {int(phase): [int(start), int(answered)]
                        for phase, start, answered in data.get("windows", [])}
        self.rng = Rng(0)
        self.rng.state = int(data["rng"])

    def _saved_problem(self, data: dict[str, Any]) -> str | None:  # noqa: C901 - one test a part
        """What is wrong with a saved state's parts, or None: the kinds and sizes that
        to_json writes, each card in the zone it names, each field's values of its kind."""
        missing = [attr for attr in (*self.STATE_ATTRS, "rng", *_SAVED_AS_IS)
                   if attr not in data]
        if missing:
            return f"{', '.join(missing)} missing"
        players = data["num_players"]
        if not _whole(players) or not 1 <= players <= len(self.PLAYER_NAMES):
            return f"num_players is {players!r}"
        if not _whole(data["rng"]):
            return "rng is not a whole number"
        phases = len(self.PHASES)
        for attr in ("phase", "pending"):
            if not _whole(data[attr]) or not -1 <= data[attr] < phases:
                return f"{attr} is {data[attr]!r}"
        if not _whole(data["actor"]) or not (-1 <= data["actor"] < players
                                             or data["actor"] == TERMINAL):
            return f"actor is {data['actor']!r}"
        result = data["result"]
        if result is not None and not (isinstance(result, list) and len(result) == players
                                       and all(_number(r) for r in result)):
            return f"result is {result!r}"
        zones = data["zones"]
        slots = len(self.SLOT_NAMES)
        if not isinstance(zones, list) or len(zones) != slots:
            return f"zones is not a list of {slots} zones"
        cards = data["card_def"]
        if not isinstance(cards, list) or not all(
                _whole(d) and 0 <= d < len(self.DEF_NAMES) for d in cards):
            return "card_def names a card that does not exist"
        count = len(cards)
        for attr in ("card_owner", "card_zone", "card_up", "card_home"):
            if not isinstance(data[attr], list) or len(data[attr]) != count:
                return f"{attr} is not a list of {count} values"
        if not all(isinstance(up, bool) for up in data["card_up"]):
            return "card_up holds a value that is not true or false"
        if not all(_whole(home) and 0 <= home < slots for home in data["card_home"]):
            return "card_home names a zone that does not exist"
        seen = [0] * count
        for slot, zone in enumerate(zones):
            if not isinstance(zone, list) or not all(
                    _whole(card) and 0 <= card < count for card in zone):
                return f"zone {self.SLOT_NAMES[slot]} holds a card that does not exist"
            for card in zone:
                seen[card] += 1
                if data["card_zone"][card] != slot:
                    return f"card {card} lies in {self.SLOT_NAMES[slot]}, not where card_zone says"
        if any(times != 1 for times in seen):
            return "a card lies in no zone or in two"
        codecs: list[tuple[str, Codec, tuple[int, ...]]] = [
            (field.attr, field.codec, ()) for field in self.GAME_FIELDS]
        codecs += [(field.attr, field.codec, (players,) * (1 + field.per_player))
                   for field in self.PLAYER_FIELDS]
        codecs += [(field.attr, field.codec, (len(field.nodes),) + (players,) * field.per_player)
                   for field in self.NODE_FIELDS]
        codecs += [(field.attr, field.codec, (count,)) for field in self.CARD_FIELDS]
        for attr, codec, sizes in codecs:
            if not _stored(data[attr], codec, sizes, players, count):
                return f"{attr} holds a value of another kind or size"
        return None


def _whole(value: Any) -> bool:
    return type(value) is int


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def _stored(raw: Any, codec: Codec, sizes: tuple[int, ...], players: int, cards: int) -> bool:
    """Whether raw is a value of codec as the state stores it, in lists of the given sizes."""
    if sizes:
        return (isinstance(raw, list) and len(raw) == sizes[0]
                and all(_stored(item, codec, sizes[1:], players, cards) for item in raw))
    kind = codec[0]
    if kind == "option":
        return raw is None or _stored(raw, codec[1], (), players, cards)
    if kind == "list":
        return isinstance(raw, list) and all(_stored(item, codec[1], (), players, cards)
                                             for item in raw)
    if kind == "int":
        return _whole(raw)
    if kind == "bool":
        return isinstance(raw, bool)
    if kind == "text":
        return isinstance(raw, str)
    if kind == "player":
        return _whole(raw) and 0 <= raw < players
    if kind == "names":
        return _whole(raw) and 0 <= raw < len(codec[1])
    if kind == "card":
        return _whole(raw) and 0 <= raw < cards
    return True  # a kind this check does not know: to_json wrote it as it is


def _index_of(names: Sequence[str], value: Any, what: str) -> int:
    if isinstance(value, str) and value in names:
        return names.index(value)
    raise ValueError(f"unknown {what} {value!r}; expected one of {', '.join(names)}")


def _flat_index(keys: list[str], dims: tuple[tuple[str, ...], ...]) -> int:
    index = 0
    for key, names in zip(keys, dims, strict=True):
        index = index * len(names) + _index_of(names, key, "key")
    return index


def _read_only(path: str) -> Callable[[Any], None]:
    def refuse(value: Any) -> None:
        raise KeyError(f"{path!r} cannot be set")

    return refuse
