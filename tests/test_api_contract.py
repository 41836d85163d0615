"""The API contract of every generated game (DESIGN.md §4), checked the same way for each, in
the spirit of OpenSpiel's integration_tests/api_test.py.

The games are found, not listed: every `generated/<game>.py`. Each is played in every variant
that its boolean options give (the defaults, then each one flipped), with decks drawn by the
seed from its shipped decks when it has them. What each game's own rules promise (armies
conserved, cards kept to their owner's zones, ...) is checked by that game's own test file.

Random games, played to the end, checking at every ply:

* the player to act: current_player() is a seated player exactly while the game is not over
  (TERMINAL after, with no legal actions), and a player to act has legal actions;
* the legal actions: all the actor's, distinct, each reading "<actor> ..." in words (no
  identifier: no name with an underscore, `siege_tower` reads "siege tower"), with distinct
  action ids in [0, NUM_DISTINCT_ACTIONS) that decode back to them (State.ENCODING); over all
  the games of a test an id always stands for the same action (kind, arguments and text, apart
  from the actor) and an action for one id;
* the game ends within MAX_PLIES plies, its returns one value per player, each +1, -1 or 0,
  all 0 (a draw) or some +1 and some -1;

and at the start, every DEEP_EVERY-th ply and the end: zone capacities hold; each player's
observation() says whose view and whose turn it is, is JSON, shows a hidden zone as a count
only, a secret zone as a count and its revealed cards, another's private zone not at all, and
'per card' state only of the cards it names, shows no hidden field and no secret field but
one's own, and agrees with what get() reads; parse_action(str(a)) gives a back; action_text
reads str(a) for the actor and, in words, begins with the actor's name for the others; actions
legal earlier but not now, and things that are not actions, raise IllegalAction; none of this,
nor clone(), changes the state; and once the game is over, every action raises IllegalAction.

Samples: the same seed and actions replay the same game (also when the actions are chosen by
their texts); clone() and to_json()/from_json() mid-game continue exactly as the original, and
playing one changes nothing in the others. Per game: the module's header, exports and INFO;
new_game's defaults and refusals; from_json refusing what another game saved; every zone
readable by its name; malformed actions refused with IllegalAction. And the checks
themselves fail on a leaking view, a stale action taken and two actions of one id.

The default tier plays games per variant until PLIES plies are played, and one sample (of
SAMPLE_PLIES plies); the soak tier (`-m soak`, run by CI) plays 200 games per variant (the
seeds of SOAK_SEEDS) and SOAK_SAMPLES samples to the end.
"""

from __future__ import annotations

import bisect
import json
import random
import re
from collections import Counter
from types import ModuleType
from typing import Any

import pytest

from dsl import runtime
from dsl.runtime import Action, IllegalAction
from tests.playing import (
    GAMES,
    ROOT,
    State,
    load,
    named_failures,
    new_state,
    play,
    seats,
    variants,
)
from tests.tiers import batch_id, batches

MAX_PLIES = 5000  # a bound on any random game: a game that never ends is caught
DEEP_EVERY = 10  # the deep checks cost more than a ply: at the start, every 10 plies, the end
# The default tier plays games of seeds 0, 1, ... until PLIES plies are played (a short game
# gets company, a long one does not); the soak tier plays the seeds of SOAK_SEEDS.
PLIES, SOAK_SEEDS = 300, range(1000, 1200)
SAMPLES, SOAK_SAMPLES = 1, 20
SAMPLE_PLIES = 100  # how far a default-tier sample plays (a soak sample plays to the end)
NODES = 8  # the board nodes per deep ply whose observed fields are compared with get()
STALE = 40  # how many actions of earlier plies are kept to try again later
IDENTIFIER = re.compile(r"\w+_\w+")  # a name a reader should not meet in a text
INFO_KEYS = {"name", "title", "players", "player_names", "options", "phases", "actions",
             "source", "compiler"}
VIEW_KEYS = {"game", "player", "phase", "actor", "terminal", "options", "state", "players",
             "board", "zones"}


VARIANTS = [(name, label, options) for name in GAMES for label, options in variants(name)]
VARIANT_IDS = [f"{name}-{label}" for name, label, _ in VARIANTS]


