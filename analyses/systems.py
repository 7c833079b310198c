"""Single deck, double deck, five-handed ...: the rule systems side by side.

Dealt-hand odds for every system (``simcore.answers.odds``, exact beside simulated where known); full-hand
measures where the system plays full hands (``simcore.answers.simulate``, heuristic players); game length
where it has game rules (``simcore.answers.game_results``). Points are shown as shares of the hand's trick points so
systems on different scales compare.
"""

from __future__ import annotations

import math
import textwrap
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
    row: dict = {
        "variant": v.id,
        "players": v.players,
        "deck": v.deck_size,
        "hand": v.hand_size,
        "trick_points": v.trick_total,
    }
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
    for key in (
        "make_rate",
        "make_lo",
        "make_hi",
        "bid_share",
        "side_meld_share",
        "hands_per_game",
        "mean_bid",
        "mean_side_meld",
        "mean_side_tricks",
    ):
        row[key] = math.nan
    if v.get("auction.kind") not in (None, "none"):
        result = simulate(v, sizes.played, seed, parse_policies("heuristic", v.players))
        made, means = result.rates()["made"], result.means()
        row.update(
            make_rate=made.estimate,
            make_lo=made.lo,
            make_hi=made.hi,
            bid_share=means["bid"].estimate / v.trick_total,
            side_meld_share=means["side_meld"].estimate / v.trick_total,
            mean_bid=means["bid"].estimate,
            mean_side_meld=means["side_meld"].estimate,
        )
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


#: Each compared event's marker in :func:`plot_systems`.
MARKERS = ("o", "s", "D", "^", "v")


def plot_systems(table: pd.DataFrame, hands: int) -> Figure:
    """Per-hand "1 in N" of the rare melds (:data:`EVENTS`, exact where known, else simulated: a hollow
    marker) as dots on a log scale, one row per way of dealing (deck, players × cards): systems that
    deal alike share a row, since the odds of a dealt hand depend on nothing else."""
    from analyses.names import event_name

    shapes = (
        table.sort_values(["deck", "players", "variant"])
        .groupby(["deck", "players", "hand"], sort=False)["variant"]
        .apply(list)
        .reset_index()
    )
    shapes = shapes.iloc[::-1].reset_index(drop=True)  # drawn from the bottom up: the smallest deck on top
    fig, ax = style.new_figure(size=(9.0, 0.55 * len(shapes) + 2.0))
    first = table.set_index("variant")
    y = np.arange(len(shapes))
    for i, name in enumerate(EVENTS):
        colour = style.PALETTE[i]
        exact_x, exact_y, sim_x, sim_y = [], [], [], []
        for yy, r in zip(y, shapes.itertuples()):
            row = first.loc[r.variant[0]]
            exact, est = row[f"{name}_exact"], row[name]
            if not fmt.missing(exact) and exact > 0:
                exact_x.append(1 / exact)
                exact_y.append(yy)
            elif not fmt.missing(est) and est > 0:
                sim_x.append(1 / est)
                sim_y.append(yy)
        ax.plot(
            exact_x, exact_y, MARKERS[i], color=colour, ms=7, mec="black", mew=0.4, ls="none", label=event_name(name)
        )
        ax.plot(sim_x, sim_y, MARKERS[i], color=colour, mfc="white", ms=7, mew=1.2, ls="none")
    ax.set_xscale("log")
    ax.set_xlim(1, None)
    labels = [
        f"{r.deck} cards, {r.players} × {r.hand}\n" + textwrap.fill(", ".join(r.variant), 48, break_on_hyphens=False)
        for r in shapes.itertuples()
    ]
    ax.set_yticks(y, labels, fontsize=7.5)
    ax.set_ylim(-0.6, len(shapes) - 0.4)
    ax.set_xlabel(
        "one dealt hand in N holds it (log scale; hollow: simulated, no exact value;\n"
        "no mark: impossible in that deck, or never dealt in the simulation)"
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="meld or hand", title_fontsize=8)
    ax.set_title(
        style.title("How rare each meld is, by how the cards are dealt", "every system", f"{hands:,} hands each"),
        loc="left",
    )
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
    "simulated players bidding as boldly as pays best in that system, 95% interval in brackets. **Hands a "
    "game** — hands played in an average game by those players. Odds are exact where they can be counted"
    "{approx}. A cell says why when a value does not apply."
)
#: What the legend adds when a cell of the table is simulated, not exact.
APPROX = "; ≈ marks a simulated value, with its 95% interval in brackets where it shows"


