"""Sphinx site rules: conf.py read without executing it, pages, includes, exclusions, links."""

from __future__ import annotations

from pathlib import Path

from murar.ingest.paths import ResolvedLink
from murar.ingest.sites._glob import glob_match
from murar.ingest.sites.base import FileRole, Site
from murar.ingest.sites.sphinx import SphinxSite, read_conf, sphinx_glob


def test_conf_is_read_by_literal_evaluation_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    conf = tmp_path / "conf.py"
    conf.write_text(f"""\
import os, datetime
open({str(marker)!r}, "w").write("x")
import sphinx_glpi_theme  # not installed: must not matter
project = "Demo"
master_doc = "contents"
source_suffix = {{".rst": "restructuredtext", ".md": "markdown"}}
exclude_patterns = ["_build", "drafts/**", "*.inc.rst"]
exclude_patterns += ["old"]
html_static_path = ["_static"]
language: str = "fr"
html_theme_path = sphinx_glpi_theme.get_html_themes_path()
copyright = "2016-%s" % datetime.datetime.now().year
rst_prolog = ".. |product| replace:: GLPI"
""")
    warnings: list[str] = []
    c = read_conf(conf, warnings)
    assert not marker.exists()
    assert c.root_doc == "contents" and c.language == "fr"
    assert c.source_suffix == {".rst": "restructuredtext", ".md": "markdown"}
    assert c.exclude_patterns == ("_build", "drafts/**", "*.inc.rst", "old")
    assert c.html_static_path == ("_static",)
    assert c.rst_prolog.startswith(".. |product|")
    assert "html_theme_path" not in c.values and "copyright" not in c.values
    assert warnings == []


def test_conf_values_built_from_earlier_literals_and_setup_object_types(tmp_path: Path) -> None:
    conf = tmp_path / "conf.py"
    conf.write_text("""\
import os
_repo = "https://github.com/o/r"
base_excludes = ["_build"]
extlinks = {
    "issue": (f"{_repo}/issues/%s", "issue #%s"),
    "user": ("https://github.com/%s", "@%s"),
    "env": (os.environ["X"] + "/%s", "%s"),
}
exclude_patterns = base_excludes + ["drafts"]
primary_domain = None


def setup(app):
    app.add_object_type("confval", "confval", objname="configuration value")
    app.add_crossref_type(directivename="fixture", rolename="fixture")
    app.add_object_type(make_name(), "x")  # not literal: skipped
""")
    c = read_conf(conf)
    assert c.extlinks == {"issue": ("https://github.com/o/r/issues/%s", "issue #%s"),
                          "user": ("https://github.com/%s", "@%s")}  # os.environ: not read
    assert c.exclude_patterns == ("_build", "drafts") and c.primary_domain is None
    assert c.object_types == (("confval", "confval"), ("fixture", "fixture"))


def test_conf_that_doubles_a_string_does_not_fill_memory(tmp_path: Path) -> None:
    conf = tmp_path / "conf.py"
    conf.write_text('a = "xxxx"\n' + "a = a + a\n" * 60 + 'b = f"{a}{a}"\nproject = "P"\n')
    c = read_conf(conf)
    assert c.values["project"] == "P" and len(c.values.get("a", "")) <= 100_000 and "b" not in c.values


def test_broken_conf_gives_defaults_and_a_warning(tmp_path: Path) -> None:
    conf = tmp_path / "conf.py"
    conf.write_text("extensions = [\n")
    warnings: list[str] = []
    c = read_conf(conf, warnings)
    assert c.source_suffix == {".rst": "restructuredtext"} and c.root_doc == "index"
    assert warnings and "conf.py" in warnings[0]


def test_source_suffix_list_and_myst_extension() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "conf.py"
        p.write_text("source_suffix = ['.rst', '.txt']\nextensions = ['myst_nb']\n")
        c = read_conf(p)
        assert set(c.source_suffix) == {".rst", ".txt", ".md", ".ipynb"}
        p.write_text("extensions = ['nbsphinx']\n")
        assert set(read_conf(p).source_suffix) == {".rst", ".ipynb"}


def test_sphinx_glob_semantics() -> None:
    (star, dstar, rec) = sphinx_glob(["*.rst", "/drafts/**", "**/_private", ""])
    assert dstar == "drafts/**"
    assert glob_match("a.rst", star) and not glob_match("dir/a.rst", star)
    assert glob_match("drafts/x/y.rst", dstar) and not glob_match("other/drafts/y.rst", dstar)
    assert glob_match("_private", rec) and glob_match("a/b/_private", rec)


def test_classify_pages_includes_exclusions_in_a_source_subfolder(tmp_path: Path) -> None:
    src = tmp_path / "source"
    (src / "drafts").mkdir(parents=True)
    (src / "_static").mkdir()
    (src / "conf.py").write_text("exclude_patterns = ['drafts']\nhtml_static_path = ['_static']\n")
    (src / "index.rst").write_text("Home\n====\n\n.. include:: parts/common.rst\n")
    (src / "parts").mkdir()
    (src / "parts" / "common.rst").write_text("Shared text.\n")
    (src / "drafts" / "wip.rst").write_text("WIP\n===\n")
    (src / "notes.txt").write_text("x")
    (src / "shot.png").write_bytes(b"\x89PNG")
    (tmp_path / "README.rst").write_text("Repo readme\n")
    site = SphinxSite(tmp_path, "source/conf.py")
    assert isinstance(site, Site)
    assert site.config.content_dirs == ("source",) and site.config.static_dirs == ("source/_static",)
    assert site.classify("source/index.rst").role is FileRole.PAGE
    assert site.classify("source/index.rst").markup == "rst"
    assert site.classify("source/parts/common.rst").role is FileRole.INCLUDE
    assert site.classify("source/drafts").role is FileRole.EXCLUDED
    assert site.classify("source/drafts/wip.rst").role is FileRole.EXCLUDED  # Sphinx excludes a folder's files
    assert site.classify("source/shot.png").role is FileRole.ASSET
    unknown = site.classify("source/notes.txt")
    assert unknown.role is FileRole.UNKNOWN and ".txt" in unknown.reason
    outside = site.classify("README.rst")
    assert outside.role is FileRole.EXCLUDED and "source" in outside.reason


