"""`state.action_text(action, player)`: an action as another player sees it.

A card parameter is named only when the reader's observation() names that card before or after
the action; another parameter, or the action's kind, is written neutrally when the reader's
observation could not tell it from another legal choice. The checks here read observations
through the public API and compare them with the texts, so they fail if a text leaks:

* a small game (VEIL) with every kind of zone, a public field that names a card, a secret
  parameter and two actions that look the same to the opponent: exact texts;
* seeded Ruler's Gambit and Dynasties games, every ply: a card name in the opponent's text must
  be one the opponent's observation shows outside their own hidden zones, before or after the
  action; cards that become public are named; set spells, put-back cards, placed and kept tiles,
  Warlord choices are not (two Ruler's Gambit games in the default tier, 40 in the soak
  tier);
* the same games: two legal actions that leave the reader's observation (and the reader's legal
  actions) the same read the same, so a text tells nothing the observation does not (at every
  few plies: every 4th in the default tier's Ruler's Gambit games, every 2nd in the soak's);
* Dynasty Builder, where everything is public: everyone reads str(action);
* `rulecraft play` with scripted input prints the agent's set spells unnamed.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from compiler import cli
from compiler.api import load_game
from compiler.pygen_actions import neutral_noun
from compiler.types import CardT, EnumT, IntT, NodeT, PlayerT
from dsl.runtime_base import article
from tests.tiers import soak

VEIL = """\
game veil {
  title "Veil"
  players 2
}

enum Element { fire, water }

card SpellCard {
  element: Element
}

data SpellCard {
  "Ember" { element: fire }
  "Frost" { element: water }
  "Gale" { element: fire }
}

zone hand: SpellCard owner per player
zone face_down: SpellCard secret per player
zone shown: SpellCard public per player
zone vault: SpellCard private per player

state {
  turn: int = 0
  spotlight: SpellCard? = none
  shouted: Element? = none
}

player {
  pledge: Element? = none secret
  vowed: bool = false secret
}

setup {
  for p in players { for d in SpellCard { create d into hand[p] } }
  goto pledging
}

phase pledging {
  actor first(p for p in players where p.pledge == none)
  action pledge(e: Element) says "{actor} pledges {e}" {
    actor.pledge = e
  }
  on done { goto play }
}

