"""Answer and media quality on ../shared/eval/dev.jsonl (issue 9), both generators, one run.

For every question of the gold file, over the same index and in the same run:

- the answer text is written once per generator — the bundled model
  (``--llm bundled``, the product's default) and the extractive generator (no
  model) — and cached per (prompt version, question, retrieved snippets, and
  for the model the prompt messages) in ``--cache``: media selection does not need the model again, so
  re-running the benchmark after a selection change costs seconds;
- media are then selected on that text by the *previous* selection (the
  behaviour before issue 9: global attribution threshold, section-level pick,
  path dedup, no icon flags, no step alignment, no no-media decision) and by
  the *current* defaults, side by side;
- printed per generator x selection: media P/R/F1 per kind (micro), no-media
  rate on text-only questions, placement correctness (MuRAR 2.4: the item
  follows a sentence attributed to its own section), step placement (a
  screenshot follows the sentence describing its step: :func:`step_placement`), snippet recall@1/3/5
  (gold section), MiRAGE InfoP (reference mode, gold answer points) and CiteP
  (collection mode) with the embedding judge (each sentence one subclaim), and
  seconds per question (generation, from the cache when it was recorded, and
  attribution + selection measured now).

Refinement and model captions are off here (they are another issue's and cost a
model call each): placement is the code placement the refinement must keep.

    flock /work/bench.lock python benchmarks/quality.py --llm bundled [--limit N]
    python benchmarks/quality.py --llm none          # extractive only (seconds)

``--retrievers dense,hybrid-rrf`` runs the current selection once per snippet
retriever (:mod:`murar.store.hybrid`); the previous selection keeps the
dense retriever it had. ``--evidence max_chars=2000`` adds the model's answers
with another evidence budget (:class:`murar.answer.evidence.EvidenceOptions`) as
a second generator, same run.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import PackageNotFoundError, version
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from murar.answer.attribute import AttributionOptions
from murar.answer.evidence import EvidenceOptions
from murar.answer.generate import (
    AnswerGenerator,
    ExtractiveAnswerGenerator,
    GeneratedAnswer,
    strip_citations,
)
from murar.answer.media import MediaOptions, MemoEmbedder, TextEmbedder, step_text
from murar.answer.pipeline import Pipeline, PipelineConfig, load_pipeline
from murar.answer.prompts import PROMPT_VERSION
from murar.eval.claims import SentenceDecomposer
from murar.eval.judge import EmbeddingJudge
from murar.eval.media_metrics import load_gold
from murar.eval.run import EvalRun, evaluate_service
from murar.eval.scorer import MirageScorer
from murar.llm.base import ChatMessage
from murar.schema import Answer, ScoredSnippet
from murar.store.hybrid import RetrieverOptions

SHARED = REPO.parent / "shared"


@functools.cache
def runtime_fingerprint() -> str:
    """The model runtime that writes answers: llama-cpp-python's version and a hash of its
    compiled libraries (a rebuild of the same version on another machine can change greedy
    answers), or ``"none"`` when the package is not installed. Computed once per process
    (it reads about 8 MB of libraries)."""
    try:
        ver = version("llama-cpp-python")
    except PackageNotFoundError:
        return "none"
    spec = find_spec("llama_cpp")
    digest = hashlib.sha1()
    if spec is not None and spec.origin:
        for lib in sorted((Path(spec.origin).parent / "lib").glob("*.so")):
            digest.update(lib.read_bytes())
    return f"llama-cpp-python {ver} lib {digest.hexdigest()[:12]}"


def runtime_report(name: str, counts: Counter[str]) -> list[str]:
    """Lines saying which runtimes wrote the ``counts`` answers of generator ``name``, against
    this machine's (:func:`runtime_fingerprint`), with a note when they are not all this one."""
    now = runtime_fingerprint()
    lines = [f"{name} answers: " + ", ".join(f"{n} by {r}" for r, n in sorted(counts.items()))
             + f"; this machine: {now}"]
    if "unrecorded" in counts:
        lines.append("  note: answers marked unrecorded were cached before runtimes were recorded")
    if set(counts) - {now, "unrecorded"}:
        lines.append("  note: some answers were written by another model runtime build; "
                     "greedy answers can differ between builds, so compare rows of one run only")
    return lines


