"""Whole games (numba): hands in turn, the deal passing to the left, until a side wins.

Seats are absolute, numbered clockwise; the first dealer is the last seat, so the first hand's seats
are :func:`simcore.kernels.hand.play_hand`'s own (0 = the dealer's left). Partnerships are the even and the
odd seats (team 0 bids first in the first hand; team 1 holds the first deal); where the bidder plays
alone, every seat keeps its own score and wins for itself. Hand h of game g draws
from :func:`simcore.kernels.rng.hand_state` (key, g, h) with the deck in its original order, so two rule sets
played from one key see the same cards in the same hand of the same game whatever happened before:
common random numbers for ``pinochle compare``. Points are on the variant's own scale.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.kernels.hand import HandWork, Seating, hand_work, play_hand
from simcore.kernels.hand_record import (
    F_BID,
    F_BIDDER,
    F_MADE,
    F_REDEALS,
    N_FIELDS,
    S_CHECKS,
    S_DOUBLE_PIN,
    S_OUT,
    S_SCORE,
    S_WON,
)
from simcore.kernels.rng import hand_state
from simcore.kernels.threads import each_chunk
from simcore.variants.layout import TEAMS_ACROSS

#: A game still undecided after this many hands is recorded with winner -1 (never seen in practice:
#: it guards the loop, and the tests require every game to end).
MAX_GAME_HANDS = 5000

#: Most score lines a game keeps: two partnerships, or one per player when the bidder plays alone.
MAX_SIDES = 8
#: One record per game: the winner (a partnership 0/1, or a seat when each plays for himself), the
#: hands, contracts, sets and redeals, whether the bidder-wins-ties rule decided it, whether a player
#: declared himself out (1: and won, 2: and lost), the score lines that melded a double pinochle (or
#: more) in some hand (bit i: line i), the final target, each score line's final score (unused
#: lines stay 0), and the checks each partnership earned where the rules pay them (``[checks]``: each
#: of its players collects them from an opponent; 0 elsewhere).
GAME_FIELDS = (
    "winner",
    "hands",
    "contracts",
    "sets",
    "redeals",
    "tie_rule",
    "declared",
    "double_pinochle",
    "target",
    *(f"score_{i}" for i in range(MAX_SIDES)),
    "checks_0",
    "checks_1",
)
(
    GF_WINNER,
    GF_HANDS,
    GF_CONTRACTS,
    GF_SETS,
    GF_REDEALS,
    GF_TIE_RULE,
    GF_DECLARED,
    GF_DOUBLE_PINOCHLE,
    GF_TARGET,
    GF_SCORE_0,
) = range(10)
GF_CHECKS_0 = GF_SCORE_0 + MAX_SIDES
N_GAME_FIELDS = len(GAME_FIELDS)


@njit(cache=True)
def game_winner(scores, n, bidding, target, game_rules):
    """(winner, new target, settled by the bidder rule) after a hand that left the ``n`` score lines
    at ``scores``; winner -1 while the game goes on. ``bidding`` is the bidding side's line, -1 when
    the hand had no bidder.

    One line at the target wins. Several: the bidding side if it is among them and the rules count it
    first; else, with play-on targets, the target rises until at most one line is at it; else the
    highest line, equal highest lines playing another hand. With a losing limit, once a line falls to
    minus the limit the highest line above it wins (nobody, while all have fallen or the highest is
    shared)."""
    reached = _count_at_least(scores, n, target)
    if reached >= 2:
        if game_rules.bidder_wins_ties != 0 and bidding >= 0 and scores[bidding] >= target:
            return bidding, target, True
        if game_rules.play_on <= 0:
            return _highest_above(scores, n, target - 1), target, False
        while reached >= 2:
            target += game_rules.play_on
            reached = _count_at_least(scores, n, target)
    if reached == 1:
        return _highest_above(scores, n, target - 1), target, False
    limit = game_rules.losing_limit
    if limit > 0 and n - _count_at_least(scores, n, -limit + 1) > 0:
        return _highest_above(scores, n, -limit), target, False
    return -1, target, False


@njit(cache=True)
def _count_at_least(scores, n, floor):
    """How many of the ``n`` lines score at least ``floor``."""
    c = 0
    for i in range(n):
        if scores[i] >= floor:
            c += 1
    return c


@njit(cache=True)
def _highest_above(scores, n, floor):
    """The line with the highest score above ``floor``; -1 when there is none or it is shared."""
    best, top, shared = -1, np.int64(0), False
    for i in range(n):
        if scores[i] <= floor:
            continue
        if best < 0 or scores[i] > top:
            best, top, shared = i, scores[i], False
        elif scores[i] == top:
            shared = True
    return -1 if shared else best


@njit(cache=True)
def contract_checks(bid, brackets, every, more):
    """Checks for making a contract of ``bid``: those of its bracket (``brackets``: int64[k, 2] of
    [lowest bid, checks], bids rising; 0 below the first), plus ``more`` for each full ``every`` points
    of bid above the last bracket's lowest (``every`` 0: none). Check: 250-290 → 4, 400-440 → 15."""
    value = np.int64(0)
    k = brackets.shape[0]
    for i in range(k):
        if bid >= brackets[i, 0]:
            value = brackets[i, 1]
    if k > 0 and every > 0 and bid >= brackets[k - 1, 0]:
        value += more * ((bid - brackets[k - 1, 0]) // every)
    return value


@njit(cache=True)
def _hand_checks(out, seats, rec, dealer, players, bidding, brackets, game_rules):
    """Add the checks of one hand to the partnerships' ``out[GF_CHECKS_0 + line]``: each seat's for its
    meld, the bidding side's for making its contract or the other side's ``check_defeat_times`` that for
    defeating it, and a side's for a slam (every trick, at least one played)."""
    won = np.zeros(2, dtype=np.int64)
    for r in range(players):
        line = ((dealer + 1 + r) % players) % 2
        out[GF_CHECKS_0 + line] += seats[S_CHECKS, r]
        won[line] += seats[S_WON, r]
    if bidding >= 0:
        value = contract_checks(rec[F_BID], brackets, game_rules.check_every, game_rules.check_more)
        if rec[F_MADE] != 0:
            out[GF_CHECKS_0 + bidding] += value
        else:
            out[GF_CHECKS_0 + 1 - bidding] += game_rules.check_defeat_times * value
    for line in range(2):
        if won[line] > 0 and won[1 - line] == 0:
            out[GF_CHECKS_0 + line] += game_rules.check_slam


@njit(cache=True)
def game_checks(winner, scores, game_rules):
    """Checks for winning the game: ``check_game``, plus ``check_game_per_checks`` for each
    ``check_game_per`` points (or fraction) by which the winners' score exceeds the losers', plus
    ``check_losers_minus`` when the losers' score is below 0 (two partnerships)."""
    value = np.int64(game_rules.check_game)
    margin, per = scores[winner] - scores[1 - winner], game_rules.check_game_per
    if per > 0 and margin > 0:
        value += game_rules.check_game_per_checks * ((margin + per - 1) // per)
    if scores[1 - winner] < 0:
        value += game_rules.check_losers_minus
    return value


class GameWork(NamedTuple):
    """What :func:`play_game` works in, made once per chunk (:func:`game_work`)."""

    #: The hands' own work (:func:`simcore.kernels.hand.hand_work`) and record (int64[N_FIELDS]).
    hand: HandWork
    rec: np.ndarray
    #: uint64[4]: the stream each hand draws from.
    state: np.ndarray
    #: The hand's seats as :func:`simcore.kernels.hand.play_hand` numbers them (from the dealer's left):
    #: their policies and margins, and what each needs to declare out (int64[players]).
    seated: Seating
    need: np.ndarray


@njit(cache=True)
def game_work(tables, players):
    """A fresh :class:`GameWork` for ``players`` seats under ``tables``."""
    return GameWork(
        hand_work(tables, players, 0),  # private copies, as in simcore.kernels.hand.hands_chunk
        np.zeros(N_FIELDS, dtype=np.int64),
        np.zeros(4, dtype=np.uint64),
        Seating(np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.float64)),
        np.zeros(players, dtype=np.int64),
    )


# inlined into games_chunk, its one caller: as a function of its own, its compiled library (the hand
# kernel linked in) would be optimised and turned into machine code once more inside games_chunk's
@njit(cache=True, inline="always")
def play_game(key, game, rules, game_rules, seating, out, gw):
    """Play game ``game`` of the run keyed ``key`` to its end and write its record into ``out``
    (int64[N_GAME_FIELDS]). ``rules`` and ``game_rules`` are the variant's
    :class:`simcore.variants.record.HandRules` and ``GameRules``; ``seating``
    (:class:`simcore.kernels.hand.Seating`) is per absolute seat; ``gw`` is scratch
    (:class:`GameWork`). Partnerships (even and odd seats) keep two score lines; when the bidder plays
    alone every seat keeps its own. With ``game.declare_out`` a seat that declares itself out during a
    hand ends the game: its line wins if it has reached the target, else the other line wins."""
    players = rules.players
    work, rec, state = gw.hand, gw.rec, gw.state
    seat_policies, seat_margins, seat_need = gw.seated.policies, gw.seated.margins, gw.need
    policies, margins = seating.policies, seating.margins
    seats = work.position.seats
    alone = rules.teams != TEAMS_ACROSS
    n = players if alone else 2
    scores = np.zeros(MAX_SIDES, dtype=np.int64)
    target = game_rules.target
    out[:] = 0
    out[GF_WINNER] = -1
    for k in range(MAX_GAME_HANDS):
        dealer = (players - 1 + k) % players
        for r in range(players):  # play_hand numbers seats from the dealer's left
            seat = (dealer + 1 + r) % players
            seat_policies[r] = policies[seat]
            seat_margins[r] = margins[seat]
            seat_need[r] = target - scores[seat if alone else seat % 2] if game_rules.declare_out != 0 else 0
        work.deal.cards[:] = work.tables.deck
        hand_state(key, game, k, state)
        play_hand(state, rules, seat_policies, seat_margins, seat_need, rec, work)
        bidding = -1
        if rec[F_BIDDER] >= 0:
            bidder = (dealer + 1 + rec[F_BIDDER]) % players
            bidding = bidder if alone else bidder % 2
            out[GF_CONTRACTS] += 1
            if rec[F_MADE] == 0:
                out[GF_SETS] += 1
        out_line = -1
        for r in range(players):
            seat = (dealer + 1 + r) % players
            if alone:
                scores[seat] += seats[S_SCORE, r]
            elif seat < 2:  # seats 0 and 1 stand for the two partnerships
                scores[seat] += seats[S_SCORE, r]
            if seats[S_OUT, r] != 0:
                out_line = seat if alone else seat % 2
            if seats[S_DOUBLE_PIN, r] != 0:
                out[GF_DOUBLE_PINOCHLE] |= np.int64(1) << (seat if alone else seat % 2)
        if rules.checks != 0:
            _hand_checks(out, seats, rec, dealer, players, bidding, work.tables.check_contracts, game_rules)
        out[GF_REDEALS] += rec[F_REDEALS]
        out[GF_HANDS] = k + 1
        if out_line >= 0:  # two lines: the declarer's wins at the target, whatever the other has
            won = scores[out_line] >= target
            out[GF_WINNER] = out_line if won else 1 - out_line
            out[GF_DECLARED] = 1 if won else 2
            break
        winner, target, by_tie_rule = game_winner(scores, n, bidding, target, game_rules)
        if winner >= 0:
            out[GF_WINNER] = winner
            out[GF_TIE_RULE] = 1 if by_tie_rule else 0
            break
    for i in range(n):
        out[GF_SCORE_0 + i] = scores[i]
    if rules.checks != 0 and out[GF_WINNER] >= 0:
        out[GF_CHECKS_0 + out[GF_WINNER]] += game_checks(out[GF_WINNER], scores, game_rules)
    out[GF_TARGET] = target


@njit(cache=True, nogil=True)
def games_chunk(key, first, tables, rules, game_rules, seating, out):
    """Play games ``first .. first + out.shape[0] - 1`` into ``out`` (int64[games, N_GAME_FIELDS]) under a
    variant's ``kernel_rules`` (``tables``, ``hand``, ``game``), the seats played as ``seating`` says."""
    gw = game_work(tables, rules.players)
    seating = Seating(seating.policies.copy(), seating.margins.copy())
    key = key.copy()
    for i in range(out.shape[0]):
        play_game(key, first + i, rules, game_rules, seating, out[i], gw)


def games_batch(key, firsts, sizes, offsets, tables, rules, game_rules, policies, margins, out):
    """Chunk i plays games ``firsts[i] ..`` into rows ``offsets[i]:offsets[i] + sizes[i]`` of ``out``, chunks
    on threads (:func:`simcore.kernels.threads.each_chunk`)."""
    seating = Seating(policies, margins)
    each_chunk(
        lambda ci: games_chunk(
            key, firsts[ci], tables, rules, game_rules, seating, out[offsets[ci] : offsets[ci] + sizes[ci]]
        ),
        firsts.shape[0],
    )
