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
(:func:`simcore.solver.position.evaluation`). Cells whose positions are one double-dummy problem (with
no exchange, a leader that does not depend on the bidder: the bidders of one side, and the other side
as its mirror) share their solves (:func:`problem_key`). The solves escalate over the cells
(:func:`escalated`): every cell first under a small limit of trick starts a solve, then the cells
still open at ten times it, within a budget of trick starts for the table. Where a solve gave up the
cell says what was proved: the highest bid shown made and the highest not shown unmakeable.

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
from simcore.solver.escalation import FACTOR, Pass
from simcore.solver.position import Position, PositionError, evaluation, sides, solve
from simcore.variants import Variant

#: How the table takes the exchange after the bid (``--exchange``).
EXCHANGES = ("heuristic", "given")
#: Trick starts a threshold solve may search in the first pass over the cells (``--limit``); each
#: later pass allows ten times the last.
LIMIT = 20_000
#: Trick starts the solves of a whole table may search (``--budget``).
BUDGET = 1_500_000


class MakeableError(PositionError):
    """A deal, seed, trump or exchange the table cannot take; one line."""


@dataclass(frozen=True)
class Cell:
    """One trump and bidder: the side's counted meld, the highest bid shown made (``made``; None: not
    even the lowest contract, or unknown), the highest bid not shown unmakeable (``upper``; None: the
    lowest contract is shown unmakeable), whether the trump could be named (``allowed``: False where the
    rules ask a marriage in it the bidder lacks), and the solves' count, trick starts and seconds.
    ``made == upper`` is an exact answer; otherwise a solve gave up between them. ``owner``: (the
    bidder, mirrored) of the cell of this trump whose solves answered this one, where its position is
    the same problem (:func:`problem_key`; mirrored: that cell's side is the other side), its solves
    counted there; None: its own."""

    trump: int
    bidder: int
    meld: int
    made: int | None
    upper: int | None
    allowed: bool = True
    solves: int = 0
    nodes: int = 0
    seconds: float = 0.0
    owner: tuple[int, bool] | None = None

    @property
    def exact(self) -> bool:
        return self.made == self.upper

    @property
    def text(self) -> str:
        """The cell as a table shows it: "33"; "32–35" where 32 is proved made and the bids up to 35 are
        not proved unmakeable (a solve gave up between them); "≤ 40" where even the lowest contract is
        unproved; "–" below the lowest contract; "·" for a trump not allowed."""
        if not self.allowed:
            return "·"
        if self.exact:
            return "–" if self.made is None else f"{self.made:,}"
        return f"{self.made:,}–{self.upper:,}" if self.made is not None else f"≤ {self.upper:,}"

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
            "answered_by": None if self.owner is None else {"bidder": self.owner[0], "mirrored": self.owner[1]},
        }


@dataclass(frozen=True)
class Makeable:
    """The table of a deal: ``dealt`` the hands as dealt (seat 0 first; text), ``seed`` the seed they came
    from (None: given), the ``exchange`` assumed, the first pass's ``limit`` of a solve and the table's
    ``budget`` of trick starts (0: none), one :class:`Cell` per trump and bidder (the trumps asked, in
    the order S, H, D, C, each with seats 0, 1, ...), the passes run and the seconds the table took
    (wall clock, the exchanges included)."""

    variant: Variant
    dealt: tuple[str, ...]
    seed: int | None
    exchange: str
    limit: int
    budget: int
    cells: tuple[Cell, ...]
    passes: tuple[Pass, ...] = ()
    seconds: float = 0.0

    @property
    def nodes(self) -> int:
        """Trick starts the table's solves searched."""
        return sum(p.nodes for p in self.passes)

    @property
    def shared(self) -> int:
        """Cells answered by another cell's solves (the same problem, or its mirror)."""
        return sum(1 for c in self.cells if c.owner is not None)

    @property
    def gave_up(self) -> int:
        """Cells left a range (a solve gave up, or the budget ran out before they were settled)."""
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
            "budget": self.budget,
            "nodes": self.nodes,
            "passes": [p.to_json() for p in self.passes],
            "lowest_contract": self.variant.lowest_contract,
            "seconds": self.seconds,
            "gave_up": self.gave_up,
            "shared": self.shared,
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


