"""Built HTML sites: detection, chrome removal and image resolution on sites
built by the real generators (MkDocs, Sphinx) inside the test."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from murar.ingest.html import convert_html_text
from murar.ingest.sites import built
from murar.ingest.sites.base import FileRole, Site


def png(seed: int) -> bytes:
    """A 320x200 screenshot-sized PNG (small images are dropped by the quality filter)."""
    img = Image.new("RGB", (320, 200), (seed * 40 % 256, 120, 200))
    for x in range(0, 320, 8):
        for y in range(0, 200, 8):
            img.putpixel((x, y), ((x * seed) % 256, (y * 3) % 256, 0))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def build_mkdocs(src: Path, write: Callable[..., Path]) -> Path:
    """A two-page MkDocs site with screenshots, built by the real ``mkdocs build``."""
    pytest.importorskip("mkdocs")
    write(src, "mkdocs.yml", "site_name: Widget Docs\nsite_url: https://docs.example.org/widget/\n"
                             "repo_url: https://github.com/example/widget\nedit_uri: edit/main/docs/\n"
                             "nav:\n  - Home: index.md\n  - Install: guide/install.md\n")
    write(src, "docs/index.md", "# Widget\n\nWidget syncs files.\n")
    write(src, "docs/guide/install.md", "# Install Widget\n\n## Download the installer\n\n"
                                        "Open the download page and pick your platform.\n\n"
                                        "![Download page](img/download.png)\n\n"
                                        "## Run the setup wizard\n\nClick Next on every screen.\n\n"
                                        "![Setup wizard](/guide/img/wizard.png)\n")
    write(src, "docs/guide/img/download.png", png(1))
    write(src, "docs/guide/img/wizard.png", png(2))
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(src / "mkdocs.yml"),
                    "-d", str(src / "site")], check=True, capture_output=True, timeout=120)
    return src / "site"


def build_sphinx(src: Path, write: Callable[..., Path]) -> Path:
    """A small Sphinx project built by the real ``sphinx-build -b html``."""
    pytest.importorskip("sphinx")
    write(src, "conf.py", "project = 'Gadget'\nhtml_theme = 'alabaster'\n")
    write(src, "index.rst", "Gadget\n======\n\n.. toctree::\n\n   configure\n")
    write(src, "configure.rst", "Configure Gadget\n================\n\nSet the port\n------------\n\n"
                                "Open the settings dialog.\n\n.. figure:: shots/settings.png\n\n"
                                "   The settings dialog\n")
    write(src, "shots/settings.png", png(3))
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(src / "_build/html")],
                   check=True, capture_output=True, timeout=180)
    return src / "_build/html"


@pytest.fixture(scope="module")
def mkdocs_site(tmp_path_factory: pytest.TempPathFactory, write: Callable[..., Path]) -> Path:
    return build_mkdocs(tmp_path_factory.mktemp("mkdocs"), write)


@pytest.fixture(scope="module")
def sphinx_site(tmp_path_factory: pytest.TempPathFactory, write: Callable[..., Path]) -> Path:
    return build_sphinx(tmp_path_factory.mktemp("sphinx"), write)


def convert(site: built.BuiltSite, rel: str):  # type: ignore[no-untyped-def]
    html = site.preprocess((site.config.root / rel).read_text(encoding="utf-8"), page_rel=rel)
    return convert_html_text(html, source_path=rel, page_dir=(site.config.root / rel).parent,
                             root=site.config.root)


def test_mkdocs_build_detected_and_cleaned(mkdocs_site: Path) -> None:
    assert built.built_generator(mkdocs_site) == "mkdocs"
    assert built.built_generator(mkdocs_site.parent / "docs") is None  # the source is not a built site
    site = built.load(mkdocs_site)
    assert isinstance(site, Site)
    assert site.config.base_url == "/widget/"
    assert site.classify("guide/install/index.html").role is FileRole.PAGE
    assert site.classify("404.html").role is FileRole.EXCLUDED
    assert site.classify("search/search_index.json").role is FileRole.ASSET
    assert site.classify("guide/img/download.png").role is FileRole.ASSET
    doc = convert(site, "guide/install/index.html")
    text = "\n".join(s.text for s in doc.sections)
    assert "Open the download page" in text and "Click Next" in text
    for chrome in ("Edit this page", "Widget Docs", "Previous", "Table of contents", "¶", "Search"):
        assert chrome not in text, chrome
    headings = [s.heading_path[-1] for s in doc.sections]
    assert "Download the installer" in headings and "Run the setup wizard" in headings
    images = [m for m in doc.media if m.kind == "image"]
    assert [m.alt for m in images] == ["Download page", "Setup wizard"]
    assert site.resolve_asset("../img/download.png", page_rel="guide/install/index.html").rel_path == \
        "guide/img/download.png"
    # root-relative links as served under the base path /widget/
    assert site.resolve_asset("/widget/guide/img/wizard.png", page_rel="guide/install/index.html").rel_path == \
        "guide/img/wizard.png"


def test_sphinx_build_detected_and_cleaned(sphinx_site: Path) -> None:
    assert built.built_generator(sphinx_site) == "sphinx"
    site = built.load(sphinx_site)
    assert site.classify("genindex.html").role is FileRole.EXCLUDED
    assert site.classify("search.html").role is FileRole.EXCLUDED
    assert site.classify("_sources/configure.rst.txt").role in (FileRole.ASSET, FileRole.EXCLUDED)
    assert site.classify("_static/basic.css").role is FileRole.ASSET
    doc = convert(site, "configure.html")
    text = "\n".join(s.text for s in doc.sections)
    assert "Open the settings dialog." in text
    assert "¶" not in text and "Quick search" not in text and "Navigation" not in text
    assert "Set the port" in [s.heading_path[-1] for s in doc.sections]
    images = [m for m in doc.media if m.kind == "image"]
    assert len(images) == 1 and images[0].caption == "The settings dialog"
    res = site.resolve_asset("_images/settings.png", page_rel="configure.html")
    assert res.rel_path == "_images/settings.png" and (sphinx_site / res.rel_path).is_file()


def test_generic_chrome_rules() -> None:
    page = ("<html><head><title>T</title></head><body>"
            "<div class='wy-breadcrumbs'>Home » Guide</div>"
            "<div id='main-content' role='main'><h1 id='t'>Title<a class='anchor-heading' href='#t'>#</a></h1>"
            "<p>Body text.</p><div class='sidebar-toc'>On this page</div>"
            "<a href='https://github.com/x/y/edit/main/a.md'>Edit this page on GitHub</a>"
            "<span class='sr-only'>Skip to content</span><div class='admonition note'><p>Note text</p></div>"
            "<div class='pagination-nav'>Next »</div></div>"
            "<footer>Copyright</footer></body></html>")
    out = built.clean_built_page(page)
    for gone in ("Home » Guide", "On this page", "Edit this page", "Skip to content", "Next »", "Copyright", ">#<"):
        assert gone not in out, gone
    assert "Body text." in out and "Note text" in out and "Title" in out


def test_wrappers_named_like_chrome_keep_the_page() -> None:
    """Read the Docs wraps the page in ``wy-nav-content``; just-the-docs has ``side-bar``."""
    page = ("<html><body><div class='side-bar'><a href='/'>Home</a><ul><li>Menu item</li></ul></div>"
            "<section class='wy-nav-content-wrap'><nav class='wy-nav-top'>Project</nav>"
            "<div class='wy-nav-content'><div class='rst-content'>"
            "<div role='navigation' aria-label='Page navigation'>Docs » Configure</div>"
            "<div role='main' class='document'><h1>Configure<a class='headerlink' href='#c' "
            "title='Link to this heading'>¶</a></h1><p>Set the port.</p></div>"
            "<footer><div class='rst-footer-buttons'>Next</div></footer></div></div></section></body></html>")
    out = built.clean_built_page(page)
    assert "Set the port." in out and "Configure" in out
    for gone in ("Menu item", "Docs » Configure", "¶", "rst-footer-buttons", "wy-nav-top"):
        assert gone not in out, gone


def test_source_pages_are_not_built_sites(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "index.html", "---\nlayout: home\n---\n<h1>{{ site.title }}</h1>")
    assert built.built_generator(tmp_path) is None
    write(tmp_path, "index.html", "<!DOCTYPE html><html><head><meta name='generator' content='Hugo 0.125.0'>"
                                  "</head><body><main>x</main></body></html>")
    assert built.built_generator(tmp_path) == "hugo"


def test_home_page_of_a_built_site_is_a_page(tmp_path: Path, write: Callable[..., Path]) -> None:
    """QA: the index.html a built site (and every live crawl) is detected from was skipped as
    'html configuration (read for its rules)': the home page never reached the index."""
    from murar.ingest.corpus import walk_site
    from murar.ingest.sites.detect import open_site

    write(tmp_path, "index.html", "<!DOCTYPE html><html><head><meta name='generator' content='Hugo 0.125.0'>"
                                  "</head><body><main><h1>Home</h1><p>Welcome.</p></main></body></html>")
    write(tmp_path, "guide/index.html", "<html><body><main><h1>Guide</h1><p>Steps.</p></main></body></html>")
    sel = open_site(tmp_path)
    assert sel.site.config.generator == "html" and sel.site.config.config_file == "index.html"
    assert sorted(p.rel for p in walk_site(sel.site, under=sel.walk).pages) == ["guide/index.html", "index.html"]


def test_unknown_generator_meta_is_a_built_site(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A manual converted by a generator murar has no rules for (LaTeX2HTML, AsciiDoc) says so in its
    generator meta tag; it was read as plain HTML, its navigation panels ("Next: ... Up: ...") kept."""
    from murar.ingest.sites.detect import open_site

    nav = ("<DIV CLASS='navigation'><A HREF='node3.html'><IMG ALT='next' SRC='next.png'></A><BR>"
           "<B> Next:</B> <A HREF='node3.html'>Ranges</A> <B> Up:</B> <A HREF='index.html'>Widget manual</A>"
           "</DIV><!--End of Navigation Panel-->")
    head = "<!DOCTYPE HTML><HTML><HEAD><TITLE>{t}</TITLE><META NAME='Generator' CONTENT='LaTeX2HTML v2022.2'></HEAD>"
    write(tmp_path, "index.html", head.format(t="Widget manual") + f"<BODY>{nav}<H1>Widget manual</H1></BODY></HTML>")
    write(tmp_path, "node2.html", head.format(t="Axes") + f"<BODY>{nav}<H3>Axes</H3>Axes have tics.</BODY></HTML>")
    assert built.built_generator(tmp_path) == "html"
    sel = open_site(tmp_path)
    assert sel.site.config.generator == "html"
    page = sel.site.preprocess((tmp_path / "node2.html").read_text(), page_rel="node2.html")
    assert "Axes have tics." in page and "Next:" not in page and "Ranges" not in page


