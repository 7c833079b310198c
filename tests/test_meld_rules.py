"""Meld rules on hands worked out by hand from the rule documents (seeds/ 000–004).

Each case checks the kernel's total, its breakdown and the reference scorer, which must all agree.
"""

import numpy as np
import pytest

from simcore.cards import SUITS, parse_hand
from simcore.kernels.meld import N_NAMED, NAMED_MELDS, meld_breakdown, meld_by_trump
from simcore.reference.meld import reference_meld
from simcore.variants import load_variant


def score(vid, hand_text, trump, overrides=()):
    """(total, {meld: count}) under trump, after checking kernel, breakdown and reference agree."""
    v = load_variant(vid, list(overrides))
    hand = parse_hand(hand_text)
    t = SUITS.index(trump)
    totals = np.zeros(4, dtype=np.int64)
    meld_by_trump(hand, v.meld_table, v.meld_flags, totals)
    counts, points = np.zeros(N_NAMED, dtype=np.int64), np.zeros(N_NAMED, dtype=np.int64)
    total = meld_breakdown(hand, t, v.meld_table, v.meld_flags, counts, points)
    ref = reference_meld(hand, t, v)
    assert total == totals[t] == sum(p for _, p in ref.values())
    assert {k: (int(c), int(p)) for k, c, p in zip(NAMED_MELDS, counts, points)} == ref
    return int(total), {k: int(c) for k, c in zip(NAMED_MELDS, counts) if c}


def test_trump_run_does_not_also_score_its_royal_marriage():
    # seeds/000: "except for a Trump Run ... the Trump King and Trump Queen may not be used again"
    assert score("four-hand-150", "AS 10S KS QS JS", "S") == (15, {"run": 1})


def test_a_run_that_also_scores_its_royal_marriage():
    # the peer's rule the architecture issue names: "scores the run's K-Q as a royal marriage too (run 150 + 40)"
    on = ["meld.run_scores_royal=true"]
    assert score("partnership-auction", "AS 10S KS QS JS", "S", on) == (190, {"run": 1, "royal_marriage": 1})
    # a second K-Q beside the run is still the extra marriage (40), not a third royal
    assert score("partnership-auction", "AS 10S KS KS QS QS JS", "S", on) == (
        230,
        {"run": 1, "run_extra_marriage": 1, "royal_marriage": 1},
    )
    # two runs hold two royal marriages: the double run and the double royal marriage
    total, melds = score("double-deck", "AS AS 10S 10S KS KS QS QS JS JS", "S", on)
    assert melds == {"run": 2, "royal_marriage": 2}
    v = load_variant("double-deck")
    assert total == v.meld_value("run", 2) + v.meld_value("royal_marriage", 2)
    # the value of the run itself is unchanged, so the heuristic's valuation sees 150 and 40, not 190
    assert load_variant("partnership-auction", on).meld_value("run", 1) == 150


def test_a_king_and_two_queens_are_one_marriage():
    # seeds/003: "a king and two queens does not count as two marriages"
    assert score("double-deck", "KS QS QS", "H") == (2, {"marriage": 1})
    assert score("four-hand-150", "KS KS QS", "H") == (2, {"marriage": 1})


def test_one_card_serves_melds_of_different_classes():
    # seeds/003: the Q♠ may be part of a marriage, a pinochle and a set of queens at once
    total, melds = score("four-hand-150", "KS QS JD QH QD QC", "C")
    assert total == 2 + 4 + 6 and melds == {"marriage": 1, "pinochle": 1, "queens_around": 1}
    assert score("four-hand-150", "KS QS JD QH QD QC", "S")[0] == 4 + 4 + 6


def test_dix_counts_each_nine_of_trump_only():
    assert score("four-hand-150", "9S 9S AH", "S") == (2, {"dix": 2})
    assert score("four-hand-150", "9S 9S AH", "H") == (0, {})
    assert score("two-hand", "9D KC", "D") == (10, {"dix": 1})


