"""The Starlette app of `rulecraft serve`: a page per seat token, a websocket that sends each
page its seat's view whenever the game changes, and JSON endpoints for the same moves.

Routes: /play/TOKEN/ (the page), /play/TOKEN/view (its view, HTML), /play/TOKEN/act (POST a
move), /play/TOKEN/save (hot-seat), /play/TOKEN/ws (the live view), /static/... An unknown
token gets the same 404 wherever it is used, and so does / (a page without a token): one line
that says to use a printed link, and nothing of the game."""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
from dataclasses import dataclass, field
from html import escape
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from compiler.serve.catalogue import Catalogue
from compiler.serve.render import view_html
from compiler.serve.session import Session, SessionError

MAX_MESSAGE = 4_000_000  # bytes of a websocket message: a saved game fits, a flood does not
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; "
                               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                               "connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
NOT_FOUND = "No seat has this link. Use a link that `rulecraft serve` printed."


@dataclass
class Page:
    """One open page: its seat, the move it is choosing step by step, its replay step."""

    socket: WebSocket
    seat: int
    prefix: list[int] = field(default_factory=list)
    step: int | None = None


def static_text(name: str) -> str:
    return resources.files("compiler.serve").joinpath("static", name).read_text("utf-8")


class Server:
    def __init__(self, session: Session, catalogue: Catalogue) -> None:
        self.session = session
        self.catalogue = catalogue
        self.pages: list[Page] = []
        self.lock = asyncio.Lock()
        self.bots_task: asyncio.Task[None] | None = None
        self.start_boards: dict[int, dict[str, Any]] = {}
        self.files = {name: static_text(name) for name in ("play.js", "play.css")}

    def boards_at_start(self, viewer: int) -> dict[str, Any]:
        found = self.start_boards.get(viewer)
        if found is None:
            fresh = self.session.new_state()
            found = self.start_boards[viewer] = dict(fresh.observation(viewer).get("board", {}))
        return found

    def view(self, seat: int, prefix: list[int], step: int | None) -> str:
        viewer = self.session.viewer(seat)
        return view_html(self.session, self.catalogue, seat, prefix, step,
                         self.boards_at_start(viewer))

    def handle(self, page: Page, message: Any) -> None:
        """A page's message: a step of a move, or a move, or a control of the game."""
        session = self.session
        if not isinstance(message, dict):
            raise SessionError("a message is a JSON object")
        kind = message.get("type")
        if kind == "pick":
            choice = message.get("choice")
            if not isinstance(choice, list) or not all(type(x) is int for x in choice):
                raise SessionError("a move is a list of whole numbers: its kind and arguments")
            if session.passing(page.seat):
                raise SessionError(f"pass the device to {session.names[session.shown]} first")
            legal = session.legal_for(page.seat)
            if any(a.kind == choice[0] and len(a.args) == len(choice) - 1 for a in legal
                   if choice) or not choice:
                page.prefix = []
                session.act(page.seat, choice, bots=False)
            elif any(a.kind == choice[0] and a.args[:len(choice) - 1] == tuple(choice[1:])
                     for a in legal):
                page.prefix = choice
            else:
                page.prefix = []
                raise SessionError("that move is not one of your legal moves now")
        elif kind == "back":
            page.prefix = []
        elif kind == "reveal":
            session.reveal(page.seat)
        elif kind == "undo":
            page.prefix = []
            session.undo(page.seat, bots=False)
            self.replays_end()
        elif kind == "load":
            text = message.get("text")
            if not isinstance(text, str):
                raise SessionError("load sends the saved file's text")
            session.load(page.seat, text, bots=False)
            self.replays_end()
        elif kind == "replay":
            step = message.get("step")
            if type(step) is not int:
                raise SessionError("a replay step is a whole number")
            session.replay_state(0)  # refused while the game goes on
            page.step = max(0, min(step, len(session.moves)))
        elif kind == "seat":
            wanted = message.get("seat")
            if type(wanted) is not int:
                raise SessionError("a seat is a whole number")
            session.show_seat(page.seat, wanted)
        else:
            raise SessionError(f"unknown message {str(kind)[:40]!r}")

    def replays_end(self) -> None:
        """After an undo or a load, every page shows the game as it now is: a replay step
        kept from the game before would show that position again when this one ends."""
        for page in self.pages:
            page.step = None

    async def broadcast(self) -> None:
        for page in list(self.pages):
            if page.prefix and not any(
                    a.kind == page.prefix[0] for a in self.session.legal_for(page.seat)):
                page.prefix = []
            try:
                await page.socket.send_json(
                    {"html": self.view(page.seat, page.prefix, page.step)})
            except (WebSocketDisconnect, RuntimeError):
                if page in self.pages:
                    self.pages.remove(page)

    def wake_bots(self) -> None:
        """Let the bots play, if one is to act, in the background: the page that moved gets
        its answer and every page its view first."""
        if self.bots_task is None or self.bots_task.done():
            self.bots_task = asyncio.get_running_loop().create_task(self.play_bots())
            self.bots_task.add_done_callback(self.bots_failed)

    def bots_failed(self, task: asyncio.Task[None]) -> None:
        """A bot that raised: said on the server's console, where a task's error is not."""
        if not task.cancelled() and task.exception() is not None:
            traceback.print_exception(task.exception(), file=sys.stderr)

    async def play_bots(self) -> None:
        """The bots' moves, each searched in a worker thread on a clone of the game (an MCTS
        bot takes seconds; the event loop keeps serving the pages meanwhile), and played
        under the lock unless the game moved on (an undo, a load) during the search."""
        loop = asyncio.get_running_loop()
        session = self.session
        while True:
            async with self.lock:
                if not session.bot_to_act():
                    return
                ply, state = len(session.moves), session.state.clone()
            action = await loop.run_in_executor(None, session.next_bot_move, state, ply)
            async with self.lock:
                try:
                    session.play_bot_move(action, ply)
                except SessionError as error:  # the rules broke on the bot's move
                    print(f"a bot's move: {error}", file=sys.stderr)
                    return
            await self.broadcast()

    # ---- routes
    def seat(self, request: Request) -> int | None:
        return self.session.seat_of(str(request.path_params.get("token", "")))

    async def index(self, request: Request) -> Response:
        return HTMLResponse(escape(NOT_FOUND), status_code=404, headers=SECURITY)

    async def page(self, request: Request) -> Response:
        if self.seat(request) is None:
            return HTMLResponse(escape(NOT_FOUND), status_code=404, headers=SECURITY)
        title = escape(self.catalogue.title)
        return HTMLResponse(
            f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="stylesheet" href="/static/play.css"></head><body>'
            '<div id="error" role="alert" hidden></div><main id="view">Connecting…</main>'
            '<script src="/static/play.js"></script></body></html>', headers=SECURITY)

    async def view_route(self, request: Request) -> Response:
        seat = self.seat(request)
        if seat is None:
            return HTMLResponse(escape(NOT_FOUND), status_code=404, headers=SECURITY)
        return HTMLResponse(self.view(seat, [], None), headers=SECURITY)

    async def act(self, request: Request) -> Response:
        seat = self.seat(request)
        if seat is None:
            return JSONResponse({"error": NOT_FOUND}, status_code=404, headers=SECURITY)
        try:
            body = json.loads(await request.body())
            choice = body.get("choice") if isinstance(body, dict) else None
        except (ValueError, RecursionError):
            return JSONResponse({"error": "send JSON: {\"choice\": [kind, args...]}"},
                                status_code=400, headers=SECURITY)
        try:
            async with self.lock:
                move = self.session.act(seat, choice, bots=False)
        except SessionError as error:
            return JSONResponse({"error": str(error)}, status_code=409, headers=SECURITY)
        await self.broadcast()
        self.wake_bots()
        return JSONResponse({"ok": move.texts[self.session.viewer(seat)]}, headers=SECURITY)

    async def save(self, request: Request) -> Response:
        seat = self.seat(request)
        if seat is None:
            return JSONResponse({"error": NOT_FOUND}, status_code=404, headers=SECURITY)
        try:
            text = self.session.save(seat)
        except SessionError as error:
            return JSONResponse({"error": str(error)}, status_code=403, headers=SECURITY)
        name = f"{self.session.name}-seed{self.session.seed}.json"
        return Response(text, media_type="application/json", headers={
            **SECURITY, "Content-Disposition": f'attachment; filename="{name}"'})

    async def static(self, request: Request) -> Response:
        name = str(request.path_params["name"])
        text = self.files.get(name)
        if text is None:
            return Response("not found", status_code=404)
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return Response(text, media_type=kind, headers=SECURITY)

    async def socket(self, websocket: WebSocket) -> None:
        seat = self.session.seat_of(str(websocket.path_params.get("token", "")))
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host", "")
        if seat is None or (origin is not None and origin.split("://", 1)[-1] != host):
            await websocket.close(code=4404)
            return
        await websocket.accept()
        page = Page(websocket, seat)
        self.pages.append(page)
        self.wake_bots()
        try:
            await websocket.send_json({"html": self.view(seat, [], None)})
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                try:
                    if not isinstance(text, str):
                        raise SessionError("a message is JSON text, not bytes")
                    if len(text) > MAX_MESSAGE:
                        raise SessionError("the message is too long")
                    try:
                        message = json.loads(text)
                    except (ValueError, RecursionError):
                        raise SessionError("a message is a JSON object") from None
                    async with self.lock:
                        self.handle(page, message)
                except SessionError as error:
                    await websocket.send_json({"error": str(error),
                                               "html": self.view(seat, page.prefix, page.step)})
                    continue
                await self.broadcast()
                self.wake_bots()
        except WebSocketDisconnect:
            pass
        finally:
            if page in self.pages:
                self.pages.remove(page)


def make_app(session: Session, catalogue: Catalogue) -> Starlette:
    server = Server(session, catalogue)
    app = Starlette(routes=[
        Route("/", server.index),
        Route("/play/{token}/", server.page),
        Route("/play/{token}/view", server.view_route),
        Route("/play/{token}/act", server.act, methods=["POST"]),
        Route("/play/{token}/save", server.save),
        Route("/static/{name}", server.static),
        WebSocketRoute("/play/{token}/ws", server.socket),
    ])
    app.state.server = server
    return app
