"""A fast reader for card sets in the usual shape, giving the same AST as the PyYAML path.

Composing a big card set with libyaml and then walking its nodes made most of the time of
checking it. Card files almost always have one simple shape: a top-level block mapping
(`type:`, `set:`, `cards:`), `cards:` a block sequence of block mappings, one `key: value` a
line, values plain, single- or double-quoted on one line, flow lists `[a, b]` or block scalars
(`|`, `>`) for effects, with comments and blank lines around. This module reads that shape
straight from the text, with one regular expression a line (dsl.simple_yaml), and builds the AST
nodes (with dsl.node_builders) with the spans `dsl.cardset` gives them from libyaml's marks.

It reads nothing else: anything outside that shape (tags, anchors, aliases, flow mappings,
multi-line plain or quoted scalars, tabs, control characters, CR or other line breaks, odd
indentation, duplicate keys, values a card set refuses, names that need a diagnostic...) raises
`Unsupported`, and the caller reads the file with PyYAML as before, which gives every
diagnostic. So this path never accepts a file the PyYAML path refuses or reports on, except for
diagnostics of effect texts, which both paths get from the same parser in the same order.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, Protocol

from dsl import nodes as n
from dsl.ast_builder import MAX_INT_DIGITS
from dsl.node_builders import node_builder, span_builder
from dsl.simple_yaml import (
    FLOW_ITEM,
    LINE,
    WORDS,
    Unsupported,
    block_scalar,
    unquote_double,
    unquote_single,
)
from dsl.source import SourceFile, Span
from dsl.yaml_origins import Scalar

STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NULL_TAG = "tag:yaml.org,2002:null"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TOP_KEYS = ("type", "set", "cards")


class CardSemantics(Protocol):
    """What `dsl.cardset` decides, the same for both paths (functions rather than methods to
    override: they are called for every card)."""

    @property
    def resolve(self) -> Callable[[str], str]:
        """The tag a plain scalar resolves to (PyYAML's resolver)."""

    @property
    def card_name_ok(self) -> Callable[[str], bool]:
        """Whether a (stripped) card name is accepted without a diagnostic."""

    @property
    def effect(self) -> Callable[[str, tuple[int, int] | Scalar, Span], n.Expr | None]:
        """The effect text parsed, as an EffectLit at span; None when it does not parse
        (reported) and its card is refused. Its positions are those in the text plus (lines,
        columns), or, when no such shift is known, found through the scalar's place in the
        file (a folded block, escapes)."""


_span = span_builder()
_int_lit = node_builder(n.IntLit, 1)
_str_lit = node_builder(n.StrLit, "x")
_bool_lit = node_builder(n.BoolLit, True)
_none_lit = node_builder(n.NoneLit)
_data_word = node_builder(n.DataWord, "x")
_list_lit = node_builder(n.ListLit, ())
_field_value = node_builder(n.FieldValue, "x", n.NoneLit(span=Span("f", 1, 2, 3, 4)))
_entry = node_builder(n.Entry, "x", (), "")


# What a plain scalar's text becomes as a field's value: a builder and its argument.
_Plain = tuple[Callable[[Any, Span], n.Expr], object]


def _null(_: object, span: Span) -> n.Expr:
    return _none_lit(span)


def _plain_value(value: str, tag: str) -> _Plain:
    if tag == STR_TAG:
        if _IDENTIFIER.match(value):
            # words (colours, kinds, keywords) repeat on every card: one string for each
            return _data_word, sys.intern(value)
        return _str_lit, value
    if tag == _INT_TAG:
        digits = value.lstrip("+-")
        if not digits.isdigit() or len(digits) > MAX_INT_DIGITS:
            raise Unsupported  # reported by the PyYAML path
        number = int(digits)
        return _int_lit, -number if value.startswith("-") else number
    if tag == _BOOL_TAG:
        return _bool_lit, value.lower() in ("true", "yes", "on")
    if tag == _NULL_TAG:
        return _null, None
    raise Unsupported  # floats, timestamps, ...: refused by the PyYAML path


def read_card_set(
    source: SourceFile, effect_fields: dict[str, set[str]], semantics: CardSemantics
) -> n.Module | None:
    """The card set as `dsl.cardset.load_card_set` reads it; raises Unsupported when the file
    is outside the shape read here (effect diagnostics may have been added by then)."""
    return _CardSetReader(source, effect_fields, semantics).read()


class _CardSetReader:
    def __init__(self, source: SourceFile, effect_fields: dict[str, set[str]],
                 semantics: CardSemantics) -> None:
        self.source = source
        self.effect_fields = effect_fields
        self.semantics = semantics
        self.keys: dict[str, str] = {}  # keys that are words, interned
        self.plains: dict[str, _Plain] = {}

    def key(self, key: str) -> str:
        known = self.keys.get(key)
        if known is None:
            if self.semantics.resolve(key) != STR_TAG:
                raise Unsupported  # 'yes:', 'null:': the keys of a mapping must be words
            known = self.keys[key] = sys.intern(key)
        return known

    def plain(self, value: str) -> _Plain:
        found = self.plains.get(value)
        if found is None:
            found = self.plains[value] = _plain_value(value, self.semantics.resolve(value))
        return found

    def span_to(self, line: int, column: int, end_line: int, end_column: int,
                last_line: int) -> Span:
        """dsl.cardset._span of a node at (line, column) (0-based, as libyaml's marks) whose
        last part starts on last_line and ends at (end_line, end_column)."""
        if end_line > last_line and end_column == 0:
            return _span(self.source.name, line + 1, column + 1, end_line,
                         len(self.source.line(end_line)) + 1)
        return _span(self.source.name, line + 1, column + 1,
                     line + 1 if end_line == line else end_line + 1, end_column + 1)

    def read(self) -> n.Module | None:  # one loop, kept flat: it runs for every line
        source = self.source
        text = source.text
        # The last line is read like the others: marks at its end are the same with or without
        # its line break, except a block scalar's (refused there, below).
        unterminated = not text.endswith("\n")
        if unterminated:
            text += "\n"
        file = source.name
        semantics = self.semantics
        keys = self.keys
        plains = self.plains
        effect = semantics.effect
        top_keys: set[str] = set()
        root = -1  # the 0-based line of the first key
        type_name: str | None = None
        type_span: Span | None = None
        entries: list[n.Entry] | None = None  # once 'cards:' is seen
        rejected: list[str] = []  # the names of cards dropped for a refused effect
        effects: set[str] = set()
        texts: set[str] = set()  # the keys whose value is read as text: name, description, effects
        in_cards = False
        dash_column = -1
        column = -1  # the 0-based column of the current card's keys (-1 outside cards)
        first = 0  # the same, 1-based
        key_indent: str | None = None  # the spaces before them
        start_line = -1  # the 0-based line of the current card's first key
        name: str | None = None
        description = ""
        values: list[n.FieldValue] = []
        given: set[str] = set()
        refused = False
        expr: n.Expr | None
        number = 0  # the 1-based number of the line being read
        for m in LINE.finditer(text):
            number += 1
            head, ind, dash, key, plain, single, double, flow, block, body, other = m.groups()
            if key is None:
                if other is None:
                    continue  # a blank line or a comment
                if m.start() != len(text):
                    raise Unsupported
                ind = ""  # the end of the text: it ends the cards as a top-level key would
            if ind == key_indent and dash is None:
                pass  # the current card's next key: the common case
            elif in_cards:
                # A card ends where the next one starts, or the list where the next top-level
                # key does, or the text; not at a key anywhere else.
                indent = len(ind)
                if dash is not None:
                    if indent != dash_column and dash_column >= 0:
                        raise Unsupported
                    dash_column = indent
                elif indent != 0 or start_line < 0:
                    raise Unsupported  # (no cards: 'cards' is not a list)
                if start_line >= 0 and not refused:
                    if name is None:
                        raise Unsupported  # a card without a name: reported by PyYAML's path
                    assert entries is not None
                    entries.append(_entry(name, tuple(values), description,
                                          self.span_to(start_line, column, number - 1, indent,
                                                       start_line)))
                elif start_line >= 0 and name is not None:
                    rejected.append(name)
                if dash is None:
                    in_cards = False
                    column = -1
                    key_indent = None
                else:
                    column = indent + len(dash)
                    key_indent = " " * column
                    first = column + 1  # 1-based
                    start_line = number - 1
                    name = None
                    description = ""
                    values = []
                    given = set()
                    refused = False
            if key is None:
                break
            if column < 0:
                # a top-level key
                if ind or dash or flow is not None or block is not None:
                    raise Unsupported
                if root < 0:
                    root = number - 1
                key = self.key(key)
                if key in top_keys or key not in _TOP_KEYS:
                    raise Unsupported
                top_keys.add(key)
                if key == "cards":
                    if plain is not None or single is not None or double is not None:
                        raise Unsupported  # not a list
                    if type_name is None:
                        if len(self.effect_fields) != 1:
                            raise Unsupported  # a later 'type:' or none: refused or unusual
                        type_name = next(iter(self.effect_fields))
                    effects = self.effect_fields.get(type_name, set())
                    texts = effects | {"name", "description"}
                    entries = []
                    in_cards = True
                elif key == "type":
                    if entries is not None:
                        raise Unsupported  # the cards were read as another type's
                    if plain is not None:
                        if semantics.resolve(plain) != STR_TAG:
                            raise Unsupported  # 'type' must be text
                        type_name, scalar = plain, plain
                    elif single is not None:
                        type_name, scalar = unquote_single(single), single
                    elif double is not None:
                        type_name, scalar = unquote_double(double), double
                    else:
                        raise Unsupported
                    start = len(head) + 1
                    type_span = _span(file, number, start, number, start + len(scalar))
                elif double is not None:
                    unquote_double(double)  # 'set' is any scalar, but one that YAML reads
                continue
            key = keys.get(key) or self.key(key)
            if key in given:
                raise Unsupported
            given.add(key)
            if refused:
                # The card is dropped (as the PyYAML path drops it at its first refusal), but
                # its text must still be YAML: that path reports nothing else if it is not.
                # Its name is kept: decks listing it are told it has errors.
                if key == "name":
                    if plain is not None and semantics.resolve(plain) == STR_TAG:
                        name = plain.strip()
                    elif single is not None:
                        name = unquote_single(single).strip()
                    elif double is not None:
                        name = unquote_double(double).strip()
                    else:
                        raise Unsupported
                    if not semantics.card_name_ok(name):
                        raise Unsupported
                    continue
                if double is not None:
                    unquote_double(double)
                elif flow is not None:
                    self.flow(flow, number, 0)
                elif body is not None:
                    number += block_scalar(block, body, column)[1]
                continue
            start = len(head) + 1  # the 1-based column of the value
            if plain is not None:
                end = start + len(plain)
                if key not in texts:
                    kind, argument = plains.get(plain) or self.plain(plain)
                    values.append(_field_value(key, kind(argument, _span(file, number, start,
                                                                         number, end)),
                                               _span(file, number, first, number, end)))
                    continue
                if semantics.resolve(plain) != STR_TAG:
                    raise Unsupported
                value = plain
                where: tuple[int, int] | Scalar = (number - 1, start - 1)
            elif double is not None or single is not None:
                if double is not None:
                    end = start + len(double)
                    value = unquote_double(double)
                else:
                    assert single is not None
                    end = start + len(single)
                    value = unquote_single(single)
                if len(value) == end - start - 2:
                    where = (number - 1, start)
                else:  # escapes or doubled quotes: no constant shift is right
                    group, quote = ("double", '"') if double is not None else ("single", "'")
                    where = Scalar(quote, m.start(group), m.end(group), number - 1, start - 1)
            elif body is not None:
                if key == "name" or key == "description" or dash is not None:
                    raise Unsupported  # rare: names and descriptions are on one line
                value, lines, indent = block_scalar(block, body, column)
                line = number + lines  # libyaml ends the scalar at the start of the next line
                if unterminated and line >= len(source.lines):
                    raise Unsupported  # its value would end without the line break
                end = len(source.line(line)) + 1
                span = _span(file, number, start, line, end)
                if key in effects:
                    # a literal block's text starts on the next line at the block's
                    # indentation; a folded block's lines may be joined
                    expr = effect(value, (number, indent) if indent >= 0 and block[0] == "|"
                                  else Scalar(block[0], m.start("block"), m.end("body"),
                                              number - 1, start - 1), span)
                    if expr is None:
                        refused = True
                        number = line
                        continue
                else:
                    expr = _str_lit(value, span)
                values.append(_field_value(key, expr, _span(file, number, first, line, end)))
                number = line
                continue
            elif flow is not None:
                if key in texts:
                    raise Unsupported
                end = start + len(flow)
                values.append(_field_value(
                    key, _list_lit(self.flow(flow, number, start - 1),
                                   _span(file, number, start, number, end)),
                    _span(file, number, first, number, end)))
                continue
            else:
                # 'key:' and nothing: an empty plain scalar, just after the colon
                if key in texts:
                    raise Unsupported
                start = first + len(key) + 1
                kind, argument = self.plain("")
                values.append(_field_value(key, kind(argument, _span(file, number, start,
                                                                     number, start)),
                                           _span(file, number, first, number, start)))
                continue
            # a text: name, description, an effect or a quoted value
            if key == "name":
                name = value.strip()
                if not semantics.card_name_ok(name):
                    raise Unsupported
                continue
            if key == "description":
                description = value
                continue
            span = _span(file, number, start, number, end)
            if key in effects:
                expr = effect(value, where, span)
                if expr is None:
                    refused = True
                else:
                    values.append(_field_value(key, expr, _span(file, number, first, number,
                                                                end)))
            else:
                values.append(_field_value(key, _str_lit(value, span),
                                           _span(file, number, first, number, end)))
        if root < 0 or entries is None or type_name is None:
            raise Unsupported
        # libyaml ends the document at the start of the line after the last.
        root_span = self.span_to(root, 0, number - 1, 0, root)
        data = n.DataDecl(type_name, tuple(entries), tuple(rejected),
                          span=type_span or root_span)
        return n.Module((data,), span=root_span)

    def flow(self, flow: str, number: int, start: int) -> tuple[n.Expr, ...]:
        """The items of a flow list `[a, 'b', "c"]` at column `start` of line `number`."""
        inner = flow[1:-1]
        if not inner.strip(" "):
            return ()
        file = self.source.name
        plains = self.plains
        if WORDS.fullmatch(inner):
            words: list[n.Expr] = []
            column = start + 2
            for word in inner.split(", "):
                kind, argument = plains.get(word) or self.plain(word)
                end = column + len(word)
                words.append(kind(argument, _span(file, number, column, number, end)))
                column = end + 2
            return tuple(words)
        items: list[n.Expr] = []
        pos = 0
        while True:
            m = FLOW_ITEM.match(inner, pos)
            if m is None:
                raise Unsupported
            plain, single, double, comma = m.groups()
            if plain is not None:
                column = start + 1 + m.start("plain")
                kind, argument = self.plain(plain)
                items.append(kind(argument, _span(file, number, column + 1, number,
                                                  column + len(plain) + 1)))
            else:
                quoted = single if single is not None else double
                assert quoted is not None
                column = start + 1 + m.start("single" if single is not None else "double")
                span = _span(file, number, column + 1, number, column + len(quoted) + 1)
                text = unquote_single(quoted) if single is not None else unquote_double(quoted)
                items.append(_str_lit(text, span))
            pos = m.end()
            if not comma:
                if pos != len(inner):
                    raise Unsupported
                return tuple(items)
            if pos == len(inner):
                raise Unsupported  # '[a, ]': YAML allows it; not worth reading here
