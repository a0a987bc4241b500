"""OpenAICompatibleChatModel against httpx.MockTransport."""

from __future__ import annotations

import json

import httpx
import pytest

from murar.errors import LLMConnectionError, LLMError
from murar.llm.base import ChatMessage, ChatModel
from murar.llm.openai import OpenAICompatibleChatModel

MSGS = [ChatMessage("system", "Be brief."), ChatMessage("user", "Say hi")]


def _model(handler, **kw) -> OpenAICompatibleChatModel:  # type: ignore[no-untyped-def]
    kw.setdefault("retry_backoff", 0.0)
    return OpenAICompatibleChatModel("http://llm.test/v1/", "m1", transport=httpx.MockTransport(handler), **kw)


def _reply(text: str) -> dict[str, object]:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}


def test_is_a_chat_model_and_no_io_in_constructor() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise AssertionError("constructor must not send requests")

    m = _model(handler)
    assert isinstance(m, ChatModel)
    assert m.name == "m1"
    assert m.base_url == "http://llm.test/v1"


def test_complete_sends_openai_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=_reply("hi there"))

    out = _model(handler).complete(MSGS, max_tokens=7, temperature=0.2, stop=["\n\n"])
    assert out == "hi there"
    req = seen[0]
    assert req.method == "POST" and str(req.url) == "http://llm.test/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer sk-env"
    body = json.loads(req.content)
    assert body == {
        "model": "m1",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say hi"}],
        "max_tokens": 7,
        "temperature": 0.2,
        "stream": False,
        "stop": ["\n\n"],
    }


def test_explicit_api_key_wins_and_none_sends_no_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    auth: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        auth.append(request.headers.get("authorization"))
        return httpx.Response(200, json=_reply("x"))

    _model(handler).complete(MSGS)
    _model(handler, api_key="sk-x").complete(MSGS)
    assert auth == [None, "Bearer sk-x"]


def test_null_content_is_empty_string() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": None}}]})

    assert _model(handler).complete(MSGS) == ""


def _sse(*events: str) -> bytes:
    return "".join(f"data: {e}\n\n" for e in events).encode()


def test_stream_parses_sse() -> None:
    chunks = [
        {"choices": [{"delta": {"role": "assistant"}}]},
        {"choices": [{"delta": {"content": "Hel"}}]},
        {"choices": [{"delta": {"content": "lo"}, "finish_reason": None}]},
        {"choices": [{"delta": {}, "finish_reason": "stop"}]},
        {"choices": [], "usage": {"completion_tokens": 2}},
    ]
    seen: list[dict[str, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        body = b": keep-alive\n\n" + _sse(*(json.dumps(c) for c in chunks), "[DONE]")
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    pieces = list(_model(handler).stream(MSGS))
    assert pieces == ["Hel", "lo"]
    assert seen[0]["stream"] is True


def test_stream_error_event_raises() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=_sse(json.dumps({"error": {"message": "ctx overflow"}})))

    with pytest.raises(LLMConnectionError, match="ctx overflow"):
        list(_model(handler).stream(MSGS))


def test_stream_malformed_event_raises() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"data: {not json\n\n")

    with pytest.raises(LLMError, match="malformed stream event"):
        list(_model(handler).stream(MSGS))


def test_500_retries_then_raises_with_url_and_status() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(500, text="boom")

    with pytest.raises(LLMConnectionError) as info:
        _model(handler).complete(MSGS)
    assert len(calls) == 3  # 1 + 2 retries
    msg = str(info.value)
    assert "http://llm.test/v1/chat/completions" in msg and "500" in msg and "boom" in msg


def test_stream_500_retries_then_raises() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(503)

    with pytest.raises(LLMConnectionError, match="503"):
        list(_model(handler).stream(MSGS))
    assert len(calls) == 3


def test_transient_429_then_success_with_backoff() -> None:
    statuses = [429, 502]
    sleeps: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if statuses:
            code = statuses.pop(0)
            return httpx.Response(code, headers={"retry-after": "0"} if code == 429 else {})
        return httpx.Response(200, json=_reply("ok"))

    m = _model(handler, retry_backoff=0.25)
    m._http._sleep = sleeps.append  # record instead of sleeping
    assert m.complete(MSGS) == "ok"
    assert sleeps == [0.0, 0.5]  # Retry-After honoured, then exponential backoff (0.25 * 2**1)


def test_connect_error_retries_then_hint() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(LLMConnectionError, match=r"cannot reach http://llm.test/v1/chat/completions.*running"):
        _model(handler).complete(MSGS)
    assert len(calls) == 3


def test_4xx_is_not_retried_and_has_hint() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(401, json={"error": {"message": "bad key"}})

    with pytest.raises(LLMConnectionError, match=r"401.*bad key.*OPENAI_API_KEY"):
        _model(handler).complete(MSGS)
    assert len(calls) == 1


def test_404_hints_at_v1() -> None:
    with pytest.raises(LLMConnectionError, match="/v1"):
        _model(lambda r: httpx.Response(404)).complete(MSGS)


def test_malformed_json() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html>proxy login</html>")

    with pytest.raises(LLMError, match="malformed JSON"):
        _model(handler).complete(MSGS)


def test_json_without_choices() -> None:
    with pytest.raises(LLMError, match="choices"):
        _model(lambda r: httpx.Response(200, json={"object": "list"})).complete(MSGS)


def test_read_timeout_is_not_retried() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(LLMConnectionError, match="timed out"):
        _model(handler).complete(MSGS)
    assert len(calls) == 1


def test_real_refused_port_gives_connection_error() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    m = OpenAICompatibleChatModel(f"http://127.0.0.1:{port}/v1", "m", max_retries=1, retry_backoff=0.0)
    with pytest.raises(LLMConnectionError, match=f"127.0.0.1:{port}"):
        m.complete(MSGS)
