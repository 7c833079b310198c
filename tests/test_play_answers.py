"""Answers under strong play (simcore.answers.strong): `advise --play` and `bid-odds --play`."""

from __future__ import annotations

import json
from dataclasses import replace

import numba
import numpy as np
import pytest

from simcore import api
from simcore.answers.simulate import hand_rows
from simcore.answers.strong import (
    DD_POINTS,
    GAVE_UP,
    ROW_WIDTH,
    Play,
    deal_rows,
    escalated_rows,
    given_state,
    heuristic_state,
    heuristic_totals,
    play_totals,
    record_row,
    run_deals,
)
from simcore.cards import N_TYPES, parse_hand
from simcore.cli import main
from simcore.kernels import hand_record as h
from simcore.kernels.compiled import kernel_rules
from simcore.kernels.condition import NO_CONDITION
from simcore.kernels.policies import HEURISTIC
from simcore.kernels.rng import chunk_states
from simcore.run.runner import Execution, executing
from simcore.state import new_hand
from simcore.variants import load_variant

PA_HAND = "AS AS 10S KS QS JS AH KH QH AD JD 9C"
HANDS = {
    "partnership-auction": PA_HAND,
    "four-hand-150": "AS 10S KS QS JS AH KH QH AD JD 9C 9C",
    "double-deck": "AS AS 10S 10S KS KS QS QS JS JS AH AH KH KH QH QH AD AD JD JD",
}


@pytest.mark.parametrize("vid", sorted(HANDS))
def test_the_heuristic_through_the_state_is_the_kernels_advise(vid):
    # the strong answers play the heuristic's side through the state API: on the same chunk streams
    # the records must be the kernel's own set-contract records, field for field (no redeal fires here)
    v, seat, seed, n = load_variant(vid), 1, 7, 25
    given = parse_hand(HANDS[vid])
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), v.deck_copies - given)
    contract = np.array([seat, v.lowest_contract], dtype=np.int64)
    ks = np.arange(n, dtype=np.int64)
    policies = np.full(v.players, HEURISTIC, dtype=np.int64)
    kernel = hand_rows(
        kernel_rules(v),
        policies,
        np.zeros(v.players),
        chunk_states(seed, ks.tolist()),
        np.ones(n, dtype=np.int64),
        ks,
        deal=(rest, given, contract, NO_CONDITION),
    )
    assert np.all(kernel[:, h.F_REDEALS] == 0)
    states = chunk_states(seed, ks.tolist())
    mine = np.array([record_row(heuristic_state(given_state(v, given, seat, seed, k, states[k].copy())())) for k in ks])
    assert np.array_equal(kernel, mine)
    assert np.all(mine[:, h.F_BIDDER] == seat) and np.all(mine[:, h.F_BID] == v.lowest_contract)


def test_a_set_contract_skips_the_auction_and_survives_a_clone():
    v = load_variant("four-hand-150")
    state = new_hand(v, 3, contract=(2, v.lowest_contract))
    assert state.request().kind != "bid"
    twin = heuristic_state(state.clone())
    rec = twin.record()
    assert rec["bidder"] == 2 and rec["bid"] == v.lowest_contract
    assert sum(sum(x) for x in state.hands()) == v.players * v.hand_size


def _rows(v, side_meld: int, dd: int, gave_up: int = 0) -> np.ndarray:
    """One played row whose heuristic record has the side's meld and whose solve found ``dd`` points."""
    row = np.zeros((1, ROW_WIDTH), dtype=np.int64)
    rec = row[0, : h.N_FIELDS]
    rec[h.F_BIDDER], rec[h.F_BID], rec[h.F_OUTCOME] = 0, v.lowest_contract, h.PLAYED
    rec[h.F_SIDE_MELD], rec[h.F_MADE], rec[h.F_SIDE_SCORE] = side_meld, 1, side_meld + 100
    rec[h.F_SIDE_TRICKS] = 100
    row[0, h.N_FIELDS : 2 * h.N_FIELDS] = rec
    row[0, DD_POINTS], row[0, GAVE_UP] = dd, gave_up
    return row


