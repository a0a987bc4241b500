"""Documentation-site benchmark (issue 8): every generator corpus plus the Adobe docs.

Per corpus: generator detected, pages, includes, skipped files, images / tables /
videos found, image+video references by status, the resolution rate (resolved /
references whose target exists in the corpus) and parse seconds. Nothing is
embedded in this mode (walk + classify + convert only: the part that decides
what murar can show); ``--embed hashing`` also builds a full index with the
hashing embedder to time the whole ingest.

    python benchmarks/docsites.py [--corpus NAME ...] [--json OUT] [--embed none|hashing]

With ``--questions`` (default ``benchmarks/docsites_questions.jsonl``) and
``--quality``, each corpus is also indexed (MiniLM unless ``--embedder hashing``)
and its questions are answered; media precision/recall/F1 against the gold
images are reported per corpus, with the extractive generator, or with the
bundled LLM under ``--llm bundled`` (run that under ``flock /work/bench.lock``).
"""

from __future__ import annotations

import argparse
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


def corpora(names: list[str] | None) -> list[Path]:
    found = sorted(p for p in DOCSITES.iterdir() if p.is_dir()) if DOCSITES.is_dir() else []
    if ADOBE.is_dir():
        found.append(ADOBE)
    if names:
        found = [p for p in found if p.name in names]
    return found


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
    silent = len(walk.pages) + len(walk.others) - len(report.files) + (len(walk.pages) - len(docs)
                                                                       - len(report.failed))
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", nargs="*", help="corpus folder names (default: all)")
    ap.add_argument("--json", type=Path, help="write every row (with the unresolved references) here")
    ap.add_argument("--show-unresolved", type=int, default=5, help="unresolved references listed per corpus")
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
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
