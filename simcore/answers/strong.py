"""Answers under strong play: a deal played by the sampling player at every seat (``--play strong``),
or solved double dummy from its first lead (``--play dd``), beside the heuristic's play of the same deal.

The heuristic answers (``advise``, ``bid-odds``) play every deal in the hand kernel. Here each deal is
played twice through the state API (:mod:`simcore.state`), from the same cards and the same stream:

- by the heuristic at every seat (:func:`simcore.state.players.kernel_policy`, the kernel's own
  decisions, so its record is the kernel's), and
- ``strong``: by :class:`simcore.state.sampler.SamplingPlayer` at every seat. It plays each card of the
  last ``solve_from`` tricks by dealing the cards it has not seen ``samples`` times and solving them
  double dummy, and everything else (the trump, the cards passed and buried, earlier cards) as the
  heuristic. Both sides play well: the defenders defend as well as the bidder plays.
- ``dd``: the heuristic's hand up to its first lead (the same contract, trump, exchange and meld), then
  the bidding side's trick points with every hand known and perfect play by both sides
  (:func:`simcore.solver.position.solve`, a perfect-information ceiling). A solve that reaches ``limit``
  trick starts gives up; its deal counts as made in the upper bound of a rate and as not made in the
  lower, so the bounds are honest whatever the limit. Only systems whose made rule the solver can state
  (:func:`simcore.answers.dd_make.check_variant`).

A deal's side total (the bidding side's meld as kept plus its trick points) is what it takes at any bid,
as in the heuristic answers (:func:`simcore.answers.bidodds.totals_and_stops`). Under ``dd`` it is the
counted meld plus the solved points where the meld is saved (by a trick where the rules ask one: one
point stands for one trick, as in :func:`simcore.answers.dd_make.trick_need`), the points alone where it is
not. Points are on the variant's scale; seats are numbered from 0 = the dealer's left.

Deal k of a run is dealt from the stream of (seed, k) (:func:`simcore.kernels.rng.chunk_states`), one deal
a chunk, so a deal's numbers depend only on the rules, seed, k and the player, never on the thread count;
the chunk runner keeps finished deals in the results store and resumes from them.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

import numba
import numpy as np

from simcore.answers.advise import METHOD, SHARES, BidShare, check_advisable, highest_share
from simcore.answers.bidodds import MELD_BINS, bid_grid, is_bid, joint_params, meld_unit, totals_and_stops
from simcore.answers.dd_make import check_variant as check_dd_variant
from simcore.answers.dd_make import settled, trick_need
from simcore.answers.simulate import hand_rows
from simcore.cards import N_TYPES, card_types, format_hand
from simcore.kernels import hand_record as h
from simcore.kernels.compiled import hand_rules, kernel_rules
from simcore.kernels.deal import deal_given_into
from simcore.kernels.hand import redeal_dealt
from simcore.kernels.hand_drivers import seat_margins
from simcore.kernels.policies import HEURISTIC
from simcore.kernels.rng import chunk_states
from simcore.run.runner import Job, RunResult, run_job
from simcore.run.stats import Interval, values_interval, wilson
from simcore.run.store import RunInfo
from simcore.solver.escalation import FACTOR, Pass, escalated_solves
from simcore.solver.position import Position, Solved, sides, solve
from simcore.state import HandState, new_hand
from simcore.state.players import kernel_policy
from simcore.state.sampler import (
    EVERY_TRICK,
    SOLVE_FROM,
    SamplingPlayer,
    fits_text,
    playouts_text,
    reads_auction,
    reads_duties,
    solves_from,
)
from simcore.variants import Variant
from simcore.variants import layout as lay

#: How the cards are played, as ``--play`` names it.
PLAYS = ("heuristic", "strong", "dd")
#: Trick starts a double-dummy solve may search before it gives up (``--limit``).
DD_LIMIT = 5_000_000
#: Trick starts the deals whose solve gave up may spend in all being solved again (``--budget``).
DD_BUDGET = 1_000_000_000
#: Columns of a deal's row after the two records (the heuristic's, then the play's): the solved
#: points (-1: none), and 1 where the solve gave up.
DD_POINTS, GAVE_UP = 2 * h.N_FIELDS, 2 * h.N_FIELDS + 1
ROW_WIDTH = 2 * h.N_FIELDS + 2


class StrongPlayError(ValueError):
    """A play, sample count or system that strong play cannot take; one line."""


@dataclass(frozen=True)
class Play:
    """How the cards are played: ``name`` one of :data:`PLAYS`; ``samples`` deals a decision and
    ``solve_from`` the tricks from the end solved by the sampling player (``strong``; None: the system's
    default, :func:`~simcore.state.sampler.solves_from`, filled in by :func:`check_play`); ``limit`` the trick
    starts of a ``dd`` solve, and ``bid`` the one bid it asks about (a threshold solve, much cheaper;
    None: the exact points, for every bid), and ``budget`` the trick starts that may be spent solving
    again, at ten times the limit a pass, the deals whose solve gave up (:func:`escalated_rows`; 0:
    none); ``rollout_from`` the tricks from the end from which the
    sampling player weighs its cards by the heuristic's playouts until it solves (0: none);
    ``read_auction`` whether its deals fit the bids (read as the model bidders make them; None: as the
    system's sampling player does by default, :func:`~simcore.state.sampler.reads_auction`); ``read_duties``
    whether they respect the duties of play the seats have shown (None: the system's default,
    :func:`~simcore.state.sampler.reads_duties`, filled in by :func:`check_play`)."""

    name: str = "strong"
    samples: int = 20
    solve_from: int | None = None
    limit: int = DD_LIMIT
    bid: int | None = None
    rollout_from: int = EVERY_TRICK
    read_auction: bool | None = None
    read_duties: bool | None = None
    budget: int = DD_BUDGET

    def text(self) -> str:
        """How a report names it: 'strong play (...)', 'double dummy (...)' or 'heuristic play'. Before
        :func:`check_play` fills in ``solve_from`` for a system, it is named as most systems' default."""
        solve_from = SOLVE_FROM if self.solve_from is None else self.solve_from
        playouts = playouts_text(self.rollout_from, solve_from)
        fits = fits_text(self.read_auction, self.read_duties)
        bids = f", the deals fitting {fits}" if fits else ""
        if self.name == "strong" and playouts:
            return (
                f"strong play (the sampling player at every seat: {self.samples} deals a card{bids}, solved "
                f"over the last {solve_from} tricks, played out by the heuristic {playouts})"
            )
        if self.name == "strong":
            return (
                f"strong play (the sampling player at every seat: {self.samples} deals a card{bids} over the "
                f"last {solve_from} tricks, the heuristic elsewhere)"
            )
        if self.name == "dd":
            again = f", those that give up solved again within {self.budget:,} more" if self.budget else ""
            return (
                f"double dummy from the first lead (every hand known; solves give up at {self.limit:,} trick "
                f"starts{again})"
            )
        return "heuristic play"

    def params(self) -> dict:
        """What a deal's row depends on (the results store's key): everything but ``budget``, which only
        decides how far the deals whose solve gave up are solved again afterwards."""
        return {
            "play": self.name,
            "samples": self.samples,
            "solve_from": self.solve_from,
            "limit": self.limit,
            "bid": self.bid,
            "rollout_from": self.rollout_from,
            "read_auction": self.read_auction,
            "read_duties": self.read_duties,
        }


def check_play(variant: Variant, play: Play) -> Play:
    """``play`` with the tricks its sampling player solves filled in for ``variant`` (``solve_from``);
    raise :class:`StrongPlayError` (or :class:`~simcore.variants.NotForThisSystem`) unless it can be played
    under ``variant``."""
    if play.name not in PLAYS[1:]:
        raise StrongPlayError(f"--play {play.name!r}: give one of {', '.join(PLAYS)}")
    play = replace(
        play,
        solve_from=solves_from(variant, play.solve_from),
        read_duties=reads_duties(variant, play.read_duties),
    )
    if play.samples < 1 or play.solve_from < 1 or play.limit < 1:
        raise StrongPlayError(
            f"--samples {play.samples}, --solve-from {play.solve_from}, --limit {play.limit}: each at least 1"
        )
    if play.budget < 0:
        raise StrongPlayError(f"--budget {play.budget}: trick starts, 0 (no second pass) or more")
    if play.rollout_from < 0:
        raise StrongPlayError(f"--rollout-from {play.rollout_from}: 0 or more")
    if play.name == "dd":
        check_dd_variant(variant)
    return play


# --- one deal ---------------------------------------------------------------------------------------------
def record_row(state: HandState) -> np.ndarray:
    """int64[N_FIELDS]: a finished hand's record in the kernel's field order."""
    rec = state.record()
    return np.array([rec[f] for f in h.FIELDS], dtype=np.int64)


def heuristic_state(state: HandState, until_play: bool = False) -> HandState:
    """``state`` played on by the heuristic at every seat, to its end (or to its first card, with
    ``until_play``)."""
    heuristic = kernel_policy("heuristic")
    while not state.is_terminal():
        if until_play and state.request().kind == "play":
            break
        state.apply(heuristic(state))
    return state


def strong_state(state: HandState, play: Play, seed: int) -> HandState:
    """``state`` played to its end by the sampling player at every seat."""
    player = SamplingPlayer(
        samples=play.samples,
        solve_from=play.solve_from,
        seed=seed,
        rollout_from=play.rollout_from,
        read_auction=play.read_auction,
        read_duties=play.read_duties,
    )
    while not state.is_terminal():
        state.apply(player(state))
    return state


def first_lead_position(state: HandState) -> Position:
    """The position at ``state``'s first lead with every hand known (the trick just starting)."""
    v, seat = state.variant, state.current_player()
    obs = state.observation(seat)
    partner = -1 if obs["partner"] is None else int(obs["partner"])
    hands = np.array(state.hands(), dtype=np.uint8)
    trump = "SHDC".index(obs["trump"])
    return Position(v, hands, trump, seat, sides(v, obs["bidder"], partner), obs["bidder"], True, False)


def deal_row(variant: Variant, make_state, play: Play, seed: int) -> np.ndarray:
    """int64[ROW_WIDTH]: one deal (``make_state()`` gives it fresh, at its first decision) played by the
    heuristic and by ``play`` (see the module)."""
    row = np.full(ROW_WIDTH, 0, dtype=np.int64)
    row[DD_POINTS] = -1
    if play.name == "dd":
        state = heuristic_state(make_state(), until_play=True)
        rec = record_row(heuristic_state(state.clone()))
        if not state.is_terminal() and not state.observation(state.current_player())["tricks"]:
            row[DD_POINTS], row[GAVE_UP] = _solved_points(variant, first_lead_position(state), play, rec)
        row[: h.N_FIELDS] = rec
        row[h.N_FIELDS : 2 * h.N_FIELDS] = rec
        return row
    row[: h.N_FIELDS] = record_row(heuristic_state(make_state()))
    row[h.N_FIELDS : 2 * h.N_FIELDS] = record_row(strong_state(make_state(), play, seed))
    return row


def _solved_points(variant: Variant, position: Position, play: Play, rec: np.ndarray) -> tuple[int, int]:
    """(the bidding side's points from ``position`` with perfect play, 1 where the solve gave up). With
    ``play.bid``, one threshold solve at the points that bid needs with the record's meld
    (:func:`simcore.answers.dd_make.trick_need`): the need when it is reached, one less when not, so
    that the side total says "made" exactly at that bid."""
    need = _dd_need(variant, play, rec)
    if need is not None and need <= 0:
        return 0, 0
    return _dd_points(solve(position, need, play.limit), need)


def _dd_need(variant: Variant, play: Play, rec: np.ndarray) -> int | None:
    """The trick points a deal's solve asks about: those ``play.bid`` needs with the record's meld, None
    for the exact points (no bid asked)."""
    return None if play.bid is None else trick_need(variant, play.bid, int(rec[h.F_SIDE_MELD]))


def _dd_points(solved: Solved, need: int | None) -> tuple[int, int]:
    """A deal's (solved points, gave up) columns from its solve of ``need`` (None: the exact points)."""
    if need is None:
        return (-1 if solved.side_points is None else solved.side_points), int(solved.gave_up)
    return (need if solved.reaches else need - 1), int(solved.gave_up)


def given_cards(variant: Variant, given: np.ndarray, seat: int, state: np.ndarray) -> list[list[int]]:
    """A deal with ``seat`` holding ``given`` and the other cards dealt uniformly from the stream
    ``state`` (uint64[4], advanced in place), dealt again while a redeal rule would throw it in: each
    seat's card types, then the widow's (as :func:`simcore.state.new_hand` takes them)."""
    rules = hand_rules(variant)
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), np.asarray(variant.deck_copies) - given)
    hands = np.zeros((variant.players, N_TYPES), dtype=np.uint8)
    widow = np.zeros(N_TYPES, dtype=np.uint8)
    while True:
        deal_given_into(state, rest, variant.players, variant.hand_size, given, seat, hands, widow)
        if not redeal_dealt(hands, variant.players, rules):
            return [card_types(x) for x in hands] + [card_types(widow)]


