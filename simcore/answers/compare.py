"""``pinochle compare``: two rule sets played on the same deals (common random numbers).

Game g of side A and game g of side B deal the same cards in their hand h (and with ``--hands``,
hand i is the same deal on both sides), because each hand's randomness comes from (seed, game, hand)
alone (:func:`simcore.kernels.rng.hand_state`). Every measure is a per-game (or per-hand) number, so the
difference B − A is estimated from the paired differences, whose interval is much narrower than that
of two independent runs when the rules change little; the result reports both.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from simcore.answers.game_results import check_game_variant, game_records, won_by_lone_double_pinochle
from simcore.answers.questions import DEFAULT_SIZE, QUESTIONS
from simcore.kernels import game as g
from simcore.kernels import hand_record as h
from simcore.kernels.compiled import kernel_rules
from simcore.kernels.hand_drivers import keyed_hands_batch, seat_margins, seat_policies
from simcore.kernels.policies import parse_policies
from simcore.kernels.rng import stream_key
from simcore.run.runner import Job, rows_of, run_job
from simcore.run.stats import Z95
from simcore.run.store import RunInfo
from simcore.variants import NotForThisSystem, Variant, load_variant, rule_differences
from simcore.variants.loader import CLI_NAMES
from simcore.variants.record import KernelRules

#: Hands per chunk of ``--hands`` comparisons.
CHUNK_HANDS = 1 << 15

Measure = Callable[[np.ndarray], np.ndarray]


#: Per-game measures: name -> the value of each game record.
GAME_MEASURES: dict[str, Measure] = {
    "first dealer's left wins": lambda r: (r[:, g.GF_WINNER] == 0).astype(np.float64),
    "hands per game": lambda r: r[:, g.GF_HANDS],
    "deals per game (hands + redeals)": lambda r: r[:, g.GF_HANDS] + r[:, g.GF_REDEALS],
    "sets per game": lambda r: r[:, g.GF_SETS],
    "redeals per game": lambda r: r[:, g.GF_REDEALS],
    "decided by the bidder-wins-ties rule": lambda r: r[:, g.GF_TIE_RULE],
    "won by a lone double pinochle side": lambda r: won_by_lone_double_pinochle(r).astype(np.float64),
}
#: Per-hand measures: name -> the value of each hand record.
HAND_MEASURES: dict[str, Measure] = {
    "bidding side makes": lambda r: (r[:, h.F_MADE] == 1).astype(np.float64),
    "bid": lambda r: r[:, h.F_BID],
    "bidding side meld": lambda r: r[:, h.F_SIDE_MELD],
    "bidding side trick points": lambda r: r[:, h.F_SIDE_TRICKS],
    "bidding side score": lambda r: r[:, h.F_SIDE_SCORE],
    "other side score": lambda r: r[:, h.F_OTHER_SCORE],
    "not played (conceded, set without play, no trump)": lambda r: (r[:, h.F_OUTCOME] != h.PLAYED).astype(np.float64),
    "redeals per hand": lambda r: r[:, h.F_REDEALS],
}


#: What kind of number each measure is: "rate" (a share of games or hands, 0 to 1), "points" (per hand,
#: on the system's scale) or "count" (per game).
MEASURE_KIND: dict[str, str] = {
    "first dealer's left wins": "rate",
    "hands per game": "count",
    "deals per game (hands + redeals)": "count",
    "sets per game": "count",
    "redeals per game": "count",
    "decided by the bidder-wins-ties rule": "rate",
    "won by a lone double pinochle side": "rate",
    "bidding side makes": "rate",
    "bid": "points",
    "bidding side meld": "points",
    "bidding side trick points": "points",
    "bidding side score": "points",
    "other side score": "points",
    "not played (conceded, set without play, no trump)": "rate",
    "redeals per hand": "rate",
}
#: A difference of practical size ("small") starts at this threshold; "large" at LARGE times it.
RATE_THRESHOLD = 0.01  # one percentage point of a rate
POINTS_SHARE_THRESHOLD = 0.02  # 2% of the trick points of a hand
COUNT_THRESHOLD = 0.1  # a tenth of a hand (set, redeal) a game
LARGE = 5


def practical_threshold(measure: str, variant: Variant) -> tuple[float, str]:
    """(threshold, its words): the smallest difference in ``measure`` a player would notice."""
    kind = MEASURE_KIND.get(measure, "points")
    if kind == "rate":
        return RATE_THRESHOLD, "1 percentage point"
    if kind == "count":
        return COUNT_THRESHOLD, f"{COUNT_THRESHOLD:g} a game"
    t = POINTS_SHARE_THRESHOLD * variant.trick_total
    return t, f"{t:g} points a hand (2% of the {variant.trick_total} trick points)"


def size_verdict(diff: float, lo: float, hi: float, threshold: float) -> str:
    """ "negligible", "small", "large" or "unsettled" for a difference with its 95% interval: unsettled
    when the interval holds zero and reaches past the threshold; else by the estimate's size against
    the threshold (negligible below it, large from ``LARGE`` times it)."""
    if lo <= 0 <= hi and max(-lo, hi) >= threshold:
        return "unsettled"
    size = abs(diff)
    return "negligible" if size < threshold else "large" if size >= LARGE * threshold else "small"


def keyed_hand_records(
    variant: Variant, hands: int, seed: int, policies: np.ndarray, margins: np.ndarray | None = None
) -> np.ndarray:
    """int64[hands, N_FIELDS]: hands 0 .. hands-1 of the run keyed by ``seed``, each dealt from its
    own (seed, hand) stream (:func:`simcore.kernels.hand.hands_chunk` with a key)."""
    policies, margins = seat_policies(policies), seat_margins(variant, margins)
    run_info = RunInfo(
        "keyed-hands",
        variant.id,
        variant.content_hash,
        {
            "policies": policies.tolist(),
            "margins": margins.tolist(),
            "chunk_hands": CHUNK_HANDS,
            "fields": list(h.FIELDS),
        },
        "rows",
    )
    task = partial(keyed_hand_rows, stream_key(seed), kernel_rules(variant), policies, margins)
    return run_job(Job(task, "rows", run_info, CHUNK_HANDS, "hands"), seed, hands).tally


def keyed_hand_rows(
    key: np.ndarray,
    rules: KernelRules,
    policies: np.ndarray,
    margins: np.ndarray,
    states: np.ndarray,
    sizes: np.ndarray,
    chunks: np.ndarray,
) -> np.ndarray:
    """int64[sum(sizes), N_FIELDS]: hands ``chunk * CHUNK_HANDS ..`` of each chunk, each dealt from its
    own (seed, hand) stream, under a variant's ``kernel_rules`` with the seats' ``policies`` and
    ``margins``."""
    return rows_of(
        lambda st, sz, ck, offsets, out: keyed_hands_batch(
            key, ck * CHUNK_HANDS, sz, offsets, rules.tables, rules.hand, policies, margins, out
        ),
        h.N_FIELDS,
        states,
        sizes,
        chunks,
    )


def paired_row(name: str, a: np.ndarray, b: np.ndarray) -> dict:
    """A's and B's means with 95% intervals, the paired difference B − A with its interval, and the
    half-width two independent runs of the same size would give (``unpaired_half``)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    n = len(a)

    def half(x: np.ndarray) -> float:
        return Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan

    d = b - a
    paired, unpaired = half(d), math.hypot(half(a), half(b))
    return {
        "measure": name,
        "n": n,
        "a": a.mean(),
        "a_lo": a.mean() - half(a),
        "a_hi": a.mean() + half(a),
        "b": b.mean(),
        "b_lo": b.mean() - half(b),
        "b_hi": b.mean() + half(b),
        "diff": d.mean(),
        "diff_lo": d.mean() - paired,
        "diff_hi": d.mean() + paired,
        "paired_half": paired,
        "unpaired_half": unpaired,
    }


