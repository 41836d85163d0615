"""The small runtime that generated game modules import.

Generated modules hold the rules as straight-line Python; this module holds what every game
shares: the seeded random generator, actions, cards moving between zones, the phase loop, and
the generic views of a state (JSON, observations, get/set by rulebook path).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, TypeVar

T = TypeVar("T")

TERMINAL = -4
_MASK64 = (1 << 64) - 1
# How much of a zone a player sees (GameState._zone_sight).
_SEE_NOTHING, _SEE_COUNT, _SEE_REVEALED, _SEE_ALL = 0, 1, 2, 3

# A codec says how a stored value reads in rulebook terms: ("int",), ("bool",), ("text",),
# ("player",), ("names", (name, ...)) for enums/nodes/records/card definitions, ("card",) for
# card instances, ("option", codec) and ("list", codec).
Codec = tuple[Any, ...]
# Card instances; a name of its own because GameState.set hides the builtin in the class.
CardIds = set[int]
# A card parameter of an action names a card definition and, when copies of it differ, which
# copy (GameState.copy_args): the argument is definition + copy * len(DEF_NAMES), where copy
# counts the interchangeable groups of that definition in the parameter's domain. Action ids
# (GameState.action_id) tell apart this many groups per parameter: a deck rule of 2 copies
# per player gives at most 4 copies of a card in a two-player game.
COPY_CHOICES = 4
# How each parameter of an action reads when it is a card whose copies differ (Action.names).
CopyNames = tuple[str | None, ...] | None
# How the copies of a domain read when none differ (GameState.copy_args): read only.
NO_NAMES: Mapping[int, str] = {}


# Areas by (row of a distance table, radius, exact): hex games ask for the same few areas
# thousands of times a game. Each entry keeps its row alive, so the row's id cannot be reused
# by another object while the entry exists.
_AREAS: dict[tuple[int, int, bool], tuple[Sequence[int], tuple[int, ...]]] = {}


def _area(distances: Sequence[int], radius: int, exact: bool) -> list[int]:
    key = (id(distances), radius, exact)
    entry = _AREAS.get(key)
    if entry is None or entry[0] is not distances:
        found = tuple(node for node, d in enumerate(distances)
                      if (d == radius if exact else 0 <= d <= radius))
        if len(_AREAS) >= 1 << 16:
            _AREAS.clear()
        entry = _AREAS[key] = (distances, found)
    return list(entry[1])


def within(distances: Sequence[int], radius: int) -> list[int]:
    """The nodes whose distance (a row of a board's distance table) is at most `radius`."""
    return _area(distances, radius, False)


def ring(distances: Sequence[int], radius: int) -> list[int]:
    """The nodes at exactly `radius`."""
    return _area(distances, radius, True)


def connected(start: int, area: Iterable[int], neighbours: Sequence[Sequence[int]]) -> list[int]:
    """The nodes of `area` joined to `start` by steps between neighbours that stay inside
    `area`, plus `start` itself, in board order (a flood fill)."""
    inside = set(area)
    found = {start}
    frontier = [start]
    while frontier:
        node = frontier.pop()
        for other in neighbours[node]:
            if other in inside and other not in found:
                found.add(other)
                frontier.append(other)
    return sorted(found)


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


def install_phases(state: type[GameState], phases: tuple[PhaseRules, ...]) -> None:
    """Give a generated State its phases. The phase loop reads one table per kind of rule
    (ENTER, ACTOR, ...), indexed by phase: faster in the hot loop than a record per phase."""
    state.PHASE_RULES = phases
    state.PHASES = tuple(phase.name for phase in phases)
    state.ENTER = tuple(phase.enter for phase in phases)
    state.ACTOR = tuple(phase.actor for phase in phases)
    state.DONE = tuple(phase.done for phase in phases)
    state.PHASE_CHECKPOINTS = tuple(phase.checkpoints for phase in phases)
    state.LEGAL = tuple(phase.legal for phase in phases)


class IllegalAction(Exception):  # noqa: N818 - the name is part of the module contract
    """An action that the rules do not allow now; the message says why."""


class RuleError(Exception):
    """The rules reached a state they do not define (for example a phase with no way on)."""


class Rng:
    """SplitMix64: tiny state (one int), fast to clone, identical on every platform."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise RuleError(f"cannot choose among {n} possibilities")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def roll(self, sides: int) -> int:
        return 1 + self.below(sides)

    def flip(self) -> bool:
        return self.below(2) == 1

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        result = list(items)
        self.shuffle(result)
        return result

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def clone(self) -> Rng:
        other = Rng(0)
        other.state = self.state
        return other


class Action:
    """One move: a kind, the acting player and integer arguments. Hashable; str() reads well."""

    __slots__ = ("kind", "actor", "args", "_text", "names")

    def __init__(
        self,
        kind: int,
        actor: int,
        args: tuple[int, ...],
        text: Callable[[int, tuple[int, ...], int, CopyNames], str],
        names: CopyNames = None,
    ) -> None:
        self.kind = kind
        self.actor = actor
        self.args = args
        self._text = text
        # per parameter, how a card that has differing copies reads ("Guard (rested)"); None
        # when every card parameter reads as its definition's name
        self.names = names

    def __str__(self) -> str:
        return self._text(self.actor, self.args, -1, self.names)

    def masked_text(self, shown: int) -> str:
        """The text with parameter i written by name only when bit i of `shown` is set, and
        as a neutral phrase ("a card") otherwise. GameState.action_text decides the bits."""
        return self._text(self.actor, self.args, shown, self.names)

    def plain(self) -> Action:
        """The same action with every card read as its definition's name, whichever copy it
        is: what the action means apart from the state its cards are in."""
        return Action(self.kind, self.actor, self.args, self._text)

    def __repr__(self) -> str:
        return f"Action({self})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Action)
            and self.kind == other.kind
            and self.actor == other.actor
            and self.args == other.args
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.actor, self.args))


# Words whose "u" or "eu" sounds like "you", and "one": "a unit", "a one".
_A_NOT_AN = re.compile(r"^(?:uni|use|usu|uti|eu|ewe|one|once)", re.IGNORECASE)


def article(noun: str) -> str:
    """The indefinite article of a noun: "an archer", "a siege tower", "a unit"."""
    if noun[:1].lower() in "aeiou" and not _A_NOT_AN.match(noun):
        return "an"
    return "a"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def card_name(def_names: Sequence[str], args: tuple[int, ...], names: CopyNames, i: int) -> str:
    """How the card argument i of an action reads: its copy's name when copies of the card
    differ (Action.names), else its definition's name (see COPY_CHOICES)."""
    name = names[i] if names is not None else None
    return name if name is not None else def_names[args[i] % len(def_names)]


def some(value: T | None) -> T:
    """A value the rules have proved is not none (a narrowed optional)."""
    if value is None:
        raise RuleError("a value tested as present is none")
    return value


def first(items: Sequence[T]) -> T | None:
    return items[0] if items else None


def last(items: Sequence[T]) -> T | None:
    return items[-1] if items else None


def merge_options(spec: dict[str, tuple[type, object]], given: dict[str, object] | None) -> dict[
    str, object
]:
    """Defaults overridden by the caller's options, each checked for name and type."""
    result = {name: default for name, (_, default) in spec.items()}
    for name, value in (given or {}).items():
        if name not in spec:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(spec) or 'none'}")
        kind = spec[name][0]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise ValueError(f"option {name!r} must be {kind.__name__}, not {value!r}")
        result[name] = value
    return result


