"""The answer object of the Python API and the events of :meth:`murar.Assistant.stream`.

:class:`Answer` wraps the pipeline's :class:`murar.schema.Answer` (the typed
data: blocks, sources, trace) together with the index it came from, so it can
render itself (:meth:`Answer.markdown`, :meth:`Answer.html`) and hand out the
bytes of the images it shows (:meth:`Answer.image_bytes`).
"""

from __future__ import annotations

import base64
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from murar.schema import Answer as AnswerData
from murar.schema import (
    AnyMedia,
    Block,
    ImageItem,
    MediaBlock,
    ScoredSnippet,
    Trace,
    to_jsonable,
)

if TYPE_CHECKING:
    from murar.answer.pipeline import Pipeline


class Answer:
    """A multimodal answer: text blocks with ``[n]`` citations and the media
    placed after the sentences they illustrate (MuRAR, seed 000, section 2.4).

    Attributes mirror :class:`murar.schema.Answer`: ``question``, ``blocks``
    (``TextBlock`` | ``MediaBlock``, in reading order), ``sources`` (the
    retrieved snippets; ``citation`` is the ``n`` of ``[n]``), ``found``
    (False when the docs do not answer), ``trace`` (every stage's output and
    ``timings_ms``); ``data`` is that dataclass itself.
    """

    __slots__ = ("_pipeline", "data")

    def __init__(self, data: AnswerData, pipeline: Pipeline) -> None:
        self.data = data
        self._pipeline = pipeline

    # ------------------------------------------------------------ data
    @property
    def question(self) -> str:
        return self.data.question

    @property
    def blocks(self) -> list[Block]:
        return self.data.blocks

    @property
    def sources(self) -> list[ScoredSnippet]:
        return self.data.sources

    @property
    def found(self) -> bool:
        return self.data.found

    @property
    def trace(self) -> Trace:
        return self.data.trace

    @property
    def text(self) -> str:
        """The answer text without media (citations kept)."""
        return self.data.text

    @property
    def media(self) -> list[MediaBlock]:
        """The media blocks, in answer order."""
        return self.data.media

    def __repr__(self) -> str:
        kinds = ", ".join(b.type for b in self.media) or "no media"
        return f"<murar.Answer found={self.found} {len(self.blocks)} blocks ({kinds}) {len(self.sources)} sources>"

    # ------------------------------------------------------------ files
    def image_path(self, item: AnyMedia) -> Path | None:
        """Absolute path of a local image of this answer's index, or ``None``
        (remote, missing, not an image, or outside the index's folders)."""
        return self._pipeline.media_file(item.id)

    def image_bytes(self, item: AnyMedia) -> tuple[bytes, str] | None:
        """``(file bytes, MIME type)`` of a local image, or ``None`` (see :meth:`image_path`)."""
        path = self.image_path(item)
        if path is None:
            return None
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return path.read_bytes(), mime

    # ------------------------------------------------------------ rendering
    def markdown(self, *, base_dir: str | os.PathLike[str] | None = None) -> str:
        """The answer as Markdown: images as links, tables as GFM tables, videos
        as links, then the cited sources. Image links are relative to
        ``base_dir`` (default: the current folder), where the Markdown will be read.
        """
        from murar.answer.render import file_media_url, render_markdown

        url = file_media_url(self._pipeline.corpus_root or Path("."), self._pipeline.assets_dir,
                             Path(base_dir) if base_dir is not None else None)
        return render_markdown(self.data, media_url=url)

    def html(self, *, embed_images: bool = True, base_dir: str | os.PathLike[str] | None = None) -> str:
        """The answer as an HTML fragment (escaped; see :mod:`murar.answer.html`).

        ``embed_images``: images as base64 ``data:`` URIs, so the fragment
        shows anywhere (a notebook, an e-mail); otherwise relative links as in
        :meth:`markdown`.
        """
        from murar.answer.html import render_html
        from murar.answer.render import file_media_url

        links = file_media_url(self._pipeline.corpus_root or Path("."), self._pipeline.assets_dir,
                               Path(base_dir) if base_dir is not None else None)

        def src(item: ImageItem) -> str | None:
            if embed_images:
                got = self.image_bytes(item)
                if got is not None:
                    return f"data:{got[1]};base64,{base64.b64encode(got[0]).decode('ascii')}"
            return links(item)

        return render_html(self.data, image_src=src)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the dataclass fields plus ``markdown``."""
        out: dict[str, Any] = to_jsonable(self.data)
        out["markdown"] = self.markdown()
        return out

    def _repr_markdown_(self) -> str:  # Jupyter
        return self.markdown()

    def _repr_html_(self) -> str:  # Jupyter
        return self.html()


# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class StageEvent:
    """A pipeline stage started: ``retrieve``, ``generate``, ``attribute``,
    ``media``, ``refine`` or ``render`` (plus any stage the pipeline adds)."""

    stage: str


@dataclass(frozen=True, slots=True)
class TokenEvent:
    """A piece of the text answer, as the generator writes it. ``name`` is the
    pipeline's label for the pieces: ``"answer"`` when they are final text (the
    streamed path), ``"draft"`` or ``""`` when refinement may still rewrite them."""

    text: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class MediaEvent:
    """A media block placed after answer sentence ``sentence_index`` (0-based),
    sent as soon as that sentence is complete (when the pipeline streams media)."""

    block: MediaBlock
    sentence_index: int


@dataclass(frozen=True, slots=True)
class FinalAnswerEvent:
    """The finished multimodal answer; always the last event of a stream."""

    answer: Answer


@dataclass(frozen=True, slots=True)
class PipelineEvent:
    """Any other event the pipeline emits, passed through as it came
    (``kind`` is its type name, ``name``/``text`` its payload)."""

    kind: str
    name: str = ""
    text: str = ""


StreamEvent = StageEvent | TokenEvent | MediaEvent | FinalAnswerEvent | PipelineEvent
"""What :meth:`murar.Assistant.stream` yields."""
