"""The makeable bids of a deal (simcore.answers.makeable, pinochle makeable, api.makeable, the deal
viewer's panel): bisected cells against exact solves and threshold answers, and bad input."""

import json

import pytest

from simcore import api
from simcore.answers.bidodds import is_bid
from simcore.answers.dd_make import trick_need
from simcore.answers.makeable import EXCHANGES, LIMIT, MakeableError, makeable, makeable_cell, side_meld
from simcore.cli import main
from simcore.commands import makeable as command
from simcore.solver.position import seeded_position, solve
from simcore.variants import load_variant


def highest_made(variant, meld: int, points: int) -> int | None:
    """The highest bid the auction reaches whose need ``points`` trick points meet (by enumeration)."""
    made = [b for b in range(variant.lowest_contract, meld + points + 2) if is_bid(variant, b)]
    made = [b for b in made if trick_need(variant, b, meld) <= points]
    return max(made) if made else None


@pytest.mark.parametrize("vid, played", [("four-hand-150", 7), ("partnership-auction", 7), ("double-deck", 15)])
def test_cells_on_small_endings_are_the_exact_solves_highest_bid(vid, played):
    # the last few tricks of seeded hands: the cell's bisection lands on the highest bid the exact value
    # (pinochle solve's) makes, for melds below, around and above the lowest contract
    v = load_variant(vid)
    for seed in (1, 2, 3):
        position = seeded_position(v, seed, tricks_played=played)
        exact = solve(position).side_points
        for meld in (0, v.lowest_contract // 2, v.lowest_contract - 1, v.lowest_contract + 3 * v.get("auction.step")):
            cell = makeable_cell(position, meld, limit=0)
            assert cell.exact and cell.made == highest_made(v, meld, exact), (seed, meld)


def test_a_whole_deals_cells_agree_with_threshold_solves():
    # a four-hand-150 deal's spades row: where a cell is exact, its bid's need is reached and the next
    # bid's is not; where a solve gave up, the bid shown is still reached
    v = load_variant("four-hand-150")
    table = makeable(v, seed=7, trumps="S", limit=LIMIT)
    from simcore.answers.makeable import first_lead, seeded_deal

    deal = seeded_deal(v, 7)
    assert [c.bidder for c in table.cells] == [0, 1, 2, 3] and table.trumps == (0,)
    for c in table.cells:
        position = first_lead(v, deal, c.bidder, 0, "heuristic")
        assert c.meld == side_meld(position)
        if c.made is not None and trick_need(v, c.made, c.meld) > 0:
            assert solve(position, trick_need(v, c.made, c.meld), 4 * LIMIT).reaches is not False
        if c.exact and c.upper is not None:
            after = trick_need(v, c.upper + 1, c.meld)
            assert after > position.in_play or solve(position, after, 4 * LIMIT).reaches is not True
        if c.exact and c.made is None:  # not even the lowest contract
            assert solve(position, trick_need(v, v.lowest_contract, c.meld), 4 * LIMIT).reaches is not True


def test_the_exchange_is_a_choice_and_given_hands_are_the_deal():
    v = load_variant("four-hand-150")
    table = makeable(v, seed=7, trumps="H", limit=2_000)
    assert "heuristic's passes" in table.exchange_text()
    given = makeable(v, hands=list(table.dealt), exchange="given", trumps="H", limit=2_000)
    assert given.dealt == table.dealt and "as after the exchange" in given.exchange_text()
    # without passing, a side's meld is what its two hands hold as dealt
    assert all(c.meld >= 0 for c in given.cells)
    double_deck = makeable(load_variant("double-deck"), seed=2, trumps="C", limit=2_000)
    assert double_deck.exchange_text() == "no cards pass after the bid" and len(double_deck.cells) == 4


def test_cli_text_json_and_the_api_agree(capsys):
    assert main(["makeable", "--variant", "four-hand-150", "--seed", "7", "--trump", "S", "--limit", "2000"]) == 0
    out = capsys.readouterr().out
    assert "makeable bids of the deal (seed 7)" in out and "seat 3" in out and "exchange: the heuristic's" in out
    assert (
        main(["makeable", "--variant", "four-hand-150", "--seed", "7", "--trump", "S", "--limit", "2000", "--json"])
        == 0
    )
    got = json.loads(capsys.readouterr().out)
    frame = api.makeable("four-hand-150", seed=7, trumps="S", limit=2_000)
    assert [c["text"] for c in got["cells"]] == list(frame["text"]) and got["exchange"] == "heuristic"
    assert list(frame["bidder"]) == [0, 1, 2, 3] and set(frame["trump"]) == {"S"}
    # the command's defaults are the answer module's (written there so that --help loads no numpy)
    assert command.EXCHANGES == EXCHANGES and command.LIMIT == LIMIT


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--seed", "9223372036854775808"], "seed 9223372036854775808"),
        (["AS AS 10S", "KS", "QS", "JS"], "seat 0: 3 cards"),
        (["--seed", "7", "--trump", "X"], "trump 'X'"),
        (["--seed", "7", "--exchange", "swap"], "invalid choice"),
        (["--variant", "two-hand", "--seed", "1"], "not computed here"),
        (["--variant", "five-hand-called-card", "--seed", "1"], "not computed here"),
        (["--seed", "1", "AS"], "not both"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, says, capsys):
    code = main(["makeable", *(["--variant", "four-hand-150"] if "--variant" not in argv else []), *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and says in err, err


def test_hands_that_do_not_form_a_deal_are_refused():
    v = load_variant("four-hand-150")
    deal = list(makeable(v, seed=7, trumps="S", limit=1).dealt)
    twice = [deal[0], deal[0], deal[2], deal[3]]  # seat 0's cards twice: three copies of some card
    with pytest.raises(MakeableError, match="together"):
        makeable(v, hands=twice)
    with pytest.raises(MakeableError, match="give 4 hands"):
        makeable(v, hands=deal[:3])
    with pytest.raises(ValueError, match="limit"):
        api.makeable("four-hand-150", seed=1, limit=-1)