def given_state(variant: Variant, given: np.ndarray, seat: int, seed: int, chunk: int, state: np.ndarray):
    """A function giving chunk ``chunk``'s deal of the unseen cards fresh, ``seat`` the bidder at the
    lowest contract with no auction (as ``advise`` plays it)."""
    cards = given_cards(variant, given, seat, state)
    contract = (seat, variant.lowest_contract)
    return lambda: new_hand(variant, seed, cards=cards, hand=chunk, contract=contract)


def seeded_state(variant: Variant, seed: int, chunk: int):
    """A function giving the first hand of chunk ``chunk``'s stream for ``seed`` fresh, bid by the seats."""
    return lambda: new_hand(variant, seed, hand=chunk)


def deal_maker(
    variant: Variant,
    seed: int,
    given: tuple[tuple[int, ...], int] | None,
    picks: tuple[int, ...] | None,
    k: int,
    state: np.ndarray,
):
    """A function giving chunk ``k``'s deal fresh (:func:`deal_rows` says what ``given`` and ``picks``
    mean), ``state`` the chunk's stream (uint64[4], not changed)."""
    if given is None:
        return seeded_state(variant, seed, k if picks is None else picks[k])
    return given_state(variant, np.array(given[0], dtype=np.uint8), given[1], seed, k, state.copy())


