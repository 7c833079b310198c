"""Per-chunk random streams: xoshiro256** in numba, seeded from (seed, chunk) by ``SeedSequence``.

Chunk k of a run always draws from the stream ``SeedSequence(seed, spawn_key=(k,))``, whichever thread
or machine computes it, so results never depend on the thread count or the order chunks finish in.
numba's own ``np.random`` is never used inside kernels: its per-thread state is not reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit, uint64

from simcore.kernels.leaf import leaf

_R7, _R17, _R45, _R64 = np.uint64(7), np.uint64(17), np.uint64(45), np.uint64(64)
_U5, _U9 = np.uint64(5), np.uint64(9)
#: A 64-bit word's high half is ``word >> U32``, its low half ``word & MASK32`` (the deal draws two
#: bounded numbers from one word).
U32, MASK32 = np.uint64(32), np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


def chunk_states(seed: int, chunks: Sequence[int]) -> np.ndarray:
    """uint64[len(chunks), 4]: the xoshiro256** state that starts each chunk's stream."""
    states = np.empty((len(chunks), 4), dtype=np.uint64)
    for i, k in enumerate(chunks):
        states[i] = np.random.SeedSequence(seed, spawn_key=(int(k),)).generate_state(4, np.uint64)
        if not states[i].any():  # the one state xoshiro cannot leave; probability 2^-256
            states[i, 0] = 1
    return states


@njit(uint64(uint64, uint64), cache=True)
def _rotl(x, k):
    return (x << k) | (x >> (_R64 - k))


@leaf
def next_u64(state):
    """Next 64-bit output of the xoshiro256** generator whose state is ``state`` (uint64[4])."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * _U5, _R7) * _U9
    t = s1 << _R17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _R45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@leaf
def bounded32(word, state, n):
    """Uniform integer in [0, n), 0 < n < 2^32, from the 32-bit ``word`` (Lemire's multiply-shift).

    The rare biased draw is rejected and replaced from the top half of fresh outputs, so the result
    is exactly uniform.
    """
    un = np.uint64(n)
    m = word * un
    low = m & MASK32
    if low < un:
        threshold = (_TWO32 - un) % un
        while low < threshold:
            m = (next_u64(state) >> U32) * un
            low = m & MASK32
    return np.int64(m >> U32)


@leaf
def bounded(state, n):
    """Uniform integer in [0, n) for 0 < n < 2^32, from the top half of one output."""
    return bounded32(next_u64(state) >> U32, state, n)


def stream_key(seed: int) -> np.ndarray:
    """uint64[4]: the key from which :func:`hand_state` derives every (game, hand) stream of a run."""
    return np.random.SeedSequence(seed).generate_state(4, np.uint64)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@njit(cache=True)
def _mix(z):
    """SplitMix64's finaliser: a bijection of 64-bit words that spreads every input bit."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@leaf
def hand_state(key, game, hand, state):
    """Fill ``state`` (uint64[4]) with the xoshiro256** stream of hand ``hand`` of game ``game``.

    Each hand's randomness depends only on (key, game, hand), never on what earlier hands drew, so two
    rule sets played from one key deal the same cards to hand h of game g even when a redeal or a
    longer game makes one of them draw more (common random numbers for ``pinochle compare``)."""
    x = _mix(key[0] ^ _mix(key[1] + np.uint64(game) * _GOLDEN))
    x = _mix(x ^ (key[2] + np.uint64(hand) * _GOLDEN)) ^ key[3]
    for i in range(4):
        x += _GOLDEN
        state[i] = _mix(x)
