"""PageBuilder rules every markup shares (Markdown, MyST, reST, AsciiDoc, notebooks feed it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from murar.ingest.markup.builder import MarkupOptions, PageBuilder
from murar.ingest.markup.myst import convert_myst_text
from murar.ingest.sites.base import PlainSite
from murar.schema import ImageItem


def _png(path: Path, size: tuple[int, int] = (320, 200)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "white").save(path)


def test_dark_mode_twin_is_recorded_not_kept_in_every_markup(tmp_path: Path) -> None:
    _png(tmp_path / "light.png")
    _png(tmp_path / "dark.png")
    doc = convert_myst_text("# Page\n\n![Panel](light.png#only-light)\n![Panel](dark.png#only-dark)\n",
                            rel="p.md", site=PlainSite(tmp_path))
    assert [m.path for m in doc.media if isinstance(m, ImageItem)] == ["light.png"]
    assert [r.link for r in doc.asset_refs] == ["light.png#only-light", "dark.png#only-dark"]


def test_empty_top_heading_leaves_the_page_title_to_a_later_one(tmp_path: Path) -> None:
    b = PageBuilder(rel="guide/setup.md", site=PlainSite(tmp_path), options=MarkupOptions())
    b.heading(1, "  ")
    b.text("Before.")
    doc = b.finish()
    assert doc.title == "setup" and doc.sections[0].heading_path == ("(untitled)",)
    b = PageBuilder(rel="guide/setup.md", site=PlainSite(tmp_path), options=MarkupOptions())
    b.heading(1, "")
    b.heading(1, "Set up")
    assert b.finish().title == "Set up"


def test_empty_top_heading_under_a_front_matter_title_is_that_title(tmp_path: Path) -> None:
    """A page titled by its front matter whose text opens with an empty "#" heading (a landing page
    laid out in JSX under it) has its sections under that title, not "(untitled)"."""
    doc = convert_myst_text("---\ntitle: Home\n---\n\n#\n\nWelcome.\n\n## Setup\n\nRun it.\n",
                            rel="index.md", site=PlainSite(tmp_path))
    assert doc.title == "Home"
    assert [s.heading_path for s in doc.sections] == [("Home",), ("Home", "Setup")]


def test_html_images_in_a_sentence_and_declared_width(tmp_path: Path) -> None:
    _png(tmp_path / "icon.png")
    _png(tmp_path / "shot.png")
    b = PageBuilder(rel="p.md", site=PlainSite(tmp_path), options=MarkupOptions())
    b.html('<img src="icon.png" alt="gear">', inline=True, in_sentence=True)
    b.html('<figure><img src="shot.png" width="16"><figcaption>The <b>setup</b> dialog</figcaption></figure>')
    icon, shot = [m for m in b.finish().media if isinstance(m, ImageItem)]
    assert "inline" in icon.flags and "tiny" not in icon.flags  # 320 px wide, but inside a sentence
    assert "tiny" in shot.flags and shot.caption == "The setup dialog"


def test_a_page_whose_first_heading_is_below_its_title_starts_every_path_with_that_title(tmp_path: Path) -> None:
    """Docusaurus, Hugo, Jekyll, DocFX and mystmd show a front matter (or file name) title above a
    page that starts at '##': its sections read 'Title > Part A', as they already did when text
    came before the first heading (Section.heading_path starts at the page title). Under Sphinx
    (and Jupyter Book 1) the first heading titles the page whatever its level, so nothing is put
    above it there."""
    page = "---\ntitle: Front title\n---\n\n## Part A\n\nBody A.\n\n### Detail\n\nMore.\n\n## Part B\n\nBody B.\n"
    doc = convert_myst_text(page, rel="guide/p.md", site=PlainSite(tmp_path))
    assert [s.heading_path for s in doc.sections] == [
        ("Front title", "Part A"), ("Front title", "Part A", "Detail"), ("Front title", "Part B")]
    untitled = convert_myst_text("## Part A\n\nBody A.\n", rel="guide/setup.md", site=PlainSite(tmp_path))
    assert [s.heading_path for s in untitled.sections] == [("setup", "Part A")]
    with_intro = convert_myst_text("---\ntitle: Front title\n---\n\nIntro.\n\n## Part A\n\nBody A.\n",
                                   rel="guide/p.md", site=PlainSite(tmp_path))
    assert [s.heading_path for s in with_intro.sections] == [("Front title",), ("Front title", "Part A")]

    class _SphinxLike(PlainSite):
        first_heading_titles_page = True

    sphinx = convert_myst_text(page, rel="guide/p.md", site=_SphinxLike(tmp_path))
    assert sphinx.sections[0].heading_path == ("Part A",)


def test_a_utf16_page_with_its_byte_order_mark_is_read_with_a_warning(tmp_path: Path) -> None:
    """A page saved as "Unicode" by a Windows editor (UTF-16 with a byte-order mark) is
    text, as .NET's reader (DocFX) takes it by its mark, not a binary file; an include in
    UTF-16 too. A UTF-32 file and real NUL bytes stay refused as binary."""
    from murar.errors import IngestError
    from murar.ingest.markdown import convert_markdown
    from murar.ingest.markup.builder import read_include, read_source

    page = "# Réglages\n\nOuvrez le menu **Paramètres** et choisissez Enregistrer.\n"
    (tmp_path / "le.md").write_bytes(page.encode("utf-16"))  # Python writes the LE mark first
    (tmp_path / "be.md").write_bytes(b"\xfe\xff" + page.encode("utf-16-be"))
    for name in ("le.md", "be.md"):
        doc = convert_markdown(tmp_path / name, root=tmp_path)
        assert doc.title == "Réglages"
        assert doc.sections[0].text == "Ouvrez le menu Paramètres et choisissez Enregistrer."
        assert any("UTF-16" in w for w in doc.warnings)
    warnings: list[str] = []
    assert read_include(tmp_path / "le.md", label="snippet", warnings=warnings) == page
    assert warnings and warnings[0].startswith("snippet: UTF-16")
    (tmp_path / "wide.md").write_bytes(page.encode("utf-32"))
    (tmp_path / "bin.md").write_bytes(b"# T\n\x00\x01\x02")
    for name in ("wide.md", "bin.md"):
        with pytest.raises(IngestError, match="binary"):
            read_source(tmp_path / name, max_bytes=1000, warnings=[])


def test_a_code_block_keeps_the_indentation_of_its_first_line(tmp_path: Path) -> None:
    """A code block is shown as written: a block that starts indented (a fragment of a larger
    file, an ASCII diagram) keeps its first line's indentation like its other lines. The first
    line was stripped, so '  spec:' over '    replicas: 3' read as if replicas were nested two
    levels deeper than spec; blank lines around the block still go."""
    b = PageBuilder(rel="p.md", site=PlainSite(tmp_path), options=MarkupOptions())
    b.heading(1, "Deploy")
    b.code("\n  spec:\n    replicas: 3\n\n")
    b.code("   \n")
    b.text("After.")
    doc = b.finish()
    assert doc.sections[0].text == "  spec:\n    replicas: 3\n\nAfter."
