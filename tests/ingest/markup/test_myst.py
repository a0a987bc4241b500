"""MyST Markdown converter on tiny Jupyter Book / Sphinx+MyST projects written by each test."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from murar.ingest.markup.myst import convert_myst
from murar.ingest.sites.jupyterbook import JupyterBookSite
from murar.ingest.sites.sphinx import SphinxSite
from murar.schema import ImageItem, ParsedDocument, TableItem, VideoItem


def _png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 6), "white").save(path)


def _book(tmp_path: Path, files: dict[str, str], config: str = "title: T\n") -> JupyterBookSite:
    (tmp_path / "_config.yml").write_text(config)
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return JupyterBookSite(tmp_path, "_config.yml")


def _images(doc: ParsedDocument) -> list[ImageItem]:
    return [m for m in doc.media if isinstance(m, ImageItem)]


def test_figure_directive_caption_image_and_markdown_image(tmp_path: Path) -> None:
    _png(tmp_path / "images" / "branch.png")
    _png(tmp_path / "pages" / "figs" / "local.png")
    site = _book(tmp_path, {"pages/p.md": """\
---
title: Branching
---
(branch-label)=
## Make a branch

Click {guilabel}`New branch` then {menuselection}`Repo --> Branches`.

```{figure} ../images/branch.png
---
width: 70%
name: fig-branch
alt: branch button
---
Click the *highlighted* button to make a new branch.
```

After the figure. ![Local shot](figs/local.png "local title")

:::{image} /images/branch.png
:alt: again
:::
"""})
    doc = convert_myst(tmp_path / "pages" / "p.md", site=site)
    assert doc.title == "Branching"
    sec = doc.sections[-1]
    assert sec.heading_path == ("Make a branch",) and sec.anchor == "branch-label"
    assert "Click New branch then Repo > Branches." in sec.text
    fig, md, again = _images(doc)
    assert fig.path == "images/branch.png" and fig.exists and fig.alt == "branch button"
    assert fig.caption == "Click the highlighted button to make a new branch."
    assert fig.context_before.endswith("Repo > Branches.") and fig.context_after.startswith("After the figure.")
    assert md.path == "pages/figs/local.png" and md.alt == "Local shot" and md.caption == "local title"
    assert again.path == "images/branch.png" and again.alt == "again"
    assert doc.warnings == []


def test_admonitions_colon_fences_containers_and_code(tmp_path: Path) -> None:
    site = _book(tmp_path, {"p.md": """\
# Page

```{note}
Save **often**.
```

:::{warning}
Back up first.
:::

```{admonition} Custom title
Body of custom.
```

````{tab-set}
```{tab-item} GitLab
Use the GitLab button.
```
```{tab-item} GitHub
Use the GitHub button.
```
````

```{toctree}
hidden-entry
```

```python
print("code")
```

% a comment that is not text
Last line {sub}`2` with {{ product }}.
""", "_config.yml": "title: T\nparse:\n  myst_substitutions:\n    product: Murar\n"})
    doc = convert_myst(tmp_path / "p.md", site=site)
    text = doc.sections[0].text
    for expected in ("Note: Save often.", "Warning: Back up first.", "Custom title: Body of custom.", "GitLab",
                     "Use the GitLab button.", "Use the GitHub button.", 'print("code")', "Last line 2 with Murar."):
        assert expected in text, expected
    assert "hidden-entry" not in text and "comment" not in text and "{" not in text


def test_list_table_csv_table_and_pipe_table(tmp_path: Path) -> None:
    site = _book(tmp_path, {"t.md": """\
# Tables

```{list-table} Options
:header-rows: 1

* - Name
  - Default
* - `--max`
  - 500
```

```{csv-table} Sizes
:header: "Size", "Pixels"

small, 10
```

```{table} Pipe caption
| a | b |
|---|---|
| 1 | 2 |
```
"""})
    doc = convert_myst(tmp_path / "t.md", site=site)
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [(t.caption, t.headers, t.rows) for t in tables] == [
        ("Options", ["Name", "Default"], [["--max", "500"]]),
        ("Sizes", ["Size", "Pixels"], [["small", "10"]]),
        ("Pipe caption", ["a", "b"], [["1", "2"]]),
    ]


def test_include_parses_at_the_include_point_with_page_relative_images(tmp_path: Path) -> None:
    _png(tmp_path / "a" / "shot.png")
    _png(tmp_path / "parts" / "own.png")
    site = _book(tmp_path, {
        "a/page.md": "# Page\n\nBefore.\n\n```{include} ../parts/steps.md\n```\n\nAfter.\n",
        "parts/steps.md": "## Steps\n\nStep one.\n\n![shot](shot.png)\n",
        "a/rel.md": "# Rel\n\n```{include} ../parts/own.md\n:relative-images:\n```\n",
        "parts/own.md": "![own](own.png)\n",
    })
    assert site.classify("parts/steps.md").role.value == "include"
    doc = convert_myst(tmp_path / "a" / "page.md", site=site)
    assert [s.heading_path for s in doc.sections] == [("Page",), ("Page", "Steps")]
    assert "After." in doc.sections[1].text
    (img,) = _images(doc)
    assert img.path == "a/shot.png" and img.exists  # MyST: relative to the including document
    (own,) = _images(convert_myst(tmp_path / "a" / "rel.md", site=site))
    assert own.path == "parts/own.png" and own.exists


def test_quoted_include_markers_lose_their_quotes(tmp_path: Path) -> None:
    # myst-parser reads a directive's ":key: value" lines as YAML: a quoted start-after/end-before
    # marker is the text inside the quotes, so only the part between the markers is included
    site = _book(tmp_path, {
        "intro.md": "# Home\n\n```{include} README.md\n:start-after: 'intro-begin -->'\n"
                    ":end-before: \"<!-- intro-end\"\n```\n",
        "README.md": "# Repo readme\n\nBadges.\n\n<!-- intro-begin -->\nThe kept part.\n<!-- intro-end -->\n\n"
                     "## Sponsors\n\n![logo](sponsor.png)\n",
    })
    doc = convert_myst(tmp_path / "intro.md", site=site)
    assert [(s.heading_path, s.text) for s in doc.sections] == [(("Home",), "The kept part.")]
    assert not doc.media and not doc.warnings


def test_eval_rst_block_and_html_embeds(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "x.png")
    site = _book(tmp_path, {"p.md": """\
# Embeds

```{eval-rst}
.. figure:: img/x.png

   Caption from rST.
```

<iframe src="https://www.youtube.com/embed/abc" title="Intro video"></iframe>

<iframe src="https://tudelft.h5p.com/content/123/embed"></iframe>

<img src="img/x.png" alt="raw img">
"""})
    doc = convert_myst(tmp_path / "p.md", site=site)
    rst_fig, raw = _images(doc)
    assert rst_fig.caption == "Caption from rST." and rst_fig.path == "img/x.png"
    assert raw.alt == "raw img" and raw.exists
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [v.url for v in videos] == ["https://www.youtube.com/embed/abc"]  # a quiz iframe is not a video


def test_unknown_directive_keeps_body_with_warning(tmp_path: Path) -> None:
    site = _book(tmp_path, {"p.md": "# P\n\n```{custom_download_link} file.zip\nDownload the data.\n```\n"})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert "Download the data." in doc.sections[0].text
    assert any("custom_download_link" in w for w in doc.warnings)


def test_sphinx_project_with_myst_parser(tmp_path: Path) -> None:
    _png(tmp_path / "docs" / "_static" / "a.png")
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['myst_parser']\n")
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n```{image} /_static/a.png\n```\n")
    site = SphinxSite(tmp_path, "docs/conf.py")
    assert site.classify("docs/guide.md").markup == "myst"
    (img,) = _images(convert_myst(tmp_path / "docs" / "guide.md", site=site))
    assert img.path == "docs/_static/a.png" and img.exists


def test_inline_attributes_code_cells_and_glue_do_not_leak(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "a.png")
    site = _book(tmp_path, {"p.md": """\
