"""Which house rules matter? Every named question of ``pinochle compare`` in one table.

Each question plays rule sets A and B on the same deals (``simcore.compare``); the table keeps the
question's headline measure with the paired difference B − A and its 95% interval, and the verdict
in words generated from the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import style
from analyses.section import Section, Sizes
from simcore.compare import QUESTIONS, answer

COLUMNS = ("question", "title", "variant", "mode", "n", "measure", "a", "b", "diff", "diff_lo", "diff_hi",
           "matters", "narrowing", "verdict")


def house_rules_table(sizes: Sizes, seed: int = 1, names: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per question (``COLUMNS``): ``matters`` is True when the headline interval excludes
    zero; ``narrowing`` is how many times narrower pairing made it than two independent runs."""
    rows = []
    for name in names or QUESTIONS:
        q = QUESTIONS[name]
        result = answer(name, sizes.games if q.mode == "games" else sizes.played, seed)
        r = result.row(q.headline)
        rows.append({"question": name, "title": q.title, "variant": q.variant, "mode": q.mode,
                     "n": int(r["n"]), "measure": q.headline, "a": r["a"], "b": r["b"], "diff": r["diff"],
                     "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"],
                     "matters": bool(r["diff_lo"] > 0 or r["diff_hi"] < 0),
                     "narrowing": r["unpaired_half"] / r["paired_half"] if r["paired_half"] > 0 else np.inf,
                     "verdict": result.verdict()})
    return pd.DataFrame(rows, columns=list(COLUMNS))


def plot_house_rules(table: pd.DataFrame) -> Figure:
    """Each question's headline difference B − A as a share of A's value, with its interval."""
    fig, ax = style.new_figure(size=(8.0, 0.45 * len(table) + 1.6))
    t = table.iloc[::-1]
    base = t["a"].abs().where(t["a"] != 0, 1.0)
    rel, lo, hi = t["diff"] / base * 100, t["diff_lo"] / base * 100, t["diff_hi"] / base * 100
    y = np.arange(len(t))
    for matters, colour, label in ((True, style.PALETTE[3], "the interval excludes 0"),
                                   (False, style.PALETTE[7], "no detectable change")):
        m = (t["matters"] == matters).to_numpy()
        if m.any():
            ax.errorbar(rel[m], y[m], xerr=[(rel - lo)[m], (hi - rel)[m]], fmt="o", color=colour,
                        capsize=3, label=label)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, [f"{q}: {m}" for q, m in zip(t["question"], t["measure"])])
    ax.set_xlabel("B − A, % of A's value (95% CI)")
    ax.legend(loc="lower left", fontsize=8)
    ax.set_title(style.title("What each house rule changes (the question's headline measure)",
                             "named questions", "paired games or hands, same deals on both sides"))
    return fig


def section(sizes: Sizes, seed: int = 1) -> Section:
    """The house-rule table with a paragraph naming the rules that matter."""
    table = house_rules_table(sizes, seed)
    matters = table[table["matters"]]
    text = (f"Of {len(table)} house-rule questions, {len(matters)} change their headline measure "
            "detectably at 95%: " + "; ".join(
                f"{r.question} ({r.measure} {r.diff:+.3g}, 95% CI {r.diff_lo:+.3g} to {r.diff_hi:+.3g})"
                for r in matters.itertuples()) + ". ")
    quiet = table[~table["matters"]]
    if len(quiet):
        text += ("No detectable change: " + ", ".join(quiet["question"]) + ". ")
    text += ("Each question plays both rule sets on the same deals, which narrowed the intervals "
             f"{np.nanmedian(table['narrowing'].replace(np.inf, np.nan)):.1f}-fold (median) against "
             "independent runs.")
    return Section("Which house rules matter", text, tables={"house_rules": table},
                   figures={"house_rules": plot_house_rules(table)})
