"""Docusaurus (v2/v3) resolution rules.

From the Docusaurus documentation ("Static assets", "Docs: introduction",
"MDX and React: importing Markdown", "plugin-content-docs" options):

- pages are the files matched by the ``include`` globs (default
  ``**/*.{md,mdx}``) and not by the ``exclude`` globs of every content plugin
  instance, relative to its ``path``: the docs (default ``docs``), blog
  (``blog``) and pages (``src/pages``) plugins of the preset, unless turned off
  (``docs: false``), and each ``plugins`` entry naming
  ``@docusaurus/plugin-content-{docs,blog,pages}`` or a module shorthand of
  it (``content-docs``, ``@docusaurus/content-docs``), or a site's own plugin
  wrapping one (see :func:`_plugin_kind`). The default ``exclude``
  makes files or folders starting with ``_`` partials, not pages; an own
  ``exclude`` list replaces it (so ``_x.md`` is then published, Docusaurus
  issue #9641). Markdown files imported by another page are partials too
  (MDX partials, e.g. under ``static/``);
- a page with ``draft: true`` in its front matter is published in
  development only, so it is skipped; ``mdx: {format: md}`` in a page's front
  matter makes it CommonMark whatever ``markdown.format`` says (and ``mdx``
  MDX); admonitions are read in both;
- a docs instance publishes several versions (``docs/`` as "current", the
  ``versions.json`` releases in ``versioned_docs/version-<name>``); murar reads
  the one a reader sees by default, ``lastVersion`` (see :func:`docs_version`),
  or the one asked for (``--docs-version``), and reports the files of the
  others with their version name; ``i18n/`` holds translations, reported with
  their locale and ``i18n.defaultLocale``, unless a locale is asked for
  (``--language``: :meth:`DocusaurusSite.classify`);
- ``staticDirectories`` (default ``static``) are copied to the site root: a
  root-relative link ``/img/x.png`` (or ``/<baseUrl>/img/x.png``) and
  ``useBaseUrl('img/x.png')`` mean ``static/img/x.png``, and so does
  ``pathname:///img/x.png`` (a URL Docusaurus leaves unprocessed); so does
  ``<url><baseUrl>img/x.png``, the site's own published address (``url``);
- ``@site/...`` is the site folder; ``require('...').default`` and
  ``import x from '...'`` resolve relative to the page (MDX processing, see
  :mod:`murar.ingest.markup.mdx`).

- the MDX version pages compile with follows ``@docusaurus/core`` in
  ``package.json`` (2.x: MDX 1; 3.x or unknown: MDX 3); a swizzled
  ``src/theme/MDXComponents`` puts components in every page's scope; fenced
  code loses its ``themeConfig.prism.magicComments`` lines (theme-common
  ``parseLines``); emoji shortcodes that state a value (``:white_check_mark:``)
  read as their character, as remark-emoji (on unless ``markdown.emoji: false``)
  draws them; with ``remark-math`` in an instance's ``remarkPlugins``, ``$...$``
  and ``$$`` blocks are LaTeX kept as written (before MDX reads braces in them);
  a heading inside a ``<TabItem>`` belongs to that tab: the next tab and the text
  after ``</Tabs>`` are back in the section the tab set stands in.

Settings are read from ``docusaurus.config.{js,ts}`` without running it
(:mod:`murar.ingest.sites._jsconfig`); what cannot be read takes the default.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

from murar.errors import ConfigError
from murar.ingest.markup.emoji import VALUE_EMOJI
from murar.ingest.markup.mathtext import remark_math
from murar.ingest.markup.mdtext import (
    MDX_FENCE,
    FenceTracker,
    directive_admonitions,
    drop_abbreviation_definitions,
    outside_code,
)
from murar.ingest.paths import ResolvedLink, inside_root, is_remote
from murar.ingest.sites import _common
from murar.ingest.sites import _jsconfig as js
from murar.ingest.sites._doccards import DocCard, category_cards
from murar.ingest.sites._glob import DOCUSAURUS, extglob_match
from murar.ingest.sites._links import contained, join_rel, strip_wrappers
from murar.ingest.sites._npm2yarn import npm2yarn_tabs
from murar.ingest.sites.base import (
    FileClass,
    FileRole,
    SiteConfig,
    SiteVariant,
    asset_or_unknown,
)

_PAGE_MARKUP = {".md": "markdown", ".mdx": "mdx", ".markdown": "markdown"}
_DEFAULT_EXCLUDE = ("**/_*.{js,jsx,ts,tsx,md,mdx}", "**/_*/**", "**/*.test.{js,jsx,ts,tsx}", "**/__tests__/**")
# plugin names and module shorthands (Docusaurus "Using plugins": '@docusaurus/content-docs' and
# 'content-docs' load '@docusaurus/plugin-content-docs'), with each plugin's default path
_CONTENT_PLUGINS = tuple(
    ((f"@docusaurus/plugin-content-{kind}", f"@docusaurus/content-{kind}", f"content-{kind}"), kind)
    for kind in ("docs", "blog", "pages")
)
_DEFAULT_PATH = {"docs": "docs", "blog": "blog", "pages": "src/pages"}
_DEFAULT_INCLUDE = {"docs": ("**/*.{md,mdx}",), "blog": ("**/*.{md,mdx}",),
                    "pages": ("**/*.{js,jsx,ts,tsx,md,mdx}",)}
# options only plugin-content-docs / plugin-content-blog take: a wrapper plugin passing them is one
_DOCS_ONLY_OPTIONS = {"sidebarPath", "sidebarItemsGenerator", "lastVersion", "onlyIncludeVersions",
                      "includeCurrentVersion", "disableVersioning", "editCurrentVersion", "sidebarCollapsible",
                      "sidebarCollapsed", "numberPrefixParser", "docItemComponent", "docRootComponent"}
_BLOG_ONLY_OPTIONS = {"blogTitle", "blogDescription", "blogSidebarCount", "blogSidebarTitle", "postsPerPage",
                      "authorsMapPath", "feedOptions", "blogListComponent", "blogPostComponent"}
_THEME_DOCS_KEYS = {"sidebar", "versionPersistence"}
_THEME_BLOG_KEYS = {"sidebar"}  # themeConfig.blog (Docusaurus 3.5: sidebar.groupByYear)
_VERSIONED = re.compile(r"((?:[^/]+_)?versioned_docs)/version-([^/]+)/")
_FENCE = re.compile(r"^\s{0,3}(?P<fence>`{3,}|~{3,})")
# magic comments (theme-common codeBlockUtils): the comment syntaxes a directive may be written in,
# the ones each language reads, and the directives of the default themeConfig.prism.magicComments
_COMMENT_STYLES = {
    "js": (r"//", ""), "jsBlock": (r"/\*", r"\*/"), "jsx": (r"\{\s*/\*", r"\*/\s*\}"), "bash": (r"#", ""),
    "html": (r"<!--", r"-->"), "lua": (r"--", ""), "wasm": (r";;", ""), "tex": (r"%", ""), "vb": (r"['‘’]", ""),
    "vbnet": (r"(?:_\s*)?['‘’]", ""), "rem": (r"[Rr][Ee][Mm]\b", ""), "f90": (r"!", ""), "ml": (r"\(\*", r"\*\)"),
    "cobol": (r"\*>", ""),
}
_POPULAR_STYLES = ("js", "jsBlock", "jsx", "bash", "html")
_LANGUAGE_STYLES = {
    **dict.fromkeys(("js", "javascript", "ts", "typescript"), ("js", "jsBlock")),
    **dict.fromkeys(("jsx", "tsx"), ("js", "jsBlock", "jsx")), "html": ("js", "jsBlock", "html"),
    **dict.fromkeys(("python", "py", "bash"), ("bash",)), **dict.fromkeys(("markdown", "md"), ("html", "jsx", "bash")),
    **dict.fromkeys(("tex", "latex", "matlab"), ("tex",)), **dict.fromkeys(("lua", "haskell"), ("lua",)),
    "sql": ("lua", "jsBlock"), "wasm": ("wasm",), **dict.fromkeys(("vb", "vba", "visual-basic"), ("vb", "rem")),
    "vbnet": ("vbnet", "rem"), "batch": ("rem",), "basic": ("rem", "f90"), "fsharp": ("js", "ml"),
    **dict.fromkeys(("ocaml", "sml"), ("ml",)), "fortran": ("f90",), "cobol": ("cobol",),
}
DEFAULT_MAGIC_COMMENTS = ("highlight-next-line", "highlight-start", "highlight-end")
_FENCE_INFO = re.compile(r"^[ \t]*(?:`{3,}|~{3,})\s*([^\s`{]*)")  # read on opening fence lines only
# a swizzled MDXComponents: the file, or the folder swizzle --eject writes (its index)
_MDX_COMPONENTS = tuple(f"src/theme/MDXComponents{end}{ext}" for end in ("", "/index") for ext in (".js", ".jsx", ".ts", ".tsx"))
_DEFAULT_IMPORT = re.compile(r"""(?m)^\s*import\s+([A-Za-z_$][\w$]*)\s*(?:,\s*\{[^}]*\}\s*)?from\s*(['"])([^'"]+)\2""")
_NAMED_IMPORT = re.compile(r"""(?m)^\s*import\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2""")
_NAMESPACE_IMPORT = re.compile(r"""(?m)^\s*import\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*(['"])([^'"]+)\2""")
# the names a module exports: export { default as A, B } (from ...), export const/function/class C
_EXPORT_LIST = re.compile(r"\bexport\s*\{([^{}]{0,5000})\}")
_EXPORT_DECL = re.compile(r"\bexport\s+(?:async\s+)?(?:const|let|var|function\*?|class)\s+([A-Za-z_$][\w$]*)")
_IMPORT_MD = re.compile(r"""(?m)^\s*import\s+[\w${}\s,*]+\s+from\s+['"]([^'"]+\.mdx?)['"]""")


#: package.json is read up to this many bytes
MAX_PACKAGE_JSON_BYTES = 1_000_000


_JS_ESCAPE = re.compile(r"\\(?:u\{([0-9A-Fa-f]{1,6})\}|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|(\r\n|[\s\S]))")
_JS_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def js_string_value(text: str) -> str:
    """The value of the body of a JavaScript string literal: ``\\_`` is ``_`` (a
    character that needs no escape stands for itself), ``\\n``, ``\\x41``,
    ``\\u0041``, ``\\u{41}`` are their characters and a backslash before a line
    break continues the line (ECMAScript "String Literals")."""
    if "\\" not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        code = m.group(1) or m.group(2) or m.group(3)
        if code:
            value = int(code, 16)
            return chr(value) if value <= 0x10FFFF else m.group(0)
        char = m.group(4)
        if char in ("\n", "\r", "\r\n", "\u2028", "\u2029"):
            return ""
        return _JS_SIMPLE_ESCAPES.get(char, char)

    return _JS_ESCAPE.sub(sub, text)


def mdx_version(site: Path) -> str | None:
    """The MDX version the site's Docusaurus compiles pages with, from the
    ``@docusaurus/core`` (or ``preset-classic``) dependency in its ``package.json``:
    ``"1"`` for Docusaurus 2 (MDX 1, where braces in Markdown text are text),
    ``"3"`` for Docusaurus 3 (MDX 3, where they are expressions; "Upgrading to
    Docusaurus v3"); ``None`` when no readable ``package.json`` names it."""
    try:
        with (site / "package.json").open(encoding="utf-8", errors="replace") as fh:
            data = json.loads(fh.read(MAX_PACKAGE_JSON_BYTES))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    for group in ("dependencies", "devDependencies"):
        deps = data.get(group)
        if not isinstance(deps, dict):
            continue
        for name in ("@docusaurus/core", "@docusaurus/preset-classic"):
            spec = deps.get(name)
            m = re.search(r"\d+", spec) if isinstance(spec, str) else None
            if m:
                return "1" if int(m.group(0)) <= 2 else "3"
    return None


@dataclass(frozen=True, slots=True)
class DocsVersion:
    """The version of a docs plugin instance murar reads, and the ones it skips.

    ``folder`` (relative to the site folder) holds the pages of ``name``, the
    instance's ``lastVersion`` (``"current"``: its ``path``) or the version asked
    for; ``skipped`` maps the folder of every other version to the reason shown in
    the ingest report; ``versions`` names every version of the instance
    (``current`` first when it is one); ``asked`` is false when the version asked
    for is not one of them (the default version is then read).
    """

    name: str
    folder: str
    skipped: dict[str, str] = field(default_factory=dict)
    versions: tuple[str, ...] = ()
    asked: bool = False


def _outside(folder: str) -> bool:
    """True when a posix folder joined to the site (:func:`join_rel`) is not inside the root."""
    return folder == ".." or folder.startswith(("../", "/"))


def _safe_version(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")


def _within(path: Path, root: Path, *, folder: bool = False) -> bool:
    """True when ``path`` is a file (``folder``: a folder) whose real path is inside
    ``root`` (resolved): a translation or version folder that is a symbolic link out
    of the site is not there for murar, which does not read it."""
    try:
        there = path.is_dir() if folder else path.is_file()
    except OSError:
        return False
    return there and not inside_root(path, root).problem


def docs_version(options: str, consts: dict[str, str], site: Path, *, wanted: str | None = None,
                 root: Path | None = None) -> DocsVersion:
    """The version of a docs plugin instance murar reads: ``wanted`` when the
    instance has it (``murar ingest --docs-version``), else the one it shows by
    default, from the body of its options object (Docusaurus "Versioning" and
    plugin-content-docs options).

    The instance's versions are ``current`` (its ``path``, default ``docs``: the
    unreleased "Next"), unless ``includeCurrentVersion: false``, followed by the
    names in ``versions.json`` (``<id>_versions.json`` for an instance with an
    ``id``; none with ``disableVersioning: true``), whose files are in
    ``versioned_docs/version-<name>`` (``<id>_versioned_docs/...``), kept only
    when listed in ``onlyIncludeVersions``. The default version is
    ``lastVersion``, else the first released one, else ``current``. That is the
    one read; a released version whose folder is missing (a partial checkout)
    falls back to ``path``. A ``wanted`` version is one of ``current`` and the
    ``versions.json`` names, published or not (``docusaurus build`` builds the
    ones ``onlyIncludeVersions`` keeps; the files of the others are still there).

    A folder or ``versions.json`` that leads out of ``root`` (resolved; default
    ``site``) is not read: the folder counts as missing.

    Raises:
        ConfigError: ``wanted`` is listed in ``versions.json`` but its
            ``versioned_docs/version-<name>`` folder is missing.
    """
    root = (root or site).resolve()
    path = js.top_level_string(options, "path", consts) or "docs"
    plugin_id = js.top_level_string(options, "id", consts) or "default"
    prefix = "" if plugin_id == "default" else f"{plugin_id}_"
    released: list[str] = []
    if js.top_level_value(options, "disableVersioning") != "true":
        listing = site / f"{prefix}versions.json"
        try:
            names = json.loads(listing.read_text(encoding="utf-8", errors="replace")) \
                if _within(listing, root) else None
        except (OSError, ValueError, RecursionError):
            names = None
        if isinstance(names, list):
            released = [n for n in names if isinstance(n, str) and _safe_version(n) and n != "current"]
    versions = released.copy()
    if js.top_level_value(options, "includeCurrentVersion") != "false":
        versions.insert(0, "current")
    only = js.top_level_strings(options, "onlyIncludeVersions", consts)
    included = [v for v in versions if only is None or v in only] or ["current"]
    last = js.top_level_string(options, "lastVersion", consts)
    if last is None or (last != "current" and not _safe_version(last)):
        last = next((v for v in included if v != "current"), "current")

    def folder(name: str) -> str:
        return join_rel(".", path) if name == "current" else f"{prefix}versioned_docs/version-{name}"

    chosen = last if last == "current" or _within(site / folder(last), root, folder=True) else "current"
    names = ("current", *released)
    asked = wanted is not None and wanted in names
    if asked and wanted is not None:
        if wanted != "current" and not _within(site / folder(wanted), root, folder=True):
            there = (site / folder(wanted)).exists()
            raise ConfigError(f"docs version {wanted!r} is in {prefix}versions.json but its folder "
                              f"{folder(wanted)} " + ("leads out of the corpus root (a symbolic link); not read"
                                                      if there else "is missing; check out the complete site"))
        chosen = wanted
    read = f"version {chosen} (chosen)" if asked else f"the default version {chosen}"
    skipped: dict[str, str] = {}
    for name in names:
        if name == chosen:
            continue
        label = "current (Next)" if name == "current" else name
        why = "" if name in included else ", not published: " + (
            "includeCurrentVersion: false" if name == "current" else "not in onlyIncludeVersions")
        skipped[folder(name)] = f"docs version {label}{why}; murar reads {read}"
    return DocsVersion(name=chosen, folder=folder(chosen), skipped=skipped, versions=names, asked=asked)


def _versions_read(versions: list[tuple[str, DocsVersion]]) -> str:
    """The docs version read, for the ingest summary: ``""`` when no docs instance
    has versions, the version's name when one has, else ``<plugin id> <version>``
    of each versioned instance, comma-separated."""
    versioned = [(pid, v.name) for pid, v in versions if len(v.versions) > 1]
    if len(versioned) <= 1:
        return versioned[0][1] if versioned else ""
    return ", ".join(f"{pid} {name}" for pid, name in versioned)


@dataclass(frozen=True, slots=True)
class ContentInstance:
    """One content plugin instance: its ``kind`` (``docs``, ``blog``, ``pages``),
    the ``folder`` it reads (relative to the ingest root) and its ``include`` and
    ``exclude`` globs (relative to that folder; an ``exclude`` option replaces
    the default list, Docusaurus issue #9641). ``localized`` is the folder of the
    chosen locale's translations of its files (:func:`localized_folder`; ``""``
    when the default locale is read). ``npm2yarn`` names the converters of the
    ``@docusaurus/remark-plugin-npm2yarn`` its ``remarkPlugins`` list
    (:func:`npm2yarn_converters`); ``abbreviations`` is true when that list holds
    ``remark-abbr`` (its ``*[HTML]: ...`` definition lines are not page text);
    ``directives`` names the text directives the site's own remark plugins in its
    lists render (:func:`site_directives`); ``math`` is true when it holds
    ``remark-math`` (``$...$`` and ``$$`` blocks are formulas)."""

    kind: str
    folder: str
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    localized: str = ""
    npm2yarn: tuple[str, ...] = ()  # converters of its npm2yarn remark plugin (none: not configured)
    abbreviations: bool = False  # remark-abbr in its remarkPlugins
    math: bool = False  # remark-math in its remarkPlugins: $...$ and $$ blocks are LaTeX
    directives: tuple[str, ...] = ()  # text directives the site's own remark plugins render (site_directives)


def _module_object(code: str, key: str, root: Path, site_dir: str) -> tuple[str, str]:
    """``(object body, module code)`` of the config value ``key`` written as a name
    (``i18n,`` or ``i18n: name``) bound to a local module (``const name =
    require('./x')``, ``import name from './x'``): Docusaurus loads its config as a
    Node module, so the value is that module's ``module.exports = {...}`` or
    ``export default {...}`` object. ``("", "")`` when it is no such name, or the
    module is not a file of at most 1 MB inside ``root`` (``.js``/``.ts``/``.mjs``/
    ``.cjs``/``.json`` tried)."""
    m = re.search(rf"\b{re.escape(key)}\s*:\s*([A-Za-z_$][\w$]*)\s*[,}}\n]", code)
    name = m.group(1) if m else key if re.search(rf"[{{,]\s*{re.escape(key)}\s*[,}}]", code) else None
    if name is None:
        return "", ""
    bound = re.search(rf"""(?:\b(?:const|let|var)\s+{re.escape(name)}\s*=\s*require\(\s*|\bimport\s+{re.escape(name)}"""
                      rf"""\s+from\s+)['"](\.{{1,2}}/[^'"\n]{{1,200}})['"]""", code)
    if not bound:
        return "", ""
    base = (root / site_dir / bound.group(1))
    for cand in (base, *(base.with_name(base.name + ext) for ext in (".js", ".ts", ".mjs", ".cjs", ".json"))):
        if cand.is_file() and _within(cand, root):
            try:
                with cand.open(encoding="utf-8", errors="replace") as fh:
                    module = js.strip_comments(fh.read(MAX_PACKAGE_JSON_BYTES))
            except OSError:
                return "", ""
            if cand.suffix == ".json":
                body = module.strip()
                return (body[1:-1] if body.startswith("{") and body.endswith("}") else ""), module
            head = re.search(r"(?:module\.exports\s*=|export\s+default)\s*\{", module)
            return ((js.object_at(module, head.end() - 1) or "") if head else ""), module
    return "", ""


_NPM2YARN_MODULE = "@docusaurus/remark-plugin-npm2yarn"


def npm2yarn_converters(block: str, code: str, consts: dict[str, str], mdx: str | None) -> tuple[str, ...]:
    """The converters of the npm2yarn remark plugin in the content plugin options
    ``block`` (its ``remarkPlugins`` holding ``require('@docusaurus/remark-plugin-npm2yarn')``
    or a name ``code`` binds to that module), ``()`` when it has none. The plugin's
    ``converters`` option keeps the names it knows (``yarn``, ``pnpm``; a custom
    ``[name, fn]`` converter runs code murar never runs); without one Docusaurus 3
    converts to ``yarn`` and ``pnpm``, Docusaurus 2 (``mdx`` ``"1"``) to ``yarn`` only
    (remark-plugin-npm2yarn: ``converters = ['yarn', 'pnpm']``, added in 3.0)."""
    entry = remark_plugin_entry(block, code, _NPM2YARN_MODULE)
    if entry is None:
        return ()
    options = js.object_at(entry, entry.find("{")) if "{" in entry else None
    wanted = js.top_level_strings(options, "converters", consts) if options is not None else None
    if wanted is not None:
        return tuple(dict.fromkeys(c for c in wanted if c in ("yarn", "pnpm")))
    return ("yarn",) if mdx == "1" else ("yarn", "pnpm")


_DIRECTIVE_NAME_TEST = re.compile(r"""\bname\s*[!=]==?\s*["']([A-Za-z][\w-]{0,60})["']"""
                                  r"""|["']([A-Za-z][\w-]{0,60})["']\s*[!=]==?\s*(?:node\.)?name\b""")
_MODULE_SUFFIXES = ("", ".ts", ".js", ".mjs", ".cjs", ".mts", ".cts", "/index.ts", "/index.js")


def site_directives(block: str, code: str, root: Path, site_dir: str) -> tuple[str, ...]:
    """The names of the text directives (``:ak-enterprise``, ``:ak-version[2024.6]``)
    that the site's own remark plugins in the content plugin options ``block``
    (``remarkPlugins``/``beforeDefaultRemarkPlugins`` entries bound to a local module:
    ``import remarkVersion from "./remark/version-directive"``) render: a module that
    visits ``textDirective`` nodes and tests their ``name`` against a literal (the
    pattern of Docusaurus' "Markdown features: MDX plugins" directives). Each module is
    read up to 1 MB, at most 20; ``()`` when none."""
    names: list[str] = []
    entries: list[str] = []
    for key in ("beforeDefaultRemarkPlugins", "remarkPlugins"):
        value = js.top_level_value(block, key) or ""
        if value.startswith("["):
            entries += js.array_entries(f"p: {value}", "p") or []
    for entry in entries[:20]:
        head = entry.lstrip("[").split(",", 1)[0].strip()
        local = re.fullmatch(r"""require\(\s*['"](\.{1,2}/[^'"\n]{1,200})['"]\s*\)(?:\.default)?""", head)
        module = local.group(1) if local else None
        if module is None and re.fullmatch(r"[A-Za-z_$][\w$]*", head):
            bound = re.search(rf"""(?:\bimport\s+{re.escape(head)}\s+from\s+|\b(?:const|let|var)\s+{re.escape(head)}"""
                              rf"""\s*=\s*require\(\s*)['"](\.{{1,2}}/[^'"\n]{{1,200}})['"]""", code[:200_000])
            module = bound.group(1) if bound else None
        if module is None:
            continue
        base = root / site_dir / module
        found = next((c for c in (Path(f"{base}{ext}") for ext in _MODULE_SUFFIXES) if _within(c, root)), None)
        if found is None:
            continue
        try:
            with found.open(encoding="utf-8", errors="replace") as fh:
                text = js.strip_comments(fh.read(MAX_PACKAGE_JSON_BYTES))
        except OSError:
            continue
        if "textDirective" in text:
            names += [a or b for a, b in _DIRECTIVE_NAME_TEST.findall(text) if (a or b) not in names]
    return tuple(names)


def remark_plugin_entry(block: str, code: str, module: str) -> str | None:
    """The entry of the content plugin options ``block``'s ``remarkPlugins`` array
    that is the remark plugin ``module`` (``require('remark-abbr')``, ``[require(...),
    {options}]``, or a name ``code`` binds to that module: ``const abbr =
    require('remark-abbr')``, ``import abbr from 'remark-abbr'``), as source text;
    ``None`` when the list holds no such plugin (or is no array literal)."""
    plugins = js.top_level_value(block, "remarkPlugins") or ""
    if not plugins.startswith("[") or module.split("/")[-1] not in code:
        return None
    names = {m.group(1) for m in re.finditer(
        rf"""(?:const|let|var|import)\s+([A-Za-z_$][\w$]*)\s*(?:=\s*require\(\s*['"]{re.escape(module)}['"]\s*\)"""
        rf"""|from\s+['"]{re.escape(module)}['"])""", code[:200_000])}
    for entry in js.array_entries(f"p: {plugins}", "p") or []:
        head = entry.lstrip("[").split(",", 1)[0].strip()
        if re.search(rf"""['"]{re.escape(module)}['"]""", head) or (head and head.split(".")[0] in names):
            return entry
    return None


def localized_folder(kind: str, plugin_id: str, locale: str, version: str | None = None) -> str:
    """The folder (relative to the site folder) holding a content plugin
    instance's translations into ``locale``, as Docusaurus' ``getPluginI18nPath``
    builds it: ``i18n/<locale>/docusaurus-plugin-content-<kind>[-<id>]``, for a
    docs instance followed by ``current`` or ``version-<name>`` (``version``)."""
    folder = f"i18n/{locale}/docusaurus-plugin-content-{kind}" + ("" if plugin_id == "default" else f"-{plugin_id}")
    if kind == "docs":
        folder += "/current" if version in (None, "current") else f"/version-{version}"
    return folder


def _plugin_kind(name: str, options: str | None) -> str | None:
    """The content plugin (``docs``, ``blog``, ``pages``) a ``plugins`` entry adds:
    one of the content plugins by name or shorthand, or a site's own plugin
    wrapping one (``[path.resolve(__dirname, './plugins/docs-x'), {id, path,
    sidebarPath}]``, "Extending a plugin"), known by a ``path`` with options only
    that plugin takes (``sidebarPath``, ``lastVersion``, ``blogTitle``, ...)."""
    for names, kind in _CONTENT_PLUGINS:
        if name in names:
            return kind
    keys = set(js.top_level_keys(options or ""))
    if "path" not in keys:
        return None
    if keys & _DOCS_ONLY_OPTIONS:
        return "docs"
    if keys & _BLOG_ONLY_OPTIONS:
        return "blog"
    return None


def _preset_plugins(code: str) -> list[tuple[str, str | None]]:
    """``(kind, options body)`` of the docs, blog and pages plugins the config's
    preset adds (``""``: default options; ``None``: disabled by ``docs: false``,
    ``blog: false`` or ``pages: false``). The preset is the first ``presets``
    entry named ``classic`` (``@docusaurus/preset-classic``) or whose options
    name one of these plugins. No ``presets`` in a config: none (unless no
    content plugin is written at all: then the classic defaults); a ``presets``
    value that is not an array literal: the first ``docs:``/``blog:`` objects
    outside ``themeConfig``."""
    kinds = ("docs", "blog", "pages")
    if not code:
        return [(kind, "") for kind in kinds]
    entries = js.preset_entries(code)
    if entries is None:
        if not re.search(r"\bpresets\b", code):
            return []
        docs = next((b for b in js.object_blocks(code, "docs") if not set(js.top_level_keys(b)) <= _THEME_DOCS_KEYS), "")
        blog = next((b for b in js.object_blocks(code, "blog") if not set(js.top_level_keys(b)) <= _THEME_BLOG_KEYS), "")
        return [("docs", docs), ("blog", blog), ("pages", "")]
    for name, options in entries:
        keys = set(js.top_level_keys(options or ""))
        if "classic" not in name and not keys & set(kinds):
            continue
        out: list[tuple[str, str | None]] = []
        for kind in kinds:
            value = js.top_level_value(options or "", kind)
            if value == "false":
                out.append((kind, None))
                continue
            body = ""
            if value is not None:
                value = value.lstrip("(").strip()
                if value.startswith("{"):
                    body = js.object_at(value, 0) or ""
                elif re.fullmatch(r"[A-Za-z_$][\w$]*", value):  # const docsOptions = {...}
                    m = re.search(rf"(?m)^\s*(?:const|let|var)\s+{re.escape(value)}\s*=\s*\(?\s*\{{", code)
                    body = (js.object_at(code, m.end() - 1) or "") if m else ""
            out.append((kind, body))
        return out
    return []


def _registered_components(code: str, folder: str, read_module: Callable[[str], str | None] | None = None,
                           ) -> tuple[dict[str, str], dict[str, str]]:
    """``(name -> module, name -> export)`` of the entries of the object a swizzled
    ``MDXComponents`` exports (``export default {...MDXComponents, Tabs, Shot:
    ZoomImage}``, or ``export default NAME`` of a ``const NAME = {...}``): shorthand
    and ``key: ImportedName`` entries whose name is imported, and every name a
    module imported as a namespace exports when that namespace is spread into it
    (``import * as Site from '@site/src/components'`` then ``...Site``; the module's
    source from ``read_module``); a relative module (``./x``, ``../components/x``,
    written in ``folder``) becomes ``@site/<path>``. The second map gives the name the
    module exports an entry as when it is not its default export (``import { Term }
    from '@site/src/components'``)."""
    imports: dict[str, str] = {}
    exported: dict[str, str] = {}
    for m in _DEFAULT_IMPORT.finditer(code):
        imports[m.group(1)] = m.group(3)
    for m in _NAMED_IMPORT.finditer(code):
        for part in m.group(1).split(","):
            names = part.split(" as ")
            local = names[-1].strip()
            if re.fullmatch(r"[A-Za-z_$][\w$]*", local):
                imports[local] = m.group(3)
                exported[local] = names[0].strip()
    namespaces = {m.group(1): m.group(3) for m in _NAMESPACE_IMPORT.finditer(code)}
    body = None
    export = re.search(r"\bexport\s+default\s*(\{|[A-Za-z_$][\w$]*)", code)
    if export and export.group(1) == "{":
        body = js.object_at(code, export.start(1))
    elif export:
        decl = re.search(rf"\b(?:const|let|var)\s+{re.escape(export.group(1))}\s*(?::[^=]*)?=\s*\{{", code)
        body = js.object_at(code, decl.end() - 1) if decl else None

    def site_module(source: str) -> str | None:
        if source.startswith(("./", "../")):
            joined = join_rel(folder, source)
            return None if _outside(joined) else "@site/" + joined
        return source

    out: dict[str, str] = {}
    exports: dict[str, str] = {}
    for entry in js.object_entries(body or ""):
        spread = re.fullmatch(r"\.\.\.\s*([A-Za-z_$][\w$]*)", entry)
        if spread and spread.group(1) in namespaces and read_module is not None:
            module = site_module(namespaces[spread.group(1)])
            source = read_module(module) if module else None
            for name in _module_exports(source or ""):
                out[name] = module or ""
                exports[name] = name
            continue
        kv = re.fullmatch(r"""['"]?([A-Za-z_$][\w$]*)['"]?(?:\s*:\s*([A-Za-z_$][\w$]*))?""", entry)
        if not kv or kv.group(0).startswith("..."):
            continue
        local = kv.group(2) or kv.group(1)
        source = imports.get(local)
        module = site_module(source) if source is not None else None
        if module is None:
            continue
        out[kv.group(1)] = module
        if exported.get(local, "default") != "default":
            exports[kv.group(1)] = exported[local]
    return out, exports


def _module_exports(code: str) -> list[str]:
    """The names a module's source exports by name (not its default export), at most 500."""
    names: list[str] = []
    for m in _EXPORT_LIST.finditer(code):
        for part in m.group(1).split(","):
            name = part.split(" as ")[-1].strip()
            if re.fullmatch(r"[A-Za-z_$][\w$]*", name) and name != "default":
                names.append(name)
    names += [m.group(1) for m in _EXPORT_DECL.finditer(code)]
    return list(dict.fromkeys(names))[:500]


def magic_comments(prism: str, consts: dict[str, str]) -> tuple[str, ...]:
    """The directives of ``themeConfig.prism.magicComments`` (the body of the
    ``prism`` object): every entry's ``line`` and ``block: {start, end}``, in
    order. The list replaces the default one (``highlight-next-line``,
    ``highlight-start``, ``highlight-end``), which applies when there is none or
    it is not an array literal."""
    entries = js.array_entries(prism, "magicComments")
    if entries is None:
        return DEFAULT_MAGIC_COMMENTS
    out: list[str] = []
    for entry in entries:
        body = js.object_at(entry, 0) if entry.startswith("{") else None
        if body is None:
            continue
        line = js.top_level_string(body, "line", consts)
        block = js.top_level_value(body, "block") or ""
        inner = js.object_at(block, 0) if block.startswith("{") else None
        ends = [js.top_level_string(inner, k, consts) for k in ("start", "end")] if inner else []
        out.extend(d for d in (line, *ends) if d)
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=64)
def _magic_comment_line(language: str, directives: tuple[str, ...]) -> re.Pattern[str]:
    """A whole line holding one of ``directives`` as a comment of ``language``
    (theme-common ``getAllMagicCommentDirectiveStyles``: opening and closing
    comment marks of one style, white space around them)."""
    names = "|".join(re.escape(d) for d in directives)
    styles = _LANGUAGE_STYLES.get(language, _POPULAR_STYLES)
    alts = "|".join(f"(?:{_COMMENT_STYLES[k][0]}\\s*(?:{names})\\s*{_COMMENT_STYLES[k][1]})" for k in styles)
    return re.compile(alts)  # matched whole against the stripped line (no backtracking over its spaces)


def _drop_magic_comments(text: str, directives: tuple[str, ...] = DEFAULT_MAGIC_COMMENTS,
                         default_language: str | None = None, fence: re.Pattern[str] = _FENCE) -> str:
    """``text`` without the magic-comment lines inside its fenced code blocks: a line
    holding only one of ``directives`` (``themeConfig.prism.magicComments``: each
    entry's ``line`` and ``block.start``/``block.end``) as a comment of the block's
    language. A block without a language (and no ``prism.defaultLanguage``) keeps
    every line, as Docusaurus' ``parseLines`` does."""
    if not directives or not any(d in text for d in directives):
        return text
    fences = FenceTracker(fence)
    out: list[str] = []
    pattern: re.Pattern[str] | None = None
    for line in text.split("\n"):
        inside = fences.inside
        fences.in_code(line)
        if not inside and fences.inside:  # an opening fence: its info string names the language
            info = _FENCE_INFO.match(line)
            language = (info.group(1) if info else "") or default_language
            pattern = _magic_comment_line(language, directives) if language else None
        elif inside and fences.inside and pattern is not None and len(line) < 2000 and pattern.fullmatch(line.strip()):
            continue
        out.append(line)
    return "\n".join(out)


_CODE_TITLE = re.compile(r"""title=(["'])(.*?)\1""")


def _code_titles(text: str, fence: re.Pattern[str] = _FENCE) -> str:
    """``text`` with the title of each fenced code block that has one (its meta
    ``title="babel.config.js"``) written in bold on a line of its own above the block, as
    Docusaurus' theme shows it in the block's title bar (theme-common
    ``parseCodeBlockTitle``: ``title=(["'])(.*?)\1`` in the metastring)."""
    if "title=" not in text:
        return text
    fences = FenceTracker(fence)
    out: list[str] = []
    for line in text.split("\n"):
        inside = fences.inside
        fences.in_code(line)
        if not inside and fences.inside and len(line) < 2000:
            m = _FENCE_INFO.match(line)
            title = _CODE_TITLE.search(line, m.end() if m else 0)
            if title and title.group(2).strip():
                indent = line[: len(line) - len(line.lstrip())]
                shown = re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", title.group(2).strip())
                out += ["", f"{indent}**{shown}**"]  # as a <CodeBlock title=...> reads (mdx)
        out.append(line)
    return "\n".join(out)


class DocusaurusSite:
    """A Docusaurus site rooted at ``config.root`` (see the module doc for the rules).

    ``instances`` are its content plugin instances (default: each of
    ``config.content_dirs`` with the docs plugin's default globs and
    ``config.exclude``); ``skipped`` maps folders of docs versions that are not
    read to the reason reported for their files.
    """

    #: a heading inside a ``<TabItem>`` is that tab's child (MDX: JSX elements hold the Markdown
    #: between their tags), so the next tab's text, and the text after ``</Tabs>``, return to the
    #: section the ``<Tabs>`` stands in (:meth:`murar.ingest.markup.builder.PageBuilder.tab`)
    tabs_hold_headings = True

    def __init__(self, config: SiteConfig, *, instances: tuple[ContentInstance, ...] | None = None,
                 skipped: dict[str, str] | None = None, magic_comments: tuple[str, ...] = DEFAULT_MAGIC_COMMENTS,
                 default_language: str | None = None) -> None:
        self._config = config
        self._magic_comments = magic_comments
        self._default_language = default_language
        self._site_dir = config.settings.get("site_dir", ".")
        self._imported: set[str] | None = None
        self._components: dict[str, str] | None = None
        self._component_exports: dict[str, str] = {}
        self._autogenerated: bool | None = None  # the sidebars are autogenerated from folders
        self._instances = instances if instances is not None else tuple(
            ContentInstance(kind="docs", folder=folder, include=_DEFAULT_INCLUDE["docs"],
                            exclude=_DEFAULT_EXCLUDE + config.exclude)
            for folder in config.content_dirs)
        self._skipped = dict(skipped or {})
        # Docusaurus 3 reads .md as MDX unless markdown.format is "md" or "detect"
        self._md_markup = "mdx" if config.settings.get("markdown.format", "mdx") == "mdx" else "markdown"

    @classmethod
    def load(cls, root: Path, config_file: str | None, *, variant: SiteVariant | None = None) -> DocusaurusSite:
        """Read ``config_file`` (relative to ``root``; ``None``: defaults) into a site.

        ``variant`` chooses the locale (one of ``i18n.locales``) and the docs
        version (``current`` or a ``versions.json`` name) read instead of the
        defaults (see :meth:`classify` for how a locale is read).

        Raises:
            ConfigError: the site has no such locale, or no docs instance has
                that version (the message lists the ones it has).
        """
        root = root.resolve()
        site_dir = PurePosixPath(config_file).parent.as_posix() if config_file else "."
        code = ""
        if config_file:
            try:
                code = js.strip_comments((root / config_file).read_text(encoding="utf-8", errors="replace"))
            except OSError:
                code = ""
        consts = js.constants(code)
        base_url = js.string_setting(code, "baseUrl", consts) or "/"
        site_url = js.string_setting(code, "url", consts) or ""
        static = js.array_setting(code, "staticDirectories", consts) or ["static"]
        options: list[tuple[str, str]] = []  # (kind, options body) of every enabled instance
        for kind, block in _preset_plugins(code):
            if block is not None:
                options.append((kind, block))
        for name, entry in js.plugin_entries(code):  # more instances of the content plugins
            plugin = _plugin_kind(name, entry)
            if plugin is not None:
                options.append((plugin, entry or ""))
        if not options and not re.search(r"\bpresets\b", code):
            # no content plugin written anywhere (a stub config): the classic preset's defaults
            options = [(kind, "") for kind in ("docs", "blog", "pages")]
        i18n_block = js.object_block(code, "i18n") or ""
        i18n_consts = consts
        if not i18n_block:  # i18n: a name bound to a local module (const i18n = require('./i18n'))
            i18n_block, i18n_code = _module_object(code, "i18n", root, site_dir)
            i18n_consts = js.constants(i18n_code) if i18n_code else consts
            if i18n_code and js.top_level_value(i18n_block, "locales") is None \
                    and "locales" in js.object_entries(i18n_block):  # shorthand for a const array of that module
                m = re.search(r"\b(?:const|let|var)\s+locales\s*=\s*\[", i18n_code)
                entries = js.array_entries("locales: " + i18n_code[m.end() - 1:], "locales") if m else None
                if entries:
                    i18n_block += ", locales: [" + ", ".join(entries) + "]"
        default_locale = js.string_setting(i18n_block, "defaultLocale", i18n_consts) or "en"
        locales = tuple(dict.fromkeys([default_locale,
                                       *(js.top_level_strings(i18n_block, "locales", i18n_consts) or [])]))
        wanted = variant.docs_version if variant is not None else None
        locale = variant.language if variant is not None and variant.language is not None else default_locale
        if locale not in locales or not _safe_version(locale):
            raise ConfigError(f"language {locale!r} is not a locale of this Docusaurus site; it has "
                              f"{', '.join(locales)} (i18n.locales in {config_file or 'docusaurus.config.js'})")
        instances: list[ContentInstance] = []
        outside: list[str] = []  # content folders ('../docs') that leave the ingested folder
        skipped: dict[str, str] = {}
        docs_path = route = None
        versions: list[tuple[str, DocsVersion]] = []  # (plugin id, version read) of every docs instance
        for kind, block in options:
            version_name = None
            plugin_id = js.top_level_string(block, "id", consts) or "default"
            if kind == "docs":
                version = docs_version(block, consts, root / site_dir, wanted=wanted, root=root)
                versions.append((plugin_id, version))
                folder, version_name = version.folder, version.name
                skipped.update({join_rel(site_dir, f): why for f, why in version.skipped.items()})
                if docs_path is None:
                    docs_path, route = folder, js.top_level_string(block, "routeBasePath", consts)
            else:
                folder = js.top_level_string(block, "path", consts) or _DEFAULT_PATH[kind]
            folder = join_rel(site_dir, folder)
            if _outside(folder):
                # a path out of the site (path.resolve(__dirname, '../..'), '/etc') is not read; a
                # '../docs' beside the site folder (a website/ folder next to docs/) is said, as the
                # folder to ingest then is the one holding both
                if folder.startswith("../"):
                    outside.append(folder)
                continue
            if any(i.folder == folder for i in instances):
                continue
            include = js.top_level_strings(block, "include", consts)
            exclude = js.top_level_strings(block, "exclude", consts)
            localized = "" if locale == default_locale or not _safe_version(plugin_id) else join_rel(
                site_dir, localized_folder(kind, plugin_id, locale, version_name))
            instances.append(ContentInstance(
                kind=kind, folder=folder,
                include=tuple(include) if include is not None else _DEFAULT_INCLUDE[kind],
                exclude=tuple(exclude) if exclude is not None else _DEFAULT_EXCLUDE, localized=localized,
                npm2yarn=npm2yarn_converters(block, code, consts, mdx_version(root / site_dir)),
                abbreviations=remark_plugin_entry(block, code, "remark-abbr") is not None,
                math=remark_plugin_entry(block, code, "remark-math") is not None,
                directives=site_directives(block, code, root, site_dir)))
        if wanted is not None and not any(v.asked for _, v in versions):
            have = sorted({n for _, v in versions for n in v.versions}, key=lambda n: (n != "current", n))
            raise ConfigError(f"docs version {wanted!r} is not a version of this Docusaurus site; it has "
                              f"{', '.join(have) or 'no versioned docs'} (current = the docs folder, "
                              "the others from versions.json)")
        md_block = js.object_block(code, "markdown") or ""
        md_format = js.string_setting(md_block, "format", consts) or "mdx"
        settings = {"site_dir": site_dir, "markdown.format": md_format, "i18n.defaultLocale": default_locale}
        if (js.top_level_value(md_block, "emoji") or "").rstrip(",").strip() == "false":
            settings["markdown.emoji"] = "false"  # Docusaurus 3.9: turns remark-emoji off
        mdx = mdx_version(root / site_dir)
        if mdx is not None:
            settings["mdx.version"] = mdx
        notes: tuple[str, ...] = ()
        if locale != default_locale:
            settings["i18n.locale"] = locale
            if not any(_within(root / i.localized, root, folder=True) for i in instances if i.localized):
                folder = join_rel(site_dir, f"i18n/{locale}")
                note = (f"no translations into {locale} found ({folder}/docusaurus-plugin-content-*): "
                        f"every page is read in the default locale {default_locale}")
                notes = (note,)
        for folder in dict.fromkeys(outside):
            up = len(PurePosixPath(folder).parts) - len(PurePosixPath(folder.replace("../", "")).parts)
            holder = root.parents[up - 1] if up <= len(root.parents) else None
            notes = (*notes, f"content folder {folder!r} of {config_file or 'docusaurus.config.js'} is outside "
                             f"the ingested folder {root} and not read"
                             + (f" (ingest {holder} to read it)" if holder is not None else ""))
        if docs_path is not None:
            settings["docs_path"] = docs_path
        if re.match(r"https?://", site_url, re.IGNORECASE):
            settings["site_url"] = site_url
        if route is not None:
            settings["routeBasePath"] = route
        config = SiteConfig(
            generator="docusaurus", root=root, config_file=config_file,
            content_dirs=tuple(i.folder for i in instances),
            static_dirs=tuple(f for d in static if not _outside(f := join_rel(site_dir, d))),
            base_url="/" + base_url.strip("/") + "/" if base_url.strip("/") else "/",
            settings=settings,
            notes=notes,
            language=locale if len(locales) > 1 else "",
            docs_version=_versions_read(versions),
        )
        prism = js.object_block(js.object_block(code, "themeConfig") or code, "prism") or ""
        return cls(config, instances=tuple(instances), skipped=skipped, magic_comments=magic_comments(prism, consts),
                   default_language=js.top_level_string(prism, "defaultLanguage", consts))

    @property
    def config(self) -> SiteConfig:
        return self._config

    # ---------------------------------------------------------------- MDX scope
    def mdx_components(self) -> dict[str, str]:
        """The components every MDX page may use without importing them: the names
        the site's ``src/theme/MDXComponents`` (or ``MDXComponents/index``: a swizzled theme component, Docusaurus
        "MDX and React: MDX component scope") adds to the default mapping, each with
        the module it is imported from (``@theme/Admonition``, a package name, or a
        file of the site as ``@site/<path>``: a component, an image, a Markdown
        partial). Names whose value is not an imported name (an inline function,
        a spread) are left out; ``{}`` when the site has no such file."""
        if self._components is None:
            self._components = {}
            for rel in _MDX_COMPONENTS:
                path = self._config.root / self._site_path(rel)
                if path.is_file() and not inside_root(path, self._config.root).problem:
                    try:
                        code = js.strip_comments(path.read_text(encoding="utf-8", errors="replace")[:200_000])
                    except OSError:
                        break
                    self._components, self._component_exports = _registered_components(
                        code, PurePosixPath(rel).parent.as_posix(), self._module_source)
                    break
        return self._components

    def remark_math(self, page_rel: str) -> bool:
        """Whether the content plugin instance holding ``page_rel`` lists ``remark-math`` in its
        ``remarkPlugins`` (Docusaurus "Math Equations"): its ``$...$`` and ``$$`` blocks are
        LaTeX formulas, read as written (:func:`murar.ingest.markup.mathtext.remark_math`)."""
        return any(i.math for i in self._instances_holding(page_rel))

    def _instances_holding(self, page_rel: str) -> list[ContentInstance]:
        """The content plugin instances whose folder (or localized folder) holds ``page_rel``."""
        return [i for i in self._instances
                if contained(page_rel, i.folder) or (i.localized and contained(page_rel, i.localized))]

    def mdx_component_exports(self) -> dict[str, str]:
        """Of :meth:`mdx_components`, the name its module exports each one as when it
        is not the module's default export (``import { Term } from
        '@site/src/components'`` -> ``{"Term": "Term"}``)."""
        self.mdx_components()
        return self._component_exports

    def _module_source(self, module: str) -> str | None:
        """The source of a site module named ``@site/<path>`` (webpack's extensions and
        ``index`` files tried), up to 200,000 characters; ``None`` when it is no file of the site."""
        if not module.startswith("@site/"):
            return None
        rel = module[len("@site/"):]
        for ext in ("", ".js", ".jsx", ".ts", ".tsx", "/index.js", "/index.jsx", "/index.ts", "/index.tsx"):
            path = self._config.root / self._site_path(rel + ext)
            if path.suffix in (".js", ".jsx", ".ts", ".tsx", ".mjs") and path.is_file() \
                    and not inside_root(path, self._config.root).problem:
                try:
                    return js.strip_comments(path.read_text(encoding="utf-8", errors="replace")[:200_000])
                except OSError:
                    return None
        return None

    def category_cards(self, page_rel: str) -> list[DocCard] | None:
        """The cards ``<DocCardList />`` draws on ``page_rel`` when it is the index doc of a
        category of an autogenerated sidebar (:mod:`murar.ingest.sites._doccards`): a docs
        page below its instance's folder, on a site whose sidebar files (if any) use
        ``autogenerated`` items; ``None`` otherwise (the list is then not read)."""
        root = self._config.root
        folder = PurePosixPath(page_rel).parent.as_posix()
        if not any(i.kind == "docs" and folder != i.folder and contained(folder, i.folder) for i in self._instances):
            return None
        if self._autogenerated is None:
            files = [p for p in (root / self._site_dir).glob("sidebars*.*")
                     if p.suffix in (".js", ".ts", ".mjs", ".cjs", ".json") and p.is_file()][:10]
            self._autogenerated = not files or any(
                "autogenerated" in p.read_text(encoding="utf-8", errors="replace")[:200_000] for p in files)
        if not self._autogenerated:
            return None
        return category_cards(root / page_rel, root)

    # ---------------------------------------------------------------- files
    def _imported_partials(self) -> set[str]:
        """Markdown files imported by some page or partial (MDX partials), relative to the root."""
        if self._imported is None:
            found: set[str] = set()
            root = self._config.root
            localized = tuple(i.localized for i in self._instances if i.localized)
            for base in (*self._config.content_dirs, *localized, *self._config.static_dirs):
                folder = root / base
                if not folder.is_dir() or inside_root(folder, root).problem:
                    continue  # a symlink out of the site: not read
                for path in folder.rglob("*.md*"):
                    if path.suffix.lower() not in (".md", ".mdx"):
                        continue
                    rel = path.relative_to(root).as_posix()
                    try:
                        text = path.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    for target in _IMPORT_MD.findall(text):
                        res = self.resolve_include(target, page_rel=rel)
                        if res.rel_path:
                            found.add(res.rel_path)
            self._imported = found
        return self._imported

    def classify(self, rel: str) -> FileClass:
        """Role and markup of ``rel`` (see the module doc).

        With a locale other than the default chosen (``variant.language``), a
        content instance is read as ``docusaurus build --locale`` builds it
        (plugin-content-docs ``readVersionDocs``/``readDocFile``, the blog and
        pages plugins alike): its pages are the files of its own folder matched
        by its ``include``/``exclude`` globs, each read from the same path under
        the locale's folder (:func:`localized_folder`) when the translation
        exists there ("Lookup in localized folder in priority"), else from the
        default locale's file. A translated file with no file of that path in
        the instance's folder is no page (Docusaurus only globs that folder).
        """
        suffix = PurePosixPath(rel).suffix.lower()
        markup = _PAGE_MARKUP.get(suffix)
        if markup == "markdown":
            markup = self._md_markup
        for sdir in self._config.static_dirs:
            if contained(rel, sdir):
                if markup:
                    return FileClass(role=FileRole.INCLUDE, markup=markup,
                                     reason="Markdown in a static folder: content only where a page imports it")
                return asset_or_unknown(rel)
        if markup is None:
            return asset_or_unknown(rel)
        translated = max((i for i in self._instances if i.localized and contained(rel, i.localized)),
                         key=lambda i: len(i.localized), default=None)
        if translated is not None:
            inner = rel[len(translated.localized) + 1:]
            source = join_rel(translated.folder, inner)
            if not (self._config.root / source).is_file():
                return FileClass(role=FileRole.EXCLUDED, reason=(
                    f"translation of no page: {source} does not exist (Docusaurus reads the files of "
                    f"{translated.folder}, each from its translation when there is one)"))
            return self._classify_in(rel, translated, inner, markup, suffix)
        instance = max((i for i in self._instances if contained(rel, i.folder)),
                       key=lambda i: len(i.folder), default=None)
        unpublished = self._unpublished(rel, instance)
        if unpublished:
            return FileClass(role=FileRole.EXCLUDED, reason=unpublished)
        if instance is None:
            return FileClass(role=FileRole.EXCLUDED,
                             reason=f"outside the docs folders ({', '.join(self._config.content_dirs)})")
        inner = rel if instance.folder == "." else rel[len(instance.folder) + 1 :]
        found = self._classify_in(rel, instance, inner, markup, suffix)
        if found.role is FileRole.PAGE and instance.localized \
                and _within(self._config.root / instance.localized / inner, self._config.root):
            locale = self._config.settings.get("i18n.locale", "")
            return FileClass(role=FileRole.EXCLUDED, markup=found.markup, reason=(
                f"read from its translation {join_rel(instance.localized, inner)} (locale {locale})"))
        return found

    def _classify_in(self, rel: str, instance: ContentInstance, inner: str, markup: str, suffix: str) -> FileClass:
        """Role of the file ``rel`` read as ``inner`` (its path in ``instance``'s folder)."""
        if not any(extglob_match(inner, pat, DOCUSAURUS) for pat in instance.include):
            return FileClass(role=FileRole.EXCLUDED,
                             reason=f"not matched by the {instance.kind} plugin's include option")
        if any(extglob_match(inner, pat, DOCUSAURUS) for pat in instance.exclude):
            if PurePosixPath(inner).name.startswith("_") or "/_" in f"/{inner}":
                return FileClass(role=FileRole.INCLUDE, markup=markup, reason="partial (_-prefixed)")
            return FileClass(role=FileRole.EXCLUDED,
                             reason=f"excluded by the {instance.kind} plugin's exclude option")
        if rel in self._imported_partials():
            return FileClass(role=FileRole.INCLUDE, markup=markup, reason="MDX partial imported by a page")
        meta = self._front_matter(rel)
        if meta.get("draft") is True:
            return FileClass(role=FileRole.EXCLUDED, markup=markup,
                             reason="draft: true (Docusaurus publishes drafts in development only)")
        own = meta.get("mdx")  # front matter mdx.format overrides markdown.format for the file
        fmt = own.get("format") if isinstance(own, dict) else None
        if fmt in ("md", "mdx", "detect"):
            markup = "mdx" if fmt == "mdx" or (fmt == "detect" and suffix == ".mdx") else "markdown"
        return FileClass(role=FileRole.PAGE, markup=markup)

    def _front_matter(self, rel: str) -> dict[str, Any]:
        """The front matter of ``rel`` (read from its first 16 KiB; ``{}`` when unreadable)."""
        return _common.read_front_matter(self._config.root / rel)

    def _unpublished(self, rel: str, instance: ContentInstance | None) -> str:
        """Why ``rel`` is a docs version or translation murar does not read ("" when
        it is not), unless the content folder holding it lies inside that folder."""
        def applies(folder: str) -> bool:
            return contained(rel, folder) and not (instance is not None and contained(instance.folder, folder))

        for folder, why in self._skipped.items():
            if applies(folder):
                return why
        site_dir = self._site_dir
        inner = rel[len(site_dir) + 1:] if site_dir != "." else rel
        i18n = join_rel(site_dir, "i18n")
        if applies(i18n):
            locale = inner.split("/", 2)[1] if "/" in inner else ""
            chosen = self._config.settings.get("i18n.locale")
            if chosen is None:
                default = self._config.settings.get("i18n.defaultLocale", "en")
                return f"translation (i18n/{locale}); default locale {default}"
            if locale == chosen:
                return f"translation (i18n/{locale}) of content murar does not read"
            return f"translation (i18n/{locale}); murar reads locale {chosen}"
        m = _VERSIONED.match(inner)
        if m and applies(join_rel(site_dir, m.group(0).rstrip("/"))):
            return f"docs version {m.group(2)} ({m.group(1)}), not in the versions file"
        return ""

    # ---------------------------------------------------------------- links
    def _site_path(self, rel: str) -> str:
        return join_rel(self._site_dir, rel)

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Resolve an image/asset ``link`` of the page ``page_rel`` (see the module doc).

        ``pathname:///img/x.png`` (Docusaurus' escape from asset processing)
        is the site path ``/img/x.png``. The path is percent-decoded first, as Docusaurus' MDX loader does
        (``decodeURIComponent`` on the URL path: ``my%20shot.png`` and
        ``<my shot.png>`` are the file ``my shot.png``); a file whose name
        really holds ``%xx`` is still found under its raw name.
        """
        target = strip_wrappers(link)
        if not target:
            return ResolvedLink(problem=f"unsupported syntax {link!r}")
        if target.lower().startswith("pathname://"):
            # Docusaurus "Assets": pathname:///img/x.png is the URL /img/x.png, not processed by webpack
            target = target[len("pathname://"):]
            if not target.startswith("/"):
                return ResolvedLink(problem=f"unsupported syntax {link!r}")
        if is_remote(target):
            if target.lower().startswith("data:"):
                return ResolvedLink(problem="inline data URI image ignored")
            own = _common.own_host_path(self._config.settings.get("site_url", ""), target)
            if own is not None and own.startswith("/"):
                # the site's own published address (config url + baseUrl): the file it serves, if the site has it
                res = self._from_static(unquote(own))
                if res.rel_path and (self._config.root / res.rel_path).is_file():
                    return res
            return ResolvedLink(url=target)
        raw = target.split("#", 1)[0].split("?", 1)[0]
        decoded = unquote(raw)
        res = self._resolve_path(decoded, page_rel)
        if decoded != raw and not (res.rel_path and (self._config.root / res.rel_path).is_file()):
            again = self._resolve_path(raw, page_rel)
            if again.rel_path and (self._config.root / again.rel_path).is_file():
                return again
        return res

    def _resolve_path(self, path: str, page_rel: str) -> ResolvedLink:
        root = self._config.root
        if path.startswith("@site/"):
            return self._checked(self._site_path(path[len("@site/"):]))
        if path.startswith("/"):
            return self._from_static(path)
        page_dir = PurePosixPath(page_rel).parent.as_posix()
        rel = join_rel(page_dir, path)
        res = self._checked(rel)
        if res.rel_path and (root / res.rel_path).is_file():
            return res
        # Docusaurus also serves bare paths such as useBaseUrl('img/x') from the static folders
        alt = self._from_static("/" + path.lstrip("./"))
        if alt.rel_path and (root / alt.rel_path).is_file():
            return alt
        return res

    def _from_static(self, path: str) -> ResolvedLink:
        root = self._config.root
        base = self._config.base_url
        candidates = [path]
        if base != "/" and path.startswith(base):
            candidates.insert(0, "/" + path[len(base):])
        tried: ResolvedLink | None = None
        for cand in candidates:
            for sdir in self._config.static_dirs:
                res = self._checked(join_rel(sdir, cand.lstrip("/")))
                if res.rel_path and (root / res.rel_path).is_file():
                    return res
                tried = tried or res
        return tried or ResolvedLink(problem=f"not found in static folders: {path}")

    def _checked(self, rel: str) -> ResolvedLink:
        return _common.checked_rel(self._config.root, rel)

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        """The file an import or ``require()`` of the JavaScript string ``target`` names:
        its escapes are the string's value first (``'./\\_partial.md'``, Prettier's
        escape of a Markdown ``_``, is ``./_partial.md``)."""
        path = js_string_value(strip_wrappers(target))
        if path.startswith("@site/"):
            return self._checked(self._site_path(path[len("@site/"):]))
        if path.startswith("/"):
            return self._checked(self._site_path(path.lstrip("/")))
        return self._checked(join_rel(PurePosixPath(page_rel).parent.as_posix(), path))

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """``:::note Title`` ... ``:::`` admonitions as a bold label line: Docusaurus
        reads them (remark-directive) in CommonMark pages too (``markdown.format``
        ``md``/``detect``); the rest of MDX is the markup's (:mod:`murar.ingest.markup.mdx`).
        Lines of fenced code holding only a magic comment (``// highlight-next-line``,
        ``# highlight-start``, ``<!-- highlight-end -->``) go: Docusaurus highlights
        the lines they mark and does not show them ("Code blocks: highlighting with
        comments"). With ``remark-abbr`` in the instance's ``remarkPlugins``, its
        abbreviation definition lines (``*[HTML]: ...``) are not text; a text directive
        the site's own remark plugins render (:func:`site_directives`: a badge murar does
        not draw) shows its ``[label]`` only (``:ak-version[2024.6]`` -> ``2024.6``,
        ``:ak-enterprise`` -> nothing), outside code."""
        # an MDX page's fences open at any indentation (``    ```yaml`` under a list item's text)
        fence = MDX_FENCE if self.classify(page_rel).markup == "mdx" else _FENCE
        text = _drop_magic_comments(directive_admonitions(text, fence), self._magic_comments, self._default_language,
                                    fence)
        text = _code_titles(text, fence)
        if self._config.settings.get("markdown.emoji") != "false":
            text = _emoji_shortcodes(text, fence)
        mine = self._instances_holding(page_rel)
        if fence is _FENCE and any(i.math for i in mine):  # an MDX page's formulas were read before its JSX
            text = "\n".join(remark_math(text.split("\n"), fence))
        if any(i.abbreviations for i in mine):
            text = drop_abbreviation_definitions(text, fence)
        handled = {d for i in mine for d in i.directives}
        if handled:
            text = _site_text_directives(text, handled, fence)
        instance = max((i for i in mine if i.npm2yarn), key=lambda i: len(i.folder), default=None)
        return npm2yarn_tabs(text, instance.npm2yarn) if instance is not None else text


_EMOJI_SHORTCODE = re.compile(r":(" + "|".join(re.escape(n) for n in VALUE_EMOJI) + r"):")


def _emoji_shortcodes(text: str, fence: re.Pattern[str] = _FENCE) -> str:
    """``text`` with the emoji shortcodes that state a value (``:white_check_mark:``,
    ``:x:``, ``:warning:``: :data:`VALUE_EMOJI`) written as their character, outside
    fenced code and code spans: Docusaurus's MDX loader runs remark-emoji on every page
    (``markdown.emoji``, on unless set to ``false``), so the page shows ✅, not the
    shortcode. Other shortcodes stay as written (murar holds no full emoji table)."""
    if ":" not in text:
        return text
    return "\n".join(outside_code(text.split("\n"),
                                  lambda part: _EMOJI_SHORTCODE.sub(lambda m: VALUE_EMOJI[m.group(1)], part), ":", fence))


_TEXT_DIRECTIVE = re.compile(r"(?<![:\w`]):([A-Za-z][\w-]{0,60})(?:\[([^\]\n]{0,500})\])?(?:\{[^}\n]{0,500}\})?")


def _site_text_directives(text: str, names: set[str], fence: re.Pattern[str] = _FENCE) -> str:
    """``text`` with each text directive named in ``names`` (remark-directive
    ``:name[label]{attributes}``) replaced by its label, outside fenced code and
    code spans; a space left before the end of a line goes with it."""
    fences = FenceTracker(fence)
    out: list[str] = []
    for line in text.split("\n"):
        if fences.in_code(line) or ":" not in line:
            out.append(line)
            continue
        parts = re.split(r"(`+[^`]*`+)", line)  # code spans kept as written
        for k in range(0, len(parts), 2):
            parts[k] = _TEXT_DIRECTIVE.sub(lambda m: (m.group(2) or "") if m.group(1) in names else m.group(0),
                                           parts[k])
        joined = "".join(parts)
        out.append(joined.rstrip() if joined != line else line)
    return "\n".join(out)

