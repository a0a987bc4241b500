"""Tab sets: every markup records which tab shows an image and the labels of its set (issue 9, tab_match)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from murar.ingest.markdown import convert_markdown
from murar.ingest.markup.asciidoc import convert_asciidoc
from murar.ingest.markup.mdx import convert_mdx
from murar.ingest.markup.myst import convert_myst
from murar.ingest.markup.pymdown import convert_pymdown
from murar.ingest.markup.rst import convert_rst
from murar.ingest.markup.tabs import parse_marker, set_close, set_open, tab_start
from murar.ingest.sites.base import PlainSite
from murar.ingest.sites.docusaurus import DocusaurusSite
from murar.ingest.sites.jupyterbook import JupyterBookSite
from murar.ingest.sites.sphinx import SphinxSite
from murar.schema import ImageItem, ParsedDocument, TableItem


def _png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 30), "white").save(path)


def _tabs(doc: ParsedDocument) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(Path(m.path or "").name, m.tab, m.tab_set) for m in doc.media if isinstance(m, ImageItem)]


def _write(root: Path, files: dict[str, str]) -> None:
    for name in ("gitlab.png", "github.png", "after.png"):
        _png(root / name)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


EXPECTED = [("gitlab.png", "In GitLab", ("In GitLab", "In GitHub")),
            ("github.png", "In GitHub", ("In GitLab", "In GitHub")),
            ("after.png", "", ())]


def test_adobe_tabs(tmp_path: Path) -> None:
    _write(tmp_path, {"p.md": """\
# Merge

>[!BEGINTABS]

>[!TAB In GitLab]

Open the merge request.

![](gitlab.png)

>[!TAB In GitHub]

Open the pull request.

![](github.png)

>[!ENDTABS]

Then merge.

![](after.png)
"""})
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert _tabs(doc) == EXPECTED
    # the markers add no text: the page reads as before, tab labels as bold lines
    assert "murar-tabs" not in doc.sections[0].text
    assert "In GitLab\n\nOpen the merge request." in doc.sections[0].text


def test_mkdocs_content_tabs_and_a_new_set_after_text(tmp_path: Path) -> None:
    _write(tmp_path, {"p.md": """\
# Merge

=== "In GitLab"

    Open the merge request.

    ![](gitlab.png)

=== "In GitHub"

    Open the pull request.

    ![](github.png)

Then merge.

![](after.png)

=== "One"

    Text.

===! "Two"

    ![](after.png)
"""})
    doc = convert_pymdown(tmp_path / "p.md", site=PlainSite(tmp_path), assets_dir=tmp_path / "a")
    assert _tabs(doc)[:3] == EXPECTED
    # "===!" starts a set of its own
    assert _tabs(doc)[3] == ("after.png", "Two", ("Two",))
    assert "murar-tabs" not in doc.sections[0].text


def test_docusaurus_tabs(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "docs").mkdir(parents=True)
    (root / "docusaurus.config.js").write_text("module.exports = { baseUrl: '/' };\n")
    _write(root / "docs", {"p.mdx": """\
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

# Merge

<Tabs>
  <TabItem value="lab" label="In GitLab">

Open the merge request.

![](./gitlab.png)

  </TabItem>
  <TabItem value="hub" label="In GitHub">

Open the pull request.

![](./github.png)

  </TabItem>
</Tabs>

Then merge.

![](./after.png)
"""})
    site = DocusaurusSite.load(root, "docusaurus.config.js")
    doc = convert_mdx(root / "docs" / "p.mdx", site=site, assets_dir=tmp_path / "a")
    assert _tabs(doc) == EXPECTED


def test_myst_tab_set(tmp_path: Path) -> None:
    (tmp_path / "_config.yml").write_text("title: T\n")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: p\n")
    _write(tmp_path, {"p.md": """\
# Merge

````{tab-set}
```{tab-item} In GitLab
Open the merge request.

![](gitlab.png)
```
```{tab-item} In GitHub
Open the pull request.

![](github.png)
```
````

Then merge.

![](after.png)
"""})
    doc = convert_myst(tmp_path / "p.md", site=JupyterBookSite(tmp_path, "_config.yml"), assets_dir=tmp_path / "a")
    assert _tabs(doc) == EXPECTED


def test_sphinx_design_tab_set(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_design']\n")
    _write(tmp_path, {"p.rst": """\
Merge
=====

.. tab-set::

   .. tab-item:: In GitLab

      Open the merge request.

      .. image:: gitlab.png

   .. tab-item:: In GitHub

      Open the pull request.

      .. image:: github.png

Then merge.

.. image:: after.png
"""})
    doc = convert_rst(tmp_path / "p.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert _tabs(doc) == EXPECTED


ASCIIDOC_TABS = """\
= Merge

[tabs]
====
In GitLab::
+
Open the merge request.
+
image::gitlab.png[]

In GitHub::
+
--
Open the pull request.

image::github.png[]
--
====

