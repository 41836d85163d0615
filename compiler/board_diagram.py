"""A graph board of the HTML rulebook as SVG, laid out at build time in pure Python.

`board_svg`: the nodes and borders of a graph board, by stress majorisation of the graph
distances (classical scaling as the start), or by the grid's own rows and columns; the layout
is then scaled until no two boxes overlap. Deterministic: no randomness, every coordinate
written rounded to one decimal (`num`), every name escaped for XML (`escape`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from compiler.svg_text import (
    ACCENT,
    LINE,
    MARGIN,
    PAPER,
    baseline,
    num,
    svg_open,
    text_element,
    text_width,
)

# ---- a graph board

NODE_HEIGHT = 26.0
NODE_FONT = 13.0
NODE_PAD = 10.0
BOARD_GAP_X = 60.0
BOARD_GAP_Y = 40.0
EDGE_LENGTH = 120.0
MAX_BOARD_NODES = 120
_WORK = 400_000  # pair updates that the stress layout may spend


def _distances(count: int, links: Sequence[tuple[int, int]]) -> list[list[float]]:
    """Hops between nodes; nodes in different parts count one more than the longest path."""
    neighbours: list[list[int]] = [[] for _ in range(count)]
    for a, b in links:
        if a != b:
            neighbours[a].append(b)
            neighbours[b].append(a)
    table: list[list[float]] = []
    for start in range(count):
        row = [-1.0] * count
        row[start] = 0.0
        frontier = [start]
        while frontier:
            following: list[int] = []
            for node in frontier:
                for other in neighbours[node]:
                    if row[other] < 0:
                        row[other] = row[node] + 1
                        following.append(other)
            frontier = following
        table.append(row)
    longest = max((d for row in table for d in row), default=0.0)
    return [[d if d >= 0 else longest + 1 for d in row] for row in table]


def _classical_scaling(dist: list[list[float]]) -> list[list[float]]:
    """A start for the stress layout: the two main axes of the doubly centred squared
    distances (classical scaling), by power iteration from fixed vectors."""
    count = len(dist)
    squares = [[d * d for d in row] for row in dist]
    row_mean = [sum(row) / count for row in squares]
    grand = sum(row_mean) / count
    centred = [[-0.5 * (squares[i][j] - row_mean[i] - row_mean[j] + grand)
                for j in range(count)] for i in range(count)]
    rounds = max(10, min(100, _WORK // (count * count)))
    units: list[list[float]] = []
    axes: list[list[float]] = []
    for axis in range(2):
        vector = [((i * 37 + 11 * axis) % 17) / 17 - 0.5 for i in range(count)]
        value = 0.0
        for _ in range(rounds):
            product = [sum(c * v for c, v in zip(row, vector, strict=True)) for row in centred]
            for unit in units:
                dot = sum(p * u for p, u in zip(product, unit, strict=True))
                product = [p - dot * u for p, u in zip(product, unit, strict=True)]
            norm = math.sqrt(sum(p * p for p in product))
            if norm < 1e-12:
                value = 0.0
                break
            value = norm
            vector = [p / norm for p in product]
        units.append(vector)
        axes.append([v * math.sqrt(value) for v in vector])
    return [[axes[0][i], axes[1][i]] for i in range(count)]


def _stress(dist: list[list[float]], start: list[list[float]]) -> list[list[float]]:
    """Stress majorisation, one node at a time (weights 1/d²), until nothing moves."""
    count = len(dist)
    pos = [list(p) for p in start]
    rounds = max(20, min(300, _WORK // (count * count)))
    for _ in range(rounds):
        moved = 0.0
        for i in range(count):
            xi, yi = pos[i]
            sx = sy = sw = 0.0
            for j in range(count):
                if j == i:
                    continue
                d = dist[i][j]
                w = 1.0 / (d * d)
                xj, yj = pos[j]
                dx, dy = xi - xj, yi - yj
                length = math.sqrt(dx * dx + dy * dy)
                if length > 1e-9:
                    sx += w * (xj + d * dx / length)
                    sy += w * (yj + d * dy / length)
                else:
                    sx += w * xj
                    sy += w * yj
                sw += w
            nx, ny = sx / sw, sy / sw
            moved = max(moved, abs(nx - xi) + abs(ny - yi))
            pos[i] = [nx, ny]
        if moved < 1e-4:
            break
    return pos


def _upright(pos: list[list[float]]) -> list[list[float]]:
    """The layout turned so that its longer axis is horizontal, its first node top left."""
    count = len(pos)
    mx = sum(p[0] for p in pos) / count
    my = sum(p[1] for p in pos) / count
    centred = [[p[0] - mx, p[1] - my] for p in pos]
    a = sum(p[0] * p[0] for p in centred)
    c = sum(p[1] * p[1] for p in centred)
    b = sum(p[0] * p[1] for p in centred)
    if abs(b) > 1e-9:
        largest = (a + c) / 2 + math.sqrt(((a - c) / 2) ** 2 + b * b)
        ux, uy = b, largest - a
        norm = math.sqrt(ux * ux + uy * uy)
        ux, uy = ux / norm, uy / norm
    else:
        ux, uy = (1.0, 0.0) if a >= c else (0.0, 1.0)
    turned = [[ux * x + uy * y, -uy * x + ux * y] for x, y in centred]
    flip_x = -1.0 if turned[0][0] > 1e-6 else 1.0
    flip_y = -1.0 if turned[0][1] > 1e-6 else 1.0
    return [[flip_x * x, flip_y * y] for x, y in turned]


def board_svg(title: str, names: Sequence[str], links: Sequence[tuple[int, int]],
              coords: Sequence[tuple[int, int]] = ()) -> str:
    """A board as SVG: a box per node with its name, a line per border (`links` are pairs of
    node indexes). With `coords` (row, column) the nodes keep their grid places; otherwise
    they are laid out from the graph. Empty for no node, or for more than MAX_BOARD_NODES."""
    count = len(names)
    if count == 0 or count > MAX_BOARD_NODES:
        return ""
    widths = [text_width(name, NODE_FONT) + 2 * NODE_PAD for name in names]
    pairs = sorted({(min(a, b), max(a, b)) for a, b in links if a != b})
    if coords:
        step_x = max(widths) + BOARD_GAP_X
        step_y = NODE_HEIGHT + BOARD_GAP_Y
        points = [[c * step_x, r * step_y] for r, c in coords]
    else:
        if count == 1:
            units = [[0.0, 0.0]]
        else:
            dist = _distances(count, pairs)
            units = _upright(_stress(dist, _classical_scaling(dist)))
        for i in range(count):  # nodes at one place (it should not happen) are set apart
            for j in range(i):
                if abs(units[i][0] - units[j][0]) + abs(units[i][1] - units[j][1]) < 1e-6:
                    units[i][1] += 0.5
        scale = EDGE_LENGTH
        for i in range(count):
            for j in range(i):
                dx = abs(units[i][0] - units[j][0])
                dy = abs(units[i][1] - units[j][1])
                need_x = (widths[i] + widths[j]) / 2 + BOARD_GAP_X
                need_y = NODE_HEIGHT + BOARD_GAP_Y
                fits = min(need_x / dx if dx > 1e-9 else math.inf,
                           need_y / dy if dy > 1e-9 else math.inf)
                scale = max(scale, fits)
        points = [[x * scale, y * scale] for x, y in units]
    left = min(p[0] - w / 2 for p, w in zip(points, widths, strict=True))
    top = min(p[1] for p in points) - NODE_HEIGHT / 2
    points = [[x - left + MARGIN, y - top + MARGIN] for x, y in points]
    total_width = max(p[0] + w / 2 for p, w in zip(points, widths, strict=True)) + MARGIN
    total_height = max(p[1] for p in points) + NODE_HEIGHT / 2 + MARGIN
    out = svg_open(total_width, total_height, title)
    out.append(f'<g class="borders" stroke="{LINE}" stroke-width="1.5">')
    for a, b in pairs:
        out.append(f'<line x1="{num(points[a][0])}" y1="{num(points[a][1])}" '
                   f'x2="{num(points[b][0])}" y2="{num(points[b][1])}"/>')
    out.append("</g>")
    for (x, y), width, name in zip(points, widths, names, strict=True):
        out.append('<g class="node">')
        out.append(f'<rect x="{num(x - width / 2)}" y="{num(y - NODE_HEIGHT / 2)}" '
                   f'width="{num(width)}" height="{num(NODE_HEIGHT)}" rx="6" fill="{PAPER}" '
                   f'stroke="{ACCENT}" stroke-width="1.5"/>')
        out.append(text_element(x, baseline(y, NODE_FONT), name, NODE_FONT, anchor="middle"))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
