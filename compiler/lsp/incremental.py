"""Parsing a rules file declaration by declaration, keeping the parse of each declaration
whose text and place did not change: a keystroke parses again only the declaration it is in.

A file is cut before each top-level declaration (with the comments, doc comments and
annotations just above it). Each piece is parsed on its own, after as many empty lines as come
before it in the file, so that its spans and `##` docs are those of a parse of the whole file.
Whenever a piece does not parse cleanly, or the file cannot be cut, the whole file is parsed as
`rulecraft check` parses it: the diagnostics are always the CLI's.
"""

from __future__ import annotations

from compiler.fmt import _DECLARATION_WORDS, _OPEN_ENDS, _TOKEN
from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.parser import _build, parse
from dsl.source import SourceFile, Span


def pieces(text: str) -> list[tuple[int, str]] | None:
    """(index of the first line, text) of each top-level declaration with its lead-in."""
    lines = text.split("\n")
    starts: list[int] = []
    depth = 0
    last = ""  # the last code token so far
    lead_in: int | None = None  # the first line of comments/annotations right above
    for number, line in enumerate(lines):
        first = ""
        tokens = []
        position = 0
        while position < len(line):
            match = _TOKEN.match(line, position)
            if match is None:
                return None
            position = match.end()
            if match.lastgroup not in ("space", "comment"):
                tokens.append(match.group())
        first = tokens[0] if tokens else ""
        stripped = line.strip()
        if depth == 0 and (first in _DECLARATION_WORDS or first.startswith("@")) \
                and last not in _OPEN_ENDS and (len(tokens) < 2 or tokens[1] != ":"):
            start = lead_in if lead_in is not None else number
            if not starts or start > starts[-1]:
                starts.append(start)
        if stripped.startswith("#") or (first.startswith("@") and len(tokens) == len(
                [t for t in tokens if t.startswith("@")])):
            if lead_in is None:
                lead_in = number
        else:
            lead_in = None
        for token in tokens:
            if token in ("{", "(", "["):
                depth += 1
            elif token in ("}", ")", "]"):
                depth -= 1
            last = token
    if not starts:
        return None
    starts[0] = 0
    bounds = [*starts, len(lines)]
    return [(a, "\n".join(lines[a:b])) for a, b in zip(bounds, bounds[1:], strict=False)]


class IncrementalParser:
    """The parse of each piece of one file, kept from one call to the next."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, int, str], tuple[n.Decl, ...]] = {}

    def parse(self, source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
        cut = pieces(source.text) if source.text.strip() else None
        if cut is None:
            return parse(source, diagnostics)
        kept: dict[tuple[str, int, str], tuple[n.Decl, ...]] = {}
        declarations: list[n.Decl] = []
        for first_line, text in cut:
            key = (source.name, first_line, text)
            found = self.kept.get(key)
            if found is None:
                local = Diagnostics()
                module = _build(SourceFile(source.name, "\n" * first_line + text), "start",
                                (0, 0), local)
                if not isinstance(module, n.Module) or local.items:
                    return parse(source, diagnostics)
                found = module.declarations
            kept[key] = found
            declarations.extend(found)
        if not declarations:
            return parse(source, diagnostics)
        self.kept = kept
        whole = parse_span(source, declarations)
        return n.Module(tuple(declarations), span=whole)


def parse_span(source: SourceFile, declarations: list[n.Decl]) -> Span:
    """The span a parse of the whole file gives its module: from the first declaration's
    first token (its annotations') to the last one's end."""
    first, last = declarations[0], declarations[-1]
    start = first.annotations[0].span if first.annotations else first.span
    return Span(source.name, start.line, start.column, last.span.end_line, last.span.end_column)