phase play {
  actor if turn % 2 == 0 then A else B
  action hide(c: SpellCard in hand[actor]) says "{actor} hides the {c}" {
    move c to face_down[actor]
    turn += 1
  }
  action flip(c: SpellCard in face_down[actor]) says "{actor} flips {c}" {
    reveal c
    turn += 1
  }
  action play_card(c: SpellCard in hand[actor]) says "{actor} plays {c}" {
    move c to shown[actor]
    turn += 1
  }
  action point(c: SpellCard in hand[actor]) says "{actor} points at {c}" {
    spotlight = c
    turn += 1
  }
  action stash(c: SpellCard in hand[actor]) says "{actor} stashes a {c}" {
    move c to vault[actor]
    turn += 1
  }
  action shout(e: Element) says "{actor} shouts {e}" {
    shouted = e
    turn += 1
  }
  action vow() says "{actor} vows" {
    actor.vowed = true
    turn += 1
  }
  action wait() says "{actor} waits" {
    turn += 1
  }
  action stop() says "{actor} stops the game" {
    draw game
  }
}
"""

A, B, SPECTATOR = 0, 1, -1


# ------------------------------------------------------------------ the small game


@pytest.fixture(scope="module")
def veil(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    path = tmp_path_factory.mktemp("veil") / "veil.rules"
    path.write_text(VEIL, encoding="utf-8")
    return load_game(str(path))


def act(state: Any, text: str) -> None:
    state.apply_action(next(a for a in state.legal_actions() if str(a) == text))


def texts(state: Any, player: int) -> dict[str, str]:
    return {str(a): state.action_text(a, player) for a in state.legal_actions()}


def test_a_secret_parameter_reads_as_its_type(veil: ModuleType) -> None:
    state = veil.new_game(seed=1)
    assert texts(state, B) == {"A pledges fire": "A pledges an element",
                               "A pledges water": "A pledges an element"}
    assert texts(state, A) == {"A pledges fire": "A pledges fire",
                               "A pledges water": "A pledges water"}


def test_each_card_reads_as_its_zones_and_fields_show_it(veil: ModuleType) -> None:
    state = veil.new_game(seed=1)
    act(state, "A pledges fire")
    act(state, "B pledges water")
    seen_by_b = texts(state, B)
    for name in ("Ember", "Frost", "Gale"):
        assert seen_by_b[f"A hides the {name}"] == "A hides the spell card"  # "the" stays
        assert seen_by_b[f"A stashes a {name}"] == "A stashes a spell card"  # private zone
        assert seen_by_b[f"A plays {name}"] == f"A plays {name}"  # to a public zone
        assert seen_by_b[f"A points at {name}"] == f"A points at {name}"  # a public field
    assert seen_by_b["A shouts fire"] == "A shouts fire"  # a public field holds it
    # a vow is secret and changes nothing else: it looks like waiting, so both read the same
    assert seen_by_b["A vows"] == seen_by_b["A waits"] == "A makes a secret choice"
    assert seen_by_b["A stops the game"] == "A stops the game"
    assert texts(state, SPECTATOR) == seen_by_b  # B has no secret that bears on A's moves
    assert all(text == shown for text, shown in texts(state, A).items())


def test_a_revealed_card_is_named(veil: ModuleType) -> None:
    state = veil.new_game(seed=1)
    for text in ("A pledges fire", "B pledges water", "A hides the Frost", "B waits"):
        act(state, text)
    flip = next(a for a in state.legal_actions() if str(a) == "A flips Frost")
    assert state.action_text(flip, B) == "A flips Frost"  # revealed by the action
    state.apply_action(flip)
    act(state, "B waits")
    assert state.observation(B)["zones"]["face_down.A"]["revealed"] == ["Frost"]
    # flipping it again shows nothing new: to B it is waiting (or a secret vow)
    again = next(a for a in state.legal_actions() if str(a) == "A flips Frost")
    assert state.action_text(again, B) == "A makes a secret choice"


def test_action_text_leaves_the_state_alone(veil: ModuleType) -> None:
    state = veil.new_game(seed=3)
    act(state, "A pledges water")
    before = state.to_json()
    for action in state.legal_actions():
        for player in (A, B, SPECTATOR):
            state.action_text(action, player)
    assert state.to_json() == before


def test_an_action_that_cannot_be_taken_names_no_hidden_card(veil: ModuleType) -> None:
    state = veil.new_game(seed=1)
    act(state, "A pledges fire")
    act(state, "B pledges water")
    hide = next(a for a in state.legal_actions() if str(a) == "A hides the Gale")
    act(state, "A plays Gale")
    assert state.action_text(hide, B) == "A hides the spell card"  # not A's turn: not legal
    with pytest.raises(TypeError):
        state.action_text("A waits", B)


def test_neutral_nouns_and_articles() -> None:
    assert neutral_noun(CardT("SpellCard")) == "spell card"
    assert neutral_noun(CardT("Tile")) == "tile"
    assert neutral_noun(EnumT("NPC")) == "NPC"
    assert neutral_noun(NodeT("Province")) == "province"
    assert neutral_noun(PlayerT()) == "player"
    assert neutral_noun(IntT()) == "number"
    assert [article(w) for w in ("element", "unit", "card", "one", "army")] == [
        "an", "a", "a", "a", "an"]


# ------------------------------------------------------------------ what observations show


def strings(value: Any) -> list[str]:
    """Every string in a JSON-like value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def shown_names(game: ModuleType, state: Any, reader: int) -> set[str]:
    """The names that observation(reader) shows anywhere but in the reader's own zones that
    others cannot see: a name held there (the reader's hand) says nothing of the opponent's
    cards, so it must not excuse a text that names it."""
    view = state.observation(reader)
    own_hidden = {name for name, owner, visibility in zip(
        game.SLOT_NAMES, game.SLOT_OWNER, game.SLOT_VISIBILITY, strict=True)
        if owner == reader and visibility != "public"}
    names = set(strings({k: v for k, v in view.items() if k not in ("zones", "cards")}))
    for zone, content in view["zones"].items():
        if zone not in own_hidden:
            names.update(strings(content))
    for zone, cards in view.get("cards", {}).items():
        if zone not in own_hidden:
            names.update(strings(cards))
    return names


