"""Agents that play generated games, by name (`--agents mcts:iterations=200,random`) or from
Python: `random`, one-ply `greedy`, and information-set `mcts`.

An agent is any object with `step(state, rng) -> Action`, called when it is the agent's turn;
`rng` is the agent's own seeded generator, so a game replays exactly. Every agent sees the
state through the public API only, and the search agents never look at what their player
cannot see: each simulation starts from `state.resample(player, rng)`.

    from compiler import agents
    agent = agents.make("mcts:iterations=100")
    agents.register("cautious", lambda **options: MyAgent(**options))
"""

from __future__ import annotations

import inspect
import math
import random
import sys
import typing
from collections.abc import Callable
from typing import Any, Protocol

State = Any  # a generated module's State
Action = Any


class Agent(Protocol):
    def step(self, state: State, rng: random.Random) -> Action: ...


class AgentError(ValueError):
    """An agent spec that names no agent, or options the agent does not take."""


def rollout(state: State, rng: random.Random, depth: int | None = None) -> list[float]:
    """Random play from `state` (changed in place) to the end, or for `depth` plies at most;
    the returns, estimated by `estimate` when the game is not over by then."""
    legal_actions, apply_action, is_terminal = (
        state.legal_actions, state.apply_action, state.is_terminal)
    plies = 0
    while not is_terminal():
        if depth is not None and plies >= depth:
            return estimate(state)
        actions = legal_actions()
        apply_action(actions[rng.randrange(len(actions))])
        plies += 1
    returns: list[float] = state.returns()
    return returns


def heuristic_of(state: State) -> Callable[[State, int], float] | None:
    """The rulebook's `heuristic(p: player)` function, when it declares one."""
    found: Callable[[State, int], float] | None = getattr(
        sys.modules[type(state).__module__], "f_heuristic", None)
    return found


def estimate(state: State) -> list[float]:
    """Returns in [-1, 1] for a game that is not over, from the rulebook's `heuristic`: each
    player's score against the mean of the others', (h - m) / (|h| + |m|), so the scale of
    the heuristic does not matter and a player twice as far ahead is estimated higher. Without
    a heuristic, the returns of a game not over (no one ahead)."""
    heuristic = heuristic_of(state)
    if heuristic is None or state.is_terminal():
        returns: list[float] = state.returns()
        return returns
    scores = [float(heuristic(state, p)) for p in range(state.num_players)]
    total, others = sum(scores), max(1, len(scores) - 1)
    out: list[float] = []
    for score in scores:
        mean = (total - score) / others
        scale = abs(score) + abs(mean)
        out.append((score - mean) / scale if scale else 0.0)
    return out


class RandomAgent:
    """A legal action, uniformly at random."""

    name = "random"

    def step(self, state: State, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions())


class GreedyAgent:
    """One ply deep: the action after which the player's score is highest. The score is the
    rulebook's `heuristic(p: player)` function when it declares one, else the player's returns
    after one random rollout (from a resample: the agent does not peek)."""

    name = "greedy"

    def step(self, state: State, rng: random.Random) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        me = state.current_player()
        heuristic = heuristic_of(state)
        best: list[Action] = []
        best_score = -math.inf
        for action in actions:
            after = state.resample(me, rng)
            after.apply_action(action)
            if heuristic is not None and not after.is_terminal():
                score = float(heuristic(after, me))
            else:
                score = rollout(after, rng)[me]
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return rng.choice(best)


class _Node:
    __slots__ = ("player", "visits", "value", "children", "available")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action that leads here
        self.visits = 0
        self.value = 0.0  # the sum of that player's rewards, each in [0, 1]
        self.children: dict[Action, _Node] = {}
        self.available: dict[Action, int] = {}


