"""Jekyll sites (GitHub Pages): ``_config.yml``, collections, ``_includes`` and Liquid.

Rules from the Jekyll documentation (jekyllrb.com: "Configuration",
"Collections", "Includes", "Static files", "Liquid", "Front matter"):

- ``_config.yml``: ``source`` (the site folder), ``baseurl`` (the path prefix
  stripped from root-relative links), ``url`` (links to the site's own host are
  local), ``exclude``/``include`` (Jekyll's default excludes added),
  ``collections`` (``_<name>/`` folders under ``collections_dir``; only those
  with ``output: true`` render pages; ``posts`` always does), ``includes_dir``.
- Files and folders starting with ``_``/``.`` are not pages (``_layouts``,
  ``_sass``, ``_data``, ``_site``, ``_drafts``) except output collections;
  ``_includes`` files are includes; ``published: false`` pages are excluded;
  ``defaults`` (front matter defaults by ``scope`` path/type) under each page's
  own front matter, for ``published`` and the ``page.*`` Liquid variables;
  an ``.html`` file without front matter is a static file, not a page; an HTML page's front
  matter is Jekyll's, never its text (its ``title`` titles the page), and no Markdown rule
  (kramdown blocks, callout labels, Markdown written by plugin tags) applies to it.
- Liquid (:meth:`JekyllSite.render_liquid`, rendered in document order by
  :mod:`murar.ingest.sites._liquid`): ``{% raw %}`` kept literal,
  ``{% comment %}`` removed, ``assign``/``capture`` read by the tags after them,
  ``{% include x %}`` / ``{% include_relative x %}`` (and the jekyll-include-cache
  plugin's ``{% include_cached x %}``) rendered at their place in the page's
  context with their ``include.*`` parameters (a variable an include assigns stays
  set), ``{% highlight %}`` a code fence, ``{{ site.* }}`` (the config and
  ``site.data.*`` from the ``_data`` files, :func:`load_data_tree`)/``{{ page.* }}``
  (front matter with its defaults) and Liquid's and Jekyll's filters
  (``relative_url``, ``absolute_url``, ``markdownify``, ``where``/``where_exp``,
  ``sort``, ``map``, ``split``, ``join``, ``first``/``last``/``size`` ...);
  ``if``/``unless``/``case`` keep the branch Liquid renders when the values are
  known (a key the config lacks may come from the theme or Jekyll, as may a
  ``page`` variable Jekyll computes: not known; any other absent key is nil) and
  every branch from the first unknown one on; ``for`` loops over known lists,
  hashes and ranges with ``limit``/``offset``/``reversed``, ``forloop.*``,
  ``break``/``continue``, bounded per page; ``{% post_url name %}`` gives the
  post's path, as ``{% link %}`` does; tab plugins' ``{% tabs %}``/``{% tab label %}``/
  ``{% endtabs %}`` become tab-set markers; every other tag (a plugin's, Ruby
  murar does not run) writes its ``title="..."`` argument, as an unknown Hugo
  shortcode keeps its title (Home Assistant's ``{% my automations title="**Settings**"
  %}`` link text), else nothing; the text around it stays, and emphasis that held
  only such a tag (``**{% my blueprints %}**``) goes with it; a tag of the site's own plugin
  (``_plugins/*.rb``) that writes ``<img src="#{baseurl}/images/#{src}">`` is that picture, its
  first argument in that src (:func:`plugin_image_tags`); a plugin's ``{% callout kind %}`` (also
  ``alert``, ``admonition``) block is a callout of that kind. A page with ``render_with_liquid: false``
  (front matter or defaults) is not rendered: its Liquid shows as written. Nothing is
  evaluated that would need Ruby; no path is guessed.
- kramdown inline attribute lists (``{: .note }`` lines, ``{:.class}`` after an
  image) and ``{::comment}`` blocks are removed; a callout IAL after a block quote labels
  the whole quote at its first line (:func:`label_callouts`); a ``<br>`` line opening a
  block starts a paragraph, as in kramdown, not a CommonMark HTML block that would keep the
  Markdown after it raw.
- Theme rules where a theme documents them: Minimal Mistakes' helper includes,
  notices and header picture (:func:`minimal_mistakes_header`), Chirpy's prompts and
  media (:func:`chirpy_media`: ``media_subpath``, image captions, a post's preview image), just-the-docs' children list under a
  ``has_children`` page (:meth:`JekyllSite._children_listing`); Bootstrap tabs (``nav-tabs``
  strip, ``tab-content``/``tab-pane`` divs: documentation-theme-jekyll's "Navtabs", Docker's docs)
  are tab sets, also when their panes hold code blocks or the set sits in a list step
  (:func:`bootstrap_tabs`).
- The jemoji plugin (in ``plugins``) draws ``:tada:`` shortcodes of a Markdown page as emoji
  pictures: they go from the text but for the few that state a value (a check mark, a
  cross), as with pymdownx.emoji (:func:`murar.ingest.markup.pymdown.emoji_shortcodes`).
"""

from __future__ import annotations

import bisect
import csv
import html
import io
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from murar.errors import ConfigError
from murar.ingest.frontmatter import MAX_DEPTH, FrontMatterError, load_yaml_safely
from murar.ingest.htmltext import BLANK_PRE_LINE, pre_depth
from murar.ingest.markup.builder import read_include
from murar.ingest.markup.mdtext import admonition_label, callout_lead, label_lines
from murar.ingest.markup.pymdown import emoji_shortcodes
from murar.ingest.markup.tabs import set_close, set_open, tab_start
from murar.ingest.media_flags import FLAGS_ATTR, HERO
from murar.ingest.paths import ResolvedLink, inside_root, is_remote
from murar.ingest.sites._common import (
    ASSET_SUFFIXES,
    IMAGE_SUFFIXES,
    VIDEO_SUFFIXES,
    blank_fences,
    is_within,
    load_data_file,
    local_link,
    lookup,
    matches_any,
    os_walk_files,
    outside_fences,
    own_host_path,
    rebase_links,
    safe_join,
    split_front_matter,
    split_link,
    strip_base,
    sub_closed,
    suffix_of,
    url_base_path,
)
from murar.ingest.sites._glob import glob_match
from murar.ingest.sites._liquid import (
    DROPPED,
    MAX_LOOP_LENGTH,
    MAX_VALUE_CHARS,
    STEP_COST,
    UNKNOWN,
    Context,
    Renderer,
    Tag,
    literal,
    parse,
    to_text,
)
from murar.ingest.sites.base import FileClass, FileRole, SiteConfig

GENERATOR = "jekyll"
CONFIG_FILES = ("_config.yml", "_config.yaml", "_config.toml")
PAGE_MARKUP = {".md": "markdown", ".markdown": "markdown", ".mkdown": "markdown", ".mkd": "markdown",
               ".mdown": "markdown", ".html": "html", ".htm": "html"}
#: Jekyll's default ``exclude`` list (jekyll/lib/site_template/_config.yml and Configuration docs)
DEFAULT_EXCLUDE = (".sass-cache", ".jekyll-cache", "gemfiles", "Gemfile", "Gemfile.lock", "node_modules",
                   "vendor/bundle", "vendor/cache", "vendor/gems", "vendor/ruby")
#: ``_config.yml`` keys only Jekyll uses (Jupyter Book's file has none of these)
JEKYLL_KEYS = frozenset({"baseurl", "url", "markdown", "kramdown", "theme", "remote_theme", "collections",
                         "plugins", "gems", "permalink", "defaults", "exclude", "include", "highlighter",
                         "sass", "paginate", "collections_dir", "destination", "liquid", "includes_dir",
                         "jekyll-archives", "github"})
JUPYTER_BOOK_KEYS = frozenset({"execute", "sphinx", "launch_buttons", "only_build_toc_files", "parse",
                               "bibtex_bibfiles", "latex", "repository"})
_MAX_INCLUDE_DEPTH = 8
#: limits of one page's Liquid: includes at all depths (a file including itself ten times is
#: 10**8 includes at depth 8), characters included, characters of one variable (``assign a = a |
#: append: a`` doubles it), characters rendered
_MAX_INCLUDES = 200
_MAX_INCLUDED_CHARS = 5_000_000
_MAX_VALUE_CHARS = MAX_VALUE_CHARS
_MAX_RENDERED_CHARS = 5_000_000
#: loop iterations of one page (all loops, nested ones included) and items of one loop
_MAX_LOOP_ITEMS = 2_000
_MAX_LOOP_LENGTH = MAX_LOOP_LENGTH
#: block tags open (all files) beyond which a page includes no more files (bounds the recursion)
_MAX_INCLUDE_BLOCKS = 64
# pages whose front matter a just-the-docs children list is looked up in, and children listed per page
_MAX_NAV_PAGES = 20_000
#: files listed in ``site.static_files`` (a loop over them still counts against the page's loop budget)
_MAX_STATIC_FILES = 20_000
_MAX_CHILDREN = 500


#: ``markdown:`` values that name a CommonMark converter (lower case): HTML blocks follow CommonMark
COMMONMARK_CONVERTERS = frozenset({"commonmark", "commonmarkghpages", "gfm"})
#: folders only a Jekyll site has at its source root (Jekyll "Directory Structure")
JEKYLL_FOLDERS = ("_layouts", "_includes", "_posts", "_data", "_sass", "_drafts")
#: files that may hold the site's ``jekyll build --config a,b`` command, in the order read
_BUILD_FILES = ("Makefile", "GNUmakefile", "netlify.toml", "package.json", "Rakefile", "Dockerfile",
                "docker-compose.yml", "*.sh", "scripts/*.sh", "bin/*", ".github/workflows/*.yml",
                ".github/workflows/*.yaml")
_CONFIG_OPTION = re.compile(r"\bjekyll\b[^\n]*?--config(?:=|\s+)[\"']?([^\s\"']+)")


def _has_jekyll_evidence(folder: Path, keys: set[str]) -> bool:
    """Jekyll keys in the config, a Jekyll folder beside it, or a Gemfile naming jekyll."""
    if keys & JEKYLL_KEYS or any((folder / name).is_dir() for name in JEKYLL_FOLDERS):
        return True
    gemfile = folder / "Gemfile"
    try:
        return gemfile.is_file() and re.search(r"""(?m)^\s*gem\s+["'](?:jekyll|github-pages)["']""",
                                               gemfile.read_text(encoding="utf-8", errors="replace")) is not None
    except OSError:
        return False


def looks_like_jekyll(config_path: Path) -> bool:
    """True when ``config_path`` is a Jekyll config: ``_config.yml``/``.yaml``/``.toml``
    (Jekyll's default names) with no ``_toc.yml`` beside it and a Jekyll-only key, or
    no Jupyter Book key; another ``_config*`` file (one given with ``--config``, such
    as ``_config_base.yml``) only when no default-named config is beside it and the
    folder shows Jekyll (a Jekyll-only key, ``_layouts``/``_includes``/``_posts``/
    ``_data``/``_sass``/``_drafts``, or a Gemfile naming ``jekyll``/``github-pages``).
    A config that does not parse is Jekyll's when the folder shows Jekyll, so that
    :func:`load` reports the parser's error as ``jekyll build`` does; it was read as a
    plain folder without a word (Liquid tags and includes shown as written).
    Never raises."""
    folder = config_path.parent
    if (folder / "_toc.yml").is_file() or (folder / "_toc.yaml").is_file():
        return False
    try:
        keys = set(load_data_file(config_path))
    except (OSError, ValueError):
        return _has_jekyll_evidence(folder, set())
    if config_path.name not in CONFIG_FILES:
        if any((folder / name).is_file() for name in CONFIG_FILES):
            return False  # the default config decides
        return _has_jekyll_evidence(folder, keys)
    if keys & JEKYLL_KEYS:
        return True
    return not keys & JUPYTER_BOOK_KEYS


def config_files(root: Path, found: str | None) -> list[str]:
    """The config files Jekyll reads for the site at ``root`` (posix, relative to
    ``root``; ``found``: the config detection found). Jekyll "Configuration": by
    default the first of ``_config.yml``, ``_config.yaml``, ``_config.toml``;
    otherwise the files ``jekyll build --config a.yml,b.yml`` names, later ones
    overriding earlier ones. Without a default config, the first ``jekyll ...
    --config`` list in the site's build files (Makefile, netlify.toml, package.json,
    Dockerfile, shell scripts, GitHub workflows) whose files exist (shell and make
    variables in it left out) is used; failing that, ``found`` alone. A file (or
    build file) that is a symlink out of ``root`` is not read. Never raises."""
    root = root.resolve()
    base = posixpath.dirname(found) if found else ""
    folder = root / base if base else root
    default = next((n for n in CONFIG_FILES if (folder / n).is_file()), None)
    if default is not None or found is None:
        return [safe_join(base, default)] if default else []
    if posixpath.basename(found) in CONFIG_FILES:
        return [found]
    seen = 0
    for pattern in _BUILD_FILES:
        try:
            paths = sorted(p for p in folder.glob(pattern) if p.is_file() and not inside_root(p, root).problem)
        except OSError:
            continue
        for path in paths:
            seen += 1
            if seen > 50:
                return [found]
            try:
                with path.open("rb") as stream:  # a large binary in bin/ is not read whole
                    text = stream.read(200_000).decode("utf-8", errors="replace")
            except OSError:
                continue
            for m in _CONFIG_OPTION.finditer(re.sub(r"\\\r?\n", " ", text)):
                # a shell/make variable ($1, $(extra), ${X}) names no file here: it is dropped
                names = [re.sub(r"\$(?:\([^)]*\)|\{[^}]*\}|\w+)", "", n) for n in m.group(1).split(",")]
                names = [n for n in names if n and "$" not in n and "{" not in n]
                names = [n for n in names if not n.startswith("/") and ".." not in n.split("/")
                         and (folder / n).is_file() and not inside_root(folder / n, root).problem]
                if names:
                    return [safe_join(base, n) for n in names]
    return [found]


@dataclass(frozen=True, slots=True)
class Collection:
    """A Jekyll collection: ``name``, its ``folder`` (posix, relative to the root) and ``output``."""

    name: str
    folder: str
    output: bool


@dataclass(frozen=True, slots=True)
class FrontMatterDefault:
    """One ``_config.yml`` ``defaults`` entry: ``scope.path`` (relative to the source
    folder; ``""`` every file; may be a glob), ``scope.type`` (``pages``, ``posts``,
    ``drafts`` or a collection name; ``""`` any) and its front matter ``values``."""

    path: str
    type: str
    values: dict[str, Any]

    def applies(self, inner: str, kind: str, collections_dir: str) -> bool:
        """True when this scope covers the file ``inner`` (relative to the source
        folder) of type ``kind`` (Jekyll "Front Matter Defaults": the path is a
        folder or file prefix, or a glob when it holds ``*``)."""
        if self.type and self.type != kind:
            return False
        scope = self.path.strip("/")
        if collections_dir and is_within(scope, collections_dir) and scope != collections_dir:
            scope = scope[len(collections_dir) + 1:]
        paths = [inner]
        if collections_dir and is_within(inner, collections_dir):
            paths.append(inner[len(collections_dir) + 1:])
        if "*" in scope:
            return any(glob_match(p, scope) for p in paths)
        return not scope or any(is_within(p, scope) for p in paths)

    def rank(self) -> tuple[int, int]:
        """Precedence among matching scopes: a deeper path, then a given type, wins."""
        return (len([p for p in self.path.strip("/").split("/") if p]), 1 if self.type else 0)


def read_defaults(raw: Any) -> tuple[FrontMatterDefault, ...]:
    """The ``defaults`` list of ``_config.yml`` (entries without ``values`` or with a
    malformed ``scope`` are left out). Never raises."""
    out: list[FrontMatterDefault] = []
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("values"), dict):
            continue
        raw_scope = entry.get("scope")
        scope: dict[str, Any] = raw_scope if isinstance(raw_scope, dict) else {}
        out.append(FrontMatterDefault(str(scope.get("path") or ""), str(scope.get("type") or ""),
                                      dict(entry["values"])))
    return tuple(out)


def _deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        old = merged.get(key)
        merged[key] = _deep_merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
    return merged


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), sub, out)
    elif isinstance(value, (str, int, float, bool)) and not isinstance(value, bool):
        out[prefix] = str(value)
    elif isinstance(value, bool):
        out[prefix] = "true" if value else "false"


