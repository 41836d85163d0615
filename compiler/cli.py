"""The `rulecraft` command line (DESIGN.md §2)."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn, TextIO

from compiler import api
from compiler.driver import Compilation
from compiler.project import NO_TARGET, default_target, holds_rulebooks, path_problem
from dsl import parse_cache
from dsl.codes import CODES, explain
from dsl.diagnostics import Diagnostic, Diagnostics, github_escape, render, shown, summary
from dsl.runtime_base import RuleError
from dsl.source import SourceFile, Span, display_name, resolved

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

# What a command made, when the command runs as the whole process (run()): kept so that the
# process ends without taking it apart. Freeing the model of a big card set object by object
# took a tenth of a second of `rulecraft check`, for nothing (mypy ends so too).
_KEPT: list[object] | None = None


def _keep(made: object) -> None:
    if _KEPT is not None:
        _KEPT.append(made)


def _print_diagnostics(
    diagnostics: list[Diagnostic], sources: dict[str, SourceFile], fmt: str, out: TextIO
) -> None:
    if fmt == "json":
        print(render(diagnostics, sources, "json"), file=out)
    elif diagnostics:
        print(render(diagnostics, sources, fmt), file=out)


def _gather(compilations: list[Any], extra: Diagnostics) -> tuple[list[Diagnostic], dict[
    str, SourceFile
]]:
    diagnostics = list(extra.sorted())
    sources: dict[str, SourceFile] = {}
    for compilation in compilations:
        diagnostics.extend(compilation.diagnostics.sorted())
        sources.update(compilation.sources)
    return diagnostics, sources


def _checked(compilation: Compilation) -> str:
    """A rulebook's name, with the card sets and decks checked along with it."""
    name = display_name(compilation.path)
    model = compilation.model
    if model is None:
        return name
    extra = []
    if model.card_sets:
        extra.append(f"{len(model.card_sets)} card set{'s' * (len(model.card_sets) != 1)}")
    if model.decks:
        extra.append(f"{len(model.decks)} deck{'s' * (len(model.decks) != 1)}")
    return f"{name} ({', '.join(extra)})" if extra else name


def cmd_check(args: argparse.Namespace) -> int:
    compilations, extra = api.check(args.paths or None)
    _keep(compilations)
    diagnostics, sources = _gather(compilations, extra)
    _print_diagnostics(diagnostics, sources, args.format, sys.stdout)
    failed = any(d.code.startswith("E") for d in diagnostics)
    if args.format == "text":
        names = ", ".join(_checked(c) for c in compilations) or "no rulebooks"
        print(f"checked {names}: {summary(diagnostics)}", file=sys.stderr)
    return EXIT_FAIL if failed or not compilations else EXIT_OK


def cmd_build(args: argparse.Namespace) -> int:
    out = Path(args.output) if args.output is not None else None
    result, extra = api.build_all(args.paths or None, out, args.check)
    _keep(result)
    # stale output is a diagnostic of --check, so every format (json, github) names each
    # file; a build removes what a rulebook that is gone left, and says so
    for path, source in result.left_over.items() if args.check else ():
        extra.add("E0009", Span.point(display_name(path)),
                  f"generated from {source}, which is gone",
                  hint="run `rulecraft build` to remove it, and commit the result")
    for path in result.stale:
        extra.add("E0009", Span.point(display_name(path)), "not what the rulebooks produce",
                  hint="run `rulecraft build` and commit the result")
    diagnostics, sources = _gather(result.compilations, extra)
    _print_diagnostics(diagnostics, sources, args.format, sys.stdout)
    if not result.compilations or any(d.code.startswith("E") and d.code != "E0009"
                                      for d in diagnostics):
        print(f"build failed: {summary(diagnostics)}", file=sys.stderr)
        return EXIT_FAIL
    folders = ", ".join(display_name(folder) for folder in result.folders)
    if args.check:
        stale = len(result.stale) + len(result.left_over)
        if stale:
            print(f"{stale} file(s) in {folders} not what the rulebooks produce: run "
                  "`rulecraft build` and commit the result", file=sys.stderr)
            return EXIT_FAIL
        print(f"{len(result.compilations)} rulebook(s): the files in {folders} are up to date",
              file=sys.stderr)
        return EXIT_OK
    for path in result.written:
        print(f"wrote {display_name(path)}", file=sys.stderr)
    for path in result.removed:
        print(f"removed {display_name(path)}: generated from {result.left_over[path]}, which "
              "is gone", file=sys.stderr)
    print(f"built {len(result.compilations)} rulebook(s) into {folders}, "
          f"{len(result.written) + len(result.removed)} file(s) changed", file=sys.stderr)
    return EXIT_OK


