"""``pinochle compare``: two rule sets, or a named house-rule question, on the same deals."""

from __future__ import annotations

import argparse

from simcore.commands.common import (
    UsageError,
    add_run_args,
    bidding_rules,
    load_variant,
    positive_int,
    print_json,
    set_threads,
)


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="two rule sets on the same deals: each measure and B - A")
    p.add_argument("a", nargs="?", help="rule set A: an id or a .toml file")
    p.add_argument("b", nargs="?", help="rule set B (default: A with the --set overrides)")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a rules key on side B (repeatable)",
    )
    p.add_argument("--question", metavar="NAME", help=_question_help())
    p.add_argument("--list", action="store_true", help="list the named questions and exit")
    size = p.add_mutually_exclusive_group()
    size.add_argument(
        "--games", type=positive_int, help="whole games played on each side (default 40000, a question its own size)"
    )
    size.add_argument(
        "--hands",
        type=positive_int,
        help="compare single hands instead: hands dealt and played on each side (a question "
        "asked in hands: its own size by default)",
    )
    add_run_args(p, policy=False)
    p.add_argument(
        "--tune-margin",
        action="store_true",
        help="first tune the simulated players' bidding margin for A's and for B's rules, each its "
        "own (a quick search each, seconds to a minute), where the margin in force was not "
        "tuned for exactly those rules; without it A and B bid with the margins their rules "
        "give (the output says which)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.compare import QUESTIONS, answer, compare
    from simcore.variants import RulesError, rule_differences
    from simcore.variants.margin import margins_compared

    if args.list:
        for name, q in QUESTIONS.items():
            print(
                f"{name:<24} {q.title} ({q.mode}, default {q.size:,}; runs with "
                f"{' and '.join('--' + m for m in q.modes)}; {q.changes()})"
            )
        return 0
    set_threads(args.threads)
    try:
        if args.question:
            if args.question not in QUESTIONS:
                raise UsageError(
                    f"pinochle compare: --question {args.question!r} is not a question; choose "
                    f"from {', '.join(QUESTIONS)}"
                )
            if args.a or args.b or args.overrides:
                raise UsageError("pinochle compare: give --question or rule sets A and B, not both")
            q = QUESTIONS[args.question]
            mode = "hands" if args.hands else "games" if args.games else q.mode
            if mode not in q.modes:
                raise UsageError(
                    f"pinochle compare: question {args.question} compares {' or '.join(q.modes)} "
                    f"only (the rule acts at a game's end); give --{q.mode} N"
                )
            result = answer(
                args.question,
                args.hands if mode == "hands" else args.games,
                args.seed,
                mode,
                prepare=lambda v: bidding_rules(args, v),
            )
        else:
            if not args.a:
                raise UsageError(
                    "pinochle compare: give rule set A (and B, or --set overrides for B), or --question NAME"
                )
            quiet = not args.tune_margin  # warned about an inherited margin unless tuning it anyway
            a = load_variant(args.a, warn=quiet)
            b = load_variant(args.b or args.a, args.overrides, warn=quiet)
            if args.b is None and not args.overrides:
                raise UsageError("pinochle compare: B is A unchanged; give rule set B or --set KEY=VALUE")
            if not rule_differences(a, b):  # a full run would only answer A = B
                raise UsageError(f"pinochle compare: B plays the same game as A ({b.id} and {a.id} are the same rules)")
            a, b = bidding_rules(args, a), bidding_rules(args, b)
            games = args.games if args.hands is None else None
            result = compare(
                a, b, games=(games or 40_000) if args.hands is None else None, hands=args.hands, seed=args.seed
            )
    except ValueError as exc:  # a question or rule pair compare cannot answer
        if isinstance(exc, RulesError):
            raise
        raise UsageError(f"pinochle compare: {exc}")
    margins = margins_compared(result.a.margin_origin, result.b.margin_origin)
    if args.json:
        print_json(
            {
                **result.to_json(),
                "margins": {
                    "a": result.a.margin_origin.describe(),
                    "b": result.b.margin_origin.describe(),
                    "text": margins,
                },
            }
        )
        return 0
    title = result.question or f"A = {result.a.id}, B = {result.b.id}"
    print(f"{title}; seed {args.seed}; {int(result.table['n'].iloc[0]):,} paired {result.mode}")
    print(margins)
    print(f"  {'measure':<44} {'A':>10} {'B':>10} {'B - A [95% CI]':>32}  pairing narrows")
    for r in result.table.to_dict(orient="records"):
        ratio = r["unpaired_half"] / r["paired_half"] if r["paired_half"] > 0 else float("inf")
        ci = f"{r['diff']:+.4g} [{r['diff_lo']:+.4g}, {r['diff_hi']:+.4g}]"
        print(
            f"  {r['measure']:<44} {r['a']:>10.4g} {r['b']:>10.4g} {ci:>32}  "
            + ("exact" if r["paired_half"] == 0 else f"{ratio:.1f}x")
        )
    print(result.verdict())
    return 0


def _question_help() -> str:
    """``compare --question``'s help: every named question with the modes it runs in and the keys it sets
    (from :mod:`simcore.answers.questions`, plain data: --help stays quick)."""
    from simcore.answers.questions import QUESTIONS

    return (
        "a named house-rule question (`--list` lists them), asked in its own mode and size unless "
        "--games N or --hands N says otherwise; each sets these keys: "
        + "; ".join(f"{name} [{' or '.join(q.modes)}]: {q.changes()}" for name, q in QUESTIONS.items())
    )
