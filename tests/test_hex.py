"""Hex maps: the odd-r layout's neighbours, distances and rings, and map values on nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.api import load_game
from compiler.driver import check_rulebook
from compiler.model import BoardInfo, hex_cube, hex_neighbour_offsets
from dsl import runtime as dsl_runtime

CASES = Path(__file__).resolve().parent / "cases"


def compiled_board(tmp_path: Path, rows: list[str]) -> BoardInfo:
    (tmp_path / "m.map.yaml").write_text(
        "legend:\n  '.': {terrain: plains}\nrows:\n" + "".join(f"  - '{r}'\n" for r in rows),
        encoding="utf-8",
    )
    rules = tmp_path / "g.rules"
    rules.write_text(
        'game g { title "G" players 2 }\n'
        "enum Terrain { plains, water }\n"
        'board Tile: hex "m.map.yaml" { terrain: Terrain = water }\n'
        "setup { goto p }\n"
        "phase p { actor if any(t.terrain == water for t in Tile) then A else none\n"
        "  action a(t: Tile) { t.terrain = water }\n"
        "  on done { win A } }\n",
        encoding="utf-8",
    )
    compilation = check_rulebook(rules)
    assert compilation.ok, compilation.diagnostics.sorted()
    assert compilation.model is not None
    return compilation.model.boards["Tile"]


def test_every_hex_has_six_neighbours_inside_a_full_map(tmp_path: Path) -> None:
    board = compiled_board(tmp_path, [" ".join("." * 7)] * 7)
    for i, (r, c) in enumerate(board.coords):
        if 0 < r < 6 and 0 < c < 6:
            assert len(board.neighbours[i]) == 6, board.nodes[i]
        for j in board.neighbours[i]:
            assert i in board.neighbours[j], "neighbourhood is symmetric"


def test_distance_is_the_shortest_path_on_a_full_map(tmp_path: Path) -> None:
    board = compiled_board(tmp_path, [" ".join("." * 6)] * 6)
    geometric = board.distances()
    board.kind = "graph"  # the same nodes, measured by breadth-first search instead
    assert board.distances() == geometric


def test_rings_of_an_interior_hex_hold_six_times_the_radius(tmp_path: Path) -> None:
    board = compiled_board(tmp_path, [" ".join("." * 9)] * 9)
    centre = board.nodes.index("E5")
    table = board.distances()[centre]
    for radius in (1, 2, 3, 4):
        assert sum(1 for d in table if d == radius) == 6 * radius


def test_holes_do_not_lengthen_distances(tmp_path: Path) -> None:
    board = compiled_board(tmp_path, [". . . .", ". - - .", ". . . ."])
    a, b = board.nodes.index("A1"), board.nodes.index("C1")
    assert board.distances()[a][b] == 2
    assert "B2" not in board.nodes


@pytest.mark.parametrize("row", [0, 1, 2, 3])
def test_neighbour_steps_are_one_hex_away(row: int) -> None:
    here = hex_cube(row, 3)
    for dr, dc in hex_neighbour_offsets(row):
        there = hex_cube(row + dr, 3 + dc)
        assert max(abs(x - y) for x, y in zip(here, there, strict=True)) == 1


def test_map_values_start_the_node_fields_and_builtins_use_the_geometry() -> None:
    game = load_game(str(CASES / "board_hex_valid.rules"))
    state = game.new_game(seed=1)
    assert state.get("tile.A3.terrain") == "water"
    assert state.get("tile.B1.start") == "A"
    assert state.get("tile.A1.start") is None
    taken = [str(a) for a in state.legal_actions()]
    assert "A takes A3" not in taken and "A takes B3" not in taken  # water
    assert "A takes C2" not in taken  # a hole in the map
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0])


def test_a_hex_map_is_drawn_as_an_svg_picture_in_the_docs(tmp_path: Path) -> None:
    import xml.dom.minidom

    from compiler.build import outputs

    compilation = check_rulebook(CASES / "board_hex_valid.rules")
    files = outputs(compilation, tmp_path)
    picture = files[tmp_path / "docs" / "g.tile.svg"]
    document = xml.dom.minidom.parseString(picture)
    assert compilation.model is not None
    nodes = compilation.model.boards["Tile"].nodes
    assert len(document.getElementsByTagName("polygon")) == len(nodes)
    labels = [t.firstChild.nodeValue for t in document.getElementsByTagName("text")
              if t.firstChild is not None]
    assert set(nodes) <= set(labels)
    assert "A" in labels, "the starting hex of A is marked"
    assert {"plains", "water"} <= set(labels), "the terrain legend"
    assert "#84bfe8" in picture, "water is drawn blue"
    assert "![The map of Tile](g.tile.svg)" in files[tmp_path / "docs" / "g.md"]
    assert '<img src="g.tile.svg"' in files[tmp_path / "docs" / "g.html"]


def variant_rulebook(tmp_path: Path, second_rows: list[str], second_name: str = "big") -> Path:
    (tmp_path / "small.map.yaml").write_text(
        "legend:\n  '.': {terrain: plains}\nrows:\n  - '. .'\n  - '. .'\n", encoding="utf-8")
    (tmp_path / f"{second_name}.map.yaml").write_text(
        "legend:\n  '.': {terrain: plains}\n  '~': {terrain: water}\nrows:\n"
        + "".join(f"  - '{r}'\n" for r in second_rows), encoding="utf-8")
    rules = tmp_path / "g.rules"
    rules.write_text(
        'game g { title "G" players 2 }\n'
        "enum Terrain { plains, water }\n"
        f'board Tile: hex "small.map.yaml", "{second_name}.map.yaml" '
        "{ terrain: Terrain = water  house: bool = false }\n"
        "setup { goto p }\n"
        "phase p { actor if any(not t.house for t in Tile) then A else none\n"
        "  action build(t: Tile) { t.house = true }\n"
        "  on done { win A } }\n",
        encoding="utf-8",
    )
    return rules


def test_a_board_with_two_maps_builds_a_variant_game_on_the_second(tmp_path: Path) -> None:
    rules = variant_rulebook(tmp_path, [". . ~", ". . ."])
    compilation = check_rulebook(rules)
    assert compilation.ok, compilation.diagnostics.sorted()
    assert compilation.model is not None
    assert compilation.model.variants == [("g_big", "big.map.yaml")]
    [variant] = compilation.variants
    assert variant.model is not None and variant.model.name == "g_big"
    assert len(compilation.model.boards["Tile"].nodes) == 4
    assert len(variant.model.boards["Tile"].nodes) == 6
    game = load_game(str(rules))
    assert game.INFO["name"] == "g"


def test_a_variant_map_with_a_bad_value_is_reported_in_that_map(tmp_path: Path) -> None:
    rules = variant_rulebook(tmp_path, [". ? ."])
    compilation = check_rulebook(rules)
    [error] = [d for d in compilation.diagnostics.items if d.code.startswith("E")]
    assert error.code == "E0401" and error.span.file.endswith("big.map.yaml")
    assert error.message == "row 1 uses '?', which the legend does not give"
    assert error.notes and error.notes[0].startswith("the board at ")
    assert not compilation.ok


def test_a_variant_needs_a_map_file_name_that_makes_a_game_name(tmp_path: Path) -> None:
    rules = variant_rulebook(tmp_path, [". ."], second_name="Big-Map")
    compilation = check_rulebook(rules)
    [error] = [d for d in compilation.diagnostics.items if d.code.startswith("E")]
    assert error.code == "E0401" and "cannot name a variant" in error.message


def test_connected_floods_through_the_area_only() -> None:
    game = load_game("dynasty_builder")
    names = list(game.N_HEX_NAMES)

    def flood(start: str, area: list[str]) -> list[str]:
        found = dsl_runtime.connected(names.index(start), [names.index(a) for a in area],
                                      game.N_HEX_NEIGHBOURS)
        return [names[i] for i in found]

    # D2's neighbours are C2 C3 D1 D3 E2 E3; F2 touches E2 and E3 only
    assert flood("D2", ["C2", "F2"]) == ["C2", "D2"]
    assert flood("D2", ["C2", "E2", "F2"]) == ["C2", "D2", "E2", "F2"]
    assert flood("D2", []) == ["D2"]


def test_scripted_rolls_are_used_in_order_and_checked() -> None:
    from compiler.scenarios import ScriptedRng
    from dsl.runtime import RuleError
    from dsl.runtime_rng import Rng

    rng = ScriptedRng(Rng(5), [6, 1])
    assert [rng.roll(6), rng.roll(6)] == [6, 1]
    assert 1 <= rng.roll(6) <= 6  # the seeded generator again
    with pytest.raises(RuleError, match="not a result of a 6-sided die"):
        ScriptedRng(Rng(5), [7]).roll(6)
