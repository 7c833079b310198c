"""The ``pinochle`` command: a thin layer over the Python API.

Bad input of any kind ends in one line on stderr naming what was wrong and what is allowed, and exit
status 2; no traceback. The module imports no numpy, numba, pandas or kernel at load: ``--help`` and
``--version`` answer before any of them loads, and each command imports what it needs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from simcore.commands import serve

DEFAULT_VARIANT = "four-hand-150"
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # Ctrl-C: what was finished is printed, the status says it is partial


class UsageError(Exception):
    """Bad command-line input; the message is printed as one line."""


def _user_errors() -> tuple[type[Exception], ...]:
    """The errors that are the user's input, printed as one line with exit status 2."""
    from simcore.answers.advise import AdviseError
    from simcore.answers.game_results import GameRulesError
    from simcore.kernels.cards import HandError
    from simcore.kernels.events import EventError
    from simcore.kernels.policies import PolicyError
    from simcore.run.runner import ClusterError
    from simcore.run.store import StoreError
    from simcore.solver.position import PositionError
    from simcore.variants import RulesError

    return (UsageError, AdviseError, RulesError, HandError, EventError, PolicyError, GameRulesError, StoreError,
            ClusterError, PositionError)


def _add_seeded_hands_args(p: argparse.ArgumentParser) -> None:
    """The first hands of seeds S .. S+N-1 as the policies play them (endgame, dd-odds)."""
    p.add_argument("--hands", type=_positive_int, default=200, help="seeded hands played (default 200)")
    p.add_argument("--seed", type=_seed, default=0, help="first seed (default 0)")
    p.add_argument("--policy", default="heuristic", help="the policies that bid, pass and play, as for simulate")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_rules_args(p)


def load_variant(name: str, overrides=()):
    """:func:`simcore.variants.load_variant`, imported when a command first needs rules."""
    from simcore.variants import load_variant as load

    return load(name, overrides)


def shipped_ids() -> list[str]:
    from simcore.variants import shipped_ids as ids

    return ids()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pinochle-sim")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print the whole usage block
        raise UsageError(f"{self.prog}: {message} (see `{self.prog} --help`)")


def _positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give a positive integer")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive integer")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give an integer ≥ 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be an integer ≥ 0")
    return value


def _meld_points(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give meld points ≥ 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: meld is never negative; give meld points ≥ 0")
    return value


def _suit(text: str) -> int:
    from simcore.kernels.cards import SUITS

    letter = text.strip().upper()
    letter = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(letter, letter)
    if letter not in SUITS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a suit; give one of S H D C")
    return SUITS.index(letter)


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default=DEFAULT_VARIANT,
                   help=f"rules id (see `pinochle variants`) or a .toml file (default {DEFAULT_VARIANT})")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a rules key, e.g. --set meld.double_pinochle=3000 (repeatable)")