def deal_rows(
    variant: Variant,
    play: Play,
    seed: int,
    given: tuple[tuple[int, ...], int] | None,
    picks: tuple[int, ...] | None,
    states: np.ndarray,
    sizes: np.ndarray,
    chunks: np.ndarray,
) -> np.ndarray:
    """int64[sum(sizes), ROW_WIDTH]: the chunk runner's task, one deal a chunk (:func:`deal_row`),
    the deals of a batch on numba's thread count of Python threads. ``given``: (the hand's copy
    counts, its seat) for deals of the unseen cards at a set contract; None: seeded deals, bid by the
    heuristic, chunk k playing the first hand of the stream of (seed, ``picks[k]``) (None: of k)."""
    if np.any(sizes != 1):
        raise ValueError("strong play deals one deal a chunk")

    def one(i: int) -> np.ndarray:
        return deal_row(variant, deal_maker(variant, seed, given, picks, int(chunks[i]), states[i]), play, seed)

    threads = min(numba.get_num_threads(), len(chunks))
    # worker threads start without the caller's execution context, so the sampling player's solves
    # never report their cards as the run's progress
    with ThreadPoolExecutor(max(1, threads)) as pool:
        rows = list(pool.map(one, range(len(chunks))))
    return np.array(rows, dtype=np.int64).reshape(len(chunks), ROW_WIDTH)


