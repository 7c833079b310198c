"""``pinochle odds``: dealt-hand events simulated beside exact values, and ``--hold``/``--want``."""

from __future__ import annotations

import argparse
import sys

from simcore.commands.common import (
    UsageError,
    add_given_arg,
    add_rules_args,
    add_run_args,
    cards_option,
    exit_status,
    given_condition,
    interval_text,
    load_variant,
    partial_note,
    positive_int,
    print_json,
    set_threads,
)

#: Hands dealt by default, and under a condition (where every kept deal costs those thrown away).
HANDS = 4_000_000
CONDITIONED_HANDS = 200_000
#: Deals of the seats' meld under an auction (a second conditioned run).
SEAT_MELD_DEALS = 10_000


def add_parser(sub) -> None:
    p = sub.add_parser("odds", help="odds of dealt-hand events, simulated beside exact values")
    p.add_argument("events", nargs="*", help="events (default: all); `--list` lists them")
    p.add_argument("--list", action="store_true", help="list the events and exit")
    p.add_argument(
        "--hands",
        type=positive_int,
        help=f"hands to deal (default {HANDS:,}; with --given or --auction {CONDITIONED_HANDS:,}, "
        "each costing the deals thrown away)",
    )
    p.add_argument(
        "--hold",
        metavar="CARDS",
        help='cards I (seat 0, the dealer\'s left) hold, e.g. "QS JD": the rest are dealt at random and '
        "each event is reported for me, my partner, each opponent, any other player, the table "
        "and the widow; exact wherever the place is one hand or the widow",
    )
    p.add_argument(
        "--want",
        metavar="CARDS",
        help="with a widow: the exact chance that it holds at least these cards (a card named "
        "twice: two copies), given the cards of --hold",
    )
    add_given_arg(p, "me (seat 0, the dealer's left)")
    p.add_argument(
        "--auction",
        metavar="CALLS",
        help='the auction so far, e.g. "pass 260 270": calls in turn order from the dealer\'s left '
        "(seats that passed, and the high bidder, skipped); only deals where the model bidders "
        "(the heuristic's bid rule) would have made those calls are kept, and each seat's meld "
        "is printed; see docs/given.md",
    )
    add_run_args(p, policy=False)
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.odds import simulate_odds
    from simcore.kernels.events import CATALOGUE, parse_event

    if args.list:
        for e in CATALOGUE.values():
            print(f"{e.name:<16} {e.help}")
        print(f"{'meld>=X':<16} best-trump meld of at least X points under the variant's table")
        return 0
    variant = load_variant(args.variant, args.overrides)
    names = args.events or list(CATALOGUE)
    events = [parse_event(n, variant) for n in names]
    set_threads(args.threads)
    conditioned = bool(args.given) or args.auction is not None
    if args.hands is None:
        args.hands = CONDITIONED_HANDS if conditioned else HANDS
    if args.hold is not None or args.want is not None or args.given or args.auction is not None:
        return _odds_given(args, variant, events)
    result = simulate_odds(variant, events, args.hands, args.seed, progress=not args.json and sys.stderr.isatty())
    if args.json:
        print_json(result.to_json())
        return exit_status(result)
    print(
        f"{variant.id}: {result.hands:,} hands in {result.deals:,} deals, seed {args.seed}, "
        f"{result.seconds:.1f} s" + partial_note(result)
    )
    per_hand_n = [_fmt_one_in(*_chance(o.exact_hand, o.per_hand.estimate)) for o in result.events]
    width = max([16, *(len(t) + 1 for t in per_hand_n)])  # "impossible in this deck" is longer than "1 in N"
    header = (
        f"{'event':<16} {'per hand [95% CI]':<30} {'exact':<10} {'1 in N':<{width}} "
        f"{'per deal [95% CI]':<30} {'exact':<10} {'1 in N'}"
    )
    print(header)
    estimated_only = False
    for o, one_in in zip(result.events, per_hand_n):
        h, d = o.per_hand, o.per_deal
        exact_d = "estimated" if o.exact_deal is None else _fmt_p(float(o.exact_deal))
        estimated_only |= o.exact_deal is None
        print(
            f"{o.event.name:<16} {_fmt_p(h.estimate) + f' [{_fmt_p(h.lo)}, {_fmt_p(h.hi)}]':<30} "
            f"{_fmt_p(float(o.exact_hand)) if o.exact_hand is not None else '-':<10} {one_in:<{width}} "
            f"{_fmt_p(d.estimate) + f' [{_fmt_p(d.lo)}, {_fmt_p(d.hi)}]':<30} {exact_d:<10} "
            f"{_fmt_one_in(*_chance(o.exact_deal, d.estimate))}"
        )
    print("1 in N: from the exact value where known, else from the estimate")
    if estimated_only:
        print(
            "per deal 'estimated': two hands of one deal can both hold the event, and counting such "
            "deals exactly is out of reach for it (it depends on too many card types); the simulated "
            "interval is the answer."
        )
    return exit_status(result)


