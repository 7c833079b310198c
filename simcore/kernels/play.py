"""The play kernel: legal cards under the variant's duties, trick winners, trick points.

Duties, as data (``[play]`` in a rules file, compiled by :meth:`Variant.play_rules`):

* follow suit when able (every system);
* head: when following suit, beat the card winning the trick if able, even partner's — never, always,
  or only when trump was led. Once the lead has been trumped no card of the led suit can win, so a
  follower may play any card of it, unless ``head_when_trumped`` makes him beat the highest card of the
  led suit played so far;
* void in the led suit: trump if able (``void_must_trump``), and beat the highest trump already in the
  trick if able (``void_must_overtrump``); with neither suit, any card;
* ``trump_instead``: a player holding the led suit may play a trump instead (five-hand widow); the
  heading duty then binds only the cards of the led suit.

Equal cards: the first played wins. Cards are card types (``suit * 6 + rank``, rank 0 = ace is
highest); a set of cards is an int64 bitmask over the 24 types. Seats are numbered clockwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.cards import N_RANKS, N_TYPES
from simcore.kernels.leaf import leaf
from simcore.kernels.rng import bounded

HEAD_NEVER, HEAD_ALWAYS, HEAD_TRUMP_LED = range(3)
HEAD_MODES = ("never", "always", "trump_led")
#: Entries of the compiled play rules.
R_HEAD, R_HEAD_WHEN_TRUMPED, R_VOID_TRUMP, R_VOID_OVERTRUMP, R_TRUMP_INSTEAD = range(5)


#: Suit and rank of each card type, looked up rather than divided on the hot path.
SUIT_OF = np.array([t // N_RANKS for t in range(N_TYPES)], dtype=np.int64)
RANK_OF = np.array([t % N_RANKS for t in range(N_TYPES)], dtype=np.int64)


@leaf
def beats(card, other, trump):
    """True when ``card``, played after ``other``, takes the trick from it (equal cards: first wins)."""
    cs = SUIT_OF[card]
    if cs == SUIT_OF[other]:
        return card < other  # same suit: a lower type index is a higher rank
    return cs == trump


@njit(cache=True)
def trick_winner(trick, n, trump):
    """Position (0 = the lead) of the card that wins the first ``n`` cards of ``trick``."""
    best = 0
    for i in range(1, n):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


#: Bits of each suit's six card types in a card-set bitmask.
SUIT_BITS = np.array([0x3F << (N_RANKS * s) for s in range(4)], dtype=np.int64)


@leaf
def held_mask(hand):
    """Bitmask of the card types a hand (uint8[24] copy counts) holds at least one of."""
    m = np.int64(0)
    for t in range(N_TYPES):
        if hand[t] > 0:
            m |= np.int64(1) << t
    return m


@leaf
def cards_above(card):
    """Bits of the card types of ``card``'s suit that rank above it (lower type index)."""
    return SUIT_BITS[SUIT_OF[card]] & ((np.int64(1) << card) - 1)


@leaf
def legal_cards(held, n, led, win, top_led, trump, head, head_when_trumped, void_trump, void_overtrump, trump_instead):
    """Bitmask of the cards of ``held`` (a bitmask of the card types in hand) that may be played as
    card ``n`` (0 = the lead) of a trick, from scalars only (the hand kernel keeps them up to date
    card by card, and array arguments cost reference counting on the hot path).

    ``led`` is the led suit, ``win`` the card winning so far, ``top_led`` the highest card of the led
    suit played so far; the last five are the duties (entries ``R_*`` of the compiled play rules)."""
    if n == 0:
        return held
    follow = held & SUIT_BITS[led]
    if follow != 0:
        # with trump_instead a follower may also play any trump (the trumps of a trump lead are follow)
        extra = held & SUIT_BITS[trump] if trump_instead != 0 and led != trump else np.int64(0)
        if head == HEAD_ALWAYS or (head == HEAD_TRUMP_LED and led == trump):
            if SUIT_OF[win] == led:
                higher = held & cards_above(win)
                if higher != 0:
                    return higher | extra
            elif head_when_trumped != 0:
                higher = held & cards_above(top_led)
                if higher != 0:
                    return higher | extra
        return follow | extra
    trumps = held & SUIT_BITS[trump]
    if trumps != 0 and void_trump != 0:
        if void_overtrump != 0 and SUIT_OF[win] == trump:
            higher = held & cards_above(win)
            if higher != 0:
                return higher
        return trumps
    return held