def _add_run_args(p: argparse.ArgumentParser, policy: bool = True) -> None:
    """--seed, --policy, --threads and --json: what every simulating command takes."""
    p.add_argument("--seed", type=_seed, default=1, help="random seed (default 1)")
    if policy:
        p.add_argument("--policy", default="heuristic",
                       help="one policy for every seat, or one per seat: heuristic,random,heuristic,random")
    p.add_argument("--threads", type=_positive_int, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_execution_args(p)


def _add_execution_args(p: argparse.ArgumentParser) -> None:
    """Where chunks are kept and where they run: results never depend on either."""
    p.add_argument("--store", metavar="PATH", help="results store file (default: $PINOCHLE_STORE, else "
                   "results.duckdb in the user's cache directory); finished chunks are kept and reused")
    p.add_argument("--no-store", action="store_true", help="compute everything and keep nothing")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run chunks on this Dask cluster (default: $DASK_SCHEDULER_ADDRESS, else here)")
    where.add_argument("--workers", type=_positive_int,
                       help="start a local Dask cluster of N worker processes and run chunks there")


def _store_path(args: argparse.Namespace) -> Path | None:
    """The results store a command names: ``--store``, else the default; None for ``off``."""
    from simcore.run.store import default_path

    path = Path(args.store) if args.store else default_path()
    return None if str(path) == "off" else path


def _execution(args: argparse.Namespace):
    """The :class:`simcore.run.runner.Execution` a command's options ask for; commands without them run here,
    unstored."""
    from simcore.run.runner import Execution

    if not hasattr(args, "no_store"):
        return Execution()
    store = None if args.no_store else _store_path(args)
    if store is not None and store.is_dir():
        raise UsageError(f"pinochle: --store {store}: is a directory; give a file path")
    scheduler = args.scheduler or (None if args.workers else os.environ.get("DASK_SCHEDULER_ADDRESS"))
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise UsageError(f"pinochle: --scheduler {scheduler!r}: give a Dask scheduler address such as "
                         "tcp://HOST:8786")
    return Execution(store=store, scheduler=scheduler, workers=args.workers or 0)


def _threads(n: int | None) -> None:
    if n is not None:
        import numba

        if n > numba.config.NUMBA_NUM_THREADS:
            raise UsageError(f"--threads {n}: at most {numba.config.NUMBA_NUM_THREADS} on this machine")
        numba.set_num_threads(n)


def _question_help() -> str:
    """``compare --question``'s help: every named question with the modes it runs in and the keys it sets
    (from :mod:`simcore.answers.questions`, plain data: --help stays quick)."""
    from simcore.answers.questions import QUESTIONS

    return ("a named house-rule question (`--list` lists them), asked in its own mode and size unless "
            "--games N or --hands N says otherwise; each sets these keys: "
            + "; ".join(f"{name} [{' or '.join(q.modes)}]: {q.changes()}" for name, q in QUESTIONS.items()))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pinochle", description="Pinochle odds, meld and simulation for every rule system.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("variants", help="list the shipped rule systems")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("meld", help="show a hand's meld with its breakdown")
    p.add_argument("hand", help='the cards, e.g. "AS 10S KS QS JS 9S ..." (T for ten, ♠♥♦♣ accepted)')
    p.add_argument("--trump", type=_suit, help="trump suit S, H, D or C (default: every suit)")
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_rules_args(p)

    p = sub.add_parser("odds", help="odds of dealt-hand events, simulated beside exact values")
    p.add_argument("events", nargs="*", help="events (default: all); `--list` lists them")
    p.add_argument("--list", action="store_true", help="list the events and exit")
    p.add_argument("--hands", type=_positive_int, default=4_000_000, help="hands to deal (default 4000000)")
    p.add_argument("--hold", metavar="CARDS",
                   help='cards I (seat 0, the dealer\'s left) hold, e.g. "QS JD": the rest are dealt at random and '
                        "each event is reported for me, my partner, each opponent, any other player, the table "
                        "and the widow; exact wherever the place is one hand or the widow")
    p.add_argument("--want", metavar="CARDS",
                   help="with a widow: the exact chance that it holds at least these cards (a card named "
                        "twice: two copies), given the cards of --hold")
    _add_run_args(p, policy=False)
    _add_rules_args(p)

    p = sub.add_parser("simulate", help="full hands: bids, make and set rates, meld, tricks, scores")
    p.add_argument("--hands", type=_positive_int, default=200_000, help="hands played in full (default 200000)")
    _add_run_args(p)
    p.add_argument("--out", metavar="FILE.parquet", help="write one row per hand to a Parquet file")
    _add_rules_args(p)

    p = sub.add_parser(
        "bid-odds", help="P(bidding side makes) by bid, meld, trump length and aces, and P(make B | meld M)",
        description="P(the bidding side makes) one way (by bid, meld, trump length, aces) and jointly: "
                    "P(make B | meld M) for every bid B and meld M, as dealt and after the pass or widow. "
                    "Method: a hand's side total (the bidding side's meld as kept plus its trick points as "
                    "counted) is what it would take at any bid, so a hand makes B when its side total "
                    "reaches B, whatever it was bid at. Only hands the simulated players bid and played "
                    "reach the tables (all-pass deals are left out), so a cell describes the hands these "
                    "bidders bid. A hand not played (thrown in, set without play, no trump marriage) makes "
                    "no bid; where the rules would have let it play at a lower bid it is 'unknown' there, "
                    "still counted as not made (the estimate is low by at most unknown / n). A set hand's "
                    "total is rebuilt from its record: meld counts when the side took a trick point (save "
                    "by a trick) or enough points, a dix kept instead of lost meld is not counted.")
    p.add_argument("--hands", type=_positive_int, default=400_000, help="hands to play (default 400000)")
    _add_run_args(p)
    p.add_argument("--bid", type=int, metavar="B", help="only bid B: with --meld, one line")
    p.add_argument("--meld", type=_meld_points, metavar="M",
                   help="only the bin of meld M (the by-meld tables' bins): with --bid, one line")
    p.add_argument("--basis", choices=("dealt", "after_exchange"),
                   help="the bidder's meld as dealt, or the side's after the pass or widow (default: both; "
                        "one line: dealt)")
    p.add_argument("--csv", nargs="?", const="-", metavar="FILE",
                   help="P(make B | meld M) cells in long form, one row per basis, bid and meld (n, made, "
                        "unknown, estimate, lo, hi), to FILE, or to standard output with no FILE")
    _add_rules_args(p)

    p = sub.add_parser(
        "advise", help="what should I bid with this hand? P(make B) over random deals of the unseen cards",
        description="A hand's meld under each trump and the trump it would name; then the unseen cards are "
                    "dealt at random HANDS times and each deal is played out with the hand's seat the bidder "
                    "(at the lowest contract, no auction; exchange, widow, meld and play as the rules say). "
                    "Prints P(make B) for the bids around the hand's value and the highest bid made in 50%% "
                    "and 75%% of the deals, with 95%% intervals. Method: a deal's side total (the side's meld "
                    "as kept plus its trick points as counted) is what it would take at any bid, so it makes "
                    "B when the total reaches B, unless the rules (or a bidder conceding a hopeless contract) "
                    "would stop it unplayed at B.")
    p.add_argument("hand", help='my cards, e.g. "AS AS 10S KS QS JS ..." (fewer than a hand: the rest at random)')
    p.add_argument("--seat", type=int, default=0,
                   help="my seat: 0 is the dealer's left, who opens; the dealer is the last (default 0)")
    p.add_argument("--hands", type=_positive_int,
                   help="deals of the unseen cards, each played in full (default: enough for a ±2-point "
                        "interval on the mean side total, at least 2000)")
    _add_run_args(p)
    _add_rules_args(p)

    p = sub.add_parser("playthrough", help="one seeded hand move by move: deal, bids, pass, melds, tricks")
    p.add_argument("--seed", type=_seed, default=1, help="random seed (default 1)")
    p.add_argument("--policy", default="heuristic", help="as for simulate")
    p.add_argument("--json", action="store_true", help="print the moves as one JSON object")
    _add_rules_args(p)

    p = sub.add_parser("duel", help="a Python policy (module:function) against the heuristic on identical deals, "
                       "seats swapped", description="Plays a Python policy, policy(state) -> Action on a "
                       "simcore.state.HandState, in each partnership (or each seat, without partners) against "
                       "the built-in heuristic, and the heuristic alone, on the same deals: points a deal for "
                       "each and the difference, with 95%% intervals.")
    p.add_argument("--policy", required=True, metavar="MODULE:FUNCTION",
                   help="the policy, e.g. mybot:choose (or heuristic, random: the built-in players; sampling: the "
                   "sampling player, simcore.state.sampler)")
    p.add_argument("--samples", type=_positive_int, default=20, help="with --policy sampling: deals sampled a "
                   "decision (default 20)")
    p.add_argument("--solve-from", type=_positive_int, default=6, help="with --policy sampling: it samples and "
                   "solves in the last this many tricks, plays as the heuristic before (default 6)")
    p.add_argument("--hands", type=_positive_int, default=100, help="deals (default 100; each is played "
                   "once per seat set and once by the heuristic alone)")
    p.add_argument("--seed", type=_seed, default=1, help="random seed (default 1)")
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_rules_args(p)

    p = sub.add_parser("solve", help="double dummy: the trick points each side takes with every hand known and "
                       "perfect play", description="Double-dummy solve of the trick play: the exact trick "
                       "points (as taken, last-trick bonus included) the bidding side and the others take "
                       "from a position with every hand known, both sides playing perfectly under the "
                       "system's duties. The position is a seeded hand's at its first lead (--seed; as "
                       "`pinochle playthrough` plays it), or one hand per seat given as cards. Systems "
                       "with a stock (two-hand) are solved only once the stock is gone: a seeded hand is "
                       "taken at its last hand-size tricks, and the points taken before are shown apart.")
    p.add_argument("cards", nargs="*", metavar="HAND",
                   help='one hand per seat from seat 0, e.g. "AS 10S KS" "QS JS 9S" ... (instead of --seed; '
                        "needs --trump and --leader)")
    p.add_argument("--seed", type=_seed, help="solve the first hand of this seed at its first lead (default 1)")
    p.add_argument("--policy", default="heuristic", help="the policies that bid and exchange in the seeded "
                   "hand, as for simulate (default heuristic)")
    p.add_argument("--trump", type=_suit, help="trump suit S, H, D or C (given hands)")
    p.add_argument("--leader", type=_seed, help="the seat to lead (given hands)")
    p.add_argument("--bidder", type=_seed, help="the bidder's seat (given hands; default 0): his side's points "
                   "are solved; with partners across his partner is the seat across")
    p.add_argument("--partner", type=_seed, help="the bidder's called partner (given hands, called-card systems)")
    p.add_argument("--first-trick", action="store_true", help="the hand's first trick (given hands): the "
                   "bidder's opening-lead duty applies")
    p.add_argument("--broken", action="store_true", help="trump has been played already (given hands; for "
                   "play.trump_led_once_broken)")
    p.add_argument("--at-least", type=_seed, metavar="T", help="only answer: can the bidding side take at "
                   "least T points? (much cheaper than the exact value)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_rules_args(p)

    p = sub.add_parser("endgame", help="how far the card play is from double dummy in the last tricks of "
                       "seeded hands", description="Replays the last --tricks-left tricks of the first hand "
                       "of seeds S .. S+N-1 decision by decision. At each card played the double-dummy solver "
                       "values every legal card; a decision's loss is what the card chosen gave up against "
                       "the best card for its side (part of it is hidden information, not misplay). Prints "
                       "the points given up per hand by each side, with 95%% intervals, beside the mean "
                       "loss of a random legal card at the same decisions, and the situations and single "
                       "decisions that gave up most.")
    _add_seeded_hands_args(p)
    p.add_argument("--tricks-left", type=_positive_int, default=6, help="tricks replayed at the end of each hand "
                   "(default 6; each more trick costs several times the time)")

    p = sub.add_parser("dd-odds", help="double-dummy make odds: would each seeded contract be made with every "
                       "hand known and perfect play, beside the heuristic's own result",
                       description="For the first hand of seeds S .. S+N-1, bid, passed and melded by the "
                       "policies and played out, asks the double-dummy solver whether the bidding side can "
                       "take the trick points its contract needs from the first lead (bid less its kept "
                       "meld; at least one point where the meld is saved by a trick), beside whether the "
                       "policies' own play made it. A solve that reaches --limit trick starts gives up: it "
                       "counts as made in the upper bound of the double-dummy rate and as not made in the "
                       "lower.")
    _add_seeded_hands_args(p)
    p.add_argument("--limit", type=_positive_int, default=1_500_000, help="trick starts a solve may search "
                   "before it gives up (default 1500000, about a second)")

    p = sub.add_parser("games", help="whole games: win rates by side, game length, sets, redeals (auction: "
                                     "deals settled in chips)")
    p.add_argument("--games", type=_positive_int, default=20_000, help="games to play (default 20000)")
    _add_run_args(p)
    _add_rules_args(p)

    p = sub.add_parser("compare", help="two rule sets on the same deals: each measure and B - A")
    p.add_argument("a", nargs="?", help="rule set A: an id or a .toml file")
    p.add_argument("b", nargs="?", help="rule set B (default: A with the --set overrides)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a rules key on side B (repeatable)")
    p.add_argument("--question", metavar="NAME", help=_question_help())
    p.add_argument("--list", action="store_true", help="list the named questions and exit")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--games", type=_positive_int,
                      help="whole games played on each side (default 40000, a question its own size)")
    size.add_argument("--hands", type=_positive_int,
                      help="compare single hands instead: hands dealt and played on each side (a question "
                           "asked in hands: its own size by default)")
    _add_run_args(p, policy=False)

    p = sub.add_parser("tune", help="the heuristic's bidding margin for a rules file: duels on identical deals",
                       description="Find the bidding margin (rules key policy.margin) no nearby margin beats: "
                                   "from the rules' margin, duel base ± step and ± 2 steps against the base on "
                                   "the same deals, and move the base to the best margin while its whole 95% "
                                   "interval is a gain. The duel depends on the teams. Partnerships across "
                                   "(4, 6 or 8 players): seats 0, 2, ... bid with the candidate against the odd "
                                   "seats at the base, then the teams swap seats; the gain is team points a hand. "
                                   "Each for himself or with a called partner: one seat bids with the candidate, "
                                   "every other seat with the base, the candidate rotated through every seat on "
                                   "the same games, against a baseline with every seat at the base; the gain is "
                                   "games won, in percentage points (systems settled in chips per deal, such as "
                                   "auction: chips a deal). Systems without an auction have nothing to tune.")
    p.add_argument("--hands", type=_positive_int,
                   help="deals played per duel and seating, for the team and chip duels (default 50000)")
    p.add_argument("--games", type=_positive_int,
                   help="games played per run, for the seat duel with whole games (default 5000)")
    p.add_argument("--step", type=float, default=0.05, help="margin step (default 0.05)")
    p.add_argument("--seed", type=_seed, default=1, help="random seed (default 1)")
    p.add_argument("--threads", type=_positive_int, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    _add_rules_args(p)

    p = sub.add_parser("report", help="a Markdown report with charts and tables: index, a page and a "
                                      "player's card (Markdown, PNG, PDF) per system")
    p.add_argument("--variant", dest="variants", action="append", metavar="ID",
                   help="a system to cover, shipped id or rules file (repeatable; default: four-hand-150, "
                        "partnership-auction, double-deck)")
    p.add_argument("--hands", type=_positive_int,
                   help="hands played in full per analysis (default 200000); 20 times as many are dealt "
                        "for the dealing analyses and a tenth as many whole games are played")
    p.add_argument("--seed", type=_seed, default=1, help="random seed (default 1)")
    p.add_argument("--out", default="reports", metavar="DIR", help="output directory (default reports)")
    p.add_argument("--threads", type=_positive_int, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print a manifest of the files written as one JSON object")
    p.add_argument("--strong-play", action="store_true",
                   help="instead, write strong-play.md: how far the heuristic is from strong play (the sampling "
                        "player's duel, double-dummy make odds by bid, the worst decisions in the endings, the "
                        "bidding card under strong play); about 8 minutes of solving on 2 busy cores at the default "
                        "size")
    p.add_argument("--deals", type=_positive_int, help="with --strong-play: deals per system for the duel and the "
                   "bidding card, as many hands solved for the make odds, three times as many endings (default 300)")
    p.add_argument("--limit", type=_positive_int, help="with --strong-play: trick starts a make-or-not solve may "
                   "search before it gives up (default 4000000)")
    p.add_argument("--workers", type=_positive_int, default=2, help="with --strong-play: worker processes "
                   "(default 2; results do not depend on it)")

    p = sub.add_parser("runs", help="list the runs kept in the results store")
    p.add_argument("--store", metavar="PATH", help="results store file (default as for simulate)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("export", help="write stored runs to Parquet or CSV")
    p.add_argument("--out", required=True, metavar="FILE", help="a file name ending in .parquet or .csv")
    p.add_argument("--run", metavar="PREFIX", help="only runs whose key starts with PREFIX (see `pinochle runs`)")
    p.add_argument("--seed", type=_seed, help="only this seed")
    p.add_argument("--chunks", action="store_true", help="one row per chunk instead of the merged tally")
    p.add_argument("--store", metavar="PATH", help="results store file (default as for simulate)")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON object")

    p = sub.add_parser("bench", help="throughput: deal + meld, full hands and whole games")
    p.add_argument("--hands", type=_positive_int, default=20_000_000,
                   help="hands dealt (and melded) per timed run of deal + meld, three runs per deck "
                        "(default 20000000)")
    p.add_argument("--full-hands", type=_positive_int, default=400_000,
                   help="hands played per timed run of full hands (default 400000)")
    p.add_argument("--games", type=_positive_int, default=40_000,
                   help="games per timed run of whole games (default 40000)")
    p.add_argument("--threads", type=_positive_int, help="worker threads")
    p.add_argument("--execution", action="store_true",
                   help="instead: plain threads against the results store and a 2-worker local Dask cluster")
    p.add_argument("--solver", type=_positive_int, metavar="N",
                   help="instead: double-dummy solves of N seeded deals each, one thread: a whole 48-card "
                        "deal (four-hand-150), the last 12 tricks and the whole of an 80-card deal "
                        "(double-deck); median and 99th percentile per solve")
    p.add_argument("--state", type=_positive_int, metavar="N",
                   help="instead: N seeded hands each through the Python game state (simcore.state), the "
                        "bridged heuristic at every seat, one thread (four-hand-150, double-deck, two-hand)")
    p.add_argument("--solver-limit", type=_positive_int, default=20_000_000, metavar="NODES",
                   help="with --solver: a solve gives up after this many trick starts (default 20000000)")
    p.add_argument("--json", action="store_true", help="print JSON")
    serve.add_parser(sub)
    return parser


# --- commands ---------------------------------------------------------------------------------

def cmd_variants(args: argparse.Namespace) -> None:
    rows = [load_variant(i) for i in shipped_ids()]
    if args.json:
        _print_json([{"id": v.id, "name": v.name, "description": v.description} for v in rows])
        return
    width = max(len(v.id) for v in rows)
    for v in rows:
        print(f"{v.id:<{width}}  {v.description}")


def cmd_meld(args: argparse.Namespace) -> None:
    import numpy as np

    from simcore.kernels.cards import SUITS, check_hand, format_hand, parse_hand
    from simcore.kernels.meld import N_NAMED, NAMED_MELDS, meld_breakdown, meld_by_trump

    variant = load_variant(args.variant, args.overrides)
    hand = parse_hand(args.hand)
    check_hand(hand, variant.deck_copies, variant.hand_size)
    table, flags = variant.meld_table(), variant.meld_flags()
    totals = np.zeros(4, dtype=np.int64)
    best = meld_by_trump(hand, table, flags, totals)
    trump = best if args.trump is None else args.trump
    counts, points = np.zeros(N_NAMED, dtype=np.int64), np.zeros(N_NAMED, dtype=np.int64)
    total = int(meld_breakdown(hand, trump, table, flags, counts, points))
    melds = [{"meld": name, "count": int(c), "points": int(p)}
             for name, c, p in zip(NAMED_MELDS, counts, points) if c]
    if args.json:
        _print_json({"variant": variant.id, "hand": format_hand(hand), "trump": SUITS[trump],
                     "total": total, "melds": melds, "by_trump": {SUITS[s]: int(totals[s]) for s in range(4)},
                     "best_trump": SUITS[best]})
        return
    print(f"{variant.id}: {format_hand(hand)}")
    print(f"trump {SUITS[trump]}: {total} points")
    for m in melds:
        times = f" ×{m['count']}" if m["count"] > 1 else ""
        print(f"  {m['meld'].replace('_', ' ')}{times}: {m['points']}")
    print("by trump: " + "  ".join(f"{SUITS[s]} {int(totals[s])}" for s in range(4))
          + f"  (best {SUITS[best]})")


def _fmt_p(p: float) -> str:
    return "0" if p == 0 else f"{p:.3g}" if p >= 1e-3 else f"{p:.2e}"


def _fmt_one_in(p: float | None) -> str:
    if p is None or p == 0:
        return "never seen"
    n = 1 / p
    return f"1 in {n:,.0f}" if n >= 10 else f"1 in {n:.2f}"


def cmd_odds(args: argparse.Namespace) -> int:
    from simcore.answers.odds import simulate_odds
    from simcore.kernels.events import CATALOGUE, parse_event

    if args.list:
        for e in CATALOGUE.values():
            print(f"{e.name:<16} {e.help}")
        print(f"{'meld>=X':<16} best-trump meld of at least X points under the variant's table")
        return 0
    variant = load_variant(args.variant, args.overrides)
    names = args.events or list(CATALOGUE)
    events = [parse_event(n, variant) for n in names]
    _threads(args.threads)
    if args.hold is not None or args.want is not None:
        return _odds_given(args, variant, events)
    result = simulate_odds(variant, events, args.hands, args.seed,
                           progress=not args.json and sys.stderr.isatty())
    if args.json:
        _print_json(result.to_json())
        return _exit_status(result)
    print(f"{variant.id}: {result.hands:,} hands in {result.deals:,} deals, seed {args.seed}, "
          f"{result.seconds:.1f} s" + _partial(result))
    header = (f"{'event':<16} {'per hand [95% CI]':<30} {'exact':<10} {'1 in N':<16} {'per deal [95% CI]':<30} "
              f"{'exact':<10} {'1 in N'}")
    print(header)
    estimated_only = False
    for o in result.events:
        h, d = o.per_hand, o.per_deal
        exact_d = "estimated" if o.exact_deal is None else _fmt_p(float(o.exact_deal))
        estimated_only |= o.exact_deal is None
        print(f"{o.event.name:<16} {_fmt_p(h.estimate) + f' [{_fmt_p(h.lo)}, {_fmt_p(h.hi)}]':<30} "
              f"{_fmt_p(float(o.exact_hand)) if o.exact_hand is not None else '-':<10} "
              f"{_fmt_one_in(float(o.exact_hand) if o.exact_hand is not None else h.estimate):<16} "
              f"{_fmt_p(d.estimate) + f' [{_fmt_p(d.lo)}, {_fmt_p(d.hi)}]':<30} {exact_d:<10} "
              f"{_fmt_one_in(float(o.exact_deal) if o.exact_deal is not None else d.estimate)}")
    print("1 in N: from the exact value where known, else from the estimate")
    if estimated_only:
        print("per deal 'estimated': two hands of one deal can both hold the event, and counting such "
              "deals exactly is out of reach for it (it depends on too many card types); the simulated "
              "interval is the answer.")
    return _exit_status(result)


def _cards_option(option: str, text: str, variant, most: int, room: str, limit=None):
    """The copy counts of the cards of ``--hold`` or ``--want``, refused in one line (naming the option)
    unless the deck can supply them (``limit``: copies left per type) and they number at most ``most``."""
    from simcore.kernels.cards import HandError, check_hand, parse_hand

    try:
        cards = parse_hand(text)
        check_hand(cards, variant.deck_copies if limit is None else limit, None)
    except HandError as exc:
        raise UsageError(f"pinochle: {option} {text!r}: {exc}") from None
    if int(cards.sum()) > most:
        raise UsageError(f"pinochle: {option} {text!r}: {int(cards.sum())} cards, but {room} holds {most}")
    return cards


def _odds_given(args: argparse.Namespace, variant, events) -> int:
    """``odds --hold/--want``: each event at each place, given the cards seat 0 holds."""
    import numpy as np

    from simcore.answers.given import given_odds
    from simcore.kernels.cards import format_hand

    hold = (np.zeros(24, dtype=np.uint8) if args.hold is None
            else _cards_option("--hold", args.hold, variant, variant.hand_size, "a hand"))
    want = None
    if args.want is not None:
        widow = variant.get("deal.widow")
        if not widow or variant.get("deal.widow_kind") == "stock":
            raise UsageError(f"pinochle: --want: {variant.id} deals no widow or kitty to look for cards in")
        want = _cards_option("--want", args.want, variant, widow, "the widow",
                             limit=variant.deck_copies - hold)
    result = given_odds(variant, events, hold, args.hands, args.seed, want,
                        progress=not args.json and sys.stderr.isatty())
    if args.json:
        _print_json(result.to_json())
        return _exit_status(result)
    held = format_hand(hold) if args.hold is not None else "nothing"
    print(f"{variant.id}: I (seat 0) hold {held}; {result.deals:,} deals, seed {args.seed}, "
          f"{result.seconds:.1f} s" + _partial(result))
    for event, by_place in result.events:
        print(f"{event.name}:")
        for place, o in by_place.items():
            iv = o.estimate
            if o.fact:
                text = "yes (a fact: every card of my hand is given)" if o.exact == 1 else \
                    "no (a fact: every card of my hand is given)"
            else:
                exact = f"exact {_fmt_p(float(o.exact))}" if o.exact is not None else "estimated"
                value = float(o.exact) if o.exact is not None else iv.estimate
                odds = {0: "impossible", 1: "certain"}.get(o.exact, _fmt_one_in(value))
                text = f"{_fmt_p(iv.estimate) + f' [{_fmt_p(iv.lo)}, {_fmt_p(iv.hi)}]':<30} {exact:<16} {odds}"
            print(f"  {place.replace('_', ' '):<10} {text}")
    if want is not None:
        print(f"the widow holds {format_hand(want)}: exact {_fmt_p(float(result.want_exact))} "
              f"({_fmt_one_in(float(result.want_exact))})")
    return _exit_status(result)


def _exit_status(result) -> int:
    """0, or EXIT_INTERRUPTED for a result that Ctrl-C cut short."""
    return EXIT_INTERRUPTED if result.interrupted else 0


def _partial(result) -> str:
    """What a headline line adds for a result that Ctrl-C cut short."""
    return "  (INTERRUPTED: partial result)" if result.interrupted else ""


def _fmt_iv(iv, missing: str = "nothing to count") -> str:
    """``estimate [lo, hi]``, or why there is no estimate (``missing``) where nothing was counted."""
    if not math.isfinite(iv.estimate):
        return f"does not apply ({missing})"
    return f"{iv.estimate:.4g} [{iv.lo:.4g}, {iv.hi:.4g}]"


def _no_bidder(variant) -> str:
    """Why a rate over contracts has no estimate."""
    return "no bidder in this system" if variant.get("auction.kind") == "none" else "no hand had a bidder"


def _strict(value):
    """``value`` as strict JSON data: NaN and infinities become null, numpy scalars plain numbers."""
    if isinstance(value, dict):
        return {str(k): _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    if type(value).__module__ == "numpy" and hasattr(value, "item"):  # a numpy scalar
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _print_json(value) -> None:
    """Print ``value`` as one strict JSON document (``null``, never NaN or Infinity)."""
    print(json.dumps(_strict(value), indent=2, allow_nan=False))


def cmd_simulate(args: argparse.Namespace) -> int:
    from simcore.answers.simulate import simulate
    from simcore.kernels.policies import parse_policies

    variant = _full_hand_variant(args)
    policies = parse_policies(args.policy, variant.players)
    if args.out is not None and not args.out.endswith(".parquet"):
        raise UsageError(f"pinochle: --out {args.out!r}: give a file name ending in .parquet")
    _threads(args.threads)
    result = simulate(variant, args.hands, args.seed, policies,
                      progress=not args.json and sys.stderr.isatty(), out=args.out)
    status = _exit_status(result)
    if args.json:
        _print_json(result.to_json())
        return status
    print(f"{variant.id}: {result.hands:,} hands, seed {args.seed}, policies {','.join(result.policies)}, "
          f"{result.seconds:.1f} s" + _partial(result))
    print("estimate [95% CI]; side = the bidder's side")
    for name, iv in result.rates().items():
        print(f"  {name + ' rate':<26} {_fmt_iv(iv, _no_bidder(variant))}")
    for name, iv in result.means().items():
        print(f"  {'mean ' + name.replace('_', ' '):<26} {_fmt_iv(iv)}")
    bids = result.bid_distribution()
    if len(bids):
        top = bids.sort_values("hands", ascending=False).head(10).sort_values("bid")
        print("most frequent winning bids: " + ", ".join(
            f"{int(r.bid)}{' or more' if r.or_more else ''} ({r.share:.1%})" for r in top.itertuples()))
    if args.out:
        print(f"wrote {result.hands:,} rows to {args.out}")
    return status


def _full_hand_variant(args: argparse.Namespace):
    variant = load_variant(args.variant, args.overrides)
    if variant.get("auction.kind") is None:
        raise UsageError(f"pinochle: {variant.where}: full hands are not yet simulated for "
                         f"{variant.id} (it has no [auction] rules); systems with them: "
                         + ", ".join(i for i in shipped_ids() if load_variant(i).get("auction.kind")))
    return variant


def _check_bid(variant, bid: int) -> None:
    """A bid the auction can reach and the joint table answers, else a UsageError saying which are."""
    from simcore.answers.bidodds import highest_bid, is_bid

    lowest, top = variant.lowest_contract, highest_bid(variant)
    step, step_from = variant.get("auction.step"), variant.get("auction.step_from")
    grid = f"bids go {lowest}, {lowest + step}, {lowest + 2 * step}, ..." + (
        f" and by {variant.get('auction.step_after')} past {step_from}" if step_from else "")
    if bid < lowest:
        raise UsageError(f"pinochle bid-odds: --bid {bid}: below the lowest contract in {variant.id} ({grid})")
    if not is_bid(variant, bid):
        raise UsageError(f"pinochle bid-odds: --bid {bid}: not a bid in {variant.id} ({grid})")
    if bid > top:
        raise UsageError(f"pinochle bid-odds: --bid {bid}: the table answers bids up to {top} in {variant.id}")


def _joint_line(variant, result, basis: str, bid: int, meld: int) -> str:
    """One cell of P(make B | meld M) as one line: the probability, its interval, its hands and how
    they were played."""
    row = result.joint_table(basis, bid, meld).iloc[0]
    what = "bidder's meld as dealt" if basis == "dealt" else "side's meld after the exchange"
    given = f"{what} {row.meld_bin}" + (
        f" (the bin of meld {meld}: melds come in steps of {result.meld_unit})" if row.meld_bin != str(meld) else "")
    margin = (f"{result.margins[0]:g}" if len(set(result.margins)) == 1
              else ",".join(f"{m:g}" for m in result.margins))
    played = (f"{result.hands:,} hands of {variant.id}, seed {result.seed}, policy {result.policy}, margin {margin}"
              + _partial(result))
    if row.n == 0:
        return f"P(make {bid} | {given}): no hand had it; {played}"
    unknown = f"; {row.unknown:,} not played, fate unknown, counted as not made" if row.unknown else ""
    return (f"P(make {bid} | {given}) = {row.estimate:.1%} [{row.lo:.1%}, {row.hi:.1%}] over "
            f"{row.n:,} hands ({row.made:,} made{unknown}); {played}")


def _joint_matrix(result, basis: str) -> list[str]:
    """Text of one joint table: a row per meld, a column per bid among those most often bid."""
    bids_table = result.table("bid")
    if not len(bids_table):
        return []
    top = bids_table.sort_values("hands", ascending=False).head(10)["bid"].sort_values().tolist()
    t = result.joint_table(basis).query("bid in @top")
    what = "bidder's meld as dealt" if basis == "dealt" else "side's meld after the exchange"
    lines = [f"\nP(make B | {what}): % of hands whose side total reaches B  (hands); "
             "bids most often bid; --bid/--meld for one cell with its interval"]
    lines.append(f"  {'meld':>12}  {'hands':>9}  " + " ".join(f"{b:>6}" for b in top))
    for _, group in t.groupby("meld", sort=True):
        row = group.set_index("bid")
        cells = " ".join(f"{row.loc[b, 'estimate']:6.1%}" for b in top)
        lines.append(f"  {row['meld_bin'].iloc[0]:>12}  {int(row['n'].iloc[0]):>9,}  {cells}")
    return lines


def cmd_bid_odds(args: argparse.Namespace) -> int:
    from simcore.answers.bidodds import bid_odds
    from simcore.kernels.policies import parse_policies

    variant = _full_hand_variant(args)
    if variant.get("auction.kind") == "none":
        raise UsageError(f"pinochle: {variant.id} has no auction, so no bids to tabulate")
    policies = parse_policies(args.policy, variant.players)
    if args.bid is not None:
        _check_bid(variant, args.bid)
    if args.json and args.csv == "-":
        raise UsageError("pinochle bid-odds: --json and --csv without a FILE both print; give --csv FILE")
    _threads(args.threads)
    result = bid_odds(variant, args.hands, args.seed, policies,
                      progress=not (args.json or args.csv == "-") and sys.stderr.isatty())
    status = _exit_status(result)
    if args.csv:
        cells = result.joint_table(args.basis, args.bid, args.meld)
        cells.insert(0, "variant", variant.id)
        cells.to_csv(sys.stdout if args.csv == "-" else args.csv, index=False)
        if args.csv == "-":
            return status
    if args.json:
        _print_json(result.to_json(args.basis, args.bid, args.meld))
        return status
    if args.bid is not None and args.meld is not None:
        print(_joint_line(variant, result, args.basis or "dealt", args.bid, args.meld))
        return status
    print(f"{variant.id}: {result.hands:,} hands, seed {args.seed}, policies {','.join(result.policies)}"
          + _partial(result))
    if args.bid is not None or args.meld is not None:
        t = result.joint_table(args.basis, args.bid, args.meld)
        given = f"bid {args.bid}" if args.bid is not None else f"meld {args.meld}"
        print(f"P(make B | meld M) for {given}  [95% CI]  (hands; not played, fate unknown)")
        for basis, group in t.groupby("basis", sort=False):
            print(f"  {basis}:")
            for r in group.itertuples(index=False):
                if r.n:
                    print(f"    bid {r.bid:>6}  meld {r.meld_bin:>12}  {r.estimate:6.1%}  [{r.lo:.1%}, {r.hi:.1%}]"
                          f"  ({r.n:,}{f'; {r.unknown:,} unknown' if r.unknown else ''})")
    else:
        for name, t in result.tables().items():
            print(f"\nP(make) by {name.replace('_', ' ')}  [95% CI]  (hands)")
            for row in t.itertuples(index=False):
                print(f"  {row[0]:>6}  {row.p_make:6.1%}  [{row.lo:.1%}, {row.hi:.1%}]  ({row.hands:,})")
        for basis in ((args.basis,) if args.basis else ("dealt", "after_exchange")):
            for line in _joint_matrix(result, basis):
                print(line)
    if args.csv:
        print(f"\nwrote {args.csv}")
    return status


def _policies_text(policies: Sequence[str]) -> str:
    """'heuristic play', or the seats' policies in seat order where they differ."""
    return f"{policies[0]} play" if len(set(policies)) == 1 else "policies " + ",".join(policies)


def cmd_advise(args: argparse.Namespace) -> int:
    from simcore.answers.advise import advise, check_advisable, seat_name
    from simcore.kernels.cards import SUITS, format_hand
    from simcore.kernels.policies import parse_policies

    variant = _full_hand_variant(args)
    check_advisable(variant, args.seat)
    hand = _cards_option("hand", args.hand, variant, variant.hand_size, "a hand")
    policies = parse_policies(args.policy, variant.players)
    _threads(args.threads)
    a = advise(variant, hand, args.seat, args.hands, args.seed, policies,
               progress=not args.json and sys.stderr.isatty())
    if args.json:
        _print_json(a.to_json())
        return _exit_status(a)
    held = int(hand.sum())
    more = "" if held == variant.hand_size else f" and {variant.hand_size - held} more at random"
    print(f"{variant.id}: {seat_name(variant, args.seat)} holds {format_hand(hand)}{more}")
    best = max(range(4), key=lambda s: a.by_trump[s])
    named = "no trump (it holds no marriage to name)" if a.named is None else f"names {SUITS[a.named]}"
    print("meld by trump: " + "  ".join(f"{SUITS[s]} {a.by_trump[s]}" for s in range(4))
          + f"  (best {SUITS[best]}; the heuristic {named})")
    print(f"{a.deals:,} deals of the unseen cards, each played out with seat {args.seat} the bidder; "
          f"{_policies_text(a.policies)}, seed {args.seed}, {a.seconds:.2f} s" + _partial(a))
    if a.named_share:
        print("trump named: " + "  ".join(f"{s} {v:.0%}" for s, v in a.named_share.items())
              + ("  (after the widow)" if variant.hand_rules.trump_after_widow else ""))
    print(f"side total (meld kept + trick points): mean {_fmt_iv(a.total)}; played out in {a.played:.0%}")
    print("  bid   P(make)  [95% CI]")
    for bid, _, iv in a.bids:
        print(f"  {bid:>4}   {iv.estimate:6.1%}  [{iv.lo:.1%}, {iv.hi:.1%}]")
    for s in a.highest:
        if s.bid is None:
            print(f"highest bid made in {s.share:.0%} of deals: none (not even {variant.lowest_contract})")
        else:
            lo = "below the lowest" if s.lo is None else s.lo
            print(f"highest bid made in {s.share:.0%} of deals: {s.bid}  (95% CI {lo} to {s.hi})")
    return _exit_status(a)


def cmd_duel(args: argparse.Namespace) -> None:
    from simcore.state.duel import PolicyLoadError, duel, load_policy

    variant = _full_hand_variant(args)
    try:
        result = duel(variant, load_policy(args.policy, samples=args.samples, solve_from=args.solve_from),
                      args.hands, args.seed, args.policy)
    except PolicyLoadError as exc:  # the user's policy: its name, or what it did
        raise UsageError(f"pinochle duel: {exc}") from None
    if args.json:
        _print_json(result)
        return

    rows = [(args.policy, result["policy_points"]), ("heuristic in the same seats", result["heuristic_points"]),
            ("difference", result["difference"])]
    width = max(len(label) for label, _ in rows)
    sets = " and ".join("+".join(map(str, g)) for g in result["seat_sets"])
    print(f"{args.policy} against the heuristic, {variant.id}: {args.hands} deals (seed {args.seed}), the policy "
          f"at seats {sets} in turn; points a deal, 95% interval")
    for label, iv in rows:
        print(f"  {label:<{width}}  {iv['mean']:8.1f}  [{iv['low']:.1f} to {iv['high']:.1f}]")


def cmd_playthrough(args: argparse.Namespace) -> None:
    from simcore.answers.playthrough import playthrough_text
    from simcore.kernels.policies import parse_policies

    variant = _full_hand_variant(args)
    policies = parse_policies(args.policy, variant.players)
    if args.json:
        from simcore.answers.playthrough import playthrough_moves

        _print_json(playthrough_moves(variant, args.seed, policies))
        return
    print(playthrough_text(variant, args.seed, policies), end="")


def _solve_position(args: argparse.Namespace):
    """The :class:`simcore.solver.position.Position` that ``pinochle solve``'s arguments name."""
    from simcore.kernels.policies import parse_policies
    from simcore.solver.position import given_position, seeded_position

    given = ("--trump", args.trump), ("--leader", args.leader), ("--bidder", args.bidder), (
        "--partner", args.partner), ("--first-trick", args.first_trick or None), ("--broken", args.broken or None)
    if not args.cards:
        named = [name for name, value in given if value is not None]
        if named:
            raise UsageError(f"pinochle solve: {', '.join(named)}: only with hands given as cards, not with a "
                             "seed")
        variant = _full_hand_variant(args)
        seed = 1 if args.seed is None else args.seed
        return seeded_position(variant, seed, parse_policies(args.policy, variant.players))
    if args.seed is not None:
        raise UsageError("pinochle solve: give either --seed or the hands as cards, not both")
    if args.trump is None or args.leader is None:
        raise UsageError("pinochle solve: hands given as cards need --trump and --leader")
    variant = load_variant(args.variant, args.overrides)
    return given_position(variant, args.cards, args.trump, args.leader,
                          0 if args.bidder is None else args.bidder,
                          -1 if args.partner is None else args.partner, args.first_trick, args.broken)


def cmd_solve(args: argparse.Namespace) -> int:
    from simcore.kernels.cards import SUITS, format_hand
    from simcore.solver.position import solve

    position = _solve_position(args)
    result = solve(position, args.at_least)
    if args.json:
        _print_json(result.to_json())
        return 0
    v = position.variant
    ours = [s for s in range(v.players) if position.side[s] == 1]
    where = f"seed {args.seed if args.seed is not None else 1}, {position.note}" if not args.cards else "given hands"
    lead = " (bidder)" if position.leader == position.bidder else ""
    print(f"{v.id}: {where}; trump {SUITS[position.trump]}, seat {position.leader}{lead} leads, "
          f"{position.tricks} tricks, {position.in_play} points in play")
    for s in range(v.players):
        tag = "bidder" if s == position.bidder else ("bidding side" if position.side[s] else "")
        print(f"  seat {s}{f' ({tag})' if tag else ''}: {format_hand(position.hands[s])}")
    if any(position.taken):
        print(f"taken in the tricks before: bidding side {position.taken[0]}, others {position.taken[1]}")
    side = "seat " + str(ours[0]) if len(ours) == 1 else "seats " + ", ".join(map(str, ours))
    cost = f"{result.seconds:.2f} s, {result.nodes:,} trick starts searched"
    if result.target is not None:
        print(f"double dummy: can the bidding side ({side}) take at least {result.target}? "
              f"{'yes' if result.reaches else 'no'} ({cost})")
        return 0
    counted = ""
    if v.get("tricks.round_to"):
        counted = f" (counted: {result.counted(result.side_points)} and {result.counted(result.other_points)})"
    print(f"double dummy: the bidding side ({side}) takes {result.side_points}, the others {result.other_points}"
          f"{counted} ({cost})")
    return 0


def cmd_endgame(args: argparse.Namespace) -> int:
    from simcore.answers.endgame import endgame_loss
    from simcore.kernels.cards import card_name
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    result = endgame_loss(variant, args.hands, args.seed, args.tricks_left,
                          parse_policies(args.policy, variant.players))
    if args.json:
        _print_json(result.to_json())
        return 0
    t = result.totals
    print(f"{variant.id}: the last {args.tricks_left} tricks of {result.played:,} of {args.hands:,} hands "
          f"(seeds {args.seed}..{args.seed + args.hands - 1}; the others were not played out), policy {args.policy}")
    if not result.played:
        return 0
    print(f"points in play {t['in_play'].mean():.1f} a hand; the bidding side's double-dummy value "
          f"{t['value'].mean():.1f}, taken {t['taken'].mean():.1f}")
    print("points given up a hand against double-dummy play, estimate [95% CI] (a random legal card at the same "
          "decisions beside):")
    for name, iv in result.per_hand("role").items():
        print(f"  {name:<28} {_fmt_iv(iv)}")
    print("situations giving up most a decision (place 0 = the lead):")
    print(result.worst_situations().to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    print("decisions giving up most (see them with pinochle playthrough --seed S):")
    for _, d in result.worst_decisions().iterrows():
        print(f"  seed {d['seed']}, {d['tricks_left']} tricks left, seat {d['seat']} ({d['role']}) played "
              f"{card_name(d['chosen'])}, {card_name(d['best_card'])} was worth {d['loss']} more")
    return 0


def cmd_dd_odds(args: argparse.Namespace) -> int:
    from simcore.answers.dd_make import dd_make_odds
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    result = dd_make_odds(variant, args.hands, args.seed, args.limit, parse_policies(args.policy, variant.players))
    if args.json:
        _print_json(result.to_json())
        return 0
    o = result.overall()
    last = args.seed + args.hands - 1
    print(f"{variant.id}: {o['hands']:,} of {args.hands:,} hands played out (seeds {args.seed}..{last}), "
          f"policy {args.policy}, solves limited to {args.limit:,} trick starts")
    if not o["hands"]:
        return 0
    print(f"made by the policies' play {_fmt_iv(o['heuristic'])}; with double-dummy play {o['dd_low']:.3f} to "
          f"{o['dd_high']:.3f} ({o['gave_up']} solves gave up)")
    table = result.by_bid().rename(columns={"heuristic_lo": "lo", "heuristic_hi": "hi"})
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if result.mismatches:
        print(f"warning: in {result.mismatches} hands the policies' points against the need disagree with the "
              "record's made (one point standing in for one trick)")
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from simcore.answers.game_results import play_games
    from simcore.kernels.policies import parse_policies

    variant = load_variant(args.variant, args.overrides)
    policies = parse_policies(args.policy, variant.players)
    _threads(args.threads)
    from simcore.answers.settlement import has_settlement
    if not variant.has_game_rules and has_settlement(variant):
        return _settled_deals(args, variant, policies)
    result = play_games(variant, args.games, args.seed, policies,
                        progress=not args.json and sys.stderr.isatty())
    status = _exit_status(result)
    if args.json:
        _print_json(result.to_json())
        return status
    print(f"{variant.id}: {result.games:,} games to {variant.get('game.target')}, seed {args.seed}, policies "
          f"{','.join(result.policies)}, {result.seconds:.1f} s"
          + _partial(result))
    print("estimate [95% CI]; " + ("team 0 = seats 0, 2, ... (the first dealer's left), team 1 = the first "
                                    "dealer's side" if len(result.lines) == 2 else
                                    "each player keeps his own score; seat 0 is the first dealer's left"))
    for name, iv in result.rates().items():
        print(f"  {name:<40} {_fmt_iv(iv, _GAME_RATE_MISSING.get(name, 'no games to count'))}")
    for name, iv in result.means().items():
        print(f"  {'mean ' + name.replace('_', ' ') + ' per game':<40} {_fmt_iv(iv)}")
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
    status = _exit_status(result)
    if args.json:
        _print_json(result.to_json())
        return status
    print(f"{variant.id}: {result.deals:,} deals, each a game settled in chips, "
          f"{variant.get('settlement.people')} people, seed {args.seed}, policies "
          f"{','.join(result.policies)}, {result.seconds:.1f} s"
          + _partial(result))
    print("estimate [95% CI]; chips won (+) or paid (-) per deal; seats clockwise from the dealer's left")
    for name, iv in result.means().items():
        print(f"  {name:<40} {_fmt_iv(iv)}")
    for name, iv in result.rates().items():
        print(f"  {name:<40} {_fmt_iv(iv)}")
    return status


def cmd_compare(args: argparse.Namespace) -> int:
    from simcore.answers.compare import QUESTIONS, answer, compare
    from simcore.answers.game_results import GameRulesError
    from simcore.variants import RulesError

    if args.list:
        for name, q in QUESTIONS.items():
            print(f"{name:<24} {q.title} ({q.mode}, default {q.size:,}; runs with "
                  f"{' and '.join('--' + m for m in q.modes)}; {q.changes()})")
        return 0
    _threads(args.threads)
    try:
        if args.question:
            if args.question not in QUESTIONS:
                raise UsageError(f"pinochle compare: --question {args.question!r} is not a question; choose "
                                 f"from {', '.join(QUESTIONS)}")
            if args.a or args.b or args.overrides:
                raise UsageError("pinochle compare: give --question or rule sets A and B, not both")
            q = QUESTIONS[args.question]
            mode = "hands" if args.hands else "games" if args.games else q.mode
            if mode not in q.modes:
                raise UsageError(f"pinochle compare: question {args.question} compares {' or '.join(q.modes)} "
                                 f"only (the rule acts at a game's end); give --{q.mode} N")
            result = answer(args.question, args.hands if mode == "hands" else args.games, args.seed, mode)
        else:
            if not args.a:
                raise UsageError("pinochle compare: give rule set A (and B, or --set overrides for B), or "
                                 "--question NAME")
            a = load_variant(args.a)
            b = load_variant(args.b or args.a, args.overrides)
            if args.b is None and not args.overrides:
                raise UsageError("pinochle compare: B is A unchanged; give rule set B or --set KEY=VALUE")
            games = args.games if args.hands is None else None
            result = compare(a, b, games=(games or 40_000) if args.hands is None else None,
                             hands=args.hands, seed=args.seed)
    except (ValueError, GameRulesError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise UsageError(f"pinochle compare: {exc}")
    if args.json:
        _print_json(result.to_json())
        return 0
    title = result.question or f"A = {result.a.id}, B = {result.b.id}"
    print(f"{title}; seed {args.seed}; {int(result.table['n'].iloc[0]):,} paired {result.mode}")
    print(f"  {'measure':<44} {'A':>10} {'B':>10} {'B - A [95% CI]':>32}  pairing narrows")
    for r in result.table.to_dict(orient="records"):
        ratio = r["unpaired_half"] / r["paired_half"] if r["paired_half"] > 0 else float("inf")
        ci = f"{r['diff']:+.4g} [{r['diff_lo']:+.4g}, {r['diff_hi']:+.4g}]"
        print(f"  {r['measure']:<44} {r['a']:>10.4g} {r['b']:>10.4g} {ci:>32}  "
              + ("exact" if r["paired_half"] == 0 else f"{ratio:.1f}x"))
    print(result.verdict())
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    from analyses.bid_tuning import DuelError, duel_kind, tune_margin

    variant = _full_hand_variant(args)
    if not 0 < args.step <= 0.5:
        raise UsageError(f"pinochle tune: --step {args.step}: give a number above 0 and at most 0.5")
    try:
        kind = duel_kind(variant)
    except DuelError as exc:
        raise UsageError(f"pinochle tune: {exc}")
    if kind == "seat":
        if args.hands is not None:
            raise UsageError(f"pinochle tune: {variant.id} is tuned by whole games: give --games, not --hands")
        size, unit = args.games or 5_000, "games per run"
    else:
        if args.games is not None:
            raise UsageError(f"pinochle tune: {variant.id} is tuned on single deals: give --hands, not --games")
        size, unit = args.hands or 50_000, "deals per seating"
    _threads(args.threads)
    if not args.json:
        what = {"team": "team points a hand the margin's partnership gains",
                "seat": "games won the margin's seat gains, in percentage points (and its points a game)",
                "chips": "chips a deal the margin's seat gains"}[kind]
        print(f"{variant.id}: {kind} duels of {size:,} {unit}, seed {args.seed}, from margin "
              f"{variant.get('policy.margin'):+.2f}; {what} [95% CI]")

    def show(duel) -> None:
        if not args.json:
            for r in duel.itertuples():
                extra = f"  points {r.points:+.1f}" if kind == "seat" else ""
                print(f"  base {r.base:+.2f}  margin {r.margin:+.2f}: {r.gain:+7.2f} [{r.gain_lo:+.2f}, "
                      f"{r.gain_hi:+.2f}]{extra}  contracts {r.contracts:.1%}  make rate {r.make_rate:.1%}",
                      flush=True)

    path = tune_margin(variant, size, args.seed, args.step, on_duel=show)
    best, settled = path.attrs["margin"], path.attrs["settled"]
    if args.json:
        _print_json({"variant": variant.id, "seed": args.seed, "duel": kind, "measure": path.attrs["measure"],
                     ("games" if kind == "seat" else "hands"): size, "step": args.step,
                     "margin": best, "settled": settled, "duels": path.to_dict(orient="records")})
        return 0
    why = ("no nearby margin gains with its whole interval" if settled else
           f"the search ran out of rounds while still moving: run again from here with --set policy.margin={best:g}")
    print(f"margin {best:+.2f}: {why}; to use it, write in the rules file:\n[policy]\nmargin = {best:g}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from analyses.report import MAIN_SYSTEMS, write_report
    from analyses.section import Sizes

    variants = args.variants or list(MAIN_SYSTEMS)
    for vid in variants:
        load_variant(vid)  # bad ids fail here, in one line, before any work
    _threads(args.threads)

    def say(line: str) -> None:  # progress, on stderr so that --json stays one object on stdout
        print(line, file=sys.stderr, flush=True)

    if args.strong_play:
        if args.hands is not None:
            raise UsageError("pinochle report: --hands sizes the default report; with --strong-play give --deals")
        files, sizes = _strong_play(args, variants, say)
    else:
        given = [name for name, value in (("--deals", args.deals), ("--limit", args.limit)) if value is not None]
        if given:
            raise UsageError(f"pinochle report: {', '.join(given)}: only with --strong-play")
        hands = 200_000 if args.hands is None else args.hands
        sizes = Sizes(dealt=20 * hands, played=hands, games=max(1, hands // 10))
        files = write_report(args.out, variants, sizes, args.seed, say=say)
    if args.json:
        _print_json({"out": str(args.out), "variants": variants, "seed": args.seed,
                     "sizes": {k: getattr(sizes, k) for k in sizes.__dataclass_fields__},
                     "index": str(files[0]),
                     "files": [{"path": str(f), "kind": Path(f).suffix.lstrip("."), "bytes": Path(f).stat().st_size}
                               for f in files]})
        return 0
    print(f"wrote {len(files)} files; open {files[0]}")
    return 0


def _strong_play(args: argparse.Namespace, variants: list[str], say):
    """``report --strong-play``: the strong-play page (``analyses.strong_report``) and its sizes."""
    from dataclasses import replace

    from analyses.section import StrongSizes
    from analyses.strong_report import write_strong_play

    sizes = StrongSizes.for_deals(args.deals or StrongSizes().deals)
    if args.limit is not None:
        sizes = replace(sizes, limit=args.limit)
    return write_strong_play(args.out, variants, sizes, args.seed, args.workers, say=say), sizes


def cmd_bench(args: argparse.Namespace) -> None:
    from simcore.answers.bench import (
        BENCH_VARIANTS,
        GAME_BENCH_VARIANTS,
        GIVEN_CARDS,
        HAND_BENCH_VARIANTS,
        bench,
        bench_games,
        bench_hands,
    )

    _threads(args.threads)
    if args.execution:
        return _bench_execution(args)
    if args.solver:
        return _bench_solver(args)
    if args.state:
        return _bench_state(args)
    results = [bench(v, args.hands) for v in BENCH_VARIANTS]
    full = [bench_hands(v, args.full_hands) for v in HAND_BENCH_VARIANTS]
    games = [bench_games(v, args.games) for v in GAME_BENCH_VARIANTS]
    if args.json:
        _print_json([r.to_json() for r in results + full + games])
        return
    for r in results:
        print(f"{r.variant} ({r.cards} cards): deal + meld under every trump, {r.threads} "
              f"thread{'s' if r.threads != 1 else ''}: "
              f"best {r.hands_per_s / 1e6:.1f} M hands/s, median {r.median_hands_per_s / 1e6:.1f} M "
              f"(3 runs of {r.hands:,}); pure-Python reference {r.reference_hands_per_s:,.0f} hands/s, "
              f"kernel ×{r.hands_per_s / r.reference_hands_per_s:,.0f}")
        print(f"{r.variant}: the same with my hand's {GIVEN_CARDS} given (odds --hold): best "
              f"{r.given_hands_per_s / 1e6:.1f} M hands/s, {r.given_hands_per_s / r.hands_per_s:.2f} of the "
              f"plain deal, alternating runs")
    for r in full:
        print(f"{r.variant}: full hands with heuristic play, {r.threads} thread{'s' if r.threads != 1 else ''}: "
              f"best {r.hands_per_s / 1e3:.0f} k hands/s, median {r.median_hands_per_s / 1e3:.0f} k "
              f"(3 runs of {r.hands:,})")
    for r in games:
        print(f"{r.variant}: whole games with heuristic play, {r.threads} thread{'s' if r.threads != 1 else ''}: "
              f"best {r.hands_per_s:,.0f} games/s, median {r.median_hands_per_s:,.0f} "
              f"(3 runs of {r.hands:,}; {r.hands_per_game:.1f} hands a game)")


def _bench_solver(args: argparse.Namespace) -> None:
    from simcore.answers.bench import SOLVER_BENCH, bench_solver

    results = []
    for vid, played in SOLVER_BENCH:
        r = bench_solver(vid, args.solver, played, args.solver_limit)
        results.append(r)
        if not args.json:
            what = f"the last {r.tricks} tricks" if played else f"all {r.tricks} tricks"
            gave = f"; {r.gave_up} gave up after {r.limit:,} trick starts" if r.gave_up else ""
            print(f"{vid} ({r.deck_cards} cards), double dummy, exact value, {what}, 1 thread: median "
                  f"{r.percentile(50) * 1e3:,.0f} ms, 99th percentile {r.percentile(99) * 1e3:,.0f} ms, "
                  f"max {max(r.seconds) * 1e3:,.0f} ms ({len(r.seconds)} seeded deals{gave})", flush=True)
    if args.json:
        _print_json([r.to_json() for r in results])


def _bench_state(args: argparse.Namespace) -> None:
    from simcore.answers.bench import STATE_BENCH, bench_state

    results = [bench_state(vid, args.state) for vid in STATE_BENCH]
    if args.json:
        _print_json([r.to_json() for r in results])
        return
    for r in results:
        print(f"{r.variant}: hands through the Python game state, bridged heuristic at every seat, 1 thread: "
              f"{r.seconds / r.hands * 1e3:.1f} ms a hand, {r.seconds / r.decisions * 1e6:.0f} µs a decision "
              f"({r.hands:,} hands)")


def _bench_execution(args: argparse.Namespace) -> None:
    from simcore.answers.bench import EXECUTION_MODES, bench_execution

    results = bench_execution(odds_hands=args.hands, full_hands=args.full_hands)
    if args.json:
        _print_json([r.to_json() for r in results])
        return
    for r in results:
        print(f"{r.workload}, {r.hands:,} hands, best of {len(r.seconds['threads'])} (runs interleaved):")
        for mode in EXECUTION_MODES:
            print(f"  {mode:<32} {r.rate(mode):>14,.0f} hands/s   x{r.ratio(mode):.2f}")


def _stored(args: argparse.Namespace):
    from simcore.run.store import Store

    path = _store_path(args)
    if path is None:
        raise UsageError(f"pinochle {args.command}: the results store is off (PINOCHLE_STORE=off); "
                         "give --store PATH")
    if not path.is_file():
        raise UsageError(f"pinochle {args.command}: --store {path}: no such store (runs are kept there by "
                         "odds, simulate, bid-odds, games and compare)")
    return Store(path)


_RUN_UNITS = {"odds": "deals", "games": "games"}


def cmd_runs(args: argparse.Namespace) -> int:
    store = _stored(args)
    runs = store.runs()
    if args.json:
        print(runs.assign(written=runs["written"].astype(str)).to_json(orient="records", indent=2))
        return 0
    print(f"{store.path}: {len(runs)} run{'s' if len(runs) != 1 else ''}")
    for r in runs.itertuples():
        params = json.loads(r.params)
        what = ", ".join(f"{k} {v}" for k, v in params.items() if k in ("policies", "first_game"))
        print(f"  {r.run[:12]}  {r.kernel:<12} {r.variant:<26} seed {r.seed:<6} {r.chunks:>6,} chunks "
              f"{r.deals:>14,} {_RUN_UNITS.get(r.kernel, 'hands'):<6} {r.bytes / 1e6:8.2f} MB"
              f"  {'' if r.current_code else '(older code: not reused) '}{what}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from simcore.run.store import export_frame

    if not args.out.endswith((".parquet", ".csv")):
        raise UsageError(f"pinochle export: --out {args.out!r}: give a file name ending in .parquet or .csv")
    store = _stored(args)
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
        _print_json({"out": args.out, "format": Path(args.out).suffix.lstrip("."), "rows": len(frame),
                     "columns": [str(c) for c in frame.columns], "runs": runs, "run_prefix": args.run,
                     "seed": args.seed, "store": str(store.path),
                     "chunks": bool(args.chunks), "bytes": Path(args.out).stat().st_size})
        return 0
    print(f"wrote {len(frame):,} rows to {args.out}")
    return 0


COMMANDS = {"variants": cmd_variants, "meld": cmd_meld, "odds": cmd_odds, "simulate": cmd_simulate,
            "bid-odds": cmd_bid_odds, "advise": cmd_advise, "playthrough": cmd_playthrough, "games": cmd_games,
            "duel": cmd_duel, "compare": cmd_compare, "solve": cmd_solve, "endgame": cmd_endgame,
            "dd-odds": cmd_dd_odds, "report": cmd_report, "tune": cmd_tune, "runs": cmd_runs, "export": cmd_export,
            "bench": cmd_bench}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        from simcore.run.runner import executing

        with executing(_execution(args)):
            status = COMMANDS[args.command](args) if args.command in COMMANDS else args.func(args)
    except KeyboardInterrupt:
        print("pinochle: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if not isinstance(exc, _user_errors()):
            raise
        print(f"pinochle: {exc}" if not str(exc).startswith("pinochle") else str(exc), file=sys.stderr)
        return EXIT_USAGE
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
