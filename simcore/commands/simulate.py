"""``pinochle simulate``: full hands summarised."""

from __future__ import annotations

import argparse
import sys

from simcore.commands.common import (
    UsageError,
    add_rules_args,
    add_run_args,
    exit_status,
    full_hand_variant,
    interval_text,
    output_file,
    partial_note,
    positive_int,
    print_json,
    say_compiling,
    set_threads,
)


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="full hands: bids, make and set rates, meld, tricks, scores")
    p.add_argument("--hands", type=positive_int, default=200_000, help="hands played in full (default 200000)")
    add_run_args(p)
    p.add_argument("--out", metavar="FILE.parquet", help="write one row per hand to a Parquet file")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.simulate import simulate
    from simcore.kernel_cache import HAND
    from simcore.kernels.policies import parse_policies

    variant = full_hand_variant(args)
    policies = parse_policies(args.policy, variant.players)
    if args.out is not None and not args.out.endswith(".parquet"):
        raise UsageError(f"pinochle: --out {args.out!r}: give a file name ending in .parquet")
    if args.out is not None:
        output_file("--out", args.out)
    set_threads(args.threads)
    say_compiling(HAND)
    result = simulate(
        variant, args.hands, args.seed, policies, progress=not args.json and sys.stderr.isatty(), out=args.out
    )
    status = exit_status(result)
    if args.json:
        print_json(result.to_json())
        return status
    print(
        f"{variant.id}: {result.hands:,} hands, seed {args.seed}, policies {','.join(result.policies)}, "
        f"{result.seconds:.1f} s" + partial_note(result)
    )
    print("estimate [95% CI]; side = the bidder's side")
    for name, iv in result.rates().items():
        print(f"  {name + ' rate':<26} {interval_text(iv, _no_bidder(variant))}")
    for name, iv in result.means().items():
        print(f"  {'mean ' + name.replace('_', ' '):<26} {interval_text(iv)}")
    bids = result.bid_distribution()
    if len(bids):
        top = bids.sort_values("hands", ascending=False).head(10).sort_values("bid")
        print(
            "most frequent winning bids: "
            + ", ".join(f"{int(r.bid)}{' or more' if r.or_more else ''} ({r.share:.1%})" for r in top.itertuples())
        )
    if args.out:
        print(f"wrote {result.hands:,} rows to {args.out}")
    return status


def _no_bidder(variant) -> str:
    """Why a rate over contracts has no estimate."""
    return "no bidder in this system" if variant.get("auction.kind") == "none" else "no hand had a bidder"
