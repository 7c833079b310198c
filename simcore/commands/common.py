"""What every ``pinochle`` command shares: the validators of its arguments (one per kind of value), the
rules and run options, the errors that are the user's (one line, exit status 2), the execution options
(store, cluster, threads), strict JSON and the few text forms several commands print.

Nothing here imports numpy, numba, pandas or a kernel at load: ``pinochle --help`` builds every command's
parser from these functions before any of them is needed.
"""

from __future__ import annotations

import argparse
import errno
import json
import math
import os
import sys
import tempfile
from pathlib import Path

DEFAULT_VARIANT = "four-hand-150"
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # Ctrl-C: what was finished is printed, the status says it is partial


class UsageError(Exception):
    """Bad command-line input; the message is printed as one line."""


def user_errors() -> tuple[type[Exception], ...]:
    """The errors that are the user's input, printed as one line with exit status 2."""
    from simcore.answers.advise import AdviseError
    from simcore.answers.analyse import RecordError
    from simcore.answers.strong import StrongPlayError
    from simcore.answers.widow import WidowError
    from simcore.cards import HandError
    from simcore.kernels.condition import ConditionError
    from simcore.kernels.events import EventError
    from simcore.kernels.policies import PolicyError
    from simcore.run.runner import ClusterError
    from simcore.run.store import StoreError
    from simcore.solver.position import PositionError
    from simcore.variants import NotForThisSystem, RulesError

    return (
        UsageError,
        AdviseError,
        RulesError,
        NotForThisSystem,
        HandError,
        EventError,
        PolicyError,
        StoreError,
        ClusterError,
        PositionError,
        ConditionError,
        WidowError,
        RecordError,
        StrongPlayError,
    )


_WARNED: set[str] = set()  # rules files already warned about in this process


def load_variant(name: str, overrides=(), warn: bool = True):
    """:func:`simcore.variants.load_variant`, imported when a command first needs rules. With ``warn``,
    a file that keeps an inherited bidding margin while changing what it depends on is warned about,
    once, on stderr (:attr:`simcore.variants.margin.MarginOrigin.warning`)."""
    from simcore.variants import load_variant as load

    variant = load(name, overrides)
    warning = variant.margin_origin.warning
    if warn and warning and variant.where not in _WARNED:
        _WARNED.add(variant.where)
        print(warning, file=sys.stderr, flush=True)
    return variant


def add_margin_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tune-margin",
        action="store_true",
        help="first tune the simulated players' bidding margin for these rules (a quick search "
        "of pinochle tune's duels on the same deals, seconds to a minute) and bid with it",
    )


def bidding_rules(args: argparse.Namespace, variant):
    """The rules the simulated players bid under: ``variant``, or with ``--tune-margin`` and a margin not
    tuned for exactly these rules, the same rules with a margin tuned now (its search's size and time
    in ``margin_origin``)."""
    if not getattr(args, "tune_margin", False) or variant.margin_origin.fits:
        return variant
    from analyses.bid_tuning import with_tuned_margin
    from simcore.variants import NotForThisSystem

    print(
        f"pinochle: tuning the bidding margin for {variant.id} (duels on the same deals) ...",
        file=sys.stderr,
        flush=True,
    )
    try:
        return with_tuned_margin(variant, args.seed)
    except NotForThisSystem as exc:  # no auction, or teams no duel covers
        raise UsageError(f"pinochle: --tune-margin: {exc}") from None


def shipped_ids() -> list[str]:
    """:func:`simcore.variants.shipped_ids`, imported when first needed."""
    from simcore.variants import shipped_ids as ids

    return ids()


def _whole_number(text: str, least: int, allowed: str, below: str) -> int:
    """``text`` as an integer of at least ``least``; else argparse's one-line error: ``allowed`` names what
    may be given, ``below`` says why a smaller number is refused."""
    try:
        value = int(text)  # int() takes digit groups written 1_000_000
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give {allowed}")
    if value < least:
        raise argparse.ArgumentTypeError(f"{text!r}{below}")
    return value


def positive_int(text: str) -> int:
    """A count: hands, games, threads, workers, samples (at least 1)."""
    return _whole_number(text, 1, "a positive integer", " must be a positive integer")


def nonnegative_int(text: str) -> int:
    """A seed, a seat or a number of points (at least 0)."""
    return _whole_number(text, 0, "an integer ≥ 0", " must be an integer ≥ 0")


def meld_points(text: str) -> int:
    """A meld in points (at least 0)."""
    return _whole_number(text, 0, "meld points ≥ 0", ": meld is never negative; give meld points ≥ 0")


def suit(text: str) -> int:
    """A trump suit's index in ``SUITS``, from its letter or symbol."""
    from simcore.cards import SUITS

    letter = text.strip().upper()
    letter = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(letter, letter)
    if letter not in SUITS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a suit; give one of S H D C")
    return SUITS.index(letter)