# Sample

![Alt text](img/a.png){width=200px align=center}

```{code-cell} ipython3
:tags: [hide-input]
import numpy as np
```

```{glue:figure} boot_fig
:figwidth: 300px
```

```{bibliography}
```
"""})
    doc = convert_myst(tmp_path / "p.md", site=site)
    text = doc.sections[0].text
    assert text == "import numpy as np"
    (img,) = _images(doc)
    assert img.alt == "Alt text" and img.exists


def test_design_card_image_option(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "card.png")
    site = _book(tmp_path, {"p.md": "# P\n\n:::{card} Install guide\n:img-top: img/card.png\n\nStart here.\n:::\n"})
    doc = convert_myst(tmp_path / "p.md", site=site)
    (img,) = _images(doc)
    assert img.path == "img/card.png" and img.alt == "Install guide"
    assert "Start here." in doc.sections[0].text


def test_sphinx_panels_split_into_cards_and_link_button_shows_its_text(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "top.png")
    _png(tmp_path / "img" / "inside.png")
    body = ("````{panels}\n:container: +full-width\n:column: col-lg-6\n---\n:header: bg-success\n"
            ":img-top: img/top.png\n**Install**\n^^^\nGet the package.\n\n![shot](img/inside.png)\n+++\n"
            "Footer one\n---\n\n**Learn**\n^^^\nRead the tutorial.\n````\n\n"
            "```{link-button} https://example.org\n:text: Visit example\n:classes: btn-primary\n```\n")
    site = _book(tmp_path, {"p.md": "# P\n\n" + body})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert doc.sections[0].text == ("Install\n\nGet the package.\n\nFooter one\n\nLearn\n\n"
                                    "Read the tutorial.\n\nVisit example")
    assert [m.path for m in _images(doc)] == ["img/top.png", "img/inside.png"]
    assert [s.heading_path for s in doc.sections] == [("P",)]


def test_list_table_cells_keep_figures_and_code(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "a.png")
    body = ("```{list-table}\n:header-rows: 1\n\n* - Mode\n  - Example\n* - Multiply\n"
            "  - ```{figure} img/a.png\n    Multiply result.\n    ```\n* - Code\n  - ```python\n    x = 1\n    ```\n```\n")
    site = _book(tmp_path, {"p.md": "# P\n\n" + body})
    doc = convert_myst(tmp_path / "p.md", site=site)
    (img,) = _images(doc)
    assert img.path == "img/a.png" and img.caption == "Multiply result."
    (table,) = [m for m in doc.media if isinstance(m, TableItem)]
    assert table.rows == [["Multiply", "Multiply result."], ["Code", "x = 1"]]


def test_mystmd_figure_of_several_images_keeps_every_subfigure(tmp_path: Path) -> None:
    # mystmd "Subfigures": each image line of a {figure} is a subfigure under the figure's caption
    _png(tmp_path / "img" / "a.png")
    _png(tmp_path / "img" / "b.png")
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  toc:\n    - file: intro.md\n")
    (tmp_path / "intro.md").write_text("# P\n\n:::{figure}\n:label: pair\n(sub-a)=\n![Left side](img/a.png)\n"
                                       "(sub-b)=\n![Right side](img/b.png)\n\nBoth sides.\n:::\n")
    doc = convert_myst(tmp_path / "intro.md", site=JupyterBookSite(tmp_path, "myst.yml"))
    assert [(m.path, m.alt, m.caption) for m in _images(doc)] == [
        ("img/a.png", "Left side", "Both sides."), ("img/b.png", "Right side", "Both sides.")]


def test_deeply_nested_directives_are_bounded(tmp_path: Path) -> None:
    depth = 60
    body = "".join(f"{':' * (depth + 3 - i)}{{note}}\n" for i in range(depth)) + "Deep text.\n" + "".join(
        f"{':' * (4 + i)}\n" for i in range(depth))
    site = _book(tmp_path, {"p.md": "# P\n\n" + body})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert any("nested deeper" in w for w in doc.warnings)
    assert "Deep text." in doc.sections[0].text


def test_include_heading_offset(tmp_path: Path) -> None:
    site = _book(tmp_path, {"p.md": "# Page\n\n```{include} part.md\n:heading-offset: 1\n```\n",
                            "part.md": "# Part title\n\nPart text.\n"})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert [s.heading_path for s in doc.sections] == [("Page",), ("Page", "Part title")]


def test_non_web_video_urls_are_never_kept(tmp_path: Path) -> None:
    site = _book(tmp_path, {"p.md": '# P\n\n<iframe src="javascript:alert(2)"></iframe>\n\n'
                                    '<video src="file:///etc/passwd"></video>\n\n```{youtube} abc\n```\n'})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert [m.url for m in doc.media if isinstance(m, VideoItem)] == ["https://www.youtube.com/embed/abc"]
    assert any("file:///etc/passwd" in w and "not kept" in w for w in doc.warnings)


@pytest.mark.parametrize(("body", "sentence"), [
    # one rule for rST and MyST (murar.ingest.markup.roles.role_text)
    pytest.param("See {pep}`8#naming`, {rfc}`2616` and {pep}`the style guide <8>`.",
                 "See PEP 8, RFC 2616 and the style guide.", id="pep-and-rfc"),
    # sphinx.roles.GUILabel (MenuSelection extends it): '&' before a letter marks an accelerator,
    # '&' before a blank is an ampersand, '&&' an ampersand after the first accelerator
    pytest.param("Use {guilabel}`Search & Replace`, {menuselection}`&File --> &Open` and {guilabel}`&Print && Export`.",
                 "Use Search & Replace, File > Open and Print & Export.", id="guilabel-and-menuselection-accelerators"),
    # Sphinx draws a {variable} part of :samp:/:file: emphasized, braces gone; \\{ is a brace
    pytest.param("Edit {file}`{prefix}/lib/python{version}` or run {samp}`print(1 + {variable})`; {samp}`a \\{b\\} c` stays.",
                 "Edit prefix/lib/pythonversion or run print(1 + variable); a {b} c stays.",
                 id="samp-and-file-variable-parts-without-braces"),
])
def test_sphinx_roles_read_as_sphinx_renders_them(tmp_path: Path, body: str, sentence: str) -> None:
    """A paragraph ``body`` of Sphinx roles in a MyST page reads as the ``sentence`` Sphinx renders."""
    site = _book(tmp_path, {"p.md": f"# P\n\n{body}\n"})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert sentence in doc.sections[0].text


def test_scheme_autolinks_spans_and_field_lists_read_as_sphinx_draws_them(tmp_path: Path) -> None:
    # myst-parser: <project:#label>/<project:page.md> show the target's title, <path:...> the path,
    # <inv:...#name> the name; [text]{.class} is a span (attrs_inline); ":name: body" a field
    # (fieldlist). All three were left as written ("project:#setup", "[red]{.red}", ":Author: Jane").
    site = _book(tmp_path, {
        "intro.md": "# Welcome\n",
        "guide.md": "# Guide\n\n(setup)=\n## Set up\n\nSee <project:#setup>, <project:intro.md>, "
                    "<path:data/x.csv>, <inv:python#dict> and <https://example.com>.\n\n"
                    "A [red word]{.red} here.\n\n:Author: Jane\n:Version: 3.2\n",
    })
    doc = convert_myst(tmp_path / "guide.md", site=site)
    text = doc.sections[-1].text
    assert text.split("\n\n") == [
        "See Set up, Welcome, data/x.csv, dict and https://example.com.", "A red word here.",
        "Author: Jane", "Version: 3.2"]


def test_proof_blocks_lead_with_their_kind_and_title(tmp_path: Path) -> None:
    # sphinx-proof: "Theorem 1 (Pythagoras)", "Proof.", "Definition 1"; the title alone was shown
    # ("Pythagoras"), an untitled block had no lead, and kinds such as corollary warned as unknown
    site = _book(tmp_path, {"p.md": """\
