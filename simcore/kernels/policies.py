"""Policies (numba): the decisions of a hand, for the ``random``, ``basic`` and ``heuristic`` players.

``random`` takes a uniformly random legal action at every decision. ``basic`` plays like a
competent club player, with a few weights (below) tuned by simulation:

* bidding: value = best-trump meld + partner's expected meld and pass + a share of the trick points
  from aces, trump length and voids; bid up to that value and no further;
* trump: the suit with the most meld plus length;
* passing: the partner feeds trump (high first) and aces; the bidder returns the cards whose loss costs
  the least meld, plain low cards first; a widow discard the same way;
* play: cash boss cards, draw trump when long in it, feed counters onto a partner's sure winner, win as
  cheaply as possible, and throw the cheapest card when the trick is lost.

``heuristic`` takes every decision but the card played as ``basic`` does; its cards are
:mod:`simcore.kernels.learned`'s (see :data:`POLICY_NAMES`).

Seats are numbered clockwise from 0 (the dealer's left); cards are card types (``suit * 6 + rank``).
:func:`parse_policies` reads a ``--policy`` list into the per-seat codes the kernels take.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.cards import ACE, KING, N_RANKS, N_SUITS, N_TYPES, NINE, QUEEN
from simcore.kernels.leaf import inline_leaf, leaf
from simcore.kernels.meld import meld_by_trump, meld_free, meld_under
from simcore.kernels.play import SUIT_BITS, SUIT_OF, beats, cards_above, held_mask, lowest_card, pick_card
from simcore.kernels.rng import bounded
from simcore.variants.layout import TEAMS_ACROSS

RANDOM, BASIC, HEURISTIC = 0, 1, 2
#: ``heuristic``, the default, plays its cards by :mod:`simcore.kernels.learned` (a model fitted on
#: double-dummy values, which plays ``basic``'s card in the early tricks) and takes every other decision
#: (bids, trump, passing, meld) as ``basic`` does: a kernel asks ``policy != RANDOM`` where either's
#: choice is meant. ``basic`` is the hand-written player, kept to measure the model against.
POLICY_NAMES = ("random", "basic", "heuristic")


class PolicyError(ValueError):
    """A policy list that names an unknown policy or has the wrong length."""


def parse_policies(text: str | None, players: int, label: str = "--policy") -> np.ndarray:
    """int64[players] policy codes from ``"heuristic"`` or ``"heuristic,random,heuristic,random"``;
    ``label`` names the input in messages."""
    names = ["heuristic"] if not text else [n.strip() for n in text.split(",")]
    for n in names:
        if n not in POLICY_NAMES:
            raise PolicyError(f"{label}: {n!r} is not a policy; choose from {', '.join(POLICY_NAMES)}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise PolicyError(
            f"{label}: {len(names)} policies given for {players} seats; give one name for every seat, or one for all"
        )
    return np.array([POLICY_NAMES.index(n) for n in names], dtype=np.int64)


# Heuristic weights, as fractions of the hand's trick total; see docs/policies.md for what was tried.
W_TRICK_BASE = 0.45  # share of the trick points a bidding side expects with an average hand
W_TRICK_PER_ACE = 0.035  # each ace held
W_TRICK_PER_TRUMP = 0.03  # each trump beyond a quarter of the hand
W_PARTNER_MELD = 1.0  # a partner's average meld, counted on when bidding ...
W_PASS_CARD = 0.33  # ... plus this share of it again for each card the partner passes
W_SAFETY = 0.08  # shaved off the value before bidding


@leaf
def suit_count(hand, s):
    n = 0
    for r in range(N_RANKS):
        n += hand[s * N_RANKS + r]
    return n


@leaf
def has_marriage(hand, s):
    return hand[s * N_RANKS + KING] > 0 and hand[s * N_RANKS + QUEEN] > 0


@leaf
def any_marriage(hand):
    for s in range(N_SUITS):
        if has_marriage(hand, s):
            return True
    return False


@njit(cache=True, inline="always")
def hand_value(hand, table, flags, totals, trick_total, partner_meld, pass_cards, hand_size):
    """Heuristic worth of a hand if its holder names trump: (points, best trump). ``partner_meld`` is
    a partner's average meld (0 when playing alone), ``pass_cards`` the cards the partner passes."""
    best = meld_by_trump(hand, table, flags, totals)
    aces = 0
    for s in range(N_SUITS):
        aces += hand[s * N_RANKS + ACE]
    extra_trump = suit_count(hand, best) - hand_size / 4.0
    share = W_TRICK_BASE + W_TRICK_PER_ACE * aces + W_TRICK_PER_TRUMP * max(extra_trump, 0.0)
    share = min(share, 1.0)
    partner = partner_meld * (W_PARTNER_MELD + W_PASS_CARD * pass_cards)
    return totals[best] + partner + share * trick_total - W_SAFETY * trick_total, best


