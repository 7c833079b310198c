"""``pinochle widow HAND``: my meld after the widow, exact over every widow the unseen cards allow."""

from __future__ import annotations

import argparse
from fractions import Fraction

from simcore.commands.common import UsageError, add_rules_args, cards_option, load_variant, print_json


def add_parser(sub) -> None:
    p = sub.add_parser(
        "widow",
        help="what the widow is worth to my hand: meld after it, exact over every widow",
        description="Every widow the cards I cannot see allow, each weighted by its chance (exact: e.g. "
        "C(33, 3) = 5,456 widows in auction), my meld after it under each trump, burying the cards "
        "that keep the most meld; the expected gain, P(gain >= X), and the best and likeliest "
        "widows. For systems where the bidder takes the widow or kitty and buries as many cards.",
    )
    p.add_argument("hand", help='my cards, a whole hand, e.g. "AS 10S KS QS JS 9S AH ..."')
    p.add_argument(
        "--top",
        type=int,
        default=3,
        choices=range(1, 21),
        metavar="N",
        help="best and likeliest widows to list (1 to 20, default 3)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.widow import RULE, check_widow, widow_worth
    from simcore.cards import SUITS, format_hand

    variant = load_variant(args.variant, args.overrides)
    size = check_widow(variant)
    hand = cards_option("hand", args.hand, variant, variant.hand_size, "a hand")
    if int(hand.sum()) != variant.hand_size:
        raise UsageError(
            f"pinochle widow: hand {args.hand!r}: {int(hand.sum())} cards; give the whole hand "
            f"({variant.hand_size} cards in {variant.id})"
        )
    r = widow_worth(variant, hand)
    if args.json:
        print_json(r.to_json(args.top))
        return 0
    gains = r.gains()
    unseen = int((variant.deck_copies - hand).sum())
    print(
        f"{variant.id}: I hold {format_hand(hand)}; the widow is {size} of the {unseen} cards I cannot see: "
        f"{r.total_ways:,} widows ({len(r.ways):,} distinct), every one counted (exact)"
    )
    print(f"rule: {RULE}")
    print("meld by trump   before   after the widow: mean   gain: mean")
    for s in range(4):
        print(
            f"  {SUITS[s]}             {r.before[s]:>6}   {float(r.mean(r.after[:, s])):>21.2f}   "
            f"{float(r.mean(r.after[:, s] - r.before[s])):>10.2f}"
        )
    if r.trump_after_widow or r.named is None:
        how = "trump named after the widow: the best trump after it against the best before"
    else:
        how = f"trump named before the widow ({SUITS[r.named]}, the heuristic's from my hand): the gain under it"
    print(f"gain ({how}): mean {float(r.mean(gains)):.2f}")
    rows = r.at_least(gains)
    shown = rows if len(rows) <= 12 else rows[:: -(-len(rows) // 12)]
    print("  P(gain >= X): " + "  ".join(f"{x}: {_percent(p)}" for x, p in shown))
    for title, picks in (("best widows", r.best(args.top)), ("likeliest widows", r.likeliest(args.top))):
        print(f"{title}:")
        for i in picks:
            after = "  ".join(f"{SUITS[s]} {int(r.after[i, s])}" for s in range(4))
            print(f"  {format_hand(r.widows[i]):<20} p {int(r.ways[i]) / r.total_ways:.4%}   meld after: {after}")
    return 0


def _percent(p) -> str:
    """A chance as a percentage, small ones with the digits that show them."""
    return f"{float(p):.1%}" if p >= Fraction(1, 1000) or p == 0 else f"{float(p):.3%}"
