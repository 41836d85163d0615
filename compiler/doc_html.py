"""The rulebook's Markdown fragments as escaped HTML: inline markers (`*em*`, `**strong**`, code
spans, `[links](#anchors)`) and nested bullet lists. Every character of text is escaped; only
the markers become tags. Used by the HTML template's filters and the card gallery's rows."""

from __future__ import annotations

import html
import re

from markupsafe import Markup

_INLINE = re.compile(
    r"\\(?P<escaped>[!-/:-@\[-`{-~])"  # a backslash escape of ASCII punctuation
    r"|(?P<entity>&(?:amp|lt|gt|quot|#[0-9]+|#x[0-9a-fA-F]+);)"
    r"|(?P<ticks>`+)"
    r"|(?P<stars>\*+)"
    r"|(?P<open>\[)"
    r"|\]\((?P<href>[^()\s]*)\)"
)


def escape_html(text: str) -> str:
    """markupsafe.escape(text) as a plain str: `&`, `<`, `>`, `'` and `"` as entities. Without
    making Markup objects, which gallery cells are built from by the hundred thousand."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


def html_inline(text: str) -> Markup:
    """A one-line Markdown fragment as written by the docs generator and compiler.english (escaped
    text, `*em*`, `**strong**`, code spans, `[links](#anchors)`) as HTML. Every character of
    text is escaped; only the markers become tags."""
    return Markup(inline_html(str(text)))


# Fragments whose only markers are links `[words](#anchor)` with plain words (and no star or
# bracket in the anchor either), and single stars (`*em*`), most of those in a card gallery
# (keywords linked, effects' parameters): each link and each pair of stars becomes its tag, as
# the parse in _parse_inline would make it.
_LINKS_AND_STARS = re.compile(
    r"(?:[^\\`*\[\]&]|\[[^\\`*\[\]&]*\]\([^()\s*\[\]]*\)|(?<!\*)\*(?!\*))*")
_LINK = re.compile(r"\[([^\[\]]*)\]\(([^()\s]*)\)")


# Text with no marker and nothing to escape (card names, their sources, flavour text): itself.
_PLAIN = re.compile(r"[^\\&`*\[\]<>'\"]*")


def inline_html(text: str) -> str:
    """html_inline, as a plain str."""
    if _PLAIN.fullmatch(text) is not None:
        return text
    if _INLINE.search(text) is None:
        return escape_html(text)  # most gallery cells: no markers, nothing to parse
    if _LINKS_AND_STARS.fullmatch(text) is not None and text.count("*") % 2 == 0:
        # Escaping leaves brackets, parentheses and stars alone. Split, not sub with a
        # template: Python 3.11 expands a template match by match in Python.
        parts = _LINK.split(escape_html(text))  # text, (words, anchor, text)...
        html = "".join([parts[0], *(f'<a href="{parts[i + 1]}">{parts[i]}</a>{parts[i + 2]}'
                                    for i in range(1, len(parts), 3))])
        if "*" in html:  # what is between two stars, the first pair and on, is emphasised
            pieces = html.split("*")
            html = "".join([piece if i % 2 == 0 else f"<em>{piece}</em>"
                            for i, piece in enumerate(pieces)])
        return html
    return _parse_inline(text)


def _parse_inline(text: str) -> str:
    """html_inline of any fragment, marker by marker."""
    frames: list[tuple[str, list[str]]] = [("", [])]
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() < position:
            continue  # inside a code span already consumed
        out = frames[-1][1]
        out.append(escape_html(text[position:match.start()]))
        position = match.end()
        kind = match.lastgroup
        if kind == "escaped":
            out.append(escape_html(match.group("escaped")))
        elif kind == "entity":
            out.append(escape_html(html.unescape(match.group("entity"))))
        elif kind == "ticks":
            ticks = match.group("ticks")
            close = re.compile(rf"(?<!`){ticks}(?!`)").search(text, position)
            if close is None:
                out.append(ticks)
                continue
            content = text[position:close.start()].replace("\\|", "|")
            if len(content) > 1 and content[0] == content[-1] == " " and content.strip():
                content = content[1:-1]
            out.append(f"<code>{escape_html(content)}</code>")
            position = close.end()
        elif kind == "stars":
            stars = len(match.group("stars"))
            while stars:
                top = frames[-1][0]
                size = 2 if stars >= 2 and top != "em" else 1
                tag = "strong" if size == 2 else "em"
                if top == tag:
                    _, parts = frames.pop()
                    frames[-1][1].append(f"<{tag}>{''.join(parts)}</{tag}>")
                else:
                    frames.append((tag, []))
                stars -= size
        elif kind == "open":
            frames.append(("a", []))
        elif frames[-1][0] == "a":
            _, parts = frames.pop()
            href = escape_html(match.group("href"))
            frames[-1][1].append(f'<a href="{href}">{"".join(parts)}</a>')
        else:
            out.append(escape_html(match.group(0)))
    frames[-1][1].append(escape_html(text[position:]))
    while len(frames) > 1:  # unclosed markers stay as the text they were
        tag, parts = frames.pop()
        marker = {"strong": "**", "em": "*", "a": "["}[tag]
        frames[-1][1].append(marker + "".join(parts))
    return "".join(frames[0][1])


KNOWN_ITEMS = 16_384


def html_bullets(lines: list[str], known: dict[str, str] | None = None) -> Markup:
    """Nested Markdown bullet lines ("  " per level, then "- ") as nested HTML lists. `known`
    keeps each item's inline_html for the next lists (a card set's 6,000 effect texts say
    about 1,500 different things in 36,000 lines), up to KNOWN_ITEMS items."""
    out: list[str] = []
    depth = -1
    for line in lines:
        item = line.lstrip(" ")
        level = (len(line) - len(item)) // 2
        item = item.removeprefix("- ")
        if level > depth:
            out.append("<ul><li>" * (level - depth))
        else:
            out.append("</li></ul>" * (depth - level) + "</li><li>")
        if known is None:
            out.append(inline_html(item))
        else:
            html = known.get(item)
            if html is None:
                html = inline_html(item)
                if len(known) < KNOWN_ITEMS:
                    known[item] = html
            out.append(html)
        depth = level
    out.append("</li></ul>" * (depth + 1))
    return Markup("".join(out))
