"""``murar.build_index``: the Python form of ``murar ingest``."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from murar.embed.base import Embedder
    from murar.ingest.budget import FileBudget
    from murar.ingest.chunking import ChunkingOptions
    from murar.ingest.corpus import IngestReport
    from murar.ingest.index import ProgressHook

ProgressCallback = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as each long stage advances
(stages: ``parse``, ``chunk``, ``embed snippets``, ``embed media``)."""


class _CallbackProgress:
    """Adapts a ``progress(stage, done, total)`` callable to the ingest's ProgressHook."""

    def __init__(self, callback: ProgressCallback) -> None:
        self._callback = callback
        self._done: dict[str, int] = {}
        self._total: dict[str, int] = {}

    def start(self, stage: str, total: int) -> None:
        self._done[stage] = 0
        self._total[stage] = total
        self._callback(stage, 0, total)

    def advance(self, stage: str, n: int = 1) -> None:
        if n <= 0:
            return
        self._done[stage] = self._done.get(stage, 0) + n
        self._callback(stage, self._done[stage], self._total.get(stage, 0))


def build_index(
    source: str | os.PathLike[str],
    index: str | os.PathLike[str],
    *,
    embedder: str | Embedder = "auto",
    embed_base_url: str | None = None,
    embed_model: str | None = None,
    exclude: Sequence[str] = (),
    progress: ProgressCallback | ProgressHook | None = None,
    keep_versions: int = 1,
    site_type: str = "auto",
    incremental: bool = True,
    transcribe: bool = False,
    chunking: ChunkingOptions | None = None,
    budget: FileBudget | None = None,
    language: str | None = None,
    docs_version: str | None = None,
) -> IngestReport:
    """Parse, chunk and embed every supported file under ``source`` into the
    index folder ``index``, or the store at a ``postgresql://`` URL (the same
    work as ``murar ingest SOURCE --index INDEX`` / ``--store URL``).

    Atomic and idempotent: the new version goes live only when complete, and
    embeddings of unchanged text are reused. A file that fails is recorded in
    the report (``report.failed``, ``report.warnings``), never fatal.

    Args:
        embedder: ``"auto"`` (as ``murar ingest``: a refresh keeps the embedder
            the index records; a new index gets ``"mpnet"`` when it is prepared on
            this machine, else ``"minilm"``), ``"minilm"`` (bundled, offline, 384-d;
            the index's tuned MiniLM when ``murar tune-embedder`` made one),
            ``"mpnet"`` (all-mpnet-base-v2, 768-d, ~5x slower to embed: ``murar
            models prepare --embedder mpnet`` once), ``"openai"`` (with
            ``embed_base_url`` and ``embed_model``), ``"hashing"`` (tests), or an
            :class:`murar.embed.base.Embedder`.
        exclude: file-name patterns to skip, added to the defaults (licenses, changelogs).
        progress: ``progress(stage, done, total)``, or an object with
            ``start(stage, total)``/``advance(stage, n)`` (a ProgressHook).
        site_type: the docs generator (``--site-type``): ``auto`` detects it from its config file.
        language: the language of a multilingual site to read (``--language``): a
            Docusaurus ``i18n.locales`` code, a Hugo language key, an
            mkdocs-static-i18n locale; untranslated pages fall back to the default
            language where the generator does so. ``None``: the default language.
        docs_version: the docs version of a versioned site to read
            (``--docs-version``): a Docusaurus ``versions.json`` name or
            ``current``, an Antora component version (a component without it
            keeps its latest). ``None``: the version readers see by default.
            ``report.site["language"]``/``["docs_version"]`` name what was read; a
            generator without languages or versions notes the option as not
            applicable (``report.site["notes"]``).
        incremental: rewrite only added, changed and removed pages (``--full`` is ``False``).
        transcribe: transcribe videos without subtitles (``--transcribe``, extra ``asr``).
        chunking, budget: snippet sizes and per-file limits (bytes, sections, snippets, seconds).

    A live site (``murar ingest URL``) is crawled by the CLI; in Python, crawl it
    with :class:`murar.ingest.crawl.Crawler` and pass the mirror folder.

    Returns:
        the :class:`murar.ingest.corpus.IngestReport`: counts (``pages``,
        ``sections``, ``snippets``, ``images``, ``tables``, ``videos``),
        per-file outcomes, ``seconds`` per stage.

    Raises:
        IngestError: ``source`` is not a folder.
        IndexError_: another ingest is writing ``index``.
        ConfigError: unknown embedder or missing endpoint settings; a
            ``language`` or ``docs_version`` the site does not have (the message
            lists the ones it has).
        ModelError: ``embedder="mpnet"`` and this machine has not prepared it.

    Example::

        >>> import murar
        >>> seen = set()
        >>> report = murar.build_index(docs, index_dir, embedder="hashing",
        ...                            progress=lambda stage, done, total: seen.add(stage))
        >>> report.pages, report.images > 0, report.failed
        (12, True, [])
        >>> sorted(seen)
        ['chunk', 'embed media', 'embed snippets', 'parse']
        >>> again = murar.build_index(docs, index_dir, embedder="hashing")   # incremental: nothing changed
        >>> again.changes["unchanged"], again.changes["changed"]
        (12, 0)
    """
    from murar.ingest.corpus import DEFAULT_EXCLUDES
    from murar.ingest.index import build_index as _build

    target: Path | str = index if isinstance(index, str) and "://" in index else Path(index)
    if isinstance(embedder, str):
        from murar.cli.common import ingest_embedder

        emb = ingest_embedder(embedder, target, embed_base_url, embed_model)
    else:
        emb = embedder
    hook: ProgressHook | None
    if progress is None or hasattr(progress, "advance"):
        hook = progress  # type: ignore[assignment]
    else:
        hook = _CallbackProgress(progress)
    recognizer = None
    if transcribe:
        from murar.ingest.asr import WhisperRecognizer

        recognizer = WhisperRecognizer()
    _manifest, report = _build(Path(source), target, embedder=emb, chunking=chunking,
                               excludes=DEFAULT_EXCLUDES + tuple(exclude), progress=hook,
                               keep_versions=keep_versions, incremental=incremental, recognizer=recognizer,
                               site_type=site_type, budget=budget, language=language,
                               docs_version=docs_version)
    return report
