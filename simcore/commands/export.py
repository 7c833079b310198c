"""``pinochle export``: stored runs to Parquet or CSV."""

from __future__ import annotations

import argparse
from pathlib import Path

from simcore.commands.common import UsageError, nonnegative_int, open_store, print_json


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write stored runs to Parquet or CSV")
    p.add_argument("--out", required=True, metavar="FILE", help="a file name ending in .parquet or .csv")
    p.add_argument("--run", metavar="PREFIX", help="only runs whose key starts with PREFIX (see `pinochle runs`)")
    p.add_argument("--seed", type=nonnegative_int, help="only this seed")
    p.add_argument("--chunks", action="store_true", help="one row per chunk instead of the merged tally")
    p.add_argument("--store", metavar="PATH", help="results store file (default as for simulate)")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.run.store import export_frame

    if not args.out.endswith((".parquet", ".csv")):
        raise UsageError(f"pinochle export: --out {args.out!r}: give a file name ending in .parquet or .csv")
    store = open_store(args)
    try:
        frame = export_frame(store, args.run, args.seed, args.chunks)
    except ValueError as exc:
        raise UsageError(f"pinochle export: {exc}")
    if args.out.endswith(".parquet"):
        frame.to_parquet(args.out, index=False)
    else:
        frame.to_csv(args.out, index=False)
    if args.json:
        runs = sorted(set(frame["run"])) if "run" in frame.columns else []
        print_json(
            {
                "out": args.out,
                "format": Path(args.out).suffix.lstrip("."),
                "rows": len(frame),
                "columns": [str(c) for c in frame.columns],
                "runs": runs,
                "run_prefix": args.run,
                "seed": args.seed,
                "store": str(store.path),
                "chunks": bool(args.chunks),
                "bytes": Path(args.out).stat().st_size,
            }
        )
        return 0
    print(f"wrote {len(frame):,} rows to {args.out}")
    return 0
