"""The sampling player's strength against its time, by the number of deals it samples a decision, the
tricks it weighs by playouts and the tricks it solves.

For each setting, every ``samples`` in the list with every ``rollout_from`` in its list (0: the
heuristic's cards before the solved tricks), every ``read_auction`` in its list (1: deals that fit the
auction, :class:`simcore.state.sampler.SamplingPlayer`), every ``solve_from`` in its list and every
``read_duties`` (1: deals that respect the duties of play the other seats have shown), deals
0 .. DEALS - 1 of seed 1 are played as ``pinochle duel --policy sampling`` plays them
(:mod:`simcore.strong.duel`: the sampling player at both seats of one partnership, the heuristic at the
other, then the partnerships swapped; the baseline the heuristic at every seat), with the last
``solve_from`` tricks solved. Per setting: the points a deal it gains over the heuristic in the same
seats (mean over deals, normal 95% interval), the same paired against the last setting (the most
samples, the most playouts, the most tricks solved) on the same deals, and its cost: CPU milliseconds a
solved decision (a choice among several cards in its solved tricks,
:meth:`simcore.state.sampler.SamplingPlayer.mean_values`), a playout decision
(:meth:`~simcore.state.sampler.SamplingPlayer.rollout_values`) and CPU seconds a deal. Points are on the
variant's scale. Run as ``python -m analyses.sample_curve VARIANT [DEALS] [--samples 5 10 20 40]
[--rollout-from 0] [--read-auction 0 1] [--solve-from 6 8] [--read-duties 0 1] [--workers W]``; finished
jobs are kept until the table is printed (``analyses/strong_records/.partial``), so a stopped run resumes.
"""

from __future__ import annotations

import argparse
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from analyses import fmt
from analyses.strong_lines import DATA
from analyses.workers import chunks, run_jobs
from simcore.run.stats import values_interval
from simcore.state.sampler import EVERY_TRICK, SamplingPlayer, TimedSamplingPlayer, playouts_text
from simcore.strong.duel import deal_points, play, seat_sets
from simcore.variants import Variant, load_variant

SEED = 1


@dataclass(frozen=True)
class SettingPlays:
    """One job's deals under one setting: per deal the sampling side's and the heuristic's points, and
    the job's solved and playout decisions, their CPU seconds and the job's CPU seconds."""

    mine: tuple[float, ...]
    theirs: tuple[float, ...]
    decisions: int
    decision_cpu: float
    cpu: float
    rollouts: int = 0
    rollout_cpu: float = 0.0


class Setting(NamedTuple):
    """One setting of the sampling player the curve plays (see the module)."""

    samples: int
    rollout_from: int
    read_auction: bool
    solve_from: int
    read_duties: bool = False
    search_budget: int = 0

    def player(self, kind: type[SamplingPlayer] = SamplingPlayer, **more) -> SamplingPlayer:
        """The sampling player of this setting (``kind``: :class:`TimedSamplingPlayer` to time it)."""
        return kind(
            self.samples,
            self.solve_from,
            rollout_from=self.rollout_from,
            read_auction=self.read_auction,
            read_duties=self.read_duties,
            search_budget=self.search_budget,
            **more,
        )


def play_setting(variant: Variant, deals: range, setting: Setting) -> SettingPlays:
    """Deals ``deals`` of :data:`SEED` played as the duel plays them, by the sampler of ``setting``."""
    player = setting.player(TimedSamplingPlayer, clock=time.process_time)
    sets = seat_sets(variant)
    start = time.process_time()
    mine, theirs = [], []
    for i in deals:
        base = play(variant, [], None, SEED, i)
        got = [play(variant, g, player, SEED, i, "sampling") for g in sets]
        a, b = deal_points(sets, base, got)
        mine.append(a)
        theirs.append(b)
    cpu = time.process_time() - start
    return SettingPlays(
        tuple(mine), tuple(theirs), player.decisions, player.seconds, cpu, player.rollouts, player.rollout_seconds
    )


def partial_dir(variant: Variant, deals: int, setting: Setting) -> Path:
    """Where a setting's finished jobs are kept until the table is printed."""
    name = setting.player().settings_name(variant)
    return DATA / ".partial" / f"curve-{variant.id}-{variant.content_hash[:12]}-{deals}-{name}"


