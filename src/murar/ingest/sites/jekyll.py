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
  an ``.html`` file without front matter is a static file, not a page.
- Liquid (:meth:`JekyllSite.render_liquid`): ``{% raw %}`` kept literal,
  ``{% comment %}`` removed, ``{% include x %}`` / ``{% include_relative x %}``
  (and the jekyll-include-cache plugin's ``{% include_cached x %}``, the same
  include rendered once) inlined at their place with their ``include.*`` parameters,
  ``{% highlight %}`` a code fence, ``{{ site.* }}`` (``site.data.*`` from the
  ``_data`` files, :func:`load_data_tree`)/``{{ page.* }}``/``include.*``
  and assigned variables substituted with the ``relative_url``,
  ``absolute_url``, ``prepend``, ``append``, ``default`` and ``markdownify``
  filters and Liquid's string filters (``remove``, ``replace``, ``strip`` ...); every
  other tag is dropped and its content kept (``{% if %}``/``{% unless %}``/
  ``{% case %}`` keep only the branch Liquid renders when every variable in the
  condition is known: config, front matter, include parameters, assignments;
  ``{% for x in list %}`` repeats its body for each item of a list that is known:
  ``site.data.*``, the config, ``page.*`` front matter, include parameters,
  ranges, with ``limit``/``offset``/``reversed`` and ``forloop.*``, bounded per
  page; ``{% post_url name %}`` gives the post's path, as ``{% link %}`` does),
  except tab plugins' ``{% tabs %}``/
  ``{% tab label %}``/``{% endtabs %}``, which become tab-set markers. Nothing is evaluated that would
  need Ruby; no path is guessed.
- kramdown inline attribute lists (``{: .note }`` lines, ``{:.class}`` after an
  image) and ``{::comment}`` blocks are removed.
"""

from __future__ import annotations

import csv
import io
import json
import posixpath
import re
from collections import ChainMap
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from murar.errors import ConfigError
from murar.ingest.frontmatter import MAX_DEPTH, FrontMatterError, load_yaml_safely
from murar.ingest.markup.builder import read_include
from murar.ingest.markup.mdtext import callout_lead, label_lines
from murar.ingest.markup.tabs import set_close, set_open, tab_start
from murar.ingest.paths import ResolvedLink, inside_root, is_remote
from murar.ingest.sites._common import (
    ASSET_SUFFIXES,
    IMAGE_SUFFIXES,
    VIDEO_SUFFIXES,
    glob_match,
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
_MAX_VALUE_CHARS = 100_000
_MAX_RENDERED_CHARS = 5_000_000
#: loop iterations of one page (all loops, nested ones included) and items of one loop
_MAX_LOOP_ITEMS = 2_000
_MAX_LOOP_LENGTH = 500


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
    Never raises."""
    folder = config_path.parent
    if (folder / "_toc.yml").is_file() or (folder / "_toc.yaml").is_file():
        return False
    try:
        keys = set(load_data_file(config_path))
    except (OSError, ValueError):
        return False
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
            raise ConfigError(f"Jekyll config {one}: {err}") from err
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

# block tags, each with the pattern of its closing tag (see sub_closed)
_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.DOTALL)
_RAW_END = re.compile(r"\{%-?\s*endraw\s*-?%\}")
_COMMENT = re.compile(r"\{%-?\s*comment\s*-?%\}.*?\{%-?\s*endcomment\s*-?%\}", re.DOTALL)
_COMMENT_END = re.compile(r"\{%-?\s*endcomment\s*-?%\}")
_HIGHLIGHT = re.compile(r"\{%-?\s*highlight\s+([\w+#-]+)[^%]*-?%\}\n?(.*?)\{%-?\s*endhighlight\s*-?%\}", re.DOTALL)
_HIGHLIGHT_END = re.compile(r"\{%-?\s*endhighlight\s*-?%\}")
_CAPTURE = re.compile(r"\{%-?\s*capture\s+([\w.-]+)\s*-?%\}(.*?)\{%-?\s*endcapture\s*-?%\}", re.DOTALL)
_CAPTURE_END = re.compile(r"\{%-?\s*endcapture\s*-?%\}")
_TOKEN = re.compile(r"\{%-?\s*(?P<tag>\w+)(?P<tagargs>.*?)-?%\}|\{\{-?(?P<expr>.*?)-?\}\}", re.DOTALL)
_INCLUDE_TARGET = re.compile(r"((?:\{\{.*?\}\}|[^\s{])+)(.*)$", re.DOTALL)
_PARAM = re.compile(r"""([\w-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"']+)""")
_STRING = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)')\s*$""")
_IAL_LINE = re.compile(r"^[ \t]*\{:(?!:)[^}\n]*\}[ \t]*$\n?", re.MULTILINE)
# kramdown "Automatic Table of Contents Generation": a one-item list with the IAL {:toc} is replaced by the TOC
_TOC_LIST = re.compile(r"^[ \t]*(?:[*+-]|\d+[.)])[ \t]+[^\n]*\n[ \t]*\{:\s*toc\s*\}[ \t]*$\n?", re.MULTILINE)
# kramdown "Abbreviations": a definition line "*[HTML]: Hyper Text Markup Language" is not output
_ABBREVIATION = re.compile(r"^[ \t]{0,3}\*\[[^\]\n]+\]:[^\n]*$\n?", re.MULTILINE)
_QUOTED_IAL_LINE = re.compile(r"^(?P<lead>[ \t]*>[ \t>]*)\{:(?!:)[^}\n]*\}[ \t]*$", re.MULTILINE)
_IAL_SPAN = re.compile(r"(?<=[)\]*_`>])\{:(?!:)[^}\n]*\}")
# ([^{}], not [^}]: "{::a" 20,000 times made each marker scan to the end of the text)
_KRAMDOWN_EXT = re.compile(r"\{::(\w+)[^{}]*?/\}|\{::(\w+)[^{}]*\}|\{:/(\w+)?\}")
_KRAMDOWN_COMMENT = re.compile(r"\{::comment\}.*?\{:/comment\}", re.DOTALL)
_KRAMDOWN_COMMENT_END = re.compile(r"\{:/comment\}")
_HIDDEN_OPEN = re.compile(r"<(\w+)\b[^>]*\s(?:hidden|aria-hidden=\"true\")[^>]*>", re.IGNORECASE)


