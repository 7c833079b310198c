"""Training data for the heuristic's learned card play: every legal card of the last tricks of hands
played by ``basic`` (the hand-written player the model was fitted beside), with its features and its
double-dummy value (``pinochle dd-data``).

For each seeded hand played by ``basic`` at every seat, the last ``tricks_left`` tricks are replayed
decision by decision (as :mod:`simcore.answers.endgame` does). At each decision with more than one
legal card, every legal card gets one row: the decision's ids, the card, the features the learned
card play reads there (:func:`simcore.kernels.card_features.card_features`, from the kernel's own view:
the seat's hand, the unseen card types, the trick so far, the shown voids), the card's double-dummy
value (the bidding side's points from the trick's start with that card, then perfect play:
:func:`simcore.solver.position.card_values`) and its loss against the best card for the deciding side
(0 for the best). Points are on the variant's scale; ``unit`` (the dearest card's points) scales them.
Seats are numbered clockwise from 0, the dealer's left.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcore.answers.endgame import seat_role
from simcore.cards import N_TYPES
from simcore.kernels import hand_record as h
from simcore.kernels.card_features import FEATURES, card_features, decision_view, play_context
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.play import beats
from simcore.kernels.policies import choose_card, parse_policies
from simcore.solver.position import PositionError, card_values, traced_position
from simcore.variants import Variant

#: The columns of the data: ids, the card, the features, the card's value and loss.
ID_COLUMNS = ("system", "seed", "trick", "tricks_left", "place", "seat", "role", "legal")
COLUMNS = (*ID_COLUMNS, "card", "chosen", *FEATURES, "unit", "value", "loss")


def hand_rows(variant: Variant, seed: int, tricks_left: int, limit: int = 0) -> list[dict]:
    """The rows (dicts of :data:`COLUMNS`) of the last ``tricks_left`` tricks of seed ``seed``'s first
    hand, played by ``basic`` at every seat; none when the hand was not played out to its last
    trick, or a card's solve gave up (``limit`` > 0 trick starts)."""
    rec, trace = trace_hand(variant, seed, parse_policies("basic", variant.players))
    plays = [(a, b) for code, a, b, c in trace.tolist() if code == h.T_PLAY]
    players = variant.players
    n_tricks = len(plays) // players
    if not plays or len(plays) % players or n_tricks < variant.hand_size or variant.get("play.stock_play"):
        return []
    rows = []
    copies = np.asarray(variant.deck_copies, dtype=np.int64)
    for k in range(n_tricks - tricks_left, n_tricks):
        try:
            position = traced_position(variant, seed, rec, trace, tricks_played=k)
        except PositionError:
            return []
        trump = position.trump
        done = [(plays[j * players][0], [c for _, c in plays[j * players : (j + 1) * players]]) for j in range(k)]
        played = np.zeros(N_TYPES, dtype=np.int64)
        for _, cards in done:
            for c in cards:
                played[c] += 1
        trick = [c for _, c in plays[k * players : (k + 1) * players]]
        for place in range(players):
            seat = (position.leader + place) % players
            values = card_values(position, trick[:place], limit)
            if len(values) < 2:
                continue
            if None in values.values():
                return []
            hand = position.hands[seat]
            unseen = sum(1 << t for t in range(N_TYPES) if played[t] + hand[t] < copies[t])
            win, win_seat = (trick[0], position.leader) if place else (0, position.leader)
            for i in range(1, place):
                if beats(trick[i], win, trump):
                    win, win_seat = trick[i], (position.leader + i) % players
            ctx = play_context(variant, position.side, trump, done, (position.leader, trick[:place]))
            hands = np.zeros((players, N_TYPES), dtype=np.uint8)
            hands[seat] = hand
            legal = sum(1 << c for c in values)
            decision = (seat, np.int64(legal), place, win, win_seat, players, trump, np.int64(unseen))
            heuristic = int(choose_card(hands, decision, ctx))
            if heuristic != trick[place]:
                raise AssertionError(f"{variant.id} seed {seed}: the features' view of trick {k} is not the kernel's")
            view = decision_view(hands, seat, players, trump, np.int64(unseen), ctx)
            unit = int(view[7])
            sign = 1 if position.side[seat] == 1 else -1
            best = max(sign * v for v in values.values())
            role = seat_role(position, seat)
            for card, value in sorted(values.items()):
                f = card_features(view, hands, decision, card, ctx, heuristic)
                rows.append(
                    {
                        "system": variant.id,
                        "seed": seed,
                        "trick": k,
                        "tricks_left": n_tricks - k,
                        "place": place,
                        "seat": seat,
                        "role": role,
                        "legal": len(values),
                        "card": card,
                        "chosen": int(card == heuristic),
                        **dict(zip(FEATURES, f)),
                        "unit": unit,
                        "value": value,
                        "loss": best - sign * value,
                    }
                )
    return rows


def dd_frame(rows: list[dict]) -> pd.DataFrame:
    """The rows as a frame of :data:`COLUMNS`, with compact types."""
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    ints = [c for c in ID_COLUMNS if c not in ("system", "role")] + ["card", "chosen", "unit", "value", "loss"]
    frame[ints] = frame[ints].astype(np.int32)
    frame[list(FEATURES)] = frame[list(FEATURES)].astype(np.float32)
    frame["system"] = frame["system"].astype("category")
    frame["role"] = frame["role"].astype("category")
    return frame
