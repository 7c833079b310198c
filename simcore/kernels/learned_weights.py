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
#: by duels against the heuristic and by speed (docs/policies.md, "Attempts"): graded-point follows gain
#: from every trick and graded-point leads lose before the last six; with counters the follows play
#: from eight tricks, not ten, which keeps four-hand-150 above 0.8 of the heuristic's speed for 0.3
#: points a deal; the 2nd card plays as the heuristic (first for no gain, now for speed).
MODEL_FROM = (8, 8, 0, 0, 8, 8, 8, 8, 6, 6, 0, 0, 12, 12, 12, 12)
FITTED = (
    "python -m analyses.fit_learned data/dd --holdout 0.2 --steps 600 --ridge 0.001 --without-heuristic "
    "--write: 762,144 rows, decisions by system: double-deck 76,116, four-hand-150 91,446, partnership-"
    "auction 82,563 (double-deck seeds 0..5999; four-hand-150 seeds 0..5999; partnership-auction seeds "
    "0..5999; the last 20% of each system's seeds held out), the last 6 tricks of heuristic hands"
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
    [  0.000,   0.000,   0.000,   0.000,   0.000,   0.000,   0.000,   0.000],  # heuristic
    [ -0.689,   1.021,  -0.329,   0.002,  -0.391,   0.825,   0.182,  -0.811],  # points
    [  1.566,  -0.321,  -0.660,  -1.357,  -0.734,  -0.612,  -1.674,  -1.664],  # rank
    [ -2.473,  -0.577,   0.000,   0.000,   0.000,  -0.000,  -0.000,   0.000],  # trump
    [  0.152,   2.284,  -0.073,  -1.316,  -1.809,  -2.261,  -1.397,  -1.332],  # master
    [  3.704,   3.916,  -0.556,   0.503,  -1.082,  -1.077,  -1.494,  -0.757],  # sure_master
    [  2.938,   1.433,   0.119,  -1.012,  -1.640,  -1.749,  -1.185,  -1.015],  # master_points
    [  1.404,  -0.998,   0.000,   0.000,  -0.000,   0.000,  -0.000,   0.000],  # trump_trumps_out
    [ -1.507,  -1.395,   0.000,   0.000,  -0.000,   0.000,   0.000,  -0.000],  # trump_length
    [  0.916,  -0.707,   0.060,   0.544,   0.116,   0.447,   0.085,   0.496],  # suit_length
    [  1.006,  -0.589,  -0.472,  -0.184,  -0.720,  -0.960,  -0.174,  -0.969],  # suit_unseen
    [ -0.930,   0.786,  -0.079,  -0.496,   0.532,  -0.507,  -0.104,   0.158],  # singleton
    [  0.020,   0.223,   0.209,   0.818,   0.233,   0.203,   1.488,   1.341],  # lowest_in_suit
    [  1.196,   1.237,   3.208,   2.637,   1.618,   1.342,   1.810,   0.995],  # extra_copy
    [ -2.638,  -1.345,   1.118,   1.495,   0.287,   1.242,   0.352,   1.416],  # opponent_void
    [ -0.044,  -1.278,  -0.430,   1.104,   0.302,   0.293,   0.218,   1.304],  # opponent_void_points
    [  1.517,   1.226,   0.552,  -0.281,   1.449,  -0.026,  -0.399,  -0.362],  # partner_void
    [  0.000,   0.000,   0.000,   0.000,  -0.000,  -0.000,   0.000,  -0.000],  # beats
    [  0.000,   0.000,   1.257,   1.222,   0.188,  -0.812,   0.000,  -0.000],  # beats_safe
    [  0.000,   0.000,   0.000,  -0.000,  -0.000,  -0.000,   0.000,  -0.000],  # beats_trick_points
    [  0.000,   0.000,   1.337,   1.270,   1.018,   0.784,   1.300,  -0.158],  # beats_points
    [  0.000,   0.000,  -1.665,  -1.268,  -1.409,   0.041,  -1.116,  -0.653],  # loses_points
    [  0.000,   0.000,   0.000,   0.000,   1.415,   3.292,   2.243,   2.804],  # partner_points
    [  0.000,   0.000,   0.000,   0.000,   3.050,   0.789,   2.243,   2.804],  # partner_safe_points
    [  0.000,   0.000,   0.000,   0.000,  -0.000,   0.000,  -0.000,   0.000],  # overtakes_partner
    [  0.000,   0.000,   0.000,  -0.000,  -0.000,  -0.000,   0.000,   0.000],  # ruff
    [ -1.677,   0.009,  -1.701,  -1.372,  -0.858,  -1.546,  -1.040,  -1.171],  # top_in_suit
    [  1.029,  -0.155,  -0.333,  -0.216,  -0.359,  -0.637,  -0.025,  -0.622],  # suit_points_unseen
    [ -2.385,  -0.288,  -0.000,   0.000,  -0.000,  -0.000,  -0.000,  -0.000],  # trump_late
    [  0.000,   0.000,   1.269,   0.737,   1.010,   0.547,  -0.476,  -0.256],  # beats_rank
], dtype=np.float64)
GRADED = np.array([
    [  0.000,   0.000,   0.000,   0.000,   0.000,   0.000,   0.000,   0.000],  # heuristic
    [ -0.597,  -1.360,  -0.243,  -0.415,  -0.497,  -0.215,  -0.897,  -0.813],  # points
    [  0.494,  -0.178,  -0.014,  -0.390,  -0.278,  -0.069,  -0.628,  -0.668],  # rank
    [ -2.643,  -0.972,   0.000,   0.000,  -0.000,  -0.000,  -0.000,  -0.000],  # trump
    [  0.525,   1.316,  -0.339,  -0.769,  -0.603,  -0.902,  -0.828,  -1.150],  # master
    [  3.036,   3.821,  -1.040,  -0.657,  -0.669,  -1.001,  -0.759,  -0.605],  # sure_master
    [  2.526,   0.403,  -0.373,  -0.921,  -0.832,  -1.787,  -0.861,  -1.000],  # master_points
    [  1.148,   0.063,  -0.000,   0.000,  -0.000,   0.000,  -0.000,  -0.000],  # trump_trumps_out
    [ -1.216,  -1.473,  -0.000,   0.000,  -0.000,   0.000,   0.000,  -0.000],  # trump_length
    [  0.389,  -0.844,   0.069,   0.183,  -0.090,   0.087,   0.043,   0.112],  # suit_length
    [  1.396,  -0.612,  -0.326,  -0.429,  -0.484,  -0.595,  -0.404,  -0.596],  # suit_unseen
    [ -0.563,   1.323,  -0.135,  -0.100,   0.462,   0.096,   0.041,   0.133],  # singleton
    [  0.099,  -0.628,  -0.543,  -0.319,  -0.476,  -1.086,   1.353,   1.301],  # lowest_in_suit
    [  1.176,   0.454,   1.688,   1.711,   1.322,   1.133,   0.921,   0.641],  # extra_copy
    [ -2.424,  -1.245,   0.274,   1.445,   0.081,   0.802,  -0.068,   1.490],  # opponent_void
    [ -1.643,  -1.350,  -0.460,   0.350,  -0.099,   0.014,  -0.659,   0.493],  # opponent_void_points
    [  2.094,   2.023,   0.266,  -0.399,   1.237,   0.114,   0.203,  -0.617],  # partner_void
    [  0.000,   0.000,   0.130,   0.706,   1.934,   1.846,   2.006,   1.672],  # beats
    [  0.000,   0.000,  -0.928,  -0.473,  -0.292,  -0.869,   2.006,   1.672],  # beats_safe
    [  0.000,   0.000,   0.073,   0.137,   1.658,   1.486,   1.846,   1.494],  # beats_trick_points
    [  0.000,   0.000,   1.623,   2.083,   1.680,   1.678,   0.510,   1.023],  # beats_points
    [  0.000,   0.000,  -1.866,  -2.497,  -2.176,  -1.893,  -1.407,  -1.835],  # loses_points
    [  0.000,   0.000,   0.000,   0.000,   0.516,   1.559,  -1.149,  -0.850],  # partner_points
    [  0.000,   0.000,   0.000,   0.000,   0.435,   0.590,  -1.149,  -0.850],  # partner_safe_points
    [  0.000,   0.000,   0.000,   0.000,   0.071,   0.041,  -1.322,  -1.389],  # overtakes_partner
    [  0.000,   0.000,   0.000,   0.000,  -0.000,   0.000,   0.000,   0.000],  # ruff
    [ -0.718,   2.145,  -2.296,  -1.380,  -1.057,   0.020,  -0.938,  -0.539],  # top_in_suit
    [  1.026,   0.266,  -0.085,  -0.009,  -0.095,  -0.242,  -0.064,   0.104],  # suit_points_unseen
    [ -1.885,  -0.684,   0.000,   0.000,  -0.000,  -0.000,   0.000,   0.000],  # trump_late
    [  0.000,   0.000,   1.492,   1.599,   1.522,   1.292,   0.788,   1.034],  # beats_rank
], dtype=np.float64)
# fmt: on
WEIGHTS = np.concatenate([COUNTERS.T, GRADED.T])
