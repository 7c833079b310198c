"""Every notebook runs top to bottom (at a small size: PINOCHLE_NOTEBOOK_SIZE=small)."""

import os
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_is_a_notebook_per_analysis():
    names = {p.stem for p in NOTEBOOKS}
    assert {"rare_melds", "meld_distribution", "redeal", "partner", "bid_strategy", "house_rules",
            "systems"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("PINOCHLE_NOTEBOOK_SIZE", "small")
    book = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(book, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent.parent)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    assert os.environ["PINOCHLE_NOTEBOOK_SIZE"] == "small"
    assert all(cell.get("outputs") is not None for cell in book.cells if cell.cell_type == "code")
