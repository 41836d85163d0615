"""What a name in the rules refers to: its symbol, type, declaration and `##` doc.

Typecheck records a symbol for every name, field, call, effect call and aggregate it resolves
(compiler/symbols.py); this module lists those uses with the place each is written, finds the one
at a position, and says what it refers to. `rulecraft explain-symbol FILE:LINE:COL` prints it;
"go to definition", "find references" and "hover" in an editor need nothing more.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.build import find_rulebooks
from compiler.check_builtins import BUILTINS
from compiler.driver import check_rulebook
from compiler.model import GameModel
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, render
from dsl.source import Span, resolved

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
BUILT_IN = "built into the language"


@dataclass(frozen=True)
class Use:
    """A place where the rules name a symbol: the span is the name as written (`score` of
    `p.score`, `size` of `size(hand)`)."""

    span: Span
    node: n.Node
    symbol: sym.Symbol


@dataclass(frozen=True)
class Explanation:
    name: str
    kind: str
    type: str
    declared: Span | None  # None: built into the language
    doc: str

    def text(self) -> str:
        return "".join(f"{key}: {value}\n" for key, value in (
            ("symbol", self.name),
            ("kind", self.kind),
            ("type", self.type),
            ("declared", self.declared if self.declared is not None else BUILT_IN),
            ("doc", self.doc or "(none)"),
        ))


def rule_nodes(model: GameModel) -> list[n.Node]:
    """Every node of the model once: the modules', the values of the entries (which resolve
    makes from the card sets' words) and the deck files'; an effect text that cards share,
    once."""
    seen: set[int] = set()
    found: list[n.Node] = []
    roots: list[n.Node] = [*model.modules, *model.decks]
    for record in model.records.values():
        for entry in record.entries:
            roots.extend(entry.values.values())
    stack = roots[::-1]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        found.append(node)
        stack.extend(reversed(n.children(node)))
    return found


def uses(model: GameModel) -> list[Use]:
    """Every use of a symbol in the model, in the order of the nodes."""
    symbols = model.symbols
    found: list[Use] = []
    for node in rule_nodes(model):
        symbol = symbols.of(node)
        if symbol is None or isinstance(node, n.Index):
            continue  # an index's zone, field or list is named by its own node
        found.append(Use(written(node), node, symbol))
    return found


def written(node: n.Node) -> Span:
    """Where the name of a use is written."""
    match node:
        case n.Attribute():
            return node.name_span
        case n.Call() | n.Aggregate():
            return node.func_span
        case n.EffectCall():
            return node.field_span
        case _:
            return node.span


def declaration(symbol: sym.Symbol) -> Span | None:
    """Where the symbol is declared; None for what the language itself declares."""
    match symbol:
        case (sym.Builtin() | sym.Aggregator() | sym.NameOf() | sym.CardOwner()
              | sym.PerPlayerIndex() | sym.ListIndex()):
            return None
        case _:
            return symbol.span


def references(model: GameModel, symbol: sym.Symbol) -> list[Span]:
    """Where the rules name the symbol (symbols are compared by value)."""
    return [use.span for use in uses(model) if use.symbol == symbol]


def _contains(span: Span, line: int, column: int) -> bool:
    if (line, column) < (span.line, span.column):
        return False
    return (line, column) < (span.end_line, span.end_column)


def symbol_at(model: GameModel, file: Path, line: int, column: int) -> Use | None:
    """The use written at a position of a file (the innermost, if several hold it)."""
    target = resolved(file)
    same_file: dict[str, bool] = {}
    best: Use | None = None
    for use in uses(model):
        span = use.span
        if span.file not in same_file:
            same_file[span.file] = resolved(Path(span.file)) == target
        if not same_file[span.file] or not _contains(span, line, column):
            continue
        if best is None or (span.line, span.column) >= (best.span.line, best.span.column):
            best = use
    return best


def _signature(name: str, params: list[tuple[str, object]], returns: object | None) -> str:
    text = f"{name}(" + ", ".join(f"{p}: {ty}" for p, ty in params) + ")"
    return text if returns is None else f"{text} -> {returns}"


def explain(model: GameModel, use: Use) -> Explanation:
    """What a use refers to, for a reader."""
    symbol = use.symbol
    used_as = model.types.get(id(use.node))
    type_ = str(used_as) if used_as is not None else "?"
    declared = declaration(symbol)
    doc = model.doc_above(declared) if declared is not None else ""
    kind = symbol.KIND
    match symbol:
        case (sym.Local() | sym.Parameter() | sym.OwnField() | sym.GameField() | sym.Zone()
              | sym.Domain() | sym.PlayerField() | sym.NodeField() | sym.RecordField()
              | sym.CardField() | sym.DefField()):
            name = symbol.name
        case sym.Option():
            name = symbol.name
            doc = doc or model.options[symbol.name].description
        case sym.Player() | sym.BoardNode():
            name, doc = symbol.name, ""  # declared by the game header or the board, no doc
        case sym.EnumMember():
            name = symbol.name
            keyword = model.keywords.get(symbol.name) if symbol.enum == "keyword" else None
            if keyword is not None:
                kind, doc = "keyword", keyword.doc or keyword.text
        case sym.Card():
            name, type_ = symbol.name, str(t.DefT(symbol.card_type))
            doc = doc or model.records[symbol.card_type].entries[symbol.index].description
        case sym.RecordEntry():
            name, type_ = symbol.name, str(t.RecordT(symbol.record))
            doc = doc or model.records[symbol.record].entries[symbol.index].description
        case sym.Function():
            info = model.functions[symbol.name]
            name, type_ = symbol.name, _signature(info.name, list(info.params), info.returns)
        case sym.Procedure():
            info = model.procedures[symbol.name]
            name, type_ = symbol.name, _signature(info.name, list(info.params), None)
        case sym.Effect():
            name = symbol.name
            type_ = str(model.records[symbol.card_type].fields[symbol.name].type)
        case sym.Builtin():
            name, type_ = symbol.name, BUILTINS[symbol.name]
        case sym.Aggregator():
            name = symbol.name
        case sym.NameOf() | sym.CardOwner():
            name = symbol.name
        case sym.ZoneSlot():
            name = symbol.zone
        case sym.PerPlayerIndex() | sym.ListIndex():
            name = "[]"
        case _:
            assert_never(symbol)
    return Explanation(name, kind, type_, declared, doc)


def parse_location(text: str) -> tuple[Path, int, int] | None:
    """FILE:LINE:COL (1-based), or None when it is not one."""
    parts = text.rsplit(":", 2)
    if len(parts) != 3 or not parts[0] or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    line, column = int(parts[1]), int(parts[2])
    if line < 1 or column < 1:
        return None
    return Path(parts[0]), line, column


def explain_symbol(location: str, out: TextIO, err: TextIO) -> int:
    """`rulecraft explain-symbol FILE:LINE:COL`: what the name written there refers to, in the
    rulebook of FILE (a rulebook, or a card set checked with the rulebook of its folder)."""
    parsed = parse_location(location)
    if parsed is None:
        print(f"'{location}' is not FILE:LINE:COL (line and column from 1)", file=err)
        return EXIT_USAGE
    file, line, column = parsed
    diagnostics = Diagnostics()
    rulebooks = find_rulebooks([file], diagnostics)
    if diagnostics.items:
        print(render(diagnostics.sorted(), {}, "text"), file=err)
        return EXIT_FAIL
    for rules in rulebooks:
        compilation = check_rulebook(rules)
        if compilation.model is None:
            print(render(compilation.diagnostics.sorted(), compilation.sources, "text"),
                  file=err)
            return EXIT_FAIL
        use = symbol_at(compilation.model, file, line, column)
        if use is not None:
            print(explain(compilation.model, use).text(), end="", file=out)
            return EXIT_OK
    print(f"{location}: no name the rules resolved is written here", file=err)
    return EXIT_FAIL


def command(args: argparse.Namespace) -> int:
    """The CLI's `explain-symbol` subcommand."""
    return explain_symbol(args.location, sys.stdout, sys.stderr)