@dataclass(slots=True)
class _Scope:
    """Variables visible to Liquid while rendering one page (and its includes)."""

    values: MutableMapping[str, str]
    meta: dict[str, Any] = field(default_factory=dict)  # the page's front matter (lists included)
    # what the page may still include (files, characters) and render (characters); shared with its includes
    # and whether a too deep include is still to be warned about; the loop iterations left
    left: list[int] = field(default_factory=lambda: [_MAX_INCLUDES, _MAX_INCLUDED_CHARS, _MAX_RENDERED_CHARS, 1,
                                                     _MAX_LOOP_ITEMS])
    # structured values by name: "site" (config and data), "page" (front matter), "include"
    # (the include's parameters), loop variables
    objects: dict[str, Any] = field(default_factory=dict)

    def lookup(self, name: str) -> str:
        return self.values.get(name.strip(), "")


class JekyllSite:
    """A Jekyll site (see module doc). The constructor does no I/O."""

    def __init__(self, config: SiteConfig, collections: tuple[Collection, ...] = (),
                 variables: dict[str, str] | None = None, defaults: tuple[FrontMatterDefault, ...] = (),
                 site_object: dict[str, Any] | None = None) -> None:
        self._config = config
        self._site_object = dict(site_object or {})
        self._collections = collections
        self._defaults = defaults
        self._variables = dict(variables or {})
        self._root = config.root
        self._source = config.content_dirs[0] if config.content_dirs else "."
        self._callouts = callout_titles(self._variables)
        self._parse_block_html = self._variables.get("site.kramdown.parse_block_html") == "true"
        self._url_folders: dict[str, str | None] = {}

    @property
    def config(self) -> SiteConfig:
        return self._config

    @property
    def collections(self) -> tuple[Collection, ...]:
        return self._collections

    # -------------------------------------------------------------- classify
    def _inner(self, rel: str) -> str | None:
        if not is_within(rel, self._source):
            return None
        return rel[len(self._source) + 1:] if self._source not in (".", "") else rel

    def classify(self, rel: str) -> FileClass:
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
        collection = next((c for c in self._collections if is_within(rel, c.folder)), None)
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
        return FileClass(role=FileRole.PAGE, markup=markup)

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
        collection = next((c for c in self._collections if is_within(rel, c.folder)), None)
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
        return own_host_path(self._config.settings.get("url", ""), link)

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Root-relative links (``baseurl`` removed) from the source folder, or from
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
        """The URL folder (no leading/trailing ``/``) of a page with a literal
        ``permalink`` (front matter or ``defaults``); ``None`` without one or when it
        holds ``:placeholders``. Read once per page."""
        if page_rel not in self._url_folders:
            folder: str | None = None
            permalink = self.page_meta(page_rel, self._front(page_rel)[0]).get("permalink")
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
        """Liquid rendered as far as a static reader can (see module doc) and kramdown
        attribute lists removed; front matter kept. Problems go to ``warnings``.
        Never raises."""
        sink = warnings if warnings is not None else []
        meta, body, _ = split_front_matter(text)
        head = text[: len(text) - len(body)]
        values = dict(self._variables)
        page_vars: dict[str, str] = {}
        meta = self.page_meta(page_rel, meta)
        _flatten("page", meta, page_vars)
        values.update(page_vars)
        values["jekyll.environment"] = "production"
        scope = _Scope(values, meta, objects={"site": self._site_object, "page": meta})
        body = self.render_liquid(body, page_rel=page_rel, file_rel=page_rel, scope=scope, warnings=sink, depth=0)
        return head + strip_kramdown(body, self._callouts, parse_block_html=self._parse_block_html)

    def render_liquid(self, text: str, *, page_rel: str, file_rel: str, scope: _Scope, warnings: list[str],
                      depth: int) -> str:
        """Render the Liquid of ``text`` (written in ``file_rel``, shown on ``page_rel``)."""
        raws: list[str] = []
        key = id(raws)

        def keep_text(kept: str) -> str:
            raws.append(kept)
            return f"\x00RAW{key}-{len(raws) - 1}\x00"

        def keep_raw(m: re.Match[str]) -> str:
            return keep_text(m.group(1))

        text = sub_closed(_RAW, _RAW_END, keep_raw, text)
        text = sub_closed(_COMMENT, _COMMENT_END, lambda _: "", text)
        text = sub_closed(_HIGHLIGHT, _HIGHLIGHT_END, lambda m: _fence(m, text), text)
        if "{%" in text and "for" in text:
            # each rendered loop is kept like a raw block: its output is not read as Liquid again
            text = self._loops(text, lambda body, inner: keep_text(self.render_liquid(
                body, page_rel=page_rel, file_rel=file_rel, scope=inner, warnings=warnings, depth=depth)), scope,
                               warnings, file_rel)

        captures: list[tuple[str, str]] = []
        mark = f"murarcapture{key}"  # a tag name of this call only: where a capture stood

        def capture(m: re.Match[str]) -> str:
            # rendered where it stands, in the tag loop: a page that captures "example" before each of
            # its includes shows each capture once, not the last one everywhere
            captures.append((m.group(1), m.group(2)))
            return f"{{% {mark} {len(captures) - 1} %}}"

        def restore(rendered: str) -> str:
            # the text may hold "\x00RAW7\x00" itself: only the numbers handed out here are put back (a
            # capture's own rendering leaves this call's marks for this call)
            return re.sub(f"\x00RAW{key}-(\\d{{1,9}})\x00", lambda r: raws[int(r.group(1))]
                          if int(r.group(1)) < len(raws) else r.group(0), rendered)

        text = _conditionals(text, scope)
        text = sub_closed(_CAPTURE, _CAPTURE_END, capture, text)
        out: list[str] = []
        pos = 0
        for m in _tokens(text):
            out.append(text[pos:m.start()])
            pos = m.end()
            if scope.left[2] <= 0:
                break
            if m.group("expr") is not None:
                value = self._expression(m.group("expr"), scope)
                scope.left[2] -= len(value)
                out.append(value)
                continue
            tag, args = m.group("tag"), m.group("tagargs").strip()
            if tag in ("include", "include_relative", "include_cached"):  # include_cached: jekyll-include-cache
                out.append(self._include(tag, args, page_rel=page_rel, file_rel=file_rel, scope=scope,
                                         warnings=warnings, depth=depth))
            elif tag == mark and args.isdigit() and int(args) < len(captures):
                name, body = captures[int(args)]
                scope.values[name] = restore(self.render_liquid(body, page_rel=page_rel, file_rel=file_rel,
                                                                scope=scope, warnings=warnings,
                                                                depth=depth)).strip()[:_MAX_VALUE_CHARS]
            elif tag == "assign":
                name, _, expr = args.partition("=")
                scope.values[name.strip()] = self._expression(expr, scope)[:_MAX_VALUE_CHARS]
            elif tag in ("link", "post_url"):
                # Jekyll "Links": the path may hold Liquid variables ({% link {{ page.dir }}/a.md %})
                args = re.sub(r"\{\{-?(.*?)-?\}\}", lambda v: self._expression(v.group(1), scope), args)
                out.append("/" + args.strip().strip("'\"").lstrip("/") if tag == "link" else self._post_url(args))
            elif tag in ("tabs", "tab", "endtabs"):
                out.append(_tab_marker(tag, args, scope))
            # every other tag (if/for/unless/case/when/else/end*, plugin tags) is dropped
        if scope.left[2] <= 0:
            if scope.left[2] > -_MAX_RENDERED_CHARS * 10:  # one warning for the page
                warnings.append(f"{file_rel}: Liquid output over {_MAX_RENDERED_CHARS} characters; the rest is cut")
            scope.left[2] = -_MAX_RENDERED_CHARS * 10
        else:
            out.append(text[pos:])
        return restore("".join(out))

    def _loops(self, text: str, render: Callable[[str, _Scope], str], scope: _Scope, warnings: list[str],
               file_rel: str) -> str:
        """``{% for x in list %}...{% else %}...{% endfor %}`` over a list whose value is
        known (:func:`_object`: the data files, the config, the page's front matter, an
        include parameter, an outer loop's item, a ``(1..n)`` range) rendered once per
        item with ``render(body, scope)``, the item as ``x`` and ``forloop.index``/
        ``index0``/``rindex``/``rindex0``/``first``/``last``/``length`` set; ``offset:``,
        ``limit:`` and ``reversed`` as Liquid applies them (slice, then reverse); an
        empty list renders the ``else`` branch. A loop over anything else keeps its body
        once (its tags are dropped later), with the loops inside it expanded. At most
        :data:`_MAX_LOOP_LENGTH` items a loop and :data:`_MAX_LOOP_ITEMS` iterations a
        page (nested ones counted), with one warning when cut."""
        out: list[str] = []
        pos = 0
        for head, other, end in _loop_blocks(text):
            out.append(text[pos:head.start()])
            pos = end.end()
            m = _FOR_ARGS.match(head.group(2))
            items = _object(m.group(2), scope) if m else None
            if not isinstance(items, list):
                out.append(text[head.start():end.end()] if "for" not in text[head.end():end.start()] else
                           head.group(0) + self._loops(text[head.end():end.start()], render, scope, warnings,
                                                       file_rel) + end.group(0))
                continue
            assert m is not None
            loop_body = text[head.end():(other.start() if other else end.start())]
            params = dict(re.findall(r"(limit|offset)\s*:\s*([\w.-]+)", m.group(3)))
            first = _int_operand(params.get("offset"), scope, 0)
            count = _int_operand(params.get("limit"), scope, len(items))
            items = items[first:first + count]
            if re.search(r"\breversed\b", m.group(3)):
                items = items[::-1]
            if not items:
                out.append(render(text[other.end():end.start()], scope) if other else "")
                continue
            length = len(items)
            for index, item in enumerate(items[:_MAX_LOOP_LENGTH]):
                if scope.left[4] <= 0 or scope.left[2] <= 0:
                    if scope.left[4] == 0:
                        warnings.append(f"{file_rel}: Liquid loops over {_MAX_LOOP_ITEMS} iterations on the page;"
                                        f" the rest is left out")
                        scope.left[4] = -1
                    break
                scope.left[4] -= 1
                layer: dict[str, str] = {}
                _flatten(m.group(1), item, layer)
                loop = {"index": index + 1, "index0": index, "rindex": length - index, "rindex0": length - index - 1,
                        "first": index == 0, "last": index == length - 1, "length": length}
                _flatten("forloop", loop, layer)
                inner = _Scope(ChainMap(layer, scope.values), scope.meta, scope.left,
                               {**scope.objects, m.group(1): item, "forloop": loop})
                rendered = render(loop_body, inner)
                scope.left[2] -= len(rendered)
                out.append(rendered)
        out.append(text[pos:])
        return "".join(out)

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

    def _expression(self, expr: str, scope: _Scope) -> str:
        parts = [p.strip() for p in _split_filters(expr)]
        if not parts or not parts[0]:
            return ""
        value = _literal(parts[0])
        if value is None:
            value = scope.lookup(parts[0])
        for flt in parts[1:]:
            name, _, arg = flt.partition(":")
            name = name.strip()
            args = [a if (a := _literal(x)) is not None else scope.lookup(x) for x in _split_args(arg)] if arg else []
            argv = args[0] if args else None
            if name in _STRING_FILTERS:
                value = _STRING_FILTERS[name](value, args)
            elif name == "markdownify":
                value = _markdownify(value)
            elif name == "relative_url":
                value = self._relative_url(value)
            elif name == "absolute_url":
                value = self._config.settings.get("url", "").rstrip("/") + self._relative_url(value)
            elif name == "prepend":
                value = (argv or "") + value
            elif name == "append":
                value = value + (argv or "")
            elif name == "default" and not value:
                value = argv or ""
        return value

    def _theme_include(self, target: str, params_text: str, scope: _Scope) -> str:
        """An include that is not in the repository (a remote theme's helpers, as
        Minimal Mistakes documents them in "Helpers"): a parameter that is an image
        path keeps that picture with its ``alt``/``caption``/``title`` (``figure``);
        ``provider`` + ``id`` keep the embedded video (``video``: youtube, vimeo,
        google-drive, bilibili); a front matter list named by the ``id`` parameter
        or by the include's name whose entries have an ``image_path`` keeps those
        pictures (``gallery``, ``feature_row``), with the ``caption`` parameter
        after them; otherwise nothing."""
        params: dict[str, str] = {}
        for m in _PARAM.finditer(params_text):
            value = _literal(m.group(2))
            params[m.group(1).lower()] = value if value is not None else scope.lookup(m.group(2))
        src = next((v for v in params.values() if suffix_of(split_link(v)[0]) in IMAGE_SUFFIXES), "")
        if src:
            return _md_picture(src, params.get("alt") or params.get("caption") or "",
                               params.get("caption") or params.get("title") or "")
        embed = _VIDEO_EMBEDS.get(params.get("provider", "").lower())
        if embed and re.fullmatch(r"[\w-]+(?:\?[\w=&-]*)?", params.get("id", "")):
            return f'\n<iframe src="{embed.format(id=params["id"])}"></iframe>\n'
        items = scope.meta.get(params.get("id") or posixpath.splitext(posixpath.basename(target))[0])
        pictures = [_md_picture(str(it["image_path"]), str(it.get("alt") or ""),
                                str(it.get("title") or it.get("image_caption") or ""))
                    for it in (items if isinstance(items, list) else [])
                    if isinstance(it, dict) and isinstance(it.get("image_path"), str) and it["image_path"].strip()]
        if not pictures:
            return ""
        caption = re.sub(r"<[^>]+>", "", params.get("caption", "")).strip()
        return "\n\n" + "\n\n".join(pictures + ([caption] if caption else [])) + "\n\n"

    def _relative_url(self, value: str) -> str:
        if is_remote(value):
            return value
        base = self._config.settings.get("baseurl", "").strip("/")
        path = "/" + value.lstrip("/")
        return f"/{base}{path}" if base else path

    def _include(self, tag: str, args: str, *, page_rel: str, file_rel: str, scope: _Scope, warnings: list[str],
                 depth: int) -> str:
        # the file name: a literal, or built from {{ variables }} (Jekyll "Includes": "Using
        # variables names for the include file"), up to the first blank outside {{ }}
        m = _INCLUDE_TARGET.match(args.strip())
        target_expr, params_text = (m.group(1), m.group(2)) if m else ("", args)
        if "{{" in target_expr:
            # (a variable that is set but empty is known: the name is then built without it)
            unknown = [v.group(1).strip() for v in re.finditer(r"\{\{-?(.*?)-?\}\}", target_expr)
                       if not self._expression(v.group(1), scope)
                       and (name := _split_filters(v.group(1))[0].strip()) not in scope.values
                       and _literal(name) is None]
            if unknown:  # a variable a plugin sets (page.version.version): the file cannot be named
                warnings.append(f"{{% {tag} {target_expr} %}}: {unknown[0]} is not known here (a plugin's"
                                f" variable?); not included")
                return ""
            target = re.sub(r"\{\{-?(.*?)-?\}\}", lambda v: self._expression(v.group(1), scope), target_expr)
        else:
            target = _literal(target_expr) or target_expr
        if tag == "include_relative":
            res = lookup(self._root, [safe_join(posixpath.dirname(file_rel), target)], link=target)
        else:
            res = self.resolve_include(target, page_rel=file_rel)
        if res.rel_path is None or res.problem:
            warnings.append(f"{{% {tag} {target} %}}: {res.problem or 'not found'}")
            return self._theme_include(target, params_text, scope)
        if depth >= _MAX_INCLUDE_DEPTH:
            if scope.left[3]:  # one warning for the page
                warnings.append(f"{{% {tag} {target} %}}: nesting deeper than {_MAX_INCLUDE_DEPTH} (not included,"
                                f" nor the other includes that deep)")
            scope.left[3] = 0
            return ""
        if scope.left[0] <= 0 or scope.left[1] <= 0:
            if scope.left[0] >= 0:  # one warning for the rest of the page
                warnings.append(f"{{% {tag} {target} %}} and the later includes skipped: the page is over"
                                f" {_MAX_INCLUDES} includes or {_MAX_INCLUDED_CHARS} included characters")
            scope.left[0] = -1
            return ""
        try:
            raw = read_include(self._root / res.rel_path, label=f"{{% {tag} {target} %}}", warnings=warnings)
        except OSError as err:
            warnings.append(f"{{% {tag} {target} %}}: cannot read ({err})")
            return ""
        scope.left[0] -= 1
        scope.left[1] -= len(raw)
        if tag == "include_relative":
            raw = split_front_matter(raw)[1]
        raw = _strip_hidden(raw)
        raw = rebase_links(raw, from_rel=res.rel_path, to_rel=page_rel,
                           exists=lambda p: (self._root / p).is_file()) if tag == "include_relative" else raw
        params: dict[str, Any] = {}
        inner = _Scope(dict(scope.values), scope.meta, scope.left, {**scope.objects, "include": params})
        for m in _PARAM.finditer(params_text):
            value = _literal(m.group(2))
            inner.values[f"include.{m.group(1)}"] = value if value is not None else scope.lookup(m.group(2))
            params[m.group(1)] = value if value is not None else _object(m.group(2), scope)
        return self.render_liquid(raw, page_rel=page_rel, file_rel=res.rel_path, scope=inner, warnings=warnings,
                                  depth=depth + 1)


