"""Typed data that flows between the stages of murar.

The data model follows MuRAR (seed 000, section 2): a corpus is split into
*sections*; each section holds text *snippets* and *media items* (images,
tables, videos) that carry the context they appear in. An answer is an ordered
list of *blocks* (text, image, table, video) with citations and a trace of
every stage that produced it.

All dataclasses here are plain data: no I/O, JSON-serialisable through
:func:`to_jsonable`.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

MediaKind = Literal["image", "table", "video"]
MEDIA_KINDS: tuple[MediaKind, ...] = ("image", "table", "video")


def stable_id(*parts: str, length: int = 16) -> str:
    """A deterministic hex id from ``parts`` (sha1, first ``length`` hex chars). A lone
    surrogate (a JSON or YAML ``\\ud800`` escape in a page) is hashed as its code point,
    not an error; text without one hashes as before."""
    h = hashlib.sha1("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return h[:length]


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """A section of a page: the text under one heading, up to the next heading.

    ``heading_path`` holds the plain-text headings from the page title (level 1)
    down to this section. ``source_path`` is relative to the corpus root, with
    forward slashes. ``page`` is the 1-based PDF page where the section starts
    (``None`` for Markdown/HTML).
    """

    id: str
    source_path: str
    page_title: str
    heading_path: tuple[str, ...]
    anchor: str | None
    level: int
    text: str
    ordinal: int
    page: int | None = None
    page_url: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Snippet:
    """A text chunk of a section, at most the embedder's token window long.

    ``n_tokens`` is counted with the embedder's own tokenizer (word pieces,
    special tokens excluded). ``position`` is the 0-based order in the section.
    """

    id: str
    section_id: str
    source_path: str
    page_title: str
    heading_path: tuple[str, ...]
    anchor: str | None
    text: str
    position: int
    n_tokens: int
    page: int | None = None


@dataclass(slots=True, kw_only=True)
class MediaItem:
    """Common fields of an image, table or video found in a section.

    ``context_before``/``context_after`` are plain text from the same section
    around the item (characters, bounded at ingest). ``position`` is the 0-based
    order of the item among the media of its section. ``flags`` are ingest-time
    reasons never to select the item (``inline``, ``tiny``, ``decorative``; see
    :mod:`murar.ingest.media_flags`): it stays in the index, never in an answer.
    ``tab`` is the label of the tab the item is shown in (a Docusaurus ``<TabItem>``,
    an MkDocs content tab ``=== "..."``, a sphinx-design ``tab-item``, an Adobe
    ``[!TAB ...]``; empty outside tabs) and ``tab_set`` the labels of every tab of
    that tab set, in page order: the page shows one tab at a time, so an item of
    one tab is no illustration for a reader of another (:mod:`murar.answer.media`).
    """

    id: str
    kind: MediaKind
    section_id: str
    source_path: str
    page_title: str
    heading_path: tuple[str, ...]
    anchor: str | None
    position: int
    caption: str = ""
    context_before: str = ""
    context_after: str = ""
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    ocr_text: str = ""
    display_caption: str = ""
    flags: list[str] = field(default_factory=list)
    tab: str = ""
    tab_set: tuple[str, ...] = ()

    def representation(self, max_chars: int = 1200) -> str:
        """The text embedded for this item (MuRAR section 2.3: content + context).

        Returns at most ``max_chars`` characters.
        """
        parts = [" > ".join(self.heading_path), self.caption, *self._content_parts(),
                 self.context_before, self.context_after, self.ocr_text]
        text = "\n".join(p.strip() for p in parts if p and p.strip())
        return text[:max_chars]

    def _content_parts(self) -> list[str]:
        return []

    @property
    def label(self) -> str:
        """A short human label: caption, alt text, title or file name."""
        return self.caption or self.kind


@dataclass(slots=True, kw_only=True)
class ImageItem(MediaItem):
    """An image. ``path`` is relative to the corpus root (``None`` for remote
    images); ``stored_path`` is relative to the index directory for image files
    murar wrote itself (figures cropped from PDFs); ``url`` is the remote URL when the document links one (never
    fetched); ``exists`` is False when the file is missing or unreadable.
    ``content_hash`` is a hex digest of the file bytes (empty when unknown): two
    items with the same hash are the same picture whatever their paths."""

    kind: MediaKind = "image"
    path: str | None = None
    stored_path: str | None = None
    url: str | None = None
    alt: str = ""
    exists: bool = True
    width: int | None = None
    height: int | None = None
    content_hash: str = ""

    def _content_parts(self) -> list[str]:
        return [self.alt] if self.alt and self.alt != self.caption else []

    @property
    def label(self) -> str:
        if self.caption or self.alt:
            return self.caption or self.alt
        name = (self.path or self.url or "image").rsplit("/", 1)[-1]
        return name


@dataclass(slots=True, kw_only=True)
class TableItem(MediaItem):
    """A table as JSON rows: ``headers`` (may be empty) and ``rows`` of cell
    strings, plus a GitHub-flavoured Markdown rendering in ``markdown``."""

    kind: MediaKind = "table"
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    markdown: str = ""
    index_in_page: int = 0
    image_path: str | None = None

    def _content_parts(self) -> list[str]:
        lines = [" | ".join(self.headers)] if self.headers else []
        lines += [" | ".join(r) for r in self.rows[:12]]
        return ["\n".join(lines)]

    @property
    def label(self) -> str:
        if self.caption:
            return self.caption
        head = ", ".join(h for h in self.headers[:3] if h)
        return f"Table: {head}" if head else "Table"


@dataclass(frozen=True, slots=True)
class TranscriptCue:
    """One cue of a video transcript: ``start``/``end`` in seconds from the start
    of the video, and the spoken or subtitled ``text``."""

    start: float
    end: float
    text: str


@dataclass(slots=True, kw_only=True)
class VideoItem(MediaItem):
    """A video: a remote embed or a local video file of the corpus.

    ``url`` is the link as written in the document; ``path`` is the local video
    file relative to the corpus root when the link resolves to one (``exists``
    False when that file is missing). ``cues`` is the transcript with cue times
    (seconds) from a sidecar ``.vtt``/``.srt`` file or from speech recognition
    (``transcript_source`` says which: ``"sidecar:<file>"``, ``"asr:<model>"`` or
    ``""``); ``transcript`` is the cue texts joined.
    """

    kind: MediaKind = "video"
    url: str = ""
    title: str = ""
    transcript: str = ""
    path: str | None = None
    exists: bool = True
    cues: list[TranscriptCue] = field(default_factory=list)
    transcript_source: str = ""

    def _content_parts(self) -> list[str]:
        return [self.title, self.transcript[:600]]

    @property
    def label(self) -> str:
        return self.title or self.caption or self.url


AnyMedia = ImageItem | TableItem | VideoItem


AssetStatus = Literal["resolved", "missing", "remote", "unsupported", "escapes_root", "inline"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AssetRef:
    """One image or video reference written in a page (or an include it pulls in)
    and what became of it; the ingest report counts these (issue 8, "never silent").

    ``status``: ``resolved`` (a file under the root), ``missing`` (no file at
    ``path``, the path tried), ``remote`` (an ``http(s)`` URL, never fetched),
    ``unsupported`` (syntax murar cannot evaluate, e.g. a JSX expression),
    ``escapes_root`` (outside the corpus root, never read) or ``inline`` (a
    ``data:`` URI). ``source_path`` is the file the reference is written in,
    relative to the root; ``link`` is the reference as written; ``reason`` is
    a human-readable detail for anything but ``resolved``.
    """

    source_path: str
    link: str
    kind: str = "image"
    status: AssetStatus
    path: str | None = None
    reason: str = ""


@dataclass(slots=True, kw_only=True)
class ParsedDocument:
    """What a converter returns for one file: sections and their media.

    ``warnings`` are human-readable problems that did not stop the parse
    (missing images, unsafe links, undecodable bytes); ``warnings_dropped``
    counts those past the per-page cap that were not kept (see
    :func:`murar.ingest.corpus.cap_warnings`).
    """

    source_path: str
    title: str
    metadata: dict[str, Any]
    sections: list[Section]
    media: list[AnyMedia]
    warnings: list[str] = field(default_factory=list)
    pages: int | None = None
    asset_refs: list[AssetRef] = field(default_factory=list)
    warnings_dropped: int = 0


# ---------------------------------------------------------------- answers


@dataclass(slots=True, kw_only=True)
class ScoredSnippet:
    """A retrieved snippet with its cosine similarity to the question.
    ``citation`` is the 1-based number used as ``[n]`` in the answer.
    ``page_url`` is the public address of the snippet's page when the index
    knows it (:attr:`Section.page_url`: the canonical URL of a crawled or built
    HTML page), so citations point at the live page, not the local mirror."""

    snippet: Snippet
    score: float
    citation: int
    page_url: str | None = None


@dataclass(slots=True, kw_only=True)
class Attribution:
    """Source attribution of one answer sentence (MuRAR section 2.2).

    ``snippet_id``/``citation`` are ``None`` when the best cosine similarity is
    below the threshold.
    """

    sentence_index: int
    sentence: str
    snippet_id: str | None
    citation: int | None
    score: float


@dataclass(slots=True, kw_only=True)
class MediaSelection:
    """A media item chosen for the answer, with why it was chosen.

    ``sentence_index`` is the answer sentence after which its placeholder goes;
    ``score`` is the cosine similarity that selected it; ``strategy`` names the
    selection strategy (``section`` for MuRAR section-level retrieval).
    """

    item: AnyMedia
    snippet_id: str | None
    sentence_index: int
    score: float
    strategy: str = "section"
    placeholder: str = ""


@dataclass(slots=True, kw_only=True)
class TextBlock:
    """Answer text; ``citations`` are the 1-based snippet numbers it cites."""

    text: str
    citations: list[int] = field(default_factory=list)
    type: Literal["text"] = "text"


@dataclass(slots=True, kw_only=True)
class MediaBlock:
    """An image, table or video placed in the answer."""

    type: MediaKind
    item: AnyMedia
    score: float
    citations: list[int] = field(default_factory=list)
    caption: str = ""
    start_seconds: float | None = None  # videos: the moment the preceding sentence points at


Block = TextBlock | MediaBlock


@dataclass(slots=True, kw_only=True)
class RefinementTrace:
    """What the refinement step (MuRAR section 2.4) did.

    ``used`` is ``"llm"`` when the model's rewrite passed validation,
    ``"fallback"`` when the code-placed draft was kept (``reason`` says why),
    ``"none"`` when there was no media to place.
    """

    draft: str = ""
    raw_output: str = ""
    used: Literal["llm", "fallback", "none"] = "none"
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class LLMCall:
    """Token counts and times of one model call (backends that report them).

    ``prompt_tokens``: the whole prompt; ``cached_tokens``: of those, reused from
    the backend's prefix cache (not evaluated again); ``completion_tokens``: the
    reply; ``first_token_s``/``total_s``: seconds from the call to the first
    reply token / to the end; ``prefix_s``: of ``first_token_s``, seconds spent
    tokenizing and restoring (or evaluating) the cached fixed prefix, so that
    ``first_token_s - prefix_s`` is the evaluation of the rest of the prompt and
    the first token. ``stage`` names the pipeline stage; ``seq`` numbers the
    backend's calls.
    """

    stage: str = ""
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    first_token_s: float = 0.0
    total_s: float = 0.0
    seq: int = 0
    prefix_s: float = 0.0


@dataclass(slots=True, kw_only=True)
class Trace:
    """Every intermediate result of one answer, for ``--format json``.

    ``timings_ms`` holds per-stage milliseconds and, on a streamed answer, the
    milliseconds from the question to the first answer text (``first_token``)
    and to the first media block (``first_media``).
    """

    retrieved: list[ScoredSnippet] = field(default_factory=list)
    text_answer: str = ""
    attributions: list[Attribution] = field(default_factory=list)
    media_candidates: list[MediaSelection] = field(default_factory=list)
    media_selected: list[MediaSelection] = field(default_factory=list)
    refinement: RefinementTrace = field(default_factory=RefinementTrace)
    timings_ms: dict[str, float] = field(default_factory=dict)
    models: dict[str, str] = field(default_factory=dict)
    llm_calls: list[LLMCall] = field(default_factory=list)
    guard: list[str] = field(default_factory=list)  # what murar.answer.guard removed, one note each
    stopped: str = ""  # why the model was stopped before it finished ("" when it ran to its end)


@dataclass(slots=True, kw_only=True)
class Answer:
    """A multimodal answer: ordered ``blocks`` plus the sources they cite.

    ``found`` is False when the documentation does not answer the question;
    then ``blocks`` holds one text block saying so and no media.
    """

    question: str
    blocks: list[Block]
    sources: list[ScoredSnippet]
    found: bool
    trace: Trace

    @property
    def media(self) -> list[MediaBlock]:
        """The media blocks, in answer order."""
        return [b for b in self.blocks if isinstance(b, MediaBlock)]

    @property
    def text(self) -> str:
        """The answer text without media."""
        return " ".join(b.text for b in self.blocks if isinstance(b, TextBlock)).strip()


def to_jsonable(obj: Any) -> Any:
    """Convert dataclasses (recursively), tuples and sets to JSON-ready values."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        return out
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [to_jsonable(v) for v in obj]
    return obj


