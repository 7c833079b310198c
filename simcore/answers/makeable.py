"""The makeable bids of a deal, the pinochle form of a bridge solver's makeable-contracts table: for
each trump and each seat as the bidder, the highest bid that seat's side makes double dummy (every
hand known, both sides playing perfectly from the first lead).

A side makes bid B when its trick points reach the need :func:`simcore.answers.dd_make.trick_need`
gives: B less its meld (counted from ``scoring.min_meld_to_count``), at least one point where the meld
is saved by taking a trick (``scoring.save_meld = "trick"``: one point stands for one trick, as in
``dd-odds``) or ``scoring.save_meld_points`` where it is saved by points. The meld is the side's after
the exchange, under that trump. Each cell is answered by threshold solves ("can the side take at
least the need?") bisecting the bids the auction can reach (:func:`simcore.answers.bidodds.is_bid`),
first narrowed by the solver's exact bounds and started at the learned estimate of the side's points
(:func:`simcore.solver.position.evaluation`); a cell's solves share one transposition table. A solve
that reaches ``limit`` trick starts gives up, and the cell then says what was proved: the highest bid
shown made (``≥ B``) and the highest not shown unmakeable.

Where the rules pass cards after the bid (four-hand-150: three each way between partners), the table
assumes an exchange, a choice (:data:`EXCHANGES`): ``heuristic``, the heuristic's passes for that bidder
and trump (at the lowest contract), or ``given``, the hands taken as they are, as after the exchange.
Points are on the variant's scale; seats are numbered from 0 = the dealer's left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from simcore.answers.bidodds import is_bid
from simcore.answers.dd_make import check_variant, trick_need
from simcore.cards import SUITS, HandError, check_hand, format_hand, parse_hand
from simcore.reference.meld import reference_total
from simcore.solver.position import Position, PositionError, evaluation, sides, solve
from simcore.variants import Variant

#: How the table takes the exchange after the bid (``--exchange``).
EXCHANGES = ("heuristic", "given")
#: Trick starts one threshold solve may search before it gives up (``--limit``).
LIMIT = 100_000


class MakeableError(PositionError):
    """A deal, seed, trump or exchange the table cannot take; one line."""


@dataclass(frozen=True)
class Cell:
    """One trump and bidder: the side's counted meld, the highest bid shown made (``made``; None: not
    even the lowest contract, or unknown), the highest bid not shown unmakeable (``upper``; None: the
    lowest contract is shown unmakeable), whether the trump could be named (``allowed``: False where the
    rules ask a marriage in it the bidder lacks), and the solves' count, trick starts and seconds.
    ``made == upper`` is an exact answer; otherwise a solve gave up between them."""

    trump: int
    bidder: int
    meld: int
    made: int | None
    upper: int | None
    allowed: bool = True
    solves: int = 0
    nodes: int = 0
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return self.made == self.upper

    @property
    def text(self) -> str:
        """The cell as a table shows it: "33", "≥ 33" where a solve gave up above 33, "≤ 40" where even
        the lowest contract is unknown, "–" below the lowest contract, "·" for a trump not allowed."""
        if not self.allowed:
            return "·"
        if self.exact:
            return "–" if self.made is None else f"{self.made:,}"
        return f"≥ {self.made:,}" if self.made is not None else f"≤ {self.upper:,}"

    def to_json(self) -> dict:
        return {
            "trump": SUITS[self.trump],
            "bidder": self.bidder,
            "meld": self.meld,
            "made": self.made,
            "upper": self.upper,
            "exact": self.exact,
            "allowed": self.allowed,
            "text": self.text,
            "solves": self.solves,
            "nodes": self.nodes,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class Makeable:
    """The table of a deal: ``dealt`` the hands as dealt (seat 0 first; text), ``seed`` the seed they came
    from (None: given), the ``exchange`` assumed, the ``limit`` of a solve, and one :class:`Cell` per
    trump and bidder (the trumps asked, in the order S, H, D, C, each with seats 0, 1, ...)."""

    variant: Variant
    dealt: tuple[str, ...]
    seed: int | None
    exchange: str
    limit: int
    cells: tuple[Cell, ...]

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.cells)

    @property
    def gave_up(self) -> int:
        """Cells where a solve gave up (their answer a range)."""
        return sum(1 for c in self.cells if c.allowed and not c.exact)

    @property
    def trumps(self) -> tuple[int, ...]:
        """The trumps tabulated, in the order S, H, D, C."""
        return tuple(dict.fromkeys(c.trump for c in self.cells))

    def cell(self, trump: int, bidder: int) -> Cell:
        return next(c for c in self.cells if c.trump == trump and c.bidder == bidder)

    def best(self, bidder: int) -> Cell | None:
        """The bidder's cell with the highest bid shown made (his best trump), None where none is made."""
        made = [c for c in self.cells if c.bidder == bidder and c.made is not None]
        return max(made, key=lambda c: (c.made, -c.trump)) if made else None

    def exchange_text(self) -> str:
        if not self.variant.get("exchange.pass_cards"):
            return "no cards pass after the bid"
        n = self.variant.get("exchange.pass_cards")
        if self.exchange == "given":
            return f"the hands as given, taken as after the exchange ({n} cards each way between partners)"
        return f"the heuristic's passes ({n} cards each way between partners) for each bidder and trump"

    def to_json(self) -> dict:
        return {
            "variant": self.variant.id,
            "seed": self.seed,
            "hands": list(self.dealt),
            "exchange": self.exchange,
            "exchange_text": self.exchange_text(),
            "limit": self.limit,
            "lowest_contract": self.variant.lowest_contract,
            "seconds": self.seconds,
            "gave_up": self.gave_up,
            "cells": [c.to_json() for c in self.cells],
        }


