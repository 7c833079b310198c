"""Fit the solver's learned evaluation of a position (:mod:`simcore.solver.estimate`) on exact solves and
write ``simcore/solver/estimate_weights.py``.

    python -m analyses.fit_estimate data/estimate [--systems ...] [--seeds 1:801] [--tricks-left 6 7 8 9]
        [--limit 3000000] [--workers 2] [--holdout 0.2] [--write]

The data: for each system and seed, the first hand played by the heuristic at every seat
(:func:`simcore.solver.position.seeded_position`), its trick starts with each of ``--tricks-left``
tricks left, every hand known, each solved exactly (the bidding side's points from there, perfect
play) within ``--limit`` trick starts; a solve that gives up is left out and counted. The solves are
kept as one Parquet file per system in the data directory and reused by a later run with the same
recipe (seeds, tricks left, limit). Each position's :data:`simcore.solver.estimate.FEATURES` are read
again on every run by the kernel's own feature function, so the fit sees what the search will.

The model: least squares of the value in units of the dearest card's points on the features, with a
small ridge penalty on every weight but the bias. Seeds are split: the last ``--holdout`` share of each
system's seeds is kept out of the fit, and the held-out mean absolute error (points) of the fitted
estimate and of the middle of the exact bounds is printed per system and tricks left.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from analyses.fit_learned import fitted_lines
from simcore.solver.estimate import FEATURES
from simcore.variants import load_variant

SYSTEMS = ("four-hand-150", "partnership-auction", "double-deck")
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "simcore" / "solver" / "estimate_weights.py"


def _positions(variant, seed: int, tricks_left: tuple[int, ...]):
    """(tricks left, position) for each trick start of ``tricks_left`` tricks left of seed's heuristic hand."""
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.kernels.policies import parse_policies
    from simcore.solver.position import PositionError, traced_position

    rec, trace = trace_hand(variant, seed, parse_policies("heuristic", variant.players))
    for left in tricks_left:
        try:
            p = traced_position(variant, seed, rec, trace, tricks_played=variant.hand_size - left)
        except PositionError:
            return
        if p.tricks == left:
            yield left, p


def solved_rows(system: str, seeds: range, tricks_left: tuple[int, ...], limit: int) -> list[dict]:
    """One row per trick start of ``tricks_left`` tricks left of each seed's heuristic hand: ids, the
    exact value (None when the solve gave up) and the trick starts searched."""
    from simcore.solver.position import solve

    variant = load_variant(system)
    rows = []
    for seed in seeds:
        for left, p in _positions(variant, seed, tricks_left):
            s = solve(p, limit=limit)
            rows.append({"system": system, "seed": seed, "tricks_left": left, "value": s.side_points, "nodes": s.nodes})
    return rows


def feature_rows(system: str, seeds: range, tricks_left: tuple[int, ...]) -> list[dict]:
    """The same positions' features as the kernel reads them now (cheap beside the solves, so they are
    never kept: a change of the features needs no solve again), with the unit of the point features."""
    from simcore.solver.position import evaluation

    variant = load_variant(system)
    rows = []
    for seed in seeds:
        for left, p in _positions(variant, seed, tricks_left):
            e = evaluation(p)
            rows.append({"seed": seed, "tricks_left": left, "unit": e.unit, **dict(zip(FEATURES, e.features.tolist()))})
    return rows


