"""Media while the text streams: the real streamed pipeline (tiny index, a slow scripted
model) behind a live server — SSE events, the OpenAI-compatible stream, and the web page."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_browser import watch_page
from server_fakes import write_png
from server_live import LiveServer

from murar.answer.pipeline import PipelineConfig, load_pipeline
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index
from murar.llm.base import ChatMessage
from murar.llm.fake import ScriptedChatModel
from murar.server import ServerConfig, create_app

pytestmark = pytest.mark.timeout(120)

ANSWER = ("To add a custom event, open the journey canvas and drag the custom event from the events palette [1]. "
          "Then configure the custom event fields [1]. Save the journey when the fields are complete [1]. "
          "Audiences are built from segment rules [2].")
QUESTION = "How do I add a custom event to a journey?"


class SlowModel(ScriptedChatModel):
    """Replies ``ANSWER`` word by word, ``delay_s`` apart (a model writing on a slow CPU)."""

    def __init__(self, delay_s: float) -> None:
        super().__init__(responder=lambda messages: ANSWER, name="slow-fake")
        self.delay_s = delay_s

    def stream(self, messages: list[ChatMessage], *, max_tokens: int = 512, temperature: float = 0.0,
               stop: list[str] | None = None) -> Iterator[str]:
        text = self.complete(messages)
        for i, word in enumerate(text.split(" ")):
            time.sleep(self.delay_s)
            yield word if i == 0 else " " + word


@pytest.fixture()
def stream_server(tmp_path: Path) -> Iterator[LiveServer]:
    docs = tmp_path / "docs"
    (docs / "assets").mkdir(parents=True)
    write_png(docs / "assets" / "canvas.png", 80, 60)  # >= 48 px: smaller images are icons
    (docs / "journeys.md").write_text(
        "# Journeys\n\n## Add a custom event\n\nTo add a custom event, open the journey canvas and drag the "
        "custom event from the events palette.\n\n![Journey canvas with the custom event palette](assets/canvas.png)\n\n"
        "Then configure the custom event fields and save the journey.\n\n## Audiences\n\n"
        "Audiences are built from segment rules.\n"
    )
    idx = tmp_path / "idx"
    build_index(docs, idx, embedder=HashingEmbedder())
    pipeline = load_pipeline(idx, chat_model=SlowModel(0.08), config=PipelineConfig())
    app = create_app(pipeline, config=ServerConfig(feedback_dir=tmp_path / "fb"))
    with LiveServer(app) as server:
        yield server


def _sse(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    name, data = "message", []
    for line in lines:
        if not line:
            if data:
                yield name, "\n".join(data)
            name, data = "message", []
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def test_sse_sends_media_after_its_sentence_before_the_text_ends(stream_server: LiveServer) -> None:
    events: list[tuple[str, Any, float]] = []
    with httpx.stream("POST", stream_server.url + "/v1/answer/stream", json={"question": QUESTION},
                      timeout=60) as r:
        for name, data in _sse(r.iter_lines()):
            events.append((name, json.loads(data), time.monotonic()))
    names = [e[0] for e in events]
    assert "media" in names and names[-2:] == ["answer", "done"]
    i_media = names.index("media")
    tokens_after = [e for e in events[i_media:] if e[0] == "token"]
    assert len(tokens_after) >= 3  # the rest of the answer was still being written
    media = events[i_media][1]
    assert media["index"] == 0 and media["block"]["type"] == "image"
    assert media["block"]["item"]["media_url"] == f"/v1/media/{media['block']['item']['id']}"
    before = "".join(e[1]["text"] for e in events[:i_media] if e[0] == "token")
    assert before.strip().endswith("events palette [1].")
    assert all(e[1]["final"] for e in events if e[0] == "token")
    # the final answer is what was streamed
    answer = events[-2][1]
    streamed = "".join(e[1]["text"] for e in events if e[0] == "token")
    assert " ".join(b["text"] for b in answer["blocks"] if b["type"] == "text") == " ".join(
        p.strip() for p in (streamed[: len(before)], streamed[len(before):]))
    assert [b["type"] for b in answer["blocks"]] == ["text", "image", "text"]
    assert answer["blocks"][1]["item"]["id"] == media["block"]["item"]["id"]
    # the image is served
    assert httpx.get(stream_server.url + media["block"]["item"]["media_url"]).status_code == 200


def test_openai_stream_puts_the_image_in_the_content_while_text_follows(stream_server: LiveServer) -> None:
    body = {"model": "murar", "stream": True, "messages": [{"role": "user", "content": QUESTION}]}
    contents: list[str] = []
    with httpx.stream("POST", stream_server.url + "/v1/chat/completions", json=body, timeout=60) as r:
        for line in r.iter_lines():
            if line.startswith("data: ") and line != "data: [DONE]":
                delta = json.loads(line[6:])["choices"][0]["delta"]
                if delta.get("content"):
                    contents.append(delta["content"])
    i_img = next(i for i, c in enumerate(contents) if "![" in c)
    assert i_img < len(contents) - 3  # text chunks still came after the image
    full = "".join(contents)
    assert full.index("events palette [1].") < full.index("![") < full.index("Then configure")
    assert f"{stream_server.url}/v1/media/" in full and "**Sources**" in full


def test_page_shows_the_image_before_the_stream_ends(stream_server: LiveServer, page: Any) -> None:
    seen = watch_page(page)
    page.goto(stream_server.url + "/")
    page.fill("#question", QUESTION)
    page.press("#question", "Enter")
    img = page.locator(".draft figure.media-image img")
    img.wait_for(timeout=30_000)
    # the answer is still being written when the screenshot shows
    assert page.locator(".assistant").get_attribute("aria-busy") == "true"
    page.wait_for_function("img => img.complete && img.naturalWidth === 80", arg=img.element_handle())
    assert "events palette" in page.inner_text(".draft")
    page.wait_for_selector(".assistant[aria-busy=false]", timeout=30_000)
    final = page.locator(".answer-body figure.media-image img")
    assert final.count() == 1
    assert "Then configure" in page.inner_text(".answer-body")
    assert seen["errors"] == [], seen
