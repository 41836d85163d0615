"""Scenario files (`*.scenario.yaml`): a start, some actions, the expected outcome.

See DESIGN.md §5. State paths include `zone.NAME.KEYS.size`, a zone's number of cards (for zones
filled from a shuffle). Beyond state paths, `expect` also takes `error` (a substring of the
message of the last action, which must be illegal), `returns`, `terminal`, `legal` and `illegal`
(action texts that must or must not be among the legal actions at the end), and `view.SEAT.PATH`,
what a seat sees (its `observation()`: `view.A.zones.hand.B: {count: 2}`). `options`, `players`
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

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from compiler.api import seat_count
from compiler.model import GameModel
from compiler.text_templates import TEMPLATE_FIELD, words
from dsl.diagnostics import did_you_mean
from dsl.runtime import IllegalAction, RuleError
from dsl.runtime_rng import Rng
from dsl.runtime_setup import count_refusal, merge_options
from dsl.source import line_starts, position
from dsl.yaml_limits import crossed_limit, repeated_key
from dsl.yaml_origins import same_lines

SPECIAL_EXPECTATIONS = ("error", "returns", "terminal", "legal", "illegal")
SCENARIO_KEYS = ("game", "name", "seed", "players", "options", "decks", "setup", "rolls",
                 "actions", "expect")


@dataclass
class ScenarioResult:
    """A scenario's outcome. `line` is where the scenario starts, and once it fails, the line of
    its first failure; `failure_lines` holds the line of each failure (an action, an expected
    value, a setting), which `rulecraft test` reports it at."""

    file: str
    name: str
    line: int
    failures: list[str] = field(default_factory=list)
    failure_lines: list[int] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def fail(self, message: str, line: int | None = None) -> None:
        at = self.line if line is None else line
        if not self.failures:
            self.line = at
        self.failures.append(message)
        self.failure_lines.append(at)

    def located(self) -> list[tuple[int, str]]:
        """Each failure with its line."""
        return list(zip(self.failure_lines, self.failures, strict=True))


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
    """A safe loader whose marks count lines and columns as dsl.source does (only "\\n" ends
    a line; YAML also ends one at a lone CR, NEL, U+2028 and U+2029), so that a failure is
    reported at the line an editor shows. Dates are left as text (a scenario's values are
    rulebook values), and a whole number too long to be one is refused where it is written."""

    def __init__(self, text: str) -> None:
        self.line_starts = None if same_lines(text) else line_starts(text)
        super().__init__(text)

    def get_mark(self) -> yaml.Mark:
        mark = super().get_mark()
        if self.line_starts is None:
            return mark
        line, column = position(self.line_starts, mark.index)
        return yaml.Mark(mark.name, mark.index, line, column, mark.buffer, mark.pointer)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """A mapping whose keys are their text as written: a scenario's keys are names and
        paths, and `yes:` or `1:` is the name written (YAML would read true, or a number)."""
        self.flatten_mapping(node)  # the `<<` merges
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key: Any = key_node.value
            else:
                raise yaml.constructor.ConstructorError(
                    None, None, "a key is a name or a path, not a list or a mapping",
                    key_node.start_mark)
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping

    def construct_text(self, node: yaml.ScalarNode) -> str:
        """A date, as its text: `2001-02-30` would be refused as no day of February."""
        return str(self.construct_scalar(node))

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        if len(node.value) > MAX_INT_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"a whole number of {len(node.value):,} digits is longer than any "
                "a rule holds", node.start_mark)
        return int(super().construct_yaml_int(node))


_LineLoader.add_constructor("tag:yaml.org,2002:int", _LineLoader.construct_yaml_int)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _LineLoader.construct_text)
# more digits than any number the rules hold, and than Python turns into a number at once
MAX_INT_DIGITS = 100


class ScenarioFileError(ValueError):
    """A scenario file that is not read, at a line of it."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class ScenarioData(dict[str, Any]):
    """A scenario document, with the lines its parts are written at: a failure is reported at
    the line of the key, setting, action or expected value it is about."""

    key_lines: dict[str, int]
    setup_lines: dict[str, int]
    action_lines: list[int]
    expect_lines: dict[str, int]


def _key_lines(node: yaml.Node | None) -> dict[str, int]:
    """The line of each key of a mapping node (none for another node)."""
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {str(key.value): key.start_mark.line + 1 for key, _ in node.value
            if isinstance(key, yaml.ScalarNode)}