def problem_key(position: Position) -> tuple:
    """The double-dummy problem ``position`` poses, as a key: two positions with equal keys have one value
    each way round — the same trump, hands, leader and flags, the same opening-lead duty, and sides that are
    the same or each other's complement (then one side's points are the points in play less the other's).
    The bidder enters the solve only through his duty to open with a trump
    (``play.bidder_leads_trump``), which binds only when he leads the first trick; the sides enter as the
    pair they form, whichever is called the bidding one."""
    v = position.variant
    duty = position.bidder if position.first and v.get("play.bidder_leads_trump") else -1
    other = tuple(1 - s for s in position.side)
    return (
        position.trump,
        position.leader,
        position.hands.astype(np.uint8).tobytes(),
        position.first,
        position.broken,
        duty if duty == position.leader else -1,
        min(position.side, other),
    )


@dataclass
class Problem:
    """One double-dummy problem and what its solves have proved so far: ``position`` is its first
    cell's, whose side's points ``value`` stands for; ``lower`` <= value <= ``upper`` (only ever
    narrowed); ``targets`` the thresholds ("value >= t?") some cell's bids turn on, ascending;
    ``gave_up`` the largest limit a solve of each target gave up at; ``guess`` the learned estimate of
    the value (the first probe)."""

    position: Position
    lower: int
    upper: int
    guess: int
    targets: list[int]
    gave_up: dict[int, int]
    solves: int = 0
    nodes: int = 0
    seconds: float = 0.0

    def open_targets(self, limit: int) -> list[list[int]]:
        """The targets still unsettled that a solve of at most ``limit`` trick starts (0: none) may
        settle, in runs split by those that gave up at ``limit`` or more (a solve of them is no use):
        only the run next to the proved lower bound and the one next to the upper. A solve costs the
        more the nearer its target is to the value, and a give-up says the value is near: the targets
        between two give-ups are the dearest, and a pass leaves them to a larger limit."""
        runs: list[list[int]] = [[]]
        for t in self.targets:
            if not self.lower < t <= self.upper:
                continue
            if limit and self.gave_up.get(t, 0) >= limit:
                runs.append([])
            else:
                runs[-1].append(t)
        edges = [runs[0], runs[-1]] if len(runs) > 1 else runs
        return [r for r in edges if r]


@dataclass(frozen=True)
class _Asked:
    """A cell as a question to its problem (``problem``, an index): its bids, and for each the
    threshold of the problem's value that makes it (``mirrored``: the cell's side is the other side of
    the problem's position, made when the value is *below* the threshold)."""

    trump: int
    bidder: int
    meld: int
    problem: int
    mirrored: bool
    bids: tuple[int, ...]
    thresholds: tuple[int, ...]
    owner: tuple[int, bool] | None = None


def _asked(position: Position, meld: int, problem: int, mirrored: bool, owner: tuple[int, bool] | None) -> _Asked:
    """The cell of ``position`` (its bidder and trump) with ``meld`` as a question to ``problem``, first
    asked by ``owner`` (:attr:`Cell.owner`)."""
    v = position.variant
    lowest = v.lowest_contract
    counted = meld if meld >= v.get("scoring.min_meld_to_count") else 0
    bids = tuple(b for b in range(lowest, max(lowest, counted + position.in_play) + 1) if is_bid(v, b))
    needs = [trick_need(v, b, meld) for b in bids]
    # the cell's side takes at least n  <=>  the problem's side takes at most in_play - n
    thresholds = tuple(position.in_play - n + 1 if mirrored else n for n in needs)
    return _Asked(position.trump, position.bidder, meld, problem, mirrored, bids, thresholds, owner)


def _answered(asked: _Asked, problem: Problem) -> Cell:
    """The :class:`Cell` of ``asked`` from what its problem has proved: the highest bid proved made,
    the highest not proved unmakeable."""
    made = upper = None
    for bid, t in zip(asked.bids, asked.thresholds):
        # made when the value reaches t (mirrored: when it does not); proved so when every value the
        # bounds allow does
        yes = (problem.upper < t) if asked.mirrored else (t <= problem.lower)
        maybe = (problem.lower < t) if asked.mirrored else (t <= problem.upper)
        if yes:
            made = bid
        if maybe:
            upper = bid
    owner = asked.owner
    solves, nodes, seconds = (0, 0, 0.0) if owner else (problem.solves, problem.nodes, problem.seconds)
    return Cell(asked.trump, asked.bidder, asked.meld, made, upper, True, solves, nodes, seconds, owner)


