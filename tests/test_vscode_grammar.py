"""The VS Code extension's TextMate grammar (editors/vscode/) against the Pygments lexer: every
shipped rulebook tokenized with vscode-textmate under Node has its keywords, constants, strings
and comments at exactly the characters where compiler.highlight puts them.

Needs `node`, and vscode-textmate with vscode-oniguruma: those of editors/vscode/node_modules
(`npm install` there), else installed by npm into a temporary folder; skipped when neither can
be had (no Node, no network)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from pygments.token import Comment, Keyword, String, _TokenType

from compiler.highlight import RulecraftLexer

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
SHIPPED = sorted((ROOT / "rulebooks").glob("*/*.rules"))
PACKAGES = ("vscode-textmate@9", "vscode-oniguruma@2")


@pytest.fixture(scope="module")
def node_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("node") is None:
        pytest.skip("no node")
    own = EXTENSION / "node_modules"
    if (own / "vscode-textmate").is_dir() and (own / "vscode-oniguruma").is_dir():
        return own
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("no npm to install vscode-textmate")
    folder = tmp_path_factory.mktemp("textmate")
    try:
        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix",
                               str(folder), *PACKAGES], capture_output=True, text=True,
                              timeout=180, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip("npm install timed out")
    if done.returncode != 0:
        pytest.skip(f"npm could not install vscode-textmate: {done.stderr[-300:]}")
    return folder / "node_modules"


def _category_of_scopes(scopes: list[str]) -> str | None:
    joined = " ".join(scopes)
    if "comment." in joined:
        return "comment"
    if "string." in joined:
        return "string"
    if "keyword.declaration" in joined or "keyword.other" in joined:
        return "keyword"
    if "constant.language" in joined:
        return "constant"
    return None


def _category_of_token(kind: _TokenType) -> str | None:
    if kind in Comment:
        return "comment"
    if kind in String:
        return "string"
    if kind in Keyword.Constant:
        return "constant"
    if kind in Keyword.Type:
        return None
    if kind in Keyword:
        return "keyword"
    return None


def _pygments(text: str) -> dict[int, str]:
    found = {}
    for index, kind, value in RulecraftLexer().get_tokens_unprocessed(text):
        category = _category_of_token(kind)
        if category is not None:
            for offset in range(index, index + len(value)):
                if value[offset - index] != "\n":
                    found[offset] = category
    return found


def _textmate(text: str, tokens: list[tuple[int, int, int, list[str]]]) -> dict[int, str]:
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    found = {}
    for line, start, end, scopes in tokens:
        category = _category_of_scopes(scopes)
        if category is not None:
            for column in range(start, end):
                found[starts[line] + column] = category
    return found


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_textmate_grammar_agrees_with_the_pygments_lexer(node_modules: Path) -> None:
    done = subprocess.run(
        ["node", str(EXTENSION / "test" / "tokenize.js"), *map(str, SHIPPED)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "NODE_PATH": str(node_modules)})
    assert done.returncode == 0, done.stderr
    tokenized = json.loads(done.stdout)
    for rules in SHIPPED:
        text = rules.read_text(encoding="utf-8")
        expected = _pygments(text)
        found = _textmate(text, tokenized[str(rules)])
        differ = sorted(set(expected.items()) ^ set(found.items()))
        where = [(text.count("\n", 0, offset) + 1, category) for offset, category in differ[:5]]
        assert not differ, f"{rules.name}: first differences (line, category): {where}"
        assert {"keyword", "constant", "string", "comment"} <= set(found.values())


def test_extension_declares_the_language_and_the_server() -> None:
    package = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    language = package["contributes"]["languages"][0]
    assert language["extensions"] == [".rules"]
    grammar = package["contributes"]["grammars"][0]
    assert (EXTENSION / grammar["path"]).is_file()
    assert package["contributes"]["configuration"]["properties"]["rulecraft.command"][
        "default"] == ["rulecraft", "lsp"]
    assert "rulecraft.command" in (EXTENSION / "extension.js").read_text(encoding="utf-8")
