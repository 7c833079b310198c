"""Whole games through the game state: hand after hand, any policy at any seat, until the rules' end.

Seats here are the table's, fixed for the game: 0 .. players - 1, partners across (0 and 2 against 1
and 3 in a four-hand partnership game). The deal moves one seat to the left each hand: in hand ``k`` the
dealer is table seat ``(players - 1 + k) % players`` and a hand's own seat ``r`` (0 = the dealer's left,
as :func:`simcore.state.new_hand` numbers them) is table seat ``(k + r) % players``, as in
:func:`simcore.reference.game.reference_game`. Hand ``k`` of game ``g`` is dealt from the stream
``pinochle games --seed S`` deals it from, so with the heuristic at every seat a game here is that
command's game ``g``, hand for hand.

Score lines: one per partnership (line ``s % 2`` of table seat ``s``) with partners across, else one
per seat. Each hand adds :meth:`simcore.state.HandState.returns` to them; the game ends by the rules'
own test (:func:`simcore.kernels.game.game_winner`: the target, playing on when both pass it, the bidder
rule, a losing limit) or, where the rules let a player declare himself out, when he does. Checks
(check pinochle) are not kept: the winner is decided by points alone, as the rules decide it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from simcore.kernels.game import MAX_GAME_HANDS, game_winner
from simcore.kernels.hand_record import DECLARED_OUT
from simcore.state import IllegalAction, new_hand
from simcore.variants import Variant


class PolicyFailed(ValueError):
    """A policy that raised, or returned an action the rules do not allow (its seat and decision)."""


@dataclass(frozen=True)
class GameResult:
    """A finished game: the winning line (-1: none within the hand limit), the final scores by line,
    the hands played, and the hands each line bid and won the contract of."""

    winner: int
    scores: tuple[int, ...]
    hands: int
    contracts: tuple[int, ...]


def lines_of(variant: Variant) -> list[int]:
    """The score line of each table seat: its partnership with partners across, else the seat."""
    across = variant.get("teams.kind") == "partners_across"
    return [s % 2 if across else s for s in range(variant.players)]


def require_game(variant: Variant) -> Variant:
    """``variant``, refused with :class:`~simcore.variants.NotForThisSystem` when it has no game to win
    (no ``game.target``: its deals are settled one by one)."""
    if variant.get("game.target") is None:
        from simcore.variants import NotForThisSystem, load_variant, shipped_ids

        with_games = ", ".join(i for i in shipped_ids() if load_variant(i).get("game.target") is not None)
        raise NotForThisSystem(
            f"{variant.where}: {variant.id} has no game to win (no game.target: its deals are settled one by "
            f"one); systems with a game: {with_games}"
        )
    return variant


def finish(state, policy_of: Callable[[int], Callable], names: Callable[[int], str] = str):
    """Play ``state`` to its end, each decision by ``policy_of(seat)`` (the hand's seats); a policy
    that raises or breaks a rule is a :class:`PolicyFailed` naming ``names(seat)``."""
    while not state.is_terminal():
        seat = state.current_player()
        policy = policy_of(seat)
        try:
            action = policy(state)
        except Exception as exc:
            raise PolicyFailed(
                f"policy {names(seat)} failed at seat {seat} ({state.request().kind}): {type(exc).__name__}: {exc}"
            ) from None
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise PolicyFailed(
                f"policy {names(seat)} returned {action!r} at seat {seat}, which the rules do not allow: {exc}"
            ) from None
    return state


def play_game(
    variant: Variant,
    seed: int,
    game: int,
    policies: list[Callable],
    names: list[str] | None = None,
) -> GameResult:
    """Game ``game`` of ``seed`` with ``policies[s]`` at table seat ``s`` (see the module)."""
    require_game(variant)
    players = variant.players
    line = lines_of(variant)
    n_lines = max(line) + 1
    scores = [0] * n_lines
    contracts = [0] * n_lines
    target = variant.get("game.target")
    declaring = variant.get("game.declare_out")
    rules = variant.game_rules
    labels = names or [f"at table seat {s}" for s in range(players)]
    for k in range(MAX_GAME_HANDS):
        seat_of = [(k + r) % players for r in range(players)]  # the hand's seat r at the table
        need = [target - scores[line[s]] for s in seat_of] if declaring else None
        state = new_hand(variant, seed, hand=k, game=game, need=need)
        here = [policies[s] for s in seat_of]
        finish(state, here.__getitem__, [labels[s] for s in seat_of].__getitem__)
        gained, rec = state.returns(), state.record()
        added = [False] * n_lines
        for r, s in enumerate(seat_of):
            if not added[line[s]]:  # partners' returns are their side's score, once per line
                scores[line[s]] += gained[r]
                added[line[s]] = True
        bidding = line[seat_of[rec["bidder"]]] if rec["bidder"] >= 0 else -1
        if bidding >= 0:
            contracts[bidding] += 1
        if rec["outcome"] == DECLARED_OUT:  # the winner of the last trick reached what he needed
            out = line[seat_of[state.observation(0)["tricks"][-1][2]]]
            winner = out if scores[out] >= target else 1 - out  # a false claim loses the game
            return GameResult(winner, tuple(scores), k + 1, tuple(contracts))
        winner, target, _ = game_winner(np.array(scores, dtype=np.int64), n_lines, bidding, target, rules)
        if winner >= 0:
            return GameResult(int(winner), tuple(scores), k + 1, tuple(contracts))
    return GameResult(-1, tuple(scores), MAX_GAME_HANDS, tuple(contracts))
