"""The solver's transposition table, by partition (Ginsberg's partition search, DDS's "winning ranks").

A bound proved at a trick start holds for every position that agrees with it on what the proof used:

* the leader, the two flags (trump broken, the hand's first trick), and for each seat and suit how many
  cards of each points class it holds (so the tricks left, the suit lengths and the points in play);
* suit by suit, the holders (copies per seat) and points classes of the top ``k`` card types still
  held, by their rank among the types still held (relative rank) — the cards whose ranks the proof
  compared: a trick's winner, a card a follower had to beat, a bound's winners.

The cards below those ``k`` in a suit are "small": the proof never asked how they rank, only which
seat holds how many of each points class, so any small cards of the same classes play alike. The
search (:mod:`simcore.solver.kernel`) gathers, node by node, the card types whose ranks decided the
node (a bitmask over the 24 types of the position, the *relevant* cards); a stored entry keeps the
``k`` of each suit that mask closes to (every type at or above the lowest relevant one) and a hash of
those top cards. A probe hashes the position's classes per seat and suit (the bucket) and, suit by
suit, the top 0..6 types (prefix hashes); an entry of the bucket answers when both match.

Two 64-bit hashes name the bucket's positions (one addresses, one verifies) and a third the top cards,
so a wrong match needs two independent 64-bit keys to collide. Entries of older solves (generations)
are free slots. Seats are numbered clockwise; card types are ``suit * 6 + rank``.
"""

from __future__ import annotations

import numpy as np

from simcore.kernels.cards import N_RANKS
from simcore.kernels.leaf import leaf
from simcore.kernels.play import SUIT_BITS

#: Entries a bucket holds (positions of one set of classes per seat and suit, different partitions).
WAYS = 4
#: Rows of the flag keys: the leader's seat (0..5), trump broken, first trick, then one per bucket level.
K_BROKEN, K_FIRST, K_LEVEL = 6, 7, 8
#: Bucket levels: an entry naming the top ``k`` types of a suit and not all of them lives in the bucket
#: of level ``min(k, FULL - 1)`` over its suits (the position's top types of each suit down to that
#: level mixed into the address), one naming every card in the bucket of level ``FULL``; a probe looks
#: in each. A position whose every card matters finds its entry as fast as by an exact key, and an
#: entry naming few cards is not crowded out by the many positions that share its suit counts.
FULL = 3


@leaf
def position_keys(w, leader, broken, first, ply):
    """(key, check): the two hashes of the trick start's bucket (leader, flags, each seat's count of each
    points class in each suit); fills ``w.prefix[ply, s, k]`` with the hash of suit ``s``'s top ``k``
    types still held (seat and copies of each, its points class), k = 0..6."""
    players = w.held.shape[0]
    z, zc = w.zobrist, w.zcount
    key, check = w.zflags[0, leader], w.zflags[1, leader]
    if broken != 0:
        key ^= w.zflags[0, K_BROKEN]
        check ^= w.zflags[1, K_BROKEN]
    if first != 0:
        key ^= w.zflags[0, K_FIRST]
        check ^= w.zflags[1, K_FIRST]
    for s in range(4):
        h = np.int64(0)
        w.prefix[ply, s, 0] = h
        j = 0
        for r in range(N_RANKS):
            t = s * N_RANKS + r
            cls = w.point_class[t]
            held = False
            for p in range(players):
                c = w.hands[p, t]
                if c > 0:
                    h ^= z[p, s * N_RANKS + j, c]
                    # a sum of random keys times counts: the classes' counts per seat and suit
                    key += c * zc[0, p, s, cls]
                    check += c * zc[1, p, s, cls]
                    held = True
            if held:
                h ^= w.zpoints[s * N_RANKS + j, cls]
                j += 1
                w.prefix[ply, s, j] = h
        for k in range(j + 1, N_RANKS + 1):
            w.prefix[ply, s, k] = h
    return key, check


@leaf
def held_types(w):
    """Bitmask of the card types some seat holds."""
    m = np.int64(0)
    for p in range(w.held.shape[0]):
        m |= w.held[p]
    return m


@leaf
def top_types(w, tops):
    """Bitmask of the card types of the top ``k`` types still held in each suit, ``tops`` packing the
    four ``k`` (3 bits a suit)."""
    held = held_types(w)
    out = np.int64(0)
    for s in range(4):
        k = (tops >> (3 * s)) & 7
        m = held & SUIT_BITS[s]
        while k > 0 and m != 0:
            low = m & -m
            out |= low
            m ^= low
            k -= 1
    return out


@leaf
def _tops(w, relevant):
    """The packed ``k`` of each suit that the bitmask ``relevant`` closes to: the types still held at or
    above the lowest relevant type of the suit."""
    held = held_types(w)
    tops = np.int64(0)
    for s in range(4):
        r = relevant & SUIT_BITS[s]
        if r == 0:
            continue
        lowest = r
        while r != 0:  # the highest type index relevant (the lowest rank)
            lowest = r & -r
            r ^= lowest
        upto = held & SUIT_BITS[s] & ((lowest << 1) - 1)
        k = 0
        while upto != 0:
            upto &= upto - 1
            k += 1
        tops |= np.int64(k) << (3 * s)
    return tops


