"""reStructuredText converter on tiny Sphinx projects written by each test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image

from murar.ingest.markup.rst import convert_rst
from murar.ingest.sites.base import FileRole
from murar.ingest.sites.sphinx import SphinxSite
from murar.schema import ImageItem, TableItem, VideoItem


def _png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 6), "white").save(path)


def _project(tmp_path: Path, files: dict[str, str], conf: str = "extensions = []\n") -> SphinxSite:
    (tmp_path / "conf.py").write_text(conf)
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return SphinxSite(tmp_path, "conf.py")


def _images(doc: object) -> list[ImageItem]:
    return [m for m in doc.media if isinstance(m, ImageItem)]  # type: ignore[attr-defined]


def test_sections_image_figure_caption_and_context(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "shot.png")
    _png(tmp_path / "img" / "fig.png")
    site = _project(tmp_path, {"page.rst": """\
Budgets
=======

Intro text.

Add a budget
------------

Click **Add** first.

.. image:: img/shot.png
   :alt: The add form
   :scale: 40%

Then save.

.. figure:: /img/fig.png
   :alt: fig alt

   The budget *summary* table.

   A legend paragraph.
"""})
    doc = convert_rst(tmp_path / "page.rst", site=site)
    assert doc.title == "Budgets"
    assert [s.heading_path for s in doc.sections] == [("Budgets",), ("Budgets", "Add a budget")]
    assert doc.sections[1].anchor == "add-a-budget"
    shot, fig = _images(doc)
    assert shot.path == "img/shot.png" and shot.exists and shot.alt == "The add form" and shot.caption == ""
    assert shot.heading_path == ("Budgets", "Add a budget")
    assert shot.context_before.endswith("Click Add first.") and shot.context_after.startswith("Then save.")
    assert fig.path == "img/fig.png" and fig.caption == "The budget summary table."
    assert "A legend paragraph." in doc.sections[1].text
    assert "The budget summary table." not in fig.context_after  # the caption is not the neighbour's context
    assert doc.warnings == []


def test_substitution_image_counts_where_used(tmp_path: Path) -> None:
    _png(tmp_path / "icons" / "add.png")
    site = _project(tmp_path, {"p.rst": """\
Title
=====

.. |add| image:: icons/add.png
   :alt: add button

Click the |add| button to start.
"""})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    (img,) = _images(doc)
    assert img.path == "icons/add.png" and img.alt == "add button"
    assert "Click the" in img.context_before


def test_a_substitution_name_is_no_alt_text_but_a_written_alt_or_a_name_in_words_is(tmp_path: Path) -> None:
    """docutils gives ``.. |imgFit| image::`` without ``:alt:`` the name as alt (Sphinx writes
    ``alt="imgFit"``): a handle, not a description a reader or an answer caption could use."""
    for name in ("fit.png", "save.png", "cmp.png"):
        _png(tmp_path / "img" / name)
    site = _project(tmp_path, {"p.rst": """\
Title
=====

The window after Estimate:

|imgFitWidget3|

|Save button|

|imgCmp|

.. |imgFitWidget3| image:: img/fit.png
.. |Save button| image:: img/save.png
.. |imgCmp| image:: img/cmp.png
   :alt: The compare window

.. image:: img/cmp.png
   :alt: Toolbar

.. |Toolbar| image:: img/save.png
"""})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert [(i.path, i.alt) for i in _images(doc)] == [
        ("img/fit.png", ""), ("img/save.png", "Save button"), ("img/cmp.png", "The compare window"),
        ("img/cmp.png", "Toolbar")]  # a written alt that is also the name of another picture's substitution


@pytest.mark.parametrize("table", [
    """\
.. list-table:: Options
   :header-rows: 1

   * - Name
     - Default
   * - --max
     - 500
""",
    """\
.. csv-table:: Options
   :header: "Name", "Default"

   "--max", 500
""",
    """\
.. table:: Options

   +-------+---------+
   | Name  | Default |
   +=======+=========+
   | --max | 500     |
   +-------+---------+
""",
    """\
.. table:: Options

   =====  =======
   Name   Default
   =====  =======
   --max  500
   =====  =======
""",
])
def test_tables_of_every_rst_kind(tmp_path: Path, table: str) -> None:
    site = _project(tmp_path, {"t.rst": "T\n=\n\nBefore.\n\n" + table + "\nAfter.\n"})
    doc = convert_rst(tmp_path / "t.rst", site=site)
    (tab,) = [m for m in doc.media if isinstance(m, TableItem)]
    assert tab.caption == "Options"
    assert tab.headers == ["Name", "Default"]
    assert tab.rows == [["--max", "500"]]
    assert tab.context_before == "Before." and tab.context_after == "After."


def test_grid_table_spans_are_expanded(tmp_path: Path) -> None:
    site = _project(tmp_path, {"t.rst": """\
T
=

+-----+-----+
| A   | B   |
+=====+=====+
| wide      |
+-----+-----+
| x   | y   |
+-----+-----+
"""})
    (tab,) = [m for m in convert_rst(tmp_path / "t.rst", site=site).media if isinstance(m, TableItem)]
    assert tab.rows == [["wide", "wide"], ["x", "y"]]


def test_include_is_content_at_the_include_point_and_not_a_page(tmp_path: Path) -> None:
    _png(tmp_path / "tabs" / "images" / "notes.png")
    _png(tmp_path / "modules" / "images" / "local.png")
    site = _project(tmp_path, {
        "modules/page.rst": "Page\n====\n\nBefore include.\n\n.. include:: ../tabs/notes.rst\n\nAfter include.\n",
        "tabs/notes.rst": ("Notes\n-----\n\nThe notes tab.\n\n.. image:: /tabs/images/notes.png\n\n"
                           ".. image:: images/local.png\n"),
    })
    assert site.classify("tabs/notes.rst").role.value == "include"
    assert site.classify("modules/page.rst").role.value == "page"
    doc = convert_rst(tmp_path / "modules" / "page.rst", site=site)
    assert [s.heading_path for s in doc.sections] == [("Page",), ("Page", "Notes")]
    assert "The notes tab." in doc.sections[1].text and "After include." in doc.sections[1].text
    root_rel, page_rel = _images(doc)
    assert root_rel.path == "tabs/images/notes.png" and root_rel.exists
    # Sphinx resolves an included file's relative image against the including page
    assert page_rel.path == "modules/images/local.png" and page_rel.exists


def test_include_cycle_and_missing_include_are_warnings(tmp_path: Path) -> None:
    site = _project(tmp_path, {
        "a.rst": "A\n=\n\n.. include:: b.rst\n\n.. include:: nope.rst\n",
        "b.rst": "B text.\n\n.. include:: a.rst\n",
    })
    doc = convert_rst(tmp_path / "a.rst", site=site)
    assert "B text." in doc.sections[0].text
    assert any("include cycle" in w for w in doc.warnings)
    assert any("nope.rst" in w and "not found" in w for w in doc.warnings)


def test_sphinx_roles_reduce_to_their_text(tmp_path: Path) -> None:
    site = _project(tmp_path, {"r.rst": """\
Roles
=====

Open :menuselection:`Setup --> Dropdowns` and press :guilabel:`&Save` or :kbd:`Ctrl+S`.
See :doc:`the profiles page </modules/profiles>`, :ref:`install-label`, :doc:`/a/b/users`
and :term:`CMDB`, :abbr:`LIFO (last-in, first-out)`, :py:class:`~pkg.mod.Thing`.
"""})
    doc = convert_rst(tmp_path / "r.rst", site=site)
    text = doc.sections[0].text
    assert "Open Setup > Dropdowns and press Save or Ctrl+S." in text
    assert "See the profiles page, install-label, users" in text
    assert "CMDB, LIFO (last-in, first-out), Thing." in text
    assert ":" not in text.replace("LIFO", "").split("CMDB")[0].replace("Ctrl+S.", "")
    assert not any("Unknown interpreted text role" in w for w in doc.warnings)


def test_sphinx_directives_never_error_or_leak(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = _project(tmp_path, {"d.rst": """\
Directives
==========

.. toctree::
   :maxdepth: 2

   first-entry
   second-entry

.. code-block:: python
   :linenos:

   print("hello")

.. versionadded:: 2.1
   The export button.

.. only:: html

   Only in HTML.

.. tabs::

   .. tab:: Linux

      Run the installer.

.. collapse:: Details

   Hidden details.

.. totally-unknown-ext:: arg
   :opt: 1

   Body of an unknown directive.

.. note:: Remember to save.

.. warning::

   Back up first.
"""})
    doc = convert_rst(tmp_path / "d.rst", site=site)
    text = doc.sections[0].text
    for expected in ('print("hello")', "New in version 2.1", "The export button.", "Only in HTML.", "Linux",
                     "Run the installer.", "Details", "Hidden details.", "Body of an unknown directive.",
                     "Note: Remember to save.", "Warning: Back up first."):
        assert expected in text, expected
    assert "toctree" not in text and "first-entry" not in text and ".." not in text and ":opt:" not in text
    assert any("totally-unknown-ext" in w for w in doc.warnings)
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


def test_docutils_messages_become_warnings_not_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = _project(tmp_path, {"bad.rst": "Title\n=====\n\n.. image::\n\nText with `unclosed literal.\n"})
    doc = convert_rst(tmp_path / "bad.rst", site=site)
    assert doc.warnings and all(isinstance(w, str) for w in doc.warnings)
    assert capsys.readouterr().err == ""
    assert "Text with" in doc.sections[0].text


def test_image_options_after_blank_line_still_give_the_image(tmp_path: Path) -> None:
    _png(tmp_path / "images" / "a.png")
    site = _project(tmp_path, {"p.rst": "P\n=\n\n.. image:: images/a.png\n   :alt: The A view\n\n   :scale: 42 %\n"})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    (img,) = _images(doc)
    assert img.exists and img.alt == "The A view"


def test_image_star_picks_the_svg_the_html_builder_shows(tmp_path: Path) -> None:
    # Sphinx's HTML builder takes the first of its supported_image_types (svg, png, gif, jpeg)
    # among the files 'flow.*' names
    site = _project(tmp_path, {"p.rst": "P\n=\n\n.. figure:: /img/flow.*\n\n   The flow.\n",
                               "img/flow.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"/>'})
    _png(tmp_path / "img" / "flow.png")
    (img,) = _images(convert_rst(tmp_path / "p.rst", site=site))
    assert img.path == "img/flow.svg" and img.exists


def test_missing_image_is_kept_with_a_warning(tmp_path: Path) -> None:
    site = _project(tmp_path, {"p.rst": "P\n=\n\n.. image:: images/gone.png\n"})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    (img,) = _images(doc)
    assert not img.exists and img.path == "images/gone.png"
    assert any("gone.png" in w for w in doc.warnings)


def test_raw_html_iframe_and_video_directives(tmp_path: Path) -> None:
    site = _project(tmp_path, {"v.rst": """\
