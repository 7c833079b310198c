"""The heuristic's learned card play: its features on a hand-worked position, legal play, the kernel and the
Python bridge agreeing card for card, and its training data (``pinochle dd-data``)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from simcore.cards import ACE, JACK, KING, N_RANKS, N_TYPES, NINE, QUEEN, TEN
from simcore.cli import main
from simcore.kernels.card_features import FEATURES, N_FEATURES, card_features, decision_view, play_context
from simcore.kernels.policies import BASIC, C_LED, C_TRICK, C_VOID, parse_policies
from simcore.variants import load_variant

SPADES, HEARTS, CLUBS, DIAMONDS = 0, 1, 2, 3  # suit numbers as card types order them (suit * 6 + rank)


def card(suit: int, rank: int) -> int:
    return suit * N_RANKS + rank


def test_the_features_of_a_hand_worked_follow():
    # four-hand-150 (counters: A, 10, K one point each), hearts trump. Seat 1 (bidding side with seat 3)
    # follows in the second trick. Trick 1: seat 0 led the ace of clubs, seat 1 the nine of clubs, seat 2
    # the ten of diamonds (void in clubs, and a void must trump: void in hearts too), seat 3 the jack of
    # clubs. Trick 2: seat 0 leads the king of spades. Seat 1 holds A-Q of spades, 10 of hearts, K of clubs.
    v = load_variant("four-hand-150")
    trump = HEARTS
    side = (0, 1, 0, 1)
    ctx = play_context(
        v,
        side,
        trump,
        [(0, [card(CLUBS, ACE), card(CLUBS, NINE), card(DIAMONDS, TEN), card(CLUBS, JACK)])],
        (0, [card(SPADES, KING)]),
    )
    assert ctx[C_TRICK] == 1 and ctx[C_LED] == SPADES  # the king of spades counts a point
    assert ctx[C_VOID + 2] == (1 << CLUBS) | (1 << HEARTS) and ctx[C_VOID + 0] == ctx[C_VOID + 1] == 0
    hands = np.zeros((4, N_TYPES), dtype=np.uint8)
    for c in (card(SPADES, ACE), card(SPADES, QUEEN), card(HEARTS, TEN), card(CLUBS, KING)):
        hands[1, c] = 1
    # unseen by seat 1: every type of which a copy is neither played nor in his hand (two copies a type)
    played = {card(CLUBS, ACE), card(CLUBS, NINE), card(DIAMONDS, TEN), card(CLUBS, JACK)}
    unseen = sum(1 << t for t in range(N_TYPES) if (t in played) + hands[1, t] < 2)
    view = decision_view(hands, 1, 4, trump, np.int64(unseen), ctx)
    assert view[1] == 4 and view[7] == 1  # four cards held; counters of one point
    # (seat, legal, place, winning card, its seat, players, trump, unseen): second to the king of spades
    follow = (1, 0, 1, card(SPADES, KING), 0, 4, trump, np.int64(unseen))
    lead = (1, 0, 0, 0, 1, 4, trump, np.int64(unseen))
    f = dict(
        zip(
            FEATURES,
            card_features(view, hands, follow, card(SPADES, ACE), ctx, card(SPADES, QUEEN)),
        )
    )
    assert len(f) == N_FEATURES
    expected = {
        "heuristic": 0.0,  # the heuristic's card given is the queen
        "points": 1.0,
        "rank": 1.0,
        "trump": 0.0,
        "master": 1.0,  # the other ace of spades is out, but an equal card is not a higher one
        "sure_master": 0.0,  # trumps are still unseen and seat 0, an opponent, has not shown void in them
        "suit_length": 0.5,  # 2 spades of 4 cards
        "suit_unseen": 1.0,  # every spade type has a copy unseen
        "singleton": 0.0,
        "lowest_in_suit": 0.0,  # the queen is lower
        "top_in_suit": 1.0,
        "opponent_void": 0.0,
        "partner_void": 0.0,
        "beats": 1.0,  # the ace over the king
        "beats_safe": 0.0,
        "beats_trick_points": 1.0,
        "beats_points": 1.0,
        "loses_points": 0.0,
        "partner_points": 0.0,  # an opponent is winning
        "overtakes_partner": 0.0,
        "ruff": 0.0,
        "suit_points_unseen": 3 / 6,  # A, 10, K of spades unseen, a point each
        "beats_rank": 1.0,
    }
    assert {k: f[k] for k in expected} == pytest.approx(expected)
    # the ten of hearts on the same trick: a ruff that wins, a trump among four cards
    g = dict(
        zip(
            FEATURES,
            card_features(view, hands, follow, card(HEARTS, TEN), ctx, card(SPADES, QUEEN)),
        )
    )
    assert g["ruff"] == 1.0 and g["beats"] == 1.0 and g["trump_late"] == pytest.approx(1 / 4)
    assert g["master"] == 0.0 and g["partner_void"] == 0.0
    assert g["opponent_void"] == 1.0  # seat 2 threw a diamond on clubs: he holds no trump either
    # seat 2 (an opponent of seat 1) has shown void in clubs: the king of clubs' lead would meet a ruff
    h = dict(
        zip(
            FEATURES,
            card_features(view, hands, lead, card(CLUBS, KING), ctx, card(CLUBS, KING)),
        )
    )
    assert h["opponent_void"] == 1.0 and h["opponent_void_points"] == 1.0 and h["heuristic"] == 1.0
    assert h["beats"] == 0.0 and h["singleton"] == 1.0


@pytest.mark.parametrize("vid", ["partnership-auction", "four-hand-150", "double-deck", "auction"])
def test_the_learned_player_bridged_to_python_plays_the_kernels_hands(vid):
    # kernel_policy("heuristic") at every seat rebuilds the play's context from the state (shown voids, the
    # trick's points) and must take the hand kernel's card every time; the state refuses any illegal card
    from simcore.kernels import hand_record as h
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.state import new_hand
    from simcore.state.players import kernel_policy

    v = load_variant(vid)
    player = kernel_policy("heuristic")
    for seed in range(8):
        rec, trace, seats = trace_hand(v, seed, parse_policies("heuristic", v.players), with_seats=True)
        state = new_hand(v, seed)
        while not state.is_terminal():
            state.apply(player(state))
        assert state.record() == dict(zip(h.FIELDS, rec.tolist())) and state.returns() == seats.tolist()
        plays = [(a, b) for code, a, b, c in trace.tolist() if code == h.T_PLAY]
        assert [(s, a.value) for s, a in state.history() if a.kind == "play"] == plays, (vid, seed)


def _reference_card(hands, decision, ctx, held):
    """The learned card as the model defines it: the weights of the decision's group times every
    feature of card_features, the highest sum (the lowest card on ties), the heuristic's card before the
    model's tricks; and the gap to the next best score."""
    from simcore.kernels.learned import decision_group
    from simcore.kernels.learned_weights import MODEL_FROM, WEIGHTS
    from simcore.kernels.policies import choose_card

    seat, legal, n, win, win_seat, players, trump, unseen = decision
    heuristic = int(choose_card(hands, decision, ctx))
    view = decision_view(hands, seat, players, trump, unseen, ctx)
    g = decision_group(seat, n, ctx)
    if held > MODEL_FROM[g] or legal & (legal - 1) == 0:
        return heuristic, np.inf
    w = WEIGHTS[g]
    cards = [t for t in range(N_TYPES) if (legal >> t) & 1]
    scores = np.array([np.dot(w, card_features(view, hands, decision, t, ctx, heuristic)) for t in cards])
    order = np.argsort(-scores, kind="stable")
    return cards[order[0]], scores[order[0]] - scores[order[1]]


