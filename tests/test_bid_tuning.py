"""The bidding-margin duels that tune the heuristic (analyses/bid_tuning.py, docs/policies.md)."""

import json

import pytest

from analyses.bid_tuning import margin_duel
from simcore.variants import load_variant


def test_a_margin_duelling_itself_gains_exactly_nothing():
    v = load_variant("four-hand-150")
    duel = margin_duel(v, [v.get("policy.margin")], 5_000, seed=2)
    row = duel.iloc[0]
    assert row["gain"] == 0 and row["gain_lo"] == 0 and row["gain_hi"] == 0  # same deals, same play
    assert row["contracts"] == pytest.approx(0.5)  # each team holds the margin in one seating


def test_reckless_bidding_loses_points_and_wins_contracts():
    v = load_variant("double-deck")
    row = margin_duel(v, [v.get("policy.margin") + 0.6], 5_000, seed=2).iloc[0]
    assert row["gain_hi"] < 0 and row["contracts"] > 0.6
    assert row["make_lo"] <= row["make_rate"] <= row["make_hi"]


def test_margins_are_rules_that_extends_and_set_carry_and_default_to_zero(tmp_path):
    assert load_variant("four-hand-150").get("policy.margin") == 0.35
    assert load_variant("four-hand-150", ["scoring.concede=true"]).get("policy.margin") == 0.35
    assert load_variant("four-hand-150", ["policy.margin=-0.2"]).get("policy.margin") == -0.2
    assert load_variant("auction").get("policy.margin") == 0.0
    mine = tmp_path / "my-house-rules.toml"
    mine.write_text('extends = "double-deck"\nid = "my-house-rules"\n[game]\ntarget = 600\n')
    assert load_variant(str(mine)).get("policy.margin") == -0.3  # a user file extending a tuned system
    with pytest.raises(ValueError, match="two partnerships"):
        margin_duel(load_variant("auction"), [0.1], 100)


def test_tune_command_prints_each_duel_and_the_margin_to_write(capsys):
    from simcore.cli import main

    code = main(["tune", "--variant", "four-hand-150", "--hands", "400", "--seed", "5", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["variant"] == "four-hand-150" and len(data["duels"]) % 4 == 0
    assert data["duels"][0]["base"] == 0.35  # the search starts from the rules' own margin
    assert -1 <= data["margin"] <= 1 and isinstance(data["settled"], bool)
    code = main(["tune", "--variant", "five-hand-cutthroat", "--hands", "400"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "two partnerships" in err and len(err.strip().splitlines()) == 1
