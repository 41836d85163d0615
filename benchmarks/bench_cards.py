"""The real CLI's `check` and `build` of generated card sets of 1,000 to 50,000 cards, with
repetitive and with varied effect texts, decks included; `check` of each shipped rulebook
(start-up); random playouts/s of the Ruler's Gambit module.

For each size N and each kind of text, a temporary folder gets a copy of
rulebooks/rulers_gambit/rulers_gambit.rules, a card set of the name its `cards "..."` line gives
holding N cards shaped like the real ones (read from the real card set), and up to 6 legal
decks of those cards in the decks folder its `decks "..."` line names (so the deck check is
timed too). Each card copies the fields of a random real card of a random kind (kinds in the
real set's proportions), with a unique name, random legal numbers (the ranges seen in the real
set, costs at most 12), random colours and keywords. Its effect texts are:

* repetitive: the real card's texts with every non-zero number replaced by a random one of the
  same sign (1..99): texts differ, their shapes repeat;
* varied: 1 to 3 statements drawn from a small grammar of the real set's statements, nested up
  to two levels (VariedEffects): almost every text has a shape of its own, as in real pools;
* dumped: the repetitive cards written by a program rather than by hand, with
  `yaml.safe_dump(data, sort_keys=True, allow_unicode=True, width=80)` (issue 12): keys sorted
  (`cards` before `type`), lists as indentless block sequences, long texts folded over several
  lines, effects as quoted scalars on several lines.

Generation is seeded. Every command runs as a user runs it, `python -m compiler check|build`
in a fresh process: the times are wall times of the whole process (start-up, imports and the
parser build included) and the memory is the process's peak RSS (wait4); each time also carries
`cpu_s`, the process's processor time (user + system, wait4), which other jobs on a loaded
machine change much less than the wall time. The targets are for a
first check: those runs have `--no-cache` (no parsed rulebook kept from an earlier run, as for
a new rulebook; Lark's parser tables are kept, as after any first run). The `_warm_s` figures
are the same command again with the rulebook kept by dsl.parse_cache.

    cli.check.<rulebook>_s           `rulecraft check --no-cache` of a shipped rulebook (median
                                     of 3+)
    cli.check.<rulebook>_warm_s      `rulecraft check` of it, its parsed rulebook kept
    cards.<texts>.N.distinct_effect_texts   (and how many decks)
    cards.<texts>.N.source_mb        size of the card set and decks
    cards.<texts>.N.check_s          `rulecraft check --no-cache RULES`
    cards.<texts>.N.check_warm_s     `rulecraft check RULES`, its parsed rulebook kept
    cards.<texts>.N.check_cards_per_s
    cards.<texts>.N.check_peak_rss_mb
    cards.<texts>.N.build_s          `rulecraft build --no-cache RULES -o DIR` (module, docs)
    cards.<texts>.N.build_cards_per_s
    cards.<texts>.N.build_peak_rss_mb
    cards.<texts>.N.module_mb        size of the generated Python module
    cards.<texts>.linearity.check_s  check_s(50k) / check_s(10k): about 5 when linear
    cards.<texts>.linearity.build_s  build_s(50k) / build_s(10k)
    rulers_gambit.playouts_per_s     random playouts/s of the real module (compiled in memory by
                                     compiler.api.load_game), one shipped deck pair, seats
                                     alternating
    rulers_gambit.plies_per_s

Targets are printed (`target`, `met`), never asserted: at 10,000 cards, checked in < 2 s and
built in < 4 s with a peak memory < 300 MB; a shipped rulebook checked in < 0.4 s.

Usage: python -m benchmarks.bench_cards [--sizes 1000,10000,50000] [--games N] [--seed S]
       [--runs R] [--texts repetitive,varied,dumped]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import yaml

ROOT = Path(__file__).resolve().parent.parent
GAME_DIR = ROOT / "rulebooks" / "rulers_gambit"
RULES = GAME_DIR / "rulers_gambit.rules"
DEFAULT_SIZES = (1_000, 10_000, 50_000)
DEFAULT_GAMES = 200
DEFAULT_SEED = 2024
MAX_COST = 12
EFFECT_NUMBERS = (1, 99)
# At 10,000 cards, the whole `rulecraft check`/`build` process (issue 12)
TARGETS = {"check_s": 2.0, "build_s": 4.0, "peak_rss_mb": 300.0}
TARGET_SIZE = 10_000
STARTUP_TARGET = 0.4  # `rulecraft check` of one shipped rulebook, seconds
TEXTS = ("repetitive", "varied", "dumped")
DECKS, DECK_DISTINCT = 6, 20  # decks per generated set; distinct cards per deck (19 x 2 + 1)
SHIPPED = ("rulebooks/dynasties/dynasties.rules", "rulebooks/rulers_gambit/rulers_gambit.rules")

CARDS_LINE = re.compile(r'^\s*cards\s+"([^"]+)"\s*$', re.MULTILINE)
DECKS_LINE = re.compile(r'^\s*decks\s+"([^"]*)"\s*$', re.MULTILINE)
EFFECT_FIELD = re.compile(r"^\s*(\w+)\s*:\s*effect\s*\(([^)]*)\)", re.MULTILINE)
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

    def __init__(self, real: list[Card], effect_fields: dict[str, bool], seed: int,
                 varied: bool) -> None:
        self.rng = random.Random(seed)
        self.effect_fields = effect_fields  # name: whether the effect has a target
        self.varied = VariedEffects(self.rng) if varied else None
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
                if self.varied is None:
                    card[key] = self.vary(value)
                else:
                    card[key] = self.varied.text(self.effect_fields[key])
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


class VariedEffects:
    """Effect texts that differ in shape, not only in their numbers: each is 1 to 3 statements
    drawn from a small grammar of the statements the real set uses (effects on a player, on
    `this`, on a target when the card has one, on the first card of a zone, on every unit of a
    side), nested in `if ... { } else { }`, `for` and `repeat` up to two levels deep. Real card
    pools are like this: the shape cache of the checker rarely hits."""

    PLAYERS = ("you", "opponent(you)")
    ON_PLAYER = ("damage({p}, {n})", "heal(you, {n})", "draw_cards({p}, {n})",
                 "gain_mana(you, {n})", "drain_mana(opponent(you), {n})", "mill({p}, {n})")
    ON_CARD = ("injure({c})", "bounce({c})", "store({c})", "destroy({c})", "seal({c})",
               "rest({c})", "stand({c})", "buff({c}, {n}, {m}, 0)", "buff({c}, 0, {n}, {m})",
               "grant({c}, counterattack)", "grant({c}, double_attack)")
    CONDITIONS = ("size(hand[{p}]) <= {n}", "size(hand[{p}]) >= {n}", "{p}.lp <= {big}",
                  "size(units[{p}]) >= {small}", "defence_of({c}) <= {n}",
                  "attack_of({c}) >= {n}")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.names = 0

    def fresh(self, stem: str) -> str:
        self.names += 1
        return f"{stem}{self.names}"

    def fill(self, template: str, card: str) -> str:
        rng = self.rng
        return template.format(p=rng.choice(self.PLAYERS), n=rng.randint(1, 9),
                               m=rng.randint(1, 9), big=rng.randint(1, 40),
                               small=rng.randint(1, 5), c=card)

    def statement(self, cards: list[str], depth: int, indent: str) -> list[str]:
        rng, inner = self.rng, indent + "  "
        roll = rng.randrange(10 if depth < 2 else 4)
        if roll < 2 or not cards:
            return [indent + self.fill(rng.choice(self.ON_PLAYER), "")]
        if roll < 4:
            return [indent + self.fill(rng.choice(self.ON_CARD), rng.choice(cards))]
        if roll < 6:  # the first card of a zone, if there is one
            name = self.fresh("c")
            zone = rng.choice(("hand", "units", "stock", "graveyard"))
            return [f"{indent}let {name} = first({zone}[{rng.choice(self.PLAYERS)}])",
                    f"{indent}if {name} != none {{",
                    *self.block([*cards, name], depth + 1, inner), f"{indent}}}"]
        if roll < 8:
            condition = self.fill(rng.choice(self.CONDITIONS), rng.choice(cards))
            lines = [f"{indent}if {condition} {{", *self.block(cards, depth + 1, inner)]
            if rng.random() < 0.5:
                lines += [f"{indent}}} else {{", *self.block(cards, depth + 1, inner)]
            return [*lines, f"{indent}}}"]
        if roll < 9:
            name = self.fresh("u")
            return [f"{indent}for {name} in units[{rng.choice(self.PLAYERS)}] {{",
                    *self.block([name], depth + 1, inner), f"{indent}}}"]
        return [f"{indent}repeat {rng.randint(2, 3)} {{",
                *self.block(cards, depth + 1, inner), f"{indent}}}"]

    def block(self, cards: list[str], depth: int, indent: str) -> list[str]:
        lines: list[str] = []
        for _ in range(self.rng.randint(1, 3 if depth == 0 else 2)):
            lines += self.statement(cards, depth, indent)
        return lines

    def text(self, has_target: bool) -> str:
        """An effect: with a target, its statements run under `if target != none`."""
        self.names = 0
        cards = ["this"]
        if has_target:
            body = self.block([*cards, "target"], 1, "  ")
            return "\n".join(["if target != none {", *body, "}"]) + "\n"
        return "\n".join(self.block(cards, 0, "")) + "\n"


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


def card_yaml(card: Card, effect_fields: Collection[str]) -> str:
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


def effect_texts(cards: list[Card], effect_fields: Collection[str]) -> set[str]:
    return {
        card[f].strip() for card in cards for f in effect_fields if isinstance(card.get(f), str)
    }


def deck_files(cards: list[Card], rng: random.Random) -> dict[str, str]:
    """Up to DECKS legal decks of the generated cards (the real rules' deck check: one Kingdom
    and 39 cards of its colours, at most 2 copies each), by file name."""
    kingdoms = [card for card in cards if card["kind"] == "kingdom"]
    rng.shuffle(kingdoms)
    decks: dict[str, str] = {}
    for kingdom in kingdoms:
        colours = set(kingdom["colours"])
        allowed = [c for c in cards if c["kind"] != "kingdom" and c.get("colour") in colours]
        if len(allowed) < DECK_DISTINCT:
            continue
        chosen = rng.sample(allowed, DECK_DISTINCT)
        counts = [2] * (DECK_DISTINCT - 1) + [1]  # 39 cards
        lines = [f"name: {scalar('Deck of ' + kingdom['name'])}", "cards:",
                 f"  {scalar(kingdom['name'])}: 1"]
        lines += [f"  {scalar(card['name'])}: {count}" for card, count in zip(chosen, counts,
                                                                                strict=True)]
        decks[f"deck{len(decks) + 1}.deck.yaml"] = "\n".join(lines) + "\n"
        if len(decks) == DECKS:
            break
    return decks


def dumped_yaml(data: dict[str, Any], width: int | None = 80) -> str:
    """A card set as a program writes it: PyYAML's safe_dump, keys sorted."""
    return yaml.safe_dump(data, sort_keys=True, allow_unicode=True, width=width)