def _scenario_data(data: dict[str, Any], node: yaml.Node) -> ScenarioData:
    scenario = ScenarioData(data)
    scenario.key_lines = _key_lines(node)
    parts: dict[str, yaml.Node] = {}
    if isinstance(node, yaml.MappingNode):
        parts = {str(key.value): value for key, value in node.value
                 if isinstance(key, yaml.ScalarNode)}
    scenario.setup_lines = _key_lines(parts.get("setup"))
    scenario.expect_lines = _key_lines(parts.get("expect"))
    actions = parts.get("actions")
    scenario.action_lines = ([item.start_mark.line + 1 for item in actions.value]
                             if isinstance(actions, yaml.SequenceNode) else [])
    return scenario


def _seen(state: Any, path: str) -> Any:
    """`view.A.zones.hand.B`: what seat A sees there, read in `state.observation(A)`. A key
    that holds dots (the zone `hand.B`) is matched whole, the longest first; a list is
    entered by the position of an item."""
    _, seat, *parts = path.split(".")
    seats = list(state.seats()[: state.num_players])
    if seat not in seats:
        raise KeyError(f"{seat!r} is not a seat of {state.num_players} players "
                       f"({', '.join(seats)})")
    value: Any = state.observation(seats.index(seat))
    while parts:
        if isinstance(value, dict):
            key = next((".".join(parts[:size]) for size in range(len(parts), 0, -1)
                        if ".".join(parts[:size]) in value), None)
            if key is None:
                shown = ", ".join(str(k) for k in list(value)[:12])
                raise KeyError(f"{seat} sees no '{'.'.join(parts)}' there; it sees: "
                               f"{shown or 'nothing'}")
            value, parts = value[key], parts[key.count(".") + 1:]
        elif isinstance(value, list) and parts[0].isdigit() and int(parts[0]) < len(value):
            value, parts = value[int(parts[0])], parts[1:]
        else:
            raise KeyError(f"{seat} sees {value!r}, which has no '{'.'.join(parts)}'")
    return value


