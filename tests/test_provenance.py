"""Rules provenance: every key a shipped rules file changes says where its value comes from.

A key *changes* when the value the file sets differs from its parent's resolved value: the loaded value of
the ``extends`` target, or the schema default (``simcore/variants/schema.py``) for a file that extends
nothing. Keys equal to their parent's value need nothing, and the top-level metadata keys (:data:`EXEMPT`)
are not rules. Every changed key needs a provenance comment: the trailing comment of the key's line (any
line of a multi-line array counts), or the comment lines directly above the key (no blank line between).
The comment must do one of:

* cite a document: ``seeds/00N``, or the word ``document``/``documents`` when the file's ``source`` names a
  ``seeds/00N`` document;
* say ``tuned`` (``policy.margin`` only: bidding margins come from ``pinochle tune``, not from a document);
* say ``assumed`` — and then an entry of the file's ``assumptions`` list, or of a file it extends, must
  cover the key. A comment that says ``assumed`` needs the entry even when it also cites a document.

An ``assumptions`` entry *covers* ``section.key`` when it names it as a whole word: the dotted name
(``play.head_when_trumped``), or the bare key name when that holds an underscore (``double_run``,
``min_bid``). One-word key names (``run``, ``kind``, ``points``, ``target``) are ordinary words in
prose, so those keys are covered only by their dotted name. Or the entry's label, the text before its
first colon, is a group word of :data:`GROUPS`: ``meld table``/``singles`` (the single meld values and
the dix), ``doubles`` (``meld.double_*``), ``multiples`` (every multiple meld value), ``sequences``
(runs and marriages of every multiplicity), ``groups``/``arounds``, ``pinochles``, ``chips``
(``settlement.*``), or the name of a rules table other than ``meld`` (``tricks: ...`` covers ``tricks.*``).

The test checks that a claim is there and that an assumption is listed, not that the claim is true:
whether a quoted phrase says what the value says is for review against ``/work/shared/seeds``.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

import pytest

from simcore.variants import load_variant, shipped_ids
from simcore.variants.schema import KEYS, MULTIPLICITY_PREFIXES, TABLES

#: Top-level keys that name or describe the file; they are not rules.
EXEMPT = frozenset({"id", "name", "description", "source", "scale", "assumptions", "extends"})

CITES = re.compile(r"\bseeds/\d{3}\b")
DOCUMENT = re.compile(r"\bdocuments?\b", re.IGNORECASE)
ASSUMED = re.compile(r"\bassumed\b", re.IGNORECASE)
TUNED = re.compile(r"\btuned\b", re.IGNORECASE)
TUNED_KEYS = frozenset({"policy.margin"})


@dataclass(frozen=True)
class KeyLine:
    """Where a key is set in the raw text and the comments that go with it."""

    line: int  # 1-based line of the key
    comment: str  # trailing comments of its line(s) and the comment lines directly above, joined


def _split_comment(line: str) -> tuple[str, str]:
    """(code, comment) of one TOML line: the comment starts at the first ``#`` outside a string."""
    quote = None
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i], line[i + 1 :].strip()
        i += 1
    return line, ""


def _depth(code: str) -> int:
    """Open brackets minus closed ones in the code part of a line (strings already removed)."""
    bare = re.sub(r'"(?:\\.|[^"\\])*"|\'[^\']*\'', "", code)
    return bare.count("[") + bare.count("{") - bare.count("]") - bare.count("}")


def scan(text: str) -> dict[str, KeyLine]:
    """Every key the raw text sets, dotted (``meld.run``), with its line and comments."""
    lines = text.splitlines()
    found: dict[str, KeyLine] = {}
    section = None
    above: list[str] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped:
            above = []
        elif stripped.startswith("#"):
            above.append(stripped[1:].strip())
        elif header := re.fullmatch(r"\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?", stripped):
            section, above = header[1], []
        elif key := re.match(r"([A-Za-z0-9_-]+)\s*=", stripped):
            dotted = f"{section}.{key[1]}" if section else key[1]
            comments = list(above)
            start, depth = i, 0
            while True:  # a multi-line array: every line up to the closing bracket
                code, comment = _split_comment(lines[i])
                depth += _depth(code[code.index("=") + 1 :] if i == start else code)
                if comment:
                    comments.append(comment)
                if depth <= 0 or i + 1 == len(lines):
                    break
                i += 1
            found[dotted] = KeyLine(start + 1, " ".join(comments))
            above = []
        else:
            above = []
        i += 1
    return found


