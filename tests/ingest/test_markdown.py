from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sample_png import PNG_64PX

from murar.errors import IngestError
from murar.eval.media_metrics import normalise_video_url
from murar.ingest.markdown import convert_markdown
from murar.schema import ImageItem, TableItem, VideoItem

PAGE = """---
title: Build a journey
description: How to build a journey.
exl-id: 123
---
# Build a journey {#build}

Journeys orchestrate messages. Open **[!UICONTROL Journeys]** first.

## Add an event {#add-event}

Drag the event onto the canvas.

![Event palette](assets/event.png){zoomable="yes"}

The event appears in the canvas.

| Field | Meaning |
|---|---|
| Name | The event name |

>[!VIDEO](https://video.tv.adobe.com/v/3443183?learn=on){transcript=true}

## Missing things

![gone](assets/missing.png)
![outside](../../../etc/passwd.png)
![remote](https://example.com/x.png)
![corrupt](assets/corrupt.png)

<table><tr><th>A</th><th>B</th></tr><tr><td colspan="2">wide</td></tr></table>

<script>alert('x')</script>
"""


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "repo" / "help" / "assets").mkdir(parents=True)
    (root / "repo" / "help" / "assets" / "event.png").write_bytes(PNG_64PX)
    (root / "repo" / "help" / "assets" / "corrupt.png").write_bytes(b"\x89PNG not really")
    (root / "repo" / "help" / "page.md").write_text(PAGE, encoding="utf-8")
    (root / "repo" / "help" / "3443183.vtt").write_text(
        "WEBVTT\n\n00:00.000 --> 00:02.000\nHello journeys\n\n00:02.000 --> 00:04.000\nAdd the event\n"
    )
    return root


def test_sections_and_metadata(corpus: Path) -> None:
    doc = convert_markdown(corpus / "repo/help/page.md", root=corpus)
    assert doc.title == "Build a journey"
    assert doc.metadata["description"] == "How to build a journey."
    paths = [s.heading_path for s in doc.sections]
    assert paths == [("Build a journey",), ("Build a journey", "Add an event"), ("Build a journey", "Missing things")]
    assert doc.sections[1].anchor == "add-event"
    assert "Open Journeys first." in doc.sections[0].text
    assert "UICONTROL" not in doc.sections[0].text


def test_media_with_context(corpus: Path) -> None:
    doc = convert_markdown(corpus / "repo/help/page.md", root=corpus)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    event = next(m for m in images if m.alt == "Event palette")
    assert event.path == "repo/help/assets/event.png" and event.exists
    assert event.width == 64 and event.height == 64
    assert event.context_before.endswith("Drag the event onto the canvas.")
    assert event.context_after.startswith("The event appears")
    assert event.section_id == doc.sections[1].id
    table = next(m for m in doc.media if isinstance(m, TableItem) and m.headers == ["Field", "Meaning"])
    assert table.rows == [["Name", "The event name"]] and table.index_in_page == 0
    video = next(m for m in doc.media if isinstance(m, VideoItem))
    assert video.url.startswith("https://video.tv.adobe.com/v/3443183")
    assert "Hello journeys" in video.transcript
    html_table = [m for m in doc.media if isinstance(m, TableItem) and m.headers == ["A", "B"]]
    assert html_table and html_table[0].rows == [["wide", "wide"]] and html_table[0].index_in_page == 1


def test_bad_links_warn_and_never_escape(corpus: Path) -> None:
    doc = convert_markdown(corpus / "repo/help/page.md", root=corpus)
    joined = "\n".join(doc.warnings)
    assert "missing.png" in joined and "file not found" in joined
    assert "escapes the corpus root" in joined
    assert "corrupt" in joined
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert not any("passwd" in (m.path or "") for m in images)
    remote = next(m for m in images if m.url)
    assert remote.url == "https://example.com/x.png" and remote.path is None and not remote.exists
    assert all("alert(" not in s.text for s in doc.sections)


def test_undecodable_bytes_and_binary(tmp_path: Path) -> None:
    (tmp_path / "latin.md").write_bytes("# Caf\xe9\n\nna\xefve text".encode("latin-1"))
    doc = convert_markdown(tmp_path / "latin.md", root=tmp_path)
    assert doc.sections[0].heading_path == ("Café",)
    assert any("UTF-8" in w for w in doc.warnings)
    (tmp_path / "bin.md").write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(IngestError):
        convert_markdown(tmp_path / "bin.md", root=tmp_path)