def test_an_extension_that_loads_myst_nb_makes_markdown_and_notebooks_pages(tmp_path: Path) -> None:
    """rocm-docs-core's ``rocm_docs`` extension loads myst_nb in its setup(): the ROCm sites'
    conf.py lists only "rocm_docs", and their .md pages were 'unsupported file type .md'."""
    (tmp_path / "conf.py").write_text('extensions = ["rocm_docs", "sphinxcontrib.datatemplates"]\n')
    for rel in ("index.md", "how-to/tune.ipynb", "install.rst"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    site = SphinxSite(tmp_path, "conf.py")
    assert [site.classify(r).role for r in ("index.md", "how-to/tune.ipynb", "install.rst")] == [FileRole.PAGE] * 3
    assert site.conf.extensions[:3] == ("rocm_docs", "sphinxcontrib.datatemplates", "myst_nb")
    (tmp_path / "conf.py").write_text('extensions = ["sphinx_design"]\n')
    assert SphinxSite(tmp_path, "conf.py").classify("index.md").role is not FileRole.PAGE


def test_include_patterns_limit_the_sources(tmp_path: Path) -> None:
    """Sphinx 5.1's ``include_patterns``: only matching files are sources (less exclude_patterns);
    every page was read whatever they said."""
    (tmp_path / "conf.py").write_text("include_patterns = ['index.rst', 'guide/**']\nexclude_patterns = ['guide/old.rst']\n")
    for rel in ("index.rst", "guide/a.rst", "guide/sub/b.rst", "guide/old.rst", "notes/x.rst"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("T\n=\n")
    site = SphinxSite(tmp_path, "conf.py")
    pages = [r for r in ("index.rst", "guide/a.rst", "guide/sub/b.rst", "guide/old.rst", "notes/x.rst")
             if site.classify(r).role is FileRole.PAGE]
    assert pages == ["index.rst", "guide/a.rst", "guide/sub/b.rst"]
    assert "include_patterns" in site.classify("notes/x.rst").reason


def test_a_file_rst_epilog_includes_is_an_include_not_a_page(tmp_path: Path) -> None:
    """``rst_epilog = ".. include:: /substitutions.rst"`` adds the file to every document: it
    was a page of its own (empty, with an 'include cycle' warning); now an include, whose
    substitutions every page uses."""
    from murar.ingest.markup.rst import convert_rst

    (tmp_path / "conf.py").write_text('rst_epilog = """\n.. include:: /substitutions.rst\n"""\n')
    (tmp_path / "substitutions.rst").write_text(".. |product| replace:: Widget Pro\n")
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "start.rst").write_text("Start\n=====\n\nInstall |product| first.\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.classify("substitutions.rst").role is FileRole.INCLUDE
    assert site.classify("guide/start.rst").role is FileRole.PAGE
    assert convert_rst(tmp_path / "guide" / "start.rst", site=site).sections[0].text == "Install Widget Pro first."


def test_an_rst_epilog_conf_py_reads_from_a_file_gives_its_substitutions(tmp_path: Path) -> None:
    """``rst_epilog = open(os.path.join(CURDIR, 'epilog.txt')).read()`` and ``with open(...) as f:
    rst_epilog = f.read()`` (a common way to share substitutions and link targets): Sphinx runs
    conf.py, so the file's text is the epilog. murar skipped the call, so '|product|' read
    'product' with an 'Undefined substitution' error and a link target was unknown."""
    from murar.ingest.markup.rst import convert_rst

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "epilog.txt").write_text(
        ".. |product| replace:: Widget Pro\n.. _GitHub: https://github.com/acme/widget\n")
    (tmp_path / "docs" / "start.rst").write_text("Start\n=====\n\nInstall |product| from GitHub_.\n")
    (tmp_path / "secret.txt").write_text(".. |product| replace:: Leaked\n")
    by_call = ("import os\nCURDIR = os.path.abspath(os.path.dirname(__file__))\n"
               "rst_epilog = open(os.path.join(CURDIR, 'epilog.txt'), 'r').read()\n")
    by_with = ("from pathlib import Path\nwith open(Path(__file__).parent / 'epilog.txt', encoding='utf-8') as f:\n"
               "    rst_epilog = f.read()\n")
    for conf in (by_call, by_with):
        (tmp_path / "docs" / "conf.py").write_text(conf)
        site = SphinxSite(tmp_path, "docs/conf.py")
        doc = convert_rst(tmp_path / "docs" / "start.rst", site=site)
        assert doc.sections[0].text == "Install Widget Pro from GitHub." and not doc.warnings
    # a file outside the site is never read
    (tmp_path / "docs" / "conf.py").write_text("rst_epilog = open('../secret.txt').read()\n")
    assert read_conf(tmp_path / "docs" / "conf.py", root=tmp_path / "docs").rst_epilog == ""


def test_a_readme_a_page_includes_from_above_the_source_folder_is_an_include(tmp_path: Path) -> None:
    """docs/index.md's ```{include} ../README.md``` (the common MyST home page): README.md was
    reported 'skipped: outside the Sphinx source directory docs/' although it is read there."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text('extensions = ["myst_parser"]\n')
    (tmp_path / "docs" / "index.md").write_text("```{include} ../README.md\n:relative-images:\n```\n")
    (tmp_path / "README.md").write_text("# Tool\n\nA tool.\n")
    (tmp_path / "CHANGES.md").write_text("# Changes\n")
    site = SphinxSite(tmp_path, "docs/conf.py")
    readme = site.classify("README.md")
    assert readme.role is FileRole.INCLUDE and readme.markup == "myst"
    assert "outside" in site.classify("CHANGES.md").reason


def test_pictures_in_html_static_path_are_assets_not_excluded_files(tmp_path: Path) -> None:
    """``html_static_path`` folders are never source documents, but their files are copied
    to the site: a page's ``.. image:: /static/common/checkbox.png`` (QGIS) or
    ``/_static/shot.png`` shows one. They were reported as 'skipped: excluded by conf.py
    exclude_patterns'; a page-like file there, or a picture under exclude_patterns, still is."""
    (tmp_path / "conf.py").write_text("exclude_patterns = ['drafts']\nhtml_static_path = ['static', '_static']\n")
    for rel in ("static/common/checkbox.png", "_static/shot.png", "_static/notes.rst", "drafts/old.png"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.classify("static/common/checkbox.png").role is FileRole.ASSET
    assert site.classify("_static/shot.png").role is FileRole.ASSET
    assert site.classify("_static/notes.rst").role is FileRole.EXCLUDED
    assert site.classify("drafts/old.png").role is FileRole.EXCLUDED


def test_exclude_patterns_read_double_star_as_sphinx_discovery_does(tmp_path: Path) -> None:
    # sphinx.util.matching.get_matching_files: "**" is ".*", so "**/drafts" needs a folder before
    # "drafts" and "guide/**/old.rst" needs one between (no minimatch "**/" that matches no folder)
    (tmp_path / "conf.py").write_text('exclude_patterns = ["**/drafts", "guide/**/old.rst", "**.tmp.rst"]\n')
    site = SphinxSite(tmp_path, "conf.py")
    roles = {rel: site.classify(rel).role for rel in (
        "drafts/a.rst", "guide/drafts/b.rst", "guide/old.rst", "guide/v1/old.rst", "x.tmp.rst", "a/b/y.tmp.rst")}
    assert roles == {"drafts/a.rst": FileRole.PAGE, "guide/drafts/b.rst": FileRole.EXCLUDED,
                     "guide/old.rst": FileRole.PAGE, "guide/v1/old.rst": FileRole.EXCLUDED,
                     "x.tmp.rst": FileRole.EXCLUDED, "a/b/y.tmp.rst": FileRole.EXCLUDED}


def test_list_settings_keep_the_items_that_can_be_read(tmp_path: Path) -> None:
    # sphinx-autosummary-accessors' documented setup adds its package folder to templates_path:
    # "_templates" is still the site's template folder, not pages
    (tmp_path / "conf.py").write_text(
        "import accessors_pkg\n"
        'templates_path = ["_templates", accessors_pkg.templates_path]\n'
        'exclude_patterns = ["_build", accessors_pkg.skip()]\n'
        'exclude_patterns += ["drafts", accessors_pkg.more]\n')
    site = SphinxSite(tmp_path, "conf.py")
    assert site.conf.templates_path == ("_templates",)
    assert site.conf.exclude_patterns == ("_build", "drafts")
    assert site.classify("_templates/autosummary/class.rst").role is FileRole.EXCLUDED
    assert site.classify("drafts/a.rst").role is FileRole.EXCLUDED
    assert site.classify("guide.rst").role is FileRole.PAGE


def test_top_level_list_calls_change_list_settings(tmp_path: Path) -> None:
    # conf.py runs top to bottom: `exclude_patterns.append(...)` after a star import of an installed
    # package's shared conf (not read) still excludes that folder; `.extend`/`.insert` on a known list
    (tmp_path / "conf.py").write_text(
        "from sphinx_shared_theme.conf import *\n"
        'exclude_patterns.append("_templates")\n'
        'extensions.extend(["myst_parser", shared.ext()])\n'
        'source_suffix = [".rst"]\n'
        'source_suffix.insert(0, ".txt")\n'
        'html_static_path.append(unknown_value)\n'
        'project.append("x")\n')
    site = SphinxSite(tmp_path, "conf.py")
    assert site.conf.exclude_patterns == ("_templates",)
    assert site.conf.extensions == ("myst_parser",)
    assert set(site.conf.source_suffix) == {".txt", ".rst", ".md"}
    assert site.conf.html_static_path == ()
    assert site.classify("_templates/autosummary/base.rst").role is FileRole.EXCLUDED
    assert site.classify("guide/start.md").role is FileRole.PAGE


def test_leading_slash_is_the_source_directory(tmp_path: Path) -> None:
    (tmp_path / "source" / "a").mkdir(parents=True)
    (tmp_path / "source" / "conf.py").write_text("")
    site = SphinxSite(tmp_path, "source/conf.py")
    assert site.resolve_asset("/img/x.png", page_rel="source/a/b.rst").rel_path == "source/img/x.png"
    assert site.resolve_asset("../img/x.png", page_rel="source/a/b.rst").rel_path == "source/img/x.png"
    assert site.resolve_asset("../../../etc/passwd", page_rel="source/a/b.rst").problem == "escapes the corpus root"
    assert site.resolve_asset("https://cdn.example.org/x.png", page_rel="source/a/b.rst").url


def test_multiproject_each_project_folder_is_its_source_directory(tmp_path: Path) -> None:
    """sphinx-multiproject builds each project of ``multiproject_projects`` from its folder
    (``path``, default the key, relative to conf.py's folder) as Sphinx's source directory:
    a leading ``/`` and document names are that folder's; a file in no project's folder
    is no page. Without the extension the setting means nothing."""
    for rel in ("docs/user/index.rst", "docs/user/guide/a.rst", "docs/user/_static/img/x.png",
                "docs/developer/index.rst", "docs/developer/_static/img/y.png", "docs/README.rst",
                "docs/_static/img/x.png"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("T\n=\n")
    conf = ("extensions = ['multiproject', 'sphinx_design']\n"
            "multiproject_projects = {'user': {'use_config_file': False}, 'dev': {'path': 'developer'},\n"
            "                         'abs': {'path': '/etc'}, 'up': {'path': '../..'}}\n")
    (tmp_path / "docs" / "conf.py").write_text(conf)
    site = SphinxSite(tmp_path, "docs/conf.py")
    assert site.resolve_asset("/_static/img/x.png", page_rel="docs/user/guide/a.rst").rel_path \
        == "docs/user/_static/img/x.png"
    assert site.resolve_asset("/_static/img/y.png", page_rel="docs/developer/index.rst").rel_path \
        == "docs/developer/_static/img/y.png"
    assert site.docname("docs/user/guide/a.rst") == "guide/a"
    assert site.docname("docs/developer/index.rst") == "index"
    assert site.classify("docs/user/guide/a.rst").role is FileRole.PAGE
    assert site.classify("docs/developer/index.rst").role is FileRole.PAGE
    assert site.classify("docs/README.rst").role is FileRole.EXCLUDED
    assert site._projects() == ("docs/developer/", "docs/user/")  # '/etc' and '../..' are left out
    (tmp_path / "docs" / "conf.py").write_text(conf.replace("'multiproject', ", ""))
    plain = SphinxSite(tmp_path, "docs/conf.py")
    assert plain.resolve_asset("/_static/img/x.png", page_rel="docs/user/guide/a.rst").rel_path \
        == "docs/_static/img/x.png"
    assert plain.classify("docs/README.rst").role is FileRole.PAGE
    # a project built from conf.py's own folder ("path": "."): the other projects' folders are theirs
    (tmp_path / "docs" / "conf.py").write_text(
        "extensions = ['multiproject']\nmultiproject_projects = {'main': {'path': '.'}, 'user': {}}\n")
    mixed = SphinxSite(tmp_path, "docs/conf.py")
    assert mixed.classify("docs/README.rst").role is FileRole.PAGE
    assert mixed.docname("docs/user/guide/a.rst") == "guide/a"
    assert mixed.resolve_asset("/_static/img/x.png", page_rel="docs/README.rst").rel_path == "docs/_static/img/x.png"
    # the same with conf.py at the root
    (tmp_path / "conf.py").write_text(
        "extensions = ['multiproject']\nmultiproject_projects = {'main': {'path': '.'}, 'docs/user': {}}\n")
    at_root = SphinxSite(tmp_path, "conf.py")
    assert at_root.classify("docs/README.rst").role is FileRole.PAGE
    assert at_root.docname("docs/README.rst") == "docs/README"
    assert at_root.docname("docs/user/guide/a.rst") == "guide/a"


def test_language_specific_figure_replaces_the_image_when_it_exists(tmp_path: Path) -> None:
    """Sphinx shows ``img/a.de.png`` for ``.. image:: img/a.png`` when ``language = "de"``
    and that file exists (``figure_language_filename``, default ``{root}.{language}{ext}``;
    ``language`` unset is ``"en"``); the image's own file otherwise. Not for an include or a PDF."""
    for rel in ("src/img/a.png", "src/img/a.de.png", "src/img/b.png", "src/img/c.png", "src/img/c.en.png",
                "src/loc/de/d.png", "src/img/d.png", "src/part.rst", "src/part.de.rst", "src/guide.pdf",
                "src/guide.de.pdf"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    (tmp_path / "src" / "conf.py").write_text('language = "de"\n')
    site = SphinxSite(tmp_path, "src/conf.py")
    assert site.resolve_asset("img/a.png", page_rel="src/index.rst").rel_path == "src/img/a.de.png"
    assert site.resolve_asset("/img/a.png", page_rel="src/guide/p.rst").rel_path == "src/img/a.de.png"
    assert site.resolve_asset("../img/a.png", page_rel="src/guide/p.rst").rel_path == "src/img/a.de.png"
    assert site.resolve_asset("img/b.png", page_rel="src/index.rst").rel_path == "src/img/b.png"
    assert site.resolve_asset("part.rst", page_rel="src/index.rst").rel_path == "src/part.rst"
    assert site.resolve_asset("guide.pdf", page_rel="src/index.rst").rel_path == "src/guide.pdf"  # a :download:
    (tmp_path / "src" / "conf.py").write_text("language = None\n")
    assert SphinxSite(tmp_path, "src/conf.py").resolve_asset("img/c.png", page_rel="src/index.rst").rel_path \
        == "src/img/c.en.png"
    (tmp_path / "src" / "conf.py").write_text(
        "language = 'de'\nfigure_language_filename = '/loc/{language}/{basename}{ext}'\n")
    site = SphinxSite(tmp_path, "src/conf.py")
    assert site.resolve_asset("img/d.png", page_rel="src/index.rst").rel_path == "src/loc/de/d.png"
    assert site.resolve_asset("img/b.png", page_rel="src/index.rst").rel_path == "src/img/b.png"
    (tmp_path / "src" / "conf.py").write_text("language = 'de'\nfigure_language_filename = '{nokey}{ext}'\n")
    assert SphinxSite(tmp_path, "src/conf.py").resolve_asset("img/a.png", page_rel="src/index.rst").rel_path \
        == "src/img/a.png"


def test_hostile_figure_language_filename_is_not_formatted(tmp_path: Path) -> None:
    """``figure_language_filename = '{root:>999999999}'`` was passed to ``str.format``: a
    gigabyte per image link (MemoryError, not caught). Only Sphinx's documented fields with
    no format spec or conversion are read; such a format gives Sphinx's default
    ``{root}.{language}{ext}`` and a warning, and a path over 4,096 characters is not looked up."""
    for rel in ("src/img/a.png", "src/img/a.de.png"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    for spec in ("{root:>999999999}", "{root!r}{ext}", "{language:{ext}}"):
        (tmp_path / "src" / "conf.py").write_text(f"language = 'de'\nfigure_language_filename = {spec!r}\n")
        site = SphinxSite(tmp_path, "src/conf.py")
        assert site.resolve_asset("img/a.png", page_rel="src/index.rst").rel_path == "src/img/a.de.png"
        assert any("figure_language_filename" in w and "{root}.{language}{ext}" in w for w in site.load_warnings)
    (tmp_path / "src" / "conf.py").write_text(
        "language = 'de'\nfigure_language_filename = '" + "{root}" * 1000 + ".de{ext}'\n")
    site = SphinxSite(tmp_path, "src/conf.py")
    assert site.resolve_asset("img/a.png", page_rel="src/index.rst").rel_path == "src/img/a.png"


def test_rst_prolog_and_epilog_wrap_rst_pages_only(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("rst_prolog = 'PRO'\nrst_epilog = 'EPI'\nextensions = ['myst_parser']\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.preprocess("body", page_rel="p.rst") == "PRO\n\nbody\n\nEPI"
    assert site.preprocess("body", page_rel="p.md") == "body"


def test_makefile_conf_dir_flag_names_the_source_directory(tmp_path: Path) -> None:
    # conf.py at the top, pages under content/: the Makefile builds with
    # "sphinx-build -c . content _build" (sphinx-build's -c: the configuration directory)
    (tmp_path / "conf.py").write_text("master_doc = 'index'\nhtml_static_path = ['static']\n")
    (tmp_path / "Makefile").write_text(
        "CONFIG_DIR     = .\nSPHINXOPTS     = -D language=en \\\n                 -T -j $(WORKERS)\n"
        "ifndef WORKERS\n  WORKERS = auto\nendif\nSOURCE_DIR     = content\n\n"
        "html:\n\tsphinx-build -c $(CONFIG_DIR) -b html $(SPHINXOPTS) $(SOURCE_DIR) _build/html\n")
    for rel in ("content/index.rst", "content/apps/users.rst", "tests/notes.rst", "static/logo.png"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("Title\n=====\n")
    site = SphinxSite.load(tmp_path, "conf.py")
    assert site.srcdir == "content"
    assert site.classify("content/apps/users.rst").role is FileRole.PAGE
    assert site.classify("tests/notes.rst").role is FileRole.EXCLUDED
    assert site.docname("content/apps/users.rst") == "apps/users"
    assert site.config.static_dirs == ("static",)  # html_static_path is relative to conf.py's folder
    # a Makefile without -c, or one naming conf.py's own folder, leaves conf.py's folder the source
    (tmp_path / "Makefile").write_text("SOURCEDIR = .\nhtml:\n\tsphinx-build -M html $(SOURCEDIR) _build\n")
    assert SphinxSite.load(tmp_path, "conf.py").srcdir == ""


def test_conf_sys_path_is_read_from_path_expressions(tmp_path: Path) -> None:
    # autodoc imports from the folders conf.py puts on sys.path (conf.py runs in its own folder)
    (tmp_path / "conf.py").write_text("""\
import os, sys
from pathlib import Path
sys.path.insert(0, os.path.abspath('..'))
base = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(base, '_ext'))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'src'))
sys.path.insert(0, find_it())
""")
    assert read_conf(tmp_path / "conf.py").sys_path == ("..", "_ext", "../src")


def test_conf_sys_path_reads_os_pardir(tmp_path: Path) -> None:
    # taurus's conf.py: the setup folder two levels up, built with os.path.pardir, then its lib/
    (tmp_path / "conf.py").write_text("""\
import os, sys
_this_dir = os.path.dirname(os.path.abspath(__file__))
_setup_dir = os.path.abspath(os.path.join(_this_dir, os.path.pardir, os.path.pardir))
sys.path.insert(0, os.path.abspath(os.path.join(_setup_dir, "lib")))
sys.path.append(os.path.join(os.curdir, "sphinxext"))
sys.path.append(os.path.join(os.pardir, "tools"))
""")
    assert read_conf(tmp_path / "conf.py").sys_path == ("../../lib", "sphinxext", "../tools")


def test_python_objects_are_found_on_conf_sys_path_inside_the_root(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('../lib'))\n")
    (tmp_path / "lib" / "pkg").mkdir(parents=True)
    (tmp_path / "lib" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "lib" / "pkg" / "mod.py").write_text("")
    site = SphinxSite(tmp_path, "docs/conf.py")
    assert site.resolve_python_object("pkg.mod.Cls.meth") == ("lib/pkg/mod.py", ["Cls", "meth"])
    assert site.resolve_python_object("pkg") == ("lib/pkg/__init__.py", [])
    assert site.resolve_python_object("os.path") is None


def test_conf_format_percent_environ_defaults_and_conditional_values(tmp_path: Path) -> None:
    # values built the way conf.py files build them: str.format, %, os.environ defaults, if/else
    (tmp_path / "conf.py").write_text("""\
import os
app_version = "4.3"
project = "Viewer {:s} Manual".format(app_version)
rst_epilog = '''
.. |APP_VERSION| replace:: {:s}
.. |TODO| replace:: Help us {what}.
'''.format(app_version, what="finish this page")
release = os.environ.get("DOCS_RELEASE", app_version)
version = os.getenv("BUILD_VERSION", "4.4")
language = os.getenv("LANG_OVERRIDE", "en")
badge = "-" if language == "en" else language
title = "%s (%s)" % (project, release)
named = "%(p)s docs" % {"p": "Viewer"}
wide = "{:>999999999}".format("x")
attr = "{0.__class__}".format("x")
spec = "%999999999s" % "x"
version_text = str(app_version)
""")
    v = read_conf(tmp_path / "conf.py").values
    assert v["project"] == "Viewer 4.3 Manual"
    assert v["rst_epilog"] == "\n.. |APP_VERSION| replace:: 4.3\n.. |TODO| replace:: Help us finish this page.\n"
    assert (v["release"], v["version"], v["badge"], v["title"]) == ("4.3", "4.4", "-", "Viewer 4.3 Manual (4.3)")
    assert v["named"] == "Viewer docs" and v["version_text"] == "4.3"
    assert "wide" not in v and "attr" not in v and "spec" not in v  # wide or attribute formats are not read


def test_conf_settings_in_the_if_branch_python_takes_with_the_environment_unset(tmp_path: Path) -> None:
    # a manual whose conf.py picks its root document and exclusions by an environment variable
    # (a quick partial build when it is set): the default build reads the first branch
    (tmp_path / "conf.py").write_text("""\
import os
if os.environ.get("QUICK_CHAPTERS") is None:
    exclude_patterns = ["contents_quick.rst"]
    master_doc = "contents"
else:
    master_doc, exclude_patterns = quick_index()
exclude_patterns += ["_build"]
if os.environ.get("FULL_BUILD") is not None:
    language = "de"
if 0:
    templates_path = ["never"]
else:
    templates_path = ["_templates"]
    if unknown_flag:
        html_static_path = ["unread"]
""")
    c = read_conf(tmp_path / "conf.py")
    assert c.root_doc == "contents"
    assert c.exclude_patterns == ("contents_quick.rst", "_build")
    assert c.language is None and c.templates_path == ("_templates",)
    assert c.html_static_path == ()  # an if murar cannot read is skipped
    (tmp_path / "contents.rst").write_text("Contents\n========\n")
    (tmp_path / "contents_quick.rst").write_text("Quick\n=====\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.classify("contents.rst").role is FileRole.PAGE
    assert site.classify("contents_quick.rst").role is not FileRole.PAGE


def test_conf_star_import_of_a_shared_parent_conf(tmp_path: Path) -> None:
    # a manual's conf.py imports the settings of a conf.py shared by several manuals (sys.path + import *)
    (tmp_path / "conf.py").write_text("""\
import os, sys
extensions = ['sphinx_copybutton']
version = 'latest'
_private = 'hidden'
rst_epilog = '.. |version| replace:: %s' % version
""")
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "conf.py").write_text("""\
import sys, os
sys.path.insert(0, os.path.abspath('../'))
from conf import *
from sphinx_astropy.conf.v1 import *
extensions += ['sphinx.ext.todo']
project = u'Cloud %s User Manual' % (version)
""")
    site = SphinxSite(tmp_path, "user/conf.py")
    v = site.conf.values
    assert v["extensions"] == ["sphinx_copybutton", "sphinx.ext.todo"]
    assert v["project"] == "Cloud latest User Manual" and "_private" not in v
    assert site.conf.rst_epilog == ".. |version| replace:: latest"
    # without a root, imports are not followed (nothing is read from outside the corpus)
    assert "version" not in read_conf(tmp_path / "user" / "conf.py").values


def test_conf_reading_is_bounded_on_hostile_files(tmp_path: Path) -> None:
    import time

    # 200 conf files importing each other 200 times, formats that would build gigabytes, and a
    # substitution definition line without its closing bar
    for i in range(200):
        imports = "".join(f"from c{j} import *\n" for j in range(200))
        (tmp_path / f"c{i}.py").write_text("import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n" + imports)
    (tmp_path / "conf.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.abspath('.'))\n" + "from c0 import *\n" * 200
        + "big = 'x' * 1\nbig = '" + "x" * 90_000 + "'\nwide = '{0}' * 1\nwide = ('" + "{0}" * 30_000
        + "').format(big)\npct = ('" + "%(a)s" * 20_000 + "') % {'a': big}\nproject = 'P'\n"
        + "rst_prolog = '.. |" + "x" * 50_000 + "'\n")
    start = time.monotonic()
    site = SphinxSite(tmp_path, "conf.py")
    values = site.conf.values
    assert values["project"] == "P" and "wide" not in values and "pct" not in values
    site._substitutions()
    assert time.monotonic() - start < 20


def test_nested_include_targets_resolve_from_the_document(tmp_path: Path) -> None:
    # Sphinx reads an include inside an included file from the document being built: index.rst includes
    # parts/a.rst, whose 'parts/b.rst' is doc/parts/b.rst (an include); doc/parts/parts/b.rst is nobody's
    # include, so Sphinx builds it as a page
    files = {"doc/conf.py": "", "doc/index.rst": "Home\n====\n\n.. include:: parts/a.rst\n",
             "doc/parts/a.rst": "A\n\n.. include:: parts/b.rst\n", "doc/parts/b.rst": "B\n",
             "doc/parts/parts/b.rst": "Other\n=====\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    site = SphinxSite(tmp_path, "doc/conf.py")
    assert sorted(site.include_targets()) == ["doc/parts/a.rst", "doc/parts/b.rst"]
    assert site.classify("doc/parts/parts/b.rst").role is FileRole.PAGE


def test_nested_includes_are_resolved_once_per_document_folder(tmp_path: Path) -> None:
    # 60 pages of one folder include one file of 40 includes: each include of a file was resolved again for
    # every document (1,000 pages x 500 includes: 500,000 path resolves, 49 s); the documents of one folder
    # resolve alike, so once per file and folder
    (tmp_path / "doc/parts/deep").mkdir(parents=True)
    (tmp_path / "doc/conf.py").write_text("")
    for i in range(60):
        (tmp_path / f"doc/p{i}.rst").write_text(f"P{i}\n===\n\n.. include:: parts/common.rst\n")
    (tmp_path / "doc/parts/common.rst").write_text("".join(f".. include:: parts/deep/i{j}.rst\n" for j in range(40)))
    for j in range(40):
        (tmp_path / f"doc/parts/deep/i{j}.rst").write_text("x\n")
    site = SphinxSite(tmp_path, "doc/conf.py")
    calls: list[str] = []
    resolve = site.resolve_include

    def counted(target: str, *, page_rel: str) -> ResolvedLink:
        calls.append(target)
        return resolve(target, page_rel=page_rel)

    site.resolve_include = counted  # type: ignore[method-assign]
    assert len(site.include_targets()) == 41
    assert len(calls) < 300  # 100 file-relative, then 60 + 40 from the documents' folder (was 60 x 41 more)


def test_raw_html_image_in_static_path_resolves_as_the_built_page_does(tmp_path: Path) -> None:
    """A raw-HTML ``<img src="../_static/img/logo.png">`` is written untouched: the
    browser resolves it from the page's folder to the output's ``_static/``, where
    Sphinx copies the ``html_static_path`` folders (the last one winning); a file of
    ``html_extra_path`` lands at the output root."""
    from PIL import Image

    for rel in ("assets/img/logo.png", "theme-static/img/logo.png", "extra/banner.png"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (8, 6), "white").save(tmp_path / rel)
    (tmp_path / "conf.py").write_text("html_static_path = ['theme-static', 'assets']\nhtml_extra_path = ['extra']\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.resolve_asset("../_static/img/logo.png", page_rel="guide/page.rst").rel_path == "assets/img/logo.png"
    assert site.resolve_asset("../banner.png", page_rel="guide/page.rst").rel_path == "extra/banner.png"
    # a link that climbs above the output root reaches no copied file
    assert site.resolve_asset("../../_static/img/logo.png", page_rel="guide/page.rst").rel_path != "assets/img/logo.png"


def test_a_toctree_entry_with_only_a_notebook_reads_the_notebook(tmp_path: Path) -> None:
    """A site whose build script converts notebooks to .rst before sphinx-build (source_suffix
    ".rst" only, the toctree names ``guide/tour``, only ``guide/tour.ipynb`` exists): the
    notebook is that page. Before, it was 'unsupported file type .ipynb' and its screenshots
    were never indexed. Notebooks no toctree names, or with an .rst of the same name, stay out."""
    import json

    from PIL import Image

    from murar.embed.fake import HashingEmbedder
    from murar.ingest.index import build_index, open_index

    def notebook(markdown: str) -> str:
        return json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": markdown}],
                           "metadata": {}, "nbformat": 4, "nbformat_minor": 5})

    (tmp_path / "conf.py").write_text("project = 'x'\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   guide/tour\n   guide/twin.ipynb\n")
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide/tour.ipynb").write_text(notebook("# Tour\n\nClick **Start** in the dialog.\n\n"
                                                        "![The start dialog](shot.png)\n"))
    Image.new("RGB", (640, 400), "white").save(tmp_path / "guide/shot.png")
    (tmp_path / "guide/twin.ipynb").write_text(notebook("# Twin\n"))
    (tmp_path / "guide/twin.rst").write_text("Twin\n====\n")
    (tmp_path / "guide/exercise.ipynb").write_text(notebook("# Exercise\n"))
    site = SphinxSite(tmp_path, "conf.py")
    assert site.toctree_notebooks() == frozenset({"guide/tour.ipynb"})
    assert site.classify("guide/tour.ipynb").role is FileRole.PAGE
    assert site.classify("guide/exercise.ipynb").role is not FileRole.PAGE
    assert site.classify("guide/twin.ipynb").role is not FileRole.PAGE

    build_index(tmp_path, tmp_path / ".idx", embedder=HashingEmbedder())
    store = open_index(tmp_path / ".idx").store
    images = [m for m in store.all_media() if m.kind == "image"]  # type: ignore[attr-defined]
    assert [Path(str(m.path)).name for m in images] == ["shot.png"]
    assert "Tour" in store.get_section(images[0].section_id).heading_path

    (tmp_path / "conf.py").write_text("extensions = ['nbsphinx']\n")  # every notebook is a source already
    assert SphinxSite(tmp_path, "conf.py").toctree_notebooks() == frozenset()


_RSTJINJA_CONF = '''
import os
html_context = {"greeting": "Hello from conf", "header": f"{os.getcwd()}"}


def rstjinja(app, docname, source):
    if app.builder.format != "html":
        return
    source[0] = app.builder.templates.render_string(source[0], app.config.html_context)


def setup(app):
    app.connect("source-read", rstjinja)
'''


def test_source_read_jinja_handler_renders_each_page_with_its_context(tmp_path: Path) -> None:
    # the "rstjinja" recipe (pandas' conf.py): every page is a Jinja2 template of html_context
    # before reST reads it; a context entry conf.py computes (an f-string of a call) prints nothing
    (tmp_path / "conf.py").write_text(_RSTJINJA_CONF + "rst_prolog = 'PRO'\nextensions = ['myst_parser']\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.conf.source_read_jinja == "html_context"
    page = "{{ header }}\n\nTitle\n=====\n\n{{ greeting }}, world.\n"
    assert site.preprocess(page, page_rel="p.rst") == "PRO\n\n\n\nTitle\n=====\n\nHello from conf, world.\n"
    # a MyST page is rendered too, and gets no rst_prolog
    assert site.preprocess(page, page_rel="p.md") == "\n\nTitle\n=====\n\nHello from conf, world.\n"


def test_source_read_without_a_jinja_pass_leaves_pages_alone(tmp_path: Path) -> None:
    # a source-read handler that does not render a template, and a renderer not connected to
    # source-read, are no Jinja2 pass: "{{ x }}" stays the page's text
    (tmp_path / "conf.py").write_text(
        "def fix(app, docname, source):\n    source[0] = source[0].replace('a', 'b')\n\n"
        "def other(app, docname, source):\n    source[0] = app.builder.templates.render_string(source[0], {})\n\n"
        "def setup(app):\n    app.connect('source-read', fix)\n    app.connect('build-finished', other)\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.conf.source_read_jinja is None
    assert site.preprocess("{{ x }}", page_rel="p.rst") == "{{ x }}"


def test_source_read_jinja2_template_render_counts_and_a_literal_context_is_empty(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(
        "import jinja2\n\ndef render_page(app, docname, source):\n"
        "    source[0] = jinja2.Template(source[0]).render(**{'x': 1})\n\n"
        "def setup(app):\n    app.connect('source-read', render_page)\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.conf.source_read_jinja == ""
    assert site.preprocess("a{{ x }}b", page_rel="p.rst") == "ab"


def test_source_read_jinja_handler_of_a_local_extension(tmp_path: Path) -> None:
    # the recipe kept in the site's own extension module (conf.py loads "_ext/rstjinja.py")
    (tmp_path / "_ext").mkdir()
    (tmp_path / "_ext" / "rstjinja.py").write_text(
        "def rstjinja(app, docname, source):\n"
        "    source[0] = app.builder.templates.render_string(source[0], app.config.html_context)\n\n"
        "def setup(app):\n    app.connect('source-read', rstjinja)\n")
    (tmp_path / "conf.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.abspath('_ext'))\nextensions = ['rstjinja']\n"
        "html_context = {'product': 'Widget'}\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.conf.source_read_jinja == "html_context"
    assert site.preprocess("Install {{ product }}.", page_rel="p.rst") == "Install Widget."


def test_html_additional_pages_template_is_the_page_it_renders(tmp_path: Path) -> None:
    """``html_additional_pages = {"index": "index.html"}``: Sphinx renders templates/index.html
    (found in templates_path) as the page index.html, though ``templates`` is excluded as a
    source folder: it is a page, read as HTML with its Jinja2 tags rendered, and its
    ``_static/`` pictures are the html_static_path files; a template no entry names, or a
    redirect stub, stays out."""
    from PIL import Image

    from murar.ingest.corpus import convert_file

    docs = tmp_path / "doc"
    (docs / "templates").mkdir(parents=True)
    (docs / "images").mkdir()
    Image.new("RGB", (640, 400), "white").save(docs / "images" / "landing.png")
    (docs / "conf.py").write_text(
        'templates_path = ["templates"]\nexclude_patterns = ["_build", "templates"]\n'
        'html_static_path = ["images"]\nproject = "Frobnicator"\n'
        'html_context = {"tagline": "Widgets for everyone"}\n'
        'html_additional_pages = {"index": "index.html", "old/page": "redirect.html"}\n')
    (docs / "templates" / "redirect.html").write_text(
        '<html><head><meta http-equiv="Refresh" content="0; url={{ to }}"></head>'
        '<body><p>You will be redirected.</p></body></html>\n')
    (docs / "contents.rst").write_text("Contents\n========\n\nThe table of contents.\n")
    (docs / "templates" / "index.html").write_text("""\
{% extends "layout.html" %}
{% set title = 'Frobnicator home' %}
{% block content %}
<h1>{{ project }}</h1>
<p>{{ tagline }}: install it from <a href="{{ pathto('install') }}">the guide</a>.</p>
<img src="_static/landing.png" alt="The landing screen">
{% endblock %}
""")
    (docs / "templates" / "layout.html").write_text('{% extends "!layout.html" %}\n{% block footer %}x{% endblock %}\n')
    site = SphinxSite(tmp_path, "doc/conf.py")
    assert site.classify("doc/templates/index.html").role is FileRole.PAGE
    assert site.classify("doc/templates/layout.html").role is FileRole.EXCLUDED
    assert site.classify("doc/templates/redirect.html").role is FileRole.EXCLUDED  # a redirect stub
    doc = convert_file(tmp_path / "doc/templates/index.html", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    text = " ".join(s.text for s in doc.sections)
    assert doc.title == "Frobnicator"
    assert "Widgets for everyone: install it from the guide." in text and "{%" not in text and "{{" not in text
    (img,) = [m for m in doc.media if m.kind == "image"]
    assert img.path == "doc/images/landing.png" and img.alt == "The landing screen"


def test_a_raw_html_picture_under_images_is_the_source_picture_of_that_name(tmp_path: Path) -> None:
    """Sphinx's HTML builder copies every picture a page shows into ``_images/`` under its file
    name: raw HTML (or an additional page's template) that writes ``_images/shot.png`` shows
    the source picture of that name; a name two source pictures share stays missing."""
    (tmp_path / "conf.py").write_text("extensions = []\n")
    for rel in ("guide/img/shot.png", "a/dup.png", "b/dup.png"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"\x89PNG\r\n")
    (tmp_path / "guide" / "page.rst").write_text("Page\n====\n")
    site = SphinxSite(tmp_path, "conf.py")
    assert site.resolve_asset("../_images/shot.png", page_rel="guide/page.rst").rel_path == "guide/img/shot.png"
    assert site.resolve_asset("_images/shot.png", page_rel="index.rst").rel_path == "guide/img/shot.png"
    dup = site.resolve_asset("_images/dup.png", page_rel="index.rst")
    assert dup.rel_path == "_images/dup.png" and not (tmp_path / "_images/dup.png").exists()
