"""A deterministic AnswerService for the server tests (no index, no model).

Its answer has a text block, an image (a real PNG written in a temp folder), a
table and a video, and carries hostile strings from "documents" — a script
tag, an ``<img onerror>``, a ``javascript:`` link — so the tests can prove the
page renders document text as text.
"""

from __future__ import annotations

import struct
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

from murar.answer.service import AnswerEvent, IndexStats
from murar.schema import (
    Answer,
    Attribution,
    ImageItem,
    MediaBlock,
    MediaSelection,
    RefinementTrace,
    ScoredSnippet,
    Snippet,
    TableItem,
    TextBlock,
    Trace,
    VideoItem,
)

SCRIPT = "<script>window.__xss = 'script';</script>"
IMG_ONERROR = "<img src=x onerror=\"window.__xss = 'img'\">"
JS_URL = "javascript:window.__xss='link'"
IMAGE_ID = "img0000000000001"
MISSING_IMAGE_ID = "img0000000000002"
SVG_ID = "svg0000000000003"


def write_png(
    path: Path,
    width: int = 40,
    height: int = 30,
    rgb: tuple[int, int, int] = (200, 40, 40),
) -> Path:
    """A valid RGB PNG of ``width`` x ``height`` pixels filled with ``rgb``."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", raw)
        + chunk(b"IEND", b"")
    )
    return path


def _snippet(i: int, text: str, heading: str) -> Snippet:
    return Snippet(
        id=f"snip{i}",
        section_id=f"sec{i}",
        source_path=f"docs/page{i}.md",
        page_title="Schemas guide",
        heading_path=("Schemas guide", heading),
        anchor=f"section-{i}",
        text=text,
        position=0,
        n_tokens=len(text.split()),
    )


def make_answer(question: str, image: ImageItem) -> Answer:
    """The fixed multimodal answer of :class:`FakeAnswerService`."""
    s1 = _snippet(
        1,
        "Open Schemas in the left navigation and select Create schema. " + SCRIPT,
        "Create a schema",
    )
    s2 = _snippet(
        2, "Add field groups to describe the data. " + IMG_ONERROR, "Field groups"
    )
    table = TableItem(
        id="tab0000000000001",
        section_id="sec2",
        source_path="docs/page2.md",
        page_title="Schemas guide",
        heading_path=("Schemas guide", "Field groups"),
        anchor="section-2",
        position=0,
        caption="Field group types",
        headers=["Type", "Use"],
        rows=[["Individual", "Profile data"], ["Event", SCRIPT]],
        markdown="| Type | Use |",
    )
    video = VideoItem(
        id="vid0000000000001",
        section_id="sec1",
        source_path="docs/page1.md",
        page_title="Schemas guide",
        heading_path=("Schemas guide", "Create a schema"),
        anchor="section-1",
        position=1,
        url=JS_URL,
        title="Schema tutorial " + IMG_ONERROR,
    )
    safe_video = VideoItem(
        id="vid0000000000002",
        section_id="sec1",
        source_path="docs/page1.md",
        page_title="Schemas guide",
        heading_path=("Schemas guide", "Create a schema"),
        anchor="section-1",
        position=2,
        url="https://video.example.com/v/123",
        title="Create a schema in the UI",
    )
    text1 = (
        "To create a schema, open **Schemas** and select `Create schema` [1]. Document says "
        + SCRIPT
    )
    text2 = "Then add field groups [2]. " + IMG_ONERROR
    blocks = [
        TextBlock(text=text1, citations=[1]),
        MediaBlock(
            type="image",
            item=image,
            score=0.81,
            citations=[1],
            caption="The Schemas workspace " + IMG_ONERROR,
        ),
        TextBlock(text=text2, citations=[2]),
        MediaBlock(
            type="table",
            item=table,
            score=0.66,
            citations=[2],
            caption="Field group types",
        ),
        MediaBlock(
            type="video",
            item=video,
            score=0.52,
            citations=[1],
            caption="Hostile video link",
        ),
        MediaBlock(
            type="video",
            item=safe_video,
            score=0.5,
            citations=[1],
            caption="Video tutorial",
        ),
    ]
    sources = [
        ScoredSnippet(snippet=s1, score=0.83, citation=1),
        ScoredSnippet(snippet=s2, score=0.71, citation=2),
        # retrieved, never cited: not in the page's Sources list
        ScoredSnippet(snippet=_snippet(3, "Schemas can be exported as JSON files.", "Export a schema"),
                      score=0.52, citation=3),
    ]
    sel = [
        MediaSelection(item=image, snippet_id="snip1", sentence_index=0, score=0.81),
        MediaSelection(item=table, snippet_id="snip2", sentence_index=1, score=0.66),
    ]
    trace = Trace(
        retrieved=sources,
        text_answer=text1 + " " + text2,
        attributions=[
            Attribution(
                sentence_index=0,
                sentence=text1,
                snippet_id="snip1",
                citation=1,
                score=0.9,
            ),
            Attribution(
                sentence_index=1,
                sentence=text2,
                snippet_id="snip2",
                citation=2,
                score=0.8,
            ),
        ],
        media_candidates=sel,
        media_selected=sel,
        refinement=RefinementTrace(draft="draft", raw_output="raw", used="llm"),
        timings_ms={"retrieve": 1.0, "generate": 2.0},
        models={"llm": "fake", "embedder": "fake"},
    )
    return Answer(
        question=question, blocks=blocks, sources=sources, found=True, trace=trace
    )


class FakeAnswerService:
    """Implements :class:`murar.answer.service.AnswerService` deterministically.

    ``delay_s`` makes every answer take that long (to test queueing);
    ``hold`` (an Event) blocks answers until it is set; ``fail`` makes answers
    raise. ``active``/``max_active`` count concurrent calls.
    """

    def __init__(
        self,
        root: Path,
        *,
        delay_s: float = 0.0,
        hold: threading.Event | None = None,
        fail: Exception | None = None,
    ) -> None:
        self.root = root
        self.delay_s = delay_s
        self.hold = hold
        self.fail = fail
        self.png = write_png(root / "schema.png")
        (root / "evil.svg").write_text(
            "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"
        )
        self.image = ImageItem(
            id=IMAGE_ID,
            section_id="sec1",
            source_path="docs/page1.md",
            page_title="Schemas guide",
            heading_path=("Schemas guide", "Create a schema"),
            anchor="section-1",
            position=0,
            path="images/schema.png",
            alt="Schemas workspace",
            caption="Schemas workspace",
        )
        self.questions: list[str] = []
        self._lock = threading.Lock()
        self.active = 0
        self.max_active = 0

    def _work(self) -> None:
        with self._lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
        try:
            if self.hold is not None:
                self.hold.wait(timeout=30)
            if self.delay_s:
                time.sleep(self.delay_s)
            if self.fail is not None:
                raise self.fail
        finally:
            with self._lock:
                self.active -= 1

    def answer(self, question: str) -> Answer:
        self.questions.append(question)
        self._work()
        return make_answer(question, self.image)

    def stream(self, question: str) -> Iterator[AnswerEvent]:
        self.questions.append(question)
        yield AnswerEvent(type="stage", name="retrieve")
        yield AnswerEvent(type="stage", name="generate")
        for piece in ["To create ", "a schema, ", "open Schemas. ", SCRIPT]:
            yield AnswerEvent(type="token", text=piece)
        self._work()
        yield AnswerEvent(type="stage", name="refine")
        yield AnswerEvent(type="answer", answer=make_answer(question, self.image))

    def media_file(self, media_id: str) -> Path | None:
        if media_id == IMAGE_ID:
            return self.png
        if media_id == SVG_ID:
            return self.root / "evil.svg"
        return None

    def stats(self) -> IndexStats:
        return IndexStats(
            pages=2,
            sections=3,
            snippets=5,
            images=1,
            tables=1,
            videos=2,
            embedder="fake",
            corpus_root=str(self.root),
            built_at="2024-01-01T00:00:00Z",
        )