def load_config(root: Path, config_file: str | None = None
                ) -> tuple[SiteConfig, tuple[Collection, ...], dict[str, str], tuple[FrontMatterDefault, ...],
                           dict[str, Any]]:
    """Read ``_config.yml`` at ``root`` (or ``config_file``, posix, relative to ``root``,
    with the other files Jekyll would merge over it, :func:`config_files`).

    Returns the :class:`SiteConfig` (``content_dirs``: the source folder;
    ``include_dirs``: ``_includes``; ``exclude``: config plus Jekyll defaults;
    ``base_url``: ``baseurl``; ``settings``: ``url``, ``baseurl``, ``include``,
    ``optional_front_matter``), the collections, and the Liquid variables (every
    scalar of the config as ``site.<key>``), the front matter ``defaults``
    (:func:`read_defaults`) and the ``site`` object (the config with ``data``: the
    data files, :func:`load_data_tree`) that ``{% for %}`` loops read lists from.

    Raises:
        ConfigError: the config is not valid YAML.
    """
    root = root.resolve()
    names = config_files(root, config_file) if config_file else \
        [n for n in CONFIG_FILES if (root / n).is_file()][:1]
    name = names[0] if names else None
    data: dict[str, Any] = {}
    for one in names:
        if inside_root(root / one, root).problem:
            continue  # a symlink out of the site (the walk reports it): not read
        try:
            data = _deep_merge(data, load_data_file(root / one))
        except (OSError, ValueError) as err:
            detail = str(err).removeprefix(f"{PurePosixPath(one).name}: ")  # the message names the file
            raise ConfigError(f"Jekyll config {one}: {detail}") from err
    base_dir = posixpath.dirname(name) if name else ""
    source = safe_join(base_dir, str(data.get("source") or ".")) or "."
    coll_dir = safe_join(source, str(data.get("collections_dir") or ""))
    collections: list[Collection] = [Collection("posts", safe_join(coll_dir, "_posts"), True)]
    raw = data.get("collections")
    if isinstance(raw, dict):
        for cname, opts in raw.items():
            output = bool(opts.get("output")) if isinstance(opts, dict) else False
            collections.append(Collection(str(cname), safe_join(coll_dir, f"_{cname}"), output))
    elif isinstance(raw, list):
        collections += [Collection(str(c), safe_join(coll_dir, f"_{c}"), False) for c in raw]
    variables: dict[str, str] = {}
    _flatten("site", data, variables)
    notes: list[str] = []
    data_tree = load_data_tree(root, safe_join(source, str(data.get("data_dir") or "_data")), notes)
    _flatten("site.data", data_tree, variables)
    for key in ("url", "baseurl"):
        variables.setdefault(f"site.{key}", "")
    settings = {"url": variables["site.url"], "baseurl": variables["site.baseurl"]}
    excl = [str(x) for x in data.get("exclude") or [] if isinstance(x, str)]
    incl = [str(x) for x in data.get("include") or [] if isinstance(x, str)]
    settings["include"] = "\n".join(incl)
    settings["optional_front_matter"] = "true" if optional_front_matter(root / source, data) else "false"
    settings["collections_dir"] = str(data.get("collections_dir") or "").strip("/")
    includes_dir = safe_join(source, str(data.get("includes_dir") or "_includes"))
    cfg = SiteConfig(generator=GENERATOR, root=root, config_file=name, content_dirs=(source,),
                     static_dirs=(source,), include_dirs=(includes_dir,),
                     exclude=tuple(dict.fromkeys([*excl, *DEFAULT_EXCLUDE])),
                     base_url=url_base_path(str(data.get("baseurl") or "/")), settings=settings,
                     notes=tuple(notes[:20]) + ((f"... {len(notes) - 20} more",) if len(notes) > 20 else ()))
    return cfg, tuple(collections), variables, read_defaults(data.get("defaults")), {**data, "data": data_tree}


_MAX_DATA_FILES = 200
_MAX_DATA_BYTES = 512_000


def load_data_tree(root: Path, data_dir: str, skipped: list[str] | None = None) -> dict[str, Any]:
    """The site's data files as Jekyll gives them to Liquid (Jekyll "Data Files":
    ``_data/alerts.yml`` is ``site.data.alerts``, a subfolder a further namespace:
    ``_data/team/ops.yml`` is ``site.data.team.ops``; a CSV/TSV file is a list of
    rows keyed by its header). YAML, JSON, CSV and TSV files; files over 512 KB,
    files past the first 200, files that do not parse (Jekyll would stop the build;
    ingest goes on), and a ``data_dir`` or file symlink outside the site are left out,
    each with a line in ``skipped`` (when given) saying which and why. Never raises."""
    tree: dict[str, Any] = {}
    notes: list[str] = skipped if skipped is not None else []
    root = root.resolve()
    if data_dir == ".." or data_dir.startswith(("../", "/")):
        notes.append(f"data_dir {data_dir} is outside the site: not read")
        return tree
    files = os_walk_files(root, data_dir, (".yml", ".yaml", ".json", ".csv", ".tsv"))
    if len(files) > _MAX_DATA_FILES:
        notes.append(f"{len(files) - _MAX_DATA_FILES} data files past the first {_MAX_DATA_FILES} left out")
    for rel in files[:_MAX_DATA_FILES]:
        path = root / rel
        if inside_root(path, root).problem:
            notes.append(f"data file {rel} left out: a symlink out of the site")
            continue
        try:
            if path.stat().st_size > _MAX_DATA_BYTES:
                notes.append(f"data file {rel} left out: over {_MAX_DATA_BYTES // 1000} KB")
                continue
            data = _read_data(path)
        except (OSError, ValueError) as err:
            notes.append(f"data file {rel} left out: {str(err)[:200]}")
            continue
        inner = rel[len(data_dir) + 1:] if data_dir not in ("", ".") else rel
        *folders, stem = posixpath.splitext(inner)[0].split("/")
        node = tree
        for part in folders:
            node = node.setdefault(part, {}) if isinstance(node.get(part, {}), dict) else {}
        node[stem] = data
    return tree


def _read_data(path: Path) -> Any:
    """A data file's value. Raises ValueError: it does not parse (a CSV field over the
    csv module's limit, JSON nested deeper than YAML may be: :data:`MAX_DEPTH`)."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        try:
            return list(csv.DictReader(io.StringIO(text), delimiter="\t" if suffix == ".tsv" else ","))
        except csv.Error as err:
            raise ValueError(str(err)) from err
    if suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig", errors="replace"))
        except (json.JSONDecodeError, RecursionError) as err:
            raise ValueError(f"not valid JSON ({type(err).__name__})") from err
        if _too_deep(data):  # the site object is pickled to the page workers: keep it shallow
            raise ValueError(f"JSON nested deeper than {MAX_DEPTH}")
        return data
    try:
        return load_yaml_safely(path.read_text(encoding="utf-8-sig", errors="replace"), max_chars=_MAX_DATA_BYTES,
                                unknown_tags="null")
    except (FrontMatterError, RecursionError) as err:
        raise ValueError(str(err)) from err


def _too_deep(value: Any) -> bool:
    """True when lists/mappings nest deeper than :data:`MAX_DEPTH` (iterative)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth >= MAX_DEPTH:
                return True
            stack.extend((sub, depth + 1) for sub in (node.values() if isinstance(node, dict) else node))
    return False


def optional_front_matter(source: Path, data: dict[str, Any]) -> bool:
    """True when Markdown without front matter is rendered: the
    ``jekyll-optional-front-matter`` plugin is listed, or the site builds with
    GitHub Pages' defaults (no ``Gemfile``, or a ``Gemfile`` using the
    ``github-pages`` gem), which enable it. Never raises."""
    plugins = [str(p) for p in (data.get("plugins") or data.get("gems") or []) if isinstance(p, str)]
    if "jekyll-optional-front-matter" in plugins:
        return True
    for folder in (source, source.parent):
        gemfile = folder / "Gemfile"
        if gemfile.is_file():
            try:
                lines = gemfile.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                return False
            return any("github-pages" in line.split("#", 1)[0] for line in lines)
    return True


# ------------------------------------------------------------------- Liquid

