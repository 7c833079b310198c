"""The perfect-play curve (the strong-play page's second measurement): for each bid, how often the heuristic's
contracts are made by its own play and how often with double-dummy play on the same hands.

The hands are :func:`simcore.answers.dd_make.dd_make_odds`'s: the first hand of seeds ``seed ..``, bid,
passed and melded by the heuristic at every seat (the system's tuned margin) and played out; a contract
is made double dummy when the bidding side can take the trick points it needs (bid less its kept meld)
from the first lead with every hand known and both sides perfect. A solve that searches ``limit``
trick starts gives up; gave-ups count as not made in the lower end of the double-dummy rate and as made
in the upper, so the rate is a range. Intervals: Wilson 95% for the heuristic's rate and for the outer
ends of the range (``dd_low_lo``, ``dd_high_hi``). Bids are points on the system's scale.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.section import Section, StrongSizes
from analyses.workers import Job, chunks, run_jobs
from simcore.answers.dd_make import MakeOdds, dd_make_odds
from simcore.run.stats import wilson
from simcore.variants import Variant

#: Columns of :func:`by_bid_table`.
BY_BID_COLUMNS = (
    "variant",
    "bid",
    "hands",
    "heuristic",
    "heuristic_lo",
    "heuristic_hi",
    "dd_low",
    "dd_low_lo",
    "dd_high",
    "dd_high_hi",
    "gave_up",
)
#: Bids with fewer hands than this are left out of the chart (they stay in the table and the CSV).
MIN_CHART_HANDS = 5


def _hands(variant: Variant, seeds: range, limit: int) -> pd.DataFrame:
    return dd_make_odds(variant, len(seeds), seeds.start, limit, budget=0).hands


def jobs(variant: Variant, hands: int, seed: int, limit: int, chunk: int = 10) -> list[Job]:
    """:func:`dd_make_odds` over seeds ``seed .. seed + hands - 1`` as worker jobs of ``chunk`` seeds,
    one pass each at ``limit`` (the give-ups are escalated over all the jobs' hands by
    :meth:`~simcore.answers.dd_make.MakeOdds.escalated`)."""
    return [(_hands, (variant, r, limit)) for r in chunks(seed, hands, chunk)]


def gather(variant: Variant, hands: int, seed: int, limit: int, results: list[pd.DataFrame]) -> MakeOdds:
    """The :class:`MakeOdds` of all the seeds from the results of :func:`jobs`, in seed order."""
    frames = [r for r in results if len(r)]
    table = pd.concat(frames, ignore_index=True) if frames else results[0]
    return MakeOdds(variant, tuple(range(seed, seed + hands)), limit, table)


def make_odds(variant: Variant, hands: int, seed: int, limit: int, workers: int = 1) -> MakeOdds:
    """:func:`dd_make_odds` in ``workers`` processes: the same hands and answers as one process."""
    return gather(variant, hands, seed, limit, run_jobs(jobs(variant, hands, seed, limit), workers))


def _outer(made: int, n: int, low: bool) -> float:
    iv = wilson(made, n)
    return iv.lo if low else iv.hi


def by_bid_table(odds: Sequence[MakeOdds]) -> pd.DataFrame:
    """One row per system and bid made (:data:`BY_BID_COLUMNS`): hands, the heuristic's make rate with
    its interval, the double-dummy range (``dd_low`` to ``dd_high``) with the Wilson lower bound of its
    lower end and upper bound of its upper end, and the solves that gave up."""
    rows = []
    for o in odds:
        t = o.each_bid()
        made = (t["dd_low"] * t["hands"]).round().astype(int)
        t.insert(0, "variant", o.variant.id)
        t["dd_low_lo"] = [_outer(m, n, True) for m, n in zip(made, t["hands"])]
        t["dd_high_hi"] = [_outer(m + g, n, False) for m, g, n in zip(made, t["gave_up"], t["hands"])]
        rows.append(t)
    return pd.concat(rows, ignore_index=True)[list(BY_BID_COLUMNS)] if rows else pd.DataFrame(columns=BY_BID_COLUMNS)


def overall_table(odds: Sequence[MakeOdds]) -> pd.DataFrame:
    """One row per system: the same columns as :func:`by_bid_table` over all its hands (``bid`` is the
    mean bid), plus the rate's estimate (``dd``, unsolved hands half made; its interval runs from
    ``dd_low_lo`` to ``dd_high_hi``), the unsolved hands' ``band``, the rate's 95% ``half_width`` and
    whether the band is at most a third of it (``settled``), ``seeds`` tried, the first pass's ``limit``,
    the trick starts searched (``nodes``) and the ``passes``."""
    rows = []
    for o in odds:
        a = o.overall()
        n, made, gave = a["hands"], round(a["dd_low"] * a["hands"]), a["gave_up"]
        rows.append(
            {
                "variant": o.variant.id,
                "bid": float(o.hands["bid"].mean()),
                "hands": n,
                "heuristic": a["heuristic"].estimate,
                "heuristic_lo": a["heuristic"].lo,
                "heuristic_hi": a["heuristic"].hi,
                "dd_low": a["dd_low"],
                "dd_low_lo": _outer(made, n, True),
                "dd_high": a["dd_high"],
                "dd_high_hi": _outer(made + gave, n, False),
                "gave_up": gave,
                "dd": a["dd"].estimate,
                "band": a["band"],
                "half_width": a["half_width"],
                "settled": a["settled"],
                "seeds": len(o.seeds),
                "limit": o.limit,
                "nodes": o.nodes,
                "passes": len(o.runs),
            }
        )
    return pd.DataFrame(rows)


def plot_make_by_bid(table: pd.DataFrame, count: str = "", min_hands: int = MIN_CHART_HANDS) -> Figure:
    """One panel per system, one column per bid made on ``min_hands`` hands or more (legal bids only,
    in order, labelled by the bid): the heuristic's make rate (dots with 95% intervals) and the
    perfect-play rate on the same hands as a bar over that bid alone, from the unsolved hands counted
    lost to counted made (a line where every hand was solved). The panel's title counts the hands
    drawn out of the system's hands in the table."""
    variants = list(dict.fromkeys(table["variant"]))
    fig, axes = style.panels(len(variants))
    for ax, vid in zip(axes, variants):
        every = table[table["variant"] == vid]
        t = every[every["hands"] >= min_hands].sort_values("bid")
        x = np.arange(len(t))
        low, high = 100 * t["dd_low"].to_numpy(), 100 * t["dd_high"].to_numpy()
        ax.bar(
            x,
            np.maximum(high - low, 0.8),
            bottom=np.where(high - low < 0.8, low - 0.4, low),
            width=0.7,
            color=style.PALETTE[1],
            alpha=0.45,
            linewidth=0,
            label="perfect play, both sides (bar: unsolved hands\ncounted lost … counted made)",
        )
        err = [100 * (t["heuristic"] - t["heuristic_lo"]), 100 * (t["heuristic_hi"] - t["heuristic"])]
        ax.errorbar(
            x,
            100 * t["heuristic"],
            yerr=err,
            fmt="o",
            ms=4,
            capsize=2,
            color=style.PALETTE[0],
            label="the heuristic's own play (95% interval)",
        )
        # every column labelled: the bids drawn are not evenly spaced (a bid with too few hands is left out)
        ax.set_xticks(
            x, [f"{b:,}" for b in t["bid"]], fontsize=7 if len(t) <= 14 else 6, rotation=0 if len(t) <= 14 else 90
        )
        ax.set_xlim(-0.6, max(len(t), 1) - 0.4)
        ax.grid(axis="x", visible=False)
        ax.set_title(f"{vid}: {int(t['hands'].sum()):,} of {int(every['hands'].sum()):,} hands", fontsize=10)
        ax.set_xlabel(f"bid (points; bids made on {min_hands}+ hands)")
        ax.set_ylim(0, 100)
    axes[0].set_ylabel("contracts made (%)")
    axes[0].legend(loc="lower left", fontsize=7.5)
    fig.suptitle(f"Contracts made by bid: the heuristic's play against perfect play on the same hands\n{count}")
    return fig


