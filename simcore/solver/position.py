"""Double-dummy answers: the exact trick points each side takes from a position with every hand known
(``pinochle solve``, :func:`simcore.api.solve`), over the kernel :mod:`simcore.solver.kernel`.

A :class:`Position` is the cards each seat holds at a trick start, trump, the seat to lead, the sides
and two flags (the hand's first trick, trump broken); :func:`seeded_position` takes the one a seeded
heuristic hand reaches at its first lead, :func:`given_position` one written as cards. Systems with
a stock (two-hand) are not a game of perfect information while the stock lasts: their seeded
position is the one after the stock is gone, the last ``hand_size`` tricks, with the points already
taken reported beside. Points are trick points on the variant's scale, as taken (before any
``tricks.round_to`` rounding; :attr:`Solved.counted` gives them rounded), the last-trick bonus
included; buried cards are not in play and not counted here.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from simcore.cards import N_TYPES, SUITS, HandError, card_name, check_hand, format_hand, parse_hand
from simcore.kernels.compiled import hand_rules
from simcore.variants import Variant

#: Table size of the solver (2**bits entries, about 26 bytes each): one table per thread, reused.
TABLE_BITS = 21


class PositionError(ValueError):
    """A position that cannot be solved (cards, trump, leader or sides out of place); one line."""


@dataclass(frozen=True)
class Position:
    """A trick start with every hand known. ``hands`` is uint8[players, 24] copy counts (every seat
    holds as many cards); ``side[s]`` is 1 for the bidding side's seats (the side whose points are
    solved), 0 for the others; ``bidder`` is -1 where nobody bid. ``first``: the hand's first trick
    (the bidder's opening-lead duty applies); ``broken``: a trump has been played."""

    variant: Variant
    hands: np.ndarray
    trump: int
    leader: int
    side: tuple[int, ...]
    bidder: int = -1
    first: bool = False
    broken: bool = False
    #: Trick points already taken by (the bidding side, the others) in the tricks before this position
    #: (two-hand's stock tricks); not part of the solve.
    taken: tuple[int, int] = (0, 0)
    note: str = ""

    @property
    def tricks(self) -> int:
        return int(self.hands[0].sum())

    @property
    def in_play(self) -> int:
        """The points still to be taken: the cards held and the last-trick bonus."""
        return int((self.hands.astype(np.int64) * self.variant.trick_points).sum()) + (
            self.variant.last_trick if self.tricks else 0
        )

    def to_json(self) -> dict:
        return {
            "variant": self.variant.id,
            "trump": SUITS[self.trump],
            "leader": self.leader,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "side": list(self.side),
            "hands": [format_hand(h) for h in self.hands],
            "tricks": self.tricks,
            "first_trick": self.first,
            "trump_broken": self.broken,
            "in_play": self.in_play,
            "taken_before": {"bidding_side": self.taken[0], "other_side": self.taken[1]},
        }


@dataclass(frozen=True)
class Solved:
    """The solve of a :class:`Position`: the points each side takes from it with perfect play, or
    the answer to "can the bidding side take at least ``target``?"."""

    position: Position
    side_points: int | None  # exact, or None for a threshold question only
    target: int | None = None
    reaches: bool | None = None
    seconds: float = 0.0
    nodes: int = 0  # trick starts searched
    gave_up: bool = False  # the limit of trick starts was reached first: no answer

    @property
    def other_points(self) -> int | None:
        return None if self.side_points is None else self.position.in_play - self.side_points

    def counted(self, pts: int) -> int:
        """``pts`` as the rules count them (``tricks.round_to``)."""
        v = self.position.variant
        unit, up = v.get("tricks.round_to"), v.get("tricks.round_up_from")
        if not unit:
            return pts
        return (pts // unit + (1 if pts % unit >= up else 0)) * unit

    def to_json(self) -> dict:
        out = {
            "position": self.position.to_json(),
            "bidding_side_points": self.side_points,
            "other_side_points": self.other_points,
            "seconds": self.seconds,
            "nodes": self.nodes,
            "gave_up": self.gave_up,
        }
        if self.side_points is not None and self.position.variant.get("tricks.round_to"):
            out["bidding_side_counted"] = self.counted(self.side_points)
            out["other_side_counted"] = self.counted(self.other_points)
        if self.target is not None:
            out["target"] = self.target
            out["reaches_target"] = self.reaches
        return out


def sides(variant: Variant, bidder: int, partner: int) -> tuple[int, ...]:
    """1 for the bidding side's seats, as the hand kernel sets them (``_trump_and_partner``): with
    partners across the bidder's alternate seats, else the bidder and his called partner (no bidder:
    seat 0 stands for him)."""
    anchor = bidder if bidder >= 0 else 0
    if variant.get("teams.kind") == "partners_across":
        return tuple(1 if (s - anchor) % 2 == 0 else 0 for s in range(variant.players))
    return tuple(1 if s in (anchor, partner) else 0 for s in range(variant.players))


def seeded_position(
    variant: Variant, seed: int, policies: np.ndarray | None = None, tricks_played: int = 0
) -> Position:
    """The position at the first lead of the first hand of ``seed`` played by ``policies`` (heuristic at
    every seat by default), as ``pinochle playthrough`` shows it: the hands after bidding, exchange and
    meld, its trump, leader and sides. With a stock (two-hand) the position after the stock is gone.
    With ``tricks_played``, the position after that many of the hand's tricks as the policies played
    them (the last 12 tricks of an 80-card deal: ``tricks_played=8``)."""
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.kernels.policies import parse_policies

    policies = parse_policies("heuristic", variant.players) if policies is None else policies
    rec, trace = trace_hand(variant, seed, policies)
    return traced_position(variant, seed, rec, trace, tricks_played)


def traced_position(
    variant: Variant, seed: int, rec: np.ndarray, trace: np.ndarray, tricks_played: int = 0
) -> Position:
    """:func:`seeded_position` of a hand already traced (``rec``, ``trace`` as
    :func:`simcore.kernels.hand_drivers.trace_hand` gives them; ``seed`` names it in messages), so that callers
    taking several positions of one hand trace it once."""
    from simcore.kernels import hand_record as h

    plays = [(a, b) for code, a, b, c in trace.tolist() if code == h.T_PLAY]
    tricks_won = [(a, b) for code, a, b, c in trace.tolist() if code == h.T_TRICK]
    if not plays:
        outcome = h.OUTCOMES[int(rec[h.F_OUTCOME])].replace("_", " ")
        raise PositionError(
            f"{variant.id}: the hand of seed {seed} was not played out ({outcome}); choose another seed"
        )
    players, hand_size = variant.players, variant.hand_size
    calls = [(a, b) for code, a, b, c in trace.tolist() if code == h.T_CALL]
    bidder = int(rec[h.F_BIDDER])
    partner = calls[0][1] if calls else -1
    side = sides(variant, bidder, partner)
    n_tricks = len(plays) // players
    start = max(n_tricks - hand_size if variant.get("play.stock_play") else 0, tricks_played)
    if len(plays) % players or start < 0 or n_tricks < hand_size or start >= n_tricks:
        raise PositionError(
            f"{variant.id}: the hand of seed {seed} stopped before its last trick (a seat "
            "declared himself out); choose another seed"
        )
    hands = np.zeros((players, N_TYPES), dtype=np.uint8)
    for seat, card in plays[start * players :]:
        hands[seat, card] += 1
    taken = [0, 0]
    for winner, pts in tricks_won[:start]:
        taken[1 - side[winner]] += pts
    trump = int(rec[h.F_TRUMP])
    broken = any(card // 6 == trump for _, card in plays[: start * players])
    note = (
        f"the last {hand_size} tricks, after the stock is gone (before it, the hands are not all known)"
        if start and not tricks_played
        else f"after {start} tricks"
        if start
        else "at the first lead"
    )
    if bidder < 0:
        note += "; no bidder: seat 0's side stands for the bidding side"

    return Position(
        variant, hands, trump, plays[start * players][0], side, bidder, start == 0, broken, (taken[0], taken[1]), note
    )


def given_position(
    variant: Variant,
    hands: list[str],
    trump: int,
    leader: int,
    bidder: int = -1,
    partner: int = -1,
    first: bool = False,
    broken: bool = False,
) -> Position:
    """A position from each seat's cards as text (``"AS 10S KS ..."``), seat 0 first. ``bidder`` (-1:
    none; seat 0 then stands for the bidding side) and ``partner`` (with a called partner) set the
    sides as the rules do. Raises :class:`PositionError` in one line for cards the deck cannot hold
    together, uneven hands, or seats out of range."""
    players = variant.players
    if len(hands) != players:
        raise PositionError(f"{variant.id} has {players} seats: give {players} hands, got {len(hands)}")
    for name, seat in (("leader", leader), ("bidder", bidder), ("partner", partner)):
        if not -1 <= seat < players or (name == "leader" and seat < 0):
            raise PositionError(f"{name} {seat}: give a seat 0..{players - 1}")
    if not 0 <= trump < 4:
        raise PositionError(f"trump {trump}: give a suit S, H, D or C")
    if partner >= 0 and variant.get("teams.kind") != "called_card":
        raise PositionError(f"{variant.id} calls no partner: its sides follow from the bidder alone")
    counts = np.zeros((players, N_TYPES), dtype=np.uint8)
    for s, text in enumerate(hands):
        try:
            counts[s] = parse_hand(text)
        except HandError as exc:
            raise PositionError(f"seat {s}: {exc}") from None
    try:
        check_hand(counts.sum(axis=0), variant.deck_copies, None)
    except HandError as exc:
        raise PositionError(f"the four hands together: {exc}".replace("four", str(players))) from None
    sizes = counts.sum(axis=1)
    if len(set(sizes.tolist())) != 1:
        raise PositionError(
            "every seat must hold as many cards: the hands hold " + ", ".join(str(int(n)) for n in sizes)
        )
    if int(sizes[0]) > variant.hand_size:
        raise PositionError(
            f"the hands hold {int(sizes[0])} cards each; a hand in {variant.id} holds {variant.hand_size}"
        )
    return Position(variant, counts, trump, leader, sides(variant, bidder, partner), bidder, first, broken)


_LOCAL = threading.local()


def _work(players: int, tricks: int):
    """The thread's :class:`simcore.solver.kernel.SolverWork` for ``players`` (its table reused: each
    solve starts a new generation rather than clearing it, so a solve's search is its own)."""
    from simcore.solver.kernel import solver_work

    works = getattr(_LOCAL, "works", None)
    if works is None:
        works = _LOCAL.works = {}
    key = (players, max(tricks, 25))
    if key not in works:
        works[key] = solver_work(players, key[1], TABLE_BITS)
    return works[key]


def _loaded(position: Position, limit: int = 0, keep_table: bool = False, frontier: int = 0):
    """The thread's solver work loaded with ``position``: a fresh table, or with ``keep_table`` the
    entries of the previous load kept (only for a position of the same sides, points, rules and
    frontier). With ``frontier`` > 0 the trick starts with that many tricks left or fewer are
    estimated, not searched."""
    from simcore.solver.kernel import load_position

    w = _work(position.variant.players, position.tricks)
    if frontier:  # only an estimate plays out: exact solves skip its setting up
        _playout_start(w, position)
    load_position(
        w,
        position.hands.astype(np.int64),
        np.asarray(position.side, dtype=np.int64),
        np.asarray(position.variant.trick_points, dtype=np.int64),
        np.array(hand_rules(position.variant), dtype=np.int64),
        (position.trump, position.bidder, int(position.broken), int(position.first), limit, frontier),
        keep_table,
    )
    return w


def _playout_start(w, position: Position) -> None:
    """What the evaluation's playouts read besides the position: the deck's copies, and the card
    counting of a playout that starts with nothing shown (the points and the sides)."""
    from simcore.kernels.card_features import play_context

    v = position.variant
    w.copies[:] = v.deck_copies
    w.ctx0[:] = play_context(v, position.side, position.trump, [], (position.leader, []))


@dataclass(frozen=True)
class Evaluation:
    """The learned evaluation of a trick start (:mod:`simcore.solver.estimate`): its features
    (float64[N_FEATURES], point features in ``unit`` points), the estimate of the bidding side's points
    and the solver's exact bounds that hold it."""

    features: np.ndarray
    estimate: int
    unit: int
    lower: int
    upper: int


def evaluation(position: Position) -> Evaluation:
    """The :class:`Evaluation` of ``position`` as the search reads it at its frontier."""
    from simcore.solver.kernel import features_kernel

    w = _loaded(position)
    _playout_start(w, position)
    est, unit, lower, upper = features_kernel(w, position.leader)
    return Evaluation(w.features.copy(), int(est), int(unit), int(lower), int(upper))


_NO_TRICK = np.zeros(1, dtype=np.int64)
_WARM: list[bool] = []


def solve(position: Position, target: int | None = None, limit: int = 0, keep_table: bool = False) -> Solved:
    """The exact points of each side from ``position``; with ``target``, only whether the bidding side
    can take at least ``target`` (one null-window search, much cheaper). With ``limit`` > 0 the solve
    gives up after searching that many trick starts (:attr:`Solved.gave_up`; no answer). With
    ``keep_table`` the thread's table keeps the entries of the solve before, which must have been of
    this same position on this thread (its entries bound the values whatever the target: bisecting a
    position's value by thresholds); its trick starts then depend on that solve."""
    from simcore.solver.kernel import GAVE_UP, Y_NODES, threshold_kernel, value_kernel

    if not _WARM:  # compile (or load) the kernels first, so that the time is the solve's own
        w = _loaded(position, 1)
        value_kernel(w, position.leader, _NO_TRICK, 0)
        threshold_kernel(w, position.leader, _NO_TRICK, 0, 1)
        _WARM.append(True)
    start = time.perf_counter()
    w = _loaded(position, limit, keep_table)
    if target is None:
        value = int(value_kernel(w, position.leader, _NO_TRICK, 0))
        return Solved(
            position,
            None if value == GAVE_UP else value,
            seconds=time.perf_counter() - start,
            nodes=int(w.dyn[Y_NODES]),
            gave_up=value == GAVE_UP,
        )
    reaches = int(threshold_kernel(w, position.leader, _NO_TRICK, 0, target))
    return Solved(
        position,
        None,
        target,
        None if reaches == GAVE_UP else bool(reaches),
        time.perf_counter() - start,
        int(w.dyn[Y_NODES]),
        gave_up=reaches == GAVE_UP,
    )


def solve_many(
    positions: list[Position], targets: list[int | None] | None = None, limit: int = 0, threads: int | None = None
) -> list[Solved]:
    """:func:`solve` of each position (with the target of the same index, None for the exact value), on
    ``threads`` threads (default: numba's count), each with its own table; in the order given. Each
    solve starts a fresh table generation, so its answer and trick starts are the same whichever
    thread runs it and whatever ran before."""
    import numba

    targets = [None] * len(positions) if targets is None else list(targets)
    if len(targets) != len(positions):
        raise ValueError(f"{len(positions)} positions but {len(targets)} targets")
    if not positions:
        return []
    solve(positions[0], targets[0], 1)  # compile or load the kernels once, before the threads share them
    threads = min(threads or numba.get_num_threads(), len(positions))
    if threads == 1:
        return [solve(p, t, limit) for p, t in zip(positions, targets)]
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda pt: solve(pt[0], pt[1], limit), zip(positions, targets)))


def _in_progress(position: Position, trick: list[int]) -> tuple[Position, int, tuple[int, int, int, int]]:
    """(the position with ``trick``'s cards out of the hands, the seat to play, (led suit, winning card,
    its seat, top card of the led suit)) for the trick in progress ``trick`` (card types from the
    leader)."""
    from simcore.kernels.play import SUIT_OF, beats

    v, players, trump = position.variant, position.variant.players, position.trump
    hands = position.hands.copy()
    led = win = top = 0
    win_seat = position.leader
    for i, card in enumerate(trick):
        seat = (position.leader + i) % players
        if hands[seat, card] == 0:
            raise PositionError(f"seat {seat} does not hold {card_name(card)}")
        hands[seat, card] -= 1
        if i == 0:
            led, win, top = int(SUIT_OF[card]), card, card
        else:
            if beats(card, win, trump):
                win, win_seat = card, seat
            if SUIT_OF[card] == led and card < top:
                top = card
    broken = position.broken or any(c // 6 == trump for c in trick)
    sub = Position(v, hands, trump, position.leader, position.side, position.bidder, position.first, broken)
    return sub, (position.leader + len(trick)) % players, (led, win, win_seat, top)


def legal_at(position: Position, trick: list[int]) -> list[int]:
    """The card types the seat to play next may play to the trick in progress ``trick`` (card types from
    the leader; their cards still in ``position.hands``), under the solver's reading of the duties."""
    from simcore.solver.kernel import legal_now

    sub, seat, (led, win, win_seat, top) = _in_progress(position, trick)
    mask = int(legal_now(_loaded(sub), seat, (len(trick), position.leader, led, win, win_seat, top, 0, 0)))
    return [t for t in range(N_TYPES) if mask >> t & 1]


def card_values(position: Position, trick: list[int], limit: int = 0, frontier: int = 0) -> dict[int, int | None]:
    """The bidding side's points from the start of the trick in progress (``trick`` as for
    :func:`legal_at`) with each legal card of the seat to play next, then perfect play: {card type:
    points}. The trick's own cards count for its winner. The cards' solves share one table: the
    positions after different cards meet again in later tricks. With ``limit`` > 0 each card's solve
    gives up after that many trick starts and its value is None. With ``frontier`` > 0 the values are
    a depth-limited search's: the trick starts with that many tricks left or fewer are estimated
    (:mod:`simcore.solver.estimate`), not searched. Progress, in cards solved, goes to the
    :class:`simcore.run.runner.Execution` in force, whose ``stop`` ends the solves between cards
    (:class:`simcore.run.runner.Stopped`)."""
    return {card: value for card, value, _, _ in _card_solves(position, trick, limit, frontier)}


def _card_solves(
    position: Position,
    trick: list[int],
    limit: int,
    frontier: int,
    budget: int = 0,
    progress: tuple[int, int] | None = None,
) -> list[tuple[int, int | None, int, int]]:
    """(card type, value or None, trick starts reached, of which estimated) for each legal card, as
    :func:`card_values`; with ``budget`` > 0 the cards' solves together reach at most that many trick
    starts (each card's limit is what the earlier ones left), and the first to give up ends the list.
    Progress goes out in cards solved, or with ``progress`` = (trick starts reached before, their
    total) in trick starts."""
    from simcore.run.runner import checkpoint
    from simcore.solver.kernel import GAVE_UP, Y_EVALS, Y_NODES, value_kernel

    sub, seat, _ = _in_progress(position, trick)
    out = []
    cards = legal_at(position, trick)
    spent = 0
    for i, card in enumerate(cards):
        if progress is None:
            checkpoint(i, len(cards))
        else:
            checkpoint(min(progress[0] + spent, progress[1]), progress[1])
        after = Position(
            sub.variant,
            _without(sub.hands, seat, card),
            sub.trump,
            sub.leader,
            sub.side,
            sub.bidder,
            sub.first,
            sub.broken or card // 6 == sub.trump,
        )
        if budget:
            left = max(1, budget - spent)
            limit = min(limit, left) if limit else left
        w = _loaded(after, limit, keep_table=i > 0, frontier=frontier)
        value = int(value_kernel(w, position.leader, np.array(list(trick) + [card], dtype=np.int64), len(trick) + 1))
        spent += int(w.dyn[Y_NODES])
        out.append((card, None if value == GAVE_UP else value, int(w.dyn[Y_NODES]), int(w.dyn[Y_EVALS])))
        if budget and value == GAVE_UP:
            break
    if progress is None:
        checkpoint(len(cards), len(cards))
    return out


def _without(hands: np.ndarray, seat: int, card: int) -> np.ndarray:
    out = hands.astype(np.uint8).copy()
    out[seat, card] -= 1
    return out


@dataclass(frozen=True)
class CardValue:
    """A legal card's value: the bidding side's points from the start of the trick in progress with
    that card, then best play (as :func:`card_values`). ``exact``: proved by the solver; else estimated
    by a search of the next ``depth`` tricks (the trick in progress the first) with the learned
    evaluation at its frontier (:mod:`simcore.solver.estimate`)."""

    points: int
    exact: bool
    depth: int


#: Trick starts a decision's values may reach in all (about half a second on one core): past it the
#: deepest search finished gives the values.
VALUES_BUDGET = 400_000


def searched_card_values(position: Position, trick: list[int], budget: int = VALUES_BUDGET) -> dict[int, CardValue]:
    """Every legal card's :class:`CardValue` for the seat to play next to the trick in progress
    ``trick`` (as :func:`card_values`), exact where the solver proves it within ``budget`` trick starts
    and otherwise estimated: searched by iterative deepening, one trick deeper each round (the
    frontier one trick nearer the end), every card to the same depth, until a round would pass the
    budget; the deepest round finished gives the values. The first round (the trick in progress,
    then the evaluation) always finishes, so every card has a value. The values are exact where no
    card's search of the round met the frontier. Progress goes to the
    :class:`simcore.run.runner.Execution` in force in trick starts of the budget, and its ``stop`` ends
    the search between cards. Raises :class:`PositionError` for a budget below 1."""
    from simcore.run.runner import checkpoint

    if budget < 1:
        raise PositionError(f"budget {budget}: give a number of trick starts of at least 1")
    left = position.tricks
    best: dict[int, CardValue] = {}
    spent = 0
    for depth in range(1, left + 1):
        frontier = left - depth if left - depth >= 2 else 0
        solves = _card_solves(position, trick, 0, frontier, 0 if depth == 1 else budget - spent, (spent, budget))
        if depth > 1 and (len(solves) < len(best) or any(v is None for _, v, _, _ in solves)):
            break
        spent += sum(n for _, _, n, _ in solves)
        # the cards of a round share one table, so a card that met no frontier may still have read an
        # estimate another card's search left there: a round is exact only if none met the frontier
        exact = frontier == 0 or not any(evals for _, _, _, evals in solves)
        best = {c: CardValue(v, exact, depth) for c, v, _, _ in solves}
        if frontier == 0 or spent >= budget:
            break
    checkpoint(budget, budget)
    return best
