"""How much meld does a dealt hand hold, and how much does a partnership hold between its two hands?

Conventions:

* Meld is in points on the variant's own scale (1-point or 10-point systems), as scored by
  :func:`simcore.kernels.meld.meld_by_trump`, counted on the hand as dealt: before any pass, widow or
  exchange, and whether or not the hand would win the bid.
* **best trump**: the hand's meld under the trump suit that gives it the most meld;
  **fixed trump**: under one trump chosen without looking at the hand (spades; every suit gives the
  same distribution) — what a hand melds when someone else names trump.
* **partnership**: partners sit across a four-player table (seat s with seat s + 2); their combined
  meld is the sum of the two hands' meld under the one trump that is best for the pair (the maximum
  over trumps of the sum). Defined for four players only.
* ``hands`` counts hands dealt (whole deals, so rounded up to a multiple of the players); every seat
  counts, so a deal gives ``players`` own hands and ``players / 2`` partnerships.
* Shares are probabilities in [0, 1] with 95% Wilson intervals that allow for the hands of one deal
  not being independent (:func:`simcore.run.stats.clustered_proportion`); means have 95% intervals from
  per-deal totals. Exact values come from :func:`simcore.answers.exact.meld_distribution` (own hand only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.section import Section, Sizes
from simcore.answers.exact import meld_distribution
from simcore.kernels.meld_tally import (
    R_BEST,
    R_BEST_SQ,
    R_FIXED,
    R_FIXED_SQ,
    R_MOMENTS,
    R_PAIR,
    R_PAIR_SQ,
    meld_tally_batch,
)
from simcore.run.runner import run_chunks
from simcore.run.stats import Z95, clustered_proportion
from simcore.variants import Variant
from simcore.variants.layout import (
    ACES,
    F_DIX,
    F_EXTRA_KING,
    F_EXTRA_QUEEN,
    JACKS,
    KINGS,
    MARRIAGE,
    PINOCHLE,
    QUEENS,
    ROUNDHOUSE,
    ROYAL,
    RUN,
    RUN_EXTRA_MARRIAGE,
)

#: The suit named trump for the fixed-trump distribution (0 = spades).
FIXED_TRUMP = 0
#: The measures of :func:`summary`, in order.
MEASURES = ("own hand, best trump", "own hand, fixed trump", "partnership, best trump for the pair")
QUANTILES = (0.10, 0.25, 0.50, 0.75, 0.90)


def has_partnerships(variant: Variant) -> bool:
    """True when the partnership is two players across the table: four players. (Six and eight
    players sit in teams of three or four in alternating seats, which this pairing does not model.)"""
    return variant.players == 4


@lru_cache(maxsize=16)
def exact_distribution(variant: Variant, trump: int | None) -> dict[int, float]:
    """``{meld points: probability}`` of one dealt hand's meld (``trump`` None = best trump), exact
    from :func:`simcore.answers.exact.meld_distribution` (seconds even for 96- and 120-card decks)."""
    counts = meld_distribution(variant, trump)
    total = sum(counts.values())
    return {int(m): n / total for m, n in counts.items()}


@dataclass(frozen=True)
class MeldTally:
    """Merged kernel tally of one seeded run: ``tally`` is int64[7, bins] (rows ``R_*``)."""

    variant: Variant
    tally: np.ndarray
    deals: int

    @property
    def hands(self) -> int:
        return self.deals * self.variant.players

    @property
    def pairs_per_deal(self) -> int:
        return self.variant.players // 2 if has_partnerships(self.variant) else 0


@lru_cache(maxsize=8)
def meld_tally(variant: Variant, hands: int, seed: int) -> MeldTally:
    """Deal at least ``hands`` hands (whole deals) from ``seed`` and tally best-trump, fixed-trump and
    partnership meld; cached, so the functions of this module share one run."""
    deals = -(-hands // variant.players)
    bins = max(2 * meld_bound(variant) + 1, 8)  # partnerships hold up to twice one hand
    table, flags = variant.meld_table, variant.meld_flags

    def batch(states: np.ndarray, sizes: np.ndarray, chunks: np.ndarray) -> np.ndarray:
        out = np.zeros((len(sizes), R_MOMENTS + 1, bins), dtype=np.int64)
        if len(sizes):
            meld_tally_batch(
                states, sizes, variant.deck_cards, variant.players, variant.hand_size, table, flags, FIXED_TRUMP, out
            )
        return out

    run = run_chunks(batch, seed, deals)
    tally = run.tally
    if tally[:R_MOMENTS, -1].any():
        raise RuntimeError(f"{variant.id}: a meld reached {bins - 1} points, past meld_bound")
    tally.setflags(write=False)
    return MeldTally(variant, tally, run.deals)


def meld_bound(variant: Variant) -> int:
    """An upper bound on one hand's meld (points): the most each kind of meld can score, added up as
    if a hand could hold them all at once (class I in the trump suit, marriages in the three others,
    arounds, pinochles, roundhouse, every nine of trump, every lone trump K or Q)."""
    table, flags = variant.meld_table[:, : variant.copies + 1], variant.meld_flags
    most = {row: int(table[row].max()) for row in range(table.shape[0])}
    return (
        most[RUN]
        + most[RUN_EXTRA_MARRIAGE]
        + most[ROYAL]
        + 3 * most[MARRIAGE]
        + sum(most[r] for r in (ACES, KINGS, QUEENS, JACKS, PINOCHLE, ROUNDHOUSE))
        + variant.copies * max(int(flags[F_DIX]), 0)
        + variant.hand_size * max(int(flags[F_EXTRA_KING]), int(flags[F_EXTRA_QUEEN]), 0)
    )


def _distribution(tally: MeldTally, row: int, sq_row: int, per_deal: int, name: str, values: list[int]) -> pd.DataFrame:
    """Columns meld, ``name``, ``name``_lo, ``name``_hi over the meld ``values`` given."""
    hist, sq = tally.tally[row], tally.tally[sq_row]
    rows = []
    for m in values:
        iv = clustered_proportion(int(hist[m]), int(sq[m]), tally.deals, per_deal)
        rows.append((m, iv.estimate, iv.lo, iv.hi))
    return pd.DataFrame(rows, columns=["meld", name, f"{name}_lo", f"{name}_hi"])


def _seen(tally: MeldTally, *rows: int) -> set[int]:
    """Meld values held by at least one hand in any of the tally ``rows``."""
    return set().union(*(np.nonzero(tally.tally[r])[0].tolist() for r in rows))


def own_hand_distribution(variant: Variant, hands: int, seed: int, exact: bool = True) -> pd.DataFrame:
    """Distribution of one dealt hand's meld (points on the variant's scale), one row per meld value:
    ``share_best`` (best trump) and ``share_fixed`` (fixed trump) are shares of ``hands`` simulated
    hands with 95% bounds (``_lo``, ``_hi``); ``exact_best`` and ``exact_fixed`` are the exact
    probabilities (0 for impossible values; NaN when ``exact`` is False)."""
    tally = meld_tally(variant, hands, seed)
    ex_best = exact_distribution(variant, None) if exact else None
    ex_fixed = exact_distribution(variant, FIXED_TRUMP) if exact else None
    values = sorted(_seen(tally, R_BEST, R_FIXED) | set(ex_best or {}) | set(ex_fixed or {}))
    best = _distribution(tally, R_BEST, R_BEST_SQ, variant.players, "share_best", values)
    fixed = _distribution(tally, R_FIXED, R_FIXED_SQ, variant.players, "share_fixed", values)
    frame = best.merge(fixed, on="meld")
    frame["exact_best"] = frame["meld"].map(ex_best).fillna(0.0) if exact else math.nan
    frame["exact_fixed"] = frame["meld"].map(ex_fixed).fillna(0.0) if exact else math.nan
    frame["meld"] = frame["meld"].astype(int)
    frame = frame[
        [
            "meld",
            "share_best",
            "share_best_lo",
            "share_best_hi",
            "exact_best",
            "share_fixed",
            "share_fixed_lo",
            "share_fixed_hi",
            "exact_fixed",
        ]
    ]
    frame.attrs["hands"] = tally.hands
    return frame


def partnership_distribution(variant: Variant, hands: int, seed: int) -> pd.DataFrame:
    """Distribution of a partnership's combined meld (points) before any passing: the two partners'
    hands from one deal, under the trump best for the pair. One row per meld value: ``share`` of
    partnerships with its 95% bounds ``share_lo``, ``share_hi``. ``hands`` counts hands dealt, so
    ``hands / 2`` partnerships are counted. Raises ValueError without partnerships."""
    if not has_partnerships(variant):
        raise ValueError(f"{variant.id}: {variant.players} players do not pair off across the table")
    tally = meld_tally(variant, hands, seed)
    frame = _distribution(tally, R_PAIR, R_PAIR_SQ, tally.pairs_per_deal, "share", sorted(_seen(tally, R_PAIR)))
    frame["meld"] = frame["meld"].astype(int)
    frame.attrs["hands"] = tally.hands
    frame.attrs["partnerships"] = tally.deals * tally.pairs_per_deal
    return frame


def _quantile(values: np.ndarray, shares: np.ndarray, q: float) -> float:
    """The smallest value whose cumulative share reaches ``q``."""
    cum = np.cumsum(shares)
    return float(values[min(np.searchsorted(cum, q - 1e-12), len(values) - 1)])


def summary(variant: Variant, hands: int, seed: int, exact: bool = True) -> pd.DataFrame:
    """One row per measure (:data:`MEASURES`; the partnership row only where seats pair off):
    ``count`` (hands or partnerships), ``mean`` meld in points with its 95% interval ``mean_lo``,
    ``mean_hi`` (from per-deal totals), ``mean_exact`` (own hand only, else NaN) and the quantiles
    ``q10`` ... ``q90`` of the simulated distribution (points: ``q90`` is the smallest meld m such
    that at least 90% of hands meld m or less)."""
    tally = meld_tally(variant, hands, seed)
    rows = []
    specs = [
        (MEASURES[0], R_BEST, 0, variant.players, None if not exact else exact_distribution(variant, None)),
        (MEASURES[1], R_FIXED, 2, variant.players, None if not exact else exact_distribution(variant, FIXED_TRUMP)),
    ]
    if has_partnerships(variant):
        specs.append((MEASURES[2], R_PAIR, 4, tally.pairs_per_deal, None))
    d = tally.deals
    for name, row, col, per_deal, ex in specs:
        hist = tally.tally[row]
        s1, s2 = float(tally.tally[R_MOMENTS, col]), float(tally.tally[R_MOMENTS, col + 1])
        n = d * per_deal
        mean = s1 / n
        var_deal = (s2 - s1 * s1 / d) / (d - 1) if d > 1 else math.nan
        half = Z95 * math.sqrt(max(var_deal, 0.0) / d) / per_deal
        values = np.nonzero(hist)[0]
        shares = hist[values] / n
        out = {
            "measure": name,
            "count": n,
            "mean": mean,
            "mean_lo": mean - half,
            "mean_hi": mean + half,
            "mean_exact": sum(m * p for m, p in ex.items()) if ex is not None else math.nan,
        }
        for q in QUANTILES:
            out[f"q{round(q * 100)}"] = _quantile(values, shares, q)
        rows.append(out)
    return pd.DataFrame(rows)


def _unit(values: np.ndarray) -> int:
    """The step between meld values that can occur (the gcd of the nonzero values; 1 when none)."""
    nz = [int(v) for v in values if v > 0]
    return math.gcd(*nz) if nz else 1


def plot_meld_distribution(
    own: pd.DataFrame, partnership: pd.DataFrame | None, variant_id: str, hands: int, coverage: float = 0.995
) -> Figure:
    """Top: one hand's meld with the best trump and under a fixed trump, as bars at the meld values
    that occur (side by side), the simulation's 95% interval as a black error bar on each, and the
    exact probability as a dark tick where known. Bottom (when ``partnership`` is given): the
    partnership's combined meld, bars with 95% error bars. The x axis stops where ``coverage`` of the
    hands is reached; nothing is drawn between values, since no hand can meld them."""
    panels = 2 if partnership is not None else 1
    fig, axes = style.new_figure(panels, 1, size=(8.0, 3.6 * panels + 0.6))
    axes = list(np.ravel(axes))
    ax = axes[0]
    right = 0.0
    has_exact = bool(own["exact_best"].notna().all() and own["exact_fixed"].notna().all())
    unit = _unit(own["meld"].to_numpy())
    width = 0.4 * unit
    for k, (key, label, colour) in enumerate(
        (("best", "best trump", style.PALETTE[0]), ("fixed", "fixed trump", style.PALETTE[1]))
    ):
        seen = own[(own[f"share_{key}"] > 0) | (own[f"exact_{key}"] > 0)]
        x = seen["meld"].to_numpy() + (k - 0.5) * width
        y = seen[f"share_{key}"].to_numpy()
        ax.bar(x, y, width=width, color=colour, label=f"{label}, simulated")
        ax.errorbar(
            x,
            y,
            yerr=[y - seen[f"share_{key}_lo"].to_numpy(), seen[f"share_{key}_hi"].to_numpy() - y],
            fmt="none",
            ecolor="black",
            elinewidth=0.8,
            capsize=0,
            label="95% interval" if k == 0 else None,
        )
        if has_exact:
            ex = seen[f"exact_{key}"].to_numpy()
            ax.plot(
                x[ex > 0],
                ex[ex > 0],
                marker="_",
                linestyle="none",
                color="black",
                markersize=7,
                markeredgewidth=1.6,
                label="exact" if k == 1 else None,
            )
        right = max(right, _quantile(own["meld"].to_numpy(), own[f"share_{key}"].to_numpy(), coverage))
    ax.set_xlim(-unit, right + unit)
    ax.set_xlabel(
        (
            f"meld of one hand (points on the system's scale; only multiples of {unit} occur)"
            if unit > 1
            else "meld of one hand (points on the system's scale)"
        )
        + _tail_note(own["meld"].to_numpy(), own["share_best"].to_numpy(), right, "hands")
    )
    ax.set_ylabel("share of hands")
    ax.yaxis.set_major_formatter(_percent)
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(
        style.title(
            "Meld in one dealt hand: with its best trump, and when another player names trump (fixed trump)",
            variant_id,
            f"{hands:,} hands dealt" + (", exact beside simulated" if has_exact else ""),
        ),
        loc="left",
        fontsize=10,
    )
    if partnership is not None:
        ax = axes[1]
        x = partnership["meld"].to_numpy()
        y = partnership["share"].to_numpy()
        punit = _unit(x)
        ax.bar(x, y, width=0.7 * punit, color=style.PALETTE[2], label="simulated")
        ax.errorbar(
            x,
            y,
            yerr=[y - partnership["share_lo"].to_numpy(), partnership["share_hi"].to_numpy() - y],
            fmt="none",
            ecolor="black",
            elinewidth=0.8,
            label="95% interval",
        )
        cut = _quantile(x, y, coverage)
        ax.set_xlim(-punit, cut + punit)
        ax.set_xlabel(
            "combined meld of two partners, trump best for the pair (points)" + _tail_note(x, y, cut, "partnerships")
        )
        ax.set_ylabel("share of partnerships")
        ax.yaxis.set_major_formatter(_percent)
        ax.legend(fontsize=8, loc="upper right")
        ax.set_title("Partnership meld before passing (partners sit across)", loc="left")
    fig.tight_layout()  # also when shown without style.save (notebooks)
    return fig


def _tail_note(meld: np.ndarray, shares: np.ndarray, cut: float, what: str) -> str:
    """A second line for the x label: the share of ``what`` beyond the axis's right edge ``cut``
    (melds up to the largest drawn), or nothing when none are."""
    beyond = float(shares[meld > cut].sum())
    if beyond <= 0:
        return ""
    return (
        f"\nnot drawn: the {fmt.pct(beyond)} of {what} melding more than {cut:,.0f} "
        f"(up to {meld[(meld > cut) & (shares > 0)].max():,.0f})"
    )


def _percent(y: float, _pos: int) -> str:
    return f"{round(100 * y, 1):g}%"


def meld_paragraph(variant: Variant, stats: pd.DataFrame, own: pd.DataFrame, hands: int) -> str:
    """Markdown summing up :func:`summary` and :func:`own_hand_distribution` in words."""
    by = stats.set_index("measure")
    best, fixed = by.loc[MEASURES[0]], by.loc[MEASURES[1]]

    def mean_text(r: pd.Series) -> str:
        half = (r["mean_hi"] - r["mean_lo"]) / 2
        d = min(max(1, -math.floor(math.log10(half))) if half > 0 else 1, 3)  # shows the interval
        sim = f"{r['mean']:.{d}f} [{r['mean_lo']:.{d}f}–{r['mean_hi']:.{d}f}]"
        if not math.isnan(r["mean_exact"]):
            return f"{r['mean_exact']:.{d}f} points exactly (simulated {sim})"
        return f"{sim} points (simulated, 95% interval in brackets)"

    zero = own.loc[own["meld"] == 0]
    none_best = float(zero["share_best"].iloc[0]) if len(zero) else 0.0
    none_fixed = float(zero["share_fixed"].iloc[0]) if len(zero) else 0.0
    text = (
        f"**How much meld is dealt?** Under {variant.id} a hand of {variant.hand_size} cards melds on "
        f"average {mean_text(best)} with its best trump, and {mean_text(fixed)} when someone else "
        f"names trump (a fixed suit). The median hand melds {best['q50']:.0f} with its best trump, "
        f"and at least a tenth of hands reach {best['q90']:.0f}; {100 * none_best:.1f}% meld nothing "
        f"with their best trump and {100 * none_fixed:.1f}% nothing under a fixed trump."
    )
    if MEASURES[2] in by.index:
        pair = by.loc[MEASURES[2]]
        text += (
            f" Two partners (across the table) hold together {mean_text(pair)} under the trump best for "
            f"the pair, before any passing: {pair['mean'] - best['mean']:.1f} more than one hand with "
            f"its best trump, and {2 * best['mean'] - pair['mean']:.1f} less than two hands would "
            f"meld if each could name its own trump ({2 * best['mean']:.1f}). The middle half of "
            f"partnerships hold {pair['q25']:.0f} to {pair['q75']:.0f}."
        )
    else:
        text += (
            f" With {variant.players} players there is no pair of partners across the table, so no "
            "partnership distribution is shown."
        )
    return text + f" From {hands:,} simulated hands; points on the system's own scale."


def display_summary(stats: pd.DataFrame) -> str:
    """The summary as a person reads it: the mean (exact where known) and the quartiles, in points."""
    rows = []
    for r in stats.itertuples(index=False):
        mean = (
            f"{fmt.number(r.mean_exact, 3)} (exact)"
            if not fmt.missing(r.mean_exact)
            else fmt.value(r.mean, r.mean_lo, r.mean_hi)
        )
        rows.append(
            {
                "whose meld": r.measure,
                "average": mean,
                "median": f"{r.q50:.0f}",
                "middle half": f"{r.q25:.0f} to {r.q75:.0f}",
                "top tenth from": f"{r.q90:.0f}",
            }
        )
    return fmt.markdown_table(rows) + "\n\nPoints on the system's own scale."


#: The largest deck whose exact meld distribution a report section computes: 80 cards take about 15 s
#: on 2 cores, 96 and 120 cards minutes, so larger decks show the simulated distribution only.
EXACT_MAX_DECK = 80


def section(variant: Variant, sizes: Sizes, seed: int = 1) -> Section:
    """The "Meld distribution" report section from ``sizes.dealt`` hands: paragraph, the own-hand and
    partnership tables, the summary and the chart."""
    exact = variant.deck_size <= EXACT_MAX_DECK
    own = own_hand_distribution(variant, sizes.dealt, seed, exact=exact)
    pair = partnership_distribution(variant, sizes.dealt, seed) if has_partnerships(variant) else None
    stats = summary(variant, sizes.dealt, seed, exact=exact)
    hands = own.attrs["hands"]
    tables = {"meld_summary": stats, "meld_own_hand": own}
    if pair is not None:
        tables["meld_partnership"] = pair
    return Section(
        title="Meld distribution",
        text=meld_paragraph(variant, stats, own, hands),
        tables=tables,
        display={"meld_summary": display_summary(stats)},
        figures={"meld_distribution": plot_meld_distribution(own, pair, variant.id, hands)},
    )
