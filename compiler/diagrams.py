"""Diagrams for the HTML rulebook, laid out and drawn as SVG text at build time.

Two pictures, in pure Python (no network, no external tool), so the page works offline:

- `turn_sequence_svg`: the phases and the transitions between them, as a layered drawing
  (Sugiyama style). Back edges (those that close a cycle) are found by a depth-first walk from
  the start, taking successors in the order the phases are declared, and turned around for the
  layout only; layers are the longest path from the start; edges that span layers run through
  dummy points, and each label is a dummy point of its own, half-way between two layers, so
  that the order and spacing of a layer keep labels, boxes and edges apart; the order in each
  layer minimises crossings by barycentres; x coordinates are the least-squares fit to the
  neighbours under the spacing constraints. Edges are curves through their dummy points: they
  never cross a box or a label.
- `board_svg`: the nodes and borders of a graph board, by stress majorisation of the graph
  distances (classical scaling as the start), or by the grid's own rows and columns; the layout
  is then scaled until no two boxes overlap.

Deterministic: no randomness, no set or dict order, every tie broken by declaration order, and
every coordinate written rounded to one decimal (`num`). Every text is escaped for XML
(`escape`): names and conditions come from rulebooks. Widths of text are estimated from the
advance widths of DejaVu Sans, the widest of the usual sans-serif fonts, so that text fits its
box whatever font the reader's browser picks.
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

# ---- text and numbers

INK = "#1d1d1f"  # the page's text colour (compiler/templates/rulebook.html.j2)
ACCENT = "#8a5a00"  # the page's heading rule
PAPER = "#f1ece0"  # the page's table headers and code
LINE = "#555"  # strokes, as in the hex map pictures
LABEL_INK = "#5b5246"

FONT = "sans-serif"
BOX_FONT = 14.0
LABEL_FONT = 12.0


def escape(text: str) -> str:
    """Text for an XML text node or attribute: `&`, `<`, `>` and both quotes as entities."""
    return html.escape(text, quote=True)


def num(value: float) -> str:
    """A coordinate as written in the SVG: one decimal, no trailing `.0`, never `-0`."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _width_table() -> dict[str, float]:
    """Advance widths of DejaVu Sans, in ems, of the printable ASCII characters."""
    groups = (
        (" ,.", 0.318), ("!", 0.401), ("\"", 0.46), ("#+<=>^~", 0.838), ("$0123456789{}", 0.636),
        ("%", 0.95), ("&", 0.78), ("'", 0.275), ("()[]", 0.39), ("*_`", 0.5), ("-", 0.361),
        ("/:;\\|", 0.337), ("?", 0.531), ("@", 1.0), ("AVXZ", 0.685), ("B", 0.686),
        ("C", 0.698), ("D", 0.77), ("E", 0.632), ("F", 0.575), ("G", 0.775), ("H", 0.752),
        ("IJ", 0.295), ("K", 0.656), ("L", 0.557), ("M", 0.863), ("N", 0.748), ("OQ", 0.787),
        ("P", 0.603), ("R", 0.695), ("S", 0.635), ("TY", 0.611), ("U", 0.732), ("W", 0.989),
        ("a", 0.613), ("bdghnpqu", 0.635), ("c", 0.55), ("e", 0.615), ("f", 0.352),
        ("ijl", 0.278), ("k", 0.579), ("m", 0.974), ("o", 0.612), ("r", 0.411), ("s", 0.521),
        ("t", 0.392), ("vxy", 0.592), ("w", 0.818), ("z", 0.525),
    )
    return {char: width for chars, width in groups for char in chars}


_WIDTHS = _width_table()


def text_width(text: str, size: float) -> float:
    """The estimated width of text set at `size` pixels: wide characters count one em."""
    total = 0.0
    for char in text:
        width = _WIDTHS.get(char)
        if width is None:
            wide = unicodedata.east_asian_width(char) in ("W", "F")
            width = 1.0 if wide else 0.0 if unicodedata.combining(char) else 0.75
        total += width
    return total * size


