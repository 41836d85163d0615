"""Every generated game as a PettingZoo AEC environment (`pip install 'rulecraft[pettingzoo]'`).

    from compiler.pettingzoo_env import env
    game = env("dynasties")             # agents "A", "B"; also a module or a rulebook path
    game.reset(seed=3)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        mask = observation["action_mask"]
        game.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))

Actions are the integer ids of `state.action_id` (`Discrete(NUM_DISTINCT_ACTIONS)`); the action
mask marks the legal ones for the agent to act (all zero for the others). An observation is
`{"observation": float32 array, "action_mask": int8 array}`; the array is `encode_view`'s fixed
encoding of `state.observation(agent)`, so it never holds what the agent may not see."""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from compiler.api import seat_count, shipped_games
from dsl.runtime import Action


class Encoding:
    """A fixed-size numeric encoding of a game's observations, laid out once per game:

    - one-hot of the acting player (all zero when the game is over) and of the phase;
    - per zone (every zone of every player, in the game's order): the number of cards in it,
      then for each card name of the game, how many cards of that name the observer can see
      there (cards shown as a count only are counted, not named);
    - the numbers of the game's, the players' and the board's fields, at the places they have
      in a new game's observations (a list field gives one number per element it has there):
      numbers as they are, truth values 0/1, a name (a player, a card, a terrain) as 1 + its
      index in the game's vocabulary (player names, card names, names seen in new games), -1
      for a name not in it, and 0 for nothing or a field the observer may not see."""

    def __init__(self, module: ModuleType, sample: list[dict[str, Any]]) -> None:
        state = module.State
        self.players = list(module.INFO["player_names"])
        self.phases = list(state.PHASES)
        # the zones of the seats of the count played (those of a seat it lacks are empty)
        seated = len(sample[0]["players"]) if sample else len(self.players)
        self.slots = [name for slot, name in enumerate(state.SLOT_NAMES)
                      if state.SLOT_OWNER[slot] < seated]
        self.defs = list(state.DEF_NAMES)
        self.def_index = {name: i for i, name in enumerate(self.defs)}
        self.paths: list[tuple[Any, ...]] = []
        seen: set[tuple[Any, ...]] = set()
        words: set[str] = set()
        for view in sample:
            for path, value in _leaves(_fields(view)):
                if path not in seen:
                    seen.add(path)
                    self.paths.append(path)
                if isinstance(value, str):
                    words.add(value)
        vocabulary = self.players + self.defs + sorted(words - set(self.players) - set(self.defs))
        self.words = {word: i + 1 for i, word in enumerate(vocabulary)}
        self.zone_base = len(self.players) + len(self.phases)
        self.field_base = self.zone_base + len(self.slots) * (1 + len(self.defs))
        self.size = self.field_base + len(self.paths)

    def encode(self, view: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
        out = np.zeros(self.size, np.float32)
        if view["actor"] in self.players and not view["terminal"]:
            out[self.players.index(view["actor"])] = 1
        if view["phase"] in self.phases:
            out[len(self.players) + self.phases.index(view["phase"])] = 1
        width = 1 + len(self.defs)
        zones = view["zones"]
        for z, slot in enumerate(self.slots):
            shown = zones.get(slot)
            if shown is None:
                continue
            base = self.zone_base + z * width
            names = shown if isinstance(shown, list) else shown.get("revealed", [])
            out[base] = len(shown) if isinstance(shown, list) else shown.get("count", len(names))
            for name in names:
                index = self.def_index.get(name) if isinstance(name, str) else None
                if index is not None:
                    out[base + 1 + index] += 1
        fields = _fields(view)
        for i, path in enumerate(self.paths):
            out[self.field_base + i] = self._number(_at(fields, path))
        return out

    def _number(self, value: Any) -> float:
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, int | float):
            return float(value)
        if isinstance(value, str):
            return float(self.words.get(value, -1))
        return 0.0


def _fields(view: dict[str, Any]) -> dict[str, Any]:
    return {"state": view.get("state", {}), "players": view.get("players", {}),
            "board": view.get("board", {})}


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in _leaves(value[key], (*path, key))]
    if isinstance(value, list):
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, (*path, i))]
    return [(path, value)]


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and isinstance(key, int) and key < len(value):
            value = value[key]
        else:
            return None
    return value


def _module(game: str | ModuleType) -> ModuleType:
    if isinstance(game, ModuleType):
        return game
    if game in shipped_games():
        import importlib

        return importlib.import_module(f"generated.{game}")
    from compiler import api

    return api.load_game(game)


class RulecraftEnv(AECEnv):  # type: ignore[misc]
    """A generated game as an AEC environment: one agent per seat, named as the game names
    its players; terminal rewards are the game's returns."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str | ModuleType, players: int | None = None,
                 options: dict[str, object] | None = None, decks: list[str] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.module = _module(game)
        info = self.module.INFO
        self.metadata = {**self.metadata, "name": f"rulecraft_{info['name']}"}
        self.options = dict(options or {})
        self.players = seat_count(self.module, players, self.options)
        self.decks = decks
        self.render_mode = render_mode
        # the seat names of the count played (a count may name its seats its own way)
        self.possible_agents = list(self._new(0).seats())[: self.players]
        sample = [self._new(seed).observation(p) for seed in range(2)
                  for p in range(self.players)]
        self.encoding = Encoding(self.module, sample)
        self.num_actions = int(self.module.NUM_DISTINCT_ACTIONS)
        self.state: Any = None
        self._legal: dict[int, Action] = {}

    def _new(self, seed: int) -> Any:
        return self.module.new_game(seed=seed, players=self.players, options=dict(self.options),
                                    decks=self.decks)

    @functools.cache  # noqa: B019 - PettingZoo wants the same space each time
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8)})

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Discrete(self.num_actions)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self.state = self._new(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        state = self.state
        if state.is_terminal():
            self._legal = {}
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[state.current_player()]
        self._legal = {state.action_id(a): a for a in state.legal_actions()}

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.num_actions, np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask[list(self._legal)] = 1
        return {"observation": self.encoding.encode(self.state.observation(seat)),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._legal.get(int(action)) if action is not None else None
        if chosen is None:
            raise ValueError(f"action {action} is not legal for {agent}")
        self.state.apply_action(chosen)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_terminal():
            for seat, value in enumerate(self.state.returns()):
                self.rewards[self.possible_agents[seat]] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.state.observation(-1))

    def close(self) -> None:
        pass


def env(game: str | ModuleType, **kwargs: Any) -> RulecraftEnv:
    """The environment of a game: a shipped game's name, a generated module, or a rulebook."""
    return RulecraftEnv(game, **kwargs)
