"""The web page in headless Chromium, against a live server with a fake service."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_browser import watch_page
from server_fakes import IMAGE_ID
from server_live import LiveServer

pytestmark = pytest.mark.timeout(120)


def ask(page: object, question: str) -> None:
    page.fill("#question", question)  # type: ignore[attr-defined]
    page.press("#question", "Enter")  # type: ignore[attr-defined]
    page.wait_for_selector(".assistant[aria-busy=false]", timeout=30_000)  # type: ignore[attr-defined]


def test_page_streams_and_renders_multimodal_answer_safely(
    live_server: LiveServer, feedback_dir: Path, page: Any
) -> None:
    seen = watch_page(page)
    page.goto(live_server.url + "/")
    page.wait_for_selector(".chip")  # example questions come from /v1/info
    # the header's counts come from /v1/stats, fetched after /v1/info: wait for them, not for the chips
    page.wait_for_function("() => document.getElementById('index-stats').textContent !== ''")
    assert page.inner_text("#index-stats") == "2 pages · 1 image · 1 table · 2 videos"
    ask(page, "How do I create a schema?")

    # The image renders (decoded pixels, from /v1/media/{id}).
    img = page.locator(f"figure[data-media-id='{IMAGE_ID}'] img")
    img.wait_for()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=img.element_handle()
    )
    assert img.evaluate("i => i.naturalWidth") == 40
    assert img.get_attribute("src") == f"/v1/media/{IMAGE_ID}"
    assert "The Schemas workspace" in page.inner_text(
        f"figure[data-media-id='{IMAGE_ID}'] figcaption"
    )
    # Table and videos are rendered inline with captions.
    assert page.locator(".media-table td").first.inner_text() == "Individual"
    assert page.locator(".media-video").count() == 2
    safe = page.locator(".media-video a.video-card")
    assert (
        safe.count() == 1
        and safe.get_attribute("href") == "https://video.example.com/v/123"
    )
    assert safe.get_attribute("rel") == "noopener noreferrer nofollow"

    # Document text containing <script>/<img onerror> is shown as text and never runs.
    body_text = page.inner_text(".answer-body")
    assert "<script>window.__xss = 'script';</script>" in body_text
    assert "onerror" in body_text
    assert page.evaluate("window.__xss") is None
    assert (
        page.evaluate("document.querySelectorAll('script').length") == 1
    )  # only app.js
    assert page.evaluate(
        "[...document.querySelectorAll('img')].every(i => !i.getAttribute('onerror'))"
    )
    assert page.evaluate(
        "[...document.querySelectorAll('a')].every(a => !a.href.startsWith('javascript:'))"
    )
    assert seen["dialogs"] == [] and seen["errors"] == []

    # The Sources list holds the cited sources only, as the Markdown answer's does.
    assert page.locator(".sources li").count() == 2

    # A citation opens its source section.
    page.locator(".answer-body .cite").first.click()
    page.wait_for_selector("#drawer:not([hidden])")
    assert "Open Schemas in the left navigation" in page.inner_text("#drawer-body")
    assert "docs/page1.md#section-1" in page.inner_text("#drawer-body")
    page.keyboard.press("Escape")
    page.wait_for_selector("#drawer", state="hidden")

    # The "how this answer was built" panel shows snippets, attribution and media scores.
    page.click(".how summary")
    how = page.inner_text(".how").lower()  # headings are styled upper-case
    assert "retrieved snippets" in how and "source attribution" in how and "0.81" in how
    assert "selected" in how and "rewritten by the model" in how

    # Feedback is stored with the answer.
    page.click("button[aria-label='Not helpful']")
    page.fill(".comment input", "missing the API steps")
    page.click(".comment button[type=submit]")
    page.wait_for_function(
        "document.querySelector('.feedback-note').textContent.includes('Thanks')"
    )
    page.wait_for_timeout(300)
    assert seen["dialogs"] == [] and seen["errors"] == [], seen

    records = [
        json.loads(x)
        for x in (feedback_dir / "feedback.jsonl").read_text().splitlines()
    ]
    assert (
        records[0]["rating"] == "down"
        and records[0]["question"] == "How do I create a schema?"
    )
    assert records[-1]["comment"] == "missing the API steps"


def test_page_fits_a_phone(live_server: LiveServer, chromium: Any) -> None:
    context = chromium.new_context(
        viewport={"width": 375, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        ask(page, "How do I create a schema?")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - window.innerWidth"
        )
        assert overflow <= 0, f"page is {overflow}px wider than the phone"
        box = page.locator(f"figure[data-media-id='{IMAGE_ID}']").bounding_box()
        assert box is not None and box["width"] <= 375
        composer = page.locator("#composer").bounding_box()
        assert composer is not None and composer["width"] <= 375
    finally:
        context.close()


def test_media_url_opened_directly_cannot_script(
    live_server: LiveServer, page: Any
) -> None:
    from server_fakes import SVG_ID

    seen = watch_page(page)
    page.goto(f"{live_server.url}/v1/media/{SVG_ID}")
    page.wait_for_timeout(300)
    assert seen["dialogs"] == []