@leaf
def goes_alone(hand, trump, bid, policy, table, flags, totals, state):
    """Whether a bidder who may play alone does (``teams.may_play_alone``). Heuristic: when his own
    meld under trump already covers the bid, so a partner would only share the score; random: evenly."""
    if policy != RANDOM:
        return meld_under(hand, trump, table, flags) >= bid
    return bounded(state, 2) == 1


@leaf
def swaps_dix(hands, seat, turned, trump, policy, rules, tables, state):
    """Whether ``seat``, holding a dix, gives it to the dealer (seat ``rules.players - 1``) for the card
    ``turned`` for trump (``exchange.dix_for_turned``). Heuristic: always when the dealer is an opponent
    (a nine for a higher trump, taken from the other side, and the dix still scores its original
    holder); with the dealer his partner (partners across, ``rules.teams``) the card stays in the side,
    so only when the two hands' meld under the ``tables``' meld rises. Random: evenly."""
    if policy == RANDOM:
        return bounded(state, 2) == 1
    dealer = rules.players - 1
    if not (rules.teams == TEAMS_ACROSS and (dealer - seat) % 2 == 0):
        return True
    table, flags = tables.meld_table, tables.meld_flags
    dix = trump * N_RANKS + NINE
    before = _pair_meld(hands, seat, dealer, trump, table, flags)
    exchange_dix(hands, seat, dealer, dix, turned, 1)  # try it, then undo it
    after = _pair_meld(hands, seat, dealer, trump, table, flags)
    exchange_dix(hands, seat, dealer, dix, turned, -1)
    return after > before


@leaf
def exchange_dix(hands, seat, dealer, dix, turned, sign):
    """``seat`` gives the ``dix`` to the dealer for the ``turned`` card (``sign`` -1: undoes it)."""
    hands[seat, dix] -= sign
    hands[seat, turned] += sign
    hands[dealer, turned] -= sign
    hands[dealer, dix] += sign


@leaf
def _pair_meld(hands, a, b, trump, table, flags):
    """The meld of hands ``a`` and ``b`` under ``trump``, together."""
    return meld_under(hands[a], trump, table, flags) + meld_under(hands[b], trump, table, flags)


@leaf
def call_card(hand, trump, policy, deck_copies, state):
    """The card type a bidder names to find his partner (``teams.kind = "called_card"``): one he does
    not hold every copy of. Heuristic: the highest trump he can name (the ace, else the ten, ...),
    which makes the partner strong in trump; random: any such card, evenly."""
    if policy != RANDOM:
        for r in range(N_RANKS):
            t = trump * N_RANKS + r
            if hand[t] < deck_copies[t]:
                return t
    n = 0
    for t in range(N_TYPES):
        if hand[t] < deck_copies[t]:
            n += 1
    k = bounded(state, n)
    for t in range(N_TYPES):
        if hand[t] < deck_copies[t]:
            if k == 0:
                return t
            k -= 1
    return -1


