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
"""

from __future__ import annotations

from dataclasses import dataclass

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


def read_auction(variant: Variant, text: str, label: str = "--auction") -> tuple[list[Call], Condition]:
    """The calls of ``text`` and the condition they put on the deal. Raises :class:`AuctionError` (one
    line naming the call) for an auction the rules do not allow."""
    require_auction(variant, "no auction to condition on")
    r = hand_rules(variant)
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise AuctionError(
            f"{label}: no calls; give them in turn order from the dealer's left, e.g. "
            f"'pass {r.min_bid} {h.next_bid(r.min_bid, r)}'"
        )
    players = variant.players
    single = r.auction == lay.AUCTION_SINGLE
    active = (1 << players) - 1
    high, high_seat, seat, turns = 0, -1, 0, 0
    calls: list[Call] = []
    for i, token in enumerate(tokens):
        where = f"{label} call {i + 1} {token!r}"
        while True:  # the kernel's turn order: past the seats that passed and the high bidder, until it ends
            n_active = bin(active).count("1")
            if (
                (single and turns >= players)
                or n_active == 0
                or (n_active == 1 and high_seat >= 0 and (active >> high_seat) & 1)
            ):
                raise AuctionError(
                    f"{where}: the auction is over after {len(calls)} call{'s' if len(calls) != 1 else ''}"
                )
            if (active >> seat) & 1 and seat != high_seat:
                break
            turns, seat = turns + 1, (seat + 1) % players
        want = int(h.next_bid(high, r))
        forced = turns == 0 and r.opening_forced != 0
        name = _seat_name(variant, seat)
        if token.lower() in ("pass", "p", "-"):
            if forced:
                raise AuctionError(f"{where}: {name} must open in {variant.id}; the lowest bid is {want}")
            calls.append(Call(seat, 0, want))
            active &= ~(1 << seat)
        else:
            if not (token.isascii() and token.isdigit()):
                raise AuctionError(f"{where}: a call is 'pass' or a bid, e.g. {want}")
            bid = int(token)
            if bid < r.min_bid:
                raise AuctionError(f"{where}: below the minimum bid {r.min_bid} of {variant.id}")
            if bid < want:
                raise AuctionError(f"{where}: {name} must bid at least {want}, above the bid of {high}")
            if not _on_grid(bid, r):
                raise AuctionError(
                    f"{where}: not a bid in {variant.id} (bids go up by {r.step}"
                    + (f", by {r.step_after} from {r.step_from}" if r.step_from > 0 else "")
                    + ")"
                )
            if high == 0 and r.max_opening > 0 and bid > r.max_opening:
                raise AuctionError(f"{where}: the opening bid is at most {r.max_opening} in {variant.id}")
            calls.append(Call(seat, bid, want, forced))
            high, high_seat = bid, seat
        turns, seat = turns + 1, (seat + 1) % players
    return calls, _condition(variant, text, calls, label)


def _on_grid(bid: int, r) -> bool:
    """Whether ``bid`` is one the steps reach from the minimum (past ``step_from``, multiples of ``step_after``)."""
    if r.step_from > 0 and bid > r.step_from:
        return bid % r.step_after == 0
    return (bid - r.min_bid) % r.step == 0


def _condition(variant: Variant, text: str, calls: list[Call], label: str) -> Condition:
    """The bounds each seat's limit must meet for the model to have made ``calls``."""
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
        if lo[s] > -1 or hi[s] < NO_LIMIT:
            if lo[s] > hi[s]:
                raise AuctionError(
                    f"{label} {text!r}: under the model bidders {_seat_name(variant, s)} cannot "
                    f"both bid {lo[s]} and pass below {hi[s] + 1}"
                )
            clauses.append(Clause(f"seat {s}", (s,), (Bound(Q_LIMIT, 0, lo[s], hi[s]),)))
    return Condition(text, tuple(clauses), variant.players, label)


def with_auction(condition: Condition | None, auction: Condition | None) -> Condition | None:
    """Both conditions at once (either may be None)."""
    if condition is None or auction is None:
        return condition or auction
    return Condition(
        f"{condition.text}; {auction.text}", condition.clauses + auction.clauses, condition.players, condition.label
    )
