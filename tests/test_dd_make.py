"""Double-dummy make odds (simcore.answers.dd_make, pinochle dd-odds)."""

import json

import pytest

from simcore.answers.dd_make import dd_make_odds, dd_rate, half_width, settled, trick_need
from simcore.cli import main
from simcore.run.stats import wilson
from simcore.variants import NotForThisSystem, load_variant


def test_the_need_is_the_bid_less_the_kept_meld_and_one_point_to_save_it():
    pa = load_variant("partnership-auction")  # save_meld = "trick"
    assert trick_need(pa, 250, 60) == 190
    assert trick_need(pa, 250, 300) == 1  # the meld covers the bid, but a trick must save it
    dd = load_variant("double-deck")  # save_meld = "nothing": the meld is kept whatever
    assert trick_need(dd, 60, 70) == -10
    least = load_variant("double-deck", ["scoring.min_meld_to_count=20"])
    assert trick_need(least, 60, 15) == 60  # meld below the minimum does not count


@pytest.mark.parametrize("vid", ["four-hand-150", "partnership-auction", "double-deck"])
def test_the_heuristics_points_against_the_need_are_the_kernels_made(vid):
    # the need is checked against the kernel on every hand: the heuristic's own trick points reach it
    # exactly when the record says the contract was made
    result = dd_make_odds(load_variant(vid), 30, seed=0, limit=2_000, budget=0)
    assert len(result.hands) >= 20 and result.mismatches == 0
    table = result.by_bid()
    assert table["hands"].sum() == len(result.hands)
    assert (table["dd_low"] <= table["dd_high"]).all()
    assert table["gave_up"].sum() == result.hands["dd"].isna().sum()
    answered = result.hands.dropna(subset=["dd"])
    assert set(answered["dd"].unique()) <= {0, 1}


def test_the_band_and_the_stopping_rule_worked_by_hand():
    # 100 hands, 50 made, 1 unsolved: the estimate counts it half made, 50.5/100; Wilson at 0.505 with
    # z = 1.959964: centre (0.505 + z²/200) / (1 + z²/100), half z * sqrt(0.505 * 0.495 / 100 + z²/40000)
    # / (1 + z²/100) = 1.959964 * 0.0509487 / 1.0384146 = 0.096164
    assert half_width(50, 1, 100) == pytest.approx(0.096164, abs=1e-6)
    assert settled(50, 1, 100)  # band 0.01 <= 0.032054
    assert settled(50, 3, 100)  # band 0.03 <= a third of half_width(50, 3, 100) = 0.032042
    assert not settled(50, 4, 100)  # band 0.04 > 0.032
    assert not settled(5, 1, 10)  # 10 hands: half-width 0.2625 (5.5 of 10), band 0.1 > 0.0875
    iv = dd_rate(50, 4, 100)
    assert iv.estimate == pytest.approx(0.52)
    assert iv.lo == pytest.approx(wilson(50, 100).lo) and iv.hi == pytest.approx(wilson(54, 100).hi)
    assert dd_rate(50, 0, 100) == wilson(50, 100)


def test_escalation_never_changes_an_answered_hands_verdict_and_stays_in_its_budget():
    # one pass at a limit most whole deals pass, then escalated: the hands the first pass answered keep
    # their answer, and every answer is the one an unhurried solve gives
    v = load_variant("four-hand-150")
    exact = dd_make_odds(v, 8, seed=3, limit=20_000_000, budget=0)
    first = dd_make_odds(v, 8, seed=3, limit=50, budget=0)
    assert exact.hands["dd"].notna().all() and first.hands["dd"].isna().sum() >= 3
    escalated = first.escalated(budget=30_000_000, threads=2)
    answered = first.hands["dd"].notna()
    assert (escalated.hands["dd"][answered] == first.hands["dd"][answered]).all()
    solved = escalated.hands["dd"].notna()
    assert (escalated.hands["dd"][solved] == exact.hands["dd"][solved]).all()
    assert [p.limit for p in escalated.runs][:3] == [50, 500, 5_000]
    assert escalated.nodes <= 30_000_000 and escalated.nodes == sum(p.nodes for p in escalated.runs)
    assert escalated.runs[-1].gave_up == escalated.hands["dd"].isna().sum()
    # a budget that pays for no larger pass leaves the first pass as it was
    assert first.escalated(budget=first.nodes + 10).hands["dd"].isna().sum() == first.hands["dd"].isna().sum()


def test_rates_with_intervals_and_the_unsolved_hands_band(capsys):
    # the same hands under a limit no solve reaches and one pass where most solves give up: the
    # second's interval holds every way its unsolved hands could go, so it holds the first's rate
    v = load_variant("four-hand-150")
    exact, limited = dd_make_odds(v, 8, seed=3, limit=20_000_000, threads=2), dd_make_odds(v, 8, 3, 50, budget=0)
    o, lo = exact.overall(), limited.overall()
    assert o["gave_up"] == 0 and o["dd"].lo <= o["dd"].estimate <= o["dd"].hi and o["settled"]
    assert lo["gave_up"] > 0 and lo["dd_low"] <= o["dd"].estimate <= lo["dd_high"]
    assert lo["dd"].lo <= o["dd"].lo and lo["dd"].hi >= o["dd"].hi and not lo["settled"]
    assert lo["band"] == pytest.approx(lo["gave_up"] / lo["hands"])
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "8", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "unsolved: none (every solve exact)" in out and "passes (trick starts a solve): 20,000:" in out
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "8", "--seed", "3", "--limit", "50"]) == 0
    out = capsys.readouterr().out
    assert "50: 8 solves" in out and "500: " in out
    assert (
        main(["dd-odds", "--variant", "four-hand-150", "--hands", "8", "--seed", "3", "--limit", "50", "--budget", "0"])
        == 0
    )
    out = capsys.readouterr().out
    assert "one pass only" in out and "unsolved: " in out and "the budget ran out first" in out and "dd_low" in out


def test_cli_dd_odds_text_json_and_refusals(capsys):
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "5", "--limit", "2000"]) == 0
    out = capsys.readouterr().out
    assert "made by the policies' play" in out and "with double-dummy play" in out
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "5", "--limit", "2000", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["mismatches"] == 0 and got["limit"] == 2000 and got["double_dummy"]["low"] <= got["double_dummy"]["high"]
    assert got["passes"][0]["limit"] == 2000 and got["nodes"] == sum(p["nodes"] for p in got["passes"])
    for vid in ("two-hand", "five-hand-called-card", "auction"):
        assert main(["dd-odds", "--variant", vid, "--hands", "2"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not computed here" in err
    with pytest.raises(NotForThisSystem):
        dd_make_odds(load_variant("two-hand"), 1)
