"""What the random-game tests of every game share: the generated games, their variants and
seeded setups, and playing a game through its public API."""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

State = Any  # a generated module's State; the tests use its public methods only
Choose = Callable[[list[Any]], Any]

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.stem for p in (ROOT / "generated").glob("*.py") if p.stem != "__init__")


def load(name: str) -> ModuleType:
    return importlib.import_module(f"generated.{name}")


def variants(name: str) -> list[tuple[str, dict[str, object]]]:
    """The defaults, then each boolean option flipped and each other member of an option of an
    enum type (a game's modes): (id, options)."""
    game = load(name)
    options: dict[str, object] = game.INFO["options"]
    found: list[tuple[str, dict[str, object]]] = [("default", {})]
    words: dict[str, tuple[str, ...]] = getattr(game, "OPTION_WORDS", {})
    for option, default in sorted(options.items()):
        if option in words:
            found += [(f"{option}={word}", {option: word})
                      for word in words[option] if word != default]
        elif isinstance(default, bool):
            found.append((f"{option}={not default}", {option: not default}))
    return found


def seats(game: ModuleType, seed: int, options: dict[str, object] | None = None) -> int:
    """How many play a game of the seed: each number the game allows with these options (its
    `player_counts`, which may depend on them and leave gaps), in turn."""
    counts = game.player_counts(options)
    return int(counts[seed % len(counts)])


def new_state(game: ModuleType, options: dict[str, object], seed: int) -> State:
    """A game of the seed, with seats(seed) players and decks drawn from the shipped ones (the
    same deck on two sides now and then) when the game has decks."""
    players = seats(game, seed, options)
    decks = None
    if game.INFO.get("decks"):
        rng = random.Random(seed)
        decks = {p: rng.choice(game.INFO["decks"]) for p in game.PLAYER_NAMES[:players]}
    return game.new_game(seed=seed, players=players, options=dict(options), decks=decks)


def play(state: State, choose: Choose, plies: int | None = None) -> list[str]:
    """Apply up to `plies` chosen actions (all, to the end, when None); return their texts."""
    texts: list[str] = []
    while not state.is_terminal() and (plies is None or len(texts) < plies):
        action = choose(state.legal_actions())
        texts.append(str(action))
        state.apply_action(action)
    return texts


class GameFailure(AssertionError):
    """A failed check or an engine error in a random game, named by its setup, seed and ply."""


@contextmanager
def named_failures(setup: str, history: list[str]) -> Iterator[None]:
    """Turn any error inside into a GameFailure naming `setup` (decks, variant, seed), how many
    actions `history` holds by then and its last six, so that a failure can be replayed."""
    try:
        yield
    # pytest.fail raises an exception that is not an Exception: a check that fails with it
    # is reported with the seed too
    except (Exception, pytest.fail.Exception) as error:  # noqa: BLE001
        raise GameFailure(
            f"{setup}, after {len(history)} actions (last: {history[-6:]}): "
            f"{type(error).__name__}: {error}") from error


Watch = Callable[[State, Any], Callable[[State], None] | None]


def play_checked(state: State, choose: Choose, history: list[str], check: Callable[[State], None],
                 max_plies: int, watch: Watch | None = None) -> None:
    """Play to the end, appending each action's text to `history` and running `check` on the
    first position and after every ply. `watch(state, action)`, called before the action, returns
    what to check once it is applied (e.g. what the action's text told a player), or None."""
    check(state)
    while not state.is_terminal():
        if len(history) >= max_plies:
            raise GameFailure(f"the game did not end within {max_plies} plies")
        action = choose(state.legal_actions())
        after = watch(state, action) if watch is not None else None
        history.append(str(action))
        state.apply_action(action)
        if after is not None:
            after(state)
        check(state)


def shown_names(view: dict[str, Any]) -> set[str]:
    """The card names an observation shows: listed zones and revealed cards."""
    names: set[str] = set()
    for cards in view["zones"].values():
        names.update(cards if isinstance(cards, list) else cards.get("revealed", []))
    return names


def read_by_opponent(names: re.Pattern[str], players: tuple[str, ...]) -> Watch:
    """A `watch` for play_checked in a two-player card game: the reading of the player not
    acting names (by the pattern of the game's card names) only cards that player sees before
    or after the action."""
    def watch(state: State, action: Any) -> Callable[[State], None]:
        viewer = 1 - state.current_player()
        before = shown_names(state.observation(viewer))
        text = state.action_text(action, viewer)

        def check(after_state: State) -> None:
            after = shown_names(after_state.observation(viewer))
            for name in names.findall(text):
                assert name in before or name in after, (
                    f"{players[viewer]} reads '{text}', which names {name}, a card they cannot"
                    " see")
        return check
    return watch
