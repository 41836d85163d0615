"""Docs generation: the checked model → a Markdown and an HTML rulebook, through Jinja2 templates.

Everything on the page comes from the rules source: declarations, `##` doc comments, decisions,
the seed block, and the rules themselves rendered in English by compiler.english. Card games
also get a card gallery (each card's effects in English, from its effect statements), a keyword
glossary and the deck rules with the shipped decks.

One context feeds both templates. Its strings are Markdown fragments whose rulebook text went
through `english.md`; the HTML template (autoescaped) turns them into HTML with `html_inline`
and `html_bullets`, which escape every character of text. Templates are only ever loaded from
compiler/templates: rulebook text is data, never template source. The card gallery's rows and
texts, one per card, are written in Python by GalleryGroup while the templates render (the
same fragments through the same functions, Markup only of what they made).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from compiler import symbols as sym
from compiler import types as t
from compiler.ast_walk import walk_rules
from compiler.diagrams import board_svg, turn_sequence_svg
from compiler.english import English, anchor, code, md, md_paragraph, sentence, words
from compiler.model import BoardInfo, EntryInfo, FieldInfo, GameModel, RecordInfo
from dsl import nodes as n

TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass
class Outcome:
    where: str
    conditions: list[str]
    result: str
    line: int


@dataclass
class Edge:
    """A transition of the turn sequence: phase names, "[*]" for the start or the end of the
    game; `label` as the Mermaid diagram writes it, `condition` alone (without "game over")."""

    source: str
    target: str
    label: str
    condition: str = ""


def mermaid_label(text: str) -> str:
    """A transition's words as a Mermaid label can hold them: Mermaid reads brackets, quotes,
    commas and colons as its own syntax, so those become spaces (the HTML's SVG and the
    transitions in words keep the condition whole)."""
    text = re.sub(r"[^A-Za-z0-9_ =<>!.+-]", " ", text)
    return re.sub(r"\s+", " ", text).strip()[:48]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def is_keywords(type_: t.Type) -> bool:
    """A field holding keywords: `keyword`, `keyword?` or a list of them."""
    inner = t.strip_optional(type_)
    if isinstance(inner, t.ListT):
        inner = t.strip_optional(inner.element)
    return inner == t.EnumT("keyword")


def keyword_names(value: n.Expr | None) -> list[str]:
    items = value.items if isinstance(value, n.ListLit) else (value,)
    return [item.id for item in items if isinstance(item, n.Name)]


def _is_keyword(symbol: sym.NameSymbol | None) -> bool:
    """Whether a name refers to a keyword (a member of the built-in enum `keyword`)."""
    return isinstance(symbol, sym.EnumMember) and symbol.enum == "keyword"


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

    builder: DocBuilder
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
        """A card's row after its name: its value of each column, as DocBuilder.value writes
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


