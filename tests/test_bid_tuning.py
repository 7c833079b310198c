"""The bidding-margin duels that tune the heuristic (analyses/bid_tuning.py, docs/policies.md)."""

import json

import pytest

from analyses.bid_tuning import duel_kind, margin_duel, seat_duel
from simcore.variants import NotForThisSystem, load_variant


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
    assert load_variant("partnership").get("policy.margin") == 0.0  # no auction: the default
    mine = tmp_path / "my-house-rules.toml"
    mine.write_text('extends = "double-deck"\nid = "my-house-rules"\n[game]\ntarget = 600\n')
    assert load_variant(str(mine)).get("policy.margin") == -0.3  # a user file extending a tuned system
    with pytest.raises(ValueError, match="two partnerships"):
        margin_duel(load_variant("five-hand-cutthroat"), [0.1], 100)


def test_tune_command_prints_each_duel_and_the_margin_to_write(capsys):
    from simcore.cli import main

    code = main(["tune", "--variant", "four-hand-150", "--hands", "400", "--seed", "5", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["variant"] == "four-hand-150" and len(data["duels"]) % 4 == 0
    assert data["duels"][0]["base"] == 0.35  # the search starts from the rules' own margin
    assert -1 <= data["margin"] <= 1 and isinstance(data["settled"], bool)
    code = main(["tune", "--variant", "partnership", "--hands", "400"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "no auction" in err and len(err.strip().splitlines()) == 1
    code = main(["tune", "--variant", "five-hand-cutthroat", "--hands", "400"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "--games" in err and len(err.strip().splitlines()) == 1


def test_each_system_gets_the_duel_its_teams_allow():
    assert duel_kind(load_variant("four-hand-150")) == "team"
    assert duel_kind(load_variant("six-hand-triple-pack")) == "team"  # two teams of three
    for vid in ("five-hand-cutthroat", "five-hand-called-card", "draw-pinochle", "three-hand-double-pack"):
        assert duel_kind(load_variant(vid)) == "seat"
    assert duel_kind(load_variant("auction")) == "chips"  # no games: every deal settled in chips
    for vid in ("partnership", "six-eight-partnership", "two-hand"):
        with pytest.raises(NotForThisSystem, match="no auction"):
            duel_kind(load_variant(vid))


def test_a_seat_duel_of_a_margin_against_itself_gains_exactly_nothing():
    v = load_variant("five-hand-called-card")
    row = seat_duel(v, [v.get("policy.margin")], 300, seed=3, hands=300).iloc[0]
    assert row["gain"] == row["gain_lo"] == row["gain_hi"] == 0  # same games, same play, every rotation
    assert row["points"] == row["points_lo"] == row["points_hi"] == 0
    assert row["contracts"] == pytest.approx(1 / 5)  # one seat of five holds the candidate in each rotation
    auction = load_variant("auction")
    row = seat_duel(auction, [auction.get("policy.margin")], 500, seed=3).iloc[0]  # chips per deal
    assert row["gain"] == row["gain_lo"] == row["gain_hi"] == 0 and row["contracts"] == pytest.approx(1 / 3)


def test_a_team_duel_works_for_three_against_three():
    v = load_variant("six-hand-triple-pack")
    rows = margin_duel(v, [v.get("policy.margin"), v.get("policy.margin") + 0.6], 1_000, seed=2)
    assert rows.loc[0, "gain"] == 0 and rows.loc[0, "contracts"] == pytest.approx(0.5)
    assert rows.loc[1, "gain_hi"] < 0 and rows.loc[1, "contracts"] > 0.6


def test_reckless_bidding_loses_games_for_a_seat_alone():
    v = load_variant("five-hand-cutthroat")
    row = seat_duel(v, [v.get("policy.margin") + 0.6], 1_000, seed=2, hands=500).iloc[0]
    assert row["gain_hi"] < 0 and row["contracts"] > 0.4  # wins many more contracts, and fewer games
    assert row["make_lo"] <= row["make_rate"] <= row["make_hi"]


def test_tune_command_runs_the_seat_duel_for_a_system_of_lone_bidders(capsys):
    from simcore.cli import main

    code = main(["tune", "--variant", "draw-pinochle", "--games", "150", "--step", "0.3", "--seed", "5", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["duel"] == "seat" and data["games"] == 150 and "won" in data["measure"]
    assert {"gain", "points", "make_rate", "contracts"} <= set(data["duels"][0])


def test_a_search_that_circles_steps_between_its_bases(monkeypatch):
    import pandas as pd

    import analyses.bid_tuning as bt

    def fake(variant, margins, size, seed, base):  # from 0.1 the best is 0.2, from 0.2 the best is 0.1
        peak = {0.0: 0.1, 0.1: 0.2, 0.2: 0.1}.get(round(base, 6), base)
        gains = [
            0.0 if abs(m - base) < 1e-9 else 1.0 - 5 * abs(m - peak) if round(base, 6) != 0.15 else -1.0
            for m in margins
        ]
        return pd.DataFrame(
            {"margin": margins, "gain": gains, "gain_lo": [x - 0.2 for x in gains], "gain_hi": [x + 0.2 for x in gains]}
        )

    monkeypatch.setattr(bt, "duel", fake)
    path = bt.tune_margin(load_variant("five-hand-called-card"), 100, start=0.0)
    assert list(dict.fromkeys(path["base"])) == [0.0, 0.1, 0.2, 0.15]  # 0.2 -> 0.1 again: one step instead
    assert path.attrs["margin"] == 0.15 and path.attrs["settled"]
