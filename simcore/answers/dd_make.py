"""Double-dummy make odds: for seeded hands bid and passed by the heuristic, would the
contract be made with every hand known and perfect play by both sides, beside whether the heuristic's
own play made it.

A hand's contract is made when the bidding side's trick points, with its meld where it is kept, reach
the bid. From the first lead the side needs ``need`` = bid − its meld (counted from the rules' minimum)
trick points; where the meld is kept only by winning a trick (``scoring.save_meld = "trick"``) or by
points (``"points"``) the need is at least 1 point or those points — one point stands in for one trick
(a side that can win a trick can nearly always win a counter; the check below counts any hand where the
two differ for the heuristic). The solver answers "can the bidding side take at least ``need``?"
(:func:`simcore.solver.position.solve` with a target) under a limit of trick starts; a solve that reaches
the limit gives up, and its hand counts as made in the upper bound of the double-dummy rate and as not
made in the lower, so the bounds are honest whatever the limit.

Every hand's need is checked against the kernel: the heuristic's own points reach the need exactly
when the kernel's record says the contract was made (``mismatches`` counts the hands where they
disagree). A dix kept when the meld is lost (``scoring.dix_kept``) is left out of the need: it counts only
for a side that takes nothing, which never reaches a bid with it. Systems whose made rule this cannot
state (buried, discarded or stock cards counting towards the bid; rounded trick points; a partner the
defenders do not know) are refused. Points are on the variant's scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcore.kernels import hand_record as h
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.policies import parse_policies
from simcore.run.stats import Interval, wilson
from simcore.solver.position import Position, PositionError, solve_many, traced_position
from simcore.variants import NotForThisSystem, Variant, require_auction

#: Columns of one hand.
HAND_COLUMNS = ("seed", "bid", "meld", "need", "heuristic_points", "heuristic_made", "dd", "nodes")


def check_variant(variant: Variant) -> None:
    """Refuse, in one line (:class:`~simcore.variants.NotForThisSystem`), a system whose made rule
    :func:`dd_make_odds` cannot state."""
    require_auction(variant, "its double-dummy make odds are not computed here (there is no contract)")
    why = None
    if variant.get("exchange.widow_to_bidder") or variant.get("exchange.draw") or variant.get("play.stock_play"):
        why = "lets buried, discarded or stock cards count, which the solver does not see"
    elif variant.get("tricks.round_to"):
        why = "rounds trick points"
    elif variant.get("teams.kind") == "called_card":
        why = "has a called partner, whom the defenders do not know"
    if why:
        raise NotForThisSystem(f"{variant.id} {why}: its double-dummy make odds are not computed here")


def trick_need(variant: Variant, bid: int, meld: int) -> int:
    """Trick points the bidding side needs from the first lead to make ``bid`` with ``meld``."""
    counted = meld if meld >= variant.get("scoring.min_meld_to_count") else 0
    need = bid - counted
    rule = variant.get("scoring.save_meld")
    if counted and rule == "trick":
        need = max(need, 1)
    elif counted and rule == "points":
        need = max(need, variant.get("scoring.save_meld_points"))
    return need


@dataclass(frozen=True)
class Contract:
    """The first hand of a seed as the policies bid and played it: the position at its first lead,
    the contract, the kept meld, the trick points needed from the first lead (:func:`trick_need`), and the
    heuristic's own trick points and result (points on the variant's scale)."""

    seed: int
    position: Position
    bid: int
    meld: int
    need: int
    heuristic_points: int
    heuristic_made: int


def contract(variant: Variant, seed: int, policies: np.ndarray) -> Contract | None:
    """The :class:`Contract` of the first hand of ``seed``; None for a hand not played out or with no
    bidder."""
    rec, trace = trace_hand(variant, seed, policies)
    if int(rec[h.F_OUTCOME]) != h.PLAYED or int(rec[h.F_BIDDER]) < 0:
        return None
    try:
        position = traced_position(variant, seed, rec, trace)
    except PositionError:
        return None
    bid, meld = int(rec[h.F_BID]), int(rec[h.F_SIDE_MELD])
    need = trick_need(variant, bid, meld)
    return Contract(seed, position, bid, meld, need, int(rec[h.F_SIDE_TRICKS]), int(rec[h.F_MADE]))


def hand_rows(variant: Variant, contracts: list[Contract], limit: int, threads: int | None = None) -> list[dict]:
    """One row of :data:`HAND_COLUMNS` per contract: the double-dummy answer (1 made, 0 not, None gave
    up) beside the heuristic's; the solves run on ``threads`` threads (default: numba's count)."""
    asked = [c for c in contracts if c.need > 0]
    solved = dict(
        zip((c.seed for c in asked), solve_many([c.position for c in asked], [c.need for c in asked], limit, threads))
    )
    rows = []
    for c in contracts:
        result = solved.get(c.seed)
        dd = 1 if result is None else (None if result.gave_up else int(result.reaches))
        rows.append(
            dict(
                seed=c.seed,
                bid=c.bid,
                meld=c.meld,
                need=c.need,
                heuristic_points=c.heuristic_points,
                heuristic_made=c.heuristic_made,
                dd=dd,
                nodes=0 if result is None else result.nodes,
            )
        )
    return rows


@dataclass(frozen=True)
class MakeOdds:
    """Hands of seeds ``seed ..`` with their heuristic and double-dummy results (``hands``: a frame of
    :data:`HAND_COLUMNS`)."""

    variant: Variant
    seeds: tuple[int, ...]
    limit: int
    hands: pd.DataFrame

    @property
    def mismatches(self) -> int:
        """Hands where the heuristic's points against the need disagree with the kernel's made."""
        h_ = self.hands
        return int(((h_["heuristic_points"] >= h_["need"]).astype(int) != h_["heuristic_made"]).sum())

    def by_bid(self, width: int | None = None) -> pd.DataFrame:
        """Per bid bracket (``width`` points wide; default 5 steps of the auction): hands, the heuristic's
        make rate with its 95% interval, the double-dummy make rate with its 95% interval (``dd``,
        ``dd_lo``, ``dd_hi``; NaN in a bracket where a solve gave up), and the double-dummy rate's lower
        bound (gave-ups not made), upper bound (gave-ups made) and gave-ups."""
        width = width or 5 * self.variant.get("auction.step")
        base, step = self.variant.lowest_contract, self.variant.get("auction.step")
        frame = self._rates((self.hands["bid"] - base) // width * width + base)
        frame.insert(0, "bids", [f"{lo}-{lo + width - step}" for lo in frame.pop("bid")])
        return frame

    def each_bid(self) -> pd.DataFrame:
        """As :meth:`by_bid`, one row per bid made (``bid``, points), for a curve over the bids."""
        return self._rates(self.hands["bid"])

    def _rates(self, key: pd.Series) -> pd.DataFrame:
        """One row per value of ``key`` (a bid or a bracket's lowest bid, ``bid``): see :meth:`by_bid`."""
        rows = []
        for lo, g in self.hands.groupby(key, sort=True):
            n = len(g)
            heur = wilson(int(g["heuristic_made"].sum()), n)
            made, gave = int((g["dd"] == 1).sum()), int(g["dd"].isna().sum())
            dd = wilson(made, n) if gave == 0 else Interval(float("nan"), float("nan"), float("nan"))
            rows.append(
                {
                    "bid": int(lo),
                    "hands": n,
                    "heuristic": heur.estimate,
                    "heuristic_lo": heur.lo,
                    "heuristic_hi": heur.hi,
                    "dd": dd.estimate,
                    "dd_lo": dd.lo,
                    "dd_hi": dd.hi,
                    "dd_low": made / n,
                    "dd_high": (made + gave) / n,
                    "gave_up": gave,
                }
            )
        return pd.DataFrame(
            rows,
            columns=[
                "bid",
                "hands",
                "heuristic",
                "heuristic_lo",
                "heuristic_hi",
                "dd",
                "dd_lo",
                "dd_hi",
                "dd_low",
                "dd_high",
                "gave_up",
            ],
        )

    def overall(self) -> dict[str, Interval | float | int | None]:
        """Over every hand: hands, the heuristic's make rate (an interval), the double-dummy make rate
        (``dd``: an interval, None when a solve gave up), its range (``dd_low``, ``dd_high``) and the
        gave-ups."""
        n = len(self.hands)
        made, gave = int((self.hands["dd"] == 1).sum()), int(self.hands["dd"].isna().sum())
        return {
            "hands": n,
            "heuristic": wilson(int(self.hands["heuristic_made"].sum()), n),
            "dd": wilson(made, n) if n and not gave else None,
            "dd_low": made / n if n else float("nan"),
            "dd_high": (made + gave) / n if n else float("nan"),
            "gave_up": gave,
        }

    def to_json(self) -> dict:
        o = self.overall()
        h_ = o["heuristic"]
        return {
            "variant": self.variant.id,
            "first_seed": self.seeds[0],
            "seeds": len(self.seeds),
            "limit": self.limit,
            "hands": o["hands"],
            "mismatches": self.mismatches,
            "heuristic": {"estimate": h_.estimate, "ci95": [h_.lo, h_.hi]},
            "double_dummy": {
                "estimate": None if o["dd"] is None else o["dd"].estimate,
                "ci95": None if o["dd"] is None else [o["dd"].lo, o["dd"].hi],
                "low": o["dd_low"],
                "high": o["dd_high"],
                "gave_up": o["gave_up"],
            },
            "by_bid": self.by_bid().to_dict(orient="records"),
        }


def dd_make_odds(
    variant: Variant,
    hands: int,
    seed: int = 0,
    limit: int = 300_000,
    policies: np.ndarray | None = None,
    threads: int | None = None,
) -> MakeOdds:
    """The first hands of seeds ``seed .. seed + hands - 1`` played out (see the module), their solves
    on ``threads`` threads (the answers do not depend on it)."""
    check_variant(variant)
    policies = parse_policies("heuristic", variant.players) if policies is None else policies
    contracts = [c for s in range(seed, seed + hands) if (c := contract(variant, s, policies)) is not None]
    rows = hand_rows(variant, contracts, limit, threads)
    return MakeOdds(variant, tuple(range(seed, seed + hands)), limit, pd.DataFrame(rows, columns=list(HAND_COLUMNS)))