def cards_option(option: str, text: str, variant, most: int, room: str, limit=None):
    """The copy counts of the cards of ``--hold`` or ``--want``, refused in one line (naming the option)
    unless the deck can supply them (``limit``: copies left per type) and they number at most ``most``."""
    from simcore.cards import HandError, check_hand, parse_hand

    try:
        cards = parse_hand(text)
        check_hand(cards, variant.deck_copies if limit is None else limit, None)
    except HandError as exc:
        raise UsageError(f"pinochle: {option} {text!r}: {exc}") from None
    if int(cards.sum()) > most:
        raise UsageError(f"pinochle: {option} {text!r}: {int(cards.sum())} cards, but {room} holds {most}")
    return cards


def output_file(option: str, path: str) -> str:
    """A file the command will write, checked before any work: refused in one line when it is a
    directory or its directory is missing or cannot be written (nothing is created for it)."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise UsageError(f"pinochle: {option} {path}: is a directory; give a file path")
    if not folder.is_dir():
        raise UsageError(
            f"pinochle: {option} {path}: there is no directory {folder}; create it first or give another path"
        )
    why = _why_unwritable(folder)
    if why:
        raise UsageError(f"pinochle: {option} {path}: the directory {folder} cannot be written ({why})")
    return path


def _why_unwritable(folder: Path) -> str:
    """Why no file can be made in ``folder`` ("" when one can): a probe file is made and removed at once,
    since permission bits say yes to root where a file still cannot be made (``/proc``)."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".pinochle-probe-"):
            pass
    except OSError as exc:
        return "it takes no new files" if exc.errno == errno.ENOENT else (exc.strerror or str(exc)).lower()
    return ""


def output_dir(option: str, path: str) -> Path:
    """A directory the command will write files into, created if missing (with its parents); refused in
    one line when it is a file or cannot be created or written (:func:`_why_unwritable`)."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise UsageError(
            f"pinochle: {option} {path}: is a file, not a directory; give a directory (created if missing)"
        )
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"pinochle: {option} {path}: cannot create the directory ({exc.strerror or exc})") from None
    why = _why_unwritable(target)
    if why:
        raise UsageError(
            f"pinochle: {option} {path}: the directory cannot be written ({why}); give a directory you can write to"
        )
    return target


def add_given_arg(p: argparse.ArgumentParser, whose: str) -> None:
    """``--given``: what the table has shown, conditions on any seat (docs/given.md); ``whose``: the
    seat the places are seen from."""
    p.add_argument(
        "--given",
        action="append",
        metavar="CONDITION",
        help=f"only deals where the table matches, places seen from {whose}: e.g. 'partner: "
        "meld>=20', 'left: holds AS', 'right: spades<=2', 'any: holds QS QS JD JD'; places me, "
        "partner, left, right, seat N, any, widow; tests holds/lacks CARDS, meld, meld(S), a "
        "suit or a rank (spades, aces...), a card (AS), trump (the named trump's length), "
        "value (the model bidder's worth) with >= <= = > <; several joined by ',' (one hand) "
        "or ';' (all hold), or the option repeated. Deals that miss are dealt again "
        "(rejection); the share met is printed; see docs/given.md",
    )


def given_condition(args: argparse.Namespace, variant, me: int):
    """The parsed ``--given`` of ``args`` (None without one), places seen from seat ``me``."""
    if not getattr(args, "given", None):
        return None
    from simcore.answers.conditioned import read_condition

    return read_condition(variant, args.given, me)


def add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--variant",
        default=DEFAULT_VARIANT,
        help=f"rules id (see `pinochle variants`) or a .toml file (default {DEFAULT_VARIANT})",
    )
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a rules key, e.g. --set meld.double_pinochle=3000 (repeatable)",
    )


def add_run_args(p: argparse.ArgumentParser, policy: bool = True) -> None:
    """--seed, --policy, --threads and --json: what every simulating command takes."""
    p.add_argument("--seed", type=nonnegative_int, default=1, help="random seed (default 1)")
    if policy:
        p.add_argument(
            "--policy",
            default="heuristic",
            help="one policy for every seat, or one per seat, of heuristic (the default), basic and random: "
            "heuristic,random,heuristic,random",
        )
    p.add_argument("--threads", type=positive_int, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_execution_args(p)


def add_sampler_args(p: argparse.ArgumentParser, when: str) -> None:
    """--samples, --solve-from, --rollout-from and --read-auction: the sampling player's settings, used
    ``when`` (for the help)."""
    p.add_argument(
        "--samples", type=positive_int, default=20, help=f"{when}: deals of the unseen cards a card (default 20)"
    )
    p.add_argument(
        "--solve-from",
        type=positive_int,
        help=f"{when}: the tricks from the end played by sampling and solving; earlier cards are weighed by "
        "playouts (default 6; in two-hand every trick after the stock, whose solves take milliseconds)",
    )
    p.add_argument(
        "--rollout-from",
        type=nonnegative_int,
        help=f"{when}: the tricks from the end from which, until --solve-from, each card is weighed by the "
        "heuristic's playouts of the sampled deals (default: from the first card; 0: the heuristic's card "
        "there)",
    )
    p.add_argument(
        "--read-auction",
        action=argparse.BooleanOptionalAction,
        help=f"{when}: deal the unseen cards only as the bids the player saw allow, reading each bid as the "
        "model bidders (the heuristic's rule) would have made it (default: the sampling player reads them "
        "in partnership-auction, where that was shown to pay; the strong player, whose partner bids "
        "otherwise, does not)",
    )


def add_play_args(p: argparse.ArgumentParser) -> None:
    """--play, --samples, --solve-from and --limit: how the deals' cards are played."""
    p.add_argument(
        "--play",
        choices=("heuristic", "strong", "dd"),
        default="heuristic",
        help="how the cards are played: heuristic (the kernel, fast); strong (the sampling player at every "
        "seat, about a second a deal, the heuristic's figures beside it on the same deals); dd (double "
        "dummy from the first lead: every hand known, a ceiling) (default heuristic); docs/policies.md",
    )
    add_sampler_args(p, "strong play")
    p.add_argument(
        "--limit",
        type=positive_int,
        default=5_000_000,
        help="dd: trick starts a solve may search before it gives up; a deal given up counts in a range "
        "(default 5,000,000)",
    )
    p.add_argument(
        "--budget",
        type=nonnegative_int,
        default=1_000_000_000,
        help="dd: trick starts to spend solving again, at ten times --limit a pass, the deals that gave up, "
        "until their band is at most a third of each shown rate's 95%% half-width (default 1,000,000,000; "
        "0: one pass)",
    )


