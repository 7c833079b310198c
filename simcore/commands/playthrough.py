"""``pinochle playthrough``: one seeded hand move by move."""

from __future__ import annotations

import argparse

from simcore.commands.common import add_rules_args, full_hand_variant, nonnegative_int, print_json


def add_parser(sub) -> None:
    p = sub.add_parser("playthrough", help="one seeded hand move by move: deal, bids, pass, melds, tricks")
    p.add_argument("--seed", type=nonnegative_int, default=1, help="random seed (default 1)")
    p.add_argument("--policy", default="heuristic", help="as for simulate")
    p.add_argument("--json", action="store_true", help="print the moves as one JSON object")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.playthrough import playthrough_text
    from simcore.kernels.policies import parse_policies

    variant = full_hand_variant(args)
    policies = parse_policies(args.policy, variant.players)
    if args.json:
        from simcore.answers.playthrough import playthrough_moves

        print_json(playthrough_moves(variant, args.seed, policies))
        return 0
    print(playthrough_text(variant, args.seed, policies), end="")
    return 0