# Math

````{prf:theorem} Pythagoras
:label: thm-pyth

The squares add up.
````

```{prf:proof}
Draw them.
```

```{prf:definition}
:label: def-k
A k-set is a set.
```

```{prf:corollary} Converse
It holds.
```
"""})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert doc.sections[0].text.split("\n\n") == [
        "Theorem 1 (Pythagoras)", "The squares add up.", "Proof.", "Draw them.", "Definition 1", "A k-set is a set.",
        "Corollary 1 (Converse)", "It holds."]
    assert not doc.warnings


def test_mystmd_aside_proof_prefix_and_card_header_footer(tmp_path: Path) -> None:
    # mystmd's {aside}, {proof:theorem} (its spelling of sphinx-proof's prf:) and a card's
    # :header:/:footer: options: the first two warned as unknown directives, the last were lost
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  toc:\n    - file: intro.md\n")
    (tmp_path / "intro.md").write_text("""\
# Intro

:::{aside}
A side note.
:::

:::{proof:theorem} Orthogonal
:label: thm
Body of the theorem.
:::

:::{card} Title
:header: Top line
:footer: Bottom line
Card body.
:::
""")
    doc = convert_myst(tmp_path / "intro.md", site=JupyterBookSite(tmp_path, "myst.yml"))
    assert doc.sections[0].text.split("\n\n") == [
        "A side note.", "Theorem (Orthogonal)", "Body of the theorem.", "Top line", "Title", "Card body.",
        "Bottom line"]
    assert not doc.warnings


def test_an_image_drawn_small_by_its_width_is_tiny(tmp_path: Path) -> None:
    # {image} :width: 20px and ![](x){width="1.5em"} are glyphs (tiny) whatever the file's size
    from PIL import Image

    (tmp_path / "img").mkdir()
    for name in ("a", "b", "c"):
        Image.new("RGB", (400, 300), (len(name) * 30, 9, 9)).save(tmp_path / "img" / f"{name}.png")
    site = _book(tmp_path, {"p.md": "# P\n\n```{image} img/a.png\n:width: 20px\n```\n\n"
                                    "Press ![b](img/b.png){width=\"1.5em\"} now.\n\n![c](img/c.png){width=600px}\n"})
    doc = convert_myst(tmp_path / "p.md", site=site)
    from murar.schema import ImageItem
    assert [(Path(m.path or "").name, sorted(m.flags)) for m in doc.media if isinstance(m, ImageItem)] == [
        ("a.png", ["tiny"]), ("b.png", ["inline", "tiny"]), ("c.png", [])]


def test_a_sphinx_page_starting_at_h2_is_titled_by_that_heading(tmp_path: Path) -> None:
    # Sphinx (myst-parser, Jupyter Book 1) titles a document by its first section whatever its
    # level: a page opening with "## Getting started" was titled by its file name ("h2")
    site = _book(tmp_path, {"h2.md": "## Getting started\n\nText.\n\n### Sub\n\nMore.\n\n## Second\n\nLast.\n"})
    doc = convert_myst(tmp_path / "h2.md", site=site)
    assert doc.title == "Getting started"
    assert [s.heading_path for s in doc.sections] == [
        ("Getting started",), ("Getting started", "Sub"), ("Second",)]


def test_footnotes_are_text_and_references_go(tmp_path: Path) -> None:
    # MyST footnotes ([^name] references, "[^name]: text" definitions, indented continuation)
    site = _book(tmp_path, {"intro.md": """\
# Setup

Clone the project[^no-git] and build it.

[^no-git]: A zip download works without git.

    It holds the same files.

## Next

More text.
"""})
    doc = convert_myst(tmp_path / "intro.md", site=site, assets_dir=tmp_path / "a")
    text = "\n".join(s.text for s in doc.sections)
    assert "Clone the project and build it." in text
    assert "A zip download works without git.\n\nIt holds the same files." in text
    assert "[^" not in text


def test_video_files_in_figures_and_image_wildcards(tmp_path: Path) -> None:
    # mystmd "Videos": {figure}/{image}/![]() of an .mp4 is a video; "name.*" picks the best existing file
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "demo.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    _png(tmp_path / "media" / "chart.png")
    _png(tmp_path / "media" / "clip.png")
    (tmp_path / "media" / "clip.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    files = {"intro.md": """\
# Tour

:::{figure} media/demo.mp4
The editor in action.
:::

![Chart](media/chart.*)

![](media/clip.*)
"""}
    for config, clip_is_video in (("_config.yml", False), ("myst.yml", True)):
        for rel, text in files.items():
            (tmp_path / rel).write_text(text)
        (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  toc:\n    - file: intro.md\n")
        site = _book(tmp_path, files) if config == "_config.yml" else JupyterBookSite(tmp_path, "myst.yml")
        doc = convert_myst(tmp_path / "intro.md", site=site, assets_dir=tmp_path / "a")
        videos = [(v.path, v.title) for v in doc.media if isinstance(v, VideoItem)]
        images = [i.path for i in _images(doc)]
        assert videos[0] == ("media/demo.mp4", "The editor in action.")
        assert images[0] == "media/chart.png"
        assert (("media/clip.mp4", "Tour") in videos) is clip_is_video
        assert ("media/clip.png" in images) is not clip_is_video
        assert not [w for w in doc.warnings if "not an image" in w]


def test_admonition_title_is_inline_markdown(tmp_path: Path) -> None:
    site = _book(tmp_path, {"intro.md": """\
# Tips

:::{hint} Use `jb` as a **short-hand**
The alias works everywhere.
:::

