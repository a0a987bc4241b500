"""Generator detection from config files (sites/detect.py) and the registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.errors import ConfigError
from murar.ingest.sites.base import FileRole, PlainSite, SiteVariant
from murar.ingest.sites.detect import (
    GENERATORS,
    detect,
    open_site,
    site_summary,
    site_types,
)


def _touch(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(("marker", "text", "expected"), [
    ("docusaurus.config.ts", "export default {}", "docusaurus"),
    ("mkdocs.yml", "site_name: x\n", "mkdocs"),
    (".vitepress/config.mts", "export default {}", "vitepress"),
    ("_quarto.yml", "project:\n  type: website\n", "quarto"),
    ("docfx.json", "{}", "docfx"),
    ("antora.yml", "name: x\nversion: ~\n", "antora"),
    ("book.toml", "[book]\n", "mdbook"),
    ("hugo.toml", "baseURL = 'https://x/'\n", "hugo"),
    ("config/_default/hugo.toml", "baseURL = 'https://x/'\n", "hugo"),
    ("conf.py", "project = 'x'\nextensions = []\n", "sphinx"),
    ("myst.yml", "version: 1\n", "jupyterbook"),
    ("mint.json", '{"name": "x", "navigation": []}', "mintlify"),
])
def test_each_marker_names_its_generator(tmp_path: Path, marker: str, text: str, expected: str) -> None:
    _touch(tmp_path / "site" / marker, text)
    _touch(tmp_path / "site" / "index.md", "# Home\n")
    found = detect(tmp_path / "site")
    assert found is not None and found.spec.name == expected


def test_jekyll_and_jupyter_book_are_told_apart(tmp_path: Path) -> None:
    _touch(tmp_path / "jk" / "_config.yml", "title: Site\nbaseurl: /docs\ncollections:\n  x: {}\n")
    _touch(tmp_path / "jb" / "_config.yml", "title: Book\nexecute:\n  execute_notebooks: off\n")
    _touch(tmp_path / "jb2" / "_config.yml", "title: Book\n")
    _touch(tmp_path / "jb2" / "_toc.yml", "format: jb-book\nroot: intro\n")
    assert detect(tmp_path / "jk").spec.name == "jekyll"  # type: ignore[union-attr]
    assert detect(tmp_path / "jb").spec.name == "jupyterbook"  # type: ignore[union-attr]
    assert detect(tmp_path / "jb2").spec.name == "jupyterbook"  # type: ignore[union-attr]


def test_generic_files_are_not_mistaken_for_a_generator(tmp_path: Path) -> None:
    _touch(tmp_path / "c" / "conf.py", "import os\nprint('not sphinx')\n")
    _touch(tmp_path / "c" / "config.toml", "[tool]\nx = 1\n")
    _touch(tmp_path / "c" / "docs.json", '{"items": []}')
    assert detect(tmp_path / "c") is None
    sel = open_site(tmp_path / "c")
    assert isinstance(sel.site, PlainSite) and sel.site.config.generator == "plain"


def test_config_above_the_folder_roots_the_site_there(tmp_path: Path) -> None:
    _touch(tmp_path / "repo" / "docusaurus.config.js", "module.exports = { baseUrl: '/' }")
    _touch(tmp_path / "repo" / "docs" / "guide" / "a.md", "# A\n")
    sel = open_site(tmp_path / "repo" / "docs" / "guide")
    assert sel.site.config.generator == "docusaurus"
    assert sel.site.config.root == (tmp_path / "repo").resolve()
    assert sel.walk == (tmp_path / "repo" / "docs" / "guide").resolve()
    assert sel.site.config.config_file == "docusaurus.config.js"
    assert site_summary(sel)["walked"] == str(sel.walk)


def test_the_sphinx_source_its_makefile_builds_wins_over_a_sibling_config(tmp_path: Path) -> None:
    # sphinx-quickstart's Makefile names the source directory (SOURCEDIR); a second conf.py
    # beside it (a small API-only build) sorts first but is not what `make html` builds
    docs = tmp_path / "proj" / "doc"
    _touch(docs / "api" / "conf.py", "extensions = ['sphinx.ext.autodoc']\n")
    _touch(docs / "api" / "index.rst", "API\n===\n")
    _touch(docs / "src" / "conf.py", "project = 'x'\nextensions = []\n")
    _touch(docs / "src" / "index.rst", "Guide\n=====\n")
    _touch(docs / "Makefile", "SPHINXBUILD  = sphinx-build\nSOURCEDIR    = src\nBUILDDIR     = _build\n")
    for given in (tmp_path / "proj", docs):
        found = detect(given)
        assert found is not None and found.path == docs / "src" / "conf.py"
    (docs / "Makefile").unlink()
    _touch(docs / "make.bat", "set SPHINXBUILD=sphinx-build\r\nset SOURCEDIR=src\r\nset BUILDDIR=_build\r\n")
    found = detect(docs)
    assert found is not None and found.path == docs / "src" / "conf.py"


def test_config_in_a_subfolder_is_found_and_prefixed(tmp_path: Path) -> None:
    _touch(tmp_path / "proj" / "book" / "_config.yml", "title: B\n")
    _touch(tmp_path / "proj" / "book" / "_toc.yml", "root: intro\n")
    sel = open_site(tmp_path / "proj")
    assert sel.site.config.generator == "jupyterbook"
    assert sel.site.config.root == (tmp_path / "proj").resolve()
    assert sel.site.config.config_file == "book/_config.yml"


def test_site_type_override_and_unknown_type(tmp_path: Path) -> None:
    _touch(tmp_path / "s" / "mkdocs.yml", "site_name: x\n")
    assert open_site(tmp_path / "s", site_type="plain").site.config.generator == "plain"
    forced = open_site(tmp_path / "s", site_type="docusaurus")
    assert forced.site.config.generator == "docusaurus"
    assert any("forced" in n for n in forced.notes)
    with pytest.raises(ConfigError, match="known: auto, plain"):
        open_site(tmp_path / "s", site_type="gatsby")


def test_registry_names_are_unique_and_listed() -> None:
    names = [g.name for g in GENERATORS]
    assert len(names) == len(set(names))
    assert site_types()[:2] == ["auto", "plain"] and set(names) <= set(site_types())


@pytest.mark.integration
def test_real_corpora_are_detected(docsites_root: Path) -> None:
    expected = {
        "docusaurus-ionic-docs": "docusaurus", "mkdocs-material-nautobot": "mkdocs",
        "sphinx-rst-glpi-doc": "sphinx", "myst-jupyterbook-teachbooks-manual": "jupyterbook",
        "docfx-powerquery-docs": "docfx", "hugo-nginx-documentation": "hugo",
        "asciidoc-antora-kie-kogito-docs": "antora", "jekyll-opensearch-documentation-website": "jekyll",
    }
    for folder, generator in expected.items():
        if (docsites_root / folder).is_dir():
            found = detect(docsites_root / folder)
            assert found is not None and found.spec.name == generator, folder


def test_a_language_or_version_a_generator_lacks_is_noted_not_ignored(tmp_path: Path) -> None:
    _touch(tmp_path / "s" / "conf.py", "project = 'x'\nextensions = []\n")
    _touch(tmp_path / "s" / "index.rst", "Title\n=====\n")
    sel = open_site(tmp_path / "s", variant=SiteVariant(language="fr", docs_version="2.0"))
    assert sel.site.config.generator == "sphinx"
    assert [n.split(":")[0] for n in sel.notes] == ["language 'fr' not applicable", "docs version '2.0' not applicable"]
    assert "Sphinx has no languages to choose from" in sel.notes[0]
    plain = open_site(tmp_path / "s", site_type="plain", variant=SiteVariant(language="fr"))
    assert "a plain folder (no generator) has no languages" in plain.notes[1]
    # a generator with both: nothing noted
    _touch(tmp_path / "d" / "docusaurus.config.js", "module.exports = {};\n")
    _touch(tmp_path / "d" / "docs" / "a.md", "# A\n")
    assert open_site(tmp_path / "d", variant=SiteVariant(language="en", docs_version="current")).notes == ()

def test_a_chosen_language_walks_the_whole_site_and_is_summarised(tmp_path: Path) -> None:
    _touch(tmp_path / "site" / "docusaurus.config.js",
           "module.exports = { i18n: { defaultLocale: 'en', locales: ['en', 'fr'] } };\n")
    _touch(tmp_path / "site" / "docs" / "a.md", "# A\n")
    _touch(tmp_path / "site" / "i18n" / "fr" / "docusaurus-plugin-content-docs" / "current" / "a.md", "# A fr\n")
    default = open_site(tmp_path / "site" / "docs")
    assert default.walk == (tmp_path / "site" / "docs").resolve() and site_summary(default)["language"] == "en"
    # the French pages live beside the folder given: the site root is walked
    sel = open_site(tmp_path / "site" / "docs", variant=SiteVariant(language="fr"))
    assert sel.walk == (tmp_path / "site").resolve()
    assert any(n.startswith("the whole site at") for n in sel.notes)
    assert site_summary(sel)["language"] == "fr" and "docs_version" not in site_summary(sel)


def test_hugo_content_without_its_project_is_read_as_hugo(tmp_path: Path) -> None:
    """A folder of Hugo content pages whose site is built elsewhere (Grafana's docs/sources, mounted
    by the website's own Hugo project; no Hugo config in the repository) is Hugo content when no
    generator's config is found and a page with front matter uses a shortcode outside fenced code:
    it is the content folder itself, its shortcodes rewritten. Before, it was a plain folder and
    every {{< admonition >}} / {{< docs/shared >}} tag stayed in the text. Shortcodes only inside
    code blocks (a post about Hugo) leave the folder plain."""
    docs = tmp_path / "repo" / "docs" / "sources"
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    _touch(docs / "upgrade" / "index.md", '---\ntitle: Upgrade\n---\n\n{{< admonition type="note" >}}\nBack up first.\n'
           '{{< /admonition >}}\n')
    sel = open_site(docs)
    assert sel.site.config.generator == "hugo" and sel.site.config.content_dirs == (".",)
    assert any("read as the content of a site built elsewhere" in n for n in sel.notes)
    page = sel.site.preprocess((docs / "upgrade" / "index.md").read_text(), page_rel="upgrade/index.md")
    assert "**Note:** Back up first." in page and "{{<" not in page
    plain = tmp_path / "blog"
    _touch(plain / "post.md", "---\ntitle: Hugo tips\n---\n\n```\n{{< figure src=\"x.png\" >}}\n```\n")
    assert isinstance(open_site(plain).site, PlainSite)


def test_a_hugo_project_in_a_subfolder_is_read_from_its_folder(tmp_path: Path) -> None:
    """Hugo builds the folder of its config (Linkerd's website repository: linkerd.io/config.yaml,
    linkerd.io/content, linkerd.io/static). Given the repository, murar read the repository root
    as the Hugo project: no config, the repository read as bare content, every /images/... link
    missing, the shortcode templates read as pages. The project's folder is now the ingest root."""
    project = tmp_path / "repo" / "linkerd.io"
    _touch(project / "config.yaml", "baseURL: https://example.org/\ntitle: T\n")
    _touch(project / "content" / "features" / "dashboard.md", "+++\ntitle = \"Dashboard\"\n+++\n\n![Stat](/images/stat.png)\n")
    _touch(project / "static" / "images" / "stat.png")
    _touch(project / "layouts" / "shortcodes" / "fig.html", '<img src="{{ .Get "src" }}">\n')
    sel = open_site(tmp_path / "repo")
    assert sel.site.config.generator == "hugo"
    assert sel.site.config.root == project.resolve() and sel.walk == project.resolve()
    assert sel.site.classify("layouts/shortcodes/fig.html").role != FileRole.PAGE
    assert sel.site.resolve_asset("/images/stat.png", page_rel="content/features/dashboard.md").rel_path == \
        "static/images/stat.png"
