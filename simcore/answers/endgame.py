"""How far a policy's card play is from double-dummy play in the last tricks of a hand.

For each seeded hand played out by the policies (heuristic at every seat by default), the last
``tricks_left`` tricks are replayed decision by decision. At each card played the double-dummy solver
values every legal card (:func:`simcore.solver.position.card_values`: the bidding side's trick points
from the start of that trick with that card, then perfect play by both sides). A decision's *loss* is
what the card chosen gave up against the best card for the side of the seat that played it (the
bidding side maximises, the other side minimises); the best card loses 0. Beside it, the mean loss of
a uniformly random legal card at the same decision, as a yardstick.

Part of a loss is hidden information, not misplay: the solver sees every hand, the player does not.

The losses add up exactly: from the first of those tricks, the bidding side takes its double-dummy
value, less its own losses, plus the other side's (``tests/test_endgame.py`` checks this on every
hand). Points are trick points on the variant's scale, as taken, the last-trick bonus included.
Seats are :func:`simcore.kernels.hand.play_hand`'s (0 = the dealer's left).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcore.kernels import hand_record as h
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.policies import POLICY_NAMES, parse_policies
from simcore.run.stats import Interval, values_interval
from simcore.solver.position import Position, PositionError, card_values, searched_card_values, traced_position
from simcore.variants import Variant, require_full_hands

#: A deciding seat's role: the bidder, his partner(s) on the bidding side, or a defender. With no
#: bidder, seat 0's side stands for the bidding side and its seats count as "partner".
ROLES = ("bidder", "partner", "defender")
#: Columns of one decision.
DECISION_COLUMNS = (
    "seed",
    "tricks_left",
    "place",
    "seat",
    "role",
    "legal",
    "chosen",
    "best_card",
    "value",
    "best",
    "loss",
    "random_loss",
    "exact",
)


def seat_role(position: Position, seat: int) -> str:
    """``seat``'s role at ``position`` (:data:`ROLES`): the bidder, a partner on his side, or a defender."""
    return "bidder" if seat == position.bidder else "partner" if position.side[seat] == 1 else "defender"


def hand_decisions(
    variant: Variant, seed: int, tricks_left: int, policies: np.ndarray | None = None
) -> tuple[list[dict], dict[str, int]] | None:
    """(decisions, totals) for the last ``tricks_left`` tricks of seed ``seed``'s first hand played by
    ``policies`` (heuristic at every seat by default): :func:`trace_decisions` of its trace; None when
    the hand was not played out to its last trick (thrown in, set without play, or declared out)."""
    policies = parse_policies("heuristic", variant.players) if policies is None else policies
    rec, trace = trace_hand(variant, seed, policies)
    try:
        return trace_decisions(variant, rec, trace, tricks_left, seed)
    except PositionError:
        return None