_INCLUDE_TARGET = re.compile(r"((?:\{\{.*?\}\}|[^\s{])+)(.*)$", re.DOTALL)
# a name starts after a non-name character (tried inside a 100,000-letter word, each start
# scanned the word to its end)
_PARAM = re.compile(r"""(?<![\w-])([\w-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"']+)""")
_OUTPUT = re.compile(r"\{\{-?(.*?)-?\}\}")
# a plugin tag murar cannot run: its title="..." argument (what such tags show, as an unknown Hugo
# shortcode keeps its title), else a mark where it stood, so emphasis left empty around it goes too
_PLUGIN_TITLE = re.compile(r"""(?<![\w-])title\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_EMPTY_EMPHASIS = re.compile(r"(\*\*|__|\*|_)" + DROPPED + r"\1")
# plugin block tags read like the other generators' callouts and collapsibles: {% note %}...{% endnote %}
# (Home Assistant's alerts.rb, preCICE: "Note"/"Tip"/... as its title) and {% details "Title" %}
_PLUGIN_CALLOUTS = frozenset({"note", "tip", "important", "warning", "caution", "danger", "info"})
_PLUGIN_COLLAPSIBLES = frozenset({"details", "spoiler", "collapse", "expand", "expandable"})
# plugin callout blocks that take their kind as the first argument: {% callout warning %}...{% endcallout %}
# (bitwarden/help's callout.rb, Bootstrap-style alert.rb: a box per kind, "Note" when none is given)
_PLUGIN_KIND_CALLOUTS = frozenset({"callout", "alert", "admonition"})
_KIND_ARG = re.compile(r"""^\s*["']?([A-Za-z][\w-]{0,40})["']?(?:\s|$)(?!\s*=)""")
_QUOTED_FIRST = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)')""")
_OUTPUT_END = re.compile(r"\}\}")
#: characters one page's ``markdownify`` filters convert (markdown-it takes up to 10 s on
#: 100,000 characters of ``[a](``); past them the text stays Markdown
_MAX_MARKDOWNIFY_CHARS = 200_000
# ({:/name} ends a kramdown extension, {::name} starts one: neither is an attribute list)
_IAL_LINE = re.compile(r"^[ \t]*\{:(?![:/])[^}\n]*\}[ \t]*$\n?", re.MULTILINE)
# kramdown "Automatic Table of Contents Generation": a one-item list with the IAL {:toc} is replaced by the TOC
_TOC_LIST = re.compile(r"^[ \t]*(?:[*+-]|\d+[.)])[ \t]+[^\n]*\n[ \t]*\{:\s*toc\s*\}[ \t]*$\n?", re.MULTILINE)
# kramdown "Abbreviations": a definition line "*[HTML]: Hyper Text Markup Language" is not output
_ABBREVIATION = re.compile(r"^[ \t]{0,3}\*\[[^\]\n]+\]:[^\n]*$\n?", re.MULTILINE)
_QUOTED_IAL_LINE = re.compile(r"^(?P<lead>[ \t]*>[ \t>]*)\{:(?![:/])[^}\n]*\}[ \t]*$", re.MULTILINE)
_IAL_SPAN = re.compile(r"(?<=[)\]*_`>])\{:(?![:/])[^}\n]*\}")
_BACKTICKS = re.compile(r"`+|\n")


def _code_spans(text: str) -> list[tuple[int, int]]:
    """The code spans of ``text`` as ``(start, end)`` offsets: a run of backticks up to the
    next run of the same length on its line (CommonMark "Code spans"); one pass (a run
    without its match opens nothing)."""
    spans: list[tuple[int, int]] = []
    line: list[re.Match[str]] = []
    for m in [*_BACKTICKS.finditer(text), None]:
        if m is not None and m.group(0) != "\n":
            line.append(m)
            continue
        nxt: dict[int, int] = {}
        after = [-1] * len(line)  # index of the next run of the same length
        for k in range(len(line) - 1, -1, -1):
            after[k] = nxt.get(len(line[k].group(0)), -1)
            nxt[len(line[k].group(0))] = k
        k = 0
        while k < len(line):
            if after[k] < 0:
                k += 1
                continue
            spans.append((line[k].start(), line[after[k]].end()))
            k = after[k] + 1
        line = []
    return spans


def _strip_span_attributes(text: str) -> str:
    """``text`` without kramdown span IALs (``![x](a.png){: .align-left}``, ``**b**{:.c}``),
    those shown in a code span kept as written: `` `{: .notice}` `` is the attribute list
    shown, not one applied (Minimal Mistakes' "Utility Classes")."""
    if "{:" not in text:
        return text
    spans = _code_spans(text) if "`" in text else []
    starts = [a for a, _ in spans]

    def drop(m: re.Match[str]) -> str:
        k = bisect.bisect_right(starts, m.start()) - 1
        return m.group(0) if k >= 0 and m.start() < spans[k][1] else ""

    return _IAL_SPAN.sub(drop, text)
# ([^{}], not [^}]: "{::a" 20,000 times made each marker scan to the end of the text)
_KRAMDOWN_EXT = re.compile(r"\{::(\w+)[^{}]*?/\}|\{::(\w+)[^{}]*\}|\{:/(\w+)?\}")
_KRAMDOWN_COMMENT = re.compile(r"\{::comment\}.*?\{:/(?:comment)?\}", re.DOTALL)  # ends at {:/comment} or {:/}
_KRAMDOWN_COMMENT_END = re.compile(r"\{:/(?:comment)?\}")
# an opening tag (no '<' inside: '<a <a <a' without '>' made each scan to the end, and the '\s' before
# 'hidden' backtracked through the rest: cubic) and, in its attributes, the mark of a hidden element
_OPEN_TAG = re.compile(r"<(\w+)\b([^<>]*)>")
_HIDDEN_ATTR = re.compile(r"\s(?:hidden|aria-hidden=\"true\")", re.IGNORECASE)


#: ``{% include {{ page.name }} %}`` in a layout: a file named by the page's front matter
_LAYOUT_PAGE_INCLUDE = re.compile(r"\{%-?\s*include\s+\{\{\s*page\.([A-Za-z_][\w-]*)\s*\}\}\s*-?%\}")
_LAYOUT_NAME = re.compile(r"[\w][\w.-]{0,100}")
# a layout writing a front matter value as the text of a block element: <div class="summary">{{ page.summary }}</div>
_LAYOUT_PAGE_BLOCK = re.compile(r"<(div|p|h[2-6]|section|blockquote)\b[^<>]*>\s*\{\{-?\s*page\.([A-Za-z_][\w-]*)"
                                r"\s*(?:\|\s*markdownify\s*)?-?\}\}\s*</\1\s*>")
_LAYOUT_CONTENT = re.compile(r"\{\{-?\s*content\s*-?\}\}")
_INCLUDE_NAME = re.compile(r"[\w./-]{1,300}")

#: a site plugin's tag registration (Jekyll "Plugins", "Tags": Ruby in ``_plugins``)
_REGISTER_TAG = re.compile(r"""register_tag\(\s*['"]([\w-]{1,100})['"]\s*,""")
# the src of an <img> a plugin writes (in a Ruby string: src=\"...\"), its #{...} interpolations kept
_PLUGIN_IMG_SRC = re.compile(r"""<img\b[^<>]{0,300}?\bsrc=\\?["']((?:#\{[^{}"'\n]{0,200}\}|[^"'\\#<>\s]|#(?!\{)){0,300})\\?["']""")
_INTERPOLATION = re.compile(r"#\{([^{}]*)\}")
_MAX_PLUGIN_FILES = 100
_MAX_PLUGIN_BYTES = 200_000


def plugin_image_tags(root: Path, plugins_dir: str) -> dict[str, tuple[str, str]]:
    """Tags of the site's own plugins that write an image: tag name -> the text the
    plugin puts before and after the tag's first argument in the ``<img src>`` it
    writes. Jekyll runs a site's Ruby plugins from ``plugins_dir`` (default
    ``_plugins``; "Plugins", "Tags"); murar runs no Ruby, but a file that registers
    one tag and writes ``<img src="#{baseurl}/images/#{src}">`` (bitwarden/help's
    ``{% image path caption %}``) says where the picture is: the one interpolation
    that is not a ``baseurl`` is the argument, a ``baseurl`` is the site root. A file
    registering several tags, or whose images are built otherwise, gives nothing.
    At most 100 files of 200 KB; files out of the site are not read. Never raises."""
    tags: dict[str, tuple[str, str]] = {}
    root = root.resolve()
    for rel in os_walk_files(root, plugins_dir, (".rb",))[:_MAX_PLUGIN_FILES]:
        path = root / rel
        try:
            if inside_root(path, root).problem or path.stat().st_size > _MAX_PLUGIN_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        names = set(_REGISTER_TAG.findall(text))
        if len(names) != 1:
            continue
        shapes: set[tuple[str, str]] = set()
        for m in _PLUGIN_IMG_SRC.finditer(text):
            parts = _INTERPOLATION.split(m.group(1))  # literal, expression, literal, ...
            args = [i for i in range(1, len(parts), 2) if not re.search(r"base_?url", parts[i], re.IGNORECASE)]
            if len(args) != 1:
                shapes.add(("", "\0"))  # an image built from no argument, or from several: not read
                continue
            literal_parts = ["" if i % 2 else part for i, part in enumerate(parts)]
            shapes.add(("".join(literal_parts[:args[0]]), "".join(literal_parts[args[0] + 1:])))
        if len(shapes) == 1 and ("", "\0") not in shapes:
            tags[names.pop()] = shapes.pop()
    return tags


class JekyllSite:
    """A Jekyll site (see module doc). The constructor does no I/O."""

    def __init__(self, config: SiteConfig, collections: tuple[Collection, ...] = (),
                 variables: dict[str, str] | None = None, defaults: tuple[FrontMatterDefault, ...] = (),
                 site_object: dict[str, Any] | None = None) -> None:
        self._config = config
        self._site_object = {"url": "", "baseurl": "", **(site_object or {})}
        plugins = self._site_object.get("plugins") or self._site_object.get("gems") or []
        languages = self._site_object.get("languages")
        if ("lang" not in self._site_object and isinstance(plugins, list) and isinstance(languages, list) and languages
                and "jekyll-multiple-languages-plugin" in plugins):
            # jekyll-multiple-languages-plugin builds the first of `languages` at the site root, site.lang its code
            self._site_object["lang"] = str(languages[0])
        # jekyll-polyglot (in plugins, or its languages + default_lang settings): the site at the root is
        # built for default_lang (README "Configuration"; site.active_lang is that language's code)
        self._polyglot: tuple[str, frozenset[str]] | None = None
        if isinstance(languages, list) and languages and (
                isinstance(plugins, list) and "jekyll-polyglot" in plugins or "default_lang" in self._site_object):
            active = str(self._site_object.get("default_lang") or "en")
            self._polyglot = (active, frozenset(str(x) for x in languages if isinstance(x, (str, int))))
            self._site_object.setdefault("active_lang", active)
        self._polyglot_keys: frozenset[str] | None = None  # page_ids with a default-language document
        self._collections = collections
        self._defaults = defaults
        self._variables = dict(variables or {})
        self._root = config.root
        self._source = config.content_dirs[0] if config.content_dirs else "."
        self._callouts = callout_titles(self._variables)
        self._parse_block_html = self._variables.get("site.kramdown.parse_block_html") == "true"
        # Jekyll "Markdown Options": kramdown unless `markdown:` names a CommonMark converter
        # (jekyll-commonmark's CommonMark, jekyll-commonmark-ghpages' CommonMarkGhPages / GFM)
        self._kramdown = self._variables.get("site.markdown", "kramdown").strip().lower() not in COMMONMARK_CONVERTERS
        # kramdown reads definition lists ('Term' then ': definition'); CommonMark converters do not
        self.markdown_plugins: tuple[str, ...] = ("deflist",) if self._kramdown else ()
        self._chirpy = is_chirpy(self._site_object, self._root)
        self._minimal_mistakes = is_minimal_mistakes(self._site_object, self._root)
        # jemoji (GitHub Pages' emoji plugin, in `plugins`) draws :tada: shortcodes as emoji pictures
        self._jemoji = isinstance(plugins, list) and "jemoji" in plugins
        self._url_folders: dict[str, str | None] = {}
        self._nav_pages: dict[tuple[str | None, str], list[tuple[str, dict[str, Any]]]] | None = None
        self._children_nav: bool | None = None
        self._layouts: dict[str, tuple[str, str]] = {}  # layout name -> (its parent layout, its body)
        self._static_files: list[dict[str, Any]] | None = None
        self._image_tags: dict[str, tuple[str, str]] | None = None

    @property
    def config(self) -> SiteConfig:
        return self._config

    @property
    def collections(self) -> tuple[Collection, ...]:
        return self._collections

    @property
    def chirpy(self) -> bool:
        """True when the site uses the Chirpy theme (:func:`is_chirpy`)."""
        return self._chirpy

    def static_files(self) -> list[dict[str, Any]]:
        """Jekyll's ``site.static_files`` ("Variables", "Static Files"): the files of the
        source Jekyll copies as they are (not pages, documents, includes, layouts or
        excluded ones), each ``path`` (from the source, with a leading ``/``), ``name``,
        ``basename`` and ``extname``; here the files murar reads as assets (images,
        videos, downloads), sorted, at most :data:`_MAX_STATIC_FILES`. Walked once."""
        if self._static_files is None:
            out: list[dict[str, Any]] = []
            for rel in os_walk_files(self._root, self._source, ASSET_SUFFIXES)[:_MAX_STATIC_FILES]:
                inner = self._inner(rel)
                if inner is None or self.classify(rel).role is not FileRole.ASSET:
                    continue
                name = posixpath.basename(inner)
                stem, dot, ext = name.rpartition(".")
                out.append({"path": "/" + inner, "name": name, "basename": stem if dot else name,
                            "extname": dot + ext if dot else "", "collection": None})
            self._static_files = out
        return self._static_files

    def image_tag(self, name: str) -> tuple[str, str] | None:
        """The ``<img src>`` shape of the site plugin tag ``name`` (:func:`plugin_image_tags`,
        ``plugins_dir`` of the config, under the source folder), or None."""
        if self._image_tags is None:
            raw = self._site_object.get("plugins_dir") or "_plugins"  # a folder, or a list of them
            self._image_tags = {}
            for folder in (raw if isinstance(raw, list) else [raw])[:10]:
                folder = str(folder)
                if not (folder.startswith("/") or ".." in folder.split("/")):
                    self._image_tags = {**plugin_image_tags(self._root, safe_join(self._source, folder)),
                                        **self._image_tags}
        return self._image_tags.get(name)

    # -------------------------------------------------------------- classify
    def _inner(self, rel: str) -> str | None:
        if not is_within(rel, self._source):
            return None
        return rel[len(self._source) + 1:] if self._source not in (".", "") else rel

    def classify(self, rel: str, *, _polyglot_scan: bool = False) -> FileClass:
        """Pages: Markdown and front-matter HTML under the source folder and in output
        collections; includes: ``_includes``; excluded: ``exclude`` matches, other
        ``_``/``.`` folders, non-output collections, ``published: false``; images and
        videos: assets."""
        suffix = suffix_of(rel)
        inner = self._inner(rel)
        if inner is None:
            return FileClass(role=FileRole.EXCLUDED, reason="outside the Jekyll source folder")
        include_list = [x for x in self._config.settings.get("include", "").splitlines() if x]
        if matches_any(inner, self._config.exclude) and not matches_any(inner, include_list):
            return FileClass(role=FileRole.EXCLUDED, reason="excluded by _config.yml")
        if suffix in IMAGE_SUFFIXES or suffix in VIDEO_SUFFIXES:
            return FileClass(role=FileRole.ASSET)
        markup = PAGE_MARKUP.get(suffix)
        if any(is_within(rel, inc) for inc in self._config.include_dirs):
            return FileClass(role=FileRole.INCLUDE, markup=markup or "markdown")
        collection = self._collection_of(rel)
        if collection is not None and not collection.output:
            return FileClass(role=FileRole.EXCLUDED, reason=f"collection {collection.name} has no output")
        parts = inner.split("/")
        hidden = [p for p in parts[:-1] if p.startswith(("_", "."))]
        if collection is None and (hidden or parts[-1].startswith(("_", ".", "#")) or parts[-1].endswith("~")) \
                and not matches_any(inner, include_list):
            return FileClass(role=FileRole.EXCLUDED, reason="underscore/dot path: not rendered by Jekyll")
        if markup is None:
            if suffix in ASSET_SUFFIXES:
                return FileClass(role=FileRole.ASSET)
            return FileClass(role=FileRole.UNKNOWN, reason=f"unsupported file type {suffix or '(none)'}")
        meta, kind = self._front(rel)
        meta = self.page_meta(rel, meta)
        if not kind and (markup == "html" or self._config.settings.get("optional_front_matter") != "true"):
            return FileClass(role=FileRole.EXCLUDED, markup=markup,
                             reason="no front matter: Jekyll copies it as a static file")
        if meta.get("published") is False:
            return FileClass(role=FileRole.EXCLUDED, markup=markup, reason="published: false")
        if self._polyglot is not None and not _polyglot_scan \
                and (other := self._polyglot_elsewhere(inner, meta, *self._polyglot)):
            return FileClass(role=FileRole.EXCLUDED, markup=markup, reason=other)
        return FileClass(role=FileRole.PAGE, markup=markup)

    def _polyglot_elsewhere(self, inner: str, meta: dict[str, Any], active: str, languages: frozenset[str]) -> str:
        """Why jekyll-polyglot leaves a document out of the site it builds for
        ``default_lang`` at the root, ``""`` when it is in that site. As polyglot's
        ``Site#coordinate_documents`` picks them (``lib/jekyll/polyglot/patches/jekyll/site.rb``):
        a document's language is its ``lang`` front matter, else (``lang_from_path: true``)
        the first segment of its path (split at ``/`` and ``.``) that is a configured
        language, else ``default_lang``; documents with the same ``page_id`` (front
        matter, else the URL with its language segments removed) are one page, shown in
        the default language when one of them is in it, else in a translation (murar
        keeps every translation of such a page); ``lang-exclusive`` lists the only
        languages a document is built for."""
        exclusive = meta.get("lang-exclusive")
        if isinstance(exclusive, list) and exclusive and active not in {str(x) for x in exclusive}:
            return f"lang-exclusive {', '.join(str(x) for x in exclusive)}: not built for the default language {active}"
        lang = self._polyglot_lang(inner, meta, active, languages)
        if lang == active or self._polyglot_key(inner, meta, languages) not in self._polyglot_defaults():
            return ""
        return f"translation (language {lang}); default language {active}"

    def _polyglot_lang(self, inner: str, meta: dict[str, Any], active: str, languages: frozenset[str]) -> str:
        lang = meta.get("lang")
        if isinstance(lang, str) and lang:
            return lang
        if self._site_object.get("lang_from_path") is True:
            found = next((seg for seg in re.split(r"[./]", inner) if seg in languages), None)
            if found:
                return found
        return active

    def _polyglot_key(self, inner: str, meta: dict[str, Any], languages: frozenset[str]) -> str:
        """A document's ``page_id`` as polyglot reads it: front matter ``page_id``, else
        its URL (here its literal ``permalink``, else its path) without ``/<lang>/`` or
        ``.<lang>.`` segments (a post's folders under ``_posts`` are not in its URL)."""
        page_id = meta.get("page_id")
        if isinstance(page_id, (str, int)) and str(page_id):
            return f"id:{page_id}"
        permalink = meta.get("permalink")
        url = permalink if isinstance(permalink, str) and permalink.strip() and ":" not in permalink else None
        if url is None:
            parts = inner.split("/")
            if "_posts" in parts[:-1]:
                parts = parts[:parts.index("_posts") + 1] + parts[-1:]
            url = "/".join(parts)
        url = "/" + url.strip().strip("/") + "/"
        for lang in sorted(languages)[:100]:
            url = re.sub(rf"[/.]{re.escape(lang)}[/.]", "/", url)
        return url

    def _polyglot_defaults(self) -> frozenset[str]:
        """``page_id`` keys of the documents in the default language (read once: every
        page's front matter, at most :data:`_MAX_NAV_PAGES` pages)."""
        if self._polyglot_keys is None:
            keys: set[str] = set()
            if self._polyglot is not None:
                active, languages = self._polyglot
                for rel in os_walk_files(self._root, self._source, PAGE_MARKUP)[:_MAX_NAV_PAGES]:
                    inner = self._inner(rel)
                    if inner is None or self.classify(rel, _polyglot_scan=True).role != FileRole.PAGE:
                        continue
                    meta = self.page_meta(rel, self._front(rel)[0])
                    if self._polyglot_lang(inner, meta, active, languages) == active:
                        keys.add(self._polyglot_key(inner, meta, languages))
            self._polyglot_keys = frozenset(keys)
        return self._polyglot_keys

    def page_meta(self, rel: str, meta: dict[str, Any]) -> dict[str, Any]:
        """The front matter ``meta`` of the file ``rel`` over the ``_config.yml``
        ``defaults`` whose scope covers it (Jekyll "Front Matter Defaults": the
        file's own front matter wins; among scopes, a deeper path, then one with a
        type, wins, then the later one). The type is the file's collection
        (``posts`` for ``_posts``), ``drafts`` for ``_drafts``, else ``pages``."""
        if not self._defaults:
            return meta
        inner = self._inner(rel)
        if inner is None:
            return meta
        collection = self._collection_of(rel)
        kind = collection.name if collection else "drafts" if inner.split("/")[0] == "_drafts" else "pages"
        coll_dir = self._config.settings.get("collections_dir", "")
        sets = sorted((d for d in self._defaults if d.applies(inner, kind, coll_dir)), key=FrontMatterDefault.rank)
        merged: dict[str, Any] = {}
        for entry in sets:
            merged = _deep_merge(merged, entry.values)
        return _deep_merge(merged, meta)

    def _front(self, rel: str) -> tuple[dict[str, Any], str]:
        try:
            with (self._root / rel).open("r", encoding="utf-8-sig", errors="replace") as fh:
                head = fh.read(16_384)
        except OSError:
            return {}, ""
        meta, _, kind = split_front_matter(head)
        return meta, kind

    # ------------------------------------------------------------ resolution
    def _own_path(self, link: str) -> str | None:
        """The site path of a URL on the site's own ``url``: its path, less the path ``url``
        itself holds (``url: https://www.eclipse.org/ditto`` with an empty ``baseurl``, a
        project site: ``{{ site.url }}/images/x.png`` is ``/images/x.png`` of the site, as
        Jekyll writes the URL as ``url`` followed by the site path). ``None`` elsewhere."""
        site_url = self._config.settings.get("url", "")
        path = own_host_path(site_url, link)
        prefix = urlsplit(site_url).path.rstrip("/") if path is not None else ""
        if path is not None and prefix and (path == prefix or path.startswith(prefix + "/")):
            return path[len(prefix):] or "/"
        return path

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Root-relative links (``baseurl`` removed; dot segments resolved as a browser
        does, ``/../x`` is ``/x``) from the source folder, or from
        an output collection's folder when the first segment names it; relative
        links from the page's folder, then from its URL folder (``permalink: pretty``
        pages are folders), then from the folder of the URL its ``permalink``
        front matter gives it (Jekyll "Permalinks": the page is written at that URL,
        so the browser resolves a relative link there; e.g. ``pages/a/b.md`` with
        ``permalink: b.html`` and ``images/x.png`` is ``images/x.png`` at the site
        root). Links to the site's own ``url`` are local. Never raises."""
        target = local_link(link, self._own_path)
        if isinstance(target, ResolvedLink):
            return target
        link, path = target
        if path.startswith("/"):
            # a browser resolves "/../x" and "/a/./b" to "/x" and "/a/b" (WHATWG URL: ".." at the root
            # stays at the root)
            path = "/" + posixpath.normpath(path).lstrip("/") + ("/" if path.endswith("/") else "")
            site_path = strip_base(path, self._config.base_url).lstrip("/")
            cands = [safe_join(self._source, site_path)]
            first, _, rest = site_path.partition("/")
            cands += [safe_join(c.folder, rest) for c in self._collections if c.output and c.name == first]
        else:
            page_dir = posixpath.dirname(page_rel)
            stem = posixpath.splitext(page_rel)[0]
            cands = [safe_join(page_dir, path)]
            if posixpath.basename(stem) != "index":
                cands.append(safe_join(stem, path))
            url_dir = self._permalink_folder(page_rel)
            if url_dir is not None:
                cands.append(safe_join(self._source, posixpath.normpath(f"/{url_dir}/{path}").lstrip("/")))
        return lookup(self._root, cands, link=link)

    def _permalink_folder(self, page_rel: str) -> str | None:
        """The URL folder (no leading/trailing ``/``) of a page with a ``permalink``
        (front matter or ``defaults``), or of a document of an output collection (not
        posts), whose URL its collection's ``permalink`` gives, by default
        ``/:collection/:path:output_ext`` (``/:collection/:path/`` with ``permalink:
        pretty``; Jekyll "Collections", "Permalinks": ``:collection``, ``:path`` (from the
        collection folder, no extension), ``:name`` (the file name slugified), ``:title``
        (the file name, or the ``slug`` front matter), ``:output_ext``). F-Droid's
        ``_tutorials/add-repo.html`` under ``permalink: /tutorials/:title/`` is written at
        ``/tutorials/add-repo/``, where its ``../../../assets/x.png`` is ``/assets/x.png``.
        ``None`` without one, or when another placeholder is left. Read once per page."""
        if page_rel not in self._url_folders:
            folder: str | None = None
            meta = self.page_meta(page_rel, self._front(page_rel)[0])
            permalink = meta.get("permalink")
            collection = self._collection_of(page_rel)
            if collection is not None and collection.name != "posts" and collection.output:
                if not (isinstance(permalink, str) and permalink.strip()):
                    options = (self._site_object.get("collections") or {})
                    options = options.get(collection.name) if isinstance(options, dict) else None
                    permalink = options.get("permalink") if isinstance(options, dict) else None
                    if not (isinstance(permalink, str) and permalink.strip()):
                        pretty = str(self._site_object.get("permalink") or "").strip() == "pretty"
                        permalink = "/:collection/:path/" if pretty else "/:collection/:path:output_ext"
                inner = posixpath.splitext(page_rel[len(collection.folder) + 1:])[0]
                stem = posixpath.basename(inner)
                slug = meta.get("slug") if isinstance(meta.get("slug"), str) and meta.get("slug") else stem
                values = {"collection": collection.name, "path": inner, "output_ext": ".html",
                          "name": re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-"), "title": str(slug)}
                permalink = re.sub(r":(collection|path|output_ext|name|title)\b",
                                   lambda m: values[m.group(1)], str(permalink))
            if isinstance(permalink, str) and permalink.strip() and ":" not in permalink:
                url = "/" + permalink.strip().lstrip("/")
                folder = (url if url.endswith("/") else posixpath.dirname(url)).strip("/")
            self._url_folders[page_rel] = folder
        return self._url_folders[page_rel]

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        """``{% include x %}`` targets: the ``_includes`` folder (theme includes are
        not in the repository and give a problem)."""
        path, _ = split_link(target)
        return lookup(self._root, [safe_join(d, path) for d in self._config.include_dirs], link=target)

    # ------------------------------------------------------------ preprocess
    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """Liquid rendered as far as a static reader can (see module doc; none on a page
        whose front matter says ``render_with_liquid: false``, Jekyll 4.0 "Front
        Matter") and kramdown attribute lists removed; front matter kept. Problems go
        to ``warnings``. Never raises."""
        sink = warnings if warnings is not None else []
        meta, body, kind = split_front_matter(text)
        head = text[: len(text) - len(body)]
        html_page = PAGE_MARKUP.get(suffix_of(page_rel)) == "html"
        if html_page:
            # Jekyll reads an HTML page's front matter itself and runs no Markdown converter on it
            # (Jekyll "Front Matter", "Pages"): the HTML never holds the block; its title is the page's
            title = str(meta.get("title") or "").strip() if kind else ""
            head = f"<title>{html.escape(title)}</title>\n" if title else ""
        meta = self.page_meta(page_rel, meta)
        drawn = [f"{{% include {meta[var]} %}}" for var in self._layout_page_includes(to_text(meta.get("layout")))
                 if isinstance(meta.get(var), str) and _INCLUDE_NAME.fullmatch(meta[var])]
        if drawn:  # the page's layout draws a file the page names (include_content: reuse/x.md)
            body = body.rstrip("\n") + "\n\n" + "\n\n".join(drawn) + "\n"
        if meta.get("render_with_liquid") is not False:
            body = self.render_liquid(body, page_rel=page_rel, meta=meta, warnings=sink)
        leads = [v.strip() for var in self._layout_leads(to_text(meta.get("layout")))
                 if isinstance(v := meta.get(var), str) and v.strip()]
        if leads:  # the layout writes them above the page's content (<div class="summary">{{ page.summary }})
            body = "\n\n".join(leads) + "\n\n" + body.lstrip("\n")
        if self._minimal_mistakes:
            body = minimal_mistakes_header(body, meta)
        if self._chirpy:
            collection = self._collection_of(page_rel)
            body = chirpy_media(body, meta, post=collection is not None and collection.name == "posts")
        listing = self._children_listing(page_rel, meta)
        body = body.rstrip() + listing if listing else body
        if "tab-pane" in body:
            body = body if html_page else bootstrap_tabs(body)
        if html_page:
            return head + body
        if self._jemoji:
            body = emoji_shortcodes(body)
        return head + strip_kramdown(body, self._callouts, parse_block_html=self._parse_block_html,
                                     html_blocks=self._kramdown)

    def _layout_page_includes(self, layout: str) -> tuple[str, ...]:
        """Front matter variables whose value the layout ``layout`` (and the layouts it is
        laid out in, ``layout:`` in each one's front matter; at most 5) includes as a file:
        ``{% include {{ page.include_content }} %}``. Jekyll renders a page's layouts with
        the page ("Layouts": ``page`` holds its front matter), so that file's content is on
        the page, though the page's own text does not name it."""
        names: list[str] = []
        for body in self._layout_chain(layout):
            names += [n for n in dict.fromkeys(_LAYOUT_PAGE_INCLUDE.findall(body)) if n not in names]
        return tuple(names)

    def _layout_leads(self, layout: str) -> tuple[str, ...]:
        """Front matter variables the layout ``layout`` (or a layout it is laid out in)
        writes above the page's ``{{ content }}`` as the whole text of a block element:
        the documentation theme for Jekyll's ``<div class="summary">{{page.summary}}</div>``,
        a ``<p class="lead">{{ page.description }}</p>``; outer layouts first, as they
        are drawn. ``title`` is not one (the page's title already)."""
        names: list[str] = []
        for body in reversed(self._layout_chain(layout)):
            head = _LAYOUT_CONTENT.split(body, 1)
            if len(head) < 2:
                continue
            names += [k for _, k in _LAYOUT_PAGE_BLOCK.findall(head[0]) if k != "title" and k not in names]
        return tuple(names)

    def _layout_chain(self, layout: str) -> list[str]:
        """The bodies of the layout ``layout`` and the layouts it is laid out in
        (``layout:`` in each one's front matter), innermost first, at most 5; a layout
        missing from the site's ``_layouts`` ends the chain. Each file is read once, up
        to 200,000 characters."""
        bodies: list[str] = []
        seen: set[str] = set()
        for _ in range(5):
            if not layout or layout in seen or not _LAYOUT_NAME.fullmatch(layout):
                break
            seen.add(layout)
            if layout not in self._layouts:
                path = self._root / safe_join(self._source, f"_layouts/{layout}.html")
                text = ""
                if path.is_file() and not inside_root(path, self._root.resolve()).problem:
                    try:
                        with path.open(encoding="utf-8", errors="replace") as fh:
                            text = fh.read(200_000)  # a huge file is not read whole
                    except OSError:
                        text = ""
                meta, body, _ = split_front_matter(text)
                parent = to_text(meta.get("layout")) if isinstance(meta, dict) else ""
                self._layouts[layout] = (parent, body)
            layout, body = self._layouts[layout]
            bodies.append(body)
        return bodies

    def _collection_of(self, rel: str) -> Collection | None:
        """The collection whose folder holds ``rel`` (``None``: a page outside collections)."""
        return next((c for c in self._collections if is_within(rel, c.folder)), None)

    def _draws_children_nav(self) -> bool:
        """True when pages are laid out by just-the-docs' ``default`` layout, which
        lists a ``has_children`` page's children: ``theme``/``remote_theme`` names
        ``just-the-docs`` (or the site is the theme, ``just-the-docs.gemspec``), and
        the site's own ``_layouts/default.html``, if it has one, still draws them."""
        if self._children_nav is None:
            named = " ".join(str(self._site_object.get(k) or "") for k in ("theme", "remote_theme")).lower()
            theme = "just-the-docs" in named or (self._root / "just-the-docs.gemspec").is_file()
            layout = self._root / safe_join(self._source, "_layouts/default.html")
            if theme and layout.is_file() and not inside_root(layout, self._root.resolve()).problem:
                try:
                    with layout.open(encoding="utf-8", errors="replace") as fh:
                        own = fh.read(200_000)  # a huge file is not read whole
                except OSError:
                    own = ""
                theme = "has_children" in own or "children_nav" in own
            self._children_nav = theme
        return self._children_nav

    def _nav_children(self, collection: str | None, parent: str) -> list[tuple[str, dict[str, Any]]]:
        """The pages of ``collection`` (``None``: pages outside collections) whose
        ``parent`` prints as ``parent``, each as (path, front matter with defaults).
        Every page of the site (at most :data:`_MAX_NAV_PAGES`) is read once and
        indexed by collection and parent."""
        if self._nav_pages is None:
            index: dict[tuple[str | None, str], list[tuple[str, dict[str, Any]]]] = {}
            for rel in os_walk_files(self._root, self._source, PAGE_MARKUP)[:_MAX_NAV_PAGES]:
                if self.classify(rel).role != FileRole.PAGE:
                    continue
                meta = self.page_meta(rel, self._front(rel)[0])
                if meta.get("parent") is None:
                    continue
                coll = self._collection_of(rel)
                index.setdefault((coll.name if coll else None, to_text(meta.get("parent"))), []).append((rel, meta))
            self._nav_pages = index
        return self._nav_pages.get((collection, parent), [])

    def _children_listing(self, page_rel: str, meta: dict[str, Any]) -> str:
        """The "Table of contents" just-the-docs draws under a ``has_children: true``
        page (``_layouts/default.html`` includes ``components/children_nav.html``
        unless ``has_toc: false``): the pages of the same collection (pages outside
        collections for a page outside them) whose ``parent`` is this page's
        ``title`` and whose ``grand_parent`` is this page's ``parent`` (Jekyll's
        ``where``: none when this page has no parent), in ``sorted_pages.html``
        order — numeric ``nav_order`` first, then string ones (case-insensitive with
        ``nav_sort: case_insensitive``), then pages without one by title — reversed
        by ``child_nav_order: desc``, each as its title and `` - summary``. An h2
        heading and a list, as published; ``""`` when there is nothing to list."""
        if meta.get("has_children") is not True or meta.get("has_toc") is False \
                or not isinstance(meta.get("title"), str | int | float) or not self._draws_children_nav():
            return ""
        coll = self._collection_of(page_rel)
        collection = coll.name if coll else None
        title, parent = to_text(meta.get("title")), meta.get("parent")
        insensitive = str(self._site_object.get("nav_sort") or "") == "case_insensitive"
        groups: list[list[tuple[Any, str]]] = [[], [], [], []]
        for rel, child in self._nav_children(collection, title):
            if rel == page_rel:
                continue
            grand = child.get("grand_parent")
            if (grand is not None or parent is not None) and (parent is None or to_text(grand) != to_text(parent)):
                continue
            name = " ".join(to_text(child.get("title")).split())
            if not name:
                continue
            summary = child.get("summary")
            line = f"- {name} - {' '.join(str(summary).split())}" if summary not in (None, "", False) else f"- {name}"
            order = child.get("nav_order")
            key = order if order is not None else child.get("title")
            number = isinstance(key, int | float) and not isinstance(key, bool)
            text_key = str(key).lower() if insensitive else str(key)
            groups[(0 if order is not None else 2) + (0 if number else 1)].append((key if number else text_key, line))
        lines = [line for group in groups for _, line in sorted(group, key=lambda g: g[0])]
        if str(meta.get("child_nav_order") or "") in ("desc", "reversed"):
            lines.reverse()
        if not lines:
            return ""
        return "\n\n---\n\n## Table of contents\n\n" + "\n".join(lines[:_MAX_CHILDREN]) + "\n"

    def render_liquid(self, text: str, *, page_rel: str, meta: dict[str, Any], warnings: list[str]) -> str:
        """The Liquid of the page ``page_rel`` (front matter ``meta``, with its
        defaults) rendered in document order (:mod:`murar.ingest.sites._liquid`) with
        ``site`` (the config and ``site.data``), ``page``, ``jekyll.environment`` and
        Jekyll's tags and filters (:class:`_JekyllLiquid`)."""
        ctx = Context(scopes=[{}], globals={"site": self._site_object, "page": meta,
                                            "jekyll": {"environment": "production"}},
                      left=[_MAX_INCLUDES, _MAX_INCLUDED_CHARS, _MAX_RENDERED_CHARS, 1, _MAX_LOOP_ITEMS],
                      warnings=warnings)
        out: list[str] = []
        _JekyllLiquid(self, page_rel).render_file(text, page_rel, ctx, out)
        return _EMPTY_EMPHASIS.sub("", "".join(out)).replace(DROPPED, "")

    def _post_url(self, args: str) -> str:
        """``{% post_url 2020-01-01-name %}`` (Jekyll "Links": a post by its file name,
        a subfolder of ``_posts`` before it): the post's path from the site root, as
        ``{% link %}`` gives (``""`` when no post has that name)."""
        name = args.strip().strip("'\"")
        posts = next((c.folder for c in self._collections if c.name == "posts"), "_posts")
        if not re.fullmatch(r"[\w./-]+", name) or ".." in name.split("/"):
            return ""
        for suffix in PAGE_MARKUP:
            rel = safe_join(posts, name + suffix)
            if (self._root / rel).is_file():
                return "/" + rel
        return ""

    def _relative_url(self, value: str) -> str:
        if is_remote(value):
            return value
        base = self._config.settings.get("baseurl", "").strip("/")
        path = "/" + value.lstrip("/")
        return f"/{base}{path}" if base else path


#: top-level variables Jekyll's payload holds while it renders that murar does not build (jekyllrb.com "Variables")
_RENDER_PAYLOAD = frozenset({"layout", "content", "paginator", "theme"})


class _JekyllLiquid(Renderer):
    """Jekyll's Liquid (jekyllrb.com "Liquid", "Includes", "Links"): the tags
    ``include``/``include_relative``/``include_cached``, ``link``, ``post_url``,
    ``highlight`` and tab plugins' ``tabs``/``tab``, the filters ``relative_url``,
    ``absolute_url``, ``markdownify``, ``jsonify``, ``where_exp``, ``group_by`` and the
    array filters ``push``/``pop``/``shift``/``unshift``; ``site.<key>`` the config
    lacks is not known (a theme's config or a value Jekyll computes, ``site.pages``),
    and so is a ``page`` variable Jekyll computes (``page.url``) when the front matter
    does not set it; any other key an object lacks is nil."""

    def __init__(self, site: JekyllSite, page_rel: str) -> None:
        self.site = site
        self.page_rel = page_rel
        self.files: list[str] = []  # the file being rendered, innermost last
        # an HTML page is not converted from Markdown: what a plugin tag writes there is HTML
        self.html_page = PAGE_MARKUP.get(suffix_of(page_rel)) == "html"

    def render_file(self, text: str, file_rel: str, ctx: Context, out: list[str]) -> None:
        self.files.append(file_rel)
        try:
            self.render(parse(text), ctx, out)
        finally:
            self.files.pop()

    def missing(self, path: list[str | int], depth: int) -> Any:
        head = path[0]
        if head == "site" and depth == 1 and path[1] == "static_files":
            files = self.site.static_files()
            if len(path) == 2:
                return files
            return len(files) if path[2] == "size" else UNKNOWN
        if head == "site" and depth <= 2:
            return UNKNOWN
        if head == "page" and depth == 1 and path[1] in _COMPUTED_PAGE:
            return UNKNOWN
        if head == "jekyll":
            return UNKNOWN
        return None

    def unset(self, name: str) -> Any:
        """A top-level variable no assign, capture, loop or include set: nil, as Liquid
        reads an undefined variable (so ``{{ name | default: page.title }}`` in an include
        writes the page title), except the payload Jekyll fills while rendering
        (jekyllrb.com "Variables": ``layout``, ``content``, ``paginator``, ``theme``)
        that murar does not build."""
        return UNKNOWN if name in _RENDER_PAYLOAD else None

    def over_budget(self, ctx: Context) -> None:
        ctx.warnings.append(f"{self.files[-1] if self.files else self.page_rel}: Liquid output over"
                            f" {_MAX_RENDERED_CHARS} characters; the rest is cut")

    def over_loop_budget(self, ctx: Context) -> None:
        ctx.warnings.append(f"{self.files[-1] if self.files else self.page_rel}: Liquid loops over"
                            f" {_MAX_LOOP_ITEMS} iterations on the page; the rest is left out")

    def over_work(self, ctx: Context) -> None:
        ctx.warnings.append(f"{self.files[-1] if self.files else self.page_rel}: Liquid over the work allowed"
                            f" for a page; the tags after this point are not run")

    def filter(self, name: str, value: Any, args: list[Any], ctx: Context) -> Any:
        if value is UNKNOWN:
            return UNKNOWN
        if name in ("relative_url", "absolute_url"):
            if value is None:
                return None
            url = self.site._relative_url(to_text(value))
            return url if name == "relative_url" or is_remote(url) else \
                self.site.config.settings.get("url", "").rstrip("/") + url
        if name == "markdownify":
            text = to_text(value)
            done = ctx.state.get("markdownified", 0) + len(text)
            ctx.state["markdownified"] = done
            if done > _MAX_MARKDOWNIFY_CHARS:
                if done - len(text) <= _MAX_MARKDOWNIFY_CHARS:
                    ctx.warnings.append(f"{self.files[-1] if self.files else self.page_rel}: markdownify over"
                                        f" {_MAX_MARKDOWNIFY_CHARS} characters on the page; the rest stays Markdown")
                return text
            return _markdownify(text)
        if name == "jsonify":
            return _jsonify(value)
        if name == "where_exp":
            return self._where_exp(value, args, ctx)
        if name == "group_by":
            groups: dict[str, list[Any]] = {}
            for item in value if isinstance(value, list) else []:
                key = item.get(args[0]) if isinstance(item, dict) and args and isinstance(args[0], str) else None
                groups.setdefault(to_text(key), []).append(item)
            return [{"name": k, "items": v, "size": len(v)} for k, v in groups.items()]
        if name in ("push", "unshift") and isinstance(value, list):
            arg = args[0] if args and args[0] is not UNKNOWN else None
            return value + [arg] if name == "push" else [arg] + value
        if name in ("pop", "shift") and isinstance(value, list):
            return value[:-1] if name == "pop" else value[1:]
        if name in ("sample", "group_by_exp", "find_exp"):
            return UNKNOWN
        return super().filter(name, value, args, ctx)

    def _where_exp(self, value: Any, args: list[Any], ctx: Context) -> Any:
        """Jekyll ``where_exp: "item", "item.x == 1"``: the items the condition holds for."""
        if isinstance(value, dict):
            value = list(value.values())
        if not isinstance(value, list) or len(args) < 2 or not isinstance(args[0], str) \
                or not isinstance(args[1], str):
            return UNKNOWN
        kept: list[Any] = []
        for item in value[:MAX_LOOP_LENGTH]:
            if not self.spend(ctx, STEP_COST):  # the condition (it spends too)
                return UNKNOWN
            ctx.scopes.append({args[0]: item})
            try:
                hold = self.condition(args[1], ctx)
            finally:
                ctx.scopes.pop()
            if hold is UNKNOWN:
                return UNKNOWN
            if hold:
                kept.append(item)
        return kept

    def tag(self, name: str, args: str, ctx: Context, out: list[str]) -> None:
        if name in ("include", "include_relative", "include_cached"):  # include_cached: jekyll-include-cache
            self._include(name, args, ctx, out)
        elif name in ("link", "post_url"):
            # Jekyll "Links": the path may hold Liquid variables ({% link {{ page.dir }}/a.md %})
            args = sub_closed(_OUTPUT, _OUTPUT_END, lambda v: to_text(self.evaluate(v.group(1), ctx)), args)
            out.append("/" + args.strip().strip("'\"").lstrip("/") if name == "link" else self.site._post_url(args))
        elif name in ("tabs", "tab", "endtabs"):
            out.append(_tab_marker(name, args, ctx))
        elif name in _PLUGIN_CALLOUTS or name in _PLUGIN_COLLAPSIBLES:
            # a plugin's callout or collapsible block opening: its label line (its end tag writes nothing)
            m = _PLUGIN_TITLE.search(args) or _QUOTED_FIRST.match(args)
            title = next((g for g in m.groups() if g is not None), "").strip() if m else ""
            if name in _PLUGIN_CALLOUTS:
                out.append(self._label(admonition_label(name, title), out))
            else:
                out.append(self._label(title, out) if title else DROPPED)
        elif name in _PLUGIN_KIND_CALLOUTS:
            named = {k.lower(): v.strip("'\"") for k, v in _PARAM.findall(args)}
            bare = _KIND_ARG.match(args)
            kind = next((named[k] for k in ("type", "kind", "style") if named.get(k)), "") or \
                (bare.group(1) if bare else "note")
            m = _PLUGIN_TITLE.search(args)
            title = next((g for g in m.groups() if g is not None), "").strip() if m else ""
            out.append(self._label(admonition_label(kind, title), out))
        elif (shape := self.site.image_tag(name)) is not None:
            # a site plugin's image tag: the picture its first argument names, the rest its caption
            args = sub_closed(_OUTPUT, _OUTPUT_END, lambda v: to_text(self.evaluate(v.group(1), ctx)), args)
            first, _, rest = args.strip().partition(" ")
            src = first.strip("'\"")
            if not src:
                out.append(DROPPED)
                return
            if not (is_remote(src) and not shape[0]):
                src = shape[0] + src + shape[1]
                src = src[:1] + re.sub(r"/{2,}", "/", src[1:]) if not is_remote(src) else src
            # the caption: an alt/caption/title="..." parameter, else the words after the path
            named = {k.lower(): v.strip("'\"") for k, v in _PARAM.findall(rest)}
            alt = next((named[k] for k in ("alt", "caption", "title") if named.get(k)), "") or \
                _PARAM.sub("", rest).strip().strip("'\"")
            out.append(self._picture(src, alt, ""))
        else:  # a plugin's tag: its title, else nothing (the text around it stays)
            m = _PLUGIN_TITLE.search(args)
            out.append(next(g for g in m.groups() if g is not None) if m else DROPPED)

    def _picture(self, src: str, alt: str, caption: str) -> str:
        """A picture a tag or theme helper writes: :func:`_md_picture`, or an ``<img>`` (its
        caption the title) on an HTML page, where no Markdown is converted."""
        if not self.html_page:
            return _md_picture(src, alt, caption)
        title = re.sub(r"<[^>]+>", "", caption).strip()
        extra = f' title="{html.escape(title, quote=True)}"' if title else ""
        return f'<img src="{html.escape(src, quote=True)}" alt="{html.escape(alt, quote=True)}"{extra}>'

    def _label(self, label: str, out: list[str]) -> str:
        """A plugin block's label: :func:`_label_block`, or a bold paragraph on an HTML page."""
        return f"<p><strong>{html.escape(label)}</strong></p>\n" if self.html_page else _label_block(label, out)

    def block(self, node: Tag, ctx: Context, out: list[str]) -> None:
        if node.name != "highlight" or not node.branches:
            super().block(node, ctx, out)
            return
        inner: list[str] = []
        self.render(node.branches[0].body, ctx, inner)
        body = "".join(inner)
        body = body.removeprefix("\n")
        lang = (node.args.split() or [""])[0]
        if self.html_page:  # Jekyll writes the block as <pre><code> (no Markdown on an HTML page)
            cls = f' class="language-{html.escape(lang, quote=True)}"' if lang else ""
            out.append(f"<pre><code{cls}>{html.escape(body.rstrip(chr(10)))}</code></pre>")
            return
        out.append(_fence(lang, body, _line_before(out)))

    def _theme_include(self, target: str, params_text: str, ctx: Context) -> str:
        """An include that is not in the repository (a remote theme's helpers, as
        Minimal Mistakes documents them in "Helpers"): a parameter that is an image
        path keeps that picture with its ``alt``/``caption``/``title`` (``figure``);
        ``provider`` + ``id`` keep the embedded video (``video``: youtube, vimeo,
        google-drive, bilibili); a front matter list named by the ``id`` parameter
        or by the include's name whose entries have an ``image_path`` keeps those
        pictures (``gallery``, ``feature_row``), with the ``caption`` parameter
        after them; a ``feature_row`` block's title and excerpt follow its picture
        (:meth:`_feature_block`). An image path is the site's (:func:`_helper_src`). Chirpy's ``embed/<platform>.html id=...`` (youtube, vimeo,
        bilibili) is that platform's video and ``embed/video.html src=... title=...``
        the video file with its title as caption ("Writing a New Post: Video").
        Otherwise nothing."""
        params = {key.lower(): to_text(value) for key, value in self._params(params_text, ctx).items()}
        folder, stem = posixpath.dirname(target), posixpath.splitext(posixpath.basename(target))[0]
        if self.site.chirpy and folder == "embed":
            if stem == "video" and suffix_of(split_link(params.get("src", ""))[0]) in VIDEO_SUFFIXES:
                title = html.escape(params.get("title", ""), quote=True)
                return f'\n<video src="{html.escape(_chirpy_src(params["src"], ""), quote=True)}" title="{title}">' \
                       f"</video>\n"
            params.setdefault("provider", stem)
        src = next((v for v in params.values() if suffix_of(split_link(v)[0]) in IMAGE_SUFFIXES), "")
        if src:
            return self._picture(_helper_src(src), params.get("alt") or params.get("caption") or "",
                                 params.get("caption") or params.get("title") or "")
        embed = _VIDEO_EMBEDS.get(params.get("provider", "").lower())
        if embed and re.fullmatch(r"[\w-]+(?:\?[\w=&-]*)?", params.get("id", "")):
            return f'\n<iframe src="{embed.format(id=params["id"])}"></iframe>\n'
        page = ctx.globals.get("page")
        items = page.get(params.get("id") or posixpath.splitext(posixpath.basename(target))[0]) \
            if isinstance(page, dict) else None
        entries = [it for it in (items if isinstance(items, list) else []) if isinstance(it, dict)]
        if stem == "feature_row":  # each block: its picture, then its title and excerpt (Markdown)
            pictures = [part for it in entries for part in self._feature_block(it) if part]
        else:
            pictures = [self._picture(_helper_src(str(it["image_path"])), str(it.get("alt") or ""),
                                      str(it.get("title") or it.get("image_caption") or ""))
                        for it in entries if isinstance(it.get("image_path"), str) and it["image_path"].strip()]
        if not pictures:
            return ""
        caption = re.sub(r"<[^>]+>", "", params.get("caption", "")).strip()
        return "\n\n" + "\n\n".join(pictures + ([caption] if caption else [])) + "\n\n"

    def _feature_block(self, item: dict[str, Any]) -> list[str]:
        """A Minimal Mistakes ``feature_row`` block ("Helpers: Feature row"): its
        ``image_path`` picture (``alt``, ``image_caption``), its ``title`` (bold: the
        theme's block heading, not a section of the page) and its ``excerpt``."""
        path = item.get("image_path")
        title = to_text(item.get("title")).strip()
        caption = _MD_LINK_TEXT.sub(r"\1", to_text(item.get("image_caption"))).strip()
        return [self._picture(_helper_src(path), to_text(item.get("alt")), caption)
                if isinstance(path, str) and path.strip() else "",
                f"**{title}**" if title else "", to_text(item.get("excerpt")).strip()]

    def _params(self, params_text: str, ctx: Context) -> dict[str, Any]:
        """An include's parameters (Jekyll "Includes": ``name="value"``, ``name='value'``
        or ``name=variable``)."""
        params: dict[str, Any] = {}
        for m in _PARAM.finditer(params_text):
            value = literal(m.group(2))
            params[m.group(1)] = value if isinstance(value, str) else self.lookup(m.group(2), ctx)
        return params

    def _include(self, tag: str, args: str, ctx: Context, out: list[str]) -> None:
        site, warnings = self.site, ctx.warnings
        file_rel = self.files[-1] if self.files else self.page_rel
        # the file name: a literal, or built from {{ variables }} (Jekyll "Includes": "Using
        # variables names for the include file"), up to the first blank outside {{ }}
        m = _INCLUDE_TARGET.match(args.strip())
        target_expr, params_text = (m.group(1), m.group(2)) if m else ("", args)
        if "{{" in target_expr:
            parts = [(v.group(1), self.evaluate(v.group(1), ctx)) for v in re.finditer(r"\{\{-?(.*?)-?\}\}",
                                                                                       target_expr)]
            # nil too: Jekyll stops the build on an include it cannot find, so a site that builds
            # sets the variable somewhere a static reader does not see
            unknown = [expr.strip() for expr, value in parts if value is UNKNOWN or value is None]
            if unknown:  # a variable a plugin sets (page.version.version): the file cannot be named
                warnings.append(f"{{% {tag} {target_expr} %}}: {unknown[0]} is not known here (a plugin's"
                                f" variable?); not included")
                return
            values = iter(to_text(value) for _, value in parts)
            target = re.sub(r"\{\{-?(.*?)-?\}\}", lambda _: next(values), target_expr)
        else:
            quoted = literal(target_expr)
            target = quoted if isinstance(quoted, str) else target_expr
        if tag == "include_relative":
            res = lookup(site.config.root, [safe_join(posixpath.dirname(file_rel), target)], link=target)
        else:
            res = site.resolve_include(target, page_rel=file_rel)
        if res.rel_path is None or res.problem:
            warnings.append(f"{{% {tag} {target} %}}: {res.problem or 'not found'}")
            out.append(self._theme_include(target, params_text, ctx))
            return
        if len(self.files) > _MAX_INCLUDE_DEPTH or ctx.blocks > _MAX_INCLUDE_BLOCKS:
            if ctx.left[3]:  # one warning for the page
                warnings.append(f"{{% {tag} {target} %}}: nesting deeper than {_MAX_INCLUDE_DEPTH} (not included,"
                                f" nor the other includes that deep)")
            ctx.left[3] = 0
            return
        if ctx.left[0] <= 0 or ctx.left[1] <= 0:
            if ctx.left[0] >= 0:  # one warning for the rest of the page
                warnings.append(f"{{% {tag} {target} %}} and the later includes skipped: the page is over"
                                f" {_MAX_INCLUDES} includes or {_MAX_INCLUDED_CHARS} included characters")
            ctx.left[0] = -1
            return
        try:
            raw = read_include(site.config.root / res.rel_path, label=f"{{% {tag} {target} %}}", warnings=warnings)
        except OSError as err:
            warnings.append(f"{{% {tag} {target} %}}: cannot read ({err})")
            return
        ctx.left[0] -= 1
        ctx.left[1] -= len(raw)
        if tag == "include_relative":
            raw = split_front_matter(raw)[1]
        raw = _strip_hidden(raw)
        raw = rebase_links(raw, from_rel=res.rel_path, to_rel=self.page_rel,
                           exists=lambda p: (site.config.root / p).is_file()) if tag == "include_relative" else raw
        # Jekyll renders an include in the page's context with its own "include" object: a
        # variable it assigns stays set after it
        ctx.scopes.append({"include": self._params(params_text, ctx)})
        try:
            self.render_file(raw, res.rel_path, ctx, out)
        finally:
            ctx.scopes.pop()


#: page variables Jekyll computes (absent from front matter does not mean nil)
_COMPUTED_PAGE = frozenset({"content", "title", "excerpt", "url", "date", "id", "categories", "collection", "tags",
                            "dir", "name", "path", "next", "previous", "relative_path", "slug", "ext", "output"})


def _strip_hidden(text: str) -> str:
    """``text`` without its hidden HTML elements (``hidden``/``aria-hidden="true"``),
    each up to the closing tag that matches it (elements of its name nested in it, a
    Bootstrap modal's ``<div>``s, counted: the first ``</div>`` left the outer ones'
    closing tags as text). An opening tag whose name is not closed after it stays, and
    so does every later one of that name (one ``.*?</\\1>`` regex scanned to the end
    from each: 20,000 ``<p hidden>`` took 32 s). A tag is read up to a ``<`` or
    ``>`` (an HTML tokenizer reads ``<a <b hidden>`` as one tag with the attribute ``<b``;
    rare beside the cost of scanning on: 20,000 ``<a `` without ``>`` took 21 s, cubic
    with ``hidden`` in them)."""
    out: list[str] = []
    pos = 0
    unclosed: set[str] = set()
    for m in _OPEN_TAG.finditer(text):
        name = m.group(1).lower()
        if m.start() < pos or name in unclosed or not _HIDDEN_ATTR.search(m.group(2)):
            continue
        end = None
        depth = 1
        for tag in re.compile(rf"<(/?){re.escape(name)}\b[^<>]*>", re.IGNORECASE).finditer(text, m.end()):
            if tag.group(1):
                depth -= 1
                if depth == 0:
                    end = tag.end()
                    break
            elif not tag.group(0).endswith("/>"):
                depth += 1
        if end is None:
            unclosed.add(name)
            continue
        out.append(text[pos:m.start()])
        pos = end
    out.append(text[pos:])
    return "".join(out)


def is_chirpy(site: dict[str, Any], root: Path) -> bool:
    """True when the site uses the Chirpy theme: ``theme``/``remote_theme`` names
    ``jekyll-theme-chirpy`` (the chirpy-starter way), or the site is the theme itself
    (``jekyll-theme-chirpy.gemspec`` at its root, the fork way)."""
    named = " ".join(str(site.get(key) or "") for key in ("theme", "remote_theme"))
    return "jekyll-theme-chirpy" in named or (root / "jekyll-theme-chirpy.gemspec").is_file()


# the pieces of Markdown an image source is found by in one pass (a regex per "![" rescanned the line:
# a line of 50,000 "![" took 5 s)
_IMAGE_TOKEN = re.compile(r"\\.|!\[|\]\(|\]|\n|`")
_IMAGE_SRC = re.compile(r"[ \t]*(<[^<>\n]*>|[^\s()<>]+)")
_HTML_IMG_SRC = re.compile(r"(<img\b[^<>]*?\ssrc\s*=\s*)([\"'])([^\"'<>]*)\2", re.IGNORECASE)
_ITALIC_LINE = re.compile(r"^[ \t>]*(?:_(?=\S)([^_\n]+?)_|\*(?=[^\s*])([^*\n]+?)\*)[ \t]*$")
_IMAGE_LINE_END = re.compile(r"!\[[^\]\n]{0,1000}\]\((?P<src><[^<>\n]*>|[^\s()<>]+)(?P<title>\s+\"[^\"\n]*\")?\)"
                             r"(?:\{:[^}\n]*\})?[ \t]*$")


def _chirpy_src(src: str, subpath: str) -> str:
    """Chirpy's ``media-url.html``: a source that is neither a URL nor a data URI is
    ``/<media_subpath>/<src>`` with repeated slashes collapsed."""
    if "//" in src or ":" in src or not src:
        return src
    return re.sub(r"/{2,}", "/", f"/{subpath}/{src}")


def is_minimal_mistakes(site: dict[str, Any], root: Path) -> bool:
    """True when the site uses the Minimal Mistakes theme: ``theme``/``remote_theme`` names
    it (``minimal-mistakes-jekyll``, ``mmistakes/minimal-mistakes@4.24.0``), or the site is
    the theme itself (``minimal-mistakes-jekyll.gemspec`` at its root)."""
    named = " ".join(str(site.get(key) or "") for key in ("theme", "remote_theme"))
    return "minimal-mistakes" in named or (root / "minimal-mistakes-jekyll.gemspec").is_file()


_MD_LINK_TEXT = re.compile(r"!?\[([^\]\n]*)\]\([^()\n]*\)")


def minimal_mistakes_header(body: str, meta: dict[str, Any]) -> str:
    """``body`` with the page's header picture above it, as Minimal Mistakes' layouts draw it
    ("Layouts: Headers"): front matter ``header.overlay_image`` (the title drawn over it) or
    else ``header.image``, its ``image_description`` (else the page title) as alt and
    ``caption`` (Markdown: its link text kept) as caption; a header picture (hero). An
    overlay header (``overlay_image`` or ``overlay_color``) shows the front matter ``excerpt``
    under the title unless ``show_overlay_excerpt: false``: it leads the text. A ``teaser``
    shows only in listings, not on the page."""
    header = meta.get("header")
    if not isinstance(header, dict):
        return body
    overlay = any(isinstance(header.get(key), str) and header[key].strip() for key in ("overlay_image", "overlay_color"))
    excerpt = meta.get("excerpt")
    if overlay and isinstance(excerpt, str) and excerpt.strip() and header.get("show_overlay_excerpt") is not False:
        body = excerpt.strip() + "\n\n" + body  # the overlay's lead: the front matter excerpt under the title
    path = next((v.strip() for key in ("overlay_image", "image")
                 if isinstance(v := header.get(key), str) and v.strip()), "")
    if not path:
        return body
    alt = re.sub(r"\s+", " ", to_text(header.get("image_description") or meta.get("title"))).strip()
    caption = _MD_LINK_TEXT.sub(r"\1", to_text(header.get("caption"))).replace("**", "").strip()
    figcaption = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return (f'<figure><img src="{html.escape(path, quote=True)}" alt="{html.escape(alt, quote=True)}" '
            f'{FLAGS_ATTR}="{HERO}">{figcaption}</figure>\n\n') + body


def chirpy_media(body: str, meta: dict[str, Any], *, post: bool) -> str:
    """The Chirpy theme's media rules (its "Writing a New Post" guide, implemented by
    ``refactor-content.html``, ``media-url.html`` and the ``post`` layout):

    - every image source that is not a URL (``![](x.png)``, ``<img src>``) becomes
      ``/<media_subpath>/<src>`` (``img_path`` in Chirpy before 6.0): a relative
      path is read from the site root, not from the post's folder;
    - an italic line right after an image line (``_Caption_``) is that image's caption
      (the image gets it as its title; the line stays as text);
    - a post's preview ``image`` (front matter ``image: path`` or ``image: {path, alt}``)
      is shown above the post, with its ``alt`` as the caption: the post's header
      picture (Chirpy asks for a 1200 x 630 image, the one social cards show), flagged
      ``hero`` (:mod:`murar.ingest.media_flags`), never an answer's figure.

    Code (fences, inline code) is left as written."""
    raw_sub = meta.get("media_subpath") if meta.get("media_subpath") is not None else meta.get("img_path")
    subpath = raw_sub.strip("/") if isinstance(raw_sub, str) else ""

    def markdown_sources(part: str) -> str:
        out: list[str] = []
        pos, image, code = 0, False, False
        for m in _IMAGE_TOKEN.finditer(part):
            token = m.group(0)
            if token == "\n":
                image = code = False
            elif token == "`":
                code = not code  # inline code: left as written
            elif code or token.startswith("\\"):
                continue
            elif token in ("![", "]"):
                image = token == "!["
            elif image:  # "](" closing an image's alt text: its source follows
                image = False
                src = _IMAGE_SRC.match(part, m.end())
                if src:
                    inner = src.group(1)[1:-1] if src.group(1).startswith("<") else src.group(1)
                    new = _chirpy_src(inner, subpath)
                    out += [part[pos:src.start(1)], f"<{new}>" if src.group(1).startswith("<") else new]
                    pos = src.end(1)
        return "".join(out) + part[pos:]

    def sources(part: str) -> str:
        part = markdown_sources(part)
        part = _HTML_IMG_SRC.sub(lambda m: m.group(1) + m.group(2) + _chirpy_src(m.group(3), subpath) + m.group(2),
                                 part)
        lines = part.split("\n")
        for i in range(len(lines) - 1):
            cap = _ITALIC_LINE.match(lines[i + 1])
            img = _IMAGE_LINE_END.match(lines[i], max(0, lines[i].rfind("!["))) if cap else None
            if cap and img and not img.group("title"):
                text = (cap.group(1) or cap.group(2)).strip().replace('"', "'")
                lines[i] = lines[i][:img.end("src")] + f' "{text}"' + lines[i][img.end("src"):]
        return "\n".join(lines)

    body = outside_fences(body, sources)
    image = meta.get("image")
    path = image.get("path") if isinstance(image, dict) else image
    if post and isinstance(path, str) and path.strip():
        alt = image.get("alt") if isinstance(image, dict) else None
        alt_text = html.escape(re.sub(r"\s+", " ", str(alt)).strip() if alt else "", quote=True)
        src = html.escape(_chirpy_src(path.strip(), subpath), quote=True)
        # as the post layout draws it (img.preview-img, the alt as figcaption), a header picture: hero
        caption = f"<figcaption>{alt_text}</figcaption>" if alt_text else ""
        body = (f'<figure><img src="{src}" alt="{alt_text}" class="preview-img" {FLAGS_ATTR}="{HERO}">'
                f"{caption}</figure>\n\n") + body
    return body


def _jsonify(value: Any) -> str | None:
    """Jekyll's ``jsonify``: ``value`` as JSON, the first :data:`MAX_VALUE_CHARS`
    characters (the encoder stops there: ``{{ site | jsonify }}`` of a large site is
    not serialised whole)."""
    out: list[str] = []
    size = 0
    try:
        for chunk in json.JSONEncoder(default=str).iterencode(value):
            out.append(chunk)
            size += len(chunk)
            if size > MAX_VALUE_CHARS:
                break
    except (TypeError, ValueError, RecursionError):
        return None
    return "".join(out)[:MAX_VALUE_CHARS]


def _tab_marker(tag: str, args: str, ctx: Context) -> str:
    """Tab plugins' ``{% tabs [group] %}`` / ``{% tab label %}`` / ``{% endtabs %}``
    as tab-set markers (:mod:`murar.ingest.markup.tabs`) with a bold label line,
    the way the other generators' tabs read. The label: ``title="X"``; else the
    words after the group name when the tab repeats it (jekyll-tabs:
    ``{% tabs log %}`` / ``{% tab log php %}``); else all the words (``{% tab Android %}``)."""
    groups: list[str] = ctx.state.setdefault("tabs", [])
    if tag == "tabs":
        groups.append(args.split()[0] if args.split() else "")
        return f"\n\n{set_open()}\n\n"
    if tag == "endtabs":
        if groups:
            groups.pop()
        return f"\n\n{set_close()}\n\n"
    titled = re.search(r"""title\s*=\s*(?:"([^"]*)"|'([^']*)')""", args)
    words = args.split()
    group = groups[-1] if groups else ""
    label = (titled.group(1) if titled.group(1) is not None else titled.group(2)) if titled else \
        " ".join(words[1:] if group and len(words) > 1 and words[0] == group else words)
    label = label.strip().strip("'\"") or "Tab"
    return "\n".join(["", "", tab_start(label), *label_lines(label), ""])


# Bootstrap's tab component (getbootstrap.com "Navs and tabs", JavaScript behavior), the tabs of
# Bootstrap-based Jekyll themes (documentation-theme-jekyll "Navtabs"): a strip of links to the panes
# (<ul class="nav nav-tabs">, role="tablist") and <div class="tab-content"> holding <div class="tab-pane" id=..>
_DIV_EVENT = re.compile(r"<(/?)div\b([^<>]*)>", re.IGNORECASE)
_TAB_STRIP = re.compile(r"<(ul|div|nav)\b([^<>]*)>", re.IGNORECASE)
_TAB_LINK = re.compile(r"<(a|button)\b([^<>]*)>", re.IGNORECASE)
_TAB_TARGET = re.compile(r"""\b(?:href|data-(?:bs-)?target)\s*=\s*["']#([^"'\s<>]{1,200})["']""", re.IGNORECASE)
_CLASS_ATTR = re.compile(r"""\bclass\s*=\s*["']([^"'<>]*)["']""", re.IGNORECASE)
_ID_ATTR = re.compile(r"""\bid\s*=\s*["']([^"'<>]{1,200})["']""", re.IGNORECASE)


def _classes(attrs: str) -> set[str]:
    m = _CLASS_ATTR.search(attrs)
    return set(m.group(1).split()) if m else set()


def _indent_at(text: str, pos: int) -> str:
    """The blanks before ``pos`` on its line when only blanks precede it there (a tag
    indented in a list step), else ``""``."""
    before = text[text.rfind("\n", 0, pos) + 1:pos]
    return before if before and not before.strip(" \t") else ""


def bootstrap_tabs(text: str) -> str:
    """Bootstrap tabs as tab sets: each ``<div class="tab-content">`` holding ``tab-pane``
    divs opens a set, each pane is a tab labelled by the link of the tab strip that targets
    its ``id`` (``href="#id"``, ``data-target``/``data-bs-target``; else the id), and the
    strip (``<ul class="nav nav-tabs">``/``nav-pills`` or ``role="tablist"``, whose links
    only switch panes) is dropped. Each pane stays an HTML block of its own, so its
    pictures record their tab; bitwarden/help's Duo page showed 'Personal Organization'
    as text and both panes as one. A tab-content without panes is left alone. Linear:
    the div tags are matched once, a strip read within 20,000 characters of its start. The
    whole page is read at once, its fenced code blanked (:func:`blank_fences`): a set whose
    panes hold code blocks is one set (each part between code blocks was read on its own, so
    such a set was never matched and its labels read as a list of words); a set indented in a
    list step gets its markers at that indentation, so the step goes on around it."""
    labels: dict[str, str] = {}
    strips: list[tuple[int, int]] = []
    scan = blank_fences(text)  # markup in code blocks is not read; offsets stay those of text
    for m in _TAB_STRIP.finditer(scan):
        cls = _classes(m.group(2))
        if not ({"nav-tabs", "nav-pills"} & cls or re.search(r"role\s*=\s*[\"']tablist", m.group(2), re.IGNORECASE)):
            continue
        if strips and m.start() < strips[-1][1]:
            continue
        # a strip is short: its end looked for in the next 20,000 characters (bounded work per strip)
        close = re.compile(rf"</{m.group(1)}\s*>", re.IGNORECASE).search(scan, m.end(), m.end() + 20_000)
        if close is None:
            continue
        found = False
        region = scan[m.end():close.start()]
        lower = region.lower()
        ends = {"a": -1, "button": -1}  # the next closing tag of each name (found once per stretch)
        for link in _TAB_LINK.finditer(region):
            name = link.group(1).lower()
            if ends[name] < link.end():
                at = lower.find(f"</{name}", link.end())
                ends[name] = at if at >= 0 else len(region) + 1  # none: never looked for again
            target = _TAB_TARGET.search(link.group(2))
            if ends[name] > len(region) or ends[name] - link.end() > 500 or not target:  # no tab's label
                continue
            label = " ".join(re.sub(r"<[^<>]*>", " ", region[link.end():ends[name]]).split())
            if label:
                labels.setdefault(target.group(1), html.unescape(label))
                found = True
        if found:
            strips.append((m.start(), close.end()))
    events = list(_DIV_EVENT.finditer(scan))
    partner: dict[int, int] = {}  # index of an opening div event -> index of its closing one
    stack: list[int] = []
    for i, ev in enumerate(events):
        if ev.group(1):
            if stack:
                partner[stack.pop()] = i
        elif not ev.group(2).rstrip().endswith("/"):
            stack.append(i)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    i = 0
    while i < len(events):
        ev = events[i]
        if ev.group(1) or "tab-content" not in _classes(ev.group(2)) or i not in partner:
            i += 1
            continue
        end = partner[i]
        panes: list[tuple[int, int]] = []
        j = i + 1
        while j < end:
            inner = events[j]
            if not inner.group(1) and j in partner and "tab-pane" in _classes(inner.group(2)):
                panes.append((j, partner[j]))
                j = partner[j] + 1
            else:
                j = partner.get(j, j) + 1
        if panes:
            lead = _indent_at(text, ev.start())  # a set in a list step stays in that step
            edits.append((ev.start(), ev.end(), f"\n\n{set_open(lead)}\n\n{lead}"))
            for start, _stop in panes:
                pane_id = _ID_ATTR.search(events[start].group(2))
                name = pane_id.group(1) if pane_id else ""
                label = labels.get(name, name)
                pane_lead = _indent_at(text, events[start].start())
                edits.append((events[start].start(), events[start].start(),
                              "\n".join(["", "", tab_start(label, pane_lead), *label_lines(label, pane_lead), "",
                                         pane_lead])))
            edits.append((events[end].start(), events[end].end(),
                          f"\n\n{set_close(_indent_at(text, events[end].start()))}\n\n"))
        i = end + 1
    if not edits:
        return text
    edits += [(a, b, "") for a, b in strips]
    out: list[str] = []
    pos = 0
    for start, stop, new in sorted(edits, key=lambda e: (e[0], e[1])):
        if start < pos:
            continue
        out += [text[pos:start], new]
        pos = stop
    out.append(text[pos:])
    return "".join(out)


def _line_before(out: list[str]) -> str:
    """The text written on the current line so far (at most 200 characters looked back): what
    precedes a tag on its line, a list step's indentation."""
    tail: list[str] = []
    for piece in reversed(out):
        tail.append(piece)
        if "\n" in piece or sum(map(len, tail)) > 200:
            break
    before = "".join(reversed(tail))
    return before[before.rfind("\n") + 1:]


#: a list item's marker at the start of a line (its content starts after it)
_LIST_LEAD = re.compile(r"^[ \t]*(?:[*+-]|\d{1,9}[.)])[ \t]+")


def _helper_src(path: str) -> str:
    """A theme helper's ``image_path`` as the helper writes it: through ``relative_url``
    unless it holds ``://`` (Minimal Mistakes' ``figure``, ``gallery``, ``feature_row``), so
    ``assets/images/x.jpg`` is the site's ``/assets/images/x.jpg``, not a file beside the page."""
    path = path.strip()
    return path if not path or "://" in path or path.startswith(("/", "#", "data:")) else "/" + path


def _label_block(label: str, out: list[str]) -> str:
    """A plugin block's label as a paragraph of its own, written where the tag stands: at the
    indentation of its line, so that a callout inside a list step stays in that step (a step's
    ``   {% note %}Text{% endnote %}`` was closed by a label at column 0, and the code blocks after
    it read at the wrong depth); after a list marker on the same line, at that item's content. The
    block's text goes on at the same indentation."""
    before = _line_before(out)
    if before.strip():
        m = _LIST_LEAD.match(before)
        indent = " " * len(m.group(0).expandtabs(4)) if m else before[:len(before) - len(before.lstrip())]
    else:
        indent = before
    return "\n".join(label_lines(label, indent)) + "\n" + indent


def _fence(lang: str, body: str, lead: str) -> str:
    """A ``{% highlight lang %}`` block as a code fence whose closing fence is indented
    like the tag's line ``lead`` (a list step's indentation), so the fence stays in the
    step instead of the closing fence opening a new block that swallows the rest of the page."""
    marker = re.fullmatch(r"([ \t>]*)(?:[-*+]|\d+[.)])([ \t]+)", lead)
    prefix = lead if not lead.strip(" \t>") else \
        (marker.group(1) + " " * (len(lead) - len(marker.group(1))) if marker else "")
    return f"```{lang}\n{body.rstrip()}\n{prefix}```"


def _markdownify(text: str) -> str:
    """Jekyll's ``markdownify`` filter: the Markdown ``text`` as HTML (CommonMark, raw
    HTML kept), so a picture captured as Markdown and written inside ``<figure>``
    stays a picture."""
    from markdown_it import MarkdownIt

    from murar.ingest.mdlimits import add_bracket_guard

    md = MarkdownIt("commonmark", {"html": True})
    add_bracket_guard(md)  # unmatched [ made markdown-it quadratic
    return str(md.render(text)).strip()


#: Minimal Mistakes' ``video`` include: provider -> embed URL of the video ``id``
_VIDEO_EMBEDS = {"youtube": "https://www.youtube-nocookie.com/embed/{id}",
                 "vimeo": "https://player.vimeo.com/video/{id}?dnt=true",
                 "google-drive": "https://drive.google.com/file/d/{id}/preview",
                 "bilibili": "https://player.bilibili.com/player.html?bvid={id}"}


def _md_picture(src: str, alt: str, caption: str) -> str:
    alt = re.sub(r"\s+", " ", alt).replace("]", "\\]")
    caption = re.sub(r"<[^>]+>", "", caption).replace('"', '\\"').strip()
    title = f' "{caption}"' if caption else ""
    return f"![{alt}](<{src}>{title})"


_CALLOUT_IAL = re.compile(r"^(?P<lead>[ \t>]*)\{:\s*\.(?P<name>[\w-]+)[^}\n]*\}[ \t]*$")
_FENCE = re.compile(r"^[ \t>]*(```|~~~)")
# a line that is one whole HTML comment: a block of its own in kramdown and CommonMark
_COMMENT_LINE = re.compile(r"^[ \t>]*<!--.*-->[ \t]*$")
# an HTML block opening alone on its line whose class may name a callout (its Markdown content,
# set off by a blank line, follows: open_markdown_blocks)
_CALLOUT_DIV = re.compile(r"""^[ \t>]*<(?:div|aside|section|blockquote)\b[^<>]*?\bclass\s*=\s*["'](?P<cls>[^"'<>]*)["'][^<>]*>[ \t]*$""",
                          re.IGNORECASE)
#: callout classes labelled when ``_config.yml`` names none (the classes Jekyll themes style)
DEFAULT_CALLOUTS = {name: name.capitalize() for name in
                    ("note", "tip", "warning", "important", "caution", "info", "danger")}


#: Chirpy "Writing a New Post: Prompts" (``{: .prompt-tip }`` after a quote: a box with an icon and no title)
#: and Minimal Mistakes "Utility Classes: Notices" (``{: .notice--info}`` after a paragraph, or
#: ``<div class="notice--info">``): a coloured box without a title; labelled by its kind
NOTICE_CALLOUTS = {"prompt-tip": "Tip", "prompt-info": "Info", "prompt-warning": "Warning", "prompt-danger": "Danger",
                   "notice": "Note", "notice--primary": "Note", "notice--info": "Info",
                   "notice--warning": "Warning", "notice--success": "Success", "notice--danger": "Danger"}


def _callout_label(name: str, titles: dict[str, str]) -> str:
    name = name.lower()
    return titles[name] if name in titles else NOTICE_CALLOUTS.get(name, "")


def _classes_label(classes: list[str], titles: dict[str, str]) -> str:
    """The label of a block given ``classes``: of the last one that names a callout, the
    modifier after a base class (``note warning``, ``{: .note .info}``: Jekyll's docs style a
    ``note`` box as a warning or an info box by the class after it)."""
    return next((x for c in reversed(classes) if (x := _callout_label(c, titles))), "")


def callout_titles(variables: dict[str, str]) -> dict[str, str]:
    """Callout class -> label, from ``_config.yml`` ``callouts`` (just-the-docs
    "Callouts": the names are not predefined, each configured one has a ``color``
    and an optional ``title``; an untitled one gets no label) given as the
    flattened ``site.callouts.<name>.<key>`` ``variables``; without a ``callouts``
    setting, :data:`DEFAULT_CALLOUTS`. Never raises."""
    names = {key.split(".")[2] for key in variables if key.startswith("site.callouts.") and key.count(".") >= 3}
    if not names:
        return dict(DEFAULT_CALLOUTS)
    return {name: variables.get(f"site.callouts.{name}.title", "").strip() for name in sorted(names)}


def _quote_depth(line: str) -> int:
    lead = re.match(r"[ \t>]*", line)
    return lead.group(0).count(">") if lead else 0


def _quote_before(lines: list[str], i: int, depth: int) -> int | None:
    """The first line of the block quote (deeper than ``depth``) that ends right before line
    ``i``, its lazy continuation lines (written without ``>``) included; ``None`` when the
    block before ``i`` is not such a quote."""
    first = None
    j = i - 1
    while j >= 0 and lines[j].strip(" \t"):
        if _quote_depth(lines[j]) > depth:
            first = j
        elif first is not None or _CALLOUT_IAL.match(lines[j]) or _COMMENT_LINE.match(lines[j]):
            break  # a line above the quote, or an attribute list or comment ending another block
        j -= 1
    return first


def _is_title_line(line: str, label: str) -> bool:
    """True when ``line`` (after its quote markers) is ``label`` alone, bold or not, with or
    without a colon: a callout's title already written (``> **Important**``)."""
    words = line.lstrip(" \t>").strip().strip("*_").strip().rstrip(":").strip("*_").strip()
    return words.lower() == label.lower().rstrip(":")


# (the title's closing '#'s are cut by _atx_title: a lazy title before '(?:[ \t]+#+)?[ \t]*$' backtracked
# quadratically over a long run of spaces)
_ATX_HEADING = re.compile(r"^(?P<lead>[ \t>]*)#{1,6}[ \t]+(?P<title>.*)$")


def _atx_title(title: str) -> str:
    """An ATX heading's title without its closing sequence (``## Title ##``) and trailing blanks."""
    title = title.rstrip(" \t")
    bare = title.rstrip("#")
    if bare != title and bare[-1:] in (" ", "\t"):
        title = bare.rstrip(" \t")
    return title
#: the first child of an HTML callout box, opened at the start of the line after the box's tag
_HTML_FIRST_CHILD = re.compile(r"^[ \t>]*<(?P<tag>h[1-6]|p)(?:\s[^<>]*)?>", re.IGNORECASE)
_EMPTY_OPEN = re.compile(r"^[ \t>]*<(?P<tag>[A-Za-z][\w-]*)>[ \t]*$")


def _callout_div_content(lines: list[str], i: int) -> int | None:
    """The line of a callout HTML block's first Markdown content: the block opens alone on
    line ``i`` and its content is set off by blank lines (:func:`open_markdown_blocks` writes
    two); an empty element before it (``<div>`` then ``</div>``, shown as nothing) is passed
    over. ``None`` when the line after the opening tag is not blank or no content follows."""
    if i + 1 >= len(lines) or lines[i + 1].strip(" \t>"):
        return None
    j = i + 1
    while j < len(lines):
        while j < len(lines) and not lines[j].strip(" \t>"):
            j += 1
        empty = _EMPTY_OPEN.match(lines[j]) if j < len(lines) else None
        if not empty:
            break
        k = j + 1
        while k < len(lines) and not lines[k].strip(" \t>"):
            k += 1
        if k >= len(lines) or lines[k].lstrip(" \t>").rstrip().lower() != f"</{empty.group('tag').lower()}>":
            break
        j = k + 1
    return j if j < len(lines) else None


def label_callouts(text: str, titles: dict[str, str] | None = None) -> str:
    """Label the block a kramdown callout IAL names with the callout's title
    (``**Note:** ...``), the just-the-docs convention (``titles``: class -> label,
    :func:`callout_titles`; default :data:`DEFAULT_CALLOUTS`).

    kramdown ("Block IALs") applies a block IAL to the block right after it, or,
    written on the line right after a block, to that block; just-the-docs
    documents both places, also inside block quotes (``> {: .note }``); written after
    a block quote (outside it) it applies to the whole quote, labelled at its first
    line unless that line already is the title (``> **Important**``). A
    ``<name>-title`` callout takes its title from its first paragraph, which is
    already in the text, so it is not labelled; neither is a class without a
    title. Minimal Mistakes' notice classes (:data:`NOTICE_CALLOUTS`) are labelled
    by their kind unless configured otherwise. An HTML block alone on its line
    whose class is a callout (``<div class="notice--info" markdown="1">``), its
    Markdown content after a blank line, has that content's first line labelled; a heading
    opening that content is the box's title (Jekyll's own docs: ``<div class="note info"
    markdown="1">`` then ``##### Problems installing Jekyll?``), read as the bold label
    ``Note: Problems installing Jekyll?``, not a heading that made the box, and the page after
    it up to the next heading, a section of its own. A box of HTML alone (``<div class="note
    warning">`` then ``<h5>Title</h5>`` or ``<p>``: Jekyll's docs) has its title element, or its
    first paragraph, labelled. Of several callout classes the last names the kind
    (:func:`_classes_label`: ``{: .note .warning}`` is a warning). Code fences are left alone."""
    titles = DEFAULT_CALLOUTS if titles is None else titles
    lines = text.split("\n")
    in_fence = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        m = None if in_fence else _CALLOUT_IAL.match(line)
        label = _classes_label(re.findall(r"\.([\w-]+)", line), titles) if m else ""
        if not label and not in_fence:
            div = _CALLOUT_DIV.match(line)
            label = _classes_label(div.group("cls").split(), titles) if div else ""
            j = _callout_div_content(lines, i) if label else None
            heading = _ATX_HEADING.match(lines[j]) if j is not None else None
            if j is not None and heading:  # the box's title (Jekyll's docs: ``##### Problems installing?``)
                lines[j] = heading.group("lead") + f"**{admonition_label(label, _atx_title(heading.group('title')))}**"
            elif j is not None and not _FENCE.match(lines[j]) and not lines[j].lstrip(" \t>").startswith("<"):
                lead = re.match(r"[ \t>]*", lines[j])
                cut = lead.end() if lead else 0
                if not lines[j][cut:].startswith(callout_lead(label).rstrip()):
                    lines[j] = lines[j][:cut] + callout_lead(label) + lines[j][cut:]
            elif label and i + 1 < len(lines) and (first := _HTML_FIRST_CHILD.match(lines[i + 1])):
                # an HTML box (no Markdown in it): its title element, or its first paragraph, labelled
                shown = re.sub(r"<[^<>]*>", "", lines[i + 1][first.end():]).lstrip(" *_").lower()
                if shown.startswith(label.lower().rstrip(":")):
                    continue  # its own words already name it (<p><b>Note:</b> ...)
                if first.group("tag").lower() == "p":
                    mark = callout_lead(label, html_out=True)
                else:
                    mark = html.escape(admonition_label(label)) + " "
                lines[i + 1] = lines[i + 1][:first.end()] + mark + lines[i + 1][first.end():]
            continue
        if not label:
            continue
        depth = _quote_depth(line)
        prev = lines[i - 1] if i > 0 else ""
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if _COMMENT_LINE.match(prev):
            continue  # the attribute list belongs to the HTML comment block before it: nothing shown
        quote = _quote_before(lines, i, depth) if prev.strip(" \t>") else None
        if quote is not None:
            start = quote  # after a block quote (the IAL outside it): the whole quote, from its first line
            if _is_title_line(lines[start], label):
                continue  # the quote's own first line is already that title (``> **Important**``)
        elif prev.strip(" \t>") and _quote_depth(prev) >= depth and not _CALLOUT_IAL.match(prev):
            start = i - 1  # after a block: label that block's first line (an HTML comment line is a block)
            while start > 0 and lines[start - 1].strip(" \t>") and not _CALLOUT_IAL.match(lines[start - 1]) \
                    and not _COMMENT_LINE.match(lines[start - 1]):
                start -= 1
        elif nxt.strip(" \t>") and not _FENCE.match(nxt):
            start = i + 1  # before a block: label the block that follows
            while start + 1 < len(lines) and _CALLOUT_IAL.match(lines[start]):
                start += 1
            if not lines[start].strip(" \t>"):
                continue
        else:
            continue
        lead = re.match(r"[ \t>]*", lines[start])
        cut = lead.end() if lead else 0
        if not lines[start][cut:].startswith(callout_lead(label).rstrip()):
            lines[start] = lines[start][:cut] + callout_lead(label) + lines[start][cut:]
    return "\n".join(lines)


_MD_BLOCK_OPEN = re.compile(r"^(?P<lead>[ \t>]*)<(?P<tag>[A-Za-z][\w-]*)(?P<attrs>[^<>]*?)(?<=\S)\s+markdown\s*=\s*"
                            r"(?P<q>[\"']?)(?:1|block)(?P=q)(?P<rest>[^<>]*)>[ \t]*$")


_MD_ONE_LINE = re.compile(r"^(?P<lead>[ \t>]*)<(?P<tag>[A-Za-z][\w-]*)(?P<attrs>[^<>]*?)(?<=\S)\s+markdown\s*=\s*"
                          r"(?P<q>[\"']?)(?:1|block|span)(?P=q)(?P<rest>[^<>]*)>(?P<body>.*)</(?P=tag)\s*>[ \t]*$")


#: kramdown's block-level HTML elements whose content parse_block_html parses as Markdown
_KRAMDOWN_BLOCK_TAGS = frozenset({"div", "details", "section", "article", "aside", "header", "footer", "main", "nav",
                                  "figure", "blockquote", "fieldset", "form", "dl", "dd", "li", "td", "th",
                                  "noscript", "center"})
#: kramdown's block content model (``HTML_CONTENT_MODEL_BLOCK``) beyond the tags opened above
_KRAMDOWN_BLOCK_MODEL_TAGS = frozenset({"address", "applet", "body", "figcaption", "hgroup", "iframe", "map", "menu",
                                        "object", "summary"})
#: kramdown's span content model (``HTML_CONTENT_MODEL_SPAN``); an element in neither this nor the block
#: list has the raw content model: with parse_block_html its content, nested elements included, stays HTML
_KRAMDOWN_SPAN_MODEL_TAGS = frozenset({"a", "abbr", "acronym", "b", "bdo", "big", "button", "cite", "caption", "del",
                                       "dfn", "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "i", "ins", "label",
                                       "legend", "optgroup", "p", "q", "rb", "rbc", "rp", "rt", "rtc", "ruby",
                                       "select", "small", "span", "strong", "sub", "sup", "th", "tt"})
_PLAIN_BLOCK_OPEN = re.compile(r"^(?P<lead>[ \t>]*)<(?P<tag>[A-Za-z][\w-]*)(?P<attrs>(?:\s[^<>]*)?)>[ \t]*$")
_PARSE_BLOCK_OPTION = re.compile(r"\{::options\b[^}]*\bparse_block_html\s*=\s*[\"']?true", re.IGNORECASE)


def _block_open(line: str, all_blocks: bool) -> tuple[str, str, str] | None:
    """(lead, tag, attributes without ``markdown``) of a line opening an HTML block
    whose content is Markdown: ``markdown="1"``/``"block"``, or, with ``all_blocks``
    (kramdown ``parse_block_html``), any block-level element without ``markdown="0"``."""
    m = _MD_BLOCK_OPEN.match(line)
    if m is not None:
        return m.group("lead"), m.group("tag"), m.group("attrs") + m.group("rest")
    if all_blocks:
        p = _PLAIN_BLOCK_OPEN.match(line)
        if p and p.group("tag").lower() in _KRAMDOWN_BLOCK_TAGS and not re.search(r"\bmarkdown\s*=", p.group("attrs")):
            return p.group("lead"), p.group("tag"), p.group("attrs")
    return None


#: an element with kramdown's markdown attribute whose content starts on its opening line
_MD_OPEN_WITH_BODY = re.compile(r"^(?P<lead>[ \t>]*)<(?P<tag>[A-Za-z][\w-]*)(?P<attrs>[^<>]*?)(?<=\S)\s+markdown\s*=\s*"
                                r"(?P<q>[\"']?)(?:1|block|span)(?P=q)(?P<rest>[^<>]*)>(?P<body>.*)$")
#: lines an element opened with content on its line is followed to its closing tag at most
_SPREAD_LINES = 40


def _spread_element(lines: list[str], start: int) -> tuple[re.Match[str], int] | None:
    """An element with kramdown's ``markdown`` attribute opened with content on line
    ``start`` and closed on a later line (``<div markdown="span" class="alert">**Note:**
    first line`` ... ``last line.</div>``): the match of the element joined into one line
    (:data:`_MD_ONE_LINE`, its lines joined by spaces, as soft line breaks read) and the index of its
    closing line. Followed over at most :data:`_SPREAD_LINES` lines, never past a blank
    line, a code fence or a second opening of its tag; ``None`` otherwise."""
    m = _MD_OPEN_WITH_BODY.match(lines[start])
    if m is None or not m.group("body").strip():
        return None
    tag = m.group("tag")
    if re.search(rf"</?{tag}\b", m.group("body"), re.IGNORECASE):
        return None
    for j in range(start + 1, min(len(lines), start + 1 + _SPREAD_LINES)):
        nxt = lines[j]
        if not nxt.strip() or _FENCE.match(nxt) or re.search(rf"<{tag}\b", nxt, re.IGNORECASE):
            return None
        close = re.search(rf"</{tag}\s*>[ \t]*$", nxt, re.IGNORECASE)
        if close is None:
            continue
        if re.search(rf"</{tag}\b", nxt[:close.start()], re.IGNORECASE):
            return None
        body = " ".join(part.strip() for part in [m.group("body"), *lines[start + 1:j], nxt[:close.start()]])
        joined = _MD_ONE_LINE.match(f"{lines[start][:m.start('body')]}{body}</{tag}>")
        return (joined, j) if joined is not None else None
    return None


def _raw_model_end(lines: list[str], start: int, unclosed: set[str]) -> int | None:
    """The line closing the element opened at the start of ``lines[start]`` when that
    element has kramdown's raw content model (``HTML_CONTENT_MODEL`` defaults to
    ``:raw``: a ``<ul>``, ``<table>``, ``<video>``, not a block- or span-model one,
    nor one without a body) and is not given a ``markdown=`` attribute; ``None``
    otherwise, or when it does not close within the text (its tag is then added to
    ``unclosed`` and not followed again: linear)."""
    m = _RAW_HTML_OPEN.match(lines[start])
    if m is None:
        return None
    tag = m.group("tag").lower()
    if tag in _KRAMDOWN_BLOCK_TAGS or tag in _KRAMDOWN_BLOCK_MODEL_TAGS or tag in _KRAMDOWN_SPAN_MODEL_TAGS or tag in _KRAMDOWN_SPAN_TAGS \
            or tag in _NOT_JOINED_TAGS or tag in unclosed or re.search(r"\bmarkdown\s*=", m.group("rest")):
        return None
    depth = 0
    for n in range(start, len(lines)):
        if n > start and re.search(r"<[A-Za-z][^<>]*\smarkdown\s*=", lines[n]):
            return None  # a child given markdown= is parsed as Markdown (a <td markdown="1">): opened as before
        for ev in re.finditer(rf"<(/?){tag}(?=[\s/>]|$)", lines[n], re.IGNORECASE):
            depth += -1 if ev.group(1) else 1
        if depth <= 0:
            return n if n > start else None  # a one-line element: handled as any nested one
    unclosed.add(tag)
    return None


def open_markdown_blocks(text: str, *, parse_block_html: bool = False) -> str:
    """kramdown's ``markdown="1"``/``markdown="block"`` HTML blocks (kramdown syntax,
    "HTML Blocks": the element's content is parsed as Markdown), written with the
    opening tag alone on its line (``<div class="code-example" markdown="1">``,
    in a quote too), made CommonMark: the attribute is dropped and the content is
    set off by blank lines from the opening tag and from the matching closing tag
    (and from a nested element's closing tag), so its images, emphasis and lists
    parse. An element with such an attribute (``"span"`` too) written whole on one
    line (``<div markdown="span" class="alert">**Note:** ...</div>``, the
    documentation-theme-jekyll alert includes), or opened with content on its line
    and closed on a later one (an include's ``content=`` holding a line break), gets
    its content on a line of its own the same way. With ``parse_block_html`` (kramdown option, set in
    ``_config.yml`` ``kramdown:`` or by ``{::options parse_block_html="true" /}``)
    every block-level element alone on its line is read so, unless it says
    ``markdown="0"``, and an element of kramdown's raw content model (a ``<ul>`` of
    tabs, a ``<table>``) is kept whole, blank lines dropped, nothing inside it opened
    (kramdown "HTML Blocks": a raw element's children are raw too). Other HTML is left
    alone; code fences are skipped."""
    if "markdown" not in text and not parse_block_html:
        return text
    lines = text.split("\n")
    out: list[str] = []
    closers: list[tuple[str, int]] = []  # (tag, depth of that tag still open) of each open block
    in_fence = False
    raw_end = -1  # last line of the raw-content-model element being copied (parse_block_html)
    in_pre = 0
    unclosed: set[str] = set()
    i = -1
    while i + 1 < len(lines):
        i += 1
        line = lines[i]
        if i <= raw_end:
            if line.strip():
                out.append(line)
                in_pre = pre_depth(line, in_pre)
            elif in_pre:
                out.append(BLANK_PRE_LINE)
            if i == raw_end:  # kramdown parses the Markdown after it; CommonMark would keep it in the block
                prefix = re.match(r"[ \t>]*", line)
                out.append(prefix.group(0).rstrip() if prefix else "")
            continue
        if parse_block_html and not in_fence and (end := _raw_model_end(lines, i, unclosed)) is not None:
            raw_end, in_pre = end, pre_depth(line, 0)
            out.append(line)
            continue
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line)
            continue
        if in_fence:
            out.append(line)
            continue
        one = _MD_ONE_LINE.match(line)
        if one is None and (spread := _spread_element(lines, i)) is not None:
            # the element's content runs on to a later line (an include's content= holding a line break)
            one, i = spread
        if one is not None and one.group("body").strip():
            lead, blank = one.group("lead"), one.group("lead").rstrip()
            out.extend([f"{lead}<{one.group('tag')}{one.group('attrs')}{one.group('rest')}>", blank,
                        lead + one.group("body").strip(), blank, f"{lead}</{one.group('tag')}>"])
            continue
        m = _block_open(line, parse_block_html)
        if closers:
            tag, depth = closers[-1]
            depth += len(re.findall(rf"<{tag}\b", line, re.IGNORECASE))
            closes = len(re.findall(rf"</{tag}\s*>", line, re.IGNORECASE))
            if m is None and depth - closes < 0 and re.fullmatch(rf"[ \t>]*</{tag}\s*>[ \t]*", line,
                                                                             re.IGNORECASE):
                closers.pop()
                lead = re.match(r"[ \t>]*", line)
                out.extend([lead.group(0).rstrip() if lead else "", line])
                continue
            closers[-1] = (tag, depth - closes)
            if m is None and re.fullmatch(r"[ \t>]*(?:<(?P<t>[A-Za-z][\w-]*)\b[^<>]*>.*)?</(?(t)(?P=t)|[A-Za-z][\w-]*)"
                                          r"\s*>[ \t]*", line):
                # kramdown parses the Markdown after a nested HTML element (a closing tag, or a
                # whole one-line element such as <summary>..</summary>); CommonMark would keep
                # it in that element's HTML block up to a blank line
                lead = re.match(r"[ \t>]*", line)
                out.extend([line, lead.group(0).rstrip() if lead else ""])
                continue
        if m is not None:
            lead, tag_name, attrs = m
            if closers:
                closers[-1] = (closers[-1][0], closers[-1][1] - 1) if closers[-1][0] == tag_name else closers[-1]
            out.extend([f"{lead}<{tag_name}{attrs}>", lead.rstrip()])
            closers.append((tag_name, 0))
            continue
        out.append(line)
    return "\n".join(out)


