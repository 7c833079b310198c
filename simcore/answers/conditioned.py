"""Deals conditioned on what the table has shown (``--given``): the acceptance check every answer runs
first, and the exact acceptance where a count gives it.

The condition (:mod:`simcore.kernels.condition`) is a rejection filter on the deal: deals are dealt
as before (seat ``seat`` holding its given cards, the rest at random) and those that fail it are
thrown away, so every deal that meets it is equally likely. Before an answer runs, a pilot of
:data:`PILOT_DEALS` deals measures how many meet it. A condition no deal can meet is refused, and so
is one met by fewer than :data:`FLOOR` of the deals (each accepted deal would cost more than 1 / FLOOR
dealt): one line each, saying which.

The acceptance is exact where the condition is about one hand (or the widow) and only counts cards
(cards held or lacked, a suit's length, a rank's count): that hand is a uniform draw from the cards
its seat does not know, a multivariate hypergeometric counted by
:func:`simcore.answers.exact.holding_probability`. Meld, trump length and hand value are estimated.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np
from numba import njit

from simcore.answers.exact import holding_probability
from simcore.cards import N_TYPES, card_name
from simcore.kernels.auction_condition import condition_rows
from simcore.kernels.condition import (
    Q_CARD,
    Q_LIMIT,
    Q_MELD,
    Q_VALUE,
    Condition,
    ConditionError,
    Dealing,
    accepts,
    deal_work,
    describe_test,
    parse_condition,
)
from simcore.kernels.deal import deal_given_into, deal_into
from simcore.kernels.leaf import leaf
from simcore.kernels.threads import each_chunk
from simcore.run.runner import Job, run_job
from simcore.run.stats import Interval, wilson
from simcore.variants import Variant, scale_text

#: The least share of deals a condition may accept (below it, refused as too rare to sample).
FLOOR = 1e-4
#: Deals of the pilot that measures the acceptance before an answer runs.
PILOT_DEALS = 200_000
PILOT_CHUNK = 50_000


@njit(cache=True, nogil=True)
def acceptance_chunk(state, size, dealing, out):
    """Deal ``size`` deals as ``dealing`` says (a :class:`simcore.kernels.condition.Dealing`, its
    condition not imposed) and add to ``out[0]`` those that meet its condition."""
    out[0] += _accepted(state, size, dealing, deal_work(dealing))


@leaf
def _accepted(state, size, dealing, work):
    """:func:`acceptance_chunk`'s deals, in ``work`` (its :class:`simcore.kernels.condition.DealWork`):
    how many of ``size`` deals meet the condition."""
    players, hand_size, given, seat = dealing.players, dealing.hand_size, dealing.given, dealing.seat
    cond, table, flags = dealing.cond, dealing.table, dealing.flags
    cards, hands, widow, totals, scratch = work.cards, work.hands, work.widow, work.totals, work.scratch
    n = np.int64(0)
    for _ in range(size):
        if seat >= 0:
            deal_given_into(state, cards, players, hand_size, given, seat, hands, widow)
        else:
            deal_into(state, cards, players, hand_size, hands, widow)
        if accepts(hands, widow, hand_size, cond, table, flags, totals, scratch):
            n += 1
    return n


def _pilot_batch(dealing, states, sizes, chunks):
    out = np.zeros((len(sizes), 1), dtype=np.int64)
    each_chunk(lambda ci: acceptance_chunk(states[ci].copy(), sizes[ci], dealing, out[ci]), states.shape[0])
    return out


def deal_cards(variant: Variant, given: np.ndarray | None, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(the cards dealt at random as uint8 card types, the given cards uint8[24]): the deck without
    ``given`` where ``seat`` >= 0 holds them, else the whole deck and no given cards."""
    given = np.zeros(N_TYPES, dtype=np.uint8) if given is None else np.asarray(given, dtype=np.uint8)
    return np.repeat(np.arange(N_TYPES, dtype=np.uint8), variant.deck_copies - given), given