def test_bad_front_matter_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "p.md").write_text("---\ntitle: [unclosed\n---\n# Real title\n\ntext\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert doc.title == "Real title"
    assert any("front matter" in w for w in doc.warnings)


def test_slash_links_resolve_from_repo_folder(tmp_path: Path) -> None:
    (tmp_path / "repo/help/assets").mkdir(parents=True)
    (tmp_path / "repo/help/assets/a.png").write_bytes(PNG_64PX)
    (tmp_path / "repo/help/deep/dir").mkdir(parents=True)
    (tmp_path / "repo/help/deep/dir/p.md").write_text("# T\n\n![x](/help/assets/a.png)\n")
    doc = convert_markdown(tmp_path / "repo/help/deep/dir/p.md", root=tmp_path)
    assert doc.media[0].path == "repo/help/assets/a.png"  # type: ignore[union-attr]


def test_a_screenshot_follows_its_own_list_item_not_the_whole_list(tmp_path: Path) -> None:
    """List items without end punctuation stay apart in the context: the step a
    screenshot illustrates (and its lead and caption) is the item right before it,
    while a sentence wrapped over two source lines stays one sentence."""
    from murar.answer.media import picture_lead, step_text

    (tmp_path / "a.png").write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# Audiences\n\nAudiences group users.\n\n1. Log in to Journey Optimizer\n"
        "2. Navigate to Customer > Audiences\n3. Ensure that the evaluation method is set\n"
        "   to Edge for real-time qualification.\n\n![](a.png)\n\nUse the field to segment users\n")
    (img,) = convert_markdown(tmp_path / "p.md", root=tmp_path).media
    assert step_text(img) == "Ensure that the evaluation method is set to Edge for real-time qualification."
    assert picture_lead(img) == step_text(img)
    assert img.context_before.endswith("Navigate to Customer > Audiences\n" + step_text(img))
    assert img.context_after == "Use the field to segment users"


def test_video_urls_compare_up_to_the_numeric_id() -> None:
    assert normalise_video_url("https://video.tv.adobe.com/v/3426021?quality=12&learn=on") == "https://video.tv.adobe.com/v/3426021"
    assert normalise_video_url("https://video.tv.adobe.com/v/333745/?learn=on") == "https://video.tv.adobe.com/v/333745"


@pytest.mark.integration
def test_real_adobe_pages(adobe_root: Path) -> None:
    doc = convert_markdown(adobe_root / "AdobeDocs+experience-platform-docs/help/network.md", root=adobe_root)
    assert doc.sections[0].heading_path == ("Network Information",)
    paths = [m.path for m in doc.media if isinstance(m, ImageItem)]
    assert "AdobeDocs+experience-platform-docs/help/assets/copy.jpg" in paths
    ids = convert_markdown(
        adobe_root / "AdobeDocs+experience-platform-docs/developer/markdown/narrative/gdpr/gathering-your-ids.md",
        root=adobe_root,
    )
    first_table = next(m for m in ids.media if isinstance(m, TableItem))
    assert first_table.index_in_page == 0 and first_table.headers[0] == "Display Name"
    assert first_table.heading_path == ("Gathering your IDs", "Standard ID namespaces")


def test_html_figcaption_inline_markup_adds_no_space_before_punctuation(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# Shots\n\n<figure>\n  <img src=\"a.png\" alt=\"box\">\n"
        "  <figcaption>Taken by <a href=\"https://example.org\">the team</a>. A <em>wide</em> view!</figcaption>\n"
        "</figure>\n")
    (img,) = convert_markdown(tmp_path / "p.md", root=tmp_path).media
    assert img.caption == "Taken by the team. A wide view!"  # type: ignore[union-attr]


