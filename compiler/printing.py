"""`rulecraft print GAME [--deck NAME]`: a print-and-play PDF (fpdf2) of a game's cards, as
the faces of the HTML gallery say them (compiler.card_faces): poker-size cards, 63 x 88 mm,
3 x 3 to an A4 or Letter page, with cut marks; with --backs, a page of backs after each page
of fronts, its columns mirrored for long-edge duplex; each board on a page of its own: the
docs' drawing of it and a list of its places and their neighbours.

Text is set in DejaVu Sans, shipped in compiler/fonts/ (Bitstream Vera licence, beside it)
and embedded as a subset: Latin, Greek, Cyrillic, dashes and arrows print as written; a
character the font has no glyph for (CJK among them) prints as "?". The file stays the same
from machine to machine (the shipped font, a fixed creation date). Card text is text in the
PDF, never markup: nothing in it runs."""

from __future__ import annotations

import datetime
import functools
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from compiler.card_faces import BULLET, CardFace, outline, outline_lines
from compiler.model import GameModel
from compiler.printing_tokens import Token, token_pages, tokens_of
from compiler.serve.catalogue import Catalogue

CARD_W, CARD_H = 63.0, 88.0
PAGES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PER_ROW = PER_COLUMN = 3
MARK = 5.0  # mm of a cut mark, outside the grid of cards
TEXT_SIZES = (8.0, 7.0, 6.0, 5.0)
FIXED_DATE = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
FONT = "dejavu"
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf", "I": "DejaVuSans-Oblique.ttf"}


class PrintError(Exception):
    """A request the command refuses; the message is for the user."""


def font_path(style: str = "") -> Path:
    return Path(__file__).resolve().parent / "fonts" / FONT_FILES[style]


@functools.cache
def _glyphs() -> frozenset[int]:
    """The characters every shipped style has a glyph for."""
    from fontTools.ttLib import TTFont

    found: frozenset[int] | None = None
    for style in FONT_FILES:
        with TTFont(font_path(style), lazy=True) as font:
            have = frozenset(font.getBestCmap())
        found = have if found is None else found & have
    return found or frozenset()


# a line break, a tab and the other spacing control characters, with the spaces around them
BREAKS = re.compile(r" *(?:[\t\n\v\f\r\x1c-\x1f\x85\u2028\u2029] *)+")


def pdf_text(text: str) -> str:
    """Text as the shipped font can set it, as the HTML and Markdown rulebooks show it: a
    line break or a tab (a YAML `description: |` block) as one space, other control and
    format characters, which have nothing to show, left out, and a character the font has no
    glyph for as "?", so that no glyph is left blank."""
    glyphs = _glyphs()
    return "".join("" if unicodedata.category(c) in ("Cc", "Cf") else c if ord(c) in glyphs
                   else "?" for c in BREAKS.sub(" ", text))


def new_pdf(width: float, height: float) -> object:
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format=(width, height))
    for style in FONT_FILES:
        pdf.add_font(FONT, style, str(font_path(style)))
    return pdf


@dataclass
class Sheet:
    """What a print run holds: the card faces in order (one per copy), and the boards."""

    title: str
    cards: list[CardFace]
    boards: list[tuple[str, str, list[str]]]  # a board's name, picture (SVG), places' lines
    tokens: list[Token] = field(default_factory=list)


def sheet_of(model: GameModel, deck: str | None = None) -> Sheet:
    """Every card of the game once, or a shipped deck's cards as many times as it lists
    them (main deck, then side deck)."""
    catalogue = Catalogue(model)
    if deck is None:
        cards = list(catalogue.faces.values())
    else:
        found = next((d for d in model.decks if d.name == deck), None)
        if found is None:
            names = ", ".join(sorted(d.name for d in model.decks)) or "none"
            raise PrintError(f"no deck {deck!r} in {model.title}; its decks: {names}")
        cards = []
        for entry in (*found.entries, *found.side):
            face = catalogue.face(entry.card)
            if face is None:
                raise PrintError(f"deck {deck!r} lists {entry.card!r}, which is no card")
            cards += [face] * entry.count
    boards = []
    for board in model.boards.values():
        lines = []
        for i, node in enumerate(board.nodes):
            near = ", ".join(board.nodes[j] for j in board.neighbours[i])
            extra = " ".join(f"{k} {v[i]}" for k, v in board.initial.items() if v[i] != "")
            lines.append(f"{node}" + (f" ({extra})" if extra else "") + f": next to {near}")
        boards.append((board.name, catalogue.pictures.get(board.name, ""), lines))
    return Sheet(model.title, cards, boards, tokens_of(model))


