"""Card play against strong play (the strong-play page's first measurement): the sampling player against the
heuristic on identical deals, the partnerships swapped, as ``pinochle duel --policy sampling`` plays it.

The plays are :mod:`analyses.strong_deals`'s (deal i of the seed; the sampling player in each
partnership in turn, the heuristic in the other, and the heuristic everywhere as the baseline). Points
a deal are what the sampling side's score lines gained, on the system's scale; the difference is paired
by deal, with a normal 95% interval over deals (:func:`simcore.strong.duel.summary`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from analyses import fmt
from analyses.section import Section, StrongSizes
from analyses.strong_deals import StrongDeals
from simcore.strong.duel import summary

#: Columns of :func:`duel_table`.
COLUMNS = (
    "variant",
    "deals",
    "sampling",
    "sampling_lo",
    "sampling_hi",
    "heuristic",
    "heuristic_lo",
    "heuristic_hi",
    "difference",
    "difference_lo",
    "difference_hi",
    "seat_sets",
)


def duel_table(plays: Sequence[StrongDeals]) -> pd.DataFrame:
    """One row per system: the sampling side's points a deal, the heuristic's in the same seats on the
    same deals, and the difference, each with its 95% interval; ``seat_sets`` the seats that took turns."""
    rows = []
    for p in plays:
        mine, theirs = p.duel_points()
        got = summary(p.variant, "sampling", p.seed, p.sets, mine, theirs)
        row = {"variant": p.variant.id, "deals": got["hands"]}
        for name, key in (
            ("sampling", "policy_points"),
            ("heuristic", "heuristic_points"),
            ("difference", "difference"),
        ):
            row.update({name: got[key]["mean"], f"{name}_lo": got[key]["low"], f"{name}_hi": got[key]["high"]})
        row["seat_sets"] = " and ".join("+".join(map(str, g)) for g in p.sets)
        rows.append(row)
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _verdict(r) -> str:
    if r.difference_lo > 0:
        return "the sampling player scores more"
    if r.difference_hi < 0:
        return "the sampling player scores less"
    return "the interval holds 0: no difference shown at this size"


def sampler_flags(sizes: StrongSizes) -> str:
    """The duel's options for a sampling player other than its defaults."""
    d = StrongSizes()
    same = (sizes.samples, sizes.solve_from) == (d.samples, d.solve_from)
    flags = "" if same else f" --samples {sizes.samples} --solve-from {sizes.solve_from}"
    return flags + {None: "", True: " --read-auction", False: " --no-read-auction"}[sizes.read_auction]


def section(plays: Sequence[StrongDeals], sizes: StrongSizes, seed: int) -> Section:
    """ "Card play: the sampling player against the heuristic"."""
    table = duel_table(plays)
    lines = []
    for r in table.itertuples():
        share = f", {fmt.pct(r.difference / r.heuristic)} of what the heuristic scores" if r.heuristic > 0 else ""
        lines.append(
            f"* **{r.variant}**: {fmt.signed(r.difference, r.difference_lo, r.difference_hi)} points a "
            f"deal{share}; {_verdict(r)}."
        )
    rows = [
        {
            "system": r.variant,
            "deals": f"{r.deals:,}",
            "seats taking turns": r.seat_sets,
            "sampling player": fmt.value(r.sampling, r.sampling_lo, r.sampling_hi),
            "heuristic in the same seats": fmt.value(r.heuristic, r.heuristic_lo, r.heuristic_hi),
            "difference": fmt.signed(r.difference, r.difference_lo, r.difference_hi),
        }
        for r in table.itertuples()
    ]
    text = (
        f"Deals 0–{sizes.deals - 1} of seed {seed}, each played with the sampling player in one partnership "
        "and the heuristic in the other, then the partnerships swapped, beside the heuristic everywhere on "
        f"the same deal. The sampling player deals the unseen cards {sizes.samples} times a decision in the "
        f"last {sizes.solve_from} tricks and plays the card best on average with those hands face up; "
        f"{sizes.before_solved()}, and for every bid, pass and meld, it plays as the heuristic, so the "
        f"difference is {sizes.card_play} alone. Points a deal on each system's own scale, 95% intervals over deals "
        "(paired by deal):\n\n" + "\n".join(lines) + "\n\n"
        f"The same as `pinochle duel --policy sampling --variant V --hands {sizes.deals} --seed {seed}"
        f"{sampler_flags(sizes)}` prints."
    )
    return Section(
        "Card play: the sampling player against the heuristic",
        text,
        tables={"duel": table},
        display={"duel": fmt.markdown_table(rows)},
    )
