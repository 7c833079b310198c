"""Whole games against strong play (a strong-play page measurement): the sampling player's card play in
one partnership, the heuristic in the other, played to the end of the game, then the partnerships
swapped, as ``pinochle duel --policy sampling --games N`` plays it.

Game g is :func:`simcore.state.game.play_game`'s (the deals of ``pinochle games --seed``); each play of
it is settled by the rules' own end of game. The rate of games won by the sampling player's partnership
has a Wilson 95% interval widened for the two plays of one game going together
(:func:`simcore.strong.duel.games_summary`); a player as strong as the heuristic wins half.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from analyses import fmt
from analyses.section import Section, StrongSizes
from analyses.strong_duel import sampler_flags
from analyses.workers import Job, chunks
from simcore.state.sampler import SamplingPlayer
from simcore.strong.duel import game_wins, games_summary
from simcore.variants import Variant

#: Columns of :func:`games_table`.
COLUMNS = ("variant", "games", "hands_a_game", "won", "won_lo", "won_hi", "even_share", "seat_sets")


def play_games(variant: Variant, seed: int, games: Sequence[int], player: SamplingPlayer) -> list[tuple[int, int]]:
    """:func:`simcore.strong.duel.game_wins` for each of ``games`` (one worker job)."""
    return [game_wins(variant, player, seed, g, "sampling") for g in games]


@dataclass(frozen=True)
class StrongGames:
    """Games 0 .. ``len(wins)`` - 1 of ``seed``: the plays of each the sampling player's partnership won,
    and the hands they took."""

    variant: Variant
    seed: int
    wins: tuple[int, ...]
    hands: tuple[int, ...]

    def summary(self) -> dict:
        return games_summary(self.variant, "sampling", self.seed, list(self.wins), list(self.hands))


def jobs(variant: Variant, games: int, seed: int, player: SamplingPlayer, chunk: int = 2) -> list[Job]:
    """The games 0 .. ``games`` - 1 as worker jobs, a couple of games a job."""
    return [(play_games, (variant, seed, r, player)) for r in chunks(0, games, chunk)]


def gather(variant: Variant, seed: int, results: list[list[tuple[int, int]]]) -> StrongGames:
    """The :class:`StrongGames` from the results of :func:`jobs`, in job order."""
    played = [p for part in results for p in part]
    return StrongGames(variant, seed, tuple(w for w, _ in played), tuple(n for _, n in played))


def games_table(games: Sequence[StrongGames]) -> pd.DataFrame:
    """One row per system: games played (each twice), the mean hands a game, the share of games the
    sampling player's partnership won with its 95% interval, and the share a player as strong as the
    heuristic wins."""
    rows = []
    for g in games:
        got = g.summary()
        won = got["games_won"]
        rows.append(
            {
                "variant": g.variant.id,
                "games": got["games"],
                "hands_a_game": got["hands_a_game"],
                "won": won["mean"],
                "won_lo": won["low"],
                "won_hi": won["high"],
                "even_share": got["even_share"],
                "seat_sets": " and ".join("+".join(map(str, s)) for s in got["seat_sets"]),
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _verdict(r) -> str:
    if r.won_lo > r.even_share:
        return "the sampling player wins more"
    if r.won_hi < r.even_share:
        return "the sampling player wins fewer"
    return f"the interval holds {fmt.pct(r.even_share)}: no difference shown at this size"


def section(games: Sequence[StrongGames], sizes: StrongSizes, seed: int) -> Section:
    """ "Whole games: the sampling player against the heuristic"."""
    table = games_table(games)
    lines = [
        f"* **{r.variant}**: {fmt.pct(r.won, r.won_lo, r.won_hi)} of games won; {_verdict(r)}."
        for r in table.itertuples()
    ]
    rows = [
        {
            "system": r.variant,
            "games": f"{r.games:,}",
            "hands a game": f"{r.hands_a_game:.1f}",
            "seats taking turns": r.seat_sets,
            "games won by the sampling player": fmt.pct(r.won, r.won_lo, r.won_hi),
            "as strong as the heuristic": fmt.pct(r.even_share),
        }
        for r in table.itertuples()
    ]
    text = (
        f"Games 0–{sizes.games - 1} of seed {seed} (the deals `pinochle games --seed {seed}` plays), each "
        "played to the end of the game twice: with the sampling player in one partnership and the heuristic "
        "in the other, then the partnerships swapped. The sampling player plays as in the match above (its "
        f"{sizes.card_play}; the heuristic's bids), so this is what that card play is worth in "
        "games won. A player as strong as the heuristic wins half of them; 95% intervals over games:\n\n"
        + "\n".join(lines)
        + "\n\n"
        f"The same as `pinochle duel --policy sampling --variant V --games {sizes.games} --seed {seed}"
        f"{sampler_flags(sizes)}` prints."
    )
    return Section(
        "Whole games: the sampling player against the heuristic",
        text,
        tables={"games": table},
        display={"games": fmt.markdown_table(rows)},
    )
