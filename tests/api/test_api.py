"""The public Python API (``import murar``) on a small real corpus, hashing embedder, extractive generator."""

from __future__ import annotations

import base64
import doctest
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from small_index import REPO, copy_corpus

import murar
from murar.schema import ImageItem

pytestmark = pytest.mark.integration

QUESTION = "How do I copy the server call URL to the clipboard?"


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory, adobe_root: Path) -> Path:
    return copy_corpus(adobe_root, tmp_path_factory.mktemp("api"))


@pytest.fixture(scope="module")
def index(docs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    idx = tmp_path_factory.mktemp("api-index") / "idx"
    report = murar.build_index(docs, idx, embedder="hashing")
    assert report.pages == 12 and not report.failed
    return idx


@pytest.fixture(scope="module")
def assistant(index: Path) -> murar.Assistant:
    return murar.Assistant(index, llm="extractive")


def test_import_is_light_and_all_resolves() -> None:
    code = ("import sys, murar; heavy = [m for m in ('onnxruntime', 'lancedb', 'llama_cpp', 'numpy', 'pyarrow') "
            "if m in sys.modules]; print(heavy); import murar.ingest; print(type(murar.ingest).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["[]", "module"]
    for name in murar.__all__:
        assert getattr(murar, name) is not None, name
    assert callable(murar.build_index) and murar.ingest.__name__ == "murar.ingest"
    assert (Path(murar.__file__).parent / "py.typed").is_file()


@pytest.mark.parametrize("module", ["murar.api.build", "murar.api.assistant"])
def test_docstring_examples_run(module: str, docs: Path, tmp_path: Path) -> None:
    mod = __import__(module, fromlist=["_"])
    tests = doctest.DocTestFinder().find(mod, globs={"docs": docs, "index_dir": tmp_path / "idx"})
    examples = [t for t in tests if t.examples]
    assert examples, f"no doctest in {module}"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for t in examples:
        runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 3


def test_ask_renders_markdown_and_html_with_the_screenshot(assistant: murar.Assistant, docs: Path) -> None:
    answer = assistant.ask(QUESTION)
    assert answer.found and answer.sources and answer.trace.timings_ms["total"] > 0
    images = [b for b in answer.media if isinstance(b.item, ImageItem)]
    assert images, answer.markdown()
    md = answer.markdown(base_dir=docs)
    links = re.findall(r"!\[[^\]]*\]\(<([^>]+)>\)", md)
    assert links and all((docs / link.replace("%20", " ")).is_file() for link in links)
    assert "**Sources**" in md and "[1]" in md
    html = answer.html()
    assert html.startswith('<div class="murar-answer">') and "<figure>" in html
    data = re.search(r'src="data:(image/[a-z]+);base64,([^"]+)"', html)
    assert data is not None
    from PIL import Image

    with Image.open(io.BytesIO(base64.b64decode(data.group(2)))) as img:
        assert img.width > 50
    assert answer.to_dict()["markdown"].startswith(answer.blocks[0].text[:20])
    assert answer.image_bytes(images[0].item) is not None


def test_stream_yields_typed_events_ending_with_the_answer(assistant: murar.Assistant) -> None:
    events = list(assistant.stream(QUESTION))
    assert isinstance(events[0], murar.StageEvent) and events[0].stage == "retrieve"
    assert any(isinstance(e, murar.TokenEvent) for e in events)
    final = events[-1]
    assert isinstance(final, murar.FinalAnswerEvent)
    assert final.answer.text == assistant.ask(QUESTION).text
    stages = [e.stage for e in events if isinstance(e, murar.StageEvent)]
    assert stages[:2] == ["retrieve", "generate"] and "media" in stages
    # media stream while the text does, in the final answer's order
    streamed = [e.block.item.id for e in events if isinstance(e, murar.MediaEvent)]
    assert streamed and streamed == [b.item.id for b in final.answer.media]
    text_pieces = "".join(e.text for e in events if isinstance(e, murar.TokenEvent) and e.name == "answer")
    assert " ".join(text_pieces.split()) == " ".join(final.answer.text.split())


def test_search_returns_snippets_with_their_section_media(assistant: murar.Assistant) -> None:
    hits = assistant.search("copy the server call URL to the clipboard", k=3)
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].score >= hits[1].score >= hits[2].score
    assert hits[0].snippet.source_path == f"{REPO}/help/network.md"
    media = [m for h in hits for m in h.metadata["media"] if m["kind"] == "image"]
    assert media and all(Path(m["path"]).is_file() for m in media)
    assert hits[0].metadata["snippet_id"] == hits[0].snippet.id


def test_illustrate_places_media_in_a_foreign_answer(assistant: murar.Assistant, index: Path) -> None:
    text = ("Open the Network screen to see every Experience Cloud solution call made on the page. "
            "Click the icon at the top of a column to copy the server call URL to your clipboard.")
    hits = assistant.search(QUESTION, k=3)
    answer = assistant.illustrate(text, sources=hits, question=QUESTION)
    assert answer.media and answer.trace.models["generator"] == "external"
    assert re.search(r"\[\d\]", answer.text), "attribution should cite the sources"
    # plain text sources are matched to the nearest snippet of the index
    by_text = murar.illustrate(text, index, sources=[h.text for h in hits], question=QUESTION)
    assert [s.snippet.id for s in by_text.sources] == [h.snippet.id for h in hits]
    # no sources: retrieved for the question
    assert murar.illustrate(text, index, question=QUESTION).sources


def test_errors_are_typed(assistant: murar.Assistant, tmp_path: Path) -> None:
    with pytest.raises(murar.ConfigError):
        assistant.ask("   ")
    with pytest.raises(murar.ConfigError):
        list(assistant.stream(""))
    with pytest.raises(murar.ConfigError):
        assistant.search("network", k=0)
    with pytest.raises(murar.ConfigError):
        assistant.illustrate("  ")
    missing = murar.Assistant(tmp_path / "nope", llm="extractive")  # no I/O yet
    with pytest.raises(murar.IndexNotFoundError, match="murar ingest"):
        missing.ask(QUESTION)
    with pytest.raises(murar.IngestError):
        murar.build_index(tmp_path / "no-corpus", tmp_path / "idx", embedder="hashing")


def test_evaluate_runs_the_metrics(assistant: murar.Assistant, eval_root: Path, tmp_path: Path) -> None:
    seen: list[int] = []
    run = assistant.evaluate(eval_root / "dev.jsonl", judge=None, limit=3, out_dir=tmp_path / "report",
                             progress=lambda n, total: seen.append(n))
    assert seen == [1, 2, 3] and len(run.results) == 3
    assert run.media is not None and run.retrieval is not None
    assert all(r.error is None for r in run.results)
    assert (tmp_path / "report").is_dir() and any((tmp_path / "report").iterdir())


def test_build_index_reads_the_language_and_docs_version_asked_for(tmp_path: Path) -> None:
    """A made-up Docusaurus site in English and French: ``language="fr"`` indexes the French
    translation where there is one; a locale the site lacks is a ConfigError listing its own."""
    site = tmp_path / "site"
    files = {"docusaurus.config.js": "module.exports = { i18n: { defaultLocale: 'en', locales: ['en', 'fr'] } };\n",
             "docs/setup.md": "# Setup\n\nInstall the agent.\n",
             "i18n/fr/docusaurus-plugin-content-docs/current/setup.md": "# Installation\n\nInstallez l'agent.\n"}
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    report = murar.build_index(site, tmp_path / "idx", embedder="hashing", language="fr", docs_version="current")
    # one docs version only (no versions.json): the summary names the language, no version
    assert report.pages == 1 and report.site["language"] == "fr" and "docs_version" not in report.site
    assert {f.path: f.error for f in report.skipped}["docs/setup.md"] == \
        "read from its translation i18n/fr/docusaurus-plugin-content-docs/current/setup.md (locale fr)"
    with pytest.raises(murar.ConfigError, match="it has en, fr"):
        murar.build_index(site, tmp_path / "idx2", embedder="hashing", language="de")
