"""Sphinx autodoc / sphinx-automodapi directives read from the module source (never imported)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from murar.ingest.markup.rst import convert_rst
from murar.ingest.sites.sphinx import SphinxSite
from murar.schema import ImageItem, TableItem

_MODULE = '''\
"""Measure the brightness of a star.

**Usage**

Draw a box around the star:

.. figure:: figures/box.png
   :alt: Box buttons

   The "Box" buttons.

The numbers appear in the report.
"""
import os
from helpers import Imported

__all__ = ["Meter", "measure", "Undocumented"]


def measure(image, box=None) -> float:
    """Measure one star.

    Returns the flux.
    """


def _private():
    """Not shown."""


class Undocumented:
    pass


class Meter(Base):
    """A brightness meter."""

    def __init__(self, gain: float = 1.0):
        """Not shown with autoclass_content 'class'."""

    def zero(self):
        """Reset the meter."""

    def read(self, *, unit="e"):
        """Read the value."""

    def helper(self):
        pass

    @property
    def level(self):
        """Current level."""
'''


def _site(tmp_path: Path, page: str, conf: str = "import os, sys\nsys.path.insert(0, os.path.abspath('..'))\n"
          ) -> SphinxSite:
    (tmp_path / "starlib").mkdir()
    (tmp_path / "starlib" / "__init__.py").write_text("")
    (tmp_path / "starlib" / "meter.py").write_text(_MODULE)
    docs = tmp_path / "docs"
    (docs / "plugins" / "figures").mkdir(parents=True)
    Image.new("RGB", (8, 6), "white").save(docs / "plugins" / "figures" / "box.png")
    (docs / "conf.py").write_text(conf)
    (docs / "plugins" / "meter.rst").write_text(page)
    return SphinxSite(tmp_path, "docs/conf.py")


def test_automodule_inserts_the_module_docstring_with_its_figures(tmp_path: Path) -> None:
    # sphinx.ext.autodoc: the docstring is reST of the page, so its figure resolves against the page
    site = _site(tmp_path, "Meter\n=====\n\nIntro.\n\n.. automodule:: starlib.meter\n\nAfter.\n")
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    text = doc.sections[0].text
    assert text.startswith("Intro.\n\nMeasure the brightness of a star.\n\nUsage\n\nDraw a box around the star:")
    assert text.endswith("The numbers appear in the report.\n\nAfter.")
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.path, i.alt, i.caption) for i in images] == [
        ("docs/plugins/figures/box.png", "Box buttons", 'The "Box" buttons.')]
    assert images[0].context_before.endswith("Draw a box around the star:")
    assert not doc.warnings


def test_automodule_members_follow_all_and_autodoc_defaults(tmp_path: Path) -> None:
    # :members: documents __all__'s documented members, alphabetically; classes get their members too;
    # private, undocumented and imported names are left out
    site = _site(tmp_path, "API\n===\n\n.. automodule:: starlib.meter\n   :members:\n")
    text = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site).sections[0].text
    after_doc = text.split("The numbers appear in the report.\n\n", 1)[1]
    assert after_doc == (
        "starlib.meter.Meter(gain: float = 1.0)\n\nA brightness meter.\n\n"
        "level\n\nCurrent level.\n\nread(*, unit='e')\n\nRead the value.\n\nzero()\n\nReset the meter.\n\n"
        "starlib.meter.measure(image, box=None) -> float\n\nMeasure one star.\n\nReturns the flux.")


def test_autoclass_after_currentmodule_and_bysource_order(tmp_path: Path) -> None:
    site = _site(tmp_path, "API\n===\n\n.. currentmodule:: starlib.meter\n\n.. autoclass:: Meter\n   :members:\n"
                 "   :member-order: bysource\n   :undoc-members:\n",
                 conf="import os, sys\nsys.path.insert(0, os.path.abspath('..'))\nautoclass_content = 'both'\n")
    text = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site).sections[0].text
    assert text == ("starlib.meter.Meter(gain: float = 1.0)\n\nA brightness meter.\n\n"
                    "Not shown with autoclass_content 'class'.\n\nzero()\n\nReset the meter.\n\n"
                    "read(*, unit='e')\n\nRead the value.\n\nhelper()\n\nlevel\n\nCurrent level.")


def test_automodapi_heading_docstring_and_summary_tables(tmp_path: Path) -> None:
    # sphinx-automodapi: "<module> Module" heading, the docstring, then Functions/Classes summaries
    site = _site(tmp_path, "Reference\n=========\n\n.. automodapi:: starlib.meter\n   :skip: Undocumented\n")
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    assert [s.heading_path[-1] for s in doc.sections] == [
        "Reference", "starlib.meter Module", "Functions", "Classes"]
    assert doc.sections[1].text.startswith("Measure the brightness of a star.")
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [[list(r) for r in t.rows] for t in tables] == [[["measure", "Measure one star."]],
                                                           [["Meter", "A brightness meter."]]]
    assert len([m for m in doc.media if isinstance(m, ImageItem)]) == 1


def test_automodapi_without_heading_keeps_the_docstring_in_the_section(tmp_path: Path) -> None:
    site = _site(tmp_path, "Meter\n=====\n\n.. automodapi:: starlib.meter\n   :no-heading:\n"
                 "   :skip: Meter, measure, Undocumented\n")
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    assert [s.heading_path for s in doc.sections] == [("Meter",)]
    assert "Draw a box around the star:" in doc.sections[0].text
    assert not [m for m in doc.media if isinstance(m, TableItem)]


def test_autodoc_source_outside_the_corpus_keeps_the_name_with_a_warning(tmp_path: Path) -> None:
    site = _site(tmp_path, "API\n===\n\n.. py:module:: elsewhere\n\n.. autofunction:: elsewhere.run\n")
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    assert doc.sections[0].text == "elsewhere.run"  # py:module itself shows nothing
    assert doc.warnings == [("autodoc: Python source of elsewhere.run not found in the corpus; docstrings left out,"
                             " signatures kept as written")]


def test_autodoc_on_hostile_sources_is_bounded(tmp_path: Path) -> None:
    import time

    # 20,000 documented functions and a page with 400 automodule :members: directives
    (tmp_path / "big.py").write_text("".join(f'def f{i}():\n    """Doc {i}."""\n' for i in range(20_000)))
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n")
    (tmp_path / "p.rst").write_text("P\n=\n\n" + ".. automodule:: big\n   :members:\n\n" * 400)
    start = time.monotonic()
    doc = convert_rst(tmp_path / "p.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert time.monotonic() - start < 30
    assert any("autodoc text is over 40000 lines" in w for w in doc.warnings)


def test_many_autoclass_directives_on_a_big_module_stay_fast(tmp_path: Path) -> None:
    import time

    (tmp_path / "big.py").write_text("".join(f"class C{i}:\n    pass\n" for i in range(20_000)))
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n")
    (tmp_path / "p.rst").write_text("P\n=\n\n" + "".join(f".. autoclass:: big.C{i}\n\n" for i in range(19_000, 20_000)))
    start = time.monotonic()
    doc = convert_rst(tmp_path / "p.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert time.monotonic() - start < 30
    assert doc.sections[0].text.startswith("big.C19000\n\nbig.C19001")


def test_myst_autodoc_directive_inserts_the_docstring(tmp_path: Path) -> None:
    # myst-parser runs Sphinx directives; autodoc's docstrings are reST whatever the page's syntax
    from murar.ingest.markup.myst import convert_myst

    site = _site(tmp_path, "", conf="import os, sys\nsys.path.insert(0, os.path.abspath('..'))\n"
                 "extensions = ['myst_parser', 'sphinx.ext.autodoc']\n")
    page = tmp_path / "docs" / "plugins" / "meter.md"
    page.write_text("# Meter\n\n```{autofunction} starlib.meter.measure\n```\n\n```{automodule} starlib.meter\n"
                    ":members: Meter\n```\n")
    doc = convert_myst(page, site=site)
    text = doc.sections[0].text
    assert text.startswith("starlib.meter.measure(image, box=None) -> float\n\nMeasure one star.\n\nReturns the flux.")
    assert text.endswith("starlib.meter.Meter(gain: float = 1.0)\n\nA brightness meter.")
    assert [i.path for i in doc.media if isinstance(i, ImageItem)] == ["docs/plugins/figures/box.png"]


_CONFIG = '''\
"""Configuration."""
from ._impl import make_logger

__all__ = ["make_logger", "getLogger"]
'''
_IMPL = '''\
def make_logger(*args, **initial_values):
    """Return a logger.

    Args:
        args:
            Passed to the factory.

            .. seealso:: the factory page
        initial_values (dict): Context values.

    Returns:
        A bound logger.

    Note:
        Not thread-safe.
    """


getLogger = make_logger
'''


def test_autodoc_shows_the_documented_name_follows_aliases_and_reads_google_sections(tmp_path: Path) -> None:
    # autodoc names an object as documented (loglib.make_logger, defined in loglib._impl), follows
    # `getLogger = make_logger`, and napoleon renders Google-style sections (Args, Returns, Note)
    (tmp_path / "loglib").mkdir()
    (tmp_path / "loglib" / "__init__.py").write_text(_CONFIG + "from ._impl import getLogger\n")
    (tmp_path / "loglib" / "_impl.py").write_text(_IMPL)
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                      "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.napoleon']\n")
    (tmp_path / "api.rst").write_text("API\n===\n\n.. module:: loglib\n\n.. autofunction:: make_logger\n\n"
                                      ".. autofunction:: getLogger\n")
    doc = convert_rst(tmp_path / "api.rst", site=SphinxSite(tmp_path, "conf.py"))
    body = ("(*args, **initial_values)\n\nReturn a logger.\n\nParameters\n\n"
            "args – Passed to the factory.\n\nSee also: the factory page\n\n"
            "initial_values (dict) – Context values.\n\nReturns\n\nA bound logger.\n\nNote: Not thread-safe.")
    assert doc.sections[0].text == f"loglib.make_logger{body}\n\nloglib.getLogger{body}"
    assert doc.warnings == []


_NUMPY_DOC = '''\
def regrid(grid, *layers, method="linear"):
    """Regrid layers onto a grid.

    Parameters
    ----------
    grid : :class:`Grid`
        The target grid.

        Cells outside it are dropped.
    *layers : array_like
        Layers to regrid.
    method: str, optional
        One of ``linear`` or ``nearest``.

    Returns
    -------
    Grid
        The regridded layers.

    Raises
    ------
    ValueError
        When a layer has no cells.

    Notes
    -----
    Slow on big grids.
    """
'''


def test_napoleon_reads_numpy_style_fields_as_name_type_and_description(tmp_path: Path) -> None:
    # sphinx.ext.napoleon's NumpyDocstring: "name : type" (or "name: type") over an indented
    # description is one parameter, "name (type) – description"; in Returns and Raises a lone
    # word is the type. Without napoleon (numpydoc) the sections stay rubrics over the text.
    (tmp_path / "gridlib.py").write_text(_NUMPY_DOC)
    (tmp_path / "api.rst").write_text("API\n===\n\n.. autofunction:: gridlib.regrid\n")
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                      "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.napoleon']\n")
    doc = convert_rst(tmp_path / "api.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert doc.sections[0].text == (
        "gridlib.regrid(grid, *layers, method='linear')\n\nRegrid layers onto a grid.\n\nParameters\n\n"
        "grid (Grid) – The target grid.\n\nCells outside it are dropped.\n\n*layers (array_like) – Layers to regrid."
        "\n\nmethod (str, optional) – One of linear or nearest.\n\nReturns\n\nGrid – The regridded layers.\n\n"
        "Raises\n\nValueError – When a layer has no cells.\n\nNotes\n\nSlow on big grids.")
    assert doc.warnings == []
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                      "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.napoleon']\n"
                                      "napoleon_numpy_docstring = False\n")
    doc = convert_rst(tmp_path / "api.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert "grid (Grid)" not in doc.sections[0].text


def test_autosummary_lists_objects_with_their_first_sentence(tmp_path: Path) -> None:
    # sphinx.ext.autosummary: a table of the listed names (relative to currentmodule, "~" the last
    # part) and the first sentence of each docstring; a name whose source is missing keeps its row
    (tmp_path / "gridlib").mkdir()
    (tmp_path / "gridlib" / "__init__.py").write_text("from gridlib.core import Grid, regrid\n")
    (tmp_path / "gridlib" / "core.py").write_text(
        'def regrid(grid):\n    """Regrid a grid. Slow on big ones."""\n\n\nclass Grid:\n    """A grid of cells.\n\n'
        '    More text.\n    """\n\n    def cells(self):\n        """Count the cells."""\n')
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                      "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.autosummary']\n")
    (tmp_path / "api.rst").write_text("API\n===\n\n.. currentmodule:: gridlib\n\n.. autosummary::\n   :toctree: generated/\n\n"
                                      "   regrid\n   Grid\n   ~Grid.cells\n   missing_function\n")
    doc = convert_rst(tmp_path / "api.rst", site=SphinxSite(tmp_path, "conf.py"))
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [t.rows for t in tables] == [[["regrid", "Regrid a grid."], ["Grid", "A grid of cells."],
                                         ["cells", "Count the cells."], ["missing_function", ""]]]


