"""The evaluation's weights: float64[N_FEATURES], one per feature of
:data:`simcore.solver.estimate.FEATURES`. Written by ``python -m analyses.fit_estimate``; how they were
fitted is in :data:`FITTED`.
"""

import numpy as np

FITTED = (
    "python -m analyses.fit_estimate data/estimate --systems four-hand-150 partnership-auction double-"
    "deck --seeds 1:601 --tricks-left 6 7 8 9 --limit 3000000 --holdout 0.2 --ridge 0.0001 --write: "
    "positions by system: double-deck 2,388, four-hand-150 2,400, partnership-auction 2,382 (the last 20%"
    " of each system's seeds held out), trick starts of heuristic hands, each solved exactly"
)
# fmt: off
WEIGHTS = np.array(
    [
        -0.548980,  # bias
         0.011666,  # in_play
        -0.105351,  # tricks_left
        -0.056776,  # lower
         0.172561,  # upper
         0.137317,  # we_lead
         0.111340,  # our_points
         0.092122,  # their_points
         0.611392,  # our_trump_0
        -0.076348,  # our_trump_1
         0.005023,  # our_trump_2
        -0.057548,  # our_trump_3
        -0.174239,  # our_trump_4
        -0.084351,  # our_trump_5
        -0.985371,  # their_trump_0
        -0.268648,  # their_trump_1
         0.158366,  # their_trump_2
         0.265361,  # their_trump_3
         0.246541,  # their_trump_4
         0.381428,  # their_trump_5
         0.123107,  # our_side_0
        -0.221163,  # our_side_1
        -0.166544,  # our_side_2
        -0.059529,  # our_side_3
        -0.071972,  # our_side_4
        -0.038529,  # our_side_5
        -0.239327,  # their_side_0
         0.017520,  # their_side_1
         0.054975,  # their_side_2
         0.058303,  # their_side_3
         0.036600,  # their_side_4
         0.063552,  # their_side_5
         0.223928,  # our_trumps
        -0.202323,  # their_trumps
         0.226573,  # our_longest_trump
        -0.257292,  # their_longest_trump
         0.267285,  # our_winners
        -0.210854,  # their_winners
         0.018102,  # our_winner_points
         0.237073,  # their_winner_points
         0.250529,  # our_ruffs
        -0.161618,  # their_ruffs
        -0.125206,  # lead_times_left
         0.701786,  # playout
    ],
    dtype=np.float64,
)
# fmt: on
