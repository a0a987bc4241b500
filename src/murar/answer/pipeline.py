"""The MuRAR pipeline (seed 000, section 2), end to end.

    question -> retrieve top-k snippets -> text answer with [n] citations
             -> source attribution of each sentence
             -> section-level media retrieval per attributed snippet
             -> placeholders after attributed sentences -> refinement (validated)
             -> blocks (text | image | table | video) + trace

Two paths (``PipelineConfig.path``):

- ``streamed`` (default): one model call. The prompt holds only the snippet
  sentences closest to the question (:mod:`murar.answer.evidence`); each answer
  sentence is attributed and its media chosen as soon as it is complete, and the
  media are emitted right after it (:mod:`murar.answer.streaming`); display
  captions come from the documentation's own text; the text is not rewritten,
  so the final answer is exactly what was streamed.
- ``three-call``: MuRAR as published — whole snippets in the prompt, the answer
  first, then a model call for display captions and a model call rewriting the
  answer around the placeholders (validated, with the draft as fallback).

Build one with :func:`load_pipeline` (from an index folder) or by injecting a
store, an embedder and a generator into :class:`Pipeline`.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from murar.answer.attribute import AttributionOptions, attribute, split_answer
from murar.answer.captions import write_display_captions
from murar.answer.echo import ExampleEcho, example_echo
from murar.answer.evidence import EvidenceOptions
from murar.answer.generate import (
    AnswerGenerator,
    ExtractiveAnswerGenerator,
    LLMAnswerGenerator,
    repeating_sentences,
    runaway_citations,
    strip_citations,
    without_trailing_citations,
)
from murar.answer.guard import (
    guard_answer,
    guard_media_captions,
    guard_snippets,
    guard_stream,
)
from murar.answer.media import (
    MediaOptions,
    MediaResult,
    MemoEmbedder,
    dedupe_key,
    focus_sections,
    picture_lead,
    select_section_media,
    step_text,
    top_section_picks,
)
from murar.answer.moments import best_moment
from murar.answer.prompts import (
    NOT_FOUND_MARKER,
    NOT_FOUND_TEXT,
    PROMPT_VERSION,
    answer_messages,
)
from murar.answer.refine import (
    assign_placeholders,
    build_draft,
    refine,
    with_citation,
    write_lead_ins,
)
from murar.answer.render import is_safe_url, to_blocks
from murar.answer.service import AnswerEvent, IndexStats
from murar.answer.strategies import (
    STRATEGIES,
    AnswerBasedOptions,
    select_answer_based,
    select_hybrid,
)
from murar.answer.streaming import (
    Piece,
    SentenceAssembler,
    SentenceOutcome,
    blocks_of,
    drop_sentences,
    without_repeats,
    without_sentences,
)
from murar.embed.base import Embedder
from murar.errors import ConfigError, MurarError
from murar.ingest.chunking import split_sentences
from murar.ingest.paths import is_web_url
from murar.llm.base import ChatModel
from murar.schema import (
    Answer,
    Attribution,
    ImageItem,
    LLMCall,
    MediaBlock,
    MediaSelection,
    RefinementTrace,
    ScoredSnippet,
    Snippet,
    TextBlock,
    Trace,
    VideoItem,
)
from murar.store.base import Store
from murar.store.hybrid import RetrieverOptions, retrieve_snippets

MAX_QUESTION_CHARS = 2000
PATHS = ("streamed", "three-call")


@dataclass(frozen=True, slots=True, kw_only=True)
class PipelineConfig:
    """Knobs of the pipeline (similarities are cosines of L2-normalised embeddings).

    ``top_k``: snippets given to the generator (MuRAR uses 5).
    ``retriever``: how they are retrieved: dense (MuRAR: embedding similarity),
    lexical (full-text BM25) or hybrid (both, fused); see :mod:`murar.store.hybrid`.
    ``not_found_score``: below this best snippet similarity the question is
    answered "not found" without calling the model.
    ``attribution_threshold``: sentence-to-snippet similarity for attribution.
    ``attribution``: the per-sentence attribution rules (citations, clear winner).
    ``media_strategy``: ``section`` (MuRAR), ``answer`` (seed 001) or ``hybrid``.
    ``path``: ``streamed`` (one model call, media while the text streams) or
    ``three-call`` (MuRAR as published: answer, captions, rewrite); see the module doc.
    ``evidence``: how much snippet text goes to the generator: the selected
    sentences (:class:`EvidenceOptions`) or ``None`` for the whole snippets.
    ``refine``: (three-call path) refine the draft with the model around the placeholders:
    ``refine_mode="rewrite"`` rewrites the whole answer (MuRAR), ``"lead-in"`` only
    writes a short validated lead-in per media item (:func:`murar.answer.refine.write_lead_ins`).
    ``display_captions``: (three-call path) let the model write a short caption per
    media item; otherwise, and always on the streamed path, a deterministic caption
    from the item's own text (:func:`murar.answer.captions.fallback_caption`).
    ``guard``: defences against instructions planted in documents
    (:mod:`murar.answer.guard`) on both paths; what they removed is in ``Trace.guard``.
    """

    def __post_init__(self) -> None:
        if self.media_strategy not in STRATEGIES:
            raise ConfigError(f"media_strategy must be one of {STRATEGIES}, not {self.media_strategy!r}")
        if self.path not in PATHS:
            raise ConfigError(f"path must be one of {PATHS}, not {self.path!r}")
        if self.refine_mode not in ("rewrite", "lead-in"):
            raise ConfigError(f"refine_mode must be rewrite or lead-in, not {self.refine_mode!r}")

    @classmethod
    def three_call(cls, **overrides: object) -> PipelineConfig:
        """The published MuRAR configuration (whole snippets, model captions and rewrite)."""
        base: dict[str, object] = {"path": "three-call", "evidence": None, "refine": True, "display_captions": True}
        base.update(overrides)
        return cls(**base)  # type: ignore[arg-type]

    top_k: int = 5
    retriever: RetrieverOptions = field(default_factory=RetrieverOptions)
    not_found_score: float = 0.25
    attribution_threshold: float = 0.45
    attribution: AttributionOptions = field(default_factory=AttributionOptions)
    media: MediaOptions = field(default_factory=MediaOptions)
    media_strategy: str = "section"
    answer_based: AnswerBasedOptions = field(default_factory=AnswerBasedOptions)
    refine: bool = True
    display_captions: bool = False
    path: str = "streamed"
    guard: bool = True
    refine_mode: str = "rewrite"
    evidence: EvidenceOptions | None = field(default_factory=EvidenceOptions)


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
        self._memo = MemoEmbedder(embedder)  # step texts and the question, across the sentences of a stream
        self.generator = generator
        self.refiner = refiner
        self.config = config or PipelineConfig()
        self.corpus_root = corpus_root
        self.assets_dir = assets_dir
        self._stats = stats

    # ------------------------------------------------------------- stages
    def retrieve(self, question: str) -> tuple[list[ScoredSnippet], np.ndarray]:
        """Top-k snippets for ``question`` (by :attr:`PipelineConfig.retriever`, each
        scored by its cosine similarity to the question) and their vectors, shape ``(k, dim)``."""
        return self._search(self.embedder.embed([question])[0], question)

    def _search(self, qv: np.ndarray, question: str) -> tuple[list[ScoredSnippet], np.ndarray]:
        hits = retrieve_snippets(self.store, qv, question, self.config.top_k, self.config.retriever)
        scored = [ScoredSnippet(snippet=s, score=round(sc, 4), citation=i + 1, page_url=self.page_url(s))
                  for i, (s, sc) in enumerate(hits)]
        vecs = self.store.snippet_vectors([s.snippet.id for s in scored])
        return scored, vecs

    def page_url(self, snippet: Snippet) -> str | None:
        """The live http(s) address of the snippet's page (its section's
        canonical URL, :attr:`Section.page_url`), or ``None`` when the index has
        none or it is not a safe web link. One store lookup."""
        section = self.store.get_section(snippet.section_id)
        url = section.page_url if section is not None else None
        return url if url and is_web_url(url) and is_safe_url(url) else None

    def _select(self, answer_text: str, attributions: list[Attribution], sentence_vectors: np.ndarray,
                question: str = "", sections: frozenset[str] | None = None) -> MediaResult:
        strategy = self.config.media_strategy
        if strategy == "answer":
            return select_answer_based(answer_text, sentence_vectors, self.store, self.embedder,
                                       self.config.answer_based, self.config.media, question=question or None)
        if strategy == "hybrid":
            return select_hybrid(answer_text, attributions, sentence_vectors, self.store, self.embedder,
                                 self.config.answer_based, self.config.media, question=question or None)
        qv = self._memo.embed([question])[0] if question and self.config.media.question_focus is not None else None
        return select_section_media(attributions, sentence_vectors, self.store, self.config.media, self._memo, qv,
                                    sections, question=question or None)

    def _top_section(self, question: str, snippets: list[ScoredSnippet],
                     sentence_vectors: np.ndarray) -> list[MediaSelection]:
        """The top retrieved section's images for an answer that brought no media
        (:func:`~murar.answer.media.top_section_picks`; section strategy only)."""
        if self.config.media_strategy != "section" or self.config.media.top_section is None or not question:
            return []
        return top_section_picks(snippets, self.store, self._memo.embed([question])[0], sentence_vectors,
                                 self.config.media, question)

    def _lead(self, pick: MediaSelection, question: str, snippets: list[ScoredSnippet]) -> str:
        """The cited sentence a top-section picture follows (``MediaOptions.top_section_lead``),
        or ``""``. It is document text entering the answer, so with ``guard`` on it must pass
        :func:`~murar.answer.guard.guard_answer` untouched (an instruction-like sentence
        or a link the question does not need drops the lead, not the picture)."""
        lead = picture_lead(pick.item) if self.config.media.top_section_lead else ""
        if not lead:
            return ""
        lead = with_citation(lead, snippets[0].citation)
        if self.config.guard and guard_answer(lead, question, snippets).text.strip() != lead:
            return ""
        return lead

    def _lead_required(self) -> bool:
        """A top-section picture without its lead sentence is not shown (``MediaOptions.top_section_lead_only``)."""
        return self.config.media.top_section_lead and self.config.media.top_section_lead_only

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
        return Trace(models={"embedder": self.embedder.name, "retriever": self.config.retriever.name,
                             "generator": self.generator.name,
                             "refiner": getattr(self.refiner, "name", "none"), "prompt": PROMPT_VERSION})

    def _finish_steps(self, question: str, text: str, snippets: list[ScoredSnippet], vecs: np.ndarray,
                      trace: Trace, t0: float) -> Iterator[str | Answer]:
        """Steps 2-5; yields each stage name as it starts, then the answer."""
        trace.text_answer = text
        yield "attribute"
        t = time.perf_counter()
        attr = attribute(text, snippets, vecs, self.embedder, threshold=self.config.attribution_threshold,
                         options=self.config.attribution)
        trace.attributions = attr.attributions
        trace.timings_ms["attribute"] = _ms(t)
        yield "media"
        t = time.perf_counter()
        media = self._select(text, attr.attributions, attr.sentence_vectors, question,
                             focus_sections(snippets, self.store, self.config.media, question))
        if not media.selected:
            for pick in self._top_section(question, snippets, attr.sentence_vectors):
                media.candidates.append(pick)
                lead = self._lead(pick, question, snippets)
                if not lead and self._lead_required():
                    continue
                media.selected.append(pick)
                if not lead:
                    continue
                # the picture follows the document's own sentence that introduces it, added unless the
                # answer already ends with it (the answer's own sentence, or the lead of a tied picture)
                if not attr.attributions or lead != attr.attributions[-1].sentence:
                    more = attribute(lead, snippets, vecs, self.embedder,
                                     threshold=self.config.attribution_threshold, options=self.config.attribution)
                    n = len(attr.attributions)
                    attr.attributions += [replace(a, sentence_index=n + i) for i, a in enumerate(more.attributions)]
                    attr.sentence_vectors = np.vstack([attr.sentence_vectors, more.sentence_vectors])
                    text = f"{text.rstrip()}\n{lead}"
                pick.sentence_index = len(attr.attributions) - 1  # after its lead
        trace.media_candidates = media.candidates
        trace.media_selected = media.selected
        trace.timings_ms["media"] = _ms(t)
        assign_placeholders(media.selected)
        yield "refine"
        t = time.perf_counter()
        write_display_captions(media.selected, self.refiner if self.config.display_captions else None,
                               {a.sentence_index: a.sentence for a in attr.attributions})
        if self.config.guard:
            trace.guard.extend(guard_media_captions(media.selected))
        trace.timings_ms["captions"] = _ms(t)
        self._record_llm_call(trace, "captions")
        t = time.perf_counter()
        draft = build_draft(text, media.selected, attr.attributions)
        refiner = self.refiner if self.config.refine else None
        if self.config.refine_mode == "lead-in":
            final, rtrace = write_lead_ins(draft, media.selected, refiner)
        else:
            final, rtrace = refine(draft, refiner)
        trace.refinement = rtrace
        if self.config.guard:
            checked = guard_answer(final, question, snippets)
            final = checked.text
            trace.guard.extend(checked.notes)
        trace.timings_ms["refine"] = _ms(t)
        self._record_llm_call(trace, "refine")
        yield "render"
        blocks = to_blocks(final, media.selected, {s.snippet.id: s.citation for s in snippets})
        trace.timings_ms["total"] = _ms(t0)
        yield Answer(question=question, blocks=blocks, sources=snippets, found=True, trace=trace)

    # ---------------------------------------------------------- service
    def _run(self, question: str, *, stream_tokens: bool) -> Iterator[AnswerEvent]:
        """The pipeline as events; the last one is the answer. Errors propagate."""
        q = self._check(question)
        t0 = time.perf_counter()
        trace = self._new_trace()
        yield AnswerEvent(type="stage", name="retrieve")
        qv = self.embedder.embed([q])[0]
        trace.timings_ms["question_embedding"] = _ms(t0)
        snippets, vecs = self._search(qv, q)
        trace.retrieved = snippets
        trace.timings_ms["retrieve"] = _ms(t0)
        if not snippets or max(s.score for s in snippets) < self.config.not_found_score:
            trace.timings_ms["total"] = _ms(t0)
            yield AnswerEvent(type="answer", answer=self._not_found(q, snippets, trace))
            return
        if self.config.guard:
            guarded = guard_snippets(snippets)
            snippets = guarded.snippets
            trace.guard.extend(guarded.notes)
        if self.config.path == "streamed":
            yield from self._streamed_steps(q, snippets, vecs, trace, t0)
            return
        yield AnswerEvent(type="stage", name="generate")
        t = time.perf_counter()
        # the draft is always read as a stream, so a model caught in a loop is stopped (as on the streamed path)
        pieces: list[str] = []
        chunks = self.generator.stream(q, snippets)
        watch = _LoopWatch({s.citation for s in snippets})
        for piece in chunks:
            if not pieces:
                trace.timings_ms["first_token"] = _ms(t0)
            pieces.append(piece)
            if stream_tokens:
                yield AnswerEvent(type="token", name="draft", text=piece)
            trace.stopped = watch.feed(piece)
            if trace.stopped:
                close = getattr(chunks, "close", None)
                if callable(close):
                    close()
                break
        gen = self.generator.finish(watch.kept() if trace.stopped else "".join(pieces), snippets)
        trace.timings_ms["generate"] = _ms(t)
        self._record_llm_call(trace, "generate")
        if self.config.guard and gen.found:
            checked = guard_answer(gen.text, q, snippets)
            trace.guard.extend(checked.notes)
            if checked.text != gen.text:
                gen = replace(gen, text=checked.text, found=bool(checked.text.strip()))
        if gen.found:
            kept = drop_sentences(gen.text, _noting(example_echo(snippets), trace))
            if kept != gen.text:
                gen = replace(gen, text=kept, found=bool(kept))
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

    def _record_llm_call(self, trace: Trace, stage: str) -> None:
        """Append the prompt/reply token counts of the model's last call, when the backend reports them."""
        llm = getattr(self.generator, "llm", None)
        stats = getattr(llm, "last_call", None)
        if isinstance(stats, LLMCall) and all(c.seq != stats.seq for c in trace.llm_calls):
            trace.llm_calls.append(replace(stats, stage=stage))

    def _streamed_steps(self, q: str, snippets: list[ScoredSnippet], vecs: np.ndarray, trace: Trace,
                        t0: float) -> Iterator[AnswerEvent]:
        """The streamed path: steps 2-4 run per sentence while step 1 streams (module doc)."""
        yield AnswerEvent(type="stage", name="generate")
        state = _Incremental(self, snippets, vecs, trace, q)
        valid = {s.citation for s in snippets}
        assembler = SentenceAssembler(state.on_sentence, valid_citations=valid, hold_prefix=NOT_FOUND_MARKER)
        state.assembler = assembler
        released: list[Piece] = []
        announced: list[str] = []
        t = time.perf_counter()

        def emit(pieces: list[Piece]) -> Iterator[AnswerEvent]:
            # attribution and media selection run per sentence: say when each first started
            for stage in state.started[len(announced):]:
                announced.append(stage)
                yield AnswerEvent(type="stage", name=stage)
            for piece in pieces:
                released.append(piece)
                if piece.media is None:
                    trace.timings_ms.setdefault("first_token", _ms(t0))
                    yield AnswerEvent(type="token", name="answer", text=piece.text)
                else:
                    trace.timings_ms.setdefault("first_media", _ms(t0))
                    yield AnswerEvent(type="media", block=piece.media, index=piece.sentence_index)

        evidence_ms = 0.0
        if isinstance(self.generator, LLMAnswerGenerator):
            te = time.perf_counter()
            messages = self.generator.messages(q, snippets)  # evidence selection and the prompt
            evidence_ms = trace.timings_ms["evidence"] = _ms(te)
            chunks = self.generator.stream_messages(messages)
        else:
            chunks = self.generator.stream(q, snippets)
        if self.config.guard:
            chunks = guard_stream(chunks, q, snippets, trace.guard)
        checked = 0  # complete sentences already checked for a repetition loop
        for chunk in chunks:
            if not assembler.raw.strip() and chunk.strip():
                trace.timings_ms["first_model_token"] = _ms(t0)
            if assembler.raw.lstrip().startswith(NOT_FOUND_MARKER):
                continue  # drain the model; a not-found answer shows nothing
            yield from emit(assembler.feed(chunk))
            grew, checked = len(assembler.sentences) > checked, len(assembler.sentences)
            trace.stopped = _loop_in(assembler.raw, assembler.sentences, valid, sentences_grew=grew)
            if trace.stopped:
                close = getattr(chunks, "close", None)
                if callable(close):
                    close()  # stops the model (generator finalisation ends the llama.cpp stream)
                break
        raw = assembler.raw
        trace.text_answer = raw.strip()
        self._record_llm_call(trace, "generate")
        if not released and (not raw.strip() or raw.lstrip().startswith(NOT_FOUND_MARKER)
                             or not self.generator.finish(raw, snippets).found):
            trace.timings_ms["generate"] = _ms(t)
            trace.timings_ms["total"] = _ms(t0)
            yield AnswerEvent(type="answer", answer=self._not_found(q, snippets, trace))
            return
        yield from emit(assembler.close())
        last = len(assembler.sentences) - 1
        yield from emit([Piece(media=b, sentence_index=last) for b in state.flush()])
        yield from emit(state.top_section())
        wall = _ms(t)
        trace.timings_ms["generate"] = round(wall - evidence_ms - state.attribute_ms - state.media_ms, 2)
        trace.timings_ms["attribute"] = round(state.attribute_ms, 2)
        trace.timings_ms["media"] = round(state.media_ms, 2)
        trace.attributions = state.attributions
        trace.media_selected = state.selected
        trace.refinement = RefinementTrace(draft="", used="none",
                                           reason="streamed: media placed after their sentences, text not rewritten")
        trace.timings_ms["total"] = _ms(t0)
        yield AnswerEvent(type="stage", name="render")
        blocks = blocks_of(released)
        if state.echoed:  # sentences copied from the prompt's example: shown while streaming, not kept
            blocks = without_sentences(blocks, _noting(state.echo, trace))
        if trace.stopped == _REPETITION:
            blocks = without_repeats(blocks)
        yield AnswerEvent(type="answer", answer=Answer(question=q, blocks=blocks, sources=snippets, found=True,
                                                       trace=trace))

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

    def warm_up(self) -> None:
        """Load the embedder and the generator now, run a first vector search and
        sentence split (pysbd compiles its rules on first use), and evaluate the
        generator's fixed prompt prefix (system prompt + example), so the first
        question pays none of it. Raises EmbeddingError/LLMError like :meth:`answer`."""
        self._search(self.embedder.embed(["warm up"])[0], "warm up")
        split_sentences("Warm up. Then answer.")
        llm = getattr(self.generator, "llm", None)
        warm = getattr(llm, "warm", None)
        if callable(warm) and isinstance(self.generator, LLMAnswerGenerator):
            warm(answer_messages("warm up", []))

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


