"""Syntax errors: Lark's UnexpectedInput turned into a diagnostic in the language's words.

What the parser expected is named by kinds of text ("a statement", "an expression") where it can
be, and read from the parser's actual stack; the commonest mistakes get a hint, from the context
of the error or from labelled bad snippets (Lark's match_examples).
"""

from __future__ import annotations

import functools
import re
from collections import deque
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from dsl.diagnostics import Diagnostics
from dsl.keyword_lexer import RESERVED_WORDS, Table, colon_follows, lark_parser, shifts
from dsl.nesting import NESTING_OPENERS, code_only, innermost_open
from dsl.source import SourceFile, Span

# Friendly names for the terminals Lark reports as expected.
_TERMINAL_WORDS = {
    "NAME": ("a name",),
    "INT": ("a number",),
    "STRING": ("a string",),
    "ANNOTATION": ("an @annotation",),
    "CMP_OP": ("a comparison",),
    "ADD_OP": ("'+'", "'-'"),
    "MUL_OP": ("'*'", "'/'", "'%'"),
    "ASSIGN_OP": ("'='", "'+='", "'-='"),
    "$END": ("the end of the file",),
}

# Labelled bad snippets, matched against the parser state of an error (Lark's match_examples).
_EXAMPLES: dict[str, list[str]] = {
    "use '==' to compare two values; '=' assigns": [
        "setup { if x = 1 { } }",
        "setup { let y = x = 1 }",
        "function f() -> bool = a = b",
    ],
    "blocks are written with braces: 'if cond { ... }', not a colon": [
        "setup { if x: }",
        "setup { for p in players: }",
    ],
    "'require' needs a message: require COND else \"why not\"": [
        "phase p { action a() { require x } }",
        'phase p { action a() { require x "msg" } }',
    ],
    "an expression cannot stand alone as a statement; assign it or call a procedure": [
        "setup { 1 }",
        "setup { x + 1 }",
        'setup { "text" }',
    ],
    "a field needs a type: 'name: int = 0'": [
        "player { reserve = 21 }",
        "state { dynasty 1 }",
    ],
}


_VISIBILITY_TERMINALS = frozenset({"PUBLIC", "SECRET", "HIDDEN", "OWNER", "PRIVATE", "TEAM"})
# Kinds of text that "expected ..." names with one phrase, instead of the terminals that can
# begin them, when the terminals of the kind's core are all expected: (phrase, core, all).
_EXPRESSION_START = frozenset({"INT", "STRING", "NAME", "TRUE", "FALSE", "NONE", "ACTOR",
                               "PLAYERS", "LPAR", "LSQB", "NOT", "IF", "MINUS"})
_KINDS = (
    ("a declaration", frozenset({"GAME", "ENUM", "CARD", "ZONE", "STATE", "PHASE", "SETUP"}),
     frozenset({"GAME", "ENUM", "RECORD", "CARD", "DATA", "BOARD", "ZONE", "STATE", "PLAYER",
                "EVENT", "TRIGGER", "FUNCTION", "PROCEDURE", "SETUP", "PHASE", "CHECKPOINT",
                "SEED", "DECISION", "CARDS", "DECKS", "KEYWORD", "DECK", "DIAGRAM",
                "ANNOTATION"})),
    ("a statement", frozenset({"LET", "MOVE", "GOTO", "WIN"}),
     _EXPRESSION_START | {"LET", "IF", "FOR", "REPEAT", "MOVE", "DRAW", "SHUFFLE", "CREATE",
                          "REVEAL", "GOTO", "WIN", "LOSE", "RAISE", "REQUIRE", "BREAK",
                          "CALL", "RETURN", "ANNOTATION"}),
    ("an expression", frozenset({"INT", "STRING", "NAME", "LPAR", "TRUE", "NONE"}),
     _EXPRESSION_START),
    ("an operator", frozenset({"ADD_OP", "MUL_OP", "AND", "OR"}),
     frozenset({"DOT", "LSQB", "LPAR", "ADD_OP", "MUL_OP", "CMP_OP", "IN", "AND", "OR",
                "__ANON_0"})),
    ("a visibility", _VISIBILITY_TERMINALS, _VISIBILITY_TERMINALS),
)


