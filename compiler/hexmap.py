"""The SVG picture of each hex map, written beside the game's docs: hexes coloured by their
terrain (the first enum field), marked with the players of player fields, with a legend."""

from __future__ import annotations

import html
import math

from compiler import types as t
from compiler.model import GameModel

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