_COND_TAG = re.compile(r"\{%-?\s*(if|unless|case|elsif|else|when|endif|endunless|endcase)\b(.*?)-?%\}", re.DOTALL)
_COMPARISON = re.compile(r"^(.+?)\s*(==|!=|<>|>=|<=|>|<|\bcontains\b)\s*(.+)$")
#: page variables Jekyll computes (absent from front matter does not mean nil)
_COMPUTED_PAGE = frozenset({"content", "title", "excerpt", "url", "date", "id", "categories", "collection", "tags",
                            "dir", "name", "path", "next", "previous", "relative_path", "slug", "ext", "output"})
_UNKNOWN = object()


def _operand(token: str, scope: _Scope) -> Any:
    """The value of a Liquid operand: a literal, or a variable that is known
    (assigned, an include parameter, a config scalar, the page's front matter, where
    a key the page does not set is nil); ``_UNKNOWN`` otherwise."""
    token = token.strip()
    lit = _literal(token)
    if lit is not None:
        return lit
    if token in ("true", "false"):
        return token == "true"
    if token in ("nil", "null"):
        return None
    if token in ("empty", "blank"):
        return _UNKNOWN
    if not re.fullmatch(r"[\w.-]+", token):
        return _UNKNOWN
    if token in scope.values:
        value = scope.values[token]
        return {"true": True, "false": False}.get(value, value)
    head, _, rest = token.partition(".")
    if head == "include":
        return None  # a parameter the include was not given
    if head in scope.objects and head not in ("site", "page"):
        # a loop variable: its item is known whole, so a key it lacks is nil; a list or mapping is truthy
        found = _object(token, scope)
        return str(found) if isinstance(found, (int, float)) and not isinstance(found, bool) else found
    if head == "page" and rest and rest.split(".")[0] not in _COMPUTED_PAGE:
        node: Any = scope.meta
        for part in rest.split("."):
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        if node is None or isinstance(node, (str, bool, int, float)):
            return node if not isinstance(node, (int, float)) or isinstance(node, bool) else str(node)
        return _UNKNOWN  # a list or mapping: not compared here
    return _UNKNOWN


