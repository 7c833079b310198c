"""``pinochle variants``: the shipped rule systems."""

from __future__ import annotations

import argparse

from simcore.commands.common import load_variant, print_json, shipped_ids


def add_parser(sub) -> None:
    p = sub.add_parser("variants", help="list the shipped rule systems")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows = [load_variant(i) for i in shipped_ids()]
    if args.json:
        print_json([{"id": v.id, "name": v.name, "description": v.description} for v in rows])
        return 0
    width = max(len(v.id) for v in rows)
    for v in rows:
        print(f"{v.id:<{width}}  {v.description}")
    return 0
