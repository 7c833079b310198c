"""``pinochle widow HAND``: what the widow is worth to my meld, by every widow the unseen cards allow.

For systems where the bidder takes the widow (or kitty) into his hand and buries as many cards before
meld (``exchange.widow_to_bidder``; the rule the full-hand kernel plays: any cards may be buried, and
meld is counted on the hand kept). Given my hand, the widow is a uniform draw of its size from the
cards I cannot see, so the answer is exact: every widow is enumerated as a multiset of card types,
weighted by the number of ways to draw it (the product of C(unseen copies, copies in the widow) over
the types; the weights add up to C(unseen, widow)). For each widow and each trump the hand's meld
after it is the best burial for meld: every way of burying as many cards as the widow held is tried
(:func:`best_burials`), and the most meld kept counts.

The gain under a trump is the meld after the widow less my meld before it under that trump. Where
trump is named after the widow is seen (``exchange.trump_after_widow``) the headline gain is the
best trump's meld after the widow less the best before it; elsewhere it is the gain under the trump
the heuristic names from my hand. Points are on the variant's scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
from numba import njit

from simcore.answers.advise import trump_choice
from simcore.cards import N_SUITS, N_TYPES, SUITS, format_hand
from simcore.kernels.meld import meld_by_trump
from simcore.run.runner import checkpoint
from simcore.variants import NotForThisSystem, Variant

RULE = (
    "the bidder takes the widow into his hand and buries as many cards, any cards, before meld; "
    "meld counts on the hand kept (the best burial for meld under each trump)"
)


#: The most burials (over all distinct widows) the exact count tries: about a minute on one core.
MAX_WORK = 300_000_000
#: Slices the widows are counted in, each reporting progress to the run's Execution (and stopping there
#: when asked: :func:`simcore.run.runner.checkpoint`).
PROGRESS_STEPS = 200


class WidowError(ValueError):
    """A hand whose widows are too many to count exactly; one line."""


def check_widow(variant: Variant) -> int:
    """The widow's size, or :class:`simcore.variants.NotForThisSystem` where the bidder takes no widow or
    kitty."""
    w = int(variant.get("deal.widow"))
    if not w or variant.get("deal.widow_kind") == "stock" or not variant.get("exchange.widow_to_bidder"):
        raise NotForThisSystem(
            f"{variant.id}: the bidder takes no widow or kitty into his hand, so there is no "
            "widow to value; systems with one: auction, five-hand-widow, "
            "three-hand-double-pack ..."
        )
    return w


def widows(pool: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(uint8[n, 24] every widow of ``size`` cards drawn from ``pool`` (copy counts) as a multiset of
    card types, int64[n] the ways to draw each)."""
    types = [t for t in range(N_TYPES) if pool[t] > 0]
    rows, ways = [], []

    def fill(i: int, left: int, counts: list[int], w: int) -> None:
        if left == 0:
            rows.append(list(counts))
            ways.append(w)
            return
        if i == len(types):
            return
        t = types[i]
        for k in range(min(left, int(pool[t])), -1, -1):
            counts[t] = k
            fill(i + 1, left - k, counts, w * comb(int(pool[t]), k))
        counts[t] = 0

    fill(0, size, [0] * N_TYPES, 1)
    return np.array(rows, dtype=np.uint8).reshape(-1, N_TYPES), np.array(ways, dtype=np.int64)


@njit(cache=True)
def burial_count(hand, widow_rows, bury):
    """The burials :func:`best_burials` tries: over the widows, the ways to bury ``bury`` cards of the
    hand and widow as counts of card types."""
    total = np.int64(0)
    ways = np.zeros(bury + 1, dtype=np.int64)
    for i in range(widow_rows.shape[0]):
        ways[:] = 0
        ways[0] = 1
        for t in range(N_TYPES):
            have = np.int64(hand[t]) + widow_rows[i, t]
            for j in range(bury, 0, -1):  # ways[j] += ways[j - 1] + ... + ways[j - have]
                for k in range(1, min(have, j) + 1):
                    ways[j] += ways[j - k]
        total += ways[bury]
    return total


@njit(cache=True)
def best_burials(hand, widow_rows, bury, table, flags, out):
    """For each widow (row of ``widow_rows``), write into ``out[i]`` (int64[4]) the most meld under each
    trump that ``hand`` plus that widow keeps after burying ``bury`` cards, trying every burial (as
    counts of card types)."""
    full = np.zeros(N_TYPES, dtype=np.uint8)
    kept = np.zeros(N_TYPES, dtype=np.uint8)
    totals = np.zeros(N_SUITS, dtype=np.int64)
    types = np.zeros(N_TYPES, dtype=np.int64)
    b = np.zeros(N_TYPES, dtype=np.int64)
    for i in range(widow_rows.shape[0]):
        k = 0
        for t in range(N_TYPES):
            full[t] = hand[t] + widow_rows[i, t]
            if full[t] > 0:
                types[k] = t
                k += 1
        for s in range(N_SUITS):
            out[i, s] = -1
        # burials in decreasing order of (b[0], b[1], ...): start from the first, filled from the left
        left = bury
        for j in range(k):
            b[j] = min(left, np.int64(full[types[j]]))
            left -= b[j]
        while True:
            for t in range(N_TYPES):
                kept[t] = full[t]
            for j in range(k):
                kept[types[j]] -= b[j]
            meld_by_trump(kept, table, flags, totals)
            for s in range(N_SUITS):
                if totals[s] > out[i, s]:
                    out[i, s] = totals[s]
            # the next burial: the last position that can give one card to the positions after it
            after, room, moved = np.int64(0), np.int64(0), False
            for j in range(k - 1, -1, -1):
                if b[j] > 0 and room >= after + 1:
                    b[j] -= 1
                    left = after + 1
                    for q in range(j + 1, k):
                        b[q] = min(left, np.int64(full[types[q]]))
                        left -= b[q]
                    moved = True
                    break
                after += b[j]
                room += full[types[j]]
            if not moved:
                break


