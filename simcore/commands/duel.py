"""``pinochle duel``: a Python policy against the heuristic on identical deals."""

from __future__ import annotations

import argparse

from simcore.commands.common import (
    UsageError,
    add_rules_args,
    add_sampler_args,
    full_hand_variant,
    nonnegative_int,
    positive_int,
    print_json,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "duel",
        help="a Python policy (module:function) against the heuristic on identical deals, seats swapped",
        description="Plays a Python policy, policy(state) -> Action on a "
        "simcore.state.HandState, in each partnership (or each seat, without partners) against "
        "the built-in heuristic, and the heuristic alone, on the same deals: points a deal for "
        "each and the difference, with 95% intervals.",
    )
    p.add_argument(
        "--policy",
        required=True,
        metavar="MODULE:FUNCTION",
        help="the policy, e.g. mybot:choose (or heuristic, basic, random: the built-in players, played "
        "in the hand kernel; sampling: the sampling player, simcore.state.sampler; sampled-bids: bids "
        "from the hand's sampled value, simcore.strong.bidder; sampled-trump: trump named from sampled "
        "deals; sampled-exchange: the pass, return and burial chosen from sampled deals; strong: those bids, "
        "trump and cards passed and buried, and the sampling player's card play)",
    )
    add_sampler_args(p, "with --policy sampling or strong")
    p.add_argument(
        "--read-duties",
        action=argparse.BooleanOptionalAction,
        help="with --policy sampling: deal the unseen cards only as the duties of play allow (a seat that "
        "followed low where it had to head holds no higher card of the suit); by default in "
        "partnership-auction and four-hand-150 (docs/policies.md)",
    )
    p.add_argument(
        "--hands",
        type=positive_int,
        help="deals (default 100; each is played once per seat set and once by the heuristic alone)",
    )
    p.add_argument(
        "--games",
        type=positive_int,
        help="instead of deals, whole games: the games of `pinochle games --seed`, each played once per "
        "seat set; prints the share of games the policy won",
    )
    p.add_argument("--seed", type=nonnegative_int, default=1, help="random seed (default 1)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.kernels.policies import POLICY_NAMES
    from simcore.state.game import require_game
    from simcore.strong.duel import PolicyLoadError, duel, duel_games, load_policy
    from simcore.variants import NotForThisSystem

    variant = full_hand_variant(args)
    if args.games is not None and args.hands is not None:
        raise UsageError("pinochle duel: --hands counts deals and --games whole games; give one of them")
    try:
        if args.games is not None:
            require_game(variant)  # before the policy loads: a sampling player takes a while to set up
        policy = load_policy(
            args.policy, args.samples, args.solve_from, args.rollout_from, args.read_auction, args.read_duties
        )
        if args.games is not None:
            result = duel_games(variant, policy, args.games, args.seed, args.policy)
        else:
            args.hands = 100 if args.hands is None else args.hands
            result = duel(variant, policy, args.hands, args.seed, args.policy, in_kernel=args.policy in POLICY_NAMES)
    except NotForThisSystem as exc:
        raise UsageError(f"pinochle duel --games: {exc}") from None
    except PolicyLoadError as exc:  # the user's policy: its name, or what it did
        raise UsageError(f"pinochle duel: {exc}") from None
    if args.json:
        print_json(result)
    elif args.games is not None:
        _print_games(args, variant, result)
    else:
        _print_points(args, variant, result)
    return 0


def _print_points(args: argparse.Namespace, variant, result: dict) -> None:
    rows = [
        (args.policy, result["policy_points"]),
        ("heuristic in the same seats", result["heuristic_points"]),
        ("difference", result["difference"]),
    ]
    width = max(len(label) for label, _ in rows)
    sets = " and ".join("+".join(map(str, g)) for g in result["seat_sets"])
    print(
        f"{args.policy} against the heuristic, {variant.id}: {args.hands} deals (seed {args.seed}), the policy "
        f"at seats {sets} in turn; points a deal, 95% interval"
    )
    for label, iv in rows:
        print(f"  {label:<{width}}  {iv['mean']:8.1f}  [{iv['low']:.1f} to {iv['high']:.1f}]")


def _print_games(args: argparse.Namespace, variant, result: dict) -> None:
    sets = " and ".join("+".join(map(str, g)) for g in result["seat_sets"])
    won = result["games_won"]
    print(
        f"{args.policy} against the heuristic, {variant.id}: {args.games} whole games (those of `pinochle games "
        f"--seed {args.seed}`), each played with the policy at seats {sets} in turn; "
        f"{result['hands_a_game']:.1f} hands a game"
    )
    print(
        f"  games won by the policy  {100 * won['mean']:.1f}%  [{100 * won['low']:.1f}% to {100 * won['high']:.1f}%]"
        f", 95% interval; a player as strong as the heuristic wins {100 * result['even_share']:.0f}%"
    )
