"""The diagrams of the HTML rulebook (compiler/turn_diagram.py, compiler/board_diagram.py): the
turn sequence and graph boards, drawn as SVG at build time.

Each picture parses as XML, names every phase or node in a text element, draws one arrow per
group of transitions and one line per border, escapes hostile names, is the same bytes on
every build (whatever the hash seed), and is laid out so that no box or label overlaps
another and no edge runs through a box. The HTML embeds the pictures with a title and a text
alternative, and no Mermaid source is left in it; the Markdown keeps its Mermaid blocks.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.board_diagram import MAX_BOARD_NODES, board_svg
from compiler.docgen import generate_all_docs
from compiler.driver import check_rulebook
from compiler.model import GameModel
from compiler.svg_text import LABEL_FONT, escape, num, text_width, wrap
from compiler.turn_diagram import turn_sequence_svg

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
GAMES = ("dynasties", "rulers_gambit", "dynasty_builder")

Transition = tuple[str | None, str | None, str]

DYNASTIES: list[Transition] = [
    (None, "choose_warlord", "warlords"), (None, "placement", "otherwise"),
    ("choose_warlord", "placement", ""), ("placement", "warlord_step", "warlords"),
    ("placement", "draw_tiles", "otherwise"), ("warlord_step", "draw_tiles", ""),
    ("draw_tiles", "discard_step", "warlords"), ("draw_tiles", "resolution", "otherwise"),
    ("discard_step", "resolution", ""), ("resolution", None, "track > 0"),
    ("resolution", None, "track < 0"), ("resolution", None, "otherwise"),
    ("resolution", "placement", "otherwise"),
]
DYNASTIES_PHASES = ["choose_warlord", "placement", "warlord_step", "draw_tiles",
                    "discard_step", "resolution"]


def phases_of(keys: list[str]) -> list[tuple[str, str]]:
    return [(key, key.replace("_", " ")) for key in keys]


def compile_model(rules: Path) -> GameModel:
    compilation = check_rulebook(rules)
    assert compilation.ok and compilation.model is not None
    return compilation.model


# ---- reading a picture back
def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("aria-label")
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == root.get("aria-label")
    return root


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").split()[:1] == [kind]]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


Box = tuple[float, float, float, float]  # left, top, right, bottom


def node_boxes(root: ET.Element) -> list[Box]:
    boxes = []
    for g in groups(root, "node"):
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        x, y = float(rect.get("x", "")), float(rect.get("y", ""))
        boxes.append((x, y, x + float(rect.get("width", "")), y + float(rect.get("height", ""))))
    return boxes


def label_boxes(root: ET.Element) -> list[Box]:
    """The space each edge label's text takes, from the same width estimate as the layout."""
    boxes = []
    for g in groups(root, "label"):
        for t in g.iter(f"{SVG}text"):
            x, y, size = float(t.get("x", "")), float(t.get("y", "")), float(t.get("font-size", ""))
            boxes.append((x, y - 0.8 * size, x + text_width(t.text or "", size), y + 0.25 * size))
    return boxes


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_apart(boxes: list[Box]) -> None:
    for i, a in enumerate(boxes):
        for b in boxes[:i]:
            assert not overlap(a, b), (a, b)


