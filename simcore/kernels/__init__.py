"""Numba kernels: the card model, streams, deal, meld, events, play, policies, one hand, whole games.

Importing the package, before any kernel compiles, makes numba's inliner copy a callee's scope once per
copy of its IR (:mod:`simcore.kernels.inlining`): the same code, compiled in less time.
"""

from simcore.kernels.inlining import install

install()
