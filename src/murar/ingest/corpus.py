"""Walking a documentation site and converting every page, never losing the batch.

The :class:`~murar.ingest.sites.base.Site` classifies every file under the
root (page, include, asset, excluded, unknown); each page goes through the
converter registered for its markup (:mod:`murar.ingest.markup.registry`). A
file that fails, and every file that is not read, is recorded in the
:class:`IngestReport` with the reason and extension, and the walk goes on.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import logging
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from murar.errors import IngestError, MissingExtraError
from murar.ingest.assets import AssetStats, is_unresolved
from murar.ingest.budget import (
    ConversionRunner,
    ConverterCrash,
    FileBudget,
    apply_media_budget,
    apply_section_budget,
    make_runner,
    size_problem,
)
from murar.ingest.sites.base import FileClass, FileRole, PlainSite, Site
from murar.schema import AssetRef, ParsedDocument

log = logging.getLogger(__name__)

#: warnings kept per page; a hostile page (100,000 broken links) gets one summary line for the rest
MAX_PAGE_WARNINGS = 100

DEFAULT_EXCLUDES = ("license.md", "LICENSE*", "CHANGELOG*", "CODE_OF_CONDUCT*", "CONTRIBUTING*")


@dataclass(slots=True, kw_only=True)
class FileReport:
    """Outcome for one file: ``status`` is ``ok``, ``failed``, ``skipped`` (not read:
    ``error`` says why), ``include`` (a partial, read where a page pulls it in)
    or ``asset`` (an image, video or download that pages reference). ``ext`` is
    the lower-cased file extension (``""`` when none). ``seconds``: wall-clock
    time spent on the file (conversion, then chunking), to the microsecond (a tiny page
    converted in-process takes well under a millisecond). ``more_warnings``: the file's
    warnings past :data:`MAX_PAGE_WARNINGS`, not kept (its last kept line says how many)."""

    path: str
    status: str
    warnings: list[str] = field(default_factory=list)
    error: str = ""
    sections: int = 0
    media: int = 0
    ext: str = ""
    seconds: float = 0.0
    more_warnings: int = 0


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
    ocr: dict[str, float] = field(default_factory=dict)  # screenshot OCR counts and seconds (--ocr-images)
    site: dict[str, Any] = field(default_factory=dict)
    asset_refs: list[AssetRef] = field(default_factory=list)
    assets: AssetStats = field(default_factory=AssetStats)

    def slowest(self, n: int = 5) -> list[FileReport]:
        """The ``n`` files that took the most time (conversion + chunking), slowest first."""
        timed = [f for f in self.files if f.seconds > 0]
        return sorted(timed, key=lambda f: -f.seconds)[:n]

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]

    @property
    def skipped(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "skipped"]

    @property
    def unresolved(self) -> list[AssetRef]:
        """Every image/video reference that is neither a resolved file nor a remote URL."""
        return [r for r in self.asset_refs if is_unresolved(r)]

    def skipped_by_reason(self) -> list[tuple[str, str, int]]:
        """``(extension, reason, count)`` of skipped files, most frequent first."""
        counts = Counter((f.ext or "(none)", f.error) for f in self.skipped)
        return [(ext, reason, n) for (ext, reason), n in counts.most_common()]

    @property
    def warnings(self) -> list[str]:
        """Every kept warning line, ``"path: warning"`` (a page's lines past
        :data:`MAX_PAGE_WARNINGS` are one summary line)."""
        return [f"{f.path}: {w}" for f in self.files for w in f.warnings]

    @property
    def warning_count(self) -> int:
        """How many warnings there were, counting those not kept (summary lines left out)."""
        return sum(len(f.warnings) - (1 if f.more_warnings else 0) + f.more_warnings for f in self.files)


@dataclass(frozen=True, slots=True)
class SiteFile:
    """A file the Site classified as a page: absolute ``path``, ``rel`` (posix,
    relative to the site root) and its :class:`FileClass`."""

    path: Path
    rel: str
    file_class: FileClass


@dataclass(slots=True)
class SiteWalk:
    """What :func:`walk_site` found: the ``pages`` to convert, a report line for
    every other file (``others``), the lower-cased names of every file under the
    root (``file_names``, to tell a broken link from an unresolved one) and the
    count of files per extension (``extensions``)."""

    pages: list[SiteFile] = field(default_factory=list)
    others: list[FileReport] = field(default_factory=list)
    file_names: set[str] = field(default_factory=set)
    extensions: Counter[str] = field(default_factory=Counter)


def _ext(name: str) -> str:
    return Path(name).suffix.lower()


def unreadable_name(name: str) -> str | None:
    """Why a file or folder name cannot be indexed, or ``None``: a name whose bytes are
    not UTF-8 (a Latin-1 or CP437 name unpacked from an old archive) decodes with lone
    surrogates, which no page id, JSON report or LanceDB row can hold. The message
    shows the name with its bad bytes as ``\\xNN`` escapes."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(name).decode("utf-8", "backslashreplace")
        return f"name '{shown}' is not UTF-8 text; rename it to read it"
    return None


