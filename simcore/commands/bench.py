"""``pinochle bench``: throughput of the kernels, the solver, the game state and the execution modes."""

from __future__ import annotations

import argparse

from simcore.commands.common import UsageError, add_sampler_args, positive_int, print_json, set_threads


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="throughput: deal + meld, full hands and whole games")
    p.add_argument(
        "--hands",
        type=positive_int,
        default=20_000_000,
        help="hands dealt (and melded) per timed run of deal + meld, three runs per deck (default 20000000)",
    )
    p.add_argument(
        "--full-hands",
        type=positive_int,
        default=400_000,
        help="hands played per timed run of full hands (default 400000)",
    )
    p.add_argument(
        "--games", type=positive_int, default=40_000, help="games per timed run of whole games (default 40000)"
    )
    p.add_argument("--threads", type=positive_int, help="worker threads")
    p.add_argument(
        "--execution",
        action="store_true",
        help="instead: plain threads against the results store and a 2-worker local Dask cluster",
    )
    p.add_argument(
        "--solver",
        type=positive_int,
        metavar="N",
        help="instead: double-dummy solves of N seeded deals each, one thread: a whole 48-card "
        "deal (four-hand-150: exact value, and whether the contract's need is reached; "
        "partnership-auction), the last 12 tricks and the whole of an 80-card deal "
        "(double-deck); median, 99th percentile, max and give-ups per row",
    )
    p.add_argument(
        "--values",
        type=positive_int,
        metavar="N",
        help="instead: the estimated card values against exact ones on the kept held-out positions "
        "(partnership-auction, four-hand-150, double-deck; 9 tricks left), and the time to value every "
        "legal card at the opening lead of N seeded deals each, one thread",
    )
    p.add_argument(
        "--values-budget",
        type=positive_int,
        default=None,
        metavar="NODES",
        help="with --values: trick starts a position's values may reach (default: the deal viewer's, 400000)",
    )
    p.add_argument(
        "--state",
        type=positive_int,
        metavar="N",
        help="instead: N seeded hands each through the Python game state (simcore.state), the "
        "bridged heuristic at every seat, one thread (four-hand-150, double-deck, two-hand)",
    )
    p.add_argument(
        "--sampling",
        type=positive_int,
        metavar="N",
        help="instead: N seeded hands each played by the sampling player at every seat through the game "
        "state, one thread (partnership-auction, four-hand-150, double-deck): seconds a hand, its sampled "
        "decisions a second and milliseconds a decision",
    )
    add_sampler_args(p, "with --sampling")
    p.add_argument(
        "--policies",
        metavar="A,B,...",
        help="instead: full hands (--full-hands a run) with each named policy at every seat, runs alternating "
        "in one process, in partnership-auction, four-hand-150 and double-deck; each rate and its ratio to "
        "the first policy's",
    )
    p.add_argument(
        "--solver-systems",
        choices=("report", "all"),
        default="report",
        help="with --solver: the rows above (report, the default), or also the whole deal of every other "
        "shipped system, exact and, where someone bids, the threshold form (all)",
    )
    p.add_argument(
        "--solver-limit",
        type=positive_int,
        default=20_000_000,
        metavar="NODES",
        help="with --solver: a solve gives up after this many trick starts (default 20000000)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from simcore.answers.bench import (
        BENCH_CONDITION,
        BENCH_VARIANTS,
        GAME_BENCH_VARIANTS,
        GIVEN_CARDS,
        HAND_BENCH_VARIANTS,
        bench,
        bench_games,
        bench_hands,
    )

    set_threads(args.threads)
    if args.execution:
        return _bench_execution(args)
    if args.solver:
        return _bench_solver(args)
    if args.values:
        return _bench_values(args)
    if args.state:
        return _bench_state(args)
    if args.sampling:
        return _bench_sampling(args)
    if args.policies:
        return _bench_policies(args)
    results = [bench(v, args.hands) for v in BENCH_VARIANTS]
    full = [bench_hands(v, args.full_hands) for v in HAND_BENCH_VARIANTS]
    games = [bench_games(v, args.games) for v in GAME_BENCH_VARIANTS]
    if args.json:
        print_json([r.to_json() for r in results + full + games])
        return 0
    for r in results:
        print(
            f"{r.variant} ({r.cards} cards): deal + meld under every trump, {r.threads} "
            f"thread{'s' if r.threads != 1 else ''}: "
            f"best {r.hands_per_s / 1e6:.1f} M hands/s, median {r.median_hands_per_s / 1e6:.1f} M "
            f"(3 runs of {r.hands:,}); pure-Python reference {r.reference_hands_per_s:,.0f} hands/s, "
            f"kernel ×{r.hands_per_s / r.reference_hands_per_s:,.0f}"
        )
        print(
            f"{r.variant}: the same with my hand's {GIVEN_CARDS} given (odds --hold): best "
            f"{r.given_hands_per_s / 1e6:.1f} M hands/s, {r.given_hands_per_s / r.hands_per_s:.2f} of the "
            f"plain deal, alternating runs"
        )
        print(
            f"{r.variant}: the same also given {BENCH_CONDITION!r} (--given, {r.condition_acceptance:.0%} of deals "
            f"meet it): best {r.condition_hands_per_s / 1e6:.1f} M accepted hands/s, "
            f"{r.condition_hands_per_s / r.hands_per_s:.2f} of the plain deal"
        )
    for r in full:
        print(
            f"{r.variant}: full hands with heuristic play, {r.threads} thread{'s' if r.threads != 1 else ''}: "
            f"best {r.hands_per_s / 1e3:.0f} k hands/s, median {r.median_hands_per_s / 1e3:.0f} k "
            f"(3 runs of {r.hands:,})"
        )
    for r in games:
        print(
            f"{r.variant}: whole games with heuristic play, {r.threads} thread{'s' if r.threads != 1 else ''}: "
            f"best {r.hands_per_s:,.0f} games/s, median {r.median_hands_per_s:,.0f} "
            f"(3 runs of {r.hands:,}; {r.hands_per_game:.1f} hands a game)"
        )
    return 0