class DocBuilder:
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
        # The keywords an effect text names, by its tree, as (keyword, file, line).
        self.keywords_named: dict[int, list[tuple[str, str, int]]] = {}
        self.members_written: dict[tuple[bool, str], str] = {}
        self.numbers: dict[int, str] = {}  # a card set's numbers, each written once
        self.effect_headings: dict[tuple[str, str], tuple[str, str, str, str]] = {}
        self.file_names: dict[str, str] = {}
        # HTML of the gallery: short cells that repeat from card to card (numbers, colours,
        # keywords), and each shared effect text's list of lines.
        self.html_cells: dict[str, str] = {}
        self.html_effects: dict[int, tuple[list[str], str]] = {}

    def has_gallery(self, record: RecordInfo) -> bool:
        if not record.is_card or not record.entries:
            return False
        return (any(isinstance(f.type, t.EffectT) for f in record.fields.values())
                or any(e.span.file in self.model.card_sets for e in record.entries))

    def where(self, span_file: str, lines: Iterable[int]) -> str:
        """`line 12` in the rulebook, `core.cards.yaml:12` elsewhere."""
        found = sorted(set(lines))
        if span_file == self.model.source_file:
            return ("line " if len(found) == 1 else "lines ") + ", ".join(map(str, found))
        name = md(Path(span_file).name)
        return ", ".join(f"{name}:{line}" for line in found)

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
            known = self.html_effects[id(lines)] = (lines, str(html_bullets(lines)))
        return known[1]

    def html_done(self) -> None:
        """Forget what the HTML gallery remembered, before the Markdown is written."""
        self.html_cells.clear()
        self.html_effects.clear()

    def card_link(self, record: str, name: str) -> str:
        found = self.card_anchors.get((record, name))
        return f"[{md(name)}](#{found})" if found else md(name)

    def keyword_link(self, name: str) -> str:
        return f"[{md(words(name))}](#keyword-{anchor(name)})"

    def source_text(self, node: n.Node) -> str:
        span = node.span
        source = self.model.sources.get(span.file)
        if source is None:
            return ""
        if span.line == span.end_line:
            return source.line(span.line)[span.column - 1 : span.end_column - 1]
        return source.line(span.line)[span.column - 1 :] + " …"

    def label(self, conditions: list[n.Expr]) -> str:
        """The innermost condition of a goto, as written in the rulebook (on one line)."""
        if not conditions:
            return ""
        last = conditions[-1]
        if isinstance(last, n.Not) and last.span == last.operand.span:
            return "otherwise"
        return " ".join(self.source_text(last).split())

    # ---- walking bodies for gotos and endings
    def walk(self, statements: tuple[n.Stmt, ...], conds: list[n.Expr], found: list[
        tuple[n.Stmt, list[n.Expr]]
    ]) -> None:
        for stmt in statements:
            if isinstance(stmt, (n.Goto, n.Win, n.Lose, n.DrawGame)):
                found.append((stmt, conds))
            elif isinstance(stmt, n.CallStmt) and isinstance(stmt.call, n.Call):
                info = self.model.procedures.get(stmt.call.func)
                if info is not None and isinstance(info.decl, n.ProcedureDecl):
                    self.walk(info.decl.body.statements, conds, found)
            elif isinstance(stmt, n.If):
                negated: list[n.Expr] = []
                for cond, body in stmt.branches:
                    self.walk(body.statements, [*conds, *negated, cond], found)
                    negated.append(n.Not(cond, span=cond.span))
                if stmt.otherwise is not None:
                    self.walk(stmt.otherwise.statements, [*conds, *negated], found)
            elif isinstance(stmt, (n.For, n.Repeat)):
                self.walk(stmt.body.statements, conds, found)

    def exits(self, blocks: list[n.Block | None]) -> list[tuple[n.Stmt, list[n.Expr]]]:
        found: list[tuple[n.Stmt, list[n.Expr]]] = []
        for block in blocks:
            if block is not None:
                self.walk(block.statements, [], found)
        return found

    def edges(self) -> list[Edge]:
        m = self.model
        edges: list[Edge] = []
        assert m.setup is not None
        for stmt, conds in self.exits([m.setup.body]):
            if isinstance(stmt, n.Goto):
                label = self.label(conds)
                edges.append(Edge("[*]", stmt.phase, mermaid_label(label), label))
        for phase in m.phases.values():
            decl = phase.decl
            blocks = [decl.enter, decl.done, *decl.checkpoints,
                      *(a.decl.body for a in phase.actions)]
            for stmt, conds in self.exits(blocks):
                target = stmt.phase if isinstance(stmt, n.Goto) else "[*]"
                condition = label = self.label(conds)
                if not isinstance(stmt, n.Goto):
                    label = (label + " " if label else "") + "game over"
                edge = Edge(phase.name, target, mermaid_label(label), condition)
                if edge not in edges:
                    edges.append(edge)
        return edges

    def transition_text(self, edge: Edge) -> str:
        """A transition in words, for the HTML beside the turn sequence's picture."""
        def place(name: str, end: str) -> str:
            return end if name == "[*]" else f"[{md(words(name))}](#phase-{anchor(name)})"

        text = (f"From {place(edge.source, 'the start')} "
                f"to {place(edge.target, 'the end of the game')}")
        if edge.condition == "otherwise":
            return text + ", otherwise."
        return text + (f", when {code(edge.condition)}." if edge.condition else ".")

    def board_diagram(self, board: BoardInfo) -> Markup:
        """The picture of a graph or grid board: its nodes and borders (SVG, inline)."""
        links = [(i, j) for i, row in enumerate(board.neighbours) for j in row if i < j]
        return Markup(board_svg(f"{self.model.title}: the board {board.name}",
                                [node.capitalize() for node in board.nodes], links,
                                board.coords))

    def outcomes(self) -> list[Outcome]:
        m = self.model
        places: list[tuple[str, list[n.Block | None]]] = []
        for phase in m.phases.values():
            decl = phase.decl
            places.append((f"phase {words(phase.name)}",
                           [decl.enter, decl.done, *decl.checkpoints,
                            *(a.decl.body for a in phase.actions)]))
        for checkpoint in m.checkpoints:
            places.append((f"checkpoint {words(checkpoint.name)}", [checkpoint.body]))
        result: list[Outcome] = []
        known: dict[tuple[int, ...], list[tuple[list[str], str, int]]] = {}

        def endings(blocks: list[n.Block | None]) -> list[tuple[list[str], str, int]]:
            # cards that share an effect text share its tree: it is put in words once
            key = tuple(id(block) for block in blocks)
            found = known.get(key)
            if found is None:
                found = known[key] = self.endings(blocks)
            return found

        for where, blocks in places:
            for conditions, text, line in endings(blocks):
                result.append(Outcome(where, list(conditions), text, line))
        for record in self.gallery_types:
            for entry in record.entries:
                for field_name, effect in self.effects(record, entry):
                    found = endings([effect.body])
                    if not found:
                        continue  # most effects: no card link written for nothing
                    where = (f"{md(words(field_name))} of card "
                             f"{self.card_link(record.name, entry.name)}")
                    for conditions, text, line in found:
                        result.append(Outcome(where, list(conditions), text, line))
        return result

    def endings(self, blocks: list[n.Block | None]) -> list[tuple[list[str], str, int]]:
        """(conditions, result, line) of each way the blocks end the game, in words."""
        found = []
        for stmt, conds in self.exits(blocks):
            if isinstance(stmt, n.Goto):
                continue
            text = self.english.stmt(stmt, 0)[0].removeprefix("- ")
            found.append(([self.english.expr(c) for c in conds], text, stmt.span.line))
        return found

    # ---- tables
    def field_rows(self, fields: dict[str, FieldInfo]) -> list[dict[str, str]]:
        rows = []
        for info in fields.values():
            default = self.english.expr(info.default) if info.default is not None else "—"
            type_text = str(info.type) + (" per player" if info.per_player else "")
            visibility = {"public": "everyone", "secret": "its player only",
                          "hidden": "nobody"}.get(info.visibility, info.visibility)
            rows.append({"name": code(info.name), "type": md(type_text), "default": default,
                         "visibility": visibility, "doc": md(info.doc)})
        return rows

    def entry_table(self, record_name: str) -> dict[str, Any]:
        record = self.model.records[record_name]
        data = record.data_fields()
        gallery = record in self.gallery_types
        columns = list(data)
        rows = []
        for entry in [] if gallery else record.entries:
            cells = []
            for column in columns:
                expr = entry.values.get(column, record.fields[column].default)
                cells.append(self.english.expr(expr) if expr is not None else "—")
            rows.append({"name": md(entry.name), "cells": cells,
                         "description": md(entry.description)})
        fields = []
        for info in data.values() if gallery else ():
            default = "—"
            if isinstance(info.type, t.EffectT):
                default = self.english.expr(info.default) if info.default else "no effect"
            elif info.default is not None:
                default = self.english.expr(info.default)
            fields.append({"name": code(info.name), "type": md(str(info.type)),
                           "default": default, "doc": md(info.doc)})
        requires = self.english.card_requires(
            record.requires, [name for name, f in data.items()
                              if not isinstance(f.type, t.EffectT)])
        return {"name": md(record_name), "columns": [md(words(c)) for c in columns],
                "rows": rows, "doc": md_paragraph(record.doc), "is_card": record.is_card,
                "has_descriptions": any(e.description for e in record.entries),
                "gallery": gallery, "count": len(record.entries), "fields": fields,
                "requires": requires,
                "per_card": self.field_rows({name: f for name, f in record.fields.items()
                                             if f.per_card})}

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

    # ---- keywords
    def rule_places(self) -> list[tuple[str | Callable[[], str], list[n.Node]]]:
        """Every place rules are written, as (how the rulebook names it, its nodes). A card's
        effect is named by a function: the name is written only if it names a keyword."""
        m = self.model
        places: list[tuple[str | Callable[[], str], list[n.Node]]] = []
        if m.setup is not None:
            places.append(("[setup](#setup)", [m.setup.body]))
        for phase in m.phases.values():
            decl = phase.decl
            nodes: list[n.Node] = [b for b in (decl.enter, decl.done, decl.actor)
                                   if b is not None]
            places.append((f"phase [{md(words(phase.name))}](#phase-{anchor(phase.name)})",
                           [*nodes, *decl.checkpoints]))
            for action in phase.actions:
                places.append((f"action [{md(words(action.name))}](#{anchor(action.name)}) "
                               f"of phase {md(words(phase.name))}", [action.decl]))
        for info in [*m.procedures.values(), *m.functions.values()]:
            kind = "function" if isinstance(info.decl, n.FunctionDecl) else "procedure"
            places.append((f"{kind} [{md(words(info.name))}](#{anchor(info.name)})",
                           [info.decl]))
        for trigger in m.triggers:
            places.append((f"trigger *{md(words(trigger.name))}*", [trigger]))
        for checkpoint in m.checkpoints:
            places.append((f"checkpoint *{md(words(checkpoint.name))}*", [checkpoint]))
        if m.deck_rules is not None:
            places.append(("the [deck rules](#deck-construction)", [m.deck_rules.body]))
        for record in m.records.values():
            if record.requires:
                places.append((f"the requirements of every {md(record.name)}",
                               list(record.requires)))
            if record in self.gallery_types:
                for name, field_info in record.data_fields().items():
                    default = field_info.default
                    if isinstance(default, n.EffectLit) and default.body.statements:
                        places.append((f"the default {md(words(name))} of every "
                                       f"{md(record.name)}", [default]))
                for entry in record.entries:
                    for name, value in entry.values.items():
                        if isinstance(value, n.EffectLit):
                            places.append((partial(self.effect_place, record.name, entry.name,
                                                   name), [value]))
        return places

    def effect_place(self, record: str, card: str, field_name: str) -> str:
        return f"the {md(words(field_name))} of {self.card_link(record, card)}"

    def keywords_in(self, root: n.Node, known: dict[str, list[str]]) -> list[tuple[str, str, int]]:
        """(keyword, file, line) of each keyword named under root, in order; an effect text
        that cards share (its EffectLits differ, its tree is one) is walked once."""
        top = root.body if isinstance(root, n.EffectLit) else root  # an EffectLit is no name
        found = self.keywords_named.get(id(top))
        if found is None:
            names = self.model.symbols.names
            found = [(node.id, node.span.file, node.span.line) for node in n.walk(top)
                     if isinstance(node, n.Name) and node.id in known
                     and _is_keyword(names.get(id(node)))]
            self.keywords_named[id(top)] = found
        return found

    def keywords(self) -> list[dict[str, Any]]:
        m = self.model
        uses: dict[str, list[str]] = {name: [] for name in m.keywords}
        for label, nodes in self.rule_places():
            lines: dict[str, dict[str, list[int]]] = {}
            for root in nodes:
                for keyword, file, line in self.keywords_in(root, uses):
                    lines.setdefault(keyword, {}).setdefault(file, []).append(line)
            if lines and not isinstance(label, str):
                label = label()
            for keyword, files in lines.items():
                where = "; ".join(self.where(f, found) for f, found in files.items())
                uses[keyword].append(f"{label} ({where})")
        holders: dict[str, list[str]] = {name: [] for name in m.keywords}
        for record in m.records.values():
            fields = [name for name, f in record.data_fields().items() if is_keywords(f.type)]
            for entry in record.entries:
                for name in fields:
                    value = entry.values.get(name, record.fields[name].default)
                    for keyword in dict.fromkeys(keyword_names(value)):
                        if keyword in holders:
                            note = f" ({md(words(name))})" if len(fields) > 1 else ""
                            holders[keyword].append(
                                self.card_link(record.name, entry.name) + note)
        return [{"name": sentence(md(words(name))), "anchor": f"keyword-{anchor(name)}",
                 "text": md(decl.text), "doc": md_paragraph(decl.doc),
                 "line": self.where(decl.span.file, [decl.span.line]),
                 "uses": uses[name], "cards": holders[name]}
                for name, decl in m.keywords.items()]

    # ---- decks
    def decks(self) -> dict[str, Any] | None:
        m = self.model
        rules = m.deck_rules
        if rules is None:
            return None
        decks = []
        for deck in m.decks:
            decks.append({
                "title": md(deck.title), "name": code(deck.name),
                "size": sum(entry.count for entry in deck.entries),
                "source": code(deck.span.file),
                "cards": [{"card": self.card_link(rules.card_type, entry.card),
                           "count": entry.count} for entry in deck.entries],
            })
        return {"card_type": md(rules.card_type), "doc": md_paragraph(rules.doc),
                "line": self.where(rules.span.file, [rules.span.line]),
                "rules": self.english.deck_rules(rules), "decks": decks}

    def coverage(self) -> list[dict[str, str]]:
        m = self.model
        lines: dict[str, list[int]] = {}
        for node in walk_rules(m.modules):  # an effect text cards share is looked at once
            for annotation in getattr(node, "annotations", ()):
                lines.setdefault(annotation.rule, []).append(node.span.line)
        rows = []
        for seed in m.seeds:
            for rule in seed.rules:
                found = sorted(set(lines.get(rule.id, [])))
                if rule.omitted is not None:
                    status = "not encoded: " + md(rule.omitted)
                elif found:
                    status = "encoded at " + ", ".join(f"line {line}" for line in found)
                else:
                    status = "**not yet encoded**"
                rows.append({"id": md(rule.id), "text": md(rule.text), "status": status})
        return rows

    def context(self) -> dict[str, Any]:
        m = self.model
        en = self.english
        zones = []
        for zone in m.zones.values():
            zones.append({
                "name": code(zone.name), "holds": md(zone.card_type),
                "per": md(", ".join(zone.per)) or "one for the game",
                "ordered": "ordered" if zone.ordered else "unordered",
                "visibility": {
                    "public": "everyone sees the cards",
                    "owner": "its owner sees the cards; others see how many",
                    "hidden": "nobody sees the cards, only how many",
                    "secret": "face down: its owner sees them, others only once revealed",
                    "private": "its owner sees the cards; others see nothing, not even how many",
                }[zone.visibility],
                "capacity": str(zone.capacity) if zone.capacity is not None else "—",
                "doc": md(zone.doc),
            })
        boards = []
        for board in m.boards.values():
            boards.append({
                "name": md(board.name), "kind": board.kind,
                "source": code(board.source) if board.source else "",
                "doc": md_paragraph(board.doc),
                "nodes": [{"name": md(node.capitalize()),
                           "neighbours": ", ".join(md(board.nodes[j].capitalize())
                                                   for j in board.neighbours[i])}
                          for i, node in enumerate(board.nodes)],
                "links": sorted({(board.nodes[min(i, j)], board.nodes[max(i, j)])
                                 for i, row in enumerate(board.neighbours) for j in row}),
                "fields": self.field_rows(board.fields),
                "diagram": self.board_diagram(board) if board.kind != "hex" else Markup(""),
                "picture": board_picture_name(m.name, board.name) if board.kind == "hex"
                and board.nodes else "",
                "variants": [{"game": code(game), "source": code(source), "plain": game,
                              "picture": board_picture_name(game, board.name)}
                             for game, source in m.variants] if board.kind == "hex" else [],
            })
        phases = []
        for phase in m.phases.values():
            decl = phase.decl
            actions = []
            for action in phase.actions:
                says = action.decl.says or "{actor} " + words(action.name)
                says = re.sub(r"\{(\w+)\}", r"‹\1›", says)
                actions.append({
                    "name": md(words(action.name)), "anchor": anchor(action.name),
                    "doc": md_paragraph(action.decl.doc), "says": md(says),
                    "params": [{"name": md(name), "type": md(str(type_)),
                                "domain": en.expr(domain) if domain is not None
                                else f"any {md(str(type_))}"}
                               for name, type_, domain in action.params],
                    "requires": en.block(action.requires),
                    "effects": en.block(action.effects),
                    "line": action.decl.span.line,
                })
            phases.append({
                "name": md(words(phase.name)), "anchor": anchor(phase.name),
                "doc": md_paragraph(decl.doc), "line": decl.span.line,
                "enter": en.block(decl.enter.statements) if decl.enter else [],
                "actor": en.expr(decl.actor) if decl.actor is not None else None,
                "actions": actions,
                "done": en.block(decl.done.statements) if decl.done else [],
                "checkpoints": [en.block(b.statements) for b in decl.checkpoints],
            })
        callables = []
        for info in [*m.procedures.values(), *m.functions.values()]:
            rule = info.decl
            is_function = isinstance(rule, n.FunctionDecl)
            body = ([f"- It is {en.expr(rule.body)}."] if isinstance(rule, n.FunctionDecl)
                    else en.block(rule.body.statements) if isinstance(rule, n.ProcedureDecl)
                    else [])
            callables.append({
                "name": md(words(info.name)), "anchor": anchor(info.name),
                "kind": "function" if is_function else "procedure",
                "params": ", ".join(f"*{md(p)}* ({md(str(ty))})" for p, ty in info.params),
                "returns": md(str(info.returns)) if info.returns is not None else "",
                "doc": md_paragraph(info.doc), "body": body, "line": rule.span.line,
            })
        options = []
        for option in m.options.values():
            used = sorted({node.span.line for module in m.modules for node in n.walk(module)
                           if isinstance(node, n.Name) and node.id == option.name
                           and isinstance(m.symbols.names.get(id(node)), sym.Option)})
            options.append({"name": code(option.name), "type": md(str(option.type)),
                            "default": en.expr(option.default),
                            "description": md(option.description),
                            "used": ", ".join(str(line) for line in used)})
        triggers = [{"name": md(words(tr.name)), "event": md(words(tr.event)),
                     "when": en.expr(tr.when) if tr.when is not None else "",
                     "body": en.block(tr.body.statements)} for tr in m.triggers]
        records = [self.entry_table(r) for r in m.records if m.records[r].entries]
        edges = self.edges()
        gallery = [self.gallery(r) for r in self.gallery_types]
        keywords = self.keywords()
        decks = self.decks()
        sections = [("Variants", "variants"), ("Components", "components")]
        if decks is not None:
            sections.append(("Deck construction", "deck-construction"))
        if keywords:
            sections.append(("Keywords", "keywords"))
        sections += [("Setup", "setup"), ("The turn sequence", "the-turn-sequence"),
                     ("Rules in detail", "rules-in-detail"),
                     ("How the game ends", "how-the-game-ends")]
        if gallery:
            sections.append(("Card gallery", "card-gallery"))
        sections += [("Designer's decisions", "designers-decisions"),
                     ("Coverage of the seed rules", "coverage-of-the-seed-rules")]
        return {
            "title": md(m.title), "name": m.name, "doc": md_paragraph(m.doc),
            "source": md(m.source_file), "source_code": code(m.source_file),
            "title_plain": m.title, "source_plain": m.source_file,
            "sections": [{"title": title, "anchor": a} for title, a in sections],
            "gallery": gallery, "keywords": keywords, "decks": decks,
            "players": (str(m.min_players) if m.min_players == m.max_players
                        else f"{m.min_players} to {m.max_players}"),
            "player_names": ", ".join(md(p) for p in m.player_names),
            "options": options,
            "enums": [{"name": md(e.name), "members": ", ".join(
                           self.keyword_link(x) if e.name == "keyword" else md(x)
                           for x in e.members),
                       "doc": md(e.doc)} for e in m.enums.values()],
            "records": records,
            "boards": boards, "zones": zones,
            "game_fields": self.field_rows(m.game_fields),
            "player_fields": self.field_rows(m.player_fields),
            "setup": en.block(m.setup.body.statements) if m.setup else [],
            "edges": edges, "phases": phases,
            "turn_sequence": Markup(turn_sequence_svg(
                f"{m.title}: the turn sequence",
                [(name, words(name)) for name in m.phases],
                [(None if e.source == "[*]" else e.source,
                  None if e.target == "[*]" else e.target, e.condition) for e in edges])),
            "transitions": [self.transition_text(e) for e in edges], "callables": callables,
            "triggers": triggers, "outcomes": self.outcomes(),
            "decisions": [{"id": md(d.id), "title": md(d.title), "text": md(d.text)}
                          for d in m.decisions],
            "seeds": [md(s.path) for s in m.seeds],
            "card_fields": [r for r in records if r["per_card"]],
            "coverage": self.coverage(),
            "has_lists": any(isinstance(f.type, t.ListT) for f in m.game_fields.values()),
        }


