"""Documentation sites: how a generator turns a folder of pages into a site.

A documentation set is *markup* written for a *site* (see DESIGN.md, "Ingest:
markup x site"). The markup converters (``murar.ingest.markdown``,
``murar.ingest.html``, ``murar.ingest.markup.*``) know how a syntax parses into
sections, text, images, tables and videos; they never guess where a file lives.
Every question of *where* goes to a :class:`Site`:

- which files are pages, which are includes/partials (content of the pages that
  pull them in, never pages of their own) and which the generator's own config
  excludes (:meth:`Site.classify`);
- what an asset link written in a page points at: page-relative, root-relative
  through the generator's static dirs and base URL, generator helpers such as
  Docusaurus ``useBaseUrl``/``@site`` or Antora ``imagesdir``
  (:meth:`Site.resolve_asset`);
- what an include directive points at (:meth:`Site.resolve_include`);
- generator syntax that is not part of the markup (Liquid tags, Hugo shortcodes,
  DocFX ``:::image:::`` and ``[!INCLUDE]``, MDX ``import`` lines) rewritten into
  plain markup before the converter runs (:meth:`Site.preprocess`).

One module per generator under ``murar.ingest.sites`` implements this protocol;
:class:`PlainSite` is the fallback (relative links, root-relative links from the
nearest ancestor holding the first segment, which is the Adobe docs layout).

Integration (i8-sites):

- Register a generator with one line in :data:`murar.ingest.sites.detect.GENERATORS`
  (config markers + ``"module:Class.load"``); the factory is called as
  ``factory(root, config_file)`` where ``root`` is the ingest root and
  ``config_file`` the marker found, posix, relative to ``root`` (it may sit in
  a subfolder, e.g. ``book/_config.yml``; ``None`` when ``--site-type`` forces
  the generator without a config). Every ``rel``/``page_rel`` the Site sees,
  and every path it returns, is relative to that ``root``.
- Register a markup converter with one line in
  :data:`murar.ingest.markup.registry.CONVERTERS`; a converter is called as
  ``convert(path, *, site, assets_dir)`` and must resolve every image/video
  link with :func:`murar.ingest.assets.resolve_reference` (which calls
  :meth:`Site.resolve_asset`) and return the references in
  ``ParsedDocument.asset_refs`` (the ingest summary's resolution rate).
- :meth:`Site.preprocess` takes ``warnings`` (the page's warning list) since
  the generators that inline includes need to report missing ones.
- :meth:`Site.classify` should return ``ASSET`` for images/videos/downloads
  (:func:`asset_or_unknown` does it) and a ``reason`` for ``EXCLUDED``/``UNKNOWN``;
  the walker reports every non-page file with it.
"""

from __future__ import annotations

import enum
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from murar.ingest.paths import ResolvedLink, resolve_link
from murar.ingest.sites._common import (
    AsciidocEntries,
    os_walk_files,
    scan_include_targets,
)


class FileRole(enum.Enum):
    """What a file under the site root is to the generator."""

    PAGE = "page"            # ingested as a page of its own
    INCLUDE = "include"      # a partial: content only where a page pulls it in
    EXCLUDED = "excluded"    # excluded by the generator's config (or murar's defaults)
    ASSET = "asset"          # image, video, download: referenced, not ingested
    UNKNOWN = "unknown"      # not understood: reported as skipped with its extension


