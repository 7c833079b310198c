"""Melding while the stock lasts (numba): two-hand's one meld after each won trick.

While the stock lasts a player who wins a trick may table one meld, and may also show one dix (nine of
trump, scoring the table's dix value) and with it take the turned trump card in its place. Melded cards
stay his to play; a card played to a trick can no longer meld. A tabled card may meld again only in
another class, with one exception the rule documents give: a royal marriage may later be extended to
the run (K-Q for 40, then A-10-J for 150), never the reverse. Every meld needs at least one card
from the hand (Hoyle; Parlett), and a second marriage needs a K and a Q of its own.

Each copy of a card a player holds carries a usage mask (``U_*`` bits) of the classes it has melded
in; 0 means it is still in the hand. ``usage`` is uint8[N_TYPES, MAX_COPIES] per player, and the
first ``hand[t]`` slots of row t are the copies held, in no particular order.

Two choices the rules leave free are taken by convention, here and in the reference alike, since
neither changes what a player may do next more than the other: a meld takes, of each card it needs,
the eligible copies most used already (tabled before fresh), switching one to a fresh copy when the
meld would otherwise take no card from the hand; a card played to a trick is the copy most used.

Meld ids (``SM_*``): run, double run, royal marriage, a marriage in each suit (the trump suit's is
the royal marriage and never listed), pinochle, double pinochle, each rank around, each rank double
around. Points are on the variant's scale, from its compiled meld table.
"""

from __future__ import annotations

import numpy as np

from simcore.cards import ACE, JACK_OF_DIAMONDS, KING, N_RANKS, NINE, QUEEN, QUEEN_OF_SPADES
from simcore.kernels.leaf import leaf
from simcore.kernels.policies import RANDOM
from simcore.kernels.rng import bounded
from simcore.variants.layout import ACES, JACKS, KINGS, MARRIAGE, PINOCHLE, QUEENS, ROYAL, RUN

#: Usage bits of a held copy: the classes it has melded in, and whether it was shown as a dix.
U_RUN, U_MARRIAGE, U_AROUND, U_PINOCHLE, U_DIX = 1, 2, 4, 8, 16
#: Copies of one card a player can hold at once (the deck's copies, at most).
MAX_COPIES = 8

STOCK_MELDS = (
    "run",
    "double_run",
    "royal_marriage",
    "marriage_S",
    "marriage_H",
    "marriage_D",
    "marriage_C",
    "pinochle",
    "double_pinochle",
    "aces_around",
    "kings_around",
    "queens_around",
    "jacks_around",
    "double_aces_around",
    "double_kings_around",
    "double_queens_around",
    "double_jacks_around",
    "dix",
)
(SM_RUN, SM_DOUBLE_RUN, SM_ROYAL, SM_MARRIAGE, SM_PINOCHLE, SM_DOUBLE_PINOCHLE, SM_AROUND, SM_DOUBLE_AROUND) = (
    0,
    1,
    2,
    3,
    7,
    8,
    9,
    13,
)
SM_DIX = 17
N_STOCK_MELDS = 17  # the tabled melds, the dix apart


@leaf
def _popcount8(m):
    """Number of bits set in a usage mask."""
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@leaf
def meld_shape(m):
    """(how many card types meld ``m`` takes, the usage bit it sets)."""
    if m <= SM_DOUBLE_RUN:
        return 5, U_RUN
    if m < SM_PINOCHLE:
        return 2, U_MARRIAGE
    if m <= SM_DOUBLE_PINOCHLE:
        return 2, U_PINOCHLE
    return 4, U_AROUND


@leaf
def meld_need(m, trump, i):
    """(card type, copies, blocking bits) of the ``i``-th card type meld ``m`` takes: it needs that
    many copies whose usage has none of the blocking bits."""
    if m <= SM_DOUBLE_RUN:  # A, 10, K, Q, J are ranks 0..4
        # the K and Q of a royal marriage may join the run melded after it
        return trump * N_RANKS + i, m - SM_RUN + 1, U_RUN if (i == KING or i == QUEEN) else U_RUN | U_MARRIAGE
    if m < SM_PINOCHLE:
        s = trump if m == SM_ROYAL else m - SM_MARRIAGE
        return s * N_RANKS + KING + i, 1, U_RUN | U_MARRIAGE
    if m <= SM_DOUBLE_PINOCHLE:
        return QUEEN_OF_SPADES if i == 0 else JACK_OF_DIAMONDS, m - SM_PINOCHLE + 1, U_PINOCHLE
    rank = ACE if (m - SM_AROUND) % 4 == 0 else KING + (m - SM_AROUND) % 4 - 1
    return i * N_RANKS + rank, 1 if m < SM_DOUBLE_AROUND else 2, U_AROUND


@leaf
def meld_points(m, trump, table):
    """Points of meld ``m`` from the compiled table (0: the variant does not score it)."""
    if m == SM_RUN or m == SM_DOUBLE_RUN:
        return table[RUN, 1 if m == SM_RUN else 2]
    if m == SM_ROYAL:
        return table[ROYAL, 1]
    if m < SM_PINOCHLE:
        return 0 if m - SM_MARRIAGE == trump else table[MARRIAGE, 1]
    if m == SM_PINOCHLE or m == SM_DOUBLE_PINOCHLE:
        return table[PINOCHLE, 1 if m == SM_PINOCHLE else 2]
    row = (ACES, KINGS, QUEENS, JACKS)[(m - SM_AROUND) % 4]
    return table[row, 1 if m < SM_DOUBLE_AROUND else 2]


