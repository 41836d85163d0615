"""The check passes' fast paths for big card sets give exactly what their general code gives.

Each fast path sits beside the general code it stands for; `general_paths` swaps every one of
them for that code. Rulebooks are then checked both ways, and the diagnostics (in order, with
spans, messages, notes and hints), what typecheck records for every node (types, meanings,
narrowings) and, for clean ones, the generated module must be the same. The rulebooks: the
real ones, every diagnostic fixture, generated card sets shaped like the real one, the same
sets broken at random (wrong words, names of every kind, lists, numbers, missing and unknown
fields, misspelt effect texts, annotations), and a rulebook whose `data` block gives every kind
of expression. The reach pass's single walk is also compared with a generic walk directly, and the
effect texts resolve keeps with the ones found in the entries.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_cards import generate
from compiler import check_expressions as expressions_pass
from compiler import reach as reach_pass
from compiler import symbols as sym
from compiler.check_base import Scope
from compiler.check_data import DATA
from compiler.consteval import evaluate
from compiler.driver import Compilation, check_rulebook
from compiler.model import EntryInfo, FieldInfo, GameModel, RecordInfo
from compiler.pygen import generate_python
from compiler.resolve import Resolver
from compiler.typecheck import Checker
from compiler.types import EffectT, Type
from dsl import nodes as n
from tests.tiers import soak

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = sorted((ROOT / "rulebooks").glob("*/*.rules"))
FIXTURES = sorted((ROOT / "tests" / "cases").glob("*.rules"))


# ---- the general code each fast path stands for


def general_converter(self: Resolver, type_: Type) -> Callable[[n.Expr, str], n.Expr]:
    return lambda value, entry: self.data_value(value, type_, f"'{entry}'")


def general_entries(self: Checker, record: RecordInfo) -> None:
    for entry in record.entries:
        for name, value in entry.values.items():
            info = record.fields[name]
            if isinstance(info.type, EffectT) or isinstance(value, n.EffectLit):
                self.effect_value(record.name, info, value)
                continue
            if self.reported_as_word(value, info):
                continue
            self.expect(value, self.expr(value, Scope(), DATA), info.type, f"field '{name}'")


def general_rule(
    self: Checker, cond: n.Expr, data: dict[str, FieldInfo]
) -> Callable[[dict[str, n.Expr | None]], object]:
    model = self.model
    return lambda values: evaluate(cond, values, model)


def general_values(
    entry: EntryInfo, defaults: dict[str, n.Expr | None], effects: list[str]
) -> dict[str, n.Expr | None]:
    return {name: entry.values.get(name, default) for name, default in defaults.items()}


def general_uses(model: GameModel) -> reach_pass.Uses:
    """What UseFinder finds, node by node over generic_every_node."""
    uses = reach_pass.Uses()
    for node in generic_every_node(model):
        if isinstance(node, n.Name):
            uses.names.add(node.id)
        elif isinstance(node, n.Attribute):
            uses.fields.add(node.name)
            uses.read.add(node.name)
        elif isinstance(node, n.Call):
            uses.calls.add(node.func)
        elif isinstance(node, n.NamedType):
            uses.names.add(node.name)
        elif isinstance(node, n.FieldValue):
            uses.fields.add(node.name)
        elif isinstance(node, (n.Move, n.Draw, n.Create)):
            base = node.dest.obj if isinstance(node.dest, n.Index) else node.dest
            if isinstance(base, n.Name):
                uses.entered.add(base.id)
        elif isinstance(node, n.CallPhase):
            uses.called_phases.add(node.phase)
        uses.annotations.extend(getattr(node, "annotations", ()))
    return uses


def general_effect_bodies(record: RecordInfo) -> dict[str, list[n.Block]]:
    """known_effect_bodies found in the cards' values: each field's distinct effect texts, the
    default's first, then the cards' in order."""
    found: dict[str, dict[int, n.Block]] = {name: {} for name in record.fields}
    for name, info in record.fields.items():
        if isinstance(info.default, n.EffectLit):
            found[name][id(info.default.body)] = info.default.body
    for entry in record.entries:
        for name, value in entry.values.items():
            if isinstance(value, n.EffectLit) and name in found:
                found[name].setdefault(id(value.body), value.body)
    return {name: list(bodies.values()) for name, bodies in found.items() if bodies}


class GeneralUses:
    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.effects: dict[int, tuple[n.Block, reach_pass.Effects]] = {}

    def run(self) -> reach_pass.Uses:
        return general_uses(self.model)


@contextmanager
def general_paths() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Resolver, "data_converter", general_converter)
        patch.setattr(Checker, "entries", general_entries)
        patch.setattr(Checker, "card_rule", general_rule)
        patch.setattr(Checker, "rule_values", staticmethod(general_values))
        patch.setattr(expressions_pass, "_COMPOUND", {})
        patch.setattr(reach_pass, "UseFinder", GeneralUses)
        patch.setattr(reach_pass, "known_effect_bodies", general_effect_bodies)
        yield


# ---- what is compared


def nodes_of(model: GameModel) -> list[n.Node]:
    """Every node of the modules, then every value of every entry (made by resolve)."""
    found = [node for module in model.modules for node in n.walk(module)]
    for record in model.records.values():
        for entry in record.entries:
            for value in entry.values.values():
                found.extend(n.walk(value))
    return found


def digest(compilation: Compilation) -> dict[str, Any]:
    result: dict[str, Any] = {
        "diagnostics": [(d.code, d.span, d.span.end_line, d.span.end_column, d.message,
                         d.notes, d.hint) for d in compilation.diagnostics.items],
    }
    model = compilation.model
    if model is not None:
        result["nodes"] = [
            (type(node).__name__, node.span, model.types.get(id(node)),
             model.symbols.of(node), id(node) in model.narrowed)
            for node in nodes_of(model)
        ]
        result["entries"] = [(record.name, [(e.name, list(e.values)) for e in record.entries])
                             for record in model.records.values()]
        result["sizes"] = (len(model.types), len(model.symbols), len(model.narrowed))
    if compilation.ok and model is not None:
        result["module"] = generate_python(model)
    return result


# The fast way's compilation of each rulebook checked both ways, for the tests below that read
# the model again (the rulebooks are not changed while the tests run).
COMPILED: dict[Path, Compilation] = {}


def compiled(rules: Path) -> Compilation:
    if rules not in COMPILED:
        COMPILED[rules] = check_rulebook(rules)
    return COMPILED[rules]


def assert_same_both_ways(rules: Path) -> Compilation:
    fast = compiled(rules)
    with general_paths():
        general = check_rulebook(rules)
    expected, got = digest(general), digest(fast)
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key] == expected[key], f"{rules}: {key} differs"
    return fast


# ---- card sets


WORDS = (
    "purpel", "big", "none", "deck", "hand", "A", "B", "red", "unit", "Card", "kingdom",
    "trample", "normal", "Kind", "turn", "draw_cards", "this", "you", "players", "12", "-3",
    "true", '"red"', "[1, red]", "[[1]]", "[]", "null", "13", "99", "0", "[trample, trample]",
    "[red, 1]", "retain", "Colour", "own_unit", "'quoted'", "1.5", "[unit, spell]", "[Card]",
    "[none]", "no_target", "effect", "cost", "lp", "on_call", "[cost]", "S10", "spell_zone",
    "yes", "~", "[purple, blue]", "{a: 1}", "x.y", "[[red]]", "100000000000000000000",
)
CARD_LINE = re.compile(r"^(  - |    )(\w+): (.*)$")


def broken(cards: str, seed: int, skip: tuple[str, ...] = ()) -> str:
    """The card set with about one value in twenty replaced, dropped or joined by another key,
    and some effect lines misspelt or annotated."""
    rng = random.Random(seed)
    out: list[str] = []
    for line in cards.split("\n"):
        match = CARD_LINE.match(line)
        roll = rng.random()
        if match and match.group(2) not in ("name", *skip) and match.group(3) != "|" \
                and roll < 0.05:
            lead, key = match.group(1), match.group(2)
            choice = rng.random()
            if choice < 0.75:
                out.append(f"{lead}{key}: {rng.choice(WORDS)}")
            elif choice < 0.9:
                extra = rng.choice(["foo", "rested", "chosen", "lp", "effect", "awakened"])
                out.append(f"{lead}{extra}: {rng.choice(WORDS)}")
                out.append(line.replace("  - ", "    ", 1))
            elif lead == "  - ":
                out.append(line)  # a card's first line stays: it opens the card
            continue
        if line.startswith("      ") and roll < 0.02:
            swap = rng.choice([("you", "yuo"), ("hand", "limbo"), ("(", "(@S10 ")])
            line = line.replace(*swap, 1)
        elif line.startswith("      ") and roll < 0.025:
            line = "      " + rng.choice(["@S99 ", "@S10 "]) + line.strip()
        out.append(line)
    return "\n".join(out)


@pytest.fixture(scope="module")
def card_sets(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, int], Path]:
    """The rulebook of a generated card set, written once for the module's tests."""
    made: dict[tuple[str, int], Path] = {}

    def get(kind: str, seed: int) -> Path:
        if (kind, seed) not in made:
            made[kind, seed] = card_set(tmp_path_factory.mktemp(f"{kind}{seed}"), kind, seed)
        return made[kind, seed]

    return get


