"""The heuristic's worst decisions (the strong-play page's third measurement): where its card play in the endings
gives up the most points against double-dummy play, by role, lead or follow, and tricks from the end,
beside what a random legal card gives up at the same decisions.

The decisions are :func:`simcore.answers.endgame.endgame_loss`'s: the last ``tricks_left`` tricks of
the first hand of seeds ``seed ..``, heuristic at every seat, replayed decision by decision; a
decision's loss is what the card chosen gave up against the best card for its side, in trick points
on the system's scale, the rest of the hand played perfectly. Part of a loss is hidden information,
not misplay: the solver sees all hands. Intervals are normal 95% over hands (per hand) or over
decisions (per decision: a situation comes at most once a hand, so its decisions are independent).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from analyses import fmt, style
from analyses.section import Section, StrongSizes
from analyses.workers import Job, chunks, run_jobs
from simcore.answers.endgame import EndgameLoss, endgame_loss
from simcore.cards import card_name
from simcore.run.stats import values_interval
from simcore.variants import Variant

#: Columns of :func:`per_role_table`.
ROLE_COLUMNS = (
    "variant",
    "role",
    "hands",
    "heuristic",
    "heuristic_lo",
    "heuristic_hi",
    "random",
    "random_lo",
    "random_hi",
)
#: Columns of :func:`by_trick_table`.
TRICK_COLUMNS = (
    "variant",
    "tricks_left",
    "play",
    "decisions",
    "heuristic",
    "heuristic_lo",
    "heuristic_hi",
    "random",
    "random_lo",
    "random_hi",
)


def _part(variant: Variant, seeds: range, tricks_left: int) -> tuple[int, pd.DataFrame, pd.DataFrame]:
    got = endgame_loss(variant, len(seeds), seeds.start, tricks_left)
    return got.played, got.decisions, got.totals


def jobs(variant: Variant, hands: int, seed: int, tricks_left: int, chunk: int = 30) -> list[Job]:
    """:func:`endgame_loss` over seeds ``seed .. seed + hands - 1`` as worker jobs of ``chunk`` seeds."""
    return [(_part, (variant, r, tricks_left)) for r in chunks(seed, hands, chunk)]


def gather(variant: Variant, hands: int, seed: int, tricks_left: int, results: list) -> EndgameLoss:
    """The :class:`EndgameLoss` of all the seeds from the results of :func:`jobs`, in seed order."""

    def joined(k: int) -> pd.DataFrame:
        frames = [r[k] for r in results if len(r[k])]
        return pd.concat(frames, ignore_index=True) if frames else results[0][k]

    return EndgameLoss(
        variant, tricks_left, tuple(range(seed, seed + hands)), sum(r[0] for r in results), joined(1), joined(2)
    )


def endgame(variant: Variant, hands: int, seed: int, tricks_left: int, workers: int = 1) -> EndgameLoss:
    """:func:`endgame_loss` in ``workers`` processes: the same decisions as one process."""
    return gather(variant, hands, seed, tricks_left, run_jobs(jobs(variant, hands, seed, tricks_left), workers))


def per_role_table(results: Sequence[EndgameLoss]) -> pd.DataFrame:
    """Points given up a hand by role (bidder, partner, defender), summed over the role's decisions in a
    hand: the heuristic's and a random legal card's at the same decisions, each with its interval."""
    rows = []
    for r in results:
        got = r.per_hand("role")
        for role in sorted({k.split(":")[0] for k in got}):
            heur, rand = got[f"{role}: heuristic"], got[f"{role}: random card"]
            rows.append(
                {
                    "variant": r.variant.id,
                    "role": role,
                    "hands": r.played,
                    "heuristic": heur.estimate,
                    "heuristic_lo": heur.lo,
                    "heuristic_hi": heur.hi,
                    "random": rand.estimate,
                    "random_lo": rand.lo,
                    "random_hi": rand.hi,
                }
            )
    return pd.DataFrame(rows, columns=list(ROLE_COLUMNS))


def situations_table(results: Sequence[EndgameLoss], top: int = 5) -> pd.DataFrame:
    """Per system, the ``top`` situations (role, place: 0 = the lead, tricks left) with the highest mean
    loss a decision (:meth:`EndgameLoss.situations`), worst first."""
    frames = []
    for r in results:
        t = r.situations().sort_values(["mean_loss", "decisions"], ascending=[False, False]).head(top)
        frames.append(t.assign(variant=r.variant.id))
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return out[["variant"] + [c for c in out.columns if c != "variant"]] if len(out) else out


def by_trick_table(results: Sequence[EndgameLoss]) -> pd.DataFrame:
    """Mean points given up a decision by tricks left and lead (place 0) or follow, the heuristic's and
    a random legal card's, with intervals over decisions."""
    rows = []
    for r in results:
        d = r.decisions.assign(play=np.where(r.decisions["place"] == 0, "lead", "follow"))
        for (left, play), g in d.groupby(["tricks_left", "play"], sort=True):
            heur, rand = (values_interval(g[c].to_numpy(dtype=np.float64)) for c in ("loss", "random_loss"))
            rows.append(
                {
                    "variant": r.variant.id,
                    "tricks_left": int(left),
                    "play": play,
                    "decisions": len(g),
                    "heuristic": heur.estimate,
                    "heuristic_lo": heur.lo,
                    "heuristic_hi": heur.hi,
                    "random": rand.estimate,
                    "random_lo": rand.lo,
                    "random_hi": rand.hi,
                }
            )
    return pd.DataFrame(rows, columns=list(TRICK_COLUMNS))


