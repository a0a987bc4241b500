"""The real Adobe docs corpus ingests completely (hashing embedder: parse + chunk + store)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index, open_index

pytestmark = pytest.mark.integration


def test_all_adobe_pages_ingest(tmp_path: Path, adobe_root: Path) -> None:
    manifest, report = build_index(adobe_root, tmp_path / "idx", embedder=HashingEmbedder())
    pages = [json.loads(line)["local"] for line in (adobe_root / "manifest.jsonl").read_text().splitlines()]
    assert not report.failed
    assert manifest.counts["pages"] >= len(pages)
    assert manifest.counts["images"] > 1000 and manifest.counts["tables"] > 100 and manifest.counts["videos"] > 40
    # missing images listed by the corpus are reported (links inside HTML comments are not
    # content and are not reported); none crashes the run
    missing = [ln.split("\t") for ln in (adobe_root / "missing_images.tsv").read_text().splitlines()]
    warned = "\n".join(report.warnings)
    names = [p[2].rsplit("/", 1)[-1] for p in missing if len(p) == 3 and "{{" not in p[2]]
    hits = [n for n in names if n in warned]
    assert "conversions-by-day.gif" in hits
    assert len(hits) >= len(names) - 3, sorted(set(names) - set(hits))
    store = open_index(tmp_path / "idx").store
    emb = HashingEmbedder()
    for s in store.all_snippets():
        assert s.n_tokens <= emb.max_tokens
