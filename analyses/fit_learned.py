"""Fit the learned card player's weights on ``pinochle dd-data`` files and write
``simcore/kernels/learned_weights.py``.

    python -m analyses.fit_learned data/dd [--holdout 0.2] [--without-heuristic] [--write]

Model: at each decision every legal card gets the score w_g . x (x: the card's features of
:data:`simcore.kernels.card_features.FEATURES`; g: the decision's group, lead or follow by the bidding
side or a defender, by place in the trick, in a system of counters or of graded points,
:func:`simcore.kernels.learned.decision_group`). Fitted by minimising the expected
double-dummy loss (in units of the dearest card's points) of a softmax over the legal cards, plus a
small ridge penalty pulling every weight but the heuristic's toward 0, by Adam from the heuristic (only
its indicator weighted; with ``--without-heuristic`` from every card alike, the indicator left out, so that
the kernel need not choose the heuristic's card at the model's decisions); the kernel then plays the
card of the highest score. Seeds are split: the last
``--holdout`` share of each system's seeds is kept out of the fit and the mean loss a decision of the
fitted player's card and the heuristic's card are printed on them, per system and group.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from simcore.cards import ACE, KING
from simcore.kernels.card_features import FEATURES
from simcore.variants import load_variant

GROUPS = tuple(
    f"{play}, {side}, {scale}"
    for scale in ("counters", "graded")
    for play in ("lead", "2nd card", "3rd card", "4th card on")
    for side in ("bidding side", "defenders")
)
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "simcore" / "kernels" / "learned_weights.py"


def fitted_lines(recipe: str) -> str:
    """``recipe`` as the lines of a parenthesised string literal for a weights module's ``FITTED``: chunks
    of 100 characters, each in double quotes as ruff format writes them, whatever the chunk holds."""
    chunks = textwrap.wrap(recipe, 100, drop_whitespace=False)
    return "\n".join(f"    {json.dumps(chunk, ensure_ascii=False)}" for chunk in chunks)


def decisions(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows sorted by decision, with ``decision`` (a running id) and ``group`` (0-15) columns."""
    f = frame.sort_values(["system", "seed", "trick", "place", "card"], kind="stable").reset_index(drop=True)
    key = f[["system", "seed", "trick", "place"]].astype(str).agg("|".join, axis=1)
    f["decision"] = (key != key.shift()).cumsum() - 1
    graded = f["system"].map(lambda s: graded_points(load_variant(s).trick_points)).astype(bool)
    f["group"] = 2 * f["place"].clip(upper=3) + np.where(f["role"] == "defender", 1, 0) + np.where(graded, 8, 0)
    return f


def graded_points(trick_points) -> bool:
    """Whether a system's trick points are graded (an ace counts more than a king), as
    :func:`simcore.kernels.learned.decision_group` tells them from equal counters."""
    return trick_points[ACE] != trick_points[KING]


def _segments(decision: np.ndarray) -> np.ndarray:
    """Start index of each decision's rows (rows sorted by decision)."""
    return np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])


