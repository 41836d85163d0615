"""Areas of a board that generated hex games ask for: the nodes within or at a distance,
and the nodes connected to one inside an area."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# Areas by (row of a distance table, radius, exact): hex games ask for the same few areas
# thousands of times a game. Each entry keeps its row alive, so the row's id cannot be reused
# by another object while the entry exists.
_AREAS: dict[tuple[int, int, bool], tuple[Sequence[int], tuple[int, ...]]] = {}


def _area(distances: Sequence[int], radius: int, exact: bool) -> list[int]:
    key = (id(distances), radius, exact)
    entry = _AREAS.get(key)
    if entry is None or entry[0] is not distances:
        found = tuple(node for node, d in enumerate(distances)
                      if (d == radius if exact else 0 <= d <= radius))
        if len(_AREAS) >= 1 << 16:
            _AREAS.clear()
        entry = _AREAS[key] = (distances, found)
    return list(entry[1])


def within(distances: Sequence[int], radius: int) -> list[int]:
    """The nodes whose distance (a row of a board's distance table) is at most `radius`."""
    return _area(distances, radius, False)


def ring(distances: Sequence[int], radius: int) -> list[int]:
    """The nodes at exactly `radius`."""
    return _area(distances, radius, True)


def rings(distances: Sequence[int], count: int) -> tuple[tuple[int, ...], ...]:
    """The nodes at each distance from 0 to count - 1 (a row of a distance table), each in
    board order: a node's row of a board's table of rings (N_<board>_RINGS), from which
    generated games read ring() at a distance that the rules work out."""
    found: list[list[int]] = [[] for _ in range(count)]
    for node, d in enumerate(distances):
        if 0 <= d < count:
            found[d].append(node)
    return tuple(map(tuple, found))


def connected(start: int, area: Iterable[int], neighbours: Sequence[Sequence[int]]) -> list[int]:
    """The nodes of `area` joined to `start` by steps between neighbours that stay inside
    `area`, plus `start` itself, in board order (a flood fill)."""
    inside = set(area)
    found = {start}
    frontier = [start]
    while frontier:
        node = frontier.pop()
        for other in neighbours[node]:
            if other in inside and other not in found:
                found.add(other)
                frontier.append(other)
    return sorted(found)


def grid_cell(lines: Sequence[Sequence[int]], row: int, column: int) -> int | None:
    """The cell at (row, column) of a grid whose rows are `lines`, both counted from 1; None
    off the board (a negative index must not wrap round to the far side)."""
    if 1 <= row <= len(lines) and 1 <= column <= len(lines[0]):
        return lines[row - 1][column - 1]
    return None


def grid_line(lines: Sequence[Sequence[int]], index: int) -> list[int]:
    """The cells of row or column `index` (from 1) of a grid given as `lines`; none off it."""
    return list(lines[index - 1]) if 1 <= index <= len(lines) else []


def facing_distance(rows: Sequence[int], columns: Sequence[int], mine: int, theirs: int) -> int:
    """Zones down a column from `mine` on one side of a grid to `theirs` on the other, the two
    sides facing across their first rows (so A1 to A1 is 1); -1 when the columns differ."""
    if columns[mine] != columns[theirs]:
        return -1
    return rows[mine] + rows[theirs] - 1
