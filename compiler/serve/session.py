"""One game being played: its state, its moves, who sits where, and what each seat may do.

Every seat's knowledge comes from the module's `observation(seat)` and `action_text(action,
seat)`; every move is one of `legal_actions()` and goes through `apply_action`, so the engine
decides what is legal and a refused move changes nothing. Seats are reached by tokens
(`secrets.token_urlsafe`): one per seat with links, one for the shared device in hot-seat."""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from compiler import agents
from compiler.api import seat_count
from dsl.runtime_base import Action, IllegalAction, RuleError

HOTSEAT, LINKS = "hotseat", "links"
DEVICE = -1  # the seat a hot-seat token stands for: whoever holds the device
MAX_CHOICE = 32  # parameters an action may have, and more than a forged message needs
SAVE_FORMAT = "rulecraft-save-1"


class SessionError(Exception):
    """A request the game refuses; the message is for the player."""


class RulesBroke(SessionError):
    """The rules broke setting the game up: not a wrong request, but rules to fix (exit 1, as
    simulate and play end on it)."""


@dataclass(frozen=True)
class Move:
    action: Action
    texts: tuple[str, ...]  # the move as each seat reads it (action_text), by seat
    by_bot: bool


def seat_names(game: ModuleType, players: int, options: dict[str, object],
               decks: list[str] | None) -> list[str]:
    """The names of the seats of a game of `players` (a count may name its seats its own way),
    or SessionError with new_game's message when the count, options or decks do not fit."""
    try:
        state = game.new_game(seed=0, players=players, options=options, decks=decks)
    except RuleError as error:  # the rules' own error, whatever was asked
        raise RulesBroke(f"setup failed: {error}") from None
    except ValueError as error:
        raise SessionError(str(error)) from None
    return list(state.seats())[:players]


