"""What the random-game tests of every game share: playing a game through its public API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = Any  # a generated module's State; the tests use its public methods only
Choose = Callable[[list[Any]], Any]


def play(state: State, choose: Choose, plies: int | None = None) -> list[str]:
    """Apply up to `plies` chosen actions (all, to the end, when None); return their texts."""
    texts: list[str] = []
    while not state.is_terminal() and (plies is None or len(texts) < plies):
        action = choose(state.legal_actions())
        texts.append(str(action))
        state.apply_action(action)
    return texts
