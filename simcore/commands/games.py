"""``pinochle games``: whole games, or auction's deals settled in chips."""

from __future__ import annotations

import argparse
import sys

from simcore.commands.common import (
    add_rules_args,
    add_run_args,
    exit_status,
    interval_text,
    load_variant,
    partial_note,
    positive_int,
    print_json,
    say_compiling,
    set_threads,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "games", help="whole games: win rates by side, game length, sets, redeals (auction: deals settled in chips)"
    )
    p.add_argument("--games", type=positive_int, default=20_000, help="games to play (default 20000)")
    add_run_args(p)
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.game_results import play_games
    from simcore.kernel_cache import GAMES
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    policies = parse_policies(args.policy, variant.players)
    set_threads(args.threads)
    say_compiling(GAMES)
    from simcore.answers.settlement import has_settlement

    if not variant.has_game_rules and has_settlement(variant):
        return _settled_deals(args, variant, policies)
    result = play_games(variant, args.games, args.seed, policies, progress=not args.json and sys.stderr.isatty())
    status = exit_status(result)
    if args.json:
        print_json(result.to_json())
        return status
    print(
        f"{variant.id}: {result.games:,} games to {variant.get('game.target')}, seed {args.seed}, policies "
        f"{','.join(result.policies)}, {result.seconds:.1f} s" + partial_note(result)
    )
    print(
        "estimate [95% CI]; "
        + (
            "team 0 = seats 0, 2, ... (the first dealer's left), team 1 = the first dealer's side"
            if len(result.lines) == 2
            else "each player keeps his own score; seat 0 is the first dealer's left"
        )
    )
    for name, iv in result.rates().items():
        print(f"  {name:<40} {interval_text(iv, _GAME_RATE_MISSING.get(name, 'no games to count'))}")
    for name, iv in result.means().items():
        print(f"  {'mean ' + name.replace('_', ' ') + ' per game':<40} {interval_text(iv)}")
    q = result.quantiles()
    if q:
        print("game length in hands: " + ", ".join(f"{k} {v:g}" for k, v in q.items()))
    return status


#: Why a games rate has no estimate: the games it is a share of did not occur.
_GAME_RATE_MISSING = {"lone double pinochle side wins": "no games with a lone double pinochle side"}


def _settled_deals(args: argparse.Namespace, variant, policies) -> int:
    """``games`` for a system where every deal is a game settled in chips (auction)."""
    from simcore.answers.settlement import settle_deals

    result = settle_deals(variant, args.games, args.seed, policies)
    status = exit_status(result)
    if args.json:
        print_json(result.to_json())
        return status
    print(
        f"{variant.id}: {result.deals:,} deals, each a game settled in chips, "
        f"{variant.get('settlement.people')} people, seed {args.seed}, policies "
        f"{','.join(result.policies)}, {result.seconds:.1f} s" + partial_note(result)
    )
    print("estimate [95% CI]; chips won (+) or paid (-) per deal; seats clockwise from the dealer's left")
    for name, iv in result.means().items():
        print(f"  {name:<40} {interval_text(iv)}")
    for name, iv in result.rates().items():
        print(f"  {name:<40} {interval_text(iv)}")
    return status
