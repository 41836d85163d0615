"""The public Python API: check, build, load and run games compiled from rulebooks."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from compiler.build import BuildResult, build, find_rulebooks
from compiler.driver import Compilation, check_rulebook
from compiler.pygen import load_python
from dsl.diagnostics import Diagnostics

DEFAULT_RULEBOOKS = Path("rulebooks")


class GameNotFound(Exception):  # noqa: N818 - reads as a sentence at the call site
    """No rulebook by that name, or the rulebook does not compile."""


def check(paths: list[Path] | None = None) -> tuple[list[Compilation], Diagnostics]:
    """Parse and check rulebooks; the returned compilations carry their diagnostics."""
    diagnostics = Diagnostics()
    rulebooks = find_rulebooks(paths or [DEFAULT_RULEBOOKS], diagnostics)
    return [check_rulebook(path) for path in rulebooks], diagnostics


def build_all(
    paths: list[Path] | None = None, out: Path = Path("generated"), check_only: bool = False
) -> tuple[BuildResult, Diagnostics]:
    diagnostics = Diagnostics()
    return build(paths or [DEFAULT_RULEBOOKS], out, check_only, diagnostics), diagnostics


def rulebook_path(game: str, search: Path = DEFAULT_RULEBOOKS) -> Path:
    """A game's name (`dynasties`) or the path of its `.rules` file → the rules file."""
    path = Path(game)
    if path.suffix == ".rules" and path.is_file():
        return path
    matches = sorted(search.rglob(f"{game}.rules")) if search.is_dir() else []
    if not matches and search.is_dir():  # a variant on another map: dynasty_builder_continent
        matches = sorted(p for p in search.rglob("*.rules") if game.startswith(p.stem + "_"))
    if not matches:
        raise GameNotFound(f"no rulebook named {game!r} under {search}/")
    return matches[0]


_LOADED: dict[tuple[Path, str], ModuleType] = {}


def load_game(game: str) -> ModuleType:
    """Compile a rulebook now and return its module, as `generated/<game>.py` would be."""
    path = rulebook_path(game).resolve()
    key = (path, game)
    if key in _LOADED:
        return _LOADED[key]
    compilation = check_rulebook(path)
    if not compilation.ok or compilation.model is None:
        raise GameNotFound(f"{path} does not compile; run `rulecraft check {path}`")
    model = compilation.model
    if model.name != game and Path(game).suffix != ".rules":
        model = next((v.model for v in compilation.variants
                      if v.model is not None and v.model.name == game), model)
    module = load_python(model)
    _LOADED[key] = module
    return module
