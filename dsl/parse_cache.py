"""Parsed rulebooks kept between runs, in the user's cache folder (dsl.user_cache), so that
checking a rulebook again, or a changed card set of it, does not parse the rulebook with Lark
again (0.13 s for Ruler's Gambit; rebuilding its AST from an entry takes 0.01 s).

Card sets are not kept: the fast reader (dsl.fastcards) reads 10,000 cards in 1.1 s, and
decoding their 13 MB of AST from JSON took 1.5 s (measured 2026-11-26).

An entry is the AST of one rulebook that parsed without a diagnostic, found by the SHA-256 of
its text and of the parser itself (every source file of `dsl` and the grammar): any change to
either is another entry. The file's name is not part of it: spans are kept without it and
given the name of the file being read.

Entries are JSON, never pickle or marshal, and each carries an HMAC-SHA256 of its text under a
random key made for this user's cache folder (kept there, readable by the user alone), so
that an entry is read only if this user's rulecraft wrote it: the AST decides what code the
deck check compiles and runs, so a planted entry must not be taken for one. A file that fails
the HMAC, cannot be decoded or names an unknown node class is a miss, and the file is parsed.
`rulecraft --no-cache` (or RULECRAFT_CACHE_DIR="") reads and writes none.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.lexical import GRAMMAR_RESOURCE
from dsl.parser import parse
from dsl.source import SourceFile, Span
from dsl.user_cache import private, private_subfolder

FOLDER = "parsed"  # under the cache folder
KEEP = 64  # entries kept; the least recently written go first
ENABLED = [True]  # [False]: `--no-cache`

# The encoding: a node is [class number, its fields but the span..., line, column, end line,
# end column]; a tuple is [-1, items...]; a span elsewhere [-2, line, column, end line, end
# column]; a node met before (one object in two places of the tree, kept so) [-3, its number
# in the order nodes were finished]. Strings, numbers, booleans and None are themselves.
_TUPLE, _SPAN, _SEEN = -1, -2, -3


class _Unfit(Exception):  # noqa: N818 - a signal: this tree is not kept
    pass


@functools.cache
def _classes() -> tuple[tuple[type[n.Node], tuple[str, ...], tuple[Any, ...], Any], ...]:
    """Each node class with its fields but the span, their slots' setters and the span's."""
    found = []
    for name in sorted(dir(n)):
        cls = getattr(n, name)
        if isinstance(cls, type) and issubclass(cls, n.Node) and cls.__module__.startswith("dsl."):
            names = tuple(f.name for f in dataclasses.fields(cls) if f.name != "span")
            setters = tuple(_slot(cls, f).__set__ for f in names)
            found.append((cls, names, setters, _slot(cls, "span").__set__))
    return tuple(found)


def _slot(cls: type, name: str) -> Any:
    return next(vars(owner)[name] for owner in cls.__mro__ if name in vars(owner))


@functools.cache
def fingerprint() -> bytes:
    """The parser's own identity: the source of every module of `dsl`, the grammar, the node
    classes and the encoding. Any change to any of them makes every entry another one."""
    digest = hashlib.sha256(b"rulecraft parse cache 1\n")
    package = Path(__file__).resolve().parent
    for file in sorted(package.glob("*.py")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    digest.update(GRAMMAR_RESOURCE.read_bytes())
    for cls, names, _, _ in _classes():
        digest.update(f"{cls.__name__}({','.join(names)})".encode())
    return digest.digest()


def _key(kind: str, text: str, extra: str) -> str:
    digest = hashlib.sha256(fingerprint())
    for part in (kind, extra, text):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def _secret(folder: Path) -> bytes | None:
    """This cache folder's HMAC key, made the first time (readable by this user alone)."""
    file = folder / "key"
    try:
        try:
            descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(descriptor, "wb") as out:
                out.write(secrets.token_bytes(32))
        if not private(file) or file.stat().st_mode & 0o077:
            return None
        key = file.read_bytes()
    except OSError:
        return None
    return key if len(key) == 32 else None


def _place() -> tuple[Path, bytes] | None:
    if not ENABLED[0]:
        return None
    place = private_subfolder(FOLDER)
    if place is None:
        return None
    secret = _secret(place.parent)
    return None if secret is None else (place, secret)