# ---- HTML: the same context, its Markdown fragments turned into escaped HTML
_INLINE = re.compile(
    r"\\(?P<escaped>[!-/:-@\[-`{-~])"  # a backslash escape of ASCII punctuation
    r"|(?P<entity>&(?:amp|lt|gt|quot|#[0-9]+|#x[0-9a-fA-F]+);)"
    r"|(?P<ticks>`+)"
    r"|(?P<stars>\*+)"
    r"|(?P<open>\[)"
    r"|\]\((?P<href>[^()\s]*)\)"
)


def escape_html(text: str) -> str:
    """markupsafe.escape(text) as a plain str: `&`, `<`, `>`, `'` and `"` as entities. Without
    making Markup objects, which gallery cells are built from by the hundred thousand."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


def html_inline(text: str) -> Markup:
    """A one-line Markdown fragment as written by this module and compiler.english (escaped
    text, `*em*`, `**strong**`, code spans, `[links](#anchors)`) as HTML. Every character of
    text is escaped; only the markers become tags."""
    return Markup(inline_html(str(text)))


# Fragments whose only markers are links `[words](#anchor)` with plain words (and no star or
# bracket in the anchor either), and single stars (`*em*`), most of those in a card gallery
# (keywords linked, effects' parameters): each link and each pair of stars becomes its tag, as
# the parse in _parse_inline would make it.
_LINKS_AND_STARS = re.compile(
    r"(?:[^\\`*\[\]&]|\[[^\\`*\[\]&]*\]\([^()\s*\[\]]*\)|(?<!\*)\*(?!\*))*")
_LINK = re.compile(r"\[([^\[\]]*)\]\(([^()\s]*)\)")


def inline_html(text: str) -> str:
    """html_inline, as a plain str."""
    if _INLINE.search(text) is None:
        return escape_html(text)  # most gallery cells: no markers, nothing to parse
    if _LINKS_AND_STARS.fullmatch(text) is not None and text.count("*") % 2 == 0:
        # Escaping leaves brackets, parentheses and stars alone. Split, not sub with a
        # template: Python 3.11 expands a template match by match in Python.
        parts = _LINK.split(escape_html(text))  # text, (words, anchor, text)...
        html = "".join([parts[0], *(f'<a href="{parts[i + 1]}">{parts[i]}</a>{parts[i + 2]}'
                                    for i in range(1, len(parts), 3))])
        if "*" in html:  # what is between two stars, the first pair and on, is emphasised
            pieces = html.split("*")
            html = "".join([piece if i % 2 == 0 else f"<em>{piece}</em>"
                            for i, piece in enumerate(pieces)])
        return html
    return _parse_inline(text)


def _parse_inline(text: str) -> str:
    """html_inline of any fragment, marker by marker."""
    frames: list[tuple[str, list[str]]] = [("", [])]
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() < position:
            continue  # inside a code span already consumed
        out = frames[-1][1]
        out.append(escape_html(text[position:match.start()]))
        position = match.end()
        kind = match.lastgroup
        if kind == "escaped":
            out.append(escape_html(match.group("escaped")))
        elif kind == "entity":
            out.append(escape_html(html.unescape(match.group("entity"))))
        elif kind == "ticks":
            ticks = match.group("ticks")
            close = re.compile(rf"(?<!`){ticks}(?!`)").search(text, position)
            if close is None:
                out.append(ticks)
                continue
            content = text[position:close.start()].replace("\\|", "|")
            if len(content) > 1 and content[0] == content[-1] == " " and content.strip():
                content = content[1:-1]
            out.append(f"<code>{escape_html(content)}</code>")
            position = close.end()
        elif kind == "stars":
            stars = len(match.group("stars"))
            while stars:
                top = frames[-1][0]
                size = 2 if stars >= 2 and top != "em" else 1
                tag = "strong" if size == 2 else "em"
                if top == tag:
                    _, parts = frames.pop()
                    frames[-1][1].append(f"<{tag}>{''.join(parts)}</{tag}>")
                else:
                    frames.append((tag, []))
                stars -= size
        elif kind == "open":
            frames.append(("a", []))
        elif frames[-1][0] == "a":
            _, parts = frames.pop()
            href = escape_html(match.group("href"))
            frames[-1][1].append(f'<a href="{href}">{"".join(parts)}</a>')
        else:
            out.append(escape_html(match.group(0)))
    frames[-1][1].append(escape_html(text[position:]))
    while len(frames) > 1:  # unclosed markers stay as the text they were
        tag, parts = frames.pop()
        marker = {"strong": "**", "em": "*", "a": "["}[tag]
        frames[-1][1].append(marker + "".join(parts))
    return "".join(frames[0][1])


def html_bullets(lines: list[str]) -> Markup:
    """Nested Markdown bullet lines ("  " per level, then "- ") as nested HTML lists."""
    out: list[str] = []
    depth = -1
    for line in lines:
        item = line.lstrip(" ")
        level = (len(line) - len(item)) // 2
        item = item.removeprefix("- ")
        if level > depth:
            out.append("<ul><li>" * (level - depth))
        else:
            out.append("</li></ul>" * (depth - level) + "</li><li>")
        out.append(inline_html(item))
        depth = level
    out.append("</li></ul>" * (depth + 1))
    return Markup("".join(out))


def environment(html_output: bool = False) -> jinja2.Environment:
    """Templates come only from compiler/templates; rulebook text is only ever data."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        # Markdown: every rulebook string is escaped by english.md first. HTML: autoescape,
        # and the only Markup is what html_inline and html_bullets build from escaped text.
        autoescape=html_output,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["inline"] = html_inline
    env.filters["bullets"] = html_bullets
    return env