def names_in(text: str, vocabulary: list[str]) -> list[str]:
    """The words of `vocabulary` in a text, whole names only, the longest first ("+1" is not
    "1", "Frost Wisp" is not "Wisp")."""
    pattern = "|".join(re.escape(w) for w in sorted(vocabulary, key=len, reverse=True))
    return [m.group(0) for m in re.finditer(rf"(?<!\S)(?:{pattern})(?!\S)", text)]


def view(state: Any, reader: int) -> str:
    """What the reader knows of a state: the observation, and their moves when it is their
    turn."""
    mine = ([str(a) for a in state.legal_actions()] if state.current_player() == reader
            else None)
    return json.dumps([state.observation(reader), mine], sort_keys=True)


def check_texts_follow_views(state: Any, reader: int) -> None:
    """Two legal actions that leave the reader the same view read the same. Copies of a card
    that differ are told apart by their names in the texts ("Tide Caller (attacker)") though
    an observation names only the card: the actions are compared as their cards' names read
    (Action.plain)."""
    groups: dict[str, set[str]] = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        groups.setdefault(view(after, reader), set()).add(
            state.action_text(action.plain(), reader))
    for read in groups.values():
        assert len(read) == 1, f"actions the reader cannot tell apart read differently: {read}"


def play_and_check(
    game: ModuleType, state: Any, seed: int, vocabulary: list[str], seen: Counter[str],
    consistency_every: int = 1,
) -> None:
    """Play a random game; at every ply check the opponent's text against what their
    observation shows before and after."""
    rng = random.Random(seed)
    ply = 0
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        actor = action.actor
        reader = 1 - actor
        full = str(action)
        text = state.action_text(action, reader)
        assert state.action_text(action, actor) == full
        if ply % consistency_every == 0:
            check_texts_follow_views(state, reader)
        before = shown_names(game, state, reader)
        state.apply_action(action)
        after = shown_names(game, state, reader)
        where = f"seed {seed}, ply {ply}: {full!r} read as {text!r}"
        for name in names_in(text, vocabulary):
            assert name in before | after, f"{where} names {name}, which the reader never sees"
        seen[game.ACTIONS[action.kind] + (" named" if text == full else " hidden")] += 1
        ply += 1


# ------------------------------------------------------------------ Ruler's Gambit


RG_PUBLIC = {"cast", "cast_at", "normal_call", "superior_call", "chain_quick", "chain_quick_at",
             "activate_spell", "activate_spell_at", "chain_set", "chain_set_at", "recover",
             "to_stock", "from_stock", "use_ability", "use_ability_at", "attack",
             "attack_recovery", "attack_kingdom", "resolve_next"}


@pytest.fixture(scope="module")
def gambit() -> ModuleType:
    return load_game("rulers_gambit")


RG_SEEDS, RG_SOAK_SEEDS = range(2), range(40)  # the soak tier checks views every 2nd ply


def test_rulers_gambit_texts_hide_what_observations_hide(gambit: ModuleType) -> None:
    rulers_gambit_texts_hide_what_observations_hide(gambit, RG_SEEDS, consistency_every=4)


@pytest.mark.soak
def test_rulers_gambit_texts_hide_what_observations_hide_soak(gambit: ModuleType) -> None:
    rulers_gambit_texts_hide_what_observations_hide(gambit, RG_SOAK_SEEDS, consistency_every=2)