def _shown(rel: str) -> str:
    """``rel`` printable and storable: bytes that are not UTF-8 as ``\\xNN`` escapes."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace") if unreadable_name(rel) else rel


def _is_murar_index(folder: Path) -> bool:
    """True when ``folder`` is a LanceDB index written by murar (``CURRENT`` names a
    version folder holding ``manifest.json``)."""
    try:
        current = (folder / "CURRENT").read_text(encoding="utf-8").strip()
        return bool(current) and "/" not in current and (folder / current / "manifest.json").is_file()
    except (OSError, UnicodeDecodeError):
        return False


def walk_site(site: Site, *, under: Path | None = None,
              excludes: tuple[str, ...] = DEFAULT_EXCLUDES) -> SiteWalk:
    """Walk ``under`` (default: the site root) and ask ``site`` what every file is.

    Pages come back sorted by path; every other file gets a :class:`FileReport`
    (``skipped`` with the reason, ``include`` or ``asset``). Hidden folders are
    reported once and not entered; symlinked folders are followed when they stay
    inside the root (each real folder once; a file the site calls a page under its
    symlinked path but an include under its real path, where include targets
    resolve, is an include); a file whose real path escapes the
    root, or that is not a regular file, is skipped with the reason. Never raises
    for a single file.
    """
    root = site.config.root.resolve()
    start = (under or root).resolve()
    out = SiteWalk()
    seen_dirs: set[Path] = set()
    page_by_real: dict[Path, str] = {}
    def unlistable(err: OSError) -> None:
        where = Path(err.filename or start)
        rel = where.relative_to(root).as_posix() if where.is_relative_to(root) else str(where)
        out.others.append(FileReport(path=rel + "/", status="skipped",
                                     error=f"cannot list folder ({err.strerror or type(err).__name__}); not read"))

    for dirpath, dirnames, filenames in os.walk(start, followlinks=True, onerror=unlistable):
        here = Path(dirpath)
        real_here = here.resolve()
        if real_here in seen_dirs:
            dirnames[:] = []
            if here != real_here:  # a symlinked folder seen before: a loop or a second path to it
                out.others.append(FileReport(path=here.relative_to(root).as_posix() + "/", status="skipped",
                                             error="symlinked folder already walked (symlink loop or duplicate)"))
            continue
        seen_dirs.add(real_here)
        keep: list[str] = []
        for d in sorted(dirnames):
            rel = (here / d).relative_to(root).as_posix()
            if d.startswith("."):
                out.others.append(FileReport(path=_shown(rel) + "/", status="skipped", error="hidden folder, not walked"))
                continue
            if (bad := unreadable_name(d)) is not None:
                out.others.append(FileReport(path=_shown(rel) + "/", status="skipped", error=f"folder {bad}; not walked"))
                continue
            real = (here / d).resolve()
            if real != root and root not in real.parents:
                out.others.append(FileReport(path=rel + "/", status="skipped",
                                             error="symlinked folder escapes the corpus root; not read"))
                continue
            if _is_murar_index(here / d):  # `--index` inside the corpus: never its own input
                out.others.append(FileReport(path=rel + "/", status="skipped", error="a murar index, not walked"))
                continue
            keep.append(d)
        dirnames[:] = keep
        for name in sorted(filenames):
            path = here / name
            rel = path.relative_to(root).as_posix()
            ext = _shown(_ext(name))
            out.extensions[ext or "(none)"] += 1
            out.file_names.add(_shown(name).lower())
            if name.startswith("."):
                out.others.append(FileReport(path=_shown(rel), status="skipped", error="hidden file", ext=ext))
                continue
            if (bad := unreadable_name(name)) is not None:
                out.others.append(FileReport(path=_shown(rel), status="skipped", error=f"file {bad}", ext=ext))
                continue
            try:
                real = path.resolve()
            except (OSError, RuntimeError) as err:
                out.others.append(FileReport(path=rel, status="skipped", error=f"cannot resolve: {err}", ext=ext))
                continue
            if real != root and root not in real.parents:
                out.others.append(FileReport(path=rel, status="skipped",
                                             error="symlink escapes the corpus root; not read", ext=ext))
                continue
            if not real.is_file():
                out.others.append(FileReport(path=rel, status="skipped", error="not a regular file", ext=ext))
                continue
            if any(fnmatch.fnmatch(name, pat) for pat in excludes):
                out.others.append(FileReport(path=rel, status="skipped", error="excluded by name pattern", ext=ext))
                continue
            try:
                cls = site.classify(rel)
                # reached through a symlinked folder (Red Hat modular docs link `modules/`, `_attributes/`
                # into every guide): an include resolves to the real file, so that path decides a partial
                real_rel = real.relative_to(root).as_posix()
                if cls.role is FileRole.PAGE and real_rel != rel:
                    by_real = site.classify(real_rel)
                    if by_real.role is FileRole.INCLUDE:
                        cls = by_real
            except Exception as err:
                log.exception("site classify failed for %s", rel)
                cls = FileClass(role=FileRole.UNKNOWN, reason=f"cannot classify: {type(err).__name__}: {err}")
            # the marker a site was detected from is configuration, unless the site reads it as a
            # page (a built site's index.html is its home page)
            if rel == site.config.config_file and cls.role is not FileRole.PAGE:
                out.others.append(FileReport(path=rel, status="skipped", ext=ext,
                                             error=f"{site.config.generator} configuration (read for its rules)"))
                continue
            if cls.role is FileRole.PAGE:
                first = page_by_real.get(real)
                if first is not None:
                    out.others.append(FileReport(path=rel, status="skipped", error=f"same file as {first}", ext=ext))
                    continue
                page_by_real[real] = rel
                out.pages.append(SiteFile(path, rel, cls))
            elif cls.role is FileRole.INCLUDE:
                out.others.append(FileReport(path=rel, status="include",
                                             error=cls.reason or "partial: read where a page includes it", ext=ext))
            elif cls.role is FileRole.ASSET:
                out.others.append(FileReport(path=rel, status="asset", error=cls.reason or "asset", ext=ext))
            elif cls.role is FileRole.EXCLUDED:
                out.others.append(FileReport(path=rel, status="skipped",
                                             error=cls.reason or "excluded by the site configuration", ext=ext))
            else:
                out.others.append(FileReport(path=rel, status="skipped",
                                             error=cls.reason or f"unsupported file type {ext or '(none)'}", ext=ext))
    out.pages.sort(key=lambda f: f.rel)
    return out


def _without_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (also inside lists, tuples,
    dicts and dataclasses) replaced by U+FFFD; the same object when there is none."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a pair written as two escapes joins into its character
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, (list, tuple)):
        items = [_without_surrogates(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items) if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        pairs = [(_without_surrogates(k), _without_surrogates(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True)):
            return value
        return dict(pairs)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: new for f in dataclasses.fields(value)
                   if (new := _without_surrogates(old := getattr(value, f.name))) is not old}
        return dataclasses.replace(value, **changes) if changes else value
    return value


def drop_surrogates(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` with lone surrogates replaced by U+FFFD (and a warning), or ``doc`` itself.

    A page's text may hold them without a bad byte: a notebook (JSON) or front matter
    (YAML) may write ``"\\ud800"``, which the parsers decode to a lone surrogate. No
    UTF-8 writer takes it: the ingest ended in a UnicodeEncodeError at the embedding
    stage, after every page was parsed, and nothing was indexed.
    """
    clean: ParsedDocument = _without_surrogates(doc)
    if clean is not doc:
        clean.warnings.append("text held lone UTF-16 surrogates (an escape such as \\ud800 in JSON or YAML); "
                              "shown as U+FFFD")
    return clean


