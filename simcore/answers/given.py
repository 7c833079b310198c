"""``pinochle odds --hold CARDS``: the odds of dealt-hand events given the cards seat 0 holds (and what the
table has shown).

Seat 0 ("me", the dealer's left) holds the given cards; the rest of the deck is dealt at random to
fill my hand, the other seats and the widow (:func:`simcore.kernels.deal.deal_given_into`). Each event
is reported for each place it can be asked of:

* ``me`` — my hand (a fact, not an estimate, when every card of it is given);
* ``partner`` — with fixed partners, my partner across (at six or eight: any of my partners);
* ``left`` and ``right`` — the next seat clockwise and the seat before me (two players: ``left`` only);
* ``any_other`` — some other player; ``table`` — some player, me included;
* ``widow`` — the widow or kitty, where the system deals one (not a two-hand stock).

With a condition (``--given``, ``--auction``: :mod:`simcore.kernels.condition`) only the deals that
meet it are kept (rejection), and exact values remain only where the condition counts the cards of the
place's own hand (:func:`simcore.answers.conditioned.exact_acceptance`).

Estimates are shares of deals with 95% Wilson intervals (deals are independent). Exact values come
from :func:`simcore.answers.exact.event_probability_given` wherever the place is one hand or the
widow: given my cards, any one other hand is a uniform draw from the unseen cards. Places made of
several hands, and ``meld>=X`` anywhere but a complete hand of mine, are estimated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

import numpy as np
from numba import njit

from simcore.answers.conditioned import Acceptance, check_condition, dealing_of, exact_acceptance
from simcore.answers.exact import event_probability_given, widow_holds_probability
from simcore.cards import N_TYPES, format_hand
from simcore.kernels.auction_condition import condition_rows
from simcore.kernels.condition import (
    NO_CONDITION,
    Condition,
    ConditionWork,
    Dealing,
    deal_accepted_into,
    deal_work,
)
from simcore.kernels.events import (
    K_MELD_AT_LEAST,
    Event,
    event_arrays,
    event_tests,
    features_into,
    hand_has_event,
)
from simcore.kernels.leaf import leaf
from simcore.kernels.meld import meld_by_trump
from simcore.kernels.threads import each_chunk
from simcore.run.runner import CHUNK_DEALS, Job, run_job
from simcore.run.stats import Interval, wilson
from simcore.run.store import RunInfo
from simcore.variants import Variant

#: The places an event is asked of, in output order (rows of the kernel's tally).
PLACES = ("me", "partner", "left", "right", "any_other", "table", "widow")
P_ME, P_PARTNER, P_LEFT, P_RIGHT, P_ANY_OTHER, P_TABLE, P_WIDOW = range(len(PLACES))


@njit(cache=True, nogil=True)
def given_chunk(state, size, dealing, partner, kinds, a, b, out):
    """Deal ``size`` deals as ``dealing`` says (a :class:`simcore.kernels.condition.Dealing`: seat 0
    holding the given cards, every deal meeting the condition) and add, per place (rows ``P_*``) and
    event, the deals in which the place holds the event to ``out`` (int64[places + 1, events]); row
    ``len(PLACES)`` column 0 counts the deals tried. ``partner`` is bool[players]: the seats that count
    as my partner. Allocates the chunk's scratch; the deals run in a leaf."""
    _given_deals(
        state,
        size,
        dealing,
        deal_work(dealing),
        event_tests(kinds, a, b),
        partner,
        np.zeros((len(PLACES), kinds.shape[0]), dtype=np.bool_),
        out,
    )


@leaf
def _given_deals(state, size, dealing, work, tests, partner, seen, out):
    """:func:`given_chunk`'s deals, in ``work`` (a :class:`simcore.kernels.condition.DealWork`) with the
    events' ``tests`` (:class:`simcore.kernels.events.EventTests`) and ``seen`` (bool[places, events]) as
    scratch, without reference counting."""
    players, hands, widow, feat = dealing.players, work.hands, work.widow, tests.features
    accept = ConditionWork(dealing.cond, dealing.table, dealing.flags, work.totals, work.scratch)
    n_events = tests.feature.shape[0]
    for _ in range(size):
        # seat 0 (me) holds the given cards: as a constant, the deal compiled here runs 13% faster than
        # with dealing.seat read at run time
        out[len(PLACES), 0] += deal_accepted_into(
            state, work.cards, dealing.given, 0, dealing.hand_size, accept, hands, widow
        )
        seen[:, :] = False
        for p in range(players + 1):
            held = hands[p] if p < players else widow
            features_into(held, tests.with_meld, dealing.table, dealing.flags, work.totals, feat)
            for e in range(n_events):
                if feat[tests.feature[e]] >= tests.least[e]:
                    if p == players:
                        seen[P_WIDOW, e] = True
                    else:
                        seen[P_TABLE, e] = True
                        if p == 0:
                            seen[P_ME, e] = True
                        else:
                            seen[P_ANY_OTHER, e] = True
                            if partner[p]:
                                seen[P_PARTNER, e] = True
                            if p == 1:
                                seen[P_LEFT, e] = True
                            if p == players - 1:
                                seen[P_RIGHT, e] = True
        for r in range(len(PLACES)):
            for e in range(n_events):
                if seen[r, e]:
                    out[r, e] += 1


