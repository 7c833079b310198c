"""The bidding card under stronger card play (issue 16, item 4): the report's "bid up to a + b × your meld"
rule refitted on deals whose card play in the endings is the sampling player's at every seat, beside the
rule fitted on the same deals played by the heuristic throughout.

Deal i is :func:`simcore.state.new_hand` (seed, hand=i), the same cards for both. The bidding, passing
and meld are the heuristic's in both (the sampling player bids as the heuristic), so the two record sets
differ only by the card play of the last ``solve_from`` tricks. The rule is
:func:`analyses.bid_strategy.bid_rule_of_thumb` on each record set; the intervals are percentile
bootstrap intervals over deals (the same resampled deals for both rules, so the difference's interval
is paired). Points are on the variant's scale.

Run as ``python -m analyses.strong_play VARIANT DEALS [SEED]``; it prints a markdown table.
"""

from __future__ import annotations

import sys

import numpy as np

from analyses.bid_strategy import bid_rule_of_thumb
from simcore.kernels import hand as h
from simcore.state import new_hand
from simcore.state.players import kernel_policy
from simcore.state.sampler import SamplingPlayer
from simcore.variants import Variant, load_variant


def played_records(variant: Variant, deals: int, seed: int, policy) -> np.ndarray:
    """int64[deals, N_FIELDS]: deal i (new_hand(seed, hand=i)) played with ``policy`` at every seat."""
    out = np.zeros((deals, h.N_FIELDS), dtype=np.int64)
    for i in range(deals):
        state = new_hand(variant, seed, hand=i)
        while not state.is_terminal():
            state.apply(policy(state))
        out[i] = [state.record()[f] for f in h.FIELDS]
    return out


def rules_side_by_side(variant: Variant, strong: np.ndarray, heuristic: np.ndarray, min_hands: int = 50,
                       boot: int = 200, seed: int = 0) -> dict:
    """Both rules of thumb and their difference, each ``a`` and ``b`` with a 95% bootstrap interval."""
    rng = np.random.default_rng(seed)
    fits = {"strong": bid_rule_of_thumb(strong, variant, min_hands=min_hands),
            "heuristic": bid_rule_of_thumb(heuristic, variant, min_hands=min_hands)}
    draws = {k: [] for k in ("strong", "heuristic", "difference")}
    for _ in range(boot):
        pick = rng.integers(0, len(strong), size=len(strong))
        try:
            s, hh = (bid_rule_of_thumb(r[pick], variant, min_hands=min_hands) for r in (strong, heuristic))
        except ValueError:  # a resample with too few hands in a bin: not fitted
            continue
        draws["strong"].append((s["a"], s["b"]))
        draws["heuristic"].append((hh["a"], hh["b"]))
        draws["difference"].append((s["a"] - hh["a"], s["b"] - hh["b"]))
    out = {"variant": variant.id, "deals": len(strong), "resamples": len(draws["strong"])}
    point = {"strong": fits["strong"], "heuristic": fits["heuristic"],
             "difference": {"a": fits["strong"]["a"] - fits["heuristic"]["a"],
                            "b": fits["strong"]["b"] - fits["heuristic"]["b"]}}
    for name, rows in draws.items():
        arr = np.array(rows)
        out[name] = {k: {"estimate": point[name][k], "ci95": [float(np.percentile(arr[:, j], 2.5)),
                                                              float(np.percentile(arr[:, j], 97.5))]}
                     for j, k in enumerate(("a", "b"))}
    made = {k: float((r[:, h.F_MADE] == 1).sum() / max(1, (r[:, h.F_BIDDER] >= 0).sum()))
            for k, r in (("strong", strong), ("heuristic", heuristic))}
    out["made"] = made
    return out


def markdown(result: dict) -> str:
    def cell(x: dict) -> str:
        lo, hi = x["ci95"]
        return f"{x['estimate']:.1f} [{lo:.1f}, {hi:.1f}]"

    lines = [f"{result['variant']}, {result['deals']} deals, {result['resamples']} bootstrap resamples:", "",
             "| card play | a (points) | b (per point of meld) | made |", "|---|---|---|---|"]
    for name, label in (("heuristic", "heuristic throughout"), ("strong", "sampling player in the endings")):
        r = result[name]
        lines.append(f"| {label} | {cell(r['a'])} | {r['b']['estimate']:.2f} [{r['b']['ci95'][0]:.2f}, "
                     f"{r['b']['ci95'][1]:.2f}] | {result['made'][name]:.3f} |")
    d = result["difference"]
    lines.append(f"| difference | {cell(d['a'])} | {d['b']['estimate']:.2f} [{d['b']['ci95'][0]:.2f}, "
                 f"{d['b']['ci95'][1]:.2f}] | |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    variant, deals = load_variant(argv[0]), int(argv[1])
    seed = int(argv[2]) if len(argv) > 2 else 1
    strong = played_records(variant, deals, seed, SamplingPlayer())
    heuristic = played_records(variant, deals, seed, kernel_policy("heuristic"))
    print(markdown(rules_side_by_side(variant, strong, heuristic)))


if __name__ == "__main__":
    main(sys.argv[1:])
