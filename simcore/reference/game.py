"""The reference of a whole game: the same hands as the kernel, the game's end rules written plainly.

Each hand is played by the hand kernel itself (its own reference is :mod:`simcore.reference.hand`);
what this checks is the game around it: who deals, whose seats a hand's "side" means, the running
scores, and when and how the game ends.
"""

from __future__ import annotations

import numpy as np

from simcore import hand as h
from simcore.cards import N_TYPES
from simcore.game import MAX_GAME_HANDS
from simcore.rng import hand_state, stream_key
from simcore.variants import Variant


def reference_game(variant: Variant, seed: int, game: int, policies: np.ndarray) -> dict[str, int]:
    """The record (``simcore.game.GAME_FIELDS``) of game ``game`` of the run keyed by ``seed``."""
    players = variant.players
    key = stream_key(seed)
    margins = h.seat_margins(variant, None)
    target = variant.get("game.target")
    scores = [0, 0]
    rec = dict(winner=-1, hands=0, contracts=0, sets=0, redeals=0, tie_rule=0)
    for k in range(MAX_GAME_HANDS):
        dealer = (players - 1 + k) % players
        seat_of = [(dealer + 1 + r) % players for r in range(players)]  # play_hand's seat r
        state = np.zeros(4, dtype=np.uint64)
        hand_state(key, game, k, state)
        out = np.zeros(h.N_FIELDS, dtype=np.int64)
        h.play_hand(state, variant.deck_cards.copy(), players, variant.hand_size, variant.meld_table(),
                    variant.meld_flags(), variant.play_rules(), variant.trick_points, variant.last_trick,
                    variant.hand_rules, np.array([policies[s] for s in seat_of], dtype=np.int64),
                    np.array([margins[s] for s in seat_of]), variant.deck_copies, out,
                    np.zeros((players, N_TYPES), dtype=np.uint8), np.zeros(N_TYPES, dtype=np.uint8),
                    np.zeros(players, dtype=np.int64), np.zeros((0, 4), dtype=np.int64))
        bidder = int(out[h.F_BIDDER])
        bidding_team = seat_of[bidder] % 2 if bidder >= 0 else None
        side_team = bidding_team if bidder >= 0 else seat_of[0] % 2
        scores[side_team] += int(out[h.F_SIDE_SCORE])
        scores[1 - side_team] += int(out[h.F_OTHER_SCORE])
        rec["hands"] += 1
        rec["redeals"] += int(out[h.F_REDEALS])
        if bidder >= 0:
            rec["contracts"] += 1
            rec["sets"] += int(out[h.F_MADE] == 0)
        reached = [s >= target for s in scores]
        if all(reached):
            if variant.get("game.bidder_wins_ties") and bidding_team is not None:
                rec.update(winner=bidding_team, tie_rule=1)
                break
            if variant.get("game.play_on"):
                while min(scores) >= target:
                    target += variant.get("game.play_on")
                reached = [s >= target for s in scores]
            elif scores[0] != scores[1]:
                rec["winner"] = 0 if scores[0] > scores[1] else 1
                break
            else:
                continue
        if reached[0] or reached[1]:
            rec["winner"] = 0 if reached[0] else 1
            break
        limit = variant.get("game.losing_limit", 0)
        if limit and (scores[0] <= -limit) != (scores[1] <= -limit):
            rec["winner"] = 1 if scores[0] <= -limit else 0
            break
    rec.update(score_0=scores[0], score_1=scores[1], target=target)
    return rec
