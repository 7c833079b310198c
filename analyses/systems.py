"""Single deck, double deck, five-handed ...: the rule systems side by side.

Dealt-hand odds for every system (``simcore.odds``, exact beside simulated where known); full-hand
measures where the system plays full hands (``simcore.simulate``, heuristic players); game length
where it has game rules (``simcore.games``). Points are shown as shares of the hand's trick points so
systems on different scales compare.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import style
from analyses.section import Section, Sizes
from simcore.events import EventError, parse_event
from simcore.games import GameRulesError, play_games
from simcore.odds import simulate_odds
from simcore.simulate import parse_policies, simulate
from simcore.variants import load_variant, shipped_ids

#: Dealt-hand events compared across systems (per hand, "1 in N").
EVENTS = ("double-pinochle", "run", "aces-around", "roundhouse", "five-nines")


def system_row(variant_id: str, sizes: Sizes, seed: int = 1) -> dict:
    """One system's row: deck and table, per-hand rates of ``EVENTS`` (NaN where the deck cannot
    hold them), and where playable the make rate, mean bid and meld as shares of the trick points,
    and hands per game."""
    v = load_variant(variant_id)
    row: dict = {"variant": v.id, "players": v.players, "deck": v.deck_size, "hand": v.hand_size,
                 "trick_points": v.trick_total}
    events = []
    for name in EVENTS:
        row[name] = row[name + "_lo"] = row[name + "_hi"] = math.nan
        if name == "five-nines" and not v.deck_copies[5::6].any():  # no nines in this deck
            continue
        try:
            events.append(parse_event(name, v))
        except EventError:
            continue
    if events:
        frame = simulate_odds(v, events, sizes.dealt, seed, exact=False).to_frame()
        for r in frame.itertuples():
            row[r.event] = r.per_hand
            row[r.event + "_lo"], row[r.event + "_hi"] = r.per_hand_lo, r.per_hand_hi
    for key in ("make_rate", "make_lo", "make_hi", "bid_share", "side_meld_share", "hands_per_game"):
        row[key] = math.nan
    if v.get("auction.kind") not in (None, "none"):
        result = simulate(v, sizes.played, seed, parse_policies("heuristic", v.players))
        made, means = result.rates()["made"], result.means()
        row.update(make_rate=made.estimate, make_lo=made.lo, make_hi=made.hi,
                   bid_share=means["bid"].estimate / v.trick_total,
                   side_meld_share=means["side_meld"].estimate / v.trick_total)
    try:
        games = play_games(v, sizes.games, seed, parse_policies("heuristic", v.players))
        row["hands_per_game"] = games.means()["hands"].estimate
    except GameRulesError:
        pass
    return row


def systems_table(sizes: Sizes, seed: int = 1, variants: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per system (see :func:`system_row`)."""
    return pd.DataFrame([system_row(v, sizes, seed) for v in (variants or shipped_ids())])


def plot_systems(table: pd.DataFrame, hands: int) -> Figure:
    """Per-hand "1 in N" of the rare melds, one group of bars per system, log scale."""
    fig, ax = style.new_figure(size=(9.0, 0.42 * len(table) + 1.8))
    t = table.sort_values(["deck", "players"])
    y = np.arange(len(t))
    height = 0.8 / len(EVENTS)
    for i, name in enumerate(EVENTS):
        one_in = 1 / t[name].where(t[name] > 0)
        ax.barh(y + (i - len(EVENTS) / 2 + 0.5) * height, one_in, height=height, label=name,
                color=style.PALETTE[i])
    ax.set_xscale("log")
    ax.set_yticks(y, [f"{r.variant} ({r.deck} cards, {r.players} × {r.hand})" for r in t.itertuples()])
    ax.set_xlabel("one hand in N holds it (log scale; no bar: impossible or never seen)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    ax.set_title(style.title("Rare melds per hand across the rule systems", "every system",
                             f"{hands:,} hands each"))
    return fig


def section(sizes: Sizes, seed: int = 1, variants: Sequence[str] | None = None) -> Section:
    """The systems side by side, with a paragraph on the extremes."""
    table = systems_table(sizes, seed, variants)
    dp = table[table["double-pinochle"] > 0].sort_values("double-pinochle")  # NaN and unseen drop out
    text = ""
    if len(dp):
        lo, hi = dp.iloc[0], dp.iloc[-1]
        text += (f"Double pinochle is rarest in {lo.variant} (one hand in {1 / lo['double-pinochle']:,.0f}) "
                 f"and commonest in {hi.variant} (one hand in {1 / hi['double-pinochle']:,.0f}). ")
    played = table.dropna(subset=["make_rate"])
    if len(played):
        text += ("Where full hands are played, the heuristic bidder's side makes its contract from "
                 f"{played['make_rate'].min():.0%} ({played.loc[played['make_rate'].idxmin(), 'variant']}) "
                 f"to {played['make_rate'].max():.0%} ({played.loc[played['make_rate'].idxmax(), 'variant']})"
                 " of the time.")
    return Section("The systems side by side", text, tables={"systems": table},
                   figures={"systems": plot_systems(table, sizes.dealt)})