_MEDIA_CLASSES: dict[str, type[MediaItem]] = {
    "image": ImageItem,
    "table": TableItem,
    "video": VideoItem,
}


def media_from_dict(data: dict[str, Any]) -> AnyMedia:
    """Rebuild a media item from :func:`to_jsonable` output.

    Raises:
        ValueError: when ``data["kind"]`` is not image, table or video.
    """
    kind = data.get("kind")
    cls = _MEDIA_CLASSES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown media kind {kind!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in data.items() if k in names}
    if "heading_path" in kwargs:
        kwargs["heading_path"] = tuple(kwargs["heading_path"])
    if "tab_set" in kwargs:
        kwargs["tab_set"] = tuple(str(t) for t in kwargs["tab_set"] or ())
    if kwargs.get("bbox") is not None:
        kwargs["bbox"] = tuple(kwargs["bbox"])
    if "cues" in kwargs:
        kwargs["cues"] = [c if isinstance(c, TranscriptCue) else
                          TranscriptCue(start=float(c["start"]), end=float(c["end"]), text=str(c["text"]))
                          for c in kwargs["cues"] or []]
    return cls(**kwargs)  # type: ignore[return-value]


def snippet_from_dict(data: dict[str, Any]) -> Snippet:
    """Rebuild a :class:`Snippet` from :func:`to_jsonable` output."""
    names = {f.name for f in dataclasses.fields(Snippet)}
    kwargs = {k: v for k, v in data.items() if k in names}
    kwargs["heading_path"] = tuple(kwargs.get("heading_path", ()))
    return Snippet(**kwargs)