@dataclass(slots=True)
class _Held:
    """A screenshot held on the streamed path (``MediaOptions.step_defer``) until a sentence
    does not describe its step better than the one it follows."""

    selection: MediaSelection
    sentence: str  # the answer sentence it follows unless the next one takes it
    step: np.ndarray  # its step text's vector
    similarity: float  # of ``step`` to ``sentence``: the next sentence must beat it


class _Incremental:
    """Per-sentence source attribution and media selection for the streamed path.

    Calls the same stage functions as the three-call path
    (:func:`murar.answer.attribute.attribute`, the configured media strategy) on
    the sentences known so far; an item, once placed, stays placed.
    """

    def __init__(self, pipeline: Pipeline, snippets: list[ScoredSnippet], vecs: np.ndarray, trace: Trace,
                 question: str = "") -> None:
        self.p = pipeline
        self.question = question
        self.snippets = snippets
        self.vecs = vecs
        self.trace = trace
        self.assembler: SentenceAssembler | None = None
        self.attributions: list[Attribution] = []
        #: vector of each attributed sentence, by its index in the answer
        self.sentence_vectors: dict[int, np.ndarray] = {}
        self.selected: list[MediaSelection] = []
        self.keys: set[str] = set()
        self.attribute_ms = 0.0
        self.media_ms = 0.0
        self.started: list[str] = []
        """Stages that have run at least once (``attribute``, ``media``), in order."""
        self.echo = example_echo(snippets)
        self.echoed = 0
        """Sentences copied from the prompt's example (:mod:`murar.answer.echo`): never attributed."""
        self.pending: list[_Held] = []
        """Screenshots held (``MediaOptions.step_defer``), all at the last sentence: chosen or taken there."""

    @functools.cached_property
    def sections(self) -> frozenset[str] | None:
        """The sections that may give media (:func:`~murar.answer.media.focus_sections`),
        found once per answer, at its first selection (not before the first token)."""
        return focus_sections(self.snippets, self.p.store, self.p.config.media, self.question)

    @functools.cached_property
    def citation_of(self) -> dict[str, int]:
        """The ``[n]`` number of each retrieved snippet, by snippet id (built once per answer)."""
        return {s.snippet.id: s.citation for s in self.snippets}

    def _vector_rows(self) -> np.ndarray:
        """Sentence vectors as the media strategies index them: row ``i`` is answer
        sentence ``i`` (zeros for a sentence that was not attributed, which no
        attribution points at). Shape ``(last index + 1, dim)``, float32."""
        dim = next(iter(self.sentence_vectors.values())).shape[-1]
        rows = np.zeros((max(self.sentence_vectors) + 1, dim), dtype=np.float32)
        for i, vec in self.sentence_vectors.items():
            rows[i] = vec
        return rows

    def on_sentence(self, index: int, sentence: str) -> SentenceOutcome:
        cfg = self.p.config
        t = time.perf_counter()
        if not self.started:
            self.started += ["attribute", "media"]
        if self.echo(sentence):
            self.echoed += 1
            self.attribute_ms += _ms(t)
            return SentenceOutcome(before=self.flush())
        a = self._attribute(index, sentence)
        if a is None:
            return SentenceOutcome(before=self.flush())
        self.attribute_ms += _ms(t)
        t = time.perf_counter()
        claimed, stay = self._claimed(index, a.snippet_id, sentence)
        before = self._place_held(stay)
        self.pending = claimed  # held again: the sentence after this one may describe them better still
        if (len(self.selected) + len(claimed) >= cfg.media.max_items
                or a.snippet_id is None and cfg.media_strategy == "section"):
            self.media_ms += _ms(t)
            return SentenceOutcome(citation=a.citation, before=before, hold=bool(self.pending))
        text = " ".join(self.assembler.sentences) if self.assembler is not None else sentence
        media = self.p._select(text, self.attributions, self._vector_rows(), self.question, self.sections)
        self.trace.media_candidates = media.candidates
        new: list[MediaSelection] = []
        for sel in media.selected:
            key = dedupe_key(sel.item)
            if key in self.keys or len(self.selected) + len(claimed) + len(new) >= cfg.media.max_items:
                continue
            self.keys.add(key)
            sel.sentence_index = index
            new.append(sel)
        now = []
        for sel in new:
            step = self._step_vector(sel)
            if step is None:
                now.append(sel)
            else:
                self.pending.append(_Held(sel, sentence, step, float(self.sentence_vectors[index] @ step)))
        blocks = self._place(now, sentence)
        self.media_ms += _ms(t)
        return SentenceOutcome(citation=a.citation, media=blocks, before=before, hold=bool(self.pending))

    def _step_vector(self, sel: MediaSelection) -> np.ndarray | None:
        """The vector of ``sel``'s step text (:func:`~murar.answer.media.step_text`) when it
        waits for the next sentence (an image, ``MediaOptions.step_defer`` and ``step_align``
        on), else ``None``: placed at once."""
        opts = self.p.config.media
        if not (opts.step_defer and opts.step_align) or sel.item.kind != "image":
            return None
        return np.asarray(self.p._memo.embed([step_text(sel.item)])[0])

    def _claimed(self, index: int, snippet_id: str | None, sentence: str) -> tuple[list[_Held], list[_Held]]:
        """:attr:`pending` split into the held screenshots that sentence ``index`` (attributed to
        ``snippet_id``) describes and the others, which stay after the sentence they were held at.
        Described: a sentence of their snippet whose similarity to their step text reaches
        ``step_min`` and beats the sentence they were held at. Those are returned held at
        ``sentence`` (with that similarity to beat): the sentence after it may describe them
        better still (``Use the icon at the top of each column to copy …`` two sentences after the
        one that brought the section in)."""
        if not self.pending or snippet_id is None:
            return [], self.pending
        vec = self.sentence_vectors[index]
        claimed: list[_Held] = []
        kept: list[_Held] = []
        for held in self.pending:
            sim = float(vec @ held.step)
            if held.selection.snippet_id == snippet_id and sim >= self.p.config.media.step_min and sim > held.similarity:
                held.selection.sentence_index, held.sentence, held.similarity = index, sentence, sim
                claimed.append(held)
            else:
                kept.append(held)
        return claimed, kept

    def flush(self) -> list[MediaBlock]:
        """Place the held screenshots after the sentence they were held at; their blocks."""
        held, self.pending = self.pending, []
        return self._place_held(held)

    def _place_held(self, held: list[_Held]) -> list[MediaBlock]:
        """Place ``held`` (all held at one sentence) after that sentence; their blocks."""
        return self._place([h.selection for h in held], held[0].sentence) if held else []

    def _attribute(self, index: int, sentence: str) -> Attribution | None:
        """Attribute answer sentence ``index`` and record it (with its vector); ``None``
        when the splitter finds no sentence in it."""
        cfg = self.p.config
        res = attribute(sentence, self.snippets, self.vecs, self.p.embedder, threshold=cfg.attribution_threshold,
                        options=cfg.attribution)
        if not res.attributions:
            return None
        k = max(range(len(res.attributions)), key=lambda i: res.attributions[i].score)
        a = res.attributions[k]
        self.attributions.append(Attribution(sentence_index=index, sentence=sentence, snippet_id=a.snippet_id,
                                             citation=a.citation, score=a.score))
        self.sentence_vectors[index] = np.asarray(res.sentence_vectors[k])
        return a

    def _place(self, new: list[MediaSelection], sentence: str) -> list[MediaBlock]:
        """Record ``new`` selections (placed after ``sentence``) and make their blocks;
        a block cites the snippet its selection came from (as :func:`~murar.answer.render.to_blocks`)."""
        shown = [sel.item.display_caption for sel in self.selected if sel.item.display_caption]
        self.selected.extend(new)
        assign_placeholders(self.selected)
        write_display_captions(new, None, {sel.sentence_index: sentence for sel in new}, taken=shown)
        if self.p.config.guard:
            self.trace.guard.extend(guard_media_captions(new))
        cite = self.citation_of
        blocks = [MediaBlock(type=sel.item.kind, item=sel.item, score=round(sel.score, 4),
                             citations=[cite[sel.snippet_id]] if sel.snippet_id in cite else [],
                             caption=sel.item.display_caption or sel.item.label) for sel in new]
        for b in blocks:
            if isinstance(b.item, VideoItem) and b.item.cues:  # start at the moment the sentence points at
                b.start_seconds = best_moment(strip_citations(sentence), b.item.cues)
        return blocks

    def top_section(self) -> list[Piece]:
        """After the last sentence: the top retrieved section's images when the answer
        brought no media (``MediaOptions.top_section``, ``top_section_tie``), citing the
        top snippet. The text is already out, so they go at the end, each after the
        document's own sentence that introduces it (:func:`~murar.answer.media.picture_lead`,
        cited and attributed like any answer sentence) when ``top_section_lead`` and it has
        one, else after the last sentence."""
        if self.selected or not self.sentence_vectors or self.assembler is None:
            return []
        t = time.perf_counter()
        picks = self.p._top_section(self.question, self.snippets, self._vector_rows())
        pieces: list[Piece] = []
        sentences = self.assembler.sentences
        for pick in picks:
            self.trace.media_candidates = [*self.trace.media_candidates, pick]
            lead = self.p._lead(pick, self.question, self.snippets)
            if not lead and self.p._lead_required():
                continue
            if lead and lead != sentences[-1]:
                sentences.append(lead)
                self._attribute(len(sentences) - 1, lead)
                pieces.append(Piece(text=" " + lead))
            pick.sentence_index = len(sentences) - 1
            pieces += [Piece(media=b, sentence_index=pick.sentence_index)
                       for b in self._place([pick], sentences[-1])]
        self.media_ms += _ms(t)
        return pieces


