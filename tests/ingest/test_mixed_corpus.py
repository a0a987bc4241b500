"""A folder mixing .md, .html and .pdf ingests in one run and each format answers questions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sample_png import PNG_64PX as PNG

from murar.answer.pipeline import load_pipeline
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index

pytestmark = pytest.mark.integration


HTML = """<!doctype html><html><head><title>Webhooks guide</title>
<link rel="canonical" href="https://docs.example.com/webhooks"></head><body>
<nav>Home | Products | Pricing</nav><div class="cookie-banner">We use cookies</div>
<main><h1>Webhooks guide</h1><h2>Register a webhook endpoint</h2>
<p>To register a webhook endpoint open the developer console and paste the endpoint URL.</p>
<figure><img src="img/console.png" alt="Developer console webhook form"><figcaption>The webhook form</figcaption></figure>
<script>document.title = 'hacked webhook'</script></main><footer>Copyright</footer></body></html>"""


def test_md_html_pdf_in_one_folder(tmp_path: Path, pdf_root: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "img").mkdir(parents=True)
    (corpus / "img" / "console.png").write_bytes(PNG)
    (corpus / "webhooks.html").write_text(HTML, encoding="utf-8")
    (corpus / "segments.md").write_text("# Segments\n\n## Build a segment\n\nSegments are built from rules "
                                        "on profile attributes in the segment builder.\n")
    shutil.copy2(pdf_root / "s2orc" / "N18-3011.pdf", corpus / "literature-graph.pdf")
    manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert not report.failed, [f.error for f in report.failed]
    assert manifest.counts["pages"] == 3
    p = load_pipeline(tmp_path / "idx", llm="extractive")
    cases = {
        "How do I register a webhook endpoint in the developer console?": "webhooks.html",
        "How are segments built from rules on profile attributes?": "segments.md",
        "What is the literature graph in Semantic Scholar?": "literature-graph.pdf",
    }
    for question, source in cases.items():
        a = p.answer(question)
        assert a.found, question
        assert a.sources[0].snippet.source_path == source, (question, a.sources[0].snippet.source_path)
    texts = " ".join(s.text for s in p.store.all_snippets())  # type: ignore[attr-defined]
    assert "hacked" not in texts and "We use cookies" not in texts and "Pricing" not in texts
