"""The shortcuts that write the docs of big card sets give what the general ways give.

- The card gallery is written by compiler.doc_gallery.GalleryGroup in Python, a row at a time; it
  writes what the gallery part of the templates wrote from a context of dicts (kept here as the
  reference), for hostile card names and for the Ruler's Gambit card set.
- html_inline's shortcut for fragments with only links and single stars, escape_html, and md's
  shortcut for plain text agree with the general ways on random text.
- compiler.ast_walk.walk_rules (used for the seed coverage and `creates_in_play`) sees the nodes
  that a generic walk of every node sees, but the literals.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup, escape

from compiler import doc_gallery, doc_html, doc_render, docgen, english, pygen
from compiler import types as t
from compiler.ast_walk import names_in_order, walk_rules, walks_kept
from compiler.doc_gallery import GalleryGroup
from compiler.doc_html import _parse_inline, escape_html, html_bullets, inline_html
from compiler.docgen import DocBuilder
from compiler.driver import check_rulebook
from compiler.english import md, sentence, words
from compiler.model import GameModel
from dsl import nodes as n
from dsl.user_cache import CACHE_ENV
from tests.test_fast_paths import generic_every_node
from tests.tiers import seeds

ROOT = Path(__file__).resolve().parent.parent

RULES = """\
game hostile {
  title "Hostile"
  players 2
}
enum Kind { unit, spell }
keyword trample "Excess damage goes through."
keyword fly_high "Flies."
card Card {
  kind: Kind
  cost: int = 0
  note: text = ""
  ready: bool = false
  keywords: list of keyword = []
  effect: effect(you: player, target: Card?) = {}
  other: effect(you: player) = { gain(you, 1) }
}
cards "hostile.cards.yaml"
zone deck: Card ordered hidden per player
zone hand: Card owner per player
player { score: int = 0 }
procedure gain(p: player, n: int) { p.score += n }
setup { goto play }
phase play {
  actor first(p for p in players where not empty(deck[p]))
  action take(c: Card in deck[actor]) {
    c.effect(actor, none)
    c.other(actor)
    move c to hand[actor]
  }
  on done { draw game }
}
"""

NAMES = ["<b>x</b>", "{{ 7*7 }}", "[link](#x)", "a_b *c*", "—dash— “quoted”", "back\\slash",
         "&amp; entity", "`code`", "**strong**", "a | b", "# heading", "1. list", "Ember Wolf",
         "  spaced  ", "Ünïcödé ‹x›", "* star", "x]](y)", "[", "&#60;"]


def hostile_cards() -> str:
    lines = ["type: Card", "cards:"]
    for i, name in enumerate(NAMES):
        quoted = name.replace("\\", "\\\\").replace('"', '\\"')
        lines += [f'  - name: "{quoted}"', f"    kind: {'unit' if i % 2 else 'spell'}",
                  f"    cost: {i % 4}"]
        if i % 3 == 0:
            lines.append(f"    keywords: [{', '.join(['trample', 'fly_high'][: i % 3 + 1])}]")
        if i % 3 == 1:
            lines.append(f'    note: "{quoted} *note*"')
        if i % 4 == 1:
            lines.append("    ready: true")
        if i % 2 == 0:
            lines += ["    effect: |", f"      gain(you, {i})"]
        if i % 5 == 0:
            lines.append(f'    description: "{quoted} — flavour"')
    return "\n".join(lines) + "\n"


def compile_model(rules: Path) -> GameModel:
    compilation = check_rulebook(rules)
    assert compilation.ok, [d.message for d in compilation.diagnostics.sorted()]
    assert compilation.model is not None
    return compilation.model


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    (tmp_path / "hostile.rules").write_text(RULES, encoding="utf-8")
    (tmp_path / "hostile.cards.yaml").write_text(hostile_cards(), encoding="utf-8")
    return tmp_path / "hostile.rules"


# ---- the reference: the gallery as the templates wrote it from a context of dicts
MARKDOWN = """\
{% for row in group.rows %}
| <a id="{{ row.anchor }}"></a>{{ row.name }} | {{ row.cells | join(" | ") }}\
{% if row.cells %} | {% endif %}{{ row.source }} |
{% endfor %}
{% for c in group.texts %}

**{{ c.name }}**{% if c.flavour %} — *{{ c.flavour }}*{% endif %}

