"""The bidding line under strong play, for the players' cards: the report's "bid up to a + b × your meld"
fitted on deals the sampling player played at every seat, beside the heuristic's fit on the same deals.

Playing 2,000 deals four times with the solver takes minutes per system, far more than the default
report spends, so the plays are measured once and kept with the code: ``python -m analyses.strong_lines
VARIANT [DEALS] [--workers W]`` plays deals 0 .. DEALS - 1 of seed 1 (:func:`analyses.strong_deals.play_deals`:
the heuristic at every seat, the sampling player in each partnership in turn, the sampling player at
every seat) and writes ``analyses/strong_records/VARIANT.npz`` with the run's size, seed, player,
rules hash, commit and time. The report reads that file (:func:`section`); a file written under other
rules than the system's now is not read. ``tests/test_strong_lines.py`` replays the first deals of each
kept file with the current code and fails when they no longer match: then run the command again.

The fits and intervals are :func:`analyses.strong_play.card_table` (paired percentile bootstrap over
deals) and :func:`analyses.strong_play.total_shift_table` (the bidding side's total a played hand, the
shift the 50% line follows, paired by deal). Points are on the variant's scale.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from analyses import fmt
from analyses.section import Section, Sizes
from analyses.strong_deals import DealPlays, StrongDeals, play_deals
from analyses.strong_play import card_table, total_shift_table
from simcore.state.sampler import SamplingPlayer, fits_text, playouts_text, reads_auction, reads_duties
from simcore.variants import Variant, load_variant

#: Where the kept plays are, one file per system.
DATA = Path(__file__).with_name("strong_records")
#: The systems whose cards show the line (the report's three).
SYSTEMS = ("four-hand-150", "partnership-auction", "double-deck")
#: Deals and seed of a kept run.
DEALS = 2_000
SEED = 1
#: Meld bins fitted need at least this many hands; bootstrap resamples of the fit.
FIT_MIN_HANDS = 50
BOOT = 200


@dataclass(frozen=True)
class KeptPlays:
    """A kept run: its :class:`~analyses.strong_deals.StrongDeals` and how it was made (``about``:
    seed, deals, samples, solve_from, rules hash, commit, date, wall and CPU seconds)."""

    deals: StrongDeals
    about: dict


def path_for(variant_id: str) -> Path:
    return DATA / f"{variant_id}.npz"


def save(plays: StrongDeals, about: dict, path: Path) -> None:
    """Write ``plays`` and ``about`` to ``path`` (a compressed numpy archive)."""
    p = plays.plays
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        policy=np.array([x.policy for x in p], dtype=np.float64),
        heuristic=np.array([x.heuristic for x in p], dtype=np.float64),
        heuristic_records=plays.records(False),
        strong_records=plays.records(True),
        solved=np.array([x.solved for x in p], dtype=np.int64),
        about=np.array(json.dumps(about, sort_keys=True)),
    )


def load(variant: Variant, path: Path | None = None) -> KeptPlays | None:
    """The kept run of ``variant`` (None: no file, or one made under other rules)."""
    path = path_for(variant.id) if path is None else path
    if not path.exists():
        return None
    with np.load(path) as z:
        about = json.loads(str(z["about"]))
        if about["rules_hash"] != variant.content_hash:
            return None
        plays = tuple(
            DealPlays(float(a), float(b), tuple(int(x) for x in hr), tuple(int(x) for x in sr), int(s))
            for a, b, hr, sr, s in zip(
                z["policy"], z["heuristic"], z["heuristic_records"], z["strong_records"], z["solved"]
            )
        )
    # a run kept before the sampling player had playouts (or read the auction or the duties) names none: it
    # used none
    player = SamplingPlayer(
        samples=about["samples"],
        solve_from=about["solve_from"],
        rollout_from=about.get("rollout_from", 0),
        read_auction=about.get("read_auction", False),
        read_duties=about.get("read_duties", False),
    )
    return KeptPlays(StrongDeals(variant, about["seed"], player, plays), about)


def partial_dir(variant: Variant, deals: int, seed: int, player: SamplingPlayer) -> Path:
    """Where a run keeps its finished jobs until it is saved: named for everything its plays depend on
    but the code, so a run interrupted and started again with the same arguments resumes."""
    run = f"seed{seed}-{deals}-{player.settings_name(variant)}"
    return DATA / ".partial" / f"{variant.id}-{variant.content_hash[:12]}-{run}"


def measure(variant: Variant, deals: int = DEALS, seed: int = SEED, workers: int = 1) -> KeptPlays:
    """Play deals 0 .. ``deals`` - 1 of ``seed`` four times each with the default sampling player,
    keeping finished jobs in :func:`partial_dir` (progress on stderr)."""
    player = SamplingPlayer()
    wall, cpu, commit = time.perf_counter(), time.process_time(), _commit()
    keep = partial_dir(variant, deals, seed, player)
    plays = play_deals(variant, deals, seed, player, workers, lambda m: print(m, file=sys.stderr, flush=True), keep)
    about = {
        "variant": variant.id,
        "rules_hash": variant.content_hash,
        "seed": seed,
        "deals": deals,
        "samples": player.samples,
        "solve_from": player.solved(variant),
        "rollout_from": player.rollout_from,
        "read_auction": reads_auction(variant, player.read_auction),
        "read_duties": reads_duties(variant, player.read_duties),
        "workers": workers,
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "main_cpu_seconds": round(time.process_time() - cpu, 1),
        "commit": commit,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
    }
    return KeptPlays(plays, about)


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=DATA.parent)
    except OSError:
        return "unknown"
    return out.stdout.strip() or "unknown"


# --- the report ---------------------------------------------------------------------------------------------
def line_table(kept: KeptPlays) -> pd.DataFrame:
    """One row per card play ("heuristic", "sampling", "difference"): the fitted ``a`` and ``b`` with
    their intervals and the contracts made (:func:`analyses.strong_play.card_table`), and the bidding
    side's mean total a played hand (``total``, ``total_lo``, ``total_hi``)."""
    cards = card_table(kept.deals, FIT_MIN_HANDS, BOOT)
    shift = total_shift_table([kept.deals]).iloc[0]
    for col, src in (("total", ""), ("total_lo", "_lo"), ("total_hi", "_hi")):
        cards[col] = [shift[f"{play}{src}"] for play in cards["play"]]
    cards.attrs["about"] = kept.about
    return cards


