"""Parsed rulebooks kept between runs (dsl.parse_cache): a kept AST is the parser's, spans and
sharing included; any change of the rulebook, of a card set or of the compiler gives what a
run without the cache gives; an entry this user's rulecraft did not write is never read."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler import cli
from dsl import nodes as n
from dsl import parse_cache
from dsl.diagnostics import Diagnostics
from dsl.parser import parse, read_source
from dsl.source import SourceFile
from dsl.user_cache import CACHE_ENV

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "rulebooks").glob("*/*.rules"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of Ruler's Gambit: its rulebook, card set and decks."""
    folder = tmp_path / "rulers_gambit"
    shutil.copytree(ROOT / "rulebooks" / "rulers_gambit", folder)
    return folder / "rulers_gambit.rules"


@pytest.mark.parametrize("rules", GAMES, ids=lambda p: p.stem)
def test_a_kept_ast_is_the_parsers(rules: Path) -> None:
    source = read_source(rules, "some/name.rules", Diagnostics())
    assert source is not None
    module = parse(source, Diagnostics())
    assert module is not None
    data = parse_cache._encode(module, source.name)
    again = parse_cache._decode(data, source.name)
    assert again == module
    assert parse_cache._encode(again, source.name) == data  # every field and span
    assert len({id(node) for node in n.walk(again)}) == len({id(node) for node in n.walk(module)})


def run(*arguments: str) -> tuple[int, str, str]:
    """`rulecraft ARGUMENTS` in this process: exit code, stdout, stderr."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(arguments))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the rulebooks parsed (not found in the cache) while it is in use."""
    parsed: list[str] = []
    original = parse

    def counted(source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
        parsed.append(source.name)
        return original(source, diagnostics)

    monkeypatch.setattr(parse_cache, "parse", counted)
    yield parsed


def check(rules: Path, *options: str) -> tuple[int, str, str]:
    return run("check", "--format", "json", *options, str(rules))


def test_a_second_check_reads_the_kept_ast_and_says_the_same(
        cache: Path, game: Path, parses: list[str]) -> None:
    cold = check(game, "--no-cache")
    assert cold[0] == 0 and len(parses) == 1
    assert not (cache / parse_cache.FOLDER).exists()  # --no-cache keeps nothing
    assert check(game) == cold and len(parses) == 2
    assert len(list((cache / parse_cache.FOLDER).glob("*.json"))) == 1
    assert check(game) == cold and len(parses) == 2  # from the cache
    assert not (cache / parse_cache.FOLDER).stat().st_mode & 0o077
    assert not (cache / "key").stat().st_mode & 0o077


def test_any_change_of_an_input_gives_what_a_cold_run_gives(
        cache: Path, game: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    check(game)
    # the rulebook: a function nothing calls (a warning), and a line more above everything
    text = game.read_text(encoding="utf-8")
    game.write_text("# moved\n" + text.replace(
        "\nfunction ", "\nfunction never_called() -> int = 1\n\nfunction ", 1), encoding="utf-8")
    changed = check(game)
    assert changed == check(game, "--no-cache")
    assert '"W0305"' in changed[1] and len(parses) == 3
    assert check(game) == changed and len(parses) == 3
    # a card set: a card's cost too high for the rules (an error), read anew each time
    cards = game.parent / "starter.cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 1\n", "cost: 99\n", 1),
                     encoding="utf-8")
    broken = check(game)
    assert broken == check(game, "--no-cache") and broken != changed
    assert broken[0] == 1 and len(parses) == 4  # (the --no-cache run parsed)
    # the compiler: another version of the parser is another entry
    monkeypatch.setattr(parse_cache, "fingerprint", lambda: b"another parser")
    assert check(game) == broken and len(parses) == 5
    assert check(game) == broken and len(parses) == 5


def test_an_entry_not_written_by_this_users_rulecraft_is_never_read(
        cache: Path, game: Path, parses: list[str]) -> None:
    cold = check(game)
    (entry,) = (cache / parse_cache.FOLDER).glob("*.json")
    mac, _, body = entry.read_bytes().partition(b"\n")
    # a planted AST (another name for a function), with the HMAC of another key
    planted = body.replace(b'"kingdom_of"', b'"planted_name"')
    assert planted != body
    for data in (mac + b"\n" + planted, b"\n\n"):
        entry.write_bytes(data)
        assert check(game) == cold
        assert entry.read_bytes() != data  # parsed again, and kept anew
    assert len(parses) == 3
    # a key that others may read is no key
    (cache / "key").chmod(0o644)
    assert check(game) == cold and len(parses) == 4
