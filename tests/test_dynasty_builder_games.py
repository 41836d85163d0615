"""Seeded random games of Dynasty Builder to the end (a win, or the Timeout after ROUNDS
rounds), through the public API: what this game's rules promise, on top of the API contract
that tests/test_api_contract.py checks of every generated game (the player to act, legal
actions and their ids, get() against observation(), replay, clone() and JSON). Every ply of
every game checks:

(a) units: one player's at most per hex, one land unit and one ship at most; ships on water,
    land units on land, a bridge or their own ship; none on an enemy centre;
(b) buildings: one of house / land token / centre / bridge per hex at most; houses and tokens on
    plain or forest, bridges on water, one bridge per player; a centre iff level 1..5;
(c) conservation: board houses + supply == the `houses` option; board units + fallen grows by 1
    on the actor's first soldier / recruit / enlist only; fallen never shrinks; supply, tokens
    >= 0; after a recruit or enlist the actor has at most cities + 1 units;
(d) territory: every `claim` is "within 2 x level of one of the player's centres";
(e) history: levels never fall and rise only on build actions; centres appear only on founding
    actions, vanish only on attacks; `round` steps on B's end of turn; only cities of the player
    to act have recruited; a fight is pending exactly in the muster, respond and tie phases,
    and only then are units supporting;
(f) nobody meets a win condition while the game goes on; the returns are what decision ORDER
    and the Timeout points give.

More games follow a campaign policy (see CAMPAIGN_WEIGHTS) over 20 rounds, so that the
fighting rules run under the same checks. The default tier plays GAMES and CAMPAIGNS of them;
the soak tier (`-m soak`) the rest of SOAK_GAMES and SOAK_CAMPAIGNS.

Reading 108 hexes with get() costs more per ply than playing it, so the games read the columns
behind `hex.*` and `zone.units.*` by the generated State's field tables (`read_fast`), checked
against get() on every ply of sample games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import generated.dynasty_builder as game
from tests.playing import State, named_failures
from tests.tiers import batch_id, batches, seeds

PLAYERS: tuple[str, ...] = tuple(game.INFO["player_names"])
HEXES: tuple[str, ...] = game.N_HEX_NAMES
DISTANCE: tuple[tuple[int, ...], ...] = game.N_HEX_DISTANCE
HOUSES: int = game.INFO["options"]["houses"]
ROUNDS = 6  # 8 rounds take ~40 s for the file, 6 take ~30 s
GAMES, SOAK_GAMES = 5, 1000
SAMPLE_GAMES, SOAK_SAMPLE_GAMES = 3, 10  # for the fast reads
MAX_PLIES = 40 * (ROUNDS + 1)  # random games observed: 71..99 plies for 6 rounds
RESULTS = ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
WIN_TOTAL = 12  # city levels (Dynasty) or military tokens (Veteran)
LEVEL3_UNITS = ("Knight", "Siege Tower")
CREATING = frozenset({"first_unit", "recruit", "enlist"})
BUILDING = frozenset({"build_house", "to_token", "to_house", "demolish", "found_city",
                      "build_bridge"})
FOUNDING = frozenset({"capital", "found_city", "raise_city"})
SIEGING = frozenset({"attack", "try_again", "support", "end_muster"})
FIGHTING = ("muster", "respond", "tie")  # the phases of a pending fight
BUILT = {"house": ("plain", "forest"), "token": ("plain", "forest"),
         "centre": tuple(game.E_TERRAIN_NAMES), "bridge": ("water",)}  # where each may stand
COLUMNS = ("terrain", "level", "recruited", *BUILT)
NODE_ATTR = {f[2]: f[3] for f in game.State.NODE_FIELDS}
SUPPORTING = {f[0]: f[1] for f in game.State.CARD_FIELDS}["supporting"]
UNITS_BASE = dict((name, base) for name, base, _ in game.State.ZONES)["units"]
_claims: dict[tuple[tuple[int, int, int], ...], list[list[bool]]] = {}


def new_state(seed: int, rounds: int = ROUNDS) -> State:
    return game.new_game(seed=seed, players=2, options={"rounds": rounds})


# Uniform random play rarely fights: units are disbanded or idle long before they meet. The
# campaign policy weights actions by kind (attack, found, recruit above ending a phase or
# disbanding) and steps by whether they come closer to the nearest enemy centre, so sieges,
# ranged attacks, evades, retaliations and ties happen; the same checks run on every ply.
CAMPAIGN_ROUNDS, CAMPAIGNS, SOAK_CAMPAIGNS = 20, 3, 200
CAMPAIGN_WEIGHTS = {
    "attack": 50.0, "recruit": 20.0, "enlist": 20.0, "raise_city": 20.0, "found_city": 30.0,
    "dismiss": 0.01, "to_token": 0.05, "demolish": 0.02, "build_bridge": 0.3,
    "end_build": 0.02, "end_march": 0.02, "end_recruit": 0.01,
}


def campaign_choice(rng: random.Random, state: State, legal: list[Any]) -> Any:
    centres = [i for i, h in enumerate(HEXES) if state.get(f"hex.{h}.centre") is not None]
    owners = {i: state.get(f"hex.{HEXES[i]}.centre") for i in centres}
    weights: list[float] = []
    for action in legal:
        kind = game.ACTIONS[action.kind]
        weight = CAMPAIGN_WEIGHTS.get(kind, 1.0)
        if kind == "step":
            me = PLAYERS[action.actor]
            targets = [i for i in centres if owners[i] != me]
            if targets:
                start, to = action.args[0], action.args[2]
                closer = min(DISTANCE[to][i] for i in targets) < min(
                    DISTANCE[start][i] for i in targets)
                weight = 3.0 if closer else 0.3
        weights.append(weight)
    return rng.choices(legal, weights)[0]


def read_scalars(state: State) -> dict[str, Any]:
    names = ("phase", "round", "builds", "begun", "attacker", "target", "attack_from")
    values = {name: state.get(name) for name in names}
    for field in ("supply", "tokens"):
        values[field] = [state.get(f"player.{p}.{field}") for p in PLAYERS]
    values["fallen"] = [len(state.get(f"zone.fallen.{p}")) for p in PLAYERS]
    return values


def read_fast(state: State) -> dict[str, Any]:
    """The position: scalars by get(), hex columns and units by the State's field tables."""
    values = read_scalars(state)
    for name in (*COLUMNS, "claim"):
        values[name] = getattr(state, NODE_ATTR[name])
    values["terrain"] = [game.E_TERRAIN_NAMES[t] for t in values["terrain"]]
    for name in BUILT:
        values[name] = [None if p is None else PLAYERS[p] for p in values[name]]
    n, defs, zones = len(HEXES), state.card_def, state.zones
    slots = [zones[UNITS_BASE + p * n:UNITS_BASE + (p + 1) * n] for p in range(len(PLAYERS))]
    values["units"] = [[[game.DEF_NAMES[defs[c]] for c in z] if z else [] for z in row]
                       for row in slots]
    return values


