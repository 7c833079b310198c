"""The meld kernel: a hand's meld points under each trump suit, from the variant's compiled table.

Conventions (the rules documents' common ground, with variations as data):

* Three classes of meld, and a card may serve melds of different classes but never two melds of the
  same class: (I) runs and marriages, (II) arounds, (III) pinochles. The dix (nine of trump) and the
  roundhouse bonus stand apart.
* Run multiplicity r = the fewest copies among A, 10, K, Q, J of trump. Trump kings and queens left
  over beside a run score by the variant's run convention: each leftover K-Q pair scores
  ``run_extra_marriage`` (default: a royal marriage; once per run beside it with
  ``run_extra_marriage_per_run``), a lone K or Q ``run_extra_king``/``_queen``.
  With ``run_or_royal`` the runs and the trump marriages exclude each other: either the runs alone
  (no marriage beside them) or the trump marriages alone count, whichever is more (on a tie the runs).
* Marriages in a suit = min(K, Q) of that suit, arounds = the fewest copies of that rank over the
  suits, pinochles = min(Q♠, J♦), roundhouses = the fewest of min(K, Q) over the suits. Each is scored
  by multiplicity from the table (so a double pinochle is one meld of multiplicity 2).

Points are on the variant's own scale (1-point or 10-point). Suits are indexed S, H, D, C = 0..3.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.cards import ACE, JACK, JACK_OF_DIAMONDS, KING, N_RANKS, N_SUITS, NINE, QUEEN, QUEEN_OF_SPADES, TEN
from simcore.kernels.leaf import leaf
from simcore.variants.layout import (
    ACES,
    F_DIX,
    F_EXTRA_KING,
    F_EXTRA_MARRIAGE_PER_RUN,
    F_EXTRA_QUEEN,
    F_RUN_OR_ROYAL,
    F_RUN_SCORES_ROYAL,
    JACKS,
    KINGS,
    MARRIAGE,
    PINOCHLE,
    QUEENS,
    ROUNDHOUSE,
    ROYAL,
    RUN,
    RUN_EXTRA_MARRIAGE,
)

#: Named melds reported in a breakdown, in this order (counts are multiplicities; marriages summed
#: over the plain suits).
NAMED_MELDS = (
    "run",
    "run_extra_marriage",
    "run_extra_king",
    "run_extra_queen",
    "royal_marriage",
    "marriage",
    "dix",
    "aces_around",
    "kings_around",
    "queens_around",
    "jacks_around",
    "pinochle",
    "roundhouse",
)
(
    M_RUN,
    M_EXTRA_MARRIAGE,
    M_EXTRA_KING,
    M_EXTRA_QUEEN,
    M_ROYAL,
    M_MARRIAGE,
    M_DIX,
    M_ACES,
    M_KINGS,
    M_QUEENS,
    M_JACKS,
    M_PINOCHLE,
    M_ROUNDHOUSE,
) = range(len(NAMED_MELDS))
N_NAMED = len(NAMED_MELDS)


@leaf
def _suit_min(hand, rank):
    """Fewest copies of ``rank`` over the four suits: how many times that rank is held around."""
    m = hand[rank]
    for s in range(1, N_SUITS):
        c = hand[s * N_RANKS + rank]
        if c < m:
            m = c
    return np.int64(m)


@leaf
def trump_class_one(hand, s, table, flags):
    """Class-I melds of trump suit ``s``: (points, runs, extra K-Q pairs, lone K, lone Q, royal marriages).

    Returns the counts actually scored: under ``run_or_royal`` either the run counts or the royal
    marriage count is zero; with ``run_scores_royal`` each run also scores the royal marriage it holds
    (counted among the royal marriages, and in the points).
    """
    b = s * N_RANKS
    k = np.int64(hand[b + KING])
    q = np.int64(hand[b + QUEEN])
    r = min(np.int64(hand[b + ACE]), np.int64(hand[b + TEN]), k, q, np.int64(hand[b + JACK]))
    royal = min(k, q)
    royal_pts = table[ROYAL, royal]
    if r == 0:
        return royal_pts, 0, 0, 0, 0, royal
    if flags[F_RUN_OR_ROYAL] != 0:
        if royal_pts > table[RUN, r]:
            return royal_pts, 0, 0, 0, 0, royal
        return table[RUN, r], r, 0, 0, 0, 0
    ek = k - r
    eq = q - r
    pairs = min(ek, eq)
    in_run = r * flags[F_RUN_SCORES_ROYAL]  # the royal marriages inside the runs, where they score
    # the extra marriages once, or once per run (r x) where they score by the run (branch-free: 1 or r)
    extra = table[RUN_EXTRA_MARRIAGE, pairs] * (1 + (r - 1) * flags[F_EXTRA_MARRIAGE_PER_RUN])
    run_pts = (
        table[RUN, r]
        + extra
        + (ek - pairs) * flags[F_EXTRA_KING]
        + (eq - pairs) * flags[F_EXTRA_QUEEN]
        + table[ROYAL, in_run]
    )
    return run_pts, r, pairs, ek - pairs, eq - pairs, in_run


@leaf
def shared_melds(hand, table):
    """Melds that do not depend on trump: (points of arounds + pinochles + roundhouse bonus,
    plain-marriage points summed over all four suits)."""
    pts = (
        table[ACES, _suit_min(hand, ACE)]
        + table[KINGS, _suit_min(hand, KING)]
        + table[QUEENS, _suit_min(hand, QUEEN)]
        + table[JACKS, _suit_min(hand, JACK)]
        + table[PINOCHLE, min(np.int64(hand[QUEEN_OF_SPADES]), np.int64(hand[JACK_OF_DIAMONDS]))]
    )
    marriages = np.int64(0)
    rh = np.int64(255)
    for s in range(N_SUITS):
        m = min(np.int64(hand[s * N_RANKS + KING]), np.int64(hand[s * N_RANKS + QUEEN]))
        marriages += table[MARRIAGE, m]
        rh = min(rh, m)
    return pts + table[ROUNDHOUSE, rh], marriages


@leaf
def _meld_in(hand, s, common, table, flags):
    """The hand's meld under trump ``s``, given ``common``, the melds of every trump (``shared_melds``:
    the shared points plus every suit's plain marriage): the trump marriage scores as class I instead."""
    b = s * N_RANKS
    plain = table[MARRIAGE, min(np.int64(hand[b + KING]), np.int64(hand[b + QUEEN]))]
    return common - plain + trump_class_one(hand, s, table, flags)[0] + np.int64(hand[b + NINE]) * flags[F_DIX]


