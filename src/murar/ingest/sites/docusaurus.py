"""Docusaurus (v2/v3) resolution rules.

From the Docusaurus documentation ("Static assets", "Docs: introduction",
"MDX and React: importing Markdown", "plugin-content-docs" options):

- pages are ``.md``/``.mdx`` files in the ``path`` of every content plugin
  instance: the docs (default ``docs``), blog (``blog``) and pages
  (``src/pages``) plugins of the preset, and each ``plugins`` entry naming
  ``@docusaurus/plugin-content-{docs,blog,pages}`` or a module shorthand of
  it (``content-docs``, ``@docusaurus/content-docs``); files or folders starting
  with ``_`` are partials, not pages (the plugin's default ``exclude``), as are
  Markdown files imported by another page (MDX partials, e.g. under
  ``static/``); ``versioned_docs/`` and ``i18n/`` hold older versions and
  translations of the same pages and are not ingested (a translation is
  reported with its locale and ``i18n.defaultLocale``), except the version a
  docs instance with ``includeCurrentVersion: false`` publishes instead of its
  ``path`` (see :func:`docs_folder`);
- ``staticDirectories`` (default ``static``) are copied to the site root: a
  root-relative link ``/img/x.png`` (or ``/<baseUrl>/img/x.png``) and
  ``useBaseUrl('img/x.png')`` mean ``static/img/x.png``;
- ``@site/...`` is the site folder; ``require('...').default`` and
  ``import x from '...'`` resolve relative to the page (MDX processing, see
  :mod:`murar.ingest.markup.mdx`).

Settings are read from ``docusaurus.config.{js,ts}`` without running it
(:mod:`murar.ingest.sites._jsconfig`); what cannot be read takes the default.
"""

from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from murar.ingest.paths import ResolvedLink, is_remote
from murar.ingest.sites import _common
from murar.ingest.sites import _jsconfig as js
from murar.ingest.sites._links import contained, join_rel, strip_wrappers
from murar.ingest.sites.base import FileClass, FileRole, SiteConfig, asset_or_unknown

_PAGE_MARKUP = {".md": "markdown", ".mdx": "mdx", ".markdown": "markdown"}
_DEFAULT_EXCLUDE = ("**/_*.{js,jsx,ts,tsx,md,mdx}", "**/_*/**", "**/*.test.{js,jsx,ts,tsx}", "**/__tests__/**")
# plugin names and module shorthands (Docusaurus "Using plugins": '@docusaurus/content-docs' and
# 'content-docs' load '@docusaurus/plugin-content-docs'), with each plugin's default path
_CONTENT_PLUGINS = tuple(
    ((f"@docusaurus/plugin-content-{kind}", f"@docusaurus/content-{kind}", f"content-{kind}"), default)
    for kind, default in (("docs", "docs"), ("blog", "blog"), ("pages", "src/pages"))
)
_THEME_DOCS_KEYS = {"sidebar", "versionPersistence"}
_THEME_BLOG_KEYS = {"sidebar"}  # themeConfig.blog (Docusaurus 3.5: sidebar.groupByYear)
_IMPORT_MD = re.compile(r"""(?m)^\s*import\s+[\w${}\s,*]+\s+from\s+['"]([^'"]+\.mdx?)['"]""")


def docs_folder(options: str, consts: dict[str, str], site: Path) -> str:
    """The folder (relative to the site folder) a docs plugin instance publishes
    as its default version, from the body of its options object.

    That is its ``path`` (default ``docs``), unless ``includeCurrentVersion:
    false``: Docusaurus then publishes no current version and the default one
    is ``lastVersion``, or else the first entry of ``versions.json``
    (``<id>_versions.json`` for an instance with an ``id``), whose files are in
    ``versioned_docs/version-<name>`` (``<id>_versioned_docs/...``). An
    unreadable or empty versions file leaves ``path``.
    """
    path = js.top_level_string(options, "path", consts) or "docs"
    if js.top_level_value(options, "includeCurrentVersion") != "false":
        return path
    plugin_id = js.top_level_string(options, "id", consts) or "default"
    prefix = "" if plugin_id == "default" else f"{plugin_id}_"
    version = js.top_level_string(options, "lastVersion", consts)
    if version is None:
        try:
            names = json.loads((site / f"{prefix}versions.json").read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError):
            names = None
        version = names[0] if isinstance(names, list) and names and isinstance(names[0], str) else None
    if not version or version == "current" or "/" in version or version.startswith("."):
        return path
    return f"{prefix}versioned_docs/version-{version}"


def _expand_braces(pattern: str) -> list[str]:
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    out: list[str] = []
    for alt in m.group(1).split(","):
        out.extend(_expand_braces(pattern[: m.start()] + alt + pattern[m.end() :]))
    return out


def glob_match(rel: str, pattern: str) -> bool:
    """Match a posix path against a glob with ``**`` and ``{a,b}`` (micromatch-like)."""
    return any(_common.glob_match(rel, pat) for pat in _expand_braces(pattern))


