"""The reference of a whole game: the same hands as the kernel, the game's end rules written plainly.

Each hand is played by the hand kernel itself (its own reference is :mod:`simcore.reference.hand`);
what this checks is the game around it: who deals, whose seats a hand's "side" means, the running
scores, and when and how the game ends.
"""

from __future__ import annotations

import math

import numpy as np

from simcore.kernels import hand_record as h
from simcore.kernels.compiled import hand_rules
from simcore.kernels.game import MAX_GAME_HANDS, MAX_SIDES
from simcore.kernels.hand import hand_work, play_hand
from simcore.kernels.hand_drivers import seat_margins
from simcore.kernels.rng import hand_state, stream_key
from simcore.reference.hand import referee
from simcore.variants import Variant


def reference_game(variant: Variant, seed: int, game: int, policies: np.ndarray) -> dict[str, int]:
    """The record (``simcore.kernels.game.GAME_FIELDS``) of game ``game`` of the run keyed by ``seed``."""
    players = variant.players
    alone = variant.get("teams.kind") != "partners_across"  # every player keeps his own score
    lines = players if alone else 2
    key = stream_key(seed)
    margins = seat_margins(variant, None)
    target = variant.get("game.target")
    scores = [0] * lines
    rec = dict(winner=-1, hands=0, contracts=0, sets=0, redeals=0, tie_rule=0, declared=0, double_pinochle=0)
    checks = [0, 0]  # each partnership's, where the rules pay them
    declaring = variant.get("game.declare_out")
    for k in range(MAX_GAME_HANDS):
        dealer = (players - 1 + k) % players
        seat_of = [(dealer + 1 + r) % players for r in range(players)]  # play_hand's seat r
        state = np.zeros(4, dtype=np.uint64)
        hand_state(key, game, k, state)
        out = np.zeros(h.N_FIELDS, dtype=np.int64)
        # a fresh deck and scratch for every hand, traced where the referee must find each seat's checks
        work = hand_work(variant.tables, players, 4096 if variant.has_checks else 0)
        seats = work.position.seats
        line_of = [s if alone else s % 2 for s in seat_of]
        need = np.array([target - scores[line_of[r]] if declaring else 0 for r in range(players)], dtype=np.int64)
        play_hand(
            state,
            hand_rules(variant),
            np.array([policies[s] for s in seat_of], dtype=np.int64),
            np.array([margins[s] for s in seat_of]),
            need,
            out,
            work,
        )
        bidder = int(out[h.F_BIDDER])
        bidding = None
        if bidder >= 0:
            bidding = seat_of[bidder] if alone else seat_of[bidder] % 2
            rec["contracts"] += 1
            rec["sets"] += int(out[h.F_MADE] == 0)
        if alone:
            for r in range(players):
                scores[seat_of[r]] += int(seats[h.S_SCORE, r])
        else:  # the partnership of the side and the other, by the record
            side_team = bidding if bidding is not None else seat_of[0] % 2
            scores[side_team] += int(out[h.F_SIDE_SCORE])
            scores[1 - side_team] += int(out[h.F_OTHER_SCORE])
        if variant.has_checks:
            _add_hand_checks(variant, checks, work.position.trace, out, line_of, bidding)
        rec["hands"] += 1
        rec["redeals"] += int(out[h.F_REDEALS])
        for r in range(players):  # which lines ever melded a double pinochle
            if seats[h.S_DOUBLE_PIN, r]:
                rec["double_pinochle"] |= 1 << line_of[r]
        out_seats = [r for r in range(players) if seats[h.S_OUT, r]]
        if out_seats:  # a declarer wins at the target, even below the other's score; else loses
            if not declaring or len(out_seats) > 1 or out[h.F_OUTCOME] != h.DECLARED_OUT:
                raise AssertionError(f"hand {k}: declared out by seats {out_seats} under these rules")
            line = line_of[out_seats[0]]
            won = scores[line] >= target
            rec.update(winner=line if won else 1 - line, declared=1 if won else 2)
            break
        winner, target, tie = _winner(variant, scores, bidding, target)
        if winner is not None:
            rec.update(winner=winner, tie_rule=int(tie))
            break
    rec["target"] = target
    rec.update({f"score_{i}": (scores[i] if i < lines else 0) for i in range(MAX_SIDES)})
    if variant.has_checks and rec["winner"] >= 0:
        checks[rec["winner"]] += _game_checks(variant, scores[rec["winner"]], scores[1 - rec["winner"]])
    rec.update(checks_0=checks[0], checks_1=checks[1])
    return rec


def _contract_checks(variant: Variant, bid: int) -> int:
    """Checks for making a contract of ``bid``: the bracket it falls in, and beyond the last bracket
    ``contract_more`` for each full ``contract_every`` points above its lowest bid."""
    pairs = variant.get("checks.contract")
    value = max((c for low, c in pairs if bid >= low), default=0)
    every, last = variant.get("checks.contract_every"), pairs[-1][0]
    if every and bid >= last:
        value += variant.get("checks.contract_more") * ((bid - last) // every)
    return value


def _add_hand_checks(
    variant: Variant, checks: list[int], trace: np.ndarray, out: np.ndarray, line_of: list[int], bidding: int | None
) -> None:
    """Add one hand's checks to the partnerships' ``checks``: each seat's meld as the referee finds it from
    the cards, the contract made or defeated, and a slam."""
    rows = trace[: int(np.count_nonzero(trace[:, 0]))].tolist()
    ref = referee(variant, rows, seats=True)[0]
    none = [0] * len(line_of)  # a hand stopped before the meld or the play has no such rows
    seat_checks, seat_won = ref.get("_checks", none), ref.get("_won", none)
    won = [0, 0]
    for r, line in enumerate(line_of):
        checks[line] += seat_checks[r]
        won[line] += seat_won[r]
    if bidding is not None:
        value = _contract_checks(variant, int(out[h.F_BID]))
        if out[h.F_MADE]:
            checks[bidding] += value
        else:
            checks[1 - bidding] += variant.get("checks.defeat_times") * value
    for line in (0, 1):
        if won[line] and not won[1 - line]:
            checks[line] += variant.get("checks.slam")


def _game_checks(variant: Variant, winners: int, losers: int) -> int:
    """Checks for winning a game that ended ``winners`` to ``losers`` points."""
    per = variant.get("checks.game_per")
    margin = max(0, winners - losers)
    more = variant.get("checks.game_per_checks") * math.ceil(margin / per) if per else 0
    return variant.get("checks.game") + more + (variant.get("checks.losers_minus") if losers < 0 else 0)


def _winner(variant: Variant, scores: list[int], bidding: int | None, target: int):
    """(winner or None, target, decided by the bidder rule), the game's end written plainly."""

    def unique_top(candidates: list[int]):
        if not candidates:
            return None
        top = max(scores[i] for i in candidates)
        tops = [i for i in candidates if scores[i] == top]
        return tops[0] if len(tops) == 1 else None

    at = [i for i, s in enumerate(scores) if s >= target]
    if len(at) >= 2:
        if variant.get("game.bidder_wins_ties") and bidding is not None and bidding in at:
            return bidding, target, True
        if not variant.get("game.play_on"):
            return unique_top(at), target, False
        while len([s for s in scores if s >= target]) >= 2:
            target += variant.get("game.play_on")
        at = [i for i, s in enumerate(scores) if s >= target]
    if len(at) == 1:
        return at[0], target, False
    limit = variant.get("game.losing_limit")
    if limit and any(s <= -limit for s in scores):
        return unique_top([i for i, s in enumerate(scores) if s > -limit]), target, False
    return None, target, False