class NotCached(LookupError):
    """A replay-only :class:`CachedGenerator` has no recorded answer for this prompt."""


class CachedGenerator:
    """An :class:`AnswerGenerator` that replays answers recorded in a JSON-lines file.

    The key is the prompt version, question and snippet ids, with the prompt messages
    themselves when ``prompt`` builds them (so two evidence budgets never share an answer,
    and generators of one model with the same prompt do). A miss calls the real generator
    (built lazily by ``make``) and appends the answer with its generation time in seconds and the model runtime that wrote it
    (:func:`runtime_fingerprint`); with ``make=None`` the generator only replays and a miss
    raises :class:`NotCached`. :meth:`runtimes` counts the answers used per runtime,
    so a report can say when they were not all written by one build. One file holds one
    model's answers (the key names the generator only when there is no ``prompt``).
    """

    def __init__(self, name: str, make: Callable[[], AnswerGenerator] | None, path: Path,
                 prompt: Callable[[str, list[ScoredSnippet]], list[ChatMessage]] | None = None) -> None:
        self.name = name
        self._make = make
        self._prompt = prompt
        # building the prompt selects evidence (~0.14 s of embedding); every selection replays
        # the same question, so each key is computed once per process
        self._keys: dict[tuple[str, str], str] = {}
        self._inner: AnswerGenerator | None = None
        self.path = path
        self.cache: dict[str, dict[str, Any]] = {}
        self.last_seconds = 0.0
        self.misses = 0
        self._used: dict[str, str] = {}  # cache key -> runtime of the answer used
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    rec = json.loads(line)
                    self.cache[rec["key"]] = rec

    def _key(self, question: str, snippets: list[ScoredSnippet]) -> str:
        ids = ",".join(s.snippet.id for s in snippets)
        memo = self._keys.get((question, ids))
        if memo is not None:
            return memo
        key = f"{PROMPT_VERSION}\x1f{question}\x1f{ids}"
        if self._prompt is not None:  # the prompt text itself: an evidence or prompt change is a miss
            key += "\x1f" + json.dumps([[m.role, m.content] for m in self._prompt(question, snippets)])
        else:
            key = f"{self.name}\x1f{key}"
        self._keys[(question, ids)] = digest = hashlib.sha1(key.encode()).hexdigest()
        return digest

    def generate(self, question: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
        key = self._key(question, snippets)
        rec = self.cache.get(key)
        if rec is None:
            if self._make is None:
                raise NotCached(f"no {self.name} answer recorded in {self.path} for {question!r}")
            if self._inner is None:
                self._inner = self._make()
            t0 = time.perf_counter()
            g = self._inner.generate(question, snippets)
            rec = {"key": key, "question": question, "text": g.text, "found": g.found, "raw": g.raw,
                   "seconds": round(time.perf_counter() - t0, 3), "load": os.getloadavg()[0],
                   "runtime": "none" if self.name == "extractive" else runtime_fingerprint()}
            self.cache[key] = rec
            self.misses += 1
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec) + "\n")
        self.last_seconds = float(rec["seconds"])
        self._used[key] = str(rec.get("runtime", "unrecorded"))
        return GeneratedAnswer(text=rec["text"], found=bool(rec["found"]), raw=rec["raw"])

    def runtimes(self) -> Counter[str]:
        """Distinct answers used so far, per runtime that wrote them (``unrecorded``: older records)."""
        return Counter(self._used.values())

    def stream(self, question: str, snippets: list[ScoredSnippet]) -> Iterator[str]:
        yield self.generate(question, snippets).raw

    def finish(self, raw: str, snippets: list[ScoredSnippet]) -> GeneratedAnswer:
        return GeneratedAnswer(text=raw, found=bool(raw.strip()), raw=raw)


def replay_pipeline(index: Path, cache: Path, llm: str = "bundled") -> Pipeline:
    """The product's pipeline over ``index`` (current selection, no refinement or model
    captions) answering with ``llm``'s answers recorded in ``cache``, without loading the
    model: a question whose prompt has no recorded answer raises :class:`NotCached`."""
    from murar.answer.generate import answer_prompt

    base = load_pipeline(index, llm="extractive")
    emb = base.embedder
    gen = CachedGenerator(llm, None, cache,
                          prompt=functools.partial(answer_prompt, evidence=PipelineConfig().evidence, embedder=emb))
    return Pipeline(store=base.store, embedder=emb, generator=gen, refiner=None,
                    config=PipelineConfig(refine=False, display_captions=False),
                    corpus_root=base.corpus_root, assets_dir=base.assets_dir)