def _scenario_files(path: Path) -> list[Path]:
    """The scenario files a path stands for: itself, those under a folder, or those of the game
    folder of a rulebook, card set or deck file."""
    if path.is_dir():
        return sorted(path.rglob("*.scenario.yaml"))
    if path.name.endswith(".scenario.yaml"):
        return [path]
    game = next((folder for folder in (resolved(path).parent, *resolved(path).parent.parents)
                 if holds_rulebooks(folder)), None)
    return sorted(game.rglob("*.scenario.yaml")) if game else []


def cmd_test(args: argparse.Namespace) -> int:
    from compiler.scenarios import (
        ScenarioFileError,
        ScenarioResult,
        action_shapes,
        load_scenarios,
        run_scenario,
    )

    known_shapes: dict[int, list[re.Pattern[str]]] = {}

    missing = Diagnostics()
    paths = api.targets([Path(p) for p in args.paths], missing)
    # no scenario to run is a failed run (DESIGN.md §2: test exits 0 or 1), as for check
    if missing.items:
        _print_diagnostics(missing.sorted(), {}, "text", sys.stderr)
        return EXIT_FAIL
    files: dict[Path, None] = {}
    results: list[ScenarioResult] = []

    def unread(name: str, what: str, line: int, message: str) -> None:
        results.append(ScenarioResult(name, what, line, [message], [line]))

    for path in paths:
        problem = path_problem(path)
        if problem is not None:  # a failed result, in every format
            unread(display_name(path), "(file)", 1, f"cannot read: {problem}")
            continue
        files.update(dict.fromkeys(_scenario_files(path)))

    for file in files:
        name = display_name(file)
        problem = path_problem(file)
        if problem is not None:
            unread(name, "(file)", 1, f"cannot read: {problem}")
            continue
        try:
            documents = load_scenarios(file)
        except ScenarioFileError as error:  # not valid YAML, or a limit crossed: where is known
            unread(name, "(file)", error.line, f"cannot read: {error}")
            continue
        except Exception as error:  # noqa: BLE001 - a broken file is a failed test, not a crash
            unread(name, "(file)", 1, f"cannot read: {' '.join(str(error).split())}")
            continue
        if not documents:
            unread(name, "(file)", 1, "the file holds no scenario")
        for data, line in documents:
            if not isinstance(data, dict) or "game" not in data:
                unread(name, "(document)", line, "a scenario is a mapping with a 'game' key")
                continue
            try:
                model, game = api.load_game_model(str(data["game"]), near=file)
            except api.GameNotFound as error:
                unread(name, str(data.get("name", "?")), line, str(error))
                continue
            shapes = known_shapes.get(id(model))
            if shapes is None:
                shapes = known_shapes[id(model)] = action_shapes(model)
            results.append(run_scenario(game, data, name, line, shapes))
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if not results:  # a failed run (no false pass in CI), which says why
        print(shown(f"rulecraft test: no scenario found in {', '.join(args.paths)}: scenario "
                    "files end in .scenario.yaml"), file=sys.stderr)
    if args.format == "json":
        print(json.dumps([{"file": r.file, "line": r.line, "name": r.name, "passed": r.passed,
                           "failures": r.failures,
                           "failure_lines": [at for at, _ in r.located()]} for r in results],
                         indent=2))
    else:
        for r in results:
            if r.passed:
                if args.format == "text":
                    print(shown(f"PASS {r.file}:{r.line} {r.name}"))
                continue
            for at, failure in r.located():
                if args.format == "github":
                    # a scenario's failures are about a line (a key, an action): column 1
                    print(f"::error file={github_escape(r.file, prop=True)},line={at},col=1,"
                          f"title={github_escape(r.name, prop=True)}::"
                          f"{github_escape(f'{r.name}: {failure}')}")
                else:
                    print(shown(f"FAIL {r.file}:{at} {r.name}: {failure}"))
        print(f"scenarios: {passed} passed, {failed} failed")
    return EXIT_FAIL if failed or not results else EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from compiler.scaffold import ScaffoldError, new_game

    try:
        folder = new_game(args.name, Path(args.folder))
    except ScaffoldError as error:
        print(f"rulecraft new: {error}", file=sys.stderr)
        return EXIT_USAGE
    shown = display_name(folder)
    print(f"made {shown}/: {args.name}.rules, a card set, a deck and a scenario", file=sys.stderr)
    print(f"next: cd {shown} && rulecraft check && rulecraft test && rulecraft play {args.name}",
          file=sys.stderr)
    return EXIT_OK


