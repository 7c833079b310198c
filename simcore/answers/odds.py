"""``pinochle odds``: Monte Carlo estimates of dealt-hand events beside their exact values.

Per hand: the share of dealt hands that hold the event. Per deal: the share of deals in which at
least one player holds it (the widow never counts). ``hands`` counts hands scored, deals × players.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

import numpy as np
import pandas as pd
from numba import njit

from simcore.answers.conditioned import dealing_of
from simcore.answers.exact import event_probability, per_deal_exact
from simcore.kernels.condition import NO_CONDITION, Dealing, deal_work
from simcore.kernels.deal import deal_into
from simcore.kernels.events import Event, event_arrays, event_tests, features_into
from simcore.kernels.leaf import leaf
from simcore.kernels.threads import each_chunk
from simcore.run.runner import CHUNK_DEALS, Job, run_job
from simcore.run.stats import Interval, clustered_proportion, wilson
from simcore.run.store import RunInfo
from simcore.variants import Variant

#: Rows of the per-chunk tally: hands holding the event, deals with at least one, sum of squared
#: per-deal counts (for the per-hand interval's design effect).
T_HANDS, T_DEALS, T_SQUARES = range(3)


@njit(cache=True, nogil=True)
def odds_chunk(state, size, dealing, kinds, a, b, out):
    """Deal ``size`` deals from ``state`` as ``dealing`` says (a :class:`simcore.kernels.condition.Dealing`
    of the whole deck: its seat, given cards and condition unread) and add every event's tally to
    ``out`` (int64[3, events]: rows T_HANDS, T_DEALS, T_SQUARES). Allocates the chunk's scratch; the
    deals run in a leaf."""
    _odds_deals(
        state,
        size,
        dealing,
        deal_work(dealing),
        event_tests(kinds, a, b),
        np.zeros(kinds.shape[0], dtype=np.int64),
        out,
    )


@leaf
def _odds_deals(state, size, dealing, work, tests, held, out):
    """:func:`odds_chunk`'s deals, in ``work`` (a :class:`simcore.kernels.condition.DealWork`) with the
    events' ``tests`` (:class:`simcore.kernels.events.EventTests`) and ``held`` (int64[events]) as
    scratch: no reference counting per deal or per hand (the row views of ``hands`` included)."""
    players, hands, feat = dealing.players, work.hands, tests.features
    n_events = tests.feature.shape[0]
    for _ in range(size):
        deal_into(state, work.cards, players, dealing.hand_size, hands, work.widow)
        held[:] = 0
        for p in range(players):
            # one pass serves every event
            features_into(hands[p], tests.with_meld, dealing.table, dealing.flags, work.totals, feat)
            for e in range(n_events):
                held[e] += feat[tests.feature[e]] >= tests.least[e]
        for e in range(n_events):
            out[T_HANDS, e] += held[e]
            out[T_DEALS, e] += 1 if held[e] > 0 else 0
            out[T_SQUARES, e] += held[e] * held[e]


def odds_batch(states, sizes, dealing, kinds, a, b, out):
    """Tally every event over chunk i (``sizes[i]`` deals from stream ``states[i]``) into ``out[i]``
    (int64[chunks, 3, events]), chunks on threads (:func:`simcore.kernels.threads.each_chunk`)."""
    each_chunk(
        lambda ci: odds_chunk(states[ci].copy(), sizes[ci], dealing, kinds, a, b, out[ci]),
        states.shape[0],
    )


@dataclass(frozen=True)
class EventOdds:
    """One event's estimates (per hand, per deal) with the exact values where known."""

    event: Event
    per_hand: Interval
    per_deal: Interval
    exact_hand: Fraction | None
    exact_deal: Fraction | None


@dataclass(frozen=True)
class OddsResult:
    """Everything ``pinochle odds`` prints."""

    variant: Variant
    seed: int
    deals: int
    requested_deals: int
    seconds: float
    events: list[EventOdds] = field(default_factory=list)

    @property
    def hands(self) -> int:
        return self.deals * self.variant.players

    @property
    def interrupted(self) -> bool:
        return self.deals < self.requested_deals

    def to_frame(self) -> pd.DataFrame:
        """One row per event: estimates, 95% bounds, exact values (NaN where unknown), '1 in N'."""
        rows = []
        for o in self.events:
            rows.append(
                {
                    "event": o.event.name,
                    "per_hand": o.per_hand.estimate,
                    "per_hand_lo": o.per_hand.lo,
                    "per_hand_hi": o.per_hand.hi,
                    "per_hand_exact": float(o.exact_hand) if o.exact_hand is not None else math.nan,
                    "per_deal": o.per_deal.estimate,
                    "per_deal_lo": o.per_deal.lo,
                    "per_deal_hi": o.per_deal.hi,
                    "per_deal_exact": float(o.exact_deal) if o.exact_deal is not None else math.nan,
                }
            )
        return pd.DataFrame(rows)

    def to_json(self) -> dict:
        """The ``--json`` object: variant, hands, seed and one entry per event."""

        def block(iv: Interval, exact: Fraction | None) -> dict:
            return {
                "estimate": iv.estimate,
                "ci95": [iv.lo, iv.hi],
                "one_in": iv.one_in,
                "exact": float(exact) if exact is not None else None,
            }

        return {
            "variant": self.variant.id,
            "hands": self.hands,
            "seed": self.seed,
            "deals": self.deals,
            "complete": not self.interrupted,
            "events": [
                {
                    "event": o.event.name,
                    "per_hand": block(o.per_hand, o.exact_hand),
                    "per_deal": block(o.per_deal, o.exact_deal),
                }
                for o in self.events
            ],
        }


def odds_tally(
    dealing: Dealing, kinds: np.ndarray, a: np.ndarray, b: np.ndarray, states: np.ndarray, sizes: np.ndarray, chunks
) -> np.ndarray:
    """int64[chunks, 3, events]: each chunk's tally rows (T_HANDS, T_DEALS, T_SQUARES) per event, over
    free deals as ``dealing`` says (:func:`simcore.answers.conditioned.dealing_of`)."""
    out = np.zeros((len(sizes), 3, len(kinds)), dtype=np.int64)
    if len(sizes):
        odds_batch(states, sizes, dealing, kinds, a, b, out)
    return out


def simulate_odds(
    variant: Variant, events: list[Event], hands: int, seed: int, progress: bool = False, exact: bool = True
) -> OddsResult:
    """Estimate ``events`` over at least ``hands`` dealt hands (whole deals) from ``seed``."""
    deals = -(-hands // variant.players)
    kinds, a, b = event_arrays(events)
    task = partial(odds_tally, dealing_of(variant, None, -1, NO_CONDITION), kinds, a, b)
    run_info = RunInfo(
        "odds",
        variant.id,
        variant.content_hash,
        {"events": [kinds.tolist(), a.tolist(), b.tolist()], "chunk_deals": CHUNK_DEALS},
        "sum",
    )
    run = run_job(Job(task, "sum", run_info), seed, deals, progress=progress)
    results = []
    for e, event in enumerate(events):
        per_hand = clustered_proportion(
            int(run.tally[T_HANDS, e]), int(run.tally[T_SQUARES, e]), run.deals, variant.players
        )
        per_deal = wilson(int(run.tally[T_DEALS, e]), run.deals)
        exact_hand = event_probability(variant, event) if exact else None
        exact_deal = per_deal_exact(variant, event, exact_hand) if exact_hand is not None else None
        results.append(EventOdds(event, per_hand, per_deal, exact_hand, exact_deal))
    return OddsResult(variant, seed, run.deals, deals, run.seconds, results)
