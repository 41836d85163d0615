"""`rulecraft serve` through Starlette's TestClient: seat tokens, moves validated by the
engine (a forged or illegal move changes nothing), each seat's page and websocket messages
holding only what its observation shows, hot-seat passing, undo, save and load, replay,
and hostile card text inert in the page."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import threading
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from compiler import agents, cli
from compiler.driver import check_rulebook
from compiler.pygen import load_python
from compiler.serve.app import make_app
from compiler.serve.catalogue import Catalogue
from compiler.serve.render import menu
from compiler.serve.session import DEVICE, Session, SessionError
from tests.cardset_games import hostile_card_set, write_game
from tests.serving import secrets_of, served

ROOT = Path(__file__).resolve().parent.parent


def choice_of(action: object) -> list[int]:
    return [action.kind, *action.args]  # type: ignore[attr-defined]


def test_links_give_each_seat_an_unguessable_token() -> None:
    session, app = served("rulers_gambit", seed=1, seats="links")
    client = TestClient(app)
    assert sorted(session.tokens.values()) == [0, 1]
    assert all(len(token) >= 32 for token in session.tokens)
    assert len(set(session.tokens)) == 2
    for token in session.tokens:
        assert client.get(f"/play/{token}/").status_code == 200
    for path in ("/play/guess/", "/play/guess/view", "/play/guess/save"):
        assert client.get(path).status_code == 404
    assert client.post("/play/guess/act", json={"choice": [0]}).status_code == 404
    token = next(iter(session.tokens))
    assert client.post(f"/play/{token}/act", content=b"[" * 100_000).status_code == 400
    assert client.post(f"/play/{token}/act", content=b"\xff").status_code == 400
    page = client.get(f"/play/{next(iter(session.tokens))}/")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    root = client.get("/")  # no token: the same 404 as a wrong one, nothing of the game
    assert (root.status_code, root.text) == (404, client.get("/play/guess/").text)
    assert "Ruler" not in root.text


def test_a_bot_seat_has_no_link() -> None:
    session, _ = served("dynasties", seed=0, seats="links", bots=frozenset({1}))
    assert list(session.tokens.values()) == [0]


@pytest.mark.parametrize("forged", [
    [999], [0, 999, 999], "A places 1 on mongolia", [True], [], [1.5], None, {"kind": 0},
])
def test_a_forged_move_is_refused_and_changes_nothing(forged: object) -> None:
    session, app = served("dynasties", seed=2, seats="links")
    client = TestClient(app)
    token = next(t for t, s in session.tokens.items() if s == 0)
    before = session.state.to_json()
    answer = client.post(f"/play/{token}/act", json={"choice": forged})
    assert answer.status_code == 409
    assert answer.json()["error"]
    assert session.state.to_json() == before and session.moves == []


def test_a_move_out_of_turn_is_refused() -> None:
    session, app = served("dynasties", seed=2, seats="links")
    client = TestClient(app)
    waiting = next(t for t, s in session.tokens.items() if s == 1)
    acting = session.state.legal_actions()[0]
    before = session.state.to_json()
    answer = client.post(f"/play/{waiting}/act", json={"choice": choice_of(acting)})
    assert answer.status_code == 409 and "not your turn" in answer.json()["error"]
    assert session.state.to_json() == before
    mine = next(t for t, s in session.tokens.items() if s == 0)
    assert client.post(f"/play/{mine}/act", json={"choice": choice_of(acting)}).is_success
    assert len(session.moves) == 1


def test_the_websocket_refuses_a_forged_move_with_a_reason() -> None:
    session, app = served("rulers_gambit", seed=3, seats="links")
    token = next(t for t, s in session.tokens.items() if s == 0)
    before = session.state.to_json()
    with TestClient(app).websocket_connect(f"/play/{token}/ws") as socket:
        assert "Your move" in socket.receive_json()["html"]
        socket.send_text("not json")
        assert socket.receive_json()["error"] == "a message is a JSON object"
        socket.send_bytes(b"\x00\xff")
        assert "not bytes" in socket.receive_json()["error"]
        socket.send_text("[" * 100_000)
        assert socket.receive_json()["error"] == "a message is a JSON object"
        socket.send_json({"type": "pick", "choice": [0, 12345]})
        assert "not one of your legal moves" in socket.receive_json()["error"]
        socket.send_json({"type": "undo"})
        assert "hot-seat" in socket.receive_json()["error"]
    assert session.state.to_json() == before


def test_a_seat_never_receives_the_other_seats_hidden_cards() -> None:
    session, app = served("rulers_gambit", seed=5, seats="links")
    client = TestClient(app)
    tokens = {seat: token for token, seat in session.tokens.items()}
    agent = random.Random(5)
    checked = 0
    with client.websocket_connect(f"/play/{tokens[0]}/ws") as socket:
        socket.receive_json()
        for _ply in range(60):
            if session.state.is_terminal():
                break
            for seat, token in tokens.items():
                secrets = secrets_of(session, seat)
                page = client.get(f"/play/{token}/view").text
                assert not [name for name in secrets if name in page], seat
                checked += len(secrets)
            actor = session.state.current_player()
            action = agent.choice(session.state.legal_actions())
            client.post(f"/play/{tokens[actor]}/act", json={"choice": choice_of(action)})
            pushed = socket.receive_json()["html"]
            assert not [name for name in secrets_of(session, 0) if name in pushed]
    assert checked > 0  # the other seat did hold cards this seat could not see


def test_hot_seat_passes_the_device_between_seats() -> None:
    session, app = served("dynasties", seed=1)
    token = next(iter(session.tokens))
    assert session.tokens[token] == DEVICE
    client = TestClient(app)
    with client.websocket_connect(f"/play/{token}/ws") as socket:
        socket.receive_json()
        while session.state.current_player() == 0:
            action = session.state.legal_actions()[0]
            socket.send_json({"type": "pick", "choice": choice_of(action)})
            html = socket.receive_json()["html"]
        assert "Pass the device to B" in html and "Your move" not in html
        assert not [name for name in secrets_of(session, 1) if name in html]
        socket.send_json({"type": "pick", "choice": choice_of(session.state.legal_actions()[0])})
        assert "pass the device" in socket.receive_json()["error"]
        socket.send_json({"type": "reveal"})
        html = socket.receive_json()["html"]
        assert "You are <b>B</b>" in html and "Your move" in html


def test_undo_save_and_load_in_hot_seat() -> None:
    session, _ = served("rulers_gambit", seed=4, bots=frozenset({1}))
    agent = random.Random(4)
    for _ in range(12):
        session.act(DEVICE, choice_of(agent.choice(session.state.legal_actions())))
    saved = session.save(DEVICE)
    state_then = session.state.to_json()
    human_moves = [m for m in session.moves if not m.by_bot]
    session.undo(DEVICE)
    assert [m for m in session.moves if not m.by_bot] == human_moves[:-1]
    session.load(DEVICE, saved)
    assert session.state.to_json() == state_then
    with pytest.raises(SessionError, match="not JSON"):
        session.load(DEVICE, "{")
    broken = json.loads(saved)
    broken["moves"][3]["args"] = [9999]
    with pytest.raises(SessionError, match="move 4 is not legal"):
        session.load(DEVICE, json.dumps(broken))
    assert session.state.to_json() == state_then


def test_a_save_keeps_its_player_count_and_loads_only_into_that_count() -> None:
    """A save of four players loaded into a game of three replayed as a three-player game,
    silently; the save now says how many it seats, and a server of another count says so."""
    rules = str(Path(__file__).resolve().parent / "games" / "last_stand.rules")
    four, _ = served(rules, seed=2, players=4)
    saved = json.loads(four.save(DEVICE))
    assert saved["players"] == 4
    three, _ = served(rules, seed=2, players=3)
    with pytest.raises(SessionError, match=r"a saved game of 4 players, and this one seats 3: "
                       r"start `rulecraft serve \S*last_stand\.rules --players 4` to load it"):
        three.load(DEVICE, json.dumps(saved))
    del saved["players"]  # a save made before the count was kept: read as this server's
    four.load(DEVICE, json.dumps(saved))


def test_save_is_refused_to_a_seat_link() -> None:
    session, app = served("dynasties", seed=0, seats="links")
    token = next(iter(session.tokens))
    assert TestClient(app).get(f"/play/{token}/save").status_code == 403


def test_a_finished_game_replays_move_by_move() -> None:
    session, app = served("dynasties", seed=3, bots=frozenset({1}))
    agent = random.Random(3)
    while not session.state.is_terminal():
        session.act(DEVICE, choice_of(agent.choice(session.state.legal_actions())))
    token = next(iter(session.tokens))
    with TestClient(app).websocket_connect(f"/play/{token}/ws") as socket:
        assert "game over" in socket.receive_json()["html"]
        socket.send_json({"type": "replay", "step": 0})
        html = socket.receive_json()["html"]
        assert "move 0 of" in html and "game over" not in html
        socket.send_json({"type": "replay", "step": 3})
        html = socket.receive_json()["html"]
        assert "move 3 of" in html and session.moves[2].texts[0] in html


def test_undo_and_load_leave_the_replay_for_the_game_as_it_now_is() -> None:
    session, app = served("dynasties", seed=3, bots=frozenset({1}))
    agent = random.Random(3)

    def play_to_the_end() -> None:
        while not session.state.is_terminal():
            session.act(DEVICE, choice_of(agent.choice(session.state.legal_actions())))

    play_to_the_end()
    saved = session.save(DEVICE)
    token = next(iter(session.tokens))
    with TestClient(app).websocket_connect(f"/play/{token}/ws") as socket:
        socket.receive_json()
        for change in ({"type": "undo"}, {"type": "load", "text": saved}):
            socket.send_json({"type": "replay", "step": 0})
            assert "move 0 of" in socket.receive_json()["html"]
            socket.send_json(change)
            socket.receive_json()
            play_to_the_end()
            socket.send_json({"type": "back"})
            html = socket.receive_json()["html"]
            assert "game over" in html and "move 0 of" not in html, change["type"]


def test_a_draw_says_so() -> None:
    session, app = served("dynasty_builder", seed=1, seats="links")
    agent = random.Random(1)  # plays this seed to a draw, both returns 0
    while not session.state.is_terminal():
        action = agent.choice(session.state.legal_actions())
        session.act(int(session.state.current_player()), choice_of(action))
    assert session.state.returns() == [0.0, 0.0]
    page = TestClient(app).get(f"/play/{next(iter(session.tokens))}/view").text
    assert "game over: a draw" in page and "+0" not in page


def test_a_move_of_several_parameters_is_chosen_a_step_at_a_time() -> None:
    session, _ = served("dynasties", seed=0)
    actions = session.legal_for(DEVICE)
    top = menu(actions, [])
    assert len(top) < len(actions)
    label, prefix = next((lab, c) for lab, c in top if len(c) == 1)
    assert "…" in label
    second = menu(actions, prefix)
    assert all(len(choice) == 2 for _, choice in second)
    third = menu(actions, second[0][1])
    assert all(len(choice) == 3 for _, choice in third)
    assert {label for label, _ in third} <= {str(a) for a in actions}


def test_hostile_card_text_is_inert_in_the_page(tmp_path: Path) -> None:
    cards, names = hostile_card_set(tmp_path / "pwned")
    model = check_rulebook(write_game(tmp_path / "game", cards, hand=len(names))).model
    assert model is not None
    session = Session(load_python(model), "cardtest", seed=0, seats="links")
    client = TestClient(make_app(session, Catalogue(model)))
    token = next(t for t, s in session.tokens.items() if s == session.state.current_player())
    page = client.get(f"/play/{token}/view").text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    # (the page names files under tmp_path, whose folder numbers may hold a 49)
    assert "{{ 7*7 }}" in page and "49" not in page.replace(str(tmp_path), "")
    assert not (tmp_path / "pwned").exists()


def test_serve_reports_a_bad_game_or_seat_with_a_message(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    for args, code, words in ((["nosuch"], 1, "no rulebook named"),
                              (["dynasties", "--bot-seats", "C"], 2, "--bot-seats needs"),
                              (["dynasties", "--bot", "random", "--bot-seats", "A,B"], 2,
                               "every seat is a bot"),
                              (["dynasties", "--bot", "wizard"], 2, "unknown agent 'wizard'"),
                              (["dynasties", "--bot", "mcts:iterations=0"], 2,
                               "at least 1")):
        assert cli.main(["serve", *args]) == code
        assert words in capsys.readouterr().err


def test_the_hex_map_marks_what_the_view_holds() -> None:
    session, app = served("dynasty_builder", seed=1, bots=frozenset({1}))
    token = next(iter(session.tokens))
    client = TestClient(app)
    before = client.get(f"/play/{token}/view").text
    agent = random.Random(1)
    while not any(f.get("house") for f in session.state.observation(0)["board"]["Hex"].values()):
        session.act(DEVICE, choice_of(agent.choice(session.legal_for(DEVICE))))
    after = client.get(f"/play/{token}/view").text
    marks = 'font-size="11" font-weight="bold" text-anchor="middle">'
    assert before.count(marks) == 0 < after.count(marks)


def test_the_grid_shows_the_pieces_each_side_may_read() -> None:
    session, app = served("dynasty_tcg", seed=1, seats="links")
    tokens = {seat: token for token, seat in session.tokens.items()}
    client = TestClient(app)
    agent = random.Random(1)
    pictures: dict[int, set[str]] = {0: set(), 1: set()}
    for _ply in range(24):
        for seat, token in tokens.items():
            page = client.get(f"/play/{token}/view").text
            picture = page[page.index('<svg class="board-live"'):]
            picture = picture[:picture.index("</svg>")]
            pictures[seat].add(picture)
            pieces = re.findall(r'<text class="piece"[^>]*>([^<]*)</text>', picture)
            view = session.state.observation(seat)
            on_field = sorted(str(c) for z, cards in view["zones"].items()
                              if z.startswith("field.") for c in cards)
            assert sorted(html.unescape(p) for p in pieces) == on_field
            assert not [name for name in secrets_of(session, seat) if name in picture]
        action = agent.choice(session.state.legal_actions())
        session.act(action.actor, choice_of(action))
    assert len(pictures[0]) > 1 and len(pictures[1]) > 1


def test_serve_says_when_the_port_is_taken(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    monkeypatch.chdir(ROOT)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["serve", "dynasties", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "/play/" not in err


@pytest.mark.parametrize("port", ["99999", "65536", "0", "-1"])
def test_serve_says_when_the_port_is_out_of_range(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  port: str) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: pytest.fail("it served"))
    assert cli.main(["serve", "dynasties", "--port", port]) == 1
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}: a port is a whole number from 1 to 65535" in err
    assert "/play/" not in err and "Traceback" not in err


def test_bot_takes_any_agent_the_lab_names() -> None:
    session, _ = served("dynasties", seed=0, bots=frozenset({1}), bot="mcts:iterations=7")
    assert isinstance(session.agent, agents.MctsAgent) and session.agent.iterations == 7
    with pytest.raises(SessionError, match="unknown agent 'wizard'"):
        served("dynasties", seed=0, bots=frozenset({1}), bot="wizard")
    with pytest.raises(SessionError, match="mcts"):
        served("dynasties", seed=0, bots=frozenset({1}), bot="mcts:depth=3")


class Gated:
    """An agent whose search waits until the event loop has run something else: were it
    run on the loop, it would wait out its timeout."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.waited_out = False
        self.threads: set[int] = set()

    def step(self, state: object, rng: random.Random) -> object:
        self.threads.add(threading.get_ident())
        self.waited_out = not self.gate.wait(5)
        return rng.choice(state.legal_actions())  # type: ignore[attr-defined]


