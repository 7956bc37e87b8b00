"""Sphinx glue for mjfast's documentation: rule-specification anchors, links and tables.

* Every spec id (``SZ-C6``, ``GB-A3``, ``G-A1`` …) defined in a rule page -- a table row whose
  first cell starts with the id -- becomes an anchor of that row (``#sz-c6``), and every
  numbered section (``## 4. Win shapes``) also gets ``#sec-4``. The same parsing is used by
  ``tests/test_docs.py`` to check that each id the package cites is defined.
* Every spec id and every ``rules/<file>.md`` / ``RULES.md`` mention in ordinary text (API
  docstrings included, but not code or literal blocks) is turned into a link; an id that no
  page defines is a build warning (an error under ``-W``).
* ``{mjfast-options} NAME`` renders a rule's options from ``mjfast.rules.<NAME>.OPTION_DOCS``:
  meaning, values, default, spec id and the seed sentence.
* ``{mjfast-cli}`` renders ``mjfast --help`` and each subcommand's help.
"""

from __future__ import annotations

import re
from pathlib import Path

#: A spec id: a variant prefix (G = all variants), A (ambiguity/default) or C (contradiction), a number.
SPEC_ID = re.compile(r"(?<![\w-])(?:G|SZ|TC|GD|SC|GY|RS|JH|GB|JJ)-[AC]\d+(?![\w-])")
#: A citation of a rule file: ``rules/suzhou.md``, ``RULES.md``, ``yijinting.md`` …
SPEC_FILE = re.compile(r"(?<![\w/.-])(?:rules/)?([A-Za-z_]+)\.md\b")
_ROW_ID = re.compile(r"^\|\s*((?:G|SZ|TC|GD|SC|GY|RS|JH|GB|JJ)-[AC]\d+)(?![\w-])", re.M)
_SECTION = re.compile(r"^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s", re.M)

RULES_DIR = Path(__file__).resolve().parents[1] / "rules"


def defined_ids(text: str) -> list[str]:
    """The spec ids a rule page defines (table rows whose first cell starts with the id)."""
    return _ROW_ID.findall(text)


def numbered_sections(text: str) -> list[str]:
    """The section numbers of a rule page (``"4"``, ``"1.7"`` …)."""
    return _SECTION.findall(text)


#: The page of each id prefix; RULES.md repeats every variant's contradictions in its index table.
PREFIX_PAGE = {
    "G": "RULES",
    "SZ": "suzhou",
    "TC": "taicang",
    "GD": "guangdong",
    "SC": "sichuan",
    "GY": "guiyang",
    "RS": "ruijin_shangrao",
    "JH": "jinhua",
    "GB": "guobiao",
    "JJ": "jj",
}


def spec_index(rules_dir: Path = RULES_DIR) -> dict[str, str]:
    """Spec id -> the page (file stem) that defines it: its variant's page where that defines it."""
    found: dict[str, list[str]] = {}
    for path in sorted(rules_dir.glob("*.md")):
        for spec in defined_ids(path.read_text("utf-8")):
            found.setdefault(spec, []).append(path.stem)
    return {
        spec: PREFIX_PAGE[spec.split("-")[0]] if PREFIX_PAGE[spec.split("-")[0]] in pages else pages[0]
        for spec, pages in found.items()
    }


def anchor(spec: str) -> str:
    return spec.lower()


