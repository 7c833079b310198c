"""The layers only import downward: no import from a lower layer to a higher one.

The order (lowest first) is the one docs/architecture.md states: a module may import modules of its own
layer and of the layers below, at load or inside a function (where a heavy module is imported only when
a command needs it); nothing reaches up, not even inside a function.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Lowest first; a module belongs to the longest prefix listed.
LAYERS = (
    ("simcore.kernel_cache", "simcore.cards", "simcore.kernels.hand_record", "simcore.kernels.leaf"),
    ("simcore.variants",),  # the rules
    ("simcore.kernels",),  # the numba kernels
    ("simcore.reference", "simcore.run"),  # the plain engine; running and statistics
    ("simcore.solver",),  # the double-dummy solver
    ("simcore.state",),  # the per-decision game API and the sampling player
    ("simcore.answers",),  # one answer per command
    ("simcore.strong",),  # the players that ask the answers; the duels
    ("simcore.api", "analyses"),  # the Python API; the report's analyses
    ("simcore.commands", "simcore.web"),  # one module per subcommand; the web pages
    ("simcore.cli",),  # the pinochle command
    ("simcore.compile_times",),  # a profiler wrapping the command
)


def layer_of(module: str) -> int | None:
    """The index in LAYERS of ``module`` (dotted), by its longest listed prefix; None outside them."""
    best, best_len = None, -1
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best_len:
                best, best_len = i, len(p)
    return best


def imports_of(path: Path, inside_functions: bool = False) -> list[tuple[int, str]]:
    """(line, dotted module) of each import at the top level of ``path`` (not in a function or class), or
    with ``inside_functions`` of every import anywhere in it; a ``from package import name`` counts as the
    submodule ``package.name`` where that is a module."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree) if inside_functions else tree.body:
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                is_module = (ROOT / Path(*sub.split("."))).with_suffix(".py").exists() or (
                    ROOT / Path(*sub.split(".")) / "__init__.py"
                ).exists()
                found.append((node.lineno, sub if is_module else node.module))
    return found


def sources() -> list[tuple[Path, str]]:
    """(path, dotted module) of every module of simcore/ and analyses/ (a package as its ``__init__``)."""
    found = []
    for path in sorted(p for d in ("simcore", "analyses") for p in (ROOT / d).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found.append((path, ".".join(parts[:-1] if parts[-1] == "__init__" else parts)))
    return found


def test_every_module_is_in_a_layer():
    # the package roots hold no code of their own
    assert [m for _, m in sources() if layer_of(m) is None and m not in ("simcore", "analyses")] == []


def upward_imports(inside_functions: bool) -> list[str]:
    """Each import of a module of simcore/ or analyses/ that reaches a higher layer, as "path:line (its
    layer) imports target (their layer)"; at load only, or with ``inside_functions`` anywhere."""
    upward = []
    for path, module in sources():
        own = layer_of(module)
        for line, target in imports_of(path, inside_functions):
            theirs = layer_of(target)
            if own is not None and theirs is not None and theirs > own:
                upward.append(
                    f"{path.relative_to(ROOT)}:{line} ({LAYERS[own][0]}) imports {target} ({LAYERS[theirs][0]})"
                )
    return upward


def test_no_module_imports_a_higher_layer_at_load():
    assert upward_imports(inside_functions=False) == []


def test_no_module_reaches_a_higher_layer_even_inside_a_function():
    # an import inside a function hides a cycle from the load but not from the design: the players that
    # ask the answers sit above them (simcore.strong), and what the sampling player reads of the
    # auction sits with the kernels
    assert upward_imports(inside_functions=True) == []


def test_the_check_sees_an_upward_import(tmp_path):
    # the check itself: a kernel importing an answer at load is reported
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy\nfrom simcore.answers import odds\n\ndef f():\n    from simcore import cli\n")
    assert [t for _, t in imports_of(bad)] == ["numpy", "simcore.answers.odds"]
    assert [t for _, t in imports_of(bad, inside_functions=True)][-1] == "simcore.cli"
    assert layer_of("simcore.answers.odds") > layer_of("simcore.kernels.hand") > layer_of("simcore.cards")
    assert layer_of("simcore.kernels.hand_record") < layer_of("simcore.variants.loader")


def test_no_function_is_over_120_lines():
    # a function that long does several jobs; split it by job (a command's arguments beside its handler)
    long = []
    for path, module in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > 120:
                    long.append(f"{module}.{node.name}: {lines} lines")
    assert long == []


#: Kernels still over the limit, each named: none may join, and one that drops under it must leave.
OVER_8_ARGUMENTS: set[str] = set()


def _kernel_parameters() -> dict[str, int]:
    """{module.function: its parameter count} of every numba kernel (``@njit``/``@leaf``, called or not)
    of simcore/."""
    found = {}
    for path, module in sources():
        if not module.startswith("simcore"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            names = [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
            if any(n in ("njit", "numba.njit", "jit", "numba.jit", "leaf") for n in names):
                a = node.args
                found[f"{module}.{node.name}"] = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
    return found


def test_no_kernel_takes_over_8_arguments():
    # a kernel's state travels in records (the rules, the hand's work, the solver's work, the trick)
    counts = _kernel_parameters()
    # the walk finds the kernels, of the answers too
    assert len(counts) > 100 and counts["simcore.kernels.hand.play_hand"] == 7
    assert counts["simcore.answers.exact._fixed_trump_counts"] == 7
    over = {name for name, n in counts.items() if n > 8}
    assert over - OVER_8_ARGUMENTS == set(), "over 8 arguments: pass a record"
    assert OVER_8_ARGUMENTS - over == set(), "now within 8 arguments: take it off the list"
