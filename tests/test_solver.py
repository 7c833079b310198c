"""The double-dummy solver: the kernel against plain exhaustive minimax on small endings under every duty
set the shipped rules use, its invariants, and ``pinochle solve``."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from simcore.cards import N_TYPES
from simcore.cli import main
from simcore.kernels.play import SUIT_OF, beats
from simcore.kernels.policies import C_POINTS, C_SIDE, CTX_SIZE, choose_card
from simcore.reference.solver import reference_moves, reference_value
from simcore.solver.position import (
    Position,
    PositionError,
    card_values,
    given_position,
    legal_at,
    seeded_position,
    sides,
    solve,
)
from simcore.variants import load_variant, shipped_ids

#: The play duties (HandRules' head .. trump_instead).
DUTY_KEYS = ("follow_must_head", "head_when_trumped", "void_must_trump", "void_must_overtrump", "trump_instead")


def _duties(v) -> tuple:
    """Everything the trick play of a system depends on."""
    return (
        v.players,
        v.get("teams.kind"),
        tuple(v.get(f"play.{k}") for k in DUTY_KEYS),
        v.get("play.beat_partner"),
        v.get("play.bidder_leads_trump"),
        v.get("play.trump_led_once_broken"),
        tuple(v.trick_points[:6]),
        v.last_trick,
        tuple(v.deck_copies),
    )


def _duty_sets() -> list[tuple[str, list[str]]]:
    """One system per distinct duty set among the shipped rules, and three the shipped rules leave out:
    partners need not beat each other (across and called), and the bidder's trump opening together with
    trump breaking."""
    seen: dict[tuple, tuple[str, list[str]]] = {}
    for vid in shipped_ids():
        seen.setdefault(_duties(load_variant(vid)), (vid, []))
    return list(seen.values()) + [
        ("partnership", ["play.beat_partner=false"]),
        ("five-hand-called-card", ["play.beat_partner=false"]),
        ("four-hand-150", ["play.bidder_leads_trump=true", "play.trump_led_once_broken=true"]),
    ]


DUTY_SETS = _duty_sets()


def random_position(v, tricks: int, rng: random.Random) -> Position:
    """Every seat ``tricks`` cards from a shuffled deck, trump, bidder (and called partner), leader and
    flags at random; on the first trick the bidder leads."""
    deck = [t for t in range(N_TYPES) for _ in range(int(v.deck_copies[t]))]
    rng.shuffle(deck)
    hands = np.zeros((v.players, N_TYPES), dtype=np.uint8)
    for s in range(v.players):
        for c in deck[s * tricks : (s + 1) * tricks]:
            hands[s, c] += 1
    bidder = rng.randrange(v.players)
    partner = rng.choice([-1] + [s for s in range(v.players) if s != bidder])
    partner = partner if v.get("teams.kind") == "called_card" else -1
    first = rng.random() < 0.3
    leader = bidder if first else rng.randrange(v.players)
    return Position(v, hands, rng.randrange(4), leader, sides(v, bidder, partner), bidder, first, rng.random() < 0.5)


def _reference(p: Position) -> int:
    return reference_value(
        p.variant, [list(map(int, h)) for h in p.hands], p.trump, p.leader, list(p.side), p.bidder, p.first, p.broken
    )


@pytest.mark.parametrize("vid, overrides", DUTY_SETS, ids=[i + "".join("+" + o for o in os) for i, os in DUTY_SETS])
def test_solver_equals_exhaustive_minimax_on_small_endings(vid, overrides):
    v = load_variant(vid, overrides)
    rng = random.Random(f"{vid}{overrides}")
    most = 4 if v.players <= 4 else 3 if v.players == 5 else 2
    for n in range(48):
        p = random_position(v, 1 + n % most, rng)
        exact = _reference(p)
        got = solve(p)
        assert got.side_points == exact, (p.to_json(), got.side_points, exact)
        assert solve(p, exact).reaches and not solve(p, exact + 1).reaches


#: Tricks of the longer endings held to the reference, by seats: the reference's time grows about
#: tenfold a trick (a 6-trick ending of five seats takes minutes), so five and six seats stop sooner.
LONG_ENDINGS = {2: (5, 6), 3: (5, 6), 4: (5, 6), 5: (4,), 6: (3,)}


@pytest.mark.slow
@pytest.mark.parametrize("vid, overrides", DUTY_SETS, ids=[i + "".join("+" + o for o in os) for i, os in DUTY_SETS])
def test_solver_equals_exhaustive_minimax_on_longer_endings(vid, overrides):
    # deeper trees than the small endings: several tricks of table entries, bounds and killers between
    # the root and the last trick, where a wrong cut or a wrongly shared entry would show
    v = load_variant(vid, overrides)
    rng = random.Random(f"long{vid}{overrides}")
    for tricks in LONG_ENDINGS[v.players]:
        p = random_position(v, tricks, rng)
        exact = _reference(p)
        assert solve(p).side_points == exact, (p.to_json(), exact)
        assert solve(p, exact).reaches and not solve(p, exact + 1).reaches


def test_solve_many_answers_as_one_solve_at_a_time_whatever_the_threads():
    from simcore.solver.position import solve_many

    v = load_variant("four-hand-150")
    positions = [seeded_position(v, s, tricks_played=6) for s in range(1, 7)]
    targets = [None, 10, None, 5, 20, None]
    alone = [solve(p, t) for p, t in zip(positions, targets)]
    for threads in (1, 2):
        many = solve_many(positions, targets, threads=threads)
        assert [(m.side_points, m.reaches, m.nodes) for m in many] == [
            (a.side_points, a.reaches, a.nodes) for a in alone
        ]
    assert solve_many([]) == []
    with pytest.raises(ValueError):
        solve_many(positions, [1])


def test_trick_start_bounds_hold_the_exhaustive_value_under_every_duty_set():
    """The bounds the search cuts with at a trick start (sure trumps, the leader's quick trick, a claim of
    every trick) hold the exhaustive minimax value between them on random endings of 2-4 tricks under
    every duty set; and they are not idle: some positions are claimed outright, others bounded above 0."""
    from simcore.solver.kernel import _bounds
    from simcore.solver.position import _loaded

    claimed = raised = 0
    for vid, overrides in DUTY_SETS:
        v = load_variant(vid, overrides)
        rng = random.Random(f"bounds{vid}{overrides}")
        most = 4 if v.players <= 4 else 3 if v.players == 5 else 2
        for n in range(24):
            p = random_position(v, 2 + n % (most - 1), rng)
            lower, upper = _bounds(_loaded(p), p.leader)
            exact = _reference(p)
            assert lower <= exact <= upper, (vid, overrides, p.to_json(), lower, upper, exact)
            claimed += lower == p.in_play or upper == 0
            raised += 0 < lower < p.in_play or 0 < upper < p.in_play
    assert claimed > 0 and raised > 0, (claimed, raised)


@pytest.mark.parametrize("vid, overrides", DUTY_SETS, ids=[i + "".join("+" + o for o in os) for i, os in DUTY_SETS])
def test_legal_cards_are_the_reference_duties_at_every_card_of_a_trick(vid, overrides):
    """The kernel's legal cards (what the search branches on) are the reference's at each card of random
    tricks: leads (first trick, trump not broken), follows, heading, trumping, partners exempt."""
    v = load_variant(vid, overrides)
    rng = random.Random(f"legal{vid}{overrides}")
    for n in range(60):
        p = random_position(v, 1 + n % v.hand_size, rng)
        hands = [list(map(int, h)) for h in p.hands]
        trick: list[int] = []
        for _ in range(v.players):
            expected = reference_moves(v, hands, trick, p.trump, p.leader, list(p.side), p.bidder, p.first, p.broken)
            assert legal_at(p, trick) == expected, (p.to_json(), trick)
            trick.append(rng.choice(expected))


def _other_side(p: Position) -> Position:
    return Position(p.variant, p.hands, p.trump, p.leader, tuple(1 - s for s in p.side), p.bidder, p.first, p.broken)


@pytest.mark.parametrize("vid", ["partnership", "five-hand-widow", "three-hand-double-pack"])
def test_both_sides_points_sum_to_the_points_in_play(vid):
    """Solved from each side's seat in turn, the two optima add up to everything in play: the game is
    zero-sum and the search must not lose or double a trick."""
    v = load_variant(vid)
    rng = random.Random(vid)
    for n in range(8):
        p = random_position(v, 2 + n % 4, rng)
        assert solve(p).side_points + solve(_other_side(p)).side_points == p.in_play


def _heuristic_card(p: Position, hands: np.ndarray, trick: list[int], legal: list[int]) -> int:
    """The heuristic's card (``policies.choose_card``) for the seat to play, every hand known to it."""
    v, players, trump = p.variant, p.variant.players, p.trump
    seat = (p.leader + len(trick)) % players
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[C_POINTS : C_POINTS + N_TYPES] = v.trick_points
    ctx[C_SIDE : C_SIDE + players] = p.side
    unseen = 0
    for s in range(players):
        if s != seat:
            unseen |= sum(1 << t for t in range(N_TYPES) if hands[s, t])
    win, win_seat = (trick[0], p.leader) if trick else (0, p.leader)
    for i, c in enumerate(trick[1:], 1):
        if beats(c, win, trump):
            win, win_seat = c, (p.leader + i) % players
    return int(
        choose_card(
            hands,
            (seat, np.int64(sum(1 << t for t in legal)), len(trick), win, win_seat, players, trump, np.int64(unseen)),
            ctx,
        )
    )