def dealing_of(variant: Variant, given: np.ndarray | None, seat: int, cond: np.ndarray) -> Dealing:
    """The :class:`Dealing` of ``variant``'s deals in which ``seat`` holds ``given`` (-1: nobody, a free
    deal) and that meet the compiled condition ``cond`` (zero rows: every deal)."""
    rest, given = deal_cards(variant, given, seat)
    return Dealing(rest, variant.players, variant.hand_size, given, seat, cond, variant.meld_table, variant.meld_flags)


@dataclass(frozen=True)
class Acceptance:
    """The share of deals that meet ``condition``: ``accepted`` of ``tried`` dealt, and the exact
    value where a count gives it."""

    condition: Condition
    tried: int
    accepted: int
    exact: Fraction | None

    @property
    def estimate(self) -> Interval:
        return wilson(self.accepted, self.tried)

    def line(self) -> str:
        """One line for the output: what was given and the share of deals that meet it."""
        iv = self.estimate
        exact = f", exact {float(self.exact):.4%}" if self.exact is not None else ""
        return (
            f"given {describe_condition(self.condition)}: {self.accepted:,} of {self.tried:,} deals meet it "
            f"({iv.estimate:.3%} [{iv.lo:.3%}, {iv.hi:.3%}]{exact}); only those are kept (rejection)"
        )

    def to_json(self) -> dict:
        iv = self.estimate
        return {
            "given": describe_condition(self.condition),
            "tried": self.tried,
            "accepted": self.accepted,
            "acceptance": {
                "estimate": iv.estimate,
                "ci95": [iv.lo, iv.hi],
                "exact": float(self.exact) if self.exact is not None else None,
            },
            "method": "rejection",
        }


def describe_condition(condition: Condition) -> str:
    """The condition in the language's own words, e.g. ``left: holds AS; partner: meld>=20``."""
    return "; ".join(f"{c.place}: " + ", ".join(describe_test(t) for t in c.tests) for c in condition.clauses)


def exact_acceptance(
    variant: Variant, condition: Condition, given: np.ndarray | None, seat: int, event=None
) -> Fraction | None:
    """Exact P(a deal meets ``condition``) (and, with ``event``, P(it meets it and the conditioned hand
    holds ``event``)) where the condition is about one hand and counts cards only; else None.
    ``seat`` holds ``given`` (-1: nobody holds given cards)."""
    target = condition.single_seat
    if target is None or not condition.holdings_only:
        return None
    given = np.zeros(N_TYPES, dtype=np.uint8) if given is None else np.asarray(given, dtype=np.uint8)
    pool = tuple(int(x) for x in variant.deck_copies - given)
    none = (0,) * N_TYPES
    if target == variant.players:
        base, size = none, int(variant.get("deal.widow"))
    elif target == seat:
        base, size = tuple(int(x) for x in given), variant.hand_size - int(given.sum())
    else:
        base, size = none, variant.hand_size
    holdings = tuple((t.cards(), t.lo, t.hi) for c in condition.clauses for t in c.tests)
    return holding_probability(holdings, pool, base, size, event)


def check_condition(
    variant: Variant, condition: Condition, given: np.ndarray | None = None, seat: int = -1, seed: int = 1
) -> Acceptance:
    """The condition's :class:`Acceptance` over a pilot of :data:`PILOT_DEALS` deals (seat ``seat``
    holding ``given``; -1: a free deal). Raises :class:`ConditionError` when no deal can meet it or
    fewer than :data:`FLOOR` of the deals do."""
    _check_possible(variant, condition, given, seat)
    exact = exact_acceptance(variant, condition, given, seat)
    text = describe_condition(condition)
    if exact == 0:
        raise ConditionError(f"{condition.label} {text!r}: impossible, no deal meets it")
    task = partial(_pilot_batch, dealing_of(variant, given, seat, condition_rows(variant, condition)))
    run = run_job(Job(task, "sum", chunk_deals=PILOT_CHUNK), seed, PILOT_DEALS)
    acceptance = Acceptance(condition, run.deals, int(run.tally[0]), exact)
    share = float(exact) if exact is not None else acceptance.estimate.estimate
    if acceptance.accepted == 0 and exact is None:
        raise ConditionError(
            f"{condition.label} {text!r}: no deal of {run.deals:,} met it: impossible, or rarer than "
            f"the floor of 1 in {round(1 / FLOOR):,} deals" + _scale_note(variant, condition)
        )
    if share < FLOOR:
        raise ConditionError(
            f"{condition.label} {text!r}: too rare to sample: {share:.4%} of deals meet it (1 in "
            f"{round(1 / share):,}), below the floor of 1 in {round(1 / FLOOR):,}" + _scale_note(variant, condition)
        )
    return acceptance


