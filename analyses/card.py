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

import math
import textwrap

import pandas as pd
from matplotlib.figure import Figure

from analyses import bid_strategy, fmt, rare_melds, redeal, strong_lines, style
from analyses.names import event_name, exchange_words, meld_name_with_cards
from analyses.section import Section, Sizes
from analyses.titles import description_line, system_title
from simcore.variants import Variant
from simcore.variants.schema import MULTIPLE_MELDS, MULTIPLICITY_PREFIXES

#: The melds of the card's meld table, in its order; each named with its cards (:mod:`analyses.names`).
TABLE_MELDS = (
    "run",
    "royal_marriage",
    "marriage",
    "aces_around",
    "kings_around",
    "queens_around",
    "jacks_around",
    "pinochle",
)
TIMES = ("single", "double", "triple", "quadruple", "quintuple", "sextuple", "septuple", "octuple")
RANK_NAMES = ("A", "10", "K", "Q", "J", "9")


def meld_values(variant: Variant) -> pd.DataFrame:
    """The system's meld table: one row per meld, one column per multiplicity the deck allows
    (single, double ...), values in points on the system's scale; then the dix and any extras."""
    rows = []
    for base in MULTIPLE_MELDS:
        if base not in TABLE_MELDS:
            continue
        row = {"meld": meld_name_with_cards(base)}
        for i, prefix in enumerate(MULTIPLICITY_PREFIXES[: variant.copies]):
            row[TIMES[i]] = variant.get(f"meld.{prefix}{base}")
        rows.append(row)
    extras = [
        ("dix (nine of trump), each", "meld.dix"),
        ("roundhouse bonus", "meld.roundhouse_bonus"),
        ("extra trump K beside a run", "meld.run_extra_king"),
        ("extra trump Q beside a run", "meld.run_extra_queen"),
    ]
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
    text = (
        f"{variant.id} counts in {unit}: in tricks {counted}"
        + (f", last trick {last}" if last else "")
        + f", {variant.trick_total} trick points a hand; meld as in the table"
    )
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
    text = f"A deal is thrown in when one hand holds {rule}: {fmt.one_in(p)} deals, {fmt.pct(p, decimals=3)}" + (
        " exactly" if exact else " (simulated)"
    )
    if r["per_game_kind"] == "played":
        text += f"; about {fmt.number(r['per_game'], 2)} redeals a game"
    return text + "."


def bidding_rows(tables: dict[str, pd.DataFrame]) -> list[dict]:
    """The bidding card's rows (empty without an auction)."""
    t = tables.get("highest_bid")
    return [] if t is None or t.empty else bid_strategy.bidding_card(t)


def odds_rows(variant: Variant, tables: dict[str, pd.DataFrame]) -> list[dict]:
    """Every meld's odds per hand and per deal, commonest first, names as players say them."""
    t = tables["rare_melds"].sort_values("one_in_hand")
    return [
        {
            "meld": event_name(r.event),
            "a hand": rare_melds.odds_cell(r.per_hand, r.per_hand_lo, r.per_hand_hi, r.per_hand_exact),
            "a deal": rare_melds.deal_cell(r, variant.players),
        }
        for r in t.itertuples(index=False)
    ]


def odds_notes(variant: Variant, rows: list[dict]) -> list[str]:
    """The notes under the odds table: what a deal is, ≈ where a cell has it, † where a cell has it."""
    cells = [r["a hand"] + r["a deal"] for r in rows]
    notes = ["A deal: at least one player at the table holds it."]
    if any("≈" in c for c in cells):
        notes.append("≈ simulated (95% interval in brackets where it shows); the rest are exact.")
    else:
        notes.append("Every value is exact.")
    if any(rare_melds.FROM_HAND_MARK in c for c in cells):
        notes.append(rare_melds.from_hand_note(variant.players))
    return notes


