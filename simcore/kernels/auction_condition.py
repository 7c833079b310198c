"""The auction so far (``--auction "pass 260 270"``) as a condition on the deal, under the model bidders.

The model bidders are the tuned heuristic's bid rule, as the full-hand kernel plays it
(:func:`simcore.kernels.hand._auction`): a seat's limit is its hand value plus the rules' margin share
of the trick points (``policy.margin``), and a seat that may not bid for want of a marriage has none;
at its turn a seat bids when the next bid is within its limit (over its partner's bid only with a fifth
of the trick points to spare) and passes otherwise, and the dealer's left opens where he must.

Calls are given in turn order from the dealer's left (seat 0), as the auction goes round: seats that
have passed are skipped, and so is the seat holding the high bid. Each call is a condition on its
seat's limit (``limit`` of :mod:`simcore.kernels.condition`):

* a bid of X: the limit reaches X (over partner's bid: X plus a fifth of the trick points). The model
  itself bids one step at a time, so a jump is read as how far the seat would go;
* a pass facing the next bid W: the limit falls short of W (over partner: of W plus the fifth);
* the forced opening: nothing.

The deal is conditioned by rejection: deals whose seats' limits disagree with any call are dealt
again. The answer holds under the model bidders, not for players who bid otherwise.
:func:`condition_rows` compiles any condition with the rules' values the model's tests read.

It sits with the kernels, below the game state, because the sampling player reads the auction by it as
the answers do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simcore.kernels import hand as h
from simcore.kernels.compiled import hand_rules
from simcore.kernels.condition import NO_LIMIT, Q_LIMIT, Bound, Clause, Condition, ConditionError
from simcore.variants import Variant, require_auction
from simcore.variants import layout as lay

MODEL = (
    "under the model bidders (the tuned heuristic's bid rule: a seat bids while the next bid is within "
    "its limit, its hand value plus the margin); a bid of X is read as a limit of at least X, a pass as "
    "a limit below the bid it faced; deals that disagree are dealt again (rejection)"
)


class AuctionError(ConditionError):
    """An auction the rules do not allow; one line naming the call."""


@dataclass(frozen=True)
class Call:
    """One call: ``seat`` (clockwise from the dealer's left) bid ``bid`` (0: passed); ``faced``: the
    lowest bid it could have made; ``forced``: the dealer's left's forced opening."""

    seat: int
    bid: int
    faced: int
    forced: bool = False


def _seat_name(variant: Variant, seat: int) -> str:
    where = {0: "the dealer's left", variant.players - 1: "the dealer"}.get(seat)
    return f"seat {seat}" + (f" ({where})" if where else "")


class Turns:
    """The auction's turn order as the kernel keeps it (:func:`simcore.kernels.hand._bidding`): from the
    dealer's left round the table, past the seats that passed and the seat holding the high bid, until
    one is left (one round with ``auction.kind = "single"``)."""

    def __init__(self, variant: Variant):
        self.rules = hand_rules(variant)
        self.players = variant.players
        self.active = (1 << self.players) - 1
        self.high, self.high_seat, self.seat, self.turns = 0, -1, 0, 0

    def next_seat(self) -> int | None:
        """The seat to call now (None: the auction is over), moving past the seats that cannot."""
        single = self.rules.auction == lay.AUCTION_SINGLE
        while True:
            n_active = bin(self.active).count("1")
            if (
                (single and self.turns >= self.players)
                or n_active == 0
                or (n_active == 1 and self.high_seat >= 0 and (self.active >> self.high_seat) & 1)
            ):
                return None
            if (self.active >> self.seat) & 1 and self.seat != self.high_seat:
                return self.seat
            self.turns, self.seat = self.turns + 1, (self.seat + 1) % self.players

    @property
    def lowest(self) -> int:
        """The lowest bid the seat to call may make."""
        return int(h.next_bid(self.high, self.rules))

    @property
    def forced(self) -> bool:
        """Whether the seat to call must open (the dealer's left's first turn, where the rules force it)."""
        return self.turns == 0 and self.rules.opening_forced != 0

    def call(self, bid: int) -> None:
        """The seat to call (after :meth:`next_seat`) bids ``bid`` (0: passes)."""
        if bid:
            self.high, self.high_seat = bid, self.seat
        else:
            self.active &= ~(1 << self.seat)
        self.turns, self.seat = self.turns + 1, (self.seat + 1) % self.players


def bid_problem(variant: Variant, turns: Turns, bid: int) -> str | None:
    """Why the seat to call may not bid ``bid`` now (None: it may), in a few words."""
    r = hand_rules(variant)
    want = turns.lowest
    if bid < r.min_bid:
        return f"below the minimum bid {r.min_bid} of {variant.id}"
    if bid < want:
        return f"{_seat_name(variant, turns.seat)} must bid at least {want}, above the bid of {turns.high}"
    if not _on_grid(bid, r):
        return (
            f"not a bid in {variant.id} (bids go up by {r.step}"
            + (f", by {r.step_after} from {r.step_from}" if r.step_from > 0 else "")
            + ")"
        )
    if turns.high == 0 and r.max_opening > 0 and bid > r.max_opening:
        return f"the opening bid is at most {r.max_opening} in {variant.id}"
    return None


def read_calls(variant: Variant, text: str, label: str = "--auction") -> tuple[list[Call], Turns]:
    """The calls of ``text`` and the turn order after them. Raises :class:`AuctionError` (one line
    naming the call) for an auction the rules do not allow."""
    require_auction(variant, "no auction to condition on")
    r = hand_rules(variant)
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise AuctionError(
            f"{label}: no calls; give them in turn order from the dealer's left, e.g. "
            f"'pass {r.min_bid} {h.next_bid(r.min_bid, r)}'"
        )
    turns = Turns(variant)
    calls: list[Call] = []
    for i, token in enumerate(tokens):
        where = f"{label} call {i + 1} {token!r}"
        seat = turns.next_seat()
        if seat is None:
            raise AuctionError(f"{where}: the auction is over after {len(calls)} call{'s' if len(calls) != 1 else ''}")
        want, forced = turns.lowest, turns.forced
        if token.lower() in ("pass", "p", "-"):
            if forced:
                raise AuctionError(
                    f"{where}: {_seat_name(variant, seat)} must open in {variant.id}; the lowest bid is {want}"
                )
            bid = 0
        else:
            if not (token.isascii() and token.isdigit()):
                raise AuctionError(f"{where}: a call is 'pass' or a bid, e.g. {want}")
            bid = int(token)
            problem = bid_problem(variant, turns, bid)
            if problem:
                raise AuctionError(f"{where}: {problem}")
        calls.append(Call(seat, bid, want, forced and bid > 0))
        turns.call(bid)
    return calls, turns


def read_auction(variant: Variant, text: str, label: str = "--auction") -> tuple[list[Call], Condition]:
    """The calls of ``text`` and the condition they put on the deal. Raises :class:`AuctionError` (one
    line naming the call) for an auction the rules do not allow."""
    calls, _ = read_calls(variant, text, label)
    return calls, auction_condition(variant, text, calls, label)


def _on_grid(bid: int, r) -> bool:
    """Whether ``bid`` is one the steps reach from the minimum (past ``step_from``, multiples of ``step_after``)."""
    if r.step_from > 0 and bid > r.step_from:
        return bid % r.step_after == 0
    return (bid - r.min_bid) % r.step == 0


def auction_condition(
    variant: Variant, text: str, calls: list[Call], label: str = "--auction", skip: int = -1
) -> Condition:
    """The bounds each seat's limit must meet for the model to have made ``calls`` (``skip``: a seat
    whose calls bound nothing, as the seat whose hand is known; no clauses where none is bounded)."""
    r = hand_rules(variant)
    spare = int(r.trick_total) // 5
    lo = [-1] * variant.players
    hi = [int(NO_LIMIT)] * variant.players
    high_seat = -1
    for c in calls:
        over_partner = r.teams == lay.TEAMS_ACROSS and high_seat >= 0 and (c.seat - high_seat) % 2 == 0
        extra = spare if over_partner else 0
        if c.bid:
            if not c.forced:
                lo[c.seat] = max(lo[c.seat], c.bid + extra)
            high_seat = c.seat
        else:
            hi[c.seat] = min(hi[c.seat], c.faced + extra - 1)
    clauses = []
    for s in range(variant.players):
        if s != skip and (lo[s] > -1 or hi[s] < NO_LIMIT):
            if lo[s] > hi[s]:
                raise AuctionError(
                    f"{label} {text!r}: under the model bidders {_seat_name(variant, s)} cannot "
                    f"both bid {lo[s]} and pass below {hi[s] + 1}"
                )
            clauses.append(Clause(f"seat {s}", (s,), (Bound(Q_LIMIT, 0, lo[s], hi[s]),)))
    return Condition(text, tuple(clauses), variant.players, label)


def seen_auction_condition(variant: Variant, bids: list[tuple[int, int]], seat: int) -> Condition | None:
    """The condition the calls ``bids`` ((seat, bid) pairs in turn, 0 for a pass: a game state's
    observation) put on every seat but ``seat`` under the model bidders; None where the model cannot
    have made them."""
    text = " ".join(str(b) if b else "pass" for _, b in bids)
    try:
        calls, _ = read_calls(variant, text)
        return auction_condition(variant, text, calls, skip=seat)
    except AuctionError:
        return None


def condition_rows(variant: Variant, condition: Condition) -> np.ndarray:
    """The compiled condition (int64[tests, ROW]) with the rules' values its ``value`` and ``trump``
    tests read (the heuristic's bidding rule, as :mod:`simcore.kernels.hand` applies it)."""
    r = hand_rules(variant)
    partner = r.partner_meld if r.teams != h.TEAMS_ALONE else 0
    no_marriage_no_bid = (r.trump_needs_marriage != 0 and r.trump_after_widow == 0) or r.bid_needs_marriage != 0
    return condition.rows(
        int(r.trick_total),
        int(partner),
        int(r.pass_cards),
        int(r.trump_needs_marriage),
        float(variant.get("policy.margin")),
        int(no_marriage_no_bid),
    )


def describe_calls(calls: list[Call]) -> str:
    """'seat 0 pass  seat 1 260' for the calls so far."""
    return "  ".join(f"seat {c.seat} {c.bid or 'pass'}" for c in calls)


def with_auction(condition: Condition | None, auction: Condition | None) -> Condition | None:
    """Both conditions at once (either may be None)."""
    if condition is None or auction is None:
        return condition or auction
    return Condition(
        f"{condition.text}; {auction.text}", condition.clauses + auction.clauses, condition.players, condition.label
    )


def with_calls(
    variant: Variant, condition: Condition | None, text: str | None, label: str = "--auction"
) -> tuple[tuple[int, ...], Condition | None]:
    """(the calls of the auction so far ``text``, a bid or 0 for a pass each; ``condition`` and the
    auction's bounds together): what a run that makes the calls as given and lets the model bid on
    needs. No ``text``: no calls and ``condition`` alone."""
    if text is None:
        return (), condition
    calls, auction = read_auction(variant, text, label)
    return tuple(c.bid for c in calls), with_auction(condition, auction if auction.clauses else None)


def require_model_bidders(policy: str | Sequence[str], label: str) -> None:
    """Raise :class:`AuctionError` unless every seat bids by the heuristic's rule: the auction so far
    is read under the model bidders, so no other policy may bid on after it."""
    names = policy.split(",") if isinstance(policy, str) else list(policy)
    if any(str(p).strip() != "heuristic" for p in names):
        raise AuctionError(
            f"{label} {policy!r}: with an auction so far every seat bids as the model bidders do "
            "(the heuristic's bid rule); only 'heuristic'"
        )
