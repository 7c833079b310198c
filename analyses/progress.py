"""Long steps that say what they are doing: a line every few seconds while a report section runs.

A section may spend a minute or more in runs of the chunk runner (hands dealt, hands played, whole
games) and in a kernel's first compile, which counts nothing. :func:`told` listens to the runs through
the runner's :class:`~simcore.run.runner.Execution` (``started`` names a run's unit and size,
``progress`` counts it) and, from a timer thread, tells ``say`` where the step stands every
:data:`EVERY` seconds: a step shorter than that says nothing more.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from simcore.run.runner import Execution, executing

#: Seconds between two lines of one step.
EVERY = 5.0


@dataclass
class StepState:
    """What a step's runs have reported so far: the runs started, the unit and size of the last, and
    how much of it is done."""

    runs: int = 0
    unit: str = ""
    done: int = 0
    total: int = 0

    def started(self, unit: str, total: int) -> None:
        self.runs, self.unit, self.done, self.total = self.runs + 1, unit, 0, total

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def line(self, label: str, seconds: float) -> str:
        """Where the step stands, in one line: "redeals: run 2, 12,000 of 20,000 games (60%), 41 s"."""
        if self.runs == 0 and self.total == 0:
            return f"{label}: {seconds:.0f} s, preparing (a kernel's first use compiles it)"
        unit = f" {self.unit}" if self.unit else ""
        if self.done == 0:
            waiting = f"none counted yet, {seconds:.0f} s (its first batch, or a kernel compiling on first use)"
            return f"{label}: {self.total:,}{unit} to run, {waiting}"
        share = f" ({100 * self.done / self.total:.0f}%)" if self.total else ""
        run = f"run {self.runs}, " if self.runs > 1 else ""
        then = "; now the rest of the step (exact counts, a first compile, tables)" if self.done >= self.total else ""
        return f"{label}: {run}{self.done:,} of {self.total:,}{unit}{share}, {seconds:.0f} s{then}"


@contextmanager
def told(label: str, say: Callable[[str], None], every: float = EVERY) -> Iterator[StepState]:
    """Run the block with its runs reported to ``say`` every ``every`` seconds as :meth:`StepState.line`
    (``label`` first); the block's runs go to the local threads, as they do by default."""
    state = StepState()
    stop = threading.Event()
    start = time.perf_counter()

    def tick() -> None:
        while not stop.wait(every):
            say(state.line(label, time.perf_counter() - start))

    thread = threading.Thread(target=tick, name=f"progress of {label}", daemon=True)
    thread.start()
    try:
        with executing(Execution(progress=state.progress, started=state.started)):
            yield state
    finally:
        stop.set()
        thread.join()
