"""The play kernel: legal cards under the variant's duties, trick winners, trick points.

Duties, as data (``[play]`` in a rules file, compiled by :meth:`Variant.play_rules`):

* follow suit when able (every system);
* head: when following suit, beat the card winning the trick if able, even partner's — never, always,
  or only when trump was led. Once the lead has been trumped no card of the led suit can win, so a
  follower may play any card of it, unless ``head_when_trumped`` makes him beat the highest card of the
  led suit played so far;
* void in the led suit: trump if able (``void_must_trump``), and beat the highest trump already in the
  trick if able (``void_must_overtrump``); with neither suit, any card.

Equal cards: the first played wins. Cards are card types (``suit * 6 + rank``, rank 0 = ace is
highest); a set of cards is an int64 bitmask over the 24 types. Seats are numbered clockwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.cards import N_RANKS, N_TYPES
from simcore.rng import bounded

HEAD_NEVER, HEAD_ALWAYS, HEAD_TRUMP_LED = range(3)
HEAD_MODES = ("never", "always", "trump_led")
#: Entries of the compiled play rules.
R_HEAD, R_HEAD_WHEN_TRUMPED, R_VOID_TRUMP, R_VOID_OVERTRUMP = range(4)


@njit(cache=True, inline="always")
def beats(card, other, trump):
    """True when ``card``, played after ``other``, takes the trick from it (equal cards: first wins)."""
    cs = card // N_RANKS
    os_ = other // N_RANKS
    if cs == os_:
        return card % N_RANKS < other % N_RANKS
    return cs == trump


@njit(cache=True)
def trick_winner(trick, n, trump):
    """Position (0 = the lead) of the card that wins the first ``n`` cards of ``trick``."""
    best = 0
    for i in range(1, n):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


@njit(cache=True, inline="always")
def _suit_mask(hand, suit):
    m = np.int64(0)
    for t in range(suit * N_RANKS, (suit + 1) * N_RANKS):
        if hand[t] > 0:
            m |= np.int64(1) << t
    return m


@njit(cache=True, inline="always")
def _higher_mask(hand, card):
    """Cards in hand of ``card``'s suit that rank strictly above it."""
    m = np.int64(0)
    for t in range((card // N_RANKS) * N_RANKS, card):
        if hand[t] > 0:
            m |= np.int64(1) << t
    return m


@njit(cache=True)
def legal_mask(hand, trick, n, trump, rules):
    """Bitmask of the card types in ``hand`` (uint8[24]) that may be played to a trick holding the
    ``n`` cards ``trick[:n]``, under trump suit ``trump`` and compiled duties ``rules``."""
    if n == 0:
        m = np.int64(0)
        for t in range(N_TYPES):
            if hand[t] > 0:
                m |= np.int64(1) << t
        return m
    led = trick[0] // N_RANKS
    winner = trick[trick_winner(trick, n, trump)]
    follow = _suit_mask(hand, led)
    if follow != 0:
        head = rules[R_HEAD] == HEAD_ALWAYS or (rules[R_HEAD] == HEAD_TRUMP_LED and led == trump)
        if head:
            if winner // N_RANKS == led:
                higher = _higher_mask(hand, winner)
                if higher != 0:
                    return higher
            elif rules[R_HEAD_WHEN_TRUMPED] != 0:
                top = trick[0]
                for i in range(1, n):
                    if trick[i] // N_RANKS == led and trick[i] < top:
                        top = trick[i]
                higher = _higher_mask(hand, top)
                if higher != 0:
                    return higher
        return follow
    trumps = _suit_mask(hand, trump)
    if trumps != 0 and rules[R_VOID_TRUMP] != 0:
        if rules[R_VOID_OVERTRUMP] != 0 and winner // N_RANKS == trump:
            higher = _higher_mask(hand, winner)
            if higher != 0:
                return higher
        return trumps
    m = np.int64(0)
    for t in range(N_TYPES):
        if hand[t] > 0:
            m |= np.int64(1) << t
    return m


@njit(cache=True, inline="always")
def pick_card(mask, state):
    """A uniformly random card type from a non-empty bitmask (the ``random`` policy's choice)."""
    count = 0
    for t in range(N_TYPES):
        if (mask >> t) & 1:
            count += 1
    k = bounded(state, count)
    for t in range(N_TYPES):
        if (mask >> t) & 1:
            if k == 0:
                return t
            k -= 1
    return -1


@njit(cache=True)
def random_playout(hands, leader, trump, rules, points, last_trick, state, plays):
    """Play every card of ``hands`` (uint8[players, 24], emptied in place) with uniformly random legal
    cards, from seat ``leader``. Returns int64[players]: trick points won by each seat.

    ``plays`` (int64[cards in a hand × players]) records the cards in the order played.
    """
    players = hands.shape[0]
    tricks = 0
    for t in range(N_TYPES):
        tricks += hands[0, t]
    won = np.zeros(players, dtype=np.int64)
    trick = np.zeros(players, dtype=np.int64)
    k = 0
    for done in range(tricks):
        for i in range(players):
            seat = (leader + i) % players
            card = pick_card(legal_mask(hands[seat], trick, i, trump, rules), state)
            hands[seat, card] -= 1
            trick[i] = card
            plays[k] = card
            k += 1
        w = (leader + trick_winner(trick, players, trump)) % players
        for i in range(players):
            won[w] += points[trick[i]]
        if done == tricks - 1:
            won[w] += last_trick
        leader = w
    return won
