"""Single deck, double deck, five-handed ...: the rule systems side by side.

Dealt-hand odds for every system (``simcore.answers.odds``, exact beside simulated where known); full-hand
measures where the system plays full hands (``simcore.answers.simulate``, heuristic players); game length
where it has game rules (``simcore.answers.game_results``). Points are shown as shares of the hand's trick points so
systems on different scales compare.
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
from simcore.answers.simulate import simulate
from simcore.kernels.events import EventError, parse_event
from simcore.kernels.policies import parse_policies
from simcore.variants import NotForThisSystem, load_variant, shipped_ids

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
    names = EVENTS + (("redeal",) if v.redeal_min_nines > 0 else ())
    for name in EVENTS + ("redeal",):
        for suffix in ("", "_lo", "_hi", "_exact", "_deal", "_deal_lo", "_deal_hi", "_deal_exact"):
            row[name + suffix] = math.nan
    for name in names:
        if name == "five-nines" and not v.deck_copies[5::6].any():  # no nines in this deck
            continue
        try:
            events.append(parse_event(name, v))
        except EventError:
            continue
    if events:
        frame = simulate_odds(v, events, sizes.dealt, seed).to_frame()
        for r in frame.itertuples():
            row[r.event] = r.per_hand
            row[r.event + "_lo"], row[r.event + "_hi"] = r.per_hand_lo, r.per_hand_hi
            row[r.event + "_exact"] = r.per_hand_exact
            row[r.event + "_deal"] = r.per_deal
            row[r.event + "_deal_lo"], row[r.event + "_deal_hi"] = r.per_deal_lo, r.per_deal_hi
            row[r.event + "_deal_exact"] = r.per_deal_exact
    row["min_bid"] = v.get("auction.min_bid") if v.get("auction.kind") is not None else math.nan
    row["margin"] = v.get("policy.margin")
    row["scale"] = math.nan if v.get("scale") is None else v.get("scale")
    for key in ("make_rate", "make_lo", "make_hi", "bid_share", "side_meld_share", "hands_per_game", "mean_bid",
                "mean_side_meld", "mean_side_tricks"):
        row[key] = math.nan
    if v.get("auction.kind") not in (None, "none"):
        result = simulate(v, sizes.played, seed, parse_policies("heuristic", v.players))
        made, means = result.rates()["made"], result.means()
        row.update(make_rate=made.estimate, make_lo=made.lo, make_hi=made.hi,
                   bid_share=means["bid"].estimate / v.trick_total,
                   side_meld_share=means["side_meld"].estimate / v.trick_total,
                   mean_bid=means["bid"].estimate, mean_side_meld=means["side_meld"].estimate)
        if "side_tricks" in means:
            row["mean_side_tricks"] = means["side_tricks"].estimate
    try:
        games = play_games(v, sizes.games, seed, parse_policies("heuristic", v.players))
        row["hands_per_game"] = games.means()["hands"].estimate
    except NotForThisSystem:
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


def _odds(row: pd.Series, name: str, suffix: str = "") -> str:
    p, lo, hi = row[name + suffix], row[name + suffix + "_lo"], row[name + suffix + "_hi"]
    exact = row[name + suffix + "_exact"]
    if not fmt.missing(exact):
        return fmt.one_in(exact)
    return "≈ " + fmt.one_in_interval(p, lo, hi)


LEGEND = (
    "Columns: **deck, hands** — cards in the deck, players × cards each. **Double pinochle** (two Q♠ and two "
    "J♦) — the odds that one dealt hand holds it, and that at least one hand of the deal does. **Five "
    "nines** — one hand holds five or more nines. **Redeal** — how often a deal is thrown in by the "
    "system's own redeal rule. **Bidder makes** — the share of contracts the bidding side makes, "
    "heuristic players at the system's tuned margin, 95% interval in brackets. **Hands a game** — hands "
    "played in an average game by those players. Odds are exact where combinatorics gives them; ≈ marks a "
    "simulated value, with its 95% interval in brackets where it shows. A cell says why when a value does "
    "not apply.")


def display_table(table: pd.DataFrame) -> str:
    """The systems side by side as a player compares them (the CSV keeps every raw column)."""
    rows = []
    for _, r in table.sort_values(["deck", "players"]).iterrows():
        no_nines = fmt.missing(r["five-nines"]) and fmt.missing(r["five-nines_exact"])
        if not fmt.missing(r["redeal"]) or not fmt.missing(r["redeal_exact"]):
            redeal = _odds(r, "redeal", "_deal") + " deals"
        else:
            redeal = "no redeal rule"
        rows.append({
            "system": r["variant"], "deck, hands": f"{r['deck']}, {r['players']} × {r['hand']}",
            "double pinochle, a hand": _odds(r, "double-pinochle"),
            "double pinochle, a deal": _odds(r, "double-pinochle", "_deal"),
            "five nines, a hand": "no nines in the deck" if no_nines else _odds(r, "five-nines"),
            "redeal": redeal,
            "bidder makes": ("no auction" if fmt.missing(r["make_rate"]) else
                             fmt.pct(r["make_rate"], r["make_lo"], r["make_hi"], decimals=0)),
            "hands a game": ("no game rules" if fmt.missing(r["hands_per_game"]) else
                             fmt.number(r["hands_per_game"], 2)),
        })
    return fmt.markdown_table(rows) + "\n\n" + LEGEND


def systems_paragraph(table: pd.DataFrame) -> str:
    """The extremes in words, exact values leading."""
    text = ""
    dp = table.copy()
    dp["dp"] = dp["double-pinochle_exact"].where(dp["double-pinochle_exact"].notna(), dp["double-pinochle"])
    dp = dp[dp["dp"] > 0].sort_values("dp")
    if len(dp):
        lo, hi = dp.iloc[0], dp.iloc[-1]

        def odds(r: pd.Series) -> str:
            exact = not fmt.missing(r["double-pinochle_exact"])
            return f"one hand in {1 / r['dp']:,.0f}" + (" exactly" if exact else ", simulated")

        text += (f"Double pinochle is rarest in {lo.variant} ({odds(lo)}) and commonest in {hi.variant} "
                 f"({odds(hi)}). ")
    played = table.dropna(subset=["make_rate"])
    if len(played):
        lo, hi = played.loc[played["make_rate"].idxmin()], played.loc[played["make_rate"].idxmax()]
        text += ("Where full hands are played, the heuristic bidder's side makes its contract from "
                 f"{fmt.pct(lo['make_rate'], lo['make_lo'], lo['make_hi'], decimals=0)} ({lo['variant']}) to "
                 f"{fmt.pct(hi['make_rate'], hi['make_lo'], hi['make_hi'], decimals=0)} ({hi['variant']}) of the time.")
    return text


def make_rate_explained(table: pd.DataFrame) -> str:
    """Why one system's bidders make far fewer contracts than another's, in words from measured
    quantities: the average winning bid, the share of it the side's meld covers, what is left to take
    in tricks against what the side takes on average, and the tuned margin (systems with an auction)."""
    rows = table.dropna(subset=["make_rate"]).sort_values("make_rate")
    if len(rows) < 2:
        return ""
    lines = []
    for _, r in rows.iterrows():
        tt = r["trick_points"]
        need = max(r["mean_bid"] - r["mean_side_meld"], 0.0)
        takes = r["mean_side_tricks"]
        lines.append(
            f"- **{r['variant']}** counts in {'single points' if r['scale'] == 1 else 'tens'}, {tt:.0f} trick "
            f"points a hand. The winning bid averages {fmt.number(r['mean_bid'], 3)} (the minimum is "
            f"{r['min_bid']:.0f}); the bidding side's meld, {fmt.number(r['mean_side_meld'], 3)}, covers "
            f"{fmt.pct(min(r['mean_side_meld'] / r['mean_bid'], 1), decimals=0)} of it, leaving "
            f"{fmt.number(need, 3)} to take in tricks: {fmt.pct(need / tt, decimals=0)} of the trick points, "
            f"where the side takes {fmt.pct(takes / tt, decimals=0)} on average. Tuned margin "
            f"{r['margin']:+.2f} of the trick points "
            f"({'bolder' if r['margin'] > 0 else 'more cautious' if r['margin'] < 0 else 'no bolder'} than "
            f"the hand valuation). Bidders make {fmt.pct(r['make_rate'], r['make_lo'], r['make_hi'], decimals=0)}.")
    low, high = rows.iloc[0], rows.iloc[-1]
    return (
        f"**Why do bidders make {fmt.pct(low['make_rate'], decimals=0)} of their contracts in {low['variant']} but "
        f"{fmt.pct(high['make_rate'], decimals=0)} in {high['variant']}?** The make rate is not a target. Each "
        "system's bidding margin is tuned by duels until neither partnership gains points per hand by bidding a "
        "step bolder or more cautiously (docs/policies.md); the make rate is where that equilibrium lands. "
        "What decides it is how much of the contract the meld already covers and how much is left to win in "
        "the play, on each system's own scale:\n\n"
        + "\n".join(lines) + "\n\n"
        "Where the side must take about as many trick points as it usually does, any bad split of the cards "
        "sets it, and the duels still found bolder bidding to gain points per hand: about half the "
        "contracts fail at that equilibrium. Where the meld covers most of the contract and the side needs "
        "far fewer trick points than it usually takes, the duels found caution to pay and nearly every "
        "contract is made. Scales differ (single points against tens), so compare the shares, not the "
        "raw points.")


def section(sizes: Sizes, seed: int = 1, variants: Sequence[str] | None = None) -> Section:
    """The systems side by side, with a paragraph on the extremes."""
    table = systems_table(sizes, seed, variants)
    return Section("The systems side by side", systems_paragraph(table), tables={"systems": table},
                   figures={"systems": plot_systems(table, sizes.dealt)},
                   display={"systems": display_table(table)})