def test_myst_autosummary_directive_draws_its_table(tmp_path: Path) -> None:
    from murar.ingest.markup.myst import convert_myst

    (tmp_path / "gridlib.py").write_text('def regrid(grid):\n    """Regrid a grid. Slow on big ones."""\n')
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                      "extensions = ['myst_parser', 'sphinx.ext.autosummary']\n")
    (tmp_path / "api.md").write_text("# API\n\n```{autosummary}\n:nosignatures:\n\ngridlib.regrid\n```\n")
    doc = convert_myst(tmp_path / "api.md", site=SphinxSite(tmp_path, "conf.py"))
    assert [t.rows for t in doc.media if isinstance(t, TableItem)] == [[["gridlib.regrid", "Regrid a grid."]]]


def test_a_numpy_field_over_many_blank_lines_is_read_in_linear_time(
        tmp_path: Path, deadline: Callable[[int, str], Any]) -> None:
    # the blank lines before a field's description were removed one pop(0) at a time:
    # quadratic (80,000 lines 0.3 s; a 2 MB docstring of them minutes)
    (tmp_path / "gridlib.py").write_text(
        'def regrid(grid):\n    """Regrid.\n\n    Parameters\n    ----------\n    grid : Grid\n'
        + "\n" * 600_000 + '        The target grid.\n    """\n')
    (tmp_path / "api.rst").write_text("API\n===\n\n.. autofunction:: gridlib.regrid\n")
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                      "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.napoleon']\n")
    with deadline(6, "numpy field"):
        doc = convert_rst(tmp_path / "api.rst", site=SphinxSite(tmp_path, "conf.py"))
    assert "grid (Grid) – The target grid." in doc.sections[0].text
