"""The fast card-set reader against the PyYAML path: YAML edge cases (values, names, block
scalars, variants of a card set), each read by both paths (see tests/test_fastcards.py).
"""

from __future__ import annotations

import pytest
import yaml

from dsl import cardset
from dsl.simple_yaml import Unsupported, refuse_wide_bad
from tests.card_reading import BASE, HEAD, RULERS_GAMBIT, card, check, shift_indented
from tests.tiers import every_other, soak

VALUES = [
    # numbers as YAML 1.1 reads them, and the reader's own rule (decimal digits, sign)
    "0", "7", "012", "-0", "+3", "-12", "0x1F", "0o17", "0b101", "1_000", "1:30", "190:20:30",
    "1.5", "-1.5e3", ".5", ".inf", "-.inf", ".nan", "1e3", "99999999999999999999",
    "123456789012345678901234567890", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    # words
    "yes", "No", "ON", "off", "y", "n", "true", "False", "null", "Null", "NULL", "~", "none",
    "red", "Red_2", "_x", "x1", "=", "<<", "é", "naïve", "日本", "😀x", "x😀 y", "a😀#b",
    "😀 # c",
    # texts
    "two words", "a:b", "a: b", "a :b", "a #b", "a#b", "C#", "-x", "- x", "-", "--", "---",
    "...", "?x", "? x", ":x", "x:", "http://example.com/a?b=c#d", "a,b", "a, b", "[a]", "{a}",
    "a [b] {c}", "(x)", "!x", "&a", "*a", "|", ">", "%x", "@x", "`x", "x  y", "x   # c",
    # quoted
    "''", '""', "'a'", "'it''s'", "'a # b'", "'#'", '"a # b"', '"a\\"b"', '"a\\\\b"',
    '"tab\\there"', '"nl\\nhere"', '"\\x41\\u00e9\\U0001F600"', '"\\ud83d\\ude00"', '"\\/"',
    '"\\q"', '"\\0\\a\\b\\e\\f\\r\\v\\N\\_\\L\\P\\ "', "'a' b", '"a" b', "'a'  # c",
    "'unclosed", '"unclosed', "'a''", '"\\"', "\"'\"", "'\"'", "'é'", '"日本"', '"😀"', "'😀'",
    # effects whose value is not their text (escapes, doubled quotes), with and without errors
    '"draw_cards(\\x79ou, 1)"', '"draw_cards(you,\\t1 2)"', "'draw_cards(you, ''x'' 2)'",
    '"draw_cards(you, \\"x\\")"', '"if true {\\n draw_cards(you, 1)"',
    # lists
    "[]", "[ ]", "[a]", "[a, b]", "[a,b]", "[ a , b ]", "[a, b,]", "[a, [b]]", "[a, {b: c}]",
    "[1, -2, +3, 0x4]", "[yes, null, ~]", "[yes, No, null, on]", "[a, b, c, d]", "[a,  b]",
    "['a', \"b\", c]", "[a b, c]", "[a, 'b, c']",
    "[a, # c\n]", "[a, b] # c", "[a, b] x", "[1.5]", "[a:b]", "[a: b]", "[&x a]", "[*x]",
    "[!!str a]", "[a, ", "[é, 日本]",
    # tags, anchors, aliases
    "!!str a", "!!int 3", "!!python/object:os.system x", "!custom x", "&anchor a", "*alias",
    "!!binary aGk=", "!!float 1",
    # nothing
    "", " ", "  # only a comment",
]


@pytest.mark.parametrize("value", every_other(VALUES))
def test_values(value: str) -> None:
    sep = " " if value else ""
    check(HEAD + card(f"cost:{sep}{value}", "colour: red", name="A"))
    check(HEAD + card(f"colour:{sep}{value}", name="A"))
    check(HEAD + card("cost: 1", f"keywords:{sep}{value}", name="A")
          + card("cost: 2", name="B"))
    check(HEAD + card(f"effect:{sep}{value}", name="A"))


# The characters above U+00FF that a card set may not hold or that libyaml takes as line breaks
# or a byte order mark: refused by dsl.simple_yaml.refuse_wide_bad before its patterns (which
# leave them out) read anything, wherever they are.
WIDE_BAD = ["\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff"]


