"""The user's own cache folder, where rulecraft keeps what it worked out for the next run: the
parser tables (dsl.keyword_lexer) and parsed files (dsl.parse_cache).

$RULECRAFT_CACHE_DIR, else $XDG_CACHE_HOME/rulecraft, else ~/.cache/rulecraft; "" keeps
nothing. A folder or file that another user owns or may write is never read: what is kept
there decides what code runs (pickled parser tables; rulebooks the deck check compiles).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

CACHE_ENV = "RULECRAFT_CACHE_DIR"  # where to keep things; "" to keep none


def cache_folder() -> Path | None:
    """The cache folder, made if need be; None when it cannot be used privately."""
    folder_text = os.environ.get(CACHE_ENV)
    if folder_text == "":
        return None
    if folder_text is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder_text = os.path.join(base, "rulecraft")
    folder = Path(folder_text)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not private(folder):
            return None
    except (OSError, ValueError, RuntimeError):  # no home folder, a file where the folder goes
        return None
    return folder


def private_subfolder(name: str) -> Path | None:
    """A folder of the cache folder (parsed files, compiled templates), made if need be; None
    when it cannot be used privately."""
    folder = cache_folder()
    if folder is None:
        return None
    place = folder / name
    try:
        place.mkdir(mode=0o700, exist_ok=True)
        if not private(place):
            return None
    except OSError:
        return None
    return place


def private(path: Path) -> bool:
    """Owned by this user and writable by nobody else."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return False  # no owners to compare: keep no cache
    info = path.stat()
    return info.st_uid == getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
