"""``pinochle meld``: one hand's meld with its breakdown."""

from __future__ import annotations

import argparse

from simcore.commands.common import add_rules_args, load_variant, print_json, suit


def add_parser(sub) -> None:
    p = sub.add_parser("meld", help="show a hand's meld with its breakdown")
    p.add_argument("hand", help='the cards, e.g. "AS 10S KS QS JS 9S ..." (T for ten, ♠♥♦♣ accepted)')
    p.add_argument("--trump", type=suit, help="trump suit S, H, D or C (default: every suit)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from simcore.cards import SUITS, check_hand, format_hand, parse_hand
    from simcore.kernels.meld import N_NAMED, NAMED_MELDS, meld_breakdown, meld_by_trump

    variant = load_variant(args.variant, args.overrides)
    hand = parse_hand(args.hand)
    check_hand(hand, variant.deck_copies, variant.hand_size)
    table, flags = variant.meld_table, variant.meld_flags
    totals = np.zeros(4, dtype=np.int64)
    best = meld_by_trump(hand, table, flags, totals)
    trump = best if args.trump is None else args.trump
    counts, points = np.zeros(N_NAMED, dtype=np.int64), np.zeros(N_NAMED, dtype=np.int64)
    total = int(meld_breakdown(hand, trump, table, flags, counts, points))
    melds = [{"meld": name, "count": int(c), "points": int(p)} for name, c, p in zip(NAMED_MELDS, counts, points) if c]
    if args.json:
        print_json(
            {
                "variant": variant.id,
                "hand": format_hand(hand),
                "trump": SUITS[trump],
                "total": total,
                "melds": melds,
                "by_trump": {SUITS[s]: int(totals[s]) for s in range(4)},
                "best_trump": SUITS[best],
            }
        )
        return 0
    print(f"{variant.id}: {format_hand(hand)}")
    print(f"trump {SUITS[trump]}: {total} points")
    for m in melds:
        times = f" ×{m['count']}" if m["count"] > 1 else ""
        print(f"  {m['meld'].replace('_', ' ')}{times}: {m['points']}")
    print("by trump: " + "  ".join(f"{SUITS[s]} {int(totals[s])}" for s in range(4)) + f"  (best {SUITS[best]})")
    return 0