::::{admonition} The {term}`CLI` *flags*
Pass them after the command.
::::
"""})
    doc = convert_myst(tmp_path / "intro.md", site=site, assets_dir=tmp_path / "a")
    text = doc.sections[0].text
    # myst-parser (Jupyter Book 1, Sphinx): {hint} takes no argument, its first line is content
    assert "Hint: Use jb as a short-hand The alias works everywhere." in text
    assert "The CLI flags: Pass them after the command." in text
    # mystmd (myst.yml) reads the first line as the admonition's title, which replaces the kind
    # (myst-spec AdmonitionTitle: "Custom title for admonition, replaces kind as title"); it
    # read "Hint Use jb as a short-hand" (Jupyter Book 2's docs: "Important Objective")
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  toc:\n    - file: intro.md\n")
    doc = convert_myst(tmp_path / "intro.md", site=JupyterBookSite(tmp_path, "myst.yml"), assets_dir=tmp_path / "b")
    text = doc.sections[0].text
    assert "Use jb as a short-hand: The alias works everywhere." in text and "Hint" not in text
    assert "The CLI flags: Pass them after the command." in text


def test_mystmd_admonition_title_from_its_opening_heading_or_bold_line(tmp_path: Path) -> None:
    # mystmd: a kind with no title argument takes a heading or an all-bold paragraph opening its
    # body as its title (myst-transforms admonitionHeadersTransform, "Admonition Titles" in the
    # MyST guide); the heading is no heading of the page. It read as a section "Coming from
    # Sphinx?" that took the page's next headings under it (the MyST guide's landing page)
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  toc:\n    - file: intro.md\n")
    (tmp_path / "intro.md").write_text("""\
---
title: Tools
---

## Start

:::{seealso}
:class: dropdown

# Coming from Sphinx?

Read the background page.
:::

:::{note}
**Looking for the old docs?**

They moved.
:::

:::{tip}
**Bold** start, then words.
:::

## Goals

Speed.
""")
    doc = convert_myst(tmp_path / "intro.md", site=JupyterBookSite(tmp_path, "myst.yml"), assets_dir=tmp_path / "a")
    paths = [s.heading_path for s in doc.sections]
    assert ("Tools", "Start") in paths and ("Tools", "Goals") in paths
    assert not [p for p in paths if "Coming from Sphinx?" in p]
    start = next(s.text for s in doc.sections if s.heading_path == ("Tools", "Start"))
    assert "Coming from Sphinx?: Read the background page." in start
    assert "Looking for the old docs?: They moved." in start
    assert "Tip: Bold start, then words." in start  # a bold run with words after it: no title


def test_myst_parser_heading_in_directive_list_or_quote_is_a_rubric(tmp_path: Path) -> None:
    # myst-parser (Jupyter Book 1, Sphinx) makes a section only under the document or a section
    # (render_heading): a heading in a directive's content, a list item or a block quote is a
    # rubric, text that takes no blocks under it; {include}d text is parsed in place and Sphinx's
    # only allows titles. It made "After the tabs." part of "On Linux", and the page's next
    # section a child of the note's heading
    site = _book(tmp_path, {"intro.md": """\
# Intro

::::{tab-set}
:::{tab-item} Windows
## On Windows
Run setup.exe.
:::
:::{tab-item} Linux
## On Linux
Run apt.
:::
::::

After the tabs.

```{note}
# In a note
Body of note.
```

- item

  ## In a list

> ## In a quote

```{include} part.md
```

```{only} html
## Only section
Shown.
```

## Real section

Text.
""", "part.md": "## Included section\n\nIncluded text.\n"})
    doc = convert_myst(tmp_path / "intro.md", site=site, assets_dir=tmp_path / "a")
    assert [s.heading_path for s in doc.sections] == [
        ("Intro",), ("Intro", "Included section"), ("Intro", "Only section"), ("Intro", "Real section")]
    assert doc.sections[0].text == (
        "Windows\n\nOn Windows\n\nRun setup.exe.\n\nLinux\n\nOn Linux\n\nRun apt.\n\nAfter the tabs.\n\n"
        "Note:\n\nIn a note\n\nBody of note.\n\nitem\n\nIn a list\n\nIn a quote")


def test_mystmd_github_blockquote_admonitions(tmp_path: Path) -> None:
    # mystmd turns a block quote opening with [!NOTE] (note, tip, important, warning, caution) or led
    # by a bold **Note**/**Warning** into that admonition (admonitionBlockquoteTransform; "Compatibility
    # with GitHub" in the MyST guide): the marker read "[!NOTE]" as text
    body = """\
# Alerts

> [!NOTE]
> Saved drafts expire.

> [!caution] Back up first.

> **Warning**
> Deleting is final.

> [!FOO]
> Stays as written.
"""
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  toc:\n    - file: intro.md\n")
    (tmp_path / "intro.md").write_text(body)
    doc = convert_myst(tmp_path / "intro.md", site=JupyterBookSite(tmp_path, "myst.yml"), assets_dir=tmp_path / "a")
    assert doc.sections[0].text == ("Note: Saved drafts expire.\n\nCaution: Back up first.\n\n"
                                    "Warning: Deleting is final.\n\n[!FOO] Stays as written.")
    # myst-parser (Jupyter Book 1) has no such transform: the quote reads as written
    (tmp_path / "jb1").mkdir()
    site = _book(tmp_path / "jb1", {"intro.md": body})
    doc = convert_myst(tmp_path / "jb1" / "intro.md", site=site, assets_dir=tmp_path / "b")
    assert doc.sections[0].text.startswith("[!NOTE] Saved drafts expire.")


def test_markdown_figures(tmp_path: Path) -> None:
    # myst-parser's {figure-md} (and the older ":::{figure,class} label" form): an image line, Markdown
    # or <img>, then the caption
    _png(tmp_path / "images" / "fish.png")
    _png(tmp_path / "images" / "droid.png")
    site = _book(tmp_path, {"intro.md": """\
# Figures

:::{figure-md} fig-fish
:class: myclass

<img src="images/fish.png" alt="fishy" width="200px">

This is a caption in **Markdown**!
:::

:::{figure,myclass} fig-droid
![droid](images/droid.png)

The droid, in *Markdown*.
:::
"""})
    doc = convert_myst(tmp_path / "intro.md", site=site, assets_dir=tmp_path / "a")
    assert [(i.path, i.alt, i.caption) for i in _images(doc)] == [
        ("images/fish.png", "fishy", "This is a caption in Markdown!"),
        ("images/droid.png", "droid", "The droid, in Markdown.")]
    assert "<img" not in doc.sections[0].text and "caption" not in doc.sections[0].text


def test_iframe_body_is_the_video_caption(tmp_path: Path) -> None:
    # mystmd: ":::{iframe} URL" with a body: the body is the caption of the embedded video
    site = _book(tmp_path, {"intro.md": """\
# Tour

:::{iframe} https://www.youtube.com/embed/F3st8X0L1Ys
:width: 100%
Get up and running with *MyST* in Jupyter!
:::
"""})
    doc = convert_myst(tmp_path / "intro.md", site=site, assets_dir=tmp_path / "a")
    assert [(v.url, v.title) for v in doc.media if isinstance(v, VideoItem)] == [
        ("https://www.youtube.com/embed/F3st8X0L1Ys", "Get up and running with MyST in Jupyter!")]


def test_sub_ref_shows_the_sphinx_substitution(tmp_path: Path) -> None:
    # {sub-ref}`release` is Sphinx's |release| (conf.py's value; empty when conf.py computes it)
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\nrelease = '2.1.0'\n")
    (tmp_path / "index.md").write_text("# Home\n\nRelease **{sub-ref}`release`** ({sub-ref}`wordcount-words` words).\n")
    doc = convert_myst(tmp_path / "index.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "Release 2.1.0 ( words)."


def test_math_keeps_its_latex_with_equation_numbers(tmp_path: Path) -> None:
    # dollarmath and {math}: LaTeX source in "$"/"$$" delimiters; a labelled equation shows its number
    site = _book(tmp_path, {"laws.md": "# Laws\n\nSpeed $v_1 = d/t$ and {math}`\\alpha`.\n\n"
                                       "$$\nF = m a\n$$ (newton)\n\n"
                                       "```{math}\n:label: mom\np = m v\n```\n\n$$ \\int_0^1 f $$\n\n"
                                       "By {eq}`newton` and {eq}`mom`.\n"})
    text = "\n".join(s.text for s in convert_myst(tmp_path / "laws.md", site=site).sections)
    assert "Speed $v_1 = d/t$ and $\\alpha$." in text
    assert "$$\nF = m a\n$$ (1)" in text and "$$\np = m v\n$$ (2)" in text
    assert "$$\n\\int_0^1 f\n$$" in text and "By (1) and (2)." in text


def test_only_and_ifconfig_conditions_are_not_text(tmp_path: Path) -> None:
    site = _book(tmp_path, {"c.md": """\
