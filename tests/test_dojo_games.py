"""Seeded random games of Dojo TCG, played to the end through the public API: what this game's
rules promise, on top of the API contract that tests/test_api_contract.py checks of every
generated game (the player to act, legal actions and their ids, zone capacities, secrecy as each
zone and field is declared, get() against observation(), replay, clone() and JSON).

The shipped decks are read at run time (`game.DECKS`) and paired by sorted name, two by two; the
two decks of a pair play each other, the seats (A/B) alternating with the seed.

Every ply of every game checks, reading each zone with `state.get("zone.<slot>")` (which sees
hidden zones too):

(a) card conservation: the cards in each player's zones are exactly that player's deck, as a
    multiset of names: every card is in exactly one zone, none is created, lost or moved to the
    other player; each homeland stays in its owner's homeland zone;
(b) CU is never negative, and a player never has more than 3 actions (nor fewer than 0);
(c) no hidden card shows: in the opponent's observation, the hand, the deck and the face-down
    items of a player are a count (face-down items: plus the revealed ones, which fire and leave
    at once), with no per-card fields; and the text of each action, as the opponent reads it
    (`action_text`), names only cards that the opponent's observation shows before or after it;
(d) the game ends within MAX_PLIES plies, and the loser is a player whose homeland has no health
    left or whose deck is empty.

The default tier plays GAMES_PER_PAIR games of each pair; the soak tier (`-m soak`) plays the rest
of SOAK_GAMES_PER_PAIR, so SOAK_GAMES in all.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import generated.dojo as game
from tests.playing import State, named_failures, play_checked, read_by_opponent, shown_names
from tests.tiers import batch_id, batches

PLAYERS: tuple[str, ...] = tuple(game.INFO["player_names"])
GAMES_PER_PAIR, SOAK_GAMES = 3, 1000
MAX_PLIES = 3000  # random games observed: 40..450 plies
MAX_ACTIONS = 3
HIDDEN_ZONES = ("hand", "deck", "facedown")

Pair = tuple[str, str]


def deck_cards(deck: str) -> list[str]:
    """The card names of a shipped deck, homeland included."""
    return [game.DEF_NAMES[d] for d in game.DECKS[deck]]


def homeland_of(deck: str) -> str:
    homeland = game.E_KIND_NAMES.index("homeland")
    found = [game.DEF_NAMES[d] for d in game.DECKS[deck] if game.C_CARD_KIND[d] == homeland]
    assert len(found) == 1, f"deck {deck} has homelands {found}"
    return found[0]


def deck_pairs() -> list[Pair]:
    """The decks by sorted name, two by two (a last odd deck plays itself)."""
    names = sorted(game.INFO["decks"])
    assert sorted(game.DECKS) == names, "INFO['decks'] and DECKS disagree"
    padded = names + names[-1:] if len(names) % 2 else names
    return [(padded[i], padded[i + 1]) for i in range(0, len(padded), 2)]


PAIRS = deck_pairs()
SOAK_GAMES_PER_PAIR = SOAK_GAMES // len(PAIRS)
# a card name as a whole phrase of an action text, longest first ("Iron Fist Monk" before "Iron")
NAMES = re.compile("|".join(
    rf"\b{re.escape(name)}\b" for name in sorted(set(game.DEF_NAMES), key=len, reverse=True)))


def pair_id(pair: Pair) -> str:
    return f"{pair[0]}-vs-{pair[1]}"


def seats(pair: Pair, seed: int) -> Pair:
    """The decks of A and B: the pair in order on even seeds, swapped on odd ones."""
    return pair if seed % 2 == 0 else (pair[1], pair[0])


def zone_paths(player: str) -> list[str]:
    """The `get` paths of every zone of the player (Dojo has no shared zones)."""
    paths = [f"zone.{name}.{player}" for name, _base, _dims in game.State.ZONES]
    assert all(dims == ((PLAYERS),) for _name, _base, dims in game.State.ZONES), \
        "every Dojo zone is one per player"
    return paths


PATHS = {p: zone_paths(p) for p in PLAYERS}


class Match:
    """One game's fixed facts: each seat's deck, its sorted card names and homeland."""

    def __init__(self, pair: Pair, seed: int) -> None:
        self.decks = seats(pair, seed)
        self.cards = {p: sorted(deck_cards(d)) for p, d in zip(PLAYERS, self.decks, strict=True)}
        self.homelands = {p: homeland_of(d) for p, d in zip(PLAYERS, self.decks, strict=True)}

    def new_state(self, seed: int) -> State:
        return game.new_game(seed=seed, decks=dict(zip(PLAYERS, self.decks, strict=True)))


def check_cards(state: State, match: Match) -> None:
    """(a) conservation, ownership and the homeland's place."""
    for player in PLAYERS:
        held = sorted(name for path in PATHS[player] for name in state.get(path))
        if held != match.cards[player]:
            expected, found = Counter(match.cards[player]), Counter(held)
            raise AssertionError(f"{player}'s zones differ from their deck: missing "
                                 f"{dict(expected - found)}, extra {dict(found - expected)}")
        assert state.get(f"zone.homelands.{player}") == [match.homelands[player]], (
            f"{player}'s homeland {match.homelands[player]} left its zone")


def check_counters(state: State) -> None:
    """(b) CU and actions in bounds."""
    for player in PLAYERS:
        cu = state.get(f"player.{player}.cu")
        assert cu >= 0, f"{player} has {cu} CU"
        actions = state.get(f"player.{player}.actions")
        assert 0 <= actions <= MAX_ACTIONS, f"{player} has {actions} actions"
    assert state.get("pending") >= 0