@dataclass(frozen=True)
class CompareResult:
    """Paired comparison of rule sets A and B; ``table`` has one row per measure (:func:`paired_row`)."""

    a: Variant
    b: Variant
    mode: str
    seed: int
    table: pd.DataFrame
    question: str = ""
    extra: dict = field(default_factory=dict)

    def row(self, measure: str) -> pd.Series:
        return self.table.set_index("measure").loc[measure]

    def verdict(self, headline: str | None = None) -> str:
        """One paragraph in words, generated from the numbers: the headline measure first, then every
        other measure whose interval excludes zero."""
        headline = headline or self.extra.get("headline") or self.table["measure"].iloc[0]
        r = self.row(headline).to_dict()
        unit = "game" if self.mode == "games" else "hand"
        clear = r["diff_lo"] > 0 or r["diff_hi"] < 0

        def num(x: float) -> str:
            # three significant digits, never in scientific notation (0.00005, not 5e-05)
            if abs(x) >= 1000:
                return f"{x:,.0f}"
            if x == 0 or not math.isfinite(x):
                return f"{x:g}"
            text = f"{x:.{max(0, 2 - math.floor(math.log10(abs(x))))}f}"
            return text.rstrip("0").rstrip(".") if "." in text else text

        text = (
            f"{headline}: {num(r['a'])} under A, {num(r['b'])} under B; B − A = {num(r['diff'])} "
            f"[{num(r['diff_lo'])}, {num(r['diff_hi'])}] per {unit} over {int(r['n']):,} paired "
            f"{self.mode}. "
        )
        threshold, words = practical_threshold(headline, self.a)
        size = size_verdict(r["diff"], r["diff_lo"], r["diff_hi"], threshold)
        text += (
            "The difference is clear at 95%"
            if clear
            else "No difference this run can detect: the interval contains zero"
        ) + (f"; against a threshold of {words} it is {size}. ")
        others = [
            m
            for m in self.table.to_dict(orient="records")
            if m["measure"] != headline and (m["diff_lo"] > 0 or m["diff_hi"] < 0)
        ]
        if others:
            text += (
                "B also changes "
                + "; ".join(
                    f"{m['measure']} by {num(m['diff'])} [{num(m['diff_lo'])}, {num(m['diff_hi'])}]" for m in others
                )
                + ". "
            )
        else:
            text += "No other measure changes detectably. "
        ratio = r["unpaired_half"] / r["paired_half"] if r["paired_half"] > 0 else math.inf
        text += (
            f"Pairing the deals made the interval exactly zero (the rule change altered no {unit})."
            if r["paired_half"] == 0
            else f"Pairing the deals narrowed the headline interval {ratio:.1f}-fold against two independent runs."
        )
        return text

    def size(self, measure: str | None = None) -> dict:
        """The practical-size verdict of ``measure`` (default the headline): ``size`` (a word of
        :func:`size_verdict`), ``threshold`` and ``threshold_words``."""
        measure = measure or self.extra.get("headline") or self.table["measure"].iloc[0]
        r = self.row(measure)
        threshold, words = practical_threshold(measure, self.a)
        return {
            "size": size_verdict(r["diff"], r["diff_lo"], r["diff_hi"], threshold),
            "threshold": threshold,
            "threshold_words": words,
        }

    def to_json(self) -> dict:
        rows = self.table.replace({np.nan: None}).to_dict(orient="records")
        return {
            "a": self.a.id,
            "b": self.b.id,
            "mode": self.mode,
            "seed": self.seed,
            "question": self.question,
            "measures": rows,
            "verdict": self.verdict(),
            **self.size(),
            **self.extra,
        }


