"""Features of one legal card at a card-play decision (numba): the single source of the learned player.

:func:`card_features` reads exactly what the hand kernel has when a seat chooses a card (its hand,
the legal cards, the trick so far, the unseen card types, the context array of
:mod:`simcore.kernels.policies`) and returns a tuple of :data:`N_FEATURES` floats, named by
:data:`FEATURES`. The learned player (:mod:`simcore.kernels.learned`) scores each legal card by them,
and the training data (``pinochle dd-data``) records the same tuple for every legal card, so the
features a model was fitted on are the features it is played with.

Points are scaled by the variant's dearest card (``unit``: the ace's trick points), so one set of
weights reads every system's scale. Seats are numbered clockwise from 0; card types are
``suit * 6 + rank`` with rank 0 the ace.
"""

from __future__ import annotations

import numpy as np

from simcore.cards import N_RANKS, N_TYPES, NINE
from simcore.kernels.leaf import leaf
from simcore.kernels.play import SUIT_BITS, SUIT_OF, beats, cards_above, popcount
from simcore.kernels.policies import C_LED, C_MUST_TRUMP, C_POINTS, C_SIDE, C_TRICK, C_VOID, CTX_SIZE

#: The features, in the order :func:`card_features` returns them (columns of the training data).
FEATURES = (
    "heuristic",  # 1 for the card the heuristic plays here
    "points",  # the card's trick points / unit
    "rank",  # ace 1 .. nine 0
    "trump",  # 1 for a trump
    "master",  # no higher card of its suit unseen
    "sure_master",  # a master that cannot be trumped: a trump, no trump unseen, or no opponent with trump
    "master_points",  # master * points
    "trump_trumps_out",  # trump * trump types unseen / 6
    "trump_length",  # trump * share of the hand in trump
    "suit_length",  # cards of its suit held / cards held
    "suit_unseen",  # types of its suit unseen / 6
    "singleton",  # the last card of its suit held
    "lowest_in_suit",  # no lower card of its suit held
    "extra_copy",  # another copy of this card type held
    "opponent_void",  # an opponent has shown void in its suit
    "opponent_void_points",  # opponent_void * points
    "partner_void",  # a partner has shown void in its suit
    "beats",  # (following) it takes the trick so far
    "beats_safe",  # beats, and no later card can take it (last to play, or a sure master)
    "beats_trick_points",  # beats * the trick's points so far / unit
    "beats_points",  # beats * points
    "loses_points",  # (following) does not beat * points
    "partner_points",  # partner is winning * points
    "partner_safe_points",  # partner wins for sure * points
    "overtakes_partner",  # partner is winning and it beats him
    "ruff",  # a trump on a plain suit led
    "top_in_suit",  # no higher card of its suit held
    "suit_points_unseen",  # trick points of its suit's unseen types / unit / 6
    "trump_late",  # trump / cards held: a trump as the hand runs out
    "beats_rank",  # beats * rank: winning with a high card
)
#: The largest value of each feature (every feature is at least 0): the trick's points so far count at
#: most the dearest card's for each card before the last of six seats; every other feature is at most 1.
FEATURE_BOUNDS = tuple(5.0 if name == "beats_trick_points" else 1.0 for name in FEATURES)
#: Scales of the rank and count features, as factors (a multiplication is cheaper than a division).
PER_RANK_STEP, PER_TYPE = 1.0 / NINE, 1.0 / N_RANKS
#: At most 30: a longer tuple is built through a list, which numba cannot compile.
N_FEATURES = len(FEATURES)


@leaf
def note_card(ctx, seat, card, place, led, trump):
    """Keep the context's card counting after ``seat`` plays ``card`` as the trick's card ``place`` (0:
    the lead; ``led`` the suit led, the card's own on the lead): the trick's points, and the suits he
    shows void in (the suit led, when he does not follow; trump too, when he neither follows nor trumps
    and a void must trump). Only duty-bound tricks should be noted: while a stock lasts, any card goes."""
    if place == 0:
        ctx[C_TRICK] = 0
        ctx[C_LED] = led
    ctx[C_TRICK] += ctx[C_POINTS + card]
    s = SUIT_OF[card]
    if s != led:
        ctx[C_VOID + seat] |= 1 << led
        if s != trump and ctx[C_MUST_TRUMP] != 0:
            ctx[C_VOID + seat] |= 1 << trump


