"""The double-dummy solver: the numba search (:mod:`simcore.solver.kernel`) and the Python layer over it
(:mod:`simcore.solver.position`: positions, exact values, the value of each legal card), used by the
answers, the sampling player and the API alike."""
