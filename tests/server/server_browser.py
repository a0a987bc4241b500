"""Headless Chromium for the browser tests (Debian's /usr/bin/chromium + Playwright)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def need_chromium() -> None:
    """Skip when the browser or Playwright's package is missing (CI installs both)."""
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        pytest.skip(
            "headless browser test needs /usr/bin/chromium: apt-get install -y chromium"
        )
    pytest.importorskip(
        "playwright.sync_api",
        reason="pip install playwright (no browser download needed)",
    )


@contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium (Playwright ``Browser``), closed on exit."""
    from playwright.sync_api import sync_playwright

    need_chromium()
    exe = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def watch_page(page: Any) -> dict[str, list[str]]:
    """Collect dialogs (alert), page errors and console errors of ``page``."""
    seen: dict[str, list[str]] = {"dialogs": [], "errors": [], "console": []}

    def on_dialog(d: Any) -> None:
        seen["dialogs"].append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.on(
        "console",
        lambda m: seen["console"].append(m.text) if m.type == "error" else None,
    )
    return seen
