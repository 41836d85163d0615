"""state.resample(player, rng) (DESIGN.md §4): over random states of every generated game, the
player's observation is the same before and after, the unseen cards really move, every
(owner, zone made in) group keeps its cards, and the resampled state plays on to the end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.playing import GAMES, load, new_state, play
from tests.tiers import seeds


def _random_state(name: str, seed: int) -> object:
    game = load(name)
    state = new_state(game, {}, seed)
    rng = random.Random(seed)
    play(state, rng.choice, plies=rng.randrange(1, 80))
    return state


@pytest.mark.parametrize("seed", seeds(2, 30))
@pytest.mark.parametrize("name", GAMES)
def test_observation_is_kept(name: str, seed: int) -> None:
    state = _random_state(name, seed)
    rng = random.Random(seed)
    for player in range(state.num_players):  # type: ignore[attr-defined]
        before = state.to_json()  # type: ignore[attr-defined]
        other = state.resample(player, rng)  # type: ignore[attr-defined]
        assert state.to_json() == before, "resample changed the state itself"  # type: ignore[attr-defined]
        assert other.observation(player) == state.observation(player)  # type: ignore[attr-defined]
        groups_before: Counter[tuple[int, int, int]] = Counter()
        groups_after: Counter[tuple[int, int, int]] = Counter()
        for card, definition in enumerate(state.card_def):  # type: ignore[attr-defined]
            key = (state.card_owner[card], state.card_home[card])  # type: ignore[attr-defined]
            groups_before[(*key, definition)] += 1
            groups_after[(*key, other.card_def[card])] += 1
        assert groups_after == groups_before
        play(other, rng.choice)
        assert other.is_terminal()


@pytest.mark.parametrize("name", ["rulers_gambit", "dynasty_tcg", "dojo", "dynasties"])
def test_unseen_cards_move(name: str) -> None:
    """A hidden hand or deck is not copied as it is: some resample of a few states differs
    in the cards the opponent holds, and the same rng gives the same resample."""
    moved = 0
    for seed in range(5):
        state = _random_state(name, seed)
        first = state.resample(0, random.Random(seed))  # type: ignore[attr-defined]
        again = state.resample(0, random.Random(seed))  # type: ignore[attr-defined]
        assert first.to_json() == again.to_json()
        moved += first.card_def != state.card_def  # type: ignore[attr-defined]
    assert moved >= 3


def test_other_secret_choices_are_redrawn() -> None:
    """Dynasties' advanced game: the opponent's Warlord is re-drawn, one's own is kept."""
    game = load("dynasties")
    found = set()
    for seed in range(40):
        state = game.new_game(seed=seed, options={"warlords": True})
        rng = random.Random(seed)
        while state.get("player.B.warlord") is None:
            state.apply_action(rng.choice(state.legal_actions()))
        other = state.resample(0, rng)
        assert other.get("player.A.warlord") == state.get("player.A.warlord")
        found.add(other.get("player.B.warlord"))
    assert len(found) > 1