_LOOP_TAG = re.compile(r"\{%-?\s*(for|endfor|if|unless|case|endif|endunless|endcase|else)\b(.*?)-?%\}", re.DOTALL)
_FOR_ARGS = re.compile(r"^\s*(\w+)\s+in\s+(\([^()]*\)|[\w.\-\[\]\"']+)(.*)$", re.DOTALL)
_OPENERS = {"for": "endfor", "if": "endif", "unless": "endunless", "case": "endcase"}


def _loop_blocks(text: str) -> Iterator[tuple[re.Match[str], re.Match[str] | None, re.Match[str]]]:
    """(``for`` tag, its own ``else`` tag or None, matching ``endfor`` tag) of
    each outermost, closed ``{% for %}`` block of ``text``, in order."""
    stack: list[str] = []
    head: re.Match[str] | None = None
    other: re.Match[str] | None = None
    for tok in _LOOP_TAG.finditer(text):
        name = tok.group(1)
        if name in _OPENERS:
            if not stack and name != "for":
                continue  # an if outside loops: not this function's
            if not stack:
                head, other = tok, None
            stack.append(name)
        elif name == "else":
            if stack == ["for"]:
                other = tok
        elif stack and _OPENERS[stack[-1]] == name:
            stack.pop()
            if not stack and head is not None:
                yield head, other, tok
                head = None
        elif stack and name in _OPENERS.values():
            continue  # an unbalanced closer inside the loop: ignored


