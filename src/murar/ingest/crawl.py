"""Live documentation sites: a polite crawler that mirrors pages and images to disk.

``murar ingest https://docs.example.org/guide/ --max-pages N`` crawls the site
into a local mirror, then ingests the mirror as a built HTML site
(:mod:`murar.ingest.sites.built`).

- Scope: the start URL's host and path prefix (``/guide/`` above), never another
  host unless it is listed in ``allow_hosts``; images on other hosts stay
  remote references (never fetched).
- Seeds: the sitemaps named in ``robots.txt``, else ``sitemap.xml`` at the
  start folder and at the host root (sitemap indexes followed; ``.gz``
  accepted), plus the start URL; then same-scope links of every page,
  breadth-first, up to ``max_pages`` HTML pages.
- ``robots.txt`` is honoured (:mod:`urllib.robotparser`, RFC 9309): a 4xx
  robots file allows everything, a server error or an unreachable one
  disallows everything; its ``Crawl-delay`` raises the delay between requests.
- Politeness: one request at a time, at least ``delay`` seconds apart.
- Bounds: a response body is read as it arrives, decoded (gzip, deflate, ...), and
  dropped once it passes ``max_bytes`` or takes longer than ``max_seconds`` in
  all (``timeout`` only bounds each read), so neither a compression bomb nor a
  server that sends a byte at a time can exhaust memory or hold the crawl.
- Cache: pages and images are written under ``cache_dir/<host>/`` with their
  ``ETag``/``Last-Modified``; the next crawl sends ``If-None-Match`` /
  ``If-Modified-Since`` and keeps the cached copy on ``304 Not Modified``.
- Saved pages get ``<img src>`` rewritten to the mirrored image (relative to
  the page) and a ``<link rel="canonical">`` to the live URL, so answers cite
  the live page.
"""

from __future__ import annotations

import hashlib
import json
import logging
import posixpath
import time
import xml.etree.ElementTree as ET
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape as html_escape
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urldefrag, urljoin, urlsplit, urlunsplit
from urllib.robotparser import RobotFileParser

import httpx
from selectolax.lexbor import LexborHTMLParser

from murar import __version__
from murar.errors import ConfigError, IngestError
from murar.ingest.html import LAZY_IMAGE_ATTRS, image_source

log = logging.getLogger(__name__)

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_IMAGE_EXTS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".avif"})
_SKIP_EXTS = frozenset({".pdf", ".zip", ".gz", ".tar", ".tgz", ".exe", ".dmg", ".mp4", ".webm", ".mov", ".mp3",
                        ".css", ".js", ".json", ".xml", ".txt", ".woff", ".woff2", ".ttf", ".ico", ".rss",
                        *_IMAGE_EXTS})
_META_FILE = ".murar-crawl.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class CrawlOptions:
    """Crawl settings. ``delay``: minimum seconds between two requests;
    ``timeout``: seconds one read of a response may wait (httpx's timeout);
    ``max_seconds``: seconds one response may take in all; ``max_bytes``: larger
    responses (decoded bytes; sitemaps after gunzipping) are skipped;
    ``allow_hosts``: hosts besides the start URL's whose pages and images may be
    fetched; ``use_sitemap``: seed from sitemaps."""

    max_pages: int = 200
    delay: float = 1.0
    timeout: float = 20.0
    max_seconds: float = 120.0
    max_bytes: int = 20_000_000
    max_images: int = 5_000
    allow_hosts: tuple[str, ...] = ()
    use_sitemap: bool = True
    user_agent: str = f"murar/{__version__} (documentation ingest)"


@dataclass(slots=True, kw_only=True)
class CrawlReport:
    """What a crawl did: the mirror ``root`` (ingest it as a built site), the
    ``pages`` and ``images`` saved (posix paths under ``root``), how many
    responses were ``fetched`` (200), ``not_modified`` (304, cache reused) and
    ``skipped`` ``(url, reason)`` pairs (robots, other host, errors, size)."""

    root: Path
    start_url: str
    pages: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    fetched: int = 0
    not_modified: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    sitemap_urls: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class _Got:
    """A response read within the crawl's bounds (see :func:`_fetch`)."""

    status_code: int
    headers: httpx.Headers
    content: bytes

    @property
    def has_redirect_location(self) -> bool:
        return self.status_code in (301, 302, 303, 307, 308) and "location" in self.headers

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