@pytest.mark.parametrize("character", WIDE_BAD)
def test_wide_refused_characters_anywhere_are_left_to_pyyaml(character: str) -> None:
    effect = "effect: |\n      draw_cards(you, 1)"
    for text in [
        HEAD + card("colour: red", effect, name=f"A{character}"),
        HEAD + card(f"colour: re{character}d", effect),
        HEAD + card(f"colour: 're{character}d'", effect),
        HEAD + card(f'colour: "re{character}d"', effect),
        HEAD + card("colour: red", f"keywords: [a, b{character}]", effect),
        HEAD + card("colour: red", f"effect: |\n      draw_cards(you, 1) # {character}"),
        HEAD + card("colour: red", effect) + f"# {character}\n",
        f"# {character}\n" + HEAD + card("colour: red", effect),
    ]:
        assert not check(text), text
    # and below U+0100 only, nothing is refused for them: the same card is read
    assert check(HEAD + card("colour: red", effect, name="A\u00e9"))
    assert check(HEAD + card("colour: red", effect, name="A\u2027"))


def test_lone_surrogates_are_refused_too() -> None:
    # (no file read from disk holds one, and PyYAML's reader fails on one: checked alone)
    for character in ("\ud800", "\udfff"):
        with pytest.raises(Unsupported):
            refuse_wide_bad(f"type: Card\ncards:\n  - name: A{character}\n")
    refuse_wide_bad("type: Card\ncards:\n  - name: A\u00e9\u2027\U0001F600\n")


@pytest.mark.parametrize("value", every_other(VALUES))
def test_names_and_descriptions(value: str) -> None:
    sep = " " if value else ""
    check(HEAD + f"  - name:{sep}{value}\n    cost: 1\n")
    check(HEAD + f"  - cost: 1\n    name:{sep}{value}\n    description:{sep}{value}\n")
    check(HEAD + f"  - name: A\n    description:{sep}{value}\n")


@pytest.mark.parametrize("value", every_other(VALUES))
def test_top_level_values(value: str) -> None:
    sep = " " if value else ""
    check(f"type:{sep}{value}\ncards:\n" + card("cost: 1"), {"Card": {"effect"}})
    check(f"set:{sep}{value}\ntype: Card\ncards:\n" + card("cost: 1"))
    check(f"type: Card\ncards:\n{card('cost: 1')}set:{sep}{value}\n")


NAMES = ["A", "  A  ", "A  B", "'A\tB'", '"A\\tB"', '"A\\nB"', "''", '""', "' '",
         '"' + "x" * 201 + '"', "x" * 200, "Ünïcödé", '"\\u200b"', "'a''b'", '"a\\u0000"']


@pytest.mark.parametrize("name", NAMES)
def test_card_names(name: str) -> None:
    check(HEAD + f"  - name: {name}\n    cost: 1\n")


BLOCKS = [
    "|\n      draw_cards(you, 1)\n",
    "|-\n      draw_cards(you, 1)\n",
    "|+\n      draw_cards(you, 1)\n",
    "|+\n      draw_cards(you, 1)\n\n\n",
    "|\n      draw_cards(you, 1)\n\n\n",
    "|-\n      draw_cards(you, 1)\n\n",
    "|\n\n      draw_cards(you, 1)\n",
    "|\n\n\n      draw_cards(you, 1)\n      heal(you, 2)\n",
    "|\n      draw_cards(you, 1)\n\n      heal(you, 2)\n",
    "|\n      draw_cards(you, 1)\n        heal(you, 2)\n",
    "|\n        draw_cards(you, 1)\n      heal(you, 2)\n",
    "|\n      draw_cards(you, 1)\n     heal(you, 2)\n",
    "|\n      draw_cards(you, 1)\n   \n      heal(you, 2)\n",
    "|\n      draw_cards(you, 1)\n   \n",
    "|\n      draw_cards(you, 1)\n        \n",
    "|\n      draw_cards(you, 1)\n          \n      heal(you, 2)\n",
    "|\n         \n      draw_cards(you, 1)\n",
    "|\n      \n      draw_cards(you, 1)\n",
    "|\n      draw_cards(you, 1)  \n",
    "|\n      # a comment in the text\n      draw_cards(you, 1)\n",
    "|\n      draw_cards(you, 1)\n    # a comment after\n",
    "|\n      draw_cards(you, 1)\n  # a comment after\n",
    "|\n      draw_cards(you, 1)\n# a comment after\n",
    "|  # a comment\n      draw_cards(you, 1)\n",
    "|#\n      draw_cards(you, 1)\n",
    "| x\n      draw_cards(you, 1)\n",
    "|2\n      draw_cards(you, 1)\n",
    "|2-\n      draw_cards(you, 1)\n",
    "|-2\n      draw_cards(you, 1)\n",
    "|0\n      draw_cards(you, 1)\n",
    "|--\n      draw_cards(you, 1)\n",
    "|\n    draw_cards(you, 1)\n",
    "|\n   draw_cards(you, 1)\n",
    "|\n",
    "|\n\n",
    "|-\n",
    ">\n      draw_cards(you, 1)\n",
    ">\n      draw_cards(you,\n      1)\n",
    ">\n      if true {\n        draw_cards(you, 1)\n      }\n",
    ">-\n      a\n      b\n\n      c\n",
    ">+\n      a\n\n        b\n      c\n\n",
    ">\n\n      a\n      b\n",
    ">\n      a\n\n\n      b\n",
    ">\n        a\n      b\n      c\n",
    ">\n      a\n       b\n      c\n        d\n      e\n",
    ">\n      draw_cards(you,\n      1 2)\n",
    ">\n      draw_cards(you, 1)\n\n      if true {\n        draw_cards(you, 1)\n",
    ">-\n      draw_cards(you, 1)\n\n\n      draw_cards(you,\n        nobody)\n",
    "|\n      draw_cards(you, 1)\n      if true {\n        draw_cards(you, 1)\n",
    "|\n      draw_cards(you, 1)\n\t\n",
    "|\n\tdraw_cards(you, 1)\n",
    "|\n      é ü 日本 😀\n",
    "|\n      \u3000\n      draw_cards(you, 1)\n",
    "|\n      \n",
    "|\n        \n\n",
    "|\n       \n\n      draw_cards(you, 1)\n",
    ">\n        \n      draw_cards(you, 1)\n",
    "|\n      \xa0draw_cards(you, 1)\n",
]