def _int_operand(token: str | None, scope: _Scope, default: int) -> int:
    if token is None:
        return default
    value = _literal(token)
    value = value if value is not None else scope.lookup(token)
    try:
        return max(0, int(float(value)))
    except ValueError:
        return default


def _range_bound(token: str, scope: _Scope) -> int | None:
    """An end of a Liquid ``(a..b)`` range: an integer literal or variable, negative
    ones too (Liquid ``(-2..1)`` is -2, -1, 0, 1); ``None`` when not known."""
    value = _literal(token)
    value = value if value is not None else scope.lookup(token)
    try:
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        return None


def _object(expr: str, scope: _Scope) -> Any:
    """The structured value of a Liquid expression: a ``(a..b)`` range (a list of
    integers, at most :data:`_MAX_LOOP_LENGTH`), or a variable path (``site.data.nav.main``,
    ``page.items``, ``item.children``, ``a[0]``, ``a["b"]``, ``.first``/``.last``)
    under the scope's objects; ``None`` when not known."""
    expr = expr.strip()
    rng = re.fullmatch(r"\(\s*([\w.-]+)\s*\.\.\s*([\w.-]+)\s*\)", expr)
    if rng:
        lo, hi = _range_bound(rng.group(1), scope), _range_bound(rng.group(2), scope)
        return list(range(lo, min(hi, lo + _MAX_LOOP_LENGTH - 1) + 1)) if lo is not None and hi is not None else None
    parts = re.findall(r"""\[\s*(?:"([^"]*)"|'([^']*)'|(\d+))\s*\]|([\w-]+)""", expr)
    if not parts or not re.fullmatch(r"""[\w-]+(?:\.[\w-]+|\[\s*(?:"[^"]*"|'[^']*'|\d+)\s*\])*""", expr):
        return None
    keys: list[str | int] = [int(p[2]) if p[2] else (p[0] or p[1] or p[3]) for p in parts]
    if keys[0] not in scope.objects:
        return None
    node: Any = scope.objects[keys[0]]
    for key in keys[1:]:
        if isinstance(node, list) and (isinstance(key, int) or key in ("first", "last")):
            index = 0 if key == "first" else -1 if key == "last" else key
            node = node[index] if node and isinstance(index, int) and -len(node) <= index < len(node) else None
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            return None
    return node


def _truthy(value: Any) -> bool:
    return value is not None and value is not False


def _compare(left: Any, op: str, right: Any) -> bool | None:
    if left is _UNKNOWN or right is _UNKNOWN:
        return None
    if op == "contains":
        if isinstance(left, list):
            return any(str(x) == str(right) for x in left)
        return isinstance(left, str) and isinstance(right, str) and right in left
    if op in ("==", "!=", "<>"):
        same = left == right or (left is not None and right is not None and str(left) == str(right))
        return same if op == "==" else not same
    try:
        a, b = float(left), float(right)
    except (TypeError, ValueError):
        return None
    return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def _condition(expr: str, scope: _Scope) -> bool | None:
    """A Liquid condition (comparisons joined by ``and``/``or``, evaluated right to
    left as Liquid does); ``None`` when a variable in it is not known."""
    parts = re.split(r"\s+(and|or)\s+", expr.strip())
    result: bool | None = None
    for i in range(len(parts) - 1, -1, -2):
        m = _COMPARISON.match(parts[i])
        if m:
            value = _compare(_operand(m.group(1), scope), m.group(2).strip(), _operand(m.group(3), scope))
        else:
            single = _operand(parts[i], scope)
            value = None if single is _UNKNOWN else _truthy(single)
        if value is None:
            return None
        if i == len(parts) - 1:
            result = value
        elif parts[i + 1] == "and":
            result = value and bool(result)
        else:
            result = value or bool(result)
    return result


_MAX_CONDITION_DEPTH = 32