@njit(cache=True, inline="always")
def choose_trump(hand, policy, need_marriage, table, flags, totals, state):
    """Trump suit the bidder names; -1 when ``need_marriage`` and he holds no marriage."""
    allowed = 0
    for s in range(N_SUITS):
        if not need_marriage or has_marriage(hand, s):
            allowed |= 1 << s
    if allowed == 0:
        return -1
    if policy == RANDOM:
        n = 0
        for s in range(N_SUITS):
            n += (allowed >> s) & 1
        k = bounded(state, n)
        for s in range(N_SUITS):
            if (allowed >> s) & 1:
                if k == 0:
                    return s
                k -= 1
    meld_by_trump(hand, table, flags, totals)
    unit = table[0, 1]
    best, best_score = -1, -1e18
    for s in range(N_SUITS):
        if (allowed >> s) & 1:
            score = totals[s] + 0.05 * unit * suit_count(hand, s) * 4
            if score > best_score:
                best, best_score = s, score
    return best


@leaf
def _card_keep_value(hand, t, trump, before, table, flags):
    """How much the holder loses by giving card ``t`` away: meld lost under ``trump`` (``before`` is
    the hand's meld with it) plus a small premium for trumps, aces and high cards."""
    hand[t] -= 1
    after = meld_under(hand, trump, table, flags)
    hand[t] += 1
    return (before - after) + _keep_premium(t, trump, table[0, 1])


@leaf
def _keep_premium(t, trump, unit):
    """The part of card ``t``'s keep value that is not meld: a little per rank, more for a trump, in
    ``unit``s of the meld table's ``table[0, 1]`` (a scalar: an array argument costs reference counting
    on every call)."""
    bonus = (6 - t % N_RANKS) * 0.01 * unit
    if t // N_RANKS == trump:
        bonus += 0.2 * unit
    return bonus


@leaf
def _cheapest_to_lose(hand, trump, table, flags):
    """The card of ``hand`` with the least keep value (lowest type on ties).

    Candidates are tried in order of their premium (plain suits before trump, low ranks first):
    the meld lost is never negative, so once the premium alone exceeds the best value found no later
    card can beat it, and most hands stop after one or two meld evaluations instead of one per card.
    A card no meld counts (``meld_free``: a plain ten or nine) loses none, so it takes no evaluation,
    and the hand's meld is evaluated only once a card needs it."""
    before, evaluated = np.int64(0), False  # the hand's meld under trump, once needed
    unit = table[0, 1]
    best_t, best = -1, 1e18
    for is_trump in range(2):
        for r in range(N_RANKS - 1, -1, -1):
            for s in range(N_SUITS):
                c = s * N_RANKS + r
                if (s == trump) != (is_trump == 1) or hand[c] == 0:
                    continue
                premium = _keep_premium(c, trump, unit)
                if premium > best:
                    return best_t
                if premium == best and c > best_t:  # at best a tie, and ties go to the lower type
                    continue
                if not meld_free(c, trump):  # as _card_keep_value, without its call's reference counts
                    if not evaluated:
                        before, evaluated = meld_under(hand, trump, table, flags), True
                    hand[c] -= 1
                    lost = before - meld_under(hand, trump, table, flags)
                    hand[c] += 1
                else:  # it loses no meld
                    lost = np.int64(0)
                v = lost + premium
                if v < best or (v == best and c < best_t):
                    best_t, best = c, v
    return best_t


@leaf
def give_cards(hand, n, trump, policy, feeding, tables, state, out):
    """Take ``n`` cards out of ``hand`` into ``out`` (copy counts, added to).

    ``feeding``: the partner passing to the bidder gives his best trumps and aces; otherwise (bidder
    returning, or burying) the cards whose loss costs least, meld counted by the ``tables``' meld."""
    table, flags = tables.meld_table, tables.meld_flags
    for _ in range(n):
        if policy == RANDOM:
            t = pick_card(held_mask(hand), state)
        elif feeding:
            t = -1
            for r in range(N_RANKS):  # trump high first
                if hand[trump * N_RANKS + r] > 0:
                    t = trump * N_RANKS + r
                    break
            if t < 0:
                for s in range(N_SUITS):
                    if hand[s * N_RANKS + ACE] > 0:
                        t = s * N_RANKS + ACE
                        break
            if t < 0:
                before = meld_under(hand, trump, table, flags)
                best = 1e18
                for c in range(N_TYPES):
                    if hand[c] > 0:
                        v = -_card_keep_value(hand, c, trump, before, table, flags)
                        if v < best:
                            best, t = v, c
        else:
            t = _cheapest_to_lose(hand, trump, table, flags)
        hand[t] -= 1
        out[t] += 1


