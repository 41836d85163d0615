"""Docs generation: the checked model → a Markdown and an HTML rulebook, through Jinja2 templates.

Everything on the page comes from the rules source: declarations, `##` doc comments, decisions,
the seed block, and the rules themselves rendered in English by compiler.english. Card games
also get a card gallery (each card's effects in English, from its effect statements), a keyword
glossary and the deck rules with the shipped decks.

One context feeds both templates. Its strings are Markdown fragments whose rulebook text went
through `english.md`; the HTML template (autoescaped) turns them into HTML with `html_inline`
and `html_bullets` (compiler.doc_html), which escape every character of text. Templates are
only ever loaded from compiler/templates (compiler.doc_render): rulebook text is data, never
template source. The card gallery's rows and texts, one per card, are written in Python by
compiler.doc_gallery while the templates render (the same fragments through the same
functions, Markup only of what they made). Hex maps' pictures: compiler.hexmap. The HTML's
"Rule source" blocks, each declaration's own lines coloured: compiler.doc_source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from markupsafe import Markup

from compiler import symbols as sym
from compiler import types as t
from compiler.ast_walk import names_in_order, walk_rules
from compiler.board_diagram import board_svg
from compiler.doc_gallery import CardGallery
from compiler.doc_render import render_html, render_markdown
from compiler.doc_source import source_block, stylesheet
from compiler.english import (
    anchor,
    code,
    counts_text,
    md,
    md_doc,
    md_doc_paragraph,
    sentence,
    words,
)
from compiler.grid_diagram import (
    MAX_GRID_CELLS,
    diagram_lines,
    diagram_picture_name,
    diagram_svg,
    evaluate_diagrams,
    grid_picture_name,
    grid_svg,
)
from compiler.hexmap import board_picture_name
from compiler.model import BoardInfo, EntryInfo, FieldInfo, GameModel
from compiler.turn_diagram import turn_sequence_svg
from dsl import nodes as n
from dsl.source import Span


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
    back: bool = False  # a `return` to a phase that calls the source
    # the pictures' condition: the innermost alone (the guards around it would fill the
    # arrows); the transitions in words say them all
    short: str = ""


def mermaid_label(text: str) -> str:
    """A transition's words as a Mermaid label can hold them: Mermaid reads brackets, quotes,
    commas and colons as its own syntax, so those become spaces (the HTML's SVG and the
    transitions in words keep the condition whole)."""
    text = re.sub(r"[^A-Za-z0-9_ =<>!.+-]", " ", text)
    return re.sub(r"\s+", " ", text).strip()[:48]


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


class DocBuilder(CardGallery):
    """The templates' context: the rulebook's declarations, turn sequence, outcomes, tables,
    keyword glossary and decks (the card gallery from CardGallery)."""

    def __init__(self, model: GameModel) -> None:
        super().__init__(model)
        # The keywords an effect text names, by its tree, as (keyword, file, line).
        self.keywords_named: dict[int, list[tuple[str, str, int]]] = {}
        # procedure_exits, by the procedure's name
        self.exits_of_procedures: dict[str, list[tuple[n.Stmt, list[n.Expr]]]] = {}

    def where(self, span_file: str, lines: Iterable[int]) -> str:
        """`line 12` in the rulebook, `core.cards.yaml:12` elsewhere."""
        found = sorted(set(lines))
        if span_file == self.model.source_file:
            return ("line " if len(found) == 1 else "lines ") + ", ".join(map(str, found))
        name = md(Path(span_file).name)
        return ", ".join(f"{name}:{line}" for line in found)


    def source_text(self, node: n.Node) -> str:
        span = node.span
        source = self.model.sources.get(span.file)
        if source is None:
            return ""
        if span.line == span.end_line:
            return source.line(span.line)[span.column - 1 : span.end_column - 1]
        return source.line(span.line)[span.column - 1 :] + " …"

    def innermost(self, conditions: list[n.Expr]) -> str:
        """The innermost condition of a goto, as written in the rulebook (on one line)."""
        if not conditions:
            return ""
        last = conditions[-1]
        if isinstance(last, n.Not) and last.span == last.operand.span:
            return "otherwise"
        return " ".join(self.source_text(last).split())

    def label(self, conditions: list[n.Expr]) -> str:
        """The conditions a goto is under, as written in the rulebook (on one line): those of
        the `if`s around it, outermost first, joined by "and" (an `or` among several in
        brackets); an `else` says "otherwise" (the branches before it are not repeated: their
        order says it)."""
        parts: list[tuple[str, bool]] = []  # each condition's text, and whether it is an `or`
        otherwise = False
        for i, condition in enumerate(conditions):
            if isinstance(condition, n.Not) and condition.span == condition.operand.span:
                otherwise = i == len(conditions) - 1
                continue  # an earlier branch that did not hold
            text = " ".join(self.source_text(condition).split())
            parts.append((text, isinstance(condition, n.BinaryOp) and condition.op == "or"
                          and not text.startswith("(")))
        joined = " and ".join(f"({text})" if loose and len(parts) > 1 else text
                              for text, loose in parts)
        if otherwise:
            return joined + ", otherwise" if joined else "otherwise"
        return joined

    # ---- walking bodies for gotos and endings
    def walk(self, statements: tuple[n.Stmt, ...], conds: list[n.Expr], found: list[
        tuple[n.Stmt, list[n.Expr]]
    ]) -> None:
        for stmt in statements:
            if isinstance(stmt, (n.Goto, n.Win, n.Lose, n.DrawGame, n.Return)):
                found.append((stmt, conds))
            elif isinstance(stmt, n.CallStmt) and isinstance(stmt.call, n.Call):
                for inner, inner_conds in self.procedure_exits(stmt.call.func):
                    found.append((inner, [*conds, *inner_conds]))
            elif isinstance(stmt, n.If):
                negated: list[n.Expr] = []
                for cond, body in stmt.branches:
                    self.walk(body.statements, [*conds, *negated, cond], found)
                    negated.append(n.Not(cond, span=cond.span))
                if stmt.otherwise is not None:
                    self.walk(stmt.otherwise.statements, [*conds, *negated], found)
            elif isinstance(stmt, (n.For, n.Repeat)):
                self.walk(stmt.body.statements, conds, found)

    def procedure_exits(self, name: str) -> list[tuple[n.Stmt, list[n.Expr]]]:
        """walk() of a procedure's body, worked out once: thousands of cards' effects call the
        same few procedures, most of which end nothing."""
        found = self.exits_of_procedures.get(name)
        if found is None:
            found = []
            info = self.model.procedures.get(name)
            if info is not None and isinstance(info.decl, n.ProcedureDecl):
                self.walk(info.decl.body.statements, [], found)
            self.exits_of_procedures[name] = found
        return found

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
                short = self.innermost(conds)
                edges.append(Edge("[*]", stmt.phase, mermaid_label(short), self.label(conds),
                                  short=short))
        callers: dict[str, list[str]] = {}  # each called phase: the phases that call it
        returns: list[tuple[str, str, str]] = []  # each `return`: phase, conditions, innermost
        for phase in m.phases.values():
            decl = phase.decl
            blocks = [decl.enter, decl.done, *decl.checkpoints,
                      *(a.decl.body for a in phase.actions)]
            for stmt, conds in self.exits(blocks):
                condition, label = self.label(conds), self.innermost(conds)
                if isinstance(stmt, n.Return):
                    returns.append((phase.name, condition, label))
                    continue
                if isinstance(stmt, n.CallPhase):
                    known = callers.setdefault(stmt.phase, [])
                    if phase.name not in known:
                        known.append(phase.name)
                target = stmt.phase if isinstance(stmt, n.Goto) else "[*]"
                short = label
                if not isinstance(stmt, n.Goto):
                    label = (label + " " if label else "") + "game over"
                edge = Edge(phase.name, target, mermaid_label(label), condition, short=short)
                if edge not in edges:
                    edges.append(edge)
        # `return` goes back to the phase that called: an edge to each that does
        for called, condition, short in returns:
            said = (short + ", " if short else "") + "return"
            for caller in callers.get(called, []):
                edge = Edge(called, caller, mermaid_label(said), condition, back=True,
                            short=said)
                if edge not in edges:
                    edges.append(edge)
        return edges

    def transition_text(self, edge: Edge) -> str:
        """A transition in words, for the HTML beside the turn sequence's picture."""
        def place(name: str, end: str) -> str:
            return end if name == "[*]" else f"[{md(words(name))}](#phase-{anchor(name)})"

        text = (f"From {place(edge.source, 'the start')} "
                f"to {place(edge.target, 'the end of the game')}")
        if edge.back:
            return (f"From {place(edge.source, '')} back to {place(edge.target, '')}, which "
                    f"called it" + (f", when {code(edge.condition)}." if edge.condition
                                    else "."))
        if edge.condition == "otherwise":
            return text + ", otherwise."
        if edge.condition.endswith(", otherwise"):
            return text + f", when {code(edge.condition.removesuffix(', otherwise'))}, otherwise."
        return text + (f", when {code(edge.condition)}." if edge.condition else ".")

    def board_diagram(self, board: BoardInfo) -> Markup:
        """The picture of a graph or grid board: its nodes and borders (SVG, inline); a grid's
        rows and columns labelled, both sides of a facing grid."""
        if board.kind == "grid" and 0 < len(board.nodes) <= MAX_GRID_CELLS:
            return Markup(grid_svg(f"{self.model.title}: the board {board.name}", board))
        links = [(i, j) for i, row in enumerate(board.neighbours) for j in row if i < j]
        return Markup(board_svg(f"{self.model.title}: the board {board.name}",
                                [node.capitalize() for node in board.nodes], links,
                                board.coords))

    def outcomes(self) -> list[Outcome]:
        m = self.model
        places: list[tuple[str, list[n.Block | None]]] = []
        for phase in m.phases.values():
            # where in the phase, as its section says: an ending's moment is part of its when
            decl, name = phase.decl, words(phase.name)
            places.append((f"phase {name}, on entering it", [decl.enter]))
            places += [(f"phase {name}, action {words(a.name)}", [a.decl.body])
                       for a in phase.actions]
            places.append((f"phase {name}, after each action", [*decl.checkpoints]))
            places.append((f"phase {name}, when nobody is left to act", [decl.done]))
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
    def players_text(self) -> str:
        """'2', '2 to 4', '3 to 4 or 6', and the teams: ', in teams of 2'."""
        m = self.model
        text = counts_text(m.player_counts).replace("-", " to ")
        if m.count_lines:  # `players ... if`: each line's counts and when they hold
            lines = [f"{counts_text(c).replace('-', ' to ')} if {self.english.expr(cond)}"
                     for c, cond, _ in m.count_lines]
            if m.always_counts:
                lines.insert(0, counts_text(m.always_counts).replace("-", " to "))
            text = "; ".join(lines)
        if m.team_size is not None:
            text += f", in teams of {self.english.expr(m.team_size)}"
        elif m.team_seats:
            names = m.player_names
            text += ", in teams: " + "; ".join(
                " and ".join(md(names[seat]) for seat in team) for team in m.team_seats)
        return text

    def field_rows(self, fields: dict[str, FieldInfo]) -> list[dict[str, str]]:
        rows = []
        for info in fields.values():
            default = self.english.expr(info.default) if info.default is not None else "—"
            type_text = (str(info.type) + (" per player" if info.per_player else "")
                         + (", shared by the team" if info.per_team else ""))
            visibility = {"public": "everyone", "secret": "its player only",
                          "team": "its player and teammates",
                          "hidden": "nobody"}.get(info.visibility, info.visibility)
            rows.append({"name": code(info.name), "type": md(type_text), "default": default,
                         "visibility": visibility, "doc": md_doc(info.doc)})
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
                           "default": default, "doc": md_doc(info.doc)})
        requires = self.english.card_requires(
            record.requires, [name for name, f in data.items()
                              if not isinstance(f.type, t.EffectT)])
        return {"name": md(record_name), "columns": [md(words(c)) for c in columns],
                "rows": rows, "doc": md_doc_paragraph(record.doc), "is_card": record.is_card,
                "has_descriptions": any(e.description for e in record.entries),
                "gallery": gallery, "count": len(record.entries), "fields": fields,
                "requires": requires,
                "source": source_block(self.model.sources, record.span),
                "per_card": self.field_rows({name: f for name, f in record.fields.items()
                                             if f.per_card})}

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
            nodes: list[n.Node] = [b for b in (decl.enter, decl.done, decl.actor,
                                               decl.responders) if b is not None]
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
            found = [(node.id, node.span.file, node.span.line) for node in names_in_order(top)
                     if node.id in known and _is_keyword(names.get(id(node)))]
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
                 "text": md(decl.text), "doc": md_doc_paragraph(decl.doc),
                 "line": self.where(decl.span.file, [decl.span.line]),
                 "uses": uses[name], "cards": holders[name]}
                for name, decl in m.keywords.items()]

    # ---- glossary
    def glossary(self) -> list[dict[str, Any]]:
        """Every term the rulebook explains with a `##` doc, in alphabetical order: enums and
        their members, zones, game and player fields, the fields of records and card types,
        keywords (their reminder text), phases and options. Undocumented names are left out:
        a glossary explains, and the Components section already lists every name."""
        m = self.model
        found: list[tuple[str, str, str, Span]] = []  # name, what it is, doc, declaration
        for enum in m.enums.values():
            kinds = ", ".join(words(member) for member in enum.members)
            found.append((enum.name, f"one of {kinds}", enum.doc, enum.span))
            if enum.name == "keyword":
                continue  # its members are the keywords, each listed once below
            for member, span in zip(enum.members, enum.member_spans, strict=False):
                found.append((member, f"a {words(enum.name)}", m.doc_above(span), span))
        for zone in m.zones.values():
            found.append((zone.name, "a zone" + (" of each team" if zone.per_team
                                               else " of each player" if "player" in zone.per
                                               else ""), zone.doc, zone.span))
        for info in m.game_fields.values():
            found.append((info.name, "of the game", info.doc, info.span))
        for info in m.player_fields.values():
            found.append((info.name, "of each player", info.doc, info.span))
        for record in m.records.values():
            for info in record.fields.values():
                holder = (f"kept for each {record.name} in play" if info.per_card
                          else f"printed on each {record.name}" if record.is_card
                          else f"of each {record.name}")
                found.append((info.name, holder, info.doc, info.span))
        for name, keyword in m.keywords.items():
            found.append((name, "a keyword", keyword.doc or keyword.text, keyword.span))
        for phase in m.phases.values():
            found.append((phase.name, "a phase", phase.decl.doc, phase.decl.span))
        for option in m.options.values():
            found.append((option.name, "an option", option.description, option.span))
        found.sort(key=lambda item: (words(item[0]).lower(), item[1]))
        return [{"term": md(words(name)), "what": md(what), "doc": md_doc_paragraph(doc),
                 "where": self.where(span.file, [span.line])}
                for name, what, doc, span in found if doc.strip()]

    def diagrams(self) -> list[dict[str, Any]]:
        """Each `diagram`: its picture (inline in the HTML, a file beside the Markdown) and the
        same drawings in words."""
        m = self.model
        return [{"title": md(found.decl.title), "doc": md_doc_paragraph(found.decl.doc),
                 "line": self.where(found.decl.span.file, [found.decl.span.line]),
                 "picture": diagram_picture_name(m.name, found.decl.title),
                 "svg": Markup(diagram_svg(f"{m.title}: {found.decl.title}", found)),
                 "lines": [md(line) for line in diagram_lines(found)]}
                for found in evaluate_diagrams(m)]

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
                "side_size": sum(entry.count for entry in deck.side),
                "side": [{"card": self.card_link(rules.card_type, entry.card),
                          "count": entry.count} for entry in deck.side],
            })
        return {"card_type": md(rules.card_type), "doc": md_doc_paragraph(rules.doc),
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
                "per": md(", ".join(zone.per_words())) or "one for the game",
                "ordered": "ordered" if zone.ordered else "unordered",
                "visibility": {
                    "public": "everyone sees the cards",
                    "owner": "its owner sees the cards; others see how many",
                    "hidden": "nobody sees the cards, only how many",
                    "secret": "face down: its owner sees them, others only once revealed",
                    "private": "its owner sees the cards; others see nothing, not even how many",
                    "team": "its owner and teammates see the cards; others see how many",
                }[zone.visibility],
                "capacity": str(zone.capacity) if zone.capacity is not None else "—",
                "doc": md_doc(zone.doc),
            })
        boards = []
        for board in m.boards.values():
            boards.append({
                "name": md(board.name), "kind": board.kind, "shape": md(grid_shape(board)),
                "source": code(board.source) if board.source else "",
                "doc": md_doc_paragraph(board.doc),
                "nodes": [{"name": md(node.capitalize()),
                           "neighbours": ", ".join(md(board.nodes[j].capitalize())
                                                   for j in board.neighbours[i])}
                          for i, node in enumerate(board.nodes)],
                "links": sorted({(board.nodes[min(i, j)], board.nodes[max(i, j)])
                                 for i, row in enumerate(board.neighbours) for j in row}),
                "fields": self.field_rows(board.fields),
                "diagram": self.board_diagram(board) if board.kind != "hex" else Markup(""),
                "picture": board_picture_name(m.name, board.name) if board.kind == "hex"
                and board.nodes else grid_picture_name(m.name, board.name)
                if board.kind == "grid" and 0 < len(board.nodes) <= MAX_GRID_CELLS else "",
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
                    "doc": md_doc_paragraph(action.decl.doc), "says": md(says),
                    "params": [{"name": md(name), "type": md(str(type_)),
                                "domain": en.expr(domain) if domain is not None
                                else f"any {md(str(type_))}"}
                               for name, type_, domain in action.params],
                    "requires": en.block(action.requires),
                    "effects": en.block(action.effects),
                    "line": action.decl.span.line,
                    "source": source_block(m.sources, action.decl.span),
                })
            phases.append({
                "name": md(words(phase.name)), "anchor": anchor(phase.name),
                "doc": md_doc_paragraph(decl.doc), "line": decl.span.line,
                "enter": en.block(decl.enter.statements) if decl.enter else [],
                "actor": (en.expr(decl.actor) if decl.actor is not None
                          else en.responders(decl.responders)
                          if decl.responders is not None else None),
                "actions": actions,
                "done": en.block(decl.done.statements) if decl.done else [],
                "checkpoints": [en.block(b.statements) for b in decl.checkpoints],
                "source": source_block(m.sources, decl.span,
                                       [action.decl.body.span for action in phase.actions]),
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
                "doc": md_doc_paragraph(info.doc), "body": body, "line": rule.span.line,
                "source": source_block(m.sources, rule.span),
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
                     "body": en.block(tr.body.statements),
                     "source": source_block(m.sources, tr.span)} for tr in m.triggers]
        records = [self.entry_table(r) for r in m.records if m.records[r].entries]
        edges = self.edges()
        gallery = [self.gallery(r) for r in self.gallery_types]
        keywords = self.keywords()
        glossary = self.glossary()
        decks = self.decks()
        sections = [("Variants", "variants"), ("Components", "components")]
        if decks is not None:
            sections.append(("Deck construction", "deck-construction"))
        if glossary:
            sections.append(("Glossary", "glossary"))
        if keywords:
            sections.append(("Keywords", "keywords"))
        sections += [("Setup", "setup"), ("The turn sequence", "the-turn-sequence"),
                     ("Rules in detail", "rules-in-detail"),
                     ("How the game ends", "how-the-game-ends")]
        if gallery:
            sections.append(("Card gallery", "card-gallery"))
        coverage = self.coverage()
        if m.decisions:  # a game of the designer's own has no seed rules to decide on
            sections.append(("Designer's decisions", "designers-decisions"))
        if coverage:
            sections.append(("Coverage of the seed rules", "coverage-of-the-seed-rules"))
        return {
            "title": md(m.title), "name": m.name, "doc": md_doc_paragraph(m.doc),
            "source": md(m.source_file), "source_code": code(m.source_file),
            "title_plain": m.title, "source_plain": m.source_file,
            "source_css": Markup(stylesheet()),
            "sections": [{"title": title, "anchor": a} for title, a in sections],
            "gallery": gallery, "keywords": keywords, "decks": decks, "glossary": glossary,
            "players": self.players_text(),
            "player_names": ", ".join(md(p) for p in m.player_names),
            "options": options,
            "enums": [{"name": md(e.name), "members": ", ".join(
                           self.keyword_link(x) if e.name == "keyword" else md(x)
                           for x in e.members),
                       "doc": md_doc(e.doc)} for e in m.enums.values()],
            "records": records,
            "boards": boards, "zones": zones, "diagrams": self.diagrams(),
            "game_fields": self.field_rows(m.game_fields),
            "player_fields": self.field_rows(m.player_fields),
            "setup": en.block(m.setup.body.statements) if m.setup else [],
            # the picture's arrows: one per pair of phases and label (conditions that differ
            # only outside the innermost read alike there; the words say each)
            "edges": list({(e.source, e.target, e.label): e for e in edges}.values()),
            "phases": phases,
            "turn_sequence": Markup(turn_sequence_svg(
                f"{m.title}: the turn sequence",
                [(name, words(name)) for name in m.phases],
                [(None if e.source == "[*]" else e.source,
                  None if e.target == "[*]" else e.target, e.short) for e in edges])),
            "transitions": [self.transition_text(e) for e in edges], "callables": callables,
            "triggers": triggers, "outcomes": self.outcomes(),
            "decisions": [{"id": md(d.id), "title": md(d.title), "text": md(d.text)}
                          for d in m.decisions],
            "seeds": [md(s.path) for s in m.seeds],
            "card_fields": [r for r in records if r["per_card"]],
            "coverage": coverage,
            "has_lists": any(isinstance(f.type, t.ListT) for f in m.game_fields.values()),
        }