@dataclass(frozen=True, slots=True, kw_only=True)
class FileClass:
    """:meth:`Site.classify` result: the ``role`` of a file, the ``markup`` that
    parses it when it is a page or include (``"markdown"``, ``"mdx"``, ``"rst"``,
    ``"myst"``, ``"asciidoc"``, ``"notebook"``, ``"html"``, ``"pdf"``) and, for
    skipped files, the ``reason`` shown in the ingest report."""

    role: FileRole
    markup: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SiteConfig:
    """The settings of a generator's config that change resolution.

    All folder paths are posix, relative to ``root`` (the folder holding the
    config file). ``base_url`` is the site's path prefix (Docusaurus ``baseUrl``,
    Jekyll ``baseurl``, ...), stripped from root-relative links before they are
    looked up in ``static_dirs``. ``settings`` keeps other generator settings
    by their own names (``imagesdir``, ``docs_dir``, ...). ``notes`` says what
    reading the config left out (a data file that does not parse, ...); they are
    shown with the ingest summary (``IngestReport.site["notes"]``).
    ``language`` and ``docs_version`` name the language and docs version read
    from a site that has several (``""``: the site has one, or no such notion;
    a site whose parts are versioned apart lists ``part version`` pairs, e.g.
    Antora's ``comp 2.0, other 1.1``); see :class:`SiteVariant`.
    """

    generator: str
    root: Path
    config_file: str | None = None
    content_dirs: tuple[str, ...] = (".",)
    static_dirs: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    base_url: str = "/"
    settings: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    language: str = ""
    docs_version: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SiteVariant:
    """Which language and docs version of a multilingual or versioned site to read
    (``murar ingest --language CODE --docs-version NAME``; ``None``: the one the
    generator shows by default).

    Generators that have languages or versions (``GeneratorSpec.variants`` in
    :mod:`murar.ingest.sites.detect`) take it as their factory's ``variant``
    keyword and raise :class:`~murar.errors.ConfigError` for a value the site
    does not have, the message listing the ones it has.
    """

    language: str | None = None
    docs_version: str | None = None