def generate(folder: Path, size: int, seed: int, varied: bool = False,
             decks: bool = False, dumped: bool = False) -> tuple[Path, int]:
    """Write the rulebook and a card set of `size` cards into folder; return the rules path and
    the number of distinct effect texts. With `decks`, up to DECKS decks of the generated cards
    go into the decks folder the rulebook names; without, its `decks` line is removed (the
    shipped decks name real cards, which the generated set does not hold). With `dumped`, the
    card set is written by dumped_yaml rather than in the hand-written layout."""
    rules_text = RULES.read_text(encoding="utf-8")
    file_name, data = real_card_set(rules_text)
    decks_line = DECKS_LINE.search(rules_text)
    if decks_line is None:
        raise RuntimeError(f"{RULES} declares no decks folder (decks \"...\")")
    effect_fields = {name: "target" in params for name, params in EFFECT_FIELD.findall(rules_text)}
    generator = Generator(data["cards"], effect_fields, seed, varied)
    cards = [generator.card(i) for i in range(size)]
    header = {k: v for k, v in data.items() if k != "cards"}
    if dumped:
        text = dumped_yaml({**header, "cards": cards})
    else:
        parts = [f"{key}: {scalar(value)}\n" for key, value in header.items()]
        parts.append("cards:\n")
        parts.extend(card_yaml(card, effect_fields) for card in cards)
        text = "".join(parts)
    (folder / file_name).write_text(text, encoding="utf-8")
    if decks:
        decks_folder = folder / decks_line.group(1)
        decks_folder.mkdir()
        for name, text in deck_files(cards, random.Random(seed)).items():
            (decks_folder / name).write_text(text, encoding="utf-8")
    else:
        rules_text = DECKS_LINE.sub("", rules_text)
    rules = folder / RULES.name
    rules.write_text(rules_text, encoding="utf-8")
    return rules, len(effect_texts(cards, effect_fields))