def card_set(folder: Path, kind: str, seed: int) -> Path:
    """The rulebook of a generated card set: a clean one, or one broken at random."""
    if kind == "generated":
        return generate(folder, 300, seed)[0]
    rules, _ = generate(folder, 250, 100 + seed)
    cards = folder / "starter.cards.yaml"
    # Odd seeds never break a Kingdom's colours: a word there stops the card rules with
    # an internal error, after which nothing more is checked.
    skip = ("colours",) if seed % 2 else ()
    cards.write_text(broken(cards.read_text(encoding="utf-8"), seed, skip), "utf-8")
    return rules


CARD_SETS = [("generated", 1), ("broken", 1)]  # an even seed breaks a Kingdom's colours too
SOAK_CARD_SETS = [("generated", 2), *(("broken", seed) for seed in (0, 2, 3, 4, 5))]


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda path: path.stem)
def test_the_rulebooks(rules: Path) -> None:
    assert assert_same_both_ways(rules.relative_to(ROOT)).ok


# every third fixture in the default tier, the others in the soak tier
@pytest.mark.parametrize("fixtures", [FIXTURES[::3], *soak([FIXTURES[1::3] + FIXTURES[2::3]])],
                         ids=["a third", "the rest"])
def test_the_diagnostic_fixtures(monkeypatch: pytest.MonkeyPatch, fixtures: list[Path]) -> None:
    monkeypatch.chdir(ROOT)
    for rules in fixtures:
        assert_same_both_ways(rules.relative_to(ROOT))