{% for e in c.effects %}

{{ e.name }}{% if e.params %} (with {{ e.params }}){% endif %}:

{{ e.lines | join("\\n") }}
{% endfor %}
{% endfor %}
"""

HTML_ROWS = """\
{% for row in group.rows %}
<tr id="{{ row.anchor }}"><td>{{ row.name | inline }}</td>{{ row.cells | cells }}\
<td>{{ row.source | inline }}</td></tr>
{% endfor %}
"""

HTML_TEXTS = """\
{% for c in group.texts %}
<div class="card">
<p><strong>{{ c.name | inline }}</strong>{% if c.flavour %} — \
<em>{{ c.flavour | inline }}</em>{% endif %}</p>
{% for e in c.effects %}
<p>{{ e.name | inline }}{% if e.params %} (with {{ e.params | inline }}){% endif %}:</p>
{{ e.lines | effect_bullets }}
{% endfor %}
</div>
{% endfor %}
"""


def reference_context(builder: DocBuilder, group: GalleryGroup) -> dict[str, Any]:
    """The group's rows and texts as DocBuilder.gallery built them, as dicts."""
    record = group.record
    data = record.data_fields()
    rows, texts = [], []
    for entry in group.cards:
        card_anchor = builder.card_anchors[(record.name, entry.name)]
        cells = []
        for column in group.fields:
            value = entry.values.get(column, data[column].default)
            cells.append(builder.value(value) if value is not None else "—")
        rows.append({"name": md(entry.name), "anchor": card_anchor, "cells": cells,
                     "source": builder.where(entry.span.file, [entry.span.line])})
        effects = []
        for name, effect in builder.effects(record, entry):
            info = data[name]
            assert isinstance(info.type, t.EffectT)
            params = ", ".join(f"*{md(p)}*" for p, _ in info.type.params)
            effects.append({"name": sentence(md(words(name))), "params": params,
                            "lines": builder.effect_lines(effect)})
        if effects or entry.description.strip():
            texts.append({"name": md(entry.name.strip()), "anchor": card_anchor,
                          "flavour": md(entry.description.strip()), "effects": effects})
    return {"group": {"rows": rows, "texts": texts}}


def reference_render(source: str, context: dict[str, Any], html: bool) -> str:
    env = doc_render.environment(html_output=html)
    env.filters["inline"] = lambda text: Markup(_parse_inline(str(text)))
    env.filters["cells"] = lambda texts: Markup(
        "".join(f"<td>{_parse_inline(text)}</td>" for text in texts))
    env.filters["effect_bullets"] = doc_html.html_bullets
    template: jinja2.Template = env.from_string(source)
    return template.render(context)


def gallery_groups(model: GameModel) -> tuple[DocBuilder, list[GalleryGroup]]:
    builder = DocBuilder(model)
    groups = [group for record in builder.gallery_types
              for group in builder.gallery(record)["groups"]]
    assert groups
    return builder, groups


