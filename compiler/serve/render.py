"""A seat's page as HTML, from what its observation, its log and its legal moves say.

Every text that comes from a game (card names and texts, node and field names, log lines)
goes through html.escape; the board pictures are the docs' SVG, escaped where they are
drawn. Only cards that the observation names get a face: a seat's page cannot hold a card
name that its observation does not."""

from __future__ import annotations

import copy
import dataclasses
import json
from html import escape
from typing import Any

from compiler import types as t
from compiler.board_diagram import MAX_BOARD_NODES, board_svg
from compiler.card_faces import CardFace, outline
from compiler.grid_diagram import MAX_GRID_CELLS, live_grid_svg
from compiler.hexmap import hex_svg
from compiler.model import BoardInfo
from compiler.serve.catalogue import Catalogue
from compiler.serve.session import DEVICE, HOTSEAT, Session
from dsl.runtime_base import Action

LOG_SHOWN = 40


def send(message: dict[str, Any]) -> str:
    """A button's message to the server, as an attribute value."""
    return escape(json.dumps(message, separators=(",", ":")), quote=True)


def button(label: str, message: dict[str, Any], cls: str = "") -> str:
    return (f'<button class="{cls}" data-send="{send(message)}">{escape(label)}</button>')


def words(name: str) -> str:
    return name.replace("_", " ")


def shown_value(value: object) -> str:
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):
        return ", ".join(shown_value(v) for v in value) or "—"
    return str(value)


# ---- the moves
def menu(actions: list[Action], prefix: list[int]) -> list[tuple[str, list[int]]]:
    """The buttons of the moves: a move of a kind with several parameters is chosen a
    parameter at a time (each step reads as the engine writes the move, with the parameters
    not yet chosen as neutral words); `prefix` is the kind and the parameters chosen."""
    if prefix:
        kind, chosen = prefix[0], tuple(prefix[1:])
        left = [a for a in actions if a.kind == kind and a.args[:len(chosen)] == chosen]
        if left:
            if len(left) == 1:
                return [(str(left[0]), [kind, *left[0].args])]
            step = len(chosen)
            while len({a.args[step] for a in left}) == 1:
                step += 1
            options: dict[int, list[Action]] = {}
            for action in left:
                options.setdefault(action.args[step], []).append(action)
            shown_bits = (1 << (step + 1)) - 1
            return [(str(group[0]) if len(group) == 1 else group[0].masked_text(shown_bits),
                     [kind, *group[0].args[:step + 1]]) for group in options.values()]
    kinds: dict[int, list[Action]] = {}
    for action in actions:
        kinds.setdefault(action.kind, []).append(action)
    buttons: list[tuple[str, list[int]]] = []
    for kind, group in kinds.items():
        if len(group) > 1 and len(group[0].args) > 1:
            buttons.append((group[0].masked_text(0) + " …", [kind]))
        else:
            buttons += [(str(a), [a.kind, *a.args]) for a in group]
    return buttons


# ---- cards and zones
def face_html(face: CardFace | None, name: str, state: dict[str, Any] | None) -> str:
    marks = ""
    if state:
        shown = [f"{words(k)}" if v is True else f"{words(k)} {shown_value(v)}"
                 for k, v in state.items() if v not in (None, False, 0, [], "")]
        if shown:
            marks = f'<div class="state">{escape(" · ".join(shown))}</div>'
    if face is None:
        return f'<div class="card plain"><div class="name">{escape(name)}</div>{marks}</div>'
    stats = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in face.stats)
    return (f'<div class="card"><div class="name">{escape(name)}</div>'
            f'<div class="type">{escape(face.card_type)}</div>'
            + (f"<dl>{stats}</dl>" if stats else "")
            + text_html(face.text)
            + (f'<div class="flavour">{escape(face.flavour)}</div>' if face.flavour else "")
            + marks + "</div>")


def text_html(text: list[str]) -> str:
    """A card's text (card_faces.outline): each effect's heading a line of its own, its
    statements a list, the body of an if, for or repeat a list inside the statement's item."""
    out: list[str] = []
    depth = 0  # the lists open, each but the innermost in an item left open
    for level, said in outline(text):
        if level == 0:
            out.append("</li></ul>" * depth)
            depth = 0
            out.append(f'<div class="effect">{escape(said)}</div>')
            continue
        if level > depth:
            out.append("<ul>" * (level - depth))
        else:
            out.append("</li>" + "</ul></li>" * (depth - level))
        depth = level
        out.append(f"<li>{escape(said)}")
    out.append("</li></ul>" * depth)
    return "".join(out)