def _duel(p: Position, perfect_side: int) -> int:
    """The bidding side's points when ``perfect_side`` plays the solver's cards and the other side the
    heuristic's, from ``p`` to the end."""
    v, players = p.variant, p.variant.players
    taken = 0
    while p.tricks:
        trick: list[int] = []
        for i in range(players):
            seat = (p.leader + i) % players
            legal = legal_at(p, trick)
            if p.side[seat] == perfect_side:
                values = card_values(p, trick)
                pick = max if perfect_side == 1 else min
                card = pick(legal, key=lambda c: (values[c], -c))
            else:
                card = _heuristic_card(p, p.hands, trick, legal)
            assert card in legal
            trick.append(card)
        win, w = trick[0], p.leader
        for i, c in enumerate(trick[1:], 1):
            if beats(c, win, p.trump):
                win, w = c, (p.leader + i) % players
        hands = p.hands.copy()
        for i, c in enumerate(trick):
            hands[(p.leader + i) % players, c] -= 1
        pts = sum(int(v.trick_points[c]) for c in trick) + (v.last_trick if hands[0].sum() == 0 else 0)
        taken += pts if p.side[w] == 1 else 0
        p = Position(
            v, hands, p.trump, w, p.side, p.bidder, False, p.broken or any(SUIT_OF[c] == p.trump for c in trick)
        )
    return taken


