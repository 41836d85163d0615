"""The public Python API: check, build, load and run games compiled from rulebooks.

A path may be a rulebook, a game folder, or a card set or deck file (checked with the rulebook
of its folder), wherever it is. With no path, a command acts on the game folder it runs in, or
else on every rulebook of the project around it (`compiler.project`, DESIGN.md §2).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from compiler.build import BuildResult, build, find_rulebooks
from compiler.driver import Compilation, check_rulebook
from compiler.model import GameModel
from compiler.project import (
    NO_TARGET,
    NO_TARGET_HINT,
    default_target,
    find_project,
    holds_rulebooks,
    output_for,
    path_problem,
)
from dsl.diagnostics import Diagnostics
from dsl.source import Span, display_name, resolved


class GameNotFound(Exception):  # noqa: N818 - reads as a sentence at the call site
    """No rulebook by that name, or the rulebook does not compile (then `compilation` holds
    its diagnostics)."""

    def __init__(self, message: str, compilation: Compilation | None = None) -> None:
        super().__init__(message)
        self.compilation = compilation


def seat_count(game: ModuleType, players: int | None, options: dict[str, object]) -> int:
    """`--players N`, else the fewest players the game is for with these options (a game whose
    counts depend on its options says which with `player_counts`). new_game refuses a count or
    options that do not fit, with a message for the user."""
    if players is not None:
        return players
    try:
        counts = tuple(game.player_counts(options))
    except (AttributeError, ValueError):  # a module built before player_counts; bad options
        counts = ()
    return min(counts) if counts else int(game.INFO["players"][0])


def targets(paths: list[Path] | None, diagnostics: Diagnostics) -> list[Path]:
    """The paths a command acts on: those given, or the one that no path means here."""
    if paths:
        return paths
    target = default_target(Path.cwd())
    if target is None:
        diagnostics.add("E0004", Span.point("."), NO_TARGET, hint=NO_TARGET_HINT)
        return []
    return [target]


def check(paths: list[Path] | None = None) -> tuple[list[Compilation], Diagnostics]:
    """Parse and check rulebooks; the returned compilations carry their diagnostics."""
    diagnostics = Diagnostics()
    rulebooks = find_rulebooks(targets(paths, diagnostics), diagnostics)
    return [check_rulebook(path) for path in rulebooks], diagnostics


def build_all(
    paths: list[Path] | None = None, out: Path | None = None, check_only: bool = False
) -> tuple[BuildResult, Diagnostics]:
    """Check, then write modules and docs: into out, or where each rulebook's project puts
    them (`compiler.project.output_for`)."""
    diagnostics = Diagnostics()

    def place(rules: Path) -> Path:
        return out if out is not None else output_for(rules, diagnostics)

    # a project's own output folder holds only its rulebooks' outputs: what a rulebook that
    # is gone left there goes too; a folder given with -o may hold anything
    return build(targets(paths, diagnostics), place, check_only, diagnostics,
                 prune=out is None), diagnostics


def _is_path(game: str) -> bool:
    return (game.endswith(".rules") or "/" in game or os.sep in game
            or game in (".", "..") or Path(game).is_absolute())


def folder_rulebook(folder: Path) -> Path:
    """The rulebook of a game folder: its only `.rules` file, or the one named like it."""
    rules = sorted(p for p in folder.glob("*.rules"))
    if len(rules) > 1:
        rules = [p for p in rules if p.stem == resolved(folder).name] or rules
    if len(rules) != 1:
        found = ", ".join(p.name for p in rules)
        raise GameNotFound(f"{display_name(folder)} holds several rulebooks ({found}): name one"
                           if rules else f"no rulebook (.rules) in {display_name(folder)}")
    return rules[0]


def _named(game: str, rules: list[Path]) -> list[Path]:
    """The rulebooks among rules that define game: by name, or a variant on another map
    (`dynasty_builder_continent` is dynasty_builder.rules)."""
    return ([p for p in rules if p.stem == game]
            or [p for p in rules if game.startswith(p.stem + "_")])


def _game_folders(start: Path) -> Iterator[Path]:
    """The folder of start and those above it, up to the first that holds a rulebook (the
    game folder), not beyond the project."""
    project = find_project(start)
    here = resolved(start)
    for folder in (here, *here.parents):
        yield folder
        if holds_rulebooks(folder) or (project and folder == project.root):
            return


def rulebook_path(game: str, near: Path | None = None) -> Path:
    """The rules file of GAME: the path of a `.rules` file or of a game folder (relative to
    near's folder, or to the working directory), or a game's name (`dynasties`, or a variant
    `dynasty_builder_continent`). A name is looked for in the game folder of near (a scenario
    file) or of the working directory, then under the project's rulebooks, and last read as a
    path (`rulecraft play mygame` from the folder above mygame/)."""
    base = resolved(near).parent if near is not None else Path()
    if not _is_path(game):
        found = _by_name(game, base if near is not None else Path.cwd())
        if found is not None:
            return found
        if not os.path.lexists(base / game):
            project = find_project(base)
            where = (f"under {display_name(project.rulebooks)}/" if project else
                     "here, and no project (a folder with rulebooks/ or rulecraft.toml) "
                     "around this folder to look in")
            raise GameNotFound(f"no rulebook named {game!r} {where}")
    path = base / game
    problem = path_problem(path)
    if problem is not None:
        raise GameNotFound(f"{display_name(path)}: {problem}")
    if path.is_dir():
        return folder_rulebook(path)
    if path.suffix != ".rules":
        raise GameNotFound(f"{display_name(path)} is not a rulebook (.rules) or a game folder")
    return path


def _by_name(game: str, start: Path) -> Path | None:
    """The rulebook of the game named game in the game folder of start, or in its project."""
    for folder in _game_folders(start):
        matches = _named(game, sorted(folder.glob("*.rules")))
        if matches:
            return matches[0]
    project = find_project(start)
    if project is not None:
        matches = _named(game, sorted(project.rulebooks.rglob("*.rules")))
        if matches:
            return matches[0]
    return None


_LOADED: dict[tuple[Path, str], tuple[GameModel, ModuleType]] = {}


def load_game(game: str, near: Path | None = None) -> ModuleType:
    """Compile a rulebook now and return its module, as `generated/<game>.py` would be; GAME
    is found as `rulebook_path` says. Nothing is written to disk."""
    return load_game_model(game, near)[1]


def load_game_model(game: str, near: Path | None = None) -> tuple[GameModel, ModuleType]:
    """load_game, with the checked model the module was generated from: what the players'
    views (`rulecraft serve`, `play`, `print`) draw boards and card faces from."""
    path = rulebook_path(game, near)
    key = (resolved(path), game)
    if key in _LOADED:
        return _LOADED[key]
    compilation = check_rulebook(path)
    if not compilation.ok or compilation.model is None:
        name = display_name(path)
        raise GameNotFound(f"{name} does not compile; run `rulecraft check {name}`", compilation)
    model = compilation.model
    if model.name != game and not _is_path(game):
        model = next((v.model for v in compilation.variants
                      if v.model is not None and v.model.name == game), model)
    from compiler.pygen import load_python  # the generator, only for a game to play

    module = load_python(model)
    _LOADED[key] = (model, module)
    return model, module


def shipped_games() -> list[str]:
    """The names of the games compiled into the `generated` package, found, not listed."""
    import generated

    folder = Path(generated.__file__).resolve().parent
    return sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
