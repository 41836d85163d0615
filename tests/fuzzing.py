"""A fuzzing harness for the command line: seeded broken inputs, each run by `rulecraft check`
(or `rulecraft test`, for a scenario) in a child process with a time and a memory cap.

Inputs (`fuzz_inputs(seed, count)`; input i is the same whatever the count):

- token-mutated rulebooks: a shipped `rulebooks/*/*.rules`, cut into crude tokens, with tokens
  deleted, duplicated, swapped or inserted (brackets, keywords, huge numbers, quotes...);
- random bytes (invalid UTF-8, NUL bytes, a byte order mark, control characters) in place of a
  rulebook, card set, deck, map or scenario;
- structurally mutated YAML: a card set, deck, map or scenario (shipped, or a small fixture of
  tests/cases) loaded, with keys dropped or renamed and values swapped for other types, then
  written again; or its text edited: deep nesting, anchors and aliases (a billion laughs, an
  alias inside its own value), tags, huge numbers, duplicated, deleted or re-indented lines.

Each input replaces one file of a copy of rulebooks/ and tests/cases/ (a scenario is a new
file beside its rulebook). A child process (`python -m tests.fuzzing CHILD-ARGS`, run from the
copy) checks a list of inputs one after the other through `compiler.cli.main`, announcing each
before it starts and reporting how it ended; a child that dies (a signal: segmentation fault,
abort, the memory cap) or overruns the time cap is replaced, and the input it was on is counted
as a crash or a timeout. Outcomes:

    ok            exit 0
    diagnostic    exit 1 with a located error (`file:line:col: error[CODE]`, `FAIL file:line`)
    unlocated     exit 1 without one, or any other exit status
    internal      an internal compiler error (E0000) in the output
    traceback     an exception escaped the command
    memory        MemoryError (the child's address space is capped)
    crash         the child died of a signal, or exited, while on the input
    timeout       the input ran longer than the time cap

Only `ok` and `diagnostic` pass. Run by hand:

    python -m tests.fuzzing --seed 0 --inputs 500 --out /tmp/fuzz
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
PASSING = ("ok", "diagnostic")
TIME_CAP_S = 20.0
MEMORY_CAP_BYTES = 2 * 1024**3
_MARK = "@@fuzz "
_LOCATED = re.compile(r"^[^\s:][^:\n]*:\d+:\d+: error\[E\d{4}\]: |^FAIL \S+:\d+ ", re.MULTILINE)


@dataclass(frozen=True)
class Input:
    """One fuzz input: `content` replaces the file `target` (a path in the copy), then `argv`
    runs from the copy's root."""

    name: str
    kind: str
    target: str
    content: bytes
    argv: tuple[str, ...]


@dataclass(frozen=True)
class Result:
    input: Input
    outcome: str
    exit: int | None
    output: str


def run_cli(cwd: Path, *argv: str, timeout: float = 120) -> tuple[int, str]:
    """`python -m compiler ARGV` in a child process from cwd, with the memory cap: (exit status,
    stdout + stderr); a negative status is the signal that killed it."""
    result = subprocess.run(
        [sys.executable, "-m", "compiler", *argv], cwd=cwd, env=_child_env(), check=False,
        capture_output=True, text=True, errors="replace", timeout=timeout,
        preexec_fn=_limit_memory)
    return result.returncode, result.stdout + result.stderr


def _child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "PYTHONHASHSEED": "0"}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP_BYTES, MEMORY_CAP_BYTES))


# ---- the files inputs start from -------------------------------------------------------------
def _copy_tree(out: Path) -> None:
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


def _source(target: str) -> Path:
    """The file a target of the copy is copied from."""
    return ROOT / ("tests/" + target if target.startswith("cases/") else target)


def _original(target: str) -> str:
    return _source(target).read_text(encoding="utf-8")


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


# ---- the child: checks inputs one by one -----------------------------------------------------
def _announce(**fields: Any) -> None:
    """A line to the parent, on the real stdout (the command's own output is captured)."""
    os.write(1, (_MARK + json.dumps(fields) + "\n").encode("utf-8"))


def _classify(code: object, output: str) -> str:
    if "E0000" in output:
        return "memory" if "MemoryError" in output else "internal"
    if code == 0:
        return "ok"
    if code == 1 and _LOCATED.search(output):
        return "diagnostic"
    return "unlocated"


def _selftest(what: str) -> int:
    """A broken compiler, for the harness's own test: each way a command can end badly."""
    if what == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif what == "hang":
        time.sleep(3600)
    elif what == "raise":
        return 1 // 0
    elif what == "memory":
        return len(bytearray(MEMORY_CAP_BYTES))
    elif what == "internal":
        print("x.rules:1:1: error[E0000]: the compiler failed while checking: KeyError")
    return 1


def child(listing: Path) -> None:
    """Run each input listed (JSON lines: target, argv, content file) from the working
    directory, restoring each target afterwards."""
    from compiler import cli

    for line in listing.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        target = Path(item["target"])
        original = target.read_bytes() if target.exists() else None
        _announce(start=item["index"])
        target.write_bytes(Path(item["content"]).read_bytes())
        out = io.StringIO()
        code: object = None
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                argv = list(item["argv"])
                code = _selftest(argv[1]) if argv[0] == "selftest" else cli.main(argv)
            outcome = _classify(code, out.getvalue())
        except MemoryError:
            outcome = "memory"
        except SystemExit as error:
            code = error.code
            outcome = _classify(code, out.getvalue())
        except BaseException:  # noqa: BLE001 - what the fuzzer is looking for
            outcome = "traceback"
            out.write(traceback.format_exc())
        finally:
            if original is None:
                target.unlink(missing_ok=True)
            else:
                target.write_bytes(original)
        _announce(done=item["index"], outcome=outcome,
                  exit=code if isinstance(code, int) else None, output=out.getvalue()[-3000:])
        if outcome == "memory":
            return  # what a MemoryError leaves half made is not trusted: a new child goes on


