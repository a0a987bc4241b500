"""The MuRAR pipeline (seed 000, section 2), end to end.

    question -> retrieve top-k snippets -> text answer with [n] citations
             -> source attribution of each sentence
             -> section-level media retrieval per attributed snippet
             -> placeholders after attributed sentences -> refinement (validated)
             -> blocks (text | image | table | video) + trace

Build one with :func:`load_pipeline` (from an index folder) or by injecting a
store, an embedder and a generator into :class:`Pipeline`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from murar.answer.attribute import attribute
from murar.answer.captions import write_display_captions
from murar.answer.generate import (
    AnswerGenerator,
    ExtractiveAnswerGenerator,
    LLMAnswerGenerator,
)
from murar.answer.media import MediaOptions, MediaResult, select_section_media
from murar.answer.prompts import NOT_FOUND_TEXT, PROMPT_VERSION
from murar.answer.refine import assign_placeholders, build_draft, refine
from murar.answer.render import to_blocks
from murar.answer.service import AnswerEvent, IndexStats
from murar.answer.strategies import (
    STRATEGIES,
    AnswerBasedOptions,
    select_answer_based,
    select_hybrid,
)
from murar.embed.base import Embedder
from murar.errors import ConfigError, MurarError
from murar.llm.base import ChatModel
from murar.schema import (
    Answer,
    Attribution,
    ImageItem,
    ScoredSnippet,
    TextBlock,
    Trace,
    VideoItem,
)
from murar.store.base import Store

MAX_QUESTION_CHARS = 2000


@dataclass(frozen=True, slots=True, kw_only=True)
class PipelineConfig:
    """Knobs of the pipeline (similarities are cosines of L2-normalised embeddings).

    ``top_k``: snippets given to the generator (MuRAR uses 5).
    ``not_found_score``: below this best snippet similarity the question is
    answered "not found" without calling the model.
    ``attribution_threshold``: sentence-to-snippet similarity for attribution.
    ``media_strategy``: ``section`` (MuRAR), ``answer`` (seed 001) or ``hybrid``.
    ``refine``: rewrite the draft with the model around the placeholders.
    ``display_captions``: let the model write a short caption per media item
    (otherwise a deterministic caption from the item's own text).
    """

    def __post_init__(self) -> None:
        if self.media_strategy not in STRATEGIES:
            raise ConfigError(f"media_strategy must be one of {STRATEGIES}, not {self.media_strategy!r}")

    top_k: int = 5
    not_found_score: float = 0.25
    attribution_threshold: float = 0.45
    media: MediaOptions = field(default_factory=MediaOptions)
    media_strategy: str = "section"
    answer_based: AnswerBasedOptions = field(default_factory=AnswerBasedOptions)
    refine: bool = True
    display_captions: bool = True


class Pipeline:
    """Answers questions over one index; implements :class:`AnswerService`.

    ``refiner`` is the chat model used for refinement (``None``: keep the
    code-placed draft). ``corpus_root``/``assets_dir`` locate image files for
    :meth:`media_file`.
    """

    def __init__(
        self,
        *,
        store: Store,
        embedder: Embedder,
        generator: AnswerGenerator,
        refiner: ChatModel | None = None,
        config: PipelineConfig | None = None,
        corpus_root: Path | None = None,
        assets_dir: Path | None = None,
        stats: IndexStats | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.generator = generator
        self.refiner = refiner
        self.config = config or PipelineConfig()
        self.corpus_root = corpus_root
        self.assets_dir = assets_dir
        self._stats = stats

    # ------------------------------------------------------------- stages
    def retrieve(self, question: str) -> tuple[list[ScoredSnippet], np.ndarray]:
        """Top-k snippets for ``question`` and their vectors, shape ``(k, dim)``."""
        qv = self.embedder.embed([question])[0]
        hits = self.store.search_snippets(qv, self.config.top_k)
        scored = [ScoredSnippet(snippet=s, score=round(sc, 4), citation=i + 1) for i, (s, sc) in enumerate(hits)]
        vecs = self.store.snippet_vectors([s.snippet.id for s in scored])
        return scored, vecs

    def _select(self, answer_text: str, attributions: list[Attribution], sentence_vectors: np.ndarray) -> MediaResult:
        strategy = self.config.media_strategy
        if strategy == "answer":
            return select_answer_based(answer_text, sentence_vectors, self.store, self.embedder,
                                       self.config.answer_based, self.config.media)
        if strategy == "hybrid":
            return select_hybrid(answer_text, attributions, sentence_vectors, self.store, self.embedder,
                                 self.config.answer_based, self.config.media)
        return select_section_media(attributions, sentence_vectors, self.store, self.config.media)

    def _check(self, question: str) -> str:
        q = " ".join(question.split())
        if not q:
            raise ConfigError("the question is empty")
        if len(q) > MAX_QUESTION_CHARS:
            raise ConfigError(f"the question is longer than {MAX_QUESTION_CHARS} characters")
        return q

    def _not_found(self, question: str, snippets: list[ScoredSnippet], trace: Trace) -> Answer:
        return Answer(question=question, blocks=[TextBlock(text=NOT_FOUND_TEXT)], sources=[],
                      found=False, trace=trace)

    def _new_trace(self) -> Trace:
        return Trace(models={"embedder": self.embedder.name, "generator": self.generator.name,
                             "refiner": getattr(self.refiner, "name", "none"), "prompt": PROMPT_VERSION})

    def _finish_steps(self, question: str, text: str, snippets: list[ScoredSnippet], vecs: np.ndarray,
                      trace: Trace, t0: float) -> Iterator[str | Answer]:
        """Steps 2-5; yields each stage name as it starts, then the answer."""
        trace.text_answer = text
        yield "attribute"
        t = time.perf_counter()
        attr = attribute(text, snippets, vecs, self.embedder, threshold=self.config.attribution_threshold)
        trace.attributions = attr.attributions
        trace.timings_ms["attribute"] = _ms(t)
        yield "media"
        t = time.perf_counter()
        media = self._select(text, attr.attributions, attr.sentence_vectors)
        trace.media_candidates = media.candidates
        trace.media_selected = media.selected
        trace.timings_ms["media"] = _ms(t)
        assign_placeholders(media.selected)
        yield "refine"
        t = time.perf_counter()
        write_display_captions(media.selected, self.refiner if self.config.display_captions else None)
        trace.timings_ms["captions"] = _ms(t)
        t = time.perf_counter()
        draft = build_draft(text, media.selected, attr.attributions)
        final, rtrace = refine(draft, self.refiner if self.config.refine else None)
        trace.refinement = rtrace
        trace.timings_ms["refine"] = _ms(t)
        yield "render"
        blocks = to_blocks(final, media.selected)
        trace.timings_ms["total"] = _ms(t0)
        yield Answer(question=question, blocks=blocks, sources=snippets, found=True, trace=trace)

    # ---------------------------------------------------------- service
    def _run(self, question: str, *, stream_tokens: bool) -> Iterator[AnswerEvent]:
        """The pipeline as events; the last one is the answer. Errors propagate."""
        q = self._check(question)
        t0 = time.perf_counter()
        trace = self._new_trace()
        yield AnswerEvent(type="stage", name="retrieve")
        snippets, vecs = self.retrieve(q)
        trace.retrieved = snippets
        trace.timings_ms["retrieve"] = _ms(t0)
        if not snippets or snippets[0].score < self.config.not_found_score:
            trace.timings_ms["total"] = _ms(t0)
            yield AnswerEvent(type="answer", answer=self._not_found(q, snippets, trace))
            return
        yield AnswerEvent(type="stage", name="generate")
        t = time.perf_counter()
        if stream_tokens:
            pieces: list[str] = []
            for piece in self.generator.stream(q, snippets):
                pieces.append(piece)
                yield AnswerEvent(type="token", text=piece)
            gen = self.generator.finish("".join(pieces), snippets)
        else:
            gen = self.generator.generate(q, snippets)
        trace.timings_ms["generate"] = _ms(t)
        if not gen.found:
            trace.text_answer = gen.raw
            trace.timings_ms["total"] = _ms(t0)
            yield AnswerEvent(type="answer", answer=self._not_found(q, snippets, trace))
            return
        for step in self._finish_steps(q, gen.text, snippets, vecs, trace, t0):
            if isinstance(step, Answer):
                yield AnswerEvent(type="answer", answer=step)
            else:
                yield AnswerEvent(type="stage", name=step)

    def answer(self, question: str) -> Answer:
        """Run the whole pipeline. Raises ConfigError (bad question), LLMError, EmbeddingError."""
        for event in self._run(question, stream_tokens=False):
            if event.answer is not None:
                return event.answer
        raise AssertionError("pipeline produced no answer")  # pragma: no cover

    def stream(self, question: str) -> Iterator[AnswerEvent]:
        """Yield stage events, answer tokens as generated, then the final answer (or an error event)."""
        try:
            yield from self._run(question, stream_tokens=True)
        except MurarError as err:
            yield AnswerEvent(type="error", text=str(err), error=err)

    def illustrate(self, question: str, text: str, snippets: list[ScoredSnippet]) -> Answer:
        """Steps 2-5 on a text answer written elsewhere (another framework, a
        human): attribution against ``snippets`` (``[n]`` = ``citation``),
        media selection, placeholders, refinement and rendering.

        Raises:
            ConfigError: empty ``text``.
        """
        if not text.strip():
            raise ConfigError("the answer text is empty")
        t0 = time.perf_counter()
        trace = self._new_trace()
        trace.models["generator"] = "external"
        trace.retrieved = snippets
        if not snippets:
            trace.text_answer = text
            return Answer(question=question, blocks=[TextBlock(text=text.strip())], sources=[], found=True,
                          trace=trace)
        vecs = self.store.snippet_vectors([s.snippet.id for s in snippets])
        for step in self._finish_steps(question, text, snippets, vecs, trace, t0):
            if isinstance(step, Answer):
                return step
        raise AssertionError("pipeline produced no answer")  # pragma: no cover

    def media_file(self, media_id: str) -> Path | None:
        """Absolute path of a local image or video file of this index, or ``None``;
        never a path from outside it."""
        item = self.store.get_media(media_id)
        if not isinstance(item, (ImageItem, VideoItem)) or not item.exists:
            return None
        if isinstance(item, VideoItem):
            if not item.path or self.corpus_root is None:
                return None
            base, rel = self.corpus_root.resolve(), item.path
        elif item.path and self.corpus_root is not None:
            base, rel = self.corpus_root.resolve(), item.path
        elif item.stored_path and self.assets_dir is not None:
            base, rel = self.assets_dir.resolve(), item.stored_path
        else:
            return None
        target = (base / rel).resolve()
        if base not in target.parents or not target.is_file():
            return None
        return target

    def stats(self) -> IndexStats:
        """Counts of the index and the models in use."""
        if self._stats is not None:
            return self._stats
        c = self.store.counts()
        return IndexStats(pages=c["pages"], sections=c["sections"], snippets=c["snippets"], images=c["images"],
                          tables=c["tables"], videos=c["videos"], embedder=self.embedder.name,
                          corpus_root=str(self.corpus_root or ""), built_at="")


def _ms(t: float) -> float:
    return round((time.perf_counter() - t) * 1000.0, 2)


def embedder_for(name: str) -> Embedder:
    """The embedder an index was built with, by its recorded name.

    Raises:
        ConfigError: the index was built with an embedder that needs settings
            (an OpenAI-compatible endpoint): pass ``embedder=`` explicitly.
    """
    from murar.embed.fake import HashingEmbedder
    from murar.embed.minilm import MiniLMEmbedder

    if name == MiniLMEmbedder().name:
        return MiniLMEmbedder()
    if name.startswith("hashing-"):
        return HashingEmbedder(dim=int(name.split("-", 1)[1]))
    raise ConfigError(f"the index was built with embedder {name!r}; pass a matching embedder explicitly")


def load_pipeline(
    index_dir: Path | str,
    *,
    llm: str = "bundled",
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    embedder: Embedder | None = None,
    config: PipelineConfig | None = None,
    chat_model: ChatModel | None = None,
) -> Pipeline:
    """Open ``index_dir`` (a folder or a ``postgresql://`` URL) and build a
    pipeline with the chosen generator.

    ``llm``: ``bundled`` (Qwen2.5-Coder-1.5B GGUF via llama.cpp), ``bundled-small``,
    ``openai`` (needs ``base_url`` and ``model``), ``extractive`` (no model) or
    ``fake``. ``chat_model`` overrides ``llm`` with an injected model.

    Raises:
        IndexNotFoundError, IndexError_: no usable index.
        ConfigError: inconsistent options.
    """
    from murar.ingest.index import open_index

    opened = open_index(index_dir)
    emb = embedder or embedder_for(opened.manifest.embedder)
    if emb.name != opened.manifest.embedder:
        raise ConfigError(f"index built with {opened.manifest.embedder!r}, embedder given is {emb.name!r}")
    generator: AnswerGenerator
    refiner: ChatModel | None
    if chat_model is not None:
        generator, refiner = LLMAnswerGenerator(chat_model), chat_model
    elif llm == "extractive":
        generator, refiner = ExtractiveAnswerGenerator(emb), None
    else:
        from murar.llm import load_chat_model

        cm = load_chat_model(llm, base_url=base_url, model=model, api_key=api_key)
        generator, refiner = LLMAnswerGenerator(cm), cm
    c = opened.manifest.counts
    stats = IndexStats(pages=c.get("pages", 0), sections=c.get("sections", 0), snippets=c.get("snippets", 0),
                       images=c.get("images", 0), tables=c.get("tables", 0), videos=c.get("videos", 0),
                       embedder=opened.manifest.embedder, corpus_root=opened.manifest.corpus_root,
                       built_at=opened.manifest.built_at, extra={"version": opened.manifest.version})
    return Pipeline(store=opened.store, embedder=emb, generator=generator, refiner=refiner, config=config,
                    corpus_root=opened.corpus_root, assets_dir=opened.assets_dir, stats=stats)
