"""The bidding card under stronger card play (the strong-play page's fourth measurement): the report's
"bid up to a + b × your meld" rule refitted on deals whose card play is the sampling
player's at every seat, beside the rule fitted on the same deals played by the heuristic throughout.

Deal i is :func:`simcore.state.new_hand` (seed, hand=i), the same cards for both. The bidding, passing
and meld are the heuristic's in both (the sampling player bids as the heuristic), so the two record sets
differ only by card play (the sampling player's: playouts, then solves in the last ``solve_from``
tricks). The rule is
:func:`analyses.bid_strategy.bid_rule_of_thumb` on each record set; the intervals are percentile
bootstrap intervals over deals (the same resampled deals for both rules, so the difference's interval
is paired). Points are on the variant's scale.

The strong-play page (``pinochle report --strong-play``, :mod:`analyses.strong_report`) takes its
records from :mod:`analyses.strong_deals`, the duel's deals (the same records as :func:`played_records`,
shared with the duel), and shows :func:`card_table`, :func:`total_shift_table` and
:func:`plot_fifty_lines` through :func:`section`. Run alone as ``python -m analyses.strong_play VARIANT
DEALS [SEED]``; it prints a markdown table.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.bid_strategy import bid_ladder, bid_rule_of_thumb, highest_bid_table, side_total
from analyses.section import Section, StrongSizes
from analyses.strong_deals import StrongDeals
from simcore.kernels import hand_record as h
from simcore.run.stats import values_interval, wilson
from simcore.state import new_hand
from simcore.state.players import kernel_policy
from simcore.state.sampler import SamplingPlayer
from simcore.variants import Variant, load_variant


def played_records(variant: Variant, deals: int, seed: int, policy) -> np.ndarray:
    """int64[deals, N_FIELDS]: deal i (new_hand(seed, hand=i)) played with ``policy`` at every seat."""
    out = np.zeros((deals, h.N_FIELDS), dtype=np.int64)
    for i in range(deals):
        state = new_hand(variant, seed, hand=i)
        while not state.is_terminal():
            state.apply(policy(state))
        out[i] = [state.record()[f] for f in h.FIELDS]
    return out


def _percentiles(x: np.ndarray) -> list[float]:
    """The 2.5th and 97.5th percentiles; NaN when no resample was fitted."""
    return [float(np.percentile(x, q)) for q in (2.5, 97.5)] if len(x) else [math.nan, math.nan]


def rules_side_by_side(
    variant: Variant, strong: np.ndarray, heuristic: np.ndarray, min_hands: int = 50, boot: int = 200, seed: int = 0
) -> dict:
    """Both rules of thumb and their difference, each ``a`` and ``b`` with a 95% bootstrap interval."""
    rng = np.random.default_rng(seed)
    fits = {
        "strong": bid_rule_of_thumb(strong, variant, min_hands=min_hands),
        "heuristic": bid_rule_of_thumb(heuristic, variant, min_hands=min_hands),
    }
    draws = {k: [] for k in ("strong", "heuristic", "difference")}
    for _ in range(boot):
        pick = rng.integers(0, len(strong), size=len(strong))
        try:
            s, hh = (bid_rule_of_thumb(r[pick], variant, min_hands=min_hands) for r in (strong, heuristic))
        except ValueError:  # a resample with too few hands in a bin: not fitted
            continue
        draws["strong"].append((s["a"], s["b"]))
        draws["heuristic"].append((hh["a"], hh["b"]))
        draws["difference"].append((s["a"] - hh["a"], s["b"] - hh["b"]))
    out = {"variant": variant.id, "deals": len(strong), "resamples": len(draws["strong"])}
    point = {
        "strong": fits["strong"],
        "heuristic": fits["heuristic"],
        "difference": {
            "a": fits["strong"]["a"] - fits["heuristic"]["a"],
            "b": fits["strong"]["b"] - fits["heuristic"]["b"],
        },
    }
    for name, rows in draws.items():
        arr = np.array(rows, dtype=np.float64).reshape(len(rows), 2)

        out[name] = {k: {"estimate": point[name][k], "ci95": _percentiles(arr[:, j])} for j, k in enumerate(("a", "b"))}
    made = {
        k: float((r[:, h.F_MADE] == 1).sum() / max(1, (r[:, h.F_BIDDER] >= 0).sum()))
        for k, r in (("strong", strong), ("heuristic", heuristic))
    }
    out["made"] = made
    return out


def markdown(result: dict) -> str:
    def cell(x: dict) -> str:
        lo, hi = x["ci95"]
        return f"{x['estimate']:.1f} [{lo:.1f}, {hi:.1f}]"

    lines = [
        f"{result['variant']}, {result['deals']} deals, {result['resamples']} bootstrap resamples:",
        "",
        "| card play | a (points) | b (per point of meld) | made |",
        "|---|---|---|---|",
    ]
    for name, label in (("heuristic", "heuristic throughout"), ("strong", "sampling player's card play")):
        r = result[name]
        lines.append(
            f"| {label} | {cell(r['a'])} | {r['b']['estimate']:.2f} [{r['b']['ci95'][0]:.2f}, "
            f"{r['b']['ci95'][1]:.2f}] | {result['made'][name]:.3f} |"
        )
    d = result["difference"]
    lines.append(
        f"| difference | {cell(d['a'])} | {d['b']['estimate']:.2f} [{d['b']['ci95'][0]:.2f}, "
        f"{d['b']['ci95'][1]:.2f}] | |"
    )
    return "\n".join(lines)


#: Columns of :func:`card_table`: one row per system and card play ("heuristic", "sampling",
#: "difference" = sampling − heuristic).
CARD_COLUMNS = (
    "variant",
    "play",
    "deals",
    "a",
    "a_lo",
    "a_hi",
    "b",
    "b_lo",
    "b_hi",
    "made",
    "made_lo",
    "made_hi",
    "resamples",
    "fit_min_hands",
)
#: Columns of :func:`total_shift_table`.
SHIFT_COLUMNS = (
    "variant",
    "hands",
    "heuristic",
    "heuristic_lo",
    "heuristic_hi",
    "sampling",
    "sampling_lo",
    "sampling_hi",
    "difference",
    "difference_lo",
    "difference_hi",
)


def _made(records: np.ndarray) -> np.ndarray:
    """1.0 for a contract made, 0.0 for one not made, per hand with a bidder."""
    return (records[records[:, h.F_BIDDER] >= 0, h.F_MADE] == 1).astype(np.float64)


def card_table(deals: StrongDeals, min_hands: int, boot: int = 200, seed: int = 0) -> pd.DataFrame:
    """The bidding rule "bid up to a + b × meld" fitted on the deals as the heuristic played them and
    as the sampling player played them, and the difference (:func:`rules_side_by_side`: paired
    percentile bootstrap intervals), with the share of contracts made (Wilson 95%; the difference's
    interval is paired by deal). ``a`` is NaN where too few meld bins hold ``min_hands`` hands."""
    v = deals.variant
    strong, heur = deals.records(True), deals.records(False)
    try:
        got = rules_side_by_side(v, strong, heur, min_hands=min_hands, boot=boot, seed=seed)
    except ValueError:  # too few hands in enough meld bins to fit a line
        got = None
    made = {"sampling": _made(strong), "heuristic": _made(heur)}
    rows = []
    for play, key in (("heuristic", "heuristic"), ("sampling", "strong"), ("difference", "difference")):
        if play == "difference":
            iv = values_interval(made["sampling"] - made["heuristic"])
        else:
            iv = wilson(int(made[play].sum()), len(made[play]))
        row = {
            "variant": v.id,
            "play": play,
            "deals": len(strong),
            "made": iv.estimate,
            "made_lo": iv.lo,
            "made_hi": iv.hi,
            "resamples": got["resamples"] if got else 0,
            "fit_min_hands": min_hands,
        }
        for k in ("a", "b"):
            fit = got[key][k] if got else {"estimate": math.nan, "ci95": [math.nan, math.nan]}
            row.update({k: fit["estimate"], f"{k}_lo": fit["ci95"][0], f"{k}_hi": fit["ci95"][1]})
        rows.append(row)
    return pd.DataFrame(rows, columns=list(CARD_COLUMNS))


def total_shift_table(plays: Sequence[StrongDeals]) -> pd.DataFrame:
    """Per system, the bidding side's total towards its bid (kept meld + trick points,
    :func:`analyses.bid_strategy.side_total`) a played hand, with the heuristic and with the sampling
    player at every seat, and the paired difference a deal: the shift the rule's 50% line follows,
    measured without fitting a line. Normal 95% intervals over deals."""
    rows = []
    for p in plays:
        strong, heur = p.records(True), p.records(False)
        played = (heur[:, h.F_OUTCOME] == h.PLAYED) & (heur[:, h.F_BIDDER] >= 0)
        s, t = (side_total(r[played], p.variant).astype(np.float64) for r in (strong, heur))
        row = {"variant": p.variant.id, "hands": int(played.sum())}
        for name, x in (("heuristic", t), ("sampling", s), ("difference", s - t)):
            iv = values_interval(x)
            row.update({name: iv.estimate, f"{name}_lo": iv.lo, f"{name}_hi": iv.hi})
        rows.append(row)
    return pd.DataFrame(rows, columns=list(SHIFT_COLUMNS))


#: Steps tried for the ticks of an axis of bids, smallest first.
TICK_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000)


def legal_ticks(ax, variant: Variant) -> np.ndarray:
    """Ticks for a y axis of bids: legal bids only, the multiples of the round step that gives the most
    ticks (at most eight, no two closer than a tenth of the axis); else every few legal bids in view."""
    lo, hi = ax.get_ylim()
    ladder = bid_ladder(variant, int(hi))
    ladder = ladder[ladder >= lo]
    best = np.array([], dtype=ladder.dtype)
    for step in TICK_STEPS:
        ticks = ladder[ladder % step == 0]
        if len(best) < len(ticks) <= 8 and np.diff(ticks).min(initial=hi - lo) >= (hi - lo) / 10:
            best = ticks
    return best if len(best) >= 2 else ladder[:: max(1, math.ceil(len(ladder) / 7))]


def plot_fifty_lines(plays: Sequence[StrongDeals], cards: pd.DataFrame, min_hands: int, count: str = "") -> Figure:
    """One panel per system: the highest bid made half the time by the bidder's meld as dealt (meld bins
    of at least ``min_hands`` hands), with the heuristic's card play and with the sampling player's,
    and each fitted rule as a line. Points on each system's own scale."""
    fig, axes = style.panels(len(plays))
    # a filled dot under a hollow diamond: where both plays give the same bid, both stay visible
    looks = {False: {"marker": "o", "ms": 5}, True: {"marker": "D", "ms": 8, "mfc": "none", "mew": 1.4}}
    for ax, p in zip(axes, plays):
        for k, (play, strong) in enumerate((("heuristic", False), ("sampling", True))):
            table = highest_bid_table(p.records(strong), p.variant, odds=(0.5,), min_hands=min_hands)
            if not len(table):
                continue
            colour = style.PALETTE[k]
            ax.plot(
                table["meld_mean"],
                table["line_50"],
                ls="none",
                color=colour,
                **looks[strong],
                label=f"{'heuristic' if not strong else 'sampling player'}: 50% bid",
            )
            fit = cards[(cards["variant"] == p.variant.id) & (cards["play"] == play)].iloc[0]
            if not math.isnan(fit["a"]):
                x = np.array([table["meld_mean"].min(), table["meld_mean"].max()])
                ax.plot(
                    x,
                    fit["a"] + fit["b"] * x,
                    "-",
                    color=colour,
                    alpha=0.8,
                    label=f"{fmt.number(fit['a'])} + {fit['b']:.2f} × meld",
                )
        ax.set_title(f"{p.variant.id} ({len(p.plays):,} deals)")
        ax.set_xlabel("bidder's meld as dealt (points)")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper left", fontsize=8)
            ax.set_yticks(legal_ticks(ax, p.variant))
        else:
            ax.text(0.5, 0.5, "too few hands in a meld bin", ha="center", transform=ax.transAxes)
    axes[0].set_ylabel("highest bid made half the time (points)")
    fig.suptitle(f"The bidding rule under the heuristic's card play and under the sampling player's\n{count}")
    return fig


