"""Every generated game as an OpenSpiel game (`pip install 'rulecraft[openspiel]'`).

    from compiler import openspiel_game
    import pyspiel
    openspiel_game.register_shipped()                 # rulecraft_dynasties, rulecraft_dojo, ...
    game = pyspiel.load_game("rulecraft_dynasties", {"seed": 3})

A game registers as a pyspiel Python game built from its module's INFO: the players, the action
ids of `state.action_id` (`num_distinct_actions` is the module's NUM_DISTINCT_ACTIONS), terminal
returns of +1/-1/0, and imperfect information when any zone or field is not public.

Chance: a generated game draws its shuffles and dice inside `apply_action`, from the state's own
seeded generator, so it has no chance nodes to expose. The game is declared SAMPLED_STOCHASTIC:
the i-th initial state of a game object is `new_game(seed=seed + i)`, and a clone carries the
generator with it, so the same actions from a clone replay the same draws.

Observations are strings, from `observation(player)` (JSON, keys sorted), which never shows what
the player may not see. The information state string adds the player's own past action ids; it
is not a perfect-recall information state (the observation does not remember a card shown once
and hidden again), so algorithms that rely on perfect recall (CFR) are out of scope."""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel

from compiler.api import shipped_games
from dsl.runtime import Action

PREFIX = "rulecraft_"
# no generated game states a bound on its length; OpenSpiel asks for one
MAX_GAME_LENGTH = 100_000
_REGISTERED: dict[str, ModuleType] = {}


def imperfect(module: ModuleType) -> bool:
    """Whether some player may not see part of the state: a zone or a field not public."""
    state = module.State
    seen = set(state.SLOT_VISIBILITY)
    for table in ("GAME_FIELDS", "PLAYER_FIELDS", "CARD_FIELDS", "TEAM_FIELDS"):
        for entry in getattr(state, table, ()) or ():
            seen.add(getattr(entry, "visibility", "public"))
    return bool(seen - {"public"})


def game_type(module: ModuleType, short_name: str) -> Any:
    low, high = module.INFO["players"]
    # players 0: the fewest the options seat (pyspiel passes every default, so a default
    # count could not be told from one asked for; teams of two seat no fewer than four)
    params: dict[str, Any] = {"seed": 0, "players": 0, "decks": ""}
    for name, default in module.INFO["options"].items():
        params[name] = default  # an enum option by its member's name, as on the command line
    information = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if imperfect(module)
                   else pyspiel.GameType.Information.PERFECT_INFORMATION)
    # with two players a result is a win and a loss, or a draw; with more, teams may all lose
    utility = (pyspiel.GameType.Utility.ZERO_SUM if high == 2
               else pyspiel.GameType.Utility.GENERAL_SUM)
    return pyspiel.GameType(
        short_name=short_name, long_name=f"Rulecraft {module.INFO.get('title', short_name)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=information, utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification=params)


def register(module: ModuleType, short_name: str | None = None) -> str:
    """Register a generated module as a pyspiel game; returns its short name
    (`rulecraft_<game>` by default). Registering a name twice keeps the first."""
    name = short_name or PREFIX + module.INFO["name"]
    if name in _REGISTERED:
        return name
    kind = game_type(module, name)

    class Game(RulecraftGame):
        MODULE = module
        TYPE = kind

    pyspiel.register_game(kind, Game)
    _REGISTERED[name] = module
    return name


def register_shipped() -> list[str]:
    """Register every game of generated/; returns their short names."""
    return [register(importlib.import_module(f"generated.{name}")) for name in shipped_games()]


class RulecraftGame(pyspiel.Game):  # type: ignore[misc]
    MODULE: ModuleType
    TYPE: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        module = self.MODULE
        values = dict(self.TYPE.parameter_specification)
        values.update(params or {})
        self.seed = int(values.pop("seed"))
        players = int(values.pop("players"))
        decks = str(values.pop("decks"))
        self.decks = decks.split(",") if decks else None
        self.options = values
        if players == 0:
            counts = module.player_counts(values)
            if not counts:
                raise ValueError(f"{module.INFO['name']} seats no players with these options")
            players = min(counts)
        self.players = players
        self.started = 0
        info = pyspiel.GameInfo(
            num_distinct_actions=module.NUM_DISTINCT_ACTIONS, max_chance_outcomes=0,
            num_players=self.players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if self.TYPE.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.TYPE, info, params or {})

    def new_initial_state(self) -> RulecraftState:
        seed = self.seed + self.started
        self.started += 1
        inner = self.MODULE.new_game(seed=seed, players=self.players, options=dict(self.options),
                                     decks=self.decks)
        return RulecraftState(self, inner)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(recall)


class _Held:
    """The generated state inside an OpenSpiel state, with its legal actions by id once asked.
    OpenSpiel clones a Python state with copy.deepcopy: this makes that the generated clone(),
    several times faster than copying every list of the state one by one."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.by_id: dict[int, Action] | None = None
        # OpenSpiel asks for a player's observation and information state strings in turn
        self.views: dict[int, str] = {}

    def view(self, player: int) -> str:
        if player not in self.views:
            self.views[player] = json.dumps(self.state.observation(player), sort_keys=True)
        return self.views[player]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())


class RulecraftState(pyspiel.State):  # type: ignore[misc]
    """A generated state behind OpenSpiel's State: actions are the ids of `action_id`."""

    def __init__(self, game: RulecraftGame, inner: Any) -> None:
        super().__init__(game)
        self.held = _Held(inner)

    @property
    def inner(self) -> Any:
        return self.held.state

    def _actions(self) -> dict[int, Action]:
        held = self.held
        if held.by_id is None:
            inner = held.state
            held.by_id = {inner.action_id(a): a for a in inner.legal_actions()}
        return held.by_id

    def current_player(self) -> int:
        # the generated TERMINAL is OpenSpiel's (-4)
        return int(self.inner.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.inner.current_player():
            return []
        return sorted(self._actions())

    def _apply_action(self, action: int) -> None:
        chosen = self._actions().get(action)
        if chosen is None:
            raise ValueError(f"action {action} is not legal here")
        self.inner.apply_action(chosen)
        self.held.by_id = None
        self.held.views = {}

    def _action_to_string(self, player: int, action: int) -> str:
        chosen = self._actions().get(action) if player == self.current_player() else None
        return str(chosen) if chosen is not None else f"action {action}"

    def is_terminal(self) -> bool:
        return bool(self.inner.is_terminal())

    def returns(self) -> list[float]:
        if not self.inner.is_terminal():
            return [0.0] * self.inner.num_players
        return list(self.inner.returns())

    def __str__(self) -> str:
        return json.dumps(self.inner.observation(-1), sort_keys=True)


class Observer:
    """OpenSpiel's PyObserver protocol, strings only (no tensor)."""

    def __init__(self, recall: bool) -> None:
        self.recall = recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: RulecraftState, player: int) -> None:
        pass

    def string_from(self, state: RulecraftState, player: int) -> str:
        view = state.held.view(player)
        if not self.recall:
            return view
        own = [step.action for step in state.full_history() if step.player == player]
        return json.dumps({"view": json.loads(view), "own_actions": own}, sort_keys=True)
