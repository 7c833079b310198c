"""How the kernels' leaf functions are compiled: without numba's reference counting, and once per set of
argument types rather than per constant passed.

Numba counts references to every array a compiled function receives: a call increments, then
decrements, atomically, the count of each array argument (each array of a tuple argument too). An
atomic update costs tens of cycles, and the small functions called per card or per hand (the random
stream, the deal, the meld, the hand's features, the solver's search) receive arrays their caller
already holds, so the counting guards nothing. perf showed it taking 40-58% of the time of the odds,
full-hand and solver kernels.

A function compiled with :data:`leaf` (``_nrt=False``) counts nothing, and so may not allocate an array
or return one: it reads and writes the arrays it is given, and returns scalars or tuples of scalars.
Numba refuses to compile a leaf that allocates, so the rule is checked where it is broken.

Numba compiles a function called from compiled code for the types its caller passes, and a constant
(``_score_seats(..., STAGE_PLAYED)``, ``bounded(state, 2)``) passes as a literal type of its own, so each
constant made a copy: three of ``_score_seats``, four of ``_by_side``, three of ``give_cards``, each
compiled and optimised again. A leaf is compiled for its arguments' plain types (a literal 2 as int64),
once; the constant is folded all the same where LLVM inlines the leaf.
"""

from __future__ import annotations

from numba import njit, types
from numba.core import config
from numba.core.registry import CPUDispatcher


class _LeafDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, typing calls from compiled code with their arguments' non-literal types."""

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        return super().get_call_template(plain, {k: types.unliteral(v) for k, v in kws.items()})


def leaf(func):
    """The decorator of a leaf kernel: compiled on first use, cached on disk, no reference counting."""
    if config.DISABLE_JIT:
        return func
    dispatcher = _LeafDispatcher(py_func=func, locals={}, targetoptions={"nopython": True, "_nrt": False})
    dispatcher.enable_caching()
    return dispatcher


#: A leaf inlined into its numba caller: for the per-card helpers of a leaf, whose arguments (arrays,
#: long tuples) cost more to pass in a call than their work. Inlined at numba's IR level, it is typed in
#: its caller and never compiled as a function of its own, so constants make no copies of it.
inline_leaf = njit(cache=True, _nrt=False, inline="always")