def _scale_note(variant: Variant, condition: Condition) -> str:
    """How the system counts, for a condition on points (meld, a hand's worth, a bid of the auction so
    far): a bound on another system's scale is the likeliest reason no deal meets it."""
    points = any(t.quantity in (Q_MELD, Q_VALUE, Q_LIMIT) for c in condition.clauses for t in c.tests)
    return f" ({scale_text(variant)})" if points else ""


def _check_possible(variant: Variant, condition: Condition, given: np.ndarray | None, seat: int) -> None:
    """Refuse a clause no hand of its seats could pass whatever the deal (a range that is empty, more
    cards than the deck or the hand has), and cards asked of single seats (with those ``seat`` holds
    in ``given``) beyond the deck's copies."""
    copies = variant.deck_copies
    need: dict[int, dict[int, int]] = {}  # seat -> card type -> fewest copies it must hold
    if given is not None and seat >= 0:
        need[seat] = {t: int(k) for t, k in enumerate(given) if k}
    for clause in condition.clauses:
        if len(clause.seats) == 1:
            for t in clause.tests:
                if t.quantity == Q_CARD:
                    held = need.setdefault(clause.seats[0], {})
                    held[t.param] = max(held.get(t.param, 0), t.lo)
    for t in range(N_TYPES):
        asked = sum(held.get(t, 0) for held in need.values())
        if asked > copies[t]:
            raise ConditionError(
                f"{condition.label} {describe_condition(condition)!r}: impossible, it places {asked} "
                f"× {card_name(t)} and the deck has {int(copies[t])}"
            )
    # a clause of several seats ("any") needs its copies in one of them, beside what the seats outside
    # it must hold: past the deck's copies no deal meets it, so no pilot is needed to say so
    for clause in condition.clauses:
        if len(clause.seats) > 1:
            for b in clause.tests:
                if b.quantity == Q_CARD:
                    outside = sum(held.get(b.param, 0) for s, held in need.items() if s not in clause.seats)
                    if b.lo + outside > copies[b.param]:
                        raise ConditionError(
                            f"{condition.label} {describe_condition(condition)!r}: impossible, it places "
                            f"{b.lo + outside} × {card_name(b.param)} and the deck has {int(copies[b.param])}"
                        )
    for clause in condition.clauses:
        where = f"{condition.label} '{clause.place}: " + ", ".join(describe_test(t) for t in clause.tests) + "'"
        room = int(variant.get("deal.widow")) if clause.seats == (variant.players,) else variant.hand_size
        for t in clause.tests:
            if t.lo > t.hi:
                raise ConditionError(f"{where}: impossible, {describe_test(t)} is an empty range")
            if t.holding:
                most = min(room, int(sum(int(copies[c]) for c in t.cards())))
                if t.lo > most:
                    raise ConditionError(f"{where}: impossible, a hand there holds at most {most} of those cards")


def read_condition(variant: Variant, texts: str | list[str], me: int = 0, label: str = "--given") -> Condition:
    """The condition of ``texts`` in ``variant``, places seen from seat ``me``: ``partner`` where the
    system has fixed partners across, ``widow`` where it deals a widow or kitty (not a stock)."""
    partners = variant.get("teams.kind") == "partners_across" and variant.players % 2 == 0
    widow = bool(variant.get("deal.widow")) and variant.get("deal.widow_kind") != "stock"
    return parse_condition(texts, variant.players, me, partners, widow, label)
