"""A seeded fuzzer for the ``pinochle`` command: mutated rules files, ``--set`` values, event expressions
and hand strings, each run as a user would run it.

Every run must end in a result (exit 0, no NaN shown as a number) or a refusal (exit 2, one line on
stderr), within a time bound. Runs go to a worker process that imports the package once and answers
case after case; a case that outlives the bound is a hang, and the worker is replaced.

``tests/test_fuzz.py`` runs a short seeded batch in the suite (``--fuzz-long`` for a deep one);
``python tests/fuzzing.py --cases 2000`` prints the outcome table by command.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import random
import re
import tempfile
import time
import tomllib
import traceback
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

#: Sizes small enough that a case runs in about a second.
RUN_SIZE = {"odds": ["--hands", "2000"], "simulate": ["--hands", "64"], "games": ["--games", "3"]}
OUTCOMES = ("ran", "refused", "traceback", "hang", "nan shown", "messy refusal")
_NAN = re.compile(r"\bnan\b|\bNaN\b|\binf\b|Infinity", re.IGNORECASE)


@dataclass
class Case:
    """One command line, with the files it needs written first (name -> bytes, under a fresh folder)."""

    kind: str
    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def command(self) -> str:
        return self.argv[0]


def _shipped_text(vid: str) -> str:
    return (resources.files("simcore.variants") / "rules" / f"{vid}.toml").read_text(encoding="utf-8")


def _shipped_ids() -> list[str]:
    folder = resources.files("simcore.variants") / "rules"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def _toml_value(value) -> str:
    """``value`` in TOML (JSON's strings, numbers, booleans and arrays are TOML too)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(value)


def _toml(data: dict) -> str:
    top = [f"{k} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    tables = [
        f"\n[{k}]\n" + "\n".join(f"{json.dumps(sk)} = {_toml_value(sv)}" for sk, sv in v.items())
        for k, v in data.items()
        if isinstance(v, dict)
    ]
    return "\n".join(top) + "\n" + "\n".join(tables) + "\n"


_ODD_VALUES = [
    0,
    -1,
    1,
    2,
    7,
    2**63,
    2**64 + 5,
    2**53,
    9_007_199_254_740_992,
    10**7,
    1_000_001,
    "x",
    "",
    True,
    False,
    [1],
    [],
    1.5,
    float("nan"),
    {"a": 1},
    [[[[1]]]],
    "widow",
    "bidder_alone",
    "open",
]


def _mutated_rules(rng: random.Random) -> tuple[dict[str, bytes], str, str]:
    """(files, path of the file to load, how it was mutated) from a shipped rules file."""
    vid = rng.choice(_shipped_ids())
    data = tomllib.loads(_shipped_text(vid))
    kind = rng.choice(
        [
            "value",
            "value",
            "value",
            "delete",
            "delete",
            "add",
            "sizes",
            "choice",
            "broken",
            "bytes",
            "nested",
            "extends",
        ]
    )
    keys = [(t, k) for t, v in data.items() if isinstance(v, dict) for k in v] + [
        (None, k) for k, v in data.items() if not isinstance(v, dict)
    ]
    table, key = rng.choice(keys)
    where = data[table] if table else data
    text: bytes | None = None
    files: dict[str, bytes] = {}
    if kind == "value":
        where[key] = rng.choice(_ODD_VALUES)
    elif kind == "delete":
        del where[key]
    elif kind == "add":
        where[rng.choice(["colour", "double_pinochel", "target", "x_" + key])] = rng.choice(_ODD_VALUES)
    elif kind == "sizes":
        for t, k in rng.sample(
            [("deal", "players"), ("deal", "hand_size"), ("deal", "widow"), ("deck", "copies")], rng.randint(1, 3)
        ):
            data.setdefault(t, {})[k] = data.get(t, {}).get(k, 4) + rng.choice([-3, -1, 1, 2, 12])
    elif kind == "choice":
        choice_keys = [(t, k) for t, k in keys if isinstance((data[t] if t else data)[k], str)]
        table, key = rng.choice(choice_keys)
        (data[table] if table else data)[key] = rng.choice(["", "partners", "Open", "none ", "κ", "dealer"])
    elif kind == "broken":
        raw = _toml(data)
        cut = rng.randrange(len(raw))
        junk = rng.choice(["", "=", "[", '"', "]]", "\n[deck]\n"])
        text = (raw[:cut] + junk + raw[cut + rng.randint(0, 20) :]).encode()
    elif kind == "bytes":
        raw = _toml(data).encode()
        cut = rng.randrange(len(raw))
        text = raw[:cut] + rng.choice([b"\xff", b"\xc3", b"\x00", b"\xfe\xff"]) + raw[cut:]
    elif kind == "nested":
        depth = rng.choice([50, 1000, 5000])
        text = (_toml(data) + f"\n[meld]\nrun = {'[' * depth}{']' * depth}\n").encode()
    elif kind == "extends":
        form = rng.choice(["self", "grows", "unknown", "shipped", "loop2"])
        if form == "self":
            text = b'extends = "r.toml"\n'
        elif form == "grows":
            files["d/r.toml"] = b'extends = "../d/r.toml"\n'
            return files, "d/r.toml", "extends:grows"
        elif form == "unknown":
            text = b'extends = "no-such-variant"\nid = "x"\n'
        elif form == "loop2":
            files["a.toml"] = b'extends = "b.toml"\n'
            text = b'extends = "a.toml"\n'
        else:
            base = rng.choice(_shipped_ids())
            extra = rng.choice(
                [
                    f"\n[meld]\nrun = {rng.choice([0, 15, 150, 10_000, 10_001])}\n",
                    "\n[deal]\nplayers = 3\n",
                    f'\nid = "{base}-mine"\n',
                    "\n[game]\ntarget = 0\n",
                ]
            )
            text = f'extends = "{base}"\n{extra}'.encode()
    if text is None:
        text = _toml(data).encode()
    files["r.toml"] = text
    return files, "r.toml", f"{vid}:{kind}:{table}.{key}"


_SET_KEYS = None


def _set_pair(rng: random.Random) -> str:
    global _SET_KEYS
    if _SET_KEYS is None:
        from simcore.variants.schema import KEYS

        _SET_KEYS = sorted(KEYS)
    key = rng.choice(_SET_KEYS + ["meld.pinochel", "deal", "extends", "id", "", "game.target.x"])
    value = rng.choice(
        [
            "0",
            "-1",
            "1",
            "3",
            "9223372036854775808",
            "9007199254740992",
            "1e999",
            "nan",
            "inf",
            "true",
            "false",
            "abc",
            "[1, 2]",
            "[]",
            "'x'",
            '"open"',
            "bidder_alone",
            "redeal",
            "[[[[[[1]]]]]]",
            "[" * 2000 + "]" * 2000,
            "{a = 1}",
            "",
            "1_000",
            "0x10",
            "10000",
            "10001",
            "250",
        ]
    )
    return f"{key}={value}" if rng.random() > 0.05 else key


_EVENT_PARTS = [
    "double-pinochle",
    "aces-around",
    "five-nines",
    "redeal",
    "no-meld",
    "run",
    "roundhouse",
    "meld>=30",
    "meld>=0",
    "meld>=1000000",
    "meld>=1000001",
    "meld>=9223372036854775808",
    "meld>=" + "9" * 5000,
    "meld>=٣٠",
    "meld>=２０",
    "meld>=-5",
    "meld>=",
    "meld>= 30",
    "meld>=30\n",
    "double-pinochle\n",
    "",
    " ",
    "Pinochle",
    "meld>=3.5",
    "meld>=0x10",
    "meld≥30",
    "\x00",
    "é",
]


def _hand_string(rng: random.Random) -> str:
    ranks = ["A", "10", "T", "K", "Q", "J", "9", "8", "1", "X", "q"]
    suits = ["S", "H", "D", "C", "♠", "♥", "♦", "♣", "s", "X", ""]
    n = rng.choice([0, 1, 11, 12, 13, 15, 16, 20, 60])
    cards = [rng.choice(ranks) + rng.choice(suits) for _ in range(n)]
    sep = rng.choice([" ", ",", "  ", "\n", ""])
    return sep.join(cards)


def _dealt_hand(rng: random.Random, vid: str) -> str:
    """A hand the system can deal, as text: the odd inputs are nothing without the ordinary ones."""
    data = tomllib.loads(_shipped_text(vid))
    base = data if "deck" in data else tomllib.loads(_shipped_text(data["extends"]))
    deck = [f"{r}{s}" for r in base["deck"]["ranks"] for s in "SHDC" for _ in range(base["deck"]["copies"])]
    size = data.get("deal", {}).get("hand_size") or base["deal"]["hand_size"]
    return " ".join(rng.sample(deck, size))


def cases(seed: int, n: int) -> list[Case]:
    """``n`` seeded cases, in a fixed mix: rules files under odds, simulate and games; ``--set`` pairs;
    event expressions; hand strings."""
    rng = random.Random(seed)
    out: list[Case] = []
    for i in range(n):
        kind = ("rules", "rules", "rules", "set", "event", "hand")[i % 6]
        if kind == "rules":
            files, path, how = _mutated_rules(rng)
            for command in ("odds", "simulate", "games"):
                out.append(Case(f"rules {how}", [command, "--variant", path, *RUN_SIZE[command]], files))
        elif kind == "set":
            command = rng.choice(["odds", "simulate", "games"])
            vid = rng.choice(_shipped_ids())
            pairs = [_set_pair(rng) for _ in range(rng.randint(1, 2))]
            argv = [command, "--variant", vid, *RUN_SIZE[command]]
            for p in pairs:
                argv += ["--set", p]
            out.append(Case("set", argv))
        elif kind == "event":
            events = [rng.choice(_EVENT_PARTS) for _ in range(rng.randint(1, 2))]
            out.append(Case("event", ["odds", *events, "--hands", "2000", "--variant", rng.choice(_shipped_ids())]))
        else:
            vid = rng.choice(_shipped_ids())
            hand = _dealt_hand(rng, vid) if rng.random() < 0.4 else _hand_string(rng)
            argv = ["meld", hand, "--variant", vid]
            if rng.random() < 0.3:
                argv += ["--trump", rng.choice(["S", "♥", "x", "", "spades"])]
            out.append(Case("hand", argv))
    return out


def _worker(conn) -> None:
    os.environ["PINOCHLE_STORE"] = "off"
    os.environ.pop("DASK_SCHEDULER_ADDRESS", None)
    from simcore.cli import main

    while True:
        job = conn.recv()
        if job is None:
            return
        argv, folder = job
        out, err = io.StringIO(), io.StringIO()
        tb = None
        code = None
        cwd = os.getcwd()
        try:
            os.chdir(folder)
            with redirect_stdout(out), redirect_stderr(err):
                code = main(argv)
        except BaseException:  # noqa: BLE001 - anything escaping main is what the fuzzer looks for
            tb = traceback.format_exc()
        finally:
            os.chdir(cwd)
        conn.send((code, out.getvalue(), err.getvalue(), tb))


@dataclass
class Outcome:
    case: Case
    outcome: str
    seconds: float
    detail: str = ""


def classify(code, out: str, err: str, tb: str | None) -> tuple[str, str]:
    """(outcome, detail) of one finished run."""
    if tb is not None:
        return "traceback", tb.strip().splitlines()[-1]
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        if len(lines) != 1 or "Traceback" in err:
            return "messy refusal", err[:300]
        return "refused", lines[0]
    if code == 0:
        m = _NAN.search(out)
        if m:
            line = next(line for line in out.splitlines() if _NAN.search(line))
            return "nan shown", line.strip()[:200]
        return "ran", ""
    return "traceback", f"exit status {code}: {err.strip()[-300:]}"


class Runner:
    """Runs cases in a worker process, replacing it after a hang."""

    def __init__(self, limit: float):
        self.limit = limit
        self._ctx = multiprocessing.get_context("spawn")
        self._start()

    def _start(self) -> None:
        self._conn, child = self._ctx.Pipe()
        self._proc = self._ctx.Process(target=_worker, args=(child,), daemon=True)
        self._proc.start()

    def run(self, case: Case) -> Outcome:
        with tempfile.TemporaryDirectory() as folder:
            for name, data in case.files.items():
                path = Path(folder) / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            t0 = time.perf_counter()
            self._conn.send((case.argv, folder))
            if not self._conn.poll(self.limit):
                self._proc.kill()
                self._proc.join()
                self._start()
                return Outcome(case, "hang", time.perf_counter() - t0, f"no answer in {self.limit:.0f} s")
            try:
                code, out, err, tb = self._conn.recv()
            except (EOFError, OSError):  # the worker died: a crash is worse than a traceback
                self._proc.join()
                self._start()
                return Outcome(case, "traceback", time.perf_counter() - t0, "the worker process died")
            outcome, detail = classify(code, out, err, tb)
            return Outcome(case, outcome, time.perf_counter() - t0, detail)

    def close(self) -> None:
        try:
            self._conn.send(None)
        except OSError:
            pass
        self._proc.join(timeout=10)
        if self._proc.is_alive():
            self._proc.kill()


def run_cases(seed: int, n: int, limit: float = 60.0) -> list[Outcome]:
    runner = Runner(limit)
    try:
        # the first run pays for loading the compiled kernels; it is not a case
        runner.run(Case("warm-up", ["odds", "--hands", "1000"]))
        runner.run(Case("warm-up", ["odds", "meld>=30", "--hands", "1000"]))  # the exact meld kernels
        runner.run(Case("warm-up", ["games", "--games", "2"]))
        return [runner.run(c) for c in cases(seed, n)]
    finally:
        runner.close()


def table(results: list[Outcome]) -> str:
    """The outcome counts by command, as a Markdown table."""
    counts = Counter((r.case.command, r.outcome) for r in results)
    commands = sorted({r.case.command for r in results})
    lines = ["| command | " + " | ".join(OUTCOMES) + " |", "|---|" + "---|" * len(OUTCOMES)]
    for c in commands:
        lines.append(f"| {c} | " + " | ".join(str(counts[(c, o)]) for o in OUTCOMES) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=120)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--limit", type=float, default=60.0)
    a = parser.parse_args()
    t0 = time.time()
    res = run_cases(a.seed, a.cases, a.limit)
    print(f"{len(res)} runs from {a.cases} cases, seed {a.seed}, {time.time() - t0:.0f} s\n")
    print(table(res))
    bad = [r for r in res if r.outcome not in ("ran", "refused")]
    for r in bad:
        print(f"\n{r.outcome}: {r.case.kind}: {r.case.argv[:8]}\n  {r.detail}")
