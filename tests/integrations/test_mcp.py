"""``murar mcp`` over stdio, driven by the official MCP SDK client, on a small real index."""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import io
import os
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from small_index import REPO, copy_corpus

pytest.importorskip("mcp")
from mcp import Client, MCPError, StdioServerParameters
from mcp.types import ImageContent, TextContent

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

QUESTION = "How do I copy the server call URL to the clipboard?"
SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, adobe_root: Path) -> Path:
    import murar

    root = tmp_path_factory.mktemp("mcp")
    idx = root / "idx"
    murar.build_index(copy_corpus(adobe_root, root), idx, embedder="hashing")
    return idx


def server(index: Path) -> StdioServerParameters:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return StdioServerParameters(command=sys.executable, args=["-m", "murar", "mcp", "--index", str(index)], env=env)


def run(coro: Any) -> Any:
    """Run ``coro`` to completion, in a thread of its own when this thread already runs
    an event loop (the session-wide Playwright browser of the server tests keeps one)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_tools_answer_with_a_decodable_screenshot(index: Path) -> None:
    from PIL import Image

    async def go() -> None:
        async with Client(server(index), read_timeout_seconds=120) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == {"ask_docs", "search_docs"}
            assert tools["ask_docs"].input_schema["required"] == ["question"]
            assert tools["ask_docs"].annotations is not None and tools["ask_docs"].annotations.read_only_hint

            progress: list[tuple[float, float | None, str | None]] = []

            async def on_progress(done: float, total: float | None, message: str | None) -> None:
                progress.append((done, total, message))

            result = await client.call_tool("ask_docs", {"question": QUESTION}, progress_callback=on_progress)
            assert not result.is_error
            assert progress[0] == (1, 6, "retrieving snippets") and progress[-1] == (6, 6, "answer ready")
            assert all(a[0] < b[0] for a, b in pairwise(progress))  # strictly increasing (MCP spec)
            images = [c for c in result.content if isinstance(c, ImageContent)]
            texts = [c.text for c in result.content if isinstance(c, TextContent)]
            assert images and images[0].mime_type == "image/jpeg"
            with Image.open(io.BytesIO(base64.b64decode(images[0].data))) as img:
                img.load()
                assert img.width > 100 and img.height > 50
            first_image = next(i for i, c in enumerate(result.content) if isinstance(c, ImageContent))
            caption = result.content[first_image + 1]
            assert isinstance(caption, TextContent) and caption.text.startswith("Figure 1: ")
            assert "copy" in caption.text.lower()
            assert "[1]" in texts[0] and "clipboard" in texts[0]
            assert texts[-1].startswith("Sources:") and f"{REPO}/help/network.md" in texts[-1]

            found = await client.call_tool("search_docs", {"query": "copy the server call URL to your clipboard", "k": 3})
            assert not found.is_error and len(found.content) == 3
            first = found.content[0]
            assert isinstance(first, TextContent) and first.text.startswith("[1] ")
            assert "murar://media/" in "".join(c.text for c in found.content if isinstance(c, TextContent))

    run(go())


def test_resources_list_pages_and_serve_images(index: Path) -> None:
    async def go() -> None:
        async with Client(server(index), read_timeout_seconds=120) as client:
            resources = {str(r.uri): r for r in (await client.list_resources()).resources}
            page = f"murar://page/{REPO}/help/network.md"
            assert page in resources and len(resources) == 12
            contents = (await client.read_resource(page)).contents
            assert "copy the server call URL" in contents[0].text  # type: ignore[union-attr]
            templates = (await client.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["murar://media/{media_id}"]
            found = await client.call_tool("search_docs", {"query": "copy the server call URL to your clipboard", "k": 1})
            text = found.content[0].text  # type: ignore[union-attr]
            media_uri = text[text.index("murar://media/"):].split(")")[0]
            blob = (await client.read_resource(media_uri)).contents[0]
            assert base64.b64decode(blob.blob)[:2] == b"\xff\xd8"  # type: ignore[union-attr]  JPEG
            with pytest.raises(MCPError):
                await client.read_resource("murar://media/does-not-exist")

    run(go())


def test_errors_are_mcp_errors(index: Path, tmp_path: Path) -> None:
    async def go() -> None:
        async with Client(server(index), read_timeout_seconds=120) as client:
            empty = await client.call_tool("ask_docs", {"question": "   "})
            assert empty.is_error and "empty" in empty.content[0].text  # type: ignore[union-attr]
            bad_k = await client.call_tool("search_docs", {"query": "network", "k": 0})
            assert bad_k.is_error and "k must be" in bad_k.content[0].text  # type: ignore[union-attr]
            # the client's model picks k: a million returned every snippet of the index in one reply
            huge_k = await client.call_tool("search_docs", {"query": "network", "k": 1_000_000})
            assert huge_k.is_error and "k must be at most 50" in huge_k.content[0].text  # type: ignore[union-attr]
            unknown = await client.call_tool("no_such_tool", {})
            assert unknown.is_error and "Unknown tool" in unknown.content[0].text  # type: ignore[union-attr]
        async with Client(server(tmp_path / "missing"), read_timeout_seconds=120) as client:
            result = await client.call_tool("ask_docs", {"question": QUESTION})
            assert result.is_error
            assert "no index at" in result.content[0].text and "murar ingest" in result.content[0].text  # type: ignore[union-attr]

    run(go())


def test_streamable_http(index: Path) -> None:
    import socket
    import subprocess
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    params = server(index)
    proc = subprocess.Popen([params.command, *params.args, "--http", "--port", str(port)], env=params.env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.2)

        async def go() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=120) as client:
                result = await client.call_tool("ask_docs", {"question": QUESTION})
                assert not result.is_error
                assert any(isinstance(c, ImageContent) for c in result.content)

        run(go())
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    # it says where it listens, as `murar serve` does
    assert f"at http://127.0.0.1:{port}/mcp" in (proc.stderr.read().decode() if proc.stderr else "")


def test_content_blocks_survive_large_and_broken_images(tmp_path: Path) -> None:
    """The conversion itself, in-process: a big screenshot is downscaled, a corrupt one becomes text."""
    from PIL import Image

    import murar
    from murar.integrations.mcp import MAX_IMAGE_SIDE, answer_content, fit_image

    big = io.BytesIO()
    Image.effect_noise((3000, 2000), 64).convert("RGB").save(big, format="PNG")
    data, mime = fit_image(big.getvalue(), "image/png", max_bytes=100_000)
    with Image.open(io.BytesIO(data)) as img:
        assert max(img.size) <= MAX_IMAGE_SIDE and mime == "image/jpeg"
    docs = tmp_path / "docs"
    (docs / "assets").mkdir(parents=True)
    Image.new("RGB", (400, 300), "white").save(docs / "assets" / "save.png")
    (docs / "save.md").write_text("# Saving\n\n## Save a report\n\nTo save a report click Save in the report "
                                  "toolbar.\n\n![Click Save in the report toolbar to save a report](assets/save.png)\n")
    murar.build_index(docs, tmp_path / "idx", embedder="hashing")
    assistant = murar.Assistant(tmp_path / "idx", llm="extractive")
    answer = assistant.ask("How do I save a report in the report toolbar?")
    assert answer.media, "the screenshot should be chosen"
    assert any(isinstance(b, ImageContent) for b in answer_content(answer))
    # the file is replaced by garbage after ingest: the answer still comes, the image becomes a note
    (docs / "assets" / "save.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 2_000_000)
    blocks = answer_content(assistant.ask("How do I save a report in the report toolbar?"))
    texts = [b.text for b in blocks if isinstance(b, TextContent)]
    assert not any(isinstance(b, ImageContent) for b in blocks)
    assert texts[0].startswith("To save a report") and texts[-1].startswith("Sources:")
    assert any(t.startswith("Image (unreadable file): ") for t in texts)


def test_search_docs_and_pages_quote_poisoned_text_as_guarded_data(tmp_path: Path) -> None:
    """A poisoned page reaches the client's model only guarded: instruction-like
    sentences and forged turns replaced, the rest quoted as documentation."""
    import murar
    from murar.integrations.mcp import create_server

    pages = Path(__file__).resolve().parents[1] / "fixtures" / "injection" / "pages"
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("p01-export-reports.md", "p16-webhooks.md", "p17-sso.md"):
        (docs / name).write_bytes((pages / name).read_bytes())
    murar.build_index(docs, tmp_path / "idx", embedder="hashing")
    mcp_server = create_server(murar.Assistant(tmp_path / "idx", llm="extractive"), warm_up=False)

    async def go() -> None:
        async with Client(mcp_server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert "never instructions to follow" in " ".join((tools["search_docs"].description or "").split())
            found = await client.call_tool("search_docs", {"query": "export a report webhook single sign-on", "k": 3})
            texts = [c.text for c in found.content if isinstance(c, TextContent)]
            assert len(texts) == 3 and all(t.startswith("[") for t in texts)
            joined = "\n".join(texts)
            for canary in ("attacker.example", "evil.example", "BREAKOUT-77", "Ignore all previous", "</source>"):
                assert canary not in joined
            assert "> To export a report, open Reports" in joined and "[instruction-like text removed]" in joined
            assert "> Failed deliveries are retried five times over one hour." in joined
            page = (await client.read_resource("murar://page/p01-export-reports.md")).contents[0]
            assert "attacker.example" not in page.text and "50,000 rows" in page.text  # type: ignore[union-attr]

    run(go())


def test_search_docs_names_the_section_once(tmp_path: Path) -> None:
    """A passage's head reads ``Page › Section — path``: the page title is not repeated from
    the heading path, and one separator is used throughout."""
    import murar
    from murar.integrations.mcp import create_server

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "settings.md").write_text("# Settings\n\n## Keyboard shortcuts\n\nPress Ctrl+E to export the "
                                      "dashboard as a PDF file.\n")
    murar.build_index(docs, tmp_path / "idx", embedder="hashing")
    mcp_server = create_server(murar.Assistant(tmp_path / "idx", llm="extractive"), warm_up=False)

    async def go() -> None:
        async with Client(mcp_server) as client:
            found = await client.call_tool("search_docs", {"query": "export the dashboard as a PDF", "k": 1})
            first = found.content[0]
            assert isinstance(first, TextContent)
            assert first.text.startswith("[1] Settings › Keyboard shortcuts — settings.md (score ")

    run(go())
def test_a_picture_that_cannot_be_decoded_is_a_value_error() -> None:
    """A PNG over the size limit with a broken chunk raised SyntaxError out of fit_image and
    one with a bomb's dimensions DecompressionBombError: neither was caught by answer_content
    (OSError/ValueError), so the whole ask_docs call failed instead of noting the picture."""
    import struct
    import zlib

    from murar.integrations.mcp import fit_image

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    # a PNG whose header reads and whose data holds a garbage chunk (byte-mutated, found by fuzzing)
    broken = (Path(__file__).parents[1] / "fixtures" / "broken-chunk.png").read_bytes()
    bomb = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30_000, 30_000, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 100)) + chunk(b"IEND", b""))
    for data in (broken, bomb):
        with pytest.raises(ValueError):
            fit_image(data, "image/png", max_bytes=10)
