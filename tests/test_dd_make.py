"""Double-dummy make odds (simcore.answers.dd_make, pinochle dd-odds)."""

import json

import pytest

from simcore.answers.dd_make import _need, dd_make_odds
from simcore.cli import main
from simcore.variants import NotForThisSystem, load_variant


def test_the_need_is_the_bid_less_the_kept_meld_and_one_point_to_save_it():
    pa = load_variant("partnership-auction")  # save_meld = "trick"
    assert _need(pa, 250, 60) == 190
    assert _need(pa, 250, 300) == 1  # the meld covers the bid, but a trick must save it
    dd = load_variant("double-deck")  # save_meld = "nothing": the meld is kept whatever
    assert _need(dd, 60, 70) == -10
    least = load_variant("double-deck", ["scoring.min_meld_to_count=20"])
    assert _need(least, 60, 15) == 60  # meld below the minimum does not count


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
