"""`rulecraft play`'s picture of a view: boards as text (hex rows, grids, graphs as neighbour
lists), cards with their fields and state, narration, plain text off a terminal and colour
on one, with card text never read as rich markup."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from compiler import cli
from compiler.api import load_game_model
from compiler.serve.catalogue import Catalogue
from compiler.terminal import Printer, view_lines

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[")


def first_view(game: str) -> list[str]:
    model, module = load_game_model(game)
    state = module.new_game(seed=1)
    view = state.observation(0)
    return [text for text, _ in view_lines(view, Catalogue(model), view.get("board", {}))]


def test_a_hex_map_is_drawn_as_offset_rows() -> None:
    lines = first_view("dynasty_builder")
    rows = [line for line in lines if re.match(r"^\s+[A-I]1 ", line)]
    assert [line.split()[0] for line in rows] == [f"{r}1" for r in "ABCDEFGHI"]
    assert len(rows[1]) - len(rows[1].lstrip()) > len(rows[0]) - len(rows[0].lstrip())
    assert any(line.strip().startswith("terrain: ") for line in lines)


def test_a_players_zero_is_shown_and_a_boards_is_not() -> None:
    lines = first_view("dynasties")
    assert "   dynasty 1 · track 0" in lines
    assert any(line.startswith("   B: reserve 21") and "discards 0" in line for line in lines)
    assert "     mongolia [scores [2, 4, 3]]" in lines


def test_a_graph_board_lists_each_nodes_neighbours() -> None:
    lines = first_view("dynasties")
    assert "     mongolia [scores [2, 4, 3]]" in lines
    assert "       next to qinghai, mandarin, xinjiang" in lines


def test_cards_show_their_fields_and_hidden_zones_their_count() -> None:
    lines = first_view("rulers_gambit")
    assert "   [hand · B] 5 hidden" in lines
    hand = lines[lines.index("   [hand · A] 5") + 1]
    assert hand.startswith("     Frost Wisp — kind unit") and "cost" in hand


def test_play_narrates_both_seats_and_stays_short(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nq\n"))
    assert cli.main(["play", "dynasty_builder", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    before = out.split("your move")[0].splitlines()
    assert len(before) < 40
    assert "A: A founds the first city at A1" in out and "B: B founds" in out
    assert not ANSI.search(out)


def test_play_takes_only_listed_numbers_and_says_how_to_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """'²' passes str.isdigit() but int() refuses it: a typed key is never a crash."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("sys.stdin", io.StringIO("\u00b2\n?\n99\nq\n"))
    assert cli.main(["play", "dynasties", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("not one of the moves listed (? for help)") == 2
    assert "type a move's number (1 to 30) or its text as listed; q quits" in out


def test_play_shows_the_final_position(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert cli.main(["play", "dynasties", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    last = out.rsplit("your move", 1)[1].splitlines()
    assert last[-1].startswith("game over: A ")
    assert any(line.endswith("· the game is over") for line in last), last  # not "None to act"
    assert any(line.strip().startswith("mongolia") for line in last)  # the board, once more


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_on_a_terminal_and_card_text_is_not_markup() -> None:
    out = Terminal()
    printer = Printer(out)
    printer.line("[bold red]not markup[/] [link=http://x]y[/link]", "green")
    text = out.getvalue()
    assert ANSI.search(text)
    assert "[bold red]not markup[/] [link=http://x]y[/link]" in ANSI.sub("", re.sub(
        r"\x1b\[[0-9;]*m", "", text))
    plain = io.StringIO()
    Printer(plain).line("[bold]x[/bold]", "green")
    assert plain.getvalue() == "[bold]x[/bold]\n"


BREAKS = ROOT / "tests" / "cases" / "rules_break_in_play.rules"


def test_rules_that_break_end_play_with_their_error_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5))  # A puts a third token
    assert cli.main(["play", str(BREAKS)]) == 1
    err = capsys.readouterr().err
    assert err == "breaks: the rules broke after 2 moves: zone pile is full (2)\n"
    # in setup
    rules = tmp_path / "breaks.rules"
    rules.write_text(BREAKS.read_text(encoding="utf-8").replace(
        "  goto turn", "  draw 3 from supply to pile\n  goto turn"), encoding="utf-8")
    assert cli.main(["play", str(rules)]) == 1
    assert capsys.readouterr().err == "breaks: setup failed: zone pile is full (2)\n"


def test_play_takes_any_agent_of_the_lab_as_the_opponent(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert cli.main(["play", "dynasties", "--seed", "1", "--vs", "greedy"]) == 0
    assert "game over: A " in capsys.readouterr().out
    for vs, words in (("wizard", "unknown agent 'wizard'"), ("random,greedy", "one agent")):
        assert cli.main(["play", "dynasties", "--vs", vs]) == 2
        assert words in capsys.readouterr().err