def path_points(d: str) -> list[tuple[float, float]]:
    """Points along a path of M, L and C commands (absolute), 16 per curve."""
    tokens = re.findall(r"[MLC]|-?[0-9.]+", d)
    points: list[tuple[float, float]] = []
    command = ""
    numbers: list[float] = []
    for token in tokens:
        if token in "MLC":
            command = token
            numbers = []
            continue
        numbers.append(float(token))
        if command in "ML" and len(numbers) == 2:
            if command == "L":
                (x0, y0), (x1, y1) = points[-1], (numbers[0], numbers[1])
                points += [(x0 + (x1 - x0) * k / 16, y0 + (y1 - y0) * k / 16)
                           for k in range(1, 17)]
            else:
                points.append((numbers[0], numbers[1]))
            numbers = []
        elif command == "C" and len(numbers) == 6:
            p0 = points[-1]
            p1, p2, p3 = (numbers[0], numbers[1]), (numbers[2], numbers[3]), (numbers[4],
                                                                                numbers[5])
            for k in range(1, 17):
                t = k / 16
                points.append(tuple(  # type: ignore[arg-type]
                    (1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t * t * c
                    + t ** 3 * e for a, b, c, e in zip(p0, p1, p2, p3, strict=True)))
            numbers = []
    return points


def assert_edges_miss_boxes(root: ET.Element) -> None:
    """No edge runs through a box: every point of every edge is outside each box shrunk by
    a pixel (an edge starts and ends on a box's border)."""
    boxes = [(a + 1, b + 1, c - 1, d - 1) for a, b, c, d in node_boxes(root)]
    labels = label_boxes(root)
    for g in groups(root, "edge"):
        path = g.find(f"{SVG}path")
        assert path is not None
        for x, y in path_points(path.get("d", "")):
            for box in boxes + labels:
                assert not (box[0] < x < box[2] and box[1] < y < box[3]), (g[0].text, x, y, box)


def check_turn_sequence(svg: str, phases: list[tuple[str, str]],
                        transitions: list[Transition]) -> ET.Element:
    root = parse(svg)
    words = texts(root)
    for _, text in phases:
        assert text in words
    if any(source is None for source, _, _ in transitions):
        assert "start" in words
    if any(target is None for _, target, _ in transitions):
        assert "game over" in words
    # one arrow per group: conditional transitions between two boxes share one, each
    # unconditional one has its own; a phase's transitions to itself are one loop
    expected = {(s, t, bool(c) or s == t) for s, t, c in transitions}
    assert len(groups(root, "edge")) == len(expected)
    label_text = " ".join(" ".join(texts(g)) for g in groups(root, "label"))
    for _, _, condition in transitions:
        assert " ".join(condition.split()) in label_text
    assert_apart(node_boxes(root) + label_boxes(root))
    assert_edges_miss_boxes(root)
    return root


# ---- the turn sequence
def test_dynasties_turn_sequence() -> None:
    phases = phases_of(DYNASTIES_PHASES)
    svg = turn_sequence_svg("Dynasties: the turn sequence", phases, DYNASTIES)
    root = check_turn_sequence(svg, phases, DYNASTIES)
    # layered from the start: each box of the main line below the one before it
    tops = {texts(g)[0]: node_boxes(root)[k][1] for k, g in enumerate(groups(root, "node"))}
    order = ["start", "choose warlord", "placement", "warlord step", "draw tiles",
             "discard step", "resolution", "game over"]
    assert [tops[name] for name in order] == sorted(tops[name] for name in order)
    assert len(set(tops.values())) == len(order)
    # the back edge (resolution to placement) points up, into the bottom of placement
    back = [g for g in groups(root, "edge") if g[0].text == "resolution to placement: otherwise"]
    polygon = back[0].find(f"{SVG}polygon")
    assert polygon is not None
    tip_y = float(polygon.get("points", "").split()[-1].split(",")[1])
    placement = node_boxes(root)[order.index("placement")]
    assert tip_y == pytest.approx(placement[3], abs=0.1)


def test_loops_parallel_edges_and_unknown_targets() -> None:
    transitions: list[Transition] = [
        (None, "a", ""), ("a", "b", "x > 1"), ("a", "b", "x == 1"), ("a", "b", ""),
        ("b", "b", "again"), ("b", "b", "once more"), ("b", "a", "otherwise"),
        ("b", "c", ""), ("c", None, ""),
    ]
    phases = phases_of(["a", "b"])  # c is named only by a transition
    svg = turn_sequence_svg("t", phases, transitions)
    check_turn_sequence(svg, [*phases, ("c", "c")], transitions)


def test_hostile_names_are_escaped() -> None:
    hostile = '<b>&amp;"x\' </svg><script>alert(1)</script>'
    phases = [("p", hostile), ("q", "q & <q>")]
    transitions: list[Transition] = [(None, "p", 'a < b & "c"'), ("p", "q", hostile),
                                     ("q", "p", "</text>"), ("q", None, "")]
    svg = turn_sequence_svg(f"title {hostile}", phases, transitions)
    assert "<script" not in svg and "<b>" not in svg and "</svg><" not in svg
    root = check_turn_sequence(svg, phases, transitions)
    assert root.get("aria-label") == f"title {hostile}"
    assert hostile in texts(root) and "q & <q>" in texts(root)
    board = board_svg(hostile, [hostile, "a&b", "'quoted'"], [(0, 1), (1, 2)])
    assert "<script" not in board
    assert {hostile, "a&b", "'quoted'"} <= set(texts(parse(board)))


@settings(database=None, max_examples=40, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(-1, n - 1), st.integers(-1, n - 1),
                       st.sampled_from(["", "", "otherwise", "x > 1", "a much longer "
                                        "condition that has to wrap onto lines"])),
             min_size=1, max_size=3 * n))))