def _fit(x: float, lo: float, hi: float, signed: bool = False, digits: int = 3) -> str:
    """A fitted coefficient with its interval; "12.3 [−4.5 to 30.1]" where the interval reaches below 0
    (an en dash after a minus sign would read as a range of negatives)."""
    if math.isnan(x):
        return "not fitted"
    if signed:
        return fmt.signed(x, lo, hi)
    if lo < 0:
        return f"{fmt.number(x, digits)} [{fmt.number(lo, digits).replace('-', '−')} to {fmt.number(hi, digits)}]"
    return fmt.value(x, lo, hi, digits=digits)


def _card_rows(cards: pd.DataFrame) -> list[dict]:
    names = {
        "heuristic": "heuristic throughout",
        "sampling": "sampling player's card play",
        "difference": "difference",
    }
    return [
        {
            "system": r.variant,
            "card play": names[r.play],
            "a (points)": _fit(r.a, r.a_lo, r.a_hi, r.play == "difference"),
            "b (per point of meld)": _fit(r.b, r.b_lo, r.b_hi, r.play == "difference", digits=2),
            "contracts made": fmt.pp(r.made, r.made_lo, r.made_hi)
            if r.play == "difference"
            else fmt.pct(r.made, r.made_lo, r.made_hi),
        }
        for r in cards.itertuples()
    ]


