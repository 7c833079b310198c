"""How bold should the heuristic bid? A duel of two partnerships on identical deals.

Seats 0 and 2 bid with a margin (a share of the hand's trick points added to the heuristic's bidding
limit; > 0 bolder), seats 1 and 3 with a base margin (the rules' own); then the teams swap
seats and replay the same deals, which cancels any advantage of position. The measure is what the
margin earns: team points per hand, the margin team's minus the base team's, averaged over the two
seatings, with a 95% interval from the per-deal paired differences.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore import hand as h
from simcore.simulate import hand_records, parse_policies
from simcore.stats import Z95, wilson
from simcore.variants import Variant


class DuelError(ValueError):
    """Rules the duel cannot tune: it needs two partnerships of two."""


def check_duel(variant: Variant) -> None:
    """Raise :class:`DuelError` for rules the duel cannot tune."""
    if variant.players != 4 or variant.get("teams.kind") != "partners_across" or variant.get("auction.kind") == "none":
        raise DuelError(f"{variant.id}: the duel needs four players in two partnerships who bid (a duel of one "
                        "seat against the rest, for systems where each plays for himself, is not built yet)")


def _team_scores(rec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(seats 0 and 2, seats 1 and 3): each hand's score for the two partnerships."""
    even_bids = rec[:, h.F_BIDDER] % 2 == 0
    side, other = rec[:, h.F_SIDE_SCORE], rec[:, h.F_OTHER_SCORE]
    return np.where(even_bids, side, other), np.where(even_bids, other, side)


def margin_duel(variant: Variant, margins: Sequence[float], hands: int, seed: int = 1,
                base: float | None = None) -> pd.DataFrame:
    """One row per margin: ``gain`` (points per hand the margin team scores over the team bidding
    with margin ``base``, by default the rules' ``policy.margin``; with ``gain_lo``/``gain_hi``), the
    share of contracts it wins and its make rate (with intervals)."""
    check_duel(variant)
    if base is None:
        base = variant.get("policy.margin")
    policies = parse_policies("heuristic", 4)
    rows = []
    for m in margins:
        first = hand_records(variant, hands, seed, policies, np.array([m, base, m, base]))
        second = hand_records(variant, hands, seed, policies, np.array([base, m, base, m]))
        a1, b1 = _team_scores(first)
        b2, a2 = _team_scores(second)
        diff = ((a1 - b1) + (a2 - b2)) / 2.0
        half = Z95 * diff.std(ddof=1) / math.sqrt(len(diff))
        bids = np.concatenate([first[:, h.F_BIDDER] % 2 == 0, second[:, h.F_BIDDER] % 2 == 1])
        made = np.concatenate([first[:, h.F_MADE], second[:, h.F_MADE]])[bids]
        share, rate = wilson(int(bids.sum()), len(bids)), wilson(int((made == 1).sum()), len(made))
        rows.append({"margin": m, "hands": len(diff), "gain": diff.mean(), "gain_lo": diff.mean() - half,
                     "gain_hi": diff.mean() + half, "contracts": share.estimate, "make_rate": rate.estimate,
                     "make_lo": rate.lo, "make_hi": rate.hi})
    return pd.DataFrame(rows)


def tune_margin(variant: Variant, hands: int, seed: int = 1, step: float = 0.05,
                rounds: int = 12, start: float | None = None, on_duel=None) -> pd.DataFrame:
    """Search for a margin no nearby margin beats: from ``start`` (default: the rules' own margin), duel
    ``base ± step`` and ``base ± 2 step`` against ``base`` and move to the best while its whole interval
    is a gain. One row per duel, with the base it was played against. The answer is in the frame's
    ``attrs``: ``margin``, and ``settled`` (False when ``rounds`` ran out while the base still moved).
    ``on_duel`` is called with each round's rows as they finish (a long search shows its progress)."""
    base = variant.get("policy.margin") if start is None else start
    path = []
    settled = False
    for _ in range(rounds):
        duel = margin_duel(variant, [round(base + k * step, 6) for k in (-2, -1, 1, 2)], hands, seed, base)
        duel.insert(0, "base", base)
        path.append(duel)
        if on_duel is not None:
            on_duel(duel)
        best = duel.loc[duel["gain"].idxmax()]
        if best["gain_lo"] <= 0:
            settled = True
            break
        base = round(float(best["margin"]), 6)
    out = pd.concat(path, ignore_index=True)
    out.attrs.update(margin=base, settled=settled)
    return out
