"""The play kernel against the plain reference: legal cards on random mid-hand positions for every
combination of duties on both deck types, hand-worked tricks, and whole random playouts."""

import itertools

import numpy as np
import pytest
from conftest import dealt_hands
from numba import njit

from simcore.cards import N_TYPES, parse_card, parse_hand
from simcore.kernels.compiled import hand_rules
from simcore.kernels.deal import deal_hands
from simcore.kernels.play import HEAD_MODES, held_mask, legal_mask, random_playout, trick_winner
from simcore.kernels.rng import chunk_states
from simcore.reference.play import reference_legal, reference_playout, winning_position
from simcore.variants import load_variant

DUTY_SETS = [
    {
        "play.follow_must_head": f'"{head}"',
        "play.head_when_trumped": hwt,
        "play.void_must_trump": vt,
        "play.void_must_overtrump": vo,
    }
    for head, hwt, vt, vo in itertools.product(HEAD_MODES, ("true", "false"), ("true", "false"), ("true", "false"))
]


def with_duties(vid, duties):
    return load_variant(vid, [f"{k}={v}" for k, v in duties.items()])


def positions(variant, n, seed):
    """n random mid-trick positions: (hand, trick cards, number in trick, trump). The trick holds
    0 to players-1 cards drawn from the cards outside the hand, as they may lie mid-hand."""
    rng = np.random.default_rng(seed)
    hands = dealt_hands(variant, n, seed)
    tricks = np.zeros((n, variant.players), dtype=np.int64)
    ns = rng.integers(0, variant.players, size=n)
    trumps = rng.integers(0, 4, size=n)
    for i in range(n):
        # shrink the hand to a random later stage of the play
        left = rng.integers(1, variant.hand_size + 1)
        cards = np.repeat(np.arange(N_TYPES), hands[i])
        keep = rng.choice(cards, size=left, replace=False)
        hands[i] = np.bincount(keep, minlength=N_TYPES)
        outside = np.repeat(np.arange(N_TYPES), variant.deck_copies - hands[i])
        tricks[i, : ns[i]] = rng.choice(outside, size=ns[i], replace=False)
    return hands, tricks, ns, trumps