def back_html(count: int) -> str:
    return (f'<div class="card back"><div class="count">{count}</div>'
            f'<div class="type">hidden</div></div>')


def zone_html(catalogue: Catalogue, zone: str, content: Any, states: list[Any] | None) -> str:
    cards: list[str] = []
    if isinstance(content, list):
        for i, name in enumerate(content):
            state = states[i] if states and i < len(states) and isinstance(states[i], dict) \
                else None
            cards.append(face_html(catalogue.face(str(name)), str(name), state))
        count = len(content)
    else:
        count = int(content.get("count", 0))
        revealed = content.get("revealed") or []
        cards += [face_html(catalogue.face(str(n)), str(n), None) for n in revealed]
        if count > len(revealed):
            cards.append(back_html(count - len(revealed)))
    title = " · ".join(words(part) for part in zone.split("."))
    return (f'<section class="zone"><h3>{escape(title)} <small>({count})</small></h3>'
            f'<div class="cards">{"".join(cards)}</div></section>')


def in_play(catalogue: Catalogue, zone: str, names: list[str]) -> bool:
    """Whether a zone of the view (`hand.A`, `field.B.C3`) is a seat's in play, or no seat's:
    a game of two of its six seats has the others' zones too, always empty."""
    name, *keys = zone.split(".")
    info = catalogue.model.zones.get(name)
    return info is None or all(key in names for per, key in zip(info.per, keys, strict=False)
                               if per == "player")


def _empty(content: Any) -> bool:
    return content == [] or (isinstance(content, dict) and not content.get("count")
                             and not content.get("revealed"))


# ---- boards
def _summary(fields: dict[str, Any]) -> str:
    return " ".join(shown_value(v) for v in fields.values()
                    if v not in (None, False, 0, "", []) and not isinstance(v, list))


Standing = dict[int, list[tuple[str, str]]]  # a node's index -> (owner or "", piece)


def pieces_on(board: BoardInfo, zones: dict[str, Any]) -> Standing:
    """What the view's zones put on each node of the board (a zone per node, or per player
    and node: `units.A.A2`): each card it may read by name, the others as a count."""
    index = {node: i for i, node in enumerate(board.nodes)}
    found: Standing = {}
    for key, content in zones.items():
        parts = key.split(".")
        if len(parts) < 2 or parts[-1] not in index:
            continue
        owner = parts[1] if len(parts) > 2 else ""
        here = found.setdefault(index[parts[-1]], [])
        if isinstance(content, list):
            here += [(owner, str(card)) for card in content]
        elif isinstance(content, dict):
            revealed = [str(card) for card in content.get("revealed") or []]
            here += [(owner, card) for card in revealed]
            hidden = int(content.get("count", 0)) - len(revealed)
            if hidden > 0:
                here.append((owner, f"{hidden} hidden"))
    return {i: pieces for i, pieces in found.items() if pieces}


def _tally(pieces: list[tuple[str, str]]) -> str:
    """Pieces in a few words: their names when two or fewer, else a count per owner."""
    if len(pieces) <= 2:
        return ", ".join(f"{owner}: {card}" if owner else card for owner, card in pieces)
    owners: dict[str, int] = {}
    for owner, _ in pieces:
        owners[owner] = owners.get(owner, 0) + 1
    return ", ".join(f"{owner} ×{count}" if owner else f"×{count}"
                     for owner, count in owners.items())


