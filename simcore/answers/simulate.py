"""``pinochle simulate``: full hands under the variant's rules and the seats' policies, summarised.

Every hand is one record (:data:`simcore.kernels.hand_record.FIELDS`). Chunks of records are reduced to sums as they
arrive (memory does not grow with the number of hands); ``out`` streams the records to Parquet.
"Side" is the bidder's side (the bidder alone in ``bidder_alone`` systems, with his partner in
``called_card`` ones; seats 0, 2, … when the system has no auction), "other" the rest of the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from simcore.kernels import hand_record as h
from simcore.kernels.hand_drivers import free_deal, hands_batch, seat_margins, seat_policies
from simcore.kernels.policies import POLICY_NAMES
from simcore.run.runner import CHUNK_DEALS, Job, rows_of, run_job
from simcore.run.stats import Interval, mean_interval, wilson
from simcore.run.store import RunInfo
from simcore.variants import Variant
from simcore.variants.record import KernelRules

MEANS = (
    "bid",
    "bidder_meld",
    "bidder_meld_after",
    "side_meld",
    "other_meld",
    "side_tricks",
    "other_tricks",
    "side_score",
    "other_score",
    "redeals",
)
MAX_BID_BINS = 512


@dataclass(frozen=True)
class SimResult:
    """Summed records of a simulation: ``tally`` rows are laid out by :func:`_layout`."""

    variant: Variant
    seed: int
    policies: tuple[str, ...]
    hands: int
    requested: int
    seconds: float
    tally: np.ndarray

    @property
    def interrupted(self) -> bool:
        return self.hands < self.requested

    def _get(self, name: str) -> np.ndarray:
        start, size = _layout()[name]
        return self.tally[start : start + size]

    def means(self) -> dict[str, Interval]:
        n = int(self._get("n")[0])
        sums, squares = self._get("sum"), self._get("squares")
        return {f: mean_interval(float(sums[h.FIELDS.index(f)]), float(squares[h.FIELDS.index(f)]), n) for f in MEANS}

    def rates(self) -> dict[str, Interval]:
        """Made, set and Boston (the bidding side took every trick point) per hand with a bidder;
        each outcome (played, conceded ...) per hand."""
        n = int(self._get("n")[0])
        outcomes = self._get("outcomes")
        with_bidder = int(self._get("with_bidder")[0])
        made = int(self._get("made")[0])
        out = {
            "made": wilson(made, with_bidder),
            "set": wilson(with_bidder - made, with_bidder),
            "boston": wilson(int(self._get("boston")[0]), with_bidder),
        }
        for i, name in enumerate(h.OUTCOMES):
            if i != h.DECLARED_OUT:  # only in games: a hand played alone has no target to declare
                out[name] = wilson(int(outcomes[i]), n)
        return out

    def bid_distribution(self) -> pd.DataFrame:
        """Bids won, with their share of hands that had a bidder and a 95% interval. The table holds
        MAX_BID_BINS bids from the lowest contract; the last row counts that bid and every higher one
        (``or_more`` True), so a bid beyond the table is never shown as a bid it was not."""
        counts = self._get("bids")
        total = int(counts.sum())
        rows = []
        for i in np.nonzero(counts)[0]:
            iv = wilson(int(counts[i]), total)
            rows.append(
                {
                    "bid": _bin_bid(self.variant, int(i)),
                    "or_more": bool(i == MAX_BID_BINS - 1),
                    "hands": int(counts[i]),
                    "share": iv.estimate,
                    "share_lo": iv.lo,
                    "share_hi": iv.hi,
                }
            )
        return pd.DataFrame(rows)

    def to_frame(self) -> pd.DataFrame:
        """One row per measure: estimate and 95% bounds."""
        rows = [
            {"measure": f"mean {k}", "estimate": v.estimate, "lo": v.lo, "hi": v.hi} for k, v in self.means().items()
        ]
        rows += [
            {"measure": f"rate {k}", "estimate": v.estimate, "lo": v.lo, "hi": v.hi} for k, v in self.rates().items()
        ]
        return pd.DataFrame(rows)

    def to_json(self) -> dict:
        def iv(x: Interval) -> dict:
            return {"estimate": x.estimate, "ci95": [x.lo, x.hi]}

        return {
            "variant": self.variant.id,
            "hands": self.hands,
            "seed": self.seed,
            "policies": list(self.policies),
            "complete": not self.interrupted,
            "means": {k: iv(v) for k, v in self.means().items()},
            "rates": {k: iv(v) for k, v in self.rates().items()},
            "bids": self.bid_distribution().to_dict(orient="records"),
        }


def _layout() -> dict[str, tuple[int, int]]:
    sizes = {
        "n": 1,
        "sum": h.N_FIELDS,
        "squares": h.N_FIELDS,
        "outcomes": len(h.OUTCOMES),
        "with_bidder": 1,
        "made": 1,
        "boston": 1,
        "bids": MAX_BID_BINS,
    }
    out, start = {}, 0
    for name, size in sizes.items():
        out[name] = (start, size)
        start += size
    return out


def _bid_bin(variant: Variant, bids: np.ndarray) -> np.ndarray:
    lo, step = variant.lowest_contract, variant.get("auction.step")
    return np.clip((bids - lo) // step, 0, MAX_BID_BINS - 1)


def _bin_bid(variant: Variant, i: int) -> int:
    return variant.lowest_contract + i * variant.get("auction.step")


def _tally(variant: Variant, rec: np.ndarray) -> np.ndarray:
    layout = _layout()
    out = np.zeros(sum(size for _, size in layout.values()), dtype=np.int64)

    def put(name: str, values: np.ndarray) -> None:
        start, size = layout[name]
        out[start : start + size] = values

    put("n", np.array([len(rec)]))
    put("sum", rec.sum(axis=0))
    put("squares", (rec * rec).sum(axis=0))
    put("outcomes", np.bincount(rec[:, h.F_OUTCOME], minlength=len(h.OUTCOMES)))
    has_bidder = rec[:, h.F_BIDDER] >= 0
    put("with_bidder", np.array([has_bidder.sum()]))
    put("made", np.array([(rec[:, h.F_MADE] == 1).sum()]))
    put(
        "boston",
        np.array(
            [(has_bidder & (rec[:, h.F_OUTCOME] == h.PLAYED) & (rec[:, h.F_SIDE_TRICKS] == variant.trick_total)).sum()]
        ),
    )
    put("bids", np.bincount(_bid_bin(variant, rec[has_bidder, h.F_BID]), minlength=MAX_BID_BINS))
    return out


def hand_rows(
    rules: KernelRules,
    policies: np.ndarray,
    margins: np.ndarray,
    states: np.ndarray,
    sizes: np.ndarray,
    chunks: np.ndarray,
    deal: tuple | None = None,
    seat_scores: bool = False,
) -> np.ndarray:
    """int64[sum(sizes), N_FIELDS]: the records of a batch of chunks of full hands, chunk after chunk,
    under a variant's ``kernel_rules`` with the seats' ``policies`` and ``margins``
    (:func:`simcore.kernels.hand_drivers.seat_policies`, :func:`simcore.kernels.hand_drivers.seat_margins`). ``deal``:
    (rest, given, contract, accept) of :func:`simcore.kernels.hand.hands_chunk`; None: as the rules deal.
    With ``seat_scores``, column N_FIELDS + s holds what the hand adds to seat s's score line."""
    rest, given, contract, accept = free_deal(rules.tables) if deal is None else deal
    return rows_of(
        lambda st, sz, ck, offsets, out: hands_batch(
            st, sz, offsets, rules.tables, rules.hand, policies, margins, rest, given, contract, accept, out
        ),
        h.N_FIELDS + (rules.hand.players if seat_scores else 0),
        states,
        sizes,
        chunks,
    )


