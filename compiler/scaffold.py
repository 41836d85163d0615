"""`rulecraft new NAME [DIR]`: a game folder that checks, builds, passes its scenarios and plays.

The files are package data (`compiler/templates/new/*.tmpl`), so an installed Rulecraft writes
the same bytes as a checkout: `__NAME__` becomes the game's name and `__TITLE__` its title.
"""

from __future__ import annotations

import keyword
import re
from importlib import resources
from pathlib import Path

from dsl.lexical import RESERVED_WORDS

# template file → the file it becomes, in the game folder
FILES = {
    "game.rules.tmpl": "{name}.rules",
    "game.cards.yaml.tmpl": "{name}.cards.yaml",
    "starter.deck.yaml.tmpl": "decks/starter.deck.yaml",
    "game.scenario.yaml.tmpl": "{name}.scenario.yaml",
    "rulecraft.toml.tmpl": "rulecraft.toml",
    "README.md.tmpl": "README.md",
}
_GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}\Z")


class ScaffoldError(Exception):
    """The game cannot be made there: a bad name, a folder in the way."""


def name_problem(name: str) -> str | None:
    """Why name cannot name a game (its rulebook, its module and its folder), or None."""
    if not _GAME_NAME.match(name):
        return (f"{name!r} is not a game name: use up to 64 lower-case letters, digits and _, "
                "starting with a letter (my_game)")
    if name in RESERVED_WORDS or keyword.iskeyword(name):
        return f"{name!r} is not a game name: it is a reserved word"
    return None


def title_of(name: str) -> str:
    return " ".join(word.capitalize() for word in name.split("_") if word)


def files_of(name: str) -> dict[str, str]:
    """The game folder's files, by path inside it."""
    templates = resources.files("compiler") / "templates" / "new"
    files = {}
    for template, target in FILES.items():
        text = (templates / template).read_text(encoding="utf-8")
        files[target.format(name=name)] = (text.replace("__NAME__", name)
                                           .replace("__TITLE__", title_of(name)))
    return files


def new_game(name: str, parent: Path) -> Path:
    """Write the game folder parent/name and return it. Refuses a bad name and a folder that
    is not empty; never overwrites a file."""
    problem = name_problem(name)
    if problem is not None:
        raise ScaffoldError(problem)
    folder = parent / name
    try:
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise ScaffoldError(f"{folder} already exists and is not an empty folder: choose "
                                "another name or folder")
        for path, text in files_of(name).items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("x", encoding="utf-8", newline="\n") as file:
                file.write(text)
    except OSError as error:
        raise ScaffoldError(f"cannot write {error.filename or folder}: "
                            f"{error.strerror or error}") from error
    return folder
