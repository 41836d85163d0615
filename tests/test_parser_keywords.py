"""Parser tests: keywords and names (docs/language.md, "Keywords and names"): a reserved word
is never a name, any other word of the grammar is one wherever a name can go."""

from __future__ import annotations

import re

from dsl import nodes as n
from dsl.keyword_lexer import RESERVED_WORDS, lark_parser
from tests.parsing import HEADER, expression, grammar_words, only_error, parse_ok, shape, statements

# Fields a field can follow: its type, default, 'per' and visibility all end differently.
FIELDS_BEFORE = ("x: int", "x: int = 0", "x: int = 0 hidden", "x: int per player",
                 "x: list of int = [1, 2]", "x: effect() reaches hand", "x: bool = a and b")


def block_with(word: str, before: str, separator: str) -> str:
    return f"state {{\n  {before}{separator}{word}: int = 0 owner\n  y: int\n}}\n"


def field_names(module: n.Module) -> list[tuple[str, str]]:
    decl = module.declarations[0]
    assert isinstance(decl, n.StateDecl)
    return [(f.name, f.visibility) for f in decl.fields]


def test_every_reserved_word_is_a_keyword_of_the_grammar() -> None:
    assert grammar_words() >= RESERVED_WORDS


def test_no_keyword_is_ever_followed_by_a_colon() -> None:
    """The lexer reads a word that could be a keyword or a name as a name when ':' follows it;
    that is only right while no keyword of the grammar can be followed by ':'."""
    states = lark_parser().parse_interactive("", start="start").parser_state.parse_conf.states
    terminals = {t.name: t.pattern.value for t in lark_parser().terminals}
    followed = {terminals[symbol] for row in states.values()
                for symbol, (action, target) in row.items()
                if symbol in terminals and symbol != "NAME"
                and re.fullmatch(r"[A-Za-z_]\w*", terminals[symbol])
                and action.name == "Shift" and "COLON" in states[target]}
    assert not followed
    assert terminals["COLON"] == ":"


def test_a_field_name_means_the_same_in_every_position() -> None:
    """Any word of the grammar that is not reserved names a field, whatever comes before it,
    on the next line or the same one."""
    for word in sorted(grammar_words() - RESERVED_WORDS):
        first = parse_ok(block_with(word, "", ""))
        assert field_names(first) == [(word, "owner"), ("y", "public")]
        for before in FIELDS_BEFORE:
            for separator in ("\n  ", "  "):
                module = parse_ok(block_with(word, before, separator))
                assert field_names(module)[1:] == [(word, "owner"), ("y", "public")], (
                    word, before)


def test_a_reserved_word_is_never_a_name() -> None:
    for word in sorted(RESERVED_WORDS):
        for before in ("", *FIELDS_BEFORE):
            error = only_error(block_with(word, before, "\n  "))
            assert error.code == "E0001"
            span = (error.span.line, error.span.column, error.span.end_column)
            assert span == (3, 3, 3 + len(word)), (word, before)
            assert f"'{word}'" in error.message
            assert error.hint == f"'{word}' is a reserved word and cannot be a name; rename it"


def test_a_visibility_is_one_on_the_next_line_too() -> None:
    """Newlines mean nothing: only a ':' after it makes a visibility word a field name."""
    module = parse_ok("state {\n  x: int = 0\n    hidden\n  y: int\n}\n")
    assert field_names(module) == [("x", "hidden"), ("y", "public")]
    module = parse_ok("state { x: int = 0 secret owner: int owner }")
    assert field_names(module) == [("x", "secret"), ("owner", "owner")]


def test_contextual_words_are_names_in_expressions() -> None:
    assert shape(expression("top + names * title")) == ("+", "top", ("*", "names", "title"))
    (assign,) = statements("names = [to, from]")
    assert isinstance(assign, n.Assign)
    (move,) = statements("move c to top of to")
    assert isinstance(move, n.Move) and move.end == "top"


def test_an_unfinished_expression_stops_at_the_next_statement() -> None:
    error = only_error(HEADER + "setup {\n  x = x *\n  goto p\n}\n")
    assert (error.code, error.span.line, error.span.column) == ("E0001", 12, 3)
    assert error.hint is not None and "expression before 'goto' is unfinished" in error.hint
