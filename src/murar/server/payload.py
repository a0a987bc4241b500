"""Answers as JSON for the HTTP API and as Markdown for chat clients.

The JSON keeps the :class:`murar.schema.Answer` structure (:func:`to_jsonable`)
and adds what a browser needs: an answer ``id`` (for feedback), ``media_url``
on every image that the service can serve (``/v1/media/{id}``), a ``label`` on
every source, and the answer as Markdown (absolute image URLs, for copying and
for chat clients).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from murar.answer.service import AnswerService
from murar.schema import (
    Answer,
    ImageItem,
    MediaBlock,
    MediaItem,
    ScoredSnippet,
    TextBlock,
    VideoItem,
    to_jsonable,
)


def media_path(media_id: str) -> str:
    """The path, relative to the server root, that serves image ``media_id``."""
    return f"/v1/media/{media_id}"


class MediaLinker:
    """Maps media items to URLs of this server, asking the service once per id.

    Only images and local video files that :meth:`AnswerService.media_file`
    knows get a URL; tables are data, remote images and remote videos keep their
    own ``url`` (never proxied).
    """

    def __init__(self, service: AnswerService, base_url: str = "") -> None:
        self._service = service
        self._base = base_url.rstrip("/")
        self._known: dict[str, bool] = {}

    def with_base(self, base_url: str) -> MediaLinker:
        """The same linker (sharing what it learnt) with another base URL."""
        other = MediaLinker(self._service, base_url)
        other._known = self._known
        return other

    def has_file(self, item: MediaItem) -> bool:
        if not isinstance(item, ImageItem) and not (isinstance(item, VideoItem) and item.path):
            return False
        if item.id not in self._known:
            self._known[item.id] = self._service.media_file(item.id) is not None
        return self._known[item.id]

    def url(self, item: MediaItem) -> str | None:
        """Absolute (when a base URL is set) or root-relative URL, or ``None``."""
        return self._base + media_path(item.id) if self.has_file(item) else None


def source_label(scored: ScoredSnippet) -> str:
    """``Page title › Heading › Sub-heading`` for a retrieved snippet."""
    sn = scored.snippet
    parts = [sn.page_title, *[h for h in sn.heading_path if h and h != sn.page_title]]
    return " › ".join(p for p in parts if p) or sn.source_path


def _media_json(item: MediaItem, linker: MediaLinker) -> dict[str, Any]:
    data: dict[str, Any] = to_jsonable(item)
    data["media_url"] = linker.url(item)
    data["label"] = item.label
    return data


def media_block_json(block: MediaBlock, linker: MediaLinker) -> dict[str, Any]:
    """One media block as in ``answer_json(...)["blocks"]`` (also the ``media`` stream event)."""
    return {
        "type": block.type,
        "caption": block.caption,
        "score": block.score,
        "citations": list(block.citations),
        "start_seconds": block.start_seconds,
        "item": _media_json(block.item, linker),
    }


def answer_json(
    answer: Answer, *, answer_id: str, linker: MediaLinker, markdown: str
) -> dict[str, Any]:
    """The JSON body of ``POST /v1/answer`` and of the stream's ``answer`` event."""
    blocks: list[dict[str, Any]] = []
    for block in answer.blocks:
        if isinstance(block, TextBlock):
            blocks.append(
                {"type": "text", "text": block.text, "citations": list(block.citations)}
            )
        else:
            blocks.append(media_block_json(block, linker))
    sources = []
    for s in answer.sources:
        entry: dict[str, Any] = to_jsonable(s)
        entry["label"] = source_label(s)
        sources.append(entry)
    trace: dict[str, Any] = to_jsonable(answer.trace)
    for key, selections in (
        ("media_candidates", answer.trace.media_candidates),
        ("media_selected", answer.trace.media_selected),
    ):
        for out, sel in zip(trace[key], selections, strict=True):
            out["item"] = _media_json(sel.item, linker)
    return {
        "id": answer_id,
        "question": answer.question,
        "found": answer.found,
        "text": answer.text,
        "markdown": markdown,
        "blocks": blocks,
        "sources": sources,
        "trace": trace,
    }


def render_markdown(answer: Answer, *, linker: MediaLinker) -> str:
    """The answer as Markdown (:func:`murar.answer.render.render_markdown`), with
    image links to this server's ``/v1/media/{id}`` and video links only when
    they are http(s) URLs (a ``javascript:`` link from a document becomes ``#``)."""
    from murar.answer.render import render_markdown as pipeline_render

    return pipeline_render(answer, media_url=_url_of(linker))


def media_block_markdown(block: MediaBlock, *, linker: MediaLinker) -> str:
    """One media block as Markdown, with the same links as :func:`render_markdown`."""
    from murar.answer.render import media_markdown

    return "\n\n".join(media_markdown(block, media_url=_url_of(linker)))


def _url_of(linker: MediaLinker) -> Callable[[MediaItem], str | None]:
    def url(item: MediaItem) -> str | None:
        if isinstance(item, VideoItem):
            own_video = linker.url(item)
            if own_video is not None:
                return own_video
            return item.url if _is_http(item.url) else "#"
        if isinstance(item, ImageItem):
            own = linker.url(item)
            if own is not None:
                return own
            return item.url if item.url and _is_http(item.url) else None
        return None

    return url


def _is_http(url: str) -> bool:
    return url.strip().lower().startswith(("http://", "https://"))
