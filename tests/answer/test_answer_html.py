"""answer.html(): a self-contained fragment where nothing from the documents becomes markup."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from sample_png import PNG_64PX as PNG

import murar

PAGE = """# Embed code help

## Open the embed code dialog

To open the embed code dialog, click the Embed Code icon on the Tools screen and type your
embed code. <script>window.__xss = 1</script> Never paste <img src=x onerror="alert(1)"> from pages.

![Embed code dialog <img src=x onerror="alert(2)">](assets/dialog.png)

| Setting | Value <b>bold</b> |
|---|---|
| embed | <script>x()</script> |
"""


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_html_escapes_document_text_and_embeds_the_image(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "assets").mkdir(parents=True)
    (docs / "assets" / "dialog.png").write_bytes(PNG)
    (docs / "embed.md").write_text(PAGE)
    murar.build_index(docs, tmp_path / "idx", embedder="hashing")
    answer = murar.Assistant(tmp_path / "idx", llm="extractive").ask(
        "How do I open the embed code dialog on the Tools screen?")
    html = answer.html()
    parser = _Tags()
    parser.feed(html)
    tags = {t for t, _ in parser.tags}
    assert "script" not in tags and "b" not in tags
    assert all(not k.startswith("on") for _, attrs in parser.tags for k in attrs)
    imgs = [attrs for t, attrs in parser.tags if t == "img"]
    assert imgs and all((a["src"] or "").startswith("data:image/png;base64,") for a in imgs)
    linked = answer.html(embed_images=False, base_dir=docs)
    assert 'src="assets/dialog.png"' in linked


def test_model_text_with_markup_is_escaped_and_unsafe_links_dropped() -> None:
    from murar.answer.html import render_html
    from murar.schema import Answer, ImageItem, MediaBlock, TextBlock, Trace, VideoItem

    image = ImageItem(id="i", section_id="s", source_path="p.md", page_title="P", heading_path=("P",),
                      anchor=None, position=0, path="a.png")
    video = VideoItem(id="v", section_id="s", source_path="p.md", page_title="P", heading_path=("P",),
                      anchor=None, position=1, url="javascript:alert(1)", title="clip")
    answer = Answer(question="q", found=True, sources=[], trace=Trace(), blocks=[
        TextBlock(text="Click **Save** <script>alert(1)</script> [1]"),
        MediaBlock(type="image", item=image, score=0.9, caption='<b onclick="x()">cap</b>'),
        MediaBlock(type="video", item=video, score=0.8, caption="clip"),
    ])
    html = render_html(answer, image_src=lambda item: "javascript:alert(2)")
    parser = _Tags()
    parser.feed(html)
    assert [t for t, _ in parser.tags if t in ("script", "img", "a")] == []
    assert "<strong>Save</strong>" in html and "&lt;script&gt;" in html
    assert "&lt;b onclick=&quot;x()&quot;&gt;cap&lt;/b&gt;" in html
