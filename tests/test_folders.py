"""A game lives in any folder: every command takes a path to a rulebook or its folder, wherever
it is, finds the project (the nearest folder above with `rulebooks/` or a `rulecraft.toml`),
says where its output goes, and turns unusable paths into diagnostics, never tracebacks.

The CLI runs in-process (`compiler.cli.main`) from a chosen working directory.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from compiler import cli

ROOT = Path(__file__).resolve().parent.parent
DYNASTIES = ROOT / "rulebooks" / "dynasties"
MINI = (ROOT / "tests" / "cases" / "valid_minimal.rules").read_text(encoding="utf-8")

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """Run the CLI in-process from `cwd`; returns (exit code, stdout + stderr)."""

    def go(*argv: str, cwd: Path, stdin: str | None = None) -> tuple[int, str]:
        monkeypatch.chdir(cwd)
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = cli.main(list(argv))
        out = capsys.readouterr()
        return code, out.out + out.err

    return go


def copy_game(source: Path, target: Path) -> Path:
    """A shipped game folder copied elsewhere, without anything a build left beside it."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("generated", "__pycache__"))
    return target


def mini_project(tmp_path: Path) -> Path:
    """A project laid out like this repository: rulebooks/mini/mini.rules, nothing built."""
    folder = tmp_path / "project" / "rulebooks" / "mini"
    folder.mkdir(parents=True)
    (folder / "mini.rules").write_text(MINI, encoding="utf-8")
    return folder


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


# ---- inside a game folder of this repository (issue 10) -------------------------------------
def test_check_inside_a_game_folder_checks_that_game(run: Run) -> None:
    code, output = run("check", cwd=DYNASTIES)
    assert code == 0, output
    assert "checked dynasties.rules" in output
    assert "no such file" not in output


def test_check_below_a_game_folder_checks_that_game(run: Run) -> None:
    code, output = run("check", cwd=ROOT / "rulebooks" / "dynasty_builder" / "maps")
    assert code == 0, output
    assert "dynasty_builder.rules" in output and "dynasties" not in output


def test_test_dot_inside_a_game_folder_finds_the_game(run: Run) -> None:
    code, output = run("test", "turns.scenario.yaml", ".", cwd=DYNASTIES)
    assert code == 0, output
    assert "no rulebook named" not in output
    assert " 0 failed" in output


def test_build_inside_a_game_folder_writes_the_project_output(run: Run, tmp_path: Path) -> None:
    folder = mini_project(tmp_path)
    code, output = run("build", "mini.rules", cwd=folder)
    assert code == 0, output
    project = folder.parent.parent
    assert not (folder / "generated").exists(), "wrote beside the rulebook, inside rulebooks/"
    assert (project / "generated" / "mini.py").is_file()
    assert f"wrote {project / 'generated' / 'mini.py'}" in output
    assert f"into {project / 'generated'}" in output


def test_build_says_where_output_went_even_when_nothing_changed(run: Run, tmp_path: Path) -> None:
    folder = mini_project(tmp_path)
    run("build", cwd=folder)
    code, output = run("build", cwd=folder)
    assert code == 0, output
    assert f"into {folder.parent.parent / 'generated'}, 0 file(s) changed" in output


# ---- a game folder outside any project ------------------------------------------------------
@pytest.fixture
def mygame(tmp_path: Path) -> Path:
    """Dynasties, copied to a folder of its own as a designer's game would be: no project."""
    return copy_game(DYNASTIES, tmp_path / "mygame")


