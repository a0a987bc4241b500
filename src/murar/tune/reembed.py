"""Re-embed every snippet and media item of an index with another embedder, as a new version.

The parsed pages (sections, snippets, media, assets) of the live version are
kept as they are, only the vectors change: no corpus re-parse, so options of
the original ingest (OCR, transcripts, budgets, site type) are preserved. The
new version records the new embedder's name and becomes live atomically, like
an ingest (:mod:`murar.ingest.index`).
"""

from __future__ import annotations

import json
import shutil
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from murar.embed.base import Embedder
from murar.errors import IndexNotFoundError
from murar.ingest.chunking import embedding_text
from murar.ingest.index import media_embedding_text
from murar.store.base import PageRecord
from murar.store.lance_versions import LanceWriter, current_version_dir


@dataclass(frozen=True, slots=True, kw_only=True)
class ReembedResult:
    """The new live version, rows re-embedded and seconds spent embedding."""

    version: str
    snippets: int
    media: int
    seconds: float


def reembed_index(
    index_dir: Path,
    embedder: Embedder,
    *,
    extra: dict[str, Any] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> ReembedResult:
    """Write a new version of the index folder ``index_dir`` whose vectors come from ``embedder``.

    ``extra`` is merged into the manifest's ``extra`` (e.g. what was tuned).
    ``progress(stage, done, total)`` reports ``"embed snippets"`` and
    ``"embed media"``. The previous version stays live until the new one is
    complete (a failure leaves it answering).

    Raises:
        IndexNotFoundError: no index in ``index_dir``.
        IndexError_: another ingest holds the index, or the index is corrupt.
        EmbeddingError: the embedder failed.
    """
    writer = LanceWriter(Path(index_dir))
    with writer.lock():
        live = writer.live()
        if live is None:
            raise IndexNotFoundError(f"no index at {index_dir}; build one with: murar ingest CORPUS --index {index_dir}")
        live_dir = current_version_dir(writer.index_dir)
        pages = list(writer.live_pages(sorted(live.pages)))
        s_texts = [embedding_text(s) for p in pages for s in p.snippets]
        m_texts = [media_embedding_text(m) for p in pages for m in p.media]
        t0 = time.perf_counter()
        sv = _embed(embedder, s_texts, "embed snippets", progress)
        mv = _embed(embedder, m_texts, "embed media", progress)
        seconds = time.perf_counter() - t0
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        vw = writer.begin(f"v-{stamp}-{uuid.uuid4().hex[:8]}", from_live=False, dim=embedder.dim)
        try:
            si = mi = 0
            for p in pages:
                ns, nm = len(p.snippets), len(p.media)
                for rel in p.assets:
                    src, dst = live_dir / "assets" / rel, vw.assets_dir / rel
                    if src.is_file() and not dst.exists():
                        dst.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(src, dst)
                vw.put_page(PageRecord(source_path=p.source_path, content_hash=p.content_hash,
                                       sections=p.sections, snippets=p.snippets, snippet_vectors=sv[si:si + ns],
                                       media=p.media, media_vectors=mv[mi:mi + nm], assets=p.assets))
                si, mi = si + ns, mi + nm
            manifest = dict(live.manifest)
            manifest.update(embedder=embedder.name, dim=embedder.dim, version=vw.version,
                            built_at=datetime.now(UTC).isoformat(timespec="seconds"))
            manifest["extra"] = {**dict(manifest.get("extra") or {}), "reembedded_from": live.manifest.get("embedder"),
                                 **(extra or {})}
            report = _previous_report(live_dir)
            report["reembedded"] = {"embedder": embedder.name, "snippets": len(s_texts), "media": len(m_texts),
                                    "seconds": round(seconds, 2)}
            vw.commit(manifest, report)
        except BaseException:
            vw.abort()
            raise
    return ReembedResult(version=vw.version, snippets=len(s_texts), media=len(m_texts), seconds=seconds)


def _embed(embedder: Embedder, texts: list[str], stage: str,
           progress: Callable[[str, int, int], None] | None) -> Any:
    done = 0
    if progress is not None:
        progress(stage, 0, len(texts))

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(stage, done, len(texts))

    return embedder.embed(texts, progress=step)


def _previous_report(vdir: Path) -> dict[str, Any]:
    try:
        data = json.loads((vdir / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


__all__ = ["ReembedResult", "reembed_index"]
