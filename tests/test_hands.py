"""Full hands: policies, seeds and threads, rule overrides, statistics of play; the invariants of every
record of every shipped system are in tests/test_conformance.py."""

import numba
import numpy as np
import pytest

from simcore.answers.simulate import simulate
from simcore.kernels import hand_record as h
from simcore.kernels.compiled import hand_rules
from simcore.kernels.hand_drivers import free_deal, hands_batch, seat_margins, trace_hand
from simcore.kernels.policies import PolicyError, parse_policies
from simcore.variants import load_variant


def records(vid, hands, seed, policy, overrides=()):
    """Play hands through the kernel and return the raw records (int64[hands, N_FIELDS])."""
    from simcore.kernels.rng import chunk_states

    v = load_variant(vid, list(overrides))
    out = np.zeros((hands, h.N_FIELDS), dtype=np.int64)
    hands_batch(
        chunk_states(seed, [0]),
        np.array([hands]),
        np.array([0]),
        v.tables,
        hand_rules(v),
        parse_policies(policy, v.players),
        seat_margins(v, None),
        *free_deal(v.tables),
        out,
    )
    return v, out


def test_the_heuristic_bids_higher_and_makes_more_than_random_play():
    v = load_variant("four-hand-150")
    smart = simulate(v, 40_000, 3, parse_policies("heuristic", 4))
    rand = simulate(v, 40_000, 3, parse_policies("random", 4))
    assert smart.means()["bid"].lo > rand.means()["bid"].hi
    assert smart.means()["side_score"].lo > rand.means()["side_score"].hi
    # the heuristic side against random opponents takes more trick points than random against random
    mixed = simulate(v, 40_000, 3, parse_policies("heuristic,random,heuristic,random", 4))
    assert mixed.means()["side_tricks"].estimate != rand.means()["side_tricks"].estimate


def test_same_seed_same_hands_whatever_the_thread_count():
    v = load_variant("double-deck")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(v, 70_000, 5, parse_policies("heuristic", 4))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = simulate(v, 70_000, 5, parse_policies("heuristic", 4))
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.tally, two.tally)


def test_random_play_on_a_symmetric_deal_splits_trick_points_evenly():
    # random bids, a random trump, no pass and the dealer's left leading: nothing favours the bidding
    # side, so the two sides' mean trick points agree within 4.5 standard errors of the difference
    v, rec = records(
        "four-hand-150",
        60_000,
        seed=21,
        policy="random",
        overrides=["exchange.pass_cards=0", 'play.lead="dealer_left"'],
    )
    diff = rec[:, h.F_SIDE_TRICKS] - rec[:, h.F_OTHER_TRICKS]
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    assert abs(diff.mean()) < 4.5 * se


def test_the_turned_trump_card_favours_the_dealers_side():
    # partnership: the turned card is the dealer's, so his side holds more trump and wins more
    v, rec = records("partnership", 20_000, seed=21, policy="random")
    dealer_side = rec[:, h.F_OTHER_TRICKS] - rec[:, h.F_SIDE_TRICKS]  # side 1 = seats 0 and 2
    assert dealer_side.mean() > 4.5 * dealer_side.std(ddof=1) / np.sqrt(len(dealer_side))


def test_policies_are_checked():
    assert parse_policies("heuristic,random,basic,random", 4).tolist() == [2, 0, 1, 0]
    assert parse_policies(None, 3).tolist() == [2, 2, 2]  # heuristic, the default
    with pytest.raises(PolicyError, match="'smart' is not a policy"):
        parse_policies("smart", 4)
    with pytest.raises(PolicyError, match="3 policies given for 4 seats"):
        parse_policies("random,random,random", 4)


def test_simulate_writes_one_parquet_row_per_hand(tmp_path):
    import pandas as pd

    v = load_variant("four-hand-150")
    out = tmp_path / "hands.parquet"
    result = simulate(v, 5000, 1, parse_policies("heuristic", 4), out=out)
    frame = pd.read_parquet(out)
    assert len(frame) == result.hands == 5000 and list(frame.columns) == list(h.FIELDS)
    assert frame["bid"].mean() == pytest.approx(result.means()["bid"].estimate)


def test_odd_tables_cannot_sit_partners_across():
    from simcore.variants import RulesError

    with pytest.raises(RulesError, match="even number of players"):
        load_variant("four-hand-150", ["deal.players=3", "deal.hand_size=16"])


def test_bid_odds_tables_count_every_bidding_hand():
    from simcore.answers.bidodds import bid_odds

    v = load_variant("four-hand-150")
    result = bid_odds(v, 20_000, 2, parse_policies("heuristic", 4))
    sim = simulate(v, 20_000, 2, parse_policies("heuristic", 4))
    made_rate = sim.rates()["made"].estimate
    for name, table in result.tables().items():
        assert list(table.columns) == [name, "hands", "made", "p_make", "lo", "hi"]
        assert table["hands"].sum() == 20_000  # every hand of four-hand-150 has a bidder
        assert table["made"].sum() / 20_000 == pytest.approx(made_rate)  # same hands, same seed
        assert ((table["lo"] <= table["p_make"]) & (table["p_make"] <= table["hi"])).all()
    by_trump = result.table("trump_length").set_index("trump_length")
    # long trump makes more often than short trump (a monotone trend the heuristic must show)
    assert by_trump.loc[8, "p_make"] > by_trump.loc[5, "p_make"]


