"""Card faces (compiler.card_faces): drawn for every card of the shipped games' galleries,
fitting; hostile text inert and the SVG well formed; a card whose text cannot fit warns
(W0408) at its line in the card set; the body of an if set in on every view of a card."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdf
import pytest

from compiler.api import load_game_model
from compiler.build import build
from compiler.card_faces import CardFace, card_svg, fit_lines
from compiler.printing import Sheet, write_pdf
from compiler.serve.catalogue import Catalogue
from compiler.serve.render import face_html
from compiler.terminal import card_lines
from dsl.diagnostics import Diagnostics
from tests.cardset_games import hostile_card_set, write_game, yaml_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("game", "cards"), [("rulers_gambit", 88), ("dynasty_tcg", 55)])
def test_the_gallery_shows_a_face_per_card(game: str, cards: int) -> None:
    page = (ROOT / "generated" / "docs" / f"{game}.html").read_text(encoding="utf-8")
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="card-face"') == cards
    assert page.index('class="card-faces"') < page.index("<th>name</th>")


def test_hostile_text_is_inert_and_the_svg_well_formed(tmp_path: Path) -> None:
    cards, names = hostile_card_set(tmp_path / "pwned")
    diagnostics = Diagnostics()
    result = build([write_game(tmp_path / "game", cards)], tmp_path / "out", False, diagnostics)
    assert all(c.ok for c in result.compilations)
    page = (tmp_path / "out" / "docs" / "cardtest.html").read_text(encoding="utf-8")
    start = page.index('<div class="card-faces">')
    faces = page[start:page.index("<table>", start)]
    assert "<script>" not in faces and "&lt;script&gt;" in faces
    for svg in faces.split("</svg>")[:-1]:
        root = ET.fromstring(svg[svg.index("<svg"):] + "</svg>")
        assert root.find("{http://www.w3.org/2000/svg}title") is not None
    assert not (tmp_path / "pwned").exists()


def test_text_wraps_then_shrinks_then_warns_at_the_cards_line(tmp_path: Path) -> None:
    short = CardFace("Spark", "Card", [("cost", "1")], ["Effect:", "- Do gain(you, 1)."])
    assert card_svg(short)[1]
    assert all(len(line) < 60 for line in fit_lines(["word " * 80], 200, 10))
    long = "A very long story. " * 120
    cards = ("cards:\n  - name: Spark\n    effect: gain(you, 1)\n"
             f"  - name: Saga\n    description: {yaml_text(long)}\n    effect: gain(you, 1)\n")
    diagnostics = Diagnostics()
    result = build([write_game(tmp_path / "game", cards)], tmp_path / "out", False, diagnostics)
    found = [d for c in result.compilations for d in c.diagnostics.sorted()]
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in found] == [
        ("W0408", "core.cards.yaml", 4)]
    assert "'Saga'" in found[0].message
    assert (tmp_path / "out" / "cardtest.py").is_file()  # a warning: the build goes on


def test_the_body_of_an_if_is_set_in_on_every_view(tmp_path: Path) -> None:
    catalogue = Catalogue(load_game_model("rulers_gambit")[0])
    spike = catalogue.face("Mind Spike")  # let c ...; if c != none { discard(c) }; drain ...
    assert spike is not None and spike.text[2:4] == ["- If c is set:", "  - Do discard(c)."]
    svg = ET.fromstring(card_svg(spike)[0])
    x = {t.text: float(t.get("x", 0)) for t in svg.iter("{http://www.w3.org/2000/svg}text")}
    assert x["• If c is set:"] < x["• Do discard(c)."]
    path = tmp_path / "spike.pdf"
    write_pdf(Sheet("Spike", [spike], []), path)
    at: dict[str, float] = {}
    pypdf.PdfReader(path).pages[0].extract_text(
        visitor_text=lambda text, cm, tm, *_: at.setdefault(text.strip(), tm[4]))
    assert at["• If c is set:"] < at["• Do discard(c)."]
    assert ("<li>If c is set:<ul><li>Do discard(c).</li></ul></li>"
            "<li>Do drain mana(the opponent of you, 1).</li></ul>") in face_html(spike, "", None)
    lines = [text for text, _ in card_lines(spike, "Mind Spike", None, True)]
    assert lines[3:5] == ["         - If c is set:", "           - Do discard(c)."]
    throne = catalogue.face("Ember Throne")  # a kingdom: its effect, then its passive
    assert throne is not None
    assert ('</ul></li></ul><div class="effect">Passive:</div><ul><li>For each u'
            in face_html(throne, "", None))


LAYOUT = ('<svg xmlns="http://www.w3.org/2000/svg" class="my-face" width="{{ width }}" '
          'height="{{ height }}"><text>{{ card.name }}</text>'
          '{% for line in wrap(card.text | join(" "), 200, 9) %}<text>{{ line }}</text>'
          '{% endfor %}</svg>')


def build_with_layout(tmp_path: Path, layout: str) -> tuple[list[tuple[str, str, int]], str]:
    cards, _ = hostile_card_set(tmp_path / "pwned")
    rules = write_game(tmp_path / "game", cards)
    (tmp_path / "game" / "faces").mkdir()
    (tmp_path / "game" / "faces" / "Card.svg.j2").write_text(layout, encoding="utf-8")
    result = build([rules], tmp_path / "out", False, Diagnostics())
    found = [(d.code, Path(d.span.file).name, d.span.line)
             for c in result.compilations for d in c.diagnostics.sorted()]
    return found, (tmp_path / "out" / "docs" / "cardtest.html").read_text(encoding="utf-8")


def test_a_card_type_may_name_its_own_layout(tmp_path: Path) -> None:
    found, page = build_with_layout(tmp_path, LAYOUT)
    assert found == []
    assert page.count('class="my-face"') == page.count("<tr id=\"card-")
    assert "<text>&lt;script&gt;alert(1)&lt;/script&gt;</text>" in page
    assert "<script>" not in page[page.index('<div class="card-faces">'):]


@pytest.mark.parametrize(("layout", "line"), [
    ("<svg>\n{% for x in %}\n</svg>", 2),  # a syntax error, at its line
    ("<svg>{{ card.nothing }}</svg>", 1),  # a name the card does not have
    ("<svg>{{ card.name.__class__.__mro__[1].__subclasses__() }}</svg>", 1),  # the sandbox
    # limits on what a layout may ask for: recursion, depth, numbers, memory, time
    ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}<svg>{{ f(0) }}</svg>", 1),
    ("<svg>{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}</svg>", 1),
    ("<svg>{{ 10 ** 5000 }}</svg>", 1),
    ("<svg>{{ 10 ** ((card.name | length) * 100000) }}</svg>", 1),
    ('<svg>{{ "x" * 3000000000 }}</svg>', 1),
    ('<svg>{{ card.name | center(1000000000) }}</svg>', 1),
    ("<svg>{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
     "</svg>", 1),
], ids=["syntax", "unknown name", "sandbox", "recursion", "nesting", "huge constant",
        "huge power", "huge text", "huge filter argument", "endless loops"])
def test_a_broken_layout_warns_and_the_default_face_is_drawn(tmp_path: Path, layout: str,
                                                             line: int) -> None:
    found, page = build_with_layout(tmp_path, layout)
    assert found == [("W0409", "Card.svg.j2", line)]
    assert 'class="card-face"' in page


def test_a_layout_draws_the_same_bytes_every_time(tmp_path: Path) -> None:
    """lipsum, Jinja's random text, is not given to layouts: the same rulebook, the same
    faces."""
    found, _ = build_with_layout(tmp_path, "<svg>{{ lipsum(1, html=False) }}</svg>")
    assert found == [("W0409", "Card.svg.j2", 1)]


def test_a_layout_linked_from_outside_the_rulebooks_folder_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    cards, _ = hostile_card_set(tmp_path / "pwned")
    rules = write_game(tmp_path / "game", cards)
    (tmp_path / "game" / "faces").mkdir()
    (tmp_path / "game" / "faces" / "Card.svg.j2").symlink_to(secret)
    result = build([rules], tmp_path / "out", False, Diagnostics())
    found = [(d.code, d.message) for c in result.compilations for d in c.diagnostics.sorted()]
    assert [code for code, _ in found] == ["W0409"] and "outside" in found[0][1], found
    assert "TOP-SECRET" not in (tmp_path / "out" / "docs" / "cardtest.html").read_text("utf-8")


def build_with_named_layout(tmp_path: Path, face: str, file: str,
                            layout: str = LAYOUT) -> tuple[list[tuple[str, str, int, int]], str]:
    cards, _ = hostile_card_set(tmp_path / "pwned")
    rules = write_game(tmp_path / "game", cards)
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("card Card {", f"card Card face {face} {{"), encoding="utf-8")
    target = tmp_path / "game" / file
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(layout, encoding="utf-8")
    result = build([rules], tmp_path / "out", False, Diagnostics())
    found = [(d.code, Path(d.span.file).name, d.span.line, d.span.column)
             for c in result.compilations for d in c.diagnostics.sorted()]
    page = tmp_path / "out" / "docs" / "cardtest.html"
    return found, page.read_text(encoding="utf-8") if page.exists() else ""


def test_a_card_type_names_its_layout_in_the_rulebook(tmp_path: Path) -> None:
    found, page = build_with_named_layout(tmp_path, '"layouts/plain.svg.j2"',
                                          "layouts/plain.svg.j2")
    assert found == []
    assert page.count('class="my-face"') == page.count("<tr id=\"card-")
    assert "<text>&lt;script&gt;alert(1)&lt;/script&gt;</text>" in page


@pytest.mark.parametrize("face", ['"../outside.svg.j2"', '"/etc/passwd"', '"missing.svg.j2"'])
def test_a_layout_outside_the_rulebooks_folder_is_an_error_at_its_name(
        tmp_path: Path, face: str) -> None:
    found, _ = build_with_named_layout(tmp_path, face, "../outside.svg.j2")
    line = next(i for i, text in enumerate(
        (tmp_path / "game" / "cardtest.rules").read_text().splitlines(), 1) if " face " in text)
    assert found == [("E0401", "cardtest.rules", line, len("card Card face ") + 1)]


def test_a_layout_cannot_include_another_file(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "secret.txt").write_text("TOP SECRET", encoding="utf-8")
    found, page = build_with_named_layout(
        tmp_path, '"face.svg.j2"', "face.svg.j2", '<svg>{% include "secret.txt" %}</svg>')
    assert [code for code, *_ in found] == ["W0409"] and "TOP SECRET" not in page