# ---- the parent: runs children, attributes crashes and timeouts ------------------------------
def _run_batch(inputs: list[Input], first: int, copy: Path, scratch: Path,
               time_cap: float) -> Iterator[Result]:
    """Results of inputs[first:], in one child, until the child ends or is stopped; the last
    result is the crash or timeout that ended it, if any."""
    listing = scratch / f"listing-{first}.jsonl"
    with listing.open("w", encoding="utf-8") as out:
        for index in range(first, len(inputs)):
            item = inputs[index]
            content = scratch / f"{item.name}.input"
            content.write_bytes(item.content)
            out.write(json.dumps({"index": index, "target": item.target,
                                  "argv": list(item.argv), "content": str(content)}) + "\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fuzzing", "--child", str(listing)], cwd=copy,
        env=_child_env(),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=_limit_memory)
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    current: int | None = None
    started = time.monotonic()
    buffer = b""
    stray: list[str] = []
    try:
        while True:
            left = started + time_cap - time.monotonic()
            if current is not None and left <= 0:
                process.kill()
                process.wait()
                yield Result(inputs[current], "timeout", None, "\n".join(stray)[-3000:])
                return
            if not selector.select(timeout=max(left, 0.05) if current is not None else None):
                continue
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                if not line.startswith(_MARK):
                    stray.append(line)
                    continue
                message = json.loads(line[len(_MARK):])
                if "start" in message:
                    current, started, stray = message["start"], time.monotonic(), []
                else:
                    current = None
                    yield Result(inputs[message["done"]], message["outcome"], message["exit"],
                                 message["output"])
        code = process.wait()
        if current is not None:
            died = f"killed by signal {-code}" if code < 0 else f"exited with {code}"
            said = "\n".join([*stray, buffer.decode("utf-8", "replace")])
            yield Result(inputs[current], "crash", code, f"{died}\n{said}"[-3000:])
    finally:
        selector.close()
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()


def _restore(copy: Path, target: str) -> None:
    """Put back the file a stopped child left replaced."""
    path = copy / target
    if target.endswith("fuzz.scenario.yaml"):
        path.unlink(missing_ok=True)
    else:
        path.write_bytes(_source(target).read_bytes())


def run_inputs(inputs: list[Input], workers: int = 1, time_cap: float = TIME_CAP_S,
               folder: Path | None = None) -> list[Result]:
    """Every input's result, in input order; `workers` children run side by side, each in
    its own copy."""
    with tempfile.TemporaryDirectory(prefix="rulecraft-fuzz-", dir=folder) as temporary:
        work = Path(temporary)
        shares = [list(range(w, len(inputs), workers)) for w in range(max(1, workers))]

        def run_share(number: int) -> list[tuple[int, Result]]:
            copy, scratch = work / f"copy{number}", work / f"scratch{number}"
            _copy_tree(copy)
            scratch.mkdir()
            mine = [inputs[i] for i in shares[number]]
            results: list[tuple[int, Result]] = []
            first = 0
            while first < len(mine):
                before = first
                for result in _run_batch(mine, first, copy, scratch, time_cap):
                    results.append((shares[number][first], result))
                    first += 1
                    if result.outcome in ("crash", "timeout"):
                        _restore(copy, result.input.target)
                if first == before:
                    raise RuntimeError("a fuzzing child ended before its first input")
            return results

        if workers <= 1:
            pairs = run_share(0)
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(workers) as pool:
                pairs = [p for share in pool.map(run_share, range(workers)) for p in share]
    return [result for _, result in sorted(pairs, key=lambda pair: pair[0])]


def save_failures(results: list[Result], out: Path) -> str:
    """Write each failing input beside a copy of what it runs with; a report of them."""
    failing = [r for r in results if r.outcome not in PASSING]
    lines = []
    for result in failing:
        item = result.input
        folder = out / f"{item.name}-{result.outcome}"
        _copy_tree(folder)
        (folder / item.target).write_bytes(item.content)
        command = f"cd {folder} && PYTHONPATH={ROOT} python -m compiler {' '.join(item.argv)}"
        (folder / "REPRODUCE").write_text(command + "\n\n" + result.output, encoding="utf-8")
        last = result.output.strip().splitlines()[-1:] or [""]
        lines.append(f"{item.name} [{item.kind}] {result.outcome} (exit {result.exit}): "
                     f"{item.target}: {last[0][:200]}\n    {command}")
    return "\n".join(lines)


def summary(results: list[Result]) -> str:
    counts = Counter(r.outcome for r in results)
    return ", ".join(f"{outcome} {counts[outcome]}" for outcome in sorted(counts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzzing", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the index of the first input")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", type=Path, help="a folder for the failing inputs")
    args = parser.parse_args(argv)
    if args.child is not None:
        child(args.child)
        return 0
    inputs = [fuzz_input(args.seed, i) for i in range(args.first, args.first + args.inputs)]
    results = run_inputs(inputs, args.workers)
    print(summary(results))
    by_kind: dict[str, Counter[str]] = {}
    for r in results:
        by_kind.setdefault(r.input.kind, Counter())[r.outcome] += 1
    for kind, counts in sorted(by_kind.items()):
        print(f"  {kind}: {dict(counts)}")
    if args.out is not None:
        print(save_failures(results, args.out))
    return 0 if all(r.outcome in PASSING for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