def test_double_pinochle_is_one_meld_of_its_own_value():
    assert score("four-hand-150", "QS QS JD JD", "H") == (30, {"pinochle": 2})
    assert score("draw-pinochle", "QS QS JD JD", "H")[0] == 30
    assert score("four-pass", "QS QS JD JD", "H")[0] == 3000  # seeds/002, sic


def test_four_pass_run_conventions():
    # seeds/002: bare run 150, with extra K 190, extra Q 190, extra marriage 230, double run 1500
    assert score("four-pass", "AH 10H KH QH JH", "H")[0] == 150
    assert score("four-pass", "AH 10H KH KH QH JH", "H") == (190, {"run": 1, "run_extra_king": 1})
    assert score("four-pass", "AH 10H KH QH QH JH", "H") == (190, {"run": 1, "run_extra_queen": 1})
    assert score("four-pass", "AH 10H KH KH QH QH JH", "H") == (230, {"run": 1, "run_extra_marriage": 1})
    assert score("four-pass", "AH AH 10H 10H KH KH QH QH JH JH", "H") == (1500, {"run": 2})


def test_standard_convention_counts_an_extra_trump_marriage_beside_the_run():
    # an extra K-Q beside a run is a royal marriage of its own; a lone extra K is nothing
    assert score("four-hand-150", "AH 10H KH KH QH QH JH", "H")[0] == 15 + 4
    assert score("four-hand-150", "AH 10H KH KH QH JH", "H")[0] == 15


def test_toby_thomas_run_with_extra_marriages():
    # seeds/004: "A-10-K-K-Q-Q-J is worth 45 points (15 + 30)"; "A-10-K-K-K-Q-Q-Q-J is worth 75 points
    # (15 + 60)"; "A-A-10-10-K-K-K-Q-Q-Q-J-J is worth 210 points (150 + 60)": the extra marriage scores
    # once per run beside it (meld.run_extra_marriage_per_run), 180 without that key
    toby = ["meld.run_extra_marriage=30", "meld.run_extra_marriage_per_run=true"]
    assert score("double-deck", "AH 10H KH KH QH QH JH", "H", toby)[0] == 45
    assert score("double-deck", "AH 10H KH KH KH QH QH QH JH", "H", toby)[0] == 75
    assert score("double-deck", "AH AH 10H 10H KH KH KH QH QH QH JH JH", "H", toby)[0] == 210
    assert score("double-deck", "AH AH 10H 10H KH KH KH QH QH QH JH JH", "H", toby[:1])[0] == 180


def test_double_deck_roundhouse_is_24_or_20_beside_a_run():
    # seeds/003: "Round House - a marriage of each suit counts 24 (with a run only counts 20)"
    total, melds = score("double-deck", "KS QS KH QH KD QD KC QC", "C")
    assert total == 24 and melds["roundhouse"] == 1 and melds["kings_around"] == 1
    assert score("double-deck", "KS QS KH QH KD QD KC QC AC 10C JC", "C")[0] == 15 + 20


def test_marriages_around_on_the_ten_point_scale_is_240():
    # seeds/004: "Marriages around – K and Q in each suit – 24 or 240 points"
    assert score("ok-pinochle", "KS QS KH QH KD QD KC QC", "S")[0] == 240


def test_double_deck_runs_single_to_quadruple():
    run = "AS 10S KS QS JS "
    for times, points in ((1, 15), (2, 150), (3, 300), (4, 600)):
        assert score("double-deck", run * times, "S") == (points, {"run": times})


def test_runs_or_trump_marriages_take_the_better():
    # seeds/000 Version 2: "marriages or runs ... unless you have a double run, use multiple marriages"
    assert score("five-hand-universal", "AH 10H KH KH QH QH JH", "H") == (300, {"royal_marriage": 2})
    assert score("five-hand-universal", "AH AH 10H 10H KH KH QH QH JH JH", "H") == (1500, {"run": 2})
    assert score("five-hand-universal", "AH 10H KH QH JH", "H") == (150, {"run": 1})


