"""``pinochle endgame``: the last tricks of seeded hands against double dummy."""

from __future__ import annotations

import argparse

from simcore.commands.common import add_seeded_hands_args, interval_text, load_variant, positive_int, print_json


def add_parser(sub) -> None:
    p = sub.add_parser(
        "endgame",
        help="how far the card play is from double dummy in the last tricks of seeded hands",
        description="Replays the last --tricks-left tricks of the first hand "
        "of seeds S .. S+N-1 decision by decision. At each card played the double-dummy solver "
        "values every legal card; a decision's loss is what the card chosen gave up against "
        "the best card for its side (part of it is hidden information, not misplay). Prints "
        "the points given up per hand by each side, with 95% intervals, beside the mean "
        "loss of a random legal card at the same decisions, and the situations and single "
        "decisions that gave up most.",
    )
    add_seeded_hands_args(p)
    p.add_argument(
        "--tricks-left",
        type=positive_int,
        default=6,
        help="tricks replayed at the end of each hand (default 6; each more trick costs several times the time)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.endgame import endgame_loss
    from simcore.cards import card_name
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    result = endgame_loss(
        variant, args.hands, args.seed, args.tricks_left, parse_policies(args.policy, variant.players)
    )
    if args.json:
        print_json(result.to_json())
        return 0
    t = result.totals
    print(
        f"{variant.id}: the last {args.tricks_left} tricks of {result.played:,} of {args.hands:,} hands "
        f"(seeds {args.seed}..{args.seed + args.hands - 1}; the others were not played out), policy {args.policy}"
    )
    if not result.played:
        return 0
    print(
        f"points in play {t['in_play'].mean():.1f} a hand; the bidding side's double-dummy value "
        f"{t['value'].mean():.1f}, taken {t['taken'].mean():.1f}"
    )
    print(
        "points given up a hand against double-dummy play, estimate [95% CI] (a random legal card at the same "
        "decisions beside):"
    )
    for name, iv in result.per_hand("role").items():
        print(f"  {name:<28} {interval_text(iv)}")
    print("situations giving up most a decision (place 0 = the lead):")
    print(result.worst_situations().to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    print("decisions giving up most (see them with pinochle playthrough --seed S):")
    for _, d in result.worst_decisions().iterrows():
        print(
            f"  seed {d['seed']}, {d['tricks_left']} tricks left, seat {d['seat']} ({d['role']}) played "
            f"{card_name(d['chosen'])}, {card_name(d['best_card'])} was worth {d['loss']} more"
        )
    return 0