def read_with_get(state: State) -> dict[str, Any]:
    """What read_fast reads, path by path with get()."""
    values = read_scalars(state)
    for name in COLUMNS:
        values[name] = [state.get(f"hex.{h}.{name}") for h in HEXES]
    values["claim"] = [[state.get(f"hex.{h}.claim.{p}") for p in PLAYERS] for h in HEXES]
    values["units"] = [[state.get(f"zone.units.{p}.{h}") for h in HEXES] for p in PLAYERS]
    return values


def expected_claims(centres: tuple[tuple[int, int, int], ...]) -> list[list[bool]]:
    """Each hex's claim per player, given the centres (hex, owner, level): within 2 x level."""
    found = _claims.get(centres)
    if found is None:
        found = [[False] * len(PLAYERS) for _ in HEXES]
        for centre, owner, level in centres:
            for h, d in enumerate(DISTANCE[centre]):
                found[h][owner] |= d <= 2 * level
        _claims[centres] = found
    return found


class Game:
    """One random game with every check at every ply."""

    def __init__(self, seed: int, rounds: int = ROUNDS, campaign: bool = False) -> None:
        self.seed, self.rounds, self.campaign = seed, rounds, campaign
        self.state = new_state(seed, rounds)
        self.history: list[str] = []
        self.last: str | None = None  # the kind of the last action, and who played it
        self.actor = -1
        self.created, self.fallen, self.round = [0, 0], [0, 0], 1
        self.centres: dict[int, tuple[int, int]] = {}
        self.terrain = [self.state.get(f"hex.{h}.terrain") for h in HEXES]

    def play(self) -> list[str]:
        rng = random.Random(self.seed)
        limit = MAX_PLIES * (self.rounds + 1) // (ROUNDS + 1) * (5 if self.campaign else 1)
        with named_failures(f"seed {self.seed}", self.history):
            legal = self.check()
            while not self.state.is_terminal():
                assert len(self.history) < limit, f"no end within {limit} plies"
                action = (campaign_choice(rng, self.state, legal) if self.campaign
                          else rng.choice(legal))
                self.history.append(str(action))
                self.last, self.actor = game.ACTIONS[action.kind], action.actor
                self.state.apply_action(action)
                legal = self.check()
        return self.history

    def check(self) -> list[Any]:
        state, terminal, current = self.state, self.state.is_terminal(), self.state.current_player()
        legal: list[Any] = state.legal_actions()
        b = read_fast(state)
        # whose turn it is: the actor but in `respond` (no city has recruited then) and at the
        # end, where the game's own `current` field says
        turn = PLAYERS[current] if not terminal else state.get("current")
        centres, on_board, knights = self.check_board(b, turn)
        levels = [sum(lv for o, lv in centres.values() if o == p) for p in (0, 1)]
        cities = [sum(1 for o, _ in centres.values() if o == p) for p in (0, 1)]
        self.check_counts(b, on_board, cities)
        key = tuple(sorted((c, o, lv) for c, (o, lv) in centres.items()))
        wrong = [h for h, x, y in zip(HEXES, b["claim"], expected_claims(key), strict=True)
                 if x != y]
        assert not wrong, f"claims differ from the centres {key} at {wrong}"
        self.check_history(b, centres, terminal)
        supporting = any(getattr(state, SUPPORTING))
        assert not supporting or b["phase"] in FIGHTING, f"units support in {b['phase']}"
        if terminal:
            self.check_result(b, turn, levels, cities, knights)
        elif b["begun"]:
            assert b["round"] <= self.rounds, f"round {b['round']} and the game goes on"
            for p, name in enumerate(PLAYERS):
                assert levels[p] < WIN_TOTAL and b["tokens"][p] < WIN_TOTAL and cities[p], (
                    f"{name}: {levels[p]} levels, {b['tokens'][p]} tokens, {cities[p]} cities")
        return legal

    def check_board(self, b: dict[str, Any], turn: str) -> tuple[
            dict[int, tuple[int, int]], list[int], list[int]]:
        """(a), (b); the centres {hex: (owner, level)}, units and level 3 units per player."""
        terrain, level, centre = b["terrain"], b["level"], b["centre"]
        assert terrain == self.terrain, "the terrain changed"
        placed = {name: [i for i, x in enumerate(b[name]) if x is not None] for name in BUILT}
        spots = [i for where in placed.values() for i in where]
        assert len(spots) == len(set(spots)), f"two buildings on one hex: {placed}"
        for name, allowed in BUILT.items():
            wrong = [(HEXES[i], terrain[i]) for i in placed[name] if terrain[i] not in allowed]
            assert not wrong, f"a {name} on {wrong}"
        cities = placed["centre"]
        assert [i for i, v in enumerate(level) if v] == cities and all(
            1 <= level[i] <= 5 for i in cities), f"levels {level}, centres at {cities}"
        for i in [i for i, recruited in enumerate(b["recruited"]) if recruited]:
            assert centre[i] == turn and b["phase"] in ("recruit", "make_way", "disband"), (
                f"{HEXES[i]}: {centre[i]}'s city recruited in {turn}'s {b['phase']} phase")
        on_board, knights = [0, 0], [0, 0]
        occupied: list[set[str]] = [set(), set()]
        for owner, row in enumerate(b["units"]):
            for i, mine in [(i, mine) for i, mine in enumerate(row) if mine]:
                h, ships = HEXES[i], mine.count("Ship")
                occupied[owner].add(h)
                on_board[owner] += len(mine)
                knights[owner] += sum(1 for u in mine if u in LEVEL3_UNITS)
                assert ships <= 1 and len(mine) - ships <= 1, f"{h}: {PLAYERS[owner]} has {mine}"
                assert not ships or terrain[i] == "water", f"{h}: a ship on {terrain[i]}"
                assert len(mine) == ships or terrain[i] != "water" or b["bridge"][i] or ships, (
                    f"{h}: a land unit on water with no bridge and no ship")
                assert centre[i] in (None, PLAYERS[owner]), f"{h}: {mine} on {centre[i]}'s city"
        assert not occupied[0] & occupied[1], f"units of both on {occupied[0] & occupied[1]}"
        return {i: (PLAYERS.index(centre[i]), level[i]) for i in cities}, on_board, knights

    def check_counts(self, b: dict[str, Any], on_board: list[int], cities: list[int]) -> None:
        """(c): houses and units conserved, counters in bounds."""
        for p, name in enumerate(PLAYERS):
            houses, supply, fallen = b["house"].count(name), b["supply"][p], b["fallen"][p]
            assert houses + supply == HOUSES, f"{name}: {houses} houses + supply {supply}"
            assert supply >= 0 and b["tokens"][p] >= 0, f"{name}: {supply}, {b['tokens'][p]}"
            assert b["bridge"].count(name) <= 1, f"{name} has {b['bridge'].count(name)} bridges"
            created = on_board[p] + fallen
            grown = 1 if self.last in CREATING and self.actor == p else 0
            assert created == self.created[p] + grown, (
                f"{name}: board {on_board[p]} + fallen {fallen} after {self.created[p]} units")
            assert fallen >= self.fallen[p], f"{name}'s fallen {self.fallen[p]} -> {fallen}"
            self.created[p], self.fallen[p] = created, fallen
        p = self.actor
        assert self.last not in ("recruit", "enlist") or on_board[p] <= cities[p] + 1, (
            f"{PLAYERS[p]} has {on_board[p]} units and {cities[p]} cities after a recruit")

    def check_history(self, b: dict[str, Any], centres: dict[int, tuple[int, int]],
                      terminal: bool) -> None:
        """(e): what may change from the previous ply, given the action played."""
        for c, (owner, level) in self.centres.items():
            now = centres.get(c)
            if now is None:
                assert self.last in SIEGING, f"the city at {HEXES[c]} vanished on {self.last}"
                continue
            assert now[0] == owner, f"the city at {HEXES[c]} changed owner"
            assert now[1] >= level, f"the city at {HEXES[c]} fell from {level} to {now[1]}"
            assert now[1] == level or self.last in BUILDING, f"{HEXES[c]} rose on {self.last}"
        new = [HEXES[c] for c in centres if c not in self.centres]
        assert not new or (len(new) == 1 and self.last in FOUNDING), f"{new} on {self.last}"
        assert b["round"] == self.round + (self.last == "end_turn" and self.actor == 1), (
            f"round {self.round} -> {b['round']} on {PLAYERS[self.actor]}'s {self.last}")
        self.round, self.centres = b["round"], centres
        assert 0 <= b["builds"] <= 3, f"{b['builds']} builds left"
        fight = [b[x] is not None for x in ("attacker", "target", "attack_from")]
        pending = [b["phase"] in FIGHTING] * 3
        assert terminal or fight == pending, f"fight {fight} in the {b['phase']} phase"

    def check_result(self, b: dict[str, Any], turn: str, levels: list[int], cities: list[int],
                     knights: list[int]) -> None:
        """The returns follow the checkpoint: the player to act first, then the other."""
        returns, tokens, first = self.state.returns(), b["tokens"], PLAYERS.index(turn)
        assert returns in RESULTS, f"returns {returns}"
        assert b["round"] <= self.rounds + 1, f"the game ended in round {b['round']}"
        expected: list[float] | None = None
        for p in (first, 1 - first):
            if levels[p] >= WIN_TOTAL or tokens[p] >= WIN_TOTAL or cities[1 - p] == 0:
                expected = [1.0, -1.0] if p == 0 else [-1.0, 1.0]
                break
        if expected is None:
            assert b["round"] > self.rounds, f"returns {returns}, yet nobody meets a win condition"
            assert turn == PLAYERS[-1] and b["phase"] == "disband", (
                f"the Timeout came in {turn}'s {b['phase']} phase, not after equal turns")
            a, z = (2 * levels[p] + knights[p] + tokens[p] for p in (0, 1))
            expected = [1.0, -1.0] if a > z else [-1.0, 1.0] if z > a else [0.0, 0.0]
        assert returns == expected, (
            f"returns {returns}, expected {expected}: levels {levels}, tokens {tokens}, "
            f"cities {cities}, level 3 units {knights}, round {b['round']}")


