"""The small runtime that generated game modules import (`from dsl import runtime as rt`).

Generated modules hold the rules as straight-line Python; the runtime holds what every game
shares, one job per module. This module is the runtime's face to generated code: the names it
uses (`__all__`) and GameState, the class a generated State subclasses, which combines:

- dsl.runtime_state: the core: class tables, the public API, the phase loop, cards and zones;
- dsl.runtime_copies: copies of a card as choices of actions;
- dsl.runtime_paths: get and set by rulebook path, and JSON;
- dsl.runtime_views: what each player sees (observation, action_text);
- dsl.runtime_seats: teams, players who are out, and turn order among those still in.
- dsl.runtime_sample: a state a player cannot tell from this one (resample).

Below those: dsl.runtime_base (errors, actions, constants, helpers of generated expressions),
dsl.runtime_rng (the seeded random generator), dsl.runtime_fields (the tables describing a
game's fields and phases), dsl.runtime_geometry (areas of boards) and dsl.runtime_setup (the
options and decks of a new game).
"""

from __future__ import annotations

from dsl.runtime_base import (
    COPY_CHOICES,
    NO_NAMES,
    TERMINAL,
    Action,
    CopyNames,
    IllegalAction,
    Listed,
    RuleError,
    capitalised,
    card_name,
    first,
    frozen,
    item,
    last,
    some,
)
from dsl.runtime_copies import CardCopies
from dsl.runtime_fields import CardField, GameField, NodeField, PhaseRules, PlayerField
from dsl.runtime_geometry import (
    connected,
    facing_distance,
    grid_cell,
    grid_line,
    ring,
    rings,
    within,
)
from dsl.runtime_paths import StatePaths
from dsl.runtime_sample import Resampling
from dsl.runtime_seats import listed_teams, seat_bits, seat_teams
from dsl.runtime_setup import OptionView, choose_decks, counts_text, merge_options, options_text

__all__ = [
    "COPY_CHOICES",
    "NO_NAMES",
    "TERMINAL",
    "Action",
    "CardField",
    "CopyNames",
    "GameField",
    "GameState",
    "IllegalAction",
    "Listed",
    "NodeField",
    "OptionView",
    "PhaseRules",
    "PlayerField",
    "RuleError",
    "capitalised",
    "card_name",
    "choose_decks",
    "connected",
    "counts_text",
    "facing_distance",
    "first",
    "frozen",
    "item",
    "grid_cell",
    "grid_line",
    "install_phases",
    "last",
    "listed_teams",
    "merge_options",
    "options_text",
    "ring",
    "rings",
    "seat_bits",
    "seat_teams",
    "some",
    "within",
]


class GameState(CardCopies, StatePaths, Resampling):
    """What every generated game state shares. Subclasses fill the class tables."""


def install_phases(state: type[GameState], phases: tuple[PhaseRules, ...]) -> None:
    """Give a generated State its phases. The phase loop reads one table per kind of rule
    (ENTER, ACTOR, ...), indexed by phase: faster in the hot loop than a record per phase."""
    state.PHASE_RULES = phases
    state.PHASES = tuple(phase.name for phase in phases)
    state.ENTER = tuple(phase.enter for phase in phases)
    state.ACTOR = tuple(phase.actor for phase in phases)
    state.DONE = tuple(phase.done for phase in phases)
    state.PHASE_CHECKPOINTS = tuple(phase.checkpoints for phase in phases)
    state.LEGAL = tuple(phase.legal for phase in phases)
    state.PLY = tuple(phase.ply for phase in phases)