def print_play_rates(name: str, played, heuristic) -> None:
    """The table of P(make) by bid under ``name``'s play beside the heuristic's on the same deals
    (:class:`simcore.answers.strong.Curve` each); a rate whose solves gave up prints as a range."""
    mine = []
    for i in range(len(played.bids)):
        low, high = played.range(i)
        x = played.rate[i]
        mine.append(
            f"{x.estimate:.1%} [{x.lo:.1%}, {x.hi:.1%}]" if low == high else f"{low:.1%} to {high:.1%} (solves gave up)"
        )
    width = max([28] + [len(m) + 1 for m in mine])  # a range is wider than a rate: the columns stay aligned
    print(f"  bid   {name + ' P(make) [95% CI]':<{width}} heuristic P(make) [95% CI]")
    for bid, m, hx in zip(played.bids, mine, heuristic.rate):
        print(f"  {bid:>4}   {m:<{width}} {hx.estimate:.1%} [{hx.lo:.1%}, {hx.hi:.1%}]")


def passes_text(passes, nodes: int) -> str:
    """Escalating solves' passes (:class:`simcore.solver.escalation.Pass` each) in one line: each pass's
    limit, solves and give-ups, then ``nodes``, the trick starts in all."""
    parts = [f"{p.limit:,}: {p.solves:,} solves, {p.gave_up:,} gave up" for p in passes]
    return "(trick starts a solve): " + "; ".join(parts) + f" — {nodes:,} trick starts in all"


def print_solved_again(result) -> None:
    """Under double dummy, the passes that solved again the deals that gave up (nothing where none ran)."""
    if result.passes:
        print("solved again " + passes_text(result.passes, sum(p.nodes for p in result.passes)))


def play_option(args: argparse.Namespace):
    """The :class:`simcore.answers.strong.Play` the arguments ask for (None: heuristic play)."""
    from simcore.answers.strong import Play

    if args.play == "heuristic":
        return None
    given = {"rollout_from": args.rollout_from, "read_auction": args.read_auction}
    return Play(
        args.play,
        args.samples,
        args.solve_from,
        args.limit,
        budget=args.budget,
        **{k: x for k, x in given.items() if x is not None},
    )


def add_execution_args(p: argparse.ArgumentParser) -> None:
    """Where chunks are kept and where they run: results never depend on either."""
    p.add_argument(
        "--store",
        metavar="PATH",
        help="results store file (default: $PINOCHLE_STORE, else "
        "results.duckdb in the user's cache directory); finished chunks are kept and reused",
    )
    p.add_argument("--no-store", action="store_true", help="compute everything and keep nothing")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="run chunks on this Dask cluster (default: $DASK_SCHEDULER_ADDRESS, else here)",
    )
    where.add_argument(
        "--workers", type=positive_int, help="start a local Dask cluster of N worker processes and run chunks there"
    )


