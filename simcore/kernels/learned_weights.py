"""The learned player's weights: float64[8, N_FEATURES], one row per group of decisions
(:func:`simcore.kernels.learned.decision_group`: the lead by the bidding side, the lead by a defender,
a later card by the bidding side, a later card by a defender; with counters, then with graded trick
points), one column per feature of
:data:`simcore.kernels.card_features.FEATURES`. Written by ``analyses/fit_learned.py``; how they were
fitted is in :data:`FITTED`.
"""

import numpy as np

#: The tricks left from which the model plays (before, the heuristic does).
FROM_TRICKS_LEFT = 8
FITTED = "not fitted: the heuristic's card only"
WEIGHTS = np.zeros((8, 30), dtype=np.float64)
WEIGHTS[:, 0] = 1.0
