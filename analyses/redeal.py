"""How often do we redeal? The five-nines hand per hand, per deal and per game, in every system.

Per hand and per deal come from dealing alone (``simcore.odds``, exact values beside). Per game is
measured by playing whole games where the system has a redeal rule and game rules; elsewhere it is
estimated as (redeal deals per deal) × (deals per game), marked as an estimate.
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
from simcore.simulate import parse_policies
from simcore.variants import Variant, load_variant, shipped_ids

COLUMNS = ("variant", "has_rule", "event", "per_hand", "per_hand_lo", "per_hand_hi", "per_hand_exact",
           "per_deal", "per_deal_lo", "per_deal_hi", "per_deal_exact", "per_game", "per_game_lo",
           "per_game_hi", "per_game_kind")


def redeal_row(variant: Variant, hands: int, games: int, seed: int) -> dict | None:
    """One system's row: its own redeal rule where it has one, else the five-nines hand (5+ nines);
    None for decks without nines. ``per_game_kind`` says whether per game was played or estimated."""
    if not variant.deck_copies[5::6].any():  # types 5, 11, 17, 23 are the nines
        return None
    has_rule = variant.redeal_min_nines > 0
    try:
        event = parse_event("redeal" if has_rule else "five-nines", variant)
    except EventError:
        return None
    odds = simulate_odds(variant, [event], hands, seed).to_frame().iloc[0].to_dict()
    row = {"variant": variant.id, "has_rule": has_rule, "event": event.name, **{
        k: odds[k] for k in ("per_hand", "per_hand_lo", "per_hand_hi", "per_hand_exact", "per_deal",
                             "per_deal_lo", "per_deal_hi", "per_deal_exact")}}
    row.update(per_game=math.nan, per_game_lo=math.nan, per_game_hi=math.nan, per_game_kind="")
    try:
        result = play_games(variant, games, seed, parse_policies("heuristic", variant.players))
    except GameRulesError:
        return row
    redeals = result.means()["redeals"]
    if has_rule:
        row.update(per_game=redeals.estimate, per_game_lo=redeals.lo, per_game_hi=redeals.hi,
                   per_game_kind="played")
    else:  # what the rule would cost: deals per game times the chance a deal would be thrown in
        deals = result.means()["hands"]
        row.update(per_game=deals.estimate * row["per_deal"], per_game_lo=deals.lo * row["per_deal_lo"],
                   per_game_hi=deals.hi * row["per_deal_hi"], per_game_kind="estimated")
    return row


def redeal_table(variants: Sequence[str] | None = None, hands: int = 4_000_000, games: int = 20_000,
                 seed: int = 1) -> pd.DataFrame:
    """One row per system with nines (columns ``COLUMNS``); shares are per hand, per deal, and
    redeals per game."""
    rows = [redeal_row(load_variant(v), hands, games, seed) for v in (variants or shipped_ids())]
    return pd.DataFrame([r for r in rows if r is not None], columns=list(COLUMNS))


def plot_redeals(table: pd.DataFrame, hands: int) -> Figure:
    """Per-deal redeal rate of each system ("1 in N" deals), interval as error bars."""
    fig, ax = style.new_figure()
    t = table.sort_values("per_deal")
    y = np.arange(len(t))
    colours = [style.PALETTE[0] if r else style.PALETTE[1] for r in t["has_rule"]]
    ax.barh(y, t["per_deal"] * 100, color=colours,
            xerr=[(t["per_deal"] - t["per_deal_lo"]) * 100, (t["per_deal_hi"] - t["per_deal"]) * 100],
            capsize=3)
    ax.set_yticks(y, [f"{v} ({'its rule' if r else '5+ nines'})" for v, r in zip(t["variant"], t["has_rule"])])
    ax.set_xlabel("deals thrown in (% of deals)")
    ax.set_title(style.title("How often a deal is thrown in: the system's own rule, or 5+ nines where "
                             "it has none", "every system with nines", f"{hands:,} hands each"))
    return fig


def section(variant: Variant, sizes: Sizes, seed: int = 1) -> Section:
    """The redeal answer for one system, with every system's table beside it."""
    row = redeal_row(variant, sizes.dealt, sizes.games, seed)
    if row is None:
        return Section("How often we redeal", f"{variant.id} is played without nines, so no five-nines "
                       "hand can be dealt.")
    what = ("its redeal rule (" + ("5+ nines and no meld" if variant.redeal_require_no_meld else
                                   f"{variant.redeal_min_nines}+ nines") + ")"
            if row["has_rule"] else "a five-nines hand (the system has no redeal rule)")
    text = (f"In {variant.id}, {what} comes up in {row['per_hand']:.3%} of hands "
            f"(95% CI {row['per_hand_lo']:.3%}–{row['per_hand_hi']:.3%}"
            + (f"; exact {row['per_hand_exact']:.3%}" if not math.isnan(row["per_hand_exact"]) else "")
            + f"), so about one deal in {1 / row['per_deal']:,.0f} "
            f"({row['per_deal']:.3%} of deals, 95% CI {row['per_deal_lo']:.3%}–{row['per_deal_hi']:.3%}).")
    if row["per_game_kind"] == "played":
        text += (f" Over whole games of {sizes.games:,} played, that is {row['per_game']:.2f} redeals a game "
                 f"(95% CI {row['per_game_lo']:.2f}–{row['per_game_hi']:.2f}).")
    elif row["per_game_kind"] == "estimated":
        text += (f" Were the rule played, a game would see about {row['per_game']:.2f} redeals "
                 f"({row['per_game_lo']:.2f}–{row['per_game_hi']:.2f}; estimated from the deals per game).")
    table = pd.DataFrame([row], columns=list(COLUMNS))
    return Section("How often we redeal", text, tables={"redeal": table})
