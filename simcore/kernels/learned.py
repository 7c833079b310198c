"""The card play of the ``heuristic`` player (numba), learned: each legal card scored by a linear function
of its :mod:`~simcore.kernels.card_features`, the best score played.

The weights (:mod:`simcore.kernels.learned_weights`) were fitted on double-dummy values of every legal
card at decisions of hands played by ``basic`` (``pinochle dd-data``, ``analyses/fit_learned.py``); one
row per :func:`decision_group`. The model only ranks the legal cards the kernel gives it, so every duty of
the rules is kept. Each group plays its weights from a number of tricks left (``MODEL_FROM``, chosen by
duels; the data cover the last six tricks); before them it plays ``basic``'s card (``choose_card``, the
"heuristic" feature). :func:`play_card` is the card choice of every non-random policy; the hand kernel
calls it for ``heuristic`` seats in the model's tricks and ``basic``'s ``choose_card`` directly for the
others.
"""

from __future__ import annotations

import numpy as np

from simcore.cards import ACE, KING, N_RANKS, NINE
from simcore.kernels.card_features import FEATURE_BOUNDS, N_FEATURES, PER_RANK_STEP, PER_TYPE
from simcore.kernels.leaf import inline_leaf, leaf
from simcore.kernels.learned_weights import MODEL_FROM, WEIGHTS
from simcore.kernels.play import SUIT_BITS, SUIT_OF, beats, cards_above, lowest_card, popcount
from simcore.kernels.policies import (
    C_LED,
    C_POINTS,
    C_SIDE,
    C_TRICK,
    C_VOID,
    HEURISTIC,
    choose_card_inlined,
    suit_lengths,
)

if WEIGHTS.shape[1] != N_FEATURES:
    raise ImportError(f"learned_weights: {WEIGHTS.shape[1]} weights a group for {N_FEATURES} features")


@leaf
def decision_group(seat, n, ctx):
    """The row of the weights for ``seat`` playing card ``n`` of a trick (0: the lead; the fourth card
    and later share a row): 2 * min(n, 3), plus 1 for a defender (not of the bidding side), plus 8 where
    the cards' trick points are graded (an ace counts more than a king, as 11-10-4-3-2) rather than
    equal counters (A, 10, K alike, at 1 point or at 10)."""
    graded = ctx[C_POINTS + ACE] != ctx[C_POINTS + KING]
    return 2 * min(n, 3) + (0 if ctx[C_SIDE + seat] == 1 else 1) + (8 if graded else 0)


@leaf
def model_from(seat, n, ctx):
    """The tricks left from which the model chooses ``seat``'s card ``n`` of a trick (0: the lead), its
    group's :data:`PLAYS_FROM`: with more cards held the ``heuristic`` player plays ``basic``'s card."""
    return PLAYS_FROM[decision_group(seat, n, ctx)]


def heuristic_decides(weights: np.ndarray) -> np.ndarray:
    """bool[groups]: the groups whose heuristic weight outweighs every other term's largest possible
    difference between two cards (|weight| times the feature's range, :data:`FEATURE_BOUNDS`), so that
    the heuristic's card scores highest at every decision of the group and nothing need be computed."""
    return weights[:, 0] > np.abs(weights[:, 1:]) @ np.asarray(FEATURE_BOUNDS[1:])


#: Per group: the tricks left from which its weights choose the card (``MODEL_FROM``), 0 where the
#: heuristic's card wins whatever the other features say (see :func:`heuristic_decides`).
PLAYS_FROM = tuple(0 if decides else int(f) for f, decides in zip(MODEL_FROM, heuristic_decides(WEIGHTS)))
#: Per group: whether the heuristic's card is one of its features (a weight other than 0).
HEURISTIC_TERMS = WEIGHTS[:, 0] != 0
#: Per group: whether any trump-only feature of the lead (trump, trump_trumps_out, trump_length,
#: trump_late) weighs; a card of the decision pays for them only then.
TRUMP_TERMS = (WEIGHTS[:, [3, 7, 8, 28]] != 0).any(axis=1)
#: The rank-0 bits of suits 0 and 2 (shifted by r: rank r's; by 6 more: suits 1 and 3).
PAIR_BITS = np.int64(1 | 1 << (2 * N_RANKS))


