"""The evaluation's weights: float64[N_FEATURES], one per feature of
:data:`simcore.solver.estimate.FEATURES`. Written by ``python -m analyses.fit_estimate``; how they were
fitted is in :data:`FITTED`.
"""

import numpy as np

#: Before a fit: the middle of the exact bounds.
FITTED = {"recipe": "none: the middle of the solver's exact bounds"}
WEIGHTS = np.zeros(44)
WEIGHTS[3] = WEIGHTS[4] = 0.5