def test_html_div_figure_caption_paragraph_is_the_pictures_caption(tmp_path: Path) -> None:
    """'<div class="figure"><img><p class="caption">' (docutils' HTML4 figure, copied by hand into
    Markdown pages): the caption paragraph is each picture's caption and not a paragraph of its own,
    as a <figure>'s <figcaption> is; a caption paragraph outside such a div stays text."""
    for name in ("a.png", "b.png", "c.png"):
        (tmp_path / name).write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# Shots\n\nBefore.\n\n<div style=\"width: 300px\" class=\"figure align-right\">\n"
        "  <img src=\"a.png\" alt=\"\">\n  <p class=\"caption\">The wiring panel</p>\n</div>\n\n"
        "<div class=\"figure\">\n  <img src=\"b.png\" alt=\"one\">\n  <img src=\"c.png\" alt=\"two\">\n"
        "  <p class=\"caption\">Both tabs</p>\n</div>\n\n<p class=\"caption\">Loose words</p>\n\nAfter.\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert [m.caption for m in doc.media] == ["The wiring panel", "Both tabs", "Both tabs"]  # type: ignore[union-attr]
    text = doc.sections[-1].text
    assert "The wiring panel" not in text and "Both tabs" not in text
    assert "Before." in text and "Loose words" in text and "After." in text


def test_html_block_text_joins_inline_elements_without_a_space(tmp_path: Path) -> None:
    (tmp_path / "p.md").write_text(
        "# Buttons\n\n<div class=\"callout\">\n<h5>Link caveat</h5>\n"
        "<p>Links in <code>&lt;a&gt;</code>s stay active; see <a href=\"#x\">the notes</a>.</p>\n</div>\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    text = doc.sections[-1].text
    assert "Links in <a>s stay active; see the notes." in text
    assert "Link caveat\n\nLinks in" in text  # block elements are paragraphs of their own


def test_html_block_text_keeps_no_break_spaces(tmp_path: Path) -> None:
    (tmp_path / "p.md").write_text("# Product\n\n<p>Run NGINX\u00a0Plus <em>behind</em> the proxy.</p>\n",
                                   encoding="utf-8")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert "Run NGINX\u00a0Plus behind the proxy." in doc.sections[-1].text


def test_a_figure_laid_out_as_a_one_column_table_is_a_captioned_image(tmp_path: Path) -> None:
    """``| ![Figure 1](a.png) |`` over ``| **Figure 1: Setup** |`` (one column: the image
    cell and a caption cell) is how many sites caption an image; the text is the image's
    caption and there is no table. A real table holding an image stays a table."""
    (tmp_path / "a.png").write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# P\n\n| ![Figure 1: Setup dialog](a.png) |\n| :---: |\n| **Figure 1: The setup dialog** |\n\n"
        "| Step | Screen |\n| --- | --- |\n| One | ![Shot](a.png) |\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [m.caption for m in images] == ["Figure 1: The setup dialog", ""]
    assert len([m for m in doc.media if isinstance(m, TableItem)]) == 1


def test_pictures_of_a_picture_grid_are_captioned_by_their_column_label(tmp_path: Path) -> None:
    """A table laid out as a grid of screenshots (``| Home | Connected |`` over two pictures,
    a ``| **Wait** | **Success** |`` label row over the next two: RustDesk's Android and
    Windows elevation pages) names each picture by the label above it in its column; a
    picture with alt text keeps it, and a table whose picture cells hold text is left as it is."""
    (tmp_path / "a.png").write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# P\n\n| Home | Connected |\n| --- | --- |\n| ![](a.png?width=300px) | ![](a.png) |\n"
        "| **Wait** | **Success** |\n| ![](a.png) | ![Done](a.png) |\n\n"
        "| Step | Screen |\n| --- | --- |\n| One | ![](a.png) |\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [m.caption for m in images] == ["Home", "Connected", "Wait", "", ""]


def test_github_alerts_in_any_case_read_like_admonitions(tmp_path: Path) -> None:
    """GitHub alerts (kind in any letter case, alone on the marker line or followed by text) lead
    their text with the kind, on every Markdown generator."""
    (tmp_path / "p.md").write_text("# Alerts\n\n> [!tip]\n> Use the cache.\n\n> [!Caution] Slow disks lose data.\n")
    text = convert_markdown(tmp_path / "p.md", root=tmp_path).sections[0].text
    assert text == "Tip: Use the cache.\n\nCaution: Slow disks lose data."


def test_text_after_a_boxed_heading_belongs_to_the_section_around_the_box(tmp_path: Path) -> None:
    """A heading inside a block quote (a lesson's ``> ## Exercise`` box) titles the box;
    when the quote ends, the page goes on in the section the box stands in: the plot
    after it is under 'Plotting', not under the exercise (nor under its nested
    solution), and no empty section is left."""
    (tmp_path / "plot.png").write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# Lesson\n\n## Plotting\n\nCall plot().\n\n> ## Exercise\n>\n> Plot two series.\n>\n"
        "> > ## Solution\n> >\n> > Call plot() twice.\n>\n> Then add a legend.\n\n![Two series](plot.png)\n\n"
        "After the box.\n\n## Saving\n\nCall savefig().\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    assert [(" > ".join(s.heading_path), s.text) for s in doc.sections] == [
        ("Lesson", ""), ("Lesson > Plotting", "Call plot()."), ("Lesson > Exercise", "Plot two series."),
        ("Lesson > Solution", "Call plot() twice."), ("Lesson > Exercise", "Then add a legend."),
        ("Lesson > Plotting", "After the box."),
        ("Lesson > Saving", "Call savefig()."),
    ]
    (img,) = doc.media
    assert img.section_id == doc.sections[5].id and img.context_after == "After the box."


