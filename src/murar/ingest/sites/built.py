"""Built HTML sites: the output folder of a docs generator (``site/``,
``_build/html``, ``public/``, ``build/``, ``_site/``) ingested as it is served.

- Detection (:func:`built_generator`): an ``index.html`` that is a rendered page
  (no front matter, no template tags) plus a generator signature: the
  ``<meta name="generator">`` tag (MkDocs, Hugo, Jekyll, Docusaurus, Sphinx,
  VitePress, ...; any other name, such as LaTeX2HTML or AsciiDoc, is a generic
  built site; without ``index.html``, the same tag on the folder's pages) or files the generators write (Sphinx ``searchindex.js`` and
  ``_static/documentation_options.js``, MkDocs ``search/search_index.json``,
  ``sitemap.xml``).
- Pages are the ``.html`` files except the generators' utility pages (search,
  index of terms, 404, module index), redirect stubs (``<meta http-equiv=refresh>``)
  and the asset folders (``_static``, ``_sources``, ``assets/javascripts``, ...).
- Images resolve relative to each page; root-relative links from the folder,
  after the site's base path (read from the canonical URL of ``index.html``).
- :meth:`BuiltSite.preprocess` removes what themes add around the content,
  by generic rules rather than one theme's class names: navigation, sidebars,
  tables of contents, breadcrumbs, pagers, search boxes, header/footer
  bars, "edit this page"/"view source" links, heading permalinks (``¶``,
  ``#``), copy buttons, skip links and screen-reader-only text. The HTML
  converter then reads the main content.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser, LexborNode

from murar.ingest.paths import ResolvedLink
from murar.ingest.sites._common import (
    ASSET_SUFFIXES,
    IMAGE_SUFFIXES,
    VIDEO_SUFFIXES,
    local_link,
    lookup,
    own_host_path,
    safe_join,
    strip_base,
    suffix_of,
    url_base_path,
)
from murar.ingest.sites.base import FileClass, FileRole, SiteConfig

GENERATOR = "html"
#: folder names generators use for their build output (for the ingest hint; never assumed)
BUILD_DIRS = ("site", "_build/html", "build/html", "public", "build", "_site", "docs/_build/html")
_UTILITY_PAGES = frozenset({"search.html", "genindex.html", "py-modindex.html", "404.html", "searchresults.html",
                            "search-results.html", "objects.html"})
_ASSET_DIRS = ("_static", "_sources", "_images/math", "assets/javascripts", "assets/stylesheets", "search",
               "_next", "_nuxt", "assets/js", "assets/css", "js", "css", "fonts", "webfonts", "lib", "_downloads")
_GENERATOR_META = re.compile(r"""<meta[^>]+name=["']generator["'][^>]+content=["']([^"']+)["']|"""
                             r"""<meta[^>]+content=["']([^"']+)["'][^>]+name=["']generator["']""", re.IGNORECASE)
_REFRESH = re.compile(r"""<meta[^>]+http-equiv=["']?refresh""", re.IGNORECASE)
_KNOWN = (("mkdocs", "mkdocs"), ("docusaurus", "docusaurus"), ("hugo", "hugo"), ("jekyll", "jekyll"),
          ("sphinx", "sphinx"), ("vitepress", "vitepress"), ("docfx", "docfx"), ("antora", "antora"),
          ("mdbook", "mdbook"), ("jupyter book", "sphinx"), ("quarto", "quarto"), ("gatsby", "gatsby"),
          ("next.js", "nextjs"), ("astro", "astro"), ("starlight", "astro"))

# --------------------------------------------------------------- boilerplate
_DROP_TAGS = "nav, aside, form, button, script, style, noscript, template, dialog, input, select, textarea"
_DROP_ROLES = ("navigation", "search", "banner", "contentinfo", "complementary", "toolbar", "menu", "menubar",
               "tablist", "dialog")
#: class/id tokens of page chrome, matched as whole ``-``/``_``-separated words of a class or id
_CHROME = re.compile(
    r"(?:^|[-_])(?:breadcrumbs?|crumbs|sidebar|side-bar|sidenav|side-nav|navbar|nav|navigation|menu|toc|tocs|"
    r"table-of-contents|pagination|pager|paginator|prev-next|prevnext|related|footer|header-bar|topbar|"
    r"searchbox|search|edit-this-page|edit-page|editlink|edit-link|headerlink|hash-link|anchor-heading|"
    r"anchorjs-link|heading-anchor|header-anchor|permalink|skip-link|skiplink|skip-to-content|sr-only|"
    r"visually-hidden|screen-reader-text|copy-button|copybtn|clipboard|feedback|rating|announcement|banner|"
    r"cookie|consent|version-switcher|versions|language-switcher|theme-toggle|back-to-top)(?:$|[-_])",
    re.IGNORECASE)
#: tokens that look like chrome but name content (kept)
_CONTENT_TOKENS = re.compile(r"^(?:md-content|md-typeset|body|document|content|main-content|markdown|"
                             r"theme-doc-markdown|rst-content|article|post-content|page-content|"
                             r"toctree-wrapper|admonition|highlight|section)$", re.IGNORECASE)
_EDIT_TEXT = re.compile(r"^\s*(?:edit (?:this|on|page)|view (?:page )?source|suggest (?:an )?edits?|"
                        r"improve this (?:page|doc)|report an issue|open an issue|show source)\b", re.IGNORECASE)
_PERMALINK_PARENTS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "dt", "caption", "figcaption", "span", "p"})
_PERMALINK_TEXT = frozenset({"¶", "#", "\u200b", "§", "🔗", "link", ""})