def test_double_dummy_totals_save_the_meld_only_with_a_trick():
    # partnership-auction saves meld by taking a trick: one point stands for one trick (dd_make)
    v, dd = load_variant("partnership-auction"), Play("dd")
    t = play_totals(v, dd, _rows(v, 200, 190))
    assert t.total[0] == 390 and t.makes(390)[0] and not t.makes(400)[0]
    t = play_totals(v, dd, _rows(v, 200, 0))
    assert t.total[0] == 0 and not t.makes(v.lowest_contract)[0]
    t = play_totals(v, dd, _rows(v, 200, -1, gave_up=1))
    assert not t.known[0] and t.unknown(250)[0] and not t.makes(250)[0]
    # the heuristic's own total comes from its record: meld plus trick points
    assert heuristic_totals(v, _rows(v, 200, 190)).total[0] == 300


def test_a_threshold_solve_agrees_with_the_exact_points():
    # --bid asks one null-window question; it must say "made" exactly where the exact points make it
    v = load_variant("partnership-auction")
    given = tuple(int(x) for x in parse_hand(PA_HAND))
    states, sizes, ks = chunk_states(5, [0, 1]), np.ones(2, dtype=np.int64), np.arange(2, dtype=np.int64)
    exact = deal_rows(v, Play("dd", limit=3_000_000), 5, (given, 0), None, states, sizes, ks)
    solved = exact[:, GAVE_UP] == 0
    assert solved.any(), "no deal solved within the limit: pick other deals"
    t = play_totals(v, Play("dd"), exact)
    for bid in (300, 350, 400):
        one = deal_rows(v, Play("dd", limit=3_000_000, bid=bid), 5, (given, 0), None, states, sizes, ks)
        asked = play_totals(v, Play("dd", bid=bid), one)
        both = solved & (one[:, GAVE_UP] == 0)
        assert np.array_equal(asked.makes(bid)[both], t.makes(bid)[both])


def test_escalation_solves_again_only_the_deals_that_gave_up_and_keeps_every_answer():
    # deal 0 of these four gives up at 20,000 trick starts and is answered at 200,000 (measured)
    v, bid = load_variant("partnership-auction"), 350
    given = (tuple(int(x) for x in parse_hand(PA_HAND)), 0)
    ks = np.arange(4, dtype=np.int64)
    states, sizes = chunk_states(5, ks.tolist()), np.ones(4, dtype=np.int64)
    hurried = Play("dd", limit=20_000, bid=bid, budget=50_000_000)
    first = deal_rows(v, hurried, 5, given, None, states, sizes, ks)
    unhurried = deal_rows(v, Play("dd", limit=3_000_000, bid=bid), 5, given, None, states, sizes, ks)
    gave = first[:, GAVE_UP] == 1
    assert gave.any() and not gave.all() and not unhurried[:, GAVE_UP].any()
    again, passes = escalated_rows(v, hurried, 5, first, lambda rows: [bid], given)
    assert np.array_equal(again[~gave], first[~gave])  # an answered deal is never solved again
    assert np.array_equal(again, unhurried)  # and the answers are those of a solve with no hurry
    assert passes[0].limit == 200_000 and passes[0].solves == gave.sum() and passes[-1].gave_up == 0
    # no budget, or one that cannot pay for a pass larger than the first: the rows as they were
    for budget in (0, 10):
        same, none = escalated_rows(v, replace(hurried, budget=budget), 5, first, lambda rows: [bid], given)
        assert np.array_equal(same, first) and none == ()
    # no bid shown, no band to narrow: nothing is solved again
    assert escalated_rows(v, hurried, 5, first, lambda rows: [])[1] == ()


def test_strong_rows_do_not_depend_on_the_thread_count_and_are_stored(tmp_path):
    v = load_variant("partnership-auction")
    given = (tuple(int(x) for x in parse_hand(PA_HAND)), 0)
    play = Play("strong", samples=3, solve_from=3)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_deals(v, play, 2, 4, given=given).tally
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        with executing(Execution(store=tmp_path / "s.duckdb")):
            two = run_deals(v, play, 2, 4, given=given)
            again = run_deals(v, play, 2, 4, given=given)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two.tally) and np.array_equal(one, again.tally)
    assert two.stored == 0 and again.stored == 4
    # the sampling player changes only the card play: contract, trump and meld are the heuristic's
    before_play = [h.F_BIDDER, h.F_BID, h.F_TRUMP, h.F_SIDE_MELD, h.F_BIDDER_MELD]
    assert np.array_equal(one[:, before_play], one[:, [h.N_FIELDS + f for f in before_play]])


