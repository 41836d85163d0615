"""The Pygments lexer (compiler.highlight): every shipped rulebook and every `rulecraft` code
block of docs/language.md lexes without an error token; its words are the grammar's."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from pygments.token import Comment, Error, Keyword, String

from compiler.check_builtins import BUILTINS
from compiler.highlight import (
    BUILTIN_NAMES,
    CONSTANT_WORDS,
    DECLARATION_WORDS,
    KEYWORDS,
    RulecraftLexer,
)
from dsl.keyword_lexer import grammar_words

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulebooks").glob("*/*.rules"))


@pytest.mark.parametrize("rules", SHIPPED, ids=lambda p: p.stem)
def test_shipped_rulebook_lexes_without_errors(rules: Path) -> None:
    text = rules.read_text(encoding="utf-8")
    # stripnl=False: every character of the file comes back, a trailing blank line too
    tokens = list(RulecraftLexer(stripnl=False).get_tokens(text))
    assert [value for kind, value in tokens if kind in Error] == []
    assert "".join(value for _, value in tokens) == text
    kinds = {kind for kind, _ in tokens}
    assert Comment.Single in kinds and Keyword.Declaration in kinds and String.Double in kinds


def test_language_reference_code_blocks_lex_without_errors() -> None:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```rulecraft\n(.*?)```", text, re.DOTALL)
    assert len(blocks) > 10
    for block in blocks:
        errors = [v for k, v in RulecraftLexer().get_tokens(block) if k in Error]
        assert errors == [], block


def test_words_are_the_grammars() -> None:
    assert set(KEYWORDS) | set(DECLARATION_WORDS) | set(CONSTANT_WORDS) == grammar_words()
    assert set(BUILTIN_NAMES) == set(BUILTINS)


def test_registered_as_a_pygments_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    points = project["project"]["entry-points"]["pygments.lexers"]
    assert points == {"rulecraft": "compiler.highlight:RulecraftLexer"}
    assert RulecraftLexer.filenames == ["*.rules"]


def test_vscode_grammar_has_the_lexers_words() -> None:
    # The TextMate grammar is written by hand; this keeps its word lists from drifting when the
    # language gains a keyword or builtin (shipped rulebooks may not use the new word yet).
    grammar = (ROOT / "editors" / "vscode" / "syntaxes" / "rulecraft.tmLanguage.json").read_text(
        encoding="utf-8")
    alternations = [set(words.split("|")) for words in re.findall(r"\\\\b\(\?:([a-z_|]+)\)",
                                                                   grammar)]
    assert set(KEYWORDS) in alternations
    assert set(BUILTIN_NAMES) in alternations
    assert set(DECLARATION_WORDS) <= set().union(*alternations)
