"""Pinochle odds, meld and simulation for every rule system.

The notebook API (:mod:`simcore.api`) is re-exported here lazily: ``from simcore import odds`` loads it
(with numpy, numba and pandas) on first use, so ``import simcore`` and ``pinochle --help`` stay cheap.
``simcore.variants`` is the rules package; the function listing the shipped systems is
``simcore.api.variants``.

Importing the package points numba's cache at a directory keyed by the kernels' sources
(:mod:`simcore.kernel_cache`).
"""

from __future__ import annotations

from simcore.kernel_cache import use_keyed_cache

use_keyed_cache()  # before any kernel module imports numba: a changed kernel never loads stale code

#: The names of :mod:`simcore.api` importable from ``simcore`` (``variants`` is the rules package).
API = (
    "advise",
    "analyse",
    "bid_odds",
    "compare",
    "games",
    "hand_records",
    "hold_odds",
    "makeable",
    "meld",
    "new_hand",
    "odds",
    "simulate",
    "solve",
    "widow",
)

__all__ = list(API)


def __getattr__(name: str):
    if name in API:
        from simcore import api

        return getattr(api, name)
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(API))
