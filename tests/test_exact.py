"""Exact odds against brute-force enumeration of every hand of small decks, and basic identities."""

import hashlib
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import pytest

from simcore.answers.exact import OUT_OF_REACH, deal_probability, event_probability, meld_distribution, per_deal_exact
from simcore.cards import N_TYPES
from simcore.kernels.events import CATALOGUE, hand_has_event, parse_event
from simcore.reference.meld import reference_total
from simcore.variants import load_variant

SMALL_DECKS = {  # dealing only: no cards pass at tables of eight
    # 32 cards, two of each: pinochles, marriages, kings around, nines
    "kqj9": [
        'deck.ranks=["K","Q","J","9"]',
        "deck.copies=2",
        "deal.players=8",
        "deal.hand_size=4",
        "exchange.pass_cards=0",
    ],
    # 20 cards, one of each: runs are possible in a 5-card hand
    "run": ['deck.ranks=["A","10","K","Q","J"]', "deck.copies=1", "deal.players=4", "deal.hand_size=5"],
    # 32 cards, two of each, hands of 4: aces and jacks around, double pinochle
    "akqj": [
        'deck.ranks=["A","K","Q","J"]',
        "deck.copies=2",
        "deal.players=8",
        "deal.hand_size=4",
        "exchange.pass_cards=0",
    ],
}


def all_hands(variant):
    """Every distinct hand (copy-count vector) with the number of ways to draw it."""
    copies = variant.deck_copies
    types = [t for t in range(N_TYPES) if copies[t]]
    h = variant.hand_size

    def rec(i, left, hand, ways):
        if left == 0:
            yield hand.copy(), ways
            return
        if i == len(types):
            return
        t = types[i]
        for k in range(min(left, copies[t]) + 1):
            hand[t] = k
            yield from rec(i + 1, left - k, hand, ways * comb(int(copies[t]), k))
        hand[t] = 0

    return list(rec(0, h, np.zeros(N_TYPES, dtype=np.uint8), 1))


@pytest.fixture(scope="module", params=sorted(SMALL_DECKS))
def small(request):
    variant = load_variant("four-hand-150", SMALL_DECKS[request.param])
    hands = all_hands(variant)
    assert sum(w for _, w in hands) == comb(variant.deck_size, variant.hand_size)
    return variant, hands


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_event_probability_equals_enumeration(small, name):
    variant, hands = small
    event = parse_event(name, variant)
    hits = sum(w for hand, w in hands if hand_has_event(hand, event.kind, event.a, event.b, 0))
    assert event_probability(variant, event) == Fraction(hits, comb(variant.deck_size, variant.hand_size))


def test_redeal_rule_with_nines_equals_enumeration():
    rule = load_variant("four-hand-150", SMALL_DECKS["kqj9"] + ["redeal.min_nines=2"])
    event = parse_event("redeal", rule)
    assert (event.a, event.b) == (2, 1)
    hits = sum(w for hand, w in all_hands(rule) if hand_has_event(hand, event.kind, 2, 1, 0))
    assert hits > 0
    assert event_probability(rule, event) == Fraction(hits, comb(32, 4))


@pytest.mark.parametrize("trump", [0, 2, None])
def test_meld_distribution_equals_enumeration(small, trump):
    variant, hands = small
    expected: dict[int, int] = {}
    for hand, w in hands:
        totals = [reference_total(hand, t, variant) for t in range(4)]
        pts = max(totals) if trump is None else totals[trump]
        expected[pts] = expected.get(pts, 0) + w
    assert meld_distribution(variant, trump) == dict(sorted(expected.items()))


def test_meld_at_least_uses_the_best_trump_distribution(small):
    variant, hands = small
    event = parse_event("meld>=6", variant)
    hits = sum(w for hand, w in hands if max(reference_total(hand, t, variant) for t in range(4)) >= 6)
    assert event_probability(variant, event) == Fraction(hits, comb(variant.deck_size, variant.hand_size))