# ---- encoding


def _encode(tree: n.Node, file: str) -> list[Any]:
    numbers = {cls: i for i, (cls, _, _, _) in enumerate(_classes())}
    fields = {cls: names for cls, names, _, _ in _classes()}
    done: dict[int, int] = {}

    def encode(value: Any) -> Any:
        if isinstance(value, n.Node):
            seen = done.get(id(value))
            if seen is not None:
                return [_SEEN, seen]
            kind = type(value)
            number = numbers.get(kind)
            span = value.span
            if number is None or span.file != file:
                raise _Unfit
            out = [number, *(encode(getattr(value, f)) for f in fields[kind]), span.line,
                   span.column, span.end_line, span.end_column]
            done[id(value)] = len(done)
            return out
        if isinstance(value, tuple):
            return [_TUPLE, *(encode(v) for v in value)]
        if isinstance(value, Span):
            if value.file != file:
                raise _Unfit
            return [_SPAN, value.line, value.column, value.end_line, value.end_column]
        if value is None or isinstance(value, (str, bool, int)):
            return value
        raise _Unfit

    out = encode(tree)
    assert isinstance(out, list)
    return out


def _decode(data: Any, file: str) -> n.Node:
    classes = _classes()
    made: list[n.Node] = []
    new = object.__new__

    def decode(value: Any) -> Any:
        if type(value) is not list:
            return value
        tag = value[0]
        if tag >= 0:
            cls, names, setters, set_span = classes[tag]
            count = len(names)
            if len(value) != count + 5:
                raise ValueError("a node of another shape")
            node = new(cls)
            for setter, item in zip(setters, value[1:count + 1], strict=True):
                setter(node, decode(item))
            set_span(node, Span(file, *value[count + 1:]))
            made.append(node)
            return node
        if tag == _TUPLE:
            return tuple([decode(v) for v in value[1:]])
        if tag == _SPAN:
            return Span(file, *value[1:])
        if tag == _SEEN:
            return made[value[1]]
        raise ValueError("an unknown tag")

    tree = decode(data)
    if not isinstance(tree, n.Node):
        raise ValueError("no node")
    return tree


# ---- reading and writing entries


def load(kind: str, source: SourceFile, extra: str = "") -> n.Node | None:
    """The kept AST of this text, with spans in source.name; None when none is kept."""
    place = _place()
    if place is None:
        return None
    folder, secret = place
    file = folder / f"{_key(kind, source.text, extra)}.json"
    try:
        data = file.read_bytes()
    except OSError:
        return None
    mac, _, body = data.partition(b"\n")
    if not hmac.compare_digest(mac, hmac.new(secret, body, "sha256").hexdigest().encode()):
        return None
    try:
        return _decode(json.loads(body), source.name)
    except (ValueError, TypeError, IndexError, KeyError, RecursionError):
        return None


def store(kind: str, source: SourceFile, tree: n.Node, extra: str = "") -> None:
    """Keep the AST of this text (silently nothing when it cannot be kept)."""
    place = _place()
    if place is None:
        return
    folder, secret = place
    try:
        body = json.dumps(_encode(tree, source.name), separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (_Unfit, RecursionError, ValueError):
        return
    mac = hmac.new(secret, body, "sha256").hexdigest().encode()
    file = folder / f"{_key(kind, source.text, extra)}.json"
    partial = folder / f".{file.name}.{os.getpid()}"
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(mac + b"\n" + body)
        os.replace(partial, file)
        _prune(folder)
    except OSError:
        return


def _prune(folder: Path) -> None:
    entries = list(folder.glob("*.json"))
    if len(entries) <= KEEP:
        return
    entries.sort(key=lambda entry: entry.stat().st_mtime)
    for entry in entries[:-KEEP]:
        entry.unlink(missing_ok=True)


# ---- what the driver calls


def parse_rulebook(source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
    """dsl.parser.parse, from the cache when this text was parsed before without diagnostics."""
    kept = load("rules", source)
    if isinstance(kept, n.Module):
        return kept
    errors = len(diagnostics.items)
    module = parse(source, diagnostics)
    if module is not None and len(diagnostics.items) == errors:
        store("rules", source, module)
    return module