# Conditions

```{only} html
Screen text.
```

:::{ifconfig} release_level in ('beta',)
Beta text.
:::

Closing text.
"""})
    text = convert_myst(tmp_path / "c.md", site=site).sections[0].text
    assert text.split("\n\n") == ["Screen text.", "Beta text.", "Closing text."]


def test_version_changes_read_as_sphinx_renders_them(tmp_path: Path) -> None:
    site = _book(tmp_path, {"v.md": """\
# Versions

```{versionadded} 4.4
```

```{versionchanged} 25 Reply links no longer offer a comment box.
```

```{deprecated} 3.1
Use the *new* importer.
```
"""})
    text = convert_myst(tmp_path / "v.md", site=site).sections[0].text
    assert text.split("\n\n") == ["New in version 4.4.", "Changed in version 25: Reply links no longer offer a comment box.",
                                  "Deprecated since version 3.1: Use the new importer."]


def test_sphinx_hyphenated_version_change_names_are_the_same_directives(tmp_path: Path) -> None:
    # Sphinx 7.3's version-added & co. (sphinx/domains/changeset.py), as myst-parser runs them
    site = _book(tmp_path, {"v.md": "# Versions\n\n```{version-added} 4.4\n```\n\n"
                                    "```{version-deprecated} 3.1\nUse the *new* importer.\n```\n"})
    doc = convert_myst(tmp_path / "v.md", site=site)
    assert doc.sections[0].text.split("\n\n") == ["New in version 4.4.",
                                                   "Deprecated since version 3.1: Use the new importer."]
    assert not doc.warnings


def test_icon_roles_show_no_text(tmp_path: Path) -> None:
    site = _book(tmp_path, {"i.md": "# Icons\n\nOpen {octicon}`gear;1em;sd-text-info` **Settings**, then {fab}`github` GitHub.\n"})
    text = convert_myst(tmp_path / "i.md", site=site).sections[0].text
    assert text == "Open Settings, then GitHub."


def test_a_target_names_the_next_block_only(tmp_path: Path) -> None:
    # "(label)=" names the block right after it (docutils moves a target onto the next node
    # that is not invisible): a paragraph in between means the later heading keeps its own anchor
    site = _book(tmp_path, {"t.md": """\
# Page

(unpacking)=
For example, a paragraph the label names.

## Graphics

(kept)=
```{index} single: Plots
```

## Plots
"""})
    anchors = [s.anchor for s in convert_myst(tmp_path / "t.md", site=site).sections]
    assert anchors == ["page", "graphics", "kept"]


def test_exercises_and_solutions_with_gated_directives(tmp_path: Path) -> None:
    # sphinx-exercise: "Exercise 1 (Title)"; a solution's argument is the exercise's label (not text)
    # and it reads "Solution to Exercise 1 (Title)"; the gated -start/-end form wraps ordinary content
    site = _book(tmp_path, {"e.md": """\
# Exercises

```{exercise-start} Restart Jupyter
:label: gs_ex1
```

Quit with `Ctrl-C`.

```{exercise-end}
```

```{solution-start} gs_ex1
:class: dropdown
```

Start your browser.

```{solution-end}
```

```{exercise}
:hidden:
Not shown.
```
"""})
    doc = convert_myst(tmp_path / "e.md", site=site)
    assert doc.sections[0].text.split("\n\n") == ["Exercise 1 (Restart Jupyter)", "Quit with Ctrl-C.",
                                                  "Solution to Exercise 1 (Restart Jupyter)", "Start your browser."]
    assert not doc.warnings


def test_glossary_terms_and_markdown_definitions_and_hidden_doctest_setup(tmp_path: Path) -> None:
    # Sphinx's glossary under myst-parser: unindented lines are terms, the indented block
    # under them is a Markdown definition (roles and directives work); sphinx.ext.doctest's
    # testsetup/testcleanup are not shown, testoutput is code
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser', 'sphinx.ext.doctest']\n")
    (tmp_path / "g.md").write_text(
        "# Glossary\n\n```{testsetup}\nimport app\n```\n\n:::{glossary}\n\nEvent dict\nevent dictionary : key\n"
        "    All the logged values.\n\n    Passed through the {term}`processor` chain.\n\n    :::{seealso}\n"
        "    {doc}`processors`\n    :::\n\nProcessor\n    A callable.\n:::\n\n```{testoutput}\nok\n```\n")
    doc = convert_myst(tmp_path / "g.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == (
        "Event dict\n\nevent dictionary\n\nAll the logged values.\n\nPassed through the processor chain.\n\n"
        "See also: processors\n\nProcessor\n\nA callable.\n\nok")
    assert doc.warnings == []


def test_substitution_values_are_read_as_myst(tmp_path: Path) -> None:
    """napari's docs: conf.py's ``myst_substitutions`` hold Markdown (a code span, a whole code
    fence). myst-parser parses a value as MyST in isolation: inline where the reference is in a
    line, as blocks where it stands alone. murar showed "`tool=2.0`" with its backticks and
    dropped the alone-on-a-line fence (the install commands) without a word."""
    _png(tmp_path / "img" / "fish.png")
    (tmp_path / "conf.py").write_text(
        "extensions = ['myst_parser']\nmyst_enable_extensions = ['substitution', 'colon_fence']\n"
        "tool_version = '2.0'\nmyst_substitutions = {\n"
        "    'pin': f'`tool={tool_version}`',\n    'bold': 'a **strong** word',\n"
        "    'setup': '```sh\\npip install tool\\ntool init\\n```',\n"
        "    'shot': '```{image} img/fish.png\\n:alt: A fish\\n```',\n"
        "    'loop': 'before {{ loop }} after',\n    'self_block': '{{ self_block }}',\n}\n")
    (tmp_path / "index.md").write_text(
        "# Install\n\nPin {{ pin }} for {{ bold }}.\n\n{{ setup }}\n\nThen look:\n\n{{ shot }}\n\n"
        "Also {{ loop }}.\n\n{{ self_block }}\n\n{{ missing }}\n\nDone.\n")
    doc = convert_myst(tmp_path / "index.md", site=SphinxSite(tmp_path, "conf.py"))
    text = doc.sections[0].text
    assert "Pin tool=2.0 for a strong word." in text
    assert "pip install tool\ntool init" in text and "`" not in text and "**" not in text
    assert "Also before after." in text and "{{" not in text  # a value referring to itself: reported
    assert text.endswith("Done.")
    assert [(m.alt, m.path.split("/")[-1]) for m in _images(doc)] == [("A fish", "fish.png")]
    assert any("self_block" in w and "itself" in w for w in doc.warnings)
    assert any("{{ missing }} is not defined" in w for w in doc.warnings)


def test_substitution_values_that_multiply_are_bounded(tmp_path: Path) -> None:
    # each value refers twice to the next one, 40 levels deep (2**40 expansions if followed)
    subs = {f"s{i}": f"*x* {{{{ s{i + 1} }}}} {{{{ s{i + 1} }}}}" for i in range(40)}
    subs.update({f"b{i}": f"{{{{ b{i + 1} }}}}\n\n{{{{ b{i + 1} }}}}" for i in range(40)})
    subs.update(s40="end", b40="end")
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\nmyst_enable_extensions = ['substitution']\n"
                                      f"myst_substitutions = {subs!r}\n")
    (tmp_path / "index.md").write_text("# T\n\nA {{ s0 }}.\n\n{{ b0 }}\n")
    doc = convert_myst(tmp_path / "index.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text.startswith("A x x")
    assert any("substitution values parsed on this page" in w for w in doc.warnings)


def test_code_directives_hide_what_their_extension_hides(tmp_path: Path) -> None:
    # the same rules as in reST: sphinx.ext.doctest ":hide:", IPython's ":suppress:" and pseudo-decorators
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\n")
    page = tmp_path / "p.md"
    page.write_text("# P\n\n```{testcode}\n:hide:\n\ncheck_hidden()\n```\n\n"
                    "```{ipython} python\n:suppress:\n\nimport secret_setup\n```\n\n"
                    "```{ipython} python\ndata = load()\n@savefig plot_1.png width=4in\ndata.plot()\n```\n\n"
                    "```{doctest}\n>>> shown()\n```\n")
    doc = convert_myst(page, site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "data = load()\ndata.plot()\n\n>>> shown()"


def test_icons_in_sentences_are_inline_and_dark_only_images_are_not_kept(tmp_path: Path) -> None:
    """MyST as the Markdown converter reads it: an image with words on its line is an
    icon (flag ``inline``), an ``<img>`` in a sentence too (a logo in a link between
    words), an image alone on its line is not; an ``{image}`` with
    ``:class: only-dark`` (pydata-sphinx-theme, Furo) is the dark twin, not kept."""
    for name in ("gear", "shot", "light", "dark"):
        p = tmp_path / "img" / f"{name}.png"
        p.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (200, 120), (10 * len(name), 40, 90)).save(p)
    site = _book(tmp_path, {"intro.md": """\
