"""The generated rulebook for card games: gallery, keyword glossary, deck rules, HTML output.

Fixtures are written to tmp_path: a small card game with a card set, decks, keywords and
effects, and card names that try to be markup or template code.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

from compiler.build import build
from compiler.doc_html import html_bullets, html_inline
from compiler.docgen import generate_all_docs
from compiler.driver import check_rulebook
from compiler.english import code, md, md_paragraph
from compiler.model import GameModel
from dsl.diagnostics import Diagnostics

ROOT = Path(__file__).resolve().parent.parent

RULES = """\
## A tiny duel of units and spells.
game duel {
  title "Duel"
  players 2
}
enum Colour { red, blue }
enum Kind { unit, spell }
## Damage beyond the blocker's defence reaches the player.
keyword trample "Excess damage goes through."
keyword flying "Can only be blocked by flyers."
keyword haste "Can attack the turn it is played."
card Card {
  kind: Kind
  colour: Colour
  cost: int = 0
  attack: int = 0
  defence: int = 0
  keywords: list of keyword = []
  rested: bool per card = false
  effect: effect(you: player, target: Card?) reaches hand, graveyard = {}
  require cost <= 5 else "its cost is above the 5-mana cap"
}
cards "core.cards.yaml"
decks "decks"
deck Card {
  require size(cards) == 4 else "a deck has 4 cards"
  for c in cards {
    require count(x for x in cards where x == c) <= 2 else "at most 2 copies of {c}"
  }
}
zone deck: Card ordered hidden per player
zone hand: Card owner per player
zone graveyard: Card public per player
player { score: int = 0 }
procedure gain(p: player, n: int) { p.score += n }
function evasive(c: Card) -> bool = flying in c.keywords or trample in c.keywords
setup {
  for p in players {
    for d in decklist(p) { create d into deck[p] }
    shuffle deck[p]
    draw 3 from deck[p] to hand[p]
  }
  goto play
}
phase play {
  actor first(p for p in players where not empty(hand[p]))
  action cast(c: Card in hand[actor]) says "{actor} casts {c}" {
    c.rested = true
    c.effect(actor, none)
    if evasive(c) { gain(actor, 1) }
    move c to graveyard[actor]
  }
  on done {
    if A.score > B.score { win A } elif B.score > A.score { win B } else { draw game }
  }
}
"""

CARDS = """\
type: Card
cards:
  - name: Ember Wolf
    kind: unit
    colour: red
    cost: 2
    attack: 3
    defence: 1
    keywords: [trample, haste]
    description: A wolf made of *embers* | sparks.
  - name: Sky Ray
    kind: unit
    colour: blue
    cost: 3
    attack: 2
    defence: 2
    keywords: [flying]
    effect: |
      gain(you, 1)
  - name: Fire Storm
    kind: spell
    colour: red
    cost: 4
    description: Burn it all.
    effect: |
      for u in hand[you] where u.attack < 3 {
        u.rested = true
      }
      if target != none {
        move target to graveyard[you]
      }
      gain(you, this.cost)
  - name: "<b>x</b>"
    kind: spell
    colour: blue
    effect: gain(you, 2)
  - name: "{{ 7*7 }}"
    kind: unit
    colour: blue
    description: "<script>alert(1)</script>"
"""

DECKS = {
    "red.deck.yaml": "name: Red burn\ncards:\n  Ember Wolf: 2\n  Fire Storm: 2\n",
    "blue.deck.yaml": 'cards:\n  Sky Ray: 2\n  "<b>x</b>": 1\n  "{{ 7*7 }}": 1\n',
}


def write_duel(folder: Path) -> Path:
    (folder / "duel.rules").write_text(RULES, encoding="utf-8")
    (folder / "core.cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "decks").mkdir()
    for name, text in DECKS.items():
        (folder / "decks" / name).write_text(text, encoding="utf-8")
    return folder / "duel.rules"


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    """The duel's files, for a test to change."""
    return write_duel(tmp_path)


@pytest.fixture(scope="module")
def duel_docs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The duel's Markdown and HTML, made once for the tests that only read them."""
    return generate_all_docs(compile_model(write_duel(tmp_path_factory.mktemp("duel"))))