def bidding_notes(variant: Variant, tables: dict[str, pd.DataFrame], rows: list[dict]) -> list[str]:
    """The notes under the bidding card: which meld rows it shows, what "pass" and the pooled mark mean."""
    t = tables["highest_bid"]
    width = t.attrs.get("bin_width", 1)
    shown = (
        f"{len(rows)} rows, every meld from {rows[0]['your meld as dealt'].split('–')[0]} to "
        f"{rows[-1]['your meld as dealt'].split('–')[-1]} points" + (f" in steps of {width}" if width > 1 else "")
    )
    covered = sum(int(r["hands"].replace(",", "")) for r in rows) / t.attrs["bidders"] if "bidders" in t.attrs else None
    notes = [
        f"Rows: {shown}"
        + (f", the melds of {fmt.pct(covered)} of bidders" if covered else "")
        + f"; the melds beyond (under the 1st or over the 99th percentile, or a row of fewer than "
        f"{bid_strategy.MIN_HANDS} hands) are dealt too seldom to read a bid from."
    ]
    cells = [r[c] for r in rows for c in ("bid made 50% of the time", "bid made 75% of the time")]
    if any(c.startswith("pass") for c in cells):
        notes.append(bid_strategy.PASS_NOTE.format(min_bid=variant.get("auction.min_bid")))
    if any(bid_strategy.POOLED_MARK in c for c in cells):
        notes.append(bid_strategy.POOLED_NOTE)
    notes.append("[brackets]: the 95% range of the bid, where it differs from the bid.")
    return notes


def _rule_text(tables: dict[str, pd.DataFrame]) -> str:
    r = tables.get("rule_of_thumb")
    if r is None or r.empty:
        return ""
    r = r.iloc[0]
    return (
        f"Rule of thumb: bid up to {fmt.line(r['a'], r['b'], 'your meld as dealt')}; "
        f"single hands land within ±{fmt.number(r['hand_spread'], 2)} points of it half the time."
    )


def _strong_text(tables: dict[str, pd.DataFrame]) -> str:
    """The bidding line under strong play, where the system has a kept run (:mod:`analyses.strong_lines`)."""
    t, rule = tables.get("strong_line"), tables.get("rule_of_thumb")
    if t is None or t.empty:
        return ""
    return strong_lines.card_sentence(t, None if rule is None or rule.empty else rule.iloc[0])


#: The analyses a card reads, in order: (what it answers, its module, the size it spends: a field of
#: :class:`analyses.section.Sizes`, None for one that counts exactly or spends next to nothing).
CARD_ANALYSES = (
    ("how rare each meld is", rare_melds, "dealt"),
    ("how often the deal is thrown in", redeal, None),
    ("how high to bid", bid_strategy, "played"),
)
#: The size of a card made while a page waits (``pinochle serve``): about 10 to 20 s on one core once
#: compiled, against the report's default of 4,000,000 hands dealt and 200,000 played.
ON_DEMAND = Sizes(dealt=400_000, played=50_000, games=1_000)


def card_analyses(variant: Variant) -> list[tuple[str, object, str | None]]:
    """The entries of :data:`CARD_ANALYSES` that apply to ``variant`` (the bids only with an auction)."""
    auction = variant.get("auction.kind") not in (None, "none")
    return [a for a in CARD_ANALYSES if auction or a[1] is not bid_strategy]


def on_demand_note(sizes: Sizes, seed: int) -> str:
    """What a card made on demand says of its size, beside the report's."""
    full = Sizes()
    return (
        f"Made on demand at a small size, seed {seed}: {sizes.dealt:,} hands dealt for the odds and "
        f"{sizes.played:,} played out for the bids (the report's cards: {full.dealt:,} and {full.played:,}), "
        "so its bids' ranges are wider and more neighbouring rows are read together."
    )