@inline_leaf
def card_score(t, hands, decision, ctx, view, w):
    """w . :func:`~simcore.kernels.card_features.card_features` of card ``t`` (``w`` a row of the
    weights) less the terms every legal card of the decision shares, summed without building the
    feature tuple: the features that are 0 for the card add nothing, products with a common factor
    share it. Where the legal cards are of one suit, the features of the suit (its length, its unseen
    cards and points, a partner's void, the trump and ruff features) are the same for every card and
    are left out: they move every score alike and so cannot change which card scores highest.
    ``view`` is :func:`decision_context`'s."""
    seat, _, n, win, _, _, trump, unseen = decision
    (
        held_bits,
        lengths,
        suit_points,
        opp_voids,
        partner_voids,
        sure_trumps,
        trumps_unseen,
        per_unit,
        per_card,
        heuristic,
        trick_pts,
        partner_winning,
        partner_safe,
        last_place,
        mixed,
        trump_terms,
    ) = view
    s = SUIT_OF[t]
    above = cards_above(t)
    rank = (NINE - (t - s * N_RANKS)) * PER_RANK_STEP
    master = unseen & above == 0
    is_trump = s == trump
    x = rank * w[2]
    pts_weight = w[1]
    if t == heuristic:
        x += w[0]
    if master:
        x += w[4]
        pts_weight += w[6]
        if is_trump or sure_trumps:
            x += w[5]
    if held_bits & SUIT_BITS[s] & ~((np.int64(2) << t) - 1) == 0:
        x += w[12]
    if hands[seat, t] > 1:
        x += w[13]
    if held_bits & above == 0:
        x += w[26]
    if (opp_voids >> s) & 1:
        pts_weight += w[15]
        if mixed:
            x += w[14]
    if mixed:
        in_suit = (lengths >> (8 * s)) & 255
        x += in_suit * per_card * w[9] + popcount(unseen & SUIT_BITS[s]) * PER_TYPE * w[10]
        x += ((suit_points >> (8 * s)) & 255) * per_unit * PER_TYPE * w[27]
        if in_suit == 1:
            x += w[11]
        if (partner_voids >> s) & 1:
            x += w[16]
        if is_trump:
            if trump_terms:
                trumps = (lengths >> (8 * trump)) & 255
                x += w[3] + trumps_unseen * PER_TYPE * w[7] + trumps * per_card * w[8] + per_card * w[28]
            if n > 0 and ctx[C_LED] != trump:
                x += w[25]
    if n > 0:
        if beats(t, win, trump):
            x += w[17] + trick_pts * w[19] + rank * w[29]
            pts_weight += w[20]
            if last_place or (master and (is_trump or sure_trumps)):
                x += w[18]
            if partner_winning:
                x += w[24]
        else:
            pts_weight += w[21]
        if partner_winning:
            pts_weight += w[22]
            if partner_safe:
                pts_weight += w[23]
    return x + ctx[C_POINTS + t] * per_unit * pts_weight