def wrap(text: str, limit: int) -> list[str]:
    """Text cut at spaces into lines of at most `limit` characters (a longer word stays whole)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def _svg_open(width: float, height: float, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" '
            f'height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}" role="img" '
            f'aria-label="{escape(title)}" font-family="{FONT}">',
            f"<title>{escape(title)}</title>"]


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "",
          fill: str = INK, weight: str = "") -> str:
    middle = f' text-anchor="{anchor}"' if anchor else ""
    bold = f' font-weight="{weight}"' if weight else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{middle}{bold} '
            f'fill="{fill}">{escape(text)}</text>')


def _baseline(centre: float, size: float) -> float:
    """The baseline that centres a line of text of `size` pixels on `centre`."""
    return centre + 0.35 * size


# ---- the turn sequence: a layered drawing

BOX_HEIGHT = 32.0
BOX_PAD = 12.0
LINE_HEIGHT = 15.0
LABEL_CHARS = 26
GAP_Y = 18.0
GAP_NODES = 28.0
GAP_DUMMIES = 12.0
ARROW = 8.0
LOOP = 30.0
MARGIN = 8.0
SWEEPS = 12
PLACEMENTS = 24


@dataclass
class _Item:
    """One thing in a layer: a box (`node` >= 0) or a point an edge passes (`node` == -1)."""

    rank: int
    node: int
    edge: int
    left: float
    right: float
    height: float
    label: list[str] = field(default_factory=list)
    up: list[int] = field(default_factory=list)
    down: list[int] = field(default_factory=list)
    x: float = 0.0
    pos: int = 0


@dataclass
class _Edge:
    source: int
    target: int
    labels: list[str]
    reversed: bool = False
    chain: list[int] = field(default_factory=list)


def _condition_lines(labels: list[str]) -> list[str]:
    lines: list[str] = []
    for label in labels:
        lines += wrap(label, LABEL_CHARS)
    return lines


def _block_width(lines: list[str]) -> float:
    return max((text_width(line, LABEL_FONT) for line in lines), default=0.0)


class _Layered:
    """The layout of a directed graph whose node 0 may be the start."""

    def __init__(self, names: list[str], kinds: list[str], edges: list[_Edge],
                 loops: dict[int, list[str]]) -> None:
        self.names = names
        self.kinds = kinds
        self.edges = edges
        self.loops = loops
        self.items: list[_Item] = []
        self.ranks: list[list[int]] = []
        self.node_item: list[int] = []
        self.box_width = [text_width(name, BOX_FONT) + 2 * BOX_PAD for name in names]

    # -- layers
    def find_back_edges(self) -> None:
        """Depth first from the start, then from each node not yet seen, in declaration order;
        an edge to a node on the walk's stack closes a cycle and is turned around."""
        successors: list[list[int]] = [[] for _ in self.names]
        for index, edge in enumerate(self.edges):
            successors[edge.source].append(index)
        for row in successors:
            row.sort(key=lambda e: (self.edges[e].target, e))
        state = [0] * len(self.names)  # 0 unseen, 1 on the stack, 2 done
        for root in range(len(self.names)):
            if state[root]:
                continue
            state[root] = 1
            stack = [(root, iter(successors[root]))]
            while stack:
                node, pending = stack[-1]
                for index in pending:
                    target = self.edges[index].target
                    if state[target] == 1:
                        self.edges[index].reversed = True
                    elif state[target] == 0:
                        state[target] = 1
                        stack.append((target, iter(successors[target])))
                        break
                else:
                    state[node] = 2
                    stack.pop()

    def ends(self, edge: _Edge) -> tuple[int, int]:
        """The edge's upper and lower node in the drawing."""
        return (edge.target, edge.source) if edge.reversed else (edge.source, edge.target)

    def layers(self) -> list[int]:
        """The longest path from a source; a source other than the start sits just above the
        highest of its successors."""
        count = len(self.names)
        below: list[list[int]] = [[] for _ in range(count)]
        above: list[list[int]] = [[] for _ in range(count)]
        for edge in self.edges:
            top, bottom = self.ends(edge)
            below[top].append(bottom)
            above[bottom].append(top)
        waiting = [len(row) for row in above]
        ready = [node for node in range(count) if waiting[node] == 0]
        layer = [0] * count
        order: list[int] = []
        while ready:
            node = ready.pop(0)
            order.append(node)
            for other in below[node]:
                layer[other] = max(layer[other], layer[node] + 1)
                waiting[other] -= 1
                if waiting[other] == 0:
                    ready.append(other)
                    ready.sort()
        for node in reversed(order):
            if not above[node] and below[node] and self.kinds[node] != "start":
                layer[node] = min(layer[other] for other in below[node]) - 1
        return layer

    # -- items in ranks: a layer's boxes on even ranks, labels and bends in between
    def add_item(self, item: _Item) -> int:
        while len(self.ranks) <= item.rank:
            self.ranks.append([])
        self.items.append(item)
        index = len(self.items) - 1
        item.pos = len(self.ranks[item.rank])
        self.ranks[item.rank].append(index)
        return index

    def build_items(self) -> None:
        layer = self.layers()
        for node in range(len(self.names)):
            width = self.box_width[node]
            right = width / 2
            height = BOX_HEIGHT
            if node in self.loops:
                lines = _condition_lines(self.loops[node])
                right += LOOP + 4 + _block_width(lines)
                height = max(height, len(lines) * LINE_HEIGHT + 4)
            self.node_item.append(self.add_item(
                _Item(rank=2 * layer[node], node=node, edge=-1, left=width / 2, right=right,
                      height=height)))
        for index, edge in enumerate(self.edges):
            top, bottom = self.ends(edge)
            first, last = 2 * layer[top], 2 * layer[bottom]
            label_rank = last - 1 if edge.reversed else first + 1
            chain = [self.node_item[top]]
            for rank in range(first + 1, last):
                lines = _condition_lines(edge.labels) if rank == label_rank else []
                if lines:
                    item = _Item(rank=rank, node=-1, edge=index, left=3,
                                 right=6 + _block_width(lines), label=lines,
                                 height=len(lines) * LINE_HEIGHT + 2)
                else:
                    item = _Item(rank=rank, node=-1, edge=index, left=3, right=3, height=0)
                chain.append(self.add_item(item))
            chain.append(self.node_item[bottom])
            for upper, lower in pairwise(chain):
                self.items[upper].down.append(lower)
                self.items[lower].up.append(upper)
            edge.chain = chain

    # -- order within ranks
    def crossings(self) -> int:
        total = 0
        for rank in self.ranks:
            pairs = [(self.items[i].pos, self.items[j].pos) for i in rank
                     for j in self.items[i].down]
            for k, (a, b) in enumerate(pairs):
                for c, d in pairs[k + 1:]:
                    if (a - c) * (b - d) < 0:
                        total += 1
        return total

    def sort_rank(self, rank: list[int], downward: bool) -> None:
        def key(index: int) -> tuple[float, bool, int]:
            """By barycentre; of two edges between the same boxes, the one without a label
            first, so that a label (always on its edge's right) is not between the two."""
            item = self.items[index]
            others = item.up if downward else item.down
            if not others:
                return (float(item.pos), bool(item.label), item.pos)
            centre = sum(self.items[o].pos for o in others) / len(others)
            return (centre, bool(item.label), item.pos)

        rank.sort(key=key)
        for pos, index in enumerate(rank):
            self.items[index].pos = pos

    def order(self) -> None:
        best = [list(rank) for rank in self.ranks]
        fewest = self.crossings()
        for sweep in range(SWEEPS):
            downward = sweep % 2 == 0
            ranks = self.ranks[1:] if downward else self.ranks[-2::-1]
            for rank in ranks:
                self.sort_rank(rank, downward)
            found = self.crossings()
            if found < fewest:
                fewest = found
                best = [list(rank) for rank in self.ranks]
        self.ranks = best
        for rank in self.ranks:
            for pos, index in enumerate(rank):
                self.items[index].pos = pos

    # -- x coordinates
    def separation(self, a: int, b: int) -> float:
        left, right = self.items[a], self.items[b]
        gap = GAP_NODES if left.node >= 0 and right.node >= 0 else GAP_DUMMIES
        return left.right + gap + right.left

    def place_rank(self, rank: list[int], desired: list[float]) -> None:
        """The positions nearest `desired` (least squares) that keep the rank's order and
        spacing: pool-adjacent-violators on the positions less their minimal offsets."""
        offsets = [0.0]
        for a, b in pairwise(rank):
            offsets.append(offsets[-1] + self.separation(a, b))
        blocks: list[tuple[float, int]] = []  # (sum, count)
        for value, offset in zip(desired, offsets, strict=True):
            total, count = value - offset, 1
            while blocks and blocks[-1][0] / blocks[-1][1] > total / count:
                prior_total, prior_count = blocks.pop()
                total, count = total + prior_total, count + prior_count
            blocks.append((total, count))
        k = 0
        for total, count in blocks:
            for _ in range(count):
                self.items[rank[k]].x = total / count + offsets[k]
                k += 1

    def weight(self, a: int, b: int) -> float:
        dummies = (self.items[a].node < 0) + (self.items[b].node < 0)
        return (1.0, 2.0, 8.0)[dummies]

    def desired(self, index: int, up: bool, down: bool) -> float:
        item = self.items[index]
        others = (item.up if up else []) + (item.down if down else [])
        if not others:
            return item.x
        weights = [self.weight(index, o) for o in others]
        return sum(w * self.items[o].x for w, o in zip(weights, others, strict=True)) / sum(weights)

    def coordinates(self) -> None:
        for rank in self.ranks:
            self.place_rank(rank, [0.0] * len(rank))
            shift = -sum(self.items[i].x for i in rank) / max(len(rank), 1)
            for i in rank:
                self.items[i].x += shift
        for sweep in range(PLACEMENTS):
            if sweep >= PLACEMENTS - 4:
                for rank in self.ranks:
                    self.place_rank(rank, [self.desired(i, True, True) for i in rank])
                continue
            downward = sweep % 2 == 0
            ranks = self.ranks[1:] if downward else self.ranks[-2::-1]
            for rank in ranks:
                self.place_rank(rank, [self.desired(i, downward, not downward) for i in rank])
        self.straighten()
        self.align()
        least = min(item.x - item.left for item in self.items)
        for item in self.items:
            item.x += MARGIN - least

    def straighten(self) -> None:
        """Each edge's run of bends set on one vertical line: nearest to where the run is,
        within the room its neighbours leave; where they leave none, at the least x the left
        neighbours allow, pushing the items on its right further right. Longer runs first,
        then all again, for the runs that a later push moved."""
        runs = sorted((edge.chain[1:-1] for edge in self.edges if len(edge.chain) > 3),
                      key=lambda run: -len(run))
        for run in runs * 3:
            rooms = [self.room(index) for index in run]
            low, high = max(r[0] for r in rooms), min(r[1] for r in rooms)
            mean = sum(self.items[i].x for i in run) / len(run)
            x = min(max(mean, low), high) if low <= high else low
            for index in run:
                self.items[index].x = x
                rank = self.ranks[self.items[index].rank]
                for before, after in pairwise(rank[self.items[index].pos:]):
                    least = self.items[before].x + self.separation(before, after)
                    if self.items[after].x >= least:
                        break
                    self.items[after].x = least

    def room(self, index: int) -> tuple[float, float]:
        """The least and the greatest x that the item's neighbours in its rank leave it."""
        item = self.items[index]
        rank = self.ranks[item.rank]
        low, high = -math.inf, math.inf
        if item.pos > 0:
            before = rank[item.pos - 1]
            low = self.items[before].x + self.separation(before, index)
        if item.pos + 1 < len(rank):
            after = rank[item.pos + 1]
            high = self.items[after].x - self.separation(index, after)
        return low, high

    def align(self) -> None:
        """Where an item is the only one below another, and that other the only one above it,
        the two are put on one vertical line when there is room: top down, then bottom up."""
        for downward in (True, False):
            ranks = self.ranks if downward else self.ranks[::-1]
            for rank in ranks:
                for index in rank:
                    item = self.items[index]
                    others = item.up if downward else item.down
                    if len(others) != 1:
                        continue
                    other = self.items[others[0]]
                    if len(other.down if downward else other.up) != 1:
                        continue
                    low, high = self.room(index)
                    if low <= other.x <= high:
                        item.x = other.x

    def layout(self) -> None:
        self.find_back_edges()
        self.build_items()
        self.order()
        self.coordinates()