@pytest.mark.parametrize("vid", ["four-hand-150", "partnership", "five-hand-called-card"])
def test_the_heuristic_never_does_better_than_the_solved_value(vid):
    """Against a perfect defence the heuristic bidding side takes at most the solved value, and a
    heuristic defence lets a perfect bidding side take at least it; perfect play on both sides, the
    value itself."""
    v = load_variant(vid)
    rng = random.Random(vid + "duel")
    for n in range(4):
        p = random_position(v, 3 + n % 2, rng)
        value = solve(p).side_points
        assert _duel(p, 0) <= value <= _duel(p, 1)


def test_a_seeded_position_is_the_hand_as_played():
    """The seeded position holds exactly the cards the seeded hand plays, its trump, leader and sides;
    with a stock, the cards of the tricks after the stock and the points of those before."""
    from simcore.kernels import hand_record as h
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.kernels.policies import parse_policies

    for vid in ("four-hand-150", "two-hand", "five-hand-called-card"):
        v = load_variant(vid)
        p = seeded_position(v, 3)
        rec, trace = trace_hand(v, 3, parse_policies("heuristic", v.players))
        plays = [(a, b) for code, a, b, _ in trace.tolist() if code == h.T_PLAY]
        last = plays[-v.players * v.hand_size :]
        assert p.hands.sum() == len(last) and p.trump == rec[h.F_TRUMP] and p.leader == last[0][0]
        for seat, card in last:
            assert p.hands[seat, card] > 0
        assert p.side[int(rec[h.F_BIDDER])] == 1 if rec[h.F_BIDDER] >= 0 else p.side[0] == 1
        taken = sum(b for code, a, b, _ in trace.tolist() if code == h.T_TRICK)
        assert sum(p.taken) + p.in_play == taken


