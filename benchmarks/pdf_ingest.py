"""Benchmark of the PDF converter: speed, memory, what it finds, text fidelity.

Usage::

    .venv/bin/python benchmarks/pdf_ingest.py [--root ../shared/corpora/pdf] [--ocr] [--json]

Ingests every PDF under ``--root`` (assets to a temporary directory) and prints
per file: pages, seconds, sections, figures, tables, warnings; then overall
pages/s, peak RSS and the image drops by reason.

Text fidelity, for each PDF with ``docling/groundtruth/<stem>.md``: token-level
F1 between our extracted text and the groundtruth Markdown. Tokens are
``re.findall(r"\\w+", text.lower())`` (so Markdown markup such as ``#``, ``|``,
``**`` does not count); precision = |ours ∩ gt| / |ours| and recall =
|ours ∩ gt| / |gt| with ∩ the multiset intersection (each token counted
min(count_ours, count_gt) times); F1 their harmonic mean. "Our text" is the
title, every section's heading path and text, figure captions and table cells
(headers + rows), i.e. all text the index sees. Order is ignored: this measures
coverage and noise, not reading order.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from murar.errors import IngestError
from murar.ingest.pdf import PdfOptions, convert_pdf
from murar.schema import ImageItem, ParsedDocument, TableItem

DEFAULT_ROOT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "pdf"
_TOKEN = re.compile(r"\w+")


def tokens(text: str) -> Counter[str]:
    """Lower-cased word tokens as a multiset."""
    return Counter(_TOKEN.findall(text.lower()))


def token_f1(ours: str, gold: str) -> tuple[float, float, float]:
    """(precision, recall, F1) of the multiset token overlap."""
    a, b = tokens(ours), tokens(gold)
    common = sum((a & b).values())
    if not a or not b or not common:
        return 0.0, 0.0, 0.0
    p, r = common / sum(a.values()), common / sum(b.values())
    return p, r, 2 * p * r / (p + r)


def document_text(doc: ParsedDocument) -> str:
    """All text of a parsed document (see module docstring)."""
    parts = [doc.title]
    seen_headings: set[tuple[str, ...]] = set()
    for s in doc.sections:
        for i in range(1, len(s.heading_path)):
            hp = s.heading_path[: i + 1]
            if hp not in seen_headings:
                seen_headings.add(hp)
                parts.append(hp[-1])
        parts.append(s.text)
    for m in doc.media:
        parts.append(m.caption)
        if isinstance(m, TableItem):
            parts.append(" ".join(m.headers))
            parts.extend(" ".join(r) for r in m.rows)
    return "\n".join(parts)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--ocr", action="store_true", help="OCR pages without a text layer and figures")
    ap.add_argument("--json", action="store_true", help="print one JSON object per file")
    args = ap.parse_args(argv)
    root: Path = args.root.resolve()
    files = sorted(root.rglob("*.pdf"))
    gt_dir = root / "docling" / "groundtruth"
    opts = PdfOptions(ocr=args.ocr)
    total_pages, total_s, failures = 0, 0.0, 0
    drops: Counter[str] = Counter()
    f1s: list[tuple[str, float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        if not args.json:
            print(f"{'file':48s} {'pages':>5s} {'sec':>6s} {'sect':>4s} {'figs':>4s} {'tabs':>4s} {'warn':>4s}  F1")
        for f in files:
            rel = f.relative_to(root).as_posix()
            t0 = time.perf_counter()
            try:
                doc = convert_pdf(f, root=root, assets_dir=Path(tmp), options=opts)
            except IngestError as err:
                failures += 1
                print(f"{rel:48s} IngestError: {err}")
                continue
            dt = time.perf_counter() - t0
            total_pages += doc.pages or 0
            total_s += dt
            for w in doc.warnings:
                m = re.match(r"dropped image [^:]+: ([a-z ]+)", w)
                if m:
                    drops[m.group(1).strip()] += 1
            figs = sum(isinstance(m, ImageItem) for m in doc.media)
            tabs = sum(isinstance(m, TableItem) for m in doc.media)
            gt = gt_dir / f"{f.stem}.md"
            f1_txt = ""
            row: dict[str, object] = {"file": rel, "pages": doc.pages, "seconds": round(dt, 3),
                                      "sections": len(doc.sections), "figures": figs, "tables": tabs,
                                      "warnings": len(doc.warnings)}
            if gt.exists():
                p, r, f1 = token_f1(document_text(doc), gt.read_text(encoding="utf-8", errors="replace"))
                f1s.append((rel, p, r, f1))
                f1_txt = f"{f1:.3f} (P {p:.3f} R {r:.3f})"
                row.update(precision=round(p, 4), recall=round(r, 4), f1=round(f1, 4))
            if args.json:
                print(json.dumps(row))
            else:
                print(f"{rel:48s} {doc.pages or 0:5d} {dt:6.2f} {len(doc.sections):4d} {figs:4d} {tabs:4d} "
                      f"{len(doc.warnings):4d}  {f1_txt}")
    summary = {
        "files": len(files), "failures": failures, "pages": total_pages, "seconds": round(total_s, 2),
        "pages_per_s": round(total_pages / total_s, 2) if total_s else 0.0,
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "mean_f1": round(sum(x[3] for x in f1s) / len(f1s), 4) if f1s else None,
        "drops": dict(drops),
    }
    print(json.dumps(summary) if args.json else "\n" + "\n".join(f"{k}: {v}" for k, v in summary.items()))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