def parse_trumps(text: str) -> tuple[int, ...]:
    """The trumps named in ``text`` ("SHDC", "S,H", suit symbols too), in the order S, H, D, C. Raises
    :class:`MakeableError` in one line for anything else."""
    letters = [{"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(c, c) for c in str(text).upper() if c not in ", "]
    bad = [c for c in letters if c not in SUITS]
    if bad or not letters:
        raise MakeableError(f"trump {str(text)[:20]!r}: give suits from S, H, D, C (e.g. 'S' or 'SHDC')")
    return tuple(t for t in range(4) if SUITS[t] in letters)


def seeded_deal(variant: Variant, seed: int) -> list[np.ndarray]:
    """The hands dealt in the first hand of ``seed`` (as ``pinochle playthrough`` deals it; a deal the
    rules throw in is dealt again from the seed's stream), then the widow: uint8[24] copy counts each."""
    from simcore.state import new_hand

    if not 0 <= seed < 2**63:
        raise MakeableError(f"seed {seed}: give a seed from 0 to {2**63 - 1}")
    state = new_hand(variant, seed, contract=(0, variant.lowest_contract))
    hands = [np.array(h, dtype=np.uint8) for h in state.hands()]
    rest = np.asarray(variant.deck_copies, dtype=np.int64) - np.sum(hands, axis=0)
    return hands + [rest.astype(np.uint8)]


def given_deal(variant: Variant, hands: list[str]) -> list[np.ndarray]:
    """The hands given as text, one a seat from seat 0, then the widow (the deck's other cards): they must
    be the whole deal, each seat a full hand. Raises :class:`MakeableError` in one line."""
    players, size = variant.players, variant.hand_size
    if len(hands) != players:
        raise MakeableError(f"{variant.id} has {players} seats: give {players} hands, got {len(hands)}")
    counts = []
    for seat, text in enumerate(hands):
        try:
            c = parse_hand(text)
        except HandError as exc:
            raise MakeableError(f"seat {seat}: {exc}") from None
        if int(c.sum()) != size:
            raise MakeableError(
                f"seat {seat}: {int(c.sum())} cards ({text[:30]!r}); a hand in {variant.id} holds {size}"
            )
        counts.append(c.astype(np.uint8))
    total = np.sum(counts, axis=0)
    try:
        check_hand(total, variant.deck_copies, None)
    except HandError as exc:
        raise MakeableError(f"the {players} hands together: {exc}") from None
    rest = np.asarray(variant.deck_copies, dtype=np.int64) - total
    return counts + [rest.astype(np.uint8)]


def first_lead(variant: Variant, deal: list[np.ndarray], bidder: int, trump: int, exchange: str) -> Position | None:
    """The position at the first lead with ``bidder`` the bidder at the lowest contract and ``trump``
    named, after the exchange (``heuristic``: the heuristic's passes, its other choices too, a hand never
    thrown in; ``given``: none, the hands as they are); None where the rules do not let him name it."""
    leader = bidder if variant.get("play.lead") == "bidder" else 0
    if exchange == "given" or not variant.get("exchange.pass_cards"):
        if variant.get("auction.trump_needs_marriage") and not _has_marriage(deal[bidder], trump):
            return None
        hands = np.array(deal[: variant.players], dtype=np.uint8)
        return Position(variant, hands, trump, leader, sides(variant, bidder, -1), bidder, True, False)
    from simcore.answers.strong import first_lead_position
    from simcore.state import Action, new_hand
    from simcore.state.players import kernel_policy

    heuristic = kernel_policy("heuristic")
    state = new_hand(variant, 0, cards=[_types(h) for h in deal], contract=(bidder, variant.lowest_contract))
    while not state.is_terminal():
        request = state.request()
        if request.kind == "play":
            return first_lead_position(state)
        if request.kind == "trump":
            if trump not in request.legal:
                return None
            state.apply(Action("trump", trump))
        elif request.kind in ("throw_in", "concede", "forfeit"):
            state.apply(Action(request.kind, 0))  # the table asks what the side makes playing it out
        else:
            state.apply(heuristic(state))
    return None


def _has_marriage(hand: np.ndarray, trump: int) -> bool:
    return bool(hand[trump * 6 + 2] and hand[trump * 6 + 3])


def side_meld(position: Position) -> int:
    """The bidding side's meld under the position's trump, from the hands it holds at the first lead."""
    v = position.variant
    return sum(reference_total(position.hands[s], position.trump, v) for s in range(v.players) if position.side[s])


def makeable_cell(position: Position, meld: int, limit: int = LIMIT) -> Cell:
    """The :class:`Cell` of the side of ``position`` (its bidder, trump) with ``meld``: bisection over the
    bids the auction can reach of threshold solves, each at most ``limit`` trick starts (0: none)."""
    v = position.variant
    start = time.perf_counter()
    lowest = v.lowest_contract
    counted = meld if meld >= v.get("scoring.min_meld_to_count") else 0
    bids = [b for b in range(lowest, max(lowest, counted + position.in_play) + 1) if is_bid(v, b)]
    est = evaluation(position)
    # made: the index of the highest bid known made (-1: none yet); unmade: the lowest known unmade
    made, unmade = -1, len(bids)
    needs = [trick_need(v, b, meld) for b in bids]
    for i, need in enumerate(needs):
        if need <= est.lower:
            made = i
        elif need > est.upper and unmade == len(bids):
            unmade = i
    solves = nodes = 0
    unknown: list[int] = []  # bids whose solve gave up
    guess = next((i for i, n in enumerate(needs) if n >= est.estimate), len(bids) - 1)
    while True:
        # the open stretches: bids above the highest made and below the lowest unmade, less those unknown;
        # bisect the widest, so that a give-up still lets the bids on either side of it be settled
        fences = [made] + sorted(u for u in unknown if made < u < unmade) + [unmade]
        lo, hi = max(zip(fences, fences[1:]), key=lambda f: f[1] - f[0])
        if hi - lo <= 1:
            break
        mid = guess if solves == 0 and lo < guess < hi else (lo + hi) // 2
        got = solve(position, needs[mid], limit, keep_table=solves > 0)
        solves += 1
        nodes += got.nodes
        if got.gave_up:
            unknown.append(mid)
        elif got.reaches:
            made = mid
        else:
            unmade = mid
    upper = unmade - 1  # where a solve gave up, the bids from made + 1 to here are unknown
    return Cell(
        position.trump,
        position.bidder,
        meld,
        bids[made] if made >= 0 else None,
        bids[upper] if upper >= 0 else None,
        True,
        solves,
        nodes,
        time.perf_counter() - start,
    )


def makeable(
    variant: Variant,
    seed: int | None = None,
    hands: list[str] | None = None,
    exchange: str = "heuristic",
    limit: int = LIMIT,
    trumps: str = "SHDC",
) -> Makeable:
    """The :class:`Makeable` table of a deal: the first hand of ``seed`` as dealt, or ``hands`` (one a
    seat, the whole deal; with ``exchange = "given"``, the hands after the exchange). Raises
    :class:`~simcore.variants.NotForThisSystem` for a system whose made rule the solver cannot state,
    :class:`MakeableError` for a bad deal, seed, exchange, limit or ``trumps`` (the suits tabulated, as
    :func:`parse_trumps` reads them; one line each)."""
    check_variant(variant)
    if exchange not in EXCHANGES:
        raise MakeableError(f"exchange {exchange[:20]!r}: give one of {', '.join(EXCHANGES)}")
    if limit < 0:
        raise MakeableError(f"limit {limit}: give a number of trick starts, 0 for none")
    if (seed is None) == (hands is None):
        raise MakeableError("give a seed or the hands, one of the two")
    suits = parse_trumps(trumps)
    deal = seeded_deal(variant, seed) if hands is None else given_deal(variant, hands)
    return table_of_deal(variant, deal, seed, exchange, limit, suits)


def table_of_deal(
    variant: Variant,
    deal: list[np.ndarray],
    seed: int | None,
    exchange: str,
    limit: int = LIMIT,
    trumps: tuple[int, ...] = (0, 1, 2, 3),
) -> Makeable:
    """:func:`makeable` of a deal already read (:func:`seeded_deal`, :func:`given_deal`; ``seed`` names
    it), the trumps as suit indices. Progress, in cells answered, goes to the
    :class:`simcore.run.runner.Execution` in force."""
    from simcore.run.runner import checkpoint

    cells = []
    total = len(trumps) * variant.players
    for trump in trumps:
        for bidder in range(variant.players):
            checkpoint(len(cells), total)
            position = first_lead(variant, deal, bidder, trump, exchange)
            if position is None:
                cells.append(Cell(trump, bidder, 0, None, None, allowed=False))
                continue
            cells.append(makeable_cell(position, side_meld(position), limit))
    checkpoint(total, total)
    dealt = tuple(format_hand(h) for h in deal[: variant.players])
    return Makeable(variant, dealt, seed, exchange, limit, tuple(cells))


def _types(counts: np.ndarray) -> list[int]:
    """Copy counts as a list of card types, a type once per copy (as :func:`simcore.state.new_hand` takes
    cards)."""
    return [t for t in range(len(counts)) for _ in range(int(counts[t]))]
