"""The real ``openai`` SDK against a live server: chat completions, streaming, models."""

from __future__ import annotations

import re

import httpx
import pytest
from server_fakes import IMAGE_ID
from server_live import LiveServer

openai = pytest.importorskip("openai", reason="pip install openai (dev extra)")
pytestmark = pytest.mark.timeout(60)


def client(srv: LiveServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=srv.url + "/v1", api_key="not-needed", max_retries=0, timeout=20
    )


def test_openai_sdk_chat_completion_returns_markdown_with_served_images(
    live_server: LiveServer,
) -> None:
    c = client(live_server)
    assert [m.id for m in c.models.list()] == ["murar"]
    completion = c.chat.completions.create(
        model="murar",
        messages=[
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "What is a dataset?"},
            {"role": "assistant", "content": "A dataset is..."},
            {
                "role": "user",
                "content": [{"type": "text", "text": "How do I create a schema?"}],
            },
        ],
    )
    assert completion.object == "chat.completion"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.choices[0].message.role == "assistant"
    content = completion.choices[0].message.content or ""
    assert "To create a schema" in content
    urls = re.findall(r"!\[[^\]]*\]\(<?(http://[^)>\s]+)>?\)", content)
    assert urls == [f"{live_server.url}/v1/media/{IMAGE_ID}"]
    image = httpx.get(urls[0], timeout=5)
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    assert completion.model_extra and completion.model_extra["murar"][
        "answer_id"
    ].startswith("ans_")


def test_openai_sdk_streaming(live_server: LiveServer) -> None:
    c = client(live_server)
    plain = c.chat.completions.create(
        model="murar", messages=[{"role": "user", "content": "How?"}]
    )
    chunks = list(
        c.chat.completions.create(
            model="murar", stream=True, messages=[{"role": "user", "content": "How?"}]
        )
    )
    assert all(ch.object == "chat.completion.chunk" for ch in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    content = "".join(ch.choices[0].delta.content or "" for ch in chunks)
    assert content == plain.choices[0].message.content
    progress = "".join(
        (ch.choices[0].delta.model_extra or {}).get("reasoning_content", "")
        for ch in chunks
    )
    assert (
        "Searching the documentation" in progress and "To create a schema" in progress
    )
    assert chunks[-1].choices[0].finish_reason == "stop"


def test_openai_sdk_errors(live_server: LiveServer) -> None:
    c = client(live_server)
    with pytest.raises(openai.BadRequestError) as info:
        c.chat.completions.create(
            model="murar", messages=[{"role": "system", "content": "hi"}]
        )
    assert "no user message" in str(info.value)


def test_streamed_answer_text_holds_no_live_html(fake_service: object, feedback_dir: object) -> None:
    """On the streamed path the answer's tokens went out as they came: a quoted
    '<img src=x onerror=alert(1)>' (split over tokens) reached the chat client as live HTML,
    though the same answer without streaming is neutralised. Code spans keep their '<'."""
    from collections.abc import Iterator

    from server_fakes import FakeAnswerService, make_answer

    from murar.answer.service import AnswerEvent
    from murar.server import ServerConfig, create_app

    assert isinstance(fake_service, FakeAnswerService)
    pieces = ["Use the ", "<", "img src=x onerror", "=alert(1)> tag, ", "or `<", "b>` [1]. ", "Then <", "iframe>"]

    def stream(question: str) -> Iterator[AnswerEvent]:
        for piece in pieces:
            yield AnswerEvent(type="token", name="answer", text=piece)
        yield AnswerEvent(type="answer", answer=make_answer(question, fake_service.image))

    fake_service.stream = stream  # type: ignore[method-assign]
    app = create_app(fake_service, config=ServerConfig(feedback_dir=feedback_dir))  # type: ignore[arg-type]
    with LiveServer(app) as srv:
        chunks = list(client(srv).chat.completions.create(
            model="murar", stream=True, messages=[{"role": "user", "content": "How?"}]))
    content = "".join(ch.choices[0].delta.content or "" for ch in chunks)
    assert content.startswith("Use the &lt;img src=x onerror=alert(1)> tag, or `<b>` [1]. Then &lt;iframe>")
    assert "<img" not in content and "<iframe" not in content