# ------------------------------------------------------------------ the checks


class Contract:
    """The checks for one game module; it remembers what each action id meant."""

    def __init__(self, game: ModuleType) -> None:
        self.game = game
        self.names: tuple[str, ...] = game.PLAYER_NAMES
        self.players = seats(game, 0)  # in the game being checked
        # the zones of the seats played (a seat the count lacks has zones, unused, no path)
        self.slots = [(slot, f"zone.{name}") for slot, name in enumerate(game.SLOT_NAMES)
                      if game.SLOT_OWNER[slot] < self.players]
        self.capped = [(path, game.SLOT_CAPACITY[slot]) for slot, path in self.slots
                       if game.SLOT_CAPACITY[slot] >= 0]
        self.offsets = [offset for offset, _ in game.State.ENCODING]
        self.meaning: dict[int, tuple[int, tuple[int, ...], str]] = {}
        self.ids: dict[tuple[int, tuple[int, ...], str], int] = {}

    # ---- every ply

    def check_ply(self, state: State) -> list[Action]:
        """The player to act, the legal actions and their ids, the result."""
        game, terminal = self.game, state.is_terminal()
        current, legal = state.current_player(), state.legal_actions()
        if terminal:
            assert current == game.TERMINAL, f"over, yet current_player() == {current}"
            assert legal == [], f"over, yet legal actions {legal}"
            self.check_returns(state)
        else:
            assert current in range(self.players), f"current_player() == {current}"
            assert legal, "no legal actions while the game is not over"
            prefix = self.names[current] + " "
            for action in legal:
                assert isinstance(action, Action) and action.actor == current, (
                    f"{action!r} is not {self.names[current]}'s")
                text = str(action)
                assert text.startswith(prefix), f"{text!r} is not {prefix}..."
                assert not IDENTIFIER.search(text), f"{text!r} holds an identifier"
            assert len(set(legal)) == len(legal), f"repeated legal actions: {legal}"
            ids = [state.action_id(a) for a in legal]
            assert len(set(ids)) == len(ids), f"two legal actions share an id: {legal} {ids}"
            for action, number in zip(legal, ids, strict=True):
                assert 0 <= number < game.NUM_DISTINCT_ACTIONS, f"{action}: id {number}"
                assert self.decode(number) == (action.kind, action.args), f"{action}: {number}"
                what = (action.kind, action.args, str(action.plain()).split(" ", 1)[1])
                assert self.meaning.setdefault(number, what) == what, (
                    f"id {number} is both {self.meaning[number]} and {what}")
                assert self.ids.setdefault(what, number) == number, f"{what} has two ids"
        return legal

    def decode(self, number: int) -> tuple[int, tuple[int, ...]]:
        """The action kind and arguments an id stands for, by State.ENCODING: so an id names
        one action in every game, not only in those played."""
        kind = bisect.bisect_right(self.offsets, number) - 1
        offset, params = self.game.State.ENCODING[kind]
        code, args = number - offset, []
        for base, size in reversed(params):
            code, value = divmod(code, size)
            args.append(base + value)
        assert code == 0, f"id {number} is past the ids of {self.game.ACTIONS[kind]}"
        return kind, tuple(reversed(args))

    def check_returns(self, state: State) -> None:
        returns = state.returns()
        assert isinstance(returns, list) and len(returns) == self.players, returns
        assert all(r in (1.0, -1.0, 0.0) for r in returns), f"returns {returns}"
        assert set(returns) == {0.0} or {1.0, -1.0} <= set(returns), f"returns {returns}"

    # ---- every DEEP_EVERY-th ply

    def check_deep(self, state: State, legal: list[Action], stale: list[Action],
                   rng: random.Random) -> None:
        """Observations; parsing, reading and refusing actions; none of it changes the state."""
        before = state.to_json()
        contents = {path: state.get(path) for _, path in self.slots}
        for path, capacity in self.capped:
            assert len(contents[path]) <= capacity, f"{path} holds {contents[path]}"
        reader = rng.randrange(self.players)  # whose view is compared with get()
        for player in range(self.players):
            self.check_observation(state, player, contents, rng if player == reader else None)
        for action in rng.sample(legal, min(3, len(legal))):
            assert state.parse_action(str(action)) == action, f"{action} does not parse back"
        if legal:
            action = rng.choice(legal)
            for player in range(self.players):
                text = state.action_text(action, player)
                if player == action.actor:
                    assert text == str(action), f"the actor reads {text!r} for {action}"
                else:
                    assert text.startswith(self.names[action.actor] + " "), (
                        f"{self.names[player]} reads {text!r} for {action}")
                    assert not IDENTIFIER.search(text), f"{text!r} holds an identifier"
        now = set(legal)
        refused = [a for a in stale if a not in now]
        for action in rng.sample(refused, min(2, len(refused))):
            with pytest.raises(IllegalAction):
                state.apply_action(action)
        with pytest.raises(IllegalAction):
            state.apply_action(str(legal[0]) if legal else None)
        assert state.to_json() == before, "reading or refusing actions changed the state"
        assert state.clone().to_json() == before, "the clone differs"

    def check_observation(self, state: State, player: int, contents: dict[str, list[str]],
                          rng: random.Random | None) -> None:
        """What the view shows and hides, given what get() reads in each zone; with rng, that
        the fields it shows are what get() reads (on a sample of NODES nodes per board)."""
        game, me = self.game, self.names[player]
        view = state.observation(player)
        assert set(view) >= VIEW_KEYS, f"the view lacks {VIEW_KEYS - set(view)}"
        assert json.loads(json.dumps(view)) == view, "the view is not JSON"
        terminal, current = state.is_terminal(), state.current_player()
        assert (view["game"], view["player"]) == (game.INFO["name"], me)
        assert view["terminal"] is terminal and view["phase"] == state.get("phase")
        assert view["actor"] == (None if terminal else self.names[current])
        # zones: what each kind of zone shows, and 'per card' state of the cards named only
        zones, cards = view["zones"], view.get("cards")
        assert (cards is not None) == bool(game.State.CARD_FIELDS)
        team_slots = game.State.TEAM_SLOTS
        for slot, path in self.slots:
            name, actual = path[len("zone."):], contents[path]
            shown, visibility = zones.get(name), game.SLOT_VISIBILITY[slot]
            holder = game.SLOT_OWNER[slot]
            if slot in team_slots and holder < self.players:
                # a zone per team: listed once, under its captain's name; its owner is the team
                if state.team_slot(slot) != slot:
                    assert name not in zones, f"{me} sees {name}, not a captain's: {shown}"
                    continue
                owner = state.ally(holder, player)
            else:
                # a team zone shows to its holder's teammates as to its holder
                owner = holder == player or (visibility == "team"
                                             and 0 <= holder < self.players
                                             and state.ally(holder, player))
            named: list[str] = []
            if visibility == "public" or (owner and visibility != "hidden"):
                assert shown == actual, f"{me} sees {name} as {shown}, not {actual}"
                named = actual
            elif visibility == "private":
                assert shown is None, f"{me} sees {name}, another's private zone: {shown}"
            elif visibility == "secret":
                assert isinstance(shown, dict) and set(shown) == {"count", "revealed"}, (
                    f"{me} sees {name} as {shown}")
                assert shown["count"] == len(actual), f"{me} counts {name} wrong"
                named = shown["revealed"]
                assert not Counter(named) - Counter(actual), (
                    f"{me} sees {named} revealed in {name}: {actual}")
            else:
                assert shown == {"count": len(actual)}, f"{me} sees {name} as {shown}"
            if cards is not None:
                assert len(cards.get(name, [])) == len(named), (
                    f"{me} sees the 'per card' state of {name} beyond the cards it names")
        # fields: none hidden, no secret one but one's own; what shows is what get() reads
        for field, _, _, visibility in game.State.GAME_FIELDS:
            if visibility != "public":
                assert field not in view["state"], f"{me} sees the {visibility} {field}"
            elif rng is not None:
                assert view["state"][field] == state.get(field), f"{me} sees {field} wrong"
        assert set(view["players"]) == set(self.names[: self.players]), view["players"]
        for owner_index, owner_name in enumerate(self.names[: self.players]):
            fields = view["players"][owner_name]
            for field, _, _, visibility, per_player in game.State.PLAYER_FIELDS:
                if visibility == "hidden" or (visibility == "secret" and owner_index != player) \
                        or (visibility == "team" and not state.ally(owner_index, player)):
                    assert field not in fields, f"{me} sees {owner_name}'s {visibility} {field}"
                    continue
                path = f"player.{owner_name}.{field}"
                assert rng is None or fields[field] == self.read(state, path, per_player), (
                    f"{me} sees {path} as {fields[field]}")
        boards = {board: nodes for board, nodes, *_ in game.State.NODE_FIELDS}
        sampled = {board: rng.sample(nodes, min(NODES, len(nodes))) if rng else ()
                   for board, nodes in boards.items()}
        for board, nodes, field, _, _, per_player, visibility in game.State.NODE_FIELDS:
            shown_nodes = view["board"].get(board, {})
            if visibility != "public":
                assert all(field not in shown_nodes.get(node, {}) for node in nodes), (
                    f"{me} sees the {visibility} {board} field {field}")
                continue
            assert set(shown_nodes) == set(nodes), f"{me} sees {board} {set(shown_nodes)}"
            for node in sampled[board]:
                shown_node = shown_nodes[node]
                path = f"{board}.{node}.{field}"
                assert shown_node[field] == self.read(state, path, per_player), (
                    f"{me} sees {path} as {shown_node[field]}")

    def read(self, state: State, path: str, per_player: bool) -> Any:
        if not per_player:
            return state.get(path)
        return [state.get(f"{path}.{p}") for p in self.names[: self.players]]

    # ---- a whole game

    def play(self, label: str, options: dict[str, object], seed: int, deep_every: int
             ) -> list[str]:
        """One random game to the end with every check; the actions' texts."""
        rng, history = random.Random(seed), []
        stale: list[Action] = []
        self.players = seats(self.game, seed, options)
        with named_failures(f"{self.game.INFO['name']} {label} seed {seed}", history):
            state = new_state(self.game, options, seed)
            legal = self.check_ply(state)
            self.check_deep(state, legal, stale, rng)
            while not state.is_terminal():
                assert len(history) < MAX_PLIES, f"no end within {MAX_PLIES} plies"
                stale = (stale + rng.sample(legal, min(2, len(legal))))[-STALE:]
                action = rng.choice(legal)
                history.append(str(action))
                state.apply_action(action)
                legal = self.check_ply(state)
                if state.is_terminal() or len(history) % deep_every == 0:
                    self.check_deep(state, legal, stale, rng)
            for action in stale[:3]:
                with pytest.raises(IllegalAction, match="over"):
                    state.apply_action(action)
        return history


