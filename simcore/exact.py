"""Exact odds: rational probabilities by dynamic programming over suits, for any deck and hand size.

A hand of h cards from a deck with c copies of each card type is a multivariate hypergeometric draw:
the number of hands with a given composition is the product of C(c, k) over its card types, out of
C(deck, h). Suits are independent apart from the total of h cards, so every count here is a sum over
one suit at a time of (cards used, a small summary of the suit), merged suit by suit.

* :func:`event_probability` — P(a hand holds the event), for every event but ``meld>=X``, with
  summaries of a few booleans or capped counts.
* :func:`meld_distribution` — the exact distribution of a hand's meld points, under a fixed trump or
  under its best trump. Arounds and pinochles depend on the *fewest* copies over suits; they are
  handled by counting hands whose every suit meets a threshold vector (a product over suits) and
  inverting over the thresholds (Möbius inversion on the product order).
* :func:`per_deal_exact` — P(at least one hand at the table holds the event), exact when two hands
  can never hold the event at once (e.g. five of eight nines): then it is players × P(hand).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from fractions import Fraction
from functools import lru_cache
from math import comb, gcd

import numpy as np

from simcore.cards import ACE, JACK, KING, N_RANKS, N_SUITS, NINE, QUEEN, RANKS, TEN, card_type
from simcore.events import (K_AROUND, K_MARRIAGE, K_MELD_AT_LEAST, K_NINES, K_NO_ACES, K_NO_MELD,
                            K_PINOCHLE, K_REDEAL, K_ROUNDHOUSE, K_RUN, Event)
from simcore.reference.meld import reference_meld
from simcore.variants import Variant
from simcore.variants.variant import ACES, JACKS, KINGS, PINOCHLE, QUEENS, ROUNDHOUSE

SPADES, DIAMONDS = 0, 2


def _suit_compositions(variant: Variant) -> list[tuple[tuple[int, ...], int]]:
    """Every holding of one suit as (copies of A,10,K,Q,J,9; number of ways to draw it)."""
    present = [r for r in range(N_RANKS) if RANKS[r] in variant.ranks]
    c = variant.copies
    out = []
    for ks in itertools.product(range(c + 1), repeat=len(present)):
        counts = [0] * N_RANKS
        ways = 1
        for r, k in zip(present, ks):
            counts[r] = k
            ways *= comb(c, k)
        out.append((tuple(counts), ways))
    return out


# --- events -----------------------------------------------------------------------------------

def _no_meld_summary(suit: int, c: tuple[int, ...]) -> tuple[bool, ...]:
    return (c[KING] > 0 and c[QUEEN] > 0, suit == SPADES and c[QUEEN] > 0,
            suit == DIAMONDS and c[JACK] > 0, c[ACE] > 0, c[KING] > 0, c[QUEEN] > 0, c[JACK] > 0)


_NO_MELD_OPS = ("or", "or", "or", "and", "and", "and", "and")


def _no_meld(summary: tuple[bool, ...]) -> bool:
    marriage, qs, jd, *arounds = summary
    return not (marriage or (qs and jd) or any(arounds))


def _event_spec(event: Event):
    """(per-suit summary, combining ops, acceptance test) of a hand-level event."""
    k, a, b = event.kind, event.a, event.b
    if k == K_MARRIAGE:
        return (lambda s, c: (c[KING] > 0 and c[QUEEN] > 0,)), ("or",), lambda x: x[0]
    if k == K_RUN:
        return (lambda s, c: (min(c[ACE], c[TEN], c[KING], c[QUEEN], c[JACK]) >= a,)), ("or",), \
            lambda x: x[0]
    if k == K_PINOCHLE:
        return (lambda s, c: (s == SPADES and c[QUEEN] >= a, s == DIAMONDS and c[JACK] >= a)), \
            ("or", "or"), lambda x: x[0] and x[1]
    if k == K_AROUND:
        return (lambda s, c: (c[a] >= b,)), ("and",), lambda x: x[0]
    if k == K_ROUNDHOUSE:
        return (lambda s, c: (c[KING] > 0 and c[QUEEN] > 0,)), ("and",), lambda x: x[0]
    if k == K_NO_ACES:
        return (lambda s, c: (c[ACE] == 0,)), ("and",), lambda x: x[0]
    if k == K_NO_MELD:
        return _no_meld_summary, _NO_MELD_OPS, _no_meld
    if k == K_NINES:
        return (lambda s, c: (min(c[NINE], a),)), (("sum", a),), lambda x: x[0] >= a
    if k == K_REDEAL:
        return (lambda s, c: (min(c[NINE], a),) + _no_meld_summary(s, c)), \
            (("sum", a),) + _NO_MELD_OPS, \
            lambda x: a > 0 and x[0] >= a and (b == 0 or _no_meld(x[1:]))
    raise ValueError(f"event {event.name} has no per-suit form")


def _combine(ops, x, y):
    out = []
    for op, u, v in zip(ops, x, y):
        if op == "or":
            out.append(u or v)
        elif op == "and":
            out.append(u and v)
        else:
            out.append(min(u + v, op[1]))
    return tuple(out)


def _start(ops):
    return tuple(False if op == "or" else True if op == "and" else 0 for op in ops)


def event_probability(variant: Variant, event: Event) -> Fraction:
    """Exact P(one dealt hand holds ``event``), as a fraction."""
    if event.kind == K_MELD_AT_LEAST:
        dist = meld_distribution(variant, None)
        return Fraction(sum(n for pts, n in dist.items() if pts >= event.a), sum(dist.values()))
    summary, ops, accept = _event_spec(event)
    h = variant.hand_size
    states: dict = {(0, _start(ops)): 1}
    comps = _suit_compositions(variant)
    for s in range(N_SUITS):
        groups: Counter = Counter()
        for c, ways in comps:
            groups[(sum(c), summary(s, c))] += ways
        nxt: dict = defaultdict(int)
        for (n, x), count in states.items():
            for (m, y), ways in groups.items():
                if n + m <= h:
                    nxt[(n + m, _combine(ops, x, y))] += count * ways
        states = nxt
    hits = sum(count for (n, x), count in states.items() if n == h and accept(x))
    return Fraction(hits, comb(variant.deck_size, h))


def _exclusive(variant: Variant, event: Event) -> bool:
    """True when two hands of one deal can never both hold ``event`` (it needs more than half of
    some cards)."""
    c = variant.copies
    nines = N_SUITS * c if "9" in variant.ranks else 0
    if event.kind == K_PINOCHLE or event.kind == K_AROUND:
        need = event.a if event.kind == K_PINOCHLE else event.b
        return 2 * need > c
    if event.kind == K_ROUNDHOUSE:
        return 2 > c
    if event.kind == K_NINES or (event.kind == K_REDEAL and event.a > 0):
        return 2 * event.a > nines
    return False


def per_deal_exact(variant: Variant, event: Event, per_hand: Fraction) -> Fraction | None:
    """Exact P(some hand of a deal holds ``event``) where hands exclude each other, else None."""
    if per_hand == 0:
        return Fraction(0)
    if _exclusive(variant, event):
        return variant.players * per_hand
    return None


# --- meld distribution ------------------------------------------------------------------------

@lru_cache(maxsize=32)
def _suit_melds(variant: Variant) -> tuple[np.ndarray, ...]:
    """Per suit holding: counts (6), ways, cards, plain-marriage points, trump-suit points (class I
    plus dix), computed with the reference scorer on a hand holding only that suit."""
    comps = _suit_compositions(variant)
    counts = np.array([c for c, _ in comps], dtype=np.int64)
    ways = [w for _, w in comps]
    plain, trump = [], []
    for c, _ in comps:
        hand = np.zeros(N_SUITS * N_RANKS, dtype=np.uint8)
        for r in range(N_RANKS):
            hand[card_type(0, r)] = c[r]
        as_trump = reference_meld(hand, 0, variant)
        trump.append(sum(as_trump[k][1] for k in ("run", "run_extra_marriage", "run_extra_king",
                                                  "run_extra_queen", "royal_marriage", "dix")))
        plain.append(reference_meld(hand, 1, variant)["marriage"][1])
    return counts, ways, counts.sum(axis=1), np.array(plain, dtype=np.int64), np.array(trump, dtype=np.int64)


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Product of two polynomials in (cards, points), truncated at the array's card count."""
    h, w = a.shape
    out = np.zeros_like(a)
    for i, j in zip(*np.nonzero(a)):
        out[i:, j:] += a[i, j] * b[: h - i, : w - j]
    return out


