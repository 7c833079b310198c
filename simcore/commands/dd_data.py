"""``pinochle dd-data``: double-dummy labelled card decisions, the learned player's training data."""

from __future__ import annotations

import argparse

from simcore.commands.common import (
    UsageError,
    add_rules_args,
    full_hand_variant,
    nonnegative_int,
    output_dir,
    positive_int,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "dd-data",
        help="every legal card of the last tricks of basic-played hands, with its features and double-dummy value",
        description="Plays the first hand of seeds S .. S+N-1 with the basic player at every seat and, for "
        "the last --tricks-left tricks, writes one row per legal card of every decision with a choice: "
        "ids, the learned card play's features, the card's double-dummy value and its loss against the "
        "best card (docs/policies.md). Parquet files of --chunk seeds each go to --out; a file "
        "already there is kept, so a stopped run resumes.",
    )
    p.add_argument("--hands", type=positive_int, default=200, help="seeded hands played (default 200)")
    p.add_argument("--seed", type=nonnegative_int, default=0, help="first seed (default 0)")
    p.add_argument(
        "--tricks-left", type=positive_int, default=6, help="tricks replayed at the end of each hand (default 6)"
    )
    p.add_argument("--chunk", type=positive_int, default=100, help="seeds a file (default 100)")
    p.add_argument("--out", required=True, metavar="DIR", help="directory of the Parquet files (created if missing)")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import time

    from simcore.answers.dd_data import dd_frame, hand_rows

    variant = full_hand_variant(args)
    if variant.get("play.stock_play"):
        raise UsageError(f"pinochle dd-data: --variant {variant.id}: a stock game; give a system without a stock")
    if args.tricks_left > variant.hand_size:
        raise UsageError(
            f"pinochle dd-data: --tricks-left {args.tricks_left}: give 1 to {variant.hand_size}, the tricks of a "
            f"hand of {variant.id}"
        )
    out = output_dir("--out", args.out)
    rows_written, began = 0, time.perf_counter()
    for first in range(args.seed, args.seed + args.hands, args.chunk):
        last = min(first + args.chunk, args.seed + args.hands) - 1
        path = out / f"{variant.id}-{args.tricks_left}-{first:07d}-{last:07d}.parquet"
        if path.exists():
            continue
        rows = [r for s in range(first, last + 1) for r in hand_rows(variant, s, args.tricks_left)]
        part = path.with_suffix(".part")
        dd_frame(rows).to_parquet(part, index=False)
        part.rename(path)
        rows_written += len(rows)
        seconds = time.perf_counter() - began
        print(f"{path.name}: {len(rows):,} rows ({rows_written / seconds:,.0f} rows a second so far)", flush=True)
    return 0