def positions(directory: Path, systems, seeds: range, tricks_left, limit: int, workers: int) -> pd.DataFrame:
    """The solved rows of every system, read from ``directory`` where a file of the same recipe is kept,
    else solved (in ``workers`` processes, seeds cut in blocks) and written there; with the features
    read now."""
    directory.mkdir(parents=True, exist_ok=True)
    frames = []
    recipe = f"seeds {seeds.start}:{seeds.stop}, tricks left {' '.join(map(str, tricks_left))}, limit {limit}"
    blocks = [range(a, min(a + 25, seeds.stop)) for a in range(seeds.start, seeds.stop, 25)]
    for system in systems:
        path = directory / f"{system}.parquet"
        meta = directory / f"{system}.recipe"
        with ProcessPoolExecutor(workers) as pool:
            if path.exists() and meta.exists() and meta.read_text() == recipe:
                solved = pd.read_parquet(path)[["system", "seed", "tricks_left", "value", "nodes"]]
            else:
                n = len(blocks)
                parts = list(pool.map(solved_rows, [system] * n, blocks, [tricks_left] * n, [limit] * n))
                solved = pd.DataFrame([r for part in parts for r in part])
                solved.to_parquet(path)
                meta.write_text(recipe)
                gave_up = int(solved["value"].isna().sum())
                print(f"{system}: {len(solved):,} positions solved, {gave_up} gave up", file=sys.stderr)
            parts = list(pool.map(feature_rows, [system] * len(blocks), blocks, [tricks_left] * len(blocks)))
        features = pd.DataFrame([r for part in parts for r in part])
        frames.append(solved.merge(features, on=["seed", "tricks_left"], validate="one_to_one"))
    return pd.concat(frames, ignore_index=True)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge least squares of ``y`` on ``x`` (the first column the bias, not penalised)."""
    penalty = ridge * len(y) * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


def estimates(x: np.ndarray, w: np.ndarray, unit: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """The kernel's estimate (:func:`simcore.solver.estimate.estimate`): rounded points within the bounds."""
    return np.clip(np.round(x @ w * unit), lower, upper)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data", help="directory for the solved positions (one Parquet file per system)")
    p.add_argument("--systems", nargs="+", default=list(SYSTEMS), help="systems (default the report's three)")
    p.add_argument("--seeds", default="1:801", help="seeds A:B, B excluded (default 1:801)")
    p.add_argument("--tricks-left", nargs="+", type=int, default=[6, 7, 8, 9], help="default 6 7 8 9")
    p.add_argument("--limit", type=int, default=3_000_000, help="trick starts a solve may search (default 3,000,000)")
    p.add_argument("--workers", type=int, default=2, help="processes solving (default 2)")
    p.add_argument("--holdout", type=float, default=0.2, help="share of each system's seeds kept out (default 0.2)")
    p.add_argument("--ridge", type=float, default=1e-4, help="ridge penalty (default 0.0001)")
    p.add_argument("--write", action="store_true", help="write the weights to simcore/solver/estimate_weights.py")
    args = p.parse_args(argv)
    a, _, b = args.seeds.partition(":")
    seeds = range(int(a), int(b))
    f = positions(Path(args.data), args.systems, seeds, tuple(args.tricks_left), args.limit, args.workers)
    f = f[f["value"].notna()].reset_index(drop=True)
    cut = f.groupby("system")["seed"].transform(lambda s: s.quantile(1 - args.holdout))
    train = (f["seed"] <= cut).to_numpy()
    x = f[list(FEATURES)].to_numpy(np.float64)
    unit = f["unit"].to_numpy(np.float64)
    value = f["value"].to_numpy(np.float64)
    lower, upper = f["lower"].to_numpy() * unit, f["upper"].to_numpy() * unit
    w = fit(x[train], value[train] / unit[train], args.ridge)
    est = estimates(x, w, unit, lower, upper)
    middle = np.round((lower + upper) / 2)
    f["err"], f["err_middle"] = np.abs(est - value), np.abs(middle - value)
    held = f[~train].groupby(["system", "tricks_left"])[["err", "err_middle"]].mean()
    print(f"{len(f):,} positions ({int(train.sum()):,} fitted on); held-out mean absolute error, points:")
    print(held.round(2).rename(columns={"err": "fitted", "err_middle": "middle of bounds"}).to_string())
    print(pd.Series(w, index=FEATURES).round(3).to_string())
    if args.write:
        counts = ", ".join(f"{s} {n:,}" for s, n in f.groupby("system").size().items())
        fitted = (
            f"python -m analyses.fit_estimate {args.data} --systems {' '.join(args.systems)} --seeds {args.seeds} "
            f"--tricks-left {' '.join(map(str, args.tricks_left))} --limit {args.limit} --holdout {args.holdout} "
            f"--ridge {args.ridge} --write: positions by system: {counts} (the last {args.holdout:.0%} of each "
            "system's seeds held out), trick starts of heuristic hands, each solved exactly"
        )
        lines = fitted_lines(fitted)
        weights = "\n".join(f"        {v: .6f},  # {name}" for v, name in zip(w, FEATURES))
        text = WEIGHTS_FILE.read_text().split("#: Before a fit")[0].split("FITTED =")[0]
        WEIGHTS_FILE.write_text(
            f"{text}FITTED = (\n{lines}\n)\n# fmt: off\nWEIGHTS = np.array(\n    [\n{weights}\n    ],\n"
            "    dtype=np.float64,\n)\n# fmt: on\n"
        )
        print(f"wrote {WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
