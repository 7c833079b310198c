"""``pinochle bid-odds``: P(the bidding side makes its bid), tabulated by the bid and by what the
bidder could see — his meld, the side's meld after the exchange, his trump length and his aces — and
jointly, P(make B | meld M) for every bid B and meld M (:data:`METHOD`).

Counts are summed per chunk into fixed tables (memory does not grow with the number of hands). Every
hand with a bidder counts: a throw-in, a set without play or a missing trump marriage is a bid not
made. Meld is in points on the variant's scale; trump length and aces are the bidder's after the
exchange (and widow).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from math import gcd

import numpy as np
import pandas as pd

from simcore.answers.conditioned import Acceptance, check_condition
from simcore.answers.simulate import run_hands
from simcore.kernels import hand_record as h
from simcore.kernels.auction_condition import condition_rows
from simcore.kernels.compiled import hand_rules
from simcore.kernels.condition import Condition
from simcore.kernels.hand_drivers import seat_margins
from simcore.kernels.policies import POLICY_NAMES, RANDOM
from simcore.run.stats import wilson
from simcore.variants import Variant
from simcore.variants import layout as lay

BINS = 1024
#: Tables: (name, record field, how its value maps to a bin).
TABLES = (
    ("bid", h.F_BID),
    ("bidder_meld", h.F_BIDDER_MELD),
    ("side_meld", h.F_SIDE_MELD),
    ("trump_length", h.F_TRUMP_LEN),
    ("aces", h.F_ACES),
)


def _units(variant: Variant) -> dict[str, tuple[int, int]]:
    """(origin, width) of each table's bins: bids from the minimum by the step, meld by the table's
    smallest common unit (1 or 10 points), counts by one."""
    table = variant.meld_table
    meld_unit = gcd(*[int(x) for x in table.ravel() if x] + [int(variant.meld_flags[0]) or 0]) or 1
    return {
        "bid": (variant.lowest_contract, variant.get("auction.step")),
        "bidder_meld": (0, meld_unit),
        "side_meld": (0, meld_unit),
        "trump_length": (0, 1),
        "aces": (0, 1),
    }


#: The joint table's axes: meld bins (of the table's meld unit, from 0; the last holds that meld or
#: more) and side-total bins (bin 0: below the lowest contract or not played; bin k ≥ 1: totals from
#: lowest + (k - 1) × width; the last holds that total or more, so bids up to its start are answered).
MELD_BINS = 256
TOTAL_BINS = 256
BASES = ("dealt", "after_exchange")
#: Per basis two histograms over (meld bin, total bin): every hand's side total, and each unplayed
#: hand's "stop" (the total bin of one below the lowest bid at which the rules would still have
#: stopped it unplayed: at higher bids it is a bid not made, at lower ones its fate is unknown).
JOINT_SIZE = len(BASES) * 2 * MELD_BINS * TOTAL_BINS

METHOD = (
    "A hand's side total (the bidding side's meld as kept plus its trick points as counted) is "
    "what it would take at any bid, so 'makes B' is 'side total >= B' for every bid B, not only "
    "the bid it was played at. Cells condition on the bidder's meld as dealt (in the trump he "
    "named) or on the side's meld after the pass or widow, binned as the by-meld tables bin them. "
    "Only hands the simulated players bid and played reach the table: hands where everybody "
    "passed have no bidder and are left out. A hand not played (thrown in, set without play, no "
    "trump marriage) counts as not making any bid; where the rules would have let it play at a "
    "lower bid its total there is unknown, and the cell counts such hands as 'unknown' (still "
    "not made: the estimate is a lower bound, by at most unknown / n)."
)


def meld_unit(variant: Variant) -> int:
    """The width of the by-meld tables' bins: the meld table's smallest common unit (1 or 10 points)."""
    return _units(variant)["bidder_meld"][1]


def bid_grid(variant: Variant) -> tuple[int, int]:
    """(lowest contract, width): every bid lies on lowest + k × width (the steps' common unit)."""
    step, step_from, step_after = (
        int(variant.get(k)) for k in ("auction.step", "auction.step_from", "auction.step_after")
    )
    return variant.lowest_contract, gcd(step, step_after) if step_from > 0 else step


def is_bid(variant: Variant, bid: int) -> bool:
    """True when ``bid`` is a contract the auction can reach: from the lowest contract by the step
    (past ``auction.step_from``, multiples of ``auction.step_after``)."""
    lo, step = variant.lowest_contract, int(variant.get("auction.step"))
    step_from, step_after = int(variant.get("auction.step_from")), int(variant.get("auction.step_after"))
    if bid < lo:
        return False
    if step_from > 0 and bid > step_from:
        return bid % step_after == 0
    return (bid - lo) % step == 0


def highest_bid(variant: Variant) -> int:
    """The highest bid the joint table answers (totals past it share the last bin)."""
    lo, width = bid_grid(variant)
    return lo + (TOTAL_BINS - 2) * width


def joint_params(variant: Variant, policies: np.ndarray) -> tuple[int, ...]:
    """The integers :func:`joint_tally` needs: the grids, the scoring of the kept meld and the rules
    that stop a hand unplayed, and which seats concede (heuristic ones, where the rules allow it)."""
    r = hand_rules(variant)
    lo, width = bid_grid(variant)
    meld_unit = _units(variant)["bidder_meld"][1]
    concede_at = -1
    if r.concede != 0:  # the kernel: short > trick total × 9 // 10 and short >= concede_short_by
        concede_at = max(r.trick_total * 9 // 10 + 1, r.concede_short_by)
    concedes = tuple(int(p != RANDOM) for p in np.asarray(policies))
    return (
        lo,
        width,
        meld_unit,
        r.save_meld,
        r.save_meld_points,
        r.min_meld_to_count,
        r.bid_added,
        r.set_if_short_by,
        r.min_meld_to_play,
        concede_at,
    ) + concedes


def side_totals(params: tuple[int, ...], rec: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(played, total, stop) for records with a bidder: whether the hand was played out; the bidding
    side's total (meld as kept + trick points as counted) where it was; for a hand not played, the
    lowest bid at which the rules would still have stopped it (a very low number: at any bid).
    See :func:`totals_and_stops`."""
    played, total, stop = totals_and_stops(params, rec)
    never = np.iinfo(np.int64).min // 4
    return played, np.where(played, total, never), np.where(played, never, np.minimum(stop, rec[:, h.F_BID]))


def totals_and_stops(params: tuple[int, ...], rec: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(played, total, stop) for records with a bidder: whether the hand was played out; the bidding
    side's total (meld as kept + trick points as counted, meaningful where played); and for every hand
    the lowest bid at which the rules (or a conceding heuristic bidder) stop it unplayed whatever its
    cards take: a very high number where nothing does, a very low one where it never plays. A played
    hand makes bid B when ``total >= B`` and ``B < stop``.

    A made hand's total is exact: its score less the bid where the bid is added. A set hand's is
    rebuilt from the record: its meld counts (from the minimum that counts) when the side saved it, read
    as "took a trick point" for ``save_meld = "trick"`` (the record has no trick count) and as its
    counted trick points reaching the minimum for ``"points"`` (buried points included); a dix kept in
    place of lost meld is not counted. It is capped at one below the bid, which it did not reach.
    """
    lo, _, _, save, save_points, min_count, bid_added, short_by, min_play, concede_at = params[:10]
    concedes = np.array(params[10:], dtype=np.bool_)
    bid, made, outcome = rec[:, h.F_BID], rec[:, h.F_MADE], rec[:, h.F_OUTCOME]
    meld = np.where(rec[:, h.F_SIDE_MELD] >= min_count, rec[:, h.F_SIDE_MELD], 0)
    tricks = rec[:, h.F_SIDE_TRICKS]
    # a contract the opponents conceded counts as played out with the least it was sure of: its bid, or its
    # meld where that is more (they concede only meld that needs no trick to count)
    conceded_to = outcome == h.CONCEDED_BY_OPPONENTS
    played = (outcome == h.PLAYED) | (outcome == h.DECLARED_OUT) | conceded_to
    if save == lay.SAVE_TRICK:
        saved = tricks > 0
    elif save == lay.SAVE_POINTS:
        saved = tricks >= save_points
    else:
        saved = np.ones(len(rec), dtype=np.bool_)
    set_total = np.minimum(np.where(saved, meld, 0) + tricks, bid - 1)
    total = np.where(made == 1, rec[:, h.F_SIDE_SCORE] - (bid if bid_added else 0), set_total)
    total = np.where(conceded_to, np.maximum(bid, meld), total)
    never = np.iinfo(np.int64).min // 4
    stop = np.full(len(rec), -never)
    if short_by > 0:
        stop = np.minimum(stop, meld + short_by + 1)
    if concede_at >= 0:
        heuristic = concedes[np.clip(rec[:, h.F_BIDDER], 0, len(concedes) - 1)]
        stop = np.where(heuristic, np.minimum(stop, meld + concede_at), stop)
    stop = np.where((meld < min_play) | (outcome == h.NO_TRUMP_MARRIAGE), never, stop)
    return played, total, stop


def joint_tally(params: tuple[int, ...], rec: np.ndarray) -> np.ndarray:
    """int64[JOINT_SIZE]: per basis (meld as dealt, side's meld after the exchange) the hands by (meld
    bin, side-total bin) and the unplayed ones by (meld bin, stop bin); see :func:`side_totals`."""
    lo, width, meld_unit = params[:3]
    rec = rec[rec[:, h.F_BIDDER] >= 0]
    _, total, stop = side_totals(params, rec)
    t_bin = np.clip((total - lo) // width + 1, 0, TOTAL_BINS - 1)
    s_bin = np.clip((stop - 1 - lo) // width + 1, 0, TOTAL_BINS - 1)
    unplayed = stop > np.iinfo(np.int64).min // 4
    out = np.zeros((len(BASES), 2, MELD_BINS * TOTAL_BINS), dtype=np.int64)
    for i, field in enumerate((h.F_BIDDER_MELD, h.F_SIDE_MELD)):
        m_bin = np.clip(rec[:, field] // meld_unit, 0, MELD_BINS - 1)
        out[i, 0] = np.bincount(m_bin * TOTAL_BINS + t_bin, minlength=MELD_BINS * TOTAL_BINS)
        out[i, 1] = np.bincount((m_bin * TOTAL_BINS + s_bin)[unplayed], minlength=MELD_BINS * TOTAL_BINS)
    return out.ravel()


def bid_odds_tally(units: dict[str, tuple[int, int]], params: tuple[int, ...], rec: np.ndarray) -> np.ndarray:
    """The one-way tables (:func:`bid_tally`) followed by the joint ones (:func:`joint_tally`)."""
    return np.concatenate([bid_tally(units, rec), joint_tally(params, rec)])


def joint_cells(joint: np.ndarray, lo: int, width: int, bids: list[int] | np.ndarray) -> dict[str, np.ndarray]:
    """From a joint tally int64[bases, 2, MELD_BINS, TOTAL_BINS] and bids on the grid (lo + k × width,
    k ≤ TOTAL_BINS - 2): int64[bases, MELD_BINS, bids] arrays ``n`` (hands), ``made`` (side total ≥
    bid) and ``unknown`` (counted as not made, their fate at that bid not known)."""
    k = (np.asarray(bids, dtype=np.int64) - lo) // width
    # suffix sums over the total bins: at[..., j] = hands in bins ≥ j
    at = np.cumsum(joint[..., ::-1], axis=-1)[..., ::-1]
    n = joint[:, 0].sum(axis=-1)
    return {
        "n": np.repeat(n[:, :, None], len(k), axis=2),
        "made": at[:, 0][..., k + 1],
        "unknown": at[:, 1][..., k + 1],
    }


def bid_tally(units: dict[str, tuple[int, int]], rec: np.ndarray) -> np.ndarray:
    """int64[tables * 2 * BINS]: per table, hands with a bidder and hands made, by bin (see :func:`_units`)."""
    out = np.zeros((len(TABLES), 2, BINS), dtype=np.int64)
    rec = rec[rec[:, h.F_BIDDER] >= 0]
    made = rec[:, h.F_MADE] == 1
    for i, (name, field) in enumerate(TABLES):
        origin, width = units[name]
        bins = np.clip((rec[:, field] - origin) // width, 0, BINS - 1)
        out[i, 0] = np.bincount(bins, minlength=BINS)
        out[i, 1] = np.bincount(bins[made], minlength=BINS)
    return out.ravel()


@dataclass(frozen=True)
class BidOdds:
    variant: Variant
    seed: int
    policies: tuple[str, ...]
    hands: int
    requested: int
    tally: np.ndarray  # [table, made?, bin]
    joint: np.ndarray | None = None  # [basis, hands | unplayed stops, meld bin, total bin]
    margins: tuple[float, ...] = ()
    acceptance: Acceptance | None = None
    calls: tuple[int, ...] = ()

    @property
    def interrupted(self) -> bool:
        return self.hands < self.requested

    def table(self, name: str) -> pd.DataFrame:
        """One row per value seen: hands, made, P(make) with its 95% Wilson interval."""
        i = [t[0] for t in TABLES].index(name)
        origin, width = _units(self.variant)[name]
        total, made = self.tally[i, 0], self.tally[i, 1]
        rows = []
        for b in np.nonzero(total)[0]:
            iv = wilson(int(made[b]), int(total[b]))
            rows.append(
                {
                    name: origin + int(b) * width,
                    "hands": int(total[b]),
                    "made": int(made[b]),
                    "p_make": iv.estimate,
                    "lo": iv.lo,
                    "hi": iv.hi,
                }
            )
        return pd.DataFrame(rows, columns=[name, "hands", "made", "p_make", "lo", "hi"])

    def tables(self) -> dict[str, pd.DataFrame]:
        return {name: self.table(name) for name, _ in TABLES}

    @property
    def policy(self) -> str:
        """The seats' policy: one name when all play alike, else one per seat."""
        return self.policies[0] if len(set(self.policies)) == 1 else ",".join(self.policies)

    @property
    def meld_unit(self) -> int:
        return _units(self.variant)["bidder_meld"][1]

    def meld_bin(self, meld: int) -> int:
        """The joint table's bin of a meld total (the last bin holds that meld or more)."""
        return min(meld // self.meld_unit, MELD_BINS - 1)

    def meld_label(self, b: int) -> str:
        """How a meld bin reads: its meld (every meld total is a multiple of the table's unit, so a bin
        holds one total); ``2550 or more`` for the last."""
        low = b * self.meld_unit
        return f"{low} or more" if b == MELD_BINS - 1 else str(low)

    def bids(self) -> list[int]:
        """Every bid of the joint table: the auction's bids from the lowest contract up to the highest
        side total seen (and at least the highest bid played), within :func:`highest_bid`."""
        lo, width = bid_grid(self.variant)
        if self.joint is None:
            return []
        seen = np.nonzero(self.joint[:, 0].sum(axis=(0, 1)))[0]
        bid_seen = np.nonzero(self.tally[0, 0])[0]
        top_bin = max(
            [
                int(seen.max()) - 1 if len(seen) else 0,
                int(bid_seen.max()) * _units(self.variant)["bid"][1] // width if len(bid_seen) else 0,
            ]
        )
        top = min(lo + max(top_bin, 0) * width, highest_bid(self.variant))
        return [b for b in range(lo, top + 1, width) if is_bid(self.variant, b)]

    def joint_table(self, basis: str | None = None, bid: int | None = None, meld: int | None = None) -> pd.DataFrame:
        """P(make B | meld M), one row per (basis, bid, meld bin with hands): the bidding side's total
        reaching B (:data:`METHOD`), with its 95% Wilson interval, the hands it rests on (``n``), those
        made and those ``unknown`` (not played, counted as not made). ``basis``, ``bid`` and ``meld``
        keep one basis, one bid, one meld's bin (with no hands, the row is still given, n = 0)."""
        columns = ["basis", "bid", "meld", "meld_bin", "n", "made", "unknown", "estimate", "lo", "hi"]
        if self.joint is None:
            return pd.DataFrame([], columns=columns)
        lo, width = bid_grid(self.variant)
        bids = [bid] if bid is not None else self.bids()
        cells = joint_cells(self.joint, lo, width, bids)
        rows = []
        for i, name in enumerate(BASES):
            if basis is not None and name != basis:
                continue
            if meld is not None:
                melds = [self.meld_bin(meld)]
            else:
                melds = np.nonzero(cells["n"][i, :, 0] if len(bids) else [])[0]
            for m in melds:
                for j, b in enumerate(bids):
                    n, made = int(cells["n"][i, m, j]), int(cells["made"][i, m, j])
                    iv = wilson(made, n)
                    rows.append(
                        {
                            "basis": name,
                            "bid": int(b),
                            "meld": int(m) * self.meld_unit,
                            "meld_bin": self.meld_label(int(m)),
                            "n": n,
                            "made": made,
                            "unknown": int(cells["unknown"][i, m, j]),
                            "estimate": iv.estimate,
                            "lo": iv.lo,
                            "hi": iv.hi,
                        }
                    )
        return pd.DataFrame(rows, columns=columns)

    def cells_json(self, basis: str | None = None, bid: int | None = None, meld: int | None = None) -> list[dict]:
        """The joint table as the ``cells`` of ``--json``."""
        return [
            {
                "bid": r.bid,
                "meld": r.meld,
                "meld_bin": r.meld_bin,
                "basis": r.basis,
                "make": {"estimate": r.estimate, "ci95": [r.lo, r.hi], "n": r.n, "made": r.made, "unknown": r.unknown},
            }
            for r in self.joint_table(basis, bid, meld).itertuples(index=False)
        ]

    def to_json(self, basis: str | None = None, bid: int | None = None, meld: int | None = None) -> dict:
        return {
            "variant": self.variant.id,
            "hands": self.hands,
            "seed": self.seed,
            "policy": self.policy,
            "margins": list(self.margins),
            "policies": list(self.policies),
            "complete": not self.interrupted,
            "method": METHOD,
            "condition": None if self.acceptance is None else self.acceptance.to_json(),
            "auction": [c or "pass" for c in self.calls] or None,
            "cells": self.cells_json(basis, bid, meld),
            "tables": {k: v.to_dict(orient="records") for k, v in self.tables().items()},
        }


def bid_odds(
    variant: Variant,
    hands: int,
    seed: int,
    policies: np.ndarray,
    progress: bool = False,
    condition: Condition | None = None,
    calls: tuple[int, ...] = (),
) -> BidOdds:
    """Play ``hands`` full hands and tabulate the bidding side's make rate, one way and jointly;
    with ``condition`` (``--given``, places seen from seat 0, the dealer's left), only deals that meet
    it (checked first by :func:`simcore.answers.conditioned.check_condition`); ``calls``: the auction
    so far (a bid, or 0 for a pass), made as given before the seats bid on
    (:mod:`simcore.kernels.auction_condition` gives the condition that goes with them)."""
    policies = np.asarray(policies)
    reduce = partial(bid_odds_tally, _units(variant), joint_params(variant, policies))
    acceptance = None if condition is None else check_condition(variant, condition, None, -1, seed)
    accept = None if condition is None else condition_rows(variant, condition)
    run = run_hands(variant, hands, seed, policies, reduce, progress, accept=accept, calls=calls)
    names = tuple(POLICY_NAMES[p] for p in policies)
    one_way = len(TABLES) * 2 * BINS
    margins = tuple(float(m) for m in seat_margins(variant, None))
    return BidOdds(
        variant,
        seed,
        names,
        run.deals,
        hands,
        run.tally[:one_way].reshape(len(TABLES), 2, BINS),
        run.tally[one_way:].reshape(len(BASES), 2, MELD_BINS, TOTAL_BINS),
        margins,
        acceptance,
        tuple(calls),
    )
