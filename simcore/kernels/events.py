"""The catalogue of dealt-hand events (``pinochle odds --list``) and their numba evaluator.

An event is a property of one dealt hand before trump is known. Each has a kind (the code path in
:func:`hand_has_event`) and two integer parameters, so the kernel sees only integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.cards import ACE, JACK, JACK_OF_DIAMONDS, KING, N_RANKS, N_SUITS, NINE, QUEEN, QUEEN_OF_SPADES, TEN
from simcore.kernels.leaf import leaf
from simcore.kernels.meld import meld_by_trump
from simcore.variants import Variant

(K_MARRIAGE, K_RUN, K_PINOCHLE, K_AROUND, K_ROUNDHOUSE, K_NO_ACES, K_NO_MELD, K_NINES, K_REDEAL, K_MELD_AT_LEAST) = (
    range(10)
)


@dataclass(frozen=True)
class Event:
    """A named event: ``kind`` selects the test, ``a`` and ``b`` are its integer parameters."""

    name: str
    kind: int
    a: int
    b: int
    help: str


_AROUND_RANKS = (("aces", ACE), ("kings", KING), ("queens", QUEEN), ("jacks", JACK))

CATALOGUE: dict[str, Event] = {
    e.name: e
    for e in [
        Event("marriage", K_MARRIAGE, 0, 0, "a K and Q of one suit"),
        Event("run", K_RUN, 1, 0, "A-10-K-Q-J of one suit"),
        Event("double-run", K_RUN, 2, 0, "two of each of A-10-K-Q-J of one suit"),
        Event("pinochle", K_PINOCHLE, 1, 0, "Q♠ and J♦"),
        Event("double-pinochle", K_PINOCHLE, 2, 0, "two Q♠ and two J♦"),
        *[
            Event(f"{name}-around", K_AROUND, rank, 1, f"at least one {name[:-1]} of every suit")
            for name, rank in _AROUND_RANKS
        ],
        *[
            Event(f"double-{name}", K_AROUND, rank, 2, f"at least two {name} of every suit")
            for name, rank in _AROUND_RANKS
        ],
        Event("roundhouse", K_ROUNDHOUSE, 0, 0, "a K and a Q of every suit"),
        Event("no-aces", K_NO_ACES, 0, 0, "no ace at all"),
        Event("no-meld", K_NO_MELD, 0, 0, "no marriage, no pinochle, no around (nines ignored)"),
        Event("five-nines", K_NINES, 5, 0, "five or more nines"),
        Event("redeal", K_REDEAL, 0, 0, "the variant's own redeal rule fires (e.g. 5+ nines and no meld)"),
    ]
}

_MELD_AT_LEAST = "meld>="
#: The largest X of ``meld>=X``: more than any hand of any allowed table can meld.
MAX_MELD_THRESHOLD = 1_000_000


class EventError(ValueError):
    """An event name that is not in the catalogue."""


#: Where the command line lists the events, for the message naming an unknown one.
CLI_LISTING = "`pinochle odds --list` lists the events"


def parse_event(name: str, variant: Variant, listing: str = CLI_LISTING) -> Event:
    """The :class:`Event` called ``name``; ``meld>=X`` and ``redeal`` take their numbers from the variant.
    ``listing``: where the message for an unknown name sends the reader."""
    shown = repr(name) if len(name) <= 40 else repr(name[:37]) + "..."
    if name.startswith(_MELD_AT_LEAST):
        digits = name[len(_MELD_AT_LEAST) :]
        # ASCII digits only: int() would also take '٣٠' or '２０', and a trailing newline
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 7 and int(digits) <= MAX_MELD_THRESHOLD):
            raise EventError(
                f"event {shown}: X in meld>=X is a whole number from 0 to {MAX_MELD_THRESHOLD:,}, in the digits 0-9"
            )
        x = int(digits)
        return Event(name, K_MELD_AT_LEAST, x, 0, f"best-trump meld of at least {x} points")
    if name not in CATALOGUE:
        import difflib

        close = difflib.get_close_matches(name[:40], list(CATALOGUE) + ["meld>=20"], n=1, cutoff=0.5)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise EventError(f"event {shown} is not known{hint}; {listing}")
    event = CATALOGUE[name]
    if event.kind == K_REDEAL:
        return Event(name, K_REDEAL, variant.redeal_min_nines, int(variant.redeal_require_no_meld), event.help)
    return event


def can_hold(event: Event, variant: Variant) -> bool:
    """Whether some hand the system deals (``hand_size`` cards of its deck) holds ``event``, from the
    deck's copies and the hand size: five nines in a deck without nines, or a redeal in a system
    without one, cannot happen. ``event`` as :func:`parse_event` gives it for ``variant`` (a redeal's
    numbers are the system's). True where the cards alone do not decide it (no meld, meld>=X)."""
    copies, size = variant.deck_copies, variant.hand_size

    def rank(r: int) -> list[int]:
        return [int(copies[s * N_RANKS + r]) for s in range(N_SUITS)]

    nines = sum(rank(NINE))
    if event.kind == K_MARRIAGE:
        return size >= 2 and any(k and q for k, q in zip(rank(KING), rank(QUEEN)))
    if event.kind == K_RUN:
        suits = zip(*(rank(r) for r in (ACE, TEN, KING, QUEEN, JACK)))
        return size >= 5 * event.a and any(min(s) >= event.a for s in suits)
    if event.kind == K_PINOCHLE:
        return size >= 2 * event.a and min(copies[QUEEN_OF_SPADES], copies[JACK_OF_DIAMONDS]) >= event.a
    if event.kind == K_AROUND:
        return size >= N_SUITS * event.b and min(rank(event.a)) >= event.b
    if event.kind == K_ROUNDHOUSE:
        return size >= 2 * N_SUITS and min(rank(KING) + rank(QUEEN)) >= 1
    if event.kind == K_NO_ACES:
        return int(copies.sum()) - sum(rank(ACE)) >= size
    if event.kind == K_NINES:
        return min(nines, size) >= event.a
    if event.kind == K_REDEAL:  # no redeal at all where the system's least nines is 0
        return event.a > 0 and min(nines, size) >= event.a
    return True


#: Entries of :func:`hand_features`: every event is one of them reaching a threshold (:func:`event_test`).
(X_MARRIAGE, X_RUN, X_PINOCHLE, X_ROUNDHOUSE, X_NO_ACES, X_NINES, X_NO_MELD, X_NINES_NO_MELD) = range(8)
X_AROUND = 8  # X_AROUND + rank: the fewest copies of that rank over the four suits
N_FEATURES = X_AROUND + N_RANKS
X_BEST = N_FEATURES  # the best-trump meld, which the caller supplies (meld>=X)
NEVER = np.int64(1) << 62  # a threshold no feature reaches


@leaf
def hand_features(hand):
    """The counts every event reads, from one pass over the hand (uint8[24]), as a tuple of int64
    (indices ``X_*``): whether some suit holds a marriage; the most runs in one suit (the fewest of its
    A, 10, K, Q, J); pinochles (the fewest of Q♠, J♦); roundhouses (the fewest marriages over the suits);
    1 with no ace; nines; 1 with no meld (no marriage, pinochle or around; nines ignored); the nines of a
    hand with no meld (else 0); and each rank's arounds (the fewest copies over the suits). A tuple,
    not an array: nothing is allocated per hand."""
    marriage, run, roundhouse = np.int64(0), np.int64(0), np.int64(255)
    aces, nines = np.int64(0), np.int64(0)
    ar = r10 = rk = rq = rj = r9 = np.int64(255)
    for s in range(N_SUITS):
        b = s * N_RANKS
        a_, t_, k_, q_, j_, n_ = (
            np.int64(hand[b + ACE]),
            np.int64(hand[b + TEN]),
            np.int64(hand[b + KING]),
            np.int64(hand[b + QUEEN]),
            np.int64(hand[b + JACK]),
            np.int64(hand[b + NINE]),
        )
        kq = min(k_, q_)
        marriage = max(marriage, min(kq, np.int64(1)))
        roundhouse = min(roundhouse, kq)
        run = max(run, min(a_, t_, kq, j_))
        aces += a_
        nines += n_
        ar, r10, rk, rq, rj, r9 = min(ar, a_), min(r10, t_), min(rk, k_), min(rq, q_), min(rj, j_), min(r9, n_)
    pinochle = min(np.int64(hand[QUEEN_OF_SPADES]), np.int64(hand[JACK_OF_DIAMONDS]))
    no_meld = np.int64(1) if marriage + pinochle + ar + rk + rq + rj == 0 else np.int64(0)
    return (
        marriage,
        run,
        pinochle,
        roundhouse,
        np.int64(1) if aces == 0 else np.int64(0),
        nines,
        no_meld,
        nines * no_meld,
        ar,
        r10,
        rk,
        rq,
        rj,
        r9,
    )


@leaf
def event_test(kind, a, b):
    """(feature index, threshold): a hand holds the event (``kind``, ``a``, ``b``) when that feature of
    :func:`hand_features` (or ``X_BEST``, the best-trump meld) is at least the threshold."""
    if kind == K_MARRIAGE:
        return X_MARRIAGE, np.int64(1)
    if kind == K_RUN:
        return X_RUN, a
    if kind == K_PINOCHLE:
        return X_PINOCHLE, a
    if kind == K_AROUND:
        return X_AROUND + a, b
    if kind == K_ROUNDHOUSE:
        return X_ROUNDHOUSE, np.int64(1)
    if kind == K_NO_ACES:
        return X_NO_ACES, np.int64(1)
    if kind == K_NO_MELD:
        return X_NO_MELD, np.int64(1)
    if kind == K_NINES:
        return X_NINES, a
    if kind == K_REDEAL:  # a nines redeal (with no meld too where b), none at all where a = 0
        return (X_NINES if b == 0 else X_NINES_NO_MELD), (a if a > 0 else NEVER)
    if kind == K_MELD_AT_LEAST:
        return X_BEST, a
    return X_MARRIAGE, NEVER


class EventTests(NamedTuple):
    """Events as tests of a hand's features, as the many-event kernels take them (:func:`event_tests`):
    event e holds where feature ``feature[e]`` (``X_*``) is at least ``least[e]``."""

    feature: np.ndarray
    least: np.ndarray
    #: Whether some event reads the best meld (``X_BEST``): the meld search runs only then.
    with_meld: bool
    #: int64[N_FEATURES + 1]: scratch for a hand's features (:func:`features_into`).
    features: np.ndarray


@njit(cache=True)
def event_tests(kinds, a, b):
    """The :class:`EventTests` of the events (``kinds``, ``a``, ``b``: int64[events] each), with
    scratch of their own, made once per chunk by the many-event kernels."""
    idx = np.zeros(kinds.shape[0], dtype=np.int64)
    thr = np.zeros(kinds.shape[0], dtype=np.int64)
    for e in range(kinds.shape[0]):
        idx[e], thr[e] = event_test(kinds[e], a[e], b[e])
    return EventTests(idx, thr, np.any(idx == X_BEST), np.zeros(N_FEATURES + 1, dtype=np.int64))


@leaf
def features_into(hand, with_meld, table, flags, totals, out):
    """Write the hand's features into ``out`` (int64[N_FEATURES + 1]), and at ``X_BEST`` its best-trump
    meld under the meld ``table`` and ``flags`` where ``with_meld`` (some event is meld>=X; else 0).
    ``totals`` (int64[4]) is scratch for the meld by trump."""
    f = hand_features(hand)
    for i in range(N_FEATURES):
        out[i] = f[i]
    out[X_BEST] = totals[meld_by_trump(hand, table, flags, totals)] if with_meld else 0


@leaf
def hand_has_event(hand, kind, a, b, best_meld):
    """True when the hand (uint8[24]) holds the event; ``best_meld`` is only read for meld>=X."""
    i, threshold = event_test(kind, a, b)
    return (best_meld if i == X_BEST else hand_features(hand)[i]) >= threshold


def event_arrays(events: list[Event]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kinds, a, b) as int64 arrays for the kernels."""
    return (
        np.array([e.kind for e in events], dtype=np.int64),
        np.array([e.a for e in events], dtype=np.int64),
        np.array([e.b for e in events], dtype=np.int64),
    )
