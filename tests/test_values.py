"""Card values from any position: the exact solver's values where it proves them, the depth-limited
search with the learned evaluation elsewhere (:func:`simcore.solver.position.searched_card_values`),
the evaluation's features against a plain reading of the position, and the consistency of the values
along a played line."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from test_solver import random_position

from simcore.cards import N_RANKS, N_TYPES, card_name
from simcore.kernels.card_features import play_context
from simcore.kernels.compiled import hand_rules
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.hand_record import T_PLAY
from simcore.kernels.play import SUIT_OF, beats
from simcore.kernels.playout import (
    F_BIDDER,
    F_BROKEN,
    F_FIRST,
    F_LEADER,
    F_TRUMP,
    N_FACTS,
    PlayoutStart,
    playout_values,
)
from simcore.kernels.policies import HEURISTIC, parse_policies
from simcore.solver.estimate import FEATURES, N_FEATURES
from simcore.solver.kernel import GAVE_UP
from simcore.solver.position import (
    Position,
    PositionError,
    card_values,
    evaluation,
    legal_at,
    searched_card_values,
    seeded_position,
    solve,
    traced_position,
)
from simcore.variants import load_variant

REPORT_SYSTEMS = ("four-hand-150", "partnership-auction", "double-deck")


def _line_values(variant, seed: int, tricks: int, limit: int) -> list[tuple[Position, list[int], int, dict]]:
    """Each decision of the last ``tricks`` tricks of seed's heuristic hand: (its trick start, the trick so
    far, the card played, the bidding side's value of every legal card, None where the solve gave up)."""
    rec, trace = trace_hand(variant, seed, parse_policies("heuristic", variant.players))
    plays = [b for code, _, b, _ in trace.tolist() if code == T_PLAY]
    n_tricks = len(plays) // variant.players
    out = []
    for k in range(n_tricks - tricks, n_tricks):
        p = traced_position(variant, seed, rec, trace, tricks_played=k)
        trick_cards = plays[k * variant.players : (k + 1) * variant.players]
        for i, card in enumerate(trick_cards):
            out.append((p, trick_cards[:i], card, card_values(p, trick_cards[:i], limit)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("vid", REPORT_SYSTEMS)
def test_the_value_of_the_card_played_is_the_value_of_the_next_position(vid):
    """Along a played line, the bidding side's value of the card played equals what the next decision
    offers it: the best of the next seat's cards for the side to play there (its most for the bidding
    side, its least for the others), plus the points of a trick the card completed when they went to
    the bidding side. Checked at every decision of the last seven tricks of 20 seeds (exact values only:
    a solve that gave up is skipped, never compared)."""
    v = load_variant(vid)
    checked = 0
    for seed in range(1, 21):
        try:
            line = _line_values(v, seed, 7, 200_000)
        except PositionError:
            continue
        for (p, trick, card, values), (q, nxt, _, after) in zip(line, line[1:]):
            if values.get(card) is None or any(x is None for x in after.values()):
                continue
            seat = (q.leader + len(nxt)) % v.players
            best = (max if q.side[seat] == 1 else min)(after.values())
            if nxt:  # the same trick goes on
                assert values[card] == best, (vid, seed, trick, card)
            else:
                done = trick + [card]
                win, ws = done[0], p.leader
                for i, c in enumerate(done[1:], 1):
                    if beats(c, win, p.trump):
                        win, ws = c, (p.leader + i) % v.players
                pts = sum(int(v.trick_points[c]) for c in done)
                assert values[card] == best + (pts if p.side[ws] == 1 else 0), (vid, seed, trick, card)
            checked += 1
    assert checked >= 20 * 7 * v.players // 2


def _reference_features(p: Position, lower: int, upper: int) -> list[float]:
    """The evaluation's features read plainly from the position (:data:`FEATURES`, in order)."""
    v, hands, side, trump = p.variant, p.hands.astype(int), p.side, p.trump
    pts = [int(x) for x in v.trick_points]
    u = max(max(pts), 1)
    f = dict.fromkeys(FEATURES, 0.0)
    f.update(bias=1.0, in_play=p.in_play / u, tricks_left=float(p.tricks), lower=lower / u, upper=upper / u)
    f["we_lead"] = float(side[p.leader])
    for s in range(v.players):
        who = "our" if side[s] == 1 else "their"
        trumps = 0
        for t in range(N_TYPES):
            c = int(hands[s, t])
            if not c:
                continue
            f[f"{who}_points"] += c * pts[t] / u
            kind = "trump" if SUIT_OF[t] == trump else "side"
            f[f"{who}_{kind}_{t % N_RANKS}"] += c
            if kind == "trump":
                trumps += c
            elif not any(hands[o, x] for o in range(v.players) if o != s for x in range(6 * (t // 6), t)):
                f[f"{who}_winners"] += 1
                f[f"{who}_winner_points"] += pts[t] / u
        f[f"{who}_trumps"] += trumps
        f[f"{who}_longest_trump"] = max(f[f"{who}_longest_trump"], float(trumps))
        if trumps:
            for suit in range(4):
                held = hands[:, 6 * suit : 6 * suit + 6]
                if suit != trump and not held[s].any() and held.any():
                    f[f"{who}_ruffs"] += 1
    f["lead_times_left"] = f["we_lead"] * p.tricks
    f["playout"] = _best_lead_playout(p) / u
    return [f[name] for name in FEATURES]


def _best_lead_playout(p: Position) -> int:
    """The bidding side's points when the leader leads his best legal card for his side and the heuristic
    plays the rest, each seat reading its own hand and the cards shown from here: the sampling player's
    playouts (``playout_values``) from the one deal of the known hands."""
    v = p.variant
    ctx = play_context(v, p.side, p.trump, [], (p.leader, []))
    facts = np.zeros(N_FACTS, dtype=np.int64)
    facts[F_LEADER], facts[F_TRUMP], facts[F_BIDDER] = p.leader, p.trump, p.bidder
    facts[F_FIRST], facts[F_BROKEN] = int(p.first), int(p.broken)
    copies = np.asarray(v.deck_copies, dtype=np.int64)
    start = PlayoutStart(
        p.hands[None].astype(np.uint8),
        np.zeros(v.players, dtype=np.int64),
        ctx,
        copies - p.hands.sum(axis=0).astype(np.int64),
        np.asarray(p.side, dtype=np.int64),
        np.full(v.players, HEURISTIC, dtype=np.int64),
        facts,
    )
    leads = np.array(legal_at(p, []), dtype=np.int64)
    out = np.zeros(len(leads))
    playout_values(start, leads, hand_rules(v), np.asarray(v.trick_points, dtype=np.int64), copies, out)
    return int(out.max() if p.side[p.leader] == 1 else out.min())


@pytest.mark.parametrize("vid", REPORT_SYSTEMS)
def test_the_kernel_reads_the_features_a_plain_reading_gives(vid):
    """The kernel's features of random positions equal the plain reading's, and its estimate lies between
    the exact bounds it read, which hold the exact value."""
    v = load_variant(vid)
    rng = random.Random(vid)
    for n in range(30):
        p = random_position(v, 2 + n % 5, rng)
        e = evaluation(p)
        assert len(e.features) == N_FEATURES
        assert e.features.tolist() == pytest.approx(_reference_features(p, e.lower, e.upper)), n
        assert e.unit == max(v.trick_points)
        value = solve(p).side_points
        assert e.lower <= value <= e.upper and e.lower <= e.estimate <= e.upper


@pytest.mark.parametrize("vid", REPORT_SYSTEMS)
def test_searched_values_are_the_exact_values_where_the_budget_proves_them(vid):
    """Near the end of a hand the search reaches the last trick within the budget: every value exact and
    equal to the solver's."""
    v = load_variant(vid)
    for seed in (1, 2):
        rec, trace = trace_hand(v, seed, parse_policies("heuristic", v.players))
        q = traced_position(v, seed, rec, trace, tricks_played=v.hand_size - 4)
        found = searched_card_values(q, [], 2_000_000)
        exact = card_values(q, [])
        assert {c: x.points for c, x in found.items()} == exact
        assert all(x.exact for x in found.values())


def test_a_small_budget_still_values_every_card_and_says_it_is_estimated():
    """At the first lead of a whole hand, one trick start of budget: every legal card valued, from one
    trick searched and the evaluation after it, each marked estimated, within the points in play."""
    v = load_variant("four-hand-150")
    p = seeded_position(v, 1)
    found = searched_card_values(p, [], 1)
    assert set(found) == set(card_values(p, [], 1))
    for x in found.values():
        assert not x.exact and x.depth == 1 and 0 <= x.points <= p.in_play and x.points != GAVE_UP


@pytest.mark.parametrize("budget", [0, -5])
def test_a_budget_below_one_is_refused_in_one_line(budget):
    v = load_variant("four-hand-150")
    with pytest.raises(PositionError, match=f"budget {budget}"):
        searched_card_values(seeded_position(v, 1), [], budget)


@pytest.mark.slow
def test_the_kept_held_out_positions_hold_their_exact_values():
    """The bench's held-out positions (simcore/answers/value_positions.json) are what their recipe says: 300
    a report system at 9 tricks left, seeds apart from the evaluation's, and a few of them solved again
    give the kept exact values (the first of each system)."""
    from simcore.answers.value_errors import POSITIONS_FILE, position_from_json

    kept = json.loads(POSITIONS_FILE.read_text())
    by_system = {}
    for d in kept["positions"]:
        by_system.setdefault(d["system"], []).append(d)
    assert sorted(by_system) == sorted(REPORT_SYSTEMS) and all(len(x) == 300 for x in by_system.values())
    for system, positions in by_system.items():
        for d in positions[:1]:
            p = position_from_json(d)
            assert p.tricks == 9
            assert {card_name(c): x for c, x in card_values(p, []).items()} == d["values"], system


def test_the_value_bench_scores_the_estimates_against_the_kept_values(capsys):
    """pinochle bench --values on a few positions: errors, regret and best-card share within their ranges,
    and a budget that proves nothing at 9 tricks left leaves every position estimated."""
    from simcore.answers.value_errors import value_errors

    r = value_errors(budget=2_000, opening=1, systems=("four-hand-150",), count=6)
    row = r.table.iloc[0]
    assert row["positions"] == 6 and row["tricks_left"] == 9 and row["exact"] == 0
    assert row["mean_abs_error"] > 0 and row["mean_regret"] >= 0 and 0 <= row["best_right"] <= 1
    assert r.opening.iloc[0]["deals"] == 1 and r.to_json()["budget"] == 2_000
