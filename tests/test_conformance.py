"""Conformance of every shipped rules file, parametrised over ``shipped_ids()``, never a hand list.

A rules file dropped into ``simcore/variants/rules/`` is covered here by adding it: it must load and
deal its deck, its traced hand must be the hand the simulation plays, the plain referee
(:mod:`simcore.reference.hand`) must replay every decision of its hands under both policies to the same
record and seat scores, its hand records must keep the invariants, its golden playthrough must be
``tests/golden/<id>-heuristic.txt``, and where it has ``[game]`` rules its games must end with a winner
and match the plain game reference.

A new system needs its golden file written once; a change of rules or policies that alters a hand must
rewrite the files on purpose, after reading the new hand, with
``PINOCHLE_UPDATE_GOLDEN=1 pytest tests/test_conformance.py -k golden``.
"""

import os
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from simcore.answers.game_results import GameRulesError, game_records
from simcore.answers.playthrough import playthrough_text
from simcore.kernels import game as g
from simcore.kernels import hand_record as h
from simcore.kernels.compiled import hand_rules
from simcore.kernels.deal import deal_hands
from simcore.kernels.hand_drivers import free_deal, hands_batch, seat_margins, trace_hand
from simcore.kernels.policies import parse_policies
from simcore.kernels.rng import chunk_states
from simcore.reference.game import reference_game
from simcore.reference.hand import referee
from simcore.variants import load_variant, shipped_ids
from simcore.variants.layout import PINOCHLE, RUN

SYSTEMS = shipped_ids()
POLICIES = ["heuristic", "random"]
GOLDEN = Path(__file__).parent / "golden"
SEED = 7


def test_there_are_systems_to_check():
    # with no rules files found (package data missing) every test below would be skipped, not failed;
    # which systems must be there is test_variants.py's catalogue check
    assert SYSTEMS and "four-hand-150" in SYSTEMS


@pytest.mark.parametrize("vid", SYSTEMS)
def test_rules_file_loads_documents_itself_and_deals_its_deck(vid):
    v = load_variant(vid)
    assert v.id == vid and v.source and v.description
    assert v.players * v.hand_size + v.widow == v.deck_size == len(v.deck_cards)
    assert int(v.deck_copies.sum()) == v.deck_size
    assert all(type(x) is int for x in hand_rules(v)) and all(type(x) is int for x in v.game_rules)
    # every value not in the source document is marked in the file and listed as an assumption
    text = (resources.files("simcore.variants") / "rules" / f"{vid}.toml").read_text()
    if re.search(r"#.*\bassumed\b", text):
        assert v.get("assumptions"), f"{vid} marks assumed values but lists no assumptions"
    assert v.meld_table[RUN, 1] > 0 and v.meld_table[PINOCHLE, 1] > 0
    # every deal is a partition of the deck: each seat its hand, the widow or stock the rest
    deals = deal_hands(v.deck_cards, v.players, v.hand_size, chunk_states(3, [0])[0], 2000)
    assert np.all(deals.sum(axis=1) == v.deck_copies)
    assert np.all(deals[:, : v.players].sum(axis=2) == v.hand_size)
    assert np.all(deals[:, v.players].sum(axis=1) == v.widow)


@pytest.mark.parametrize("vid", SYSTEMS)
def test_a_traced_hand_is_the_same_hand_the_simulation_plays(vid):
    v = load_variant(vid)
    policies = parse_policies("heuristic", v.players)
    rec, trace = trace_hand(v, SEED, policies)
    out = np.zeros((3, h.N_FIELDS), dtype=np.int64)
    hands_batch(
        chunk_states(SEED, [0]),
        np.array([3]),
        np.array([0]),
        v.tables,
        hand_rules(v),
        policies,
        seat_margins(v, None),
        *free_deal(v.tables),
        out,
    )
    assert np.array_equal(rec, out[0])
    # the trace holds every card of the deal exactly once; a played hand is whole tricks, each seat
    # playing one card to each
    dealt = trace[trace[:, 0] == h.T_DEAL]
    assert dealt[:, 3].sum() == v.deck_size
    played = trace[trace[:, 0] == h.T_PLAY]
    if rec[h.F_OUTCOME] == h.PLAYED:
        tricks = int((trace[:, 0] == h.T_TRICK).sum())
        assert tricks > 0 and len(played) == v.players * tricks
        assert np.all(np.bincount(played[:, 1], minlength=v.players) == tricks)


@pytest.mark.parametrize("vid", SYSTEMS)
@pytest.mark.parametrize("policy", POLICIES)
def test_the_reference_referee_replays_every_decision_to_the_same_record(vid, policy):
    # the kernel decides; the plain referee checks each bid and card against the rules and recomputes
    # melds, tricks, scores and what the hand adds to each seat's score line: 150 hands per system
    # and policy
    v = load_variant(vid)
    policies = parse_policies(policy, v.players)
    for seed in range(150):
        rec, trace, seats = trace_hand(v, seed, policies, with_seats=True)
        expected_rec, expected_seats = referee(v, trace.tolist(), seats=True)
        assert {k: x for k, x in expected_rec.items() if not k.startswith("_")} == dict(zip(h.FIELDS, rec.tolist())), (
            vid,
            policy,
            seed,
        )
        assert expected_seats == seats.tolist(), (vid, policy, seed)
        bidder = int(rec[h.F_BIDDER])
        if v.get("teams.kind") == "bidder_alone" and bidder >= 0:
            assert seats[bidder] == rec[h.F_SIDE_SCORE]


