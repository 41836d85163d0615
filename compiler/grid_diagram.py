"""Grid boards and `diagram` declarations drawn as SVG for the rulebook.

`grid_svg`: a grid board with its rows and columns labelled by the rulebook's words (`rows "row"
columns "lane"`); a `facing` grid is drawn as two sides facing each other across their rows A,
the other side on top, its rows mirrored.

`grid_pictures`: the grids, and each `diagram` as one small grid per member of its `for` enum
and per cell of its `from` list, the cell drawn from and the cells that its `where` condition
selects marked (on the other side of a facing grid with `mark opposing`). The condition is run
through the code it compiles to, in the module the game itself is (the generated module, loaded
in memory, with the diagram's condition compiled beside its rules), so a drawing cannot
disagree with the game about a function it calls. The type checker has made sure that the
condition reads nothing of a game (compiler.check_data, `diagram`).

Deterministic: every coordinate written by `num`, every name escaped by `escape`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compiler import types as t
from compiler.model import BoardInfo, GameModel
from compiler.svg_text import (
    ACCENT,
    LABEL_INK,
    LINE,
    MARGIN,
    baseline,
    escape,
    num,
    svg_open,
    text_element,
    text_width,
)
from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.source import Span

MARKED = "#e6c87a"  # a marked cell: the hex maps' plains gold
ORIGIN = ACCENT  # the cell a diagram is drawn from
EMPTY = "#ffffff"
MAX_GRID_CELLS = 400  # a bigger grid is left to its table of borders


@dataclass(frozen=True)
class Evaluated:
    """A diagram's drawings: for each member of its enum (or one unnamed drawing) and each
    origin cell, the cells marked, by index into the board's nodes."""

    decl: n.DiagramDecl
    board: BoardInfo
    members: list[str]
    origins: list[int]
    marked: dict[tuple[int, int], frozenset[int]]  # (member, origin) -> cells
    condition: str  # the condition as written, for the legend


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "diagram"


def diagram_picture_name(game: str, title: str) -> str:
    return f"{game}.diagram-{slug(title)}.svg"


def grid_picture_name(game: str, board: str) -> str:
    return f"{game}.{board.lower()}.svg"


def grid_pictures(model: GameModel) -> dict[str, str]:
    """The SVG files of a game's grid boards and diagrams, beside its docs, by file name."""
    pictures: dict[str, str] = {}
    for board in model.boards.values():
        if board.kind == "grid" and 0 < len(board.nodes) <= MAX_GRID_CELLS:
            pictures[grid_picture_name(model.name, board.name)] = grid_svg(
                f"{model.title}: the board {board.name}", board)
    for found in evaluate_diagrams(model):
        pictures[diagram_picture_name(model.name, found.decl.title)] = diagram_svg(
            f"{model.title}: {found.decl.title}", found)
    return pictures


# ---- evaluating a diagram's condition

class DiagramError(Exception):
    """A diagram's condition failed when it was worked out (a division by zero, say)."""

    def __init__(self, decl: n.DiagramDecl, message: str) -> None:
        super().__init__(message)
        self.decl = decl


def check_diagrams(model: GameModel, diagnostics: Diagnostics) -> None:
    """Pass 5: every diagram worked out once, so that `rulecraft check` reports a condition
    that fails at its line, and `rulecraft build` never meets one."""
    if not model.diagrams or diagnostics.has_errors:
        return  # a model with errors has no code to run the conditions with
    try:
        evaluate_diagrams(model)
    except DiagramError as error:
        diagnostics.add("E0207", error.decl.cond.span, f"the condition of diagram "
                        f"'{error.decl.title}' fails when it is worked out: {error}",
                        hint="a diagram's condition runs on every cell it can be drawn with")

