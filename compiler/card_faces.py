"""Card faces as SVG, one layout for every card type, from a card's fields and the English
of its effects (the card gallery's words): its name over the top, cost in a disc, its kind
and type, its other fields as a table, then its text, wrapped to the face's width and set
smaller until it fits. Text that does not fit at the smallest size is cut, and the card is
reported (`overflows`) so that the build warns at its YAML line. Sized as a poker card
(63 x 88 mm, 4 units a millimetre); every text escaped (compiler.svg_text)."""

from __future__ import annotations

import contextlib
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from compiler import symbols as sym
from compiler import types as t
from compiler.english import words
from compiler.svg_text import ACCENT, INK, LABEL_INK, PAPER, escape, num, text_width
from dsl import nodes as n

if TYPE_CHECKING:
    from compiler.doc_gallery import CardGallery
    from compiler.model import EntryInfo, RecordInfo

WIDTH, HEIGHT = 252.0, 352.0
PAD = 14.0
NAME_FONT, MIN_NAME_FONT = 17.0, 9.0
TEXT_FONTS = (11.0, 10.0, 9.0, 8.0, 7.0)
STAT_FONT = 10.0
MAX_STATS = 16
BULLET = "• "  # before a statement; the statements of its body are set in by its width


@dataclass
class CardFace:
    name: str
    card_type: str
    stats: list[tuple[str, str]] = field(default_factory=list)  # (field in words, value)
    # the effects in English, a line each, as the rulebook's Markdown lists them (outline)
    text: list[str] = field(default_factory=list)
    flavour: str = ""
    source: str = ""  # file:line of the card's entry