class MctsAgent:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012): each
    iteration determinizes the root with state.resample(player, rng), descends the one tree
    by UCB over the actions legal in that determinization (counting how often each was
    available), adds one node, plays randomly to the end and backs up each player's reward.
    Perfect-information games resample to an equal state, and it is plain UCT.

    With `rollout_depth=N` a random playout stops after N plies and is scored by `estimate`
    (the rulebook's `heuristic`, when it declares one): for games whose random playouts are
    hundreds of plies long."""

    name = "mcts"

    def __init__(self, iterations: int = 200, c: float = 1.4,
                 rollout_depth: int | None = None) -> None:
        if iterations < 1:
            raise AgentError("mcts: iterations must be at least 1")
        if rollout_depth is not None and (type(rollout_depth) is not int or rollout_depth < 0):
            raise AgentError("mcts: rollout_depth must be a whole number, 0 or more")
        self.iterations = iterations
        self.c = c
        self.rollout_depth = rollout_depth

    def step(self, state: State, rng: random.Random) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        me = state.current_player()
        root = _Node(me)
        # what `me` sees of the root is worked out once, not once per determinization
        resampler = getattr(state, "resampler", None)
        draw = resampler(me) if resampler is not None else (
            lambda r: state.resample(me, r))
        for _ in range(self.iterations):
            self._iterate(root, draw(rng), rng)
        # the most visited; among as many visits (few iterations), the best on average
        scores = [(root.children[a].visits, root.children[a].value / root.children[a].visits)
                  if a in root.children else (0, 0.0) for a in actions]
        return actions[scores.index(max(scores))]

    def _iterate(self, root: _Node, state: State, rng: random.Random) -> None:
        node = root
        path = [root]
        c, log, sqrt = self.c, math.log, math.sqrt
        while not state.is_terminal():
            legal = state.legal_actions()
            available, children = node.available, node.children
            untried = []
            for action in legal:
                available[action] = available.get(action, 0) + 1
                if action not in children:
                    untried.append(action)
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(state.current_player())
                state.apply_action(action)
                path.append(child)
                break
            # UCB1 over the actions available here; the first of equal scores, as max() takes
            best, best_score = legal[0], -math.inf
            for action in legal:
                child = children[action]
                score = child.value / child.visits + c * sqrt(
                    log(available[action]) / child.visits)
                if score > best_score:
                    best, best_score = action, score
            node = children[best]
            state.apply_action(best)
            path.append(node)
        returns = rollout(state, rng, self.rollout_depth)
        for visited in path:
            visited.visits += 1
            if 0 <= visited.player < len(returns):
                visited.value += (returns[visited.player] + 1.0) / 2.0


Factory = Callable[..., Agent]
_AGENTS: dict[str, Factory] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MctsAgent,
}


def register(name: str, factory: Factory) -> None:
    """Make an agent available by name, to make() and `--agents`."""
    _AGENTS[name] = factory


def names() -> list[str]:
    return sorted(_AGENTS)


def _value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse(text: str) -> list[tuple[str, dict[str, object]]]:
    """`mcts:iterations=200,c=1,random` -> [("mcts", {iterations: 200, c: 1}), ("random", {})]:
    a comma starts a new agent unless what follows is another NAME=VALUE of the last one."""
    specs: list[tuple[str, dict[str, object]]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise AgentError(f"empty agent in {text!r}")
        if "=" in part and ":" not in part:
            if not specs:
                raise AgentError(f"{part!r} is an option of no agent")
            key, _, value = part.partition("=")
            specs[-1][1][key.strip()] = _value(value.strip())
            continue
        name, _, rest = part.partition(":")
        options: dict[str, object] = {}
        if rest:
            key, eq, value = rest.partition("=")
            if not eq:
                raise AgentError(f"agent option {rest!r} is not NAME=VALUE")
            options[key.strip()] = _value(value.strip())
        specs.append((name.strip(), options))
    for name, _options in specs:
        if name not in _AGENTS:
            raise AgentError(f"unknown agent {name!r}; known: {', '.join(names())}")
    return specs


def make(spec: str | tuple[str, dict[str, object]]) -> Agent:
    """An agent from a spec (`mcts:iterations=50`) or a parsed (name, options) pair."""
    name, options = parse(spec)[0] if isinstance(spec, str) else spec
    if name not in _AGENTS:
        raise AgentError(f"unknown agent {name!r}; known: {', '.join(names())}")
    _check_options(name, _AGENTS[name], options)
    try:
        return _AGENTS[name](**options)
    except TypeError as error:
        raise AgentError(f"{name}: {error}") from error


def _check_options(name: str, factory: Factory, options: dict[str, object]) -> None:
    """Refuse an option the agent does not take, or a value of the wrong kind, by the
    factory's signature (`c=abc` failed only at the agent's first move, with a traceback).
    A factory taking **options checks its own."""
    try:
        parameters = inspect.signature(factory, eval_str=True).parameters
    except (TypeError, ValueError, NameError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    for key, value in options.items():
        if key not in parameters:
            taken = ", ".join(parameters)
            raise AgentError(f"{name} takes no option {key!r}"
                             + (f"; its options: {taken}" if taken else "; it takes none"))
        wanted = parameters[key].annotation
        kinds = set(typing.get_args(wanted)) or {wanted}
        whole = type(value) is int
        if (int in kinds and whole) or (float in kinds and (whole or type(value) is float)) \
                or wanted is inspect.Parameter.empty:
            continue
        kind = "a whole number" if int in kinds else "a number" if float in kinds else wanted
        raise AgentError(f"{name}: {key} must be {kind}, not {value!r}")


def label(spec: tuple[str, dict[str, object]]) -> str:
    name, options = spec
    return name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
