"""Source files and spans: where every AST node, diagnostic and generated line points back to."""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

_T = TypeVar("_T")


def faster_init(cls: type[_T]) -> type[_T]:
    """Give a frozen, slotted dataclass a faster __init__, the same in every other way.

    The __init__ dataclasses writes for a frozen class sets each field with
    object.__setattr__(self, name, value), which finds the field's slot descriptor anew each
    time; this one calls the slot descriptors' __set__ directly: spans and nodes are built by
    the hundred thousand when reading a big card set, and this builds them about a third
    faster. The signature (names, kinds, defaults, annotations) is the original's; a class this
    does not cover (a __post_init__, a default factory, a field not in __init__, a field
    without a slot) keeps its own __init__.
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    original = vars(cls).get("__init__")
    if original is None:  # a class made without one (dsl.nodes_base.node_dataclass)
        original = _dataclass_init_facts(cls, fields)
    if (hasattr(cls, "__post_init__") or "__slots__" not in vars(cls)
            or any(not f.init or f.default_factory is not dataclasses.MISSING for f in fields)):
        return cls
    setters: dict[str, Any] = {}
    for f in fields:
        slot = next((vars(owner)[f.name] for owner in cls.__mro__ if f.name in vars(owner)), None)
        if slot is None or not hasattr(slot, "__set__"):
            return cls
        setters[f"_set_{f.name}"] = slot.__set__
    # dataclasses orders __init__'s parameters so: the fields that are not keyword-only, then
    # those that are, each in field order (reading them with inspect.signature cost a fifth of
    # the start-up's imports)
    positional = [f.name for f in fields if not f.kw_only]
    keyword = [f.name for f in fields if f.kw_only]
    arguments = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    body = "".join(f"    _set_{f.name}(self, {f.name})\n" for f in fields) or "    pass\n"
    namespace: dict[str, Any] = {}
    exec(f"def __init__({arguments}):\n{body}", setters, namespace)  # field names only
    init = namespace["__init__"]
    # named as the original in tracebacks and argument errors ("Span.__init__() missing ...")
    init.__code__ = init.__code__.replace(co_qualname=original.__qualname__)
    init.__defaults__ = original.__defaults__
    init.__kwdefaults__ = original.__kwdefaults__
    init.__annotations__ = original.__annotations__
    init.__qualname__ = original.__qualname__
    init.__module__ = original.__module__
    init.__doc__ = original.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


_C = TypeVar("_C", bound=type)
# By class: the fields its equality compares, those its hash takes, those its repr shows.
_FACTS: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


def _facts(kind: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    found = _FACTS.get(kind)
    if found is None:
        fields = dataclasses.fields(kind)
        found = _FACTS[kind] = (
            tuple(f.name for f in fields if f.compare),
            tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)),
            tuple(f.name for f in fields if f.repr))
    return found


def value_eq(self: object, other: object) -> bool:
    """The __eq__ dataclasses writes (eq=True), for any dataclass."""
    if other.__class__ is self.__class__:
        names = _facts(type(self))[0]
        return tuple([getattr(self, name) for name in names]) == tuple(
            [getattr(other, name) for name in names])
    return NotImplemented  # type: ignore[no-any-return]  # (as in any __eq__)


def value_hash(self: object) -> int:
    """The __hash__ dataclasses writes (eq=True, frozen=True)."""
    return hash(tuple([getattr(self, name) for name in _facts(type(self))[1]]))


def value_repr(self: object) -> str:
    """The __repr__ dataclasses writes (for a class that does not refer to itself)."""
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _facts(type(self))[2])
    return f"{type(self).__qualname__}({shown})"


def value_dataclass(*, frozen: bool, slots: bool) -> Callable[[_C], _C]:
    """What @dataclass(frozen=True, slots=True) makes of a class, at run time, in a third of
    the time (type checkers see dataclasses' own: modules import this under its name when not
    TYPE_CHECKING). dataclasses compiles each of __init__, __repr__, __eq__, __hash__,
    __setattr__ and __delattr__ for every class, and making the node and symbol classes was a
    third of the imports of `rulecraft check`. Here equality, hash and repr are value_eq,
    value_hash and value_repr, the same for every class, and __init__ is faster_init's, with
    dataclasses' signature."""
    if not (frozen and slots):
        raise TypeError("value_dataclass makes frozen, slotted classes")

    def make(cls: _C) -> _C:
        if cls.__doc__ is None:  # (else dataclasses works one out from the signature)
            cls.__doc__ = cls.__name__
        made: _C = dataclass(  # type: ignore[assignment]  # (a class in, a class out)
            frozen=True, slots=True, init=False, repr=False, eq=False)(cls)
        made.__eq__ = value_eq  # type: ignore[assignment]
        made.__hash__ = value_hash  # type: ignore[assignment]
        made.__repr__ = value_repr  # type: ignore[assignment]
        faster_init(made)
        if "__init__" not in vars(made):  # (faster_init gives one only when it can)
            raise TypeError(f"{cls.__name__}: every field needs a slot, without a default "
                            "factory or __post_init__")
        return made
    return make


def _dataclass_init_facts(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """What faster_init copies from the __init__ dataclasses would write for cls: its names,
    defaults and annotations (a function that is never called)."""
    def __init__(self: object) -> None:
        raise NotImplementedError

    missing = dataclasses.MISSING
    defaults = tuple(f.default for f in fields if not f.kw_only and f.default is not missing)
    keyword = {f.name: f.default for f in fields if f.kw_only and f.default is not missing}
    __init__.__defaults__ = defaults or None
    __init__.__kwdefaults__ = keyword or None
    __init__.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    __init__.__doc__ = None
    return __init__


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open region of a source file, 1-based lines and columns."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    @staticmethod
    def point(file: str, line: int = 1, column: int = 1) -> Span:
        return Span(file, line, column, line, column + 1)

    def to(self, other: Span) -> Span:
        """The span from the start of self to the end of other."""
        return Span(self.file, self.line, self.column, other.end_line, other.end_column)


faster_init(Span)


@dataclass(frozen=True)
class SourceFile:
    """A decoded source text and the name diagnostics use for it."""

    name: str
    text: str
    lines: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Only "\n" ends a line, as for Lark: splitlines() would also break at form feeds and
        # other separators and shift every line number after them.
        lines = self.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        object.__setattr__(self, "lines", tuple(line.removesuffix("\r") for line in lines))

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


def line_starts(text: str) -> list[int]:
    """Where each line of text starts, as SourceFile counts lines (only "\n" ends one): for
    position(), when a reader's own marks count other line breaks too (YAML's)."""
    return [0, *(found.end() for found in re.finditer("\n", text))]


def position(starts: list[int], index: int) -> tuple[int, int]:
    """The 0-based line and column of a character index, from the text's line_starts."""
    line = bisect.bisect_right(starts, index) - 1
    return line, index - starts[line]


def resolved(path: Path) -> Path:
    """The absolute path with symbolic links followed as far as they lead: a loop of them, or
    a folder on the way that cannot be read, stops there instead of raising."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop, before Python 3.13
        return Path(os.path.abspath(path))


def display_name(path: Path) -> str:
    """Paths relative to the working directory when possible, so messages stay short."""
    try:
        return resolved(path).relative_to(resolved(Path.cwd())).as_posix()
    except ValueError:
        return path.as_posix()