def compile_model(rules: Path) -> GameModel:
    compilation = check_rulebook(rules)
    assert compilation.ok, [d.message for d in compilation.diagnostics.sorted()]
    assert compilation.model is not None
    return compilation.model


def section(markdown: str, title: str) -> str:
    """One `## title` section of a Markdown rulebook."""
    start = markdown.index(f"\n## {title}\n")
    end = markdown.find("\n## ", start + 1)
    return markdown[start: end if end > 0 else len(markdown)]


class Balance(HTMLParser):
    """Checks that every element is closed in order (void elements aside)."""

    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> at {self.getpos()} closes {self.stack[-1:]}")
        else:
            self.stack.pop()


def assert_well_formed(page: str) -> set[str]:
    checker = Balance()
    checker.feed(page)
    assert checker.errors == [] and checker.stack == []
    return checker.tags


# ---- the gallery
def test_gallery_has_every_card_with_its_effect_in_english(duel_docs: tuple[str, str]) -> None:
    markdown, _ = duel_docs
    gallery = section(markdown, "Card gallery")
    for name in ("Ember Wolf", "Sky Ray", "Fire Storm", "&lt;b&gt;x&lt;/b&gt;",
                 "{{ 7\\*7 }}"):
        assert name in gallery
    # grouped by the first enum field, with the fields the group's cards set
    assert "### Card: unit (3)" in gallery and "### Card: spell (2)" in gallery
    assert ("| name | colour | cost | attack | defence | keywords | defined at |"
            in gallery)
    assert ('| <a id="card-ember-wolf"></a>Ember Wolf | red | 2 | 3 | 1 | '
            "[trample](#keyword-trample), [haste](#keyword-haste) | core.cards.yaml:3 |"
            in gallery)
    # effects are written from the statements, never from the description
    fire_storm = gallery[gallery.index("**Fire Storm**"):]
    assert fire_storm.startswith("**Fire Storm** — *Burn it all.*")
    assert ("Effect (with *you*, *target*):\n\n"
            "- For each *u* in your *hand* where *u*'s attack is less than 3:\n"
            "  - Set *u*'s rested to yes.\n"
            "- If *target* is set:\n"
            "  - Move *target* to your *graveyard*.\n"
            "- Do [gain](#gain)(*you*, this card's cost).") in fire_storm
    assert "**Sky Ray**\n\nEffect (with *you*, *target*):\n\n- Do [gain](#gain)(*you*, 1)." \
        in gallery
    assert "**Ember Wolf** — *A wolf made of \\*embers\\* \\| sparks.*" in gallery
    assert "defined in `" in gallery and "core.cards.yaml`" in gallery
    # the definitions are described, not repeated as a table, under Components
    components = section(markdown, "Components")
    assert "5 cards, each listed in the [card gallery](#card-gallery)" in components
    assert "- Its cost is at most 5 (otherwise: “its cost is above the 5-mana cap”)." \
        in components
    assert "For each physical card of type Card" in components
    assert "| `rested` | bool | no | everyone |  |" in components


def test_gallery_writes_an_unset_optional_field_as_a_dash() -> None:
    """A card that leaves an optional field at none shows a dash, as for an empty text or list,
    not the English of none ("nobody/nothing"): Dojo's face-down items without a trigger caste."""
    gallery = section((ROOT / "generated" / "docs" / "dojo.md").read_text(encoding="utf-8"),
                      "Card gallery")
    assert ('| <a id="card-pitfall-trap"></a>Pitfall Trap | 2 | creature | — | '
            "starter.cards.yaml:" in gallery)
    assert "| fire | starter.cards.yaml:" in gallery
    assert "nobody/nothing" not in gallery


def test_effect_calls_and_decklist_in_english(duel_docs: tuple[str, str]) -> None:
    markdown, _ = duel_docs
    assert "- Run the effect of *c*, with the acting player as *you* and no *target*." \
        in markdown
    assert "- Set *c*'s rested to yes." in markdown
    assert "For each *d* in the deck *p* brought:" in markdown


