"""``pinochle advise``: the set-contract deal and play, against the referee, exact odds and bad input."""

from __future__ import annotations

import json
from itertools import product
from math import comb

import numpy as np
import pytest

from simcore import api
from simcore.answers.advise import advise
from simcore.cards import N_TYPES, parse_hand
from simcore.cli import main
from simcore.kernels import hand_record as h
from simcore.kernels.condition import NO_CONDITION
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.policies import parse_policies
from simcore.reference.hand import referee
from simcore.variants import load_variant, shipped_ids

ALL_SPADES = "AS AS 10S 10S KS KS QS QS JS JS 9S 9S"
BID_SYSTEMS = [i for i in shipped_ids() if load_variant(i).get("auction.kind") != "none"]


def _set_deal(variant, hand: np.ndarray, seat: int):
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), variant.deck_copies - hand)
    return rest, hand, np.array([seat, variant.lowest_contract], dtype=np.int64), NO_CONDITION


@pytest.mark.parametrize("vid", BID_SYSTEMS)
def test_a_set_contract_is_dealt_around_the_hand_and_refereed(vid):
    """In every system with bidding, a hand played with a set contract deals the given cards to the
    given seat, makes that seat the bidder at the lowest contract with no bids, and the reference
    referee, told the contract, recomputes the kernel's record from the trace."""
    v = load_variant(vid)
    seat = v.players - 1
    rng = np.random.default_rng(7)
    policies = parse_policies("heuristic", v.players)
    for seed in range(1, 9):
        deck = np.repeat(np.arange(N_TYPES), v.deck_copies)
        hand = np.bincount(rng.choice(deck, v.hand_size - 2, replace=False), minlength=N_TYPES).astype(np.uint8)
        rec, trace = trace_hand(v, seed, policies, deal=_set_deal(v, hand, seat))
        dealt = np.zeros(N_TYPES, dtype=np.int64)
        for code, a, b, c in trace:
            if code == h.T_DEAL and a == seat:
                dealt[b] += c
        assert np.all(dealt >= hand) and dealt.sum() == v.hand_size
        assert not np.any(trace[:, 0] == h.T_BID)
        assert (rec[h.F_BIDDER], rec[h.F_BID]) == (seat, v.lowest_contract)
        expected = referee(v, trace.tolist(), contract=(seat, v.lowest_contract))
        assert [expected[f] for f in h.FIELDS] == rec.tolist()


def _partner_marriages_at_least(m: int) -> float:
    """P(a 12-card hand drawn from the 36 cards of hearts, diamonds and clubs holds at least ``m``
    marriages, a suit's two kings and two queens making two), counted by hand over each suit's kings
    and queens."""
    good = 0
    for ks in product(range(3), repeat=3):
        for qs in product(range(3), repeat=3):
            n = sum(ks) + sum(qs)
            if n > 12 or sum(min(k, q) for k, q in zip(ks, qs)) < m:
                continue
            ways = comb(24, 12 - n)
            for k, q in zip(ks, qs):
                ways *= comb(2, k) * comb(2, q)
            good += ways
    return good / comb(36, 12)


