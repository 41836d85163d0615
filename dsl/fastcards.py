"""A fast reader for card sets in the usual shapes, giving the same AST as the PyYAML path.

Composing a big card set with libyaml and then walking its nodes made most of the time of
checking it. Card files almost always have one of two simple shapes. Written by hand: a
top-level block mapping (`type:`, `set:`, `cards:`), `cards:` a block sequence of block
mappings, one `key: value` a line, values plain, single- or double-quoted on one line, flow lists
`[a, b]` or block scalars (`|`, `>`) for effects, with comments and blank lines around. Written
by a program (yaml.safe_dump, issue 12): keys sorted (`type:` after the cards), lists as block
sequences of scalars at their key's indentation, long plain or quoted scalars folded over
several lines, effects quoted over several lines. This module reads those shapes straight from
the text, with one regular expression a line (dsl.simple_yaml), and builds the AST nodes (with
dsl.node_builders) with the spans `dsl.cardset` gives them from libyaml's marks.

It reads nothing else: anything outside those shapes (tags, anchors, aliases, flow mappings,
nested lists, tabs, control characters, CR or other line breaks, odd indentation, duplicate
keys, values a card set refuses, names that need a diagnostic...) raises `Unsupported`, and the
caller reads the file with PyYAML as before, which gives every diagnostic. So this path never
accepts a file the PyYAML path refuses or reports on, except for diagnostics of effect texts,
which both paths get from the same parser in the same order.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, Protocol

from dsl import nodes as n
from dsl.lexical import MAX_INT_DIGITS
from dsl.node_builders import node_builder, span_builder
from dsl.simple_yaml import (
    FLOW_ITEM,
    LINE,
    NEXT_TOKEN,
    SEQ_ITEM,
    WORDS,
    Unsupported,
    block_scalar,
    fold_plain,
    refuse_wide_bad,
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
_LATER_TYPE = re.compile(r"^type:[ ]+([A-Za-z_][A-Za-z0-9_]*)(?:[ ]+#.*)?[ ]*$", re.MULTILINE)


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
        refuse_wide_bad(text)
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
        later_type: str | None = None  # the type of the cards, read from a later line
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
            (head, ind, dash, key, plain, single, double, flow, block, body, seq,
             other) = m.groups()
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
                if ind or dash or flow is not None or block is not None or seq:
                    raise Unsupported
                if root < 0:
                    root = number - 1
                key = self.key(key)
                if key in top_keys or key not in _TOP_KEYS:
                    raise Unsupported
                top_keys.add(key)
                scalar = plain if plain is not None else single if single is not None else double
                if key == "cards":
                    if scalar is not None:
                        raise Unsupported  # not a list
                    if type_name is None:
                        # 'type:' after the cards (keys sorted) or none: the cards are read as
                        # the rulebook's one card type's, or as the type a top-level line
                        # names; the 'type:' read later must be that one
                        if len(self.effect_fields) == 1:
                            type_name = next(iter(self.effect_fields))
                        else:
                            later = _LATER_TYPE.search(text, m.end())
                            if later is None:
                                raise Unsupported  # refused by the PyYAML path
                            type_name = later_type = later.group(1)
                    effects = self.effect_fields.get(type_name, set())
                    texts = effects | {"name", "description"}
                    entries = []
                    in_cards = True
                elif key == "type":
                    if scalar is None or "\n" in scalar:
                        raise Unsupported
                    if plain is not None:
                        if semantics.resolve(plain) != STR_TAG:
                            raise Unsupported  # 'type' must be text
                        value = plain
                    else:
                        value = unquote_single(scalar) if single is not None else \
                            unquote_double(scalar)
                    if entries is not None and value != type_name:
                        raise Unsupported  # the cards were read as another type's
                    type_name = value
                    start = len(head) + 1
                    type_span = _span(file, number, start, number, start + len(scalar))
                elif scalar is not None:
                    # 'set' is any scalar, but one that YAML reads
                    if double is not None:
                        unquote_double(double)
                    number += scalar.count("\n")
                continue
            key = keys.get(key) or self.key(key)
            if key in given:
                raise Unsupported
            given.add(key)
            if refused:
                # The card is dropped (as the PyYAML path drops it at its first refusal), but
                # its text must still be YAML: that path reports nothing else if it is not.
                # Its name is kept: decks listing it are told it has errors.
                if plain is not None:
                    value = fold_plain(plain, column) if "\n" in plain else plain
                    number += plain.count("\n")
                    if key == "name" and semantics.resolve(value) != STR_TAG:
                        raise Unsupported
                elif single is not None:
                    value = unquote_single(single)
                    number += single.count("\n")
                elif double is not None:
                    value = unquote_double(double)
                    number += double.count("\n")
                elif key == "name":
                    raise Unsupported
                elif flow is not None:
                    self.flow(flow, number, 0)
                elif body is not None:
                    number += block_scalar(block, body, column)[1]
                elif seq:
                    number += self.sequence(seq, number, column, text, m.end())[1]
                if key == "name":
                    name = value.strip()
                    if not semantics.card_name_ok(name):
                        raise Unsupported
                continue
            start = len(head) + 1  # the 1-based column of the value
            end_line = number
            if plain is not None:
                if "\n" in plain:  # folded over several lines
                    value = fold_plain(plain, column)
                    end_line = number + plain.count("\n")
                    end = len(plain) - plain.rfind("\n")
                    where: tuple[int, int] | Scalar = Scalar(
                        "", m.start("plain"), m.end("plain"), number - 1, start - 1)
                    if key not in texts:
                        kind, argument = self.plain(value)
                        values.append(_field_value(key, kind(argument, _span(
                            file, number, start, end_line, end)), _span(
                            file, number, first, end_line, end)))
                        number = end_line
                        continue
                else:
                    end = start + len(plain)
                    if key not in texts:
                        kind, argument = plains.get(plain) or self.plain(plain)
                        values.append(_field_value(key, kind(argument, _span(
                            file, number, start, number, end)),
                            _span(file, number, first, number, end)))
                        continue
                    value = plain
                    where = (number - 1, start - 1)
                if semantics.resolve(value) != STR_TAG:
                    raise Unsupported
            elif double is not None or single is not None:
                if double is not None:
                    quoted, group = double, "double"
                    value = unquote_double(double)
                else:
                    assert single is not None
                    quoted, group = single, "single"
                    value = unquote_single(single)
                end = start + len(quoted)
                if len(value) == len(quoted) - 2 and "\n" not in quoted:
                    where = (number - 1, start)
                else:  # escapes, doubled quotes or lines folded: no constant shift is right
                    where = Scalar(quoted[0], m.start(group), m.end(group), number - 1,
                                   start - 1)
                    if "\n" in quoted:
                        end_line = number + quoted.count("\n")
                        end = len(quoted) - quoted.rfind("\n")
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
            elif seq:
                # a block list under its key: it ends where the next token starts
                if key in texts:
                    raise Unsupported
                items, lines, seq_line, seq_column, next_line, next_column = self.sequence(
                    seq, number, column, text, m.end())
                values.append(_field_value(
                    key, _list_lit(items, self.span_to(seq_line, seq_column, next_line,
                                                       next_column, seq_line)),
                    self.span_to(number - 1, first - 1, next_line, next_column, seq_line)))
                number += lines
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
            line, number = number, end_line
            if key == "name":
                name = value.strip()
                if not semantics.card_name_ok(name):
                    raise Unsupported
                continue
            if key == "description":
                description = value
                continue
            span = _span(file, line, start, end_line, end)
            if key in effects:
                expr = effect(value, where, span)
                if expr is None:
                    refused = True
                else:
                    values.append(_field_value(key, expr, _span(file, line, first, end_line,
                                                                end)))
            else:
                values.append(_field_value(key, _str_lit(value, span),
                                           _span(file, line, first, end_line, end)))
        if root < 0 or entries is None or type_name is None:
            raise Unsupported
        if later_type is not None and type_span is None:
            raise Unsupported  # the cards were read as the type of a line that was no key
        # libyaml ends the document at the start of the line after the last.
        root_span = self.span_to(root, 0, number - 1, 0, root)
        data = n.DataDecl(type_name, tuple(entries), tuple(rejected),
                          span=type_span or root_span)
        return n.Module((data,), span=root_span)

    def sequence(self, seq: str, number: int, column: int, text: str, after: int
                 ) -> tuple[tuple[n.Expr, ...], int, int, int, int, int]:
        """The items of a block list of scalars (LINE's `seq`) under the key at `column` of
        line `number`, ending at index `after` of text; its number of lines, and (0-based, as
        libyaml's marks) where it starts and where the token after it starts, where libyaml
        ends it."""
        file = self.source.name
        items: list[n.Expr] = []
        dash_column = -1
        line = number
        for m in SEQ_ITEM.finditer(seq):
            line += 1
            indent, dash, plain, single, double = m.groups()
            if len(indent) != dash_column:
                if dash_column >= 0 or len(indent) < column:
                    raise Unsupported  # (libyaml ends a list left of its key)
                dash_column = len(indent)
            start = len(indent) + len(dash) + 1
            scalar = plain if plain is not None else single if single is not None else double
            end_line, end = line, start + len(scalar)
            if "\n" in scalar:  # folded over several lines
                end_line += scalar.count("\n")
                end = len(scalar) - scalar.rfind("\n")
            span = _span(file, line, start, end_line, end)
            if plain is None:
                items.append(_str_lit(unquote_single(scalar) if single is not None
                                      else unquote_double(scalar), span))
            elif end_line == line:
                kind, argument = self.plains.get(plain) or self.plain(plain)
                items.append(kind(argument, span))
            else:
                kind, argument = self.plain(fold_plain(plain, dash_column))
                items.append(kind(argument, span))
            line = end_line
        following = NEXT_TOKEN.match(text, after)
        assert following is not None  # (it matches the empty string)
        return (tuple(items), line - number, number, dash_column,
                line + following.group().count("\n"), len(following.group(1)))

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
