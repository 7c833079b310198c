"""One full hand in one kernel: deal → redeal rule → auction → trump → exchange → meld → concede or
play → score, driven by the variant's compiled rules and a policy per seat. Each phase is a function
of its own (``play_hand`` calls them in order), beside its twin in simcore/reference/hand.py. Two-hand's
play from a stock melds during play instead, one meld after each won trick (``play.stock_play``,
simcore/kernels/stock.py).

Seats are numbered clockwise from 0 = the dealer's left; the dealer is the last seat. With
``partners_across`` the seats alternate between two teams (s plays with s + 2, s + 4, ...); with
``bidder_alone`` the bidder plays against everyone else; with ``called_card`` the bidder names a card
after naming trump and its first holder to his left is his partner for the hand (none: he plays alone),
each of the two scoring half of what they make or lose, the others each for himself. Points are on the
variant's own scale. Each hand writes one record, laid out in :mod:`simcore.kernels.hand_record`
(``FIELDS``), and, when traced, its moves (``T_*`` rows); the Python drivers that run it are in
:mod:`simcore.kernels.hand_drivers`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.cards import ACE, JACK_OF_DIAMONDS, N_RANKS, N_SUITS, N_TYPES, NINE, QUEEN_OF_SPADES
from simcore.kernels.card_features import note_card
from simcore.kernels.condition import NO_CONDITION, ConditionWork, deal_accepted_into
from simcore.kernels.events import K_REDEAL, hand_has_event
from simcore.kernels.hand_record import (
    CONCEDED,
    CONCEDED_BY_OPPONENTS,
    DECLARED_OUT,
    F_ACES,
    F_BID,
    F_BIDDER,
    F_BIDDER_MELD,
    F_BIDDER_MELD_AFTER,
    F_MADE,
    F_OTHER_MELD,
    F_OTHER_SCORE,
    F_OTHER_TRICKS,
    F_OUTCOME,
    F_REDEALS,
    F_SIDE_MELD,
    F_SIDE_SCORE,
    F_SIDE_TRICKS,
    F_TRUMP,
    F_TRUMP_LEN,
    FORFEITED_UNSEEN,
    MAX_REDEALS,
    N_FIELDS,
    N_SEAT_ROWS,
    NO_TRUMP_MARRIAGE,
    PLAYED,
    S_CHECKS,
    S_DIX,
    S_DOUBLE_PIN,
    S_MELD,
    S_OUT,
    S_PTS,
    S_SCORE,
    S_SIDE,
    S_WON,
    SET_WITHOUT_PLAY,
    STAGE_NOT_PLAYED,
    STAGE_PLAYED,
    STAGE_UNMELDED,
    T_BID,
    T_BURY,
    T_CALL,
    T_CONTRACT,
    T_DEAL,
    T_DISCARD,
    T_DRAW,
    T_EXCHANGE,
    T_MELD,
    T_MELDED,
    T_OUT,
    T_OUTCOME,
    T_PASS,
    T_PLAY,
    T_REDEAL,
    T_SCORE,
    T_SHARE,
    T_TRICK,
    T_TRUMP,
)
from simcore.kernels.leaf import leaf
from simcore.kernels.learned import model_from, play_card
from simcore.kernels.meld import meld_by_trump, meld_checks, meld_under
from simcore.kernels.play import (
    SUIT_OF,
    duties,
    held_mask,
    legal,
    lowest_card,
    pick_card,
    popcount,
    situation_of,
    trick_after,
)
from simcore.kernels.policies import (
    BASIC,
    C_MUST_TRUMP,
    C_POINTS,
    C_SIDE,
    C_VOID,
    CTX_SIZE,
    HEURISTIC,
    RANDOM,
    any_marriage,
    call_card,
    choose_card,
    choose_trump,
    draw_discards,
    exchange_dix,
    give_cards,
    goes_alone,
    hand_value,
    swaps_dix,
    widow_order_into,
)
from simcore.kernels.rng import bounded, hand_state
from simcore.kernels.stock import (
    MAX_COPIES,
    SM_DIX,
    SM_DOUBLE_PINOCHLE,
    U_DIX,
    choose_meld,
    drop_slot,
    meld_keepers,
    meld_points,
    most_used,
    open_melds,
    table_meld,
    unshown_dix,
)
from simcore.variants.layout import (
    ALL_PASS_DEALER,
    ALL_PASS_REDEAL,
    AUCTION_NONE,
    AUCTION_SINGLE,
    CALL_NAMED,
    F_DIX,
    LEAD_BIDDER,
    NO_TRUMP_OPP_MELD,
    OPP_MELD,
    OPP_MELD_AND_TRICKS,
    SAVE_NOTHING,
    SAVE_POINTS,
    SAVE_TRICK,
    SHARE_HALF,
    SHARE_POOLED,
    TEAMS_ACROSS,
    TEAMS_ALONE,
    TEAMS_CALLED,
)
from simcore.variants.record import Tables


@njit("void(int64[:, ::1], int64[::1], int64, int64, int64, int64)", cache=True)
def _note(trace, pos, code, a, b, c):
    """Append a trace row when tracing (``trace`` has rows) and there is room. One signature: the
    callers pass many integer types, each of which would compile a copy of its own (26, measured)."""
    if pos[0] < trace.shape[0]:
        trace[pos[0], 0] = code
        trace[pos[0], 1] = a
        trace[pos[0], 2] = b
        trace[pos[0], 3] = c
        pos[0] += 1


#: Slots of the hand's position record ``Position.dyn`` (int64[N_DYN]): what the phases have decided
#: so far, each written by the phase that decides it and read by those after it. Seats and cards are -1
#: for none. ``Y_MELD`` and ``Y_DIX`` are pairs, index 1 the bidder's side (as ``_by_side``).
Y_BIDDER = 0  # the bidder (-1: nobody bid, or there is no auction)
Y_BID = 1  # his bid (0: none)
Y_FORCED = 2  # 1 when everybody passed and the rules gave the hand to a seat
Y_TRUMP = 3  # trump's suit (-1: the bidder could not name one)
Y_TURNED = 4  # the card turned for trump, from a stock or the dealer's hand
Y_PARTNER = 5  # the bidder's partner for the hand
Y_CALLED = 6  # the card the bidder called
Y_SWAPPER = 7  # the seat that exchanged a dix for the turned card
Y_DECLARED = 8  # the seat that declared itself out
Y_MELD = 9  # two slots: the sides' meld, 0 below the minimum that counts
Y_DIX = 11  # two slots: the sides' dix, for the rule that keeps it when the meld is lost
N_DYN = 13


@leaf
def next_bid(high, rules):
    """The lowest bid above ``high`` (0: no bid yet)."""
    if high == 0:
        return rules.min_bid
    step = rules.step
    if rules.step_from > 0 and high >= rules.step_from:
        step = rules.step_after
        return (high // step + 1) * step
    return high + step


@njit(cache=True, inline="always")
def _bidding(state, rules, policies, deal, position):
    """(bidder, bid) of the bids from the dealer's left round the table until one is left (one round
    with ``auction.kind = "single"``); bidder -1 when everybody passed. With ``opening_forced`` the
    dealer's left (seat 0) bids on his first turn whatever his hand; an opening bid stays within
    ``max_opening``. The heuristic seats bid up to their limits, ``deal.limits``. The first
    ``len(contract) - 2`` calls are given, not chosen: call k is ``deal.contract[2 + k]`` (a bid, or 0 for
    a pass), checked by the caller against the rules; the seats' policies make the calls after them."""
    hands, limits, trace, pos = position.hands, deal.limits, position.trace, position.pos
    contract = deal.contract
    players = rules.players
    active = (np.int64(1) << players) - 1  # bit s: seat s is still bidding (no array to allocate)
    high, high_seat = np.int64(0), np.int64(-1)
    single = rules.auction == AUCTION_SINGLE
    seat = 0
    turns = 0
    calls = 0
    while True:
        if (active >> seat) & 1 and seat != high_seat:
            want = next_bid(high, rules)
            forced = turns == 0 and rules.opening_forced != 0  # the dealer's left must open
            allowed = forced or rules.bid_needs_marriage == 0 or any_marriage(hands[seat])
            if calls + 2 < contract.shape[0]:
                bid_it = contract[calls + 2] > 0
                if bid_it:
                    want = contract[calls + 2]
            elif policies[seat] != RANDOM:
                bid_it = forced or (allowed and want <= limits[seat])
                partners = rules.teams == TEAMS_ACROSS and (seat - high_seat) % 2 == 0
                if bid_it and high_seat >= 0 and partners:
                    bid_it = limits[seat] - want >= rules.trick_total // 5  # do not outbid partner lightly
            else:  # pass, or bid the next amount or up to jump_steps steps above it, evenly
                choice = (
                    bounded(state, 2 + rules.jump_steps) if not forced else 1 + bounded(state, 1 + rules.jump_steps)
                )
                bid_it = allowed and choice >= 1
                for _ in range(choice - 1):
                    if high == 0 and rules.max_opening > 0 and next_bid(want, rules) > rules.max_opening:
                        break  # the opening bid is capped
                    want = next_bid(want, rules)
            if bid_it:
                high, high_seat = want, seat
                _note(trace, pos, T_BID, seat, want, 0)
            else:
                active &= ~(np.int64(1) << seat)
                _note(trace, pos, T_BID, seat, 0, 0)
            calls += 1
        turns += 1
        seat = (seat + 1) % players
        n_active = popcount(active)
        if single and turns >= players:
            break
        if n_active == 0 or (n_active == 1 and high_seat >= 0 and (active >> high_seat) & 1):
            break
    return high_seat, high


