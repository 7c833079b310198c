"""``pinochle games``: whole games to the end, summarised per partnership or per player.

Team 0 is the first dealer's left (seats 0, 2, ...: it bids first in the first hand), team 1 the
first dealer's side; where the bidder plays alone each seat keeps its own score (seat 0 the first
dealer's left, the last seat the first dealer). Games are cut into chunks of ``CHUNK_GAMES``; game g of
a run always plays the same hands whatever the thread count or chunking (:func:`simcore.kernels.rng.hand_state`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from simcore.kernels import game as g
from simcore.kernels.compiled import kernel_rules
from simcore.kernels.hand_drivers import seat_margins, seat_policies
from simcore.kernels.policies import POLICY_NAMES
from simcore.kernels.rng import stream_key
from simcore.run.runner import Job, rows_of, run_job
from simcore.run.stats import Interval, values_interval, wilson
from simcore.run.store import RunInfo
from simcore.variants import NotForThisSystem, Variant, require_full_hands
from simcore.variants.record import KernelRules

#: Games per chunk (part of the definition of a seeded run only through the chunk indices shown in
#: progress: each game's hands depend on the game number alone).
CHUNK_GAMES = 512


class GameRulesError(NotForThisSystem):
    """A variant whose games cannot be played here (no [game] rules, or no two partnerships)."""


def check_game_variant(variant: Variant) -> None:
    """Refuse variants whose games this engine cannot play yet, with a one-line reason."""
    if not variant.has_game_rules:
        raise GameRulesError(
            f"{variant.where}: {variant.id} has no [game] rules (game.target ...), so its games cannot be played"
        )
    require_full_hands(variant)


def lone_double_pinochle(records: np.ndarray) -> np.ndarray:
    """bool per game record: exactly one score line melded a double pinochle (or more) in the game."""
    dp = records[:, g.GF_DOUBLE_PINOCHLE]
    return (dp > 0) & (dp & (dp - 1) == 0)


def won_by_lone_double_pinochle(records: np.ndarray) -> np.ndarray:
    """bool per game record: won by the one score line that melded a double pinochle when no other
    line did — how often the meld decides a game."""
    winner = records[:, g.GF_WINNER]
    return (
        lone_double_pinochle(records)
        & (winner >= 0)
        & ((records[:, g.GF_DOUBLE_PINOCHLE] >> np.maximum(winner, 0)) & 1 == 1)
    )


def game_rows(
    key: np.ndarray,
    first_game: int,
    rules: KernelRules,
    policies: np.ndarray,
    margins: np.ndarray,
    states: np.ndarray,
    sizes: np.ndarray,
    chunks: np.ndarray,
) -> np.ndarray:
    """int64[sum(sizes), N_GAME_FIELDS]: games ``first_game + chunk * CHUNK_GAMES ..`` of each chunk, dealt
    from ``key`` (the run's seed) alone, under a variant's ``kernel_rules`` with the seats' ``policies``
    and ``margins``."""
    return rows_of(
        lambda st, sz, ck, offsets, out: g.games_batch(
            key,
            first_game + ck * CHUNK_GAMES,
            sz,
            offsets,
            rules.tables,
            rules.hand,
            rules.game,
            policies,
            margins,
            out,
        ),
        g.N_GAME_FIELDS,
        states,
        sizes,
        chunks,
    )


def game_records(
    variant: Variant,
    games: int,
    seed: int,
    policies: Sequence[int] | np.ndarray,
    margins: np.ndarray | None = None,
    progress: bool = False,
    first_game: int = 0,
) -> tuple[np.ndarray, float]:
    """(int64[games played, N_GAME_FIELDS], seconds): games ``first_game ..`` of the run keyed by
    ``seed``, in order. On Ctrl-C the finished chunks are returned (fewer rows than asked)."""
    check_game_variant(variant)
    policies, margins = seat_policies(policies), seat_margins(variant, margins)
    task = partial(game_rows, stream_key(seed), first_game, kernel_rules(variant), policies, margins)
    run_info = RunInfo(
        "games",
        variant.id,
        variant.content_hash,
        {
            "policies": policies.tolist(),
            "margins": margins.tolist(),
            "first_game": first_game,
            "chunk_games": CHUNK_GAMES,
            "fields": list(g.GAME_FIELDS),
        },
        "rows",
    )
    run = run_job(Job(task, "rows", run_info, CHUNK_GAMES, "games"), seed, games, progress)
    records = run.tally
    return records, run.seconds


@dataclass(frozen=True)
class GamesResult:
    """Records of whole games (rows laid out as :data:`simcore.kernels.game.GAME_FIELDS`)."""

    variant: Variant
    seed: int
    policies: tuple[str, ...]
    requested: int
    seconds: float
    records: np.ndarray

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def interrupted(self) -> bool:
        return self.games < self.requested

    def column(self, name: str) -> np.ndarray:
        return self.records[:, g.GAME_FIELDS.index(name)]

    @property
    def lines(self) -> tuple[str, ...]:
        """The names of the score lines: the two partnerships, or one per seat."""
        if self.variant.get("teams.kind") != "partners_across":
            last = self.variant.players - 1
            return tuple(
                f"seat {i}" + (" (first dealer's left)" if i == 0 else " (first dealer)" if i == last else "")
                for i in range(last + 1)
            )
        return ("team 0 (first dealer's left)", "team 1 (first dealer's side)")

    def rates(self) -> dict[str, Interval]:
        """Per game: each score line's wins, games the bidder-wins-ties rule decided, games where a double
        pinochle was melded and, of those where only one line melded one, how often that line won (the
        game-decider question), games a player ended by declaring himself out (where the rules allow
        it), and unfinished games."""
        n, winner = self.games, self.column("winner")
        out = {f"{name} wins": wilson(int((winner == i).sum()), n) for i, name in enumerate(self.lines)}
        out["decided by the bidder-wins-ties rule"] = wilson(int(self.column("tie_rule").sum()), n)
        dp = self.column("double_pinochle")
        out["a double pinochle melded"] = wilson(int((dp > 0).sum()), n)
        out["lone double pinochle side wins"] = wilson(
            int(won_by_lone_double_pinochle(self.records).sum()), int(lone_double_pinochle(self.records).sum())
        )
        if self.variant.get("game.declare_out"):
            declared = self.column("declared")
            out["ended by a player declaring out"] = wilson(int((declared > 0).sum()), n)
            out["... who was short of the target and lost"] = wilson(int((declared == 2).sum()), n)
        out["unfinished"] = wilson(int((winner < 0).sum()), n)
        return out

    def means(self) -> dict[str, Interval]:
        """Per game: its length in hands, contracts, sets, redeals and each line's final score; where the
        rules pay checks, the checks each team earned and what each team 0 player wins net (his side's
        less the other's: each player collects his side's awards from one opponent)."""
        out = {}
        for name in (
            "hands",
            "contracts",
            "sets",
            "redeals",
            "target",
            *(f"score_{i}" for i in range(len(self.lines))),
        ):
            out[name] = values_interval(self.column(name))
        if self.variant.has_checks:
            out["team 0 checks"] = values_interval(self.column("checks_0"))
            out["team 1 checks"] = values_interval(self.column("checks_1"))
            out["team 0 player net checks"] = values_interval(self.column("checks_0") - self.column("checks_1"))
        return out

    def length_distribution(self) -> pd.DataFrame:
        """Games by length in hands, with their share."""
        hands = self.column("hands")
        counts = np.bincount(hands) if len(hands) else np.zeros(0, dtype=np.int64)
        rows = [{"hands": int(k), "games": int(c), "share": c / len(hands)} for k, c in enumerate(counts) if c]
        return pd.DataFrame(rows, columns=["hands", "games", "share"])

    def quantiles(self) -> dict[str, float]:
        hands = self.column("hands")
        if not len(hands):
            return {}
        return {f"q{int(q * 100)}": float(np.quantile(hands, q)) for q in (0.1, 0.25, 0.5, 0.75, 0.9)}

    def to_json(self) -> dict:
        def iv(x: Interval) -> dict:
            return {"estimate": None if math.isnan(x.estimate) else x.estimate, "ci95": [x.lo, x.hi]}

        return {
            "variant": self.variant.id,
            "games": self.games,
            "seed": self.seed,
            "policies": list(self.policies),
            "complete": not self.interrupted,
            "rates": {k: iv(v) for k, v in self.rates().items()},
            "means": {k: iv(v) for k, v in self.means().items()},
            "length_quantiles": self.quantiles(),
            "length_distribution": self.length_distribution().to_dict(orient="records"),
        }


def play_games(
    variant: Variant,
    games: int,
    seed: int,
    policies: Sequence[int] | np.ndarray,
    progress: bool = False,
    margins: np.ndarray | None = None,
) -> GamesResult:
    """Play ``games`` whole games and keep one record per game."""
    records, seconds = game_records(variant, games, seed, policies, margins, progress)
    names = tuple(POLICY_NAMES[p] for p in np.asarray(policies))
    return GamesResult(variant, seed, names, games, seconds, records)