def test_an_explicit_import_reached_through_a_star_import_is_followed_first(tmp_path: Path) -> None:
    # networkx-style package: 'from starlib.shapes import *' among many star imports, and shapes/__init__.py
    # names the class in 'from .wheel import Wheel'; Python binds starlib.Wheel there, so that lead is
    # followed before the other star imports use up the re-export hops
    site = _site(tmp_path, "Wheel\n=====\n\n.. currentmodule:: starlib\n\n.. autoclass:: Wheel\n")
    pkg = tmp_path / "starlib"
    parts = [f"part{i}" for i in range(10)]
    stars = [parts[0], "shapes", *parts[1:]]
    (pkg / "__init__.py").write_text("".join(f"from starlib.{m} import *\n" for m in stars))
    for m in parts:
        (pkg / f"{m}.py").write_text(f'"""Part {m}."""\n\ndef helper_{m}():\n    pass\n')
    (pkg / "shapes").mkdir()
    (pkg / "shapes" / "__init__.py").write_text("from .wheel import Wheel\n")
    (pkg / "shapes" / "wheel.py").write_text('class Wheel:\n    """A round shape with spokes."""\n')
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    assert "A round shape with spokes." in doc.sections[0].text
    assert not doc.warnings


def test_inherited_members_are_found_in_the_base_classes(tmp_path: Path) -> None:
    # autosummary/autodoc get 'Wheel.area' by getattr, which finds the method in a base class: Wheel's
    # bases are looked up in order where wheel.py defines or imports them (MRO order for the first base)
    page = ("Wheel\n=====\n\n.. currentmodule:: starlib.wheel\n\n.. autosummary::\n\n"
            "   Wheel.area\n   Wheel.spin\n   Wheel.label\n")
    site = _site(tmp_path, page)
    pkg = tmp_path / "starlib"
    (pkg / "base.py").write_text(
        'class Shape:\n    def area(self):\n        """Area of the shape."""\n\n\n'
        'class Named:\n    def label(self):\n        """The shape\'s label."""\n')
    (pkg / "wheel.py").write_text(
        'from starlib.base import Shape\nfrom starlib import base\n\n\n'
        'class Wheel(Shape, base.Named):\n    def spin(self):\n        """Turn the wheel."""\n')
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [row[1] for row in tables[0].rows] == ["Area of the shape.", "Turn the wheel.", "The shape's label."]
    assert not doc.warnings


