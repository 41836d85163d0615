"""What the language says about words, numbers and strings, for the modules that read rules
text without Lark (dsl.effect_parser, dsl.fastcards): importing Lark takes longer than
checking a rulebook whose parse is kept (dsl.parse_cache), so they do not import it.
dsl.keyword_lexer and dsl.ast_builder, the Lark side, use the same definitions.
"""

from __future__ import annotations

import importlib.resources
import re

# Read as a package resource, never by a path from this file: an installed wheel has no source
# tree around it.
GRAMMAR_RESOURCE = importlib.resources.files("grammar").joinpath("rulecraft.lark")

# The words that start a statement or an expression, and the operators: never names. Anywhere
# else a name could go, one of them would be read as a name, so an expression left unfinished
# at the end of a line would swallow the next statement's keyword (docs/language.md,
# "Keywords and names").
RESERVED_WORDS = frozenset({
    "let", "if", "elif", "else", "for", "repeat", "move", "draw", "shuffle", "create", "reveal",
    "goto", "win", "lose", "raise", "require", "break",
    "and", "or", "not", "in", "then", "true", "false", "none", "actor", "players",
})

MAX_INT_DIGITS = 18

_ESCAPE = re.compile(r"\\(.)")


def unescape(token: str) -> str:
    """A string literal's value: its quotes off, its escapes replaced."""
    return _ESCAPE.sub(lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                       token[1:-1])
