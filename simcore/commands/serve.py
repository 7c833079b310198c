"""``pinochle serve``: the local web pages (:mod:`simcore.web`) on a uvicorn server."""

from __future__ import annotations

import argparse


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number; give 0 to 65535")
    return port


def add_parser(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="the web pages: my hand, odds, house rules, bidding cards, deal viewer",
        description="Serve the web pages and their JSON API (/api/..., documented at /docs) on "
        "this machine. Every asset ships in the package: no internet needed.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)",
    )
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free port)")
    p.add_argument(
        "--jobs",
        type=int,
        default=2,
        choices=range(1, 9),
        metavar="N",
        help="answers computed at once, 1 to 8 (default 2); up to 8 more wait",
    )
    p.add_argument(
        "--time-cap",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="an answer still running after this long is stopped (default 60)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import socket

    import uvicorn

    from simcore.commands.common import UsageError
    from simcore.web.app import create_app
    from simcore.web.jobs import Jobs

    if args.time_cap <= 0:
        raise UsageError(f"--time-cap {args.time_cap:g}: give a positive number of seconds")
    try:  # bind first: a port in use is one line, not uvicorn's traceback
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
    except (OSError, OverflowError) as exc:
        raise UsageError(f"--host {args.host} --port {args.port}: cannot listen there ({exc.strerror or exc})")
    sock.listen(128)  # a request that comes before the server is up waits rather than being refused
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    from simcore.run.store import default_path

    store = default_path()  # $PINOCHLE_STORE or the user's cache; "off" keeps no cards made on demand
    app = create_app(Jobs(workers=args.jobs, seconds=args.time_cap), store=None if str(store) == "off" else store)
    print(
        f"pinochle: serving on http://{shown}:{port}/ (API at /docs; Ctrl-C stops). Compiling the kernels "
        "in the background: first answers wait for it.",
        flush=True,
    )
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C is how a server is stopped: not an interrupted answer
        pass
    print("pinochle: stopped", flush=True)
    return 0
