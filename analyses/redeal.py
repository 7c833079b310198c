"""How often do we redeal? The five-nines hand per hand, per deal and per game, in every system.

Per hand and per deal come from dealing alone (``simcore.answers.odds``, exact values beside). Per game is
measured by playing whole games where the system has a redeal rule and game rules; elsewhere it is
estimated as (redeal deals per deal) × (deals per game), marked as an estimate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyses import fmt, style
from analyses.section import Section, Sizes
from simcore.answers.game_results import play_games
from simcore.answers.odds import simulate_odds
from simcore.kernels.events import EventError, parse_event
from simcore.kernels.policies import parse_policies
from simcore.variants import NotForThisSystem, Variant, load_variant, shipped_ids

COLUMNS = (
    "variant",
    "has_rule",
    "event",
    "per_hand",
    "per_hand_lo",
    "per_hand_hi",
    "per_hand_exact",
    "per_deal",
    "per_deal_lo",
    "per_deal_hi",
    "per_deal_exact",
    "per_game",
    "per_game_lo",
    "per_game_hi",
    "per_game_kind",
)


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
    row = {
        "variant": variant.id,
        "has_rule": has_rule,
        "event": event.name,
        **{
            k: odds[k]
            for k in (
                "per_hand",
                "per_hand_lo",
                "per_hand_hi",
                "per_hand_exact",
                "per_deal",
                "per_deal_lo",
                "per_deal_hi",
                "per_deal_exact",
            )
        },
    }
    row.update(per_game=math.nan, per_game_lo=math.nan, per_game_hi=math.nan, per_game_kind="")
    try:
        result = play_games(variant, games, seed, parse_policies("heuristic", variant.players))
    except NotForThisSystem:
        return row
    redeals = result.means()["redeals"]
    if has_rule:
        row.update(per_game=redeals.estimate, per_game_lo=redeals.lo, per_game_hi=redeals.hi, per_game_kind="played")
    else:  # what the rule would cost: deals per game times the chance a deal would be thrown in
        deals = result.means()["hands"]
        row.update(
            per_game=deals.estimate * row["per_deal"],
            per_game_lo=deals.lo * row["per_deal_lo"],
            per_game_hi=deals.hi * row["per_deal_hi"],
            per_game_kind="estimated",
        )
    return row


def redeal_table(
    variants: Sequence[str] | None = None, hands: int = 4_000_000, games: int = 20_000, seed: int = 1
) -> pd.DataFrame:
    """One row per system with nines (columns ``COLUMNS``); shares are per hand, per deal, and
    redeals per game."""
    rows = [redeal_row(load_variant(v), hands, games, seed) for v in (variants or shipped_ids())]
    return pd.DataFrame([r for r in rows if r is not None], columns=list(COLUMNS))


def plot_redeals(table: pd.DataFrame, hands: int) -> Figure:
    """Per-deal rate of each system: solid bars where the system throws the deal in by its own rule,
    hatched bars where it has no redeal rule and the bar shows how often a five-nines hand is dealt
    (what such a rule would cost). 95% intervals as error bars; a legend says which is which."""
    from matplotlib.patches import Patch

    t = table.sort_values("per_deal")
    fig, ax = style.new_figure(size=(8.0, 0.34 * len(t) + 1.9))
    y = np.arange(len(t))
    rule = t["has_rule"].to_numpy(bool)
    for mask, colour, hatch in ((rule, style.PALETTE[0], None), (~rule, "white", "///")):
        if mask.any():
            ax.barh(
                y[mask],
                t["per_deal"].to_numpy()[mask] * 100,
                color=colour,
                hatch=hatch,
                edgecolor=style.PALETTE[1] if hatch else colour,
                linewidth=0.8,
                xerr=[
                    (t["per_deal"] - t["per_deal_lo"]).to_numpy()[mask] * 100,
                    (t["per_deal_hi"] - t["per_deal"]).to_numpy()[mask] * 100,
                ],
                capsize=3,
            )
    for yy, r in zip(y, t.itertuples()):
        label = f"{100 * r.per_deal:.1f}%" if r.per_deal >= 0.0005 else "under 0.1%"
        ax.text(r.per_deal_hi * 100, yy, f"  {label}", va="center", fontsize=8)
    ax.set_yticks(y, [f"{v}" + ("" if r else " (no redeal rule)") for v, r in zip(t["variant"], rule)], fontsize=8)
    ax.margins(x=0.12)
    ax.set_xlabel("% of deals")
    ax.legend(
        handles=[
            Patch(color=style.PALETTE[0], label="thrown in by the system's own redeal rule"),
            Patch(
                facecolor="white",
                edgecolor=style.PALETTE[1],
                hatch="///",
                label="no redeal rule: deals with a 5+ nines hand\n(what such a rule would cost)",
            ),
        ],
        loc="lower right",
        fontsize=8,
        frameon=True,
    )
    ax.set_title(
        style.title(
            "How often a deal is thrown in (or would be, under a 5+ nines rule)",
            "every system with nines",
            f"{hands:,} hands each",
        ),
        loc="left",
    )
    return fig


def redeal_paragraph(variant: Variant, row: dict, games: int) -> str:
    """The redeal answer in words: the exact value leads where known."""
    what = (
        "its redeal rule ("
        + ("5+ nines and no meld" if variant.redeal_require_no_meld else f"{variant.redeal_min_nines}+ nines")
        + ")"
        if row["has_rule"]
        else "a five-nines hand (the system has no redeal rule)"
    )

    def share(est: str, lo: str, hi: str, exact: str) -> str:
        sim = fmt.pct(row[est], row[lo], row[hi])
        if not fmt.missing(row[exact]):
            return f"{fmt.pct(row[exact], decimals=3)} exactly (simulated {sim})"
        return f"{sim} (simulated; no exact value is known)"

    per_deal = row["per_deal_exact"] if not fmt.missing(row["per_deal_exact"]) else row["per_deal"]
    text = (
        f"In {variant.id}, {what} comes up in "
        f"{share('per_hand', 'per_hand_lo', 'per_hand_hi', 'per_hand_exact')} of hands, so in about one "
        f"deal in {1 / per_deal:,.0f}: {share('per_deal', 'per_deal_lo', 'per_deal_hi', 'per_deal_exact')} "
        "of deals."
    )
    if row["per_game_kind"] == "played":
        text += (
            f" Over {games:,} whole games played, that is "
            f"{fmt.value(row['per_game'], row['per_game_lo'], row['per_game_hi'], digits=2)} redeals a game."
        )
    elif row["per_game_kind"] == "estimated":
        text += (
            f" Were the rule played, a game would see about {fmt.number(row['per_game'], 2)} redeals "
            "(the deals per game times the share of deals thrown in)."
        )
    return text


def display_row(row: dict) -> str:
    """The redeal row as a person reads it."""

    def cell(est: str, lo: str, hi: str, exact: str) -> str:
        if not fmt.missing(row[exact]):
            return fmt.pct(row[exact], decimals=3) + " (exact)"
        return "≈ " + fmt.pct(row[est], row[lo], row[hi])

    game = (
        ""
        if row["per_game_kind"] == ""
        else fmt.value(row["per_game"], row["per_game_lo"], row["per_game_hi"], digits=2)
        + (" (played)" if row["per_game_kind"] == "played" else " (estimate: no such rule is played)")
    )
    out = {
        "hand counted": "redeal hand (own rule)" if row["has_rule"] else "five nines (no redeal rule)",
        "per hand": cell("per_hand", "per_hand_lo", "per_hand_hi", "per_hand_exact"),
        "per deal": cell("per_deal", "per_deal_lo", "per_deal_hi", "per_deal_exact"),
    }
    if game:
        out["redeals a game"] = game
    return fmt.markdown_table([out])


def section(variant: Variant, sizes: Sizes, seed: int = 1) -> Section:
    """The redeal answer for one system, with its row as a table."""
    row = redeal_row(variant, sizes.dealt, sizes.games, seed)
    if row is None:
        return Section(
            "How often we redeal", f"{variant.id} is played without nines, so no five-nines hand can be dealt."
        )
    table = pd.DataFrame([row], columns=list(COLUMNS))
    return Section(
        "How often we redeal",
        redeal_paragraph(variant, row, sizes.games),
        tables={"redeal": table},
        display={"redeal": display_row(row)},
    )