def test_any_phase_graph_is_laid_out_apart(graph: tuple[int, list[tuple[int, int, str]]]
                                           ) -> None:
    count, raw = graph
    keys = [f"phase_{k}" for k in range(count)]
    transitions: list[Transition] = [
        (None if s < 0 else keys[s], None if t < 0 else keys[t], c) for s, t, c in raw
        if not (s < 0 and t < 0)]
    phases = phases_of(keys)
    svg = turn_sequence_svg("random", phases, transitions)
    check_turn_sequence(svg, phases, transitions)
    assert turn_sequence_svg("random", phases, transitions) == svg


# ---- boards
def test_dynasties_board() -> None:
    names = ["Mongolia", "Qinghai", "Mandarin", "Xinjiang", "Tibet"]
    links = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (1, 4), (2, 4), (3, 4), (4, 3)]
    root = parse(board_svg("Provinces", names, links))
    assert sorted(texts(root)) == sorted(names)
    assert len(list(root.iter(f"{SVG}line"))) == 8  # each border once
    assert_apart(node_boxes(root))


def test_a_grid_board_keeps_its_rows_and_columns() -> None:
    coords = [(r, c) for r in range(3) for c in range(4)]
    names = [f"{'ABC'[r]}{c + 1}" for r, c in coords]
    links = [(i, j) for i, a in enumerate(coords) for j, b in enumerate(coords)
             if i < j and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1]
    root = parse(board_svg("Grid", names, links, coords))
    boxes = node_boxes(root)
    assert_apart(boxes)
    assert len(list(root.iter(f"{SVG}line"))) == len(links)
    assert boxes[0][1] == boxes[3][1] < boxes[4][1]  # A1 and A4 on one row, B1 below
    assert boxes[0][0] == boxes[4][0] < boxes[1][0]  # A1 and B1 in one column, A2 right


@settings(database=None, max_examples=30, deadline=None)
@given(st.integers(1, 14).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                         max_size=3 * n))))
def test_any_board_is_laid_out_apart(graph: tuple[int, list[tuple[int, int]]]) -> None:
    count, links = graph
    names = [f"node_{k}" * (1 + k % 3) for k in range(count)]
    svg = board_svg("random", names, links)
    root = parse(svg)
    assert sorted(texts(root)) == sorted(names)
    assert len(list(root.iter(f"{SVG}line"))) == len({(min(a, b), max(a, b))
                                                       for a, b in links if a != b})
    assert_apart(node_boxes(root))
    assert board_svg("random", names, links) == svg


def test_a_board_too_big_to_draw_is_left_to_the_table() -> None:
    count = MAX_BOARD_NODES + 1
    assert board_svg("big", [f"n{k}" for k in range(count)],
                     [(k, k + 1) for k in range(count - 1)]) == ""


# ---- helpers
def test_numbers_and_text() -> None:
    assert [num(v) for v in (0.0, -0.04, 1.25, 2.0, -3.16, 1e-12)] == \
        ["0", "0", "1.2", "2", "-3.2", "0"]
    assert escape('<a & "b" \'c\'>') == "&lt;a &amp; &quot;b&quot; &#x27;c&#x27;&gt;"
    assert wrap("turn == 1 and not any has u first_strike", 16) == \
        ["turn == 1 and", "not any has u", "first_strike"]
    assert text_width("mm", LABEL_FONT) > text_width("ii", LABEL_FONT) > 0


