"""The bidder from the hand's sampled value (simcore.strong.bidder, simcore.answers.advise.bid_limit)."""

import pytest

from simcore.answers.advise import advise, bid_limit
from simcore.cards import parse_card, parse_hand
from simcore.kernels.policies import HEURISTIC
from simcore.state import new_hand
from simcore.state.players import kernel_policy
from simcore.strong.bidder import AdviseBidder, tuned_share
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
    assert main(["duel", "--variant", "four-hand-150", "--policy", "sampled-trump", "--hands", "4"]) == 0
    assert "sampled-trump against the heuristic" in capsys.readouterr().out
    assert main(["duel", "--variant", "auction", "--policy", "sampled-exchange", "--hands", "4"]) == 0
    assert "sampled-exchange against the heuristic" in capsys.readouterr().out
    args = ["duel", "--variant", "four-hand-150", "--policy", "strong", "--games", "1", "--samples", "2"]
    assert main(args + ["--solve-from", "2"]) == 0
    assert "strong against the heuristic" in capsys.readouterr().out


def _keyed_rows(v, given, seat, contract, deals=60, seed=5):
    """The hand kernel's records and seat lines of ``deals`` keyed deals, ``seat`` holding ``given``."""
    import numpy as np

    from simcore.cards import N_TYPES
    from simcore.kernels.compiled import kernel_rules
    from simcore.kernels.condition import NO_CONDITION
    from simcore.kernels.hand import Deal
    from simcore.kernels.hand_drivers import keyed_hands_batch
    from simcore.kernels.hand_record import N_FIELDS
    from simcore.kernels.rng import stream_key

    rules = kernel_rules(v)
    widow = given[N_TYPES:] if given.shape[0] > N_TYPES else 0  # a widow given beside the hand
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), v.deck_copies - given[:N_TYPES] - widow)
    out = np.zeros((deals, N_FIELDS + v.players), dtype=np.int64)
    deal = Deal(rest, given, np.array(contract, dtype=np.int64), NO_CONDITION.copy())
    policies, margins = np.full(v.players, HEURISTIC, dtype=np.int64), np.zeros(v.players)
    one = np.zeros(1, dtype=np.int64)
    sizes = np.array([deals])
    keyed_hands_batch(stream_key(seed), one, sizes, one, rules.tables, rules.hand, policies, margins, out, deal)
    return out


@pytest.mark.parametrize("vid", ["partnership-auction", "four-hand-150"])
def test_a_set_contract_names_the_trump_it_is_given_and_changes_nothing_else(vid):
    import numpy as np

    from simcore.answers.advise import trump_choice
    from simcore.kernels.hand_record import F_BIDDER_MELD, F_TRUMP

    v = load_variant(vid)
    hand = parse_hand(HAND)
    by_trump, named = trump_choice(v, hand)
    bid = v.lowest_contract
    free = _keyed_rows(v, hand, 1, [1, bid])
    assert (free[:, F_TRUMP] == named).all()
    # the heuristic's own trump, given: the same hands, card for card and point for point
    assert np.array_equal(_keyed_rows(v, hand, 1, [1, bid, named]), free)
    for trump in range(4):
        rows = _keyed_rows(v, hand, 1, [1, bid, trump])
        assert (rows[:, F_TRUMP] == trump).all() and (rows[:, F_BIDDER_MELD] == by_trump[trump]).all()