def _same(actual: object, expected: object) -> bool:
    """Whether a value read from the state is the expected one: as `==`, except that true and
    false are not the numbers 1 and 0 (`setup` refuses one for the other too)."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(map(_same, actual, expected))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(
            _same(actual[key], expected[key]) for key in actual)
    return actual == expected


def load_scenarios(path: Path) -> list[tuple[dict[str, Any], int]]:
    """The scenario documents of a file (one or several, separated by ---), with their lines.
    A file that is not valid YAML raises ScenarioFileError at the line of the problem."""
    if not path.is_file():  # a pipe or a device would be read for ever
        raise ScenarioFileError("not a file that can be read: a pipe or a device", 1)
    text = path.read_text(encoding="utf-8")
    crossed = crossed_limit(text, _LineLoader)
    if crossed is not None:  # composing would recurse without end or expand without end
        where = crossed.span(str(path), text)
        raise ScenarioFileError(f"{crossed.message} (column {where.column}; {crossed.hint})",
                                where.line)
    loader: _LineLoader | None = None
    documents: list[tuple[dict[str, Any], int]] = []
    try:
        loader = _LineLoader(text)  # its reader refuses characters YAML does not allow
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                break
            repeated = repeated_key(node)
            if repeated is not None:  # YAML would keep the last silently: one would go untested
                first, again = repeated
                raise ScenarioFileError(
                    f"the key '{again.value}' is written twice, at lines "
                    f"{first.start_mark.line + 1} and {again.start_mark.line + 1}: keep one",
                    again.start_mark.line + 1)
            data = loader.construct_document(node)
            if isinstance(data, dict):
                data = _scenario_data(data, node)
            documents.append((data, node.start_mark.line + 1))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = " ".join(str(error.problem or error.context or "a syntax error").split())
        opened = error.context_mark
        if error.problem and error.context and opened is not None and opened is not mark:
            # "while parsing a flow sequence": where the unfinished part began
            problem += (f", {' '.join(error.context.split())} that began at line "
                        f"{opened.line + 1}, column {opened.column + 1}")
        if mark is None:
            raise ScenarioFileError(f"not valid YAML: {problem}", 1) from None
        unread = isinstance(error, yaml.constructor.ConstructorError)
        what = "a value that cannot be read" if unread else "not valid YAML"
        raise ScenarioFileError(f"{what} at column {mark.column + 1}: {problem}",
                                mark.line + 1) from None
    finally:
        if loader is not None:
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


def shape_problem(data: dict[str, Any]) -> tuple[str, str | int] | None:
    """What is wrong with the shape of a scenario (a key it does not know, a list where a
    mapping belongs, a text among the dice rolls), and what it is about: a key of the scenario
    or of its `expect`, or the number of an action; or None. A scenario of the wrong shape is
    not run: a misspelt `expect` would otherwise check nothing and pass."""
    for key in data:
        if key not in SCENARIO_KEYS:
            hint = did_you_mean(str(key), SCENARIO_KEYS)
            return (f"unknown key '{key}'; "
                    + (hint or "a scenario has " + ", ".join(SCENARIO_KEYS)), str(key))
    for key, (kinds, what) in _SHAPES.items():
        value = data.get(key)
        if value is not None and (not isinstance(value, kinds)
                                  or kinds is int and isinstance(value, bool)):
            return f"'{key}' must be {what}", key
    expect = data.get("expect") or {}
    for key, (kinds, what) in _LISTS.items():
        where = data if key == "rolls" else expect
        name = key if key == "rolls" else f"expect: {key}"
        items = where.get(key)
        if items is None:
            continue
        if not isinstance(items, list) or any(
                not isinstance(item, kinds) or isinstance(item, bool) for item in items):
            return f"'{name}' must be a list of {what}", key
    if "terminal" in expect and not isinstance(expect["terminal"], bool):
        return ("'expect: terminal' must be true or false, not "
                f"{expect['terminal']!r}", "terminal")
    if "error" in expect and (not isinstance(expect["error"], str) or not expect["error"]):
        return ("'expect: error' must be a text, a part of the refusal's message (an empty one "
                "would match any)", "error")
    for number, text in enumerate(data.get("actions") or [], 1):
        if not isinstance(text, str):
            return (f"action {number} must be a text, like \"A passes\", not {text!r} (quote "
                    "a text that holds ': ')", number)
    return None


def action_shapes(model: GameModel) -> list[re.Pattern[str]]:
    """A pattern per action of a game that its texts match, each field of its `says` text
    (or of the text it has without one) any words: an `illegal:` text that matches none is
    no action of the game, and expecting it to be illegal would test nothing."""
    shapes = []
    for phase in model.phases.values():
        for action in phase.actions:
            template = action.decl.says or "{actor} " + words(action.name) + "".join(
                f" {{{name}}}" for name, _, _ in action.params)
            pieces = TEMPLATE_FIELD.split(" ".join(template.split()))
            # split() keeps the fields' names at the odd places
            pattern = "".join(re.escape(piece) if i % 2 == 0 else ".+"
                              for i, piece in enumerate(pieces))
            shapes.append(re.compile(pattern))  # matched against text spaced as the template
    return shapes


def _reads_as_action(text: str, seats: tuple[str, ...], shapes: list[re.Pattern[str]]) -> bool:
    words_of = " ".join(text.split())
    return (words_of.split(" ", 1)[0] in seats
            and any(shape.fullmatch(words_of) for shape in shapes))


def run_scenario(
    game: ModuleType, data: dict[str, Any], file: str, line: int,
    shapes: list[re.Pattern[str]] | None = None,
) -> ScenarioResult:
    """Run one scenario. With `shapes` (action_shapes of the game's model), an `illegal:` text
    that reads as no action of the game fails the scenario instead of passing unseen."""
    result = ScenarioResult(file, str(data.get("name", f"line {line}")), line)
    key_lines: dict[str, int] = getattr(data, "key_lines", {})
    setup_lines: dict[str, int] = getattr(data, "setup_lines", {})
    action_lines: list[int] = getattr(data, "action_lines", [])
    expect_lines: dict[str, int] = getattr(data, "expect_lines", {})

    def action_line(number: int) -> int | None:
        return action_lines[number - 1] if number <= len(action_lines) else None

    problem = shape_problem(data)
    if problem is not None:
        message, about = problem
        if isinstance(about, int):
            at = action_line(about)
        elif about in SPECIAL_EXPECTATIONS and about not in data:
            at = expect_lines.get(about)
        else:
            at = key_lines.get(about)
        result.fail(message, at)
        return result
    setting = ""
    about = "options"  # the key a refusal of new_game is about, reported at its line
    try:
        options = data.get("options") or {}
        # new_game's own checks, one key at a time, so that a refusal is at its key
        merge_options(game.OPTIONS, options, getattr(game, "OPTION_WORDS", None))
        about = "players"
        players = seat_count(game, int(data["players"]) if "players" in data else None, options)
        counts = game.player_counts(options)
        if players not in counts:
            raise ValueError(count_refusal(game.INFO["name"], counts, players))
        about = "decks"
        state = game.new_game(seed=int(data.get("seed", 0)), players=players,
                              options=options or None, decks=data.get("decks"))
        about = ""
        settings = data.get("setup") or {}
        state.will_set([str(path) for path in settings])
        for path, value in settings.items():
            setting = str(path)
            state.set(setting, value)
        setting = ""
        script = [int(value) for value in data.get("rolls") or []]
        state.rng = ScriptedRng(state.rng, script)
    except (KeyError, ValueError, RuleError, IllegalAction, TypeError) as error:
        if setting in setup_lines:  # reported where the setting that failed is written
            result.fail(f"setup of '{setting}' failed: {error}", setup_lines[setting])
        elif about and not isinstance(error, RuleError):  # not the game's own setup rules
            result.fail(f"setup failed: {error}", key_lines.get(about))
        else:
            result.fail(f"setup failed: {error}")
        return result
    seats = tuple(state.seats()[: state.num_players])
    expect: dict[str, Any] = dict(data.get("expect") or {})
    wanted_error = expect.get("error")
    actions: list[str] = data.get("actions") or []
    for number, text in enumerate(actions, 1):
        at = action_line(number)
        try:
            action = state.parse_action(text)
            state.apply_action(action)
        except IllegalAction as error:
            if wanted_error is not None and number == len(actions):
                if shapes is not None and not _reads_as_action(text, seats, shapes):
                    result.fail(f"action {number} '{text}' reads as no action of this game, "
                                "so its refusal tests nothing: " + str(error), at)
                # the reason only: a misspelt text's refusal lists the legal actions, which
                # hold most texts an `error:` could name
                elif wanted_error not in str(error).split("; legal: ", 1)[0]:
                    result.fail(f"action {number} '{text}' was refused with '{error}', "
                                f"expected a message containing '{wanted_error}'", at)
                wanted_error = None
                break
            result.fail(f"action {number} '{text}' is illegal: {error}", at)
            return result
        except RuleError as error:
            result.fail(f"action {number} '{text}' broke the rules engine: {error}", at)
            return result
    if script:
        result.fail(f"scripted rolls left unused: {script}", key_lines.get("rolls"))
    if wanted_error is not None:
        result.fail(f"expected the last action to be refused with '{wanted_error}', but it "
                    "was legal", expect_lines.get("error"))
    for path, value in expect.items():
        if path in SPECIAL_EXPECTATIONS:
            continue
        at = expect_lines.get(str(path))
        try:
            actual = (_seen(state, str(path)) if str(path).startswith("view.")
                      else state.get(str(path)))
        except (KeyError, ValueError) as error:
            reason = error.args[0] if isinstance(error, KeyError) and error.args else error
            hint = did_you_mean(str(path), SPECIAL_EXPECTATIONS) if "." not in str(path) else None
            result.fail(f"expect {path}: {reason}" + (f"; {hint}" if hint else ""), at)
            continue
        if not _same(actual, value):
            result.fail(f"expected {path} = {value!r}, got {actual!r}", at)
    if "terminal" in expect and state.is_terminal() != expect["terminal"]:
        result.fail(f"expected terminal = {str(expect['terminal']).lower()}, got "
                    f"{str(state.is_terminal()).lower()}", expect_lines.get("terminal"))
    if "returns" in expect and state.returns() != [float(x) for x in expect["returns"]]:
        result.fail(f"expected returns {expect['returns']}, got {state.returns()}",
                    expect_lines.get("returns"))
    legal = {str(a) for a in state.legal_actions()}
    for text in expect.get("legal") or []:
        if text not in legal:
            result.fail(f"expected '{text}' to be legal; legal: "
                        f"{', '.join(sorted(legal)[:10])}", expect_lines.get("legal"))
    for text in expect.get("illegal") or []:
        if text in legal:
            result.fail(f"expected '{text}' not to be legal", expect_lines.get("illegal"))
        elif shapes is not None and not _reads_as_action(text, seats, shapes):
            result.fail(f"expected '{text}' not to be legal, but it reads as no action of "
                        f"this game (a seat of {', '.join(seats)}, then an action's text), so "
                        "the expectation tests nothing", expect_lines.get("illegal"))
    return result