#: kramdown's span-level HTML elements (kramdown ``Parser::Html::Constants::HTML_SPAN_ELEMENTS``): a line
#: opening one of these starts a paragraph; any other element opens a raw HTML block
_KRAMDOWN_SPAN_TAGS = frozenset({"a", "abbr", "acronym", "b", "big", "bdo", "br", "button", "cite", "code", "del",
                                 "dfn", "em", "i", "img", "input", "ins", "kbd", "label", "mark", "option", "q", "rb",
                                 "rbc", "rp", "rt", "rtc", "ruby", "samp", "select", "small", "span", "strong", "sub",
                                 "sup", "textarea", "tt", "u", "var"})
#: elements without a body (``HTML_ELEMENTS_WITHOUT_BODY``), and those CommonMark already ends at their
#: closing tag (``pre``, ``script``, ``style``, ``textarea``: their blank lines are content)
_NOT_JOINED_TAGS = frozenset({"area", "base", "br", "col", "command", "embed", "hr", "img", "input", "keygen", "link",
                              "meta", "param", "source", "track", "wbr", "pre", "script", "style", "textarea"})
_RAW_HTML_OPEN = re.compile(r"^ {0,3}<(?P<tag>[A-Za-z][\w-]*)(?=[\s/>]|$)(?P<rest>[^\n]*)$")
_HTML_TAG_EVENT = re.compile(r"<(/?)([A-Za-z][\w-]*)(?=[\s/>]|$)")


