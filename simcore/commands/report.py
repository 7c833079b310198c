"""``pinochle report``: the Markdown report, or the strong-play page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simcore.commands.common import (
    UsageError,
    add_margin_arg,
    bidding_rules,
    load_variant,
    nonnegative_int,
    output_dir,
    positive_int,
    print_json,
    say_compiling,
    set_threads,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "report",
        help="a Markdown report with charts and tables: index, a page and a "
        "player's card (Markdown, PNG, PDF) per system",
    )
    p.add_argument(
        "--variant",
        dest="variants",
        action="append",
        metavar="ID",
        help="a system to cover, shipped id or rules file (repeatable; default: four-hand-150, "
        "partnership-auction, double-deck)",
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        help="hands played in full per analysis (default 200000); 20 times as many are dealt "
        "for the dealing analyses and a tenth as many whole games are played",
    )
    p.add_argument("--seed", type=nonnegative_int, default=1, help="random seed (default 1)")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="output directory (default reports; for house rules, a folder of their own in it, "
        "reports/<id>, and no index: the shipped report is never written over)",
    )
    p.add_argument("--threads", type=positive_int, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print a manifest of the files written as one JSON object")
    p.add_argument(
        "--strong-play",
        action="store_true",
        help="instead, write strong-play.md: how far the heuristic is from strong play (the sampling "
        "player's duel in points and in games won, double-dummy make odds by bid, the worst decisions in "
        "the endings, the bidding card under strong play); 20 to 40 minutes of solving on 2 busy cores at "
        "the default size",
    )
    p.add_argument(
        "--deals",
        type=positive_int,
        help="with --strong-play: deals per system for the duel and the "
        "bidding card, as many hands solved for the make odds, three times as many endings (default 300)",
    )
    p.add_argument(
        "--limit",
        type=positive_int,
        help="with --strong-play: trick starts a make-or-not solve of the first pass may search before it gives up "
        "(default 20000; the give-ups are solved again at ten times the limit, and so on)",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=2,
        help="with --strong-play: worker processes (default 2; results do not depend on it)",
    )
    add_margin_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from analyses.report import MAIN_SYSTEMS, default_out, write_report
    from analyses.section import Sizes, TooFewHands
    from simcore.kernel_cache import GAMES, HAND, ODDS, SOLVER

    variants = args.variants or list(MAIN_SYSTEMS)
    loaded = [load_variant(vid, warn=not args.tune_margin) for vid in variants]  # bad ids fail here, before any work
    if args.tune_margin and args.strong_play:
        raise UsageError("pinochle report: --tune-margin tunes the default report's players; not with --strong-play")
    if args.strong_play and args.hands is not None:
        raise UsageError("pinochle report: --hands sizes the default report; with --strong-play give --deals")
    only_strong = [name for name, value in (("--deals", args.deals), ("--limit", args.limit)) if value is not None]
    if only_strong and not args.strong_play:
        raise UsageError(f"pinochle report: {', '.join(only_strong)}: only with --strong-play")
    if args.strong_play:
        from simcore.variants import require_auction

        for v in loaded:  # the make odds need a contract: refuse before the solver's compile notice
            require_auction(v, "its double-dummy make odds are not computed here (there is no contract)")
    if args.out is None:
        args.out = str(default_out(loaded))
    output_dir("--out", args.out)  # every option checked first: a refused command creates no folder
    set_threads(args.threads)
    say_compiling(HAND, SOLVER) if args.strong_play else say_compiling(ODDS, HAND, GAMES)

    def say(line: str) -> None:  # progress, on stderr so that --json stays one object on stdout
        print(line, file=sys.stderr, flush=True)

    if args.strong_play:
        files, sizes = _strong_play(args, variants, say)
    else:
        hands = 200_000 if args.hands is None else args.hands
        sizes = Sizes(dealt=20 * hands, played=hands, games=max(1, hands // 10))
        try:
            files = write_report(
                args.out,
                [bidding_rules(args, v) for v in loaded] if args.tune_margin else variants,
                sizes,
                args.seed,
                say=say,
            )
        except TooFewHands as exc:
            raise UsageError(f"pinochle report: --hands {hands:,}: {exc}") from None
    if args.json:
        print_json(
            {
                "out": str(args.out),
                "variants": variants,
                "seed": args.seed,
                "sizes": {k: getattr(sizes, k) for k in sizes.__dataclass_fields__},
                "index": str(files[0]),
                "files": [
                    {"path": str(f), "kind": Path(f).suffix.lstrip("."), "bytes": Path(f).stat().st_size} for f in files
                ],
            }
        )
        return 0
    print(f"wrote {len(files)} files; open {files[0]}")
    return 0


def _strong_play(args: argparse.Namespace, variants: list[str], say):
    """``report --strong-play``: the strong-play page (``analyses.strong_report``) and its sizes."""
    from dataclasses import replace

    from analyses.section import StrongSizes
    from analyses.strong_report import write_strong_play

    sizes = StrongSizes.for_deals(args.deals or StrongSizes().deals)
    if args.limit is not None:
        sizes = replace(sizes, limit=args.limit)
    return write_strong_play(args.out, variants, sizes, args.seed, args.workers, say=say), sizes
