"""A fuzzing harness for the command line: seeded broken inputs (tests/fuzz_inputs.py: mutated
rulebooks, random bytes in place of a file, mutated YAML), each run by `rulecraft check` (or
`rulecraft test`, for a scenario) in a child process with a time and a memory cap.

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
import re
import resource
import selectors
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

from tests.fuzz_inputs import ROOT, Input, copy_tree, fuzz_input, source_of

PASSING = ("ok", "diagnostic")
TIME_CAP_S = 20.0
MEMORY_CAP_BYTES = 2 * 1024**3
_MARK = "@@fuzz "
_LOCATED = re.compile(r"^[^\s:][^:\n]*:\d+:\d+: error\[E\d{4}\]: |^FAIL \S+:\d+ ", re.MULTILINE)


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
        path.write_bytes(source_of(target).read_bytes())


def run_inputs(inputs: list[Input], workers: int = 1, time_cap: float = TIME_CAP_S,
               folder: Path | None = None) -> list[Result]:
    """Every input's result, in input order; `workers` children run side by side, each in
    its own copy."""
    with tempfile.TemporaryDirectory(prefix="rulecraft-fuzz-", dir=folder) as temporary:
        work = Path(temporary)
        shares = [list(range(w, len(inputs), workers)) for w in range(max(1, workers))]

        def run_share(number: int) -> list[tuple[int, Result]]:
            copy, scratch = work / f"copy{number}", work / f"scratch{number}"
            copy_tree(copy)
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
        copy_tree(folder)
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
