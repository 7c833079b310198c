"""The deal kernel: a uniformly random deal of any deck into hands (copy-count vectors) and a widow.

Seats are numbered clockwise from 0 = the dealer's left. The documents' deal orders (three at a time,
one card to the widow each round...) do not change the distribution of hands, so the kernel deals a
uniform random permutation: hand p is cards ``[p*h, (p+1)*h)`` of the shuffled deck, the widow the rest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.cards import N_TYPES
from simcore.rng import bounded


@njit(cache=True)
def deal_into(state, deck, players, hand_size, hands, widow):
    """Shuffle ``deck`` (uint8 card types, permuted in place) and fill ``hands`` and ``widow``.

    ``hands`` is uint8[players, 24] and ``widow`` uint8[24], both overwritten with copy counts.
    Only the dealt prefix is shuffled (a partial Fisher–Yates), which is enough for a uniform deal:
    the widow is the uniformly random remainder.
    """
    n = deck.shape[0]
    dealt = players * hand_size
    hands[:, :] = 0
    widow[:] = 0
    for i in range(dealt):
        j = i + bounded(state, n - i)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        hands[i // hand_size, card] += 1
    for i in range(dealt, n):
        widow[deck[i]] += 1


def deal_hands(deck_cards: np.ndarray, players: int, hand_size: int, state: np.ndarray,
               deals: int) -> np.ndarray:
    """uint8[deals, players + 1, 24]: ``deals`` successive deals from ``state`` (advanced in place).

    Row ``players`` of each deal is the widow. A convenience for tests and small scripts; bulk work
    runs chunk kernels that never hold more than one deal.
    """
    out = np.zeros((deals, players + 1, N_TYPES), dtype=np.uint8)
    deck = deck_cards.copy()
    for d in range(deals):
        deal_into(state, deck, players, hand_size, out[d, :players], out[d, players])
    return out
