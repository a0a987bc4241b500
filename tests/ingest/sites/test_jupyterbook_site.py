"""Jupyter Book site rules: TOC pages, only_build_toc_files, exclude_patterns, includes, myst.yml."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from murar.ingest.sites.base import FileRole, Site
from murar.ingest.sites.jupyterbook import JupyterBookSite

TOC = """\
format: jb-book
root: intro
parts:
  - caption: Start
    chapters:
    - file: setup/install
      sections:
      - file: setup/git.md
    - glob: notebooks/*
"""


def test_only_toc_files_are_pages_when_configured(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {
        "book/_config.yml": "title: B\nonly_build_toc_files: true\nexclude_patterns: ['drafts/*']\n",
        "book/_toc.yml": TOC,
        "book/intro.md": "# Intro\n\n```{include} parts/shared.md\n```\n",
        "book/setup/install.md": "# Install\n",
        "book/setup/git.md": "# Git\n",
        "book/setup/orphan.md": "# Orphan\n",
        "book/notebooks/a.ipynb": "{}",
        "book/parts/shared.md": "Shared.\n",
        "book/drafts/wip.md": "# WIP\n",
        "book/images/x.png": "png",
        "README.md": "# repo readme\n",
    })
    site = JupyterBookSite(tmp_path, "book/_config.yml")
    assert isinstance(site, Site) and site.config.generator == "jupyterbook"
    role = lambda rel: site.classify(rel).role
    assert role("book/intro.md") is FileRole.PAGE and site.classify("book/intro.md").markup == "myst"
    assert role("book/setup/install.md") is FileRole.PAGE and role("book/setup/git.md") is FileRole.PAGE
    assert site.classify("book/notebooks/a.ipynb").markup == "notebook"
    assert role("book/notebooks/a.ipynb") is FileRole.PAGE
    orphan = site.classify("book/setup/orphan.md")
    assert orphan.role is FileRole.EXCLUDED and "table of contents" in orphan.reason
    assert role("book/parts/shared.md") is FileRole.INCLUDE
    assert role("book/drafts/wip.md") is FileRole.EXCLUDED
    assert role("book/images/x.png") is FileRole.ASSET
    assert role("book/_toc.yml") is FileRole.EXCLUDED
    assert role("README.md") is FileRole.EXCLUDED  # outside the book root


def test_every_page_file_is_a_page_by_default(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {"_config.yml": "title: B\n", "_toc.yml": TOC, "intro.md": "# I\n", "orphan.md": "# O\n"})
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert site.classify("orphan.md").role is FileRole.PAGE


def test_leading_slash_is_the_book_root(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {"book/_config.yml": "title: B\n"})
    site = JupyterBookSite(tmp_path, "book/_config.yml")
    assert site.resolve_asset("/images/a.png", page_rel="book/x/p.md").rel_path == "book/images/a.png"
    assert site.resolve_asset("../images/a.png", page_rel="book/x/p.md").rel_path == "book/images/a.png"


def test_myst_yml_toc_and_exclude(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  exclude: ['old/**']\n  toc:\n    - file: index.md\n"
                    "    - title: Guide\n      children:\n        - file: guide/start.md\n",
        "index.md": "# I\n", "guide/start.md": "# S\n", "guide/extra.md": "# E\n", "old/x.md": "# X\n",
    })
    site = JupyterBookSite(tmp_path, "myst.yml")
    assert site.classify("guide/start.md").role is FileRole.PAGE
    assert site.classify("guide/extra.md").role is FileRole.EXCLUDED
    assert site.classify("old/x.md").role is FileRole.EXCLUDED


def test_myst_yml_toc_file_above_the_project_folder_is_a_page(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    """mystmd reads TOC paths relative to myst.yml, going up too: DeepLabCut's docs/myst.yml
    opens with ``- file: ../README.md``, skipped as 'outside the Jupyter Book folder docs/'.
    It is a page; its images resolve from its own folder; other files up there are not pages."""
    write_files(tmp_path, {
        "docs/myst.yml": "version: 1\nproject:\n  toc:\n    - file: ../README.md\n    - file: guide.md\n",
        "README.md": "# Tool\n\n![Logo](docs/images/logo.png)\n\nA toolbox.\n",
        "CHANGES.md": "# Changes\n", "docs/guide.md": "# Guide\n",
    })
    (tmp_path / "docs" / "images").mkdir()
    (tmp_path / "docs" / "images" / "logo.png").write_bytes(b"\x89PNG\r\n")
    site = JupyterBookSite(tmp_path, "docs/myst.yml")
    readme = site.classify("README.md")
    assert readme.role is FileRole.PAGE and readme.markup == "myst"
    assert site.classify("CHANGES.md").role is FileRole.EXCLUDED
    assert site.classify("docs/guide.md").role is FileRole.PAGE
    assert site.resolve_asset("docs/images/logo.png", page_rel="README.md").rel_path == "docs/images/logo.png"


def test_book_exclude_patterns_are_sphinx_globs_and_mystmd_excludes_minimatch_globs(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Jupyter Book 1 hands exclude_patterns to Sphinx ("**/x" needs a folder before x); mystmd's
    # project.exclude is a minimatch glob ("**/x" also matches x at the top)
    files = {"notes/a.md": "# A\n", "ch/notes/b.md": "# B\n", "index.md": "# I\n"}
    write_files(tmp_path / "jb1", {"_config.yml": "title: B\nexclude_patterns: ['**/notes']\n", **files})
    write_files(tmp_path / "jb2", {"myst.yml": "version: 1\nproject:\n  exclude: ['**/notes']\n", **files})
    jb1, jb2 = JupyterBookSite(tmp_path / "jb1", "_config.yml"), JupyterBookSite(tmp_path / "jb2", "myst.yml")
    assert jb1.classify("notes/a.md").role is FileRole.PAGE
    assert jb1.classify("ch/notes/b.md").role is FileRole.EXCLUDED
    assert jb2.classify("notes/a.md").role is FileRole.EXCLUDED
    assert jb2.classify("ch/notes/b.md").role is FileRole.EXCLUDED


