"""Where a command's time goes: import, numba compiling per kernel, and the rest.

    python -m simcore.compile_times report --out /tmp/r      # any `pinochle` arguments

Runs the command as ``pinochle`` would and then prints, on stderr, the import time, the command's wall
time, the part of it spent compiling, and the kernels that took longest to compile. Each kernel's time
is its own, without the kernels it called that compiled inside it (numba's ``numba:compile`` events
nest), and ``×N`` counts its compiled copies (one per set of argument types). Point
``NUMBA_CACHE_DIR`` at an empty directory to see a first run; with a warm cache nothing compiles.
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence

from numba.core import event


class CompileTimes(event.Listener):
    """Seconds of compiling per kernel (``module.qualname``), each without the compiles nested in it."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.copies: Counter[str] = Counter()
        self._open: list[list] = []  # [name, start, seconds of nested compiles]

    def on_start(self, ev: event.Event) -> None:
        fn = ev.data["dispatcher"].py_func
        self._open.append([f"{fn.__module__}.{fn.__qualname__}", time.perf_counter(), 0.0])

    def on_end(self, ev: event.Event) -> None:
        name, start, nested = self._open.pop()
        took = time.perf_counter() - start
        self.seconds[name] += took - nested
        self.copies[name] += 1
        if self._open:
            self._open[-1][2] += took

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    def lines(self, most: int = 25) -> list[str]:
        """The ``most`` slowest kernels, slowest first: seconds, copies, name."""
        ranked = sorted(self.seconds.items(), key=lambda kv: -kv[1])[:most]
        return [f"{s:7.1f} s  ×{self.copies[name]:<3} {name}" for name, s in ranked]


def main(argv: Sequence[str] | None = None) -> int:
    start = time.perf_counter()
    times = CompileTimes()
    event.register("numba:compile", times)
    from simcore.cli import main as pinochle

    imported = time.perf_counter()
    status = pinochle(argv)
    done = time.perf_counter()
    print(
        f"import {imported - start:.1f} s; command {done - imported:.1f} s, of which compiling {times.total:.1f} s",
        file=sys.stderr,
    )
    for line in times.lines():
        print("  " + line, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