def grid_shape(board: BoardInfo) -> str:
    """A grid's rows and columns in words, by the rulebook's names for them."""
    if board.kind != "grid" or not board.coords:
        return ""
    rows = max(r for r, _ in board.coords) + 1
    columns = max(c for _, c in board.coords) + 1
    row, column = board.row_word or "row", board.column_word or "column"
    text = (f"{rows} {row}s ({'A' if rows == 1 else 'A to ' + chr(ord('A') + rows - 1)}) by "
            f"{columns} {column}s ({'1' if columns == 1 else f'1 to {columns}'}); a cell "
            "borders the up to 8 cells around it")
    if board.facing:
        text += (". Each player has a side that is this grid, the sides facing each other "
                 f"across their {row}s A")
    return text


def generate_docs(model: GameModel) -> str:
    return render_markdown(DocBuilder(model).context())


def generate_html(model: GameModel) -> str:
    return render_html(DocBuilder(model).context())



def generate_all_docs(model: GameModel) -> tuple[str, str]:
    """The Markdown and the HTML rulebook, from one context."""
    markdown, html, _, _ = generate_docs_and_faces(model)
    return markdown, html


def generate_docs_and_faces(
    model: GameModel,
) -> tuple[str, str, list[EntryInfo], list[tuple[str, int, str]]]:
    """generate_all_docs, the cards whose text does not fit their face in the gallery, and
    the face layouts that could not be used (file, line, message)."""
    builder = DocBuilder(model)
    context = builder.context()
    # The HTML first: the larger text is joined while the smaller one does not exist yet.
    html = render_html(context)
    builder.html_done()
    return render_markdown(context), html, builder.face_overflows, builder.layouts.problems
