"""Playouts of the tricks left in a hand by the built-in players (numba): the value the sampling player
weighs a card by where the solver is too slow to go (:class:`simcore.state.sampler.SamplingPlayer`,
``rollout_from``).

A playout starts in a trick, at the seat to play (its card given), from each of a set of deals of the
hands, and plays every card after it by the seats' policies, exactly as the hand kernel plays its
tricks (:func:`simcore.kernels.hand.play_hand`): the same duties (:func:`~simcore.kernels.play.legal`),
the same card choice (:func:`~simcore.kernels.learned.play_card`, which plays ``basic``'s card where
the learned model does not) and the same card counting (:func:`~simcore.kernels.card_features.note_card`),
each seat reading only its own hand and what the table has shown. Its value is the bidding side's trick
points from the trick's start to the end of the hand, the last-trick bonus included, on the variant's
scale: the solver's convention (:func:`simcore.solver.position.card_values`), so the two can be mixed.

There is no stock: the tricks played out all carry their duties. Seats are numbered clockwise; card
types are ``suit * 6 + rank``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.cards import N_TYPES
from simcore.kernels.card_features import note_card
from simcore.kernels.learned import play_card
from simcore.kernels.play import SUIT_OF, duties, held_mask, legal, lowest_card, situation_of, trick_after

#: The facts of the position a playout starts from (int64[N_FACTS]): the seat that led the trick in
#: progress, how many cards it holds, trump's suit, the bidder's seat (-1: none), the hand's first trick
#: (0/1, for the bidder's opening-lead duty) and trump broken (0/1).
F_LEADER, F_PLAYED, F_TRUMP, F_BIDDER, F_FIRST, F_BROKEN = range(6)
N_FACTS = 6


class PlayoutStart(NamedTuple):
    """Where the playouts start: one record for every deal of the hands."""

    #: uint8[deals, players, 24]: each deal's hands at the trick's start (the cards of the trick in
    #: progress still in their players' hands), as copy counts.
    deals: np.ndarray
    #: int64[players]: the trick in progress, its first ``facts[F_PLAYED]`` cards in the order played.
    trick: np.ndarray
    #: int64[CTX_SIZE]: the card counting as it stands with the trick's cards so far noted
    #: (:func:`simcore.kernels.card_features.play_context`).
    ctx: np.ndarray
    #: int64[24]: copies of each card type in finished tricks.
    played: np.ndarray
    #: int64[players]: 1 for the bidding side's seats.
    side: np.ndarray
    #: int64[players]: each seat's policy code (:data:`simcore.kernels.policies.POLICY_NAMES`, not random).
    policies: np.ndarray
    #: int64[N_FACTS]: the facts ``F_*``.
    facts: np.ndarray


class PlayoutWork(NamedTuple):
    """A playout's scratch: the hands as they stand (uint8[players, 24]), each seat's card types held and
    unseen (int64[players] bitmasks), the copies played (int64[24]), the card counting
    (int64[CTX_SIZE]) and the trick in play (int64[players])."""

    hands: np.ndarray
    held: np.ndarray
    unseen: np.ndarray
    played: np.ndarray
    ctx: np.ndarray
    trick: np.ndarray


@njit(cache=True, nogil=True)
def playout_values(start, cards, rules, points, copies, out):
    """``out[j]`` (float64): the mean, over ``start.deals``, of the bidding side's trick points from the
    trick's start when the seat to play plays ``cards[j]`` and every card after it is its player's
    (see the module). ``rules`` is the hand's rules record (``HandRules``), ``points`` int64[24] the
    trick points of each card type and ``copies`` the deck's copies of each."""
    n_deals, players = start.deals.shape[0], start.deals.shape[1]
    work = PlayoutWork(
        np.empty((players, N_TYPES), dtype=np.uint8),
        np.empty(players, dtype=np.int64),
        np.empty(players, dtype=np.int64),
        np.empty(N_TYPES, dtype=np.int64),
        np.empty_like(start.ctx),
        np.empty(players, dtype=np.int64),
    )
    for j in range(cards.shape[0]):
        total = 0
        for d in range(n_deals):
            work.hands[:] = start.deals[d]
            work.played[:] = start.played
            work.ctx[:] = start.ctx
            work.trick[:] = start.trick
            total += play_out(work, cards[j], start, rules, points, copies)
        out[j] = total / max(n_deals, 1)


