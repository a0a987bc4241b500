"""Regression tests of issue 11 on a real loopback server: malformed bodies get 4xx, never 500 or a reset."""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest
from server_live import LiveServer

CASES = [
    # (path, raw body, expected status): lone surrogates were a 500, invalid UTF-8 a reset connection
    ("/v1/answer", b'{"question": "\\ud800x"}', 422),
    ("/v1/answer/stream", b'{"question": "\\udfffx"}', 422),
    ("/v1/feedback", b'{"answer_id": "a", "rating": "up", "comment": "\\ud800"}', 422),
    ("/v1/chat/completions", b'{"messages": [{"role": "user", "content": "\\ud800 how?"}]}', 422),
    ("/v1/answer", b'{"question": "\xff\xfe bad bytes"}', 400),
    ("/v1/chat/completions", b"\xff\xfe\xfd", 400),
    ("/v1/answer", b'{"question": "caf\xc3"}', 400),
]


@pytest.mark.parametrize(("path", "body", "status"), CASES)
def test_malformed_bodies_get_a_clean_4xx(live_server: LiveServer, path: str, body: bytes, status: int) -> None:
    u = urlsplit(live_server.url)
    conn = http.client.HTTPConnection(u.hostname or "127.0.0.1", u.port or 80, timeout=20)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
    finally:
        conn.close()
    assert resp.status == status, data[:300]
    data.decode("utf-8")  # the reply itself is valid UTF-8
    assert resp.getheader("content-type", "").startswith("application/json")
