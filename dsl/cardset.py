"""Card sets (`*.cards.yaml`) and deck files (`*.deck.yaml`): YAML → AST, with spans in the YAML.

Nothing in these files is ever run. YAML is only *composed* (never constructed), so tags that
would build Python objects are reported, not honoured; anchors are refused, so a small file
cannot expand into a huge one. A card's values become the same AST nodes a `data` block gives,
and its effect text is parsed by the rules parser, so card sets are checked exactly like the
rulebook. An effect's text is a scalar's value, which is not always a copy of the file (folded
lines, escapes): its positions are taken back to the file through dsl.yaml_origins.

Card sets of the usual simple shape are read straight from their text by dsl.fastcards, which
gives the same AST, spans and diagnostics and hands anything else back to the PyYAML path here.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterator
from typing import Protocol

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.effect_shapes import EffectShapes
from dsl.effect_spans import moved, within
from dsl.lexical import MAX_INT_DIGITS
from dsl.parser import parse_effect
from dsl.source import SourceFile, Span, line_starts, position
from dsl.yaml_limits import crossed_limit
from dsl.yaml_origins import (
    Origins,
    Scalar,
    Shift,
    approximate_shift,
    exact_shift,
    first_line_shift,
    origins,
    same_lines,
)

_STR_TAG = "tag:yaml.org,2002:str"
_KINDS = {f"tag:yaml.org,2002:{kind}": kind
          for kind in ("str", "int", "bool", "null", "seq", "map")}
_STANDARD_TAGS = frozenset(_KINDS)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
MAX_NAME_LENGTH = 200
CARD_SET_KEYS = ("type", "set", "cards")
DECK_KEYS = ("name", "cards", "side")


# libyaml's loader when PyYAML was built with it (10x faster on big card sets); composing only.
_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BASE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, remembering which tag each plain scalar resolves to: a card set repeats
    the same words and numbers thousands of times, and resolving tries several patterns."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.resolved: dict[tuple[object, str, object], str] = {}

    def resolve(self, kind: type, value: str, implicit: object) -> str:
        if self.yaml_path_resolvers:  # tags by position in the document: not a function of
            return str(super().resolve(kind, value, implicit))  # the value alone
        key = (kind, value, implicit)
        tag = self.resolved.get(key)
        if tag is None:
            tag = self.resolved[key] = str(super().resolve(kind, value, implicit))
        return tag


class _Refused(Exception):  # noqa: N818 - internal signal, already reported
    pass


class _Mark(Protocol):  # PyYAML's marks, from its C or its Python reader
    @property
    def index(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...


class _Marks:
    """libyaml's marks as positions of dsl.source. libyaml also ends lines at CR, NEL, U+2028
    and U+2029, and its C reader skips a byte order mark without counting it: in a file with
    any of these, its lines and columns are not ours and positions come from its character
    indices."""

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        text = source.text
        self.skipped = int(text.startswith("\ufeff") and _BASE_LOADER is not yaml.SafeLoader)
        self.line_starts: list[int] | None = None

    @functools.cached_property
    def same(self) -> bool:
        """Whether the marks' lines and columns are ours (asked only if the file is composed:
        the fast reader needs no marks)."""
        return not self.skipped and same_lines(self.source.text)

    def index(self, mark: _Mark) -> int:
        return int(mark.index) + self.skipped

    def position(self, mark: _Mark) -> tuple[int, int]:
        """The 0-based line and column of mark."""
        if self.same:
            return mark.line, mark.column
        if self.line_starts is None:
            self.line_starts = line_starts(self.source.text)
        return position(self.line_starts, self.index(mark))

    def between(self, start: _Mark, end: _Mark, last_start: _Mark | None = None) -> Span:
        """From start to end; last_start is where the node that ends at end starts."""
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        if end_line > self.position(last_start or start)[0] and end_column == 0:
            # a block ends at the start of the next line: it ends at the end of its own last line
            return Span(self.source.name, line + 1, column + 1, end_line,
                        len(self.source.line(end_line)) + 1)
        # most values are on one line: their span holds one line number object, not two
        return Span(self.source.name, line + 1, column + 1,
                    line + 1 if end_line == line else end_line + 1, end_column + 1)

    def span(self, node: Node, last: Node | None = None) -> Span:
        """Where node is in the file; with `last`, from the start of node to the end of last."""
        ends = last or node
        return self.between(node.start_mark, ends.end_mark, ends.start_mark)


class _Reader:
    def __init__(self, source: SourceFile, diagnostics: Diagnostics, code: str) -> None:
        self.source = source
        self.diagnostics = diagnostics
        self.code = code
        self.marks = _Marks(source)
        self.seen: set[int] = set()
        # the first alias of each anchored node, by the node's start index (see alias_span)
        self.aliases: dict[int, Span] | None = None
        # Effect texts repeat across a card set ("draw_cards(you, 1)"): each distinct text is
        # parsed once and its tree shared, so it is also checked and compiled once; the tree's
        # spans point at the first card that has it, each EffectLit's span at its own card.
        self.parsed: dict[str, n.Block] = {}
        # Distinct texts that differ only in numbers share one Lark parse.
        self.shapes = EffectShapes()

    def fail(self, node: Node | None, message: str, hint: str | None = None) -> _Refused:
        span = self.marks.span(node) if node is not None else Span.point(self.source.name)
        self.diagnostics.add(self.code, span, message, hint=hint)
        return _Refused()

    def compose(self, needs: str) -> Node | None:
        """The file's one YAML document; None when there is none (reported: `needs` says what
        the file must hold) or it is not read."""
        text = self.source.text
        crossed = crossed_limit(text, _Loader, aliases=False)  # check() refuses aliases
        if crossed is not None:  # composing would overflow the C stack: a segmentation fault
            self.diagnostics.add(crossed.code, crossed.span(self.source.name, text),
                                 crossed.message, hint=crossed.hint)
            return None
        try:
            root: Node | None = yaml.compose(text, Loader=_Loader)
            if root is None:  # no document at all: the file would be read as nothing, silently
                self.diagnostics.add(self.code, Span.point(self.source.name),
                                     f"the file is empty: {needs}")
            return root
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            line, column = self.marks.position(mark) if mark else (0, 0)
            self.diagnostics.add(
                self.code, Span.point(self.source.name, line + 1, column + 1),
                f"not valid YAML: {error.problem or error}",
            )
        except yaml.YAMLError as error:
            self.diagnostics.add(self.code, Span.point(self.source.name),
                                 f"not valid YAML: {error}")
        return None

    def check(self, node: Node) -> None:
        """Refuse aliases (the same node reached twice) and non-standard tags."""
        if id(node) in self.seen:
            message = "anchors and aliases are not allowed in card and deck files"
            hint = "write each value out in full"
            span = self.alias_span(node)
            if span is None:
                raise self.fail(node, message, hint=hint)
            self.diagnostics.add(self.code, span, message, hint=hint)
            raise _Refused
        self.seen.add(id(node))
        if node.tag not in _STANDARD_TAGS:
            if node.tag == "tag:yaml.org,2002:float":  # a value written 2.5: no tag in sight
                raise self.fail(node, f"{node.value} is not a whole number",
                                hint="numbers in card and deck files are whole numbers; "
                                     "quote it to make it a text")
            raise self.fail(node, f"the YAML tag '{node.tag}' is not allowed here",
                            hint="card and deck files hold plain text, numbers, lists and maps")

    def alias_span(self, node: Node) -> Span | None:
        """Where the first alias of node's anchor is. Composing gives, for each alias, the
        anchored node itself, which has the anchor's marks: the aliases are found in the
        file's events (read again, only for this error)."""
        if self.aliases is None:
            self.aliases = {}
            anchors: dict[str, int] = {}
            try:
                for event in yaml.parse(self.source.text, Loader=_BASE_LOADER):
                    anchor = getattr(event, "anchor", None)
                    if anchor is None or event.start_mark is None or event.end_mark is None:
                        continue
                    if isinstance(event, yaml.AliasEvent):
                        if anchor in anchors:
                            self.aliases.setdefault(anchors[anchor], self.marks.between(
                                event.start_mark, event.end_mark))
                    else:  # an anchor, maybe a name given again: later aliases mean this one
                        anchors[anchor] = event.start_mark.index
            except yaml.YAMLError:
                pass  # the file composed: what was read so far holds the alias
        return self.aliases.get(node.start_mark.index)

    def mapping(self, node: Node, what: str) -> Iterator[tuple[str, ScalarNode, Node]]:
        self.check(node)
        if not isinstance(node, MappingNode):
            raise self.fail(node, f"{what} must be a mapping of keys to values")
        keys: set[str] = set()
        seen = self.seen
        for key, value in node.value:
            if id(key) in seen or key.tag != _STR_TAG or not isinstance(key, ScalarNode):
                self.check(key)
                raise self.fail(key, f"the keys of {what} must be words")
            seen.add(id(key))  # what check() does for a key that passes it
            if key.value in keys:
                raise self.fail(key, f"'{key.value}' is given twice in {what}")
            keys.add(key.value)
            yield key.value, key, value

    def text(self, node: Node, what: str) -> str:
        self.check(node)
        if not isinstance(node, ScalarNode) or node.tag != _STR_TAG:
            raise self.fail(node, f"{what} must be text")
        return str(node.value)

    def value(self, node: Node) -> n.Expr:
        """A field's value as an expression node."""
        if id(node) in self.seen or node.tag not in _STANDARD_TAGS:
            self.check(node)  # raises
        self.seen.add(id(node))  # what check() does for a node that passes it
        span = self.marks.span(node)
        if isinstance(node, SequenceNode):
            return n.ListLit(tuple(self.value(item) for item in node.value), span=span)
        if isinstance(node, MappingNode):
            raise self.fail(node, "a field's value cannot be a mapping",
                            hint="give a number, a word, a text or a list")
        assert isinstance(node, ScalarNode)
        kind = _KINDS[node.tag]
        if kind == "int":
            digits = node.value.lstrip("+-")
            if not digits.isdigit() or len(digits) > MAX_INT_DIGITS:
                raise self.fail(node, f"'{node.value}' is not a whole number the rules can use")
            number = int(digits)
            return n.IntLit(-number if node.value.startswith("-") else number, span=span)
        if kind == "bool":
            return n.BoolLit(node.value.lower() in ("true", "yes", "on"), span=span)
        if kind == "null":
            return n.NoneLit(span=span)
        if not node.style and _IDENTIFIER.match(node.value):
            # words (colours, kinds, keywords) repeat on every card: one string for each
            return n.DataWord(sys.intern(node.value), span=span)
        return n.StrLit(node.value, span=span)

    def effect(self, node: Node) -> n.Expr:
        self.check(node)
        if not isinstance(node, ScalarNode) or node.tag != _STR_TAG:
            raise self.fail(node, "an effect must be rule text",
                            hint="write it as a block: 'effect: |' then the statements, indented")
        line, column = self.marks.position(node.start_mark)
        scalar = Scalar(node.style or "", self.marks.index(node.start_mark),
                        self.marks.index(node.end_mark), line, column)
        expr = self.parsed_effect(node.value, scalar, self.marks.span(node))
        if expr is None:
            raise _Refused()
        return expr

    def parsed_effect(
        self, text: str, where: tuple[int, int] | Scalar, span: Span
    ) -> n.Expr | None:
        """The effect text as an EffectLit at span; None when it does not parse (reported).
        `where` is the text's scalar in the file, or (lines, columns) that take positions in
        the text to the file when the caller knows them (the fast reader)."""
        known = self.parsed.get(text)
        if known is not None:
            return n.EffectLit(known, span=span)
        diagnostics = self.diagnostics
        errors = len(diagnostics.items)
        shift = where if isinstance(where, tuple) else exact_shift(self.source, where, text)
        if shift is not None:
            parsed = parse_effect(text, self.source, shift, diagnostics, self.shapes)
            if len(diagnostics.items) == errors:
                if parsed is not None:
                    self.parsed[text] = parsed
                return None if parsed is None else n.EffectLit(parsed, span=span)
            # Rare: diagnostics. Their notes name positions in the text that parse_effect does
            # not move: parsed again below, and moved here.
            del diagnostics.items[errors:]
        elif isinstance(where, Scalar):
            # One line and a line break, quoted (every effect of one line yaml.safe_dump
            # writes): the shift of that line is right for every position the map would
            # give, if the tree has none beyond the line.
            line_shift = first_line_shift(self.source.text, where, text)
            if line_shift is not None:
                parsed = parse_effect(text, self.source, line_shift, diagnostics, self.shapes)
                if len(diagnostics.items) == errors and parsed is not None and within(
                        parsed, line_shift[0] + 1, line_shift[1] + 1,
                        line_shift[1] + len(text) - 1):
                    self.parsed[text] = parsed
                    return n.EffectLit(parsed, span=span)
                del diagnostics.items[errors:]
        # The text is parsed on its own and every position moved through a map of the scalar
        # (a folded block, an escape, a line of a plain scalar: no constant shift is right).
        parsed = parse_effect(text, self.source, (0, 0), diagnostics, self.shapes)
        found = diagnostics.items[errors:]
        move: Shift | Origins | None
        if shift is not None:
            move = fallback = Shift(*shift)
        else:
            assert isinstance(where, Scalar)
            # no map when the scalar is not read as libyaml read it: then its first line's
            # positions are right, later ones may not be
            fallback = Shift(*approximate_shift(self.source, where))
            move = origins(self.source.text, where, text) or fallback
        try:
            parsed, diagnostics.items[errors:] = moved(parsed, found, move)
        except Exception:  # noqa: BLE001 - never a crash on user input: positions less exact
            parsed, diagnostics.items[errors:] = moved(parsed, found, fallback)
        if parsed is None:
            return None
        if len(diagnostics.items) == errors:
            self.parsed[text] = parsed
        return n.EffectLit(parsed, span=span)


