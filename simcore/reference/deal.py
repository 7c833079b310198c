"""The reference deal: xoshiro256**, Lemire's bounded draw and Fisher–Yates in plain Python integers.

Same stream, same algorithm as :mod:`simcore.kernels.rng` and :mod:`simcore.kernels.deal`, so tests can require the
kernel's deals to be identical card for card.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


class Xoshiro256:
    """xoshiro256** on Python ints, from a state of four 64-bit words."""

    def __init__(self, state):
        self.s = [int(x) for x in state]

    def next(self) -> int:
        s = self.s
        result = (((s[1] * 5) & MASK64) << 7 | ((s[1] * 5) & MASK64) >> 57) & MASK64
        result = (result * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & MASK64
        return result

    def below(self, n: int, word: int) -> int:
        """Uniform integer in [0, n) from a 32-bit word; a biased draw is redrawn from fresh top halves."""
        m = word * n
        if (m & 0xFFFFFFFF) < n:
            threshold = ((1 << 32) - n) % n
            while (m & 0xFFFFFFFF) < threshold:
                m = (self.next() >> 32) * n
        return m >> 32


def reference_deals(deck: list[int], players: int, hand_size: int, state, deals: int) -> list[list[list[int]]]:
    """``deals`` successive deals as lists of card types per seat (the last list is the widow)."""
    rng = Xoshiro256(state)
    cards = list(deck)
    out = []
    for _ in range(deals):
        dealt = players * hand_size
        # the last block (widow, or else the last hand) is whatever remains: no draws for it
        drawn = dealt if dealt < len(cards) else dealt - hand_size
        word = 0
        for i in range(drawn):
            if i % 2 == 0:  # one 64-bit output serves two draws: high half, then low half
                word = rng.next()
                half = word >> 32
            else:
                half = word & 0xFFFFFFFF
            j = i + rng.below(len(cards) - i, half)
            cards[i], cards[j] = cards[j], cards[i]
        seats = [sorted(cards[p * hand_size : (p + 1) * hand_size]) for p in range(players)]
        out.append(seats + [sorted(cards[dealt:])])
    return out
