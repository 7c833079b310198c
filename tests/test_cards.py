import numpy as np
import pytest

from simcore.cards import (
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    HandError,
    card_name,
    card_type,
    check_hand,
    format_hand,
    parse_card,
    parse_hand,
)
from simcore.variants import load_variant


def test_card_types_follow_suit_then_trick_order():
    assert card_type(0, 0) == 0 and card_name(0) == "AS"
    assert card_name(QUEEN_OF_SPADES) == "QS" and card_name(JACK_OF_DIAMONDS) == "JD"
    assert card_name(23) == "9C"


@pytest.mark.parametrize(
    "token, name",
    [
        ("AS", "AS"),
        ("10s", "10S"),
        ("TS", "10S"),
        ("t♥", "10H"),
        ("Q♠", "QS"),
        ("j♦", "JD"),
        ("9♣", "9C"),
        (" kh ", "KH"),
    ],
)
def test_parse_card_accepts_ten_as_t_symbols_and_any_case(token, name):
    assert card_name(parse_card(token)) == name


@pytest.mark.parametrize("token", ["1S", "AX", "11H", "", "ASS", "8C", "QQ"])
def test_parse_card_rejects_non_cards(token):
    with pytest.raises(HandError, match="not a card"):
        parse_card(token)


def test_parse_and_format_round_trip_groups_by_suit():
    hand = parse_hand("JD, QS 10S AS 9C 9c KH")
    assert hand.sum() == 7 and hand[parse_card("9C")] == 2
    assert format_hand(hand) == "AS 10S QS  KH  JD  9C 9C"
    assert np.array_equal(parse_hand(format_hand(hand)), hand)


def test_empty_hand_is_an_error():
    with pytest.raises(HandError, match="empty"):
        parse_hand("   ")


def test_impossible_hands_are_rejected_with_the_reason():
    single = load_variant("four-hand-150")
    with pytest.raises(HandError, match="3 × JD but the deck has only 2"):
        check_hand(parse_hand("JD JD JD AS AS KS KS QS QS JS JS 10S"), single.deck_copies, 12)
    double = load_variant("double-deck")
    with pytest.raises(HandError, match="9S but the deck has none"):
        check_hand(parse_hand("9S AS"), double.deck_copies, None)
    with pytest.raises(HandError, match="holds 3 cards; a hand in this variant holds 12"):
        check_hand(parse_hand("AS KS QS"), single.deck_copies, 12)
    check_hand(parse_hand("AS KS QS"), single.deck_copies, None)
    check_hand(parse_hand("AS KS QS"), single.deck_copies, 12, partial=True)  # part of a hand
    with pytest.raises(HandError, match="holds 13 cards; a hand in this variant holds at most 12"):
        check_hand(parse_hand("AS AS 10S 10S KS KS QS QS JS JS 9S 9S AH"), single.deck_copies, 12, partial=True)


def test_one_card_is_one_card():
    with pytest.raises(HandError, match="the hand holds 1 card; a hand in this variant holds 12"):
        check_hand(parse_hand("AS"), load_variant("four-hand-150").deck_copies, 12)