def curve(variant: Variant, deals: int, settings: list[tuple], workers: int = 1) -> list[dict]:
    """One row per setting (:class:`Setting`, or a tuple of its fields) (see the module); the paired
    difference is against the last setting."""
    settings = [Setting(*s) for s in settings]
    per = {}
    for setting in settings:
        jobs = [(play_setting, (variant, r, setting)) for r in chunks(0, deals, 20)]
        parts = run_jobs(jobs, workers, keep=partial_dir(variant, deals, setting))
        per[setting] = (
            np.array([x for p in parts for x in p.mine]) - np.array([x for p in parts for x in p.theirs]),
            sum(p.decisions for p in parts),
            sum(p.decision_cpu for p in parts),
            sum(p.cpu for p in parts),
            sum(p.rollouts for p in parts),
            sum(p.rollout_cpu for p in parts),
        )
    top = per[settings[-1]][0]
    rows = []
    for setting in settings:
        gain, decisions, decision_cpu, cpu, rollouts, rollout_cpu = per[setting]
        g, d = values_interval(gain), values_interval(gain - top)
        rows.append(
            {
                **setting._asdict(),
                "deals": deals,
                "gain": g.estimate,
                "gain_lo": g.lo,
                "gain_hi": g.hi,
                "against_top": d.estimate,
                "against_top_lo": d.lo,
                "against_top_hi": d.hi,
                "decisions": decisions,
                "ms_per_decision": decision_cpu / max(decisions, 1) * 1e3,
                "rollouts": rollouts,
                "ms_per_rollout": rollout_cpu / max(rollouts, 1) * 1e3,
                "s_per_deal": cpu / deals,
            }
        )
    return rows


def _setting(r: dict, name_solved: bool = False) -> str:
    """A row's setting in words: '20' samples, '20, playouts from the first card', '20, fitting the
    auction', and with ``name_solved`` '20, the last 8 tricks solved'."""
    playouts = playouts_text(r["rollout_from"], r["solve_from"])
    words = [str(r["samples"])] + ([f"playouts {playouts}"] if playouts else [])
    words += ["fitting the auction"] if r.get("read_auction") else []
    words += ["reading the duties"] if r.get("read_duties") else []
    words += [search_text(r["search_budget"])] if playouts and r.get("search_budget") else []
    return ", ".join(words + ([f"the last {r['solve_from']} tricks solved"] if name_solved else []))


def search_text(budget: int) -> str:
    """How the cards before the solved tricks are searched, in words: a budget of 1 trick start finishes
    only the first round (the trick in progress, then the evaluation)."""
    if budget <= 1:
        return "searched to the trick's end, then evaluated"
    return f"searched within {budget:,} trick starts a deal"


def markdown(variant: Variant, rows: list[dict]) -> str:
    """The rows as a table; the tricks solved are named where the rows differ in them."""
    solved = len({r["solve_from"] for r in rows}) > 1
    top = _setting(rows[-1], solved)
    return fmt.markdown_table(
        [
            {
                "samples a decision": _setting(r, solved),
                "gain over the heuristic, points a deal": fmt.signed(r["gain"], r["gain_lo"], r["gain_hi"], digits=2),
                f"against {top}, paired": fmt.signed(
                    r["against_top"], r["against_top_lo"], r["against_top_hi"], digits=2
                )
                if r is not rows[-1]
                else "",
                "ms a solved decision (CPU)": f"{r['ms_per_decision']:.1f}",
                "ms a playout decision (CPU)": f"{r['ms_per_rollout']:.1f}" if r["rollouts"] else "",
                "s a deal, all plays (CPU)": f"{r['s_per_deal']:.2f}",
            }
            for r in rows
        ]
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analyses.sample_curve", description=__doc__.split("\n\n")[0])
    p.add_argument("variant")
    p.add_argument("deals", nargs="?", type=int, default=300)
    p.add_argument("--samples", type=int, nargs="+", default=[5, 10, 20, 40])
    p.add_argument("--rollout-from", type=int, nargs="+", default=[EVERY_TRICK])
    p.add_argument("--read-auction", type=int, nargs="+", choices=(0, 1), default=[1])
    p.add_argument("--read-duties", type=int, nargs="+", choices=(0, 1), default=[0])
    p.add_argument("--solve-from", type=int, nargs="+", default=[6])
    p.add_argument("--search-budget", type=int, nargs="+", default=[0])
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    v = load_variant(args.variant)
    settings = [
        Setting(s, r, bool(a), f, bool(d), b)
        for s in sorted(set(args.samples))
        for r in sorted(set(args.rollout_from))
        for a in sorted(set(args.read_auction))
        for f in sorted(set(args.solve_from))
        for d in sorted(set(args.read_duties))
        for b in sorted(set(args.search_budget))
    ]
    start = time.perf_counter()
    rows = curve(v, args.deals, settings, args.workers)
    seconds = time.perf_counter() - start
    solved = ", ".join(str(f) for f in sorted(set(args.solve_from)))
    print(f"{v.id}: {args.deals:,} deals of seed {SEED}, solve_from {solved}, {seconds:.0f} s")
    print(markdown(v, rows))
    for setting in settings:
        shutil.rmtree(partial_dir(v, args.deals, setting), ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