def worst_table(results: Sequence[EndgameLoss], top: int = 3) -> pd.DataFrame:
    """Per system, the ``top`` single decisions that gave up the most (for ``pinochle playthrough``);
    none that gave up nothing."""
    frames = [r.worst_decisions(top).query("loss > 0").assign(variant=r.variant.id) for r in results]
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return out[["variant"] + [c for c in out.columns if c != "variant"]] if len(out) else out


def plot_loss_by_trick(table: pd.DataFrame, count: str = "") -> Figure:
    """One panel per system: mean points a decision gives up against double dummy by tricks from the
    end, leads and follows apart, the heuristic (solid, 95% intervals) beside a random legal card
    (dashed). Points are each system's own scale."""
    variants = list(dict.fromkeys(table["variant"]))
    fig, axes = style.panels(len(variants))
    for ax, vid in zip(axes, variants):
        t = table[table["variant"] == vid]
        for play in ("lead", "follow"):
            g = t[t["play"] == play].sort_values("tricks_left", ascending=False)
            colour = style.PALETTE[3 if play == "lead" else 0]
            err = [g["heuristic"] - g["heuristic_lo"], g["heuristic_hi"] - g["heuristic"]]
            ax.errorbar(
                g["tricks_left"],
                g["heuristic"],
                yerr=err,
                marker="o",
                ms=4,
                capsize=2,
                color=colour,
                label=f"heuristic, {play}",
            )
            ax.plot(
                g["tricks_left"],
                g["random"],
                ls="--",
                marker="x",
                ms=4,
                color=colour,
                alpha=0.8,
                label=f"random card, {play}",
            )
        ax.invert_xaxis()  # the hand runs left to right: many tricks left, then the last
        ax.set_title(vid)
        ax.set_xlabel("tricks left (the hand's end on the right)")
        ax.set_ylim(bottom=0)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0].set_ylabel("points given up a decision")
    axes[0].legend(loc="upper right", fontsize=8)
    fig.suptitle(f"Where the heuristic's card play gives up points against perfect play\n{count}")
    return fig


def _place(place: int) -> str:
    """A place in the trick in words: the lead, then the second card, ..."""
    return "lead" if place == 0 else {1: "2nd card", 2: "3rd card"}.get(int(place), f"{int(place) + 1}th card")


def _role_rows(table: pd.DataFrame) -> list[dict]:
    return [
        {
            "system": r.variant,
            "role": r.role,
            "hands": f"{r.hands:,}",
            "heuristic (points a hand)": fmt.value(r.heuristic, r.heuristic_lo, r.heuristic_hi),
            "random legal card": fmt.value(r.random, r.random_lo, r.random_hi),
            "share of a random card's loss saved": fmt.pct(1 - r.heuristic / r.random) if r.random > 0 else "—",
        }
        for r in table.itertuples()
    ]


