"""The parser tables kept between runs (dsl.keyword_lexer.parser_cache_file): in a folder of
the user's own only, never read when others may write it, and a damaged file is built anew
with the same result."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dsl.keyword_lexer import CACHE_ENV, GRAMMAR_RESOURCE, parser_cache_file

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"
GRAMMAR = GRAMMAR_RESOURCE.read_text(encoding="utf-8")


def check(cache: str) -> subprocess.CompletedProcess[str]:
    """`rulecraft check` of Dynasties in a fresh process, keeping parser tables in `cache`
    (and no parsed rulebook: dsl.parse_cache, tested by tests/test_parse_cache.py)."""
    return subprocess.run([sys.executable, "-m", "compiler", "check", "--no-cache", str(RULES)],
                          capture_output=True, text=True, check=False, cwd=ROOT,
                          env={**os.environ, CACHE_ENV: cache})


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_tables_are_kept_privately_and_give_the_same_result(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    without = check("")
    assert without.returncode == 0, without.stderr
    assert not folder.exists()
    first, second = check(str(folder)), check(str(folder))
    kept = list(folder.glob("grammar-*"))
    assert len(kept) == 1 and kept[0].name.startswith("grammar-")
    assert kept[0].stat().st_size > 10_000
    assert not folder.stat().st_mode & 0o077  # the folder is the user's alone
    assert not kept[0].stat().st_mode & 0o022
    assert (first.returncode, first.stdout, first.stderr) == (0, without.stdout, without.stderr)
    assert (second.returncode, second.stdout, second.stderr) == (0, without.stdout, without.stderr)


def test_a_folder_or_file_others_may_write_is_never_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    file = parser_cache_file(GRAMMAR)
    assert file is not None and file.parent == folder
    folder.chmod(0o777)
    assert parser_cache_file(GRAMMAR) is None
    folder.chmod(0o700)
    file.write_bytes(b"planted")
    file.chmod(0o666)
    assert parser_cache_file(GRAMMAR) is None
    file.chmod(0o600)
    assert parser_cache_file(GRAMMAR) == file
    monkeypatch.setenv(CACHE_ENV, "")
    assert parser_cache_file(GRAMMAR) is None


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
def test_a_damaged_file_is_built_anew(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    assert check(str(folder)).returncode == 0
    (kept,) = folder.glob("grammar-*")
    # Lark's own check passes (the first line is the hash of this grammar); the rest is broken
    kept.write_bytes(kept.read_bytes().split(b"\n", 1)[0] + b"\nnot a pickle")
    damaged = check(str(folder))
    assert damaged.returncode == 0, damaged.stderr
    assert "Traceback" not in damaged.stderr
