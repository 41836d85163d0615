"""The OpenSpiel adapter: every shipped game registers as a pyspiel game, passes OpenSpiel's
own random simulation test, and OpenSpiel's MCTS bot plays a game of it to the end."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from compiler import openspiel_game
from compiler.api import shipped_games
from tests.playing import load
from tests.tiers import soak

NAMES = openspiel_game.register_shipped()
# Dynasties plays in about a second: the default tier's game; the others are the soak tier's
QUICK = "rulecraft_dynasties"
EVERY = [QUICK, *soak(n for n in NAMES if n != QUICK)]


def test_every_shipped_game_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    assert [f"rulecraft_{name}" for name in shipped_games()] == NAMES
    assert set(NAMES) <= registered


def test_game_type_and_info_come_from_the_module() -> None:
    game = pyspiel.load_game("rulecraft_dynasty_builder")
    module = load("dynasty_builder")
    assert game.num_distinct_actions() == module.NUM_DISTINCT_ACTIONS
    assert game.num_players() == 2
    kind = game.get_type()
    # every zone and field of Dynasty Builder is public; Dynasties hides its drawn tiles
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    hidden = pyspiel.load_game("rulecraft_dynasties").get_type()
    assert hidden.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_an_enum_option_is_a_word_and_players_default_to_what_the_options_seat() -> None:
    # Dynasty TCG's team mode seats 4 or 6 and its free-for-all 3 or 4: without `players`
    # the game seats the fewest of them (it seated 2, which new_game refused)
    assert pyspiel.load_game("rulecraft_dynasty_tcg").get_parameters()["mode"] == "duel"
    for mode, seated in (("duel", 2), ("war", 4), ("royale", 3)):
        game = pyspiel.load_game("rulecraft_dynasty_tcg", {"mode": mode})
        assert game.num_players() == seated
        assert game.new_initial_state().current_player() == 0
    assert pyspiel.load_game("rulecraft_dynasty_tcg", {"mode": "war", "players": 6}
                             ).num_players() == 6
    with pytest.raises(ValueError, match="one of duel, war, royale, not 'melee'"):
        pyspiel.load_game("rulecraft_dynasty_tcg", {"mode": "melee"}).new_initial_state()
    with pytest.raises(ValueError, match="is for 4 or 6 players, not 2"):
        pyspiel.load_game("rulecraft_dynasty_tcg",
                          {"mode": "war", "players": 2}).new_initial_state()


def test_a_state_is_the_generated_state_by_action_ids() -> None:
    game = pyspiel.load_game("rulecraft_dynasties", {"seed": 4})
    state = game.new_initial_state()
    inner = load("dynasties").new_game(seed=4)
    rng = np.random.RandomState(1)
    while not state.is_terminal():
        ids = state.legal_actions()
        assert ids == sorted(inner.action_id(a) for a in inner.legal_actions())
        player = state.current_player()
        for seat in range(2):
            view = json.loads(state.observation_string(seat))
            assert view == json.loads(json.dumps(inner.observation(seat)))
        chosen = int(rng.choice(ids))
        twin = state.clone()
        state.apply_action(chosen)
        inner.apply_action(next(a for a in inner.legal_actions()
                                if inner.action_id(a) == chosen))
        assert twin.history() == state.history()[:-1]
        assert state.history()[-1] == chosen and player >= 0
    assert state.returns() == inner.returns()
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]


def test_an_illegal_id_is_refused() -> None:
    state = pyspiel.load_game("rulecraft_dynasties").new_initial_state()
    wrong = next(i for i in range(10**6) if i not in state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(wrong)


def test_the_information_state_never_shows_the_opponents_hidden_tiles() -> None:
    state = pyspiel.load_game("rulecraft_dynasties", {"seed": 2}).new_initial_state()
    view = json.loads(state.information_state_string(0))
    assert view["view"]["zones"]["deck.B"] == {"count": 8}
    assert view["own_actions"] == []


@pytest.mark.parametrize("name", EVERY)
def test_random_sim_test(name: str) -> None:
    sims = 1 if name == QUICK else 2
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=False,
                            verbose=False)


@pytest.mark.soak
@pytest.mark.parametrize("name", NAMES)
def test_openspiel_mcts_bot_plays_to_the_end(name: str) -> None:
    game = pyspiel.load_game(name, {"seed": 1})
    rng = np.random.RandomState(0)
    # rollouts cut at 40 plies (returns 0 there) keep a game of 350 plies to seconds
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=40)
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=2, evaluator=evaluator,
                       random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