def run_text(about: dict) -> str:
    """How the kept run was made, in one sentence."""
    playouts = playouts_text(about.get("rollout_from", 0), about["solve_from"])
    before = f", played out by the heuristic {playouts} until then" if playouts else ""
    fits = fits_text(about.get("read_auction"), about.get("read_duties"))
    fitting = f" fitting {fits}" if fits else ""
    return (
        f"{about['deals']:,} deals (seed {about['seed']}), each played by the heuristic at every seat and by the "
        f"sampling player at every seat ({about['samples']} deals of the unseen cards a card{fitting}, double dummy "
        f"over the last {about['solve_from']} tricks{before}; the heuristic's bids, trump, pass and meld), measured "
        f"{about['date']} at commit {about['commit']} in {about['wall_seconds'] / 60:.0f} minutes "
        f"({about['workers']} process{'es' if about['workers'] > 1 else ''})"
    )


def card_sentence(table: pd.DataFrame, rule: pd.Series | None = None) -> str:
    """The card's line: the rule under strong play beside the heuristic's ("the same line" where the two
    print alike), the paired shift of its intercept (how well the run places it against the heuristic's),
    and the shift of the total. With ``rule`` (the report's rule of thumb: ``a``, ``b``, ``hands``), a
    heuristic's line that prints differently from it says why: the two are fitted on different hands."""
    t = table.set_index("play")
    s, hh, d = t.loc["sampling"], t.loc["heuristic"], t.loc["difference"]
    if any(map(fmt.missing, (s["a"], hh["a"]))):
        return ""
    about = table.attrs.get("about", {})
    tricks = about.get("solve_from")
    last = f"the last {tricks} tricks" if tricks else "the last tricks"
    playouts = playouts_text(about.get("rollout_from", 0), tricks) if tricks else ""
    how = f"sampled: played out {playouts}, solved in {last}" if playouts else f"in {last} sampled and solved"
    strong, heuristic = (s["a"], s["b"]), (hh["a"], hh["b"])
    if fmt.same_line(strong, heuristic):
        against = "the same line as the heuristic's on the same deals"
    else:
        against = f"against {fmt.line(*heuristic)} on the same deals played by the heuristic"
    return (
        f"Under strong play (both sides' card play {how}): bid up to {fmt.line(*strong)}, {against} (the "
        f"intercept {fmt.signed(d['a'], d['a_lo'], d['a_hi'])} points, paired); the side's total a hand moves by "
        f"{fmt.signed(d['total'], d['total_lo'], d['total_hi'])} points.{_why_not_the_rule(hh, rule)}"
    )


