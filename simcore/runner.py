"""The seeded chunk runner: cuts work into fixed chunks, runs them in batches, merges their tallies.

Chunk k always holds deals ``[k * chunk_deals, (k + 1) * chunk_deals)`` of the request and draws from
the stream of (seed, k) (:func:`simcore.rng.chunk_states`), so the merged result depends only on
(rules, seed, number of deals), never on the thread count, the batch size or the order of chunks.
Each batch function returns one integer tally per chunk; tallies add up exactly. On Ctrl-C the
finished chunks are kept and the result says it is partial.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from simcore.rng import chunk_states

#: Deals per chunk. Part of the definition of a seeded run: changing it changes the numbers.
CHUNK_DEALS = 1 << 15

BatchFn = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class RunResult:
    """Merged tally of the chunks run, with how many deals they held."""

    tally: np.ndarray
    deals: int
    requested: int
    seconds: float

    @property
    def interrupted(self) -> bool:
        """True when the run stopped early (Ctrl-C) and holds only its finished chunks."""
        return self.deals < self.requested


def chunk_sizes(deals: int, chunk_deals: int = CHUNK_DEALS) -> np.ndarray:
    """int64[chunks]: deals in each chunk of a request for ``deals`` deals (the last may be short)."""
    full, rest = divmod(deals, chunk_deals)
    return np.array([chunk_deals] * full + ([rest] if rest else []), dtype=np.int64)


def run_chunks(batch: BatchFn, seed: int, deals: int, progress: bool = False,
               chunk_deals: int = CHUNK_DEALS, unit: str = "deals") -> RunResult:
    """Run ``batch`` over every chunk of ``deals`` deals and return the summed tallies.

    ``batch(states, sizes, chunks)`` gets uint64[b, 4] stream states, int64[b] chunk sizes and the
    int64[b] chunk indices, and returns an integer array whose first axis is the chunk. Batches hold a few chunks per thread so progress
    shows and an interrupt loses little.
    """
    sizes = chunk_sizes(deals, chunk_deals)
    per_batch = max(1, 2 * numba.get_num_threads())
    tally: np.ndarray | None = None
    done = 0
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=deals, unit=" " + unit, unit_scale=True, file=sys.stderr, leave=False)
    try:
        for first in range(0, len(sizes), per_batch):
            idx = np.arange(first, min(first + per_batch, len(sizes)))
            part = batch(chunk_states(seed, idx.tolist()), sizes[idx], idx)
            merged = part.sum(axis=0)
            tally = merged if tally is None else tally + merged
            done += int(sizes[idx].sum())
            if bar is not None:
                bar.update(int(sizes[idx].sum()))
    except KeyboardInterrupt:
        pass
    finally:
        if bar is not None:
            bar.close()
    if tally is None:
        tally = batch(chunk_states(seed, []), sizes[:0], np.zeros(0, dtype=np.int64)).sum(axis=0)
    return RunResult(tally=tally, deals=done, requested=deals, seconds=time.perf_counter() - start)


def chunk_offsets(sizes: np.ndarray) -> np.ndarray:
    """int64[b]: the first row of each chunk when chunks of ``sizes`` rows are laid end to end."""
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)


def collect_rows(fill: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], None],
                 seed: int, count: int, width: int, chunk_deals: int = CHUNK_DEALS, unit: str = "deals",
                 progress: bool = False) -> tuple[np.ndarray, RunResult]:
    """(int64[rows, width], the run): every row of every finished chunk, in order.

    ``fill(states, sizes, chunks, offsets, out)`` writes the rows of a batch of chunks into ``out``
    (chunk i at rows ``offsets[i]:offsets[i] + sizes[i]``). Memory grows with ``count``: for records a
    user keeps, not for tallies."""
    parts: list[np.ndarray] = []

    def batch(states: np.ndarray, sizes: np.ndarray, chunks: np.ndarray) -> np.ndarray:
        out = np.zeros((int(sizes.sum()), width), dtype=np.int64)
        if len(sizes):
            fill(states, sizes.astype(np.int64), chunks.astype(np.int64), chunk_offsets(sizes), out)
            parts.append(out)
        return np.zeros((1, 1), dtype=np.int64)

    run = run_chunks(batch, seed, count, progress=progress, chunk_deals=chunk_deals, unit=unit)
    rows = np.concatenate(parts) if parts else np.zeros((0, width), dtype=np.int64)
    return rows, run
