"""``pinochle analyse FILE``: where a played hand went wrong, card by card against double dummy."""

from __future__ import annotations

import argparse

from simcore.commands.common import nonnegative_int, positive_int, print_json, say_compiling

#: Mirrors :data:`simcore.answers.analyse.DEFAULT_BUDGET` (``--help`` loads no answer).
DEFAULT_BUDGET = 150_000


def add_parser(sub) -> None:
    p = sub.add_parser(
        "analyse",
        help="where did I go wrong: each card of a played hand against double-dummy play",
        description="Reads a played hand (JSON: the rules id, the deal and every decision; "
        "`pinochle playthrough --json` writes one; see docs/analyse.md) and checks it against "
        "the rules. For each card of every trick (or the last --tricks-left) it prints the points "
        "the player's side takes from that trick's start with the card played and with the best "
        "card, every hand seen and perfect play after, and the points given up; then the total "
        "per seat and the three decisions that gave up most. Values are exact where the solver "
        "proves them within --budget, else estimated (marked ~) by a search of the next tricks "
        "with the learned evaluation after them.",
    )
    p.add_argument("file", metavar="FILE", help="the hand's record (JSON)")
    p.add_argument(
        "--tricks-left",
        type=positive_int,
        default=None,
        help="tricks analysed at the end of the hand (default: every trick)",
    )
    p.add_argument(
        "--budget",
        type=positive_int,
        default=DEFAULT_BUDGET,
        help=f"trick starts a decision's values may reach (default {DEFAULT_BUDGET:,}): exact where the "
        "search reaches the end of the hand within it, else estimated",
    )
    p.add_argument(
        "--limit",
        type=nonnegative_int,
        default=None,
        help="exact values only: the trick starts a card's solve may search before it gives up (0: no "
        "limit); a decision whose solve gives up is shown unvalued",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from simcore.answers.analyse import analyse_hand, load_record, read_record
    from simcore.kernel_cache import SOLVER

    played = read_record(load_record(args.file), args.file, Path(args.file).parent)
    say_compiling(SOLVER)
    result = analyse_hand(played, args.tricks_left, args.limit, args.budget)
    if args.json:
        print_json(result.to_json())
        return 0
    print(text(result))
    return 0


def text(result) -> str:
    """The analysis as a player reads it."""
    v = result.variant
    bidders = ", ".join(str(s) for s, x in enumerate(result.side) if x)
    if result.bidder < 0:
        bidders += "; nobody bid, seat 0's side stands for it"
    first = result.tricks - result.tricks_left + 1
    lines = [
        f"{v.id}: tricks {first}-{result.tricks} of {result.tricks}, every hand seen, perfect play after each card",
        f"bidding side (seats {bidders}): double-dummy value "
        f"{'' if result.decisions['exact'].iloc[0] else '~'}{_pts(result.value)} of {result.in_play} "
        f"in play, took {result.taken}",
        "value and best: the player's side's points from the trick's start with the card played and the best card"
        + ("; ~ estimated (a search of the next tricks, then the learned evaluation)" if result.estimated else ""),
        "trick seat role      card  value  best card  best  given up",
    ]
    for _, d in result.decisions.iterrows():
        gave = "gave up (limit)" if d["given_up"] is None or d["given_up"] != d["given_up"] else int(d["given_up"])
        mark = "" if d["exact"] else "~"
        lines.append(
            f"{d['trick']:>5} {d['seat']:>4} {d['role']:<9} {d['card']:>4} {mark + _pts(d['value']):>6}  "
            f"{d['best_card'] or '-':>9} {mark + _pts(d['best']):>5}  {mark}{gave}"
        )
    lines.append(
        "given up per seat: "
        + ", ".join(
            f"seat {r['seat']} ({r['role']}) {r['given_up']}"
            + ("" if r["valued"] == r["decisions"] else f" over {r['valued']} of {r['decisions']} valued")
            for _, r in result.per_seat().iterrows()
        )
    )
    worst = result.worst()
    if worst.empty:
        lines.append("no card gave up anything: every decision was as good as double dummy's")
    else:
        lines.append("worst decisions:")
        for _, d in worst.iterrows():
            lines.append(
                f"  trick {d['trick']}, seat {d['seat']} ({d['role']}) played {d['card']}: "
                f"{d['best_card']} was worth {'' if d['exact'] else 'about '}{int(d['given_up'])} more"
            )
    if result.unvalued:
        lines.append(
            f"{result.unvalued} decisions unvalued: a solve gave up at --limit {result.limit:,} trick starts "
            "(raise it, or analyse fewer tricks)"
        )
    return "\n".join(lines)


def _pts(x) -> str:
    return "?" if x is None or x != x else str(int(x))
