"""Bidding cards made on demand: any system's player's card, or one for pasted house rules, built by
:mod:`analyses.card` at a small size (:data:`analyses.card.ON_DEMAND`) as a job with progress, and kept
in the results store so that the same card asked again is read back, not made again.

A made card is kept as one stored "run" (kernel ``player-card``) keyed by the rules' content, the seed,
the size and the code that makes it (the simulation's :func:`simcore.run.store.code_version` and the
source of the analyses the card reads); its one chunk holds the card's JSON, UTF-8 bytes packed eight
to an int64.
"""

from __future__ import annotations

import base64
import hashlib
import json
import tempfile
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

#: The seed of every card made here (the report's).
SEED = 1


@lru_cache(maxsize=1)
def analyses_version() -> str:
    """SHA-256 (hex, 16 digits) of the source of the ``analyses`` package: a card changes with it,
    while :func:`simcore.run.store.code_version` hashes ``simcore`` only."""
    import analyses

    digest = hashlib.sha256()
    for path in sorted(Path(analyses.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def card_run(variant, sizes, seed: int = SEED):
    """The :class:`simcore.run.store.RunInfo` a made card is kept under."""
    from simcore.run.store import RunInfo, code_version

    params = {"dealt": sizes.dealt, "played": sizes.played, "games": sizes.games, "analyses": analyses_version()}
    return RunInfo("player-card", variant.id, variant.content_hash, params, "rows", code=code_version())


def packed(card: dict) -> np.ndarray:
    """int64[1, n]: ``card`` as JSON, its UTF-8 bytes eight to an int64 after one holding their count."""
    raw = json.dumps(card).encode()
    padded = raw + b"\0" * (-len(raw) % 8)
    return np.concatenate([[len(raw)], np.frombuffer(padded, dtype="<i8")]).astype(np.int64)[None, :]


def unpacked(value: np.ndarray) -> dict:
    """The card :func:`packed` packed."""
    row = np.asarray(value, dtype=np.int64).reshape(-1)
    return json.loads(row[1:].astype("<i8").tobytes()[: int(row[0])].decode())


def stored_card(store, variant, sizes, seed: int = SEED) -> dict | None:
    """The card kept for ``variant`` at ``sizes`` (None: not made yet, or no store)."""
    if store is None:
        return None
    found = store.get(card_run(variant, sizes, seed), seed, [(0, sizes.played)])
    return unpacked(found[0]) if 0 in found else None


def made_card(variant, store=None, sizes=None, seed: int = SEED, job=None) -> dict:
    """The player's card of ``variant``, read from ``store`` if it was made before, else made now (and
    kept there): ``{"system", "name", "markdown", "html", "png" (a data: URL), "sizes", "seed",
    "seconds" (to make it), "note" (its size in words), "cached" (read back)}``. ``job``: a
    :class:`simcore.web.jobs.Job` whose ``done``/``total`` count the hands dealt and played so far,
    over all the card's analyses; its ``stop`` ends the runs (and nothing is kept)."""
    from analyses import card, style
    from analyses.report import played_by
    from simcore.run.runner import Execution, executing
    from simcore.web.reports import markdown_html

    sizes = sizes or card.ON_DEMAND
    kept = stored_card(store, variant, sizes, seed)
    if kept is not None:
        return {**kept, "cached": True}
    start = time.perf_counter()
    parts = card.card_analyses(variant)
    weights = [getattr(sizes, field) if field else 0 for _, _, field in parts]
    total, offset = sum(weights), 0
    if job is not None:
        job.total = total
    sections = []
    for (_, module, _), weight in zip(parts, weights):

        def progress(done: int, asked: int, offset=offset, weight=weight) -> None:
            if job is not None and asked:  # an analysis may make several runs: never count backwards
                job.done, job.total = max(job.done, offset + weight * min(done, asked) // asked), total

        try:
            with executing(Execution(stop=job.stop if job else None, progress=progress)):
                sections.append(module.section(variant, sizes, seed))
        except ValueError:  # too few hands to read a bid from, say: cancelled if the runs were cut short
            if job is not None and job.stop.is_set():
                return {}
            raise
        offset += weight
        if job is not None:
            job.done, job.total = offset, total
    if job is not None and job.stop.is_set():
        return {}  # stopped: a card of part of its hands is not kept
    who = played_by(sizes, seed)
    note = card.on_demand_note(sizes, seed)
    text = card.card_markdown(variant, sections, None, None, None, who, made=note)
    with tempfile.TemporaryDirectory() as folder:  # drawn as the report draws it (style.save wants a path)
        path = Path(folder) / "card.png"
        style.save(card.plot_card(variant, sections, who), path)  # its chart names the hands played
        png = path.read_bytes()
    made = {
        "system": variant.id,
        "name": variant.name,
        "markdown": text,
        "html": markdown_html(text),
        "png": "data:image/png;base64," + base64.b64encode(png).decode(),
        "sizes": {"dealt": sizes.dealt, "played": sizes.played, "games": sizes.games},
        "seed": seed,
        "seconds": round(time.perf_counter() - start, 1),
        "note": note,
    }
    if store is not None:
        store.put(card_run(variant, sizes, seed), seed, [(0, sizes.played, packed(made))])
    return {**made, "cached": False}