class Session:
    def __init__(self, game: ModuleType, name: str, *, seed: int = 0, seats: str = HOTSEAT,
                 bots: frozenset[int] = frozenset(), options: dict[str, object] | None = None,
                 decks: list[str] | None = None, bot: str = "random",
                 players: int | None = None) -> None:
        if seats not in (HOTSEAT, LINKS):
            raise SessionError(f"--seats must be {HOTSEAT} or {LINKS}, not {seats!r}")
        self.game = game
        self.name = name
        self.seed = seed
        self.seats = seats
        self.options = dict(options or {})
        self.decks = decks
        self.players = seat_count(game, players, self.options)
        self.state: Any = self.new_state()
        # the seat names of the count played (a count may name its seats its own way)
        self.names: list[str] = list(self.state.seats())[: self.players]
        if any(b < 0 or b >= len(self.names) for b in bots):
            raise SessionError("a bot seat that the game does not have")
        if len(bots) == len(self.names):
            raise SessionError("every seat is a bot: leave one to a player")
        self.bots = bots
        try:
            self.agent = agents.make(bot)
        except agents.AgentError as error:
            raise SessionError(f"--bot: {error}") from None
        self.bot = bot
        self.tokens: dict[str, int] = {}
        if seats == HOTSEAT:
            self.tokens[secrets.token_urlsafe(24)] = DEVICE
        else:
            for seat in range(len(self.names)):
                if seat not in bots:
                    self.tokens[secrets.token_urlsafe(24)] = seat
        self.version = 0
        self.moves: list[Move] = []
        self._play_bots()
        self.shown = self._human_to_act()
        self.revealed = True

    # ---- seats
    def seat_of(self, token: str) -> int | None:
        """The seat a token stands for (DEVICE in hot-seat), None for an unknown token:
        compared in constant time, so that a guess learns nothing from the time taken."""
        found = None
        for known, seat in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def viewer(self, seat: int) -> int:
        """Whose eyes a token's page has now: its seat, or in hot-seat the seat shown."""
        return self.shown if seat == DEVICE else seat

    def passing(self, seat: int) -> bool:
        """Whether a hot-seat device shows the "pass the device" screen."""
        return seat == DEVICE and not self.revealed

    def _human_to_act(self) -> int:
        player = int(self.state.current_player())
        if 0 <= player < len(self.names) and player not in self.bots:
            return player
        return self.shown_or_first()

    def shown_or_first(self) -> int:
        current = getattr(self, "shown", None)
        if isinstance(current, int):
            return current
        return next(s for s in range(len(self.names)) if s not in self.bots)

    def reveal(self, seat: int) -> None:
        if seat != DEVICE:
            raise SessionError("only the shared device passes between seats")
        self.revealed = True
        self.version += 1

    def show_seat(self, seat: int, wanted: int) -> None:
        """After the game, the device may show any human seat's view, for the replay."""
        if seat != DEVICE or not self.state.is_terminal():
            raise SessionError("the seats' views change hands only after the game, in hot-seat")
        if wanted not in range(len(self.names)) or wanted in self.bots:
            raise SessionError("no such player seat")
        self.shown = wanted
        self.version += 1

    # ---- moves
    def legal_for(self, seat: int) -> list[Action]:
        """The moves a page may offer: the acting seat's, when that page shows it."""
        if self.state.is_terminal() or self.passing(seat):
            return []
        viewer = self.viewer(seat)
        if int(self.state.current_player()) != viewer:
            return []
        return [a for a in self.state.legal_actions() if a.actor == viewer]

    def act(self, seat: int, choice: object, *, bots: bool = True) -> Move:
        """Play the move [kind, *args] for a seat: one of its legal moves, applied by the
        engine; anything else is refused with the reason and changes nothing. Then the bots
        play their moves, unless `bots` is False: the server plays them itself, off its
        event loop (next_bot_move in a worker thread), so that a searching bot blocks no
        page."""
        if (not isinstance(choice, list) or not 1 <= len(choice) <= MAX_CHOICE
                or not all(type(x) is int for x in choice)):
            raise SessionError("a move is a list of whole numbers: its kind and arguments")
        if self.state.is_terminal():
            raise SessionError("the game is over")
        if self.passing(seat):
            raise SessionError(f"pass the device to {self.names[self.shown]} first")
        viewer = self.viewer(seat)
        actor = int(self.state.current_player())
        if actor != viewer:
            raise SessionError(f"it is not your turn: {self.names[actor]} is to act")
        kind, args = choice[0], tuple(choice[1:])
        found = next((a for a in self.legal_for(seat) if a.kind == kind and a.args == args),
                     None)
        if found is None:
            raise SessionError("that move is not one of your legal moves now")
        move = self._apply(found, by_bot=False)
        if bots:
            self._play_bots()
        self._after_change()
        return move

    def _apply(self, action: Action, *, by_bot: bool) -> Move:
        texts = tuple(self.state.action_text(action, seat) for seat in range(len(self.names)))
        try:
            self.state.apply_action(action)
        except IllegalAction as error:
            raise SessionError(f"the rules refuse that move: {error}") from None
        except RuleError as error:  # the rules reached a state they do not define
            # the move is undone (apply_action changed the game as far as it got)
            self._rebuild([(m.action.kind, m.action.actor, m.action.args) for m in self.moves])
            raise SessionError(f"the rules broke on that move: {error}") from None
        move = Move(action, texts, by_bot)
        self.moves.append(move)
        return move

    def bot_to_act(self) -> bool:
        return not self.state.is_terminal() and int(self.state.current_player()) in self.bots

    def next_bot_move(self, state: Any, ply: int) -> Action:
        """The bot's move in `state` (a clone: the search may run in a worker thread while
        the pages read the game), from a generator per ply, so that the bot plays the same
        after an undo or a load."""
        action: Action = self.agent.step(state, random.Random(self.seed * 1_000_003 + ply))
        return action

    def play_bot_move(self, action: Action, ply: int) -> bool:
        """Play a bot's move found for the game at `ply` moves; False (and nothing played)
        when the game moved on meanwhile (an undo, a load)."""
        if ply != len(self.moves) or not self.bot_to_act():
            return False
        found = next((a for a in self.state.legal_actions() if a == action), None)
        if found is None:
            return False
        self._apply(found, by_bot=True)
        self._after_change()
        return True

    def _play_bots(self) -> None:
        while self.bot_to_act():
            ply = len(self.moves)
            self._apply(self.next_bot_move(self.state.clone(), ply), by_bot=True)

    def _after_change(self) -> None:
        self.version += 1
        if self.state.is_terminal():
            self.revealed = True
            return
        actor = int(self.state.current_player())
        if actor in self.bots:
            return  # the device stays with the seat shown while a bot thinks
        if actor != self.shown:
            self.shown = actor
            self.revealed = self.seats != HOTSEAT or len(self.names) - len(self.bots) < 2

    def new_state(self) -> Any:
        """This session's game at its start: its seed, count of players, options and decks."""
        try:
            return self.game.new_game(seed=self.seed, players=self.players, options=self.options,
                                      decks=self.decks)
        except RuleError as error:
            raise RulesBroke(f"setup failed: {error}") from None
        except ValueError as error:
            raise SessionError(str(error)) from None

    def _rebuild(self, actions: list[tuple[int, int, tuple[int, ...]]]) -> None:
        """The game from its start through these moves, each checked by the engine again."""
        self.state = self.new_state()
        self.moves = []
        for number, (kind, actor, args) in enumerate(actions, 1):
            found = next((a for a in self.state.legal_actions()
                          if (a.kind, a.actor, a.args) == (kind, actor, args)), None)
            if found is None:
                raise SessionError(f"move {number} is not legal in this game")
            self._apply(found, by_bot=actor in self.bots)

    def undo(self, seat: int, *, bots: bool = True) -> None:
        """Take back the last move a player made, and the bots' moves after it (hot-seat)."""
        if seat != DEVICE:
            raise SessionError("undo is for hot-seat games")
        humans = [i for i, m in enumerate(self.moves) if not m.by_bot]
        if not humans:
            raise SessionError("no move to take back")
        kept = [(m.action.kind, m.action.actor, m.action.args) for m in self.moves[:humans[-1]]]
        self._rebuild(kept)
        if bots:
            self._play_bots()
        self.shown = self._human_to_act()
        self.revealed = True
        self.version += 1

    # ---- save, load, replay
    def save(self, seat: int) -> str:
        """The game as JSON: the seed, options and decks, and every move (hot-seat only: the
        file tells every secret)."""
        if seat != DEVICE:
            raise SessionError("saving is for hot-seat games: a save shows every hidden card")
        return json.dumps({
            "format": SAVE_FORMAT, "game": self.name, "seed": self.seed,
            "players": self.players, "options": self.options, "decks": self.decks,
            "moves": [{"kind": m.action.kind, "actor": m.action.actor,
                       "args": list(m.action.args), "text": str(m.action)}
                      for m in self.moves]}, indent=1)

    def load(self, seat: int, text: str, *, bots: bool = True) -> None:
        """A saved game, replayed move by move through the engine: a file that does not
        fit this game is refused and the game in play stays as it was."""
        if seat != DEVICE:
            raise SessionError("loading is for hot-seat games")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise SessionError("not a saved game: the file is not JSON") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SessionError("not a saved game of rulecraft serve")
        if data.get("game") != self.name:
            raise SessionError(f"a saved game of {data.get('game')!r}, not of {self.name!r}")
        players = data.get("players", self.players)  # saves before it had no count
        if type(players) is not int:
            raise SessionError("a saved game's players is a number")
        if players != self.players:
            # the server seats its count for good: the save tells which to start it with
            raise SessionError(f"a saved game of {players} players, and this one seats "
                               f"{self.players}: start `rulecraft serve {self.name} --players "
                               f"{players}` to load it")
        moves = data.get("moves")
        seed, options, decks = data.get("seed"), data.get("options"), data.get("decks")
        if (type(seed) is not int or not isinstance(options, dict) or not isinstance(moves, list)
                or not (decks is None or isinstance(decks, list)
                        and all(isinstance(d, str) for d in decks))):
            raise SessionError("a saved game needs a seed, options, decks and moves")
        actions = []
        for move in moves:
            if not isinstance(move, dict):
                raise SessionError("each saved move is an object")
            kind, actor, args = move.get("kind"), move.get("actor"), move.get("args")
            if (type(kind) is not int or type(actor) is not int or not isinstance(args, list)
                    or not all(type(a) is int for a in args)):
                raise SessionError("each saved move has a kind, an actor and arguments")
            actions.append((kind, actor, tuple(args)))
        kept = (self.seed, self.options, self.decks, self.state, self.moves)
        self.seed, self.options, self.decks = seed, dict(options), decks
        try:
            self._rebuild(actions)
            if bots:
                self._play_bots()
        except SessionError:
            self.seed, self.options, self.decks, self.state, self.moves = kept
            raise
        self.shown = self._human_to_act()
        self.revealed = True
        self.version += 1

    def replay_state(self, step: int) -> Any:
        """The game after its first `step` moves, for the replay of a finished game."""
        if not self.state.is_terminal():
            raise SessionError("the replay opens when the game is over")
        step = max(0, min(step, len(self.moves)))
        state = self.new_state()
        for move in self.moves[:step]:
            state.apply_action(move.action)
        return state