def compare(
    a: Variant,
    b: Variant,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 1,
    policies: Sequence[int] | np.ndarray | None = None,
) -> CompareResult:
    """Play ``games`` whole games (or ``hands`` hands) of A and of B on the same deals and compare;
    ``policies`` are the seats' policy codes (by default :func:`parse_policies`'s: the heuristic at every seat)."""
    if (games is None) == (hands is None):
        raise ValueError("give games or hands, not both")
    if a.players != b.players or a.deck_size != b.deck_size:
        raise ValueError(
            f"{a.id} and {b.id} deal different decks or tables; common deals need the same players and deck"
        )
    pol = np.asarray(policies if policies is not None else parse_policies(None, a.players), dtype=np.int64)
    if games is not None:
        check_game_variant(a)
        check_game_variant(b)
        ra, _ = game_records(a, games, seed, pol)
        rb, _ = game_records(b, games, seed, pol)
        measures, mode = GAME_MEASURES, "games"
    else:
        ra = keyed_hand_records(a, hands, seed, pol)
        rb = keyed_hand_records(b, hands, seed, pol)
        measures, mode = HAND_MEASURES, "hands"
    n = min(len(ra), len(rb))  # an interrupted run compares what both sides finished
    table = pd.DataFrame([paired_row(name, f(ra[:n]), f(rb[:n])) for name, f in measures.items()])
    return CompareResult(a, b, mode, seed, table)


def question_rules(
    name: str, variant: str | None = None, names: tuple[str, str] = CLI_NAMES
) -> tuple[Variant, Variant]:
    """(A, B) of the named question (``QUESTIONS``) asked of the shipped system ``variant`` (None: the
    question's own), loaded as :func:`load_variant` loads them (``names``: what its messages call the rules
    and the overrides). :class:`NotForThisSystem` when they play the same game there: the question
    changes nothing in that system's rules, and would answer A = B after a full run."""
    q = QUESTIONS[name]
    vid = variant or q.variant
    a = load_variant(vid, list(q.a), files=False, names=names)
    b = load_variant(vid, list(q.b), files=False, names=names)
    if not rule_differences(a, b):
        held = ", ".join(f"{k} = {_toml(a.values[k])}" for k in q.keys)
        sides = f"A ({', '.join(q.a) or 'as shipped'}) and B ({', '.join(q.b) or 'as shipped'})"
        raise NotForThisSystem(
            f"question {name} cannot apply to {vid}: there {held} already, so {sides} play the same game; "
            f"it applies to {', '.join(applies_to(name))}"
        )
    return a, b


