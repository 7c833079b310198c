"""The per-decision game API (simcore.state): replays of the kernel's decisions end in the kernel's record,
the kernel's own players bridged to Python replay its hands, illegal actions are refused, random legal
play always finishes, and an observation never shows another seat's hidden cards."""

import random

import pytest

from simcore.api import variants
from simcore.cards import card_name
from simcore.kernels import hand_record as h
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.policies import parse_policies
from simcore.reference.hand import CHANCE
from simcore.state import KINDS, MAX_CODE, TERMINAL, Action, IllegalAction, new_hand
from simcore.state.players import kernel_policy
from simcore.variants import load_variant

SYSTEMS = list(variants()["id"])
SEEDS = 30


def _kernel(v, seed, policy):
    """(record dict, seat scores, the decisions in the trace) of the kernel's hand for ``seed``."""
    rec, trace, seats = trace_hand(v, seed, parse_policies(policy, v.players), with_seats=True)
    return dict(zip(h.FIELDS, rec.tolist())), seats.tolist(), trace.tolist()


@pytest.mark.parametrize("vid", SYSTEMS)
def test_a_state_driven_by_the_kernels_decisions_ends_with_the_kernels_record(vid):
    # the decisions of each traced hand, taken from the trace by the referee's reading of it and applied
    # one by one (chance from the trace too), end in the kernel's record and seat scores: 30 seeds per
    # system and player
    from simcore.reference.hand import Table, _TraceFeed

    v = load_variant(vid)
    for policy in ("heuristic", "random"):
        for seed in range(SEEDS):
            rec, seats, trace = _kernel(v, seed, policy)
            feed = _TraceFeed(v, [tuple(r) for r in trace], Table(v.players), None)
            state = new_hand(v, chance=feed.answer)  # the deal, turned card and draws from the trace too
            feed.table = state._table
            while not state.is_terminal():
                state.apply(Action(state.request().kind, feed.answer(state.request())))
            assert state.record() == rec, (vid, policy, seed)
            assert state.returns() == seats, (vid, policy, seed)