def test_full_deck_distributions_count_every_hand():
    for vid in ("four-hand-150", "four-pass", "double-deck"):
        v = load_variant(vid)
        assert sum(meld_distribution(v, 1).values()) == comb(v.deck_size, v.hand_size)


def test_known_single_deck_values():
    v = load_variant("four-hand-150")
    # double pinochle: both Q♠ and both J♦ among 12 of 48 cards
    assert event_probability(v, parse_event("double-pinochle", v)) == Fraction(comb(44, 8), comb(48, 12))
    # no aces: 12 cards from the 40 non-aces
    assert event_probability(v, parse_event("no-aces", v)) == Fraction(comb(40, 12), comb(48, 12))
    # five or more of the eight nines
    five = sum(comb(8, k) * comb(40, 12 - k) for k in range(5, 9))
    assert event_probability(v, parse_event("five-nines", v)) == Fraction(five, comb(48, 12))


def test_per_deal_equals_players_times_per_hand_where_two_hands_cannot_share():
    v = load_variant("four-hand-150")
    for name in ("double-pinochle", "five-nines", "double-aces", "double-jacks"):
        e = parse_event(name, v)
        p = event_probability(v, e)
        assert deal_probability(v, e) == per_deal_exact(v, e, p) == 4 * p
    for name in ("pinochle", "aces-around", "no-aces"):  # two hands can share these: less than 4p
        e = parse_event(name, v)
        assert 0 < deal_probability(v, e) < 4 * event_probability(v, e)


def test_per_deal_is_out_of_reach_for_events_of_many_card_types():
    v = load_variant("four-hand-150")
    for name in ("run", "double-run", "no-meld", "meld>=20"):
        e = parse_event(name, v)
        assert deal_probability(v, e) is None and e.kind in OUT_OF_REACH
        assert per_deal_exact(v, e, event_probability(v, e)) is None
    dd = load_variant("double-deck")  # K and Q of every suit from four copies: (4 + 1) ** 8 states
    for name in ("marriage", "roundhouse"):
        e = parse_event(name, dd)
        assert deal_probability(dd, e) is None and e.kind in OUT_OF_REACH
        assert deal_probability(v, parse_event(name, v)) is not None
    # five of the eight nines and no meld: two hands cannot both have it, so it stays exact
    redeal = parse_event("redeal", v)
    assert (redeal.a, redeal.b) == (5, 1)
    assert deal_probability(v, redeal) == 4 * event_probability(v, redeal)
    four = load_variant("four-hand-150", ["redeal.min_nines=4"])  # two hands can share 4 of 8 nines
    assert deal_probability(four, parse_event("redeal", four)) is None


TINY_DEALS = {  # three hands of 4 from 16 cards, 4 left over; or two hands of 8
    "kq": [
        'deck.ranks=["K","Q"]',
        "deck.copies=2",
        "deal.players=3",
        "deal.hand_size=4",
        "deal.widow=4",
        "deal.widow_kind=widow",
        "teams.kind=bidder_alone",
        "exchange.pass_cards=0",
    ],
    "kq8": [
        'deck.ranks=["K","Q"]',
        "deck.copies=2",
        "deal.players=2",
        "deal.hand_size=8",
        "teams.kind=bidder_alone",
        "exchange.pass_cards=0",
    ],
    "qj": [
        'deck.ranks=["Q","J"]',
        "deck.copies=2",
        "deal.players=3",
        "deal.hand_size=4",
        "deal.widow=4",
        "deal.widow_kind=widow",
        "teams.kind=bidder_alone",
        "exchange.pass_cards=0",
    ],
    "a9": [
        'deck.ranks=["A","9"]',
        "deck.copies=2",
        "deal.players=3",
        "deal.hand_size=4",
        "deal.widow=4",
        "deal.widow_kind=widow",
        "teams.kind=bidder_alone",
        "exchange.pass_cards=0",
        "redeal.min_nines=3",
        "redeal.require_no_meld=false",
    ],
}


