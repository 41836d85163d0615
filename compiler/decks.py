"""Pass 4 — decks: the shipped deck files against the card sets and the deck rules.

Card names are resolved here, in the main deck (`cards:`) and the side deck (`side:`) alike,
with did-you-mean, and each entry's card is recorded as its symbol. The deck rules themselves
are run through the code they compile to (`deck_problems` in the generated module, whose
first is what `new_game(decks=...)` refuses), so `rulecraft check` and `new_game` can never
disagree about what a legal deck is. Each broken rule is reported, at the card it is about.
"""

from __future__ import annotations

from types import ModuleType

from compiler import symbols as sym
from compiler.model import GameModel
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, did_you_mean
from dsl.runtime_base import rule_at
from dsl.source import Span

# the codes of a card set that is not read, or not whole: a character, its bytes, its size, its
# nesting, its YAML or shape, its card type
_UNREAD_CARD_SET = frozenset({"E0003", "E0004", "E0005", "E0006", "E0403", "E0103"})


def check_decks(model: GameModel, diagnostics: Diagnostics) -> None:
    if not model.decks:
        return
    rules = model.deck_rules
    if rules is None:
        first = model.decks[0]
        diagnostics.add("E0404", first.span, "deck files are given but the rulebook has no "
                        "deck rules", hint="declare them: deck CardType { require ... }")
        return
    record = model.records[rules.card_type]
    index = _definition_index(model, record.name)
    names = record.entry_names()
    position = {name: i for i, name in enumerate(names)}
    resolved: list[tuple[n.DeckList, list[int], list[int]]] = []
    # a card set that is not read may have lost any card: its errors are the cause to report,
    # not every deck line that names a card it would have given (said once per deck, below);
    # a name close to a known card is still misspelt
    broken_sets = sorted({d.span.file for d in diagnostics.items
                          if d.code in _UNREAD_CARD_SET and d.span.file.endswith(".cards.yaml")})
    for deck in model.decks:
        known = True
        missing: list[n.DeckEntry] = []
        lists: list[list[int]] = []
        for entries in (deck.entries, deck.side):
            cards: list[int] = []
            lists.append(cards)
            for entry in entries:
                if entry.card not in names and entry.card in record.rejected_entries:
                    known = False
                    diagnostics.add(
                        "W0401", entry.span, f"deck '{deck.name}' lists card '{entry.card}', "
                        "which exists but has errors (reported in its card set)",
                        hint="fix the card; the deck is checked against the deck rules once it "
                        "compiles")
                    continue
                if entry.card not in names:
                    known = False
                    close = did_you_mean(entry.card, names)
                    if broken_sets and close is None:  # not a misspelt name: said per deck
                        missing.append(entry)
                        continue
                    diagnostics.add(
                        "E0404", entry.span,
                        f"deck '{deck.name}' names unknown card '{entry.card}'",
                        hint=close or f"no {record.name} has that name",
                    )
                    continue
                cards += [index[entry.card]] * entry.count
                card = record.entries[position[entry.card]]
                model.symbols.deck_cards[id(entry)] = sym.Card(
                    record.name, card.name, position[entry.card], card.span)
        if missing:
            shown = ", ".join(f"'{entry.card}'" for entry in missing[:4])
            more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
            diagnostics.add(
                "W0401", missing[0].span,
                f"deck '{deck.name}' names {shown}{more}, which no card set gives while "
                f"{', '.join(broken_sets)} has errors",
                hint="fix the card set first; the deck is checked once it loads")
        if known:
            resolved.append((deck, lists[0], lists[1]))
    if diagnostics.has_errors or not resolved:
        return  # a model with errors has no code to run the rules with
    # the generator, only when there are decks to check: `rulecraft check` starts without it
    from compiler.pygen_decks import load_deck_checker

    checker = load_deck_checker(model)
    side_lines = {node.span.line for node in n.walk(rules.body)
                  if isinstance(node, n.Require) and _names(node.cond) & {"side", "cards"}
                  == {"side"}}
    try:
        for deck, cards, side in resolved:
            try:
                broken = checker.deck_problems(cards, side)
            except Exception as error:  # an error of the rules, shown at the deck it fails on
                line = _failing_line(error, checker)
                diagnostics.add(
                    "E0410", deck.span,
                    f"deck '{deck.title}' cannot be checked: the deck rules fail on it "
                    f"({' '.join(str(error).split()) or type(error).__name__})",
                    hint="make the rule hold for any deck, e.g. divide only when the "
                    "divisor is not 0 (`if size(side) > 0 { ... }`)",
                    notes=[f"the rule that fails is at {rules.span.file}:{line}"] if line else [])
                continue
            for message, line, card in broken:
                diagnostics.add(
                    "E0405", _broken_at(deck, card, line in side_lines, index),
                    f"deck '{deck.title}' breaks a deck rule: {message}",
                    notes=[f"the rule is at {rules.span.file}:{line}"],
                )
    finally:
        # its tables refer to its namespace (LazyColumn): without the cycle, reference
        # counting frees it, and the model its tables read, with the rest
        vars(checker).clear()


def _broken_at(deck: n.DeckList, card: int, about_side: bool, index: dict[str, int]) -> Span:
    """Where a broken rule is reported: at the line of the card it is about, else at the
    `side:` key for a rule about the side deck alone, else at the deck's name."""
    if card >= 0:
        lists = (deck.side, deck.entries) if about_side else (deck.entries, deck.side)
        for entries in lists:
            for entry in entries:
                if index.get(entry.card) == card:
                    return entry.span
    if about_side and deck.side_span is not None:
        return deck.side_span
    return deck.span


def _failing_line(error: BaseException, checker: ModuleType) -> int | None:
    """The rulebook line of the deck rule that raised: the generated code above the failing
    line says which rulebook line it is the code of (as for a rule that fails in play)."""
    found = rule_at(error, checker.__dict__)
    return found[1] if found else None


def _names(expr: n.Expr) -> set[str]:
    return {node.id for node in n.walk(expr) if isinstance(node, n.Name)}


def _definition_index(model: GameModel, card_type: str) -> dict[str, int]:
    """Names of card_type's definitions → their numbers, as the generated module numbers
    definitions: card types in declaration order, entries in order."""
    offset = 0
    for record in model.records.values():
        if record.name == card_type:
            return {entry.name: offset + i for i, entry in enumerate(record.entries)}
        if record.is_card:
            offset += len(record.entries)
    return {}
