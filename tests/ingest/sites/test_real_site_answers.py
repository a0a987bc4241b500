"""Real Hugo, Jekyll and DocFX corpora: a part of each site is ingested through
murar's normal path (generator detected above the folder, its rules applied) and a
step question is answered with the screenshot of that step."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from murar.answer.pipeline import PipelineConfig, load_pipeline
from murar.embed.minilm import MiniLMEmbedder
from murar.ingest.budget import FileBudget
from murar.ingest.index import build_index
from murar.schema import ImageItem

# Convert in-process: this test process has LanceDB indexes open from earlier cases, and
# forking it for the per-file time budget can deadlock the child (LanceDB warns that fork
# support is experimental); seen here as a 180 s timeout on the last case of a long session.
INLINE = FileBudget(max_seconds=0)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CASES = [
    # (corpus, folder walked below the generator's config, generator, question, gold image)
    ("hugo-nginx-documentation", "content/nginx/deployment-guides/amazon-web-services", "hugo",
     "Which Amazon Machine Image do I select for the Linux distribution of my NGINX EC2 instance?",
     "static/img/aws/aws-nlb-instance-choose-ami.png"),
    ("jekyll-opensearch-documentation-website", "_dashboards/dev-tools", "jekyll",
     "How do I send a request from the Dev Tools console in OpenSearch Dashboards?",
     "images/dev-tools/dev-tools-send.png"),
    ("docfx-powerquery-docs", "powerquery-docs/connectors/web", "docfx",
     "How do I enter the URL of a web page in the Basic dialog of the Web connector?",
     "powerquery-docs/connectors/web/web-basic-url.png"),
]


@pytest.mark.parametrize(("corpus", "folder", "generator", "question", "gold"), CASES,
                         ids=[c[2] for c in CASES])
def test_question_answered_with_the_step_screenshot(docsite: Callable[[str], Path], tmp_path: Path, corpus: str,
                                                    folder: str, generator: str, question: str, gold: str) -> None:
    root = docsite(corpus)
    _manifest, report = build_index(root / folder, tmp_path / "idx", embedder=MiniLMEmbedder(),
                    budget=INLINE)
    assert report.site.get("generator") == generator, report.site
    assert report.pages >= 1 and not report.failed
    assert report.unresolved == [], report.unresolved[:5]
    pipeline = load_pipeline(tmp_path / "idx", llm="extractive", config=PipelineConfig(media_strategy="hybrid"))
    answer = pipeline.answer(question)
    assert answer.found
    images = [b.item for b in answer.media if isinstance(b.item, ImageItem)]
    # paths in the index are relative to the site root (the folder holding the generator's config)
    site_root = Path(report.site.get("root", root))
    shown = {(site_root / i.path).resolve() for i in images if i.path}
    assert (root / gold).resolve() in shown, [i.path for i in images]