def _fetch(client: httpx.Client, url: str, headers: dict[str, str], *, follow_redirects: bool,
           max_bytes: int, max_seconds: float) -> _Got:
    """GET ``url``, its body read as it arrives (decoded: gzip, deflate, brotli) and
    only for a ``200`` answer.

    ``client.get`` read the whole body before its size could be checked: a 300 KB gzip
    page inflating to 300 MB raised the crawl's memory to 650 MB before it was refused
    (memory grows with the bomb: an ingest of a hostile site is killed), and a server
    sending one byte a second held a request as long as it liked (httpx's timeout is per
    read: 60 s with a 5 s timeout).

    Raises:
        _Skip: more than ``max_bytes`` decoded bytes, or over ``max_seconds`` in all.
        httpx.HTTPError: the request failed.
    """
    deadline = time.monotonic() + max_seconds
    with client.stream("GET", url, headers=headers, follow_redirects=follow_redirects) as resp:
        body = bytearray()
        if resp.status_code == 200:
            for chunk in resp.iter_bytes():
                body += chunk
                if len(body) > max_bytes:
                    raise _Skip(f"larger than {max_bytes} bytes")
                if time.monotonic() > deadline:
                    raise _Skip(f"took longer than {max_seconds:g} s to send")
        return _Got(resp.status_code, resp.headers, bytes(body))