@pytest.mark.parametrize("vid", ["four-hand-150", "four-pass"])
def test_a_set_contract_may_seat_its_bidder_apart_and_give_the_partner_s_pass(vid):
    """The given hand at the partner's seat (1), the bidder across (3): the heuristic's own pass, given,
    changes nothing; another pass is the one passed in every deal, and the referee, reading the trace,
    recomputes the kernel's record."""
    import numpy as np

    from simcore.answers.advise import pass_values
    from simcore.kernels import hand_record as h
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.kernels.policies import parse_policies
    from simcore.reference.hand import referee
    from simcore.strong.bidder import heuristic_pass

    v = load_variant(vid)
    hand = parse_hand("AS AS KS QS KH QH KD QD KC QC JS 9S")
    n, bid, trump = v.get("exchange.pass_cards"), v.lowest_contract, 1
    own = heuristic_pass(v, hand, trump)
    free = _keyed_rows(v, hand, 1, [1, bid, trump, 3])
    assert (free[:, h.F_BIDDER] == 3).all() and (free[:, h.F_TRUMP] == trump).all()
    assert np.array_equal(_keyed_rows(v, hand, 1, [1, bid, trump, 3, *own]), free)
    other = sorted(own)[1:] + [next(t for t in range(24) if hand[t] and t not in own)]
    assert len(other) == n and other != sorted(own)
    rest = np.repeat(np.arange(24, dtype=np.uint8), v.deck_copies - hand)
    from simcore.kernels.condition import NO_CONDITION

    for seed in range(1, 4):
        deal = (rest.copy(), hand, np.array([1, bid, trump, 3, *other], dtype=np.int64), NO_CONDITION.copy())
        rec, trace = trace_hand(v, seed, parse_policies("heuristic", v.players), deal=deal)
        passed = sorted(
            t for code, giver, t, copies in trace.tolist() if code == h.T_PASS and giver == 1 for _ in range(copies)
        )
        assert passed == sorted(other)
        expected = referee(v, trace.tolist(), contract=(3, bid))
        assert [expected[f] for f in h.FIELDS] == rec.tolist()
    values = pass_values(v, hand, 1, 3, bid, trump, [tuple(own), tuple(other)], 60, 5)
    lines = free[:, h.N_FIELDS :]
    assert values[tuple(own)] == pytest.approx(float(np.mean(lines[:, 1] - lines[:, [0, 2]].mean(axis=1))))


def test_trump_values_weigh_each_trump_on_the_same_deals_by_the_sides_lines():
    import numpy as np

    from simcore.answers.advise import trump_values
    from simcore.kernels.hand_record import N_FIELDS

    v = load_variant("four-hand-150")
    hand = parse_hand(HAND)
    values = trump_values(v, hand, 1, 30, [0, 1, 3], 60, 5)
    assert set(values) == {0, 1, 3}
    for trump, value in values.items():  # seat 1's side (1, 3) less the other (0, 2)
        lines = _keyed_rows(v, hand, 1, [1, 30, trump])[:, N_FIELDS:]
        assert value == pytest.approx(float(np.mean(lines[:, 1] - lines[:, [0, 2]].mean(axis=1))))
    # six spades with the aces and a double marriage's makings: spades by a wide margin, clubs (one nine) worst
    assert values[0] > values[1] + 5 > values[3] + 5


@pytest.mark.parametrize("vid", ["partnership-auction", "auction", "five-hand-called-card"])
def test_the_trump_chooser_names_the_best_weighed_trump_and_leaves_everything_else_to_its_player(vid):
    from simcore.strong.bidder import AdviseTrump, weighs_trump

    v = load_variant(vid)
    chooser = AdviseTrump(deals=100, after_widow=True)
    heuristic = kernel_policy("heuristic")
    named = changed = 0
    for seed in range(24):
        state = new_hand(v, seed)
        while not state.is_terminal():
            r = state.request()
            action = chooser(state)
            mine = heuristic(state.clone())
            assert action.value in r.legal
            if r.kind == "trump" and weighs_trump(v, after_widow=True) and len([t for t in r.legal if t >= 0]) > 1:
                seen = state.observation(r.seat)
                trumps = [t for t in r.legal if t >= 0]
                values = chooser.values(v, seen["hand"], r.seat, seen["bid"], trumps, None, seen["widow"])
                # the widow he took is held in his hand, and the widow holds it in every deal weighed
                assert (seen["widow"] is not None) == (vid == "auction")
                assert values[action.value] == max(values.values())
                named += 1
                changed += action != mine
            else:
                assert action == mine
            state.apply(action)
    # partnership-auction, the called partner's system and, asked to, the widow system (trump named after
    # the widow is taken, the widow then held in every deal) weigh their trumps, the first two not always
    # as the heuristic names them (in the widow system a lone bidder's meld decides: its heuristic trump
    # was the best in all of these hands)
    assert weighs_trump(v, after_widow=True)
    assert weighs_trump(v) == (vid != "auction")
    assert named >= 6 and (changed >= 1 or vid == "auction")


