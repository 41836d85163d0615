"""The tokens and tiles of a print-and-play PDF, for the games with a board: each card type
that a zone puts on the board's places (Dynasties' tiles, Dynasty Builder's troops) as 25 mm
square tiles, a set per player (but the cards of card sets, which are printed as cards), and
each player-owned field of a board (a house, a land token) as round markers. Cut along the
squares; fold nothing."""

from __future__ import annotations

from dataclasses import dataclass

from compiler import types as t
from compiler.model import GameModel, RecordInfo

TILE = 25.0  # mm, a tile's side
MARKER = 20.0  # mm, a marker's diameter
PER_KIND = 6  # tiles of a card type with no `copies` field, per kind and player
MARKERS = 8  # markers of a board field, per player
MOST_COPIES = 50
MARGIN = 15.0  # mm, around a page of tokens


@dataclass(frozen=True)
class Token:
    owner: str  # the player's name
    name: str  # the card's name, or the field's name in words
    round: bool  # a marker of a board field, not a tile


def copies_of(record: RecordInfo, values: dict[str, object]) -> int:
    """How many of a card a player has: its `copies` field when the type has one."""
    if "copies" not in record.fields:
        return PER_KIND
    expr = values.get("copies") or record.fields["copies"].default
    value = getattr(expr, "value", None)
    return value if type(value) is int and 0 < value <= MOST_COPIES else 1


def tokens_of(model: GameModel) -> list[Token]:
    """Every tile and marker a game's board needs, player by player."""
    boards = set(model.boards)
    pieces = [model.records[z.card_type] for z in model.zones.values()
              if boards & set(z.per) and z.card_type in model.records]
    kinds: list[RecordInfo] = []
    for record in pieces:
        if record not in kinds:
            kinds.append(record)
    found: list[Token] = []
    for player in model.player_names:
        for record in kinds:
            for entry in record.entries:
                if not entry.span.file.endswith(".rules"):
                    continue  # a card of a card set is printed as a card (Dynasty TCG's units)
                count = copies_of(record, dict(entry.values))
                found += [Token(player, entry.name, False)] * count
        for board in model.boards.values():
            for name, info in board.fields.items():
                owned = isinstance(t.strip_optional(info.type), t.PlayerT)
                if owned and name not in board.initial:  # the map's own marks are printed
                    found += [Token(player, name.replace("_", " "), True)] * MARKERS
    return found


def per_page(width: float, height: float) -> tuple[int, int]:
    """Columns and rows of tokens on a page."""
    return int((width - 2 * MARGIN) // TILE), int((height - 2 * MARGIN - 10) // TILE)


def token_pages(pdf: object, title: str, tokens: list[Token], width: float, height: float,
                font: str, text: object) -> None:
    """Pages of tokens: a row of tiles or markers after another, each with its owner's name
    in a corner and its own name in the middle, shrunk to fit."""
    from fpdf import FPDF

    assert isinstance(pdf, FPDF) and callable(text)
    margin = MARGIN
    columns, rows = per_page(width, height)
    left = (width - columns * TILE) / 2
    for start in range(0, len(tokens), columns * rows):
        pdf.add_page()
        pdf.set_font(font, "B", 14)
        pdf.set_xy(margin, margin - 8)
        pdf.cell(0, 8, text(f"{title}: tiles and tokens"))
        pdf.set_draw_color(60)
        pdf.set_line_width(0.2)
        for i, token in enumerate(tokens[start:start + columns * rows]):
            x = left + TILE * (i % columns)
            y = margin + 5 + TILE * (i // columns)
            if token.round:
                pdf.circle(x + TILE / 2, y + TILE / 2, MARKER / 2)
            else:
                pdf.rect(x, y, TILE, TILE)
            pdf.set_font(font, "B", 6)
            pdf.set_xy(x + (4 if token.round else 1.5), y + (4 if token.round else 1.5))
            pdf.cell(8, 3, text(token.owner))
            name = text(token.name)
            size = 9.0
            room = (MARKER if token.round else TILE) - 4
            pdf.set_font(font, "B", size)
            while size > 4 and pdf.get_string_width(name) > room:
                size -= 0.5
                pdf.set_font(font, "B", size)
            pdf.set_xy(x + 2, y + TILE / 2 - 2)
            pdf.cell(TILE - 4, 4, name, align="C")