def _is_chrome(node: LexborNode) -> bool:
    attrs = node.attributes
    role = (attrs.get("role") or "").lower()
    if role in _DROP_ROLES:
        return True
    label = (attrs.get("aria-label") or "").lower()
    if any(w in label for w in ("breadcrumb", "pagination", "table of contents", "navigation", "on this page",
                                "docs pages", "edit")):
        return True
    tokens = [*(attrs.get("class") or "").split(), *(attrs.get("id") or "").split()]
    for token in tokens:
        if _CONTENT_TOKENS.match(token):
            return False
    return any(_CHROME.search(t) for t in tokens)


def _is_permalink(node: LexborNode) -> bool:
    """A heading's self-link (``<a class="headerlink" href="#x">¶</a>`` and kin)."""
    href = node.attributes.get("href") or ""
    if not href.startswith("#"):
        return False
    text = (node.text(deep=True) or "").strip()
    title = f"{node.attributes.get('title') or ''} {node.attributes.get('aria-label') or ''}".lower()
    return text in _PERMALINK_TEXT or "permalink" in title or "link to this" in title or "direct link" in title


def clean_built_page(html: str) -> str:
    """Remove theme chrome from a built page (see module doc); returns HTML.

    The ``<head>`` (title, canonical URL, meta tags) is kept. Never raises: a page
    selectolax cannot parse is returned unchanged.
    """
    try:
        tree = LexborHTMLParser(html)
    except Exception:  # noqa: BLE001 - selectolax is lenient; never lose the page
        return html
    body = tree.body
    if body is None:
        return html
    for node in body.css(_DROP_TAGS):
        node.decompose()
    for node in list(body.css("header, footer")):
        if node.css_first("h1") is None:
            node.decompose()
    for node in list(body.css("[class], [id], [role], [aria-label]")):
        if node.parent is None or not _is_chrome(node):
            continue
        # a wrapper whose name sounds like chrome (Read the Docs "wy-nav-content") but holds the page
        if node.css_first("main, [role=main], article, h1") is not None:
            continue
        node.decompose()
    for node in list(body.css("a")):
        text = node.text(deep=True) or ""
        edit = _EDIT_TEXT.match(text) or (not text.strip() and "/edit/" in (node.attributes.get("href") or ""))
        permalink = _is_permalink(node) and node.parent is not None and (node.parent.tag or "") in _PERMALINK_PARENTS
        if edit or permalink:
            node.decompose()
    return tree.html or html


def built_generator(folder: Path) -> str | None:
    """The generator that built the HTML in ``folder`` (``"mkdocs"``, ``"sphinx"``,
    ``"hugo"``, ..., ``"html"`` when unknown but clearly a built site), or ``None``
    when ``folder`` is not a built site. Never raises."""
    index = folder / "index.html"
    try:
        head = index.read_text(encoding="utf-8", errors="replace")[:65_536] if index.is_file() else ""
    except OSError:
        return None
    if not head:
        return "html" if _generated_pages(folder) else None
    if not is_rendered_html(head):
        return None
    m = _GENERATOR_META.search(head)
    if m:
        name = (m.group(1) or m.group(2) or "").lower()
        for needle, gen in _KNOWN:
            if needle in name:
                return gen
        if name.strip():
            return "html"  # a converter that says it wrote the page (LaTeX2HTML, AsciiDoc, Doxygen, ...)
    if (folder / "searchindex.js").is_file() or (folder / "_static" / "documentation_options.js").is_file():
        return "sphinx"
    if (folder / "search" / "search_index.json").is_file():
        return "mkdocs"
    if (folder / "sitemap.xml").is_file() or (folder / "404.html").is_file():
        return "html"
    return None


_SOURCE_SUFFIXES = frozenset({".md", ".mdx", ".markdown", ".rst", ".adoc", ".asciidoc", ".ipynb", ".qmd"})


def _generated_pages(folder: Path, limit: int = 50) -> bool:
    """A folder without ``index.html`` whose pages a converter wrote (a man-page set such
    as Debian's git-doc: AsciiDoc/DocBook HTML): at least 3 top-level ``.html`` files,
    4 in 5 of the first ``limit`` (by name) rendered and carrying a generator meta tag,
    and no source pages (Markdown, reST, AsciiDoc, notebooks) beside them. Never raises."""
    try:
        names = sorted(p.name for p in folder.iterdir() if p.is_file())
    except OSError:
        return False
    if any(suffix_of(n) in _SOURCE_SUFFIXES for n in names):
        return False
    pages = [n for n in names if n.lower().endswith((".html", ".htm"))][:limit]
    if len(pages) < 3:
        return False
    generated = 0
    for name in pages:
        try:
            with (folder / name).open("r", encoding="utf-8", errors="replace") as fh:
                head = fh.read(8192)
        except OSError:
            continue
        if is_rendered_html(head) and _GENERATOR_META.search(head):
            generated += 1
    return 5 * generated >= 4 * len(pages)


