"""The fuzz tier's inputs: seeded broken files, each with the command that checks it
(`fuzz_inputs(seed, count)`; input i is the same whatever the count). tests/fuzzing.py runs them.

- token-mutated rulebooks: a shipped `rulebooks/*/*.rules`, cut into crude tokens, with tokens
  deleted, duplicated, swapped or inserted (brackets, keywords, huge numbers, quotes...);
- random bytes (invalid UTF-8, NUL bytes, a byte order mark, control characters) in place of a
  rulebook, card set, deck, map or scenario;
- structurally mutated YAML: a card set, deck, map or scenario (shipped, or a small fixture of
  tests/cases) loaded, with keys dropped or renamed and values swapped for other types, then
  written again; or its text edited: deep nesting, anchors and aliases (a billion laughs, an
  alias inside its own value), tags, huge numbers, duplicated, deleted or re-indented lines.

Each input replaces one file of a copy of rulebooks/ and tests/cases/ (a scenario is a new
file beside its rulebook): `copy_tree` makes such a copy, `source_of` names the file a target
of it is copied from.
"""

from __future__ import annotations

import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Input:
    """One fuzz input: `content` replaces the file `target` (a path in the copy), then `argv`
    runs from the copy's root."""

    name: str
    kind: str
    target: str
    content: bytes
    argv: tuple[str, ...]


# ---- the files inputs start from -------------------------------------------------------------
def copy_tree(out: Path) -> None:
    """The copy inputs run in: rulebooks/ (the shipped games, which `test` finds there) and
    cases/ (the small fixtures of tests/cases)."""
    shutil.copytree(ROOT / "rulebooks", out / "rulebooks")
    shutil.copytree(ROOT / "tests" / "cases", out / "cases")


def _shipped(pattern: str) -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "rulebooks").glob(pattern))


RULEBOOKS = _shipped("*/*.rules")
# YAML files by reader, each with the rulebook that reads it (`check`), or None for a
# scenario (`test`). Inputs pick a reader first, so each gets a quarter of them.
YAML_READERS: tuple[tuple[tuple[str, str | None], ...], ...] = (
    (("cases/cards/valid.cards.yaml", "cases/cards_valid.rules"),
     ("cases/cards/effect_quoted.cards.yaml", "cases/cards_effect_quoted.rules"),
     ("rulebooks/rulers_gambit/starter.cards.yaml",
      "rulebooks/rulers_gambit/rulers_gambit.rules")),
    (("cases/decks/cards_valid/red.deck.yaml", "cases/cards_valid.rules"),
     ("rulebooks/rulers_gambit/decks/red_green_rush.deck.yaml",
      "rulebooks/rulers_gambit/rulers_gambit.rules")),
    (("cases/maps/ring.map.yaml", "cases/data_map_valid.rules"),
     ("cases/maps/hex_small.map.yaml", "cases/board_hex_valid.rules"),
     ("rulebooks/dynasties/china.map.yaml", "rulebooks/dynasties/dynasties.rules"),
     ("rulebooks/dynasty_builder/maps/duel.map.yaml",
      "rulebooks/dynasty_builder/dynasty_builder.rules")),
    tuple((path, None) for path in _shipped("*/*.scenario.yaml")),
)


def source_of(target: str) -> Path:
    """The file a target of the copy is copied from."""
    return ROOT / ("tests/" + target if target.startswith("cases/") else target)


def _original(target: str) -> str:
    return source_of(target).read_text(encoding="utf-8")


def _yaml_input(name: str, kind: str, path: str, rulebook: str | None,
                content: bytes) -> Input:
    if rulebook is not None:
        return Input(name, kind, path, content, ("check", rulebook))
    # a scenario is a file of its own beside the shipped ones: `test` runs only it
    target = str(Path(path).parent / "fuzz.scenario.yaml")
    return Input(name, kind, target, content, ("test", target))


# ---- token-mutated rulebooks -----------------------------------------------------------------
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|\d+|\s+|.', re.DOTALL)
_INSERTS = (
    "{", "}", "(", ")", "[", "]", '"', ",", ":", ".", "=", "==", "+", "-", "*", "/", "not", "and",
    "if", "else", "for", "in", "let", "move", "to", "from", "draw", "goto", "win", "phase",
    "action", "procedure", "function", "require", "return", "none", "true", "actor", "players",
    "99999999999999999999999", "0", "-1", "\n", "\t", "\u2028", "\x00", "é", "@S1", "##",
    "{{{{{{{{", "((((((((", "list of", "per player", "effect", "keyword", "card", "zone",
)


