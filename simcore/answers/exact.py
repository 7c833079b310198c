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
  inverting over the thresholds (Möbius inversion on the product order). The counts reach C(120, 20)
  ~ 2**75, so they are computed in int64 numba kernels modulo a few primes below 2**26 and
  recombined by the Chinese remainder theorem (the result is checked to add up to C(deck, h)). In
  each kernel the points dimension is evaluated at roots of unity mod p, so multiplying suits is a
  pointwise product there and a truncated polynomial product in the cards; the best trump is the
  largest (trump - plain) delta over the suits, counted as F(d) - F(d - 1) over the delta levels d.
  A 48- or 80-card deck takes well under a second, a 96- or 120-card deck a few seconds (it took
  minutes with Python integers); each (variant, trump) is cached.
* :func:`deal_probability` — P(at least one of m hands of a deal holds the event): the table, or a
  partnership's seats. It counts whole deals, hand by hand, over the few card types the event
  depends on (Q♠ and J♦; the four cards of a rank around; the aces, or the nines, as one type;
  the K and Q of each suit): the state is how many copies of each the hands so far took, and every
  hand fills up with the other cards. Presence events (pinochle, double pinochle, every around,
  roundhouse, five nines, a nines-only redeal) go by inclusion and exclusion over the hands that
  hold them; no-aces and marriage by the deals where no hand has it. Each takes at most about a
  second on every shipped deck, 120 cards too. Out of reach (:data:`OUT_OF_REACH`), since the state
  grows as (copies + 1) to the number of types: marriage and roundhouse from 3 or more copies (8
  types), runs (20), no-meld (16), a redeal that also needs no meld, and meld>=X (every card); they
  stay exact only where two hands can never share them (then m × P(hand)).
  :func:`per_deal_exact` is the table's value beside the simulated one in ``pinochle odds``.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, gcd
from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.cards import ACE, JACK, KING, N_RANKS, N_SUITS, N_TYPES, NINE, QUEEN, RANKS, TEN
from simcore.kernels.events import (
    K_AROUND,
    K_MARRIAGE,
    K_MELD_AT_LEAST,
    K_NINES,
    K_NO_ACES,
    K_NO_MELD,
    K_PINOCHLE,
    K_REDEAL,
    K_ROUNDHOUSE,
    K_RUN,
    Event,
)
from simcore.kernels.meld import trump_class_one
from simcore.variants import Variant
from simcore.variants.layout import ACES, F_DIX, JACKS, KINGS, MARRIAGE, PINOCHLE, QUEENS, ROUNDHOUSE

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
    return (
        c[KING] > 0 and c[QUEEN] > 0,
        suit == SPADES and c[QUEEN] > 0,
        suit == DIAMONDS and c[JACK] > 0,
        c[ACE] > 0,
        c[KING] > 0,
        c[QUEEN] > 0,
        c[JACK] > 0,
    )


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
        return (lambda s, c: (min(c[ACE], c[TEN], c[KING], c[QUEEN], c[JACK]) >= a,)), ("or",), lambda x: x[0]
    if k == K_PINOCHLE:
        return (
            (lambda s, c: (s == SPADES and c[QUEEN] >= a, s == DIAMONDS and c[JACK] >= a)),
            ("or", "or"),
            lambda x: x[0] and x[1],
        )
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
        return (
            (lambda s, c: (min(c[NINE], a),) + _no_meld_summary(s, c)),
            (("sum", a),) + _NO_MELD_OPS,
            lambda x: a > 0 and x[0] >= a and (b == 0 or _no_meld(x[1:])),
        )
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
    return event_probability_given(event, tuple(int(c) for c in variant.deck_copies), (0,) * N_TYPES, variant.hand_size)


@lru_cache(maxsize=1024)
def event_probability_given(event: Event, pool: tuple[int, ...], base: tuple[int, ...], h: int) -> Fraction:
    """Exact P(the cards ``base`` plus ``h`` cards drawn at random from ``pool`` hold ``event``).

    ``pool`` and ``base`` are 24 copy counts by card type: the unseen cards and the cards known to be
    in the hand. With the cards a player holds taken out of the deck, this is the chance for his own
    hand (``base`` = what he holds, ``h`` = the cards still to come), for any one other hand (``base``
    empty, ``h`` = a hand) or for the widow (``h`` = its size): each is a uniform draw from the unseen
    cards. Every event but ``meld>=X``, by the same suit-by-suit count as :func:`event_probability`."""
    return _hand_probability(_event_spec(event), pool, base, h)