def meld_distribution(variant: Variant, trump: int | None) -> dict[int, int]:
    """Exact ``{meld points: number of hands}`` over all C(deck, h) hands.

    ``trump`` is a suit index (0..3 = S, H, D, C) or None for each hand's best trump.
    """
    counts, ways, cards, plain, trump_pts = _suit_melds(variant)
    table = variant.meld_table()
    h, c = variant.hand_size, variant.copies
    dtype = np.int64 if comb(variant.deck_size, h) < 2**62 else object
    unit = gcd(*[int(x) for x in np.concatenate([plain, trump_pts])]) or 1
    plain_u, trump_u = plain // unit, trump_pts // unit
    delta_u = trump_u - plain_u
    wmax = int(plain_u.max())
    top = {r: (c if RANKS[r] in variant.ranks else 0) for r in (ACE, KING, QUEEN, JACK)}

    def poly(mask: np.ndarray, points: np.ndarray, width: int) -> np.ndarray:
        p = np.zeros((h + 1, width), dtype=dtype)
        for i in np.nonzero(mask & (cards <= h))[0]:
            p[cards[i], points[i]] += ways[i]
        return p

    def meets(theta: tuple[int, ...], suit: int) -> np.ndarray:
        ta, tk, tq, tj, tp = theta
        ok = (counts[:, ACE] >= ta) & (counts[:, KING] >= tk) & (counts[:, QUEEN] >= tq) & \
             (counts[:, JACK] >= tj)
        if suit == SPADES:
            ok &= counts[:, QUEEN] >= tp
        if suit == DIAMONDS:
            ok &= counts[:, JACK] >= tp
        return ok

    def at_least(theta: tuple[int, ...]) -> dict[int, int]:
        """{points in units: hands} over hands whose every suit meets the thresholds ``theta``."""
        out: dict[int, int] = defaultdict(int)
        if trump is not None:
            width = 3 * wmax + int(trump_u.max()) + 1
            total = poly(meets(theta, trump), trump_u, width)
            for s in range(N_SUITS):
                if s != trump:
                    total = _convolve(total, poly(meets(theta, s), plain_u, width))
            for pts in np.nonzero(total[h])[0]:
                out[int(pts)] += total[h, pts]
            return out
        # best trump: points = sum of plain marriages + the largest (trump - plain) over the suits,
        # counted as (hands with every delta <= d) - (hands with every delta <= the previous d)
        width = 4 * wmax + 1
        previous = np.zeros(width, dtype=dtype)
        for d in np.unique(delta_u):
            total = None
            for s in range(N_SUITS):
                p = poly(meets(theta, s) & (delta_u <= d), plain_u, width)
                total = p if total is None else _convolve(total, p)
            row = total[h].copy()
            for pts in np.nonzero(row - previous)[0]:
                out[int(pts + d)] += row[pts] - previous[pts]
            previous = row
        return out

    thetas = list(itertools.product(*[range(top[r] + 1) for r in (ACE, KING, QUEEN, JACK)],
                                    range(min(top[QUEEN], top[JACK]) + 1)))
    ge: dict[tuple[int, ...], dict[int, int]] = {}
    for theta in thetas:
        ta, tk, tq, tj, tp = theta
        need = 4 * (ta + tk + tq + tj) + max(tq, tp) - tq + max(tj, tp) - tj
        if need <= h:
            ge[theta] = at_least(theta)

    dist: dict[int, int] = defaultdict(int)
    for mu in ge:
        exact: dict[int, int] = defaultdict(int)
        for eps in itertools.product((0, 1), repeat=5):
            nb = tuple(m + e for m, e in zip(mu, eps))
            sign = -1 if sum(eps) % 2 else 1
            for pts, n in ge.get(nb, {}).items():
                exact[pts] += sign * n
        ma, mk, mq, mj, mp = mu
        shared = int(table[ACES, ma] + table[KINGS, mk] + table[QUEENS, mq] + table[JACKS, mj]
                     + table[PINOCHLE, mp] + table[ROUNDHOUSE, min(mk, mq)])
        for pts, n in exact.items():
            if n:
                dist[pts * unit + shared] += int(n)
    return dict(sorted(dist.items()))