Videos
======

.. raw:: html

   <iframe src="https://www.youtube.com/embed/abc123" title="Setup walkthrough"></iframe>

.. youtube:: xyz789
"""})
    doc = convert_rst(tmp_path / "v.rst", site=site)
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [v.url for v in videos] == ["https://www.youtube.com/embed/abc123", "https://www.youtube.com/embed/xyz789"]
    assert videos[0].title == "Setup walkthrough"


def test_raw_file_is_read_through_the_site_and_an_svg_one_is_the_picture(tmp_path: Path) -> None:
    """``.. raw:: html`` with ``:file:`` inserts the file where it stands (docutils reads it
    relative to the file holding the directive): an SVG is the diagram the page shows, an
    HTML file its text and images; ``:url:`` and a missing file warn, never silently."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300"/></svg>'
    site = _project(tmp_path, {
        "images/classes.svg": svg,
        "api/parts/note.html": "<p>Drawn by the build script.</p>",
        "api/overview.rst": """\
Overview
========

The diagram below shows the classes.

.. raw:: html
   :file: ../images/classes.svg

.. raw:: html
   :file: parts/note.html

.. raw:: html
   :url: https://example.org/remote.html

.. raw:: html
   :file: ../images/gone.svg
"""})
    doc = convert_rst(tmp_path / "api/overview.rst", site=site)
    paths = [(img.path, img.exists) for img in _images(doc)]
    assert paths == [("images/classes.svg", True), ("images/gone.svg", False)]
    assert "Drawn by the build script." in doc.sections[0].text
    assert any("remote.html" in w and "not fetched" in w for w in doc.warnings)
    assert any("gone.svg" in w for w in doc.warnings)


def test_a_citation_defined_in_another_document_is_no_unknown_target_under_sphinx(tmp_path: Path) -> None:
    """Sphinx citations are global (sphinx.domains.citation): ``[Kane1985]_`` cites the
    ``.. [Kane1985]`` of the project's references page; it shows as ``[Kane1985]`` and is
    no "Unknown target name" error. A misspelt hyperlink target still is one."""
    site = _project(tmp_path, {"refs.rst": "Refs\n====\n\n.. [Kane1985] Kane, T. R. Dynamics. 1985.\n",
                               "kane.rst": "Kane\n====\n\nUsing Kane's method [Kane1985]_ and `gone`_.\n"})
    doc = convert_rst(tmp_path / "kane.rst", site=site)
    assert "Kane's method [Kane1985] and gone." in doc.sections[0].text
    assert not any("kane1985" in w.lower() for w in doc.warnings)
    assert any('Unknown target name: "gone"' in w for w in doc.warnings)


def test_ablog_update_is_an_admonition_and_postlist_shows_nothing(tmp_path: Path) -> None:
    """ABlog (ablog/post.py): ``.. update:: date`` is an admonition titled "Updated on
    <date>"; ``.. postlist::`` lists the blog's posts, built from the whole site. Neither
    is an unknown name under ``extensions = ['ablog']``."""
    site = _project(tmp_path, {"post.rst": """\
Trip report
===========

.. post:: Apr 15, 2014
   :tags: travel

We went hiking.

.. update:: 20 Apr, 2014

   Added the photos of the summit.

.. postlist:: 5
   :tags: travel
"""}, conf="extensions = ['ablog']\n")
    doc = convert_rst(tmp_path / "post.rst", site=site)
    text = doc.sections[0].text
    assert "We went hiking." in text and "Updated on 20 Apr, 2014: Added the photos of the summit." in text
    assert not any("update" in w or "postlist" in w for w in doc.warnings)


def test_a_directive_or_role_shown_only_in_a_code_sample_is_no_unknown_name(tmp_path: Path) -> None:
    """A tutorial on writing extensions shows ``.. hello:: world`` and ``:hello:`` in a
    code block: the page never uses them, so no "not a known name" warning; used in
    the page, they still warn."""
    site = _project(tmp_path, {
        "tutorial.rst": "Tutorial\n========\n\n.. code-block:: rst\n\n   .. hello:: world\n\n"
                        "   Some text with a :hello:`world` role.\n\nThen build.\n",
        "used.rst": "Used\n====\n\n.. hello:: world\n\n   Body.\n\nA :hello:`world` role.\n"})
    doc = convert_rst(tmp_path / "tutorial.rst", site=site)
    assert ".. hello:: world" in doc.sections[0].text
    assert not any("hello" in w for w in doc.warnings)
    used = convert_rst(tmp_path / "used.rst", site=site)
    assert sorted(w for w in used.warnings if "hello" in w) == [
        "directive hello: not a known Sphinx/docutils name; content kept as text",
        "role hello: not a known Sphinx/docutils name; content kept as text"]


def test_registry_is_restored_after_a_parse(tmp_path: Path) -> None:
    from docutils.parsers.rst import directives, roles

    before_d, before_r = dict(directives._directives), dict(roles._roles)
    site = _project(tmp_path, {"p.rst": "P\n=\n\n.. weird-thing::\n\n:weird-role:`x`\n"})
    convert_rst(tmp_path / "p.rst", site=site)
    assert dict(directives._directives) == before_d and dict(roles._roles) == before_r
    assert "murar" not in sys.modules["docutils.parsers.rst.directives"].__dict__.get("__name__", "")


def test_domain_directives_and_footnotes_read_as_text_without_noise(tmp_path: Path) -> None:
    site = _project(tmp_path, {"api.rst": """\
API
===

.. py:function:: send_message(sender, recipient)
   :module: mail

   Send a message. [#]_ See :confval:`exclude_patterns` and :py:class:`~mail.Message`.

.. [#] A footnote body.
"""})
    doc = convert_rst(tmp_path / "api.rst", site=site)
    text = doc.sections[0].text
    assert "send_message(sender, recipient)" in text and "Send a message." in text
    assert "See exclude_patterns and Message." in text and "A footnote body." in text
    assert "\n1\n" not in f"\n{text}\n"  # the footnote label is not text
    assert doc.warnings == []


_API_PAGE = """\
API
===

.. class:: Flask(import_name, static_folder='static')

   The application object.

   .. method:: run(host=None, *args, **options)

      Runs a local development server.

.. function:: url_for(endpoint, **values)

   Builds a URL.

.. autofunction:: pytest.param(*values, [id], [marks])

.. option:: -k <expr>, --keyword=<expr>

   Only run tests matching the expression.
"""


_NO_PYTEST_SOURCE = ("autodoc: Python source of pytest.param not found in the corpus; docstrings left out,"
                     " signatures kept as written")


def test_primary_domain_directives_keep_their_signature(tmp_path: Path) -> None:
    # under Sphinx, `.. class::` is the py domain's class, not docutils' class-attribute directive
    site = _project(tmp_path, {"api.rst": _API_PAGE})
    doc = convert_rst(tmp_path / "api.rst", site=site)
    text = doc.sections[0].text
    assert "Flask(import_name, static_folder='static')" in text
    assert "run(host=None, *args, **options)" in text  # a signature is not inline markup
    assert "url_for(endpoint, **values)" in text and "Builds a URL." in text
    assert "pytest.param(*values, [id], [marks])" in text and "-k <expr>, --keyword=<expr>" in text
    # autofunction's module is not in the corpus: its docstring is left out, with one note
    assert doc.warnings == [_NO_PYTEST_SOURCE]


def test_primary_domain_follows_conf_py(tmp_path: Path) -> None:
    # primary_domain = "js": `.. method::` is JavaScript's; a py-only name (`decorator`) is unknown
    site = _project(tmp_path, {"api.rst": _API_PAGE + "\n.. decorator:: cached\n\n   Caches.\n"},
                    conf="primary_domain = 'js'\n")
    doc = convert_rst(tmp_path / "api.rst", site=site)
    assert "run(host=None, *args, **options)" in doc.sections[0].text
    assert doc.warnings == ["directive decorator: not a known Sphinx/docutils name; content kept as text",
                            _NO_PYTEST_SOURCE]


def test_without_sphinx_settings_class_is_docutils_own(tmp_path: Path) -> None:
    # a folder of rST with no conf.py follows docutils: `.. class::` sets a class attribute
    from murar.ingest.sites.detect import open_site

    (tmp_path / "p.rst").write_text("P\n=\n\n.. class:: special\n\nA styled paragraph.\n")
    site = open_site(tmp_path).site
    assert getattr(site, "conf", None) is None
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert doc.sections[0].text.strip() == "A styled paragraph."


def test_extlinks_roles_show_their_caption(tmp_path: Path) -> None:
    conf = """\
extensions = ["sphinx.ext.extlinks"]
extlinks = {
    "issue": ("https://github.com/o/r/issues/%s", "#%s"),
    "pypi": ("https://pypi.org/project/%s", None),
    "old": ("https://example.org/%s", "ticket "),
}
"""
    site = _project(tmp_path, {"c.rst": """\
Changes
=======

Fixed :issue:`123` and :issue:`the crash <456>`; see :pypi:`murar` and :old:`7`.
"""}, conf=conf)
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert ("Fixed #123 and the crash; see https://pypi.org/project/murar and ticket 7."
            in doc.sections[0].text)
    assert doc.warnings == []


def test_object_types_of_conf_setup_and_pep_anchors(tmp_path: Path) -> None:
    conf = ("def setup(app):\n    app.add_object_type('globalvar', 'globalvar')\n"
            "    app.add_crossref_type('fixture', 'fixture')\n")
    site = _project(tmp_path, {"g.rst": """\
Globals
=======

.. globalvar:: pytest_plugins

   Declares plugins, see :fixture:`tmp_path` and :pep:`506#recommendations`.

Style follows :pep:`8` and :rfc:`2616`.
"""}, conf=conf)
    doc = convert_rst(tmp_path / "g.rst", site=site)
    text = doc.sections[0].text
    assert "pytest_plugins" in text and "see tmp_path and PEP 506." in text
    assert "Style follows PEP 8 and RFC 2616." in text
    assert doc.warnings == []


def test_only_directive_follows_the_html_builder_and_metadata_is_not_text(tmp_path: Path) -> None:
    site = _project(tmp_path, {"o.rst": """\
:orphan:
:tocdepth: 2

Only
====

.. only:: html

   HTML text.

.. only:: latex or epub

   Print text.

.. only:: not latex and (html or singlehtml)

   Complex text.
"""})
    text = convert_rst(tmp_path / "o.rst", site=site).sections[0].text
    assert "HTML text." in text and "Complex text." in text
    assert "Print text." not in text and "orphan" not in text and "tocdepth" not in text