def display_overall(overall: pd.DataFrame) -> str:
    rows = [
        {
            "system": r.variant,
            "hands": f"{r.hands:,}",
            "made by the heuristic's play": fmt.pct(r.heuristic, r.heuristic_lo, r.heuristic_hi),
            "made with perfect play": fmt.pct(r.dd, r.dd_low_lo, r.dd_high_hi),
            "hands unsolved (band)": f"{r.gave_up:,} ({100 * r.band:.1f} points of a hundred)",
        }
        for r in overall.itertuples()
    ]
    return fmt.markdown_table(rows)


def display_by_bid(table: pd.DataFrame, min_hands: int = MIN_CHART_HANDS) -> str:
    rows = [
        {
            "system": r.variant,
            "bid": f"{r.bid:,}",
            "hands": f"{r.hands:,}",
            "heuristic": fmt.pct(r.heuristic, r.heuristic_lo, r.heuristic_hi),
            "perfect play": _range(r.dd_low, r.dd_high),
            "unsolved": f"{r.gave_up:,}",
        }
        for r in table.itertuples()
        if r.hands >= min_hands
    ]
    return fmt.markdown_table(rows) or f"No bid was made on {min_hands} hands or more at this size."


def _gave_up(n: int) -> str:
    return f"{n:,} hand{'' if n == 1 else 's'} unsolved"