@njit(cache=True)
def _masks(hands, tricks, ns, trumps, rules):
    out = np.zeros(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = legal_mask(held_mask(hands[i]), tricks[i], ns[i], trumps[i], rules)
    return out


@pytest.fixture(scope="module", params=["four-hand-150", "double-deck"])
def sample(request):
    variant = load_variant(request.param)
    return request.param, positions(variant, 100_000, seed=17)


@pytest.mark.slow
@pytest.mark.parametrize("duties", DUTY_SETS, ids=lambda d: "-".join(str(v).strip('"') for v in d.values()))
def test_legal_cards_match_the_reference_on_100000_positions(sample, duties):
    vid, (hands, tricks, ns, trumps) = sample
    variant = with_duties(vid, duties)
    masks = _masks(hands, tricks, ns, trumps, hand_rules(variant))
    restricted = 0
    for i in range(len(hands)):
        ref = reference_legal(hands[i].tolist(), tricks[i, : ns[i]].tolist(), int(trumps[i]), variant)
        got = [t for t in range(N_TYPES) if (masks[i] >> t) & 1]
        assert got == ref, (i, hands[i].tolist(), tricks[i, : ns[i]].tolist(), int(trumps[i]))
        restricted += len(ref) < int((hands[i] > 0).sum())
    assert restricted > 10_000  # the duties really bite on many positions


def _legal(vid, hand, trick, trump, **duties):
    v = with_duties(
        vid,
        {
            k: v
            for k, v in {
                "play.follow_must_head": f'"{duties.get("head", "always")}"',
                "play.head_when_trumped": str(duties.get("hwt", False)).lower(),
                "play.void_must_trump": str(duties.get("vt", True)).lower(),
                "play.void_must_overtrump": str(duties.get("vo", True)).lower(),
            }.items()
        },
    )
    cards = np.array([parse_card(c) for c in trick.split()] + [0] * 4, dtype=np.int64)
    mask = legal_mask(held_mask(parse_hand(hand)), cards, len(trick.split()), "SHDC".index(trump), hand_rules(v))
    from simcore.cards import card_name

    return sorted(card_name(t) for t in range(N_TYPES) if (mask >> t) & 1)


def test_must_beat_partner_when_heading_is_always():
    # seeds/000: "all other players that follow must play a higher ranking card if possible (even if
    # it's his partner)"
    assert _legal("four-hand-150", "AC QC 9C KH", "10C KC", "S") == ["AC"]
    assert _legal("four-hand-150", "QC 9C KH", "10C KC", "S") == ["9C", "QC"]
    assert _legal("four-hand-150", "AC QC 9C KH", "10C KC", "S", head="never") == ["9C", "AC", "QC"]
    assert _legal("four-hand-150", "AC QC", "10C", "S", head="trump_led") == ["AC", "QC"]
    assert _legal("four-hand-150", "AS QS", "10S", "S", head="trump_led") == ["AS"]


def test_draw_pinochle_example_trumped_lead():
    # seeds/000 Version 3: clubs led and trumped with K♦ (diamonds trump); player 4 holding clubs
    # "can play any club he wants"; without clubs he must beat the K♦ if able, else still trump
    assert _legal("four-hand-150", "AC QC JH", "10C AC KD", "D") == ["AC", "QC"]
    assert _legal("four-hand-150", "KD JH", "10C AC KD", "D") == ["KD"]
    assert _legal("four-hand-150", "AD 9D JH", "10C AC KD", "D") == ["AD"]
    assert _legal("four-hand-150", "AC QC", "10C KD", "D", hwt=True) == ["AC"]


def test_void_players_trump_and_overtrump_as_the_duties_say():
    assert _legal("four-hand-150", "QD 9D JH", "AC KD", "D") == ["9D", "QD"]  # cannot beat K♦
    assert _legal("four-hand-150", "AD 9D JH", "AC KD", "D", vo=False) == ["9D", "AD"]
    assert _legal("four-hand-150", "AD 9D JH", "AC", "D", vt=False) == ["9D", "AD", "JH"]
    assert _legal("four-hand-150", "JH 9S", "AC KD", "D") == ["9S", "JH"]  # nothing to follow


def test_trick_winner_first_of_equal_cards_and_trump():
    for trick, trump, winner in (
        ("AC AC KC", "S", 0),
        ("10C AC AC", "S", 1),
        ("AC 9S KC", "S", 1),
        ("9S JS 9S", "S", 1),
        ("AC KH QD", "S", 0),
    ):
        cards = np.array([parse_card(c) for c in trick.split()], dtype=np.int64)
        assert trick_winner(cards, 3, "SHDC".index(trump)) == winner
        assert winning_position(cards.tolist(), "SHDC".index(trump)) == winner


@pytest.mark.parametrize("vid", ["four-hand-150", "double-deck", "auction", "four-pass"])
def test_random_playouts_match_the_reference_and_keep_the_invariants(vid):
    v = load_variant(vid)
    deals = deal_hands(v.deck_cards, v.players, v.hand_size, chunk_states(4, [0])[0], 200)
    for d, deal in enumerate(deals):
        hands = deal[: v.players].copy()
        state = chunk_states(99, [d])[0]
        plays = np.zeros(v.players * v.hand_size, dtype=np.int64)
        won = random_playout(hands.copy(), d % v.players, d % 4, hand_rules(v), v.trick_points, state.copy(), plays)
        ref_won, ref_plays = reference_playout(hands.tolist(), d % v.players, d % 4, v, state)
        assert won.tolist() == ref_won and plays.tolist() == ref_plays
        # every card dealt is played exactly once, and the trick points add up to the hand's total
        assert np.array_equal(np.bincount(plays, minlength=N_TYPES), hands.sum(axis=0))
        assert won.sum() == v.trick_total - int((v.trick_points * deal[v.players]).sum())