@pytest.mark.parametrize("vid", ["four-hand-150", "auction", "partnership-auction", "five-hand-widow"])
def test_the_exchange_chooser_gives_the_best_weighed_cards_and_leaves_the_rest_to_its_player(vid):
    from simcore.strong.bidder import (
        AdviseExchange,
        heuristic_burial,
        heuristic_pass,
        one_card_away,
        weighs_burial,
        weighs_pass,
    )

    v = load_variant(vid)
    chooser = AdviseExchange(deals=100)
    heuristic = kernel_policy("heuristic")
    weighed, changed = {"pass": 0, "return": 0, "bury": 0}, 0
    for seed in range(24):
        state = new_hand(v, seed)
        giving = None  # (seat and kind, the chooser's values, the heuristic's cards, the cards given so far)
        while not state.is_terminal():
            r = state.request()
            action = chooser(state)
            mine = heuristic(state.clone())
            assert action.value in r.legal
            if r.kind in ("give", "bury") and (giving is None or giving[0] != (r.seat, r.kind)):
                seen = state.observation(r.seat)
                hand, trump = parse_hand(" ".join(seen["hand"])), "SHDC".index(seen["trump"])
                if r.kind == "bury":
                    what, own = "bury", heuristic_burial(v, hand, trump)
                    widow = parse_hand(" ".join(seen["widow"]))
                    values = chooser.bury_values(v, hand, widow, r.seat, seen["bid"], trump, own)
                elif r.seat == seen["bidder"]:
                    what, own = "return", heuristic_pass(v, hand, trump, feeding=False)
                    passed = [parse_card(c) for who, kind, c, _ in seen["moves"] if kind == "give" and who != r.seat]
                    assert len(passed) == v.get("exchange.pass_cards")
                    values = chooser.return_values(v, hand, r.seat, seen["bid"], trump, passed, own)
                else:
                    what, own = "pass", heuristic_pass(v, hand, trump)
                    values = chooser.pass_values(v, hand, r.seat, seen["bidder"], seen["bid"], trump, own)
                assert one_card_away(hand, own)[0] == tuple(sorted(own)) and len(one_card_away(hand, own)) > 10
                assert tuple(sorted(own)) in values and len(values) == 6
                weighed[what] += 1
                giving = ((r.seat, r.kind), values, tuple(sorted(own)), [])
            if r.kind in ("give", "bury"):
                giving[3].append(action.value)
                if len(giving[3]) == len(giving[2]):
                    # the cards worth most, or the heuristic's where nothing beats them
                    chosen, values = tuple(sorted(giving[3])), giving[1]
                    assert values[chosen] == max(values.values())
                    assert chosen == giving[2] or values[chosen] > values[giving[2]]
                    changed += chosen != giving[2]
            else:
                assert action == mine
            state.apply(action)
    assert (weighs_pass(v), weighs_burial(v)) == (vid == "four-hand-150", vid in ("auction", "five-hand-widow"))
    assert not weighs_burial(load_variant("five-hand-asked-card"))  # the partner passes a card too
    # told to weigh only the return, it passes as its player does
    if weighs_pass(v):
        only = AdviseExchange(deals=100, decisions=("return",))
        state = new_hand(v, 0)
        while not state.is_terminal():
            r = state.request()
            action = only(state)
            if r.kind == "give" and r.seat != state.observation(r.seat)["bidder"]:
                assert action == heuristic(state.clone())
            state.apply(action)
    if weighs_pass(v):
        assert weighed["pass"] >= 6 and weighed["return"] >= 6 and changed >= 2
    elif weighs_burial(v):
        assert weighed["bury"] >= 6 and changed >= 1
    else:
        assert weighed == {"pass": 0, "return": 0, "bury": 0}


