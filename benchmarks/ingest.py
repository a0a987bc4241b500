"""Ingest benchmark (issue: end-to-end pipeline): the full Adobe docs sample.

Prints pages/s, items/s (snippets + media embedded), peak RSS and the share of
wall time spent outside embedding. Writes into a temporary folder (or --index);
../shared stays read-only.

    python benchmarks/ingest.py [--corpus ../shared/corpora/adobe-docs] [--embedder minilm|hashing]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from murar.cli.common import build_embedder
from murar.ingest.index import build_index


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpora" / "adobe-docs")
    ap.add_argument("--embedder", default="minilm")
    ap.add_argument("--index", type=Path, default=None, help="index folder (default: a temporary one)")
    ap.add_argument("--reingest", action="store_true", help="also time a second, unchanged ingest")
    ap.add_argument("--json-out", type=Path, default=None)
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="murar-bench-")
    index = args.index or Path(tmp.name) / "idx"
    emb = build_embedder(args.embedder)
    t0 = time.perf_counter()
    _manifest, report = build_index(args.corpus, index, embedder=emb)
    wall = time.perf_counter() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    items = report.snippets + report.images + report.tables + report.videos
    embed_s = report.seconds["embed"]
    result = {
        "embedder": emb.name,
        "pages": report.pages, "snippets": report.snippets, "images": report.images,
        "tables": report.tables, "videos": report.videos, "failed": len(report.failed),
        "warnings": len(report.warnings),
        "wall_s": round(wall, 2), "stage_s": {k: round(v, 2) for k, v in report.seconds.items()},
        "pages_per_s": round(report.pages / wall, 2), "items_per_s": round(items / wall, 1),
        "embed_items_per_s": round(items / embed_s, 1) if embed_s else None,
        "share_outside_embedding": round(1 - embed_s / wall, 3),
        "peak_rss_mb": round(rss_mb, 1),
    }
    if args.reingest:
        t1 = time.perf_counter()
        _, r2 = build_index(args.corpus, index, embedder=emb)
        result["reingest_s"] = round(time.perf_counter() - t1, 2)
        result["reingest_reused_embeddings"] = r2.reused_embeddings
    for k, v in result.items():
        print(f"{k:28s} {v}")
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps(result, indent=2))
    tmp.cleanup()


if __name__ == "__main__":
    main()
