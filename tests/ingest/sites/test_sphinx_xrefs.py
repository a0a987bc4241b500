"""Cross-references read as Sphinx renders them: ``ref``/``numref``/``doc`` and MyST's
empty-text links show their target's title (labels defined on any page of the site)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from murar.ingest.markup.myst import convert_myst
from murar.ingest.markup.rst import convert_rst
from murar.ingest.sites.jupyterbook import JupyterBookSite
from murar.ingest.sites.sphinx import SphinxSite

BOOK_TOC = """\
format: jb-book
root: intro
chapters:
- file: guide/start
- file: guide/pictures
"""


def _text(doc: object) -> str:
    return "\n".join(s.text for s in doc.sections)  # type: ignore[attr-defined]


def test_myst_refs_show_target_titles_across_pages(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {
        "_config.yml": "title: B\n",
        "_toc.yml": BOOK_TOC,
        "intro.md": "# Welcome\n\nSee {ref}`setup-steps`, {ref}`the steps <setup-steps>`, [](#setup-steps),\n"
                    "[](guide/start.md), {doc}`guide/start`, {numref}`cat-pic`, {numref}`Figure {number} <cat-pic>`,\n"
                    "{numref}`Picture %s: {name} <dog-pic>` and {ref}`nowhere-label`.\n",
        "guide/start.md": "# Getting started\n\n(setup-steps)=\n## Setting things up\n\nText.\n",
        "guide/pictures.md": "# Pictures\n\n```{figure} cat.png\n:name: cat-pic\n\nA sleeping cat.\n```\n\n"
                             "(dog-pic)=\n:::{figure} dog.png\nA running dog.\n:::\n",
        "guide/cat.png": "png", "guide/dog.png": "png",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    text = _text(convert_myst(tmp_path / "intro.md", site=site))
    assert "See Setting things up, the steps, Setting things up," in text
    assert "Getting started, Getting started, Fig. 1, Figure 1," in text
    assert "Picture 2: A running dog. and nowhere-label." in text
    assert "{number}" not in text and "setup-steps" not in text


def test_rst_ref_doc_numref_under_sphinx(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {
        "conf.py": "project = 'P'\nnumfig = True\nnumfig_format = {'figure': 'Figure %s'}\n",
        "index.rst": "Home\n====\n\n.. toctree::\n\n   usage/install\n   usage/shots\n\n"
                     "Read :ref:`install-linux`, :doc:`usage/install`, :doc:`/usage/shots`, :numref:`shot`\n"
                     "and :ref:`Linux <install-linux>`.\n",
        "usage/install.rst": "Installing\n==========\n\n.. _install-linux:\n\nOn *Linux*\n----------\n\nText.\n",
        "usage/shots.rst": "Screens\n=======\n\n.. figure:: a.png\n   :name: first\n\n   First.\n\n"
                           ".. _shot:\n\n.. figure:: b.png\n\n   The main window.\n",
        "usage/a.png": "png", "usage/b.png": "png",
    })
    site = SphinxSite(tmp_path, "conf.py")
    text = _text(convert_rst(tmp_path / "index.rst", site=site))
    assert "Read On Linux, Installing, Screens, Figure 2 and Linux." in " ".join(text.split())
    # Sphinx's default numfig is off: the caption, never a bare label or template
    write_files(tmp_path, {"conf.py": "project = 'P'\n"})
    text = _text(convert_rst(tmp_path / "index.rst", site=SphinxSite(tmp_path, "conf.py")))
    assert "The main window" in text and "shot" not in text.replace("shots", "")


def test_references_to_a_utf16_page_read_its_titles(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # a page saved as UTF-16 with its byte-order mark is read by its mark (builder.read_source); the
    # label scan read it as UTF-8, so :ref: and :doc: to it showed the bare label and docname
    write_files(tmp_path, {"conf.py": "project = 'P'\n",
                           "index.rst": "Home\n====\n\nSee :ref:`wide-label` and :doc:`wide`.\n"})
    (tmp_path / "wide.rst").write_bytes("Wide page\n=========\n\n.. _wide-label:\n\nPart\n----\n\nText.\n"
                                        .encode("utf-16"))
    text = _text(convert_rst(tmp_path / "index.rst", site=SphinxSite(tmp_path, "conf.py")))
    assert "See Part and Wide page." in " ".join(text.split())


def test_mystmd_references_read_figure_numbers_and_fill_link_text(tmp_path: Path,
                                                                  write_files: Callable[..., None]) -> None:
    # mystmd (myst.yml): figures are numbered on each page and an empty link to one reads "Figure 1";
    # a link's own text has %s/{number}/{name} filled; "@label" is a reference to a known label,
    # read as "[](#label)" is ("Figure 1" for a figure, not its caption)
    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  title: P\n",
        "plots.md": "---\ntitle: Plots\n---\n\n(sec-plots)=\n## Making plots\n\n:::{figure} a.png\n:label: fig-a\n"
                    "Sales by month.\n:::\n",
        "a.png": "png",
        "intro.md": "# Intro\n\nSee [](#fig-a), [Fig. %s shows {name}](#fig-a), {numref}`fig-a`, @sec-plots,\n"
                    "[](plots.md), @fig-a and ask @someone.\n",
    })
    site = JupyterBookSite(tmp_path, "myst.yml")
    text = _text(convert_myst(tmp_path / "intro.md", site=site))
    assert text == ("See Figure 1, Fig. 1 shows Sales by month., Figure 1, Making plots, Plots, Figure 1 and ask @someone.")


def test_equation_references_read_their_numbers(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Sphinx numbers labelled equations on each page ("(1)", math_eqref_format), over the project when
    # numfig is on (math_numfig); {eq}/:eq: show the number
    write_files(tmp_path, {
        "conf.py": "extensions = ['myst_parser']\n",
        "index.rst": "Home\n====\n\n.. toctree::\n\n   laws\n\n.. math::\n   :label: energy\n\n   E = mc^2\n\n"
                     "See :eq:`energy` and :eq:`unknown-eq`.\n",
        "laws.md": "# Laws\n\n$$ F = m a $$ (newton)\n\n```{math}\n:label: momentum\np = m v\n```\n\n"
                   "Newton {eq}`newton`, momentum {eq}`momentum`, energy {eq}`energy`.\n",
    })
    site = SphinxSite(tmp_path, "conf.py")
    assert "See (1) and unknown-eq." in _text(convert_rst(tmp_path / "index.rst", site=site))
    assert "Newton (1), momentum (2), energy (1)." in _text(convert_myst(tmp_path / "laws.md", site=site))
    write_files(tmp_path, {"conf.py": "extensions = ['myst_parser']\nnumfig = True\n"})
    site = SphinxSite(tmp_path, "conf.py")
    assert "Newton (2), momentum (3), energy (1)." in _text(convert_myst(tmp_path / "laws.md", site=site))


def test_numbered_toctree_prefixes_figure_numbers_with_the_section(tmp_path: Path,
                                                                   write_files: Callable[..., None]) -> None:
    # numfig with a ":numbered:" toctree: Sphinx counts figures per chapter (numfig_secnum_depth 1)
    # and shows "Fig. 2.1"; sections are numbered too ("Section 2.1"); equations "(2.1)"
    chapter = "{title}\n=====\n\n{body}\n\nPart\n----\n\n.. figure:: x.png\n   :name: {name}-b\n\n   B.\n"
    write_files(tmp_path, {
        "conf.py": "numfig = True\n",
        "index.rst": "Home\n====\n\n.. toctree::\n   :numbered:\n\n   one\n   two\n\n"
                     "See :numref:`one-a`, :numref:`one-b`, :numref:`two-a`, :numref:`two-b`, :numref:`two-part`"
                     " and :eq:`two-eq`.\n",
        "one.rst": chapter.format(title="One", name="one",
                                  body=".. figure:: x.png\n   :name: one-a\n\n   A."),
        "two.rst": chapter.format(title="Two", name="two",
                                  body=".. figure:: x.png\n   :name: two-a\n\n   A.\n\n.. math::\n   :label: two-eq\n\n"
                                       "   x = 1\n\n.. _two-part:").replace("Part\n----", "Later\n-----"),
        "x.png": "png",
    })
    site = SphinxSite(tmp_path, "conf.py")
    text = " ".join(_text(convert_rst(tmp_path / "index.rst", site=site)).split())
    assert "See Fig. 1.1, Fig. 1.2, Fig. 2.1, Fig. 2.2, Section 2.1 and (2.1)." in text
    (tmp_path / "conf.py").write_text("numfig = True\nnumfig_secnum_depth = 0\n")
    site = SphinxSite(tmp_path, "conf.py")
    text = " ".join(_text(convert_rst(tmp_path / "index.rst", site=site)).split())
    assert "See Fig. 1, Fig. 2, Fig. 3, Fig. 4, Section 2.1 and (1)." in text


def test_figure_without_caption_gets_no_number(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Sphinx numbers only figures with a caption; a captionless one is skipped (numref shows its label)
    write_files(tmp_path, {
        "conf.py": "numfig = True\n",
        "index.rst": "Home\n====\n\n.. figure:: x.png\n   :name: bare\n\n.. figure:: x.png\n   :name: shown\n\n"
                     "   A caption.\n\nSee :numref:`bare` and :numref:`shown`.\n",
        "x.png": "png",
    })
    site = SphinxSite(tmp_path, "conf.py")
    assert "See bare and Fig. 1." in _text(convert_rst(tmp_path / "index.rst", site=site))


def test_a_figure_with_two_labels_has_one_number(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Sphinx numbers the figure node: a '.. _a:' target above it and its ':name:' both read its number
    write_files(tmp_path, {
        "conf.py": "numfig = True\nextensions = ['myst_parser']\n",
        "index.rst": "Home\n====\n\n.. _fig-a:\n\n.. figure:: x.png\n   :name: fig-b\n\n   A caption.\n\n"
                     "See :numref:`fig-a` and :numref:`Figure {number} <fig-b>`.\n",
        "m.md": "# M\n\n(fig-m)=\n```{figure} x.png\n:name: fig-n\n\nCap.\n```\n\nSee {numref}`fig-n`\n\nand {numref}`fig-m`\n",
        "x.png": "png",
    })
    site = SphinxSite(tmp_path, "conf.py")
    assert "See Fig. 1 and Figure 1." in _text(convert_rst(tmp_path / "index.rst", site=site))
    first, second = _text(convert_myst(tmp_path / "m.md", site=site)).split("\n\n")
    assert first.startswith("See Fig. ") and first.removeprefix("See ") == second.removeprefix("and ")


def test_unlabelled_captioned_figures_and_tables_count(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Sphinx numbers every figure, table or code block with a caption, labelled or not (checked with
    # Sphinx 9: 'Fig. 2 and Table 2'); a figure without a caption gets no number
    write_files(tmp_path, {
        "conf.py": "numfig = True\n",
        "index.rst": "Home\n====\n\n.. figure:: x.png\n\n.. figure:: x.png\n\n   Unlabelled.\n\n.. _fig-a:\n\n"
                     ".. figure:: x.png\n\n   A caption.\n\n.. list-table:: Titled\n\n   * - a\n\n"
                     ".. list-table:: Keys\n   :name: tbl-k\n\n   * - b\n\nSee :numref:`fig-a` and :numref:`tbl-k`.\n",
        "x.png": "png",
    })
    site = SphinxSite(tmp_path, "conf.py")
    assert "See Fig. 2 and Table 2." in _text(convert_rst(tmp_path / "index.rst", site=site))


def test_mystmd_numbered_headings_fill_section_references(tmp_path: Path,
                                                          write_files: Callable[..., None]) -> None:
    # myst.yml "numbering: headings: true": headings are numbered per page (the "# Title" lifted out
    # is not), so a reference reads "Section 2.1" instead of "Sec. ??"
    write_files(tmp_path, {
        "myst.yml": "version: 1\nproject:\n  numbering:\n    headings: true\n",
        "guide.md": "# Guide\n\n## Install\n\nText.\n\n## Use\n\n(use-cli)=\n### From the shell\n\nText.\n\n"
                    "See [Sec. %s](#use-cli), [](#use-cli) and {numref}`use-cli`.\n",
    })
    site = JupyterBookSite(tmp_path, "myst.yml")
    text = _text(convert_myst(tmp_path / "guide.md", site=site))
    assert "See Sec. 2.1, Section 2.1 and Section 2.1." in text


def test_mystmd_counts_unlabelled_formulas_and_figures(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # mystmd numbers every display formula, figure and table on a page, labelled or not, and no
    # code block unless numbering.code is on; Sphinx (myst-parser) numbers labelled formulas only
    page = ("# Page\n\n$$\na = 1\n$$\n\n$$ b = 2 $$ (eq-b)\n\n```{figure} x.png\nFirst.\n```\n\n"
            "```{figure} x.png\n:label: fig-second\nSecond.\n```\n\n```{code-block} python\n:caption: Run it\n"
            ":label: code-run\nrun()\n```\n\nSee {eq}`eq-b`, {numref}`fig-second` and [](#code-run).\n")
    write_files(tmp_path, {"myst.yml": "version: 1\nproject: {}\n", "page.md": page, "x.png": "png"})
    text = _text(convert_myst(tmp_path / "page.md", site=JupyterBookSite(tmp_path, "myst.yml")))
    assert "$$\na = 1\n$$ (1)" in text and "$$\nb = 2\n$$ (2)" in text and "See (2), Figure 2 and Run it." in text
    write_files(tmp_path, {"myst.yml": "version: 1\nproject:\n  numbering:\n    code: true\n"})
    text = _text(convert_myst(tmp_path / "page.md", site=JupyterBookSite(tmp_path, "myst.yml")))
    assert "See (2), Figure 2 and Program 1." in text


def test_jupyter_book_toc_numbered_parts_number_sections_and_figures(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    # Jupyter Book 1: sphinx-external-toc turns each "numbered: true" part of _toc.yml into a
    # numbered toctree of the root and a chapter's "sections:" into a toctree ending that
    # chapter. Chapters are numbered on across parts by default (Jupyter Book >= 0.11.2 loads
    # sphinx-multitoc-numbering when the TOC has "numbered: true"); html.use_multitoc_numbering:
    # false, or parts numbered by depth only ("numbered: 2"), restart every part at 1
    figure = "```{{figure}} x.png\n:name: {name}\n\n{cap}\n```\n"
    write_files(tmp_path, {
        "_config.yml": "title: B\n",
        "_toc.yml": "format: jb-book\nroot: intro\nparts:\n- caption: A\n  numbered: true\n  chapters:\n"
                    "  - file: one\n- caption: B\n  numbered: true\n  chapters:\n  - file: two\n"
                    "    sections:\n    - file: two/sub\n",
        "intro.md": "# Intro\n\nSee {numref}`fig-one`, {numref}`fig-sub` and {numref}`sub`.\n",
        "one.md": "# One\n\n" + figure.format(name="fig-one", cap="First."),
        "two.md": "# Two\n\n## Part\n\nText.\n",
        "two/sub.md": "(sub)=\n# Sub\n\n" + figure.format(name="fig-sub", cap="Second."),
        "x.png": "png", "two/x.png": "png",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert "See Fig. 1.1, Fig. 2.1 and Section 2.2." in _text(convert_myst(tmp_path / "intro.md", site=site))
    (tmp_path / "_config.yml").write_text("title: B\nhtml:\n  use_multitoc_numbering: false\n")
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert "See Fig. 1.1, Fig. 1.2 and Section 1.2." in _text(convert_myst(tmp_path / "intro.md", site=site))
    (tmp_path / "_config.yml").write_text("title: B\n")
    toc = (tmp_path / "_toc.yml").read_text().replace("numbered: true", "numbered: 2")
    (tmp_path / "_toc.yml").write_text(toc)
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert "See Fig. 1.1, Fig. 1.2 and Section 1.2." in _text(convert_myst(tmp_path / "intro.md", site=site))


def test_autosectionlabel_makes_section_titles_labels(tmp_path: Path) -> None:
    # sphinx.ext.autosectionlabel: :ref:`docname:Title` (prefix_document) reads the section title;
    # sections below maxdepth get none
    (tmp_path / "conf.py").write_text("extensions = ['sphinx.ext.autosectionlabel', 'myst_parser']\n"
                                      "autosectionlabel_prefix_document = True\nautosectionlabel_maxdepth = 2\n")
    (tmp_path / "collaborate").mkdir()
    (tmp_path / "collaborate" / "send-messages.rst").write_text(
        "Send messages\n=============\n\nEdit Messages\n-------------\n\nText.\n\nDeep\n~~~~\n\nMore.\n")
    (tmp_path / "about.md").write_text("# About\n\n## Product Tiers\n\nText.\n")
    (tmp_path / "index.rst").write_text(
        "Home\n====\n\nSee :ref:`collaborate/send-messages:edit messages`, :ref:`about:Product Tiers`,\n"
        ":ref:`collaborate/send-messages:deep` and :ref:`the tiers <about:product tiers>`.\n")
    site = SphinxSite(tmp_path, "conf.py")
    text = convert_rst(tmp_path / "index.rst", site=site).sections[0].text
    assert text == "See Edit Messages, Product Tiers, collaborate/send-messages:deep and the tiers."


def test_jupyter_book_toc_sections_of_a_chapter_in_a_folder_are_numbered(
        tmp_path: Path, write_files: Callable[..., None]) -> None:
    # _toc.yml names every file from the book root, and sphinx-external-toc puts those
    # docnames in the toctree it appends to a chapter: a chapter in a folder
    # ("ch/overview") lists "ch/sec", not "ch/ch/sec"; its sections are numbered 1.1 and
    # their figures counted under chapter 1 (a course book's numrefs read "Fig. 1.1")
    figure = "```{figure} x.png\n:name: fig-sec\n\nA plot.\n```\n"
    write_files(tmp_path, {
        "_config.yml": "title: B\n",
        "_toc.yml": "format: jb-book\nroot: intro\nparts:\n- caption: A\n  numbered: 2\n  chapters:\n"
                    "  - file: ch/overview\n    sections:\n    - file: ch/sec\n",
        "intro.md": "# Intro\n\nSee {numref}`fig-sec` and {numref}`sec`.\n",
        "ch/overview.md": "# Chapter\n\nText.\n",
        "ch/sec.md": "(sec)=\n## Section one\n\n" + figure,
        "ch/x.png": "png",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    assert "See Fig. 1.1 and Section 1.1." in _text(convert_myst(tmp_path / "intro.md", site=site))


def test_myst_ref_text_keeps_math_and_backslashes(tmp_path: Path, write_files: Callable[..., None]) -> None:
    # a {ref} shows the heading or caption as written: in MyST a backslash escapes ASCII
    # punctuation only (CommonMark) and $...$ math is kept whole, so "$\hat{y}$" and "$\alpha$"
    # keep their backslashes ("$hat{y}$" was reST's escape rule applied to Markdown)
    write_files(tmp_path, {
        "_config.yml": "title: B\n",
        "_toc.yml": "format: jb-book\nroot: intro\nchapters:\n- file: ch\n",
        "intro.md": "# Intro\n\nSee {ref}`alpha`, {ref}`fit` and {ref}`star`.\n",
        "ch.md": "# Ch\n\n(alpha)=\n## The $\\alpha$ level\n\n```{figure} x.png\n:name: fit\n\n"
                 "Fitted $\\hat{y}_i$ model.\n```\n\n(star)=\n## A \\*starred\\* \\word\n",
        "x.png": "png",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    text = _text(convert_myst(tmp_path / "intro.md", site=site))
    assert "See The $\\alpha$ level, Fitted $\\hat{y}_i$ model. and A *starred* \\word." in text


def test_labels_of_an_excluded_file_a_page_includes_are_known(tmp_path: Path,
                                                               write_files: Callable[..., None]) -> None:
    # a generated help file kept out of the build (exclude_patterns) but included by a page: its
    # labels are the including document's (Sphinx reads the included text as that page's), so a
    # :ref: to one shows the section title, not the label
    write_files(tmp_path, {
        "conf.py": "project = 'P'\nexclude_patterns = ['help/*']\n",
        "index.rst": "Home\n====\n\n.. toctree::\n\n   funcs\n",
        "funcs.rst": "Functions\n=========\n\n.. include:: help/Color.rst\n   :start-after: :orphan:\n\n"
                     "Further reading: :ref:`fn-lighter`\n",
        "help/Color.rst": ":orphan:\n\n.. _fn-lighter:\n\nlighter\n.......\n\nReturns a lighter color.\n",
    })
    site = SphinxSite(tmp_path, "conf.py")
    text = " ".join(_text(convert_rst(tmp_path / "funcs.rst", site=site)).split())
    assert "Further reading: lighter" in text


def test_prf_ref_shows_the_proof_type_and_number(tmp_path: Path, write_files: Callable[..., None]) -> None:
    """sphinx-proof's ``{prf:ref}`` reads "Definition 2" (each type numbered on its own over
    the book, unlabelled blocks counted, ``:nonumber:`` ones not), never the label."""
    write_files(tmp_path, {
        "_config.yml": "title: B\nsphinx:\n  extra_extensions: [sphinx_proof]\n",
        "_toc.yml": BOOK_TOC,
        "intro.md": "# Welcome\n\n```{prf:definition}\nAn unlabelled one.\n```\n\n"
                    "```{prf:theorem} Stationarity\n:label: thm-stat\n\nA body.\n```\n",
        "guide/start.md": "# Start\n\n:::{prf:definition} Markov chain\n:label: def-mc\n\nA chain.\n:::\n\n"
                          "```{prf:lemma}\n:label: lem-free\n:nonumber:\n\nNo number.\n```\n\n"
                          "See {prf:ref}`def-mc`, {prf:ref}`thm-stat`, {prf:ref}`the chain <def-mc>`,\n"
                          "{prf:ref}`lem-free` and {prf:ref}`nowhere`.\n",
        "guide/pictures.md": "# Pictures\n",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    text = _text(convert_myst(tmp_path / "guide" / "start.md", site=site))
    assert "See Definition 2, Theorem 1, the chain, Lemma and nowhere." in text
    assert "def-mc" not in text and "thm-stat" not in text


def test_exercise_refs_read_as_sphinx_exercise_shows_them(tmp_path: Path, write_files: Callable[..., None]) -> None:
    """sphinx-exercise: ``{ref}`` to a numbered exercise reads as ``{numref}``, "Exercise 2"
    (its UpdateReferencesToEnumerated; numbered over the book, gated ``exercise-start`` too),
    to a ``:nonumber:`` one its title ("Exercise" without one); an explicit title as written."""
    write_files(tmp_path, {
        "_config.yml": "title: B\nsphinx:\n  extra_extensions: [sphinx_exercise]\n",
        "_toc.yml": BOOK_TOC,
        "intro.md": "# Welcome\n\n```{exercise} Factorials\n:label: ex-fact\n\nWrite it.\n```\n\n"
                    "```{exercise} Free\n:label: ex-free\n:nonumber:\n\nNo number.\n```\n\n"
                    "```{exercise}\n:label: ex-bare\n:nonumber:\n\nNo title.\n```\n",
        "guide/start.md": "# Start\n\n```{exercise-start}\n:label: ex-rank\n```\n\nRank pages.\n\n"
                          "```{exercise-end}\n```\n\nSee {ref}`ex-fact`, {ref}`ex-rank`, {numref}`ex-rank`,\n"
                          "{ref}`ex-free`, {ref}`ex-bare` and {ref}`that one <ex-fact>`.\n",
        "guide/pictures.md": "# Pictures\n",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    text = _text(convert_myst(tmp_path / "guide" / "start.md", site=site))
    assert "See Exercise 1, Exercise 2, Exercise 2, Free, Exercise and that one." in text


def test_prf_ref_in_rst_pages(tmp_path: Path, write_files: Callable[..., None]) -> None:
    write_files(tmp_path, {
        "conf.py": "project = 'P'\nextensions = ['sphinx_proof', 'sphinx_exercise']\n",
        "index.rst": "Home\n====\n\n.. prf:theorem:: Pythagoras\n   :label: pyth\n\n   A body.\n\n"
                     ".. prf:proof::\n\n   Draw them.\n\n.. prf:definition::\n\n   A set.\n\n"
                     ".. exercise:: Ranks\n   :label: ex-rank\n\n   Rank pages.\n\n"
                     ".. solution:: ex-rank\n\n   One way.\n\n"
                     "See :prf:ref:`pyth`.\n",
    })
    site = SphinxSite(tmp_path, "conf.py")
    text = _text(convert_rst(tmp_path / "index.rst", site=site))
    assert text.split("\n\n")[:10] == [
        "Theorem 1 (Pythagoras)", "A body.", "Proof.", "Draw them.", "Definition 1", "A set.",
        "Exercise 1 (Ranks)", "Rank pages.", "Solution to Exercise 1 (Ranks)", "One way."]
    assert "See Theorem 1." in text


def test_proof_and_exercise_blocks_lead_with_their_number(tmp_path: Path, write_files: Callable[..., None]) -> None:
    """The block's own header carries the number its references use ("Theorem 1.2
    (Neumann)", "Exercise 2.1", "Solution to Exercise 2.1 (Ranks)") under a numbered
    toctree; an unlabelled block is numbered too, a ``:nonumber:`` one is not."""
    write_files(tmp_path, {
        "_config.yml": "title: B\nsphinx:\n  extra_extensions: [sphinx_proof, sphinx_exercise]\n",
        "_toc.yml": "format: jb-book\nroot: intro\nparts:\n- numbered: true\n  chapters:\n"
                    "  - file: guide/start\n  - file: guide/pictures\n",
        "intro.md": "# Welcome\n",
        "guide/start.md": "# Start\n\n```{prf:theorem}\nUnlabelled.\n```\n\n"
                          "```{prf:Theorem} Neumann\n:label: neumann\n\nA body.\n```\n",
        "guide/pictures.md": "# Pictures\n\n```{prf:lemma} Free\n:nonumber:\n\nNo number.\n```\n\n"
                             "```{exercise} Ranks\n:label: ex-rank\n\nRank pages.\n```\n\n"
                             "```{solution} ex-rank\n:class: dropdown\n\nOne way.\n```\n\n"
                             "See {prf:ref}`neumann` and {numref}`ex-rank`.\n",
    })
    site = JupyterBookSite(tmp_path, "_config.yml")
    start = _text(convert_myst(tmp_path / "guide" / "start.md", site=site))
    assert "Theorem 1.1\n" in start and "Theorem 1.2 (Neumann)" in start
    pictures = _text(convert_myst(tmp_path / "guide" / "pictures.md", site=site))
    assert "Lemma (Free)" in pictures and "Exercise 2.1 (Ranks)" in pictures
    assert "Solution to Exercise 2.1 (Ranks)" in pictures
    assert "See Theorem 1.2 and Exercise 2.1." in pictures


def test_many_proof_blocks_are_scanned_in_linear_time() -> None:
    """Each block's place among its kind is counted, not recounted from the page's labels."""
    import time

    from murar.ingest.sites._xrefs import _scan_myst

    text = "# T\n\n" + "".join(f"```{{prf:theorem}} T{i}\n:label: t{i}\nBody.\n```\n\n" for i in range(20_000))
    start = time.perf_counter()
    found = _scan_myst(text)
    assert len(found.figures) == 20_000
    assert time.perf_counter() - start < 5.0