def test_bad_yaml_gives_defaults_and_a_warning(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {"_config.yml": "title: [unclosed\n", "p.md": "# P\n"})
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert site.classify("p.md").role is FileRole.PAGE
    assert site.load_warnings and "_config.yml" in site.load_warnings[0]


def test_sphinx_config_of_a_book_sets_extlinks_and_primary_domain(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {"_config.yml": (
        "title: B\nsphinx:\n  config:\n    primary_domain: js\n"
        "    extlinks:\n      issue: ['https://e.org/issues/%s', 'issue %s']\n")})
    conf = JupyterBookSite(tmp_path, "_config.yml").conf
    assert conf.primary_domain == "js"
    assert conf.extlinks == {"issue": ("https://e.org/issues/%s", "issue %s")}


def test_myst_yml_without_toc_reads_markdown_and_notebooks(tmp_path: Path,
                                                           write_files: Callable[..., None]) -> None:
    # mystmd's implicit TOC: every .md and .ipynb, no reST; hidden folders, _build and node_modules skipped
    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  title: P\n",
        "README.md": "# Home\n", "_parts/helper.md": "# Helper\n", "legacy.rst": "Legacy\n======\n",
        "node_modules/pkg/readme.md": "# Package\n", "site/node_modules/x/y.md": "# Y\n",
    })
    site = JupyterBookSite(tmp_path, "myst.yml")
    roles = {rel: site.classify(rel).role for rel in (
        "README.md", "_parts/helper.md", "legacy.rst", "node_modules/pkg/readme.md", "site/node_modules/x/y.md")}
    assert roles == {"README.md": FileRole.PAGE, "_parts/helper.md": FileRole.PAGE, "legacy.rst": FileRole.UNKNOWN,
                     "node_modules/pkg/readme.md": FileRole.EXCLUDED, "site/node_modules/x/y.md": FileRole.EXCLUDED}


