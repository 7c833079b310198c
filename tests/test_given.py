"""Odds given the cards I hold (``odds --hold``, ``--want``): the conditioned deal, its exact values
and the command.

The exact values are checked against brute-force enumeration on a small deck, and the simulated ones
against the exact values within 4.5 standard errors (fixed seeds: deterministic)."""

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from simcore.answers.exact import event_probability, event_probability_given, widow_holds_probability
from simcore.answers.given import given_odds, places
from simcore.cards import N_TYPES, parse_hand
from simcore.cli import main
from simcore.kernels.deal import deal_given_into
from simcore.kernels.events import CATALOGUE, event_arrays, hand_has_event
from simcore.kernels.rng import chunk_states
from simcore.variants import load_variant


def _cards(counts):
    return [t for t in range(N_TYPES) for _ in range(int(counts[t]))]


def test_the_conditioned_deal_keeps_the_given_cards_and_deals_the_rest():
    v = load_variant("four-hand-150")
    given = parse_hand("QS JD AH AH")
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), v.deck_copies - given)
    hands, widow = np.zeros((4, N_TYPES), dtype=np.uint8), np.zeros(N_TYPES, dtype=np.uint8)
    state = chunk_states(5, [0])[0]
    for _ in range(200):
        deal_given_into(state, rest, 4, 12, given, 0, hands, widow)
        assert (hands[0] >= given).all() and (hands.sum(axis=1) == 12).all() and widow.sum() == 0
        assert (hands.sum(axis=0) + widow == v.deck_copies).all()


def test_exact_given_matches_brute_force_on_a_small_deck():
    # a 24-card deck (A, K and Q, two copies, four suits); I hold AS; hands of 6: enumerate every hand
    v = load_variant("four-hand-150", ['deck.ranks=["A","K","Q"]', "deal.hand_size=6"])
    given = parse_hand("AS")
    pool = v.deck_copies - given
    cards = _cards(pool)
    for name in ("aces-around", "no-aces", "double-aces", "marriage", "roundhouse"):
        event = CATALOGUE[name]
        kinds, a, b = event_arrays([event])
        for base, h in ((given, 5), (np.zeros(N_TYPES, dtype=np.uint8), 6)):
            hits = total = 0
            for pick in itertools.combinations(range(len(cards)), h):
                hand = base.copy()
                for i in pick:
                    hand[cards[i]] += 1
                hits += hand_has_event(hand, kinds[0], a[0], b[0], 0)
                total += 1
            exact = event_probability_given(event, tuple(int(x) for x in pool), tuple(int(x) for x in base), h)
            assert exact == Fraction(hits, total), (name, h)
    # with nothing held and a whole hand, it is the unconditioned value
    full = load_variant("four-hand-150")
    assert event_probability_given(
        CATALOGUE["pinochle"], tuple(int(x) for x in full.deck_copies), (0,) * N_TYPES, 12
    ) == event_probability(full, CATALOGUE["pinochle"])


def test_wanted_cards_in_the_widow_by_hand():
    # auction: 48 cards, I hold 15; the widow is 3 of the 33 unseen cards. Holding one AS, the other AS is
    # in the widow with chance 3/33; both copies of KH (I hold none): 1 - P(none) - P(exactly one)
    v = load_variant("auction")
    held = parse_hand("AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD")
    pool = tuple(int(x) for x in v.deck_copies - held)
    assert widow_holds_probability(pool, tuple(parse_hand("AS")), 3) == Fraction(3, 33)
    p_none, p_one = Fraction(math.comb(31, 3), math.comb(33, 3)), Fraction(2 * math.comb(31, 2), math.comb(33, 3))
    assert widow_holds_probability(pool, tuple(parse_hand("KH")), 3) == 1 - p_none
    assert widow_holds_probability(pool, tuple(parse_hand("KH KH")), 3) == 1 - p_none - p_one


def test_simulated_places_agree_with_exact_within_4_5_se():
    v = load_variant("four-hand-150")
    events = [CATALOGUE[n] for n in ("pinochle", "aces-around", "marriage")]
    result = given_odds(v, events, parse_hand("QS JD AS"), 400_000, 11)
    checked = 0
    for event, by_place in result.events:
        assert set(by_place) == set(places(v)) == {"me", "partner", "left", "right", "any_other", "table"}
        for place, o in by_place.items():
            if o.exact is not None and 0 < o.exact < 1:
                p = float(o.exact)
                se = math.sqrt(p * (1 - p) / result.deals)
                assert abs(o.estimate.estimate - p) < 4.5 * se, (event.name, place)
                checked += 1
    assert checked >= 9
    # I hold a pinochle: a fact for me, certain for the table
    pin = dict(result.events)[events[0]]
    assert pin["me"].exact == 1 and pin["table"].exact == 1


def test_a_complete_hand_is_a_fact():
    v = load_variant("four-hand-150")
    hand = parse_hand("AS 10S KS QS JS 9S AH KH QH JD JD 9C")
    result = given_odds(v, [CATALOGUE["pinochle"], CATALOGUE["double-pinochle"]], hand, 4000, 1)
    pin, double = (dict(result.events)[CATALOGUE[n]]["me"] for n in ("pinochle", "double-pinochle"))
    assert pin.fact and pin.exact == 1 and double.fact and double.exact == 0


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_hold_and_want(capsys):
    code, out, _ = _cli(
        capsys,
        "odds",
        "pinochle",
        "--variant",
        "auction",
        "--hold",
        "QS JD",
        "--want",
        "AS",
        "--hands",
        "30000",
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["hold"] == "QS  JD"
    given = doc["events"][0]["given"]
    assert set(given) == {"me", "left", "right", "any_other", "table", "widow"}  # no partner in auction
    assert given["me"]["exact"] == 1.0 and given["widow"]["exact"] is not None
    # 46 unseen cards hold both AS: the widow of 3 misses them with chance C(44, 3) / C(46, 3)
    assert doc["want"]["widow_exact"] == pytest.approx(1 - math.comb(44, 3) / math.comb(46, 3))
    code, out, _ = _cli(capsys, "odds", "aces-around", "--hold", "AS AH", "--hands", "20000")
    assert code == 0 and "partner" in out and "exact" in out and "estimated" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--hold", "AS AS AS"], "--hold 'AS AS AS': the hand holds 3 × AS but the deck has only 2"),
        (["--variant", "double-deck", "--hold", "9S"], "--hold '9S': the hand holds 1 × 9S but the deck has none"),
        (["--hold", "AS AS 10S 10S KS KS QS QS JS JS 9S 9S AH"], "13 cards, but a hand holds 12"),
        (["--hold", "XX"], "--hold 'XX'"),
        (["--want", "AS"], "four-hand-150 deals no widow"),
        (["--variant", "auction", "--hold", "AS AS", "--want", "AS"], "--want 'AS'"),
        (["--variant", "auction", "--want", "AS KS QS JS"], "4 cards, but the widow holds 3"),
    ],
)
def test_cli_refuses_impossible_cards_in_one_line(capsys, argv, message):
    code, out, err = _cli(capsys, "odds", "pinochle", *argv, "--hands", "1000")
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err
