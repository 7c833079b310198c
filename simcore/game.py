"""Whole games (numba): hands in turn, the deal passing to the left, until a side wins.

Seats are absolute, numbered clockwise; the first dealer is the last seat, so the first hand's seats
are :func:`simcore.hand.play_hand`'s own (0 = the dealer's left). Partnerships are the even and the
odd seats (team 0 bids first in the first hand; team 1 holds the first deal). Hand h of game g draws
from :func:`simcore.rng.hand_state` (key, g, h) with the deck in its original order, so two rule sets
played from one key see the same cards in the same hand of the same game whatever happened before:
common random numbers for ``pinochle compare``. Points are on the variant's own scale.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcore.cards import N_TYPES
from simcore.hand import (F_BIDDER, F_MADE, F_OTHER_SCORE, F_REDEALS, F_SIDE_SCORE, N_FIELDS, play_hand)
from simcore.rng import hand_state

#: Compiled game rules (Variant.game_rules).
G_TARGET, G_BIDDER_WINS_TIES, G_PLAY_ON, G_LOSING_LIMIT = range(4)
N_GAME_RULES = 4
#: A game still undecided after this many hands is recorded with winner -1 (never seen in practice:
#: it guards the loop, and the tests require every game to end).
MAX_GAME_HANDS = 5000

#: One record per game.
GAME_FIELDS = ("winner", "hands", "contracts", "sets", "redeals", "score_0", "score_1", "tie_rule",
               "target")
(GF_WINNER, GF_HANDS, GF_CONTRACTS, GF_SETS, GF_REDEALS, GF_SCORE_0, GF_SCORE_1, GF_TIE_RULE,
 GF_TARGET) = range(9)
N_GAME_FIELDS = len(GAME_FIELDS)


@njit(cache=True)
def game_winner(s0, s1, bidding_team, target, game_rules):
    """(winner, new target, settled by the bidder rule) after a hand that left the teams at ``s0`` and
    ``s1``; winner -1 while the game goes on. ``bidding_team`` is -1 when the hand had no bidder."""
    reached0, reached1 = s0 >= target, s1 >= target
    if reached0 and reached1:
        if game_rules[G_BIDDER_WINS_TIES] != 0 and bidding_team >= 0:
            return bidding_team, target, True
        if game_rules[G_PLAY_ON] > 0:
            while s0 >= target and s1 >= target:
                target += game_rules[G_PLAY_ON]
            reached0, reached1 = s0 >= target, s1 >= target
        elif s0 != s1:
            return (0 if s0 > s1 else 1), target, False
        else:
            return -1, target, False
    if reached0:
        return 0, target, False
    if reached1:
        return 1, target, False
    limit = game_rules[G_LOSING_LIMIT]
    if limit > 0:
        if s0 <= -limit and s1 > -limit:
            return 1, target, False
        if s1 <= -limit and s0 > -limit:
            return 0, target, False
    return -1, target, False


@njit(cache=True)
def play_game(key, game, deck, players, hand_size, table, flags, play_rules, points, last_trick, rules,
              game_rules, policies, margins, deck_copies, out, cards, rec, hands, widow, side, state,
              seat_policies, seat_margins, no_trace):
    """Play game ``game`` of the run keyed ``key`` to its end and write its record into ``out``
    (int64[N_GAME_FIELDS]). ``policies`` and ``margins`` are per absolute seat; the rest after
    ``out`` is scratch."""
    s0, s1 = np.int64(0), np.int64(0)
    target = game_rules[G_TARGET]
    out[:] = 0
    out[GF_WINNER] = -1
    for k in range(MAX_GAME_HANDS):
        dealer = (players - 1 + k) % players
        for r in range(players):  # play_hand numbers seats from the dealer's left
            seat_policies[r] = policies[(dealer + 1 + r) % players]
            seat_margins[r] = margins[(dealer + 1 + r) % players]
        cards[:] = deck
        hand_state(key, game, k, state)
        play_hand(state, cards, players, hand_size, table, flags, play_rules, points, last_trick, rules,
                  seat_policies, seat_margins, deck_copies, rec, hands, widow, side, no_trace)
        if rec[F_BIDDER] >= 0:
            bidding = (dealer + 1 + rec[F_BIDDER]) % players % 2
            out[GF_CONTRACTS] += 1
            if rec[F_MADE] == 0:
                out[GF_SETS] += 1
        else:
            bidding = -1
        side_team = bidding if bidding >= 0 else (dealer + 1) % 2  # no auction: the dealer's left's side
        if side_team == 0:
            s0 += rec[F_SIDE_SCORE]
            s1 += rec[F_OTHER_SCORE]
        else:
            s1 += rec[F_SIDE_SCORE]
            s0 += rec[F_OTHER_SCORE]
        out[GF_REDEALS] += rec[F_REDEALS]
        out[GF_HANDS] = k + 1
        winner, target, by_tie_rule = game_winner(s0, s1, bidding, target, game_rules)
        if winner >= 0:
            out[GF_WINNER] = winner
            out[GF_TIE_RULE] = 1 if by_tie_rule else 0
            break
    out[GF_SCORE_0] = s0
    out[GF_SCORE_1] = s1
    out[GF_TARGET] = target


@njit(cache=True)
def games_chunk(key, first, size, deck, players, hand_size, table, flags, play_rules, points, last_trick,
                rules, game_rules, policies, margins, deck_copies, out):
    """Play games ``first .. first + size - 1`` into ``out`` (int64[size, N_GAME_FIELDS])."""
    # private copies, as in simcore.hand.hands_chunk: shared arrays' reference counts fight over cache
    table, flags, play_rules, points = table.copy(), flags.copy(), play_rules.copy(), points.copy()
    rules, game_rules, policies = rules.copy(), game_rules.copy(), policies.copy()
    margins, deck_copies, deck, key = margins.copy(), deck_copies.copy(), deck.copy(), key.copy()
    cards = deck.copy()
    rec = np.zeros(N_FIELDS, dtype=np.int64)
    hands = np.zeros((players, N_TYPES), dtype=np.uint8)
    widow = np.zeros(N_TYPES, dtype=np.uint8)
    side = np.zeros(players, dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    seat_policies = np.zeros(players, dtype=np.int64)
    seat_margins = np.zeros(players, dtype=np.float64)
    no_trace = np.zeros((0, 4), dtype=np.int64)
    for i in range(size):
        play_game(key, first + i, deck, players, hand_size, table, flags, play_rules, points, last_trick,
                  rules, game_rules, policies, margins, deck_copies, out[i], cards, rec, hands, widow,
                  side, state, seat_policies, seat_margins, no_trace)


@njit(parallel=True, cache=True)
def games_batch(key, firsts, sizes, offsets, deck, players, hand_size, table, flags, play_rules, points,
                last_trick, rules, game_rules, policies, margins, deck_copies, out):
    """Chunk i plays games ``firsts[i] ..`` into rows ``offsets[i]:offsets[i] + sizes[i]`` of ``out``."""
    for ci in prange(firsts.shape[0]):
        games_chunk(key, firsts[ci], sizes[ci], deck, players, hand_size, table, flags, play_rules, points,
                    last_trick, rules, game_rules, policies, margins, deck_copies,
                    out[offsets[ci]: offsets[ci] + sizes[ci]])
