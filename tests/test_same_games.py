"""The same seeds play the same games: every generated game, in every variant, played with the
seeded random agent, ends in the state recorded in tests/golden/games.json.

The record is made by the compiler as it was before an optimisation of the generated code (or
of the runtime), so a faster engine that plays a different game (another order of the legal
actions, a rule taken a shortcut through) fails here with the game, variant and seed. A change
to the rules changes the games on purpose: rewrite the record with `--update-golden` and say so
in the commit.

Each game is recorded as the number of plies and a digest of the actions' texts and of the
final to_json(). The default tier plays the first DEFAULT_SEEDS seeds of every variant, the
soak tier the rest of SEEDS.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from tests.playing import GAMES, ROOT, load, new_state, play, variants

RECORD = ROOT / "tests" / "golden" / "games.json"
SEEDS, DEFAULT_SEEDS = range(100), 3
VARIANTS = [(name, label, options) for name in GAMES for label, options in variants(name)]


def played(name: str, options: dict[str, object], seed: int) -> str:
    """'<plies> <digest of the action texts> <digest of the final state>' of one seeded game."""
    state = new_state(load(name), options, seed)
    texts = play(state, random.Random(seed).choice)
    actions = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    final = hashlib.sha256(state.to_json().encode()).hexdigest()[:16]
    return f"{len(texts)} {actions} {final}"


def record() -> dict[str, dict[str, str]]:
    if not RECORD.exists():
        return {}
    games: dict[str, dict[str, str]] = json.loads(RECORD.read_text())
    return games


CASES = [
    pytest.param(name, label, options, seeds, id=f"{name}-{label}-{tier}", marks=marks)
    for name, label, options in VARIANTS
    for tier, seeds, marks in (("default", SEEDS[:DEFAULT_SEEDS], ()),
                               ("soak", SEEDS[DEFAULT_SEEDS:], (pytest.mark.soak,)))
]


@pytest.mark.parametrize(("name", "label", "options", "seeds"), CASES)
def test_same_seeds_play_the_same_games(name: str, label: str, options: dict[str, object],
                                        seeds: range, update_golden: bool) -> None:
    games = record()
    variant = f"{name}-{label}"
    now = {str(seed): played(name, options, seed) for seed in seeds}
    if update_golden:
        games.setdefault(variant, {}).update(now)
        RECORD.write_text(json.dumps(games, indent=1, sort_keys=True) + "\n")
        return
    recorded = games.get(variant, {})
    differ = [seed for seed in now if recorded.get(seed) != now[seed]]
    assert not differ, (
        f"{variant}: seeds {', '.join(differ)} play differently from the record "
        f"(first: seed {differ[0]}: recorded {recorded.get(differ[0])!r}, now {now[differ[0]]!r})")
