"""Rulecraft: rules as data, compiled to checked, playable Python and readable rulebooks.

The public API; everything else in `dsl` and `compiler` is internal and may change. Names are
imported lazily so that generated game modules, which import only `dsl.runtime`, stay light.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Action": "dsl.runtime",
    "IllegalAction": "dsl.runtime",
    "RuleError": "dsl.runtime",
    "Diagnostic": "dsl.diagnostics",
    "render": "dsl.diagnostics",
    "GameNotFound": "dsl.api",
    "build_all": "dsl.api",
    "check": "dsl.api",
    "load_game": "dsl.api",
    "rulebook_path": "dsl.api",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'dsl' has no attribute {name!r}")