def _flat(data: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update({f"{key}.{sub}": v for sub, v in value.items()})
        else:
            out[key] = value
    return out


def _default(key: str) -> Any:
    spec = KEYS[key]
    return float(spec.default) if spec.kind is float and spec.default is not None else spec.default


SINGLES = (
    "meld.run",
    "meld.royal_marriage",
    "meld.marriage",
    "meld.aces_around",
    "meld.kings_around",
    "meld.queens_around",
    "meld.jacks_around",
    "meld.pinochle",
    "meld.dix",
)

#: Group words: an ``assumptions`` entry whose label (the text before its first colon) is one of these
#: covers the keys the patterns match. A rules table's name covers its table (``tricks: ...``), except
#: ``meld``, whose groups are narrower.
GROUPS: dict[str, tuple[str, ...]] = {
    "meld table": SINGLES,
    "singles": SINGLES,
    "doubles": ("meld.double_*",),
    "multiples": tuple(f"meld.{p}*" for p in MULTIPLICITY_PREFIXES[1:]),
    "sequences": ("meld.*run", "meld.*marriage"),
    "groups": ("meld.*_around",),
    "arounds": ("meld.*_around",),
    "pinochles": ("meld.*pinochle",),
    "chips": ("settlement.*",),
    **{table: (f"{table}.*",) for table in TABLES if table != "meld"},
}


def covers(entry: str, key: str) -> bool:
    """Does an ``assumptions`` entry cover ``key``: name it (dotted, or bare when the bare name has an
    underscore), or carry a group word of :data:`GROUPS` as its label?"""
    names = [key]
    bare = key.split(".")[-1]
    if "_" in bare:
        names.append(bare)
    if any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w])", entry) for n in names):
        return True
    label = entry.split(":", 1)[0].strip().lower() if ":" in entry else None
    return any(fnmatch.fnmatchcase(key, pattern) for pattern in GROUPS.get(label, ()))


def problems(
    text: str, parent: str | None = None, parent_assumptions: list[str] | None = None, parent_source: str = ""
) -> list[str]:
    """What is wrong with one rules file's provenance, one line per key (empty: all good).

    ``parent`` is the ``extends`` target's id; its loaded values give the parent values and its
    ``assumptions`` and ``source`` apply. Without ``parent`` the parent values are the schema defaults
    and ``parent_assumptions``/``parent_source`` (for tests) stand in for the chain.
    """
    data = _flat(tomllib.loads(text))
    lines = scan(text)
    assumptions = list(parent_assumptions or [])
    parent_values: dict[str, Any] = {}
    source = data.get("source", parent_source)
    parent = data.get("extends", parent)
    if parent is not None:
        base = load_variant(parent)
        assumptions = list(base.get("assumptions")) + assumptions
        source = data.get("source", base.source)
        parent_values = dict(base.values)
    assumptions += list(data.get("assumptions", []))
    found = []
    for key, value in data.items():
        if key in EXEMPT:
            continue
        was = parent_values.get(key) if parent is not None else _default(key)
        if key in KEYS and KEYS[key].kind is float and value is not None:
            value = float(value)
        if value == was and type(value) is type(was):
            continue
        where = lines.get(key)
        if where is None:
            found.append(f"{key}: set but not found by the line scan")
            continue
        comment = where.comment
        head = f"line {where.line}: {key} = {value!r} (parent {was!r})"
        if ASSUMED.search(comment):
            if not any(covers(entry, key) for entry in assumptions):
                found.append(f"{head}: marked assumed, but no `assumptions` entry names {key}")
        elif CITES.search(comment) or (DOCUMENT.search(comment) and CITES.search(source)):
            continue
        elif TUNED.search(comment) and key in TUNED_KEYS:
            continue
        else:
            found.append(
                f"{head}: no provenance comment (seeds/00N, document, assumed"
                + (", tuned" if key in TUNED_KEYS else "")
                + ")"
            )
    return found


