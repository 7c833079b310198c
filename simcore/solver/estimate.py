"""The learned evaluation of a position, every hand known: an estimate of the points the bidding side
takes from a trick start to the end of the hand, for the depth-limited search to use where an exact
solve is out of reach (:mod:`simcore.solver.kernel`, ``Y_FRONTIER``).

The estimate is linear in the :data:`FEATURES` of the position, in units of the dearest card's points
(so one set of weights serves every scale: four-hand-150's single points, partnership-auction's tens),
then held between the solver's own exact bounds on the value (:func:`simcore.solver.kernel._bounds`).
The weights (:mod:`simcore.solver.estimate_weights`) are fitted on exact solves of positions the
heuristic's hands reach (``python -m analyses.fit_estimate``). Every feature is read from the bidding
side's point of view: side 1 is the bidding side, side 0 the others; seats are numbered clockwise.
"""

from __future__ import annotations

import numpy as np

from simcore.cards import N_RANKS
from simcore.kernels.leaf import leaf
from simcore.kernels.play import SUIT_BITS, SUIT_OF

#: What the evaluation reads of a position (all trick points in units of the dearest card's points):
#: the points in play, the tricks left, the solver's exact lower and upper bounds, whether the bidding
#: side leads, the points each side holds, each side's copies of each trump rank and of each side-suit
#: rank (the three side suits pooled), each side's trumps and its longest trump holding, the side-suit
#: cards each side holds that no other seat can beat in their suit (winners) and their points, each
#: side's voids in a side suit held by a seat with trumps (ruffs), the tricks left times the leader's
#: flag, and the bidding side's points when the leader leads his best card and the heuristic plays the
#: rest (a playout with every seat reading only its own hand: the strongest single feature).
FEATURES = (
    "bias",
    "in_play",
    "tricks_left",
    "lower",
    "upper",
    "we_lead",
    "our_points",
    "their_points",
    *(f"our_trump_{r}" for r in range(N_RANKS)),
    *(f"their_trump_{r}" for r in range(N_RANKS)),
    *(f"our_side_{r}" for r in range(N_RANKS)),
    *(f"their_side_{r}" for r in range(N_RANKS)),
    "our_trumps",
    "their_trumps",
    "our_longest_trump",
    "their_longest_trump",
    "our_winners",
    "their_winners",
    "our_winner_points",
    "their_winner_points",
    "our_ruffs",
    "their_ruffs",
    "lead_times_left",
    "playout",
)
N_FEATURES = len(FEATURES)


@leaf
def position_features(w, leader, facts, out):
    """Write the :data:`FEATURES` of the trick start led by ``leader`` into ``out`` (float64[N_FEATURES]).
    ``w`` is the solver's work record (:class:`simcore.solver.kernel.SolverWork`), of which this reads
    ``hands`` (int64[players, 24] copies held), ``held`` (their bitmasks), ``side`` (1 for the bidding
    side's seats) and ``points`` (each card type's trick points); ``facts`` is (trump, the tricks left,
    the points in play with the last-trick bonus, the solver's lower and upper bounds on the bidding
    side's points, its points in the best-lead playout). Returns the unit (the dearest card's points)
    the point features are divided by."""
    hands, held, side, points = w.hands, w.held, w.side, w.points
    trump, left, remaining, lower, upper, playout = facts
    players = hands.shape[0]
    unit = np.int64(1)
    for t in range(points.shape[0]):
        unit = max(unit, points[t])
    u = float(unit)
    for k in range(N_FEATURES):
        out[k] = 0.0
    out[0] = 1.0
    out[1] = remaining / u
    out[2] = float(left)
    out[3] = lower / u
    out[4] = upper / u
    out[5] = float(side[leader])
    everyone = np.int64(0)
    for s in range(players):
        everyone |= held[s]
    for s in range(players):
        ours = side[s] == 1
        trumps = np.int64(0)
        for t in range(hands.shape[1]):
            c = hands[s, t]
            if c == 0:
                continue
            r = t % N_RANKS
            out[6 if ours else 7] += c * points[t] / u
            if SUIT_OF[t] == trump:
                out[(8 if ours else 14) + r] += c
                trumps += c
            else:
                out[(20 if ours else 26) + r] += c
                # a winner: no other seat holds a higher card of its suit (ranks run A first)
                higher = SUIT_BITS[SUIT_OF[t]] & ((np.int64(1) << t) - 1)
                beaten = False
                for o in range(players):
                    if o != s and held[o] & higher != 0:
                        beaten = True
                if not beaten:
                    out[36 if ours else 37] += 1.0
                    out[38 if ours else 39] += points[t] / u
        out[32 if ours else 33] += trumps
        if trumps > out[34 if ours else 35]:
            out[34 if ours else 35] = float(trumps)
        if trumps > 0:
            for suit in range(4):
                if suit != trump and held[s] & SUIT_BITS[suit] == 0 and everyone & SUIT_BITS[suit] != 0:
                    out[40 if ours else 41] += 1.0
    out[42] = out[5] * left
    out[43] = playout / u
    return unit


@leaf
def estimate(weights, features, unit, lower, upper):
    """The bidding side's estimated points (on the points' own scale, rounded to an integer) from the
    features: ``weights . features`` units of ``unit`` points, held between the exact bounds."""
    x = 0.0
    for k in range(features.shape[0]):
        x += weights[k] * features[k]
    v = np.int64(np.round(x * unit))
    return min(max(v, lower), upper)
