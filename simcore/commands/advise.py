"""``pinochle advise``: one hand's P(make B) over deals of the unseen cards."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from simcore.commands.common import (
    UsageError,
    add_given_arg,
    add_play_args,
    add_rules_args,
    add_run_args,
    cards_option,
    exit_status,
    full_hand_variant,
    given_condition,
    interval_text,
    partial_note,
    play_option,
    positive_int,
    print_json,
    print_play_rates,
    print_solved_again,
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
        help="my seat: 0 is the dealer's left, who opens; the dealer is the last (default 0; with "
        "--auction, the seat whose turn it is)",
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        help="deals of the unseen cards, each played in full (default: enough for a ±2-point "
        "interval on the mean side total, at least 2000; with --auction, 4,000 per call; with --play "
        "strong or dd, 100)",
    )
    add_given_arg(p, "my seat (--seat)")
    p.add_argument(
        "--auction",
        metavar="CALLS",
        help="the auction so far, e.g. 'pass 260': calls in turn order from the dealer's left; my hand "
        "is the next seat's, and each call it can make now (pass, each bid up to the model's limit) "
        "is valued: P(my side gets the contract), P(made), the expected score, under the model "
        "bidders; see docs/given.md",
    )
    p.add_argument(
        "--trump",
        metavar="SUIT",
        help="the trump the bidder names in every deal, S, H, D or C (default: the heuristic's choice "
        "in each deal; after the widow where the rules name trump then)",
    )
    add_play_args(p)
    add_run_args(p)
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.advise import advise, check_advisable, seat_name
    from simcore.cards import SUITS, format_hand
    from simcore.kernel_cache import HAND
    from simcore.kernels.policies import parse_policies

    variant = full_hand_variant(args)
    trump = _trump_option(args)
    if args.play != "heuristic":
        return _run_strong(args, variant)
    if args.auction is not None:
        return _run_in_auction(args, variant)
    seat = 0 if args.seat is None else args.seat
    check_advisable(variant, seat)
    hand = cards_option("hand", args.hand, variant, variant.hand_size, "a hand")
    policies = parse_policies(args.policy, variant.players)
    set_threads(args.threads)
    say_compiling(HAND)
    condition = given_condition(args, variant, seat)
    a = advise(
        variant,
        hand,
        seat,
        args.hands,
        args.seed,
        policies,
        progress=not args.json and sys.stderr.isatty(),
        condition=condition,
        trump=trump,
    )
    if args.json:
        print_json(a.to_json())
        return exit_status(a)
    held = int(hand.sum())
    more = "" if held == variant.hand_size else f" and {variant.hand_size - held} more at random"
    print(f"{variant.id}: {seat_name(variant, seat)} holds {format_hand(hand)}{more}")
    best = max(range(4), key=lambda s: a.by_trump[s])
    named = "no trump (it holds no marriage to name)" if a.named is None else f"names {SUITS[a.named]}"
    asked = "" if trump is None else f"; named {SUITS[trump]} as asked"
    print(
        "meld by trump: "
        + "  ".join(f"{SUITS[s]} {a.by_trump[s]}" for s in range(4))
        + f"  (best {SUITS[best]}; the heuristic {named}{asked})"
    )
    print(
        f"{a.deals:,} deals of the unseen cards, each played out with seat {seat} the bidder; "
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
    _print_partner_meld(a)
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


def _trump_option(args: argparse.Namespace) -> int | None:
    """``--trump``'s suit (0-3), None when not given; refused in one line where it is not a suit or is
    given with ``--play`` or ``--auction``."""
    if args.trump is None:
        return None
    from simcore.cards import SUITS

    suit = args.trump.strip().upper()
    if suit not in SUITS:
        raise UsageError(f"--trump {args.trump!r}: give a suit, one of {', '.join(SUITS)}")
    for option, value in (("--play", args.play if args.play != "heuristic" else None), ("--auction", args.auction)):
        if value is not None:
            raise UsageError(f"--trump {suit}: not taken with {option} yet (the heuristic's play, no auction)")
    return SUITS.index(suit)


def _run_strong(args: argparse.Namespace, variant) -> int:
    """``advise HAND --play strong|dd``: the hand's P(make B) under that play beside the heuristic's, on
    the same deals."""
    from simcore.answers.advise import check_advisable, seat_name, trump_choice
    from simcore.answers.strong import advise_strong, check_play
    from simcore.cards import SUITS, format_hand
    from simcore.kernel_cache import HAND

    for option, given in (("--auction", args.auction), ("--given", args.given)):
        if given is not None:
            raise UsageError(
                f"pinochle advise: {option} with --play {args.play}: not supported yet; "
                "give --play heuristic, or leave it out"
            )
    if args.policy != "heuristic":
        raise UsageError(f"pinochle advise: --policy {args.policy!r} with --play {args.play}: give one or the other")
    seat = 0 if args.seat is None else args.seat
    check_advisable(variant, seat)
    play = play_option(args)
    play = check_play(variant, play)
    hand = cards_option("hand", args.hand, variant, variant.hand_size, "a hand")
    if int(hand.sum()) != variant.hand_size:
        raise UsageError(
            f"pinochle advise: hand {args.hand!r}: with --play {args.play}, "
            f"give the whole hand ({variant.hand_size} cards)"
        )
    set_threads(args.threads)
    say_compiling(HAND)
    a = advise_strong(variant, hand, seat, args.hands, args.seed, play, progress=not args.json and sys.stderr.isatty())
    if args.json:
        print_json(a.to_json())
        return exit_status(a)
    name = "strong" if play.name == "strong" else "dd"
    print(f"{variant.id}: {seat_name(variant, seat)} holds {format_hand(hand)}")
    by_trump, named = trump_choice(variant, hand)
    print(
        "meld by trump: "
        + "  ".join(f"{SUITS[s]} {by_trump[s]}" for s in range(4))
        + ("" if named < 0 else f"  (the heuristic names {SUITS[named]})")
    )
    print(
        f"{a.deals:,} deals of the unseen cards, each played with seat {seat} the bidder at the lowest "
        f"contract by {a.play.text()} and, beside it, by the heuristic; seed {args.seed}, {a.seconds:.1f} s"
        + partial_note(a)
    )
    solved = "" if a.solved == a.deals else f" (over the {a.solved:,} deals solved; {a.deals - a.solved:,} gave up)"
    print(
        f"side total (meld kept + trick points): {name} {interval_text(a.play_total)}{solved}; heuristic "
        f"{interval_text(a.heuristic_total)}; {name} − heuristic, paired on the same deals: {_points(a.difference)}"
    )
    print_play_rates(name, a.played, a.heuristic)
    print_solved_again(a)
    for who, shares in a.highest().items():
        for s in shares:
            if s.bid is None:
                print(f"{who}: highest bid made in {s.share:.0%} of deals: none (not even {variant.lowest_contract})")
            else:
                lo = "below the lowest" if s.lo is None else s.lo
                print(f"{who}: highest bid made in {s.share:.0%} of deals: {s.bid}  (95% CI {lo} to {s.hi})")
    return exit_status(a)


def _print_partner_meld(a) -> None:
    """Partner's meld as dealt under the trump I would name, where I have a partner: the posterior
    where a condition (``--given``, ``--auction``) was met."""
    from simcore.cards import SUITS

    pm = a.partner_meld
    if pm is not None:
        given = ", given the table above" if a.acceptance is not None else ""
        print(
            f"partner's meld under {SUITS[pm.trump]} as dealt{given}: mean {interval_text(pm.mean)} over "
            f"{pm.deals:,} deals; " + "  ".join(f"P(>= {m}) {pm.at_least(m).estimate:.1%}" for m in pm.levels())
        )


def _policies_text(policies: Sequence[str]) -> str:
    """'heuristic play', or the seats' policies in seat order where they differ."""
    return f"{policies[0]} play" if len(set(policies)) == 1 else "policies " + ",".join(policies)