def mutate_rulebook(text: str, rng: random.Random) -> str:
    tokens = _TOKEN.findall(text)
    for _ in range(rng.choice((1, 1, 2, 3, 4, 8))):
        i = rng.randrange(len(tokens))
        action = rng.choice(("delete", "delete", "duplicate", "swap", "insert", "insert", "copy"))
        if action == "delete":
            del tokens[i : i + rng.choice((1, 1, 2, 5, 20))]
        elif action == "duplicate":
            tokens[i:i] = tokens[i : i + rng.choice((1, 3, 10))]
        elif action == "swap":
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif action == "insert":
            tokens.insert(i, rng.choice(_INSERTS))
        else:  # a token from elsewhere in the rulebook
            tokens.insert(i, rng.choice(tokens))
        if not tokens:
            break
    return "".join(tokens)


# ---- random bytes ----------------------------------------------------------------------------
def random_bytes(rng: random.Random) -> bytes:
    size = rng.choice((0, 1, 7, 64, 500, 4000))
    style = rng.choice(("any", "ascii", "utf8-broken", "nul"))
    if style == "any":
        data = bytes(rng.randrange(256) for _ in range(size))
    else:
        alphabet = b"abcxyz019 :-[]{}#'\"|>&*!%@`,?\n\n\t\r"
        chunks = [bytes([rng.choice(alphabet)]) for _ in range(size)]
        extras = {"ascii": [b"\xef\xbb\xbf", b"\x1b", b"\x7f"],
                  "utf8-broken": [b"\xc3\x28", b"\xff", b"\xed\xa0\x80", b"\xe2\x82", b"\xc3\xa9"],
                  "nul": [b"\x00"]}[style]
        for _ in range(1 + size // 50):
            if chunks:
                chunks[rng.randrange(len(chunks))] = rng.choice(extras)
        data = b"".join(chunks)
    if rng.random() < 0.2:
        data = b"\xef\xbb\xbf" + data
    return data


# ---- structurally mutated YAML ---------------------------------------------------------------
_WORDS = ("name", "cards", "type", "set", "nodes", "legend", "rows", "layout", "game", "seed",
          "setup", "actions", "expect", "players", "options", "decks", "rolls", "effect", "cost",
          "colour", "keywords", "error", "returns", "terminal", "legal", "illegal", "zone.hand.A",
          "player.A.lp", "x", "", " ", "Spark", "A", "B", "odd-r", "-")


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    choice = rng.randrange(14 if depth < 3 else 10)
    if choice == 0:
        return rng.choice((0, 1, -1, 7, 2**31, -(2**63), 10**40, 10**400))
    if choice == 1:
        return rng.choice((0.5, -1e308, float("inf"), float("nan")))
    if choice == 2:
        return rng.choice((True, False))
    if choice == 3:
        return None
    if choice == 4:
        return rng.choice(_WORDS)
    if choice == 5:
        return "x" * rng.choice((200, 5000))
    if choice == 6:
        return rng.choice(("a\nb", "é\u2028x", "{}", "[", "move x to y", "gain(you, 1)", "'",
                           "\t", "#", "---", "*x", "&x", "!!int", "%", "@"))
    if choice in (7, 8, 9):
        return rng.choice(("A", "B", "tibet", "Spark", "red", "12", "A1"))
    if choice in (10, 11):
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(_WORDS): _random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _places(data: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in data, with the root as (None, None)."""
    found: list[tuple[Any, Any]] = [(None, None)]
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                found.append((value, key))
                stack.append(item)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                found.append((value, index))
                stack.append(item)
    return found


def mutate_data(data: Any, rng: random.Random) -> Any:
    for _ in range(rng.choice((1, 1, 2, 3))):
        container, key = rng.choice(_places(data))
        if container is None:
            if rng.random() < 0.3:
                data = _random_value(rng)
            continue
        value = container[key]
        action = rng.choice(("drop", "rename", "replace", "replace", "wrap", "nest", "empty",
                             "duplicate"))
        if action == "drop":
            del container[key]
        elif action == "rename" and isinstance(container, dict):
            container[rng.choice(_WORDS + (7, None, True))] = container.pop(key)
        elif action == "replace":
            container[key] = _random_value(rng)
        elif action == "wrap":
            container[key] = [value] if rng.random() < 0.5 else {"x": value}
        elif action == "nest":
            for _ in range(rng.choice((5, 50, 99, 150))):
                value = [value]
            container[key] = value
        elif action == "empty":
            container[key] = type(value)() if isinstance(value, (dict, list, str)) else ""
        elif action == "duplicate" and isinstance(container, list):
            container.insert(key, value)
    return data


def _deep(rng: random.Random) -> str:
    depth = rng.choice((101, 1000, 30000))
    opener = rng.choice(("[", "{a: ", "- ", "? "))
    closed = rng.random() < 0.3 and opener in ("[", "{a: ")
    return opener * depth + ("x" + ("]" if opener == "[" else "}") * depth if closed else "x")


def _bomb(rng: random.Random) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, rng.choice((3, 9, 20))):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


_TAGS = ("!!python/object/apply:os.system ['true']", "!!binary aGVsbG8=", "!!set {a, b}",
         "!!omap [a: 1]", "!!timestamp 2001-12-14", "!!float .nan", "!custom x", "!!str 1",
         "!!int '12'", "!!map {}", "!!seq []", "!!null ''", "!<tag:x> y")
_SCALARS = ("9" * 5000, "1e999", "0x1F", "0o17", "1_000", ".inf", "-.inf", "~", "null", "yes",
            "NO", "-0", "+12", "0b101", "12:30", "2001-12-14", "'", '"', "|", ">", "*", "&a",
            "@x", "`x", "%x", "[a, [b, [c]]]", "{a: {b: c}}", "? x", "- x", "x: y: z")


def mutate_yaml_text(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.choice((1, 1, 2, 3))):
        i = rng.randrange(len(lines)) if lines else 0
        line = lines[i] if lines else ""
        indent = line[: len(line) - len(line.lstrip(" "))]
        action = rng.choice(("deep", "bomb", "self-alias", "alias", "duplicate", "delete",
                             "swap", "indent", "tag", "scalar", "document", "merge",
                             "complex-key", "tab"))
        if action == "deep":
            lines.insert(i, f"{indent}deep: {_deep(rng)}")
        elif action == "bomb":
            lines = _bomb(rng).split("\n") + lines if rng.random() < 0.5 else lines + [
                f"{indent}bomb: &b0 [x, x, x, x, x, x, x, x, x, x]",
                *(f"{indent}bomb{k}: &b{k} [{', '.join([f'*b{k - 1}'] * 10)}]"
                  for k in range(1, 9))]
        elif action == "self-alias":
            lines.insert(i, f"{indent}loop: &loop [x, *loop]")
        elif action == "alias" and ":" in line:
            key, _, value = line.partition(":")
            lines[i] = f"{key}: &r{value}" if value.strip() else line
            lines.insert(min(len(lines), i + 1 + rng.randrange(5)), f"{indent}again: *r")
        elif action == "duplicate":
            lines.insert(i, line)
        elif action == "delete" and lines:
            del lines[i]
        elif action == "swap" and lines:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif action == "indent":
            lines[i:i + 1] = [" " * rng.choice((1, 2, 3, 8)) + line if rng.random() < 0.6
                              else line.lstrip(" ")]
        elif action == "tag" and ":" in line:
            key, _, _ = line.partition(":")
            lines[i] = f"{key}: {rng.choice(_TAGS)}"
        elif action == "scalar" and ":" in line:
            key, _, _ = line.partition(":")
            lines[i] = f"{key}: {rng.choice(_SCALARS)}"
        elif action == "document":
            lines.insert(i, rng.choice(("---", "...", "%YAML 1.1\n---", "--- !!map", "---\n---")))
        elif action == "merge":
            lines.insert(i, f"{indent}<<: {rng.choice(('*a', '[*a]', '{x: 1}', '1'))}")
        elif action == "complex-key":
            lines.insert(i, f"{indent}? [a, b]\n{indent}: c")
        elif action == "tab":
            lines[i:i + 1] = [line.replace("  ", "\t", 1)]
    return "\n".join(lines)


def mutate_yaml(text: str, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return mutate_yaml_text(text, rng)
    documents = list(yaml.safe_load_all(text))
    # a scenario file holds many documents: one or two are kept, to keep `test` short
    if len(documents) > 2:
        start = rng.randrange(len(documents) - 1)
        documents = documents[start : start + rng.choice((1, 2))]
    mutated = [mutate_data(document, rng) for document in documents]
    try:
        return yaml.safe_dump_all(mutated, default_flow_style=rng.choice((False, None, True)),
                                  allow_unicode=rng.random() < 0.5, sort_keys=False)
    except (yaml.YAMLError, RecursionError, ValueError):
        return mutate_yaml_text(text, rng)


# ---- the inputs ------------------------------------------------------------------------------
def fuzz_input(seed: int, index: int) -> Input:
    """Input `index` of the run with `seed`: 40% rulebooks, 20% random bytes, 40% YAML."""
    rng = random.Random(f"rulecraft-fuzz:{seed}:{index}")
    name = f"s{seed}-{index:05d}"
    slot = index % 5
    if slot in (0, 3):
        rulebook = rng.choice(RULEBOOKS)
        content = mutate_rulebook(_original(rulebook), rng).encode("utf-8", "surrogatepass")
        return Input(name, "rulebook", rulebook, content, ("check", rulebook))
    if slot == 1:
        files = rng.choice((tuple((r, r) for r in RULEBOOKS), *YAML_READERS))
        target, reader = rng.choice(files)
        return _yaml_input(name, "bytes", target, reader, random_bytes(rng))
    path, reader = rng.choice(rng.choice(YAML_READERS))
    content = mutate_yaml(_original(path), rng).encode("utf-8", "surrogatepass")
    return _yaml_input(name, "yaml", path, reader, content)


def fuzz_inputs(seed: int, count: int) -> list[Input]:
    return [fuzz_input(seed, index) for index in range(count)]
