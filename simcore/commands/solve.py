"""``pinochle solve``: a double-dummy solve of a seeded or given position."""

from __future__ import annotations

import argparse

from simcore.commands.common import (
    UsageError,
    add_rules_args,
    full_hand_variant,
    load_variant,
    nonnegative_int,
    print_json,
    say_compiling,
    suit,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "solve",
        help="double dummy: the trick points each side takes with every hand known and perfect play",
        description="Double-dummy solve of the trick play: the exact trick "
        "points (as taken, last-trick bonus included) the bidding side and the others take "
        "from a position with every hand known, both sides playing perfectly under the "
        "system's duties. The position is a seeded hand's at its first lead (--seed; as "
        "`pinochle playthrough` plays it), or one hand per seat given as cards. Systems "
        "with a stock (two-hand) are solved only once the stock is gone: a seeded hand is "
        "taken at its last hand-size tricks, and the points taken before are shown apart.",
    )
    p.add_argument(
        "cards",
        nargs="*",
        metavar="HAND",
        help='one hand per seat from seat 0, e.g. "AS 10S KS" "QS JS 9S" ... (instead of --seed; '
        "needs --trump and --leader)",
    )
    p.add_argument(
        "--seed", type=nonnegative_int, help="solve the first hand of this seed at its first lead (default 1)"
    )
    p.add_argument(
        "--policy",
        default="heuristic",
        help="the policies that bid and exchange in the seeded hand, as for simulate (default heuristic)",
    )
    p.add_argument("--trump", type=suit, help="trump suit S, H, D or C (given hands)")
    p.add_argument("--leader", type=nonnegative_int, help="the seat to lead (given hands)")
    p.add_argument(
        "--bidder",
        type=nonnegative_int,
        help="the bidder's seat (given hands; default 0): his side's "
        "points are solved; with partners across his partner is the seat across",
    )
    p.add_argument(
        "--partner", type=nonnegative_int, help="the bidder's called partner (given hands, called-card systems)"
    )
    p.add_argument(
        "--first-trick",
        action="store_true",
        help="the hand's first trick (given hands): the bidder's opening-lead duty applies",
    )
    p.add_argument(
        "--broken",
        action="store_true",
        help="trump has been played already (given hands; for play.trump_led_once_broken)",
    )
    p.add_argument(
        "--at-least",
        type=nonnegative_int,
        metavar="T",
        help="only answer: can the bidding side take at least T points? (much cheaper than the exact value)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.cards import SUITS, format_hand
    from simcore.kernel_cache import HAND, SOLVER
    from simcore.solver.position import solve

    say_compiling(*([] if args.cards else [HAND]), SOLVER)  # a seeded position plays the hand to its first lead
    position = _solve_position(args)
    result = solve(position, args.at_least)
    if args.json:
        print_json(result.to_json())
        return 0
    v = position.variant
    ours = [s for s in range(v.players) if position.side[s] == 1]
    where = f"seed {args.seed if args.seed is not None else 1}, {position.note}" if not args.cards else "given hands"
    lead = " (bidder)" if position.leader == position.bidder else ""
    print(
        f"{v.id}: {where}; trump {SUITS[position.trump]}, seat {position.leader}{lead} leads, "
        f"{position.tricks} tricks, {position.in_play} points in play"
    )
    for s in range(v.players):
        tag = "bidder" if s == position.bidder else ("bidding side" if position.side[s] else "")
        print(f"  seat {s}{f' ({tag})' if tag else ''}: {format_hand(position.hands[s])}")
    if any(position.taken):
        print(f"taken in the tricks before: bidding side {position.taken[0]}, others {position.taken[1]}")
    side = "seat " + str(ours[0]) if len(ours) == 1 else "seats " + ", ".join(map(str, ours))
    cost = f"{result.seconds:.2f} s, {result.nodes:,} trick starts searched"
    if result.target is not None:
        print(
            f"double dummy: can the bidding side ({side}) take at least {result.target}? "
            f"{'yes' if result.reaches else 'no'} ({cost})"
        )
        return 0
    counted = ""
    if v.get("tricks.round_to"):
        counted = f" (counted: {result.counted(result.side_points)} and {result.counted(result.other_points)})"
    print(
        f"double dummy: the bidding side ({side}) takes {result.side_points}, the others {result.other_points}"
        f"{counted} ({cost})"
    )
    return 0


def _solve_position(args: argparse.Namespace):
    """The :class:`simcore.solver.position.Position` that ``pinochle solve``'s arguments name."""
    from simcore.kernels.policies import parse_policies
    from simcore.solver.position import given_position, seeded_position

    given = (
        ("--trump", args.trump),
        ("--leader", args.leader),
        ("--bidder", args.bidder),
        ("--partner", args.partner),
        ("--first-trick", args.first_trick or None),
        ("--broken", args.broken or None),
    )
    if not args.cards:
        named = [name for name, value in given if value is not None]
        if named:
            raise UsageError(f"pinochle solve: {', '.join(named)}: only with hands given as cards, not with a seed")
        variant = full_hand_variant(args)
        seed = 1 if args.seed is None else args.seed
        return seeded_position(variant, seed, parse_policies(args.policy, variant.players))
    if args.seed is not None:
        raise UsageError("pinochle solve: give either --seed or the hands as cards, not both")
    if args.trump is None or args.leader is None:
        raise UsageError("pinochle solve: hands given as cards need --trump and --leader")
    variant = load_variant(args.variant, args.overrides)
    return given_position(
        variant,
        args.cards,
        args.trump,
        args.leader,
        0 if args.bidder is None else args.bidder,
        -1 if args.partner is None else args.partner,
        args.first_trick,
        args.broken,
    )
