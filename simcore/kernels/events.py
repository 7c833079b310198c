"""The catalogue of dealt-hand events (``pinochle odds --list``) and their numba evaluator.

An event is a property of one dealt hand before trump is known. Each has a kind (the code path in
:func:`hand_has_event`) and two integer parameters, so the kernel sees only integers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simcore.kernels.cards import ACE, JACK, JACK_OF_DIAMONDS, KING, N_RANKS, N_SUITS, NINE, QUEEN, QUEEN_OF_SPADES, TEN
from simcore.variants import Variant

(K_MARRIAGE, K_RUN, K_PINOCHLE, K_AROUND, K_ROUNDHOUSE, K_NO_ACES, K_NO_MELD, K_NINES, K_REDEAL,
 K_MELD_AT_LEAST) = range(10)


@dataclass(frozen=True)
class Event:
    """A named event: ``kind`` selects the test, ``a`` and ``b`` are its integer parameters."""

    name: str
    kind: int
    a: int
    b: int
    help: str


_AROUND_RANKS = (("aces", ACE), ("kings", KING), ("queens", QUEEN), ("jacks", JACK))

CATALOGUE: dict[str, Event] = {e.name: e for e in [
    Event("marriage", K_MARRIAGE, 0, 0, "a K and Q of one suit"),
    Event("run", K_RUN, 1, 0, "A-10-K-Q-J of one suit"),
    Event("double-run", K_RUN, 2, 0, "two of each of A-10-K-Q-J of one suit"),
    Event("pinochle", K_PINOCHLE, 1, 0, "Q♠ and J♦"),
    Event("double-pinochle", K_PINOCHLE, 2, 0, "two Q♠ and two J♦"),
    *[Event(f"{name}-around", K_AROUND, rank, 1, f"at least one {name[:-1]} of every suit")
      for name, rank in _AROUND_RANKS],
    *[Event(f"double-{name}", K_AROUND, rank, 2, f"at least two {name} of every suit")
      for name, rank in _AROUND_RANKS],
    Event("roundhouse", K_ROUNDHOUSE, 0, 0, "a K and a Q of every suit"),
    Event("no-aces", K_NO_ACES, 0, 0, "no ace at all"),
    Event("no-meld", K_NO_MELD, 0, 0, "no marriage, no pinochle, no around (nines ignored)"),
    Event("five-nines", K_NINES, 5, 0, "five or more nines"),
    Event("redeal", K_REDEAL, 0, 0, "the variant's own redeal rule fires (e.g. 5+ nines and no meld)"),
]}

_MELD_AT_LEAST = "meld>="
#: The largest X of ``meld>=X``: more than any hand of any allowed table can meld.
MAX_MELD_THRESHOLD = 1_000_000


class EventError(ValueError):
    """An event name that is not in the catalogue."""


def parse_event(name: str, variant: Variant) -> Event:
    """The :class:`Event` called ``name``; ``meld>=X`` and ``redeal`` take their numbers from the variant."""
    shown = repr(name) if len(name) <= 40 else repr(name[:37]) + "..."
    if name.startswith(_MELD_AT_LEAST):
        digits = name[len(_MELD_AT_LEAST):]
        # ASCII digits only: int() would also take '٣٠' or '２０', and a trailing newline
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 7 and int(digits) <= MAX_MELD_THRESHOLD):
            raise EventError(f"event {shown}: X in meld>=X is a whole number from 0 to {MAX_MELD_THRESHOLD:,}, "
                             "in the digits 0-9")
        x = int(digits)
        return Event(name, K_MELD_AT_LEAST, x, 0, f"best-trump meld of at least {x} points")
    if name not in CATALOGUE:
        import difflib

        close = difflib.get_close_matches(name[:40], list(CATALOGUE) + ["meld>=20"], n=1, cutoff=0.5)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise EventError(f"event {shown} is not known{hint}; `pinochle odds --list` lists the events")
    event = CATALOGUE[name]
    if event.kind == K_REDEAL:
        return Event(name, K_REDEAL, variant.redeal_min_nines, int(variant.redeal_require_no_meld),
                     event.help)
    return event


@njit(cache=True)
def _has_no_meld(hand):
    """No marriage, no pinochle and no around (nines ignored)."""
    if hand[QUEEN_OF_SPADES] > 0 and hand[JACK_OF_DIAMONDS] > 0:
        return False
    for s in range(N_SUITS):
        if hand[s * N_RANKS + KING] > 0 and hand[s * N_RANKS + QUEEN] > 0:
            return False
    for rank in (ACE, KING, QUEEN, JACK):
        around = True
        for s in range(N_SUITS):
            if hand[s * N_RANKS + rank] == 0:
                around = False
        if around:
            return False
    return True


@njit(cache=True)
def _nines(hand):
    n = 0
    for s in range(N_SUITS):
        n += hand[s * N_RANKS + NINE]
    return n


@njit(cache=True)
def hand_has_event(hand, kind, a, b, best_meld):
    """True when the hand (uint8[24]) holds the event; ``best_meld`` is only read for meld>=X."""
    if kind == K_MARRIAGE:
        for s in range(N_SUITS):
            if hand[s * N_RANKS + KING] > 0 and hand[s * N_RANKS + QUEEN] > 0:
                return True
        return False
    if kind == K_RUN:
        for s in range(N_SUITS):
            ok = True
            for r in (ACE, TEN, KING, QUEEN, JACK):
                if hand[s * N_RANKS + r] < a:
                    ok = False
            if ok:
                return True
        return False
    if kind == K_PINOCHLE:
        return hand[QUEEN_OF_SPADES] >= a and hand[JACK_OF_DIAMONDS] >= a
    if kind == K_AROUND:
        for s in range(N_SUITS):
            if hand[s * N_RANKS + a] < b:
                return False
        return True
    if kind == K_ROUNDHOUSE:
        for s in range(N_SUITS):
            if hand[s * N_RANKS + KING] == 0 or hand[s * N_RANKS + QUEEN] == 0:
                return False
        return True
    if kind == K_NO_ACES:
        for s in range(N_SUITS):
            if hand[s * N_RANKS + ACE] > 0:
                return False
        return True
    if kind == K_NO_MELD:
        return _has_no_meld(hand)
    if kind == K_NINES:
        return _nines(hand) >= a
    if kind == K_REDEAL:
        return a > 0 and _nines(hand) >= a and (b == 0 or _has_no_meld(hand))
    if kind == K_MELD_AT_LEAST:
        return best_meld >= a
    return False


def event_arrays(events: list[Event]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kinds, a, b) as int64 arrays for the kernels."""
    return (np.array([e.kind for e in events], dtype=np.int64),
            np.array([e.a for e in events], dtype=np.int64),
            np.array([e.b for e in events], dtype=np.int64))
