"""Meld tally (numba): deal whole deals and count every hand's meld by value, for the meld
distribution analysis (``analyses/meld_distribution.py``).

Each hand's meld is counted under its best trump and under one fixed trump, and, at a four-player
table, each partnership's (seats s and s + 2) under the trump best for the pair. Beside each histogram
the tally keeps the per-deal squared counts, from which the analysis takes intervals that allow for
the hands of one deal not being independent, and the per-deal totals and their squares.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.cards import N_SUITS
from simcore.kernels.deal import deal_buffers, deal_into
from simcore.kernels.leaf import leaf
from simcore.kernels.meld import meld_by_trump
from simcore.kernels.threads import each_chunk

#: Rows of the kernel's tally: per meld value, the hands (or partnerships) holding it and the sum
#: over deals of the squared per-deal count, for best trump, fixed trump and partnership; then one
#: row of moments whose columns 0-5 are, for best, fixed and partnership in turn, the sum over deals
#: of the deal's total meld and of its square.
R_BEST, R_BEST_SQ, R_FIXED, R_FIXED_SQ, R_PAIR, R_PAIR_SQ, R_MOMENTS = range(7)


@leaf
def _count_equal(values, n, out_hist, out_sq):
    """Add ``values[:n]`` to the histogram ``out_hist`` and each value's squared count within this
    deal to ``out_sq`` (sum over values v of (#v)^2, added one hand at a time as #v)."""
    for i in range(n):
        same = 0
        for j in range(n):
            if values[j] == values[i]:
                same += 1
        out_hist[values[i]] += 1
        out_sq[values[i]] += same


class TallyScratch(NamedTuple):
    """What :func:`meld_tally_chunk`'s deals work in, made once per chunk: the deck to shuffle
    (uint8[cards]), the hands and widow dealt (uint8[players, 24], uint8[24]), each hand's meld by trump
    (int64[players, 4]), each hand's meld under its best and under the fixed trump (int64[players]) and
    each partnership's (int64[partnerships]; none where the table has no partnerships)."""

    cards: np.ndarray
    hands: np.ndarray
    widow: np.ndarray
    totals: np.ndarray
    best: np.ndarray
    fixed_meld: np.ndarray
    pair: np.ndarray


@njit(cache=True, nogil=True)
def meld_tally_chunk(state, size, deck, shape, table, flags, fixed, out):
    """Deal ``size`` deals from ``state`` (``shape``: players, hand size) and add every hand's meld to
    ``out`` (int64[7, bins], rows ``R_*``; a meld of m points goes to column m). Partnerships are seats
    (s, s + players / 2) for s < players / 2 when ``players`` is even and at least 4, else none are
    counted. A meld beyond the last column is counted in the last column (the caller checks that it
    stays empty). Allocates the chunk's scratch; the deals run in a leaf."""
    players, hand_size = shape
    half = 2 if players == 4 else 0  # partners across a four-player table (analyses.meld_distribution.has_partnerships)
    cards, hands, widow = deal_buffers(deck, players)
    scratch = TallyScratch(
        cards,
        hands,
        widow,
        np.zeros((players, N_SUITS), dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(half, dtype=np.int64),
    )
    _tally_deals(state, size, scratch, hand_size, table, flags, fixed, out)


@leaf
def _tally_deals(state, size, scratch, hand_size, table, flags, fixed, out):
    """:func:`meld_tally_chunk`'s deals, with its scratch, without reference counting."""
    cards, hands, widow, totals = scratch.cards, scratch.hands, scratch.widow, scratch.totals
    best, fixed_meld, pair = scratch.best, scratch.fixed_meld, scratch.pair
    players, half = hands.shape[0], pair.shape[0]
    top_bin = out.shape[1] - 1
    for _ in range(size):
        deal_into(state, cards, players, hand_size, hands, widow)
        best_sum = np.int64(0)
        fixed_sum = np.int64(0)
        for p in range(players):
            best[p] = min(totals[p, meld_by_trump(hands[p], table, flags, totals[p])], top_bin)
            fixed_meld[p] = min(totals[p, fixed], top_bin)
            best_sum += best[p]
            fixed_sum += fixed_meld[p]
        _count_equal(best, players, out[R_BEST], out[R_BEST_SQ])
        _count_equal(fixed_meld, players, out[R_FIXED], out[R_FIXED_SQ])
        out[R_MOMENTS, 0] += best_sum
        out[R_MOMENTS, 1] += best_sum * best_sum
        out[R_MOMENTS, 2] += fixed_sum
        out[R_MOMENTS, 3] += fixed_sum * fixed_sum
        if half > 0:
            pair_sum = np.int64(0)
            for s in range(half):
                top = np.int64(0)
                for t in range(N_SUITS):
                    v = totals[s, t] + totals[s + half, t]
                    if v > top:
                        top = v
                pair[s] = min(top, top_bin)
                pair_sum += top
            _count_equal(pair, half, out[R_PAIR], out[R_PAIR_SQ])
            out[R_MOMENTS, 4] += pair_sum
            out[R_MOMENTS, 5] += pair_sum * pair_sum


def meld_tally_batch(states, sizes, deck, players, hand_size, table, flags, fixed, out):
    """:func:`meld_tally_chunk` over chunk i (``sizes[i]`` deals from ``states[i]``) into ``out[i]``, chunks
    on threads (:func:`simcore.kernels.threads.each_chunk`)."""
    each_chunk(
        lambda ci: meld_tally_chunk(
            states[ci].copy(), sizes[ci], deck, (players, hand_size), table, flags, fixed, out[ci]
        ),
        states.shape[0],
    )


def mean_meld_fixed_trump(deck: np.ndarray, players: int, hand_size: int, table: np.ndarray, flags: np.ndarray) -> int:
    """Average meld of a dealt hand under a fixed trump (rounded; from 20,000 hands dealt from seed 0):
    what a heuristic bidder counts on from his partner before seeing the pass. ``deck`` (uint8 card
    types), ``table`` and ``flags`` are a variant's deck, meld table and meld flags."""
    from simcore.cards import N_TYPES
    from simcore.kernels.deal import deal_hands
    from simcore.kernels.meld import meld_sum_first_suit
    from simcore.kernels.rng import chunk_states

    deals = deal_hands(deck, players, hand_size, chunk_states(0, [0])[0], 20_000 // players)
    hands = np.ascontiguousarray(deals[:, :players]).reshape(-1, N_TYPES)
    # writeable copies, as the hand kernel's own (hand_work): a variant's read-only tables would compile
    # the meld kernels again for read-only arrays
    return round(int(meld_sum_first_suit(hands, table.copy(), flags.copy())) / len(hands))
