"""Double-dummy make odds (simcore.answers.dd_make, pinochle dd-odds)."""

import json

import pytest

from simcore.answers.dd_make import dd_make_odds, trick_need
from simcore.cli import main
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
    result = dd_make_odds(load_variant(vid), 30, seed=0, limit=2_000)
    assert len(result.hands) >= 20 and result.mismatches == 0
    table = result.by_bid()
    assert table["hands"].sum() == len(result.hands)
    assert (table["dd_low"] <= table["dd_high"]).all()
    assert table["gave_up"].sum() == result.hands["dd"].isna().sum()
    answered = result.hands.dropna(subset=["dd"])
    assert set(answered["dd"].unique()) <= {0, 1}


def test_rates_with_intervals_when_every_solve_is_exact_and_ranges_only_for_give_ups(capsys):
    # the same hands under a limit no solve reaches and one most solves reach: a rate with its interval,
    # then a range that holds it
    v = load_variant("four-hand-150")
    exact, limited = dd_make_odds(v, 8, seed=3, limit=20_000_000, threads=2), dd_make_odds(v, 8, seed=3, limit=50)
    o, lo = exact.overall(), limited.overall()
    assert o["gave_up"] == 0 and o["dd"].lo <= o["dd"].estimate <= o["dd"].hi
    assert lo["gave_up"] > 0 and lo["dd"] is None and lo["dd_low"] <= o["dd"].estimate <= lo["dd_high"]
    assert exact.by_bid()["dd"].notna().all() and limited.by_bid()["dd"].isna().any()
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "8", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "every solve exact" in out and "gave up" not in out and "dd_lo" in out
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "8", "--seed", "3", "--limit", "50"]) == 0
    out = capsys.readouterr().out
    assert "solves gave up at 50 trick starts" in out and "dd_low" in out


def test_cli_dd_odds_text_json_and_refusals(capsys):
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "5", "--limit", "2000"]) == 0
    out = capsys.readouterr().out
    assert "made by the policies' play" in out and "with double-dummy play" in out
    assert main(["dd-odds", "--variant", "four-hand-150", "--hands", "5", "--limit", "2000", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["mismatches"] == 0 and got["limit"] == 2000 and got["double_dummy"]["low"] <= got["double_dummy"]["high"]
    for vid in ("two-hand", "five-hand-called-card", "auction"):
        assert main(["dd-odds", "--variant", vid, "--hands", "2"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not computed here" in err
    with pytest.raises(NotForThisSystem):
        dd_make_odds(load_variant("two-hand"), 1)