def add_seeded_hands_args(p: argparse.ArgumentParser) -> None:
    """The first hands of seeds S .. S+N-1 as the policies play them (endgame, dd-odds)."""
    p.add_argument("--hands", type=positive_int, default=200, help="seeded hands played (default 200)")
    p.add_argument("--seed", type=nonnegative_int, default=0, help="first seed (default 0)")
    p.add_argument("--policy", default="heuristic", help="the policies that bid, pass and play, as for simulate")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_args(p)


def store_path(args: argparse.Namespace) -> Path | None:
    """The results store a command names: ``--store``, else the default; None for ``off``."""
    from simcore.run.store import default_path

    path = Path(args.store) if args.store else default_path()
    return None if str(path) == "off" else path


def execution(args: argparse.Namespace):
    """The :class:`simcore.run.runner.Execution` a command's options ask for; commands without them run here,
    unstored."""
    from simcore.run.runner import Execution

    if not hasattr(args, "no_store"):
        return Execution()
    store = None if args.no_store else store_path(args)
    if store is not None and store.is_dir():
        raise UsageError(f"pinochle: --store {store}: is a directory; give a file path")
    named = "--store" if args.store else "PINOCHLE_STORE" if os.environ.get("PINOCHLE_STORE") else None
    if store is not None and named and not store.parent.is_dir():  # only the default's folder is made
        raise UsageError(
            f"pinochle: {named} {store}: there is no directory {store.parent}; create it first, "
            "give another path or --no-store"
        )
    scheduler = args.scheduler or (None if args.workers else os.environ.get("DASK_SCHEDULER_ADDRESS"))
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise UsageError(f"pinochle: --scheduler {scheduler!r}: give a Dask scheduler address such as tcp://HOST:8786")
    return Execution(store=store, scheduler=scheduler, workers=args.workers or 0)


def open_store(args: argparse.Namespace):
    """The existing results store ``runs`` and ``export`` read (``--store``, else the default)."""
    from simcore.run.store import Store

    path = store_path(args)
    if path is None:
        raise UsageError(f"pinochle {args.command}: the results store is off (PINOCHLE_STORE=off); give --store PATH")
    if not path.is_file():
        raise UsageError(
            f"pinochle {args.command}: --store {path}: no such store (runs are kept there by "
            "odds, simulate, bid-odds, games and compare)"
        )
    return Store(path)


def say_compiling(*kernels) -> None:
    """On stderr, before a first run compiles ``kernels`` (:mod:`simcore.kernel_cache`), which and about
    how long; nothing once they are cached. stdout stays the answer alone (``--json`` too)."""
    from simcore.kernel_cache import compile_notice

    notice = compile_notice(kernels)
    if notice:
        print(notice, file=sys.stderr, flush=True)


def set_threads(n: int | None) -> None:
    """Numba's thread count from ``--threads`` (None: numba's default), refused above the machine's."""
    if n is not None:
        import numba

        if n > numba.config.NUMBA_NUM_THREADS:
            raise UsageError(f"--threads {n}: at most {numba.config.NUMBA_NUM_THREADS} on this machine")
        numba.set_num_threads(n)


def full_hand_variant(args: argparse.Namespace):
    """The rules of ``--variant``/``--set``, for a command that plays hands in full."""
    from simcore.variants import require_full_hands

    return require_full_hands(load_variant(args.variant, args.overrides, warn=not getattr(args, "tune_margin", False)))


def exit_status(result) -> int:
    """0, or EXIT_INTERRUPTED for a result that Ctrl-C cut short."""
    return EXIT_INTERRUPTED if result.interrupted else 0


def partial_note(result) -> str:
    """What a headline line adds for a result that Ctrl-C cut short."""
    return "  (INTERRUPTED: partial result)" if result.interrupted else ""


def interval_text(iv, missing: str = "nothing to count") -> str:
    """``estimate [lo, hi]``, or why there is no estimate (``missing``) where nothing was counted."""
    if not math.isfinite(iv.estimate):
        return f"does not apply ({missing})"
    return f"{iv.estimate:.4g} [{iv.lo:.4g}, {iv.hi:.4g}]"


def strict_json(value):
    """``value`` as strict JSON data: NaN and infinities become null, numpy scalars plain numbers."""
    if isinstance(value, dict):
        return {str(k): strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json(v) for v in value]
    if type(value).__module__ == "numpy" and hasattr(value, "item"):  # a numpy scalar
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_json(value) -> None:
    """Print ``value`` as one strict JSON document (``null``, never NaN or Infinity)."""
    print(json.dumps(strict_json(value), indent=2, allow_nan=False))