def cap_warnings(doc: ParsedDocument, limit: int = MAX_PAGE_WARNINGS) -> None:
    """Keep the first ``limit`` warnings of ``doc`` and one line ``"... and N more warnings
    of this page (not kept)"`` for the rest, counted in ``doc.warnings_dropped``. Once
    capped, a page is not capped again (its summary line is never dropped)."""
    if doc.warnings_dropped or len(doc.warnings) <= limit:
        return
    doc.warnings_dropped = len(doc.warnings) - limit
    del doc.warnings[limit:]
    doc.warnings.append(f"... and {doc.warnings_dropped} more warnings of this page (not kept)")


def convert_file(path: Path, *, root: Path, assets_dir: Path, site: Site | None = None,
                 markup: str | None = None) -> ParsedDocument:
    """Convert one file with the converter for its markup (default: from its extension
    through :class:`PlainSite`).

    Raises:
        IngestError: the file cannot be converted (the message names it).
        MissingExtraError: the converter needs an extra that is not installed.
    """
    from murar.ingest.markup.registry import converter_for

    site = site or PlainSite(root)
    if markup is None:
        rel = path.resolve().relative_to(site.config.root).as_posix()
        cls = site.classify(rel)
        if cls.markup is None:
            raise IngestError(f"{path.name}: unsupported file type {path.suffix.lower()!r}")
        markup = cls.markup
    doc = converter_for(markup)(path, site=site, assets_dir=assets_dir)
    cap_warnings(doc)
    return doc