def _conditionals(text: str, scope: _Scope, depth: int = 0) -> str:
    """``{% if %}``/``{% unless %}``/``{% case %}`` blocks whose conditions are known
    (:func:`_condition`) reduced to the branch Liquid renders; a block with an
    unknown condition keeps every branch (as before: a static reader cannot tell).
    Nested blocks are read the same way; unbalanced tags are left to the tag loop."""
    if "{%" not in text or depth > _MAX_CONDITION_DEPTH:
        return text  # deeper nesting: every branch kept, its tags dropped by the tag loop
    tokens = list(_COND_TAG.finditer(text))
    out: list[str] = []
    pos = i = 0
    while i < len(tokens):
        start = tokens[i]
        if start.group(1) not in ("if", "unless", "case"):
            i += 1
            continue
        level, marks, j, end = 0, [start], i + 1, None
        while j < len(tokens):
            name = tokens[j].group(1)
            if name in ("if", "unless", "case"):
                level += 1
            elif name in ("endif", "endunless", "endcase"):
                if level == 0:
                    end = tokens[j]
                    break
                level -= 1
            elif level == 0:
                marks.append(tokens[j])
            j += 1
        if end is None:
            i += 1
            continue
        bodies = [text[m.end():(marks[k + 1].start() if k + 1 < len(marks) else end.start())]
                  for k, m in enumerate(marks)]
        chosen = _choose(start.group(1), marks, scope)
        out.append(text[pos:start.start()])
        if chosen is None:
            kept = bodies[1:] if start.group(1) == "case" else bodies
            out.append("".join(_conditionals(b, scope, depth + 1) for b in kept))
        elif chosen >= 0:
            out.append(_conditionals(bodies[chosen], scope, depth + 1))
        pos = end.end()
        i = j + 1
    out.append(text[pos:])
    return "".join(out)


def _strip_hidden(text: str) -> str:
    """``text`` without its hidden HTML elements (``hidden``/``aria-hidden="true"``),
    each up to the first closing tag of its name. An opening tag whose name is
    not closed after it stays, and so does every later one of that name (one
    ``.*?</\\1>`` regex scanned to the end from each: 20,000 ``<p hidden>`` took 32 s)."""
    out: list[str] = []
    pos = 0
    unclosed: set[str] = set()
    for m in _HIDDEN_OPEN.finditer(text):
        name = m.group(1).lower()
        if m.start() < pos or name in unclosed:
            continue
        close = re.compile(rf"</{re.escape(name)}>", re.IGNORECASE).search(text, m.end())
        if close is None:
            unclosed.add(name)
            continue
        out.append(text[pos:m.start()])
        pos = close.end()
    out.append(text[pos:])
    return "".join(out)


def _choose(kind: str, marks: list[re.Match[str]], scope: _Scope) -> int | None:
    """Index of the branch rendered, ``-1`` for none, ``None`` when not known."""
    if kind == "case":
        subject = _operand(marks[0].group(2), scope)
        if subject is _UNKNOWN:
            return None
        for k, mark in enumerate(marks[1:], start=1):
            if mark.group(1) == "else":
                return k
            values = [_operand(v, scope) for v in re.split(r"\s*,\s*|\s+or\s+", mark.group(2).strip()) if v]
            if any(v is _UNKNOWN for v in values):
                return None
            if any(_compare(subject, "==", v) for v in values):
                return k
        return -1
    for k, mark in enumerate(marks):
        if mark.group(1) == "else":
            return k
        value = _condition(mark.group(2), scope)
        if value is None:
            return None
        if kind == "unless" and k == 0:
            value = not value
        if value:
            return k
    return -1


def _tokens(text: str) -> Iterator[re.Match[str]]:
    """``_TOKEN.finditer(text)``, without scanning to the end of the text from each
    ``{{``/``{%`` that has no closer after it (5,000 ``{{`` took 2.3 s): such an
    opener, and every later one of its kind, is text."""
    closers = {"{%": "%}", "{{": "}}"}
    next_open = {"{%": -1, "{{": -1}  # the next position of each opener at or after pos (-2: none left)
    next_close = {"{%": -1, "{{": -1}  # the first closer after that opener
    pos = 0
    while True:
        for o, at in next_open.items():
            if -2 < at < pos:
                found = text.find(o, pos)
                next_open[o] = found if found >= 0 else -2
        live = [(at, o) for o, at in next_open.items() if at >= 0]
        if not live:
            return
        start, o = min(live)
        if next_close[o] < start + 2:
            next_close[o] = text.find(closers[o], start + 2)
        if next_close[o] < 0:
            next_open[o] = -2  # no closer after it: neither it nor a later one is a token
            continue
        m = _TOKEN.match(text, start)
        if m:
            yield m
            pos = m.end()
        else:
            pos = start + 1


def _tab_marker(tag: str, args: str, scope: _Scope) -> str:
    """Tab plugins' ``{% tabs [group] %}`` / ``{% tab label %}`` / ``{% endtabs %}``
    as tab-set markers (:mod:`murar.ingest.markup.tabs`) with a bold label line,
    the way the other generators' tabs read. The label: ``title="X"``; else the
    words after the group name when the tab repeats it (jekyll-tabs:
    ``{% tabs log %}`` / ``{% tab log php %}``); else all the words (``{% tab Android %}``)."""
    groups = scope.values.setdefault("\x00tabs", "")
    if tag == "tabs":
        scope.values["\x00tabs"] = groups + "\n" + args.split()[0] if args.split() else groups + "\n"
        return f"\n\n{set_open()}\n\n"
    if tag == "endtabs":
        scope.values["\x00tabs"] = groups.rpartition("\n")[0]
        return f"\n\n{set_close()}\n\n"
    titled = re.search(r"""title\s*=\s*(?:"([^"]*)"|'([^']*)')""", args)
    words = args.split()
    group = groups.rpartition("\n")[2]
    label = (titled.group(1) if titled.group(1) is not None else titled.group(2)) if titled else \
        " ".join(words[1:] if group and len(words) > 1 and words[0] == group else words)
    label = label.strip().strip("'\"") or "Tab"
    return "\n".join(["", "", tab_start(label), *label_lines(label), ""])


def _fence(m: re.Match[str], text: str) -> str:
    """A ``{% highlight lang %}`` block as a code fence whose closing fence is indented
    like the tag's line (a list step's indentation), so the fence stays in the step
    instead of the closing fence opening a new block that swallows the rest of the page."""
    lead = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    marker = re.fullmatch(r"([ \t>]*)(?:[-*+]|\d+[.)])([ \t]+)", lead)
    prefix = lead if not lead.strip(" \t>") else \
        (marker.group(1) + " " * (len(lead) - len(marker.group(1))) if marker else "")
    return f"```{m.group(1)}\n{m.group(2).rstrip()}\n{prefix}```"