@leaf
def decision_view(hands, seat, players, trump, unseen, ctx):
    """What every card of one decision shares, computed once: (held types bitmask, cards held, suit
    lengths and the trick points of each suit's unseen types, 8 bits a suit, the suits an opponent and
    the suits a partner has shown void in (bit s: suit s), whether every opponent has shown void in
    trump, ``unit``: the dearest card's trick points, at least 1, the scale of the point features, and
    the reciprocals of ``unit`` and of the cards held, as the features multiply by them)."""
    held_bits, held, lengths, suit_points, unit = np.int64(0), 0, np.int64(0), np.int64(0), 1
    for u in range(N_TYPES):
        c = hands[seat, u]
        unit = max(unit, ctx[C_POINTS + u])
        if c > 0:
            held_bits |= np.int64(1) << u
            held += c
            lengths += np.int64(c) << (8 * SUIT_OF[u])
        if (unseen >> u) & 1:
            suit_points += ctx[C_POINTS + u] << (8 * SUIT_OF[u])
    opp_voids, partner_voids, trumpless = 0, 0, True
    mine = ctx[C_SIDE + seat]
    for o in range(players):
        if o == seat:
            continue
        if ctx[C_SIDE + o] == mine:
            partner_voids |= ctx[C_VOID + o]
        else:
            opp_voids |= ctx[C_VOID + o]
            if not (ctx[C_VOID + o] >> trump) & 1:
                trumpless = False
    return (
        held_bits,
        held,
        lengths,
        suit_points,
        opp_voids,
        partner_voids,
        trumpless,
        unit,
        1.0 / unit,
        1.0 / max(held, 1),
    )


@leaf
def card_features(view, hands, decision, t, ctx, heuristic):
    """The :data:`FEATURES` of card ``t`` played at ``decision`` = (seat, legal, n, win, win_seat,
    players, trump, unseen): ``seat`` plays it as card ``n`` (0: the lead) of a trick that ``win``,
    played by ``win_seat``, is winning so far (``legal`` is not read). A tuple of floats. ``view`` is
    the decision's :func:`decision_view`, ``unseen`` the card types of which a copy is neither in a
    finished trick nor in his hand, ``ctx`` the context (layout ``C_*`` of
    :mod:`simcore.kernels.policies`), ``heuristic`` the card the heuristic plays here."""
    seat, _, n, win, win_seat, players, trump, unseen = decision
    held_bits, _, lengths, suit_points, opp_voids, partner_voids, opponents_trumpless, _, per_unit, per_card = view
    s = SUIT_OF[t]
    r = t % N_RANKS
    in_suit = (lengths >> (8 * s)) & 255
    trumps = (lengths >> (8 * trump)) & 255
    suit_points_unseen = (suit_points >> (8 * s)) & 255
    lower_bits = SUIT_BITS[s] & ~((np.int64(2) << t) - 1)
    pts = ctx[C_POINTS + t] * per_unit
    is_trump = 1.0 if s == trump else 0.0
    trumps_unseen = popcount(unseen & SUIT_BITS[trump])
    master = 1.0 if unseen & cards_above(t) == 0 else 0.0
    opp_void = 1.0 if (opp_voids >> s) & 1 else 0.0
    partner_void = 1.0 if (partner_voids >> s) & 1 else 0.0
    mine = ctx[C_SIDE + seat]
    sure = master if (s == trump or trumps_unseen == 0 or opponents_trumpless) else 0.0
    b = bt = bs = lp = pp = psp = ov = ruff = 0.0
    if n > 0:
        b = 1.0 if beats(t, win, trump) else 0.0
        last_place = n == players - 1
        bs = b if (last_place or sure > 0) else 0.0
        bt = b * ctx[C_TRICK] * per_unit
        lp = (1.0 - b) * pts
        if ctx[C_SIDE + win_seat] == mine:
            pp = pts
            partner_safe = last_place or (
                unseen & cards_above(win) == 0 and (SUIT_OF[win] == trump or unseen & SUIT_BITS[trump] == 0)
            )
            psp = pts if partner_safe else 0.0
            ov = b
        ruff = is_trump if ctx[C_LED] != trump else 0.0
    return (
        1.0 if t == heuristic else 0.0,
        pts,
        (NINE - r) * PER_RANK_STEP,
        is_trump,
        master,
        sure,
        master * pts,
        is_trump * trumps_unseen * PER_TYPE,
        is_trump * trumps * per_card,
        in_suit * per_card,
        popcount(unseen & SUIT_BITS[s]) * PER_TYPE,
        1.0 if in_suit == 1 else 0.0,
        1.0 if held_bits & lower_bits == 0 else 0.0,
        1.0 if hands[seat, t] > 1 else 0.0,
        opp_void,
        opp_void * pts,
        partner_void,
        b,
        bs,
        bt,
        b * pts,
        lp,
        pp,
        psp,
        ov,
        ruff,
        1.0 if held_bits & cards_above(t) == 0 else 0.0,
        suit_points_unseen * per_unit * PER_TYPE,
        is_trump * per_card,
        b * (NINE - r) * PER_RANK_STEP,
    )


def play_context(variant, side, trump: int, tricks, trick) -> np.ndarray:
    """int64[CTX_SIZE]: the context the hand kernel holds when the next card of ``trick`` is chosen,
    from the play so far: ``side`` per seat (1: the bidding side), ``tricks`` the finished duty-bound
    tricks and ``trick`` the one in play, each as (leader, [card, ...]) in the order played."""
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[C_POINTS : C_POINTS + N_TYPES] = variant.trick_points
    ctx[C_SIDE : C_SIDE + variant.players] = side
    ctx[C_MUST_TRUMP] = int(bool(variant.get("play.void_must_trump")))
    for leader, cards in [*tricks, trick]:
        for i, c in enumerate(cards):
            note_card(ctx, (leader + i) % variant.players, c, i, SUIT_OF[cards[0]], trump)
    return ctx