Then merge.

image::after.png[]
"""


def test_asciidoctor_tabs(tmp_path: Path) -> None:
    _write(tmp_path, {"p.adoc": ASCIIDOC_TABS, "plain.adoc": ASCIIDOC_TABS.replace("[tabs]\n", "")})
    doc = convert_asciidoc(tmp_path / "p.adoc", site=PlainSite(tmp_path))
    assert _tabs(doc) == EXPECTED
    # the page reads as the same example block without [tabs]: the labels stay lines of text
    plain = convert_asciidoc(tmp_path / "plain.adoc", site=PlainSite(tmp_path))
    assert [s.text for s in doc.sections] == [s.text for s in plain.sections]
    assert "In GitLab\n\nOpen the merge request." in doc.sections[0].text
    assert _tabs(plain) == [(name, "", ()) for name, _, _ in EXPECTED]


def test_asciidoctor_tabs_pane_detached_by_a_blank_line(tmp_path: Path) -> None:
    # "Term::", "+", one blank line, block: the block is attached to the term, as in
    # Asciidoctor, and belongs to that tab (as it would rendered beside the list)
    _write(tmp_path, {"p.adoc": "= Env\n\n[tabs]\n====\nVariables::\n+\n\n|===\n|a |b\n|===\n\n"
                                "Properties::\n+\n\n|===\n|c |d\n|===\n====\n\n|===\n|e |f\n|===\n"})
    doc = convert_asciidoc(tmp_path / "p.adoc", site=PlainSite(tmp_path))
    tables = [(m.rows[0][0], m.tab, m.tab_set) for m in doc.media if isinstance(m, TableItem)]
    assert tables == [("a", "Variables", ("Variables", "Properties")),
                      ("c", "Properties", ("Variables", "Properties")), ("e", "", ())]


def test_markers_round_trip_and_tolerate_broken_structure(tmp_path: Path) -> None:
    assert parse_marker(set_open()) == ("open", "")
    assert parse_marker(tab_start("A -- <b>  tab")) == ("tab", "A - - <b> tab")
    assert parse_marker(set_close("  ")) == ("close", "")
    assert parse_marker("<!-- an ordinary comment -->") is None
    # a tab with no open set, and a close with none open: no crash, the tab still groups
    _write(tmp_path, {"p.md": """\
# Page

>[!ENDTABS]

>[!TAB Only]

![](gitlab.png)
"""})
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert _tabs(doc) == [("gitlab.png", "Only", ("Only",))]


def test_a_hand_written_comment_still_hides_the_rest_when_unterminated(tmp_path: Path) -> None:
    _write(tmp_path, {"p.md": "# Page\n\nSeen.\n\n<!-- never closed\n\nHidden.\n"})
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert "Seen." in doc.sections[0].text
    assert "Hidden" not in doc.sections[0].text


def test_rst_inline_tabs_end_at_the_first_other_sibling(tmp_path: Path) -> None:
    """sphinx-inline-tabs: consecutive ``.. tab::`` directives are one tab set (``:new-set:`` starts
    another), which ends at the next content that is not a tab. The set never ended: on a Mattermost
    page the screenshot after the tabs and the pictures of the next section were filed under the
    last tab ("Mobile") and hidden from readers of the other one."""
    _write(tmp_path, {"conf.py": "extensions = ['sphinx_inline_tabs']\n", "p.rst": """\
Save
====

.. tab:: In GitLab

   .. image:: gitlab.png

.. tab:: In GitHub

   .. image:: github.png

.. image:: after.png

Pin
===

.. image:: after.png

.. tab:: In GitLab

   .. image:: gitlab.png

.. tab:: In GitHub
   :new-set:

   .. image:: github.png
"""})
    doc = convert_rst(tmp_path / "p.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert _tabs(doc) == [*EXPECTED, ("after.png", "", ()), ("gitlab.png", "In GitLab", ("In GitLab",)),
                          ("github.png", "In GitHub", ("In GitHub",))]


def test_myst_inline_tabs_end_at_the_next_block(tmp_path: Path) -> None:
    """The same in MyST: ``{tab}`` fences are a set that the next other block ends (the picture
    after them was filed under the last tab); a ``{tab-item}`` inside ``{tab-set}`` opens no set."""
    _write(tmp_path, {"conf.py": "extensions = ['myst_parser', 'sphinx_inline_tabs', 'sphinx_design']\n",
                      "p.md": """\
# Save

```{tab} In GitLab
![](gitlab.png)
```

```{tab} In GitHub
![](github.png)
```

![](after.png)

::::{tab-set}
:::{tab-item} In GitLab
![](gitlab.png)
:::
:::{tab-item} In GitHub
![](github.png)
:::
::::
"""})
    doc = convert_myst(tmp_path / "p.md", site=SphinxSite(tmp_path, "conf.py"))
    assert _tabs(doc) == [*EXPECTED, *EXPECTED[:2]]