# ---- keywords
def test_glossary_lists_reminder_text_rules_and_cards(duel_docs: tuple[str, str]) -> None:
    markdown, _ = duel_docs
    glossary = section(markdown, "Keywords")
    trample = glossary[glossary.index("### Trample"):glossary.index("### Flying")]
    assert '<a id="keyword-trample"></a>' in trample
    assert "> Excess damage goes through." in trample
    assert "Damage beyond the blocker's defence reaches the player." in trample
    line = RULES.splitlines().index(
        "function evasive(c: Card) -> bool = flying in c.keywords or trample in c.keywords") + 1
    assert f"- **Used by the rules in:** function [evasive](#evasive) (line {line})" in trample
    assert "- **Cards with it:** [Ember Wolf](#card-ember-wolf)" in trample
    haste = glossary[glossary.index("### Haste"):]
    assert "no rule names it" in haste and "[Ember Wolf](#card-ember-wolf)" in haste
    # keywords named in rules link to the glossary
    assert "[flying](#keyword-flying) is in *c*'s keywords" in markdown


def test_keyword_named_in_a_card_effect_is_a_use(tmp_path: Path, duel: Path) -> None:
    cards = CARDS.replace("effect: gain(you, 2)",
                          "effect: |\n      if haste in this.keywords { gain(you, 2) }")
    (tmp_path / "core.cards.yaml").write_text(cards, encoding="utf-8")
    markdown, _ = generate_all_docs(compile_model(duel))
    haste = section(markdown, "Keywords").split("### Haste")[1]
    assert "the effect of [&lt;b&gt;x&lt;/b&gt;](#card-b-x-b) (core.cards.yaml:" in haste
    assert "- If [haste](#keyword-haste) is in this card's keywords:" in markdown


# ---- decks
def test_deck_rules_and_shipped_decks(duel_docs: tuple[str, str]) -> None:
    markdown, _ = duel_docs
    decks = section(markdown, "Deck construction")
    assert ("- A deck must satisfy: the number of cards in the deck is 4 "
            "(otherwise: “a deck has 4 cards”).") in decks
    assert ("  - A deck must satisfy: (the number of *x* in the deck where *x* is *c*) is at "
            "most 2 (otherwise: “at most 2 copies of ‹c›”).") in decks
    assert "**Red burn** (`red`, 4 cards, from `" in decks
    assert "| [Ember Wolf](#card-ember-wolf) | 2 |\n| [Fire Storm](#card-fire-storm) | 2 |" \
        in decks
    assert "| [{{ 7\\*7 }}](#card-7-7) | 1 |" in decks
    contents = section(markdown, "Contents")
    assert contents.index("Deck construction") < contents.index("Keywords") \
        < contents.index("Card gallery")


