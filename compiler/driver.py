"""The pipeline, readable in one function: parse → resolve → typecheck → reach → generate."""

from __future__ import annotations

import contextlib
import gc
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from compiler.decks import check_decks
from compiler.model import GameModel
from compiler.reach import reach
from compiler.resolve import data_file, resolve
from compiler.typecheck import typecheck
from dsl import nodes as n
from dsl.cardset import load_card_set, load_deck
from dsl.diagnostics import Diagnostics
from dsl.parser import MAX_SOURCE_BYTES, parse, read_source
from dsl.source import SourceFile, Span, display_name

Pass = Callable[[GameModel, Diagnostics], None]
CHECKS: tuple[tuple[str, Pass], ...] = (
    ("typecheck", typecheck),
    ("reach", reach),
    ("decks", check_decks),
)


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


def load_data_files(
    model: GameModel, module: n.Module, root: Path | None, diagnostics: Diagnostics
) -> None:
    """Card sets the rulebook names become more modules; its deck files are read."""
    effect_fields = {
        d.name: {f.name for f in d.fields if isinstance(f.type, n.EffectType)}
        for d in module.declarations
        if isinstance(d, n.RecordDecl) and d.is_card
    }
    for decl in module.declarations:
        if isinstance(decl, n.DecksDecl):
            load_decks(model, decl, root, diagnostics)
        if not isinstance(decl, n.CardsDecl):
            continue
        file = data_file(decl.path, decl.span, root, diagnostics, MAX_SOURCE_BYTES)
        if file is None:
            continue
        name = display_name(file)
        source = read_source(file, name, diagnostics)
        if source is None:
            continue
        model.sources[name] = source
        model.card_sets.append(name)
        cards = load_card_set(source, effect_fields, diagnostics)
        if cards is not None:
            model.modules.append(cards)


def load_decks(
    model: GameModel, decl: n.DecksDecl, root: Path | None, diagnostics: Diagnostics
) -> None:
    base = Path(decl.span.file).resolve().parent
    folder = (base / decl.path).resolve()
    if not folder.is_relative_to((root or base).resolve()) or not folder.is_dir():
        diagnostics.add("E0401", decl.span, f"'{decl.path}' is not a folder inside the "
                        "rulebook's folder", hint="decks \"decks\" names a folder of *.deck.yaml")
        return
    files = sorted(folder.glob("*.deck.yaml"))
    if not files:
        diagnostics.add("E0401", decl.span, f"'{decl.path}' holds no *.deck.yaml files")
    for file in files:
        name = display_name(file)
        source = read_source(file, name, diagnostics)
        if source is None:
            continue
        model.sources[name] = source
        deck = load_deck(source, file.name.removesuffix(".deck.yaml"), diagnostics)
        if deck is not None:
            model.decks.append(deck)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector, as compiling makes hundreds of thousands of objects that
    all live on (YAML nodes, AST, types): each full collection walks every one of them again,
    which took about half the time of checking a big card set. Reference counting still frees
    everything that is not in a cycle; the collector runs again when the block ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def check_rulebook(path: Path, root: Path | None = None) -> Compilation:
    """Parse and check one `.rules` file; the model is kept only when parsing succeeded."""
    with collector_paused():
        return _check(path, root)


def _check(path: Path, root: Path | None) -> Compilation:
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
        load_data_files(model, module, root, diagnostics)
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
