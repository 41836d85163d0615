"""The pipeline, readable in one function: parse → resolve → typecheck → reach → generate."""

from __future__ import annotations

import contextlib
import gc
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from compiler.decks import check_decks
from compiler.model import GameModel
from compiler.reach import reach
from compiler.resolve import resolve
from compiler.resolve_boards import data_file
from compiler.typecheck import typecheck
from dsl import nodes as n
from dsl.cardset import load_card_set, load_deck
from dsl.diagnostics import Diagnostics
from dsl.parse_cache import parse_rulebook
from dsl.parser import MAX_SOURCE_BYTES, read_source
from dsl.source import SourceFile, Span, display_name, resolved

Pass = Callable[[GameModel, Diagnostics], None]


class Sources:
    """Where the driver gets the files of a rulebook and their parses: from disk, with the
    cache of parsed rulebooks (the CLI). The language server gives its own, which reads the
    editor's unsaved texts and keeps what a keystroke did not change (compiler.lsp.analysis)."""

    def read(self, path: Path, name: str, diagnostics: Diagnostics) -> SourceFile | None:
        return read_source(path, name, diagnostics)

    def parse(self, source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
        return parse_rulebook(source, diagnostics)

    def card_set(self, source: SourceFile, effect_fields: dict[str, set[str]],
                 diagnostics: Diagnostics) -> n.Module | None:
        return load_card_set(source, effect_fields, diagnostics)

    def deck(self, source: SourceFile, name: str, diagnostics: Diagnostics) -> n.DeckList | None:
        return load_deck(source, name, diagnostics)

    def checked(self, model: GameModel, diagnostics: Diagnostics, root: Path | None) -> GameModel:
        """The model, its data files loaded, resolved and through every check (the language
        server gives back what an earlier check of the very same parse gave)."""
        run_checks(model, diagnostics, root)
        return model


DISK = Sources()


def check_diagrams(model: GameModel, diagnostics: Diagnostics) -> None:
    """compiler.grid_diagram.check_diagrams, imported only for a rulebook with diagrams."""
    if model.diagrams:
        from compiler.grid_diagram import check_diagrams as check

        check(model, diagnostics)


CHECKS: tuple[tuple[str, Pass], ...] = (
    ("typecheck", typecheck),
    ("reach", reach),
    ("decks", check_decks),
    ("diagrams", check_diagrams),
)


@dataclass
class Compilation:
    """One rulebook's journey through the pipeline."""

    path: Path
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    model: GameModel | None = None
    # The same rules on the board's other maps, each compiled as a game of its own.
    variants: list[Compilation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.model is not None and not self.diagnostics.has_errors


_VARIANT_STEM = re.compile(r"[a-z][a-z0-9_]*\Z")


def variant_name(game: str, map_path: str) -> str | None:
    """The module name of the variant played on map_path: the game's name and the map file's
    name without its suffixes (`dynasty_builder_continent`); None when that is no name."""
    stem = Path(map_path).name.split(".")[0]
    return f"{game}_{stem}" if _VARIANT_STEM.match(stem) else None


def hex_variants(module: n.Module) -> list[tuple[n.BoardDecl, n.HexFile]]:
    return [(d, d.shape) for d in module.declarations
            if isinstance(d, n.BoardDecl) and isinstance(d.shape, n.HexFile) and d.shape.variants]


def on_map(module: n.Module, board: n.BoardDecl, map_path: str) -> n.Module:
    """The rulebook with `board` read from map_path and no other maps listed."""
    assert isinstance(board.shape, n.HexFile)
    shape = replace(board.shape, path=map_path, variants=())
    declarations = tuple(replace(d, shape=shape) if d is board else d
                         for d in module.declarations)
    return replace(module, declarations=declarations)


def load_data_files(
    model: GameModel, module: n.Module, root: Path | None, diagnostics: Diagnostics,
    sources: Sources = DISK,
) -> None:
    """Card sets the rulebook names become more modules; its deck files are read."""
    effect_fields = {
        d.name: {f.name for f in d.fields if isinstance(f.type, n.EffectType)}
        for d in module.declarations
        if isinstance(d, n.RecordDecl) and d.is_card
    }
    for decl in module.declarations:
        if isinstance(decl, n.DecksDecl):
            load_decks(model, decl, root, diagnostics, sources)
        if not isinstance(decl, n.CardsDecl):
            continue
        file = data_file(decl.path, decl.span, root, diagnostics, MAX_SOURCE_BYTES)
        if file is None:
            continue
        name = display_name(file)
        source = sources.read(file, name, diagnostics)
        if source is None:
            continue
        model.sources[name] = source
        model.card_sets.append(name)
        cards = sources.card_set(source, effect_fields, diagnostics)
        if cards is not None:
            model.modules.append(cards)


def load_decks(
    model: GameModel, decl: n.DecksDecl, root: Path | None, diagnostics: Diagnostics,
    sources: Sources = DISK,
) -> None:
    base = resolved(Path(decl.span.file)).parent
    folder = resolved(base / decl.path)
    inside = resolved(root or base)
    if not decl.path.isprintable() or not folder.is_relative_to(inside) or not folder.is_dir():
        diagnostics.add("E0401", decl.span, f"'{decl.path}' is not a folder inside the "
                        "rulebook's folder", hint="decks \"decks\" names a folder of *.deck.yaml")
        return
    files = sorted(folder.glob("*.deck.yaml"))
    if not files:
        diagnostics.add("E0401", decl.span, f"'{decl.path}' holds no *.deck.yaml files")
    for file in files:
        name = display_name(file)
        if not resolved(file).is_relative_to(inside):  # a link to a file elsewhere
            diagnostics.add("E0401", decl.span, f"'{decl.path}/{file.name}' is outside the "
                            "rulebook's folder (a link)", hint="keep deck files in the folder")
            continue
        if not file.name.isprintable():  # a line break in a name would reach messages and code
            diagnostics.add("E0401", decl.span, f"the deck file name {file.name!r} holds a "
                            "line break or another control character", hint="rename the file")
            continue
        source = sources.read(file, name, diagnostics)
        if source is None:
            continue
        model.sources[name] = source
        deck = sources.deck(source, file.name.removesuffix(".deck.yaml"), diagnostics)
        if deck is not None:
            model.decks.append(deck)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector, as compiling makes hundreds of thousands of objects that
    all live on (YAML nodes, AST, types): each full collection walks every one of them again,
    which took about half the time of checking a big card set. Reference counting still frees
    everything that is not in a cycle; the collector runs again when the block ends, with what
    the block made moved to its oldest generation when that is a lot (see Promotions)."""
    was_enabled = gc.isenabled()
    if was_enabled:
        PROMOTIONS.settle()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            PROMOTIONS.promote()
            gc.enable()


class Promotions:
    """Moves the objects a paused block made into the collector's oldest generation, in
    constant time, and sees that the garbage among them is still collected.

    While the collector was paused, every object the compiler made stayed in the youngest
    generation, so the first collection after the pause would walk them all (a quarter of a
    second for 10,000 cards) only to find that they live on. In the oldest generation they are
    walked only by full collections. freeze() then unfreeze() is that move: each merges the
    collector's lists without looking at the objects, and nothing stays frozen. Objects a
    caller froze (for a fork, say) would be unfrozen by it, so then nothing is moved.

    Python runs a full collection when the objects that survived younger collections have grown
    by a quarter; moved objects skip those, so they do not count towards it, and the cycles the
    compiler leaves as garbage would wait for a full collection that may not come while a
    program only compiles. So once `limit` objects have been moved since the last full
    collection (whoever ran it), the next paused block starts with one. Blocks that made fewer
    than `least` objects are not moved at all: walking them is cheap, and a program compiling
    many small rulebooks (the tests) keeps the collector's own schedule."""

    def __init__(self, least: int = 100_000, limit: int = 1_000_000) -> None:
        self.least = least
        self.limit = limit
        self.moved = 0  # objects moved since the last full collection
        gc.callbacks.append(self.noticed)

    def noticed(self, phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == _OLDEST:
            self.moved = 0

    def promote(self) -> None:
        young = gc.get_count()[0]  # made and not freed since the youngest generation's last walk
        if young >= self.least and gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
            self.moved += young

    def settle(self) -> None:
        if self.moved >= self.limit:
            gc.collect()


_OLDEST = len(gc.get_threshold()) - 1
PROMOTIONS = Promotions()


def check_rulebook(
    path: Path, root: Path | None = None, sources: Sources = DISK
) -> Compilation:
    """Parse and check one `.rules` file; the model is kept only when parsing succeeded.
    Each further map of a hex board is checked as a variant, and the variants' own
    diagnostics join the rulebook's. The files are read and parsed by `sources`."""
    with collector_paused():
        return _check(path, root, sources)


def _check(path: Path, root: Path | None, sources: Sources) -> Compilation:
    result = Compilation(path)
    name = display_name(path)
    diagnostics = result.diagnostics
    try:
        source = sources.read(path, name, diagnostics)
        if source is None:
            return result
        result.sources[name] = source
        module = sources.parse(source, diagnostics)
        if module is None:
            return result
        check_module(result, module, root, sources)
        check_variants(result, module, root, sources)
    except RecursionError:
        diagnostics.add("E0006", Span.point(name), "the rulebook is nested too deeply to check")
    except Exception as error:  # noqa: BLE001 - never a traceback for the user
        detail = traceback.format_exception_only(type(error), error)[-1].strip()
        diagnostics.add(
            "E0000", Span.point(name), f"the compiler failed while checking: {detail}"
        )
    return result


def check_module(
    result: Compilation, module: n.Module, root: Path | None, sources: Sources = DISK
) -> None:
    """Load the data files a parsed rulebook names, then run every pass on it."""
    model = GameModel(sources=result.sources, modules=[module])
    load_data_files(model, module, root, result.diagnostics, sources)
    result.model = sources.checked(model, result.diagnostics, root)


def run_checks(model: GameModel, diagnostics: Diagnostics, root: Path | None) -> None:
    resolve(model, diagnostics, root)
    for _stage, check in CHECKS:
        check(model, diagnostics)


def check_variants(
    result: Compilation, module: n.Module, root: Path | None, sources: Sources = DISK
) -> None:
    """Check the parsed rules again on each further map; report only what differs (the map's
    own problems), since the rules' diagnostics are the same on every map."""
    model = result.model
    assert model is not None
    listed = hex_variants(module)
    if len(listed) > 1:
        result.diagnostics.add("E0401", listed[1][1].span,
                               "only one board may list more than one map",
                               hint="each further map makes a variant of the whole game")
        return
    seen = {(d.code, d.span, d.message) for d in result.diagnostics.items}
    for board, shape in listed:
        for map_path in shape.variants:
            name = variant_name(model.name, map_path)
            if name is None:
                result.diagnostics.add(
                    "E0401", shape.span, f"'{map_path}' cannot name a variant of the game",
                    hint="a map file's name starts with a lower-case letter and holds only "
                         "a-z, 0-9 and _ before its first dot: continent.map.yaml")
                continue
            variant = Compilation(result.path, sources=dict(result.sources))
            check_module(variant, on_map(module, board, map_path), root, sources)
            assert variant.model is not None
            variant.model.name = name
            result.sources.update(variant.sources)
            for d in variant.diagnostics.items:
                if (d.code, d.span, d.message) not in seen:
                    seen.add((d.code, d.span, d.message))
                    result.diagnostics.items.append(d)
            model.variants.append((name, map_path))
            result.variants.append(variant)
