"""The live-site crawler against a real HTTP server on loopback serving a site
built by the real MkDocs in the test."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from PIL import Image

from murar.errors import IngestError
from murar.ingest.crawl import Crawler, CrawlOptions, local_path
from murar.ingest.html import convert_html_text
from murar.ingest.sites import built
from murar.ingest.sites.base import FileRole


def png(seed: int) -> bytes:
    img = Image.new("RGB", (320, 200), (seed * 60 % 256, 90, 160))
    for x in range(0, 320, 6):
        img.putpixel((x, (x * seed) % 200), (255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


class Handler(SimpleHTTPRequestHandler):
    """Static files with Last-Modified/If-Modified-Since (the stdlib server's own) and a request log."""

    log: list[tuple[str, int]]

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.server.requests.append((self.path, int(code) if str(code).isdigit() else 0))  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture(scope="module")
def live_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, list[tuple[str, int]]]]:
    pytest.importorskip("mkdocs")
    base = tmp_path_factory.mktemp("live")
    served = base / "www"
    served.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(served)))
    server.requests = []  # type: ignore[attr-defined]
    port = server.server_address[1]
    url = f"http://127.0.0.1:{port}/"
    src = base / "src"
    (src / "docs/guide/img").mkdir(parents=True)
    (src / "docs/private").mkdir(parents=True)
    (src / "mkdocs.yml").write_text(f"site_name: Gizmo\nsite_url: {url}\nnav:\n  - index.md\n"
                                    "  - guide/install.md\n", encoding="utf-8")
    (src / "docs/index.md").write_text("# Gizmo\n\nStart with [installing](guide/install.md).\n\n"
                                       f"[Elsewhere](http://localhost:{port}/other.html)\n", encoding="utf-8")
    (src / "docs/guide/install.md").write_text(
        "# Install Gizmo\n\n## Accept the licence\n\nTo accept the licence agreement in the Gizmo installer, tick "
        "the box labelled I accept the licence and press Continue. The installer then copies the Gizmo files "
        "to the program folder.\n\n"
        "![Licence dialog](img/licence.png)\n\n[Secret](../private/secret.md)\n", encoding="utf-8")
    (src / "docs/guide/orphan.md").write_text("# Orphan page\n\nOnly the sitemap lists me.\n", encoding="utf-8")
    (src / "docs/private/secret.md").write_text("# Secret\n", encoding="utf-8")
    (src / "docs/guide/img/licence.png").write_bytes(png(1))
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(src / "mkdocs.yml"), "-d", str(served)],
                   check=True, capture_output=True, timeout=120)
    (served / "robots.txt").write_text(f"User-agent: *\nDisallow: /private/\nSitemap: {url}sitemap.xml\n",
                                       encoding="utf-8")
    (served / "other.html").write_text("<html><body>other host</body></html>", encoding="utf-8")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield url, base, server.requests  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()


def test_local_paths() -> None:
    assert local_path("http://h/a/") == "a/index.html"
    assert local_path("http://h/a/b.html") == "a/b.html"
    assert local_path("http://h/a/b") == "a/b/index.html"
    assert local_path("http://h/../../etc/passwd") == "etc/passwd/index.html"
    assert local_path("http://h/x.png?v=2").startswith("x-") and local_path("http://h/x.png?v=2").endswith(".png")