@pytest.mark.parametrize("vid", SYSTEMS)
@pytest.mark.parametrize("policy", POLICIES)
def test_hand_records_keep_the_invariants(vid, policy):
    v = load_variant(vid)
    rec = np.zeros((3000, h.N_FIELDS), dtype=np.int64)
    hands_batch(
        chunk_states(11, [0]),
        np.array([3000]),
        np.array([0]),
        v.tables,
        hand_rules(v),
        parse_policies(policy, v.players),
        seat_margins(v, None),
        *free_deal(v.tables),
        rec,
    )
    field = {name: rec[:, i] for i, name in enumerate(h.FIELDS)}
    played = field["outcome"] == h.PLAYED
    # every trick point of the hand is won by one side or the other (buried cards count too); with a
    # stock drawn before play only the cards dealt and drawn are played, so some counters never reach a
    # trick; counted to tens from 7 (two-hand) a hand's 250 may count 240
    taken = field["side_tricks"][played] + field["other_tricks"][played]
    if v.get("play.stock_play"):
        assert np.all((taken == v.trick_total) | (taken == v.trick_total - 10))
        assert np.all(field["side_tricks"] % 10 == 0) and (taken < v.trick_total).any()
    elif v.get("deal.widow_kind") == "stock":
        assert np.all(taken <= v.trick_total) and np.all(taken >= v.last_trick)
    else:
        assert np.all(taken == v.trick_total)
    assert np.all(field["side_tricks"][~played] + field["other_tricks"][~played] == 0)
    has_bidder = field["bidder"] >= 0
    if v.get("auction.kind") == "none":
        assert not has_bidder.any() and np.all(field["made"] == -1)
        assert np.all(field["side_score"] + field["other_score"] >= v.trick_total - v.get("tricks.round_to"))
        return
    # most contracts are played; a compulsory bid forfeited unseen (auction's 300) is the rules' own way out
    assert has_bidder.all() and played[field["outcome"] != h.FORFEITED_UNSEEN].mean() > 0.5
    bids = field["bid"]
    forced = bids == hand_rules(v).forced_bid  # the contract of a player stuck when all pass
    assert np.all((bids >= v.get("auction.min_bid")) | forced)
    # a made bid scores meld + tricks (+ the bid where the rules add it); a set one loses the bid
    made = field["made"] == 1
    if v.get("scoring.dix_kept_when_set"):  # a set bidder keeps his nines of trump (at most the copies)
        dix = field["side_score"][~made] + bids[~made]
        assert np.all((dix >= 0) & (dix <= v.copies * v.meld_flags[0]))
    else:
        assert np.all(field["side_score"][~made] == -bids[~made])
    gained = field["side_score"][made] - (bids[made] if v.get("scoring.bid_added") else 0)
    assert np.all(gained >= bids[made])
    assert np.all(gained <= field["side_meld"][made] + field["side_tricks"][made])
    # a made bid really was reached, a set one really was not (given the meld that was kept)
    kept_max = field["side_meld"] + field["side_tricks"]
    assert np.all(kept_max[made] >= bids[made])
    assert np.all((field["trump"] >= 0) | np.isin(field["outcome"], [h.NO_TRUMP_MARRIAGE, h.FORFEITED_UNSEEN]))
    assert np.all(field["trump_len"][played] >= 0) and np.all(field["aces"] <= 4 * v.copies)


# every system's heuristic hand, and one hand each of basic and random play to pin those policies too
GOLDEN_CASES = [(vid, "heuristic") for vid in SYSTEMS] + [("four-hand-150", "basic"), ("four-hand-150", "random")]


@pytest.mark.parametrize("vid, policy", GOLDEN_CASES)
def test_playthrough_matches_its_golden_file(vid, policy):
    v = load_variant(vid)
    text = playthrough_text(v, SEED, parse_policies(policy, v.players))
    path = GOLDEN / f"{vid}-{policy}.txt"
    if os.environ.get("PINOCHLE_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with PINOCHLE_UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8")


def test_every_golden_file_belongs_to_a_system():
    # a golden file left behind by a renamed or removed rules file would never be checked
    cases = {f"{vid}-{policy}.txt" for vid, policy in GOLDEN_CASES}
    assert {p.name for p in GOLDEN.glob("*.txt")} == cases


@pytest.mark.parametrize("vid", SYSTEMS)
def test_games_match_the_reference_and_always_end_with_a_winner(vid):
    v = load_variant(vid)
    policies = parse_policies("heuristic", v.players)
    if not v.has_game_rules:  # settled deal by deal (auction's chips), never played to a target
        with pytest.raises(GameRulesError, match="no \\[game\\] rules"):
            game_records(v, 10, seed=4, policies=policies)
        return
    records, _ = game_records(v, 300, seed=4, policies=policies)
    assert np.all(records[:, g.GF_WINNER] >= 0)  # a game never ends without a winner
    for game in range(0, 300, 15):  # scores add up hand by hand, the end rules hold
        assert reference_game(v, 4, game, policies) == dict(zip(g.GAME_FIELDS, records[game].tolist()))
    winner, target = records[:, g.GF_WINNER], records[:, g.GF_TARGET]
    won_score = records[np.arange(len(records)), g.GF_SCORE_0 + winner]
    assert np.all(won_score >= target) or v.get("game.losing_limit")
