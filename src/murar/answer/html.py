"""A multimodal answer as a self-contained HTML fragment (MuRAR step 4 output, for notebooks and e-mail).

Text blocks are rendered as CommonMark by markdown-it-py with raw HTML
disabled (document and model text cannot inject markup); tables are rebuilt
from their JSON rows; every string taken from the documents is escaped;
images use the ``src`` given by the caller (a ``data:`` URI keeps the
fragment self-contained); only ``http(s)`` and relative links survive.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from markdown_it import MarkdownIt

from murar.answer.render import cited_numbers, is_safe_url
from murar.schema import (
    Answer,
    ImageItem,
    ScoredSnippet,
    TableItem,
    TextBlock,
    VideoItem,
)

ImageSrc = Callable[[ImageItem], "str | None"]


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def _table_html(item: TableItem) -> str:
    rows = []
    if item.headers:
        cells = "".join(f"<th>{html.escape(h)}</th>" for h in item.headers)
        rows.append(f"<thead><tr>{cells}</tr></thead>")
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in item.rows)
    rows.append(f"<tbody>{body}</tbody>")
    return "<table>" + "".join(rows) + "</table>"


def source_text(s: ScoredSnippet) -> str:
    """``Page title › Section — path#anchor (page n)`` as plain text (not escaped)."""
    path = [h for h in s.snippet.heading_path if h != s.snippet.page_title]
    ref = s.snippet.source_path + (f"#{s.snippet.anchor}" if s.snippet.anchor else "")
    if s.snippet.page:
        ref += f" (page {s.snippet.page})"
    return f"{' › '.join([s.snippet.page_title, *path])} — {ref}"


def render_html(answer: Answer, *, image_src: ImageSrc) -> str:
    """The answer as an HTML fragment: ``<div class="murar-answer">`` with text,
    ``<figure>`` images and tables, video links, then an ordered Sources list.

    ``image_src(item)`` gives the ``src`` of an image (a ``data:`` URI, a
    relative path or an http(s) URL); ``None`` drops the picture and keeps the
    caption. Returns a string of HTML (UTF-8 text, no ``<html>`` wrapper).
    """
    md = _markdown()
    out: list[str] = ['<div class="murar-answer">']
    for b in answer.blocks:
        if isinstance(b, TextBlock):
            out.append(md.render(b.text))
            continue
        item = b.item
        caption = html.escape(" ".join((b.caption or item.label).split()))
        if isinstance(item, ImageItem):
            src = image_src(item)
            img = ""
            if src and (src.startswith("data:image/") or is_safe_url(src)):
                img = f'<img src="{html.escape(src, quote=True)}" alt="{caption}">'
            out.append(f"<figure>{img}<figcaption>{caption}</figcaption></figure>")
        elif isinstance(item, TableItem):
            out.append(f"<figure>{_table_html(item)}<figcaption>{caption}</figcaption></figure>")
        elif isinstance(item, VideoItem):
            if item.url and is_safe_url(item.url) and "://" in item.url:
                out.append(f'<p>▶ Video: <a href="{html.escape(item.url, quote=True)}">{caption}</a></p>')
            else:
                out.append(f"<p>▶ Video: {caption}</p>")
    if answer.sources:
        cited = cited_numbers(answer)
        items = [
            f'<li value="{s.citation}">{html.escape(source_text(s))}</li>'
            for s in answer.sources
            if not cited or s.citation in cited
        ]
        out.append('<p><strong>Sources</strong></p><ol class="murar-sources">' + "".join(items) + "</ol>")
    out.append("</div>")
    return "\n".join(out) + "\n"