# ------------------------------------------------------------------ random games


@pytest.mark.parametrize(("name", "label", "options"), VARIANTS, ids=VARIANT_IDS)
def test_random_games(name: str, label: str, options: dict[str, object]) -> None:
    contract, played, seed = Contract(load(name)), 0, 0
    while played < PLIES:
        played += len(contract.play(label, options, seed, DEEP_EVERY))
        seed += 1


@pytest.mark.soak
@pytest.mark.parametrize("seeds", batches(SOAK_SEEDS.start, SOAK_SEEDS.stop), ids=batch_id)
@pytest.mark.parametrize(("name", "label", "options"), VARIANTS, ids=VARIANT_IDS)
def test_random_games_soak(name: str, label: str, options: dict[str, object],
                           seeds: range) -> None:
    contract = Contract(load(name))
    for seed in seeds:
        assert contract.play(label, options, seed, DEEP_EVERY)


# ------------------------------------------------------------------ the samples

CASE = ("name", "label", "options", "seed", "plies")
SAMPLE_CASES = [
    pytest.param(*v, seed, SAMPLE_PLIES, id=f"{v[0]}-{v[1]}-{seed}") for v in VARIANTS
    for seed in range(SAMPLES)
] + [
    pytest.param(*v, seed, None, id=f"{v[0]}-{v[1]}-{seed}", marks=pytest.mark.soak)
    for v in VARIANTS for seed in range(SAMPLES, SOAK_SAMPLES)
]


