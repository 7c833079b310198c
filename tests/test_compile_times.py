"""The first-run profiler counts compiles per kernel, each without the compiles nested in it."""

from __future__ import annotations

import os
import subprocess
import sys

from numba import njit
from numba.core import event

from simcore.compile_times import CompileTimes


def test_compile_times_counts_each_kernel_and_its_copies():
    @njit
    def inner(x):
        return x + 1

    @njit
    def outer(x):
        return inner(x) * 2

    times = CompileTimes()
    with event.install_listener("numba:compile", times):
        assert outer(1) == 4 and outer(1.5) == 5.0
    names = {n.rsplit(".", 1)[-1]: n for n in times.seconds}
    assert times.copies[names["outer"]] == 2 and times.copies[names["inner"]] == 2
    assert all(s >= 0 for s in times.seconds.values()) and times.total > 0
    assert len(times.lines(most=1)) == 1


def test_compile_times_wraps_the_command_line(tmp_path):
    hand = "AS AS 10S KS QS QS JS JD JD KH QH 9S"
    out = subprocess.run(
        [sys.executable, "-m", "simcore.compile_times", "meld", hand],
        capture_output=True,
        text=True,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
    )  # a cold cache
    assert out.returncode == 0 and "four-hand-150" in out.stdout
    assert "of which compiling" in out.stderr and "simcore.kernels.meld" in out.stderr


def test_cold_times_a_first_answer_on_an_empty_cache(capsys):
    from simcore.compile_times import cold, cold_run, cold_table

    run = cold_run("meld")  # its own empty cache, whatever this process's is
    assert run.status == 0 and run.wall > 0 and run.cpu > 0
    assert 0 < run.compiling_cpu <= run.cpu and 0 < run.compiling < run.wall
    assert any("simcore.kernels.meld" in line for line in run.slowest)
    rows = cold_table([run])
    assert rows[0].count("|") == rows[2].count("|") == 6 and rows[2].startswith("| `meld` |")
    assert cold(["nonsense"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
