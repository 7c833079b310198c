"""The card model: card types, hands as copy-count vectors, and their text form.

Every deck in every rule system is a subset of the 24 card *types* (suit, rank) with some number of
copies of each. A card type's index is ``suit * 6 + rank`` where suits are S, H, D, C (0..3) and ranks
are in trick order A, 10, K, Q, J, 9 (0..5). A hand is a ``uint8`` vector of length 24 counting the
copies of each type it holds; decks without nines simply never hold rank 5.

Pinochle is Q♠ + J♦ (types ``QS`` = 3 and ``JD`` = 16).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
RANKS = ("A", "10", "K", "Q", "J", "9")
N_SUITS = 4
N_RANKS = 6
N_TYPES = N_SUITS * N_RANKS

ACE, TEN, KING, QUEEN, JACK, NINE = range(6)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
QUEEN_OF_SPADES = SPADES * N_RANKS + QUEEN
JACK_OF_DIAMONDS = DIAMONDS * N_RANKS + JACK

_RANK_ALIASES = {"A": ACE, "10": TEN, "T": TEN, "K": KING, "Q": QUEEN, "J": JACK, "9": NINE}
_TOKEN = re.compile(r"^(10|[AKQJT9])([SHDC])$")


class HandError(ValueError):
    """A hand's text cannot be read, or the hand cannot be dealt in the variant."""


def card_type(suit: int, rank: int) -> int:
    """Index of the card type (suit, rank) in a hand vector."""
    return suit * N_RANKS + rank


def card_name(t: int) -> str:
    """Text form of card type ``t``, e.g. ``10S`` or ``QH``."""
    return RANKS[t % N_RANKS] + SUITS[t // N_RANKS]


def card_types(counts) -> list[int]:
    """The card types of copy counts ``counts`` (24 of them), each as many times as it is held, in
    type order."""
    return [t for t in range(N_TYPES) for _ in range(int(counts[t]))]


def parse_card(token: str) -> int:
    """Card type of one token: ``AS``, ``10s``, ``TS``, ``Q♠``, ``j♦`` (case-insensitive)."""
    text = token.strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    m = _TOKEN.match(text)
    if not m:
        shown = repr(token) if len(token) <= 20 else repr(token[:17]) + "..."  # a message is one short line
        raise HandError(
            f"card {shown} is not a card: write rank then suit, ranks A 10 (or T) K Q J 9, "
            "suits S H D C (or ♠ ♥ ♦ ♣), e.g. AS 10H QS JD"
        )
    return card_type(SUITS.index(m.group(2)), _RANK_ALIASES[m.group(1)])


def parse_hand(text: str | Sequence[str]) -> np.ndarray:
    """Copy-count vector (uint8[24]) of a hand written as ``"AS 10S KS QS JS 9S"``.

    Tokens may be separated by spaces or commas. The result is not checked against any deck;
    see :func:`check_hand` for that.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if not tokens:
        raise HandError('the hand is empty: give its cards, e.g. "AS 10S KS QS JS"')
    counts = np.zeros(N_TYPES, dtype=np.uint8)
    for token in tokens:
        t = parse_card(token)
        if counts[t] == 255:
            raise HandError(f"card {token!r} appears more than 255 times")
        counts[t] += 1
    return counts


def check_hand(counts: np.ndarray, deck_copies: np.ndarray, hand_size: int | None, partial: bool = False) -> None:
    """Raise :class:`HandError` unless ``counts`` can be dealt from a deck with ``deck_copies``.

    ``hand_size`` is the number of cards a hand must hold (with ``partial``, at most), or None to accept
    any size up to the deck.
    """
    for t in range(N_TYPES):
        if counts[t] > deck_copies[t]:
            have = int(deck_copies[t])
            where = "the deck has none" if have == 0 else f"the deck has only {have}"
            raise HandError(f"the hand holds {int(counts[t])} × {card_name(t)} but {where}")
    n = int(counts.sum())
    if hand_size is not None and (n > hand_size if partial else n != hand_size):
        most = "at most " if partial else ""
        raise HandError(
            f"the hand holds {n} card{'s' if n != 1 else ''}; a hand in this variant holds {most}{hand_size}"
        )


def format_hand(counts: np.ndarray) -> str:
    """Text form of a hand, grouped by suit in S H D C order and ranks in trick order."""
    groups = []
    for s in range(N_SUITS):
        cards = []
        for r in range(N_RANKS):
            cards += [RANKS[r] + SUITS[s]] * int(counts[card_type(s, r)])
        if cards:
            groups.append(" ".join(cards))
    return "  ".join(groups)
