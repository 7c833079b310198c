"""Which house rules matter? Every named question of ``pinochle compare`` in one table.

Each question plays rule sets A and B on the same deals (``simcore.answers.compare``); the table keeps the
question's headline measure with the paired difference B − A and its 95% interval, and the verdict
in words generated from the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.section import Section, Sizes
from simcore.answers.compare import MEASURE_KIND, QUESTIONS, answer

COLUMNS = (
    "question",
    "title",
    "variant",
    "mode",
    "n",
    "measure",
    "kind",
    "a_is",
    "b_is",
    "a",
    "b",
    "diff",
    "diff_lo",
    "diff_hi",
    "matters",
    "threshold",
    "size",
    "narrowing",
    "verdict",
)

#: What A and B are, in a player's words (the question's title says it at length).
SIDES: dict[str, tuple[str, str]] = {
    "five-nines-redeal": ("redeal on 5+ nines and no meld", "no redeal"),
    "pass-3-vs-4": ("pass 3 cards", "pass 4 cards"),
    "pass-3-vs-none": ("pass 3 cards", "no pass"),
    "double-pinochle-3000": ("double pinochle 300", "double pinochle 3000"),
    "run-conventions": ("run with extra K, Q, K-Q: +40/+40/+80", "only an extra K-Q counts"),
    "bidder-wins-ties": ("bidding side wins ties", "higher score wins ties"),
    "must-head": ("must beat the winning card, even partner's", "no duty to beat it"),
    "must-beat-partner": ("must beat partner's winning card", "need not beat partner"),
    "save-meld-20": ("a trick saves the meld", "20 trick points save it"),
    "shore-vs-michigan": ("double pinochle 8 (Shore)", "double pinochle 20 (Michigan)"),
    "min-bid-25": ("minimum bid 20", "minimum bid 25"),
    "min-bid-300": ("minimum bid 250", "minimum bid 300"),
    "trick-count-10-10-10": ("counters 11/10/4/3/2", "counters 10/10/10"),
    "trick-count-10-10-5-5": ("counters 11/10/4/3/2", "counters 10/10/5/5"),
    "declare-out": ("declaring out allowed", "every hand played out"),
}
#: Each kind of measure in natural units: (scale applied to the raw difference, unit, panel title).
UNITS = {
    "rate": (100.0, "percentage points", "Rates (win, make): percentage points"),
    "points": (1.0, "points a hand", "Points a hand, on the system's scale"),
    "count": (1.0, "hands (sets, redeals) a game", "Hands, sets or redeals a game"),
}
SIZE_COLOURS = {
    "negligible": style.PALETTE[7],
    "small": style.PALETTE[1],
    "large": style.PALETTE[3],
    "unsettled": style.PALETTE[5],
}
#: Each verdict's marker and size: told apart by shape as well as colour (and in grey print).
SIZE_MARKERS = {"negligible": ("o", 4.5), "small": ("s", 6.0), "large": ("D", 7.5), "unsettled": ("^", 6.5)}


def _sides(name: str, q) -> tuple[str, str]:
    if name in SIDES:
        return SIDES[name]
    return (", ".join(q.a) or f"{q.variant} as shipped"), (", ".join(q.b) or f"{q.variant} as shipped")


def house_rules_table(sizes: Sizes, seed: int = 1, names: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per question (``COLUMNS``): ``matters`` is True when the headline interval excludes
    zero; ``kind`` is rate, points or count (:data:`simcore.answers.compare.MEASURE_KIND`); ``threshold`` the
    practical size and ``size`` the verdict word of :func:`simcore.answers.compare.size_verdict` (the words
    ``pinochle compare`` prints); ``narrowing`` is how many times narrower pairing made the interval
    than two independent runs."""
    rows = []
    for name in names or QUESTIONS:
        q = QUESTIONS[name]
        result = answer(name, sizes.games if q.mode == "games" else sizes.played, seed)
        r = result.row(q.headline)
        size = result.size(q.headline)
        a_is, b_is = _sides(name, q)
        rows.append(
            {
                "question": name,
                "title": q.title,
                "variant": q.variant,
                "mode": q.mode,
                "n": int(r["n"]),
                "measure": q.headline,
                "kind": MEASURE_KIND.get(q.headline, "points"),
                "a_is": a_is,
                "b_is": b_is,
                "a": r["a"],
                "b": r["b"],
                "diff": r["diff"],
                "diff_lo": r["diff_lo"],
                "diff_hi": r["diff_hi"],
                "matters": bool(r["diff_lo"] > 0 or r["diff_hi"] < 0),
                "threshold": size["threshold"],
                "size": size["size"],
                "narrowing": r["unpaired_half"] / r["paired_half"] if r["paired_half"] > 0 else np.inf,
                "verdict": result.verdict(),
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _value(kind: str, x: float) -> str:
    if kind == "rate":
        return fmt.pct(x, decimals=1)
    return fmt.number(x, 3)


def shown_difference(r, unit: str = "") -> str:
    """A row's B − A in its natural unit with its interval, "+0.99 pp [+0.51 to +1.47]": digits enough
    that the value never prints as the threshold it is judged against."""
    scale = UNITS[r.kind][0]
    return fmt.signed(scale * r.diff, scale * r.diff_lo, scale * r.diff_hi, unit, threshold=scale * r.threshold)


def display_table(table: pd.DataFrame) -> str:
    """The house-rule table as a player reads it: one row per question."""
    rows = []
    for r in table.itertuples(index=False):
        scale, unit, _ = UNITS[r.kind]
        short = {"rate": " pp", "points": " points", "count": ""}[r.kind]
        threshold = f"{fmt.number(scale * r.threshold, 2)}{short}"
        rows.append(
            {
                "question": f"`{r.question}` ({r.variant})",
                "A": r.a_is,
                "B": r.b_is,
                "measure": r.measure + (" (a game)" if r.kind == "count" else ""),
                "A → B": f"{_value(r.kind, r.a)} → {_value(r.kind, r.b)}",
                "B − A [95%]": shown_difference(r, short),
                "verdict": f"**{r.size}** (threshold {threshold})",
            }
        )
    return fmt.markdown_table(rows) + (
        "\n\nA and B play the same deals. Rates are in percentage points (pp); points are per hand on the "
        "system's own scale. Verdicts: **negligible** when the difference is below the threshold of "
        "practical size (1 percentage point of a rate, 2% of the hand's trick points, 0.1 hands a game), "
        "**small** from the threshold, **large** from five times it, **unsettled** when the interval holds "
        "zero but reaches past the threshold (too few deals to say). `pinochle compare` uses the same words."
    )


def plot_house_rules(table: pd.DataFrame) -> Figure:
    """One panel per kind of measure (rates in percentage points, points a hand, counts a game): each
    question's difference B − A with its 95% interval, the threshold of practical size shaded, the
    value and verdict printed beside each point; rows say A → B. The legend sits below the panels."""
    from matplotlib.lines import Line2D

    kinds = [k for k in UNITS if (table["kind"] == k).any()]
    counts = [int((table["kind"] == k).sum()) for k in kinds]
    fig, first = style.new_figure(size=(10.0, 0.52 * sum(counts) + 1.3 * len(kinds) + 1.2))
    first.remove()
    grid = fig.add_gridspec(len(kinds), 1, height_ratios=[c + 0.8 for c in counts])
    for i, kind in enumerate(kinds):
        ax = fig.add_subplot(grid[i, 0])
        scale, unit, heading = UNITS[kind]
        t = table[table["kind"] == kind].iloc[::-1]
        y = np.arange(len(t))
        d, lo, hi = t["diff"] * scale, t["diff_lo"] * scale, t["diff_hi"] * scale
        for yy, thr in zip(y, t["threshold"] * scale):
            ax.fill_betweenx([yy - 0.4, yy + 0.4], -thr, thr, color="#e8e8e8", linewidth=0)
        for yy, r, dd, ll, hh in zip(y, t.itertuples(), d, lo, hi):
            marker, size = SIZE_MARKERS[r.size]
            ax.errorbar(
                [dd],
                [yy],
                xerr=[[dd - ll], [hh - dd]],
                fmt=marker,
                color=SIZE_COLOURS[r.size],
                capsize=3,
                ms=size,
                mec="black",
                mew=0.5,
            )
        span = max(float(np.nanmax(np.abs(np.concatenate([lo, hi, t["threshold"] * scale])))), 1e-9)
        ax.set_xlim(-1.45 * span, 1.45 * span)
        for yy, r, dd, hh, ll in zip(y, t.itertuples(), d, hi, lo):
            # the label goes on the outer side of the point, unless the axis is too near there
            outward = 1 if dd >= 0 else -1
            if (1.45 * span - abs(hh if outward > 0 else ll)) < 0.55 * span:
                outward = -outward
            x_text = hh if outward > 0 else ll
            shown = shown_difference(r).split(" [")[0]  # as the table prints it
            ax.annotate(
                f"{shown}: {r.size}",
                (x_text, yy),
                xytext=(6 * outward, 0),
                textcoords="offset points",
                ha="left" if outward > 0 else "right",
                va="center",
                fontsize=7.5,
                bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8},
            )
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(y, [f"{r.a_is} → {r.b_is}\n{r.measure} · {r.variant}" for r in t.itertuples()], fontsize=7.5)
        ax.set_ylim(-0.6, len(t) - 0.4)
        ax.set_xlabel(f"B − A, {unit} (95% interval)", fontsize=9)
        ax.set_title(heading, loc="left", fontsize=10)
        ax.grid(axis="y", visible=False)
    handles = [
        Line2D(
            [], [], marker=SIZE_MARKERS[w][0], ms=SIZE_MARKERS[w][1], mec="black", mew=0.5, ls="none", color=c, label=w
        )
        for w, c in SIZE_COLOURS.items()
        if (table["size"] == w).any()
    ]
    handles.append(Line2D([], [], lw=8, color="#e8e8e8", label="below the threshold of practical size"))
    fig.suptitle("What each house rule changes: B − A on the same deals", fontsize=11, x=0.02, ha="left")
    fig.tight_layout(rect=(0, 0.045, 1, 0.97))
    fig.legend(
        handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False, bbox_to_anchor=(0.5, 0.0)
    )
    return style.laid_out(fig)


def house_rules_paragraph(table: pd.DataFrame) -> str:
    """The house-rule answer in words, grouped by verdict, in natural units."""
    parts = []
    for word in ("large", "small", "unsettled", "negligible"):
        rows = table[table["size"] == word]
        if rows.empty:
            continue
        items = []
        for r in rows.itertuples(index=False):
            short = {"rate": " pp", "points": " points", "count": " a game"}[r.kind]
            shown = shown_difference(r).split(" [")[0]  # as in the table
            items.append(f"{r.a_is} → {r.b_is} ({r.variant}): {r.measure} {shown}{short}")
        parts.append(f"- **{word.capitalize()}** ({len(rows)}): " + "; ".join(items) + ".")
    narrowing = np.nanmedian(table["narrowing"].replace(np.inf, np.nan))
    return (
        f"Each of the {len(table)} questions plays rule sets A and B on the same deals and measures one "
        "headline number. Grouped by how much the difference matters in play (thresholds under the table):"
        "\n\n" + "\n".join(parts) + "\n\nThe table gives each difference with its 95% interval. "
        f"Playing both sides on the same deals narrowed the intervals {narrowing:.1f}-fold (median) against "
        "independent runs."
    )


def section(sizes: Sizes, seed: int = 1) -> Section:
    """The house-rule table with a paragraph grouping the rules by verdict."""
    table = house_rules_table(sizes, seed)
    return Section(
        "Which house rules matter",
        house_rules_paragraph(table),
        tables={"house_rules": table},
        figures={"house_rules": plot_house_rules(table)},
        display={"house_rules": display_table(table)},
    )
