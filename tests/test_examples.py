"""Every `$ pinochle ...` example in README.md and docs/*.md, run at its stated seed and size.

The format rule (also in docs/testing.md):

* An example is a fenced block (```) whose first line starts with ``$ pinochle ``. Each line of it
  that starts with ``$ `` is a command; the lines after it, up to the next ``$ `` line or the block's
  end, are what the command prints on stdout, exactly.
* A command is ``pinochle ARGS`` split as a shell would (quotes), optionally followed by ``| head -N``
  and/or ``| tail -N``; nothing else (no other program, no redirection). It runs in this process through
  ``simcore.cli.main`` with the results store off, and must exit 0.
* A fenced ```` ```python ```` block directly followed by a plain fenced block is a Python example: the
  code runs as a notebook cell would (the value of a last bare expression is printed with ``repr``),
  the blocks of one file in order and in one namespace, and the plain block is what it prints. A
  ```` ```python ```` block with no block right after it is not run.
* A block right after an HTML comment ``<!-- not checked: REASON -->`` (blank lines between allowed) is
  not run; the test lists those with their reasons and requires the reason to be stated.

Normalisation, applied to both the expected and the printed text before comparing, and nothing else:
elapsed times (a number followed by `` s`` or `` ms``, e.g. ``1.1 s``) become ``<time>`` and rates
(a number, optionally with ``k`` or ``M``, followed by ``hands/s``, ``games/s`` or ``deals/s``) become
``<rate>``; trailing spaces are dropped. Every other character must match, counts of searched
positions included.

``PINOCHLE_UPDATE_EXAMPLES=1 pytest tests/test_examples.py`` rewrites each checked example's output with
what the command prints now (read the diff before committing it).
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOT_CHECKED = re.compile(r"<!--\s*not checked:\s*(.*?)\s*-->", re.S)
PIPE = re.compile(r"\s*\|\s*(head|tail)\s+-(\d+)\s*$")
TIME = re.compile(r"\b\d[\d,]*(?:\.\d+)? m?s\b")
RATE = re.compile(r"\b\d[\d,]*(?:\.\d+)? ?[kM]? (?:hands|games|deals)/s\b")


@dataclass
class Command:
    """One ``$ pinochle ...`` line of an example and the output it states (lines, without newlines)."""

    argv: list[str]
    pipes: list[tuple[str, int]]
    expected: list[str]
    line: int  # 1-based line of the ``$`` line in its file


@dataclass
class Example:
    path: Path
    line: int  # 1-based line of the opening fence
    index: int  # its place among the file's examples, from 0
    commands: list[Command]
    not_checked: str | None  # the stated reason, or None when the example is run


def markdown_files() -> list[Path]:
    """README.md and every docs/*.md, the files whose examples are checked."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def parse_command(text: str, line: int) -> Command:
    """A ``$ `` line's command: ``pinochle`` and its arguments, then its ``| head``/``| tail`` steps."""
    pipes = []
    while m := PIPE.search(text):
        pipes.insert(0, (m.group(1), int(m.group(2))))
        text = text[: m.start()]
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    argv = list(lexer)
    if not argv or argv[0] != "pinochle" or any(set(a) <= set("|<>;&()") for a in argv):
        raise ValueError(f"line {line}: an example command must be `pinochle ARGS [| head -N] [| tail -N]`: {text}")
    return Command(argv[1:], pipes, [], line)


def examples(path: Path) -> list[Example]:
    """The examples of one Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found, i = [], 0
    while i < len(lines):
        if not (lines[i].startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("$ pinochle ")):
            i += 1
            continue
        start = i
        before = "\n".join(lines[max(0, start - 6) : start]).rstrip()
        reason = NOT_CHECKED.search(before.rsplit("```", 1)[-1]) if before.endswith("-->") else None
        commands: list[Command] = []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            if lines[i].startswith("$ "):
                commands.append(parse_command(lines[i][2:], i + 1) if reason is None else Command([], [], [], i + 1))
            elif commands:
                commands[-1].expected.append(lines[i])
            i += 1
        found.append(Example(path, start + 1, len(found), commands, reason.group(1) if reason else None))
        i += 1
    return found


@dataclass
class PythonExample:
    """A ```python block (its code) and the plain block right after it (its printed output)."""

    line: int  # 1-based line of the python block's fence
    code: str
    expected: list[str]
    output_line: int  # 1-based line of the output block's opening fence


def python_examples(path: Path) -> list[PythonExample]:
    """The Python examples of one Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() != "```python":
            i += 1
            continue
        end = lines.index("```", i + 1)
        if end + 1 < len(lines) and lines[end + 1] == "```":
            close = lines.index("```", end + 2)
            found.append(PythonExample(i + 1, "\n".join(lines[i + 1 : end]), lines[end + 2 : close], end + 2))
            i = close + 1
        else:
            i = end + 1
    return found


def run_cell(code: str, namespace: dict) -> str:
    """What the code prints, and the repr of its last bare expression (not None), as a notebook shows it."""
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(tree, "<example>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<example>", "eval"), namespace)
            if value is not None:
                print(repr(value))
    return out.getvalue()


def all_examples() -> list[Example]:
    return [e for path in markdown_files() for e in examples(path)]


def normalised(lines: list[str]) -> list[str]:
    """The lines with times and rates replaced by placeholders and trailing spaces dropped."""
    return [TIME.sub("<time>", RATE.sub("<rate>", line)).rstrip() for line in lines]


def piped(text: str, pipes: list[tuple[str, int]]) -> list[str]:
    """stdout as lines, after the command's ``head``/``tail`` steps."""
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    for kind, n in pipes:
        out = out[:n] if kind == "head" else out[-n:] if n else []
    return out


def _id(example: Example) -> str:
    return f"{example.path.relative_to(ROOT)}:{example.line}"


CHECKED = [e for e in all_examples() if e.not_checked is None]
PYTHON = [path for path in markdown_files() if python_examples(path)]
UNCHECKED = [e for e in all_examples() if e.not_checked is not None]


def test_examples_are_found():
    """The README holds examples, and every one is either checked or says why not."""
    readme = [e for e in CHECKED if e.path.name == "README.md"]
    assert len(readme) >= 3, "the README's tour should show at least three checked examples"
    for example in UNCHECKED:
        assert example.not_checked, f"{_id(example)}: a `not checked` comment must give its reason"
    listing = "\n".join(f"  {_id(e)}: {e.not_checked}" for e in UNCHECKED)
    print(f"{len(CHECKED)} examples checked, {len(UNCHECKED)} not checked:\n{listing}")


def test_format_rule_parses_pipes_and_refuses_other_programs():
    cmd = parse_command("pinochle solve --seed 7 'a b' | head -9 | tail -2", 1)
    assert cmd.argv == ["solve", "--seed", "7", "a b"] and cmd.pipes == [("head", 9), ("tail", 2)]
    assert piped("1\n2\n3\n4\n", cmd.pipes[:1] + [("tail", 2)]) == ["3", "4"]
    for bad in ("grep x README.md", "pinochle odds > out.txt", "pinochle odds | grep x"):
        with pytest.raises(ValueError):
            parse_command(bad, 1)


def test_normalisation_touches_only_times_and_rates():
    assert normalised(
        ["seed 1, 1.1 s  ", "(0.04 s, 19,794 trick starts searched)", "474 k hands/s", "48.6 M hands/s", "12 ms"]
    ) == ["seed 1, <time>", "(<time>, 19,794 trick starts searched)", "<rate>", "<rate>", "<time>"]
    assert normalised(["S 48  H 36", "meld>=30 0.00265 [0.0026, 0.0027]", "1 in 393"]) == [
        "S 48  H 36",
        "meld>=30 0.00265 [0.0026, 0.0027]",
        "1 in 393",
    ]


def _rewrite(example: Example, outputs: list[list[str]]) -> None:
    """Writes the outputs into the example, found again by its place (earlier rewrites move lines)."""
    lines = example.path.read_text(encoding="utf-8").split("\n")
    now = examples(example.path)[example.index]
    for command, out in sorted(zip(now.commands, outputs), key=lambda c: -c[0].line):
        start = command.line  # index of the first expected line (0-based) is the $ line's 1-based number
        lines[start : start + len(command.expected)] = out
    example.path.write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.parametrize("example", CHECKED, ids=_id)
def test_example(example, capsys, monkeypatch):
    from simcore.cli import main

    monkeypatch.setenv("PINOCHLE_STORE", "off")
    outputs = []
    for command in example.commands:
        capsys.readouterr()
        status = main(command.argv)
        out = piped(capsys.readouterr().out, command.pipes)
        assert status == 0, f"{example.path.name}:{command.line}: exit status {status}"
        outputs.append(out)
    if os.environ.get("PINOCHLE_UPDATE_EXAMPLES"):
        _rewrite(example, outputs)
        return
    for command, out in zip(example.commands, outputs):
        assert normalised(out) == normalised(command.expected), (
            f"{example.path.name}:{command.line}: `pinochle {shlex.join(command.argv)}` prints otherwise"
        )


@pytest.mark.parametrize("path", PYTHON, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples(path, monkeypatch):
    monkeypatch.setenv("PINOCHLE_STORE", "off")
    namespace: dict = {}
    for index, example in enumerate(python_examples(path)):
        out = piped(run_cell(example.code, namespace), [])
        if os.environ.get("PINOCHLE_UPDATE_EXAMPLES"):
            lines = path.read_text(encoding="utf-8").split("\n")
            now = python_examples(path)[index]
            lines[now.output_line : now.output_line + len(now.expected)] = out
            path.write_text("\n".join(lines), encoding="utf-8")
            continue
        assert normalised(out) == normalised(example.expected), (
            f"{path.name}:{example.line}: the Python example prints otherwise"
        )


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file (lower case, punctuation dropped, spaces
    to hyphens)."""
    heads = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_links_between_pages_resolve():
    """Every relative link of README.md and docs/*.md names a file that exists, and its #anchor a heading."""
    broken = []
    for path in markdown_files():
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"\w+://", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in _anchors(dest)):
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "links that lead nowhere: " + ", ".join(broken)
