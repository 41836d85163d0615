"""Rule source in the HTML rulebook (compiler.doc_source): each phase, action, procedure,
function, trigger and record shows its `.rules` lines, coloured by the Pygments lexer, escaped;
plain escaped text when Pygments is not installed. docs/language.md rendered with its
```rulecraft blocks coloured (`python -m compiler.highlight`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from compiler import doc_source
from compiler.docgen import generate_all_docs
from compiler.highlight import main as highlight_main
from tests.test_docs import assert_well_formed, compile_model, write_duel

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_HTML = sorted((ROOT / "generated" / "docs").glob("*.html"))
HOSTILE = "<script>alert(1)</script>"


def without_pygments(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `import pygments...` fail as it does when the `highlight` extra is not installed
    (a None in sys.modules makes the import raise ImportError)."""
    for name in ("pygments", "pygments.formatters", "pygments.lexer", "pygments.token"):
        monkeypatch.setitem(sys.modules, name, None)


def hostile_duel(folder: Path) -> Path:
    """The duel of tests/test_docs.py with markup in an action's text and in a comment."""
    rules = write_duel(folder)
    text = rules.read_text(encoding="utf-8")
    text = text.replace(
        'says "{actor} casts {c}" {',
        f'says "{{actor}} casts {{c}} {HOSTILE}" {{\n    # </pre></details>{HOSTILE}')
    assert HOSTILE in text
    rules.write_text(text, encoding="utf-8")
    return rules


@pytest.mark.parametrize("page", SHIPPED_HTML, ids=lambda p: p.stem)
def test_shipped_rulebooks_show_highlighted_source(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    style = html[html.index("<style>"):html.index("</style>")]
    assert style.count(".highlight .kd {") == 1  # the stylesheet, once, in the page
    blocks = re.findall(r'<details class="rule-source"><summary>Rule source</summary>\n'
                        r'<div class="highlight"><pre>(.*?)</pre></div>\n</details>', html, re.S)
    phases = html.count('<h3 id="phase-')
    assert phases and len(blocks) >= phases
    assert all('<span class="kd">' in block for block in blocks)  # each opens a declaration
    assert '<span class="err">' not in html
    assert "<script" not in html


def test_rule_source_is_escaped_and_coloured(tmp_path: Path) -> None:
    _, page = generate_all_docs(compile_model(hostile_duel(tmp_path)))
    assert "<script" not in page
    # in the source block: the says string and the comment, token by token, escaped
    assert '<span class="c1"># &lt;/pre&gt;&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;' \
        in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&#34;</span>" in page
    assert '<details class="rule-source">' in page
    assert_well_formed(page)


def test_without_pygments_the_source_is_plain_escaped_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = hostile_duel(tmp_path)
    without_pygments(monkeypatch)
    assert doc_source.stylesheet() == ""
    _, page = generate_all_docs(compile_model(rules))
    assert "<script" not in page and "<span class=" not in page
    assert ".highlight .kd" not in page
    blocks = re.findall(r'<details class="rule-source"><summary>Rule source</summary>\n'
                        r'<pre class="highlight">(.*?)</pre>\n</details>', page, re.S)
    assert any(block.startswith("phase play {\n  actor first(") for block in blocks)
    assert "  # &lt;/pre&gt;&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;\n" in page
    assert_well_formed(page)


def test_source_is_the_declarations_lines_dedented(tmp_path: Path) -> None:
    model = compile_model(write_duel(tmp_path))
    action = model.phases["play"].actions[0].decl
    text = doc_source.span_text(model.sources, action.span)
    assert text.startswith('action cast(c: Card in hand[actor]) says "{actor} casts {c}" {\n')
    assert text.endswith("\n  move c to graveyard[actor]\n}")


def test_a_phases_source_leaves_its_actions_bodies_to_their_own_blocks(tmp_path: Path) -> None:
    model = compile_model(write_duel(tmp_path))
    phase = model.phases["play"]
    text = doc_source.span_text(model.sources, phase.decl.span,
                                [action.decl.body.span for action in phase.actions])
    assert text.splitlines()[1:5] == [
        "  actor first(p for p in players where not empty(hand[p]))",
        '  action cast(c: Card in hand[actor]) says "{actor} casts {c}" {',
        "    # … 4 lines, in the action's own block above",
        "  }",
    ]
    assert "move c to graveyard" not in text and text.endswith("draw game }\n  }\n}")
    _, page = generate_all_docs(model)
    assert page.count('<span class="n">graveyard</span><span class="p">[</span>'
                      '<span class="k">actor</span>') == 1  # in the action's block only


def test_language_reference_renders_with_coloured_blocks(tmp_path: Path) -> None:
    source = ROOT / "docs" / "language.md"
    assert highlight_main([str(source), "-o", str(tmp_path)]) == 0
    page = (tmp_path / "language.html").read_text(encoding="utf-8")
    fences = re.findall(r"^```rulecraft\n", source.read_text(encoding="utf-8"), re.M)
    assert len(fences) > 10
    assert page.count('<div class="highlight"><pre>') == len(fences)
    assert ".highlight .kd {" in page and '<span class="err">' not in page
    assert page == doc_source.markdown_page(source.read_text(encoding="utf-8"), "language")
    assert_well_formed(page)


def test_markdown_page_escapes_prose_and_other_fences() -> None:
    page = doc_source.markdown_page(
        f"# Title {HOSTILE}\n\nSome `code` and {HOSTILE}.\n\n- one\n  - two\n\n"
        f"| a | b |\n|---|---|\n| `x \\| y` | {HOSTILE} |\n\n"
        f"```sh\necho {HOSTILE}\n```\n\n```rulecraft\nphase p {{ }}\n```\n", "t")
    assert "<script" not in page
    assert "<h1>Title &lt;script&gt;" in page and "<code>code</code>" in page
    assert "<ul><li>one<ul><li>two</li></ul></li></ul>" in page
    assert "<td><code>x | y</code></td>" in page
    assert "<pre><code>echo &lt;script&gt;" in page
    assert '<span class="kd">phase</span>' in page
    assert_well_formed(page)