def previous_config() -> PipelineConfig:
    """The selection before issue 9 (every issue-9 lever off; dense retriever)."""
    return PipelineConfig(attribution=AttributionOptions.previous(), media=MediaOptions.previous(),
                          refine=False, display_captions=False, retriever=RetrieverOptions(kind="dense"))


def _f(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def step_placement(answers: Iterable[Answer | None], embedder: TextEmbedder, step_min: float) -> tuple[int, int]:
    """How many shown screenshots follow the answer sentence describing their step, of how many
    were scored: a screenshot is scored when a sentence attributed to its snippet is at least
    ``step_min`` similar to its step text (:func:`murar.answer.media.step_text`); it counts when it
    follows the most similar of those sentences (as the three-call path's step alignment places it,
    which sees the whole answer; the streamed path decides with one sentence of lookahead)."""
    ok = n = 0
    for answer in answers:
        if answer is None:
            continue
        atts = answer.trace.attributions
        for sel in answer.trace.media_selected:
            own = [a for a in atts if a.snippet_id == sel.snippet_id]
            if sel.item.kind != "image" or not own:
                continue
            vecs = embedder.embed([step_text(sel.item)] + [strip_citations(a.sentence) for a in own])
            sims = vecs[1:] @ vecs[0]
            best = int(np.argmax(sims))
            if float(sims[best]) >= step_min:
                n += 1
                ok += sel.sentence_index == own[best].sentence_index
    return ok, n


def summary_row(name: str, run: EvalRun, gen_seconds: list[float], select_ms: list[float],
                step: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    m = run.media
    assert m is not None
    r = run.retrieval
    row: dict[str, Any] = {
        "name": name,
        "micro": m.micro, "no_media_rate_text_only": m.no_media_rate, "n_text_only": m.n_text_only,
        "placement": m.placement, "n_placement": m.n_placement,
        "step_placement": step[0] / step[1] if step[1] else None, "n_step_placement": step[1],
        "answers_with_media": sum(1 for q in run.results if q.answer is not None and q.answer.media),
        "recall_at": r.recall_at if r else None, "mrr": r.mrr if r else None,
        "info_p_reference": run.info_reference.precision if run.info_reference else None,
        "cite_p_collection": run.cite_collection.precision if run.cite_collection else None,
        "generate_s_mean": statistics.fmean(gen_seconds) if gen_seconds else None,
        "select_ms_p50": statistics.median(select_ms) if select_ms else None,
        "failed": [q.question.id for q in run.results if q.error],
        "per_question": [
            {"id": q.question.id, "kind": q.question.kind,
             "media": [b.item.id for b in q.answer.media] if q.answer else [],
             "unmatched": q.media.unmatched if q.media else [],
             "f1_all": q.media.by_kind["all"].f1 if q.media else None}
            for q in run.results],
    }
    return row


def print_rows(rows: list[dict[str, Any]]) -> None:
    head = (f"{'generator / selection':40s} {'img P':>6s} {'img R':>6s} {'img F1':>6s} {'tab F1':>6s} "
            f"{'vid F1':>6s} {'all F1':>6s} {'noMedia':>7s} {'place':>6s} {'step':>6s} {'R@1':>5s} {'R@3':>5s} {'R@5':>5s} "
            f"{'InfoP':>6s} {'CiteP':>6s} {'gen s':>6s} {'sel ms':>6s}")
    print(head)
    print("-" * len(head))
    for row in rows:
        mi = row["micro"]
        ra = row["recall_at"] or {}
        print(f"{row['name']:40s} {_f(mi['image']['precision']):>6s} {_f(mi['image']['recall']):>6s} "
              f"{_f(mi['image']['f1']):>6s} {_f(mi['table']['f1']):>6s} {_f(mi['video']['f1']):>6s} "
              f"{_f(mi['all']['f1']):>6s} {_f(row['no_media_rate_text_only']):>7s} {_f(row['placement']):>6s} "
              f"{_f(row['step_placement']):>6s} "
              f"{_f(ra.get(1)):>5s} {_f(ra.get(3)):>5s} {_f(ra.get(5)):>5s} "
              f"{_f(row['info_p_reference']):>6s} {_f(row['cite_p_collection']):>6s} "
              f"{_f(row['generate_s_mean']):>6s} {row['select_ms_p50'] or 0:6.1f}")


class _Timed:
    """Wraps a pipeline to record per-question generation and selection times."""

    def __init__(self, p: Pipeline, gen: CachedGenerator) -> None:
        self.p, self.gen = p, gen
        self.gen_seconds: list[float] = []
        self.select_ms: list[float] = []

    def answer(self, question: str) -> Answer:
        a = self.p.answer(question)
        t = a.trace.timings_ms
        if "generate" in t:
            self.gen_seconds.append(self.gen.last_seconds)
            self.select_ms.append(t.get("attribute", 0.0) + t.get("media", 0.0))
        return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=None,
                    help="index folder (default benchmarks/out/adobe-<embedder>[-ocr], <embedder> the product's default "
                         "for a new index: mpnet when prepared, else minilm)")
    ap.add_argument("--ocr-images", action="store_true",
                    help="index with screenshots' OCR text in their representation (murar ingest --ocr-images)")
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpora" / "adobe-docs")
    ap.add_argument("--questions", type=Path, default=SHARED / "eval" / "dev.jsonl")
    ap.add_argument("--llm", default="bundled", help="bundled | bundled-small | none (extractive only)")
    ap.add_argument("--cache", type=Path, default=REPO / "benchmarks" / "out" / "answers")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--no-mirage", action="store_true", help="skip InfoP/CiteP (faster)")
    ap.add_argument("--ablation", action="store_true", help="also the current selection with each lever off (and rule 0, off by default, on)")
    ap.add_argument("--generators", default=None, help="comma-separated subset: extractive,bundled")
    ap.add_argument("--json-out", type=Path, default=REPO / "benchmarks" / "out" / "quality.json")
    ap.add_argument("--retrievers", default="dense,hybrid-minmax",
                    help="snippet retrievers of the current selection (dense | lexical | hybrid-rrf | hybrid-minmax)")
    ap.add_argument("--media", action="append", default=[], metavar="KEY=VALUE",
                    help="also the current dense selection with these MediaOptions fields overridden, "
                         "e.g. step_min=0.55 (repeatable; one extra row beside the defaults)")
    ap.add_argument("--attribution", action="append", default=[], metavar="KEY=VALUE",
                    help="AttributionOptions fields overridden in the --media row (or in an extra row alone), "
                         "e.g. cited_threshold=none (repeatable)")
    ap.add_argument("--evidence", action="append", default=[], metavar="KEY=VALUE",
                    help="also the model's answers with these EvidenceOptions fields overridden, "
                         "e.g. max_chars=2000 (repeatable; one extra generator row set)")
    args = ap.parse_args()

    print(f"load average at start: {os.getloadavg()}", flush=True)
    from query import ensure_index, option_overrides, retriever_options, with_options

    from murar.cli.common import auto_embedder_kind

    kind = auto_embedder_kind()  # the product's default for a new index (murar ingest --embedder auto)
    if args.index is None:
        args.index = REPO / "benchmarks" / "out" / f"adobe-{kind}{'-ocr' if args.ocr_images else ''}"
    ensure_index(args.corpus, args.index, ocr_images=args.ocr_images, embedder=kind)
    golds = load_gold(args.questions)[: args.limit]
    base = load_pipeline(args.index, llm="extractive")
    emb = base.embedder
    gens: list[CachedGenerator] = [
        CachedGenerator("extractive", lambda: ExtractiveAnswerGenerator(emb), args.cache / "extractive.jsonl")]
    if args.llm != "none":
        from murar.answer.generate import LLMAnswerGenerator, answer_prompt

        def make_llm(evidence: EvidenceOptions | None) -> Callable[[], AnswerGenerator]:
            def make() -> AnswerGenerator:
                from murar.llm import load_chat_model

                # as the product builds it (load_pipeline): evidence sentences in the prompt
                return LLMAnswerGenerator(load_chat_model(args.llm), evidence=evidence, embedder=emb)
            return make

        variants = [(args.llm, PipelineConfig().evidence)]
        if args.evidence:  # a candidate evidence budget beside the default, one cache file
            over = option_overrides(args.evidence)
            variants.append((args.llm + "+" + ",".join(f"{k}={v}" for k, v in over.items()),
                             dataclasses.replace(PipelineConfig().evidence or EvidenceOptions(), **over)))
        for name, evidence in variants:
            gens.append(CachedGenerator(name, make_llm(evidence), args.cache / f"{args.llm}.jsonl",
                                        prompt=functools.partial(answer_prompt, evidence=evidence, embedder=emb)))
    if args.generators:
        keep = set(args.generators.split(","))
        gens = [g for g in gens if g.name in keep]
    judge = EmbeddingJudge(emb)
    steps = MemoEmbedder(emb)  # every selection row scores the same answers' step texts and sentences
    scorer = None if args.no_mirage else MirageScorer(judge)
    rows: list[dict[str, Any]] = []

    current = PipelineConfig(refine=False, display_captions=False)
    selections = [("previous", previous_config())]
    for name in [r.strip() for r in args.retrievers.split(",") if r.strip()]:
        selections.append((f"current {name}", dataclasses.replace(current, retriever=retriever_options(name))))
    if args.media or args.attribution:  # a candidate lever beside the defaults, same answers
        over, attr = option_overrides(args.media), option_overrides(args.attribution)
        selections.append(("current +" + ",".join(f"{k}={v}" for k, v in {**over, **attr}.items()),
                           with_options(current, media=over, attribution=attr)))
    if args.ablation:  # the current defaults with one lever off at a time
        levers_off = MediaOptions.previous()  # every issue-9 lever off: a lever is a field it sets apart
        for f in dataclasses.fields(MediaOptions):
            off = getattr(levers_off, f.name)
            if off != getattr(current.media, f.name):
                selections.append((f"current -{f.name}", with_options(current, media={f.name: off})))
        selections.append(("current -cited", with_options(current, attribution={"cited_threshold": None})))
        selections.append(("current -separation", with_options(current, attribution={"separation": None})))
        # rule 0 is off by default (rule 0b covers verbatim copies): the row measures turning it back on
        selections.append(("current +cited_copy", with_options(current, attribution={"cited_copy": 0.6})))
        selections.append(("current -uncited_copy", with_options(current, attribution={"uncited_copy": None})))
    for gen in gens:
        for sel_name, cfg in selections:
            p = Pipeline(store=base.store, embedder=emb, generator=gen, refiner=None, config=cfg,
                         corpus_root=base.corpus_root, assets_dir=base.assets_dir)
            timed = _Timed(p, gen)
            def progress(n: int, total: int, g: CachedGenerator = gen, before: int = gen.misses) -> None:
                if g.misses > before and n % 5 == 0:  # only while this selection makes the model write
                    print(f"  {g.name}: {n}/{total} answered (load {os.getloadavg()[0]:.2f})", flush=True)

            run = evaluate_service(timed, golds, scorer=scorer, decomposer=SentenceDecomposer(),
                                   corpus_root=base.corpus_root, progress=progress)
            rows.append(summary_row(f"{gen.name} / {sel_name}", run, timed.gen_seconds, timed.select_ms,
                                    step_placement((q.answer for q in run.results), steps, cfg.media.step_min)))
    print(f"\nquestions: {len(golds)}  index: {args.index}  load average at end: {os.getloadavg()}")
    print("micro P/R/F1 per kind; noMedia = share of text-only questions answered without media; "
          "gen s = mean generation seconds (as recorded in the cache)\n")
    print_rows(rows)
    runtimes = {g.name: g.runtimes() for g in gens if g.name != "extractive"}
    for name, counts in runtimes.items():
        print("\n" + "\n".join(runtime_report(name, counts)))
    args.json_out.parent.mkdir(parents=True, exist_ok=True)
    args.json_out.write_text(json.dumps({"n_questions": len(golds), "rows": rows, "runtimes": runtimes,
                                         "load_end": os.getloadavg()}, indent=2, default=str))
    print(f"\nwritten {args.json_out}")


if __name__ == "__main__":
    main()