def test_meta_field_names_with_attributes_are_no_error(tmp_path: Path) -> None:
    # docutils "Metadata": ':description property=og\\:description:' is a field with an attribute
    site = _project(tmp_path, {"m.rst": """\
.. meta::
   :description property=og\\:description:
        Overview of the docker.
   :keywords: docker, layers

Meta
====

Body text.
"""})
    doc = convert_rst(tmp_path / "m.rst", site=site)
    assert doc.sections[0].text == "Body text."
    assert doc.warnings == []


def test_field_list_reads_name_colon_body(tmp_path: Path) -> None:
    # Sphinx draws a field list as dl.field-list, "Name:" beside its body (Blender's reference boxes)
    site = _project(tmp_path, {"f.rst": """\
Merge
=====

.. admonition:: Reference
   :class: refbox

   :Mode:      Edit Mode
   :Menu:      :menuselection:`Mesh --> Merge`

Text after.

:Notes: first line

   second paragraph
"""})
    text = convert_rst(tmp_path / "f.rst", site=site).sections[0].text
    assert "Mode: Edit Mode\n\nMenu: Mesh > Merge\n\nText after." in text
    assert text.endswith("Notes: first line\n\nsecond paragraph")


def test_sphinx_panels_split_into_cards_and_link_button_shows_its_text(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "top.png")
    site = _project(tmp_path, {"p.rst": """\
Panels
======

.. panels::
    :container: container-lg pb-3
    :column: col-lg-4 p-2

    :img-top: img/top.png

    **Install**
    ^^^
    Get the package.
    +++
    Footer one
    ---
    Learn more.

    .. link-button:: https://example.com
        :type: url
        :text: Go there
        :classes: btn-success
"""})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert doc.sections[0].text == "Install\n\nGet the package.\n\nFooter one\n\nLearn more.\n\nGo there"
    assert [m.path for m in doc.media if isinstance(m, ImageItem)] == ["img/top.png"]
    assert doc.warnings == []


def test_figure_in_a_table_cell_keeps_its_caption(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "a.png")
    site = _project(tmp_path, {"t.rst": """\
Blending
========

.. list-table::
   :header-rows: 1

   * - Mode
     - Example
   * - Multiply
     - .. figure:: img/a.png

          Multiply result.
"""})
    doc = convert_rst(tmp_path / "t.rst", site=site)
    (img,) = [m for m in doc.media if isinstance(m, ImageItem)]
    assert img.path == "img/a.png" and img.caption == "Multiply result."


def test_design_card_images_and_thumbnails(tmp_path: Path) -> None:
    _png(tmp_path / "img" / "card.png")
    _png(tmp_path / "img" / "thumb.png")
    site = _project(tmp_path, {"c.rst": """\
Cards
=====

.. grid:: 2

   .. grid-item-card:: Install guide
      :img-top: img/card.png

      Start here.

.. thumbnail:: img/thumb.png

   The thumbnail caption.
"""})
    doc = convert_rst(tmp_path / "c.rst", site=site)
    card, thumb = _images(doc)
    assert card.path == "img/card.png" and card.alt == "Install guide" and card.exists
    assert thumb.path == "img/thumb.png" and thumb.caption == "The thumbnail caption."
    assert doc.sections[0].text.startswith("Install guide\n\nStart here.")  # the grid layout "2" is not text


def test_docutils_standard_include_defines_its_substitutions(tmp_path: Path) -> None:
    site = _project(tmp_path, {"s.rst": "S\n=\n\n.. include:: <isonum.txt>\n\nCopyright |copy| 2024.\n\n"
                                         ".. include:: <../../../../../etc/passwd>\n"})
    doc = convert_rst(tmp_path / "s.rst", site=site)
    assert "Copyright \u00a9 2024." in doc.sections[0].text
    assert any("not a docutils standard include" in w for w in doc.warnings)
    assert "root:" not in doc.sections[0].text


def test_markdown_included_with_the_myst_parser(tmp_path: Path) -> None:
    _png(tmp_path / "docs" / "shot.png")
    site = _project(tmp_path, {
        "index.rst": "Home\n====\n\n.. include:: README.md\n   :parser: myst_parser.sphinx_\n",
        "README.md": "## Install\n\nRun the installer {kbd}`Enter`.\n\n![the installer](docs/shot.png)\n",
    }, conf="extensions = ['myst_parser']\n")
    doc = convert_rst(tmp_path / "index.rst", site=site)
    assert [s.heading_path for s in doc.sections] == [("Home",), ("Home", "Install")]
    (img,) = _images(doc)
    assert img.path == "docs/shot.png" and img.exists and "Run the installer Enter." in img.context_before
    assert {r.source_path for r in doc.asset_refs} == {"README.md"}


def test_sphinx_default_substitutions_read_conf_py(tmp_path: Path) -> None:
    # Sphinx defines |version|, |release| and |today| on every page; a page's own definition wins
    import datetime

    from murar.ingest.markup.rst import default_substitutions

    page = "Install\n=======\n\nThis is release |release| (|version|), built |today|.\n"
    own = "Own\n===\n\n.. |version| replace:: nightly\n\nVersion |version|.\n"
    site = _project(tmp_path, {"install.rst": page, "own.rst": own},
                    conf="version = '4.2'\nrelease = '4.2.1'\ntoday = 'March 3'\n")
    doc = convert_rst(tmp_path / "install.rst", site=site)
    assert doc.sections[0].text.strip() == "This is release 4.2.1 (4.2), built March 3."
    assert doc.warnings == []
    assert convert_rst(tmp_path / "own.rst", site=site).sections[0].text.strip() == "Version nightly."
    day = datetime.date(2024, 5, 7)
    assert default_substitutions({}, today=day) == {"version": "", "release": "", "today": "May 07, 2024"}
    assert default_substitutions({"today_fmt": "%Y-%m-%d"}, today=day)["today"] == "2024-05-07"