def evaluate_diagrams(model: GameModel) -> list[Evaluated]:
    """Every diagram of a clean model, its condition run by the game's own generated code."""
    if not model.diagrams:
        return []
    # the generator only when there is a diagram: most rulebooks have none
    from compiler.pygen import PythonGenerator, generate_python, load_python
    from compiler.pygen_base import Bindings

    extra = PythonGenerator(model)
    w = extra.w
    for i, d in enumerate(model.diagrams):
        extra.bindings = Bindings()
        each = extra.bindings.bind(d.each_var) if d.each_var is not None else "_each"
        origin = extra.bindings.bind(d.origin_var)
        mark = extra.bindings.bind(d.mark_var)
        with extra.function(f"def diagram_{i}(s: State, {each}: int, {origin}: int, "
                            f"{mark}: int) -> bool:", d.span):
            extra.return_value(d.cond)
        extra.bindings = Bindings()
        with extra.function(f"def diagram_{i}_origins(s: State) -> list[int]:", d.span):
            w.line(f"return list({extra.expr(d.origins)})")
    extra.area_tables()  # the grid tables the conditions read, if the rules do not already
    module = load_python(model, generate_python(model) + "\n" + w.text())
    found: list[Evaluated] = []
    for i, d in enumerate(model.diagrams):
        cell = t.element_type(model.type_of(d.origins))
        assert isinstance(cell, t.NodeT)
        board = model.boards[cell.board]
        members = model.enums[d.each_enum].members if d.each_enum is not None else [""]
        # No game exists: the checker made sure that nothing the condition runs reads one.
        try:
            origins: list[int] = getattr(module, f"diagram_{i}_origins")(None)
            test = getattr(module, f"diagram_{i}")
            marked = {(k, o): frozenset(c for c in range(len(board.nodes))
                                        if test(None, k, at, c))
                      for k in range(len(members)) for o, at in enumerate(origins)}
        except Exception as error:  # noqa: BLE001 - any failure of the rules' code is reported
            raise DiagramError(d, f"{type(error).__name__}: {error}") from error
        found.append(Evaluated(d, board, list(members), origins, marked,
                               _text_of(model, d.cond.span)))
    return found


def _text_of(model: GameModel, span: Span) -> str:
    """The source text of a span, its lines joined by single spaces."""
    source = model.sources.get(span.file)
    if source is None:
        return ""
    lines = [source.line(k) for k in range(span.line, span.end_line + 1)]
    if not lines:
        return ""
    lines[-1] = lines[-1][:span.end_column - 1]
    lines[0] = lines[0][span.column - 1:]
    return " ".join(" ".join(lines).split())


def diagram_lines(found: Evaluated) -> list[str]:
    """The drawings in words: for each member and origin, the cells marked."""
    lines: list[str] = []
    board = found.board
    for k, member in enumerate(found.members):
        for o, at in enumerate(found.origins):
            cells = [board.nodes[c] for c in sorted(found.marked[(k, o)])]
            side = "the other side's " if found.decl.opposing and cells else ""
            what = f"{member}, from {board.nodes[at]}" if member else f"from {board.nodes[at]}"
            lines.append(f"{what}: {side}{', '.join(cells) if cells else 'none'}")
    return lines


# ---- drawing

@dataclass(frozen=True)
class _Style:
    cell_w: float
    cell_h: float
    font: float
    names: bool  # the cell's name written in it
    words: bool  # "row A" and "lane 1" rather than "A" and "1"


_FULL = _Style(60.0, 36.0, 12.0, True, True)
_SMALL = _Style(20.0, 14.0, 9.0, False, False)
_FRONT = 10.0  # between two facing sides


def _row_label(board: BoardInfo, r: int, style: _Style) -> str:
    letter = chr(ord("A") + r)
    return f"{board.row_word} {letter}" if style.words and board.row_word else letter


def _column_label(board: BoardInfo, c: int, style: _Style) -> str:
    return f"{board.column_word} {c + 1}" if style.words and board.column_word else str(c + 1)


def _extent(board: BoardInfo) -> tuple[int, int]:
    return (max(r for r, _ in board.coords) + 1, max(c for _, c in board.coords) + 1)


def _grid_size(board: BoardInfo, style: _Style) -> tuple[float, float, float]:
    """Width, height and the width of the row labels of one drawing of the board."""
    rows, columns = _extent(board)
    labels = max(text_width(_row_label(board, r, style), style.font) for r in range(rows)) + 6
    sides = 2 if board.facing else 1
    height = 2 * (style.font + 4) + sides * rows * style.cell_h + (_FRONT if board.facing else 0)
    return labels + columns * style.cell_w, height, labels


