"""Scenario files (`*.scenario.yaml`): a start, some actions, the expected outcome.

See DESIGN.md §5. State paths include `zone.NAME.KEYS.size`, a zone's number of cards (for zones
filled from a shuffle). Beyond state paths, `expect` also takes `error` (a substring of the
message of the last action, which must be illegal), `returns`, `terminal`, `legal` and `illegal`
(action texts that must or must not be among the legal actions at the end). `options`, `players`
and `decks` (shipped deck names or lists of card names, per player: `decks: {A: red_rush, B:
[..]}` or a list) choose the variant. `rolls` scripts the dice: each `roll(n)` of the rules
takes the next listed number (which must lie in 1..n) before the seeded generator is used again,
and a scenario fails if any scripted roll is left unused. Setting a zone takes spare cards only
from where docs/cli.md ("Setting a zone in a scenario") says, and a setting that fails is
reported at its own line. `game` is found from the scenario file: a game's name in its game
folder, then in its project, or a rulebook's path from its folder
(`compiler.api.rulebook_path`, docs/cli.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from compiler.api import seat_count
from dsl.runtime import IllegalAction, RuleError
from dsl.runtime_rng import Rng
from dsl.yaml_limits import crossed_limit

SPECIAL_EXPECTATIONS = ("error", "returns", "terminal", "legal", "illegal")


@dataclass
class ScenarioResult:
    file: str
    name: str
    line: int
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class ScriptedRng(Rng):
    """The state's generator, with the results of the next dice rolls written in advance."""

    __slots__ = ("script",)

    def __init__(self, rng: Rng, script: list[int]) -> None:
        super().__init__(0)
        self.state = rng.state
        self.script = script

    def roll(self, sides: int) -> int:
        if not self.script:
            return super().roll(sides)
        value = self.script.pop(0)
        if not 1 <= value <= sides:
            raise RuleError(f"the scripted roll {value} is not a result of a {sides}-sided die")
        return value


class _LineLoader(yaml.SafeLoader):
    """A safe loader that remembers the line of each top-level document."""


class ScenarioFileError(ValueError):
    """A scenario file that is not read, at a line of it."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class ScenarioData(dict[str, Any]):
    """A scenario document, with the line of each of its `setup` keys: a setting that fails is
    reported at its own line."""

    setup_lines: dict[str, int]


def _setup_lines(node: yaml.Node) -> dict[str, int]:
    if not isinstance(node, yaml.MappingNode):
        return {}
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "setup" and isinstance(
                value, yaml.MappingNode):
            return {str(k.value): k.start_mark.line + 1 for k, _ in value.value
                    if isinstance(k, yaml.ScalarNode)}
    return {}


def load_scenarios(path: Path) -> list[tuple[dict[str, Any], int]]:
    """The scenario documents of a file (one or several, separated by ---), with their lines."""
    text = path.read_text(encoding="utf-8")
    crossed = crossed_limit(text, _LineLoader)
    if crossed is not None:  # composing would recurse without end or expand without end
        where = crossed.span(str(path), text)
        raise ScenarioFileError(f"{crossed.message} (column {where.column}; {crossed.hint})",
                                where.line)
    loader = _LineLoader(text)
    documents: list[tuple[dict[str, Any], int]] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                break
            data = loader.construct_document(node)
            if isinstance(data, dict):
                data = ScenarioData(data)
                data.setup_lines = _setup_lines(node)
            documents.append((data, node.start_mark.line + 1))
    finally:
        loader.dispose()
    return documents


# The keys whose values must have a shape before anything is run, and what that shape is.
_SHAPES: dict[str, tuple[type | tuple[type, ...], str]] = {
    "seed": (int, "a whole number"),
    "players": (int, "a whole number"),
    "options": (dict, "a mapping of option names to values"),
    "decks": ((dict, list), "a mapping or a list of decks"),
    "setup": (dict, "a mapping of state paths to values"),
    "rolls": (list, "a list of dice results"),
    "actions": (list, "a list of action texts"),
    "expect": (dict, "a mapping of state paths to values"),
}
_LISTS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "legal": (str, "action texts"), "illegal": (str, "action texts"),
    "returns": ((int, float), "numbers"), "rolls": (int, "whole numbers"),
}


def shape_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with the shape of a scenario's values (a list where a mapping belongs, a
    text among the dice rolls), or None: a scenario of the wrong shape is not run."""
    for key, (kinds, what) in _SHAPES.items():
        value = data.get(key)
        if value is not None and (not isinstance(value, kinds)
                                  or kinds is int and isinstance(value, bool)):
            return f"'{key}' must be {what}"
    expect = data.get("expect") or {}
    for key, (kinds, what) in _LISTS.items():
        where = data if key == "rolls" else expect
        name = key if key == "rolls" else f"expect: {key}"
        items = where.get(key)
        if items is None:
            continue
        if not isinstance(items, list) or any(
                not isinstance(item, kinds) or isinstance(item, bool) for item in items):
            return f"'{name}' must be a list of {what}"
    return None