@dataclass(frozen=True)
class WidowWorth:
    """Every widow of my hand with its weight and my meld after it under each trump."""

    variant: Variant
    hand: np.ndarray
    before: tuple[int, int, int, int]
    named: int | None  # the heuristic's trump from the hand alone (used where trump is named before the widow)
    widows: np.ndarray  # uint8[n, 24]
    ways: np.ndarray  # int64[n]
    after: np.ndarray  # int64[n, 4]

    @property
    def total_ways(self) -> int:
        return int(sum(int(w) for w in self.ways))

    @property
    def trump_after_widow(self) -> bool:
        return bool(self.variant.get("exchange.trump_after_widow"))

    def gains(self) -> np.ndarray:
        """int64[n]: the headline gain of each widow (see the module docstring)."""
        if self.trump_after_widow or self.named is None:
            return self.after.max(axis=1) - max(self.before)
        return self.after[:, self.named] - self.before[self.named]

    def p(self, mask: np.ndarray) -> Fraction:
        """The exact chance of the widows where ``mask`` holds."""
        return Fraction(int(sum(int(w) for w in self.ways[mask])), self.total_ways)

    def mean(self, values: np.ndarray) -> Fraction:
        return Fraction(int(sum(int(w) * int(v) for w, v in zip(self.ways, values))), self.total_ways)

    def distribution(self, values: np.ndarray) -> list[tuple[int, Fraction]]:
        """(value, exact chance) for every value taken, ascending."""
        return [(int(v), self.p(values == v)) for v in np.unique(values)]

    def at_least(self, values: np.ndarray) -> list[tuple[int, Fraction]]:
        """(X, P(value >= X)) for every value taken, ascending."""
        return [(int(v), self.p(values >= v)) for v in np.unique(values)]

    def best(self, n: int = 3) -> list[int]:
        """Rows of the widows that leave the most meld (under the best trump after them), most first."""
        return list(np.lexsort((-self.ways, -self.after.max(axis=1)))[:n])

    def likeliest(self, n: int = 3) -> list[int]:
        """Rows of the likeliest widows, most ways first."""
        return list(np.lexsort((-self.after.max(axis=1), -self.ways))[:n])

    def to_json(self, top: int = 3) -> dict:
        """The answer as JSON, with the ``top`` best and likeliest widows."""
        gains = self.gains()

        def widow(i: int) -> dict:
            return {
                "cards": format_hand(self.widows[i]),
                "p": int(self.ways[i]) / self.total_ways,
                "meld_after": dict(zip(SUITS, (int(x) for x in self.after[i]))),
            }

        return {
            "variant": self.variant.id,
            "hand": format_hand(self.hand),
            "widow_size": int(self.widows[0].sum()),
            "widows": self.total_ways,
            "distinct_widows": len(self.ways),
            "rule": RULE,
            "trump_after_widow": self.trump_after_widow,
            "named_trump": None if self.named is None else SUITS[self.named],
            "before": dict(zip(SUITS, self.before)),
            "by_trump": {
                SUITS[s]: {
                    "mean_after": float(self.mean(self.after[:, s])),
                    "mean_gain": float(self.mean(self.after[:, s] - self.before[s])),
                    "distribution": [[v, float(p)] for v, p in self.distribution(self.after[:, s])],
                }
                for s in range(N_SUITS)
            },
            "gain": {"mean": float(self.mean(gains)), "at_least": [[x, float(p)] for x, p in self.at_least(gains)]},
            "best": [widow(i) for i in self.best(top)],
            "likeliest": [widow(i) for i in self.likeliest(top)],
        }


def widow_worth(variant: Variant, hand: np.ndarray) -> WidowWorth:
    """Every widow the cards unseen from ``hand`` (uint8[24], a full hand, checked against the deck)
    allow, and my best meld after each under each trump. Progress, in distinct widows, goes to the
    :class:`simcore.run.runner.Execution` in force, whose ``stop`` ends the count
    (:class:`simcore.run.runner.Stopped`)."""
    size = check_widow(variant)
    hand = np.asarray(hand, dtype=np.uint8)
    table, flags = variant.meld_table, variant.meld_flags
    before, named = trump_choice(variant, hand)
    rows, ways = widows(variant.deck_copies - hand, size)
    work = burial_count(hand, rows, size)
    if work > MAX_WORK:
        raise WidowError(
            f"{variant.id}: {len(rows):,} distinct widows and {work:,} burials to try, beyond the "
            f"{MAX_WORK:,} this exact count takes on"
        )
    after = np.zeros((len(rows), N_SUITS), dtype=np.int64)
    step = max(1, -(-len(rows) // PROGRESS_STEPS))
    for start in range(0, len(rows), step):  # in slices, so a web page sees progress and may cancel
        checkpoint(start, len(rows))
        best_burials(hand, rows[start : start + step], size, table, flags, after[start : start + step])
    checkpoint(len(rows), len(rows))
    return WidowWorth(variant, hand, before, None if named < 0 else named, rows, ways, after)