def test_paired_notebook_and_markdown_are_one_document(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # jupytext pairs (lesson.ipynb + lesson.md) share a docname: Sphinx warns "multiple files found for the
    # document" and builds the first file in sorted order (lesson.ipynb); the other is not a page
    write_files(tmp_path, {
        "_config.yml": "title: T\n", "_toc.yml": "format: jb-book\nroot: intro\nchapters:\n- file: lesson\n",
        "intro.md": "# Intro\n", "lesson.md": "# Lesson\n", "lesson.ipynb": "{}", "other.rst": "Other\n=====\n",
        "other.md": "# Other\n",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert site.classify("lesson.ipynb").role is FileRole.PAGE
    assert site.classify("lesson.md").role is FileRole.EXCLUDED
    assert "lesson.ipynb" in site.classify("lesson.md").reason
    assert site.classify("other.md").role is FileRole.PAGE and site.classify("other.rst").role is FileRole.EXCLUDED
    assert site.classify("intro.md").role is FileRole.PAGE


def test_skip_reasons_name_the_books_own_config(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # a Jupyter Book has no conf.py: reasons name _config.yml (Jupyter Book 1) or myst.yml (mystmd)
    write_files(tmp_path, {
        "jb1/_config.yml": "title: B\nexclude_patterns: ['drafts/*']\n", "jb1/intro.md": "# I\n",
        "jb1/drafts/wip.md": "# W\n", "jb1/data.xyz": "x",
        "jb2/myst.yml": "version: 1\nproject:\n  exclude: ['drafts/*']\n", "jb2/intro.md": "# I\n",
        "jb2/drafts/wip.md": "# W\n", "jb2/page.rst": "T\n=\n",
    })
    jb1 = JupyterBookSite(tmp_path, "jb1/_config.yml")
    jb2 = JupyterBookSite(tmp_path, "jb2/myst.yml")
    reasons = [jb1.classify("jb1/drafts/wip.md").reason, jb1.classify("jb1/data.xyz").reason,
               jb2.classify("jb2/drafts/wip.md").reason, jb2.classify("jb2/page.rst").reason]
    assert not [r for r in reasons if "conf.py" in r]
    assert "_config.yml exclude_patterns" in reasons[0] and "myst.yml project.exclude" in reasons[2]
    assert "not a mystmd page type (.ipynb, .md)" in reasons[3]


def test_the_table_of_contents_file_is_reported_as_such(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # _toc.yml was 'skipped: excluded by _config.yml exclude_patterns or Jupyter Book defaults';
    # a Sphinx site's sphinx-external-toc file was 'unsupported file type .yml'
    write_files(tmp_path, {
        "book/_config.yml": "title: B\n", "book/_toc.yml": "root: intro\n", "book/intro.md": "# I\n",
        "sx/conf.py": "extensions = ['sphinx_external_toc']\nexternal_toc_path = 'toc/_toc.yml'\n",
        "sx/toc/_toc.yml": "root: index\n", "sx/index.rst": "I\n=\n",
    })
    assert JupyterBookSite(tmp_path, "book/_config.yml").classify("book/_toc.yml").reason == \
        "table of contents (read for its rules)"
    from murar.ingest.sites.sphinx import SphinxSite
    sphinx = SphinxSite(tmp_path, "sx/conf.py")
    assert sphinx.classify("sx/toc/_toc.yml").reason == "table of contents (read for its rules)"
    assert sphinx.classify("sx/index.rst").role is FileRole.PAGE


def test_extra_extensions_are_the_books_sphinx_extensions(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Jupyter Book 1 adds sphinx.extra_extensions to Sphinx's extensions: napoleon there reads the
    # NumPy-style parameters of an autodoc docstring as "name (type) – description"
    from murar.ingest.markup.rst import convert_rst

    write_files(tmp_path, {
        "gridlib.py": 'def regrid(grid):\n    """Regrid.\n\n    Parameters\n    ----------\n'
                      '    grid : Grid\n        The target grid.\n    """\n',
        "docs/_config.yml": "title: B\nsphinx:\n  extra_extensions:\n    - sphinx.ext.autodoc\n"
                            "    - sphinx.ext.napoleon\n",
        "docs/_toc.yml": "format: jb-book\nroot: api\n",
        "docs/api.rst": "API\n===\n\n.. autofunction:: gridlib.regrid\n"})
    site = JupyterBookSite(tmp_path, "docs/_config.yml")
    assert "sphinx.ext.napoleon" in site.conf.extensions
    doc = convert_rst(tmp_path / "docs" / "api.rst", site=site)
    assert doc.sections[0].text == "gridlib.regrid(grid)\n\nRegrid.\n\nParameters\n\ngrid (Grid) – The target grid."


def test_toc_globs_match_as_sphinx_external_toc_matches_them(tmp_path: Path,
                                                            write_files: Callable[..., None]) -> None:
    # sphinx-external-toc matches a _toc.yml "glob" with sphinx.util.matching.patmatch: "notes/**/*"
    # needs a folder below notes/ ("notes/a" is not in the TOC, so only_build_toc_files leaves it out)
    write_files(tmp_path, {
        "_config.yml": "title: B\nonly_build_toc_files: true\n",
        "_toc.yml": "format: jb-book\nroot: index\nchapters:\n  - glob: notes/**/*\n",
        "index.md": "# I\n", "notes/a.md": "# A\n", "notes/x/b.md": "# B\n"})
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert site.classify("notes/x/b.md").role is FileRole.PAGE
    assert site.classify("notes/a.md").role is FileRole.EXCLUDED


def test_mystmd_embed_shows_labelled_content_and_glossary_is_a_definition_list(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    # mystmd {embed} #label: the block after a (label)= target, or the directive with that label (a figure:
    # its image, resolved against the page that holds it); a {glossary} written as a definition list
    from PIL import Image

    from murar.ingest.markup.myst import convert_myst
    from murar.schema import ImageItem

    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  toc:\n    - file: guide/a.md\n    - file: b.md\n",
        "guide/a.md": ("# Dashboard\n\n```{figure} ../shots/board.png\n---\nlabel: board\n---\nThe board.\n```\n\n"
                       "(quota-out)=\n\nWhen the quota runs out, launches are denied.\nAsk an admin.\n\nNot embedded.\n"),
        "b.md": ("# Start\n\n## Board\n\n```{embed} #board\n```\n\n## Again\n\nSee ![](#board) here.\n\n"
                 "## Quota\n\n```{embed} #quota-out\n```\n\n"
                 "```{embed} #missing\n```\n\n## Terms\n\n```{glossary}\nquota\n: A limit on use.\n```\n"),
    })
    (tmp_path / "shots").mkdir()
    Image.new("RGB", (40, 30), "white").save(tmp_path / "shots" / "board.png")
    site = JupyterBookSite(tmp_path, "myst.yml")
    doc = convert_myst(tmp_path / "b.md", site=site, assets_dir=tmp_path / "assets")
    secs = {" > ".join(s.heading_path): s.text for s in doc.sections}
    assert secs["Start > Quota"] == "When the quota runs out, launches are denied. Ask an admin."
    assert secs["Start > Terms"] == "quota\n\nA limit on use."
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.path, i.caption) for i in images] == [("shots/board.png", "The board.")] * 2
    assert secs["Start > Again"] == "See\n\nhere."  # an image of '#label' embeds it (mystmd)
    assert doc.warnings == ["embed '#missing': no such label in the project"]


def test_mystmd_embed_by_its_label_option(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # myst-directives embed: with no argument, the :label: option names the content shown (mystmd
    # warns, then embeds '#label'); that option defines no label of its own. The MyST guide's
    # "MyST Documents" tutorial embeds its install dropdown so: murar embedded nothing
    # ("embed ''"), then, counting the option as a label (guide.md is read first), found the embed itself
    from murar.ingest.markup.myst import convert_myst

    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  toc:\n    - file: install.md\n    - file: guide.md\n",
        "install.md": "# Install\n\n(install-box)=\n:::{tip}\nRun the installer twice.\n:::\n",
        "guide.md": "# Guide\n\n```{embed}\n:label: install-box\n```\n\nThen start.\n",
    })
    site = JupyterBookSite(tmp_path, "myst.yml")
    assert site.label_sources() == {"install-box": "install.md"}
    doc = convert_myst(tmp_path / "guide.md", site=site, assets_dir=tmp_path / "assets")
    assert doc.sections[0].text == "Tip: Run the installer twice.\n\nThen start."
    assert doc.warnings == []


def test_mystmd_figure_of_a_label_takes_the_figure_caption(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # mystmd "Embed images into figures": "{figure} #label" embeds the labelled image into a figure
    # whose body is its caption (and :alt: its alt text); the embedded picture had no caption and
    # the figure's caption was lost (the MyST guide's embed page, "Here's a nice sunset...")
    from murar.ingest.markup.myst import convert_myst
    from murar.schema import ImageItem

    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  toc:\n    - file: a.md\n",
        "a.md": ("# Shots\n\n(board-shot)=\n![](https://example.org/board.png)\n\n"
                 "```{figure} #board-shot\n:label: board-figure\n:alt: The board\nThe board, with its filters open.\n```\n"),
    })
    doc = convert_myst(tmp_path / "a.md", site=JupyterBookSite(tmp_path, "myst.yml"), assets_dir=tmp_path / "assets")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.url, i.caption, i.alt) for i in images] == [
        ("https://example.org/board.png", "", ""),
        ("https://example.org/board.png", "The board, with its filters open.", "The board")]


