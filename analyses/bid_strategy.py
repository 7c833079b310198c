"""How high to bid: P(the bidding side makes) by what the bidder can see, and the highest bid a hand
supports.

Every number comes from full hands played by heuristic players (``simcore.answers.simulate.hand_records``,
the system's tuned bidding margin at every seat). Points are on the system's own scale (four-hand-150
deals 25 trick points a hand, partnership-auction 250). Conventions:

* **Hands counted.** Every hand with a bidder, played or not: a throw-in or a set without play is a
  bid not made (``made == 1`` counts as made). A hand lost because the bidder held no marriage to
  name trump with records no meld, trump length or aces, so it is left out of every table grouped by
  those fields (the section text gives their number).
* **Binning.** Fields in points (meld, trick points, scores) are binned by :func:`point_bin_width`:
  1/25 of the system's trick total, rounded to a multiple of the meld table's smallest unit (1 point
  in four-hand-150, 10 in partnership-auction, 2 in double-deck, 20 in double-pack). A bin is labelled
  by its lower edge ``x`` and holds the values ``x <= v < x + width``. Counts (trump length, aces) and
  the bid are not binned.
* **Intervals** are Wilson 95% intervals for proportions, normal 95% intervals for means.

The highest bid a hand supports (:func:`highest_bid_table`) is defined without conditioning on the
auction. The heuristic's trump choice, pass and card play do not depend on the bid, so a played hand's
**side total** (the bidding side's meld it keeps plus its trick points) is what it would have taken at
any bid: a bid ``B`` would have been made exactly when the side total is at least ``B`` (the tests
check this against every played hand's outcome). So for the hands whose bidder held meld ``m`` as
dealt (before any pass or widow: what he sees while bidding), P(make ``B``) = P(side total >= ``B``),
whatever was bid. A hand given up before play (thrown in, or set without play) at bid ``b`` counts as
a failure at every bid >= ``b`` (the same rule would give it up again) and is left out at lower bids,
where its outcome is unknown. The hands are those on which the bidder won the auction, so his partner
and opponents are the ones who let him have it: the answer is for a player who wins the contract, at
a table of these heuristic players.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import reduce

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.section import Section, Sizes, TooFewHands
from simcore.answers.simulate import hand_records
from simcore.kernels import hand_record as h
from simcore.kernels.compiled import hand_rules
from simcore.kernels.hand import next_bid
from simcore.kernels.policies import parse_policies
from simcore.run.stats import wilson
from simcore.variants import Variant, require_auction

#: Record fields measured in points (binned by :func:`point_bin_width`).
POINT_FIELDS = (
    "bidder_meld",
    "bidder_meld_after",
    "side_meld",
    "other_meld",
    "side_tricks",
    "other_tricks",
    "side_score",
    "other_score",
)
#: Record fields not recorded when no trump was named (the bidder held no marriage to name it with, or
#: forfeited a compulsory bid unseen).
UNRECORDED_WITHOUT_TRUMP = POINT_FIELDS + ("trump_len", "aces", "trump")
#: Cells, bins and points with fewer hands than this are greyed out or left out of charts and fits.
MIN_HANDS = 50

LABELS = {
    "bidder_meld": "bidder's meld as dealt",
    "bidder_meld_after": "bidder's meld after the pass or widow",
    "side_meld": "bidding side's meld: both partners together, after the pass or widow",
    "trump_len": "bidder's trump length after the pass or widow",
    "aces": "bidder's aces after the pass or widow",
    "bid": "winning bid",
}
#: A second line under an axis label, where the measure is easily taken for another.
LABEL_NOTES = {"side_meld": "not the bidding card's meld, which is your own hand as dealt"}


def meld_unit(variant: Variant) -> int:
    """The smallest unit every meld value is a multiple of (points; 1 or 10 in the shipped systems)."""
    values = [int(x) for x in variant.meld_table.ravel() if x] + [int(x) for x in variant.meld_flags[:3] if x]
    return reduce(math.gcd, values, 0) or 1


def point_bin_width(variant: Variant) -> int:
    """Width of a bin of points (meld, trick points): 1/25 of the trick total, rounded to a multiple of
    :func:`meld_unit` and at least one unit."""
    unit = meld_unit(variant)
    return max(unit, round(variant.trick_total / 25 / unit) * unit)


def bin_width(variant: Variant, field: str) -> int:
    """How a record field is binned: :func:`point_bin_width` for points, 1 (no binning) otherwise."""
    if field not in h.FIELDS:
        raise ValueError(f"{field!r} is not a record field; choose from {', '.join(h.FIELDS)}")
    return point_bin_width(variant) if field in POINT_FIELDS else 1


def bid_ladder(variant: Variant, top: int) -> np.ndarray:
    """int64: every legal bid from the minimum up to ``top`` (the auction's steps)."""
    rules = hand_rules(variant)
    bids, b = [], int(next_bid(0, rules))
    while b <= top:
        bids.append(b)
        b = int(next_bid(b, rules))
    return np.array(bids, dtype=np.int64)


def with_bidder(records: np.ndarray, fields: Sequence[str] = ()) -> np.ndarray:
    """The records of hands with a bidder; without those whose meld, trump length and aces were never
    recorded (no trump named) when ``fields`` uses any of them."""
    keep = records[:, h.F_BIDDER] >= 0
    if any(f in UNRECORDED_WITHOUT_TRUMP for f in fields):
        keep &= records[:, h.F_TRUMP] >= 0
    return records[keep]


def records_for(variant: Variant, hands: int, seed: int) -> np.ndarray:
    """int64[hands, N_FIELDS]: ``hands`` full hands with heuristic players at every seat."""
    require_auction(variant, "there is no bid to choose")
    return hand_records(variant, hands, seed, parse_policies("heuristic", variant.players))


def make_table(records: np.ndarray, variant: Variant, by: Sequence[str] = ("side_meld", "trump_len")) -> pd.DataFrame:
    """P(the bidding side makes its bid) by one or more record fields.

    One row per occupied group: the group fields (a point field holds its bin's lower edge, see
    :func:`point_bin_width`), ``hands`` (hands with a bidder in the group), ``made``, ``p_make`` and
    its Wilson 95% interval ``lo``, ``hi``. ``attrs["bin_widths"]`` gives each field's bin width.
    """
    by = tuple(by)
    widths = {f: bin_width(variant, f) for f in by}
    rec = with_bidder(records, by)
    made = (rec[:, h.F_MADE] == 1).astype(np.int64)
    keys = {f: rec[:, h.FIELDS.index(f)] // widths[f] * widths[f] for f in by}
    frame = pd.DataFrame({**keys, "made": made})
    grouped = frame.groupby(list(by), sort=True)["made"].agg(["size", "sum"]).reset_index()
    rows = []
    for r in grouped.itertuples(index=False):
        n, k = int(r.size), int(r.sum)
        iv = wilson(k, n)
        rows.append(
            {
                **{f: int(getattr(r, f)) for f in by},
                "hands": n,
                "made": k,
                "p_make": iv.estimate,
                "lo": iv.lo,
                "hi": iv.hi,
            }
        )
    out = pd.DataFrame(rows, columns=[*by, "hands", "made", "p_make", "lo", "hi"])
    out.attrs.update(variant=variant.id, bin_widths=widths, records=len(records))
    return out


def side_total(records: np.ndarray, variant: Variant) -> np.ndarray:
    """int64: per record, the points the bidding side scores towards its bid when the hand is played:
    its meld if it keeps it (the system's minimum meld to count, and a trick or enough trick points to
    save it) plus its trick points. The record does not say how many nines of trump a side holds, so
    a system that keeps the dix when the rest of the meld is lost is undercounted by the dix then.
    Meaningful for played hands only."""
    meld = records[:, h.F_SIDE_MELD].copy()
    tricks = records[:, h.F_SIDE_TRICKS]
    meld[meld < variant.get("scoring.min_meld_to_count")] = 0
    save = variant.get("scoring.save_meld")
    if save == "trick":
        meld[tricks <= 0] = 0  # a trick of no points also saves the meld; the record cannot tell
    elif save == "points":
        meld[tricks < variant.get("scoring.save_meld_points")] = 0
    return meld + tricks


def _survival(total: np.ndarray, given_up_at: np.ndarray, bids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(successes, hands) at each bid: played hands succeed when their total reaches the bid; hands
    given up at bid ``b`` fail at every bid >= ``b`` and are left out below."""
    total, given_up_at = np.sort(total), np.sort(given_up_at)
    successes = len(total) - np.searchsorted(total, bids, side="left")
    hands = len(total) + np.searchsorted(given_up_at, bids, side="right")
    return successes, hands


def highest_bid_table(
    records: np.ndarray, variant: Variant, odds: Sequence[float] = (0.5, 0.75), min_hands: int = MIN_HANDS
) -> pd.DataFrame:
    """For each bin of the bidder's meld as dealt, the highest legal bid the side still makes
    with probability at least each of ``odds`` (P(side total >= bid), see the module docstring).

    Columns: ``bidder_meld`` (bin lower edge, points), ``meld_mean`` (mean bidder meld in the bin),
    ``hands``, ``given_up`` (hands thrown in or set without play), ``median_total`` (the played hands'
    median side total) and, for each q in ``odds`` (``Q`` = round(100 q)):
    ``bid_Q`` the highest legal bid with P(make) >= q (NaN when even the minimum bid falls short),
    ``bid_Q_lo``/``bid_Q_hi`` the highest legal bids whose Wilson 95% lower / upper bound reaches q
    (a pointwise 95% range for ``bid_Q``), ``p_Q`` P(make) at ``bid_Q`` and ``line_Q`` the highest
    total (on the bid grid of the auction's smallest step, legal or not) with P >= q, which the rule of
    thumb is fitted to. Bins with fewer than ``min_hands`` hands are left out.
    """
    rec = with_bidder(records, ("bidder_meld",))
    width = point_bin_width(variant)
    meld = rec[:, h.F_BIDDER_MELD]
    played = rec[:, h.F_OUTCOME] == h.PLAYED
    total = side_total(rec, variant)
    top = int(max(total.max(initial=0), rec[:, h.F_BID].max(initial=0))) + 1
    ladder = bid_ladder(variant, top)
    grain = reduce(
        math.gcd,
        [int(variant.get("auction.step")), int(variant.get("auction.step_after")), int(variant.get("auction.min_bid"))],
    )
    grid = np.arange(int(ladder[0]) if len(ladder) else 0, top + grain, grain, dtype=np.int64)
    bins = meld // width * width
    rows, counts = [], []
    for edge in np.unique(bins):
        inside = bins == edge
        if inside.sum() < min_hands:
            continue
        t, up = total[inside & played], rec[inside & ~played, h.F_BID]
        row = {
            "bidder_meld": int(edge),
            "meld_mean": float(meld[inside].mean()),
            "hands": int(inside.sum()),
            "given_up": int(len(up)),
            "median_total": float(np.median(t)) if len(t) else math.nan,
        }
        k_l, n_l = _survival(t, up, ladder)
        counts.append((k_l, n_l))
        k_g, n_g = _survival(t, up, grid)
        ivs = [wilson(int(k), int(n)) for k, n in zip(k_l, n_l)]
        p_l = np.array([iv.estimate if n else 0.0 for iv, n in zip(ivs, n_l)])
        lo_l = np.array([iv.lo for iv in ivs])
        hi_l = np.array([iv.hi for iv in ivs])
        p_g = np.where(n_g > 0, k_g / np.maximum(n_g, 1), 0.0)
        for q in odds:
            name = f"{round(100 * q)}"

            def highest(values: np.ndarray, bids: np.ndarray, q: float = q) -> float:
                ok = np.nonzero(values >= q)[0]
                return float(bids[ok[-1]]) if len(ok) else math.nan

            row[f"bid_{name}"] = highest(p_l, ladder)
            row[f"bid_{name}_lo"] = highest(lo_l, ladder)
            row[f"bid_{name}_hi"] = highest(hi_l, ladder)
            at = np.nonzero(ladder == row[f"bid_{name}"])[0]
            row[f"p_{name}"] = float(p_l[at[0]]) if len(at) else math.nan
            row[f"line_{name}"] = highest(p_g, grid)
        rows.append(row)
    out = pd.DataFrame(rows)
    p01, p99 = np.percentile(meld, [1, 99]) if len(meld) else (0, 0)
    out.attrs.update(
        variant=variant.id,
        bin_width=width,
        odds=tuple(odds),
        min_bid=int(variant.get("auction.min_bid")),
        meld_p01=float(p01),
        meld_p99=float(p99),
        bidders=int(len(rec)),
        excluded_no_trump=int(((records[:, h.F_BIDDER] >= 0) & (records[:, h.F_TRUMP] < 0)).sum()),
    )
    if len(out):
        _add_pooled(out, counts, ladder, width)
    return out


def pooled_blocks(values: Sequence[float], pool: Callable[[int, int], float]) -> list[tuple[int, int]]:
    """Pool adjacent violators: split ``values`` (one per meld bin, in meld order; NaN counts as lowest)
    into runs of adjacent bins, merging neighbours whenever a run's value is above the next one's,
    until the values never go down. ``pool(i, j)`` is the value of bins ``i..j`` read together (from
    their pooled hands, not an average of their values). Returns the runs as (first, last) indices."""

    def key(x: float) -> float:
        return -math.inf if math.isnan(x) else x

    blocks: list[tuple[int, int, float]] = []
    for i, x in enumerate(values):
        blocks.append((i, i, x))
        while len(blocks) > 1 and key(blocks[-2][2]) > key(blocks[-1][2]):
            (a, _, _), (_, b, _) = blocks[-2], blocks.pop()
            blocks[-1] = (a, b, pool(a, b))
    return [(a, b) for a, b, _ in blocks]


def _add_pooled(
    table: pd.DataFrame, counts: list[tuple[np.ndarray, np.ndarray]], ladder: np.ndarray, width: int
) -> None:
    """Add ``bid_Q_pooled`` (with ``_lo``, ``_hi``) and ``pool_Q`` to a :func:`highest_bid_table`: the
    highest bid read from the hands of :func:`pooled_blocks` over its :func:`central_rows`, so that a
    heavier meld never reads a lower bid; ``pool_Q`` is the lower meld edge of the first bin of the
    pooled run (equal to ``bidder_meld`` where a bin stands alone). Outside the central rows the
    pooled columns repeat the raw ones."""
    central = set(central_rows(table, width).index)
    order = [i for i in table.index if i in central]
    for q in table.attrs["odds"]:
        name = f"{round(100 * q)}"

        def read(ks: np.ndarray, ns: np.ndarray, q: float = q) -> tuple[float, float, float]:
            ivs = [wilson(int(k), int(n)) for k, n in zip(ks, ns)]
            est = np.array([iv.estimate if n else 0.0 for iv, n in zip(ivs, ns)])
            out = []
            for values in (est, np.array([iv.lo for iv in ivs]), np.array([iv.hi for iv in ivs])):
                ok = np.nonzero(values >= q)[0]
                out.append(float(ladder[ok[-1]]) if len(ok) else math.nan)
            return tuple(out)

        def pool(a: int, b: int) -> float:
            return read(
                sum(counts[order[i]][0] for i in range(a, b + 1)), sum(counts[order[i]][1] for i in range(a, b + 1))
            )[0]

        cols = [f"bid_{name}_pooled", f"bid_{name}_pooled_lo", f"bid_{name}_pooled_hi"]
        for c, raw in zip(cols, (f"bid_{name}", f"bid_{name}_lo", f"bid_{name}_hi")):
            table[c] = table[raw]
        table[f"pool_{name}"] = table["bidder_meld"]
        for a, b in pooled_blocks([table.at[i, f"bid_{name}"] for i in order], pool):
            if a == b:
                continue
            idx = order[a : b + 1]
            ks = sum(counts[i][0] for i in idx)
            ns = sum(counts[i][1] for i in idx)
            table.loc[idx, cols] = read(ks, ns)
            table.loc[idx, f"pool_{name}"] = table.at[idx[0], "bidder_meld"]


def central_rows(table: pd.DataFrame, width: int) -> pd.DataFrame:
    """The rows of a :func:`highest_bid_table` that form one unbroken run of meld bins around the
    median bidder's meld, inside the 1st to 99th percentile of bidders' melds."""
    inside = table[
        (table["bidder_meld"] + width > table.attrs.get("meld_p01", -math.inf))
        & (table["bidder_meld"] <= table.attrs.get("meld_p99", math.inf))
    ].sort_values("bidder_meld")
    if inside.empty:
        return inside
    edges = inside["bidder_meld"].to_numpy()
    run = np.cumsum(np.concatenate([[0], np.diff(edges) != width]))  # run id of each bin
    centre = np.average(inside["meld_mean"], weights=inside["hands"])
    return inside[run == run[np.abs(edges - centre).argmin()]]


#: Decimals kept of a fitted rule (points): far below what the simulation can tell, far above what a
#: page prints, and the same on every machine (no last-digit noise from the floating point library).
FIT_DIGITS = 6


def weighted_line(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """(a, b) of the line ``a + b x`` that minimises the ``w``-weighted squared distance to ``y``, from the
    normal equations summed with :func:`math.fsum` (correctly rounded, so the same on every machine
    whatever its linear-algebra library) and rounded to :data:`FIT_DIGITS` decimals."""
    sw, sx, sy = math.fsum(w), math.fsum(w * x), math.fsum(w * y)
    mx, my = sx / sw, sy / sw
    sxx = math.fsum(w * (x - mx) ** 2)
    b = math.fsum(w * (x - mx) * (y - my)) / sxx
    return round(my - b * mx, FIT_DIGITS), round(b, FIT_DIGITS)


def bid_rule_of_thumb(
    records: np.ndarray, variant: Variant, table: pd.DataFrame | None = None, min_hands: int = MIN_HANDS
) -> dict:
    """Fit "bid up to a + b × your meld" to the 50% line of :func:`highest_bid_table` (``line_50``
    against ``meld_mean``), by least squares weighted by the hands in each meld bin.

    Returns ``a`` (points), ``b`` (points of bid per point of the bidder's meld as dealt), ``line_rmse``
    (hand-weighted root mean square distance of the table's 50% line from the fitted line, points:
    how well a straight line fits), ``hand_spread`` (half the interquartile range of the played hands'
    side totals around the fitted line, points: how far a single hand's total typically lands from
    it), ``bins`` and ``hands`` used, the meld range fitted (``meld_lo``, ``meld_hi``) and the
    system's ``min_bid``. Only the :func:`central_rows` of the table are fitted, so that a few freak
    hands (a double pinochle worth 3000) do not bend the line.
    """
    if table is None or "line_50" not in table:
        table = highest_bid_table(records, variant, odds=(0.5,), min_hands=min_hands)
    if table.empty:  # no meld bin holds min_hands hands
        raise TooFewHands(f"{variant.id}: no meld bin with {min_hands} hands; simulate more hands")
    width = point_bin_width(variant)
    fit = central_rows(table, width)
    fit = fit[fit["line_50"].notna() & (fit["hands"] >= min_hands)]
    if len(fit) < 2:
        raise TooFewHands(f"{variant.id}: fewer than two meld bins with a 50% bid; simulate more hands")
    x, y, w = fit["meld_mean"].to_numpy(), fit["line_50"].to_numpy(), fit["hands"].to_numpy(float)
    a, b = weighted_line(x, y, w)
    rmse = round(math.sqrt(math.fsum(w * (y - a - b * x) ** 2) / math.fsum(w)), FIT_DIGITS)
    rec = with_bidder(records, ("bidder_meld",))
    edges = rec[:, h.F_BIDDER_MELD] // width * width
    inside = np.isin(edges, fit["bidder_meld"].to_numpy()) & (rec[:, h.F_OUTCOME] == h.PLAYED)
    resid = side_total(rec[inside], variant) - (a + b * rec[inside, h.F_BIDDER_MELD])
    q25, q75 = np.percentile(resid, [25, 75]) if len(resid) else (math.nan, math.nan)
    return {
        "a": a,
        "b": b,
        "line_rmse": rmse,
        "hand_spread": round(float((q75 - q25) / 2), FIT_DIGITS),
        "bins": int(len(fit)),
        "hands": int(fit["hands"].sum()),
        "meld_lo": int(fit["bidder_meld"].min()),
        "meld_hi": int(fit["bidder_meld"].max()) + width - 1,
        "min_bid": int(variant.get("auction.min_bid")),
    }


def rule_bid(rule: dict, variant: Variant, meld: float) -> int | None:
    """The highest legal bid at or below the rule of thumb's ``a + b × meld`` (None: below the minimum)."""
    ladder = bid_ladder(variant, int(math.floor(rule["a"] + rule["b"] * meld)))
    return int(ladder[-1]) if len(ladder) else None


# --- charts ---------------------------------------------------------------------------------------


def _trim(table: pd.DataFrame, field: str, min_hands: int, max_gap: int | None = None) -> pd.DataFrame:
    """Rows of ``table`` inside the range of ``field`` values that have at least one row (cell) with
    ``min_hands`` hands. With ``max_gap``, only the run of such values (no two more than ``max_gap``
    apart) that holds the most hands: a handful of freak melds far out does not stretch the chart."""
    good = np.unique(table.loc[table["hands"] >= min_hands, field].to_numpy())
    if len(good) == 0:
        return table.iloc[0:0]
    lo, hi = good.min(), good.max()
    if max_gap is not None and len(good) > 1:
        run = np.concatenate([[0], np.cumsum(np.diff(good) > max_gap)])
        weight = [
            table.loc[table[field].between(good[run == k].min(), good[run == k].max()), "hands"].sum()
            for k in range(run[-1] + 1)
        ]
        best = int(np.argmax(weight))
        lo, hi = good[run == best].min(), good[run == best].max()
    return table[(table[field] >= lo) & (table[field] <= hi)]


#: The most meld columns a heatmap draws; beyond, neighbouring bins are merged (their hands summed).
HEATMAP_COLUMNS = 30


def merge_bins(table: pd.DataFrame, field: str, factor: int) -> pd.DataFrame:
    """A :func:`make_table` with ``factor`` neighbouring bins of ``field`` merged into one (their hands
    and makes summed, the rate and its Wilson interval read again from the sums)."""
    widths = dict(table.attrs.get("bin_widths", {}))
    if factor <= 1:
        return table
    width = widths.get(field, 1) * factor
    keys = [c for c in table.columns if c not in ("hands", "made", "p_make", "lo", "hi")]
    merged = (
        table.assign(**{field: table[field] // width * width})
        .groupby(keys, sort=True)[["hands", "made"]]
        .sum()
        .reset_index()
    )
    ivs = [wilson(int(k), int(n)) for k, n in zip(merged["made"], merged["hands"])]
    merged["p_make"] = [iv.estimate for iv in ivs]
    merged["lo"] = [iv.lo for iv in ivs]
    merged["hi"] = [iv.hi for iv in ivs]
    merged.attrs.update(table.attrs, bin_widths={**widths, field: width})
    return merged


def _x_label(x: str, width: int, left_out: int) -> str:
    """The label of a meld axis: the measure and its unit, a note where it is easily misread, and the
    hands beyond the right edge."""
    unit = f"points, bins of {width}" if width > 1 else "points"
    lines = [f"{LABELS.get(x, x)} ({unit})"]
    if x in LABEL_NOTES:
        lines.append(LABEL_NOTES[x])
    if left_out:
        lines.append(f"{left_out:,} hands with rarer, larger melds beyond the right edge are not drawn")
    return "\n".join(lines)


def plot_make_heatmap(
    table: pd.DataFrame, x: str = "side_meld", y: str = "trump_len", min_hands: int = MIN_HANDS, count: str = ""
) -> Figure:
    """Heatmap of P(make) in % (colour, with the value printed in each cell) by ``x`` (meld bins) and
    ``y`` (trump length) from :func:`make_table`; cells with fewer than ``min_hands`` hands are grey.
    Rows and columns without a cell of ``min_hands`` hands are not drawn, nor a cluster of rare melds
    far beyond the rest (a double pinochle worth 3000); the x label counts the hands left out. Beyond
    :data:`HEATMAP_COLUMNS` meld bins, neighbouring bins are merged (:func:`merge_bins`), so that the
    numbers stay readable."""
    widths = table.attrs.get("bin_widths", {x: 1, y: 1})
    total = int(table["hands"].sum())
    table = _trim(table, x, min_hands, max_gap=5 * widths[x])
    left_out = total - int(table["hands"].sum())
    if len(table):
        table = merge_bins(
            table, x, math.ceil((table[x].max() - table[x].min() + widths[x]) / widths[x] / HEATMAP_COLUMNS)
        )
        widths = table.attrs["bin_widths"]
    table = _trim(table, y, min_hands)
    xs = np.arange(table[x].min(), table[x].max() + 1, widths[x]) if len(table) else np.array([0])
    ys = np.arange(table[y].min(), table[y].max() + 1, widths[y]) if len(table) else np.array([0])
    grid = np.full((len(ys), len(xs)), np.nan)
    for r in table.itertuples(index=False):
        i, j = int((getattr(r, y) - ys[0]) // widths[y]), int((getattr(r, x) - xs[0]) // widths[x])
        if r.hands >= min_hands:
            grid[i, j] = 100 * r.p_make
    fig, ax = style.new_figure(size=(max(8.0, 0.33 * len(xs) + 2.6), max(4.2, 0.42 * len(ys) + 2.4)))
    cmap = matplotlib.colormaps[style.SEQUENTIAL].with_extremes(bad="#d9d9d9")
    # the colour scale spans the make rates drawn, not 0 to 100%, so a system whose bids mostly make
    # still shows where they fail (the floor is a round 10% below the lowest cells)
    vmin = float(np.floor(np.nanpercentile(grid, 2) / 10) * 10) if np.isfinite(grid).any() else 0.0
    vmin = min(vmin, 90.0)
    mesh = ax.pcolormesh(
        np.append(xs, xs[-1] + widths[x]) - 0.5 * widths[x],
        np.append(ys, ys[-1] + widths[y]) - 0.5 * widths[y],
        np.ma.masked_invalid(grid),
        cmap=cmap,
        vmin=vmin,
        vmax=100,
        shading="flat",
    )
    for i in range(len(ys)):
        for j in range(len(xs)):
            if not np.isnan(grid[i, j]):
                shade = (grid[i, j] - vmin) / (100 - vmin) if vmin < 100 else 1
                ax.text(
                    xs[j],
                    ys[i],
                    f"{grid[i, j]:.0f}",
                    ha="center",
                    va="center",
                    fontsize=7.5,
                    color="white" if shade < 0.55 else "black",
                )
    ax.grid(False)
    bar = fig.colorbar(mesh, ax=ax, pad=0.01)
    bar.set_label("bidding side makes its bid (%)" + (f"; scale from {vmin:.0f}%" if vmin > 0 else ""))
    ax.set_xlabel(_x_label(x, widths[x], left_out))
    ax.set_ylabel(LABELS.get(y, y) + " (cards)")
    ax.set_yticks(ys)
    ax.set_title(
        style.title(
            "Bidding side makes its bid (% in each cell), by meld and trump length",
            table.attrs.get("variant", ""),
            (count or f"{int(table['hands'].sum()):,} hands")
            + f" · grey: fewer than {min_hands} hands, too few to show",
        )
    )
    return fig


def plot_make_by_aces(
    table: pd.DataFrame, x: str = "side_meld", min_hands: int = MIN_HANDS, lines: int = 5, count: str = ""
) -> Figure:
    """P(make) in % against meld (``x``) with one line per number of aces the bidder holds, from
    ``make_table(records, variant, by=(x, "aces"))``: the ``lines`` most common ace counts and no aces at
    all (the hand players ask about), points with fewer than ``min_hands`` hands left out, Wilson 95%
    bands; where no meld bin holds ``min_hands`` hands without an ace, the legend says so. A cluster of
    rare melds far beyond the rest is not drawn (as in :func:`plot_make_heatmap`)."""
    widths = table.attrs.get("bin_widths", {x: 1})
    total = int(table["hands"].sum())
    table = _trim(table, x, min_hands, max_gap=5 * widths.get(x, 1))
    left_out = total - int(table["hands"].sum())
    fig, ax = style.new_figure()
    common = table.groupby("aces")["hands"].sum().sort_values(ascending=False).index[:lines]
    parts = {
        aces: table[(table["aces"] == aces) & (table["hands"] >= min_hands)].sort_values(x)
        for aces in sorted({int(a) for a in common} | {0})
    }
    parts = {aces: part for aces, part in parts.items() if not part.empty}
    no_aces = 0 in parts
    for k, (aces, part) in enumerate(parts.items()):
        colour = style.PALETTE[k % len(style.PALETTE)]
        ax.plot(
            part[x],
            100 * part["p_make"],
            marker="o",
            ms=3,
            color=colour,
            label=f"{aces} ace{'s' if aces != 1 else ''} ({int(part['hands'].sum()):,} hands)",
        )
        ax.fill_between(part[x], 100 * part["lo"], 100 * part["hi"], color=colour, alpha=0.18, linewidth=0)
    ax.set_ylim(0, 102)
    ax.set_xlabel(_x_label(x, widths.get(x, 1), left_out))
    ax.set_ylabel("bidding side makes its bid (%)")
    if ax.get_lines():
        if not no_aces:
            ax.plot([], [], ls="none", label=f"no aces: no line, no meld bin\nhas {min_hands} such hands")
        ax.legend(title="bidder holds", loc="lower right", fontsize=8)
    else:  # a small run: say so rather than draw an empty frame with an empty legend
        ax.text(0.5, 0.5, f"no meld bin has {min_hands}+ hands for any ace count", ha="center", transform=ax.transAxes)
    ax.set_title(
        style.title(
            f"Bidding side makes its bid (%), by meld and aces (bands: 95% intervals; bins of {min_hands}+ hands)",
            table.attrs.get("variant", ""),
            count or f"{int(table['hands'].sum()):,} hands",
        )
    )
    return fig


def plot_highest_bid(table: pd.DataFrame, rule: dict | None = None, count: str = "") -> Figure:
    """The highest bid made with 50% and 75% probability against the bidder's meld before the pass,
    from :func:`highest_bid_table` (its :func:`central_rows`, read from pooled rows where the raw bid
    went down as meld went up, the raw bid then shown as a dot), with pointwise 95% bands and the
    fitted rule of thumb."""
    fig, ax = style.new_figure()
    table = central_rows(table, table.attrs.get("bin_width", 1))
    x = table["meld_mean"]
    dotted = False
    for k, q in enumerate(table.attrs.get("odds", (0.5, 0.75))):
        name = f"{round(100 * q)}"
        colour = style.PALETTE[k]
        bid, lo, hi, _ = pooled(table, name)
        ax.step(x, table[bid], where="mid", color=colour, label=f"made {name}% of the time")
        ax.fill_between(x, table[lo], table[hi], step="mid", color=colour, alpha=0.2, linewidth=0)
        moved = table[f"bid_{name}"].ne(table[bid]) & table[f"bid_{name}"].notna()
        if moved.any():
            ax.plot(x[moved], table.loc[moved, f"bid_{name}"], "o", ms=3.5, mfc="white", color=colour)
            dotted = True
    if dotted:
        ax.plot(
            [],
            [],
            "o",
            ms=3.5,
            mfc="white",
            color="grey",
            label="open dot: a meld row alone, where it dipped (the line pools it with its neighbours)",
        )
    if rule is not None:
        xs = np.linspace(rule["meld_lo"], rule["meld_hi"], 50)
        ax.plot(
            xs,
            rule["a"] + rule["b"] * xs,
            "--",
            color=style.PALETTE[3],
            label=f"rule: {_num(rule['a'])} + {rule['b']:.2f} × meld (single hands ±{_num(rule['hand_spread'])})",
        )
    if "min_bid" in table.attrs:
        ax.axhline(table.attrs["min_bid"], color="grey", lw=0.8, ls=":", label="minimum bid")
    ax.set_xlabel("bidder's meld as dealt, before any pass or widow (points)")
    ax.set_ylabel("highest bid (points)")
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title(
        style.title(
            "Highest bid made 50% / 75% of the time (bands: 95% range)",
            table.attrs.get("variant", ""),
            count or f"{int(table['hands'].sum()):,} hands",
        )
    )
    return fig


def _bid_range(bid: float, lo: float, hi: float) -> str:
    """ "32" or "32 (95% range 31 to 33)": the range only where it differs from the bid."""
    if fmt.missing(bid):
        return "none (even the minimum bid falls short)"
    if fmt.missing(lo) or fmt.missing(hi) or lo == bid == hi:
        return _num(bid)
    return f"{_num(bid)} (95% range {_num(lo)} to {_num(hi)})"


#: The mark of a bidding-card cell read from pooled neighbouring meld rows, and what it means.
POOLED_MARK = "*"
POOLED_NOTE = (
    "* neighbouring meld rows read together: where a heavier meld came out with a lower bid (noise of "
    "a finite simulation, not a rule of the game), the hands of the adjacent rows are pooled and one "
    "bid is read from them all, so the card never bids less for more meld."
)
PASS_NOTE = (
    '"pass": even the minimum bid ({min_bid}) is made less often than that; a bidding card says '
    "not to open or raise on such a hand alone."
)


def pooled(table: pd.DataFrame, q: str) -> tuple[str, str, str, str | None]:
    """The column names of the bid made with odds ``q`` ("50", "75") that the card reads: the pooled
    (never decreasing) ones where the table has them, and the column naming each row's pooled run."""
    if f"bid_{q}_pooled" in table:
        return f"bid_{q}_pooled", f"bid_{q}_pooled_lo", f"bid_{q}_pooled_hi", f"pool_{q}"
    return f"bid_{q}", f"bid_{q}_lo", f"bid_{q}_hi", None


def bidding_card(table: pd.DataFrame) -> list[dict]:
    """The bidding card: per meld bin of the :func:`central_rows`, the highest bid made half the time and
    three times in four, as strings (the 95% range in brackets where it differs from the bid), read
    from pooled rows where the raw bids went down as meld went up (marked :data:`POOLED_MARK`)."""
    width = table.attrs.get("bin_width", 1)
    rows = []
    central = central_rows(table, width)
    runs = {q: central[pooled(central, q)[3]].value_counts() if pooled(central, q)[3] else None for q in ("50", "75")}
    for r in central.itertuples(index=False):
        edge = int(r.bidder_meld)
        meld = f"{edge}" if width == 1 else f"{edge}–{edge + width - 1}"

        def cell(q: str, r=r) -> str:
            names = pooled(central, q)
            bid, lo, hi = (getattr(r, c) for c in names[:3])
            mark = POOLED_MARK if names[3] and runs[q][getattr(r, names[3])] > 1 else ""
            if fmt.missing(bid):
                return "pass" + mark
            if fmt.missing(lo) or fmt.missing(hi) or lo == bid == hi:
                return _num(bid) + mark
            return f"{_num(bid)} [{_num(lo)}–{_num(hi)}]{mark}"

        rows.append(
            {
                "your meld as dealt": meld,
                "bid made 50% of the time": cell("50"),
                "bid made 75% of the time": cell("75"),
                "hands": f"{int(r.hands):,}",
            }
        )
    return rows


# --- section --------------------------------------------------------------------------------------


def _num(x: float) -> str:
    """A number for prose: three significant digits, whole numbers from 100 up, a dash for NaN."""
    if x is None or math.isnan(x):
        return "—"
    return f"{x:.3g}" if abs(x) < 100 else f"{x:,.0f}"


def section(variant: Variant, sizes: Sizes, seed: int = 1) -> Section:
    """ "How high to bid": the make-rate tables, the highest bid by meld and its rule of thumb, from
    ``sizes.played`` full hands."""
    records = records_for(variant, sizes.played, seed)
    count = f"{len(records):,} hands, seed {seed}"
    by_trump = make_table(records, variant, ("side_meld", "trump_len"))
    by_aces = make_table(records, variant, ("side_meld", "aces"))
    by_bid = make_table(records, variant, ("bid",))
    highest = highest_bid_table(records, variant)
    rule = bid_rule_of_thumb(records, variant, highest)
    rec = with_bidder(records, ("bidder_meld",))
    overall = wilson(
        int((records[records[:, h.F_BIDDER] >= 0, h.F_MADE] == 1).sum()), int((records[:, h.F_BIDDER] >= 0).sum())
    )
    width = point_bin_width(variant)

    # worked example: the bin holding the median bidder's meld
    median = float(np.median(rec[:, h.F_BIDDER_MELD]))
    ex = highest.iloc[(highest["bidder_meld"] - median // width * width).abs().argmin()]
    said = rule_bid(rule, variant, float(ex["meld_mean"]))
    ex_bins = rec[:, h.F_BIDDER_MELD] // width * width == ex["bidder_meld"]
    ex_rec = rec[ex_bins]
    if said is not None:
        played = ex_rec[:, h.F_OUTCOME] == h.PLAYED
        k, n = _survival(side_total(ex_rec[played], variant), ex_rec[~played, h.F_BID], np.array([said]))
        at = wilson(int(k[0]), int(n[0]))
        said_text = (
            f"the rule says bid up to {said}, which such hands make "
            f"{fmt.pct(at.estimate, at.lo, at.hi, decimals=0)} of the time"
        )
    else:
        said_text = "the rule says not to bid (it falls below the minimum)"
    edge = int(ex["bidder_meld"])
    bins_text = f"{edge} points" if width == 1 else f"{edge} to {edge + width - 1} points"
    side = rec[:, h.F_SIDE_MELD]
    lo_meld, hi_meld = np.percentile(side, [10, 90])
    made = rec[:, h.F_MADE] == 1
    p_low = wilson(int(made[side <= lo_meld].sum()), int((side <= lo_meld).sum()))
    p_high = wilson(int(made[side >= hi_meld].sum()), int((side >= hi_meld).sum()))

    def line(q: int) -> str:
        if math.isnan(ex[f"bid_{q}"]):
            return f"none (even the minimum, {rule['min_bid']}, falls short)"
        return _bid_range(ex[f"bid_{q}"], ex[f"bid_{q}_lo"], ex[f"bid_{q}_hi"])

    def pct(iv) -> str:
        return fmt.pct(iv.estimate, iv.lo, iv.hi, decimals=0)

    text = (
        f"**Rule of thumb ({variant.id}): bid up to {_num(rule['a'])} + {rule['b']:.2f} × your meld** "
        f"(your meld as dealt, before any pass or widow, in points; the minimum bid is {rule['min_bid']}). "
        "Bidding that high, "
        f"the side makes about half its contracts. The line passes within about {_num(rule['line_rmse'])} "
        f"points of the simulated 50% bids (a typical distance, over the {rule['bins']} meld rows from "
        f"{rule['meld_lo']} to {rule['meld_hi']}), but single hands scatter far more: half of them land "
        f"within ±{_num(rule['hand_spread'])} points of it, so the rule is a median, not a promise. "
        f"To make 75% of the time, bid the lower line in the chart instead.\n\n"
        f"Worked example: the median bidder holds {_num(median)} points of meld as dealt. With "
        f"{bins_text} ({int(ex['hands']):,} hands), {said_text}; in the simulated table the highest bid made half the "
        f"time is {line(50)}, and the highest made three times in four is {line(75)}.\n\n"
        f"How these are measured: {len(records):,} hands (seed {seed}) played by the simulated players, bidding "
        f"as boldly as pays best in this system, who made {pct(overall)} of their contracts. A played hand's side "
        f"total (kept meld + trick points) is what it would have taken at any bid, because trump, the pass "
        f"and the play do not depend on the bid; so P(make B) for a meld is the share of its hands whose "
        f"total reaches B (a hand given up before play counts as a failure at its own bid and above). "
        f"Meld is binned by {width} point{'s' if width > 1 else ''}. With the actual bids, the make rate "
        f"rises with the side's meld after the exchange: {pct(p_low)} for the tenth of hands with the "
        f"least (at most {_num(lo_meld)} points) against {pct(p_high)} for the tenth with the most (at least "
        f"{_num(hi_meld)}); the heatmap splits it by the bidder's trump length "
        f"and the line chart by his aces."
    )
    if highest.attrs.get("excluded_no_trump"):
        text += (
            f" In {highest.attrs['excluded_no_trump']:,} hands the bidder held no marriage to name trump "
            "with, so the hand was lost before any meld was recorded; the tables by meld leave them out."
        )
    figures = {
        "make_heatmap": plot_make_heatmap(by_trump, count=count),
        "make_by_aces": plot_make_by_aces(by_aces, count=count),
        "highest_bid": plot_highest_bid(highest, rule, count=count),
    }
    tables = {
        "make_by_meld_and_trump": by_trump,
        "make_by_meld_and_aces": by_aces,
        "make_by_bid": by_bid,
        "highest_bid": highest,
        "rule_of_thumb": pd.DataFrame([rule]),
    }
    card = bidding_card(highest)
    pooled_rows = any(
        POOLED_MARK in r[c] for r in card for c in ("bid made 50% of the time", "bid made 75% of the time")
    )
    display = {
        "highest_bid": fmt.markdown_table(card)
        + (
            "\n\nThe highest bid the side makes with the given odds, by the bidder's meld as dealt (before any "
            'pass or widow); "pass" where even the minimum bid falls short, and a 95% range in brackets where '
            "it differs from the bid. Meld bins hold too few hands beyond the rows shown."
        )
        + (f" {POOLED_NOTE}" if pooled_rows else "")
    }
    return Section("How high to bid", text, tables, figures, display)