def _fmt_p(p: float) -> str:
    return "0" if p == 0 else f"{p:.3g}" if p >= 1e-3 else f"{p:.2e}"


def _chance(exact, estimate: float) -> tuple[float, bool]:
    """The probability ``1 in N`` is read from (the exact value where known) and whether it is exact."""
    return (float(exact), True) if exact is not None else (estimate, False)


def _fmt_one_in(p: float | None, exact: bool = False) -> str:
    """``1 in N`` for a probability; an exact 0 is impossible under the rules, an estimated 0 unseen."""
    if p is None or p == 0:
        return "impossible in this deck" if exact and p == 0 else "never seen"
    n = 1 / p
    return f"1 in {n:,.0f}" if n >= 10 else f"1 in {n:.2f}"


def _seats_meld(variant, hold, condition, result, seed: int) -> list:
    """Each seat's meld under its best trump over deals that meet ``condition`` (the auction's)."""
    import numpy as np

    from simcore.answers.partner_meld import group_melds

    return group_melds(
        variant,
        hold,
        0,
        np.eye(variant.players, dtype=np.bool_),
        -1,
        deals=min(SEAT_MELD_DEALS, result.deals),
        seed=seed,
        condition=condition,
        acceptance=result.acceptance,
    )


def _odds_given(args: argparse.Namespace, variant, events) -> int:
    """``odds --hold/--want/--given``: each event at each place, given the cards seat 0 holds and what
    the table has shown."""
    import numpy as np

    from simcore.answers.given import given_odds
    from simcore.cards import format_hand

    hold = (
        np.zeros(24, dtype=np.uint8)
        if args.hold is None
        else cards_option("--hold", args.hold, variant, variant.hand_size, "a hand")
    )
    from simcore.kernels.auction_condition import MODEL, describe_calls, read_auction, with_auction

    calls, auction = read_auction(variant, args.auction) if args.auction is not None else ([], None)
    condition = with_auction(given_condition(args, variant, 0), auction)
    want = None
    if args.want is not None and condition is not None:
        raise UsageError(
            "pinochle: --want with --given: the widow's exact chance is counted from my cards "
            "alone, not under a condition; ask it without --given"
        )
    if args.want is not None:
        widow = variant.get("deal.widow")
        if not widow or variant.get("deal.widow_kind") == "stock":
            raise UsageError(f"pinochle: --want: {variant.id} deals no widow or kitty to look for cards in")
        want = cards_option("--want", args.want, variant, widow, "the widow", limit=variant.deck_copies - hold)
    result = given_odds(
        variant,
        events,
        hold,
        args.hands,
        args.seed,
        want,
        progress=not args.json and sys.stderr.isatty(),
        condition=condition,
    )
    seats = _seats_meld(variant, hold, condition, result, args.seed) if auction is not None else []
    if args.json:
        doc = result.to_json()
        if auction is not None:
            doc["auction"] = {
                "calls": [{"seat": c.seat, "bid": c.bid or None} for c in calls],
                "model": MODEL,
                "meld_by_seat": [t.to_json() for t in seats],
            }
        print_json(doc)
        return exit_status(result)
    held = format_hand(hold) if args.hold is not None else "nothing"
    print(
        f"{variant.id}: I (seat 0) hold {held}; {result.deals:,} deals, seed {args.seed}, "
        f"{result.seconds:.1f} s" + partial_note(result)
    )
    if result.acceptance is not None:
        print(result.acceptance.line())
    if auction is not None:
        print(f"auction: {describe_calls(calls)}; {MODEL}")
        for s, t in enumerate(seats):
            levels = "  ".join(f"P(>= {m}) {t.at_least(m).estimate:.1%}" for m in t.levels())
            print(
                f"  seat {s} meld (best trump) over {t.deals:,} deals: mean {interval_text(t.mean)}"
                + (f"; {levels}" if levels else "")
            )
    for event, by_place in result.events:
        print(f"{event.name}:")
        for place, o in by_place.items():
            iv = o.estimate
            if o.fact:
                text = (
                    "yes (a fact: every card of my hand is given)"
                    if o.exact == 1
                    else "no (a fact: every card of my hand is given)"
                )
            else:
                exact = f"exact {_fmt_p(float(o.exact))}" if o.exact is not None else "estimated"
                value = float(o.exact) if o.exact is not None else iv.estimate
                odds = {0: "impossible", 1: "certain"}.get(o.exact, _fmt_one_in(value))
                text = f"{_fmt_p(iv.estimate) + f' [{_fmt_p(iv.lo)}, {_fmt_p(iv.hi)}]':<30} {exact:<16} {odds}"
            print(f"  {place.replace('_', ' '):<10} {text}")
    if want is not None:
        print(
            f"the widow holds {format_hand(want)}: exact {_fmt_p(float(result.want_exact))} "
            f"({_fmt_one_in(float(result.want_exact))})"
        )
    return exit_status(result)