def turn_sequence_svg(title: str, phases: Sequence[tuple[str, str]],
                      transitions: Sequence[tuple[str | None, str | None, str]]) -> str:
    """The turn sequence as SVG: `phases` are (key, text in the box) in declaration order;
    each transition is (from, to, condition), from None meaning the start of the game and to
    None its end. The transitions with a condition between the same two phases share one
    arrow, which lists their conditions; one without a condition has an arrow of its own. A
    transition from a phase to itself is a loop on the box's right, with its conditions."""
    names: list[str] = []
    kinds: list[str] = []
    index: dict[str | None, int] = {}
    if any(source is None for source, _, _ in transitions):
        index[None] = len(names)
        names.append("start")
        kinds.append("start")
    for key, text in phases:
        if key not in index:
            index[key] = len(names)
            names.append(text)
            kinds.append("phase")
    for source, target, _ in transitions:
        for other in (source, target):
            if other is not None and other not in index:
                index[other] = len(names)
                names.append(other)
                kinds.append("phase")
    end = len(names)
    if any(target is None for _, target, _ in transitions):
        names.append("game over")
        kinds.append("end")
    merged: dict[tuple[int, int, bool], list[str]] = {}
    for source, target, condition in transitions:
        tail, head = index[source], end if target is None else index[target]
        labels = merged.setdefault((tail, head, bool(condition) or tail == head), [])
        if condition and condition not in labels:
            labels.append(condition)
    edges: list[_Edge] = []
    loops: dict[int, list[str]] = {}
    for (tail, head, _), labels in merged.items():
        if tail == head:
            loops[tail] = labels
        else:
            edges.append(_Edge(tail, head, labels))
    graph = _Layered(names, kinds, edges, loops)
    graph.layout()
    return _draw_layered(graph, title)