@pytest.mark.parametrize("vid", SYSTEMS)
def test_the_kernels_players_bridged_to_python_play_the_kernels_hands(vid):
    # kernel_policy at every seat, drawing from the state's stream, takes the kernel's decision at every
    # step: same record, seat scores and every card played, trick by trick
    v = load_variant(vid)
    for policy in ("heuristic", "random"):
        for seed in range(SEEDS // 3):
            rec, seats, trace = _kernel(v, seed, policy)
            state, player = new_hand(v, seed), kernel_policy(policy)
            while not state.is_terminal():
                state.apply(player(state))
            assert state.record() == rec and state.returns() == seats, (vid, policy, seed)
            plays = [(a, b) for code, a, b, c in trace if code == h.T_PLAY]
            assert [(s, a.value) for s, a in state.history() if a.kind == "play"] == plays


def test_illegal_actions_are_refused_with_a_clear_error_and_change_nothing():
    state = new_hand("four-hand-150", seed=3)
    assert state.current_player() == 0 and state.request().kind == "bid"
    legal = state.legal_actions()
    assert Action("bid", 0) in legal and str(Action("bid", 0)) == "pass"
    with pytest.raises(IllegalAction, match="next legal bid was"):
        state.apply(Action("bid", legal[1].value + 1))
    with pytest.raises(IllegalAction, match="to bid, not to play"):
        state.apply(Action("play", 0))
    with pytest.raises(IllegalAction, match="not an action"):
        state.apply("pass")
    assert len(state.history()) == 1 and state.current_player() == 0  # the deal only; still seat 0's turn
    state.apply(legal[1].code)  # the integer encoding works too
    assert state.history()[-1] == (0, legal[1])
    # card play: a card the seat does not hold
    player = kernel_policy("heuristic")
    while state.request().kind != "play":
        state.apply(player(state))
    seat = state.current_player()
    held = {a.value for a in state.legal_actions()}
    with pytest.raises(IllegalAction, match=f"seat {seat} may not play"):
        state.apply(Action("play", next(c for c in range(24) if c not in held)))


@pytest.mark.parametrize("code", [-1, -(2**63), MAX_CODE + 1, 2**31, 10**30])
def test_a_code_outside_the_codes_range_is_refused_naming_it_and_the_range(code):
    with pytest.raises(ValueError, match=f"codes are 0 to {MAX_CODE}") as raised:
        Action.from_code(code)
    assert str(code)[:20] in str(raised.value) and len(str(raised.value)) < 100
    state = new_hand("four-hand-150", seed=3)
    with pytest.raises(IllegalAction, match="out of range"):
        state.apply(code)
    assert len(state.history()) == 1  # the deal only: nothing applied


def test_every_action_code_in_range_decodes_and_encodes_back():
    for code in (0, 1, 65535, 65536, MAX_CODE):
        action = Action.from_code(code)
        assert action.kind in KINDS and action.code == code


@pytest.mark.parametrize("vid", SYSTEMS)
def test_random_legal_play_always_finishes_and_clones_replay(vid):
    v = load_variant(vid)
    for seed in range(3):
        state, rnd = new_hand(v, seed), random.Random(seed)
        half = None
        while not state.is_terminal():
            assert state.current_player() >= 0 and state.legal_actions()
            if half is None and len(state.history()) > 20:
                half = state.clone()
            state.apply(rnd.choice(state.legal_actions()))
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        rec = state.record()
        assert set(rec) == set(h.FIELDS) and len(state.returns()) == v.players
        if half is not None:  # the clone continues independently to the same end with the same moves
            rest = state.history()[len(half.history()) :]
            for seat, action in rest:
                if seat != CHANCE:
                    half.apply(action)
            assert half.record() == rec and half.history() == state.history()


def test_an_observation_never_shows_another_seats_hidden_cards():
    # two deals that differ only in the cards of seats 1 and 2 (swapped) look the same to seats 0 and 3
    # through the auction and the exchange until the meld is tabled (then it shows), while the same actions
    # stay legal
    v = load_variant("partnership-auction")
    first = new_hand(v, seed=5)
    dealt = [[t for t in range(24) for _ in range(n[t])] for n in first._table.hands + [first._table.widow]]
    a = new_hand(v, 5, cards=dealt)  # card types, as the state takes them (or text)
    b = new_hand(v, 5, cards=[dealt[0], dealt[2], dealt[1], dealt[3], dealt[4]])
    player = kernel_policy("heuristic")
    checked = 0
    while not a.is_terminal() and a.observation(0)["meld"] is None:
        for seat in (0, 3):
            assert a.observation(seat) == b.observation(seat)
            checked += 1
        action = player(a)
        if action not in b.legal_actions():
            break
        a.apply(action)
        b.apply(action)
    assert checked > 20
    assert a.observation(1)["hand"] != b.observation(1)["hand"]  # the two deals really differ
    # passes are seen only by the two partners
    for who, kind, card, to in a.observation(1)["moves"]:
        if kind == "give":
            assert (card is None) == (1 not in (who, to))


def test_the_modules_example_runs():
    import doctest

    import simcore.state

    failed, tried = doctest.testmod(simcore.state)
    assert tried >= 5 and failed == 0


def test_new_hand_is_in_the_api_and_deals_the_seeds_first_hand():
    import simcore

    state = simcore.new_hand("four-hand-150", seed=2)
    rec, _, trace = _kernel(load_variant("four-hand-150"), 2, "heuristic")
    dealt = [[0] * 24 for _ in range(4)]
    for code, a, b, c in trace:
        if code == h.T_DEAL and a < 4:
            dealt[a][b] += c
    assert rec["redeals"] == 0 and state._table.hands == dealt
    assert state.observation(0)["hand"] == [card_name(t) for t in range(24) for _ in range(dealt[0][t])]


def test_duel_plays_a_python_policy_against_the_heuristic_and_refuses_bad_policies(tmp_path, monkeypatch, capsys):
    import json

    from simcore.cli import main

    # the heuristic against itself: the same hands, so exactly no difference
    assert main(["duel", "--variant", "auction", "--policy", "heuristic", "--hands", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0} and out["seat_sets"] == [[0], [1], [2]]
    # a weak policy (always the first legal action) loses points a deal to the heuristic, partners swapped
    assert (
        main(
            [
                "duel",
                "--variant",
                "four-hand-150",
                "--policy",
                "simcore.state.players:first_legal",
                "--hands",
                "4",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["seat_sets"] == [[0, 2], [1, 3]] and out["hands"] == 4
    assert out["difference"]["low"] <= out["difference"]["mean"] <= out["difference"]["high"]
    # bad policies: one line naming what was wrong, exit status 2
    (tmp_path / "cheat.py").write_text(
        "from simcore.state import Action\ndef bot(state):\n    return Action('bid', 7)\nnot_callable = 3\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for spec, message in (
        ("nosuchmodule:bot", "cannot import"),
        ("cheat:missing", "has no 'missing'"),
        ("cheat:not_callable", "not a callable"),
        ("cheat", "module:function"),
        ("learned", "or a built-in: random, basic, heuristic, sampling"),  # the old name of the heuristic
        ("cheat:bot", "returned Action(kind='bid', value=7) at seat 0"),
    ):
        assert main(["duel", "--variant", "four-hand-150", "--policy", spec, "--hands", "1"]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, (spec, err)