def _bench_policies(args: argparse.Namespace) -> int:
    from simcore.answers.bench import POLICY_BENCH_VARIANTS, bench_policies
    from simcore.kernels.policies import PolicyError, parse_policies

    names = [n.strip() for n in args.policies.split(",")]
    try:
        for n in names:
            parse_policies(n, 4, "--policies")
    except PolicyError as exc:
        raise UsageError(f"pinochle bench: {exc}") from None
    results = [bench_policies(v, names, args.full_hands) for v in POLICY_BENCH_VARIANTS]
    if args.json:
        print_json([r.to_json() for r in results])
        return 0
    for r in results:
        rates = ", ".join(
            f"{n} {r.hands_per_s(n) / 1e3:.0f} k hands/s"
            + (f" ({r.hands_per_s(n) / r.hands_per_s(names[0]):.2f}x)" if i else "")
            for i, n in enumerate(names)
        )
        print(
            f"{r.variant}: full hands, {r.threads} thread{'s' if r.threads != 1 else ''}, best of 3 alternating "
            f"runs of {r.hands:,}: {rates}"
        )
    return 0


def _bench_solver(args: argparse.Namespace) -> int:
    import numpy as np

    from simcore.answers.bench import bench_solver, solver_bench_rows

    results = []
    for vid, played, form in solver_bench_rows(args.solver_systems == "all"):
        r = bench_solver(vid, args.solver, played, args.solver_limit, form)
        results.append(r)
        if not args.json:
            what = f"the last {r.tricks} tricks" if played else f"all {r.tricks} tricks"
            question = "exact value" if form == "exact" else "reaches the contract's need?"
            if not r.seconds:
                print(f"{vid}, double dummy, {question}: no seed up to {r.skipped} gave a position", flush=True)
                continue
            gave = f"{r.gave_up} gave up at {r.limit:,} trick starts" if r.gave_up else "none gave up"
            print(
                f"{vid} ({r.deck_cards} cards), double dummy, {question}, {what}, 1 thread: median "
                f"{r.percentile(50) * 1e3:,.0f} ms, 99th percentile {r.percentile(99) * 1e3:,.0f} ms, "
                f"max {max(r.seconds) * 1e3:,.0f} ms, median {np.median(r.nodes):,.0f} trick starts "
                f"({len(r.seconds)} seeded deals; {gave})",
                flush=True,
            )
    if args.json:
        print_json([r.to_json() for r in results])
    return 0


