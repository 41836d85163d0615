"""Pass 1 — resolve, boards: a board declaration's nodes and neighbours from its grid, hex map
file or graph file, the initial values of its map, and `data_file`, which finds a data file named
by the rulebook (maps here, card sets in compiler.driver) inside the rulebook's folder.

BoardResolver is a mixin of compiler.resolve.Resolver, which supplies the attributes and the
declaration helpers declared below.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import yaml

from compiler import types as t
from compiler.model import BoardInfo, FieldInfo, GameModel, hex_neighbour_offsets
from compiler.project import NO_SUCH_PATH, path_problem
from dsl import nodes as n
from dsl.diagnostics import Diagnostics, did_you_mean
from dsl.source import SourceFile, Span, display_name, resolved
from dsl.yaml_limits import crossed_limit, repeated_key

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
MAX_MAP_BYTES = 4 * 1024 * 1024


def map_note(board: Span) -> str:
    """The note of a diagnostic shown in a map: which board reads the map."""
    return f"the board at {board} reads this map"


class MapFile:
    """A map file as the diagnostics about it need it: its name, and where each key and value
    is written (from the composed YAML), so that an error in a map is shown in the map."""

    def __init__(self, name: str, root: yaml.Node | None, board: Span) -> None:
        self.name = name
        self.root = root
        self.note = map_note(board)

    def node(self, *path: str | int) -> tuple[yaml.Node | None, yaml.Node | None]:
        """The key node and the value node at a path of keys and list positions."""
        key: yaml.Node | None = None
        current = self.root
        for step in path:
            if isinstance(current, yaml.MappingNode) and isinstance(step, str):
                found = next(((k, v) for k, v in current.value
                              if isinstance(k, yaml.ScalarNode) and k.value == step), None)
                if found is None:
                    return None, None
                key, current = found
            elif isinstance(current, yaml.SequenceNode) and isinstance(step, int) \
                    and 0 <= step < len(current.value):
                key, current = None, current.value[step]
            else:
                return None, None
        return key, current

    def nth_key(self, position: int, *path: str | int) -> yaml.ScalarNode | None:
        """The key written in place `position` of the mapping at path: a key YAML reads as
        something else than its text (`~` is none, `yes` true) is found by its place."""
        mapping = self.node(*path)[1]
        if isinstance(mapping, yaml.MappingNode) and 0 <= position < len(mapping.value):
            key = mapping.value[position][0]
            return key if isinstance(key, yaml.ScalarNode) else None
        return None

    def span(self, *path: str | int, key: bool = False) -> Span | None:
        """Where the value (or with key, the key) at path is written; None if it is not."""
        key_node, value_node = self.node(*path)
        return self.node_span(key_node if key and key_node is not None else value_node)

    def node_span(self, node: yaml.Node | None) -> Span | None:
        if node is None:
            return None
        start, end = node.start_mark, node.end_mark
        if end.line != start.line:  # a block value: its first line
            return Span.point(self.name, start.line + 1, start.column + 1)
        return Span(self.name, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


class BoardResolver:
    model: GameModel
    diagnostics: Diagnostics
    root: Path | None  # data files must stay inside this folder
    declare: Callable[[str, str, Span, str], bool]
    fields: Callable[[tuple[n.FieldDecl, ...], str], dict[str, FieldInfo]]

    def board(self, d: n.BoardDecl) -> None:
        shape = d.shape
        board = BoardInfo(d.name, "graph", [], [], {}, d.span, d.doc)
        if isinstance(shape, n.GraphInline):
            board.nodes = list(shape.nodes)
            index = {name: i for i, name in enumerate(board.nodes)}
            board.neighbours = [[] for _ in board.nodes]
            for a, b in shape.edges:
                self._link(board, index[a], index[b])
        elif isinstance(shape, n.GridShape):
            board.kind = "grid"
            board.row_word, board.column_word = shape.row_word, shape.column_word
            board.facing = shape.facing
            self.grid(board, shape)
        elif isinstance(shape, n.GraphFile):
            board.source = shape.path
            self.graph_file(board, shape)
        else:
            assert isinstance(shape, n.HexFile)
            board.kind = "hex"
            board.source = shape.path
            self.hex_file(board, shape)
        for i, name in enumerate(board.nodes):
            if name in board.nodes[:i]:
                self.diagnostics.add("E0102", shape.span, f"node '{name}' appears twice")
        board.fields = self.fields(d.fields, f"board {d.name}")
        self.model.boards[d.name] = board
        for name in board.nodes:
            self.declare("value", name, shape.span, "board node")

    @staticmethod
    def _link(board: BoardInfo, a: int, b: int) -> None:
        if a != b and b not in board.neighbours[a]:
            board.neighbours[a].append(b)
            board.neighbours[b].append(a)

    def grid(self, board: BoardInfo, shape: n.GridShape) -> None:
        if not (1 <= shape.rows <= 26 and 1 <= shape.columns <= 99):
            self.diagnostics.add("E0401", shape.span, "a grid has 1 to 26 rows, 1 to 99 columns")
            return
        for r in range(shape.rows):
            for c in range(shape.columns):
                board.nodes.append(f"{chr(ord('A') + r)}{c + 1}")
                board.coords.append((r, c))
        board.neighbours = [[] for _ in board.nodes]
        for i, (r, c) in enumerate(board.coords):
            for j, (r2, c2) in enumerate(board.coords):
                if i != j and max(abs(r - r2), abs(c - c2)) == 1:
                    board.neighbours[i].append(j)

    def hex_file(self, board: BoardInfo, shape: n.HexFile) -> None:
        """A hex map (docs/language.md, "Hex maps"): rows of symbols, odd rows shifted half a
        hex right; a legend gives each symbol's values for the board's fields."""
        loaded = self.map_data(shape.path, shape.span)
        if loaded is None:
            return
        data, located = loaded

        def refuse(message: str, where: Span | None = None) -> None:
            at = where or located.span()
            self.diagnostics.add("E0401", at or shape.span,
                                 message if at is not None else f"{shape.path}: {message}",
                                 hint="see the hex map format in docs/language.md",
                                 notes=[located.note] if at is not None else [])

        if not isinstance(data, dict) or set(data) - {"layout", "legend", "rows"}:
            other = sorted(str(k) for k in data if k not in ("layout", "legend", "rows")) \
                if isinstance(data, dict) else []
            refuse("a hex map has 'layout', 'legend' and 'rows' only",
                   located.span(other[0], key=True) if other else None)
            return
        if data.get("layout", "odd-r") != "odd-r":
            refuse("the only layout is 'odd-r' (odd rows shifted half a hex right)",
                   located.span("layout"))
            return
        legend, rows = data.get("legend"), data.get("rows")
        if not isinstance(legend, dict) or not all(
            isinstance(k, str) and len(k) == 1 and k != "-" and isinstance(v, dict)
            and all(isinstance(f, str) and isinstance(x, (str, int, bool)) for f, x in v.items())
            for k, v in legend.items()
        ):
            refuse("'legend' maps one-character symbols ('-' is no hex) to field values, "
                   "like '~': {terrain: water}", located.span("legend", key=True))
            return
        if not isinstance(rows, list) or not rows or len(rows) > 26 or not all(
            isinstance(row, str) for row in rows
        ):
            refuse("'rows' is a list of 1 to 26 rows of symbols separated by spaces",
                   located.span("rows", key=True))
            return
        fields = sorted({f for values in legend.values() for f in values})
        board.initial = {f: [] for f in fields}
        for symbol, values in legend.items():
            for f, value in values.items():
                where = located.span("legend", symbol, f)
                if where is not None:
                    board.value_spans.setdefault((f, value), where)
                    board.field_spans.setdefault(f, located.span("legend", symbol, f,
                                                                 key=True) or where)
        for r, row in enumerate(rows):
            symbols = row.split()
            if len(symbols) > 99:
                refuse(f"row {r + 1} has more than 99 hexes", located.span("rows", r))
                return
            for c, symbol in enumerate(symbols):
                if symbol == "-":
                    continue
                if symbol not in legend:
                    refuse(f"row {r + 1} uses '{symbol}', which the legend does not give",
                           located.span("rows", r))
                    return
                board.nodes.append(f"{chr(ord('A') + r)}{c + 1}")
                board.coords.append((r, c))
                for f in fields:
                    board.initial[f].append(legend[symbol].get(f, ""))
        index = {coord: i for i, coord in enumerate(board.coords)}
        board.neighbours = [[] for _ in board.nodes]
        for i, (r, c) in enumerate(board.coords):
            for dr, dc in hex_neighbour_offsets(r):
                j = index.get((r + dr, c + dc))
                if j is not None:
                    board.neighbours[i].append(j)
            board.neighbours[i].sort()

    def map_values(self, board: BoardInfo, span: Span) -> None:
        """The values a map gives node fields must fit the fields' types: each is reported
        where the map writes it, with a note naming the board that reads the map."""
        notes = [map_note(span)] if board.field_spans else []
        for name, values in board.initial.items():
            info = board.fields.get(name)
            where = board.field_spans.get(name, span)
            if info is None:
                self.diagnostics.add("E0104", where,
                                     f"the map gives '{name}', which board "
                                     f"{board.name} does not declare",
                                     hint=did_you_mean(name, board.fields), notes=notes)
                continue
            if info.per_player:
                self.diagnostics.add("E0201", where,
                                     f"the map gives '{name}', a 'per player' "
                                     "field: a map gives one value per node", notes=notes)
                continue
            kind = t.strip_optional(info.type)
            for value in dict.fromkeys(values):
                if value == "" and info.default is not None:
                    continue  # a symbol that leaves this field at its default
                ok = (
                    isinstance(kind, t.EnumT) and value in self.model.enums[kind.name].members
                    or isinstance(kind, t.IntT) and type(value) is int
                    or isinstance(kind, t.BoolT) and isinstance(value, bool)
                    or isinstance(kind, t.TextT) and isinstance(value, str)
                    or isinstance(kind, t.PlayerT) and value in self.model.player_names
                )
                if not ok:
                    self.diagnostics.add(
                        "E0201", board.value_spans.get((name, value), where),
                        f"the map gives {name} = {value!r}, which is not {kind}"
                        + ("" if value != "" else " (a symbol gives no value and the field "
                           "has no default)"),
                        hint=did_you_mean(str(value), self.model.enums[kind.name].members)
                        if isinstance(kind, t.EnumT) else None, notes=notes,
                    )

    def data_path(self, relative: str, span: Span) -> Path | None:
        return data_file(relative, span, self.root, self.diagnostics, MAX_MAP_BYTES)

    def map_data(self, relative: str, span: Span) -> tuple[object, MapFile] | None:
        """A map file's YAML, loaded safely, with where its parts are written; None
        (reported, in the map where the map is at fault) when it cannot be read."""
        path = self.data_path(relative, span)
        if path is None:
            return None
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            self.diagnostics.add("E0401", span, f"'{relative}' is not UTF-8 text: {error}")
            return None
        name = display_name(path)
        note = map_note(span)
        # the map is shown like a rulebook in the diagnostics that point into it
        self.model.sources.setdefault(name, SourceFile(name, text))
        crossed = crossed_limit(text, yaml.SafeLoader)
        if crossed is not None:
            self.diagnostics.add(crossed.code, crossed.span(name, text), crossed.message,
                                 hint=crossed.hint, notes=[note])
            return None
        loader: yaml.SafeLoader | None = None
        try:
            loader = yaml.SafeLoader(text)  # its reader refuses characters YAML does not allow
            # composed once: the nodes say where each part is written, the data is built
            # from them (safe_load would read the text a second time)
            root = loader.get_single_node()
            located = MapFile(name, root, span)
            repeated = None if root is None else repeated_key(root)
            if repeated is not None:  # YAML would keep the last silently
                first, again = repeated
                self.diagnostics.add("E0401", located.node_span(again) or span,
                                     f"'{again.value}' is given twice (first at line "
                                     f"{first.start_mark.line + 1}): keep one", notes=[note])
                return None
            data: object = None if root is None else loader.construct_document(root)
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            where = (Span.point(name, mark.line + 1, mark.column + 1) if mark is not None
                     else Span.point(name))
            problem = " ".join(str(error.problem or error.context or error).split())
            self.diagnostics.add("E0401", where, f"not valid YAML: {problem}", notes=[note])
            return None
        except yaml.YAMLError as error:
            self.diagnostics.add("E0401", span, f"'{relative}' is not valid YAML: {error}")
            return None
        finally:
            if loader is not None:
                loader.dispose()
        # an empty file: its shape is reported
        return ({} if data is None else data), located

    def graph_file(self, board: BoardInfo, shape: n.GraphFile) -> None:
        loaded = self.map_data(shape.path, shape.span)
        if loaded is None:
            return
        data, located = loaded

        def refuse(message: str, where: Span | None, hint: str | None = None) -> None:
            self.diagnostics.add("E0401", where or shape.span, message, hint=hint,
                                 notes=[located.note] if where is not None else [])

        nodes = data.get("nodes") if isinstance(data, dict) else None
        if not isinstance(nodes, dict) or not nodes:
            keys = [str(k) for k in data] if isinstance(data, dict) else []
            refuse(f"'{shape.path}' must map 'nodes' to a mapping: node name → list of "
                   "neighbours", located.span("nodes") or located.span(),
                   hint=did_you_mean(keys[0], ["nodes"]) if len(keys) == 1 else None)
            return
        other = [key for key in data if key != "nodes"] if isinstance(data, dict) else []
        if other:  # a misspelt or misplaced key would otherwise be dropped unseen
            refuse(f"a graph map has 'nodes' only, not '{other[0]}'",
                   located.span(str(other[0]), key=True) or located.span(),
                   hint=did_you_mean(str(other[0]), ["nodes"])
                   or "a node goes under 'nodes', with the list of nodes it borders")
            return
        for position, (name, neighbours) in enumerate(nodes.items()):
            if not isinstance(name, str) or not _IDENTIFIER.match(name):
                written = located.nth_key(position, "nodes")
                refuse(f"map node name '{written.value if written else name}' is not a valid "
                       "name", located.node_span(written),
                       hint="a node's name is a word of letters, digits and underscores" + (
                           ", which YAML does not read as something else (none, true, a "
                           "number)" if not isinstance(name, str) else ""))
                return
            if not isinstance(neighbours, list) or not all(
                isinstance(x, str) for x in neighbours
            ):
                refuse(f"neighbours of '{name}' must be a list of node names",
                       located.span("nodes", name))
                return
        board.nodes = list(nodes)
        index = {name: i for i, name in enumerate(board.nodes)}
        board.neighbours = [[] for _ in board.nodes]
        for name, neighbours in nodes.items():
            for position, other in enumerate(neighbours):
                if other not in index:
                    refuse(f"'{name}' names unknown neighbour '{other}'",
                           located.span("nodes", name, position),
                           hint=did_you_mean(other, index))
                    continue
                self._link(board, index[name], index[other])
        for row in board.neighbours:
            row.sort()


def data_file(
    relative: str, span: Span, root: Path | None, diagnostics: Diagnostics, limit: int
) -> Path | None:
    """A data file named by the rulebook, which must stay inside the rulebook's folder."""
    if not relative.isprintable():  # a line break in a name would reach messages and code
        diagnostics.add("E0401", span, f"the file name {relative!r} holds a line break or "
                        "another control character", hint="rename the file")
        return None
    base = resolved(Path(span.file)).parent
    path = resolved(base / relative)
    if not path.is_relative_to(resolved(root or base)):
        diagnostics.add(
            "E0401",
            span,
            f"'{relative}' is outside the rulebook's folder",
            hint="keep data files beside the rulebook",
        )
        return None
    if not path.is_file():
        problem = path_problem(path)
        reason = ("is a folder" if path.is_dir() else "is not a file that can be read (a pipe "
                  "or a device)" if problem is None else "does not exist"
                  if problem == NO_SUCH_PATH else f"cannot be read: {problem}")
        diagnostics.add("E0401", span, f"data file '{relative}' {reason}")
        return None
    if path.stat().st_size > limit:
        diagnostics.add("E0401", span, f"data file '{relative}' is larger than {limit:,} bytes")
        return None
    return path