def test_a_set_contract_may_give_the_bidder_s_return_to_a_partner_who_holds_the_pass():
    """The bidder's return given, the partner dealt the cards he passed (a condition): both are as given
    in every deal, the referee agrees, and the heuristic's own return given changes nothing."""
    import numpy as np

    from simcore.answers.advise import contract_values, return_values
    from simcore.answers.conditioned import read_condition
    from simcore.kernels import hand_record as h
    from simcore.kernels.auction_condition import condition_rows
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.kernels.policies import parse_policies
    from simcore.reference.hand import referee
    from simcore.strong.bidder import heuristic_pass

    v = load_variant("four-hand-150")
    hand, bid, trump = parse_hand("AS AS KS QS KH QH KD QD KC QC JS 9S"), v.lowest_contract, 0
    passed = [parse_card(c) for c in ("10S", "AH", "AD")]
    holding = hand.copy()
    for t in passed:
        holding[t] += 1
    own = heuristic_pass(v, holding, trump, feeding=False)
    other = [parse_card(c) for c in ("AH", "KH", "9S")]
    holds = read_condition(v, "partner: holds 10S AH AD", 1)
    rest = np.repeat(np.arange(24, dtype=np.uint8), v.deck_copies - hand)
    for seed in range(1, 4):
        deal = (rest.copy(), hand, np.array([1, bid, trump, 1, *passed, *other]), condition_rows(v, holds))
        rec, trace = trace_hand(v, seed, parse_policies("heuristic", v.players), deal=deal)
        gave = {
            s: sorted(t for code, g, t, n in trace.tolist() if code == h.T_PASS and g == s for _ in range(n))
            for s in (1, 3)
        }
        assert gave == {3: sorted(passed), 1: sorted(other)}
        expected = referee(v, trace.tolist(), contract=(1, bid))
        assert [expected[f] for f in h.FIELDS] == rec.tolist()
    free = contract_values(v, hand, 1, {"free": [1, bid, trump, 1, *passed]}, 60, 5, condition=holds)
    given = return_values(v, hand, 1, bid, trump, passed, [tuple(own), tuple(other)], 60, 5)
    assert given[tuple(own)] == free["free"] and given[tuple(other)] != free["free"]


@pytest.mark.parametrize("vid", ["auction", "three-hand-double-pack"])
def test_a_set_contract_may_give_the_widow_and_the_burial(vid):
    """The widow given beside the bidder's hand: it holds those cards in every deal; the burial given is
    buried, the referee agrees, and the heuristic's own burial given changes nothing."""
    import numpy as np

    from simcore.answers.advise import bury_values
    from simcore.kernels import hand_record as h
    from simcore.kernels.condition import NO_CONDITION
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.kernels.policies import parse_policies
    from simcore.reference.hand import referee
    from simcore.strong.bidder import heuristic_burial

    v = load_variant(vid)
    n, seat, bid, trump = v.get("deal.widow"), 1, v.lowest_contract, 2
    dealt = np.zeros(24, dtype=np.uint8)
    deck = [t for t in range(24) for _ in range(int(v.deck_copies[t]))]
    for t in deck[: v.hand_size]:
        dealt[t] += 1
    widow = np.zeros(24, dtype=np.uint8)
    for t in deck[v.hand_size : v.hand_size + n]:
        widow[t] += 1
    own = heuristic_burial(v, dealt + widow, trump)
    other = sorted(own)[1:] + [next(t for t in range(24) if (dealt + widow)[t] > own.count(t))]
    rest = np.repeat(np.arange(24, dtype=np.uint8), v.deck_copies - dealt - widow)
    given = np.concatenate([dealt, widow])
    for seed in range(1, 4):
        deal = (rest.copy(), given, np.array([seat, bid, trump, seat, *other]), NO_CONDITION.copy())
        rec, trace = trace_hand(v, seed, parse_policies("heuristic", v.players), deal=deal)
        rows = trace.tolist()
        assert {t: c for code, s, t, c in rows if code == h.T_DEAL and s == v.players} == {
            t: int(widow[t]) for t in range(24) if widow[t]
        }
        assert sorted(t for code, s, t, c in rows if code == h.T_BURY for _ in range(c)) == sorted(other)
        expected = referee(v, rows, contract=(seat, bid))
        assert [expected[f] for f in h.FIELDS] == rec.tolist()
    free = _keyed_rows(v, given, seat, [seat, bid, trump, seat])
    assert np.array_equal(_keyed_rows(v, given, seat, [seat, bid, trump, seat, *own]), free)
    values = bury_values(v, dealt, widow, seat, bid, trump, [tuple(own), tuple(other)], 60, 5)
    lines = free[:, h.N_FIELDS :]
    assert values[tuple(own)] == pytest.approx(float(np.mean(lines[:, seat] - lines[:, [0, 2]].mean(axis=1))))


