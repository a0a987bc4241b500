"""``murar ingest URL``: crawl a live documentation site into a local mirror first."""

from __future__ import annotations

from pathlib import Path

from murar.cli.progress import RichProgress
from murar.ingest.crawl import Crawler, CrawlOptions, CrawlReport, is_url


def crawl_source(url: str, *, index: Path, cache: Path | None, max_pages: int, allow_hosts: list[str],
                 delay: float, progress: RichProgress) -> CrawlReport:
    """Crawl ``url`` (see :mod:`murar.ingest.crawl`) into ``cache`` (default: the
    folder ``<index>.crawl`` beside the index) with a progress bar of ``max_pages``.

    Raises:
        ConfigError: ``url`` is not an http(s) URL or an option is out of range.
        IngestError: the start page cannot be fetched or robots.txt forbids it.
    """
    from murar.errors import ConfigError

    if not is_url(url):
        raise ConfigError(f"not an http(s) URL: {url!r}")
    if max_pages < 1:
        raise ConfigError("--max-pages must be at least 1")
    if delay < 0:
        raise ConfigError("--crawl-delay must not be negative")
    folder = cache if cache is not None else index.with_name(index.name + ".crawl")
    progress.start("crawl", max_pages)
    crawler = Crawler(url, folder, CrawlOptions(max_pages=max_pages, delay=delay,
                                                allow_hosts=tuple(h.lower() for h in allow_hosts)))
    return crawler.run(on_page=lambda _: progress.advance("crawl"))


def crawl_summary(report: CrawlReport | None) -> dict[str, object]:
    """``{"crawl": {...}}`` for ``--format json`` (empty when nothing was crawled)."""
    if report is None:
        return {}
    return {"crawl": {"start_url": report.start_url, "mirror": str(report.root), "pages": len(report.pages),
                      "images": len(report.images), "fetched": report.fetched,
                      "not_modified": report.not_modified, "sitemap_urls": report.sitemap_urls,
                      "skipped": [{"url": u, "reason": r} for u, r in report.skipped],
                      "seconds": round(report.seconds, 2)}}


__all__ = ["crawl_source", "crawl_summary", "is_url"]
