"""``pinochle advise HAND --auction``: the given calls against the referee, the model's own call against
the free model auction, a hand whose answer is clear, and bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from simcore import api
from simcore.answers.bidodds import bid_odds
from simcore.answers.conditioned import check_condition
from simcore.answers.mid_auction import advise_in_auction, candidate_calls, model_limit
from simcore.answers.partner_meld import partner_meld
from simcore.answers.simulate import hand_rows
from simcore.cards import N_TYPES, parse_hand
from simcore.cli import main
from simcore.kernels import hand_record as h
from simcore.kernels.auction_condition import Turns, auction_condition, condition_rows, read_auction, read_calls
from simcore.kernels.compiled import hand_rules, kernel_rules
from simcore.kernels.condition import NO_CONDITION
from simcore.kernels.hand import next_bid
from simcore.kernels.hand_drivers import seat_margins, trace_hand
from simcore.kernels.policies import parse_policies
from simcore.kernels.rng import chunk_states
from simcore.reference.hand import referee
from simcore.variants import load_variant, shipped_ids

BID_SYSTEMS = [i for i in shipped_ids() if load_variant(i).get("auction.kind") != "none"]
STRONG = "AS 10S KS QS JS AH KH QH AD JD 9C 9C"
WEAK_AUCTION = "9S 9S JS 9H 9H JH 9D 9D JD 9C 10C JC 10D 10H 10S"


def _deal(variant, hand, contract, accept=NO_CONDITION):
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), variant.deck_copies - hand)
    return rest, hand, np.asarray(contract, dtype=np.int64), accept


def _random_hand(variant, rng) -> np.ndarray:
    deck = np.repeat(np.arange(N_TYPES), variant.deck_copies)
    return np.bincount(rng.choice(deck, variant.hand_size, replace=False), minlength=N_TYPES).astype(np.uint8)


@pytest.mark.parametrize("vid", BID_SYSTEMS)
def test_given_calls_are_made_as_given_and_refereed(vid):
    """In every system with bidding, the auction's first calls given (an opening at the minimum, then a
    jump of two steps where the rules let the next seat bid) are made as given, whatever the hands;
    the model makes the calls after them; and the referee, told the calls, recomputes the kernel's
    record and every seat's score line from the trace."""
    v = load_variant(vid)
    rng = np.random.default_rng(11)
    policies = parse_policies("heuristic", v.players)
    turns = Turns(v)
    calls = []
    for _ in range(2):
        if turns.next_seat() is None:
            break
        bid = turns.lowest if not calls else int(next_bid(next_bid(turns.lowest, hand_rules(v)), hand_rules(v)))
        if turns.high == 0 and hand_rules(v).max_opening > 0:
            bid = min(bid, int(hand_rules(v).max_opening))
        calls.append((turns.seat, bid))
        turns.call(bid)
    seat = turns.next_seat()
    if seat is None:
        seat = calls[-1][0]
    for seed in range(1, 6):
        hand = _random_hand(v, rng)
        contract = (seat, 0, *(b for _, b in calls))
        rec, trace, lines = trace_hand(v, seed, policies, deal=_deal(v, hand, contract), with_seats=True)
        bids = [(int(p), int(b)) for code, p, b, _ in trace if code == h.T_BID]
        assert bids[: len(calls)] == calls
        expected, expected_lines = referee(v, trace.tolist(), seats=True, contract=contract)
        assert [expected[f] for f in h.FIELDS] == rec.tolist()
        assert list(expected_lines) == lines.tolist()


def test_a_hand_passed_out_after_the_given_calls_is_thrown_in():
    """Where everybody passing redeals (double-pack), a hand the given calls pass out is thrown in: no
    bidder, nobody scores, not dealt again; the referee agrees."""
    v = load_variant("double-pack")
    hand = _random_hand(v, np.random.default_rng(3))
    contract = (v.players - 1, 0, *[0] * v.players)
    rec, trace, lines = trace_hand(
        v, 1, parse_policies("heuristic", v.players), deal=_deal(v, hand, contract), with_seats=True
    )
    assert rec[h.F_BIDDER] == -1 and rec[h.F_REDEALS] == 0 and not lines.any()
    expected, expected_lines = referee(v, trace.tolist(), seats=True, contract=contract)
    assert [expected[f] for f in h.FIELDS] == rec.tolist() and list(expected_lines) == [0] * v.players