def convert_corpus(
    root: Path,
    *,
    assets_dir: Path,
    report: IngestReport,
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES,
    on_file: Callable[[str], None] | None = None,
    site: Site | None = None,
    walk: SiteWalk | None = None,
    budget: FileBudget | None = None,
    on_start: Callable[[str], None] | None = None,
) -> list[ParsedDocument]:
    """Convert every page of the site at ``root``; everything else goes to ``report``.

    ``site`` gives the generator's rules (default :class:`PlainSite`); ``walk``
    is the output of :func:`walk_site` when the caller already walked the corpus
    (to size a progress bar). Image/video references of every page are collected
    in ``report.asset_refs`` and counted in ``report.assets``. Never raises for a
    single bad file. ``budget`` bounds each file (bytes, sections, seconds: a
    conversion over its time budget is stopped in its worker process, see
    :mod:`murar.ingest.budget`); ``on_start(rel)`` is called as each page starts.
    """
    from murar.ingest.assets import asset_stats

    site = site or PlainSite(root)
    walk = walk if walk is not None else walk_site(site, excludes=excludes)
    docs: list[ParsedDocument] = []
    report.files.extend(walk.others)
    budget = budget or FileBudget()
    site_root = site.config.root
    from murar.ingest.markup.registry import preload

    preload({f.file_class.markup for f in walk.pages if f.file_class.markup})  # imports before any fork
    runner = make_runner(functools.partial(_convert_for_runner, root=site_root, assets_dir=assets_dir, site=site),
                         budget)
    try:
        for f in walk.pages:
            if on_start is not None:
                on_start(f.rel)
            t = time.perf_counter()
            _convert_one(f, runner, budget, docs, report)
            report.files[-1].seconds = round(time.perf_counter() - t, 6)
            if on_file is not None:
                on_file(f.rel)
    finally:
        runner.close()
    report.assets = asset_stats(report.asset_refs, walk.file_names)
    return docs