def join_html_blocks(text: str) -> str:
    """kramdown "HTML Blocks": an element opened at the start of a line that is not a
    span element (``<div>``, ``<table>``, ``<p>``, ``<video>``, ``<figure>``, a custom
    element; without ``markdown=``) is raw HTML up to its matching closing tag, blank
    lines included (kramdown's parser reads it raw unless ``parse_block_html`` is on),
    where CommonMark ends the HTML block at the first blank line and reads the rest as
    Markdown (indented rows become a code block, the lines after a blank line inside a
    ``<p>`` leak as text). Blank lines inside such an element are dropped so it stays
    one HTML block; one inside a ``<pre>`` of it (a ``<details>`` of command output) is
    content, shown as an empty line: it becomes an empty ``<span>``. An element whose
    closing tag does not follow is left alone (and so is every later one of that name).
    Linear: the tags of each name are counted once."""
    if "<" not in text:
        return text
    lines = text.split("\n")
    events: dict[str, tuple[list[int], list[int]]] = {}  # tag -> (line numbers, running depth after each)
    for n, line in enumerate(lines):
        if "<" not in line:
            continue
        for ev in _HTML_TAG_EVENT.finditer(line):
            tag = ev.group(2).lower()
            if tag in _KRAMDOWN_SPAN_TAGS or tag in _NOT_JOINED_TAGS:
                continue
            rows, depth = events.setdefault(tag, ([], []))
            step = -1 if ev.group(1) else 1
            if rows and rows[-1] == n:
                depth[-1] += step
            else:
                rows.append(n)
                depth.append((depth[-1] if depth else 0) + step)
    out: list[str] = []
    unbalanced: set[str] = set()
    i = 0
    while i < len(lines):
        m = _RAW_HTML_OPEN.match(lines[i])
        tag = m.group("tag").lower() if m else ""
        if not m or tag not in events or tag in unbalanced or re.search(r"\bmarkdown\s*=", m.group("rest")):
            out.append(lines[i])
            i += 1
            continue
        rows, depth = events[tag]
        k = bisect.bisect_left(rows, i)
        base = depth[k - 1] if k else 0
        j = next((rows[x] for x in range(k, len(rows)) if depth[x] - base <= 0), None)
        if j is None:
            unbalanced.add(tag)
            out.append(lines[i])
            i += 1
            continue
        in_pre = 0  # open <pre> elements: their blank lines are content, shown as empty lines
        for line in lines[i:j + 1]:
            if line.strip():
                out.append(line)
                in_pre = pre_depth(line, in_pre)
            elif in_pre:
                out.append(BLANK_PRE_LINE)
        i = j + 1
    return "\n".join(out)


