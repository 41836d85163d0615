"""What the generated modules do with input that does not come from them, and how their code
reads: an action built by hand is checked before any rule sees it, and a value is unwrapped
(`rt.some`) only where the checker narrowed an optional."""

from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from compiler.driver import check_rulebook
from compiler.pygen import PythonGenerator, generate_python
from compiler.pygen_decks import TABLE_NAME, LazyColumn, generate_deck_checker, load_deck_checker
from compiler.scaffold import new_game
from dsl.runtime import Action, IllegalAction, RuleError

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.stem for p in (ROOT / "generated").glob("*.py") if p.stem != "__init__")


def module(name: str) -> ModuleType:
    return importlib.import_module(f"generated.{name}")


def generated_source(rules: Path) -> str:
    """The module generated from a rulebook that must check without a diagnostic."""
    compilation = check_rulebook(rules)
    assert compilation.model is not None and not compilation.diagnostics.sorted(), \
        [d.message for d in compilation.diagnostics.sorted()]
    return generate_python(compilation.model)


def malformed_copies(action: Action) -> list[Action]:
    """The action with arguments no listing makes: out of range at both ends, one too many,
    not numbers, and a kind that does not exist."""
    def built(kind: object, args: object) -> Action:
        return Action(kind, action.actor, args, action._text)  # type: ignore[arg-type]

    copies = [built(action.kind, action.args + (0,)), built(action.kind, None),
              built(-1, action.args), built(10**6, action.args), built("x", action.args)]
    for position in range(len(action.args)):
        for bad in (-1, 10**9, "x", 1.0, True):
            args: list[object] = list(action.args)
            args[position] = bad
            copies.append(built(action.kind, tuple(args)))
    return copies


@pytest.mark.parametrize("game", GAMES)
def test_a_malformed_action_is_illegal_and_changes_nothing(game: str) -> None:
    state = module(game).new_game(seed=3)
    seen_kinds: set[int] = set()
    steps = 0
    while not state.is_terminal() and steps < 2000:
        legal = state.legal_actions()
        for action in legal:
            if action.kind in seen_kinds:
                continue
            seen_kinds.add(action.kind)
            before = state.to_json()
            for bad in malformed_copies(action):
                with pytest.raises(IllegalAction) as raised:
                    state.apply_action(bad)
                assert "malformed action" in str(raised.value) \
                    or "is not possible in phase" in str(raised.value), str(raised.value)
                assert state.to_json() == before
        state.apply_action(legal[steps % len(legal)])
        steps += 1
    assert len(seen_kinds) >= 2


WITHOUT_PLIES = {"dynasty_tcg"}  # its players may be out (`out`)


