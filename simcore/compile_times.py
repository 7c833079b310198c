"""Where a command's time goes: import, numba compiling per kernel, and the rest; and how long a new
user waits for each first answer.

    python -m simcore.compile_times report --out /tmp/r      # any `pinochle` arguments
    python -m simcore.compile_times --cold                   # the first answers, each on an empty cache
    python -m simcore.compile_times --cold advise serve      # some of them

Runs the command as ``pinochle`` would and then prints, on stderr, the import time, the command's wall
time, the part of it spent compiling, and the kernels that took longest to compile. Each kernel's time
is its own, without the kernels it called that compiled inside it (numba's ``numba:compile`` events
nest), and ``×N`` counts its compiled copies (one per set of argument types). Point
``NUMBA_CACHE_DIR`` at an empty directory to see a first run; with a warm cache nothing compiles.

``--cold`` runs the commands of :data:`FIRST_ANSWERS` one after another, each in a process of its own
with an empty numba cache and an empty results store (a fresh install), and prints a Markdown table:
the wall time to the first answer, the process's CPU time (user + sys: on a shared machine the fair
figure, where the wall time counts the other work too), and the part of the wall time spent compiling.
``serve``'s first answer is its answers' warm-up done (``/api/status`` says ``ready``, the state in which
the pages stop saying "Warming up" and the answers' jobs start); ``serve-solver``'s (asked for by name,
not run by default) is the warm-up's second stage done too, the double-dummy solver's. The server is
then stopped with Ctrl-C (SIGINT), and its CPU time counts to its exit.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from numba.core import event


class CompileTimes(event.Listener):
    """Seconds of compiling per kernel (``module.qualname``): wall time and the compiling thread's CPU
    time, each without the compiles nested in it, and the CPU time with them (what compiling the kernel
    cost when nothing it calls was compiled yet)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self.cpu_with_callees: dict[str, float] = defaultdict(float)
        self.copies: Counter[str] = Counter()
        self._open: list[list] = []  # [name, wall start, CPU start, nested wall, nested CPU]

    def on_start(self, ev: event.Event) -> None:
        fn = ev.data["dispatcher"].py_func
        self._open.append([f"{fn.__module__}.{fn.__qualname__}", time.perf_counter(), time.thread_time(), 0.0, 0.0])

    def on_end(self, ev: event.Event) -> None:
        name, start, cpu_start, nested, nested_cpu = self._open.pop()
        took, took_cpu = time.perf_counter() - start, time.thread_time() - cpu_start
        self.seconds[name] += took - nested
        self.cpu[name] += took_cpu - nested_cpu
        self.cpu_with_callees[name] += took_cpu
        self.copies[name] += 1
        if self._open:
            self._open[-1][3] += took
            self._open[-1][4] += took_cpu

    @property
    def total(self) -> float:
        """Wall seconds of compiling."""
        return sum(self.seconds.values())

    @property
    def total_cpu(self) -> float:
        """CPU seconds of compiling (the compiling threads')."""
        return sum(self.cpu.values())

    def lines(self, most: int = 25) -> list[str]:
        """The ``most`` slowest kernels, slowest first: wall seconds, CPU seconds (its own; with its
        callees' compiles), copies, name."""
        ranked = sorted(self.seconds.items(), key=lambda kv: -kv[1])[:most]
        return [
            f"{s:7.1f} s  CPU {self.cpu[name]:5.1f} s ({self.cpu_with_callees[name]:5.1f} s with callees)  "
            f"×{self.copies[name]:<3} {name}"
            for name, s in ranked
        ]


#: The first answers a new user asks for, by name: the README's commands (``serve`` on any free port).
FIRST_ANSWERS: dict[str, tuple[str, ...]] = {
    "meld": ("meld", "AS AS 10S KS QS QS JS JD JD KH QH 9S"),
    "odds": ("odds", "double-pinochle", "five-nines", "meld>=30", "--hands", "4000000"),
    "advise": ("advise", "AS 10S KS QS JS AH KH QH AD JD 9C 9C", "--auction", "20 21", "--hands", "2000"),
    "bid-odds": ("bid-odds", "--variant", "partnership-auction", "--bid", "250", "--meld", "60", "--hands", "100000"),
    "serve": ("serve", "--port", "0"),
}
#: First answers asked for by name only: the server until its whole warm-up is done, the solver's too.
MORE_ANSWERS: dict[str, tuple[str, ...]] = {"serve-solver": ("serve", "--port", "0")}
#: What a profiled run prints last: ``import I s; command C s, of which compiling K s (CPU P s)``.
SUMMARY = re.compile(r"import ([\d.]+) s; command ([\d.]+) s, of which compiling ([\d.]+) s \(CPU ([\d.]+) s\)")
SERVING = re.compile(r"serving on (http://\S+?)/ ")