Pieces = dict[int, list[str]]  # what stands on each cell (by index), as lines of text


def _draw_grid(out: list[str], board: BoardInfo, style: _Style, x0: float, y0: float,
               fills: tuple[dict[int, str], dict[int, str]] = ({}, {}),
               pieces: tuple[Pieces, Pieces] = ({}, {})) -> None:
    """One drawing of the board at (x0, y0): column labels above and below, row labels on the
    left. A facing board is two sides: the other one on top with its rows A at the bottom,
    facing this side's rows A across the front line. `fills` colours cells of (this side,
    the other side); `pieces` writes what stands on them under their names."""
    rows, columns = _extent(board)
    _, height, labels = _grid_size(board, style)
    gx = x0 + labels
    label_h = style.font + 4
    for c in range(columns):
        cx = gx + (c + 0.5) * style.cell_w
        label = _column_label(board, c, style)
        out.append(text_element(cx, baseline(y0 + label_h / 2, style.font), label, style.font,
                                anchor="middle", fill=LABEL_INK))
        out.append(text_element(cx, baseline(y0 + height - label_h / 2, style.font), label,
                                style.font, anchor="middle", fill=LABEL_INK))
    top = y0 + label_h
    sides: list[tuple[float, bool, dict[int, str], Pieces]] = []  # (top, mirrored, ...)
    if board.facing:
        sides.append((top, True, fills[1], pieces[1]))
        sides.append((top + rows * style.cell_h + _FRONT, False, fills[0], pieces[0]))
        front = top + rows * style.cell_h + _FRONT / 2
        out.append(f'<line x1="{num(gx - 4)}" y1="{num(front)}" '
                   f'x2="{num(gx + columns * style.cell_w + 4)}" y2="{num(front)}" '
                   f'stroke="{LINE}" stroke-width="1" stroke-dasharray="4 3"/>')
    else:
        sides.append((top, False, fills[0], pieces[0]))
    for side_top, mirrored, colours, standing in sides:
        for r in range(rows):
            shown = rows - 1 - r if mirrored else r
            y = side_top + shown * style.cell_h
            out.append(text_element(gx - 6, baseline(y + style.cell_h / 2, style.font),
                                    _row_label(board, r, style), style.font, anchor="end",
                                    fill=LABEL_INK))
        for i, (r, c) in enumerate(board.coords):
            shown = rows - 1 - r if mirrored else r
            x = gx + c * style.cell_w
            y = side_top + shown * style.cell_h
            fill = colours.get(i, EMPTY)
            out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(style.cell_w)}" '
                       f'height="{num(style.cell_h)}" fill="{fill}" stroke="{LINE}" '
                       'stroke-width="1"/>')
            lines = standing.get(i, [])
            if style.names:
                ink = "#ffffff" if fill == ORIGIN else LABEL_INK
                name_y = y + (style.font if lines else style.cell_h / 2)
                out.append(text_element(x + style.cell_w / 2, baseline(name_y, style.font),
                                        board.nodes[i], style.font, anchor="middle", fill=ink))
            room = int((style.cell_h - style.font * 1.5) // (style.font + 1))
            for k, line in enumerate(lines[:room]):
                if k == room - 1 and len(lines) > room:
                    line = f"+{len(lines) - k} more"
                out.append(text_element(x + style.cell_w / 2,
                                        y + style.font * 2.2 + k * (style.font + 1),
                                        _fit(line, style.cell_w - 4, style.font),
                                        style.font, anchor="middle", weight="bold")
                           .replace("<text ", '<text class="piece" ', 1))


def _fit(text: str, width: float, size: float) -> str:
    """The text, cut with an ellipsis to fit `width`."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


_LIVE = _Style(104.0, 50.0, 10.0, True, True)


def live_grid_svg(title: str, board: BoardInfo, mine: Pieces, theirs: Pieces) -> str:
    """A grid board as a game stands: under each cell's name what stands on it, as the
    viewer may see it (a facing grid: the viewer's side below, the other side above)."""
    width, height, _ = _grid_size(board, _LIVE)
    out = svg_open(width + 2 * MARGIN, height + 2 * MARGIN, title)
    out[0] = out[0].replace("<svg ", '<svg class="board-live" ', 1)
    _draw_grid(out, board, _LIVE, MARGIN, MARGIN, pieces=(mine, theirs))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def grid_svg(title: str, board: BoardInfo) -> str:
    """A grid board with its rows and columns labelled; a facing grid as its two sides, with
    a caption for each."""
    width, height, _ = _grid_size(board, _FULL)
    caption = 18.0 if board.facing else 0.0
    out = svg_open(width + 2 * MARGIN, height + 2 * caption + 2 * MARGIN, title)
    y0 = MARGIN + caption
    if board.facing:
        out.append(text_element(MARGIN, baseline(MARGIN + caption / 2, 12.0),
                                "the other side (rows A face each other)", 12.0, fill=LABEL_INK))
        out.append(text_element(MARGIN, baseline(y0 + height + caption / 2, 12.0),
                                "this side", 12.0, fill=LABEL_INK))
    _draw_grid(out, board, _FULL, MARGIN, y0)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def diagram_svg(title: str, found: Evaluated) -> str:
    """A table of small grids: a column per member of the enum, a row per origin, each with
    its origin and marked cells coloured; a legend below."""
    board = found.board
    d = found.decl
    width, height, _ = _grid_size(board, _SMALL)
    head_font = 12.0
    row_heads = [f"{d.origin_var} = {board.nodes[at]}" for at in found.origins]
    head_w = max(text_width(h, head_font) for h in row_heads) + 12
    gap = 18.0
    column_w = max([width, *(text_width(m, head_font) for m in found.members)]) + gap
    head_h = head_font + 8 if any(found.members) else 0.0
    legend = [(ORIGIN, f"{d.origin_var}: the cell drawn from"),
              (MARKED, f"{'opposing ' * d.opposing}{d.mark_var} where {found.condition}")]
    if board.facing:
        legend.append((EMPTY, "above the dashed line: the other side, rows A facing"))
    legend_h = len(legend) * 18.0 + 6
    total_w = max(head_w + len(found.members) * column_w,
                  max(text_width(text, head_font) for _, text in legend) + 24) + 2 * MARGIN
    total_h = head_h + len(found.origins) * (height + gap) + legend_h + 2 * MARGIN
    out = svg_open(total_w, total_h, title)
    for k, member in enumerate(found.members):
        if member:
            out.append(text_element(MARGIN + head_w + k * column_w + width / 2,
                                    baseline(MARGIN + head_h / 2, head_font), member, head_font,
                                    anchor="middle", weight="bold"))
    for o, at in enumerate(found.origins):
        y = MARGIN + head_h + o * (height + gap)
        out.append(text_element(MARGIN, baseline(y + height / 2, head_font), row_heads[o],
                                head_font))
        for k in range(len(found.members)):
            marked = found.marked[(k, o)]
            mine = {at: ORIGIN}
            theirs: dict[int, str] = {}
            if d.opposing:
                theirs = dict.fromkeys(marked, MARKED)
            else:
                mine = dict.fromkeys(marked, MARKED) | {at: ORIGIN}
            out.append(f'<g class="drawing" data-member="{escape(found.members[k])}" '
                       f'data-from="{escape(board.nodes[at])}" data-marked="'
                       f'{escape(" ".join(board.nodes[c] for c in sorted(marked)))}">')
            _draw_grid(out, board, _SMALL, MARGIN + head_w + k * column_w, y, (mine, theirs))
            out.append("</g>")
    y = total_h - MARGIN - legend_h + 6
    for colour, text in legend:
        out.append(f'<rect x="{num(MARGIN)}" y="{num(y)}" width="12" height="12" '
                   f'fill="{colour}" stroke="{LINE}"/>')
        out.append(text_element(MARGIN + 18, baseline(y + 6, head_font), text, head_font))
        y += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"

