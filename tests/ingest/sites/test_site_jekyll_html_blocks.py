"""kramdown raw HTML blocks in Jekyll pages: any element that is not a span element,
opened at the start of a line, is raw HTML up to its closing tag. Made-up pages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from murar.ingest.markdown import convert_markdown
from murar.ingest.sites import jekyll
from murar.schema import ImageItem, VideoItem

VIDEO_PAGE = """---
title: Demo
---
The recording:

<p>
  <video class="embed-video" controls>

      <source src="/media/demo.mp4" type="video/mp4">

    Your browser does not support the video tag.
  </video>

  <em>Demo video</em>
</p>

After the video.
"""


def test_an_element_with_blank_lines_is_one_html_block(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A ``<p>`` holding a ``<video>`` with blank lines inside (what a theme include
    renders): kramdown keeps it raw up to ``</p>``, so the video is a video and no tag
    or fallback sentence is page text (CommonMark ended the block at the first blank
    line and read the rest as Markdown: the ``<source>`` line and 'Your browser does
    not support' were text, and no video was found)."""
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "media/demo.mp4", b"\x00" * 64)
    write(tmp_path, "index.md", VIDEO_PAGE)
    site = jekyll.load(tmp_path, "_config.yml")
    doc = convert_markdown(tmp_path / "index.md", root=tmp_path, site=site)
    text = "\n".join(s.text for s in doc.sections)
    assert "source" not in text and "Your browser" not in text and "After the video." in text
    assert [m.path if isinstance(m, VideoItem) else None for m in doc.media] == ["media/demo.mp4"]


def test_span_elements_and_void_elements_start_no_block() -> None:
    """``<span>``/``<img>`` at a line start begin a paragraph in kramdown, ``<hr>`` has no
    body, ``<pre>`` keeps its blank lines: none of them is joined."""
    text = "<span>a</span>\n\nText\n\n<hr>\n\nMore\n\n<pre>\ncode\n\nmore code\n</pre>\n"
    assert jekyll.join_html_blocks(text) == text


def test_unclosed_custom_elements_are_linear(deadline: Callable[[int, str], Any]) -> None:
    """20,000 different element names, none closed: each is left alone after one count
    of its tags (a scan to the end of the page for each name is 4 * 10**8 steps)."""
    text = "\n".join(f"<x-item{i}>\n\nline {i}" for i in range(20_000))
    with deadline(30, "unclosed custom elements"):
        out = jekyll.join_html_blocks(text)
    assert out == text


def test_dot_segments_of_root_relative_links_resolve_as_in_a_browser(tmp_path: Path, write: Callable[..., Path],
                                                                     png: bytes) -> None:
    """``/../media/a.png`` is ``/media/a.png`` in a browser (".." at the root stays at
    the root; a theme that prefixes "/" to a relative ``../media/a.png`` writes it); it
    was refused as escaping the corpus root."""
    write(tmp_path, "_config.yml", "title: T\nbaseurl: /docs\n")
    write(tmp_path, "media/a.png", png)
    site = jekyll.load(tmp_path, "_config.yml")
    for link in ("/../media/a.png", "/docs/./media/a.png", "/docs/x/../media/a.png"):
        assert site.resolve_asset(link, page_rel="_posts/2020-01-01-a.md").rel_path == "media/a.png", link


BOX_PAGE = """---
title: Remote
---
<div class='note warning'>

Follow the [checklist](/checklist/) first.

![The port settings](/images/ports.png)

</div>

After the box.
"""


@pytest.mark.parametrize("engine", ["CommonMark", "GFM", "kramdown"])
def test_html_blocks_follow_the_sites_markdown_converter(tmp_path: Path, write: Callable[..., Path], png: bytes,
                                                         engine: str) -> None:
    """Jekyll "Markdown Options": with ``markdown: CommonMark`` (jekyll-commonmark) or
    ``GFM`` (jekyll-commonmark-ghpages) a ``<div>`` ends at its blank line and the
    Markdown inside it is Markdown (the link and the picture); kramdown keeps the
    element raw up to ``</div>``, so its Markdown stays literal. murar read every site
    the kramdown way: '[checklist](/checklist/)' was page text and the picture lost."""
    write(tmp_path, "_config.yml", f"title: T\nmarkdown: {engine}\n")
    write(tmp_path, "images/ports.png", png)
    page = write(tmp_path, "docs/remote.md", BOX_PAGE)
    doc = convert_markdown(page, root=tmp_path, site=jekyll.load(tmp_path, "_config.yml"))
    text = "\n".join(s.text for s in doc.sections)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    if engine == "kramdown":
        assert "[checklist](/checklist/)" in text and not images
    else:
        assert "Follow the checklist first." in text and [m.path for m in images] == ["images/ports.png"]


def test_a_blank_line_of_a_pre_inside_an_html_block_is_kept(tmp_path: Path, write: Callable[..., Path]) -> None:
    """A ``<details>`` of command output whose ``<pre>`` has a blank line: kramdown keeps the
    element raw, blank line included, and the browser shows it as an empty line. The blank line
    was dropped with the others of the element (the two runs of output read as one)."""
    write(tmp_path, "_config.yml", "title: T\n")
    write(tmp_path, "index.md", "---\ntitle: Scores\n---\nThe scores:\n\n<details>\n<summary>\nShow them\n</summary>\n"
                                "<pre>\nFirst run:\nmodel_a  1.25\n\nSecond run:\nmodel_b  2.50\n</pre>\n</details>\n\n"
                                "Done.\n")
    site = jekyll.load(tmp_path, "_config.yml")
    text = convert_markdown(tmp_path / "index.md", root=tmp_path, site=site).sections[0].text
    assert text == "The scores:\n\nShow them\n\nFirst run:\nmodel_a  1.25\n\nSecond run:\nmodel_b  2.50\n\nDone."


def test_a_break_opening_a_block_does_not_hide_the_markdown_after_it() -> None:
    """kramdown reads a ``<br>`` line as a paragraph's start and the lines after it as
    Markdown; CommonMark read it as an HTML block keeping the numbered step and its code
    block raw up to the next blank line (Docker's tab panes: ``<br>`` then ``1. Unzip``)."""
    from markdown_it import MarkdownIt

    text = ('<div class="tab-pane" markdown="1">\n<br>\n1. Unzip the file:\n    ```powershell\n'
            "    Expand-Archive x\n    ```\n\n</div>\n\nA line.\n<br>\nStays in its paragraph.\n")
    out = jekyll.strip_kramdown(text)
    tokens = MarkdownIt("commonmark").parse(out)
    assert any(t.type == "fence" and "Expand-Archive" in t.content for t in tokens)
    assert any(t.type == "ordered_list_open" for t in tokens)
    assert "A line.\n<br>\nStays in its paragraph." in out  # inside a paragraph: kept