def replay(name: str, options: dict[str, object], seed: int, plies: int | None) -> None:
    game = load(name)
    first, second, third = (new_state(game, options, seed) for _ in range(3))
    texts = play(first, random.Random(seed).choice, plies)
    assert play(second, random.Random(seed).choice, plies) == texts
    assert second.to_json() == first.to_json()
    for text in texts:  # the same texts, chosen by name, give the same game again
        by_text = {str(a): a for a in third.legal_actions()}
        assert text in by_text, f"{text!r} is not legal on replay"
        third.apply_action(by_text[text])
    assert third.to_json() == first.to_json() and third.returns() == first.returns()


def midpoint(game: ModuleType, options: dict[str, object], seed: int) -> State:
    """A game advanced a random number of plies (the first 150 at most)."""
    state = new_state(game, options, seed)
    play(state, random.Random(seed).choice, random.Random(seed + 10_000).randrange(1, 150))
    return state


def clone_and_json(name: str, options: dict[str, object], seed: int, plies: int | None
                   ) -> None:
    game = load(name)
    state = midpoint(game, options, seed)
    text = state.to_json()
    copy, restored = state.clone(), game.from_json(text)
    assert copy.to_json() == text and restored.to_json() == text
    assert restored.current_player() == state.current_player()
    assert restored.legal_actions() == state.legal_actions()
    assert [str(a) for a in restored.legal_actions()] == [str(a) for a in state.legal_actions()]
    for player in range(seats(game, seed, options)):
        assert restored.observation(player) == state.observation(player)
    copy_texts = play(copy, random.Random(seed + 1).choice, plies)
    assert state.to_json() == text, "playing the clone changed the original"
    assert restored.to_json() == text, "playing the clone changed the restored state"
    assert play(restored, random.Random(seed + 1).choice, plies) == copy_texts
    assert play(state, random.Random(seed + 1).choice, plies) == copy_texts
    assert state.to_json() == copy.to_json() == restored.to_json()
    assert state.returns() == copy.returns() == restored.returns()
    assert game.from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize(CASE, SAMPLE_CASES)
