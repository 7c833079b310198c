"""How far the estimated card values stray from the exact ones (``pinochle bench --values``).

The held-out positions are trick starts of heuristic hands (seeds far from the evaluation's training
seeds) with 9 or more tricks left, every hand known; each legal lead's exact value was solved offline
with no limit and kept in ``simcore/answers/value_positions.json`` (``python -m
simcore.answers.value_errors --write``, which says how long it took). The bench values every position
again with :func:`simcore.solver.position.searched_card_values` at a budget and reports, per system
and tricks left: the mean absolute error of the values (points, over every legal card), the regret
of the card the estimate ranks best (its exact value against the exact best, for the side to lead),
the share of positions where that card is an exact best, and the seconds a position took (error and
regret also on four-hand-150's scale of 25 points a hand, ``_25``, to set systems side by side); and, at the
opening lead of seeded deals, the seconds to value every legal card (median and 95th percentile).
Points are the bidding side's trick points from the trick start, on the system's own scale.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simcore.cards import SUITS, card_name, format_hand, parse_card, parse_hand
from simcore.solver.position import Position, PositionError, searched_card_values
from simcore.variants import load_variant

POSITIONS_FILE = Path(__file__).resolve().parent / "value_positions.json"
SYSTEMS = ("four-hand-150", "partnership-auction", "double-deck")
#: The held-out positions' seeds start here (the evaluation is fitted on seeds below 100,000).
FIRST_SEED = 100_001


def held_out_positions(system: str, count: int, tricks_left: int, first_seed: int = FIRST_SEED) -> list[Position]:
    """``count`` trick starts with ``tricks_left`` tricks left, one from each of the first heuristic
    hands from ``first_seed`` on that reach it."""
    from simcore.solver.position import seeded_position

    v = load_variant(system)
    out, seed = [], first_seed
    while len(out) < count:
        try:
            p = seeded_position(v, seed, tricks_played=v.hand_size - tricks_left)
        except PositionError:
            p = None
        if p is not None and p.tricks == tricks_left:
            out.append(p)
        seed += 1
    return out


def position_to_json(p: Position) -> dict:
    return {
        "system": p.variant.id,
        "hands": [format_hand(h) for h in p.hands],
        "trump": SUITS[p.trump],
        "leader": p.leader,
        "side": list(p.side),
        "bidder": p.bidder,
        "broken": p.broken,
        "first": p.first,
    }


def position_from_json(d: dict) -> Position:
    v = load_variant(d["system"])
    hands = np.array([parse_hand(h) for h in d["hands"]], dtype=np.uint8)
    return Position(
        v, hands, SUITS.index(d["trump"]), d["leader"], tuple(d["side"]), d["bidder"], d["first"], d["broken"]
    )


@dataclass(frozen=True)
class ValueErrors:
    """Per system and tricks left: positions, mean absolute error, mean regret, best-card share, mean
    and 95th-percentile seconds a position (``table``); per system the opening lead's seconds
    (``opening``)."""

    table: pd.DataFrame
    opening: pd.DataFrame
    budget: int

    def to_json(self) -> dict:
        return {
            "budget": self.budget,
            "positions": self.table.to_dict("records"),
            "opening_lead": self.opening.to_dict("records"),
        }


def value_errors(budget: int, opening: int = 20, systems=SYSTEMS, count: int | None = None) -> ValueErrors:
    """Measure the kept positions (the first ``count`` of each system and tricks left; None: all) at ``budget`` trick
    starts a position, and ``opening`` opening leads per system (seeds 1..), one thread."""
    from simcore.solver.position import seeded_position

    kept = json.loads(POSITIONS_FILE.read_text())
    searched_card_values(position_from_json(kept["positions"][0]), [], 1)  # compile or load first: time is search
    rows = []
    taken: dict[tuple[str, int], int] = {}
    for d in kept["positions"]:
        p = position_from_json(d) if d["system"] in systems else None
        if p is None or (count is not None and taken.get((d["system"], p.tricks), 0) >= count):
            continue
        taken[d["system"], p.tricks] = taken.get((d["system"], p.tricks), 0) + 1
        exact = {parse_card(c): x for c, x in d["values"].items()}
        start = time.perf_counter()
        found = searched_card_values(p, [], budget)
        seconds = time.perf_counter() - start
        sign = 1 if p.side[p.leader] == 1 else -1
        best = max(sign * x for x in exact.values())
        pick = max(found, key=lambda c: (sign * found[c].points, -c))
        scale = 25 / p.variant.trick_total  # four-hand-150's 25 points a hand
        rows.append(
            {
                "system": d["system"],
                "scale": scale,
                "tricks_left": p.tricks,
                "error": float(np.mean([abs(found[c].points - x) for c, x in exact.items()])),
                "regret": best - sign * exact[pick],
                "best_right": sign * exact[pick] == best,
                "exact": all(x.exact for x in found.values()),
                "seconds": seconds,
            }
        )
    f = pd.DataFrame(rows)
    f["error_25"], f["regret_25"] = f["error"] * f["scale"], f["regret"] * f["scale"]
    table = (
        f.groupby(["system", "tricks_left"])
        .agg(
            positions=("error", "size"),
            mean_abs_error=("error", "mean"),
            mean_regret=("regret", "mean"),
            mean_abs_error_25=("error_25", "mean"),
            mean_regret_25=("regret_25", "mean"),
            best_right=("best_right", "mean"),
            exact=("exact", "mean"),
            seconds_mean=("seconds", "mean"),
            seconds_p95=("seconds", lambda s: float(np.quantile(s, 0.95))),
        )
        .reset_index()
    )
    leads = []
    for system in systems:
        v = load_variant(system)
        times = []
        for seed in range(1, opening + 1):
            try:
                p = seeded_position(v, seed)
            except PositionError:
                continue
            start = time.perf_counter()
            searched_card_values(p, [], budget)
            times.append(time.perf_counter() - start)
        leads.append(
            {
                "system": system,
                "deals": len(times),
                "seconds_median": float(np.median(times)),
                "seconds_p95": float(np.quantile(times, 0.95)),
            }
        )
    return ValueErrors(table, pd.DataFrame(leads), budget)


def main(argv=None) -> int:
    """Solve the held-out positions exactly and write them to :data:`POSITIONS_FILE`."""
    p = argparse.ArgumentParser(description="solve the held-out positions of pinochle bench --values")
    p.add_argument("--count", type=int, default=300, help="positions per system and tricks left (default 300)")
    p.add_argument("--tricks-left", nargs="+", type=int, default=[9], help="default 9")
    p.add_argument("--systems", nargs="+", default=list(SYSTEMS))
    p.add_argument("--write", action="store_true", help="write the positions file")
    p.add_argument("--append", action="store_true", help="keep the file's positions and recipe, add these")
    args = p.parse_args(argv)
    from simcore.solver.position import card_values

    kept = json.loads(POSITIONS_FILE.read_text()) if args.append else {"recipe": "", "positions": []}
    out = list(kept["positions"])
    start = time.perf_counter()
    for system in args.systems:
        for left in args.tricks_left:
            for pos in held_out_positions(system, args.count, left):
                values = card_values(pos, [])
                out.append({**position_to_json(pos), "values": {card_name(c): x for c, x in values.items()}})
            print(f"{system}, {left} tricks left: {time.perf_counter() - start:.0f} s so far", file=sys.stderr)
    recipe = (
        f"python -m simcore.answers.value_errors --count {args.count} --tricks-left "
        f"{' '.join(map(str, args.tricks_left))} --systems {' '.join(args.systems)} --write: the trick start "
        f"with that many tricks left of the heuristic hands of seeds {FIRST_SEED} on, each legal lead solved "
        f"exactly with no limit ({time.perf_counter() - start:.0f} s in one process)"
    )
    recipe = f"{kept['recipe']}; then {recipe}" if kept["recipe"] else recipe
    if args.write:
        POSITIONS_FILE.write_text(json.dumps({"recipe": recipe, "positions": out}, indent=0) + "\n")
        print(f"wrote {POSITIONS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
