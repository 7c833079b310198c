"""The deals the sampling player plays for the strong-play page: each deal four
times, so that one set of plays serves both the duel (measurement 1) and the bidding card refitted under
strong play (measurement 4).

Deal i is :func:`simcore.state.new_hand` (seed, hand=i), the duel's deal i
(:mod:`simcore.strong.duel`). It is played

* by the heuristic at every seat (the duel's baseline; its record is the heuristic's side of the
  bidding card),
* with the sampling player in each seat set of :func:`simcore.strong.duel.seat_sets` in turn, the
  heuristic elsewhere (the duel),
* with the sampling player at every seat (its record is the strong side of the bidding card).

The sampling player's card at a state depends on that state alone (its draws are seeded by what its
seat has seen), so the four plays of one deal share its decisions: a position reached in two plays is
solved once (:class:`SharedDecisions`). Until a sampling seat on each side has played a card other than
the heuristic's, the all-seats play walks through positions the duel's plays already solved. This
changes no card, only the time (``tests/test_strong_deals.py`` checks the records against plain plays).

Deals are independent, so :func:`play_deals` may spread them over worker processes; the results are
gathered in deal order and do not depend on how many processes ran them. Points are on the variant's
scale; seats are the hand's (0 = the dealer's left).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyses.workers import Job, chunks, run_jobs
from simcore.kernels import hand_record as h
from simcore.state.sampler import SamplingPlayer
from simcore.strong.duel import deal_points, play_state, seat_sets
from simcore.variants import Variant


class SharedDecisions:
    """``policy(state)``: ``player``'s card play in the tricks it solves or plays out, kept by the state's
    history, so that a position met again in another play of the same deal is not weighed again;
    ``solved`` counts the positions kept in its solving tricks. Every other decision goes to ``player``
    each time (the heuristic's multi-card plans keep their own bookkeeping). Exact: the same history is
    the same state, and the player decides from the state alone."""

    def __init__(self, player: SamplingPlayer):
        self.player, self.cards, self.solved = player, {}, 0

    def __call__(self, state):
        r = state.request()
        held = len(state.observation(r.seat)["hand"]) if r.kind == "play" else 0
        solved = self.player.solved(state.variant)
        if r.kind != "play" or held > max(solved, self.player.rollout_from):
            return self.player(state)
        key = tuple((s, a.kind, a.value if isinstance(a.value, int) else repr(a.value)) for s, a in state.history())
        if key not in self.cards:
            self.cards[key] = self.player(state)
            self.solved += held <= solved
        return self.cards[key]


@dataclass(frozen=True)
class DealPlays:
    """One deal's four plays, reduced to what the section uses: ``policy``/``heuristic`` the duel's
    points (:func:`simcore.strong.duel.deal_points`), ``heuristic_record``/``strong_record`` the
    records (:data:`simcore.kernels.hand_record.FIELDS` order) with the heuristic and with the sampling player
    at every seat, and ``solved`` the card decisions in the sampling player's tricks, each position
    counted once however many plays met it (forced cards included)."""

    policy: float
    heuristic: float
    heuristic_record: tuple[int, ...]
    strong_record: tuple[int, ...]
    solved: int


def record_row(state) -> tuple[int, ...]:
    rec = state.record()
    return tuple(int(rec[f]) for f in h.FIELDS)


def play_deal(variant: Variant, seed: int, i: int, player: SamplingPlayer) -> DealPlays:
    """Deal ``i``'s four plays (see the module)."""
    shared = SharedDecisions(player)
    sets = seat_sets(variant)
    base = play_state(variant, [], None, seed, i)
    halves = [play_state(variant, g, shared, seed, i, "sampling").returns() for g in sets]
    every = play_state(variant, list(range(variant.players)), shared, seed, i, "sampling")
    mine, theirs = deal_points(sets, base.returns(), halves)
    return DealPlays(mine, theirs, record_row(base), record_row(every), shared.solved)


def play_range(variant: Variant, seed: int, deals: Sequence[int], player: SamplingPlayer) -> list[DealPlays]:
    """:func:`play_deal` for each of ``deals`` (one worker job)."""
    return [play_deal(variant, seed, i, player) for i in deals]


@dataclass(frozen=True)
class StrongDeals:
    """Deals 0 .. ``len(plays)`` - 1 of ``seed``, each played four times (see the module)."""

    variant: Variant
    seed: int
    player: SamplingPlayer
    plays: tuple[DealPlays, ...]

    @property
    def sets(self) -> list[list[int]]:
        return seat_sets(self.variant)

    def duel_points(self) -> tuple[list[float], list[float]]:
        """(the sampling player's points a deal, the heuristic's in the same seats)."""
        return [p.policy for p in self.plays], [p.heuristic for p in self.plays]

    def records(self, strong: bool) -> np.ndarray:
        """int64[deals, N_FIELDS]: the records with the sampling player (``strong``) or the heuristic
        at every seat."""
        rows = [p.strong_record if strong else p.heuristic_record for p in self.plays]
        return np.array(rows, dtype=np.int64).reshape(len(rows), h.N_FIELDS)

    @property
    def solved(self) -> int:
        return sum(p.solved for p in self.plays)


def jobs(variant: Variant, deals: int, seed: int, player: SamplingPlayer, chunk: int = 4) -> list[Job]:
    """The plays of deals 0 .. ``deals`` - 1 as worker jobs (:mod:`analyses.workers`), a few deals a job,
    so that workers finish together though deals differ a lot in cost."""
    return [(play_range, (variant, seed, r, player)) for r in chunks(0, deals, chunk)]


def gather(variant: Variant, seed: int, player: SamplingPlayer, results: list[list[DealPlays]]) -> StrongDeals:
    """The :class:`StrongDeals` from the results of :func:`jobs`, in job order."""
    return StrongDeals(variant, seed, player, tuple(p for part in results for p in part))


def play_deals(
    variant: Variant,
    deals: int,
    seed: int,
    player: SamplingPlayer,
    workers: int = 1,
    say: Callable[[str], None] = lambda _: None,
    keep: Path | None = None,
) -> StrongDeals:
    """Deals 0 .. ``deals`` - 1 of ``seed``, each played four times, in ``workers`` processes
    (``say`` and ``keep``: :func:`analyses.workers.run_jobs`)."""
    return gather(variant, seed, player, run_jobs(jobs(variant, deals, seed, player), workers, say, keep=keep))