class _Semantics:
    """What the fast reader (dsl.fastcards) asks of this one, answered the same way."""

    def __init__(self, reader: _Reader) -> None:
        self.loader = _Loader("")  # only its resolver is used
        self.effect = reader.parsed_effect
        self.card_name_ok = _name_ok

    def resolve(self, value: str) -> str:
        if self.loader.yaml_path_resolvers:  # tags by position in the document
            from dsl.simple_yaml import Unsupported  # loaded with the reader already
            raise Unsupported
        return str(self.loader.resolve(ScalarNode, value, (True, False)))


def _name_ok(name: str) -> bool:
    return _name_problem(name) is None


def _name_problem(name: str) -> tuple[str, str | None] | None:
    """What is wrong with a card's (stripped) name, and a hint; None when nothing is."""
    if not name or len(name) > MAX_NAME_LENGTH:
        return f"a card's name has 1 to {MAX_NAME_LENGTH} characters", None
    if " ".join(name.split()) != name or not name.isprintable():
        return ("a card's name is one line, with single spaces",
                "players and scenarios name cards in action texts")
    return None


def load_card_set(
    source: SourceFile, effect_fields: dict[str, set[str]], diagnostics: Diagnostics
) -> n.Module | None:
    """The cards of a card set as `data` declarations. `effect_fields` maps each card type to
    the names of its effect fields, whose text is parsed as statements."""
    # Most card sets have one simple shape, read straight from the text (dsl.fastcards); any
    # other is composed by PyYAML. What the fast reader reported is taken back first. The
    # reader is imported here: a rulebook without cards starts faster without it.
    from dsl.fastcards import read_card_set
    from dsl.simple_yaml import Unsupported

    errors = len(diagnostics.items)
    try:
        return read_card_set(source, effect_fields,
                             _Semantics(_Reader(source, diagnostics, "E0403")))
    except Unsupported:
        del diagnostics.items[errors:]
    return _load_card_set_yaml(source, effect_fields, diagnostics)


