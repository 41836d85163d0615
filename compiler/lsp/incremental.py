"""Parsing a rules file declaration by declaration, keeping the parse of each declaration
whose text and place did not change: a keystroke parses again only the declaration it is in.

A file is cut before each top-level declaration (with the comments, doc comments and
annotations just above it). Each piece is parsed on its own, after as many empty lines as come
before it in the file, so that its spans and `##` docs are those of a parse of the whole file.
Whenever a piece does not parse cleanly, or the file cannot be cut, the whole file is parsed as
`rulecraft check` parses it: the diagnostics are always the CLI's.

EditorSources is what the language server gives the driver (compiler.driver.Sources): the
editor's unsaved texts, this parse, and the card sets and decks read before, kept while their
text is the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from compiler.driver import Sources
from compiler.fmt import _DECLARATION_WORDS, _OPEN_ENDS, _TOKEN
from dsl import nodes as n
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.parser import _build, decode_source, parse
from dsl.source import SourceFile, Span, resolved

T = TypeVar("T")

# The code tokens of each line seen (None: a line the tokenizer cannot read). A keystroke
# changes one line, so cutting a file again tokenizes one line, not thousands.
_LINE_TOKENS: dict[str, list[str] | None] = {}
_LINE_TOKENS_KEPT = 50_000


def line_tokens(line: str) -> list[str] | None:
    if line in _LINE_TOKENS:
        return _LINE_TOKENS[line]
    tokens: list[str] = []
    position = 0
    readable = True
    while position < len(line):
        match = _TOKEN.match(line, position)
        if match is None:
            readable = False
            break
        position = match.end()
        if match.lastgroup not in ("space", "comment"):
            tokens.append(match.group())
    if len(_LINE_TOKENS) >= _LINE_TOKENS_KEPT:
        _LINE_TOKENS.clear()
    _LINE_TOKENS[line] = tokens if readable else None
    return _LINE_TOKENS[line]


def pieces(text: str) -> list[tuple[int, str]] | None:
    """(index of the first line, text) of each top-level declaration with its lead-in."""
    lines = text.split("\n")
    starts: list[int] = []
    depth = 0
    last = ""  # the last code token so far
    lead_in: int | None = None  # the first line of comments/annotations right above
    for number, line in enumerate(lines):
        tokens = line_tokens(line)
        if tokens is None:
            return None
        first = tokens[0] if tokens else ""
        stripped = line.strip()
        if depth == 0 and (first in _DECLARATION_WORDS or first.startswith("@")) \
                and last not in _OPEN_ENDS and (len(tokens) < 2 or tokens[1] != ":"):
            start = lead_in if lead_in is not None else number
            if not starts or start > starts[-1]:
                starts.append(start)
        if stripped.startswith("#") or (first.startswith("@") and len(tokens) == len(
                [t for t in tokens if t.startswith("@")])):
            if lead_in is None:
                lead_in = number
        else:
            lead_in = None
        for token in tokens:
            if token in ("{", "(", "["):
                depth += 1
            elif token in ("}", ")", "]"):
                depth -= 1
            last = token
    if not starts:
        return None
    starts[0] = 0
    bounds = [*starts, len(lines)]
    return [(a, "\n".join(lines[a:b])) for a, b in zip(bounds, bounds[1:], strict=False)]


class IncrementalParser:
    """The parse of each piece of one file, kept from one call to the next."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, int, str], tuple[n.Decl, ...]] = {}

    def parse(self, source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
        cut = pieces(source.text) if source.text.strip() else None
        if cut is None:
            return parse(source, diagnostics)
        kept: dict[tuple[str, int, str], tuple[n.Decl, ...]] = {}
        declarations: list[n.Decl] = []
        for first_line, text in cut:
            key = (source.name, first_line, text)
            found = self.kept.get(key)
            if found is None:
                local = Diagnostics()
                module = _build(SourceFile(source.name, "\n" * first_line + text), "start",
                                (0, 0), local)
                if not isinstance(module, n.Module) or local.items:
                    return parse(source, diagnostics)
                found = module.declarations
            kept[key] = found
            declarations.extend(found)
        if not declarations:
            return parse(source, diagnostics)
        self.kept = kept
        whole = parse_span(source, declarations)
        return n.Module(tuple(declarations), span=whole)


def parse_span(source: SourceFile, declarations: list[n.Decl]) -> Span:
    """The span a parse of the whole file gives its module: from the first declaration's
    first token (its annotations') to the last one's end."""
    first, last = declarations[0], declarations[-1]
    start = first.annotations[0].span if first.annotations else first.span
    return Span(source.name, start.line, start.column, last.span.end_line, last.span.end_column)


class EditorSources(Sources):
    """The driver's files as the editor has them: an open file's text from `texts` (by
    resolved path), else the disk's; rules files parsed declaration by declaration; card sets
    and decks read again only when their text (or the card types' effect fields) changed, with
    the diagnostics they gave then."""

    def __init__(self) -> None:
        self.texts: dict[Path, str] = {}
        self.parsers: dict[str, IncrementalParser] = {}
        # By file name: the key it was read with, and what reading it gave.
        self.card_sets: dict[str, tuple[object, n.Module | None, list[Diagnostic]]] = {}
        self.decks: dict[str, tuple[object, n.DeckList | None, list[Diagnostic]]] = {}

    def read(self, path: Path, name: str, diagnostics: Diagnostics) -> SourceFile | None:
        text = self.texts.get(resolved(path))
        if text is None:
            return super().read(path, name, diagnostics)
        return decode_source(text.encode("utf-8", "replace"), name, diagnostics)

    def parse(self, source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
        parser = self.parsers.setdefault(source.name, IncrementalParser())
        return parser.parse(source, diagnostics)

    def card_set(self, source: SourceFile, effect_fields: dict[str, set[str]],
                 diagnostics: Diagnostics) -> n.Module | None:
        key = (source.text, sorted((k, sorted(v)) for k, v in effect_fields.items()))
        return _kept(self.card_sets, source.name, key, diagnostics,
                     lambda local: super(EditorSources, self).card_set(source, effect_fields,
                                                                       local))

    def deck(self, source: SourceFile, name: str, diagnostics: Diagnostics) -> n.DeckList | None:
        return _kept(self.decks, source.name, (source.text, name), diagnostics,
                     lambda local: super(EditorSources, self).deck(source, name, local))


def _kept(cache: dict[str, tuple[object, T, list[Diagnostic]]], name: str, key: object,
          diagnostics: Diagnostics, read: Callable[[Diagnostics], T]) -> T:
    """What reading a file gave the last time, while its key (text and what the reading
    depends on) is the same; its diagnostics are added to `diagnostics` either way."""
    kept = cache.get(name)
    if kept is None or kept[0] != key:
        local = Diagnostics()
        kept = key, read(local), local.items
        cache[name] = kept
    diagnostics.extend(kept[2])
    return kept[1]

def keywords_at(text: str, line: int, column: int) -> frozenset[str] | None:
    """The words of the grammar that may be written at a position (1-based), as the parser
    reads the declaration around it up to there, the word being typed left out; None when that
    text does not read as the start of a declaration (then any word may be wanted)."""
    from lark.exceptions import LarkError

    from dsl.keyword_lexer import _WORD, lark_parser, shifts

    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    before = lines[line - 1][:column - 1]
    before = re.sub(r"\w*$", "", before)
    cut = pieces(text) or [(0, text)]
    start = max((first for first, _ in cut if first < line), default=0)
    prefix = "\n".join([*lines[start:line - 1], before])
    parser = lark_parser()
    words = {t.name: t.pattern.value for t in parser.terminals
             if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value)}
    interactive = parser.parse_interactive(prefix, start="start")
    try:
        for _ in interactive.iter_parse():
            pass
    except LarkError:
        return None
    state = interactive.parser_state
    table, stack = state.parse_conf.states, state.state_stack
    return frozenset(word for name, word in words.items() if shifts(table, stack, name))