@leaf
def _melds(usage, hand, trump, table, chosen, only, apply):
    """Bitmask of the meld ids open to this player now (melds the table scores), or with ``only`` ≥ 0
    of that one alone; with ``apply``, table meld ``only`` (set the usage bits of the copies it takes).
    ``chosen`` is int64[5, 2] scratch for the copy slots taken. One function for every meld, not one
    call per meld: each call of a kernel taking arrays pays their reference counts."""
    out = np.int64(0)
    for m in range(N_STOCK_MELDS):
        if (only >= 0 and m != only) or meld_points(m, trump, table) <= 0:
            continue
        n, bit = meld_shape(m)
        held = True
        for i in range(n):  # most melds fail here, on a card not held often enough
            t, count, _ = meld_need(m, trump, i)
            if hand[t] < count:
                held = False
        if not held:
            continue
        ok, fresh = True, False
        for i in range(n):
            t, count, blocked = meld_need(m, trump, i)
            # the eligible copies most used first: take the first ``count`` of them by (bits, mask)
            for j in range(count):
                best, key = -1, -1
                for c in range(np.int64(hand[t])):
                    u = np.int64(usage[t, c])
                    if u & blocked != 0 or (j == 1 and c == chosen[i, 0]):
                        continue
                    k = _popcount8(u) * 256 + u
                    if k > key:
                        best, key = c, k
                if best < 0:
                    ok = False
                else:
                    chosen[i, j] = best
                    if usage[t, best] == 0:
                        fresh = True
        if ok and not fresh:  # no card from the hand yet: swap in a fresh eligible copy if there is one
            for i in range(n):
                t, count, _ = meld_need(m, trump, i)
                for c in range(np.int64(hand[t])):
                    taken = c == chosen[i, 0] or (count == 2 and c == chosen[i, 1])
                    if not fresh and usage[t, c] == 0 and not taken:
                        chosen[i, count - 1] = c
                        fresh = True
        if not (ok and fresh):
            continue
        out |= np.int64(1) << m
        if apply:
            for i in range(n):
                t, count, _ = meld_need(m, trump, i)
                for j in range(count):
                    usage[t, chosen[i, j]] |= bit
    return out


@leaf
def open_melds(usage, hand, trump, table, chosen):
    """Bitmask of the meld ids this player may table now (only melds the table scores); ``chosen``
    is int64[5, 2] scratch."""
    return _melds(usage, hand, trump, table, chosen, -1, False)


@leaf
def table_meld(usage, hand, m, trump, table, chosen):
    """Table meld ``m`` (it must be open): mark the copies it takes."""
    _melds(usage, hand, trump, table, chosen, m, True)


@leaf
def meld_cards(m, trump):
    """Bitmask of the card types meld ``m`` takes."""
    out = np.int64(0)
    for i in range(meld_shape(m)[0]):
        out |= np.int64(1) << meld_need(m, trump, i)[0]
    return out


@leaf
def unshown_dix(usage, hand, trump, dix_type):
    """Slot of a held dix not yet shown; -1 for none."""
    for c in range(np.int64(hand[dix_type])):
        if usage[dix_type, c] & U_DIX == 0:
            return c
    return -1


@leaf
def drop_slot(usage, hand, t, slot):
    """Take copy ``slot`` of type ``t`` out of the usage slots (the caller lowers ``hand[t]``)."""
    for c in range(slot, np.int64(hand[t]) - 1):
        usage[t, c] = usage[t, c + 1]
    usage[t, hand[t] - 1] = 0


@leaf
def most_used(usage, hand, t):
    """Slot of the held copy of ``t`` most used (by number of bits, then mask): the copy played."""
    best, key = 0, -1
    for c in range(np.int64(hand[t])):
        # in int64: uint8 arithmetic would wrap where numba is switched off (NUMBA_DISABLE_JIT)
        k = np.int64(_popcount8(usage[t, c])) * 256 + np.int64(usage[t, c])
        if k > key:
            best, key = c, k
    return best


@leaf
def choose_meld(open_mask, trump, table, policy, state):
    """The meld the player tables (-1: none). The heuristic takes the royal marriage while the run is
    open too (the run can follow it for both scores, not the reverse), else the best-scoring meld;
    the random policy picks uniformly among the open melds and melding nothing."""
    if open_mask == 0:
        return np.int64(-1)
    if policy != RANDOM:
        if (open_mask >> SM_ROYAL) & 1 and (open_mask >> SM_RUN) & 1:
            return np.int64(SM_ROYAL)
        best, top = np.int64(-1), np.int64(0)
        for m in range(N_STOCK_MELDS):
            if (open_mask >> m) & 1:
                p = meld_points(m, trump, table)
                if p > top:
                    best, top = np.int64(m), p
        return best
    n = 0
    for m in range(N_STOCK_MELDS):
        n += (open_mask >> m) & 1
    k = bounded(state, n + 1)
    for m in range(N_STOCK_MELDS):
        if (open_mask >> m) & 1:
            if k == 0:
                return np.int64(m)
            k -= 1
    return np.int64(-1)


@leaf
def meld_keepers(usage, hand, trump, table, chosen):
    """Card types the heuristic keeps out of stock-phase tricks: those of the melds open to it now, and
    a dix not yet shown."""
    open_mask = _melds(usage, hand, trump, table, chosen, -1, False)
    out = np.int64(0)
    dix_type = trump * N_RANKS + NINE
    for c in range(np.int64(hand[dix_type])):
        if usage[dix_type, c] & U_DIX == 0:
            out |= np.int64(1) << dix_type
    for m in range(N_STOCK_MELDS):
        if (open_mask >> m) & 1:
            out |= meld_cards(m, trump)
    return out