def _situation_rows(table: pd.DataFrame) -> list[dict]:
    return [
        {
            "system": r.variant,
            "role": r.role,
            "place": _place(r.place),
            "tricks left": r.tricks_left,
            "decisions": f"{r.decisions:,}",
            "heuristic (points a decision)": fmt.value(r.mean_loss, r.mean_loss_lo, r.mean_loss_hi),
            "lost something": fmt.pct(r.share_losing),
            "random legal card": fmt.value(r.random_card_loss),
        }
        for r in table.itertuples()
    ]


def _worst_rows(table: pd.DataFrame) -> list[dict]:
    return [
        {
            "system": r.variant,
            "seed": r.seed,
            "tricks left": r.tricks_left,
            "seat": f"{r.seat} ({r.role})",
            "played": card_name(r.chosen),
            "best": card_name(r.best_card),
            "gave up": fmt.number(r.loss),
        }
        for r in table.itertuples()
    ]


def section(results: Sequence[EndgameLoss], sizes: StrongSizes, seed: int) -> Section:
    """ "The heuristic's worst decisions": losses by role, by trick and lead/follow, the worst situations
    and single decisions."""
    roles, tricks = per_role_table(results), by_trick_table(results)
    situations, worst = situations_table(results), worst_table(results)
    count = f"last {sizes.tricks_left} tricks of {sizes.endgame_hands:,} seeded hands, heuristic at every seat"
    lines = []
    for r in results:
        t = roles[roles["variant"] == r.variant.id].set_index("role")
        lead = tricks[(tricks["variant"] == r.variant.id)]
        leads, follows = lead[lead["play"] == "lead"], lead[lead["play"] == "follow"]
        s = situations[situations["variant"] == r.variant.id]
        top = s.iloc[0] if len(s) else None
        parts = [
            f"{role} {fmt.value(t.loc[role, 'heuristic'])} (random card {fmt.value(t.loc[role, 'random'])})"
            for role in t.index
        ]
        where = ""
        if top is not None:
            where = (
                f"; the worst situation is the {top['role']}'s {_place(top['place'])} with "
                f"{top['tricks_left']} tricks left, {fmt.value(top['mean_loss'])} a decision against a "
                f"random card's {fmt.value(top['random_card_loss'])}"
            )
        ratio = ""
        if len(leads) and len(follows):
            lw = np.average(leads["heuristic"], weights=leads["decisions"])
            fw = np.average(follows["heuristic"], weights=follows["decisions"])
            ratio = f"; a lead gives up {fmt.value(lw)} a decision on average, a follow {fmt.value(fw)}"
        lines.append(
            f"* **{r.variant.id}** ({r.played:,} hands played out, {fmt.value(r.totals['in_play'].mean())} "
            f"points in play a hand): given up a hand by the {', '.join(parts)}{ratio}{where}."
        )
    text = (
        f"The last {sizes.tricks_left} tricks of the first hand of seeds {seed}–{seed + sizes.endgame_hands - 1}, "
        "heuristic at every seat, replayed card by card: at each card a search with every hand face up values "
        "every legal card, and the card's loss is what it gave up against the best card for its side (the rest "
        "played perfectly). Beside it, the mean loss of a random legal card at the same decisions. Part of "
        "every loss is hidden information, not misplay: the solver sees all hands. Points are each "
        "system's own.\n\n" + "\n".join(lines) + "\n\n"
        "The chart splits a decision's loss by tricks left and by lead or follow; the tables give the loss by "
        "role, the situations that give up most a decision, and the single worst decisions (replay one with "
        "`pinochle playthrough --variant V --seed S`)."
    )
    return Section(
        "The heuristic's worst decisions",
        text,
        tables={
            "endgame_by_role": roles,
            "endgame_by_trick": tricks,
            "endgame_situations": situations,
            "endgame_worst": worst,
        },
        figures={"endgame_by_trick": plot_loss_by_trick(tricks, count)},
        display={
            "endgame_by_role": fmt.markdown_table(_role_rows(roles)),
            "endgame_situations": fmt.markdown_table(_situation_rows(situations)),
            "endgame_worst": fmt.markdown_table(_worst_rows(worst)),
        },
    )
