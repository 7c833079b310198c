"""Advice in mid-auction (``pinochle advise HAND --auction "pass 260"``): what each call the seat can
make now is worth, under the model bidders.

The auction so far (:mod:`simcore.kernels.auction_condition`) names the seat to call next; my hand is that
seat's. The other hands are dealt at random, conditioned by rejection on the model bidders (the tuned
heuristic's bid rule) having made the calls so far (my own calls bound nothing: my hand is known).
For each call I can make now — pass, and each legal bid from the lowest up to my hand's model limit
(at least the lowest bid) — the same deals are played on by the full-hand kernel: the calls so far and
mine are given (:func:`simcore.kernels.hand._bidding`), every later call is the model's, mine too
(my limit as the heuristic sets it), and the contract is then played out with the chosen policy. A
hand everybody passes after my pass is thrown in where the rules redeal (nobody scores; a redeal is
another hand).

Per call: the share of deals in which my side ends with the contract, the share of those in which it
makes it, and the mean of what the hand adds to my score line (with partners, my side's score), with
the mean of my line less the mean of my opponents' lines (the margin: what the call gains over the
table), each with a 95% interval. Every call sees the same deals (common random numbers), so the
difference between two calls is measured more finely than either. The answer holds under the model
bidders, not for players who bid otherwise. Points are on the variant's scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from simcore.answers.advise import AdviseError, check_advisable, my_team, my_trump, seat_name
from simcore.answers.conditioned import Acceptance, check_condition
from simcore.answers.partner_meld import DEALS as PARTNER_MELD_DEALS
from simcore.answers.partner_meld import MeldTally, partner_meld
from simcore.answers.simulate import hand_rows
from simcore.cards import N_TYPES, format_hand
from simcore.kernels import hand_record as h
from simcore.kernels.auction_condition import (
    MODEL,
    AuctionError,
    Call,
    Turns,
    auction_condition,
    condition_rows,
    describe_calls,
    read_calls,
    with_auction,
)
from simcore.kernels.compiled import hand_rules, kernel_rules
from simcore.kernels.condition import (
    NO_CONDITION,
    NO_LIMIT,
    Q_LIMIT,
    Bound,
    Clause,
    Condition,
    hand_quantity,
)
from simcore.kernels.hand import next_bid
from simcore.kernels.hand_drivers import seat_margins
from simcore.kernels.policies import HEURISTIC, any_marriage
from simcore.run.runner import Job, run_job
from simcore.run.stats import Interval, values_interval, wilson
from simcore.variants import Variant

#: Deals per call by default.
DEALS = 4_000
#: Deals per seeded chunk.
CHUNK = 1_024
#: The most bids offered; beyond it the bids between the lowest and the limit are thinned evenly.
MOST_BIDS = 16
#: Partner's meld is tallied over at most this many deals tried (dealt, kept or not), and at least
#: PARTNER_DEALS_LEAST kept: a rare auction would otherwise cost minutes for one line.
PARTNER_TRIED = 20_000_000
PARTNER_DEALS_LEAST = 2_000

MODEL_NOTE = (
    "it holds under the model bidders: the other hands are dealt again until the model would have made "
    "the calls so far (rejection), and every later call is the model's"
)
CONTINUATION = (
    "after my call the auction goes on under the model bidders, mine too (the tuned heuristic's bid rule: "
    "a seat bids while the next bid is within its limit), then the hand is played out"
)


@dataclass(frozen=True)
class CallValue:
    """What one call is worth over the deals: ``call`` (0: pass); ``ours``: P(my side ends with the
    contract); ``made``: P(it makes it | ours) over ``ours_deals`` deals; ``score``: the mean of what
    the hand adds to my score line; ``margin``: the mean of my line less my opponents' mean line;
    ``thrown_in``: the share passed out and thrown in; ``bid``: the mean contract when ours."""

    call: int
    ours: Interval
    ours_deals: int
    made: Interval
    score: Interval
    margin: Interval
    thrown_in: float
    bid: float

    @property
    def name(self) -> str:
        return "pass" if self.call == 0 else str(self.call)

    def to_json(self) -> dict:
        def iv(x: Interval) -> dict:
            return {"estimate": x.estimate, "ci95": [x.lo, x.hi]}

        return {
            "call": self.name,
            "ours": iv(self.ours),
            "made_when_ours": {**iv(self.made), "n": self.ours_deals},
            "score": iv(self.score),
            "margin": iv(self.margin),
            "thrown_in": self.thrown_in,
            "mean_contract_when_ours": self.bid,
        }


@dataclass(frozen=True)
class MidAuction:
    """What :func:`advise_in_auction` found: the seat to call, its model ``limit`` (None: the model
    would not bid, for want of a marriage), the ``lowest`` bid it may make, and per call a
    :class:`CallValue`; ``best_score`` and ``best_margin`` index the calls with the highest means;
    ``bids``: the legal bids up to the limit (more than the calls valued where they were thinned);
    ``score_ties`` and ``margin_ties``: the calls not told apart from the best on these deals (the
    paired difference's 95% interval reaches 0), the best among them; ``partner_meld``: my partners'
    meld as dealt under the trump I would name, over the same conditioned deals (None: no partner)."""

    variant: Variant
    hand: np.ndarray
    seat: int
    seed: int
    deals: int
    auction: list[Call]
    limit: int | None
    lowest: int
    calls: list[CallValue]
    seconds: float
    acceptance: Acceptance | None
    bids: int
    score_ties: tuple[int, ...]
    margin_ties: tuple[int, ...]
    partner_meld: MeldTally | None = None
    interrupted: bool = False

    @property
    def best_score(self) -> int:
        return max(range(len(self.calls)), key=lambda i: self.calls[i].score.estimate)

    @property
    def best_margin(self) -> int:
        return max(range(len(self.calls)), key=lambda i: self.calls[i].margin.estimate)

    def to_json(self) -> dict:
        return {
            "variant": self.variant.id,
            "seed": self.seed,
            "hands": self.deals,
            "seat": self.seat,
            "hand": format_hand(self.hand),
            "auction": [{"seat": c.seat, "call": c.bid or "pass"} for c in self.auction],
            "model_limit": self.limit,
            "lowest_bid": self.lowest,
            "bids_up_to_the_limit": self.bids,
            "calls": [c.to_json() for c in self.calls],
            "best_score": self.calls[self.best_score].name,
            "best_margin": self.calls[self.best_margin].name,
            "score_not_told_apart_from_the_best": [self.calls[i].name for i in self.score_ties],
            "margin_not_told_apart_from_the_best": [self.calls[i].name for i in self.margin_ties],
            "condition": None if self.acceptance is None else self.acceptance.to_json(),
            "partner_meld": None if self.partner_meld is None else self.partner_meld.to_json(),
            "method": f"{MODEL}; {CONTINUATION}",
        }


def model_limit(variant: Variant, hand: np.ndarray) -> int | None:
    """The model bidder's limit for ``hand`` (uint8[24], a full hand): its heuristic value plus the
    rules' margin share of the trick points, truncated, as the auction kernel sets it; None where a bid
    or trump needs a marriage and the hand holds none."""
    probe = Condition("", (Clause("me", (0,), (Bound(Q_LIMIT, 0, -1, int(NO_LIMIT)),)),), variant.players)
    v = hand_quantity(
        np.asarray(hand, dtype=np.uint8),
        condition_rows(variant, probe),
        0,
        variant.hand_size,
        variant.meld_table,
        variant.meld_flags,
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.uint64),
    )
    return None if v < 0 else int(v)


def legal_bids(variant: Variant, hand: np.ndarray, lowest: int, opening: bool, limit: int | None) -> list[int]:
    """Each legal bid from ``lowest`` up to ``limit`` (at least ``lowest``; an opening bid within the
    rules' cap; none where the rules let only a hand with a marriage bid and this one holds none)."""
    r = hand_rules(variant)
    if r.bid_needs_marriage and not any_marriage(np.asarray(hand, dtype=np.uint8)):
        return []
    top = max(lowest, limit or 0)
    if opening and r.max_opening > 0:
        top = min(top, int(r.max_opening))
    bids = [lowest]
    while (b := int(next_bid(bids[-1], r))) <= top:
        bids.append(b)
    return bids


def candidate_calls(variant: Variant, hand: np.ndarray, lowest: int, opening: bool, limit: int | None) -> list[int]:
    """Pass (0), and the :func:`legal_bids`, thinned evenly to :data:`MOST_BIDS`."""
    bids = legal_bids(variant, hand, lowest, opening, limit)
    if len(bids) > MOST_BIDS:
        keep = np.unique(np.linspace(0, len(bids) - 1, MOST_BIDS).round().astype(int))
        bids = [bids[i] for i in keep]
    return [0, *bids]


def advise_in_auction(
    variant: Variant,
    hand: np.ndarray,
    auction: str,
    deals: int | None = None,
    seed: int = 1,
    condition: Condition | None = None,
    progress: bool = False,
    label: str = "--auction",
    seat: int | None = None,
) -> MidAuction:
    """The value of each call the seat to call after ``auction`` can make with ``hand`` (uint8[24], the
    whole hand) over ``deals`` deals (None: :data:`DEALS`) per call; ``condition``: more that the table
    has shown (``--given``, places seen from the seat to call); ``seat``: the seat the caller says is
    mine (None: the seat to call; another raises :class:`AuctionError`)."""
    calls, turns = read_calls(variant, auction, label)
    me = _to_call(turns, auction, label, seat)
    check_advisable(variant, me)
    hand = np.asarray(hand, dtype=np.uint8)
    if int(hand.sum()) != variant.hand_size:
        raise AdviseError(
            f"{label} {auction!r}: advice in mid-auction needs the whole hand ({variant.hand_size} cards), "
            f"got {int(hand.sum())}"
        )
    limit = model_limit(variant, hand)
    lowest = turns.lowest
    options = candidate_calls(variant, hand, lowest, turns.high == 0, limit)
    bids = len(legal_bids(variant, hand, lowest, turns.high == 0, limit))
    shown = auction_condition(variant, auction, calls, label, skip=me)
    cond = with_auction(condition, shown if shown.clauses else None)
    acceptance = None if cond is None else check_condition(variant, cond, hand, me, seed)
    accept = NO_CONDITION if cond is None else condition_rows(variant, cond)
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), variant.deck_copies - hand)
    policies = np.full(variant.players, HEURISTIC, dtype=np.int64)
    margins = seat_margins(variant, None)
    deals = DEALS if deals is None else deals
    so_far = [c.bid for c in calls]
    values, per_deal, seconds, done, interrupted = [], [], 0.0, deals, False
    for call in options:
        contract = np.array([me, 0, *so_far, call], dtype=np.int64)
        job = Job(
            partial(
                hand_rows,
                kernel_rules(variant),
                policies,
                margins,
                deal=(rest, hand, contract, accept),
                seat_scores=True,
            ),
            "rows",
            chunk_deals=CHUNK,
            unit="hands",
        )
        run = run_job(job, seed, deals, progress=progress)
        seconds += run.seconds
        done = min(done, len(run.tally))
        interrupted = interrupted or run.interrupted
        value, lines = _value(variant, me, call, run.tally)
        values.append(value)
        per_deal.append(lines)
        if run.interrupted:
            break
    score, margin = (np.stack([x[k][:done] for x in per_deal]) for k in range(2))
    return MidAuction(
        variant,
        hand,
        me,
        seed,
        done,
        calls,
        limit,
        lowest,
        values,
        seconds,
        acceptance,
        bids,
        _near_best(score),
        _near_best(margin),
        partner_meld(
            variant,
            hand,
            me,
            my_trump(variant, hand),
            _partner_deals(acceptance),
            seed,
            cond,
            acceptance,
        ),
        interrupted,
    )


