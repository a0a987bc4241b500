"""Notebook converter: Markdown cells as MyST, code as text, stored output images written as assets."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from murar.errors import IngestError
from murar.ingest.markup.notebook import convert_notebook
from murar.ingest.sites.jupyterbook import JupyterBookSite
from murar.schema import ImageItem, TableItem


def _png_b64(color: str = "red") -> str:
    buf = io.BytesIO()
    Image.new("RGB", (20, 10), color).save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode()


def _nb(cells: list[dict[str, object]]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3"}},
                       "cells": cells})


def _md(source: str, **extra: object) -> dict[str, object]:
    return {"cell_type": "markdown", "id": f"m{abs(hash(source)) % 10**8}", "metadata": {}, "source": source, **extra}


def _code(source: str, outputs: list[dict[str, object]], tags: list[str] | None = None) -> dict[str, object]:
    return {"cell_type": "code", "id": f"c{abs(hash(source)) % 10**8}", "metadata": {"tags": tags or []},
            "execution_count": 1, "source": source, "outputs": outputs}


def _site(tmp_path: Path) -> JupyterBookSite:
    (tmp_path / "_config.yml").write_text("title: T\n")
    return JupyterBookSite(tmp_path, "_config.yml")


def test_output_image_written_with_cell_context(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (tmp_path / "nb.ipynb").write_text(_nb([
        _md("# Optimisation\n\n## Plot the profit\n\nThe demand depends on the price."),
        _code("plt.plot(n, profit)\nplt.xlabel('n')", [
            {"output_type": "display_data", "metadata": {},
             "data": {"image/png": _png_b64(), "text/plain": "<Figure size 640x480 with 1 Axes>"}},
        ]),
        _md("The maximum is at n = 50."),
    ]))
    assets = tmp_path / "assets"
    doc = convert_notebook(tmp_path / "nb.ipynb", site=site, assets_dir=assets)
    assert doc.title == "Optimisation"
    (img,) = [m for m in doc.media if isinstance(m, ImageItem)]
    assert img.stored_path is not None and img.path is None and img.exists
    assert (assets / img.stored_path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (img.width, img.height) == (20, 10) and img.alt == ""
    assert img.heading_path == ("Optimisation", "Plot the profit")
    assert "plt.plot(n, profit)" in img.context_before and "demand depends" in img.context_before
    assert img.context_after.startswith("The maximum is at n = 50.")


def test_attachments_tags_html_tables_and_text_outputs(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (tmp_path / "nb.ipynb").write_text(_nb([
        _md("# Data\n\n![diagram](attachment:diagram.png)", attachments={"diagram.png": {"image/png": _png_b64("blue")}}),
        _code("secret_setup()", [], tags=["remove-cell"]),
        _code("hidden_source()", [{"output_type": "stream", "name": "stdout", "text": "visible output\n"}],
              tags=["remove-input"]),
        _code("df", [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                      "data": {"text/html": "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>",
                               "text/plain": "   a  b\n0  1  2"}}]),
        _code("noisy()", [{"output_type": "stream", "name": "stdout", "text": "gone"}], tags=["remove-output"]),
    ]))
    doc = convert_notebook(tmp_path / "nb.ipynb", site=site, assets_dir=tmp_path / "assets")
    text = doc.sections[0].text
    assert "secret_setup" not in text and "hidden_source" not in text and "gone" not in text
    assert "visible output" in text and "noisy()" in text
    (att,) = [m for m in doc.media if isinstance(m, ImageItem)]
    assert att.alt == "diagram" and att.stored_path and att.stored_path.endswith("-diagram.png")
    (table,) = [m for m in doc.media if isinstance(m, TableItem)]
    assert table.headers == ["a", "b"] and table.rows == [["1", "2"]]


def test_bad_output_image_is_a_warning(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (tmp_path / "nb.ipynb").write_text(_nb([
        _md("# T"),
        _code("x", [{"output_type": "display_data", "metadata": {}, "data": {"image/png": "bm90IGFuIGltYWdl"}}]),
    ]))
    doc = convert_notebook(tmp_path / "nb.ipynb", site=site, assets_dir=tmp_path / "assets")
    assert not [m for m in doc.media if isinstance(m, ImageItem)]
    assert any("not a valid png" in w for w in doc.warnings)


def test_not_a_notebook_is_a_typed_error(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (tmp_path / "bad.ipynb").write_text("{not json")
    with pytest.raises(IngestError, match="not a readable notebook"):
        convert_notebook(tmp_path / "bad.ipynb", site=site, assets_dir=tmp_path / "assets")


def test_glued_values_and_figures_are_pasted(tmp_path: Path) -> None:
    # myst-nb glue(): outputs named in metadata.scrapbook (hidden behind the papermill prefix with
    # display=False) are shown where {glue:figure}, {glue:text}`name:fmt` and {glue:}`name` paste them
    site = _site(tmp_path)
    prefix = "application/papermill.record/"

    def glued(name: str, data: dict[str, str], mime_prefix: str = prefix) -> dict[str, object]:
        return {"output_type": "display_data", "metadata": {"scrapbook": {"name": name, "mime_prefix": mime_prefix}},
                "data": {mime_prefix + k: v for k, v in data.items()}}

    (tmp_path / "nb.ipynb").write_text(_nb([
        _md("# Yields"),
        _code("glue('rate', rate)\nglue('fig:yield', fig, display=False)", [
            glued("rate", {"text/plain": "0.123456"}),
            glued("fig:yield", {"image/png": _png_b64("blue"), "text/plain": "<Figure size 432x432 with 1 Axes>"}),
            glued("shown", {"text/plain": "'visible'"}, mime_prefix=""),
        ]),
        _md("```{glue:figure} fig:yield\n:name: fig-yield\n\nYield curve; the rate is {glue:text}`rate:.2f`.\n```\n\n"
            "The rate is {glue:}`rate`, the label {glue:}`shown` and {glue:text}`absent`."),
    ]))
    doc = convert_notebook(tmp_path / "nb.ipynb", site=site, assets_dir=tmp_path / "assets")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.caption, i.alt) for i in images] == [("Yield curve; the rate is 0.12.", "fig:yield")]
    text = "\n".join(s.text for s in doc.sections)
    assert "The rate is 0.123456, the label 'visible' and absent." in text


def test_markdown_outputs_are_read_as_markdown(tmp_path: Path) -> None:
    # myst-nb renders a text/markdown output (IPython display(Markdown(...))) as Markdown, not its repr
    site = _site(tmp_path)
    (tmp_path / "nb.ipynb").write_text(_nb([
        _md("# Report"),
        _code("display(Markdown(summary))", [
            {"output_type": "display_data", "metadata": {},
             "data": {"text/markdown": "**Total:** 42 rows\n\n| a | b |\n|---|---|\n| 1 | 2 |",
                      "text/plain": "<IPython.core.display.Markdown object>"}},
        ]),
    ]))
    doc = convert_notebook(tmp_path / "nb.ipynb", site=site, assets_dir=tmp_path / "assets")
    text = "\n".join(s.text for s in doc.sections)
    assert "Total: 42 rows" in text and "IPython" not in text
    assert [t.headers for t in doc.media if isinstance(t, TableItem)] == [["a", "b"]]


def test_cells_without_ids_are_read_without_warnings(tmp_path: Path) -> None:
    # nbformat 4.5 asks for cell ids; notebooks saved by older tools lack them and nbformat warns
    # (MissingIDFieldWarning) although it reads them fine: that is no problem of the page
    site = _site(tmp_path)
    cells = [{k: v for k, v in c.items() if k != "id"} for c in (_md("# T\n\nText."), _code("x = 1", []))]
    (tmp_path / "nb.ipynb").write_text(_nb(cells))
    doc = convert_notebook(tmp_path / "nb.ipynb", site=site, assets_dir=tmp_path / "assets")
    assert doc.sections[0].text.startswith("Text.")
    assert not [w for w in doc.warnings if "missing an id" in w]


_PERCENT = '''\
# ---
# jupyter:
#   kernelspec:
#     name: python3
#     display_name: Python 3
# ---

import os
x = 1


# %% Setup [markdown] tags=["intro"]
# # Orbit plots
#
# Draw an *orbit*:
#
#     indented stays code

# %%
# %matplotlib inline
y = 2

# a comment stays

# %% [md]
"""
## From a string