@pytest.mark.parametrize("vid", ["partnership-auction", "four-hand-150", "double-deck", "five-hand-widow"])
def test_the_fast_score_plays_the_models_card(vid):
    # play_card scores without the feature tuple, leaves out what every legal card shares and skips the
    # groups the heuristic decides; at every decision of learned hands (the Python bridge's positions) it
    # must play the card of the highest w . card_features (scores apart by more than rounding)
    import simcore.state.players as players
    from simcore.state import new_hand

    v = load_variant(vid)
    seen, played_model = [], 0
    real = players.play_card

    def spy(policy, hands, decision, ctx, held, held_bits):
        card = real(policy, hands, decision, ctx, held, held_bits)
        basic = real(BASIC, hands, decision, ctx, held, held_bits)
        seen.append((card, _reference_card(hands, decision, ctx, held), held, basic))
        return card

    player = players.kernel_policy("heuristic")
    try:
        players.play_card = spy
        for seed in range(12):
            state = new_hand(v, seed)
            while not state.is_terminal():
                state.apply(player(state))
    finally:
        players.play_card = real
    for card, (expected, gap), held, card_of_basic in seen:
        if gap > 1e-9:
            assert card == expected, (card, expected, held)
            played_model += card != card_of_basic
    assert played_model > 20  # decisions where the model overrules basic's card


