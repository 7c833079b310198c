"""What partner is worth to the bidder: the meld he adds, the tricks the side takes together, and
what the pass of cards adds, measured by playing the same deals with and without the pass.

Points are on the system's own scale (four-hand-150 deals 25 trick points a hand, partnership-auction
250). Heuristic players at every seat, at the system's tuned bidding margin. Conventions:

* **Partner's meld** is the bidding side's meld after the exchange minus the bidder's own meld after
  the exchange, over hands with a bidder whose meld was recorded (a hand lost for want of a trump
  marriage records none). Tricks are recorded per side, not per player, so the side's trick points
  (over played hands) are the bidder's and partner's together.
* **What the pass adds** is the paired difference, with the pass minus without it
  (``exchange.pass_cards=0``), over the same deals (:func:`simcore.answers.compare.compare`, common random
  numbers). It is the whole effect of the rule at this table: the heuristic also values a hand higher
  when partner will pass to it, so the bids (and sometimes the bidder) change with the pass; the
  bidding side is whichever side won the auction in each version. Systems without a pass
  (``exchange.pass_cards = 0``) or without partners (``teams.kind = "bidder_alone"``) skip it: their
  rows hold NaN and a note.
* Means carry normal 95% intervals (hands are independent deals); the make rate is a share of hands.
"""

from __future__ import annotations

import math
from types import MappingProxyType

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.section import Section, Sizes
from simcore.answers.compare import compare
from simcore.answers.simulate import hand_records
from simcore.kernels import hand_record as h
from simcore.kernels.policies import parse_policies
from simcore.run.stats import Z95
from simcore.variants import Variant, require_auction

#: Rows of the partner part: (measure, how it is computed from a record), all in points.
HOLDING_MEASURES = (
    ("bidder's meld as dealt", lambda r: r[:, h.F_BIDDER_MELD]),
    ("bidder's meld after the exchange", lambda r: r[:, h.F_BIDDER_MELD_AFTER]),
    ("exchange's gain to the bidder's meld", lambda r: r[:, h.F_BIDDER_MELD_AFTER] - r[:, h.F_BIDDER_MELD]),
    ("partner's meld (side meld − bidder's)", lambda r: r[:, h.F_SIDE_MELD] - r[:, h.F_BIDDER_MELD_AFTER]),
    ("bidding side's meld", lambda r: r[:, h.F_SIDE_MELD]),
)
#: Rows of the pass part: (measure in ``simcore.answers.compare.HAND_MEASURES``, unit).
PASS_MEASURES = (
    ("bidding side meld", "points"),
    ("bidding side trick points", "points"),
    ("bid", "points"),
    ("bidding side score", "points"),
    ("bidding side makes", "share"),
)
COLUMNS = ["part", "measure", "unit", "n", "mean", "lo", "hi", "without_pass", "with_pass", "note"]


def has_pass(variant: Variant) -> bool:
    """True when the bidder's partner passes cards to him (a pass and partners)."""
    return variant.get("exchange.pass_cards") > 0 and variant.get("teams.kind") != "bidder_alone"


def no_pass_variant(variant: Variant) -> Variant:
    """The same rules with ``exchange.pass_cards=0``; its id adds the override as ``--set`` would
    (``four-hand-150+exchange.pass_cards=0``), and it keeps the rules' bidding margin."""
    values = dict(variant.values)
    values["exchange.pass_cards"] = 0
    values["id"] = variant.id + ("," if "+" in variant.id else "+") + "exchange.pass_cards=0"
    return Variant(where=variant.where, values=MappingProxyType(values))


def _mean_row(part: str, measure: str, values: np.ndarray, unit: str = "points", note: str = "") -> dict:
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    mean = float(x.mean()) if n else math.nan
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return {
        "part": part,
        "measure": measure,
        "unit": unit,
        "n": n,
        "mean": mean,
        "lo": mean - half,
        "hi": mean + half,
        "without_pass": math.nan,
        "with_pass": math.nan,
        "note": note,
    }


