"""The turn sequence of the HTML rulebook as an SVG layered drawing, laid out at build time in
pure Python (no network, no external tool), so the page works offline.

`turn_sequence_svg`: the phases and the transitions between them, Sugiyama style. Back edges
(those that close a cycle) are found by a depth-first walk from the start, taking successors in
the order the phases are declared, and turned around for the layout only; layers are the longest
path from the start; edges that span layers run through dummy points, and each label is a dummy
point of its own, half-way between two layers, so that the order and spacing of a layer keep
labels, boxes and edges apart; the order in each layer minimises crossings by barycentres; x
coordinates are the least-squares fit to the neighbours under the spacing constraints. Edges are
curves through their dummy points: they never cross a box or a label.

Deterministic: no randomness, no set or dict order, every tie broken by declaration order, and
every coordinate written rounded to one decimal (`num`). Every text is escaped for XML
(`escape`): names and conditions come from rulebooks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from compiler.svg_text import (
    ACCENT,
    BOX_FONT,
    INK,
    LABEL_FONT,
    LABEL_INK,
    LINE,
    MARGIN,
    PAPER,
    baseline,
    escape,
    num,
    svg_open,
    text_element,
    text_width,
    wrap,
)

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

    out = svg_open(total_width, total_height, title)
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
        out.append(text_element(item.x, baseline(cy, BOX_FONT), graph.names[node], BOX_FONT,
                         anchor="middle", fill=INK if phase else "#fff",
                         weight="" if phase else "bold"))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _label_block(x: float, centre: float, lines: list[str]) -> str:
    """An edge's conditions, one per line, left-aligned at x and centred on `centre`."""
    first = centre - (len(lines) - 1) * LINE_HEIGHT / 2
    texts = [text_element(x, baseline(first + k * LINE_HEIGHT, LABEL_FONT), line, LABEL_FONT,
                   fill=LABEL_INK) for k, line in enumerate(lines)]
    return '<g class="label">' + "".join(texts) + "</g>"