def _describe_expected(expected: set[str]) -> str:
    words: list[str] = []
    expected = set(expected)
    for phrase, core, kind in _KINDS:
        if core <= expected:
            words.append(phrase)
            expected -= kind
    for name in sorted(expected):
        if name in _TERMINAL_WORDS:
            words.extend(_TERMINAL_WORDS[name])
            continue
        try:
            pattern = lark_parser().get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            words.append(f"'{pattern.value}'")
        else:
            words.append(name.lower())
    words = sorted(set(words))
    if len(words) > 8:
        return "something else here"
    if len(words) > 1:
        return ", ".join(words[:-1]) + " or " + words[-1]
    return words[0] if words else "something else"


def _token_text(token: Token) -> str:
    if token.type == "$END":
        return "the end of the file"
    text = str(token)
    return f"'{text[:40]}'" if text else token.type.lower()


def _viable(table: Table, stack: list[Any], end: Any) -> set[str]:
    """The terminals the parser with this state stack would shift next, after the reductions
    each calls for, or accept as the end of the text."""
    return {terminal for terminal in table[stack[-1]]
            if terminal.isupper() and shifts(table, stack, terminal, end)}


def _expected(error: UnexpectedInput) -> set[str]:
    """What could have come where the parse failed: the terminals the parser, with its actual
    stack, would go on with. Lark names the whole row of the state it stopped in, and LALR
    merges states that differ only in what may follow them, so the row holds terminals that
    are valid only after other text: in a comprehension, the row after 'where COND' has the
    'ordered' and '{' of a 'for' loop, and 'ordered' may be the word that did not fit. (When its
    lexer stops, Lark names the terminals of the state's lexer instead, which leave out the
    keywords.)"""
    expected = set(getattr(error, "expected", set()) or set())
    state = getattr(error, "state", None)
    stack = getattr(state, "state_stack", None)
    conf = getattr(state, "parse_conf", None)
    if not stack or conf is None:
        return expected
    return _viable(conf.states, stack, conf.end_state)


def _last_tokens(source: SourceFile, start_rule: str, stop: Token) -> list[tuple[Token, set[str]]]:
    """The two tokens read before `stop`, each with what could have come in its place, from a
    second parse of the text up to `stop`."""
    parser = lark_parser().parse_interactive(source.text, start=start_rule)
    state = parser.parser_state
    table, end = state.parse_conf.states, state.parse_conf.end_state
    read: deque[tuple[Token, list[Any]]] = deque(maxlen=2)
    try:
        for token in parser.iter_parse():
            if token.start_pos == stop.start_pos:
                break
            read.append((token, list(state.state_stack)))
    except UnexpectedInput:
        pass  # at `stop`, when the lexer finds no terminal the parser can take there
    return [(token, _viable(table, stack, end)) for token, stack in read]


def report_syntax_error(
    error: UnexpectedInput, source: SourceFile, start_rule: str, diagnostics: Diagnostics
) -> None:
    line = max(1, getattr(error, "line", 1) or 1)
    column = max(1, getattr(error, "column", 1) or 1)
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = source.text[position] if position < len(source.text) else ""
        what = "string is never closed" if char == '"' else f"unexpected character {char!r}"
        code = "E0002" if char == '"' else "E0003"
        diagnostics.add(
            code,
            Span.point(source.name, line, column),
            what,
            hint="strings are closed on the same line" if char == '"' else None,
        )
        return
    token = getattr(error, "token", None)
    at_end = isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END")
    expected = _expected(error)
    if at_end:
        last = len(source.lines) or 1
        end_col = len(source.line(last)) + 1
        diagnostics.add(
            "E0002",
            Span.point(source.name, last, end_col),
            f"the file ended early; expected {_describe_expected(expected)}",
            notes=_open_block_notes(source),
            hint="close every '{' with '}'",
        )
        return
    assert token is not None
    misnamed = _reserved_name_before(token, expected, source)
    if misnamed is not None:
        # 'x: int = 0  and: int' ends the default at the ':' ('0 and' is an expression), but
        # the mistake is the name
        word, start = misnamed
        line = source.text.count("\n", 0, start) + 1
        column = start - (source.text.rfind("\n", 0, start) + 1) + 1
        diagnostics.add("E0001", Span(source.name, line, column, line, column + len(word)),
                        f"unexpected '{word}'; a reserved word cannot be a name",
                        hint=_reserved_hint(word))
        return
    if _after_a_field(token, expected, source, start_rule, diagnostics):
        return
    label = _hint_from_context(token, expected, source)
    if label is None and isinstance(error, UnexpectedToken):
        try:
            label = error.match_examples(
                functools.partial(lark_parser().parse, start="start"), _EXAMPLES, use_accepts=True
            )
        except Exception:  # noqa: BLE001 - a failed match only costs the friendlier wording
            label = None
    width = max(1, len(str(token)))
    span = Span(source.name, line, column, line, column + width)
    message = f"unexpected {_token_text(token)}; expected {_describe_expected(expected)}"
    unclosed = _unclosed_before(source, token.start_pos or 0, line)
    notes, close = ([unclosed[0]], unclosed[1]) if unclosed is not None else ([], None)
    diagnostics.add("E0001", span, message, notes=notes, hint=label or close)


