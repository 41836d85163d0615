"""The pipeline, readable in one function: parse → resolve → typecheck → reach → generate."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from compiler.model import GameModel
from compiler.reach import reach
from compiler.resolve import resolve
from compiler.typecheck import typecheck
from dsl.diagnostics import Diagnostics
from dsl.parser import parse, read_source
from dsl.source import SourceFile, Span, display_name

Pass = Callable[[GameModel, Diagnostics], None]
CHECKS: tuple[tuple[str, Pass], ...] = (("typecheck", typecheck), ("reach", reach))


@dataclass
class Compilation:
    """One rulebook's journey through the pipeline."""

    path: Path
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    model: GameModel | None = None

    @property
    def ok(self) -> bool:
        return self.model is not None and not self.diagnostics.has_errors


def check_rulebook(path: Path, root: Path | None = None) -> Compilation:
    """Parse and check one `.rules` file; the model is kept only when parsing succeeded."""
    result = Compilation(path)
    name = display_name(path)
    diagnostics = result.diagnostics
    try:
        source = read_source(path, name, diagnostics)
        if source is None:
            return result
        result.sources[name] = source
        module = parse(source, diagnostics)
        if module is None:
            return result
        model = GameModel(sources=result.sources, modules=[module])
        resolve(model, diagnostics, root)
        for _stage, check in CHECKS:
            check(model, diagnostics)
        result.model = model
    except RecursionError:
        diagnostics.add("E0006", Span.point(name), "the rulebook is nested too deeply to check")
    except Exception as error:  # noqa: BLE001 - never a traceback for the user
        detail = traceback.format_exception_only(type(error), error)[-1].strip()
        diagnostics.add(
            "E0000", Span.point(name), f"the compiler failed while checking: {detail}"
        )
    return result