def hands_tally(
    rules: KernelRules,
    policies: np.ndarray,
    margins: np.ndarray,
    reduce: Callable[[np.ndarray], np.ndarray],
    states: np.ndarray,
    sizes: np.ndarray,
    chunks: np.ndarray,
    deal: tuple | None = None,
) -> np.ndarray:
    """int64[chunks, tally]: ``reduce`` of each chunk's hand records (see :func:`hand_rows`)."""
    return chunk_tallies(reduce, hand_rows(rules, policies, margins, states, sizes, chunks, deal), sizes)


def chunk_tallies(reduce: Callable[[np.ndarray], np.ndarray], rec: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """int64[chunks, tally]: ``reduce`` of each chunk's rows of ``rec`` (chunk i has ``sizes[i]`` rows)."""
    parts = np.split(rec, np.cumsum(sizes)[:-1]) if len(sizes) else [rec]
    return np.stack([reduce(part) for part in parts])[: len(sizes)]


def run_hands(
    variant: Variant,
    hands: int,
    seed: int,
    policies: np.ndarray,
    reduce: Callable[[np.ndarray], np.ndarray],
    progress: bool = False,
    out: str | Path | None = None,
    margins: np.ndarray | None = None,
    accept: np.ndarray | None = None,
    calls: Sequence[int] = (),
):
    """Play ``hands`` full hands in seeded chunks and sum ``reduce(records)`` over the chunks.

    ``reduce`` turns int64[hands, N_FIELDS] records into a fixed-length integer tally; give a
    module-level function or a ``functools.partial`` of one, so the run can be stored and sent to a
    cluster. ``out`` (a .parquet path) also receives every record: then the chunks run here, in order,
    and are not stored. ``margins`` are the seats' bidding margins (:func:`simcore.kernels.hand.play_hand`,
    default: the tuned ones). ``accept``: a condition every deal meets (``--given``,
    :mod:`simcore.kernels.condition`; None: every deal). ``calls``: the auction's first calls, made as
    given (a bid, or 0 for a pass; :func:`simcore.kernels.hand._bidding`), the seats' policies bidding
    after them. Returns the runner's :class:`RunResult`.
    """
    rules, policies, margins = variant.kernel_rules, seat_policies(policies), seat_margins(variant, margins)
    deal = None
    if accept is not None or calls:
        rest, given, contract, no_condition = free_deal(rules.tables)
        contract = np.array([*contract, *calls], dtype=np.int64)
        deal = (rest, given, contract, no_condition if accept is None else np.asarray(accept, dtype=np.int64))
    if out is None:
        name = getattr(reduce, "func", reduce)
        params = {
            "policies": policies.tolist(),
            "margins": margins.tolist(),
            "chunk_deals": CHUNK_DEALS,
            "reduce": f"{name.__module__}.{name.__qualname__}",
        }
        if accept is not None:
            params["condition"] = deal[3].tolist()
        if calls:
            params["calls"] = [int(c) for c in calls]
        run_info = RunInfo("hands", variant.id, variant.content_hash, params, "sum")
        return run_job(
            Job(partial(hands_tally, rules, policies, margins, reduce, deal=deal), "sum", run_info, unit="hands"),
            seed,
            hands,
            progress,
        )
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([(f, pa.int64()) for f in h.FIELDS], metadata=parquet_metadata(variant, seed, policies, hands))
    writer = pq.ParquetWriter(str(out), schema)

    def write_and_tally(states: np.ndarray, sizes: np.ndarray, chunks: np.ndarray) -> np.ndarray:
        rec = hand_rows(rules, policies, margins, states, sizes, chunks, deal)
        if len(rec):
            writer.write_table(
                pa.Table.from_arrays([pa.array(rec[:, i]) for i in range(h.N_FIELDS)], names=list(h.FIELDS))
            )
        return chunk_tallies(reduce, rec, sizes)

    try:
        return run_job(Job(write_and_tally, "sum", unit="hands"), seed, hands, progress)
    finally:
        writer.close()


def parquet_metadata(variant: Variant, seed: int, policies: Sequence[int] | np.ndarray, hands: int) -> dict:
    """The Parquet schema metadata of ``--out``: what made the rows (variant id and rules hash, seed,
    policies, hands asked for, code version) and the names of the coded columns, as JSON under
    ``pinochle`` and under ``PANDAS_ATTRS`` (so ``pd.read_parquet(path).attrs`` holds it)."""
    import json

    from simcore.kernels.cards import SUITS
    from simcore.run.store import code_version

    meta = json.dumps(
        {
            "variant": variant.id,
            "rules_hash": variant.content_hash,
            "seed": int(seed),
            "policies": [POLICY_NAMES[p] for p in np.asarray(policies)],
            "hands": int(hands),
            "code_version": code_version(),
            "fields": list(h.FIELDS),
            "codes": {"trump": list(SUITS), "outcome": list(h.OUTCOMES)},
        }
    )
    return {b"pinochle": meta.encode(), b"PANDAS_ATTRS": meta.encode()}


def hand_records(
    variant: Variant, hands: int, seed: int, policies: Sequence[int] | np.ndarray, margins: np.ndarray | None = None
) -> np.ndarray:
    """int64[hands, N_FIELDS]: the records of ``hands`` full hands, in order (the rows ``--out``
    writes); memory grows with ``hands``, so keep it to millions."""
    return run_job(
        Job(
            partial(hand_rows, variant.kernel_rules, seat_policies(policies), seat_margins(variant, margins)),
            "rows",
            unit="hands",
        ),
        seed,
        hands,
    ).tally


def simulate(
    variant: Variant,
    hands: int,
    seed: int,
    policies: Sequence[int] | np.ndarray | None = None,
    progress: bool = False,
    out: str | Path | None = None,
    margins: np.ndarray | None = None,
) -> SimResult:
    """Play ``hands`` full hands (``policies``: the heuristic at every seat unless given); ``out`` (a
    .parquet path) receives one row per hand; ``margins`` shift the heuristic seats' bidding (see
    :func:`simcore.kernels.hand.play_hand`)."""
    if policies is None:
        policies = [POLICY_NAMES.index("heuristic")] * variant.players
    policies = np.asarray(policies, dtype=np.int64)
    run = run_hands(variant, hands, seed, policies, partial(_tally, variant), progress, out, margins)
    names = tuple(POLICY_NAMES[p] for p in policies)
    return SimResult(variant, seed, names, run.deals, hands, run.seconds, run.tally)
