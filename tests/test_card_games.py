"""Seeded random games of Ruler's Gambit, played to the end through the public API.

The game is compiled from rulebooks/rulers_gambit in memory (`compiler.api.load_game`). The shipped
decks are read at run time (`game.DECKS`) and grouped into deck pairs by the colours of their
Kingdom card: the two decks of one colour pair play each other, GAMES_PER_PAIR games per pair,
the seats (A/B) alternating with the seed. If the colours do not give pairs of two, the decks
are paired by sorted name, two by two.

Every ply of every game checks, reading each zone with `state.get("zone.<slot>")` (which sees
hidden zones too):

(a) card conservation: the cards in each player's zones are exactly that player's deck, as a
    multiset of names: every card is in exactly one zone, none is created, lost or moved to
    the other player (the game has no shared zones; one would be allowed to hold anyone's);
(b) zone capacities hold, and each Kingdom-Ruler card stays in its owner's Kingdom Zone or,
    as a Ruler, in their Unit Zone (it is Invincible);
(c) LP and mana are in bounds: mana 0..12, LP 1..MAX_LP while the game is on;
(d) current_player() is a player exactly while the game is not over (TERMINAL after), a player
    to act has legal actions, all theirs, distinct, with distinct action ids in
    [0, NUM_DISTINCT_ACTIONS);
(e) the game ends within MAX_PLIES plies, its returns sum to 0 and agree with the LP;

and every SECRECY_EVERY plies (and at the end), through `observation()`: a player never sees the
names of the cards in the opponent's hand or deck, nor of their own deck, nor the unrevealed cards
of the opponent's set zone, nor hidden or secret fields that are not theirs.

Smaller samples check seeded replay, clone(), to_json()/from_json() mid-game, and that an action
id stands for one action across games.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from compiler.api import load_game
from tests.playing import State, play

game = load_game("rulers_gambit")

PLAYERS: tuple[str, ...] = tuple(game.INFO["player_names"])
GAMES_PER_PAIR = 1000
SAMPLE_GAMES = 8  # per pair, for the replay, clone, JSON and action-id tests
MAX_PLIES = 3000  # random games observed: 64..620 plies
MAX_MANA = 12
MAX_LP = 100  # Kingdoms start at 15-16 LP; heal is uncapped, so this is a sanity bound
SECRECY_EVERY = 25
RESULTS = ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])

Pair = tuple[str, str]


class GameFailure(AssertionError):
    """A failed check, named by deck pair, seed and the ply it happened at."""


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
CAPACITY = {
    f"zone.{name}": capacity
    for name, capacity in zip(game.State.SLOT_NAMES, game.SLOT_CAPACITY, strict=True)
    if capacity >= 0
}
SECRET_PLAYER_FIELDS = tuple(f[0] for f in game.State.PLAYER_FIELDS if f[3] == "secret")
HIDDEN_PLAYER_FIELDS = tuple(f[0] for f in game.State.PLAYER_FIELDS if f[3] == "hidden")
HIDDEN_GAME_FIELDS = tuple(f[0] for f in game.State.GAME_FIELDS if f[3] != "public")


def card_locations(state: State) -> dict[str, list[str]]:
    """Every zone's card names by `get` path (without the `zone.` prefix), hidden zones too."""
    return {path[len("zone."):]: state.get(path) for path, _ in SLOTS}


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
    """(a) conservation and ownership, (b) capacities and the Kingdom's place."""
    missing: Counter[str] = Counter()
    for player in PLAYERS:
        zones = {path: state.get(path) for path in OWN_PATHS[player]}
        held = sorted(name for cards in zones.values() for name in cards)
        if held != match.cards[player]:
            expected = Counter(match.cards[player])
            extra = Counter(held) - expected
            assert not extra, f"{player}'s zones hold cards not of their deck: {dict(extra)}"
            missing += expected - Counter(held)
        for path, cards in zones.items():
            capacity = CAPACITY.get(path)
            assert capacity is None or len(cards) <= capacity, f"{path} holds {cards}"
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
    """(e) the returns, and that they agree with the LP when someone is at 0."""
    returns = state.returns()
    assert returns in RESULTS, f"returns {returns}"
    assert sum(returns) == 0, f"returns {returns} do not sum to 0"
    down = [p for p in PLAYERS if state.get(f"player.{p}.lp") <= 0]
    if len(down) == 2:
        assert returns == [0.0, 0.0], f"both players at 0 LP, returns {returns}"
    elif len(down) == 1:
        loser = PLAYERS.index(down[0])
        assert returns[loser] == -1.0, f"{down[0]} is at 0 LP, returns {returns}"