def given_batch(states, sizes, dealing, partner, kinds, a, b, out):
    """:func:`given_chunk` over chunk i (``sizes[i]`` deals from ``states[i]``) into ``out[i]``, chunks on
    threads (:func:`simcore.kernels.threads.each_chunk`)."""
    each_chunk(
        lambda ci: given_chunk(states[ci].copy(), sizes[ci], dealing, partner, kinds, a, b, out[ci]),
        states.shape[0],
    )


def given_tally(
    dealing: Dealing,
    partner: np.ndarray,
    kinds: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    states: np.ndarray,
    sizes: np.ndarray,
    chunks: np.ndarray,
) -> np.ndarray:
    """int64[chunks, places + 1, events]: each chunk's deals in which each place holds each event, and
    (last row, column 0) the deals it tried to find them."""
    out = np.zeros((len(sizes), len(PLACES) + 1, max(len(kinds), 1)), dtype=np.int64)
    if len(sizes):
        given_batch(states, sizes, dealing, partner, kinds, a, b, out)
    return out


def places(variant: Variant) -> tuple[str, ...]:
    """The places an event can be asked of in ``variant`` (see the module docstring)."""
    out = ["me"]
    if variant.get("teams.kind") == "partners_across" and variant.players % 2 == 0:
        out.append("partner")
    out.append("left")
    if variant.players > 2:
        out.append("right")
    out += ["any_other", "table"]
    if variant.get("deal.widow") and variant.get("deal.widow_kind") != "stock":
        out.append("widow")
    return tuple(out)


def partner_seats(variant: Variant) -> np.ndarray:
    """bool[players]: the seats that are my partners (seat 0's), none without fixed partners."""
    partner = np.zeros(variant.players, dtype=np.bool_)
    if "partner" in places(variant):
        partner[2::2] = True
    return partner


@dataclass(frozen=True)
class PlaceOdds:
    """One event at one place: the estimate, and the exact value where known (``fact``: my hand is
    complete, so the value is 0 or 1 for certain)."""

    estimate: Interval
    exact: Fraction | None
    fact: bool = False


@dataclass(frozen=True)
class GivenOdds:
    """Everything ``pinochle odds --hold`` prints."""

    variant: Variant
    given: np.ndarray
    seed: int
    deals: int
    requested_deals: int
    seconds: float
    events: list[tuple[Event, dict[str, PlaceOdds]]] = field(default_factory=list)
    want: np.ndarray | None = None
    want_exact: Fraction | None = None
    acceptance: Acceptance | None = None

    @property
    def interrupted(self) -> bool:
        return self.deals < self.requested_deals

    @property
    def complete(self) -> bool:
        """Every card of my hand is given."""
        return int(self.given.sum()) == self.variant.hand_size

    def to_json(self) -> dict:
        """The ``--json`` object: each event with a ``given`` object of places (absent where they do
        not apply), each ``{"estimate", "ci95", "one_in", "exact"}``."""

        def block(o: PlaceOdds) -> dict:
            return {
                "estimate": o.estimate.estimate,
                "ci95": [o.estimate.lo, o.estimate.hi],
                "one_in": o.estimate.one_in,
                "exact": float(o.exact) if o.exact is not None else None,
            }

        out = {
            "variant": self.variant.id,
            "hold": format_hand(self.given),
            "seed": self.seed,
            "deals": self.deals,
            "complete": not self.interrupted,
            "events": [
                {"event": e.name, "given": {p: block(o) for p, o in by_place.items()}} for e, by_place in self.events
            ],
        }
        if self.acceptance is not None:
            out["condition"] = self.acceptance.to_json()
        if self.want is not None:
            out["want"] = {
                "cards": format_hand(self.want),
                "widow_exact": None if self.want_exact is None else float(self.want_exact),
            }
        return out


def _fact(variant: Variant, event: Event, hand: np.ndarray) -> bool:
    """Whether the complete hand ``hand`` holds ``event``."""
    totals = np.zeros(4, dtype=np.int64)
    best = int(totals[meld_by_trump(hand, variant.meld_table, variant.meld_flags, totals)])
    kinds, a, b = event_arrays([event])
    return bool(hand_has_event(hand, kinds[0], a[0], b[0], best))


