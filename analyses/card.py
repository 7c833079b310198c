"""A player's card per system: one page to print and pin on the wall.

The card gathers what a player at the table wants from the other analyses, for one rule system: the
bidding card (your meld as dealt → the highest bid made half the time and three times in four), the
system's meld values, the odds of every meld per hand and per deal as "1 in N" with the names players
use, how often the deal is thrown in, and the points scale in one sentence. It computes nothing of its
own: it reads the tables of the sections :func:`analyses.report.system_sections` already made
(``rare_melds``, ``redeal``, ``highest_bid``, ``rule_of_thumb``), so the card and the system's page
always agree. :func:`card_markdown` writes the page, :func:`plot_card` the one-page PNG / PDF.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import bid_strategy, fmt, rare_melds, style
from analyses.section import Section
from simcore.variants import Variant
from simcore.variants.schema import MULTIPLE_MELDS, MULTIPLICITY_PREFIXES

MELD_NAMES = {"run": "run (A-10-K-Q-J of trump)", "royal_marriage": "royal marriage (K-Q of trump)",
              "marriage": "marriage (K-Q of another suit)", "aces_around": "aces around",
              "kings_around": "kings around", "queens_around": "queens around", "jacks_around": "jacks around",
              "pinochle": "pinochle (Q♠ J♦)"}
TIMES = ("single", "double", "triple", "quadruple", "quintuple", "sextuple", "septuple", "octuple")
RANK_NAMES = ("A", "10", "K", "Q", "J", "9")


def meld_values(variant: Variant) -> pd.DataFrame:
    """The system's meld table: one row per meld, one column per multiplicity the deck allows
    (single, double ...), values in points on the system's scale; then the dix and any extras."""
    rows = []
    for base in MULTIPLE_MELDS:
        if base not in MELD_NAMES:
            continue
        row = {"meld": MELD_NAMES[base]}
        for i, prefix in enumerate(MULTIPLICITY_PREFIXES[: variant.copies]):
            row[TIMES[i]] = variant.get(f"meld.{prefix}{base}")
        rows.append(row)
    extras = [("dix (nine of trump), each", "meld.dix"), ("roundhouse bonus", "meld.roundhouse_bonus"),
              ("extra trump K beside a run", "meld.run_extra_king"),
              ("extra trump Q beside a run", "meld.run_extra_queen")]
    for name, key in extras:
        value = variant.get(key)
        if value:
            rows.append({"meld": name, "single": value})
    return pd.DataFrame(rows)


def scale_sentence(variant: Variant) -> str:
    """The points scale in one sentence."""
    points = variant.get("tricks.points") or []
    ranks = [r for r in RANK_NAMES if r in (variant.get("deck.ranks") or RANK_NAMES)]
    counted = ", ".join(f"{r} {p}" for r, p in zip(RANK_NAMES, points) if p and r in ranks)
    last = variant.get("tricks.last_trick")
    target = variant.get("game.target")
    unit = "tens" if variant.get("scale") == 10 else "single points"
    text = (f"{variant.id} counts in {unit}: in tricks {counted}" + (f", last trick {last}" if last else "")
            + f", {variant.trick_total} trick points a hand; meld as in the table")
    if variant.get("auction.min_bid"):
        text += f"; the minimum bid is {variant.get('auction.min_bid')}"
    if target:
        text += f"; a game goes to {target:,}"
    return text + "."


def _tables(sections: list[Section]) -> dict[str, pd.DataFrame]:
    out = {}
    for s in sections:
        out.update(s.tables)
    return out


def redeal_sentence(variant: Variant, tables: dict[str, pd.DataFrame]) -> str:
    """How often the deal is thrown in, in one sentence (exact where known), or why it never is."""
    if variant.redeal_min_nines <= 0:
        return f"{variant.id} has no redeal rule: every deal is played."
    t = tables.get("redeal")
    if t is None or t.empty:
        return f"{variant.id} has a redeal rule, but its deck has no nines, so it never fires."
    r = t.iloc[0]
    exact = not fmt.missing(r["per_deal_exact"])
    p = r["per_deal_exact"] if exact else r["per_deal"]
    rule = f"{variant.redeal_min_nines}+ nines" + (" and no meld" if variant.redeal_require_no_meld else "")
    text = (f"A deal is thrown in when one hand holds {rule}: {fmt.one_in(p)} deals, {fmt.pct(p, decimals=3)}"
            + (" exactly" if exact else " (simulated)"))
    if r["per_game_kind"] == "played":
        text += f"; about {fmt.number(r['per_game'], 2)} redeals a game"
    return text + "."