def test_the_bot_searches_off_the_event_loop() -> None:
    session, app = served("dynasties", seed=2, seats="links", bots=frozenset({1}))
    gated = Gated()
    session.agent = gated
    server = app.state.server
    while session.state.current_player() == 0:
        session.act(0, choice_of(session.state.legal_actions()[0]), bots=False)
    assert session.bot_to_act()
    ply = len(session.moves)

    async def meanwhile() -> None:
        server.wake_bots()
        await asyncio.sleep(0.05)
        # the loop is free while the bot thinks: a page's request would be served now
        assert session.bot_to_act() and len(session.moves) == ply
        gated.gate.set()
        assert server.bots_task is not None
        await server.bots_task

    asyncio.run(meanwhile())
    assert not gated.waited_out
    assert threading.get_ident() not in gated.threads
    assert session.moves[ply].by_bot


def test_a_bot_move_found_for_an_older_game_is_not_played() -> None:
    session, _ = served("dynasties", seed=2, bots=frozenset({1}))
    while session.state.current_player() == 0:
        session.act(DEVICE, choice_of(session.state.legal_actions()[0]), bots=False)
    ply = len(session.moves)
    found = session.next_bot_move(session.state.clone(), ply)
    assert not session.play_bot_move(found, ply - 1)  # an undo happened during the search
    assert len(session.moves) == ply
    assert session.play_bot_move(found, ply) and session.moves[-1].action == found