def choose_decks(
    decks: object,
    players: int,
    shipped: Mapping[str, tuple[int, ...]],
    names: Sequence[str],
    problem: Callable[[list[int]], tuple[str, int] | None],
    seats: Sequence[str],
) -> list[list[int]]:
    """Each player's deck, as card definitions. `decks` is None (the shipped decks in name
    order, one per player, in turn), a list with one entry per player, or a dict from player
    name to entry; an entry is a shipped deck's name or a list of card names."""
    if decks is None:
        order = sorted(shipped)
        return [list(shipped[order[i % len(order)]]) if order else [] for i in range(players)]
    if isinstance(decks, dict):
        unknown = set(decks) - set(seats[:players])
        if unknown:
            raise ValueError(f"decks given for unknown players: {', '.join(sorted(unknown))}")
        missing = [seat for seat in seats[:players] if seat not in decks]
        if missing:
            raise ValueError(f"no deck given for {', '.join(missing)}")
        entries: list[object] = [decks[seat] for seat in seats[:players]]
    elif isinstance(decks, (list, tuple)):
        entries = list(decks)
        if len(entries) != players:
            raise ValueError(f"{len(entries)} decks for {players} players")
    else:
        raise ValueError("decks must be a list (one per player) or a dict by player name")
    index = {name: i for i, name in enumerate(names)}
    result: list[list[int]] = []
    for seat, entry in enumerate(entries):
        if isinstance(entry, str):
            if entry not in shipped:
                raise ValueError(f"unknown deck {entry!r}; decks: {', '.join(sorted(shipped))}")
            cards = list(shipped[entry])
        elif isinstance(entry, (list, tuple)) and all(isinstance(x, str) for x in entry):
            missing = [x for x in entry if x not in index]
            if missing:
                raise ValueError(f"unknown cards in deck {seat + 1}: {', '.join(missing[:5])}")
            cards = [index[x] for x in entry]
        else:
            raise ValueError(f"deck {seat + 1} must be a deck name or a list of card names")
        broken = problem(cards)
        if broken is not None:
            raise ValueError(f"deck {seat + 1} breaks a deck rule: {broken[0]}")
        result.append(cards)
    return result