def render_markdown(context: dict[str, Any]) -> str:
    template = environment().get_template("rulebook.md.j2")
    return _render(template, context, re.compile(r"\n{3,}"), "\n\n")


def render_html(context: dict[str, Any]) -> str:
    template = environment(html_output=True).get_template("rulebook.html.j2")
    return _render(template, context, re.compile(r"\n\s*\n"), "\n")


_NOT_SPACE = re.compile(r"\S")


def _render(
    template: jinja2.Template, context: dict[str, Any], blanks: re.Pattern[str], by: str
) -> str:
    """What the template writes with runs of blank lines (matches of `blanks`, made only of
    whitespace) replaced `by`, stripped at the end, ending in one newline.

    Done a thousand pieces at a time: joining all of a 10,000-card gallery at once (half a
    million pieces), then copying the text for each fix-up, took several times the memory of
    the result. A piece is cut after its last non-space character, so that no run of blank
    lines is split between pieces. The pieces are added to the text as they are done: CPython
    grows a str that nothing else refers to in place (`+=` on a local), so the text is never
    beside a list of its pieces or a copy of itself (but where its first character beyond
    ASCII, then beyond Latin-1, comes)."""
    text = ""
    pending: list[str] = []
    for piece in template.generate(context):
        pending.append(piece)
        if len(pending) == 1024:
            chunk = "".join(pending)
            pending.clear()
            cut = _last_not_space(chunk) + 1
            text += blanks.sub(by, chunk[:cut])
            pending.append(chunk[cut:])
            del chunk
    text += blanks.sub(by, "".join(pending)).rstrip()
    del pending
    text += "\n"
    return text


