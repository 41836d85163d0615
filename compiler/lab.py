"""The balance lab behind `rulecraft simulate`: games between agents, what each game shows
(one record per game, plain data, so that processes can send it), and the figures of many.

Game i of a run has seed `seed + i`, and (when seats are swapped) the agents, with their decks,
move i seats on: seat s has agent (s + i) mod players, so that over any `players` games in a row
each agent sits in each seat once (with two players, odd games swap them). The records, and so
the totals, do not depend on how many processes play them, or in which order they finish."""

from __future__ import annotations

import random
import signal
import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType, ModuleType
from typing import Any

from compiler import agents as agent_registry
from compiler.lab_stats import Record
from dsl.runtime_base import RuleError

AgentSpec = tuple[str, dict[str, object]]


@dataclass
class Setup:
    """What every game of a run shares."""

    game: str  # a name or path api.load_game takes
    seed: int = 0
    agents: list[AgentSpec] = field(default_factory=lambda: [("random", {}), ("random", {})])
    options: dict[str, object] = field(default_factory=dict)
    decks: list[str] | None = None  # one per agent: the deck travels with its agent
    swap: bool = True
    coverage: bool = False
    # a game still going after this many actions is stopped, counted as a draw and reported
    # unfinished: agents may repeat a move the rules allow without end (a unit moved back and
    # forth between two zones), and a run must end
    max_plies: int = 5_000
    # with coverage: the module's tables of printed keywords (`keyword_tables`), and its tables
    # of tests made at load that read them, with each test (`keyword_tests`)
    keyword_tables: list[str] = field(default_factory=list)
    keyword_tests: dict[str, str] = field(default_factory=dict)


def agent_decks(module: ModuleType, setup: Setup, players: int) -> list[str] | None:
    """Each agent's deck: those given, else the shipped decks in name order (as new_game
    deals them when given none)."""
    if setup.decks is not None:
        return setup.decks
    shipped = sorted(module.INFO.get("decks") or [])
    return [shipped[i % len(shipped)] for i in range(players)] if shipped else None


def seating(index: int, players: int, swap: bool) -> list[int]:
    """The agent in each seat in game `index`: moved `index` seats on when seats are swapped
    (reversing them, as it once did, kept an agent in the middle seat of three for ever)."""
    shift = index % players if swap else 0
    return [(seat + shift) % players for seat in range(players)]


