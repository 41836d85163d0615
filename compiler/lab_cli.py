"""`rulecraft simulate`: the balance lab on the command line — parse the agents, run the games
(in processes with --jobs), show progress, stop cleanly on Ctrl-C, and print the figures as
rounded text or exact JSON, with an HTML report and a rule-coverage gate on request."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from compiler import agents, lab, lab_records
from compiler.api import seat_count
from compiler.lab_ray import RayUnavailable
from compiler.lab_records import RecordsError
from compiler.lab_stats import Record, summarize
from compiler.project import NO_SUCH_PATH, path_problem
from dsl.runtime_base import RuleError
from dsl.runtime_setup import count_refusal, counts_text

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def usage(message: str) -> int:
    print(f"rulecraft simulate: {message}", file=sys.stderr)
    return EXIT_USAGE


def simulate(args: argparse.Namespace, game: ModuleType, name: str,
             options: dict[str, object], decks: list[str] | None) -> int:
    if args.merge:
        return _merged(args, game, name)
    if args.n < 1:
        return usage(f"-n must be at least 1 (got {args.n})")
    if args.jobs < 1:
        return usage(f"--jobs must be at least 1 (got {args.jobs})")
    if args.first_game < 0:
        return usage(f"--first-game must be 0 or more (got {args.first_game})")
    if args.max_plies < 1:
        return usage(f"--max-plies must be at least 1 (got {args.max_plies})")
    if args.resume and not args.records:
        return usage("--resume needs --records F.jsonl: the file of the run to resume")
    if args.address is not None and args.backend != "ray":
        return usage("--address is for --backend ray")
    if args.backend == "ray":
        from compiler import lab_ray

        if not lab_ray.available():
            return usage(lab_ray.INSTALL_HINT)
    try:
        specs = agents.parse(args.agents if args.agents is not None else "random")
        for spec in specs:
            agents.make(spec)
    except agents.AgentError as error:
        return usage(str(error))
    low, high = game.INFO["players"]
    players: int | None = args.players
    try:
        counts = game.player_counts(options)  # an unknown option or value is refused here
    except ValueError as error:
        return usage(str(error))
    # One agent (random when --agents is not given) plays every seat of the game's count
    # (`--players N`, else the fewest it is for); listed agents are one per seat, and their
    # number is the count.
    counted = len(specs) == 1  # the count is the game's or --players, not the agents listed
    if counted:
        specs = [specs[0]] * seat_count(game, players, options)
    elif players is not None and players != len(specs):
        return usage(f"{len(specs)} agents for --players {players}: one agent per seat")
    if not low <= len(specs) <= high:
        # written as new_game's refusal (and play's and serve's) writes it: '3-6', '2-4 or 6'
        if counted:
            return usage(count_refusal(game.INFO["name"], counts, len(specs)))
        return usage(f"{len(specs)} agents for a game of {counts_text(counts)} players")
    if args.report:
        folder = Path(args.report).resolve().parent
        if not folder.is_dir():  # said now, not after every game is played
            return usage(f"cannot write the report: no folder {folder}")
    if decks is not None and len(decks) != len(specs):
        return usage(f"{len(decks)} decks for {len(specs)} agents: one deck per agent")
    setup = lab.Setup(game=name, seed=args.seed, agents=specs, options=options, decks=decks,
                      swap=not args.no_swap, coverage=args.coverage, max_plies=args.max_plies)
    if args.coverage:
        setup.keyword_tables, setup.keyword_tests = _keyword_tables(name)
    try:
        first = game.new_game(seed=args.seed, players=len(specs), options=options, decks=decks)
    except RuleError as error:  # the rules' own error, whatever was asked
        print(f"{game.INFO['name']}: setup failed: {error}", file=sys.stderr)
        return 1
    except ValueError as error:
        return usage(str(error))
    wanted = range(args.first_game, args.first_game + args.n)
    done: dict[int, Record] = {}
    writer = None
    if args.records:
        try:
            done, writer = _open_records(Path(args.records), game.INFO["name"], setup, wanted,
                                         args.resume)
        except RecordsError as error:
            return usage(str(error))
    missing = [i for i in wanted if i not in done]
    if not missing:
        stream = _nothing()
    elif args.backend == "ray":
        stream = _ray_stream(name, setup, missing, args.jobs, args.address)
    else:
        stream = lab.run(game, setup, len(missing), args.jobs, indices=missing)
    try:
        played, interrupted, elapsed = _play(stream, len(missing), writer)
    except RayUnavailable as error:
        return usage(str(error))
    except lab.GameBroke as error:
        print(f"{game.INFO['name']}: {error}", file=sys.stderr)
        print(f"  to play it alone, run the same command with --first-game {error.index} -n 1",
              file=sys.stderr)
        return 1
    records = sorted([*done.values(), *played], key=lambda r: r.seed)
    return _finish(args, game, setup, first, records, interrupted, elapsed, len(played))


def _finish(args: argparse.Namespace, game: ModuleType, setup: lab.Setup, first: Any,
            records: list[Record], interrupted: bool, elapsed: float, played: int) -> int:
    """Report the run's records (those played now, and those a records file already held)."""
    # the names of the count played (a game may name its seats per count)
    seat_names = list(first.seats())[: len(setup.agents)]
    declared = None
    if setup.coverage:
        owned = {c for r in records for cards in r.owned for c in cards}
        declared = lab.declared(game, owned, setup.keyword_tables)
    report: dict[str, Any] = {"game": game.INFO["name"], "seed": setup.seed,
                              "seats_swapped": setup.swap, "interrupted": interrupted}
    start = records[0].seed - setup.seed if records else args.first_game
    if start:  # a slice of a run: its games are start, start + 1, ...
        report["first_game"] = start
    report |= summarize(records, seat_names, [agents.label(s) for s in setup.agents], declared)
    if args.report:
        from compiler.lab_report import MissingPlots, write_html

        try:
            write_html(report, Path(args.report))
        except (MissingPlots, OSError) as error:
            return usage(f"cannot write the report: {error}")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_text(report, sys.stdout)
        if elapsed > 0 and played:
            print(f"{played / elapsed:.1f} games/s on {args.jobs} "
                  f"process{'es' if args.jobs > 1 else ''}")
    if interrupted:
        print(f"interrupted: {len(records)} of {args.n} games played", file=sys.stderr)
        return EXIT_INTERRUPTED
    if report.get("coverage", {}).get("never_fired"):
        return EXIT_FAIL
    return EXIT_OK


