"""The seeded chunk runner: cuts work into fixed chunks, runs them here or on a Dask cluster, keeps them
in the results store and merges them.

Chunk k always holds deals ``[k * chunk_deals, (k + 1) * chunk_deals)`` of the request and draws from
the stream of (seed, k) (:func:`simcore.kernels.rng.chunk_states`), so a chunk's numbers depend only on (rules,
seed, k, its size, the code): never on the thread count, the batch size, the machine or the order chunks
finish in. Tallies are int64 and add exactly; record rows are laid end to end in chunk order. So the
merged result is bit-identical on 1 thread, 2 threads or a cluster, and chunks kept in the store from an
earlier (or interrupted, or smaller) run count as if computed now.

Where the work runs and where it is kept is the :class:`Execution` in force (:func:`executing`); library
callers get plain numba threads and no store. On Ctrl-C the chunks already finished are kept (and
stored) and the result says it is partial; a second Ctrl-C stops at once.
"""

from __future__ import annotations

import contextvars
import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from simcore.kernels.rng import chunk_states
from simcore.run.store import RunInfo, Store

#: Deals per chunk. Part of the definition of a seeded run: changing it changes the numbers.
CHUNK_DEALS = 1 << 15
#: A local batch grows until it takes about this long, so the store and the progress bar cost little
#: and an interrupt loses little.
BATCH_SECONDS = 0.5
#: Finished chunks are written to the store at most this often (and when the run ends or stops): a
#: write costs tens of milliseconds, whatever its size.
STORE_SECONDS = 1.0
#: Most chunks in one cluster task.
MAX_TASK_CHUNKS = 256
#: Cluster tasks kept in flight per worker thread (see :func:`_cluster_batches`).
IN_FLIGHT_PER_THREAD = 3

BatchFn = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


class ClusterError(Exception):
    """A Dask cluster that cannot be reached or started; one-line message."""


@dataclass(frozen=True)
class Job:
    """One kind of chunk computation.

    ``task(states, sizes, chunks)`` gets uint64[b, 4] stream states, int64[b] chunk sizes and int64[b]
    chunk indices. With ``merge="sum"`` it returns an integer array whose first axis is the chunk; with
    ``merge="rows"`` it returns int64[sum(sizes), width], chunk i's rows after those of chunks < i.
    A job with a ``run`` is kept in the store and may go to a cluster: its task must then pickle by
    reference (a module-level function, or ``functools.partial`` of one with picklable arguments).
    A job without one (a closure) always runs here and is never stored."""

    task: BatchFn
    merge: str = "sum"
    run: RunInfo | None = None
    chunk_deals: int = CHUNK_DEALS
    unit: str = "deals"


@dataclass(frozen=True)
class RunResult:
    """Merged tally (or rows) of the chunks run, with how many deals they held."""

    tally: np.ndarray
    deals: int
    requested: int
    seconds: float
    stored: int = 0  # deals answered from the store

    @property
    def interrupted(self) -> bool:
        """True when the run stopped early (Ctrl-C) and holds only its finished chunks."""
        return self.deals < self.requested


@dataclass
class Execution:
    """Where keyed jobs run and where their chunks are kept.

    ``store``: a results file, or None for none. ``scheduler``: a Dask scheduler address; ``workers``:
    start a local Dask cluster of that many single-threaded worker processes. Neither: numba threads.
    ``stop``: an event that stops a run after the chunks in hand, as Ctrl-C does (a web page's cancel
    button); ``progress``: called with (deals done, deals requested) after every batch; ``started``:
    called with the unit of a run ("deals", "hands", "games") and its size as it starts, so a caller
    can say what the counts count."""

    store: Path | None = None
    scheduler: str | None = None
    workers: int = 0
    stop: threading.Event | None = None
    progress: Callable[[int, int], None] | None = None
    started: Callable[[str, int], None] | None = None
    _client: object = field(default=None, repr=False)
    _store: Store | None = field(default=None, repr=False)

    @property
    def distributed(self) -> bool:
        return bool(self.scheduler or self.workers)

    def open_store(self) -> Store | None:
        if self.store is not None and self._store is None:
            self._store = Store(self.store)
        return self._store

    def client(self):
        """The Dask client, started on first use."""
        if self._client is None:
            from distributed import Client, LocalCluster

            try:
                if self.scheduler:
                    self._client = Client(self.scheduler, timeout="20s")
                else:
                    cluster = LocalCluster(
                        n_workers=self.workers, threads_per_worker=1, processes=True, dashboard_address=None
                    )
                    self._client = Client(cluster)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(
                    f"Dask cluster {self.scheduler or 'local'}: cannot connect "
                    f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
                )
        return self._client

    def close(self) -> None:
        if self._client is not None:
            cluster = getattr(self._client, "cluster", None)
            self._client.close()
            if cluster is not None and not self.scheduler:
                cluster.close()
            self._client = None


_EXECUTION: contextvars.ContextVar[Execution] = contextvars.ContextVar("execution", default=Execution())