def _shift_rows(shift: pd.DataFrame) -> list[dict]:
    return [
        {
            "system": r.variant,
            "played hands": f"{r.hands:,}",
            "heuristic": fmt.value(r.heuristic, r.heuristic_lo, r.heuristic_hi),
            "sampling player": fmt.value(r.sampling, r.sampling_lo, r.sampling_hi),
            "difference a deal": fmt.signed(r.difference, r.difference_lo, r.difference_hi),
        }
        for r in shift.itertuples()
    ]


def section(plays: Sequence[StrongDeals], sizes: StrongSizes, seed: int) -> Section:
    """ "The bidding card under strong play": the rule refitted on the sampling player's deals beside
    the heuristic's, and the side total's shift a deal."""
    cards = pd.concat([card_table(p, sizes.fit_min_hands, sizes.boot) for p in plays], ignore_index=True)
    shift = total_shift_table(plays)
    count = f"deals 0–{sizes.deals - 1} of seed {seed}, meld bins of at least {sizes.fit_min_hands} hands"
    lines = []
    for p in plays:
        c = cards[cards["variant"] == p.variant.id].set_index("play")
        d, sh = c.loc["difference"], shift[shift["variant"] == p.variant.id].iloc[0]
        step = p.variant.get("auction.step")
        moved = fmt.signed(sh["difference"], sh["difference_lo"], sh["difference_hi"])
        if sh["difference_lo"] > 0:
            total = f"the bidding side's total rises by {moved} points a hand"
        elif sh["difference_hi"] < 0:
            total = f"the bidding side's total falls by {moved} points a hand"
        else:
            total = f"the bidding side's total moves by {moved} points a hand, no shift shown at this size"
        if math.isnan(d["a"]):
            rule = "the rule itself is not fitted at this size (too few meld bins in a row with enough hands)"
        else:
            span = (d["a_hi"] - d["a_lo"]) / step
            rule = (
                f"refitted, bid up to {fmt.number(c.loc['heuristic', 'a'])} + {c.loc['heuristic', 'b']:.2f} × "
                f"meld with the heuristic's play and {fmt.number(c.loc['sampling', 'a'])} + "
                f"{c.loc['sampling', 'b']:.2f} × meld with the sampling player's: a moves by "
                f"{_fit(d['a'], d['a_lo'], d['a_hi'], True)} points and b by "
                f"{_fit(d['b'], d['b_lo'], d['b_hi'], True)}"
                + (
                    f", an interval {span:.0f} bid steps wide, too loose at {len(p.plays):,} deals to place the line"
                    if span > 4
                    else ""
                )
            )
        lines.append(
            f"* **{p.variant.id}**: {total} (a bid step is {step}); {rule}. Contracts made "
            f"{fmt.pp(d['made'], d['made_lo'], d['made_hi'])}."
        )
    text = (
        'The report\'s rule of thumb "bid up to a + b × your meld" (the line through the highest bid made '
        "half the time, by the bidder's meld as dealt) refitted on the card-play match's deals as played with the "
        "sampling player at every seat, beside the same deals as the heuristic played them. The bidding, "
        f"passing and meld are the heuristic's in both, so the two differ by {sizes.card_play} alone, both "
        "sides' at once. The intervals come from refitting on "
        f"{sizes.boot} sets of deals drawn at random from these, with replacement (a bootstrap; the same sets "
        f"for both fits, so the difference's interval is paired); meld rows need {sizes.fit_min_hands} hands "
        "to enter a fit, fewer than the report's card "
        "uses, so these lines are rougher than the card's. The bidding side's total a hand (kept meld + trick "
        "points, whose median in each meld bin the 50% line follows) measures the same shift without fitting "
        "a line, paired by deal, and so far more sharply: it is the figure to read here, and the card's line "
        "moves up by about as much when every player plays the endings this well.\n\n" + "\n".join(lines)
    )
    return Section(
        "The bidding card under strong play",
        text,
        tables={"bid_rule": cards, "side_total": shift},
        figures={"bid_rule": plot_fifty_lines(plays, cards, sizes.fit_min_hands, count)},
        display={
            "bid_rule": fmt.markdown_table(_card_rows(cards)),
            "side_total": fmt.markdown_table(_shift_rows(shift)),
        },
    )


def main(argv: list[str]) -> None:
    variant, deals = load_variant(argv[0]), int(argv[1])
    seed = int(argv[2]) if len(argv) > 2 else 1
    strong = played_records(variant, deals, seed, SamplingPlayer())
    heuristic = played_records(variant, deals, seed, kernel_policy("heuristic"))
    print(markdown(rules_side_by_side(variant, strong, heuristic)))


if __name__ == "__main__":
    main(sys.argv[1:])
