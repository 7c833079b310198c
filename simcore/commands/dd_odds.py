"""``pinochle dd-odds``: double-dummy make odds of seeded contracts."""

from __future__ import annotations

import argparse

from simcore.commands.common import add_seeded_hands_args, interval_text, load_variant, positive_int, print_json


def add_parser(sub) -> None:
    p = sub.add_parser("dd-odds", help="double-dummy make odds: would each seeded contract be made with every "
                       "hand known and perfect play, beside the heuristic's own result",
                       description="For the first hand of seeds S .. S+N-1, bid, passed and melded by the "
                       "policies and played out, asks the double-dummy solver whether the bidding side can "
                       "take the trick points its contract needs from the first lead (bid less its kept "
                       "meld; at least one point where the meld is saved by a trick), beside whether the "
                       "policies' own play made it. A solve that reaches --limit trick starts gives up: it "
                       "counts as made in the upper bound of the double-dummy rate and as not made in the "
                       "lower.")
    add_seeded_hands_args(p)
    p.add_argument("--limit", type=positive_int, default=1_500_000, help="trick starts a solve may search "
                   "before it gives up (default 1500000, about a second)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.dd_make import dd_make_odds
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    result = dd_make_odds(variant, args.hands, args.seed, args.limit, parse_policies(args.policy, variant.players))
    if args.json:
        print_json(result.to_json())
        return 0
    o = result.overall()
    last = args.seed + args.hands - 1
    print(f"{variant.id}: {o['hands']:,} of {args.hands:,} hands played out (seeds {args.seed}..{last}), "
          f"policy {args.policy}, solves limited to {args.limit:,} trick starts")
    if not o["hands"]:
        return 0
    print(f"made by the policies' play {interval_text(o['heuristic'])}; with double-dummy play {o['dd_low']:.3f} to "
          f"{o['dd_high']:.3f} ({o['gave_up']} solves gave up)")
    table = result.by_bid().rename(columns={"heuristic_lo": "lo", "heuristic_hi": "hi"})
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if result.mismatches:
        print(f"warning: in {result.mismatches} hands the policies' points against the need disagree with the "
              "record's made (one point standing in for one trick)")
    return 0
