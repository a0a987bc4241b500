"""Building and opening an index, atomically, idempotently and incrementally.

An index is a LanceDB folder (the default; layout in
:mod:`murar.store.lance_versions`) or a PostgreSQL database
(``postgresql://...``, :mod:`murar.store.postgres`). Ingest writes only
through the :class:`~murar.store.base.StoreWriter` protocol: a new version is
written beside the live one and switched live atomically, so a killed ingest
leaves the previous version answering.

Incremental by default: each page's content hash covers what the index
stores for it (the parsed sections and media, the chunking options, the
embedder and the schema version); pages whose hash is unchanged keep their
rows, changed pages are re-chunked, re-embedded and replaced, deleted pages
are removed. Any other change (embedder, dimension, corpus root, schema)
rebuilds every page. Re-embedding reuses the stored vectors of identical
texts (matched by embedder name and exact text).
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from murar import __version__
from murar.embed.base import Embedder, Vectors
from murar.errors import IndexError_, MurarError, NoPagesError
from murar.ingest.asr import SpeechRecognizer, TranscriptCache, transcribe_videos
from murar.ingest.budget import FileBudget
from murar.ingest.chunking import (
    CHUNKER_VERSION,
    ChunkingOptions,
    chunk_section,
    chunk_tables,
    embedding_text,
)
from murar.ingest.corpus import (
    DEFAULT_EXCLUDES,
    IngestReport,
    convert_corpus,
    no_pages_message,
)
from murar.ingest.image_ocr import OcrCache, ocr_images
from murar.ingest.media_flags import mark_repeated
from murar.ingest.ocr import OcrEngine
from murar.ingest.sites.detect import SiteSelection
from murar.models import default_cache_dir
from murar.schema import (
    AnyMedia,
    ImageItem,
    ParsedDocument,
    Snippet,
    TableItem,
    VideoItem,
    to_jsonable,
)
from murar.store.base import LiveVersion, PageRecord, Store, StoreWriter, VersionWriter
from murar.store.lance import LanceStore
from murar.store.lance_versions import (
    CURRENT,
    LanceWriter,
    current_version_dir,
    pin_version,
    read_manifest,
)

SCHEMA_VERSION = 1
#: a target naming a PostgreSQL database rather than an index folder
STORE_URL_PREFIXES = ("postgresql://", "postgres://")
__all__ = [
    "CURRENT",
    "IndexManifest",
    "OpenedIndex",
    "build_index",
    "current_version_dir",
    "is_store_url",
    "open_index",
    "open_writer",
]


class ProgressHook(Protocol):
    """Receives progress of long stages: ``start(stage, total)`` then ``advance(stage, n)``."""

    def start(self, stage: str, total: int) -> None: ...

    def advance(self, stage: str, n: int = 1) -> None: ...


class _NoProgress:
    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, stage: str, n: int = 1) -> None:
        pass


@dataclass(slots=True, kw_only=True)
class IndexManifest:
    """What ``manifest.json`` records about one index version."""

    schema_version: int
    murar_version: str
    embedder: str
    dim: int
    corpus_root: str
    built_at: str
    counts: dict[str, int]
    version: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class OpenedIndex:
    """A live index version: its store, manifest and folders.

    ``version_dir`` is the LanceDB version folder (``None`` for a PostgreSQL
    store); ``assets`` overrides where files murar wrote (PDF crops) live.
    """

    store: Store
    manifest: IndexManifest
    version_dir: Path | None = None
    assets: Path | None = None

    @property
    def corpus_root(self) -> Path:
        return Path(self.manifest.corpus_root)

    @property
    def assets_dir(self) -> Path | None:
        if self.assets is not None:
            return self.assets
        return None if self.version_dir is None else self.version_dir / "assets"


def is_store_url(target: Path | str) -> bool:
    """True when ``target`` is a database URL (``postgresql://...``) rather than a folder."""
    return isinstance(target, str) and target.startswith(STORE_URL_PREFIXES)


def open_writer(target: Path | str, *, keep_versions: int = 1) -> StoreWriter:
    """The :class:`StoreWriter` of ``target``: a PostgreSQL URL or an index folder.

    Raises:
        MissingExtraError: a PostgreSQL URL without the ``postgres`` extra installed.
    """
    if is_store_url(target):
        from murar.store.postgres_writer import PgWriter

        return PgWriter(str(target))
    return LanceWriter(Path(target), keep=keep_versions)


def media_embedding_text(item: AnyMedia) -> str:
    """The exact text embedded for a media item (its representation)."""
    return item.representation()


def _text_key(embedder_name: str, text: str) -> str:
    return hashlib.sha1(f"{embedder_name}\x1f{text}".encode()).hexdigest()


def _manifest_from(data: Mapping[str, Any], where: str) -> IndexManifest:
    try:
        manifest = IndexManifest(**dict(data))
    except TypeError as err:
        raise IndexError_(f"{where}: manifest is unreadable: {err}") from err
    if manifest.schema_version != SCHEMA_VERSION:
        raise IndexError_(
            f"{where}: index schema {manifest.schema_version} != {SCHEMA_VERSION}; rebuild with `murar ingest`"
        )
    return manifest


def open_index(target: Path | str) -> OpenedIndex:
    """Open the live version of an index folder or PostgreSQL store for reading.

    A PostgreSQL store follows the live version as ingests switch it (see
    :class:`murar.store.postgres.PgStore`); a LanceDB folder stays on the
    version live at open, which later ingests do not prune while the store
    is alive (:func:`murar.store.lance_versions.pin_version`).

    Raises:
        IndexNotFoundError: no index there.
        IndexError_: the index is corrupt or of an incompatible schema version
            (for PostgreSQL also StoreUnavailableError, StoreSchemaError).
    """
    if is_store_url(target):
        from murar.store.postgres import PgStore

        store = PgStore(str(target))
        data = store.live_manifest()
        return OpenedIndex(store=store, manifest=_manifest_from(data, store.location), assets=store.assets_dir())
    index_dir = Path(target)
    vdir = current_version_dir(index_dir)
    pin = pin_version(vdir)  # an ingest meanwhile keeps this version's files until the store is gone
    manifest = _manifest_from(read_manifest(vdir), str(vdir))
    return OpenedIndex(store=LanceStore(vdir / "lance", pin=pin), manifest=manifest, version_dir=vdir)


def page_hash(doc: ParsedDocument, *, embedder_name: str, chunking: ChunkingOptions) -> str:
    """SHA-256 (hex) of everything the index stores for one page: the parsed
    sections and media, the chunking options and rules (:data:`CHUNKER_VERSION`),
    the embedder and the schema version."""
    payload = {
        "schema": SCHEMA_VERSION, "embedder": embedder_name, "chunking": to_jsonable(chunking),
        "chunker": CHUNKER_VERSION,
        "title": doc.title, "sections": to_jsonable(doc.sections), "media": to_jsonable(doc.media),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def _reusable_vectors(writer: StoreWriter, paths: list[str], embedder_name: str) -> dict[str, np.ndarray]:
    """Stored vectors of these live pages keyed by (embedder, text); empty on any problem."""
    out: dict[str, np.ndarray] = {}
    if not paths:
        return out
    try:
        for page in writer.live_pages(paths):
            for s, v in zip(page.snippets, page.snippet_vectors):
                out[_text_key(embedder_name, embedding_text(s))] = v
            for m, v in zip(page.media, page.media_vectors):
                out[_text_key(embedder_name, media_embedding_text(m))] = v
    except MurarError:
        return {}
    return out


def _embed_with_cache(
    texts: list[str],
    embedder: Embedder,
    cache: dict[str, np.ndarray],
    progress: ProgressHook,
    stage: str,
) -> tuple[Vectors, int]:
    keys = [_text_key(embedder.name, t) for t in texts]
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    todo = [i for i, k in enumerate(keys) if k not in cache]
    for i, k in enumerate(keys):
        if k in cache:
            out[i] = cache[k]
    progress.start(stage, len(texts))
    progress.advance(stage, len(texts) - len(todo))
    if todo:
        vecs = embedder.embed([texts[i] for i in todo], progress=lambda n: progress.advance(stage, n))
        out[todo] = vecs
    return out, len(texts) - len(todo)


def _compatible(live: LiveVersion | None, embedder: Embedder, corpus: Path) -> bool:
    if live is None:
        return False
    m = live.manifest
    return (m.get("schema_version") == SCHEMA_VERSION and m.get("embedder") == embedder.name
            and m.get("dim") == embedder.dim and m.get("corpus_root") == str(corpus))


def build_index(
    corpus: Path,
    index_dir: Path | str,
    *,
    embedder: Embedder,
    chunking: ChunkingOptions | None = None,
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES,
    progress: ProgressHook | None = None,
    keep_versions: int = 1,
    incremental: bool = True,
    writer: StoreWriter | None = None,
    recognizer: SpeechRecognizer | None = None,
    transcript_cache: Path | None = None,
    site_type: str = "auto",
    budget: FileBudget | None = None,
    ocr: OcrEngine | None = None,
    ocr_cache: Path | None = None,
    language: str | None = None,
    docs_version: str | None = None,
) -> tuple[IndexManifest, IngestReport]:
    """Ingest every supported file under ``corpus`` into a new version of an index.

    ``index_dir`` is an index folder or a ``postgresql://`` URL (``writer``
    overrides it with an injected :class:`StoreWriter`). With ``incremental``
    (the default) unchanged pages keep their rows and only changed, added and
    removed pages are written; ``report.changes`` counts ``added``,
    ``changed``, ``removed`` and ``unchanged`` pages. A file that fails is
    reported, not fatal (and, like a deleted file, absent from the new
    version). Only after the new version is complete does it become live;
    older LanceDB versions beyond ``keep_versions`` are then removed. With a
    ``recognizer`` (speech recognition, ``asr`` extra), local video files without
    a sidecar transcript are transcribed, cached by file content in
    ``transcript_cache`` (default ``$MURAR_CACHE_DIR/../transcripts``).

    The documentation generator is detected from its config file
    (:func:`murar.ingest.sites.detect.open_site`; ``site_type`` forces one); when
    the config sits above ``corpus``, paths are relative to the config's folder
    (the recorded corpus root) and only ``corpus`` is walked. ``language`` and
    ``docs_version`` read that language and docs version of a multilingual or
    versioned site instead of its default ones (:class:`~murar.ingest.sites.base.SiteVariant`;
    ``report.site`` names the ones read).

    ``budget`` (:class:`~murar.ingest.budget.FileBudget`) bounds the work one
    file may cause: bytes, sections, snippets and conversion seconds; a file
    that hits a limit is cut or skipped with a warning in the report and the
    rest of the corpus continues. ``report.slowest()`` names the slowest files.

    Images are flagged at ingest (:mod:`murar.ingest.media_flags`: icons in a
    sentence, tiny glyphs, pictures repeated on many pages) so selection never
    shows them. With ``ocr`` (an :class:`OcrEngine`, ``ocr`` extra) the text
    shown in each selectable screenshot joins its representation
    (:mod:`murar.ingest.image_ocr`), cached by image content in ``ocr_cache``
    (default ``$MURAR_CACHE_DIR/../ocr/ocr-cache.json``) across re-ingests.

    Raises:
        IngestError: ``corpus`` is not a folder.
        NoPagesError: no page could be ingested (the message lists the file
            extensions found and the site types murar knows); the live version
            stays live.
        ConfigError: ``site_type`` is unknown, or the site has no such
            ``language`` or ``docs_version`` (the message lists the ones it has).
        IndexError_: another ingest holds the index lock; the store is
            unreachable or of another schema.
    """
    from murar.errors import IngestError
    from murar.ingest.sites.base import SiteVariant
    from murar.ingest.sites.detect import open_site, site_summary

    corpus = corpus.resolve()
    if not corpus.is_dir():
        raise IngestError(f"corpus folder not found: {corpus}")
    prog: ProgressHook = progress or _NoProgress()
    report = IngestReport()
    variant = None if language is None and docs_version is None else SiteVariant(
        language=language, docs_version=docs_version)
    selection = open_site(corpus, site_type=site_type, variant=variant)
    report.site = site_summary(selection)
    corpus = selection.site.config.root
    target = writer or open_writer(index_dir, keep_versions=keep_versions)
    with target.lock():
        live = target.live()
        from_live = incremental and _compatible(live, embedder, corpus)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        version = f"v-{stamp}-{uuid.uuid4().hex[:8]}"
        vw = target.begin(version, from_live=from_live, dim=embedder.dim)
        try:
            asr = None if recognizer is None else (recognizer, TranscriptCache(
                transcript_cache or default_cache_dir().parent / "transcripts"))
            ocr_pair = None if ocr is None else (ocr, OcrCache(
                ocr_cache or default_cache_dir().parent / "ocr" / "ocr-cache.json"))
            manifest = _build_version(selection, vw, target, live if from_live else None, live, embedder,
                                      chunking or ChunkingOptions(), excludes, prog, report, asr,
                                      budget or FileBudget(), ocr_pair)
        except BaseException:
            vw.abort()
            raise
    return manifest, report


def _build_version(
    selection: SiteSelection,
    vw: VersionWriter,
    writer: StoreWriter,
    base: LiveVersion | None,
    live: LiveVersion | None,
    embedder: Embedder,
    chunking: ChunkingOptions,
    excludes: tuple[str, ...],
    prog: ProgressHook,
    report: IngestReport,
    asr: tuple[SpeechRecognizer, TranscriptCache] | None = None,
    budget: FileBudget | None = None,
    ocr: tuple[OcrEngine, OcrCache] | None = None,
) -> IndexManifest:
    from murar.ingest.corpus import walk_site

    t0 = time.perf_counter()
    site = selection.site
    corpus = site.config.root
    walk = walk_site(site, under=selection.walk, excludes=excludes)
    prog.start("parse", len(walk.pages))
    budget = budget or FileBudget()
    describe = getattr(prog, "describe", None)  # optional ProgressHook method: show the current file
    docs: list[ParsedDocument] = convert_corpus(
        corpus, assets_dir=vw.assets_dir, report=report, site=site, walk=walk,
        on_file=lambda _rel: prog.advance("parse"), budget=budget,
        on_start=(lambda rel: describe("parse", rel)) if callable(describe) else None,
    )
    if not docs:
        raise NoPagesError(no_pages_message(selection, walk, report))
    if asr is not None:  # before hashing: a transcript is part of the page's content
        n_local = sum(1 for d in docs for m in d.media if isinstance(m, VideoItem) and m.path and m.exists)
        prog.start("transcribe", n_local)
        ts = transcribe_videos(docs, root=corpus, recognizer=asr[0], cache=asr[1],
                               on_video=lambda _rel: prog.advance("transcribe"))
        report.transcripts = {"transcribed": ts.transcribed, "from_cache": ts.from_cache,
                              "failed": ts.failed, "had_sidecar": ts.had_sidecar}
    # before hashing: flags and screen text are part of the page's content
    mark_repeated([m for d in docs for m in d.media], n_pages=len(docs))
    if ocr is not None:
        t_ocr = time.perf_counter()
        all_media = [m for d in docs for m in d.media]
        prog.start("ocr images", sum(1 for m in all_media if isinstance(m, ImageItem)))
        stats = ocr_images(all_media, corpus, ocr[0], ocr[1], progress=lambda n: prog.advance("ocr images", n))
        ocr[1].save()
        report.ocr = {"computed": stats.computed, "from_cache": stats.reused, "skipped": stats.skipped,
                      "seconds": round(time.perf_counter() - t_ocr, 3)}
    report.remote_images = sum(1 for d in docs for m in d.media
                               if isinstance(m, ImageItem) and m.url and not m.path)
    t1 = time.perf_counter()
    old = base.pages if base is not None else {}
    hashes = {d.source_path: page_hash(d, embedder_name=embedder.name, chunking=chunking) for d in docs}
    todo = [d for d in docs if old.get(d.source_path) is None or old[d.source_path].content_hash != hashes[d.source_path]]
    present = set(hashes)
    removed = sorted(p for p in old if p not in present)
    changes = {
        "added": sum(1 for d in todo if d.source_path not in old),
        "changed": sum(1 for d in todo if d.source_path in old),
        "removed": len(removed),
        "unchanged": len(docs) - len(todo),
    }
    sections = [s for d in todo for s in d.sections]
    prog.start("chunk", len(sections))
    per_doc: list[list[Snippet]] = []
    file_reports = {f.path: f for f in report.files if f.status == "ok"}
    for d in todo:
        if callable(describe):
            describe("chunk", d.source_path)
        tc = time.perf_counter()
        doc_snippets: list[Snippet] = []
        tables: dict[str, list[TableItem]] = {}  # section id -> its tables, in page order
        for m in d.media:
            if isinstance(m, TableItem):
                tables.setdefault(m.section_id, []).append(m)
        for k, sec in enumerate(d.sections):
            if 0 < budget.max_snippets <= len(doc_snippets):
                d.warnings.append(f"snippet budget hit: kept {budget.max_snippets} snippets, "
                                  f"{len(d.sections) - k} later sections not indexed (--max-file-snippets)")
                prog.advance("chunk", len(d.sections) - k)
                break
            sec_snippets = chunk_section(sec, embedder, chunking)
            if sec.id in tables:
                sec_snippets += chunk_tables(sec, tables[sec.id], embedder, chunking, first_position=len(sec_snippets))
            doc_snippets.extend(sec_snippets)
            prog.advance("chunk")
        if 0 < budget.max_snippets < len(doc_snippets):
            if not any("snippet budget hit" in w for w in d.warnings):
                d.warnings.append(f"snippet budget hit: kept {budget.max_snippets} of {len(doc_snippets)} "
                                  "snippets (--max-file-snippets)")
            del doc_snippets[budget.max_snippets:]
        per_doc.append(doc_snippets)
        fr = file_reports.get(d.source_path)
        if fr is not None:
            fr.seconds = round(fr.seconds + time.perf_counter() - tc, 6)
            fr.warnings = list(d.warnings)
            fr.more_warnings = d.warnings_dropped
    t2 = time.perf_counter()
    reuse_ok = live is not None and live.manifest.get("embedder") == embedder.name
    cache = _reusable_vectors(writer, [d.source_path for d in todo if d.source_path in live.pages], embedder.name) \
        if reuse_ok and live is not None else {}
    t3 = time.perf_counter()
    snippets = [s for group in per_doc for s in group]
    media = [m for d in todo for m in d.media]
    sv, reused_s = _embed_with_cache([embedding_text(s) for s in snippets], embedder, cache, prog, "embed snippets")
    mv, reused_m = _embed_with_cache([media_embedding_text(m) for m in media], embedder, cache, prog, "embed media")
    t4 = time.perf_counter()
    si = mi = 0
    for d, doc_snippets in zip(todo, per_doc):
        ns, nm = len(doc_snippets), len(d.media)
        vw.put_page(PageRecord(
            source_path=d.source_path, content_hash=hashes[d.source_path], sections=d.sections,
            snippets=doc_snippets, snippet_vectors=sv[si:si + ns], media=d.media, media_vectors=mv[mi:mi + nm],
            assets=_assets_of(d.media, vw.assets_dir),
        ))
        si, mi = si + ns, mi + nm
    for path in removed:
        vw.delete_page(path)
    totals = {"sections": 0, "snippets": 0, "images": 0, "tables": 0, "videos": 0}
    kept_rows = 0
    for d, doc_snippets in zip(todo, per_doc):
        for key, n in PageRecord(source_path="", content_hash="", sections=d.sections, snippets=doc_snippets,
                                 snippet_vectors=sv[:0], media=d.media, media_vectors=mv[:0]).counts().items():
            totals[key] += n
    for d in docs:
        if d.source_path in old and old[d.source_path].content_hash == hashes[d.source_path]:
            for key in totals:
                totals[key] += old[d.source_path].counts.get(key, 0)
            kept_rows += sum(old[d.source_path].counts.get(k, 0) for k in ("snippets", "images", "tables", "videos"))
    report.pages = len(docs)
    report.sections = totals["sections"]
    report.snippets = totals["snippets"]
    report.images = totals["images"]
    report.tables = totals["tables"]
    report.videos = totals["videos"]
    report.reused_embeddings = reused_s + reused_m + kept_rows
    report.changes = changes
    counts = {
        "pages": report.pages, "sections": report.sections, "snippets": report.snippets,
        "images": report.images, "tables": report.tables, "videos": report.videos,
        "failed": len(report.failed), "skipped": len(report.skipped),
    }
    manifest = IndexManifest(
        schema_version=SCHEMA_VERSION,
        murar_version=__version__,
        embedder=embedder.name,
        dim=embedder.dim,
        corpus_root=str(corpus),
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        counts=counts,
        version=vw.version,
        extra={"changes": changes, "incremental": base is not None, "site": report.site},
    )
    report.seconds = {
        "parse": t1 - t0, "chunk": t2 - t1, "load_previous": t3 - t2,
        "embed": t4 - t3, "write": 0.0, "total": 0.0,
    }
    vw.commit(to_jsonable(manifest), to_jsonable(report))
    t6 = time.perf_counter()
    report.seconds["write"] = t6 - t4
    report.seconds["total"] = t6 - t0
    return manifest


def _assets_of(media: list[AnyMedia], assets_dir: Path) -> tuple[str, ...]:
    """Files of these media items written under ``assets_dir`` (relative paths)."""
    out: list[str] = []
    for m in media:
        for rel in (getattr(m, "stored_path", None), getattr(m, "image_path", None)):
            if rel and (assets_dir / rel).is_file() and rel not in out:
                out.append(rel)
    return tuple(out)
