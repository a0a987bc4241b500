"""sphinx-gallery: example scripts read as the gallery pages the extension writes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from murar.ingest.corpus import IngestReport, convert_corpus, walk_site
from murar.ingest.markup.gallery import _remove_ignore_blocks
from murar.ingest.sites.base import FileRole
from murar.ingest.sites.detect import open_site
from murar.ingest.sites.sphinx import SphinxSite

_CONF = """\
extensions = ["sphinx_gallery.gen_gallery"]
sphinx_gallery_conf = {
    "examples_dirs": ["../examples"],
    "gallery_dirs": ["auto_examples"],
    "subsection_order": ExplicitOrder(["../examples/shapes"]),
}
"""

_PLOT = '''\
"""
Drawing a wheel
===============

A wheel graph drawn with a circular layout.
"""
import lumen as lm

wheel = lm.wheel(7)

# %%
# Colour the hub
# --------------
#
# The hub gets its own colour.

# sphinx_gallery_start_ignore
lm.silence_warnings()
# sphinx_gallery_end_ignore
lm.draw(wheel, hub="red")

###############################################################################
# Then the rim is labelled.
lm.label(wheel)
'''


def _site(tmp_path: Path) -> Path:
    (tmp_path / "doc").mkdir()
    (tmp_path / "doc/conf.py").write_text(_CONF)
    (tmp_path / "doc/index.rst").write_text("Lumen\n=====\n\nA graph library.\n")
    ex = tmp_path / "examples"
    (ex / "shapes").mkdir(parents=True)
    (ex / "loose").mkdir()
    (ex / "shapes/deeper").mkdir()
    (ex / "README.txt").write_text("Gallery\n=======\n\nWorked examples of lumen.\n")
    (ex / "plot_wheel.py").write_text(_PLOT)
    (ex / "plot_tiny.py").write_text('"""\nA :func:`~lumen.draw.tiny` *graph*\n==================================\n"""\nx = 1\n')
    (ex / "__init__.py").write_text("")
    (ex / "data.txt").write_text("1 2\n")
    (ex / "shapes/README.rst").write_text("Shapes\n------\n\nExamples drawing shapes.\n")
    (ex / "shapes/grid_walk.py").write_text('"""\nGrid walk\n=========\n\nWalk a grid.\n"""\nprint(1)\n')
    (ex / "shapes/deeper/plot_x.py").write_text('"""\nDeep\n====\n"""\n')
    (ex / "loose/plot_y.py").write_text('"""\nLoose\n=====\n"""\n')
    # output of an earlier build in the sources: sphinx-gallery rewrites it
    (tmp_path / "doc/auto_examples").mkdir()
    (tmp_path / "doc/auto_examples/plot_wheel.rst").write_text("Drawing a wheel\n===============\n\nstale\n")
    return tmp_path


def test_gallery_files_are_classified_as_the_extension_finds_them(tmp_path: Path) -> None:
    site = SphinxSite.load(_site(tmp_path), "doc/conf.py")
    cls = site.classify
    assert (cls("examples/plot_wheel.py").role, cls("examples/plot_wheel.py").markup) == (FileRole.PAGE, "gallery")
    assert (cls("examples/README.txt").role, cls("examples/README.txt").markup) == (FileRole.PAGE, "rst")
    assert cls("examples/shapes/README.rst").role is FileRole.PAGE
    # every .py of a subsection is an example (filename_pattern only decides which run)
    assert cls("examples/shapes/grid_walk.py").markup == "gallery"
    assert cls("examples/__init__.py").role is not FileRole.PAGE          # ignore_pattern
    assert cls("examples/shapes/deeper/plot_x.py").role is not FileRole.PAGE  # one level of subsections
    assert cls("examples/loose/plot_y.py").role is not FileRole.PAGE      # no gallery header
    assert cls("examples/data.txt").role is not FileRole.PAGE
    assert cls("doc/auto_examples/plot_wheel.rst").role is FileRole.EXCLUDED


def test_no_gallery_without_the_extension(tmp_path: Path) -> None:
    root = _site(tmp_path)
    (root / "doc/conf.py").write_text("extensions = []\n")
    site = SphinxSite.load(root, "doc/conf.py")
    assert site.classify("examples/plot_wheel.py").role is not FileRole.PAGE


def test_example_script_reads_as_its_gallery_page(tmp_path: Path) -> None:
    sel = open_site(_site(tmp_path))
    docs = convert_corpus(sel.site.config.root, assets_dir=tmp_path / "assets", report=IngestReport(),
                          site=sel.site, walk=walk_site(sel.site, under=sel.walk))
    pages = {d.sections[0].source_path: d for d in docs}
    assert sorted(pages) == ["doc/index.rst", "examples/README.txt", "examples/plot_tiny.py", "examples/plot_wheel.py",
                             "examples/shapes/README.rst", "examples/shapes/grid_walk.py"]
    wheel = pages["examples/plot_wheel.py"]
    secs = {" > ".join(s.heading_path): s.text for s in wheel.sections}
    assert list(secs) == ["Drawing a wheel", "Drawing a wheel > Colour the hub"]
    assert secs["Drawing a wheel"].startswith("A wheel graph drawn with a circular layout.")
    assert "wheel = lm.wheel(7)" in secs["Drawing a wheel"]
    hub = secs["Drawing a wheel > Colour the hub"]
    assert "The hub gets its own colour." in hub and "Then the rim is labelled." in hub
    assert 'lm.draw(wheel, hub="red")' in hub and "lm.label(wheel)" in hub
    # the ignore block is not shown, nor the separator lines
    assert "silence_warnings" not in hub and "####" not in hub and "%%" not in hub
    assert not wheel.warnings


def test_gallery_header_lists_its_examples_as_the_index_thumbnails_do(tmp_path: Path) -> None:
    sel = open_site(_site(tmp_path))
    docs = convert_corpus(sel.site.config.root, assets_dir=tmp_path / "assets", report=IngestReport(),
                          site=sel.site, walk=walk_site(sel.site, under=sel.walk))
    text = {d.sections[0].source_path: "\n".join(s.text for s in d.sections) for d in docs}
    # default within_subsection_order: NumberOfCodeLinesSortKey (characters of code), the title's role
    # reduced to its last name as gen_rst._sanitize_rst does; the title sits in raw HTML, so '*' shows
    assert text["examples/README.txt"].split("\n\n") == [
        "Worked examples of lumen.", "A tiny *graph*", "Drawing a wheel"]
    assert text["examples/shapes/README.rst"].endswith("Grid walk")


def test_references_to_gallery_pages_read_their_titles(tmp_path: Path) -> None:
    # sphinx-gallery labels each page it writes: sphx_glr_<gallery path>_<script>.py for an example,
    # sphx_glr_<gallery path> for a gallery index; the docnames are the generated pages'
    root = _site(tmp_path)
    (root / "doc/index.rst").write_text(
        "Lumen\n=====\n\nSee :ref:`sphx_glr_auto_examples_plot_wheel.py`, :ref:`sphx_glr_auto_examples_shapes`,"
        " :ref:`sphx_glr_auto_examples` and :doc:`auto_examples/shapes/grid_walk`.\n")
    sel = open_site(root)
    docs = convert_corpus(sel.site.config.root, assets_dir=tmp_path / "assets", report=IngestReport(),
                          site=sel.site, walk=walk_site(sel.site, under=sel.walk))
    index = next(d for d in docs if d.sections[0].source_path == "doc/index.rst")
    assert index.sections[0].text == "See Drawing a wheel, Shapes, Gallery and Grid walk."


def test_minigallery_lists_the_titles_of_the_examples_it_names(tmp_path: Path) -> None:
    # sphinx-gallery's minigallery: file paths and globs (from the source directory) give the examples'
    # thumbnails under an optional heading; object names need the gallery's backreferences (not known: nothing)
    from murar.ingest.markup.rst import convert_rst

    root = _site(tmp_path)
    (root / "doc/api.rst").write_text(
        "API\n===\n\nIntro.\n\n.. minigallery:: ../examples/plot_*.py\n   :add-heading:\n\n"
        ".. minigallery:: lumen.draw\n   :add-heading: Examples using draw\n\nAfter.\n")
    doc = convert_rst(root / "doc/api.rst", site=SphinxSite.load(root, "doc/conf.py"))
    secs = {" > ".join(s.heading_path): s.text for s in doc.sections}
    assert secs == {"API": "Intro.",
                    "API > Examples using ../examples/plot_*.py": "A tiny *graph*\n\nDrawing a wheel\n\nAfter."}
    assert doc.warnings == [("minigallery lumen.draw: examples using an object are found by running the gallery; "
                            "not listed")]


def test_gallery_listings_read_only_the_top_of_each_script(tmp_path: Path) -> None:
    # the thumbnail title is the docstring at the top: a 3 MB script is read for its first 256 KB only
    # (a bounded read: a cut-off script does not parse, its leading docstring is still found)
    root = _site(tmp_path)
    (root / "examples/plot_big.py").write_text('"""\nA big one\n=========\n"""\n' + "x = 1\n" * 500_000 + "y = (\n")
    site = SphinxSite.load(root, "doc/conf.py")
    text = site.preprocess("Gallery\n=======\n", page_rel="examples/README.txt")
    assert "* A big one" in text


def test_an_examples_folder_outside_the_root_is_noted(tmp_path: Path) -> None:
    root = _site(tmp_path)
    site = SphinxSite.load(root / "doc", "conf.py")
    assert site.config.notes == (("sphinx-gallery examples folder '../examples' is outside the corpus root: its "
                                 "gallery pages are not read (ingest the folder that holds it and the docs)"),)
    assert SphinxSite.load(root, "doc/conf.py").config.notes == ()


def test_example_pages_resolve_from_where_sphinx_gallery_writes_them(tmp_path: Path) -> None:
    # the page of examples/shapes/grid_walk.py is built as doc/auto_examples/shapes/grid_walk.rst: an include
    # or image written in the script resolves from there; remove_config_comments drops the config lines
    from murar.ingest.markup.gallery import convert_gallery

    root = _site(tmp_path)
    (root / "doc/conf.py").write_text(_CONF.replace('"gallery_dirs"', '"remove_config_comments": True,\n    "gallery_dirs"'))
    (root / "examples/note.rst").write_text("Shared note text.\n")
    (root / "examples/shapes/grid_walk.py").write_text(
        '"""\nGrid walk\n=========\n\n.. include:: ../../../examples/note.rst\n"""\n'
        "x = 1\n# sphinx_gallery_thumbnail_number = 2\ny = 2\n")
    site = SphinxSite.load(root, "doc/conf.py")
    doc = convert_gallery(root / "examples/shapes/grid_walk.py", site=site, assets_dir=tmp_path / "a")
    assert doc.sections[0].text == "Shared note text.\n\nx = 1\ny = 2"
    assert not doc.warnings


def test_ignore_flags_out_of_order_are_read_in_linear_time(deadline: Callable[..., Any]) -> None:
    # as many end flags as start flags, the ends first: the lazy ignore-block pattern scanned the
    # rest of the script from every start flag (40,000 flags: minutes); nothing is removed
    k = 40_000
    code = "x = 1\n" + "# sphinx_gallery_end_ignore\n" * k + "# sphinx_gallery_start_ignore\n" * k
    with deadline(20, "ignore blocks are removed in quadratic time"):
        assert _remove_ignore_blocks(code) == code
        assert _remove_ignore_blocks("a\n# sphinx_gallery_start_ignore\nb\n# sphinx_gallery_end_ignore\nc\n"
                                     "# sphinx_gallery_end_ignore\n# sphinx_gallery_start_ignore\nd\n") == (
            "a\nc\n# sphinx_gallery_end_ignore\n# sphinx_gallery_start_ignore\nd\n")
        assert _remove_ignore_blocks("a\n# sphinx_gallery_start_ignore\nb\n  # sphinx_gallery_end_ignore\nc\n"
                                     "# sphinx_gallery_start_ignore\n# sphinx_gallery_end_ignore\n") == "a\nc\n"


def test_gallery_listings_do_not_read_scripts_or_headers_symlinked_out_of_the_root(tmp_path: Path) -> None:
    # the walk refuses a symlink that leaves the root, but the index thumbnails and the labels read
    # the scripts and headers of each examples folder themselves
    outside = tmp_path / "outside"
    (outside / "more").mkdir(parents=True)
    (outside / "plot_secret.py").write_text('"""\nSECRET script\n=============\n"""\nx = 1\n')
    (outside / "more/README.txt").write_text("SECRET header\n=============\n\nx\n")
    (tmp_path / "site").mkdir()
    root = _site(tmp_path / "site")
    (root / "examples/plot_secret.py").symlink_to(outside / "plot_secret.py")
    (root / "examples/more").symlink_to(outside / "more")
    (root / "doc/index.rst").write_text("Lumen\n=====\n\nSee :ref:`sphx_glr_auto_examples_plot_secret.py` and "
                                        ":ref:`sphx_glr_auto_examples_more`.\n")
    sel = open_site(root)
    docs = convert_corpus(sel.site.config.root, assets_dir=tmp_path / "assets", report=IngestReport(),
                          site=sel.site, walk=walk_site(sel.site, under=sel.walk))
    text = "\n".join(s.text for d in docs for s in d.sections)
    assert "Drawing a wheel" in text and "SECRET" not in text


def test_an_ignore_pattern_that_backtracks_without_bound_is_not_run(tmp_path: Path,
                                                                    deadline: Callable[..., Any]) -> None:
    # ignore_pattern is the site's regular expression, searched in every example's name: '(a+)+$' on a
    # name of 40 a's and a '!' backtracks 2**40 times (the walk hung); it is refused, with a note,
    # and the default '__init__\.py' applies
    root = _site(tmp_path)
    (root / "doc/conf.py").write_text(_CONF.replace("}\n", '    "ignore_pattern": r"(a+)+$",\n}\n'))
    name = "plot_" + "a" * 40 + "!.py"
    (root / "examples" / name).write_text('"""\nLong name\n=========\n"""\n')
    sel = open_site(root)
    assert isinstance(sel.site, SphinxSite)
    with deadline(20, "the ignore pattern backtracks exponentially"):
        assert sel.site.classify(f"examples/{name}").role is FileRole.PAGE
        assert sel.site.classify("examples/__init__.py").role is not FileRole.PAGE
    assert any("ignore_pattern" in note for note in sel.site.config.notes)
