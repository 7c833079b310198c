"""Chart conventions shared by every analysis: a colour-blind-safe palette, sizes readable where the
charts are shown (Markdown pages at about 800 px wide), and titles that state the rules and the count.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib import cycler, rc_context
from matplotlib.figure import Figure

#: Okabe & Ito's palette, safe for the common colour-vision deficiencies.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
#: A sequential colour map for heatmaps that stays readable in grey and for colour-blind readers.
SEQUENTIAL = "cividis"
FIGSIZE = (8.0, 4.8)
DPI = 110


#: DejaVu Sans ships inside matplotlib, so every machine has it (matplotlib lists its own fonts before the
#: system's, and ``font_manager.findfont`` picked its copy on the machine that wrote reports/).
STYLE = {
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.prop_cycle": cycler(color=PALETTE),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
}


def new_figure(rows: int = 1, cols: int = 1, size: tuple[float, float] = FIGSIZE):
    """(figure, axes) with the house style applied. The figure is not registered with pyplot, so a
    notebook shows it once (as the value returned) and a long report run holds no figures open."""
    with rc_context(STYLE):
        fig = Figure(figsize=size, dpi=DPI)
        axes = fig.subplots(rows, cols, squeeze=rows * cols == 1)
    return fig, axes


def panels(n: int, width: float = 4.0, height: float = 4.4):
    """(figure, list of ``n`` axes side by side), one panel per system, each ``width`` inches wide."""
    fig, axes = new_figure(1, max(1, n), size=(width * max(1, n), height))
    return fig, list(axes[0]) if n > 1 else [axes]


def title(what: str, variant_id: str, count: str) -> str:
    """A chart title that says what is shown, under which rules and from how much simulation."""
    return f"{what}\n{variant_id} · {count}"


def laid_out(fig: Figure) -> Figure:
    """Mark ``fig`` as laid out by its plot function (a legend placed outside the axes, say), so
    :func:`save` does not lay it out again."""
    fig.laid_out = True
    return fig


#: What a saved file says about its making: nothing that changes from run to run or with the version
#: of matplotlib (a PNG's "Software", a PDF's dates, "Creator" and "Producer"), so a rerun writes the same bytes.
METADATA = {
    ".png": {"Software": None},
    ".pdf": {"Creator": None, "CreationDate": None, "ModDate": None, "Producer": None},
}


def save(fig: Figure, path) -> None:
    """Write ``fig`` as a PNG, or a PDF when ``path`` ends in .pdf, at :data:`DPI`, with no metadata
    that varies (:data:`METADATA`)."""
    with rc_context(STYLE):
        if not getattr(fig, "laid_out", False):
            fig.tight_layout()
        fig.savefig(path, dpi=DPI, metadata=METADATA.get(Path(path).suffix.lower(), {}))
