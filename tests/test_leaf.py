"""The leaf decorator (simcore/kernels/leaf.py): no reference counting, one copy per set of argument types."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types
from numba.core.errors import NumbaError

from simcore.kernels.leaf import leaf


@leaf
def _shifted(x, by):
    return x + by


@njit
def _twice_shifted(x):
    # two constants and a variable: numba would type the constants as Literal[int](1) and (2)
    return _shifted(x, 1) + _shifted(x, 2) + _shifted(x, x)


@leaf
def _allocates(n):
    return np.zeros(n).sum()


def test_a_leaf_called_with_constants_compiles_once_for_their_plain_type():
    assert _twice_shifted(np.int64(5)) == 6 + 7 + 10
    assert _shifted.signatures == [(types.int64, types.int64)]


def test_a_leaf_may_not_allocate():
    with pytest.raises(NumbaError):
        _allocates(3)