def display_table(table: pd.DataFrame) -> str:
    """The systems side by side as a player compares them (the CSV keeps every raw column)."""
    rows = []
    for _, r in table.sort_values(["deck", "players"]).iterrows():
        no_nines = fmt.missing(r["five-nines"]) and fmt.missing(r["five-nines_exact"])
        if not fmt.missing(r["redeal"]) or not fmt.missing(r["redeal_exact"]):
            redeal = _odds(r, "redeal", "_deal") + " deals"
        else:
            redeal = "no redeal rule"
        rows.append(
            {
                "system": r["variant"],
                "deck, hands": f"{r['deck']}, {r['players']} × {r['hand']}",
                "double pinochle, a hand": _odds(r, "double-pinochle"),
                "double pinochle, a deal": _odds(r, "double-pinochle", "_deal"),
                "five nines, a hand": "no nines in the deck" if no_nines else _odds(r, "five-nines"),
                "redeal": redeal,
                "bidder makes": (
                    "no auction"
                    if fmt.missing(r["make_rate"])
                    else fmt.pct(r["make_rate"], r["make_lo"], r["make_hi"], decimals=0)
                ),
                "hands a game": (
                    "no game rules" if fmt.missing(r["hands_per_game"]) else fmt.number(r["hands_per_game"], 2)
                ),
            }
        )
    shown = fmt.markdown_table(rows)
    return shown + "\n\n" + LEGEND.format(approx=APPROX if "≈" in shown else "")


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

        text += f"Double pinochle is rarest in {lo.variant} ({odds(lo)}) and commonest in {hi.variant} ({odds(hi)}). "
    played = table.dropna(subset=["make_rate"])
    if len(played):
        lo, hi = played.loc[played["make_rate"].idxmin()], played.loc[played["make_rate"].idxmax()]
        text += (
            "Where full hands are played, the simulated bidder's side makes its contract from "
            f"{fmt.pct(lo['make_rate'], lo['make_lo'], lo['make_hi'], decimals=0)} ({lo['variant']}) to "
            f"{fmt.pct(hi['make_rate'], hi['make_lo'], hi['make_hi'], decimals=0)} ({hi['variant']}) of the time."
        )
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
            f"where the side takes {fmt.pct(takes / tt, decimals=0)} on average. "
            + _boldness(r["margin"], tt)
            + f" Bidders make {fmt.pct(r['make_rate'], r['make_lo'], r['make_hi'], decimals=0)}."
        )
    low, high = rows.iloc[0], rows.iloc[-1]
    return (
        f"**Why do bidders make {fmt.pct(low['make_rate'], decimals=0)} of their contracts in {low['variant']} but "
        f"{fmt.pct(high['make_rate'], decimals=0)} in {high['variant']}?** The make rate is not a target. The "
        "simulated players bid as boldly as pays best in each system: two partnerships that differ only in how "
        "boldly they bid play many thousands of hands against each other, and the boldness is moved until "
        "neither a bolder nor a more cautious partnership scores more points a hand (docs/policies.md). The "
        "make rate is wherever that best boldness lands. What decides it is how much of the contract the meld "
        "already covers and how much is left to win in the play, on each system's own scale:\n\n"
        + "\n".join(lines)
        + "\n\n"
        "Where the side must take about as many trick points as it usually does, any bad split of the cards "
        "sets it, yet bidding boldly still scores more points a hand than holding back: about half the "
        "contracts fail at the best boldness. Where the meld covers most of the contract and the side needs "
        "far fewer trick points than it usually takes, caution pays and nearly every contract is made. "
        "Scales differ (single points against tens), so compare the shares, not the raw points."
    )


def _boldness(margin: float, trick_points: float) -> str:
    """How boldly a system's simulated players bid, in points: their tuned margin (a share of the trick
    points) above or below what they expect their hand to take."""
    points = fmt.number(abs(margin) * trick_points, 2)
    if margin > 0:
        return (
            f"Its players bid up to about {points} points beyond what they expect the hand to take "
            f"({abs(margin):.2f} of the trick points)."
        )
    if margin < 0:
        return (
            f"Its players stop about {points} points short of what they expect the hand to take "
            f"({abs(margin):.2f} of the trick points)."
        )
    return "Its players bid up to what they expect the hand to take."


def section(sizes: Sizes, seed: int = 1, variants: Sequence[str] | None = None) -> Section:
    """The systems side by side, with a paragraph on the extremes."""
    table = systems_table(sizes, seed, variants)
    return Section(
        "The systems side by side",
        systems_paragraph(table),
        tables={"systems": table},
        figures={"systems": plot_systems(table, sizes.dealt)},
        display={"systems": display_table(table)},
        captions={
            "systems": "How rare each meld is in one dealt hand, by deck and hand size (systems "
            "that deal alike share a row)"
        },
    )