def check_secrecy(state: State) -> None:
    """What each player's observation shows of hidden and secret things."""
    for viewer, me in enumerate(PLAYERS):
        view = state.observation(viewer)
        zones = view["zones"]
        cards = view.get("cards", {})
        for path, owner in SLOTS:
            slot = path[len("zone."):]
            actual = state.get(path)
            shown = zones.get(slot)
            visibility = game.SLOT_VISIBILITY[game.State.SLOT_NAMES.index(slot)]
            if visibility == "public" or (visibility != "hidden" and owner == me):
                assert shown == actual, f"{me} sees {slot} as {shown}, not {actual}"
                continue
            # only revealed cards show their public per-card state, one mapping each
            revealed = shown.get("revealed", []) if isinstance(shown, dict) else []
            assert len(cards.get(slot, [])) == len(revealed), (
                f"{me} sees the per-card state of {slot} beyond its revealed cards"
            )
            if shown is None:
                assert visibility == "private", f"{me} sees nothing of {slot}"
            elif visibility == "secret":
                assert isinstance(shown, dict) and set(shown) == {"count", "revealed"}, (
                    f"{me} sees {slot} as {shown}"
                )
                assert shown["count"] == len(actual)
                assert not Counter(shown["revealed"]) - Counter(actual), (
                    f"{me} sees {shown['revealed']} revealed in {slot}: {actual}"
                )
            else:
                assert shown == {"count": len(actual)}, f"{me} sees {slot} as {shown}"
        for other in PLAYERS:
            fields = view["players"][other]
            for name in HIDDEN_PLAYER_FIELDS + (SECRET_PLAYER_FIELDS if other != me else ()):
                assert name not in fields, f"{me} sees {other}'s {name}"
        for name in HIDDEN_GAME_FIELDS:
            assert name not in view["state"], f"{me} sees {name}"


def check_ply(state: State, match: Match, ply: int) -> list[Any]:
    """Check every per-ply invariant of the position; return its legal actions."""
    terminal = state.is_terminal()
    current = state.current_player()
    legal: list[Any] = state.legal_actions()
    # (d)
    if terminal:
        assert current == game.TERMINAL, f"terminal but current_player() == {current}"
        assert legal == [], "a finished game still has legal actions"
    else:
        assert current in range(len(PLAYERS)), f"current_player() == {current}, not terminal"
        assert legal, "no legal actions while the game is not over"
        assert all(a.actor == current for a in legal), (
            f"an action not of {PLAYERS[current]}: {[str(a) for a in legal]}"
        )
        assert len(set(legal)) == len(legal), f"repeated legal actions: {legal}"
        ids = {state.action_id(a) for a in legal}
        assert len(ids) == len(legal), f"two legal actions share an id: {legal}"
        assert all(0 <= i < game.NUM_DISTINCT_ACTIONS for i in ids), f"ids out of range: {ids}"
    check_cards(state, match)
    check_counters(state, terminal)
    if terminal:
        check_result(state)
    if terminal or ply % SECRECY_EVERY == 0:
        check_secrecy(state)
    return legal


def play_checked(pair: Pair, seed: int) -> list[str]:
    """Play one random game with every check at every ply; return the actions' texts."""
    match = Match(pair, seed)
    choose = random.Random(seed).choice
    history: list[str] = []
    try:
        state = match.new_state(seed)
        legal = check_ply(state, match, 0)
        while not state.is_terminal():
            if len(history) >= MAX_PLIES:
                raise GameFailure(f"the game did not end within {MAX_PLIES} plies")
            action = choose(legal)
            history.append(str(action))
            state.apply_action(action)
            legal = check_ply(state, match, len(history))
    except Exception as error:  # noqa: BLE001 - engine exceptions are reported with the seed
        raise GameFailure(
            f"A={match.decks[0]} B={match.decks[1]} seed {seed}, after {len(history)} actions "
            f"(last: {history[-6:]}): {type(error).__name__}: {error}"
        ) from error
    return history


def test_decks_pair_up() -> None:
    assert PAIRS, "no shipped decks"
    paired = sorted(d for pair in PAIRS for d in pair)
    assert set(paired) == set(game.DECKS)
    for deck in game.DECKS:
        assert len(deck_cards(deck)) > 0 and kingdom_of(deck)


