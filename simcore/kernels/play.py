"""The play kernel: legal cards under the variant's duties, trick winners, trick points.

Duties, as data (``[play]`` in a rules file, compiled into the fields ``head``, ``head_when_trumped``,
``void_must_trump``, ``void_must_overtrump`` and ``trump_instead`` of the rules record
:class:`~simcore.variants.record.HandRules`, which the hand kernel and the solver both read):

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
#: Bits of :func:`legal`'s ``situation``: what the seat's place in the hand adds to the duties. FREE:
#: the stock still lasts, any card may be played; PARTNER_WINNING: his partner's card is winning the
#: trick and the rules exempt partners (``HandRules.exempt_partner``); BIDDER_OPENS: the bidder's
#: opening lead, a trump when he holds one (``bidder_leads_trump``); BEFORE_BROKEN: a lead before trump
#: is broken, not a trump when he holds another suit (``trump_led_once_broken``).
FREE, PARTNER_WINNING, BIDDER_OPENS, BEFORE_BROKEN = 1, 2, 4, 8


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


@njit(cache=True, inline="always")
def trick_after(i, led, win, win_seat, top_led, seat, card, trump):
    """The trick after ``seat`` plays ``card`` as its card ``i`` (0: the lead): (the led suit, the
    winning card and its seat, the top card of the led suit), from the same before it."""
    if i == 0:
        return SUIT_OF[card], card, seat, card
    if beats(card, win, trump):
        win, win_seat = card, seat
    if SUIT_OF[card] == led and card < top_led:
        top_led = card
    return led, win, win_seat, top_led


@njit(cache=True, inline="always")
def duties(rules):
    """The duties of :func:`legal_cards` from a rules record (``HandRules``): (head, head when trumped,
    void must trump, void must overtrump, trump instead), as integers."""
    return (
        np.int64(rules.head),
        np.int64(rules.head_when_trumped),
        np.int64(rules.void_must_trump),
        np.int64(rules.void_must_overtrump),
        np.int64(rules.trump_instead),
    )


@leaf
def legal_cards(held, trick, trump, duty):
    """Bitmask of the cards of ``held`` (a bitmask of the card types in hand) that may be played to the
    trick ``trick`` = (n, led, win, top_led): card ``n`` (0 = the lead) of a trick whose led suit is
    ``led``, whose winning card so far is ``win`` and whose highest card of the led suit is ``top_led``
    (the hand kernel keeps them up to date card by card), under the duties ``duty`` (:func:`duties`).
    Scalars only: array arguments would cost reference counting on the hot path."""
    n, led, win, top_led = trick
    head, head_when_trumped, void_trump, void_overtrump, trump_instead = duty
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
def situation_of(free, partner_winning, bidder_opens, before_broken):
    """The ``situation`` bits of :func:`legal` from its four conditions (each true or false)."""
    return (
        (FREE if free else 0)
        | (PARTNER_WINNING if partner_winning else 0)
        | (BIDDER_OPENS if bidder_opens else 0)
        | (BEFORE_BROKEN if before_broken else 0)
    )


@njit(cache=True, inline="always")
def legal(held, keep, situation, trick, trump, duty):
    """The cards a seat may play, under every duty of a hand (the hand kernel's and the solver's one play
    rule): bitmask of the card types of ``held`` that may be played to the trick ``trick`` = (n, led,
    win, top_led) (as :func:`legal_cards`) under the duties ``duty`` (:func:`duties`), in the seat's
    ``situation`` (bits FREE, PARTNER_WINNING, BIDDER_OPENS, BEFORE_BROKEN). While the stock lasts any
    card, keeping back those in ``keep`` when others are left; a seat whose partner is winning need
    not beat him; the bidder's opening lead is a trump when he holds one, and a lead before trump is
    broken is not a trump when he holds another suit."""
    if situation & FREE:
        allowed = held
        if allowed & ~keep != 0:
            allowed &= ~keep
    elif situation & PARTNER_WINNING:
        _, head_trumped, void_trump, _, trump_instead = duty  # he need not head, nor overtrump, his partner
        allowed = legal_cards(
            held, trick, trump, (np.int64(HEAD_NEVER), head_trumped, void_trump, np.int64(0), trump_instead)
        )
    else:
        allowed = legal_cards(held, trick, trump, duty)
    if situation & BIDDER_OPENS and allowed & SUIT_BITS[trump] != 0:  # the bidder opens with a trump
        allowed &= SUIT_BITS[trump]
    if situation & BEFORE_BROKEN and allowed & ~SUIT_BITS[trump] != 0:  # no trump lead before one was played
        allowed &= ~SUIT_BITS[trump]
    return allowed


@leaf
def legal_mask(held, trick, n, trump, rules):
    """:func:`legal_cards` for the trick ``trick[:n]`` under the rules record ``rules`` (``HandRules``)."""
    if n == 0:
        return held
    led = SUIT_OF[trick[0]]
    top = trick[0]
    for i in range(1, n):
        if SUIT_OF[trick[i]] == led and trick[i] < top:
            top = trick[i]
    return legal_cards(held, (np.int64(n), led, trick[trick_winner(trick, n, trump)], top), trump, duties(rules))


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
def random_playout(hands, leader, trump, rules, points, state, plays):
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
            won[w] += rules.last_trick
        leader = w
    return won
