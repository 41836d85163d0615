"""SVG text for the rulebook's diagrams (compiler.turn_diagram, compiler.board_diagram): the
page's colours and fonts, XML escaping, numbers rounded to one decimal, text widths estimated
from the advance widths of DejaVu Sans (the widest of the usual sans-serif fonts, so that text
fits its box whatever font the reader's browser picks), and the `<svg>` and `<text>` elements.
"""

from __future__ import annotations

import html
import unicodedata

INK = "#1d1d1f"  # the page's text colour (compiler/templates/rulebook.html.j2)
ACCENT = "#8a5a00"  # the page's heading rule
PAPER = "#f1ece0"  # the page's table headers and code
LINE = "#555"  # strokes, as in the hex map pictures
LABEL_INK = "#5b5246"

FONT = "sans-serif"
BOX_FONT = 14.0
LABEL_FONT = 12.0
MARGIN = 8.0  # around a drawing


def escape(text: str) -> str:
    """Text for an XML text node or attribute: `&`, `<`, `>` and both quotes as entities."""
    return html.escape(text, quote=True)


def num(value: float) -> str:
    """A coordinate as written in the SVG: one decimal, no trailing `.0`, never `-0`."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _width_table() -> dict[str, float]:
    """Advance widths of DejaVu Sans, in ems, of the printable ASCII characters."""
    groups = (
        (" ,.", 0.318), ("!", 0.401), ("\"", 0.46), ("#+<=>^~", 0.838), ("$0123456789{}", 0.636),
        ("%", 0.95), ("&", 0.78), ("'", 0.275), ("()[]", 0.39), ("*_`", 0.5), ("-", 0.361),
        ("/:;\\|", 0.337), ("?", 0.531), ("@", 1.0), ("AVXZ", 0.685), ("B", 0.686),
        ("C", 0.698), ("D", 0.77), ("E", 0.632), ("F", 0.575), ("G", 0.775), ("H", 0.752),
        ("IJ", 0.295), ("K", 0.656), ("L", 0.557), ("M", 0.863), ("N", 0.748), ("OQ", 0.787),
        ("P", 0.603), ("R", 0.695), ("S", 0.635), ("TY", 0.611), ("U", 0.732), ("W", 0.989),
        ("a", 0.613), ("bdghnpqu", 0.635), ("c", 0.55), ("e", 0.615), ("f", 0.352),
        ("ijl", 0.278), ("k", 0.579), ("m", 0.974), ("o", 0.612), ("r", 0.411), ("s", 0.521),
        ("t", 0.392), ("vxy", 0.592), ("w", 0.818), ("z", 0.525),
    )
    return {char: width for chars, width in groups for char in chars}


_WIDTHS = _width_table()


def text_width(text: str, size: float) -> float:
    """The estimated width of text set at `size` pixels: wide characters count one em."""
    total = 0.0
    for char in text:
        width = _WIDTHS.get(char)
        if width is None:
            wide = unicodedata.east_asian_width(char) in ("W", "F")
            width = 1.0 if wide else 0.0 if unicodedata.combining(char) else 0.75
        total += width
    return total * size


def wrap(text: str, limit: int) -> list[str]:
    """Text cut at spaces into lines of at most `limit` characters (a longer word stays whole)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def svg_open(width: float, height: float, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" '
            f'height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}" role="img" '
            f'aria-label="{escape(title)}" font-family="{FONT}">',
            f"<title>{escape(title)}</title>"]


def text_element(x: float, y: float, text: str, size: float, *, anchor: str = "",
          fill: str = INK, weight: str = "") -> str:
    middle = f' text-anchor="{anchor}"' if anchor else ""
    bold = f' font-weight="{weight}"' if weight else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{middle}{bold} '
            f'fill="{fill}">{escape(text)}</text>')


def baseline(centre: float, size: float) -> float:
    """The baseline that centres a line of text of `size` pixels on `centre`."""
    return centre + 0.35 * size