def test_the_auction_read_for_trump_is_met_by_the_real_deal_of_model_bidders():
    import numpy as np

    from simcore.cards import N_TYPES
    from simcore.kernels.auction_condition import condition_rows
    from simcore.kernels.condition import accepts
    from simcore.strong.bidder import auction_read

    v = load_variant("partnership-auction")
    heuristic = kernel_policy("heuristic")
    read = refused = 0
    for seed in range(12):
        state = new_hand(v, seed)
        while state.request().kind != "trump":
            state.apply(heuristic(state))
        seen = state.observation(state.current_player())
        condition = auction_read(v, seen)
        if condition is None:
            continue
        read += 1
        assert seen["seat"] not in {c.seats[0] for c in condition.clauses}  # his own hand is known
        hands = np.array(state.hands(), dtype=np.uint8)
        args = (v.meld_table, v.meld_flags, np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.uint64))
        rows = condition_rows(v, condition)
        assert accepts(hands, np.zeros(N_TYPES, dtype=np.uint8), v.hand_size, rows, *args)
        others = [s for s in range(v.players) if s != seen["seat"]]
        hands[others] = hands[others[::-1]]  # the other hands in other seats: some auctions rule that out
        refused += not accepts(hands, np.zeros(N_TYPES, dtype=np.uint8), v.hand_size, rows, *args)
    assert read >= 8 and refused >= 1


def test_the_trump_analysis_plays_out_only_the_changed_trumps_and_agrees_with_the_duel():
    from analyses.trump_choice import play_deals
    from simcore.strong.bidder import AdviseTrump
    from simcore.strong.duel import duel

    v = load_variant("four-hand-150")
    plays = play_deals(v, range(40), "heuristic", 200, False)
    assert len(plays.gain) == 40 and plays.named >= 40 and 1 <= plays.changed < plays.named
    # the duel plays every deal out both ways; where the trump is the same the hands are the same
    whole = duel(v, AdviseTrump(deals=200), 40, 1, "sampled-trump")
    assert sum(plays.gain) / 40 == pytest.approx(whole["difference"]["mean"])
    assert sum(g != 0 for g in plays.gain) <= plays.changed


def test_the_strong_player_passes_the_sampled_cards_unless_told_not_to():
    from simcore.strong.bidder import AdviseExchange, strong_player

    v = load_variant("four-hand-150")
    heuristic = kernel_policy("heuristic")
    strong = strong_player(samples=2, solve_from=2, exchange_deals=200)
    plain = strong_player(samples=2, solve_from=2, exchange_deals=0)
    differ = 0
    for seed in range(12):
        state = new_hand(v, seed)
        while state.request().kind != "give":
            state.apply(heuristic(state))
        sampled = AdviseExchange(deals=200)(state)
        assert strong(state) == sampled and plain(state) == heuristic(state)
        differ += sampled != heuristic(state)
    assert differ >= 1


def test_the_strong_player_names_the_sampled_trump_unless_told_not_to():
    from simcore.strong.bidder import AdviseTrump, strong_player

    v = load_variant("four-hand-150")
    heuristic = kernel_policy("heuristic")
    strong, plain = strong_player(samples=2, solve_from=2), strong_player(samples=2, solve_from=2, trump_deals=0)
    differ = 0
    for seed in range(12):
        state = new_hand(v, seed)
        while state.request().kind != "trump":
            state.apply(heuristic(state))
        sampled = AdviseTrump()(state)
        assert strong(state) == sampled and plain(state) == heuristic(state)
        differ += sampled != heuristic(state)
    assert differ >= 1