WIDOW_SHARED = ["deal.hand_size=11", "deal.widow=4", "deal.widow_kind=widow", "exchange.widow_shared=true"]


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_a_shared_widow_gives_every_player_one_card_and_is_refereed(policy):
    from simcore.reference.hand import referee

    v = load_variant("partnership-auction", WIDOW_SHARED)
    for seed in range(60):
        rec, trace = trace_hand(v, seed, parse_policies(policy, 4))
        shares = [(a, b) for code, a, b, c in trace.tolist() if code == h.T_SHARE]
        bidder = int(rec[h.F_BIDDER])
        assert [a for a, _ in shares][:2] == [bidder, (bidder + 2) % 4]  # own pick, then partner's
        assert sorted(a for a, _ in shares) == [0, 1, 2, 3]
        assert referee(v, trace.tolist()) == dict(zip(h.FIELDS, rec.tolist()))
        plays = sum(1 for code, *_ in trace.tolist() if code == h.T_PLAY)
        assert plays in (0, 48)  # 11 dealt + 1 shared out = 12 tricks of 4


def test_the_heuristic_keeps_the_widow_card_that_makes_meld():
    from simcore.cards import parse_hand
    from simcore.kernels.policies import HEURISTIC, widow_order

    v = load_variant("partnership-auction")
    # spades trump; the bidder holds A 10 K Q of spades: the jack of spades completes the run (150
    # instead of a 40 royal marriage), the jack of diamonds makes a pinochle only with a queen of
    # spades he has (40); the nine of clubs adds nothing
    hand = parse_hand("AS TS KS QS 9H 9H JH KD KC QC TH")
    widow = parse_hand("9C JD JS AH")
    order = widow_order(hand, widow, 0, HEURISTIC, v.tables, np.zeros(4, dtype=np.uint64))
    names = [int(t) for t in order]
    from simcore.cards import parse_card

    assert names[0] == parse_card("JS") and names[1] == parse_card("JD")
    assert names[-1] == parse_card("9C")
    assert hand.sum() == 11  # the hand is left as it was


def test_minimum_meld_to_play_and_to_count():
    from simcore.reference.hand import referee

    # nobody holds 10,000 meld: every hand whose bidder can name trump is set without play, scoring
    # minus the bid
    v, rec = records("double-deck", 2000, seed=3, policy="heuristic", overrides=["scoring.min_meld_to_play=10000"])
    assert np.all((rec[:, h.F_OUTCOME] == h.SET_WITHOUT_PLAY) | (rec[:, h.F_OUTCOME] == h.NO_TRUMP_MARRIAGE))
    assert (rec[:, h.F_OUTCOME] == h.SET_WITHOUT_PLAY).mean() > 0.9
    assert np.all(rec[:, h.F_SIDE_SCORE] == -rec[:, h.F_BID])
    # seeds/003: 20 meld to play and to count, 20 trick points to save meld
    v = load_variant(
        "double-deck", ["scoring.min_meld_to_play=20", "scoring.min_meld_to_count=20", "scoring.save_meld=points"]
    )
    set_early = 0
    for seed in range(150):
        rec, trace = trace_hand(v, seed, parse_policies("random", 4))
        assert referee(v, trace.tolist()) == dict(zip(h.FIELDS, rec.tolist()))
        set_early += rec[h.F_OUTCOME] == h.SET_WITHOUT_PLAY
        if rec[h.F_OUTCOME] == h.SET_WITHOUT_PLAY:
            assert rec[h.F_SIDE_MELD] < 20
            # the other side's meld counts only from 20
            assert rec[h.F_OTHER_SCORE] == (rec[h.F_OTHER_MELD] if rec[h.F_OTHER_MELD] >= 20 else 0)
    assert set_early > 0


def test_boston_counts_the_hands_where_the_bidding_side_took_every_trick_point(tmp_path):
    import pandas as pd

    v = load_variant("double-deck")
    out = tmp_path / "hands.parquet"
    result = simulate(v, 20_000, 5, parse_policies("heuristic", 4), out=out)
    frame = pd.read_parquet(out)
    boston = ((frame["outcome"] == h.PLAYED) & (frame["side_tricks"] == v.trick_total)).sum()
    assert boston > 0
    assert result.rates()["boston"].estimate == pytest.approx(boston / (frame["bidder"] >= 0).sum())


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_eight_players_in_two_alternating_teams_of_four(policy):
    # six-eight-partnership with eight: 12 cards each from 96, every trick point to one team or the
    # other, and the plain referee agrees with every hand
    from simcore.reference.hand import referee

    overrides = ["deal.players=8", "deal.hand_size=12"]
    v, rec = records("six-eight-partnership", 2000, seed=3, policy=policy, overrides=overrides)
    assert v.players == 8 and v.trick_total == 490
    assert np.all(rec[:, h.F_SIDE_TRICKS] + rec[:, h.F_OTHER_TRICKS] == 490)
    # no bidder: neither team is favoured much, but for the dix exchange, which gives the dealer's turned
    # trump to the first player with a dix (from the dealer's left, so most often the other team)
    _, plain = records(
        "six-eight-partnership", 2000, seed=3, policy=policy, overrides=overrides + ["exchange.dix_for_turned=false"]
    )
    assert abs(plain[:, h.F_SIDE_TRICKS].mean() - 245) < 5
    assert rec[:, h.F_SIDE_TRICKS].mean() > plain[:, h.F_SIDE_TRICKS].mean()
    policies = parse_policies(policy, 8)
    for seed in range(40):
        one, trace = trace_hand(v, seed, policies)
        assert referee(v, trace.tolist()) == dict(zip(h.FIELDS, one.tolist()))
