"""What the runtime's modules and the generated games share: the errors, actions, the
constants and type names generated code reads, and the small helpers its expressions call
(texts of actions, optionals, lists)."""

from __future__ import annotations

import linecache
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

TERMINAL = -4

# A codec says how a stored value reads in rulebook terms: ("int",), ("bool",), ("text",),
# ("player",), ("names", (name, ...)) for enums/nodes/records/card definitions, ("card",) for
# card instances, ("option", codec) and ("list", codec).
Codec = tuple[Any, ...]
# A card parameter of an action names a card definition and, when copies of it differ, which
# copy (GameState.copy_args): the argument is definition + copy * len(DEF_NAMES), where copy
# counts the interchangeable groups of that definition in the parameter's domain. Action ids
# (GameState.action_id) tell apart this many groups per parameter: a deck rule of 3 copies
# per player (Dynasty TCG) gives at most 6 copies of a card in a two-player game, and cards
# that change hands (its trade centre) can bring all 6 into one domain.
COPY_CHOICES = 6
# How each parameter of an action reads when it is a card whose copies differ (Action.names).
CopyNames = tuple[str | None, ...] | None
# How the copies of a domain read when none differ (GameState.copy_args): read only.
NO_NAMES: Mapping[int, str] = {}


class IllegalAction(Exception):  # noqa: N818 - the name is part of the module contract
    """An action that the rules do not allow now; the message says why."""


class RuleError(Exception):
    """The rules reached a state they do not define (for example a phase with no way on)."""


# What a rule's own arithmetic or lookups can raise: a division by zero, an index past a list's
# end, a procedure that calls itself without end. The rules reached a state they do not define.
RULE_FAULTS = (ArithmeticError, LookupError, RecursionError)
_RULE_LINE = re.compile(r"\s*# (\S.*):(\d+)\s*$")  # the `# file:line` comments of pygen


def rule_at(error: BaseException, space: Mapping[str, Any]) -> tuple[str, int] | None:
    """The rulebook file and line of the rule whose generated code raised `error`: the
    `# file:line` comment nearest above the last line the traceback passed through in the code
    of the module whose globals are `space` (read through linecache: a module made in memory
    registers its lines there; the text of an eval in it has none)."""
    path, line = "", 0
    tb = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_globals is space and linecache.getline(frame.f_code.co_filename,
                                                          tb.tb_lineno):
            path, line = frame.f_code.co_filename, tb.tb_lineno
        tb = tb.tb_next
    for number in range(line, 0, -1):
        match = _RULE_LINE.match(linecache.getline(path, number))
        if match:
            return match.group(1), int(match.group(2))
    return None


def rule_fault(error: BaseException, module: str) -> RuleError:
    """A RuleError for `error`, raised by the code of generated module `module` (its
    __name__), naming the rulebook line of the rule that raised it (rule_at)."""
    found = rule_at(error, getattr(sys.modules.get(module), "__dict__", {}))
    where = f" (the rule at {found[0]}:{found[1]})" if found else ""
    what = ("a division by zero" if isinstance(error, ZeroDivisionError)
            else "rules calling one another without end" if isinstance(error, RecursionError)
            else str(error) or type(error).__name__)
    return RuleError(f"{what}{where}")


class Action:
    """One move: a kind, the acting player and integer arguments. Hashable; str() reads well."""

    __slots__ = ("kind", "actor", "args", "_text", "names")

    def __init__(
        self,
        kind: int,
        actor: int,
        args: tuple[int, ...],
        text: Callable[[int, tuple[int, ...], int, CopyNames], str],
        names: CopyNames = None,
    ) -> None:
        self.kind = kind
        self.actor = actor
        self.args = args
        self._text = text
        # per parameter, how a card that has differing copies reads ("Guard (rested)"); None
        # when every card parameter reads as its definition's name
        self.names = names

    def __str__(self) -> str:
        return self._text(self.actor, self.args, -1, self.names)

    def masked_text(self, shown: int) -> str:
        """The text with parameter i written by name only when bit i of `shown` is set, and
        as a neutral phrase ("a card") otherwise. GameState.action_text decides the bits."""
        return self._text(self.actor, self.args, shown, self.names)

    def text_function(self) -> Callable[[int, tuple[int, ...], int, CopyNames], str]:
        return self._text

    def plain(self) -> Action:
        """The same action with every card read as its definition's name, whichever copy it
        is: what the action means apart from the state its cards are in."""
        return Action(self.kind, self.actor, self.args, self._text)

    def __repr__(self) -> str:
        return f"Action({self})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Action)
            and self.kind == other.kind
            and self.actor == other.actor
            and self.args == other.args
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.actor, self.args))


class Listed(Action):
    """An action that a generated listing made (its LISTED_ tables), never by hand: its kind,
    actor and arguments are well formed by construction, so apply_action need not check
    their shape again, only whether the rules allow it now."""

    __slots__ = ()


# Words whose "u" or "eu" sounds like "you", and "one": "a unit", "a one".
_A_NOT_AN = re.compile(r"^(?:uni|use|usu|uti|eu|ewe|one|once)", re.IGNORECASE)


def article(noun: str) -> str:
    """The indefinite article of a noun: "an archer", "a siege tower", "a unit"."""
    if noun[:1].lower() in "aeiou" and not _A_NOT_AN.match(noun):
        return "an"
    return "a"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def card_name(def_names: Sequence[str], args: tuple[int, ...], names: CopyNames, i: int) -> str:
    """How the card argument i of an action reads: its copy's name when copies of the card
    differ (Action.names), else its definition's name (see COPY_CHOICES)."""
    name = names[i] if names is not None else None
    return name if name is not None else def_names[args[i] % len(def_names)]


def some(value: T | None) -> T:
    """A value the rules have proved is not none (a narrowed optional)."""
    if value is None:
        raise RuleError("a value tested as present is none")
    return value


def item(items: Sequence[T], index: int) -> T:
    """`items[index]` as the rules mean it: counted from 0, so a negative index is an error
    (Python would count it from the end) and so is one past the end."""
    if not 0 <= index < len(items):  # a rule fault: apply_action names the rule (rule_fault)
        raise IndexError(f"index {index} is outside a list of {len(items)}")
    return items[index]


def first(items: Sequence[T]) -> T | None:
    return items[0] if items else None


def last(items: Sequence[T]) -> T | None:
    return items[-1] if items else None


def frozen(value: Any) -> Any:
    """A stored value as a hashable one: lists as tuples."""
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    return value