def rulers_gambit_texts_hide_what_observations_hide(
    gambit: ModuleType, seeds: range, consistency_every: int
) -> None:
    seen: Counter[str] = Counter()
    decks = sorted(gambit.DECKS)
    for seed in seeds:
        pair = {"A": decks[seed % len(decks)], "B": decks[(seed * 5 + 1) % len(decks)]}
        state = gambit.new_game(seed=seed, decks=pair)
        play_and_check(gambit, state, seed, list(gambit.DEF_NAMES), seen, consistency_every)
    # set spells and cards put back are never named; cards that go public always are
    assert seen["set_spell hidden"] >= 5 and not seen["set_spell named"], seen
    assert seen["put_back hidden"] >= 5 and not seen["put_back named"], seen
    for kind in RG_PUBLIC:
        assert not seen[f"{kind} hidden"], seen
    assert seen["cast named"] + seen["cast_at named"] + seen["chain_quick_at named"] >= 5, seen
    assert seen["activate_spell_at named"] + seen["chain_set_at named"] >= 3, seen


def test_rulers_gambit_set_spell_reads(gambit: ModuleType) -> None:
    rng = random.Random(4)
    state = gambit.new_game(seed=4)
    found = 0
    while not state.is_terminal() and found < 3:
        actions = state.legal_actions()
        for action in actions:
            if gambit.ACTIONS[action.kind] == "set_spell":
                actor = gambit.PLAYER_NAMES[action.actor]
                assert state.action_text(action, 1 - action.actor) == f"{actor} sets a card"
                found += 1
        state.apply_action(rng.choice(actions))
    assert found == 3


# ------------------------------------------------------------------ Dynasties


@pytest.fixture(scope="module")
def dynasties() -> ModuleType:
    return load_game("dynasties")


@pytest.mark.parametrize("warlords", [False, True])
def test_dynasties_texts_hide_tiles_and_warlords(dynasties: ModuleType, warlords: bool) -> None:
    vocabulary = [*dynasties.DEF_NAMES, *dynasties.R_WARLORD_NAMES]
    seen: Counter[str] = Counter()
    for seed in range(2):
        state = dynasties.new_game(seed=seed, options={"warlords": warlords})
        play_and_check(dynasties, state, seed, vocabulary, seen, consistency_every=7)
    # a tile is named only when the tiles are revealed at once: the last tile placed when the
    # decks are empty and nobody keeps a tile, at most once a game
    assert seen["place hidden"] >= 30 and seen["place named"] <= 2, seen
    assert seen["keep hidden"] >= 5 and not seen["keep named"], seen
    if warlords:
        assert seen["choose hidden"] == 4 and not seen["choose named"], seen  # 2 per game
        assert seen["play_warlord hidden"] > 0 and not seen["play_warlord named"], seen
        assert seen["discard named"] > 0 and not seen["discard hidden"], seen


def test_dynasties_placement_names_the_province_only(dynasties: ModuleType) -> None:
    state = dynasties.new_game(seed=2, options={"warlords": True})
    chosen = state.legal_actions()[0]
    assert state.action_text(chosen, B) == "A chooses a warlord"
    state.apply_action(chosen)
    state.apply_action(state.legal_actions()[0])
    for action in state.legal_actions():
        province = str(action).rsplit(" on ", 1)[1]
        assert state.action_text(action, B) == f"A places a tile on {province}"
    while dynasties.PHASES[state.phase] != "warlord_step":
        state.apply_action(state.legal_actions()[0])
    read = {state.action_text(a, B) for a in state.legal_actions()}
    assert read == {"A makes a secret choice"}  # committing or holding looks the same


# ------------------------------------------------------------------ Dynasty Builder


@pytest.mark.parametrize("plies", [40, *soak([1000])])  # the first turns; a whole game
def test_dynasty_builder_is_public_so_everyone_reads_the_full_text(plies: int) -> None:
    game = load_game("dynasty_builder")
    state = game.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(plies):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        for reader in (A, B, SPECTATOR):
            assert state.action_text(action, reader) == str(action)
        state.apply_action(action)


# ------------------------------------------------------------------ the cheap card text


# the games, and whether action_text hides more than the card text in their first plies (a
# Warlord chosen or committed reads as a secret choice; the card games hide only cards there)
CARD_TEXT_GAMES = [("rulers_gambit", 2, {}, False), ("dynasties", 2, {"warlords": True}, True),
                   ("dynasty_tcg", 2, {}, False), ("dynasty_tcg", 3, {"mode": "royale"}, False),
                   ("dynasty_tcg", 4, {"mode": "war"}, False), ("dojo", 2, {}, False)]