def test_seeded_replay_is_identical(name: str, label: str, options: dict[str, object],
                                    seed: int, plies: int | None) -> None:
    replay(name, options, seed, plies)


@pytest.mark.parametrize(CASE, SAMPLE_CASES)
def test_clone_and_json_continue_identically(name: str, label: str, options: dict[str, object],
                                             seed: int, plies: int | None) -> None:
    clone_and_json(name, options, seed, plies)


# ------------------------------------------------------------------ each module


@pytest.mark.parametrize("name", GAMES)
def test_module_header_exports_and_info(name: str) -> None:
    game = load(name)
    source = (ROOT / "generated" / f"{name}.py").read_text(encoding="utf-8")
    info = game.INFO
    assert set(info) >= INFO_KEYS, f"INFO lacks {INFO_KEYS - set(info)}"
    assert info["name"] == name and info["title"]
    assert source.startswith(f"# Generated by Rulecraft {info['compiler']} from {info['source']}")
    assert (ROOT / info["source"]).is_file()
    assert info["actions"] == game.ACTIONS and info["phases"] == game.PHASES
    assert info["player_names"] == game.PLAYER_NAMES
    low, high = info["players"]
    assert 1 <= low <= high <= len(game.PLAYER_NAMES)
    assert game.TERMINAL == runtime.TERMINAL == -4
    assert isinstance(game.NUM_DISTINCT_ACTIONS, int) and game.NUM_DISTINCT_ACTIONS > 0
    assert game.IllegalAction is IllegalAction and game.Action is Action
    for export in ("ACTIONS", "INFO", "NUM_DISTINCT_ACTIONS", "TERMINAL", "Action",
                   "IllegalAction", "State", "from_json", "new_game"):
        assert export in game.__all__ and hasattr(game, export), export


@pytest.mark.parametrize("name", GAMES)
def test_new_game_defaults_and_refusals(name: str) -> None:
    game = load(name)
    info, low, high = game.INFO, *game.INFO["players"]
    assert game.new_game().to_json() == game.new_game(
        seed=0, players=low, options=None, decks=None).to_json()
    state = game.new_game(seed=5)
    assert state.observation(0)["options"] == info["options"]
    for option, value in info["options"].items():
        assert state.get(f"options.{option}") == value
    for players in (low - 1, high + 1):
        with pytest.raises(ValueError):
            game.new_game(players=players)
    with pytest.raises(ValueError, match="unknown option"):
        game.new_game(options={"no_such_option": 1})
    for option in info["options"]:
        with pytest.raises(ValueError, match=option):
            game.new_game(options={option: []})
    if info.get("decks"):
        with pytest.raises(ValueError, match="unknown deck"):
            game.new_game(decks=["no such deck"] * low)
    else:
        with pytest.raises(ValueError, match="decks"):
            game.new_game(decks=[])