def test_the_websocket_page_sees_the_bots_move_after_its_own() -> None:
    session, app = served("dynasties", seed=5, seats="links", bots=frozenset({1}),
                          bot="mcts:iterations=3")
    token = next(iter(session.tokens))
    with TestClient(app).websocket_connect(f"/play/{token}/ws") as socket:
        socket.receive_json()
        while session.state.current_player() == 0:
            socket.send_json({"type": "pick",
                              "choice": choice_of(session.state.legal_actions()[0])})
            html = socket.receive_json()["html"]
        assert "Waiting for" in html
        while "Your move" not in html:
            html = socket.receive_json()["html"]
    assert any(m.by_bot for m in session.moves)
    assert session.moves[-1].texts[0] in html


def test_a_game_of_more_players_deals_a_link_per_seat_of_its_count() -> None:
    """Seats come from the count played (the fewest the options allow, or `players`), not
    from the largest count the game is for: Dynasty TCG's royale is for 3 or 4."""
    duel, _ = served("dynasty_tcg", seed=1, seats="links")
    assert sorted(duel.tokens.values()) == [0, 1] and duel.state.num_players == 2
    royale, app = served("dynasty_tcg", seed=1, seats="links", options={"mode": "royale"})
    assert sorted(royale.tokens.values()) == [0, 1, 2] and royale.state.num_players == 3
    client = TestClient(app)
    for token in royale.tokens:  # the third seat's page too: its board from a game of three
        assert client.get(f"/play/{token}/view").status_code == 200
    four, _ = served("dynasty_tcg", seed=1, seats="links", options={"mode": "royale"},
                     players=4)
    assert sorted(four.tokens.values()) == [0, 1, 2, 3] and len(four.names) == 4
    with pytest.raises(SessionError, match="3-4 players, not 2"):
        served("dynasty_tcg", seats="links", options={"mode": "royale"}, players=2)