def test_star_imports_of_a_large_package_are_followed_up_to_24_hops(tmp_path: Path) -> None:
    # a subpackage __init__ of many 'from .x import *' lines (networkx.algorithms.centrality has 20):
    # the function is in the fifteenth
    site = _site(tmp_path, "Flux\n====\n\n.. autofunction:: starlib.flux\n")
    pkg = tmp_path / "starlib"
    mods = [f"part{i}" for i in range(15)]
    (pkg / "__init__.py").write_text("".join(f"from .{m} import *\n" for m in mods))
    for m in mods[:-1]:
        (pkg / f"{m}.py").write_text(f"def helper_{m}():\n    pass\n")
    (pkg / f"{mods[-1]}.py").write_text('def flux(star):\n    """Flux of a star."""\n')
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    assert "Flux of a star." in doc.sections[0].text
    assert not doc.warnings


def test_a_class_named_like_its_module_is_found_as_the_package_binds_it(tmp_path: Path) -> None:
    # pyqtgraph style: starlib/gauge/Dial.py defines class Dial and starlib/gauge/__init__.py has
    # 'from .Dial import Dial' (or 'from .Dial import *'): Python, and autodoc importing starlib.gauge,
    # take starlib.gauge.Dial for the class, not the submodule, so 'starlib.gauge.Dial.__init__' is
    # the class's method
    page = ("Gauges\n======\n\n.. automethod:: starlib.gauge.Dial.__init__\n\n"
            ".. automethod:: starlib.gauge.Knob.turn\n")
    site = _site(tmp_path, page)
    pkg = tmp_path / "starlib" / "gauge"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .Dial import Dial\nfrom .Knob import *\n")
    (pkg / "Dial.py").write_text('class Dial:\n    def __init__(self, size):\n        """Make a dial of this size."""\n')
    (pkg / "Knob.py").write_text('class Knob:\n    def turn(self, angle):\n        """Turn the knob by an angle."""\n')
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    text = doc.sections[0].text
    assert "Make a dial of this size." in text and "Turn the knob by an angle." in text
    assert not doc.warnings