def _last_not_space(text: str) -> int:
    """The position of the last non-space character of text, -1 when there is none."""
    end = len(text)
    while end > 0:
        start = max(0, end - 256)
        found = list(_NOT_SPACE.finditer(text, start, end))
        if found:
            return found[-1].start()
        end = start
    return -1


def generate_docs(model: GameModel) -> str:
    return render_markdown(DocBuilder(model).context())


def generate_html(model: GameModel) -> str:
    return render_html(DocBuilder(model).context())


_TERRAIN_COLOURS = {
    "plains": "#d6eaa8", "plain": "#d6eaa8", "grass": "#d6eaa8", "grassland": "#d6eaa8",
    "forest": "#6fae5c", "woods": "#6fae5c", "water": "#84bfe8", "sea": "#84bfe8",
    "lake": "#84bfe8", "river": "#84bfe8", "mountain": "#a8a29a", "mountains": "#a8a29a",
    "hill": "#c7b98f", "hills": "#c7b98f", "canyon": "#c98b5b", "desert": "#ecd9a0",
    "swamp": "#8fa37a", "snow": "#f2f4f5",
}
_PALETTE = ("#e6c87a", "#9ecae1", "#c7e9c0", "#fdae6b", "#bcbddc", "#d9d9d9", "#fcbba1")


