"""Partner's meld given my hand: its distribution under the trump I would name, by dealing the unseen
cards (and, with ``--given``, only the deals that meet the condition: its posterior).

My seat holds my cards; the other cards are dealt uniformly at random (every deal consistent with my
hand equally likely, as :func:`simcore.kernels.deal.deal_given_into`), and in each deal my partners'
hands as dealt, before any pass or widow, are melded under the trump I would name (the heuristic's
choice from my hand, :func:`simcore.kernels.policies.choose_trump`). With more than one partner (six
or eight players in two teams) it is their meld together. The mean has a normal 95% interval and each
P(meld >= M) a Wilson interval, over independent deals. Points on the variant's scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
from numba import njit

from simcore.answers.conditioned import Acceptance, dealing_of
from simcore.cards import SUITS
from simcore.kernels.auction_condition import condition_rows
from simcore.kernels.condition import NO_CONDITION, Condition, ConditionWork, deal_accepted_into, deal_work
from simcore.kernels.leaf import leaf
from simcore.kernels.meld import meld_by_trump, meld_under
from simcore.kernels.threads import each_chunk
from simcore.run.runner import Job, run_job
from simcore.run.stats import Interval, mean_interval, wilson
from simcore.variants import Variant

#: Deals dealt by default.
DEALS = 100_000
#: Meld totals tallied one by one up to this many points; more shares the last bin.
BINS = 4096


@njit(cache=True, nogil=True)
def group_meld_chunk(state, size, dealing, groups, trump, out):
    """Add to ``out`` (int64[groups, BINS]) the deals of ``size`` made as ``dealing`` says (a
    :class:`simcore.kernels.condition.Dealing`: a seat holding given cards, a condition met) by each
    group's meld: the hands of the seats in ``groups[g]`` (bool[groups, players]) melded under ``trump``
    (-1: each hand under its best trump) and added."""
    work = deal_work(dealing)
    accept = ConditionWork(dealing.cond, dealing.table, dealing.flags, work.totals, work.scratch)
    _group_deals(state, size, dealing, work, accept, groups, trump, out)


@leaf
def _group_deals(state, size, dealing, work, accept, groups, trump, out):
    """:func:`group_meld_chunk`'s deals, in ``work`` (its :class:`simcore.kernels.condition.DealWork`)."""
    players, hand_size, given, seat = dealing.players, dealing.hand_size, dealing.given, dealing.seat
    cards, hands, widow, totals = work.cards, work.hands, work.widow, work.totals
    table, flags = dealing.table, dealing.flags
    for _ in range(size):
        deal_accepted_into(state, cards, given, seat, hand_size, accept, hands, widow)
        for g in range(groups.shape[0]):
            m = np.int64(0)
            for p in range(players):
                if groups[g, p]:
                    if trump < 0:
                        m += totals[meld_by_trump(hands[p], table, flags, totals)]
                    else:
                        m += meld_under(hands[p], trump, table, flags)
            out[g, min(m, out.shape[1] - 1)] += 1


def _batch(dealing, groups, trump, states, sizes, chunks):
    out = np.zeros((len(sizes), groups.shape[0], BINS), dtype=np.int64)
    each_chunk(
        lambda ci: group_meld_chunk(states[ci].copy(), sizes[ci], dealing, groups, trump, out[ci]),
        states.shape[0],
    )
    return out


def partners_of(variant: Variant, seat: int) -> np.ndarray:
    """bool[players]: ``seat``'s fixed partners (every other seat in two teams), none without them."""
    out = np.zeros(variant.players, dtype=np.bool_)
    if variant.get("teams.kind") == "partners_across" and variant.players % 2 == 0:
        for k in range(2, variant.players, 2):
            out[(seat + k) % variant.players] = True
    return out


@dataclass(frozen=True)
class MeldTally:
    """A meld over ``deals`` deals (my partners' under ``trump``, or a seat's under its best trump,
    ``trump`` -1): ``counts[m]`` deals with meld m."""

    trump: int
    deals: int
    counts: np.ndarray
    acceptance: Acceptance | None = None

    @property
    def mean(self) -> Interval:
        m = np.arange(len(self.counts), dtype=np.float64)
        return mean_interval(float((m * self.counts).sum()), float((m * m * self.counts).sum()), self.deals)

    def at_least(self, meld: int) -> Interval:
        return wilson(int(self.counts[meld:].sum()), self.deals)

    def levels(self, most: int = 6) -> list[int]:
        """A few meld levels worth asking P(meld >= M) of: where the 10%, 25%, 50%, 75%, 90% and 99% of
        the deals (by meld) end, the levels above zero."""
        if not self.deals:
            return []
        cum = np.cumsum(self.counts) / self.deals
        picks = {int(np.searchsorted(cum, q)) for q in (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)}
        return sorted(p for p in picks if p > 0)[:most]

    def to_json(self) -> dict:
        m = self.mean
        return {
            "trump": SUITS[self.trump] if self.trump >= 0 else "best",
            "deals": self.deals,
            "mean": {"estimate": m.estimate, "ci95": [m.lo, m.hi]},
            "at_least": [
                {"meld": x, "estimate": self.at_least(x).estimate, "ci95": [self.at_least(x).lo, self.at_least(x).hi]}
                for x in self.levels()
            ],
            "distribution": {int(v): int(c) for v, c in enumerate(self.counts) if c},
            "condition": None if self.acceptance is None else self.acceptance.to_json(),
        }


def group_melds(
    variant: Variant,
    given: np.ndarray | None,
    seat: int,
    groups: np.ndarray,
    trump: int,
    deals: int = DEALS,
    seed: int = 1,
    condition: Condition | None = None,
    acceptance: Acceptance | None = None,
) -> list[MeldTally]:
    """Each group's meld (the seats of ``groups[g]`` together, under ``trump``; -1: each hand's best)
    over ``deals`` deals in which ``seat`` holds ``given`` (-1: nobody) and that meet ``condition``
    (already checked: its ``acceptance``)."""
    cond = NO_CONDITION if condition is None else condition_rows(variant, condition)
    task = partial(_batch, dealing_of(variant, given, seat, cond), np.asarray(groups, dtype=np.bool_), trump)
    run = run_job(Job(task, "sum"), seed, deals)
    return [MeldTally(trump, run.deals, run.tally[g], acceptance) for g in range(len(groups))]


def partner_meld(
    variant: Variant,
    given: np.ndarray,
    seat: int,
    trump: int,
    deals: int = DEALS,
    seed: int = 1,
    condition: Condition | None = None,
    acceptance: Acceptance | None = None,
) -> MeldTally | None:
    """My partners' meld under ``trump`` given that ``seat`` holds ``given`` (and ``condition``, already
    checked: its ``acceptance``), over ``deals`` deals; None where I have no fixed partner."""
    partners = partners_of(variant, seat)
    if not partners.any():
        return None
    return group_melds(variant, given, seat, partners[None, :], trump, deals, seed, condition, acceptance)[0]