def test_advise_under_strong_play_from_the_cli_and_the_api(capsys):
    argv = [
        "advise",
        PA_HAND,
        "--variant",
        "partnership-auction",
        "--play",
        "strong",
        "--samples",
        "3",
        "--solve-from",
        "3",
        "--hands",
        "6",
        "--no-store",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "6 deals of the unseen cards" in out and "strong play (the sampling player at every seat" in out
    assert "strong − heuristic, paired on the same deals" in out
    assert "strong: highest bid made in 50% of deals" in out and "heuristic: highest bid made in 75%" in out
    assert main(argv + ["--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["hands"] == 6 and got["play"]["samples"] == 3
    a = api.advise(PA_HAND, "partnership-auction", hands=6, play="strong", samples=3, solve_from=3)
    assert set(a["play"]) == {"heuristic", "strong"}
    assert a.attrs["side_total"]["strong"]["estimate"] == pytest.approx(got["side_total"]["strong"]["estimate"])
    strong = a[a["play"] == "strong"].set_index("bid")["estimate"]
    assert list(strong.index) == [r["bid"] for r in got["bids"]["strong"]]


def test_bid_odds_under_double_dummy_from_the_cli_and_the_api(capsys):
    argv = ["bid-odds", "--variant", "partnership-auction", "--play", "dd", "--meld", "100", "--bid", "250"]
    # three of these hands give up at 20,000 trick starts, two still at 200,000: the budget runs out
    argv += ["--hands", "4", "--limit", "20000", "--budget", "2000000", "--no-store"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "P(make B | bidder's meld as dealt 100) over 4 hands the heuristic bid" in out
    assert "dd − heuristic at 250, paired on the same hands" in out
    assert "solved again (trick starts a solve): 200,000: 3 solves, 2 gave up; " in out
    b = api.bid_odds("partnership-auction", hands=4, meld=100, bid=250, play="dd", limit=20_000, budget=2_000_000)
    assert list(b["play"]) == ["heuristic", "dd"] and set(b["bid"]) == {250}
    dd = b[b["play"] == "dd"].iloc[0]
    assert dd["unknown"] == 2 and dd["low"] == dd["made"] / 4 and dd["high"] == (dd["made"] + 2) / 4
    passes = b.attrs["passes"]
    assert [p["limit"] for p in passes][0] == 200_000 and sum(p["nodes"] for p in passes) <= 2_000_000 + 4


def test_the_double_dummy_budget_has_one_default_on_the_cli_and_the_api():
    from inspect import signature

    from simcore.answers.strong import DD_BUDGET, DD_LIMIT
    from simcore.cli import build_parser

    for command in (["advise", PA_HAND], ["bid-odds"]):
        args = build_parser().parse_args(command)
        assert (args.limit, args.budget) == (DD_LIMIT, DD_BUDGET)
    for function in (api.advise, api.bid_odds):
        defaults = signature(function).parameters
        assert (defaults["limit"].default, defaults["budget"].default) == (DD_LIMIT, DD_BUDGET)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["advise", PA_HAND, "--play", "strong", "--given", "left: aces>=2"], "--given with --play strong"),
        (["advise", "AS AS 10S", "--variant", "partnership-auction", "--play", "strong"], "give the whole hand"),
        (["advise", PA_HAND, "--variant", "two-hand", "--play", "dd"], "two-hand"),
        (["advise", PA_HAND, "--play", "strong", "--policy", "random"], "--policy"),
        (["bid-odds", "--play", "strong"], "give --meld M"),
        (["bid-odds", "--play", "dd", "--meld", "100", "--csv", "x.csv"], "--csv"),
        (["bid-odds", "--play", "best"], "invalid choice"),
        (["advise", PA_HAND, "--play", "strong", "--samples", "0"], "--samples"),
        (["bid-odds", "--play", "dd", "--meld", "100", "--budget", "-5"], "--budget"),
    ],
)
def test_strong_play_refuses_bad_input_in_one_line(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_the_api_refuses_bad_play_arguments():
    with pytest.raises(ValueError, match="play='best'"):
        api.advise(PA_HAND, "partnership-auction", play="best")
    with pytest.raises(ValueError, match="give meld="):
        api.bid_odds("partnership-auction", play="strong")
    with pytest.raises(ValueError, match="samples=0"):
        api.bid_odds("partnership-auction", play="strong", meld=100, samples=0)
