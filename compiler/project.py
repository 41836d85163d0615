"""Where a command's files are: the project a path belongs to, its rulebooks and its output.

A project is the nearest folder, from a path upwards, that holds a `rulebooks/` folder or a
`rulecraft.toml` file (DESIGN.md §2). Its rulebooks are under `rulebooks/` when it has one,
else anywhere in it; its build output goes to `generated/`, or to the folder the marker file
names (`output = "..."`). A rulebook that belongs to no project builds into `generated/` beside
itself. Nothing here raises for a path that cannot be used: `path_problem` says what is wrong.
"""

from __future__ import annotations

import errno
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from dsl.diagnostics import Diagnostics
from dsl.source import Span, display_name, resolved

MARKER = "rulecraft.toml"
RULEBOOKS = "rulebooks"
OUTPUT = "generated"
MARKER_KEYS = ("output",)
NO_SUCH_PATH = "no such file or folder"


def path_problem(path: Path) -> str | None:
    """Why path cannot be read (it is missing, a loop of symbolic links, ...), or None."""
    try:
        os.stat(path)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return NO_SUCH_PATH
        if error.errno == errno.ELOOP:
            return "a loop of symbolic links: it never leads to a file"
        return error.strerror or str(error)
    except ValueError as error:  # a NUL byte in the name
        return str(error)
    return None


def holds_rulebooks(folder: Path) -> bool:
    """Whether the folder itself holds a `.rules` file: a game folder."""
    try:
        return any(p.suffix == ".rules" for p in folder.iterdir())
    except OSError:
        return False


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def marker(self) -> Path:
        return self.root / MARKER

    @property
    def rulebooks(self) -> Path:
        """Where the project's rulebooks are: `rulebooks/`, or the whole project."""
        folder = self.root / RULEBOOKS
        return folder if folder.is_dir() else self.root

    def output(self, diagnostics: Diagnostics) -> Path:
        """Where `build` writes: `output` from the marker file, else `generated/`."""
        setting = read_marker(self.marker, diagnostics).get("output", OUTPUT)
        return self.root / setting


def find_project(start: Path) -> Project | None:
    """The project of start (a file or folder): the nearest folder from there upwards that
    holds a `rulebooks/` folder or a `rulecraft.toml`."""
    here = resolved(start)
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        if (folder / RULEBOOKS).is_dir() or (folder / MARKER).is_file():
            return Project(folder)
    return None


def default_target(cwd: Path) -> Path | None:
    """What a command with no path acts on: the game folder it runs in (the nearest folder
    from cwd upwards that holds a rulebook, below the project's root), else every rulebook of
    the project around it; None when it runs in neither."""
    project = find_project(cwd)
    here = resolved(cwd)
    for folder in (here, *here.parents):
        if project is not None and folder == project.root:
            return project.rulebooks
        if holds_rulebooks(folder):
            return folder
    return None


NO_TARGET = ("no rulebook here: neither this folder nor one above it holds a .rules file, a "
             f"{RULEBOOKS}/ folder or a {MARKER}")
NO_TARGET_HINT = "name a rulebook or its folder, or start a game with `rulecraft new NAME`"


def output_for(rules: Path, diagnostics: Diagnostics) -> Path:
    """Where `build` writes a rulebook's modules and docs when no -o is given: the project's
    output, or `generated/` beside a rulebook that belongs to no project."""
    project = find_project(rules)
    return project.output(diagnostics) if project else resolved(rules).parent / OUTPUT


_TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)")


def read_marker(path: Path, diagnostics: Diagnostics) -> dict[str, str]:
    """The settings of a `rulecraft.toml` (an empty one is only a marker). A broken file is
    E0401 and its settings are left at their defaults."""
    if not path.is_file():
        return {}
    name = display_name(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        diagnostics.add("E0401", Span.point(name), f"cannot read {MARKER}: {error}")
        return {}
    except tomllib.TOMLDecodeError as error:
        place = _TOML_PLACE.search(str(error))
        line, column = (int(place[1]), int(place[2])) if place else (1, 1)
        message = _TOML_PLACE.sub("", str(error)).strip()
        diagnostics.add("E0401", Span.point(name, line, column), f"{MARKER} is not TOML: {message}")
        return {}
    settings: dict[str, str] = {}
    for key, value in data.items():
        if key not in MARKER_KEYS:
            diagnostics.add("E0401", Span.point(name), f"{MARKER} has no setting '{key}'",
                            hint=f"the settings are: {', '.join(MARKER_KEYS)}")
        elif not isinstance(value, str) or not value:
            diagnostics.add("E0401", Span.point(name), f"'{key}' in {MARKER} must be a folder "
                            "name in quotes", hint='output = "generated"')
        else:
            settings[key] = value
    return settings
