"""The PettingZoo AEC wrapper: PettingZoo's own api_test on every shipped game, the action mask
marking exactly the legal ids, and the encoding holding nothing the agent may not see."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from compiler import pettingzoo_env
from compiler.api import shipped_games
from tests.tiers import soak

QUICK = "dynasties"
EVERY = [QUICK, *soak(n for n in shipped_games() if n != QUICK)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", EVERY)
def test_api_test(name: str) -> None:
    api_test(pettingzoo_env.env(name), num_cycles=1000, verbose_progress=False)


def test_mask_is_the_legal_ids_of_the_agent_to_act() -> None:
    env = pettingzoo_env.env("dojo")
    env.reset(seed=3)
    state = env.state
    actor = env.agent_selection
    mask = env.observe(actor)["action_mask"]
    assert set(np.flatnonzero(mask)) == {state.action_id(a) for a in state.legal_actions()}
    other = next(a for a in env.agents if a != actor)
    assert not env.observe(other)["action_mask"].any()


def test_a_game_plays_to_its_returns() -> None:
    env = pettingzoo_env.env("dynasties")
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if terminated or truncated else int(rng.choice(legal)))
    assert env.state.is_terminal()
    assert [totals[a] for a in env.possible_agents] == env.state.returns()


def test_encoding_is_fixed_size_and_hides_the_opponents_hand() -> None:
    env = pettingzoo_env.env("dojo")
    env.reset(seed=1)
    encoding = env.encoding
    a = env.observe("A")["observation"]
    assert a.shape == (encoding.size,) and a.dtype == np.float32
    width = 1 + len(encoding.defs)
    hand_b = encoding.zone_base + encoding.slots.index("hand.B") * width
    hand_a = encoding.zone_base + encoding.slots.index("hand.A") * width
    assert a[hand_b] == 7 and not a[hand_b + 1: hand_b + width].any()  # counted, not named
    assert a[hand_a] == 7 and a[hand_a + 1: hand_a + width].sum() == 7
    with pytest.raises(ValueError, match="not legal"):
        env.step(encoding.size + 10**7)