@pytest.mark.parametrize("seed", range(GAMES_PER_PAIR))
@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_random_game(pair: Pair, seed: int) -> None:
    history = play_checked(pair, seed)
    assert 0 < len(history) <= MAX_PLIES


# ------------------------------------------------------------------ the smaller samples


def sample() -> list[tuple[Pair, int]]:
    return [(pair, seed) for pair in PAIRS for seed in range(SAMPLE_GAMES)]


def sample_id(case: tuple[Pair, int]) -> str:
    return f"{pair_id(case[0])}-{case[1]}"


@pytest.mark.parametrize("case", sample(), ids=sample_id)
def test_seeded_replay_is_identical(case: tuple[Pair, int]) -> None:
    pair, seed = case
    match = Match(pair, seed)
    first = match.new_state(seed)
    first_texts = play(first, random.Random(seed).choice)
    second = match.new_state(seed)
    second_texts = play(second, random.Random(seed).choice)
    assert first_texts == second_texts
    assert first.to_json() == second.to_json()
    # The same texts, chosen by name from the legal actions, give the same game again.
    third = match.new_state(seed)
    for text in first_texts:
        by_text = {str(a): a for a in third.legal_actions()}
        assert text in by_text, f"{text!r} is not legal on replay"
        third.apply_action(by_text[text])
    assert third.to_json() == first.to_json()
    assert third.returns() == first.returns()


def midpoint(pair: Pair, seed: int) -> tuple[Match, State]:
    """A game advanced to a random ply of its first part."""
    match = Match(pair, seed)
    state = match.new_state(seed)
    play(state, random.Random(seed).choice, random.Random(seed + 10_000).randrange(1, 150))
    return match, state


@pytest.mark.parametrize("case", sample(), ids=sample_id)
def test_clone_mid_game_continues_identically(case: tuple[Pair, int]) -> None:
    pair, seed = case
    match, state = midpoint(pair, seed)
    before = state.to_json()
    locations = card_locations(state)
    copy = state.clone()
    assert copy.to_json() == before
    copy_texts = play(copy, random.Random(seed + 1).choice)
    assert state.to_json() == before, "playing the clone changed the original"
    assert card_locations(state) == locations, "playing the clone moved the original's cards"
    check_cards(copy, match)
    state_texts = play(state, random.Random(seed + 1).choice)
    assert state_texts == copy_texts
    assert state.to_json() == copy.to_json()
    assert state.returns() == copy.returns()


@pytest.mark.parametrize("case", sample(), ids=sample_id)
def test_json_round_trip_mid_game_continues_identically(case: tuple[Pair, int]) -> None:
    pair, seed = case
    match, state = midpoint(pair, seed)
    text = state.to_json()
    restored = game.from_json(text)
    assert restored.to_json() == text
    assert restored.current_player() == state.current_player()
    assert [str(a) for a in restored.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert card_locations(restored) == card_locations(state)
    for player in range(len(PLAYERS)):
        assert restored.observation(player) == state.observation(player)
    check_cards(restored, match)
    restored_texts = play(restored, random.Random(seed + 2).choice)
    state_texts = play(state, random.Random(seed + 2).choice)
    assert restored_texts == state_texts
    assert restored.to_json() == state.to_json()
    assert restored.returns() == state.returns()


def test_action_ids_name_one_action_each() -> None:
    """Over many games, an id always stands for the same action (apart from its actor): the
    same text by card names, and the same copy where copies of a card differ (their texts
    then say how, "Tide Caller (defender)", which depends on the state)."""
    assert isinstance(game.NUM_DISTINCT_ACTIONS, int) and game.NUM_DISTINCT_ACTIONS > 0
    meaning: dict[int, tuple[str, tuple[int, ...]]] = {}
    ids: dict[tuple[str, tuple[int, ...]], int] = {}
    for pair, seed in sample():
        state = Match(pair, seed).new_state(seed)
        choose = random.Random(seed).choice
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in legal:
                number = state.action_id(action)
                assert 0 <= number < game.NUM_DISTINCT_ACTIONS
                what = (str(action.plain()).split(" ", 1)[1], action.args)
                assert meaning.setdefault(number, what) == what, (
                    f"id {number} is both {meaning[number]!r} and {what!r}"
                )
                assert ids.setdefault(what, number) == number, f"{what!r} has two ids"
            state.apply_action(choose(legal))
    assert len(meaning) <= game.NUM_DISTINCT_ACTIONS


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
