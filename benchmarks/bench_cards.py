"""Check and build times of Ruler's Gambit with generated card sets of 1,000 to 50,000 cards,
and random playouts/s of the Ruler's Gambit module.

For each size N, a temporary folder gets a copy of rulebooks/rulers_gambit/rulers_gambit.rules
(its `decks "..."` line removed: the shipped decks name the real cards, which the generated set
does not hold, and the folder is not copied) and a card set file of the name its `cards "..."`
line gives, holding N cards shaped like the real ones (read from the real card set): each card
copies the fields of a random real card of a random kind (kinds in the real set's proportions),
with a unique name, random legal numbers (the ranges seen in the real set, costs at most 12),
random colours and keywords, and the real card's effect texts with every non-zero number
replaced by a random one of the same sign (1..99), so the number of distinct effect texts grows
with N. Generation is seeded.

Each size is measured in fresh subprocesses, one for `check` and one for `build`, so that sizes
share no caches and each reports its own peak memory (getrusage max RSS of the whole process).
Before the timed run, each subprocess checks the real rulebook once: that builds the Lark parser
(once per process) and imports the compiler, so the times below EXCLUDE the parser build and the
imports (reported as `warmup_s`).

    cards.N.distinct_effect_texts   distinct effect texts in the generated set
    cards.N.source_mb               size of the card set file
    cards.N.check_s                 compiler.driver.check_rulebook(path)
    cards.N.check_cards_per_s
    cards.N.check_peak_rss_mb
    cards.N.build_s                 check, then compiler.build.outputs(...) (module and docs)
    cards.N.build_cards_per_s
    cards.N.build_peak_rss_mb
    cards.N.module_mb               size of the generated Python module
    cards.linearity.check_s         check_s(50k) / check_s(10k): about 5 when linear
    cards.linearity.build_s         build_s(50k) / build_s(10k)
    rulers_gambit.playouts_per_s    random playouts/s of the real module (compiled in memory by
                                    compiler.api.load_game), one shipped deck pair, seats
                                    alternating
    rulers_gambit.plies_per_s

Targets are printed (`target`, `met`), never asserted: 10,000 cards checked < 1 s, built < 3 s,
peak memory < 200 MB.

Usage: python -m benchmarks.bench_cards [--sizes 1000,10000,50000] [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
GAME_DIR = ROOT / "rulebooks" / "rulers_gambit"
RULES = GAME_DIR / "rulers_gambit.rules"
DEFAULT_SIZES = (1_000, 10_000, 50_000)
DEFAULT_GAMES = 200
DEFAULT_SEED = 2024
MAX_COST = 12
EFFECT_NUMBERS = (1, 99)
TARGETS = {"check_s": 1.0, "build_s": 3.0, "peak_rss_mb": 200.0}  # at 10,000 cards
TARGET_SIZE = 10_000

CARDS_LINE = re.compile(r'^\s*cards\s+"([^"]+)"\s*$', re.MULTILINE)
DECKS_LINE = re.compile(r'^\s*decks\s+"[^"]*"\s*$', re.MULTILINE)
EFFECT_FIELD = re.compile(r"^\s*(\w+)\s*:\s*effect\s*\(", re.MULTILINE)
NUMBER = re.compile(r"\b\d+\b")
COST_FIELD = re.compile(r"(^|_)cost$")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "none", "~"}

Card = dict[str, Any]


# ------------------------------------------------------------------ generating card sets


def real_card_set(rules_text: str) -> tuple[str, dict[str, Any]]:
    """The card set file name the rulebook declares, and the real set's YAML data."""
    found = CARDS_LINE.search(rules_text)
    if found is None:
        raise RuntimeError(f"{RULES} declares no card set (cards \"...\")")
    data = yaml.safe_load((GAME_DIR / found.group(1)).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise RuntimeError(f"{found.group(1)} holds no 'cards:' list")
    return found.group(1), data


class Generator:
    """Cards shaped like the real set's: per kind, its templates and the ranges of its fields."""

    def __init__(self, real: list[Card], effect_fields: set[str], seed: int) -> None:
        self.rng = random.Random(seed)
        self.effect_fields = effect_fields
        self.kinds: list[str] = [str(card["kind"]) for card in real]  # proportions kept
        self.templates: dict[str, list[Card]] = {}
        self.ranges: dict[tuple[str, str], tuple[int, int]] = {}
        self.choices: dict[tuple[str, str], list[str]] = {}
        self.list_len: dict[tuple[str, str], int] = {}
        for card in real:
            kind = str(card["kind"])
            self.templates.setdefault(kind, []).append(card)
            for key, value in card.items():
                field = (kind, key)
                if isinstance(value, bool):
                    continue
                if isinstance(value, int):
                    low, high = self.ranges.get(field, (value, value))
                    self.ranges[field] = (min(low, value), max(high, value))
                elif isinstance(value, list):
                    pool = self.choices.setdefault(field, [])
                    pool.extend(str(v) for v in value if str(v) not in pool)
                    self.list_len[field] = max(self.list_len.get(field, 0), len(value))
                elif key == "colour":
                    pool = self.choices.setdefault(field, [])
                    if str(value) not in pool:
                        pool.append(str(value))

    def vary(self, text: str) -> str:
        """The effect text with every non-zero number replaced by a random one."""
        low, high = EFFECT_NUMBERS

        def replace(match: re.Match[str]) -> str:
            return match.group(0) if match.group(0) == "0" else str(self.rng.randint(low, high))

        return NUMBER.sub(replace, text)

    def card(self, index: int) -> Card:
        kind = self.rng.choice(self.kinds)
        template = self.rng.choice(self.templates[kind])
        card: Card = {}
        for key, value in template.items():
            field = (kind, key)
            if key == "name":
                card[key] = f"{value} {index:05d}"
            elif key == "description":
                card[key] = f"Generated card {index}, after {template['name']}."
            elif key in self.effect_fields and isinstance(value, str):
                card[key] = self.vary(value)
            elif isinstance(value, bool):
                card[key] = value
            elif isinstance(value, int):
                low, high = self.ranges[field]
                if COST_FIELD.search(key):
                    high = min(high, MAX_COST)
                card[key] = self.rng.randint(low, high)
            elif isinstance(value, list):
                pool = self.choices[field]
                longest = self.list_len[field]
                least = 1 if value else 0  # a Kingdom's colours are never empty
                card[key] = self.rng.sample(pool, self.rng.randint(least, min(longest, len(pool))))
            elif key == "colour":
                card[key] = self.rng.choice(self.choices[field])
            else:
                card[key] = value  # kind, spell type, targets, race, ruler name: the template's
        return card


def scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    text = str(value)
    if IDENTIFIER.match(text) and text.lower() not in YAML_WORDS:
        return text  # plain: enum values (kind, colour, targets, ...) must not be quoted
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def card_yaml(card: Card, effect_fields: set[str]) -> str:
    """One card as YAML: effects as literal blocks, everything else on one line."""
    lines: list[str] = []
    for position, (key, value) in enumerate(card.items()):
        lead = "  - " if position == 0 else "    "
        if key in effect_fields and isinstance(value, str):
            lines.append(f"{lead}{key}: |")
            lines.extend(f"      {line}" if line else "" for line in value.rstrip().split("\n"))
        else:
            lines.append(f"{lead}{key}: {scalar(value)}")
    return "\n".join(lines) + "\n"


def effect_texts(cards: list[Card], effect_fields: set[str]) -> set[str]:
    return {
        card[f].strip() for card in cards for f in effect_fields if isinstance(card.get(f), str)
    }


def generate(folder: Path, size: int, seed: int) -> tuple[Path, int]:
    """Write the rulebook and a card set of `size` cards into folder; return the rules path and
    the number of distinct effect texts."""
    rules_text = RULES.read_text(encoding="utf-8")
    file_name, data = real_card_set(rules_text)
    effect_fields = set(EFFECT_FIELD.findall(rules_text))
    generator = Generator(data["cards"], effect_fields, seed)
    cards = [generator.card(i) for i in range(size)]
    header = {k: v for k, v in data.items() if k != "cards"}
    parts = [f"{key}: {scalar(value)}\n" for key, value in header.items()]
    parts.append("cards:\n")
    parts.extend(card_yaml(card, effect_fields) for card in cards)
    (folder / file_name).write_text("".join(parts), encoding="utf-8")
    rules = folder / RULES.name
    rules.write_text(DECKS_LINE.sub("", rules_text), encoding="utf-8")
    return rules, len(effect_texts(cards, effect_fields))


# ------------------------------------------------------------------ measuring, in a subprocess


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def summary(compilation: Any) -> str:
    """The first diagnostics of a compilation that failed."""
    return "; ".join(f"{d.code} {d.span}: {d.message}" for d in compilation.diagnostics.items[:3])


def measure(mode: str, rules: Path, runs: int) -> dict[str, Any]:
    """Run in a fresh process: warm up on the real rulebook, then time check (or build)."""
    from compiler.build import outputs
    from compiler.driver import check_rulebook

    start = time.perf_counter()
    warm = check_rulebook(RULES)
    if not warm.ok:
        raise RuntimeError(f"{RULES} does not check cleanly: {summary(warm)}")
    warmup = time.perf_counter() - start
    rss_before = peak_rss_mb()
    samples: list[float] = []
    module_bytes = 0
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        compilation = check_rulebook(rules)
        if not compilation.ok:
            raise RuntimeError(f"the generated card set does not check: {summary(compilation)}")
        if mode == "build":
            files = outputs(compilation, rules.parent / "out")
            module = files[rules.parent / "out" / f"{rules.stem}.py"]
            # its size in bytes without a second copy of it (a module is almost all ASCII)
            module_bytes = len(module) if module.isascii() else len(module.encode())
            del files, module  # a run's outputs are not kept alive through the next run
        samples.append(time.perf_counter() - start)
        del compilation
    return {
        "seconds": statistics.median(samples),
        "warmup_s": warmup,
        "peak_rss_mb": peak_rss_mb(),
        "rss_after_warmup_mb": rss_before,
        "module_bytes": module_bytes,
    }


def run_child(mode: str, rules: Path, runs: int) -> dict[str, Any]:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_cards", "--child", mode, "--rules", str(rules),
         "--runs", str(runs)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{mode} of {rules} failed: {completed.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


# ------------------------------------------------------------------ playouts


def playouts(games: int) -> tuple[float, int, tuple[str, str]]:
    """(seconds, plies, deck pair) of `games` random playouts of the real module."""
    from compiler.api import load_game

    game = load_game(str(RULES))
    kingdom = game.E_KIND_NAMES.index("kingdom")
    by_colours: dict[frozenset[str], list[str]] = {}
    for name in sorted(game.DECKS):
        colours = frozenset(
            game.E_COLOUR_NAMES[c] for d in game.DECKS[name] if game.C_CARD_KIND[d] == kingdom
            for c in game.C_CARD_COLOURS[d]
        )
        by_colours.setdefault(colours, []).append(name)
    pairs = sorted(tuple(group[:2]) for group in by_colours.values() if len(group) >= 2)
    names = sorted(game.DECKS)
    pair: tuple[str, str] = (pairs[0][0], pairs[0][1]) if pairs else (names[0], names[-1])

    def play(seeds: range) -> int:
        plies = 0
        for seed in seeds:
            a, b = pair if seed % 2 == 0 else (pair[1], pair[0])
            state = game.new_game(seed=seed, decks={"A": a, "B": b})
            choose = random.Random(seed).choice
            while not state.is_terminal():
                state.apply_action(choose(state.legal_actions()))
                plies += 1
        return plies

    play(range(min(10, games)))  # warm up
    gc.collect()
    start = time.perf_counter()
    plies = play(range(games))
    return time.perf_counter() - start, plies, pair


# ------------------------------------------------------------------ reporting


def emit(name: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"name": name, "value": value, "unit": unit, **extra}), flush=True)