@pytest.mark.parametrize(("options", "playing"), [({}, "AB"), ({"mode": "royale"}, "ABC")])
def test_a_page_names_the_zones_of_the_seats_in_play_only(options: dict[str, str],
                                                           playing: str) -> None:
    session, app = served("dynasty_tcg", seed=5, seats="links", options=options)
    token = next(iter(session.tokens))
    page = TestClient(app).get(f"/play/{token}/view").text
    empty = re.search(r'<p class="empty">Empty: ([^<]*)</p>', page)
    assert empty is not None
    owners = {name.split(".")[1] for name in empty[1].split(", ")}
    assert owners == set(playing)


BREAKS = ROOT / "tests" / "cases" / "rules_break_in_play.rules"


def test_a_move_the_rules_break_on_is_refused_and_undone(tmp_path: Path) -> None:
    """The third token overflows the pile (a rule error): the move is refused with the error,
    and the game is as it was before it, not half changed; a game whose setup breaks is a
    message, not a traceback."""
    model = check_rulebook(BREAKS).model
    assert model is not None
    game = load_python(model)
    session = Session(game, "breaks", seed=0)
    put = next(a for a in session.state.legal_actions() if str(a) == "A puts a token")
    for _ in range(2):
        session.act(DEVICE, [put.kind, *put.args])
    before = session.state.to_json()
    with pytest.raises(SessionError, match=r"^the rules broke on that move: zone pile is full "
                                           r"\(2\)$"):
        session.act(DEVICE, [put.kind, *put.args])
    assert session.state.to_json() == before and len(session.moves) == 2
    rules = tmp_path / "breaks.rules"
    rules.write_text(BREAKS.read_text(encoding="utf-8").replace(
        "  goto turn", "  draw 3 from supply to pile\n  goto turn"), encoding="utf-8")
    broken = check_rulebook(rules).model
    assert broken is not None
    with pytest.raises(SessionError, match=r"^setup failed: zone pile is full \(2\)$"):
        Session(load_python(broken), "breaks", seed=0)
    # rules to fix, not a wrong request: exit 1, as simulate and play (it was 2, a usage error)
    assert cli.main(["serve", str(rules), "--port", "0"]) == 1
