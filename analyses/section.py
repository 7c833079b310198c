"""What every analysis hands to the report: a titled section of prose, tables and figures.

Each analysis module keeps its computing (functions returning DataFrames with interval columns) apart
from its plotting (functions returning matplotlib figures); its ``section(variant, sizes, seed)`` puts
the two together with a paragraph generated from the numbers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import pandas as pd
from matplotlib.figure import Figure

from simcore.state.sampler import EVERY_TRICK, playouts_text, reads_auction


class TooFewHands(ValueError):
    """A size too small for an analysis to answer (one line: the system and what to do)."""


@dataclass(frozen=True)
class Sizes:
    """How much simulation an analysis may spend: hands dealt (deal and meld only), hands played in
    full, and whole games."""

    dealt: int = 4_000_000
    played: int = 200_000
    games: int = 20_000

    @classmethod
    def small(cls) -> Sizes:
        """A size at which every analysis runs in seconds (tests, notebooks run by the tests)."""
        return cls(dealt=40_000, played=4_000, games=400)

    @classmethod
    def for_notebooks(cls) -> Sizes:
        """``PINOCHLE_NOTEBOOK_SIZE=small`` (set by the tests) or the full default."""
        return cls.small() if os.environ.get("PINOCHLE_NOTEBOOK_SIZE") == "small" else cls()


@dataclass(frozen=True)
class StrongSizes:
    """How much solving the strong-play page (``pinochle report --strong-play``) may spend.

    ``deals``: deals played four times each by the heuristic and the sampling player (the duel and the bidding
    card, :mod:`analyses.strong_deals`); ``games``: whole games played twice each, the sampling player in each
    partnership in turn (:mod:`analyses.strong_games`); ``dd_hands``: seeded hands whose contracts are solved
    double dummy; ``endgame_hands``: seeded hands whose last ``tricks_left`` tricks are replayed against the
    solver; ``limit``: trick starts a make-or-not solve of the first pass may search before it gives up, each
    later pass (the give-ups only) ten times more, until the give-ups' band is at most a third of the rate's
    95% half-width or ``dd_budget`` trick starts are spent (:mod:`simcore.solver.escalation`); ``samples`` and
    ``solve_from``: the sampling player's deals a decision and the tricks from the end where it solves them,
    ``rollout_from``: the tricks from the end from which it weighs its cards by playouts until then (by default
    from the first card; 0: none); ``read_auction``: whether its deals fit the bids (None: as the system's
    sampling player does by default);
    ``fit_min_hands``: the fewest hands a meld bin needs to enter the bidding rule's fit; ``boot``: bootstrap
    resamples for the rule's intervals."""

    deals: int = 300
    games: int = 300
    dd_hands: int = 300
    endgame_hands: int = 900
    limit: int = 20_000
    dd_budget: int = 1_000_000_000
    samples: int = 20
    solve_from: int = 6
    rollout_from: int = EVERY_TRICK
    read_auction: bool | None = None
    tricks_left: int = 6
    fit_min_hands: int = 20
    boot: int = 200

    @property
    def card_play(self) -> str:
        """The sampling player's own card play, in words: "card play" where it weighs every card, else
        "card play in the last N tricks" (or in the tricks it plays out and solves)."""
        if self.rollout_from >= EVERY_TRICK:
            return "card play"
        return f"card play in the last {max(self.solve_from, self.rollout_from)} tricks"

    def bids_read(self, variants) -> str:
        """How the sampling player's deals fit the bids in ``variants``, in words to follow "fit the play so
        far" ("" where they fit none)."""
        reading = [v.id for v in variants if reads_auction(v, self.read_auction)]
        if not reading:
            return ""
        read = "each read as the heuristic would have bid"
        if len(reading) == len(variants):
            return f" and the bids, {read}"
        return f" (and in {', '.join(reading)} the bids too, {read})"

    def before_solved(self) -> str:
        """What the sampling player does before the tricks it solves, in words."""
        weighs = "it weighs each card on the same kind of deals by playing them out as the heuristic would"
        playouts = playouts_text(self.rollout_from, self.solve_from)
        if self.rollout_from >= EVERY_TRICK:
            return f"before those tricks {weighs}"
        if playouts:
            return f"{playouts} until then {weighs}; before those tricks"
        return "before those tricks"

    @classmethod
    def for_deals(cls, deals: int) -> StrongSizes:
        """``deals`` deals for the duel and the bidding card, as many hands solved double dummy, three
        times as many endings replayed (they are cheap), and meld bins of a fifteenth of the deals (2 to
        50 hands) in the rule's fit."""
        return cls(
            deals=deals,
            games=deals,
            dd_hands=deals,
            endgame_hands=3 * deals,
            fit_min_hands=max(2, min(50, deals // 15)),
        )

    @classmethod
    def tiny(cls) -> StrongSizes:
        """A handful of deals with low limits: seconds once compiled (tests)."""
        return cls(
            deals=6,
            games=2,
            dd_hands=6,
            endgame_hands=6,
            limit=20_000,
            dd_budget=2_000_000,
            samples=2,
            solve_from=2,
            tricks_left=2,
            fit_min_hands=2,
            boot=20,
        )


@dataclass
class Section:
    """A report section: ``text`` is Markdown; tables become CSV files (raw values, for machines) and
    figures PNG files named by their keys; ``display`` holds, per table key, the table as a person
    reads it (Markdown, from :mod:`analyses.fmt`), shown on the page above the link to the CSV;
    ``captions`` holds, per figure key, what the figure shows in words (its alternative text and the
    line under it), where the section's title would not say it."""

    title: str
    text: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Figure] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)
    captions: dict[str, str] = field(default_factory=dict)