def test_declared_roles_and_sphinx_standard_names_do_not_warn(tmp_path: Path) -> None:
    # ".. role:: name(base)" declares the page's own role; :mailheader:/:newsgroup: are Sphinx roles and
    # .. todolist:: (sphinx.ext.todo) collects todo notes: none is an unknown name
    (tmp_path / "conf.py").write_text("extensions = ['sphinx.ext.todo']\n")
    (tmp_path / "index.rst").write_text(
        "Roles\n=====\n\n.. role:: python(code)\n   :language: python\n\n"
        "In Python :python:`1 + 2` is 3; see :mailheader:`Content-Type` and :newsgroup:`comp.lang.python`.\n\n"
        ".. todolist::\n\nEnd.\n")
    doc = convert_rst(tmp_path / "index.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "In Python 1 + 2 is 3; see Content-Type and comp.lang.python.\n\nEnd."
    assert doc.warnings == []


def test_titles_inside_an_object_description_stay_text(tmp_path: Path) -> None:
    # Sphinx parses an object description's body with titles allowed (nested_parse_with_titles): an
    # "Examples" title inside a confval shows there; docutils alone drops it with an error
    (tmp_path / "conf.py").write_text(
        "def setup(app):\n    app.add_object_type('confval', 'confval')\n")
    (tmp_path / "index.rst").write_text(
        "Settings\n========\n\n.. confval:: short_names\n\n   Shows short names.\n\n   Examples\n   ~~~~~~~~\n\n"
        "   Set it to ``True``.\n\nAfter the setting.\n")
    doc = convert_rst(tmp_path / "index.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert [s.heading_path for s in doc.sections] == [("Settings",)]
    assert doc.sections[0].text == "short_names\n\nShows short names.\n\nExamples\n\nSet it to True.\n\nAfter the setting."
    assert not [w for w in doc.warnings if "title" in w]


def test_math_directive_and_role_keep_their_latex(tmp_path: Path) -> None:
    # Sphinx's math directive and role are formulas MathJax typesets: kept as LaTeX source,
    # a display formula as a "$$" block with its number when labelled, inline math as "$...$"
    site = _project(tmp_path, {"page.rst": """\
Laws
====

The area :math:`\\pi r^2` grows.

.. math::
   :label: area

   A = \\pi r_1^2

.. math:: v = d / t

.. math::
  a &= b \\\\
  c &= d

See :eq:`area`.
"""})
    text = "\n".join(s.text for s in convert_rst(tmp_path / "page.rst", site=site).sections)
    assert "The area $\\pi r^2$ grows." in text
    assert "$$\nA = \\pi r_1^2\n$$ (1)" in text
    assert "$$\nv = d / t\n$$" in text and "See (1)." in text
    assert "$$\na &= b \\\\\nc &= d\n$$" in text  # lines right under the directive: the formula's lines


def test_only_and_ifconfig_conditions_are_not_text(tmp_path: Path) -> None:
    # Sphinx's ``only``/``ifconfig`` take a condition, never shown; an empty ``only`` before
    # ``contents`` (a pattern of large manuals) shows nothing at all
    site = _project(tmp_path, {"c.rst": """\
Conditions
==========

.. only:: html

.. contents::
   :local:

.. only:: not print

   Screen text.

.. ifconfig:: release_level in ('beta',)

   Beta text.

Closing text.
"""})
    text = convert_rst(tmp_path / "c.rst", site=site).sections[0].text
    assert text.split("\n\n") == ["Screen text.", "Beta text.", "Closing text."]


def test_version_changes_read_as_sphinx_renders_them(tmp_path: Path) -> None:
    # sphinx.domains.changeset: "<label> <version>: " leads the first paragraph (the rest of the
    # directive line is one), "<label> <version>." stands alone when there is no text
    site = _project(tmp_path, {"v.rst": """\
Versions
========

.. versionadded:: 4.4

.. versionchanged:: 25
   Reply links no longer offer a comment box.

.. deprecated:: 3.1

   Use the *new* importer.

   Second paragraph.
"""})
    text = convert_rst(tmp_path / "v.rst", site=site).sections[0].text
    assert text.split("\n\n") == ["New in version 4.4.", "Changed in version 25: Reply links no longer offer a comment box.",
                                  "Deprecated since version 3.1: Use the new importer.", "Second paragraph."]


def test_sphinx_hyphenated_version_change_names_are_the_same_directives(tmp_path: Path) -> None:
    # Sphinx 7.3 added version-added, version-changed, version-deprecated, version-removed
    # (sphinx/domains/changeset.py) beside the old names
    site = _project(tmp_path, {"v.rst": "Versions\n========\n\n.. version-added:: 4.4\n\n"
                                        ".. version-changed:: 25\n   Reply links no longer offer a comment box.\n\n"
                                        ".. version-deprecated:: 3.1\n\n.. version-removed:: 4.0\n"})
    doc = convert_rst(tmp_path / "v.rst", site=site)
    assert doc.sections[0].text.split("\n\n") == [
        "New in version 4.4.", "Changed in version 25: Reply links no longer offer a comment box.",
        "Deprecated since version 3.1.", "Removed in version 4.0."]
    assert not any("version-" in w for w in doc.warnings)


def test_icon_roles_show_no_text(tmp_path: Path) -> None:
    # an icon role draws a glyph (sphinx-design octicon/fas, sphinx-icon's icon): its name is not text
    site = _project(tmp_path, {"i.rst": """\
Icons
=====

Click the :icon:`fa-times` :guilabel:`(cancel)` icon, then :octicon:`gear;1em` **Settings**
and :fas:`check` done.
"""})
    text = convert_rst(tmp_path / "i.rst", site=site).sections[0].text
    assert text == "Click the (cancel) icon, then Settings and done."


def test_seealso_and_todo_take_no_argument(tmp_path: Path) -> None:
    # Sphinx's seealso (and sphinx.ext.todo's todo) take no argument: lines right under the
    # directive are its content, a bullet list stays a list, never "See also - ..."
    site = _project(tmp_path, {"s.rst": """\
See
===

.. seealso::
   - :doc:`other`
   - The reference.

.. seealso:: The upgrade guide.

.. todo:: Hidden unless todo_include_todos.
"""})
    text = convert_rst(tmp_path / "s.rst", site=site).sections[0].text
    assert text.split("\n\n") == ["See also: other", "The reference.", "See also: The upgrade guide."]


def test_image_alt_wrapped_over_lines_is_one_line(tmp_path: Path) -> None:
    # an option value continued on the next line is one alt attribute; whitespace collapses in it
    _png(tmp_path / "img" / "wizard.png")
    site = _project(tmp_path, {"w.rst": """\
Wizard
======

.. image:: img/wizard.png
   :alt: Select which remote folders to sync, and which local folder to store
    them in.
"""})
    alt = _images(convert_rst(tmp_path / "w.rst", site=site))[0].alt
    assert alt == "Select which remote folders to sync, and which local folder to store them in."


def test_only_reads_the_tags_conf_py_adds(tmp_path: Path) -> None:
    # conf.py may add tags (Sphinx's "tags" object); an if on literal settings is followed
    conf = ("html_context = {'outdated': False, 'isTesting': True}\n"
            "if html_context['isTesting']:\n    tags.add('testing')\n"
            "if html_context['outdated']:\n    tags.add('outdated')\n"
            "if some_function():\n    tags.add('unknown')\n")
    site = _project(tmp_path, {"t.rst": """\
Tags
====

.. only:: testing

   Testing version.

.. only:: not testing

   Stable version.

.. only:: outdated or unknown

   Old version.
"""}, conf=conf)
    assert site.conf.tags == ("testing",)
    assert convert_rst(tmp_path / "t.rst", site=site).sections[0].text == "Testing version."


def test_only_follows_the_html_builder_tags(tmp_path: Path) -> None:
    # Sphinx tags an HTML build with its format and builder name: under the html builder
    # "singlehtml" is false, so "builder_html and (not singlehtml)" shows its figure
    _png(tmp_path / "img" / "menu.png")
    page = ("Home\n====\n\n.. only:: builder_html and (not singlehtml)\n\n   .. figure:: /img/menu.png\n\n"
            "   Menus.\n\n.. only:: latex or epub or singlehtml\n\n   Printed.\n\n"
            ".. only:: dirhtml\n\n   Pretty URLs.\n")
    site = _project(tmp_path, {"index.rst": page})
    doc = convert_rst(tmp_path / "index.rst", site=site)
    assert [i.path for i in _images(doc)] == ["img/menu.png"]
    assert doc.sections[0].text == "Menus."
    # a project Read the Docs builds with dirhtml has that builder's tags
    (tmp_path / ".readthedocs.yaml").write_text("version: 2\nsphinx:\n  configuration: conf.py\n  builder: dirhtml\n")
    doc = convert_rst(tmp_path / "index.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == "Pretty URLs."


def test_only_reads_makefile_tags(tmp_path: Path) -> None:
    # SPHINXOPTS ?= -t fulldocs: the Makefile's HTML build passes the tag to sphinx-build
    (tmp_path / "Makefile").write_text(
        "SPHINXOPTS    ?= -t fulldocs\nSPHINXBUILD   ?= sphinx-build\nSOURCEDIR     = .\nBUILDDIR      = _build\n\n"
        "%: Makefile\n\t@$(SPHINXBUILD) -M $@ \"$(SOURCEDIR)\" \"$(BUILDDIR)\" $(SPHINXOPTS) $(O)\n"
        "latexpdf:\n\t$(SPHINXBUILD) -b latex -t print . _build/latex\n")
    site = _project(tmp_path, {"index.rst": "Home\n====\n\n.. only:: fulldocs\n\n   Full.\n\n"
                                            ".. only:: print\n\n   Paper.\n"})
    assert convert_rst(tmp_path / "index.rst", site=site).sections[0].text == "Full."


def test_icon_substitutions_in_a_heading_are_pictures_not_title_text(tmp_path: Path) -> None:
    # Sphinx takes a title's text without image alts (clean_astext): "|basic| |fa| Fill" titles "Fill",
    # for the heading and for references to it; a replace:: or |version| substitution is text
    _png(tmp_path / "static" / "basic.png")
    site = _project(tmp_path, {
        "index.rst": "Styles\n======\n\n.. _fill:\n\n|basic| |fa| Fill Symbol\n------------------------\n\n"
                     "Fill text.\n\n|app| |version| notes\n-------------------\n\nNotes.\n\n"
                     ".. |basic| image:: /static/basic.png\n.. |fa| image:: /static/basic.png\n   :alt: Font Awesome\n",
        "other.rst": "Other\n=====\n\nSee :ref:`fill` and :doc:`index`.\n\n:doc:`guide`\n",
        "guide.rst": "|app| |version| Guide\n=====================\n\nText.\n"},
        conf="version = '3.2'\nrst_prolog = '.. |app| replace:: Viewer'\n")
    doc = convert_rst(tmp_path / "index.rst", site=site)
    assert [s.heading_path[-1] for s in doc.sections] == ["Styles", "Fill Symbol", "Viewer 3.2 notes"]
    other = convert_rst(tmp_path / "other.rst", site=site)
    assert other.sections[0].text == "See Fill Symbol and Styles.\n\nViewer 3.2 Guide"


def test_tabs_take_no_argument_so_a_tab_right_under_them_is_content(tmp_path: Path) -> None:
    # sphinx-tabs' tabs (and sphinx-design's tab-set) take no argument: docutils reads the
    # indented lines right under them, without a blank line, as content
    site = _project(tmp_path, {"p.rst": "P\n=\n\n.. tabs::\n .. code-tab:: gdscript GDScript\n\n    extends Area2D\n\n"
                                       " .. code-tab:: csharp\n\n    using Godot;\n\nAfter.\n"})
    text = convert_rst(tmp_path / "p.rst", site=site).sections[0].text
    # each code-tab led by its label (custom, else the Pygments name of its language)
    assert text == "GDScript\n\nextends Area2D\n\nC#\n\nusing Godot;\n\nAfter."


def test_centered_text_is_inline_markup(tmp_path: Path) -> None:
    # sphinx.directives.other.Centered parses its argument: a |badge| substitution is a picture
    site = _project(tmp_path, {"p.rst": "P\n=\n\nHelp us translate.\n\n.. centered:: |badge| **Thanks**\n\n"
                                       ".. |badge| image:: https://example.org/badge.png\n   :alt: Translation status\n"})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert doc.sections[0].text == "Help us translate.\n\nThanks"
    assert [(i.url, i.alt) for i in _images(doc)] == [("https://example.org/badge.png", "Translation status")]


def test_only_conditions_nested_past_the_parser_keep_the_page(tmp_path: Path) -> None:
    """``.. only::`` with 'not' 2,000 times (RecursionError) or 200 nested parentheses
    after 'and' (MemoryError from Python's parser): the page was lost. A condition it
    cannot read keeps its content, as one it cannot parse already did."""
    site = _project(tmp_path, {"d.rst": "Deep\n====\n\n.. only:: " + "not " * 2_000 + "html\n\n   Kept text.\n\n"
                               ".. only:: html" + " and (html" * 200 + ")" * 200 + "\n\n   Also kept.\n\nAfter.\n"})
    text = convert_rst(tmp_path / "d.rst", site=site).sections[0].text
    assert "Kept text." in text and "Also kept." in text and "After." in text


def test_a_line_over_the_docutils_limit_is_a_failed_page_not_an_empty_one(tmp_path: Path) -> None:
    """docutils reads nothing of a source with a line over 10,000 characters (its
    line_length_limit; Sphinx shows only that error): the page came out with no
    section and no warning (a silent success). It is now an IngestError naming the line:
    the page is reported as failed, with why."""
    from murar.errors import IngestError

    site = _project(tmp_path, {"long.rst": "Title\n=====\n\nBefore.\n\n" + "x " * 6_000 + "\n\nAfter.\n"})
    with pytest.raises(IngestError, match="line 6 is over docutils' line length limit"):
        convert_rst(tmp_path / "long.rst", site=site)


def test_backslash_escapes_show_the_escaped_character(tmp_path: Path) -> None:
    # docutils stores "\*" as NUL + "*" in its Text nodes; the HTML shows "*" (and an escaped
    # space nothing), never the NUL
    site = _project(tmp_path, {"page.rst": "The \\*args Option\n=================\n\n"
                               "Pass \\*args and \\`name\\` through; un\\ break.\n"})
    doc = convert_rst(tmp_path / "page.rst", site=site)
    assert doc.title == "The *args Option"
    assert doc.sections[0].text == "Pass *args and `name` through; unbreak."


def test_definition_list_classifiers_follow_their_term(tmp_path: Path) -> None:
    # docutils: "term : classifier" lines; Sphinx's HTML shows "term : classifier" over the definition
    site = _project(tmp_path, {"page.rst": "Options\n=======\n\n"
                               "depth : int\n    How deep to look.\n\n"
                               "mode : str : optional\n    The mode.\n\nplain\n    No classifier.\n"})
    doc = convert_rst(tmp_path / "page.rst", site=site)
    assert doc.sections[0].text == ("depth : int\n\nHow deep to look.\n\nmode : str : optional\n\nThe mode.\n\n"
                                    "plain\n\nNo classifier.")


def test_types_a_local_extension_adds_and_crossref_targets_show_nothing(tmp_path: Path) -> None:
    # Sphinx calls setup(app) of each extension, a site's own module on conf.py's sys.path too;
    # add_crossref_type's directive is a target (index entry + anchor), add_object_type's shows its name
    conf = ("import sys\nfrom pathlib import Path\nsys.path.append(str(Path(__file__).parent / '_ext'))\n"
            "extensions = ['sitedocs', 'sphinx.ext.autodoc']\n")
    site = _project(tmp_path, {
        "_ext/sitedocs.py": ("def setup(app):\n    app.add_crossref_type(directivename='option', rolename='option')\n"
                             "    app.add_object_type('hook', 'hook')\n"),
        "s.rst": ("Options\n=======\n\nIntro.\n\n.. option:: RETRY_TIMES\n\nRETRY_TIMES\n-----------\n\n"
                  "Retries, see :option:`RETRY_DELAY` and :hook:`on_retry`.\n\n.. hook:: on_retry\n\n   Runs on retry.\n")},
        conf=conf)
    doc = convert_rst(tmp_path / "s.rst", site=site)
    assert [s.text for s in doc.sections] == ["Intro.", "Retries, see RETRY_DELAY and on_retry.\n\non_retry\n\nRuns on retry."]
    assert doc.warnings == []


def test_code_the_directives_hide_is_left_out(tmp_path: Path) -> None:
    # IPython's ipython directive: ":suppress:" runs a block unseen, "@savefig"/"@suppress" lines
    # are pseudo-decorators (@suppress also hides the next input); sphinx.ext.doctest's ":hide:"
    site = _project(tmp_path, {"p.rst": (
        "Plot\n====\n\n.. ipython:: python\n   :suppress:\n\n   import secret_setup\n\n"
        ".. ipython:: python\n\n   data = load()\n\n   @savefig plot_1.png width=4in\n   data.plot()\n"
        "   @suppress\n   reset_style()\n   data.mean()\n\n"
        ".. testcode::\n   :hide:\n\n   check_hidden()\n\n.. testcode::\n\n   shown_test()\n")})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert doc.sections[0].text == "data = load()\n\ndata.plot()\ndata.mean()\n\nshown_test()"


def test_sphinx_issues_roles_show_what_the_extension_renders(tmp_path: Path) -> None:
    # sphinx-issues: "#" before issues and pull requests, "@" before users and (7-character)
    # commits, lists joined by ", ", another repository's issue "org/repo#7"; the prefixes are settings
    from murar.ingest.markup.myst import convert_myst

    conf = "extensions = ['sphinx_issues', 'myst_parser']\nissues_pr_prefix = '!'\n"
    site = _project(tmp_path, {
        "c.rst": ("Changes\n=======\n\nFixed :issue:`42,45` (:pr:`12043`, :commit:`1a2b3c4d5e6f`) by :user:`ann` "
                  "and :user:`Bo Li <boli>`; see :issue:`org/repo#7` and :pypi:`pytest-xdist`.\n"),
        "m.md": "# Changes\n\nFixed {issue}`42` thanks to {user}`ann`.\n"}, conf=conf)
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == ("Fixed #42, #45 (!12043, @1a2b3c4) by @ann and Bo Li; see org/repo#7 "
                                    "and pytest-xdist.")
    assert doc.warnings == []
    assert convert_myst(tmp_path / "m.md", site=site).sections[0].text == "Fixed #42 thanks to @ann."


def test_csv_table_file_is_read_from_the_corpus(tmp_path: Path) -> None:
    # docutils/Sphinx csv-table ":file:" (relative to the page, "/" the source dir); never outside the root
    site = _project(tmp_path, {
        "install/support.rst": ("Support\n=======\n\n.. csv-table:: Newer versions\n   :file: newer.csv\n"
                                "   :header-rows: 1\n\n.. csv-table:: Shared\n   :file: /data/shared.csv\n\n"
                                ".. csv-table:: Outside\n   :file: ../../../etc/passwd\n"),
        "install/newer.csv": "Python,3.13,3.12\nPillow 11,Yes,Yes\n",
        "data/shared.csv": "a,b\n"})
    doc = convert_rst(tmp_path / "install" / "support.rst", site=site)
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [(t.caption, t.headers, t.rows) for t in tables] == [
        ("Newer versions", ["Python", "3.13", "3.12"], [["Pillow 11", "Yes", "Yes"]]), ("Shared", [], [["a", "b"]])]
    assert any("escapes the corpus root" in w for w in doc.warnings)


def test_cve_and_cwe_roles_read_as_sphinx_renders_them(tmp_path: Path) -> None:
    # Sphinx 8.1 roles (sphinx.roles.CVE, CWE): "CVE <id>", "CWE <id>", an explicit title as written
    site = _project(tmp_path, {"s.rst": "Security\n========\n\nFixes :cve:`2020-15999` (:cwe:`787`) and "
                                        ":cve:`the overflow <2021-1234>`.\n"})
    doc = convert_rst(tmp_path / "s.rst", site=site)
    assert doc.sections[0].text == "Fixes CVE 2020-15999 (CWE 787) and the overflow."
    assert doc.warnings == []


def test_a_page_whose_preamble_shows_nothing_starts_at_its_title(tmp_path: Path) -> None:
    # a script (raw html) and a label before the title show nothing: the title heads the page's
    # first section, not a section named after the file; text before a title still gets its own section
    site = _project(tmp_path, {
        "basic-install.rst": (".. raw:: html\n\n    <script>activateTab(getOS());</script>\n\n.. _basic-install:\n\n"
                              "Basic Installation\n==================\n\nInstall it.\n\nLinux\n-----\n\nUse pip.\n"),
        "intro.rst": "Read this first.\n\nIntro\n=====\n\nText.\n"})
    doc = convert_rst(tmp_path / "basic-install.rst", site=site)
    assert [(s.heading_path, s.text) for s in doc.sections] == [
        (("Basic Installation",), "Install it."), (("Basic Installation", "Linux"), "Use pip.")]
    doc = convert_rst(tmp_path / "intro.rst", site=site)
    assert [(s.heading_path, s.text) for s in doc.sections] == [(("intro",), "Read this first."),
                                                                (("intro", "Intro"), "Text.")]


def test_substitution_icons_in_text_are_inline_and_dark_only_images_are_not_kept(tmp_path: Path) -> None:
    """A ``|name|`` image in a sentence or with words in its table cell is an icon (flag
    ``inline``); the same substitution alone on its line, a directive image, a
    figure, and a dialog-sized picture opening a paragraph (a browser breaks the
    line around it) are figures. An image with ``:class: only-dark`` (pydata-sphinx-theme,
    Furo) is shown only in dark mode: its light twin is the image kept."""
    for name in ("gear", "shot", "light", "dark", "wide", "matrix"):
        p = tmp_path / "img" / f"{name}.png"
        p.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (900, 280) if name == "matrix" else (200, 120), (10 * len(name), 40, 90)).save(p)
    site = _project(tmp_path, {"p.rst": """\
Settings
========

.. |gear| image:: img/gear.png
.. |wide| image:: img/wide.png

Open the |gear| menu and choose
**Settings**.

|wide|

=============  ==============
Button         Meaning
=============  ==============
|gear| Gear    Opens settings
|wide|         A whole window
=============  ==============

.. image:: img/shot.png

|matrix| The priority matrix sets each ticket's priority.

.. |matrix| image:: img/matrix.png

.. image:: img/dark.png
   :class: only-dark

.. image:: img/light.png
   :class: only-light
"""})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    flags = [(Path(i.path or "").name, i.flags) for i in _images(doc)]
    assert flags == [("gear.png", ["inline"]), ("wide.png", []), ("gear.png", ["inline"]), ("wide.png", []),
                     ("shot.png", []), ("matrix.png", []), ("light.png", [])]


def test_a_huge_csv_table_is_cut_as_a_pipe_table_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # docutils parses every csv cell as a document of its own: a 200,000-line ``:file:`` took
    # minutes; a table keeps its first MAX_TABLE_ROWS rows (and MAX_TABLE_CELLS cells), with a
    # warning (small limits here: the test stays fast)
    from murar.ingest.markup import rst

    monkeypatch.setattr(rst, "MAX_TABLE_ROWS", 100, raising=False)
    monkeypatch.setattr(rst, "MAX_TABLE_CELLS", 400, raising=False)
    site = _project(tmp_path, {
        "data.rst": ("Data\n====\n\n.. csv-table:: Long\n   :file: long.csv\n   :header-rows: 1\n\n"
                     ".. csv-table:: Wide\n   :file: wide.csv\n\nAfter the tables.\n"),
        "long.csv": "name,value\n" + "".join(f"row{k},{k}\n" for k in range(3_000)),
        "wide.csv": ",".join(f"c{k}" for k in range(3_000)) + "\n"})
    doc = convert_rst(tmp_path / "data.rst", site=site)
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [t.caption for t in tables] == ["Long", "Wide"]
    assert tables[0].headers == ["name", "value"] and len(tables[0].rows) == 100
    assert tables[0].rows[-1] == ["row99", "99"]
    assert len(tables[1].rows) == 1 and len(tables[1].rows[0]) == 400
    assert sum("csv-table of" in w and "cut" in w for w in doc.warnings) == 2
    assert doc.sections[-1].text.endswith("After the tables.")
def test_nbsphinx_gallery_and_info_box_directives(tmp_path: Path) -> None:
    # nbsphinx: nbgallery/nblinkgallery draw the listed documents as thumbnails showing their titles under
    # the caption; nbinfo/nbwarning are boxes of their content (no title of their own)
    site = _project(tmp_path, {
        "index.rst": ("Home\n====\n\n.. nblinkgallery::\n   :caption: Worked examples\n\n   orbits\n"
                      "   Custom title <moons>\n   https://example.org/x\n\n"
                      ".. nbgallery::\n   :glob:\n\n   gallery/*\n   orbits\n\n"
                      ".. nbinfo::\n\n   An info box.\n\n.. nbwarning:: Careful here.\n"),
        "orbits.rst": "Plotting orbits\n===============\n\nText.\n",
        "moons.rst": "Moons\n=====\n\nText.\n",
    }, conf="extensions = ['nbsphinx']\n")
    doc = convert_rst(tmp_path / "index.rst", site=site)
    assert doc.sections[0].text.split("\n\n") == [
        "Worked examples", "Plotting orbits", "Custom title", "Plotting orbits", "An info box.", "Careful here."]
    assert not doc.warnings


def test_matplotlib_plot_directive_shows_source_only_when_asked(tmp_path: Path) -> None:
    # matplotlib.sphinxext.plot_directive (checked with sphinx-build -b text, matplotlib 3.9): inline code is
    # run, not shown, unless :include-source:; a file argument is read from the source directory and the
    # content is then the caption
    site = _project(tmp_path, {
        "scripts/demo.py": "import pylab\npylab.plot([3, 1, 2])\n",
        "sub/page.rst": ("Page\n====\n\nIntro.\n\n.. plot::\n   :caption: A sine wave.\n\n   import pylab\n"
                         "   pylab.plot([1, 2])\n\n.. plot:: scripts/demo.py\n   :include-source:\n\n"
                         "   The demo caption.\n\nAfter.\n"),
    }, conf="extensions = ['matplotlib.sphinxext.plot_directive']\n")
    doc = convert_rst(tmp_path / "sub/page.rst", site=site)
    assert doc.sections[0].text == ("Intro.\n\nA sine wave.\n\nimport pylab\npylab.plot([3, 1, 2])\n\n"
                                    "The demo caption.\n\nAfter.")
    assert not doc.warnings


def test_sphinx_design_badge_roles_are_known(tmp_path: Path) -> None:
    # sphinx-design's badge roles (bdg-<color>, -line, bdg-link-/bdg-ref-): the badge's text, no warning
    site = _project(tmp_path, {"index.rst": (
        "T\n=\n\nA :bdg-success:`Stable` and :bdg-link-primary:`Docs <https://x.org>` and "
        ":bdg-ref-info-line:`ref <index>` and :bdg-muted-line:`old`.\n")}, conf="extensions = ['sphinx_design']\n")
    doc = convert_rst(tmp_path / "index.rst", site=site)
    assert doc.sections[0].text == "A Stable and Docs and ref and old."
    assert not doc.warnings


def test_sphinx_nested_include_paths_are_relative_to_the_document(tmp_path: Path) -> None:
    # Sphinx resolves include and literalinclude from the document being built, even inside an included
    # file (env.relfn2path; checked with sphinx-build 8.1): doc/authors.rst includes ../AUTHORS.rst, whose
    # 'changes/names.rst' is doc/changes/names.rst; csv-table :file: stays docutils' (the holding file's)
    site = _project(tmp_path, {
        "doc/authors.rst": ".. include:: ../AUTHORS.rst\n",
        "AUTHORS.rst": ("Authors\n=======\n\n.. include:: changes/names.rst\n\n.. literalinclude:: changes/code.py\n\n"
                        ".. csv-table:: T\n   :file: changes/t.csv\n\nMore.\n"),
        "doc/changes/names.rst": "Names from doc.\n",
        "changes/names.rst": "Names from the root.\n",
        "doc/changes/code.py": "x = 'doc'\n",
        "changes/code.py": "x = 'root'\n",
        "doc/changes/t.csv": "a,doc\n",
        "changes/t.csv": "a,root\n",
    })
    site = SphinxSite(tmp_path, "doc/conf.py")
    (tmp_path / "doc/conf.py").write_text("extensions = []\n")
    doc = convert_rst(tmp_path / "doc/authors.rst", site=site)
    text = doc.sections[0].text
    assert "Names from doc." in text and "x = 'doc'" in text
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [t.rows for t in tables] == [[["a", "root"]]]
    assert "Names from the root." not in text and "x = 'root'" not in text


def test_code_block_substitutions_option_replaces_substitutions(tmp_path: Path) -> None:
    """sphinx-substitution-extensions: ``.. code-block:: bash`` with ``:substitutions:`` shows
    ``|name|`` replaced (ROCm's install commands, |amdgpu_version| from rst_prolog); the
    |refs| of a code block without the option, and undefined ones, stay as written."""
    conf = ('extensions = ["sphinx_substitution_extensions"]\n'
            'rst_prolog = """\n.. |amdgpu_version| replace:: 7.0\n"""\n')
    site = _project(tmp_path, {"p.rst": """\
Install
=======

.. code-block:: bash
   :substitutions:

   wget https://repo.example.com/|amdgpu_version|/pkg_|amdgpu_version|.deb | tee |nodef|

.. code-block:: bash

   echo |amdgpu_version|
"""}, conf=conf)
    doc = convert_rst(tmp_path / "p.rst", site=site)
    text = doc.sections[0].text
    assert "wget https://repo.example.com/7.0/pkg_7.0.deb | tee |nodef|" in text
    assert "echo |amdgpu_version|" in text


def test_datatemplates_render_their_template_with_the_data_and_conf_settings(tmp_path: Path) -> None:
    """sphinxcontrib-datatemplates: the body (or a templates_path file) is a Jinja2 template of
    reST, rendered with ``config`` and the data file (ROCm's install guide loops over
    ``config.html_context['ubuntu_version_numbers']``, one tab per release); the raw
    '{% for ... %}' and '{{ os_version }}' were the page's text. A broken template or a
    sandbox escape is a warning, the rest of the page kept."""
    conf = ('extensions = ["sphinxcontrib.datatemplates"]\ntemplates_path = ["_templates"]\n'
            "ubuntu = [('24.04', 'noble'), ('22.04', 'jammy')]\nhtml_context = {'ubuntu': ubuntu}\n")
    site = _project(tmp_path, {
        "data/gpus.json": '[{"name": "MI300X", "arch": "gfx942"}, {"name": "MI210", "arch": "gfx90a"}]',
        "data/ports.csv": "port,use\n8080,web\n",
        "_templates/ports.tmpl": "{% for row in data %}Port {{ row.port }} serves {{ row.use }}.\n\n{% endfor %}",
        "p.rst": """\
Install
=======

.. datatemplate:nodata::

   .. tab-set::

      {% for (version, name) in config.html_context['ubuntu'] %}
      .. tab-item:: {{ version }}

         Run ``apt install rocm`` on {{ name }}.
      {% endfor %}

.. datatemplate:json:: data/gpus.json

   {{ make_list_table_from_mappings([('GPU', 'name'), ('Target', 'arch')], data, title='GPUs') }}

.. datatemplate:csv:: data/ports.csv
   :headers:
   :template: ports.tmpl

.. datatemplate:nodata::

   {% for x in %}

.. datatemplate:nodata::

   {{ ''.__class__.__mro__ }}

Done.
"""}, conf=conf)
    doc = convert_rst(tmp_path / "p.rst", site=site)
    text = doc.sections[0].text
    assert "24.04\n\nRun apt install rocm on noble." in text and "Run apt install rocm on jammy." in text
    assert "Port 8080 serves web." in text and text.endswith("Done.")
    assert "{%" not in text and "{{" not in text and "__mro__" not in text
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [(t.caption, t.headers, t.rows) for t in tables] == [
        ("GPUs", ["GPU", "Target"], [["MI300X", "gfx942"], ["MI210", "gfx90a"]])]
    assert sum("datatemplate:nodata" in w for w in doc.warnings) == 2


def test_inline_raw_html_substitutions_stay_in_their_sentence(tmp_path: Path) -> None:
    """``.. |br| raw:: html`` (``<br />``) used inside a sentence is a line break in it, and a
    ``|new|`` badge's words are words of the sentence: the paragraph was cut in two
    ("and a" / "break."); an inline ``<img>`` is still an image, not its alt text as well."""
    _png(tmp_path / "_static" / "dot.png")
    site = _project(tmp_path, {"p.rst": """\
Notes
=====

First line |br| second line, a |new| feature and a |dot| dot.

.. |br| raw:: html

   <br />

.. |new| raw:: html

   <span class="badge">New</span>

.. |dot| raw:: html

   <img src="_static/dot.png" alt="green dot">
"""})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert doc.sections[0].text == "First line second line, a New feature and a dot."
    assert [Path(i.path or "").name for i in _images(doc)] == ["dot.png"]


def test_sphinx_jinja_renders_its_template_with_the_conf_context(tmp_path: Path) -> None:
    """sphinx-jinja: ``.. jinja:: default`` renders its body with ``jinja_contexts["default"]``
    (LSST's release pages: the EUPS tag); its '{{ release_eups_tag }}' markup was the text.
    A context conf.py computes (unknown to murar) renders as undefined: no markup left."""
    conf = ('extensions = ["sphinx_jinja"]\n'
            'jinja_contexts = {"default": {"release_eups_tag": "v23_0_4", "platforms": ["Linux", "macOS"]}}\n')
    site = _project(tmp_path, {"_templates/notes.j2": "Notes for {{ release_eups_tag }}.\n",
                               "p.rst": """\
Release
=======

.. jinja:: default

   Install {{ release_eups_tag }} on {% for p in platforms %}{{ p }}{{ ", " if not loop.last }}{% endfor %}.

.. jinja:: default
   :file: _templates/notes.j2

.. jinja:: computed

   {% for e in engines %}* {{ e }}
   {% endfor %}Done.
"""}, conf=conf)
    text = convert_rst(tmp_path / "p.rst", site=site).sections[0].text
    assert text.split("\n\n") == ["Install v23_0_4 on Linux, macOS.", "Notes for v23_0_4.", "Done."]


def test_mdinclude_reads_the_markdown_file_where_it_stands(tmp_path: Path) -> None:
    """m2r2's ``.. mdinclude:: README.md`` (the home page of many Sphinx sites): the README
    was missing (an unknown directive); it is Markdown read in place, its pictures resolved
    against the including document, as Sphinx resolves the inserted text's images."""
    _png(tmp_path / "img" / "logo.png")
    (tmp_path / "README.md").write_text("# Tool\n\nA **fast** tool.\n\n![Logo](img/logo.png)\n\n"
                                        "## Install\n\nRun `pip install tool`.\n")
    site = _project(tmp_path, {"index.rst": "Welcome\n=======\n\n.. mdinclude:: README.md\n"},
                    conf='extensions = ["m2r2"]\n')
    doc = convert_rst(tmp_path / "index.rst", site=site)
    text = "\n\n".join(s.text for s in doc.sections)
    assert "A fast tool." in text and "Run pip install tool." in text
    assert [(i.path, i.exists) for i in _images(doc)] == [("img/logo.png", True)]
    assert site.classify("README.md").role is FileRole.INCLUDE


def test_samp_and_file_roles_show_their_variable_parts_without_braces(tmp_path: Path) -> None:
    """Sphinx's :samp: and :file: draw a ``{variable}`` part emphasized, without its braces
    (CPython's ``:file:`{prefix}/lib/python{version}```): the braces were left in the text."""
    site = _project(tmp_path, {"p.rst": "Paths\n=====\n\nEdit :file:`{prefix}/lib/python{version}` or run "
                                        ":samp:`print(1 + {variable})`.\n"})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert "Edit prefix/lib/pythonversion or run print(1 + variable)." in doc.sections[0].text


def test_an_image_drawn_small_by_its_width_option_is_tiny(tmp_path: Path) -> None:
    """``:width:`` is the size docutils' HTML writer draws the picture at: a large file
    shown 16 px wide is a glyph (flag ``tiny``), as an HTML ``<img width>`` is; so is one
    sized to the text in ems (QGIS's toolbar icons, ``.. |checkbox| image:: ...`` with
    ``:width: 1.3em``, in table cells and sentences: 21 px at the initial 16 px font),
    not one 40em wide (640 px); a percentage says nothing of pixels and leaves the file's size."""
    for name in ("icon", "half", "ems", "wide"):
        p = tmp_path / "img" / f"{name}.png"
        p.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (400, 300), (10 * len(name), 40, 90)).save(p)
    site = _project(tmp_path, {"p.rst": """\
Toolbar
=======

.. image:: img/icon.png
   :width: 16px

.. image:: img/half.png
   :width: 50%

.. image:: img/ems.png
   :width: 2em

.. image:: img/wide.png
   :width: 40em

+--------+------------+
| Format | Supported  |
+========+============+
| GPKG   | |checkbox| |
+--------+------------+

.. |checkbox| image:: img/icon.png
   :width: 1.3em
"""})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    assert [(Path(i.path or "").name, i.flags) for i in _images(doc)] == [
        ("icon.png", ["tiny"]), ("half.png", []), ("ems.png", ["tiny"]), ("wide.png", []), ("icon.png", ["tiny"])]


def test_design_cards_buttons_and_article_info_as_rendered(tmp_path: Path) -> None:
    """sphinx-design splits a card at its first ``^^^`` and last ``+++`` line (header,
    title + body, footer), a button shows its content else its target (a button-ref:
    the target's title), article-info its author/date/read-time; a card marked
    ``only-dark`` holds the dark twin of a picture."""
    site = _project(tmp_path, {"guide.rst": "Setup guide\n===========\n\nText.\n", "c.rst": """\
Cards
=====

.. card:: Pricing

   Monthly plans
   ^^^
   Pay per seat.
   +++
   Cancel any time.

.. button-link:: https://example.org/buy

   Buy a plan

.. button-ref:: guide

.. grid:: 2

   .. grid-item-card:: Night view
      :img-top: https://example.org/night.png
      :class-item: only-dark

   .. grid-item-card:: Day view
      :img-top: https://example.org/day.png

.. article-info::
   :author: Ann Lee
   :date: May 2, 2024
   :read-time: 4 min read
"""}, conf="extensions = ['sphinx_design']\n")
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == ("Monthly plans\n\nPricing\n\nPay per seat.\n\nCancel any time.\n\nBuy a plan\n\n"
                                    "Setup guide\n\nNight view\n\nDay view\n\nAnn Lee\n\nMay 2, 2024\n\n4 min read")
    assert [m.url for m in _images(doc)] == ["https://example.org/day.png"]


def test_code_block_and_literalinclude_captions_shown_above_the_code(tmp_path: Path) -> None:
    """Sphinx draws a code block's ``:caption:`` above it (inline markup read); an
    empty ``literalinclude`` caption is the file name as written."""
    site = _project(tmp_path, {"snippets/app.py": "def run():\n    pass\n", "c.rst": """\
Code
====

.. code-block:: yaml
   :caption: The **server** settings

   port: 80

.. literalinclude:: snippets/app.py
   :caption:
"""})
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == ("The server settings\n\nport: 80\n\nsnippets/app.py\n\n"
                                    "def run():\n    pass")


def test_class_arguments_and_toggle_are_not_text(tmp_path: Path) -> None:
    """``rst-class``/``cssclass`` name classes and sphinx-togglebutton's ``toggle``
    reads no argument: none is page text, and ``toggle`` is a known container."""
    site = _project(tmp_path, {"c.rst": """\
Layout
======

.. rst-class:: full-width

Wide paragraph.

.. toggle::

   Hidden details.
"""}, conf="extensions = ['sphinx_togglebutton']\n")
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == "Wide paragraph.\n\nHidden details."
    assert not doc.warnings


_SERVER_PY = '''import os


def helper():
    return 1


@register
class Server:
    """Serves requests."""

    def start(self):
        return 2
# END
'''


def test_literalinclude_shows_the_part_its_options_pick(tmp_path: Path) -> None:
    """Sphinx's LiteralIncludeReader: pyobject (decorators kept), start-at/end-before,
    lines, dedent, prepend/append; a pattern the file lacks shows nothing, with a warning."""
    site = _project(tmp_path, {"src/server.py": _SERVER_PY, "c.rst": """\
Code
====

.. literalinclude:: src/server.py
   :pyobject: Server.start
   :dedent: 4

.. literalinclude:: src/server.py
   :start-at: @register
   :end-before: def start

.. literalinclude:: src/server.py
   :lines: 1,4-5
   :prepend: # setup
   :append: # done

.. literalinclude:: src/server.py
   :start-after: no such marker
"""})
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == (
        "def start(self):\n    return 2\n\n@register\nclass Server:\n    \"\"\"Serves requests.\"\"\"\n\n"
        "# setup\nimport os\ndef helper():\n    return 1\n# done")
    assert any("pick nothing" in w for w in doc.warnings)


def test_sphinx_tabs_code_tabs_are_labelled_tabs(tmp_path: Path) -> None:
    """sphinx-tabs' ``code-tab`` is a tab labelled by its custom label, else the Pygments
    name of its language, holding its code."""
    site = _project(tmp_path, {"c.rst": """\
Install
=======

.. tabs::

   .. code-tab:: py

      import acme

   .. code-tab:: bash Shell script

      acme --init
"""}, conf="extensions = ['sphinx_tabs.tabs']\n")
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == "Python\n\nimport acme\n\nShell script\n\nacme --init"
    assert not doc.warnings


def test_figure_marked_only_dark_is_the_dark_twin(tmp_path: Path) -> None:
    """``:figclass: only-dark`` hides the whole figure in light mode (Furo,
    pydata-sphinx-theme), also when its image is a link (``:target:``): its picture is
    the dark twin of the light figure beside it, not kept."""
    for name in ("light", "dark"):
        _png(tmp_path / "img" / f"{name}.png")
    site = _project(tmp_path, {"c.rst": """\
Layout
======

.. figure:: img/light.png
   :figclass: only-light

   The layout.

.. figure:: img/dark.png
   :figclass: only-dark
   :target: https://example.org/dark.png

   The layout.
"""})
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert [m.path for m in _images(doc)] == ["img/light.png"]


def test_ifconfig_is_evaluated_with_conf_literals(tmp_path: Path) -> None:
    """sphinx.ext.ifconfig keeps its content when the expression over conf.py's values
    is true; murar reads it without eval, and keeps the content when a name is not a
    literal conf.py setting or the expression is more than it reads."""
    site = _project(tmp_path, {"c.rst": """\
Notes
=====

.. ifconfig:: release.startswith('2')

   Version 2 notes.

.. ifconfig:: release.startswith('1')

   Version 1 notes.

.. ifconfig:: edition in ('cloud', 'saas') and not beta

   Cloud notes.

.. ifconfig:: computed_value == 3

   Unknown notes.

.. ifconfig:: __import__('os').system('true')

   Never run.
"""}, conf="extensions = ['sphinx.ext.ifconfig']\nrelease = '2.4'\nedition = 'onprem'\nbeta = False\n")
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == "Version 2 notes.\n\nUnknown notes.\n\nNever run."


def test_ifconfig_language_none_is_english() -> None:
    """Sphinx 5+ reads ``language = None`` (or no language) as "en": the English
    screenshots of a page that picks them per language are the ones shown."""
    from murar.ingest.markup.rst import ifconfig_true

    assert ifconfig_true("language == 'en'", {"language": None})
    assert not ifconfig_true("language == 'fr'", {})
    assert ifconfig_true("builder == 'html' and release >= '1.0'", {"release": "1.2"})


def test_design_tab_set_code_labels_tabs_by_language(tmp_path: Path) -> None:
    """sphinx-design's tab-set-code: a tab per code block, labelled by its language in capitals."""
    site = _project(tmp_path, {"snippets/app.js": "run();\n", "c.rst": """\
Run
===

.. tab-set-code::

   .. code-block:: python

      run()

   .. literalinclude:: snippets/app.js
      :language: javascript
"""}, conf="extensions = ['sphinx_design']\n")
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == "PYTHON\n\nrun()\n\nJAVASCRIPT\n\nrun();"


def test_literalinclude_repeated_line_ranges_stay_bounded() -> None:
    """A ``:lines:`` of 1,000 open ranges over a long file never multiplies it."""
    from murar.ingest.markup.codeshown import literalinclude_text

    shown = literalinclude_text("x\n" * 50_000, {"lines": ",".join(["1-"] * 1_000)})
    assert shown is not None and shown.count("\n") < 100_000


def test_sidebar_subtitle_is_its_own_line(tmp_path: Path) -> None:
    """docutils writes a sidebar's ``:subtitle:`` as its own paragraph under the title."""
    site = _project(tmp_path, {"c.rst": "Page\n====\n\n.. sidebar:: Limits\n   :subtitle: Per account\n\n"
                                        "   Ten projects at most.\n"})
    doc = convert_rst(tmp_path / "c.rst", site=site)
    assert doc.sections[0].text == "Limits\n\nPer account\n\nTen projects at most."


def test_peertube_video_id_is_an_embed_on_its_instance(tmp_path: Path) -> None:
    # '.. peertube:: <id>' (sphinxcontrib-youtube, or a project's own extension reading conf.py's
    # peertube_instance, as Blender's manual does) was read as a local video file next to the page
    # and reported missing
    site = _project(tmp_path, {"v.rst": """\
Videos
======

.. peertube:: c3e07449-aff7

.. peertube:: 8DP1hsJ
   :instance: tube.example.org
"""}, conf='extensions = ["peertube"]\npeertube_instance = "https://video.example.org/"\n')
    doc = convert_rst(tmp_path / "v.rst", site=site)
    assert [m.url for m in doc.media if isinstance(m, VideoItem)] == [
        "https://video.example.org/videos/embed/c3e07449-aff7", "https://tube.example.org/videos/embed/8DP1hsJ"]
    (tmp_path / "plain").mkdir()
    site = _project(tmp_path / "plain", {"v.rst": "Videos\n======\n\n.. peertube:: abc\n"},
                    conf='extensions = ["sphinxcontrib.youtube"]\n')
    doc = convert_rst(tmp_path / "plain" / "v.rst", site=site)  # sphinxcontrib-youtube's default instance
    assert [m.url for m in doc.media if isinstance(m, VideoItem)] == ["https://peertube.tv/videos/embed/abc"]


def test_text_brought_in_by_directives_is_bounded_per_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each included file or rendered template was bounded, not their sum: 40 includes of a
    980 KB file made 39,000,000 characters of reST from an 898-byte page (94 s). A page's
    includes, files read by its directives and template output now share one budget (lowered
    here to keep the page small); past it they are skipped with one warning."""
    from murar.ingest.markup import rst

    monkeypatch.setattr(rst, "_MAX_INSERTED_CHARS", 100_000, raising=False)
    conf = 'extensions = ["sphinxcontrib.datatemplates"]\n'
    site = _project(tmp_path, {
        "part.txt": "Included words here.\n\n" * 500,  # 11,000 characters
        "p.rst": "Title\n=====\n\n" + ".. include:: part.txt\n\n" * 30
        + ".. datatemplate:nodata::\n\n   {% for i in range(3000) %}Rendered {{ i }}.\n\n   {% endfor %}\n\nEnd.\n"},
        conf=conf)
    doc = convert_rst(tmp_path / "p.rst", site=site)
    text = doc.sections[0].text
    assert 80_000 <= len(text) <= 120_000 and text.endswith("End.") and "Rendered" not in text
    assert sum("over 100000 characters" in w for w in doc.warnings) == 1


def test_icon_substitution_in_a_figure_caption_is_no_caption_word(tmp_path: Path) -> None:
    # QGIS's figure captions name the tab by its icon: 'The |settings| :guilabel:`Settings` tab'.
    # Sphinx draws the icon in the caption; its alt (the substitution name) is not caption text,
    # and the icon is no second picture of the figure
    _png(tmp_path / "img" / "tab.png")
    _png(tmp_path / "static" / "settings.png")
    site = _project(tmp_path, {"p.rst": """\
Plugins
=======

.. figure:: img/tab.png

   The |settings| :guilabel:`Settings` tab

.. |settings| image:: /static/settings.png
   :width: 1.5em
"""})
    doc = convert_rst(tmp_path / "p.rst", site=site)
    shots = [m for m in _images(doc) if m.caption]
    assert [(m.path, m.caption) for m in shots] == [("img/tab.png", "The Settings tab")]


def test_icon_beside_words_in_a_table_cell_is_no_cell_text(tmp_path: Path) -> None:
    # QGIS's menu tables: '|fileNew| :guilabel:`New`' shows an icon and the word; the cell
    # reads 'New' as a paragraph would, while a cell holding only an icon keeps its alt text
    _png(tmp_path / "static" / "new.png")
    _png(tmp_path / "static" / "point.png")
    site = _project(tmp_path, {"t.rst": """\
Menus
=====

.. list-table:: The Project menu items
   :header-rows: 1

   * - Menu Option
     - Point
     - Notes
   * - |new| :guilabel:`New`
     - |point|
     - * one
       * two

.. |new| image:: /static/new.png
   :width: 1.5em
.. |point| image:: /static/point.png
   :width: 1.5em
"""})
    doc = convert_rst(tmp_path / "t.rst", site=site)
    (table,) = [m for m in doc.media if isinstance(m, TableItem)]
    assert table.rows == [["New", "point", "one two"]]


def test_icon_in_an_admonition_title_is_no_title_word(tmp_path: Path) -> None:
    # '.. admonition:: |hard| Challenge' (QGIS training manual; MNE's '|windows| Windows'):
    # Sphinx draws the icon before the title; its alt is not a word of the title
    _png(tmp_path / "static" / "hard.png")
    site = _project(tmp_path, {"a.rst": """\
Interpolation
=============

.. admonition:: |hard| Challenge

   Set the cell size.

.. |hard| image:: /static/hard.png
"""})
    doc = convert_rst(tmp_path / "a.rst", site=site)
    assert "Challenge: Set the cell size." in doc.sections[0].text
    assert "hard" not in doc.sections[0].text


def test_sphinxemoji_codes_are_emoji_not_their_names(tmp_path: Path) -> None:
    """sphinxemoji: ``|:tada:|`` is the emoji, not docutils' undefined-substitution text
    ("tada:"); a picture leaves the text, a value-stating emoji (a plus sign, a check
    mark) reads as its character; a code the page defines keeps its definition; a code
    in a literal block stays; without the extension the reference is left as before."""
    page = """\
Tutorial
========

You created your first project! |:tada:| Click the |:heavy_plus_sign:| button, then |:white_check_mark:|.
Own |:custom:| code.

.. |:custom:| replace:: CUSTOM

::

   literal |:tada:|
"""
    site = _project(tmp_path, {"t.rst": page}, conf="extensions = ['sphinxemoji.sphinxemoji']\n")
    text = convert_rst(tmp_path / "t.rst", site=site).sections[0].text
    assert "tada" not in text.replace("literal |:tada:|", "") and "heavy_plus_sign" not in text
    assert "first project! Click the \u2795 button, then \u2705." in " ".join(text.split())
    assert "Own CUSTOM code." in text and "literal |:tada:|" in text
    site = _project(tmp_path, {"t.rst": page}, conf="extensions = []\n")
    assert "tada:" in convert_rst(tmp_path / "t.rst", site=site).sections[0].text


def test_a_docutils_error_message_is_no_table_cell_text(tmp_path: Path) -> None:
    """Sphinx drops docutils' system messages from the doctree (FilterSystemMessages, keep_warnings
    off): a grid table cell holding a dotted separator line (a transition where none may be) shows
    nothing, not the error report with the source file's path."""
    site = _project(tmp_path, {"t.rst": """\
T
=

+---------+----------+
| Alpha   |  Beta    |
+---------+----------+
|      .......       |
+---------+----------+
| Gamma   |  Delta   |
+---------+----------+
"""})
    doc = convert_rst(tmp_path / "t.rst", site=site)
    (tab,) = [m for m in doc.media if isinstance(m, TableItem)]
    assert tab.rows == [["Alpha", "Beta"], ["", ""], ["Gamma", "Delta"]]
    assert not any("ERROR" in cell or str(tmp_path) in cell for row in tab.rows for cell in row)
    assert any("Unexpected section title or transition" in w for w in doc.warnings)