def card_markdown(
    variant: Variant,
    sections: list[Section],
    page: str | None,
    png: str | None,
    pdf: str | None,
    played_by: str,
    made: str | None = None,
) -> str:
    """The card page in Markdown. ``page``, ``png``, ``pdf``: the files it links (None for a card made
    on demand, which links none); ``made``: how it was made, said under its title when given."""
    tables = _tables(sections)
    strong = _strong_text(tables)
    value_rows = _value_rows(variant)
    links = (
        f". Printable: [PNG]({png}), [PDF]({pdf}); the full page: [{page}]({page})." if page and png and pdf else "."
    )
    lines = [
        f"# {system_title(variant)}: a player's card",
        "",
        f"`{variant.id}` · {description_line(variant)}{links}",
        "",
        *([f"*{made}*", ""] if made else []),
        f"**Points.** {scale_sentence(variant)}",
        "",
        f"**Redeal.** {redeal_sentence(variant, tables)}",
        "",
        "## Bidding card",
        "",
    ]
    bidding = bidding_rows(tables)
    before = exchange_words(variant)
    if bidding:
        lines += [
            f"Your meld as dealt{f' (before {before})' if before else ''} → the highest bid your side makes half "
            f"the time and three times in four. {played_by}",
            "",
            fmt.markdown_table(bidding),
            "",
            *(x for n in bidding_notes(variant, tables, bidding) for x in (n, "")),
            _rule_text(tables),
            "",
            *([strong + f" From {strong_lines.run_text(tables['strong_line'].attrs['about'])}.", ""] if strong else []),
            *([f"![bidding card]({png})", ""] if png else []),
        ]
    else:
        lines += [f"{variant.id} has no auction, so there is no bid to choose.", ""]
    odds = odds_rows(variant, tables)
    lines += [
        "## Meld values",
        "",
        fmt.markdown_table(value_rows),
        "",
        "## How rare is each meld?",
        "",
        "In one dealt hand, and in one deal.",
        "",
        fmt.markdown_table(odds),
        "",
        " ".join(odds_notes(variant, odds)),
        "",
        "## How this was measured",
        "",
        f"The bidding card: {played_by} The odds: counted exactly where they can be, else from the hands "
        + (
            f"dealt for the full page. The method in a card player's words: the end of [{page}]({page})."
            if page
            else "dealt for the card. The method in a card player's words: the end of any system's page of the report."
        ),
        "",
    ]
    return "\n".join(lines)


def _value_rows(variant: Variant) -> list[dict]:
    """The meld values as strings; a multiplicity a meld does not have is left blank."""
    return [
        {k: ("" if fmt.missing(v) else str(v) if isinstance(v, str) else f"{int(v):,}") for k, v in row.items()}
        for row in meld_values(variant).to_dict(orient="records")
    ]


#: Height of a printed table row and of a line of small print, as fractions of the page's height.
ROW = 0.0152
LINE = 0.0118
#: The most bidding-card rows in one column before the table is split into columns side by side.
ROWS_PER_COLUMN = 18


def _table(ax, rows: list[dict], fontsize: float = 7.0, col_widths: list[float] | None = None) -> None:
    """``rows`` as a table filling ``ax`` (its height should be the rows' count plus one, times :data:`ROW`)."""
    ax.axis("off")
    if not rows:
        return
    cols = list(rows[0])
    cells = [[str(r[c]) for c in cols] for r in rows]
    table = ax.table(cellText=cells, colLabels=cols, cellLoc="center", colWidths=col_widths, bbox=[0, 0, 1, 1])
    table.auto_set_font_size(False)
    table.set_fontsize(fontsize)
    for (i, _j), cell in table.get_celld().items():
        cell.set_edgecolor("#bbbbbb")
        cell.set_linewidth(0.4)
        if i == 0:
            cell.set_facecolor("#e8eef5")
            cell.set_text_props(fontweight="bold")


def split_rows(rows: list[dict], most: int = ROWS_PER_COLUMN) -> list[list[dict]]:
    """``rows`` cut into as few columns as keep each to ``most`` rows, as even as can be; every row
    kept, in order."""
    if not rows:
        return []
    n = math.ceil(len(rows) / most)
    per = math.ceil(len(rows) / n)
    return [rows[i : i + per] for i in range(0, len(rows), per)]


def _small_print(fig: Figure, x: float, y: float, lines: list[str], width: int, fontsize: float = 7.0) -> float:
    """Write ``lines`` wrapped at ``width`` characters from (x, y) down; return the y below them."""
    for line in lines:
        wrapped = textwrap.fill(line, width)
        fig.text(x, y, wrapped, fontsize=fontsize, va="top", color="#333333")
        y -= LINE * fontsize / 7.0 * (wrapped.count("\n") + 1) + 0.003
    return y


def _bid_chart(ax, variant: Variant, tables: dict[str, pd.DataFrame], played_by: str) -> None:
    """The bidding card's two lines (the same pooled bids as its table) against meld as dealt."""
    highest = bid_strategy.central_rows(tables["highest_bid"], tables["highest_bid"].attrs.get("bin_width", 1))
    for k, (q, label) in enumerate((("50", "made half the time"), ("75", "made 3 times in 4"))):
        ax.step(
            highest["meld_mean"],
            highest[bid_strategy.pooled(highest, q)[0]],
            where="mid",
            color=style.PALETTE[k],
            label=label,
        )
    ax.axhline(variant.get("auction.min_bid"), color="grey", lw=0.8, ls=":", label="minimum bid")
    ax.set_xlabel("your meld as dealt (points)", fontsize=7.5)
    ax.set_ylabel("highest bid (points)", fontsize=7.5)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6.5, loc="upper left")
    ax.set_title(textwrap.fill(played_by, 48), fontsize=6.5, loc="left", color="#333333")


