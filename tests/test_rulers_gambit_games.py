"""Seeded random games of Ruler's Gambit, played to the end through the public API: what this
game's rules promise, on top of the API contract that tests/test_api_contract.py checks of
every generated game (the player to act, legal actions and their ids, zone capacities, secrecy
as each zone and field is declared, get() against observation(), replay, clone() and JSON).

The shipped decks are read at run time (`game.DECKS`) and grouped into deck pairs by the colours
of their Kingdom card: the two decks of one colour pair play each other, the seats (A/B)
alternating with the seed. If the colours do not give pairs of two, the decks are paired by
sorted name, two by two.

Every ply of every game checks, reading each zone with `state.get("zone.<slot>")` (which sees
hidden zones too):

(a) card conservation: the cards in each player's zones are exactly that player's deck, as a
    multiset of names: every card is in exactly one zone, none is created, lost or moved to
    the other player (the game has no shared zones; one would be allowed to hold anyone's);
(b) each Kingdom-Ruler card stays in its owner's Kingdom Zone or, as a Ruler, in their Unit
    Zone (it is Invincible);
(c) LP and mana are in bounds: mana 0..12, LP 1..MAX_LP while the game is on;
(d) the game ends within MAX_PLIES plies, its returns agree with the LP.

The hands are the owners', the decks nobody's and set spells secret until revealed (declared
so, which the contract test holds observation() to). The default tier plays GAMES_PER_PAIR
games of each pair; the soak tier (`-m soak`) the rest of SOAK_GAMES.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import generated.rulers_gambit as game
from tests.playing import State, named_failures, play_checked
from tests.tiers import batch_id, batches

PLAYERS: tuple[str, ...] = tuple(game.INFO["player_names"])
GAMES_PER_PAIR, SOAK_GAMES = 3, 1000
MAX_PLIES = 3000  # random games observed: 64..620 plies
MAX_MANA = 12
MAX_LP = 100  # Kingdoms start at 15-16 LP; heal is uncapped, so this is a sanity bound

Pair = tuple[str, str]


# ------------------------------------------------------------------ decks, pairs and zones


def deck_cards(deck: str) -> list[str]:
    """The card names of a shipped deck, Kingdom included."""
    return [game.DEF_NAMES[d] for d in game.DECKS[deck]]


def kingdom_of(deck: str) -> str:
    """The name of the deck's Kingdom-Ruler card."""
    kingdom = game.E_KIND_NAMES.index("kingdom")
    found: list[str] = [
        game.DEF_NAMES[d] for d in game.DECKS[deck] if game.C_CARD_KIND[d] == kingdom
    ]
    assert len(found) == 1, f"deck {deck} has Kingdom cards {found}"
    return found[0]


def kingdom_colours(deck: str) -> frozenset[str]:
    kingdom = game.E_KIND_NAMES.index("kingdom")
    return frozenset(
        game.E_COLOUR_NAMES[c]
        for d in game.DECKS[deck] if game.C_CARD_KIND[d] == kingdom
        for c in game.C_CARD_COLOURS[d]
    )


def deck_pairs() -> list[Pair]:
    """The decks of each Kingdom colour pair, playing each other; by sorted name two by two
    when the colours do not group the decks in twos (a last odd deck plays itself)."""
    names = sorted(game.INFO["decks"])
    assert sorted(game.DECKS) == names, "INFO['decks'] and DECKS disagree"
    groups: dict[frozenset[str], list[str]] = {}
    for name in names:
        groups.setdefault(kingdom_colours(name), []).append(name)
    if groups and all(len(group) == 2 for group in groups.values()):
        return sorted((group[0], group[1]) for group in groups.values())
    padded = names + names[-1:] if len(names) % 2 else names
    return [(padded[i], padded[i + 1]) for i in range(0, len(padded), 2)]


PAIRS = deck_pairs()


def pair_id(pair: Pair) -> str:
    return f"{pair[0]}-vs-{pair[1]}"


def seats(pair: Pair, seed: int) -> Pair:
    """The decks of A and B: the pair in order on even seeds, swapped on odd ones."""
    return pair if seed % 2 == 0 else (pair[1], pair[0])


def zone_slots() -> list[tuple[str, str | None]]:
    """Every zone slot as (its `get` path, the player it belongs to or None if shared), built
    from State.ZONES (name, base slot, key names) and State.SLOT_NAMES."""
    slots: list[tuple[str, str | None]] = []
    for name, base, dims in game.State.ZONES:
        keys: list[list[str]] = [[]]
        for dim in dims:
            keys = [k + [key] for k in keys for key in dim]
        for offset, key in enumerate(keys):
            slot_name = ".".join([name, *key])
            assert game.State.SLOT_NAMES[base + offset] == slot_name, (
                f"slot {base + offset} is {game.State.SLOT_NAMES[base + offset]}, not {slot_name}"
            )
            owners = [k for k in key if k in PLAYERS]
            slots.append((f"zone.{slot_name}", owners[0] if len(owners) == 1 else None))
    assert len(slots) == len(game.State.SLOT_NAMES), "ZONES and SLOT_NAMES disagree"
    return slots


SLOTS = zone_slots()
OWN_PATHS = {p: tuple(path for path, owner in SLOTS if owner == p) for p in PLAYERS}
SHARED_PATHS = tuple(path for path, owner in SLOTS if owner is None)


# ------------------------------------------------------------------ the per-ply checks