def trace_decisions(
    variant: Variant,
    rec: np.ndarray,
    trace: np.ndarray,
    tricks_left: int,
    seed: int = 0,
    limit: int = 0,
    budget: int = 0,
) -> tuple[list[dict], dict[str, int | None]]:
    """(decisions, totals) for the last ``tricks_left`` tricks of a traced hand (``rec``, ``trace`` as
    :func:`simcore.kernels.hand_drivers.trace_hand` gives them; ``seed`` names it in the rows and
    messages). Decisions are dicts of :data:`DECISION_COLUMNS`; ``place`` is 0 for the lead, 1 for the
    next seat, ... ; ``value`` and ``best`` are the bidding side's points from the trick's start with
    the card chosen and with the best card for the deciding side. ``totals``: the points in play over
    those tricks (``in_play``), the bidding side's double-dummy value from their start (``value``) and
    the points it took (``taken``). With ``limit`` > 0 each card's solve gives up after that many trick
    starts: a decision with any card unvalued has ``value``, ``best``, ``best_card``, ``loss`` and
    ``random_loss`` None (and ``totals['value']`` is None if the first one has). With ``budget`` > 0
    instead, every card is valued: exact where the solver proves it within ``budget`` trick starts a
    decision, else estimated (:func:`simcore.solver.position.searched_card_values`); ``exact`` says
    which (every card of the decision proved). Raises :class:`PositionError` for a hand not played out
    to its last trick."""
    rows = trace.tolist()
    plays = [b for code, a, b, c in rows if code == h.T_PLAY]
    won = [(a, b) for code, a, b, c in rows if code == h.T_TRICK]
    players = variant.players
    n_tricks = len(plays) // players
    if not plays or len(plays) % players or n_tricks < variant.hand_size:
        outcome = h.OUTCOMES[int(rec[h.F_OUTCOME])].replace("_", " ")
        raise PositionError(f"{variant.id}: the hand was not played out to its last trick ({outcome})")
    first = n_tricks - tricks_left
    start = traced_position(variant, seed, rec, trace, tricks_played=first)
    decisions, value0 = [], None
    for t in range(first, n_tricks):
        position = start if t == first else traced_position(variant, seed, rec, trace, tricks_played=t)
        trick = plays[t * players : (t + 1) * players]
        for place, chosen in enumerate(trick):
            seat = (position.leader + place) % players
            if budget > 0:
                searched = searched_card_values(position, trick[:place], budget)
                values = {c: x.points for c, x in searched.items()}
                exact = all(x.exact for x in searched.values())
            else:
                values = card_values(position, trick[:place], limit)
                exact = None not in values.values()
            if chosen not in values:
                raise AssertionError(f"{variant.id} seed {seed}: seat {seat} played a card the solver holds illegal")
            sign = 1 if position.side[seat] == 1 else -1  # the bidding side maximises, the other minimises
            known = None not in values.values()
            best_card = max(values, key=lambda c: sign * values[c]) if known else None
            best = values[best_card] if known else None
            if not decisions:
                value0 = best
            role = seat_role(position, seat)
            decisions.append(
                dict(
                    seed=seed,
                    tricks_left=n_tricks - t,
                    place=place,
                    seat=seat,
                    role=role,
                    legal=len(values),
                    chosen=int(chosen),
                    best_card=None if best_card is None else int(best_card),
                    value=values[chosen],
                    best=best,
                    loss=sign * (best - values[chosen]) if known else None,
                    random_loss=float(np.mean([sign * (best - v) for v in values.values()])) if known else None,
                    exact=exact,
                )
            )
    taken = sum(pts for winner, pts in won[first:] if start.side[winner] == 1)
    return decisions, {"in_play": start.in_play, "value": None if value0 is None else int(value0), "taken": int(taken)}


