"""The card play of the ``learned`` player (numba): each legal card scored by a linear function of its
:mod:`~simcore.kernels.card_features`, the best score played.

The weights (:mod:`simcore.kernels.learned_weights`) were fitted on double-dummy values of every legal
card at decisions of heuristic hands (``pinochle dd-data``, ``analyses/fit_learned.py``); one row per
:func:`decision_group`. The model only ranks the legal cards the kernel gives it, so every duty of the
rules is kept; before the last ``FROM_TRICKS_LEFT`` tricks (the tricks the data cover) it plays the
heuristic's card. :func:`play_card` is the card choice of every non-random policy; the hand kernel calls it
for learned seats and the heuristic's ``choose_card`` directly for the others.
"""

from __future__ import annotations

from simcore.kernels.card_features import N_FEATURES, card_features, decision_view
from simcore.kernels.leaf import leaf
from simcore.kernels.learned_weights import FROM_TRICKS_LEFT, WEIGHTS
from simcore.kernels.play import lowest_card
from simcore.kernels.policies import C_SIDE, LEARNED, choose_card

if WEIGHTS.shape[1] != N_FEATURES:
    raise ImportError(f"learned_weights: {WEIGHTS.shape[1]} weights a group for {N_FEATURES} features")


@leaf
def decision_group(seat, n, ctx, unit):
    """The row of the weights for ``seat`` playing card ``n`` of a trick (0: the lead; the fourth card
    and later share a row): 2 * min(n, 3), plus 1 for a defender (not of the bidding side), plus 8 where
    the cards' trick points are graded (``unit``, the dearest card's, above 1) rather than counters."""
    return 2 * min(n, 3) + (0 if ctx[C_SIDE + seat] == 1 else 1) + (8 if unit > 1 else 0)


#: :func:`score` writes its sum out term by term, for this many features.
if N_FEATURES != 30:
    raise ImportError(f"learned.score sums 30 features; card_features has {N_FEATURES}")


@leaf
def score(f, g):
    """The weights of group ``g`` times the features ``f`` (a tuple), summed. Written out: a tuple read
    at a constant index costs nothing, at a loop's index a branch per element (the loop took nearly
    twice the time of a whole decision)."""
    w = WEIGHTS[g]
    return (
        f[0] * w[0]
        + f[1] * w[1]
        + f[2] * w[2]
        + f[3] * w[3]
        + f[4] * w[4]
        + f[5] * w[5]
        + f[6] * w[6]
        + f[7] * w[7]
        + f[8] * w[8]
        + f[9] * w[9]
        + f[10] * w[10]
        + f[11] * w[11]
        + f[12] * w[12]
        + f[13] * w[13]
        + f[14] * w[14]
        + f[15] * w[15]
        + f[16] * w[16]
        + f[17] * w[17]
        + f[18] * w[18]
        + f[19] * w[19]
        + f[20] * w[20]
        + f[21] * w[21]
        + f[22] * w[22]
        + f[23] * w[23]
        + f[24] * w[24]
        + f[25] * w[25]
        + f[26] * w[26]
        + f[27] * w[27]
        + f[28] * w[28]
        + f[29] * w[29]
    )


@leaf
def play_card(policy, hands, decision, ctx):
    """The card the seat of ``decision`` plays from its legal cards (more than one): the heuristic's
    card, or with ``policy`` LEARNED the legal card of the highest score (the lowest card type on
    ties). ``decision`` is (seat, legal, n, win, win_seat, players, trump, unseen), as
    :func:`simcore.kernels.policies.choose_card` takes them: ``legal`` a bitmask, ``n`` the card's place
    in the trick (0: the lead), ``win`` and ``win_seat`` the card winning the trick so far and its seat,
    ``unseen`` the card types of which a copy is neither in a finished trick nor in the seat's hand."""
    seat, legal, n, win, win_seat, players, trump, unseen = decision
    heuristic = choose_card(hands, seat, legal, n, win, win_seat, players, trump, unseen, ctx)
    if policy != LEARNED:
        return heuristic
    view = decision_view(hands, seat, players, trump, unseen, ctx)
    if view[1] > FROM_TRICKS_LEFT:  # the cards held: the tricks left
        return heuristic
    g = decision_group(seat, n, ctx, view[7])  # view[7]: the points unit
    best_t, best = -1, -1e300
    m = legal
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        f = card_features(view, hands, decision, t, ctx, heuristic)
        value = score(f, g)
        if value > best:
            best_t, best = t, value
    return best_t
