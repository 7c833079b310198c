"""Every notebook runs top to bottom, and its outputs stay fresh.

Two checks keep the committed notebooks honest without rerunning them at full size:

* the committed notebooks are a real default run: every code cell ran, in order, without error, and
  every table or paragraph a notebook shows as Markdown appears word for word in the committed report
  (``reports/*.md``, itself a default run of ``pinochle report``), so notebooks and report were made by
  the same code from the same numbers;
* the code still produces what was recorded: run at the small size (``PINOCHLE_NOTEBOOK_SIZE=small``),
  each notebook's text outputs match ``tests/golden/notebooks/<name>.txt``. After a change that moves
  the numbers on purpose, rerecord with ``PINOCHLE_RECORD_NOTEBOOKS=1 pytest tests/test_notebooks.py``
  and regenerate the committed notebooks (README, "Notebooks").
"""

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
GOLDEN = Path(__file__).parent / "golden" / "notebooks"


def test_there_is_a_notebook_per_analysis():
    names = {p.stem for p in NOTEBOOKS}
    assert {"rare_melds", "meld_distribution", "redeal", "partner", "bid_strategy", "house_rules", "systems"} <= names


def text_outputs(cells) -> str:
    """The text a notebook shows (results, printed text, Markdown), one block per output: what a
    reader compares, without images."""
    out = []
    for i, cell in enumerate(c for c in cells if c["cell_type"] == "code"):
        for o in cell.get("outputs", []):
            if o["output_type"] == "stream":
                text = o["text"]
            elif o["output_type"] in ("execute_result", "display_data"):
                data = o["data"]
                text = data.get("text/markdown") or data.get("text/plain", "")
            else:
                text = f"{o['output_type']}: {o.get('ename', '')}"
            out.append(f"--- cell {i}\n" + ("".join(text) if isinstance(text, list) else text).rstrip())
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebook_is_the_default_run_the_report_shows(path):
    cells = json.loads(path.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1)), "not run top to bottom"
    assert all(o["output_type"] != "error" for c in code for o in c["outputs"])
    report = "\n".join(p.read_text() for p in (ROOT / "reports").glob("*.md"))
    shown = [
        ("".join(o["data"]["text/markdown"])).strip()
        for c in code
        for o in c["outputs"]
        if o["output_type"] in ("execute_result", "display_data") and "text/markdown" in o["data"]
    ]
    for block in shown:
        assert block in report, f"{path.name} shows a table or paragraph the committed report does not:\n{block[:300]}"
    sizes = [o for c in code for o in c["outputs"] if "Sizes(" in "".join(o.get("data", {}).get("text/plain", ""))]
    assert all("Sizes(dealt=4000000" in "".join(o["data"]["text/plain"]) for o in sizes), "not the default size"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_gives_the_recorded_outputs(path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("PINOCHLE_NOTEBOOK_SIZE", "small")
    book = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        book, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent.parent)}}
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    assert all(cell.get("outputs") is not None for cell in book.cells if cell.cell_type == "code")
    got = text_outputs(book.cells)
    golden = GOLDEN / f"{path.stem}.txt"
    if os.environ.get("PINOCHLE_RECORD_NOTEBOOKS"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(got)
    assert golden.exists(), f"no recorded run: PINOCHLE_RECORD_NOTEBOOKS=1 pytest {__file__}"
    assert got == golden.read_text(), f"{path.name} at the small size no longer gives {golden.name}"