@leaf
def _hand_over(hands, giver, taker, given, trace, pos):
    """Put the cards ``given`` (copy counts) into ``taker``'s hand, noted in the trace."""
    for t in range(N_TYPES):
        hands[taker, t] += given[t]
        if given[t] > 0:
            _note(trace, pos, T_PASS, giver, t, given[t])


@njit(cache=True, inline="always")
def _share_widow(state, rules, policy, tables, position, scratch):
    """The bidder keeps one widow card and gives one to each other player, face down: his choice first
    (``widow_order``, his ``policy``), the next to his partner (the seat across, with partners), the
    rest clockwise from his left."""
    hands, widow, trace, pos = position.hands, position.widow, position.trace, position.pos
    order, dyn = scratch.order, position.dyn
    bidder, players = dyn[Y_BIDDER], rules.players
    partnered = rules.teams == TEAMS_ACROSS
    widow_order_into(hands[bidder], widow, dyn[Y_TRUMP], policy, tables, state, order, scratch.value)
    partner = (bidder + players // 2) % players if partnered else bidder
    k = 0
    for i in range(players + 1):
        if i == 0:
            seat = bidder
        elif i == 1:
            if not partnered:
                continue
            seat = partner
        else:
            seat = (bidder + i - 1) % players
            if seat == bidder or seat == partner:
                continue
        hands[seat, order[k]] += 1
        _note(trace, pos, T_SHARE, seat, order[k], 0)
        k += 1


@njit(cache=True, inline="always")
def _discard_and_draw(state, rules, policies, tables, position, scratch):
    """Each player from the bidder round to his right throws away cards (his policy) and draws as many
    from the stock (``position.widow``: copy counts, the undealt cards), at random. Nobody may throw more
    than his share of the stock: min(hand size, stock // players), so the stock never runs out."""
    hands, stock, trace, pos = position.hands, position.widow, position.trace, position.pos
    thrown, dyn = scratch.thrown, position.dyn
    bidder, trump, players = dyn[Y_BIDDER], dyn[Y_TRUMP], rules.players
    n_stock = 0
    for t in range(N_TYPES):
        n_stock += stock[t]
    most = min(rules.hand_size, n_stock // players)
    for i in range(players):
        s = (bidder + i) % players
        thrown[:] = 0
        draw_discards(hands[s], most, trump, policies[s], tables, state, thrown)
        n = 0
        for t in range(N_TYPES):
            if thrown[t] > 0:
                _note(trace, pos, T_DISCARD, s, t, thrown[t])
                n += thrown[t]
        for _ in range(n):
            k = bounded(state, n_stock)
            for t in range(N_TYPES):
                if k >= 0 and k < stock[t]:
                    stock[t] -= 1
                    hands[s, t] += 1
                    _note(trace, pos, T_DRAW, s, t, 1)
                    k = -1
                elif k >= 0:
                    k -= stock[t]
            n_stock -= 1


@leaf
def _first_holder(hands, bidder, players, card):
    """The first seat to the bidder's left holding ``card``; -1 for none (or no card)."""
    if card >= 0:
        for i in range(1, players):
            s = (bidder + i) % players
            if hands[s, card] > 0:
                return np.int64(s)
    return np.int64(-1)


@leaf
def _by_side(seats, row, players):
    """(the others' sum, the bidder's side's sum) of row ``row`` of the seat rows: index 1 = the bidder's
    side. A pair, not an array: an allocation costs about a tenth of a trick."""
    mine, others = np.int64(0), np.int64(0)
    for s in range(players):
        if seats[S_SIDE, s] == 1:
            mine += seats[row, s]
        else:
            others += seats[row, s]
    return others, mine


@leaf
def _saved(rules, tricks_won, trick_points):
    """True when a side (or a seat) that won these tricks keeps its meld under the save rule."""
    if rules.save_meld == SAVE_TRICK:
        return tricks_won > 0
    if rules.save_meld == SAVE_POINTS:
        return trick_points >= rules.save_meld_points
    return True


@leaf
def _kept(rules, tricks_won, trick_points, meld, dix):
    """What a side keeps of its ``meld``: all of it if it saved it (``_saved``), else its ``dix`` where the
    rules keep that, else nothing."""
    if _saved(rules, tricks_won, trick_points):
        return meld
    return dix if rules.dix_kept != 0 else np.int64(0)


@leaf
def _score_seats(seats, rec, players, rules, stage):
    """Fill ``seats[S_SCORE]`` once ``rec`` holds the hand's scores. With partners every seat takes its
    side's score (with ``teams.share = "half"`` a bidder and his called partner take half each, rounded
    down, and each opponent scores for himself; with ``"whole"`` every player takes his side's score;
    with ``"pooled_tricks"`` the two take the side's score and each opponent his own meld, kept if the
    opponents took a trick between them, plus an equal share of their trick points, rounded down);
    with a bidder alone each opponent scores for himself: his own meld if he saved it
    (by his own tricks) and his own trick points, or on a throw-in what the rules give each opponent
    (with ``meld_and_tricks``, his meld and an equal share of the trick points)."""
    halves = rules.teams == TEAMS_CALLED and rules.share == SHARE_HALF
    pooled = rules.teams == TEAMS_CALLED and rules.share == SHARE_POOLED
    alone = rules.teams == TEAMS_ALONE or halves or pooled
    others, others_won = 0, 0
    for s in range(players):
        if seats[S_SIDE, s] == 0:
            others += 1
            others_won += seats[S_WON, s]
    shares = 1
    if halves:
        shares = 0
        for s in range(players):
            shares += seats[S_SIDE, s]
    for s in range(players):
        if seats[S_SIDE, s] == 1:
            seats[S_SCORE, s] = rec[F_SIDE_SCORE] // shares
        elif not alone or stage == STAGE_UNMELDED:
            seats[S_SCORE, s] = rec[F_OTHER_SCORE]
        else:
            m = seats[S_MELD, s] if seats[S_MELD, s] >= rules.min_meld_to_count else 0
            if stage == STAGE_NOT_PLAYED:
                if rules.opponents_on_concede == OPP_MELD:
                    seats[S_SCORE, s] = m
                elif rules.opponents_on_concede == OPP_MELD_AND_TRICKS:
                    seats[S_SCORE, s] = m + rules.trick_total // (players - 1)
                else:
                    seats[S_SCORE, s] = 0
                if rec[F_OUTCOME] == CONCEDED:
                    seats[S_SCORE, s] += rules.concede_bonus
            elif pooled:  # own meld, kept by the others' tricks together, and an equal share of those tricks
                saved = _saved(rules, others_won, rec[F_OTHER_TRICKS])
                kept = m if saved else (seats[S_DIX, s] if rules.dix_kept != 0 else 0)
                seats[S_SCORE, s] = kept + rec[F_OTHER_TRICKS] // others
            else:
                saved = _saved(rules, seats[S_WON, s], seats[S_PTS, s])
                kept = m if saved else (seats[S_DIX, s] if rules.dix_kept != 0 else 0)
                seats[S_SCORE, s] = kept + seats[S_PTS, s]


@leaf
def counted(pts, rules):
    """Trick points as scored: rounded to a multiple of ``tricks.round_to``, up when the remainder is
    at least ``tricks.round_up_from`` (two-hand: 87 → 90, 126 → 120); as taken when it is 0."""
    unit = rules.round_to
    if unit <= 0:
        return pts
    return (pts // unit + (1 if pts % unit >= rules.round_up_from else 0)) * unit


@leaf
def _line_total(seats, seat, rules):
    """What ``seat``'s score line has so far this hand: its meld (0 below the minimum that counts) and
    trick points as counted; with partners (``partners_across``) both partners' together."""
    meld, pts = seats[S_MELD, seat], seats[S_PTS, seat]
    if rules.teams == TEAMS_ACROSS:
        meld, pts = 0, 0
        for s in range(rules.players):
            if seats[S_SIDE, s] == seats[S_SIDE, seat]:
                meld += seats[S_MELD, s]
                pts += seats[S_PTS, s]
    if meld < rules.min_meld_to_count:
        meld = 0
    return meld + counted(pts, rules)


@leaf
def _declares(seats, seat, need, rules):
    """True when ``seat`` may declare itself out: its score line's total this hand (``_line_total``)
    reaches ``need[seat]`` (0: no declaring). Both policies declare as soon as they may. Play checks
    the winner of each trick, the only seat whose line has just grown; so a side declares having
    won a trick after melding, as seeds/001's partnership game requires of its meld."""
    return need[seat] > 0 and _line_total(seats, seat, rules) >= need[seat]


@leaf
def _receive(hands, usage, seat, card):
    """``seat`` takes a copy of ``card`` into his hand, a copy not yet melded."""
    usage[seat, card, hands[seat, card]] = 0
    hands[seat, card] += 1


@njit(cache=True, inline="always")
def _stock_turn(state, seat, turned, policy, tables, position, play):
    """What the winner of a trick (``seat``, playing ``policy``) does before drawing, while the stock
    lasts: shows one dix (scoring it, and may put it under the stock for the turned card ``turned``),
    then tables one meld (:mod:`simcore.kernels.stock`); returns the card lying turned now. The
    heuristic shows and exchanges whenever it can; the random policy decides each with a coin."""
    usage, hands, seats, chosen = play.usage, position.hands, position.seats, play.chosen
    table, flags, trace, pos = tables.meld_table, tables.meld_flags, position.trace, position.pos
    trump = position.dyn[Y_TRUMP]
    dix_type = trump * N_RANKS + NINE
    slot = unshown_dix(usage[seat], hands[seat], trump, dix_type) if flags[F_DIX] > 0 else -1
    if slot >= 0 and (policy != RANDOM or bounded(state, 2) == 1):
        usage[seat, dix_type, slot] |= U_DIX
        seats[S_MELD, seat] += flags[F_DIX]
        _note(trace, pos, T_MELDED, seat, SM_DIX, flags[F_DIX])
        if turned % N_RANKS != NINE and (policy != RANDOM or bounded(state, 2) == 1):
            drop_slot(usage[seat], hands[seat], dix_type, slot)
            hands[seat, dix_type] -= 1
            _receive(hands, usage, seat, turned)
            _note(trace, pos, T_EXCHANGE, seat, turned, 0)
            turned = dix_type
    m = choose_meld(open_melds(usage[seat], hands[seat], trump, table, chosen), trump, table, policy, state)
    if m >= 0:
        table_meld(usage[seat], hands[seat], m, trump, table, chosen)
        pts = meld_points(m, trump, table)
        seats[S_MELD, seat] += pts
        if m == SM_DOUBLE_PINOCHLE:
            seats[S_DOUBLE_PIN, seat] = 1
        _note(trace, pos, T_MELDED, seat, m, pts)
    return turned


@leaf
def _draw(hands, usage, seat, stock, n_stock, state, trace, pos):
    """``seat`` draws a card at random from ``stock`` (copy counts, ``n_stock`` > 0 of them)."""
    k = bounded(state, n_stock)
    for t in range(N_TYPES):
        if k >= 0 and k < stock[t]:
            stock[t] -= 1
            _receive(hands, usage, seat, t)
            _note(trace, pos, T_DRAW, seat, t, 1)
            k = -1
        elif k >= 0:
            k -= stock[t]


@leaf
def play_hand(state, rules, policies, margins, need, rec, work):
    """Play one hand from stream ``state`` and write its record into ``rec`` (int64[N_FIELDS]).

    ``rules`` is the variant's :class:`simcore.variants.record.HandRules` (:func:`simcore.kernels.compiled.hand_rules`);
    ``work`` the :class:`HandWork` the hand is played in (:func:`hand_work`): the tables' arrays, the
    deal (``work.deal.cards``, dealt in its current order), the position and scratch.

    ``margins`` (float64[players]) shifts each heuristic seat's bidding limit by that share of the
    hand's trick points (> 0 bolder): the knob that tuning turns (rules key ``policy.margin``).
    ``need`` (int64[players]) is what each seat still needs to win the game, for declaring out
    (0: no declaring, as in a hand played alone).

    With play from a stock (``play.stock_play``, two-hand) the turned card is a random card of the
    stock, nothing is melded before play, and while the stock lasts a trick carries no duty, its
    winner may meld (``_stock_turn``), then each player from the winner draws one card, the last of
    them the turned card.

    After the call ``work.position.seats`` row ``S_SCORE`` holds what the hand adds to each seat's score
    line, and ``work.position.trace`` (int64[rows, 4]; zero rows for none) the hand move by move.

    The phases below run in this order and draw from ``state`` in this order; the reference referee
    (simcore/reference/hand.py) has one function of the same name per phase. Each reads what the
    phases before it decided from the position record ``position.dyn`` (slots ``Y_*``) and writes
    what it decides there. They are inlined into this function (``inline='always'``), so no call is
    made. Each takes the parts of ``work`` it uses (:class:`Position`, :class:`HandDeal`, ...), not the
    whole: numba copies a record whole wherever it is passed or read, and LLVM then takes each copy
    apart, so the whole ``work`` (about 35 arrays) read in every phase made the hand slow to
    compile. This function and all it calls are leaves (:mod:`simcore.kernels.leaf`): no
    reference counting, so nothing here may allocate; what a hand needs beyond its record comes in
    ``work``."""
    tables, deal, position, scratch, play = work.tables, work.deal, work.position, work.scratch, work.play
    dyn = position.dyn
    _fresh(rec, position)
    _deal_and_redeal(state, rules, policies, margins, rec, tables, deal, position)
    if dyn[Y_BIDDER] < 0 and rules.auction != AUCTION_NONE:
        return  # passed out after the given calls: thrown in, nobody scores
    # a set contract (pinochle advise) is not the compulsory opening the unseen forfeit is for
    if (
        rules.forfeit_unseen != 0
        and deal.contract[1] == 0
        and _forfeit_unseen(state, rules, policies, margins, rec, tables, position)
    ):
        return
    _trump_and_partner(state, rules, policies, rec, tables, position, deal.contract)
    if dyn[Y_TRUMP] < 0:
        _score_no_trump(rules, rec, tables, position, scratch)
        return
    _exchange(state, rules, policies, tables, position, scratch, deal.contract)
    _meld(rules, need, rec, tables, position)
    if _without_play(rules, policies, rec, position):
        return
    _tricks(state, rules, policies, need, tables, position, play)
    _score(rules, rec, tables, position)


@njit(cache=True, inline="always")
def _fresh(rec, position):
    """Clear what a hand writes: its record, the seat rows, the trace's position, and the position
    record (no seat or card chosen yet)."""
    position.seats[:] = 0
    position.pos[0] = 0
    rec[:] = 0
    dyn = position.dyn
    dyn[:] = -1
    dyn[Y_BID] = 0
    dyn[Y_FORCED] = 0
    dyn[Y_MELD : Y_DIX + 2] = 0


@njit(cache=True, inline="always")
def _deal_and_redeal(state, rules, policies, margins, rec, tables, deal, position):
    """Phase 1, deal and redeal: the deal kept, its bidder and bid (``Y_BIDDER``, ``Y_BID``; ``Y_FORCED``:
    everybody passed and the rules gave the hand to a seat). Deals again while a redeal rule fires
    (nines or no meld in a hand, ``redeal_dealt``; or everybody passed where that redeals, decided by
    the auction), at most MAX_REDEALS times. Without an auction the bidder is -1 and the bid 0. Records
    the redeals and the contract; the trace keeps only the kept deal's moves.

    With ``deal.contract`` = [seat, bid, more...] (:class:`HandDeal`), seat ``contract[0]`` >= 0 holds the
    cards ``deal.given`` in every deal (``deal.cards`` is then the rest of the deck). With a bid > 0 it is
    a set contract: no auction, that seat is the bidder at ``contract[1]`` (and names the trump
    ``contract[2]`` where given, :func:`_trump_and_partner`). With bid 0 the auction
    decides, its first calls given (``more``: the auction so far, see :func:`_bidding`); a deal a redeal
    rule throws in is dealt again, as a deal the auction so far rules out, but when everybody passes
    after the given calls the hand is thrown in (bidder -1) and not dealt again. Every deal, redeals
    too, meets the condition ``deal.accept`` (:mod:`simcore.kernels.condition`; zero rows: any deal):
    those that fail it are dealt again before any rule looks at them."""
    hands, widow, contract = position.hands, position.widow, deal.contract
    trace, pos, dyn = position.trace, position.pos, position.dyn
    players = rules.players
    redeals = 0
    set_contract = contract[1] > 0
    # the heuristic's trump choice a condition may read draws nothing: the stream passes as its scratch
    accept = ConditionWork(deal.accept, tables.meld_table, tables.meld_flags, position.totals, state)
    while True:
        deal_accepted_into(state, deal.cards, deal.given, contract[0], rules.hand_size, accept, hands, widow)
        if deal.given.shape[0] > N_TYPES:  # the widow given (``deal.cards`` holds none of it)
            for t in range(N_TYPES):
                widow[t] += deal.given[N_TYPES + t]
        _note_deal(hands, widow, players, trace, pos)
        if set_contract:
            dyn[Y_BIDDER], dyn[Y_BID] = contract[3] if contract.shape[0] > 3 else contract[0], contract[1]
        redeal = redeal_dealt(hands, players, rules)
        if not redeal and rules.auction != AUCTION_NONE and not set_contract:
            redeal = _auction(state, rules, policies, margins, tables, deal, position)
            if redeal and contract.shape[0] > 2:
                break  # passed out after the auction so far: this hand is thrown in
        if not redeal or redeals >= MAX_REDEALS:
            break
        redeals += 1
    rec[F_REDEALS] = redeals
    rec[F_BIDDER] = dyn[Y_BIDDER]
    rec[F_BID] = dyn[Y_BID]
    _note(trace, pos, T_REDEAL, redeals, 0, 0)
    _note(trace, pos, T_CONTRACT, dyn[Y_BIDDER], dyn[Y_BID], 0)


@njit(cache=True, inline="always")
def _note_deal(hands, widow, players, trace, pos):
    """Start the trace afresh with the deal in ``hands`` and ``widow``."""
    pos[0] = 0
    if trace.shape[0] > 0:
        for p in range(players):
            for t in range(N_TYPES):
                if hands[p, t] > 0:
                    _note(trace, pos, T_DEAL, p, t, hands[p, t])
        for t in range(N_TYPES):
            if widow[t] > 0:
                _note(trace, pos, T_DEAL, players, t, widow[t])


@njit(cache=True, inline="always")
def redeal_dealt(hands, players, rules):
    """True when a hand as dealt calls for a redeal (``redeal.nines`` or more nines, or no meld where
    ``redeal.no_meld``)."""
    redeal = False
    if rules.redeal_min_nines > 0:
        for p in range(players):
            if hand_has_event(hands[p], K_REDEAL, rules.redeal_min_nines, rules.redeal_no_meld, 0):
                redeal = True
    return redeal


@njit(cache=True, inline="always")
def _auction(state, rules, policies, margins, tables, deal, position):
    """Phase 2, auction on the deal in ``position.hands``: the bidder, his bid and whether he was forced
    into ``Y_BIDDER``, ``Y_BID``, ``Y_FORCED``; returns True when the deal is to be redealt. A heuristic
    seat bids up to its hand's value (``hand_value``) plus its margin's share of the trick points, and
    not at all where trump needs a marriage and it holds none to name; when everybody passes the rules
    redeal (True, bidder -1, bid 0) or force the forced bid on the dealer's left (seat 0) or the dealer
    (the last seat). ``deal.limits`` (int64[players]) receives the seats' bidding limits;
    ``deal.contract`` may give the first calls (:func:`_bidding`)."""
    hands, limits, dyn = position.hands, deal.limits, position.dyn
    players = rules.players
    limits[:] = 0
    for p in range(players):
        if policies[p] != RANDOM:
            v, _ = hand_value(
                hands[p],
                tables.meld_table,
                tables.meld_flags,
                position.totals,
                rules.trick_total,
                rules.partner_meld if rules.teams != TEAMS_ALONE else 0,
                rules.pass_cards,
                rules.hand_size,
            )
            limits[p] = np.int64(v + margins[p] * rules.trick_total)
            if rules.trump_needs_marriage != 0 and rules.trump_after_widow == 0 and not any_marriage(hands[p]):
                limits[p] = 0  # he could not name trump: the hand would be set unplayed
    bidder, bid = _bidding(state, rules, policies, deal, position)
    redeal = False
    forced = bidder < 0 and rules.all_pass != ALL_PASS_REDEAL
    if bidder < 0:
        if rules.all_pass == ALL_PASS_REDEAL:
            redeal = True
        elif rules.all_pass == ALL_PASS_DEALER:
            bidder, bid = players - 1, rules.forced_bid
        else:
            bidder, bid = 0, rules.forced_bid
    dyn[Y_BIDDER], dyn[Y_BID], dyn[Y_FORCED] = bidder, bid, 1 if forced else 0
    return redeal


@njit(cache=True, inline="always")
def _trump_and_partner(state, rules, policies, rec, tables, position, contract):
    """Phase 3, trump and partner: ``Y_TRUMP``, ``Y_TURNED``, ``Y_PARTNER`` and ``Y_CALLED``. Sides go
    into ``seats[S_SIDE]`` (1 = the bidder's side; with no auction seats 0, 2, ... are side 1). Trump
    is the bidder's choice (the one ``contract`` names for a set contract that names one, see
    :class:`HandDeal`), or with no auction the suit of a turned card (``_turn_trump``); -1 when the
    bidder holds no marriage to name it, and the hand stops there; with ``trump_after_widow`` the
    bidder takes the widow into his hand first. The turned card is the card turned for trump, from a
    stock or the dealer's hand (-1: none). The partner is the seat across with partners, a called
    card's first holder to the bidder's left with a called card, else -1; the called card is -1 where
    none is named. Records trump and the bidder's meld as dealt."""
    hands, widow, seats, trace, pos = position.hands, position.widow, position.seats, position.trace, position.pos
    table, flags, deck_copies = tables.meld_table, tables.meld_flags, tables.deck_copies
    totals, dyn = position.totals, position.dyn
    players, bidder, bid = rules.players, dyn[Y_BIDDER], dyn[Y_BID]
    side = seats[S_SIDE]
    anchor = bidder if bidder >= 0 else 0
    for s in range(players):
        if rules.teams == TEAMS_ACROSS:
            side[s] = 1 if (s - anchor) % 2 == 0 else 0
        else:
            side[s] = 1 if s == anchor else 0
    partner = np.int64(-1)
    if rules.teams == TEAMS_ACROSS and bidder >= 0:
        partner = (bidder + players // 2) % players
    stock = rules.stock_play != 0
    turned, called = np.int64(-1), np.int64(-1)
    dealt = (np.int64(0), np.int64(0), np.int64(0), np.int64(0))  # the bidder's meld as dealt, by trump
    if bidder >= 0:
        meld_by_trump(hands[bidder], table, flags, totals)
        dealt = (totals[0], totals[1], totals[2], totals[3])
    if bidder >= 0 and rules.trump_after_widow != 0 and rules.widow_to_bidder != 0:
        for t in range(N_TYPES):  # he takes the widow first (the exchange then only buries)
            hands[bidder, t] += widow[t]
    if rules.auction == AUCTION_NONE:
        trump, turned = _turn_trump(state, rules, position)
    elif contract[1] > 0 and contract.shape[0] > 2:
        trump = contract[2]
    else:
        trump = np.int64(
            choose_trump(hands[bidder], policies[bidder], rules.trump_needs_marriage != 0, table, flags, totals, state)
        )
    rec[F_TRUMP] = trump
    _note(trace, pos, T_TRUMP, trump, turned if stock or rules.dix_for_turned != 0 else 0, 0)
    dyn[Y_TRUMP], dyn[Y_TURNED] = trump, turned
    if trump < 0:
        dyn[Y_PARTNER] = partner
        return
    if rules.teams == TEAMS_CALLED and bidder >= 0:
        if rules.call == CALL_NAMED:  # called -1: he plays alone
            if rules.may_play_alone == 0 or not goes_alone(
                hands[bidder], trump, bid, policies[bidder], table, flags, totals, state
            ):
                called = call_card(hands[bidder], trump, policies[bidder], deck_copies, state)
            partner = _first_holder(hands, bidder, players, called)
        else:  # the first player to the bidder's left with the ace of trump; nobody: the ten, and so on
            for r in range(N_RANKS):
                if partner < 0 and deck_copies[trump * N_RANKS + r] > 0:
                    called = trump * N_RANKS + r
                    partner = _first_holder(hands, bidder, players, called)
        if partner >= 0:
            side[partner] = 1
        _note(trace, pos, T_CALL, called, partner, 0)
    if bidder >= 0:
        rec[F_BIDDER_MELD] = dealt[trump]
    dyn[Y_PARTNER], dyn[Y_CALLED] = partner, called


@njit(cache=True, inline="always")
def _turn_trump(state, rules, position):
    """(trump, turned) with no auction: trump is the suit of a uniformly random card of the dealer's
    hand (which keeps it: ``turned`` is that card), or of the stock, where that card then lies turned
    (``turned``, out of the stock). Random, not a fixed position: the block's order is not uniform
    after a partial shuffle."""
    stock = rules.stock_play != 0
    widow = position.widow
    pool = widow if stock else position.hands[rules.players - 1]
    n_pool = 0
    for t in range(N_TYPES):
        n_pool += pool[t]
    k = bounded(state, n_pool)
    card = -1
    for t in range(N_TYPES):
        if card < 0:
            if k < pool[t]:
                card = t
            else:
                k -= pool[t]
    if stock:
        widow[card] -= 1
    return np.int64(card // N_RANKS), np.int64(card)


@njit(cache=True, inline="always")
def _exchange(state, rules, policies, tables, position, scratch, contract):
    """Phase 4, exchange: the cards that change hands before meld, in this order: a dix for the card
    turned from the dealer's hand (``_swap_dix``, who into ``Y_SWAPPER``), the widow shared out
    (``_share_widow``), the partners' pass (partner to bidder, then back; at once with
    ``simultaneous``; with ``pass_called_card`` the partner's pass is the called card), the widow to
    the bidder and his burial, discard and draw (``_discard_and_draw``); a set contract may give the
    pass, the return and the burial (:class:`HandDeal`). The cards buried (copy counts
    that count for the bidder) go into ``position.buried``; ``fed``, ``back`` and ``thrown``
    (uint8[24]) are scratch for the pass and the discards, ``order`` and ``value`` for the widow
    shared out."""
    hands, widow, trace, pos = position.hands, position.widow, position.trace, position.pos
    buried, fed, back, dyn = position.buried, scratch.fed, scratch.back, position.dyn
    bidder, partner, trump, called = dyn[Y_BIDDER], dyn[Y_PARTNER], dyn[Y_TRUMP], dyn[Y_CALLED]
    if rules.dix_for_turned != 0:
        dyn[Y_SWAPPER] = _swap_dix(state, rules, policies, tables, position)
    if bidder >= 0 and rules.widow_shared != 0:
        _share_widow(state, rules, policies[bidder], tables, position, scratch)
    buried[:] = 0
    if bidder >= 0 and rules.pass_cards > 0 and partner >= 0:
        fed[:] = 0
        back[:] = 0
        if rules.pass_called_card != 0:  # "The partner gives them the card and then they must give one back"
            fed[called] = 1
            hands[partner, called] -= 1  # out of his hand, as give_cards takes the cards it gives
        elif not _contract_gives(contract, 4, rules.pass_cards, hands[partner], fed):
            give_cards(hands[partner], rules.pass_cards, trump, policies[partner], True, tables, state, fed)
        if rules.simultaneous == 0:  # the bidder sees what he got before returning
            _hand_over(hands, partner, bidder, fed, trace, pos)
        if rules.pass_called_card != 0 or not _contract_gives(
            contract, 4 + rules.pass_cards, rules.pass_cards, hands[bidder], back
        ):
            give_cards(hands[bidder], rules.pass_cards, trump, policies[bidder], False, tables, state, back)
        if rules.simultaneous != 0:
            _hand_over(hands, partner, bidder, fed, trace, pos)
        _hand_over(hands, bidder, partner, back, trace, pos)
    if bidder >= 0 and rules.widow_to_bidder != 0:
        n_widow = 0
        for t in range(N_TYPES):
            if rules.trump_after_widow == 0:  # else taken before trump was named
                hands[bidder, t] += widow[t]
            n_widow += widow[t]
        if not _contract_gives(contract, 4 + 2 * rules.pass_cards, n_widow, hands[bidder], buried):
            give_cards(hands[bidder], n_widow, trump, policies[bidder], False, tables, state, buried)
        for t in range(N_TYPES):
            if buried[t] > 0:
                _note(trace, pos, T_BURY, bidder, t, buried[t])
    if bidder >= 0 and rules.draw != 0:
        _discard_and_draw(state, rules, policies, tables, position, scratch)


@njit(cache=True, inline="always")
def _contract_gives(contract, at, n, hand, out):
    """True when the set contract ``contract`` gives ``n`` cards at ``contract[at:at + n]`` (there, and
    not -1s, see :class:`HandDeal`): they go from ``hand`` into ``out`` (copy counts), as
    ``give_cards`` would take them."""
    if contract[1] <= 0 or n <= 0 or contract.shape[0] < at + n or contract[at] < 0:
        return False
    for k in range(n):
        out[contract[at + k]] += 1
        hand[contract[at + k]] -= 1
    return True


@njit(cache=True, inline="always")
def _swap_dix(state, rules, policies, tables, position):
    """The dix exchange (``exchange.dix_for_turned``, seeds/001 'Partnership Pinochle'): each player in
    turn from the dealer's left who holds a dix may give it to the dealer for the turned card (his
    policy, ``swaps_dix``); the first who does ends it. Returns his seat (-1: nobody, or the turned
    card is itself a dix)."""
    hands, dyn = position.hands, position.dyn
    trump, turned = dyn[Y_TRUMP], dyn[Y_TURNED]
    dealer = rules.players - 1
    dix_type = trump * N_RANKS + NINE
    if turned < 0 or turned == dix_type:
        return np.int64(-1)
    for s in range(dealer):
        if hands[s, dix_type] > 0 and swaps_dix(hands, s, turned, trump, policies[s], rules, tables, state):
            exchange_dix(hands, s, dealer, dix_type, turned, 1)
            _note(position.trace, position.pos, T_EXCHANGE, s, turned, 0)
            return np.int64(s)
    return np.int64(-1)


@njit(cache=True, inline="always")
def _meld(rules, need, rec, tables, position):
    """Phase 5, meld: each seat's meld, dix, double pinochle and (where the rules pay them) the checks
    for its meld (``Tables.check_melds``) go into ``seats``; the sides' totals into ``Y_MELD`` and
    ``Y_DIX`` (index 1 = the bidder's side), the meld 0 below the minimum that counts, the dix kept
    apart for the rule that keeps it when the meld is lost. A dix exchanged for the turned card scores
    its original holder (``Y_SWAPPER``), not the dealer who now holds it. With a stock nothing is
    melded before play, and a turned dix scores the dealer, who may declare himself out with it
    (``Y_DECLARED``). Records the bidder's meld, trump length and aces after the exchange, and the
    sides' meld."""
    hands, seats, trace, pos, dyn = position.hands, position.seats, position.trace, position.pos, position.dyn
    table, flags = tables.meld_table, tables.meld_flags
    players, bidder, partner, trump = rules.players, dyn[Y_BIDDER], dyn[Y_PARTNER], dyn[Y_TRUMP]
    swapper = dyn[Y_SWAPPER]
    stock = rules.stock_play != 0
    for s in range(players if not stock else 0):
        shown = meld_under(hands[s], trump, table, flags)
        # "each original holder of a dix scores 10, whether or not it was exchanged"
        moved = (1 if s == swapper else 0) - (1 if swapper >= 0 and s == players - 1 else 0)
        _note(trace, pos, T_MELD, s, shown + moved * flags[F_DIX], 0)
        seats[S_MELD, s] = shown + moved * flags[F_DIX]
        seats[S_DIX, s] = (hands[s, trump * N_RANKS + NINE] + moved) * flags[F_DIX]
        seats[S_DOUBLE_PIN, s] = 1 if min(hands[s, QUEEN_OF_SPADES], hands[s, JACK_OF_DIAMONDS]) >= 2 else 0
        if rules.checks != 0:  # paid for melding, whether or not the side's meld is saved
            seats[S_CHECKS, s] = meld_checks(hands[s], trump, table, flags, tables.check_melds)
        if s == partner and rules.teams == TEAMS_CALLED and rules.partner_meld_counts == 0:
            seats[S_MELD, s] = 0  # only the bidder's meld counts for a called partnership
            seats[S_DIX, s] = 0
            seats[S_DOUBLE_PIN, s] = 0
    if stock and dyn[Y_TURNED] % N_RANKS == NINE and flags[F_DIX] > 0:
        seats[S_MELD, players - 1] += flags[F_DIX]
        _note(trace, pos, T_MELDED, players - 1, SM_DIX, flags[F_DIX])
        if _declares(seats, players - 1, need, rules):
            dyn[Y_DECLARED] = players - 1
    meld, dix = _by_side(seats, S_MELD, players), _by_side(seats, S_DIX, players)
    if bidder >= 0:
        rec[F_BIDDER_MELD_AFTER] = meld_under(hands[bidder], trump, table, flags)
        for r in range(N_RANKS):
            rec[F_TRUMP_LEN] += hands[bidder, trump * N_RANKS + r]
        for s in range(N_SUITS):
            rec[F_ACES] += hands[bidder, s * N_RANKS + ACE]
    rec[F_SIDE_MELD] = meld[1]
    rec[F_OTHER_MELD] = meld[0]
    least = rules.min_meld_to_count  # from here on, meld counts only at the variant's minimum
    dyn[Y_MELD] = meld[0] if meld[0] >= least else 0
    dyn[Y_MELD + 1] = meld[1] if meld[1] >= least else 0
    dyn[Y_DIX], dyn[Y_DIX + 1] = dix[0], dix[1]


@njit(cache=True, inline="always")
def _without_play(rules, policies, rec, position):
    """The end of the meld phase: True when the hand ends here, scored (stage STAGE_NOT_PLAYED). Set
    without play when the bidding side's meld is short of the bid by more than ``set_if_short_by``
    or under the minimum to play; thrown in by a heuristic bidder short by more than nine tenths of
    the trick points (and by at least ``concede_short_by``), where the rules allow it (with
    ``concede_only_forced``, only a bidder forced to take the hand when everybody passed,
    ``Y_FORCED``); conceded to the bidder (``opponents_concede``) by heuristic opponents (the seat on
    his left decides) when he cannot fail: his meld alone reaches the bid and nothing need save it
    (``save_meld = "nothing"``). The bidder then scores his bid ("The bidder can never win more than
    he bid")."""
    dyn, trace, pos = position.dyn, position.trace, position.pos
    bidder, bid, side_meld = dyn[Y_BIDDER], dyn[Y_BID], dyn[Y_MELD + 1]
    if bidder < 0:
        return False
    short = bid - side_meld
    outcome = PLAYED
    if (rules.set_if_short_by > 0 and short > rules.set_if_short_by) or side_meld < rules.min_meld_to_play:
        outcome = SET_WITHOUT_PLAY
    elif (
        rules.concede != 0
        and policies[bidder] != RANDOM
        and short > rules.trick_total * 9 // 10
        and short >= rules.concede_short_by
        and (rules.concede_only_forced == 0 or dyn[Y_FORCED] != 0)
    ):
        outcome = CONCEDED
    elif (
        rules.opponents_concede != 0
        and policies[(bidder + 1) % rules.players] != RANDOM
        and rules.save_meld == SAVE_NOTHING
        and side_meld >= bid
    ):
        outcome = CONCEDED_BY_OPPONENTS
    if outcome == PLAYED:
        return False
    _note(trace, pos, T_OUTCOME, outcome, 0, 0)
    rec[F_OUTCOME] = outcome
    rec[F_MADE] = 1 if outcome == CONCEDED_BY_OPPONENTS else 0
    if outcome == CONCEDED_BY_OPPONENTS:
        rec[F_SIDE_SCORE] = bid
    else:
        rec[F_SIDE_SCORE] = -bid if outcome != CONCEDED or rules.concede_loses_bid != 0 else 0
    if rules.opponents_on_concede == OPP_MELD:
        rec[F_OTHER_SCORE] = dyn[Y_MELD]
    elif rules.opponents_on_concede == OPP_MELD_AND_TRICKS:
        rec[F_OTHER_SCORE] = dyn[Y_MELD] + rules.trick_total
    if outcome == CONCEDED:
        rec[F_OTHER_SCORE] += rules.concede_bonus
    _note(trace, pos, T_SCORE, rec[F_SIDE_SCORE], rec[F_OTHER_SCORE], 0)
    _score_seats(position.seats, rec, rules.players, rules, STAGE_NOT_PLAYED)
    return True


@njit(cache=True, inline="always")
def _forfeit_unseen(state, rules, policies, margins, rec, tables, position):
    """Between the auction and trump (``scoring.forfeit_unseen``): True when the bidder of the compulsory
    opening at the minimum, nobody having bid over it, forfeits before seeing the widow; the hand is
    scored (stage STAGE_UNMELDED: no trump, no meld): he loses the bid as on a throw-in, the others
    score nothing. A heuristic bidder forfeits when his valuation (the one he bids by, margin
    included) is below the bid: he would not have bid it, and is less likely than not to make it; the
    random policy decides with a coin."""
    dyn, trace, pos = position.dyn, position.trace, position.pos
    bidder, bid = dyn[Y_BIDDER], dyn[Y_BID]
    if bidder < 0 or bid != rules.min_bid:
        return False
    if policies[bidder] != RANDOM:
        v, _ = hand_value(
            position.hands[bidder],
            tables.meld_table,
            tables.meld_flags,
            position.totals,
            rules.trick_total,
            0,
            rules.pass_cards,
            rules.hand_size,
        )
        forfeits = np.int64(v + margins[bidder] * rules.trick_total) < bid  # his bidding limit, as _auction's
    else:
        forfeits = bounded(state, 2) == 1
    if not forfeits:
        return False
    position.seats[S_SIDE, bidder] = 1
    rec[F_OUTCOME] = FORFEITED_UNSEEN
    rec[F_TRUMP] = -1
    rec[F_SIDE_SCORE] = -bid if rules.concede_loses_bid != 0 else 0
    _note(trace, pos, T_OUTCOME, FORFEITED_UNSEEN, 0, 0)
    _note(trace, pos, T_SCORE, rec[F_SIDE_SCORE], 0, 0)
    _score_seats(position.seats, rec, rules.players, rules, STAGE_UNMELDED)
    return True


@njit(cache=True, inline="always")
def _tricks(state, rules, policies, need, tables, position, play):
    """Phase 6, tricks: play the hand out, each seat's trick points (as taken; buried cards count for the
    bidder, the last trick adds ``last_trick``) and tricks won into ``seats``. A seat that declares
    itself out (``Y_DECLARED``) stops the play. With a stock, while it lasts a trick carries no duty,
    its winner melds (``_stock_turn``) and every player draws, from the winner round (``_draw_round``)."""
    hands, seats, usage, chosen, trace, pos = (
        position.hands,
        position.seats,
        play.usage,
        play.chosen,
        position.trace,
        position.pos,
    )
    dyn = position.dyn
    table, points, deck_copies = tables.meld_table, tables.trick_points, tables.deck_copies
    players, last_trick = rules.players, rules.last_trick
    bidder, trump, turned, declared = dyn[Y_BIDDER], dyn[Y_TRUMP], dyn[Y_TURNED], dyn[Y_DECLARED]
    tracing = trace.shape[0] > 0
    side = seats[S_SIDE]
    ctx, played, unseen, held, trick = play.ctx, play.played, play.unseen, play.held, play.trick
    leader, n_tricks, n_stock, stock_tricks = _trick_start(rules, tables, position, play)
    duty = duties(rules)
    broken = False
    exempt_partner = rules.exempt_partner != 0
    lead_trump, wait_broken = rules.bidder_leads_trump != 0, rules.trump_led_once_broken != 0
    # the learned card play's counting, kept only where a seat reads it (basic's hands pay nothing)
    counting = False
    for p in range(players):
        counting = counting or policies[p] == HEURISTIC
    for k in range(n_tricks):
        if declared >= 0:
            break
        # the trick so far, kept card by card: led suit, winning card and seat, top card of the led suit
        led, win, win_seat, top_led = np.int64(0), np.int64(0), leader, np.int64(0)
        free = k < stock_tricks  # no duty while the stock lasts
        for i in range(players):
            seat = (leader + i) % players
            keep = np.int64(0)
            if free and policies[seat] != RANDOM:  # keep the cards of open melds out of the trick
                keep = meld_keepers(usage[seat], hands[seat], trump, table, chosen)
            situation = situation_of(
                free,
                exempt_partner and i > 0 and side[win_seat] == side[seat],
                lead_trump and k == 0 and i == 0 and seat == bidder,
                wait_broken and i == 0 and not broken,
            )
            allowed = legal(held[seat], keep, situation, (np.int64(i), led, win, top_led), trump, duty)
            if policies[seat] != RANDOM:
                if allowed & (allowed - 1) == 0:  # one legal card, which either player would return: skip its call
                    card = lowest_card(allowed)
                else:
                    decision = (seat, allowed, np.int64(i), win, win_seat, players, trump, unseen[seat])
                    if policies[seat] == BASIC or n_tricks - k > model_from(seat, i, ctx):  # the model plays as basic
                        card = choose_card(hands, decision, ctx)
                    else:
                        card = play_card(policies[seat], hands, decision, ctx, n_tricks - k, held[seat])
            else:
                card = pick_card(allowed, state)
            if free:
                drop_slot(usage[seat], hands[seat], card, most_used(usage[seat], hands[seat], card))
            hands[seat, card] -= 1
            if hands[seat, card] == 0:
                held[seat] &= ~(np.int64(1) << card)
            if SUIT_OF[card] == trump:
                broken = True
            trick[i] = card
            led, win, win_seat, top_led = trick_after(i, led, win, win_seat, top_led, seat, card, trump)
            if counting and not free:
                note_card(ctx, seat, card, i, led, trump)
            if tracing:
                _note(trace, pos, T_PLAY, seat, card, 0)
        w = win_seat
        won_pts = last_trick if k == n_tricks - 1 else 0
        for i in range(players):
            card = trick[i]
            won_pts += points[card]
            played[card] += 1
            for s in range(players):
                if played[card] + hands[s, card] >= deck_copies[card]:
                    unseen[s] &= ~(np.int64(1) << card)
        seats[S_PTS, w] += won_pts
        seats[S_WON, w] += 1
        if tracing:
            _note(trace, pos, T_TRICK, w, won_pts, 0)
        leader = w
        if free:
            turned = _stock_turn(state, w, turned, policies[w], tables, position, play)
        if need[w] > 0 and _declares(seats, w, need, rules):
            declared = w
        elif free:
            n_stock = _draw_round(state, rules, w, n_stock, turned, tables, position, play)
    dyn[Y_DECLARED] = declared


@njit(cache=True, inline="always")
def _trick_start(rules, tables, position, play):
    """(leader, tricks, face-down stock, stock tricks) as the play starts, and the play's scratch (made
    once per chunk, :class:`PlayWork`) filled: ctx carries trick points and sides to the card
    choice; played counts the copies of each type in finished tricks; unseen[s] the card types of which
    a copy is neither in a finished trick nor in seat s's hand; held[s] seat s's card types
    (``held_mask``); trick the cards of the trick in play. The bidder leads (or seat 0, by the rules);
    the buried cards count for him now."""
    hands, seats = position.hands, position.seats
    ctx, played, unseen, held = play.ctx, play.played, play.unseen, play.held
    points, deck_copies = tables.trick_points, tables.deck_copies
    players, bidder = rules.players, position.dyn[Y_BIDDER]
    for t in range(N_TYPES):
        ctx[C_POINTS + t] = points[t]
    for s in range(players):
        ctx[C_SIDE + s] = seats[S_SIDE, s]
        ctx[C_VOID + s] = 0
    ctx[C_MUST_TRUMP] = rules.void_must_trump
    played[:] = 0
    unseen[:] = 0
    for s in range(players):
        for t in range(N_TYPES):
            if hands[s, t] < deck_copies[t]:
                unseen[s] |= np.int64(1) << t
    play.trick[:] = 0
    if bidder >= 0:
        for t in range(N_TYPES):
            seats[S_PTS, bidder] += position.buried[t] * points[t]  # buried cards count for the bidder
    leader = bidder if (rules.lead == LEAD_BIDDER and bidder >= 0) else 0
    n_tricks = 0
    for t in range(N_TYPES):
        n_tricks += hands[0, t]
    n_stock, stock_tricks = 0, 0
    if rules.stock_play != 0:
        play.usage[:] = 0
        for t in range(N_TYPES):
            n_stock += position.widow[t]
        stock_tricks = (n_stock + 1) // players  # the face-down cards and the turned one
        n_tricks += stock_tricks
    for s in range(players):
        held[s] = held_mask(hands[s])
    return leader, n_tricks, n_stock, stock_tricks


@njit(cache=True, inline="always")
def _draw_round(state, rules, w, n_stock, turned, tables, position, play):
    """After a trick while the stock lasts: each player from the winner ``w`` draws one card from the
    stock (``position.widow``), the last of them the ``turned`` one; returns the face-down cards left
    (``n_stock``, negative once the turned card is gone). Refreshes ``held`` and ``unseen``."""
    hands, usage, stock, trace, pos = position.hands, play.usage, position.widow, position.trace, position.pos
    played, held, unseen = play.played, play.held, play.unseen
    deck_copies, players = tables.deck_copies, rules.players
    for i in range(players):  # the winner draws first; the last card drawn is the turned one
        s = (w + i) % players
        if n_stock > 0:  # face-down cards left
            _draw(hands, usage, s, stock, n_stock, state, trace, pos)
        else:
            _receive(hands, usage, s, turned)
            _note(trace, pos, T_DRAW, s, turned, 1)
        n_stock -= 1
    for s in range(players):
        held[s] = held_mask(hands[s])
        for t in range(N_TYPES):
            if played[t] + hands[s, t] >= deck_copies[t]:
                unseen[s] &= ~(np.int64(1) << t)
    return n_stock


@njit(cache=True, inline="always")
def _score(rules, rec, tables, position):
    """Phase 7, score a played hand (stage STAGE_PLAYED): trick points as counted (``counted``); a side
    keeps its meld (``Y_MELD``) if it saved it (``_saved``), else its dix (``Y_DIX``) where the rules
    keep it; the bidding side makes its bid or is set by it (with no bidder each side scores what it
    took). With a stock the meld is what each side melded during play. A seat that declared itself
    out (``Y_DECLARED``) is marked, and the hand's outcome is DECLARED_OUT. The bidder's burial
    (``position.buried``) counts towards the bid, and towards saving his side's meld unless
    ``buried_saves_meld`` is off."""
    seats, trace, pos, dyn = position.seats, position.trace, position.pos, position.dyn
    players, bidder, bid, declared = rules.players, dyn[Y_BIDDER], dyn[Y_BID], dyn[Y_DECLARED]
    buried_pts = 0
    for t in range(N_TYPES):
        buried_pts += position.buried[t] * tables.trick_points[t]
    meld = (dyn[Y_MELD], dyn[Y_MELD + 1])
    dix = (dyn[Y_DIX], dyn[Y_DIX + 1])
    if declared >= 0:
        seats[S_OUT, declared] = 1
        _note(trace, pos, T_OUT, declared, _line_total(seats, declared, rules), 0)
    for s in range(players):
        seats[S_PTS, s] = counted(seats[S_PTS, s], rules)
    if rules.stock_play != 0:
        meld = _by_side(seats, S_MELD, players)
        rec[F_SIDE_MELD] = meld[1]
        rec[F_OTHER_MELD] = meld[0]
    tricks_pts, tricks_won = _by_side(seats, S_PTS, players), _by_side(seats, S_WON, players)
    rec[F_SIDE_TRICKS] = tricks_pts[1]
    rec[F_OTHER_TRICKS] = tricks_pts[0]
    if declared >= 0:
        rec[F_OUTCOME] = DECLARED_OUT
    own = tricks_pts[1] - (buried_pts if rules.buried_saves_meld == 0 and bidder >= 0 else 0)
    kept = (
        _kept(rules, tricks_won[0], tricks_pts[0], meld[0], dix[0]),
        _kept(rules, tricks_won[1], own, meld[1], dix[1]),
    )
    rec[F_OTHER_SCORE] = kept[0] + tricks_pts[0]
    if bidder < 0:
        rec[F_MADE] = -1
        rec[F_SIDE_SCORE] = kept[1] + tricks_pts[1]
        _note(trace, pos, T_SCORE, rec[F_SIDE_SCORE], rec[F_OTHER_SCORE], -1)
        _score_seats(seats, rec, players, rules, STAGE_PLAYED)
        return
    made = kept[1] + tricks_pts[1] >= bid
    rec[F_MADE] = 1 if made else 0
    if made:
        rec[F_SIDE_SCORE] = kept[1] + tricks_pts[1] + (bid if rules.bid_added != 0 else 0)
    else:
        rec[F_SIDE_SCORE] = -bid + (dix[1] if rules.dix_kept_when_set != 0 else 0)
    _note(trace, pos, T_SCORE, rec[F_SIDE_SCORE], rec[F_OTHER_SCORE], rec[F_MADE])
    _score_seats(seats, rec, players, rules, STAGE_PLAYED)


@njit(cache=True, inline="always")
def _score_no_trump(rules, rec, tables, position, scratch):
    """Score a hand stopped at trump (stage STAGE_UNMELDED): the bidder, holding no marriage to name
    trump with, is set by his bid; the other side scores nothing, or with ``opponents_no_trump`` =
    meld its meld under the suit best for it (counted from the minimum that counts)."""
    seats, totals, side_totals = position.seats, position.totals, scratch.side_totals
    bid = position.dyn[Y_BID]
    rec[F_OUTCOME] = NO_TRUMP_MARRIAGE
    rec[F_TRUMP] = -1
    rec[F_MADE] = 0
    rec[F_SIDE_SCORE] = -bid
    if rules.opponents_no_trump == NO_TRUMP_OPP_MELD:
        side_totals[:] = 0
        for s in range(rules.players):
            if seats[S_SIDE, s] == 0:
                meld_by_trump(position.hands[s], tables.meld_table, tables.meld_flags, totals)
                for t in range(N_SUITS):
                    side_totals[t] += totals[t]
        best = side_totals[0]
        for t in range(1, N_SUITS):
            best = max(best, side_totals[t])
        rec[F_OTHER_SCORE] = best if best >= rules.min_meld_to_count else 0
    _note(position.trace, position.pos, T_SCORE, rec[F_SIDE_SCORE], rec[F_OTHER_SCORE], 0)
    _score_seats(seats, rec, rules.players, rules, STAGE_UNMELDED)


class Position(NamedTuple):
    """The hand as it stands, which every phase reads and writes: the cards where they lie, the seat
    rows, what the phases have decided (``dyn``), the trace, and the meld counts' scratch every phase
    uses. The phases take the parts of :class:`HandWork` they use, not the whole: numba copies a record
    whole wherever it is passed or read, so a small record keeps the hand's compile small."""

    #: uint8[players, 24] and uint8[24]: the hands and the widow (or stock), as copy counts.
    hands: np.ndarray
    widow: np.ndarray
    #: int64[N_SEAT_ROWS, players]: per-seat rows ``S_*`` (``S_SCORE``: what the hand adds to each
    #: seat's score line).
    seats: np.ndarray
    #: int64[N_DYN]: the position record, what the phases have decided so far (slots ``Y_*``).
    dyn: np.ndarray
    #: uint8[24]: the cards the bidder buried (copy counts, which count for him; ``_exchange``).
    buried: np.ndarray
    #: int64[rows, 4]: the trace rows (code, a, b, c), zero rows for a hand not traced; int64[1]: the
    #: rows written.
    trace: np.ndarray
    pos: np.ndarray
    #: int64[4]: ``meld_by_trump``'s output, reused by every phase.
    totals: np.ndarray


class HandDeal(NamedTuple):
    """What the deal and the auction read: the deck, the deal asked about and the condition every deal
    meets, and the seats' bidding limits."""

    #: uint8[deck_size]: the deck the hands are dealt from, shuffled in place.
    cards: np.ndarray
    #: The deal asked about (``pinochle advise``): int64[2 + more] = [seat, bid, more...]: seat -1 for
    #: none; a bid > 0 sets a contract at that bid, and ``more`` is then empty or [trump, bidder,
    #: pass..., return..., burial...]: the trump the bidder names (a suit, one he may name: the hand
    #: kernel does not check it), then the bidder's seat (``seat`` or, ``seat`` being his partner, the
    #: seat across), then the cards (card types, ``exchange.pass_cards`` of them) the partner passes
    #: him, then as many he returns, then the cards he buries after taking the widow (as many as it
    #: holds); each group may be left out at the end, or given as -1s for the player's own choice; the
    #: caller makes sure each seat holds what it gives, by ``given`` or by ``accept``. A bid of 0
    #: lets the auction decide after the given calls ``more`` (the auction so far, a bid or 0 for a
    #: pass each). ``given``: uint8[24] the cards that seat holds in every deal, while ``cards`` holds
    #: the rest of the deck; or uint8[48], that seat's cards and then the widow's (``cards`` holding
    #: neither; a condition does not read the widow given).
    contract: np.ndarray
    given: np.ndarray
    #: int64[tests, ROW]: the condition every deal meets (``--given``, :mod:`simcore.kernels.condition`;
    #: zero rows for none).
    accept: np.ndarray
    #: int64[players]: the seats' bidding limits (``_auction``).
    limits: np.ndarray


class HandScratch(NamedTuple):
    """The exchange's scratch arrays, and the other side's meld by trump on a hand stopped at trump."""

    #: uint8[24] each: the partner's pass and the bidder's return, a seat's discards before drawing
    #: (``_exchange``).
    fed: np.ndarray
    back: np.ndarray
    thrown: np.ndarray
    #: int64[cards] and float64[cards] (cards: the most a widow holds): the widow's cards in the bidder's
    #: order and their values (``_share_widow``).
    order: np.ndarray
    value: np.ndarray
    #: int64[4]: the other side's meld by trump (``_score_no_trump``).
    side_totals: np.ndarray


class PlayWork(NamedTuple):
    """The play's arrays (``_tricks``), reset by ``_trick_start``."""

    #: uint8[players, 24, MAX_COPIES] and int64[5, 2]: the stock play's copy usage and copy choice.
    usage: np.ndarray
    chosen: np.ndarray
    #: int64[CTX_SIZE] trick points and sides for the card choice, int64[24] copies played,
    #: int64[players] each seat's unseen and held card types, the trick.
    ctx: np.ndarray
    played: np.ndarray
    unseen: np.ndarray
    held: np.ndarray
    trick: np.ndarray


class HandWork(NamedTuple):
    """What :func:`play_hand` works in, made once per chunk (:func:`hand_work`), not per hand: an
    allocation costs about as much as a trick (a hand would make about twenty)."""

    #: The chunk's own copies of the rules' arrays: every call passing a shared array updates its
    #: reference count, and two threads doing that on one array fight over its cache line.
    tables: Tables
    deal: HandDeal
    position: Position
    scratch: HandScratch
    play: PlayWork


@njit(cache=True)
def hand_work(tables, players, trace_rows):
    """A fresh :class:`HandWork` for ``players`` seats from ``tables`` (a variant's
    :class:`simcore.variants.record.Tables`), the deck in its original order, with room for
    ``trace_rows`` trace rows. Local arrays: a global one would be read-only."""
    own = Tables(
        tables.deck.copy(),
        tables.deck_copies.copy(),
        tables.meld_table.copy(),
        tables.meld_flags.copy(),
        tables.trick_points.copy(),
        tables.check_melds.copy(),
        tables.check_contracts.copy(),
    )
    deal = HandDeal(
        tables.deck.copy(),
        np.array([-1, 0], dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.uint8),
        NO_CONDITION.copy(),
        np.zeros(players, dtype=np.int64),
    )
    position = Position(
        np.zeros((players, N_TYPES), dtype=np.uint8),
        np.zeros(N_TYPES, dtype=np.uint8),
        np.zeros((N_SEAT_ROWS, players), dtype=np.int64),
        np.zeros(N_DYN, dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.uint8),
        np.zeros((trace_rows, 4), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(N_SUITS, dtype=np.int64),
    )
    scratch = HandScratch(
        np.zeros(N_TYPES, dtype=np.uint8),
        np.zeros(N_TYPES, dtype=np.uint8),
        np.zeros(N_TYPES, dtype=np.uint8),
        np.zeros(N_TYPES * MAX_COPIES, dtype=np.int64),
        np.zeros(N_TYPES * MAX_COPIES, dtype=np.float64),
        np.zeros(N_SUITS, dtype=np.int64),
    )
    play = PlayWork(
        np.zeros((players, N_TYPES, MAX_COPIES), dtype=np.uint8),
        np.zeros((5, 2), dtype=np.int64),
        np.zeros(CTX_SIZE, dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
    )
    return HandWork(own, deal, position, scratch, play)


class Seating(NamedTuple):
    """Who plays each seat of a run, as the chunk kernels take it (seats numbered as in
    :func:`play_hand`)."""

    #: int64[players]: each seat's policy code (:mod:`simcore.kernels.policies`).
    policies: np.ndarray
    #: float64[players]: each heuristic seat's bidding margin (see :func:`play_hand`).
    margins: np.ndarray


class Deal(NamedTuple):
    """How a run's hands are dealt (:func:`simcore.kernels.hand_drivers.free_deal` for hands as the
    rules deal them). With ``contract`` = [seat, bid, more...], seat >= 0, that seat holds ``given`` in
    every deal, ``rest`` being the deck without ``given``; with a bid > 0 it is the bidder at ``bid``
    without an auction (naming the trump ``more[0]`` where given; ``more[1]``, where given, is the
    bidder's seat, ``seat`` or his partner; then the partner's pass, the bidder's return and his burial
    where given, see :class:`HandDeal`), with bid 0 the auction decides from
    the given calls ``more`` on (see
    :func:`_deal_and_redeal`). With seat -1, ``rest`` is the deck (see :class:`HandWork`)."""

    #: uint8[cards]: the card types dealt.
    rest: np.ndarray
    #: uint8[24]: the set contract's seat's cards, as copy counts; or uint8[48]: and then the widow's
    #: (see :class:`HandDeal`).
    given: np.ndarray
    #: int64[2 + more]: [seat, bid, more...] (see :class:`HandDeal`); seat -1 for none.
    contract: np.ndarray
    #: int64[tests, ROW]: the condition every deal meets (zero rows: every deal does).
    accept: np.ndarray


@njit(cache=True, nogil=True)
def hands_chunk(state, key, first, tables, rules, seating, deal, out):
    """Play ``out.shape[0]`` hands under ``tables`` and ``rules`` (a variant's ``kernel_rules.tables`` and
    ``.hand``) into ``out`` (int64[hands, N_FIELDS]), the seats played as ``seating`` says
    (:class:`Seating`) and the cards dealt as ``deal`` says (:class:`Deal`): one after another from the
    stream ``state``, or with a ``key`` (uint64[4]; empty for none) hands ``first .. first + hands - 1``
    of the run keyed ``key``, hand i dealt from :func:`simcore.kernels.rng.hand_state` (key, i, 0) and
    the deck in its original order, so two rule sets see the same cards in hand i whatever the other
    hands drew (``pinochle compare --hands``). One kernel for both, so the hand is compiled once for
    them. Where ``out`` has more than N_FIELDS columns, column N_FIELDS + s receives what the hand adds
    to seat s's score line."""
    own = hand_work(tables, rules.players, 0)
    rest = deal.rest
    dealt = HandDeal(rest.copy(), deal.contract.copy(), deal.given.copy(), deal.accept.copy(), own.deal.limits)
    work = HandWork(own.tables, dealt, own.position, own.scratch, own.play)
    # private copies, as the tables
    policies, margins, key = seating.policies.copy(), seating.margins.copy(), key.copy()
    keyed = key.shape[0] > 0
    no_need = np.zeros(rules.players, dtype=np.int64)
    for i in range(out.shape[0]):
        if keyed:
            dealt.cards[:] = rest
            hand_state(key, first + i, 0, state)
        play_hand(state, rules, policies, margins, no_need, out[i], work)
        for p in range(min(rules.players, out.shape[1] - N_FIELDS)):
            out[i, N_FIELDS + p] = own.position.seats[S_SCORE, p]
