"""What the players' views know of a game beyond its module: each card's face (its fields and
its effects in English, from the model) and each board's picture (the docs' own drawings).

Nothing here depends on a game's state: the views choose which faces a seat may see."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler import symbols as sym
from compiler import types as t
from compiler.board_diagram import board_svg
from compiler.doc_gallery import CardGallery
from compiler.english import words
from compiler.grid_diagram import grid_svg
from compiler.hexmap import hex_svg
from compiler.model import BoardInfo, GameModel
from dsl import nodes as n

MAX_GRID_CELLS = 400
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"(?<!\\)[*_`]")
_ESCAPED = re.compile(r"\\(.)")


def plain(markdown: str) -> str:
    """Text of the docs' Markdown as a player reads it: links as their words, no emphasis."""
    return _ESCAPED.sub(r"\1", _MARKS.sub("", _LINK.sub(r"\1", markdown)))


@dataclass
class CardFace:
    name: str
    card_type: str
    stats: list[tuple[str, str]] = field(default_factory=list)  # (field in words, value)
    text: list[str] = field(default_factory=list)  # the effects in English, a line each
    flavour: str = ""
    source: str = ""  # file:line of the card's entry, for warnings about its face


class Catalogue:
    """Card faces by name and board pictures by board name, for one game."""

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.title = model.title
        self.faces: dict[str, CardFace] = {}
        gallery = CardGallery(model)
        for record in model.records.values():
            if not record.is_card:
                continue
            data = record.data_fields()
            for entry in record.entries:
                if entry.name in self.faces:
                    continue
                face = CardFace(entry.name, record.name, flavour=entry.description.strip(),
                                source=f"{entry.span.file}:{entry.span.line}")
                for name, info in data.items():
                    if isinstance(info.type, t.EffectT) or name == "name":
                        continue
                    value = entry.values.get(name)  # a default is the type's, not the card's
                    shown = "" if value is None else _value(gallery, value)
                    if shown not in ("", "—", "no"):
                        face.stats.append((words(name), shown))
                for effect in gallery.card_effects(record, entry):
                    face.text.append(plain(effect.name) + ":")
                    face.text.extend(plain(line) for line in effect.lines)
                self.faces[entry.name] = face
        self.pictures: dict[str, str] = {
            name: board_picture(model, board) for name, board in model.boards.items()}

    def face(self, name: str) -> CardFace | None:
        """The face of a card as an observation names it: a copy that differs reads
        "Guard (rested)", and is the face of Guard."""
        found = self.faces.get(name)
        if found is None and name.endswith(")") and " (" in name:
            found = self.faces.get(name[:name.rindex(" (")])
        return found


def _value(gallery: CardGallery, expr: n.Expr) -> str:
    if isinstance(expr, n.Name):
        symbol = gallery.model.symbols.names.get(id(expr))
        if isinstance(symbol, sym.EnumMember):
            return words(expr.id)
    if isinstance(expr, n.ListLit):
        return ", ".join(_value(gallery, item) for item in expr.items)
    return plain(gallery.value(expr))


def board_picture(model: GameModel, board: BoardInfo) -> str:
    """A board as the HTML rulebook draws it (SVG): hexes by terrain, grids by rows and
    columns, graphs by their borders."""
    title = f"{model.title}: the board {board.name}"
    if board.kind == "hex" and board.nodes:
        return hex_svg(model, board.name)
    if board.kind == "grid" and 0 < len(board.nodes) <= MAX_GRID_CELLS:
        return grid_svg(title, board)
    links = [(i, j) for i, row in enumerate(board.neighbours) for j in row if i < j]
    return board_svg(title, [node.capitalize() for node in board.nodes], links, board.coords)