def test_the_star_import_of_a_module_named_like_the_object_is_tried_first(tmp_path: Path) -> None:
    # a package of 30 'from .X import *' lines where the class Dial is in module Dial, the 30th:
    # past the 24 hops in file order; the module named like the object is looked at first
    site = _site(tmp_path, "Dial\n====\n\n.. autoclass:: starlib.Dial\n")
    pkg = tmp_path / "starlib"
    mods = [*(f"Part{i}" for i in range(29)), "Dial"]
    (pkg / "__init__.py").write_text("".join(f"from .{m} import *\n" for m in mods))
    for m in mods[:-1]:
        (pkg / f"{m}.py").write_text(f"class {m}:\n    pass\n")
    (pkg / "Dial.py").write_text('class Dial:\n    """A round control."""\n')
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    assert doc.sections[0].text.startswith("starlib.Dial\n\nA round control.")
    assert not doc.warnings


def test_a_chained_alias_is_followed_to_the_object(tmp_path: Path) -> None:
    # attrs' attr/__init__.py: 's = attributes = attrs' binds both names to attrs (imported from
    # attr._make); autodoc documents the object 'attr.s' is bound to
    site = _site(tmp_path, "Classes\n=======\n\n.. autofunction:: starlib.s\n")
    pkg = tmp_path / "starlib"
    (pkg / "__init__.py").write_text("from ._make import attrs\n\ns = attributes = attrs\n")
    (pkg / "_make.py").write_text('def attrs(maybe_cls=None):\n    """Add dunder methods to a class."""\n')
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    assert "Add dunder methods to a class." in doc.sections[0].text
    assert not doc.warnings


_NUMPYDOC_FUNC = '''\
def orbit(star, *args, **kwargs):
    """Trace an orbit.

    Parameters
    ----------
    star : Star
        The star to circle.
    *args : tuple
        Passed on.
    **kwargs : dict
        Options.

    Returns
    -------
    Path
        The traced path.
    period : float
    steps : int
        How many steps.

    See Also
    --------
    trace : Trace anything, which may take a while
            when the path is long.
    plot, :func:`starlib.draw.show`
    """
'''