def _run_in_auction(args: argparse.Namespace, variant) -> int:
    """``advise HAND --auction CALLS``: each call the seat to call can make, valued under the model bidders."""
    from simcore.answers.mid_auction import CONTINUATION, MODEL_NOTE, advise_in_auction, headline, seat_to_call
    from simcore.kernel_cache import HAND
    from simcore.kernels.auction_condition import require_model_bidders

    require_model_bidders(args.policy, "--policy")
    seat = seat_to_call(variant, args.auction, seat=args.seat)
    hand = cards_option("hand", args.hand, variant, variant.hand_size, "a hand")
    set_threads(args.threads)
    say_compiling(HAND)
    a = advise_in_auction(
        variant,
        hand,
        args.auction,
        args.hands,
        args.seed,
        condition=given_condition(args, variant, seat),
        progress=not args.json and sys.stderr.isatty(),
        seat=seat,
    )
    if args.json:
        print_json(a.to_json())
        return exit_status(a)
    print(headline(a))
    if a.acceptance is not None:
        print(a.acceptance.line())
    print(
        f"{a.deals:,} deals of the unseen cards, the same for every call; {CONTINUATION} (heuristic play); "
        f"seed {args.seed}, {a.seconds:.1f} s" + partial_note(a)
    )
    print(MODEL_NOTE)
    _print_partner_meld(a)
    if a.bids > len(a.calls) - 1:
        print(f"the {a.bids} bids from {a.lowest} to the limit thinned evenly to {len(a.calls) - 1}")
    thrown = any(c.thrown_in > 0 for c in a.calls)
    print(
        "  call   my side's contract      made (when ours)        my score                   "
        "margin over the others" + ("   thrown in" if thrown else "")
    )
    for c in a.calls:
        print(
            f"  {c.name:>4}   {_share(c.ours):<23} {_share(c.made):<23} {_points(c.score):<26} "
            + (f"{_points(c.margin):<24} {c.thrown_in:.1%}" if thrown else _points(c.margin))
        )
    best, margin = a.calls[a.best_score], a.calls[a.best_margin]
    print(
        f"best expected score: {best.name} ({best.score.estimate:+.1f}{_ties(a, a.score_ties, a.best_score)}); "
        f"best expected margin over the others: {margin.name} "
        f"({margin.margin.estimate:+.1f}{_ties(a, a.margin_ties, a.best_margin)})"
    )
    return exit_status(a)


def _ties(a, ties: tuple[int, ...], best: int) -> str:
    """'; 22 to 37 not told apart from it' for the other calls whose paired difference from the best
    has a 95% interval reaching 0."""
    others = [a.calls[i].name for i in ties if i != best]
    if not others:
        return ""
    names = (
        f"{others[0]} to {others[-1]}"
        if len(others) > 2 and others == [c.name for c in a.calls[min(ties) : max(ties) + 1] if c is not a.calls[best]]
        else ", ".join(others)
    )
    return f"; {names} not told apart from it on these deals"


def _share(x) -> str:
    """'12.3% [11.2%, 13.4%]', or '-' where nothing was counted."""
    return "-" if x.estimate != x.estimate else f"{x.estimate:.1%} [{x.lo:.1%}, {x.hi:.1%}]"


def _points(x) -> str:
    """'+25.1 [+23.0, +27.2]' in points."""
    return f"{x.estimate:+.1f} [{x.lo:+.1f}, {x.hi:+.1f}]"
