"""Parsing: source text → AST (dsl.nodes). Lark trees stay inside the parsing modules: this one,
dsl.ast_builder (tree → AST), dsl.effect_shapes (effects parsed by shape), dsl.syntax_errors and
dsl.keyword_lexer (the Lark parser).

Bad input of any kind becomes diagnostics: unreadable bytes, oversized files, runaway nesting and
syntax errors, each with a location and, for common mistakes, a message in the language's words.
"""

from __future__ import annotations

import stat
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.effect_parser import parse_effect_fast
from dsl.lexical import MAX_INT_DIGITS
from dsl.nesting import nesting_ok, too_deep
from dsl.source import SourceFile, Span

if TYPE_CHECKING:
    from lark import Token, Tree

    from dsl.effect_shapes import EffectShapes

# Lark and the modules around it are imported when a text is given to Lark: a rulebook kept by
# dsl.parse_cache, and effect texts that dsl.effect_parser reads, need none of them.

MAX_SOURCE_BYTES = 16 * 1024 * 1024


def read_source(path: Path, name: str, diagnostics: Diagnostics) -> SourceFile | None:
    """Read a file as UTF-8, reporting instead of raising when it cannot be used."""
    origin = Span.point(name)
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # a pipe or a device would be read for ever
            diagnostics.add("E0004", origin, "not a file that can be read: a folder, a pipe or "
                            "a device", hint="name a rulebook or data file")
            return None
        size = status.st_size
        if size > MAX_SOURCE_BYTES:
            diagnostics.add(
                "E0005",
                origin,
                f"file is {size:,} bytes; the limit is {MAX_SOURCE_BYTES:,}",
                hint="split it into several files",
            )
            return None
        data = path.read_bytes()
    except OSError as error:
        diagnostics.add("E0004", origin, f"cannot read file: {error.strerror or error}")
        return None
    return decode_source(data, name, diagnostics)


def decode_source(data: bytes, name: str, diagnostics: Diagnostics) -> SourceFile | None:
    if b"\x00" in data:
        diagnostics.add("E0004", Span.point(name), "file is binary (it contains NUL bytes)")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        diagnostics.add(
            "E0004",
            Span.point(name, line, column),
            f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})",
            hint="save the file as UTF-8",
        )
        return None
    return SourceFile(name, text.removeprefix("\ufeff"))


def parse(source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
    """Parse one rules file; None (with diagnostics) when it is not valid."""
    if not source.text.strip():
        diagnostics.add("E0007", Span.point(source.name), "file is empty")
        return None
    module = _build(source, "start", (0, 0), diagnostics)
    if module is None:
        return None
    assert isinstance(module, n.Module)
    if not module.declarations:
        diagnostics.add("E0007", Span.point(source.name), "file has no declarations",
                        hint="a rulebook starts with: game NAME { ... }")
        return None
    return module


def parse_effect(
    text: str,
    source: SourceFile,
    shift: tuple[int, int],
    diagnostics: Diagnostics,
    shapes: EffectShapes | None = None,
) -> n.Block | None:
    """Parse the statements of an effect held in a data file (a card set). Positions in `text`
    plus `shift` (lines, columns) are positions in `source`, the data file. Texts that
    dsl.effect_parser reads are not given to Lark (the result is the same). With `shapes`, the
    others that differ only in their numbers share one parse (the result is the same)."""
    if not text.strip():
        return n.Block((), span=Span.point(source.name, 1 + shift[0], 1 + shift[1]))
    # The hand-written parser first: it reads a card's text faster than a shape's template is
    # copied (10,000 varied cards: 607 texts of a shape met before, parsed in 0.018 s, copied in
    # 0.03 s, after 0.06 s spent finding shapes). Shapes save Lark's parses of the rest.
    fast = parse_effect_fast(text, source.name, shift)
    if fast is not None:
        return fast  # a text that parses cleanly: no diagnostics
    if shapes is not None:
        moved = shapes.block(text, source.name, shift)
        if moved is not None:
            return moved  # a text that parses cleanly: no diagnostics
    local = Diagnostics()
    own = SourceFile(source.name, text)
    tree = shapes.tree(text) if shapes is not None else None
    if tree is not None:
        block = _to_ast(tree, own, shift, local)
    else:
        block = _build(own, "effect_body", shift, local)
    dl, dc = shift
    for d in local.items:
        s = d.span
        diagnostics.items.append(replace(d, span=Span(s.file, s.line + dl, s.column + dc,
                                                      s.end_line + dl, s.end_column + dc)))
    assert block is None or isinstance(block, n.Block)
    return block


def _build(
    source: SourceFile, start: str, shift: tuple[int, int], diagnostics: Diagnostics
) -> n.Node | None:
    """Parse source.text from the grammar rule `start` and build its AST, with spans moved by
    `shift`; diagnostics are in the text's own coordinates."""
    from lark.exceptions import UnexpectedInput

    from dsl.keyword_lexer import lark_parser

    if not nesting_ok(source, diagnostics):
        return None
    try:
        tree = lark_parser().parse(source.text, start=start)
    except UnexpectedInput as error:
        from dsl.syntax_errors import report_syntax_error

        report_syntax_error(error, source, start, diagnostics)
        return None
    return _to_ast(tree, source, shift, diagnostics)


def _to_ast(
    tree: Tree[Token], source: SourceFile, shift: tuple[int, int], diagnostics: Diagnostics
) -> n.Node | None:
    from lark.exceptions import VisitError

    from dsl.ast_builder import AstBuilder, NumberTooLarge

    try:
        node = AstBuilder(source, shift).transform(tree)
    except VisitError as error:
        cause = error.orig_exc
        if isinstance(cause, NumberTooLarge):
            diagnostics.add("E0001", cause.span, "this number is too large",
                            hint=f"numbers have at most {MAX_INT_DIGITS} digits")
            return None
        if not isinstance(cause, RecursionError):
            raise
        too_deep(source, diagnostics)
        return None
    except RecursionError:
        too_deep(source, diagnostics)
        return None
    assert isinstance(node, n.Node)
    return node