# ------------------------------------------------------------------ measuring the real CLI


class Run(NamedTuple):
    wall: float  # seconds
    peak: float  # peak RSS, MB
    cpu: float  # processor seconds (user + system): what a loaded machine moves least


def run_cli(arguments: list[str]) -> Run:
    """One `rulecraft ...` process, run as a user runs it."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "compiler", *arguments], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.stdout is not None and process.stderr is not None
    stderr = process.stderr.read().decode(errors="replace")
    process.stdout.close()
    process.stderr.close()
    if process.returncode != 0:
        raise RuntimeError(f"rulecraft {' '.join(arguments)} failed ({process.returncode}): "
                           f"{stderr.strip()[-2000:]}")
    return Run(wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)  # KiB on Linux


def measure_cli(arguments: list[str], runs: int) -> Run:
    """The median wall and processor times and the largest peak RSS of `runs` runs."""
    samples = [run_cli(arguments) for _ in range(runs)]
    return Run(statistics.median(r.wall for r in samples), max(r.peak for r in samples),
               statistics.median(r.cpu for r in samples))


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
        description="The real CLI's check and build of generated card sets; Ruler's Gambit "
                    "playouts/s.",
    )
    parser.add_argument("--sizes", default=",".join(str(s) for s in DEFAULT_SIZES),
                        help="card set sizes, comma-separated (default 1000,10000,50000)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"random playouts of the real module (default {DEFAULT_GAMES})")
    parser.add_argument("--runs", type=int, default=1,
                        help="runs of each command (median time, largest peak memory)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="card generation seed")
    parser.add_argument("--texts", default=",".join(TEXTS),
                        help=f"kinds of card sets, comma-separated (default {','.join(TEXTS)})")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    for rulebook in SHIPPED:
        path = str(ROOT / rulebook)
        wall, peak, cpu = measure_cli(["check", "--no-cache", path], max(args.runs, 3))
        emit(f"cli.check.{Path(rulebook).stem}_s", round(wall, 3), "s", peak_rss_mb=round(peak, 1),
             cpu_s=round(cpu, 3), cache="none", target=f"< {STARTUP_TARGET}",
             met=wall < STARTUP_TARGET)
        run_cli(["check", path])  # keeps the parsed rulebook
        wall, peak, cpu = measure_cli(["check", path], max(args.runs, 3))
        emit(f"cli.check.{Path(rulebook).stem}_warm_s", round(wall, 3), "s",
             peak_rss_mb=round(peak, 1), cpu_s=round(cpu, 3), cache="rulebook kept",
             target=f"< {STARTUP_TARGET}", met=wall < STARTUP_TARGET)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    kinds = [t.strip() for t in args.texts.split(",") if t.strip()]
    if any(kind not in TEXTS for kind in kinds):
        parser.error(f"--texts takes some of {', '.join(TEXTS)}")
    for texts in kinds:
        seconds: dict[tuple[int, str], float] = {}
        for size in sizes:
            with tempfile.TemporaryDirectory(prefix="rulecraft-cards-") as name:
                folder = Path(name)
                rules, distinct = generate(folder, size, args.seed, texts == "varied", True,
                                           texts == "dumped")
                source_bytes = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()
                                   and p != rules)
                decks = len(list(folder.rglob("*.deck.yaml")))
                key = f"cards.{texts}.{size}"
                emit(f"{key}.distinct_effect_texts", distinct, "texts", decks=decks)
                emit(f"{key}.source_mb", round(source_bytes / 2**20, 2), "MB")
                out = folder / "out"
                for mode, command in (("check", ["check", "--no-cache", str(rules)]),
                                      ("build", ["build", "--no-cache", str(rules), "-o",
                                                 str(out)])):
                    wall, peak, cpu = measure_cli(command, args.runs)
                    seconds[(size, mode)] = wall
                    emit(f"{key}.{mode}_s", round(wall, 3), "s", runs=args.runs,
                         cpu_s=round(cpu, 3), **target_fields(size, f"{mode}_s", wall))
                    emit(f"{key}.{mode}_cards_per_s", round(size / wall), "cards/s")
                    emit(f"{key}.{mode}_peak_rss_mb", round(peak, 1), "MB",
                         **target_fields(size, "peak_rss_mb", peak))
                # the same set checked again, its rulebook kept (dsl.parse_cache): not what
                # the targets are for, which are a first check of a new card set
                run_cli(["check", str(rules)])
                wall, peak, cpu = measure_cli(["check", str(rules)], args.runs)
                emit(f"{key}.check_warm_s", round(wall, 3), "s", runs=args.runs,
                     cache="rulebook kept", peak_rss_mb=round(peak, 1), cpu_s=round(cpu, 3))
                module = out / f"{rules.stem}.py"
                emit(f"{key}.module_mb", round(module.stat().st_size / 2**20, 2), "MB")
        for mode in ("check", "build"):
            if (50_000, mode) in seconds and (10_000, mode) in seconds:
                ratio = seconds[(50_000, mode)] / seconds[(10_000, mode)]
                emit(f"cards.{texts}.linearity.{mode}_s", round(ratio, 2), "ratio 50k/10k",
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
