"""The documentation a user reads: notebooks that show their figures, and rule citations that resolve.

The notebooks are executed here (not through nbmake) so that their outputs can be checked: a cell
that draws must show an image, and no example may switch matplotlib to a non-interactive backend
(``matplotlib.use("Agg")`` hides every inline figure).
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# a cell draws when it makes a figure or calls one of mjfast's plot functions
_DRAWS = re.compile(r"plt\.(subplots|figure)\(|\bmj\.plot_\w+\(")


def _execute(path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()     # raises CellExecutionError naming the cell on any error
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_shows_its_figures(path):
    nb = _execute(path)
    drawing = [c for c in nb.cells if c.cell_type == "code" and _DRAWS.search(c.source)]
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert "matplotlib.use(" not in cell.source, "a notebook must not switch off inline figures"
    for cell in drawing:
        images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert images, f"this cell draws but shows no figure:\n{cell.source}"
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []


def test_notebooks_with_figures_exist():
    # the two notebooks whose point is a figure
    names = {p.stem for p in NOTEBOOKS}
    assert {"01_yijinting", "03_rule_payouts"} <= names


def test_plotting_examples_keep_inline_figures():
    # user-facing examples: no backend switch in any docstring of the package
    src = ROOT / "src" / "mjfast"
    offenders = [str(p.relative_to(ROOT)) for p in src.rglob("*.py") if "matplotlib.use(" in p.read_text("utf-8")]
    assert offenders == []
