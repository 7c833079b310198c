"""Double-dummy make odds: for seeded hands bid and passed by the heuristic, would the
contract be made with every hand known and perfect play by both sides, beside whether the heuristic's
own play made it.

A hand's contract is made when the bidding side's trick points, with its meld where it is kept, reach
the bid. From the first lead the side needs ``need`` = bid − its meld (counted from the rules' minimum)
trick points; where the meld is kept only by winning a trick (``scoring.save_meld = "trick"``) or by
points (``"points"``) the need is at least 1 point or those points — one point stands in for one trick
(a side that can win a trick can nearly always win a counter; the check below counts any hand where the
two differ for the heuristic). The solver answers "can the bidding side take at least ``need``?"
(:func:`simcore.solver.position.solve` with a target) under an escalating budget
(:mod:`simcore.solver.escalation`): every hand at a small limit of trick starts, then only the give-ups
at ten times the limit, and so on, until the band the give-ups leave (:func:`settled`) is at most a
third of the rate's 95% half-width, or the total budget is spent. A hand still unsolved counts as made
in the upper end of the rate and as not made in the lower, so the rate's interval (:func:`dd_rate`) is
honest whatever the budget.

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
from simcore.solver.escalation import FACTOR, Pass, escalated_solves
from simcore.solver.position import Position, PositionError, Solved, traced_position
from simcore.variants import NotForThisSystem, Variant, require_auction

#: Columns of one hand.
HAND_COLUMNS = ("seed", "bid", "meld", "need", "heuristic_points", "heuristic_made", "dd", "nodes")
#: Trick starts the first pass's solves may each search (``dd-odds --limit``).
FIRST_LIMIT = 20_000
#: Trick starts all the passes may search together (``dd-odds --budget``).
BUDGET = 1_000_000_000


def dd_rate(made: int, gave_up: int, n: int) -> Interval:
    """The double-dummy make rate of ``n`` hands, ``made`` of them made and ``gave_up`` unsolved: the
    estimate counts each unsolved hand as half made; the interval runs from the Wilson 95% lower bound
    with every unsolved hand lost to the upper bound with every one made, so it holds the rate whatever
    the unsolved hands are."""
    if n <= 0:
        return Interval(float("nan"), 0.0, 1.0)
    return Interval((made + gave_up / 2) / n, wilson(made, n).lo, wilson(made + gave_up, n).hi)


def half_width(made: int, gave_up: int, n: int) -> float:
    """Half the width of the Wilson 95% interval at the rate's estimate (unsolved hands half made): the
    sampling error beside which the give-ups' band is judged."""
    w = wilson(made + gave_up / 2, n)
    return (w.hi - w.lo) / 2


def settled(made: int, gave_up: int, n: int) -> bool:
    """Whether the band the unsolved hands leave (``gave_up / n``, from all lost to all made) is at most
    a third of the rate's 95% half-width (:func:`half_width`): then they matter too little beside the
    sampling error to solve further."""
    return n > 0 and gave_up / n <= half_width(made, gave_up, n) / 3


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


def _answer(result: Solved | None) -> int | None:
    """1 made, 0 not, None unsolved; a hand whose need is met before play (no solve) is made."""
    return 1 if result is None else (None if result.gave_up else int(result.reaches))


def hand_rows(variant: Variant, contracts: list[Contract], limit: int, threads: int | None = None) -> list[dict]:
    """One row of :data:`HAND_COLUMNS` per contract: the double-dummy answer of one pass at ``limit``
    trick starts a solve (1 made, 0 not, None gave up) beside the heuristic's; the solves run on
    ``threads`` threads (default: numba's count)."""
    asked = [c for c in contracts if c.need > 0]
    got = escalated_solves([c.position for c in asked], [c.need for c in asked], limit, threads=threads, most_passes=1)
    solved = dict(zip((c.seed for c in asked), got.solved))
    rows = []
    for c in contracts:
        result = solved.get(c.seed)
        rows.append(
            dict(
                seed=c.seed,
                bid=c.bid,
                meld=c.meld,
                need=c.need,
                heuristic_points=c.heuristic_points,
                heuristic_made=c.heuristic_made,
                dd=_answer(result),
                nodes=0 if result is None else result.nodes,
            )
        )
    return rows