def _noting(echo: ExampleEcho, trace: Trace) -> Callable[[str], bool]:
    """``echo`` that also notes each sentence it flags in ``trace.guard``."""
    def drop(sentence: str) -> bool:
        if echo(sentence):
            trace.guard.append(f"removed a sentence copied from the prompt's example: {sentence[:120]!r}")
            return True
        return False
    return drop


_RUNAWAY = "runaway citations: the model was writing citation markers in a loop"
_REPETITION = "repetition: the model was writing the same sentences again"


def _loop_in(raw: str, sentences: list[str], valid: set[int], *, sentences_grew: bool = True) -> str:
    """Why the model should be stopped ("" to let it write on; else :data:`_RUNAWAY`
    or :data:`_REPETITION`): ``raw``, the text written so far, ends in a run of
    citation markers (:func:`runaway_citations`, checked on every piece) or its
    complete ``sentences`` repeat (:func:`repeating_sentences`, checked only when
    ``sentences_grew``: a sentence completed since the last check)."""
    if runaway_citations(raw, valid):
        return _RUNAWAY
    if sentences_grew and repeating_sentences(sentences):
        return _REPETITION
    return ""


class _LoopWatch:
    """A draft read piece by piece (the three-call path), checked by :func:`_loop_in`
    as the streamed path checks its :class:`SentenceAssembler`.

    ``feed(piece)`` returns why the model should stop ("" to go on); after a
    stop, ``kept()`` is the draft without the loop: for a repetition, the text
    before the repeated run of sentences; for runaway citations, the text before
    the run of markers. ``sentences`` are the complete sentences so far.
    """

    def __init__(self, valid: set[int]) -> None:
        self.valid = valid
        self.raw = ""
        self.sentences: list[str] = []
        self.reason = ""

    def feed(self, piece: str) -> str:
        self.raw += piece
        grew = False
        if any(c in piece for c in ".!?\n"):  # a sentence may have ended
            complete = split_answer(self.raw)[:-1]  # the last one may still be growing
            grew, self.sentences = len(complete) > len(self.sentences), complete
        self.reason = _loop_in(self.raw, self.sentences, self.valid, sentences_grew=grew)
        return self.reason

    def kept(self) -> str:
        if self.reason == _RUNAWAY:
            return without_trailing_citations(self.raw)
        if self.reason == _REPETITION:
            last = self.raw.rfind(self.sentences[-1])
            start = self.raw.rfind(self.sentences[-2], 0, last) if last >= 0 else -1
            # cut where the repeated run begins, keeping the draft's own line breaks
            return self.raw[:start].rstrip() if start >= 0 else " ".join(self.sentences[:-2])
        return self.raw


