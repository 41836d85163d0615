"""The MCTS agent's speed-ups keep its moves: the same seeds choose the same actions as the
agent before them (the recorded moves below), a precomputed resampler draws the same
determinizations as resample, and rollout_depth stops playouts and scores them with the
rulebook's heuristic."""

from __future__ import annotations

import random
from typing import Any

import pytest

from compiler import agents
from tests.playing import GAMES, load

# Recorded with the agent of commit 4d78324 (before the speed-ups): mcts:iterations=12 with
# Random(4) as player A against uniform choices from Random(9), game seed 11, 14 plies.
BEFORE = {
    'dynasties': [
        'A places 1 on tibet',
        'A places 2 on qinghai',
        'A places 3 on mongolia',
        'A places 4 on mandarin',
        'A places 5 on xinjiang',
        'B places a tile on tibet',
        'B places a tile on xinjiang',
        'B places a tile on mandarin',
        'B places a tile on mongolia',
        'B places a tile on qinghai',
        'A keeps Plague',
        'A keeps 8',
        'B keeps a tile',
        'B keeps a tile',
    ],
    # since Lifelink deals nothing from the Recovery Zone (25a825a): the rollouts' results
    # changed, and with them the search's choices
    'rulers_gambit': [
        'A puts back Mind Spike',
        'A puts back Frozen Snare',
        'A puts back Whispered Doubt',
        'A puts back Dread Warden',
        'A puts back Mirror Phantom',
        'A keeps their hand',
        'B puts back a card',
        'B puts back a card',
        'B puts back a card',
        'B puts back a card',
        'B puts back a card',
        'B keeps their hand',
        'A charges a mana',
        'A normal calls Tide Reader',
    ],
    'dojo': [
        'B sets a card face down',
        'B banks 3 CU',
        'B sets a card face down',
        'A plays Pebble Golem',
        'A plays Sensei Kuro',
        'B plays the item Coin Purse',
        'B plays Volt Hare',
        'B sets a card face down',
        'A plays Tide Serpent',
        'A plays Thorn Boar',
        "A attacks with Pebble Golem's primary attack",
        'A deals 1 damage to Volt Hare',
        "A attacks with Sensei Kuro's primary attack",
        'A deals 1 damage to Volt Hare',
    ],
}


def _moves(name: str, spec: str, plies: int = 14) -> list[str]:
    state = load(name).new_game(seed=11, players=2)
    agent = agents.make(spec)
    rng, other = random.Random(4), random.Random(9)
    moves = []
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.current_player() == 0:
            action = agent.step(state, rng)
        else:
            actions = state.legal_actions()
            action = actions[other.randrange(len(actions))]
        moves.append(state.action_text(action, 0))
        state.apply_action(action)
    return moves


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_same_moves_as_before(name: str) -> None:
    assert _moves(name, "mcts:iterations=12") == BEFORE[name]


@pytest.mark.parametrize("name", GAMES)
def test_resampler_draws_as_resample(name: str) -> None:
    state = load(name).new_game(seed=2, players=2)
    rng = random.Random(2)
    for _ in range(30):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    for player in range(2):
        draw = state.resampler(player)
        one, two = random.Random(7), random.Random(7)
        for _ in range(3):
            assert draw(one).to_json() == state.resample(player, two).to_json()
        assert one.random() == two.random()  # as many draws from the generator


def test_rollout_depth_stops_and_scores_with_the_heuristic() -> None:
    game = load("rulers_gambit")
    state = game.new_game(seed=3, players=2)
    played = state.clone()
    returns = agents.rollout(played, random.Random(1), depth=5)
    assert not played.is_terminal()
    assert agents.heuristic_of(state) is not None
    assert returns == agents.estimate(played)
    # LP 20 against 10: the leader is estimated ahead by (20 - 10) / 30, the other behind
    played.set("player.A.lp", 20)
    played.set("player.B.lp", 10)
    low, high = sorted(agents.estimate(played))
    assert agents.estimate(played)[0] == pytest.approx(1 / 3) and low == -high
    # no heuristic (Dojo declares none): a game not over is scored as no one ahead
    dojo = load("dojo").new_game(seed=3, players=2)
    assert agents.heuristic_of(dojo) is None
    assert agents.rollout(dojo, random.Random(1), depth=3) == [0.0, 0.0]
    assert agents.rollout(dojo, random.Random(1), depth=0) == [0.0, 0.0]


def test_rollout_depth_is_checked_and_plays() -> None:
    with pytest.raises(agents.AgentError, match="rollout_depth"):
        agents.make("mcts:rollout_depth=-1")
    with pytest.raises(agents.AgentError, match="rollout_depth"):
        agents.make("mcts:rollout_depth=2.5")
    assert agents.parse("mcts:iterations=20,rollout_depth=8,random") == [
        ("mcts", {"iterations": 20, "rollout_depth": 8}), ("random", {})]
    moves: list[Any] = _moves("dynasty_builder", "mcts:iterations=10,rollout_depth=2", 6)
    assert len(moves) == 6
