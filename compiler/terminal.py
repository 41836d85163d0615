"""`rulecraft play`'s picture of a seat's view, as lines of text: boards drawn as text (a grid
as a grid, a hex map as offset rows, a graph as each node's neighbours), cards with their
fields, effects and per-card state, hidden zones as counts. Styled with rich on a terminal,
plain otherwise (a pipe, a file, a test); rich's Text never reads card text as markup."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from compiler import types as t
from compiler.card_faces import CardFace, outline
from compiler.model import BoardInfo
from compiler.serve.catalogue import Catalogue
from dsl.diagnostics import shown

Line = tuple[str, str]  # the text, and its rich style ("" for none)
CELL = 7  # characters of a grid or hex cell
TEXT_CARDS = 10  # a zone of more cards lists them without their effects


def words(name: str) -> str:
    return name.replace("_", " ")


def value_text(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    return str(value)


def _set(value: object, zeros: bool = False) -> bool:
    """Whether a value is worth a word: a flag when it is set, a list when it holds something
    set, a text when it is not empty, a number unless it is 0 (with zeros, always: a
    player's score of 0 is a score; on a board, an empty province is the usual case)."""
    if isinstance(value, list):
        return any(_set(v) for v in value)
    if isinstance(value, bool):
        return value
    return value is not None and value != "" and (zeros or value != 0)


def fields_line(fields: dict[str, Any], zeros: bool = False) -> str:
    return " · ".join(f"{words(k)} {value_text(v)}" for k, v in fields.items()
                      if _set(v, zeros))


def _marks(node: str, fields: dict[str, Any], start: dict[str, Any],
           zones: dict[str, Any]) -> str:
    """What stands on a node now: its fields changed since the start, and the cards of
    zones kept per node (`field.A.B2`)."""
    marks = [value_text(v) for k, v in fields.items()
             if v != start.get(k) and _set(v) and not isinstance(v, list)]
    for zone, content in zones.items():
        parts = zone.split(".")
        if parts[-1] == node:
            whose = f"{parts[1]}:" if len(parts) == 3 else ""
            if isinstance(content, list) and content:
                marks.append(whose + ",".join(str(c) for c in content))
            elif isinstance(content, dict) and content.get("count"):
                marks.append(f"{whose}{content['count']} hidden")
    return " ".join(marks)


def board_lines(board: BoardInfo, nodes: dict[str, Any], start: dict[str, Any],
                zones: dict[str, Any]) -> list[Line]:
    lines: list[Line] = [(f"   {words(board.name)} ({board.kind})", "bold")]
    marks = {node: _marks(node, nodes.get(node, {}), start.get(node, {}), zones)
             for node in board.nodes}
    enums = [f for f in board.initial if f in board.fields
             and isinstance(t.strip_optional(board.fields[f].type), t.EnumT)]
    terrain = "terrain" if "terrain" in enums else enums[0] if enums else None
    if board.kind in ("grid", "hex") and board.coords:
        kinds = sorted({str(v) for v in board.initial[terrain] if v}) if terrain else []
        if terrain and kinds and len({k[0] for k in kinds}) == len(kinds):
            for i, node in enumerate(board.nodes):  # what the map file says, as a letter
                marks[node] = marks[node] or str(board.initial[terrain][i])[:1]
            lines.append((f"     {words(terrain)}: "
                          + ", ".join(f"{k[0]} {words(k)}" for k in kinds), "dim"))
        rows = max(r for r, _ in board.coords) + 1
        columns = max(c for _, c in board.coords) + 1
        cells = [["" for _ in range(columns)] for _ in range(rows)]
        for node, (r, c) in zip(board.nodes, board.coords, strict=True):
            text = f"{node} {marks[node]}"
            cells[r][c] = text[:CELL - 1].ljust(CELL - 1)
        for r, row in enumerate(cells):
            indent = " " * (CELL // 2) if board.kind == "hex" and r % 2 else ""
            sep = " " if board.kind == "hex" else "|"
            shown = sep.join(cell or " " * (CELL - 1) for cell in row)
            lines.append((f"     {indent}{shown}", ""))
        long = [(n, m) for n, m in marks.items() if m and len(f"{n} {m}") > CELL - 1]
        lines += [(f"     {n}: {m}", "dim") for n, m in long]
        return lines
    for i, node in enumerate(board.nodes):
        near = ", ".join(board.nodes[j] for j in board.neighbours[i])
        here = fields_line(nodes.get(node, {}))
        lines.append((f"     {node}" + (f" [{here}]" if here else "")
                      + (f" {marks[node]}" if marks[node] else ""), "cyan"))
        if near:
            lines.append((f"       next to {near}", "dim"))
    return lines


def card_lines(face: CardFace | None, name: str, state: dict[str, Any] | None,
               with_text: bool) -> list[Line]:
    status = ", ".join(words(k) if v is True else f"{words(k)} {value_text(v)}"
                       for k, v in (state or {}).items() if _set(v))
    stats = "" if face is None else " · ".join(f"{k} {v}" for k, v in face.stats)
    lines: list[Line] = [(f"     {name}" + (f" — {stats}" if stats else "")
                          + (f" ({status})" if status else ""), "green")]
    if face is not None and with_text:
        # the body of an if, for or repeat in by two spaces, as the Markdown rulebook has it
        lines += [(" " * 9 + ("  " * (depth - 1) + "- " if depth else "") + said, "")
                  for depth, said in outline(face.text)]
    return lines


def view_lines(view: dict[str, Any], catalogue: Catalogue, start: dict[str, Any]) -> list[Line]:
    turn = ("the game is over" if view.get("terminal") or view["actor"] is None
            else f"{view['actor']} to act")
    lines: list[Line] = [(f"-- {catalogue.title} · phase {words(str(view['phase']))} · "
                          f"you are {view['player']} · {turn}", "bold magenta")]
    shown = fields_line(view.get("state", {}), zeros=True)
    if shown:
        lines.append((f"   {shown}", ""))
    for player, fields in view.get("players", {}).items():
        lines.append((f"   {player}: {fields_line(fields, zeros=True) or 'nothing yet'}",
                      "yellow"))
    zones: dict[str, Any] = view.get("zones", {})
    boards: dict[str, Any] = view.get("board", {})
    placed = {z for z in zones for b in catalogue.model.boards.values()
              if z.rsplit(".", 1)[-1] in b.nodes}
    for name, board in catalogue.model.boards.items():
        # a board of no fields has no entry in the view, but may hold zones (`field.A.B2`)
        if name in boards or any(z.rsplit(".", 1)[-1] in board.nodes for z in placed):
            lines += board_lines(board, boards.get(name, {}), start.get(name, {}), zones)
    states: dict[str, Any] = view.get("cards", {})
    for zone, content in zones.items():
        if zone in placed:
            continue
        title = " · ".join(words(p) for p in zone.split("."))
        if isinstance(content, list):
            if not content:
                continue
            lines.append((f"   [{title}] {len(content)}", "bold"))
            per_card = states.get(zone) or []
            for i, card in enumerate(content):
                state = per_card[i] if i < len(per_card) and isinstance(per_card[i], dict) \
                    else None
                lines += card_lines(catalogue.face(str(card)), str(card), state,
                                    len(content) <= TEXT_CARDS)
        elif isinstance(content, dict) and (content.get("count") or content.get("revealed")):
            revealed = [str(c) for c in content.get("revealed") or []]
            lines.append((f"   [{title}] {content.get('count', 0)} hidden"
                          + (f", shown: {', '.join(revealed)}" if revealed else ""), "bold"))
    return lines


class Printer:
    """Lines to a stream: through rich when it is a terminal (colour), else as plain text."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.console: Any = None
        if self.out.isatty():
            try:
                from rich.console import Console
            except ImportError:  # rich is in the `play` extra: without it, plain text
                return
            self.console = Console(file=self.out, highlight=False)

    def lines(self, lines: list[Line]) -> None:
        for text, style in lines:
            self.line(text, style)

    def line(self, text: str, style: str = "") -> None:
        text = shown(text)  # card text could hold an escape sequence the terminal would run
        if self.console is None:
            print(text, file=self.out)
            return
        from rich.text import Text

        self.console.print(Text(text, style=style), soft_wrap=True)