def board_html(catalogue: Catalogue, name: str, nodes: dict[str, Any],
               start: dict[str, Any], zones: dict[str, Any], viewer: str) -> str:
    info = catalogue.model.boards.get(name)
    picture = catalogue.pictures.get(name, "")
    standing = pieces_on(info, zones) if info is not None else {}
    title = f"{catalogue.title}: the board {name}"
    if info is not None and info.kind == "graph" and len(info.nodes) <= MAX_BOARD_NODES:
        labels = []
        for i, node in enumerate(info.nodes):
            summary = " · ".join(part for part in (_summary(nodes.get(node, {})),
                                                   _tally(standing.get(i, []))) if part)
            labels.append(node.capitalize() + (f" · {summary}" if summary else ""))
        links = [(i, j) for i, row in enumerate(info.neighbours) for j in row if i < j]
        picture = board_svg(title, labels, links, info.coords)
    elif info is not None and info.kind == "hex" and info.nodes:
        picture = live_hex(catalogue, info, nodes, standing)
    elif info is not None and info.kind == "grid" and 0 < len(info.nodes) <= MAX_GRID_CELLS:
        facing = info.facing
        mine = {i: [card if facing or not owner else f"{owner}: {card}"
                    for owner, card in pieces if not facing or owner in ("", viewer)]
                for i, pieces in standing.items()}
        theirs = {i: [card for owner, card in pieces if owner not in ("", viewer)]
                  for i, pieces in standing.items()} if facing else {}
        picture = live_grid_svg(title, info, mine, theirs)
    changed = {node: fields for node, fields in nodes.items() if fields != start.get(node)}
    rows = []
    columns: list[str] = []
    for fields in changed.values():
        columns += [k for k in fields if k not in columns]
    for node, fields in changed.items():
        cells = "".join(f"<td>{escape(shown_value(fields.get(c)))}</td>" for c in columns)
        rows.append(f"<tr><th>{escape(node)}</th>{cells}</tr>")
    head = "".join(f"<th>{escape(words(c))}</th>" for c in columns)
    table = (f'<table class="nodes"><tr><th></th>{head}</tr>{"".join(rows)}</table>'
             if rows else "<p>Every place as at the start.</p>")
    return (f'<section class="board"><h2>{escape(words(name))}</h2>'
            f'<div class="picture">{picture}</div>{table}</section>')


def live_hex(catalogue: Catalogue, board: BoardInfo, nodes: dict[str, Any],
             standing: Standing) -> str:
    """The docs' hex map with its marks taken from the view: each hex's player fields of
    the state (a house, a token), in place of the map file's (the starting areas), and the
    pieces the view puts on it."""
    live: dict[str, list[str | int | bool]] = {
        name: values for name, values in board.initial.items()
        if not isinstance(t.strip_optional(board.fields[name].type), t.PlayerT)}
    marks = [name for name, info in board.fields.items()
             if name not in board.initial and isinstance(t.strip_optional(info.type), t.PlayerT)]
    for name in marks:
        live[name] = [str(nodes.get(node, {}).get(name) or "") for node in board.nodes]
    if standing:
        # the pieces are the last mark of a hex: a field of their own would be read as
        # one of the board's by the map's drawing
        last = marks[-1] if marks else ""
        if not last:
            return hex_svg(catalogue.model, board.name)
        for i, pieces in standing.items():
            counts: dict[str, int] = {}
            for owner, _ in pieces:
                counts[owner] = counts.get(owner, 0) + 1
            tally = " ".join(f"{count}{owner}" for owner, count in counts.items())
            live[last][i] = f"{live[last][i]} {tally}".strip()
    model = copy.copy(catalogue.model)
    model.boards = {**model.boards, board.name: dataclasses.replace(board, initial=live)}
    return hex_svg(model, board.name)