# What a field may hold (docs/language.md, "Field declarations").
_FIELD_FORM = "NAME: TYPE [per player | per card] [= DEFAULT] [public | secret | hidden]"
_SECRET_WORDS = frozenset({"secret", "owner", "private"})  # the same on a field
_VISIBILITY_WORDS = _SECRET_WORDS | {"public", "hidden"}


def _after_a_field(token: Token, expected: set[str], source: SourceFile, start_rule: str,
                   diagnostics: Diagnostics) -> bool:
    """A word written after a complete field, on its line (`saw: Card? = none secret to
    player`): the parser read it as the name of the next field and fails at the word after it,
    for want of a ':'. The mistake is the word, which no field can hold; report it there."""
    if expected != {"COLON"}:
        return False
    read = _last_tokens(source, start_rule, token)
    if len(read) < 2:
        return False
    (previous, _), (word, could_be) = read
    if (word.type != "NAME" or previous.end_line != word.line
            or previous.type in ("LBRACE", "COMMA")  # a first field, an entry's next value
            or "RBRACE" not in could_be):  # not after a complete field: '(a b)', say
        return False
    line, column = word.line or 1, word.column or 1
    if str(previous) in _SECRET_WORDS:
        hint = (f"a field's visibility is one word, and '{previous}' shows a player's field to "
                "that player only. For a value that each player sees alone, declare the field "
                "on the player who sees it: 'seen: Card? per player = none secret' in "
                "'player { }', read as q.seen[p]")
    elif str(previous) in _VISIBILITY_WORDS:
        hint = "a field's visibility is one word"
    else:
        hint = f"here '{word}' would begin the next field, which needs ':' and a type"
    diagnostics.add("E0001", Span(source.name, line, column, line, column + len(str(word))),
                    f"unexpected '{word}' after {_token_text(previous)}: a field is written "
                    f"'{_FIELD_FORM}'", hint=hint)
    return True


def _hint_from_context(token: Token, expected: set[str], source: SourceFile) -> str | None:
    """Hints for the commonest mistakes, read from the token and what the parser expected.

    match_examples alone compares whole parser states (stack depth included), so it only
    recognises a mistake at the depth of its example; these rules work at any depth."""
    text = str(token)
    before = code_only(source.text)[: token.start_pos or 0]
    if text == "=" and ("CMP_OP" in expected or "IN" in expected):
        return "use '==' to compare two values; '=' assigns"
    if "ELSE" in expected and text != "else":
        statement = before[max(before.rfind("{"), before.rfind("}")) + 1 :]
        if re.search(r"\brequire\b", statement):
            return "'require' needs a message: require COND else \"why not\""
    if text == ":" and "LBRACE" in expected:
        return "blocks are written with braces: 'if cond { ... }', not a colon"
    if re.search(r"\bnames\s+\d+\s*:[^{}]*,\s*$", before) and token.type == "INT" \
            or text == "[" and re.search(r"\bnames\b[^{}]*:\s*$", before):
        return ("the seats of each count are listed without brackets, the counts separated "
                "by ';': names 2: North, South; 4: North, East, South, West")
    if text == ";":
        return ("statements need no separator: ';' only separates the counts of "
                "'names 2: North, South; 4: North, East, South, West'")
    if text == "where" and "DESC" in expected:
        return "'where COND' comes before 'ordered by KEY': ... where COND ordered by KEY"
    if text == "ordered" and token.type == "NAME":
        where = ("an aggregate's 'for' takes it after its 'where'"
                 if _in_aggregate(before) else "it cannot follow a value by itself")
        return ("'ordered by KEY [asc|desc]' ends the header of a for loop (for q in players "
                "ordered by q.tokens desc { ... }) or an aggregate (first(q for q in players "
                f"where not q.out ordered by q.tokens desc)); {where}")
    if text in RESERVED_WORDS and token.type != "NAME" and "NAME" in expected:
        if colon_follows(source.text, token.end_pos or 0, len(source.text)):
            return _reserved_hint(text)
        if _tail(before)[0] in _UNFINISHED:
            return f"the expression before '{text}' is unfinished ('{text}' is a reserved word)"
        return f"'{text}' is a reserved word of the language; choose another name"
    return None