# Settings

Open the ![gear](img/gear.png) menu and choose
**Settings**:
![](img/shot.png)

Made with <a href="https://example.org"><img src="img/gear.png" alt="Tool"></a> for you.

```{image} img/dark.png
:class: only-dark
```

```{image} img/light.png
:class: only-light
```
"""})
    doc = convert_myst(tmp_path / "intro.md", site=site)
    flags = [(Path(i.path or "").name, i.flags) for i in _images(doc)]
    assert flags == [("gear.png", ["inline"]), ("shot.png", []), ("gear.png", ["inline"]), ("light.png", [])]
def test_myst_parser_nested_include_is_relative_to_the_document(tmp_path: Path) -> None:
    # myst-parser under Sphinx (checked with myst-parser 4.0 + sphinx-build 8.1): doc/index.md includes ../X.md,
    # whose '{include} sub/y.md' is doc/sub/y.md, not the root's sub/y.md
    from murar.ingest.markup.myst import convert_myst
    from murar.ingest.sites.sphinx import SphinxSite

    files = {"doc/conf.py": "extensions = ['myst_parser']\n",
             "doc/index.md": "# Home\n\n```{include} ../X.md\n```\n",
             "X.md": "Top text.\n\n```{include} sub/y.md\n```\n",
             "doc/sub/y.md": "From doc/sub.\n", "sub/y.md": "From root sub.\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    doc = convert_myst(tmp_path / "doc/index.md", site=SphinxSite(tmp_path, "doc/conf.py"), assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "Top text.\n\nFrom doc/sub."


def test_link_reference_definitions_reach_directive_bodies(tmp_path: Path) -> None:
    # myst-parser renders a directive's body with the document's markdown-it env, so a
    # `[text][]` or `![alt][shot]` inside a note uses the page's `[label]: url` definitions
    _png(tmp_path / "img" / "panel.png")
    site = _book(tmp_path, {"intro.md": """\
# Setup

Start with [the daemon][].

:::{note}
The [Daemon][the daemon] listens on a port; see [the guide][guide].

![Settings panel][panel]
:::

```{list-table}
* - [the daemon][]
  - port
```

[the daemon]: https://example.org/daemon
[guide]: https://example.org/guide
[panel]: img/panel.png
"""})
    doc = convert_myst(tmp_path / "intro.md", site=site)
    text = doc.sections[0].text
    assert "Note: The Daemon listens on a port; see the guide." in text
    assert "[" not in text
    (img,) = _images(doc)
    assert img.path == "img/panel.png" and img.exists and img.alt == "Settings panel"
    (table,) = [m for m in doc.media if isinstance(m, TableItem)]
    assert table.rows == [["the daemon", "port"]]


def test_mystmd_toc_directive_is_navigation_not_text(tmp_path: Path) -> None:
    # mystmd's {toc} lists the page's headings (context page/section) or the project's page titles
    # (project/children): navigation, as a {toctree} is; never an unknown directive
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  title: T\n")
    (tmp_path / "guide.md").write_text("# Guide\n\nStart here.\n\n:::{toc}\n:context: section\n:depth: 2\n:::\n\n"
                                       "## Install\n\nRun it.\n")
    doc = convert_myst(tmp_path / "guide.md", site=JupyterBookSite(tmp_path, "myst.yml"))
    assert doc.warnings == []
    assert doc.sections[0].text == "Start here."


def test_parsed_literal_body_is_read_with_inline_markup(tmp_path: Path) -> None:
    # myst-parser: docutils' parsed-literal parses its body with state.inline_text, which is MyST's
    # inline parser, so a link shows its text; the lines and their indentation stay a code block
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\n")
    (tmp_path / "api.md").write_text(
        "# API\n\nCall it:\n\n```{parsed-literal}\n[PUT /api/boxes/:name](box-endpoint)\n"
        "  body: {\"size\": *n*}\n```\n")
    doc = convert_myst(tmp_path / "api.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == 'Call it:\n\nPUT /api/boxes/:name\n  body: {"size": n}'


def test_design_cards_buttons_and_article_info_as_rendered(tmp_path: Path) -> None:
    """The MyST forms of sphinx-design's card (``^^^`` header, ``+++`` footer),
    buttons, ``article-info`` and an ``only-dark`` card's picture."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser', 'sphinx_design']\n")
    (tmp_path / "guide.md").write_text("# Setup guide\n\nText.\n")
    (tmp_path / "c.md").write_text("""\
# Cards

```{card} Pricing
Monthly plans
^^^
Pay per seat.
+++
Cancel any time.
```

```{button-link} https://example.org/buy
Buy a plan
```

```{button-ref} guide
```

````{grid} 2
```{grid-item-card} Night view
:img-top: https://example.org/night.png
:class-item: only-dark
```
```{grid-item-card} Day view
:img-top: https://example.org/day.png
```
````

```{article-info}
:author: Ann *Lee*
:date: May 2, 2024
```
""")
    site = SphinxSite(tmp_path, "conf.py")
    doc = convert_myst(tmp_path / "c.md", site=site)
    assert doc.sections[0].text == ("Monthly plans\n\nPricing\n\nPay per seat.\n\nCancel any time.\n\nBuy a plan\n\n"
                                    "Setup guide\n\nNight view\n\nDay view\n\nAnn Lee\n\nMay 2, 2024")
    assert [m.url for m in _images(doc)] == ["https://example.org/day.png"]