def test_mystmd_embeds_a_labelled_notebook_cells_outputs(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # mystmd "Embed and Reuse Jupyter Outputs": a code cell labelled by a "#| label:" line (or its
    # metadata label) is embedded by '![](#label)', '{figure} #label' (with the figure's caption)
    # and {embed}: its outputs show on the other page. No such label was found (the MyST guide's
    # '![](#tbl:data-cars)' and '{figure} #img:altair-horsepower')
    import base64
    import io
    import json

    from PIL import Image

    from murar.ingest.markup.myst import convert_myst
    from murar.schema import ImageItem, TableItem

    png = io.BytesIO()
    Image.new("RGB", (60, 40), "white").save(png, "PNG")
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Plots\n"]},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": ["#| label: fig:cars\n", "plot()"],
         "outputs": [{"output_type": "display_data", "metadata": {},
                      "data": {"image/png": base64.b64encode(png.getvalue()).decode(), "text/plain": ["Cars"]}}]},
        {"cell_type": "code", "metadata": {"label": "tbl:cars"}, "execution_count": 2, "source": ["df"],
         "outputs": [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                      "data": {"text/html": ["<table><tr><th>Name</th><th>HP</th></tr>",
                                             "<tr><td>ford</td><td>130</td></tr></table>"]}}]},
    ]
    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  toc:\n    - file: a.md\n    - file: nb.ipynb\n",
        "a.md": ("# Reuse\n\n![](#fig:cars)\n\n```{figure} #fig:cars\nHorsepower of the cars.\n```\n\n"
                 "```{embed} #tbl:cars\n```\n"),
        "nb.ipynb": json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
    })
    site = JupyterBookSite(tmp_path, "myst.yml")
    assert site.label_sources() == {"fig:cars": "nb.ipynb", "tbl:cars": "nb.ipynb"}
    doc = convert_myst(tmp_path / "a.md", site=site, assets_dir=tmp_path / "assets")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [i.caption for i in images] == ["", "Horsepower of the cars."]
    assert all(i.stored_path and (tmp_path / "assets" / i.stored_path).is_file() for i in images)
    assert [t.rows for t in doc.media if isinstance(t, TableItem)] == [[["ford", "130"]]]
    assert doc.warnings == []