def cmd_explain_symbol(args: argparse.Namespace) -> int:
    # imported here: only this command needs the symbol index, and every other pays its import
    from compiler.explain import command
    return command(args)


def cmd_fmt(args: argparse.Namespace) -> int:
    # imported here, as explain-symbol's: only this command needs the formatter
    from compiler.fmt import fmt_command
    return fmt_command(args.paths, check=args.check)


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from compiler.lsp.server import serve
    except ImportError as error:
        print(f"rulecraft lsp needs pygls: pip install 'rulecraft[lsp]' ({error})",
              file=sys.stderr)
        return EXIT_FAIL
    serve()
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    text = explain(args.code)
    if text is None:
        print(f"unknown code {args.code!r}; known codes: {', '.join(sorted(CODES))}",
              file=sys.stderr)
        return EXIT_USAGE
    print(text, end="")
    return EXIT_OK


def _game(game: str | None) -> str | None:
    """The game a play or simulate command names; without one, the game folder it runs in."""
    if game is not None:
        return game
    target = default_target(Path.cwd())
    if target is None or not holds_rulebooks(target):
        print(f"name a game: {NO_TARGET}" if target is None else
              "name a game: its name, its rulebook or its folder", file=sys.stderr)
        return None
    return str(target)


def _load(game: str) -> ModuleType | None:
    try:
        return api.load_game(game)
    except api.GameNotFound as error:
        if error.compilation is not None:
            diagnostics, sources = _gather([error.compilation], Diagnostics())
            _print_diagnostics(diagnostics, sources, "text", sys.stderr)
        print(error, file=sys.stderr)
        return None


def _options(pairs: list[str]) -> dict[str, object]:
    """`NAME=VALUE` pairs: true/yes/false/no (or a bare NAME) are bools, digits are ints."""
    options: dict[str, object] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        word = value.lower()
        if word in ("", "true", "yes"):
            options[name] = True
        elif word in ("false", "no"):
            options[name] = False
        elif value.lstrip("-").isdigit():
            options[name] = int(value)
        else:
            options[name] = value
    return options