# ---------------------------------------------------------------------------------------------
# Sphinx
# ---------------------------------------------------------------------------------------------
def _setup_sphinx(app):
    from docutils import nodes
    from docutils.parsers.rst import Directive
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    index = spec_index()
    pages = {p.stem for p in RULES_DIR.glob("*.md")}

    def on_doctree_read(app, doctree):
        docname = app.env.docname
        if not docname.startswith("rules/"):
            return
        for row in doctree.findall(nodes.row):
            entries = [e for e in row.children if isinstance(e, nodes.entry)]
            if not entries:
                continue
            m = SPEC_ID.match(entries[0].astext().strip())
            if m and m.group(0) in index and anchor(m.group(0)) not in row["ids"]:
                row["ids"].append(anchor(m.group(0)))
        for section in doctree.findall(nodes.section):
            title = section.next_node(nodes.title)
            m = re.match(r"(\d+(?:\.\d+)*)\.?\s", title.astext()) if title is not None else None
            if m:
                section["ids"].append("sec-" + m.group(1).replace(".", "-"))

    skip = (
        nodes.literal,
        nodes.literal_block,
        nodes.doctest_block,
        nodes.reference,
        nodes.title,
        nodes.raw,
        nodes.comment,
    )

    def on_doctree_resolved(app, doctree, docname):
        builder = app.builder
        for text in list(doctree.findall(nodes.Text)):
            parent = text.parent
            if parent is None or any(isinstance(a, skip) for a in _ancestors(text)):
                continue
            source = str(text)
            pieces, last = [], 0
            for m in _mentions(source):
                kind, value = m
                start, end = value.span()
                target = None
                if kind == "id":
                    spec = value.group(0)
                    page = index.get(spec)
                    if page is None:
                        logger.warning(
                            f"spec id {spec} is cited but no rule page defines it", location=(docname, parent.line)
                        )
                        continue
                    target = builder.get_relative_uri(docname, f"rules/{page}") + "#" + anchor(spec)
                else:
                    stem = value.group(1)
                    if stem not in pages:
                        continue
                    target = builder.get_relative_uri(docname, f"rules/{stem}")
                pieces.append(nodes.Text(source[last:start]))
                pieces.append(
                    nodes.reference(
                        value.group(0), value.group(0), refuri=target, internal=True, classes=["mjfast-spec"]
                    )
                )
                last = end
            if not pieces:
                continue
            pieces.append(nodes.Text(source[last:]))
            parent.replace(text, pieces)

    class OptionsDirective(Directive):
        """The options table of one rule, from its module's OPTION_DOCS."""

        required_arguments = 1
        has_content = False

        def run(self):
            from mjfast import rules

            name = self.arguments[0]
            module = rules._REGISTRY[name]
            docs = module.OPTION_DOCS
            if not docs:
                para = nodes.paragraph(text=f"{name} has no named options.")
                return [para]
            table = nodes.table(classes=["mjfast-options"])
            group = nodes.tgroup(cols=5)
            table += group
            for width in (14, 30, 8, 8, 40):
                group += nodes.colspec(colwidth=width)
            head = nodes.thead()
            group += head
            head += _row(nodes, ["option", "values", "default", "spec", "source"])
            body = nodes.tbody()
            group += body
            for key, allowed in module.OPTIONS.items():
                doc = docs[key]
                values = nodes.bullet_list()
                for value in allowed:
                    item = nodes.list_item()
                    para = nodes.paragraph()
                    para += nodes.literal(text=rules._text(value))
                    para += nodes.Text(f": {doc['values'][value]}")
                    item += para
                    values += item
                meaning = nodes.paragraph()
                meaning += nodes.strong(text=f"{name}.{key}")
                cell_option = [meaning, nodes.paragraph(text=doc["meaning"])]
                row = nodes.row(ids=[f"{name}-{key}".replace("_", "-")])
                for content in (
                    cell_option,
                    [values],
                    [nodes.paragraph("", "", nodes.literal(text=rules._text(allowed[0])))],
                    [nodes.paragraph(text=doc["spec"] or "—")],
                    [nodes.paragraph(text=doc["source"] or "(the seeds are silent; default only)")],
                ):
                    entry = nodes.entry()
                    entry.extend(content)
                    row += entry
                body += row
            return [table]

    class CliDirective(Directive):
        """``mjfast --help`` and the help of every subcommand, as literal blocks."""

        has_content = False

        def run(self):
            import argparse

            from mjfast import __main__ as cli

            parser = cli._parser()
            out = []
            section = nodes.section(ids=["mjfast-help"])
            section += nodes.title(text="mjfast --help")
            section += nodes.literal_block(text=_help(parser))
            out.append(section)
            for action in parser._actions:
                if isinstance(action, argparse._SubParsersAction):
                    for name, sub in action.choices.items():
                        section = nodes.section(ids=[f"mjfast-{name}"])
                        section += nodes.title(text=f"mjfast {name}")
                        section += nodes.literal_block(text=_help(sub))
                        out.append(section)
            return out

    app.add_directive("mjfast-options", OptionsDirective)
    app.add_directive("mjfast-cli", CliDirective)
    app.connect("doctree-read", on_doctree_read)
    app.connect("doctree-resolved", on_doctree_resolved)


def _help(parser) -> str:
    import os

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal width; fix it for the page
    try:
        return parser.format_help()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def _row(nodes, cells):
    row = nodes.row()
    for text in cells:
        entry = nodes.entry()
        entry += nodes.paragraph(text=text)
        row += entry
    return row


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def _mentions(text: str):
    """Spec ids and rule-file citations in a text, in order."""
    found = [("id", m) for m in SPEC_ID.finditer(text)] + [("file", m) for m in SPEC_FILE.finditer(text)]
    found.sort(key=lambda item: item[1].start())
    out, end = [], -1
    for kind, m in found:
        if m.start() >= end:
            out.append((kind, m))
            end = m.end()
    return out


def setup(app):
    _setup_sphinx(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