def _partner_deals(acceptance: Acceptance | None) -> int:
    """Deals for partner's meld: :data:`simcore.answers.partner_meld.DEALS`, fewer where the condition
    keeps so few deals that they would cost more than :data:`PARTNER_TRIED` tried."""
    if acceptance is None:
        return PARTNER_MELD_DEALS
    kept = acceptance.accepted / max(acceptance.tried, 1)
    return int(min(PARTNER_MELD_DEALS, max(PARTNER_DEALS_LEAST, PARTNER_TRIED * kept)))


def _near_best(x: np.ndarray) -> tuple[int, ...]:
    """The rows of ``x`` (a call each, a deal per column) whose mean is the highest, or whose paired
    difference from it (deal by deal: the same deals for every call) has a 95% interval reaching 0."""
    best = int(np.argmax(x.mean(axis=1)))
    return tuple(i for i in range(len(x)) if i == best or values_interval(x[i] - x[best]).hi >= 0)


def seat_to_call(variant: Variant, auction: str, label: str = "--auction", seat: int | None = None) -> int:
    """The seat whose turn it is after ``auction``; raises :class:`AuctionError` when the auction is over
    or it is not ``seat``'s turn (None: whoever's it is)."""
    return _to_call(read_calls(variant, auction, label)[1], auction, label, seat)