@contextmanager
def executing(execution: Execution) -> Iterator[Execution]:
    """Run keyed jobs under ``execution`` inside the block; a cluster it starts is closed at the end."""
    token = _EXECUTION.set(execution)
    try:
        yield execution
    finally:
        _EXECUTION.reset(token)
        execution.close()


class Stopped(Exception):
    """Work that keeps no partial answer (an exact count, a solver's cards) was stopped by the
    :class:`Execution`'s ``stop`` before it finished."""


def checkpoint(done: int, total: int) -> None:
    """For work outside the chunk runner that cannot be cut into seeded chunks: report ``done`` of
    ``total`` steps to the :class:`Execution` in force, and raise :class:`Stopped` if its ``stop`` is
    set. A no-op for library callers (no progress, no stop)."""
    execution = _EXECUTION.get()
    if execution.progress is not None:
        execution.progress(done, total)
    if execution.stop is not None and execution.stop.is_set():
        raise Stopped(f"stopped after {done:,} of {total:,}")


def chunk_sizes(deals: int, chunk_deals: int = CHUNK_DEALS) -> np.ndarray:
    """int64[chunks]: deals in each chunk of a request for ``deals`` deals (the last may be short)."""
    full, rest = divmod(deals, chunk_deals)
    return np.array([chunk_deals] * full + ([rest] if rest else []), dtype=np.int64)


def chunk_offsets(sizes: np.ndarray) -> np.ndarray:
    """int64[b]: the first row of each chunk when chunks of ``sizes`` rows are laid end to end."""
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)


def chunk_values(task: BatchFn, merge: str, seed: int, sizes: np.ndarray, chunks: np.ndarray) -> list[np.ndarray]:
    """One array per chunk of ``chunks``: what ``task`` computes for it. A cluster task runs this."""
    out = task(chunk_states(seed, chunks.tolist()), sizes, chunks)
    if merge == "sum":
        return [out[i] for i in range(len(chunks))]
    return np.split(out, np.cumsum(sizes)[:-1])


class _Interrupt:
    """Ctrl-C while a run is in progress: the first asks it to stop after the chunks in hand, the second
    stops at once (KeyboardInterrupt). ``asked``: the event the run watches (a new one, or the
    execution's ``stop``)."""

    def __init__(self, asked: threading.Event | None = None):
        self.asked = asked if asked is not None else threading.Event()

    def __enter__(self):
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        if self.asked.is_set():
            raise KeyboardInterrupt
        self.asked.set()

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
        return False


