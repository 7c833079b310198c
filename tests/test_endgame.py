"""How far card play is from double dummy in the last tricks (simcore.answers.endgame, pinochle endgame)."""

import json

import pytest

from simcore.answers.endgame import endgame_loss, hand_decisions
from simcore.cli import main
from simcore.kernels.policies import parse_policies
from simcore.solver.position import PositionError
from simcore.variants import load_variant


@pytest.mark.parametrize(
    "vid, policy",
    [
        ("partnership-auction", "heuristic"),
        ("auction", "heuristic"),
        ("five-hand-called-card", "random"),
        ("two-hand", "heuristic"),
    ],
)
def test_the_losses_add_up_to_what_the_bidding_side_took(vid, policy):
    # from the first replayed trick the bidding side takes its double-dummy value, less what its own
    # decisions gave up, plus what the other side's gave up: exactly, on every hand
    v = load_variant(vid)
    played = 0
    for seed in range(60):  # auction forfeits most hands unseen: look further for six played out
        got = hand_decisions(v, seed, 4, parse_policies(policy, v.players))
        if got is None:
            continue
        if played == 6:
            break
        decisions, totals = got
        played += 1
        ours = sum(d["loss"] for d in decisions if d["role"] != "defender")
        theirs = sum(d["loss"] for d in decisions if d["role"] == "defender")
        assert totals["value"] - ours + theirs == totals["taken"], (vid, seed)
        assert len(decisions) == 4 * v.players
        for d in decisions:
            assert d["loss"] >= 0 and d["random_loss"] >= 0 and d["legal"] >= 1
            assert (d["loss"] == 0) == (d["value"] == d["best"])
        assert 0 <= totals["taken"] <= totals["in_play"]
    assert played >= 6


def test_best_play_gives_up_nothing_and_the_summary_counts_every_played_hand():
    result = endgame_loss(load_variant("four-hand-150"), 10, seed=0, tricks_left=3)
    assert result.played == len(result.totals) and result.played >= 5
    assert len(result.decisions) == result.played * 3 * 4
    per_hand = result.per_hand()
    assert set(per_hand) == {
        "bidding side: heuristic",
        "bidding side: random card",
        "defenders: heuristic",
        "defenders: random card",
    }
    total = result.decisions["loss"].sum() / result.played
    assert per_hand["bidding side: heuristic"].estimate + per_hand["defenders: heuristic"].estimate == pytest.approx(
        total
    )


def test_cli_endgame_text_json_and_bad_input(capsys):
    assert main(["endgame", "--variant", "four-hand-150", "--hands", "6", "--tricks-left", "3"]) == 0
    out = capsys.readouterr().out
    assert "points given up a hand" in out and "bidder: heuristic" in out and "decisions giving up most" in out
    assert main(["endgame", "--variant", "four-hand-150", "--hands", "6", "--tricks-left", "3", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["hands"] == 6 and got["decisions"] == got["played"] * 12
    assert "bidding side: heuristic" in got["given_up_per_hand"] and got["policy"] == "heuristic"
    # the policy's losses are named for the policy that played the cards, not always "heuristic"
    args = ["endgame", "--variant", "four-hand-150", "--hands", "4", "--tricks-left", "2", "--policy"]
    assert main([*args, "basic", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["policy"] == "basic" and "defenders: basic" in got["given_up_per_hand"]
    assert not any("heuristic" in k for k in got["given_up_per_hand"])
    assert main([*args, "heuristic,basic,heuristic,basic"]) == 0
    assert "bidder: heuristic,basic,heuristic,basic" in capsys.readouterr().out
    assert main(["endgame", "--variant", "four-hand-150", "--tricks-left", "13"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--tricks-left 13: give 1 to 12" in err
    assert main(["endgame", "--tricks-left", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(PositionError):
        endgame_loss(load_variant("double-deck"), 1, tricks_left=21)
