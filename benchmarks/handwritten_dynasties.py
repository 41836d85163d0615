"""Alan Newman's Dynasties, written by hand.

This module is the baseline that the benchmarks compare Rulecraft's generated
``generated/dynasties.py`` against. It implements the same API and the same rule
decisions, in plain idiomatic Python with the standard library only.

Players are A (0) and B (1). Placements are secret in the real game; here they are
played as commits in turn order (A's five tiles, then B's five tiles).

It is meant to be what a competent engineer writes, so that the benchmark's comparison is fair
(issue 12). The choices that matter for speed, and why they are the usual ones:

- ``Action`` is a plain class with ``__slots__`` that compares by value: a listing creates one
  object per legal move, so creation must be cheap, and a move built by hand or read from
  text must still be recognised.
- ``legal_actions()`` keeps the list it made until the state changes, and ``apply_action``
  validates a move from that list by identity: the engine does not list the moves twice per
  ply, yet still refuses anything that is not legal now.
- The state is dictionaries and lists keyed by province and tile names, with small dataclasses
  for provinces and players, and rules as methods: the readable way to write these rules.
  Tiles stay strings ("3", "+1", "Plague") because they are what players read; the few numbers
  are worked out where a battle needs them, five times a dynasty.
- No tables are precomputed and no objects pooled beyond that: such tricks are what the code
  generator is for, and a hand-written engine that used them everywhere would no longer be
  the code a person writes and maintains by hand.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

TERMINAL = -4

PLAYER_NAMES = ("A", "B")

# Province order, used for setup, resolution shuffles and every tie break.
PROVINCES = ("mongolia", "qinghai", "mandarin", "xinjiang", "tibet")

NEIGHBOURS: dict[str, tuple[str, ...]] = {
    "xinjiang": ("mongolia", "qinghai", "tibet"),
    "tibet": ("xinjiang", "qinghai", "mandarin"),
    "qinghai": ("xinjiang", "tibet", "mongolia", "mandarin"),
    "mongolia": ("xinjiang", "qinghai", "mandarin"),
    "mandarin": ("mongolia", "qinghai", "tibet"),
}

BASIC_TILES = ("1", "2", "3", "4", "5", "6")
EXTRA_TILES = ("7", "8", "9", "10", "+1", "-1", "Plague", "Plague")
ADVANCED_EXTRA_TILES = ("+2", "+3")
PLAGUE = "Plague"

# Armies that must be paid (and leave the game) when a tile is revealed.
TILE_COSTS = {"+2": 1, "+3": 2}

STARTING_RESERVE = 21
ADVANCED_STARTING_RESERVE = 18

WARLORDS = ("sun_tzu", "king_shao", "cao_cao", "zhuge_liang")

LAST_DYNASTY = 9
SCORING_DYNASTIES = (3, 6, 9)
SUDDEN_WIN_MARGIN = 9
MAX_DISCARDS = 3

# Score ranges rolled at setup for dynasties 3, 6 and 9.
SCORE_RANGES = ((1, 3), (2, 4), (3, 5))


class IllegalAction(Exception):
    """Raised by ``State.apply_action`` when the action is not legal now."""


class Action:
    """One decision. ``kind`` is one of: place, keep, choose, warlord, hold, discard, pass.

    A plain class with slots: a playout makes an action object for every choice it lists, so
    creating one must be cheap (a frozen dataclass sets each field through
    ``object.__setattr__``, which cost 30% of a playout). Actions compare and hash by value,
    so an action built by hand or parsed from text is recognised as the legal one it equals.
    """

    __slots__ = ("player", "kind", "tile", "province", "warlord")

    def __init__(
        self, player: int, kind: str, tile: str = "", province: str = "", warlord: str = ""
    ) -> None:
        self.player = player
        self.kind = kind
        self.tile = tile
        self.province = province
        self.warlord = warlord

    def _key(self) -> tuple[int, str, str, str, str]:
        return (self.player, self.kind, self.tile, self.province, self.warlord)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Action({self})"

    def __str__(self) -> str:
        who = PLAYER_NAMES[self.player]
        if self.kind == "place":
            return f"{who} places {self.tile} on {self.province}"
        if self.kind == "keep":
            return f"{who} keeps {self.tile}"
        if self.kind == "choose":
            return f"{who} chooses {self.warlord}"
        if self.kind == "warlord":
            return f"{who} plays warlord on {self.province}"
        if self.kind == "hold":
            return f"{who} holds warlord"
        if self.kind == "discard":
            return f"{who} discards {self.tile} for an army"
        return f"{who} passes"


@dataclass
class Province:
    owner: int | None = None
    armies: int = 0
    # markers[p] is True once player p has played their 6 here.
    markers: list[bool] = field(default_factory=lambda: [False, False])
    # Score for dynasties 3, 6 and 9.
    scores: tuple[int, int, int] = (0, 0, 0)

    def copy(self) -> Province:
        return Province(self.owner, self.armies, list(self.markers), self.scores)


@dataclass
class Player:
    reserve: int
    deck: list[str]
    rack: list[str] = field(default_factory=list)  # extra tiles held; basics are implicit
    placed: dict[str, str] = field(default_factory=dict)  # province -> tile, this dynasty
    drawn: list[str] = field(default_factory=list)
    keeps_left: int = 0
    warlord: str | None = None
    warlord_used: bool = False
    warlord_target: str | None = None  # province chosen this dynasty
    discards_used: int = 0

    def copy(self) -> Player:
        return Player(
            reserve=self.reserve,
            deck=list(self.deck),
            rack=list(self.rack),
            placed=dict(self.placed),
            drawn=list(self.drawn),
            keeps_left=self.keeps_left,
            warlord=self.warlord,
            warlord_used=self.warlord_used,
            warlord_target=self.warlord_target,
            discards_used=self.discards_used,
        )

    def uses_warlord(self, warlord: str, province: str) -> bool:
        return self.warlord == warlord and self.warlord_target == province


def is_number(tile: str) -> bool:
    return tile.isdigit()


def modifier(tile: str) -> int:
    """The k of a +k tile, or -1 for the -1 tile."""
    return int(tile)


def tile_value(mine: str, theirs: str) -> int:
    """Battle value of ``mine`` when played against ``theirs`` (neither is a Plague)."""
    if is_number(mine):
        return int(mine)
    if is_number(theirs):
        return int(theirs) + modifier(mine)
    # Both are modifiers: a plus counts as its k, the -1 as 0.
    return modifier(mine) if mine.startswith("+") else 0


class State:
    def __init__(self, seed: int, warlords: bool) -> None:
        self.rng = random.Random(seed)
        self.warlords = warlords
        self.dynasty = 0
        self.phase = "setup"
        self.to_move = 0
        self.track = 0
        self.result: list[float] | None = None
        self.provinces: dict[str, Province] = {name: Province() for name in PROVINCES}
        self.players: list[Player] = []
        # The actions legal_actions() last listed for this state, kept until the state
        # changes: validating a move that came from that list is then an identity test,
        # not a second listing.
        self._legal: list[Action] | None = None
        self._setup()

    # ----------------------------------------------------------------- setup

    def _setup(self) -> None:
        reserve = ADVANCED_STARTING_RESERVE if self.warlords else STARTING_RESERVE
        for _ in PLAYER_NAMES:
            deck = list(EXTRA_TILES)
            if self.warlords:
                deck.extend(ADVANCED_EXTRA_TILES)
            self.rng.shuffle(deck)
            self.players.append(Player(reserve=reserve, deck=deck))
        for name in PROVINCES:
            rolls = [self.rng.randint(low, high) for low, high in SCORE_RANGES]
            self.provinces[name].scores = (rolls[0], rolls[1], rolls[2])
        if self.warlords:
            self.phase = "choose_warlord"
            self.to_move = 0
        else:
            self._start_dynasty(1)

    # ------------------------------------------------------------ public API

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.to_move

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0, 0.0]

    def clone(self) -> State:
        other = State.__new__(State)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.warlords = self.warlords
        other.dynasty = self.dynasty
        other.phase = self.phase
        other.to_move = self.to_move
        other.track = self.track
        other.result = list(self.result) if self.result is not None else None
        other.provinces = {name: p.copy() for name, p in self.provinces.items()}
        other.players = [p.copy() for p in self.players]
        other._legal = self._legal  # actions are immutable, and the states are equal
        return other

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._list_legal_actions()
        return list(self._legal)  # a copy: the caller may change its list, not our record

    def _list_legal_actions(self) -> list[Action]:
        if self.result is not None:
            return []
        me = self.to_move
        player = self.players[me]
        if self.phase == "choose_warlord":
            return [Action(me, "choose", warlord=w) for w in WARLORDS]
        if self.phase == "placement":
            return self._placement_actions(me)
        if self.phase == "warlord":
            actions = []
            if not player.warlord_used:
                actions = [Action(me, "warlord", province=p) for p in PROVINCES]
            actions.append(Action(me, "hold"))
            return actions
        if self.phase == "keep":
            return [Action(me, "keep", tile=t) for t in unique(player.drawn)]
        if self.phase == "discard":
            actions = []
            if player.discards_used < MAX_DISCARDS:
                actions = [Action(me, "discard", tile=t) for t in unique(player.rack)]
            actions.append(Action(me, "pass"))
            return actions
        raise AssertionError(f"unknown phase {self.phase}")

    def apply_action(self, action: Action) -> None:
        if self.result is not None:
            raise IllegalAction("the game is over")
        if not self._is_legal(action):
            raise IllegalAction(f"{action} is not legal now")
        self._legal = None
        player = self.players[action.player]
        if action.kind == "choose":
            player.warlord = action.warlord
            self._next_player_or(lambda: self._start_dynasty(1))
        elif action.kind == "place":
            self._place(action)
        elif action.kind in ("warlord", "hold"):
            if action.kind == "warlord":
                player.warlord_used = True
                player.warlord_target = action.province
            self._next_player_or(self._start_draw)
        elif action.kind == "keep":
            self._keep(action)
        elif action.kind in ("discard", "pass"):
            if action.kind == "discard":
                player.rack.remove(action.tile)
                player.reserve += 1
                player.discards_used += 1
            self._next_player_or(self._resolve_dynasty)

    def _is_legal(self, action: Action) -> bool:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal_actions()
        for candidate in legal:  # an action taken from the listing: found by identity
            if candidate is action:
                return True
        return action in legal

    # --------------------------------------------------------------- phases

    def _next_player_or(self, then: Callable[[], None]) -> None:
        """Pass the turn from A to B, or after B run ``then``."""
        if self.to_move == 0:
            self.to_move = 1
        else:
            then()

    def _start_dynasty(self, dynasty: int) -> None:
        self.dynasty = dynasty
        for player in self.players:
            player.placed = {}
            player.warlord_target = None
        self.phase = "placement"
        self.to_move = 0

    def _placement_actions(self, me: int) -> list[Action]:
        player = self.players[me]
        used = list(player.placed.values())
        tiles = [t for t in BASIC_TILES if t not in used]
        tiles.extend(unique(player.rack))
        actions = []
        for province in PROVINCES:
            if province in player.placed:
                continue
            for tile in tiles:
                if tile == "6" and self.provinces[province].markers[me]:
                    continue
                actions.append(Action(me, "place", tile=tile, province=province))
        return actions

    def _place(self, action: Action) -> None:
        player = self.players[action.player]
        player.placed[action.province] = action.tile
        if action.tile not in BASIC_TILES:
            player.rack.remove(action.tile)
        if len(player.placed) == len(PROVINCES):
            self._next_player_or(self._after_placement)

    def _after_placement(self) -> None:
        if self.warlords:
            self.phase = "warlord"
            self.to_move = 0
        else:
            self._start_draw()

    def _start_draw(self) -> None:
        for player in self.players:
            played_one = "1" in player.placed.values()
            count = 3 if played_one else 2
            keep = 2 if played_one else 1
            player.drawn = player.deck[:count]
            del player.deck[:count]
            player.keeps_left = min(keep, len(player.drawn))
        self.phase = "keep"
        self._next_keeper(0)

    def _next_keeper(self, start: int) -> None:
        for index in range(start, len(self.players)):
            if self.players[index].keeps_left > 0:
                self.to_move = index
                return
        if self.warlords:
            self.phase = "discard"
            self.to_move = 0
        else:
            self._resolve_dynasty()

    def _keep(self, action: Action) -> None:
        player = self.players[action.player]
        player.drawn.remove(action.tile)
        player.rack.append(action.tile)
        player.keeps_left -= 1
        if player.keeps_left == 0:
            player.deck.extend(player.drawn)
            player.drawn = []
            self._next_keeper(action.player + 1)

    # ----------------------------------------------------------- resolution

    def _resolve_dynasty(self) -> None:
        order = list(PROVINCES)
        self.rng.shuffle(order)
        for name in order:
            self._resolve_province(name)
        for player in self.players:
            # Basic tiles go back to the rack (they never left it); extras are gone.
            player.placed = {}
            player.warlord_target = None
        if self.dynasty in SCORING_DYNASTIES:
            self._score()
        if self.result is None:
            if self.dynasty == LAST_DYNASTY:
                self._finish(self.track)
            else:
                self._start_dynasty(self.dynasty + 1)

    def _resolve_province(self, name: str) -> None:
        province = self.provinces[name]
        tiles = [player.placed[name] for player in self.players]

        for index, tile in enumerate(tiles):
            cost = TILE_COSTS.get(tile, 0)
            if cost:
                self._pay(index, cost)

        for index, player in enumerate(self.players):
            if player.uses_warlord("cao_cao", name) and province.owner == index:
                player.reserve += province.armies
                self._set_armies(province, None, 0)

        if PLAGUE in tiles:
            for tile in tiles:
                if tile == PLAGUE:
                    self._plague(name)
        else:
            self._battle(name, tiles)

        for index, tile in enumerate(tiles):
            if tile == "6":
                self._place_marker(index, name)

    def _plague(self, name: str) -> None:
        province = self.provinces[name]
        owner = province.owner
        if owner is None or self.players[owner].uses_warlord("king_shao", name):
            return
        removed = province.armies // 2
        self.players[owner].reserve += removed
        self._set_armies(province, owner, province.armies - removed)

    def _battle(self, name: str, tiles: list[str]) -> None:
        values = [tile_value(tiles[0], tiles[1]), tile_value(tiles[1], tiles[0])]
        for index, player in enumerate(self.players):
            if player.uses_warlord("sun_tzu", name):
                values[index] += 2
            if player.uses_warlord("zhuge_liang", name):
                values[1 - index] -= 2
        if values[0] == values[1]:
            return
        winner = 0 if values[0] > values[1] else 1
        loser = 1 - winner
        difference = abs(values[0] - values[1])

        province = self.provinces[name]
        if province.owner == loser:
            if self.players[loser].uses_warlord("king_shao", name):
                return
            killed = min(difference, province.armies)
            difference -= killed
            self._set_armies(province, loser, province.armies - killed)
            if province.owner == loser:
                return
        if difference > 0:
            self._add_armies(winner, name, difference)

    def _add_armies(self, player_index: int, name: str, count: int) -> None:
        """Add armies from the reserve, then from the player's other provinces."""
        player = self.players[player_index]
        from_reserve = min(count, player.reserve)
        player.reserve -= from_reserve
        added = from_reserve
        missing = count - from_reserve
        if missing > 0:
            neighbours = list(NEIGHBOURS[name])
            others = [p for p in PROVINCES if p != name and p not in neighbours]
            for group in (neighbours, others):
                for source in self._own_provinces_by_size(player_index, group):
                    taken = min(missing, self.provinces[source].armies)
                    self._set_armies(
                        self.provinces[source], player_index, self.provinces[source].armies - taken
                    )
                    added += taken
                    missing -= taken
                    if missing == 0:
                        break
                if missing == 0:
                    break
        province = self.provinces[name]
        if added > 0:
            self._set_armies(province, player_index, province.armies + added)

    def _pay(self, player_index: int, cost: int) -> None:
        """Pay armies out of the game: reserve first, then the largest own provinces."""
        player = self.players[player_index]
        from_reserve = min(cost, player.reserve)
        player.reserve -= from_reserve
        missing = cost - from_reserve
        for source in self._own_provinces_by_size(player_index, list(PROVINCES)):
            if missing == 0:
                break
            province = self.provinces[source]
            taken = min(missing, province.armies)
            self._set_armies(province, player_index, province.armies - taken)
            missing -= taken

    def _place_marker(self, player_index: int, name: str) -> None:
        player = self.players[player_index]
        self.provinces[name].markers[player_index] = True
        if player.reserve > 0:
            player.reserve -= 1
            return
        sources = self._own_provinces_by_size(player_index, list(NEIGHBOURS[name]))
        if not sources:
            sources = self._own_provinces_by_size(player_index, list(PROVINCES))
        if sources:
            province = self.provinces[sources[0]]
            self._set_armies(province, player_index, province.armies - 1)

    def _own_provinces_by_size(self, player_index: int, names: list[str]) -> list[str]:
        """The player's provinces among ``names``, most armies first, ties by province order."""
        owned = [
            n
            for n in names
            if self.provinces[n].owner == player_index and self.provinces[n].armies > 0
        ]
        owned.sort(key=lambda n: (-self.provinces[n].armies, PROVINCES.index(n)))
        return owned

    @staticmethod
    def _set_armies(province: Province, owner: int | None, armies: int) -> None:
        province.armies = armies
        province.owner = owner if armies > 0 else None

    # --------------------------------------------------------------- scoring

    def _score(self) -> None:
        column = SCORING_DYNASTIES.index(self.dynasty)
        totals = [0, 0]
        for province in self.provinces.values():
            if province.owner is not None and province.armies > 0:
                totals[province.owner] += province.scores[column]
        self.track += totals[0] - totals[1]
        if self.dynasty < LAST_DYNASTY and abs(self.track) >= SUDDEN_WIN_MARGIN:
            self._finish(self.track)

    def _finish(self, track: int) -> None:
        if track > 0:
            self.result = [1.0, -1.0]
        elif track < 0:
            self.result = [-1.0, 1.0]
        else:
            self.result = [0.0, 0.0]
        self.phase = "over"