def test_role_directive_makes_raw_roles_of_their_format(tmp_path: Path) -> None:
    """docutils' ``role`` directive: ``.. role:: raw-html(raw)`` with ``:format: html`` shows its
    HTML's words (a changelog badge from an rst_prolog substitution), a ``(raw)`` role of
    format latex shows nothing in HTML, a role on no base is its text (no ``<...>`` target cut),
    and a role on a base docutils does not know stays text without a warning."""
    site = _project(tmp_path, {"changes.rst": """\
Changes
=======

- |Fix| Estimators no longer crash. By :user-name:`A <b>`.
- |API| The :raw-html:`<em>old</em>` keyword :red:`<deprecated>` is gone. :menu:`File`
"""}, conf='''rst_prolog = """
.. role:: raw-html(raw)
   :format: html

.. role:: raw-latex(raw)
   :format: latex

.. role:: red

.. role:: menu(guilabel)

.. |Fix| replace:: :raw-html:`<span class="badge">Fix</span>` :raw-latex:`{\\\\small\\\\sc [Fix]}`
.. |API| replace:: :raw-html:`<span class="badge">API Change</span>` :raw-latex:`{\\\\small\\\\sc [API]}`
"""
''')
    doc = convert_rst(tmp_path / "changes.rst", site=site)
    text = " ".join(doc.sections[0].text.split())
    assert "Fix Estimators no longer crash." in text
    assert "API Change The old keyword <deprecated> is gone. File" in text
    assert "span" not in text and "small" not in text and "sc [" not in text
    assert not [w for w in doc.warnings if "role" in w.lower() and "menu" in w]


