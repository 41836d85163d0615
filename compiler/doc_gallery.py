"""The card gallery of a card game's rulebook: each card's row (its field values, keywords
linked to the glossary) and its effects in English, written once per shared effect text.

CardGallery holds what the gallery remembers while the templates render and is the base of
docgen.DocBuilder; GalleryGroup writes a gallery table's rows and the cards' texts, in Markdown
and in HTML, a card at a time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from compiler import symbols as sym
from compiler import types as t
from compiler.card_faces import Layouts, card_svg, face_of
from compiler.doc_html import escape_html, html_bullets, inline_html
from compiler.english import English, anchor, code, md, sentence, words
from compiler.model import EntryInfo, FieldInfo, GameModel, RecordInfo
from dsl import nodes as n

MAX_FACE_CARDS = 400


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass
class CardEffect:
    name: str
    params: str
    name_html: str  # the name and the parameters as html_inline writes them
    params_html: str
    lines: list[str]


@dataclass
class GalleryGroup:
    """The cards of a gallery table, e.g. the units: its heading, and its rows and the cards'
    texts, written while the templates render (a row at a time, not held for every card)."""

    builder: CardGallery
    record: RecordInfo
    title: str
    anchor: str
    columns: list[str]  # the table's headings
    fields: list[str]  # the fields the columns show
    cards: list[EntryInfo]
    defaults: list[str] = field(default_factory=list)
    # Each card's cells as the HTML rows wrote them, the last card's first, for the Markdown
    # rows, which take them as they go: the cells are not worked out twice, and not kept.
    written_cells: list[list[str]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.cards)

    def cells(self, entry: EntryInfo) -> list[str]:
        """A card's row after its name: its value of each column, as CardGallery.value writes
        it, or the field's default, written once for the group."""
        defaults = self.defaults
        if not defaults and self.fields:
            defaults = self.defaults = []
            for name in self.fields:
                expr = self.record.fields[name].default
                defaults.append("—" if expr is None else self.builder.value(expr))
        values = entry.values
        value = self.builder.value
        cells = []
        for name, default in zip(self.fields, defaults, strict=True):
            given = values.get(name)
            cells.append(default if given is None else value(given))
        return cells

    def markdown(self) -> Iterator[str]:
        """The table rows, then the cards' texts, as the loops of rulebook.md.j2 over dicts of
        them wrote them (tests/test_docgen_fast.py keeps those loops as the reference)."""
        builder, record = self.builder, self.record
        written, self.written_cells = self.written_cells, []
        for entry in self.cards:
            cells = written.pop() if written else self.cells(entry)
            row = (f"| <a id=\"{builder.card_anchors[(record.name, entry.name)]}\"></a>"
                   f"{md(entry.name)} | ")
            yield (f"{row}{' | '.join(cells)} | {builder.card_source(entry)} |\n" if cells
                   else f"{row}{builder.card_source(entry)} |\n")
        for entry in self.cards:
            effects = builder.card_effects(record, entry)
            flavour = md(entry.description.strip())
            if not effects and not flavour:
                continue
            parts = [f"\n**{md(entry.name.strip())}**", f" — *{flavour}*" if flavour else "",
                     "\n"]
            for effect in effects:
                parts += ["\n", effect.name, f" (with {effect.params})" if effect.params else "",
                          ":\n\n", "\n".join(effect.lines), "\n"]
            yield "".join(parts)

    def html_rows(self) -> Iterator[Markup]:
        """The table rows, as the loop of rulebook.html.j2 over dicts of them wrote them."""
        builder, record = self.builder, self.record
        written = []
        for entry in self.cards:
            cells = self.cells(entry)
            written.append(cells)
            anchor = escape_html(builder.card_anchors[(record.name, entry.name)])
            yield Markup(f'<tr id="{anchor}"><td>{inline_html(md(entry.name))}</td>'
                         f"{''.join([builder.html_cell(cell) for cell in cells])}"
                         f"<td>{inline_html(builder.card_source(entry))}</td></tr>\n")
        written.reverse()
        self.written_cells = written  # every card's: the Markdown rows may take them

    def html_faces(self) -> Iterator[Markup]:
        """Each card's face (compiler.card_faces), above the table of fields; a card whose
        text does not fit its face is kept in `face_overflows`, for a warning. A card type
        of more than MAX_FACE_CARDS cards keeps only its table: the page stays readable."""
        if len(self.record.entries) > MAX_FACE_CARDS:
            return
        builder, record = self.builder, self.record
        yield Markup('<div class="card-faces">\n')
        for entry in self.cards:
            face = face_of(builder, record, entry)
            own = builder.layouts.render(face)
            if own is not None:  # the designer's layout: Markup of what the sandbox escaped
                yield Markup(own)
                continue
            svg, fits = card_svg(face)
            if not fits:
                builder.face_overflows.append(entry)
            yield Markup(svg)
        yield Markup("</div>\n")

    def html_texts(self) -> Iterator[Markup]:
        """The cards' texts, as the loop of rulebook.html.j2 over dicts of them wrote them."""
        builder, record = self.builder, self.record
        for entry in self.cards:
            effects = builder.card_effects(record, entry)
            flavour = md(entry.description.strip())
            if not effects and not flavour:
                continue
            parts = ['<div class="card">\n<p><strong>', inline_html(md(entry.name.strip())),
                     "</strong>"]
            if flavour:
                parts += [" — <em>", inline_html(flavour), "</em>"]
            parts.append("</p>\n")
            for effect in effects:
                parts += ["<p>", effect.name_html]
                if effect.params:
                    parts += [" (with ", effect.params_html, ")"]
                parts += [":</p>\n", builder.html_effect_lines(effect.lines), "\n"]
            parts.append("</div>\n")
            yield Markup("".join(parts))