def cmd_play(args: argparse.Namespace) -> int:
    from compiler.serve.catalogue import Catalogue
    from compiler.terminal import Printer, view_lines

    name = _game(args.game)
    if name is None:
        return EXIT_FAIL
    try:
        model, game = api.load_game_model(name)
    except api.GameNotFound as error:
        if error.compilation is not None:
            diagnostics, sources = _gather([error.compilation], Diagnostics())
            _print_diagnostics(diagnostics, sources, "text", sys.stderr)
        print(error, file=sys.stderr)
        return EXIT_FAIL
    from compiler import agents

    try:
        specs = agents.parse(args.vs)
        if len(specs) != 1:
            raise agents.AgentError(f"--vs takes one agent, not {len(specs)}: it plays every "
                                    "other seat")
        opponent = agents.make(specs[0])
    except agents.AgentError as error:
        print(f"--vs: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        options = _options(args.option)
        state = game.new_game(seed=args.seed, players=api.seat_count(game, args.players, options),
                              options=options, decks=_decks(args.decks))
    except RuleError as error:  # the rules' own error, whatever the user chose
        print(f"{game.INFO['name']}: setup failed: {error}", file=sys.stderr)
        return EXIT_FAIL
    except ValueError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    names = list(state.seats())[: state.num_players]
    if args.as_player not in names:
        print(f"--as must be one of {', '.join(names)}", file=sys.stderr)
        return EXIT_USAGE
    me = names.index(args.as_player)
    catalogue = Catalogue(model)
    start = state.observation(me).get("board", {})
    printer = Printer()
    rng = random.Random(args.seed)
    moves = 0
    try:
        while not state.is_terminal():
            actions = state.legal_actions()
            if state.current_player() != me:
                action = opponent.step(state, rng)
                # as the human sees it: a spell set face down is not named
                printer.line(f"{names[state.current_player()]}: {state.action_text(action, me)}",
                             "red")
                state.apply_action(action)
                moves += 1
                continue
            printer.lines(view_lines(state.observation(me), catalogue, start))
            for i, action in enumerate(actions, 1):
                printer.line(f"  {i:>3}. {action}", "cyan")
            while True:
                try:
                    line = input("your move (number or text, q to quit): ").strip()
                except EOFError:
                    print()
                    return EXIT_OK
                if line in ("q", "quit"):
                    return EXIT_OK
                if line in ("?", "h", "help"):
                    print(f"type a move's number (1 to {len(actions)}) or its text as listed; "
                          "q quits")
                    continue
                chosen = None
                # isdigit() holds for '²' and other digits int() refuses: only 0-9 are a number
                if line.isascii() and line.isdigit() and 1 <= int(line) <= len(actions):
                    chosen = actions[int(line) - 1]
                else:
                    chosen = next((a for a in actions if str(a) == line), None)
                if chosen is not None:
                    printer.line(f"{names[me]}: {chosen}", "blue")
                    state.apply_action(chosen)
                    moves += 1
                    break
                print("not one of the moves listed (? for help)")
    except RuleError as error:  # the rules reached a state they do not define
        print(f"{game.INFO['name']}: the rules broke after {moves} moves: {error}",
              file=sys.stderr)
        return EXIT_FAIL
    printer.lines(view_lines(state.observation(me), catalogue, start))  # the final position
    outcome = state.returns()
    printer.line("game over: " + ", ".join(f"{names[i]} {r:+.0f}" for i, r in enumerate(outcome)),
                 "bold")
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    # imported here: only this command needs starlette and uvicorn
    from compiler.serve.command import cmd_serve as serve

    name = _game(args.game)
    if name is None:
        return EXIT_FAIL
    return serve(args, name, _options(args.option), _decks(args.decks))


def cmd_print(args: argparse.Namespace) -> int:
    from compiler.printing import command

    name = _game(args.game)
    if name is None:
        return EXIT_FAIL
    return command(name, args.deck, args.output, args.paper, args.backs)


def _decks(text: str | None) -> list[str] | None:
    """`--decks red_rush,blue_wall`: one shipped deck per player, in seat order."""
    return [name.strip() for name in text.split(",")] if text else None


def cmd_simulate(args: argparse.Namespace) -> int:
    name = _game(args.game)
    game = None if name is None else _load(name)
    if name is None or game is None:
        return EXIT_FAIL
    # imported here: only this command needs the lab (and rich, matplotlib)
    from compiler.lab_cli import simulate

    return simulate(args, game, name, _options(args.option), _decks(args.decks))



NO_CACHE_HELP = "neither read nor keep parsed rulebooks (docs/cli.md, \"The cache\")"


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="rulecraft", description=__doc__)
    root.add_argument("--version", action="version", version="rulecraft 0.1.0")
    sub = root.add_subparsers(dest="command", required=True)
    formats = ("text", "json", "github")

    check = sub.add_parser("check", help="parse and check rulebooks")
    check.add_argument("paths", nargs="*", type=Path)
    check.add_argument("--format", choices=formats, default="text")
    check.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    check.set_defaults(run=cmd_check)

    build = sub.add_parser("build", help="check, then write modules and docs")
    build.add_argument("paths", nargs="*", type=Path)
    build.add_argument("-o", "--output", metavar="DIR",
                       help="the output folder (default: the project's generated/)")
    build.add_argument("--check", action="store_true",
                       help="fail if the output on disk is not what the sources produce")
    build.add_argument("--format", choices=formats, default="text")
    build.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    build.set_defaults(run=cmd_build)

    test = sub.add_parser("test", help="run scenario files")
    test.add_argument("paths", nargs="*")
    test.add_argument("--format", choices=formats, default="text")
    test.set_defaults(run=cmd_test)

    play = sub.add_parser("play", help="play in the terminal against an agent")
    play.add_argument("game", nargs="?", help="a game's name, rulebook or folder")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--as", dest="as_player", default="A")
    play.add_argument("--vs", default="random", metavar="AGENT",
                      help="the other seats' agent: random, greedy or "
                      "mcts[:iterations=N,c=X,rollout_depth=D] (default: random)")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--players", type=int, metavar="N",
                      help="how many play (default: the fewest the game is for)")
    play.add_argument("--decks", metavar="DECK,DECK", help="shipped decks, one per player")
    play.set_defaults(run=cmd_play)

    from compiler.serve.command import add_parser as add_serve

    add_serve(sub)
    sub.choices["serve"].set_defaults(run=cmd_serve)

    printing = sub.add_parser("print", help="a print-and-play PDF of the cards and boards")
    printing.add_argument("game", nargs="?", help="a game's name, rulebook or folder")
    printing.add_argument("--deck", help="a shipped deck's cards, as many as it lists "
                          "(default: every card once)")
    printing.add_argument("-o", "--output", metavar="F.pdf",
                          help="the PDF to write (default: GAME.pdf here)")
    printing.add_argument("--paper", choices=["a4", "letter"], default="a4")
    printing.add_argument("--backs", action="store_true",
                          help="a page of card backs after each page of fronts, for duplex")
    printing.set_defaults(run=cmd_print)

    simulate = sub.add_parser("simulate", help="run N games and report balance figures")
    simulate.add_argument("game", nargs="?", help="a game's name, rulebook or folder")
    simulate.add_argument("-n", type=int, default=100, help="how many games (at least 1)")
    simulate.add_argument("--seed", type=int, default=0, help="game i has seed SEED+i")
    simulate.add_argument("--agents", default=None,
                          help="one per seat: random, greedy, "
                               "mcts[:iterations=N,c=X,rollout_depth=D] (default: random in "
                               "every seat)")
    simulate.add_argument("--jobs", type=int, default=1, help="processes that play games")
    simulate.add_argument("--backend", choices=("local", "ray"), default="local",
                          help="where games run: local processes, or Ray tasks "
                          "(pip install 'rulecraft[cluster]')")
    simulate.add_argument("--address", metavar="ADDR",
                          help="with --backend ray: the Ray cluster to join (default: start a "
                          "local Ray instance of --jobs CPUs)")
    simulate.add_argument("--json", action="store_true", help="exact figures as JSON")
    simulate.add_argument("--report", metavar="F.html", help="write a self-contained HTML report")
    simulate.add_argument("--coverage", action="store_true",
                          help="list what never fired; exit 1 if anything declared never did")
    simulate.add_argument("--no-swap", action="store_true",
                          help="keep agents in their seats (default: moved one seat on each game)")
    simulate.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    simulate.add_argument("--players", type=int, metavar="N",
                          help="how many play (default: the fewest the game is for)")
    simulate.add_argument("--decks", metavar="DECK,DECK", help="shipped decks, one per agent")
    simulate.add_argument("--records", metavar="F.jsonl",
                          help="write each finished game's record to F, a line per game")
    simulate.add_argument("--resume", action="store_true",
                          help="with --records: play only the games F misses, report them all")
    simulate.add_argument("--max-plies", type=int, default=5_000, metavar="N",
                          help="stop a game still going after N actions and count it as a "
                          "draw, reported unfinished (default: 5000)")
    simulate.add_argument("--first-game", type=int, default=0, metavar="K",
                          help="play games K..K+N-1 of the run of --seed (a slice of it)")
    simulate.add_argument("--merge", nargs="+", metavar="F.jsonl",
                          help="play nothing: report the run whose slices these records hold")
    simulate.set_defaults(run=cmd_simulate)

    new = sub.add_parser("new", help="make a game folder to start from: rules, cards, a deck "
                         "and a scenario")
    new.add_argument("name", help="the game's name: lower-case letters, digits and _")
    new.add_argument("folder", nargs="?", default=".", help="where to make NAME/ (default: here)")
    new.set_defaults(run=cmd_new)

    explain_cmd = sub.add_parser("explain", help="the long explanation of a diagnostic code")
    explain_cmd.add_argument("code")
    explain_cmd.set_defaults(run=cmd_explain)

    symbol = sub.add_parser("explain-symbol", help="what the name at FILE:LINE:COL refers to: "
                            "its kind, type, declaration and doc")
    symbol.add_argument("location", metavar="FILE:LINE:COL")
    symbol.set_defaults(run=cmd_explain_symbol)

    fmt = sub.add_parser("fmt", help="format .rules files in the canonical layout")
    fmt.add_argument("paths", nargs="*", type=Path, help="files or folders (default: as check)")
    fmt.add_argument("--check", action="store_true",
                     help="change nothing; print a diff and exit 1 if a file is not formatted")
    fmt.set_defaults(run=cmd_fmt)

    lsp = sub.add_parser("lsp", help="the language server, on stdin and stdout")
    lsp.set_defaults(run=cmd_lsp)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        # a terminal or pipe that cannot show a character (LC_ALL=C, an ASCII console) gets
        # it as an escape, not a UnicodeEncodeError in the middle of a report
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args = parser().parse_args(argv)
    was_enabled = parse_cache.ENABLED[0]
    if getattr(args, "no_cache", False):
        parse_cache.ENABLED[0] = False
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        return EXIT_FAIL
    except BrokenPipeError:
        return EXIT_OK
    finally:
        parse_cache.ENABLED[0] = was_enabled
    return code


def run() -> NoReturn:
    """The `rulecraft` command: main(), then the process ends at once, with its output
    flushed, without freeing what the command made one object at a time (_KEPT)."""
    global _KEPT
    _KEPT = []
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left: as main() treats it
        code = EXIT_OK
    except ValueError:  # stdout closed by the command itself (the language server's client)
        pass
    os._exit(code)


if __name__ == "__main__":
    run()
