"""How rare is each meld? "1 in N" odds of the catalogue's dealt-hand events, simulated beside exact.

Conventions (those of :mod:`simcore.answers.odds`):

* **per hand**: the share of dealt hands that hold the event, before trump is named and before any
  pass or widow (the widow never counts);
* **per deal**: the share of deals in which at least one player's hand holds it;
* "1 in N" is 1 / probability: the exact probability where :mod:`simcore.answers.exact` knows it, else the
  simulated estimate (NaN when the event was never dealt and has no exact value).

Every share is a probability in [0, 1] with its 95% interval (``_lo``, ``_hi``); per-hand intervals
allow for the hands of one deal not being independent. Exact values are NaN where unknown (per deal
they are known only when two hands can never hold the event at once).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.names import event_name
from analyses.section import Section, Sizes
from simcore.answers.odds import simulate_odds
from simcore.kernels.events import CATALOGUE, EventError, parse_event
from simcore.variants import Variant, load_variant, shipped_ids

#: The columns of :func:`rare_meld_table`, in order.
COLUMNS = (
    "event",
    "per_hand",
    "per_hand_lo",
    "per_hand_hi",
    "per_hand_exact",
    "one_in_hand",
    "per_deal",
    "per_deal_lo",
    "per_deal_hi",
    "per_deal_exact",
    "one_in_deal",
)


def _one_in(exact: float, estimate: float) -> float:
    """1 / the exact probability where known and positive, else 1 / the estimate (NaN at 0)."""
    if not math.isnan(exact) and exact > 0:
        return 1.0 / exact
    if not math.isnan(estimate) and estimate > 0:
        return 1.0 / estimate
    return math.nan


def rare_meld_table(variant: Variant, hands: int, seed: int) -> pd.DataFrame:
    """One row per catalogue event that can happen under ``variant``, from ``hands`` dealt hands
    (whole deals, so slightly more when ``hands`` is not a multiple of the players) seeded by ``seed``.

    Columns :data:`COLUMNS`: probabilities per hand and per deal with 95% bounds, their exact values
    (NaN where unknown) and ``one_in_hand`` / ``one_in_deal`` ("1 in N", exact where known). Events
    that ``parse_event`` refuses for the variant are left out, and so are events whose exact per-hand
    probability is 0 under its rules (five nines in a deck without nines, a redeal rule the system
    does not have): they do not apply.
    """
    events = []
    for name in CATALOGUE:
        try:
            events.append(parse_event(name, variant))
        except EventError:
            continue
    result = simulate_odds(variant, events, hands, seed, exact=True)
    frame = result.to_frame()
    frame = frame[~(frame["per_hand_exact"] == 0)].reset_index(drop=True)
    frame["one_in_hand"] = [_one_in(x, p) for x, p in zip(frame["per_hand_exact"], frame["per_hand"])]
    frame["one_in_deal"] = [_one_in(x, p) for x, p in zip(frame["per_deal_exact"], frame["per_deal"])]
    frame = frame.reindex(columns=list(COLUMNS)).astype({c: float for c in COLUMNS[1:]})
    frame.attrs["hands"] = result.hands  # hands actually dealt: whole deals
    frame.attrs["players"] = variant.players
    return frame


def all_systems_table(hands: int, seed: int, variants: Iterable[str] | None = None) -> pd.DataFrame:
    """:func:`rare_meld_table` for every shipped system (or the ids in ``variants``), ``hands`` dealt
    hands each, stacked with a ``variant`` column first."""
    ids = list(shipped_ids() if variants is None else variants)
    parts = []
    for vid in ids:
        table = rare_meld_table(load_variant(vid), hands, seed)
        table.insert(0, "variant", vid)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def plot_rare_melds(table: pd.DataFrame, variant_id: str, hands: int) -> Figure:
    """Horizontal bars of "1 in N" hands (log axis), commonest at the top, with the simulation's 95%
    interval as error bars and the exact value as a black diamond where known. An event never dealt
    in the simulation has no bar: its interval starts at the smallest N the simulation allows (a tick)
    and runs off the right edge (an arrow). The column on the right gives the exact odds
    where known, else the simulated ones (≈)."""
    rows = table.sort_values("one_in_hand", na_position="last").reset_index(drop=True)
    fig, ax = style.new_figure(size=(8.0, 0.32 * len(rows) + 1.8))
    y = np.arange(len(rows))[::-1]
    est = rows["per_hand"].to_numpy(float)
    sim_one_in = np.where(est > 0, 1.0 / np.where(est > 0, est, 1.0), np.nan)
    lo_one_in = 1.0 / rows["per_hand_hi"].to_numpy(float)  # the fewest hands per event the interval allows
    with np.errstate(divide="ignore"):
        hi_one_in = 1.0 / rows["per_hand_lo"].to_numpy(float)  # inf when the event was never dealt
    exact_one_in = 1.0 / rows["per_hand_exact"].to_numpy(float)
    finite = np.concatenate([sim_one_in, lo_one_in, hi_one_in, exact_one_in])
    finite = finite[np.isfinite(finite)]
    right = 10 ** math.ceil(math.log10(max(finite.max(), 10.0)) + 0.35)
    seen = ~np.isnan(sim_one_in)
    ax.barh(y[seen], sim_one_in[seen] - 1.0, left=1.0, height=0.6, color=style.PALETTE[0], label="simulated")
    hi_drawn = np.where(np.isfinite(hi_one_in), hi_one_in, right)
    centre = np.where(seen, sim_one_in, lo_one_in)
    ax.errorbar(
        centre,
        y,
        xerr=[centre - lo_one_in, hi_drawn - centre],
        fmt="none",
        ecolor=style.PALETTE[7],
        elinewidth=1.0,
        capsize=3,
        label="95% interval",
    )
    never = ~seen
    if never.any():
        ax.plot(lo_one_in[never], y[never], "|", color=style.PALETTE[7], markersize=9)
        for yy in y[never]:
            ax.annotate(
                "", xy=(right, yy), xytext=(right / 1.6, yy), arrowprops={"arrowstyle": "->", "color": style.PALETTE[7]}
            )
    known = np.isfinite(exact_one_in)
    ax.plot(
        exact_one_in[known],
        y[known],
        "D",
        color=style.PALETTE[1],
        markeredgecolor="black",
        markersize=6,
        label="exact",
        zorder=3,
    )
    for yy, val, ex in zip(y, sim_one_in, exact_one_in):
        if np.isfinite(ex):
            label = one_in_text(1.0 / ex)
        elif np.isfinite(val):
            label = "≈ " + one_in_text(1.0 / val)
        else:
            label = "not dealt"
        ax.text(1.02, yy, label, va="center", ha="left", fontsize=8, transform=ax.get_yaxis_transform())
    simulated_only = bool((~np.isfinite(exact_one_in) & np.isfinite(sim_one_in)).any())
    ax.text(
        1.02,
        len(rows) - 0.4,
        "odds per hand" + ("\n(≈ simulated)" if simulated_only else ""),
        va="bottom",
        ha="left",
        fontsize=8,
        fontweight="bold",
        transform=ax.get_yaxis_transform(),
    )
    ax.set_xscale("log")
    ax.set_xlim(1.0, right)
    ax.set_yticks(y, [event_name(e) for e in rows["event"]])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("N: the event is held in one dealt hand in N (log scale)")
    ax.set_ylabel("event in one dealt hand")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title(
        style.title("How rare is each meld? One dealt hand in N holds it", variant_id, f"{hands:,} hands dealt"),
        loc="left",
    )
    fig.tight_layout()  # also when shown without style.save (notebooks)
    return fig


def one_in_text(p: float) -> str:
    """A probability as "1 in N": whole numbers from 100 up, three significant digits below."""
    if not p > 0:
        return "never"
    n = 1.0 / p
    return f"1 in {n:,.0f}" if n >= 100 else f"1 in {n:.3g}"


def _odds_text(estimate: float, lo: float, hi: float, exact: float, unit: str) -> str:
    """'1 in X <unit> exactly (simulated: 1 in N, 95% interval 1 in A to 1 in B)' from probabilities;
    without an exact value the simulated odds lead."""
    sim = fmt.one_in_interval(estimate, lo, hi)
    if not math.isnan(exact):
        return f"{one_in_text(exact)} {unit} exactly (simulated: {sim})"
    lead = f"{one_in_text(estimate)} {unit}" if estimate > 0 else f"none of the simulated {unit}"
    return f"{lead} (simulated, 95% interval in brackets: {sim}; no exact value is known)"


def double_pinochle_paragraph(table: pd.DataFrame, variant: Variant, hands: int) -> str:
    """Markdown answering "how often is double pinochle dealt?" from a :func:`rare_meld_table`."""
    events = table.set_index("event")
    head = (
        f"**How often is double pinochle dealt?** Under {variant.id} ({variant.players} players, "
        f"{variant.hand_size} cards each from a deck of {variant.deck_size})"
    )
    if "double-pinochle" not in events.index:
        return head + ", double pinochle is not among the events that can be dealt."
    row = events.loc["double-pinochle"]
    per_hand = _odds_text(row["per_hand"], row["per_hand_lo"], row["per_hand_hi"], row["per_hand_exact"], "hands")
    per_deal = _odds_text(row["per_deal"], row["per_deal_lo"], row["per_deal_hi"], row["per_deal_exact"], "deals")
    why = "" if not math.isnan(row["per_deal_exact"]) else " The per-deal odds are simulated only."
    rarest = table.loc[table["one_in_hand"].idxmax()]
    common = table.loc[table["one_in_hand"].idxmin()]
    return (
        f"{head}, a dealt hand holds double pinochle (two Q♠ and two J♦) in {per_hand}. "
        f"At least one player at the table holds it in {per_deal}.{why} "
        f"From {hands:,} simulated hands; the table lists every event, from the commonest, "
        f"{event_name(common['event'])} ({one_in_text(1 / common['one_in_hand'])} hands), to the rarest, "
        f"{event_name(rarest['event'])} ({one_in_text(1 / rarest['one_in_hand'])} hands)."
    )


#: From this probability up, odds read as a share ("59%"), not as "1 in 1.7"; from ALMOST_ALWAYS up,
#: "almost always (99%)".
COMMON = 0.5
ALMOST_ALWAYS = 0.95
#: Up to this probability per deal, a rare event's per-deal odds are its exact per-hand odds times the
#: players where no exact per-deal value is known: two hands of one deal holding it is rarer by a
#: further factor of about this much, far below the digits printed.
RARE_PER_DEAL = 1e-3
#: The mark of a per-deal value computed from the exact per-hand odds, and what it means.
FROM_HAND_MARK = "†"


def from_hand_note(players: int) -> str:
    """What :data:`FROM_HAND_MARK` means, for ``players`` hands a deal."""
    return (
        f"{FROM_HAND_MARK} the exact odds of one hand times the {players} hands of a deal (two hands of "
        "one deal holding it is rarer still, far below the digits shown)."
    )


def odds_cell(p: float, lo: float, hi: float, exact: float) -> str:
    """ "1 in 393" where the exact value is known, else "≈ 1 in 391 [383–398]" (simulated); an event
    that happens more often than not reads as a share ("59%", "almost always (99%)")."""
    known = not fmt.missing(exact)
    value = exact if known else p
    if not fmt.missing(value) and value >= COMMON:
        if not known and value >= 1 and not fmt.missing(lo):  # in every simulated one: how close to always
            return f"≈ almost always (over {fmt.pct(lo, decimals=_near_one(lo))})"
        # near 1, enough decimals that the share left out shows: 99.7%, not 100%
        d = _near_one(value) if value >= ALMOST_ALWAYS else None
        share = fmt.pct(exact, decimals=d) if known else fmt.pct(p, lo, hi, decimals=d)
        text = f"almost always ({share})" if value >= ALMOST_ALWAYS else share
        return text if known else "≈ " + text
    if known:
        return fmt.one_in(exact)
    return "≈ " + fmt.one_in_interval(p, lo, hi)


def _near_one(p: float) -> int:
    """Decimals of a percentage near 100% that show the share left out to one digit: 99.7%, 99.996%."""
    return max(1, -math.floor(math.log10(100 * (1 - p)))) if p < 1 else 1


def deal_cell(row, players: int) -> str:
    """The per-deal odds of a :func:`rare_meld_table` row: exact where known; for a rare event whose
    per-hand odds are exact, the hand odds times the players (marked :data:`FROM_HAND_MARK`), which
    the simulation could not measure; else simulated."""
    exact, hand = row.per_deal_exact, row.per_hand_exact
    if fmt.missing(exact) and not fmt.missing(hand) and 0 < players * hand <= RARE_PER_DEAL:
        return fmt.one_in(players * hand) + FROM_HAND_MARK
    return odds_cell(row.per_deal, row.per_deal_lo, row.per_deal_hi, exact)


def display_table(table: pd.DataFrame) -> str:
    """Every event as a player reads it: "1 in N" per hand and per deal, exact where known."""
    players = table.attrs["players"]
    rows = []
    for r in table.sort_values("one_in_hand").itertuples(index=False):
        help_text = CATALOGUE[r.event].help if r.event in CATALOGUE else ""
        rows.append(
            {
                "meld or hand": f"{event_name(r.event)} ({help_text})" if help_text else event_name(r.event),
                "in one dealt hand": odds_cell(r.per_hand, r.per_hand_lo, r.per_hand_hi, r.per_hand_exact),
                "in one deal (any player)": deal_cell(r, players),
            }
        )
    notes = (
        "\n\nExact odds are printed plainly; ≈ marks a simulated value, with its 95% interval in brackets "
        "where it shows. Per deal: at least one player at the table holds it."
    )
    if any(FROM_HAND_MARK in r["in one deal (any player)"] for r in rows):
        notes += " " + from_hand_note(players)
    return fmt.markdown_table(rows) + notes


def section(variant: Variant, sizes: Sizes, seed: int = 1) -> Section:
    """The "Rare melds" report section: the paragraph, the table and the chart, from ``sizes.dealt``
    hands."""
    table = rare_meld_table(variant, sizes.dealt, seed)
    hands = table.attrs.get("hands", sizes.dealt)
    return Section(
        title="Rare melds",
        text=double_pinochle_paragraph(table, variant, hands),
        tables={"rare_melds": table},
        figures={"rare_melds": plot_rare_melds(table, variant.id, hands)},
        display={"rare_melds": display_table(table)},
    )
