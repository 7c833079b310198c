"""The deal kernel: identical to the plain reference deal for every deal the shipped systems use, uniform;
every system's deals partition its deck (tests/test_conformance.py)."""

import numpy as np
import pytest

from simcore.cards import N_TYPES
from simcore.kernels.deal import deal_hands
from simcore.kernels.rng import chunk_states
from simcore.reference.deal import reference_deals
from simcore.variants import load_variant, shipped_ids


def _one_per_deal():
    """The first shipped id of each distinct deal (deck, players, hand size): a rules file with a deal
    of its own is covered by adding it, with no list to edit."""
    deals: dict[tuple, str] = {}
    for vid in shipped_ids():
        v = load_variant(vid)
        deals.setdefault((v.deck_cards.tobytes(), v.players, v.hand_size), vid)
    return sorted(deals.values())


@pytest.mark.parametrize("vid", _one_per_deal())
def test_kernel_deals_the_reference_deals_card_for_card(vid):
    v = load_variant(vid)
    state = chunk_states(2024, [7])[0]
    kernel = deal_hands(v.deck_cards, v.players, v.hand_size, state.copy(), 300)
    ref = reference_deals(v.deck_cards.tolist(), v.players, v.hand_size, state, 300)
    for d in range(300):
        for seat in range(v.players + 1):
            counts = np.bincount(ref[d][seat], minlength=N_TYPES)
            assert np.array_equal(kernel[d, seat], counts), (d, seat)


def test_each_card_lands_in_each_seat_uniformly():
    # 20,000 deals: each of the 24 card types x 5 places (4 seats, no widow: 4 places) is a binomial
    # count; all must lie within 5 standard errors of the uniform expectation
    v = load_variant("auction")  # three hands of 15 and a widow of 3
    deals = deal_hands(v.deck_cards, v.players, v.hand_size, chunk_states(9, [0])[0], 20_000)
    share = np.array([v.hand_size] * v.players + [v.widow]) / v.deck_size
    counts = deals.sum(axis=0)  # [seat, type]: copies of that type received over all deals
    n = 20_000 * v.copies
    expected = share[:, None] * n
    se = np.sqrt(n * share * (1 - share))[:, None]
    z = (counts[:, v.deck_copies > 0] - expected) / se
    assert np.abs(z).max() < 5


def test_chunk_streams_differ_and_repeat():
    a, b = chunk_states(1, [0, 1]), chunk_states(1, [0, 1])
    assert np.array_equal(a, b) and not np.array_equal(a[0], a[1])
    assert not np.array_equal(chunk_states(2, [0])[0], a[0])