@inline_leaf
def decision_context(hands, decision, ctx, held, held_bits, heuristic, trump_terms):
    """What every card of one decision shares, for :func:`card_score`: the seat's held types
    (``held_bits``, the kernel's bitmask), suit lengths and the trick points of each suit's unseen
    types (8 bits a suit; only when the legal cards are of more than one suit), the
    suits an opponent and a partner has shown void in, whether a master cannot be trumped (no trump
    unseen, or every opponent void in trump), the trumps unseen, the reciprocals of the points unit
    and of the cards held (``held``), the heuristic's card, the trick's points so far (in units),
    whether a partner is winning the trick, surely, whether the seat plays last to it, whether the
    legal cards are of more than one suit, and ``trump_terms``."""
    seat, legal, n, win, win_seat, players, trump, unseen = decision
    lengths, suit_points = np.int64(0), np.int64(0)
    mixed = legal & ~SUIT_BITS[SUIT_OF[lowest_card(legal)]] != 0
    if mixed:
        a, b, c, d = suit_lengths(hands, seat)
        lengths = np.int64(a) | np.int64(b) << 8 | np.int64(c) << 16 | np.int64(d) << 24
        # trick points go by rank: one product per rank adds it to a pair of suits at once (suits 0
        # and 2, then 1 and 3, 12 bits apart), then the sums are packed 8 bits a suit
        even, odd = np.int64(0), np.int64(0)
        for r in range(N_RANKS):
            even += ((unseen >> r) & PAIR_BITS) * ctx[C_POINTS + r]
            odd += ((unseen >> (N_RANKS + r)) & PAIR_BITS) * ctx[C_POINTS + r]
        suit_points = (even & 255) | (odd & 255) << 8 | ((even >> 12) & 255) << 16 | ((odd >> 12) & 255) << 24
    opp_voids, partner_voids, trumpless = 0, 0, True
    mine = ctx[C_SIDE + seat]
    for o in range(players):
        if o != seat:
            if ctx[C_SIDE + o] == mine:
                partner_voids |= ctx[C_VOID + o]
            else:
                opp_voids |= ctx[C_VOID + o]
                trumpless = trumpless and (ctx[C_VOID + o] >> trump) & 1 == 1
    trumps_unseen = popcount(unseen & SUIT_BITS[trump])
    last_place = n == players - 1
    partner_winning = n > 0 and ctx[C_SIDE + win_seat] == mine
    partner_safe = partner_winning and (
        last_place or (unseen & cards_above(win) == 0 and (SUIT_OF[win] == trump or unseen & SUIT_BITS[trump] == 0))
    )
    unit = max(ctx[C_POINTS], 1)  # an ace's points: the dearest card's
    return (
        held_bits,
        lengths,
        suit_points,
        opp_voids,
        partner_voids,
        trumps_unseen == 0 or trumpless,
        trumps_unseen,
        1.0 / unit,
        1.0 / max(held, 1),
        heuristic,
        ctx[C_TRICK] / unit,
        partner_winning,
        partner_safe,
        last_place,
        mixed,
        trump_terms,
    )


@inline_leaf
def play_card(policy, hands, decision, ctx, held, held_bits):
    """The card the seat of ``decision`` plays from its legal cards (more than one), holding ``held``
    cards (the tricks left) of the types ``held_bits`` (a bitmask): ``basic``'s card, or with
    ``policy`` HEURISTIC in the last ``PLAYS_FROM[g]`` tricks of its decision group ``g`` the legal card
    of the highest score (the lowest card type on ties).
    ``decision`` is (seat, legal, n, win, win_seat, players, trump, unseen), as
    :func:`simcore.kernels.policies.choose_card` takes them: ``legal`` a bitmask, ``n`` the card's place
    in the trick (0: the lead), ``win`` and ``win_seat`` the card winning the trick so far and its seat,
    ``unseen`` the card types of which a copy is neither in a finished trick nor in the seat's hand."""
    seat, legal, n, win, win_seat, players, trump, unseen = decision
    g = decision_group(seat, n, ctx)
    model = policy == HEURISTIC and held <= PLAYS_FROM[g]
    # the heuristic's choice is dear: where the group's weights leave its card out, the model skips it
    heuristic = -1
    if not model or HEURISTIC_TERMS[g]:
        heuristic = choose_card_inlined(hands, decision, ctx)
    if not model:
        return heuristic
    w = WEIGHTS[g]
    view = decision_context(hands, decision, ctx, held, held_bits, heuristic, TRUMP_TERMS[g])
    best_t, best = -1, -1e300
    m = legal
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        value = card_score(t, hands, decision, ctx, view, w)
        if value > best:
            best_t, best = t, value
    return best_t