@runtime_checkable
class Site(Protocol):
    """A generator's resolution rules for one documentation set (see module doc)."""

    @property
    def config(self) -> SiteConfig: ...

    def classify(self, rel: str) -> FileClass:
        """Role and markup of the file ``rel`` (posix, relative to the root)."""
        ...

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Resolve an image/video/file ``link`` written in ``page_rel``.

        Never raises; a link that cannot be resolved gives ``problem`` (for a
        missing file: the path tried). Nothing outside the root is returned.
        """
        ...

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        """Resolve the target of an include/partial directive written in ``page_rel``."""
        ...

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """Rewrite generator syntax in a page's source into plain markup.

        Problems that do not stop the page (a missing include, an unknown
        shortcode) are appended to ``warnings`` when given (converters pass
        the page's warning list). Never raises for bad page content.
        """
        ...


IMAGE_EXTS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".tif", ".tiff", ".avif", ".ico"})
VIDEO_EXTS = frozenset({".mp4", ".webm", ".mov", ".m4v", ".ogv", ".mkv", ".avi"})
# files pages reference without being pages: images, videos, subtitles, downloads
ASSET_EXTS = IMAGE_EXTS | VIDEO_EXTS | frozenset({".vtt", ".srt", ".zip", ".gz", ".csv", ".xlsx", ".docx",
                                                  ".pptx", ".mp3", ".wav", ".woff", ".woff2", ".ttf"})


def asset_or_unknown(rel: str) -> FileClass:
    """:class:`FileClass` of a file that is not a page: ``ASSET`` for an image,
    video, subtitle or download extension (:data:`ASSET_EXTS`), else ``UNKNOWN``
    with the reason ``unsupported file type .ext``. Sites use it for files
    their ``classify`` does not claim."""
    suffix = Path(rel).suffix.lower()
    if suffix in ASSET_EXTS:
        return FileClass(role=FileRole.ASSET)
    return FileClass(role=FileRole.UNKNOWN, reason=f"unsupported file type {suffix or '(none)'}")


# include directives of plain AsciiDoc (include::target[...]) and reST (.. include:: target)
_PLAIN_INCLUDE_RE = re.compile(r"^include::([^\[\n]+)\[|^[ \t]*\.\.[ \t]+include::[ \t]*(\S.*?)[ \t]*$",
                               re.MULTILINE)
_INCLUDING_SUFFIXES = frozenset({".adoc", ".asciidoc", ".asc", ".rst"})
# the first bytes of an ASCII-armored OpenPGP file (a signature or key beside a release, also ".asc")
_PGP_ARMOR = b"-----BEGIN PGP "


def _pgp_armored(path: Path) -> bool:
    """Whether ``path`` starts (after blank space) with an OpenPGP armor header line."""
    try:
        with path.open("rb") as fh:
            return fh.read(256).lstrip().startswith(_PGP_ARMOR)
    except OSError:
        return False


class PlainSite:
    """No generator: every supported file is a page (Markdown, HTML, PDF, and
    AsciiDoc, reStructuredText and notebooks outside any generator; AsciiDoc is
    ``.adoc``, ``.asciidoc`` or ``.asc`` as for Asciidoctor, an ``.asc`` that is an
    OpenPGP signature or key aside), except files
    that an AsciiDoc ``include::`` or a reST ``.. include::`` pulls into another
    file: those are content of the including page, not pages of their own (the
    rule of the Sphinx and Antora sites; Asciidoctor and docutils resolve the
    target relative to the including file). Links resolve as in
    :func:`murar.ingest.paths.resolve_link` (page-relative, or root-relative from
    the nearest ancestor folder that holds the link's first segment).

    The include scan reads the AsciiDoc and reST files once, on the first
    :meth:`classify`; attribute references in an AsciiDoc target are expanded with the
    entries of the including file and the files it includes (``include::{includes}/x.adoc[]``
    with ``:includes:`` set in a shared attributes file, see :class:`AsciidocEntries`); a
    target no entry expands is not recognised and stays a page."""

    def __init__(self, root: Path, *, generator: str = "plain", config_file: str | None = None) -> None:
        self._config = SiteConfig(generator=generator, root=root.resolve(), config_file=config_file)
        self._includes: frozenset[str] | None = None

    def include_targets(self) -> frozenset[str]:
        """Files (posix, relative to the root) pulled in by an AsciiDoc or reST include."""
        if self._includes is None:
            root = self._config.root
            files = os_walk_files(root, ".", _INCLUDING_SUFFIXES)
            entries = AsciidocEntries(root, lambda target, rel: self.resolve_include(target, page_rel=rel))
            self._includes = scan_include_targets(
                root, files, _PLAIN_INCLUDE_RE,
                lambda target, rel: self.resolve_include(target, page_rel=rel),
                # include::{includes}/x.adoc[]; include::{docdir}/x.adoc[] as '/x.adoc', read from the nearest
                # folder holding 'x.adoc' (a nested include's docdir is the master document's, unknown here)
                expand=lambda target, rel: entries.expand(target, {"docdir": "", **entries.of(rel)}) or target)
        return self._includes

    @property
    def config(self) -> SiteConfig:
        return self._config

    def attributes_for(self, rel: str) -> dict[str, str]:
        """AsciiDoc attributes Asciidoctor sets for the document ``rel`` converted on its
        own (docs: "Intrinsic attributes"): ``docdir``, the document's folder, and
        ``docfile``, the document, both written root-relative with a leading ``/``
        (``/guide`` for ``guide/book.adoc``; ``docdir`` is empty for a document at the
        root) where Asciidoctor gives absolute paths, so that ``include::{docdir}/ch/one.adoc[]``
        and ``image::{docdir}/images/a.png[]`` resolve from the corpus root to the files
        beside the document."""
        folder = posixpath.dirname(rel)
        docdir = f"/{folder}" if folder else ""
        return {"docdir": docdir, "docfile": f"{docdir}/{posixpath.basename(rel)}"}

    def classify(self, rel: str) -> FileClass:
        suffix = Path(rel).suffix.lower()
        markup = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html",
                  ".pdf": "pdf", ".adoc": "asciidoc", ".asciidoc": "asciidoc", ".asc": "asciidoc", ".rst": "rst",
                  ".ipynb": "notebook"}.get(suffix)
        if markup is None:
            return asset_or_unknown(rel)
        if suffix == ".asc" and _pgp_armored(self._config.root / rel):
            return FileClass(role=FileRole.UNKNOWN, reason="OpenPGP signature or key (.asc)")
        if markup in ("asciidoc", "rst") and rel in self.include_targets():
            return FileClass(role=FileRole.INCLUDE, markup=markup)
        return FileClass(role=FileRole.PAGE, markup=markup)

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        return resolve_link(link, page_rel=page_rel, root=self._config.root)

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        return resolve_link(target, page_rel=page_rel, root=self._config.root)

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        return text