def _load_card_set_yaml(
    source: SourceFile, effect_fields: dict[str, set[str]], diagnostics: Diagnostics
) -> n.Module | None:
    """load_card_set with PyYAML: any card set, every diagnostic."""
    reader = _Reader(source, diagnostics, "E0403")
    root = reader.compose("a card set needs a 'cards:' list")
    if root is None:
        return None
    try:
        top = {key: (key_node, value) for key, key_node, value in
               reader.mapping(root, "a card set")}
        for key, (key_node, _) in top.items():
            if key not in CARD_SET_KEYS:
                raise reader.fail(key_node, f"unknown key '{key}' in a card set",
                                  hint=f"a card set has: {', '.join(CARD_SET_KEYS)}")
        if "cards" not in top:
            raise reader.fail(root, "a card set needs a 'cards:' list")
        if "type" in top:
            type_node = top["type"][1]
            type_name = reader.text(type_node, "'type'")
        elif len(effect_fields) == 1:
            type_node, type_name = root, next(iter(effect_fields))
        else:
            raise reader.fail(root, "say which card type these cards are: 'type: NAME'")
        cards_node = top["cards"][1]
        reader.check(cards_node)
        if not isinstance(cards_node, SequenceNode):
            raise reader.fail(cards_node, "'cards' must be a list of cards")
    except _Refused:
        return None
    entries: list[n.Entry] = []
    rejected: list[str] = []
    effects = effect_fields.get(type_name, set())
    cards = cards_node.value
    for index, card in enumerate(cards):
        # Each card's YAML nodes are let go once it is read, so the composed file (several
        # times the size of its text) and the cards' AST never both fill memory.
        cards[index] = None
        try:
            entries.append(_card(reader, card, effects))
        except _Refused:
            name = _given_name(card)
            if name is not None:
                rejected.append(name)
    data = n.DataDecl(type_name, tuple(entries), tuple(rejected),
                      span=reader.marks.span(type_node))
    return n.Module((data,), span=reader.marks.span(root))