def test_test_a_game_folder_outside_the_repository(run: Run, mygame: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, output = run("test", str(mygame / "turns.scenario.yaml"), cwd=elsewhere)
    assert code == 0, output
    code, output = run("test", str(mygame), cwd=elsewhere)
    assert code == 0, output
    assert " 0 failed" in output


def test_every_command_takes_a_game_folder(run: Run, mygame: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, output = run("check", str(mygame), cwd=elsewhere)
    assert code == 0, output
    code, output = run("simulate", str(mygame), "-n", "2", cwd=elsewhere)
    assert code == 0, output
    assert "games: 2" in output
    code, output = run("simulate", str(mygame / "dynasties.rules"), "-n", "1", cwd=elsewhere)
    assert code == 0, output
    code, output = run("play", str(mygame), cwd=elsewhere, stdin="q\n")
    assert code == 0, output
    assert "your move" in output
    assert not (mygame / "generated").exists(), "play and simulate compile in memory"
    assert not (elsewhere / "generated").exists()


def test_inside_a_game_folder_without_project_commands_act_on_that_game(
    run: Run, mygame: Path
) -> None:
    code, output = run("check", cwd=mygame)
    assert code == 0, output
    code, output = run("test", cwd=mygame)
    assert code == 0, output
    assert " 0 failed" in output
    code, output = run("simulate", "dynasties", "-n", "1", cwd=mygame)
    assert code == 0, output


def test_build_outside_a_project_writes_beside_the_rulebook(run: Run, tmp_path: Path) -> None:
    game = tmp_path / "mini"
    game.mkdir()
    (game / "mini.rules").write_text(MINI, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, output = run("build", str(game / "mini.rules"), cwd=elsewhere)
    assert code == 0, output
    assert (game / "generated" / "mini.py").is_file()
    assert f"into {game / 'generated'}" in output
    assert not (elsewhere / "generated").exists()
    code, output = run("build", str(game), "-o", "out", cwd=elsewhere)  # -o overrides
    assert code == 0, output
    assert (elsewhere / "out" / "mini.py").is_file()


def test_scenario_game_is_found_from_the_scenario_file(run: Run, mygame: Path) -> None:
    """A scenario in a subfolder names its game; a path in `game:` is read from its folder."""
    scenarios = mygame / "scenarios"
    scenarios.mkdir()
    (mygame / "turns.scenario.yaml").rename(scenarios / "turns.scenario.yaml")
    text = (scenarios / "turns.scenario.yaml").read_text(encoding="utf-8")
    (scenarios / "by_path.scenario.yaml").write_text(
        text.replace("game: dynasties", "game: ../dynasties.rules"), encoding="utf-8")
    code, output = run("test", "scenarios", cwd=mygame)
    assert code == 0, output
    assert "no rulebook named" not in output


def test_scenario_naming_an_unknown_game_fails_clearly(run: Run, tmp_path: Path) -> None:
    (tmp_path / "x.scenario.yaml").write_text("game: nowhere\nname: n\n", encoding="utf-8")
    code, output = run("test", "x.scenario.yaml", cwd=tmp_path)
    assert code == 1, output
    assert "no rulebook named 'nowhere'" in output


# ---- paths that cannot be used ------------------------------------------------------------------
@pytest.fixture
def loops(tmp_path: Path) -> Path:
    """A folder with two symbolic links pointing at each other, one named like a rulebook."""
    folder = tmp_path / "loops"
    folder.mkdir()
    os.symlink("loop.rules", folder / "other")
    os.symlink("other", folder / "loop.rules")
    return folder


COMMANDS = [["check"], ["build"], ["test"], ["play"], ["simulate", "-n", "1"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_symlink_loop_is_a_diagnostic(run: Run, loops: Path, command: list[str]) -> None:
    code, output = run(*command, "loop.rules", cwd=loops)
    assert code != 0, output
    assert "Traceback" not in output
    assert "loop.rules" in output and "symbolic link" in output, output


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_symlink_loop_inside_a_folder_is_a_diagnostic(
    run: Run, loops: Path, command: list[str]
) -> None:
    (loops / "game.scenario.yaml").symlink_to("game.scenario.yaml")
    code, output = run(*command, str(loops), cwd=loops.parent)
    assert code != 0, output
    assert "symbolic link" in output, output


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_folder_where_a_rulebook_is_expected(run: Run, tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "odd.rules").mkdir()
    code, output = run(*command, "odd.rules", cwd=tmp_path)
    assert code != 0, output
    if command[0] in ("check", "build"):
        assert "odd.rules:1:1: error[E0004]: no rulebook (.rules) in this folder or below" in output


@pytest.mark.parametrize("command", [["check"], ["build", "--check"]], ids=lambda c: c[0])
def test_a_folder_without_rulebooks_says_so_in_every_format(
    run: Run, tmp_path: Path, command: list[str],
) -> None:
    """A CI run that fails must say why, in the format it reads."""
    (tmp_path / "empty").mkdir()
    code, output = run(*command, "empty", "--format", "json", cwd=tmp_path)
    assert code == 1, output
    assert '"message": "no rulebook (.rules) in this folder or below"' in output
    code, output = run(*command, "empty", "--format", "github", cwd=tmp_path)
    assert code == 1, output
    assert "::error file=empty,line=1,col=1," in output


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_name_too_long_for_the_system(run: Run, tmp_path: Path, command: list[str]) -> None:
    code, output = run(*command, "a" * 5000 + ".rules", cwd=tmp_path)
    assert code != 0, output
    assert "too long" in output, output[-300:]


def test_build_into_a_folder_that_cannot_be_made(run: Run, tmp_path: Path) -> None:
    (tmp_path / "mini.rules").write_text(MINI, encoding="utf-8")
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    code, output = run("build", "mini.rules", "-o", "a_file/out", cwd=tmp_path)
    assert code == 1, output
    assert "error[E0008]" in output and "a_file/out" in output, output


def test_build_into_a_folder_without_permission(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "mini.rules").write_text(MINI, encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if getattr(os, "geteuid", lambda: -1)() == 0:
        # root may write anywhere (CI runs as root): refuse it as the system refuses others
        make_folder = Path.mkdir

        def refused(self: Path, *args: Any, **kwargs: Any) -> None:
            if locked in self.parents:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
            make_folder(self, *args, **kwargs)

        monkeypatch.setattr(Path, "mkdir", refused)
    try:
        code, output = run("build", "mini.rules", "-o", "locked/out", cwd=tmp_path)
    finally:
        locked.chmod(0o700)
    assert code == 1, output
    assert "error[E0008]" in output and "locked/out" in output, output
    assert "cannot make the output folder: Permission denied" in output, output
    assert not (locked / "out").exists()


def test_build_where_an_output_file_is_a_folder(run: Run, tmp_path: Path) -> None:
    (tmp_path / "mini.rules").write_text(MINI, encoding="utf-8")
    (tmp_path / "out" / "mini.py").mkdir(parents=True)
    code, output = run("build", "mini.rules", "-o", "out", cwd=tmp_path)
    assert code == 1, output
    assert "error[E0008]" in output and "out/mini.py" in output, output


def test_a_broken_marker_is_a_diagnostic(run: Run, tmp_path: Path) -> None:
    (tmp_path / "rulecraft.toml").write_text("output = [1\n", encoding="utf-8")
    (tmp_path / "mini.rules").write_text(MINI, encoding="utf-8")
    code, output = run("build", cwd=tmp_path)
    assert code == 1, output
    assert "rulecraft.toml:" in output and "error[E0401]" in output, output


def test_the_marker_may_name_the_output_folder(run: Run, tmp_path: Path) -> None:
    (tmp_path / "rulecraft.toml").write_text('output = "built"\n', encoding="utf-8")
    (tmp_path / "mini.rules").write_text(MINI, encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    code, output = run("build", cwd=sub)
    assert code == 0, output
    assert (tmp_path / "built" / "mini.py").is_file()


def test_outputs_of_a_rulebook_that_is_gone_are_stale_then_removed(
    run: Run, tmp_path: Path,
) -> None:
    mini = mini_project(tmp_path)
    other = mini.parent / "other"
    other.mkdir()
    (other / "other.rules").write_text(MINI.replace("game mini", "game other"), encoding="utf-8")
    project = mini.parent.parent
    code, output = run("build", cwd=project)
    assert code == 0, output
    generated = project / "generated"
    (generated / "helper.py").write_text("# ours, not Rulecraft's\n", encoding="utf-8")
    shutil.rmtree(other)
    code, output = run("build", "--check", cwd=project)
    assert code == 1, output
    assert ("generated/other.py:1:1: error[E0009]: generated from rulebooks/other/other.rules, "
            "which is gone") in output
    assert "generated/docs/other.md" in output and "generated/docs/other.html" in output
    assert "3 file(s) in generated not what the rulebooks produce" in output
    code, output = run("build", "--check", "--format", "github", cwd=project)
    assert code == 1 and "::error file=generated/other.py,line=1,col=1," in output, output
    (generated / "mini.py").write_text("# edited\n", encoding="utf-8")
    code, output = run("build", "--check", "--format", "json", cwd=project)
    assert code == 1, output
    stale = json.loads(output[: output.rindex("]") + 1])
    assert {(d["code"], d["file"], d["message"]) for d in stale} >= {
        ("E0009", "generated/mini.py", "not what the rulebooks produce"),
        ("E0009", "generated/other.py",
         "generated from rulebooks/other/other.rules, which is gone")}
    code, output = run("build", cwd=project)
    assert code == 0, output
    assert "removed generated/other.py: generated from rulebooks/other/other.rules" in output
    assert "E0009" not in output  # a build removes them: no error beside its exit 0
    assert files_under(generated) == {"__init__.py", "helper.py", "mini.py", "docs/mini.md",
                                      "docs/mini.html"}
    code, output = run("build", "--check", cwd=project)
    assert code == 0, output


def test_building_one_rulebook_keeps_every_other_games_outputs(run: Run, tmp_path: Path) -> None:
    """The docs write a rulebook's name as Markdown (`the\\_other`) and HTML (`&amp;`): read as
    written, the names were of no rulebook, and building one game from its folder removed the
    other games' docs as left by a rulebook that is gone."""
    mini = mini_project(tmp_path)
    other = mini.parent.parent / "rulebooks" / "the_other & co"
    other.mkdir()
    (other / "the_other.rules").write_text(MINI.replace("game mini", "game the_other"),
                                           encoding="utf-8")
    project = mini.parent.parent
    code, output = run("build", cwd=project)
    assert code == 0, output
    before = files_under(project / "generated")
    assert "docs/the_other.md" in before and "docs/the_other.html" in before
    code, output = run("build", "--check", ".", cwd=mini.parent)
    assert code == 0, output
    code, output = run("build", mini.name, cwd=mini.parent)
    assert code == 0 and "removed" not in output, output
    assert files_under(project / "generated") == before


def test_a_folder_given_with_o_keeps_what_other_builds_wrote(run: Run, tmp_path: Path) -> None:
    (tmp_path / "mini.rules").write_text(MINI, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    gone = "# Generated by Rulecraft 0.1.0 from rulebooks/gone/gone.rules. Do not edit:\n"
    (out / "gone.py").write_text(gone, encoding="utf-8")
    code, output = run("build", "mini.rules", "-o", "out", cwd=tmp_path)
    assert code == 0, output
    assert (out / "gone.py").read_text(encoding="utf-8") == gone


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_where_there_is_no_game_every_command_says_so_and_fails(
    run: Run, tmp_path: Path, command: list[str],
) -> None:
    """DESIGN.md §2: check, build and test fail with 1; none is a usage error."""
    code, output = run(*command, cwd=tmp_path)
    assert code == 1, output
    assert "no rulebook here" in output or "no rulebook named" in output, output


# ---- rulecraft new ----------------------------------------------------------------------------
def test_new_game_checks_builds_tests_simulates_and_plays(run: Run, tmp_path: Path) -> None:
    code, output = run("new", "mygame", cwd=tmp_path)
    assert code == 0, output
    game = tmp_path / "mygame"
    assert files_under(game) == {"mygame.rules", "mygame.cards.yaml", "decks/starter.deck.yaml",
                                 "mygame.scenario.yaml", "rulecraft.toml", "README.md"}
    # from inside the game's folder, with no path
    code, output = run("check", cwd=game)
    assert code == 0, output
    assert "0 errors, 0 warnings" in output
    code, output = run("test", cwd=game)
    assert code == 0, output
    assert " 0 failed" in output
    code, output = run("build", cwd=game)
    assert code == 0, output
    assert "wrote generated/mygame.py" in output
    assert (game / "generated" / "docs" / "mygame.md").is_file()
    code, output = run("simulate", "mygame", "-n", "20", cwd=game)
    assert code == 0, output
    assert "games: 20" in output
    code, output = run("play", "mygame", cwd=game, stdin="1\n" * 200)
    assert code == 0, output
    assert "game over" in output
    # from outside, by path
    for command in (["check", "mygame"], ["test", "mygame"], ["build", "mygame", "--check"],
                    ["simulate", "mygame", "-n", "20"]):
        code, output = run(*command, cwd=tmp_path)
        assert code == 0, (command, output)
    code, output = run("play", "mygame/mygame.rules", "--as", "B", cwd=tmp_path,
                       stdin="1\n" * 200)
    assert code == 0, output
    assert "game over" in output
    assert not (tmp_path / "generated").exists()


def test_new_into_a_folder(run: Run, tmp_path: Path) -> None:
    code, output = run("new", "cards", "games", cwd=tmp_path)
    assert code == 0, output
    assert (tmp_path / "games" / "cards" / "cards.rules").is_file()
    assert str(Path("games") / "cards") in output


def test_new_is_deterministic(run: Run, tmp_path: Path) -> None:
    run("new", "mygame", "one", cwd=tmp_path)
    run("new", "mygame", "two", cwd=tmp_path)
    one, two = tmp_path / "one" / "mygame", tmp_path / "two" / "mygame"
    assert files_under(one) == files_under(two)
    for name in files_under(one):
        assert (one / name).read_bytes() == (two / name).read_bytes(), name


@pytest.mark.parametrize("name", ["My Game", "1st", "my-game", "Game", "if", "players", ""])
def test_new_refuses_a_name_that_is_no_game_name(run: Run, tmp_path: Path, name: str) -> None:
    code, output = run("new", name, cwd=tmp_path)
    assert code == 2, output
    assert "game name" in output
    assert list(tmp_path.iterdir()) == []


def test_new_refuses_a_folder_that_is_not_empty(run: Run, tmp_path: Path) -> None:
    (tmp_path / "mygame").mkdir()
    (tmp_path / "mygame" / "notes.txt").write_text("mine", encoding="utf-8")
    code, output = run("new", "mygame", cwd=tmp_path)
    assert code == 2, output
    assert "already exists" in output
    assert files_under(tmp_path / "mygame") == {"notes.txt"}
    (tmp_path / "empty" / "mygame").mkdir(parents=True)
    code, output = run("new", "mygame", "empty", cwd=tmp_path)
    assert code == 0, output


def test_new_where_the_folder_cannot_be_made(run: Run, tmp_path: Path) -> None:
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    code, output = run("new", "mygame", "a_file", cwd=tmp_path)
    assert code != 0, output
    assert "a_file" in output
