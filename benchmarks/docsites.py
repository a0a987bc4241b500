"""Documentation-site benchmark (issue 8): every generator corpus plus the Adobe docs.

Per corpus: generator detected, pages, includes, skipped files, images / tables /
videos found, image+video references by status, the resolution rate (resolved /
references whose target exists in the corpus) and parse seconds. Nothing is
embedded in this mode (walk + classify + convert only: the part that decides
what murar can show).

    python benchmarks/docsites.py [--corpus NAME ...] [--json OUT]
    python benchmarks/docsites.py --quality [--embedder auto|minilm|mpnet|hashing] [--llm bundled]

With ``--quality`` (questions from ``--questions``, default
``benchmarks/docsites_questions.jsonl``; several files are pooled), each corpus is indexed (with the product's default for a new
index unless ``--embedder`` says otherwise: mpnet when prepared, else MiniLM)
and its questions are answered; image precision/recall/F1 against the gold
images, the share of text-only questions answered without media and gold page
recall@5 are reported per corpus and pooled over the corpora, with the
extractive generator, and also with the bundled LLM under ``--llm bundled``
(run that on an idle machine). The model's answers are cached in ``--cache``,
so ``--media KEY=VALUE`` (a :class:`~murar.answer.media.MediaOptions` field)
compares selections in minutes.

Seven question files: ``docsites_questions.jsonl`` (5 image + 3 text-only
questions per generator) is the one selection choices may be made on;
``docsites_heldout.jsonl`` (6 image + 2 text-only per generator, other pages)
and ``docsites_heldout2.jsonl`` (4 image + 1 text-only per generator, pages of
neither other file; written after the first held-out set had been consulted
for two decisions) are for reporting only. ``docsites_heldout3.jsonl`` (2 image
+ 3 text-only per generator, one site 1 + 4; pages of no other file) was
written blind to the selection code, after the other two had been consulted,
to test the choices made on them: mostly text-only questions on pages that
have pictures, where a selector is tempted to show one. ``docsites_heldout4.jsonl``
(40 more, 28 text-only; two sites have no unused page with a picture left, so
only text-only questions there) was written the same way, after the third
had been consulted, to decide ``need_visual_cue`` by a rule fixed in advance.
``docsites_heldout5.jsonl`` and ``docsites_heldout6.jsonl`` (40 each, written
the same way, each after the one before had been consulted) measure the
defaults on questions nobody had looked at; few unused pages with pictures are
left, so they are mostly text-only.
Every question names a page the site builds and a section as rendered
(``tests/test_benchmark_questions.py``).

``--retrievers dense,lexical,hybrid-rrf`` (with ``--quality``) compares the
snippet retrievers on every corpus: gold section/page recall@1/@5, MRR and
store milliseconds per query (``compare_retrievers`` of ``query.py``), and the
extractive runs' image F1 per retriever; the last table pools all questions.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
os.environ.setdefault("LANCEDB_LOG", "error")
os.environ.setdefault("LANCE_LOG", "error")

import logging

from murar.ingest.corpus import IngestReport, convert_corpus, walk_site
from murar.ingest.sites.detect import open_site

SHARED = REPO.parent / "shared"
DOCSITES = SHARED / "corpora" / "docsites"
ADOBE = SHARED / "corpora" / "adobe-docs"
QUESTIONS = REPO / "benchmarks" / "docsites_questions.jsonl"


def questions_by_corpus(*paths: Path) -> dict[str, list[Any]]:
    """The gold questions (:class:`~murar.eval.media_metrics.GoldQuestion`) of one or more
    docs-site questions files, per the ``corpus`` folder name each line carries, in file order
    (the files in the order given; their ids are unique across files, a test checks it)."""
    from murar.eval.media_metrics import load_gold

    by: dict[str, list[Any]] = {}
    for path in paths:
        for g in load_gold(path):
            by.setdefault(g.corpus, []).append(g)
    return by


def corpora(names: list[str] | None) -> list[Path]:
    found = sorted(p for p in DOCSITES.iterdir() if p.is_dir()) if DOCSITES.is_dir() else []
    if ADOBE.is_dir():
        found.append(ADOBE)
    if names:
        found = [p for p in found if p.name in names]
    return found


def _every_file(start: Path, root: Path) -> set[str]:
    """Every file under ``start`` by an independent walk (a hidden folder counts as one
    entry, ``path/``), relative to ``root``: what the report must account for."""
    out: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(start):
        here = Path(dirpath)
        for d in [d for d in dirnames if d.startswith(".")]:
            out.add((here / d).relative_to(root).as_posix() + "/")
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        out.update((here / f).relative_to(root).as_posix() for f in filenames)
    return out


def measure(corpus: Path) -> dict[str, Any]:
    """Walk, classify and convert ``corpus``; counts and the reference accounting."""
    t0 = time.perf_counter()
    sel = open_site(corpus)
    site = sel.site
    walk = walk_site(site, under=sel.walk)
    report = IngestReport()
    with tempfile.TemporaryDirectory() as tmp:
        docs = convert_corpus(site.config.root, assets_dir=Path(tmp), report=report, site=site, walk=walk)
    seconds = time.perf_counter() - t0
    media = Counter(m.kind for d in docs for m in d.media)
    statuses = Counter(f.status for f in report.files)
    unresolved = Counter(r.status for r in report.unresolved)
    stats = report.assets
    silent = len(_every_file(sel.walk, site.config.root) - {f.path for f in report.files})
    return {
        "corpus": corpus.name, "generator": site.config.generator, "config": site.config.config_file,
        "pages": len(docs), "failed": len(report.failed), "includes": statuses.get("include", 0),
        "skipped": statuses.get("skipped", 0), "assets": statuses.get("asset", 0),
        "images": media.get("image", 0), "tables": media.get("table", 0), "videos": media.get("video", 0),
        "references": stats.references, "by_status": stats.by_status,
        "resolved": stats.resolved, "resolvable": stats.resolvable,
        "resolution_rate": stats.resolution_rate, "broken_upstream": stats.missing_absent,
        "unresolved_by_reason": dict(unresolved), "silent_skips": silent,
        "unresolved": [{"page": r.source_path, "link": r.link, "status": r.status, "reason": r.reason}
                       for r in report.unresolved if not (r.status == "missing" and r.path and
                                                          Path(r.path).name.lower() not in walk.file_names)],
        "seconds": round(seconds, 2),
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    head = (f"{'corpus':42} {'generator':11} {'pages':>5} {'incl':>4} {'img':>4} {'tbl':>4} {'vid':>4} "
            f"{'refs':>5} {'rate':>7} {'unres (reason)':24} {'broken':>6} {'silent':>6} {'sec':>6}")
    print(head)
    print("-" * len(head))
    for r in rows:
        rate = f"{r['resolution_rate']:.1%}" if r["resolution_rate"] is not None else "n/a"
        unres = ", ".join(f"{n} {k}" for k, n in sorted(r["unresolved_by_reason"].items())) or "-"
        print(f"{r['corpus'][:42]:42} {r['generator']:11} {r['pages']:5} {r['includes']:4} {r['images']:4} "
              f"{r['tables']:4} {r['videos']:4} {r['references']:5} {rate:>7} {unres[:24]:24} "
              f"{r['broken_upstream']:6} {r['silent_skips']:6} {r['seconds']:6.1f}")


def _fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def quality(corpus: Path, questions: list[Any], *, embedder_name: str, llm: str, index_root: Path,
            retrievers: list[str] | None = None, cache: Path | None = None,
            media: dict[str, Any] | None = None, attribution: dict[str, Any] | None = None,
            ocr_images: bool = False, evidence: dict[str, Any] | None = None) -> dict[str, Any]:
    """Index ``corpus`` and answer its questions; media P/R/F1 against the gold images,
    and the share of text-only questions answered without media.

    The index goes to ``index_root/<corpus>`` and is reused when it exists
    (incremental ingest: unchanged pages are not re-embedded). With ``cache``,
    the model's answers are recorded there (``<llm>.jsonl``, keyed by prompt
    version, question and retrieved snippets) and replayed on the next run, so a
    media-selection change is measured in seconds (``quality.CachedGenerator``).
    ``media`` overrides fields of :class:`~murar.answer.media.MediaOptions` in every run,
    ``attribution`` those of :class:`~murar.answer.attribute.AttributionOptions`, ``evidence``
    those of the model's :class:`~murar.answer.evidence.EvidenceOptions` (the prompt is in the
    cache key, so answers of another budget are written anew).
    ``ocr_images``: screenshots' OCR text goes into their representation (``murar
    ingest --ocr-images``), cached by image content beside the index; the index is then
    ``<corpus>-<embedder>-ocr`` and ``ocr`` in the result gives OCR counts and seconds.
    """
    from quality import step_placement
    from query import ocr_options, with_options

    from murar.answer.evidence import EvidenceOptions
    from murar.answer.generate import (
        AnswerGenerator,
        ExtractiveAnswerGenerator,
        LLMAnswerGenerator,
    )
    from murar.answer.media import MemoEmbedder
    from murar.answer.pipeline import Pipeline, PipelineConfig, load_pipeline
    from murar.cli.common import build_embedder
    from murar.eval.media_metrics import normalise_path, score_media, summarise_media
    from murar.ingest.index import build_index

    index = index_root / f"{corpus.name}-{embedder_name}{'-ocr' if ocr_images else ''}"
    t0 = time.perf_counter()
    _, report = build_index(corpus, index, embedder=build_embedder(embedder_name), **ocr_options(index, ocr_images))
    ingest_s = time.perf_counter() - t0
    base = load_pipeline(index, llm="extractive")
    steps = MemoEmbedder(base.embedder)  # each generator's run scores the step texts of one corpus
    runs: dict[str, Any] = {}
    table: dict[str, Any] = {}
    kinds = ["extractive"] + ([llm] if llm != "none" else [])
    if retrievers:
        from query import compare_retrievers, print_retrievers, retriever_options

        table = compare_retrievers(base.store, base.embedder, questions, retrievers)
        print_retrievers(table, corpus.name)
        kinds = [f"extractive/{r}" for r in retrievers] + kinds[1:]
    for kind in kinds:
        if kind.startswith("extractive"):
            retr = retriever_options(kind.partition("/")[2]) if "/" in kind else None
            config = PipelineConfig(refine=False) if retr is None else PipelineConfig(refine=False, retriever=retr)
            p = Pipeline(store=base.store, embedder=base.embedder, generator=ExtractiveAnswerGenerator(base.embedder),
                         refiner=None, config=config, corpus_root=base.corpus_root,
                         assets_dir=base.assets_dir)
        else:
            p = load_pipeline(index, llm=kind)
            live = p.generator
            if evidence and isinstance(live, LLMAnswerGenerator):
                live.evidence = dataclasses.replace(live.evidence or EvidenceOptions(), **evidence)
            if cache is not None:
                from quality import CachedGenerator

                prompt = live.messages if isinstance(live, LLMAnswerGenerator) else None

                def make(g: AnswerGenerator = live) -> AnswerGenerator:
                    return g

                p.generator = CachedGenerator(kind, make, cache / f"{kind}.jsonl", prompt=prompt)
        p.config = with_options(p.config, media=media, attribution=attribution)
        t1 = time.perf_counter()
        answers = [p.answer(g.question) for g in questions]
        secs = time.perf_counter() - t1
        scores = [score_media(a, g, base.corpus_root) for a, g in zip(answers, questions)]
        summary = summarise_media(scores)
        page_hits = [float(normalise_path(g.page) in {normalise_path(s.snippet.source_path)
                                                        for s in a.trace.retrieved[:5]})
                     for a, g in zip(answers, questions)]
        runs[kind] = {"image": summary.micro["image"], "macro_image": summary.macro["image"],
                      "step_placement": step_placement(answers, steps, p.config.media.step_min),
                      "no_media_rate": summary.no_media_rate, "n_text_only": summary.n_text_only,
                      "page_recall_at5": sum(page_hits) / len(page_hits) if page_hits else None,
                      "seconds_per_question": secs / max(len(questions), 1),
                      "runtimes": p.generator.runtimes() if hasattr(p.generator, "runtimes") else {},
                      "per_question": [{"id": g.id, "predicted": [m.item.path if hasattr(m.item, "path") else None
                                                                  for m in a.media],
                                        "gold": list(g.gold_images)} for a, g in zip(answers, questions)]}
    return {"corpus": corpus.name, "ingest_seconds": round(ingest_s, 1), "ocr": report.ocr, "runs": runs,
            "retrievers": table}


def print_quality(rows: list[dict[str, Any]], embedder_name: str) -> None:
    print(f"\nmedia quality per corpus (images, micro; embedder {embedder_name}; load average "
          f"{os.getloadavg()[0]:.2f}, shared machine)")
    print(f"{'corpus':42} {'generator':24} {'P':>6} {'R':>6} {'F1':>6} {'noMedia':>7} {'pageR@5':>7} {'s/q':>6} "
          f"{'step':>7}")
    for r in rows:
        for kind, run in r["runs"].items():
            m = run["image"]
            print(f"{r['corpus'][:42]:42} {kind:24} {_fmt(m['precision']):>6} {_fmt(m['recall']):>6} "
                  f"{_fmt(m['f1']):>6} {_fmt(run.get('no_media_rate')):>7} {_fmt(run['page_recall_at5']):>7} "
                  f"{run['seconds_per_question']:6.2f} {_steps(run):>7}")
    from quality import runtime_report

    recorded: dict[str, Counter[str]] = {}
    for r in rows:
        for kind, run in r["runs"].items():
            if run.get("runtimes"):
                recorded.setdefault(kind, Counter()).update(run["runtimes"])
    for kind, counts in recorded.items():  # which model build wrote the cached answers
        print("\n".join(runtime_report(kind, counts)))
    if len(rows) > 1:  # every corpus's questions pooled (micro), per generator
        for kind in rows[0]["runs"]:
            runs = [r["runs"][kind] for r in rows if kind in r["runs"]]
            p_, r_, f1 = pooled_image(runs)
            n_text = sum(run.get("n_text_only") or 0 for run in runs)
            no_media = sum(run["no_media_rate"] * run["n_text_only"] for run in runs if run.get("n_text_only"))
            ok = sum(run.get("step_placement", (0, 0))[0] for run in runs)
            n = sum(run.get("step_placement", (0, 0))[1] for run in runs)
            print(f"{'all corpora pooled':42} {kind:24} {p_:6.3f} {r_:6.3f} {f1:6.3f} "
                  f"{_fmt(no_media / n_text if n_text else None):>7} {'':7} {'':6} {ok:>3}/{n:<3}")


def _steps(run: dict[str, Any]) -> str:
    """``followed/scored`` screenshots after the sentence describing their step (:func:`quality.step_placement`)."""
    ok, n = run.get("step_placement", (0, 0))
    return f"{ok}/{n}"


def pooled_image(runs: list[dict[str, Any]]) -> tuple[float, float, float]:
    """Image micro (precision, recall, F1) over several corpora's runs, from their pooled counts."""
    tp = sum(run["image"]["tp"] or 0 for run in runs)
    pred = sum(run["image"]["n_pred"] or 0 for run in runs)
    gold = sum(run["image"]["n_gold"] or 0 for run in runs)
    p_ = tp / pred if pred else 0.0
    r_ = tp / gold if gold else 0.0
    return p_, r_, (2 * p_ * r_ / (p_ + r_) if p_ + r_ else 0.0)