@pytest.mark.parametrize(("kind", "seed"), [*CARD_SETS, *soak(SOAK_CARD_SETS)],
                         ids=[f"{k}{s}" for k, s in CARD_SETS + SOAK_CARD_SETS])
def test_generated_card_sets(card_sets: Callable[[str, int], Path], kind: str, seed: int
                             ) -> None:
    compilation = assert_same_both_ways(card_sets(kind, seed))
    codes = {d.code for d in compilation.diagnostics.items}
    if kind == "generated":
        assert compilation.ok
    else:
        assert {"E0101", "E0104", "E0201"} <= codes  # the breakage is seen at all


DATA_RULES = """
game g {
  title "G"
  players 2
  option bonus: int = 2 "a bonus"
  option named: Colour = red "a colour"
  option maybe: int? = none "perhaps a number"
  option boost: int = 9 "named like an effect field"
}

enum Colour { red, blue }
enum Shade { red, dark }
keyword trample "Tramples."

record Tag { label: text }

card Chip {
  colour: Colour
  cost: int = 0
  shade: Shade? = none
  tags: list of Tag = []
  words: list of keyword = []
  label: text = ""
  grid: list of list of int = []
  kind: Colour = blue
  effect: effect(you: player) reaches pile = {}
  boost: effect(you: player) = {}
  count: int per card = 0
  require cost <= bonus + 3 else "too dear"
  require colour != blue or cost > 0 else "blue costs"
  require size(words) < 2 or cost == bonus else "too many words"
  require cost <= count else "not constant"
}

data Tag {
  first { label: hello }
  second { label: "two words" }
}

data Chip {
  a { colour: red, cost: 1 + 2 }
  b { colour: blue, cost: bonus }
  c { colour: named, cost: -3, shade: red }
  d { colour: dark, cost: cost }
  e { colour: red, cost: round }
  f { colour: red, cost: pile }
  g { colour: red, cost: A, tags: [first, second, third] }
  h { colour: blue, words: [trample, red], label: big }
  i { colour: red, grid: [[1, 2], [3], [red]], cost: size([1, 2]) }
  j { colour: red, cost: 9 / 0, kind: Shade }
  k { colour: red, effect: { draw_one(you) } }
  l { colour: red, cost: { draw_one(you) } }
  m { colour: red, cost: first, label: first }
  n { colour: red, cost: bonus > 1, shade: none, tags: [] }
  o { colour: blue, cost: draw_one, words: [trample, trample] }
  p { colour: red, cost: Chip, count: 3 }
  q { colour: red, cost: if_then, label: "x" }
  r { colour: red, cost: 1, cost: 2 }
  s { colour: red, nothing: 1 }
  t { cost: 4 }
  u { colour: [red], cost: [1], words: trample }
  v { colour: red, grid: [[maybe, 1], [1, maybe]] }
  w { colour: red, cost: boost, boost: { draw_one(you) } }
  x { colour: blue, boost: { call side } }
  a { colour: red }
}

zone pile: Chip ordered

state { round: int = 1 }

procedure draw_one(p: player) { @S1 round += 1 }

seed "seed.md" {
  S1 "Rule one"
}

setup {
  for c in Chip { create c into pile }
  goto play
}

phase play {
  actor A
  action take() says "{actor} takes" {
    let c = first(pile)
    if c != none { c.effect(actor) move c to pile }
    win A
  }
}

## entered only by the call in card x's effect
phase side {
  on enter { return }
}
"""