def _markdownify(text: str) -> str:
    """Jekyll's ``markdownify`` filter: the Markdown ``text`` as HTML (CommonMark, raw
    HTML kept), so a picture captured as Markdown and written inside ``<figure>``
    stays a picture."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark", {"html": True}).render(text)).strip()


def _arg(args: list[str], i: int) -> str:
    return args[i] if len(args) > i else ""


#: Liquid's standard string filters (shopify.github.io/liquid "Filters") that change the text
_STRING_FILTERS: dict[str, Any] = {
    "remove": lambda v, a: v.replace(_arg(a, 0), "") if _arg(a, 0) else v,
    "remove_first": lambda v, a: v.replace(_arg(a, 0), "", 1) if _arg(a, 0) else v,
    "replace": lambda v, a: v.replace(_arg(a, 0), _arg(a, 1)) if _arg(a, 0) else v,
    "replace_first": lambda v, a: v.replace(_arg(a, 0), _arg(a, 1), 1) if _arg(a, 0) else v,
    "strip": lambda v, a: v.strip(),
    "lstrip": lambda v, a: v.lstrip(),
    "rstrip": lambda v, a: v.rstrip(),
    "upcase": lambda v, a: v.upper(),
    "downcase": lambda v, a: v.lower(),
    "capitalize": lambda v, a: v[:1].upper() + v[1:],
    "strip_html": lambda v, a: re.sub(r"<[^>]*>", "", v),
    "strip_newlines": lambda v, a: v.replace("\r", "").replace("\n", ""),
}


def _split_outside_quotes(text: str, sep: str) -> list[str]:
    """Split ``text`` on the character ``sep`` where it is outside single or double quotes
    (Liquid: ``a | f: 'x|y' | g`` on pipes, a filter's ``'a', "b,c"`` on commas)."""
    out, cur, quote = [], [], ""
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == sep:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def _split_args(text: str) -> list[str]:
    """The arguments of a filter (``'a', "b,c"``), stripped, empty ones left out."""
    return [a.strip() for a in _split_outside_quotes(text, ",") if a.strip()]


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


def _split_filters(expr: str) -> list[str]:
    """Split ``a | f: 'x|y' | g`` on pipes outside quotes."""
    return _split_outside_quotes(expr, "|")


def _literal(text: str) -> str | None:
    m = _STRING.match(text)
    if m:
        return m.group(1) if m.group(1) is not None else m.group(2)
    stripped = text.strip()
    if re.fullmatch(r"-?\d+(?:\.\d+)?", stripped):
        return stripped
    return None


_CALLOUT_IAL = re.compile(r"^(?P<lead>[ \t>]*)\{:\s*\.(?P<name>[\w-]+)[^}\n]*\}[ \t]*$")
_FENCE = re.compile(r"^[ \t>]*(```|~~~)")
# an HTML block opening alone on its line whose class may name a callout (its Markdown content,
# set off by a blank line, follows: open_markdown_blocks)
_CALLOUT_DIV = re.compile(r"""^[ \t>]*<(?:div|aside|section|blockquote)\b[^<>]*?\bclass\s*=\s*["'](?P<cls>[^"'<>]*)["'][^<>]*>[ \t]*$""",
                          re.IGNORECASE)
#: callout classes labelled when ``_config.yml`` names none (the classes Jekyll themes style)
DEFAULT_CALLOUTS = {name: name.capitalize() for name in
                    ("note", "tip", "warning", "important", "caution", "info", "danger")}


#: Minimal Mistakes "Utility Classes: Notices" (``{: .notice--info}`` after a paragraph, or
#: ``<div class="notice--info">``): a coloured box without a title; labelled by its kind
NOTICE_CALLOUTS = {"notice": "Note", "notice--primary": "Note", "notice--info": "Info",
                   "notice--warning": "Warning", "notice--success": "Success", "notice--danger": "Danger"}


def _callout_label(name: str, titles: dict[str, str]) -> str:
    name = name.lower()
    return titles[name] if name in titles else NOTICE_CALLOUTS.get(name, "")


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


def label_callouts(text: str, titles: dict[str, str] | None = None) -> str:
    """Label the block a kramdown callout IAL names with the callout's title
    (``**Note:** ...``), the just-the-docs convention (``titles``: class -> label,
    :func:`callout_titles`; default :data:`DEFAULT_CALLOUTS`).

    kramdown ("Block IALs") applies a block IAL to the block right after it, or,
    written on the line right after a block, to that block; just-the-docs
    documents both places, also inside block quotes (``> {: .note }``). A
    ``<name>-title`` callout takes its title from its first paragraph, which is
    already in the text, so it is not labelled; neither is a class without a
    title. Minimal Mistakes' notice classes (:data:`NOTICE_CALLOUTS`) are labelled
    by their kind unless configured otherwise. An HTML block alone on its line
    whose class is a callout (``<div class="notice--info" markdown="1">``), its
    Markdown content after a blank line, has that content's first line labelled.
    Code fences are left alone."""
    titles = DEFAULT_CALLOUTS if titles is None else titles
    lines = text.split("\n")
    in_fence = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        m = None if in_fence else _CALLOUT_IAL.match(line)
        label = _callout_label(m.group("name"), titles) if m else ""
        if not label and not in_fence:
            div = _CALLOUT_DIV.match(line)
            label = next((x for c in div.group("cls").split() if (x := _callout_label(c, titles))), "") if div else ""
            if label and i + 2 < len(lines) and not lines[i + 1].strip(" \t>") and lines[i + 2].strip(" \t>") \
                    and not _FENCE.match(lines[i + 2]) and not lines[i + 2].lstrip(" \t>").startswith("<"):
                lead = re.match(r"[ \t>]*", lines[i + 2])
                cut = lead.end() if lead else 0
                if not lines[i + 2][cut:].startswith(callout_lead(label).rstrip()):
                    lines[i + 2] = lines[i + 2][:cut] + callout_lead(label) + lines[i + 2][cut:]
            continue
        if not label:
            continue
        depth = _quote_depth(line)
        prev = lines[i - 1] if i > 0 else ""
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if prev.strip(" \t>") and _quote_depth(prev) >= depth and not _CALLOUT_IAL.match(prev):
            start = i - 1  # after a block: label that block's first line
            while start > 0 and lines[start - 1].strip(" \t>") and not _CALLOUT_IAL.match(lines[start - 1]):
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


_MD_BLOCK_OPEN = re.compile(r"^(?P<lead>[ \t>]*)<(?P<tag>[A-Za-z][\w-]*)(?P<attrs>[^<>]*?)\s+markdown\s*=\s*"
                            r"(?P<q>[\"']?)(?:1|block)(?P=q)(?P<rest>[^<>]*)>[ \t]*$")


_MD_ONE_LINE = re.compile(r"^(?P<lead>[ \t>]*)<(?P<tag>[A-Za-z][\w-]*)(?P<attrs>[^<>]*?)\s+markdown\s*=\s*"
                          r"(?P<q>[\"']?)(?:1|block|span)(?P=q)(?P<rest>[^<>]*)>(?P<body>.*)</(?P=tag)\s*>[ \t]*$")


#: kramdown's block-level HTML elements whose content parse_block_html parses as Markdown
_KRAMDOWN_BLOCK_TAGS = frozenset({"div", "details", "section", "article", "aside", "header", "footer", "main", "nav",
                                  "figure", "blockquote", "fieldset", "form", "dl", "dd", "li", "td", "th",
                                  "noscript", "center"})
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


def open_markdown_blocks(text: str, *, parse_block_html: bool = False) -> str:
    """kramdown's ``markdown="1"``/``markdown="block"`` HTML blocks (kramdown syntax,
    "HTML Blocks": the element's content is parsed as Markdown), written with the
    opening tag alone on its line (``<div class="code-example" markdown="1">``,
    in a quote too), made CommonMark: the attribute is dropped and the content is
    set off by blank lines from the opening tag and from the matching closing tag
    (and from a nested element's closing tag), so its images, emphasis and lists
    parse. An element with such an attribute (``"span"`` too) written whole on one
    line (``<div markdown="span" class="alert">**Note:** ...</div>``, the
    documentation-theme-jekyll alert includes) gets its content on a line of its
    own the same way. With ``parse_block_html`` (kramdown option, set in
    ``_config.yml`` ``kramdown:`` or by ``{::options parse_block_html="true" /}``)
    every block-level element alone on its line is read so, unless it says
    ``markdown="0"``. Other HTML is left alone; code fences are skipped."""
    if "markdown" not in text and not parse_block_html:
        return text
    lines = text.split("\n")
    out: list[str] = []
    closers: list[tuple[str, int]] = []  # (tag, depth of that tag still open) of each open block
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line)
            continue
        if in_fence:
            out.append(line)
            continue
        one = _MD_ONE_LINE.match(line)
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