def write_pdf(sheet: Sheet, path: Path, paper: str = "a4", backs: bool = False) -> int:
    """Write the PDF; returns its number of pages."""
    from fpdf import FPDF

    width, height = PAGES[paper]
    pdf = new_pdf(width, height)
    assert isinstance(pdf, FPDF)
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_auto_page_break(False)
    pdf.set_title(pdf_text(sheet.title))
    pdf.set_creator("rulecraft print")
    left = (width - PER_ROW * CARD_W) / 2
    top = (height - PER_COLUMN * CARD_H) / 2
    per_page = PER_ROW * PER_COLUMN
    for start in range(0, len(sheet.cards), per_page):
        page = sheet.cards[start:start + per_page]
        pdf.add_page()
        cut_marks(pdf, left, top)
        for i, face in enumerate(page):
            card_front(pdf, face, left + CARD_W * (i % PER_ROW), top + CARD_H * (i // PER_ROW))
        if backs:
            pdf.add_page()
            cut_marks(pdf, left, top)
            for i in range(len(page)):
                column = PER_ROW - 1 - i % PER_ROW  # mirrored: the back of card i
                card_back(pdf, sheet.title, left + CARD_W * column,
                          top + CARD_H * (i // PER_ROW))
    for name, picture, lines in sheet.boards:
        pdf.add_page()
        pdf.set_font(FONT, "B", 16)
        pdf.set_xy(15, 15)
        pdf.cell(0, 10, pdf_text(f"{sheet.title}: the board {name}"))
        pdf.set_xy(15, 30 + board_picture(pdf, picture, width - 30, height * 0.6))
        pdf.set_font(FONT, "", 9)
        for line in lines:
            if pdf.get_y() > height - 15:
                pdf.add_page()
                pdf.set_xy(15, 15)
            pdf.multi_cell(width - 30, 4.5, pdf_text(line), new_x="LMARGIN", new_y="NEXT")
            pdf.set_x(15)
    if sheet.tokens:
        token_pages(pdf, sheet.title, sheet.tokens, width, height, FONT, pdf_text)
    if not pdf.pages:
        raise PrintError(f"{sheet.title} has no card and no board to print")
    pdf.output(str(path))
    return len(pdf.pages)


def board_picture(pdf: object, svg: str, width: float, most: float) -> float:
    """The docs' drawing of a board (SVG, drawn by fpdf2) under the title, as wide as the
    page or as high as `most`; returns the height it takes."""
    from fpdf import FPDF

    assert isinstance(pdf, FPDF)
    size = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
    if not svg or size is None or float(size[1]) <= 0:
        return 0.0
    high = width * float(size[2]) / float(size[1])
    if high > most:
        width, high = width * most / high, most
    # fpdf2 draws no <title>: the page's heading says what the title would
    pdf.image(io.BytesIO(re.sub(r"<title>.*?</title>", "", svg, flags=re.S).encode()),
              x=15, y=30, w=width, h=high)
    return high + 5


def cut_marks(pdf: object, left: float, top: float) -> None:
    from fpdf import FPDF

    assert isinstance(pdf, FPDF)
    pdf.set_draw_color(0)
    pdf.set_line_width(0.2)
    right, bottom = left + PER_ROW * CARD_W, top + PER_COLUMN * CARD_H
    for c in range(PER_ROW + 1):
        x = left + c * CARD_W
        pdf.line(x, top - MARK - 1, x, top - 1)
        pdf.line(x, bottom + 1, x, bottom + MARK + 1)
    for r in range(PER_COLUMN + 1):
        y = top + r * CARD_H
        pdf.line(left - MARK - 1, y, left - 1, y)
        pdf.line(right + 1, y, right + MARK + 1, y)


def card_front(pdf: object, face: CardFace, x: float, y: float) -> None:
    from fpdf import FPDF

    assert isinstance(pdf, FPDF)
    pad = 3.0
    pdf.set_draw_color(60)
    pdf.set_line_width(0.3)
    pdf.rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, round_corners=True, corner_radius=3)
    stats = dict(face.stats)
    cost = stats.pop("cost", None)
    kind = stats.pop("kind", None)
    name_width = CARD_W - 2 * pad - (8 if cost is not None else 0)
    size = 11.0
    pdf.set_font(FONT, "B", size)
    name = pdf_text(face.name)
    while size > 6 and pdf.get_string_width(name) > name_width:
        size -= 0.5
        pdf.set_font(FONT, "B", size)
    while pdf.get_string_width(name) > name_width and len(name) > 2:
        name = name[:-2] + "…"
    pdf.set_xy(x + pad, y + pad)
    pdf.cell(name_width, 6, name)
    if cost is not None:
        pdf.set_fill_color(138, 90, 0)
        pdf.circle(x + CARD_W - pad - 3.5, y + pad + 3, 3.5, style="F")
        pdf.set_text_color(255)
        pdf.set_font(FONT, "B", 8)
        pdf.set_xy(x + CARD_W - pad - 7, y + pad + 1)
        pdf.cell(7, 4, pdf_text(cost[:3]), align="C")
        pdf.set_text_color(0)
    pdf.set_font(FONT, "I", 7)
    pdf.set_xy(x + pad, y + pad + 7)
    pdf.cell(CARD_W - 2 * pad, 4, pdf_text(face.card_type + (f" — {kind}" if kind else "")))
    body = [(0, f"{label}: {value}") for label, value in stats.items()] + [(0, "")]
    body += outline(face.text)
    if face.flavour:
        body += [(0, ""), (0, face.flavour)]
    room = CARD_H - 2 * pad - 13
    for size in TEXT_SIZES:
        pdf.set_font(FONT, "", size)
        lines = text_lines(pdf, body, CARD_W - 2 * pad, size)
        if len(lines) * size * 0.42 <= room or size == TEXT_SIZES[-1]:
            break
    for i, (at, line) in enumerate(lines[:int(room // (size * 0.42))]):
        pdf.set_xy(x + pad + at, y + pad + 12 + i * size * 0.42)
        pdf.cell(CARD_W - 2 * pad - at, size * 0.42, line)


def text_lines(pdf: object, items: list[tuple[int, str]], width: float, size: float,
               ) -> list[tuple[float, str]]:
    """A card's text (card_faces.outline) wrapped to `width` in the current font, each line
    with its x offset in mm, laid out as on the face (card_faces.outline_lines); no blank
    line first or last."""
    from fpdf import FPDF

    assert isinstance(pdf, FPDF)

    def wrap(said: str, room: float) -> list[str]:
        found = pdf.multi_cell(room, size * 0.42, pdf_text(said), dry_run=True, output="LINES")
        return [str(line) for line in found] if isinstance(found, list) and found else [""]

    lines = outline_lines(items, width, pdf.get_string_width(BULLET), wrap)
    while lines and not lines[0][1]:
        lines.pop(0)
    while lines and not lines[-1][1]:
        lines.pop()
    return lines


def card_back(pdf: object, title: str, x: float, y: float) -> None:
    from fpdf import FPDF

    assert isinstance(pdf, FPDF)
    pdf.set_fill_color(60, 90, 138)
    pdf.rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, style="F", round_corners=True,
             corner_radius=3)
    pdf.set_text_color(255)
    pdf.set_font(FONT, "B", 10)
    pdf.set_xy(x + 4, y + CARD_H / 2 - 6)
    pdf.multi_cell(CARD_W - 8, 5, pdf_text(title), align="C")
    pdf.set_text_color(0)


def command(game: str, deck: str | None, output: str | None, paper: str, backs: bool) -> int:
    """`rulecraft print`: 0 when the PDF is written, 1 with a message otherwise."""
    import sys

    from compiler import api

    try:
        import fpdf  # noqa: F401 - only to say what is missing before any work
    except ImportError:
        print("rulecraft print needs fpdf2: python -m pip install 'rulecraft[play]'",
              file=sys.stderr)
        return 1
    try:
        model, _ = api.load_game_model(game)
        sheet = sheet_of(model, deck)
        path = Path(output) if output else Path(f"{model.name}{'-' + deck if deck else ''}.pdf")
        pages = write_pdf(sheet, path, paper, backs)
    except (api.GameNotFound, PrintError) as error:
        print(f"rulecraft print: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"rulecraft print: cannot write {output}: {error.strerror or error}",
              file=sys.stderr)
        return 1
    tokens = f", {len(sheet.tokens)} tiles and tokens" if sheet.tokens else ""
    print(f"wrote {path}: {len(sheet.cards)} cards, {len(sheet.boards)} board(s){tokens}, "
          f"{pages} page(s) ({paper}{', with backs' if backs else ''})", file=sys.stderr)
    return 0