def print_pooled(rows: list[dict[str, Any]], retrievers: list[str]) -> None:
    """Retrieval metrics and image F1 over the questions of every corpus (weighted by questions),
    and the corpora on which each retriever is best or tied at section recall@5."""
    from query import print_retrievers

    pooled: dict[str, dict[str, float]] = {}
    for name in retrievers:
        n = sum(r["retrievers"][name]["n"] for r in rows)
        keys = [k for k in rows[0]["retrievers"][name] if k != "n"]
        pooled[name] = {k: sum(r["retrievers"][name][k] * r["retrievers"][name]["n"] for r in rows) / n for k in keys}
        pooled[name]["n"] = n
    print_retrievers(pooled, f"all {len(rows)} corpora pooled (ms: mean of the per-corpus percentiles)")
    print(f"  {'retriever':14s} {'image P':>8s} {'image R':>8s} {'image F1':>8s}  (extractive, micro over corpora)")
    for name in retrievers:
        p_, r_, f1 = pooled_image([r["runs"][f"extractive/{name}"] for r in rows])
        print(f"  {name:14s} {p_:8.3f} {r_:8.3f} {f1:8.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", nargs="*", help="corpus folder names (default: all)")
    ap.add_argument("--json", type=Path, help="write every row (with the unresolved references) here")
    ap.add_argument("--show-unresolved", type=int, default=5, help="unresolved references listed per corpus")
    ap.add_argument("--quality", action="store_true", help="also index each corpus and score its questions")
    ap.add_argument("--ocr-images", action="store_true",
                    help="with --quality: index with screenshots' OCR text in their representation")
    ap.add_argument("--questions", type=Path, nargs="+", default=[QUESTIONS],
                    help="question files; several are answered in one pass per corpus and pooled "
                         "(e.g. benchmarks/docsites_heldout*.jsonl: every set never tuned on)")
    ap.add_argument("--embedder", default="auto", help="auto (default: the product's choice for a new index, "
                    "mpnet when prepared, else minilm) | minilm | mpnet | hashing (fast, for smoke runs)")
    ap.add_argument("--llm", default="none", help="also answer with: bundled | bundled-small (use flock)")
    ap.add_argument("--index-root", type=Path, default=REPO / "benchmarks" / "out" / "docsites-idx")
    ap.add_argument("--media", action="append", default=[], metavar="KEY=VALUE",
                    help="override a MediaOptions field in every run, e.g. need_visual_cue=false (repeatable)")
    ap.add_argument("--attribution", action="append", default=[], metavar="KEY=VALUE",
                    help="override an AttributionOptions field in every run, e.g. cited_threshold=none")
    ap.add_argument("--evidence", action="append", default=[], metavar="KEY=VALUE",
                    help="override an EvidenceOptions field of the model's prompt, e.g. max_chars=2000")
    ap.add_argument("--cache", type=Path, default=REPO / "benchmarks" / "out" / "docsites-answers",
                    help="model answers are recorded and replayed here ('none': always call the model)")
    ap.add_argument("--retrievers", default="", help="with --quality: compare these snippet retrievers "
                                                       "(e.g. dense,lexical,hybrid-rrf,hybrid-minmax)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.quality:
        from query import option_overrides

        from murar.cli.common import auto_embedder_kind

        if args.embedder == "auto":
            args.embedder = auto_embedder_kind()

        by_corpus = questions_by_corpus(*args.questions)
        retrievers = [r.strip() for r in args.retrievers.split(",") if r.strip()]
        qrows = []
        for corpus in corpora(args.corpus):
            qs = by_corpus.get(corpus.name, [])
            if qs:
                qrows.append(quality(corpus, qs, embedder_name=args.embedder, llm=args.llm,
                                     index_root=args.index_root, retrievers=retrievers,
                                     cache=None if str(args.cache) == "none" else args.cache,
                                     media=option_overrides(args.media),
                                     attribution=option_overrides(args.attribution), ocr_images=args.ocr_images,
                                     evidence=option_overrides(args.evidence)))
                print_quality(qrows[-1:], args.embedder)
        print_quality(qrows, args.embedder)
        if retrievers:
            print_pooled(qrows, retrievers)
        if args.json:
            args.json.with_suffix(".quality.json").write_text(json.dumps(qrows, indent=2, default=str))
        return
    rows = [measure(c) for c in corpora(args.corpus)]
    print(f"load average: {os.getloadavg()[0]:.2f} (shared machine); no embedding (walk + classify + convert)")
    print_table(rows)
    for r in rows:
        shown = [u for u in r["unresolved"] if u["status"] != "remote"][: args.show_unresolved]
        for u in shown:
            print(f"  {r['corpus']}: {u['status']} {u['link']!r} in {u['page']}: {u['reason']}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