def assert_gallery_as_the_templates_wrote_it(model: GameModel,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    builder, groups = gallery_groups(model)
    written = [("".join(g.markdown()), "".join(g.html_rows()), "".join(g.html_texts()))
               for g in groups]
    # the reference parses every fragment, without the shortcut under test
    monkeypatch.setattr(doc_html, "inline_html", _parse_inline)
    monkeypatch.setattr(doc_gallery, "inline_html", _parse_inline)
    for group, (markdown, rows, texts) in zip(groups, written, strict=True):
        context = reference_context(builder, group)
        assert markdown == reference_render(MARKDOWN, context, html=False)
        assert rows == reference_render(HTML_ROWS, context, html=True)
        assert texts == reference_render(HTML_TEXTS, context, html=True)


def test_hostile_gallery_is_written_as_the_templates_wrote_it(
    hostile: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = compile_model(hostile)
    _, groups = gallery_groups(model)
    page = "".join("".join(g.html_rows()) + "".join(g.html_texts()) for g in groups)
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x" not in page
    assert "[link](#x)" in page and '<a href="#x">' not in page
    assert_gallery_as_the_templates_wrote_it(model, monkeypatch)


def test_rulers_gambit_gallery_is_written_as_the_templates_wrote_it(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    model = compile_model(ROOT / "rulebooks" / "rulers_gambit" / "rulers_gambit.rules")
    assert_gallery_as_the_templates_wrote_it(model, monkeypatch)


def test_docs_alone_are_the_docs_of_both(hostile: Path) -> None:
    model = compile_model(hostile)
    markdown, page = docgen.generate_all_docs(model)
    assert docgen.generate_docs(model) == markdown
    assert docgen.generate_html(model) == page


# ---- fragments to HTML, and text to Markdown
PIECES = ["[", "]", "(", ")", "*", "**", "`", "\\", "&amp;", "&", "&#60;", "#", "a", "b c",
          " ", "<", ">", "'", '"', "—", "](#a)", "[k](#keyword-k)", "[x](", ")(", "_", "|",
          "\n", "&lt;", "é", "😀", "[a b](#c d)"]


@pytest.mark.parametrize("seed", seeds(1, 3))
def test_fragments_take_the_shortcut_or_are_parsed_alike(seed: int) -> None:
    rng = random.Random(seed)
    shortcuts = 0
    for _ in range(20000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        assert inline_html(text) == _parse_inline(text), text
        shortcuts += doc_html._LINKS_AND_STARS.fullmatch(text) is not None
    assert shortcuts > 1000  # the shortcut was tried


@pytest.mark.parametrize("seed", seeds(1, 3))
def test_bullets_with_their_items_kept_are_the_bullets(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """html_bullets with a dict of the items met (the card gallery's) writes what it writes
    without one, when items repeat, and once the dict is full (KNOWN_ITEMS); and the shortcut
    for a text with no marker nor anything to escape is taken."""
    rng = random.Random(seed)
    monkeypatch.setattr(doc_html, "KNOWN_ITEMS", 50)
    known: dict[str, str] = {}
    items = ["".join(rng.choice(PIECES[:-3]) for _ in range(rng.randint(0, 6))).replace("\n", " ")
             for _ in range(80)]
    for _ in range(300):
        lines = [f"{'  ' * rng.randint(0, 2)}- {rng.choice(items)}"
                 for _ in range(rng.randint(1, 6))]
        lines[0] = lines[0].lstrip()
        assert html_bullets(lines, known) == html_bullets(lines)
    assert len(known) == 50
    plain = [text for text in items if doc_html._PLAIN.fullmatch(text)]
    assert plain and all(inline_html(text) == _parse_inline(text) == text for text in plain)


@settings(database=None)
@given(st.text())
def test_escape_html_is_markupsafe_escape(text: str) -> None:
    assert escape_html(text) == str(escape(text))
    assert inline_html(text) == _parse_inline(text)


@settings(database=None)
@given(st.lists(st.sampled_from([*PIECES, "x", "y", "\r", "~", "\u2028"])).map("".join))
def test_markdown_of_text_takes_the_shortcut_or_is_escaped_alike(text: str) -> None:
    assert md(text) == english._md_escape(text)
    assert inline_html(md(text)) == _parse_inline(md(text))


# ---- walking the rules
RULEBOOKS = sorted((ROOT / "rulebooks").glob("*/*.rules"))


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda path: path.stem)
def test_walk_rules_sees_what_a_generic_walk_sees_but_literals(rules: Path) -> None:
    model = compile_model(rules)
    skipped = (n.IntLit, n.StrLit, n.BoolLit, n.NoneLit, n.Name, n.DataWord, n.FieldValue,
               n.EffectLit)  # an EffectLit of a shared text: which one is seen may differ
    walked = list(walk_rules(model.modules))
    expected = {id(node) for node in generic_every_node(model) if not isinstance(node, skipped)}
    assert {id(node) for node in walked if not isinstance(node, skipped)} == expected
    assert sum(isinstance(node, n.EffectLit) for node in walked) == sum(
        isinstance(node, n.EffectLit) for node in generic_every_node(model))
    # `creates_in_play` as it was: any create outside setup, every node walked
    creates = any(isinstance(node, n.Create) for module in model.modules
                  for decl in module.declarations if not isinstance(decl, n.SetupDecl)
                  for node in n.walk(decl))
    assert pygen.PythonGenerator(model).creates_in_play() == creates


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda path: path.stem)
def test_kept_walks_are_the_walks_made_again(rules: Path) -> None:
    """Within walks_kept, walk_rules of a list of modules walked before gives that walk's
    nodes again, and a list changed since is walked again; names_in_order is n.walk's names."""
    model = compile_model(rules)
    fresh = [id(node) for node in walk_rules(model.modules)]
    roots = list(model.modules)
    fewer = [id(node) for node in walk_rules(roots[:-1])]
    with walks_kept():
        assert [id(node) for node in walk_rules(roots)] == fresh
        assert [id(node) for node in walk_rules(roots)] == fresh
        roots.pop()
        assert [id(node) for node in walk_rules(roots)] == fewer
    for module in model.modules:
        assert [id(node) for node in names_in_order(module)] == [
            id(x) for x in n.walk(module) if isinstance(x, n.Name)]


def exits_reference(builder: DocBuilder, statements: tuple[n.Stmt, ...], conds: list[n.Expr],
                    found: list[tuple[n.Stmt, list[n.Expr]]]) -> None:
    """DocBuilder.walk as it was: each procedure called walked again at every call."""
    for stmt in statements:
        if isinstance(stmt, (n.Goto, n.Win, n.Lose, n.DrawGame)):
            found.append((stmt, conds))
        elif isinstance(stmt, n.CallStmt) and isinstance(stmt.call, n.Call):
            info = builder.model.procedures.get(stmt.call.func)
            if info is not None and isinstance(info.decl, n.ProcedureDecl):
                exits_reference(builder, info.decl.body.statements, conds, found)
        elif isinstance(stmt, n.If):
            negated: list[n.Expr] = []
            for cond, body in stmt.branches:
                exits_reference(builder, body.statements, [*conds, *negated, cond], found)
                negated.append(n.Not(cond, span=cond.span))
            if stmt.otherwise is not None:
                exits_reference(builder, stmt.otherwise.statements, [*conds, *negated], found)
        elif isinstance(stmt, (n.For, n.Repeat)):
            exits_reference(builder, stmt.body.statements, conds, found)


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda path: path.stem)
def test_exits_through_procedures_are_the_walks_of_their_bodies(rules: Path) -> None:
    """The ways out of every phase's blocks and procedure, each procedure's worked out once,
    are those of walking each procedure's body at each call, in the same order and words."""
    model = compile_model(rules)
    builder = DocBuilder(model)
    blocks: list[n.Block | None] = [model.setup.body if model.setup else None]
    for phase in model.phases.values():
        decl = phase.decl
        blocks += [decl.enter, decl.done, *decl.checkpoints,
                   *(a.decl.body for a in phase.actions)]
    blocks += [info.decl.body for info in model.procedures.values()
               if isinstance(info.decl, n.ProcedureDecl)]
    compared = 0
    for block in blocks:
        if block is None:
            continue
        expected: list[tuple[n.Stmt, list[n.Expr]]] = []
        exits_reference(builder, block.statements, [], expected)
        found = builder.exits([block])
        assert [(id(s), [builder.english.expr(c) for c in conds], builder.label(conds))
                for s, conds in found] == [
            (id(s), [builder.english.expr(c) for c in conds], builder.label(conds))
            for s, conds in expected]
        compared += len(found)
    assert compared > 0


def test_kept_templates_are_read_only_when_private_and_render_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled templates kept in the cache folder (doc_render.KeptTemplates) spare their
    compilation in the next run, are never read from a file another user may write, and
    render what a freshly compiled template renders."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    doc_render.kept_templates.cache_clear()
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: Any, name: str | None = None,
                 *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    model = compile_model(ROOT / "rulebooks" / "dynasties" / "dynasties.rules")
    try:
        fresh = doc_render.render_html(DocBuilder(model).context())
        assert compiled == ["rulebook.html.j2"]
        (kept,) = (tmp_path / "templates").iterdir()
        assert doc_render.render_html(DocBuilder(model).context()) == fresh
        assert compiled == ["rulebook.html.j2"]  # read, not compiled again
        kept.chmod(0o664)  # another user of the group may have written it
        assert doc_render.render_html(DocBuilder(model).context()) == fresh
        assert compiled == ["rulebook.html.j2"] * 2
    finally:
        doc_render.kept_templates.cache_clear()
    monkeypatch.setenv(CACHE_ENV, "")
    assert doc_render.kept_templates() is None
    doc_render.kept_templates.cache_clear()
