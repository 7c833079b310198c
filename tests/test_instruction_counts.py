"""The instruction-count comparison's own logic: reading callgrind's total, instructions a unit, the
workload syntax, and the child workload itself (run without valgrind, which CI does not install)."""

import os
import subprocess
import sys

import pytest

from analyses.instruction_counts import CHILD, CountError, Workload, instructions_of, main, per_unit

CALLGRIND_TAIL = """==31551== Events    : Ir
==31551== Collected : 3909037074
==31551==
==31551== I   refs:      3,909,037,074
"""


def test_total_read_from_callgrind_summary():
    assert instructions_of(CALLGRIND_TAIL) == 3_909_037_074


def test_no_summary_is_a_one_line_error():
    with pytest.raises(CountError, match="no instruction total"):
        instructions_of("Segmentation fault\n")


def test_per_unit_is_the_difference_over_the_units():
    assert per_unit(1_000, 51_000, 100) == 500.0


@pytest.mark.parametrize("text", ["hands:partnership", "deal:partnership:10", "hands:partnership:0", "games:x:ten"])
def test_bad_workload_named_with_what_is_allowed(text):
    with pytest.raises(CountError, match="MODE:VARIANT:N"):
        Workload.parse(text)


@pytest.mark.parametrize("text", ["games:four-hand-150:300", "hands:partnership-auction:500:basic"])
def test_workload_round_trips(text):
    assert str(Workload.parse(text)) == text


def test_cli_bad_workload_exits_2(capsys):
    assert main(["--against", "HEAD", "--workload", "meld:four-hand-150"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("instruction_counts: --workload")


def test_child_workload_runs(tmp_path):
    """The deal + meld workload (the cheapest to compile; hands and games call the same long-standing
    entry points, ``simulate`` and ``play_games``, that their own tests cover)."""
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    done = subprocess.run(
        [sys.executable, str(child), "meld", "four-hand-150", "16", "heuristic"],
        env={**os.environ, "NUMBA_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
