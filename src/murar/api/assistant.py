"""``murar.Assistant``: ask, stream, search, illustrate and evaluate over one index.

An :class:`Assistant` opens its index lazily (on first use, or with
:meth:`Assistant.load`) and wraps the MuRAR pipeline
(:class:`murar.answer.pipeline.Pipeline`). Example, on a small index built with
the dependency-free hashing embedder and the extractive generator (no model)::

    >>> import murar
    >>> report = murar.build_index(docs, index_dir, embedder="hashing")
    >>> assistant = murar.Assistant(index_dir, llm="extractive")
    >>> answer = assistant.ask("How do I copy the server call URL to the clipboard?")
    >>> answer.found, answer.sources[0].snippet.source_path
    (True, 'AdobeDocs+experience-platform-docs/help/network.md')
    >>> answer.media[0].type, answer.media[0].item.path
    ('image', 'AdobeDocs+experience-platform-docs/help/assets/copy.jpg')
    >>> print(answer.markdown(base_dir=docs))  # doctest: +ELLIPSIS
    Use the icon at the top of each column to copy the server call URL to your clipboard, ... [1]
    <BLANKLINE>
    ![Network Information](<AdobeDocs+experience-platform-docs/help/assets/copy.jpg>)
    ...
    [1] Network Information — AdobeDocs+experience-platform-docs/help/network.md#network-information
    ...
    >>> [type(e).__name__ for e in assistant.stream("How do I copy the server call URL?")][-1]
    'FinalAnswerEvent'
    >>> [hit.snippet.page_title for hit in assistant.search("copy the server call URL to your clipboard", k=2)]
    ['Network Information', ...]
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from murar.api.answer import (
    Answer,
    FinalAnswerEvent,
    MediaEvent,
    PipelineEvent,
    StageEvent,
    StreamEvent,
    TokenEvent,
)
from murar.errors import ConfigError, MurarError
from murar.schema import (
    AnyMedia,
    ImageItem,
    MediaBlock,
    ScoredSnippet,
    Snippet,
    TableItem,
    VideoItem,
)

if TYPE_CHECKING:
    from murar.answer.pipeline import Pipeline, PipelineConfig
    from murar.config import MurarConfig
    from murar.embed.base import Embedder
    from murar.eval.claims import Decomposer
    from murar.eval.judge import SupportJudge
    from murar.eval.media_metrics import GoldQuestion
    from murar.eval.run import EvalRun
    from murar.llm.base import ChatModel

SNIPPET_ID_KEY = "snippet_id"
"""Metadata key under which adapters store the murar snippet id of a retrieved node/document."""

PathLike = str | os.PathLike[str]


@dataclass(slots=True, kw_only=True)
class SearchHit:
    """One retrieved snippet (cosine ``score`` in [-1, 1], ``rank`` from 1) and
    the displayable media of its section (MuRAR's candidates for it).

    With the guard on (the default), ``snippet.text`` is the stored text after
    :func:`murar.answer.guard.guard_passage` (instruction-like sentences and
    forged chat turns replaced by ``[instruction-like text removed]``, hidden
    link targets dropped) and ``guard_notes`` lists what was removed;
    everything else about the snippet (id, page, section) is as stored.

    ``metadata`` is a flat, JSON-ready dict for frameworks (LlamaIndex node
    metadata, LangChain document metadata): snippet/section ids, page title,
    heading path, source path, anchor, ``page_url`` (the live http(s) page of the
    section when the index knows a safe one, else ``None``), score, and ``media``, a list of dicts
    (``id``, ``kind``, ``label``, ``path`` = absolute file path of a local
    image, ``url``, ``markdown`` of a table).
    """

    snippet: Snippet
    score: float
    rank: int
    media: list[AnyMedia] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    guard_notes: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.snippet.text


def _media_metadata(item: AnyMedia, path: Path | None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": item.id, "kind": item.kind, "label": " ".join(item.label.split())}
    if isinstance(item, ImageItem):
        out["path"] = str(path) if path is not None else None
        out["url"] = item.url
    elif isinstance(item, TableItem):
        out["markdown"] = item.markdown
    elif isinstance(item, VideoItem):
        out["url"] = item.url
    return out


class Assistant:
    """Multimodal answers over the index in ``index`` (a folder built by
    :func:`murar.build_index` or ``murar ingest``, or a ``postgresql://`` store URL).

    Args:
        index: the index folder or store URL.
        llm: the generator: ``"bundled"`` (Qwen2.5-Coder-1.5B, offline),
            ``"bundled-small"`` (0.5B), ``"openai"`` (any OpenAI-compatible
            server: give ``base_url`` and ``model``), ``"extractive"`` (no
            model: quotes the best sentences), ``"fake"``, or a
            :class:`murar.llm.base.ChatModel` instance.
        base_url, model, api_key: for ``llm="openai"``.
        embedder: only for indexes built with an embedder that needs settings
            (an OpenAI-compatible one); otherwise the index's own is used.
        config: :class:`murar.PipelineConfig` (top-k, thresholds, media
            strategy, refinement).

    The constructor does no I/O; the index opens on first use (or
    :meth:`load`), the model loads on the first answer. Methods raise
    :class:`murar.errors.IndexNotFoundError` (no index there),
    :class:`murar.errors.ConfigError` (bad option, empty question),
    :class:`murar.errors.LLMError`, :class:`murar.errors.EmbeddingError`.
    """

    def __init__(
        self,
        index: PathLike,
        *,
        llm: str | ChatModel = "bundled",
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        embedder: Embedder | None = None,
        config: PipelineConfig | None = None,
    ) -> None:
        self.index: Path | str = _target(index)
        self.llm = llm
        self._base_url = base_url
        self._model = model
        self._api_key = api_key
        self._embedder = embedder
        self._config = config
        self._pipeline: Pipeline | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, config: MurarConfig | None = None, **overrides: Any) -> Assistant:
        """An assistant configured like the ``murar`` commands: ``murar.toml`` /
        ``[tool.murar]`` found from the current folder upward, then ``MURAR_*``
        variables (see :mod:`murar.config`); ``overrides`` (constructor
        arguments, e.g. ``llm="extractive"``) win over both.

        Raises:
            ConfigError: an unreadable or invalid configuration.
        """
        from murar.answer.pipeline import PipelineConfig
        from murar.config import load_config
        from murar.store.hybrid import RetrieverOptions

        cfg = config or load_config()
        options: dict[str, Any] = {
            "llm": cfg.llm.kind, "base_url": cfg.llm.base_url, "model": cfg.llm.model, "api_key": cfg.llm.api_key,
            "config": PipelineConfig(top_k=cfg.answer.top_k, media_strategy=cfg.answer.strategy,
                                     refine=cfg.answer.refine, display_captions=cfg.answer.captions,
                                     retriever=RetrieverOptions(kind=cfg.answer.retriever)),
        }
        options.update(overrides)
        index = options.pop("index", cfg.index.target)
        return cls(index, **options)

    @classmethod
    def from_pipeline(cls, pipeline: Pipeline, *, index: PathLike = "") -> Assistant:
        """An assistant over an already built pipeline (injected store, embedder, generator)."""
        self = cls(index, llm="injected")
        self._pipeline = pipeline
        return self

    def __repr__(self) -> str:
        llm = self.llm if isinstance(self.llm, str) else getattr(self.llm, "name", type(self.llm).__name__)
        return f"murar.Assistant({str(self.index)!r}, llm={llm!r})"

    # ------------------------------------------------------------ loading
    @property
    def pipeline(self) -> Pipeline:
        """The underlying pipeline (opens the index on first access)."""
        with self._lock:
            if self._pipeline is None:
                from murar.answer.pipeline import load_pipeline

                chat: ChatModel | None = None if isinstance(self.llm, str) else self.llm
                self._pipeline = load_pipeline(
                    self.index, llm=self.llm if isinstance(self.llm, str) else "injected",
                    base_url=self._base_url, model=self._model, api_key=self._api_key,
                    embedder=self._embedder, config=self._config, chat_model=chat)
            return self._pipeline

    def load(self) -> Assistant:
        """Open the index now (the model still loads on the first answer); returns ``self``."""
        _ = self.pipeline
        return self

    def warm_up(self) -> Assistant:
        """Open the index, load the embedder and the model, and evaluate the model's
        fixed prompt prefix now, so that the first question is answered as fast as
        the next ones (``murar serve`` and ``murar mcp`` do this while they start);
        returns ``self``. Raises :class:`murar.errors.LLMError`/``EmbeddingError``."""
        self.pipeline.warm_up()
        return self

    # ------------------------------------------------------------ answering
    def ask(self, question: str) -> Answer:
        """Answer ``question`` (blocking): the whole MuRAR pipeline, seed 000 section 2."""
        return Answer(self.pipeline.answer(question), self.pipeline)

    def stream(self, question: str) -> Iterator[StreamEvent]:
        """Yield :class:`StageEvent` as each stage starts, :class:`TokenEvent`
        as the answer is written, :class:`MediaEvent` as media are placed (when
        the pipeline streams them), then one :class:`FinalAnswerEvent`.

        Raises the pipeline's error (:class:`murar.errors.MurarError`) instead of yielding it.
        """
        pipeline = self.pipeline
        for event in pipeline.stream(question):
            kind = getattr(event, "type", type(event).__name__)
            if kind == "stage":
                yield StageEvent(stage=event.name)
            elif kind == "token":
                yield TokenEvent(text=event.text, name=str(getattr(event, "name", "")))
            elif kind == "media" and isinstance(block := getattr(event, "block", None), MediaBlock):
                yield MediaEvent(block=block, sentence_index=int(getattr(event, "index", -1)))
            elif kind == "answer" and event.answer is not None:
                yield FinalAnswerEvent(answer=Answer(event.answer, pipeline))
            elif kind == "error":
                err = getattr(event, "error", None)
                raise err if isinstance(err, MurarError) else MurarError(event.text)
            else:
                yield PipelineEvent(kind=str(kind), name=str(getattr(event, "name", "")),
                                    text=str(getattr(event, "text", "")))

    def search(self, query: str, k: int = 5, *, guard: bool | None = None) -> list[SearchHit]:
        """The ``k`` snippets best matching ``query``, in the order of the
        pipeline's retriever (:attr:`PipelineConfig.retriever`: dense,
        lexical or hybrid full-text + embedding search), each with its cosine
        similarity as ``score`` and the displayable media of its section.

        Search results leave murar for another model (MCP clients, LangChain
        and LlamaIndex chains) or a reader, so the injection guard's passage
        treatment applies to them (:func:`murar.answer.guard.guard_passage`;
        media labels that read as instructions are replaced too) unless
        ``guard=False``; ``None`` follows the pipeline's ``config.guard``.

        Raises:
            ConfigError: empty query or ``k < 1``.
        """
        from murar.answer.guard import REMOVED, guard_passage, instruction_like
        from murar.store.base import is_displayable
        from murar.store.hybrid import RetrieverOptions, retrieve_snippets

        q = " ".join(query.split())
        if not q:
            raise ConfigError("the search query is empty")
        if k < 1:
            raise ConfigError(f"k must be at least 1, not {k}")
        p = self.pipeline
        if guard is None:
            guard = bool(getattr(getattr(p, "config", None), "guard", True))
        vector = p.embedder.embed([q])[0]
        hits: list[SearchHit] = []
        retriever = getattr(getattr(p, "config", None), "retriever", None) or RetrieverOptions()
        ranked = retrieve_snippets(p.store, vector, q, k, retriever)
        for rank, (snippet, score) in enumerate(ranked, start=1):
            media = [m.item for m in p.store.media_in_section(snippet.section_id) if is_displayable(m.item)]
            media_meta = [_media_metadata(m, p.media_file(m.id)) for m in media]
            notes: list[str] = []
            if guard:
                checked = guard_passage(snippet.text)
                notes = [f"{snippet.source_path}: {n}" for n in checked.notes]
                if checked.text != snippet.text:
                    snippet = dataclasses.replace(snippet, text=checked.text)
                for m in media_meta:
                    if instruction_like(m["label"]):
                        notes.append(f"{snippet.source_path}: replaced the instruction-like label of {m['id']}")
                        m["label"] = REMOVED
            meta: dict[str, Any] = {
                SNIPPET_ID_KEY: snippet.id, "section_id": snippet.section_id,
                "source_path": snippet.source_path, "page_title": snippet.page_title,
                "heading_path": " > ".join(snippet.heading_path), "anchor": snippet.anchor,
                "page": snippet.page, "page_url": p.page_url(snippet),
                "score": round(float(score), 4), "retriever": retriever.name, "media": media_meta,
            }
            hits.append(SearchHit(snippet=snippet, score=float(score), rank=rank, media=media, metadata=meta,
                                  guard_notes=notes))
        return hits

    def illustrate(self, text: str, *, sources: Sequence[object] | None = None, question: str = "") -> Answer:
        """Turn a text answer written elsewhere (LlamaIndex, LangChain, a chat
        model) into a murar multimodal answer: source attribution, section-level
        media selection, placeholders and refinement (MuRAR steps 2-4).

        ``sources`` are the passages the text was written from, in citation
        order (``[1]`` is the first): :class:`SearchHit`, ``ScoredSnippet``,
        ``Snippet``, objects carrying ``metadata["snippet_id"]`` (the nodes and
        documents of murar's adapters), or any text (``str``, LangChain
        ``Document``, LlamaIndex node), which is matched to its nearest snippet
        of the index. Without sources, the snippets are retrieved for
        ``question`` (or for the text itself).

        Raises:
            ConfigError: empty text.
        """
        if not text.strip():
            raise ConfigError("the answer text to illustrate is empty")
        p = self.pipeline
        snippets = self._resolve_sources(sources, question or text)
        return Answer(p.illustrate(question, text, snippets), p)

    def _resolve_sources(self, sources: Sequence[object] | None, query: str) -> list[ScoredSnippet]:
        """The snippets of the index behind ``sources``, numbered in order (``[1]`` first), once each."""
        p = self.pipeline
        if sources is None:
            return p.retrieve(" ".join(query.split())[:2000])[0]
        parts = [_source_parts(src, p) for src in sources]
        texts = [text for snippet, _, text in parts if snippet is None and text]
        matched: Iterator[tuple[Snippet, float] | None] = iter(())
        if texts:  # text from elsewhere: its nearest snippet in the index (cosine)
            hits = [p.store.search_snippets(v, 1) for v in p.embedder.embed(texts)]
            matched = iter([h[0] if h else None for h in hits])
        out: list[ScoredSnippet] = []
        seen: set[str] = set()
        for snippet, score, text in parts:
            if snippet is None and text:
                best = next(matched)
                snippet, score = best if best is not None else (None, 0.0)
            if snippet is None or snippet.id in seen:
                continue
            seen.add(snippet.id)
            out.append(ScoredSnippet(snippet=snippet, score=round(float(score), 4), citation=len(out) + 1,
                                     page_url=p.page_url(snippet)))
        return out

    # ------------------------------------------------------------ evaluation
    def evaluate(
        self,
        questions: PathLike | Sequence[GoldQuestion],
        *,
        judge: Literal["embedding"] | SupportJudge | None = "embedding",
        decomposer: Decomposer | None = None,
        limit: int | None = None,
        out_dir: PathLike | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> EvalRun:
        """Answer gold questions (``dev.jsonl`` format, see ``../shared/eval/README.md``)
        and score them: media and retrieval metrics, and MiRAGE InfoF1/CiteF1
        (seed 002) unless ``judge=None``. ``"embedding"`` is the MiniLM cosine
        judge of ``murar eval run``. With ``out_dir``, the Markdown/HTML/JSON
        report is written there too.

        Raises:
            EvalDataError: unreadable gold file.
        """
        from murar.eval.claims import SentenceDecomposer
        from murar.eval.media_metrics import load_gold
        from murar.eval.run import evaluate_service
        from murar.eval.scorer import MirageScorer

        gold = load_gold(Path(questions)) if isinstance(questions, (str, os.PathLike)) else list(questions)
        gold = gold[:limit] if limit is not None else gold
        scorer: MirageScorer | None = None
        if judge == "embedding":
            from murar.embed.minilm import MiniLMEmbedder
            from murar.eval.judge import EmbeddingJudge

            scorer = MirageScorer(EmbeddingJudge(MiniLMEmbedder(), threshold=0.6))
        elif judge is not None:
            scorer = MirageScorer(judge)
        llm = self.llm if isinstance(self.llm, str) else getattr(self.llm, "name", "injected")
        run = evaluate_service(self.pipeline, gold, scorer=scorer, decomposer=decomposer or SentenceDecomposer(),
                               corpus_root=self.pipeline.corpus_root, progress=progress,
                               meta={"index": str(self.index), "llm": llm})
        if out_dir is not None:
            from murar.eval.report import write_run_report

            write_run_report(run, Path(out_dir))
        return run


def _target(index: PathLike) -> Path | str:
    """An index folder as a Path; a store URL (``postgresql://...``) kept as it is."""
    if isinstance(index, str) and "://" in index:
        return index
    return Path(index)


def _source_parts(src: object, pipeline: Pipeline) -> tuple[Snippet | None, float, str]:
    """``(snippet of the index or None, score, text to match)`` for one source object."""
    if isinstance(src, SearchHit):
        return src.snippet, src.score, ""
    if isinstance(src, ScoredSnippet):
        return src.snippet, src.score, ""
    if isinstance(src, Snippet):
        return src, 1.0, ""
    if isinstance(src, str):
        return None, 0.0, src
    node = getattr(src, "node", None)  # LlamaIndex NodeWithScore
    score = getattr(src, "score", None)
    carrier = node if node is not None else src
    metadata = getattr(carrier, "metadata", None)
    if isinstance(metadata, dict) and metadata.get(SNIPPET_ID_KEY):
        snippet = pipeline.store.get_snippet(str(metadata[SNIPPET_ID_KEY]))
        if snippet is not None:
            return snippet, float(score if score is not None else metadata.get("score", 0.0)), ""
    for attr in ("page_content", "text"):  # LangChain Document, LlamaIndex TextNode
        value = getattr(carrier, attr, None)
        if isinstance(value, str) and value.strip():
            return None, 0.0, value
    get_content = getattr(carrier, "get_content", None)
    if callable(get_content):
        value = get_content()
        if isinstance(value, str):
            return None, 0.0, value
    raise ConfigError(f"cannot use a {type(src).__name__} as a source: give text, a snippet or a murar search hit")


def illustrate(
    text: str,
    index: PathLike,
    *,
    sources: Sequence[object] | None = None,
    question: str = "",
    llm: str | ChatModel = "extractive",
    **options: Any,
) -> Answer:
    """Turn any text answer into a murar multimodal answer over ``index``
    (attribution, media selection, placement; see :meth:`Assistant.illustrate`).

    ``llm="extractive"`` (default) places media by code and writes captions
    from the items' own text, without loading a model; give ``"bundled"`` or a
    chat model to also refine the text around the media. ``options`` go to
    :class:`Assistant`.
    """
    return Assistant(index, llm=llm, **options).illustrate(text, sources=sources, question=question)