@dataclass(frozen=True)
class EndgameLoss:
    """Decisions of the last ``tricks_left`` tricks of ``hands`` seeded hands (seeds ``seed ..``), with
    those not played out skipped (``played`` counts the rest)."""

    variant: Variant
    tricks_left: int
    seeds: tuple[int, ...]
    played: int
    decisions: pd.DataFrame
    totals: pd.DataFrame  # per played hand: seed, in_play, value, taken (see hand_decisions)
    played_by: str = "heuristic"  # the policies that played the cards, as ``--policy`` names them

    def per_hand(self, by: str | None = None) -> dict[str, Interval]:
        """Points a hand given up against double-dummy play, summed over a hand's decisions, by the
        deciding seats' side ("bidding side", "defenders") or by ``by`` (a column: role, place,
        tricks_left), with the mean loss of a random legal card at the same decisions: {label: interval
        over the played hands}."""
        d = self.decisions.assign(
            group=np.where(self.decisions["role"] == "defender", "defenders", "bidding side")
            if by is None
            else self.decisions[by].astype(str)
        )
        out = {}
        for group, rows in d.groupby("group", sort=True):
            for what, col in ((self.played_by, "loss"), ("random card", "random_loss")):
                sums = rows.groupby("seed")[col].sum().reindex(self.played_seeds, fill_value=0.0)
                out[f"{group}: {what}"] = values_interval(sums.to_numpy(dtype=np.float64))
        return out

    @property
    def played_seeds(self) -> list[int]:
        return self.totals["seed"].tolist()

    def situations(self) -> pd.DataFrame:
        """Every situation (role, place in the trick, tricks left): decisions, mean loss a decision with
        its normal 95% interval (a situation comes at most once a hand, so its decisions are
        independent), share that lost anything, mean loss of a random card."""
        g = self.decisions.groupby(["role", "place", "tricks_left"])
        ivs = g["loss"].apply(lambda x: values_interval(x.to_numpy(dtype=np.float64)))
        return pd.DataFrame(
            {
                "decisions": g.size(),
                "mean_loss": g["loss"].mean(),
                "mean_loss_lo": ivs.map(lambda iv: iv.lo),
                "mean_loss_hi": ivs.map(lambda iv: iv.hi),
                "share_losing": g["loss"].apply(lambda x: float((x > 0).mean())),
                "random_card_loss": g["random_loss"].mean(),
            }
        ).reset_index()

    def worst_situations(self, top: int = 8) -> pd.DataFrame:
        """The situations (role, place in the trick, tricks left) where a decision gives up the most on
        average: decisions, mean loss, share that lost anything, mean loss of a random card."""
        table = self.situations().drop(columns=["mean_loss_lo", "mean_loss_hi"])
        return table.sort_values("mean_loss", ascending=False).head(top).reset_index(drop=True)

    def worst_decisions(self, top: int = 5) -> pd.DataFrame:
        """The single decisions that gave up the most (seed, seat, cards), for ``pinochle playthrough``."""
        return self.decisions.sort_values(["loss", "seed"], ascending=[False, True]).head(top).reset_index(drop=True)

    def to_json(self) -> dict:
        def iv(x: Interval) -> dict:
            return {"estimate": None if np.isnan(x.estimate) else x.estimate, "ci95": [x.lo, x.hi]}

        def records(frame: pd.DataFrame) -> list[dict]:
            return [
                {k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()} for r in frame.to_dict("records")
            ]

        return {
            "variant": self.variant.id,
            "policy": self.played_by,
            "tricks_left": self.tricks_left,
            "hands": len(self.seeds),
            "first_seed": self.seeds[0] if self.seeds else None,
            "played": self.played,
            "decisions": len(self.decisions),
            "mean_in_play": float(self.totals["in_play"].mean()) if self.played else None,
            "mean_double_dummy_value": float(self.totals["value"].mean()) if self.played else None,
            "mean_taken": float(self.totals["taken"].mean()) if self.played else None,
            "given_up_per_hand": {k: iv(v) for k, v in self.per_hand().items()},
            "given_up_per_hand_by_role": {k: iv(v) for k, v in self.per_hand("role").items()},
            "worst_situations": records(self.worst_situations()),
            "worst_decisions": records(self.worst_decisions()),
        }


def endgame_loss(
    variant: Variant, hands: int, seed: int = 0, tricks_left: int = 6, policies: np.ndarray | None = None
) -> EndgameLoss:
    """The decisions of the last ``tricks_left`` tricks of the first hands of seeds ``seed .. seed +
    hands - 1``, valued by the double-dummy solver (see the module docstring). Raises
    :class:`~simcore.variants.NotForThisSystem` for a system without full hands and :class:`PositionError`
    for ``tricks_left`` outside 1 .. hand size."""
    require_full_hands(variant)
    if not 1 <= tricks_left <= variant.hand_size:
        raise PositionError(
            f"--tricks-left {tricks_left}: give 1 to {variant.hand_size}, the tricks of a hand of "
            f"{variant.id} (solving more than about 7 takes seconds a decision)"
        )
    rows, totals = [], []
    for s in range(seed, seed + hands):
        got = hand_decisions(variant, s, tricks_left, policies)
        if got is not None:
            rows.extend(got[0])
            totals.append({"seed": s, **got[1]})
    return EndgameLoss(
        variant,
        tricks_left,
        tuple(range(seed, seed + hands)),
        len(totals),
        pd.DataFrame(rows, columns=list(DECISION_COLUMNS)),
        pd.DataFrame(totals, columns=["seed", "in_play", "value", "taken"]),
        "heuristic" if policies is None else policies_name(policies),
    )


def policies_name(policies: np.ndarray) -> str:
    """The policies of the seats as ``--policy`` names them: one name when every seat plays the same,
    else one a seat, comma-separated."""
    names = [POLICY_NAMES[int(p)] for p in policies]
    return names[0] if len(set(names)) == 1 else ",".join(names)
