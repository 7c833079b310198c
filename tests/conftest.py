"""Shared helpers: random and deliberately meld-heavy hands for the differential tests."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.cards import N_TYPES
from simcore.kernels.deal import deal_hands
from simcore.kernels.rng import chunk_states
from simcore.variants import Variant, load_variant


def dealt_hands(variant: Variant, n: int, seed: int) -> np.ndarray:
    """uint8[n, 24]: the first n hands (all seats) of seeded deals of the variant."""
    deals = -(-n // variant.players)
    out = deal_hands(variant.deck_cards, variant.players, variant.hand_size, chunk_states(seed, [0])[0], deals)
    return out[:, : variant.players].reshape(-1, N_TYPES)[:n].copy()


def crowded_hands(variant: Variant, n: int, seed: int) -> np.ndarray:
    """uint8[n, 24]: hands drawn from a few card types only, so runs, doubles and arounds are common.

    Each hand picks 5–12 of the deck's card types at random and fills up to the hand size with
    copies of them (never more copies than the deck holds).
    """
    rng = np.random.default_rng(seed)
    types = np.nonzero(variant.deck_copies)[0]
    hands = np.zeros((n, N_TYPES), dtype=np.uint8)
    for i in range(n):
        pool = rng.choice(types, size=min(len(types), rng.integers(5, 13)), replace=False)
        room = {int(t): int(variant.deck_copies[t]) for t in pool}
        for _ in range(variant.hand_size):
            open_types = [t for t, left in room.items() if left > 0]
            if not open_types:
                break
            t = open_types[rng.integers(len(open_types))]
            hands[i, t] += 1
            room[t] -= 1
    return hands


@pytest.fixture(scope="session")
def four_hand() -> Variant:
    return load_variant("four-hand-150")


@pytest.fixture(autouse=True)
def _private_store(tmp_path, monkeypatch):
    """Every test (and every command it starts) keeps results in its own store, never the user's, and
    runs here, not on a cluster named by the environment."""
    monkeypatch.setenv("PINOCHLE_STORE", str(tmp_path / "results.duckdb"))
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    import analyses.strong_report

    # the strong-play page keeps a stopped run's jobs to resume it; a test's must not outlive the test
    monkeypatch.setattr(analyses.strong_report, "DATA", tmp_path / "strong_records")


def pytest_addoption(parser):
    parser.addoption(
        "--fuzz-long",
        action="store_true",
        default=False,
        help="run the fuzz test deep (2,000 cases, a few minutes) instead of its short batch (120)",
    )
