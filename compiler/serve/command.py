"""`rulecraft serve GAME`: load the game, deal the seats, print their links, run uvicorn."""

from __future__ import annotations

import argparse
import sys

# Only argparse at import: every command builds the parser, and pays for what it imports
# (the session, the catalogue and the web stack are imported by `serve` alone).

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
MAX_PORT = 65535


def bot_seats(names: list[str], bot: str | None, wanted: str | None) -> frozenset[int]:
    """The seats a bot plays: those --bot-seats names, or with --bot alone every seat but
    the first."""
    from compiler.serve.session import SessionError

    if bot is None:
        if wanted:
            raise SessionError("--bot-seats needs --bot AGENT")
        return frozenset()
    if not wanted:
        return frozenset(range(1, len(names)))
    seats = set()
    for name in wanted.split(","):
        if name.strip() not in names:
            raise SessionError(f"--bot-seats: no player {name.strip()!r}; "
                               f"the players are {', '.join(names)}")
        seats.add(names.index(name.strip()))
    return frozenset(seats)


def cmd_serve(args: argparse.Namespace, game_name: str, options: dict[str, object],
              decks: list[str] | None) -> int:
    try:
        import uvicorn

        from compiler.serve.app import make_app
    except ImportError:  # starlette and uvicorn are the `play` extra
        print("rulecraft serve needs starlette and uvicorn: "
              "python -m pip install 'rulecraft[play]'", file=sys.stderr)
        return EXIT_FAIL
    from compiler import api
    from compiler.serve.catalogue import Catalogue
    from compiler.serve.session import HOTSEAT, RulesBroke, Session, SessionError, seat_names

    try:
        model, game = api.load_game_model(game_name)
    except api.GameNotFound as error:
        print(error, file=sys.stderr)
        return EXIT_FAIL
    try:
        players = api.seat_count(game, args.players, options)
        names = seat_names(game, players, options, decks)
        bots = bot_seats(names, args.bot, args.bot_seats)
        session = Session(game, str(game.INFO["name"]), seed=args.seed, seats=args.seats,
                          bots=bots, options=options, decks=decks, bot=args.bot or "random",
                          players=players)
    except SessionError as error:
        print(f"rulecraft serve: {error}", file=sys.stderr)
        return EXIT_FAIL if isinstance(error, RulesBroke) else EXIT_USAGE
    problem = cannot_listen(args.host, args.port)
    if problem is not None:
        print(f"rulecraft serve: cannot listen on {args.host}:{args.port}: {problem}",
              file=sys.stderr)
        return EXIT_FAIL
    app = make_app(session, Catalogue(model))
    host = args.host if ":" not in args.host else f"[{args.host}]"
    print(f"{game.INFO['title']} (seed {args.seed}), {args.seats}:", file=sys.stderr)
    for token, seat in session.tokens.items():
        who = "the shared device" if args.seats == HOTSEAT else names[seat]
        print(f"  {who}: http://{host}:{args.port}/play/{token}/", file=sys.stderr)
    for seat in sorted(bots):
        print(f"  {names[seat]}: the {args.bot} bot", file=sys.stderr)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"note: listening on {args.host}: anyone who can reach it and has a link "
              "can play that seat", file=sys.stderr)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    except (OSError, SystemExit) as error:  # uvicorn exits when it cannot bind
        print(f"rulecraft serve: the server stopped: {error}", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there (the address taken, no such address, a port out
    of range), or None: asked before the links are printed, so that no dead link is."""
    import socket

    if not 1 <= port <= MAX_PORT:  # getaddrinfo takes 99999 as 34463; uvicorn raises
        return f"a port is a whole number from 1 to {MAX_PORT}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        return str(error)
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except (OSError, OverflowError) as error:
            return getattr(error, "strerror", None) or str(error)
    return None


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="play in the browser: hot-seat or a link per seat")
    serve.add_argument("game", nargs="?", help="a game's name, rulebook or folder")
    serve.add_argument("--seed", type=int, default=0)
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default: this machine only)")
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument("--seats", choices=["hotseat", "links"], default="hotseat",
                       help="one shared device, or one link per seat")
    serve.add_argument("--bot", default=None, metavar="AGENT",
                       help="an agent for the empty seats, as the lab names them: random, "
                            "greedy, mcts, mcts:iterations=100")
    serve.add_argument("--bot-seats", metavar="P,P",
                       help="the players the bot plays (default: all but the first)")
    serve.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    serve.add_argument("--players", type=int, default=None, metavar="N",
                       help="how many play (default: the fewest the game is for)")
    serve.add_argument("--decks", metavar="DECK,DECK", help="shipped decks, one per player")