def plain(markdown: str) -> str:
    """Text of the docs' Markdown as a player reads it: links as their words, no emphasis."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"(?<!\\)[*_`]", "", text)
    return re.sub(r"\\(.)", r"\1", text)


def _value(gallery: CardGallery, expr: n.Expr) -> str:
    if isinstance(expr, n.Name):
        symbol = gallery.model.symbols.names.get(id(expr))
        if isinstance(symbol, sym.EnumMember):
            return words(expr.id)
    if isinstance(expr, n.ListLit):
        return ", ".join(_value(gallery, item) for item in expr.items)
    return plain(gallery.value(expr))


def face_of(gallery: CardGallery, record: RecordInfo, entry: EntryInfo) -> CardFace:
    """A card's face: the fields its entry gives (a type's default is not the card's), and
    its effects as the gallery words them."""
    # a module-level helper, not a nested recursive one: that would be a reference cycle
    # holding the model after a build (tests/test_collector.py)
    face = CardFace(entry.name, record.name, flavour=entry.description.strip(),
                    source=f"{entry.span.file}:{entry.span.line}")
    for name, info in record.data_fields().items():
        if isinstance(info.type, t.EffectT) or name == "name":
            continue
        given = entry.values.get(name)
        shown = "" if given is None else _value(gallery, given)
        if shown not in ("", "—", "no"):
            face.stats.append((words(name), shown))
    for effect in gallery.card_effects(record, entry):
        face.text.append(plain(effect.name) + ":")
        face.text.extend(plain(line) for line in effect.lines)
    return face


def outline(text: list[str]) -> list[tuple[int, str]]:
    """A card's text (CardFace.text: each effect's heading, then its statements as the Markdown
    rulebook's nested list) as (depth, words), for the views that lay it out themselves: a
    heading ("Effect:") at depth 0, a statement at 1, the body of its if, for or repeat one
    deeper; the words without the list's dash."""
    found = []
    for line in text:
        said = line.lstrip(" ")
        if said.startswith("- "):
            found.append(((len(line) - len(said)) // 2 + 1, said[2:]))
        else:
            found.append((0, said.rstrip()))
    return found


def outline_lines(items: list[tuple[int, str]], width: float, bullet: float,
                  wrap: Callable[[str, float], list[str]]) -> list[tuple[float, str]]:
    """An outline's lines wrapped to `width`, each with its x offset: a statement's lines
    after the first under its words, and the statements of its body under them too. `bullet`
    is the width of BULLET and `wrap(words, room)` the lines of words in a room that wide, as
    the face (fit_outline) or the PDF (printing.text_lines) measures text."""
    lines: list[tuple[float, str]] = []
    for depth, said in items:
        at = min(max(depth - 1, 0) * bullet, width / 2)
        lead = bullet if depth else 0.0
        for i, line in enumerate(wrap(said, width - at - lead)):
            lines.append((at, BULLET + line) if depth and i == 0 else (at + lead, line))
    return lines


def fit_outline(items: list[tuple[int, str]], width: float, size: float,
                ) -> list[tuple[float, str]]:
    """An outline's lines wrapped to `width` at `size` on a card face (outline_lines)."""
    return outline_lines(items, width, text_width(BULLET, size),
                         lambda said, room: fit_lines([said], room, size))


def fit_lines(paragraphs: list[str], width: float, size: float) -> list[str]:
    """Paragraphs wrapped to `width` at `size` (a word wider than a line is cut by letters)."""
    lines: list[str] = []
    for paragraph in paragraphs:
        indent = "  " * ((len(paragraph) - len(paragraph.lstrip(" "))) // 2)
        line = indent
        for word in paragraph.split():
            trial = f"{line} {word}" if line.strip() else indent + word
            if text_width(trial, size) <= width:
                line = trial
                continue
            if line.strip():
                lines.append(line)
            line = indent + word
            while text_width(line, size) > width and len(line) > 1:
                cut = len(line)
                while cut > 1 and text_width(line[:cut], size) > width:
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        if line.strip():
            lines.append(line)
    return lines


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "", weight: str = "",
          fill: str = INK, style: str = "") -> str:
    extra = (f' text-anchor="{anchor}"' if anchor else "") + (
        f' font-weight="{weight}"' if weight else "") + (
        f' font-style="{style}"' if style else "")
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{extra} '
            f'fill="{fill}">{escape(text)}</text>')


def card_svg(face: CardFace) -> tuple[str, bool]:
    """The face as SVG, and whether all its text fits."""
    stats = dict(face.stats)
    cost = stats.pop("cost", None)
    kind = stats.pop("kind", None)
    inner = WIDTH - 2 * PAD - (34 if cost is not None else 0)
    size = NAME_FONT
    while size > MIN_NAME_FONT and text_width(face.name, size) > inner:
        size -= 0.5
    # a name too long even at the smallest size is cut ("…"; the whole name is the face's
    # title): the warning is for the card's text, which a player needs whole
    fits = True
    name = face.name
    while text_width(name, size) > inner and len(name) > 1:
        name = name[:-2] + "…"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="card-face" width="{num(WIDTH)}" '
           f'height="{num(HEIGHT)}" viewBox="0 0 {num(WIDTH)} {num(HEIGHT)}" role="img" '
           f'aria-label="{escape(face.name)}" font-family="sans-serif">',
           f"<title>{escape(face.name)}</title>",
           f'<rect x="2" y="2" width="{num(WIDTH - 4)}" height="{num(HEIGHT - 4)}" rx="12" '
           f'fill="#fffdf7" stroke="{INK}" stroke-width="3"/>',
           f'<rect x="{num(PAD - 4)}" y="{num(PAD - 4)}" width="{num(WIDTH - 2 * PAD + 8)}" '
           f'height="34" rx="6" fill="{PAPER}" stroke="{ACCENT}"/>',
           _text(PAD, PAD + 19, name, size, weight="bold")]
    if cost is not None:
        out.append(f'<circle cx="{num(WIDTH - PAD - 12)}" cy="{num(PAD + 13)}" r="14" '
                   f'fill="{ACCENT}"/>')
        out.append(_text(WIDTH - PAD - 12, PAD + 18, cost[:3], 13, anchor="middle",
                         weight="bold", fill="#fff"))
    type_line = face.card_type + (f" — {kind}" if kind else "")
    out.append(_text(PAD, PAD + 44, type_line, 10, style="italic", fill=LABEL_INK))
    y = PAD + 58
    shown = list(stats.items())
    if len(shown) > MAX_STATS:
        shown, fits = shown[:MAX_STATS], False
    column = (WIDTH - 2 * PAD) / 2
    row, at = 0, 0  # the row, and the column (0 or 1) the next field goes in
    long_fields: list[str] = []  # wider than the face: written with the text, wrapped
    for label, value in shown:
        text = f"{label}: {value}"
        if text_width(text, STAT_FONT) > 2 * column:
            long_fields.append(text)
            continue
        wide = text_width(text, STAT_FONT) > column - 4
        if wide and at:
            row, at = row + 1, 0
        out.append(_text(PAD + column * at, y + STAT_FONT * 1.3 * row + STAT_FONT, text,
                         STAT_FONT))
        if wide or at:
            row, at = row + 1, 0
        else:
            at = 1
    y += STAT_FONT * 1.3 * (row + (1 if at else 0)) + 6
    out.append(f'<line x1="{num(PAD)}" y1="{num(y)}" x2="{num(WIDTH - PAD)}" y2="{num(y)}" '
               f'stroke="{ACCENT}"/>')
    # the body of an if, for or repeat set in by an x offset: SVG collapses leading spaces
    paragraphs = [(0, text) for text in long_fields] + outline(face.text)
    flavour = [(0, face.flavour)] if face.flavour else []
    room = HEIGHT - PAD - y - 4
    chosen: tuple[float, list[tuple[float, str]], int] | None = None
    for font in TEXT_FONTS:
        lines = fit_outline(paragraphs, WIDTH - 2 * PAD, font)
        more = fit_outline(flavour, WIDTH - 2 * PAD, font)
        if (len(lines) + len(more)) * font * 1.25 <= room:
            chosen = (font, lines + more, len(lines))
            break
    if chosen is None:
        font = TEXT_FONTS[-1]
        lines = fit_outline(paragraphs, WIDTH - 2 * PAD, font)
        keep = max(0, int(room // (font * 1.25)) - 1)
        chosen = (font, [*lines[:keep], (0.0, "…")], keep + 1)
        fits = False
    font, lines, rules = chosen
    for i, (indent, line) in enumerate(lines):
        out.append(_text(PAD + indent, y + font * 1.25 * (i + 1), line, font,
                         style="italic" if i >= rules else "",
                         fill=LABEL_INK if i >= rules else INK))
    out.append("</svg>")
    return "\n".join(out) + "\n", fits


class Layouts:
    """A designer's face layouts: `faces/<CardType>.svg.j2` beside the rulebook, a Jinja2
    template of an SVG, rendered in Jinja's immutable sandbox with autoescaping (card text is
    escaped, and a template can call no Python). It gets `card` (name, type, stats: pairs of
    field and value, fields: the same as a dict, text: the effect lines, outline: the same as
    pairs of depth and words, flavour), `width`, `height` and `wrap(text, width, size)` (lines
    that fit). A template that cannot be read or rendered is reported (`problems`: file, line,
    message) and the default face is used."""

    def __init__(self, source_file: str, named: dict[str, Path] | None = None) -> None:
        self.home = Path(source_file).parent if source_file else None
        self.folder = self.home / "faces" if self.home is not None else None
        # `card T face "file"`: files the resolver found inside the rulebook's folder
        self.named = dict(named or {})
        self.templates: dict[str, object] = {}
        self.problems: list[tuple[str, int, str]] = []

    def path(self, card_type: str) -> Path | None:
        if card_type in self.named:
            return self.named[card_type]
        return self.folder / f"{card_type}.svg.j2" if self.folder else None

    def template(self, card_type: str) -> object:
        if card_type in self.templates:
            return self.templates[card_type]
        found: object = None
        path = self.path(card_type)
        if path is not None and path.is_file():
            found = self._compile(path)
        self.templates[card_type] = found
        return found

    def _compile(self, path: Path) -> object:
        """The template of a file, or None with the problem noted: a file that links out of
        the rulebook's folder is not read, nor one too long to be a card's face."""
        if self.home is not None and not path.resolve().is_relative_to(self.home.resolve()):
            self.problems.append((str(path), 1, "it is outside the rulebook's folder (a link)"))
            return None
        try:
            if path.stat().st_size > MAX_LAYOUT_BYTES:
                self.problems.append((str(path), 1, f"it is larger than {MAX_LAYOUT_BYTES:,} "
                                      "bytes"))
                return None
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            self.problems.append((str(path), 1, f"cannot read it: {error}"))
            return None
        from jinja2 import TemplateSyntaxError

        try:
            with _deadline(LAYOUT_SECONDS):
                return _face_environment().from_string(text)
        except TemplateSyntaxError as error:
            self.problems.append((str(path), error.lineno or 1, error.message or "syntax"))
        except (RecursionError, MemoryError):
            self.problems.append((str(path), 1, "it is nested too deep to be read"))
        except _TooLong:
            self.problems.append((str(path), 1, f"reading it took over {LAYOUT_SECONDS:g} s"))
        except Exception as error:  # Jinja folds constants as it compiles: 10 ** 5000
            self.problems.append((str(path), 1, f"cannot compile it: {error}"))
        return None

    def render(self, face: CardFace) -> str | None:
        """The card's face by its type's template; None when the type has none (or a broken
        one, reported once per template)."""
        from jinja2 import Template, TemplateError
        from jinja2.exceptions import SecurityError

        template = self.template(face.card_type)
        if not isinstance(template, Template):
            return None
        card = {"name": face.name, "type": face.card_type, "stats": face.stats,
                "fields": dict(face.stats), "text": face.text,
                "outline": outline(face.text), "flavour": face.flavour}
        problem = None
        try:
            with _deadline(LAYOUT_SECONDS):
                drawn = template.render(card=card, width=WIDTH, height=HEIGHT,
                                        wrap=lambda text, width, size: fit_lines(
                                            [str(text)], float(width), float(size)))
            if len(drawn) <= MAX_FACE_CHARS:
                return drawn
            problem = f"its face is over {MAX_FACE_CHARS:,} characters"
        except (TemplateError, SecurityError, TypeError, ValueError, ArithmeticError,
                LookupError, _LayoutLimit) as error:
            problem = str(error)
        except (RecursionError, MemoryError):
            problem = "it recurses too deep or asks for too much memory"
        except _TooLong:
            problem = f"it took over {LAYOUT_SECONDS:g} s"
        if problem is not None:
            self.problems.append((str(self.path(face.card_type)), 1,
                                  f"rendering card '{face.name}': {problem}"))
            self.templates[face.card_type] = None
            return None


# A face layout is the designer's, but may come with an untrusted card set: it is read and drawn
# with limits, and a layout past one is reported (W0409) and the default face drawn.
MAX_LAYOUT_BYTES = 256 * 1024
MAX_FACE_CHARS = 1_000_000
LAYOUT_SECONDS = 2.0
# the largest whole number a layout may pass to a call or a filter, or repeat a text or list
# by: a face is a few hundred points wide, and `"x" * 10 ** 9` would take gigabytes
MAX_LAYOUT_NUMBER = 100_000


class _TooLong(Exception):
    """A layout that has run past its time."""


class _LayoutLimit(Exception):
    """A layout that asked for more than a face needs (shown as its message)."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Stop the template code Jinja compiled (its frames are named "<template>") once it has
    run `seconds`: a line trace on those frames alone, so that a loop with nothing in it is
    stopped too, in any thread."""
    ends = time.monotonic() + seconds

    def line(frame: FrameType, event: str, arg: Any) -> Any:
        if time.monotonic() > ends:
            raise _TooLong
        return line

    def call(frame: FrameType, event: str, arg: Any) -> Any:
        return line if frame.f_code.co_filename == "<template>" else None

    previous = sys.gettrace()
    sys.settrace(call)
    try:
        yield
    finally:
        sys.settrace(previous)


def _checked(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_LAYOUT_NUMBER:
        raise _LayoutLimit(f"{value} is larger than a face layout may use "
                           f"({MAX_LAYOUT_NUMBER:,})")
    return value


def _face_environment() -> Any:
    """Jinja's immutable sandbox with autoescaping (card text is escaped; a template calls no
    Python), without `lipsum` (random text: the same rulebook must give the same bytes), and
    with no whole number above MAX_LAYOUT_NUMBER given to a call, a filter, `*` or `**`."""
    from jinja2 import StrictUndefined
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class FaceEnvironment(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**"})

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            if operator == "**":
                _checked(right)
            elif not isinstance(left, (int, float)) or not isinstance(right, (int, float)):
                _checked(left if isinstance(left, int) else right)  # a text or list repeated
            return super().call_binop(context, operator, left, right)

        def call(__self, __context: Any, __obj: Any, *args: Any,
                 **kwargs: Any) -> Any:
            for value in (*args, *kwargs.values()):
                _checked(value)
            return super().call(__context, __obj, *args, **kwargs)

    environment = FaceEnvironment(autoescape=True, undefined=StrictUndefined)
    environment.globals.pop("lipsum", None)
    for name, function in list(environment.filters.items()):
        environment.filters[name] = _guarded_filter(function)
    return environment


def _guarded_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(*args: Any, **kwargs: Any) -> Any:
        for value in (*args[1:], *kwargs.values()):
            _checked(value)
        return function(*args, **kwargs)

    # Jinja reads what a filter is passed first (the context, the environment) from this
    passed = getattr(function, "jinja_pass_arg", None)
    if passed is not None:
        setattr(guarded, "jinja_pass_arg", passed)  # noqa: B010 - an attribute of a function
    return guarded
