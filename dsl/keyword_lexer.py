"""The Lark parser of the grammar (grammar/rulecraft.lark), with the language's rule for words.

The reserved words are never names; the grammar's other words are keywords only where the parser,
with its actual stack, can take them (docs/language.md, "Keywords and names"). The walk of the
parse table that decides it also serves dsl.syntax_errors, to say what could have come instead.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lark import Lark, Token
from lark.common import LexerConf
from lark.lexer import ContextualLexer, Lexer, LexerState
from lark.parsers.lalr_analysis import Shift

from dsl.lexical import GRAMMAR_RESOURCE as GRAMMAR_RESOURCE  # (in dsl.lexical: no Lark)
from dsl.lexical import RESERVED_WORDS as RESERVED_WORDS
from dsl.user_cache import CACHE_ENV as CACHE_ENV  # re-exported: tests and tools set it
from dsl.user_cache import cache_folder, private

# ---- keywords and names (docs/language.md, "Keywords and names") ---------------------------
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.cache
def grammar_words() -> frozenset[str]:
    """Every word of the grammar: the reserved words and the contextual keywords."""
    return frozenset(t.pattern.value for t in lark_parser().terminals
                     if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value))


class _KeywordLexer(Lexer):
    """Lark's contextual lexer, with the language's rule for words (docs/language.md).

    The contextual lexer reads a word as a keyword wherever the parser state lists the keyword,
    and as a name elsewhere. Both halves are wrong for this language. LALR(1) merges states,
    so a state lists every keyword that may follow its rule *somewhere*: after a field's
    default, 'names' (which may follow an option's default in the game header) would be a
    keyword, so a field named 'names' would be a syntax error there but not as the first field
    of a block. And where the state does not list it, a statement's keyword would be a name, so
    'x = x *' at the end of a line would swallow the next line's 'goto' as its operand. So:

    * a reserved word (RESERVED_WORDS) is always its keyword;
    * any other word of the grammar is a keyword only where the parser, with its actual stack,
      can shift it; where it can shift a name too (a field's trailing attribute or the next
      field's name), it is a name when a ':' follows it, since no keyword is ever followed by
      one.

    An input that parsed before this rule parses the same unless it used a reserved word as a
    name: the rule only turns into names the keywords the parser would have rejected.
    Looking further than the token's type is needed only for the words that are keywords
    somewhere, in a state that also takes a name, and costs a walk of the parse table."""

    __future_interface__ = 2  # lex(lexer_state, parser_state), as Lark's own lexers

    def __init__(self, conf: LexerConf) -> None:
        self.conf = conf
        words = {t.pattern.value: t.name for t in conf.terminals
                 if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value)}
        missing = RESERVED_WORDS - words.keys()
        assert not missing, f"reserved words that are no keyword of the grammar: {missing}"
        self.reserved = {word: words[word] for word in RESERVED_WORDS}
        self.contextual = frozenset(t for word, t in words.items() if word not in RESERVED_WORDS)
        # built at the first parse: it needs the parse table, which Lark builds after this
        self.lexer: ContextualLexer | None = None

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        table: Table = parser_state.parse_conf.states
        lexer = self.lexer
        if lexer is None:
            lexer = self.lexer = ContextualLexer(
                self.conf, {state: list(row) for state, row in table.items()})
        reserved, contextual = self.reserved, self.contextual
        for token in lexer.lex(lexer_state, parser_state):
            kind = token.type
            if kind == "NAME":
                keyword = reserved.get(token.value)
                if keyword is not None:
                    token.type = keyword
            elif (kind in contextual and "NAME" in table[parser_state.position]
                  and _is_name(token, lexer_state, parser_state.state_stack, table)):
                token.type = "NAME"
            yield token


# An LALR parse table: for each state, the action for each symbol.
Table = dict[Any, dict[str, tuple[Any, Any]]]


def _is_name(token: Token, lexer_state: LexerState, stack: list[Any], table: Table) -> bool:
    """Whether a contextual word, lexed as its keyword in a state that also takes a name, is
    a name."""
    if not shifts(table, stack, token.type):
        return True
    # a TextSlice since Lark 1.3 (pyproject allows 1.1), the text itself before
    text: Any = lexer_state.text
    whole: str = getattr(text, "text", text)
    end: int = getattr(text, "end", len(whole))
    return colon_follows(whole, token.end_pos or 0, end) and shifts(table, stack, "NAME")


def shifts(table: Table, stack: list[Any], terminal: str, end: Any = None) -> bool:
    """Whether the parser with this state stack would shift `terminal`, after the reductions
    it calls for (or, for the end of the text, reach the `end` state); the stack is left as
    it is."""
    stack = list(stack)
    while True:
        action = table[stack[-1]].get(terminal)
        if action is None:
            return False
        kind, rule = action
        if kind is Shift:
            return True
        if rule.expansion:
            del stack[-len(rule.expansion):]
        stack.append(table[stack[-1]][rule.origin.name][1])
        if stack[-1] == end:
            return True


def colon_follows(text: str, position: int, end: int) -> bool:
    """Whether the next token after position is ':' (whitespace and comments skipped)."""
    while position < end:
        char = text[position]
        if char == ":":
            return True
        if char == "#":
            position = text.find("\n", position, end)
            if position < 0:
                return False
        elif char in " \t\f\r\n":
            position += 1
        else:
            return False
    return False


@functools.cache
def lark_parser() -> Lark:
    """The LALR parser of the grammar, built once per process. Building its tables takes
    longer than a small rulebook's whole check, so they are kept between runs in the user's
    cache folder."""
    grammar = GRAMMAR_RESOURCE.read_text(encoding="utf-8")
    options: dict[str, Any] = {
        "parser": "lalr",
        "lexer": _KeywordLexer,
        "start": ["start", "effect_body"],
        "propagate_positions": True,
        "maybe_placeholders": True,
    }
    cache = parser_cache_file(grammar)
    # Lark reads a kept file only if it was made from this grammar and options, by this Lark
    # and Python, and builds the tables anew (and keeps them) if the file cannot be read.
    return Lark(grammar, cache=str(cache) if cache is not None else False, **options)


def parser_cache_file(grammar: str) -> Path | None:
    """The file that keeps the parser tables of this grammar, in the user's cache folder
    (dsl.user_cache). Lark keeps them with pickle, and unpickling runs code, so a folder or
    file that another user owns or may write is never read (None: build the tables in
    memory)."""
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(grammar.encode()).hexdigest()[:16]
    file = folder / f"grammar-{digest}.lark"
    try:
        if file.exists() and not private(file):
            return None
    except OSError:
        return None
    return file
