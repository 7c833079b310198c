"""Numba kernels: the card model, streams, deal, meld, events, play, policies, one hand, whole games."""
