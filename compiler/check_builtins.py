"""The builtin functions and aggregates of the language: their signatures, and the type of a
call of a builtin (its arguments already typed).
"""

from __future__ import annotations

from collections.abc import Callable

from compiler import symbols as sym
from compiler import types as t
from compiler.check_base import CheckerBase
from dsl import nodes as n

AGGREGATES = {"sum", "count", "min", "max", "any", "all", "first", "list"}
BUILTINS = {
    "size": "size(zone or list) -> int",
    "empty": "empty(zone or list) -> bool",
    "first": "first(zone or list) -> element?",
    "last": "last(zone or list) -> element?",
    "opponent": "opponent(player) -> player",
    "next_player": "next_player(player) -> player",
    "ally": "ally(player, player) -> bool: on one team (a player is its own ally)",
    "allies": "allies(player) -> list of player: the player's teammates still in",
    "opponents": "opponents(player) -> list of player: the players of other teams still in",
    "next_in": "next_in(player) -> player: the next player still in, in turn order",
    "captain": "captain(player) -> player: the first seat of its team, whose zones the team "
               "shares",
    "previous_in": "previous_in(player) -> player: the previous player still in",
    "after": "after(player) -> list of player: the players still in after it, in turn order",
    "standing": "standing() -> list of player: the players still in, in seat order",
    "last_standing": "last_standing() -> player?: the first player still in when all those "
                     "still in are of one team",
    "abs": "abs(int) -> int",
    "min": "min(int, int, ...) -> int",
    "max": "max(int, int, ...) -> int",
    "roll": "roll(sides: int) -> int, from 1 to sides",
    "flip": "flip() -> bool, a coin flip",
    "shuffled": "shuffled(list) -> list in random order",
    "neighbours": "neighbours(node) -> list of node",
    "adjacent": "adjacent(node, node) -> bool",
    "distance": "distance(node, node) -> int",
    "within": "within(node, radius: int) -> list of node",
    "ring": "ring(node, radius: int) -> list of node: the nodes at exactly that distance",
    "connected": "connected(start: node, area: list of node) -> list of node: the nodes of area "
                 "joined to start by steps between neighbours inside area",
    "decklist": "decklist(player) -> list of card definitions: the deck the player brought",
    "row": "row(cell) -> int: the row of a grid cell, from 1 for row A",
    "column": "column(cell) -> int: the column of a grid cell, from 1",
    "cell": "cell(Grid, row: int, column: int) -> cell?: the cell there, none off the board",
    "row_cells": "row_cells(Grid, row: int) -> list of cell: the row, from column 1",
    "column_cells": "column_cells(Grid, column: int) -> list of cell: the column, from row A",
    "ahead": "ahead(cell) -> list of cell: the cells before it in its column, nearest first",
    "behind": "behind(cell) -> list of cell: the cells after it in its column, nearest first",
    "surrounding": "surrounding(cell) -> list of cell: the up to 8 cells around it",
    "facing_distance": "facing_distance(cell, cell) -> int: zones down a column between two "
                       "sides of one grid facing across their rows A; -1 in different columns",
}
# The builtins of grid geometry: they need a node of a `grid` board, or (GRID_BY_NAME) the
# board's name first, since a row and a column alone do not say which grid they are on.
GRID_BUILTINS = frozenset({"row", "column", "cell", "row_cells", "column_cells", "ahead",
                           "behind", "surrounding", "facing_distance"})
GRID_BY_NAME = frozenset({"cell", "row_cells", "column_cells"})
SEAT_BUILTINS = sym.SEAT_BUILTINS
# Functions a designer may reach for to name a team, which the language names by its players.
TEAM_WORDS = frozenset({"team", "team_of", "teammates"})
TEAM_HINT = ("a zone 'per team' is named by any player of the team ('pool[p]'); 'allies(p)' "
             "lists p's teammates still in, '[p] + allies(p)' the team, 'ally(p, q)' tells "
             "whether two players are of one team, 'captain(p)' gives the team's first seat")


