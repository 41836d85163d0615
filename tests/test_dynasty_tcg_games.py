"""Dynasty TCG: the deck rules, each reported at its rule's line, and seeded random games played
to the end through the public API, on top of the API contract that tests/test_api_contract.py
checks of every generated game.

Every ply of every random game checks, reading each zone with `state.get("zone.<slot>")` (which
sees hidden zones too):

(a) card conservation: the cards in all zones (the order zones, the items under units and
    the items of a retreating unit included) are exactly the two decks, as a multiset of
    names: none is created or lost (bought cards cross to the buyer's zones, decision TRADE);
(b) one unit per zone, and only units and walls on the battlefield; only orders in the order
    zones; only items under units, each held by a unit of that commander's battlefield; items
    wait for payment only while their commander settles them, and reaction orders wait only
    in the window of a declared attack or of the answer to an action order;
(c) health and resources consistent: resources from 0 to 10, health only ever falls (but for
    the 20 that both commanders gain at once, decision BOTH_ZERO), and no unit holds as much
    damage as its health with its items' bonuses and this turn's guard;
(d) no hidden card shows: in the opponent's observation, a player's hand, deck and the cards
    put aside in a mulligan are counts, and the texts of the actions name no card that the
    opponent cannot see;
(e) the game ends within MAX_PLIES plies, and the loser is at 0 health, has nothing left to
    play, or lost a stalemate with the lower health.

The default tier plays GAMES seeds; the soak tier (`-m soak`) the rest of SOAK_GAMES.
"""

from __future__ import annotations

import functools
import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

import generated.dynasty_tcg as game
from compiler.driver import check_rulebook
from tests.playing import ROOT, State, named_failures, play_checked, read_by_opponent
from tests.tiers import batch_id, batches

# the one-on-one game (the default mode); tests/test_dynasty_tcg_modes.py plays the others
PLAYERS: tuple[str, ...] = tuple(game.INFO["player_names"])[:2]
GAMES, SOAK_GAMES = 1, 1000
MAX_PLIES = 3000  # random games observed: 110..520 plies (seeds 0-199, mean 274)
RULEBOOK = ROOT / "rulebooks" / "dynasty_tcg"
CELLS = game.N_CELL_NAMES
NAMES = re.compile("|".join(
    rf"\b{re.escape(name)}\b" for name in sorted(set(game.DEF_NAMES), key=len, reverse=True)))


def zone_paths(player: str) -> list[str]:
    """The `get` paths of every zone of the player: one a zone, the field one a cell."""
    paths: list[str] = []
    for name, _base, dims in game.State.ZONES:
        paths += [f"zone.{name}.{player}.{c}" for c in dims[1]] if len(dims) > 1 \
            else [f"zone.{name}.{player}"]
    return paths


PATHS = {p: zone_paths(p) for p in PLAYERS}


def decks_of(seed: int) -> dict[str, str]:
    """Each shipped deck against the next one in name order, in turn with the seed."""
    names = sorted(game.DECKS)
    return {"A": names[seed % len(names)], "B": names[(seed + 1) % len(names)]}


def kind_of(name: str) -> str:
    """The card kind of a card name: unit, order, item or environment."""
    return KINDS[name]


# read at every ply of every game, for every card in play: tables, not searches of DEF_NAMES
DEF_INDEX = {name: i for i, name in enumerate(game.DEF_NAMES)}
KINDS = {name: str(game.E_KIND_NAMES[game.C_CARD_KIND[i]]) for name, i in DEF_INDEX.items()}


@functools.cache
def dealt(decks: tuple[str, ...]) -> list[str]:
    """The names of the cards of these decks, sorted: what the zones must hold at every ply."""
    return sorted(game.DEF_NAMES[d] for deck in decks for d in game.DECKS[deck])