class CardGallery:
    """What the card gallery writes, and remembers while the templates render: the cards'
    anchors, their field values and effects in words, and the HTML of repeated cells."""

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.english = English(model)
        # Card types whose cards get the gallery: those with effects or from card set files.
        self.gallery_types = [r for r in model.records.values() if self.has_gallery(r)]
        self.card_anchors: dict[tuple[str, str], str] = {}
        used: set[str] = set()
        for record in self.gallery_types:
            for entry in record.entries:
                base = "card-" + (slug(entry.name) or "x")
                found, i = base, 2
                while found in used:
                    found, i = f"{base}-{i}", i + 1
                used.add(found)
                self.card_anchors[(record.name, entry.name)] = found
        # The words of each effect text, by its tree: cards that share a text share its tree.
        self.effect_texts: dict[int, list[str]] = {}
        self.effect_fields: dict[str, list[tuple[str, FieldInfo]]] = {}
        self.members_written: dict[tuple[bool, str], str] = {}
        self.numbers: dict[int, str] = {}  # a card set's numbers, each written once
        self.effect_headings: dict[tuple[str, str], tuple[str, str, str, str]] = {}
        self.file_names: dict[str, str] = {}
        # HTML of the gallery: short cells that repeat from card to card (numbers, colours,
        # keywords), and each shared effect text's list of lines.
        self.html_cells: dict[str, str] = {}
        self.html_effects: dict[int, tuple[list[str], str]] = {}
        self.html_items: dict[str, str] = {}  # the effects' lines' HTML (html_bullets)
        self.face_overflows: list[EntryInfo] = []  # cards whose text does not fit the face
        # the designer's face templates, if any: named by the card type, or by its name
        self.layouts = Layouts(model.source_file, {
            name: record.face for name, record in model.records.items() if record.face})

    def has_gallery(self, record: RecordInfo) -> bool:
        if not record.is_card or not record.entries:
            return False
        return (any(isinstance(f.type, t.EffectT) for f in record.fields.values())
                or any(e.span.file in self.model.card_sets for e in record.entries))

    def card_source(self, entry: EntryInfo) -> str:
        """Where a card is defined: `where` for one line, its file's name written once."""
        span = entry.span
        if span.file == self.model.source_file:
            return f"line {span.line}"
        name = self.file_names.get(span.file)
        if name is None:
            name = self.file_names[span.file] = md(Path(span.file).name)
        return f"{name}:{span.line}"

    def html_cell(self, text: str) -> str:
        """A gallery cell: `<td>`, the text through html_inline, `</td>`."""
        html = self.html_cells.get(text)
        if html is None:
            html = f"<td>{inline_html(text)}</td>"
            if len(text) <= 40 and len(self.html_cells) < 4096:
                self.html_cells[text] = html
        return html

    def html_effect_lines(self, lines: list[str]) -> str:
        """html_bullets of an effect's lines, once per list: the cards that share an effect
        text share the list of its lines (effect_lines)."""
        known = self.html_effects.get(id(lines))
        if known is None or known[0] is not lines:
            known = self.html_effects[id(lines)] = (
                lines, str(html_bullets(lines, self.html_items)))
        return known[1]

    def html_done(self) -> None:
        """Forget what the HTML gallery remembered, before the Markdown is written."""
        self.html_cells.clear()
        self.html_effects.clear()
        self.html_items.clear()

    def card_link(self, record: str, name: str) -> str:
        found = self.card_anchors.get((record, name))
        return f"[{md(name)}](#{found})" if found else md(name)

    def keyword_link(self, name: str) -> str:
        return f"[{md(words(name))}](#keyword-{anchor(name)})"


    # ---- the card gallery
    def effects(self, record: RecordInfo, entry: EntryInfo) -> list[tuple[str, n.EffectLit]]:
        """The effects a card runs, field by field: its own, or the card type's default."""
        found = []
        fields = self.effect_fields.get(record.name)
        if fields is None:
            fields = self.effect_fields[record.name] = [
                (name, info) for name, info in record.data_fields().items()
                if isinstance(info.type, t.EffectT)]
        for name, info in fields:
            value = entry.values.get(name, info.default)
            if isinstance(value, n.EffectLit) and value.body.statements:
                found.append((name, value))
        return found

    def effect_lines(self, effect: n.EffectLit) -> list[str]:
        """The effect in words, written once per effect text however many cards have it."""
        lines = self.effect_texts.get(id(effect.body))
        if lines is None:
            lines = self.effect_texts[id(effect.body)] = self.english.effect_block(effect)
        return lines

    def value(self, e: n.Expr) -> str:
        """A card's field value in the gallery: plain words, keywords linked to the glossary."""
        if type(e) is n.IntLit:  # most values: as english.expr writes them, without looking
            text = self.numbers.get(e.value)
            if text is None:
                text = self.numbers[e.value] = str(e.value)
            return text
        if type(e) is n.BoolLit:
            return "yes" if e.value else "no"
        if isinstance(e, n.ListLit):
            return ", ".join(self.value(item) for item in e.items) or "—"
        if isinstance(e, n.StrLit):
            return md(e.value) or "—"
        if isinstance(e, n.NoneLit):  # an optional field left unset: blank, like "" and []
            return "—"
        if isinstance(e, n.Name):
            symbol = self.model.symbols.names.get(id(e))
            if isinstance(symbol, sym.EnumMember):
                # thousands of cards name the same few members: each is written once
                key = (symbol.enum == "keyword", e.id)
                written = self.members_written.get(key)
                if written is None:
                    written = self.members_written[key] = (
                        self.keyword_link(e.id) if key[0] else md(words(e.id)))
                return written
        return self.english.expr(e)

    def gallery(self, record: RecordInfo) -> dict[str, Any]:
        data = record.data_fields()
        group_field = next((name for name, f in data.items()
                            if isinstance(f.type, t.EnumT) and f.type.name != "keyword"), None)
        shown = [name for name, f in data.items()
                 if name != group_field and not isinstance(f.type, t.EffectT)]
        groups: list[tuple[str, list[EntryInfo]]] = []
        if group_field is None:
            groups.append(("", list(record.entries)))
        else:
            field_type = data[group_field].type
            assert isinstance(field_type, t.EnumT)
            default = data[group_field].default
            members: dict[str, list[EntryInfo]] = {
                member: [] for member in self.model.enums[field_type.name].members}
            for entry in record.entries:
                value = entry.values.get(group_field, default)
                if isinstance(value, n.Name) and value.id in members:
                    members[value.id].append(entry)
            groups += [(member, cards) for member, cards in members.items() if cards]
        result = []
        for member, cards in groups:
            # a field no card of the group sets stays at its default: noise, left out
            given: set[str] = set()
            for entry in cards:
                given.update(entry.values)
            columns = [name for name in shown if data[name].default is None or name in given]
            title = md(record.name) + (f": {md(words(member))}" if member else "")
            result.append(GalleryGroup(
                self, record, title, f"cards-{slug(record.name)}"
                + (f"-{slug(member)}" if member else ""), [md(words(c)) for c in columns],
                columns, cards))
        files = list(dict.fromkeys(e.span.file for e in record.entries))
        return {"name": md(record.name), "count": len(record.entries),
                "files": [code(f) for f in files], "groups": result}

    def card_effects(self, record: RecordInfo, entry: EntryInfo) -> list[CardEffect]:
        """What a card's effects do, in words, effect by effect."""
        effects = []
        for name, effect in self.effects(record, entry):
            heading = self.effect_headings.get((record.name, name))
            if heading is None:
                info = record.fields[name]
                assert isinstance(info.type, t.EffectT)
                params = ", ".join(f"*{md(p)}*" for p, _ in info.type.params)
                title = sentence(md(words(name)))
                heading = self.effect_headings[(record.name, name)] = (
                    title, params, inline_html(title), inline_html(params))
            effects.append(CardEffect(*heading, self.effect_lines(effect)))
        return effects