@njit(cache=True, inline="always")
def legal(
    held,
    keep,
    free,
    partner_winning,
    i,
    led,
    win,
    top_led,
    trump,
    bidder_opens,
    before_broken,
    head,
    head_trumped,
    void_trump,
    void_over,
    trump_instead,
):
    """The cards a seat may play, under every duty of a hand (the hand kernel's and the solver's one play
    rule): bitmask of the card types of ``held`` that may be played as card ``i`` of a trick whose led
    suit, winning card and top card of the led suit are ``led``, ``win``, ``top_led``. While the stock lasts
    (``free``) any card, keeping back those in ``keep`` when others are left; a seat whose partner is
    winning need not beat him (``partner_winning``, where the rules exempt partners); the bidder's
    opening lead is a trump when he holds one (``bidder_opens``), and a lead before trump is broken
    (``before_broken``) is not a trump when he holds another suit."""
    if free:
        allowed = held
        if allowed & ~keep != 0:
            allowed &= ~keep
    elif partner_winning:
        allowed = legal_cards(held, i, led, win, top_led, trump, HEAD_NEVER, head_trumped, void_trump, 0, trump_instead)
    else:
        allowed = legal_cards(
            held, i, led, win, top_led, trump, head, head_trumped, void_trump, void_over, trump_instead
        )
    if bidder_opens and allowed & SUIT_BITS[trump] != 0:  # the bidder opens with trump when he holds one
        allowed &= SUIT_BITS[trump]
    if before_broken and allowed & ~SUIT_BITS[trump] != 0:  # no trump lead before a trump has been played
        allowed &= ~SUIT_BITS[trump]
    return allowed


@leaf
def legal_mask(held, trick, n, trump, rules):
    """:func:`legal_cards` for the trick ``trick[:n]`` and the compiled play rules ``rules``."""
    if n == 0:
        return held
    led = SUIT_OF[trick[0]]
    top = trick[0]
    for i in range(1, n):
        if SUIT_OF[trick[i]] == led and trick[i] < top:
            top = trick[i]
    return legal_cards(
        held,
        n,
        led,
        trick[trick_winner(trick, n, trump)],
        top,
        trump,
        rules[R_HEAD],
        rules[R_HEAD_WHEN_TRUMPED],
        rules[R_VOID_TRUMP],
        rules[R_VOID_OVERTRUMP],
        rules[R_TRUMP_INSTEAD],
    )


@leaf
def popcount(m):
    """Number of set bits of a non-negative int64 (SWAR, constant time)."""
    m = m - ((m >> 1) & 0x5555555555555555)
    m = (m & 0x3333333333333333) + ((m >> 2) & 0x3333333333333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((m * 0x0101010101010101) & 0x7FFFFFFFFFFFFFFF) >> 56


@leaf
def pick_card(mask, state):
    """A uniformly random card type from a non-empty bitmask: the k-th set bit, k uniform (the
    ``random`` policy's choice)."""
    k = bounded(state, popcount(mask))
    m = mask
    for _ in range(k):
        m &= m - 1
    return lowest_card(m)


@leaf
def lowest_card(mask):
    """The lowest card type in a non-empty bitmask (loops over a set take it and clear it)."""
    return popcount((mask & -mask) - 1)


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
            card = pick_card(legal_mask(held_mask(hands[seat]), trick, i, trump, rules), state)
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
