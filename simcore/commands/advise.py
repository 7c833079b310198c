"""``pinochle advise``: one hand's P(make B) over deals of the unseen cards."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from simcore.commands.common import (
    add_given_arg,
    add_rules_args,
    add_run_args,
    cards_option,
    exit_status,
    full_hand_variant,
    given_condition,
    interval_text,
    partial_note,
    positive_int,
    print_json,
    say_compiling,
    set_threads,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "advise",
        help="what should I bid with this hand? P(make B) over random deals of the unseen cards",
        description="A hand's meld under each trump and the trump it would name; then the unseen cards are "
        "dealt at random HANDS times and each deal is played out with the hand's seat the bidder "
        "(at the lowest contract, no auction; exchange, widow, meld and play as the rules say). "
        "Prints P(make B) for the bids around the hand's value and the highest bid made in 50% "
        "and 75% of the deals, with 95% intervals. Method: a deal's side total (the side's meld "
        "as kept plus its trick points as counted) is what it would take at any bid, so it makes "
        "B when the total reaches B, unless the rules (or a bidder conceding a hopeless contract) "
        "would stop it unplayed at B.",
    )
    p.add_argument("hand", help='my cards, e.g. "AS AS 10S KS QS JS ..." (fewer than a hand: the rest at random)')
    p.add_argument(
        "--seat",
        type=int,
        default=0,
        help="my seat: 0 is the dealer's left, who opens; the dealer is the last (default 0)",
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        help="deals of the unseen cards, each played in full (default: enough for a ±2-point "
        "interval on the mean side total, at least 2000)",
    )
    add_given_arg(p, "my seat (--seat)")
    add_run_args(p)
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.advise import advise, check_advisable, seat_name
    from simcore.cards import SUITS, format_hand
    from simcore.kernel_cache import HAND
    from simcore.kernels.policies import parse_policies

    variant = full_hand_variant(args)
    check_advisable(variant, args.seat)
    hand = cards_option("hand", args.hand, variant, variant.hand_size, "a hand")
    policies = parse_policies(args.policy, variant.players)
    set_threads(args.threads)
    say_compiling(HAND)
    condition = given_condition(args, variant, args.seat)
    a = advise(
        variant,
        hand,
        args.seat,
        args.hands,
        args.seed,
        policies,
        progress=not args.json and sys.stderr.isatty(),
        condition=condition,
    )
    if args.json:
        print_json(a.to_json())
        return exit_status(a)
    held = int(hand.sum())
    more = "" if held == variant.hand_size else f" and {variant.hand_size - held} more at random"
    print(f"{variant.id}: {seat_name(variant, args.seat)} holds {format_hand(hand)}{more}")
    best = max(range(4), key=lambda s: a.by_trump[s])
    named = "no trump (it holds no marriage to name)" if a.named is None else f"names {SUITS[a.named]}"
    print(
        "meld by trump: "
        + "  ".join(f"{SUITS[s]} {a.by_trump[s]}" for s in range(4))
        + f"  (best {SUITS[best]}; the heuristic {named})"
    )
    print(
        f"{a.deals:,} deals of the unseen cards, each played out with seat {args.seat} the bidder; "
        f"{_policies_text(a.policies)}, seed {args.seed}, {a.seconds:.2f} s" + partial_note(a)
    )
    if a.acceptance is not None:
        print(a.acceptance.line())
    if a.named_share:
        print(
            "trump named: "
            + "  ".join(f"{s} {v:.0%}" for s, v in a.named_share.items())
            + ("  (after the widow)" if variant.get("exchange.trump_after_widow") else "")
        )
    print(f"side total (meld kept + trick points): mean {interval_text(a.total)}; played out in {a.played:.0%}")
    pm = a.partner_meld
    if pm is not None:
        given = ", given the table above" if a.acceptance is not None else ""
        print(
            f"partner's meld under {SUITS[pm.trump]} as dealt{given}: mean {interval_text(pm.mean)} over "
            f"{pm.deals:,} deals; " + "  ".join(f"P(>= {m}) {pm.at_least(m).estimate:.1%}" for m in pm.levels())
        )
    print("  bid   P(make)  [95% CI]")
    for bid, _, iv in a.bids:
        print(f"  {bid:>4}   {iv.estimate:6.1%}  [{iv.lo:.1%}, {iv.hi:.1%}]")
    for s in a.highest:
        if s.bid is None:
            print(f"highest bid made in {s.share:.0%} of deals: none (not even {variant.lowest_contract})")
        else:
            lo = "below the lowest" if s.lo is None else s.lo
            print(f"highest bid made in {s.share:.0%} of deals: {s.bid}  (95% CI {lo} to {s.hi})")
    return exit_status(a)


def _policies_text(policies: Sequence[str]) -> str:
    """'heuristic play', or the seats' policies in seat order where they differ."""
    return f"{policies[0]} play" if len(set(policies)) == 1 else "policies " + ",".join(policies)
