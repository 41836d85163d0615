"""Grid boards and `diagram`s drawn for the rulebook (compiler.grid_diagram).

The fixture tests/cases/board_grid_diagram.rules has a facing 3 by 4 grid with named rows and
columns and two diagrams. Its pictures must label every row and column (both sides of the
facing grid), mark exactly the cells that the diagram's condition selects (worked out here
from the rule's words, not from the compiler), escape the names, and be the same bytes on every
build. Dynasty TCG's "Ranges" must show what decision RANGE_SPAN says.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from compiler.driver import check_rulebook
from compiler.grid_diagram import diagram_lines, evaluate_diagrams, grid_pictures
from compiler.model import GameModel
from tests.playing import ROOT

FIXTURE = ROOT / "tests" / "cases" / "board_grid_diagram.rules"
SVG = "{http://www.w3.org/2000/svg}"


def model_of(path: Path) -> GameModel:
    compilation = check_rulebook(path)
    assert not compilation.diagnostics.sorted()
    assert compilation.model is not None
    return compilation.model


def texts(svg: str) -> list[str]:
    return [e.text or "" for e in ET.fromstring(svg).iter(f"{SVG}text")]


def drawings(svg: str) -> dict[tuple[str, str], set[str]]:
    """Each small drawing's (member, from) -> the cells it marks, from its data attributes
    and, to be sure they agree, from the fills of its cells."""
    found: dict[tuple[str, str], set[str]] = {}
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        marked = set(group.get("data-marked", "").split())
        fills = [rect.get("fill") for rect in group.iter(f"{SVG}rect")]
        assert fills.count("#e6c87a") == len(marked), (group.attrib, fills)
        found[(group.get("data-member", ""), group.get("data-from", ""))] = marked
    return found


def facing_distance(mine: str, theirs: str) -> int:
    """The zones from `mine` across both rows A to the other side's `theirs`, as the builtin's
    documentation says (docs/language.md); -1 in another column."""
    if mine[1:] != theirs[1:]:
        return -1
    return (ord(mine[0]) - ord("A") + 1) + (ord(theirs[0]) - ord("A") + 1) - 1


def test_a_facing_grid_is_drawn_as_two_labelled_sides() -> None:
    pictures = grid_pictures(model_of(FIXTURE))
    assert sorted(pictures) == ["g.cell.svg", "g.diagram-around.svg", "g.diagram-reach-range.svg"]
    board = texts(pictures["g.cell.svg"])
    for label in ("row A", "row B", "row C", "lane 1", "lane 4"):
        assert board.count(label) == 2, label  # each side its rows, the lanes above and below
    cells = [f"{r}{c}" for r in "ABC" for c in "1234"]
    assert sorted(x for x in board if x in cells) == sorted(cells * 2)
    assert "Grid &amp; &lt;Diagram&gt;: the board Cell" in pictures["g.cell.svg"]


def test_the_marked_cells_are_exactly_those_the_condition_selects() -> None:
    pictures = grid_pictures(model_of(FIXTURE))
    span = {"short": 1, "long": 3}
    expected = {(r, at): {t for t in (f"{x}{c}" for x in "ABC" for c in "1234")
                          if 1 <= facing_distance(at, t) <= span[r]}
                for r in span for at in ("A1", "C2")}
    assert drawings(pictures["g.diagram-reach-range.svg"]) == expected
    assert expected[("long", "A1")] == {"A1", "B1", "C1"}  # the test itself, by hand
    # without `opposing`, the marks are on the side drawn from: the lower one
    around = pictures["g.diagram-around.svg"]
    assert drawings(around) == {("", "B2"): {"A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"}}
    rects = [r for r in ET.fromstring(around).iter(f"{SVG}rect") if r.get("width") == "20"]
    lower = min(float(r.get("y", "0")) for r in rects) + 3 * 14 + 10  # below the other side
    assert all(float(r.get("y", "0")) >= lower for r in rects if r.get("fill") != "#ffffff")
    svg = pictures["g.diagram-reach-range.svg"]
    assert "Reach &amp; &lt;range&gt;" in svg and "<range>" not in svg
    assert "opposing target where hits(r, at, target)" in texts(svg)


def test_the_pictures_are_the_same_bytes_on_every_build() -> None:
    assert grid_pictures(model_of(FIXTURE)) == grid_pictures(model_of(FIXTURE))


def test_dynasty_tcg_draws_its_ranges_as_decision_range_span_says() -> None:
    model = model_of(ROOT / "rulebooks" / "dynasty_tcg" / "dynasty_tcg.rules")
    (ranges,) = evaluate_diagrams(model)
    assert ranges.members == ["melee", "reach", "mobile", "ranged"]
    # melee 1 zone, reach 2, ranged 4, mobile the whole lane (5), counted across both rows A
    assert diagram_lines(ranges) == [
        "melee, from A3: the other side's A3", "melee, from B3: none", "melee, from C3: none",
        "reach, from A3: the other side's A3, B3", "reach, from B3: the other side's A3",
        "reach, from C3: none",
        "mobile, from A3: the other side's A3, B3, C3",
        "mobile, from B3: the other side's A3, B3, C3",
        "mobile, from C3: the other side's A3, B3, C3",
        "ranged, from A3: the other side's A3, B3, C3",
        "ranged, from B3: the other side's A3, B3, C3",
        "ranged, from C3: the other side's A3, B3",  # from the back row up to the mid row
    ]
    docs = ROOT / "generated" / "docs"
    svg = (docs / "dynasty_tcg.diagram-ranges.svg").read_text(encoding="utf-8")
    assert drawings(svg)[("ranged", "C3")] == {"A3", "B3"}
    for name in ("dynasty_tcg.md", "dynasty_tcg.html"):
        text = (docs / name).read_text(encoding="utf-8")
        assert "Diagram: Ranges" in text and "ranged, from C3" in text