def _span(lo: float, hi: float) -> str:
    """Points of a hundred from ``lo`` to ``hi`` (shares), one number where they round alike."""
    a, b = f"{100 * lo:.0f}", f"{100 * hi:.0f}"
    return a if a == b else f"{a} to {b}"


def _range(lo: float, hi: float) -> str:
    a, b = fmt.pct(lo, decimals=0), fmt.pct(hi, decimals=0)
    return a if a == b else f"{a} to {b}"


def section(odds: Sequence[MakeOdds], sizes: StrongSizes, seed: int) -> Section:
    """ "Double-dummy make odds by bid": the curve, the overall rates and the per-bid table."""
    table, overall = by_bid_table(odds), overall_table(odds)
    count = (
        f"first hands of seeds {seed}–{seed + sizes.dd_hands - 1}, heuristic bidding, searches limited to "
        f"{sizes.limit:,} positions"
    )
    lines = []
    for r in overall.itertuples():
        gap_lo, gap_hi = r.dd_low - r.heuristic, r.dd_high - r.heuristic
        if gap_lo > 0:
            verdict = f"perfect play makes more contracts: {_span(gap_lo, gap_hi)} more in a hundred"
        elif gap_hi < 0:
            verdict = f"perfect play makes fewer: {_span(-gap_hi, -gap_lo)} fewer in a hundred"
        else:
            verdict = "the range holds the heuristic's rate, so the unsolved hands leave the comparison open"
        lines.append(
            f"* **{r.variant}**: {r.hands:,} contracts played out; the heuristic's own play made "
            f"{fmt.pct(r.heuristic, r.heuristic_lo, r.heuristic_hi)}, perfect play "
            f"{fmt.pct(r.dd, r.dd_low_lo, r.dd_high_hi)} ({_gave_up(r.gave_up)}, a band of "
            f"{100 * r.band:.1f} points of a hundred against a 95% half-width of {100 * r.half_width:.1f}): {verdict}."
        )
    text = (
        "For each contract the heuristic bid and played out, could the bidding side have made it with every "
        "hand face up and both sides playing perfectly? Both sides' play changes, so this is not the bidder's "
        "gain alone: perfect defence sets contracts the heuristic's defence lets through. A search still "
        f"unfinished after {sizes.limit:,} positions gives up, and only those hands are searched again with "
        "ten times as many, and so on, until the hands still unsolved leave a band (from all lost to all "
        "made) at most a third of the rate's 95% half-width, or the budget is spent; the rate's interval "
        "holds every way the unsolved hands could go.\n\n" + "\n".join(lines) + "\n\n"
        f"The chart shows bids made on at least {MIN_CHART_HANDS} hands; intervals on the heuristic's rate are "
        "95% (Wilson). Where the bar lies above the dot, perfect play on both sides makes the contract more "
        "often than the heuristic does; a tall bar is the search giving up on some hands, not uncertainty "
        "about play."
    )
    return Section(
        "Contracts made with perfect play, by bid",
        text,
        tables={"dd_make_overall": overall, "dd_make_by_bid": table},
        figures={"dd_make_by_bid": plot_make_by_bid(table, count)},
        display={"dd_make_overall": display_overall(overall), "dd_make_by_bid": display_by_bid(table)},
    )
