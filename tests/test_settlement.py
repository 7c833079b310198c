"""Auction pinochle's settlement in chips (simcore.answers.settlement), worked by hand from seeds/001."""

import numpy as np
import pytest

from simcore.answers.settlement import contract_chips, settle, settle_deals
from simcore.cards import HEARTS, SPADES
from simcore.kernels import hand_record as h
from simcore.kernels.policies import parse_policies
from simcore.variants import load_variant

AUCTION = load_variant("auction")


def record(bidder: int, bid: int, trump: int, outcome: int = h.PLAYED, made: int = 1) -> np.ndarray:
    rec = np.zeros(h.N_FIELDS, dtype=np.int64)
    rec[h.F_BIDDER], rec[h.F_BID], rec[h.F_TRUMP] = bidder, bid, trump
    rec[h.F_OUTCOME], rec[h.F_MADE] = outcome, made
    return rec


def test_the_schedule_by_bracket_and_spades_double():
    bids = np.array([300, 340, 349, 350, 440, 450, 599, 600, 1000])
    assert contract_chips(AUCTION, bids, np.full(9, HEARTS)).tolist() == [3, 3, 3, 5, 10, 15, 25, 30, 30]
    assert contract_chips(AUCTION, bids[:2], np.full(2, SPADES)).tolist() == [6, 6]


@pytest.mark.parametrize(
    "rec, chips",
    [
        # made at 350 in hearts: 5 from each opponent and from the kitty (350 or more)
        (record(1, 350, HEARTS), [-5, 15, -5, -5]),
        # made at 300: the kitty stays out below 350
        (record(0, 300, HEARTS), [6, -3, -3, 0]),
        # played and lost at 400 in spades: a double bete, twice 20 to each opponent and to the kitty
        (record(2, 400, SPADES, made=0), [40, 40, -120, 40]),
        # conceded after the widow at 300 in spades: a single bete, 6 to each opponent
        (record(0, 300, SPADES, h.CONCEDED, 0), [-12, 6, 6, 0]),
    ],
)
def test_one_deal_settled_by_hand(rec, chips):
    assert settle(AUCTION, rec[None, :])[0].tolist() == chips


def test_people_sitting_out_settle_like_opponents():
    four = load_variant("auction", ["settlement.people=4"])
    assert settle(four, record(1, 350, HEARTS)[None, :])[0].tolist() == [-5, 20, -5, -5, -5]


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_chips_add_to_zero_and_the_opener_pays_for_the_forced_bid(policy):
    result = settle_deals(AUCTION, 20_000, 3, parse_policies(policy, 3))
    assert np.all(result.chips.sum(axis=1) == 0)
    rates = result.rates()
    assert abs(sum(iv.estimate for iv in rates.values()) - 1) < 1e-12
    means = result.means()
    # the dealer's left must open at 300 and so bids (and loses) most often
    assert means["active seat 0 (dealer's left, opens)"].hi < means["active seat 1"].lo


def test_games_settles_auction_deals_in_chips(capsys):
    import json

    from simcore.cli import main

    assert main(["games", "--variant", "auction", "--games", "3000", "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "3,000 deals, each a game settled in chips, 3 people" in out and "kitty" in out
    assert main(["games", "--variant", "auction", "--games", "3000", "--set", "settlement.people=5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["people"] == 5 and "sitting out 2" in data["chips_per_deal"]
