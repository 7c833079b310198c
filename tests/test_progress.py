"""A long report step says what runs: the runs' counts every few seconds (analyses.progress)."""

import threading
import time

import numpy as np

from analyses.progress import StepState, told
from simcore.run.runner import Job, run_job


def test_a_step_line_says_what_runs_and_how_far():
    state = StepState()
    assert state.line("redeals", 5.2) == "redeals: 5 s, preparing (a kernel's first use compiles it)"
    state.started("games", 20_000)
    assert state.line("redeals", 10) == (
        "redeals: 20,000 games to run, none counted yet, 10 s (its first batch, or a kernel compiling on first use)"
    )
    state.progress(12_000, 20_000)
    assert state.line("redeals", 41) == "redeals: 12,000 of 20,000 games (60%), 41 s"
    state.progress(20_000, 20_000)
    assert state.line("redeals", 50).startswith("redeals: 20,000 of 20,000 games (100%), 50 s; now the rest")
    state.started("deals", 1_000)
    state.progress(250, 1_000)
    assert state.line("redeals", 55) == "redeals: run 2, 250 of 1,000 deals (25%), 55 s"


def _slow_count(states: np.ndarray, sizes: np.ndarray, chunks: np.ndarray) -> np.ndarray:
    time.sleep(0.01)
    return sizes.reshape(-1, 1).astype(np.int64)


def test_runs_inside_a_step_are_told_every_few_seconds():
    said: list[str] = []
    heard = threading.Event()

    def say(line: str) -> None:
        said.append(line)
        if "deals (100%)" in line:
            heard.set()

    with told("a step", say, every=0.05) as state:
        result = run_job(Job(_slow_count, "sum", chunk_deals=100), seed=1, deals=1_000)
        assert heard.wait(10), said  # the timer tells the finished run within a few ticks
    assert int(result.tally.sum()) == 1_000 and state.runs == 1 and (state.unit, state.total) == ("deals", 1_000)
    assert any(line.startswith("a step: 1,000 of 1,000 deals (100%)") for line in said)
    count = len(said)
    time.sleep(0.2)
    assert len(said) == count  # the step is over: its timer says nothing more
