"""``pinochle report --strong-play``: how far the heuristic is from strong play, one
page (``strong-play.md``) with its CSV tables and PNG charts.

Five measurements per system, each a section (:mod:`analyses.strong_duel`, :mod:`analyses.strong_games`,
:mod:`analyses.dd_make_rate`, :mod:`analyses.worst_decisions`, :mod:`analyses.strong_play`). Every solve
and play is a job of a few seeded deals (:mod:`analyses.workers`), all systems' jobs in one pool, so two
processes stay busy to the end; the numbers do not depend on the number of processes. Not part of the
default ``pinochle report``: at the full size it solves for minutes.

The page is the same for the same seed and sizes, but for the one line that says how long the run took
and on how many processes.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from analyses import dd_make_rate, strong_deals, strong_duel, strong_games, strong_play, worst_decisions
from analyses.report import MAIN_SYSTEMS, write_section
from analyses.section import Section, StrongSizes
from analyses.strong_lines import DATA
from analyses.workers import run_jobs
from simcore.answers.dd_make import MakeOdds, check_variant
from simcore.answers.endgame import EndgameLoss
from simcore.state.sampler import SamplingPlayer
from simcore.variants import Variant, load_variant

PAGE = "strong-play.md"
#: The line of the page that differs between runs of the same seed and sizes.
RUN_LINE = "**This run:**"


@dataclass(frozen=True)
class StrongResults:
    """Per system (in ``variants`` order): its deals played four times, its contracts solved, its
    endings replayed, its whole games played twice."""

    variants: tuple[Variant, ...]
    plays: tuple[strong_deals.StrongDeals, ...]
    odds: tuple[MakeOdds, ...]
    endings: tuple[EndgameLoss, ...]
    games: tuple[strong_games.StrongGames, ...]


def sampling_player(sizes: StrongSizes) -> SamplingPlayer:
    return SamplingPlayer(
        samples=sizes.samples,
        solve_from=sizes.solve_from,
        rollout_from=sizes.rollout_from,
        read_auction=sizes.read_auction,
    )


def compute(
    variants: Sequence[Variant],
    sizes: StrongSizes,
    seed: int,
    workers: int = 1,
    say: Callable[[str], None] = lambda _: None,
    keep: Path | None = None,
) -> StrongResults:
    """Every system's plays, solves and endings, as one list of jobs over ``workers`` processes (with
    ``keep``, a folder: each finished job kept there, and read back instead of run again)."""
    for v in variants:
        check_variant(v)  # one line for a system the make odds cannot state, before any work
    player = sampling_player(sizes)
    parts = []  # (system, kind, first job, jobs)
    jobs = []
    for v in variants:
        for kind, more in (
            ("plays", strong_deals.jobs(v, sizes.deals, seed, player)),
            ("odds", dd_make_rate.jobs(v, sizes.dd_hands, seed, sizes.limit)),
            ("endings", worst_decisions.jobs(v, sizes.endgame_hands, seed, sizes.tricks_left)),
            ("games", strong_games.jobs(v, sizes.games, seed, player)),
        ):
            parts.append((v, kind, len(jobs), len(more)))
            jobs += more
    results = run_jobs(jobs, workers, say, keep=keep)
    got: dict[str, list] = {"plays": [], "odds": [], "endings": [], "games": []}
    for v, kind, first, n in parts:
        mine = results[first : first + n]
        if kind == "plays":
            got[kind].append(strong_deals.gather(v, seed, player, mine))
        elif kind == "games":
            got[kind].append(strong_games.gather(v, seed, mine))
        elif kind == "odds":
            odds = dd_make_rate.gather(v, sizes.dd_hands, seed, sizes.limit, mine)
            # the give-ups are solved again over every job's hands at once: the stopping rule is the
            # system's whole rate, not a job's
            got[kind].append(odds.escalated(sizes.dd_budget, threads=workers))
        else:
            got[kind].append(worst_decisions.gather(v, sizes.endgame_hands, seed, sizes.tricks_left, mine))
    return StrongResults(tuple(variants), *(tuple(got[k]) for k in ("plays", "odds", "endings", "games")))


def partial_dir(variants: Sequence[Variant], sizes: StrongSizes, seed: int) -> Path:
    """Where a run keeps its finished jobs until its page is written: named for everything the page's
    figures depend on but the code (the systems' rules, the sizes, the seed)."""
    run = repr((seed, sizes, [(v.id, v.content_hash) for v in variants])).encode()
    return DATA / ".partial" / f"strong-play-{hashlib.blake2b(run, digest_size=8).hexdigest()}"


def sections(results: StrongResults, sizes: StrongSizes, seed: int) -> list[Section]:
    """The page's sections in reading order: card play, whole games, make odds, worst decisions,
    bidding card."""
    return [
        strong_duel.section(results.plays, sizes, seed),
        strong_games.section(results.games, sizes, seed),
        dd_make_rate.section(results.odds, sizes, seed),
        worst_decisions.section(results.endings, sizes, seed),
        strong_play.section(results.plays, sizes, seed),
    ]


def command(sizes: StrongSizes, seed: int, variants: Sequence[str]) -> str:
    """The command line that writes this page (sizes other than ``--deals`` are not options)."""
    extra = "" if list(variants) == list(MAIN_SYSTEMS) else "".join(f" --variant {v}" for v in variants)
    limit = "" if sizes.limit == StrongSizes().limit else f" --limit {sizes.limit}"
    return f"pinochle report --strong-play --deals {sizes.deals} --seed {seed}{limit}{extra}"


def measured_note(sizes: StrongSizes, seed: int, variants: Sequence[str]) -> list[str]:
    """The "How this was measured" note that ends the page, in a card player's words."""
    return [
        "## How this was measured",
        "",
        f"Every deal comes from seed {seed}, so `{command(sizes, seed, variants)}` gives the same numbers "
        "again, however many processes it runs on. The heuristic and the sampling player play the same deals, "
        "so the luck of the deal cancels out of their difference (each difference is paired by deal). "
        "Perfect play is found by trying every way the remaining cards can be played with all hands face up: "
        "it is a yardstick, not a player, since it sees cards no player sees. Brackets give 95% intervals: "
        "the range that holds the true value in 19 runs out of 20.",
        "",
    ]


def players(results: StrongResults, sizes: StrongSizes) -> str:
    """Who played (DESIGN principle 9)."""
    margins = ", ".join(f"{v.id} " + f"{v.get('policy.margin'):+.2f}".replace("-", "−") for v in results.variants)
    return (
        f"**Who played.** *The heuristic*: the simulated players of the other pages at every seat, a fixed "
        f"strategy (written rules, and in the last tricks a card play fitted to perfect play) bidding as "
        f"boldly as pays best in each system (docs/policies.md; the boldness, `policy.margin`: {margins}). "
        f"*The sampling player* (`simcore/state/sampler.py`), whose {sizes.card_play} is stronger: at each "
        f"card of the last {sizes.solve_from} tricks it deals the cards it cannot see {sizes.samples} ways "
        f"that fit the play so far{sizes.bids_read(results.variants)}, works out every legal card's result "
        f"on each of those deals with all hands face up, and plays the card best on average; "
        f"{sizes.before_solved()}, and for every "
        f'bid, pass and meld, it plays as the heuristic. *Perfect play* ("double dummy", as '
        f"bridge players say): the result with every hand face up and both sides playing perfectly, found "
        f"by an exhaustive search that gives up after {sizes.limit:,} positions (a position: the cards "
        f"left at the start of a trick), then on the hands it gave up on again with ten times as many, "
        f"and so on, until the hands still unsolved matter too little beside the sampling error or "
        f"{sizes.dd_budget:,} positions are spent in all."
    )


def write_strong_play(
    out: str | Path,
    variants: Sequence[str] = MAIN_SYSTEMS,
    sizes: StrongSizes = StrongSizes(),
    seed: int = 1,
    workers: int = 1,
    say: Callable[[str], None] = lambda _: None,
) -> list[Path]:
    """Write ``strong-play.md`` with its CSV and PNG files into ``out``; return them, the page first."""
    start = time.perf_counter()
    systems = [load_variant(v) for v in variants]
    keep = partial_dir(systems, sizes, seed)  # kept until the page is written, so a stopped run resumes
    results = compute(systems, sizes, seed, workers, say, keep)
    files = write_page(out, results, sizes, seed, variants, workers, time.perf_counter() - start)
    shutil.rmtree(keep, ignore_errors=True)
    say(f"strong play: {len(files)} files in {time.perf_counter() - start:.0f} s")
    return files


def write_page(
    out: str | Path,
    results: StrongResults,
    sizes: StrongSizes,
    seed: int,
    variants: Sequence[str],
    workers: int,
    seconds: float,
) -> list[Path]:
    """The page and its files from computed ``results`` (``seconds``: how long computing took)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    body: list[str] = []
    for s in sections(results, sizes, seed):
        body += write_section(s, "strong-play", out, written)
    ids = ", ".join(f"`{v.id}`" for v in results.variants)
    lines = [
        "# How far the heuristic is from strong play",
        "",
        f"Generated by `{command(sizes, seed, variants)}` for {ids}. Five measurements of how far the "
        "heuristic players of the other pages are from strong play: its card play against the sampling "
        "player's, in points a deal and in whole games won, its contracts against perfect play, its worst "
        "decisions in the endings, and the bidding card refitted under the sampling player's play. Back to "
        "[the answers](index.md); the method "
        "and the earlier hand-run figures: [docs/policies.md](../docs/policies.md).",
        "",
        players(results, sizes),
        "",
        f"**How much.** Per system: deals 0–{sizes.deals - 1} of seed {seed} for the card-play match and the "
        f"bidding card, each played four times (the heuristic everywhere, the sampling player in each "
        f"partnership in turn, the sampling player everywhere); games 0–{sizes.games - 1} of seed {seed}, "
        "each played to its end twice (the sampling player in each partnership in turn); the first hands of seeds "
        f"{seed}–{seed + sizes.dd_hands - 1} solved for the make odds; the last {sizes.tricks_left} tricks of "
        f"the first hands of seeds {seed}–{seed + sizes.endgame_hands - 1} replayed for the worst decisions. "
        f"The sampling player took {sum(p.solved for p in results.plays):,} card decisions in its tricks "
        "(each position once, however many plays met it).",
        "",
        f"{RUN_LINE} {seconds / 60:.1f} minutes with {workers} worker process{'es' if workers > 1 else ''} "
        "(the numbers do not depend on how many).",
        "",
    ]
    page = out / PAGE
    page.write_text("\n".join(lines + body + measured_note(sizes, seed, variants)))
    return [page] + written