def _given_name(node: Node) -> str | None:
    """The name of a card that was refused, if it gives a good one (wherever it stands)."""
    if not isinstance(node, MappingNode):
        return None
    for key, value in node.value:
        if isinstance(key, ScalarNode) and key.value == "name" and isinstance(value, ScalarNode) \
                and value.tag == _STR_TAG:
            name = str(value.value).strip()
            return name if _name_problem(name) is None else None
    return None


def _card(reader: _Reader, node: Node, effects: set[str]) -> n.Entry:
    name: str | None = None
    description = ""
    values: list[n.FieldValue] = []
    for key, key_node, value in reader.mapping(node, "a card"):
        if key == "name":
            name = reader.text(value, "a card's name").strip()
            problem = _name_problem(name)
            if problem is not None:
                raise reader.fail(value, problem[0], hint=problem[1])
        elif key == "description":
            description = reader.text(value, "a card's description")
        else:
            field_span = reader.marks.span(key_node, value)
            expr = reader.effect(value) if key in effects else reader.value(value)
            values.append(n.FieldValue(key, expr, span=field_span))
    if name is None:
        raise reader.fail(node, "this card has no 'name'")
    return n.Entry(name, tuple(values), description, span=reader.marks.span(node))


def load_deck(source: SourceFile, name: str, diagnostics: Diagnostics) -> n.DeckList | None:
    """A deck file: `cards:` maps card names to how many copies; `side:`, the same shape, is
    the side deck, swapped with the main deck between games only."""
    reader = _Reader(source, diagnostics, "E0404")
    root = reader.compose("a deck needs 'cards:', a mapping of card names to counts")
    if root is None:
        return None
    title = name
    entries: list[n.DeckEntry] = []
    side: list[n.DeckEntry] = []
    side_span: Span | None = None
    try:
        found_cards = False
        for key, key_node, value in reader.mapping(root, "a deck"):
            if key == "name":
                title = reader.text(value, "the deck's name")
            elif key == "cards":
                found_cards = True
                entries = _deck_entries(reader, value, "the deck's cards")
            elif key == "side":
                side = _deck_entries(reader, value, "the side deck's cards")
                side_span = reader.marks.span(key_node)
            else:
                raise reader.fail(key_node, f"unknown key '{key}' in a deck",
                                  hint=f"a deck has: {', '.join(DECK_KEYS)}")
        if not found_cards:
            raise reader.fail(root, "a deck needs 'cards:', a mapping of card names to counts")
    except _Refused:
        return None
    return n.DeckList(name, title, tuple(entries), tuple(side), side_span,
                      span=reader.marks.span(root))


def _deck_entries(reader: _Reader, value: Node, what: str) -> list[n.DeckEntry]:
    """A mapping of card names to counts: `cards:` and `side:` alike."""
    entries: list[n.DeckEntry] = []
    for card, card_node, count in reader.mapping(value, what):
        reader.check(count)
        if (not isinstance(count, ScalarNode)
                or count.tag != "tag:yaml.org,2002:int"
                or not count.value.isdigit() or len(count.value) > 6
                or int(count.value) < 1):
            raise reader.fail(count, f"the count of '{card}' must be a whole "
                                     "number, 1 or more")
        entries.append(n.DeckEntry(card.strip(), int(count.value),
                                   span=reader.marks.span(card_node)))
    return entries