class GameBroke(Exception):  # noqa: N818 - what the run says, a game that broke
    """A game of a run that the rules could not go on with (a RuleError): which game of the
    run, and a message saying after how many actions and why. Its arguments are plain data,
    so that a pool's process can send it to the parent."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(index, message)
        self.index = index
        self.message = message

    def __str__(self) -> str:
        return self.message


def play_one(module: ModuleType, setup: Setup, index: int,
             chosen_agents: Sequence[Any] | None = None) -> Record:
    """Play game `index` of a run to the end and record it; GameBroke if the rules break."""
    seed = setup.seed + index
    record = Record(seed=seed, seats=[], decks=None)
    try:
        return _play_one(module, setup, index, record, chosen_agents)
    except RuleError as error:
        raise GameBroke(index, f"game {index} (seed {seed}): the rules broke after "
                        f"{record.plies} actions: {error}") from None
    except Exception as error:  # noqa: BLE001 - the engine's own fault, said with its game
        raise GameBroke(index, f"game {index} (seed {seed}): internal error after "
                        f"{record.plies} actions: {type(error).__name__}: {error} (please "
                        "report it, with this command)") from None


def _play_one(module: ModuleType, setup: Setup, index: int, record: Record,
              chosen_agents: Sequence[Any] | None) -> Record:
    players = len(setup.agents)
    seats = seating(index, players, setup.swap)
    decks = agent_decks(module, setup, players)
    seat_decks = [decks[a] for a in seats] if decks is not None else None
    seed = record.seed
    record.seats, record.decks = seats, seat_decks
    try:
        state = module.new_game(seed=seed, players=players, options=dict(setup.options),
                                decks=seat_decks)
    except RuleError as error:
        raise GameBroke(index, f"game {index} (seed {seed}): setup failed: {error}") from None
    made = list(chosen_agents) if chosen_agents is not None else [
        agent_registry.make(spec) for spec in setup.agents]
    rngs = [random.Random(seed * 7919 + a) for a in range(players)]
    kinds = state.ACTION_NAMES
    hidden = [v == "hidden" for v in state.SLOT_VISIBILITY]
    unseen = [v in ("hidden", "owner", "private") for v in state.SLOT_VISIBILITY]
    def_names = state.DEF_NAMES
    played: list[set[str]] = [set() for _ in range(players)]
    drawn: list[Counter[str]] = [Counter() for _ in range(players)]
    legal_kinds: Counter[str] = Counter()
    chosen_kinds: Counter[str] = Counter()
    fired: set[str] = set()
    tracer = _tracer(module, state, fired) if setup.coverage else None
    previous_actor = -1
    where = list(state.card_zone)
    # the cards each seat held: a shared deck's cards belong to nobody (the runtime gives them
    # to seat A), so a seat owns what passed through its own zones, and its deck's cards
    slot_owner = state.SLOT_OWNER
    held: list[set[str]] = [set() for _ in range(players)]
    for card, slot in enumerate(where):
        if 0 <= slot_owner[slot] < players:
            held[slot_owner[slot]].add(def_names[state.card_def[card]])
    with watching(module, setup.keyword_tables if setup.coverage else [],
                  setup.keyword_tests if setup.coverage else None) as keywords_found:
        if tracer is not None:
            sys.setprofile(tracer)
        try:
            while not state.is_terminal():
                if record.plies >= setup.max_plies:
                    record.unfinished = True
                    break
                actor = state.current_player()
                if record.first < 0:
                    record.first = actor
                if actor != previous_actor:
                    record.turns += 1
                    previous_actor = actor
                legal = state.legal_actions()
                for kind in {a.kind for a in legal}:
                    legal_kinds[kinds[kind]] += 1
                action = made[seats[actor]].step(state, rngs[seats[actor]])
                chosen_kinds[kinds[action.kind]] += 1
                params = state.card_params(action)
                picked = state.PICK[action.kind](state, action) if params else None
                state.apply_action(action)
                # a card named by the action is played unless the action left it where only
                # its owner, or nobody, sees it: a mulligan's card put back in the deck, a
                # unit recovered to the hand, a tile kept in the rack are not played
                if picked is not None:
                    for i in params:
                        if not unseen[state.card_zone[picked[i]]]:
                            played[actor].add(def_names[state.card_def[picked[i]]])
                record.plies += 1
                now = state.card_zone
                for card in range(len(now)):
                    if card < len(where) and where[card] == now[card]:
                        continue
                    name = def_names[state.card_def[card]]
                    holder = slot_owner[now[card]]
                    if 0 <= holder < players:
                        held[holder].add(name)
                    if card < len(where) and hidden[where[card]] and not hidden[now[card]]:
                        # drawn by the seat it went to (a shared deck's card too)
                        drawn[holder if 0 <= holder < players
                              else state.card_owner[card]][name] += 1
                where = list(now)
        finally:
            if tracer is not None:
                sys.setprofile(None)
    starter = next((getattr(state, f.attr) for f in getattr(state, "GAME_FIELDS", ())
                    if f.name == "starter" and f.codec == ("player",)), None)
    if isinstance(starter, int) and 0 <= starter < players:
        # the player who went first, which the game keeps: the first to act may only be the
        # first to decide on a mulligan (Ruler's Gambit's A, whoever the coin chose)
        record.first = starter
    keyword_names = getattr(module, "E_KEYWORD_NAMES", ())
    fired |= {f"keyword {keyword_names[k]}" for k in keywords_found if k < len(keyword_names)}
    record.returns = [0.0] * players if record.unfinished else state.returns()
    record.legal = dict(legal_kinds)
    record.chosen = dict(chosen_kinds)
    record.played = [sorted(p) for p in played]
    record.drawn = [dict(d) for d in drawn]
    owned = held
    for card, definition in enumerate(state.card_def):
        owner = slot_owner[state.card_home[card]]  # a card made in a seat's own zone
        if 0 <= owner < players:
            owned[owner].add(def_names[definition])
    record.owned = [sorted(o | p) for o, p in zip(owned, played, strict=True)]
    record.fired = sorted(fired | {f"action {k}" for k in chosen_kinds})
    return record


def _tracer(module: ModuleType, state: Any, fired: set[str]) -> Callable[..., None]:
    """A profile hook that notes the procedures, events and card abilities of the game's module
    as they run (only with --coverage: it slows play several times)."""
    space = module.__dict__

    def hook(frame: FrameType, event: str, _arg: object) -> None:
        if event != "call" or frame.f_globals is not space:
            return
        name = frame.f_code.co_name
        if name.startswith("proc_"):
            fired.add(f"procedure {name[5:]}")
        elif name.startswith("raise_"):
            fired.add(f"event {name[6:]}")
        elif name.startswith("fx_") and not name.endswith("_default"):
            this = frame.f_locals.get("v_this")
            if isinstance(this, int) and this < len(state.card_def):
                fired.add(f"ability {state.DEF_NAMES[state.card_def[this]]}: {_field(name)}")

    return hook


@contextmanager
def watching(module: ModuleType, tables: Sequence[str],
             tests: dict[str, str] | None = None) -> Iterator[set[int]]:
    """While it lasts, the module's tables of printed keywords named (`keyword_tables`) note
    in the set it gives each keyword a rule finds on a card, and so do its tables of tests
    made at load (`keyword_tests`), when a rule reads a definition's answer: a test such as
    `lifelink in c.keywords` is answered from one of these, never from the keywords."""
    found: set[int] = set()
    kept = {name: getattr(module, name) for name in tables if hasattr(module, name)}
    answers = {name: getattr(module, name) for name in tests or {} if hasattr(module, name)}
    try:
        scratch: set[int] = set()
        for name, table in kept.items():
            setattr(module, name, tuple(_Watched(row, scratch) for row in table))
        for name, table in answers.items():
            test = eval(compile(f"lambda d: {(tests or {})[name]}", f"<{name}>", "eval"),  # noqa: S307
                        module.__dict__)
            finds = []
            for d in range(len(table)):
                scratch.clear()
                test(d)
                finds.append(frozenset(scratch))
            setattr(module, name, _Answers(table, finds, found))
        for name, table in kept.items():
            setattr(module, name, tuple(_Watched(row, found) for row in table))
        yield found
    finally:
        for name, table in (kept | answers).items():
            setattr(module, name, table)


class _Answers(tuple[bool, ...]):
    """A table of tests of a card's definition alone that notes the keywords each answer found
    (worked out once per definition) whenever a rule reads it."""

    finds: list[frozenset[int]]
    found: set[int]

    def __new__(cls, answers: Sequence[bool], finds: list[frozenset[int]],
                found: set[int]) -> _Answers:
        made = super().__new__(cls, answers)
        made.finds, made.found = finds, found
        return made

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int):
            self.found.update(self.finds[index])
        return super().__getitem__(index)


def keyword_tests(source: str, tables: Sequence[str]) -> dict[str, str]:
    """The tables of tests of a card's definition alone (`T_CARD_...`, made when the module
    loads) of a game's generated source that read a table of printed keywords, each with its
    test of `d` (the definition)."""
    import ast

    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id.startswith("T_CARD_") and isinstance(node.value, ast.Call)
                and node.value.args and isinstance(node.value.args[0], ast.GeneratorExp)):
            test = ast.unparse(node.value.args[0].elt)
            if any(name in test for name in tables):
                found[node.target.id] = test
    return found


class _Watched(list[int]):
    """A card's printed keywords that note each keyword a rule finds in them (`k in
    c.keywords` true): how --coverage sees a keyword take effect."""

    __slots__ = ("found",)

    def __init__(self, row: list[int], found: set[int]) -> None:
        super().__init__(row)
        self.found = found

    def __contains__(self, item: object) -> bool:
        if list.__contains__(self, item):
            self.found.add(item)  # type: ignore[arg-type]
            return True
        return False


def keyword_tables(model: Any) -> list[str]:
    """The module tables of a game's card fields of type `list of keyword` (the printed
    keywords), from its checked model."""
    from compiler import types as t
    from compiler.pygen_base import upper

    found: list[str] = []
    for record in model.records.values():
        if not record.is_card:
            continue
        for name, info in record.fields.items():
            kind = info.type
            if (not info.per_card and isinstance(kind, t.ListT)
                    and isinstance(kind.element, t.EnumT) and kind.element.name == "keyword"):
                found.append(f"C_{upper(record.name)}_{upper(name)}")
    return found


def _field(function: str) -> str:
    """fx_Card_on_call_12 -> on_call: the card field whose text the function runs."""
    return function.split("_", 2)[2].rsplit("_", 1)[0]


def declared(module: ModuleType, owned: set[str],
             tables: Sequence[str] = ()) -> list[str]:
    """What a game declares that --coverage expects to fire: its action kinds, procedures,
    events, and the abilities and printed keywords (in `tables`) of the cards that were in
    some player's deck."""
    found = [f"action {k}" for k in module.State.ACTION_NAMES]
    for name in sorted(vars(module)):
        if name.startswith("proc_"):
            found.append(f"procedure {name[5:]}")
        elif name.startswith("raise_"):
            found.append(f"event {name[6:]}")
    def_names = module.State.DEF_NAMES
    for name, table in sorted(vars(module).items()):
        if not name.startswith("FX_") or not isinstance(table, tuple):
            continue
        for i, function in enumerate(table):
            fn = getattr(function, "__name__", "")
            if i < len(def_names) and def_names[i] in owned and not fn.endswith("_default"):
                found.append(f"ability {def_names[i]}: {_field(fn)}")
    keyword_names = getattr(module, "E_KEYWORD_NAMES", ())
    for name in tables:
        for i, row in enumerate(getattr(module, name, ())):
            if i < len(def_names) and def_names[i] in owned:
                found += [f"keyword {keyword_names[k]}" for k in row if k < len(keyword_names)]
    return sorted(set(found))


def _ignore_interrupts() -> None:
    # the parent process alone answers Ctrl-C: it stops the pool and reports what it has;
    # the pool stops a worker with SIGTERM, which must not run the parent's handler
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


_WORKER_MODULE: dict[str, ModuleType] = {}


def _worker(job: tuple[Setup, int]) -> Record:
    setup, index = job
    if setup.game not in _WORKER_MODULE:
        from compiler import api

        _WORKER_MODULE[setup.game] = api.load_game(setup.game)
    return play_one(_WORKER_MODULE[setup.game], setup, index)


def run(module: ModuleType, setup: Setup, games: int, jobs: int = 1,
        chosen_agents: Sequence[Any] | None = None,
        indices: Sequence[int] | None = None) -> Generator[Record, None, None]:
    """The records of games 0..games-1 (or of the games `indices` of the run: a slice, or
    those a resumed run misses), in order. With jobs > 1 they are played by a pool of
    processes (agents by spec only); stopping the iteration stops the pool."""
    wanted = range(games) if indices is None else indices
    if jobs <= 1:
        for index in wanted:
            yield play_one(module, setup, index, chosen_agents)
        return
    import multiprocessing

    _WORKER_MODULE[setup.game] = module  # forked workers find it compiled
    pool = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(
        jobs, initializer=_ignore_interrupts)
    try:
        yield from pool.imap(_worker, [(setup, i) for i in wanted], chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
