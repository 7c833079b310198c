"""The learned player's weights: float64[16, N_FEATURES], one row per group of decisions
(:func:`simcore.kernels.learned.decision_group`: by place in the trick and side, with equal counters
(A, 10, K alike), then with graded trick points), one column per feature of
:data:`simcore.kernels.card_features.FEATURES`. Written by ``analyses/fit_learned.py``; how they were
fitted is in :data:`FITTED`.
"""

import numpy as np

#: Per group (the order of the weights' columns below: lead, 2nd, 3rd, 4th card on, each for the bidding
#: side and the defenders, with counters, then with graded points): the tricks left from which the
#: group's weights choose the card; before them, and where 0, the heuristic's card is played. Chosen
#: by duels against the heuristic (docs/policies.md, "Attempts"): the 2nd card's model gains nothing,
#: follows gain from every trick, graded-point leads lose before the last six.
MODEL_FROM = (8, 8, 0, 0, 10, 10, 10, 10, 6, 6, 0, 0, 12, 12, 12, 12)
FITTED = (
    "python -m analyses.fit_learned data/dd --holdout 0.2 --steps 600 --ridge 0.001 --write: 762,144 "
    "rows, decisions by system: double-deck 76,116, four-hand-150 91,446, partnership-auction 82,563 "
    "(double-deck seeds 0..5999; four-hand-150 seeds 0..5999; partnership-auction seeds 0..5999; the last"
    " 20% of each system's seeds held out), the last 6 tricks of heuristic hands"
)
#: One line a feature, one column a group (the same columns in both blocks):
#   0: lead, bidding side, counters
#   1: lead, defenders, counters
#   2: 2nd card, bidding side, counters
#   3: 2nd card, defenders, counters
#   4: 3rd card, bidding side, counters
#   5: 3rd card, defenders, counters
#   6: 4th card on, bidding side, counters
#   7: 4th card on, defenders, counters
#   0: lead, bidding side, graded
#   1: lead, defenders, graded
#   2: 2nd card, bidding side, graded
#   3: 2nd card, defenders, graded
#   4: 3rd card, bidding side, graded
#   5: 3rd card, defenders, graded
#   6: 4th card on, bidding side, graded
#   7: 4th card on, defenders, graded
# fmt: off
COUNTERS = np.array([
    [ -1.035,  -3.027,   9.763,   1.291,   2.649,   1.264,   5.230,   3.143],  # heuristic
    [ -0.786,   0.624,  -0.007,   0.183,   0.295,   1.102,  -0.481,  -0.670],  # points
    [  1.680,  -0.215,  -0.005,  -0.906,  -0.578,  -0.362,  -0.715,  -0.690],  # rank
    [ -2.688,  -1.127,   0.000,  -0.000,  -0.000,   0.000,   0.000,   0.000],  # trump
    [  0.543,   2.950,  -0.006,  -1.334,  -1.899,  -2.297,  -1.253,  -1.140],  # master
    [  3.508,   2.657,  -0.003,   0.388,  -1.493,  -1.226,  -1.533,  -0.706],  # sure_master
    [  2.907,   1.974,  -0.006,  -0.992,  -1.839,  -1.788,  -1.040,  -1.036],  # master_points
    [  1.309,  -0.949,   0.000,  -0.000,   0.000,  -0.000,   0.000,  -0.000],  # trump_trumps_out
    [ -1.454,  -1.693,   0.000,  -0.000,  -0.000,   0.000,  -0.000,  -0.000],  # trump_length
    [  1.079,  -0.518,   0.000,   0.485,  -0.001,   0.425,   0.016,   0.154],  # suit_length
    [  1.028,  -0.472,  -0.000,   0.123,  -0.373,  -0.673,  -0.070,  -0.133],  # suit_unseen
    [ -1.165,   0.782,  -0.000,  -0.396,   0.424,  -0.383,  -0.039,   0.344],  # singleton
    [  0.029,  -0.103,   0.009,   0.452,  -0.373,  -0.205,   0.257,   0.699],  # lowest_in_suit
    [  1.287,   0.989,   0.005,   2.774,   1.408,   1.376,   0.638,   0.492],  # extra_copy
    [ -2.503,  -1.351,   0.001,   1.439,   0.101,   1.032,   0.089,   1.963],  # opponent_void
    [  0.122,  -1.387,  -0.001,   1.126,   0.412,   0.179,   0.172,   2.055],  # opponent_void_points
    [  1.719,   1.353,   0.001,  -0.363,   1.218,  -0.021,   0.187,  -0.342],  # partner_void
    [  0.000,   0.000,   0.000,  -0.000,  -0.000,  -0.000,   0.000,  -0.000],  # beats
    [  0.000,   0.000,   0.001,   1.048,   0.045,  -0.705,   0.000,  -0.000],  # beats_safe
    [  0.000,   0.000,   0.000,  -0.000,  -0.000,  -0.000,   0.000,   0.000],  # beats_trick_points
    [  0.000,   0.000,   0.001,   1.341,   1.655,   1.042,  -0.590,  -0.211],  # beats_points
    [  0.000,   0.000,  -0.008,  -1.158,  -1.360,   0.060,   0.109,  -0.459],  # loses_points
    [  0.000,   0.000,   0.000,   0.000,   0.792,   3.222,  -0.273,   1.117],  # partner_points
    [  0.000,   0.000,   0.000,   0.000,   0.762,  -0.002,  -0.273,   1.117],  # partner_safe_points
    [  0.000,   0.000,   0.000,   0.000,   0.000,  -0.000,  -0.000,  -0.000],  # overtakes_partner
    [  0.000,   0.000,   0.000,   0.000,  -0.000,   0.000,  -0.000,   0.000],  # ruff
    [ -1.310,   1.262,  -0.009,  -0.884,  -0.413,  -1.185,  -0.786,  -0.560],  # top_in_suit
    [  1.051,  -0.045,  -0.000,   0.015,  -0.184,  -0.471,  -0.052,  -0.047],  # suit_points_unseen
    [ -2.206,  -0.694,   0.000,  -0.000,  -0.000,  -0.000,   0.000,   0.000],  # trump_late
    [  0.000,   0.000,   0.000,   0.738,   0.946,   0.615,  -0.294,  -0.168],  # beats_rank
], dtype=np.float64)
GRADED = np.array([
    [ -2.829,  -2.709,   9.739,   9.674,   2.214,   1.671,   3.652,   4.994],  # heuristic
    [ -0.536,  -0.920,  -0.006,  -0.010,  -0.234,   0.081,  -0.375,   0.050],  # points
    [  0.514,  -0.017,  -0.005,  -0.008,   0.117,  -0.110,  -0.265,  -0.153],  # rank
    [ -2.704,  -1.228,  -0.000,  -0.000,   0.000,   0.000,  -0.000,   0.000],  # trump
    [  1.461,   2.163,  -0.006,  -0.010,  -1.131,  -1.031,  -1.118,  -1.408],  # master
    [  2.344,   2.821,  -0.005,  -0.003,  -0.860,  -1.114,  -1.212,  -1.476],  # sure_master
    [  2.555,   1.159,  -0.006,  -0.010,  -1.354,  -1.754,  -0.852,  -1.138],  # master_points
    [  0.482,  -0.162,  -0.000,  -0.000,   0.000,   0.000,  -0.000,   0.000],  # trump_trumps_out
    [ -0.933,  -1.329,  -0.000,  -0.000,   0.000,   0.000,  -0.000,   0.000],  # trump_length
    [  0.527,  -0.817,   0.000,   0.001,  -0.123,   0.120,  -0.030,  -0.029],  # suit_length
    [  0.937,  -0.862,  -0.000,  -0.001,  -0.496,  -0.504,  -0.247,  -0.330],  # suit_unseen
    [ -0.914,   1.274,  -0.000,  -0.001,   0.475,  -0.028,   0.158,   0.060],  # singleton
    [ -0.633,  -0.699,   0.007,   0.011,  -0.836,  -1.722,   0.553,   0.393],  # lowest_in_suit
    [  1.581,   0.401,   0.002,   0.002,   1.150,   1.065,   0.943,   1.022],  # extra_copy
    [ -2.226,  -1.352,   0.001,   0.003,   0.463,   0.725,  -0.038,   0.334],  # opponent_void
    [ -1.244,  -1.057,  -0.001,   0.000,   0.289,   0.041,  -0.529,   0.502],  # opponent_void_points
    [  2.163,   2.209,   0.001,  -0.000,   1.033,   0.125,   0.327,  -0.008],  # partner_void
    [  0.000,   0.000,   0.000,   0.001,   1.129,   1.055,   1.059,   0.689],  # beats
    [  0.000,   0.000,  -0.003,  -0.001,   0.067,  -0.752,   1.059,   0.689],  # beats_safe
    [  0.000,   0.000,   0.000,   0.000,   0.875,   0.872,   1.230,   0.672],  # beats_trick_points
    [  0.000,   0.000,  -0.001,   0.001,   1.643,   1.671,   0.061,  -0.086],  # beats_points
    [  0.000,   0.000,  -0.005,  -0.011,  -1.877,  -1.590,  -0.436,   0.136],  # loses_points
    [  0.000,   0.000,   0.000,   0.000,   0.374,   1.554,  -1.692,  -1.189],  # partner_points
    [  0.000,   0.000,   0.000,   0.000,  -0.506,  -0.274,  -1.692,  -1.189],  # partner_safe_points
    [  0.000,   0.000,   0.000,   0.000,   0.459,   0.194,  -1.225,  -1.241],  # overtakes_partner
    [  0.000,   0.000,  -0.000,  -0.000,  -0.000,   0.000,  -0.000,  -0.000],  # ruff
    [  0.611,   2.195,  -0.009,  -0.012,  -0.497,   0.222,  -0.989,  -0.682],  # top_in_suit
    [  0.667,   0.027,  -0.000,   0.000,  -0.104,  -0.207,  -0.037,  -0.116],  # suit_points_unseen
    [ -1.383,  -0.737,   0.000,  -0.000,   0.000,  -0.000,  -0.000,   0.000],  # trump_late
    [  0.000,   0.000,  -0.001,   0.001,   1.629,   1.094,   0.185,  -0.002],  # beats_rank
], dtype=np.float64)
# fmt: on
WEIGHTS = np.concatenate([COUNTERS.T, GRADED.T])