def _in_aggregate(code: str) -> bool:
    """Whether the code ends inside the brackets of an aggregate: 'f(x for x in D ...'."""
    position = innermost_open(code)
    return (position is not None and code[position] == "("
            and re.search(r"\bfor\b", code[position:]) is not None)


def _reserved_hint(word: str) -> str:
    return f"'{word}' is a reserved word and cannot be a name; rename it"


def _reserved_name_before(
    token: Token, expected: set[str], source: SourceFile
) -> tuple[str, int] | None:
    """A reserved word written as a field's or a parameter's name, when the parser only fails
    at the ':' after it: the word and where it starts. No keyword is ever followed by ':'
    (a ':' where a block's '{' is expected gets the braces hint instead)."""
    if str(token) != ":" or "LBRACE" in expected:
        return None
    word, start = _tail(code_only(source.text)[: token.start_pos or 0])
    return (word, start) if word in RESERVED_WORDS else None


_WORD_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _tail(code: str) -> tuple[str, int]:
    """The last word or other character of code, trailing whitespace left out, and where it
    starts."""
    end = len(code.rstrip())
    start = end
    while start > 0 and code[start - 1] in _WORD_CHARACTERS:
        start -= 1
    start = min(start, max(end - 1, 0))
    return code[start:end], start


# The ends of an unfinished expression: what comes next must finish it.
_UNFINISHED = frozenset({*"+-*/%=<>,([", "and", "or", "not", "in", "then", "else", "if", "elif"})


def _open_brackets(code: str) -> list[tuple[str, int, int, int]]:
    """The brackets of code (strings and comments blanked) left open at its end, outermost
    first: each with its line, its column and the indentation of its line."""
    stack: list[tuple[str, int, int, int]] = []
    for number, text in enumerate(code.split("\n"), 1):
        indent = len(text) - len(text.lstrip(" \t"))
        for column, char in enumerate(text, 1):
            if char in NESTING_OPENERS:
                stack.append((char, number, column, indent))
            elif char in "})]" and stack:
                stack.pop()
    return stack


def _open_block_notes(source: SourceFile) -> list[str]:
    stack = _open_brackets(code_only(source.text))
    if not stack:
        return []
    bracket, at_line, at_column, _ = stack[-1]
    return [f"the '{bracket}' opened at {source.name}:{at_line}:{at_column} is never closed"]


def _unclosed_before(source: SourceFile, position: int, line: int) -> tuple[str, str] | None:
    """A block or bracket that an error at position suggests was left open, as a note and a
    hint: a '{' whose line is indented as deep as the error's line or deeper (by its layout
    the block had ended before it), or a '(' or '[' opened on an earlier line. A missing '}'
    is found where the parser stops, often far below the block that lacks it."""
    stack = _open_brackets(code_only(source.text[:position]))
    if not stack:
        return None
    bracket, at_line, at_column, _ = stack[-1]
    if bracket in "([" and at_line < line:
        return (f"the '{bracket}' opened at {source.name}:{at_line}:{at_column} is not closed "
                f"before this line", f"is a '{NESTING_OPENERS[bracket]}' missing?")
    here = source.line(line) if line <= len(source.lines) else ""
    indent = len(here) - len(here.lstrip(" \t"))
    # the outermost block that this line's layout says had ended
    for bracket, at_line, at_column, opened_indent in stack:
        if bracket == "{" and at_line < line and opened_indent >= indent:
            return (f"the '{{' opened at {source.name}:{at_line}:{at_column} is not closed "
                    "before this line, which is indented as if its block had ended",
                    f"is a '}}' missing, to close the block of line {at_line}?")
    return None
