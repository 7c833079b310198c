"""Background jobs for answers that take more than a moment: a bounded queue of worker threads, each
job with an id the page polls for its progress, and a cancel that stops the run after the chunks in
hand (:class:`simcore.run.runner.Execution`'s ``stop``).

Limits: at most ``workers`` jobs run at once and ``waiting`` more wait; a job past ``seconds`` is
stopped and fails with a message saying so; finished jobs are kept (newest ``kept``) for their pages
to collect.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

log = logging.getLogger("simcore.web")


class Busy(Exception):
    """The queue is full; one-line message."""


class Cancelled(Exception):
    """A job's run was stopped (cancelled, or past the time cap) before it finished."""


@dataclass
class Job:
    """One background answer. ``status``: queued, running, done, failed or cancelled; ``done`` and
    ``total``: deals (or hands) run and asked for, as the runner reports them, summed over the runs of
    an answer that makes several (advise's hands, then its partner's-meld deals); ``result``: the
    answer's JSON once done; ``error``: a one-line message once failed or cancelled."""

    id: str
    kind: str
    status: str = "queued"
    done: int = 0
    total: int = 0
    result: dict | None = None
    error: str | None = None
    error_field: str | None = None  # the input field a failure belongs to, where the error names one
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    timed_out: bool = False
    _before: int = 0  # deals of the answer's runs that finished
    _run: tuple[int, int] = (0, 0)  # (done, total) of the run in hand

    def progress(self, done: int, total: int) -> None:
        if self._run[1] and self._run[0] >= self._run[1]:  # the last run finished: this report starts the next
            self._before += self._run[1]
        self._run = (done, total)
        self.done, self.total = self._before + done, self._before + total

    def to_json(self) -> dict:
        now = self.finished or time.monotonic()
        return {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "fraction": self.done / self.total if self.total else None,
            "seconds": round(now - (self.started or now), 2),
            "result": self.result,
            "error": self.error,
            "field": self.error_field,
        }


class Jobs:
    """The server's job queue (see the module). ``user_errors``: exception types whose message is shown
    to the user as it is (the package's bad-input errors, hands, rules, events, positions, are all
    ValueErrors); any other exception is logged with its traceback and reported in one line.
    ``prefix`` starts each job id, keeping apart the ids of several queues."""

    def __init__(
        self,
        workers: int = 2,
        waiting: int = 8,
        seconds: float = 60.0,
        kept: int = 200,
        user_errors: tuple[type[Exception], ...] = (ValueError,),
        prefix: str = "",
    ):
        self.workers, self.waiting, self.seconds, self.kept = workers, waiting, seconds, kept
        self.prefix = prefix
        self.user_errors = user_errors
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="pinochle-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._count = itertools.count()
        #: Cleared while the kernels compile at start: a job waits (queued) rather than spending its time
        #: cap on numba's first compile.
        self.ready = threading.Event()
        self.ready.set()

    def active(self) -> int:
        """Jobs queued or running."""
        with self._lock:
            return sum(1 for j in self._jobs.values() if j.status in ("queued", "running"))

    def submit(self, kind: str, work: Callable[[Job], dict]) -> Job:
        """Queue ``work(job) -> JSON dict``; raises :class:`Busy` when ``workers + waiting`` jobs are
        already queued or running."""
        with self._lock:
            active = sum(1 for j in self._jobs.values() if j.status in ("queued", "running"))
            if active >= self.workers + self.waiting:
                raise Busy(
                    f"the server is busy ({active} answers queued or running, at most "
                    f"{self.workers + self.waiting}); try again in a moment"
                )
            job = Job(f"{self.prefix}{next(self._count)}-{secrets.token_hex(4)}", kind)
            self._jobs[job.id] = job
            while len(self._jobs) > self.kept:
                oldest = next(iter(self._jobs.values()))
                if oldest.status in ("queued", "running"):
                    break
                self._jobs.popitem(last=False)
        self._pool.submit(self._run, job, work)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None and job.status in ("queued", "running"):
            job.stop.set()
            if job.status == "queued":
                job.status, job.error, job.finished = "cancelled", "cancelled", time.monotonic()
        return job

    def _run(self, job: Job, work: Callable[[Job], dict]) -> None:
        from simcore.run.runner import Execution, Stopped, executing

        self.ready.wait()
        if job.stop.is_set():
            return
        job.status, job.started = "running", time.monotonic()

        def time_cap() -> None:
            job.timed_out = True
            job.stop.set()

        timer = threading.Timer(self.seconds, time_cap)
        timer.daemon = True
        timer.start()
        try:
            with executing(Execution(stop=job.stop, progress=job.progress)):
                result = work(job)
            if job.stop.is_set():
                raise Cancelled()
            job.result, job.status = result, "done"
        except (Cancelled, Stopped):  # Stopped: work that keeps no partial answer, stopped in the middle
            job.status = "failed" if job.timed_out else "cancelled"
            job.error = (
                f"stopped at the time cap of {self.seconds:g} s; ask for fewer hands" if job.timed_out else "cancelled"
            )
        except self.user_errors as exc:
            job.status, job.error = "failed", str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            job.error_field = getattr(exc, "field", None)
        except Exception as exc:  # a defect: the page gets one line, the log the traceback
            log.exception("job %s (%s) failed", job.id, job.kind)
            job.status, job.error = "failed", f"internal error ({type(exc).__name__}); see the server's log"
        finally:
            timer.cancel()
            job.finished = time.monotonic()

    def shutdown(self) -> None:
        with self._lock:
            for job in self._jobs.values():
                job.stop.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
