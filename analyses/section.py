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


@dataclass
class Section:
    """A report section: ``text`` is Markdown; tables become CSV files (raw values, for machines) and
    figures PNG files named by their keys; ``display`` holds, per table key, the table as a person
    reads it (Markdown, from :mod:`analyses.fmt`), shown on the page above the link to the CSV."""

    title: str
    text: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Figure] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)