def test_a_table_of_pictures_only_is_a_layout_grid(tmp_path: Path) -> None:
    """A grid or list table whose body cells hold pictures and no word of their own (sponsor
    logos as ``|name|`` substitutions, two screenshots side by side) is a ``layout`` table, as
    in Markdown, though its cells read the pictures' alt text; a feature matrix whose check-mark
    pictures sit beside row labels stays a table."""
    for name in ("light.png", "dark.png", "yes.png"):
        Image.new("RGB", (640, 400), "white").save(tmp_path / name)
    site = _project(tmp_path, {"t.rst": """\
Modes
=====

.. |light| image:: light.png
   :target: https://example.org/light
.. |dark| image:: dark.png
.. |yes| image:: yes.png
   :alt: Yes

+------------+-----------+
| |light|    | |dark|    |
+------------+-----------+

.. list-table::
   :header-rows: 1

   * - Light mode
     - Dark mode
   * - .. image:: light.png
          :alt: Light
     - .. image:: dark.png

=========  =======
Feature    Linux
=========  =======
Export     |yes|
=========  =======
"""})
    doc = convert_rst(tmp_path / "t.rst", site=site)
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [t.flags for t in tables] == [["layout"], ["layout"], []]
    assert tables[2].rows == [["Export", "Yes"]]
    assert all(not m.flags for m in _images(doc))


def test_docutils_messages_leave_the_doctree_in_one_pass_per_parent(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of thousands of unclosed inline markups ('`a *b **c' in each paragraph) has three
    docutils warnings a paragraph, all children of the section: each was removed by its own
    list search (Element.remove), quadratic (24,000 messages: 1.7 s of removals alone). They are
    now filtered out of each parent's children once; the text and the warnings stay."""
    from docutils import nodes

    removed: list[object] = []
    original = nodes.Element.remove

    def counting(self: nodes.Element, item: nodes.Node) -> None:
        removed.append(item)
        original(self, item)

    monkeypatch.setattr(nodes.Element, "remove", counting)
    page = "T\n=\n\n" + "".join(f"`open{i} *a **b\n\n" for i in range(1000))
    site = _project(tmp_path, {"t.rst": page})
    doc = convert_rst(tmp_path / "t.rst", site=site)
    text = doc.sections[0].text
    assert "open0 *a **b" in text and "open999 *a **b" in text and "WARNING" not in text
    assert sum(isinstance(r, nodes.system_message) for r in removed) == 0  # was 3,000 searches
    assert any("start-string without end-string" in w for w in doc.warnings)