def unique(tiles: list[str]) -> list[str]:
    """Tiles without repeats, in first-seen order (two Plagues are offered once)."""
    return list(dict.fromkeys(tiles))


def new_game(
    seed: int = 0,
    players: int = 2,
    options: dict[str, object] | None = None,
    decks: object = None,
) -> State:
    """Start a game. ``decks`` is accepted for API compatibility and ignored."""
    if players != 2:
        raise ValueError("Dynasties is a two-player game")
    warlords = bool((options or {}).get("warlords", False))
    return State(seed, warlords)


def random_playout(seed: int, warlords: bool) -> int:
    """Play one game with uniformly random legal actions; return the number of plies."""
    chooser = random.Random(seed)
    state = new_game(seed=seed, options={"warlords": warlords})
    plies = 0
    while not state.is_terminal():
        state.apply_action(chooser.choice(state.legal_actions()))
        plies += 1
    return plies


if __name__ == "__main__":
    GAMES = 200
    for advanced in (False, True):
        start = time.perf_counter()
        total_plies = 0
        for game_seed in range(GAMES):
            plies = random_playout(game_seed, advanced)
            assert plies > 0
            total_plies += plies
        elapsed = time.perf_counter() - start
        variant = "warlords" if advanced else "basic"
        print(
            f"{variant}: {GAMES} games, {total_plies / GAMES:.1f} plies/game, "
            f"{GAMES / elapsed:.1f} playouts/s"
        )
