"""The bidding card under the sampling player's card play (analyses.strong_play)."""

import numpy as np

from analyses.strong_play import markdown, played_records, rules_side_by_side
from simcore.kernels import hand_record as h
from simcore.state.players import kernel_policy
from simcore.state.sampler import SamplingPlayer
from simcore.variants import load_variant


def test_the_sampling_player_changes_only_the_card_play():
    # it bids, passes and melds as the heuristic: on the same deals everything before the play agrees
    v = load_variant("partnership-auction")
    strong = played_records(v, 4, 1, SamplingPlayer(samples=2, solve_from=3))
    plain = played_records(v, 4, 1, kernel_policy("heuristic"))
    before_play = [
        h.FIELDS.index(f)
        for f in (
            "redeals",
            "bidder",
            "bid",
            "trump",
            "bidder_meld",
            "bidder_meld_after",
            "side_meld",
            "other_meld",
            "trump_len",
            "aces",
        )
    ]
    assert np.array_equal(strong[:, before_play], plain[:, before_play])


def test_one_record_set_against_itself_differs_by_exactly_nothing():
    v = load_variant("four-hand-150")
    records = played_records(v, 1500, 1, kernel_policy("heuristic"))
    got = rules_side_by_side(v, records, records, boot=20)
    assert got["resamples"] >= 15
    assert got["strong"]["a"]["estimate"] == got["heuristic"]["a"]["estimate"]
    for k in ("a", "b"):
        assert got["difference"][k]["estimate"] == 0 and got["difference"][k]["ci95"] == [0.0, 0.0]
        lo, hi = got["heuristic"][k]["ci95"]
        assert lo <= got["heuristic"][k]["estimate"] <= hi
    assert "| difference | 0.0 [0.0, 0.0]" in markdown(got)