def _gunzip(data: bytes, max_bytes: int) -> bytes | None:
    """``data`` gunzipped, or ``None`` when it is not gzip or inflates past ``max_bytes``
    (a sitemap.xml.gz bomb was inflated whole by ``gzip.decompress``)."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, max_bytes)
    except zlib.error:
        return None
    return None if inflater.unconsumed_tail else out


def is_url(source: str) -> bool:
    """True when ``source`` is an ``http``/``https`` URL (what ``murar ingest`` crawls)."""
    return source.lower().startswith(("http://", "https://"))


def _normalise(url: str) -> str:
    url, _ = urldefrag(url.strip())
    parts = urlsplit(url)
    path = parts.path or "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def local_path(url: str) -> str:
    """Mirror path (posix, below the host folder) of a URL: ``/a/`` -> ``a/index.html``,
    ``/a/b.html`` -> ``a/b.html``, ``/a/b`` (a page) -> ``a/b/index.html``; a query
    string gets a hash suffix. Never escapes the host folder."""
    parts = urlsplit(url)
    segs = [s for s in unquote(parts.path).split("/") if s not in ("", ".", "..")]
    segs = [s.replace("\\", "_").replace("\x00", "_") for s in segs]
    if parts.path.endswith("/") or not segs or not PurePosixPath(segs[-1]).suffix:
        segs.append("index.html")
    if parts.query:
        stem, ext = posixpath.splitext(segs[-1])
        segs[-1] = f"{stem}-{hashlib.sha1(parts.query.encode()).hexdigest()[:8]}{ext}"
    return "/".join(segs)


class Crawler:
    """Crawl one documentation site into ``cache_dir`` (see module doc).

    ``client`` is an injected :class:`httpx.Client` (default: a new one with the
    options' user agent and timeout); ``sleep`` and ``clock`` are injectable for
    tests. The constructor does no I/O.

    Raises (from :meth:`run`):
        ConfigError: the start URL is not an http(s) URL.
        IngestError: the start page cannot be fetched at all.
    """

    def __init__(self, start_url: str, cache_dir: Path, options: CrawlOptions | None = None, *,
                 client: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.start_url = _normalise(start_url)
        self.options = options or CrawlOptions()
        self.cache_dir = cache_dir
        self._client = client
        self._sleep = sleep
        self._clock = clock
        self._last_request = -1e9
        self._delay = self.options.delay
        self._robots: dict[str, RobotFileParser] = {}
        self._robots_error: dict[str, str] = {}
        self._meta: dict[str, dict[str, str]] = {}
        self._mirror = cache_dir / urlsplit(self.start_url).netloc.replace(":", "_")
        self._report = CrawlReport(root=self._mirror, start_url=self.start_url)

    # ------------------------------------------------------------------ scope
    @property
    def host(self) -> str:
        return urlsplit(self.start_url).netloc

    @property
    def prefix(self) -> str:
        path = urlsplit(self.start_url).path
        return path if path.endswith("/") else posixpath.dirname(path) + "/"

    def in_scope(self, url: str) -> bool:
        """Same scheme family, the start host (or an allowed one) and, on the start
        host, under the start URL's folder."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            return False
        if parts.netloc == self.host:
            return (parts.path or "/").startswith(self.prefix)
        return parts.netloc in self.options.allow_hosts

    def host_allowed(self, url: str) -> bool:
        """True for the start host and the allowed hosts (images are fetched only there)."""
        netloc = urlsplit(url).netloc
        return netloc == self.host or netloc in self.options.allow_hosts

    # ---------------------------------------------------------------- network
    def _wait(self) -> None:
        gap = self._clock() - self._last_request
        if gap < self._delay:
            self._sleep(self._delay - gap)
        self._last_request = self._clock()

    def _get(self, client: httpx.Client, url: str, headers: dict[str, str] | None = None) -> _Got:
        self._wait()
        return _fetch(client, url, headers or {}, follow_redirects=True, max_bytes=self.options.max_bytes,
                      max_seconds=self.options.max_seconds)

    def _robots_for(self, client: httpx.Client, url: str) -> RobotFileParser:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin in self._robots:
            return self._robots[origin]
        rp = RobotFileParser(origin + "/robots.txt")
        try:
            resp = self._get(client, origin + "/robots.txt")
        except (httpx.HTTPError, _Skip) as err:
            rp.parse(["User-agent: *", "Disallow: /"])
            self._robots_error[origin] = (f"cannot read {origin}/robots.txt ({err})" if isinstance(err, _Skip)
                                          else f"cannot reach {origin} ({type(err).__name__}: {err})")
        else:
            if resp.status_code >= 500:
                rp.parse(["User-agent: *", "Disallow: /"])
                self._robots_error[origin] = f"{origin}/robots.txt answered HTTP {resp.status_code}"
            elif resp.status_code >= 400:
                rp.parse([])
            else:
                rp.parse(resp.text.splitlines())
                delay = rp.crawl_delay(self.options.user_agent)
                if delay is not None:
                    self._delay = max(self._delay, float(delay))
        self._robots[origin] = rp
        return rp

    def allowed(self, client: httpx.Client, url: str) -> bool:
        """``robots.txt`` of the URL's origin permits our user agent to fetch it."""
        return self._robots_for(client, url).can_fetch(self.options.user_agent, url)

    # ------------------------------------------------------------------ cache
    def _load_meta(self) -> None:
        path = self._mirror / _META_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        except (OSError, ValueError):
            data = {}
        self._meta = data if isinstance(data, dict) else {}

    def _save_meta(self) -> None:
        self._mirror.mkdir(parents=True, exist_ok=True)
        tmp = self._mirror / (_META_FILE + ".tmp")
        tmp.write_text(json.dumps(self._meta, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(self._mirror / _META_FILE)

    def _get_within(self, client: httpx.Client, url: str, headers: dict[str, str]) -> tuple[_Got, str]:
        """GET ``url`` following at most 5 redirects, each to an allowed host and
        permitted by robots.txt; returns the response and the final URL.

        Raises:
            _Skip: a redirect leaves the allowed hosts, is disallowed, or loops; the
                body is too large or too slow (:func:`_fetch`).
            httpx.HTTPError: a request failed.
        """
        for _ in range(6):
            self._wait()
            resp = _fetch(client, url, headers, follow_redirects=False, max_bytes=self.options.max_bytes,
                          max_seconds=self.options.max_seconds)
            if not resp.has_redirect_location:
                return resp, url
            target = _normalise(urljoin(url, resp.headers.get("location", "")))
            if not self.host_allowed(target):
                raise _Skip(f"redirects to another host ({urlsplit(target).netloc})")
            if not self.allowed(client, target):
                raise _Skip("redirect target disallowed by robots.txt")
            url = target
        raise _Skip("too many redirects")

    def _fetch_cached(self, client: httpx.Client, url: str, rel: str) -> tuple[bytes, str, str]:
        """Body, content type and final URL (after redirects) of ``url``: fetched, or
        the cached copy on ``304 Not Modified``.

        Raises:
            _Skip: not a 200/304 answer, too large, or redirected out of scope
                (the caller records the reason).
            httpx.HTTPError: the request failed.
        """
        entry = self._meta.get(url, {})
        target = self._mirror / (entry.get("path") or rel)
        headers: dict[str, str] = {}
        if entry and target.is_file():
            if entry.get("etag"):
                headers["If-None-Match"] = entry["etag"]
            if entry.get("last_modified"):
                headers["If-Modified-Since"] = entry["last_modified"]
        resp, final = self._get_within(client, url, headers)
        if resp.status_code == 304 and target.is_file():
            self._report.not_modified += 1
            return target.read_bytes(), entry.get("content_type", ""), entry.get("final", final)
        if resp.status_code != 200:
            raise _Skip(f"HTTP {resp.status_code}")
        self._report.fetched += 1
        ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
        self._meta[url] = {"etag": resp.headers.get("etag", ""),
                           "last_modified": resp.headers.get("last-modified", ""),
                           "content_type": ctype, "path": rel, "final": final}
        return resp.content, ctype, final

    # ---------------------------------------------------------------- sitemap
    def sitemap_urls(self, client: httpx.Client) -> list[str]:
        """Page URLs listed by the site's sitemaps (robots ``Sitemap:`` lines, else
        ``sitemap.xml`` at the start folder and the root), in scope, in order."""
        rp = self._robots_for(client, self.start_url)
        origin = f"{urlsplit(self.start_url).scheme}://{self.host}"
        maps = list(rp.site_maps() or []) or list(dict.fromkeys(
            [urljoin(origin + self.prefix, "sitemap.xml"), origin + "/sitemap.xml"]))
        seen: set[str] = set()
        out: list[str] = []
        queue = deque((m, 0) for m in maps)
        while queue and len(seen) < 50:
            url, depth = queue.popleft()
            if url in seen or not self.host_allowed(url):
                continue
            seen.add(url)
            try:
                resp, _ = self._get_within(client, url, {})
            except (_Skip, httpx.HTTPError):
                continue
            if resp.status_code != 200:
                continue
            data = resp.content
            if url.endswith(".gz") or data[:2] == b"\x1f\x8b":
                inflated = _gunzip(data, self.options.max_bytes)
                if inflated is None:
                    continue
                data = inflated
            try:
                tree = ET.fromstring(data)
            except ET.ParseError:
                continue
            tag = tree.tag.rsplit("}", 1)[-1]
            locs = [el.text.strip() for el in tree.iter() if el.tag.rsplit("}", 1)[-1] == "loc" and el.text]
            if tag == "sitemapindex" and depth < 2:
                queue.extend((loc, depth + 1) for loc in locs)
            elif tag == "urlset":
                out += [_normalise(loc) for loc in locs if self.in_scope(_normalise(loc))]
        return list(dict.fromkeys(out))

    # -------------------------------------------------------------------- run
    def run(self, *, on_page: Callable[[str], None] | None = None) -> CrawlReport:
        """Crawl and mirror; returns the :class:`CrawlReport` (``root`` is the
        mirror folder of the start host)."""
        if not is_url(self.start_url):
            raise ConfigError(f"not an http(s) URL: {self.start_url!r}")
        started = self._clock()
        self._report = CrawlReport(root=self._mirror, start_url=self.start_url)
        self._load_meta()
        own = self._client is None
        client = self._client or httpx.Client(
            headers={"User-Agent": self.options.user_agent}, timeout=self.options.timeout, follow_redirects=True)
        try:
            self._crawl(client, on_page)
        finally:
            self._save_meta()
            if own:
                client.close()
        self._report.seconds = self._clock() - started
        return self._report

    def _crawl(self, client: httpx.Client, on_page: Callable[[str], None] | None) -> None:
        report = self._report
        queue: deque[str] = deque([self.start_url])
        if self.options.use_sitemap:
            listed = self.sitemap_urls(client)
            report.sitemap_urls = len(listed)
            queue.extend(listed)
        seen: set[str] = set()
        images: dict[str, str | None] = {}
        first = True
        while queue and len(report.pages) < self.options.max_pages:
            url = queue.popleft()
            if url in seen:
                continue
            seen.add(url)
            if not self.in_scope(url):
                report.skipped.append((url, "outside the crawl scope"))
                continue
            if PurePosixPath(urlsplit(url).path).suffix.lower() in _SKIP_EXTS:
                continue
            if not self.allowed(client, url):
                report.skipped.append((url, "disallowed by robots.txt"))
                if first:
                    parts = urlsplit(url)
                    why = self._robots_error.get(f"{parts.scheme}://{parts.netloc}")
                    raise IngestError(why + "; nothing crawled (robots.txt must be readable)" if why else
                                      f"{url}: robots.txt disallows crawling it for {self.options.user_agent}")
                continue
            rel = self._mirror_path(url)
            try:
                got = self._fetch_cached(client, url, rel)
            except (_Skip, httpx.HTTPError) as err:
                reason = str(err) if isinstance(err, _Skip) else f"{type(err).__name__}: {err}"
                report.skipped.append((url, reason))
                if first:
                    raise IngestError(f"cannot fetch the start page {url}: {reason}") from err
                continue
            first = False
            body, ctype, final = got
            if ctype and ctype not in _HTML_TYPES:
                report.skipped.append((url, f"not a page ({ctype})"))
                continue
            if final != url:  # a redirect: the page is the final URL's (its links resolve against it)
                if final in seen or not self.in_scope(final):
                    continue
                seen.add(final)
                url, rel = final, self._mirror_path(final)
                self._meta.setdefault(url, {}).update({"path": rel})
            html = body.decode("utf-8", errors="replace")
            links, page_images = self._links(html, url)
            queue.extend(link for link in links if link not in seen)
            mapping: dict[str, str] = {}
            for src, absolute in page_images:
                if absolute not in images:
                    images[absolute] = self._image(client, absolute) if len(images) < self.options.max_images \
                        else None
                local = images[absolute]
                if local is not None:
                    mapping[src] = posixpath.relpath(local, posixpath.dirname(rel) or ".")
            self._write(rel, _rewrite_page(html, mapping, url))
            report.pages.append(rel)
            if on_page is not None:
                on_page(url)

    def _links(self, html: str, url: str) -> tuple[list[str], list[tuple[str, str]]]:
        try:
            tree = LexborHTMLParser(html)
        except Exception:  # noqa: BLE001 - lenient parser; a bad page yields no links
            return [], []
        base_node = tree.css_first("base[href]")
        base = urljoin(url, base_node.attributes.get("href") or "") if base_node is not None else url
        links: list[str] = []
        for a in tree.css("a[href]"):
            href = (a.attributes.get("href") or "").strip()
            if not href or href.startswith(("#", "mailto:", "javascript:", "tel:")):
                continue
            absolute = _normalise(urljoin(base, href))
            if self.in_scope(absolute):
                links.append(absolute)
        imgs: list[tuple[str, str]] = []
        for img in tree.css("img"):
            src = image_source(img.attributes)
            if src:
                imgs.append((src, _normalise(urljoin(base, src))))
        return links, imgs

    def _image(self, client: httpx.Client, url: str) -> str | None:
        """Mirror one image; its path under the host folder, or ``None`` (left remote)."""
        if not self.host_allowed(url):
            return None
        if not self.allowed(client, url):
            self._report.skipped.append((url, "disallowed by robots.txt"))
            return None
        rel = self._mirror_path(url)
        if rel.endswith("/index.html"):  # an image URL without a file name
            rel = rel[: -len("/index.html")] + ".img"
        try:
            got = self._fetch_cached(client, url, rel)
        except (_Skip, httpx.HTTPError) as err:
            self._report.skipped.append((url, str(err)))
            return None
        body, ctype, _ = got
        if ctype and not ctype.startswith("image/"):
            self._report.skipped.append((url, f"not an image ({ctype})"))
            return None
        self._write_bytes(rel, body)
        self._report.images.append(rel)
        return rel

    def _mirror_path(self, url: str) -> str:
        """Where ``url`` is mirrored below the start host's folder (other allowed
        hosts under ``_hosts/<host>/``, never mixed with the start host's paths)."""
        rel = local_path(url)
        netloc = urlsplit(url).netloc
        return rel if netloc == self.host else f"_hosts/{netloc.replace(':', '_')}/{rel}"

    def _write(self, rel: str, text: str) -> None:
        self._write_bytes(rel, text.encode("utf-8"))

    def _write_bytes(self, rel: str, data: bytes) -> None:
        target = self._mirror / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_file() and target.read_bytes() == data:
            return
        tmp = target.with_name(target.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(target)


class _Skip(Exception):
    """A URL not saved (reason in the message)."""


def _rewrite_page(html: str, images: dict[str, str], url: str) -> str:
    """Point ``<img src>`` at mirrored files and add a canonical link to the live URL."""
    try:
        tree = LexborHTMLParser(html)
    except Exception:  # noqa: BLE001
        return html
    for img in tree.css("img"):
        src = image_source(img.attributes)
        if src in images:
            img.attrs["src"] = images[src]
            for lazy in ("srcset", *LAZY_IMAGE_ATTRS):
                if lazy in img.attributes:
                    del img.attrs[lazy]
    head = tree.head
    if head is not None and tree.css_first("link[rel=canonical]") is None:
        # the URL as an attribute value: a '"' in it ended the attribute (the page cited
        # 'http://docs.test/a' for 'http://docs.test/a"b'), '&copy=' in a query read as '©='
        canonical = LexborHTMLParser(f'<link rel="canonical" href="{html_escape(url, quote=True)}">').css_first("link")
        if canonical is not None:
            head.insert_child(canonical)
    return tree.html or html


def crawl(start_url: str, cache_dir: Path, options: CrawlOptions | None = None, *,
          on_page: Callable[[str], None] | None = None) -> CrawlReport:
    """Crawl ``start_url`` into ``cache_dir`` with a new HTTP client (see :class:`Crawler`)."""
    return Crawler(start_url, cache_dir, options).run(on_page=on_page)