Holding = tuple[tuple[int, ...], int, int]


@lru_cache(maxsize=1024)
def holding_probability(
    holdings: tuple[Holding, ...], pool: tuple[int, ...], base: tuple[int, ...], h: int, event: Event | None = None
) -> Fraction:
    """Exact P(the cards ``base`` plus ``h`` cards drawn at random from ``pool`` hold, for each
    (card types, lo, hi) of ``holdings``, from lo to hi copies of those types in all (and ``event``,
    where given)): the multivariate hypergeometric, counted suit by suit as in
    :func:`event_probability_given`. A card, a suit's length or a rank's count is such a holding."""
    caps = tuple(lo if hi >= 1 << 40 else hi + 1 for _, lo, hi in holdings)
    per_suit = [
        [tuple(t - s * N_RANKS for t in types if s * N_RANKS <= t < (s + 1) * N_RANKS) for types, _, _ in holdings]
        for s in range(N_SUITS)
    ]

    def summary(s, c):
        return tuple(min(sum(c[r] for r in ranks), cap) for ranks, cap in zip(per_suit[s], caps))

    def accept(x):
        return all(lo <= k <= hi for k, (_, lo, hi) in zip(x, holdings))

    spec = (summary, tuple(("sum", cap) for cap in caps), accept)
    if event is not None:
        e_summary, e_ops, e_accept = _event_spec(event)
        n = len(holdings)
        spec = (
            lambda s, c: summary(s, c) + e_summary(s, c),
            spec[1] + tuple(e_ops),
            lambda x: accept(x[:n]) and e_accept(x[n:]),
        )
    return _hand_probability(spec, pool, base, h)


def _hand_probability(spec, pool: tuple[int, ...], base: tuple[int, ...], h: int) -> Fraction:
    """P(``base`` plus ``h`` cards drawn from ``pool`` pass ``spec``: (per-suit summary, combining
    ops, acceptance test))."""
    summary, ops, accept = spec
    states: dict = {(0, _start(ops)): 1}
    for s in range(N_SUITS):
        groups: Counter = Counter()
        copies = pool[s * N_RANKS : (s + 1) * N_RANKS]
        known = base[s * N_RANKS : (s + 1) * N_RANKS]
        for ks in itertools.product(*[range(c + 1) for c in copies]):
            ways = 1
            for c, k in zip(copies, ks):
                ways *= comb(c, k)
            groups[(sum(ks), summary(s, tuple(a + k for a, k in zip(known, ks))))] += ways
        nxt: dict = defaultdict(int)
        for (n, x), count in states.items():
            for (m, y), ways in groups.items():
                if n + m <= h:
                    nxt[(n + m, _combine(ops, x, y))] += count * ways
        states = nxt
    hits = sum(count for (n, x), count in states.items() if n == h and accept(x))
    return Fraction(hits, comb(sum(pool), h))


def widow_holds_probability(pool: tuple[int, ...], want: tuple[int, ...], widow: int) -> Fraction:
    """Exact P(a widow of ``widow`` cards drawn from the unseen ``pool`` holds at least ``want[t]``
    copies of each card type t) (Scarne's "chances that a wanted card will be found in the widow").
    A multivariate hypergeometric sum over the wanted types' counts; the rest fill the widow."""
    wanted = [t for t in range(len(want)) if want[t] > 0]
    others = sum(pool) - sum(pool[t] for t in wanted)
    hits = 0
    for ks in itertools.product(*[range(want[t], pool[t] + 1) for t in wanted]):
        if sum(ks) <= widow:
            ways = comb(others, widow - sum(ks))
            for t, k in zip(wanted, ks):
                ways *= comb(pool[t], k)
            hits += ways
    return Fraction(hits, comb(sum(pool), widow))


