"""Intervals for Monte Carlo estimates, computed once from merged accumulators.

Proportions use the Wilson score interval. Per-hand proportions come from deals, and the hands of one
deal are not independent (one deck cannot give two players both Q♠ pairs), so their interval takes its
variance from per-deal totals: the Wilson interval is evaluated at the effective sample size
n / deff, where the design effect deff is the observed variance of the per-deal count over the
variance independent hands would give. Means (per hand, game or deal) have a normal interval from a
sum and a sum of squares (:func:`mean_interval`, :func:`values_interval`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval."""

    estimate: float
    lo: float
    hi: float

    @property
    def one_in(self) -> float | None:
        """1 / estimate ("1 in N"), or None when the estimate is 0."""
        return 1.0 / self.estimate if self.estimate > 0 else None


def wilson(successes: float, n: float, z: float = Z95) -> Interval:
    """Wilson score interval for ``successes`` out of ``n`` (``n`` may be an effective, non-integer size)."""
    if n <= 0:
        return Interval(math.nan, 0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at p = 0 or 1 the bound is exactly 0 or 1; floating point would leave it a hair inside
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return Interval(p, lo, hi)


def clustered_proportion(hits: int, sum_sq: int, clusters: int, per_cluster: int) -> Interval:
    """Per-item proportion from ``clusters`` groups of ``per_cluster`` items (hands of deals).

    ``hits`` is the total count of items with the property and ``sum_sq`` the sum over clusters of
    the squared per-cluster count.
    """
    n = clusters * per_cluster
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    p = hits / n
    if 0 < p < 1 and clusters > 1:
        mean = hits / clusters
        var_cluster = (sum_sq - clusters * mean * mean) / (clusters - 1)
        deff = var_cluster / (per_cluster * p * (1 - p))
        if deff > 0:
            n = n / deff
    return wilson(p * n, n)


def z_score(estimate: float, exact: float, n_eff: float) -> float:
    """How many binomial standard errors ``estimate`` lies from ``exact`` at sample size ``n_eff``."""
    se = math.sqrt(exact * (1 - exact) / n_eff)
    return (estimate - exact) / se if se > 0 else (0.0 if estimate == exact else math.inf)


def mean_interval(total: float, squares: float, n: int) -> Interval:
    """Mean with a normal 95% interval from a sum and a sum of squares over ``n`` independent hands."""
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def values_interval(x: np.ndarray) -> Interval:
    """:func:`mean_interval` of the values ``x`` (one per game, deal or hand)."""
    x = np.asarray(x, dtype=np.float64)
    return mean_interval(float(x.sum()), float((x * x).sum()), len(x))