Text of a quoted cell.
"""

# %% [raw] raw_mimetype="text/html"
# <p>Raw <b>HTML</b> cell</p>
'''


def test_percent_script_reads_as_the_notebook_jupytext_makes(tmp_path: Path) -> None:
    # cells as jupytext.reads(text, fmt="py:percent") gives them (checked with jupytext 1.16.4)
    from murar.ingest.markup.notebook import percent_notebook

    nb = percent_notebook(_PERCENT)
    assert [(c["cell_type"], c["source"]) for c in nb["cells"]] == [
        ("code", "import os\nx = 1"),
        ("markdown", "# Orbit plots\n\nDraw an *orbit*:\n\n    indented stays code"),
        ("code", "%matplotlib inline\ny = 2\n\n# a comment stays"),
        ("markdown", "## From a string\n\nText of a quoted cell."),
        ("raw", "<p>Raw <b>HTML</b> cell</p>"),
    ]
    assert nb["cells"][-1]["metadata"] == {"raw_mimetype": "text/html"}


def test_percent_cell_of_many_blank_lines_is_trimmed_in_linear_time(deadline: Callable[..., Any]) -> None:
    # a cell's leading blank lines were popped off the front of its line list one at a time:
    # a million blank lines took minutes (the page's time budget), a slice is one pass
    from murar.ingest.markup.notebook import percent_notebook

    text = "# %%\n" + "\n" * 1_000_000 + "x = 1\n" + "\n" * 1_000_000 + "# %% [markdown]\n# Note\n"
    with deadline(20, "a percent cell's blank lines are trimmed in quadratic time"):
        nb = percent_notebook(text)
    assert [(c["cell_type"], c["source"]) for c in nb["cells"]] == [("code", "x = 1"), ("markdown", "Note")]


def test_custom_notebook_formats_are_sphinx_sources(tmp_path: Path) -> None:
    # nbsphinx_custom_formats (and myst-nb's nb_custom_formats): each suffix is a source suffix, read as the
    # notebook jupytext.reads(text, fmt) gives; a Markdown fmt ('Rmd') reads as Markdown text
    from murar.ingest.corpus import IngestReport, convert_corpus, walk_site
    from murar.ingest.sites.detect import open_site

    (tmp_path / "conf.py").write_text(
        "extensions = ['nbsphinx']\n"
        "nbsphinx_custom_formats = {\n"
        "    '.pct.py': ['jupytext.reads', {'fmt': 'py:percent'}],\n"
        "    '.md': ['jupytext.reads', {'fmt': 'Rmd'}],\n"
        "}\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   orbits\n   notes\n")
    (tmp_path / "orbits.pct.py").write_text(_PERCENT.replace("import os\nx = 1\n", ""))
    (tmp_path / "notes.md").write_text("# Notes\n\nSome notes.\n\n```{r}\nplot(x)\n```\n")
    (tmp_path / "helper.py").write_text("x = 1\n")
    sel = open_site(tmp_path)
    assert sel.site.classify("orbits.pct.py").markup == "percent"
    assert sel.site.classify("notes.md").markup == "myst"
    assert sel.site.classify("helper.py").role.value != "page"
    docs = convert_corpus(sel.site.config.root, assets_dir=tmp_path / "assets", report=IngestReport(),
                          site=sel.site, walk=walk_site(sel.site, under=sel.walk))
    pages = {d.sections[0].source_path: d for d in docs}
    assert sorted(pages) == ["index.rst", "notes.md", "orbits.pct.py"]
    orbit = {" > ".join(s.heading_path): s.text for s in pages["orbits.pct.py"].sections}
    assert "Orbit plots" in orbit and "Draw an orbit:" in orbit["Orbit plots"]
    assert "%matplotlib inline" in orbit["Orbit plots"] and "# ---" not in orbit["Orbit plots"]
    assert orbit["Orbit plots > From a string"].startswith("Text of a quoted cell.")
    assert "Raw HTML cell" in orbit["Orbit plots > From a string"]
    assert "Some notes." in pages["notes.md"].sections[0].text


def _raw(source: str, mimetype: str | None) -> dict[str, object]:
    meta = {"raw_mimetype": mimetype} if mimetype is not None else {}
    return {"cell_type": "raw", "id": f"r{abs(hash(source)) % 10**8}", "metadata": meta, "source": source}


def test_nbsphinx_raw_cells_render_by_their_format(tmp_path: Path) -> None:
    # nbsphinx's RST template: no format or text/html -> raw HTML, text/markdown -> Markdown,
    # text/restructuredtext -> reST of the page, text/latex -> not in the HTML; myst-nb shows HTML only
    from murar.ingest.sites.sphinx import SphinxSite

    cells = [_md("# Raw"), _raw("<p>Plain raw</p>", None), _raw("Some *md* text", "text/markdown"),
             _raw("A :doc:`link <raw>` and\n\n.. note:: Boxed.", "text/restructuredtext"),
             _raw("\\LaTeX only", "text/latex"), _raw("<b>Html</b> cell", "text/html")]
    (tmp_path / "raw.ipynb").write_text(_nb(cells))
    for ext, expected in (("nbsphinx", ["Plain raw", "Some md text", "A link and", "Boxed.", "Html cell"]),
                          ("myst_nb", ["Html cell"])):
        (tmp_path / "conf.py").write_text(f"extensions = [{ext!r}]\n")
        site = SphinxSite(tmp_path, "conf.py")
        text = convert_notebook(tmp_path / "raw.ipynb", site=site, assets_dir=tmp_path / "a").sections[0].text
        assert [w for w in expected if w not in text] == [], ext
        assert "LaTeX" not in text
        if ext == "myst_nb":
            assert "Plain raw" not in text and "md" not in text


def test_nbsphinx_hidden_cells_and_gallery_or_toctree_cells(tmp_path: Path) -> None:
    # nbsphinx: a cell with metadata nbsphinx: hidden is not in the page; a Markdown cell tagged (or with the
    # metadata key) nbsphinx-gallery / nbsphinx-link-gallery becomes a gallery of its links (named by the link
    # text, the first heading its caption), nbsphinx-toctree a toctree (navigation: no page text)
    from murar.ingest.sites.sphinx import SphinxSite

    hidden = _md("This notebook is part of the demo docs.", metadata={"nbsphinx": "hidden"})
    gallery = _md("## Worked examples\n\n* [Orbit plots](orbits.ipynb)\n* [Moons](moons.ipynb)\n\nIgnored.",
                  metadata={"tags": ["nbsphinx-gallery"]})
    toc = _md("## More\n\n* [Hidden toc entry](extra.ipynb)", metadata={"nbsphinx-toctree": {"maxdepth": 1}})
    cells = [hidden, _md("# Examples\n\nIntro."), gallery, toc]
    (tmp_path / "ex.ipynb").write_text(_nb(cells))
    (tmp_path / "conf.py").write_text("extensions = ['nbsphinx']\n")
    doc = convert_notebook(tmp_path / "ex.ipynb", site=SphinxSite(tmp_path, "conf.py"), assets_dir=tmp_path / "a")
    assert [(s.heading_path, s.text) for s in doc.sections] == [
        (("Examples",), "Intro.\n\nWorked examples\n\nOrbit plots\n\nMoons")]
    # myst-nb knows none of these: the cells are ordinary Markdown
    (tmp_path / "conf.py").write_text("extensions = ['myst_nb']\n")
    doc = convert_notebook(tmp_path / "ex.ipynb", site=SphinxSite(tmp_path, "conf.py"), assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "part of the demo docs" in text and "Hidden toc entry" in text and "Ignored." in text


def test_nbsphinx_link_page_shows_the_notebook_it_names(tmp_path: Path) -> None:
    """nbsphinx-link: ``docs/examples/demo.nblink`` ({"path": "../../notebooks/demo.ipynb"}) is a
    page showing that notebook, kept outside Sphinx's source folder; the .nblink was 'unsupported
    file type'. The notebook's pictures resolve from its own folder; a link to a missing notebook
    is a failed page, not a crash."""
    from murar.ingest.corpus import IngestReport, convert_corpus, walk_site
    from murar.ingest.sites.sphinx import SphinxSite

    (tmp_path / "docs" / "examples").mkdir(parents=True)
    (tmp_path / "notebooks" / "images").mkdir(parents=True)
    (tmp_path / "docs" / "conf.py").write_text('extensions = ["nbsphinx", "nbsphinx_link"]\n')
    (tmp_path / "docs" / "index.rst").write_text("Home\n====\n")
    (tmp_path / "docs" / "examples" / "demo.nblink").write_text(
        '{"path": "../../notebooks/demo.ipynb", "extra-media": ["../../notebooks/images"]}')
    (tmp_path / "docs" / "examples" / "gone.nblink").write_text('{"path": "../../notebooks/gone.ipynb"}')
    (tmp_path / "notebooks" / "demo.ipynb").write_text(_nb([_md("# Demo\n\nThe fitted curve:\n\n![plot](images/plot.png)\n")]))
    Image.new("RGB", (300, 200), "blue").save(tmp_path / "notebooks" / "images" / "plot.png")
    site = SphinxSite(tmp_path, "docs/conf.py")
    walk = walk_site(site)
    assert [p.rel for p in walk.pages] == ["docs/examples/demo.nblink", "docs/examples/gone.nblink", "docs/index.rst"]
    report = IngestReport()
    docs = convert_corpus(tmp_path, assets_dir=tmp_path / "a", report=report, site=site, walk=walk)
    demo = next(d for d in docs if d.source_path == "docs/examples/demo.nblink")
    assert demo.title == "Demo" and "The fitted curve:" in demo.sections[0].text
    assert [(m.path, m.exists) for m in demo.media if isinstance(m, ImageItem)] == [("notebooks/images/plot.png", True)]
    assert [f.path for f in report.failed] == ["docs/examples/gone.nblink"]