def test_the_learned_card_is_always_legal_with_bounds_checked(tmp_path):
    # play_card on random positions (random hands, a random legal subset, any place in the trick), compiled
    # with bounds checking in a fresh process and cache
    code = """
import numpy as np
from simcore.kernels.learned import play_card
from simcore.kernels.play import held_mask
from simcore.kernels.policies import CTX_SIZE, C_POINTS, C_SIDE, C_VOID, C_LED, C_TRICK, HEURISTIC
from simcore.variants import load_variant
rng = np.random.default_rng(5)
v = load_variant("partnership-auction")
for i in range(3000):
    hands = np.zeros((4, 24), dtype=np.uint8)
    for c in rng.integers(0, 24, size=rng.integers(2, 13)):
        hands[i % 4, c] = min(hands[i % 4, c] + 1, 2)
    held = [t for t in range(24) if hands[i % 4, t]]
    legal = [t for t in held if rng.random() < 0.6] or held[:1]
    if len(legal) < 2:
        continue
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[C_POINTS:C_POINTS + 24] = v.trick_points
    ctx[C_SIDE:C_SIDE + 4] = (1, 0, 1, 0)
    ctx[C_VOID:C_VOID + 4] = rng.integers(0, 16, size=4)
    ctx[C_LED], ctx[C_TRICK] = rng.integers(0, 4), rng.integers(0, 30)
    n = int(rng.integers(0, 4))
    unseen = np.int64(rng.integers(0, 1 << 24))
    decision = (i % 4, np.int64(sum(1 << c for c in legal)), n, int(rng.integers(0, 24)), (i + 1) % 4, 4,
                int(rng.integers(0, 4)), unseen)
    t = play_card(HEURISTIC, hands, decision, ctx, int(rng.integers(1, 9)), held_mask(hands[i % 4]))
    assert t in legal, (t, legal)
print("ok")
"""
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_dd_data_writes_the_documented_columns(tmp_path, capsys):
    from simcore.answers.dd_data import COLUMNS

    assert (
        main(["dd-data", "--variant", "four-hand-150", "--hands", "3", "--tricks-left", "3", "--out", str(tmp_path)])
        == 0
    )
    frame = pd.read_parquet(tmp_path)
    assert list(frame.columns) == list(COLUMNS) and len(frame) > 0
    by = frame.groupby(["seed", "trick", "place"])
    assert (by["loss"].min() == 0).all() and (frame["loss"] >= 0).all()  # the best card loses nothing
    assert (by["chosen"].sum() == 1).all() and (frame["chosen"] == frame["heuristic"]).all()
    assert (by.size() == by["legal"].first()).all() and (frame["legal"] >= 2).all()
    assert set(frame["tricks_left"]) <= {1, 2, 3} and (frame["unit"] == 1).all()
    assert "rows a second" in capsys.readouterr().out
    # a second run over the same seeds keeps the files written
    assert (
        main(["dd-data", "--variant", "four-hand-150", "--hands", "3", "--tricks-left", "3", "--out", str(tmp_path)])
        == 0
    )
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    "argv, message",
    [
        (["dd-data", "--variant", "two-hand", "--out", "{tmp}"], "two-hand: a stock game"),
        (["dd-data", "--tricks-left", "13", "--out", "{tmp}"], "--tricks-left 13: give 1 to 12"),
        (["dd-data", "--hands", "0", "--out", "{tmp}"], "--hands"),
        (["dd-data", "--out", "{tmp}/file.txt"], "is a file, not a directory"),
        (["simulate", "--policy", "heuristic,smart"], "'smart' is not a policy; choose from random, basic, heuristic"),
        (["simulate", "--policy", "learned"], "'learned' is not a policy; choose from random, basic, heuristic"),
    ],
)
def test_bad_input_is_refused_in_one_line(tmp_path, capsys, argv, message):
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(SystemExit) as exc:
        status = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
        raise SystemExit(status)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_the_heuristic_decides_only_where_no_other_term_can_outweigh_it():
    # features are in [0, bound]: two cards' scores differ by at most sum |w_k| * bound_k over the
    # others, so the heuristic's weight must exceed it (beats_trick_points may reach 5 units)
    from simcore.kernels.card_features import FEATURE_BOUNDS
    from simcore.kernels.learned import heuristic_decides

    w = np.zeros((4, N_FEATURES))
    w[:, 0] = 1.0
    w[1, FEATURES.index("rank")] = 0.6
    w[1, FEATURES.index("points")] = -0.5  # 1.1 of spread against a heuristic weight of 1
    w[2, FEATURES.index("beats_trick_points")] = 0.19  # 0.95 below 1, as its bound is 5
    w[3, FEATURES.index("beats_trick_points")] = 0.21  # 1.05: a trick of five aces could outweigh it
    assert FEATURE_BOUNDS[FEATURES.index("beats_trick_points")] == 5.0
    assert heuristic_decides(w).tolist() == [True, False, True, False]