def _bench_values(args: argparse.Namespace) -> int:
    from simcore.answers.value_errors import value_errors
    from simcore.solver.position import VALUES_BUDGET

    r = value_errors(args.values_budget or VALUES_BUDGET, args.values)
    if args.json:
        print_json(r.to_json())
        return 0
    print(f"estimated card values against exact ones, {r.budget:,} trick starts a position, one thread:")
    for _, x in r.table.iterrows():
        print(
            f"{x['system']}, {x['tricks_left']} tricks left, {x['positions']} held-out positions: mean absolute "
            f"error {x['mean_abs_error']:.2f} points ({x['mean_abs_error_25']:.2f} on a 25-point scale), mean "
            f"regret of the best estimated card {x['mean_regret']:.2f} ({x['mean_regret_25']:.2f}), best card "
            f"right {x['best_right']:.0%}, all exact {x['exact']:.0%}, {x['seconds_mean']:.2f} s a position "
            f"(95th percentile {x['seconds_p95']:.2f} s)"
        )
    for _, x in r.opening.iterrows():
        print(
            f"{x['system']}: every legal card valued at the opening lead of {x['deals']} seeded deals: median "
            f"{x['seconds_median']:.2f} s, 95th percentile {x['seconds_p95']:.2f} s"
        )
    return 0


def _bench_state(args: argparse.Namespace) -> int:
    from simcore.answers.bench import STATE_BENCH, bench_state

    results = [bench_state(vid, args.state) for vid in STATE_BENCH]
    if args.json:
        print_json([r.to_json() for r in results])
        return 0
    for r in results:
        print(
            f"{r.variant}: hands through the Python game state, bridged heuristic at every seat, 1 thread: "
            f"{r.seconds / r.hands * 1e3:.1f} ms a hand, {r.seconds / r.decisions * 1e6:.0f} µs a decision "
            f"({r.hands:,} hands)"
        )
    return 0


def _bench_sampling(args: argparse.Namespace) -> int:
    from simcore.answers.bench import SAMPLING_BENCH, bench_sampling
    from simcore.state.sampler import playouts_text

    results = [
        bench_sampling(
            vid,
            args.sampling,
            args.samples,
            args.solve_from,
            rollout_from=args.rollout_from,
            read_auction=args.read_auction,
        )
        for vid in SAMPLING_BENCH
    ]
    if args.json:
        print_json([r.to_json() for r in results])
        return 0
    for r in results:
        bids = ", fitting the bids" if r.read_auction else ""
        per_second = r.decisions / r.decision_seconds if r.decision_seconds else 0
        print(
            f"{r.variant}: the sampling player at every seat ({r.samples} deals a decision{bids}, the last "
            f"{r.solve_from} tricks), 1 thread: {r.seconds / r.hands:.2f} s a hand, {r.decisions:,} sampled "
            f"decisions, {per_second:,.1f} a second ({r.ms_per_decision:.1f} ms each; {r.hands:,} hands)"
            + (
                f"; playouts {playouts_text(r.rollout_from, r.solve_from)}: {r.rollouts:,} decisions, "
                f"{r.rollout_seconds / max(r.rollouts, 1) * 1e3:.1f} ms each"
                if r.rollouts
                else ""
            )
        )
    return 0


def _bench_execution(args: argparse.Namespace) -> int:
    from simcore.answers.bench import EXECUTION_MODES, bench_execution

    results = bench_execution(odds_hands=args.hands, full_hands=args.full_hands)
    if args.json:
        print_json([r.to_json() for r in results])
        return 0
    for r in results:
        print(f"{r.workload}, {r.hands:,} hands, best of {len(r.seconds['threads'])} (runs interleaved):")
        for mode in EXECUTION_MODES:
            print(f"  {mode:<32} {r.rate(mode):>14,.0f} hands/s   x{r.ratio(mode):.2f}")
    return 0
