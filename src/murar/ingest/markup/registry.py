"""Which converter parses which markup: one registry line per syntax.

:meth:`murar.ingest.sites.base.Site.classify` names a file's markup
(``"markdown"``, ``"mdx"``, ``"rst"``, ...); :func:`converter_for` returns the
:class:`MarkupConverter` registered for it in :data:`CONVERTERS`. A converter
is a callable ``(path, *, site, assets_dir) -> ParsedDocument`` that asks
``site`` every path question and records every image/video reference in
``ParsedDocument.asset_refs`` (see :func:`murar.ingest.assets.resolve_reference`).
Modules are imported on first use, so a syntax whose optional dependency is
missing fails only for its own files, with the install hint;
:func:`preload` imports the ones a corpus needs before conversion starts (in the
parent, so a forked conversion worker never imports).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Protocol

from murar.errors import IngestError, MissingExtraError
from murar.ingest.html import convert_html
from murar.ingest.markdown import GENERATOR_PLUGINS, MarkdownOptions, convert_markdown
from murar.ingest.sites.base import Site
from murar.schema import ParsedDocument


class MarkupConverter(Protocol):
    """Converts one page (or include) into a :class:`ParsedDocument`.

    Raises:
        IngestError: the file cannot be read or parsed.
        MissingExtraError: the converter's optional dependency is not installed.
    """

    def __call__(self, path: Path, *, site: Site, assets_dir: Path) -> ParsedDocument: ...


def convert_markdown_page(path: Path, *, site: Site, assets_dir: Path) -> ParsedDocument:
    """Markdown (CommonMark + tables + footnotes, :data:`~murar.ingest.markdown.GENERATOR_PLUGINS`,
    and the Site's extensions) through :mod:`murar.ingest.markdown`."""
    extra = tuple(p for p in getattr(site, "markdown_plugins", ()) if p not in GENERATOR_PLUGINS)
    return convert_markdown(path, root=site.config.root, site=site,
                            options=MarkdownOptions(plugins=GENERATOR_PLUGINS + extra))


def convert_html_page(path: Path, *, site: Site, assets_dir: Path) -> ParsedDocument:
    """An HTML page through :mod:`murar.ingest.html`."""
    return convert_html(path, root=site.config.root, site=site)


def convert_pdf_page(path: Path, *, site: Site, assets_dir: Path) -> ParsedDocument:
    """A PDF through :mod:`murar.ingest.pdf` (figures cropped into ``assets_dir``)."""
    try:
        from murar.ingest.pdf import convert_pdf
    except ImportError as err:
        raise MissingExtraError("pypdfium2/pdfplumber", "pdf") from err

    return convert_pdf(path, root=site.config.root, assets_dir=assets_dir)


# markup name -> ("module:function", extra that provides its dependencies). One line per syntax.
CONVERTERS: dict[str, tuple[str, str]] = {
    "markdown": ("murar.ingest.markup.registry:convert_markdown_page", "core"),
    "mdx": ("murar.ingest.markup.mdx:convert_mdx", "core"),
    "pymdown": ("murar.ingest.markup.pymdown:convert_pymdown", "core"),
    "html": ("murar.ingest.markup.registry:convert_html_page", "core"),
    "pdf": ("murar.ingest.markup.registry:convert_pdf_page", "pdf"),
    "rst": ("murar.ingest.markup.rst:convert_rst", "core"),
    "gallery": ("murar.ingest.markup.gallery:convert_gallery", "core"),
    "myst": ("murar.ingest.markup.myst:convert_myst", "core"),
    "notebook": ("murar.ingest.markup.notebook:convert_notebook", "core"),
    "percent": ("murar.ingest.markup.notebook:convert_percent_notebook", "core"),
    "nblink": ("murar.ingest.markup.notebook:convert_nblink", "core"),
    "asciidoc": ("murar.ingest.markup.asciidoc:convert_asciidoc", "core"),
}


def known_markups() -> list[str]:
    """Markup names that have a converter."""
    return sorted(CONVERTERS)


def converter_for(markup: str) -> MarkupConverter:
    """The converter registered for ``markup``.

    Raises:
        IngestError: no converter is registered for ``markup``.
        MissingExtraError: its module cannot be imported (optional dependency missing).
    """
    entry = CONVERTERS.get(markup)
    if entry is None:
        raise IngestError(f"no converter for markup {markup!r} (known: {', '.join(known_markups())})")
    target, extra = entry
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        missing = getattr(err, "name", None) or module_name
        raise MissingExtraError(missing, extra) from err
    conv: MarkupConverter = getattr(module, attr)
    return conv


def preload(markups: set[str]) -> None:
    """Import the converters of ``markups`` now; unknown or uninstalled ones are
    left to fail per file, with their message, when a page needs them."""
    for markup in sorted(markups):
        try:
            converter_for(markup)
        except (IngestError, MissingExtraError):
            continue
