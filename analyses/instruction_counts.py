"""Instructions a hand, a game or a deal takes, this checkout against another revision, counted by
valgrind's callgrind: the same code reads the same to about 1% at the default sizes whatever else the
machine runs, where seconds on these shared two-core machines spread by ±10% between rounds. (The
Python driver sizes its batches by the clock, so its own share moves: give a workload enough units that
the kernel's work dwarfs it; 200,000 dealt hands of 750 instructions each read 0.968 against
themselves.)

    python -m analyses.instruction_counts --against f8f75f9
    python -m analyses.instruction_counts --against HEAD~3 --workload hands:four-hand-150:50000

Each tree (this checkout, and ``--against`` checked out into a temporary git worktree) gets its own
numba cache (in a scratch directory: the checkout's own cache is neither read nor written), warmed
first without valgrind; the compiled code is pinned to one CPU, :data:`VALGRIND_CPU` (``NUMBA_CPU_NAME``
with no extra ``NUMBA_CPU_FEATURES``): x86-64 with AVX2 at most, which valgrind decodes (3.19 stops
with SIGILL at the first AVX-512 instruction numba emits for a host that has them), and the same for
the warm-up and the process under valgrind, whose CPU reads differently, so that this one loads the
cache instead of compiling under it. The counts are of that code, not the host's own: compare two
trees counted alike, not a count with a timing. A workload is run twice under
callgrind, with none and with N units after the same warm-up, and the difference divided by N is its
instructions a unit: the interpreter's start, the imports and the cache loads cancel out. The
workloads, ``MODE:VARIANT:N[:POLICY]`` (a kernel policy at every seat, the heuristic unless named; one
numba thread): ``hands`` (``simulate``), ``games`` (``play_games``) and ``meld`` (the bench's deal +
meld under every trump). The ratio printed is the other revision's instructions over this one's, the
speed this checkout would have if time followed instructions: it does not see cache misses, branch
mispredictions or code placement, so it bounds what the code does, and `pinochle bench` still times
it. Needs valgrind (Debian's package) and git.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WORKLOADS = (
    "hands:partnership:50000",
    "hands:four-hand-150:50000",
    "games:partnership:10000",
    "meld:four-hand-150:500000",
)
MODES = ("hands", "games", "meld")

#: The workload run in a tree (its own ``simcore`` on the path), written to a file so that a revision
#: older than this module runs it too: only long-standing public entry points (and the bench's deal +
#: meld driver) are called.
CHILD = """
import sys
import numba
numba.set_num_threads(1)
from simcore.kernels.policies import parse_policies
from simcore.variants import load_variant
mode, vid, n, policy = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
variant = load_variant(vid)
policies = parse_policies(policy, variant.players)
if mode == "hands":
    from simcore.answers.simulate import simulate
    run = lambda k: simulate(variant, k, 1, policies)
elif mode == "games":
    from simcore.answers.game_results import play_games
    run = lambda k: play_games(variant, k, 1, policies)