@pytest.mark.parametrize("block", every_other(BLOCKS))
def test_block_scalars(block: str) -> None:
    for key in ("effect", "colour", "flavour"):
        check(HEAD + f"  - name: A\n    {key}: {block}    cost: 1\n")
        check(HEAD + f"  - name: A\n    {key}: {block}  - name: B\n    cost: 2\n")
        check(HEAD + f"  - name: A\n    cost: 1\n    {key}: {block}")
        check(HEAD + f"  - name: A\n    cost: 1\n    {key}: {block}".rstrip("\n"))
        check(HEAD + f"  - name: A\n    {key}: {block}set: x\n")
        check(HEAD + f"  - {key}: {block}    name: A\n")
    check(HEAD + f"  - name: A\n    description: {block}    cost: 1\n")
    check(HEAD + f"  - name: {block}    cost: 1\n")
    check(f"type: {block}cards:\n" + card("cost: 1"), {"Card": {"effect"}})
    check(f"set: {block}type: Card\ncards:\n" + card("cost: 1"))


def variants() -> list[tuple[str, str]]:
    """(label, text): the base card set changed in one way each."""
    out = [("base", BASE)]

    def add(label: str, text: str) -> None:
        out.append((label, text))

    add("no final newline", BASE.rstrip("\n"))
    add("two final newlines", BASE + "\n")
    add("trailing comment", BASE + "# end\n")
    add("trailing comment, no newline", BASE + "# end")
    add("trailing indented comment", BASE + "    # end\n\n")
    add("trailing spaces line", BASE + "   \n")
    add("trailing spaces at the end", BASE + "   ")
    add("crlf", BASE.replace("\n", "\r\n"))
    add("cr", BASE.replace("\n", "\r"))
    add("bom", "\ufeff" + BASE)
    add("tab indent", BASE.replace("    colour: red", "\tcolour: red"))
    add("tab after value", BASE.replace("colour: red", "colour: red\t"))
    add("tab in quotes", BASE.replace("'Tidal Keep'", "'Tidal\tKeep'"))
    add("tab in comment", BASE.replace("# A card set", "# A\tcard set"))
    add("nel", BASE.replace("# A card set", "# A\x85card set"))
    add("line separator", BASE.replace("# A card set", "# A\u2028card set"))
    add("control character", BASE.replace("# A card set", "# A\x01card set"))
    add("delete character", BASE.replace("Starter", "Start\x7fer"))
    add("c1 control", BASE.replace("Starter", "Start\x9ber"))
    add("no-break space", BASE.replace("Starter", "Start\xa0er"))
    add("form feed", BASE.replace("Starter", "Start\x0cer"))
    add("document start", "---\n" + BASE)
    add("document end", BASE + "...\n")
    add("two documents", BASE + "---\ntype: Card\n")
    add("directive", "%YAML 1.1\n---\n" + BASE)
    add("indentless sequence", shift_indented(BASE, -2))
    add("deeper sequence", shift_indented(BASE, 2))
    add("wide dash", BASE.replace("\n  - ", "\n  -   ").replace("\n    ", "\n      "))
    add("dash alone", BASE.replace("  - name: Ember Throne", "  -\n    name: Ember Throne"))
    add("dash and comment", BASE.replace("  - name: Ember Throne",
                                         "  - # first\n    name: Ember Throne"))
    add("dash at the keys' column", BASE.replace("    colour: red", "    - colour: red"))
    add("dash at the keys' column after a refused effect", BASE.replace(
        "    has_ability: true", "    has_ability: true\n    on_attack: |\n      x y\n"
        "    - colour: red"))
    add("misaligned dash", BASE.replace("  - name: 'Tidal Keep'", "   - name: 'Tidal Keep'"))
    add("misaligned key", BASE.replace("    colour: red", "     colour: red"))
    add("less indented key", BASE.replace("    colour: red", "   colour: red"))
    add("key with space before colon", BASE.replace("colour: red", "colour : red"))
    add("key without space after colon", BASE.replace("colour: red", "colour:red"))
    add("quoted key", BASE.replace("colour: red", "'colour': red"))
    add("double quoted key", BASE.replace("colour: red", '"colour": red'))
    add("numeric key", BASE.replace("colour: red", "1: red"))
    add("bool key", BASE.replace("colour: red", "on: red"))
    add("null key", BASE.replace("colour: red", "null: red"))
    add("complex key", BASE.replace("colour: red", "? colour\n    : red"))
    add("merge key", BASE.replace("colour: red", "<<: red"))
    add("dashed key", BASE.replace("colour: red", "col-our: red"))
    add("duplicate key", BASE.replace("colour: red", "colour: red\n    colour: blue"))
    add("duplicate name", BASE.replace("colour: red", "name: Other"))
    add("duplicate top key", BASE + "set: again\n")
    add("unknown top key", BASE + "extra: 1\n")
    add("type after cards", BASE.replace("type: Card\n", "") + "type: Card\n")
    add("no type", BASE.replace("type: Card\n", ""))
    add("type quoted", BASE.replace("type: Card", "type: 'Card'"))
    add("type other", BASE.replace("type: Card", "type: Other"))
    add("type number", BASE.replace("type: Card", "type: 3"))
    add("type list", BASE.replace("type: Card", "type: [Card]"))
    add("cards last then key", BASE + "set2: x\n")
    add("no cards", "type: Card\nset: x\n")
    add("empty cards", "type: Card\ncards:\n")
    add("flow cards", "type: Card\ncards: []\n")
    add("cards mapping", "type: Card\ncards:\n  name: A\n")
    add("cards scalar", "type: Card\ncards: x\n")
    add("card without name", BASE.replace("  - name: 'Tidal Keep'\n", "  - cost: 1\n"))
    add("card scalar", BASE + "  - just text\n")
    add("card list", BASE + "  - [a, b]\n")
    add("card empty", BASE + "  -\n")
    add("nested mapping value", BASE.replace("colour: red", "colour:\n      a: 1"))
    add("nested list value", BASE.replace("colour: red", "colour:\n      - a\n      - b"))
    add("list value same indent", BASE.replace("colour: red", "colour:\n    - a"))
    add("multi-line plain", BASE.replace("colour: red", "colour: red\n      green"))
    add("multi-line plain after blank", BASE.replace("colour: red", "colour: red\n\n      green"))
    add("multi-line quoted", BASE.replace("'Tidal Keep'", "'Tidal\n      Keep'"))
    add("multi-line double", BASE.replace('"A seat. Of', '"A seat.\n      Of'))
    add("escaped line break", BASE.replace('"A seat. Of', '"A seat.\\\n      Of'))
    add("flow mapping value", BASE.replace("colour: red", "colour: {a: 1}"))
    add("multi-line flow list", BASE.replace("[double_attack, retain]",
                                             "[double_attack,\n      retain]"))
    add("anchor", BASE.replace("colour: red", "colour: &c red"))
    add("alias", BASE.replace("colour: blue", "colour: *c").replace("colour: red",
                                                                       "colour: &c red"))
    add("anchored card", BASE.replace("  - name: Ember Throne", "  - &card\n    name: Ember"))
    add("merge", BASE.replace("colour: blue", "<<: *c").replace("colour: red",
                                                                 "colour: &c red"))
    add("python tag", BASE.replace("colour: red", "colour: !!python/object:os.system red"))
    add("python tag on card", BASE.replace("  - name: Ember", "  - !!python/object:x\n"
                                                               "    name: Ember"))
    add("tag on document", "--- !!map\n" + BASE)
    add("comment between cards", BASE.replace("\n\n", "\n# between\n  # indented\n"))
    add("blank lines everywhere", "\n\n" + BASE.replace("\n", "\n\n"))
    add("comment right after key", BASE.replace("colour: red", "colour: red#x"))
    add("comment no space", BASE.replace("  # a comment", "#a comment"))
    add("value after block", BASE.replace("passive: |", "passive: | x"))
    add("top level indented", BASE.replace("set: Starter", " set: Starter"))
    add("cards with comment", BASE.replace("cards:\n", "cards:  # the cards\n"))
    add("comment before first card", BASE.replace("cards:\n", "cards:\n# first\n\n"))
    add("empty value", BASE.replace("colour: red", "colour:"))
    add("empty value with comment", BASE.replace("colour: red", "colour:   # none"))
    add("empty value spaces", BASE.replace("colour: red", "colour:   "))
    add("empty value last", BASE + "    flavour:\n")
    add("empty value last, no newline", BASE + "    flavour:")
    return out