def bidding_rows(tables: dict[str, pd.DataFrame]) -> list[dict]:
    """The bidding card's rows (empty without an auction)."""
    t = tables.get("highest_bid")
    return [] if t is None or t.empty else bid_strategy.bidding_card(t)


def odds_rows(tables: dict[str, pd.DataFrame]) -> list[dict]:
    """Every meld's odds per hand and per deal, commonest first, names as players say them."""
    t = tables["rare_melds"].sort_values("one_in_hand")
    return [{"meld": rare_melds.human_name(r.event),
             "a hand": rare_melds.odds_cell(r.per_hand, r.per_hand_lo, r.per_hand_hi, r.per_hand_exact),
             "a deal": rare_melds.odds_cell(r.per_deal, r.per_deal_lo, r.per_deal_hi, r.per_deal_exact)}
            for r in t.itertuples(index=False)]


def _rule_text(tables: dict[str, pd.DataFrame]) -> str:
    r = tables.get("rule_of_thumb")
    if r is None or r.empty:
        return ""
    r = r.iloc[0]
    return (f"Rule of thumb: bid up to {fmt.number(r['a'], 3)} + {r['b']:.2f} × your meld as dealt; "
            f"single hands land within ±{fmt.number(r['hand_spread'], 2)} points of it half the time.")


def card_markdown(variant: Variant, sections: list[Section], page: str, png: str, pdf: str,
                  played_by: str) -> str:
    """The card page in Markdown."""
    tables = _tables(sections)
    value_rows = _value_rows(variant)
    lines = [f"# {variant.name}: a player's card", "",
             f"`{variant.id}` · {variant.description}. Printable: [PNG]({png}), [PDF]({pdf}); the full page: "
             f"[{page}]({page}).", "",
             f"**Points.** {scale_sentence(variant)}", "",
             f"**Redeal.** {redeal_sentence(variant, tables)}", "",
             "## Bidding card", ""]
    bidding = bidding_rows(tables)
    if bidding:
        lines += [f"Your meld as dealt (before any pass or widow) → the highest bid your side makes half the time "
                  f"and three times in four. {played_by}", "", fmt.markdown_table(bidding), "",
                  _rule_text(tables), "", f"![bidding card]({png})", ""]
    else:
        lines += [f"{variant.id} has no auction, so there is no bid to choose.", ""]
    lines += ["## Meld values", "", fmt.markdown_table(value_rows), "",
              "## How rare is each meld?", "",
              "In one dealt hand, and in one deal (at least one player holds it). Exact odds are printed plainly; "
              "≈ marks a simulated value.", "", fmt.markdown_table(odds_rows(tables)), ""]
    return "\n".join(lines)


def _value_rows(variant: Variant) -> list[dict]:
    """The meld values as strings; a multiplicity a meld does not have is left blank."""
    return [{k: ("" if fmt.missing(v) else str(v) if isinstance(v, str) else f"{int(v):,}") for k, v in row.items()}
            for row in meld_values(variant).to_dict(orient="records")]


def _table(ax, rows: list[dict], fontsize: float = 7.0, col_widths: list[float] | None = None) -> None:
    ax.axis("off")
    if not rows:
        return
    cols = list(rows[0])
    cells = [[str(r[c]) for c in cols] for r in rows]
    table = ax.table(cellText=cells, colLabels=cols, loc="upper center", cellLoc="center",
                     colWidths=col_widths)
    table.auto_set_font_size(False)
    table.set_fontsize(fontsize)
    table.scale(1.0, 1.15)
    for (i, _j), cell in table.get_celld().items():
        cell.set_edgecolor("#bbbbbb")
        cell.set_linewidth(0.4)
        if i == 0:
            cell.set_facecolor("#e8eef5")
            cell.set_text_props(fontweight="bold")


