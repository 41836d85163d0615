"""The builtins of grid geometry compiled to Python: each reads tables of its grid, written
once at the end of the module for the grids the rules ask about (docs/language.md, "The
builtin prelude")."""

from __future__ import annotations

from compiler import types as t
from compiler.model import GameModel
from compiler.pygen_base import upper
from compiler.pygen_wrap import Writer
from dsl import nodes as n

# The tables that the builtins of one cell read, by builtin.
_CELL_TABLES = {"ahead": "AHEAD", "behind": "BEHIND", "surrounding": "NEIGHBOURS"}


def grid_call(model: GameModel, grids: set[str], e: n.Call, args: list[str]) -> str:
    """Python source for a call of a grid builtin; adds its board to `grids`. The board is
    named by the first argument (cell, row_cells, column_cells) or is the type of a cell."""
    name = e.func
    first = e.args[0]
    if name in ("cell", "row_cells", "column_cells"):
        assert isinstance(first, n.Name)
        board = first.id
    else:
        node_type = model.type_of(first)
        assert isinstance(node_type, t.NodeT)
        board = node_type.board
    grids.add(board)
    g = f"N_{upper(board)}"
    if name == "cell":
        return f"rt.grid_cell({g}_ROWS, {args[1]}, {args[2]})"
    if name in ("row_cells", "column_cells"):
        return f"rt.grid_line({g}_{'ROWS' if name == 'row_cells' else 'COLUMNS'}, {args[1]})"
    if name in ("row", "column"):
        return f"{g}_{name.upper()}[{args[0]}]"
    if name == "facing_distance":
        return f"rt.facing_distance({g}_ROW, {g}_COLUMN, {args[0]}, {args[1]})"
    return f"list({g}_{_CELL_TABLES[name]}[{args[0]}])"


def write_grid_tables(model: GameModel, w: Writer, grids: set[str]) -> None:
    """For each grid in `grids`: each cell's row and column (from 1), the cells by row and by
    column, and the cells of each cell's column ahead of it and behind it, nearest first.
    Surrounding cells are the board's neighbours, which every board has already."""
    for board in sorted(grids):
        coords = model.boards[board].coords
        g = f"N_{upper(board)}"
        rows = [r + 1 for r, _ in coords]
        columns = [c + 1 for _, c in coords]
        by_row = [[i for i, (r, _) in enumerate(coords) if r == k] for k in range(max(rows))]
        by_column = [[i for i, (_, c) in enumerate(coords) if c == k]
                     for k in range(max(columns))]
        ahead = [by_column[c - 1][:r - 1][::-1] for r, c in zip(rows, columns, strict=True)]
        behind = [by_column[c - 1][r:] for r, c in zip(rows, columns, strict=True)]
        w.line()
        w.line()
        w.line(f"# the grid {board}, for the rules that ask for its rows and columns")
        for suffix, table in (("ROW", rows), ("COLUMN", columns)):
            w.line(f"{g}_{suffix}: Final = {tuple(table)!r}")
        for suffix, lines in (("ROWS", by_row), ("COLUMNS", by_column),
                              ("AHEAD", ahead), ("BEHIND", behind)):
            w.line(f"{g}_{suffix}: Final = {tuple(tuple(x) for x in lines)!r}")
