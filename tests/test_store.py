"""The results store, resume, interrupts, concurrent writers and the Dask backend.

A chunk is a pure function of (rules, seed, chunk, size, code): whatever ran it and whenever, the
merged numbers must be the same to the bit."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import duckdb
import numba
import numpy as np
import pytest

from simcore.answers.conditioned import dealing_of
from simcore.answers.game_results import game_records
from simcore.answers.odds import odds_tally, simulate_odds
from simcore.kernels.condition import NO_CONDITION
from simcore.kernels.events import event_arrays, parse_event
from simcore.kernels.policies import parse_policies
from simcore.run.runner import CHUNK_DEALS, Execution, Job, executing, run_job
from simcore.run.store import SCHEMA_VERSION, RunInfo, Store, decode, encode
from simcore.variants import load_variant

SCRIPT = Path(sys.executable).parent / "pinochle"
V = load_variant("four-hand-150")
EVENTS = [parse_event(n, V) for n in ("double-pinochle", "five-nines", "meld>=30")]


def odds_tallies(hands, store=None, seed=3):
    """simulate_odds under the Execution in force, with ``store`` if given."""
    if store is None:
        return simulate_odds(V, EVENTS, hands, seed, exact=False)
    with executing(Execution(store=store)):
        return simulate_odds(V, EVENTS, hands, seed, exact=False)


def tally_of(r):
    return [(o.per_hand, o.per_deal) for o in r.events], r.deals


def test_encoding_round_trips_and_detects_damage():
    value = np.arange(-5, 19, dtype=np.int64).reshape(2, 3, 4)
    shape, blob, checksum = encode(value)
    assert np.array_equal(decode(shape, blob, checksum), value)
    assert decode(shape, blob[:-3], checksum) is None  # truncated
    flipped = bytearray(blob)
    flipped[len(flipped) // 2] ^= 0xFF
    assert decode(shape, bytes(flipped), checksum) is None
    assert decode("[2, 3, 5]", blob, checksum) is None  # wrong shape


def test_a_repeated_request_is_read_and_a_larger_one_computes_only_new_chunks(tmp_path):
    store = tmp_path / "s.duckdb"
    plain_small, plain_large = odds_tallies(300_000), odds_tallies(1_000_000)
    first = odds_tallies(300_000, store)
    assert tally_of(first) == tally_of(plain_small)
    with executing(Execution(store=store)):
        again = simulate_odds(V, EVENTS, 300_000, 3, exact=False)
        larger = simulate_odds(V, EVENTS, 1_000_000, 3, exact=False)
    assert tally_of(again) == tally_of(plain_small)
    assert tally_of(larger) == tally_of(plain_large)
    runs = Store(store).runs()
    assert len(runs) == 1 and runs["deals"].iloc[0] == 250_000  # the short chunk was replaced, not kept twice


def test_stored_chunks_are_counted_as_read(tmp_path):
    store = tmp_path / "s.duckdb"
    with executing(Execution(store=store)):
        task = partial(odds_tally, dealing_of(V, None, -1, NO_CONDITION), *event_arrays(EVENTS))
        info = RunInfo("odds-test", V.id, V.content_hash, {"test": 1}, "sum")
        a = run_job(Job(task, "sum", info), 3, 3 * CHUNK_DEALS + 10)
        b = run_job(Job(task, "sum", info), 3, 5 * CHUNK_DEALS)
        c = run_job(Job(task, "sum", info), 3, 5 * CHUNK_DEALS)
    assert a.stored == 0 and b.stored == 3 * CHUNK_DEALS and c.stored == 5 * CHUNK_DEALS
    assert np.array_equal(b.tally, c.tally)
    other = RunInfo("odds-test", V.id, V.content_hash, {"test": 1}, "sum", code="another version")
    assert other.key != info.key  # results of other code are never reused


def test_a_damaged_entry_is_recomputed_not_merged(tmp_path):
    store = tmp_path / "s.duckdb"
    clean = odds_tallies(600_000, store)
    con = duckdb.connect(str(store))
    blob = con.execute("SELECT data FROM chunks WHERE chunk = 1").fetchone()[0]
    con.execute("UPDATE chunks SET data = ? WHERE chunk = 1", [blob[:10]])
    con.execute("UPDATE chunks SET checksum = 'x' || substr(checksum, 2) WHERE chunk = 2")
    con.close()
    assert tally_of(odds_tallies(600_000, store)) == tally_of(clean)
    con = duckdb.connect(str(store))
    rows = con.execute("SELECT shape, data, checksum FROM chunks").fetchall()
    good = [decode(s, d, c) is not None for s, d, c in rows]
    con.close()
    assert len(good) == 5 and all(good)


def test_records_runs_are_stored_in_chunk_order(tmp_path):
    policies = parse_policies("heuristic", 4)
    plain, _ = game_records(V, 1500, 2, policies)
    with executing(Execution(store=tmp_path / "s.duckdb")):
        first, _ = game_records(V, 700, 2, policies)
        both, _ = game_records(V, 1500, 2, policies)
    assert np.array_equal(first, plain[:700]) and np.array_equal(both, plain)


def test_a_store_of_another_schema_or_not_a_store_is_refused_in_one_line(tmp_path):
    store = tmp_path / "old.duckdb"
    Store(store)
    con = duckdb.connect(str(store))
    con.execute("UPDATE meta SET value = ? WHERE name = 'schema'", [str(SCHEMA_VERSION + 1)])
    con.close()
    junk = tmp_path / "junk.duckdb"
    junk.write_bytes(b"this is not a database" * 100)
    for path, words in ((store, "incompatible version"), (junk, "not a results store")):
        done = subprocess.run(
            [str(SCRIPT), "odds", "double-pinochle", "--hands", "1000", "--store", str(path)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 2 and words in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert "Traceback" not in done.stderr


def test_same_numbers_on_one_thread_two_threads_and_a_two_worker_dask_cluster(tmp_path):
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = odds_tallies(2_000_000)
        one_games, _ = game_records(V, 1200, 4, parse_policies("heuristic", 4))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = odds_tallies(2_000_000)
    finally:
        numba.set_num_threads(before)
    with executing(Execution(workers=2)) as ex:
        cluster = odds_tallies(2_000_000)
        cluster_games, _ = game_records(V, 1200, 4, parse_policies("heuristic", 4))
        assert len(ex.client().nthreads()) == 2
    assert tally_of(one) == tally_of(two) == tally_of(cluster)
    assert np.array_equal(one_games, cluster_games)


def _die_once(marker, task, states, sizes, chunks):
    """A cluster task that kills its worker process the first time it runs anywhere."""
    if not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return task(states, sizes, chunks)


def test_a_dead_workers_chunks_are_recomputed_with_the_same_result(tmp_path):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this file
    task = partial(odds_tally, dealing_of(V, None, -1, NO_CONDITION), *event_arrays(EVENTS))
    info = RunInfo("odds-fault-test", V.id, V.content_hash, {}, "sum")
    here = run_job(Job(task, "sum"), 5, 6 * CHUNK_DEALS)
    marker = tmp_path / "died"
    with executing(Execution(workers=2)):
        there = run_job(Job(partial(_die_once, str(marker), task), "sum", info), 5, 6 * CHUNK_DEALS)
    assert marker.exists()  # a worker did die
    assert there.deals == here.deals and np.array_equal(there.tally, here.tally)


def _json_run(args, env=None):
    done = subprocess.run([str(SCRIPT), *args, "--json"], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_ctrl_c_keeps_finished_chunks_and_a_rerun_resumes_to_the_uninterrupted_result(tmp_path):
    store = tmp_path / "s.duckdb"
    args = ["simulate", "--variant", "double-deck", "--hands", "1500000", "--seed", "9"]
    run = subprocess.Popen(
        [str(SCRIPT), *args, "--store", str(store), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None:  # wait for the first stored batch
        time.sleep(0.5)
        if store.exists() and len(Store(store).runs()):
            break
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=300)
    partial_run = json.loads(out)
    assert run.returncode == 130 and "Traceback" not in err, err[-2000:]
    assert partial_run["complete"] is False and 0 < partial_run["hands"] < 1_500_000
    kept = int(Store(store).runs()["deals"].sum())
    assert kept == partial_run["hands"]  # every finished chunk was kept, and only those
    resumed = _json_run([*args, "--store", str(store)])
    uninterrupted = _json_run([*args, "--no-store"])
    assert resumed == uninterrupted and resumed["complete"] is True


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_two_processes_writing_one_store_at_once(tmp_path):
    store = tmp_path / "s.duckdb"
    args = [
        str(SCRIPT),
        "odds",
        "double-pinochle",
        "--hands",
        "100000000",
        "--seed",
        "4",
        "--store",
        str(store),
        "--json",
    ]
    runs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [r.communicate(timeout=600) for r in runs]
    assert all(r.returncode == 0 for r in runs), [e[-2000:] for _, e in outs]
    first, second = (json.loads(o) for o, _ in outs)
    assert first == second
    stored = Store(store).runs()
    assert len(stored) == 1 and stored["deals"].iloc[0] == 25_000_000  # each chunk once
    assert _json_run(args[1:-1] + ["--no-store"]) == first


def test_runs_and_export(tmp_path, capsys):
    from simcore.cli import main

    store = str(tmp_path / "s.duckdb")
    assert main(["odds", "double-pinochle", "--hands", "200000", "--store", store, "--json"]) == 0
    assert main(["games", "--games", "600", "--store", store, "--json"]) == 0
    capsys.readouterr()
    assert main(["runs", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "2 runs" in out and "odds" in out and "games" in out
    assert main(["runs", "--store", store, "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)
    odds_run = next(r["run"] for r in runs if r["kernel"] == "odds")
    games_run = next(r["run"] for r in runs if r["kernel"] == "games")
    import pandas as pd

    assert main(["export", "--store", store, "--run", odds_run[:10], "--out", str(tmp_path / "o.csv")]) == 0
    odds = pd.read_csv(tmp_path / "o.csv")
    assert list(odds["deals"].unique()) == [50_000] and len(odds) == 3  # hands, deals, squares of one event
    direct = simulate_odds(V, [parse_event("double-pinochle", V)], 200_000, 1, exact=False)
    assert odds["value"].iloc[0] == round(direct.events[0].per_hand.estimate * 200_000)
    assert main(["export", "--store", store, "--run", games_run[:10], "--out", str(tmp_path / "g.parquet")]) == 0
    games = pd.read_parquet(tmp_path / "g.parquet")
    plain, _ = game_records(V, 600, 1, parse_policies("heuristic", 4))
    assert np.array_equal(games.drop(columns="chunk").to_numpy(), plain)
    assert main(["export", "--store", store, "--run", odds_run[:10], "--chunks", "--out", str(tmp_path / "c.csv")]) == 0
    assert sorted(pd.read_csv(tmp_path / "c.csv")["chunk"].unique()) == [0, 1]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["runs", "--store", "/nonexistent/x.duckdb"], "no such store"),
        (["export", "--out", "x.txt"], "ending in .parquet or .csv"),
        (["odds", "--hands", "1000", "--store", "/"], "is a directory"),
        (["odds", "--hands", "1000", "--scheduler", "localhost:8786"], "Dask scheduler address"),
        (["odds", "--hands", "1000", "--workers", "0"], "positive integer"),
        (["odds", "--hands", "1000", "--workers", "2", "--scheduler", "tcp://h:1"], "not allowed with"),
    ],
)
def test_bad_store_and_cluster_options_are_one_line(capsys, argv, words):
    from simcore.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_export_of_a_store_without_matching_runs_is_one_line(tmp_path, capsys):
    from simcore.cli import main

    store = str(tmp_path / "s.duckdb")
    Store(store)
    assert main(["export", "--store", store, "--out", str(tmp_path / "x.csv")]) == 2
    assert "no stored run" in capsys.readouterr().err


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_a_progress_bar_on_a_terminal_and_none_with_json():
    import fcntl
    import pty
    import struct
    import termios

    def stderr_of(*args):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a real terminal has a size
        run = subprocess.Popen(
            [str(SCRIPT), "simulate", "--hands", "600000", "--no-store", *args], stdout=subprocess.PIPE, stderr=slave
        )
        os.close(slave)
        chunks = []
        while True:  # read while it runs: a terminal holds only a few kilobytes
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the command closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        run.communicate(timeout=600)
        assert run.returncode == 0
        return b"".join(chunks).decode(errors="replace")

    bar = stderr_of()
    assert "hands/s" in bar and "<" in bar  # rate and time remaining
    assert stderr_of("--json").strip() == ""


def test_a_cluster_run_keeps_a_few_tasks_per_worker_in_flight(monkeypatch):
    # a fake client: futures finish when waited on, oldest first; the runner must never hold more than
    # IN_FLIGHT_PER_THREAD tasks per worker thread, and must still hand back every chunk once
    import distributed

    from simcore.run import runner

    class Future:
        def __init__(self, value):
            self.value = value

        def result(self):
            return self.value

    class Client:
        def __init__(self):
            self.live, self.most = [], 0

        def nthreads(self):
            return {"w1": 1, "w2": 1}

        def submit(self, fn, task, merge, seed, sizes, idx, pure):
            future = Future([int(k) for k in idx])
            self.live.append(future)
            self.most = max(self.most, len(self.live))
            return future

        def cancel(self, futures):
            pass

    client = Client()

    def wait(futures, timeout, return_when):
        done = client.live.pop(0)
        return {done}, set(futures) - {done}

    monkeypatch.setattr(distributed, "wait", wait)
    execution = SimpleNamespace(client=lambda: client)
    missing = list(range(40))  # 40 chunks, 2 threads: 3 chunks a task, 14 tasks
    seen = [
        k
        for idx, values in runner._cluster_batches(
            Job(None), 1, np.ones(40, dtype=np.int64), missing, threading.Event(), execution
        )
        for k in values
    ]
    assert sorted(seen) == missing and client.most == runner.IN_FLIGHT_PER_THREAD * 2