def test_numpydoc_parameter_lists_and_see_also_read_as_numpydoc_renders_them(tmp_path: Path) -> None:
    # numpydoc (docscrape_sphinx): each entry of a parameter list its own item ('*args' escaped, an entry
    # without description closes its item), See Also a 'seealso' box of names (':obj:' for plain ones) with
    # their descriptions, continuation lines joined
    site = _site(tmp_path, "Orbit\n=====\n\n.. autofunction:: starlib.orbits.orbit\n",
                 conf="import os, sys\nsys.path.insert(0, os.path.abspath('..'))\nextensions = ['numpydoc']\n")
    (tmp_path / "starlib" / "orbits.py").write_text(_NUMPYDOC_FUNC)
    doc = convert_rst(tmp_path / "docs" / "plugins" / "meter.rst", site=site)
    text = doc.sections[0].text
    assert "*args : tuple\n\nPassed on." in text and "**kwargs : dict\n\nOptions." in text
    assert "period : float\n\nsteps : int\n\nHow many steps." in text
    assert text.endswith("See also: trace\n\nTrace anything, which may take a while when the path is long.\n\n"
                         "plot, starlib.draw.show")
    assert "See Also" not in text
    assert not doc.warnings


def test_autoconfigurable_across_eval_rst_blocks_of_a_myst_page(tmp_path: Path) -> None:
    # autodoc-traits' `autoconfigurable` is a ClassDocumenter (as autoclass) and `autotrait` an
    # AttributeDocumenter; a `.. module::` in one {eval-rst} block of a MyST page is still current in
    # the next (Sphinx keeps py:module for the whole document)
    from murar.ingest.markup.myst import convert_myst

    (tmp_path / "conf.py").write_text("extensions = ['myst_parser', 'autodoc_traits']\n")
    (tmp_path / "gate.py").write_text(
        '"""Gate keepers."""\n\n\nclass Keeper:\n    """Decides who may pass the gate."""\n\n'
        '    def admit(self, name):\n        """Let ``name`` through."""\n\n'
        '    limit = 3\n    """How many may wait."""\n\n\nMOST: int = 9\n"""Most that ever wait."""\n')
    (tmp_path / "api.md").write_text(
        "# API\n\n```{eval-rst}\n.. module:: gate\n```\n\n## Keeper\n\n"
        "```{eval-rst}\n.. autoconfigurable:: Keeper\n   :members: admit\n```\n\n"
        "```{eval-rst}\n.. autotrait:: Keeper.limit\n\n.. autodata:: gate.MOST\n```\n")
    doc = convert_myst(tmp_path / "api.md", site=SphinxSite(tmp_path, "conf.py"))
    text = doc.sections[-1].text
    assert "Decides who may pass the gate." in text and "Let name through." in text
    assert "How many may wait." in text  # autotrait: read as autoattribute, its attribute docstring
    assert "Most that ever wait." in text  # autodata of a module variable, likewise
    assert doc.warnings == []


def test_automethod_in_an_autoclass_content_is_a_member_of_that_class(tmp_path: Path) -> None:
    """``.. automethod:: close`` written in the content of ``.. autoclass:: Book`` documents
    ``Book.close`` (Sphinx parses that content with the class as the current py:class; the
    nbgrader API pages are written so). It was looked up as ``gradelib.close``, not found,
    and left as a bare name with a warning. A later top-level ``autofunction`` is unchanged."""
    (tmp_path / "gradelib.py").write_text(
        'class Book:\n    """A gradebook."""\n\n    def __init__(self, url):\n        """Open the book at url."""\n\n'
        '    def close(self):\n        """Close the connection."""\n\n\ndef close():\n    """Close every book."""\n')
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n"
                                      "extensions = ['sphinx.ext.autodoc']\n")
    (tmp_path / "api.rst").write_text("API\n===\n\n.. currentmodule:: gradelib\n\n.. autoclass:: Book\n\n"
                                      "    .. automethod:: __init__\n\n    .. automethod:: close\n\n"
                                      ".. autofunction:: close\n")
    doc = convert_rst(tmp_path / "api.rst", site=SphinxSite(tmp_path, "conf.py"))
    text = doc.sections[0].text
    assert "Open the book at url." in text and "Close the connection." in text, text
    assert text.rstrip().endswith("Close every book."), text
    assert not any("not found in the corpus" in w for w in doc.warnings), doc.warnings
