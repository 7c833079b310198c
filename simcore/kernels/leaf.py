"""How the kernels' leaf functions are compiled: without numba's reference counting.

Numba counts references to every array a compiled function receives: a call increments, then
decrements, atomically, the count of each array argument (each array of a tuple argument too). An
atomic update costs tens of cycles, and the small functions called per card or per hand (the random
stream, the deal, the meld, the hand's features, the solver's search) receive arrays their caller
already holds, so the counting guards nothing. perf showed it taking 40-58% of the time of the odds,
full-hand and solver kernels.

A function compiled with :data:`leaf` (``_nrt=False``) counts nothing, and so may not allocate an array
or return one: it reads and writes the arrays it is given, and returns scalars or tuples of scalars.
Numba refuses to compile a leaf that allocates, so the rule is checked where it is broken.
"""

from __future__ import annotations

from numba import njit

#: The decorator of a leaf kernel: compiled on first use, cached on disk, no reference counting.
leaf = njit(cache=True, _nrt=False)
#: A leaf inlined into its numba caller: for the per-card helpers of a leaf, whose arguments (arrays,
#: long tuples) cost more to pass in a call than their work.
inline_leaf = njit(cache=True, _nrt=False, inline="always")
