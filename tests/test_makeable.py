"""The makeable bids of a deal (simcore.answers.makeable, pinochle makeable, api.makeable, the deal
viewer's panel): bisected cells against exact solves and threshold answers, cells that share one
problem against independent solves, the escalation within a budget, and bad input."""

import json

import pytest

from simcore import api
from simcore.answers.bidodds import is_bid
from simcore.answers.dd_make import trick_need
from simcore.answers.makeable import (
    BUDGET,
    EXCHANGES,
    LIMIT,
    MakeableError,
    answered_cells,
    escalated,
    makeable,
    makeable_cell,
    posed,
    problem_key,
    side_meld,
)
from simcore.cli import main
from simcore.commands import makeable as command
from simcore.solver.position import Position, seeded_position, sides, solve
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
    table = makeable(v, seed=7, trumps="S", limit=LIMIT, budget=BUDGET // 4)
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
    table = makeable(v, seed=7, trumps="H", limit=2_000, budget=20_000)
    assert "heuristic's passes" in table.exchange_text()
    given = makeable(v, hands=list(table.dealt), exchange="given", trumps="H", limit=2_000, budget=20_000)
    assert given.dealt == table.dealt and "as after the exchange" in given.exchange_text()
    # without passing, a side's meld is what its two hands hold as dealt
    assert all(c.meld >= 0 for c in given.cells)
    double_deck = makeable(load_variant("double-deck"), seed=2, trumps="C", limit=2_000, budget=20_000)
    assert double_deck.exchange_text() == "no cards pass after the bid" and len(double_deck.cells) == 4


def test_cli_text_json_and_the_api_agree(capsys):
    argv = ["makeable", "--variant", "four-hand-150", "--seed", "7", "--trump", "S", "--limit", "2000"]
    argv += ["--budget", "20000"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "makeable bids of the deal (seed 7)" in out and "seat 3" in out and "exchange: the heuristic's" in out
    assert main([*argv, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    frame = api.makeable("four-hand-150", seed=7, trumps="S", limit=2_000, budget=20_000)
    assert [c["text"] for c in got["cells"]] == list(frame["text"]) and got["exchange"] == "heuristic"
    assert list(frame["bidder"]) == [0, 1, 2, 3] and set(frame["trump"]) == {"S"}
    # the command's defaults are the answer module's (written there so that --help loads no numpy)
    assert (command.EXCHANGES, command.LIMIT, command.BUDGET) == (EXCHANGES, LIMIT, BUDGET)
    # and the API's and the web route's
    from inspect import signature

    from simcore.web.inputs import DealMakeableIn

    defaults = signature(api.makeable).parameters
    assert (defaults["limit"].default, defaults["budget"].default) == (LIMIT, BUDGET)
    fields = DealMakeableIn.model_fields
    assert (fields["limit"].default, fields["budget"].default) == (LIMIT, BUDGET)


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
        (["--seed", "7", "--budget", "-5"], "--budget"),
        (["--seed", "7", "--budget", "lots"], "--budget"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, says, capsys):
    code = main(["makeable", *(["--variant", "four-hand-150"] if "--variant" not in argv else []), *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and says in err, err


def test_hands_that_do_not_form_a_deal_are_refused():
    v = load_variant("four-hand-150")
    deal = list(makeable(v, seed=7, trumps="S", limit=1, budget=1).dealt)
    twice = [deal[0], deal[0], deal[2], deal[3]]  # seat 0's cards twice: three copies of some card
    with pytest.raises(MakeableError, match="together"):
        makeable(v, hands=twice)
    with pytest.raises(MakeableError, match="give 4 hands"):
        makeable(v, hands=deal[:3])
    with pytest.raises(ValueError, match="limit"):
        api.makeable("four-hand-150", seed=1, limit=-1)
    for budget in (-1, 2.5, "lots"):
        with pytest.raises(ValueError, match="budget"):
            api.makeable("four-hand-150", seed=1, budget=budget)
        with pytest.raises(MakeableError, match="budget"):
            makeable(v, seed=1, budget=budget)


def every_bidder(position: Position, leader: int | None = None, first: bool = False) -> list[Position]:
    """``position``'s cards, trump and flags with each seat in turn as the bidder (his side the bidding
    side), led by ``leader`` (None: the bidder, as where the bidder leads)."""
    v = position.variant
    return [
        Position(
            v,
            position.hands,
            position.trump,
            b if leader is None else leader,
            sides(v, b, -1),
            b,
            first,
            position.broken,
        )
        for b in range(v.players)
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cells_of_one_problem_share_solves_and_equal_independent_solves(seed):
    # partnership-auction: the dealer's left leads whoever bids and no cards pass, so the four bidders of a
    # trump ask one position, seats 1 and 3 from its other side; each cell must be what its own
    # position's exact solve makes, for melds that put the cells' thresholds at different points
    v = load_variant("partnership-auction")
    ending = seeded_position(v, seed, tricks_played=7)
    positions = every_bidder(ending, leader=ending.leader)
    assert len({problem_key(p) for p in positions}) == 1
    melds = (0, 60, 150, 240)
    cells, passes = answered_cells(list(zip(positions, melds)), limit=0, budget=0)
    assert [c.owner for c in cells] == [None, (0, True), (0, False), (0, True)]
    assert cells[0].solves > 0 and all(c.solves == c.nodes == 0 for c in cells[1:])
    assert sum(p.nodes for p in passes) == cells[0].nodes
    for p, meld, c in zip(positions, melds, cells):
        exact = solve(p).side_points  # solved on its own, its own side's points
        assert c.exact and c.made == highest_made(v, meld, exact), (p.bidder, meld, exact, c)
        assert c.upper == c.made


def test_positions_that_differ_in_leader_or_opening_duty_are_not_one_problem():
    # where the bidder leads (double-deck), each bidder's position is its own problem; where the bidder
    # must open with a trump, the bidder who leads the first trick is another problem than his partner,
    # while the seats he does not bind stay one problem with the other side as its mirror
    dd = load_variant("double-deck")
    assert len({problem_key(p) for p in every_bidder(seeded_position(dd, 1, tricks_played=12))}) == 4
    v = load_variant("partnership-auction", ["play.bidder_leads_trump=true"])
    for seed in (1, 2):
        ending = seeded_position(v, seed, tricks_played=7)
        positions = every_bidder(ending, leader=ending.leader, first=True)
        keys = [problem_key(p) for p in positions]
        duty = ending.leader
        assert len(set(keys)) == 2 and keys.count(keys[duty]) == 1
        cells, _ = answered_cells([(p, 0) for p in positions], limit=0, budget=0)
        for p, c in zip(positions, cells):
            assert c.made == highest_made(v, 0, solve(p).side_points), (seed, p.bidder)


@pytest.mark.parametrize("vid, played", [("four-hand-150", 4), ("double-deck", 12)])
def test_escalation_narrows_only_and_ends_at_the_exact_cells(vid, played):
    # endings whose solves pass a small first limit: passes at ten times the last, every cell's proved
    # bounds only narrowing from one budget to the next, always holding the exact answer, and the table
    # exact once the budget is none
    v = load_variant(vid)
    for seed in (1, 3):
        positions = every_bidder(seeded_position(v, seed, tricks_played=played))
        asked = [(p, m) for p, m in zip(positions, (0, 7, v.lowest_contract, 2 * v.lowest_contract))]
        truth = [highest_made(v, m, solve(p).side_points) for p, m in asked]
        problems = posed(asked)
        before = problems.cells()
        gave_up = []
        for budget in (300, 3_000, 30_000, 0):
            passes = escalated(problems.problems, limit=30, budget=budget)
            assert not budget or sum(p.nodes for p in passes) <= budget
            gave_up += [p.gave_up for p in passes]
            now = problems.cells()
            for old, new, true in zip(before, now, truth):
                assert _rank(old.made) <= _rank(new.made) <= _rank(true) <= _rank(new.upper) <= _rank(old.upper)
            before = now
        assert all(c.exact and c.made == true for c, true in zip(now, truth)), (seed, now, truth)
        assert gave_up[0] > 0  # the first pass gave up somewhere: the later ones had something to settle
        exact = [makeable_cell(p, m, limit=0, budget=0) for p, m in asked]
        assert [c.made for c in exact] == truth


def _rank(bid: int | None) -> int:
    """A bid as an order (None, below the lowest contract, first)."""
    return -1 if bid is None else bid


def test_escalation_runs_passes_ten_times_longer_and_keeps_the_budget():
    # a whole four-hand-150 deal's spades row: the first pass at the limit, each later one at ten times
    # it (the last one's solves cut to what the budget left), never past the budget
    v = load_variant("four-hand-150")
    for budget in (1, 5_000, 120_000):
        table = makeable(v, seed=7, trumps="S", limit=2_000, budget=budget)
        assert table.nodes <= budget and table.nodes == sum(c.nodes for c in table.cells)
        limits = [p.limit for p in table.passes]
        # the first pass: the limit, or the first cell's share of the budget (four cells) less one
        assert limits[:1] == ([min(2_000, budget // 4 - 1)] if budget > 8 else []), limits
        assert all(a < b <= 10 * a for a, b in zip(limits, limits[1:])), limits
    assert len(table.passes) >= 2 and table.passes[1].limit > table.passes[0].limit
    assert sum(c.exact for c in table.cells) < 4  # so that the second pass had a cell to narrow
    wider = makeable(v, seed=7, trumps="S", limit=2_000, budget=600_000)
    for small, large in zip(table.cells, wider.cells):  # both hold the truth, so they overlap
        assert _rank(small.made) <= _rank(large.upper) and _rank(large.made) <= _rank(small.upper)