def _open_records(path: Path, game: str, setup: lab.Setup, wanted: range,
                  resume: bool) -> tuple[dict[int, Record], lab_records.Writer]:
    """The games a records file already holds of this run (with --resume) and its writer."""
    head = lab_records.header(game, setup)
    problem = path_problem(path)
    if problem not in (None, NO_SUCH_PATH):  # a name too long, a loop of links
        raise RecordsError(f"cannot use {path}: {problem}")
    if not path.is_file() or path.stat().st_size == 0:
        return {}, lab_records.Writer(path, head, None)
    if not resume:
        raise RecordsError(f"{path} exists: --resume plays the games of the run it misses "
                           f"(or name another file)")
    found_head, found, keep = lab_records.read(path)
    if (why := lab_records.mismatch(found_head, head)) is not None:
        raise RecordsError(f"{path} holds the records of another run: {why}")
    outside = sorted(i for i in found if i not in wanted)
    if outside:
        raise RecordsError(f"{path} holds game {outside[0]}, which is not one of this run's "
                           f"games {wanted.start}-{wanted.stop - 1} (-n, --first-game)")
    return found, lab_records.Writer(path, head, keep)


def _nothing() -> Generator[Record, None, None]:
    yield from ()


def _merged(args: argparse.Namespace, game: ModuleType, name: str) -> int:
    """`--merge A.jsonl B.jsonl ...`: the report of the run whose slices the files hold."""
    if args.records or args.resume or args.first_game:
        return usage("--merge plays no game: it takes no --records, --resume or --first-game")
    try:
        head, records, _ = lab_records.merge([Path(p) for p in args.merge])
    except RecordsError as error:
        return usage(str(error))
    if head["game"] != game.INFO["name"]:
        return usage(f"the files hold games of {head['game']}, not of {game.INFO['name']}")
    try:
        setup = lab_records.setup_of(head, name)
        if setup.coverage:
            setup.keyword_tables, _ = _keyword_tables(name)
        first = game.new_game(seed=setup.seed, players=len(setup.agents),
                              options=setup.options, decks=setup.decks)
    except (ValueError, TypeError, KeyError) as error:
        return usage(f"the files' run does not fit {game.INFO['name']}: {error}")
    return _finish(args, game, setup, first, records, False, 0.0, 0)