@pytest.mark.parametrize(
    ("vid", "hand", "auction"),
    [("four-hand-150", STRONG, "20 21"), ("double-deck", None, "pass 50")],
)
def test_the_models_own_call_continues_as_the_free_model_auction(vid, hand, auction):
    """Dealt the same deals (my hand fixed, the others conditioned on the calls so far), giving the
    calls so far and then the call the model itself would make gives, hand for hand, the records of
    the model's own auction from the start: the calls so far are what the model made, and its
    continuation is the model's."""
    v = load_variant(vid)
    cards = _random_hand(v, np.random.default_rng(5)) if hand is None else parse_hand(hand)
    calls, turns = read_calls(v, auction)
    me = turns.next_seat()
    condition = auction_condition(v, auction, calls, skip=me)
    limit = model_limit(v, cards)
    want = turns.lowest
    model = want if limit is not None and limit >= want else 0
    policies = parse_policies("heuristic", v.players)
    accept = condition_rows(v, condition)
    states = chunk_states(9, np.arange(2))
    sizes, chunks = np.array([300, 300]), np.arange(2)
    free = hand_rows(
        kernel_rules(v), policies, seat_margins(v, None), states, sizes, chunks, _deal(v, cards, (me, 0), accept)
    )
    given = hand_rows(
        kernel_rules(v),
        policies,
        seat_margins(v, None),
        states,
        sizes,
        chunks,
        _deal(v, cards, (me, 0, *(c.bid for c in calls), model), accept),
    )
    assert np.array_equal(free, given)
    assert len(set(free[:, h.F_BIDDER])) > 1  # the hands went different ways


def test_the_acceptance_matches_the_free_model_auction_around_my_hand():
    """The share of deals (my hand fixed) that meet the auction's condition is the share of hands in
    which the model's own auction, my hand dealt to me, opens with those calls."""
    v = load_variant("double-deck")
    cards = _random_hand(v, np.random.default_rng(5))
    calls, turns = read_calls(v, "pass 50")
    me = turns.next_seat()
    acceptance = check_condition(v, auction_condition(v, "pass 50", calls, skip=me), cards, me, 3)
    policies = parse_policies("heuristic", v.players)
    n, hits = 2_000, 0
    for seed in range(n):
        _, trace = trace_hand(v, seed, policies, deal=_deal(v, cards, (me, 0)))
        bids = [(int(p), int(b)) for code, p, b, _ in trace if code == h.T_BID][:2]
        hits += bids == [(0, 0), (1, 50)]
    p1, p2 = acceptance.accepted / acceptance.tried, hits / n
    se = math.sqrt(p2 * (1 - p2) / n + p1 * (1 - p1) / acceptance.tried)
    assert 0.01 < p2 < 0.99 and abs(p1 - p2) < 4.5 * se, (p1, p2)


def test_a_hand_too_weak_to_bid_should_pass():
    """Auction pinochle (three players, the bidder alone against two, forced opening 300): with nines,
    jacks and tens and no meld to speak of, bidding 310 over the opening is set nearly every time it
    stands, so passing is best by score and by margin; passing never gets the contract (no partner)."""
    v = load_variant("auction")
    a = advise_in_auction(v, parse_hand(WEAK_AUCTION), "300", deals=600)
    assert a.seat == 1 and a.lowest == 310 and a.limit is not None and a.limit < 310
    assert [c.call for c in a.calls] == [0, 310]
    passing, bidding = a.calls
    assert passing.ours.estimate == 0 and bidding.ours.estimate > 0.2
    assert bidding.made.hi < 0.1
    assert a.calls[a.best_score] is passing and a.calls[a.best_margin] is passing
    assert passing.score.lo > bidding.score.hi
    assert a.score_ties == (0,) and a.margin_ties == (0,)  # told apart on these deals


