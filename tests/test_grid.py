"""The grid builtins at run time: rows and columns from 1, the cell at a row and column (none
off the board), whole rows and columns, a column ahead and behind, surrounding cells, and the
distance down a lane between two sides facing across their rows A."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from compiler.api import load_game
from compiler.english import English
from dsl.runtime import GameState

RULES = """game g { title "G" players 2 }
board Cell: grid 3 by 5 { held: bool = false }
setup { goto p }
phase p { actor if any(not c.held for c in Cell) then A else none
  action a(c: Cell) { c.held = true }
  on done { win A } }
function r(c: Cell) -> int = row(c)
function k(c: Cell) -> int = column(c)
function at(i: int, j: int) -> Cell? = cell(Cell, i, j)
function across(i: int) -> list of Cell = row_cells(Cell, i)
function down(j: int) -> list of Cell = column_cells(Cell, j)
function before(c: Cell) -> list of Cell = ahead(c)
function after(c: Cell) -> list of Cell = behind(c)
function around(c: Cell) -> list of Cell = surrounding(c)
function lane(a: Cell, b: Cell) -> int = facing_distance(a, b)
"""


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, GameState]:
    path: Path = tmp_path_factory.mktemp("grid") / "g.rules"
    path.write_text(RULES, encoding="utf-8")
    game = load_game(str(path))
    return game, game.new_game(seed=1)


def names(game: ModuleType, cells: list[int]) -> list[str]:
    return [game.N_CELL_NAMES[c] for c in cells]


def test_rows_and_columns_count_from_one(grid: tuple[ModuleType, GameState]) -> None:
    game, s = grid
    c5 = game.N_CELL_NAMES.index("C5")
    assert (game.f_r(s, c5), game.f_k(s, c5)) == (3, 5)
    assert (game.f_r(s, 0), game.f_k(s, 0)) == (1, 1)


@pytest.mark.parametrize(("i", "j", "name"), [(1, 1, "A1"), (3, 5, "C5"), (2, 4, "B4"),
                                              (0, 1, None), (4, 1, None), (1, 0, None),
                                              (1, 6, None), (-1, -1, None)])
def test_the_cell_at_a_row_and_column_is_none_off_the_board(
        grid: tuple[ModuleType, GameState], i: int, j: int, name: str | None) -> None:
    game, s = grid
    found = game.f_at(s, i, j)
    assert (None if found is None else game.N_CELL_NAMES[found]) == name


def test_rows_and_columns_list_their_cells_in_order(grid: tuple[ModuleType, GameState]) -> None:
    game, s = grid
    assert names(game, game.f_across(s, 2)) == ["B1", "B2", "B3", "B4", "B5"]
    assert names(game, game.f_down(s, 3)) == ["A3", "B3", "C3"]
    assert game.f_across(s, 4) == [] and game.f_down(s, 0) == []


def test_ahead_and_behind_run_along_the_column_nearest_first(
        grid: tuple[ModuleType, GameState]) -> None:
    game, s = grid
    index = game.N_CELL_NAMES.index
    assert names(game, game.f_before(s, index("C2"))) == ["B2", "A2"]
    assert names(game, game.f_after(s, index("A2"))) == ["B2", "C2"]
    assert game.f_before(s, index("A4")) == [] and game.f_after(s, index("C4")) == []


def test_surrounding_cells_are_the_eight_around_or_fewer_at_the_edge(
        grid: tuple[ModuleType, GameState]) -> None:
    game, s = grid
    index = game.N_CELL_NAMES.index
    assert sorted(names(game, game.f_around(s, index("B3")))) == [
        "A2", "A3", "A4", "B2", "B4", "C2", "C3", "C4"]
    assert sorted(names(game, game.f_around(s, index("A1")))) == ["A2", "B1", "B2"]


@pytest.mark.parametrize(("mine", "theirs", "zones"), [("A1", "A1", 1), ("B1", "A1", 2),
                                                       ("C3", "B3", 4), ("C5", "C5", 5),
                                                       ("A1", "A2", -1)])
def test_facing_distance_crosses_both_front_rows(
        grid: tuple[ModuleType, GameState], mine: str, theirs: str, zones: int) -> None:
    game, s = grid
    index = game.N_CELL_NAMES.index
    assert game.f_lane(s, index(mine), index(theirs)) == zones


def test_grid_builtins_read_as_english() -> None:
    assert English.builtin("surrounding", ["B3"]) == "the cells surrounding B3"
    assert English.builtin("cell", ["Cell", "2", "3"]) == "the cell in row 2, column 3"
    assert English.builtin("column_cells", ["Cell", "2"]) == "the cells of column 2"
    assert English.builtin("column_cells", ["Cell", "the column of *c*"]) == (
        "the cells in the column of *c*")
    assert English.builtin("facing_distance", ["*a*", "*b*"]) == (
        "the number of zones from *a* across both front rows to *b*")