def _local_batches(
    job: Job, seed: int, sizes: np.ndarray, missing: list[int], stop: threading.Event
) -> Iterator[tuple[np.ndarray, list[np.ndarray]]]:
    """(chunk indices, values) batch after batch, in chunk order, on numba threads."""
    step = max(1, 2 * numba.get_num_threads())
    per_batch, i = step, 0
    while i < len(missing) and not stop.is_set():
        idx = np.asarray(missing[i : i + per_batch], dtype=np.int64)
        start = time.perf_counter()
        values = chunk_values(job.task, job.merge, seed, sizes[idx], idx)
        took = time.perf_counter() - start
        i += len(idx)
        yield idx, values
        if took > 0:  # grow (or shrink) batches toward BATCH_SECONDS, in whole rounds of threads
            per_batch = max(step, min(64 * step, int(per_batch * BATCH_SECONDS / took) // step * step))


def _cluster_batches(
    job: Job, seed: int, sizes: np.ndarray, missing: list[int], stop: threading.Event, execution: Execution
) -> Iterator[tuple[np.ndarray, list[np.ndarray]]]:
    """(chunk indices, values) task by task, as tasks finish on the Dask cluster, with at most
    ``IN_FLIGHT_PER_THREAD`` tasks per worker thread submitted at once. A worker that dies has its tasks
    rerun elsewhere by Dask, with the same result (a chunk is a pure function of its key), and results
    merge by chunk index, so the order tasks finish in never changes a number."""
    from distributed import wait

    client = execution.client()
    threads = max(1, sum(client.nthreads().values()))
    per_task = max(1, min(MAX_TASK_CHUNKS, math.ceil(len(missing) / (8 * threads))))
    groups = (np.asarray(missing[i : i + per_task], dtype=np.int64) for i in range(0, len(missing), per_task))
    pending = {}

    def submit_next() -> None:
        idx = next(groups, None)
        if idx is not None:
            future = client.submit(chunk_values, job.task, job.merge, seed, sizes[idx], idx, pure=False)
            pending[future] = idx

    # a few tasks per worker thread in flight, the next submitted as one finishes: the client holds a
    # bounded number of futures however long the run, and every worker stays busy
    for _ in range(IN_FLIGHT_PER_THREAD * threads):
        submit_next()
    try:
        while pending and not stop.is_set():
            try:  # short waits, so Ctrl-C is seen between tasks
                done, _ = wait(list(pending), timeout=0.25, return_when="FIRST_COMPLETED")
            except TimeoutError:  # distributed raises when nothing finished in time
                continue
            for future in done:
                idx = pending.pop(future)
                submit_next()
                yield idx, future.result()
    finally:
        if pending:
            client.cancel(list(pending))


def run_job(job: Job, seed: int, deals: int, progress: bool = False) -> RunResult:
    """Run every chunk of ``deals`` deals of ``job`` and merge them (sum, or rows in chunk order).

    Chunks already in the store (same run, seed, index and size) are read, not computed; finished
    chunks are written to the store every :data:`STORE_SECONDS` and when the run ends, stops or fails.
    ``progress`` shows a bar on stderr."""
    execution = _EXECUTION.get()
    keyed = job.run is not None
    store = execution.open_store() if keyed else None
    sizes = chunk_sizes(deals, job.chunk_deals)
    merged = _Merged(job.merge)
    if store is not None:
        for k, value in store.get(job.run, seed, [(k, int(s)) for k, s in enumerate(sizes)]).items():
            merged.add(k, value)
    stored = int(sizes[sorted(merged.chunks)].sum()) if merged.chunks else 0
    missing = [k for k in range(len(sizes)) if k not in merged.chunks]
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=deals, initial=stored, unit=" " + job.unit, unit_scale=True, file=sys.stderr, leave=False)
    done = stored
    if execution.started is not None:
        execution.started(job.unit, deals)
    if execution.progress is not None:  # the total at once, not after the first batch (which may be all of it)
        execution.progress(done, deals)
    try:
        with _Interrupt(execution.stop) as interrupt:
            batches = (
                _cluster_batches(job, seed, sizes, missing, interrupt.asked, execution)
                if keyed and execution.distributed
                else _local_batches(job, seed, sizes, missing, interrupt.asked)
            )
            pending: list[tuple[int, int, np.ndarray]] = []
            flushed = time.perf_counter()
            try:
                for idx, part in batches:
                    for k, value in zip(idx.tolist(), part):
                        merged.add(k, value)
                        pending.append((k, int(sizes[k]), value))
                    if store is not None and time.perf_counter() - flushed >= STORE_SECONDS:
                        store.put(job.run, seed, pending)
                        pending, flushed = [], time.perf_counter()
                    if bar is not None:
                        bar.update(int(sizes[idx].sum()))
                    if execution.progress is not None:
                        done += int(sizes[idx].sum())
                        execution.progress(done, deals)
            finally:  # also on a second Ctrl-C or an error: what finished is kept
                if store is not None:
                    store.put(job.run, seed, pending)
    finally:
        if bar is not None:
            bar.close()
    kept = merged.usable()
    tally = merged.result() if kept else _empty(job, seed)
    return RunResult(
        tally=tally,
        deals=int(sizes[kept].sum()) if kept else 0,
        requested=deals,
        seconds=time.perf_counter() - start,
        stored=stored,
    )


class _Merged:
    """Chunks merged as they arrive: a running int64 sum (memory does not grow with the run), or the
    chunks' rows kept for laying end to end in chunk order."""

    def __init__(self, merge: str):
        self.merge, self.chunks = merge, set()
        self.total: np.ndarray | None = None
        self.rows: dict[int, np.ndarray] = {}

    def add(self, chunk: int, value: np.ndarray) -> None:
        self.chunks.add(chunk)
        if self.merge == "sum":
            self.total = value.astype(np.int64) if self.total is None else self.total + value
        else:
            self.rows[chunk] = value

    def usable(self) -> list[int]:
        """The chunks the result holds: all of them for tallies; for records, which stand for games
        (or hands) 0, 1, ..., the unbroken run of chunks from 0 (an interrupt can leave gaps)."""
        kept = sorted(self.chunks)
        if self.merge == "rows":
            kept = kept[: next((i for i, k in enumerate(kept) if k != i), len(kept))]
        return kept

    def result(self) -> np.ndarray:
        if self.merge == "sum":
            return self.total
        return np.concatenate([self.rows[k] for k in self.usable()])


def _empty(job: Job, seed: int) -> np.ndarray:
    """What no finished chunk merges to: the shape an empty batch gives."""
    empty = np.zeros(0, dtype=np.int64)
    out = job.task(chunk_states(seed, []), empty, empty)
    return out.sum(axis=0) if job.merge == "sum" else out


def run_chunks(
    batch: BatchFn, seed: int, deals: int, progress: bool = False, chunk_deals: int = CHUNK_DEALS, unit: str = "deals"
) -> RunResult:
    """Run ``batch`` (a per-chunk tally function, see :class:`Job`) over every chunk here, unstored,
    and return the summed tallies."""
    return run_job(Job(batch, "sum", None, chunk_deals, unit), seed, deals, progress)


def rows_of(fill, width: int, states: np.ndarray, sizes: np.ndarray, chunks: np.ndarray) -> np.ndarray:
    """int64[sum(sizes), width]: the rows ``fill(states, sizes, chunks, offsets, out)`` writes for a
    batch of chunks, chunk i at rows ``offsets[i]:offsets[i] + sizes[i]`` of ``out``."""
    out = np.zeros((int(sizes.sum()), width), dtype=np.int64)
    if len(sizes):
        fill(states, sizes.astype(np.int64), chunks.astype(np.int64), chunk_offsets(sizes), out)
    return out
