"""Settlement in chips, deal by deal (auction pinochle: "every deal is a complete game").

A contract is worth the chips of its bid's bracket in ``settlement.values`` ([lowest bid, chips] pairs,
ascending), doubled with spades trump when ``settlement.spades_double``. The bidder settles with every
other person at the table — the two active opponents and any who sit out (``settlement.people`` of 3
to 5) — and with the kitty, an imaginary extra player, when the bid is at least
``settlement.kitty_from``:

* made, or conceded to him by the opponents ("the bidder collects the value of the bid from every
  other player"): he collects the value from each;
* conceded after seeing the widow ("single bete"): he pays the value to each;
* the compulsory opening at the minimum forfeited before he sees the widow: he pays its basic value to
  the kitty alone ("pays the basic unit value (3 chips) to the kitty but nothing to the other
  players"; no trump named, so never doubled);
* played and lost, or not played for want of meld ("double bete"): he pays twice the value to each.

Chips add to zero over the table and the kitty. Seats are :func:`simcore.kernels.hand.play_hand`'s: 0 is the
active player on the dealer's left, who must open.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simcore.answers.simulate import hand_records
from simcore.cards import SPADES
from simcore.kernels import hand_record as h
from simcore.run.stats import Interval, values_interval, wilson
from simcore.variants import Variant


def has_settlement(variant: Variant) -> bool:
    """True when the rules file says how a deal is settled in chips (``[settlement]``)."""
    return variant.get("settlement.values") is not None


def contract_chips(variant: Variant, bids: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """int64 per contract: the chips of its bid's bracket (0 below the lowest), doubled in spades where
    the rules say so."""
    lows, chips = zip(*variant.get("settlement.values"))
    k = np.searchsorted(np.asarray(lows), bids, side="right") - 1
    value = np.where(k >= 0, np.asarray(chips)[np.maximum(k, 0)], 0)
    if variant.get("settlement.spades_double"):
        value = np.where(trumps == SPADES, 2 * value, value)
    return value.astype(np.int64)


def settle(variant: Variant, records: np.ndarray) -> np.ndarray:
    """int64[deals, people + 1]: the chips each active seat (columns 0 .. players-1), each person
    sitting out (then), and the kitty (last column) win (+) or pay (−) on each deal's record."""
    people = variant.get("settlement.people")
    bidder, bid = records[:, h.F_BIDDER], records[:, h.F_BID]
    value = contract_chips(variant, bid, records[:, h.F_TRUMP])
    collects, single, forfeit = _kinds(records)
    # what each other person (and the kitty, from kitty_from up) receives from the bidder
    each = np.where(collects, -value, np.where(single, value, 2 * value))
    each = np.where((bidder >= 0) & ~forfeit, each, 0)
    kitty = np.where(bid >= variant.get("settlement.kitty_from"), each, 0)
    kitty = np.where(forfeit, value, kitty)
    out = np.zeros((len(records), people + 1), dtype=np.int64)
    out[:, :people] = each[:, None]
    out[:, people] = kitty
    rows = np.flatnonzero(bidder >= 0)
    out[rows, bidder[rows]] = -(each[rows] * (people - 1) + kitty[rows])
    return out


def _kinds(records: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per deal: the bidder collects (made, or conceded to him), pays a single bete (conceded), forfeits
    the compulsory opening unseen; anything else with a bidder is a double bete."""
    outcome = records[:, h.F_OUTCOME]
    collects = ((outcome == h.PLAYED) & (records[:, h.F_MADE] == 1)) | (outcome == h.CONCEDED_BY_OPPONENTS)
    return collects, outcome == h.CONCEDED, outcome == h.FORFEITED_UNSEEN


@dataclass(frozen=True)
class SettlementResult:
    """Deals played and settled in chips; ``chips`` is :func:`settle`'s table."""

    variant: Variant
    seed: int
    policies: tuple[str, ...]
    records: np.ndarray
    chips: np.ndarray
    seconds: float
    requested: int

    @property
    def deals(self) -> int:
        return len(self.records)

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C stopped the run early: the deals of the finished chunks are kept."""
        return self.deals < self.requested

    @property
    def columns(self) -> tuple[str, ...]:
        players, people = self.variant.players, self.chips.shape[1] - 1
        names = [
            f"active seat {s}"
            + (" (dealer's left, opens)" if s == 0 else " (dealer)" if s == players - 1 and people == players else "")
            for s in range(players)
        ]
        names += [f"sitting out {i + 1}" for i in range(people - players)]
        return (*names, "kitty")

    def means(self) -> dict[str, Interval]:
        """Chips per deal for each column, with 95% intervals."""
        out = {name: values_interval(self.chips[:, i]) for i, name in enumerate(self.columns)}
        bidder = self.records[:, h.F_BIDDER]
        out["the bidder"] = values_interval(self.chips[np.flatnonzero(bidder >= 0), bidder[bidder >= 0]])
        return out

    def rates(self) -> dict[str, Interval]:
        """Per deal, one each: the bidder collects having played, collects because the opponents conceded,
        pays a single bete (conceded), forfeits the compulsory opening unseen, pays a double bete."""
        n = self.deals
        collects, single, forfeit = (int(k.sum()) for k in _kinds(self.records))
        conceded_to = int((self.records[:, h.F_OUTCOME] == h.CONCEDED_BY_OPPONENTS).sum())
        return {
            "bidder collects": wilson(collects - conceded_to, n),
            "opponents concede (bidder collects)": wilson(conceded_to, n),
            "single bete (conceded)": wilson(single, n),
            "forfeit unseen (kitty only)": wilson(forfeit, n),
            "double bete (set)": wilson(n - collects - single - forfeit, n),
        }

    def to_json(self) -> dict:
        def iv(x: Interval) -> dict:
            return {"estimate": None if math.isnan(x.estimate) else x.estimate, "ci95": [x.lo, x.hi]}

        return {
            "variant": self.variant.id,
            "deals": self.deals,
            "seed": self.seed,
            "policies": list(self.policies),
            "people": self.chips.shape[1] - 1,
            "complete": not self.interrupted,
            "chips_per_deal": {k: iv(v) for k, v in self.means().items()},
            "rates": {k: iv(v) for k, v in self.rates().items()},
        }


def settle_deals(variant: Variant, deals: int, seed: int, policies: np.ndarray) -> SettlementResult:
    """Play ``deals`` hands and settle each in chips."""
    import time

    from simcore.kernels.policies import POLICY_NAMES

    start = time.perf_counter()
    records = hand_records(variant, deals, seed, policies)
    return SettlementResult(
        variant,
        seed,
        tuple(POLICY_NAMES[p] for p in np.asarray(policies)),
        records,
        settle(variant, records),
        time.perf_counter() - start,
        deals,
    )
