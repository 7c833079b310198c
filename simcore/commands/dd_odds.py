"""``pinochle dd-odds``: double-dummy make odds of seeded contracts."""

from __future__ import annotations

import argparse

#: The defaults of ``simcore.answers.dd_make`` (FIRST_LIMIT, BUDGET), written here so that ``--help``
#: imports no numerical library (a test holds them equal).
FIRST_LIMIT, BUDGET = 20_000, 1_000_000_000

from simcore.commands.common import (
    add_seeded_hands_args,
    load_variant,
    nonnegative_int,
    passes_text,
    positive_int,
    print_json,
    set_threads,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "dd-odds",
        help="double-dummy make odds: would each seeded contract be made with every "
        "hand known and perfect play, beside the heuristic's own result",
        description="For the first hand of seeds S .. S+N-1, bid, passed and melded by the "
        "policies and played out, asks the double-dummy solver whether the bidding side can "
        "take the trick points its contract needs from the first lead (bid less its kept "
        "meld; at least one point where the meld is saved by a trick), beside whether the "
        "policies' own play made it: both make rates with their 95% intervals. The solves "
        "escalate: every hand at --limit trick starts, then only those that gave up at ten times "
        "the limit, and so on, until the band the unsolved hands leave (from all lost to all made) "
        "is at most a third of the double-dummy rate's 95% half-width, or --budget trick starts "
        "are spent. The rate's interval holds every way the unsolved hands could go.",
    )
    add_seeded_hands_args(p)
    p.add_argument(
        "--limit",
        type=positive_int,
        default=FIRST_LIMIT,
        help=f"trick starts a solve of the first pass may search before it gives up (default {FIRST_LIMIT}; "
        "each later pass ten times the one before)",
    )
    p.add_argument(
        "--budget",
        type=nonnegative_int,
        default=BUDGET,
        help=f"trick starts all the passes may search together (default {BUDGET}, about 10-30 minutes of "
        "one core; 0: the first pass only)",
    )
    p.add_argument(
        "--threads",
        type=positive_int,
        help="solves at once, one per thread (default: numba's thread count; the answers do not depend on it)",
    )
    p.set_defaults(func=run)


def rate_text(iv) -> str:
    """A rate and its 95% interval in points of a hundred: ``58.6% [51.2–65.0%]``."""
    return f"{100 * iv.estimate:.1f}% [{100 * iv.lo:.1f}–{100 * iv.hi:.1f}%]"


def run(args: argparse.Namespace) -> int:
    from simcore.answers.dd_make import dd_make_odds
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    set_threads(args.threads)
    result = dd_make_odds(
        variant,
        args.hands,
        args.seed,
        args.limit,
        parse_policies(args.policy, variant.players),
        args.threads,
        args.budget,
    )
    if args.json:
        print_json(result.to_json())
        return 0
    o = result.overall()
    last = args.seed + args.hands - 1
    budget = f"within {args.budget:,} in all" if args.budget else "one pass only"
    print(
        f"{variant.id}: {o['hands']:,} of {args.hands:,} hands played out (seeds {args.seed}..{last}), "
        f"policy {args.policy}; solves from {args.limit:,} trick starts, ten times more a pass, {budget}"
    )
    if not o["hands"]:
        return 0
    print(f"made by the policies' play {rate_text(o['heuristic'])}; with double-dummy play {rate_text(o['dd'])}")
    print("passes " + passes_text(result.runs, result.nodes))
    if o["gave_up"]:
        verdict = (
            "at most a third of it: they matter too little to solve further"
            if o["settled"]
            else "more than a third of it: the budget ran out first"
        )
        print(
            f"unsolved: {o['gave_up']} hands, a band of {100 * o['band']:.1f} points of a hundred (all lost "
            f"{100 * o['dd_low']:.1f}%, all made {100 * o['dd_high']:.1f}%) against the rate's 95% half-width "
            f"of {100 * o['half_width']:.1f}: {verdict}"
        )
        drop = []
    else:
        print("unsolved: none (every solve exact)")
        drop = ["dd_low", "dd_high", "gave_up"]
    table = result.by_bid().drop(columns=drop).rename(columns={"heuristic_lo": "lo", "heuristic_hi": "hi"})
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if result.mismatches:
        print(
            f"warning: in {result.mismatches} hands the policies' points against the need disagree with the "
            "record's made (one point standing in for one trick)"
        )
    return 0