def check_cards(state: State, decks: dict[str, str],
                players: tuple[str, ...] = PLAYERS) -> None:
    """(a) conservation and (b) one unit per zone, orders and items where they belong, over
    the seats `players` (the modes of tests/test_dynasty_tcg_modes.py have more)."""
    paths = {p: PATHS.get(p) or zone_paths(p) for p in players}
    # every zone read once, for the conservation and for the checks of each zone below
    zones = {path: state.get(path) for player in players for path in paths[player]}
    held = sorted(name for cards in zones.values() for name in cards)
    decked = dealt(tuple(decks[p] for p in players))
    if held != decked:
        expected, found = Counter(decked), Counter(held)
        raise AssertionError(f"the zones differ from the decks: missing "
                             f"{dict(expected - found)}, extra {dict(found - expected)}")
    phase = state.get("phase")
    for player in players:
        gear = zones[f"zone.gear.{player}"]
        holders = [state.get(f"card.gear.{player}.{i}.held_by") for i in range(len(gear))]
        assert all(kind_of(n) == "item" for n in gear), f"{player}'s items: {gear}"
        orders = zones[f"zone.orders.{player}"]
        assert all(kind_of(n) == "order" for n in orders), f"{player}'s orders: {orders}"
        if zones[f"zone.leaving.{player}"]:
            assert phase == "settle_items", f"{player}'s items wait for payment in {phase}"
        fielded: list[str] = []
        for cell in CELLS:
            units = zones[f"zone.field.{player}.{cell}"]
            assert len(units) <= 1, f"{player}'s {cell} holds {units}"
            if units:
                (unit,) = units
                assert kind_of(unit) in ("unit", "environment"), f"{unit} on {cell}"
                fielded.append(unit)
                damage = state.get(f"card.field.{player}.{cell}.0.damage")
                # items are named by their unit's name: with two copies of a unit on the
                # battlefield, both count the bonuses of either copy's items (an upper bound)
                health = (game.C_CARD_HEALTH[DEF_INDEX[unit]]
                          + state.get(f"card.field.{player}.{cell}.0.guard")
                          + sum(game.C_CARD_GIVES_HEALTH[DEF_INDEX[item]]
                                for item, holder in zip(gear, holders, strict=True)
                                if holder == unit))
                assert 0 <= damage < health, f"{unit} on {cell}: {damage} of {health}"
        assert all(holder in fielded for holder in holders), (
            f"{player}'s items {gear} are held by {holders}, not by {fielded}")
    if state.get("pending"):
        in_window = phase in ("defending", "answer", "reply") or (
            phase == "settle_items" and state.get("strike_at") is not None)
        assert in_window, f"reactions wait in {phase}, outside a window"


def check_commanders(state: State, health: dict[str, int]) -> None:
    """(c) resources in bounds; health falls, or rises by 20 for both at once."""
    now = {p: state.get(f"player.{p}.health") for p in PLAYERS}
    risen = [p for p in PLAYERS if now[p] > health[p]]
    if risen:
        assert risen == list(PLAYERS), f"only {risen} gained health: {health} -> {now}"
        assert all(now[p] <= health[p] + 20 for p in PLAYERS), f"{health} -> {now}"
    for player in PLAYERS:
        resources = state.get(f"player.{player}.resources")
        assert 0 <= resources <= 10, f"{player} has {resources} resources"
    health.update(now)


def check_secrets(state: State) -> None:
    """(d), observations: each player's hand, deck and mulligan cards are counts to the other."""
    for viewer in PLAYERS:
        view = state.observation(PLAYERS.index(viewer))
        for player in PLAYERS:
            if player != viewer:
                for zone in ("hand", "deck", "aside"):
                    shown = view["zones"][f"{zone}.{player}"]
                    assert isinstance(shown, dict) and not shown.get("revealed"), (
                        f"{viewer} sees {player}'s {zone}: {shown}")