@pytest.mark.parametrize("name", GAMES)
def test_from_json_refuses_what_it_did_not_save(name: str) -> None:
    game = load(name)
    for other in GAMES:
        if other != name:
            with pytest.raises(ValueError):
                game.from_json(load(other).new_game().to_json())
    with pytest.raises(ValueError):
        game.from_json("[]")


def _tampered(saved: dict[str, Any], state: Any) -> list[tuple[str, dict[str, Any]]]:
    """Copies of a saved state, each with one part edited as a hand might."""
    edits: list[tuple[str, dict[str, Any]]] = []

    def edit(what: str, change: Any) -> None:
        data = json.loads(json.dumps(saved))
        change(data)
        edits.append((what, data))

    edit("phase none", lambda d: d.update(phase=None))
    edit("rng none", lambda d: d.update(rng=None))
    edit("actor 99", lambda d: d.update(actor=99))
    edit("no zones", lambda d: d.pop("zones"))
    edit("a card lost", lambda d: d["zones"][d["card_zone"][0]].remove(0))
    edit("a card twice", lambda d: d["zones"][d["card_zone"][0]].append(0))
    edit("an unknown card", lambda d: d["card_def"].__setitem__(0, 10**6))
    edit("result of one", lambda d: d.update(result=[1]))
    field = state.PLAYER_FIELDS[0] if state.PLAYER_FIELDS else state.GAME_FIELDS[0]
    edit(f"{field.attr} a text", lambda d: d.update({field.attr: "many"}))
    return edits


@pytest.mark.parametrize("name", GAMES)
def test_from_json_refuses_a_state_edited_by_hand(name: str) -> None:
    """A saved state edited by hand is a ValueError saying which part is wrong, never a
    TypeError or IndexError later, in the middle of a game."""
    game = load(name)
    state = game.new_game(seed=4)
    choose = random.Random(4).choice
    for _ in range(12):
        if not state.is_terminal():
            state.apply_action(choose(state.legal_actions()))
    saved = json.loads(state.to_json())
    assert game.from_json(json.dumps(saved)).to_json() == state.to_json()
    taken = []
    for what, data in _tampered(saved, state):
        try:
            game.from_json(json.dumps(data))
            taken.append(what)
        except ValueError as error:
            assert str(error).startswith(f"not a saved {name} state: "), (what, error)
    assert not taken, f"taken: {taken}"


@pytest.mark.parametrize("name", GAMES)
def test_every_zone_reads_by_its_name(name: str) -> None:
    """SLOT_NAMES, the zone names and keys of State.ZONES, and get("zone.<slot>") agree;
    get("zone.<slot>.size") counts the cards, and cannot be set; a zone of a seat the count
    played lacks is no path."""
    game = load(name)
    state = game.new_game()
    names = []
    for zone, base, dims in game.State.ZONES:
        keys: list[list[str]] = [[]]
        for dim in dims:
            keys = [k + [key] for k in keys for key in dim]
        for offset, key in enumerate(keys):
            names.append(".".join([zone, *key]))
            assert game.SLOT_NAMES[base + offset] == names[-1]
            if game.SLOT_OWNER[base + offset] >= state.num_players:
                with pytest.raises(KeyError, match=f"is not a seat of {state.num_players}"):
                    state.get(f"zone.{names[-1]}")
                continue
            cards = state.get(f"zone.{names[-1]}")
            assert isinstance(cards, list)
            assert state.get(f"zone.{names[-1]}.size") == len(cards)
            with pytest.raises(KeyError, match="cannot be set"):
                state.set(f"zone.{names[-1]}.size", 0)
    assert sorted(names) == sorted(game.SLOT_NAMES)


