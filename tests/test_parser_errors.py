"""Parser tests: what a syntax error says (where, the message, what was expected, the hint)."""

from __future__ import annotations

import re

import pytest

from dsl.keyword_lexer import RESERVED_WORDS
from tests.parsing import HEADER, grammar_words, only_error, parse_text


# ---- syntax errors -------------------------------------------------------------------------------
def test_equals_in_a_condition_hint_in_a_snippet() -> None:
    error = only_error("setup { if x = 1 { } }")
    assert error.code == "E0001"
    assert (error.span.line, error.span.column) == (1, 14)
    assert error.hint is not None and "use '=='" in error.hint


def test_require_without_else_hint_in_a_snippet() -> None:
    error = only_error("phase p { action a() { require x } }")
    assert error.code == "E0001"
    assert error.hint is not None and "'require' needs a message" in error.hint


def test_colon_instead_of_braces_hint() -> None:
    error = only_error("setup { if x: }")
    assert error.hint is not None and "braces" in error.hint


EQUALS_IN_RULEBOOK = HEADER + "setup {\n  if x = 1 { goto p }\n}\n"
REQUIRE_IN_RULEBOOK = (
    HEADER + "phase p {\n  actor A\n  action a(n: int in 1..3) says \"{actor} picks {n}\" {\n"
    "    require n > x\n    goto p\n  }\n}\n"
)


def test_equals_in_a_condition_location_in_a_rulebook() -> None:
    error = only_error(EQUALS_IN_RULEBOOK)
    assert error.code == "E0001"
    assert (error.span.line, error.span.column) == (11, 8)
    assert "'='" in error.message


def test_equals_in_a_condition_hint_in_a_rulebook() -> None:
    error = only_error(EQUALS_IN_RULEBOOK)
    assert error.hint is not None and "use '=='" in error.hint


def test_require_without_else_hint_in_a_rulebook() -> None:
    error = only_error(REQUIRE_IN_RULEBOOK)
    assert error.code == "E0001"
    assert (error.span.line, error.span.column) == (14, 5)  # at the token after the condition
    assert error.hint is not None and "'require' needs a message" in error.hint


def test_names_for_each_count_in_brackets_hint() -> None:
    """Seat names for each count are written without brackets: the hint shows how."""
    error = only_error('game g {\n  title "G"\n  players 2, 4\n'
                       '  names 2: [N, S], 4: [N, E, S, W]\n}\n')
    assert error.code == "E0001" and (error.span.line, error.span.column) == (4, 12)
    assert error.hint is not None and "names 2: North, South; 4: North" in error.hint


def test_names_for_each_count_separated_by_commas_hint() -> None:
    error = only_error('game g {\n  title "G"\n  players 2, 4\n'
                       '  names 2: N, S, 4: N, E, S, W\n}\n')
    assert error.code == "E0001" and (error.span.line, error.span.column) == (4, 18)
    assert error.hint is not None and "separated by ';'" in error.hint


def test_field_without_type_hint() -> None:
    error = only_error("player { reserve = 21 }")
    assert error.hint is not None and "a field needs a type" in error.hint


def test_unclosed_block_points_at_the_end_and_the_opening() -> None:
    error = only_error(HEADER + "setup {\n  goto p\n")
    assert error.code == "E0002"
    assert error.span.line == 11
    assert any("10:7" in note and "never closed" in note for note in error.notes)


def test_a_block_left_open_above_the_error_is_named() -> None:
    """A missing '}' is found where the parser stops, often a declaration below: the note
    names the block whose layout says it had ended (docs/language.md, section 8)."""
    error = only_error(HEADER + "setup {\n  x = 1\n\nphase p {\n  actor A\n}\n")
    assert (error.code, error.span.line, error.span.column) == ("E0001", 13, 9)
    assert error.notes == ("the '{' opened at snippet.rules:10:7 is not closed before this "
                           "line, which is indented as if its block had ended",)
    assert error.hint == "is a '}' missing, to close the block of line 10?"
    action = ("phase p {\n  actor A\n  action a() {\n    x = 1\n"
              "  on done { goto p }\n}\n")
    error = only_error(HEADER + action)
    assert error.span.line == 14
    assert error.notes and "opened at snippet.rules:12:14 is not closed" in error.notes[0]


def test_a_bracket_left_open_on_an_earlier_line_is_named() -> None:
    error = only_error(HEADER + "setup {\n  x = min(1,\n    2\n}\n")
    assert error.span.line == 13
    assert error.notes == ("the '(' opened at snippet.rules:11:10 is not closed before this "
                           "line",)
    assert error.hint == "is a ')' missing?"


def test_an_error_inside_a_block_that_is_laid_out_right_has_no_note() -> None:
    error = only_error(HEADER + "setup {\n  x = = 1\n}\n")
    assert error.notes == ()


def test_unclosed_string_and_bad_character() -> None:
    error = only_error('game g {\n  title "G\n}\n')
    assert (error.code, error.span.line, error.span.column) == ("E0002", 2, 9)
    error = only_error("setup {\n  x = 1 # x = 2\n  x = @\n}\n")
    assert (error.code, error.span.line, error.span.column) == ("E0003", 3, 7)