def _relevant_cards(variant: Variant, event: Event):
    """(copies of each card type the event depends on, the event as a test on a hand's counts of
    them, the size of the blocks of types that are interchangeable (0: none; 1: the four suits of
    an around; 2: each suit's K and Q)) or None when the event depends on too many types for the
    per-deal count. Cards that play the same part are one type: the nines of all
    suits for ``five-nines``, the aces for ``no-aces``."""
    c = variant.copies

    def copies(rank: int) -> int:
        return c if RANKS[rank] in variant.ranks else 0

    k, a, b = event.kind, event.a, event.b
    if k == K_PINOCHLE:
        return (copies(QUEEN), copies(JACK)), ("each", a), 0
    if k == K_AROUND:
        return (copies(a),) * N_SUITS, ("each", b), 1
    if k == K_NO_ACES:
        return (N_SUITS * copies(ACE),), ("none", 0), 0
    if k == K_NINES or (k == K_REDEAL and b == 0):
        return (N_SUITS * copies(NINE),), ("each", a) if a > 0 else ("never", 0), 0
    if k in (K_MARRIAGE, K_ROUNDHOUSE) and c <= _MAX_COPIES_K_AND_Q:
        # K and Q of each suit, the suits' (K, Q) pairs interchangeable
        return (copies(KING), copies(QUEEN)) * N_SUITS, ("marriage" if k == K_MARRIAGE else "roundhouse", 0), 2
    return None


#: Marriage and roundhouse count the K and Q of every suit: (copies + 1) ** 8 states, in reach in
#: Python integers for two copies per card (48 cards), not for 3, 4 or 6.
_MAX_COPIES_K_AND_Q = 2


def _exclusive(variant: Variant, event: Event) -> bool:
    """True when two hands of one deal can never both hold ``event`` (it needs more than half of
    some cards): then P(some of m hands) = m P(hand), whatever else the event asks."""
    c = variant.copies
    nines = N_SUITS * c if "9" in variant.ranks else 0
    if event.kind == K_ROUNDHOUSE:
        return 2 > c
    if event.kind == K_REDEAL and event.a > 0:
        return 2 * event.a > nines
    return False


#: Why an event has no exact per-deal value where two hands can share it.
OUT_OF_REACH = {
    K_MARRIAGE: "depends on 8 card types (K and Q of each suit): in reach for 2 copies per card only",
    K_ROUNDHOUSE: "depends on 8 card types (K and Q of each suit): in reach for 1 or 2 copies only",
    K_RUN: "a run in any suit depends on 20 card types",
    K_NO_MELD: "depends on the A, K, Q and J of every suit (16 card types)",
    K_REDEAL: "with 'no meld' the rule depends on 20 card types (exact only when two hands cannot "
    "both reach the nines)",
    K_MELD_AT_LEAST: "depends on every card",
}


def _holds(test: tuple[str, int], k: tuple[int, ...]) -> bool:
    kind, a = test
    if kind == "each":
        return min(k) >= a
    if kind == "none":
        return sum(k) == 0
    if kind == "marriage":
        return any(k[i] and k[i + 1] for i in range(0, len(k), 2))
    if kind == "roundhouse":
        return all(k[i] and k[i + 1] for i in range(0, len(k), 2))
    return False


@lru_cache(maxsize=256)
def _sequences(
    n_cards: int, h: int, copies: tuple[int, ...], test: tuple[str, int], holding: bool, block: int, hands: int
) -> tuple[int, ...]:
    """For j = 0..hands: the number of ways to deal j ordered hands that all hold the event
    (``holding``) or that all miss it.

    Hand by hand, the state is how many copies of each relevant type the hands so far took; a hand
    takes k of them (C(left, k) ways per type) and fills up with other cards (C(other cards left,
    h - |k|) ways). Where blocks of types are interchangeable the state keeps its blocks sorted and
    stands for its whole orbit: the counts are invariant under permuting the blocks, so the orbit's
    total moves as one."""
    others = n_cards - sum(copies)
    comps = [
        k for k in itertools.product(*[range(ci + 1) for ci in copies]) if sum(k) <= h and _holds(test, k) == holding
    ]
    states = {tuple(0 for _ in copies): 1}
    out = [1]
    for i in range(hands):
        nxt: dict = defaultdict(int)
        for u, count in states.items():
            others_left = others - (i * h - sum(u))
            fill = [comb(others_left, h - m) for m in range(h + 1)]
            left = [ci - ui for ci, ui in zip(copies, u)]
            for k in comps:
                ways = fill[sum(k)]
                for lt, kt in zip(left, k):
                    if kt > lt:
                        ways = 0
                        break
                    ways *= comb(lt, kt)
                if ways:
                    v = tuple(ui + kt for ui, kt in zip(u, k))
                    if block:
                        v = sum(sorted(v[i : i + block] for i in range(0, len(v), block)), ())
                    nxt[v] += count * ways
        states = nxt
        out.append(sum(states.values()))
    return tuple(out)


