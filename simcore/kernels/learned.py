"""The card play of the ``learned`` player (numba): each legal card scored by a linear function of its
:mod:`~simcore.kernels.card_features`, the best score played.

The weights (:mod:`simcore.kernels.learned_weights`) were fitted on double-dummy values of every legal
card at decisions of heuristic hands (``pinochle dd-data``, ``analyses/fit_learned.py``); one row per
:func:`decision_group`. The model only ranks the legal cards the kernel gives it, so every duty of the
rules is kept; before the last ``FROM_TRICKS_LEFT`` tricks (the tricks the data cover) it plays the
heuristic's card. :func:`play_card` is the hand kernel's card choice for every non-random policy.
"""

from __future__ import annotations

from simcore.cards import N_TYPES
from simcore.kernels.card_features import N_FEATURES, card_features, points_unit
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


@leaf
def cards_held(hands, seat):
    """The cards ``seat`` holds: the tricks left, once the stock is gone."""
    n = 0
    for t in range(N_TYPES):
        n += hands[seat, t]
    return n


@leaf
def play_card(policy, hands, seat, legal, n, win, win_seat, players, trump, unseen, ctx):
    """The card ``seat`` plays from ``legal`` (a bitmask of more than one card type), as
    :func:`simcore.kernels.policies.choose_card` takes its arguments: the heuristic's card, or with
    ``policy`` LEARNED the legal card of the highest score (the lowest card type on ties)."""
    heuristic = choose_card(hands, seat, legal, n, win, win_seat, players, trump, unseen, ctx)
    if policy != LEARNED or cards_held(hands, seat) > FROM_TRICKS_LEFT:
        return heuristic
    unit = points_unit(ctx)
    g = decision_group(seat, n, ctx, unit)
    best_t, best = -1, -1e300
    m = legal
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        f = card_features(hands, seat, t, n, win, win_seat, players, trump, unseen, ctx, heuristic, unit)
        score = 0.0
        for i in range(N_FEATURES):
            score += WEIGHTS[g, i] * f[i]
        if score > best:
            best_t, best = t, score
    return best_t
