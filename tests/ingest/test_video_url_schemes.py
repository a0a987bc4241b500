"""QA: a video whose URL is javascript:/file: was kept as a media item (the ingest warned
"not read, not kept", yet the answer's video block carried ``javascript:alert(2)``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index


@pytest.mark.parametrize("name, page", [
    ("p.md", ("# Reset\n\nOpen Account Settings and click Reset.\n\n"
             '<iframe src="javascript:alert(2)"></iframe>\n\n<video src="file:///etc/passwd"></video>\n')),
    ("p.html", ("<html><body><h1>Reset</h1><p>Open Account Settings and click Reset.</p>"
               '<video src="javascript:alert(1)"></video><video src="file:///etc/passwd"></video></body></html>')),
])
def test_non_web_video_urls_are_never_kept(tmp_path: Path, name: str, page: str) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / name).write_text(page)
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.pages == 1 and report.videos == 0
    warnings = " ".join(report.warnings)
    assert "javascript" in warnings