def _shipped_text(vid: str) -> str:
    return (resources.files("simcore.variants") / "rules" / f"{vid}.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("vid", shipped_ids())
def test_every_changed_key_of_a_shipped_file_names_its_source(vid):
    found = problems(_shipped_text(vid))
    assert not found, f"{vid}.toml:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("vid", shipped_ids())
def test_the_line_scan_finds_every_key_tomllib_reads(vid):
    text = _shipped_text(vid)
    assert set(scan(text)) == set(_flat(tomllib.loads(text)))


SYNTHETIC = """\
id = "synthetic"
name = "Synthetic"
description = "provenance check test"
source = "seeds/000 somewhere"
assumptions = [
    "meld.dix = 1: the common table",  # covers meld.dix by its dotted name
    "double_pinochle 30: pagat",
]

[meld]
run = 15                 # seeds/000: "run 15"
marriage = 2
pinochle = 4             # assumed: common table
dix = 1                  # assumed
double_pinochle = 30     # assumed (pagat)
aces_around = 0          # equal to the default: needs nothing
# document: "kings around 8" (a citation on the line above)
kings_around = 8

[play]
lead = "bidder"          # tuned
follow_must_head = "always"  # the document says so

[tricks]
points = [
    1, 1, 1,
    0, 0, 0,
]                        # seeds/000: "A, 10, K"

[policy]
margin = 0.25            # tuned
"""


def test_the_check_reports_an_uncited_key_and_an_unlisted_assumption():
    found = problems(SYNTHETIC)
    keys = sorted(line.split(": ")[1].split(" = ")[0] for line in found)
    assert keys == ["meld.marriage", "meld.pinochle", "play.lead"], found
    assert any("meld.marriage" in f and "no provenance" in f for f in found)
    assert any("meld.pinochle" in f and "no `assumptions` entry" in f for f in found)
    # "tuned" is provenance for the bidding margin only
    assert any("play.lead" in f and "no provenance" in f for f in found)


def test_document_is_a_citation_only_when_the_source_names_a_document():
    text = SYNTHETIC.replace('source = "seeds/000 somewhere"', 'source = "house rules"')
    keys = {line.split(": ")[1].split(" = ")[0] for line in problems(text)}
    assert {"meld.kings_around", "play.follow_must_head"} <= keys
    assert "meld.run" not in keys  # seeds/000 cited by name


def test_a_key_changed_from_the_parent_needs_a_source_and_an_equal_one_does_not():
    parent = load_variant("double-pack")
    same = parent.get("auction.min_bid")
    text = (
        'extends = "double-pack"\nid = "child"\nname = "c"\ndescription = "d"\nsource = "seeds/001"\n\n'
        f"[auction]\nmin_bid = {same}\n\n[game]\ntarget = {parent.get('game.target') + 1000}\n"
    )
    found = problems(text)
    assert len(found) == 1 and "game.target" in found[0], found


def test_an_assumption_covers_by_dotted_name_or_underscored_bare_name():
    assert covers("play.head_when_trumped = false: pagat", "play.head_when_trumped")
    assert covers("double_run 150 (pagat)", "meld.double_run")
    assert not covers("triple_double_run", "meld.double_run")
    assert not covers("a run is 15", "meld.run")  # one-word names only dotted
    assert covers("meld.run 15: pagat", "meld.run")
    assert not covers("meld.run_extra_king 0", "meld.run")


def test_an_assumption_covers_by_its_group_label_only():
    assert covers("doubles: double run 150 (pagat)", "meld.double_run")
    assert not covers("doubles: double run 150 (pagat)", "meld.run")
    assert covers("meld table: run 15, marriage 2", "meld.marriage")
    assert not covers("meld table: run 15", "meld.double_marriage")
    assert covers("tricks: A, 10, K 10 each", "tricks.last_trick")
    assert not covers("the tricks: A, 10, K", "tricks.points")  # the label must be the group word itself
    assert not covers("meld: anything", "meld.run")  # no group covers the whole meld table
