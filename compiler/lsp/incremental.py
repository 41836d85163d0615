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
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from compiler.driver import Sources
from compiler.fmt import _DECLARATION_WORDS, _OPEN_ENDS, _TOKEN
from compiler.model import GameModel
from compiler.resolve_boards import MAX_MAP_BYTES, data_file
from dsl import nodes as n
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.nesting import nesting_ok
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


_EARLIER_KEPT = 4096  # a few whole files: an edit that adds a line moves every piece below


class IncrementalParser:
    """The parse of each piece of one file, kept from one call to the next."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, int, str], tuple[n.Decl, ...]] = {}
        # Pieces of earlier texts, no longer in the file: undoing an edit (or typing back what
        # was deleted) finds the parse, the very objects, that EditorSources' checks were of.
        self.earlier: dict[tuple[str, int, str], tuple[n.Decl, ...]] = {}

    def parse(self, source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
        cut = pieces(source.text) if source.text.strip() else None
        if cut is None:
            return parse(source, diagnostics)
        kept: dict[tuple[str, int, str], tuple[n.Decl, ...]] = {}
        declarations: list[n.Decl] = []
        before = {(name, line): found for (name, line, _), found in self.kept.items()}
        for first_line, text in cut:
            key = (source.name, first_line, text)
            found = self.kept.get(key)
            if found is None:
                found = self.earlier.get(key)
            if found is None:
                local = Diagnostics()
                module = _build(SourceFile(source.name, "\n" * first_line + text), "start",
                                (0, 0), local)
                if not isinstance(module, n.Module) or local.items:
                    error = syntax_error(source, first_line, text)
                    if error is None:
                        return parse(source, diagnostics)
                    diagnostics.items.append(error)
                    return None
                found = same_or(before.get((source.name, first_line)), module.declarations)
            kept[key] = found
            declarations.extend(found)
        if not declarations:
            return parse(source, diagnostics)
        for key, found in self.kept.items():
            if key not in kept:
                self.earlier[key] = found
        while len(self.earlier) > _EARLIER_KEPT:
            del self.earlier[next(iter(self.earlier))]
        self.kept = kept
        whole = parse_span(source, declarations)
        return n.Module(tuple(declarations), span=whole)


# A declaration on the first line of a piece that is not the file's first: the parser then
# meets the piece with the stack it has after the declarations above it, which the wording of
# a syntax error reads (its expected words and Lark's match_examples, which compares depths).
_BEFORE = "enum before_the_piece { a }"
_SYNTAX_CODES = frozenset({"E0001", "E0002", "E0003"})


def syntax_error(source: SourceFile, first_line: int, text: str) -> Diagnostic | None:
    """The syntax error of a parse of the whole file, found by parsing one piece (which does
    not parse; the pieces above it do), or None when the piece alone might not word it as the
    whole file does. The whole file's parse stops at the same token with the same stack when
    the error is inside the piece: not at its end (the whole file goes on into the next
    piece), and after three tokens of the piece at least (the wording reads the two tokens
    before the error). Nesting is checked on the whole file first, as parse does.
    tests/test_lsp_incremental.py compares the two on random keystrokes."""
    padded = "\n" * first_line + text
    if first_line > 0:
        padded = _BEFORE + padded
    local = Diagnostics()
    module = _build(SourceFile(source.name, padded), "start", (0, 0), local)
    if module is not None or len(local.items) != 1:
        return None
    error = local.items[0]
    if error.code not in _SYNTAX_CODES or error.message.startswith("the file ended early") \
            or error.message == "this number is too large":
        # the whole file's parse would go on to the next piece, or report a syntax error
        # further down before it builds (and measures the numbers of) the tree
        return None
    lines = text.split("\n")
    offset = error.span.line - 1 - first_line  # the error's line in the piece
    if not 0 <= offset < len(lines):
        return None
    read = 0
    for line in [*lines[:offset], lines[offset][:error.span.column - 1]]:
        tokens = line_tokens(line)
        if tokens is None:
            return None
        read += len(tokens)
    if read < 3 or not nesting_ok(source, Diagnostics()):
        return None
    return error


def same_or(earlier: tuple[n.Decl, ...] | None,
            parsed: tuple[n.Decl, ...]) -> tuple[n.Decl, ...]:
    """The earlier parse of a piece when the new one is the same to the last span (an edit in a
    comment, say): keeping the very same objects lets EditorSources.checked see that nothing a
    check reads has changed. The repr shows every field and span (node equality leaves spans
    out)."""
    # (== first: it stops at the first difference, and most reparsed pieces differ)
    if earlier is not None and earlier == parsed and repr(earlier) == repr(parsed):
        return earlier
    return parsed


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
        # By rules file name, the latest first: what a check read, the model it made and the
        # diagnostics it added.
        self.checks: dict[str, list[tuple[Inputs, GameModel, list[Diagnostic]]]] = {}

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

    def checked(self, model: GameModel, diagnostics: Diagnostics, root: Path | None) -> GameModel:
        """An earlier check's model and diagnostics again when it read the very same inputs: the
        same parsed declarations (the same objects: IncrementalParser keeps a declaration whose
        parse is unchanged), card sets and decks, and the same diagnostics before it. A keystroke
        in a comment or in blank space then costs its parse alone, and so does undoing an edit
        (the last few checks are kept). A graph board's map file, which resolve reads from
        disk itself, must hold the same bytes; a rulebook with a hex board (whose other maps
        are checked as variants of the game) is always checked again."""
        inputs = Inputs.of(model, diagnostics, root)
        if inputs is None:
            return super().checked(model, diagnostics, root)
        earlier = self.checks.setdefault(model.modules[0].span.file, [])
        for index, (read, kept, added) in enumerate(earlier):
            if inputs.same(read):
                earlier.insert(0, earlier.pop(index))
                for name, source in kept.sources.items():  # a map file resolve showed
                    model.sources.setdefault(name, source)
                kept.sources = model.sources  # the texts (of comments, say) may have changed
                diagnostics.extend(added)
                return kept
        before = len(diagnostics.items)
        checked = super().checked(model, diagnostics, root)
        earlier.insert(0, (inputs, checked, diagnostics.items[before:]))
        del earlier[_CHECKS_KEPT:]
        return checked


_CHECKS_KEPT = 4


@dataclass(frozen=True)
class Inputs:
    """What a check of a model reads, held (not copied) so that `same` compares objects."""

    root: Path | None
    files: tuple[str, ...]
    loaded: tuple[Diagnostic, ...]  # the diagnostics of reading the files, before the check
    declarations: tuple[n.Decl, ...]
    span: Span
    data: tuple[object, ...]  # card sets and decks
    maps: tuple[object, ...]  # each graph board's map file (resolve reads them from disk)

    @staticmethod
    def of(model: GameModel, diagnostics: Diagnostics, root: Path | None) -> Inputs | None:
        rules, *card_sets = model.modules
        maps: list[object] = []
        for decl in rules.declarations:
            if not isinstance(decl, n.BoardDecl):
                continue
            if isinstance(decl.shape, n.HexFile):
                return None  # its variants are checked as games of their own
            if isinstance(decl.shape, n.GraphFile):
                maps.append(_map_bytes(decl.shape, root))
        return Inputs(root, tuple(model.sources), tuple(diagnostics.items),
                      rules.declarations, rules.span, (*card_sets, *model.decks), tuple(maps))

    def same(self, other: Inputs) -> bool:
        return (self.root == other.root and self.files == other.files
                and self.span == other.span and self.loaded == other.loaded
                and _identical(self.declarations, other.declarations)
                and _identical(self.data, other.data) and self.maps == other.maps)


def _map_bytes(shape: n.GraphFile, root: Path | None) -> object:
    """What resolve will read of a board's map file: what data_file says of the path (a
    missing file, a folder, ...) and the bytes of the file it finds."""
    found = Diagnostics()
    path = data_file(shape.path, shape.span, root, found, MAX_MAP_BYTES)
    try:
        return tuple(found.items), path.read_bytes() if path is not None else None
    except OSError as error:
        return tuple(found.items), str(error)


def _identical(these: tuple[object, ...], those: tuple[object, ...]) -> bool:
    return len(these) == len(those) and all(a is b for a, b in zip(these, those, strict=True))


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
