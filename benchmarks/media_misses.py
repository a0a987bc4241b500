"""Where each gold image is lost, over the cached model answers (issue 9).

Every gold image of every question is put in the first stage that loses it:

- ``hit``: selected;
- ``not indexed``: no displayable image of the index has its path;
- ``section not retrieved``: its section is not among the top-k snippets' sections;
- ``section not attributed``: retrieved, but no answer sentence is attributed to a snippet of it
  (the model answered from, or cited, another source);
- ``not a candidate``: attributed, but selection never considered it (``section_focus``,
  ``tab_match``, a flag at ingest);
- ``candidate not picked``: considered and not chosen.

Wrong picks (selected, not gold) are counted too. No model call: the answers
come from the caches of ``quality.py`` / ``docsites.py --quality`` (a question
whose answer is not cached is reported as such and skipped).

    python benchmarks/media_misses.py                         # dev.jsonl over the Adobe index
    python benchmarks/media_misses.py --docsites benchmarks/docsites_questions.jsonl [--list]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

from docsites import questions_by_corpus
from quality import SHARED, NotCached, replay_pipeline

from murar.eval.media_metrics import GoldQuestion, load_gold, normalise_path

STAGES = ("hit", "not indexed", "section not retrieved", "section not attributed", "not a candidate",
          "candidate not picked")


def _path(item: object) -> str:
    return normalise_path(str(getattr(item, "path", "") or ""))


def trace_misses(index: Path, cache: Path, golds: list[GoldQuestion], llm: str,
                 lines: list[str] | None = None) -> Counter[str]:
    """Counts per stage (:data:`STAGES`, plus ``wrong pick`` and ``answer not cached``) over ``golds``;
    with ``lines``, one line per lost gold image and per wrong pick is appended."""
    p = replay_pipeline(index, cache, llm)
    sections_of: dict[str, set[str]] = {}  # one picture may sit in several sections
    all_media = getattr(p.store, "all_media", None)  # the embedded stores list their media; the protocol does not
    if all_media is None:
        raise SystemExit(f"the store of {index} cannot list its media")
    hash_of: dict[str, str] = {}  # a byte-identical copy is the same picture, as score_media counts it
    for m in all_media():
        if m.kind == "image":
            sections_of.setdefault(_path(m), set()).add(m.section_id)
            if getattr(m, "content_hash", ""):
                hash_of[_path(m)] = m.content_hash
    counts: Counter[str] = Counter()
    for g in golds:
        if not g.gold_images:
            continue
        try:
            t = p.answer(g.question).trace
        except NotCached:
            counts["answer not cached"] += 1
            continue
        gold = {normalise_path(x) for x in g.gold_images}
        gold_of = {hash_of[x]: x for x in gold if x in hash_of}

        def same(path: str, gold: set[str] = gold, gold_of: dict[str, str] = gold_of) -> str:
            return path if path in gold else gold_of.get(hash_of.get(path, ""), path)

        selected = {same(_path(m.item)) for m in t.media_selected if m.item.kind == "image"}
        candidates = {same(_path(m.item)) for m in t.media_candidates}
        retrieved = {s.snippet.section_id for s in t.retrieved}
        attributed_ids = {a.snippet_id for a in t.attributions if a.snippet_id}
        attributed = {s.snippet.section_id for s in t.retrieved if s.snippet.id in attributed_ids}
        secs_of: dict[str, set[str]] = {}  # the sections showing each gold picture, under any file name
        for path, secs in sections_of.items():
            if (gp := same(path)) in gold:
                secs_of.setdefault(gp, set()).update(secs)
        for gp in sorted(gold):
            secs = secs_of.get(gp, set())
            stage = ("hit" if gp in selected else "not indexed" if not secs
                     else "section not retrieved" if not secs & retrieved
                     else "section not attributed" if not secs & attributed
                     else "candidate not picked" if gp in candidates else "not a candidate")
            counts[stage] += 1
            if lines is not None and stage != "hit":
                lines.append(f"  {g.id}: {stage}: {gp.rsplit('/', 1)[-1]}")
        for wrong in sorted(selected - gold):
            counts["wrong pick"] += 1
            if lines is not None:
                lines.append(f"  {g.id}: wrong pick: {wrong.rsplit('/', 1)[-1]}")
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llm", default="bundled")
    ap.add_argument("--docsites", type=Path, default=None, help="docs-site questions file (default: dev.jsonl)")
    ap.add_argument("--index", type=Path, default=None,
                    help="Adobe index (default benchmarks/out/adobe-<embedder>, as quality.py builds it)")
    ap.add_argument("--embedder", default="auto",
                    help="which indexes to read: auto (the product's default for a new index) | minilm | mpnet")
    ap.add_argument("--cache", type=Path, default=REPO / "benchmarks" / "out" / "answers")
    ap.add_argument("--index-root", type=Path, default=REPO / "benchmarks" / "out" / "docsites-idx")
    ap.add_argument("--docsites-cache", type=Path, default=REPO / "benchmarks" / "out" / "docsites-answers")
    ap.add_argument("--list", action="store_true", help="also one line per lost gold image and wrong pick")
    args = ap.parse_args()
    if args.embedder == "auto":
        from murar.cli.common import auto_embedder_kind

        args.embedder = auto_embedder_kind()
    if args.index is None:
        args.index = REPO / "benchmarks" / "out" / f"adobe-{args.embedder}"
    lines: list[str] | None = [] if args.list else None
    total: Counter[str] = Counter()
    if args.docsites is None:
        total = trace_misses(args.index, args.cache / f"{args.llm}.jsonl",
                             load_gold(SHARED / "eval" / "dev.jsonl"), args.llm, lines)
    else:
        for corpus, qs in sorted(questions_by_corpus(args.docsites).items()):
            index = args.index_root / f"{corpus}-{args.embedder}"
            if not index.exists():
                print(f"  {corpus}: no index at {index} (run docsites.py --quality first)")
                continue
            total += trace_misses(index, args.docsites_cache / f"{args.llm}.jsonl", qs, args.llm, lines)
    if lines:
        print("\n".join(lines))
    n = sum(total[s] for s in STAGES)
    print(f"\n{n} gold images ({args.llm} answers)")
    for stage in (*STAGES, "wrong pick", "answer not cached"):
        print(f"  {stage:24} {total[stage]:4d}" + (f"  {total[stage] / n:6.1%}" if stage in STAGES and n else ""))


if __name__ == "__main__":
    main()