def test_a_data_block_of_every_kind_of_value(tmp_path: Path) -> None:
    rules = tmp_path / "data.rules"
    rules.write_text(DATA_RULES, encoding="utf-8")
    compilation = assert_same_both_ways(rules)
    assert compilation.model is not None
    assert len(compilation.diagnostics.items) > 15
    # the card's `call side` is what lets phase side return
    assert not [d for d in compilation.diagnostics.items if "no 'call' leads" in d.message]


# ---- the reach pass's walk, directly


def generic_every_node(model: GameModel) -> list[n.Node]:
    """Every node of every module, by the generic children(), each effect text that cards
    share walked once."""
    found: list[n.Node] = []
    shared: set[int] = set()
    for module in model.modules:
        stack: list[n.Node] = [module]
        while stack:
            node = stack.pop()
            if isinstance(node, n.EffectLit):
                if id(node.body) in shared:
                    continue
                shared.add(id(node.body))
            found.append(node)
            stack.extend(reversed(n.children(node)))
    return found


def test_one_walk_finds_what_every_node_has(
    card_sets: Callable[[str, int], Path], tmp_path: Path
) -> None:
    one_walk_finds_what_every_node_has(card_sets, tmp_path, CARD_SETS)


@pytest.mark.soak
def test_one_walk_finds_what_every_node_has_soak(
    card_sets: Callable[[str, int], Path], tmp_path: Path
) -> None:
    one_walk_finds_what_every_node_has(card_sets, tmp_path, SOAK_CARD_SETS)