@cache
def _hands_from(copies: tuple[int, ...], h: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every hand of h cards from ``copies`` with its number of ways."""
    if h == 0:
        return (((0,) * len(copies), 1),)
    if not copies:
        return ()
    return tuple(
        ((k,) + rest, comb(copies[0], k) * ways)
        for k in range(min(h, copies[0]) + 1)
        for rest, ways in _hands_from(copies[1:], h - k)
    )


def _deals_missing(copies: tuple[int, ...], h: int, hands: int, holds, memo: dict) -> int:
    """Brute force: ordered ways to deal ``hands`` hands of h from ``copies`` with no hand holding."""
    if hands == 0:
        return 1
    if (copies, hands) not in memo:
        memo[copies, hands] = sum(
            ways * _deals_missing(tuple(c - k for c, k in zip(copies, hand)), h, hands - 1, holds, memo)
            for hand, ways in _hands_from(copies, h)
            if not holds(hand)
        )
    return memo[copies, hands]


@pytest.mark.parametrize("deck", sorted(TINY_DEALS))
def test_per_deal_probability_equals_enumeration_of_every_deal(deck):
    v = load_variant("four-hand-150", TINY_DEALS[deck])
    types = [t for t in range(N_TYPES) if v.deck_copies[t]]
    copies = tuple(int(v.deck_copies[t]) for t in types)
    h, n = v.hand_size, v.deck_size
    checked = 0
    for name in list(CATALOGUE):
        event = parse_event(name, v)
        if deal_probability(v, event) is None:
            continue
        seen: dict = {}

        def holds(hand, e=event, seen=seen):
            if hand not in seen:
                full = np.zeros(N_TYPES, dtype=np.uint8)
                full[types] = hand
                seen[hand] = bool(hand_has_event(full, e.kind, e.a, e.b, 0))
            return seen[hand]

        memo: dict = {}
        for hands in (v.players, 2):  # the table, and a partnership of two seats
            missing = _deals_missing(copies, h, hands, holds, memo)
            total = 1
            for i in range(hands):
                total *= comb(n - i * h, h)
            assert deal_probability(v, event, hands) == 1 - Fraction(missing, total), (name, hands)
        checked += 1
    assert checked >= 6


def test_events_the_deck_cannot_hold_have_probability_zero():
    dd = load_variant("double-deck")
    assert event_probability(dd, parse_event("five-nines", dd)) == 0
    assert event_probability(dd, parse_event("redeal", dd)) == 0


def _digest(dist: dict[int, int]) -> str:
    return hashlib.sha256(repr(sorted(dist.items())).encode()).hexdigest()[:16]


# sha256 of sorted({points: hands}.items()), computed by the Python-integer method this module used
# before the modular kernels (120 cards: 460 s for the best trump then, seconds now)
PYTHON_INTEGER_DIGESTS = {
    ("four-hand-150", None): "17aca8f14744a9a2",
    ("double-deck", 2): "5b988d5e10d45b8c",
    ("six-hand-triple-pack", None): "9bfad1c6ef4291f3",
}


@pytest.mark.parametrize("vid, trump", sorted(PYTHON_INTEGER_DIGESTS, key=str))
def test_meld_distribution_equals_the_python_integer_method(vid, trump):
    v = load_variant(vid)
    dist = meld_distribution(v, trump)
    assert sum(dist.values()) == comb(v.deck_size, v.hand_size)
    assert _digest(dist) == PYTHON_INTEGER_DIGESTS[vid, trump]


def test_primes_carry_every_allowed_deck():
    from simcore.answers.exact import _ROOT_ORDERS, PRIMES, _primes_for, _root

    for p in PRIMES:
        assert p < 2**26 and all(p % f for f in range(2, int(p**0.5) + 1))
        assert (p - 1) % max(_ROOT_ORDERS) == 0
        assert pow(_root(p, 60), 30, p) == p - 1  # a primitive 60th root
    assert len(_primes_for(comb(192, 60))) <= len(PRIMES)
    assert len(_primes_for(comb(120, 20))) == 3