def test_the_bids_offered_run_from_the_lowest_to_the_limit():
    v = load_variant("four-pass")
    hand = parse_hand("AS 10S KS QS JS AH KH QH AD JD 9C 9C")
    assert candidate_calls(v, hand, 270, False, 300) == [0, 270, 280, 290, 300]
    assert candidate_calls(v, hand, 270, False, 200) == [0, 270]  # at least the lowest
    check = load_variant("check")  # a bid needs a marriage
    assert candidate_calls(check, parse_hand("AS 10S KS JS AH 10H KH JH AD 10D AC 10C"), 210, False, 400) == [0]


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_advise_auction(capsys):
    code, out, _ = _cli(capsys, "advise", WEAK_AUCTION, "--variant", "auction", "--auction", "300", "--hands", "300")
    assert code == 0, out
    assert "seat 1 to call (lowest bid 310" in out and "it holds under the model bidders" in out
    assert "best expected score: pass" in out
    code, out, _ = _cli(capsys, "advise", STRONG, "--auction", "20 21", "--hands", "200", "--json")
    doc = json.loads(out)
    assert doc["seat"] == 2 and doc["calls"][0]["call"] == "pass" and doc["calls"][1]["call"] == "22"
    assert doc["condition"]["given"] == "seat 0: limit>=20; seat 1: limit>=21"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--auction", "20 19"], "--auction call 2 '19': below the minimum bid 20"),
        (["--auction", "20 21", "--seat", "1"], "it is seat 2's turn to call, not seat 1's"),
        (["--variant", "four-pass", "--auction", "pass 260 pass pass"], "the auction is over"),
        (["--auction", "20", "--policy", "random"], "--policy 'random': with an auction so far every seat bids"),
        (["--variant", "partnership", "--auction", "pass"], "has no auction"),
    ],
)
def test_cli_advise_auction_bad_input(capsys, argv, message):
    code, _, err = _cli(capsys, "advise", STRONG, *argv, "--hands", "100")
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_cli_advise_auction_of_another_scale_says_how_the_system_counts(capsys):
    # 250 is a partnership-auction bid; on four-hand-150's single points no model bidder reaches it
    code, _, err = _cli(capsys, "advise", STRONG, "--auction", "250", "--hands", "100")
    assert code == 2 and err.count("\n") == 1, err
    assert "--auction 'seat 0: limit>=250': no deal of 200,000 met it" in err
    assert err.rstrip().endswith(
        "(four-hand-150 counts in single points: 25 trick points a hand, bids from 20 by 1, a game to 150)"
    ), err


def test_cli_advise_auction_needs_the_whole_hand(capsys):
    code, _, err = _cli(capsys, "advise", "AS 10S KS", "--auction", "20", "--hands", "100")
    assert code == 2 and "needs the whole hand (12 cards), got 3" in err and err.count("\n") == 1, err


def test_api_advise_auction():
    frame = api.advise(WEAK_AUCTION, "auction", hands=300, auction="300")
    assert list(frame["call"]) == ["pass", "310"] and frame.attrs["best_score"] == "pass"
    with pytest.raises(ValueError, match="^auction= call 1 'pass'"):
        api.advise(WEAK_AUCTION, "auction", hands=300, auction="pass")


def test_partners_meld_after_the_auction_is_its_posterior():
    """In double-deck, partner (seat 0) passing at the start of the auction holds less meld than an
    unconditioned partner: the posterior's interval lies wholly below the prior's."""
    v = load_variant("double-deck")
    hand = parse_hand("AS AS 10S 10S KS KS QS QS JS JS AH AH KH KH QH QH AD AD JD JD")
    a = advise_in_auction(v, hand, "pass 50", deals=200)
    after = a.partner_meld
    before = partner_meld(v, hand, 2, 0)
    assert after is not None and after.trump == before.trump == 0
    assert after.mean.hi < before.mean.lo


def test_bid_odds_after_the_models_own_calls_is_the_conditioned_free_auction():
    """bid-odds --auction makes the calls as given and lets the model bid on; where the calls are the
    model's own (no jump), that is hand for hand the model's auction from the start on the deals that
    meet the auction's condition: the same tallies."""
    v = load_variant("double-deck")
    calls, condition = read_auction(v, "pass 50")
    policies = parse_policies("heuristic", v.players)
    given = bid_odds(v, 3_000, 4, policies, condition=condition, calls=(0, 50))
    free = bid_odds(v, 3_000, 4, policies, condition=condition)
    assert np.array_equal(given.tally, free.tally) and np.array_equal(given.joint, free.joint)
    assert given.tally.sum() > 0 and given.calls == (0, 50)


def test_cli_bid_odds_auction(capsys):
    code, out, _ = _cli(
        capsys,
        "bid-odds",
        "--variant",
        "double-deck",
        "--auction",
        "pass 50",
        "--hands",
        "3000",
        "--bid",
        "60",
        "--meld",
        "20",
    )
    assert code == 0 and "deals given seat 0: limit<=49; seat 1: limit>=50" in out
    assert "auction so far pass 50, made as given, the model bidding on; under the model bidders" in out
    code, _, err = _cli(capsys, "bid-odds", "--variant", "double-deck", "--auction", "pass 45", "--hands", "300")
    assert code == 2 and "--auction call 2 '45': below the minimum bid 50" in err and err.count("\n") == 1
    code, _, err = _cli(capsys, "bid-odds", "--auction", "20", "--policy", "random", "--hands", "300")
    assert code == 2 and "--policy 'random': with an auction so far" in err and err.count("\n") == 1
    frame = api.bid_odds("double-deck", hands=3_000, auction="pass 50", bid=60, meld=20)
    assert frame.attrs["acceptance"]["given"] == "seat 0: limit<=49; seat 1: limit>=50"
    with pytest.raises(ValueError, match="^auction= call 2 '45'"):
        api.bid_odds("double-deck", hands=300, auction="pass 45")
