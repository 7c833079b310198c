"""``pinochle runs``: the runs kept in the results store."""

from __future__ import annotations

import argparse
import json

from simcore.commands.common import open_store


def add_parser(sub) -> None:
    p = sub.add_parser("runs", help="list the runs kept in the results store")
    p.add_argument("--store", metavar="PATH", help="results store file (default as for simulate)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    runs = store.runs()
    if args.json:
        print(runs.assign(written=runs["written"].astype(str)).to_json(orient="records", indent=2))
        return 0
    print(f"{store.path}: {len(runs)} run{'s' if len(runs) != 1 else ''}")
    for r in runs.itertuples():
        params = json.loads(r.params)
        what = ", ".join(f"{k} {v}" for k, v in params.items() if k in ("policies", "first_game"))
        print(
            f"  {r.run[:12]}  {r.kernel:<12} {r.variant:<26} seed {r.seed:<6} {r.chunks:>6,} chunks "
            f"{r.deals:>14,} {_RUN_UNITS.get(r.kernel, 'hands'):<6} {r.bytes / 1e6:8.2f} MB"
            f"  {'' if r.current_code else '(older code: not reused) '}{what}"
        )
    return 0


_RUN_UNITS = {"odds": "deals", "games": "games"}
