"""The bidder from the hand's sampled value (simcore.state.bidder, simcore.answers.advise.bid_limit)."""

import pytest

from simcore.answers.advise import advise, bid_limit
from simcore.cards import parse_hand
from simcore.kernels.policies import HEURISTIC
from simcore.state import new_hand
from simcore.state.bidder import AdviseBidder, tuned_share
from simcore.state.players import kernel_policy
from simcore.variants import load_variant

HAND = "AS AS 10S KS QS JS AH KH QH AD JD 9C"


def test_the_limit_is_advise_s_highest_bid_at_the_share_and_falls_as_the_share_rises():
    v = load_variant("partnership-auction")
    hand = parse_hand(HAND)
    got = advise(v, hand, 0, deals=400, seed=3)
    for s in got.highest:  # the same deals, the same answer as `pinochle advise` prints
        assert bid_limit(v, hand, 0, s.share, 400, 3, HEURISTIC) == s.bid
    limits = [bid_limit(v, hand, 0, share, 400, 3, HEURISTIC) for share in (0.2, 0.5, 0.8, 0.95)]
    assert limits == sorted(limits, reverse=True) and limits[0] > limits[-1]
    # a hand with nothing in it is worth what its partner and a share of the tricks bring: far less
    nothing = bid_limit(v, parse_hand("9S 9S 9H 9H 9D 9D 9C 9C JC JC JH 10C"), 0, 0.8, 400, 3, HEURISTIC)
    assert 0 <= nothing < limits[2] - 100


@pytest.mark.parametrize("vid", ["partnership-auction", "four-hand-150", "double-deck"])
def test_the_bidder_bids_within_its_limit_and_leaves_everything_else_to_its_player(vid):
    v = load_variant(vid)
    bidder = AdviseBidder(deals=200)
    heuristic = kernel_policy("heuristic")
    calls = 0
    for seed in range(6):
        state = new_hand(v, seed)
        while not state.is_terminal():
            r = state.request()
            action = bidder(state)
            assert action.value in r.legal
            if r.kind == "bid":
                calls += 1
                hand = state.observation(r.seat)["hand"]
                limit = bidder.limit(v, hand, r.seat, tuned_share(v))
                assert action.value == 0 or action.value <= max(limit, min(b for b in r.legal if b))
            else:
                assert action == heuristic(state.clone())
            state.apply(action)
    assert calls >= 12


def test_cli_duel_takes_the_sampled_bids_and_the_strong_player(capsys):
    from simcore.cli import main

    assert main(["duel", "--variant", "four-hand-150", "--policy", "sampled-bids", "--hands", "4"]) == 0
    assert "sampled-bids against the heuristic" in capsys.readouterr().out
    args = ["duel", "--variant", "four-hand-150", "--policy", "strong", "--games", "1", "--samples", "2"]
    assert main(args + ["--solve-from", "2"]) == 0
    assert "strong against the heuristic" in capsys.readouterr().out