def test_random_games() -> None:
    for seed in range(GAMES):
        assert 0 < len(Game(seed).play()) <= MAX_PLIES


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(GAMES, SOAK_GAMES), ids=batch_id)
def test_random_games_soak(seeds: range) -> None:
    for seed in seeds:
        assert 0 < len(Game(seed).play()) <= MAX_PLIES


def test_campaign_games() -> None:
    kinds: set[str] = set()
    for seed in range(CAMPAIGNS):
        kinds.update(text.split()[1] for text in Game(seed, CAMPAIGN_ROUNDS, True).play())
    assert "attacks" in kinds, kinds


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(CAMPAIGNS, SOAK_CAMPAIGNS), ids=batch_id)
def test_campaign_games_soak(seeds: range) -> None:
    for seed in seeds:
        assert Game(seed, CAMPAIGN_ROUNDS, campaign=True).play()


@pytest.mark.soak
def test_campaigns_fight() -> None:
    """The campaign games reach the fighting rules (else the soak test above would prove
    little)."""
    kinds: set[str] = set()
    for seed in range(25):
        kinds.update(text.split()[1] for text in Game(seed, CAMPAIGN_ROUNDS, True).play())
    # over 200 campaigns: ~2,200 attacks, 279 evades, 63 retries, 69 back-offs, 16 retaliations,
    # 261 supporters called
    assert {"attacks", "calls", "tries", "backs", "spends", "recruits"} <= kinds, kinds


# ------------------------------------------------------------------ the fast reads


@pytest.mark.parametrize("seed", seeds(SAMPLE_GAMES, SOAK_SAMPLE_GAMES))
def test_fast_reads_match_get(seed: int) -> None:
    state, choose = new_state(seed), random.Random(seed).choice
    while True:
        assert read_fast(state) == read_with_get(state)
        if state.is_terminal():
            break
        state.apply_action(choose(state.legal_actions()))


def test_a_game_field_named_current_is_read_and_set_as_that_field() -> None:
    """`current` names the actor only in games without a field of that name: here it is the
    rulebook's field, which scenarios read and set like any other."""
    import generated.dynasties as other

    state = game.new_game(seed=3)
    assert state.get("current") == state.observation(0)["state"]["current"]
    state.set("current", "B")
    assert state.get("current") == "B" and state.observation(1)["state"]["current"] == "B"
    assert state.get("actor") == PLAYERS[state.current_player()]
    dynasties = other.new_game(seed=3)
    assert dynasties.get("current") == dynasties.get("actor") == "A"
