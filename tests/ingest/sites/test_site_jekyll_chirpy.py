"""The Chirpy theme's media rules ("Writing a New Post": URL prefix, image caption,
preview image, prompts) on a made-up chirpy-starter site."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from murar.ingest.markdown import convert_markdown
from murar.ingest.sites import jekyll
from murar.schema import ImageItem, VideoItem

POST = """---
title: Shipping logs
media_subpath: /assets/img/logs/
image:
  path: cover.png
  alt: The log pipeline at a glance.
---

The collector runs on every node:

![Collector settings](/settings.png)
Each node sends its logs to the gateway.

![Gateway](gateway.png){: w="700" h="400" }
_The gateway batches records before upload_

> Rotate the keys every month.
{: .prompt-warning }

Write `![alt](example.png)` to add a picture.
"""


def _site(tmp_path: Path, write: Callable[..., Path], png: bytes, theme: str) -> Path:
    write(tmp_path, "_config.yml", f"title: T\n{theme}\n")
    for name in ("cover.png", "settings.png", "gateway.png"):
        write(tmp_path, f"assets/img/logs/{name}", png)
    return write(tmp_path, "_posts/2024-05-01-shipping-logs.md", POST)


def test_chirpy_media_subpath_captions_preview_image_and_prompts(tmp_path: Path, write: Callable[..., Path],
                                                                 png: bytes) -> None:
    """Every image source is ``/<media_subpath>/<src>`` (the two body images were not
    found: one read from the site root, one from the post's folder), the italic line
    under an image is its caption, the preview image heads the post with its alt as
    caption, flagged ``hero`` (the theme's header picture, never an answer's figure), and ``{: .prompt-warning }`` reads 'Warning:' like other callouts. The
    image in inline code stays as written."""
    page = _site(tmp_path, write, png, "theme: jekyll-theme-chirpy")
    site = jekyll.load(tmp_path, "_config.yml")
    doc = convert_markdown(page, root=tmp_path, site=site)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert [(m.path, m.caption, "hero" in m.flags) for m in images] == [
        ("assets/img/logs/cover.png", "The log pipeline at a glance.", True),
        ("assets/img/logs/settings.png", "", False),
        ("assets/img/logs/gateway.png", "The gateway batches records before upload", False),
    ]
    text = "\n".join(s.text for s in doc.sections)
    assert "Warning: Rotate the keys every month." in text and "![alt](example.png)" in text
    assert doc.warnings == []


def test_other_themes_ignore_the_chirpy_keys(tmp_path: Path, write: Callable[..., Path], png: bytes) -> None:
    """``media_subpath`` means nothing to another theme: the links stay as written (and
    point nowhere here), no preview image is added."""
    page = _site(tmp_path, write, png, "theme: minima")
    site = jekyll.load(tmp_path, "_config.yml")
    doc = convert_markdown(page, root=tmp_path, site=site)
    images = [m for m in doc.media if isinstance(m, ImageItem)]
    assert len(images) == 2 and not any(m.exists for m in images)


def test_image_sources_are_found_in_linear_time(deadline: Callable[[int, str], Any]) -> None:
    """A line of 50,000 ``![`` (and one of 30,000 unclosed ``![a](``) above an italic
    line: one pass over the text (a regex per ``![`` rescanned the line: 5 s)."""
    for body in ["![" * 50_000 + "\n_caption_\n", "![a](" * 30_000 + "\n_caption_\n"]:
        with deadline(30, body[:10]):
            out = jekyll.chirpy_media(body, {"media_subpath": "/m"}, post=True)
        assert out.endswith("\n_caption_\n")


def test_chirpy_embed_includes_of_a_starter_site_keep_their_videos(tmp_path: Path, write: Callable[..., Path],
                                                                   png: bytes) -> None:
    """A chirpy-starter site has the theme's ``embed/*.html`` includes in the gem, not in
    the repository: ``embed/youtube.html id=...`` is the YouTube video and
    ``embed/video.html src=...`` the local file with its title (both were dropped; the
    poster image of the second was taken for a picture)."""
    write(tmp_path, "_config.yml", "title: T\ntheme: jekyll-theme-chirpy\n")
    write(tmp_path, "assets/media/run.mp4", b"\x00" * 64)
    page = write(tmp_path, "_posts/2024-05-02-demo.md",
                 "---\ntitle: Demo\n---\n\nThe talk:\n\n{% include embed/youtube.html id='dQw4w9WgXcQ' %}\n\n"
                 "A run:\n\n{% include embed/video.html src='assets/media/run.mp4' poster='run.png'"
                 " title='A full run' %}\n")
    site = jekyll.load(tmp_path, "_config.yml")
    doc = convert_markdown(page, root=tmp_path, site=site)
    videos = [m for m in doc.media if isinstance(m, VideoItem)]
    assert len(videos) == 2 and videos[0].url.endswith("/embed/dQw4w9WgXcQ")
    assert (videos[1].path, videos[1].title) == ("assets/media/run.mp4", "A full run")
    assert not [m for m in doc.media if isinstance(m, ImageItem)]
