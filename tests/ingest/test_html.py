"""Tests of murar.ingest.html on synthetic pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.errors import IngestError
from murar.ingest.html import convert_html, convert_html_text, decode_html
from murar.schema import ImageItem, TableItem, VideoItem

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Export Guide | Example Docs</title>
<meta property="og:title" content="Export Guide">
<link rel="canonical" href="https://example.com/docs/export">
<script>var leaked = "SCRIPT-SECRET";</script><style>.x{color:red}</style></head>
<body>
<header>Site header HEADER-TEXT</header>
<nav><ul><li>NAV-ITEM</li></ul></nav>
<div id="cookie-banner" class="consent">We use cookies COOKIE-TEXT</div>
<main>
<h1 id="top">Export Guide</h1>
<p>Intro about <b>export</b>ing files.</p>
<h2 id="formats">Formats</h2>
<p>Text before the figure explains the chart.</p>
<figure><img src="img/chart.png" alt="Chart of formats"><figcaption>Figure 1: Supported formats</figcaption></figure>
<p>Text after the figure.</p>
<img src="../../outside.png" alt="escape">
<img src="https://cdn.example.com/remote.png" alt="remote">
<table><caption>Sizes</caption>
<tr><th rowspan="2">Format</th><th colspan="2">Size</th></tr><tr><th>min</th><th>max</th></tr>
<tr><td>PNG</td><td>1</td><td>10</td></tr></table>
<aside>ASIDE-TEXT</aside>
<h3>Demo</h3>
<p>Watch it.</p>
<iframe src="https://www.youtube.com/embed/abc" title="Export demo"></iframe>
<video controls><source src="media/demo.mp4"></video>
<script>document.write("SCRIPT-TEXT")</script><noscript>NOSCRIPT-TEXT</noscript>
<template><p>TEMPLATE-TEXT</p></template>
</main>
<footer>FOOTER-TEXT</footer>
</body></html>"""


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    from PIL import Image

    root = tmp_path / "root"
    (root / "docs" / "img").mkdir(parents=True)
    img = Image.new("RGB", (200, 120))
    img.putdata([(x % 256, y % 256, (x * y) % 256) for y in range(120) for x in range(200)])
    img.save(root / "docs" / "img" / "chart.png")
    Image.new("RGB", (100, 100), (9, 9, 9)).save(tmp_path / "outside.png")
    (root / "docs" / "page.html").write_text(PAGE, encoding="utf-8")
    return root


def test_main_content_only(site: Path) -> None:
    doc = convert_html(site / "docs" / "page.html", root=site)
    text = "\n".join(s.text for s in doc.sections)
    for junk in ("SCRIPT", "HEADER-TEXT", "NAV-ITEM", "COOKIE-TEXT", "ASIDE-TEXT", "FOOTER-TEXT",
                 "NOSCRIPT-TEXT", "TEMPLATE-TEXT", "Figure 1"):
        assert junk not in text
    assert doc.title == "Export Guide" and doc.source_path == "docs/page.html"
    assert [s.heading_path for s in doc.sections] == [
        ("Export Guide",), ("Export Guide", "Formats"), ("Export Guide", "Formats", "Demo")]
    assert [s.level for s in doc.sections] == [1, 2, 3]
    assert [s.anchor for s in doc.sections] == ["top", "formats", None]
    assert doc.sections[0].text == "Intro about exporting files."
    assert doc.sections[1].text == "Text before the figure explains the chart.\n\nText after the figure."
    assert all(s.page_url == "https://example.com/docs/export" for s in doc.sections)


def test_media_items(site: Path) -> None:
    doc = convert_html(site / "docs" / "page.html", root=site)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    fig = images[0]
    assert fig.path == "docs/img/chart.png" and fig.exists and (fig.width, fig.height) == (200, 120)
    assert fig.caption == "Figure 1: Supported formats" and fig.alt == "Chart of formats"
    assert fig.context_before == "Text before the figure explains the chart."
    assert fig.context_after == "Text after the figure."
    assert fig.heading_path == ("Export Guide", "Formats") and fig.anchor == "formats"
    escaped = next(m for m in images if m.alt == "escape")
    assert escaped.path is None and not escaped.exists
    assert any("outside the corpus root" in w for w in doc.warnings)
    remote = next(m for m in images if m.alt == "remote")
    assert remote.url == "https://cdn.example.com/remote.png" and remote.path is None
    table = next(m for m in doc.media if isinstance(m, TableItem))
    assert table.caption == "Sizes"
    assert table.headers == ["Format", "Size / min", "Size / max"] and table.rows == [["PNG", "1", "10"]]
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [(v.url, v.title) for v in videos] == [("https://www.youtube.com/embed/abc", "Export demo"),
                                                  ("media/demo.mp4", "")]
    assert videos[0].context_before == "Watch it."
    assert [m.position for m in doc.media if m.heading_path[-1] == "Formats"] == [0, 1, 2, 3]


def test_ids_are_deterministic(site: Path) -> None:
    a = convert_html(site / "docs" / "page.html", root=site)
    b = convert_html(site / "docs" / "page.html", root=site)
    assert [s.id for s in a.sections] == [s.id for s in b.sections]
    assert [m.id for m in a.media] == [m.id for m in b.media]