def _bisected(problem: Problem, limit: int, budget: int) -> tuple[int, int, int, int]:
    """Bisect ``problem``'s open targets by threshold solves of at most ``limit`` trick starts (0:
    none), all of them together at most ``budget`` (0: none): the widest run of open targets
    first (its middle; the first solve of a problem at its guess), so that a give-up still lets the
    targets on either side of it be settled. Narrows the problem in place; returns (solves, of which
    gave up, trick starts, the largest limit a solve had, 0 for none). The solves share the thread's
    table (an entry bounds the position's value whatever the target); a pass starts it afresh, the
    table having held other problems' solves since."""
    solves = gave = nodes = widest = 0
    while True:
        step = _solve_limit(limit, budget, nodes)
        if step < 0:
            break
        runs = problem.open_targets(step)
        if not runs:
            break
        run = max(runs, key=len)
        if problem.solves == 0:
            target = next((t for r in runs for t in r if t >= problem.guess), runs[-1][-1])
        else:
            target = run[len(run) // 2]
        got = solve(problem.position, target, step, keep_table=solves > 0)
        solves += 1
        nodes += got.nodes
        widest = max(widest, step)
        problem.solves += 1
        problem.nodes += got.nodes
        problem.seconds += got.seconds
        if got.gave_up:
            gave += 1
            problem.gave_up[target] = max(problem.gave_up.get(target, 0), step)
        elif got.reaches:
            problem.lower = max(problem.lower, target)
        else:
            problem.upper = min(problem.upper, target - 1)
    return solves, gave, nodes, widest


def _solve_limit(limit: int, budget: int, spent: int) -> int:
    """The limit of the next solve: ``limit`` (0: none), cut to what ``budget`` (0: none) leaves after
    ``spent`` (a solve that gives up has searched one trick start past its limit); -1 when the budget
    cannot pay for a solve."""
    if not budget:
        return limit
    left = budget - spent - 1
    if left < 1:
        return -1
    return min(limit, left) if limit else left


def escalated(problems: list[Problem], limit: int = LIMIT, budget: int = BUDGET) -> tuple[Pass, ...]:
    """Narrow ``problems`` in place by passes over them: every problem bisected under ``limit`` trick
    starts a solve first, then those still open again at :data:`~simcore.solver.escalation.FACTOR`
    times the limit, from the bounds they already proved, and so on, until none is open or the
    ``budget`` of trick starts (0: none) is spent; with ``limit`` 0 (none) a single pass. A proof is
    never lost (a problem's bounds only narrow), and an answer does not depend on the limit it was
    found under (only whether a solve gives up does). Each pass gives every problem still open an
    equal share of what the budget has left. Progress goes out in trick starts of the budget (without
    one, in problems settled)."""
    from simcore.run.runner import checkpoint

    passes: list[Pass] = []
    spent, step = 0, limit
    while True:
        solves = gave = nodes = widest = 0
        pending = [p for p in problems if p.open_targets(0)]
        for k, p in enumerate(pending):
            if budget:
                checkpoint(spent + nodes, budget)
            else:
                checkpoint(sum(not q.open_targets(0) for q in problems), len(problems))
            # an equal share of what the budget has left for each problem still to come in this pass, so
            # that a budget spent early does not leave the last trumps unsolved
            share = (budget - spent - nodes) // (len(pending) - k) if budget else 0
            if budget and share < 2:
                continue
            s, g, n, w = _bisected(p, step, share)
            solves, gave, nodes, widest = solves + s, gave + g, nodes + n, max(widest, w)
        spent += nodes
        if solves:  # a pass's limit as its solves had it (the budget may have cut it)
            passes.append(Pass(widest, solves, gave, nodes))
        still = sum(1 for p in problems if p.open_targets(0))
        if not still or not step:
            break
        # (a pass may have no solves: its targets gave up at its limit or more before, in an earlier call)
        if budget and (budget - spent) // still <= step:  # the next pass's solves could search no longer
            break
        step *= FACTOR
    if budget:
        checkpoint(budget, budget)
    else:
        checkpoint(len(problems), len(problems))
    return tuple(passes)


@dataclass(frozen=True)
class Posed:
    """The problems a table's cells pose (:func:`posed`) and the cells as questions to them (None: a cell
    not asked)."""

    problems: list[Problem]
    questions: list[_Asked | None]

    def cells(self) -> list[Cell | None]:
        """Each cell as its problem's bounds answer it now."""
        return [None if q is None else _answered(q, self.problems[q.problem]) for q in self.questions]


def posed(asked: list[tuple[Position, int] | None]) -> Posed:
    """The problems the cells of positions at the first lead pose (each position with its side's meld;
    None: not asked): cells whose positions are one problem (:func:`problem_key`) ask it together, each
    from its own side. A problem's bounds start at the solver's exact bounds, its first probe at the
    learned estimate (:func:`simcore.solver.position.evaluation`)."""
    problems: list[Problem] = []
    keys: dict[tuple, int] = {}
    questions: list[_Asked | None] = []
    for item in asked:
        if item is None:
            questions.append(None)
            continue
        position, meld = item
        key = problem_key(position)
        if key not in keys:
            est = evaluation(position)
            keys[key] = len(problems)
            problems.append(
                Problem(position, max(0, est.lower), min(position.in_play, est.upper), est.estimate, [], {})
            )
        k = keys[key]
        first = problems[k].position
        mirrored = first.side != position.side
        owner = None if first.bidder == position.bidder else (first.bidder, mirrored)
        q = _asked(position, meld, k, mirrored, owner)
        problems[k].targets = sorted(set(problems[k].targets) | set(q.thresholds))
        questions.append(q)
    return Posed(problems, questions)


def answered_cells(
    asked: list[tuple[Position, int] | None], limit: int = LIMIT, budget: int = BUDGET
) -> tuple[list[Cell | None], tuple[Pass, ...]]:
    """The cells of positions at the first lead (as :func:`posed` takes them), answered together
    (:func:`escalated`). Returns the cells (None where not asked) and the passes run."""
    problems = posed(asked)
    passes = escalated(problems.problems, limit, budget)
    return problems.cells(), passes


def makeable_cell(position: Position, meld: int, limit: int = LIMIT, budget: int = BUDGET) -> Cell:
    """The :class:`Cell` of the side of ``position`` (its bidder, trump) with ``meld``: bisection over the
    bids the auction can reach by threshold solves, escalated from ``limit`` trick starts a solve (0:
    none) within ``budget`` (0: none), as :func:`answered_cells`."""
    cells, _ = answered_cells([(position, meld)], limit, budget)
    return cells[0]  # type: ignore[return-value]


def makeable(
    variant: Variant,
    seed: int | None = None,
    hands: list[str] | None = None,
    exchange: str = "heuristic",
    limit: int = LIMIT,
    trumps: str = "SHDC",
    budget: int = BUDGET,
) -> Makeable:
    """The :class:`Makeable` table of a deal: the first hand of ``seed`` as dealt, or ``hands`` (one a
    seat, the whole deal; with ``exchange = "given"``, the hands after the exchange), its solves
    escalated from ``limit`` trick starts a solve (0: none) within ``budget`` trick starts the table (0:
    none; :func:`escalated`). Raises :class:`~simcore.variants.NotForThisSystem` for a system whose made
    rule the solver cannot state, :class:`MakeableError` for a bad deal, seed, exchange, limit, budget
    or ``trumps`` (the suits tabulated, as :func:`parse_trumps` reads them; one line each)."""
    check_variant(variant)
    if exchange not in EXCHANGES:
        raise MakeableError(f"exchange {exchange[:20]!r}: give one of {', '.join(EXCHANGES)}")
    for name, value in (("limit", limit), ("budget", budget)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise MakeableError(f"{name} {str(value)[:20]!r}: give a whole number of trick starts, 0 for none")
    if (seed is None) == (hands is None):
        raise MakeableError("give a seed or the hands, one of the two")
    suits = parse_trumps(trumps)
    deal = seeded_deal(variant, seed) if hands is None else given_deal(variant, hands)
    return table_of_deal(variant, deal, seed, exchange, limit, suits, budget)


def table_of_deal(
    variant: Variant,
    deal: list[np.ndarray],
    seed: int | None,
    exchange: str,
    limit: int = LIMIT,
    trumps: tuple[int, ...] = (0, 1, 2, 3),
    budget: int = BUDGET,
) -> Makeable:
    """:func:`makeable` of a deal already read (:func:`seeded_deal`, :func:`given_deal`; ``seed`` names
    it), the trumps as suit indices. Progress (:func:`escalated`'s) goes to the
    :class:`simcore.run.runner.Execution` in force."""
    start = time.perf_counter()
    asked: list[tuple[Position, int] | None] = []
    where: list[tuple[int, int]] = []
    for trump in trumps:
        for bidder in range(variant.players):
            position = first_lead(variant, deal, bidder, trump, exchange)
            asked.append(None if position is None else (position, side_meld(position)))
            where.append((trump, bidder))
    answered, passes = answered_cells(asked, limit, budget)
    cells = tuple(
        Cell(trump, bidder, 0, None, None, allowed=False) if c is None else c
        for (trump, bidder), c in zip(where, answered)
    )
    dealt = tuple(format_hand(h) for h in deal[: variant.players])
    return Makeable(variant, dealt, seed, exchange, limit, budget, cells, passes, time.perf_counter() - start)


def _types(counts: np.ndarray) -> list[int]:
    """Copy counts as a list of card types, a type once per copy (as :func:`simcore.state.new_hand` takes
    cards)."""
    return [t for t in range(len(counts)) for _ in range(int(counts[t]))]