else:
    from simcore.answers.bench import _run
    run = lambda k: _run(variant, max(1, k // variant.players), 1)
run(8)
if n:
    run(n)
"""


class CountError(Exception):
    """A missing tool, an unknown revision or workload, or a run that failed: one line for the user."""


@dataclass(frozen=True)
class Workload:
    mode: str
    variant: str
    units: int
    policy: str = "heuristic"

    @classmethod
    def parse(cls, text: str) -> Workload:
        parts = text.split(":")
        if len(parts) not in (3, 4) or parts[0] not in MODES or not parts[2].isdigit() or int(parts[2]) < 1:
            raise CountError(
                f"--workload {text!r}: write MODE:VARIANT:N[:POLICY], MODE one of {', '.join(MODES)}, "
                "N at least 1, POLICY a kernel policy (default heuristic)"
            )
        return cls(parts[0], parts[1], int(parts[2]), *parts[3:])

    def __str__(self) -> str:
        tail = "" if self.policy == "heuristic" else f":{self.policy}"
        return f"{self.mode}:{self.variant}:{self.units}{tail}"


def instructions_of(valgrind_stderr: str) -> int:
    """The program's total instructions from callgrind's closing summary (``I   refs: 1,234``)."""
    found = re.findall(r"I\s+refs:\s+([\d,]+)", valgrind_stderr)
    if not found:
        raise CountError("callgrind printed no instruction total (is valgrind working?)")
    return int(found[-1].replace(",", ""))


def per_unit(with_none: int, with_units: int, units: int) -> float:
    """Instructions a unit: the run of ``units`` less the run of none, over ``units``."""
    return (with_units - with_none) / units


#: The CPU numba compiles for in the counted runs: LLVM's x86-64 level 3 (AVX2, BMI2, FMA; no AVX-512),
#: with none of the host's other features added, so that valgrind can run every instruction.
VALGRIND_CPU = "x86-64-v3"


def cpu_env() -> dict[str, str]:
    """The environment that pins numba's code to :data:`VALGRIND_CPU`, one thread, and Python's string
    hashing (so that the interpreter's own share of the two runs repeats as nearly as it can)."""
    return {
        "NUMBA_CPU_NAME": VALGRIND_CPU,
        "NUMBA_CPU_FEATURES": "",
        "NUMBA_NUM_THREADS": "1",
        "PYTHONHASHSEED": "0",
    }


class Tree:
    """A source tree with its own numba cache, where the child workload runs."""

    def __init__(self, label: str, path: Path, scratch: Path):
        self.label, self.path = label, path
        self.child = scratch / "child.py"
        cache = str(scratch / f"cache-{label}")
        self.env = {**os.environ, **cpu_env(), "PYTHONPATH": str(path), "NUMBA_CACHE_DIR": cache}

    def run(self, w: Workload, units: int, valgrind: bool) -> str:
        cmd = [sys.executable, str(self.child), w.mode, w.variant, str(units), w.policy]
        if valgrind:
            cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
        done = subprocess.run(cmd, cwd=self.path, env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise CountError(f"{self.label}: {w} failed: {last}")
        return done.stderr

    def count(self, w: Workload) -> float:
        """Instructions a unit of ``w`` in this tree (warms the cache first)."""
        self.run(w, 8, valgrind=False)
        none = instructions_of(self.run(w, 0, valgrind=True))
        some = instructions_of(self.run(w, w.units, valgrind=True))
        return per_unit(none, some, w.units)


def counts(against: str, workloads: Sequence[Workload], jobs: int = 2) -> list[tuple[Workload, float, float]]:
    """(workload, instructions a unit here, there) for each workload; ``against`` a git revision."""
    for tool in ("valgrind", "git"):
        if shutil.which(tool) is None:
            raise CountError(f"{tool} is not installed (apt-get install {tool})")
    with tempfile.TemporaryDirectory(prefix="instruction-counts-") as tmp:
        scratch = Path(tmp)
        (scratch / "child.py").write_text(CHILD)
        other = scratch / "tree"
        added = subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(other), against],
            capture_output=True,
            text=True,
        )
        if added.returncode != 0:
            why = (added.stderr.strip().splitlines() or ["git failed"])[-1]
            raise CountError(f"--against {against!r}: git cannot check it out ({why})")
        try:
            here, there = Tree("this", ROOT, scratch), Tree(against, other, scratch)
            with ThreadPoolExecutor(jobs) as pool:
                pairs = [(pool.submit(here.count, w), pool.submit(there.count, w)) for w in workloads]
                return [(w, a.result(), b.result()) for w, (a, b) in zip(workloads, pairs)]
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], capture_output=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analyses.instruction_counts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the git revision to compare with (e.g. f8f75f9)")
    parser.add_argument(
        "--workload",
        action="append",
        help=f"MODE:VARIANT:N[:POLICY], MODE one of {', '.join(MODES)}, POLICY the heuristic unless named "
        f"(repeatable; default: {' '.join(DEFAULT_WORKLOADS)})",
    )
    parser.add_argument("--jobs", type=int, default=2, help="valgrind runs at once (default 2)")
    args = parser.parse_args(argv)
    try:
        workloads = [Workload.parse(t) for t in (args.workload or DEFAULT_WORKLOADS)]
        rows = counts(args.against, workloads, max(1, args.jobs))
    except CountError as e:
        print(f"instruction_counts: {e}", file=sys.stderr)
        return 2
    width = max(len("workload"), *(len(str(w)) for w, _, _ in rows))
    print(f"{'workload':<{width}} {'this':>12} {args.against:>12} {'ratio':>7}")
    for w, here, there in rows:
        print(f"{str(w):<{width}} {here:>12,.0f} {there:>12,.0f} {there / here:>7.3f}")
    print("instructions a unit (hand, game or dealt hand); ratio = the other's over this checkout's")
    print(f"numba's code compiled for {VALGRIND_CPU} (AVX2 at most, which valgrind runs), not this host's CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