VARIANTS = variants()


@pytest.mark.parametrize(("label", "text"), every_other(VARIANTS),
                         ids=[label for label, _ in VARIANTS[::2] + VARIANTS[1::2]])
def test_variants(label: str, text: str) -> None:
    check(text)


def test_base_variants_are_read_fast() -> None:
    """The shapes the fast reader is meant for are read by it, not declined."""
    fast_ones = ["base", "no final newline", "two final newlines", "trailing comment",
                 "trailing comment, no newline", "trailing indented comment",
                 "trailing spaces line", "indentless sequence", "deeper sequence", "wide dash",
                 "comment between cards", "blank lines everywhere", "cards with comment",
                 "comment before first card", "empty value", "empty value with comment",
                 "empty value last", "type quoted", "no type", "no-break space",
                 "comment right after key"]
    texts = dict(VARIANTS)
    for label in fast_ones:
        assert check(texts[label]), label


def test_edge_values_are_read_fast() -> None:
    for value in ["7", "-12", "+3", "012", "yes", "No", "null", "~", "red", "two words",
                  "'it''s'", '"a\\"b"', '"\\x41\\u00e9"', "[a, b]", "[]", "[1, -2]", "C#",
                  "a:b", "x   # c", "", "http://example.com/a?b=c#d"]:
        sep = " " if value else ""
        assert check(HEAD + card(f"colour:{sep}{value}", "cost: 1")), value
    for block in [BLOCKS[0], BLOCKS[1], BLOCKS[2], BLOCKS[3], BLOCKS[6], BLOCKS[8],
                  BLOCKS[19], BLOCKS[36], BLOCKS[37], BLOCKS[40]]:
        assert check(HEAD + f"  - name: A\n    effect: {block}    cost: 1\n"), block


