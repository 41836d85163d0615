"""The deck rules compiled to Python, and the deck checker `rulecraft check` runs on deck
files: deck_problem and the tables it reads, made by the layers of the generator below the
rules and actions (compiler.pygen_texts and down), so a check with decks does not load the
rest of the code generator (a sixth of the modules a check would compile from source)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import overload

from compiler import types as t
from compiler.model import GameModel
from compiler.pygen_base import Bindings, run_in_memory
from compiler.pygen_texts import TextGenerator
from dsl import nodes as n


class DeckRuleGenerator(TextGenerator):
    """deck_problem: the deck rules (compiler.pygen_rules.RuleGenerator writes them into the
    full module through this class)."""

    def deck_rules(self) -> None:
        """deck_problems(cards, side): every deck rule that the lists of definitions (the main
        deck and the side deck) break, each with its line and the card it is about; and
        deck_problem(cards, side), the first of them, which new_game refuses a deck for."""
        deck = self.model.deck_rules
        if deck is None:
            return
        self.bindings = Bindings()
        self.about: list[str] = []
        with self.function("def deck_problems(cards: list[int], side: list[int]) "
                           "-> list[tuple[str, int, int]]:",
                           deck.span, "Every deck-construction rule broken, each once: its "
                           "message, its line, and the card it is about (the innermost `for` "
                           "over cards), or -1."):
            self.w.line("problems: list[tuple[str, int, int]] = []")
            with self.w.block("try:"), self.bindings.frame():
                self.bindings.frames[-1]["cards"] = "cards"
                self.bindings.frames[-1]["side"] = "side"
                self.deck_types = {"cards": t.ListT(t.DefT(deck.card_type)),
                                   "side": t.ListT(t.DefT(deck.card_type))}
                self.deck_statements(deck.body.statements)
            with self.w.block("except Exception:"):
                self.w.line("# a rule after a broken one may need it to hold (a division by "
                            "the size it")
                self.w.line("# checks): what fails then ends the list; what fails on a deck "
                            "that breaks")
                self.w.line("# no rule is an error of the rules")
                with self.w.block("if not problems:"):
                    self.w.line("raise")
            self.w.line("return list(dict.fromkeys(problems))")
        with self.function("def deck_problem(cards: list[int], side: list[int]) "
                           "-> tuple[str, int] | None:",
                           deck.span, "The first deck-construction rule broken, if any."):
            self.w.line("problems = deck_problems(cards, side)")
            self.w.line("return (problems[0][0], problems[0][1]) if problems else None")

    def deck_statements(self, statements: tuple[n.Stmt, ...]) -> None:
        w = self.w
        m = self.model
        for stmt in statements:
            w.source(stmt.span)
            if isinstance(stmt, n.Require):
                parts = {name: self.display(self.deck_types[name], var)
                         for name, var in self.visible_bindings().items()
                         if name in self.deck_types}
                about = self.about[-1] if self.about else "-1"
                with w.block(f"if {self.negated(stmt.cond, test=True)}:"):
                    w.line(f"problems.append(({self.template(stmt.message, parts)}, "
                           f"{stmt.span.line}, {about}))")
            elif isinstance(stmt, n.Let):
                value = self.expr(stmt.value)
                self.deck_types[stmt.name] = m.type_of(stmt.value)
                w.line(f"{self.bindings.bind(stmt.name)} = {value}")
            elif isinstance(stmt, n.For):
                collection = self.collection(stmt.domain)
                with self.bindings.frame():
                    var = self.bindings.bind(stmt.var)
                    element = t.element_type(m.type_of(stmt.domain)) or t.ANY
                    self.deck_types[stmt.var] = element
                    card = isinstance(element, t.DefT)
                    if card:
                        self.about.append(var)
                    with w.block(f"for {var} in {collection}:"):
                        if stmt.where is not None:
                            with w.block(f"if {self.negated(stmt.where, test=True)}:"):
                                w.line("continue")
                        self.deck_statements(stmt.body.statements)
                    if card:
                        self.about.pop()
            elif isinstance(stmt, n.If):
                for i, (cond, body) in enumerate(stmt.branches):
                    header = f"{'if' if i == 0 else 'elif'} {self.expr(cond)}:"
                    with w.block(header), self.bindings.frame():
                        w.line("pass")
                        self.deck_statements(body.statements)
                if stmt.otherwise is not None:
                    with w.block("else:"), self.bindings.frame():
                        w.line("pass")
                        self.deck_statements(stmt.otherwise.statements)

    def visible_bindings(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for frame in self.bindings.frames:
            found.update(frame)
        return found


TABLE_NAME = re.compile(r"\b[A-Z][A-Z0-9_]*\b")  # how generated tables are named


def generate_deck_checker(
    model: GameModel, columns: dict[str, Callable[[int], str]] | None = None
) -> str:
    """Just deck_problem and the tables it reads: what `rulecraft check` runs on deck files,
    the same code as in the full module without compiling every rule, nor a card table (one
    value per card) that the deck rules do not read. With `columns`, the card tables it reads
    are read from COLUMNS (see load_deck_checker), and `columns` gets their values' sources."""
    rules = DeckRuleGenerator(model)
    rules.deck_rules()
    generator = DeckRuleGenerator(model)
    generator.only_tables = frozenset(TABLE_NAME.findall(rules.w.text()))
    generator.lazy_columns = columns
    generator.w.line("from typing import Final")
    generator.tables()
    generator.deck_rules()
    generator.area_tables()
    generator.lazy_columns = None  # the columns' functions refer to the generator: no cycle
    return generator.w.text()


def load_deck_checker(model: GameModel) -> ModuleType:
    """The deck checker loaded in memory, its card tables made one value at a time, when read:
    a deck reads a few of the thousands of cards a set may have."""
    sources: dict[str, Callable[[int], str]] = {}
    source = generate_deck_checker(model, sources)
    module = ModuleType(f"rulecraft_games.{model.name}_decks")
    module.__file__ = model.source_file
    namespace = module.__dict__
    count = sum(len(r.entries) for r in model.records.values() if r.is_card)
    namespace["COLUMNS"] = {name: LazyColumn(count, value, namespace)
                            for name, value in sources.items()}
    # its lines give the rulebook line of a rule that fails on a deck (compiler.decks)
    run_in_memory(module, source, f"<{model.name} deck rules from {model.source_file}>")
    return module


class LazyColumn(Sequence[object]):
    """A card table, a tuple of one value per definition, whose values are worked out when
    first read: each value's source evaluated in the module, as the tuple's items are."""

    def __init__(self, count: int, source: Callable[[int], str],
                 namespace: dict[str, object]) -> None:
        self.numbers = range(count)
        self.source = source
        self.namespace = namespace
        self.values: dict[int, object] = {}

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> object: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[object, ...]: ...

    def __getitem__(self, index: int | slice) -> object:
        if isinstance(index, slice):
            return tuple(self[d] for d in self.numbers[index])
        d = self.numbers[index]  # a tuple's negative numbers, and its IndexError
        if d not in self.values:
            text = self.source(d)
            self.values[d] = int(text) if text.isdigit() else eval(  # noqa: S307
                text, self.namespace)  # a constant written by the generator, as in the tuple
        return self.values[d]