def check_result(state: State) -> None:
    """(e) the loser is at 0 health, has nothing left, or has the lower health."""
    returns = state.returns()
    health = {p: state.get(f"player.{p}.health") for p in PLAYERS}
    for index, player in enumerate(PLAYERS):
        if returns[index] < 0:
            other = PLAYERS[1 - index]
            nothing = not any(state.get(path) for path in PATHS[player]
                              if not path.startswith(("zone.discard", "zone.trade")))
            assert health[player] <= 0 or nothing or health[player] < health[other], (
                f"{player} lost with {health} and cards left")


def check_ply(state: State, decks: dict[str, str], health: dict[str, int]) -> None:
    check_cards(state, decks)
    check_commanders(state, health)
    check_secrets(state)
    if state.is_terminal():
        check_result(state)


def play_one(seed: int) -> list[str]:
    """One random game with every check at every ply; the actions' texts."""
    decks = decks_of(seed)
    choose = random.Random(seed).choice
    history: list[str] = []
    health = {p: 50 for p in PLAYERS}
    with named_failures(f"A={decks['A']} B={decks['B']} seed {seed}", history):
        play_checked(game.new_game(seed=seed, decks=decks), choose, history,
                     lambda state: check_ply(state, decks, health), MAX_PLIES,
                     read_by_opponent(NAMES, PLAYERS))
    return history


def test_random_games() -> None:
    for seed in range(GAMES):
        assert 0 < len(play_one(seed)) <= MAX_PLIES


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(GAMES, SOAK_GAMES), ids=batch_id)
def test_random_games_soak(seeds: range) -> None:
    for seed in seeds:
        assert 0 < len(play_one(seed)) <= MAX_PLIES


# ------------------------------------------------------------------ deck rules

BROKEN_DECKS = [
    ("a main deck has 50 to 60 cards", {"Jinso": 3, "Footman": 3}, "size(cards) >= 50"),
    # 61 cards: the size, beside the copies, champions and costly units it has too many of
    ("a main deck has 50 to 60 cards", {"Footman": 4} | {n: 3 for n in (
        "Jinso", "Shield Bearer", "Blade Dancer", "Spear Recruit", "Javelin Thrower",
        "Halberdier", "Pike Sergeant", "Scout Rider", "Lancer", "Slinger", "Archer",
        "Crossbowman", "Longbow Veteran", "Lady Mei", "General Tao", "Ironclad Brute",
        "Warhorse Captain", "Siege Ballista", "Mei the Unbroken")}, "size(cards) >= 50"),
    ("at most 3 copies of", {"Jinso": 4}, "count(x for x"),
    ("at most 4 champion cards", {"General Tao": 3, "Lady Mei": 2}, "rank != normal"),
    ("at most 7 units costing 7 or more",
     {"Ironclad Brute": 3, "Warhorse Captain": 3, "Siege Ballista": 2}, "cost >= 7"),
]
FILLER = ["Footman", "Shield Bearer", "Blade Dancer", "Spear Recruit", "Javelin Thrower",
          "Halberdier", "Pike Sergeant", "Scout Rider", "Lancer", "Slinger", "Archer",
          "Crossbowman", "Longbow Veteran", "Jinso", "Ironclad Brute", "Warhorse Captain",
          "General Tao"]


def deck_file(cards: dict[str, int], fill: bool) -> str:
    """A deck of `cards`, filled up to 50 cards with up to 3 copies of commons when `fill`
    (a deck that breaks another rule than the size must have a legal size)."""
    counts = dict(cards)
    if fill:
        for name in FILLER:
            while sum(counts.values()) < 50 and counts.get(name, 0) < 3:
                counts[name] = counts.get(name, 0) + 1
    return "name: Broken\ncards:\n" + "".join(f"  {n}: {c}\n" for n, c in counts.items())


@pytest.mark.parametrize(("message", "cards", "rule"), BROKEN_DECKS,
                         ids=[f"{m[:24]}-{sum(c.values())}" for m, c, _ in BROKEN_DECKS])
