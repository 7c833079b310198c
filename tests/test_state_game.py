"""Whole games through the game state (simcore.state.game) and the games duel (pinochle duel --games)."""

import pytest

from simcore.kernels.policies import parse_policies
from simcore.reference.game import reference_game
from simcore.state.game import play_game
from simcore.state.players import kernel_policy
from simcore.strong.duel import duel_games, load_policy
from simcore.variants import load_variant


@pytest.mark.parametrize(
    "vid", ["four-hand-150", "partnership-auction", "double-deck", "partnership", "two-hand", "five-hand-cutthroat"]
)
def test_the_heuristic_at_every_seat_plays_the_games_of_pinochle_games(vid):
    # the same deals, dealer order, score lines and end of game as the game kernel's reference, hand for
    # hand; partnership and two-hand let a player declare himself out, five-hand-cutthroat keeps five lines
    v = load_variant(vid)
    heuristic = kernel_policy("heuristic")
    for game in range(3):
        got = play_game(v, 11, game, [heuristic] * v.players)
        ref = reference_game(v, 11, game, parse_policies("heuristic", v.players))
        assert (got.winner, got.hands) == (ref["winner"], ref["hands"])
        assert list(got.scores) == [ref[f"score_{i}"] for i in range(len(got.scores))]


def test_a_player_as_strong_as_the_heuristic_wins_half_and_a_random_one_almost_none():
    v = load_variant("four-hand-150")
    same = duel_games(v, kernel_policy("heuristic"), 6, seed=2, name="heuristic")
    assert same["games_won"]["mean"] == 0.5 and same["even_share"] == 0.5  # each game won once of its two plays
    weak = duel_games(v, load_policy("random"), 6, seed=2, name="random")
    assert weak["games_won"]["high"] < 0.5 and weak["hands_a_game"] > 1


def test_cli_games_duel_and_its_refusals(capsys):
    from simcore.cli import main

    assert main(["duel", "--variant", "four-hand-150", "--policy", "random", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 whole games" in out and "games won by the policy" in out
    assert main(["duel", "--variant", "auction", "--policy", "random", "--games", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "auction has no game to win" in err[0]
    assert main(["duel", "--variant", "four-hand-150", "--policy", "random", "--games", "3", "--hands", "2"]) == 2
    assert "give one of them" in capsys.readouterr().err
    assert main(["duel", "--variant", "four-hand-150", "--policy", "random", "--games", "0"]) == 2