def is_rendered_html(text: str) -> bool:
    """True for a served page (HTML, or XHTML after its ``<?xml ...?>`` declaration);
    False for a template or a source page (front matter, Liquid/Go/Jinja template tags)."""
    start = text.lstrip("\ufeff \t\r\n")[:400].lower()
    if start.startswith("<?xml"):  # XHTML (AsciiDoc, DocBook XSL) opens with an XML declaration
        start = start[start.find("?>") + 2:].lstrip() if "?>" in start else start
    if start.startswith(("---", "+++")):
        return False
    if not (start.startswith(("<!doctype html", "<html", "<!--"))):
        return False
    return not re.search(r"\{\{[\s.$]|\{%\s", text[:65_536])


class BuiltSite:
    """A folder of built HTML (see module doc). The constructor does no I/O."""

    def __init__(self, config: SiteConfig) -> None:
        self._config = config
        self._root = config.root

    @property
    def config(self) -> SiteConfig:
        return self._config

    def classify(self, rel: str) -> FileClass:
        """HTML pages, except utility pages, redirect stubs and asset folders."""
        suffix = suffix_of(rel)
        if suffix in IMAGE_SUFFIXES or suffix in VIDEO_SUFFIXES:
            return FileClass(role=FileRole.ASSET)
        if any(rel == d or rel.startswith(d + "/") for d in _ASSET_DIRS):
            return FileClass(role=FileRole.ASSET if suffix in ASSET_SUFFIXES else FileRole.EXCLUDED,
                             reason="generator asset folder")
        if suffix not in (".html", ".htm"):
            if suffix in ASSET_SUFFIXES or suffix in (".inv", ".map", ".gz", ".txt"):
                return FileClass(role=FileRole.ASSET)
            return FileClass(role=FileRole.UNKNOWN, reason=f"unsupported file type {suffix or '(none)'}")
        if posixpath.basename(rel).lower() in _UTILITY_PAGES:
            return FileClass(role=FileRole.EXCLUDED, markup="html", reason="generator utility page")
        if self._config.settings.get("built_by") == "hugo" and rel.split("/")[0] in ("tags", "categories"):
            return FileClass(role=FileRole.EXCLUDED, markup="html", reason="Hugo taxonomy list page")
        try:
            with (self._root / rel).open("r", encoding="utf-8", errors="replace") as fh:
                head = fh.read(4096)
        except OSError:
            head = ""
        if _REFRESH.search(head) and len(head) < 4096:
            return FileClass(role=FileRole.EXCLUDED, markup="html", reason="redirect page")
        return FileClass(role=FileRole.PAGE, markup="html")

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Relative to the page; root-relative after the site base path; links to
        the site's own canonical host are local. Never raises."""
        target = local_link(link, self._own_path)
        if isinstance(target, ResolvedLink):
            return target
        link, path = target
        if path.startswith("/"):
            site_path = strip_base(path, self._config.base_url).lstrip("/")
            cands = [site_path]
        else:
            cands = [safe_join(posixpath.dirname(page_rel), path)]
            if path.endswith("/"):
                cands = [safe_join(cands[0], "index.html")]
        return lookup(self._root, cands, link=link)

    def _own_path(self, link: str) -> str | None:
        return own_host_path(self._config.settings.get("site_url", ""), link)

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        """Built pages have no includes; resolved like a link for completeness."""
        return self.resolve_asset(target, page_rel=page_rel)

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """The page without its theme chrome (:func:`clean_built_page`)."""
        return clean_built_page(text)


_CANONICAL = re.compile(r"""<link[^>]+rel=["']canonical["'][^>]+href=["']([^"']+)["']|"""
                        r"""<link[^>]+href=["']([^"']+)["'][^>]+rel=["']canonical["']""", re.IGNORECASE)


def load(root: Path, config_file: str | None = None) -> BuiltSite:
    """A :class:`BuiltSite` for the built HTML at ``root``. The site URL and base
    path come from the canonical link of ``index.html`` (MkDocs ``site_url``,
    Sphinx ``html_baseurl``, Hugo ``baseURL``) when there is one. Never raises."""
    root = root.resolve()
    site_url = ""
    try:
        head = (root / "index.html").read_text(encoding="utf-8", errors="replace")[:65_536]
    except OSError:
        head = ""
    m = _CANONICAL.search(head)
    if m:
        site_url = m.group(1) or m.group(2) or ""
    base = url_base_path(site_url) if "://" in site_url else "/"
    built_by = built_generator(root) or GENERATOR
    return BuiltSite(SiteConfig(generator=GENERATOR, root=root, config_file=config_file or "index.html",
                                base_url=base, settings={"built_by": built_by, "site_url": site_url}))
