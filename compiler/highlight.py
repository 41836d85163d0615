"""A Pygments lexer for `.rules` files, registered as the `pygments.lexers` entry point
`rulecraft` (aliases `rulecraft` and `rules`): code blocks of docs/language.md and any
Pygments-based tool colour the language with it.

The word lists are the grammar's own (tests/test_highlight.py holds them to
dsl.keyword_lexer.grammar_words() and compiler.check_builtins.BUILTINS), written out here so
that highlighting does not build the parser.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
    _TokenType,
)

DECLARATION_WORDS = (
    "action", "board", "card", "cards", "checkpoint", "data", "decision", "deck", "decks",
    "diagram", "enum", "event", "function", "game", "keyword", "option", "phase", "player",
    "procedure", "record", "seed", "setup", "state", "trigger", "zone",
)
CONSTANT_WORDS = ("true", "false", "none")
KEYWORDS = (
    "actor", "all", "and", "announced", "asc", "bottom", "break", "by", "call", "capacity",
    "columns", "create", "desc", "done", "draw", "effect", "elif", "else", "enter", "face",
    "facing", "for",
    "from", "goto", "graph", "grid", "hex", "hidden", "if", "in", "into", "let", "list", "lose",
    "mark",
    "move", "names", "not", "of", "omitted", "on", "opposing", "or", "ordered", "owner", "per",
    "players", "private", "public", "raise", "reaches", "repeat", "require", "responders",
    "return", "reveal", "rows", "says", "secret", "shuffle", "team", "teams", "then", "title",
    "to", "top", "when", "where", "while", "win",
)
BUILTIN_NAMES = (
    "abs", "adjacent", "after", "ahead", "allies", "ally", "behind", "captain", "cell", "column",
    "column_cells", "connected", "decklist", "distance", "empty", "facing_distance", "first",
    "flip", "last", "last_standing", "max", "min", "neighbours", "next_in", "next_player",
    "opponent", "opponents", "previous_in", "ring", "roll", "row", "row_cells", "shuffled", "size",
    "standing", "surrounding", "within",
)
TYPE_NAMES = ("int", "bool", "text")

_Rules = list[tuple[str, _TokenType] | tuple[str, _TokenType, str]]


class RulecraftLexer(RegexLexer):  # type: ignore[misc]  # (Pygments ships no types)
    name = "Rulecraft"
    aliases: ClassVar[list[str]] = ["rulecraft", "rules"]
    filenames: ClassVar[list[str]] = ["*.rules"]
    mimetypes: ClassVar[list[str]] = ["text/x-rulecraft"]
    url = "https://github.com/rulecraft/rulecraft"

    tokens: ClassVar[dict[str, _Rules]] = {
        "root": [
            (r"\n", Whitespace),
            (r"[ \t\r\f\v]+", Whitespace),
            (r"##[^\n]*", Comment.Special),
            (r"#[^\n]*", Comment.Single),
            (r"@[A-Za-z0-9_.]+", Name.Decorator),
            (r'"', String.Double, "string"),
            (r"[0-9]+", Number.Integer),
            (words(DECLARATION_WORDS, suffix=r"\b(?!\s*:)"), Keyword.Declaration),
            (words(CONSTANT_WORDS, suffix=r"\b"), Keyword.Constant),
            # `all` is a keyword after `responders` only: before a bracket it is the aggregate
            (r"all\b(?=\s*\()", Name),
            (words(KEYWORDS, suffix=r"\b(?!\s*:)"), Keyword),
            (words(TYPE_NAMES, suffix=r"\b"), Keyword.Type),
            (words(BUILTIN_NAMES, suffix=r"\b(?=\s*\()"), Name.Builtin),
            (r"[A-Z][A-Za-z0-9_]*", Name.Class),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"->|\.\.|--|==|!=|<=|>=|\+=|-=|[=<>+\-*/%?]", Operator),
            (r"[{}()\[\],.:;]", Punctuation),
        ],
        "string": [
            (r'\\["\\nt{}]', String.Escape),
            (r"\{[^{}\"\n]*\}", String.Interpol),
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r'"', String.Double, "#pop"),
        ],
    }


def main(argv: list[str] | None = None) -> int:
    """`python -m compiler.highlight PAGE.md... -o DIR`: each Markdown page as DIR/PAGE.html, its
    ```rulecraft code blocks coloured by this lexer (how docs/language.md is read in a browser)."""
    import argparse
    import sys
    from pathlib import Path

    from compiler.doc_source import markdown_page

    parser = argparse.ArgumentParser(prog="python -m compiler.highlight",
                                     description=main.__doc__)
    parser.add_argument("pages", nargs="+", type=Path, metavar="PAGE.md")
    parser.add_argument("-o", "--out", type=Path, required=True, metavar="DIR")
    args = parser.parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        for page in args.pages:
            text = page.read_text(encoding="utf-8")
            target = args.out / (page.stem + ".html")
            target.write_text(markdown_page(text, page.stem), encoding="utf-8", newline="\n")
            print(target)
    except (OSError, UnicodeDecodeError) as error:
        print(f"python -m compiler.highlight: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

__all__ = ["RulecraftLexer", "Text", "main"]