@dataclass(frozen=True)
class ColdRun:
    """One first answer on an empty cache: seconds of wall time to the answer, of the process's CPU time
    (user + sys) and of compiling (wall, and the compiling threads' CPU); its exit status, and the
    kernels slowest to compile (lines as :meth:`CompileTimes.lines`)."""

    name: str
    wall: float
    cpu: float
    compiling: float
    compiling_cpu: float
    status: int
    slowest: tuple[str, ...]


def _served(run: subprocess.Popen, timeout: float, solver: bool = False) -> None:
    """Waits until the server ``run`` has warmed up (``/api/status``: the answers' kernels, and with
    ``solver`` the solver's too), or has ended or timed out."""
    line = run.stdout.readline()
    found = SERVING.search(line)
    if not found:
        return
    deadline = time.monotonic() + timeout
    while run.poll() is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(found.group(1) + "/api/status", timeout=5) as answer:
                warmup = json.load(answer)["warmup"]
                if all(w["state"] in ("ready", "failed") for w in (warmup, warmup["solver"])[: 1 + solver]):
                    return
        except OSError:
            pass
        time.sleep(0.2)


def cold_run(name: str, timeout: float = 1200.0) -> ColdRun:
    """Runs ``pinochle`` with :data:`FIRST_ANSWERS` (or :data:`MORE_ANSWERS`) ``[name]`` as a fresh install
    would (empty numba cache, empty results store), profiled, and times it to its first answer."""
    with tempfile.TemporaryDirectory(prefix="pinochle-cold-") as tmp:
        env = {**os.environ, "NUMBA_CACHE_DIR": tmp, "PINOCHLE_STORE": os.path.join(tmp, "results.duckdb")}
        command = {**FIRST_ANSWERS, **MORE_ANSWERS}[name]
        args = [sys.executable, "-m", "simcore.compile_times", *command]
        served = command[0] == "serve"
        with open(os.path.join(tmp, "stderr"), "w+") as err_file:
            start = time.perf_counter()
            run = subprocess.Popen(
                args, env=env, stdout=subprocess.PIPE if served else subprocess.DEVNULL, stderr=err_file, text=True
            )
            if served:
                _served(run, timeout, solver=name == "serve-solver")
                wall = time.perf_counter() - start
                run.send_signal(signal.SIGINT)
            _, status, usage = os.wait4(run.pid, 0)
            if not served:
                wall = time.perf_counter() - start
            run.returncode = os.waitstatus_to_exitcode(status)
            if served:
                run.stdout.close()
            err_file.seek(0)
            err = err_file.read()
    found = SUMMARY.search(err)
    slowest = tuple(line.strip() for line in err[found.end() :].splitlines() if line.strip()) if found else ()
    return ColdRun(
        name,
        wall,
        usage.ru_utime + usage.ru_stime,
        float(found.group(3)) if found else float("nan"),
        float(found.group(4)) if found else float("nan"),
        run.returncode,
        slowest,
    )


def cold_table(runs: Sequence[ColdRun]) -> list[str]:
    """The Markdown table of ``runs``: one row a command."""
    rows = [
        "| first answer | wall | CPU (user + sys) | compiling: wall, CPU "
        "| slowest to compile: wall, CPU (with callees) |",
        "|---|---|---|---|---|",
    ]
    for r in runs:
        failed = "" if r.status == 0 else f" (exit {r.status})"
        slowest = " ".join(r.slowest[0].split()) if r.slowest else "—"
        rows.append(
            f"| `{r.name}`{failed} | {r.wall:.1f} s | {r.cpu:.1f} s | {r.compiling:.1f} s, {r.compiling_cpu:.1f} s | "
            f"{slowest} |"
        )
    return rows


def cold(names: Sequence[str]) -> int:
    """``--cold [NAME ...]``: each first answer (all by default) on an empty cache, one after another."""
    unknown = [n for n in names if n not in FIRST_ANSWERS and n not in MORE_ANSWERS]
    if unknown:
        print(
            f"compile_times --cold: {unknown[0]!r} is not a first answer; give "
            f"{', '.join([*FIRST_ANSWERS, *MORE_ANSWERS])}",
            file=sys.stderr,
        )
        return 2
    runs = []
    for name in names or list(FIRST_ANSWERS):
        runs.append(cold_run(name))
        print(f"{name}: {runs[-1].wall:.1f} s wall, {runs[-1].cpu:.1f} s CPU", file=sys.stderr, flush=True)
        for line in runs[-1].slowest[:8]:
            print("    " + line, file=sys.stderr)
    print("\n".join(cold_table(runs)))
    return 0 if all(r.status == 0 for r in runs) else 1


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--cold"]:
        return cold(argv[1:])
    start = time.perf_counter()
    times = CompileTimes()
    event.register("numba:compile", times)
    from simcore.cli import main as pinochle

    imported = time.perf_counter()
    status = pinochle(argv)
    done = time.perf_counter()
    print(
        f"import {imported - start:.1f} s; command {done - imported:.1f} s, of which compiling {times.total:.1f} s "
        f"(CPU {times.total_cpu:.1f} s)",
        file=sys.stderr,
    )
    for line in times.lines():
        print("  " + line, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