@pytest.mark.parametrize("name", GAMES)
def test_malformed_actions_raise_illegal_action(name: str) -> None:
    """An action built by hand with an argument out of range, or of no kind, is refused with
    IllegalAction and changes nothing."""
    game = load(name)
    state = game.new_game(seed=1)
    before = state.to_json()
    action = next(a for a in state.legal_actions() if a.args)
    malformed = [Action(action.kind, action.actor, (bad, *action.args[1:]), action._text)
                 for bad in (-1, 10**6)]
    malformed.append(Action(len(game.ACTIONS) + 3, action.actor, (), action._text))
    wrong = []
    for bad in malformed:
        try:
            state.apply_action(bad)
            wrong.append(f"kind {bad.kind}, arguments {bad.args} was taken")
        except IllegalAction:
            pass
        except Exception as error:  # noqa: BLE001 - said in a line, outside the handler: a
            # traceback through the generated module costs more to write than the test to run
            wrong.append(f"kind {bad.kind}, arguments {bad.args}: {type(error).__name__}: {error}")
        assert state.to_json() == before
    if wrong:
        pytest.fail("; ".join(wrong), pytrace=False)


@pytest.mark.parametrize("name", GAMES)
def test_another_games_actions_are_checked_like_any(name: str) -> None:
    """The actions another game's listings made are no shortcut into this one: each is refused
    with IllegalAction and changes nothing, or is one of this game's legal actions (actions
    compare by kind, actor and arguments). apply_action trusts the shape of its own game's
    listed actions only (State.LISTED)."""
    game = load(name)
    wrong = []
    for other in GAMES:
        if other == name:
            continue
        foreign = load(other).new_game(seed=2)
        for seed in range(3):
            state = game.new_game(seed=seed)
            before = state.to_json()
            legal = set(state.legal_actions())
            for action in foreign.legal_actions()[:40]:
                try:
                    state.clone().apply_action(action)
                    if action not in legal:
                        wrong.append(f"{other}'s '{action}' was taken")
                except IllegalAction:
                    pass
                except Exception as error:  # noqa: BLE001 - said in a line, as above
                    wrong.append(f"{other}'s '{action}': {type(error).__name__}: {error}")
            assert state.to_json() == before
    if wrong:
        pytest.fail("; ".join(sorted(set(wrong))[:10]), pytrace=False)


# ------------------------------------------------------------------ the checks themselves


def test_the_checks_see_a_hidden_zone_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that names the cards of a hidden zone fails the checks."""
    game = load("dynasties")
    state = game.new_game(seed=1)
    real = state.observation

    def leaky(player: int) -> dict[str, Any]:
        view = real(player)
        view["zones"]["deck.B"] = state.get("zone.deck.B")
        return view

    monkeypatch.setattr(state, "observation", leaky)
    contract = Contract(game)
    contents = {path: state.get(path) for _, path in contract.slots}
    with pytest.raises(AssertionError, match=r"A sees deck\.B as \["):
        contract.check_observation(state, 0, contents, None)


def test_the_checks_see_a_stale_action_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state that takes an action no longer legal fails the checks."""
    game = load("dynasties")
    state = game.new_game(seed=1)
    stale = state.legal_actions()
    state.apply_action(stale[0])
    monkeypatch.setattr(state, "apply_action", lambda action: None)
    with pytest.raises(pytest.fail.Exception, match="DID NOT RAISE"):
        Contract(game).check_deep(state, state.legal_actions(), stale, random.Random(1))


def test_the_checks_see_two_actions_of_one_id(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load("dynasties")
    state = game.new_game(seed=1)
    monkeypatch.setattr(state, "action_id", lambda action: 0)
    with pytest.raises(AssertionError, match="share an id"):
        Contract(game).check_ply(state)


@pytest.mark.parametrize("name", GAMES)
def test_an_observation_for_no_seat_of_the_count_is_a_spectators(name: str) -> None:
    """observation(5) of a two-player Dynasty TCG named seat F and showed it as a player."""
    state = load(name).new_game(seed=1)
    spectator = state.observation(100)
    assert spectator["player"] == "nobody"
    assert state.observation(state.num_players) == spectator
    with pytest.raises(TypeError, match="observation takes a seat's number"):
        state.observation("A")  # type: ignore[arg-type]
