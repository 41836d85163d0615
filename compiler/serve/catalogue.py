"""What the players' views know of a game beyond its module: each card's face (its fields and
its effects in English, from the model) and each board's picture (the docs' own drawings).

Nothing here depends on a game's state: the views choose which faces a seat may see."""

from __future__ import annotations

from compiler.board_diagram import board_svg
from compiler.card_faces import CardFace, face_of
from compiler.doc_gallery import CardGallery
from compiler.grid_diagram import grid_svg
from compiler.hexmap import hex_svg
from compiler.model import BoardInfo, GameModel

MAX_GRID_CELLS = 400


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
            for entry in record.entries:
                if entry.name not in self.faces:
                    self.faces[entry.name] = face_of(gallery, record, entry)
        self.pictures: dict[str, str] = {
            name: board_picture(model, board) for name, board in model.boards.items()}

    def face(self, name: str) -> CardFace | None:
        """The face of a card as an observation names it: a copy that differs reads
        "Guard (rested)", and is the face of Guard."""
        found = self.faces.get(name)
        if found is None and name.endswith(")") and " (" in name:
            found = self.faces.get(name[:name.rindex(" (")])
        return found


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
