"""Docs generation: the checked model → a Markdown rulebook, through a Jinja2 template.

Everything on the page comes from the rules source: declarations, `##` doc comments, decisions,
the seed block, and the rules themselves rendered in English by compiler.english.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from compiler import types as t
from compiler.english import English, anchor, md, words
from compiler.model import FieldInfo, GameModel
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
    source: str
    target: str
    label: str


class DocBuilder:
    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.english = English(model)

    def source_text(self, node: n.Node) -> str:
        span = node.span
        source = self.model.sources.get(span.file)
        if source is None:
            return ""
        if span.line == span.end_line:
            return source.line(span.line)[span.column - 1 : span.end_column - 1]
        return source.line(span.line)[span.column - 1 :] + " …"

    def label(self, conditions: list[n.Expr]) -> str:
        """The innermost condition of a goto, as written in the rulebook."""
        if not conditions:
            return ""
        last = conditions[-1]
        if isinstance(last, n.Not) and last.span == last.operand.span:
            return "otherwise"
        text = self.source_text(last)
        text = re.sub(r"[^A-Za-z0-9_ =<>!.+-]", " ", text)
        text = re.sub(r"\s+", " ", text).strip()
        return text[:48]

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
                edges.append(Edge("[*]", stmt.phase, self.label(conds)))
        for phase in m.phases.values():
            decl = phase.decl
            blocks = [decl.enter, decl.done, *decl.checkpoints,
                      *(a.decl.body for a in phase.actions)]
            for stmt, conds in self.exits(blocks):
                target = stmt.phase if isinstance(stmt, n.Goto) else "[*]"
                label = self.label(conds)
                if not isinstance(stmt, n.Goto):
                    label = (label + " " if label else "") + "game over"
                edge = Edge(phase.name, target, label.strip())
                if edge not in edges:
                    edges.append(edge)
        return edges

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
        for where, blocks in places:
            for stmt, conds in self.exits(blocks):
                if isinstance(stmt, n.Goto):
                    continue
                text = self.english.stmt(stmt, 0)[0].removeprefix("- ")
                result.append(Outcome(where, [self.english.expr(c) for c in conds], text,
                                      stmt.span.line))
        return result

    # ---- tables
    def field_rows(self, fields: dict[str, FieldInfo]) -> list[dict[str, str]]:
        rows = []
        for info in fields.values():
            default = self.english.expr(info.default) if info.default is not None else "—"
            type_text = str(info.type) + (" per player" if info.per_player else "")
            visibility = {"public": "everyone", "secret": "its player only",
                          "hidden": "nobody"}.get(info.visibility, info.visibility)
            rows.append({"name": md(info.name), "type": md(type_text), "default": default,
                         "visibility": visibility, "doc": md(info.doc)})
        return rows

    def entry_table(self, record_name: str) -> dict[str, Any]:
        record = self.model.records[record_name]
        columns = list(record.fields)
        rows = []
        for entry in record.entries:
            cells = []
            for column in columns:
                expr = entry.values.get(column, record.fields[column].default)
                cells.append(self.english.expr(expr) if expr is not None else "—")
            rows.append({"name": md(entry.name), "cells": cells,
                         "description": md(entry.description)})
        return {"name": md(record_name), "columns": [md(words(c)) for c in columns],
                "rows": rows, "doc": md(record.doc), "is_card": record.is_card,
                "has_descriptions": any(e.description for e in record.entries)}

    def coverage(self) -> list[dict[str, str]]:
        m = self.model
        lines: dict[str, list[int]] = {}
        for module in m.modules:
            for node in n.walk(module):
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
                "name": md(zone.name), "holds": md(zone.card_type),
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
                "name": md(board.name), "kind": board.kind, "source": md(board.source),
                "doc": md(board.doc),
                "nodes": [{"name": md(node.capitalize()),
                           "neighbours": ", ".join(md(board.nodes[j].capitalize())
                                                   for j in board.neighbours[i])}
                          for i, node in enumerate(board.nodes)],
                "links": sorted({(board.nodes[min(i, j)], board.nodes[max(i, j)])
                                 for i, row in enumerate(board.neighbours) for j in row}),
                "fields": self.field_rows(board.fields),
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
                    "doc": md(action.decl.doc), "says": md(says),
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
                "doc": md(decl.doc), "line": decl.span.line,
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
                "doc": md(info.doc), "body": body, "line": rule.span.line,
            })
        options = []
        for option in m.options.values():
            used = sorted({node.span.line for module in m.modules for node in n.walk(module)
                           if isinstance(node, n.Name) and node.id == option.name
                           and m.symbols.get(id(node), ("",))[0] == "option"})
            options.append({"name": md(option.name), "type": md(str(option.type)),
                            "default": en.expr(option.default),
                            "description": md(option.description),
                            "used": ", ".join(str(line) for line in used)})
        triggers = [{"name": md(words(tr.name)), "event": md(words(tr.event)),
                     "when": en.expr(tr.when) if tr.when is not None else "",
                     "body": en.block(tr.body.statements)} for tr in m.triggers]
        return {
            "title": md(m.title), "name": m.name, "doc": md(m.doc), "source": md(m.source_file),
            "players": (str(m.min_players) if m.min_players == m.max_players
                        else f"{m.min_players} to {m.max_players}"),
            "player_names": ", ".join(md(p) for p in m.player_names),
            "options": options,
            "enums": [{"name": md(e.name), "members": ", ".join(md(x) for x in e.members),
                       "doc": md(e.doc)} for e in m.enums.values()],
            "records": [self.entry_table(r) for r in m.records if m.records[r].entries],
            "boards": boards, "zones": zones,
            "game_fields": self.field_rows(m.game_fields),
            "player_fields": self.field_rows(m.player_fields),
            "setup": en.block(m.setup.body.statements) if m.setup else [],
            "edges": self.edges(), "phases": phases, "callables": callables,
            "triggers": triggers, "outcomes": self.outcomes(),
            "decisions": [{"id": md(d.id), "title": md(d.title), "text": md(d.text)}
                          for d in m.decisions],
            "seeds": [md(s.path) for s in m.seeds],
            "coverage": self.coverage(),
            "has_lists": any(isinstance(f.type, t.ListT) for f in m.game_fields.values()),
        }


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=False,  # Markdown: every rulebook string is escaped by english.md first
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def generate_docs(model: GameModel) -> str:
    text = environment().get_template("rulebook.md.j2").render(DocBuilder(model).context())
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"
