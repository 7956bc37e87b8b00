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
    client = nbclient.NotebookClient(
        nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError naming the cell on any error
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


# ---------------------------------------------------------------------------------------------
# rule options: each has a meaning, its values explained, and a source
# ---------------------------------------------------------------------------------------------
def _seed_texts():
    """The seed documents, when this checkout sits beside the project's shared folder."""
    for folder in (ROOT.parent / "shared" / "seeds", Path("/work/shared/seeds")):
        if folder.is_dir():
            return "".join(p.read_text("utf-8") for p in sorted(folder.glob("*.txt")))
    return None


def _normalise(text):
    # the seeds carry pinyin after some characters ("無(wú)花") and stray spaces
    text = re.sub(r"\([a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü ]+\)", "", text)
    return re.sub(r"\s+", "", text)


def test_every_option_is_explained():
    from mjfast import rules

    for name in rules.names():
        module = rules._REGISTRY[name]
        docs = module.OPTION_DOCS
        assert list(docs) == list(module.OPTIONS), name
        for key, allowed in module.OPTIONS.items():
            doc = docs[key]
            assert doc["meaning"], (name, key)
            assert list(doc["values"]) == list(allowed), (name, key)  # every value, default first
            assert all(doc["values"].values()), (name, key)
            # a spec id, a seed sentence, or at least the spec text naming the option
            page = "ruijin_shangrao" if name in ("ruijin", "shangrao") else name
            named = f"{name}.{key}" in (ROOT / "docs" / "rules" / f"{page}.md").read_text("utf-8")
            assert doc["spec"] or doc["source"] or named, f"{name}.{key}: no spec id, source or spec text"
        table = rules.describe(name)
        options = table[table.section == "options"]
        assert list(options.item) == list(module.OPTIONS)
        for key, meaning in zip(options.item, options.meaning):
            assert meaning.startswith(docs[key]["meaning"])
            assert f"{rules._text(module.OPTIONS[key][0])} (default)" in meaning


def test_option_sources_are_quoted_from_the_seeds():
    from mjfast import rules

    seeds = _seed_texts()
    if seeds is None:
        pytest.skip("the seed documents are not beside this checkout (they are not shipped)")
    seeds = _normalise(seeds)
    missing = []
    for name in rules.names():
        for key, doc in rules._REGISTRY[name].OPTION_DOCS.items():
            for part in re.split(r" / |…", doc["source"] or ""):
                if part and _normalise(part) not in seeds:
                    missing.append(f"{name}.{key}: {part}")
    assert missing == []


# ---------------------------------------------------------------------------------------------
# citations: every spec id, rule file and section the package cites exists on the site
# ---------------------------------------------------------------------------------------------
def _site():
    import importlib.util

    spec = importlib.util.spec_from_file_location("mjfast_docs", ROOT / "docs" / "_ext" / "mjfast_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sources():
    src = ROOT / "src" / "mjfast"
    for path in sorted(list(src.rglob("*.py")) + list(src.rglob("*.pyx")) + list(src.rglob("*.pyi"))):
        yield path.relative_to(ROOT), path.read_text("utf-8")


_SECTION_CITE = re.compile(r"(?<![\w/.-])(?:rules/)?([A-Za-z_]+)\.md,? §(\d+(?:\.\d+)*)")


def test_cited_spec_ids_resolve():
    site = _site()
    index = site.spec_index()
    cited = {}
    for path, text in _sources():
        for m in site.SPEC_ID.finditer(text):
            cited.setdefault(m.group(0), str(path))
    assert len(cited) > 50  # the package cites its spec throughout
    missing = {spec: path for spec, path in cited.items() if spec not in index}
    assert missing == {}, "cited ids that no rule page defines"


def test_cited_rule_files_and_sections_resolve():
    site = _site()
    pages = {p.stem: p.read_text("utf-8") for p in (ROOT / "docs" / "rules").glob("*.md")}
    bad = []
    for path, text in _sources():
        for m in site.SPEC_FILE.finditer(text):
            if m.group(1) not in pages:
                bad.append(f"{path}: {m.group(0)}")
        for m in _SECTION_CITE.finditer(text):
            stem, number = m.groups()
            if stem in pages and number not in site.numbered_sections(pages[stem]):
                bad.append(f"{path}: {m.group(0)} (no section {number})")
        if "/work/" in text or "shared/rules" in text:
            bad.append(f"{path}: cites a development machine's path")
    assert bad == [], "\n".join(bad)


def test_every_rule_module_has_its_page():
    from mjfast import rules

    pages = {p.stem: p.read_text("utf-8") for p in (ROOT / "docs" / "rules").glob("*.md")}
    for name in rules.names():
        page = "ruijin_shangrao" if name in ("ruijin", "shangrao") else name
        assert f"{{mjfast-options}} {name}" in pages[page], f"rules/{page}.md does not list {name}'s options"