@leaf
def _signature(w, ply, tops):
    """The hash of the top cards an entry with ``tops`` names, in the position hashed at ``ply``."""
    sig = np.int64(0)
    for s in range(4):
        sig ^= w.prefix[ply, s, (tops >> (3 * s)) & 7]
    return sig


@leaf
def _bucket(w, key, ply, level):
    """The first slot of the bucket of ``level``: the bucket key mixed with the position's top
    ``level`` types of each suit (all of them at :data:`FULL`)."""
    sig = np.int64(0)
    top = N_RANKS if level == FULL else level
    for s in range(4):
        sig ^= w.prefix[ply, s, top]
    address = key ^ sig ^ w.zflags[0, K_LEVEL + level]
    return address & (w.tt_key.shape[0] - 1) & ~np.int64(WAYS - 1)


@leaf
def _level(w, tops):
    """The bucket level of an entry naming the top ``tops`` types: the fewest types it names in a suit
    of which it does not name all (at most ``FULL - 1``), or :data:`FULL` when it names every card."""
    held = held_types(w)
    level = FULL
    for s in range(4):
        k = (tops >> (3 * s)) & 7
        n = 0
        m = held & SUIT_BITS[s]
        while m != 0:
            m &= m - 1
            n += 1
        if k < n and min(k, FULL - 1) < level:
            level = min(k, FULL - 1)
    return level


@leaf
def probe(w, key, check, ply, gen):
    """What the table knows, in generation ``gen``, of the position hashed at ``ply``: (lower, upper,
    relevant cards of the lower bound, of the upper bound, best lead kept by relative rank or -1), over
    every entry whose top cards match, in the buckets of every level; (no bound: -1 and 1 << 14) when
    none does."""
    lower, upper = np.int64(-1), np.int64(1 << 14)
    rel_lower, rel_upper, best = np.int64(0), np.int64(0), np.int64(-1)
    for level in range(FULL, -1, -1):
        base = _bucket(w, key, ply, level)
        for j in range(WAYS):
            e = base + j
            if w.tt_gen[e] != gen or w.tt_key[e] != key or w.tt_check[e] != check:
                continue
            tops = np.int64(w.tt_tops[e])
            if w.tt_sig[e] != _signature(w, ply, tops):
                continue
            if w.tt_lower[e] > lower:
                lower = np.int64(w.tt_lower[e])
                rel_lower = top_types(w, tops)
            if w.tt_upper[e] < upper:
                upper = np.int64(w.tt_upper[e])
                rel_upper = top_types(w, tops)
            if best < 0:
                best = np.int64(w.tt_best[e])
    return lower, upper, rel_lower, rel_upper, best


@leaf
def store(w, key, check, ply, gen, lower, upper, best, left, relevant):
    """Keep the bounds (``lower``..``upper``) and best lead of the position hashed at ``ply``, for every
    position agreeing with it on the cards ``relevant`` (closed upwards suit by suit), and for the
    position itself in the bucket of level :data:`FULL` (a general entry's crowded bucket may lose it)."""
    tops = _tops(w, relevant)
    level = _level(w, tops)
    _keep(w, key, check, ply, gen, lower, upper, best, left, tops, level)
    if level != FULL:
        _keep(w, key, check, ply, gen, lower, upper, best, left, _tops(w, held_types(w)), FULL)


@leaf
def _keep(w, key, check, ply, gen, lower, upper, best, left, tops, level):
    """:func:`store` for the entry naming the top ``tops`` types, in the bucket of ``level``: in the
    entry of the same partition if there is one (bounds narrowed), else in a free slot of the bucket
    or the least valuable one (fewest tricks left)."""
    sig = _signature(w, ply, tops)
    base = _bucket(w, key, ply, level)
    e, victim, worth = np.int64(-1), base, np.int64(1 << 14)
    for j in range(WAYS):
        f = base + j
        if w.tt_gen[f] != gen:
            value = np.int64(-1)  # a free slot
        elif w.tt_key[f] == key and w.tt_check[f] == check and w.tt_tops[f] == tops and w.tt_sig[f] == sig:
            e = f
            break
        else:
            value = np.int64(w.tt_left[f])
        if value < worth:
            victim, worth = f, value
    if e < 0:
        e = victim
        w.tt_key[e] = key
        w.tt_check[e] = check
        w.tt_tops[e] = tops
        w.tt_sig[e] = sig
        w.tt_gen[e] = gen
        w.tt_lower[e] = -1
        w.tt_upper[e] = 1 << 14
        w.tt_left[e] = left
    if lower > w.tt_lower[e]:
        w.tt_lower[e] = lower
    if upper < w.tt_upper[e]:
        w.tt_upper[e] = upper
    w.tt_best[e] = best