def test_semicolon_between_statements_hint() -> None:
    error = only_error("setup {\n  x = 1 ; x = 2\n}\n")
    assert (error.code, error.span.line, error.span.column) == ("E0001", 2, 9)
    assert error.hint is not None and "statements need no separator" in error.hint


def test_empty_sources() -> None:
    for text in ("", "   \n\t\n"):
        error = only_error(text)
        assert (error.code, error.span.line, error.span.column) == ("E0007", 1, 1)


# ---- what a syntax error says is expected ------------------------------------------------------
AGGREGATE = "first(p for p in players where p.x > 0)"


def test_ordered_by_where_no_order_is_taken() -> None:
    """`ordered by` ends a for loop's header or an aggregate's; after a value by itself, or
    before an aggregate's `where`, the hint says where it goes."""
    error = only_error("setup {\n  let n = size(players ordered by q.y)\n}")
    assert error.code == "E0001"
    assert (error.span.line, error.span.column, error.span.end_column) == (2, 24, 31)
    assert error.hint is not None and "ends the header of a for loop" in error.hint
    assert "cannot follow a value by itself" in error.hint
    error = only_error("phase p {\n  actor first(q for q in players ordered by q.y where q.x)\n}")
    assert error.hint is not None and "'where COND' comes before 'ordered by KEY'" in error.hint


def test_ordered_by_in_an_aggregate_parses() -> None:
    module, diagnostics = parse_text(
        "phase p {\n  actor first(q for q in players where q.x ordered by q.y desc)\n}")
    assert module is not None and not diagnostics


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_the_expected_words_never_include_the_unexpected_one() -> None:
    """LALR merges states that differ only in what may follow them, so the row of the state a
    parse fails in can list words that only other text may be followed by; what is expected
    is what the parser, with its actual stack, could go on with. Every word of the grammar
    that is not reserved, after every token of an aggregate."""
    ends = [m.end() for m in re.finditer(r"\w+|[^\s\w]", AGGREGATE)]
    for word in sorted(grammar_words() - RESERVED_WORDS):
        for end in ends:
            text = f"phase play {{\n  actor {AGGREGATE[:end]} {word} {AGGREGATE[end:]}\n}}\n"
            _module, diagnostics = parse_text(text)
            for d in diagnostics:
                found = re.fullmatch(r"unexpected '([^']*)'; expected (.*)", d.message)
                if found:
                    assert f"'{found.group(1)}'" not in found.group(2), (text, d.message)


def test_a_word_after_a_field_is_reported_at_the_word() -> None:
    error = only_error("player {\n  saw: int per player = 0 secret to player\n  n: int\n}\n")
    assert (error.span.line, error.span.column, error.span.end_column) == (2, 34, 36)
    assert error.message == (
        "unexpected 'to' after 'secret': a field is written "
        "'NAME: TYPE [per player | per card] [= DEFAULT] [public | secret | hidden]'")
    assert error.hint is not None and "declare the field on the player who sees it" in error.hint
    error = only_error("state {\n  x: int = 0 hidden to all\n}\n")
    assert error.message.startswith("unexpected 'to' after 'hidden': a field is written")
    assert error.hint == "a field's visibility is one word"
    error = only_error("state {\n  x: int = 0 y z: int\n}\n")
    assert (error.span.line, error.span.column) == (2, 14)
    assert error.message.startswith("unexpected 'y' after '0': a field is written")
    assert error.hint == "here 'y' would begin the next field, which needs ':' and a type"


def test_a_name_without_a_colon_elsewhere_keeps_its_message() -> None:
    """Only a word on the line of a complete field is taken for trailing words."""
    error = only_error("state {\n  x: int = 0\n  y int\n}\n")
    assert (error.span.line, error.span.column, error.message) == (
        3, 5, "unexpected 'int'; expected ':'")
    error = only_error("phase p { action a(x y) { } }")
    assert error.message == "unexpected 'y'; expected ':'"
    error = only_error("player { reserve = 21 }")
    assert error.message == "unexpected '='; expected ':'"
    error = only_error("data Chip { one { value: 1, rare true } }")
    assert error.message == "unexpected 'true'; expected ':'"


def test_the_expected_words_name_kinds_of_text() -> None:
    """Every terminal that could come is expected, keywords too (Lark leaves out the keywords
    when its lexer stops); the terminals that begin a declaration, a statement or an
    expression, or continue one, are named by that kind."""
    assert only_error("setup { x = }").message == "unexpected '}'; expected an expression"
    error = only_error(HEADER + "setup {\n  goto p\n")
    assert error.message == "the file ended early; expected '}' or a statement"
    assert only_error("state { x: int ( }").message == (
        "unexpected '('; expected '=', '?', 'per', '}', a name or a visibility")
    assert only_error("phase p { @S1 , action a() { } }").message == (
        "unexpected ','; expected 'action' or an @annotation")
    assert only_error("setup { if x = 1 { } }").message == (
        "unexpected '='; expected '{' or an operator")
    assert only_error("@S1 , game g { }").message == "unexpected ','; expected a declaration"