def partner_contribution(variant: Variant, hands: int, seed: int = 1) -> pd.DataFrame:
    """What the bidder's partner adds, from ``hands`` full hands, and what the pass adds, from
    ``hands`` paired hands with and without it.

    One row per measure; columns: ``part`` ("holding": means per hand with a bidder; "pass": paired
    differences with − without the pass), ``measure``, ``unit`` ("points" on the system's scale, or
    "share" of hands for the make rate), ``n`` (hands), ``mean`` with its 95% interval ``lo``, ``hi``,
    ``without_pass`` and ``with_pass`` (the two versions' means, pass rows only) and ``note`` (why a
    row is NaN). Holding rows: the bidder's meld as dealt and after the exchange, the exchange's gain
    to it (after − as dealt: the pass, net of the cards he returns, or the widow), partner's meld
    (side meld − bidder's meld after the exchange), the side's meld, the side's trick points (played
    hands; bidder and partner together). Pass rows: bidding side meld, bidding side trick points, bid,
    bidding side score, bidding side makes.
    """
    require_auction(variant, "there is no bidder or bidding side")
    records = hand_records(variant, hands, seed, parse_policies("heuristic", variant.players))
    rec = records[(records[:, h.F_BIDDER] >= 0) & (records[:, h.F_TRUMP] >= 0)]  # a trump was named
    alone = variant.get("teams.kind") == "bidder_alone"
    rows = []
    for name, f in HOLDING_MEASURES:
        if alone and "partner" in name:
            rows.append(_mean_row("holding", name, np.array([]), note="no partner: the bidder plays alone"))
        else:
            rows.append(_mean_row("holding", name, f(rec)))
    played = rec[rec[:, h.F_OUTCOME] == h.PLAYED]
    rows.append(
        _mean_row(
            "holding",
            "bidding side's trick points",
            played[:, h.F_SIDE_TRICKS],
            note="played hands; bidder and partner together" if not alone else "played hands",
        )
    )
    if has_pass(variant):
        result = compare(no_pass_variant(variant), variant, hands=hands, seed=seed)
        for name, unit in PASS_MEASURES:
            r = result.row(name)
            rows.append(
                {
                    "part": "pass",
                    "measure": name,
                    "unit": unit,
                    "n": int(r["n"]),
                    "mean": r["diff"],
                    "lo": r["diff_lo"],
                    "hi": r["diff_hi"],
                    "without_pass": r["a"],
                    "with_pass": r["b"],
                    "note": "with − without the pass, same deals",
                }
            )
    else:
        why = "no partner to pass" if alone else f"partners pass no cards in {variant.id}"
        for name, unit in PASS_MEASURES:
            rows.append(
                {
                    "part": "pass",
                    "measure": name,
                    "unit": unit,
                    "n": 0,
                    "mean": math.nan,
                    "lo": math.nan,
                    "hi": math.nan,
                    "without_pass": math.nan,
                    "with_pass": math.nan,
                    "note": why,
                }
            )
    out = pd.DataFrame(rows, columns=COLUMNS)
    out.attrs.update(
        variant=variant.id,
        hands=hands,
        seed=seed,
        trick_total=variant.trick_total,
        pass_cards=int(variant.get("exchange.pass_cards")),
    )
    return out


def plot_partner(table: pd.DataFrame, count: str = "") -> Figure:
    """Bars with 95% error bars: left, what the bidding side holds per hand (points); right, what
    the pass adds in points (with − without, same deals) and, below, what it adds to the make rate
    (percentage points). A system without a pass has the left panel only, its title saying why."""
    passed = table[table["part"] == "pass"]
    measured = bool(passed["mean"].notna().any())
    fig, first = style.new_figure(size=(11.0, 5.2) if measured else (6.5, 5.2))
    first.remove()
    if measured:
        grid = fig.add_gridspec(2, 2, height_ratios=[4, 1.4], width_ratios=[1, 1])
        axes = [fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])]
    else:
        axes = [fig.add_subplot(1, 1, 1)]
    variant = table.attrs.get("variant", "")

    def bars(ax, part: pd.DataFrame, scale: float = 1.0, colour: str = style.PALETTE[0]) -> None:
        ok = part[part["mean"].notna()]
        y = np.arange(len(ok))
        err = np.vstack([ok["mean"] - ok["lo"], ok["hi"] - ok["mean"]]) * scale
        ax.barh(y, ok["mean"] * scale, xerr=err, color=colour, capsize=4, height=0.6)
        ax.margins(x=0.18)
        ax.set_yticks(y, [m.replace(" (", "\n(") for m in ok["measure"]], fontsize=8)
        ax.invert_yaxis()
        ax.axvline(0, color="black", lw=0.8)
        for yi, v in zip(y, ok["mean"] * scale):
            ax.annotate(
                f"{v:.3g}",
                (v, yi),
                xytext=(4 if v >= 0 else -4, 8),
                textcoords="offset points",
                ha="left" if v >= 0 else "right",
                fontsize=8,
            )

    holding = table[table["part"] == "holding"]
    bars(axes[0], holding)
    axes[0].set_xlabel("points per hand (mean, 95% interval)")
    axes[0].set_title("What the bidding side holds", fontsize=10)
    points, share = passed[passed["unit"] == "points"], passed[passed["unit"] == "share"]
    if measured:
        axes[1].set_title("What the pass adds", fontsize=10)
        bars(axes[1], points, colour=style.PALETTE[1])
        bars(axes[2], share, scale=100.0, colour=style.PALETTE[2])
        axes[1].set_xlabel("points per hand, with − without the pass")
        axes[2].set_xlabel("make rate: percentage points, with − without the pass")
        heading = "Partner's contribution and what the pass is worth (95% intervals)"
    else:
        note = passed["note"].iloc[0] if len(passed) else "no pass"
        heading = f"Partner's contribution (95% intervals)\n{note}: the pass is not valued"
    n = int(table.attrs.get("hands", 0))
    fig.suptitle(style.title(heading, variant, count or f"{n:,} hands"), fontsize=11)
    fig.tight_layout()
    return fig


