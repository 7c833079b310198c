"""Independent jobs run in worker processes, for the solving analyses (the strong-play page).

A job is ``(function, args)`` whose result depends on its arguments alone (seeded deals), so the
results, gathered in job order, do not depend on how many processes ran them or in which order they
finished. Processes are spawned, not forked (the parent may hold threads), and each loads the kernels
from numba's cache.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

Job = tuple[Callable, tuple]


def chunks(first: int, count: int, size: int) -> list[range]:
    """``first .. first + count - 1`` in consecutive ranges of at most ``size``."""
    return [range(a, min(a + size, first + count)) for a in range(first, first + count, size)]


def run_jobs(
    jobs: list[Job], workers: int = 1, say: Callable[[str], None] = lambda _: None, every: float = 60.0
) -> list:
    """``[function(*args) for function, args in jobs]``, in ``workers`` processes (1: here, in order);
    ``say`` hears how many are done about every ``every`` seconds."""
    start, last, done = time.perf_counter(), time.perf_counter(), 0

    def tick() -> None:
        nonlocal last, done
        done += 1
        now = time.perf_counter()
        if now - last >= every or done == len(jobs):
            last = now
            say(f"{done} of {len(jobs)} jobs done, {now - start:.0f} s")

    if workers <= 1 or len(jobs) <= 1:
        out = []
        for function, args in jobs:
            out.append(function(*args))
            tick()
        return out
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(function, *args): k for k, (function, args) in enumerate(jobs)}
        out = [None] * len(jobs)
        for future in as_completed(futures):
            out[futures[future]] = future.result()
            tick()
    return out