@pytest.mark.parametrize("part", [0, *soak([1, 2, 3])])
def test_pure_python_loader_agrees(monkeypatch: pytest.MonkeyPatch, part: int) -> None:
    """Without libyaml, PyYAML's own loader gives the same marks for what the fast path reads
    (the fast path follows whichever loader the PyYAML path uses: they agree). A quarter of the
    texts and the real card set in the default tier, the other quarters in the soak tier."""

    class PureLoader(yaml.SafeLoader):
        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self.resolved: dict[tuple[object, str, object], str] = {}

        def resolve(self, kind: type, value: str, implicit: object) -> str:
            return str(super().resolve(kind, value, implicit))  # type: ignore[no-untyped-call]

    monkeypatch.setattr(cardset, "_Loader", PureLoader)
    for _, text in VARIANTS[part::4]:
        check(text)
    for block in BLOCKS[part::4]:
        check(HEAD + f"  - name: A\n    effect: {block}    cost: 1\n")
    for value in VALUES[part::4]:
        sep = " " if value else ""
        check(HEAD + card(f"colour:{sep}{value}", "cost: 1"))
        check(HEAD + card(f"description:{sep}{value}", "cost: 1"))
    if part == 0:
        check((RULERS_GAMBIT / "starter.cards.yaml").read_text(encoding="utf-8"))