def _exact(variant: Variant, event: Event, place: str, given: np.ndarray) -> tuple[Fraction | None, bool]:
    """(exact value, is a fact) of ``event`` at ``place`` given my cards ``given``. One other hand and
    the widow are uniform draws from the unseen cards; places of several hands are exact only where
    one hand settles them: nobody else can hold what no other hand can, and the table holds what I
    hold for certain."""
    k, h = int(given.sum()), variant.hand_size
    if place == "me" and k == h:
        return Fraction(int(_fact(variant, event, given))), True
    if event.kind == K_MELD_AT_LEAST:
        return None, False
    pool = tuple(int(x) for x in variant.deck_copies - given)
    none = (0,) * N_TYPES
    if place == "me":
        return event_probability_given(event, pool, tuple(int(x) for x in given), h - k), False
    if place == "widow":
        return event_probability_given(event, pool, none, variant.get("deal.widow")), False
    other = event_probability_given(event, pool, none, h)  # any one other hand
    if place in ("left", "right") or (place == "partner" and variant.players == 4):
        return other, False
    if place in ("partner", "any_other"):
        return (Fraction(0), False) if other == 0 else (None, False)
    mine = _exact(variant, event, "me", given)[0]  # the table
    if mine == 1 or other == 0:
        return mine, False
    return None, False


def place_seat(variant: Variant, place: str) -> int | None:
    """The one seat a place names (``players``: the widow), None for places of several hands."""
    one = {"me": 0, "left": 1, "right": variant.players - 1, "widow": variant.players}
    if place == "partner" and variant.players == 4:
        return 2
    return one.get(place)


def _exact_given(
    variant: Variant, event: Event, place: str, given: np.ndarray, condition: Condition
) -> tuple[Fraction | None, bool]:
    """(exact value, is a fact) of ``event`` at ``place`` given my cards and ``condition``: exact where
    the condition counts cards of one hand and the place is that hand (P(event and condition) /
    P(condition)), and facts about my complete hand; else None (estimated)."""
    if place == "me" and int(given.sum()) == variant.hand_size:
        return _exact(variant, event, place, given)
    if event.kind == K_MELD_AT_LEAST or place_seat(variant, place) != condition.single_seat:
        return None, False
    both = exact_acceptance(variant, condition, given, 0, event)
    accepted = exact_acceptance(variant, condition, given, 0)
    if both is None or not accepted:
        return None, False
    return both / accepted, False


def given_odds(
    variant: Variant,
    events: list[Event],
    given: np.ndarray,
    hands: int,
    seed: int,
    want: np.ndarray | None = None,
    progress: bool = False,
    condition: Condition | None = None,
) -> GivenOdds:
    """Estimate ``events`` at every place over ``hands`` // players deals in which seat 0 holds
    ``given`` (uint8[24] copy counts, already checked against the deck and the hand size) and that
    meet ``condition`` (``--given``; None: every deal). A condition is checked first
    (:func:`simcore.answers.conditioned.check_condition`: refused when impossible or too rare)."""
    given = np.asarray(given, dtype=np.uint8)
    acceptance = None if condition is None else check_condition(variant, condition, given, 0, seed)
    cond = NO_CONDITION if condition is None else condition_rows(variant, condition)
    deals = -(-hands // variant.players)
    kinds, a, b = event_arrays(events)
    task = partial(given_tally, dealing_of(variant, given, 0, cond), partner_seats(variant), kinds, a, b)
    params = {"events": [kinds.tolist(), a.tolist(), b.tolist()], "given": given.tolist(), "chunk_deals": CHUNK_DEALS}
    if condition is not None:
        params["condition"] = cond.tolist()
    run_info = RunInfo("odds-given", variant.id, variant.content_hash, params, "sum")
    run = run_job(Job(task, "sum", run_info), seed, deals, progress=progress)
    if condition is not None:
        tried = int(run.tally[len(PLACES), 0])
        acceptance = Acceptance(condition, tried, run.deals, acceptance.exact) if tried else acceptance
    names = places(variant)
    results = []
    for e, event in enumerate(events):
        by_place = {}
        for place in names:
            exact, fact = (
                _exact(variant, event, place, given)
                if condition is None
                else _exact_given(variant, event, place, given, condition)
            )
            by_place[place] = PlaceOdds(wilson(int(run.tally[PLACES.index(place), e]), run.deals), exact, fact)
        results.append((event, by_place))
    want_exact = None
    if want is not None and condition is None:
        pool = tuple(int(x) for x in variant.deck_copies - given)
        want_exact = widow_holds_probability(pool, tuple(int(x) for x in want), variant.get("deal.widow"))
    return GivenOdds(variant, given, seed, run.deals, deals, run.seconds, results, want, want_exact, acceptance)
