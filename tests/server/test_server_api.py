"""API tests of the HTTP service against a fake AnswerService (in-process)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_fakes import IMAGE_ID, SCRIPT, SVG_ID, FakeAnswerService

from murar.errors import LLMConnectionError
from murar.server import ServerConfig, create_app


def client(service: FakeAnswerService, **cfg: Any) -> TestClient:
    return TestClient(create_app(service, config=ServerConfig(**cfg)))


def parse_sse(text: str) -> list[tuple[str, Any]]:
    """(event, data) pairs of an SSE body; comment lines are skipped."""
    out = []
    for frame in text.split("\n\n"):
        event, data = "message", []
        for line in frame.split("\n"):
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
        if data:
            raw = "\n".join(data)
            out.append((event, raw if raw == "[DONE]" else json.loads(raw)))
    return out


def test_answer_returns_blocks_media_urls_and_trace(
    fake_service: FakeAnswerService,
) -> None:
    with client(fake_service) as c:
        r = c.post("/v1/answer", json={"question": "  How do I create a schema? "})
    assert r.status_code == 200
    data = r.json()
    assert data["id"].startswith("ans_")
    assert data["question"] == "How do I create a schema?"
    assert [b["type"] for b in data["blocks"]] == [
        "text",
        "image",
        "text",
        "table",
        "video",
        "video",
    ]
    image = data["blocks"][1]
    assert image["item"]["media_url"] == f"/v1/media/{IMAGE_ID}"
    assert data["blocks"][3]["item"]["media_url"] is None  # tables are data, not files
    assert data["sources"][0]["label"] == "Schemas guide › Create a schema"
    assert data["trace"]["attributions"][0]["citation"] == 1
    assert (
        data["trace"]["media_selected"][0]["item"]["media_url"]
        == f"/v1/media/{IMAGE_ID}"
    )
    # Markdown with absolute image URLs, for copy and chat clients.
    assert f"http://testserver/v1/media/{IMAGE_ID}" in data["markdown"]


def test_answer_validates_question(fake_service: FakeAnswerService) -> None:
    with client(fake_service, max_question_chars=20) as c:
        assert c.post("/v1/answer", json={"question": "   "}).status_code == 422
        assert c.post("/v1/answer", json={}).status_code == 422
        r = c.post("/v1/answer", json={"question": "x" * 21})
        assert r.status_code == 422 and "limit is 20" in r.json()["detail"]
    assert fake_service.questions == []


def test_answer_errors_map_to_http(fake_service: FakeAnswerService) -> None:
    fake_service.fail = LLMConnectionError("endpoint http://llm:8080 unreachable")
    with client(fake_service) as c:
        r = c.post("/v1/answer", json={"question": "q"})
        assert r.status_code == 502 and "unreachable" in r.json()["detail"]
        fake_service.fail = RuntimeError("secret internal detail /etc/passwd")
        r = c.post("/v1/answer", json={"question": "q"})
        assert r.status_code == 500 and "secret" not in r.text
        # The slot was released both times: the server still answers.
        fake_service.fail = None
        assert c.post("/v1/answer", json={"question": "q"}).status_code == 200


def test_stream_sends_stages_tokens_then_answer(
    fake_service: FakeAnswerService,
) -> None:
    with client(fake_service) as c:
        r = c.post("/v1/answer/stream", json={"question": "How?"})
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events = parse_sse(r.text)
        get = c.get("/v1/answer/stream", params={"question": "How?"})
        assert [e for e, _ in parse_sse(get.text)] == [e for e, _ in events]
    names = [e for e, _ in events]
    assert names[0] == "start" and names[-2:] == ["answer", "done"]
    assert [d["name"] for e, d in events if e == "stage"] == [
        "retrieve",
        "generate",
        "refine",
    ]
    tokens = "".join(d["text"] for e, d in events if e == "token")
    assert tokens.startswith("To create a schema") and SCRIPT in tokens
    answer = dict(events)["answer"]
    assert answer["blocks"][1]["item"]["media_url"] == f"/v1/media/{IMAGE_ID}"


def test_stream_reports_pipeline_error_as_event(
    fake_service: FakeAnswerService,
) -> None:
    fake_service.fail = LLMConnectionError("model server down")
    with client(fake_service) as c:
        events = parse_sse(c.post("/v1/answer/stream", json={"question": "q"}).text)
        assert ("error", {"message": "model server down"}) in events
        fake_service.fail = None
        assert c.post("/v1/answer", json={"question": "q"}).status_code == 200


def test_media_serves_only_index_files(fake_service: FakeAnswerService) -> None:
    with client(fake_service) as c:
        r = c.get(f"/v1/media/{IMAGE_ID}")
        assert r.status_code == 200
        assert r.headers["content-type"] == "image/png"
        assert r.content == fake_service.png.read_bytes()
        assert "sandbox" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
        for bad in [
            "unknown",
            "..%2F..%2Fetc%2Fpasswd",
            "%2Fetc%2Fpasswd",
            "../schema.png",
            "schema.png",
            "a" * 200,
        ]:
            assert c.get(f"/v1/media/{bad}").status_code == 404, bad
        # An SVG is served as an image, sandboxed: a script inside cannot run in our origin.
        svg = c.get(f"/v1/media/{SVG_ID}")
        assert svg.headers["content-type"].startswith("image/svg+xml")
        assert "sandbox" in svg.headers["content-security-policy"]


def test_feedback_appends_jsonl_with_answer(
    fake_service: FakeAnswerService, feedback_dir: Path
) -> None:
    with client(fake_service, feedback_dir=feedback_dir) as c:
        answer = c.post(
            "/v1/answer", json={"question": "How do I create a schema?"}
        ).json()
        r = c.post(
            "/v1/feedback",
            json={"answer_id": answer["id"], "rating": "up", "comment": "nice"},
        )
        assert r.json() == {"ok": True, "stored_answer": True}
        r = c.post(
            "/v1/feedback",
            json={
                "answer_id": "ans_gone",
                "rating": "down",
                "question": "old q",
                "answer_text": "old a",
            },
        )
        assert r.json() == {"ok": True, "stored_answer": False}
        assert (
            c.post("/v1/feedback", json={"answer_id": "x", "rating": "meh"}).status_code
            == 422
        )
        assert (
            c.post(
                "/v1/feedback", json={"answer_id": "../x", "rating": "up"}
            ).status_code
            == 422
        )
    lines = [
        json.loads(x)
        for x in (feedback_dir / "feedback.jsonl").read_text().splitlines()
    ]
    assert len(lines) == 2
    assert lines[0]["rating"] == "up" and lines[0]["comment"] == "nice"
    assert lines[0]["question"] == "How do I create a schema?"
    assert lines[0]["media"][0] == {
        "id": IMAGE_ID,
        "kind": "image",
        "score": 0.81,
        "source_path": "docs/page1.md",
    }
    assert lines[0]["sources"][0]["snippet_id"] == "snip1"
    assert lines[1]["question"] == "old q" and lines[1]["rating"] == "down"
    assert "time" in lines[1]


def test_feedback_defaults_to_a_temp_dir(
    fake_service: FakeAnswerService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The default folder is made by tempfile.mkdtemp: point it at tmp_path so the
    # test leaves nothing behind in the system temp folder.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    app = create_app(fake_service, config=ServerConfig())
    with TestClient(app) as c:
        assert (
            c.post("/v1/feedback", json={"answer_id": "a1", "rating": "up"}).status_code
            == 200
        )
    path = app.state.murar.feedback.path
    assert path is not None and path.is_file() and "murar-feedback-" in str(path)
    assert path.parent.parent == tmp_path


def test_health_stats_info_docs(fake_service: FakeAnswerService) -> None:
    with client(fake_service, examples=("Q1?",)) as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        health = c.get("/v1/health").json()
        assert health["status"] == "ok" and health["queue"]["max_concurrency"] == 1
        stats = c.get("/v1/stats").json()
        assert stats["index"]["images"] == 1 and stats["index"]["embedder"] == "fake"
        assert c.get("/v1/info").json()["examples"] == ["Q1?"]
        spec = c.get("/openapi.json").json()
        for path in [
            "/v1/answer",
            "/v1/answer/stream",
            "/v1/media/{media_id}",
            "/v1/feedback",
            "/v1/stats",
            "/v1/chat/completions",
            "/v1/models",
        ]:
            assert path in spec["paths"], path
        docs = c.get("/docs")
        assert (
            docs.status_code == 200
            and "/openapi.json" in docs.text
            or "swagger" in docs.text
        )


def test_page_and_static_assets_have_strict_csp(
    fake_service: FakeAnswerService,
) -> None:
    with client(fake_service) as c:
        page = c.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith(
            "text/html"
        )
        assert c.head("/").status_code == 200
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp
        assert '<script src="/static/app.js"' in page.text
        assert "<script>" not in page.text  # no inline script at all
        assert page.headers["x-frame-options"] == "DENY"
        assert c.get("/static/app.js").status_code == 200
        assert c.get("/static/app.css").status_code == 200
        assert c.get("/static/../server_fakes.py").status_code == 404


def test_markdown_links_to_this_server_and_drops_unsafe_links(
    fake_service: FakeAnswerService,
) -> None:
    with client(fake_service, public_url="https://docs.example.org/assist/") as c:
        md = c.post("/v1/answer", json={"question": "q"}).json()["markdown"]
    assert f"https://docs.example.org/assist/v1/media/{IMAGE_ID}" in md
    assert "https://video.example.com/v/123" in md
    assert "javascript:" not in md


@pytest.mark.parametrize(
    "bad",
    [
        {"max_concurrency": 0},
        {"max_queue": -1},
        {"max_wait_s": 0},
        {"public_url": "ftp://x"},
    ],
)
def test_config_rejects_bad_values(bad: dict[str, Any]) -> None:
    from murar.errors import ConfigError

    with pytest.raises(ConfigError):
        ServerConfig(**bad)


def test_oversized_body_is_refused(fake_service: FakeAnswerService) -> None:
    with client(fake_service, max_body_bytes=1000) as c:
        r = c.post(
            "/v1/answer",
            content=b'{"question": "' + b"x" * 5000 + b'"}',
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 413
        assert "content-security-policy" in r.headers

        def chunks():  # type: ignore[no-untyped-def]
            yield b'{"question": "'
            for _ in range(10):
                yield b"x" * 500
            yield b'"}'

        r = c.post(
            "/v1/answer", content=chunks(), headers={"content-type": "application/json"}
        )
        assert r.status_code == 413
    assert fake_service.questions == []


def test_docs_page_is_offline(fake_service: FakeAnswerService) -> None:
    pytest.importorskip(
        "swagger_ui_bundle", reason="swagger-ui-bundle-v2 (server extra) not installed"
    )
    with client(fake_service) as c:
        page = c.get("/docs")
        assert (
            "/docs/assets/swagger-ui-bundle.js" in page.text
            and "<script>" not in page.text
        )
        assert c.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
        assert c.get("/static/docs.js").status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]


def test_missing_server_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    import murar.server
    from murar.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "fastapi", None)
    monkeypatch.delitem(sys.modules, "murar.server.app", raising=False)
    with pytest.raises(MissingExtraError, match=r"pip install 'murar\[server\]'"):
        murar.server.create_app  # noqa: B018