def test_a_worked_ending():
    """Worked by hand. four-hand-150: A, 10 and K count 1 each, the last trick 1; a follower must beat
    the winning card if he can and, void, trump. Trump spades; seat 0 holds AS 10S, seat 1 KS QS,
    seat 2 AH 10H, seat 3 KH QH: six counters and the last trick, 7 in play. Seat 0 to lead: his AS
    and 10S are the two best spades, seat 1 must follow with a lower one, seats 2 and 3 have no
    spade and no trump to play: seat 0 takes both tricks. Seat 1 to lead: a spade, which seat 0 must
    and can beat, then he leads his other top spade: again both tricks. So seats 0 and 2 take all 7
    (seat 0 the bidder), and seats 1 and 3 nothing (seat 1 the bidder)."""
    v = load_variant("four-hand-150")
    hands = ["AS 10S", "KS QS", "AH 10H", "KH QH"]
    for leader in (0, 1):
        p = given_position(v, hands, 0, leader, bidder=0)
        assert solve(p).side_points == 7 and solve(p).other_points == 0
    # seat 1 to lead with the bidding side across the other way: seats 1 and 3 take nothing either
    p = given_position(v, hands, 0, 1, bidder=1)
    assert solve(p).side_points == 0


def test_positions_that_cannot_be_solved_say_why():
    v = load_variant("four-hand-150")
    with pytest.raises(PositionError, match="as many cards"):
        given_position(v, ["AS 10S", "KS", "AH", "KH"], 0, 0)
    with pytest.raises(PositionError, match="deck has only 2"):
        given_position(v, ["AS", "AS", "AS", "KH"], 0, 0)
    with pytest.raises(PositionError, match="4 seats"):
        given_position(v, ["AS", "KS"], 0, 0)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solve_text_json_and_threshold(capsys):
    hands = ["AS 10S KD", "KS QS QD", "AH 10H JD", "KH QH 9D"]
    args = ["solve", "--variant", "four-hand-150", *hands, "--trump", "S", "--leader", "0"]
    code, out, _ = run(capsys, *args)
    p = given_position(load_variant("four-hand-150"), hands, 0, 0, bidder=0)
    exact = _reference(p)
    assert code == 0 and f"takes {exact}, the others {p.in_play - exact}" in out
    code, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    assert data["bidding_side_points"] == exact and data["other_side_points"] == p.in_play - exact
    assert data["position"]["hands"][0] == "AS 10S  KD"
    code, out, _ = run(capsys, *args, "--at-least", str(exact + 1), "--json")
    assert json.loads(out)["reaches_target"] is False and json.loads(out)["bidding_side_points"] is None
    code, out, _ = run(capsys, "solve", "--variant", "two-hand", "--seed", "1")
    assert code == 0 and "after the stock is gone" in out and "taken in the tricks before" in out and "counted" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["AS", "KS", "AH", "--trump", "S", "--leader", "0"], "give 4 hands"),
        (["AS", "KS", "AH", "KH"], "need --trump and --leader"),
        (["AS", "KS", "AH", "KH", "--trump", "X", "--leader", "0"], "not a suit"),
        (["AS", "KS", "AH", "KH Q", "--trump", "S", "--leader", "0"], "not a card"),
        (["AS", "KS", "AH", "KH", "--trump", "S", "--leader", "4"], "leader 4"),
        (["AS", "KS", "AH", "KH", "--trump", "S", "--leader", "0", "--seed", "2"], "either --seed"),
        (["--seed", "2", "--trump", "S"], "only with hands given"),
        (["AS", "KS", "AH", "KH", "--trump", "S", "--leader", "0", "--partner", "2"], "calls no partner"),
    ],
)
def test_cli_solve_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "solve", "--variant", "four-hand-150", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and out == ""


