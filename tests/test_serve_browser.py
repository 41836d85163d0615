"""`rulecraft serve` in a real headless Chromium (Playwright, /usr/bin/chromium): Dynasties,
Ruler's Gambit and Dynasty Builder played from setup to a finished game by clicking the
page's buttons, against the random bot or in hot-seat; at every move the page holds none of
the card names its seat cannot see. Screenshots are kept under tmp/artifacts/serve/ (or
$RULECRAFT_ARTIFACTS), printed by the test. Soak tier: about a minute a game."""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Page, sync_playwright

from compiler.serve.session import Session
from tests.serving import card_names, secrets_of, served

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("RULECRAFT_CHROMIUM", "/usr/bin/chromium")
pytestmark = pytest.mark.soak


def artifacts() -> Path:
    folder = Path(os.environ.get("RULECRAFT_ARTIFACTS", ROOT / "tmp" / "artifacts")) / "serve"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Running:
    def __init__(self, session: Session, app: object) -> None:
        self.session = session
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,  # type: ignore[arg-type]
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def url(self, seat_token: str) -> str:
        return f"http://127.0.0.1:{self.port}/play/{seat_token}/"

    def __enter__(self) -> Running:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: .ci/run installs it"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


def click(page: Page, selector: str, index: int) -> None:
    """Click a button and wait for the view the server sends back."""
    version = page.evaluate("document.body.dataset.version || ''")
    page.locator(selector).nth(index).click()
    page.wait_for_selector(f'body:not([data-version="{version}"])', state="attached")


def play_by_clicking(page: Page, session: Session, seed: int, shots: Path, name: str) -> int:
    agent = random.Random(seed)
    clicks = 0
    boards: set[str] = set()
    page.wait_for_selector("header")
    page.screenshot(path=str(shots / f"{name}-start.png"), full_page=True)
    while True:
        # a bot thinks in the background: the page waits for its move, then for a button
        page.wait_for_selector("button.move, button.big, .over", state="attached",
                               timeout=120_000)
        if session.state.is_terminal():
            break
        assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
        if page.locator("button.big").count():  # hot-seat: pass the device
            assert not [s for s in secrets_of(session, session.shown) if s in page.content()]
            click(page, "button.big", 0)
            continue
        viewer = session.shown
        content = page.content()
        leaked = [s for s in secrets_of(session, viewer) if s in content]
        assert not leaked, f"{session.names[viewer]}'s page shows {leaked}"
        boards.add(check_board(page, session, viewer))
        moves = page.locator("button.move").count()
        assert moves, "the seat to act has no move button"
        click(page, "button.move", agent.randrange(moves))
        clicks += 1
        if clicks == 12:
            page.screenshot(path=str(shots / f"{name}-playing.png"), full_page=True)
    page.wait_for_selector(".over")
    page.screenshot(path=str(shots / f"{name}-over.png"), full_page=True)
    click(page, "button.prev", 0)
    assert "move" in page.locator(".replay").inner_text()
    if session.game.INFO.get("name") not in ("rulers_gambit", "dojo"):  # the games with a board
        assert len(boards - {""}) > 1, "the board's picture never changed"
    return clicks


def check_board(page: Page, session: Session, viewer: int) -> str:
    """The board's picture as drawn now; each piece written on it one the seat may read by
    name (or a count of hidden ones)."""
    pictures = page.locator(".board .picture svg")
    if not pictures.count():
        return ""
    readable = card_names(session.state.observation(viewer))
    for piece in page.locator(".board svg text.piece").all_text_contents():
        assert (piece in readable or piece.endswith((" hidden", " more", "…"))
                or piece.partition(": ")[2] in readable), piece
    return str(pictures.first.inner_html())


@pytest.mark.parametrize(("game", "seats"), [
    ("dynasties", "bot"), ("rulers_gambit", "bot"), ("dynasty_builder", "bot"),
    ("dynasty_tcg", "bot"), ("dojo", "bot"), ("dynasties", "hotseat"),
    ("dynasties", "mcts:iterations=4"),
])
def test_a_game_is_played_to_the_end_by_clicking(browser: object, game: str,
                                                 seats: str) -> None:
    bots = frozenset() if seats == "hotseat" else frozenset({1})
    bot = "random" if seats in ("bot", "hotseat") else seats
    session, app = served(game, seed=11, bots=bots, bot=bot)
    shots = artifacts()
    print(f"screenshots: {shots}")
    with Running(session, app) as running:
        page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(running.url(next(iter(session.tokens))))
        clicks = play_by_clicking(page, session, 11, shots,
                                  f"{game}-{seats.partition(':')[0]}")
        page.close()
    assert session.state.is_terminal() and clicks > 10
    assert not errors, errors
    assert all(m.by_bot == (m.action.actor in bots) for m in session.moves)


@pytest.mark.parametrize("game", ["rulers_gambit", "dynasty_tcg", "dojo"])
def test_the_gallery_card_faces_render(browser: object, game: str) -> None:
    """Three card faces of the HTML rulebook's gallery, as Chromium draws them: each a
    poker card's shape, saved as screenshots (docs/gallery/ keeps a copy)."""
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto((ROOT / "generated" / "docs" / f"{game}.html").as_uri())
    faces = page.locator("svg.card-face")
    assert faces.count() > 3
    shots = artifacts()
    for i in range(3):
        box = faces.nth(i).bounding_box()
        assert box is not None and abs(box["height"] / box["width"] - 88 / 63) < 0.02
        faces.nth(i).screenshot(path=str(shots / f"{game}-face-{i + 1}.png"))
    page.close()


def test_a_long_card_name_wraps_in_the_rulebook(browser: object, tmp_path: Path) -> None:
    """A card name of 198 letters and no space: the HTML rulebook's tables wrap it inside
    their cells, so the page is no wider than the window (it was 4,593 px)."""
    from compiler import cli

    assert cli.main(["new", "longname", str(tmp_path)]) == 0
    game = tmp_path / "longname"
    long_name = "Embers" * 33
    for path in (game / "longname.cards.yaml", game / "decks" / "starter.deck.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("Ember", long_name, 1), encoding="utf-8")
    assert cli.main(["build", str(game), "-o", str(tmp_path / "out")]) == 0
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.goto((tmp_path / "out" / "docs" / "longname.html").as_uri())
    assert long_name in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.close()