def run_deals(
    variant: Variant,
    play: Play,
    seed: int,
    deals: int,
    given: tuple[tuple[int, ...], int] | None = None,
    picks: tuple[int, ...] | None = None,
    progress: bool = False,
) -> RunResult:
    """Rows of ``deals`` deals (:func:`deal_rows`), kept in the results store where one is in force."""
    params = {**play.params(), "given": None if given is None else [list(given[0]), given[1]]}
    info = RunInfo("strong-play", variant.id, variant.content_hash, {**params, "picks": picks}, "rows")
    job = Job(partial(deal_rows, variant, play, seed, given, picks), "rows", run=info, chunk_deals=1, unit="deals")
    return run_job(job, seed, deals, progress=progress)


def escalated_rows(
    variant: Variant,
    play: Play,
    seed: int,
    rows: np.ndarray,
    shown_bids,
    given: tuple[tuple[int, ...], int] | None = None,
    picks: tuple[int, ...] | None = None,
    progress: bool = False,
) -> tuple[np.ndarray, tuple[Pass, ...]]:
    """``rows`` (:func:`run_deals`' under ``dd``, same arguments) with the deals whose solve gave up at
    ``play.limit`` solved again at ten times it, and so on (:func:`~simcore.solver.escalation.escalated_solves`),
    until no bid the answer shows (``shown_bids(rows)``) has a band of unsolved deals wider than a third
    of its rate's 95% half-width (:func:`simcore.answers.dd_make.settled`), none is left, or
    ``play.budget`` more trick starts are spent; and the passes run (none: nothing to solve again). A
    solve's answer does not depend on its limit, so no deal already answered changes."""
    gave = [int(k) for k in np.flatnonzero(rows[:, GAVE_UP] == 1)]
    if play.name != "dd" or not play.budget or not gave or _dd_settled(variant, play, rows, shown_bids(rows)):
        return rows, ()
    positions, needs = [], []
    for k, state in zip(gave, chunk_states(seed, gave)):
        position = first_lead_position(heuristic_state(deal_maker(variant, seed, given, picks, k, state)(), True))
        positions.append(position)
        needs.append(_dd_need(variant, play, rows[k, : h.N_FIELDS]))
    out = rows.copy()

    def with_latest(latest: list[Solved]) -> np.ndarray:
        for k, solved, need in zip(gave, latest, needs):
            if solved is not None:  # None: the budget paid for no pass larger than the first
                out[k, DD_POINTS], out[k, GAVE_UP] = _dd_points(solved, need)
        return out

    def enough(latest: list[Solved]) -> bool:
        now = with_latest(latest)
        return _dd_settled(variant, play, now, shown_bids(now))

    if progress:
        say = f"solving again the {len(gave):,} deals that gave up, within {play.budget:,} trick starts"
        print(say, file=sys.stderr)
    got = escalated_solves(positions, needs, play.limit * FACTOR, play.budget, enough=enough, gave_up_at=play.limit)
    return with_latest(got.solved), got.passes


