"""Fixtures of the server tests: a fake service, an app, a live uvicorn server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip(
    "fastapi", reason="the server extra is not installed: pip install 'murar[server]'"
)

from server_fakes import FakeAnswerService
from server_live import LiveServer

from murar.server import ServerConfig, create_app


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """One headless Chromium for all browser tests (skips when it is not installed)."""
    from server_browser import browser

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
