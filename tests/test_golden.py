"""Golden playthroughs: one seeded hand per system, recorded as readable text in tests/golden/.

A change of rules or policies that alters a hand fails here; after checking the new hand by eye,
rewrite the files on purpose with ``PINOCHLE_UPDATE_GOLDEN=1 pytest tests/test_golden.py``.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from simcore import hand as h
from simcore.playthrough import playthrough_text
from simcore.rng import chunk_states
from simcore.simulate import parse_policies
from simcore.variants import load_variant

GOLDEN = Path(__file__).parent / "golden"
CASES = [(vid, "heuristic") for vid in (
    "four-hand-150", "partnership-auction", "partnership", "firehouse", "check", "four-pass",
    "ok-pinochle", "double-deck", "double-pack", "auction")] + [("four-hand-150", "random")]
SEED = 7


@pytest.mark.parametrize("vid, policy", CASES)
def test_playthrough_matches_its_golden_file(vid, policy):
    v = load_variant(vid)
    text = playthrough_text(v, SEED, parse_policies(policy, v.players))
    path = GOLDEN / f"{vid}-{policy}.txt"
    if os.environ.get("PINOCHLE_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with PINOCHLE_UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("vid", ["four-hand-150", "double-deck", "auction"])
def test_a_traced_hand_is_the_same_hand_the_simulation_plays(vid):
    v = load_variant(vid)
    policies = parse_policies("heuristic", v.players)
    rec, trace = h.trace_hand(v, SEED, policies)
    out = np.zeros((3, h.N_FIELDS), dtype=np.int64)
    h.hands_batch(chunk_states(SEED, [0]), np.array([3]), np.array([0]), v.deck_cards, v.players,
                  v.hand_size, v.meld_table(), v.meld_flags(), v.play_rules(), v.trick_points,
                  v.last_trick, v.hand_rules, policies, v.deck_copies, out)
    assert np.array_equal(rec, out[0])
    # the trace holds every card of the deal exactly once, and every card played
    dealt = trace[trace[:, 0] == h.T_DEAL]
    assert dealt[:, 3].sum() == v.deck_size
    played = trace[trace[:, 0] == h.T_PLAY]
    if rec[h.F_OUTCOME] == h.PLAYED:
        assert len(played) == v.players * v.hand_size