@njit(cache=True, inline="always")
def play_out(work, forced, start, rules, points, copies):
    """The bidding side's points from the trick's start, the hands of ``work`` (at the trick's start)
    played out from card ``facts[F_PLAYED]`` of the trick, that card being ``forced``."""
    hands, held, unseen, played, ctx, trick = work
    facts, side, policies = start.facts, start.side, start.policies
    players = hands.shape[0]
    leader, i, trump, bidder = facts[F_LEADER], facts[F_PLAYED], facts[F_TRUMP], facts[F_BIDDER]
    first, broken = facts[F_FIRST] != 0, facts[F_BROKEN] != 0
    duty = duties(rules)
    exempt_partner = rules.exempt_partner != 0
    lead_trump, wait_broken = rules.bidder_leads_trump != 0, rules.trump_led_once_broken != 0
    # what a seat counts as unseen is fixed at the trick's start, as the hand kernel keeps it
    for s in range(players):
        unseen[s] = 0
        for t in range(N_TYPES):
            if played[t] + hands[s, t] < copies[t]:
                unseen[s] |= np.int64(1) << t
    led, win, win_seat, top_led = np.int64(0), np.int64(0), leader, np.int64(0)
    for k in range(i):
        seat, card = (leader + k) % players, trick[k]
        hands[seat, card] -= 1
        if SUIT_OF[card] == trump:
            broken = True
        led, win, win_seat, top_led = trick_after(k, led, win, win_seat, top_led, seat, card, trump)
    for s in range(players):
        held[s] = held_mask(hands[s])
    total = np.int64(0)
    while True:
        while i < players:
            seat = (leader + i) % players
            tricks_left = np.int64(0)
            for t in range(N_TYPES):
                tricks_left += hands[seat, t]
            if forced >= 0:
                card, forced = forced, np.int64(-1)
            else:
                situation = situation_of(
                    False,
                    exempt_partner and i > 0 and side[win_seat] == side[seat],
                    lead_trump and first and i == 0 and seat == bidder,
                    wait_broken and i == 0 and not broken,
                )
                allowed = legal(held[seat], 0, situation, (np.int64(i), led, win, top_led), trump, duty)
                if allowed & (allowed - 1) == 0:
                    card = lowest_card(allowed)
                else:
                    decision = (seat, allowed, np.int64(i), win, win_seat, players, trump, unseen[seat])
                    card = play_card(policies[seat], hands, decision, ctx, tricks_left, held[seat])
            hands[seat, card] -= 1
            if hands[seat, card] == 0:
                held[seat] &= ~(np.int64(1) << card)
            if SUIT_OF[card] == trump:
                broken = True
            trick[i] = card
            led, win, win_seat, top_led = trick_after(i, led, win, win_seat, top_led, seat, card, trump)
            note_card(ctx, seat, card, i, led, trump)
            i += 1
        remaining = np.int64(0)
        for t in range(N_TYPES):
            remaining += hands[leader, t]
        won = rules.last_trick if remaining == 0 else 0
        for k in range(players):
            won += points[trick[k]]
            played[trick[k]] += 1
        if side[win_seat] == 1:
            total += won
        if remaining == 0:
            return total
        for k in range(players):
            card = trick[k]
            for s in range(players):
                if played[card] + hands[s, card] >= copies[card]:
                    unseen[s] &= ~(np.int64(1) << card)
        leader, i, first = win_seat, np.int64(0), False
