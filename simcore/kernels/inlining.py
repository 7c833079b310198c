"""Numba's inlining of ``inline="always"`` functions, copying a callee's variable scope once per copy of
its IR rather than once per block.

Before it inlines a function, numba's ``InlineWorker.inline_ir`` copies the callee's IR (twice: one copy
to splice in, one to hand back unchanged), block by block, each block with ``copy.deepcopy`` and a memo
of its own. Every variable in a block refers to the function's one scope, which holds every variable of
the function, so each block's copy takes a copy of the whole scope: the work grows with blocks ×
variables. A phase of the hand kernel that has inlined others is large in both, and these copies were
about a sixth of the CPU time of compiling the hand kernel.

:func:`install` makes the blocks of one IR share one memo while ``inline_ir`` runs: the copy is what
``copy.deepcopy`` of all the blocks at once gives, equal block for block to numba's own, with one
scope where numba's had one equal scope per block (its inliner reads the scope of any block, and
asserts they are all equal). The compiled code is the same.
"""

from __future__ import annotations

import copy
import functools

try:
    from numba.core import inline_closurecall, ir
except ImportError:  # a numba laid out otherwise: its inliner is left as it is
    inline_closurecall = ir = None


class _OneScopeCopy:
    """The ``copy`` module as numba's inliner sees it during one inlining: a block's ``deepcopy`` shares
    a memo with the earlier blocks of the same scope (so the scope and its variables are copied once);
    everything else is :mod:`copy`'s own."""

    def __init__(self) -> None:
        self._memos: dict[int, tuple[dict, ir.Scope]] = {}

    def deepcopy(self, x, memo=None):
        if memo is None and isinstance(x, ir.Block):
            # the scope is kept with its memo, so its id names it for as long as the memo lives
            memo = self._memos.setdefault(id(x.scope), ({}, x.scope))[0]
        return copy.deepcopy(x, memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


def install() -> None:
    """Wraps numba's ``InlineWorker.inline_ir`` (once) so that each call copies with a
    :class:`_OneScopeCopy` of its own. Numba compiles under its compiler lock, one function at a time,
    so swapping the inliner module's ``copy`` for the call's length is seen by that call alone. A numba
    whose inliner does not copy through its module's ``copy`` is left alone."""
    if inline_closurecall is None:
        return
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if getattr(inline_closurecall, "copy", None) is not copy or not hasattr(worker, "inline_ir"):
        return  # a numba whose inliner is laid out otherwise is left as it is
    if getattr(worker.inline_ir, "copies_one_scope", False):
        return
    numba_inline_ir = worker.inline_ir

    @functools.wraps(numba_inline_ir)
    def inline_ir(self, *args, **kwargs):
        module_copy, inline_closurecall.copy = inline_closurecall.copy, _OneScopeCopy()
        try:
            return numba_inline_ir(self, *args, **kwargs)
        finally:
            inline_closurecall.copy = module_copy

    inline_ir.copies_one_scope = True
    worker.inline_ir = inline_ir
