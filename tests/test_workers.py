"""Worker jobs of the solving analyses (analyses.workers): results in job order, and a kept run resumed."""

from __future__ import annotations

import pytest

from analyses.workers import chunks, run_jobs

CALLS: list[int] = []


def square(x: int) -> int:
    CALLS.append(x)
    return x * x


def refuse(x: int) -> int:
    raise AssertionError(f"job {x} ran again, though its result was kept")


def test_chunks_cover_the_range_in_order():
    assert chunks(3, 7, 3) == [range(3, 6), range(6, 9), range(9, 10)]
    assert chunks(0, 0, 4) == []


def test_results_come_in_job_order_whatever_the_workers():
    jobs = [(square, (x,)) for x in range(6)]
    assert run_jobs(jobs, 1) == run_jobs(jobs, 2) == [0, 1, 4, 9, 16, 25]


def test_a_kept_run_reads_finished_jobs_and_runs_only_the_rest(tmp_path):
    keep = tmp_path / "run"
    assert run_jobs([(square, (x,)) for x in range(4)], keep=keep) == [0, 1, 4, 9]
    assert sorted(p.name for p in keep.iterdir()) == ["0.pkl", "1.pkl", "2.pkl", "3.pkl"]
    # every result kept: nothing runs
    assert run_jobs([(refuse, (x,)) for x in range(4)], keep=keep) == [0, 1, 4, 9]
    # a run stopped after jobs 0, 1 and 3: only job 2 runs
    (keep / "2.pkl").unlink()
    CALLS.clear()
    assert run_jobs([(square, (x,)) for x in range(4)], keep=keep) == [0, 1, 4, 9]
    assert CALLS == [2]


def test_a_failing_job_keeps_what_finished_before_it(tmp_path):
    keep = tmp_path / "run"
    with pytest.raises(AssertionError):
        run_jobs([(square, (0,)), (square, (1,)), (refuse, (2,))], keep=keep)
    assert sorted(p.name for p in keep.iterdir()) == ["0.pkl", "1.pkl"]