def plot_card(variant: Variant, sections: list[Section], played_by: str) -> Figure:
    """The card on one page (US letter, portrait): points and redeal in words; the bidding card, every
    row of it, in as many columns as it needs, with its notes and its chart; the meld values and the
    odds of every meld."""
    tables = _tables(sections)
    fig, first = style.new_figure(size=(8.5, 11.0))
    first.remove()
    left, right, gap = 0.05, 0.965, 0.025
    fig.text(left, 0.975, f"{system_title(variant)}: a player's card", fontsize=15, fontweight="bold", va="top")
    y = _small_print(fig, left, 0.948, [f"{variant.id} · {description_line(variant)}"], 135, fontsize=8.5) - 0.006
    words = [f"Points. {scale_sentence(variant)}", f"Redeal. {redeal_sentence(variant, tables)}"]
    rule = _rule_text(tables)
    if rule:
        words.append(rule)
    strong = _strong_text(tables)
    if strong:
        words.append(strong)
    for w in words:
        wrapped = textwrap.fill(w, 120)
        fig.text(left, y, wrapped, fontsize=8.5, va="top")
        y -= 0.0155 * (wrapped.count("\n") + 1) + 0.006
    bidding = bidding_rows(tables)
    chart_on_top = False
    if bidding:
        columns = split_rows(
            [
                {
                    "meld": r["your meld as dealt"],
                    "bid 50%": r["bid made 50% of the time"],
                    "bid 75%": r["bid made 75% of the time"],
                }
                for r in bidding
            ]
        )
        chart_on_top = len(columns) <= 2
        slots = len(columns) + (1 if chart_on_top else 0)
        width = (right - left - gap * (slots - 1)) / slots
        fig.text(
            left,
            y - 0.004,
            "Bidding card: your meld as dealt → the highest bid your side makes",
            fontsize=9.5,
            va="top",
        )
        y -= 0.026
        height = ROW * (max(len(c) for c in columns) + 1)
        for k, rows in enumerate(columns):
            _table(
                fig.add_axes((left + k * (width + gap), y - height, width, height)),
                rows,
                fontsize=7.0,
                col_widths=[0.3, 0.35, 0.35],
            )
        if chart_on_top:
            at = left + len(columns) * (width + gap) + 0.04  # beside the last column, one or two
            below = 0.02 if len(columns) == 1 else 0  # a wide column's chart title clears the heading
            ax = fig.add_axes((at, y - height + 0.035, width - 0.04, height - 0.045 - below))
            _bid_chart(ax, variant, tables, played_by)
        y = (
            _small_print(fig, left, y - height - 0.006, bidding_notes(variant, tables, bidding), 165, fontsize=6.8)
            - 0.012
        )
    else:
        fig.text(left, y, f"{variant.id} has no auction, so there is no bid to choose.", fontsize=9, va="top")
        y -= 0.03
    half = (right - left - gap) / 2
    value_rows = _value_rows(variant)
    for r in value_rows:
        r["meld"] = r["meld"].split(" (")[0]
    others = len(value_rows[0]) - 1
    fig.text(left, y, "Meld values (points)", fontsize=9.5, va="top")
    height = ROW * (len(value_rows) + 1)
    _table(
        fig.add_axes((left, y - 0.02 - height, half, height)),
        value_rows,
        fontsize=7,
        col_widths=[0.34] + [0.66 / max(1, others)] * others,
    )
    if bidding and not chart_on_top:
        top = y - 0.02 - height - 0.05
        ax = fig.add_axes((left + 0.05, 0.05, half - 0.05, top - 0.05))
        _bid_chart(ax, variant, tables, played_by)
    odds = odds_rows(variant, tables)
    fig.text(left + half + gap, y, "How often: one dealt hand, one deal", fontsize=9.5, va="top")
    height = ROW * (len(odds) + 1)
    _table(
        fig.add_axes((left + half + gap, y - 0.02 - height, half, height)),
        odds,
        fontsize=6.5,
        col_widths=[0.36, 0.30, 0.34],
    )
    _small_print(fig, left + half + gap, y - 0.02 - height - 0.006, odds_notes(variant, odds), 80, fontsize=6.8)
    return style.laid_out(fig)