# ---- escaping
def test_html_is_escaped_and_self_contained(duel_docs: tuple[str, str],
                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    _, page = duel_docs
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    text = re.sub(r"<svg .*?</svg>", "", page, flags=re.S)  # diagrams: numbers of their own
    # the page names its rulebook's file, whose temporary folder's number may hold a 49
    text = text.replace(str(tmp_path_factory.getbasetemp()), "")
    assert "{{ 7*7 }}" in text and "49" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page and "javascript:" not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # no external assets
    assert "A wolf made of *embers* | sparks." in page
    tags = assert_well_formed(page)
    assert {"table", "ul", "em", "strong", "a", "code", "svg", "details", "style"} <= tags
    # every section of the Markdown is in the HTML
    for anchor in ("variants", "components", "deck-construction", "keywords", "setup",
                   "the-turn-sequence", "rules-in-detail", "how-the-game-ends", "card-gallery",
                   "keyword-trample", "card-ember-wolf", "phase-play", "gain", "cast"):
        assert f'id="{anchor}"' in page
    assert ('<tr id="card-b-x-b"><td>&lt;b&gt;x&lt;/b&gt;</td><td>blue</td><td>0</td>'
            in page)
    assert ("<li>Do <a href=\"#gain\">gain</a>(<em>you</em>, this card&#39;s cost).</li>"
            in page)


def test_markdown_is_escaped(duel_docs: tuple[str, str]) -> None:
    markdown, _ = duel_docs
    assert "<b>x</b>" not in markdown and "<script>" not in markdown
    assert "{{ 7\\*7 }}" in markdown


def test_hostile_names_in_rules_text(tmp_path: Path, duel: Path) -> None:
    """Keyword reminder texts, docs and deck titles are text too, in both outputs."""
    rules = RULES.replace('"Excess damage goes through."',
                          '"<img src=x onerror=alert(1)> `|` {% raw %} *"')
    rules = rules.replace("## Damage beyond", "## # Not a heading: <i>x</i> beyond")
    (tmp_path / "duel.rules").write_text(rules, encoding="utf-8")
    (tmp_path / "decks" / "red.deck.yaml").write_text(
        DECKS["red.deck.yaml"].replace("Red burn", "'</table><h1>x'"), encoding="utf-8")
    markdown, page = generate_all_docs(compile_model(duel))
    assert "> &lt;img src=x onerror=alert(1)&gt; \\`\\|\\` {% raw %} \\*" in markdown
    assert "\\# Not a heading: &lt;i&gt;x&lt;/i&gt; beyond" in markdown
    assert "**&lt;/table&gt;&lt;h1&gt;x** (`red`" in markdown
    assert "<blockquote>&lt;img src=x onerror=alert(1)&gt; `|` {% raw %} *</blockquote>" \
        in page
    assert "<p># Not a heading: &lt;i&gt;x&lt;/i&gt; beyond" in page
    assert "<strong>&lt;/table&gt;&lt;h1&gt;x</strong>" in page
    assert "<img" not in page and "<i>" not in page
    assert_well_formed(page)


@settings(database=None)
@given(st.text())
def test_rulebook_text_round_trips_into_html(text: str) -> None:
    """Any text, made safe for Markdown by md(), reaches the HTML as exactly that text."""
    flat = re.sub(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]", " ", text)
    assert html_inline(md(text)) == escape(flat)
    assert html_inline(md_paragraph(text)) == escape(flat.strip())
    name = flat.replace("`", "")
    if name.strip():
        assert html_inline(code(name)) == f"<code>{escape(name)}</code>"


def test_markdown_fragments_to_html() -> None:
    assert html_inline("a *b* **c *d***") == "a <em>b</em> <strong>c <em>d</em></strong>"
    assert html_inline("[x \\[1\\]](#y) `a_b`") == '<a href="#y">x [1]</a> <code>a_b</code>'
    assert html_inline("an *open marker") == "an *open marker"
    assert html_bullets(["- a", "  - b", "- c"]) == \
        "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"
    assert html_bullets([]) == ""


def test_md_blocks_cannot_start_a_block() -> None:
    assert md_paragraph("# x") == "\\# x"
    assert md_paragraph("- x") == "\\- x"
    assert md_paragraph("1. x") == "1\\. x"
    assert md_paragraph("+2 and +3") == "+2 and +3"
    assert md("a\nb|c") == "a b\\|c"
    assert code("a_b") == "`a_b`" and code("a`b") == "`` a`b ``"


# ---- build and determinism
def test_build_writes_html_and_check_flags_it_stale(duel: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = build([duel], out, check_only=False, diagnostics=Diagnostics())
    assert {p.name for p in result.written} >= {"duel.md", "duel.html"}
    first = {p: p.read_bytes() for p in (out / "docs").iterdir()}
    again = build([duel], out, check_only=False, diagnostics=Diagnostics())
    assert again.written == []
    assert {p: p.read_bytes() for p in (out / "docs").iterdir()} == first
    (out / "docs" / "duel.html").write_text("stale", encoding="utf-8")
    check = build([duel], out, check_only=True, diagnostics=Diagnostics())
    assert check.stale == [out / "docs" / "duel.html"]


def test_docs_are_deterministic(duel: Path) -> None:
    first = generate_all_docs(compile_model(duel))
    second = generate_all_docs(compile_model(duel))
    assert first == second


def test_dynasties_docs_still_build() -> None:
    model = compile_model(ROOT / "rulebooks" / "dynasties" / "dynasties.rules")
    markdown, page = generate_all_docs(model)
    assert generate_all_docs(model) == (markdown, page)
    for absent in ("Card gallery", "## Keywords", "## Deck construction"):
        assert absent not in markdown
    assert "### Tile (cards)" in markdown and "| `six_played` |" in markdown
    assert_well_formed(page)
    assert '<h2 id="how-the-game-ends">' in page and "<script" not in page


def test_glossary_lists_the_documented_terms_in_order(duel: Path) -> None:
    rules = duel.read_text(encoding="utf-8").replace(
        "enum Kind { unit, spell }",
        "## What a card is.\nenum Kind {\n  ## a card that stays <b>and</b> fights\n  unit,\n"
        "  spell\n}")
    duel.write_text(rules, encoding="utf-8")
    markdown, html = generate_all_docs(compile_model(duel))
    glossary = markdown.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    terms = re.findall(r"^- \*\*(.+?)\*\*", glossary, re.MULTILINE)
    assert terms == sorted(terms, key=str.lower)
    assert "Kind" in terms and "unit" in terms and "trample" in terms
    assert len(terms) == len(set(terms)), "a keyword was listed twice: as one and as a member"
    assert "spell" not in terms and "Colour" not in terms  # no doc: nothing to explain
    unit_line = next(line for line in glossary.splitlines() if line.startswith("- **unit**"))
    assert "(a Kind, line 10)" in unit_line and "stays" in unit_line
    assert '<a href="#glossary">' in html or 'href="#glossary"' in html
    section = html.split('<h2 id="glossary">', 1)[1].split("<h2", 1)[0]
    assert "&lt;b&gt;and&lt;/b&gt;" in section and "<b>and</b>" not in section


def test_a_field_doc_of_several_lines_is_kept_whole(duel: Path) -> None:
    """Every `##` line above a field is its doc, as for any declaration (not the last alone)."""
    text = duel.read_text(encoding="utf-8")
    doc = "  ## what it costs to play,\n  ## paid from the mana pool\n"
    duel.write_text(text.replace("  cost: int = 0\n", doc + "  cost: int = 0\n"), encoding="utf-8")
    markdown, _ = generate_all_docs(compile_model(duel))
    assert "| what it costs to play, paid from the mana pool |" in markdown


def test_html_shows_emphasis_and_doc_code_spans_as_tags(duel: Path) -> None:
    """The players line's option names are emphasised, and a `##` doc's code spans are code,
    in the HTML as in the Markdown (neither shows a literal `*` or backtick)."""
    text = duel.read_text(encoding="utf-8").replace(
        "  players 2\n", '  players 2 if tint == red\n  players 2 if tint == blue\n'
        '  option tint: Colour = red "the colour of the table"\n').replace(
        "card Card {", "## A card, told apart by `kind`; a `<b>` is text.\ncard Card {")
    duel.write_text(text, encoding="utf-8")
    markdown, html = generate_all_docs(compile_model(duel))
    assert "2 if the *tint* option is *red*" in markdown
    assert "2 if the <em>tint</em> option is <em>red</em>" in html
    assert "A card, told apart by `kind`; a `<b>` is text." in markdown
    assert "A card, told apart by <code>kind</code>; a <code>&lt;b&gt;</code> is text." in html


def test_a_game_without_seed_rules_has_no_empty_sections_and_an_empty_action_says_so(
    tmp_path: Path,
) -> None:
    """A designer's own game (no `seed`, no `decision`) had a "Designer's decisions" section
    with its introduction only and an empty coverage table, both in the contents; an action
    with an empty body read "What happens:" and nothing."""
    rules = tmp_path / "quiet.rules"
    rules.write_text('game quiet {\n  title "Quiet"\n  players 2\n}\nsetup { goto turn }\n'
                     'phase turn {\n  actor A\n'
                     '  action wait() says "{actor} waits" { }\n'
                     '  action stop() says "{actor} stops" { win A }\n}\n', encoding="utf-8")
    markdown, page = generate_all_docs(compile_model(rules))
    for text in (markdown, page):
        assert "Designer's decisions" not in text and "Coverage of the seed rules" not in text
        assert text.count("What happens: nothing; play goes on.") == 1
    assert_well_formed(page)


def test_a_size_counts_cards_only_of_a_zone_or_a_list_of_cards(duel: Path) -> None:
    # size of a list of players read "the number of cards in the players after p"
    text = duel.read_text(encoding="utf-8")
    duel.write_text(text + "\nfunction crowd(p: player) -> int = size(after(p)) + size(hand[p])"
                    " + size(list(c for c in hand[p] where c.cost > 1))\n", encoding="utf-8")
    markdown, _ = generate_all_docs(compile_model(duel))
    assert ("It is the number of players still in after *p*, in turn order plus the number of "
            "cards in *hand* of *p* plus the number of cards in the list of *c* for each *c* in "
            "*hand* of *p*") in markdown
