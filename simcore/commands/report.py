"""``pinochle report``: the Markdown report, or the strong-play page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simcore.commands.common import UsageError, load_variant, nonnegative_int, positive_int, print_json, set_threads


def add_parser(sub) -> None:
    p = sub.add_parser("report", help="a Markdown report with charts and tables: index, a page and a "
                                      "player's card (Markdown, PNG, PDF) per system")
    p.add_argument("--variant", dest="variants", action="append", metavar="ID",
                   help="a system to cover, shipped id or rules file (repeatable; default: four-hand-150, "
                        "partnership-auction, double-deck)")
    p.add_argument("--hands", type=positive_int,
                   help="hands played in full per analysis (default 200000); 20 times as many are dealt "
                        "for the dealing analyses and a tenth as many whole games are played")
    p.add_argument("--seed", type=nonnegative_int, default=1, help="random seed (default 1)")
    p.add_argument("--out", default="reports", metavar="DIR", help="output directory (default reports)")
    p.add_argument("--threads", type=positive_int, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print a manifest of the files written as one JSON object")
    p.add_argument("--strong-play", action="store_true",
                   help="instead, write strong-play.md: how far the heuristic is from strong play (the sampling "
                        "player's duel, double-dummy make odds by bid, the worst decisions in the endings, the "
                        "bidding card under strong play); about 8 minutes of solving on 2 busy cores at the default "
                        "size")
    p.add_argument("--deals", type=positive_int, help="with --strong-play: deals per system for the duel and the "
                   "bidding card, as many hands solved for the make odds, three times as many endings (default 300)")
    p.add_argument("--limit", type=positive_int, help="with --strong-play: trick starts a make-or-not solve may "
                   "search before it gives up (default 4000000)")
    p.add_argument("--workers", type=positive_int, default=2, help="with --strong-play: worker processes "
                   "(default 2; results do not depend on it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from analyses.report import MAIN_SYSTEMS, write_report
    from analyses.section import Sizes

    variants = args.variants or list(MAIN_SYSTEMS)
    for vid in variants:
        load_variant(vid)  # bad ids fail here, in one line, before any work
    set_threads(args.threads)

    def say(line: str) -> None:  # progress, on stderr so that --json stays one object on stdout
        print(line, file=sys.stderr, flush=True)

    if args.strong_play:
        if args.hands is not None:
            raise UsageError("pinochle report: --hands sizes the default report; with --strong-play give --deals")
        files, sizes = _strong_play(args, variants, say)
    else:
        given = [name for name, value in (("--deals", args.deals), ("--limit", args.limit)) if value is not None]
        if given:
            raise UsageError(f"pinochle report: {', '.join(given)}: only with --strong-play")
        hands = 200_000 if args.hands is None else args.hands
        sizes = Sizes(dealt=20 * hands, played=hands, games=max(1, hands // 10))
        files = write_report(args.out, variants, sizes, args.seed, say=say)
    if args.json:
        print_json({"out": str(args.out), "variants": variants, "seed": args.seed,
                     "sizes": {k: getattr(sizes, k) for k in sizes.__dataclass_fields__},
                     "index": str(files[0]),
                     "files": [{"path": str(f), "kind": Path(f).suffix.lstrip("."), "bytes": Path(f).stat().st_size}
                               for f in files]})
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
