"""``pinochle bid-odds``: P(the bidding side makes its bid), tabulated by the bid and by what the
bidder could see — his meld, the side's meld after the exchange, his trump length and his aces.

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

from simcore.answers.simulate import run_hands
from simcore.kernels import hand as h
from simcore.kernels.policies import POLICY_NAMES
from simcore.run.stats import wilson
from simcore.variants import Variant

BINS = 1024
#: Tables: (name, record field, how its value maps to a bin).
TABLES = (("bid", h.F_BID), ("bidder_meld", h.F_BIDDER_MELD), ("side_meld", h.F_SIDE_MELD),
          ("trump_length", h.F_TRUMP_LEN), ("aces", h.F_ACES))


def _units(variant: Variant) -> dict[str, tuple[int, int]]:
    """(origin, width) of each table's bins: bids from the minimum by the step, meld by the table's
    smallest common unit (1 or 10 points), counts by one."""
    table = variant.meld_table()
    meld_unit = gcd(*[int(x) for x in table.ravel() if x] + [int(variant.meld_flags()[0]) or 0]) or 1
    return {"bid": (variant.lowest_contract, variant.get("auction.step")),
            "bidder_meld": (0, meld_unit), "side_meld": (0, meld_unit),
            "trump_length": (0, 1), "aces": (0, 1)}


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
            rows.append({name: origin + int(b) * width, "hands": int(total[b]), "made": int(made[b]),
                         "p_make": iv.estimate, "lo": iv.lo, "hi": iv.hi})
        return pd.DataFrame(rows, columns=[name, "hands", "made", "p_make", "lo", "hi"])

    def tables(self) -> dict[str, pd.DataFrame]:
        return {name: self.table(name) for name, _ in TABLES}

    def to_json(self) -> dict:
        return {"variant": self.variant.id, "hands": self.hands, "seed": self.seed,
                "policies": list(self.policies), "complete": not self.interrupted,
                "tables": {k: v.to_dict(orient="records") for k, v in self.tables().items()}}


def bid_odds(variant: Variant, hands: int, seed: int, policies: np.ndarray,
             progress: bool = False) -> BidOdds:
    """Play ``hands`` full hands and tabulate the bidding side's make rate."""
    run = run_hands(variant, hands, seed, policies, partial(bid_tally, _units(variant)), progress)
    names = tuple(POLICY_NAMES[p] for p in np.asarray(policies))
    return BidOdds(variant, seed, names, run.deals, hands, run.tally.reshape(len(TABLES), 2, BINS))