def test_the_solver_bench_reports_median_p99_max_and_give_ups_per_row():
    from simcore.answers.bench import bench_solver

    exact = bench_solver("four-hand-150", 3, tricks_played=8).to_json()
    assert exact["form"] == "exact" and exact["solves"] == 3 and exact["gave_up"] == 0
    assert exact["median_seconds"] <= exact["p99_seconds"] <= exact["max_seconds"]
    limited = bench_solver("four-hand-150", 3, limit=20, form="threshold").to_json()
    assert limited["form"] == "threshold" and "need" in limited["kernel"]
    assert limited["gave_up"] == 3 and limited["node_limit"] == 20


def test_the_solver_bench_can_time_every_shipped_system():
    from simcore.answers.bench import SOLVER_BENCH, bench_solver, solver_bench_rows
    from simcore.variants import shipped_ids

    assert solver_bench_rows() == SOLVER_BENCH
    rows = solver_bench_rows(every_system=True)
    assert rows[: len(SOLVER_BENCH)] == SOLVER_BENCH
    assert {vid for vid, _, _ in rows} == set(shipped_ids())
    threshold = {vid for vid, _, form in rows if form == "threshold"}
    assert not {"partnership", "two-hand"} & threshold and {"auction", "check"} <= threshold
    # "auction"'s seed 2 is forfeited unseen: the bench skips it and moves on to seed 3
    r = bench_solver("auction", 2, tricks_played=13)
    assert len(r.seconds) == 2 and r.skipped >= 1 and r.tricks == 2


def test_an_exact_table_entry_inside_a_wide_window_is_the_value():
    """The exact value is one search over every value the side could take, so the table's entries meet
    windows wider than a null one: an entry whose bounds meet (an exact value) inside the window is the
    node's value. An ending where the search once answered 7 for an exact 8, by opening such a node
    with its window narrowed to nothing."""
    v = load_variant("four-hand-150")
    p = given_position(
        v, ["10H 9H 10D 9D JC", "10S JS AH KD QD", "AS QS KH JH 10D", "AH JH AD 9D KC"], 2, 0, bidder=1, broken=True
    )
    assert _reference(p) == 8
    assert solve(p).side_points == 8


def _first_trick(variant, seed: int, cards: int) -> tuple[Position, list[int]]:
    """(the position at the first lead of seed's heuristic hand, the first ``cards`` cards played)."""
    from simcore.kernels.hand_drivers import trace_hand
    from simcore.kernels.hand_record import T_PLAY
    from simcore.kernels.policies import parse_policies

    p = seeded_position(variant, seed)
    _, trace = trace_hand(variant, seed, parse_policies("heuristic", variant.players))
    plays = [b for code, _, b, _ in trace.tolist() if code == T_PLAY]
    return p, plays[:cards]


def test_a_solve_that_gives_up_after_a_complete_trick_gives_no_value():
    """four-hand-150 seed 1, three cards into the first trick: each of seat 0's cards completes the trick.
    A solve that ran out of trick starts after it answered the trick's points less one (the give-up
    sentinel added to them: 1, 1, 1, 0), which the page showed flipped as the defenders' 24, 24, 24, 25;
    the solves give the bidding side 23 with every card. Past its limit a card has no value, never a
    wrong one."""
    v = load_variant("four-hand-150")
    p, trick = _first_trick(v, 1, 3)
    exact = card_values(p, trick)
    assert set(exact.values()) == {23}
    for limit in (1_000, 100_000):
        limited = card_values(p, trick, limit)
        assert all(x is None or x == exact[c] for c, x in limited.items()), limited