def _ms(t: float) -> float:
    return round((time.perf_counter() - t) * 1000.0, 2)


def embedder_for(name: str, index_dir: Path | None = None) -> Embedder:
    """The embedder an index was built with, by its recorded name.

    A tuned embedder (``murar tune-embedder``) is loaded from its folder
    beside the index folder ``index_dir`` (:func:`murar.embed.tuned.resolve_embedder`).

    Raises:
        ConfigError: the index was built with an embedder that needs settings
            (an OpenAI-compatible endpoint): pass ``embedder=`` explicitly.
        EmbedderMismatchError: a tuned embedder whose folder is missing or altered.
        ModelError: the index was built with mpnet and this machine has not
            prepared it (``murar models prepare --embedder mpnet``).
    """
    from murar.embed.fake import HashingEmbedder
    from murar.embed.minilm import MiniLMEmbedder
    from murar.embed.mpnet import NAME as MPNET_NAME
    from murar.embed.mpnet import MPNetEmbedder
    from murar.embed.tuned import is_tuned_name, resolve_embedder

    if is_tuned_name(name):
        return resolve_embedder(name, index_dir)
    if name == MiniLMEmbedder().name:
        return MiniLMEmbedder()
    if name == MPNET_NAME:
        return MPNetEmbedder()
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
        EmbedderMismatchError: ``embedder`` is not the one the index was built
            with, or the index's tuned embedder folder is missing or altered.
        ConfigError: inconsistent options.
    """
    from murar.embed.tuned import check_matches
    from murar.ingest.index import is_store_url, open_index

    opened = open_index(index_dir)
    folder = None if is_store_url(index_dir) else Path(index_dir)
    emb = embedder or embedder_for(opened.manifest.embedder, folder)
    check_matches(opened.manifest.embedder, emb, where=f"the index {index_dir}")
    generator: AnswerGenerator
    refiner: ChatModel | None
    evidence = (config or PipelineConfig()).evidence
    if chat_model is not None:
        generator, refiner = LLMAnswerGenerator(chat_model, evidence=evidence, embedder=emb), chat_model
    elif llm == "extractive":
        generator, refiner = ExtractiveAnswerGenerator(emb), None
    else:
        from murar.llm import CHAT_MODEL_KINDS, load_chat_model

        if llm not in CHAT_MODEL_KINDS:  # name every choice of this option, extractive included
            kinds = ", ".join((*CHAT_MODEL_KINDS[:-1], "extractive", CHAT_MODEL_KINDS[-1]))
            raise ConfigError(f"unknown llm {llm!r}; expected one of {kinds}")
        cm = load_chat_model(llm, base_url=base_url, model=model, api_key=api_key)
        generator, refiner = LLMAnswerGenerator(cm, evidence=evidence, embedder=emb), cm
    c = opened.manifest.counts
    stats = IndexStats(pages=c.get("pages", 0), sections=c.get("sections", 0), snippets=c.get("snippets", 0),
                       images=c.get("images", 0), tables=c.get("tables", 0), videos=c.get("videos", 0),
                       embedder=opened.manifest.embedder, corpus_root=opened.manifest.corpus_root,
                       built_at=opened.manifest.built_at, extra={"version": opened.manifest.version})
    return Pipeline(store=opened.store, embedder=emb, generator=generator, refiner=refiner, config=config,
                    corpus_root=opened.corpus_root, assets_dir=opened.assets_dir, stats=stats)
