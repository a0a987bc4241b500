"""End to end: a small real index (two Adobe pages + a hostile page), the real
pipeline with a scripted model, the live server, headless Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_browser import watch_page
from server_live import LiveServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

REPO = "AdobeDocs+experience-platform-docs"
HOSTILE_PAGE = """---
title: Embed code help
---

# Embed code help

## Open the embed code dialog

To open the embed code dialog, click the Embed Code icon on the Tools screen,
type your embed code and click Save. <script>window.__xss = 'doc-script';</script>
Never paste `<script>window.__xss = 'doc-code'</script>` from untrusted pages.
<img src=x onerror="window.__xss = 'doc-img'">

![Embed code dialog <img src=x onerror="window.__xss='alt'">](assets/tools-embedcode.jpg)
"""
ANSWER = (
    "To open the embed code dialog, click the Embed Code icon on the Tools screen [1]. "
    "Never paste <script>window.__xss = 'answer'</script> from untrusted pages [1]."
)
QUESTION = "How do I open the embed code dialog on the Tools screen?"


@pytest.fixture(scope="module")
def small_index(
    tmp_path_factory: pytest.TempPathFactory, adobe_root: Path
) -> tuple[Path, Path]:
    pytest.importorskip(
        "murar.ingest.index", reason="the ingest module is not available"
    )
    from murar.embed.fake import HashingEmbedder
    from murar.ingest.index import build_index

    root = tmp_path_factory.mktemp("e2e")
    src = adobe_root / REPO / "help"
    help_dir = root / "corpus" / REPO / "help"
    (help_dir / "assets").mkdir(parents=True)
    shutil.copyfile(src / "tools.md", help_dir / "tools.md")
    for name in ("tools.jpg", "tools-embedcode.jpg"):
        shutil.copyfile(src / "assets" / name, help_dir / "assets" / name)
    (help_dir / "embed-code-help.md").write_text(HOSTILE_PAGE, encoding="utf-8")
    index = root / "index"
    manifest, _ = build_index(root / "corpus", index, embedder=HashingEmbedder())
    assert manifest.counts["images"] >= 2
    return index, root


@pytest.fixture(scope="module")
def e2e_server(small_index: tuple[Path, Path]) -> Iterator[LiveServer]:
    from murar.answer.pipeline import load_pipeline
    from murar.llm.fake import ScriptedChatModel
    from murar.server import ServerConfig, create_app

    index, root = small_index
    pipeline = load_pipeline(
        index, chat_model=ScriptedChatModel(responder=lambda messages: ANSWER)
    )
    app = create_app(
        pipeline,
        config=ServerConfig(feedback_dir=root / "feedback", examples=(QUESTION,)),
    )
    with LiveServer(app) as srv:
        yield srv


def test_browser_renders_real_index_image_and_runs_no_document_script(
    e2e_server: LiveServer, page: Any
) -> None:
    seen = watch_page(page)
    page.goto(e2e_server.url + "/")
    page.wait_for_selector(".chip")
    page.click(".chip")  # the example question
    page.wait_for_selector(".assistant[aria-busy=false]", timeout=60_000)
    assert page.locator(".error-card").count() == 0, page.inner_text(".assistant")

    images = page.locator(".answer-body figure.media-image img")
    assert images.count() >= 1
    first = images.first
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0",
        arg=first.element_handle(),
        timeout=10_000,
    )
    assert first.evaluate("i => i.naturalWidth") > 100  # a real screenshot, decoded
    assert first.get_attribute("src").startswith("/v1/media/")

    text = page.inner_text(".answer-body")
    assert "<script>window.__xss = 'answer'</script>" in text  # shown as text
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.evaluate("document.querySelectorAll('script').length") == 1

    page.locator(".answer-body .cite").first.click()
    page.wait_for_selector("#drawer:not([hidden])")
    drawer = page.inner_text("#drawer-body")
    assert "embed code dialog" in drawer.lower() and "embed-code-help.md" in drawer
    page.keyboard.press("Escape")
    page.click(".how summary")
    assert page.locator(".how .trace-list li.chosen").count() >= 1
    page.wait_for_timeout(300)
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert seen["dialogs"] == [] and seen["errors"] == [], seen


def test_api_on_real_index_serves_only_index_images(e2e_server: LiveServer) -> None:
    data = httpx.post(
        e2e_server.url + "/v1/answer", json={"question": QUESTION}, timeout=60
    ).json()
    images = [b for b in data["blocks"] if b["type"] == "image"]
    assert images and all(b["item"]["media_url"] for b in images)
    r = httpx.get(e2e_server.url + images[0]["item"]["media_url"], timeout=10)
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    assert (
        httpx.get(e2e_server.url + "/v1/media/0000000000000000", timeout=10).status_code
        == 404
    )
    stats = httpx.get(e2e_server.url + "/v1/stats", timeout=10).json()["index"]
    assert stats["pages"] == 2 and stats["embedder"].startswith("hashing")


def test_serve_command_builds_app_from_index(
    small_index: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``murar serve --index DIR --llm fake`` wires the real pipeline into the app."""
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from murar.cli.main import app as cli

    index, _ = small_index
    captured: dict[str, object] = {}
    import uvicorn

    monkeypatch.setattr(
        uvicorn, "run", lambda app, **kw: captured.update(app=app, **kw)
    )
    result = CliRunner().invoke(
        cli,
        [
            "serve",
            "--index",
            str(index),
            "--llm",
            "fake",
            "--port",
            "8765",
            "--feedback-dir",
            str(tmp_path / "fb"),
            "--example",
            "Q?",
        ],
    )
    assert result.exit_code == 0, result.output
    assert captured["host"] == "127.0.0.1" and captured["port"] == 8765
    with TestClient(captured["app"]) as c:  # type: ignore[arg-type]
        assert c.get("/v1/info").json()["examples"] == ["Q?"]
        r = c.post("/v1/answer", json={"question": QUESTION})
        assert r.status_code == 200 and r.json()["found"] is True


def test_serve_command_reports_missing_index(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from murar.cli.main import app as cli

    result = CliRunner().invoke(
        cli, ["serve", "--index", str(tmp_path / "nope"), "--llm", "fake"]
    )
    assert result.exit_code != 0
    assert "nope" in result.output


def test_serve_says_where_feedback_goes_when_the_index_is_read_only(
    small_index: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over a read-only index (a container image) feedback went to a temporary folder made
    at the first rating, never named anywhere."""
    import tempfile

    import uvicorn
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from murar.cli import serve_cmd
    from murar.cli.main import app as cli

    index, _ = small_index
    captured: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: captured.update(app=app, **kw))
    monkeypatch.setattr(serve_cmd, "default_feedback_dir", lambda index: None)  # as on a read-only mount
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the temporary folder made under tmp_path
    result = CliRunner().invoke(cli, ["serve", "--index", str(index), "--llm", "fake"])
    assert result.exit_code == 0, result.output
    said = result.output.split("feedback (thumbs up/down) is written to ", 1)[1].split(" (", 1)[0]
    assert "is not writable" in result.output
    with TestClient(captured["app"]) as c:  # type: ignore[arg-type]
        assert c.post("/v1/feedback", json={"answer_id": "a", "rating": "up"}).json()["ok"] is True
    assert (Path(said) / "feedback.jsonl").is_file() and Path(said).parent == tmp_path