@leaf
def draw_discards(hand, most, trump, policy, tables, state, out):
    """Take the cards a player throws away before drawing (``exchange.draw``) out of ``hand`` into
    ``out``, at most ``most``. Heuristic: every card that adds no meld under ``trump`` and is neither a
    trump nor an ace, cheapest first; random: a uniformly random number (0 to ``most``) of cards, each
    of a uniformly random type among those held. Meld is counted by the ``tables``' meld."""
    if policy == RANDOM:
        for _ in range(bounded(state, most + 1)):
            t = pick_card(held_mask(hand), state)
            hand[t] -= 1
            out[t] += 1
        return
    table, flags = tables.meld_table, tables.meld_flags
    before = meld_under(hand, trump, table, flags)  # unchanged by every card thrown: one that lowered it is kept
    for _ in range(most):
        t = _cheapest_to_lose(hand, trump, table, flags)
        if t < 0 or t // N_RANKS == trump or t % N_RANKS == ACE:
            return
        hand[t] -= 1
        if meld_under(hand, trump, table, flags) < before:  # it was in a meld: keep it (and every dearer card)
            hand[t] += 1
            return
        out[t] += 1


@njit(cache=True)
def widow_order(hand, widow, trump, policy, tables, state):
    """int64[cards in the widow]: its card types (copies repeated), best first for the bidder holding
    ``hand`` (:func:`widow_order_into`, in arrays of its own)."""
    n = 0
    for t in range(N_TYPES):
        n += widow[t]
    order = np.empty(n, dtype=np.int64)
    widow_order_into(hand, widow, trump, policy, tables, state, order, np.empty(n, dtype=np.float64))
    return order


@leaf
def widow_order_into(hand, widow, trump, policy, tables, state, order, value):
    """Write the widow's card types (copies repeated) into ``order[:n]``, best first for the bidder
    holding ``hand``, and return n, the widow's cards; ``value`` (float64, at least n) is scratch.
    ``random``: a uniformly random order; ``heuristic``: by what each card is worth in his hand under
    ``trump`` (the meld it adds under the ``tables``' meld, plus the keep premium), ties in card order."""
    n = 0
    for t in range(N_TYPES):
        for _ in range(widow[t]):
            order[n] = t
            n += 1
    if policy == RANDOM:
        for i in range(n - 1, 0, -1):
            j = bounded(state, i + 1)
            order[i], order[j] = order[j], order[i]
        return n
    table, flags = tables.meld_table, tables.meld_flags
    for i in range(n):
        t = order[i]
        hand[t] += 1
        value[i] = _card_keep_value(hand, t, trump, meld_under(hand, trump, table, flags), table, flags)
        hand[t] -= 1
    for i in range(1, n):  # insertion sort, best first, stable
        j = i
        while j > 0 and value[j] > value[j - 1]:
            value[j], value[j - 1] = value[j - 1], value[j]
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    return n


#: Layout of the play context array (int64), in one array because every array argument of a call
#: costs reference counting (48 calls a hand): trick points per card type, side per seat (1: the
#: bidding side), the points of the cards in the trick so far and the suit led, whether a seat void in
#: the suit led must trump (the rules' ``play.void_must_trump``), and the suits each seat has shown void
#: in (bit s: suit s), kept by :func:`simcore.kernels.card_features.note_card`.
C_POINTS, C_SIDE, C_TRICK, C_LED, C_MUST_TRUMP, C_VOID = 0, 24, 32, 33, 34, 35
CTX_SIZE = C_VOID + 8