def _thin(rows: list[dict], most: int) -> list[dict]:
    """At most ``most`` rows, evenly spread (the printed card keeps to one page)."""
    if len(rows) <= most:
        return rows
    idx = np.unique(np.linspace(0, len(rows) - 1, most).round().astype(int))
    return [rows[i] for i in idx]


def plot_card(variant: Variant, sections: list[Section], played_by: str) -> Figure:
    """The card on one page (US letter, portrait): points and redeal in words, the bidding card as a
    table and a chart, the meld values and the odds of every meld."""
    tables = _tables(sections)
    fig, first = style.new_figure(size=(8.5, 11.0))
    first.remove()
    fig.text(0.04, 0.975, f"{variant.name}: a player's card", fontsize=15, fontweight="bold", va="top")
    fig.text(0.04, 0.950, textwrap.shorten(f"{variant.id} · {variant.description}", 130, placeholder=" …"),
             fontsize=8.5, va="top", color="#333333")
    words = [f"Points. {scale_sentence(variant)}", f"Redeal. {redeal_sentence(variant, tables)}"]
    rule = _rule_text(tables)
    if rule:
        words.append(rule)
    y = 0.93
    for w in words:
        wrapped = textwrap.fill(w, 120)
        fig.text(0.04, y, wrapped, fontsize=8.5, va="top")
        y -= 0.016 * (wrapped.count("\n") + 1) + 0.006
    grid = fig.add_gridspec(2, 2, left=0.06, right=0.97, top=y - 0.02, bottom=0.04, height_ratios=[1.05, 1],
                            hspace=0.22, wspace=0.18)
    bidding = bidding_rows(tables)
    if bidding:
        ax = fig.add_subplot(grid[0, 0])
        rows = _thin([{"meld": r["your meld as dealt"], "bid 50%": r["bid made 50% of the time"],
                       "bid 75%": r["bid made 75% of the time"]} for r in bidding], 22)
        _table(ax, rows, fontsize=7.5)
        ax.set_title("Bidding card: your meld → highest bid made", fontsize=9.5, loc="left")
        ax = fig.add_subplot(grid[0, 1])
        highest = bid_strategy.central_rows(tables["highest_bid"], tables["highest_bid"].attrs.get("bin_width", 1))
        for k, (q, label) in enumerate((("50", "made half the time"), ("75", "made 3 times in 4"))):
            ax.step(highest["meld_mean"], highest[f"bid_{q}"], where="mid", color=style.PALETTE[k], label=label)
        ax.axhline(variant.get("auction.min_bid"), color="grey", lw=0.8, ls=":", label="minimum bid")
        ax.set_xlabel("your meld as dealt (points)", fontsize=8)
        ax.set_ylabel("highest bid (points)", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7, loc="upper left")
        ax.set_title(textwrap.fill(played_by, 70), fontsize=7, loc="left", color="#333333")
    else:
        ax = fig.add_subplot(grid[0, :])
        ax.axis("off")
        ax.text(0.0, 0.9, f"{variant.id} has no auction, so there is no bid to choose.", fontsize=9)
    ax = fig.add_subplot(grid[1, 0])
    values = meld_values(variant)
    value_rows = _value_rows(variant)
    for r in value_rows:
        r["meld"] = r["meld"].split(" (")[0]
    others = len(values.columns) - 1
    _table(ax, value_rows, fontsize=7, col_widths=[0.34] + [0.66 / max(1, others)] * others)
    ax.set_title("Meld values (points)", fontsize=9.5, loc="left")
    ax = fig.add_subplot(grid[1, 1])
    odds = odds_rows(tables)
    for r in odds:
        r["a deal"] = r["a deal"].split(" (rarer")[0]
        r["a hand"] = r["a hand"].split(" (rarer")[0]
    _table(ax, odds, fontsize=6.5, col_widths=[0.36, 0.30, 0.34])
    ax.set_title("How rare: one in N (≈ simulated)", fontsize=9.5, loc="left")
    return style.laid_out(fig)
