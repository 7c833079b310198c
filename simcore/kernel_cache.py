"""Where numba keeps the compiled kernels: a directory named by a hash of the kernels' sources.

Numba's own cache checks only the source file of the function it loads. A kernel that calls a function
of another module, or reads another module's constants (frozen into the machine code at compile time),
would be served stale code after that other module changed. Keying the whole cache by the sources of
every module numba compiles from, and of every simcore module those import (transitively), makes any
such change start a fresh cache: the price is one full compile after each change to a kernel module.

The directory is ``simcore/__pycache__/numba/<key>`` of the checkout the code runs from (numba mirrors
each source path below it). A ``NUMBA_CACHE_DIR`` set by the user is left alone. When a new key first
appears, the caches of older keys are pruned, keeping the most recent few.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: The package's root folder (``simcore/``).
ROOT = Path(__file__).resolve().parent
#: Source text that marks a module numba compiles from.
COMPILED = re.compile(r"^\s*@(?:numba\.)?(?:njit|jit|leaf|vectorize|guvectorize)\b", re.M)
#: ``from simcore.x.y import a, b`` and ``import simcore.x.y`` at a module's top level: a kernel reads only
#: its own module's globals, which come from those (an import inside a Python function cannot feed one).
IMPORT = re.compile(
    r"^(?:from[ \t]+(simcore(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
    r"|import[ \t]+(simcore(?:\.\w+)+))",
    re.M,
)
#: Caches of older keys kept beside the current one (another branch checked out and back, say).
KEEP_OLDER = 2


def _module_files(module: str, root: Path) -> list[Path]:
    """The file that defines ``module`` (dotted, from ``simcore``): ``a/b.py``, or ``a/b/__init__.py`` for a
    package; nothing for a name that is not a module. The packages on the way run too, but the names
    imported come from this file alone, so only it can feed a kernel."""
    path = root.joinpath(*module.split(".")[1:])
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.is_file():
            return [candidate]
    return []


def _imports(path: Path, root: Path) -> set[Path]:
    """The simcore source files a module imports (a ``from simcore.p import m`` counts ``m`` when
    ``m`` is a module)."""
    found: set[Path] = set()
    for m in IMPORT.finditer(path.read_text(encoding="utf-8")):
        module = m.group(1) or m.group(3)
        found.update(_module_files(module, root))
        names = re.sub(r"#[^\n]*", "", m.group(2) or "")  # a comment's words are not names
        for name in re.findall(r"\w+", names):
            found.update(_module_files(f"{module}.{name}", root))
    return found


def kernel_sources(root: Path = ROOT) -> list[Path]:
    """Every module under ``root`` that numba compiles from, and every simcore module those import,
    transitively; sorted."""
    todo = [
        p for p in root.rglob("*.py") if "__pycache__" not in p.parts and COMPILED.search(p.read_text(encoding="utf-8"))
    ]
    seen = set(todo)
    while todo:
        for dep in _imports(todo.pop(), root):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def kernel_key(root: Path = ROOT) -> str:
    """SHA-256 (hex, 16 digits) of the paths and bytes of :func:`kernel_sources`."""
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def keyed_cache_dir(root: Path = ROOT) -> Path:
    """The cache directory for the kernels as they are now."""
    return root / "__pycache__" / "numba" / kernel_key(root)


def _prune(current: Path) -> None:
    """Deletes the caches of older keys beside ``current``, but the :data:`KEEP_OLDER` most recent."""
    older = sorted(
        (p for p in current.parent.iterdir() if p.is_dir() and p != current),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for stale in older[KEEP_OLDER:]:
        shutil.rmtree(stale, ignore_errors=True)


def use_keyed_cache() -> Path | None:
    """Points numba's cache at :func:`keyed_cache_dir` unless ``NUMBA_CACHE_DIR`` is already set; the
    directory used, or None when the user's is kept. Call before numba compiles anything."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    try:
        path = keyed_cache_dir()
        if not path.is_dir():
            path.mkdir(parents=True)
            _prune(path)
    except OSError:  # a read-only checkout: numba falls back to its own locations
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba imported first: it has read its environment already
        config.CACHE_DIR = str(path)
    return path


@dataclass(frozen=True)
class Kernel:
    """A kernel a command compiles on its first run: how a player reads its name, the module file and
    function that mark it compiled (numba's index file ``<module>.<function>-<line>.py311.nbi``), and
    about how long its compile takes on the project's 2-core machine when nothing else runs (seconds,
    from ``python -m simcore.compile_times``; a busy machine takes two or three times as long)."""

    name: str
    module: str
    function: str
    seconds: int


HAND = Kernel("the hand kernel", "hand", "play_hand", 26)
GAMES = Kernel("the whole-game kernel", "game", "games_chunk", 10)
ODDS = Kernel("the odds kernel", "odds", "odds_chunk", 10)
SOLVER = Kernel("the double-dummy solver", "kernel", "search", 60)


def compiled(kernel: Kernel) -> bool:
    """Whether numba's cache in use holds the kernel (compiled for the sources as they are now)."""
    where = os.environ.get("NUMBA_CACHE_DIR")
    folder = Path(where) if where else ROOT
    return folder.is_dir() and any(folder.rglob(f"{kernel.module}.{kernel.function}-*.nbi"))


def compile_notice(kernels: Sequence[Kernel]) -> str | None:
    """What a command says before its first run compiles ``kernels`` (those not cached), else None."""
    todo = [k for k in kernels if not compiled(k)]
    if not todo:
        return None
    names = todo[0].name if len(todo) == 1 else ", ".join(k.name for k in todo[:-1]) + " and " + todo[-1].name
    return (
        f"pinochle: compiling {names} (first run only: about {sum(k.seconds for k in todo)} s on 2 idle "
        "cores, more on a busy machine; kept for later runs)"
    )