@pytest.mark.parametrize(
    "vid, graded",
    [("partnership-auction", True), ("four-hand-150", False), ("double-deck", False), ("four-pass", False)],
)
def test_a_systems_points_pick_its_weight_group(vid, graded):
    # graded points (11-10-4-3-2) take rows 8-15, equal counters rows 0-7 whether they count 1 or 10
    from analyses.fit_learned import graded_points
    from simcore.kernels.learned import decision_group

    v = load_variant(vid)
    ctx = play_context(v, (1, 0, 1, 0), 0, [], (0, []))
    assert decision_group(0, 0, ctx) == (8 if graded else 0) and decision_group(1, 5, ctx) == 7 + (8 if graded else 0)
    assert graded_points(v.trick_points) == graded


def test_a_fit_without_the_heuristic_keeps_its_weight_at_zero_and_learns_from_the_rest():
    # 200 decisions of two cards: the card marked by feature 1 loses nothing, the other 1 unit; the
    # heuristic's indicator (feature 0) marks the losing card half the time
    from analyses.fit_learned import argmax_loss, fit_group

    rng = np.random.default_rng(0)
    n = 200
    x = np.zeros((2 * n, 3))
    good = rng.integers(0, 2, n)
    x[2 * np.arange(n) + good, 1] = 1.0
    x[2 * np.arange(n) + rng.integers(0, 2, n), 0] = 1.0
    x[:, 2] = rng.random(2 * n)
    loss = 1.0 - x[:, 1]
    decision = np.repeat(np.arange(n), 2)
    w = fit_group(x, loss, decision, steps=200, heuristic=False)
    assert w[0] == 0.0 and w[1] > 1.0
    assert argmax_loss(x, loss, decision, w) == 0.0
    with_heuristic = fit_group(x, loss, decision, steps=200)
    assert with_heuristic[0] != 0.0