def _dd_settled(variant: Variant, play: Play, rows: np.ndarray, bids: list[int]) -> bool:
    """Whether at every bid of ``bids`` the deals whose solve gave up leave a band of at most a third of
    the rate's 95% half-width (:func:`simcore.answers.dd_make.settled`)."""
    totals, n = play_totals(variant, play, rows), len(rows)
    for bid in bids:
        unknown = int(np.count_nonzero(totals.unknown(bid)))
        if unknown and not settled(int(np.count_nonzero(totals.makes(bid))), unknown, n):
            return False
    return True


# --- totals -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Totals:
    """Per deal: ``played`` (played out), ``total`` (side total, meaningful where played), ``stop`` (the
    lowest bid at which the hand is stopped unplayed) and ``known`` (False: a double-dummy solve gave
    up, its total unknown)."""

    played: np.ndarray
    total: np.ndarray
    stop: np.ndarray
    known: np.ndarray

    def makes(self, bid: int) -> np.ndarray:
        """bool per deal: the deal makes ``bid`` (an unknown one counts as not made)."""
        return self.known & self.played & (self.total >= bid) & (self.stop > bid)

    def unknown(self, bid: int) -> np.ndarray:
        """bool per deal: whether it makes ``bid`` is unknown (a solve gave up on a hand played)."""
        return ~self.known & self.played & (self.stop > bid)

    def values(self) -> np.ndarray:
        """The side total a deal counts for in a mean: 0 for a hand not played."""
        return np.where(self.played, self.total, 0)


def heuristic_totals(variant: Variant, rows: np.ndarray) -> Totals:
    """The heuristic's :class:`Totals` of ``rows``."""
    return _record_totals(variant, rows[:, : h.N_FIELDS])


def play_totals(variant: Variant, play: Play, rows: np.ndarray) -> Totals:
    """``play``'s :class:`Totals` of ``rows``: the records of the sampling player's hands, or the solved
    points (see the module)."""
    if play.name != "dd":
        return _record_totals(variant, rows[:, h.N_FIELDS : 2 * h.N_FIELDS])
    base = _record_totals(variant, rows[:, : h.N_FIELDS])
    rec = rows[:, : h.N_FIELDS]
    dd = rows[:, DD_POINTS]
    meld = rec[:, h.F_SIDE_MELD]
    counted = np.where(meld >= variant.get("scoring.min_meld_to_count"), meld, 0)
    rule = hand_rules(variant).save_meld
    if rule == lay.SAVE_TRICK:
        saved = dd >= 1
    elif rule == lay.SAVE_POINTS:
        saved = dd >= variant.get("scoring.save_meld_points")
    else:
        saved = np.ones(len(rows), dtype=np.bool_)
    total = np.where(saved, counted, 0) + dd
    # a hand the opponents conceded has no first lead: it stands at what the heuristic's record says
    solved = dd >= 0
    return Totals(
        base.played,
        np.where(solved, total, base.total),
        base.stop,
        ~(base.played & (rows[:, GAVE_UP] == 1)),
    )


def _record_totals(variant: Variant, rec: np.ndarray) -> Totals:
    params = joint_params(variant, np.full(variant.players, HEURISTIC, dtype=np.int64))
    played, total, stop = totals_and_stops(params, rec)
    return Totals(played, total, stop, np.ones(len(rec), dtype=np.bool_))


# --- advise --------------------------------------------------------------------------------------------------
#: Deals played by default under strong play or double dummy (each takes about a second).
ADVISE_DEALS = 100


