"""``pinochle dd-odds``: double-dummy make odds of seeded contracts."""

from __future__ import annotations

import argparse

from simcore.commands.common import (
    add_seeded_hands_args,
    interval_text,
    load_variant,
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
        "policies' own play made it: both make rates with their 95% intervals. The limit "
        "of trick starts is a safety net: a solve that reaches it gives up, and the "
        "double-dummy rate is then a range (gave-ups made in its upper end, not made in its "
        "lower).",
    )
    add_seeded_hands_args(p)
    p.add_argument(
        "--limit",
        type=positive_int,
        default=20_000_000,
        help="trick starts a solve may search before it gives up (default 20000000, about ten seconds)",
    )
    p.add_argument(
        "--threads",
        type=positive_int,
        help="solves at once, one per thread (default: numba's thread count; the answers do not depend on it)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.dd_make import dd_make_odds
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    set_threads(args.threads)
    result = dd_make_odds(
        variant, args.hands, args.seed, args.limit, parse_policies(args.policy, variant.players), args.threads
    )
    if args.json:
        print_json(result.to_json())
        return 0
    o = result.overall()
    last = args.seed + args.hands - 1
    print(
        f"{variant.id}: {o['hands']:,} of {args.hands:,} hands played out (seeds {args.seed}..{last}), "
        f"policy {args.policy}, solves limited to {args.limit:,} trick starts"
    )
    if not o["hands"]:
        return 0
    if o["dd"] is not None:
        print(
            f"made by the policies' play {interval_text(o['heuristic'])}; with double-dummy play "
            f"{interval_text(o['dd'])} (every solve exact)"
        )
        drop = ["dd_low", "dd_high", "gave_up"]
    else:
        print(
            f"made by the policies' play {interval_text(o['heuristic'])}; with double-dummy play between "
            f"{o['dd_low']:.3f} and {o['dd_high']:.3f}: {o['gave_up']} solves gave up at {args.limit:,} trick "
            "starts, counted as not made in the lower end and as made in the upper"
        )
        drop = []
    table = result.by_bid().drop(columns=drop).rename(columns={"heuristic_lo": "lo", "heuristic_hi": "hi"})
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if result.mismatches:
        print(
            f"warning: in {result.mismatches} hands the policies' points against the need disagree with the "
            "record's made (one point standing in for one trick)"
        )
    return 0
