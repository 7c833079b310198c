"""The ``pinochle`` command: a thin layer over the Python API.

Each subcommand is a module of :mod:`simcore.commands` holding its arguments (``add_parser``) beside its
handler (``run``). Bad input of any kind ends in one line on stderr naming what was wrong and what is
allowed, and exit status 2; no traceback. Nothing heavy is imported at load: ``--help`` and ``--version``
answer before numpy, numba, pandas or any kernel loads, and each command imports what it needs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from simcore.commands import (
    advise,
    analyse,
    bench,
    bid_odds,
    compare,
    dd_data,
    dd_odds,
    duel,
    endgame,
    export,
    games,
    makeable,
    meld,
    odds,
    playthrough,
    report,
    runs,
    serve,
    simulate,
    solve,
    tune,
    variants,
    widow,
)
from simcore.commands.common import EXIT_INTERRUPTED, EXIT_USAGE, UsageError, execution, user_errors

#: The subcommands in the order ``pinochle --help`` lists them.
COMMANDS = (
    variants,
    meld,
    odds,
    simulate,
    bid_odds,
    advise,
    widow,
    playthrough,
    duel,
    solve,
    endgame,
    dd_data,
    analyse,
    dd_odds,
    makeable,
    games,
    compare,
    tune,
    report,
    runs,
    export,
    bench,
    serve,
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pinochle-sim")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print the whole usage block
        raise UsageError(f"{self.prog}: {message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    """The ``pinochle`` parser: each command module adds its subcommand and its handler."""
    parser = _Parser(prog="pinochle", description="Pinochle odds, meld and simulation for every rule system.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        from simcore.run.runner import executing

        with executing(execution(args)):
            status = args.func(args)
    except KeyboardInterrupt:
        print("pinochle: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if not isinstance(exc, user_errors()):
            raise
        print(f"pinochle: {exc}" if not str(exc).startswith("pinochle") else str(exc), file=sys.stderr)
        return EXIT_USAGE
    return status


if __name__ == "__main__":
    sys.exit(main())