@dataclass(frozen=True)
class Curve:
    """P(make B) of one way of playing over the same deals: ``bids[i]`` made in ``made[i]`` deals
    (``rate[i]``, a 95% Wilson interval), and ``unknown[i]`` more whose solve gave up (double dummy
    only: the rate lies between made / n and (made + unknown) / n)."""

    bids: list[int]
    made: list[int]
    unknown: list[int]
    rate: list[Interval]
    deals: int

    def range(self, i: int) -> tuple[float, float]:
        """(lowest, highest) share of deals that make ``bids[i]``."""
        n = max(self.deals, 1)
        return self.made[i] / n, (self.made[i] + self.unknown[i]) / n

    def highest(self, share: float) -> BidShare:
        """The highest bid made in at least ``share`` of the deals (counting unknown deals as not
        made; see :func:`simcore.answers.advise.highest_share`)."""
        return highest_share(list(zip(self.bids, self.made, self.rate)), share)


def curve_of(totals: Totals, bids: list[int]) -> Curve:
    """:class:`Curve` of ``totals`` at ``bids``."""
    n = len(totals.played)
    made = [int(np.count_nonzero(totals.makes(b))) for b in bids]
    unknown = [int(np.count_nonzero(totals.unknown(b))) for b in bids]
    return Curve(bids, made, unknown, [wilson(m, n) for m in made], n)


@dataclass(frozen=True)
class StrongAdvice:
    """What :func:`advise_strong` found: the hand's P(make B) under ``play`` beside the heuristic's on the
    same deals (``bids``: the bids where either's fate is open), the mean side totals (a deal not played
    counting 0; under double dummy over the deals solved) and their paired difference (play − heuristic,
    one value per deal), and the highest bids made in 50% and 75% of the deals by each; ``passes``: the
    passes that solved again the deals whose double-dummy solve gave up (:func:`escalated_rows`)."""

    variant: Variant
    hand: np.ndarray
    seat: int
    seed: int
    deals: int
    play: Play
    heuristic: Curve
    played: Curve
    heuristic_total: Interval
    play_total: Interval
    difference: Interval
    solved: int
    seconds: float
    interrupted: bool = False
    passes: tuple[Pass, ...] = ()

    def highest(self) -> dict[str, list[BidShare]]:
        return {
            "heuristic": [self.heuristic.highest(s) for s in SHARES],
            self.play.name: [self.played.highest(s) for s in SHARES],
        }

    def to_json(self) -> dict:
        def iv(x: Interval) -> dict:
            return {"estimate": x.estimate, "ci95": [x.lo, x.hi]}

        def rows(c: Curve) -> list[dict]:
            return [
                {
                    "bid": b,
                    "made": m,
                    "unknown": u,
                    "make": iv(x),
                    "range": list(c.range(i)),
                }
                for i, (b, m, u, x) in enumerate(zip(c.bids, c.made, c.unknown, c.rate))
            ]

        return {
            "variant": self.variant.id,
            "seed": self.seed,
            "hands": self.deals,
            "seat": self.seat,
            "hand": format_hand(self.hand),
            "play": {**self.play.params(), "budget": self.play.budget, "text": self.play.text()},
            "passes": [p.to_json() for p in self.passes],
            "side_total": {
                "heuristic": iv(self.heuristic_total),
                self.play.name: iv(self.play_total),
                "difference": iv(self.difference),
                "deals_compared": self.solved,
            },
            "bids": {"heuristic": rows(self.heuristic), self.play.name: rows(self.played)},
            "highest_bid": {
                name: [{"share": s.share, "bid": s.bid, "ci95": [s.lo, s.hi]} for s in shares]
                for name, shares in self.highest().items()
            },
            "seconds": self.seconds,
            "method": METHOD,
        }


def advise_strong(
    variant: Variant,
    given: np.ndarray,
    seat: int = 0,
    deals: int | None = None,
    seed: int = 1,
    play: Play | None = None,
    progress: bool = False,
) -> StrongAdvice:
    """:func:`simcore.answers.advise.advise` with the deals played by ``play`` (see the module) and by the
    heuristic beside it: ``deals`` deals of the unseen cards (None: :data:`ADVISE_DEALS`), ``seat`` the
    bidder at the lowest contract, no auction."""
    play = replace(Play() if play is None else play, read_auction=False)  # no auction: no bids to read
    check_advisable(variant, seat)
    play = check_play(variant, play)
    given = np.asarray(given, dtype=np.uint8)
    run = run_deals(
        variant,
        play,
        seed,
        ADVISE_DEALS if deals is None else deals,
        given=(tuple(int(x) for x in given), seat),
        progress=progress,
    )
    deals_given = (tuple(int(x) for x in given), seat)
    rows, passes = escalated_rows(
        variant, play, seed, run.tally, lambda r: _advise_curves(variant, play, r)[1].bids, deals_given, None, progress
    )
    (heur, mine), (h_curve, p_curve) = _totals(variant, play, rows), _advise_curves(variant, play, rows)
    known = mine.known
    return StrongAdvice(
        variant,
        given,
        seat,
        seed,
        len(rows),
        play,
        h_curve,
        p_curve,
        values_interval(heur.values()),
        values_interval(mine.values()[known]),
        values_interval((mine.values() - heur.values())[known]),
        int(np.count_nonzero(known)),
        run.seconds,
        run.interrupted,
        passes,
    )