def check_secrets(state: State) -> None:
    """(c), observations: each player's hidden zones are counts to the other player."""
    for viewer in PLAYERS:
        view = state.observation(PLAYERS.index(viewer))
        for player in PLAYERS:
            if player == viewer:
                continue
            for zone in HIDDEN_ZONES:
                slot = f"{zone}.{player}"
                shown = view["zones"][slot]
                assert isinstance(shown, dict), f"{viewer} sees {player}'s {zone}: {shown}"
                assert not shown.get("revealed"), f"{viewer} sees revealed {slot}: {shown}"
                assert slot not in view["cards"], f"{viewer} sees the fields of {slot}"



def check_result(state: State) -> None:
    """(d) the loser lost their homeland or ran out of cards."""
    returns = state.returns()
    for index, player in enumerate(PLAYERS):
        if returns[index] < 0:
            homeland = state.get(f"card.homelands.{player}.0.damage")
            destroyed = homeland >= 25
            decked = not state.get(f"zone.deck.{player}")
            assert destroyed or decked, f"{player} lost with {homeland} damage and cards left"


def check_ply(state: State, match: Match) -> None:
    check_cards(state, match)
    check_counters(state)
    check_secrets(state)
    if state.is_terminal():
        check_result(state)


def play_one(pair: Pair, seed: int) -> list[str]:
    """Play one random game with every check at every ply; return the actions' texts."""
    match = Match(pair, seed)
    choose = random.Random(seed).choice
    history: list[str] = []
    with named_failures(f"A={match.decks[0]} B={match.decks[1]} seed {seed}", history):
        play_checked(match.new_state(seed), choose, history,
                     lambda state: check_ply(state, match), MAX_PLIES,
                     read_by_opponent(NAMES, PLAYERS))
    return history


def test_decks_pair_up() -> None:
    assert len(PAIRS) >= 2, "Dojo ships at least four decks"
    assert {d for pair in PAIRS for d in pair} == set(game.DECKS)
    for deck in game.DECKS:
        assert len(deck_cards(deck)) == 51 and homeland_of(deck)


def test_hands_decks_and_facedown_items_are_secret() -> None:
    """A hand is its owner's, a deck nobody's, a face-down item secret until it fires: declared
    so, and the contract test holds observation() to what is declared."""
    seen = {name.split(".")[0]: visibility
            for name, visibility in zip(game.SLOT_NAMES, game.SLOT_VISIBILITY, strict=True)}
    assert (seen["hand"], seen["deck"], seen["facedown"]) == ("owner", "hidden", "secret")


FIRE, TIDE = "fire_earth_blaze", "water_electricity_tide"
# each face-down item of the starter set: A's deck, B's deck, B's cards in play and in hand,
# and the play of B's that fires it
TRIGGERS = [
    ("Pitfall Trap", FIRE, TIDE, [], "Coral Guard", "B plays Coral Guard"),
    ("Rust Trap", FIRE, TIDE, ["Coral Guard"], "Iron Armor",
     "B attaches Iron Armor to Coral Guard"),
    ("Landslide", FIRE, TIDE, [], "Watchtower", "B plays the location Watchtower"),
    ("Tsunami Warning", TIDE, FIRE, [], "Flame Fox", "B plays Flame Fox"),
    ("Backfire Seal", TIDE, FIRE, [], "Coin Purse", "B plays the item Coin Purse"),
    ("Ambush Scroll", TIDE, FIRE, [], "Dojo Student", "B plays Dojo Student"),
]


@pytest.mark.parametrize(("item", "deck_a", "deck_b", "in_play", "card", "play"), TRIGGERS,
                         ids=[t[0] for t in TRIGGERS])
def test_a_facedown_item_is_secret_until_it_fires(item: str, deck_a: str, deck_b: str,
                                                   in_play: list[str], card: str,
                                                   play: str) -> None:
    """Setting a face-down item: the actor reads its name, the opponent only that a card was
    set, and nothing the opponent sees names it until the matching play fires it; then it is
    face up in the discard pile. Seed 2: A goes first."""
    state = game.new_game(seed=2, decks={"A": deck_a, "B": deck_b})
    state.set("zone.hand.A", [item])
    state.set("zone.creatures.B", in_play)
    state.set("zone.hand.B", [card])
    (action,) = [a for a in state.legal_actions() if str(a) == f"A sets {item} face down"]
    assert state.action_text(action, 1) == "A sets a card face down"
    state.apply_action(action)
    state.apply_action(state.parse_action("A ends the turn"))
    view = state.observation(1)
    assert item not in shown_names(view) and view["zones"]["facedown.A"]["count"] == 1
    assert not any(item in state.action_text(a, 1) for a in state.legal_actions())
    state.apply_action(state.parse_action(play))
    assert state.get("zone.facedown.A") == []
    assert state.observation(1)["zones"]["discard.A"] == [item]


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_random_games(pair: Pair) -> None:
    for seed in range(GAMES_PER_PAIR):
        assert 0 < len(play_one(pair, seed)) <= MAX_PLIES


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(GAMES_PER_PAIR, SOAK_GAMES_PER_PAIR), ids=batch_id)
@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_random_games_soak(pair: Pair, seeds: range) -> None:
    for seed in seeds:
        assert 0 < len(play_one(pair, seed)) <= MAX_PLIES