def test_an_image_in_a_table_cell_has_its_row_as_context(tmp_path: Path) -> None:
    """An icon in a table cell is read with its row: the cells left of it before it, its own
    cell's words and the cells right of it after it (the section around the table holds no
    table text, so an icon table under a heading had no context at all)."""
    for name in ("cloud.png", "cloud-off.png"):
        (tmp_path / name).write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# Icons\n\nIntro before the table.\n\n| Icon | Name | Meaning |\n|---|---|---|\n"
        "| ![cloud](cloud.png) | Synced | Only on the server |\n| Local | ![off](cloud-off.png) Offline | Not backed up |\n\n"
        "After the table.\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    first, second = (m for m in doc.media if isinstance(m, ImageItem))
    assert (first.context_before, first.context_after) == ("Intro before the table.", "Synced\nOnly on the server")
    assert (second.context_before, second.context_after) == ("Local", "Offline\nNot backed up")
    table = next(m for m in doc.media if isinstance(m, TableItem))
    assert table.rows == [["", "Synced", "Only on the server"], ["Local", "Offline", "Not backed up"]]


def test_a_table_cell_holding_only_an_icon_reads_its_alt_text(tmp_path: Path) -> None:
    """Learn feature matrices mark support with a check-mark icon ("| Bookmarks | ![Yes](yes.png) |");
    the cells read "" and the table lost which feature each product has. A cell holding only
    icons (flagged tiny) now reads their alt text, as an HTML table's cell reads its <img> alt; a
    screenshot's alt, or an icon beside words, is not read into the cell."""
    from PIL import Image

    Image.new("RGB", (16, 16)).save(tmp_path / "yes.png")
    Image.new("RGB", (400, 300)).save(tmp_path / "shot.png")
    (tmp_path / "p.md").write_text(
        "# M\n\n| Feature | Desktop | Service |\n|---|---|---|\n| Bookmarks | ![Yes](yes.png) | ![No](yes.png) |\n"
        "| Grid | ![Screenshot of grid.](shot.png) | Partly ![Yes](yes.png) |\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    table = next(m for m in doc.media if isinstance(m, TableItem))
    assert table.rows == [["Bookmarks", "Yes", "No"], ["Grid", "", "Partly"]]


def test_image_alt_is_the_plain_text_of_its_description(tmp_path: Path) -> None:
    """An image's alt is its description as text (CommonMark "Images"; remark's alt is the label's
    text too): ![Author page for `slorber`](x.png), as Docusaurus release notes write them, has
    the alt "Author page for slorber"; murar kept the backticks, emphasis marks and escapes of
    the source, in the alt and in a heading holding the image."""
    from PIL import Image

    Image.new("RGB", (400, 300)).save(tmp_path / "shot.png")
    (tmp_path / "p.md").write_text(
        "# Release\n\n![Author page for `slorber` global *author*](shot.png)\n\n"
        "![a \\_b_ \\*c*\nnext line](shot.png)\n\n## Logo ![The **mark**](shot.png)\n\nText.\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    alts = [m.alt for m in doc.media if isinstance(m, ImageItem)]
    assert alts == ["Author page for slorber global author", "a _b_ *c* next line"]
    assert doc.sections[-1].heading_path[-1] == "Logo The mark"


def test_link_text_edges_and_tags(tmp_path: Path) -> None:
    """A link's text is its words: a space at its edge still parts it from the next word
    ('[JSON Form ](x)widget' renders 'JSON Form widget'), a <br> in it is a space and other tags
    in it are not text (they showed as '<br/>' in the page text)."""
    (tmp_path / "p.md").write_text(
        "# Links\n\nWorking with a [JSON Form ](json.md)widget and the [ source data](d.md) property.\n\n"
        "Pick [<br/>**Warehouse**<br/>](w.md)By Microsoft or [<b>Lake</b>house](l.md).\n\n"
        "Use the [<img src=\"funnel.png\" alt=\"funnel\"/> filter](f.md) popover.\n")
    (tmp_path / "funnel.png").write_bytes(PNG_64PX)
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    text = doc.sections[0].text
    assert "Working with a JSON Form widget and the source data property." in text
    assert "Pick Warehouse By Microsoft or Lakehouse." in text and "Use the filter popover." in text
    assert [(m.path, m.alt) for m in doc.media if isinstance(m, ImageItem)] == [("funnel.png", "funnel")]


def test_pictures_in_an_html_block_stand_where_they_are_written(tmp_path: Path) -> None:
    """An HTML block's pictures are read where they stand in its text (a screenshot after the
    list item it shows, not before the whole block), and the pictures of an HTML table are kept
    (they were dropped with the table) and read with their row."""
    for name in ("a.png", "b.png", "c.png", "d.png"):
        (tmp_path / name).write_bytes(PNG_64PX)
    (tmp_path / "p.md").write_text(
        "# Steps\n\nOpen the editor.\n\n<details>\n<summary>Using your own database?</summary>\n<ul>\n"
        "<li>Comment out the database service</li>\n<img src=\"a.png\" alt=\"service\"/>\n"
        "<li>Comment out the volumes</li>\n<img src=\"b.png\" alt=\"volumes\"/>\n</ul>\n</details>\n\n"
        "<table>\n<tr><td><img src=\"c.png\" alt=\"Hub\"/></td><td>Hub architecture</td></tr>\n"
        "<tr><td>Edge</td><td><img src=\"d.png\"/> Edge sequence</td></tr>\n</table>\n\nDone.\n")
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    a, b, c, d = (m for m in doc.media if isinstance(m, ImageItem))
    assert a.context_before.endswith("Comment out the database service")
    assert a.context_after.startswith("Comment out the volumes")
    assert b.context_before.endswith("Comment out the volumes") and b.context_after.startswith("Done.")
    assert (c.path, c.context_after) == ("c.png", "Hub\nHub architecture")
    assert (d.context_before, d.context_after) == ("Edge", "Edge sequence")
    assert ("Using your own database?\n\nComment out the database service\n\nComment out the volumes"
            in doc.sections[0].text)  # the summary and each list item a block of their own


def test_a_raw_pre_block_keeps_its_lines(tmp_path: Path) -> None:
    """A raw HTML <pre> block (top level or in a list item) shows its lines as written, as a
    browser does; the newline right after <pre> is not content."""
    page = tmp_path / "page.md"
    page.write_text("# Pump\n\nRun:\n\n<pre><code>\npump --start\npump --status &amp;&amp; echo ok\n</code></pre>\n\n"
                    "1. Then:\n\n    <pre>valve open\n    valve close</pre>\n", encoding="utf-8")
    text = convert_markdown(page, root=tmp_path).sections[0].text
    assert "pump --start\npump --status && echo ok" in text
    assert "valve open\n valve close" in text


def test_end_tag_br_breaks_words_as_br_does(tmp_path: Path) -> None:
    """HTML parsers read an end tag ``</br>`` as ``<br>`` (HTML Standard, "in body": an end tag
    whose name is "br" acts as the start tag), so browsers break the line there; pages that write
    ``</br>`` in a table cell or a paragraph read as one glued word ('option_aoption_b')."""
    page = tmp_path / "a.md"
    page.write_text("# Options\n\n|Setting|Option|\n|-|-|\n|Sort|option_a</br>option_b|\n\n"
                    "First line</BR>second line.\n", encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    table = next(m for m in doc.media if isinstance(m, TableItem))
    assert table.rows == [["Sort", "option_a option_b"]]
    assert "First line second line." in doc.sections[0].text


def test_a_picture_used_many_times_on_a_page_is_checked_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reference is an image item, but the file's header is decoded once per page
    (5,000 references to one WebP took 5.3 s, now 1.0 s); a broken one still warns at each use."""
    from PIL import Image

    from murar.ingest import paths
    from murar.ingest.markup import builder

    Image.new("RGB", (40, 30)).save(tmp_path / "shot.png")
    (tmp_path / "bad.png").write_bytes(b"not a picture")
    (tmp_path / "p.md").write_text("# P\n\n" + "Step.\n\n![Shot](shot.png)\n\n![Bad](bad.png)\n\n" * 3)
    calls: list[Path] = []

    def counting(path: Path, **kw: object) -> paths.ImageCheck:
        calls.append(path)
        return paths.check_image(path)

    monkeypatch.setattr(builder, "check_image", counting)
    doc = convert_markdown(tmp_path / "p.md", root=tmp_path)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path.split("/")[-1], m.exists, m.width) for m in images] == [
        ("shot.png", True, 40), ("bad.png", False, None)] * 3
    assert sorted(p.name for p in calls) == ["bad.png", "shot.png"]
    assert sum("bad.png" in w for w in doc.warnings) == 3


@pytest.mark.parametrize("body", ["Intro:\n" + "        - item\n" * 20_000, "Intro:\n" + "        more words\n" * 40_000])
def test_no_indented_code_blocks_stay_linear(tmp_path: Path, body: str, deadline: Any) -> None:
    """MDX's reading of indented list items and paragraphs (no indented code) looks ahead once
    per paragraph: a first version scanned to the end of the page from every item (56 s for
    20,000 items); now a few seconds at most."""
    from murar.ingest.markdown import MarkdownOptions, convert_markdown_text

    with deadline(20, body[:20]):
        doc = convert_markdown_text("# P\n\n" + body, path=tmp_path / "p.md", root=tmp_path,
                                    options=MarkdownOptions(plugins=("no-indented-code",)))
    assert doc.sections[0].text.startswith("Intro:")


def test_a_comment_line_inside_an_html_block_keeps_the_block_whole(tmp_path: Path) -> None:
    """CommonMark (spec 4.6): a ``<div>`` block ends at a blank line, and a comment on a
    line of its own inside it is part of it. Cutting the comment must not leave that
    blank: the block's 4-space indented markup after it read as a code block, its tags
    shown as text. Between paragraphs a comment line still ends the paragraph."""
    page = tmp_path / "p.md"
    page.write_text(
        "# Flow\n\nThe diagram.\n\n"
        '<div id="flow">\n  <div class="grid">\n    <!-- one row per platform -->\n'
        '    <div class="label">Linux</div>\n    <div class="label">macOS</div>\n  </div>\n</div>\n\n'
        "First paragraph.\n<!-- a note\nfor editors -->\nSecond paragraph.\n")
    doc = convert_markdown(page, root=tmp_path)
    text = doc.sections[0].text
    assert "<div" not in text and "Linux" in text and "macOS" in text
    assert "editors" not in text and "First paragraph.\n\nSecond paragraph." in text


def test_an_object_element_embeds_a_video_player_or_a_picture(tmp_path: Path) -> None:
    """``<object data="...">`` shows the resource it names (HTML "The object element"): a
    YouTube embed URL is a video (its <figure>'s caption its title), in an HTML block or in a
    paragraph; an SVG or ``type="image/..."`` a picture; a PDF neither."""
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "flow.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"/>')
    (tmp_path / "page.md").write_text(
        "# Widget\n\n<figure>\n  <object data=\"https://www.youtube.com/embed/jdDcydQ8Ho0?autoplay=0\" width='860px'>"
        "</object>\n  <figcaption align=\"center\"><i>How to use the widget</i></figcaption>\n</figure>\n\n"
        "<object data=\"img/flow.svg\" type=\"image/svg+xml\" width=\"600\"></object>\n\n"
        "<object data=\"https://vimeo.com/123\"></object>\n\n<object data=\"guide.pdf\" type=\"application/pdf\"></object>\n")
    doc = convert_markdown(tmp_path / "page.md", root=tmp_path)
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert [(v.url, v.title) for v in videos] == [
        ("https://www.youtube.com/embed/jdDcydQ8Ho0?autoplay=0", "How to use the widget"),
        ("https://vimeo.com/123", "Widget")]
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(i.path, i.exists) for i in images] == [("img/flow.svg", True)]