class Match:
    """One game's fixed facts: each seat's deck, sorted card names and Kingdom card."""

    def __init__(self, pair: Pair, seed: int) -> None:
        self.decks = seats(pair, seed)
        self.cards = {p: sorted(deck_cards(d)) for p, d in zip(PLAYERS, self.decks, strict=True)}
        self.kingdoms = {p: kingdom_of(d) for p, d in zip(PLAYERS, self.decks, strict=True)}

    def new_state(self, seed: int) -> State:
        return game.new_game(seed=seed, decks=dict(zip(PLAYERS, self.decks, strict=True)))


def check_cards(state: State, match: Match) -> None:
    """(a) conservation and ownership, (b) the Kingdom's place."""
    missing: Counter[str] = Counter()
    for player in PLAYERS:
        zones = {path: state.get(path) for path in OWN_PATHS[player]}
        held = sorted(name for cards in zones.values() for name in cards)
        if held != match.cards[player]:
            expected = Counter(match.cards[player])
            extra = Counter(held) - expected
            assert not extra, f"{player}'s zones hold cards not of their deck: {dict(extra)}"
            missing += expected - Counter(held)
        kingdom = match.kingdoms[player]
        assert kingdom in zones[f"zone.kingdom_zone.{player}"] or kingdom in zones.get(
            f"zone.units.{player}", ()
        ), f"{player}'s Kingdom {kingdom} left the Kingdom and Unit Zones"
    if SHARED_PATHS or missing:
        shared = Counter(name for path in SHARED_PATHS for name in state.get(path))
        assert shared == missing, (
            f"cards missing from the players' zones {dict(missing)} != cards in shared zones "
            f"{dict(shared)}"
        )


def check_counters(state: State, terminal: bool) -> None:
    """(c) LP and mana in bounds."""
    for player in PLAYERS:
        mana = state.get(f"player.{player}.mana")
        assert 0 <= mana <= MAX_MANA, f"{player} has {mana} mana"
        lp = state.get(f"player.{player}.lp")
        assert lp <= MAX_LP, f"{player} has {lp} LP"
        assert terminal or lp > 0, f"{player} has {lp} LP and the game goes on"


def check_result(state: State) -> None:
    """(d) the returns agree with the LP when someone is at 0."""
    returns = state.returns()
    down = [p for p in PLAYERS if state.get(f"player.{p}.lp") <= 0]
    if len(down) == 2:
        assert returns == [0.0, 0.0], f"both players at 0 LP, returns {returns}"
    elif len(down) == 1:
        loser = PLAYERS.index(down[0])
        assert returns[loser] == -1.0, f"{down[0]} is at 0 LP, returns {returns}"


def check_ply(state: State, match: Match) -> None:
    """Check every per-ply invariant of the position."""
    terminal = state.is_terminal()
    check_cards(state, match)
    check_counters(state, terminal)
    if terminal:
        check_result(state)


def play_one(pair: Pair, seed: int) -> list[str]:
    """Play one random game with every check at every ply; return the actions' texts."""
    match = Match(pair, seed)
    choose = random.Random(seed).choice
    history: list[str] = []
    with named_failures(f"A={match.decks[0]} B={match.decks[1]} seed {seed}", history):
        play_checked(match.new_state(seed), choose, history,
                     lambda state: check_ply(state, match), MAX_PLIES)
    return history


def test_decks_pair_up() -> None:
    assert PAIRS, "no shipped decks"
    paired = sorted(d for pair in PAIRS for d in pair)
    assert set(paired) == set(game.DECKS)
    for deck in game.DECKS:
        assert len(deck_cards(deck)) > 0 and kingdom_of(deck)


def test_hands_decks_and_set_spells_are_secret() -> None:
    """A hand is its owner's, a deck nobody's, a set spell secret until revealed: declared
    so, and the contract test holds observation() to what is declared."""
    seen = {name.split(".")[0]: visibility
            for name, visibility in zip(game.SLOT_NAMES, game.SLOT_VISIBILITY, strict=True)}
    assert (seen["hand"], seen["deck"], seen["set_zone"]) == ("owner", "hidden", "secret")


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_random_games(pair: Pair) -> None:
    for seed in range(GAMES_PER_PAIR):
        assert 0 < len(play_one(pair, seed)) <= MAX_PLIES


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(GAMES_PER_PAIR, SOAK_GAMES), ids=batch_id)
@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_random_games_soak(pair: Pair, seeds: range) -> None:
    for seed in seeds:
        assert 0 < len(play_one(pair, seed)) <= MAX_PLIES


def test_an_activated_set_spell_shows_its_target() -> None:
    """A set spell activated on a target is revealed, and so is the target it was given (its
    public `chosen` field): the opponent sees what the spell is aimed at."""
    shown = 0
    for seed in range(40):
        state = game.new_game(seed=seed)
        choose = random.Random(seed).choice
        while not state.is_terminal():
            action = choose(state.legal_actions())
            state.apply_action(action)
            if game.ACTIONS[action.kind] in ("activate_spell_at", "chain_set_at"):
                break
        else:
            continue
        actor = PLAYERS[action.actor]
        # an argument names a definition, plus which copy when copies differ
        spell, target = (game.DEF_NAMES[arg % len(game.DEF_NAMES)] for arg in action.args)
        view = state.observation(1 - action.actor)
        revealed = view["zones"][f"set_zone.{actor}"]["revealed"]
        fields = view["cards"][f"set_zone.{actor}"]  # one mapping per revealed card, in order
        assert len(fields) == len(revealed) and spell in revealed
        assert any(name == spell and f["chosen"] == target
                   for name, f in zip(revealed, fields, strict=True))
        shown += 1
        if shown == 5:
            break
    assert shown == 5