def _totals(variant: Variant, play: Play, rows: np.ndarray) -> tuple[Totals, Totals]:
    """(the heuristic's, ``play``'s) :class:`Totals` of ``rows``."""
    return heuristic_totals(variant, rows), play_totals(variant, play, rows)


def _advise_curves(variant: Variant, play: Play, rows: np.ndarray) -> tuple[Curve, Curve]:
    """(the heuristic's, ``play``'s) :class:`Curve` of ``rows`` at the bids where either's fate is open,
    on the bid grid from the lowest contract to the highest total known."""
    heur, mine = _totals(variant, play, rows)
    lo, width = bid_grid(variant)
    top = max([lo] + [int(t.total[t.played & t.known].max()) for t in (heur, mine) if np.any(t.played & t.known)])
    grid = [b for b in range(lo, top + width, width) if is_bid(variant, b) or b == lo]
    h_curve, p_curve = curve_of(heur, grid), curve_of(mine, grid)
    keep = _open_bids(h_curve, p_curve)
    return _only(h_curve, keep), _only(p_curve, keep)


def _open_bids(a: Curve, b: Curve, most: int = 20) -> list[int]:
    """Indices of the bids where either curve's fate is open: from the last made almost always (>= 0.95)
    by both to the first made almost never (<= 0.05) by both, thinned evenly to at most ``most``."""
    ranges = [a.range(i) + b.range(i) for i in range(len(a.bids))]
    first = max([i for i, r in enumerate(ranges) if min(r) >= 0.95], default=0)
    last = min([i for i, r in enumerate(ranges) if max(r) <= 0.05], default=len(ranges) - 1)
    idx = list(range(first, last + 1))
    if len(idx) > most:
        idx = [idx[i] for i in np.unique(np.linspace(0, len(idx) - 1, most).round().astype(int))]
    return idx


def _only(c: Curve, keep: list[int]) -> Curve:
    """``c`` at the bids of indices ``keep``."""

    def pick(xs: list) -> list:
        return [xs[i] for i in keep]

    return Curve(pick(c.bids), pick(c.made), pick(c.unknown), pick(c.rate), c.deals)


# --- bid odds ---------------------------------------------------------------------------------------------
#: Hands played by default for one meld under strong play or double dummy.
BID_ODDS_HANDS = 200
#: Seeded hands the heuristic bids at a time while looking for hands of the meld asked.
SCAN_BLOCK = 50_000
#: Most seeded hands looked through.
SCAN_MOST = 20_000_000


def hands_with_meld(variant: Variant, seed: int, meld_bin: tuple[int, int], basis: str, hands: int) -> tuple[int, ...]:
    """The first ``hands`` seeded hands (chunk indices k: the first hand of the stream of (seed, k)) that
    the heuristic bids and whose bidder's meld as dealt (``basis`` "dealt"), or the side's after the
    exchange ("after_exchange"), lies in ``meld_bin`` = [lo, hi); fewer where :data:`SCAN_MOST` hands
    hold fewer."""
    rules = kernel_rules(variant)
    policies = np.full(variant.players, HEURISTIC, dtype=np.int64)
    margins = seat_margins(variant, None)
    field = h.F_BIDDER_MELD if basis == "dealt" else h.F_SIDE_MELD
    found: list[int] = []
    for start in range(0, SCAN_MOST, SCAN_BLOCK):
        ks = np.arange(start, start + SCAN_BLOCK, dtype=np.int64)
        rec = hand_rows(rules, policies, margins, chunk_states(seed, ks.tolist()), np.ones(len(ks), np.int64), ks)
        hit = (rec[:, h.F_BIDDER] >= 0) & (rec[:, field] >= meld_bin[0]) & (rec[:, field] < meld_bin[1])
        found += ks[hit].tolist()
        if len(found) >= hands:
            break
    return tuple(found[:hands])


