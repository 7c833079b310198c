"""The numba cache keyed by the kernels' sources (simcore/kernel_cache.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from simcore.kernel_cache import ROOT, kernel_key, kernel_sources, keyed_cache_dir


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "simcore"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_sources_are_the_compiled_modules_and_what_they_import():
    names = {str(p.relative_to(ROOT)) for p in kernel_sources()}
    assert {"kernels/hand.py", "kernels/leaf.py", "solver/kernel.py"} <= names  # compiled
    assert {"cards.py", "variants/layout.py"} <= names  # constants a kernel freezes in
    assert "cli.py" not in names and "api.py" not in names


def test_a_changed_callee_changes_the_key_and_a_presentation_module_does_not(tmp_path):
    root = _copy(tmp_path)
    before = kernel_key(root)
    assert kernel_key(ROOT) == before  # the key depends on the bytes, not on where the checkout is
    (root / "cli.py").write_text((root / "cli.py").read_text() + "\n# a comment\n")
    assert kernel_key(root) == before
    cards = root / "cards.py"
    cards.write_text(cards.read_text() + "\nEXTRA = 1\n")  # a module imported by kernels, not compiled itself
    assert kernel_key(root) != before


def _cache_dir_seen(env: dict[str, str], first: str = "") -> str:
    code = f"{first}import simcore, numba.core.config as c; print(c.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_numba_uses_the_keyed_directory_unless_the_user_set_one(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    expected = str(keyed_cache_dir())
    assert _cache_dir_seen(env) == expected
    assert _cache_dir_seen(env, first="import numba; ") == expected  # numba imported before simcore
    assert _cache_dir_seen({**env, "NUMBA_CACHE_DIR": str(tmp_path)}) == str(tmp_path)


def test_the_notice_names_only_the_kernels_not_cached(tmp_path, monkeypatch):
    from simcore.kernel_cache import GAMES, HAND, SOLVER, compile_notice

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert compile_notice([HAND, GAMES, SOLVER]) == (
        "pinochle: compiling the hand kernel, the whole-game kernel and the double-dummy solver (first run only: "
        "about 96 s on 2 idle cores, more on a busy machine; kept for later runs)"
    )
    (tmp_path / "kernels_0123").mkdir()
    (tmp_path / "kernels_0123" / "hand.play_hand-201.py311.nbi").write_bytes(b"")
    assert compile_notice([HAND, GAMES]).startswith(
        "pinochle: compiling the whole-game kernel (first run only: about 10 s "
    )
    (tmp_path / "kernels_0123" / "game.games_chunk-276.py311.nbi").write_bytes(b"")
    assert compile_notice([HAND, GAMES]) is None


def test_a_first_run_says_so_on_stderr_and_keeps_stdout_the_answer(tmp_path, monkeypatch, capsys):
    import json

    from simcore.cli import main

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # looks cold to the notice (numba keeps its cache)
    assert main(["simulate", "--hands", "200", "--no-store", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["hands"] == 200
    assert err.startswith("pinochle: compiling the hand kernel (first run only: about ")
