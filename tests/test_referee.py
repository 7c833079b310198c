"""The reference referee on rules beyond the shipped files: broken decisions caught, simultaneous passes
and jump bids, no duty to beat a winning partner.

Every shipped system's golden playthrough and refereed hands are in tests/test_conformance.py.
"""

import numpy as np
import pytest

from simcore.kernels import hand_record as h
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.policies import parse_policies
from simcore.variants import load_variant

SEED = 7


def test_the_referee_catches_broken_decisions():
    from simcore.reference.hand import RuleBroken, referee

    v = load_variant("four-hand-150")
    rec, trace = trace_hand(v, SEED, parse_policies("heuristic", 4))
    rows = trace.tolist()
    bids = [i for i, r in enumerate(rows) if r[0] == h.T_BID and r[2] > 0]
    bad = [list(r) for r in rows]
    bad[bids[0]][2] += 7  # a bid off the legal step
    with pytest.raises(RuleBroken, match="next legal bid"):
        referee(v, bad)
    plays = [i for i, r in enumerate(rows) if r[0] == h.T_PLAY]
    bad = [list(r) for r in rows]
    bad[plays[0]], bad[plays[1]] = bad[plays[1]], bad[plays[0]]  # two seats swap turns
    with pytest.raises(RuleBroken, match="out of turn"):
        referee(v, bad)
    bad = [list(r) for r in rows]
    bad[plays[-1]][2] = (bad[plays[-1]][2] + 1) % 24  # the last card played is not the one held
    with pytest.raises(RuleBroken):
        referee(v, bad)


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_simultaneous_pass_and_jump_bids_are_refereed(policy):
    from simcore.reference.hand import referee

    v = load_variant("double-deck", ["exchange.pass_cards=3", "exchange.simultaneous=true", "auction.jump_steps=2"])
    policies = parse_policies(policy, 4)
    jumps = passes = 0
    for seed in range(100):
        rec, trace = trace_hand(v, seed, policies)
        assert referee(v, trace.tolist()) == dict(zip(h.FIELDS, rec.tolist()))
        bids = [b for code, a, b, c in trace.tolist() if code == h.T_BID and b > 0]
        jumps += sum(1 for x, y in zip(bids, bids[1:]) if y - x > (5 if x >= 60 else 1))
        passes += sum(1 for r in trace.tolist() if r[0] == h.T_PASS)
    assert passes > 0
    if policy == "random":
        assert jumps > 0  # random bidders really do jump


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_no_duty_to_beat_a_winning_partner_is_refereed(policy):
    # play.beat_partner = false: with partner winning the trick a follower must still follow suit (or
    # trump when void) but need not beat; the referee checks every card, and some cards played are ones
    # the duty to beat would have forbidden
    from simcore.reference.hand import referee
    from simcore.reference.play import reference_legal, winning_position

    v = load_variant("four-hand-150", ["play.beat_partner=false"])
    strict = load_variant("four-hand-150")
    policies = parse_policies(policy, 4)
    freed = 0
    for seed in range(60):
        rec, trace = trace_hand(v, seed, policies)
        rows = trace.tolist()
        assert referee(v, rows) == dict(zip(h.FIELDS, rec.tolist()))
        hands = np.zeros((4, 24), dtype=int)
        for code, a, b, c in rows:
            if code == h.T_DEAL and a < 4:
                hands[a, b] += c
            elif code == h.T_PASS:
                to = int(rec[h.F_BIDDER]) if a != rec[h.F_BIDDER] else (int(rec[h.F_BIDDER]) + 2) % 4
                hands[a, b] -= c
                hands[to, b] += c
        trick, seats, trump = [], [], int(rec[h.F_TRUMP])
        for code, a, b, _ in rows:
            if code == h.T_PLAY:
                if trick and seats[winning_position(trick, trump)] % 2 == a % 2:
                    freed += b not in reference_legal(list(hands[a]), trick, trump, strict)
                hands[a, b] -= 1
                trick.append(b)
                seats.append(a)
            elif code == h.T_TRICK:
                trick, seats = [], []
    assert freed > 0
