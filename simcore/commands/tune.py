"""``pinochle tune``: the heuristic's bidding margin for a rules file."""

from __future__ import annotations

import argparse

from simcore.commands.common import (
    UsageError,
    add_rules_args,
    full_hand_variant,
    nonnegative_int,
    positive_int,
    print_json,
    set_threads,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tune",
        help="the heuristic's bidding margin for a rules file: duels on identical deals",
        description="Find the bidding margin (rules key policy.margin) no nearby margin beats: "
        "from the rules' margin, duel base ± step and ± 2 steps against the base on "
        "the same deals, and move the base to the best margin while its whole 95% "
        "interval is a gain. The duel depends on the teams. Partnerships across "
        "(4, 6 or 8 players): seats 0, 2, ... bid with the candidate against the odd "
        "seats at the base, then the teams swap seats; the gain is team points a hand. "
        "Each for himself or with a called partner: one seat bids with the candidate, "
        "every other seat with the base, the candidate rotated through every seat on "
        "the same games, against a baseline with every seat at the base; the gain is "
        "games won, in percentage points (systems settled in chips per deal, such as "
        "auction: chips a deal). Systems without an auction have nothing to tune.",
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        help="deals played per duel and seating, for the team and chip duels (default 50000)",
    )
    p.add_argument(
        "--games", type=positive_int, help="games played per run, for the seat duel with whole games (default 5000)"
    )
    p.add_argument("--step", type=float, default=0.05, help="margin step (default 0.05)")
    p.add_argument("--seed", type=nonnegative_int, default=1, help="random seed (default 1)")
    p.add_argument("--threads", type=positive_int, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from analyses.bid_tuning import duel_kind, tune_margin
    from simcore.variants import NotForThisSystem

    variant = full_hand_variant(args)
    if not 0 < args.step <= 0.5:
        raise UsageError(f"pinochle tune: --step {args.step}: give a number above 0 and at most 0.5")
    try:
        kind = duel_kind(variant)
    except NotForThisSystem as exc:
        raise UsageError(f"pinochle tune: {exc}")
    if kind == "seat":
        if args.hands is not None:
            raise UsageError(f"pinochle tune: {variant.id} is tuned by whole games: give --games, not --hands")
        size, unit = args.games or 5_000, "games per run"
    else:
        if args.games is not None:
            raise UsageError(f"pinochle tune: {variant.id} is tuned on single deals: give --hands, not --games")
        size, unit = args.hands or 50_000, "deals per seating"
    set_threads(args.threads)
    if not args.json:
        what = {
            "team": "team points a hand the margin's partnership gains",
            "seat": "games won the margin's seat gains, in percentage points (and its points a game)",
            "chips": "chips a deal the margin's seat gains",
        }[kind]
        print(
            f"{variant.id}: {kind} duels of {size:,} {unit}, seed {args.seed}, from margin "
            f"{variant.get('policy.margin'):+.2f}; {what} [95% CI]"
        )

    def show(duel) -> None:
        if not args.json:
            for r in duel.itertuples():
                extra = f"  points {r.points:+.1f}" if kind == "seat" else ""
                print(
                    f"  base {r.base:+.2f}  margin {r.margin:+.2f}: {r.gain:+7.2f} [{r.gain_lo:+.2f}, "
                    f"{r.gain_hi:+.2f}]{extra}  contracts {r.contracts:.1%}  make rate {r.make_rate:.1%}",
                    flush=True,
                )

    path = tune_margin(variant, size, args.seed, args.step, on_duel=show)
    best, settled = path.attrs["margin"], path.attrs["settled"]
    if args.json:
        print_json(
            {
                "variant": variant.id,
                "seed": args.seed,
                "duel": kind,
                "measure": path.attrs["measure"],
                ("games" if kind == "seat" else "hands"): size,
                "step": args.step,
                "margin": best,
                "settled": settled,
                "duels": path.to_dict(orient="records"),
            }
        )
        return 0
    why = (
        "no nearby margin gains with its whole interval"
        if settled
        else f"the search ran out of rounds while still moving: run again from here with --set policy.margin={best:g}"
    )
    print(f"margin {best:+.2f}: {why}; to use it, write in the rules file:\n[policy]\nmargin = {best:g}")
    return 0