def test_embeds_of_one_notebook_read_and_parse_it_once_a_page(tmp_path: Path, write_files: Callable[..., None],
                                                               monkeypatch: Any) -> None:
    """Every embed of a notebook cell read (up to 50 MB) and parsed the whole notebook again:
    100 embeds a page were 100 parses. The page keeps the notebook's cells: 3 embeds, 1 read."""
    import json

    from murar.ingest.markup import myst

    cells = [{"cell_type": "code", "metadata": {"label": f"c{i}"}, "execution_count": i, "source": ["x"],
              "outputs": [{"output_type": "stream", "name": "stdout", "text": [f"out {i}\n"]}]} for i in range(3)]
    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  toc:\n    - file: a.md\n    - file: nb.ipynb\n",
        "a.md": "# Reuse\n\n" + "".join(f"```{{embed}} #c{i}\n```\n\n" for i in range(3)),
        "nb.ipynb": json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
    })
    reads: list[str] = []
    real = myst.read_source

    def counting(path: Path, **kwargs: Any) -> str:
        reads.append(Path(path).name)
        return real(path, **kwargs)

    monkeypatch.setattr(myst, "read_source", counting)
    doc = myst.convert_myst(tmp_path / "a.md", site=JupyterBookSite(tmp_path, "myst.yml"),
                            assets_dir=tmp_path / "assets")
    assert reads.count("nb.ipynb") == 1
    text = "\n".join(s.text for s in doc.sections)
    assert all(f"out {i}" in text for i in range(3)) and doc.warnings == []


def test_jupyter_book_custom_notebook_formats(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Jupyter Book 1 loads myst_nb: sphinx.config.nb_custom_formats makes jupytext text notebooks pages
    write_files(tmp_path, {
        "_config.yml": ("title: T\nsphinx:\n  config:\n    nb_custom_formats:\n      .py:\n        - jupytext.reads\n"
                        "        - fmt: py:percent\n"),
        "_toc.yml": "format: jb-book\nroot: intro\nchapters:\n  - file: lesson\n",
        "intro.md": "# Intro\n",
        "lesson.py": "# %% [markdown]\n# # Lesson\n#\n# Some text.\n\n# %%\nx = 1\n",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    fc = site.classify("lesson.py")
    assert (fc.role, fc.markup) == (FileRole.PAGE, "percent")


def test_summary_lists_each_exclude_pattern_once(tmp_path: Path, write_files: Callable[..., None]) -> None:
    """A book that repeats Jupyter Book's own defaults in exclude_patterns (as templates do) shows
    each pattern once in the ingest summary's site line."""
    write_files(tmp_path, {
        "book/_config.yml": "title: B\nexclude_patterns: [_build, Thumbs.db, .DS_Store, '**.ipynb_checkpoints']\n",
        "book/intro.md": "# Intro\n",
    })
    exclude = JupyterBookSite(tmp_path, "book/_config.yml").config.exclude
    assert len(exclude) == len(set(exclude)) and "_build" in exclude