class GameState:
    """What every generated game state shares. Subclasses fill the class tables."""

    # Filled in by the generated module.
    GAME: ClassVar[str] = ""
    PLAYER_NAMES: ClassVar[tuple[str, ...]] = ()
    PHASES: ClassVar[tuple[str, ...]] = ()
    DEF_NAMES: ClassVar[tuple[str, ...]] = ()
    SLOT_OWNER: ClassVar[tuple[int, ...]] = ()
    SLOT_CAPACITY: ClassVar[tuple[int, ...]] = ()
    SLOT_NAMES: ClassVar[tuple[str, ...]] = ()
    SLOT_VISIBILITY: ClassVar[tuple[str, ...]] = ()
    ZONES: ClassVar[tuple[tuple[str, int, tuple[tuple[str, ...], ...]], ...]] = ()
    # The rules create cards during play (not only in setup), so `set` may create them too.
    SET_CREATES: ClassVar[bool] = False
    GAME_FIELDS: ClassVar[tuple[GameField, ...]] = ()
    PLAYER_FIELDS: ClassVar[tuple[PlayerField, ...]] = ()
    NODE_FIELDS: ClassVar[tuple[NodeField, ...]] = ()
    OPTION_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    CARD_FIELDS: ClassVar[tuple[CardField, ...]] = ()
    STATE_ATTRS: ClassVar[tuple[str, ...]] = ()
    PHASE_RULES: ClassVar[tuple[PhaseRules, ...]] = ()  # install_phases makes the rest
    ENTER: ClassVar[tuple[Callable[[Any], None] | None, ...]] = ()
    DONE: ClassVar[tuple[Callable[[Any], None] | None, ...]] = ()
    ACTOR: ClassVar[tuple[Callable[[Any], int | None] | None, ...]] = ()
    PHASE_CHECKPOINTS: ClassVar[tuple[Callable[[Any, int], None] | None, ...]] = ()
    CHECKPOINTS: ClassVar[tuple[Callable[[Any], None], ...]] = ()
    LEGAL: ClassVar[tuple[Callable[[Any, int, list[Action], bool], None] | None, ...]] = ()
    APPLY: ClassVar[dict[tuple[int, int], Callable[[Any, Action], str | None]]] = {}
    # per action kind: the positions of its card parameters, and the function that says which
    # copies of the named cards applying the action would take (None: no card parameters)
    CARD_PARAMS: ClassVar[tuple[tuple[int, ...], ...]] = ()
    PICK: ClassVar[tuple[Callable[[Any, Action], tuple[int, ...] | None] | None, ...]] = ()
    ENCODING: ClassVar[tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = ()
    ACTION_NAMES: ClassVar[tuple[str, ...]] = ()
    _ARG_RANGES: ClassVar[tuple[tuple[range, ...], ...] | None] = None
    # What a listing of actions has worked out about copies (GameState._list_actions)
    _memo: _ListingMemo | None = None
    _listing = False
    _COPY_PLAN: ClassVar[_CopyPlan | None] = None

    num_players: int
    phase: int
    pending: int
    actor: int
    result: list[float] | None
    rng: Rng
    zones: list[list[int]]
    card_def: list[int]
    card_owner: list[int]
    card_zone: list[int]
    card_up: list[bool]
    card_home: list[int]

    def init_runtime(self, seed: int, players: int, slots: int) -> None:
        self.rng = Rng(seed)
        self.num_players = players
        self.phase = -1
        self.pending = -1
        self.actor = -1
        self.result = None
        self.zones = [[] for _ in range(slots)]
        self.card_def = []
        self.card_owner = []
        self.card_zone = []
        self.card_up = []
        self.card_home = []

    # ---- the public API (DESIGN.md §4)
    def clone(self) -> GameState:
        """An independent copy; each generated game writes its own."""
        raise NotImplementedError

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.actor

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0] * self.num_players

    def legal_actions(self) -> list[Action]:
        if self.result is not None or self.actor < 0:
            return []
        out: list[Action] = []
        legal = self.LEGAL[self.phase]
        if legal is not None:
            self._list_actions(legal, out, True)
        return out

    def _list_actions(
        self, legal: Callable[[Any, int, list[Action], bool], None], out: list[Action],
        check: bool,
    ) -> None:
        """Run a phase's listing of actions. While it runs the state does not change, so
        copy_args works each domain out once (actions of one phase share their domains)."""
        self._listing = True
        try:
            legal(self, self.actor, out, check)
        finally:
            self._listing = False
            if self._memo is not None:
                self._memo = None

    def _listing_memo(self) -> _ListingMemo | None:
        """The memo of the listing of actions under way, if one is."""
        if not self._listing:
            return None
        memo = self._memo
        if memo is None:
            memo = self._memo = _ListingMemo()
        return memo

    def apply_action(self, action: Action) -> None:
        if self.result is not None:
            raise IllegalAction("the game is over")
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if action.actor != self.actor:
            raise IllegalAction(
                f"it is {self.player_name(self.actor)}'s turn, not "
                f"{self.player_name(action.actor)}'s"
            )
        kind = action.kind
        handler = self.APPLY.get((self.phase, kind)) if type(kind) is int else None
        if handler is None:
            raise IllegalAction(
                f"'{self._shown(action)}' is not possible in phase {self.PHASES[self.phase]}"
            )
        allowed = (self._ARG_RANGES or self._arg_ranges())[kind]
        args = action.args
        if type(args) is not tuple or len(args) != len(allowed):
            raise IllegalAction(self._malformed(action))
        for value, values in zip(args, allowed, strict=True):
            if type(value) is not int or value not in values:
                raise IllegalAction(self._malformed(action))
        reason = handler(self, action)
        if reason is not None:
            raise IllegalAction(reason)
        checkpoint = self.PHASE_CHECKPOINTS[self.phase]
        if checkpoint is not None:
            checkpoint(self, action.actor)
        self.advance()

    @classmethod
    def _arg_ranges(cls) -> tuple[tuple[range, ...], ...]:
        """Per kind of action, the numbers each argument may be (from ENCODING). Handlers
        index tables by the arguments, so apply_action checks them first: an action built by
        hand is an IllegalAction, never an IndexError or another choice's name read from the
        end of a table."""
        ranges = cls.__dict__.get("_ARG_RANGES")
        if ranges is None:
            ranges = tuple(tuple(range(base, base + size) for base, size in params)
                           for _, params in cls.ENCODING)
            cls._ARG_RANGES = ranges
        return ranges

    def _malformed(self, action: Action) -> str:
        """What is wrong with an action whose arguments no listing makes (read from the same
        ranges apply_action checks them against)."""
        allowed = (self._ARG_RANGES or self._arg_ranges())[action.kind]
        args = action.args
        name = self.ACTION_NAMES[action.kind]
        if type(args) is not tuple or len(args) != len(allowed):
            count = len(args) if isinstance(args, tuple) else args
            return (f"malformed action: '{name}' takes {len(allowed)} argument(s), "
                    f"not {count!r}")
        for position, (values, value) in enumerate(zip(allowed, args, strict=True), start=1):
            if type(value) is not int or value not in values:
                return (f"malformed action: argument {position} of '{name}' is {value!r}, "
                        f"not a whole number from {values.start} to {values.stop - 1}")
        return "malformed action"

    def _shown(self, action: Action) -> str:
        """An action's text, or what it is made of when it is too malformed to read."""
        try:
            return str(action)
        except Exception:  # noqa: BLE001 - any argument may have been built by hand
            return f"action kind {action.kind!r} with arguments {action.args!r}"

    def parse_action(self, text: str) -> Action:
        """The action whose text is `text`, checked only for shape: apply_action says why an
        action that reads right is not allowed (scenarios rely on that message)."""
        wanted = " ".join(text.split())
        if self.result is not None:
            raise IllegalAction("the game is over")
        candidates: list[Action] = []
        legal = self.LEGAL[self.phase] if self.actor >= 0 else None
        if legal is not None:
            self._list_actions(legal, candidates, False)
        for action in candidates:
            if str(action) == wanted:
                return action
        who = wanted.split(" ", 1)[0]
        if who in self.PLAYER_NAMES[: self.num_players] and who != self.player_name(self.actor):
            raise IllegalAction(
                f"it is {self.player_name(self.actor)}'s turn, not {who}'s: '{wanted}'"
            )
        allowed = ", ".join(sorted({str(a) for a in self.legal_actions()})[:12])
        raise IllegalAction(
            f"no action '{wanted}' for {self.player_name(self.actor)} in phase "
            f"{self.PHASES[self.phase]}; legal: {allowed or 'none'}"
        )

    def action_id(self, action: Action) -> int:
        offset, params = self.ENCODING[action.kind]
        code = 0
        for (base, size), value in zip(params, action.args, strict=True):
            code = code * size + (value - base)
        return offset + code

    # ---- the phase loop
    def goto(self, phase: int) -> None:
        self.pending = phase

    def win(self, player: int) -> None:
        if self.result is None:
            self.result = [-1.0] * self.num_players
            self.result[player] = 1.0

    def lose(self, player: int) -> None:
        if self.result is None:
            self.result = [1.0] * self.num_players
            self.result[player] = -1.0

    def end_draw(self) -> None:
        if self.result is None:
            self.result = [0.0] * self.num_players

    def run_checkpoints(self) -> None:
        for checkpoint in self.CHECKPOINTS:
            if self.result is None:
                checkpoint(self)

    def advance(self) -> None:
        """Follow gotos and automatic phases until a player must act or the game is over."""
        self.run_checkpoints()
        for _ in range(10_000):
            if self.result is not None:
                self.actor = TERMINAL
                return
            if self.pending >= 0:
                self.phase, self.pending = self.pending, -1
                enter = self.ENTER[self.phase]
                if enter is not None:
                    enter(self)
                    self.run_checkpoints()
                continue
            actor_of = self.ACTOR[self.phase]
            actor = actor_of(self) if actor_of is not None else None
            if actor is not None:
                self.actor = actor
                return
            done = self.DONE[self.phase]
            if done is not None:
                done(self)
                self.run_checkpoints()
            if self.pending < 0 and self.result is None:
                raise RuleError(
                    f"phase {self.PHASES[self.phase]} has nobody to act and no way on"
                )
        raise RuleError("the rules loop through phases without anyone acting")

    # ---- cards and zones
    def create(self, definition: int, slot: int) -> int:
        card = len(self.card_def)
        self.card_def.append(definition)
        self.card_owner.append(max(self.SLOT_OWNER[slot], 0))
        self.card_zone.append(slot)
        self.card_up.append(False)
        self.card_home.append(slot)
        self.init_card()
        self._put(card, slot, False)
        return card

    def init_card(self) -> None:
        """Generated games with 'per card' fields append each field's default here."""

    def _put(self, card: int, slot: int, top: bool) -> None:
        zone = self.zones[slot]
        capacity = self.SLOT_CAPACITY[slot]
        if 0 <= capacity <= len(zone):
            raise RuleError(f"zone {self.SLOT_NAMES[slot]} is full ({capacity})")
        if top:
            zone.insert(0, card)
        else:
            zone.append(card)
        self.card_zone[card] = slot

    def move(self, card: int, slot: int, top: bool = False) -> None:
        self.zones[self.card_zone[card]].remove(card)
        self.card_up[card] = False
        self._put(card, slot, top)

    def move_all(self, cards: Iterable[int], slot: int, top: bool = False) -> None:
        moving = list(cards)
        if top:
            moving.reverse()
        for card in moving:
            self.move(card, slot, top)

    def draw(self, count: int, source: int, slot: int) -> None:
        pile = self.zones[source]
        for _ in range(min(count, len(pile))):
            self.move(pile[0], slot)

    def reveal(self, cards: Iterable[int]) -> None:
        for card in cards:
            self.card_up[card] = True

    def find_cards(self, cards: Iterable[int], arg: int) -> list[int]:
        """The cards that a card argument of an action (see copy_args) stands for among
        `cards`, in order: the copies of its definition in its group of interchangeable ones."""
        count = len(self.DEF_NAMES)
        definition, copy = arg % count, arg // count
        copies = [card for card in cards if self.card_def[card] == definition]
        if len(copies) < 2:
            return copies if copy == 0 else []
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
        return self.card_zone[card], self.card_owner[card], self.card_up[card], holders

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
                    _cards_in(codec, raw, held)
            else:
                held.update(getattr(self, attr))
        for _, attr, codec, _ in plan.game_holders:
            _cards_in(codec, getattr(self, attr), held)
        for _, attr, codec, _, per_player in plan.player_holders:
            for value in getattr(self, attr):
                for raw in value if per_player else [value]:
                    _cards_in(codec, raw, held)
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
                           if raw is not None and _holds(codec, raw, card)]
            else:  # a card or an optional card: found at C speed
                holders = _positions(table, card)
            for other in holders:
                if other != card:
                    shown = public and (self.card_up[other] or self.SLOT_VISIBILITY[
                        self.card_zone[other]] == "public")
                    held.append((name, self.card_def[other], shown))
        for name, attr, codec, public in plan.game_holders:
            if _holds(codec, getattr(self, attr), card):
                held.append((name, -1, public))
        for name, attr, codec, public, per_player in plan.player_holders:
            for value in getattr(self, attr):
                if any(_holds(codec, v, card) for v in (value if per_player else [value])):
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
                if up:
                    part.append("revealed")
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
        zone, *keys = self.SLOT_NAMES[slot].split(".")
        words = zone.replace("_", " ")
        if keys and keys[0] in self.PLAYER_NAMES:
            words = f"{keys.pop(0)}'s {words}"
        return "in " + words + "".join(" at " + key.replace("_", " ") for key in keys)

    # ---- views
    def player_name(self, player: int) -> str:
        if 0 <= player < len(self.PLAYER_NAMES):
            return self.PLAYER_NAMES[player]
        return "nobody"

    def decode(self, codec: Codec, raw: Any) -> Any:
        kind = codec[0]
        if raw is None:
            return None
        if kind == "player":
            return self.player_name(raw)
        if kind == "names":
            return codec[1][raw]
        if kind == "card":
            return self.DEF_NAMES[self.card_def[raw]]
        if kind == "option":
            return self.decode(codec[1], raw)
        if kind == "list":
            return [self.decode(codec[1], item) for item in raw]
        return raw

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
            return _index_of(self.PLAYER_NAMES[: self.num_players], value, "player")
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
            for name, attr in self.OPTION_FIELDS:
                if name == parts[1]:
                    return self._attribute(attr, ("int",))[0], _read_only(path)
        for name, attr, codec, _vis in self.GAME_FIELDS:
            if path == name:
                return self._attribute(attr, codec)
        if head == "player" and len(parts) > 1:
            parts = parts[1:]
            head = parts[0]
        if head in self.PLAYER_NAMES and len(parts) >= 2:
            player = self.PLAYER_NAMES.index(head)
            for name, attr, codec, _vis, per_player in self.PLAYER_FIELDS:
                if name == parts[1]:
                    return self._cell(getattr(self, attr), player, codec, per_player, parts[2:])
        for board, nodes, name, attr, codec, per_player, _vis in self.NODE_FIELDS:
            if head in (board, board.lower()) and len(parts) >= 3 and parts[2] == name:
                node = _index_of(nodes, parts[1], board)
                return self._cell(getattr(self, attr), node, codec, per_player, parts[3:])
        if head == "card" and len(parts) >= 4:
            return self._card_field(parts[1:])
        if head == "zone":
            parts = parts[1:]
        for name, base, dims in self.ZONES:
            if parts and parts[0] == name:
                keys = parts[1:]
                if len(keys) != len(dims):
                    raise KeyError(f"zone {name} takes {len(dims)} keys in a path")
                return self._zone(base + _flat_index(keys, dims))
        raise KeyError(f"no path {path!r} in {self.GAME}")

    def _card_field(self, parts: list[str]) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        """`card.ZONE[.KEY...].INDEX.FIELD`: a 'per card' field of the card at a zone position
        (0 is the first card), e.g. `card.units.A.0.rested`."""
        *where, position, field_name = parts
        for name, base, dims in self.ZONES:
            if where and where[0] == name:
                if len(where) - 1 != len(dims):
                    raise KeyError(f"zone {name} takes {len(dims)} keys in a path")
                zone = self.zones[base + _flat_index(where[1:], dims)]
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

    def _zone(self, slot: int) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        return (lambda: [self.DEF_NAMES[self.card_def[c]] for c in self.zones[slot]],
                lambda v: self._set_zone(slot, v))

    def _cell(
        self, table: list[Any], index: int, codec: Codec, per_player: bool, rest: list[str]
    ) -> tuple[Callable[[], Any], Callable[[Any], None]]:
        if per_player:
            if len(rest) != 1:
                raise KeyError("a 'per player' field needs a player name at the end of the path")
            row: list[Any] = table[index]
            player = _index_of(self.PLAYER_NAMES[: self.num_players], rest[0], "player")
            return (lambda: self.decode(codec, row[player]),
                    lambda v: row.__setitem__(player, self.encode(codec, v)))
        if rest:
            raise KeyError(f"unexpected {'.'.join(rest)!r} at the end of the path")
        return (lambda: self.decode(codec, table[index]),
                lambda v: table.__setitem__(index, self.encode(codec, v)))

    def _set_zone(self, slot: int, names: Any) -> None:
        """Fill a zone with the named cards, taken from the same owner's other zones first.

        Cards leaving the zone go back to the zone they were created in; when that is the zone
        being set, the call is refused rather than guessing. In games whose rules create cards
        only in setup (decks), no card is created or destroyed, so card counts stay conserved;
        in games that create cards during play (SET_CREATES: recruited units), the cards a
        player's zone lacks are created there instead."""
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise ValueError("a zone is set with a list of card names")
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
                card = next(
                    (c for c in range(len(self.card_def))
                     if self.card_def[c] == definition and self.card_zone[c] != slot
                     and c not in keep and (owner < 0 or self.card_owner[c] == owner)),
                    -1,
                )
            if card < 0:
                raise ValueError(f"no spare card {self.DEF_NAMES[definition]!r} to put there")
            keep.append(card)
        leaving = [c for c in current if c not in keep]
        homeless = [self.DEF_NAMES[self.card_def[c]] for c in leaving
                    if self.card_home[c] == slot]
        if homeless:
            raise ValueError(
                f"setting {self.SLOT_NAMES[slot]} would leave {', '.join(homeless)} with no "
                "zone to go to; put them in another zone first (set that zone to include them)"
            )
        for card in leaving:
            self.move(card, self.card_home[card])
        for card in keep:
            if self.card_zone[card] != slot:
                self.zones[self.card_zone[card]].remove(card)
                self.card_zone[card] = slot
        self.zones[slot][:] = keep

    def get(self, path: str) -> Any:
        """Read a value by its rulebook name: `dynasty`, `player.A.reserve`,
        `province.mongolia.armies`, `province.mongolia.marker.A`, `zone.rack.A`, `phase`."""
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

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may see: hidden zones and other players' secrets show counts only.
        `cards` holds the public 'per card' fields of the cards named in `zones` (a secret
        zone's revealed cards too), keyed like `zones`, in zone order."""
        view: dict[str, Any] = {
            "game": self.GAME,
            "player": self.player_name(player),
            "phase": self.PHASES[self.phase] if self.phase >= 0 else None,
            "actor": self.player_name(self.actor) if self.actor >= 0 else None,
            "terminal": self.result is not None,
            "options": {name: getattr(self, attr) for name, attr in self.OPTION_FIELDS},
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
                if not _sees_player_field(visibility, p, player):
                    continue
                value = getattr(self, attr)[p]
                fields[name] = (
                    [self.decode(codec, v) for v in value] if per_player
                    else self.decode(codec, value)
                )
            players[self.PLAYER_NAMES[p]] = fields
        view["players"] = players
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
        for slot, cards in enumerate(self.zones):
            sight = self._zone_sight(slot, player)
            if sight == _SEE_NOTHING:
                continue  # not even the count: it would tell which kind of card was played
            named = self._named_cards(slot, sight)
            if sight == _SEE_ALL:
                shown: Any = [self.DEF_NAMES[self.card_def[c]] for c in cards]
            elif sight == _SEE_REVEALED:
                shown = {"count": len(cards),
                         "revealed": [self.DEF_NAMES[self.card_def[c]] for c in named]}
            else:
                shown = {"count": len(cards)}
            zones[self.SLOT_NAMES[slot]] = shown
            if named and self.CARD_FIELDS:
                # a revealed card's public state is as public as a face-up card's: the target
                # an activated set spell was given
                card_fields[self.SLOT_NAMES[slot]] = [
                    {name: self.decode(codec, getattr(self, attr)[c])
                     for name, attr, codec, vis in self.CARD_FIELDS if vis == "public"}
                    for c in named
                ]
        view["zones"] = zones
        if self.CARD_FIELDS:
            view["cards"] = card_fields  # the public 'per card' state of the cards shown
        return view

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
        if visibility == "private":
            return _SEE_NOTHING
        return _SEE_REVEALED if visibility == "secret" else _SEE_COUNT

    def _named_cards(self, slot: int, sight: int) -> list[int]:
        """The cards of a zone that an observation with this sight of it names."""
        if sight == _SEE_ALL:
            return self.zones[slot]
        if sight == _SEE_REVEALED:
            return [c for c in self.zones[slot] if self.card_up[c]]
        return []

    def visible_cards(self, player: int) -> CardIds:
        """The cards (instances) that observation(player) names: those in zones it shows, the
        revealed ones, and those held by the fields it shows (a public `chain: list of Card`
        names its cards wherever they lie)."""
        named: list[int] = []
        for slot in range(len(self.zones)):
            named.extend(self._named_cards(slot, self._zone_sight(slot, player)))
        seen: CardIds = set(named)
        for _name, attr, codec, visibility in self.GAME_FIELDS:
            if visibility == "public" and _has_cards(codec):
                _cards_in(codec, getattr(self, attr), seen)
        for _name, attr, codec, visibility, per_player in self.PLAYER_FIELDS:
            if not _has_cards(codec):
                continue
            for p, value in enumerate(getattr(self, attr)[: self.num_players]):
                if not _sees_player_field(visibility, p, player):
                    continue
                for item in value if per_player else (value,):
                    _cards_in(codec, item, seen)
        for _board, _nodes, _name, attr, codec, per_player, visibility in self.NODE_FIELDS:
            if visibility == "public" and _has_cards(codec):
                for value in getattr(self, attr):
                    for item in value if per_player else (value,):
                        _cards_in(codec, item, seen)
        for _name, attr, codec, visibility in self.CARD_FIELDS:
            if visibility == "public" and _has_cards(codec):
                table = getattr(self, attr)
                for card in named:
                    _cards_in(codec, table[card], seen)
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
        it could not be taken with. The state is not changed: the work is done on clones, and
        costs nothing until it is asked for."""
        if not isinstance(action, Action):
            raise TypeError(f"not an action: {action!r}")
        if player == action.actor:
            return str(action)
        shown = -1
        after = self._after(action)
        cards = self.CARD_PARAMS[action.kind] if action.kind < len(self.CARD_PARAMS) else ()
        if cards:
            pick = self.PICK[action.kind]
            chosen = pick(self, action) if pick is not None else None
            before = self.visible_cards(player)
            later: CardIds = after.visible_cards(player) if after is not None else set()
            for i in cards:
                if chosen is None or (chosen[i] not in before and chosen[i] not in later):
                    shown &= ~(1 << i)
        if after is None:
            return action.masked_text(shown)
        glance = after._glance(player)
        target: tuple[dict[str, Any], list[str] | None] | None = None
        others = [i for i in range(len(action.args)) if i not in cards]
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
            if other.kind != action.kind:
                return f"{self.player_name(action.actor)} makes a secret choice"
            for i in differs:
                shown &= ~(1 << i)
        return action.masked_text(shown)

    def _after(self, action: Action) -> GameState | None:
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
        sizes = [len(cards) for slot, cards in enumerate(self.zones)
                 if self._zone_sight(slot, player) != _SEE_NOTHING]
        values = [getattr(self, attr) for _, attr, codec, visibility in self.GAME_FIELDS
                  if visibility == "public" and not _has_cards(codec)]
        values += [getattr(self, attr)
                   for _, _, _, attr, codec, _, visibility in self.NODE_FIELDS
                   if visibility == "public" and not _has_cards(codec)]
        return self.phase, self.actor, self.result is None, sizes, values

    def _sight(self, player: int) -> tuple[dict[str, Any], list[str] | None]:
        """Everything `player` knows of this state: the observation, and the player's own
        legal actions when it is their turn (they can depend on others' secrets)."""
        mine = [str(a) for a in self.legal_actions()] if self.current_player() == player else None
        return self.observation(player), mine

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
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def load_json(self, text: str) -> None:
        data = json.loads(text)
        self.__dict__.pop("_path_cache", None)
        if not isinstance(data, dict) or data.get("game") != self.GAME:
            raise ValueError(f"not a saved {self.GAME} state")
        for attr in (*self.STATE_ATTRS, "num_players", "phase", "pending", "actor", "result",
                     "zones", "card_def", "card_owner", "card_zone", "card_up", "card_home"):
            setattr(self, attr, data[attr])
        self.rng = Rng(0)
        self.rng.state = int(data["rng"])


def _sees_player_field(visibility: str, owner: int, player: int) -> bool:
    """Whether observation(player) shows a field of player `owner`: a secret one only to its
    owner, a hidden one to nobody."""
    return visibility != "hidden" and (visibility != "secret" or owner == player)


def _has_cards(codec: Codec) -> bool:
    kind = codec[0]
    if kind in ("option", "list"):
        return _has_cards(codec[1])
    return bool(kind == "card")


def _cards_in(codec: Codec, raw: Any, out: set[int]) -> None:
    """Add the card instances a stored value holds (codec as in GameState.decode)."""
    if raw is None:
        return
    kind = codec[0]
    if kind == "card":
        out.add(raw)
    elif kind == "option":
        _cards_in(codec[1], raw, out)
    elif kind == "list":
        for item in raw:
            _cards_in(codec[1], item, out)


class _ListingMemo:
    """What one listing of actions works out about copies, while the state cannot change:
    copy_args by domain, same_choice by pair of cards, and the cards that fields hold."""

    __slots__ = ("copies", "alike", "held")

    def __init__(self) -> None:
        self.copies: dict[tuple[int, ...], tuple[list[int], Mapping[int, str]]] = {}
        self.alike: dict[tuple[int, int], bool] = {}
        self.held: set[Any] | None = None


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
                             if _has_cards(codec)]
        self.game_holders = [(name, attr, codec, visibility == "public")
                             for name, attr, codec, visibility in game_fields
                             if _has_cards(codec)]
        self.player_holders = [(name, attr, codec, visibility == "public", per_player)
                               for name, attr, codec, visibility, per_player in player_fields
                               if _has_cards(codec)]
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


def _holds(codec: Codec, raw: Any, card: int) -> bool:
    """Whether a stored value (codec as in GameState.decode) holds the card instance."""
    if raw is None:
        return False
    kind = codec[0]
    if kind == "card":
        return bool(raw == card)
    if kind == "option":
        return _holds(codec[1], raw, card)
    if kind == "list":
        if codec[1][0] == "card":
            return card in raw
        return any(_holds(codec[1], item, card) for item in raw)
    return False


def frozen(value: Any) -> Any:
    """A stored value as a hashable one: lists as tuples."""
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    return value


def _field_words(field: str, value: Any) -> str:
    """A set 'per card' field for a reader: "rested", "attacks made 1", "extra keywords
    trample"."""
    words = field.replace("_", " ")
    if value is True:
        return words
    if isinstance(value, list):
        value = ", ".join(str(item) for item in value)
    return f"{words} {str(value).replace('_', ' ')}"


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
