"""The trump named from sampled deals against the heuristic's trump, every other decision the same.

A player (``heuristic``, ``sampling``: :class:`simcore.state.sampler.SamplingPlayer` with its defaults, or
``strong``: :func:`simcore.strong.bidder.strong_player` with the heuristic's trump, ``trump_deals=0``) is
set beside the same player naming trump from sampled deals (:class:`simcore.strong.bidder.AdviseTrump`
around it). Deals 0 .. DEALS - 1 of seed 1 are played as
``pinochle duel`` plays them: the player at one seat set (a partnership, or a seat alone), the heuristic
elsewhere, each set in turn. The two are the same player up to the trump: every player here decides from
its seed and what it has seen, so where both name the same trump they play the same hand card for card,
and their difference there is exactly 0. So a hand is played out only where the trumps differ, once
each way from the trump on. Per deal, the difference (sampled trump − the player's own) of what the
set's score lines gained, averaged over its seats and then over the sets; its mean over deals gets a
normal 95% interval. Points are on the variant's scale. Run as ``python -m analyses.trump_choice
VARIANT [DEALS] [--player heuristic|sampling|strong] [--deals-a-trump N] [--read-auction]
[--workers W]``; finished jobs are kept until the table is printed (``analyses/strong_records/.partial``),
so a stopped run resumes.
"""

from __future__ import annotations

import argparse
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyses.strong_lines import DATA
from analyses.workers import chunks, run_jobs
from simcore.run.stats import values_interval
from simcore.state import new_hand
from simcore.state.game import finish
from simcore.state.players import kernel_policy
from simcore.state.sampler import SamplingPlayer
from simcore.strong.bidder import AdviseTrump, strong_player
from simcore.strong.duel import seat_sets
from simcore.variants import Variant, load_variant

SEED = 1
PLAYERS = ("heuristic", "sampling", "strong")


def player_of(name: str):
    """The player called ``name`` (see the module)."""
    if name == "heuristic":
        return kernel_policy("heuristic")
    if name == "sampling":
        return SamplingPlayer()
    return strong_player(trump_deals=0)


@dataclass(frozen=True)
class TrumpPlays:
    """One job's deals: per deal the difference (see the module), the trump decisions the player's sets
    took, how many of them the sampled deals changed, and the job's CPU seconds."""

    gain: tuple[float, ...]
    named: int
    changed: int
    cpu: float


def play_deals(variant: Variant, deals: range, name: str, trump_deals: int, read_auction: bool) -> TrumpPlays:
    """Deals ``deals`` of :data:`SEED` (see the module)."""
    start = time.process_time()
    player = player_of(name)
    chooser = AdviseTrump(player, deals=trump_deals, read_auction=read_auction)
    heuristic = kernel_policy("heuristic")
    sets = seat_sets(variant)
    gain, named, changed = [], 0, 0
    for i in deals:
        per_set = []
        for g in sets:
            state = new_hand(variant, SEED, hand=i)
            while not state.is_terminal() and not (state.request().kind == "trump" and state.current_player() in g):
                state.apply((player if state.current_player() in g else heuristic)(state))
            if state.is_terminal():
                per_set.append(0.0)
                continue
            own, sampled = player(state), chooser(state)
            named += 1
            if own == sampled:
                per_set.append(0.0)
                continue
            changed += 1
            lines = []
            for first, policy in ((own, player), (sampled, chooser)):
                hand = state.clone()
                hand.apply(first)
                done = finish(hand, lambda seat, policy=policy, g=g: policy if seat in g else heuristic)
                lines.append(np.mean([done.returns()[s] for s in g]))
            per_set.append(float(lines[1] - lines[0]))
        gain.append(float(np.mean(per_set)))
    return TrumpPlays(tuple(gain), named, changed, time.process_time() - start)


def partial_dir(variant: Variant, deals: int, name: str, trump_deals: int, read_auction: bool) -> Path:
    """Where a run's finished jobs are kept until its line is printed."""
    auction = "-auction" if read_auction else ""
    return DATA / ".partial" / f"trump-{variant.id}-{variant.content_hash[:12]}-{deals}-{name}-t{trump_deals}{auction}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analyses.trump_choice", description=__doc__.split("\n\n")[0])
    p.add_argument("variant")
    p.add_argument("deals", nargs="?", type=int, default=2000)
    p.add_argument("--player", choices=PLAYERS, default="heuristic")
    p.add_argument("--deals-a-trump", type=int, default=1000)
    p.add_argument("--read-auction", action="store_true")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    v = load_variant(args.variant)
    keep = partial_dir(v, args.deals, args.player, args.deals_a_trump, args.read_auction)
    start = time.perf_counter()
    jobs = [
        (play_deals, (v, r, args.player, args.deals_a_trump, args.read_auction)) for r in chunks(0, args.deals, 100)
    ]
    parts = run_jobs(jobs, args.workers, keep=keep)
    gain = values_interval(np.array([x for part in parts for x in part.gain]))
    named, changed = sum(part.named for part in parts), sum(part.changed for part in parts)
    cpu = sum(part.cpu for part in parts)
    print(
        f"{v.id}, {args.player}, {args.deals:,} deals of seed {SEED}, {args.deals_a_trump} deals a trump"
        f"{', reading the bids' if args.read_auction else ''}: trump from sampled deals − the player's own "
        f"{gain.estimate:+.2f} [{gain.lo:+.2f}, {gain.hi:+.2f}] points a deal; {changed:,} of {named:,} "
        f"trump decisions changed; {cpu:.0f} CPU s, {time.perf_counter() - start:.0f} s"
    )
    shutil.rmtree(keep, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