def test_each_deck_rule_is_reported_at_its_line(tmp_path: Path, message: str,
                                                cards: dict[str, int], rule: str) -> None:
    folder = tmp_path / "dynasty_tcg"
    shutil.copytree(RULEBOOK, folder)
    text = deck_file(cards, not message.startswith("a main deck"))
    (folder / "decks" / "broken.deck.yaml").write_text(text, encoding="utf-8")
    diagnostics = check_rulebook(folder / "dynasty_tcg.rules").diagnostics.sorted()
    assert {d.code for d in diagnostics} == {"E0405"}, [d.message for d in diagnostics]
    (found,) = [d for d in diagnostics if message in d.message]
    assert found.span.file.endswith("broken.deck.yaml")
    (note,) = found.notes
    line = int(note.rsplit(":", 1)[1])
    rules = (RULEBOOK / "dynasty_tcg.rules").read_text(encoding="utf-8").split("\n")
    assert rules[line - 1].strip().startswith("require") and rule in rules[line - 1], (
        f"the note points at line {line}: {rules[line - 1]!r}")


def test_the_shipped_decks_are_legal_and_the_battlefield_is_three_by_five() -> None:
    assert sorted(game.DECKS) == ["fortress", "siege", "skirmish", "vanguard"]
    for deck in game.DECKS:
        assert game.deck_problem(list(game.DECKS[deck]), []) is None
    assert len(CELLS) == 15 and CELLS[0] == "A1" and CELLS[-1] == "C5"


def test_six_differing_copies_of_a_card_in_the_trade_centres_each_have_an_action_id() -> None:
    """Three copies a deck and trading bring up to six copies of a card into one domain, each
    deposited in a different turn: every buy is told apart by its action id and can be applied
    (rt.COPY_CHOICES bounds the copies an action's argument tells apart)."""
    state = game.new_game(seed=1, decks={"A": "vanguard", "B": "skirmish"})
    state.set("starter", "A")
    state.set("current", "A")
    for player in PLAYERS:
        state.set(f"zone.trade.{player}", ["Jinso"] * 3)
        for index in range(3):
            state.set(f"card.trade.{player}.{index}.deposited", index + 2)
    for text in ("A keeps the hand", "B keeps the hand"):
        state.apply_action(state.parse_action(text))
    buys = [a for a in state.legal_actions() if "buys Jinso" in str(a)]
    assert len(buys) == 6
    assert len({state.action_id(a) for a in buys}) == 6
    for action in buys:
        bought = state.clone()
        bought.apply_action(action)
        assert bought.get("player.A.resources") == 7


# ------------------------------------------------------------------ the proof checklist

def test_the_checklist_names_existing_scenarios_for_every_point_of_the_issue() -> None:
    """The rulebook's closing checklist maps each point of issue 14 to scenarios: every one it
    names exists in the file it names, each point has one, and 45 or more are named."""
    text = (RULEBOOK / "dynasty_tcg.rules").read_text(encoding="utf-8")
    block = text.split("\n# checklist:\n", 1)[1].splitlines()
    scenarios = {
        (path.name.split(".")[0], document["name"])
        for path in RULEBOOK.glob("*.scenario.yaml")
        for document in yaml.safe_load_all(path.read_text(encoding="utf-8"))
    }
    points: dict[str, list[tuple[str, str]]] = {}
    named: list[tuple[str, str]] = []
    for line in block:
        if line.startswith("#     "):
            file, name = line[6:].split(": ", 1)
            named.append((file, name))
        elif line.startswith("#   "):
            named = points.setdefault(line[4:].rstrip(":"), [])
    every = {entry for entries in points.values() for entry in entries}
    assert not every - scenarios, f"the checklist names no such scenario: {every - scenarios}"
    assert len(points) >= 20 and all(points.values()), points
    assert len(every) >= 45