def test_twenty_aces_in_the_triple_pack():
    # seeds/001: "twenty aces ... the value would be 2,500 (1,500 for triple aces plus 1,000)"
    aces = " ".join(["AS AH AD AC"] * 5)
    assert score("six-hand-triple-pack", aces, "S") == (2500, {"aces_around": 5})


def test_shore_and_michigan_double_pinochle():
    # seeds/000 Version 4: double pinochle 8 under Shore rules, 20 under Michigan rules
    assert score("five-hand-ace-partner", "QS QS JD JD", "H")[0] == 8
    assert score("five-hand-ace-partner", "QS QS JD JD", "H", ["meld.double_pinochle=20"])[0] == 20


def test_best_trump_is_the_highest_total_lowest_suit_on_ties():
    v = load_variant("four-hand-150")
    totals = np.zeros(4, dtype=np.int64)
    hand = parse_hand("AD 10D KD QD JD KC QC")
    assert meld_by_trump(hand, v.meld_table, v.meld_flags, totals) == 2
    assert totals.tolist() == [4, 4, 17, 6]
    assert meld_by_trump(parse_hand("KS QS KH QH"), v.meld_table, v.meld_flags, totals) == 0


@pytest.mark.parametrize("vid", ["four-hand-150", "double-deck", "six-hand-triple-pack"])
def test_a_hand_without_meld_scores_zero(vid):
    assert score(vid, "AS 10S 10H JC", "D") == (0, {})


def shown(vid, hand_text, trump):
    from simcore.cards import card_name
    from simcore.reference.meld import shown_cards

    counts = shown_cards(parse_hand(hand_text), SUITS.index(trump), load_variant(vid))
    return sorted(card_name(t) for t in range(len(counts)) for _ in range(counts[t]))


def test_the_cards_shown_for_a_meld_are_the_cards_it_needs_once_per_class():
    # seeds/003: a card serves melds of different classes, so the A♠ of the run and of aces around, and
    # the Q♠ of the run and of the pinochle, are laid down once; the K♣ without its queen and the second
    # Q♠ meld nothing and stay hidden
    hand = "AS 10S KS QS JS 9S QS JD AH AD AC KC"
    assert shown("four-hand-150", hand, "S") == sorted("AS 10S KS QS JS 9S JD AH AD AC".split())
    # in hearts the spades are a plain marriage whose Q♠ is also the pinochle's: one Q♠ shows, no dix
    assert shown("four-hand-150", hand, "H") == sorted("KS QS JD AS AH AD AC".split())
    # within a class the melds' cards add up: two royal marriages show both pairs
    assert shown("four-hand-150", "KH QH KH QH 9C", "H") == sorted("KH KH QH QH".split())
    # a king and two queens are one marriage: one queen stays hidden
    assert shown("double-deck", "KS QS QS", "H") == ["KS", "QS"]


@pytest.mark.parametrize("vid", ["four-hand-150", "partnership-auction", "double-deck", "two-hand", "check"])
def test_the_cards_shown_score_the_whole_meld_and_none_is_spare(vid):
    # on dealt hands: the cards laid down score what the hand scores, and without any one of them less
    from conftest import dealt_hands

    from simcore.reference.meld import reference_total, shown_cards

    v = load_variant(vid)
    for i, hand in enumerate(dealt_hands(v, 150, seed=3)):
        trump = i % 4
        laid = shown_cards(hand, trump, v)
        assert all(0 <= a <= b for a, b in zip(laid, hand))
        whole = reference_total(hand, trump, v)
        assert reference_total(laid, trump, v) == whole
        for t in range(len(laid)):
            if laid[t]:
                fewer = list(laid)
                fewer[t] -= 1
                assert reference_total(fewer, trump, v) < whole
