from __future__ import annotations

from pathlib import Path

import pytest

from murar.ingest.html import convert_html
from murar.ingest.markdown import convert_markdown
from murar.ingest.media_flags import (
    AVATAR,
    BADGE,
    DECORATIVE,
    HERO,
    INLINE,
    LAYOUT,
    SAMPLE,
    TINY,
    flag_image,
    is_inline_line,
    is_selectable,
    link_flag,
    mark_repeated,
    markup_image_links,
    svg_size,
)
from murar.schema import ImageItem, TableItem

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "adobe-docs"


def _png(path: Path, w: int, h: int, colour: tuple[int, int, int] = (200, 30, 30)) -> Path:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (w, h), (255, 255, 255))
    ImageDraw.Draw(img).rectangle([w // 4, h // 4, w // 2, h // 2], fill=colour)
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)
    return path


def _img(path: str, page: str, digest: str = "") -> ImageItem:
    return ImageItem(id=f"{page}:{path}", section_id="s", source_path=page, page_title="P", heading_path=("P",),
                     anchor=None, position=0, path=path, content_hash=digest)


def test_inline_line_ignores_attribute_blocks() -> None:
    assert is_inline_line("select the", "icon to add")
    assert not is_inline_line("", '{align="center" width="80%"}')
    assert not is_inline_line("  ", "")


def test_markdown_marks_icons_inside_sentences_not_screenshots_on_their_own_line(tmp_path: Path) -> None:
    _png(tmp_path / "plus.png", 16, 16)
    _png(tmp_path / "edit.png", 200, 120)
    _png(tmp_path / "shot.png", 640, 400)
    _png(tmp_path / "figure.png", 640, 400, (10, 10, 200))
    (tmp_path / "p.md").write_text(
        "# Page\n\n"
        "1. Select the edit icon ![Edit](edit.png) next to the permission.\n"
        "1. Click **Save**.\n"
        "   ![](shot.png)\n\n"
        "Select ![](plus.png) to add.\n\n"
        '![A figure](figure.png){align="center" width="80%"}\n')
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    flags = {Path(m.path or "").name: m.flags for m in doc.media if isinstance(m, ImageItem)}
    assert flags["edit.png"] == [INLINE]  # big enough, but inside a sentence
    assert flags["shot.png"] == []  # same list item, own line: the step's screenshot
    assert set(flags["plus.png"]) == {INLINE, TINY}
    assert flags["figure.png"] == []
    hashes = {m.content_hash for m in doc.media if isinstance(m, ImageItem)}
    assert len(hashes) == 4 and "" not in hashes


def test_html_marks_inline_and_declared_tiny_images(tmp_path: Path) -> None:
    _png(tmp_path / "plus.png", 200, 200)
    _png(tmp_path / "shot.png", 640, 400)
    _png(tmp_path / "logo.png", 300, 300)
    _png(tmp_path / "fig.png", 500, 300)
    (tmp_path / "p.html").write_text(
        "<html><body><h1>Page</h1><p>Click <b><img src='plus.png'></b> to add a row.</p>"
        "<p>Step one.<br><img src='shot.png'></p><p><img src='logo.png' width='24'></p>"
        "<figure><a class='image-reference' href='fig.png'><img src='fig.png'></a>"
        "<figcaption><p>The whole dialog</p></figcaption></figure></body></html>")
    doc = convert_html(tmp_path / "p.html", root=tmp_path)
    flags = {Path(m.path or "").name: m.flags for m in doc.media if isinstance(m, ImageItem)}
    assert flags == {"plus.png": [INLINE], "shot.png": [], "logo.png": [TINY], "fig.png": []}


def test_svg_size_from_attributes_or_viewbox(tmp_path: Path) -> None:
    (tmp_path / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 18 18"><path/></svg>')
    (tmp_path / "b.svg").write_text('<?xml version="1.0"?><svg width="800px" height="600" viewBox="0 0 8 6"/>')
    assert svg_size(tmp_path / "a.svg") == (18, 18)
    assert svg_size(tmp_path / "b.svg") == (800, 600)
    item = _img("a.svg", "p.md")
    flag_image(item, file=tmp_path / "a.svg")
    assert item.flags == [TINY] and not is_selectable(item)


def test_svg_sizes_that_are_not_numbers_are_unknown_not_a_failed_page(tmp_path: Path) -> None:
    # the size pattern lets "." and 400 digits through: float('.') raised ValueError, int(inf) OverflowError,
    # and the page holding the picture failed whole
    (tmp_path / "dot.svg").write_text('<svg width="." height="..."/>')
    (tmp_path / "inf.svg").write_text(f'<svg width="{"9" * 400}" height="5" viewBox="0 0 {"9" * 400} 5"/>')
    (tmp_path / "huge.svg").write_text('<svg width="99999999999999999999" height="2"/>')
    (tmp_path / "vb.svg").write_text('<svg width="." viewBox="0 0 30 20"/>')
    assert [svg_size(tmp_path / f"{n}.svg") for n in ("dot", "inf", "huge", "vb")] == [None, None, None, (30, 20)]
    (tmp_path / "p.md").write_text("# P\n\nText.\n\n![a](dot.svg)\n\n![b](inf.svg)\n\n![c](vb.svg)\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert len(doc.media) == 3 and [m.width for m in doc.media] == [None, None, 30]


def test_repeated_pictures_are_decorative_by_content_not_path() -> None:
    logo = [_img(f"img/logo-{i}.png", f"page{i}.md", digest="same") for i in range(30)]
    shot = [_img("img/shot.png", f"page{i}.md", digest="shot") for i in range(3)]
    flagged = mark_repeated([*logo, *shot], n_pages=30)
    assert flagged == 30
    assert all(m.flags == [DECORATIVE] for m in logo)
    assert all(m.flags == [] for m in shot)


def test_repeat_limit_grows_with_the_corpus() -> None:
    shared = [_img("img/common.png", f"page{i}.md", digest="c") for i in range(8)]
    assert mark_repeated(shared, n_pages=300) == 0  # 8 of 300 pages: a screenshot reused, not a logo
    assert mark_repeated(shared, n_pages=40) == 8


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared corpus not present")
def test_adobe_inline_ui_icons_are_flagged() -> None:
    page = SHARED / "AdobeDocs+experience-cloud-ai.en/help/agents/cja-data-insights-agent.md"
    doc = convert_markdown(page, root=SHARED)
    icons = [m for m in doc.media if isinstance(m, ImageItem) and (m.path or "").endswith(("AddCircle.svg", "Edit.svg"))]
    assert icons and all(INLINE in m.flags for m in icons)
    screenshots = [m for m in doc.media if isinstance(m, ImageItem) and m.path and m.path.endswith(".png")]
    assert any(is_selectable(m) for m in screenshots)


def test_badge_and_avatar_services_are_flagged_by_url(tmp_path: Path) -> None:
    """A README-style strip of status badges and a team list of GitHub avatars are
    chrome, wherever they stand; a remote screenshot and a site image named like a
    badge are not."""
    (tmp_path / "img").mkdir()
    _png(tmp_path / "img" / "pipeline_badge.png", 640, 300)
    (tmp_path / "p.md").write_text(
        "# Project\n\n"
        "[![Build](https://github.com/o/r/actions/workflows/test.yml/badge.svg)](https://github.com/o/r)\n"
        "[![Version](https://img.shields.io/pypi/v/proj.svg)](https://pypi.org/project/proj)\n"
        "[![Docs](https://readthedocs.org/projects/proj/badge/?version=latest)](https://proj.rtfd.io)\n"
        "[![Cov](https://codecov.io/gh/o/r/graph/badge.svg?token=x)](https://codecov.io)\n\n"
        "![Run](https://example.org/shots/run-dialog.png)\n\n"
        "![Badge settings](img/pipeline_badge.png)\n\n"
        "## Team\n\n"
        '<img src="https://avatars.githubusercontent.com/u/1234?v=4&s=40" alt="Ann">\n\n'
        "![Bob](https://github.com/bob-smith.png)\n\n"
        "![Cy](https://secure.gravatar.com/avatar/0a1b2c?s=80)\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    flags = {(m.alt or ""): m.flags for m in doc.media if isinstance(m, ImageItem)}
    assert flags["Build"] == flags["Version"] == flags["Docs"] == flags["Cov"] == [BADGE]
    assert flags["Ann"] == flags["Bob"] == flags["Cy"] == [AVATAR]
    assert flags["Run"] == [] and flags["Badge settings"] == []
    assert link_flag("https://www.herokucdn.com/deploy/button.svg") == BADGE
    assert link_flag("https://vercel.com/button") == link_flag("https://gitpod.io/button/open-in-gitpod.svg") == BADGE
    assert not link_flag("https://example.org/docs/img/button-bar-screenshot.png")
    assert not link_flag("https://github.com/o/r/raw/main/docs/team.png")
    assert not link_flag("img/badges/x.png") and not link_flag("x" * 100_000)


def test_flags_a_converter_writes_on_an_img_are_kept_known_ones_only(tmp_path: Path) -> None:
    """A site's converter passes a flag its theme's layout implies (a header picture:
    ``hero``) as ``data-murar-flags`` on the ``<img>`` it writes; names media_flags
    does not give out that way are ignored."""
    _png(tmp_path / "cover.png", 1200, 630)
    _png(tmp_path / "shot.png", 640, 400, (10, 10, 200))
    (tmp_path / "p.md").write_text(
        '# Post\n\n<figure><img src="cover.png" alt="Cover" data-murar-flags="hero inline bogus"></figure>\n\n'
        '<img src="shot.png" alt="Shot">\n')
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    flags = {(m.alt or ""): m.flags for m in doc.media if isinstance(m, ImageItem)}
    assert flags == {"Cover": [HERO], "Shot": []}


def test_a_picture_drawn_figure_sized_in_a_sentence_is_not_an_icon(tmp_path: Path) -> None:
    """Words on its line make an image an icon unless it is drawn at least 400 x 200:
    its natural size, or scaled to the width the page declares (a 1024 px picture
    shown 130 px wide beside a paragraph is still decoration in the line)."""
    _png(tmp_path / "matrix.png", 1228, 376)
    _png(tmp_path / "panda.png", 1024, 1024, (10, 10, 200))
    _png(tmp_path / "bar.png", 662, 54, (10, 200, 10))
    (tmp_path / "p.md").write_text(
        "# Page\n\n![Matrix](matrix.png) The priority matrix sets each priority.\n\n"
        'Feedback <img src="panda.png" alt="Panda" width="130"> comes in many ways.\n\n'
        "Three options are there for adding a user ![Bar](bar.png):\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    flags = {(m.alt or ""): m.flags for m in doc.media if isinstance(m, ImageItem)}
    assert flags == {"Matrix": [], "Panda": [INLINE], "Bar": [INLINE]}


def test_the_rendered_output_of_a_markup_example_is_a_sample(tmp_path: Path) -> None:
    """A page that shows image markup in a code block and then draws it (a "Figures"
    how-to drawing a logo, a theme demo) shows a stand-in, not an illustration: the
    picture whose link the code writes as image markup is flagged ``sample``; a
    picture a script in a code block merely names (its output plot) is not, nor one
    from a placeholder service is ever selectable."""
    _png(tmp_path / "images" / "uni_logo.png", 518, 319)
    _png(tmp_path / "images" / "plot.png", 640, 480, (10, 10, 200))
    (tmp_path / "p.md").write_text(
        "# Figures\n\nInclude a figure as follows:\n\n"
        "```md\n![A logo](images/uni_logo.png)\n```\n\nwhich gives:\n\n![A logo](images/uni_logo.png)\n\n"
        "```python\nplt.savefig('images/plot.png')\n```\n\n![The plot](images/plot.png)\n\n"
        "![Any](https://picsum.photos/id/9/200/200)\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    flags = {(m.alt or ""): m.flags for m in doc.media if isinstance(m, ImageItem)}
    assert flags == {"A logo": [SAMPLE], "The plot": [], "Any": [SAMPLE]}
    assert markup_image_links(".. image:: a.png\n```{figure} ../b.png\nimage::c.svg[w]\n<img src='d.gif'>") == {
        "a.png", "../b.png", "c.svg", "d.gif"}
    assert markup_image_links("![" * 50_000) == set()


def test_images_the_page_hides_from_assistive_technology_are_decorative(tmp_path: Path) -> None:
    """WAI-ARIA: an ``<img>`` with ``role="presentation"``/``"none"`` or
    ``aria-hidden="true"`` is decoration, in an HTML page and in raw HTML of a
    Markdown page; an empty alt alone is not (Markdown screenshots often have one)."""
    for name in ("swirl", "dots", "wave", "shot"):
        _png(tmp_path / f"{name}.png", 640, 400, (len(name) * 30, 10, 200))
    body = ('<p><img src="swirl.png" role="presentation" alt=""></p><p><img src="dots.png" role="none"></p>'
            '<p><img src="wave.png" aria-hidden="true" alt="Wave"></p><p><img src="shot.png" alt=""></p>')
    (tmp_path / "p.html").write_text(f"<html><body><h1>Page</h1>{body}</body></html>")
    (tmp_path / "p.md").write_text(f"# Page\n\n{body}\n")
    expected = {"swirl": [DECORATIVE], "dots": [DECORATIVE], "wave": [DECORATIVE], "shot": []}
    for doc in (convert_html(tmp_path / "p.html", root=tmp_path), convert_markdown(tmp_path / "p.md", root=tmp_path)):
        flags = {Path(m.path or "").stem: m.flags for m in doc.media if isinstance(m, ImageItem)}
        # an HTML page's aria-hidden elements are not read at all (html.py drops hidden content)
        assert flags == {k: v for k, v in expected.items() if k in flags} and {"swirl", "dots", "shot"} <= set(flags)
    assert {Path(m.path or "").stem for m in convert_markdown(tmp_path / "p.md", root=tmp_path).media} == set(expected)


def test_a_passage_included_in_many_pages_keeps_its_screenshot() -> None:
    """The same screenshot on 30 pages is decoration when each page has its own text
    around it (a logo under each title), content when it stands in the same passage on
    every page (one included "Notes" tab page)."""
    def placed(page: int, digest: str, before: str, after: str) -> ImageItem:
        item = _img(f"img/{digest}.png", f"page{page}.md", digest=digest)
        item.heading_path, item.context_before, item.context_after = ("Notes",), before, after
        return item

    logo = [placed(i, "logo", f"Page {i} title", f"What page {i} is about.") for i in range(30)]
    tab = [placed(i, "notes", "The Notes tab lists the notes of the item.", "Click Add to write one.")
           for i in range(30)]
    assert mark_repeated([*logo, *tab], n_pages=30) == 30
    assert all(m.flags == [DECORATIVE] for m in logo) and all(m.flags == [] for m in tab)


def test_a_button_strip_linking_to_another_site_is_a_badge(tmp_path: Path) -> None:
    """An App Store / Google Play badge is a wide, short picture that links to the
    store: flagged ``badge``. A screenshot linking to a live demo, a strip that links
    nowhere, and a strip linking to its own full-size file stay selectable."""
    _png(tmp_path / "appstore.png", 296, 96)
    _png(tmp_path / "dash.png", 1200, 600, (10, 10, 200))
    _png(tmp_path / "toolbar.png", 662, 54, (10, 200, 10))
    _png(tmp_path / "strip.png", 600, 60, (200, 200, 10))
    body = ('<a href="https://apps.apple.com/app/id1">\n  <img src="appstore.png" alt="Store">\n</a>\n\n'
            '<a href="https://demo.example.org/dashboard"><img src="dash.png" alt="Dash"></a>\n\n'
            '<p><img src="toolbar.png" alt="Toolbar"></p>\n\n'
            '<a href="https://cdn.example.org/strip-full.png"><img src="strip.png" alt="Strip"></a>\n')
    (tmp_path / "p.md").write_text(f"# Get the app\n\n{body}")
    (tmp_path / "p.html").write_text(f"<html><body><h1>Get the app</h1>{body}</body></html>")
    flags = {(m.alt or ""): m.flags for m in convert_markdown(tmp_path / "p.md", root=tmp_path).media}
    assert flags == {"Store": [BADGE], "Dash": [], "Toolbar": [], "Strip": []}
    # an HTML page: the same (its quality filter already leaves out very wide strips)
    flags = {(m.alt or ""): m.flags for m in convert_html(tmp_path / "p.html", root=tmp_path).media}
    assert flags["Store"] == [BADGE] and flags["Dash"] == []


def test_a_table_of_pictures_is_a_layout_grid_and_never_chosen(tmp_path: Path) -> None:
    _png(tmp_path / "light.png", 600, 400)
    _png(tmp_path / "dark.png", 600, 400, (30, 30, 200))
    (tmp_path / "p.md").write_text(
        "# Modes\n\nThe app follows the system theme.\n\n| Light mode | Dark mode |\n|---|---|\n"
        "| ![Light](light.png) | ![Dark](dark.png) |\n\n| Mode | Colour |\n|---|---|\n| Light | white |\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    tables = [m for m in doc.media if isinstance(m, TableItem)]
    assert [t.flags for t in tables] == [[LAYOUT], []]
    assert [is_selectable(t) for t in tables] == [False, True]
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.alt, i.flags) for i in images] == [("Light", []), ("Dark", [])]  # the pictures stay choosable