def target_fields(size: int, key: str, value: float) -> dict[str, Any]:
    if size != TARGET_SIZE or key not in TARGETS:
        return {}
    return {"target": f"< {TARGETS[key]}", "met": value < TARGETS[key]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_cards",
        description="Check and build times on generated card sets; Ruler's Gambit playouts/s.",
    )
    parser.add_argument("--sizes", default=",".join(str(s) for s in DEFAULT_SIZES),
                        help="card set sizes, comma-separated (default 1000,10000,50000)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"random playouts of the real module (default {DEFAULT_GAMES})")
    parser.add_argument("--runs", type=int, default=1,
                        help="timed runs per size and mode, in one subprocess (median)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="card generation seed")
    parser.add_argument("--child", choices=("check", "build"), help=argparse.SUPPRESS)
    parser.add_argument("--rules", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.child:
        if args.rules is None:
            parser.error("--child needs --rules")
        print(json.dumps(measure(args.child, args.rules, args.runs)), flush=True)
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    seconds: dict[tuple[int, str], float] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="rulecraft-cards-") as folder:
            rules, distinct = generate(Path(folder), size, args.seed)
            source_bytes = sum(p.stat().st_size for p in Path(folder).iterdir() if p != rules)
            emit(f"cards.{size}.distinct_effect_texts", distinct, "texts")
            emit(f"cards.{size}.source_mb", round(source_bytes / 2**20, 2), "MB")
            for mode in ("check", "build"):
                result = run_child(mode, rules, args.runs)
                value = result["seconds"]
                seconds[(size, mode)] = value
                emit(f"cards.{size}.{mode}_s", round(value, 3), "s",
                     warmup_s=round(result["warmup_s"], 3), runs=args.runs,
                     **target_fields(size, f"{mode}_s", value))
                emit(f"cards.{size}.{mode}_cards_per_s", round(size / value), "cards/s")
                peak = round(result["peak_rss_mb"], 1)
                emit(f"cards.{size}.{mode}_peak_rss_mb", peak, "MB",
                     after_warmup_mb=round(result["rss_after_warmup_mb"], 1),
                     **target_fields(size, "peak_rss_mb", peak))
                if mode == "build":
                    emit(f"cards.{size}.module_mb", round(result["module_bytes"] / 2**20, 2),
                         "MB")
    for mode in ("check", "build"):
        if (50_000, mode) in seconds and (10_000, mode) in seconds:
            ratio = seconds[(50_000, mode)] / seconds[(10_000, mode)]
            emit(f"cards.linearity.{mode}_s", round(ratio, 2), "ratio 50k/10k",
                 linear=5.0)
    if args.games > 0:
        elapsed, plies, pair = playouts(args.games)
        emit("rulers_gambit.playouts_per_s", round(args.games / elapsed, 1), "playouts/s",
             decks=list(pair), games=args.games)
        emit("rulers_gambit.plies_per_s", round(plies / elapsed), "plies/s",
             mean_plies=round(plies / args.games, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