@dataclass(frozen=True)
class StrongBidOdds:
    """P(make B | meld M) under ``play`` beside the heuristic's, on the same seeded hands: the hands the
    heuristic bids whose meld (``basis``) lies in ``meld_bin``, each bid by the heuristic's auction and
    played by both; ``difference``: the paired difference in make rate at ``bid`` (play − heuristic, one
    value per hand solved, in shares), where a bid is asked; ``solved``: the hands whose double-dummy
    solve did not give up (all of them under strong play); ``passes``: the passes that solved the others
    again (:func:`escalated_rows`)."""

    variant: Variant
    seed: int
    basis: str
    meld: int
    meld_bin: tuple[int, int]
    play: Play
    hands: int
    looked: int
    heuristic: Curve
    played: Curve
    bid: int | None
    difference: Interval | None
    solved: int
    seconds: float
    interrupted: bool = False
    passes: tuple[Pass, ...] = ()

    def to_json(self) -> dict:
        def rows(c: Curve) -> list[dict]:
            return [
                {
                    "bid": b,
                    "made": m,
                    "unknown": u,
                    "estimate": x.estimate,
                    "ci95": [x.lo, x.hi],
                    "range": list(c.range(i)),
                }
                for i, (b, m, u, x) in enumerate(zip(c.bids, c.made, c.unknown, c.rate))
            ]

        return {
            "variant": self.variant.id,
            "seed": self.seed,
            "basis": self.basis,
            "meld": self.meld,
            "meld_bin": list(self.meld_bin),
            "play": {**self.play.params(), "budget": self.play.budget, "text": self.play.text()},
            "passes": [p.to_json() for p in self.passes],
            "hands": self.hands,
            "bid": self.bid,
            "solved": self.solved,
            "difference": None
            if self.difference is None
            else {"estimate": self.difference.estimate, "ci95": [self.difference.lo, self.difference.hi]},
            "bids": {"heuristic": rows(self.heuristic), self.play.name: rows(self.played)},
            "seconds": self.seconds,
        }


def bid_odds_strong(
    variant: Variant,
    meld: int,
    bid: int | None = None,
    basis: str = "dealt",
    hands: int | None = None,
    seed: int = 1,
    play: Play | None = None,
    progress: bool = False,
) -> StrongBidOdds:
    """P(make B | meld M) under ``play`` (see the module) beside the heuristic's, over ``hands`` seeded
    hands (None: :data:`BID_ODDS_HANDS`) the heuristic bids whose meld lies in ``meld_bin`` (the
    by-meld tables' bin of ``meld``); at ``bid`` alone, or at the bids where the hands' fate is open."""
    play = Play() if play is None else play
    play = replace(play, read_auction=reads_auction(variant, play.read_auction))  # named in its text
    play = check_play(variant, play)
    unit = meld_unit(variant)
    b = min(meld // unit, MELD_BINS - 1)
    meld_bin = (b * unit, (b + 1) * unit if b < MELD_BINS - 1 else np.iinfo(np.int64).max)
    if play.name == "dd" and bid is not None:
        play = replace(play, bid=bid)
    picks = hands_with_meld(variant, seed, meld_bin, basis, BID_ODDS_HANDS if hands is None else hands)
    run = run_deals(variant, play, seed, len(picks), picks=picks, progress=progress)
    rows, passes = escalated_rows(
        variant, play, seed, run.tally, lambda r: _bid_odds_curves(variant, play, r, bid)[1].bids, None, picks, progress
    )
    (heur, mine), (h_curve, p_curve) = _totals(variant, play, rows), _bid_odds_curves(variant, play, rows, bid)
    difference = None
    if bid is not None:
        known = mine.known
        difference = values_interval((mine.makes(bid).astype(float) - heur.makes(bid).astype(float))[known])
    return StrongBidOdds(
        variant,
        seed,
        basis,
        meld,
        meld_bin,
        play,
        len(rows),
        max(picks, default=-1) + 1,
        h_curve,
        p_curve,
        bid,
        difference,
        int(np.count_nonzero(mine.known)),
        run.seconds,
        run.interrupted,
        passes,
    )


def _bid_odds_curves(variant: Variant, play: Play, rows: np.ndarray, bid: int | None) -> tuple[Curve, Curve]:
    """(the heuristic's, ``play``'s) :class:`Curve` of ``rows``: at ``bid`` alone, or (None) at the bids
    where either's fate is open."""
    heur, mine = _totals(variant, play, rows)
    if bid is not None:
        return curve_of(heur, [bid]), curve_of(mine, [bid])
    lo, width = bid_grid(variant)
    tops = [int(t.total[t.played].max()) for t in (heur, mine) if np.any(t.played)]
    grid = [b for b in range(lo, max([lo] + tops) + width, width) if is_bid(variant, b)]
    h_curve, p_curve = curve_of(heur, grid), curve_of(mine, grid)
    keep = _open_bids(h_curve, p_curve)
    return _only(h_curve, keep), _only(p_curve, keep)