def one_walk_finds_what_every_node_has(
    card_sets: Callable[[str, int], Path], tmp_path: Path, which: list[tuple[str, int]]
) -> None:
    """The real rulebooks, generated card sets (those that leave a model) and the data."""
    data = tmp_path / "data.rules"
    data.write_text(DATA_RULES, encoding="utf-8")
    paths = [rules.relative_to(ROOT) for rules in RULEBOOKS]
    paths += [card_sets(kind, seed) for kind, seed in which] + [data]
    compared = 0
    for rules in paths:
        model = compiled(rules).model
        if model is None:
            continue  # an internal error stopped the checks (see card_set)
        compared += 1
        finder = reach_pass.UseFinder(model)
        assert finder.run() == general_uses(model)
        expected = general_uses(model).annotations
        assert [id(a) for a in finder.uses.annotations] == [id(a) for a in expected]
        assert finder.effects or rules.stem != "rulers_gambit"  # the cards' texts
        for body, effects in finder.effects.values():
            assert effects == reach_pass.direct_effects(model, body)
        for record in model.records.values():
            known = reach_pass.known_effect_bodies(record)
            expected_bodies = general_effect_bodies(record)
            assert {name: [id(body) for body in bodies] for name, bodies in known.items()} \
                == {name: [id(body) for body in bodies]
                    for name, bodies in expected_bodies.items()}
    # every rulebook, the data, and the sets whose Kingdoms keep their colours
    assert compared >= len(RULEBOOKS) + 1 + sum(kind == "generated" or seed % 2
                                                for kind, seed in which)


def test_the_walks_pushers_give_the_children_in_order(
    card_sets: Callable[[str, int], Path], tmp_path: Path
) -> None:
    """UseFinder puts each node's children on its stack as reversed(n.children(node)) would,
    for every node of the rulebooks, the data and a card set (nodes of each class it has)."""
    data = tmp_path / "data.rules"
    data.write_text(DATA_RULES, encoding="utf-8")
    paths = [*(rules.relative_to(ROOT) for rules in RULEBOOKS), data, card_sets("generated", 1)]
    classes: set[type] = set()
    for rules in paths:
        model = compiled(rules).model
        assert model is not None
        for node in generic_every_node(model):
            push = reach_pass._role(type(node))[2]
            stack: list[n.Node] = []
            if push is not None:
                push(stack, node)
            assert [id(x) for x in stack] == [id(x) for x in reversed(n.children(node))], node
            classes.add(type(node))
    # the classes of the specialised pushers are among them
    assert {n.Block, n.Call, n.CallStmt, n.BinaryOp, n.Index, n.Assign} <= classes


@pytest.mark.parametrize("game", ["rulers_gambit", "dynasty_tcg"])
def test_calls_share_symbols_equal_to_their_own(game: str) -> None:
    """The checker gives every call of one function, procedure or builtin one symbol (a frozen
    value): each is what the call would have been given alone."""
    model = check_rulebook(ROOT / "rulebooks" / game / f"{game}.rules").model
    assert model is not None
    calls = [node for module in model.modules for node in n.walk(module)
             if isinstance(node, n.Call)]
    for record in model.records.values():
        for body in record.effect_texts.values():
            calls += [node for text in body.values() for node in n.walk(text)
                      if isinstance(node, n.Call)]
    kinds: set[str] = set()
    for call in calls:
        symbol = model.symbols.calls.get(id(call))
        if symbol is None:
            continue
        if isinstance(symbol, sym.Procedure):
            assert symbol == sym.Procedure(call.func, model.procedures[call.func].span)
        elif isinstance(symbol, sym.Function):
            assert symbol == sym.Function(call.func, model.functions[call.func].span)
        elif isinstance(symbol, sym.Builtin):
            assert symbol == sym.Builtin(call.func)
        kinds.add(type(symbol).__name__)
    assert {"Procedure", "Builtin"} <= kinds
