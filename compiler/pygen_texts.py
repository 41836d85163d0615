"""The texts of actions compiled to Python: the body of an action's text function, with the
neutral phrases that players who may not see a value read, and the templates of messages."""

from __future__ import annotations

import re
from collections.abc import Sequence

from compiler import types as t
from compiler.pygen_base import ARTICLE, names_table
from compiler.pygen_tables import TableGenerator
from compiler.text_templates import template_fields
from dsl.runtime_base import article

# A determiner just before a field of a text: "the {u}", "a {k}", "their {c}".
_DETERMINER = re.compile(r"(?:^|(?<=\s))(the|a|an|their|its|his|her|your|my|our|this|that)\s+$",
                         re.IGNORECASE)


def neutral_noun(type_: t.Type) -> str:
    """How a value of this type reads when the viewer may not see which it is: the type's name
    in lower case words (Tile: "tile", SpellCard: "spell card", Province: "province")."""
    if isinstance(type_, (t.CardT, t.DefT, t.EnumT, t.RecordT)):
        name = type_.name
    elif isinstance(type_, t.NodeT):
        name = type_.board
    elif isinstance(type_, t.PlayerT):
        return "player"
    elif isinstance(type_, t.IntT):
        return "number"
    else:
        return "choice"
    if name.isupper():  # an acronym keeps its letters: "NPC"
        return name
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return " ".join(words.split()).lower()


def _articled(before: str, value: str, with_article: str) -> tuple[str, str]:
    """A template's text before a field whose value is a word, and the value's source: an
    article "a"/"an" right before it goes, and the value is read with its own article
    (`with_article`, the source of that), to agree with the word."""
    found = ARTICLE.search(before)
    if found is None:
        return before, value
    if found.group(1)[0] == "A":
        return before[: found.start()], f"rt.capitalised({with_article})"
    return before[: found.start()], with_article


class TextGenerator(TableGenerator):
    """Action texts and message templates (the layer between pygen_tables and pygen_actions)."""

    def worded(
        self, params: Sequence[tuple[str, t.Type, object]], values: Sequence[str]
    ) -> dict[str, str]:
        """For the parameters whose values read as words of the rulebook (enum members,
        entries), the source of the value with its article, for a text that puts "a" or "an"
        before it: "a siege tower", "an archer" (see words_tables)."""
        worded: dict[str, str] = {}
        for (name, type_, _), value in zip(params, values, strict=True):
            table = names_table(type_)
            if isinstance(type_, (t.EnumT, t.RecordT)) and table is not None:
                worded[name] = f"{table.removesuffix('_NAMES')}_WITH_ARTICLE[{value}]"
        return worded

    def template(
        self, text: str, parts: dict[str, str], worded: dict[str, str] | None = None
    ) -> str:
        pieces: list[str] = []
        position = 0
        for start, end, name in template_fields(text):
            before = text[position:start]
            value = parts[name]
            if worded and name in worded:
                before, value = _articled(before, value, worded[name])
            if before:
                pieces.append(repr(before))
            pieces.append(value)
            position = end
        if position < len(text) or not pieces:
            pieces.append(repr(text[position:]))
        return " + ".join(pieces)

    def action_text_body(
        self, text: str, parts: dict[str, str], neutral: dict[str, tuple[int, str]],
        worded: dict[str, str],
    ) -> None:
        """The body of an action's text function. A field named in `neutral` (bit, noun) reads
        as a neutral phrase when that bit of `shown` is clear. A determiner before the field
        stays, so "the {u}" reads "the troop"; an article goes with the value, so "a {k}" does
        not read "a army"."""
        pieces: list[str] = []
        position = 0
        for k, (start, end, name) in enumerate(template_fields(text)):
            before = text[position:start]
            value = parts[name]
            if name in neutral:
                bit, noun = neutral[name]
                found = _DETERMINER.search(before)
                word = found.group(1).lower() if found is not None else ""
                phrase = noun if word and word not in ("a", "an") else f"{article(noun)} {noun}"
                if found is not None and word in ("a", "an"):
                    value = f"{before[found.start():]!r} + {value}"
                    before = before[: found.start()]
                if position == 0 and not before:
                    phrase = phrase[0].upper() + phrase[1:]
                if found is not None and name in worded and word in ("a", "an"):
                    value = worded[name]
                    if found.group(1)[0] == "A":
                        value = f"rt.capitalised({value})"
                self.w.line(f"t_{k} = {value} if shown & {bit} else {phrase!r}")
                value = f"t_{k}"
            elif name in worded:
                before, value = _articled(before, value, worded[name])
            if before:
                pieces.append(repr(before))
            pieces.append(value)
            position = end
        if position < len(text) or not pieces:
            pieces.append(repr(text[position:]))
        self.w.line(f"return {' + '.join(pieces)}")
