"""Playouts of a hand's remaining tricks (simcore.kernels.playout) and the sampling player's use of them."""

import os
import subprocess
import sys

import numpy as np
import pytest

from simcore.kernels.compiled import hand_rules
from simcore.kernels.playout import playout_values
from simcore.state import new_hand
from simcore.state.players import kernel_policy
from simcore.state.sampler import SamplingPlayer, playout_start
from simcore.variants import load_variant
from simcore.variants.loader import shipped_ids


def _decisions(v, seed):
    """Every card-play decision after any stock of the hand of ``seed`` played by the heuristic at every
    seat: (observation, hands at the trick's start, the trick so far, the card played, tricks before),
    and the finished state."""
    heuristic = kernel_policy("heuristic")
    state, seen = new_hand(v, seed), []
    while not state.is_terminal():
        r, action = state.request(), heuristic(state)
        if r.kind == "play" and not state.observation(r.seat)["stock"]:
            t = state._table  # the test may look: the playout gets the real hands
            hands = np.array(t.hands, dtype=np.uint8)
            for s, c in t.trick:
                hands[s, c] += 1
            seen.append((state.observation(r.seat), hands, [c for _, c in t.trick], action.value, len(t.tricks)))
        state.apply(action)
    return seen, state


def _playout(v, obs, hands, trick, cards, side):
    out = np.zeros(len(cards), dtype=np.float64)
    start = playout_start(v, obs, hands, trick, side)
    copies = np.asarray(v.deck_copies, dtype=np.int64)
    playout_values(start, np.asarray(cards, dtype=np.int64), hand_rules(v), v.trick_points, copies, out)
    return out


@pytest.mark.parametrize("vid", shipped_ids())
def test_a_playout_of_the_real_deal_is_the_heuristics_own_hand(vid):
    # the heuristic at every seat, every hand its own: from any card of the hand, the playout of the real
    # hands with the card it played takes exactly the points its side took from that trick on
    v = load_variant(vid)
    checked = 0
    for seed in range(3):
        seen, state = _decisions(v, seed)
        t = state._table
        side = tuple(int(x) for x in t.side)
        for obs, hands, trick, card, before in seen:
            got = _playout(v, obs, hands[None], trick, [card], side)[0]
            taken = sum(pts for _, _, winner, pts in t.tricks[before:] if side[winner] == 1)
            assert got == taken, (seed, before, len(trick))
            checked += 1
    assert checked >= 3 * v.players  # hands thrown in or forfeited unseen have no play


def test_a_playout_value_is_the_mean_over_deals_and_holds_the_points_in_play():
    v = load_variant("partnership-auction")
    seen, state = _decisions(v, 2)
    side = tuple(int(x) for x in state._table.side)
    obs, hands, trick, card, _ = next(d for d in seen if len(d[2]) == 1 and len(d[0]["hand"]) == 9)
    leader = obs["trick"][0][0]
    a, b = (leader + 2) % 4, (leader + 3) % 4  # the two seats yet to play after the one deciding
    other = hands.copy()
    other[[a, b]] = hands[[b, a]]  # another deal of the cards unseen by the seat deciding
    one, two = (_playout(v, obs, h[None], trick, [card], side)[0] for h in (hands, other))
    both = _playout(v, obs, np.stack([hands, other]), trick, [card], side)[0]
    assert both == (one + two) / 2 and one != two
    in_play = int((hands.astype(np.int64) * v.trick_points).sum()) + v.last_trick
    assert 0 <= min(one, two) and max(one, two) <= in_play


def test_the_sampler_with_rollouts_plays_legal_cards_and_weighs_them_by_playouts():
    v = load_variant("partnership-auction")
    sp = SamplingPlayer(samples=3, solve_from=3, rollout_from=12)
    heuristic = kernel_policy("heuristic")
    weighed = 0
    for seed in range(2):
        state = new_hand(v, seed)
        while not state.is_terminal():
            seat, r = state.current_player(), state.request()
            if r.kind == "play" and seat % 2 == 0:
                obs = state.observation(seat)
                action = sp(state)
                assert action.value in r.legal
                if len(r.legal) > 1 and len(obs["hand"]) > 3:
                    values = sp.rollout_values(state, seat, r.legal)
                    sign = 1 if sp._side(v, obs)[seat] == 1 else -1
                    best = max(sign * x for x in values.values())
                    assert sign * values[action.value] == best  # the card played is a best one
                    weighed += 1
            else:
                action = heuristic(state)
            state.apply(action)
        assert state.record() is not None
    assert weighed >= 10
    assert "rollout_from=12" in repr(sp)
    with pytest.raises(ValueError):
        SamplingPlayer(rollout_from=-1)