class BuiltinChecker(CheckerBase):
    """Types a call of a builtin function."""

    def builtin(self, e: n.Call, args: list[t.Type]) -> t.Type:
        name = e.func
        signature = BUILTINS[name]

        def arity(count: int) -> bool:
            if len(args) != count:
                self.error("E0203", e.span,
                           f"'{name}' takes {count} argument{'s' * (count != 1)}, "
                           f"{len(args)} given", hint=signature)
                return False
            return True

        def want(i: int, wanted: t.Type) -> None:
            self.expect(e.args[i], args[i], wanted, f"argument {i + 1} of '{name}'")

        def collection(i: int) -> t.Type:
            element = t.element_type(args[i])
            if element is None:
                self.error("E0205", e.args[i].span,
                           f"'{name}' needs a zone or a list, not {args[i]}", hint=signature)
                return t.ANY
            return element

        def node(i: int) -> t.Type:
            if not isinstance(args[i], (t.NodeT, t.AnyT)):
                self.error("E0201", e.args[i].span,
                           f"argument {i + 1} of '{name}' must be a board node, not {args[i]}")
                return t.ANY
            return args[i]

        if name in ("size", "empty"):
            if arity(1):
                collection(0)
            return t.INT if name == "size" else t.BOOL
        if name in ("first", "last"):
            return t.optional(collection(0)) if arity(1) else t.ANY
        if name in ("opponent", "next_player"):
            if arity(1):
                want(0, t.PLAYER)
            return t.PLAYER
        if name in SEAT_BUILTINS:
            return self.seat_builtin(e, args, arity, want)
        if name in ("abs", "roll"):
            if arity(1):
                want(0, t.INT)
            return t.INT
        if name in ("min", "max"):
            if len(args) < 2:
                self.error("E0203", e.span, f"'{name}' takes two or more ints", hint=signature)
            for i in range(len(args)):
                want(i, t.INT)
            return t.INT
        if name == "flip":
            arity(0)
            return t.BOOL
        if name == "decklist":
            if arity(1):
                want(0, t.PLAYER)
            deck = self.model.deck_rules
            if deck is None:
                return self.error("E0201", e.span, "decklist() needs deck rules: deck CardType "
                                  "{ ... }", hint="the deck rules say which card type decks hold")
            return t.ListT(t.DefT(deck.card_type))
        if name == "shuffled":
            return t.ListT(collection(0)) if arity(1) else t.ANY
        if name in ("neighbours", "within", "ring"):
            if not arity(1 if name == "neighbours" else 2):
                return t.ANY
            if name != "neighbours":
                want(1, t.INT)
            return t.ListT(node(0))
        if name == "connected":
            if not arity(2):
                return t.ANY
            start = node(0)
            self.expect(e.args[1], args[1], t.ListT(start), f"argument 2 of '{name}'")
            return t.ListT(start)
        if name in GRID_BUILTINS:
            return self.grid_builtin(e, args, arity, want, signature)
        if name in ("adjacent", "distance"):
            if arity(2):
                a, b = node(0), node(1)
                if not isinstance(a, t.AnyT) and not isinstance(b, t.AnyT) and a != b:
                    self.error("E0201", e.span, f"'{name}' needs two nodes of one board")
            return t.BOOL if name == "adjacent" else t.INT
        raise AssertionError(name)  # pragma: no cover

    def seat_builtin(self, e: n.Call, args: list[t.Type], arity: Callable[[int], bool],
                     want: Callable[[int, t.Type], None]) -> t.Type:
        name = e.func
        out = self.model.player_fields.get("out")
        if out is not None and (out.type != t.BOOL or out.per_player):
            self.error("E0201", e.span, f"'{name}' reads the player field 'out', which must "
                       f"be a bool, not {out.type}", hint="declare `out: bool = false` in "
                       "the player block: a player is out when it is true")
        if name == "ally":
            if arity(2):
                want(0, t.PLAYER)
                want(1, t.PLAYER)
            return t.BOOL
        if name in ("standing", "last_standing"):
            arity(0)
            return t.ListT(t.PLAYER) if name == "standing" else t.optional(t.PLAYER)
        if arity(1):
            want(0, t.PLAYER)
        return (t.PLAYER if name in ("next_in", "previous_in", "captain")
                else t.ListT(t.PLAYER))

    def grid_builtin(self, e: n.Call, args: list[t.Type], arity: Callable[[int], bool],
                     want: Callable[[int, t.Type], None], signature: str) -> t.Type:
        name = e.func
        boards = self.model.boards

        def cell(i: int) -> t.Type:
            type_ = args[i]
            if isinstance(type_, t.AnyT):
                return t.ANY
            if not isinstance(type_, t.NodeT) or boards[type_.board].kind != "grid":
                self.error("E0201", e.args[i].span, f"argument {i + 1} of '{name}' must be a "
                           f"cell of a grid board, not {type_}", hint=signature)
                return t.ANY
            return type_

        if name in GRID_BY_NAME:
            if not arity(3 if name == "cell" else 2):
                return t.ANY
            for i in range(1, len(args)):
                want(i, t.INT)
            first = e.args[0]
            if not isinstance(first, n.Name) or first.id not in boards \
                    or boards[first.id].kind != "grid":
                if not isinstance(args[0], t.AnyT):
                    self.error("E0201", first.span, f"argument 1 of '{name}' must be the name "
                               "of a grid board", hint=signature)
                return t.ANY
            node = t.NodeT(first.id)
            return t.optional(node) if name == "cell" else t.ListT(node)
        # Two grids cannot share a game (their cells would share names), so the cells of
        # facing_distance are always of one grid.
        if name == "facing_distance":
            if arity(2):
                cell(0)
                cell(1)
            return t.INT
        if not arity(1):
            return t.ANY
        found = cell(0)
        return t.INT if name in ("row", "column") else t.ListT(found)
