"""Notebooks: every notebook in notebooks/ runs headless and is committed stripped.

Each notebook runs with nbclient on the ``python3`` kernel. jupyter_client
finds that kernelspec under this interpreter's ``sys.prefix`` (ipykernel
installs it in the venv) and starts it with this interpreter, so the kernel
imports the same ``pipeline``. ``POKERPIPE_NOTEBOOK_ROWS`` keeps the archives
small. The notebooks write under ``data/processed/notebook/`` (not
versioned), and so does the test: each notebook as executed, outputs and
plots included, is left there under its own name (what ``make notebooks``
leaves to read); nothing in the notebooks folder is modified.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import nbclient
import nbformat
import pytest

from pipeline.formats import writers

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
ROWS = 5000
#: Seconds one cell may run, and the kernel may take to start: each bounds a wait that could hang.
CELL_TIMEOUT = 300
KERNEL_START_TIMEOUT = 120

NOTEBOOK_OUT = ROOT / "data" / "processed" / "notebook"
#: Files each notebook must (re)write, relative to the repository root.
ARTEFACTS = {
    "category_frequencies.ipynb": [
        *(NOTEBOOK_OUT / f"holdem_{p}p_seed{p}.parquet" for p in (2, 6, 10)),
        *(NOTEBOOK_OUT / "run" / name
          for name in ("summary.json", "categories.csv", "ties.csv", "winners.csv", "rejects.csv")),
        *(NOTEBOOK_OUT / "showdowns" / name for name in ("summary.json", "categories.csv")),
        *(NOTEBOOK_OUT / folder / name for folder in ("players", "players-all", "players-real")
          for name in ("summary.json", "players.csv")),
        NOTEBOOK_OUT / "pluribus.png",
    ],
}

# Appended to the in-memory copy only: which interpreter ran the kernel.
PROBE = "import sys; print('KERNEL_PREFIX=' + sys.prefix)"


def _ids(paths: list[Path]) -> list[str]:
    return [path.name for path in paths]


def executed_copy(path: Path) -> Path:
    """Where the executed copy of the notebook ``path`` is left: data/processed/notebook/<name>."""
    return NOTEBOOK_OUT / path.name


def write_executed(notebook: nbformat.NotebookNode, path: Path) -> None:
    """Leave ``notebook``, executed, as :func:`executed_copy` of ``path``: written under a temporary
    name beside it and renamed into place, so a reader finds the previous copy or the new one whole."""
    copy = nbformat.from_dict(notebook)
    copy.cells = [cell for cell in copy.cells if cell.source != PROBE]
    with writers.atomic_path(executed_copy(path)) as temporary:
        nbformat.write(copy, temporary)


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "no notebooks in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_stripped(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    dirty = [index for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"
             and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: code cells {dirty} have outputs or execution counts; strip them"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel inherits this process's environment.
    monkeypatch.setenv("POKERPIPE_NOTEBOOK_ROWS", str(ROWS))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    committed = path.read_bytes()
    started = time.time()
    client = nbclient.NotebookClient(
        notebook, timeout=CELL_TIMEOUT, startup_timeout=KERNEL_START_TIMEOUT, kernel_name="python3",
        allow_errors=False, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()  # raises CellExecutionError on the first failing cell
    finally:  # a notebook that fails is left too, with the error where it stopped
        write_executed(notebook, path)

    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    stderr = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stderr")
    assert not stderr, f"{path.name} wrote to stderr:\n{stderr}"
    probe = notebook.cells[-1].outputs[0].text.strip()
    assert probe == f"KERNEL_PREFIX={sys.prefix}", f"the kernel ran outside this environment: {probe}"

    for artefact in ARTEFACTS.get(path.name, []):
        assert artefact.is_file(), f"{path.name} did not write {artefact.relative_to(ROOT)}"
        assert artefact.stat().st_mtime >= started - 1, \
            f"{artefact.relative_to(ROOT)} is left over from an earlier run"

    # The executed copy: whole, this run's, the notebook's own cells with their outputs; the
    # committed notebook is as it was.
    copy_path = executed_copy(path)
    assert copy_path.is_file(), f"{path.name}: no executed copy at {copy_path.relative_to(ROOT)}"
    assert copy_path.stat().st_mtime >= started - 1, f"{copy_path.relative_to(ROOT)} is from an earlier run"
    copy = nbformat.read(copy_path, as_version=4)
    nbformat.validate(copy)
    sources = [cell.source for cell in nbformat.read(path, as_version=4).cells]
    assert [cell.source for cell in copy.cells] == sources
    code = [cell for cell in copy.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in code)
    copied = [output for cell in code for output in cell.outputs]
    assert copied, f"{copy_path.relative_to(ROOT)} has no outputs"
    assert copied == outputs[:len(copied)] and len(outputs) == len(copied) + 1  # all but the probe's
    plots = [cell for cell in code if "plt.show()" in cell.source]
    assert all(any("image/png" in o.get("data", {}) for o in cell.outputs) for cell in plots), \
        f"{copy_path.relative_to(ROOT)}: a plot cell without its image"
    assert path.read_bytes() == committed
    assert not [name for name in NOTEBOOK_OUT.iterdir() if name.name.startswith(f".{path.name}.")]

    if path.name == "category_frequencies.ipynb":
        images = [o for o in outputs if "image/png" in o.get("data", {})]
        # Five drawn in the notebook, and the picture pokerpipe players --plot drew, shown.
        assert len(images) == 6, f"expected 6 plots, got {len(images)}"
        assert len(plots) + 1 == len(images)
        summary = json.loads((NOTEBOOK_OUT / "run" / "summary.json").read_text(encoding="utf-8"))
        assert [record["rows"] for record in summary["inputs"]] == [ROWS] * 3
        assert summary["rows_scored"] == 3 * ROWS and summary["rows_rejected"] == 0
