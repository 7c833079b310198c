"""House-rule verdicts under strong play: the questions of ``pinochle compare`` whose answer could depend
on how well the cards are played, asked again with the sampling player at every seat.

Deal i is :func:`simcore.state.new_hand` (seed, hand=i) under rules A and under rules B (the same cards
where the deck is the same), each played by the heuristic at every seat and by the sampling player at
every seat (:class:`simcore.state.sampler.SamplingPlayer`: playouts, then sampled double dummy in the last tricks, the
heuristic's bids, pass and meld). Per question, for its headline measure (``bidding side makes``, a
share of hands), B − A under each play is a paired mean over deals with a normal 95% interval, and so is
the difference of the two differences (strong − heuristic): a verdict depends on play when that
interval excludes 0, or when the practical-size word of :func:`simcore.answers.compare.size_verdict`
changes. Run as ``python -m analyses.strong_house_rules [DEALS] [--workers W]``; it prints a Markdown
table (docs/policies.md keeps the measured one, under "House-rule verdicts under strong play").
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analyses import fmt
from analyses.strong_lines import DATA
from analyses.workers import chunks, run_jobs
from simcore.answers.compare import HAND_MEASURES, practical_threshold, size_verdict
from simcore.answers.questions import QUESTIONS, Question
from simcore.answers.strong import record_row
from simcore.kernels import hand_record as h
from simcore.run.stats import values_interval
from simcore.state import new_hand
from simcore.state.players import kernel_policy
from simcore.state.sampler import SamplingPlayer
from simcore.variants import Variant, load_variant

#: The questions whose verdict could depend on play; the last-trick bonus is not a named question of
#: ``compare``, so it is stated here.
ASKED: dict[str, Question] = {
    "pass-3-vs-4": QUESTIONS["pass-3-vs-4"],
    "must-head": QUESTIONS["must-head"],
    "must-beat-partner": QUESTIONS["must-beat-partner"],
    "last-trick-bonus": Question(
        "Last trick worth 1 point (A) or nothing (B), four-hand-150",
        "four-hand-150",
        (),
        ("tricks.last_trick=0",),
        mode="hands",
        headline="bidding side makes",
    ),
}
DEALS = 1_000
SEED = 1
#: Where runs keep finished jobs.
PARTIAL = DATA / ".partial"
#: Columns of :func:`verdict_table`.
COLUMNS = ("question", "measure", "deals", "play", "a", "b", "diff", "diff_lo", "diff_hi", "size")


def play_records(variant: Variant, seed: int, deals: range, player: SamplingPlayer) -> np.ndarray:
    """int64[len(deals), 2, N_FIELDS]: each deal played by the heuristic (0) and the sampling player (1)
    at every seat."""
    heuristic = kernel_policy("heuristic")
    out = np.zeros((len(deals), 2, h.N_FIELDS), dtype=np.int64)
    for k, i in enumerate(deals):
        for j, policy in enumerate((heuristic, player)):
            state = new_hand(variant, seed, hand=i)
            while not state.is_terminal():
                state.apply(policy(state))
            out[k, j] = record_row(state)
    return out


def partial_dir(name: str, side: str, variant: Variant, seed: int, deals: int, player: SamplingPlayer) -> Path:
    """Where question ``name``'s side ``side`` ("a" or "b") keeps its finished jobs until the table is
    printed, so that a stopped run resumes: named for everything its plays depend on but the code."""
    play = player.settings_name(variant)
    return PARTIAL / f"house-{name}-{side}-{variant.content_hash[:12]}-seed{seed}-{deals}-{play}"


def measure(name: str, deals: int = DEALS, seed: int = SEED, workers: int = 1) -> dict[str, np.ndarray]:
    """{"a": records, "b": records} of question ``name``, each int64[deals, 2, N_FIELDS] (see
    :func:`play_records`)."""
    q = ASKED[name]
    player = SamplingPlayer()
    out = {}
    for side, overrides in (("a", q.a), ("b", q.b)):
        v = load_variant(q.variant, overrides)
        keep = partial_dir(name, side, v, seed, deals, player)
        parts = run_jobs([(play_records, (v, seed, r, player)) for r in chunks(0, deals, 25)], workers, keep=keep)
        out[side] = np.concatenate(parts)
    return out


def verdict_table(name: str, records: dict[str, np.ndarray]) -> pd.DataFrame:
    """Per play (heuristic, strong, and strong − heuristic): A's and B's mean of the headline measure,
    B − A with its paired 95% interval, and its practical size."""
    q = ASKED[name]
    value = HAND_MEASURES[q.headline]
    threshold, _ = practical_threshold(q.headline, load_variant(q.variant))
    per = {j: (value(records["a"][:, j]), value(records["b"][:, j])) for j in (0, 1)}
    rows = []
    for play, a, b in (
        ("heuristic", *per[0]),
        ("strong", *per[1]),
        ("strong − heuristic", per[1][0] - per[0][0], per[1][1] - per[0][1]),
    ):
        d = values_interval(b - a)
        rows.append(
            {
                "question": name,
                "measure": q.headline,
                "deals": len(a),
                "play": play,
                "a": float(np.mean(a)),
                "b": float(np.mean(b)),
                "diff": d.estimate,
                "diff_lo": d.lo,
                "diff_hi": d.hi,
                "size": "" if play.startswith("strong −") else size_verdict(d.estimate, d.lo, d.hi, threshold),
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def markdown(tables: list[pd.DataFrame]) -> str:
    rows = [
        {
            "question": r.question,
            "play": r.play,
            "A": fmt.pct(r.a) if not r.play.startswith("strong −") else fmt.signed(100 * r.a, digits=2) + " pp",
            "B": fmt.pct(r.b) if not r.play.startswith("strong −") else fmt.signed(100 * r.b, digits=2) + " pp",
            "B − A": fmt.pp(r.diff, r.diff_lo, r.diff_hi),
            "size": r.size,
        }
        for t in tables
        for r in t.itertuples(index=False)
    ]
    return fmt.markdown_table(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analyses.strong_house_rules", description=__doc__.split("\n\n")[0])
    p.add_argument("deals", nargs="?", type=int, default=DEALS)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--only", choices=sorted(ASKED), action="append", help="ask only these questions")
    args = p.parse_args(argv)
    tables = []
    for name in args.only or ASKED:
        start = time.perf_counter()
        tables.append(verdict_table(name, measure(name, args.deals, SEED, args.workers)))
        print(f"{name}: {args.deals:,} deals in {time.perf_counter() - start:.0f} s", flush=True)
    print(markdown(tables))
    for name in args.only or ASKED:
        q = ASKED[name]
        for side, overrides in (("a", q.a), ("b", q.b)):
            v = load_variant(q.variant, overrides)
            shutil.rmtree(partial_dir(name, side, v, SEED, args.deals, SamplingPlayer()), ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