#: block-level elements whose content kramdown keeps as raw HTML up to the matching closing tag
#: (``pre``, ``script``, ``style`` already end at their closing tag in CommonMark)
_RAW_HTML_BLOCK_TAGS = frozenset({"div", "table", "ul", "ol", "dl", "blockquote", "section", "article", "aside",
                                  "figure", "details", "nav", "header", "footer", "form", "fieldset", "center"})
_RAW_HTML_OPEN = re.compile(r"^ {0,3}<(?P<tag>[A-Za-z][\w-]*)(?=[\s/>]|$)(?P<rest>[^\n]*)$")


def join_html_blocks(text: str) -> str:
    """kramdown "HTML Blocks": a block-level element opened at the start of a line
    (``<div>``, ``<table>``; without ``markdown=``) is raw HTML up to its matching
    closing tag, blank lines included, where CommonMark ends the HTML block at the
    first blank line and reads the rest as Markdown (indented rows become a code
    block). Blank lines inside such an element are dropped so it stays one HTML
    block. An element whose closing tag does not follow is left alone (and so is
    every later one of that name: linear time)."""
    if "<" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    unbalanced: set[str] = set()
    i = 0
    while i < len(lines):
        m = _RAW_HTML_OPEN.match(lines[i])
        tag = m.group("tag").lower() if m else ""
        if not m or tag not in _RAW_HTML_BLOCK_TAGS or tag in unbalanced or re.search(r"\bmarkdown\s*=", m.group("rest")):
            out.append(lines[i])
            i += 1
            continue
        opens, closes = re.compile(rf"<{tag}(?=[\s/>]|$)", re.IGNORECASE), re.compile(rf"</{tag}\s*>", re.IGNORECASE)
        depth, j = 0, i
        while j < len(lines):
            depth += len(opens.findall(lines[j])) - len(closes.findall(lines[j]))
            if depth <= 0:
                break
            j += 1
        if j >= len(lines):
            unbalanced.add(tag)
            out.append(lines[i])
            i += 1
            continue
        out.extend(line for line in lines[i:j + 1] if line.strip())
        i = j + 1
    return "\n".join(out)


def strip_kramdown(text: str, callouts: dict[str, str] | None = None, *, parse_block_html: bool = False) -> str:
    """Keep raw HTML block elements whole (:func:`join_html_blocks`, unless
    ``parse_block_html``), open ``markdown="1"`` HTML blocks (:func:`open_markdown_blocks`; every block
    element with ``parse_block_html``, from ``_config.yml`` or the page's
    ``{::options parse_block_html="true" /}``), label callout
    paragraphs (:func:`label_callouts` with ``callouts``), drop the list a ``{:toc}``
    IAL turns into the generated table of contents and abbreviation definition lines
    (``*[HTML]: ...``, kramdown), then remove
    kramdown inline attribute lists (``{: .note }`` lines, in block quotes too,
    ``{:.cls}`` after a span) and extension markers (``{::comment}...{:/comment}``,
    ``{::nomarkdown}``) outside fenced code."""
    all_blocks = parse_block_html or _PARSE_BLOCK_OPTION.search(text) is not None
    if not all_blocks:
        text = outside_fences(text, join_html_blocks)
    text = label_callouts(open_markdown_blocks(text, parse_block_html=all_blocks), callouts)
    return outside_fences(text, _strip_attribute_lists)


def _strip_attribute_lists(text: str) -> str:
    text = _TOC_LIST.sub("", text)
    text = _ABBREVIATION.sub("", text)
    text = _IAL_LINE.sub("", text)
    text = _QUOTED_IAL_LINE.sub(lambda m: m.group("lead").rstrip(), text)
    text = _IAL_SPAN.sub("", text)
    return _KRAMDOWN_EXT.sub("", sub_closed(_KRAMDOWN_COMMENT, _KRAMDOWN_COMMENT_END, lambda _: "", text))


def load(root: Path, config_file: str | None = None) -> JekyllSite:
    """A :class:`JekyllSite` for the site at ``root`` (``config_file``: the
    ``_config.yml`` found, posix, relative to ``root``).

    Raises:
        ConfigError: the config is not valid YAML.
    """
    config, collections, variables, defaults, site_object = load_config(root, config_file)
    return JekyllSite(config, collections, variables, defaults, site_object)