def _num(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def _iv(row: pd.Series, scale: float = 1.0) -> str:
    """ "9.90 [9.73–10.07]": the mean with its 95% interval where it shows at the printed digits."""
    return fmt.value(scale * row["mean"], scale * row["lo"], scale * row["hi"])


def section(variant: Variant, sizes: Sizes, seed: int = 1) -> Section:
    """ "What partner's pass is worth": partner's meld and the side's tricks, and the paired effect of
    the pass, from ``sizes.played`` hands (and as many paired hands)."""
    table = partner_contribution(variant, sizes.played, seed)
    count = f"{sizes.played:,} hands, seed {seed}"
    rows = table.set_index("measure")
    tt = variant.trick_total
    own, after = rows.loc["bidder's meld as dealt"], rows.loc["bidder's meld after the exchange"]
    gain = rows.loc["exchange's gain to the bidder's meld"]
    side, tricks = rows.loc["bidding side's meld"], rows.loc["bidding side's trick points"]
    partner = rows.loc["partner's meld (side meld − bidder's)"]
    k = int(variant.get("exchange.pass_cards"))
    text = (
        f"In {variant.id} ({sizes.played:,} hands, seed {seed}; points on a scale of {tt} trick points "
        f"a hand) the bidder holds {_iv(own)} points of meld as dealt. "
    )
    if math.isnan(partner["mean"]):
        text += (
            f"After the widow he holds {_iv(after)}. He plays alone, so the side's meld is his own and "
            f"he takes {_iv(tricks)} of the {tt} trick points when the hand is played. There is no "
            f"partner and so no pass to value."
        )
    else:
        if k > 0:
            text += (
                f"Partner's help shows twice. His pass of {k} cards (net of the {k} the bidder returns) "
                f"lifts the bidder's meld by {_iv(gain)} points, to {_iv(after)}; and he melds "
                f"{_iv(partner)} more himself. "
            )
        elif gain["mean"] != 0:
            text += (
                f"The exchange lifts it by {_iv(gain)} points, to {_iv(after)}; partner melds {_iv(partner)} himself. "
            )
        else:
            text += f"Partner melds {_iv(partner)} points himself. "
        text += (
            f"The side melds {_iv(side)} in all, {_num(side['mean'] - own['mean'])} points more than the "
            f"bidder's hand as dealt, and the two together take {_iv(tricks)} of the {tt} trick points "
            f"when the hand is played. "
        )
        pm = rows.loc["bidding side meld"]
        if math.isnan(pm["mean"]):
            text += f"There is no pass between partners in {variant.id}, so the pass is not valued here."
        else:
            score, made, bid = rows.loc["bidding side score"], rows.loc["bidding side makes"], rows.loc["bid"]
            verdict = "raises" if made["lo"] > 0 else "lowers" if made["hi"] < 0 else "does not detectably change"
            text += (
                f"\n\n**What partner's pass is worth:** on the same {int(pm['n']):,} deals played with "
                f"the pass of {k} cards and without it, the pass adds {_iv(pm)} points to the bidding "
                f"side's meld ({_num(pm['without_pass'])} without, {_num(pm['with_pass'])} with) and "
                f"{_iv(score)} points to its score per hand ({_num(score['without_pass'])} without, "
                f"{_num(score['with_pass'])} with). Counting on the pass, the bidders bid {_iv(bid)} "
                f"points higher, and the pass {verdict} the make rate: {_iv(made, 100)} percentage "
                f"points ({100 * made['without_pass']:.0f}% without, {100 * made['with_pass']:.0f}% "
                f"with). Differences are with − without the pass, with 95% intervals from the paired "
                f"deals. The auction changes with the rule, and both versions bid as boldly as pays "
                f"best in the system with its pass, so these are the rule's whole effect at a table of "
                f"these simulated players, not the value of the pass to players who re-tune their "
                f"bidding without it."
            )
    return Section(
        "What partner's pass is worth",
        text,
        {"partner_contribution": table},
        {"partner": plot_partner(table, count=count)},
        {"partner_contribution": display_table(table)},
    )


def display_table(table: pd.DataFrame) -> str:
    """The partner table as a person reads it; a row that does not apply says why."""
    rows = []
    for r in table.itertuples(index=False):
        share = r.unit == "share"
        if fmt.missing(r.mean):
            value = f"does not apply: {r.note}"
        elif share:
            value = fmt.pp(r.mean, r.lo, r.hi)
        else:
            value = (
                fmt.value(r.mean, r.lo, r.hi, "points")
                if r.part == "holding"
                else fmt.signed(r.mean, r.lo, r.hi, " points")
            )
        if r.part == "pass" and not fmt.missing(r.mean):
            fmt_side = (lambda x: fmt.pct(x, decimals=1)) if share else (lambda x: fmt.number(x, 3))
            value += f" ({fmt_side(r.without_pass)} without the pass, {fmt_side(r.with_pass)} with)"
        rows.append(
            {
                "": "per hand" if r.part == "holding" else "the pass adds (with − without)",
                "measure": r.measure,
                "value [95%]": value,
            }
        )
    return fmt.markdown_table(rows)
