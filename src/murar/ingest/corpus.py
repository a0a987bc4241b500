"""Walking a corpus folder and converting every supported file, never losing the batch.

Each file goes through the converter for its extension. A file that fails is
recorded in the :class:`IngestReport` with the reason, and the walk goes on.
"""

from __future__ import annotations

import fnmatch
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from murar.errors import IngestError, MissingExtraError
from murar.schema import ParsedDocument

log = logging.getLogger(__name__)

MARKDOWN_EXTS = {".md", ".markdown"}
HTML_EXTS = {".html", ".htm"}
PDF_EXTS = {".pdf"}
DEFAULT_EXCLUDES = ("license.md", "LICENSE*", "CHANGELOG*", "CODE_OF_CONDUCT*", "CONTRIBUTING*")


@dataclass(slots=True, kw_only=True)
class FileReport:
    """Outcome for one file: ``status`` is ``ok``, ``skipped`` or ``failed``."""

    path: str
    status: str
    warnings: list[str] = field(default_factory=list)
    error: str = ""
    sections: int = 0
    media: int = 0


@dataclass(slots=True, kw_only=True)
class IngestReport:
    """What an ingest did, file by file, with totals."""

    files: list[FileReport] = field(default_factory=list)
    pages: int = 0
    sections: int = 0
    snippets: int = 0
    images: int = 0
    tables: int = 0
    videos: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    reused_embeddings: int = 0
    #: pages ``added``, ``changed``, ``removed``, ``unchanged`` compared with the previous version
    changes: dict[str, int] = field(default_factory=dict)
    remote_images: int = 0  # images linked by URL only: recorded, shown only with --remote-images show
    transcripts: dict[str, int] = field(default_factory=dict)  # speech recognition counts (asr extra)

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]

    @property
    def skipped(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "skipped"]

    @property
    def warnings(self) -> list[str]:
        return [f"{f.path}: {w}" for f in self.files for w in f.warnings]


def iter_corpus_files(root: Path, *, excludes: tuple[str, ...] = DEFAULT_EXCLUDES) -> Iterator[tuple[Path, str | None]]:
    """Yield ``(path, problem)`` for every candidate file under ``root``, sorted.

    Hidden folders are skipped; ``problem`` is set for a symlink that points
    outside ``root`` (the caller records it, nothing is read).
    """
    root = root.resolve()
    exts = MARKDOWN_EXTS | HTML_EXTS | PDF_EXTS
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if path.suffix.lower() not in exts:
            continue
        if any(fnmatch.fnmatch(path.name, pat) for pat in excludes):
            continue
        try:
            real = path.resolve()
        except (OSError, RuntimeError) as err:
            yield path, f"cannot resolve: {err}"
            continue
        if real != root and root not in real.parents:
            yield path, "symlink escapes the corpus root; not read"
            continue
        if not real.is_file():
            continue
        yield path, None


Converter = Callable[[Path], ParsedDocument]


def convert_file(path: Path, *, root: Path, assets_dir: Path) -> ParsedDocument:
    """Convert one file with the converter for its extension.

    Raises:
        IngestError: the file cannot be converted (the message names it).
        MissingExtraError: the converter needs an extra that is not installed.
    """
    ext = path.suffix.lower()
    if ext in MARKDOWN_EXTS:
        from murar.ingest.markdown import convert_markdown

        return convert_markdown(path, root=root)
    if ext in HTML_EXTS:
        try:
            from murar.ingest.html import convert_html
        except ImportError as err:
            raise MissingExtraError("selectolax", "core") from err
        return convert_html(path, root=root)
    if ext in PDF_EXTS:
        try:
            from murar.ingest.pdf import convert_pdf
        except ImportError as err:
            raise MissingExtraError("pypdfium2/pdfplumber", "pdf") from err
        return convert_pdf(path, root=root, assets_dir=assets_dir)
    raise IngestError(f"{path.name}: unsupported file type {ext!r}")


def convert_corpus(
    root: Path,
    *,
    assets_dir: Path,
    report: IngestReport,
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES,
    on_file: Callable[[str], None] | None = None,
    files: list[tuple[Path, str | None]] | None = None,
) -> list[ParsedDocument]:
    """Convert every supported file under ``root``; failures go to ``report``.

    ``files`` is the output of :func:`iter_corpus_files` when the caller already
    walked the corpus (to size a progress bar). Never raises for a single bad file.
    """
    root = root.resolve()
    docs: list[ParsedDocument] = []
    for path, problem in files if files is not None else iter_corpus_files(root, excludes=excludes):
        rel = path.relative_to(root).as_posix()
        if problem:
            report.files.append(FileReport(path=rel, status="skipped", error=problem))
            log.warning("%s: %s", rel, problem)
        else:
            try:
                doc = convert_file(path, root=root, assets_dir=assets_dir)
            except (IngestError, MissingExtraError) as err:
                report.files.append(FileReport(path=rel, status="failed", error=str(err)))
                log.warning("%s: %s", rel, err)
            except Exception as err:  # a converter bug must not lose the batch
                report.files.append(FileReport(path=rel, status="failed", error=f"{type(err).__name__}: {err}"))
                log.exception("unexpected error converting %s", rel)
            else:
                docs.append(doc)
                report.files.append(
                    FileReport(path=rel, status="ok", warnings=list(doc.warnings),
                               sections=len(doc.sections), media=len(doc.media))
                )
        if on_file is not None:
            on_file(rel)
    return docs
