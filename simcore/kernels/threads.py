"""Chunk kernels spread over threads: a batch of chunks, one call of a ``nogil`` chunk kernel each.

The batch runners (``hands_batch``, ``odds_batch`` ...) were numba ``parallel=True`` functions whose
``prange`` ran one chunk per iteration. Compiling such a wrapper links and optimises the whole chunk
kernel a second time (about 30 s for the full hand on 2 cores, measured with numba's compile events),
for nothing a plain thread pool does not do as well: the chunks are independent and each runs for
milliseconds to seconds, so a chunk kernel compiled with ``nogil=True`` and called from Python threads
runs them in parallel. Each chunk draws from its own stream, so the numbers do not depend on the
threads; the thread count is numba's (``numba.set_num_threads``, ``--threads``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba


def each_chunk(run: Callable[[int], object], chunks: int) -> None:
    """Call ``run(i)`` for every chunk i in ``range(chunks)``, on up to ``numba.get_num_threads()``
    threads; ``run`` must release the GIL (a ``nogil`` kernel) for the threads to run together."""
    threads = min(numba.get_num_threads(), chunks)
    if threads <= 1:
        for i in range(chunks):
            run(i)
        return
    with ThreadPoolExecutor(threads) as pool:
        for _ in pool.map(run, range(chunks)):  # re-raises a chunk's exception here
            pass
