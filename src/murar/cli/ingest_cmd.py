"""``murar ingest``: build or refresh an index from a corpus folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from murar.cli.common import (
    AUTO_FALLBACK_NOTICE,
    DEFAULT_INDEX,
    StoreOption,
    auto_embedder_kind,
    fail,
    finite,
    index_target,
    ingest_embedder,
    recorded_embedder,
)
from murar.cli.crawl_source import crawl_source, crawl_summary, is_url
from murar.cli.progress import RichProgress
from murar.errors import MurarError
from murar.ingest.sites.detect import site_types
from murar.schema import to_jsonable


def ingest(
    corpus: Annotated[str, typer.Argument(help="Folder of a documentation site (Docusaurus, MkDocs, Sphinx, "
                                          "...) or of .md, .html, .pdf, .adoc, .rst and .ipynb files (searched recursively), "
                                          "or the http(s) URL of a live documentation site (crawled).")],
    index: Annotated[Path, typer.Option("--index", "-i", help="Index folder to create or refresh.")] = DEFAULT_INDEX,
    embedder: Annotated[str, typer.Option(help="auto (default: a refresh keeps the index's embedder; a new "
                                               "index gets mpnet when prepared, else minilm) | mpnet "
                                               "(all-mpnet-base-v2, 768-d, better on unseen docs, ~5x slower "
                                               "to embed; once: `murar models prepare --embedder mpnet`) | "
                                               "minilm (bundled, offline; the index's tuned MiniLM when "
                                               "`murar tune-embedder` made one) | openai | hashing (tests only).")]
    = "auto",
    embed_base_url: Annotated[str | None, typer.Option(help="Base URL of an OpenAI-compatible embeddings API.")] = None,
    embed_model: Annotated[str | None, typer.Option(help="Model name for --embedder openai.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(help="Extra file-name patterns to skip (repeatable).")] = None,
    output: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
    show_warnings: Annotated[int, typer.Option(min=0, help="How many warnings to list in the text summary.")] = 10,
    store: StoreOption = None,
    incremental: Annotated[bool, typer.Option(
        "--incremental/--full",
        help="Only re-embed and rewrite changed pages (default; a new embedder or corpus root rebuilds all).",
    )] = True,
    transcribe: Annotated[bool, typer.Option(
        "--transcribe", help="Transcribe local video files without subtitles (speech recognition, "
        "'asr' extra: whisper tiny.en, cached per file content).")] = False,
    max_pages: Annotated[int, typer.Option(min=1, help="Live sites: most pages to crawl.")] = 200,
    allow_host: Annotated[list[str] | None, typer.Option(
        help="Live sites: another host whose pages and images may be fetched (repeatable).")] = None,
    crawl_delay: Annotated[float, typer.Option(
        min=0.0, callback=finite,
        help="Live sites: seconds between requests (a larger robots.txt Crawl-delay wins).")] = 1.0,
    crawl_cache: Annotated[Path | None, typer.Option(
        help="Live sites: folder caching pages and images between runs (default: <index>.crawl).")] = None,
    site_type: Annotated[str, typer.Option(
        "--site-type", help="Documentation generator, detected from its config file by default: "
        + " | ".join(site_types()) + " (html: a built site; plain: no generator rules).")] = "auto",
    language: Annotated[str | None, typer.Option(
        "--language", help="Language of a multilingual site to read instead of its default one: a Docusaurus "
        "locale (i18n.locales), a Hugo language key, an mkdocs-static-i18n locale. Untranslated pages "
        "fall back to the default language where the generator does so.")] = None,
    docs_version: Annotated[str | None, typer.Option(
        "--docs-version", help="Docs version of a versioned site to read instead of the default one: a "
        "Docusaurus versions.json name or 'current', an Antora component version (a component without "
        "it keeps its latest).")] = None,
    max_file_bytes: Annotated[int, typer.Option(
        min=0,
        help="Per-file budget: larger files are skipped unread (bytes; 0 = no limit).")] = 50_000_000,
    max_file_sections: Annotated[int, typer.Option(
        min=0,
        help="Per-file budget: sections kept per file, the rest dropped with a warning (0 = no limit).")] = 2_000,
    max_file_snippets: Annotated[int, typer.Option(
        min=0,
        help="Per-file budget: snippets indexed per file (0 = no limit).")] = 2_000,
    max_file_media: Annotated[int, typer.Option(
        min=0,
        help="Per-file budget: images, tables and videos indexed per file, the first in page order "
        "(0 = no limit).")] = 2_000,
    max_file_seconds: Annotated[float, typer.Option(
        min=0.0, callback=finite,
        help="Per-file budget: seconds to convert one file before its worker is stopped and the file "
        "reported as failed (0 = no limit, convert in-process).")] = 180.0,
    ocr_images: Annotated[bool, typer.Option(
        "--ocr-images", help="Add the text shown in screenshots to their representation (extra 'ocr'; "
        "cached by image content across re-ingests).")] = False,
) -> None:
    """Parse, chunk and embed a corpus into an index (atomic: a failed run keeps the old index).

    The docs generator (Docusaurus, MkDocs, Sphinx, ...) is detected from its config
    file at the folder, above it or a few levels below; its rules decide which files
    are pages and where image links point. The summary prints the generator and the
    image resolution rate; --format json lists every unresolved reference.
    """
    from murar.ingest.budget import FileBudget
    from murar.ingest.corpus import DEFAULT_EXCLUDES
    from murar.ingest.index import build_index

    try:
        target = index_target(index, store)
        recorded = recorded_embedder(target)  # read once: the choice and the notice both need it
        emb = ingest_embedder(embedder, target, embed_base_url, embed_model, recorded=recorded)
        if embedder == "auto" and not recorded and auto_embedder_kind() == "minilm" and output == "text":
            typer.secho(AUTO_FALLBACK_NOTICE, fg=typer.colors.YELLOW, err=True)
        ocr_engine = None
        if ocr_images:
            from murar.ingest.ocr import RapidOcrEngine

            ocr_engine = RapidOcrEngine()
        excludes = DEFAULT_EXCLUDES + tuple(exclude or ())
        with RichProgress(enabled=not quiet and output == "text") as progress:
            source = Path(corpus)
            crawled = None
            if is_url(corpus):
                crawled = crawl_source(corpus, index=index, cache=crawl_cache, max_pages=max_pages,
                                       allow_hosts=allow_host or [], delay=crawl_delay, progress=progress)
                source = crawled.root
                if site_type == "auto":
                    site_type = "html"  # the mirror is the site as served (registry name of built sites)
            recognizer = None
            if transcribe:
                from murar.ingest.asr import WhisperRecognizer

                recognizer = WhisperRecognizer()
            manifest, report = build_index(source, target, embedder=emb, excludes=excludes, progress=progress,
                                           incremental=incremental, recognizer=recognizer,
                                           site_type=site_type, ocr=ocr_engine, language=language,
                                           docs_version=docs_version,
                                           budget=FileBudget(max_bytes=max_file_bytes,
                                                             max_sections=max_file_sections,
                                                             max_snippets=max_file_snippets,
                                                             max_media=max_file_media,
                                                             max_seconds=max_file_seconds))
    except MurarError as err:
        fail(err)
    stats = report.assets
    assets = {"references": stats.references, "by_status": stats.by_status, "resolvable": stats.resolvable,
              "resolution_rate": stats.resolution_rate, "missing_in_corpus": stats.missing_in_corpus,
              "missing_absent": stats.missing_absent,
              "unresolved": [to_jsonable(r) for r in report.unresolved]}
    if output == "json":
        typer.echo(json.dumps({"manifest": to_jsonable(manifest), **crawl_summary(crawled), "report": {
            "site": report.site,
            "pages": report.pages, "sections": report.sections, "snippets": report.snippets,
            "images": report.images, "tables": report.tables, "videos": report.videos,
            "assets": assets,
            "failed": [to_jsonable(f) for f in report.failed], "skipped": [to_jsonable(f) for f in report.skipped],
            "warnings": report.warnings, "warning_count": report.warning_count, "seconds": report.seconds, "reused_embeddings": report.reused_embeddings,
            "changes": report.changes, "remote_images": report.remote_images, "transcripts": report.transcripts,
            "slowest": [{"path": f.path, "seconds": f.seconds} for f in report.slowest(10)],
        }}, indent=2))
        return
    console = Console()
    from murar.store.postgres import redact

    shown = redact(str(target)) if store else str(index)
    table = Table(title=f"Index {shown} ({manifest.version})", show_header=False)
    site = report.site
    if site:
        table.add_row("site", _site_line(site))
    for key in ("pages", "sections", "snippets", "images", "tables", "videos"):
        table.add_row(key, str(getattr(report, key)))
    table.add_row("media references", _refs_line(stats.references, stats.by_status, stats.resolution_rate,
                                                  stats.resolved, stats.resolvable))
    table.add_row("failed files", str(len(report.failed)))
    table.add_row("skipped files", str(len(report.skipped)))
    table.add_row("warnings", str(report.warning_count))
    table.add_row("embedder", manifest.embedder)
    table.add_row("reused embeddings", str(report.reused_embeddings))
    if report.changes:
        table.add_row("pages added/changed/removed/unchanged",
                      "/".join(str(report.changes.get(k, 0)) for k in ("added", "changed", "removed", "unchanged")))
    if report.remote_images:
        table.add_row("remote images", f"{report.remote_images} (hidden in answers; show with --remote-images show)")
    if report.transcripts:
        table.add_row("video transcripts", ", ".join(f"{k} {v}" for k, v in report.transcripts.items()))
    table.add_row("seconds", f"{report.seconds.get('total', 0):.1f} (embedding {report.seconds.get('embed', 0):.1f})")
    slowest = report.slowest(3)
    if slowest:
        table.add_row("slowest files", ", ".join(f"{f.path} ({f.seconds:.1f} s)" for f in slowest))
    console.print(table, highlight=False)
    for note in site.get("notes", []) if site else []:
        console.print(f"[yellow]note[/yellow] {note}", highlight=False)
    for f in report.failed:
        console.print(f"[red]{f.status}[/red] {f.path}: {f.error}", highlight=False)
    for ext, reason, n in report.skipped_by_reason()[:show_warnings]:
        console.print(f"[red]skipped[/red] {n} {ext} file(s): {reason}", highlight=False)
    for w in report.warnings[:show_warnings]:
        console.print(f"[yellow]warning[/yellow] {w}", markup=True, highlight=False)
    if len(report.warnings) > show_warnings:
        console.print(f"... {len(report.warnings) - show_warnings} more warnings (see --format json)")


def _site_line(site: dict[str, object]) -> str:
    parts = [str(site.get("generator", "plain"))]
    if site.get("config_file"):
        parts.append(f"({site['config_file']})")
    for key in ("language", "docs_version", "content_dirs", "static_dirs", "base_url", "exclude"):
        value = site.get(key)
        if value:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            parts.append(f"{key}={shown}")
    return " ".join(parts)


def _refs_line(total: int, by_status: dict[str, int], rate: float | None, resolved: int, resolvable: int) -> str:
    if not total:
        return "0"
    detail = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in by_status.items())
    shown = f"{rate:.1%}" if rate is not None else "n/a"
    return f"{total} ({detail}); resolution rate {shown} ({resolved}/{resolvable})"
