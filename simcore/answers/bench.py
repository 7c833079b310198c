"""``pinochle bench``: throughput of deal + meld under every trump, in hands per second.

Measured, never asserted: these machines are shared and noisy. The pure-Python reference scorer is
timed in the same process so the kernel's speed-up is a ratio taken side by side.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numba import njit

from simcore.answers.conditioned import check_condition, dealing_of, read_condition
from simcore.cards import N_SUITS, parse_hand
from simcore.kernels.auction_condition import condition_rows
from simcore.kernels.condition import NO_CONDITION, ConditionWork, deal_accepted_into, deal_work
from simcore.kernels.deal import deal_given_into, deal_into
from simcore.kernels.leaf import leaf
from simcore.kernels.meld import meld_by_trump
from simcore.kernels.rng import chunk_states
from simcore.kernels.threads import each_chunk
from simcore.reference.meld import reference_total
from simcore.run.runner import chunk_sizes
from simcore.variants import Variant, load_variant, shipped_ids

BENCH_VARIANTS = ("four-hand-150", "double-deck")
HAND_BENCH_VARIANTS = ("four-hand-150", "double-deck", "six-hand-triple-pack", "five-hand-widow", "two-hand")
GAME_BENCH_VARIANTS = ("four-hand-150", "double-deck")


@njit(cache=True, nogil=True)
def deal_and_meld_chunk(state, size, dealing):
    """Deal ``size`` deals from ``state`` as ``dealing`` says (a :class:`simcore.kernels.condition.Dealing`)
    and score each hand under all four trumps; return the sum of the hands' best meld (a checksum that
    keeps the work from being optimised away). With given cards (not all zero) seat 0 holds them and
    the deck is the rest: the conditioned deal of ``odds --hold``; with a condition only deals that
    meet it count, the others dealt again (``--given``). Allocates the chunk's scratch; the deals run
    in a leaf, as in the odds."""
    return _deal_and_meld(state, size, dealing, deal_work(dealing), dealing.given.sum() > 0)


@leaf
def _deal_and_meld(state, size, dealing, work, conditioned):
    """:func:`deal_and_meld_chunk`'s deals, in ``work`` (a :class:`simcore.kernels.condition.DealWork`),
    without reference counting."""
    players, hand_size, given, seat = dealing.players, dealing.hand_size, dealing.given, dealing.seat
    table, flags, cards, hands, widow = dealing.table, dealing.flags, work.cards, work.hands, work.widow
    totals = work.totals
    accept = ConditionWork(dealing.cond, table, flags, totals, work.scratch)
    acc = np.int64(0)
    for _ in range(size):
        if dealing.cond.shape[0] > 0:
            deal_accepted_into(state, cards, given, seat, hand_size, accept, hands, widow)
        elif conditioned:
            deal_given_into(state, cards, players, hand_size, given, seat, hands, widow)
        else:
            deal_into(state, cards, players, hand_size, hands, widow)
        for p in range(players):
            acc += totals[meld_by_trump(hands[p], table, flags, totals)]
    return acc


def deal_and_meld_batch(states, sizes, dealing, out):
    """:func:`deal_and_meld_chunk` over chunk i into ``out[i]``, chunks on threads
    (:func:`simcore.kernels.threads.each_chunk`)."""

    def one(ci: int) -> None:
        out[ci] = deal_and_meld_chunk(states[ci].copy(), sizes[ci], dealing)

    each_chunk(one, states.shape[0])


@dataclass(frozen=True)
class Timings:
    """``repeats`` timed runs of ``hands`` hands each; rates in hands per second."""

    hands: int
    seconds: tuple[float, ...]
    threads: int

    @property
    def hands_per_s(self) -> float:
        """Rate of the fastest run: the least disturbed by other work on a shared machine."""
        return self.hands / min(self.seconds)

    @property
    def median_hands_per_s(self) -> float:
        return self.hands / sorted(self.seconds)[len(self.seconds) // 2]


@dataclass(frozen=True)
class BenchResult(Timings):
    """Deal + meld under every trump, beside the pure-Python reference scorer's rate."""

    variant: str = ""
    cards: int = 0
    reference_hands_per_s: float = 0.0
    given_hands_per_s: float = 0.0  # the same with seat 0 holding GIVEN_CARDS (odds --hold)
    condition_hands_per_s: float = 0.0  # the same also meeting BENCH_CONDITION (--given), accepted deals' hands
    condition_acceptance: float = 0.0  # the share of deals that meet it

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "deck_cards": self.cards,
            "hands": self.hands,
            "seconds": list(self.seconds),
            "threads": self.threads,
            "hands_per_s": self.hands_per_s,
            "median_hands_per_s": self.median_hands_per_s,
            "reference_python_hands_per_s": self.reference_hands_per_s,
            "speedup_vs_reference": self.hands_per_s / self.reference_hands_per_s,
            "given_cards": GIVEN_CARDS,
            "given_hands_per_s": self.given_hands_per_s,
            "given_ratio": self.given_hands_per_s / self.hands_per_s,
            "condition": BENCH_CONDITION,
            "condition_acceptance": self.condition_acceptance,
            "condition_hands_per_s": self.condition_hands_per_s,
            "condition_ratio": self.condition_hands_per_s / self.hands_per_s,
        }


