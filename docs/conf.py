"""Sphinx configuration: numpydoc API reference, MyST pages, executed examples (myst-nb).

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (``.ci/run`` does).
The API pages are generated from the public names of the package on each build.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import mjfast  # noqa: E402

project = "mjfast"
author = "mjfast developers"
copyright = "mjfast developers"
release = version = mjfast.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",
    "mjfast_docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "jupyter_execute"]
root_doc = "index"
language = "en"

html_theme = "furo" if __import__("importlib").util.find_spec("furo") else "alabaster"
html_title = f"mjfast {release}"
html_static_path = ["_static"]
html_css_files = ["mjfast.css"]

# API reference
autosummary_generate = True
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# MyST / myst-nb: examples run at build time, each notebook in its own folder
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3
nb_execution_mode = "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# the rule texts are the project's specification, copied as written: their heading levels skip
# (a "###" right after the title) and they use 'X | Y' tables wider than the page
suppress_warnings = ["myst.header"]


# ---------------------------------------------------------------------------------------------
# API pages from the public names
# ---------------------------------------------------------------------------------------------
def _names(module, names):
    out = []
    for name in names:
        obj = getattr(module, name)
        if inspect.ismodule(obj) or name.startswith("__"):
            continue
        out.append(name)
    return out


def _api_page() -> str:
    from mjfast import rules, scoring, tiles
    from mjfast.analysis import plotting

    top = {id(getattr(mjfast, n)) for n in mjfast.__all__}

    def own(module, names):
        # a name also exported by mjfast itself is documented there, once
        return [n for n in _names(module, names) if id(getattr(module, n)) not in top]

    plot_names = [
        n
        for n in ("use_cjk_font", "installed_cjk_fonts", "glyph_font", "tile_label", "CJKFontWarning")
        if hasattr(plotting, n)
    ]
    from mjfast.analysis import payout

    payout_names = [
        n
        for n in ("UNITS", "LOSS_THRESHOLD", "DEFAULT_N_GAMES", "base_stake", "stack_games", "match_results")
        if hasattr(payout, n)
    ]
    sections = [
        (
            "mjfast",
            "The package: hands, shanten, 进张, decompositions, calls, scores, simulations, plots.",
            _names(mjfast, mjfast.__all__),
        ),
        ("mjfast.rules", "The rules registry (one module per variant; see the rule pages).", own(rules, rules.__all__)),
        (
            "mjfast.scoring",
            "Scoring: one scorer per rule (``score``, ``can_win``, ``WinContext``, ``Score``, "
            "``register`` and ``scorers`` are listed under mjfast).",
            own(scoring, scoring.__all__),
        ),
        (
            "mjfast.tiles",
            "Tile ids, codes and parsing (``parse_tiles`` and the ``to_*`` converters are listed under mjfast).",
            own(tiles, tiles.__all__),
        ),
        (
            "mjfast.analysis.plotting",
            "``mj.plotting``: plot fonts and labels (the plot functions are listed under mjfast).",
            plot_names,
        ),
        (
            "mjfast.analysis.payout",
            "Payout statistics: units, one-unit stakes and stacked tables "
            "(``payout_summary``, ``compare_rules`` and ``element_frequencies`` are listed under mjfast).",
            payout_names,
        ),
    ]
    lines = [
        "API reference",
        "=============",
        "",
        "Generated from the docstrings of the public names. Examples in them are run by the test suite.",
        "",
    ]
    for module, text, names in sections:
        lines += [
            module,
            "-" * len(module),
            "",
            text,
            "",
            f".. currentmodule:: {module}",
            "",
            ".. autosummary::",
            "   :toctree: generated",
            "",
        ]
        lines += [f"   {n}" for n in names]
        lines.append("")
    return "\n".join(lines)


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text("utf-8") != text:
        path.write_text(text, "utf-8")


_write_if_changed(HERE / "api.rst", _api_page())
# stubs of names that are no longer public would linger (and warn) otherwise
__import__("shutil").rmtree(HERE / "generated", ignore_errors=True)


# the notebooks live in notebooks/ (run by the test suite); the site shows them executed
_NB_SRC, _NB_DST = HERE.parent / "notebooks", HERE / "notebooks"
_NB_DST.mkdir(exist_ok=True)
for _nb in sorted(_NB_SRC.glob("*.ipynb")):
    _write_if_changed(_NB_DST / _nb.name, _nb.read_text("utf-8"))