class DocusaurusSite:
    """A Docusaurus site rooted at ``config.root`` (see the module doc for the rules)."""

    def __init__(self, config: SiteConfig) -> None:
        self._config = config
        self._site_dir = config.settings.get("site_dir", ".")
        self._imported: set[str] | None = None
        self._exclude = (*_DEFAULT_EXCLUDE, *config.exclude)
        # Docusaurus 3 reads .md as MDX unless markdown.format is "md" or "detect"
        self._md_markup = "mdx" if config.settings.get("markdown.format", "mdx") == "mdx" else "markdown"

    @classmethod
    def load(cls, root: Path, config_file: str | None) -> DocusaurusSite:
        """Read ``config_file`` (relative to ``root``; ``None``: defaults) into a site."""
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
        static = js.array_setting(code, "staticDirectories", consts) or ["static"]
        # the preset's docs options, not themeConfig.docs ({sidebar: ..., versionPersistence: ...})
        docs_block = next((b for b in js.object_blocks(code, "docs")
                           if not set(js.top_level_keys(b)) <= _THEME_DOCS_KEYS), "")
        docs_path = docs_folder(docs_block, consts, root / site_dir)
        route = js.top_level_string(docs_block, "routeBasePath", consts)
        exclude = js.array_setting(docs_block, "exclude", consts) or []
        blog_block = next((b for b in js.object_blocks(code, "blog")
                           if not set(js.top_level_keys(b)) <= _THEME_BLOG_KEYS), "")
        content = [docs_path, js.top_level_string(blog_block, "path", consts) or "blog", "src/pages"]
        for names, default in _CONTENT_PLUGINS:  # more instances of the content plugins
            for block in js.plugin_options(code, *names):
                if default == "docs":
                    content.append(docs_folder(block, consts, root / site_dir))
                else:
                    content.append(js.top_level_string(block, "path", consts) or default)
        content = list(dict.fromkeys(join_rel(".", d) for d in content))
        md_block = js.object_block(code, "markdown") or ""
        md_format = js.string_setting(md_block, "format", consts) or "mdx"
        i18n_block = js.object_block(code, "i18n") or ""
        default_locale = js.string_setting(i18n_block, "defaultLocale", consts) or "en"
        settings = {"site_dir": site_dir, "docs_path": docs_path, "markdown.format": md_format,
                    "i18n.defaultLocale": default_locale}
        if route is not None:
            settings["routeBasePath"] = route
        config = SiteConfig(
            generator="docusaurus", root=root, config_file=config_file,
            content_dirs=tuple(join_rel(site_dir, d) for d in content),
            static_dirs=tuple(join_rel(site_dir, d) for d in static),
            exclude=tuple(exclude),
            base_url="/" + base_url.strip("/") + "/" if base_url.strip("/") else "/",
            settings=settings,
        )
        return cls(config)

    @property
    def config(self) -> SiteConfig:
        return self._config

    # ---------------------------------------------------------------- files
    def _imported_partials(self) -> set[str]:
        """Markdown files imported by some page or partial (MDX partials), relative to the root."""
        if self._imported is None:
            found: set[str] = set()
            root = self._config.root
            for base in (*self._config.content_dirs, *self._config.static_dirs):
                folder = root / base
                if not folder.is_dir():
                    continue
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
        site_dir = self._site_dir
        content = next((d for d in self._config.content_dirs if contained(rel, d)), None)
        for special, why in (("versioned_docs", "older docs version (versioned_docs)"),
                             ("i18n", "translation (i18n/{locale}); default locale {default}")):
            folder = join_rel(site_dir, special)
            if contained(rel, folder) and not (content is not None and contained(content, folder)):
                locale = rel[len(folder) + 1:].split("/", 1)[0] if folder != "." else rel.split("/", 1)[0]
                default = self._config.settings.get("i18n.defaultLocale", "en")
                return FileClass(role=FileRole.EXCLUDED, reason=why.format(locale=locale, default=default))
        if content is None:
            return FileClass(role=FileRole.EXCLUDED,
                             reason=f"outside the docs folders ({', '.join(self._config.content_dirs)})")
        inner = rel if content == "." else rel[len(content) + 1 :]
        if any(glob_match(inner, pat) or fnmatch.fnmatch(inner, pat) for pat in self._exclude):
            if PurePosixPath(inner).name.startswith("_") or "/_" in f"/{inner}":
                return FileClass(role=FileRole.INCLUDE, markup=markup, reason="partial (_-prefixed)")
            return FileClass(role=FileRole.EXCLUDED, reason="excluded by the docs plugin's exclude option")
        if rel in self._imported_partials():
            return FileClass(role=FileRole.INCLUDE, markup=markup, reason="MDX partial imported by a page")
        return FileClass(role=FileRole.PAGE, markup=markup)

    # ---------------------------------------------------------------- links
    def _site_path(self, rel: str) -> str:
        return join_rel(self._site_dir, rel)

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Resolve an image/asset ``link`` of the page ``page_rel`` (see the module doc).

        The path is percent-decoded first, as Docusaurus' MDX loader does
        (``decodeURIComponent`` on the URL path: ``my%20shot.png`` and
        ``<my shot.png>`` are the file ``my shot.png``); a file whose name
        really holds ``%xx`` is still found under its raw name.
        """
        target = strip_wrappers(link)
        if not target:
            return ResolvedLink(problem=f"unsupported syntax {link!r}")
        if is_remote(target):
            if target.lower().startswith("data:"):
                return ResolvedLink(problem="inline data URI image ignored")
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
        path = strip_wrappers(target)
        if path.startswith("@site/"):
            return self._checked(self._site_path(path[len("@site/"):]))
        if path.startswith("/"):
            return self._checked(self._site_path(path.lstrip("/")))
        return self._checked(join_rel(PurePosixPath(page_rel).parent.as_posix(), path))

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """Nothing to rewrite: MDX syntax is the markup's (:mod:`murar.ingest.markup.mdx`)."""
        return text
