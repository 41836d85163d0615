"""`rulecraft print`: the print-and-play PDF read back with pypdf: its page count, the cards
on each page (by their names and text, in order), backs, boards, the same bytes every time,
hostile card text as inert text, and errors as messages."""

from __future__ import annotations

import importlib
import math
from pathlib import Path

import pypdf
import pytest

from compiler import cli
from compiler.api import load_game_model
from compiler.build import build
from compiler.card_faces import CardFace
from compiler.printing import PAGES, Sheet, pdf_text, sheet_of, write_pdf
from compiler.printing_tokens import MARKERS, PER_KIND, per_page
from dsl.diagnostics import Diagnostics
from tests.cardset_games import hostile_card_set, write_game
from tests.tiers import soak

RG_DECKS = ["blue_purple_mindgames", "blue_purple_tidewall", "red_green_rush",
            "red_green_stampede", "yellow_orange_crown", "yellow_orange_titans"]
# every shipped deck of every card game: one in the default tier, the others in the soak tier
GAME_DECKS = [(game, deck) for game in ("dojo", "dynasty_tcg", "rulers_gambit")
              for deck in sorted(importlib.import_module(f"generated.{game}").DECKS)]
DEFAULT_DECK = ("rulers_gambit", RG_DECKS[2])


def pages_text(path: Path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def check_cards(path: Path, names: list[str], backs: bool, title: str) -> None:
    texts = pages_text(path)
    fronts = math.ceil(len(names) / 9)
    assert len(texts) >= fronts * (2 if backs else 1)
    for page in range(fronts):
        text = texts[page * 2 if backs else page]
        at = 0
        for name in names[page * 9:page * 9 + 9]:  # each card of the page, in order
            found = text.find(pdf_text(name), at)
            assert found >= 0, (page, name)
            at = found + len(name)
        if backs:
            back = texts[page * 2 + 1]
            assert back.count(pdf_text(title).split()[0]) >= len(names[page * 9:page * 9 + 9])


@pytest.mark.parametrize(("game", "deck"),
                         [DEFAULT_DECK, *soak(d for d in GAME_DECKS if d != DEFAULT_DECK)],
                         ids=lambda value: str(value))
def test_a_deck_prints_every_card_it_lists(tmp_path: Path, game: str, deck: str) -> None:
    model, _ = load_game_model(game)
    sheet = sheet_of(model, deck)
    listed = next(d for d in model.decks if d.name == deck)
    assert len(sheet.cards) == sum(e.count for e in (*listed.entries, *listed.side))
    path = tmp_path / "deck.pdf"
    pages = write_pdf(sheet, path, "letter", backs=True)
    columns, rows = per_page(*PAGES["letter"])
    assert pages == (2 * math.ceil(len(sheet.cards) / 9) + len(sheet.boards)
                     + math.ceil(len(sheet.tokens) / (columns * rows))) == len(pages_text(path))
    # the cards of a card set are printed as cards, never again as tiles of the board
    assert not {token.name for token in sheet.tokens} & {face.name for face in sheet.cards}
    check_cards(path, [face.name for face in sheet.cards], True, model.title)
    if game == "rulers_gambit":
        assert "Effect:" in pages_text(path)[0]


@pytest.mark.parametrize("game", soak(["dojo", "dynasty_tcg", "rulers_gambit", "dynasties"]))
def test_a_card_game_prints_each_card_once(tmp_path: Path, game: str) -> None:
    model, _ = load_game_model(game)
    sheet = sheet_of(model)
    path = tmp_path / "cards.pdf"
    columns, rows = per_page(210.0, 297.0)
    assert write_pdf(sheet, path) == (math.ceil(len(sheet.cards) / 9) + len(sheet.boards)
                                      + math.ceil(len(sheet.tokens) / (columns * rows)))
    check_cards(path, [face.name for face in sheet.cards], False, model.title)


def test_boards_get_pages_of_their_own_and_the_bytes_are_the_same(tmp_path: Path) -> None:
    model, _ = load_game_model("dynasty_builder")
    sheet = sheet_of(model)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_pdf(sheet, first)
    write_pdf(sheet, second)
    assert first.read_bytes() == second.read_bytes()
    texts = pages_text(first)
    assert "Dynasty Builder: the board Hex" in texts[1]
    assert "A1 (start A terrain plain): next to A2, B1" in texts[1]


def test_hostile_card_text_is_inert_text(tmp_path: Path) -> None:
    cards, names = hostile_card_set(tmp_path / "pwned")
    result = build([write_game(tmp_path / "game", cards)], tmp_path / "out", False,
                   Diagnostics())
    model = result.compilations[0].model
    assert model is not None
    path = tmp_path / "hostile.pdf"
    write_pdf(sheet_of(model), path)
    text = "".join(pages_text(path))
    assert "<script>alert(1)</script>" in text and "{{ 7*7 }}" in text
    reader = pypdf.PdfReader(path)
    root = reader.trailer["/Root"]
    assert not {"/AA", "/Names", "/AcroForm"} & set(root.keys())
    assert isinstance(root.get("/OpenAction", []), list)  # a view to open at, not an action
    assert all("/Annots" not in page and "/AA" not in page for page in reader.pages)
    assert not (tmp_path / "pwned").exists()


def test_print_reports_errors_as_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    assert cli.main(["print", "rulers_gambit", "--deck", "nosuch"]) == 1
    assert "no deck 'nosuch'" in capsys.readouterr().err
    out = tmp_path / "d.pdf"
    assert cli.main(["print", "dynasties", "-o", str(out)]) == 0
    assert "15 cards, 1 board(s), 48 tiles and tokens, 4 page(s)" in capsys.readouterr().err
    board = pages_text(out)[-2]  # the docs' drawing (its boxes' names), then the list
    assert board.index("Mongolia") < board.index("mongolia: next to qinghai")
    assert cli.main(["print", "dynasties", "-o", str(tmp_path / "no" / "x.pdf")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_text_outside_latin1_prints_as_written(tmp_path: Path) -> None:
    face = CardFace("Éclair — Dawn → Dusk", "Card", [("cost", "2")],
                    ["- Ωmega gains 2 → 3 ★ 中"], "Ça ira…")
    path = tmp_path / "unicode.pdf"
    write_pdf(Sheet("Jeu d'été", [face], []), path)
    text = pages_text(path)[0]
    assert "Éclair — Dawn → Dusk" in text and "Ωmega gains 2 → 3" in text
    assert "Ça ira…" in text
    assert "中" not in text and pdf_text("中") == "?"  # DejaVu Sans has no CJK glyphs
    fonts = pypdf.PdfReader(path).pages[0]["/Resources"]["/Font"]
    assert all("DejaVu" in str(f.get_object()["/BaseFont"]) for f in fonts.values())


def test_a_line_break_in_card_text_prints_as_a_space(tmp_path: Path) -> None:
    cards = ("cards:\n  - name: Star\n    description: |\n      The brightest.\n"
             "      Of the suns.\n    effect: gain(you, 1)\n")
    result = build([write_game(tmp_path / "game", cards)], tmp_path / "out", False,
                   Diagnostics())
    model = result.compilations[0].model
    assert model is not None
    path = tmp_path / "star.pdf"
    write_pdf(sheet_of(model), path)
    assert "The brightest. Of the suns." in pages_text(path)[0]
    # a tab as a space too; a control or format character, with nothing to show, left out
    assert pdf_text("one\ttwo \r\n three\x07\u202e\x7f") == "one two three"


def test_board_games_print_tiles_and_tokens_for_each_player(tmp_path: Path) -> None:
    model, _ = load_game_model("dynasties")
    sheet = sheet_of(model)
    tiles = [t for t in sheet.tokens if not t.round]
    # each player's own set of tiles: one of each, two Plagues
    assert len(tiles) == 2 * 16 and sum(t.name == "Plague" for t in tiles) == 4
    assert {t.owner for t in tiles} == {"A", "B"}
    path = tmp_path / "dynasties.pdf"
    pages = write_pdf(sheet, path)
    text = pages_text(path)[-1]
    assert pages == 2 + 1 + 1 and "tiles and tokens" in text
    assert text.count("Plague") == 4
    model, _ = load_game_model("dynasty_builder")
    sheet = sheet_of(model)
    troops = [t for t in sheet.tokens if t.name == "Siege Tower"]
    houses = [t for t in sheet.tokens if t.name == "house"]
    assert len(troops) == 2 * PER_KIND and len(houses) == 2 * MARKERS
    assert not [t for t in sheet.tokens if t.name == "start"]  # the map prints its starts


def test_a_card_game_with_no_board_has_no_tokens() -> None:
    model, _ = load_game_model("rulers_gambit")
    assert sheet_of(model).tokens == []