@lru_cache(maxsize=256)
def deal_probability(variant: Variant, event: Event, hands: int | None = None) -> Fraction | None:
    """Exact P(at least one of ``hands`` hands of a deal holds ``event``) (default: every player;
    a partnership's 2 or 3 seats give its chance), or None where the count is out of reach (see
    :data:`OUT_OF_REACH`). The widow and any stock never count.

    It counts whole deals, hand by hand, over the few card types the event depends on: either the
    deals whose hands all miss the event (``no-aces``), or, for events that need at least a copies
    of each relevant type, by inclusion and exclusion over the hands that hold it:
    P(some of m) = sum_j (-1)**(j+1) C(m, j) P(hands 1..j all hold it), the hands being exchangeable."""
    m = variant.players if hands is None else hands
    spec = _relevant_cards(variant, event)
    if spec is None:
        return m * event_probability(variant, event) if _exclusive(variant, event) else None
    copies, test, block = spec
    n_cards, h = variant.deck_size, variant.hand_size
    if test[0] == "never":
        return Fraction(0)
    totals = [1]
    for i in range(m):
        totals.append(totals[-1] * comb(n_cards - i * h, h))
    if test[0] in ("each", "roundhouse"):  # few holdings have it, few hands can hold it at once
        all_hold = _sequences(n_cards, h, copies, test, True, block, m)
        return sum(Fraction((-1) ** (j + 1) * comb(m, j) * all_hold[j], totals[j]) for j in range(1, m + 1))
    return 1 - Fraction(_sequences(n_cards, h, copies, test, False, block, m)[m], totals[m])


def per_deal_exact(variant: Variant, event: Event, per_hand: Fraction) -> Fraction | None:
    """Exact P(some hand of a deal holds ``event``), or None where out of reach (``per_hand`` = 0
    short-cuts to 0)."""
    if per_hand == 0:
        return Fraction(0)
    return deal_probability(variant, event)


# --- meld distribution ------------------------------------------------------------------------


@njit(cache=True)
def _suit_points(counts, table, flags):
    """(plain-marriage points, trump-suit points: class I plus dix) of each one-suit holding, by the
    meld kernel's own rules (tests hold them to the reference scorer through the enumerations)."""
    plain = np.zeros(counts.shape[0], dtype=np.int64)
    trump = np.zeros(counts.shape[0], dtype=np.int64)
    hand = np.zeros(N_SUITS * N_RANKS, dtype=np.uint8)
    for i in range(counts.shape[0]):
        for r in range(N_RANKS):
            hand[r] = counts[i, r]
        plain[i] = table[MARRIAGE, min(counts[i, KING], counts[i, QUEEN])]
        trump[i] = trump_class_one(hand, 0, table, flags)[0] + counts[i, NINE] * flags[F_DIX]
    return plain, trump


@lru_cache(maxsize=32)
def _suit_melds(variant: Variant) -> tuple[np.ndarray, ...]:
    """Per suit holding: counts (6), ways, cards, plain-marriage points, trump-suit points (class I
    plus dix)."""
    comps = _suit_compositions(variant)
    counts = np.array([c for c, _ in comps], dtype=np.int64)
    ways = [w for _, w in comps]
    plain, trump = _suit_points(counts, variant.meld_table, variant.meld_flags)
    return counts, ways, counts.sum(axis=1), plain, trump


# Primes p < 2**26 with p - 1 divisible by 2**10 * 45, so the points dimension can be evaluated at
# the n-th roots of unity mod p for every n = 2**a * 3**b * 5**c (a <= 10, b <= 2, c <= 1). A product
# of two residues is below 2**52, so a kernel adds up to 2**11 of them in int64 before one reduction.
# Ten of them exceed the most hands any allowed deck can deal (C(192, 60) < 2**169).
PRIMES = (67046401, 66908161, 66723841, 66677761, 66309121, 66078721, 65894401, 65756161, 65710081, 65571841)
_ROOT_ORDERS = sorted(2**a * 3**b * 5**c for a in range(11) for b in range(3) for c in range(2))


def _primes_for(bound: int) -> tuple[int, ...]:
    """The fewest of :data:`PRIMES` whose product exceeds ``bound``."""
    out, m = [], 1
    for p in PRIMES:
        out.append(p)
        m *= p
        if m > bound:
            return tuple(out)
    raise ValueError(f"counts up to {bound} need more primes than exact.PRIMES holds")