def test_code_block_and_literalinclude_captions_shown_above_the_code(tmp_path: Path) -> None:
    """MyST's ``{code-block}``/``{literalinclude}`` ``:caption:`` as Sphinx draws it."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\n")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "app.py").write_text("def run():\n    pass\n")
    (tmp_path / "c.md").write_text("""\
# Code

```{code-block} yaml
:caption: The **server** settings

port: 80
```

```{literalinclude} snippets/app.py
:caption:
```
""")
    doc = convert_myst(tmp_path / "c.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == ("The server settings\n\nport: 80\n\nsnippets/app.py\n\n"
                                    "def run():\n    pass")


def test_container_class_arguments_and_toggle_are_not_text(tmp_path: Path) -> None:
    """docutils ``container`` takes class names (``{container} margin``) and
    sphinx-togglebutton's ``{toggle}`` no argument: not page text, no warning."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser', 'sphinx_togglebutton']\n")
    (tmp_path / "c.md").write_text("""\
# Layout

::::{container} margin wide
```{toggle}
Hidden details.
```
::::
""")
    doc = convert_myst(tmp_path / "c.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "Hidden details."
    assert not doc.warnings


def test_link_without_text_to_a_label_with_a_non_url_scheme(tmp_path: Path) -> None:
    """myst-parser reads ``[](setup:install)`` (a scheme not in ``myst_url_schemes``)
    and ``[](install-steps)`` as "any" cross-references: the label's title; a
    scheme conf.py lists stays an external link (no text)."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\nmyst_url_schemes = ['http', 'https', 'ssh']\n")
    (tmp_path / "guide.md").write_text("# Guide\n\n(setup:install)=\n## Installing the agent\n\n"
                                       "(install-steps)=\n## Steps in order\n\nText.\n")
    (tmp_path / "c.md").write_text("# Links\n\nSee [](setup:install), then [](install-steps). "
                                   "Clone over [](ssh:git@example.org/repo).\n")
    doc = convert_myst(tmp_path / "c.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "See Installing the agent, then Steps in order. Clone over ."


def test_amsmath_environment_is_display_math_not_a_paragraph(tmp_path: Path) -> None:
    """A top-level ``\\begin{align}`` ... ``\\end{align}`` (MyST's amsmath extension)
    is display math with its backslashes kept; an unclosed one stays text."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\nmyst_enable_extensions = ['amsmath']\n")
    (tmp_path / "m.md").write_text("# Model\n\nThe update rule:\n\n"
                                   "\\begin{align*}\n  w_{t+1} &= w_t - \\eta\\,g_t \\\\\n  b &= 0\n\\end{align*}\n\n"
                                   "\\begin{equation} left open\n")
    doc = convert_myst(tmp_path / "m.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == ("The update rule:\n\n$$\n\\begin{align*}\n  w_{t+1} &= w_t - \\eta\\,g_t \\\\\n"
                                    "  b &= 0\n\\end{align*}\n$$\n\n\\begin{equation} left open")


def test_amsmath_rule_is_linear_on_unclosed_environments() -> None:
    from murar.ingest.markup.myst import myst_markdown_it

    md = myst_markdown_it()
    tokens = md.parse("\\begin{equation}\n" * 20_000 + "\\end{equation}\n")
    assert [t.type for t in tokens] == ["amsmath"]


def test_text_notebook_code_cells_removed_by_tags(tmp_path: Path) -> None:
    """A MyST text notebook's ``{code-cell}`` tagged ``remove-input`` or ``remove-cell``
    (myst-nb, mystmd) is not on the page; ``hide-*`` tags only fold it."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_nb']\n")
    (tmp_path / "nb.md").write_text("""\
---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
---

# Analysis

```{code-cell} ipython3
:tags: [remove-input]
import secret_setup
```

```{code-cell} ipython3
:tags: ["thebe-init", "remove-cell"]
cache = {}
```

```{code-cell} ipython3
:tags: [hide-input]
total = 3
```
""")
    doc = convert_myst(tmp_path / "nb.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "total = 3"


def test_div_class_argument_is_not_text(tmp_path: Path) -> None:
    """``{div} full-width`` (a Jupyter Book page's layout class around a figure) is not page text."""
    _png(tmp_path / "plots" / "temp.png")
    site = _book(tmp_path, {"intro.md": "# Transects\n\n````{div} full-width\n```{figure} plots/temp.png\n"
                                        "Sea temperature along the line.\n```\n````\n"})
    doc = convert_myst(tmp_path / "intro.md", site=site)
    assert doc.sections[0].text == ""
    (img,) = _images(doc)
    assert img.caption == "Sea temperature along the line." and img.context_before == ""


def test_literalinclude_options_pick_lines_and_objects(tmp_path: Path) -> None:
    """myst-parser runs Sphinx's literalinclude: its pyobject/start-after/end-at/lines options apply."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\n")
    (tmp_path / "app.py").write_text("import os\n\n\ndef main():\n    run()\n\n# -- cli --\nparser = 1\nargs = 2\n")
    (tmp_path / "c.md").write_text("# Code\n\n```{literalinclude} app.py\n:pyobject: main\n```\n\n"
                                   "```{literalinclude} app.py\n:start-after: \"# -- cli --\"\n:end-at: args\n```\n\n"
                                   "```{literalinclude} app.py\n:lines: 1\n```\n")
    doc = convert_myst(tmp_path / "c.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "def main():\n    run()\n\nparser = 1\nargs = 2\n\nimport os"


@pytest.mark.parametrize(("conf", "page", "text"), [
    # {code-tab} (sphinx-tabs): a labelled tab with its code
    pytest.param("extensions = ['myst_parser', 'sphinx_tabs.tabs']\n", "# Install\n\n````{tabs}\n```{code-tab} py\nimport acme\n```\n"
                 "```{code-tab} bash Shell script\nacme --init\n```\n````\n",
                 "Python\n\nimport acme\n\nShell script\n\nacme --init", id="sphinx-tabs-code-tab"),
    pytest.param("extensions = ['myst_parser', 'sphinx.ext.ifconfig']\nlanguage = 'en'\n",
                 "# Notes\n\n```{ifconfig} language == 'de'\nNur Deutsch.\n```\n\n"
                 "```{ifconfig} language == 'en'\nEnglish only.\n```\n",
                 "English only.", id="ifconfig-evaluated"),
    pytest.param("extensions = ['myst_parser', 'sphinx_design']\n", "# Run\n\n````{tab-set-code}\n```{code-block} python\nrun()\n```\n\n"
                 "```js\nrun();\n```\n````\n",
                 "PYTHON\n\nrun()\n\nJS\n\nrun();", id="design-tab-set-code"),
])
def test_sphinx_extension_directive_in_myst(tmp_path: Path, conf: str, page: str, text: str) -> None:
    """A Sphinx extension's directive in a MyST page (``page``, under the ``conf`` conf.py that
    enables the extension) gives the page text ``text``, and no warning."""
    (tmp_path / "conf.py").write_text(conf)
    (tmp_path / "c.md").write_text(page)
    doc = convert_myst(tmp_path / "c.md", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == text
    assert not doc.warnings


def test_myst_figure_figclass_only_dark_is_the_dark_twin(tmp_path: Path) -> None:
    for name in ("light", "dark"):
        _png(tmp_path / "img" / f"{name}.png")
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser']\n")
    (tmp_path / "c.md").write_text("# Layout\n\n```{figure} img/light.png\n:figclass: only-light\n\nThe layout.\n```\n\n"
                                   "```{figure} img/dark.png\n:figclass: only-dark\n\nThe layout.\n```\n")
    doc = convert_myst(tmp_path / "c.md", site=SphinxSite(tmp_path, "conf.py"))
    assert [m.path for m in _images(doc)] == ["img/light.png"]


def test_text_notebook_markdown_cell_removed_by_its_tags(tmp_path: Path) -> None:
    """``+++ {"tags": ["remove-cell"]}`` gives the next Markdown cell of a MyST text
    notebook its tags (jupytext); myst-nb removes the cell up to the next break or code cell.
    In a page that is not a notebook the metadata changes nothing."""
    (tmp_path / "conf.py").write_text("extensions = ['myst_nb']\n")
    body = ("# Analysis\n\nIntro.\n\n+++ {\"tags\": [\"remove-cell\"]}\n\nInstructor notes.\n\n"
            "```{code-cell} ipython3\ntotal = 3\n```\n\n+++\n\nClosing words.\n")
    (tmp_path / "nb.md").write_text("---\njupytext:\n  text_representation:\n    format_name: myst\n"
                                    "kernelspec:\n  name: python3\n---\n\n" + body)
    (tmp_path / "plain.md").write_text(body)
    site = SphinxSite(tmp_path, "conf.py")
    assert convert_myst(tmp_path / "nb.md", site=site).sections[0].text == "Intro.\n\ntotal = 3\n\nClosing words."
    assert "Instructor notes." in convert_myst(tmp_path / "plain.md", site=site).sections[0].text


def test_mystmd_dark_mode_twin_figure_is_not_kept(tmp_path: Path) -> None:
    # mystmd's book theme is styled with Tailwind: ':class: hidden dark:block' shows a figure in dark
    # mode only, ':class: dark:hidden' is its light twin; both were kept, the same figure twice
    _png(tmp_path / "figures" / "well-dark.png")
    _png(tmp_path / "figures" / "well.png")
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  toc:\n    - file: intro.md\n")
    (tmp_path / "intro.md").write_text(
        "# Double well\n\n:::{figure} figures/well-dark.png\n:name: fig-dark\n:class: hidden dark:block\n"
        "The double well.\n:::\n\n:::{figure} figures/well.png\n:name: fig-light\n:class: dark:hidden\n"
        "The double well.\n:::\n\n```{image} figures/well.png\n:class: hidden dark:invert\n```\n")
    doc = convert_myst(tmp_path / "intro.md", site=JupyterBookSite(tmp_path, "myst.yml"))
    # (a picture hidden in both modes is left as it was: only a dark-mode display utility marks a twin)
    assert [(m.path, m.caption) for m in _images(doc)] == [("figures/well.png", "The double well."),
                                                            ("figures/well.png", "")]


def test_peertube_directive_is_an_embed_on_its_instance(tmp_path: Path) -> None:
    # ```{peertube} <id}``` (sphinxcontrib-youtube under myst-parser) was no video at all
    site = _book(tmp_path, {"p.md": "# P\n\n```{peertube} abc\n:instance: tube.example.org\n```\n\n"
                                    "```{peertube} def\n```\n"})
    doc = convert_myst(tmp_path / "p.md", site=site)
    assert [m.url for m in doc.media if isinstance(m, VideoItem)] == [
        "https://tube.example.org/videos/embed/abc", "https://peertube.tv/videos/embed/def"]


def test_picture_in_an_inline_substitution_is_an_icon_of_the_page(tmp_path: Path) -> None:
    # myst-parser renders a substitution's value where it is referred to: conf.py's
    # myst_substitutions = {"icon_cog": '<img src="../images/icons/COG.png" class="inline-icon" />'}
    # draws the toolbar icon inside the sentence (QuPath's docs); the picture was dropped
    _png(tmp_path / "docs" / "images" / "icons" / "COG.png")
    (tmp_path / "conf.py").write_text(
        'extensions = ["myst_parser"]\nmyst_enable_extensions = ["substitution"]\n'
        'myst_substitutions = {"icon_cog": \'<img src="../images/icons/COG.png" class="inline-icon" />\',\n'
        '                      "tool_wand": "![wand](../images/icons/COG.png)"}\n')
    (tmp_path / "docs" / "start").mkdir(parents=True)
    (tmp_path / "docs" / "start" / "tools.md").write_text(
        "# Tools\n\n## {{ tool_wand }} Wand tool\n\nOpen the settings with {{ icon_cog }} to change it.\n")
    doc = convert_myst(tmp_path / "docs" / "start" / "tools.md", site=SphinxSite(tmp_path, "conf.py"))
    (icon,) = _images(doc)  # (a heading keeps no picture)
    assert icon.path == "docs/images/icons/COG.png" and "inline" in icon.flags
    assert doc.sections[-1].heading_path == ("Tools", "Wand tool")
    assert "Open the settings with to change it." in doc.sections[-1].text


def test_text_read_by_directives_is_bounded_per_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each included file was bounded, not their sum: 20 includes of a 980 KB file made
    19,600,000 characters from a 600-byte page (39 s). A page's include, literalinclude,
    csv-table and embed reads now share one budget (lowered here to keep the page small);
    past it they are skipped with one warning."""
    from murar.ingest.markup import myst

    monkeypatch.setattr(myst, "MAX_INSERTED_CHARS", 100_000, raising=False)
    site = _book(tmp_path, {"part.md": "Included words here.\n\n" * 500,  # 11,000 characters
                            "intro.md": "# Page\n\n" + "```{include} part.md\n```\n\n" * 30 + "End.\n"})
    doc = convert_myst(tmp_path / "intro.md", site=site)
    text = doc.sections[0].text
    assert 80_000 <= len(text) <= 120_000 and text.endswith("End.")
    assert sum("over 100000 characters" in w for w in doc.warnings) == 1


def test_raw_file_is_read_and_an_svg_one_is_the_picture(tmp_path: Path) -> None:
    """MyST ``{raw} html`` with ``:file:`` (docutils' raw, as myst-parser runs it): the file
    relative to the page is inserted; an SVG file is the picture the page shows."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300"/></svg>'
    site = _book(tmp_path, {"figs/classes.svg": svg, "api/note.html": "<p>Drawn by the build script.</p>",
                            "api/overview.md": """\
# Overview

The diagram below shows the classes.

```{raw} html
:file: ../figs/classes.svg
```

```{raw} html
:file: note.html
```
"""})
    doc = convert_myst(tmp_path / "api/overview.md", site=site)
    assert [(img.path, img.exists) for img in _images(doc)] == [("figs/classes.svg", True)]
    assert "Drawn by the build script." in doc.sections[0].text