def applies_to(name: str) -> list[str]:
    """The shipped systems in which the named question's A and B are different rules (loaded without
    error and not the same game), sorted."""
    from simcore.variants import RulesError, shipped_ids

    q, found = QUESTIONS[name], []
    for vid in shipped_ids():
        try:
            a, b = load_variant(vid, list(q.a), files=False), load_variant(vid, list(q.b), files=False)
        except RulesError:  # the question's keys contradict this system's other rules
            continue
        if rule_differences(a, b):
            found.append(vid)
    return found


def _toml(value) -> str:
    """A rules value as a rules file writes it (true, 0, "kitty")."""
    if isinstance(value, bool):
        return str(value).lower()
    return f'"{value}"' if isinstance(value, str) else str(value)


def answer(name: str, size: int | None = None, seed: int = 1, mode: str | None = None, prepare=None) -> CompareResult:
    """Run the named question (``QUESTIONS``) and return its comparison, titled. ``mode`` ("games" or
    "hands", one of the question's ``modes``) defaults to the question's own; in the other mode the
    size defaults to ``DEFAULT_SIZE`` and the verdict leads with that mode's first measure. ``prepare``
    (a function of a :class:`Variant`, e.g. one that tunes its margin) is applied to A and to B."""
    q = QUESTIONS[name]
    mode = mode or q.mode
    if mode not in q.modes:
        raise ValueError(f"question {name} compares {' or '.join(q.modes)} only; give --{q.mode} N")
    a, b = question_rules(name)
    if prepare is not None:
        a, b = prepare(a), prepare(b)
    n = size or (q.size if mode == q.mode else DEFAULT_SIZE[mode])
    result = compare(a, b, games=n if mode == "games" else None, hands=n if mode == "hands" else None, seed=seed)
    return dataclasses.replace(
        result, question=q.title, extra={"headline": q.headline if mode == q.mode else result.table["measure"].iloc[0]}
    )


def answers_markdown(seed: int = 1) -> str:
    """Every named question answered at its default size, as the Markdown page ``docs/house-rules.md``
    (``python -m simcore.answers.compare > docs/house-rules.md`` regenerates it)."""
    import time

    def num(x: float) -> str:
        return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"

    out = [
        "# House-rule questions: answers from one run",
        "",
        f"Generated by `python -m simcore.answers.compare` (each section is `pinochle compare --question NAME`, "
        f"seed {seed}, the default sizes), heuristic players with the tuned bidding margins of",
        "the rules files (`policy.margin`). A and B play the same deals (common random numbers); intervals are",
        '95%. "Narrower" is how many times narrower the paired interval is than that of two independent',
        "runs of the same size. The numbers are reproducible to the last digit for the same seed and size.",
        "",
        "Team 0 is the first dealer's left. With the deal rotating and the same players on both sides, a",
        "rule that treats the partnerships alike cannot move team 0's win rate far from 50%, so for most",
        "questions the informative lines are the others (game length, sets, scores per hand).",
        "",
        '"Won by a lone double pinochle side" is the share of games won by the one side that melded a double',
        "pinochle (or more) in some hand while the other never did: how often the meld decides a game.",
        "",
        "The heuristic plays every card here. The questions whose answer could depend on how well the cards",
        "are played (pass 3 or 4, must head, must beat partner, the last-trick bonus) are asked again with the",
        "sampling player at every seat in [policies.md](policies.md#house-rule-verdicts-under-strong-play).",
        "",
    ]
    for name, q in QUESTIONS.items():
        start = time.perf_counter()
        result = answer(name, seed=seed)
        seconds = time.perf_counter() - start
        out += [
            f"## `{name}`: {q.title}",
            "",
            f"`pinochle compare --question {name}` ({q.size:,} paired {q.mode}, {seconds:.1f} s here)",
            "",
            result.verdict(),
            "",
            "| measure | A | B | B − A [95% CI] | narrower |",
            "|---|---|---|---|---|",
        ]
        for r in result.table.to_dict(orient="records"):
            ratio = "exact" if r["paired_half"] == 0 else f"{r['unpaired_half'] / r['paired_half']:.1f}×"
            out.append(
                f"| {r['measure']} | {num(r['a'])} | {num(r['b'])} | {num(r['diff'])} "
                f"[{num(r['diff_lo'])}, {num(r['diff_hi'])}] | {ratio} |"
            )
        out.append("")
    out += [
        "## Not answered yet",
        "",
        "* Auction pinochle's chip settlement: the document's bid-value schedule is missing, so `auction`",
        "  plays hands but no games.",
        "",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    print(answers_markdown(), end="")