@leaf
def meld_by_trump(hand, table, flags, out):
    """Fill ``out`` (int64[4]) with the hand's meld points under each trump suit; return the best
    trump (lowest suit index on a tie)."""
    shared, marriages = shared_melds(hand, table)
    best = 0
    for s in range(N_SUITS):
        out[s] = _meld_in(hand, s, shared + marriages, table, flags)
        if out[s] > out[best]:
            best = s
    return best


@leaf
def meld_under(hand, trump, table, flags):
    """The hand's meld under ``trump`` alone: ``meld_by_trump``'s entry for it, without the other three
    suits' class I (where trump is known: the return of cards, the meld, the discards)."""
    shared, marriages = shared_melds(hand, table)
    return _meld_in(hand, trump, shared + marriages, table, flags)


@njit(cache=True)
def meld_free(t, trump):
    """True when no meld under ``trump`` counts card type ``t``: a ten or a nine of a plain suit (tens
    meld only in a trump run, nines only as the dix), so losing it never lowers the meld."""
    r = t % N_RANKS
    return t // N_RANKS != trump and (r == TEN or r == NINE)


@njit(cache=True)
def meld_breakdown(hand, trump, table, flags, counts, points):
    """Fill ``counts`` and ``points`` (int64[N_NAMED]) with each named meld under ``trump``;
    return the total points."""
    counts[:] = 0
    points[:] = 0
    b = trump * N_RANKS
    pts, r, pairs, lone_k, lone_q, royal = trump_class_one(hand, trump, table, flags)
    counts[M_RUN] = r
    points[M_RUN] = table[RUN, r]
    counts[M_EXTRA_MARRIAGE] = pairs
    points[M_EXTRA_MARRIAGE] = (
        table[RUN_EXTRA_MARRIAGE, pairs] * (1 + (r - 1) * flags[F_EXTRA_MARRIAGE_PER_RUN]) if r > 0 else 0
    )
    counts[M_EXTRA_KING] = lone_k
    points[M_EXTRA_KING] = lone_k * flags[F_EXTRA_KING]
    counts[M_EXTRA_QUEEN] = lone_q
    points[M_EXTRA_QUEEN] = lone_q * flags[F_EXTRA_QUEEN]
    counts[M_ROYAL] = royal
    points[M_ROYAL] = table[ROYAL, royal]
    for s in range(N_SUITS):
        if s != trump:
            m = min(np.int64(hand[s * N_RANKS + KING]), np.int64(hand[s * N_RANKS + QUEEN]))
            counts[M_MARRIAGE] += m
            points[M_MARRIAGE] += table[MARRIAGE, m]
    counts[M_DIX] = hand[b + NINE]
    points[M_DIX] = np.int64(hand[b + NINE]) * flags[F_DIX]
    for i, (rank, row) in enumerate(((ACE, ACES), (KING, KINGS), (QUEEN, QUEENS), (JACK, JACKS))):
        m = _suit_min(hand, rank)
        counts[M_ACES + i] = m
        points[M_ACES + i] = table[row, m]
    m = min(np.int64(hand[QUEEN_OF_SPADES]), np.int64(hand[JACK_OF_DIAMONDS]))
    counts[M_PINOCHLE] = m
    points[M_PINOCHLE] = table[PINOCHLE, m]
    rh = min(_suit_min(hand, KING), _suit_min(hand, QUEEN))
    counts[M_ROUNDHOUSE] = rh
    points[M_ROUNDHOUSE] = table[ROUNDHOUSE, rh]
    return points.sum()


