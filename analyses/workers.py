"""Independent jobs run in worker processes, for the solving analyses (the strong-play page).

A job is ``(function, args)`` whose result depends on its arguments alone (seeded deals), so the
results, gathered in job order, do not depend on how many processes ran them or in which order they
finished. Processes are spawned, not forked (the parent may hold threads), and each loads the kernels
from numba's cache.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

Job = tuple[Callable, tuple]


def chunks(first: int, count: int, size: int) -> list[range]:
    """``first .. first + count - 1`` in consecutive ranges of at most ``size``."""
    return [range(a, min(a + size, first + count)) for a in range(first, first + count, size)]


def run_jobs(
    jobs: list[Job],
    workers: int = 1,
    say: Callable[[str], None] = lambda _: None,
    every: float = 60.0,
    keep: Path | None = None,
) -> list:
    """``[function(*args) for function, args in jobs]``, in ``workers`` processes (1: here, in order);
    ``say`` hears how many are done about every ``every`` seconds. With ``keep``, a folder named for
    the run, each finished job's result is written there as it finishes and read back instead of run
    again, so an interrupted run resumes where it stopped."""
    start, last, done = time.perf_counter(), time.perf_counter(), 0
    out: list = [None] * len(jobs)
    todo = list(range(len(jobs)))
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        kept = [k for k in todo if (keep / f"{k}.pkl").exists()]
        for k in kept:
            out[k] = pickle.loads((keep / f"{k}.pkl").read_bytes())
        todo = sorted(set(todo) - set(kept))

    def finished(k: int, result) -> None:
        out[k] = result
        if keep is not None:
            part = keep / f"{k}.pkl.part"
            part.write_bytes(pickle.dumps(result))
            part.replace(keep / f"{k}.pkl")
        tick()

    def tick() -> None:
        nonlocal last, done
        done += 1
        now = time.perf_counter()
        if now - last >= every or done == len(todo):
            last = now
            say(f"{done} of {len(todo)} jobs done, {now - start:.0f} s")

    if workers <= 1 or len(todo) <= 1:
        for k in todo:
            function, args = jobs[k]
            finished(k, function(*args))
        return out
    with ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(jobs[k][0], *jobs[k][1]): k for k in todo}
        for future in as_completed(futures):
            finished(futures[future], future.result())
    return out