def test_crawl_mirrors_pages_and_images_politely(live_site: tuple[str, Path, list[tuple[str, int]]],
                                                 tmp_path: Path) -> None:
    url, _, requests = live_site
    requests.clear()
    crawler = Crawler(url, tmp_path / "cache", CrawlOptions(max_pages=20, delay=0.0))
    report = crawler.run()
    paths = {p for p, _ in requests}
    assert "/robots.txt" in paths and "/sitemap.xml" in paths
    assert "guide/install/index.html" in report.pages and "index.html" in report.pages
    assert "guide/orphan/index.html" in report.pages  # reached through the sitemap only
    assert not any(p.startswith("/private/") for p in paths)  # robots.txt honoured
    assert any(u.endswith("/private/secret/") and "robots" in why for u, why in report.skipped)
    assert "/other.html" not in paths  # another host (localhost vs 127.0.0.1) is never fetched
    assert report.images == ["guide/img/licence.png"]
    # the mirror is a built site whose page points at the mirrored image, with the live URL as canonical
    site = built.load(report.root)
    assert site.classify("guide/install/index.html").role is FileRole.PAGE
    page = (report.root / "guide/install/index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{url}guide/install/">' in page
    cleaned = site.preprocess(page, page_rel="guide/install/index.html")
    doc = convert_html_text(cleaned, source_path="guide/install/index.html",
                            page_dir=report.root / "guide/install", root=report.root)
    images = [m for m in doc.media if m.kind == "image"]
    assert [(m.alt, m.path) for m in images] == [("Licence dialog", "guide/img/licence.png")]
    assert "tick the box labelled" in " ".join(s.text for s in doc.sections)
    assert doc.sections[0].page_url == f"{url}guide/install/"

    # a second crawl sends conditional requests and reuses the cache on 304
    requests.clear()
    again = Crawler(url, tmp_path / "cache", CrawlOptions(max_pages=20, delay=0.0)).run()
    assert again.not_modified >= len(report.pages) and again.fetched <= 2  # robots.txt + sitemap.xml
    assert any(code == 304 for _, code in requests)
    assert sorted(again.pages) == sorted(report.pages)


def test_allow_host_and_max_pages(live_site: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path) -> None:
    url, _, _ = live_site
    port = url.rsplit(":", 1)[1].strip("/")
    report = Crawler(url, tmp_path, CrawlOptions(max_pages=50, delay=0.0, use_sitemap=False,
                                                 allow_hosts=(f"localhost:{port}",))).run()
    assert "index.html" in report.pages and "guide/orphan/index.html" not in report.pages  # no sitemap
    assert f"_hosts/localhost_{port}/other.html" in report.pages  # an allowed host, kept apart
    small = Crawler(url, tmp_path / "small", CrawlOptions(max_pages=1, delay=0.0)).run()
    assert small.pages == ["index.html"]


def test_rate_limit(live_site: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path) -> None:
    """With a clock that only moves when the crawler sleeps, every request after
    the first must wait the full delay."""
    url, _, requests = live_site
    now = [0.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    requests.clear()
    Crawler(url, tmp_path, CrawlOptions(max_pages=3, delay=2.5), sleep=sleep, clock=lambda: now[0]).run()
    assert len(requests) >= 4
    assert sleeps == [2.5] * (len(requests) - 1)


def test_robots_crawl_delay_raises_the_delay(tmp_path: Path) -> None:
    import httpx

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(200, text="User-agent: *\nCrawl-delay: 7\n")
        if request.url.path == "/sitemap.xml":
            return httpx.Response(404)
        return httpx.Response(200, html="<html><body><a href='/b.html'>b</a></body></html>")

    now = [0.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    client = httpx.Client(transport=httpx.MockTransport(handler))
    report = Crawler("http://docs.test/", tmp_path, CrawlOptions(delay=1.0, max_pages=2), client=client,
                     sleep=sleep, clock=lambda: now[0]).run()
    assert report.pages == ["index.html", "b.html"]
    assert sleeps and set(sleeps) == {7.0}  # every wait after robots.txt is the Crawl-delay


def test_unreachable_start_is_a_typed_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(IngestError, match="cannot reach"):
        Crawler(f"http://127.0.0.1:{port}/docs/", tmp_path, CrawlOptions(delay=0.0, timeout=2)).run()


def test_murar_ingest_url_then_ask(live_site: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path) -> None:
    """``murar ingest <URL>`` crawls, mirrors and indexes; the answer shows the crawled screenshot."""
    import json

    from typer.testing import CliRunner

    from murar.cli.main import app

    url, _, _ = live_site
    runner = CliRunner()
    idx = tmp_path / "idx"
    r = runner.invoke(app, ["ingest", url, "--index", str(idx), "--embedder", "hashing", "--max-pages", "10",
                            "--crawl-delay", "0", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["report"]["pages"] >= 2 and data["report"]["images"] >= 1
    assert data["report"]["site"]["generator"] == "html" and data["report"]["assets"]["resolution_rate"] == 1.0
    assert data["crawl"]["pages"] >= 3 and data["crawl"]["images"] == 1
    assert any("robots" in s["reason"] for s in data["crawl"]["skipped"])
    assert (tmp_path / "idx.crawl").is_dir()
    out = tmp_path / "answer.md"
    r = runner.invoke(app, ["ask", "How do I accept the licence agreement in the Gizmo installer?", "--index", str(idx),
                            "--llm", "extractive", "--out", str(out)])
    assert r.exit_code == 0, r.output
    md = out.read_text(encoding="utf-8")
    assert "licence.png" in md, md
    # citations point at the live page (the canonical URL the crawler records), not the local mirror
    sources = md.split("**Sources**", 1)[1]
    assert "<" + url.rstrip("/") in sources and ".crawl" not in sources, sources
    r = runner.invoke(app, ["ask", "How do I accept the licence agreement in the Gizmo installer?", "--index", str(idx),
                            "--llm", "extractive", "--format", "json"])
    assert r.exit_code == 0, r.output
    json_sources = json.loads(r.output)["sources"]
    assert json_sources and all(s["page_url"].startswith(url.rstrip("/")) for s in json_sources)
    r = runner.invoke(app, ["ingest", "http://", "--index", str(idx), "--embedder", "hashing"])
    assert r.exit_code == 1 and "Traceback" not in r.output


def test_redirects_stay_in_scope_and_lazy_images(tmp_path: Path) -> None:
    """``/guide`` redirects to ``/guide/`` (links resolve against the final URL); a
    redirect to another host is never followed; ``data-src`` lazy images are mirrored."""
    import httpx

    hits: list[str] = []
    pic = png(4)

    def handler(request: httpx.Request) -> httpx.Response:
        hits.append(f"{request.url.host}{request.url.path}")
        path = request.url.path
        if request.url.host != "docs.test":
            return httpx.Response(200, html="<html><body>elsewhere</body></html>")
        if path == "/robots.txt" or path.endswith("sitemap.xml"):
            return httpx.Response(404)
        if path == "/":
            return httpx.Response(200, html="<html><body><a href='/guide'>Guide</a>"
                                             "<a href='/out'>Out</a></body></html>")
        if path == "/guide":
            return httpx.Response(301, headers={"location": "/guide/"})
        if path == "/out":
            return httpx.Response(302, headers={"location": "https://tracker.example/x"})
        if path == "/guide/":
            return httpx.Response(200, html="<html><body><h1>Guide</h1><p>Steps.</p>"
                                             "<img src='data:image/gif;base64,R0lGOD' data-src='img/step.png' "
                                             "alt='Step'></body></html>")
        if path == "/guide/img/step.png":
            return httpx.Response(200, content=pic, headers={"content-type": "image/png"})
        return httpx.Response(404)

    client = httpx.Client(transport=httpx.MockTransport(handler), follow_redirects=True)
    report = Crawler("http://docs.test/", tmp_path, CrawlOptions(delay=0.0), client=client).run()
    assert sorted(report.pages) == ["guide/index.html", "index.html"]
    assert report.images == ["guide/img/step.png"]
    assert not any(h.startswith("tracker.example") for h in hits)
    assert any("another host" in why for _, why in report.skipped)
    page = (report.root / "guide/index.html").read_text(encoding="utf-8")
    assert 'src="img/step.png"' in page and "data-src" not in page


def test_a_response_is_read_within_its_size_and_time_bounds(tmp_path: Path) -> None:
    """client.get read a whole body before its size was checked: a 300 KB gzip page
    inflating to 300 MB took the crawl to 650 MB of memory before it was refused, and a
    server sending a byte a second held a request as long as it liked (the timeout is per
    read). Bodies are read as they arrive now, and dropped past max_bytes or max_seconds."""
    import gzip
    import time

    import httpx

    pulled = {"big": 0, "slow": 0}

    def big() -> Iterator[bytes]:
        for _ in range(200):  # 200 MB if read to the end
            pulled["big"] += 1
            yield b"a" * 1_000_000

    def slow() -> Iterator[bytes]:
        for _ in range(40):  # 12 s if read to the end
            pulled["slow"] += 1
            time.sleep(0.3)
            yield b"<p>x</p>"

    bomb = gzip.compress(b"<url><loc>http://docs.test/x</loc></url>" * 2_000_000)  # 82 MB inflated

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/robots.txt":
            return httpx.Response(200, text="User-agent: *\nSitemap: http://docs.test/sitemap.xml.gz\n")
        if path == "/sitemap.xml.gz":
            return httpx.Response(200, content=bomb)
        if path == "/big.html":
            return httpx.Response(200, headers={"content-type": "text/html"}, content=big())
        if path == "/slow.html":
            return httpx.Response(200, headers={"content-type": "text/html"}, content=slow())
        return httpx.Response(200, html="<html><body><p>Start</p><a href='/big.html'>b</a>"
                                        "<a href='/slow.html'>s</a></body></html>")

    client = httpx.Client(transport=httpx.MockTransport(handler))
    report = Crawler("http://docs.test/", tmp_path, CrawlOptions(delay=0.0, max_bytes=5_000_000, max_seconds=1.5),
                     client=client).run()
    assert report.pages == ["index.html"] and report.sitemap_urls == 0
    skipped = dict(report.skipped)
    assert skipped["http://docs.test/big.html"] == "larger than 5000000 bytes"
    assert skipped["http://docs.test/slow.html"] == "took longer than 1.5 s to send"
    assert pulled["big"] <= 6 and pulled["slow"] <= 7


def test_the_canonical_link_of_a_mirrored_page_is_its_url() -> None:
    """The URL was pasted into the attribute as written: a '"' in a crawled link ended it
    (the page cited 'http://docs.test/a' for 'http://docs.test/a"b'), '&copy=' in a query
    read as '©='."""
    from selectolax.lexbor import LexborHTMLParser

    from murar.ingest.crawl import _rewrite_page

    for url in ('http://docs.test/a"><script>x</script>', "http://docs.test/p?x=1&copy=2&lt=3"):
        page = _rewrite_page("<html><head></head><body><p>x</p></body></html>", {}, url)
        link = LexborHTMLParser(page).css_first("link[rel=canonical]")
        assert link is not None and link.attributes["href"] == url
        assert "<script>" not in page