def test_generated_pages_without_index_are_a_built_site(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A set of converted man pages has no index.html (Debian's git-doc: AsciiDoc XHTML, opening with
    an XML declaration, beside the .txt sources); its footers were read as text by the plain reader."""
    from murar.ingest.sites.detect import open_site

    page = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
            '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n'
            "<html xmlns='http://www.w3.org/1999/xhtml'><head><title>{n}(1)</title><meta name='generator' content='AsciiDoc 10.2.0'>"
            "</head><body><div id='header'><h1>{n}(1) Manual Page</h1></div><div id='content'><h2>NAME</h2>"
            "<p>{n} - does things</p></div><div id='footer'><div id='footer-text'>Last updated 2024-01-01</div>"
            "</div></body></html>")
    for n in ("widget-add", "widget-rm", "widget-log"):
        write(tmp_path, f"{n}.html", page.format(n=n))
        write(tmp_path, f"{n}.txt", f"{n}(1)\n======\n")
    assert built.built_generator(tmp_path) == "html"
    assert open_site(tmp_path).site.config.generator == "html"
    cleaned = built.clean_built_page((tmp_path / "widget-rm.html").read_text())
    assert "widget-rm - does things" in cleaned and "Last updated" not in cleaned
    write(tmp_path, "README.md", "# Widget\n")  # a source folder with a few exported pages is not a build
    assert built.built_generator(tmp_path) is None
