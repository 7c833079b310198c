"""``pinochle makeable``: the makeable bids of a deal, for each trump and each seat as the bidder."""

from __future__ import annotations

import argparse

#: The choices and defaults of ``simcore.answers.makeable`` (EXCHANGES, LIMIT, BUDGET), written here so
#: that ``--help`` imports no numerical library (a test holds them equal).
EXCHANGES, LIMIT, BUDGET = ("heuristic", "given"), 20_000, 1_500_000

from simcore.commands.common import add_rules_args, load_variant, nonnegative_int, print_json, say_compiling


def add_parser(sub) -> None:
    p = sub.add_parser(
        "makeable",
        help="the makeable bids of a deal: for each trump and bidder, the highest bid made double dummy",
        description="For each trump (S, H, D, C) and each seat as the bidder, the highest bid his side "
        "makes with every hand known and perfect play by both sides: its meld plus the trick points it "
        "takes, under the system's rules on saving meld. Each cell is bisected over the bids by "
        "threshold solves, every cell first under --limit trick starts a solve, then the cells still open "
        "at ten times the limit, and so on within --budget trick starts the table; where solves gave up "
        "the cell says what was proved ('32–35': 32 made, 36 shown unmakeable). Cells that are one "
        "problem (the same position, or the other side of it) share their solves. The deal is the first "
        "hand of --seed as dealt, or the hands given as cards, one a seat from seat 0.",
    )
    p.add_argument(
        "cards",
        nargs="*",
        metavar="HAND",
        help='one hand per seat from seat 0, the whole deal, e.g. "AS 10S KS ..." "QS JS 9S ..." ... '
        "(instead of --seed)",
    )
    p.add_argument("--seed", type=nonnegative_int, help="the deal of the first hand of this seed (default 1)")
    p.add_argument(
        "--exchange",
        choices=EXCHANGES,
        default="heuristic",
        help="where cards pass after the bid: the heuristic's passes for each bidder and trump (default), "
        "or 'given': the hands taken as they are, as after the exchange",
    )
    p.add_argument(
        "--limit",
        type=nonnegative_int,
        default=LIMIT,
        help=f"trick starts a threshold solve may search in the first pass over the cells, each later pass "
        f"ten times the last (default {LIMIT:,}; 0: none, a single pass)",
    )
    p.add_argument(
        "--budget",
        type=nonnegative_int,
        default=BUDGET,
        help=f"trick starts the whole table's solves may search (default {BUDGET:,}, about 1.5 s of one core in "
        "four-hand-150; 0: none, until every cell is exact)",
    )
    p.add_argument(
        "--trump",
        default="SHDC",
        help="the trumps to tabulate, e.g. S or SH (default SHDC: all four)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.makeable import makeable
    from simcore.commands.common import UsageError
    from simcore.kernel_cache import SOLVER

    if args.cards and args.seed is not None:
        raise UsageError("pinochle makeable: give either --seed or the hands as cards, not both")
    variant = load_variant(args.variant, args.overrides)
    say_compiling(SOLVER)
    seed = None if args.cards else (1 if args.seed is None else args.seed)
    table = makeable(variant, seed, args.cards or None, args.exchange, args.limit, args.trump, args.budget)
    if args.json:
        print_json(table.to_json())
        return 0
    print(table_text(table))
    return 0


def table_text(table) -> str:
    """The table as text: a row per trump, a column per bidder, then what it assumes."""
    from simcore.cards import SUITS

    v = table.variant
    where = f"seed {table.seed}" if table.seed is not None else "given hands"
    lines = [f"{v.id}: makeable bids of the deal ({where}), double dummy, each side's meld and trick points"]
    lines += [f"  seat {s}: {h}" for s, h in enumerate(table.dealt)]
    head = "trump " + "".join(f"{'seat ' + str(s):>9}" for s in range(v.players))
    lines += ["", head]
    for t in table.trumps:
        lines.append(f"{SUITS[t]:<6}" + "".join(f"{table.cell(t, s).text:>9}" for s in range(v.players)))
    lines.append("")
    lines.append(f"exchange: {table.exchange_text()}")
    lines.append(
        f"lowest contract {v.lowest_contract}; '–' not even that; 'A–B' A made, B the highest bid not shown "
        "unmakeable (solves gave up between them); '≤ B' the lowest contract unsettled, B at most; "
        "'·' that trump not allowed"
    )
    if table.shared:
        lines.append(f"{table.shared} cells answered by another bidder's solves (the same position, or its other side)")
    passes = ", ".join(
        f"{f'{p.limit:,}' if p.limit else 'no limit'} ({p.solves} solves, {p.gave_up} gave up)" for p in table.passes
    )
    budget = f"of a budget of {table.budget:,}" if table.budget else "no budget"
    lines.append(f"passes, trick starts a solve: {passes or 'none'}")
    lines.append(f"{table.seconds:.2f} s (wall clock), {table.nodes:,} trick starts {budget}")
    return "\n".join(lines)