def _keyword_tables(name: str) -> tuple[list[str], dict[str, str]]:
    """The game's tables of printed keywords, and its tests made at load that read them."""
    from compiler import api
    from compiler.pygen import generate_python

    try:
        model = api.load_game_model(name)[0]
    except api.GameNotFound:  # a module not compiled from a rulebook here: keywords unknown
        return [], {}
    tables = lab.keyword_tables(model)
    return tables, lab.keyword_tests(generate_python(model), tables) if tables else {}


def _ray_stream(name: str, setup: lab.Setup, indices: list[int], jobs: int,
                address: str | None) -> Generator[Record, None, None]:
    """The run on Ray: the game goes to the workers as its generated source."""
    from compiler import api, lab_ray
    from compiler.pygen import generate_python

    model, _ = api.load_game_model(name)
    return lab_ray.run(name=model.name, source=generate_python(model), setup=setup,
                       games=len(indices), jobs=jobs, address=address, indices=indices)


def _play(stream: Generator[Record, None, None], games: int,
          writer: lab_records.Writer | None = None) -> tuple[list[Record], bool, float]:
    """The records (each written to the records file, if any, as its game ends), whether
    Ctrl-C (or SIGTERM) stopped the run, and the seconds it took."""
    records: list[Record] = []
    interrupted = False
    started = time.perf_counter()
    progress = _Progress(games, sys.stderr)
    # a CI timeout or `kill` stops a long run as Ctrl-C does: with the figures of the games
    # played (a job started in the background by a shell ignores SIGINT)
    stopper = _Stopper()
    previous = {sig: signal.signal(sig, stopper) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for record in stream:
            with stopper.held():
                if writer is not None:
                    writer.add(record)
                records.append(record)
            progress.advance(len(records))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        stream.close()
        progress.close()
        if writer is not None:
            writer.close()
    return records, interrupted, time.perf_counter() - started


class _Stopper:
    """Ctrl-C and SIGTERM stop the run, but not between writing a game's record to the file and
    adding it to the report: the signal then waits to the end of that (a signal during the
    file's fsync left a game in the file that the stopped run's report missed). A flag, not a
    signal mask: the pool's threads would take a signal the main thread masks."""

    def __init__(self) -> None:
        self.holding = False
        self.pending = False

    def __call__(self, _signum: int, _frame: object) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def held(self) -> Iterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            if self.pending:
                self.pending = False
                raise KeyboardInterrupt


class _Progress:
    """A rich progress bar on a terminal; in CI and pipes, a plain line every tenth."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total = total
        self.out = out
        self.bar: Any = None
        self.step = max(1, total // 10)
        if out.isatty() and _has_rich():
            from rich.progress import Progress

            self.bar = Progress(console=_console(out), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("games", total=total)

    def advance(self, done: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done)
        elif done % self.step == 0 or done == self.total:
            print(f"{done}/{self.total} games", file=self.out, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _has_rich() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:  # an extra (`rulecraft[lab]`): without it, plain lines
        return False
    return True


def _console(out: TextIO) -> Any:
    from rich.console import Console

    return Console(file=out)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(figure: dict[str, Any]) -> str:
    if figure["ci95"] is None:  # over no games
        return "—"
    low, high = figure["ci95"]
    return f"{_pct(figure['rate'])} [{_pct(low)}, {_pct(high)}]"


def print_text(report: dict[str, Any], out: TextIO) -> None:
    """The report for people: rates in percent to one decimal, 95% intervals in brackets."""
    w = out.write
    seats = "moved one on each game" if report["seats_swapped"] else "fixed"
    # an agent's label may hold commas (mcts:iterations=3,c=0.5): then ';' parts the agents
    parted = "; " if any("," in label for label in report["agents"]) else ", "
    w(f"{report['game']}: seed {report['seed']}, agents {parted.join(report['agents'])}, "
      f"seats {seats}\n")
    if report.get("first_game"):
        w(f"a slice of the run: games {report['first_game']} to "
          f"{report['first_game'] + report['games'] - 1}\n")
    w(f"games: {report['games']}" + (" (interrupted)" if report.get("interrupted") else "")
      + "\n")
    w("win rate by seat (95% interval):\n")
    for seat, figure in report["seats"].items():
        w(f"  {seat:<12} {_interval(figure)}  ({figure['wins']} wins)\n")
    w("win rate by agent:\n")
    for agent, figure in report["by_agent"].items():
        w(f"  {agent:<24} {_interval(figure)}  ({figure['wins']} wins)\n")
        for seat, f in report["by_agent_seat"][agent].items():
            if f["games"]:  # a seat the agent never played has no rate to show
                w(f"    in seat {seat:<13} {_interval(f)}  ({f['wins']} of {f['games']})\n")
    first = report["first_player"]
    w(f"first player wins {_interval(first)}; advantage {100 * first['advantage']:+.1f} points "
      f"over a seat's {_pct(first['baseline'])}\n")
    if report.get("shared_wins"):
        w("teammates share a win: the seats' rates add up to more than 100%\n")
    w(f"draws {_pct(report['draws']['rate'])} ({report['draws']['count']})\n")
    if report.get("unfinished"):
        w(f"unfinished: {report['unfinished']} game(s) stopped at --max-plies, counted as "
          "draws\n")
    for what in ("plies", "turns"):
        s = report[what]
        w(f"{what}: mean {s['mean']:.1f}, median {s['median']:g}, {s['min']}-{s['max']}\n")
    w(f"decisions per turn: {report['decisions_per_turn']:.2f}\n")
    w("action kinds (legal at / chosen for, share of decisions):\n")
    for kind, a in report["actions"].items():
        w(f"  {kind:<24} {_pct(a['legal_rate']):>7} {_pct(a['chosen_rate']):>7}\n")
    if "cards" in report:
        w("cards (owned, drawn, played; owner's win rate when played / not played):\n")
        for card, c in report["cards"].items():
            w(f"  {card:<28} {c['owned']:>5} {c['drawn']:>5} {c['played']:>5}  "
              f"{_interval(c['when_played'])} / {_interval(c['when_not_played'])}\n")
        if report["never_played"]:
            w(f"never played: {', '.join(report['never_played'])}\n")
    if "decks" in report:
        w("decks by seat:\n")
        for deck, seats in report["decks"].items():
            shown = "; ".join(f"{seat} {_interval(f)} of {f['games']}" for seat, f in seats.items())
            w(f"  {deck:<28} {shown}\n")
        w("matchups:\n")
        for key, m in report["matchups"].items():
            w(f"  {key}: {', '.join(f'{k} {v}' for k, v in m.items())}\n")
    if "coverage" in report:
        never = report["coverage"]["never_fired"]
        w(f"coverage: {report['coverage']['declared'] - len(never)} of "
          f"{report['coverage']['declared']} declared rules fired\n")
        for item in never:
            w(f"  never fired: {item}\n")