def _why_not_the_rule(heuristic: pd.Series, rule: pd.Series | None) -> str:
    """Why the heuristic's line on the kept deals differs from the report's rule of thumb, which the same
    player's hands give: the kept run is a far smaller sample ("" where the two print alike)."""
    if rule is None or fmt.same_line((heuristic["a"], heuristic["b"]), (rule["a"], rule["b"])):
        return ""
    inside = heuristic["a_lo"] <= rule["a"] <= heuristic["a_hi"] and heuristic["b_lo"] <= rule["b"] <= heuristic["b_hi"]
    return (
        f" The heuristic's line differs from the rule of thumb ({fmt.line(rule['a'], rule['b'])}) because it is "
        f"fitted on these {int(heuristic['deals']):,} deals only, the rule on {int(rule['hands']):,} hands: a "
        "smaller sample, " + ("whose 95% range holds the rule." if inside else "though its 95% range misses the rule.")
    )


def section(variant: Variant, sizes: Sizes, seed: int = 1) -> Section | None:
    """ "How high to bid under strong play", from the kept run (None where there is none)."""
    kept = load(variant)
    if kept is None:
        return None
    table = line_table(kept)
    t = table.set_index("play")
    d = t.loc["difference"]
    rows = [
        {
            "card play": {"heuristic": "heuristic", "sampling": "sampling player", "difference": "difference"}[play],
            "a (points)": fmt.signed(r["a"], r["a_lo"], r["a_hi"])
            if play == "difference"
            else fmt.value(r["a"], r["a_lo"], r["a_hi"]),
            "b (per point of meld)": fmt.signed(r["b"], r["b_lo"], r["b_hi"], digits=2)
            if play == "difference"
            else fmt.value(r["b"], r["b_lo"], r["b_hi"]),
            "side's total a played hand": fmt.signed(r["total"], r["total_lo"], r["total_hi"])
            if play == "difference"
            else fmt.value(r["total"], r["total_lo"], r["total_hi"]),
            "contracts made": fmt.pp(r["made"], r["made_lo"], r["made_hi"])
            if play == "difference"
            else fmt.pct(r["made"], r["made_lo"], r["made_hi"]),
        }
        for play, r in t.iterrows()
    ]
    text = (
        f"{card_sentence(table)} The rule of thumb above is fitted on hands the heuristic played; this one on "
        f"{run_text(kept.about)}. The intervals are 95% ranges from refitting on the deals drawn again at random "
        f"{BOOT} times, the same draws for both plays (meld bins of at least {FIT_MIN_HANDS} hands); the side's "
        f"total is the bidding side's kept meld plus trick points a played hand, the shift the 50% line "
        f"follows, with a normal interval over deals "
        f"({'clear' if d['total_lo'] > 0 or d['total_hi'] < 0 else 'not clear'} at 95%). The kept plays are "
        f"`analyses/strong_records/{variant.id}.npz`; `python -m analyses.strong_lines {variant.id}` measures "
        f"them again."
    )
    return Section(
        "How high to bid under strong play",
        text,
        {"strong_line": table},
        {},
        {"strong_line": fmt.markdown_table(rows)},
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analyses.strong_lines", description=__doc__.split("\n\n")[0])
    p.add_argument("variant", choices=SYSTEMS)
    p.add_argument("deals", nargs="?", type=int, default=DEALS)
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    v = load_variant(args.variant)
    kept = measure(v, args.deals, SEED, args.workers)
    save(kept.deals, kept.about, path_for(v.id))
    shutil.rmtree(partial_dir(v, args.deals, SEED, SamplingPlayer()), ignore_errors=True)
    print(fmt.markdown_table([{k: str(x) for k, x in r.items()} for r in line_table(kept).to_dict("records")]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
