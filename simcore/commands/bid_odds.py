"""``pinochle bid-odds``: P(the bidding side makes), one way and jointly by bid and meld."""

from __future__ import annotations

import argparse
import sys

from simcore.commands.common import (
    UsageError,
    add_given_arg,
    add_margin_arg,
    add_play_args,
    add_rules_args,
    add_run_args,
    bidding_rules,
    exit_status,
    full_hand_variant,
    given_condition,
    meld_points,
    output_file,
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
        "bid-odds",
        help="P(bidding side makes) by bid, meld, trump length and aces, and P(make B | meld M)",
        description="P(the bidding side makes) one way (by bid, meld, trump length, aces) and jointly: "
        "P(make B | meld M) for every bid B and meld M, as dealt and after the pass or widow. "
        "Method: a hand's side total (the bidding side's meld as kept plus its trick points as "
        "counted) is what it would take at any bid, so a hand makes B when its side total "
        "reaches B, whatever it was bid at. Only hands the simulated players bid and played "
        "reach the tables (all-pass deals are left out), so a cell describes the hands these "
        "bidders bid. A hand not played (thrown in, set without play, no trump marriage) makes "
        "no bid; where the rules would have let it play at a lower bid it is 'unknown' there, "
        "still counted as not made (the estimate is low by at most unknown / n). A set hand's "
        "total is rebuilt from its record: meld counts when the side took a trick point (save "
        "by a trick) or enough points, a dix kept instead of lost meld is not counted.",
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        help="hands to play (default 400000; with --play strong or dd, 200 hands of the meld asked)",
    )
    add_run_args(p)
    add_given_arg(p, "seat 0 (the dealer's left)")
    p.add_argument(
        "--auction",
        metavar="CALLS",
        help='the auction so far, e.g. "pass 260 270": calls in turn order from the dealer\'s left; only '
        "deals where the model bidders (the heuristic's bid rule) would have made those calls are "
        "played, the calls made as given and the model bidding on; see docs/given.md",
    )
    p.add_argument("--bid", type=int, metavar="B", help="only bid B: with --meld, one line")
    p.add_argument(
        "--meld",
        type=meld_points,
        metavar="M",
        help="only the bin of meld M (the by-meld tables' bins): with --bid, one line",
    )
    p.add_argument(
        "--basis",
        choices=("dealt", "after_exchange"),
        help="the bidder's meld as dealt, or the side's after the pass or widow (default: both; one line: dealt)",
    )
    p.add_argument(
        "--csv",
        nargs="?",
        const="-",
        metavar="FILE",
        help="P(make B | meld M) cells in long form, one row per basis, bid and meld (n, made, "
        "unknown, estimate, lo, hi), to FILE, or to standard output with no FILE",
    )
    add_play_args(p)
    add_rules_args(p)
    add_margin_arg(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.bidodds import bid_odds
    from simcore.kernel_cache import HAND
    from simcore.kernels.policies import parse_policies
    from simcore.variants import require_auction

    variant = full_hand_variant(args)
    require_auction(variant, "no bids to tabulate")
    variant = bidding_rules(args, variant)
    policies = parse_policies(args.policy, variant.players)
    if args.bid is not None:
        _check_bid(variant, args.bid)
    if args.play != "heuristic":
        return _run_strong(args, variant)
    if args.json and args.csv == "-":
        raise UsageError("pinochle bid-odds: --json and --csv without a FILE both print; give --csv FILE")
    if args.csv not in (None, "-"):
        output_file("--csv", args.csv)
    from simcore.kernels.auction_condition import require_model_bidders, with_calls

    if args.auction is not None:
        require_model_bidders(args.policy, "--policy")
    calls, condition = with_calls(variant, given_condition(args, variant, 0), args.auction)
    set_threads(args.threads)
    say_compiling(HAND)
    result = bid_odds(
        variant,
        400_000 if args.hands is None else args.hands,
        args.seed,
        policies,
        progress=not (args.json or args.csv == "-") and sys.stderr.isatty(),
        condition=condition,
        calls=calls,
    )
    status = exit_status(result)
    if args.csv:
        cells = result.joint_table(args.basis, args.bid, args.meld)
        cells.insert(0, "variant", variant.id)
        cells.to_csv(sys.stdout if args.csv == "-" else args.csv, index=False)
        if args.csv == "-":
            return status
    if args.json:
        print_json(
            {**result.to_json(args.basis, args.bid, args.meld), "margin_origin": variant.margin_origin.describe()}
        )
        return status
    if args.bid is not None and args.meld is not None:
        print(_joint_line(variant, result, args.basis or "dealt", args.bid, args.meld))
        return status
    print(
        f"{variant.id}: {result.hands:,} hands, seed {args.seed}, policies {','.join(result.policies)}"
        + partial_note(result)
    )
    print(f"bidding: {variant.margin_origin.describe()}")
    if result.acceptance is not None:
        print(result.acceptance.line())
    if result.calls:
        print(_auction_line(result))
    if args.bid is not None or args.meld is not None:
        t = result.joint_table(args.basis, args.bid, args.meld)
        given = f"bid {args.bid}" if args.bid is not None else f"meld {args.meld}"
        print(f"P(make B | meld M) for {given}  [95% CI]  (hands; not played, fate unknown)")
        for basis, group in t.groupby("basis", sort=False):
            print(f"  {basis}:")
            for r in group.itertuples(index=False):
                if r.n:
                    print(
                        f"    bid {r.bid:>6}  meld {r.meld_bin:>12}  {r.estimate:6.1%}  [{r.lo:.1%}, {r.hi:.1%}]"
                        f"  ({r.n:,}{f'; {r.unknown:,} unknown' if r.unknown else ''})"
                    )
    else:
        for name, t in result.tables().items():
            print(f"\nP(make) by {name.replace('_', ' ')}  [95% CI]  (hands)")
            for row in t.itertuples(index=False):
                print(f"  {row[0]:>6}  {row.p_make:6.1%}  [{row.lo:.1%}, {row.hi:.1%}]  ({row.hands:,})")
        for basis in (args.basis,) if args.basis else ("dealt", "after_exchange"):
            for line in _joint_matrix(result, basis):
                print(line)
    if args.csv:
        print(f"\nwrote {args.csv}")
    return status


def _run_strong(args: argparse.Namespace, variant) -> int:
    """``bid-odds --play strong|dd --meld M [--bid B]``: P(make B | meld M) under that play beside the
    heuristic's, on the same seeded hands."""
    from simcore.answers.strong import bid_odds_strong, check_play
    from simcore.kernel_cache import HAND
    from simcore.variants import scale_text

    what = f"with --play {args.play}"
    if args.meld is None:
        raise UsageError(f"pinochle bid-odds: {what}, give --meld M (and --bid B): strong play is played hand by hand")
    for option, value in (("--given", args.given), ("--auction", args.auction), ("--csv", args.csv)):
        if value is not None:
            raise UsageError(f"pinochle bid-odds: {option} {what}: not supported yet; give --play heuristic")
    if args.policy != "heuristic" or getattr(args, "tune_margin", False):
        raise UsageError(
            f"pinochle bid-odds: {what}, the seats bid as the heuristic: leave out --policy and --tune-margin"
        )
    play = play_option(args)
    play = check_play(variant, play)
    basis = args.basis or "dealt"
    set_threads(args.threads)
    say_compiling(HAND)
    r = bid_odds_strong(
        variant,
        args.meld,
        args.bid,
        basis,
        args.hands,
        args.seed,
        play,
        progress=not args.json and sys.stderr.isatty(),
    )
    if args.json:
        print_json(r.to_json())
        return exit_status(r)
    name = "strong" if play.name == "strong" else "dd"
    whose = "bidder's meld as dealt" if basis == "dealt" else "side's meld after the exchange"
    low, high = r.meld_bin
    label = str(low) if high < 1 << 62 else f"{low} or more"  # a bin holds one meld total (bidodds.meld_unit)
    print(
        f"{variant.id}: P(make B | {whose} {label}) over {r.hands:,} hands the heuristic bid (of the first "
        f"{r.looked:,} of seed {args.seed}), each played by {r.play.text()} and, beside it, by the heuristic; "
        f"{r.seconds:.1f} s" + partial_note(r)
    )
    if r.hands == 0:
        print(f"no hand of that meld was bid in the hands looked through ({scale_text(variant)})")
        return exit_status(r)
    print_play_rates(name, r.played, r.heuristic)
    print_solved_again(r)
    if r.difference is not None:
        d = r.difference
        print(
            f"{name} − heuristic at {args.bid}, paired on the same hands"
            + ("" if r.solved == r.hands else f" ({r.solved:,} solved; the others gave up)")
            + f": {d.estimate * 100:+.1f} "
            f"[{d.lo * 100:+.1f}, {d.hi * 100:+.1f}] percentage points"
        )
    return exit_status(r)


def _check_bid(variant, bid: int) -> None:
    """A bid the auction can reach and the joint table answers, else a UsageError saying which are."""
    from simcore.answers.bidodds import highest_bid, is_bid

    lowest, top = variant.lowest_contract, highest_bid(variant)
    step, step_from = variant.get("auction.step"), variant.get("auction.step_from")
    grid = f"bids go {lowest}, {lowest + step}, {lowest + 2 * step}, ..." + (
        f" and by {variant.get('auction.step_after')} past {step_from}" if step_from else ""
    )
    if bid < lowest:
        raise UsageError(f"pinochle bid-odds: --bid {bid}: below the lowest contract in {variant.id} ({grid})")
    if not is_bid(variant, bid):
        raise UsageError(f"pinochle bid-odds: --bid {bid}: not a bid in {variant.id} ({grid})")
    if bid > top:
        raise UsageError(f"pinochle bid-odds: --bid {bid}: the table answers bids up to {top} in {variant.id}")


def _joint_line(variant, result, basis: str, bid: int, meld: int) -> str:
    """One cell of P(make B | meld M) as one line: the probability, its interval, its hands and how
    they were played."""
    row = result.joint_table(basis, bid, meld).iloc[0]
    what = "bidder's meld as dealt" if basis == "dealt" else "side's meld after the exchange"
    given = f"{what} {row.meld_bin}" + (
        f" (the bin of meld {meld}: melds come in steps of {result.meld_unit})" if row.meld_bin != str(meld) else ""
    )
    margin = (
        variant.margin_origin.describe()
        if len(set(result.margins)) == 1
        else "margins " + ",".join(f"{m:g}" for m in result.margins)
    )
    played = (
        f"{result.hands:,} hands of {variant.id}, seed {result.seed}, policy {result.policy}, {margin}"
        + partial_note(result)
    )
    if result.acceptance is not None:
        from simcore.answers.conditioned import describe_condition

        played += f"; deals given {describe_condition(result.acceptance.condition)}"
        played += f" ({result.acceptance.estimate.estimate:.1%} of deals)"
    if result.calls:
        played += f"; {_auction_line(result)}"

    if row.n == 0:
        return f"P(make {bid} | {given}): no hand had it ({_scale_note(variant, result, basis)}); {played}"
    unknown = f"; {row.unknown:,} not played, fate unknown, counted as not made" if row.unknown else ""
    bids = result.table("bid")["bid"]
    above = f"; {_scale_note(variant, result, basis)}" if len(bids) and bid > bids.max() else ""
    return (
        f"P(make {bid} | {given}) = {row.estimate:.1%} [{row.lo:.1%}, {row.hi:.1%}] over "
        f"{row.n:,} hands ({row.made:,} made{unknown}{above}); {played}"
    )


def _scale_note(variant, result, basis: str) -> str:
    """Where a cell asked for lies against the system's scale: how it counts and the contracts and melds
    of the hands played (a bid or meld of another system's scale finds no hands, or only hands that
    make nothing)."""
    from simcore.variants import scale_text

    table = "bidder_meld" if basis == "dealt" else "side_meld"
    bids, melds = result.table("bid")["bid"], result.table(table)[table]
    if not len(bids):
        return f"{scale_text(variant)}; no hand was bid"
    whose = "the bidders' meld as dealt" if basis == "dealt" else "the sides' meld after the exchange"
    return (
        f"{scale_text(variant)}; these hands were bid from {bids.min():,} to {bids.max():,}, "
        f"{whose} from {melds.min():,} to {melds.max():,}"
    )


def _auction_line(result) -> str:
    """The auction so far and the model it holds under."""
    from simcore.kernels.auction_condition import MODEL

    calls = " ".join(str(c or "pass") for c in result.calls)
    return f"auction so far {calls}, made as given, the model bidding on; {MODEL}"


def _joint_matrix(result, basis: str) -> list[str]:
    """Text of one joint table: a row per meld, a column per bid among those most often bid."""
    bids_table = result.table("bid")
    if not len(bids_table):
        return []
    top = bids_table.sort_values("hands", ascending=False).head(10)["bid"].sort_values().tolist()
    t = result.joint_table(basis).query("bid in @top")
    what = "bidder's meld as dealt" if basis == "dealt" else "side's meld after the exchange"
    lines = [
        f"\nP(make B | {what}): % of hands whose side total reaches B  (hands); "
        "bids most often bid; --bid/--meld for one cell with its interval"
    ]
    lines.append(f"  {'meld':>12}  {'hands':>9}  " + " ".join(f"{b:>6}" for b in top))
    for _, group in t.groupby("meld", sort=True):
        row = group.set_index("bid")
        cells = " ".join(f"{row.loc[b, 'estimate']:6.1%}" for b in top)
        lines.append(f"  {row['meld_bin'].iloc[0]:>12}  {int(row['n'].iloc[0]):>9,}  {cells}")
    return lines