@pytest.mark.parametrize(("name", "players", "options", "hides_more"), CARD_TEXT_GAMES,
                         ids=[f"{n}-{p}" for n, p, _, _ in CARD_TEXT_GAMES])
def test_the_card_text_names_every_card_the_action_text_names(
    name: str, players: int, options: dict[str, Any], hides_more: bool
) -> None:
    """_card_text (what the modes' soak reads at every ply, one copy of the state instead of
    one a legal action) may name more than action_text, never less: a card the action text
    names, it names too, so checking its names checks the action text's. Every reader of
    every ply of the first 80 of a random game."""
    game = load_game(name)
    vocabulary = list(game.DEF_NAMES)
    state = game.new_game(seed=3, players=players, options=options)
    rng = random.Random(3)
    differs = named = 0
    for _ply in range(80):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        assert state._card_text(action, action.actor) == str(action)
        for reader in range(players):
            full, cheap = state.action_text(action, reader), state._card_text(action, reader)
            missing = Counter(names_in(full, vocabulary)) - Counter(names_in(cheap, vocabulary))
            assert not missing, f"{full!r} names {sorted(missing)}, {cheap!r} does not"
            differs += full != cheap
            named += bool(names_in(cheap, vocabulary))
        state.apply_action(action)
    assert named, "no text named a card: the comparison proves little"
    assert bool(differs) == hides_more, f"{differs} texts differ"


# ------------------------------------------------------------------ rulecraft play


def run_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], seed: int,
             script: str) -> str:
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert cli.main(["play", "rulers_gambit", "--seed", str(seed), "--as", "A"]) == 0
    return capsys.readouterr().out


def agent_sets(gambit: ModuleType, seed: int, moves: int) -> list[str]:
    """The full texts of the set spells the agent (B) plays while the human (A) picks the first
    listed move `moves` times: the game `rulecraft play` runs with that input."""
    state = gambit.new_game(seed=seed)
    agent = random.Random(seed)
    sets: list[str] = []
    while not state.is_terminal():
        actions = state.legal_actions()
        if state.current_player() != A:
            action = agent.choice(actions)
            if gambit.ACTIONS[action.kind] == "set_spell":
                sets.append(str(action))
        elif moves == 0:
            break
        else:
            action = actions[0]
            moves -= 1
        state.apply_action(action)
    return sets


@pytest.mark.parametrize("ending", ["", "q\n"])  # input ends (EOF), or the human quits
def test_play_prints_the_agents_set_spells_unnamed(
    gambit: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    ending: str,
) -> None:
    seed, moves = 3, 20
    sets = agent_sets(gambit, seed, moves)
    assert sets, "the scripted game has no set spell: pick another seed"
    out = run_play(monkeypatch, capsys, seed, "1\n" * moves + ending)
    printed = [line for line in out.splitlines() if line.startswith("B: B sets ")]
    assert printed == ["B: B sets a card"] * len(sets), (printed, sets)
    for full in sets:
        assert full not in out


def test_a_field_the_text_cannot_name_is_underlined_where_it_is(tmp_path: Path) -> None:
    """The caret covered the whole text: in a long `says`, the field to fix is now marked."""
    from compiler.driver import check_rulebook

    rules = tmp_path / "liar.rules"
    rules.write_text('game liar {\n  title "Liar"\n  players 2\n}\n'
                     'state { bidder: player = A }\nsetup { goto turn }\n'
                     'phase turn {\n  actor A\n'
                     '  action call() says "{actor} calls {bidder} a liar" { win A }\n}\n',
                     encoding="utf-8")
    [found] = [d for d in check_rulebook(rules).diagnostics.sorted() if d.code == "E0210"]
    line = rules.read_text(encoding="utf-8").splitlines()[8]
    assert line[found.span.column - 1:found.span.end_column - 1] == "{bidder}"
    assert found.message == "'{bidder}' in the text is not a parameter of the action"