def _to_call(turns: Turns, auction: str, label: str, seat: int | None) -> int:
    me = turns.next_seat()
    if me is None:
        raise AuctionError(f"{label} {auction!r}: the auction is over; there is no call left to advise")
    if seat is not None and seat != me:
        raise AuctionError(f"{label} {auction!r}: it is seat {me}'s turn to call, not seat {seat}'s")
    return me


def _value(variant: Variant, seat: int, call: int, rows: np.ndarray) -> tuple[CallValue, tuple[np.ndarray, np.ndarray]]:
    """A call's :class:`CallValue` from its hands' rows (records, then each seat's score line), and
    deal by deal my line and my margin."""
    team = my_team(variant, seat)
    others = [s for s in range(variant.players) if s not in team]
    bidder = rows[:, h.F_BIDDER]
    ours = np.isin(bidder, team)
    made = ours & (rows[:, h.F_MADE] == 1)
    lines = rows[:, h.N_FIELDS : h.N_FIELDS + variant.players]
    mine = lines[:, seat]
    margin = mine - lines[:, others].mean(axis=1)
    n_ours = int(ours.sum())
    return CallValue(
        call,
        wilson(n_ours, len(rows)),
        n_ours,
        wilson(int(made.sum()), n_ours),
        values_interval(mine),
        values_interval(margin),
        float(np.mean(bidder < 0)) if len(rows) else float("nan"),
        float(rows[ours, h.F_BID].mean()) if n_ours else float("nan"),
    ), (mine.astype(np.float64), margin)


def headline(a: MidAuction) -> str:
    """The seat to call, its hand, the auction so far and the bids it may make."""
    limit = "none (the model would not bid it)" if a.limit is None else str(a.limit)
    return (
        f"{a.variant.id}: {seat_name(a.variant, a.seat)} holds {format_hand(a.hand)}; auction so far: "
        f"{describe_calls(a.auction)}; seat {a.seat} to call (lowest bid {a.lowest}; the model's "
        f"limit for this hand {limit})"
    )