def test_malformed_html_is_repaired() -> None:
    doc = convert_html_text("<html><body><h2>Broken</h3><p>first <b>bold<p>second</div></table><li>item",
                            source_path="x.html")
    assert doc.title == "x"
    assert doc.sections[-1].heading_path == ("x", "Broken")
    assert doc.sections[-1].text == "first bold\n\nsecond\n\nitem"


def test_empty_page_raises() -> None:
    with pytest.raises(IngestError, match="empty.html"):
        convert_html_text("<html><head><script>x()</script></head><body><nav>menu</nav></body></html>",
                          source_path="empty.html")


def test_encoding_sniffing(tmp_path: Path) -> None:
    latin = "<html><head><meta charset='iso-8859-1'></head><body><p>Café crème</p></body></html>"
    (tmp_path / "a.html").write_bytes(latin.encode("latin-1"))
    doc = convert_html(tmp_path / "a.html", root=tmp_path)
    assert doc.sections[0].text == "Café crème" and not doc.warnings
    # undeclared, invalid UTF-8: falls back with a warning, never crashes
    (tmp_path / "b.html").write_bytes(b"<p>price \x80 5 caf\xe9</p>")
    doc = convert_html(tmp_path / "b.html", root=tmp_path)
    assert "café" in doc.sections[0].text and any("windows-1252" in w for w in doc.warnings)
    text, codec, _ = decode_html("\ufeff<p>x</p>".encode("utf-8"))
    assert codec == "utf-8-sig" and text == "<p>x</p>"


@pytest.mark.parametrize(("title", "h1", "expected"), [
    ("API — Flask Documentation (2.2.x)", "API", "API"),        # Sphinx
    ("Install - Nautobot Documentation", "Install", "Install"),  # MkDocs
    ("Nautobot | Install", "Install", "Install"),                # site name first
    ("Contributing - MkDocs", "Contributing to MkDocs", "Contributing to MkDocs"),
    ("Home - MkDocs", "MkDocs", "MkDocs"),                      # the home page: its h1 is the site name
    ("Install guide", "Install", "Install guide"),               # a longer title, not a site name
    ("Release notes", "Overview", "Release notes"),
])
def test_title_without_the_site_name(title: str, h1: str, expected: str) -> None:
    doc = convert_html_text(f"<html><head><title>{title}</title></head><body><main><h1>{h1}</h1>"
                            "<p>Some text of the page.</p></main></body></html>", source_path="p.html")
    assert doc.title == expected and doc.sections[0].heading_path[0] == expected


def test_screenshots_in_a_data_table_are_images_with_their_row_as_context(tmp_path: Path) -> None:
    from PIL import Image

    for name in ("menu.png", "save.png", "inner.png"):
        Image.new("RGB", (500, 300), (200, 0, 0)).save(tmp_path / name)
    (tmp_path / "p.html").write_text(
        "<h1>Publish</h1><p>Follow the steps.</p><table><tr><th>Step</th><th>Screen</th></tr>"
        "<tr><td>Open the File menu.</td><td><img src='menu.png' alt='File menu'></td></tr>"
        "<tr><td>Select Save.</td><td><img src='save.png' alt='Save dialog'>"
        "<table><tr><td><img src='inner.png'></td></tr></table></td></tr></table><p>Done.</p>")
    doc = convert_html(tmp_path / "p.html", root=tmp_path)
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [r[0] for r in tables[0].rows] == ["Open the File menu.", "Select Save."]
    images = {m.path: m for m in doc.media if isinstance(m, ImageItem)}
    assert sorted(images) == ["inner.png", "menu.png", "save.png"]  # each picture once
    assert images["menu.png"].context_before == "Open the File menu."
    assert images["menu.png"].context_after.startswith("File menu")
    assert images["save.png"].context_before == "Select Save."
    # a table in a <figure> is reached by the figure and by the table: its pictures are read once
    (tmp_path / "f.html").write_text(
        "<h1>Publish</h1><p>Intro.</p><figure><table><tr><th>Step</th><th>Screen</th></tr>"
        "<tr><td>Open the File menu.</td><td><img src='menu.png'></td></tr><tr><td>Save.</td><td>x</td></tr></table>"
        "<figcaption>Steps</figcaption></figure><figure><table><tr><td><img src='save.png'></td></tr></table>"
        "<figcaption>One</figcaption></figure>")
    paths = [m.path for m in convert_html(tmp_path / "f.html", root=tmp_path).media if isinstance(m, ImageItem)]
    assert paths == ["menu.png", "save.png"]


def test_lazy_loaded_images_read_the_picture_the_script_swaps_in(tmp_path: Path) -> None:
    from PIL import Image

    for name in ("blank.gif", "spinner.png"):
        Image.new("RGB", (1, 1)).save(tmp_path / name)
    for name in ("wizard.png", "export.png", "import.png"):
        Image.new("RGB", (500, 300), (0, 120, 0)).save(tmp_path / name)
    (tmp_path / "p.html").write_text(
        "<h1>Setup</h1><p>Run the wizard.</p><img class='lazyload' src='blank.gif' data-src='wizard.png' alt='Wizard'>"
        "<p>Export.</p><img src='spinner.png' data-srcset='export.png 1x, export@2x.png 2x' alt='Export'>"
        "<p>Import.</p><img src='spinner.png' data-lazy-src='import.png' alt='Import'>")
    doc = convert_html(tmp_path / "p.html", root=tmp_path)
    assert [m.path for m in doc.media if isinstance(m, ImageItem)] == ["wizard.png", "export.png", "import.png"]