def test_a_playout_reads_no_index_out_of_bounds(tmp_path):
    # numba accepts index -1 silently: the playouts of one hand, with bounds checked
    code = """
import numpy as np
from tests.test_playout import _decisions, _playout
from simcore.variants import load_variant
v = load_variant("five-hand-widow")
seen, state = _decisions(v, 1)
side = tuple(int(x) for x in state._table.side)
for obs, hands, trick, card, _ in seen[::7]:
    _playout(v, obs, hands[None], trick, [card], side)
print("ok")
"""
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_cli_duel_and_bench_take_rollout_from_and_refuse_a_negative_one(capsys):
    import json

    from simcore.cli import main

    args = ["duel", "--variant", "partnership-auction", "--policy", "sampling", "--hands", "2", "--samples", "2"]
    assert main([*args, "--solve-from", "2", "--rollout-from", "12", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["policy"] == "sampling" and got["hands"] == 2
    assert main([*args, "--rollout-from", "-1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    bench = ["bench", "--sampling", "1", "--samples", "2", "--solve-from", "2", "--rollout-from", "8", "--json"]
    assert main(bench) == 0
    for r in json.loads(capsys.readouterr().out):
        assert r["rollout_from"] == 8 and r["rollouts"] > 0 and r["ms_per_rollout"] > 0


def test_strong_play_answers_name_the_playouts_and_refuse_a_bad_rollout_from():
    from simcore import api
    from simcore.answers.strong import Play, StrongPlayError, check_play

    play = Play("strong", samples=2, solve_from=2, rollout_from=12)
    assert "played out by the heuristic from 12 tricks" in play.text() and play.params()["rollout_from"] == 12
    with pytest.raises(StrongPlayError):
        check_play(load_variant("four-hand-150"), Play("strong", rollout_from=-2))
    with pytest.raises(ValueError, match="rollout_from"):
        api.bid_odds("four-hand-150", hands=2, meld=10, play="strong", rollout_from=-1)


def test_the_sample_curve_sets_playouts_beside_samples(tmp_path, monkeypatch):
    from analyses import sample_curve

    monkeypatch.setattr(sample_curve, "DATA", tmp_path)
    v = load_variant("partnership-auction")
    rows = sample_curve.curve(v, 2, [(2, 0, False, 2), (2, 8, False, 2)])
    assert [(r["samples"], r["rollout_from"]) for r in rows] == [(2, 0), (2, 8)]
    assert rows[0]["rollouts"] == 0 < rows[1]["rollouts"] and rows[1]["against_top"] == 0
    table = sample_curve.markdown(v, rows)
    assert "| 2, playouts from 8 tricks from the end |" in table
    assert "against 2, playouts from 8 tricks from the end, paired" in table
    assert "tricks solved" not in table
    solved = sample_curve.curve(v, 2, [(2, 8, False, 2), (2, 8, False, 3)])
    assert [r["solve_from"] for r in solved] == [2, 3] and solved[1]["against_top"] == 0
    assert "| 2, playouts from 8 tricks from the end, the last 2 tricks solved |" in sample_curve.markdown(v, solved)
    read = sample_curve.curve(v, 2, [(2, 0, False, 2, False), (2, 0, False, 2, True)])
    assert [r["read_duties"] for r in read] == [False, True] and "| 2, reading the duties |" in sample_curve.markdown(
        v, read
    )
    setting = sample_curve.Setting
    assert sample_curve.partial_dir(v, 2, setting(2, 0, False, 2, True)) != sample_curve.partial_dir(
        v, 2, setting(2, 0, False, 2)
    )
    assert sample_curve.partial_dir(v, 2, setting(2, 8, False, 2)) != sample_curve.partial_dir(
        v, 2, setting(2, 0, False, 2)
    )
