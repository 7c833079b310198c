"""Numba's inliner with one scope copy per IR copy (simcore.kernels.inlining): the copy equals numba's
own, block for block, with one scope; the wrapper is installed once and still inlines."""

from __future__ import annotations

import copy

import numpy as np
from numba import njit
from numba.core import inline_closurecall
from numba.core.compiler import run_frontend

from simcore.kernels.inlining import _OneScopeCopy, install


def _branchy(a, n):
    total = 0
    for i in range(n):
        if a[i] > 2:
            total += a[i]
        else:
            total -= 1
    return total


def _blocks():
    return run_frontend(_branchy).blocks


def test_the_copy_is_numbas_own_with_one_scope():
    blocks = _blocks()
    assert len(blocks) > 3
    ours = _OneScopeCopy()
    theirs = {label: copy.deepcopy(block) for label, block in blocks.items()}
    mine = {label: ours.deepcopy(block) for label, block in blocks.items()}
    assert mine == theirs
    assert len({id(b.scope) for b in mine.values()}) == 1 and len({id(b.scope) for b in theirs.values()}) == len(blocks)
    assert all(m.scope is not b.scope and m.body is not b.body for m, b in zip(mine.values(), blocks.values()))
    assert ours.copy is copy.copy  # the rest is the copy module's


def test_install_wraps_numbas_inliner_once_and_inlining_still_works():
    install()
    wrapped = inline_closurecall.InlineWorker.inline_ir
    install()
    assert inline_closurecall.InlineWorker.inline_ir is wrapped and wrapped.copies_one_scope

    inner = njit(inline="always")(_branchy)

    @njit
    def outer(a):
        return inner(a, a.shape[0]) + inner(a, 2)

    a = np.array([1, 5, 3, 0], dtype=np.int64)
    assert outer(a) == _branchy(a, 4) + _branchy(a, 2)
    assert inline_closurecall.copy is copy  # put back after each inlining
