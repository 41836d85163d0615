"""Rulecraft: rules as data, compiled to checked, playable Python and readable rulebooks.

The public Python API (README, "The Python API"): check, build and load games compiled from
rulebooks. Everything else in `compiler` and `dsl` is internal and may change. The package holds
the passes, the checked model, the back ends, the driver, the scenario runner and the command
line; the language it compiles lives in `dsl`, which never imports it. Names are imported lazily,
on first use, so that `import compiler` and its submodules stay light.
"""

from __future__ import annotations

import importlib
from typing import Any

from dsl import __version__ as __version__

_EXPORTS = {
    "Action": "dsl.runtime",
    "IllegalAction": "dsl.runtime",
    "RuleError": "dsl.runtime",
    "Diagnostic": "dsl.diagnostics",
    "render": "dsl.diagnostics",
    "GameNotFound": "compiler.api",
    "build_all": "compiler.api",
    "check": "compiler.api",
    "load_game": "compiler.api",
    "rulebook_path": "compiler.api",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'compiler' has no attribute {name!r}")