# ---- the page
def view_html(session: Session, catalogue: Catalogue, seat: int, prefix: list[int],
              step: int | None, start_boards: dict[str, Any]) -> str:
    names = session.names
    viewer = session.viewer(seat)
    if session.passing(seat):
        return (f'<div class="pass"><h1>Pass the device to {escape(names[viewer])}</h1>'
                f"<p>{escape(names[viewer])}'s hand is hidden until they take it.</p>"
                + button(f"I am {names[viewer]}: show my view", {"type": "reveal"}, "big")
                + "</div>")
    replaying = step is not None and session.state.is_terminal()
    state = session.replay_state(step) if replaying and step is not None else session.state
    moves = session.moves[:step] if replaying and step is not None else session.moves
    view = state.observation(viewer)
    parts = [f"<header><h1>{escape(catalogue.title)}</h1><p>You are "
             f"<b>{escape(names[viewer])}</b> · phase <b>{escape(words(str(view['phase'])))}"
             "</b>"]
    if state.is_terminal():
        returns = list(state.returns())
        # nobody ahead of another: a draw, not "A +0, B +0" (a game of one has a result)
        outcome = ("a draw" if len(returns) > 1 and len(set(returns)) == 1
                   else ", ".join(f"{names[i]} {r:+.0f}" for i, r in enumerate(returns)))
        parts.append(f" · <b class='over'>game over: {escape(outcome)}</b>")
    else:
        parts.append(f" · <b>{escape(str(view['actor']))}</b> to act")
    parts.append("</p></header>")
    parts.append(controls_html(session, seat, viewer, replaying, step))
    actions = session.legal_for(seat) if not replaying else []
    if actions:
        buttons = menu(actions, prefix)
        parts.append('<section class="moves"><h2>Your move</h2><div class="buttons">')
        parts += [button(label, {"type": "pick", "choice": choice}, "move")
                  for label, choice in buttons]
        if prefix:
            parts.append(button("← back", {"type": "back"}, "back"))
        parts.append("</div></section>")
    elif not state.is_terminal():
        parts.append('<section class="moves"><p class="wait">Waiting for '
                     f'{escape(str(view["actor"]))}…</p></section>')
    parts.append(fields_html(view))
    zones = view.get("zones", {})
    fields = view.get("board", {})
    for board in catalogue.model.boards:
        parts.append(board_html(catalogue, board, fields.get(board, {}),
                                start_boards.get(board, {}), zones, names[viewer]))
    states = view.get("cards", {})
    zones = {z: c for z, c in zones.items() if in_play(catalogue, z, names)}
    shown = [zone_html(catalogue, z, c, states.get(z)) for z, c in zones.items() if not _empty(c)]
    empty = [words(z) for z, c in zones.items() if _empty(c)]
    parts.append('<section class="zones"><h2>Zones</h2>' + "".join(shown)
                 + (f'<p class="empty">Empty: {escape(", ".join(empty))}</p>' if empty else "")
                 + "</section>")
    log = [m.texts[viewer] for m in moves][-LOG_SHOWN:]
    items = "".join(f"<li>{escape(text)}</li>" for text in reversed(log))
    parts.append(f'<section class="log"><h2>Log</h2><ol reversed start="{len(moves)}">{items}'
                 "</ol></section>")
    return "".join(parts)


def fields_html(view: dict[str, Any]) -> str:
    rows = "".join(f"<tr><th>{escape(words(k))}</th><td>{escape(shown_value(v))}</td></tr>"
                   for k, v in view.get("state", {}).items())
    players = view.get("players", {})
    columns: list[str] = []
    for fields in players.values():
        columns += [k for k in fields if k not in columns]
    head = "".join(f"<th>{escape(words(c))}</th>" for c in columns)
    body = "".join(
        f"<tr><th>{escape(p)}</th>"
        + "".join(f"<td>{escape(shown_value(f.get(c, '?')))}</td>" for c in columns) + "</tr>"
        for p, f in players.items())
    return (f'<section class="fields"><h2>Game</h2><table>{rows}</table>'
            f'<h2>Players</h2><table><tr><th></th>{head}</tr>{body}</table></section>')


def controls_html(session: Session, seat: int, viewer: int, replaying: bool,
                  step: int | None) -> str:
    parts = ['<nav class="controls">']
    if seat == DEVICE and session.seats == HOTSEAT:
        parts.append(button("Undo", {"type": "undo"}))
        parts.append('<a class="save" href="save" download>Save</a>'
                     '<label class="load">Load <input type="file" accept=".json"></label>')
    if session.state.is_terminal():
        last = len(session.moves)
        at = last if step is None else max(0, min(step, last))
        parts.append(f'<span class="replay">Replay: move {at} of {last} ')
        parts.append(button("first", {"type": "replay", "step": 0}))
        parts.append(button("◀ back", {"type": "replay", "step": max(0, at - 1)}, "prev"))
        parts.append(button("next ▶", {"type": "replay", "step": min(last, at + 1)}, "next"))
        parts.append(button("last", {"type": "replay", "step": last}))
        parts.append("</span>")
        if seat == DEVICE:
            for other, name in enumerate(session.names):
                if other != viewer and other not in session.bots:
                    parts.append(button(f"See {name}'s view", {"type": "seat", "seat": other}))
    parts.append("</nav>")
    return "".join(parts)
