"""The limits every YAML file is held to before it is composed: how deep its collections nest,
and how much its aliases repeat.

PyYAML composes a document recursively, one call a level. With libyaml (CSafeLoader, which card
sets and decks are read with) that recursion is in C: a file nested some tens of thousands of
levels deep (`[[[[...` or `{a: {a: ...`, which takes a few bytes a level) overflows the C stack
and the process dies of a segmentation fault, with no exception to catch and so no diagnostic.
The pure-Python loader (maps, scenarios) raises RecursionError instead, which says nothing of
where. Aliases give the opposite trap: a small file (the "billion laughs") names a value that
names itself ten times over, and anything that walks the loaded values walks billions.

The parser under the composer is not recursive: it is a state machine that yields one event at
a time (the start and end of each collection, each scalar, each alias). `crossed_limit` reads
those events with the same loader class the caller will compose with, so it sees exactly what
the composer will see (quotes, comments, block scalars, flow and block styles alike: a bracket
inside a string is never counted) and stops at the first limit crossed:

- collections nested more than MAX_YAML_NESTING levels deep (E0006), counting what an alias
  repeats at the place of the alias;
- aliases that repeat more than MAX_ALIASED_VALUES values in all, or an alias inside the value
  it names, which would be infinite (E0005);
- a character YAML does not allow, such as a control character (E0003): the reader refuses it
  before any event, and says where only as an index whose meaning differs between loaders
  (characters for PyYAML's, bytes for libyaml's), so it is found in the text by its value.

A file that is not valid YAML is left to the caller's reader, which reports the error where it
is: the composer stops at the same event the scan stopped at, so it never went deeper than the
scan had checked.

Reading the events costs about a third of composing with libyaml; card sets of the usual shape
never pay it, as dsl.fastcards reads them without PyYAML (and without nesting).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import yaml
from yaml.reader import ReaderError

from dsl.source import Span, line_starts, position

# Real files nest a handful of levels (a card set: its mapping, the list of cards, a card, a
# list value: 4); a hundred is generous and far below what overflows the stack (thousands).
MAX_YAML_NESTING = 100
# Values an alias repeats are counted once for each alias: a scenario reusing a setup a few
# times repeats hundreds, a billion-laughs file billions.
MAX_ALIASED_VALUES = 100_000

_FLATTEN = "flatten the data: real card, deck, map and scenario files nest a few levels"
try:
    from yaml._yaml import CParser  # libyaml's parser, under each of PyYAML's C loaders

    _LIBYAML: tuple[type, ...] = (CParser,)
except ImportError:  # PyYAML built without libyaml
    _LIBYAML = ()


@dataclass(frozen=True)
class YamlLimit:
    """A limit a YAML text crosses: a diagnostic's code, message and hint, and where (a
    character index into the text)."""

    code: str
    index: int
    message: str
    hint: str

    def span(self, file: str, text: str) -> Span:
        """Where the limit is crossed, in the lines and columns of dsl.source (only "\\n" ends
        a line), whatever the loader's marks call lines."""
        line, column = position(line_starts(text[: self.index]), self.index)
        return Span.point(file, line + 1, column + 1)


class _Collection:
    """An open collection: the values it holds so far (itself included), the height of what
    it holds, and its anchor."""

    __slots__ = ("anchor", "height", "values")

    def __init__(self, anchor: str | None) -> None:
        self.anchor = anchor
        self.values = 1
        self.height = 1


def crossed_limit(text: str, loader: type, *, aliases: bool = True) -> YamlLimit | None:
    """The first limit text crosses when composed by `loader` (a PyYAML loader class), or
    None; also None when the text is not valid YAML before any limit is crossed (the
    caller's reader reports that). aliases=False: the caller refuses every alias itself, at
    the first, so what aliases repeat is not counted."""
    # libyaml does not count a byte order mark in its marks' indices
    skipped = int(text.startswith("\ufeff") and issubclass(loader, _LIBYAML))

    def limit(code: str, event: yaml.Event, message: str, hint: str) -> YamlLimit:
        mark = event.start_mark
        return YamlLimit(code, (mark.index if mark is not None else 0) + skipped, message, hint)

    open_: list[_Collection] = []
    # per anchor: (values, height) of its node; None while its collection is still open
    anchored: dict[str, tuple[int, int] | None] = {}
    aliased = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.ScalarEvent):
                if event.anchor is not None:
                    anchored[event.anchor] = (1, 0)
                if open_:
                    open_[-1].values += 1
            elif isinstance(event, yaml.CollectionStartEvent):
                if len(open_) >= MAX_YAML_NESTING:
                    return limit("E0006", event, f"the YAML is nested more than "
                                 f"{MAX_YAML_NESTING} levels deep", _FLATTEN)
                if event.anchor is not None:
                    anchored[event.anchor] = None
                open_.append(_Collection(event.anchor))
            elif isinstance(event, yaml.CollectionEndEvent):
                done = open_.pop()
                if done.anchor is not None:
                    anchored[done.anchor] = (done.values, done.height)
                if open_:
                    outer = open_[-1]
                    outer.values += done.values
                    outer.height = max(outer.height, done.height + 1)
            elif isinstance(event, yaml.AliasEvent) and aliases:
                name = event.anchor
                if name is None or name not in anchored:
                    continue  # an undefined alias: the composer reports it
                repeated = anchored[name]
                if repeated is None:
                    return limit("E0005", event, f"the alias *{name} is inside the value it "
                                 "repeats, which would be infinite", "write the value out in full")
                values, height = repeated
                aliased += values
                if aliased > MAX_ALIASED_VALUES:
                    return limit("E0005", event,
                                 f"aliases repeat more than {MAX_ALIASED_VALUES:,} values",
                                 "write the values out, or repeat them fewer times")
                if len(open_) + height > MAX_YAML_NESTING:
                    return limit("E0006", event, f"the YAML is nested more than "
                                 f"{MAX_YAML_NESTING} levels deep where the alias *{name} "
                                 "repeats its value", _FLATTEN)
                if open_:
                    outer = open_[-1]
                    outer.values += values
                    outer.height = max(outer.height, height + 1)
            elif isinstance(event, yaml.DocumentStartEvent):
                anchored.clear()  # anchors name values in their own document only
    except ReaderError as error:
        return _refused_character(text, error)
    except yaml.YAMLError:
        return None
    return None


def _refused_character(text: str, error: ReaderError) -> YamlLimit | None:
    """The character the reader refused, where it first appears (the reader reads in order:
    an earlier one would have been refused first)."""
    if not isinstance(error.character, int):
        return None
    character = chr(error.character)
    index = text.find(character)
    if index < 0:
        return None
    kind = "control character" if unicodedata.category(character) == "Cc" else "character"
    escape = (f"\\x{error.character:02x}" if error.character <= 0xFF
              else f"\\u{error.character:04x}")
    return YamlLimit("E0003", index, f"the {kind} U+{error.character:04X} is not allowed in YAML",
                     f'delete it, or write it as "{escape}" inside a double-quoted string')


def repeated_key(node: yaml.Node) -> tuple[yaml.ScalarNode, yaml.ScalarNode] | None:
    """The first key written twice in one mapping of a composed document, where it is written
    first and again (YAML keeps the last value silently)."""
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, yaml.MappingNode):
            seen: dict[str, yaml.ScalarNode] = {}
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        return seen[key.value], key
                    seen[key.value] = key
                pending.append(value)
        elif isinstance(current, yaml.SequenceNode):
            pending.extend(current.value)
    return None