@njit(cache=True)
def meld_checks(hand, trump, table, flags, checks):
    """Checks (check pinochle's chips) the hand earns for its meld under ``trump``, from ``checks``
    (int64[10, MAX_MULT + 1], rows as the meld table): a run as scored (``trump_class_one``), the
    arounds, the pinochles, and the roundhouse (round trip), whose kings and queens earn nothing as
    arounds of their own."""
    runs = trump_class_one(hand, trump, table, flags)[1]
    rh = min(_suit_min(hand, KING), _suit_min(hand, QUEEN))
    return (
        checks[RUN, runs]
        + checks[ACES, _suit_min(hand, ACE)]
        + checks[KINGS, _suit_min(hand, KING) - rh]
        + checks[QUEENS, _suit_min(hand, QUEEN) - rh]
        + checks[JACKS, _suit_min(hand, JACK)]
        + checks[PINOCHLE, min(np.int64(hand[QUEEN_OF_SPADES]), np.int64(hand[JACK_OF_DIAMONDS]))]
        + checks[ROUNDHOUSE, rh]
    )


@njit(cache=True)
def meld_sum_first_suit(hands, table, flags):
    """Sum over ``hands`` (uint8[n, 24]) of each hand's meld with spades (suit 0) trump: with a random
    deal every suit is alike, so this over n is the mean meld under a fixed trump."""
    totals = np.zeros(4, dtype=np.int64)
    out = 0
    for i in range(hands.shape[0]):
        meld_by_trump(hands[i], table, flags, totals)
        out += totals[0]
    return out