def strip_kramdown(text: str, callouts: dict[str, str] | None = None, *, parse_block_html: bool = False,
                   html_blocks: bool = True) -> str:
    """Keep raw HTML block elements whole (:func:`join_html_blocks`, unless
    ``parse_block_html``), open ``markdown="1"`` HTML blocks (:func:`open_markdown_blocks`; every block
    element with ``parse_block_html``, from ``_config.yml`` or the page's
    ``{::options parse_block_html="true" /}``), label callout
    paragraphs (:func:`label_callouts` with ``callouts``), drop the list a ``{:toc}``
    IAL turns into the generated table of contents and abbreviation definition lines
    (``*[HTML]: ...``, kramdown), then remove
    kramdown inline attribute lists (``{: .note }`` lines, in block quotes too,
    ``{:.cls}`` after a span) and extension markers (``{::comment}...{:/comment}``,
    ``{::nomarkdown}``) outside fenced code. ``html_blocks=False`` (a site whose
    Markdown converter is CommonMark, not kramdown) leaves HTML blocks to CommonMark's
    rules: no joining, no ``markdown="1"``."""
    all_blocks = parse_block_html or _PARSE_BLOCK_OPTION.search(text) is not None
    if html_blocks and not all_blocks:
        text = outside_fences(text, join_html_blocks)
    if html_blocks:
        text = open_markdown_blocks(text, parse_block_html=all_blocks)
        text = outside_fences(text, _drop_leading_breaks)
    text = label_callouts(text, callouts)
    return outside_fences(text, _strip_attribute_lists)


