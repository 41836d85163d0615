"""Rulebook source in the HTML rulebook and in rendered Markdown pages: a declaration's own lines
of its `.rules` file, coloured by the Pygments lexer of compiler.highlight when Pygments (the
`highlight` extra) can be imported, plain escaped text when it cannot.

The colours are CSS classes (HtmlFormatter's short names) and the stylesheet is written once into
the page, so that a page works offline and its bytes depend only on the source.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence

from markupsafe import Markup

from compiler.doc_html import escape_html, html_bullets, inline_html
from dsl.source import SourceFile, Span

CSS_CLASS = "highlight"


def _last_line(span: Span) -> int:
    # A span ending at column 1 ends with the line break before that line.
    return span.end_line - 1 if span.end_column == 1 and span.end_line > span.line else (
        span.end_line)


def span_text(
    sources: Mapping[str, SourceFile], span: Span, elide: Sequence[Span] = ()
) -> str:
    """The whole lines a span covers, dedented, without the blank lines at its ends ("" when its
    file is not known). Whole lines: a declaration's first line is only indented before it.

    The inner lines of each span of `elide` (the bodies of a phase's actions, which have blocks
    of their own) become one comment, so that a page does not show the same lines twice."""
    source = sources.get(span.file)
    if source is None:
        return ""
    lines = {number: source.line(number) for number in range(span.line, _last_line(span) + 1)}
    for inner in elide:
        body = range(inner.line + 1, _last_line(inner))
        if len(body) == 0 or inner.file != span.file:
            continue
        first = lines.get(body[0])
        if first is None:
            continue
        indent = first[: len(first) - len(first.lstrip())]
        for number in body:
            lines.pop(number, None)
        count = "1 line" if len(body) == 1 else f"{len(body)} lines"
        lines[body[0]] = f"{indent}# … {count}, in the action's own block above"
    text = "\n".join(line for _, line in sorted(lines.items()))
    return textwrap.dedent(text).strip("\n")


# The colours of the token classes our lexer gives (Pygments' short names), fixed here rather
# than taken from a Pygments style, so that a page's bytes do not change with Pygments' version.
_COLOURS = {
    "c1": "color: #6a737d; font-style: italic", "cs": "color: #6a737d; font-weight: bold",
    "k": "color: #8250df; font-weight: bold", "kc": "color: #0550ae",
    "kd": "color: #cf222e; font-weight: bold", "kt": "color: #953800",
    "mi": "color: #0550ae", "s2": "color: #0a3069", "si": "color: #8250df",
    "nb": "color: #116329", "nc": "color: #953800; font-weight: bold",
    "nd": "color: #8250df", "o": "color: #cf222e", "err": "color: #f00",
}


def highlight_rules(text: str) -> str:
    """`.rules` text as an HTML block: `<div class="highlight"><pre>` with a class on each token
    (Pygments' short names; tokens of one class in a row share a span), or `<pre
    class="highlight">` of the escaped text without Pygments. The spans are written here rather
    than by Pygments' HtmlFormatter, whose markup and styles may change between versions: the
    committed rulebook pages must stay byte-identical whichever Pygments CI installs."""
    try:
        from pygments.token import STANDARD_TYPES

        from compiler.highlight import RulecraftLexer
    except ImportError:
        return f'<pre class="{CSS_CLASS}">{escape_html(text)}</pre>\n'
    runs: list[tuple[str, str]] = []  # (class, text)
    # stripnl=False keeps the block's first line's indentation as written
    for token_type, value in RulecraftLexer(stripnl=False).get_tokens(text):
        kind = token_type
        while kind not in STANDARD_TYPES and kind.parent is not None:
            kind = kind.parent
        short = STANDARD_TYPES.get(kind, "")
        short = "" if short == "w" or not value.strip() else short
        if runs and runs[-1][0] == short:
            runs[-1] = (short, runs[-1][1] + value)
        else:
            runs.append((short, value))
    body = "".join(f'<span class="{short}">{escape_html(value)}</span>' if short
                   else escape_html(value) for short, value in runs)
    return f'<div class="{CSS_CLASS}"><pre>{body.rstrip(chr(10))}\n</pre></div>\n'


def stylesheet() -> str:
    """The CSS of highlight_rules's classes, scoped to `.highlight` ("" without Pygments)."""
    try:
        import pygments  # noqa: F401
    except ImportError:
        return ""
    return "\n".join(f".{CSS_CLASS} .{short} {{ {style} }}" for short, style in _COLOURS.items())


def source_block(
    sources: Mapping[str, SourceFile], span: Span, elide: Sequence[Span] = ()
) -> Markup:
    """A collapsed "Rule source" block of a declaration's lines (empty when they are not known).
    Markup only of escaped text: Pygments escapes every token, escape_html the plain text."""
    text = span_text(sources, span, elide)
    if not text:
        return Markup("")
    return Markup(f'<details class="rule-source"><summary>Rule source</summary>\n'
                  f"{highlight_rules(text)}</details>")


# ---- a Markdown page (docs/language.md) as HTML, its ```rulecraft fences highlighted

_FENCE = re.compile(r"^```(?P<info>[\w-]*)\n(?P<code>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def markdown_page(text: str, title: str) -> str:
    """A Markdown page as a self-contained HTML page: headings, paragraphs, bullet lists, tables
    and fenced code, the `rulecraft` (or `rules`) fences coloured. Enough for the language
    reference; the prose goes through doc_html's escaping inline renderer."""
    body: list[str] = []
    position = 0
    for fence in _FENCE.finditer(text):
        body.extend(_prose(text[position:fence.start()]))
        code = fence.group("code")
        if fence.group("info") in ("rulecraft", "rules"):
            body.append(highlight_rules(code.rstrip("\n")))
        else:
            body.append(f"<pre><code>{escape_html(code)}</code></pre>\n")
        position = fence.end()
    body.extend(_prose(text[position:]))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta name=\"generator\" content=\"Rulecraft\">\n<title>{escape_html(title)}</title>\n"
        "<style>\nbody { font-family: Georgia, serif; max-width: 60rem; margin: 0 auto; "
        "padding: 1rem; line-height: 1.5; }\npre { padding: .8rem; overflow-x: auto; }\n"
        "td, th { border: 1px solid #ccc; padding: .2rem .4rem; }\n"
        f"{stylesheet()}\n</style>\n</head>\n<body>\n{''.join(body)}</body>\n</html>\n")


def _prose(text: str) -> list[str]:
    """Blocks separated by blank lines: a heading, a bullet list, a table or a paragraph."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.split("\n") if line.strip()]
        if not lines:
            continue
        heading = _HEADING.match(lines[0])
        if heading is not None:
            level = len(heading.group(1))
            out.append(f"<h{level}>{inline_html(heading.group(2))}</h{level}>\n")
            lines = lines[1:]
        if not lines:
            continue
        if lines[0].lstrip().startswith(("- ", "* ")):
            items: list[str] = []
            for line in lines:  # a wrapped item's next lines join it
                stripped = line.lstrip()
                if stripped.startswith(("- ", "* ")):
                    items.append(line[: len(line) - len(stripped)] + "- " + stripped[2:])
                else:
                    items[-1] += " " + stripped
            out.append(f"{html_bullets(items)}\n")
        elif lines[0].startswith("|"):
            rows = [[cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
                    for line in lines if not re.fullmatch(r"[\s|:-]+", line)]
            out.append("<table>\n" + "".join(
                "<tr>" + "".join(f"<{tag}>{inline_html(cell)}</{tag}>" for cell in row)
                + "</tr>\n" for tag, row in ((("th" if i == 0 else "td"), row)
                                              for i, row in enumerate(rows))) + "</table>\n")
        else:
            out.append(f"<p>{inline_html(' '.join(line.strip() for line in lines))}</p>\n")
    return out