def _softmax(scores: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    top = np.maximum.reduceat(scores, starts)
    e = np.exp(scores - np.repeat(top, sizes))
    return e / np.repeat(np.add.reduceat(e, starts), sizes)


def fit_group(
    x: np.ndarray,
    loss: np.ndarray,
    decision: np.ndarray,
    steps: int = 600,
    ridge: float = 1e-3,
    heuristic: bool = True,
):
    """float64[features]: weights minimising the softmax's expected loss over the decisions (rows sorted
    by ``decision``), from the heuristic's card alone (weight 4 on feature 0); with ``heuristic`` False
    the heuristic's indicator is left out (its weight held at 0, so that the kernel need not choose the
    heuristic's card for the group) and the fit starts from every card alike."""
    starts = _segments(decision)
    sizes = np.diff(np.r_[starts, len(decision)])
    n = len(starts)
    w = np.zeros(x.shape[1])
    w[0] = 4.0 if heuristic else 0.0
    m, v = np.zeros_like(w), np.zeros_like(w)
    pull = np.ones_like(w)
    pull[0] = 0.0
    free = np.ones_like(w)
    free[0] = 1.0 if heuristic else 0.0
    for step in range(1, steps + 1):
        p = _softmax(x @ w, starts, sizes)
        mean = np.repeat(np.add.reduceat(p * loss, starts), sizes)
        grad = (x.T @ (p * (loss - mean)) / n + ridge * pull * w) * free
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def argmax_loss(x: np.ndarray, loss: np.ndarray, decision: np.ndarray, w: np.ndarray) -> float:
    """Mean loss a decision of the card of the highest score (the lowest card type on ties, as the kernel:
    rows sorted by card within a decision)."""
    picked = pd.Series(x @ w).groupby(decision).idxmax().to_numpy()
    return float(loss[picked].mean())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data", help="directory (or file) of pinochle dd-data Parquet files")
    p.add_argument("--holdout", type=float, default=0.2, help="share of each system's seeds kept out (default 0.2)")
    p.add_argument("--steps", type=int, default=600, help="Adam steps (default 600)")
    p.add_argument("--ridge", type=float, default=1e-3, help="ridge penalty (default 0.001)")
    p.add_argument(
        "--without-heuristic",
        action="store_true",
        help="leave the heuristic's card out of the features (the kernel then skips the heuristic's choice)",
    )
    p.add_argument("--write", action="store_true", help="write the weights to simcore/kernels/learned_weights.py")
    args = p.parse_args(argv)

    f = decisions(pd.read_parquet(args.data))
    cut = f.groupby("system", observed=True)["seed"].transform(lambda s: s.quantile(1 - args.holdout))
    f["train"] = f["seed"] <= cut
    x_all = f[list(FEATURES)].to_numpy(np.float64)
    loss_all = (f["loss"] / f["unit"]).to_numpy(np.float64)
    weights = np.zeros((len(GROUPS), len(FEATURES)))
    report = []
    for g, name in enumerate(GROUPS):
        rows = (f["group"] == g).to_numpy()
        tr = rows & f["train"].to_numpy()
        if not tr.any():  # no data: the heuristic's card
            weights[g, 0] = 1.0
            continue
        weights[g] = fit_group(
            x_all[tr], loss_all[tr], f["decision"].to_numpy()[tr], args.steps, args.ridge, not args.without_heuristic
        )
        for system in sorted(f["system"].unique()):
            te = rows & ~f["train"].to_numpy() & (f["system"] == system).to_numpy()
            if not te.any():
                continue
            d = f["decision"].to_numpy()[te]
            unit = f["unit"].to_numpy()[te][0]
            heur = float(loss_all[te][x_all[te][:, 0] == 1].mean())
            mine = argmax_loss(x_all[te], loss_all[te], d, weights[g])
            report.append((system, name, len(np.unique(d)), heur * unit, mine * unit))
    print(f"{len(f):,} rows, {f['decision'].nunique():,} decisions; held-out mean loss a decision (points):")
    print(pd.DataFrame(report, columns=["system", "group", "decisions", "heuristic", "learned"]).to_string(index=False))
    print(pd.DataFrame(weights.T, index=FEATURES, columns=GROUPS).round(2).to_string())
    if args.write:
        systems = ", ".join(f"{s} {n:,}" for s, n in f.groupby("system", observed=True)["decision"].nunique().items())
        seeds = f.groupby("system", observed=True)["seed"].agg(["min", "max"])
        seed_text = "; ".join(f"{s} seeds {r['min']}..{r['max']}" for s, r in seeds.iterrows())
        fitted = (
            f"python -m analyses.fit_learned {args.data} --holdout {args.holdout} --steps {args.steps} "
            f"--ridge {args.ridge}{' --without-heuristic' if args.without_heuristic else ''} "
            f"--write: {len(f):,} rows, decisions by system: {systems} ({seed_text}; the "
            f"last {args.holdout:.0%} of each system's seeds held out), the last "
            f"{int(f['tricks_left'].max())} tricks of heuristic hands"
        )
        lines = fitted_lines(fitted)
        half = len(GROUPS) // 2  # counters, then graded points: one block each, one line a feature

        def block(cols: np.ndarray) -> str:
            return "\n".join(
                "    [" + ", ".join(f"{v:7.3f}" for v in cols[i]) + f"],  # {name}" for i, name in enumerate(FEATURES)
            )

        groups = "\n".join(f"#   {g % half}: {name}" for g, name in enumerate(GROUPS))
        text = WEIGHTS_FILE.read_text().split("FITTED =")[0]  # the docstring and the tricks each group plays from
        WEIGHTS_FILE.write_text(
            f"{text}FITTED = (\n{lines}\n)\n"
            f"#: One line a feature, one column a group (the same columns in both blocks):\n{groups}\n"
            f"# fmt: off\nCOUNTERS = np.array([\n{block(weights[:half].T)}\n], dtype=np.float64)\n"
            f"GRADED = np.array([\n{block(weights[half:].T)}\n], dtype=np.float64)\n# fmt: on\n"
            "WEIGHTS = np.concatenate([COUNTERS.T, GRADED.T])\n"
        )
        print(f"wrote {WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