#: a line of nothing but ``<br>`` tags (in a quote too)
_BREAK_LINE = re.compile(r"^[ \t>]*(?:<br\s*/?>[ \t]*)+$", re.IGNORECASE)


def _drop_leading_breaks(text: str) -> str:
    """Drop a line of only ``<br>`` tags that opens a block (after a blank line) with text
    right after it. kramdown reads ``<br>`` (a span element) as the start of a paragraph,
    the lines after it Markdown (a list, a code block in a step); CommonMark reads a lone tag
    line as an HTML block that keeps every line up to the next blank one raw (Docker's docs:
    a tab pane's ``<br>`` then a numbered step with a PowerShell block read as one run of
    text with its fences). A break at a block's start shows nothing but space."""
    lines = text.split("\n")
    keep = [line for i, line in enumerate(lines)
            if not (_BREAK_LINE.match(line) and (i == 0 or not lines[i - 1].strip(" \t>"))
                    and i + 1 < len(lines) and lines[i + 1].strip(" \t>"))]
    return "\n".join(keep) if len(keep) < len(lines) else text


def _strip_attribute_lists(text: str) -> str:
    text = _TOC_LIST.sub("", text)
    text = _ABBREVIATION.sub("", text)
    text = _IAL_LINE.sub("", text)
    text = _QUOTED_IAL_LINE.sub(lambda m: m.group("lead").rstrip(), text)
    text = _strip_span_attributes(text)
    return _KRAMDOWN_EXT.sub("", sub_closed(_KRAMDOWN_COMMENT, _KRAMDOWN_COMMENT_END, lambda _: "", text))


def load(root: Path, config_file: str | None = None) -> JekyllSite:
    """A :class:`JekyllSite` for the site at ``root`` (``config_file``: the
    ``_config.yml`` found, posix, relative to ``root``).

    Raises:
        ConfigError: the config is not valid YAML.
    """
    config, collections, variables, defaults, site_object = load_config(root, config_file)
    return JekyllSite(config, collections, variables, defaults, site_object)
