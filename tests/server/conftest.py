"""Fixtures of the server tests: a fake service, an app, a live uvicorn server."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Self

import pytest

pytest.importorskip(
    "fastapi", reason="the server extra is not installed: pip install 'murar[server]'"
)

from server_fakes import FakeAnswerService

from murar.server import ServerConfig, create_app


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """One headless Chromium for all browser tests (skips when it is not installed)."""
    from browser import browser

    with browser() as b:
        yield b


@pytest.fixture()
def page(chromium: object) -> Iterator[object]:
    """A fresh browser context and page (desktop size); closed after the test."""
    context = chromium.new_context(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
    yield context.new_page()
    context.close()


@pytest.fixture()
def fake_service(tmp_path: Path) -> FakeAnswerService:
    media = tmp_path / "media"
    media.mkdir()
    return FakeAnswerService(media)


@pytest.fixture()
def feedback_dir(tmp_path: Path) -> Path:
    return tmp_path / "feedback"


class LiveServer:
    """A uvicorn server on a free loopback port, in a thread."""

    def __init__(self, app: object) -> None:
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server = uvicorn.Server(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                lifespan="off",
            )
        )
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)


@pytest.fixture()
def live_server(
    fake_service: FakeAnswerService, feedback_dir: Path
) -> Iterator[LiveServer]:
    app = create_app(
        fake_service,
        config=ServerConfig(
            feedback_dir=feedback_dir, examples=("How do I create a schema?",)
        ),
    )
    with LiveServer(app) as server:
        yield server
