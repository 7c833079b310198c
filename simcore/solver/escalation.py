"""Threshold solves under an escalating budget: every position solved at a small limit of trick starts,
then only those that gave up again at ``factor`` times the limit, and so on, until the caller's rule
says the give-ups left matter too little, none is left, or a total budget of trick starts is spent.

Double-dummy solve times are heavy-tailed (in four-hand-150 about 12% of whole-deal thresholds pass 2 M
trick starts, 1.2% pass 20 M, 0.1% pass 100 M), so one limit for every solve either wastes the budget on
a tail that hardly moves a rate or leaves too many give-ups. An answered solve is never solved again,
and a solve's answer does not depend on its limit (only whether it gives up does), so escalation never
changes a verdict. The transposition table is not kept between passes: each thread's table has held
other positions' solves since (each solve starts its own generation), so a pass solves its positions
afresh; the earlier passes' trick starts are counted in the totals all the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from simcore.solver.position import Position, Solved, solve_many

#: How much larger each pass's limit is than the one before.
FACTOR = 10


@dataclass(frozen=True)
class Pass:
    """One pass: its limit of trick starts a solve, the solves it ran, how many of them gave up, and
    the trick starts they searched."""

    limit: int
    solves: int
    gave_up: int
    nodes: int

    def to_json(self) -> dict:
        return {"limit": self.limit, "solves": self.solves, "gave_up": self.gave_up, "nodes": self.nodes}


@dataclass(frozen=True)
class Escalated:
    """Each position's last solve (``solved``, in the order given; its ``nodes`` the trick starts of
    every pass it took part in) and the passes run."""

    solved: list[Solved]
    passes: tuple[Pass, ...]

    @property
    def nodes(self) -> int:
        return sum(p.nodes for p in self.passes)

    @property
    def gave_up(self) -> int:
        return sum(1 for s in self.solved if s.gave_up)


def escalated_solves(
    positions: Sequence[Position],
    targets: Sequence[int],
    limit: int,
    budget: int = 0,
    threads: int | None = None,
    enough: Callable[[list[Solved]], bool] | None = None,
    most_passes: int = 0,
    factor: int = FACTOR,
    gave_up_at: int = 0,
) -> Escalated:
    """Threshold solves of ``positions`` ("can the bidding side take at least ``targets[i]``?") on
    ``threads`` threads, the first pass at ``limit`` trick starts a solve, each later pass only the
    give-ups at ``factor`` times the last limit. Stops when nothing gave up, when ``enough`` (given every
    position's latest solve) says so, after ``most_passes`` passes (0: no such stop), or when the total
    ``budget`` of trick starts (0: none) cannot pay for a larger pass: a pass's limit is cut to what
    the budget has left over its solves, and a pass whose limit would not exceed the last one's is not
    run (the first always runs, at a limit of at least 1, unless the positions already ``gave_up_at``
    a limit: then it too must exceed that). The answers and trick starts do not depend on ``threads``."""
    if len(targets) != len(positions):
        raise ValueError(f"{len(positions)} positions but {len(targets)} targets")
    latest: list[Solved | None] = [None] * len(positions)
    pending = list(range(len(positions)))
    passes: list[Pass] = []
    spent, step = 0, limit
    while pending:
        if budget:
            step = min(step, (budget - spent) // len(pending))
            last = passes[-1].limit if passes else gave_up_at
            if last and step <= last:
                break
            step = max(step, 1)  # a first pass runs whatever the budget, so that every position has a solve
        got = solve_many([positions[i] for i in pending], [targets[i] for i in pending], step, threads)
        nodes = sum(s.nodes for s in got)
        for i, s in zip(pending, got):
            before = latest[i]
            latest[i] = s if before is None else replace(s, nodes=s.nodes + before.nodes)
        spent += nodes
        pending = [i for i, s in zip(pending, got) if s.gave_up]
        passes.append(Pass(step, len(got), len(pending), nodes))
        if not pending or (most_passes and len(passes) >= most_passes):
            break
        if enough is not None and enough(latest):  # type: ignore[arg-type]
            break
        step *= factor
    return Escalated(latest, tuple(passes))  # type: ignore[arg-type]
