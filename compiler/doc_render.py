"""Rendering the rulebook templates: the Jinja2 environment (templates only from
compiler/templates, rulebook text only ever data) and the Markdown and HTML renders of one
context, their runs of blank lines tidied a piece at a time."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache

from compiler.doc_html import html_bullets, html_inline
from dsl.user_cache import private, private_subfolder

TEMPLATES = Path(__file__).resolve().parent / "templates"


class KeptTemplates(jinja2.FileSystemBytecodeCache):
    """The templates compiled to Python, kept between runs in the user's cache folder
    (dsl.user_cache), as the grammar's parser tables are: compiling the two rulebook
    templates took 0.09 s of every build. Jinja keeps marshalled code, and loading it runs
    code, so a file that another user owns or may write is never read; Jinja compiles a
    template anew when its text or the Python version differs from the kept one's."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            if not private(Path(self._get_cache_filename(bucket))):
                return
        except OSError:  # none kept yet
            return
        super().load_bytecode(bucket)


@functools.cache
def kept_templates() -> KeptTemplates | None:
    """Where compiled templates are kept, made if need be; None: keep none (no private cache
    folder, or RULECRAFT_CACHE_DIR="")."""
    place = private_subfolder("templates")
    return None if place is None else KeptTemplates(str(place))


def environment(html_output: bool = False) -> jinja2.Environment:
    """Templates come only from compiler/templates; rulebook text is only ever data."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        bytecode_cache=kept_templates(),
        # Markdown: every rulebook string is escaped by english.md first. HTML: autoescape,
        # and the only Markup is what html_inline and html_bullets build from escaped text.
        autoescape=html_output,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["inline"] = html_inline
    env.filters["bullets"] = html_bullets
    return env


def render_markdown(context: dict[str, Any]) -> str:
    template = environment().get_template("rulebook.md.j2")
    return _render(template, context, re.compile(r"\n{3,}"), "\n\n")


def render_html(context: dict[str, Any]) -> str:
    template = environment(html_output=True).get_template("rulebook.html.j2")
    return _render(template, context, re.compile(r"\n\s*\n"), "\n")


_NOT_SPACE = re.compile(r"\S")


def _render(
    template: jinja2.Template, context: dict[str, Any], blanks: re.Pattern[str], by: str
) -> str:
    """What the template writes with runs of blank lines (matches of `blanks`, made only of
    whitespace) replaced `by`, stripped at the end, ending in one newline.

    Done a thousand pieces at a time: joining all of a 10,000-card gallery at once (half a
    million pieces), then copying the text for each fix-up, took several times the memory of
    the result. A piece is cut after its last non-space character, so that no run of blank
    lines is split between pieces. The pieces are added to the text as they are done: CPython
    grows a str that nothing else refers to in place (`+=` on a local), so the text is never
    beside a list of its pieces or a copy of itself (but where its first character beyond
    ASCII, then beyond Latin-1, comes)."""
    text = ""
    pending: list[str] = []
    for piece in template.generate(context):
        pending.append(piece)
        if len(pending) == 1024:
            chunk = "".join(pending)
            pending.clear()
            cut = _last_not_space(chunk) + 1
            text += blanks.sub(by, chunk[:cut])
            pending.append(chunk[cut:])
            del chunk
    text += blanks.sub(by, "".join(pending)).rstrip()
    del pending
    text += "\n"
    return text


def _last_not_space(text: str) -> int:
    """The position of the last non-space character of text, -1 when there is none."""
    end = len(text)
    while end > 0:
        start = max(0, end - 256)
        found = list(_NOT_SPACE.finditer(text, start, end))
        if found:
            return found[-1].start()
        end = start
    return -1