def run_scenario(
    game: ModuleType, data: dict[str, Any], file: str, line: int
) -> ScenarioResult:
    result = ScenarioResult(file, str(data.get("name", f"line {line}")), line)
    fail = result.failures.append
    problem = shape_problem(data)
    if problem is not None:
        fail(problem)
        return result
    lines: dict[str, int] = getattr(data, "setup_lines", {})
    setting = ""
    try:
        state = game.new_game(
            seed=int(data.get("seed", 0)),
            players=seat_count(game, int(data["players"]) if "players" in data else None,
                               data.get("options") or {}),
            options=data.get("options") or None,
            decks=data.get("decks"),
        )
        settings = data.get("setup") or {}
        state.will_set([str(path) for path in settings])
        for path, value in settings.items():
            setting = str(path)
            state.set(setting, value)
        setting = ""
        script = [int(value) for value in data.get("rolls") or []]
        state.rng = ScriptedRng(state.rng, script)
    except (KeyError, ValueError, RuleError, IllegalAction, TypeError) as error:
        if setting in lines:  # reported where the setting that failed is written
            result.line = lines[setting]
            fail(f"setup of '{setting}' failed: {error}")
        else:
            fail(f"setup failed: {error}")
        return result
    expect: dict[str, Any] = dict(data.get("expect") or {})
    wanted_error = expect.get("error")
    actions = [str(a) for a in data.get("actions") or []]
    for number, text in enumerate(actions, 1):
        try:
            action = state.parse_action(text)
            state.apply_action(action)
        except IllegalAction as error:
            if wanted_error is not None and number == len(actions):
                if str(wanted_error) not in str(error):
                    fail(f"action {number} '{text}' was refused with '{error}', "
                         f"expected a message containing '{wanted_error}'")
                wanted_error = None
                break
            fail(f"action {number} '{text}' is illegal: {error}")
            return result
        except RuleError as error:
            fail(f"action {number} '{text}' broke the rules engine: {error}")
            return result
    if script:
        fail(f"scripted rolls left unused: {script}")
    if wanted_error is not None:
        fail(f"expected the last action to be refused with '{wanted_error}', but it was legal")
    for path, value in expect.items():
        if path in SPECIAL_EXPECTATIONS:
            continue
        try:
            actual = state.get(str(path))
        except (KeyError, ValueError) as error:
            fail(f"expect {path}: {error}")
            continue
        if actual != value:
            fail(f"expected {path} = {value!r}, got {actual!r}")
    if "terminal" in expect and state.is_terminal() != bool(expect["terminal"]):
        fail(f"expected terminal = {expect['terminal']}, got {state.is_terminal()}")
    if "returns" in expect and state.returns() != [float(x) for x in expect["returns"]]:
        fail(f"expected returns {expect['returns']}, got {state.returns()}")
    legal = {str(a) for a in state.legal_actions()}
    for text in expect.get("legal") or []:
        if text not in legal:
            fail(f"expected '{text}' to be legal; legal: {', '.join(sorted(legal)[:10])}")
    for text in expect.get("illegal") or []:
        if text in legal:
            fail(f"expected '{text}' not to be legal")
    return result
