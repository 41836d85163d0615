"""The core of a generated game state: the class tables a generated State fills, the public
API (DESIGN.md §4), the phase loop, and cards moving between zones. dsl.runtime_copies,
dsl.runtime_paths and dsl.runtime_views build on it; dsl.runtime.GameState combines them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, ClassVar, Self

from dsl.runtime_base import (
    RULE_FAULTS,
    TERMINAL,
    Action,
    Codec,
    IllegalAction,
    Listed,
    RuleError,
    rule_fault,
)
from dsl.runtime_fields import CardField, GameField, NodeField, PhaseRules, PlayerField
from dsl.runtime_rng import Rng

# per seat names, each text function of an action with those names bound (StateCore._seat)
_SEATED_TEXTS: dict[tuple[str, ...], dict[Any, Callable[..., str]]] = {}


class StateCore:
    """What every generated game state shares at its core. Subclasses fill the class tables."""

    # Filled in by the generated module.
    GAME: ClassVar[str] = ""
    # the actions the game's own listings make (its module's Listed): only these skip the
    # check of their shape in apply_action; another game's Listed is checked like any action
    LISTED: ClassVar[type[Listed]] = Listed
    PLAYER_NAMES: ClassVar[tuple[str, ...]] = ()
    # `names 2: N, S; 4: N, E, S, W`: the seats of each count (empty: every count seats the
    # first PLAYER_NAMES). Generated tables are written against PLAYER_NAMES, the seats of
    # the largest count, and read by seat number; only what a reader sees uses seats().
    SEAT_NAMES: ClassVar[Mapping[int, tuple[str, ...]]] = {}
    PHASES: ClassVar[tuple[str, ...]] = ()
    DEF_NAMES: ClassVar[tuple[str, ...]] = ()
    SLOT_OWNER: ClassVar[tuple[int, ...]] = ()
    SLOT_CAPACITY: ClassVar[tuple[int, ...]] = ()
    SLOT_NAMES: ClassVar[tuple[str, ...]] = ()
    SLOT_VISIBILITY: ClassVar[tuple[str, ...]] = ()
    ZONES: ClassVar[tuple[tuple[str, int, tuple[tuple[str, ...], ...]], ...]] = ()
    # the slots of `per team` zones, each with the stride of its player key: a team's cards
    # lie in the slot of its captain, and its other players' slots stay empty
    TEAM_SLOTS: ClassVar[Mapping[int, int]] = {}
    # The rules create cards during play (not only in setup), so `set` may create them too.
    SET_CREATES: ClassVar[bool] = False
    GAME_FIELDS: ClassVar[tuple[GameField, ...]] = ()
    PLAYER_FIELDS: ClassVar[tuple[PlayerField, ...]] = ()
    NODE_FIELDS: ClassVar[tuple[NodeField, ...]] = ()
    OPTION_FIELDS: ClassVar[tuple[tuple[str, str, Codec], ...]] = ()  # name, attribute, codec
    CARD_FIELDS: ClassVar[tuple[CardField, ...]] = ()
    STATE_ATTRS: ClassVar[tuple[str, ...]] = ()
    # the attribute of the player field `out` ('' when the game declares none): a player who
    # is out never acts (dsl.runtime_seats)
    OUT_FIELD: ClassVar[str] = ""
    # the attributes of the 'per team' player fields, which teammates share (dsl.runtime_seats)
    TEAM_FIELDS: ClassVar[frozenset[str]] = frozenset()
    PHASE_RULES: ClassVar[tuple[PhaseRules, ...]] = ()  # install_phases makes the rest
    ENTER: ClassVar[tuple[Callable[[Any], None] | None, ...]] = ()
    DONE: ClassVar[tuple[Callable[[Any], None] | None, ...]] = ()
    ACTOR: ClassVar[tuple[Callable[[Any], int | None] | None, ...]] = ()
    PHASE_CHECKPOINTS: ClassVar[tuple[Callable[[Any, int], None] | None, ...]] = ()
    # per phase, the start of its `responders` window (None: the phase has none); () in games
    # without one
    WINDOW_START: ClassVar[tuple[Callable[[Any], int] | None, ...]] = ()
    # the phases whose window (`responders all from`) asks its starting player too, last
    WINDOW_LAST: ClassVar[frozenset[int]] = frozenset()
    CHECKPOINTS: ClassVar[tuple[Callable[[Any], None], ...]] = ()
    # per phase, its ply (None: the phase has none): a listed action of the phase applied and
    # the next actor asked in one generated function, which says False for a kind the phase
    # does not have (apply_action then refuses it)
    PLY: ClassVar[tuple[Callable[[Any, Action], bool] | None, ...]] = ()
    LEGAL: ClassVar[tuple[Callable[[Any, int, list[Action], bool], None] | None, ...]] = ()
    APPLY: ClassVar[dict[tuple[int, int], Callable[[Any, Action], str | None]]] = {}
    # per action kind: the positions of its card parameters, and the function that says which
    # copies of the named cards applying the action would take (None: no card parameters)
    CARD_PARAMS: ClassVar[tuple[tuple[int, ...], ...]] = ()
    # per action kind: a bit per parameter declared `announced`, which every player reads
    ANNOUNCED: ClassVar[tuple[int, ...]] = ()
    PICK: ClassVar[tuple[Callable[[Any, Action], tuple[int, ...] | None] | None, ...]] = ()
    ENCODING: ClassVar[tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = ()
    ACTION_NAMES: ClassVar[tuple[str, ...]] = ()
    _ARG_RANGES: ClassVar[tuple[tuple[range, ...], ...] | None] = None
    _HANDLERS: ClassVar[
        tuple[tuple[Callable[[Any, Action], str | None] | None, ...], ...] | None] = None
    # What a listing of actions has worked out about copies (GameState._list_actions)
    _memo: _ListingMemo | None = None
    _listing = False

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
    # `reveal X to p`: per card shown to some players only, a bit per player (1 << p); a card
    # loses its bits when it moves. Only cards shown so are keys: most games never have one.
    card_shown: dict[int, int]
    # `call P`: the phases to come back to, innermost last (`return` resumes the last)
    calls: list[int]
    # `responders`: per phase with one, the player it starts from and the turn-order offset
    # from there of the last who answered (0: nobody yet); the window of a phase that called
    # another is kept under -1 - its place in `calls` until the call returns
    windows: dict[int, list[int]]

    def init_runtime(self, seed: int, players: int, slots: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            # new_game has checked the count: 4.0 passes `4 <= players <= 6`, and True is 1
            raise ValueError(f"{self.GAME} takes a whole number of players, not {players!r}")
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
        self.card_shown = {}
        self.calls = []
        self.windows = {}

    # ---- the public API (DESIGN.md §4)
    def clone(self) -> Self:
        """An independent copy; each generated game writes its own."""
        raise NotImplementedError

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.actor

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0] * self.num_players

    def begin(self, setup: Callable[[Any], None]) -> None:
        """Set the game up and go on to its first decision (new_game)."""
        try:
            setup(self)
            self.advance()
        except RULE_FAULTS as error:
            raise rule_fault(error, type(self).__module__) from error

    def legal_actions(self) -> list[Action]:
        if self.result is not None or self.actor < 0:
            return []
        out: list[Action] = []
        legal = self.LEGAL[self.phase]
        if legal is not None:  # _list_actions, written out: a playout lists at every ply
            self._listing = True
            try:
                legal(self, self.actor, out, True)
            except RULE_FAULTS as error:  # a rule that divides by 0 or reads past a list
                raise rule_fault(error, type(self).__module__) from error
            finally:
                self._listing = False
                if self._memo is not None:
                    self._memo = None
        if self.SEAT_NAMES:
            self._seat(out)
        return out

    def _seat(self, out: list[Action]) -> None:
        """Make the listed actions read with the seat names of the count played: the
        generated tables of actions are shared by every count, and their texts take the
        names (`seats`) where a game names its seats per count."""
        seats = self.seats()
        texts = _SEATED_TEXTS.setdefault(seats, {})
        for i, action in enumerate(out):
            # the generated text functions of such a game take `seats` (pygen_actions)
            text: Callable[..., str] = action.text_function()
            seated = texts.get(text)
            if seated is None:
                seated = texts[text] = partial(text, seats=seats)
            out[i] = type(action)(action.kind, action.actor, action.args, seated, action.names)

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
        if self.SEAT_NAMES:
            self._seat(out)

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
        phase = self.phase
        try:
            if type(action) is self.LISTED and action.actor == self.actor:
                ply = self.PLY[phase]
                if ply is not None and ply(self, action):
                    return
                # made by a listing: well formed, so only the rules need asking (Listed)
                handler = (self._HANDLERS or self._handlers())[phase][action.kind]
                if handler is None:
                    raise IllegalAction(
                        f"'{self._shown(action)}' is not possible in phase {self.PHASES[phase]}")
            else:
                handler = self._checked_handler(action)
            reason = handler(self, action)
            if reason is not None:
                raise IllegalAction(reason)
            checkpoint = self.PHASE_CHECKPOINTS[phase]
            if checkpoint is not None:
                checkpoint(self, action.actor)
            self.advance()
        except RULE_FAULTS as error:  # a rule that divides by 0 or reads past a list
            raise rule_fault(error, type(self).__module__) from error

    def _checked_handler(self, action: Action) -> Callable[[Any, Action], str | None]:
        """The handler of an action that may have been made by hand, once its shape is
        checked: a player out of turn, a kind the phase does not have and malformed arguments
        are each refused with their own reason."""
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
        return handler

    @classmethod
    def _handlers(cls) -> tuple[tuple[Callable[[Any, Action], str | None] | None, ...], ...]:
        """APPLY as a table per phase, indexed by kind: no key to build for each action."""
        handlers = cls.__dict__.get("_HANDLERS")
        if handlers is None:
            handlers = tuple(tuple(cls.APPLY.get((phase, kind))
                                   for kind in range(len(cls.ACTION_NAMES)))
                             for phase in range(len(cls.PHASES)))
            cls._HANDLERS = handlers
        return handlers

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
        if who in self.seats()[: self.num_players] and who != self.player_name(self.actor):
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

    def call(self, phase: int) -> None:
        """`call P`: go to P, and come back to this phase when P returns."""
        if self.phase < 0:
            raise RuleError("'call' needs a phase to come back to")
        window = self.windows.get(self.phase)
        if window is not None:
            # kept for the return, the same list (the actor who called from the window has
            # answered it once the action ends): the call may open this phase's window anew
            self.windows[-1 - len(self.calls)] = window
        self.calls.append(self.phase)
        self.pending = phase

    def back(self) -> None:
        """`return`: resume the phase that called this one; a pending number below -1 says so
        (-2 - phase), and the phase loop resumes it without its `on enter`."""
        if not self.calls:
            raise RuleError(f"phase {self.PHASES[self.phase]} returns, but no 'call' entered it")
        caller = self.calls.pop()
        window = self.windows.pop(-1 - len(self.calls), None)
        if window is not None:  # the caller's window goes on where it was
            self.windows[caller] = window
        self.pending = -2 - caller

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
        checkpoints = self.CHECKPOINTS  # most games have none: no call to run them
        if checkpoints:
            self.run_checkpoints()
        if self.pending == -1 and self.result is None:
            # most actions leave the phase as it is: its actor is asked without the loop
            actor_of = self.ACTOR[self.phase]
            if actor_of is not None:
                actor = actor_of(self)
                if actor is not None:
                    if self.OUT_FIELD:
                        self._refuse_out(actor)
                    self.actor = actor
                    return
                self._phase_done(checkpoints)
        self.follow()

    def phase_over(self) -> None:
        """advance() once a generated ply has found that the phase has nobody to act."""
        self._phase_done(self.CHECKPOINTS)
        self.follow()

    def follow(self) -> None:
        """The phase loop of advance(), after its checkpoints (which a generated ply runs
        itself): gotos and automatic phases, until a player must act or the game is over."""
        checkpoints = self.CHECKPOINTS
        for _ in range(10_000):
            if self.result is not None:
                self.actor = TERMINAL
                return
            phase = self.pending
            if phase >= 0:
                self.phase, self.pending = phase, -1
                enter = self.ENTER[phase]
                if enter is not None:
                    enter(self)
                    if checkpoints:
                        self.run_checkpoints()
                if self.WINDOW_START:
                    self._open_window(phase)
                continue
            if phase < -1:  # a `return`: the caller goes on where it was
                self.phase, self.pending = -2 - phase, -1
                continue
            actor_of = self.ACTOR[self.phase]
            actor = actor_of(self) if actor_of is not None else None
            if actor is not None:
                if self.OUT_FIELD:
                    self._refuse_out(actor)
                self.actor = actor
                return
            self._phase_done(checkpoints)
        raise RuleError("the rules loop through phases without anyone acting")

    def _refuse_out(self, actor: int) -> None:
        if getattr(self, self.OUT_FIELD)[actor]:
            raise RuleError(f"phase {self.PHASES[self.phase]} asks {self.player_name(actor)} "
                            "to act, who is out")

    def _open_window(self, phase: int) -> None:
        """Entering a phase with `responders` opens its window afresh (after `on enter`,
        which may set who it starts from)."""
        start = self.WINDOW_START[phase]
        if start is not None and self.result is None:
            self.windows[phase] = [start(self), 0]

    def responder(self, phase: int, where: Callable[[Any, int], bool] | None) -> int | None:
        """The player to answer a `responders` window: the next in turn order after the last
        who answered (after the start, at first) for whom `where` holds; None once every
        other player has had the chance. Priority is turn order: each acts before the next
        is asked, so an answer (a challenge) can close the window for the rest."""
        window = self.windows.get(phase)
        if window is None:
            return None
        start, answered = window
        players = self.num_players
        # offset `players` is the starting player again, asked last by `responders all`
        for offset in range(answered + 1, players + (phase in self.WINDOW_LAST)):
            player = (start + offset) % players
            if where is None or where(self, player):
                return player
        return None

    def answered(self, phase: int, actor: int) -> None:
        """`actor` acted in the window: the players before them in it had their chance."""
        window = self.windows.get(phase)
        if window is not None:
            # the starting player acts in a window only last (`responders all`)
            window[1] = max(window[1], (actor - window[0]) % self.num_players or self.num_players)

    def _phase_done(self, checkpoints: tuple[Callable[[Any], None], ...]) -> None:
        """The current phase has nobody to act: its `on done` must lead on."""
        phase = self.phase
        done = self.DONE[phase]
        if done is not None:
            done(self)
            if checkpoints:
                self.run_checkpoints()
        if self.pending == -1 and self.result is None:
            raise RuleError(f"phase {self.PHASES[phase]} has nobody to act and no way on")

    # ---- cards and zones
    def create(self, definition: int, slot: int) -> int:
        card = len(self.card_def)
        self.card_def.append(definition)
        owner = self.SLOT_OWNER[slot]
        self.card_owner.append(owner if owner > 0 else 0)
        self.card_zone.append(slot)
        self.card_up.append(False)
        self.card_home.append(slot)
        self.init_card()
        zone = self.zones[slot]
        capacity = self.SLOT_CAPACITY[slot]
        if 0 <= capacity <= len(zone):
            raise RuleError(f"zone {self.slot_name(slot)} is full ({capacity})")
        zone.append(card)
        return card

    def init_card(self) -> None:
        """Generated games with 'per card' fields append each field's default here."""

    def move(self, card: int, slot: int, top: bool = False) -> None:
        zones = self.zones
        card_zone = self.card_zone
        zones[card_zone[card]].remove(card)
        self.card_up[card] = False
        shown = self.card_shown
        if shown:
            shown.pop(card, None)
        zone = zones[slot]
        capacity = self.SLOT_CAPACITY[slot]
        if 0 <= capacity <= len(zone):
            raise RuleError(f"zone {self.slot_name(slot)} is full ({capacity})")
        if top:
            zone.insert(0, card)
        else:
            zone.append(card)
        card_zone[card] = slot

    def move_uncapped(self, card: int, slot: int) -> None:
        """move() to the end of a slot of a zone without a capacity, which the code generator
        knows: such a slot is never full, so there is nothing to test (every game moves cards
        often; Dynasties moves about 240 a game)."""
        card_zone = self.card_zone
        zones = self.zones
        zones[card_zone[card]].remove(card)
        self.card_up[card] = False
        shown = self.card_shown
        if shown:
            shown.pop(card, None)
        zones[slot].append(card)
        card_zone[card] = slot

    def move_all(self, cards: Iterable[int], slot: int, top: bool = False) -> None:
        moving = list(cards)
        if top:
            moving.reverse()
        move = self.move_uncapped if self.SLOT_CAPACITY[slot] < 0 and not top else None
        for card in moving:
            if move is not None:
                move(card, slot)
            else:
                self.move(card, slot, top)

    def draw(self, count: int, source: int, slot: int) -> None:
        pile = self.zones[source]
        move = self.move_uncapped if self.SLOT_CAPACITY[slot] < 0 else self.move
        for _ in range(min(count, len(pile))):
            move(pile[0], slot)

    def reveal(self, cards: Iterable[int]) -> None:
        for card in cards:
            self.card_up[card] = True

    def show(self, cards: Iterable[int], players: int) -> None:
        """`reveal X to p`: the cards are shown to the players whose bits are set in
        `players` (1 << p; a team would set several), until each card moves."""
        shown = self.card_shown
        for card in cards:
            shown[card] = shown.get(card, 0) | players

    # ---- players and stored values as the rules name them
    def seats(self) -> tuple[str, ...]:
        """The seat names of the count played, then the largest count's names it lacks, to a
        name per seat of PLAYER_NAMES (tables indexed by seat keep their shape, and the slots
        of the seats not played keep distinct names)."""
        names = self.SEAT_NAMES.get(self.num_players)
        if names is None:
            return self.PLAYER_NAMES
        spare = tuple(name for name in self.PLAYER_NAMES if name not in names)
        return (names + spare)[: len(self.PLAYER_NAMES)]

    def seat(self, index: int) -> int:
        """A seat the rules name that games of fewer players lack: refused by its name in a
        game without it (its zones exist, unused, and its fields do not)."""
        if index >= self.num_players:
            raise RuleError(f"the rules name {self.seats()[index]}, who is not a seat of "
                            f"{self.num_players} players")
        return index

    def slot_name(self, slot: int) -> str:
        """A zone slot's path (`hand.North`) with the seat names of the count played."""
        name = self.SLOT_NAMES[slot]
        if not self.SEAT_NAMES:
            return name
        seats, table = self.seats(), self.PLAYER_NAMES
        return ".".join(seats[table.index(part)] if part in table else part
                        for part in name.split("."))

    def player_name(self, player: int) -> str:
        if 0 <= player < len(self.PLAYER_NAMES):
            return self.seats()[player]
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


class _ListingMemo:
    """What one listing of actions works out about copies, while the state cannot change:
    copy_args by domain, same_choice by pair of cards, and the cards that fields hold."""

    __slots__ = ("copies", "alike", "held")

    def __init__(self) -> None:
        self.copies: dict[tuple[int, ...], tuple[list[int], Mapping[int, str]]] = {}
        self.alike: dict[tuple[int, int], bool] = {}
        self.held: set[Any] | None = None