@pytest.mark.parametrize("game", GAMES)
def test_a_ply_plays_as_apply_action_and_advance_do(game: str, monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    # a phase's ply (StateCore.PLY) applies a listed action and asks the next actor in one
    # function: the same seeds play to the same states with the plies and without them
    state_class = module(game).State
    if not any(state_class.PLY):
        # a game where a player may be out keeps apply_action's path, which skips them
        assert game in WITHOUT_PLIES, f"{game} lost its plies"
        return
    assert game not in WITHOUT_PLIES

    def final_states() -> list[str]:
        states = []
        for seed in range(2):
            state = module(game).new_game(seed=seed)
            choose = random.Random(seed).choice
            while not state.is_terminal():
                state.apply_action(choose(state.legal_actions()))
            states.append(state.to_json())
        return states

    with_plies = final_states()
    monkeypatch.setattr(state_class, "PLY", (None,) * len(state_class.PHASES))
    assert final_states() == with_plies


def test_a_ply_refuses_what_apply_action_refuses() -> None:
    game = module("dynasties")
    assert game.State.PLY[game.PHASES.index("placement")] is not None
    state = game.new_game(seed=1)
    placed = state.legal_actions()[0]
    state.apply_action(placed)
    before = state.to_json()
    # the same listed action again: its tile is placed, or its province taken
    with pytest.raises(IllegalAction, match="already placed|is available"):
        state.apply_action(placed)
    assert state.to_json() == before
    while game.PHASES[state.phase] == "placement":
        state.apply_action(state.legal_actions()[0])
    before = state.to_json()
    # a listed action of another phase, by the player whose turn it is
    stale = game.LISTED_PLACE[state.actor][0][0]
    with pytest.raises(IllegalAction, match="is not possible in phase"):
        state.apply_action(stale)
    assert state.to_json() == before


def test_a_malformed_argument_names_its_place_and_the_range() -> None:
    state = module("dynasties").new_game(seed=1)
    action = state.legal_actions()[0]
    bad = Action(action.kind, action.actor, tuple(-1 for _ in action.args), action._text)
    with pytest.raises(IllegalAction, match=r"argument 1 of '\w+' is -1, not a whole number "
                                             r"from 0 to \d+"):
        state.apply_action(bad)


def test_only_narrowed_optionals_are_unwrapped(tmp_path: Path) -> None:
    folder = new_game("narrow", tmp_path)
    rules = folder / "narrow.rules"
    text = rules.read_text()
    text = text.replace("  turn_player: player = A\n",
                        "  turn_player: player = A\n  last_player: player? = none\n")
    text = text.replace("    actor.score += c.points\n",
                        "    let gain = c.points\n    actor.score += gain\n"
                        "    let total = gain + 1\n    total += gain\n"
                        "    if last_player != none { last_player.score += 0 }\n"
                        "    last_player = actor\n")
    rules.write_text(text)
    source = generated_source(rules)
    assert "v_gain = " in source and "v_total += v_gain" in source
    assert "rt.some(v_gain)" not in source and "rt.some(v_total)" not in source
    assert "rt.some(s.g_last_player)" in source


def test_a_variable_never_assigned_is_not_unwrapped_once_tested(tmp_path: Path) -> None:
    # a parameter or a `let` that nothing assigns stays present once tested: no rt.some, and
    # mypy narrows it as the checker does; a `let` assigned later may be none again
    folder = new_game("kept", tmp_path)
    rules = folder / "kept.rules"
    text = rules.read_text()
    procedures = (
        "procedure keep(p: player) {\n"
        "  let c = first(deck[p])\n"
        "  if c != none { move c to hand[p] }\n"
        "  let d = first(deck[p])\n"
        "  if d != none {\n    move d to hand[p]\n    d = first(deck[p])\n  }\n}\n\n"
    )
    text = text.replace("setup {", procedures + "setup {", 1)
    text = text.replace("    draw 3 from deck[p] to hand[p]\n",
                        "    draw 3 from deck[p] to hand[p]\n    keep(p)\n", 1)
    rules.write_text(text)
    source = generated_source(rules)
    keep = source[source.index("def proc_keep"):]
    keep = keep[:keep.index("\n\n\n")]
    assert "s.move_uncapped(v_c, " in keep and "rt.some(v_c)" not in keep
    assert "s.move_uncapped(rt.some(v_d), " in keep


def test_enum_members_are_named_constants_that_never_take_another_name() -> None:
    from compiler.pygen_base import enum_constants

    names = enum_constants([
        ("TileKind", ["plague", "number"]),
        ("Slot", ["names"]),            # would be SLOT_NAMES, the module's table of slots
        ("Tile", ["kind_plague"]),      # would be TILE_KIND_PLAGUE as well
        ("K", ["play"]),                # would be K_PLAY, an action kind
    ])
    assert names == {("TileKind", 1): "TILE_KIND_NUMBER"}
    source = (ROOT / "generated" / "dynasties.py").read_text()
    assert "TILE_KIND_PLAGUE: Final = 3" in source
    assert "== TILE_KIND_PLAGUE" in source and "s.card_def[rt.some(v_ta)]] == 3)" not in source


@pytest.mark.parametrize("game", GAMES)
def test_every_name_of_a_generated_module_is_given_once(game: str) -> None:
    source = (ROOT / "generated" / f"{game}.py").read_text()
    names = [line.split(":")[0].split(" ")[0] for line in source.splitlines()
             if line[:1].isupper() and (": Final" in line or " = " in line)
             and not line.startswith("State.")]
    assert names and len(names) == len(set(names))


def test_the_deck_checker_holds_only_the_card_tables_its_rules_read() -> None:
    compilation = check_rulebook(ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules")
    assert compilation.model is not None
    full = generate_python(compilation.model)
    checker = generate_deck_checker(compilation.model)
    # the deck rules read kind and colours (and colour): the other card columns stay out
    for table in ("C_CARD_KIND", "C_CARD_COLOUR", "C_CARD_COLOURS", "DEF_NAMES"):
        assert f"\n{table}: Final" in checker, table
    left_out = [table for table in ("C_CARD_COST", "C_CARD_ATTACK", "C_CARD_LP")
                if f"\n{table}: Final" in full]
    assert left_out, "the full module has other card columns"
    assert not [table for table in left_out if f"\n{table}: Final" in checker]
    assert "def deck_problem(" in checker and "def fx_" not in checker


@pytest.mark.parametrize("game", ["dojo", "dynasty_tcg", "rulers_gambit"])
def test_the_deck_checker_is_written_as_the_whole_generator_writes_it(game: str) -> None:
    """compiler.pygen_decks writes deck_problem and its tables with the generator's lower
    layers alone: the same text as the whole generator (PythonGenerator) gives them."""
    compilation = check_rulebook(ROOT / "rulebooks" / game / f"{game}.rules")
    assert compilation.model is not None
    model = compilation.model
    rules = PythonGenerator(model)
    rules.deck_rules()
    whole = PythonGenerator(model)
    whole.only_tables = frozenset(TABLE_NAME.findall(rules.w.text()))
    whole.w.line("from typing import Final")
    whole.tables()
    whole.deck_rules()
    whole.area_tables()
    assert "def deck_problem(" in whole.w.text()
    assert generate_deck_checker(model) == whole.w.text()
    full = generate_python(model)
    assert whole.w.text().split("def deck_problem(")[1].split("\n\n\n")[0] in full


def test_a_check_with_decks_leaves_the_rest_of_the_generator_unloaded() -> None:
    rules = ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules"
    code = ("import sys; from pathlib import Path; from compiler.driver import check_rulebook; "
            f"c = check_rulebook(Path({str(rules)!r})); "
            "assert c.model is not None and c.model.decks and not c.diagnostics.has_errors; "
            "print(sorted(m for m in sys.modules if m.startswith('compiler.pygen')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout
    assert "compiler.pygen_decks" in loaded
    assert "compiler.pygen_actions" not in loaded and "compiler.pygen_wiring" not in loaded


@pytest.mark.parametrize("game", ["dojo", "dynasty_tcg", "rulers_gambit"])
def test_the_deck_checker_of_check_judges_decks_as_the_module_does(game: str) -> None:
    """`rulecraft check` runs deck_problem with card tables made when read (LazyColumn): each
    table reads as the module's tuple, and shipped and random decks get the same verdicts."""
    import random

    compilation = check_rulebook(ROOT / "rulebooks" / game / f"{game}.rules")
    assert compilation.model is not None and compilation.ok
    full, lazy = module(game), load_deck_checker(compilation.model)
    tables = [name for name, value in vars(lazy).items() if isinstance(value, LazyColumn)]
    assert "DEF_NAMES" in tables and len(tables) >= 2
    for name in tables:
        column, real = getattr(lazy, name), getattr(full, name)
        assert len(column) == len(real)
        assert [column[-1], column[-len(real)]] == [real[-1], real[-len(real)]]
        assert column[1:5] == real[1:5] and list(column) == list(real)
        for bad in (len(real), -len(real) - 1):
            with pytest.raises(IndexError):
                column[bad]
    fresh = load_deck_checker(compilation.model)  # nothing read yet: reading makes the values
    rng = random.Random(7)
    decks = [list(cards) for cards in full.DECKS.values()]
    for cards in list(decks):
        decks.append(cards[1:])  # one card short
        decks.append([*cards[:-1], cards[0]])  # a copy too many of one card
        decks.append(rng.choices(range(len(full.DEF_NAMES)), k=len(cards)))
    sides = [rng.choices(range(len(full.DEF_NAMES)), k=rng.randrange(4)) for _ in decks]
    pairs = list(zip(decks, sides, strict=True))
    verdicts = [full.deck_problem(cards, side) for cards, side in pairs]
    assert [fresh.deck_problem(cards, side) for cards, side in pairs] == verdicts
    assert None in verdicts and any(v is not None for v in verdicts)


def test_an_area_at_a_fixed_distance_is_a_row_of_a_table_of_the_same_nodes() -> None:
    from dsl import runtime as rt

    game = module("dynasty_builder")
    source = (ROOT / "generated" / "dynasty_builder.py").read_text()
    assert "N_HEX_WITHIN_1[" in source and "rt.within(N_HEX_DISTANCE[v_h], 1)" not in source
    for node, row in enumerate(game.N_HEX_DISTANCE):
        for radius in (1, 2, 5):
            table = getattr(game, f"N_HEX_WITHIN_{radius}")
            assert list(table[node]) == rt.within(row, radius)


def test_a_ring_at_a_worked_out_distance_is_a_row_of_the_table_of_rings() -> None:
    from dsl import runtime as rt

    for name in ("dynasty_builder", "dynasty_builder_continent"):
        game = module(name)
        source = (ROOT / "generated" / f"{name}.py").read_text()
        assert "N_HEX_RINGS[v_c][v_k]" in source and "rt.ring(N_HEX_DISTANCE[v_c], v_k))" in source
        span = max(max(row) for row in game.N_HEX_DISTANCE)
        for node, row in enumerate(game.N_HEX_DISTANCE):
            assert len(game.N_HEX_RINGS[node]) == span + 1
            for radius in range(span + 1):
                assert list(game.N_HEX_RINGS[node][radius]) == rt.ring(row, radius)
    # a distance that no two nodes of a graph board have (-1: unreachable ones): rt.ring
    assert rt.rings([0, 1, -1, 1], 3) == ((0,), (1, 3), ())


def test_a_repeat_stops_at_a_turn_that_does_nothing_unless_a_turn_draws(tmp_path: Path) -> None:
    folder = new_game("idle", tmp_path)
    rules = folder / "idle.rules"
    text = rules.read_text()
    procedures = (
        "procedure deal(p: player) {\n"
        "  repeat 3 {\n    let c = first(deck[p])\n"
        "    if c != none { move c to hand[p] }\n  }\n}\n\n"
        "procedure gamble(p: player) {\n"
        "  repeat 3 {\n    let n = roll(6)\n"
        "    if n == 6 { p.score += 1 }\n  }\n}\n\n"
    )
    text = text.replace("setup {", procedures + "setup {", 1)
    text = text.replace("    draw 3 from deck[p] to hand[p]\n",
                        "    draw 3 from deck[p] to hand[p]\n    deal(p)\n    gamble(p)\n", 1)
    rules.write_text(text)
    source = generated_source(rules)
    deal = source[source.index("def proc_deal"):source.index("def proc_gamble")]
    gamble = source[source.index("def proc_gamble"):]
    gamble = gamble[:gamble.index("\n\n\n")]
    assert "else:\n            break" in deal
    assert "break" not in gamble  # each turn rolls: the next may roll a 6


def test_a_listing_tests_each_require_outside_the_loops_it_does_not_read(tmp_path: Path) -> None:
    folder = new_game("levels", tmp_path)
    rules = folder / "levels.rules"
    text = rules.read_text()
    action = (
        '  action pair(c: Card in hand[actor], n: int in 1..3)\n'
        '      says "{actor} pairs {c} with {n}" {\n'
        '    require turn_player == actor else "not yours"\n'
        '    require c.points >= 0 else "no points"\n'
        '    require actor.score / n >= 0 else "divides"\n'
        '    require n <= 2 else "too many"\n'
        '    turn_player = opponent(actor)\n'
        '  }\n'
    )
    text = text.replace("  ## The player to act has no card left.\n",
                        action + "  ## The player to act has no card left.\n", 1)
    rules.write_text(text)
    source = generated_source(rules)
    legal = source[source.index("def legal_pair"):]
    legal = legal[:legal.index("\n\n\n")]
    lines = [line.strip() for line in legal.splitlines()]
    # reads no parameter: once, before the loops; reads c: in c's loop, before n's
    order = [lines.index(line) for line in (
        "if check and (s.g_turn_player != actor):", "for v_c in v_c_cards:",
        "if check and (C_CARD_POINTS[s.card_def[v_c]] < 0):", "for v_n in range(1, 3 + 1):")]
    assert order == sorted(order)
    # may raise (a division): where it was, and the harmless test after it stays after it
    assert lines.index("for v_n in range(1, 3 + 1):") < lines.index(
        "if ((s.p_score[actor] // v_n) < 0):") < lines.index("if (v_n > 2):")


def test_a_card_listing_tests_the_definition_before_telling_copies_apart(tmp_path: Path) -> None:
    folder = new_game("copies", tmp_path)
    rules = folder / "copies.rules"
    text = rules.read_text()
    text = text.replace("  points: int\n", "  points: int\n  tapped: bool per card = false\n", 1)
    functions = (
        "function bright(c: Card, p: player) -> bool = c.suit == sun or p.score > 3\n\n"
        "function worn(c: Card) -> bool = c.tapped\n\n"
    )
    text = text.replace("setup {", functions + "setup {", 1)
    action = (
        '  action boost(c: Card in hand[actor]) says "{actor} boosts {c}" {\n'
        '    require actor.score >= c.points else "too dear"\n'
        '    require not worn(c) else "tapped"\n'
        '    require bright(c, actor) else "not a sun"\n'
        '    turn_player = opponent(actor)\n'
        '  }\n'
    )
    text = text.replace("  ## The player to act has no card left.\n",
                        action + "  ## The player to act has no card left.\n", 1)
    rules.write_text(text)
    source = generated_source(rules)
    legal = source[source.index("def legal_boost"):]
    legal = legal[:legal.index("\n\n\n")]
    lines = [line.strip() for line in legal.splitlines()]
    copies = next(i for i, line in enumerate(lines) if "s.same_choice(" in line)
    # the same answer for every copy of a definition: made before the copies are told apart
    # (also through a function that reads the card so: bright)
    for test in ("if (s.p_score[actor] < C_CARD_POINTS[s.card_def[v_c]]):",
                 "(C_CARD_SUIT[s.card_def[v_c]] == SUIT_SUN)"):
        assert next(i for i, line in enumerate(lines) if test in line) < copies
    # a copy's own state may set it apart, also through a function (worn): after
    assert next(i for i, line in enumerate(lines) if "s.k_Card_tapped[v_c]" in line) > copies


def test_rules_inline_the_small_functions_they_call(tmp_path: Path) -> None:
    folder = new_game("inline", tmp_path)
    rules = folder / "inline.rules"
    text = rules.read_text()
    functions = (
        "function cheap(c: Card) -> bool = c.points >= 1 and c.suit == sun\n\n"
        "function tally(p: player) -> int = count(c for c in hand[p] where c.points > 0)\n\n"
        "function twice(n: int) -> int = n + n\n\n"
        "function held(c: Card, p: player) -> bool = c in hand[p]\n\n"
        "function ahead(p: player) -> bool = p.score > opponent(p).score\n\n"
    )
    text = text.replace("setup {", functions + "setup {", 1)
    action = (
        '  action pick(c: Card in hand[actor]) says "{actor} picks {c}" {\n'
        '    require cheap(c) else "too dear"\n'
        '    require tally(actor) < 9 else "too many"\n'
        '    require twice(actor.score + 1) < 99 else "too far ahead"\n'
        '    require not held(c, opponent(actor)) else "theirs"\n'
        '    if ahead(B) { turn_player = opponent(actor) }\n'
        '    if not held(c, A) { turn_player = A }\n'
        '  }\n'
    )
    text = text.replace("  ## The player to act has no card left.\n",
                        action + "  ## The player to act has no card left.\n", 1)
    rules.write_text(text)
    source = generated_source(rules)
    legal = source[source.index("def legal_pick"):]
    legal = legal[:legal.index("\n\n\n")]
    check = source[source.index("def check_pick"):]
    check = check[:check.index("\n\n\n")]
    do = source[source.index("def do_pick"):]
    do = do[:do.index("\n\n\n")]
    # the body where a listing or a check tests it, with the card for the parameter (where
    # it reads the card's definition alone, check_ reads its answer from a table)
    assert "f_cheap(" not in legal and "C_CARD_POINTS[s.card_def[v_c]] >= 1" in legal
    assert "f_cheap(" not in check and re.search(r"not T_CARD_\d+\[s\.card_def\[v_c\]\]", check)
    for code in (legal, check):
        assert "f_tally(s, actor)" in code  # an aggregate's loop is cheaper in a function
        assert "f_twice(s, (s.p_score[actor] + 1))" in code  # an argument read twice: once
        # the other seat of two is a plain argument
        assert "f_held(" not in code and "(v_c in s.zones[Z_HAND + (1 - actor)])" in code
    # in an action's effects too; the other seat of a named seat is a number, and `not` of
    # a body `c in z` reads `not in`
    assert "f_ahead(" not in do and "(s.p_score[1] > s.p_score[0])" in do
    assert "f_held(" not in do and "if (v_c not in s.zones[Z_HAND + 0]):" in do


def test_a_listing_reads_a_test_of_a_card_definition_alone_from_a_table() -> None:
    # Dynasties' "your 6 marker stands there" reads the tile's kind and value: data of its
    # definition, worked out at load for each definition; a test that reads a card's state
    # (Dynasty Builder's moved troops) is still worked out in the listing
    game = module("dynasties")
    source = (ROOT / "generated" / "dynasties.py").read_text()
    # the table is named after the rulebook line of the `require` (rules:351 today); a
    # listing that checks nothing (`check` false) needs no test
    found = re.search(r"v_test_(\d+) = check and T_PLACE_TEST_(\d+)\[s\.card_def\[v_tile\]\]",
                      source)
    assert found is not None and found[1] == found[2]
    assert f"# rulebooks/dynasties/dynasties.rules:{found[1]}\n" in source
    table = getattr(game, f"T_PLACE_TEST_{found[1]}")
    sixes = [d for d, name in enumerate(game.DEF_NAMES) if table[d]]
    assert [game.DEF_NAMES[d] for d in sixes] == ["6"]
    assert all(table[d] == (game.C_TILE_KIND[d] == game.TILE_KIND_NUMBER
                            and game.C_TILE_VALUE[d] == 6)
               for d in range(len(game.DEF_NAMES)))
    builder = (ROOT / "generated" / "dynasty_builder.py").read_text()
    # named after its rulebook line too, which moves with the rulebook's layout
    assert re.search(r"v_test_\d+ = check and s\.k_Troop_moved\[v_u\]", builder)


def test_a_rule_reads_a_test_of_a_card_definition_alone_from_a_table_made_last() -> None:
    # do_place's "a 1 was played" reads the tile's kind and value, two lookups of its
    # definition: one table lookup instead, the table made after every rule
    game = module("dynasties")
    source = (ROOT / "generated" / "dynasties.py").read_text()
    do_place = source[source.index("def do_place("):source.index("def legal_place(")]
    found = re.search(r"if (T_CARD_\d+)\[s\.card_def\[v_tile\]\]:", do_place)
    assert found is not None and "C_TILE_VALUE" not in do_place
    table = getattr(game, found[1])
    assert [name for d, name in enumerate(game.DEF_NAMES) if table[d]] == ["1"]
    for name in GAMES:
        text = (ROOT / "generated" / f"{name}.py").read_text()
        made = [m.start() for m in re.finditer(r"^T_CARD_\w+: Final", text, re.MULTILINE)]
        # made at load after every function; so a listing's own tables, made right after
        # the listing at load, may not read them
        assert all(at > text.rindex("\ndef ") for at in made), name
        listings_tables = re.findall(r"^T_\w+_TEST_\w+: Final.*?^\)$", text,
                                     re.MULTILINE | re.DOTALL)
        assert not any("T_CARD_" in table for table in listings_tables), name


def test_the_only_argument_of_a_call_has_no_doubled_parentheses(tmp_path: Path) -> None:
    # ruff (UP034) rejects `abs((a - b))`: found writing Dynasty TCG's lane distances
    folder = new_game("apart", tmp_path)
    rules = folder / "apart.rules"
    text = rules.read_text()
    text = text.replace("    actor.score += c.points\n",
                        "    actor.score += abs(c.points - actor.score)\n", 1)
    rules.write_text(text)
    source = generated_source(rules)
    assert "abs(" in source and "abs((" not in source
    module_file = tmp_path / "apart.py"
    module_file.write_text(source)
    checked = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--select", "UP034",
         str(module_file)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout


def test_a_sum_of_zone_sizes_over_a_whole_dimension_is_a_slice_of_the_zones() -> None:
    # Dynasties' placed_count(p) = sum(size(placed[p, v]) for v in Province): the five slots
    # of p are consecutive, so their sizes are added up in C; the actor, asked after every
    # action, reads the body instead of calling the function
    source = (ROOT / "generated" / "dynasties.py").read_text()
    counted = source[source.index("def f_placed_count"):]
    counted = counted[:counted.index("\n\n\n")]
    # five slots: their lengths added up one by one (cheaper than sum and map)
    assert "for " not in counted and "len(s.zones[Z_PLACED + v_p * 5])" in counted
    assert "+ len(s.zones[Z_PLACED + v_p * 5 + 4])" in counted
    actor = source[source.index("def actor_placement"):]
    actor = actor[:actor.index("\n\n\n")]
    assert "f_placed_count" not in actor and "+ len(s.zones[Z_PLACED + v_p * 5 + 4])" in actor
    # Dynasty Builder's 108 hexes: a slice, added up in C
    builder = (ROOT / "generated" / "dynasty_builder.py").read_text()
    assert "return sum(map(len, s.zones[Z_UNITS + v_p * 108:Z_UNITS + v_p * 108 + 108]))" \
        in builder
    # a sum with a `where`, or of something else than sizes, is still a loop
    assert "v_sum += s.n_Province_armies[v_s]" in source
    game = module("dynasties")
    state = game.new_game(seed=5)
    counts = set()
    for step in range(40):
        placed = [sum(len(state.zones[game.Z_PLACED + p * 5 + v]) for v in range(5))
                  for p in range(2)]
        counts.update(placed)
        assert [game.f_placed_count(state, p) for p in range(2)] == placed
        assert game.actor_placement(state) == next(
            (p for p in range(2) if placed[p] < 5), None)
        state.apply_action(state.legal_actions()[step % len(state.legal_actions())])
    assert counts == {0, 1, 2, 3, 4, 5}


def test_applying_a_card_takes_its_first_copy_and_refuses_with_the_reason() -> None:
    # apply_place tries the first copy of the named tile before listing the copies: taken
    # when the rules allow it, refused with check_place's reason when they do not, whether
    # the action was listed or made by hand
    game = module("dynasties")
    state = game.new_game(seed=4)
    listed = state.legal_actions()[0]
    tile, prov = listed.args
    by_hand = Action(listed.kind, listed.actor, (tile, prov), listed._text)
    first = next(card for card in state.zones[game.Z_BASICS] if state.card_def[card] == tile)
    state.apply_action(by_hand)
    assert state.card_zone[first] == game.Z_PLACED + prov
    # a listed action of the first listing, another tile on the same province: now refused
    stale = next(a for a in game.new_game(seed=4).legal_actions()
                 if a.args[0] != tile and a.args[1] == prov)
    with pytest.raises(IllegalAction, match="you already placed a tile on"):
        state.apply_action(stale)
    source = (ROOT / "generated" / "dynasties.py").read_text()
    # a procedure whose body is one `if` is called only when its test holds
    guarded = "if (C_TILE_COST[s.card_def[v_ta]] > 0):\n            proc_pay_cost(s, 0, v_ta)"
    assert guarded in source


def test_a_zone_of_one_card_is_looked_at_without_a_copy_and_uncapped_moves_test_no_capacity(
    tmp_path: Path,
) -> None:
    folder = new_game("single", tmp_path)
    rules = folder / "single.rules"
    text = rules.read_text()
    text = text.replace("zone played: Card public per player\n",
                        "zone played: Card public per player\n"
                        "zone kept: Card public per player capacity 1\n", 1)
    procedures = (
        "procedure keep(p: player) {\n"
        "  for c in kept[p] { move c to played[p] }\n"
        "  let d = first(hand[p])\n"
        "  if d != none { move d to kept[p] }\n}\n\n"
        "procedure stop(p: player) {\n"
        "  for c in kept[p] {\n    if c.points > 100 { break }\n"
        "    move c to hand[p]\n  }\n}\n\n"
    )
    text = text.replace("setup {", procedures + "setup {", 1)
    text = text.replace("    draw 3 from deck[p] to hand[p]\n",
                        "    draw 3 from deck[p] to hand[p]\n    keep(p)\n    keep(p)\n"
                        "    stop(p)\n    keep(p)\n", 1)
    rules.write_text(text)
    source = generated_source(rules)
    keep = source[source.index("def proc_keep"):source.index("def proc_stop")]
    stop = source[source.index("def proc_stop"):]
    stop = stop[:stop.index("\n\n\n")]
    # kept holds one card at most: its card, if any, with no copy of the zone to loop over
    assert "v_c_zone = s.zones[Z_KEPT + v_p]" in keep and "list(" not in keep
    assert "s.move_uncapped(v_c, Z_PLAYED + v_p)" in keep  # played has no capacity
    assert "s.move(v_d, Z_KEPT + v_p, False)" in keep  # kept has one: its test stays
    assert "for v_c in list(s.zones[Z_KEPT + v_p]):" in stop  # a `break` needs the loop
    # what it does: the first card kept goes on to played when a second is kept; stop puts
    # that one back in hand, and the last keep keeps a card again. A full `kept` still refuses
    # a card moved in.
    namespace: dict[str, object] = {"__name__": "single_generated"}
    exec(compile(source, "single_generated.py", "exec"), namespace)  # noqa: S102
    state = namespace["new_game"](seed=3)  # type: ignore[operator]
    for p in range(2):
        kept = state.zones[namespace["Z_KEPT"] + p]  # type: ignore[operator]
        played = state.zones[namespace["Z_PLAYED"] + p]  # type: ignore[operator]
        assert len(kept) == 1 and len(played) == 1
        assert all(state.card_zone[c] == namespace["Z_KEPT"] + p for c in kept)  # type: ignore[operator]
        with pytest.raises(RuleError, match="full"):
            state.move(state.zones[namespace["Z_HAND"] + p][0], namespace["Z_KEPT"] + p)  # type: ignore[operator]
