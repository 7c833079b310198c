"""The deal kernel: a uniformly random deal of any deck into hands (copy-count vectors) and a widow.

Seats are numbered clockwise from 0 = the dealer's left. The documents' deal orders (three at a time,
one card to the widow each round...) do not change the distribution of hands, so the kernel deals a
uniform random permutation: hand p is cards ``[p*h, (p+1)*h)`` of the shuffled deck, the widow the rest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.cards import N_TYPES
from simcore.kernels.leaf import leaf
from simcore.kernels.rng import MASK32, U32, bounded32, next_u64


@njit(cache=True, inline="always")
def _shuffle_prefix(state, deck, drawn):
    """Draw positions ``0 .. drawn - 1`` of ``deck`` uniformly from the cards at or after them (a partial
    Fisher–Yates shuffle, in place); the cards after ``drawn`` are then a uniformly random remainder.
    Each 64-bit output of the generator serves two draws, high half first."""
    n = deck.shape[0]
    for i in range(0, drawn, 2):  # unrolled by pairs: a branch per draw costs several times more
        word = next_u64(state)
        j = i + bounded32(word >> U32, state, n - i)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        if i + 1 < drawn:
            j = i + 1 + bounded32(word & MASK32, state, n - i - 1)
            card = deck[j]
            deck[j] = deck[i + 1]
            deck[i + 1] = card


@njit(cache=True)
def deal_buffers(deck, players):
    """(a private copy of ``deck`` to shuffle, uint8[players, 24] hands, uint8[24] widow): what
    :func:`deal_into` and :func:`deal_given_into` deal into, made once per chunk by the chunk kernels."""
    return deck.copy(), np.zeros((players, N_TYPES), dtype=np.uint8), np.zeros(N_TYPES, dtype=np.uint8)


@leaf
def deal_into(state, deck, players, hand_size, hands, widow):
    """Shuffle ``deck`` (uint8 card types, permuted in place) and fill ``hands`` and ``widow``.

    ``hands`` is uint8[players, 24] and ``widow`` uint8[24], both overwritten with copy counts.
    A partial Fisher–Yates shuffle draws only the positions that need drawing: the last block (the
    widow, or the last hand when there is none) is the uniformly random remainder.
    """
    n = deck.shape[0]
    dealt = players * hand_size
    _shuffle_prefix(state, deck, dealt if dealt < n else dealt - hand_size)
    hands[:, :] = 0
    widow[:] = 0
    i = 0
    for p in range(players):  # seat by seat: no division per card
        for _ in range(hand_size):
            hands[p, deck[i]] += 1
            i += 1
    for k in range(dealt, n):
        widow[deck[k]] += 1


@leaf
def deal_given_into(state, rest, players, hand_size, given, seat, hands, widow):
    """A deal in which ``seat`` holds the cards ``given`` (uint8[24] copy counts, at most a hand): the
    other cards, ``rest`` (uint8 card types: the deck without ``given``, permuted in place), are dealt
    uniformly, seat by seat from seat 0 (``seat`` taking what fills its hand), then the widow. Every
    deal consistent with ``given`` is equally likely, as in :func:`deal_into` conditioned on ``seat``
    holding them."""
    n = rest.shape[0]
    first = hand_size
    for t in range(N_TYPES):
        first -= given[t]
    dealt = first + (players - 1) * hand_size
    _shuffle_prefix(state, rest, dealt if dealt < n else dealt - hand_size)
    widow[:] = 0
    for p in range(players):
        for t in range(N_TYPES):
            hands[p, t] = given[t] if p == seat else 0
    i = 0
    for p in range(players):
        for _ in range(first if p == seat else hand_size):
            hands[p, rest[i]] += 1
            i += 1
    for k in range(dealt, n):
        widow[rest[k]] += 1


@njit(cache=True)
def deal_hands(deck_cards, players, hand_size, state, deals):
    """uint8[deals, players + 1, 24]: ``deals`` successive deals from ``state`` (advanced in place).

    Row ``players`` of each deal is the widow. A convenience for tests, small scripts and the rules'
    derived values; bulk work runs chunk kernels that never hold more than one deal.
    """
    out = np.zeros((deals, players + 1, N_TYPES), dtype=np.uint8)
    deck = deck_cards.copy()
    for d in range(deals):
        deal_into(state, deck, players, hand_size, out[d, :players], out[d, players])
    return out
