"""The results store: every finished chunk of every keyed run, in one DuckDB file.

A run is keyed by what its numbers depend on: the kernel, the rules' content hash, the code version
(:func:`code_version`) and the run's parameters (events, policies, chunk size ...). A chunk is keyed by
(run, seed, chunk index, deals in the chunk) and holds one int64 array: a tally that adds exactly, or
the chunk's record rows. The array is stored zlib-compressed with a SHA-256 of its shape and bytes; an
entry whose checksum fails is deleted and recomputed, never merged.

The file is opened only for the moment of a read or a write and the opening is retried while another
process holds DuckDB's lock, so several processes can share one store; a chunk written twice keeps its
first copy (both are the same bytes: a chunk is a pure function of its key).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

#: Layout of the tables. A store of another schema is refused rather than read.
SCHEMA_VERSION = 1
#: Seconds to keep retrying while another process holds the file.
LOCK_WAIT_S = 120.0
#: simcore modules that shape output but never the numbers stored, by file name, and the packages all of
#: whose modules do (the command-line commands, the web pages); every other module (and the tuned margins) is part of
#: :func:`code_version`, so a new module counts by default.
PRESENTATION_MODULES = frozenset(
    {"cli.py", "api.py", "bench.py", "store.py", "playthrough.py", "analyse.py", "compile_times.py"}
)
PRESENTATION_PACKAGES = frozenset({"commands", "web"})


class StoreError(Exception):
    """A store that cannot be used (not a store, another schema, locked too long); one-line message."""


@lru_cache(maxsize=1)
def code_version() -> str:
    """SHA-256 (hex, 16 digits) of the source of every simcore module that can change a result.

    Hashing the source rather than keeping a hand-bumped number means a kernel change can never be
    answered from results of the old kernel; the price is that a comment edit retires stored runs."""
    root = Path(__file__).parent.parent
    digest = hashlib.sha256()
    files = sorted(
        p
        for p in root.rglob("*")
        if p.suffix in {".py", ".toml"}
        and p.name not in PRESENTATION_MODULES
        and "__pycache__" not in p.parts
        and not PRESENTATION_PACKAGES & set(p.relative_to(root).parts)
    )
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def default_path() -> Path:
    """The store used when no ``--store`` is given: ``$PINOCHLE_STORE``, else the user's cache directory."""
    env = os.environ.get("PINOCHLE_STORE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("pinochle-sim")) / "results.duckdb"


@dataclass(frozen=True)
class RunInfo:
    """What a stored run is: the kernel, the rules, the code, the parameters and how chunks merge."""

    kernel: str
    variant: str
    rules_hash: str
    params: dict
    merge: str  # "sum": chunk tallies add; "rows": chunk rows are laid end to end in chunk order
    code: str = ""

    @property
    def key(self) -> str:
        """SHA-256 hex of everything a chunk's numbers depend on besides seed and chunk."""
        text = json.dumps(
            {
                "kernel": self.kernel,
                "rules": self.rules_hash,
                "code": self.code or code_version(),
                "params": self.params,
                "merge": self.merge,
            },
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()


def encode(value: np.ndarray) -> tuple[str, bytes, str]:
    """(shape as JSON, compressed bytes, checksum) of an int64 array."""
    value = np.ascontiguousarray(value, dtype=np.int64)
    shape = json.dumps(list(value.shape))
    raw = value.tobytes()
    return shape, zlib.compress(raw, 1), hashlib.sha256(shape.encode() + raw).hexdigest()


def decode(shape: str, blob: bytes, checksum: str) -> np.ndarray | None:
    """The array, or None when the entry is damaged (bad compression, size or checksum)."""
    try:
        raw = zlib.decompress(blob)
        dims = tuple(int(d) for d in json.loads(shape))
    except (zlib.error, ValueError, TypeError):
        return None
    if hashlib.sha256(shape.encode() + raw).hexdigest() != checksum or len(raw) != 8 * int(np.prod(dims)):
        return None
    return np.frombuffer(raw, dtype=np.int64).reshape(dims).copy()


_DDL = """
CREATE TABLE IF NOT EXISTS meta (name VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS runs (run VARCHAR PRIMARY KEY, kernel VARCHAR, variant VARCHAR,
    rules_hash VARCHAR, code VARCHAR, params VARCHAR, merge VARCHAR, created TIMESTAMP);
CREATE TABLE IF NOT EXISTS chunks (run VARCHAR, seed UBIGINT, chunk BIGINT, deals BIGINT,
    shape VARCHAR, data BLOB, checksum VARCHAR, written TIMESTAMP,
    PRIMARY KEY (run, seed, chunk, deals));
"""


class Store:
    """One results file. Methods open it, do their work in one transaction and close it."""

    def __init__(self, path: str | Path, lock_wait_s: float = LOCK_WAIT_S):
        self.path = Path(path)
        self.lock_wait_s = lock_wait_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as con:
            con.execute(_DDL)
            row = con.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
            if row is None:
                con.execute("INSERT INTO meta VALUES ('schema', ?)", [str(SCHEMA_VERSION)])
            elif row[0] != str(SCHEMA_VERSION):
                raise StoreError(
                    f"store {self.path}: written by an incompatible version (schema {row[0]}; "
                    f"this version reads schema {SCHEMA_VERSION}); give another --store or "
                    "delete the file"
                )

    @contextmanager
    def _connect(self) -> Iterator:
        import duckdb

        deadline = time.monotonic() + self.lock_wait_s
        pause = 0.01
        while True:
            try:
                con = duckdb.connect(str(self.path))
                break
            except duckdb.IOException as exc:
                if "lock" in str(exc).lower():  # another process holds the file: wait for it
                    if time.monotonic() > deadline:
                        raise StoreError(
                            f"store {self.path}: held by another process for more than "
                            f"{self.lock_wait_s:.0f} s; try again later or give another --store"
                        )
                    time.sleep(pause)
                    pause = min(0.2, pause * 2)
                    continue
                raise StoreError(
                    f"store {self.path}: not a results store this version can read "
                    f"({str(exc).splitlines()[0]}); give another --store or delete the file"
                )
            except duckdb.Error as exc:
                raise StoreError(
                    f"store {self.path}: not a results store this version can read "
                    f"({str(exc).splitlines()[0]}); give another --store or delete the file"
                )
        try:
            con.execute("BEGIN TRANSACTION")
            yield con
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    def get(self, run: RunInfo, seed: int, chunks: Sequence[tuple[int, int]]) -> dict[int, np.ndarray]:
        """chunk index -> array for each (chunk, deals) of ``chunks`` held intact in the store.

        Damaged entries are deleted here, so the caller computes them again."""
        if not len(chunks):
            return {}
        key, wanted = run.key, {int(c): int(d) for c, d in chunks}
        with self._connect() as con:
            rows = con.execute(
                "SELECT chunk, deals, shape, data, checksum FROM chunks WHERE run = ? AND seed = ? "
                "AND chunk BETWEEN ? AND ?",
                [key, seed, min(wanted), max(wanted)],
            ).fetchall()
            found, damaged = {}, []
            for chunk, deals, shape, data, checksum in rows:
                if wanted.get(chunk) != deals:
                    continue
                value = decode(shape, data, checksum)
                if value is None:
                    damaged.append((chunk, deals))
                else:
                    found[chunk] = value
            for chunk, deals in damaged:
                con.execute(
                    "DELETE FROM chunks WHERE run = ? AND seed = ? AND chunk = ? AND deals = ?",
                    [key, seed, chunk, deals],
                )
        return found

    def put(self, run: RunInfo, seed: int, items: Sequence[tuple[int, int, np.ndarray]]) -> None:
        """Keep ``(chunk, deals, array)`` for each finished chunk.

        A store holds one entry per chunk, the longest: a short last chunk is a prefix of the full
        chunk a larger request computes, so it is replaced by it (merging both would count its deals
        twice), and a chunk already held, or held longer, is left as it is."""
        if not len(items):
            return
        import pyarrow as pa

        key = run.key
        encoded = [encode(v) for _, _, v in items]
        new = pa.table(
            {
                "run": [key] * len(items),
                "seed": pa.array([seed] * len(items), pa.uint64()),
                "chunk": pa.array([int(c) for c, _, _ in items], pa.int64()),
                "deals": pa.array([int(d) for _, d, _ in items], pa.int64()),
                "shape": [e[0] for e in encoded],
                "data": pa.array([e[1] for e in encoded], pa.binary()),
                "checksum": [e[2] for e in encoded],
            }
        )
        with self._connect() as con:
            con.execute(
                "INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, now())",
                [
                    key,
                    run.kernel,
                    run.variant,
                    run.rules_hash,
                    run.code or code_version(),
                    json.dumps(run.params, sort_keys=True, default=str),
                    run.merge,
                ],
            )
            con.register("new_chunks", new)
            con.execute(
                "DELETE FROM chunks c USING new_chunks n WHERE c.run = n.run AND c.seed = n.seed "
                "AND c.chunk = n.chunk AND c.deals < n.deals"
            )
            con.execute(
                "INSERT INTO chunks SELECT n.*, now() FROM new_chunks n WHERE NOT EXISTS (SELECT 1 FROM "
                "chunks c WHERE c.run = n.run AND c.seed = n.seed AND c.chunk = n.chunk "
                "AND c.deals >= n.deals)"
            )
            con.unregister("new_chunks")

    def runs(self):
        """DataFrame: one row per (run, seed) with its chunks, deals and stored bytes, newest first."""
        with self._connect() as con:
            frame = con.execute("""
                SELECT r.run, r.kernel, r.variant, c.seed, count(*) AS chunks, sum(c.deals)::BIGINT AS deals,
                       sum(octet_length(c.data))::BIGINT AS bytes, r.code, r.merge, r.params, max(c.written) AS written
                FROM runs r JOIN chunks c USING (run)
                GROUP BY r.run, r.kernel, r.variant, c.seed, r.code, r.merge, r.params
                ORDER BY written DESC""").df()
        frame["current_code"] = frame["code"] == code_version()
        return frame

    def chunk_values(self, run: str, seed: int) -> list[tuple[int, int, np.ndarray]]:
        """[(chunk, deals, array)] of every intact chunk of one run and seed, in chunk order."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT chunk, deals, shape, data, checksum FROM chunks WHERE run = ? AND seed = ? "
                "ORDER BY chunk, deals",
                [run, seed],
            ).fetchall()
        out = []
        for chunk, deals, shape, data, checksum in rows:
            value = decode(shape, data, checksum)
            if value is not None:
                out.append((chunk, deals, value))
        return out


def export_frame(store: Store, run: str | None = None, seed: int | None = None, chunks: bool = False):
    """DataFrame of stored runs for ``pinochle export``.

    Tally runs (``merge == "sum"``), long format: run, kernel, variant, seed, chunk (-1: merged over the
    stored chunks), deals, cell (flat index into the tally), value. A record run (one run and seed):
    its rows in chunk order, one column per record field, with the chunk index first. Only runs of the
    current code are exported: older ones are kept but not reused."""
    import pandas as pd

    runs = store.runs()
    runs = runs[runs["current_code"]]
    if run:
        runs = runs[runs["run"].str.startswith(run)]
    if seed is not None:
        runs = runs[runs["seed"] == seed]
    if runs.empty:
        raise ValueError(
            "no stored run of the current code matches"
            + (f" --run {run}" if run else "")
            + (f" --seed {seed}" if seed is not None else "")
        )
    if (runs["merge"] == "rows").any():
        if len(runs) > 1:
            raise ValueError(
                f"{len(runs)} runs match and some hold records; give --run PREFIX (and --seed) "
                "for one run of records, or select only tally runs"
            )
        r = runs.iloc[0]
        parts = store.chunk_values(r["run"], int(r["seed"]))
        fields = json.loads(r["params"]).get("fields")
        frames = [pd.DataFrame(v, columns=fields).assign(chunk=c) for c, _, v in parts]
        frame = pd.concat(frames, ignore_index=True)
        return frame[["chunk", *frame.columns[:-1]]]
    frames = []
    for r in runs.itertuples():
        parts = store.chunk_values(r.run, int(r.seed))
        rows = (
            [(c, d, v.ravel()) for c, d, v in parts]
            if chunks
            else [(-1, sum(d for _, d, _ in parts), np.sum([v for _, _, v in parts], axis=0).ravel())]
        )
        for c, d, flat in rows:
            frames.append(
                pd.DataFrame(
                    {
                        "run": r.run,
                        "kernel": r.kernel,
                        "variant": r.variant,
                        "seed": r.seed,
                        "chunk": c,
                        "deals": d,
                        "cell": np.arange(len(flat)),
                        "value": flat,
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)
