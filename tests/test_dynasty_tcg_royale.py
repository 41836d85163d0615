"""Dynasty TCG's Victory Royale in the soak tier: 1,000 seeded random games, 1v1v1 and 1v1v1v1 in
turn, with every check of tests/test_dynasty_tcg_modes.py at every ply. A file of its own so
that pytest-xdist (`--dist loadfile`, a file to a process) plays it beside the wars."""

from __future__ import annotations

import pytest

from tests.test_dynasty_tcg_modes import SOAK_GAMES, play_soak
from tests.tiers import batch_id, batches


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(0, SOAK_GAMES), ids=batch_id)
def test_random_royales_soak(seeds: range) -> None:
    play_soak("royale", seeds)
