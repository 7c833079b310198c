"""Seeded fuzzing of the command line (tests/fuzzing.py): mutated rules files, ``--set`` values, event
expressions and hand strings. Each run must end in a result or in one line with exit status 2 within the
time bound, and no NaN may be shown as a result. ``pytest --fuzz-long tests/test_fuzz.py`` runs deep."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from fuzzing import run_cases, table  # noqa: E402


def test_every_fuzzed_run_ends_in_a_result_or_one_line(request):
    n = 2000 if request.config.getoption("--fuzz-long") else 120
    results = run_cases(seed=2026, n=n, limit=60.0)
    bad = [
        f"{r.outcome}: {r.case.kind}: {r.case.argv[:8]}: {r.detail}"
        for r in results
        if r.outcome not in ("ran", "refused")
    ]
    assert not bad, table(results) + "\n" + "\n".join(bad)
    outcomes = {r.outcome for r in results}
    assert outcomes == {"ran", "refused"}, "the batch should hold both runs that work and bad input"