def board_picture_name(game: str, board: str) -> str:
    """The file of a hex board's picture, beside the game's docs (a variant game's too)."""
    return f"{game}.{board.lower()}.svg"


def board_pictures(model: GameModel) -> dict[str, str]:
    """An SVG picture of each hex map: hexes coloured by their first enum field (terrain),
    with the players' marks from player fields, e.g. starting areas."""
    pictures: dict[str, str] = {}
    for board in model.boards.values():
        if board.kind == "hex" and board.nodes:
            pictures[board_picture_name(model.name, board.name)] = hex_svg(model, board.name)
    return pictures


def hex_svg(model: GameModel, name: str) -> str:
    board = model.boards[name]
    size = 22.0
    width = math.sqrt(3) * size
    enum_fields = [f for f in board.initial
                   if f in board.fields and isinstance(t.strip_optional(board.fields[f].type),
                                                       t.EnumT)]
    colour_field: str | None = (
        "terrain" if "terrain" in enum_fields else enum_fields[0] if enum_fields else None
    )
    player_fields = [f for f in board.initial
                     if f in board.fields and isinstance(t.strip_optional(board.fields[f].type),
                                                         t.PlayerT)]
    members: list[str] = []
    if colour_field is not None:
        enum = t.strip_optional(board.fields[colour_field].type)
        assert isinstance(enum, t.EnumT)
        members = model.enums[enum.name].members

    def colour(value: object) -> str:
        text = str(value)
        if text in _TERRAIN_COLOURS:
            return _TERRAIN_COLOURS[text]
        return _PALETTE[members.index(text) % len(_PALETTE)] if text in members else "#eeeeee"

    rows = max(r for r, _ in board.coords) + 1
    columns = max(c for _, c in board.coords) + 1
    total_w = width * (columns + 0.5) + 4
    total_h = size * (1.5 * (rows - 1) + 2) + 4 + (24 if colour_field else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" '
           f'height="{total_h:.0f}" viewBox="0 0 {total_w:.1f} {total_h:.1f}" '
           'font-family="sans-serif">',
           f"<title>{html.escape(model.title)}: {html.escape(name)}</title>"]
    for i, (r, c) in enumerate(board.coords):
        cx = 2 + width * (c + 0.5 * (r & 1)) + width / 2
        cy = 2 + size + 1.5 * size * r
        corners = " ".join(
            f"{cx + size * math.cos(math.radians(60 * k - 30)):.1f},"
            f"{cy + size * math.sin(math.radians(60 * k - 30)):.1f}" for k in range(6))
        fill = colour(board.initial[colour_field][i]) if colour_field else "#eeeeee"
        out.append(f'<polygon points="{corners}" fill="{fill}" stroke="#555" '
                   'stroke-width="1"/>')
        marks = [str(board.initial[f][i]) for f in player_fields if board.initial[f][i] != ""]
        label = html.escape(board.nodes[i])
        out.append(f'<text x="{cx:.1f}" y="{cy - 4:.1f}" font-size="8" '
                   f'text-anchor="middle" fill="#333">{label}</text>')
        if marks:
            out.append(f'<text x="{cx:.1f}" y="{cy + 9:.1f}" font-size="11" '
                       f'font-weight="bold" text-anchor="middle">'
                       f"{html.escape(' '.join(marks))}</text>")
    if colour_field:
        used = [m for m in members if m in {str(v) for v in board.initial[colour_field]}]
        x = 4.0
        y = total_h - 10
        for member in used:
            out.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" '
                       f'fill="{colour(member)}" stroke="#555"/>')
            out.append(f'<text x="{x + 13:.1f}" y="{y:.1f}" font-size="10">'
                       f"{html.escape(member)}</text>")
            x += 18 + 6 * len(member)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def generate_all_docs(model: GameModel) -> tuple[str, str]:
    """The Markdown and the HTML rulebook, from one context."""
    builder = DocBuilder(model)
    context = builder.context()
    # The HTML first: the larger text is joined while the smaller one does not exist yet.
    html = render_html(context)
    builder.html_done()
    return render_markdown(context), html
