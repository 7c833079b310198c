"""The numba meld kernel against the plain reference scorer, hand by hand, under every trump.

100,000 dealt hands per deck type (48, 60, 80, 96 and 120 cards), plus hands crowded into a few card
types so that doubles, extra kings and queens, triple arounds and quintuple pinochles actually occur.
"""

import numpy as np
import pytest
from conftest import crowded_hands, dealt_hands

from simcore.kernels.meld import N_NAMED, NAMED_MELDS, meld_breakdown, meld_by_trump
from simcore.reference.meld import reference_meld
from simcore.variants import load_variant


def _mismatches(variant, hands):
    table, flags = variant.meld_table, variant.meld_flags
    totals = np.zeros(4, dtype=np.int64)
    bad = []
    for hand in hands:
        best = meld_by_trump(hand, table, flags, totals)
        ref = [sum(p for _, p in reference_meld(hand, t, variant).values()) for t in range(4)]
        if totals.tolist() != ref or ref[best] != max(ref) or ref.index(max(ref)) != best:
            bad.append((hand.tolist(), totals.tolist(), ref))
    return bad


@pytest.mark.slow
@pytest.mark.parametrize(
    "vid", ["four-pass", "five-hand-called-card", "double-deck", "five-hand-widow-96", "six-hand-triple-pack"]
)
def test_kernel_matches_reference_on_100000_dealt_hands(vid):
    variant = load_variant(vid)
    hands = dealt_hands(variant, 100_000, seed=11)
    assert len(hands) == 100_000
    bad = _mismatches(variant, hands)
    assert not bad, f"{len(bad)} hands differ, first: {bad[0]}"


@pytest.mark.parametrize(
    "vid, overrides",
    [
        ("four-hand-150", []),
        ("four-pass", []),
        ("double-deck", []),
        ("double-deck", ["meld.run_extra_marriage=30", "meld.run_extra_king=7"]),
        ("five-hand-universal", []),
        ("six-hand-triple-pack", []),
        ("five-hand-widow-96", []),
        ("ok-pinochle", ["meld.roundhouse_bonus=100", "meld.run_or_royal=true"]),
        ("double-deck", ["meld.run_scores_royal=true"]),
        ("double-deck", ["meld.run_extra_marriage=30", "meld.run_extra_marriage_per_run=true"]),
    ],
)
def test_kernel_matches_reference_on_crowded_hands(vid, overrides):
    variant = load_variant(vid, overrides)
    hands = crowded_hands(variant, 4000, seed=5)
    assert not _mismatches(variant, hands)
    # and the breakdown, meld by meld, under each hand's best trump
    table, flags = variant.meld_table, variant.meld_flags
    totals = np.zeros(4, dtype=np.int64)
    counts, points = np.zeros(N_NAMED, dtype=np.int64), np.zeros(N_NAMED, dtype=np.int64)
    seen = set()
    for hand in hands:
        best = meld_by_trump(hand, table, flags, totals)
        meld_breakdown(hand, best, table, flags, counts, points)
        ref = reference_meld(hand, best, variant)
        assert {k: (int(c), int(p)) for k, c, p in zip(NAMED_MELDS, counts, points)} == ref
        seen.update(k for k, c in zip(NAMED_MELDS, counts) if c > 1)
    # the crowded hands really exercise melds held more than once
    assert len(seen) >= 3, seen