#: Bits of the four suits' card types of rank 0 (shifted by r: rank r's).
RANK_BITS = np.int64(sum(1 << (N_RANKS * s) for s in range(N_SUITS)))


@leaf
def suit_lengths(hands, seat):
    """Cards ``seat`` holds in each suit, as a tuple (no allocation)."""
    a = b = c = d = 0
    for r in range(N_RANKS):
        a += hands[seat, r]
        b += hands[seat, N_RANKS + r]
        c += hands[seat, 2 * N_RANKS + r]
        d += hands[seat, 3 * N_RANKS + r]
    return (a, b, c, d)


def _heuristic_card(hands, decision, ctx):
    """The card the heuristic plays at ``decision``, the tuple (seat, legal, n, win, win_seat, players,
    trump, unseen): ``seat`` plays from the legal cards ``legal`` (a bitmask) as card ``n`` (0 = the
    lead) of a trick that ``win``, played by ``win_seat``, is winning so far, ``players`` seats at the
    table and ``trump`` the trump suit. ``unseen`` is the bitmask of card types of which a copy is
    neither in earlier tricks nor in ``seat``'s hand; ``ctx`` holds trick points and sides (layout
    ``C_*``).

    A card is a boss when no higher card of its suit is unseen."""
    seat, legal, n, win, win_seat, players, trump, unseen = decision
    if n == 0:
        length = suit_lengths(hands, seat)
        # lead a boss card, aces first, plain suits before trump
        for r in range(N_RANKS):
            for s in range(N_SUITS):
                t = s * N_RANKS + r
                if (legal >> t) & 1 and s != trump and unseen & cards_above(t) == 0:
                    return t
        if length[trump] * 2 >= length[0] + length[1] + length[2] + length[3]:
            trumps = legal & SUIT_BITS[trump]
            if trumps != 0:
                return lowest_card(trumps)
        # else the lowest card of the longest plain suit, trump last
        best_t, best_key = -1, -1e18
        m = legal
        while m != 0:
            t = lowest_card(m)
            m &= m - 1
            s = t // N_RANKS
            key = length[s] * 10 + t % N_RANKS - (1000 if s == trump else 0) - ctx[C_POINTS + t]
            if key > best_key:
                best_t, best_key = t, key
        return best_t
    partner_winning = ctx[C_SIDE + win_seat] == ctx[C_SIDE + seat]
    partner_safe = partner_winning
    if partner_winning and n < players - 1:  # a later player may still overtake partner
        partner_safe = unseen & cards_above(win) == 0 and (SUIT_OF[win] == trump or unseen & SUIT_BITS[trump] == 0)
    best_t, best_key = -1, -1e18
    m = legal
    if partner_safe:
        # feed the most points that do not overtake partner
        while m != 0:
            t = lowest_card(m)
            m &= m - 1
            key = ctx[C_POINTS + t] * 100 - (50 if beats(t, win, trump) else 0) - (6 - t % N_RANKS)
            if key > best_key:
                best_t, best_key = t, key
        return best_t
    if not partner_winning:
        # win as cheaply as possible
        while m != 0:
            t = lowest_card(m)
            m &= m - 1
            if beats(t, win, trump):
                key = -ctx[C_POINTS + t] * 100 - (6 - t % N_RANKS) - (200 if t // N_RANKS == trump else 0)
                if key > best_key:
                    best_t, best_key = t, key
        if best_t >= 0:
            return best_t
    # else throw the cheapest card
    m = legal
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        key = -ctx[C_POINTS + t] * 100 + t % N_RANKS - (50 if t // N_RANKS == trump else 0)
        if key > best_key:
            best_t, best_key = t, key
    return best_t


#: The heuristic's card choice (:func:`_heuristic_card`), a leaf: the hand kernel calls it per card.
choose_card = leaf(_heuristic_card)
#: The same choice inlined into its numba caller, for a caller that makes it beside other work per
#: decision (the learned player): passing the hand array, the decision and the context in a call costs
#: more instructions than LLVM saves by sharing one compiled copy.
choose_card_inlined = inline_leaf(_heuristic_card)
