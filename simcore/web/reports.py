"""The committed report's files the pages show: the house-rule verdicts (``house-rules-*.csv``) and
each system's bidding card (``<system>-card.png``/``.pdf``/``.md``).

They are read from the ``reports/`` folder of the source tree the package runs from (a checkout); an
installed copy without it says so on the page. Files are served from a list made here by listing the
folder, never from a name joined to a path: a browser can only pick one of those listed.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

#: The report's folder in a source checkout (``simcore/`` sits beside it).
REPORTS = Path(__file__).resolve().parents[2] / "reports"
#: What a served report file may be, by suffix, with its media type.
MEDIA = {
    ".png": "image/png",
    ".pdf": "application/pdf",
    ".md": "text/markdown; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
}


@dataclass(frozen=True)
class Card:
    """One system's bidding card: its id and the names of its files in the report folder."""

    system: str
    png: str | None
    pdf: str | None
    md: str | None


def served(folder: Path = REPORTS) -> dict[str, Path]:
    """{file name: path} of every report file a page may link to."""
    if not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.iterdir()) if p.is_file() and p.suffix in MEDIA}


def cards(folder: Path = REPORTS) -> list[Card]:
    """Each system's bidding card found in the report."""
    files = served(folder)
    systems = sorted(
        {name[: -len("-card.md")] for name in files if name.endswith("-card.md")}
        | {name[: -len("-card.png")] for name in files if name.endswith("-card.png")}
    )

    def have(name: str) -> str | None:
        return name if name in files else None

    return [Card(s, have(f"{s}-card.png"), have(f"{s}-card.pdf"), have(f"{s}-card.md")) for s in systems]


def card_text(card: Card, folder: Path = REPORTS) -> str:
    """The card's Markdown text (empty when it has none)."""
    return (folder / card.md).read_text(encoding="utf-8") if card.md else ""


def card_html(card: Card, folder: Path = REPORTS) -> str:
    """The card's Markdown text as HTML for the page (empty when it has none): its tables as HTML
    tables (readable on a phone, where the PNG's text is too small), headings one level down (the page
    has its own), links to report files pointed at ``/reports/``, other links and the images left out
    (the page shows the PNG itself). Raw HTML in the text is escaped."""
    text = card_text(card, folder)
    return markdown_html(text, served(folder)) if text else ""


def markdown_html(text: str, files: dict | frozenset = frozenset()) -> str:
    """A card's Markdown as HTML for the page (:func:`card_html`): links to ``files`` pointed at
    ``/reports/``, other links as their text, images left out, raw HTML escaped."""
    import mistune

    class Renderer(mistune.HTMLRenderer):
        def heading(self, text: str, level: int, **attrs) -> str:
            return super().heading(text, min(level + 1, 6), **attrs)

        def link(self, text: str, url: str, title: str | None = None) -> str:
            return super().link(text, f"/reports/{url}", title) if url in files else text

        def image(self, text: str, url: str, title: str | None = None) -> str:
            return ""

    return mistune.create_markdown(renderer=Renderer(escape=True), plugins=["table"])(text)


def house_rules(folder: Path = REPORTS) -> list[dict]:
    """The committed house-rule verdicts, one dict per question and measure (the CSV's columns; numbers
    as floats, NaN as None)."""
    path = folder / "house-rules-house_rules.csv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as f:
        return [{k: _value(v) for k, v in row.items()} for row in csv.DictReader(f)]


def _value(text: str):
    if text in ("True", "False"):
        return text == "True"
    try:
        x = float(text)
    except ValueError:
        return text
    return None if math.isnan(x) else (int(x) if x.is_integer() and "." not in text and "e" not in text else x)