def test_every_spade_makes_its_meld_every_trick_and_partners_marriages():
    """partnership-auction, seat 2 holding all twelve spades: it names spades, leads a trump to every
    trick and takes all of them (250 points with the last trick), so its side totals its own meld (a
    double run 1500 and two dixes, 1520), the 250 trick points and 20 for each marriage its partner,
    who holds no spade, melds. P(make 1770 + 20 m) is then P(partner holds m marriages), counted exactly
    by hand; the estimate over 3000 deals (seed 5) lies within 4.5 standard errors of it."""
    v = load_variant("partnership-auction")
    a = advise(v, parse_hand(ALL_SPADES), seat=2, deals=3000, seed=5)
    assert a.by_trump == (1520, 40, 40, 40) and a.named == 0 and a.named_share == {"S": 1.0}
    curve = {b: x for b, _, x in a.bids}
    assert curve[1770].estimate == 1.0 and a.played == 1.0
    assert set(curve) == {1770, 1780, 1790, 1800, 1810, 1820}  # from the last near-certain bid to the first
    for bid, x in curve.items():  # made at most 5% of the time
        p = _partner_marriages_at_least(-(-(bid - 1770) // 20))
        se = (p * (1 - p) / a.deals) ** 0.5
        assert abs(x.estimate - p) <= 4.5 * se, (bid, x, p)
    assert [s.bid for s in a.highest] == [1790, 1770]  # P(>=1 marriage) = 0.695, P(>=2) = 0.219


def test_advise_cli_text_json_and_the_api(capsys):
    """The text names the seat, the meld and the bids; --json is strict and carries the curve; the API
    gives one row per bid; the same seed gives the same numbers."""
    argv = [
        "advise",
        "AS AS 10S KS QS JS 9S AH KH QH AD JD",
        "--variant",
        "auction",
        "--hands",
        "600",
        "--seed",
        "3",
        "--no-store",
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "seat 0 (the dealer's left, who opens) holds" in text and "and 3 more at random" in text
    assert "meld by trump: S 220" in text and "highest bid made in 50% of deals" in text
    assert main(argv + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == 600 and doc["meld"]["named_trump"] == "S"
    assert doc["bids"] and all(0 <= b["make"]["estimate"] <= 1 for b in doc["bids"])
    estimates = [b["make"]["estimate"] for b in doc["bids"]]
    assert estimates == sorted(estimates, reverse=True)  # a higher bid is never made more often
    frame = api.advise("AS AS 10S KS QS JS 9S AH KH QH AD JD", "auction", hands=600, seed=3)
    assert list(frame["bid"]) == [b["bid"] for b in doc["bids"]]
    assert np.allclose(frame["estimate"], estimates)


@pytest.mark.parametrize("vid", ["four-hand-150", "auction", "five-hand-called-card", "double-deck"])
def test_a_given_trump_is_named_in_every_deal_and_refereed(vid):
    """A set contract that names its trump: the bidder names it whatever the deal (after the widow where
    the rules name trump then), and the referee, told the contract, recomputes the kernel's record."""
    v = load_variant(vid)
    seat = v.players - 1
    hand = parse_hand("AS AS KS QS KH QH KD QD KC QC")  # a marriage in every suit, for double-deck's rule
    policies = parse_policies("heuristic", v.players)
    rest, given, contract, accept = _set_deal(v, hand, seat)
    for trump in range(4):
        for seed in range(1, 4):
            deal = (rest.copy(), given, np.array([*contract, trump], dtype=np.int64), accept)
            rec, trace = trace_hand(v, seed, policies, deal=deal)
            assert rec[h.F_TRUMP] == trump
            expected = referee(v, trace.tolist(), contract=(seat, v.lowest_contract))
            assert [expected[f] for f in h.FIELDS] == rec.tolist()


def test_advise_with_a_given_trump():
    """The heuristic's own trump given changes nothing; another suit is named in every deal and is
    worth less with this hand; a suit the rules do not let the hand name is refused."""
    from simcore.answers.advise import AdviseError

    v = load_variant("partnership-auction")
    hand = parse_hand("AS AS 10S KS QS JS AH KH QH AD JD 9C")
    free = advise(v, hand, 0, deals=500, seed=2)
    assert free.named == 0 and free.given_trump is None
    same = advise(v, hand, 0, deals=500, seed=2, trump=0)
    assert same.bids == free.bids and same.total == free.total and same.given_trump == 0
    hearts = advise(v, hand, 0, deals=500, seed=2, trump=1)
    assert hearts.named_share == {"H": 1.0} and hearts.total.hi < free.total.lo
    dd = load_variant("double-deck")
    with pytest.raises(AdviseError, match="none in C"):
        advise(dd, parse_hand("AS AS KS QS AH KH QH AD KD QD AC AC"), 0, deals=10, trump=3)
    frame = api.advise("AS AS 10S KS QS JS AH KH QH AD JD 9C", "partnership-auction", hands=500, seed=2, trump="h")
    assert set(frame["given_trump"]) == {"H"}
    with pytest.raises(ValueError, match="trump='Z'"):
        api.advise("AS AS 10S KS QS JS AH KH QH AD JD 9C", "partnership-auction", hands=10, trump="Z")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["advise", "AS AS KS QS", "--variant", "double-deck", "--trump", "H"], "--trump H"),
        (["advise", "AS AS KS QS", "--trump", "spades"], "--trump 'spades': give a suit"),
        (["advise", "AS AS KS QS", "--trump", "S", "--play", "strong"], "not taken with --play"),
        (["advise", "AS AS KS QS", "--trump", "S", "--auction", "pass"], "not taken with --auction"),
        (["advise", "AS KS", "--variant", "partnership"], "no auction"),
        (["advise", "AS KS", "--seat", "4"], "--seat 4"),
        (["advise", "AS AS AS"], "AS"),
        (["advise", "AS 9S", "--variant", "double-deck"], "9S"),
        (["advise", "AS AS 10S 10S KS KS QS QS JS JS 9S 9S AH"], "13 cards"),
        (["advise", "XS"], "XS"),
    ],
)
def test_advise_refuses_bad_input_in_one_line(capsys, argv, words):
    assert main(argv + ["--hands", "10", "--no-store"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err and "Traceback" not in err


def test_the_bid_table_holds_the_bids_it_advises_when_thinned():
    from simcore.answers.advise import bids_around, highest_share
    from simcore.run.stats import wilson

    # 41 bids from 60 to 100, made less often as they rise: thinned to 20 rows, which step past some bids
    n = 1000
    curve = [(b, m, wilson(m, n)) for b, m in zip(range(60, 101), range(1000, 0, -23))]
    highest = [highest_share(curve, s).bid for s in (0.5, 0.75)]
    even = [b for b, _, _ in bids_around(curve)]
    kept = [b for b, _, _ in bids_around(curve, keep=tuple(highest))]
    assert len(even) == 20 and not set(highest) <= set(even)  # the case of the issue: the headline bid dropped
    assert set(highest) <= set(kept) and set(even) <= set(kept) and kept == sorted(kept)