@cache
def _root(p: int, n: int) -> int:
    """A primitive n-th root of unity mod the prime p (n divides p - 1)."""
    q, factors, f = p - 1, set(), 2
    while f * f <= q:
        while q % f == 0:
            factors.add(f)
            q //= f
        f += 1
    if q > 1:
        factors.add(q)
    g = 2
    while any(pow(g, (p - 1) // f, p) == 1 for f in factors):
        g += 1
    return pow(g, (p - 1) // n, p)


class Roots(NamedTuple):
    """Evaluation and interpolation at the n-th roots of unity mod ``p`` (:func:`_transform`), as the
    counting kernels take them: ``fwd[e, j]`` = w**(e j), ``inv[x, j]`` = w**(-x j) for x below the
    width of the points brought back, and ``inv_n`` = 1/n mod p."""

    fwd: np.ndarray
    inv: np.ndarray
    inv_n: int
    p: int


class Holdings(NamedTuple):
    """The distinct holdings of one suit (the rows of :func:`_group`), as the counting kernels take
    them: int64[holdings] each, copies of its ace, king, queen and jack, its cards, its points (in the
    meld's unit) and the ways to hold it."""

    aces: np.ndarray
    kings: np.ndarray
    queens: np.ndarray
    jacks: np.ndarray
    cards: np.ndarray
    points: np.ndarray
    ways: np.ndarray


class TrumpHoldings(NamedTuple):
    """The trump suit's distinct holdings under a fixed trump: int64[holdings] each, copies of its ace,
    king, queen and jack, the (cards, points) pair it falls in (``pair``, an index of ``pair_cards``
    and ``pair_points``) and the ways to hold it."""

    aces: np.ndarray
    kings: np.ndarray
    queens: np.ndarray
    jacks: np.ndarray
    pair: np.ndarray
    ways: np.ndarray
    pair_cards: np.ndarray
    pair_points: np.ndarray


def _transform(p: int, n: int, rows_in: int, rows_out: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Evaluation and interpolation tables mod p for a primitive n-th root w: fwd[e, j] = w**(e j)
    (e < rows_in), inv[x, j] = w**(-x j) (x < rows_out), and 1/n."""
    w = _root(p, n)
    powers = [pow(w, e, p) for e in range(n)]
    fwd = np.array([[powers[e * j % n] for j in range(n)] for e in range(rows_in)], dtype=np.int64)
    inv = np.array([[powers[-x * j % n] for j in range(n)] for x in range(rows_out)], dtype=np.int64)
    return fwd.reshape(rows_in, n), inv.reshape(rows_out, n), pow(n, p - 2, p)


def _crt(residues: list[np.ndarray], primes: tuple[int, ...]) -> dict[int, int]:
    """``{index: value}`` for the nonzero values 0 <= v < prod(primes) given their residues."""
    m = 1
    for p in primes:
        m *= p
    coef = [(m // p) * pow(m // p % p, p - 2, p) for p in primes]
    out = {}
    for i in np.nonzero(np.any(np.stack(residues) != 0, axis=0))[0]:
        out[int(i)] = sum(int(r[i]) * c for r, c in zip(residues, coef)) % m
    return out


@njit(cache=True)
def _evaluate(coef, fwd, p, out):
    """out[j, c] = sum_e coef[c, e] w**(e j) mod p: a suit polynomial (cards x points, residues)
    evaluated at the roots of unity in the points dimension."""
    for c in range(coef.shape[0]):
        for j in range(fwd.shape[1]):
            s = 0
            for e in range(coef.shape[1]):
                s += coef[c, e] * fwd[e, j]
            out[j, c] = s % p


@njit(cache=True)
def _product(x, y, h, out, p):
    """out[m] = sum_i x[i] y[m - i] for m <= h, mod p (truncated product in the cards)."""
    for m in range(h + 1):
        s = 0
        for i in range(m + 1):
            s += x[i] * y[m - i]
        out[m] = s % p


@njit(cache=True)
def _square(x, h, out, p):
    """out = x * x truncated at h, mod p, each cross term once."""
    for m in range(h + 1):
        s = 0
        for i in range((m + 1) // 2):
            s += x[i] * x[m - i]
        s *= 2
        if m % 2 == 0:
            s += x[m // 2] * x[m // 2]
        out[m] = s % p


@njit(cache=True)
def _best_trump_counts(held, level, d_shift, thetas, h, roots, out):
    """out[t, plain points + delta - min delta] (mod p): hands of exactly h cards whose every suit
    meets thresholds[t] (A, K, Q, J, pinochle), by plain-marriage points plus the largest
    (trump - plain) delta over the suits. A suit's holdings are ``held`` (:class:`Holdings`, points
    as a plain suit), each at delta level ``level[g]``, the levels ``d_shift`` apart from the lowest.
    F(d), the product of the four suits restricted to deltas <= level d, is taken at the n-th roots
    of unity in the points dimension (a pointwise product, ``roots``: :class:`Roots`) and as a
    truncated polynomial in the cards; the hands whose largest delta is level d are F(d) - F(d - 1),
    brought back to coefficients."""
    ga, gk, gq, gj = held.aces, held.kings, held.queens, held.jacks
    gcards, gpts, gd, gways = held.cards, held.points, level, held.ways
    fwd, inv, inv_n, p = roots.fwd, roots.inv, roots.inv_n, roots.p
    n, n_d, width = fwd.shape[1], d_shift.shape[0], inv.shape[0]
    coef = np.zeros((3, n_d, h + 1, fwd.shape[0]), dtype=np.int64)
    q = np.zeros((3, n, h + 1), dtype=np.int64)
    changed = np.zeros(n_d, dtype=np.bool_)
    a = np.zeros(h + 1, dtype=np.int64)
    b = np.zeros(h + 1, dtype=np.int64)
    cur = np.zeros(n, dtype=np.int64)
    prev = np.zeros(n, dtype=np.int64)
    for t in range(thetas.shape[0]):
        ta, tk, tq, tj, tp = thetas[t, 0], thetas[t, 1], thetas[t, 2], thetas[t, 3], thetas[t, 4]
        same = tp <= tq and tp <= tj  # then spades and diamonds are plain suits too
        classes = 1 if same else 3
        coef[:] = 0
        q[:] = 0
        changed[:] = False
        # suit classes: 0 hearts and clubs, 1 spades (Q >= pinochle threshold), 2 diamonds (J >= it)
        for sc in range(classes):
            tqs = max(tq, tp) if sc == 1 else tq
            tjs = max(tj, tp) if sc == 2 else tj
            for g in range(ga.shape[0]):
                if ga[g] >= ta and gk[g] >= tk and gq[g] >= tqs and gj[g] >= tjs:
                    changed[gd[g]] = True
                    coef[sc, gd[g], gcards[g], gpts[g]] += gways[g]
        prev[:] = 0
        for di in range(n_d):
            if not changed[di]:
                continue
            # q[sc] += this level's holdings, evaluated: q is the suit restricted to deltas <= di
            for sc in range(classes):
                for c in range(h + 1):
                    for e in range(fwd.shape[0]):
                        w = coef[sc, di, c, e] % p
                        if w != 0:
                            for j in range(n):
                                q[sc, j, c] = (q[sc, j, c] + w * fwd[e, j]) % p
            for j in range(n):
                _square(q[0, j], h, a, p)
                if not same:
                    _product(q[1, j], q[2, j], h, b, p)
                s = 0
                if same:
                    for m in range(h + 1):
                        s += a[m] * a[h - m]
                else:
                    for m in range(h + 1):
                        s += a[m] * b[h - m]
                cur[j] = s % p
            for j in range(n):
                prev[j] = (cur[j] - prev[j] + p) % p
            for x in range(width):
                s = 0
                for j in range(n):
                    s += prev[j] * inv[x, j]
                k = x + d_shift[di]
                out[t, k] = (out[t, k] + (s % p) * inv_n) % p
            prev[:] = cur


@njit(cache=True)
def _fixed_trump_counts(plain, trumps, thetas, trump, h, roots, out):
    """out[t, points] (mod p): hands of exactly h cards whose every suit meets thresholds[t], by
    class I points under the fixed ``trump``: the three plain suits (``plain``, :class:`Holdings`)
    multiplied at the roots of unity (``roots``: :class:`Roots`) and brought back to coefficients,
    then each trump-suit holding (``trumps``, :class:`TrumpHoldings`, summed by their (cards, points)
    pair) added."""
    ga, gk, gq, gj = plain.aces, plain.kings, plain.queens, plain.jacks
    gcards, gpts, gways = plain.cards, plain.points, plain.ways
    ua, uk, uq, uj, upair, uways = trumps.aces, trumps.kings, trumps.queens, trumps.jacks, trumps.pair, trumps.ways
    pair_cards, pair_pts = trumps.pair_cards, trumps.pair_points
    fwd, inv, inv_n, p = roots.fwd, roots.inv, roots.inv_n, roots.p
    n, width = fwd.shape[1], inv.shape[0]
    coef = np.zeros((3, h + 1, fwd.shape[0]), dtype=np.int64)
    q = np.zeros((3, n, h + 1), dtype=np.int64)
    r = np.zeros((n, h + 1), dtype=np.int64)
    tmp = np.zeros(h + 1, dtype=np.int64)
    back = np.zeros((h + 1, width), dtype=np.int64)
    pair_ways = np.zeros(pair_cards.shape[0], dtype=np.int64)
    for t in range(thetas.shape[0]):
        ta, tk, tq, tj, tp = thetas[t, 0], thetas[t, 1], thetas[t, 2], thetas[t, 3], thetas[t, 4]
        coef[:] = 0
        sc = 0
        for s in range(4):
            if s == trump:
                continue
            tqs = max(tq, tp) if s == 0 else tq
            tjs = max(tj, tp) if s == 2 else tj
            for g in range(ga.shape[0]):
                if ga[g] >= ta and gk[g] >= tk and gq[g] >= tqs and gj[g] >= tjs:
                    coef[sc, gcards[g], gpts[g]] += gways[g]
            coef[sc] %= p
            _evaluate(coef[sc], fwd, p, q[sc])
            sc += 1
        for j in range(n):
            _product(q[0, j], q[1, j], h, tmp, p)
            _product(tmp, q[2, j], h, r[j], p)
        for c in range(h + 1):
            for x in range(width):
                s = 0
                for j in range(n):
                    s += r[j, c] * inv[x, j]
                back[c, x] = (s % p) * inv_n % p
        tqs = max(tq, tp) if trump == 0 else tq
        tjs = max(tj, tp) if trump == 2 else tj
        pair_ways[:] = 0
        for g in range(ua.shape[0]):
            if ua[g] >= ta and uk[g] >= tk and uq[g] >= tqs and uj[g] >= tjs:
                pair_ways[upair[g]] += uways[g]
        for k in range(pair_cards.shape[0]):
            w = pair_ways[k] % p
            if w != 0:
                c, e = pair_cards[k], pair_pts[k]
                for x in range(width):
                    out[t, e + x] = (out[t, e + x] + w * back[h - c, x]) % p


@njit(cache=True)
def _invert_thresholds(ge, neighbours, signs, offsets, unit, p, out):
    """Möbius inversion over the threshold order: the hands whose fewest A, K, Q, J and pinochle
    cards are exactly thresholds[mu] are the signed sum over mu's upper neighbours; each lands at
    out[points * unit + offsets[mu]] (mod p)."""
    for mu in range(ge.shape[0]):
        for x in range(ge.shape[1]):
            s = 0
            for e in range(neighbours.shape[1]):
                nb = neighbours[mu, e]
                if nb >= 0:
                    s += ge[nb, x] if signs[e] > 0 else p - ge[nb, x]
            s %= p
            if s:
                k = x * unit + offsets[mu]
                out[k] = (out[k] + s) % p


def _group(keys: list[np.ndarray], ways: np.ndarray) -> tuple[np.ndarray, ...]:
    """The distinct rows of ``keys`` (as int64 columns) with their summed ways."""
    rows, inverse = np.unique(np.stack(keys, axis=1), axis=0, return_inverse=True)
    total = np.zeros(len(rows), dtype=np.int64)
    np.add.at(total, inverse.ravel(), ways)
    return tuple(np.ascontiguousarray(rows[:, i]) for i in range(rows.shape[1])) + (total,)


@lru_cache(maxsize=64)
def _meld_distribution(variant: Variant, trump: int | None) -> tuple[tuple[int, int], ...]:
    counts, ways, cards, plain, trump_pts = _suit_melds(variant)
    ways = np.array(ways, dtype=np.int64)
    table = variant.meld_table
    h, c = variant.hand_size, variant.copies
    unit = gcd(*[int(x) for x in np.concatenate([plain, trump_pts])]) or 1
    plain_u, trump_u = plain // unit, trump_pts // unit
    delta_u = trump_u - plain_u
    wmax = int(plain_u.max())
    top = {r: (c if RANKS[r] in variant.ranks else 0) for r in (ACE, KING, QUEEN, JACK)}
    fits = cards <= h
    rank_keys = [counts[fits, r] for r in (ACE, KING, QUEEN, JACK)]

    thetas = [
        theta
        for theta in itertools.product(
            *[range(top[r] + 1) for r in (ACE, KING, QUEEN, JACK)], range(min(top[QUEEN], top[JACK]) + 1)
        )
        if 4 * sum(theta[:4]) + max(theta[2], theta[4]) - theta[2] + max(theta[3], theta[4]) - theta[3] <= h
    ]
    index = {theta: i for i, theta in enumerate(thetas)}
    eps = list(itertools.product((0, 1), repeat=5))
    neighbours = np.array(
        [[index.get(tuple(m + e for m, e in zip(theta, ep)), -1) for ep in eps] for theta in thetas], dtype=np.int64
    )
    signs = np.array([-1 if sum(ep) % 2 else 1 for ep in eps], dtype=np.int64)
    shared = np.array(
        [
            int(
                table[ACES, ta]
                + table[KINGS, tk]
                + table[QUEENS, tq]
                + table[JACKS, tj]
                + table[PINOCHLE, tp]
                + table[ROUNDHOUSE, min(tk, tq)]
            )
            for ta, tk, tq, tj, tp in thetas
        ],
        dtype=np.int64,
    )
    theta_arr = np.array(thetas, dtype=np.int64).reshape(-1, 5)

    if trump is None:
        levels, d_index = np.unique(delta_u[fits], return_inverse=True)
        *columns, level, level_ways = _group(rank_keys + [cards[fits], plain_u[fits], d_index.ravel()], ways[fits])
        held = Holdings(*columns, level_ways)
        width = 4 * wmax + 1
        base = int(levels[0])
        d_shift = (levels - base).astype(np.int64)
        out_width = width + int(d_shift[-1])
    else:
        held = Holdings(*_group(rank_keys + [cards[fits], plain_u[fits]], ways[fits]))
        *trump_ranks, trump_cards, trump_points, trump_ways = _group(
            rank_keys + [cards[fits], trump_u[fits]], ways[fits]
        )
        pairs, pair_index = np.unique(np.stack([trump_cards, trump_points], axis=1), axis=0, return_inverse=True)
        trumps = TrumpHoldings(
            *trump_ranks,
            pair_index.ravel().astype(np.int64),
            trump_ways,
            np.ascontiguousarray(pairs[:, 0]),
            np.ascontiguousarray(pairs[:, 1]),
        )
        width = 3 * wmax + 1
        base = 0
        out_width = width + int(trump_u[fits].max())
    n = next(k for k in _ROOT_ORDERS if k >= width)
    offsets = base * unit + shared
    lowest = int(offsets.min())
    offsets -= lowest
    total_hands = comb(variant.deck_size, h)
    primes = _primes_for(total_hands)
    residues = []
    for p in primes:
        roots = Roots(*_transform(p, n, wmax + 1, width), p)
        ge = np.zeros((len(thetas), out_width), dtype=np.int64)
        if trump is None:
            _best_trump_counts(held, level, d_shift, theta_arr, h, roots, ge)
        else:
            _fixed_trump_counts(held, trumps, theta_arr, trump, h, roots, ge)
        out = np.zeros((out_width - 1) * unit + int(offsets.max()) + 1, dtype=np.int64)
        _invert_thresholds(ge, neighbours, signs, offsets, unit, p, out)
        residues.append(out)
    dist = {k + lowest: v for k, v in _crt(residues, primes).items()}
    if sum(dist.values()) != total_hands:  # the residues cannot add up by accident
        raise AssertionError(
            f"meld distribution of {variant.id} counts {sum(dist.values())} hands, not C({variant.deck_size}, {h})"
        )
    return tuple(sorted(dist.items()))


def meld_distribution(variant: Variant, trump: int | None) -> dict[int, int]:
    """Exact ``{meld points: number of hands}`` over all C(deck, h) hands.

    ``trump`` is a suit index (0..3 = S, H, D, C) or None for each hand's best trump. Computed in
    machine integers modulo a few primes and recombined by the Chinese remainder theorem; cached
    per (variant, trump).
    """
    return dict(_meld_distribution(variant, trump))
