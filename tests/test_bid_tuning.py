"""The bidding-margin duels that tune the heuristic (analyses/bid_tuning.py, docs/policies.md)."""

import pytest

from analyses.bid_tuning import margin_duel
from simcore.policies import tuned_margin
from simcore.variants import load_variant


def test_a_margin_duelling_itself_gains_exactly_nothing():
    v = load_variant("four-hand-150")
    duel = margin_duel(v, [tuned_margin(v.id)], 5_000, seed=2)
    row = duel.iloc[0]
    assert row["gain"] == 0 and row["gain_lo"] == 0 and row["gain_hi"] == 0  # same deals, same play
    assert row["contracts"] == pytest.approx(0.5)  # each team holds the margin in one seating


def test_reckless_bidding_loses_points_and_wins_contracts():
    v = load_variant("double-deck")
    row = margin_duel(v, [tuned_margin(v.id) + 0.6], 5_000, seed=2).iloc[0]
    assert row["gain_hi"] < 0 and row["contracts"] > 0.6
    assert row["make_lo"] <= row["make_rate"] <= row["make_hi"]


def test_tuned_margins_follow_the_base_system_and_default_to_zero():
    assert tuned_margin("four-hand-150") == tuned_margin("four-hand-150+scoring.concede=true") > 0
    assert tuned_margin("auction") == 0.0 and tuned_margin("my-house-rules") == 0.0
    with pytest.raises(ValueError, match="two partnerships"):
        margin_duel(load_variant("auction"), [0.1], 100)