# ---- in the rulebooks
@pytest.mark.parametrize("game", GAMES)
def test_rulebook_pages_embed_svg_and_no_mermaid(game: str) -> None:
    model = compile_model(ROOT / "rulebooks" / game / f"{game}.rules")
    markdown, page = generate_all_docs(model)
    assert 'class="mermaid"' not in page and "stateDiagram" not in page
    assert "```mermaid\nstateDiagram-v2" in markdown  # GitHub draws the Markdown's
    svgs = re.findall(r"<svg .*?</svg>", page, flags=re.S)
    turn = [s for s in svgs if "the turn sequence" in s]
    assert len(turn) == 1
    root = parse(turn[0])
    words = texts(root)
    for phase in model.phases:
        assert phase.replace("_", " ") in words
    assert_apart(node_boxes(root) + label_boxes(root))
    assert_edges_miss_boxes(root)
    # the text alternative: every transition in words, linking the phases
    start = page.index("<details>")  # the rule-source blocks have a class: not these
    details = page[start:page.index("</details>", start)]
    for phase in model.phases:
        assert f'href="#phase-{phase.replace("_", "-")}"' in details
    # an arrow for each pair of phases and innermost condition; the words say each
    # transition whole, with the conditions around it (several may share an arrow)
    arrows = re.findall(r"^    (\S+) --> (\S+)", markdown, flags=re.M)
    assert details.count("<li>") >= len(arrows)
    def named(phase: str, end: str) -> str:
        return end if phase == "[*]" else f'href="#phase-{phase.replace("_", "-")}"'

    items = details.split("<li>")[1:]
    for source, target in arrows:
        assert any(named(source, "From the start") in item
                   and named(target, "the end of the game") in item.split(" to ", 1)[1]
                   for item in items), (source, target)


def test_dynasties_page_draws_the_provinces() -> None:
    _, page = generate_all_docs(compile_model(ROOT / "rulebooks" / "dynasties" /
                                              "dynasties.rules"))
    board = [s for s in re.findall(r"<svg .*?</svg>", page, flags=re.S)
             if "the board Province" in s]
    root = parse(board[0])
    assert sorted(texts(root)) == ["Mandarin", "Mongolia", "Qinghai", "Tibet", "Xinjiang"]
    assert len(list(root.iter(f"{SVG}line"))) == 8
    assert "<tr><td>Mongolia</td><td>Qinghai, Mandarin, Xinjiang</td></tr>" in page
    assert ('<li>From the start to <a href="#phase-choose-warlord">choose warlord</a>, when '
            "<code>warlords</code>.</li>") in page
    # the conditions around the innermost, which the arrow alone shows (`track > 0`)
    assert ('<li>From <a href="#phase-resolution">resolution</a> to the end of the game, when '
            "<code>dynasty == 9 and track &gt; 0</code>.</li>") in page
    assert ('<li>From <a href="#phase-resolution">resolution</a> to '
            '<a href="#phase-placement">placement</a>, otherwise.</li>') in page


def test_committed_html_has_no_mermaid() -> None:
    pages = sorted((ROOT / "generated" / "docs").glob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert 'class="mermaid"' not in text and "<svg" in text, page


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_pictures_are_the_same_bytes_whatever_the_hash_seed() -> None:
    """Two builds in fresh interpreters, with different hash seeds (set and dict order of
    strings), write the same pictures."""
    script = ("import re; from pathlib import Path; from compiler.docgen import generate_all_docs; "
              "from compiler.driver import check_rulebook; "
              "m = check_rulebook(Path('rulebooks/dynasties/dynasties.rules')).model; "
              "print(''.join(re.findall(r'<svg .*?</svg>', generate_all_docs(m)[1], re.S)))")
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count("<svg") == 2


def test_a_transition_keeps_its_whole_condition_in_the_page() -> None:
    page = (ROOT / "generated" / "docs" / "rulers_gambit.html").read_text()
    condition = "turn == 1 and not any(has(u, first_strike) for u in units[turn_player])"
    assert condition in page  # brackets, commas and all: the SVG and the words escape it


def test_a_transition_says_every_if_around_it_and_a_called_phase_goes_back(
    tmp_path: Path,
) -> None:
    """`if x { if y { call b } }` read "from a to b, when y" (x was lost), and the phase that
    `call` enters had no way back in the diagram: its `return` is an arrow to each caller."""
    rules = tmp_path / "dg.rules"
    rules.write_text('game dg {\n  title "DG"\n  players 2\n}\n'
                     "state { x: bool = false  y: bool = false }\nsetup { goto a }\n"
                     "phase a {\n  actor A\n  action go() { if x { if y { call b } } }\n"
                     "  action stop() { win A }\n}\n"
                     "phase b {\n  actor B\n  action back() { return }\n}\n", encoding="utf-8")
    markdown, page = generate_all_docs(compile_model(rules))
    assert "    a --> b : y\n" in markdown and "    b --> a : return\n" in markdown
    assert ('From <a href="#phase-a">a</a> to <a href="#phase-b">b</a>, when '
            "<code>x and y</code>.") in page
    assert ('From <a href="#phase-b">b</a> back to <a href="#phase-a">a</a>, which called '
            "it.") in page