def _draw_layered(graph: _Layered, title: str) -> str:
    items = graph.items
    band_height = [max((items[i].height for i in rank), default=0.0) for rank in graph.ranks]
    band_top: list[float] = []
    y = MARGIN
    for height in band_height:
        band_top.append(y)
        y += height + GAP_Y
    total_height = y - GAP_Y + MARGIN
    total_width = max(item.x + item.right for item in items) + MARGIN

    def centre_y(item: _Item) -> float:
        return band_top[item.rank] + band_height[item.rank] / 2

    # ports: the edges leaving a box's bottom and entering its top, spread in the order of
    # where they go
    ports: dict[tuple[int, int], float] = {}  # (edge, chain end 0 or 1) -> x
    for node, item_index in enumerate(graph.node_item):
        item = items[item_index]
        sides: tuple[list[tuple[float, int, int]], list[tuple[float, int, int]]] = ([], [])
        for e, edge in enumerate(graph.edges):
            if edge.chain[0] == item_index:
                sides[0].append((items[edge.chain[1]].x, e, 0))
            if edge.chain[-1] == item_index:
                sides[1].append((items[edge.chain[-2]].x, e, 1))
        for side in sides:
            side.sort()
            step = min(14.0, (graph.box_width[node] - 16) / max(len(side) - 1, 1))
            for k, (_, e, end) in enumerate(side):
                ports[(e, end)] = item.x + (k - (len(side) - 1) / 2) * step

    out = _svg_open(total_width, total_height, title)
    # edges first, under the boxes
    for e, edge in enumerate(graph.edges):
        chain = [items[i] for i in edge.chain]
        segments: list[list[float]] = []  # [x, y where it starts, y where it ends]
        head, tail = chain[0], chain[-1]
        segments.append([ports[(e, 0)], centre_y(head) + BOX_HEIGHT / 2,
                         band_top[head.rank] + band_height[head.rank]])
        for item in chain[1:-1]:
            segments.append([item.x, band_top[item.rank],
                             band_top[item.rank] + band_height[item.rank]])
        segments.append([ports[(e, 1)], band_top[tail.rank], centre_y(tail) - BOX_HEIGHT / 2])
        if edge.reversed:
            tip = (segments[0][0], segments[0][1], -1.0)
            segments[0][1] += ARROW
            segments[0][2] = max(segments[0][2], segments[0][1])
        else:
            tip = (segments[-1][0], segments[-1][2], 1.0)
            segments[-1][2] -= ARROW
            segments[-1][1] = min(segments[-1][1], segments[-1][2])
        path = f"M{num(segments[0][0])},{num(segments[0][1])}"
        previous = segments[0]
        if previous[2] > previous[1]:
            path += f" L{num(previous[0])},{num(previous[2])}"
        for segment in segments[1:]:
            middle = (previous[2] + segment[1]) / 2
            path += (f" C{num(previous[0])},{num(middle)} {num(segment[0])},{num(middle)} "
                     f"{num(segment[0])},{num(segment[1])}")
            if segment[2] > segment[1]:
                path += f" L{num(segment[0])},{num(segment[2])}"
            previous = segment
        x, y_tip, direction = tip
        base = y_tip - direction * ARROW
        words = f"{graph.names[edge.source]} to {graph.names[edge.target]}"
        if edge.labels:
            words += ": " + "; ".join(edge.labels)
        out.append(f'<g class="edge"><title>{escape(words)}</title>')
        out.append(f'<path d="{path}" fill="none" stroke="{LINE}" stroke-width="1.5"/>')
        out.append(f'<polygon points="{num(x - 4.5)},{num(base)} {num(x + 4.5)},{num(base)} '
                   f'{num(x)},{num(y_tip)}" fill="{LINE}"/>')
        out.append("</g>")
        for item in chain[1:-1]:
            if item.label:
                out.append(_label_block(item.x + 6, centre_y(item), item.label))
    for node, item_index in enumerate(graph.node_item):
        item = items[item_index]
        width = graph.box_width[node]
        cy = centre_y(item)
        left, top = item.x - width / 2, cy - BOX_HEIGHT / 2
        kind = graph.kinds[node]
        if node in graph.loops:
            right = item.x + width / 2
            loop = (f"M{num(right)},{num(cy - 7)} C{num(right + LOOP)},{num(cy - 24)} "
                    f"{num(right + LOOP)},{num(cy + 7)} {num(right + ARROW)},{num(cy + 7)}")
            words = f"{graph.names[node]} to {graph.names[node]}"
            if graph.loops[node]:
                words += ": " + "; ".join(graph.loops[node])
            out.append(f'<g class="edge"><title>{escape(words)}</title>')
            out.append(f'<path d="{loop}" fill="none" stroke="{LINE}" stroke-width="1.5"/>')
            out.append(f'<polygon points="{num(right + ARROW)},{num(cy + 2.5)} '
                       f'{num(right + ARROW)},{num(cy + 11.5)} {num(right)},{num(cy + 7)}" '
                       f'fill="{LINE}"/>')
            out.append("</g>")
            lines = _condition_lines(graph.loops[node])
            if lines:
                out.append(_label_block(right + LOOP + 4, cy, lines))
        phase = kind == "phase"
        out.append(f'<g class="{"node" if phase else "node " + kind}">')
        out.append(f'<rect x="{num(left)}" y="{num(top)}" width="{num(width)}" '
                   f'height="{num(BOX_HEIGHT)}" rx="{num(6 if phase else BOX_HEIGHT / 2)}" '
                   f'fill="{PAPER if phase else ACCENT}" stroke="{ACCENT}" '
                   'stroke-width="1.5"/>')
        out.append(_text(item.x, _baseline(cy, BOX_FONT), graph.names[node], BOX_FONT,
                         anchor="middle", fill=INK if phase else "#fff",
                         weight="" if phase else "bold"))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _label_block(x: float, centre: float, lines: list[str]) -> str:
    """An edge's conditions, one per line, left-aligned at x and centred on `centre`."""
    first = centre - (len(lines) - 1) * LINE_HEIGHT / 2
    texts = [_text(x, _baseline(first + k * LINE_HEIGHT, LABEL_FONT), line, LABEL_FONT,
                   fill=LABEL_INK) for k, line in enumerate(lines)]
    return '<g class="label">' + "".join(texts) + "</g>"


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
    out = _svg_open(total_width, total_height, title)
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
        out.append(_text(x, _baseline(y, NODE_FONT), name, NODE_FONT, anchor="middle"))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
