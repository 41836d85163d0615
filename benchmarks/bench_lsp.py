"""How long the language server takes from a keystroke to diagnostics, in milliseconds.

    lsp.<game>.keystroke_p50_ms / _p95_ms   one character typed in the rulebook (by turns a
                                            harmless space in a comment, a misspelt name that
                                            brings a diagnostic, and a syntax error), each
                                            made in the original text, so that each also
                                            undoes the one before: the check that the server
                                            runs on didChange (compiler.lsp.analysis.Analysis.of
                                            with the edited text), in process
    lsp.<game>.<kind>_p50_ms / _p95_ms      the same, for each kind of keystroke alone
    lsp.<game>.cpu_p50_ms / _p95_ms         the processor time of the same checks
                                            (time.thread_time), which the machine's load moves
                                            less than the wall clock
    lsp.<game>.typing_<kind>_p50_ms / _p95_ms / _cpu_p95_ms
                                            characters of one kind typed one after another (a
                                            run of spaces in the comment, of letters in the
                                            name, of letters in the parameter list), as a
                                            designer types
    lsp.<game>.stdio_p50_ms / _p95_ms       the same as keystroke_, measured by a client:
                                            didChange sent over stdio to `rulecraft lsp` until
                                            the rulebook's publishDiagnostics arrives
    lsp.<game>.format_ms                    `rulecraft fmt` of the rulebook (document
                                            formatting), median

The target of issue 18 is a p95 under 50 ms for a full rulebook (rulers_gambit); figures in
docs/performance.md. The server parses again only the declarations an edit changed, and a
syntax error from its declaration alone where that words it as the whole file's parse does;
reads a card set or deck again only when its text changed; and gives back an earlier check
when the parse, card sets and decks are the very same (a comment, an undo)
(compiler.lsp.incremental). Otherwise resolve, typecheck and the checks run on the whole
rulebook.

Usage: python -m benchmarks.bench_lsp [--game rulers_gambit] [--keystrokes N] [--no-stdio]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from compiler.fmt import format_source
from compiler.lsp.analysis import Analysis
from dsl.diagnostics import Diagnostics
from dsl.source import SourceFile, resolved

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_KEYSTROKES = 60


KINDS = ("comment", "name", "syntax")


def _places(text: str) -> dict[str, int]:
    """Where each kind of keystroke is typed: after the first comment's '#', before the
    first name an `if` tests (an unknown name: resolve and typecheck report it) and into a
    function's parameter list (a syntax error)."""
    tested = re.search(r"^\s+if ([a-z_])", text, re.MULTILINE)
    assert tested is not None
    return {"comment": text.index("#") + 1, "name": tested.start(1),
            "syntax": text.index(" ", text.index("function ") + len("function ") + 1)}


def _edits(text: str, count: int) -> list[str]:
    """The texts after each keystroke, by turns of KINDS, each made in `text` itself."""
    places = _places(text)
    found = []
    for index in range(count):
        kind = KINDS[index % len(KINDS)]
        at = places[kind]
        # a longer run each time, so that no text comes twice
        typed = (" " if kind == "comment" else "x") * (index // len(KINDS) + 1)
        found.append(text[:at] + typed + text[at:])
    return found


def _typing(text: str, kind: str, count: int) -> list[str]:
    """The texts after each of `count` characters of one kind typed one after another."""
    at = _places(text)[kind]
    typed = " " if kind == "comment" else "x"
    return [text[:at] + typed * (index + 1) + text[at:] for index in range(count)]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def in_process(rules: Path, texts: list[str]) -> list[tuple[float, float]]:
    """The wall-clock and processor time of the check of each text, in milliseconds."""
    Analysis.of(rules, {})  # warm-up: builds the parser
    times = []
    for edited in texts:
        start, cpu = time.perf_counter(), time.thread_time()
        Analysis.of(rules, {resolved(rules): edited}).diagnostics()
        times.append(((time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000))
    return times


def _figures(report: dict[str, float], prefix: str, times: list[tuple[float, float]]) -> None:
    wall = [w for w, _ in times]
    report[f"{prefix}_p50_ms"] = round(statistics.median(wall), 1)
    report[f"{prefix}_p95_ms"] = round(_percentile(wall, 0.95), 1)
    report[f"{prefix}_cpu_p95_ms"] = round(_percentile([c for _, c in times], 0.95), 1)


async def over_stdio(rules: Path, count: int) -> list[float]:
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient

    text = rules.read_text(encoding="utf-8")
    uri = resolved(rules).as_uri()
    client = LanguageClient("bench", "1")
    arrived: asyncio.Queue[str] = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
    def published(params: lsp.PublishDiagnosticsParams) -> None:
        arrived.put_nowait(params.uri)

    async def wait() -> None:
        while await arrived.get() != uri:
            pass

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    await client.start_io(sys.executable, "-m", "compiler", "lsp", env=env)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="rulecraft", version=1, text=text)))
    await wait()
    times = []
    for version, edited in enumerate(_edits(text, count), 2):
        start = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=edited)]))
        await wait()
        times.append((time.perf_counter() - start) * 1000)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_lsp")
    parser.add_argument("--game", default="rulers_gambit")
    parser.add_argument("--keystrokes", type=int, default=DEFAULT_KEYSTROKES)
    parser.add_argument("--no-stdio", action="store_true")
    args = parser.parse_args(argv)
    rules = ROOT / "rulebooks" / args.game / f"{args.game}.rules"
    report: dict[str, float] = {}
    text = rules.read_text(encoding="utf-8")
    times = in_process(rules, _edits(text, args.keystrokes))
    report[f"lsp.{args.game}.keystroke_p50_ms"] = round(statistics.median([w for w, _ in times]), 1)
    report[f"lsp.{args.game}.keystroke_p95_ms"] = round(_percentile([w for w, _ in times], 0.95), 1)
    report[f"lsp.{args.game}.cpu_p50_ms"] = round(statistics.median([c for _, c in times]), 1)
    report[f"lsp.{args.game}.cpu_p95_ms"] = round(_percentile([c for _, c in times], 0.95), 1)
    for offset, kind in enumerate(KINDS):
        _figures(report, f"lsp.{args.game}.{kind}", times[offset::3])
    for kind in KINDS:
        typed = in_process(rules, _typing(text, kind, max(1, args.keystrokes // 3)))
        _figures(report, f"lsp.{args.game}.typing_{kind}", typed)
    if not args.no_stdio:
        stdio = asyncio.run(over_stdio(rules, args.keystrokes))
        report[f"lsp.{args.game}.stdio_p50_ms"] = round(statistics.median(stdio), 1)
        report[f"lsp.{args.game}.stdio_p95_ms"] = round(_percentile(stdio, 0.95), 1)
    source = SourceFile(str(rules), rules.read_text(encoding="utf-8"))
    formats = []
    for _ in range(5):
        start = time.perf_counter()
        format_source(source, Diagnostics())
        formats.append((time.perf_counter() - start) * 1000)
    report[f"lsp.{args.game}.format_ms"] = round(statistics.median(formats), 1)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