def _convert_for_runner(path: Path, markup: str | None, *, root: Path, assets_dir: Path, site: Site) -> ParsedDocument:
    return convert_file(path, root=root, assets_dir=assets_dir, site=site, markup=markup)


def _convert_one(f: SiteFile, runner: ConversionRunner, budget: FileBudget, docs: list[ParsedDocument],
                 report: IngestReport) -> None:
    """Convert one page under ``budget``; exactly one :class:`FileReport` is appended."""
    rel, ext = f.rel, _ext(f.rel)
    too_big = size_problem(f.path, budget)
    if too_big:
        report.files.append(FileReport(path=rel, status="skipped", error=too_big, ext=ext))
        log.warning("%s: %s", rel, too_big)
        return
    try:
        doc = runner.run(f.path, f.file_class.markup)
    except (IngestError, MissingExtraError) as err:
        report.files.append(FileReport(path=rel, status="failed", error=str(err), ext=ext))
        log.warning("%s: %s", rel, err)
        if isinstance(err, ConverterCrash) and err.detail:
            log.debug("converter traceback for %s:\n%s", rel, err.detail)
        return
    except Exception as err:  # a converter bug must not lose the batch
        report.files.append(FileReport(path=rel, status="failed", error=f"{type(err).__name__}: {err}", ext=ext))
        log.exception("unexpected error converting %s", rel)
        return
    doc = drop_surrogates(doc)
    for cut in (apply_section_budget(doc, budget), apply_media_budget(doc, budget)):
        if cut:
            doc.warnings.append(cut)
    docs.append(doc)
    report.asset_refs.extend(doc.asset_refs)
    report.files.append(FileReport(path=rel, status="ok", warnings=list(doc.warnings),
                                   sections=len(doc.sections), media=len(doc.media), ext=ext,
                                   more_warnings=doc.warnings_dropped))


def no_pages_message(selection: Any, walk: SiteWalk, report: IngestReport) -> str:
    """Why an ingest produced no page: extensions found, failures, site types known.

    ``selection`` is the :class:`murar.ingest.sites.detect.SiteSelection` used.
    """
    from murar.ingest.markup.registry import known_markups
    from murar.ingest.sites.detect import site_types

    cfg = selection.site.config
    found = ", ".join(f"{n} {ext}" for ext, n in walk.extensions.most_common(12)) or "no files at all"
    parts = [f"no pages ingested from {selection.walk}",
             f"site type: {cfg.generator}" + (f" ({cfg.config_file})" if cfg.config_file else " (no generator config found)"),
             f"files found: {found}"]
    others = Counter((o.ext or "(none)", o.status, o.error) for o in walk.others)
    if others:  # why the files found were not pages (partials, exclusions, unknown types)
        parts.append("not pages: " + ", ".join(f"{n} {ext} {status} ({why})"
                                               for (ext, status, why), n in others.most_common(5)))
    if report.failed:
        first = report.failed[0]
        parts.append(f"{len(report.failed)} page(s) failed, first {first.path}: {first.error}")
    notes = getattr(selection, "notes", ())
    if notes:  # e.g. the chosen language's content folder leads out of the root
        parts.append("notes: " + "; ".join(notes))
    parts.append(f"pages are read as: {', '.join(known_markups())}")
    parts.append(f"known site types (--site-type): {', '.join(site_types())}")
    return "; ".join(parts)
