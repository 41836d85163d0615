"""Rulecraft's language: sources and spans, the parser and AST, the YAML readers, diagnostics and
their codes, and the runtime that generated game modules import. It imports nothing from
`compiler`, which holds the passes, the back ends and the public API (`import compiler`).

Exported here: the names a generated module's user meets (its actions and errors) and the
diagnostics. They are imported lazily so that generated modules, which import only
`dsl.runtime`, stay light.
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
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'dsl' has no attribute {name!r}")