@dataclass(frozen=True)
class MakeOdds:
    """Hands of seeds ``seed ..`` with their heuristic and double-dummy results (``hands``: a frame of
    :data:`HAND_COLUMNS`; ``nodes`` the trick starts of every pass a hand's solve took part in),
    ``limit`` the first pass's limit of trick starts a solve, ``passes`` the passes run (empty: one pass
    at ``limit``, as worker jobs gather them before :meth:`escalated`) and ``budget`` the total trick
    starts they could spend (0: no escalation asked)."""

    variant: Variant
    seeds: tuple[int, ...]
    limit: int
    hands: pd.DataFrame
    passes: tuple[Pass, ...] = ()
    budget: int = 0

    @property
    def runs(self) -> tuple[Pass, ...]:
        """The passes run: :attr:`passes`, or the one pass the hands' rows show."""
        if self.passes:
            return self.passes
        asked = self.hands[self.hands["need"] > 0]
        return (Pass(self.limit, len(asked), int(asked["dd"].isna().sum()), int(asked["nodes"].sum())),)

    @property
    def nodes(self) -> int:
        """Trick starts searched over every pass."""
        return int(self.hands["nodes"].sum())

    @property
    def mismatches(self) -> int:
        """Hands where the heuristic's points against the need disagree with the kernel's made."""
        h_ = self.hands
        return int(((h_["heuristic_points"] >= h_["need"]).astype(int) != h_["heuristic_made"]).sum())

    def escalated(
        self, budget: int = BUDGET, threads: int | None = None, policies: np.ndarray | None = None
    ) -> MakeOdds:
        """These hands with the unsolved ones solved again at ten times the last pass's limit, and so on
        (:func:`~simcore.solver.escalation.escalated_solves`), until :func:`settled`, none is left or
        ``budget`` trick starts (every pass's, the earlier included) are spent. ``policies`` must be
        those that played the hands (default: the heuristic at every seat)."""
        h_ = self.hands
        left = h_[h_["dd"].isna()]
        runs = self.runs
        if left.empty or budget <= self.nodes or settled(int((h_["dd"] == 1).sum()), len(left), len(h_)):
            return MakeOdds(self.variant, self.seeds, self.limit, h_, runs, budget)
        policies = parse_policies("heuristic", self.variant.players) if policies is None else policies
        contracts = [contract(self.variant, int(seed), policies) for seed in left["seed"]]
        made_before, n = int((h_["dd"] == 1).sum()), len(h_)

        def enough(latest: list[Solved]) -> bool:
            made = made_before + sum(1 for r in latest if not r.gave_up and r.reaches)
            return settled(made, sum(1 for r in latest if r.gave_up), n)

        got = escalated_solves(
            [c.position for c in contracts],
            [c.need for c in contracts],
            runs[-1].limit * FACTOR,
            budget - self.nodes,
            threads,
            enough,
            gave_up_at=runs[-1].limit,
        )
        hands = h_.copy()
        for (index, row), result in zip(left.iterrows(), got.solved):
            if result is None:  # the budget paid for no larger pass
                continue
            hands.at[index, "dd"] = _answer(result)
            hands.at[index, "nodes"] = int(row["nodes"]) + result.nodes
        return MakeOdds(self.variant, self.seeds, self.limit, hands, runs + got.passes, budget)

    def by_bid(self, width: int | None = None) -> pd.DataFrame:
        """Per bid bracket (``width`` points wide; default 5 steps of the auction): hands, the heuristic's
        make rate with its 95% interval, the double-dummy make rate with its 95% interval (``dd``,
        ``dd_lo``, ``dd_hi``, :func:`dd_rate`: unsolved hands half made in the estimate, lost and made at
        the two ends), and the rate's lower end (unsolved hands not made), upper end (made) and the
        unsolved hands."""
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
            dd = dd_rate(made, gave, n)
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

    def overall(self) -> dict[str, Interval | float | int | bool]:
        """Over every hand: hands, the heuristic's make rate (an interval), the double-dummy make rate
        (``dd``, :func:`dd_rate`), its ends with the unsolved hands lost and made (``dd_low``,
        ``dd_high``), the unsolved hands (``gave_up``), their ``band`` (``dd_high - dd_low``), the rate's
        95% ``half_width`` and whether the band is at most a third of it (``settled``)."""
        n = len(self.hands)
        made, gave = int((self.hands["dd"] == 1).sum()), int(self.hands["dd"].isna().sum())
        return {
            "hands": n,
            "heuristic": wilson(int(self.hands["heuristic_made"].sum()), n),
            "dd": dd_rate(made, gave, n),
            "dd_low": made / n if n else float("nan"),
            "dd_high": (made + gave) / n if n else float("nan"),
            "gave_up": gave,
            "band": gave / n if n else float("nan"),
            "half_width": half_width(made, gave, n) if n else float("nan"),
            "settled": settled(made, gave, n),
        }

    def to_json(self) -> dict:
        o = self.overall()
        h_, dd = o["heuristic"], o["dd"]
        return {
            "variant": self.variant.id,
            "first_seed": self.seeds[0],
            "seeds": len(self.seeds),
            "limit": self.limit,
            "budget": self.budget,
            "nodes": self.nodes,
            "passes": [p.to_json() for p in self.runs],
            "hands": o["hands"],
            "mismatches": self.mismatches,
            "heuristic": {"estimate": h_.estimate, "ci95": [h_.lo, h_.hi]},
            "double_dummy": {
                "estimate": dd.estimate if o["hands"] else None,
                "ci95": [dd.lo, dd.hi] if o["hands"] else None,
                "low": o["dd_low"] if o["hands"] else None,
                "high": o["dd_high"] if o["hands"] else None,
                "gave_up": o["gave_up"],
                "band": o["band"] if o["hands"] else None,
                "half_width": o["half_width"] if o["hands"] else None,
                "settled": o["settled"],
            },
            "by_bid": self.by_bid().to_dict(orient="records"),
        }


def dd_make_odds(
    variant: Variant,
    hands: int,
    seed: int = 0,
    limit: int = FIRST_LIMIT,
    policies: np.ndarray | None = None,
    threads: int | None = None,
    budget: int = BUDGET,
) -> MakeOdds:
    """The first hands of seeds ``seed .. seed + hands - 1`` played out (see the module), their solves
    on ``threads`` threads (the answers do not depend on it): a first pass at ``limit`` trick starts a
    solve, then :meth:`MakeOdds.escalated` within ``budget`` trick starts in all (0: the first pass
    only)."""
    check_variant(variant)
    policies = parse_policies("heuristic", variant.players) if policies is None else policies
    contracts = [c for s in range(seed, seed + hands) if (c := contract(variant, s, policies)) is not None]
    rows = hand_rows(variant, contracts, limit, threads)
    odds = MakeOdds(variant, tuple(range(seed, seed + hands)), limit, pd.DataFrame(rows, columns=list(HAND_COLUMNS)))
    return odds.escalated(budget, threads, policies) if budget else odds