#: The cards seat 0 holds in the conditioned deal's timing (``odds --hold``): one pinochle.
GIVEN_CARDS = "QS JD"
#: The condition of the conditioned deal's timing (``--given``): a card and a trump length, which asks
#: for the heuristic's trump choice, so a meld search per hand tested.
BENCH_CONDITION = "left: holds AS; partner: trump>=5"


def _run(
    variant: Variant, deals: int, seed: int, given: np.ndarray | None = None, cond: np.ndarray = NO_CONDITION
) -> np.ndarray:
    sizes = chunk_sizes(deals)
    out = np.zeros(len(sizes), dtype=np.int64)
    # seat 0 holds the given cards (none: a free deal, as the whole deck is dealt)
    dealing = dealing_of(variant, given, 0, cond)
    deal_and_meld_batch(chunk_states(seed, list(range(len(sizes)))), sizes, dealing, out)
    return out


def _reference_rate(variant: Variant, hands: int, seed: int) -> float:
    from simcore.kernels.deal import deal_hands

    dealt = deal_hands(
        variant.deck_cards, variant.players, variant.hand_size, chunk_states(seed, [0])[0], -(-hands // variant.players)
    )
    start = time.perf_counter()
    n = 0
    for deal in dealt:
        for hand in deal[: variant.players]:
            max(reference_total(hand, t, variant) for t in range(N_SUITS))
            n += 1
    return n / (time.perf_counter() - start)


def bench(variant_id: str, hands: int = 20_000_000, seed: int = 1, repeats: int = 3) -> BenchResult:
    """Time deal + meld under every trump for ``hands`` hands of ``variant_id``, ``repeats`` times,
    after timing the pure-Python reference and a warm-up run (compile or cache load, thread start)."""
    variant = load_variant(variant_id)
    reference = _reference_rate(variant, 2000, seed)
    deals = max(1, hands // variant.players)
    given = parse_hand(GIVEN_CARDS)
    condition = read_condition(variant, BENCH_CONDITION)
    acceptance = check_condition(variant, condition, given, 0, seed)
    cond = condition_rows(variant, condition)
    _run(variant, max(1, deals // 4), seed)
    _run(variant, max(1, deals // 4), seed, given)
    _run(variant, max(1, deals // 4), seed, given, cond)
    seconds, given_seconds, cond_seconds = [], [], []
    for _ in range(repeats):  # alternating, so that all see the same machine
        for out, args in ((seconds, ()), (given_seconds, (given,)), (cond_seconds, (given, cond))):
            start = time.perf_counter()
            _run(variant, deals, seed, *args)
            out.append(time.perf_counter() - start)
    return BenchResult(
        hands=deals * variant.players,
        seconds=tuple(seconds),
        threads=numba.get_num_threads(),
        variant=variant_id,
        cards=variant.deck_size,
        reference_hands_per_s=reference,
        given_hands_per_s=deals * variant.players / min(given_seconds),
        condition_hands_per_s=deals * variant.players / min(cond_seconds),
        condition_acceptance=acceptance.accepted / acceptance.tried,
    )


def _timed(run: Callable[[int], Any], size: int, repeats: int) -> tuple[tuple[float, ...], Any]:
    """(seconds of each of ``repeats`` runs of ``run(size)``, the last run's result), after a warm-up
    run a tenth the size (compile or cache load, thread start)."""
    run(max(1, size // 10))
    seconds, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run(size)
        seconds.append(time.perf_counter() - start)
    return tuple(seconds), result


@dataclass(frozen=True)
class HandBenchResult(Timings):
    """Full hands (deal, auction, exchange, meld, play, score) with heuristic players on every seat."""

    variant: str = ""

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "kernel": "full hand, heuristic",
            "hands": self.hands,
            "seconds": list(self.seconds),
            "threads": self.threads,
            "hands_per_s": self.hands_per_s,
            "median_hands_per_s": self.median_hands_per_s,
        }


def bench_hands(variant_id: str, hands: int = 400_000, seed: int = 1, repeats: int = 3) -> HandBenchResult:
    """Time full hands with heuristic policies, ``repeats`` runs after a warm-up."""
    from simcore.answers.simulate import simulate
    from simcore.kernels.policies import parse_policies

    variant = load_variant(variant_id)
    policies = parse_policies("heuristic", variant.players)
    seconds, _ = _timed(lambda n: simulate(variant, n, seed, policies), hands, repeats)
    return HandBenchResult(hands=hands, seconds=seconds, threads=numba.get_num_threads(), variant=variant_id)


#: The systems ``pinochle bench --policies`` times: the report's systems with trick play.
POLICY_BENCH_VARIANTS = ("partnership-auction", "four-hand-150", "double-deck")


@dataclass(frozen=True)
class PolicyBenchResult:
    """Full hands with each of ``policies`` at every seat, ``repeats`` runs each, alternating, in one
    process: ``seconds[name]`` each run's time."""

    variant: str
    hands: int
    threads: int
    seconds: dict[str, tuple[float, ...]]

    def hands_per_s(self, name: str) -> float:
        """The fastest run's rate: the least disturbed by other work on a shared machine."""
        return self.hands / min(self.seconds[name])

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "kernel": "full hand, by policy",
            "hands": self.hands,
            "threads": self.threads,
            "seconds": {k: list(v) for k, v in self.seconds.items()},
            "hands_per_s": {k: self.hands_per_s(k) for k in self.seconds},
        }


def bench_policies(
    variant_id: str, names: Sequence[str], hands: int = 400_000, seed: int = 1, repeats: int = 3
) -> PolicyBenchResult:
    """Time full hands with each policy of ``names`` at every seat, runs alternating between them after
    a warm-up of each, so that a ratio of their rates is measured side by side."""
    from simcore.answers.simulate import simulate
    from simcore.kernels.policies import parse_policies

    variant = load_variant(variant_id)
    codes = {n: parse_policies(n, variant.players) for n in names}
    for n in names:
        simulate(variant, max(1, hands // 10), seed, codes[n])
    seconds: dict[str, list[float]] = {n: [] for n in names}
    for r in range(repeats):
        for n in names:
            start = time.perf_counter()
            simulate(variant, hands, seed + r, codes[n])
            seconds[n].append(time.perf_counter() - start)
    return PolicyBenchResult(variant_id, hands, numba.get_num_threads(), {n: tuple(s) for n, s in seconds.items()})


@dataclass(frozen=True)
class GameBenchResult(Timings):
    """Whole games with heuristic players on every seat; ``hands`` counts games here."""

    variant: str = ""
    hands_per_game: float = 0.0

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "kernel": "whole game, heuristic",
            "games": self.hands,
            "seconds": list(self.seconds),
            "threads": self.threads,
            "games_per_s": self.hands_per_s,
            "median_games_per_s": self.median_hands_per_s,
            "hands_per_game": self.hands_per_game,
        }


def bench_games(variant_id: str, games: int = 40_000, seed: int = 1, repeats: int = 3) -> GameBenchResult:
    """Time whole games with heuristic policies, ``repeats`` runs after a warm-up."""
    from simcore.answers.game_results import play_games
    from simcore.kernels.policies import parse_policies

    variant = load_variant(variant_id)
    policies = parse_policies("heuristic", variant.players)
    seconds, result = _timed(lambda n: play_games(variant, n, seed, policies), games, repeats)
    return GameBenchResult(
        hands=games,
        seconds=seconds,
        threads=numba.get_num_threads(),
        variant=variant_id,
        hands_per_game=float(result.column("hands").mean()),
    )


#: The double-dummy solves ``pinochle bench --solver`` times: (system, tricks played before the position,
#: the question) — a whole 48-card deal (exact value; and the threshold form: can the bidding side take
#: what its contract needs?), the same for partnership-auction, the last 12 tricks of an 80-card deal and
#: the whole 80-card one.
SOLVER_BENCH = (
    ("four-hand-150", 0, "exact"),
    ("four-hand-150", 0, "threshold"),
    ("partnership-auction", 0, "exact"),
    ("double-deck", 8, "exact"),
    ("double-deck", 0, "exact"),
)


def solver_bench_rows(every_system: bool = False) -> tuple[tuple[str, int, str], ...]:
    """The rows of ``pinochle bench --solver``: :data:`SOLVER_BENCH`, and with ``every_system`` the
    whole deal of each other shipped system, its exact value and (where someone bids) the threshold
    form."""
    if not every_system:
        return SOLVER_BENCH
    named = {vid for vid, _, _ in SOLVER_BENCH}
    rows = list(SOLVER_BENCH)
    for vid in shipped_ids():
        if vid in named:
            continue
        rows.append((vid, 0, "exact"))
        if load_variant(vid).get("auction.kind") != "none":
            rows.append((vid, 0, "threshold"))
    return tuple(rows)


@dataclass(frozen=True)
class SolverBenchResult:
    """Double-dummy solves of the seeded hands 1..N of a system at its first lead (or after
    ``tricks_played`` tricks), one at a time on one thread; times in seconds, each solve's own. ``form``
    is ``exact`` (the exact value) or ``threshold`` (can the bidding side take the trick points its
    contract needs? seeds with no contract to play are skipped). A solve that searched ``limit`` trick
    starts without an answer gave up and is counted apart (its time is in the percentiles as a lower
    bound)."""

    variant: str
    form: str
    deck_cards: int
    tricks: int
    tricks_played: int
    seconds: tuple[float, ...]
    nodes: tuple[int, ...]
    gave_up: int
    limit: int
    skipped: int  # seeds whose hand was not played out (thrown in)

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.seconds, q)) if self.seconds else float("nan")

    def to_json(self) -> dict:
        question = "exact value" if self.form == "exact" else "threshold at the contract's need"
        return {
            "variant": self.variant,
            "kernel": f"double-dummy solve, {question}",
            "form": self.form,
            "deck_cards": self.deck_cards,
            "tricks": self.tricks,
            "tricks_played_before": self.tricks_played,
            "solves": len(self.seconds),
            "threads": 1,
            "median_seconds": self.percentile(50),
            "p99_seconds": self.percentile(99),
            "max_seconds": max(self.seconds, default=float("nan")),
            "median_nodes": float(np.median(self.nodes)) if self.nodes else float("nan"),
            "gave_up": self.gave_up,
            "node_limit": self.limit,
            "skipped_seeds": self.skipped,
            "seconds": list(self.seconds),
        }


#: The seeds :func:`bench_solver` tries at most for each solve asked, so that a system whose hands are
#: seldom played out (or seldom need anything) ends with fewer solves instead of running on.
SEEDS_A_SOLVE = 50


def bench_solver(
    variant_id: str, deals: int, tricks_played: int = 0, limit: int = 0, form: str = "exact"
) -> SolverBenchResult:
    """Time the double-dummy solves of the seeded heuristic hands 1, 2, ... (``pinochle solve --seed``)
    until ``deals`` were solved, each with a new table: the exact value, or with ``form="threshold"``
    whether the bidding side reaches its contract's need (``pinochle dd-odds``'s question); seeds whose
    hand was not played (or, for the threshold, needs nothing) are skipped. ``limit`` caps each solve's
    trick starts (0: none). One warm-up solve first (compile or cache load). A system whose seeds
    seldom give a position stops after ``SEEDS_A_SOLVE * deals`` seeds with fewer solves."""
    from simcore.answers.dd_make import contract
    from simcore.kernels.policies import parse_policies
    from simcore.solver.position import PositionError, seeded_position, solve

    variant = load_variant(variant_id)
    policies = parse_policies("heuristic", variant.players)
    seconds, nodes, gave_up, skipped, seed = [], [], 0, 0, 0
    seeds = SEEDS_A_SOLVE * deals
    for warm_seed in range(1, seeds + 1):
        try:
            warm = seeded_position(variant, warm_seed, tricks_played=max(tricks_played, variant.hand_size - 4))
        except PositionError:
            continue
        solve(warm)
        solve(warm, target=1)
        break
    while len(seconds) < deals and seed < seeds:
        seed += 1
        if form == "threshold":
            c = contract(variant, seed, policies)
            if c is None or c.need <= 0:
                skipped += 1
                continue
            result = solve(c.position, target=c.need, limit=limit)
        else:
            try:
                position = seeded_position(variant, seed, tricks_played=tricks_played)
            except PositionError:
                skipped += 1
                continue
            result = solve(position, limit=limit)
        seconds.append(result.seconds)
        nodes.append(result.nodes)
        gave_up += result.gave_up
    return SolverBenchResult(
        variant_id,
        form,
        variant.deck_size,
        variant.hand_size - tricks_played,
        tricks_played,
        tuple(seconds),
        tuple(nodes),
        gave_up,
        limit,
        skipped,
    )


#: The systems ``pinochle bench --state`` plays through the Python game state: 48 and 80 cards, and
#: two-hand's stock play.
STATE_BENCH = ("four-hand-150", "double-deck", "two-hand")


@dataclass(frozen=True)
class StateBenchResult:
    """Hands played one at a time through the Python game state (:mod:`simcore.state`), the kernel's
    heuristic bridged to it (:func:`simcore.state.players.kernel_policy`) at every seat; one thread,
    seconds for all ``hands``, ``decisions`` the actions applied (chance events apart)."""

    variant: str
    hands: int
    seconds: float
    decisions: int

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "kernel": "Python game state, bridged heuristic",
            "hands": self.hands,
            "threads": 1,
            "seconds": self.seconds,
            "ms_per_hand": self.seconds / self.hands * 1e3,
            "us_per_decision": self.seconds / self.decisions * 1e6,
            "decisions": self.decisions,
        }


def bench_state(variant_id: str, hands: int, seed: int = 1) -> StateBenchResult:
    """Time ``hands`` seeded hands (deals 0, 1, ... of ``seed``) played through the game state by the
    bridged heuristic at every seat, after one warm-up hand (compile or cache load)."""
    from simcore.state import CHANCE, new_hand
    from simcore.state.players import kernel_policy

    variant, player = load_variant(variant_id), kernel_policy("heuristic")

    def play(i: int) -> int:
        state = new_hand(variant, seed, hand=i)
        while not state.is_terminal():
            state.apply(player(state))
        return sum(seat != CHANCE for seat, _ in state.history())

    play(hands)  # warm-up, on a deal not timed
    start = time.perf_counter()
    decisions = sum(play(i) for i in range(hands))
    return StateBenchResult(variant_id, hands, time.perf_counter() - start, decisions)


#: The systems ``pinochle bench --sampling`` times: the report's three.
SAMPLING_BENCH = ("partnership-auction", "four-hand-150", "double-deck")


@dataclass(frozen=True)
class SamplingBenchResult:
    """Hands played through the game state by the sampling player at every seat (:class:`simcore.state.
    sampler.SamplingPlayer`, ``samples`` deals a decision over the last ``solve_from`` tricks, playouts
    from ``rollout_from`` tricks from the end until then, deals fitting the bids with ``read_auction``), one
    thread: ``seconds`` for all ``hands``;
    ``decisions`` the card choices it sampled and solved (a choice among several cards in its tricks)
    and ``decision_seconds`` the time spent in them; ``rollouts`` and ``rollout_seconds`` the same for
    the choices it weighed by playouts."""

    variant: str
    hands: int
    samples: int
    solve_from: int
    seconds: float
    decisions: int
    decision_seconds: float
    rollout_from: int = 0
    rollouts: int = 0
    rollout_seconds: float = 0.0
    read_auction: bool = True

    @property
    def ms_per_decision(self) -> float:
        return self.decision_seconds / max(self.decisions, 1) * 1e3

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "kernel": "sampling player, Python game state",
            "hands": self.hands,
            "threads": 1,
            "samples": self.samples,
            "solve_from": self.solve_from,
            "seconds": self.seconds,
            "s_per_hand": self.seconds / self.hands,
            "decisions": self.decisions,
            "decisions_per_s": self.decisions / self.decision_seconds if self.decision_seconds else 0.0,
            "ms_per_decision": self.ms_per_decision,
            "rollout_from": self.rollout_from,
            "rollouts": self.rollouts,
            "ms_per_rollout": self.rollout_seconds / max(self.rollouts, 1) * 1e3,
            "read_auction": self.read_auction,
        }


def bench_sampling(
    variant_id: str,
    hands: int,
    samples: int = 20,
    solve_from: int | None = None,
    seed: int = 1,
    rollout_from: int | None = None,
    read_auction: bool | None = None,
) -> SamplingBenchResult:
    """Time ``hands`` seeded hands (deals 0, 1, ... of ``seed``) played through the game state by the
    sampling player at every seat, after one warm-up hand (compile or cache load); each sampled decision
    is timed on its own."""
    from simcore.state import new_hand
    from simcore.state.sampler import TimedSamplingPlayer, reads_auction

    variant = load_variant(variant_id)
    player = TimedSamplingPlayer(samples, solve_from, rollout_from=rollout_from, read_auction=read_auction)
    reads = reads_auction(variant, read_auction)

    def play(i: int) -> None:
        state = new_hand(variant, seed, hand=i)
        while not state.is_terminal():
            state.apply(player(state))

    play(hands)  # warm-up, on a deal not timed
    player.decisions, player.seconds, player.rollouts, player.rollout_seconds = 0, 0.0, 0, 0.0
    start = time.perf_counter()
    for i in range(hands):
        play(i)
    seconds = time.perf_counter() - start
    return SamplingBenchResult(
        variant_id,
        hands,
        samples,
        player.solved(variant),
        seconds,
        player.decisions,
        player.seconds,
        player.rollout_from,
        player.rollouts,
        player.rollout_seconds,
        reads,
    )


#: Where chunks run and are kept, as ``bench_execution`` compares them (see :class:`simcore.run.runner.Execution`).
EXECUTION_MODES = (
    "threads",
    "threads + store, writing",
    "threads, read from the store",
    "local Dask cluster, 2 workers",
)


@dataclass(frozen=True)
class ExecutionBenchResult:
    """One workload under each of :data:`EXECUTION_MODES`, the runs interleaved (mode after mode, repeat
    after repeat) so a change in the machine's speed falls on every mode alike. Rates in hands/s."""

    workload: str
    hands: int
    seconds: dict[str, tuple[float, ...]]

    def rate(self, mode: str) -> float:
        return self.hands / min(self.seconds[mode])

    def ratio(self, mode: str) -> float:
        """Best rate of ``mode`` over the best rate on plain threads."""
        return self.rate(mode) / self.rate("threads")

    def to_json(self) -> dict:
        return {
            "workload": self.workload,
            "hands": self.hands,
            "modes": {
                m: {"seconds": list(s), "hands_per_s": self.rate(m), "ratio_to_threads": self.ratio(m)}
                for m, s in self.seconds.items()
            },
        }


def bench_execution(
    odds_hands: int = 20_000_000, full_hands: int = 400_000, seed: int = 1, repeats: int = 3
) -> list[ExecutionBenchResult]:
    """Time deal + meld odds (every catalogue event) and full hands under each execution mode; the
    cluster is started (and warmed up) before the clock runs."""
    import tempfile
    from pathlib import Path

    from simcore.answers.odds import simulate_odds
    from simcore.answers.simulate import simulate
    from simcore.kernels.events import CATALOGUE, parse_event
    from simcore.kernels.policies import parse_policies
    from simcore.run.runner import Execution, executing

    variant = load_variant("four-hand-150")
    events = [parse_event(n, variant) for n in CATALOGUE]
    policies = parse_policies("heuristic", variant.players)
    workloads = {
        "odds, every event, four-hand-150": (
            odds_hands,
            lambda n, s: simulate_odds(variant, events, n, s, exact=False),
        ),
        "full hands, heuristic, four-hand-150": (full_hands, lambda n, s: simulate(variant, n, s, policies)),
    }
    results = []
    with tempfile.TemporaryDirectory() as tmp, executing(Execution(workers=2)) as cluster:
        cluster.client()
        for name, (size, run) in workloads.items():
            for mode in EXECUTION_MODES:  # warm up: compile or load every kernel in every process
                _run_mode(mode, run, max(1, size // 20), seed + 1000, Path(tmp) / f"warm-{name[:4]}", cluster)
            seconds: dict[str, list[float]] = {m: [] for m in EXECUTION_MODES}
            for r in range(repeats):
                store = Path(tmp) / f"{name[:4]}-{r}.duckdb"
                for mode in EXECUTION_MODES:
                    start = time.perf_counter()
                    _run_mode(mode, run, size, seed + r, store, cluster)
                    seconds[mode].append(time.perf_counter() - start)
            results.append(ExecutionBenchResult(name, size, {m: tuple(s) for m, s in seconds.items()}))
    return results


def _run_mode(mode: str, run: Callable[[int, int], Any], size: int, seed: int, store, cluster) -> None:
    from simcore.run.runner import Execution, executing

    if mode.startswith("local Dask"):
        run(size, seed)  # under the cluster's Execution, already in force
        return
    with executing(Execution(store=store if "store" in mode else None)):
        run(size, seed)
