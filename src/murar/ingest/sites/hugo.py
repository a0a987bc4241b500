"""Hugo sites: configuration, content/static folders, page bundles and shortcodes.

Rules from the Hugo documentation (gohugo.io): configuration in ``hugo.toml``
(``hugo.yaml``/``hugo.json``, or the older ``config.*``) at the project root,
and/or split over ``config/_default/`` with ``config/production/`` merged on
top (``hugo`` builds the production environment); ``contentDir`` (default
``content``, per language ``languages.<l>.contentDir``; ``disableLanguages``
drop theirs), ``staticDir`` (a string or a list, plus ``staticDir0`` ...
``staticDir10``), ``themes/<theme>/static``, ``[[module.mounts]]`` that remap
``content``/``static``/``assets`` (a mount replaces the project's default
folder; a target subfolder such as ``static/images`` or ``content/docs/spec``
serves that path, and only that one),
``baseURL`` (its path is the site prefix), ``ignoreFiles`` (regular
expressions), and the front matter that keeps a page out of the site:
``draft``, ``headless`` (leaf bundles), ``build``/``_build`` (``render:
never``, passed down only by ``cascade``), a future publish date or a past
expiry date (unless ``buildFuture``/``buildExpired``).

Pages are the content files (``.md``, ``.html``, ``.adoc``, ``.rst``, ...)
under the content folders; a language code in the file name (``page.fr.md``)
names a configured language. Only the default content language
(``defaultContentLanguage``), or the one asked for (``--language``,
:meth:`HugoSite.classify`), is ingested: a file named with another configured
language's code, or under another language's own ``contentDir`` (multilingual
docs: "Translation by file name", "Translation by content directory"), is a
translation, excluded with its language as the reason. Every other file of a leaf bundle (a folder with
an ``index.*``) is a page resource, not a page. Images beside a bundle's
``index.md``/``_index.md`` are page resources; root-relative links
(``/images/x.png``) are served from the static folders (and from content,
where bundles publish their resources: at their lower-cased path, a space
written as a hyphen, and a language's under ``/<lang>/``); relative links
resolve against the page's folder, then against its URL.

Shortcodes (:func:`rewrite_shortcodes`): ``figure``/``img``/``image`` and any
shortcode with an image ``src`` become Markdown images with their caption
(a bundle's files also by the name front matter ``resources`` gives them,
:meth:`HugoSite.page_resources`; carousels and galleries of resource globs give
one image per match); ``include``/``readfile`` pull the file in at that place (theme convention:
``content/includes``; Relearn's ``hidefirstheading`` drops the file's opening heading); ``youtube``/``vimeo``/``video`` become videos;
a ``{{< >}}`` tab set opened in a list step stays in that step, its content moved to the
step's column (Hugo puts its output where it stands); a tab set's ``name`` is the id of its box, never text (Kubernetes' ``tabs``; Relearn's
``title`` is shown), a tab without content shows the file its ``include=`` names
(Kubernetes: a leaf bundle's file matching ``**<include>*``, else a page beside the page;
that file is then no page); ``highlight``, ``code``/``code-toggle``/``multiconfig``, ``mermaid`` (a
```mermaid block) and Docsy's code tabs and cards become code fences; a card
without inner content (Hextra ``card``, ``feature-card``) keeps its title and
subtitle, one with content (Docsy, Hugo Book) its image, header, title and
subtitle before it and its footer after it, its headings read as labels;
Learn/Relearn ``children`` list the child pages, Relearn ``resources`` and Learn/Relearn
``attachments`` the page's files (bundle resources, ``<page>.files``) under their box's title;
``ref``/``relref`` give their target;
``param`` the site parameter; ``comment`` (Hugo 0.137.1+) drops what it encloses;
with Goldmark's passthrough extension on, the math between its delimiters is kept as
written (:func:`passthrough_math`); a callout (Hextra ``callout``, Hugo Book and
Geekdoc ``hint``, Doks ``callout``, LoveIt-style ``admonition``, Relearn ``notice``, Docsy ``alert``, the nginx theme's
``call-out``, ``{{< note >}}``; :meth:`HugoSite.callout`) leads its content with
its label, ``**Note:** ...``, an explicit title winning over the kind, as Hugo's
blockquote alerts do (``> [!NOTE]``, ``> [!TIP]+ Title``: Hugo 0.132+ render
hooks); theme conventions keep their visible words
(``text`` params, Kubernetes' glossary, ``heading`` from i18n, example files,
HTTP endpoints, a ``badge``'s title and value, Hextra's ``term``; its ``filetree/container``
is the tree as a text block); a shortcode of the project whose template only prints values
(:func:`~murar.ingest.sites._gotemplate.render_value_template`) is what it writes (a
``{{< >}}`` one's HTML kept as one raw block, titled ones included, a paired one's
content read in place), one reading a file it names (``readFile``, ``resources.Get``,
beside the page through ``.Page.Dir``) that file, which is then no page; every other
shortcode is reduced to its inner text (with its ``title``/``name``/``summary`` when
it has one). Escaped shortcodes (``{{</* x */>}}``) stay literal. On Docsy sites the
lead under the title is the description, or what the project's own
``content.html`` writes as its lead.
"""

from __future__ import annotations

import bisect
import html
import logging
import posixpath
import re
import textwrap
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from murar.errors import ConfigError
from murar.ingest.budget import PageCharBudget
from murar.ingest.markup.builder import read_include
from murar.ingest.markup.mathtext import inline_math, math_code_span, math_fence
from murar.ingest.markup.mdtext import (
    FenceTracker,
    alert_markers,
    callout_label,
    callout_lead,
    inline_text,
)
from murar.ingest.markup.tabs import set_close, set_open, tab_start
from murar.ingest.paths import ResolvedLink, inside_root, is_remote
from murar.ingest.sites._common import (
    ASSET_SUFFIXES,
    IMAGE_SUFFIXES,
    VIDEO_SUFFIXES,
    NameMatcher,
    first_existing,
    is_within,
    load_data_file,
    local_link,
    lookup,
    os_walk_files,
    rebase_links,
    regex_problem,
    relpath_from_page,
    safe_join,
    split_front_matter,
    split_link,
    strip_base,
    sub_closed,
    suffix_of,
    url_base_path,
    yaml_front_matter,
)
from murar.ingest.sites._glob import HUGO, glob_match
from murar.ingest.sites._gotemplate import data_value, render_value_template
from murar.ingest.sites.base import FileClass, FileRole, SiteConfig, SiteVariant

log = logging.getLogger(__name__)

# where a site shortcode template writes .Inner (the paired shortcode's content)
_INNER_MARK = "\x00HUGOINNER\x00"

GENERATOR = "hugo"
#: config files that mark a Hugo project root, in Hugo's order of precedence
CONFIG_FILES = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json",
                "config.toml", "config.yaml", "config.yml", "config.json")
CONFIG_DIRS = ("config/_default",)
#: content formats Hugo renders, by suffix, with the murar markup that parses them
PAGE_MARKUP = {".md": "markdown", ".markdown": "markdown", ".mdown": "markdown", ".mkd": "markdown",
               ".html": "html", ".htm": "html", ".adoc": "asciidoc", ".asciidoc": "asciidoc",
               ".ad": "asciidoc", ".rst": "rst", ".ipynb": "notebook"}
#: shortcodes that pull another file's content in (Hugo ``readfile`` examples, theme ``include``)
INCLUDE_SHORTCODES = frozenset({"include", "readfile", "include-file", "include-md", "include-markdown",
                                "embed-md"})
IMAGE_SHORTCODES = frozenset({"figure", "img", "image", "imgproc", "imgfig", "screenshot", "picture"})
VIDEO_SHORTCODES = frozenset({"youtube", "vimeo", "video"})
#: shortcodes whose inner content is code: gohugo.io's ``code`` (language from ``file``/``lang``),
#: ``code-toggle`` and Relearn's ``multiconfig`` (a configuration shown as TOML/YAML/JSON),
#: Istio's ``text`` (language as first argument or ``syntax``)
CODE_BLOCK_SHORTCODES = frozenset({"code", "code-toggle", "multiconfig", "text"})
#: diagram shortcodes whose inner text is the diagram's source (Hugo Book, Relearn, Geekdoc ``mermaid``):
#: kept as a code block in that language, as a ```mermaid fence is on every generator
DIAGRAM_SHORTCODES = frozenset({"mermaid"})
#: a card that has no inner content (Hextra ``{{< card title= subtitle= >}}`` in ``{{< cards >}}``,
#: ``hextra/feature-card``, self-closing ``{{< card title="..." />}}``): its title and subtitle are its text,
#: its ``image`` (a remote URL, a static path, or an ``assets/`` path Hugo processes) a picture above them
_CARD = re.compile(r"(?:^|[/-])card$")
#: parameters a shortcode template draws as decoration, not as an image of the page
_DECORATION_PARAMS = frozenset({"icon", "logo", "avatar", "badge", "emoji"})
#: shortcodes that show a set of page resources picked by globs (Blowfish ``carousel`` ``images=``, the
#: hugo-shortcode-gallery ``gallery`` ``match=``)
_GALLERY = re.compile(r"carousel|gallery|slider")
#: shortcodes that show an example file as code (Kubernetes docs theme: ``content/<lang>/examples/<file>``)
CODE_SAMPLE_SHORTCODES = frozenset({"codenew", "code_sample", "code-sample"})
_MAX_INCLUDE_DEPTH = 8
#: files one page may pull in through its shortcodes (include, readfile, glossary_definition, code
#: samples, all depths together: a file including another ten times, 8 deep, is 10**8 includes) and
#: their characters, in all (:class:`PageCharBudget`); the include that would pass either is left out, with
#: the page's later ones and one warning
_MAX_INCLUDES = 200
_MAX_INCLUDED_CHARS = 5_000_000
#: files a page bundle's resources are looked up among (a bundle of thousands is read no further)
_MAX_RESOURCES = 1000
#: characters of resource names one page's globs (front matter resources, galleries and carousels,
#: name= lookups) are tested against, in all
_MAX_GLOB_CHARS = 2_000_000
#: child pages a Docsy section index lists at most
_SECTION_INDEX_MAX = 200
#: image classes a theme shows only in dark mode (Doks/Thulite: img-darkmode beside an img-lightmode twin)
_DARK_MODE_CLASSES = frozenset({"img-darkmode"})
# a page's opening front matter delimiter, and the first line starting with the closing one
_FM_OPEN = re.compile(r"\A(\ufeff?(---|\+\+\+)[ \t]*\r?\n)")
_FM_LOOSE_YAML = re.compile(r"^---([^\n]*)$", re.MULTILINE)
_FM_LOOSE_TOML = re.compile(r"^\+\+\+([^\n]*)$", re.MULTILINE)
#: levels of child pages a Geekdoc toc-tree lists at most
_TOC_TREE_DEPTH = 6
#: pages a Geekdoc toc-tree lists at most, over all its levels
_TOC_TREE_MAX = 1_000
#: toc-trees drawn per page (or include) text; later ones are dropped with a warning
_TOC_TREES_PER_TEXT = 8

#: shortcodes of a tab set (Hugo's docs themes: "tabs", Docsy "tabpane"); each tab is a "tab" (Dapr and the
#: sites built on its docs: a "codetab")
_TAB_SETS = frozenset({"tabs", "tabpane"})
_TAB_ITEMS = frozenset({"tab", "codetab"})
#: Hextra's callout types as its own Markdown output names them (``callout.markdown.md``: a callout
#: becomes the matching GitHub alert; no ``type`` is ``default``)
_HEXTRA_CALLOUTS = {"default": "tip", "info": "note", "warning": "warning", "error": "caution",
                    "important": "important"}
#: colours, styles and classes that say what a callout is about (Docsy alert ``color``, Relearn notice
#: ``style``, nginx call-out ``class``); the others ("primary", "blue", "side-callout") only paint the box
_CALLOUT_KINDS = frozenset({"note", "tip", "info", "warning", "caution", "important", "danger", "error",
                            "success", "attention", "deprecated"})
#: paired shortcodes named after their kind (Kubernetes' and the nginx theme's ``{{< note >}}``): labelled
#: with the site's i18n string for the name (Kubernetes: ``note = "Note:"``) or the name
_KIND_SHORTCODES = frozenset({"note", "tip", "info", "warning", "caution", "important", "danger"})
# blank lines and indentation up to a line of paragraph text (not a list item, heading, quote, fence,
# table row, HTML tag, shortcode, indented code or an image opening its line: a callout's label written
# before a screenshot would make it a picture inside a sentence, where the theme draws the label in the
# box's title bar above it)
_BLANK_THEN_TEXT = re.compile(r"[ \t]*(?:\n[ \t]*)+(?=[^\s\-*+#>|<`~{\d])(?!!\[)")
#: a Markdown text's opening heading (blank lines before it): ATX "# Title" or setext "Title" over "===="/"----"
_FIRST_HEADING = re.compile(r"\A(?:[ \t]*\r?\n)*[ ]{0,3}(?:#{1,6}(?:[ \t][^\n]*)?|[^\s#>\-*+|`~<][^\n]*\r?\n[ ]{0,3}(?:=+|-+)[ \t]*)(?:\r?\n|\Z)")
#: shortcodes that never wrap content (no closing tag is looked for)
_NO_INNER = INCLUDE_SHORTCODES | VIDEO_SHORTCODES | CODE_SAMPLE_SHORTCODES | frozenset(
    {"ref", "relref", "param", "icon", "nb"})


#: Markdown files a folder without any generator's config is sampled over for Hugo shortcodes
_CONTENT_PROBE_FILES = 300
_SHORTCODE_TAG = re.compile(r"\{\{[<%]\s*/?\s*[A-Za-z][\w./-]{0,80}")


def looks_like_hugo_content(folder: Path) -> bool:
    """True when ``folder``, where no generator's configuration was found, holds Hugo
    content pages: a Markdown page with front matter using a shortcode tag
    (``{{< name ... >}}``, ``{{% name %}}``) outside fenced code, as content folders
    mounted into a site built elsewhere are (Grafana's ``docs/sources``, whose Hugo
    project is the website's). At most :data:`_CONTENT_PROBE_FILES` files, 64 KB of
    each, are read. Never raises."""
    for rel in os_walk_files(folder, ".", (".md", ".markdown"))[:_CONTENT_PROBE_FILES]:
        try:
            with (folder / rel).open("r", encoding="utf-8", errors="replace") as fh:
                text = fh.read(65_536)
        except OSError:
            continue
        if not text.lstrip("\ufeff").startswith(("---", "+++")):
            continue
        fence = ""
        for line in text.splitlines():
            m = _FENCE_LINE.match(line)
            if m:
                mark = m.group("fence")
                if not fence:
                    fence = mark
                elif mark[0] == fence[0] and len(mark) >= len(fence):
                    fence = ""
                continue
            if not fence and _SHORTCODE_TAG.search(line):
                return True
    return False


def is_hugo_root(folder: Path) -> bool:
    """True when ``folder`` holds a Hugo configuration (a root config file with
    Hugo keys, or ``config/_default/``). A bare ``config.toml``/``config.yaml`` is
    only taken as Hugo's when it has a Hugo key (``baseURL``, ``contentDir``,
    ``theme``, ``module``, ...) or a ``content/`` folder sits beside it. Never raises."""
    if (folder / "hugo.toml").is_file() or (folder / "hugo.yaml").is_file() or (folder / "hugo.yml").is_file() \
            or (folder / "hugo.json").is_file():
        return True
    if (folder / "config" / "_default").is_dir() and any((folder / "config" / "_default").iterdir()):
        return True
    for name in ("config.toml", "config.yaml", "config.yml", "config.json"):
        path = folder / name
        if not path.is_file():
            continue
        try:
            data = load_data_file(path)
        except (OSError, ValueError):
            continue
        keys = {k.lower() for k in data}
        if keys & {"baseurl", "contentdir", "theme", "module", "staticdir", "languagecode", "publishdir",
                   "markup", "taxonomies", "permalinks"} or (folder / "content").is_dir():
            return True
    return False


def _merge(into: dict[str, Any], new: dict[str, Any]) -> None:
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def read_hugo_config(root: Path, *, environment: str = "production") -> tuple[dict[str, Any], str | None]:
    """The merged Hugo configuration of the project at ``root``: ``config/_default/``
    (``hugo.*``/``config.*`` at the top level, other files under their own key:
    ``params.toml`` -> ``params``, ``languages.toml`` -> ``languages``; a language
    suffix puts a file under that language: ``menus.en.toml`` ->
    ``languages.en.menus``, ``params.de.yaml`` -> ``languages.de.params``), then
    ``config/<environment>/``, then the root config file, which wins. Each folder
    is read with its subfolders, files in name order (``config/_default/versions/
    params.yaml`` is ``params`` too), as Hugo's ``config.LoadConfigFromDir`` walks
    it. Returns ``(config, name of the main config file)``; keys are lower-cased
    as Hugo does.

    Raises:
        ConfigError: a config file is not valid TOML/YAML/JSON.
    """
    merged: dict[str, Any] = {}
    main: str | None = None
    for folder in ("config/_default", f"config/{environment}"):
        base = root / folder
        if not base.is_dir():
            continue
        for path in _config_dir_files(base):
            try:
                data = _lower_keys(load_data_file(path))
            except (OSError, ValueError) as err:
                raise ConfigError(f"Hugo config {path.relative_to(root)}: {err}") from err
            stem = path.stem.lower()
            if stem in ("hugo", "config"):
                _merge(merged, data)
                main = main or path.relative_to(root).as_posix()
                continue
            name, _, lang = stem.rpartition(".") if "." in stem else (stem, "", "")
            if not lang:
                _merge(merged, {name: data})
            elif name in ("menu", "menus", "params"):
                _merge(merged, {"languages": {lang: {"menus" if name == "menu" else name: data}}})
            else:
                _merge(merged, {"languages": {lang: data}})
    for name in CONFIG_FILES:
        path = root / name
        if path.is_file():
            try:
                data = _lower_keys(load_data_file(path))
            except (OSError, ValueError) as err:
                raise ConfigError(f"Hugo config {name}: {err}") from err
            _merge(merged, data)
            main = name
            break
    return merged, main


def _config_dir_files(base: Path) -> list[Path]:
    """The TOML/YAML/JSON files under the config folder ``base`` in the order Hugo
    walks it (names sorted, a subfolder's files where its name sorts)."""
    out: list[Path] = []
    for path in sorted(base.iterdir(), key=lambda p: p.name):
        if path.is_dir() and not path.is_symlink():
            out.extend(_config_dir_files(path))
        elif path.is_file() and path.suffix.lower() in (".toml", ".yaml", ".yml", ".json"):
            out.append(path)
    return out


def _lower_keys(data: dict[str, Any]) -> dict[str, Any]:
    """Hugo config keys are case-insensitive; ``params`` keep their case below the first level."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        k = str(key).lower()
        out[k] = _lower_keys(value) if isinstance(value, dict) and k not in ("params",) else value
    return out


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v not in (None, "")]
    return [str(value)] if str(value) else []


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), sub, out)
    elif isinstance(value, (str, int, float, bool)):
        out[prefix] = str(value)


def load_config(root: Path, *, environment: str = "production", language: str | None = None) -> SiteConfig:
    """Read the Hugo configuration at ``root`` into a :class:`SiteConfig`.

    ``content_dirs``: ``contentDir`` and every language's ``contentDir`` (or the
    ``content`` mounts); ``static_dirs``: ``staticDir`` (list or string,
    ``staticDir0..10``), theme ``static/`` folders and ``static`` mounts;
    ``settings``: ``assets_dirs`` (``;``-joined), ``static_mounts``/``assets_mounts``
    (``sub=source;...``: a mount whose target is a subfolder, ``target: static/images``),
    ``ignore_files`` (regexes joined
    by newlines), ``build_drafts``, ``publish_dir``, ``base_url_full``,
    ``languages`` (``;``-joined codes, ``defaultContentLanguage`` first: the codes
    a file name may carry, ``page.fr.md``), ``default_language_in_subdir`` and
    ``content_languages`` (``dir=code;...`` for per-language ``contentDir``, a
    disabled language's too, and content mounts with ``lang``),
    ``disabled_languages`` (``disableLanguages`` and ``languages.<l>.disabled``), ``content_mount_paths`` (``source=sub;...``
    for a content mount into a subfolder, ``target: content/docs``), ``content_file_mounts``
    (``target=source;...`` for a single file mounted into content, an image into a page bundle),
    ``passthrough_block``/``passthrough_inline`` (Goldmark passthrough delimiters, one
    ``open<TAB>close`` pair a line, when the extension is on).
    ``language`` (a language key, ``murar ingest --language``) is the language
    whose pages are read (``settings["content_language"]`` when it is not
    ``defaultContentLanguage``; ``config.language`` names the one read when the
    site has several).

    Raises:
        ConfigError: a config file is invalid, or ``language`` is not one of the
            site's languages (or is disabled).
    """
    root = root.resolve()
    cfg, main = read_hugo_config(root, environment=environment)
    content = _as_list(cfg.get("contentdir")) or ["content"]
    default_lang = str(cfg.get("defaultcontentlanguage") or "en").lower()
    raw_languages = cfg.get("languages")
    languages: dict[str, Any] = raw_languages if isinstance(raw_languages, dict) else {}
    disabled = {str(x).lower() for x in _as_list(cfg.get("disablelanguages"))}
    disabled |= {str(k).lower() for k, v in languages.items() if isinstance(v, dict) and v.get("disabled") is True}
    disabled.discard(default_lang)
    content_langs: dict[str, str] = {}  # a language's own contentDir -> its code
    for code, lang in languages.items():  # a disabled language's folder: not content, but still its language's
        if str(code).lower() in disabled and isinstance(lang, dict):
            for d in _as_list(lang.get("contentdir")):
                content_langs[safe_join(d) or "."] = str(code).lower()
    languages = {k: v for k, v in languages.items() if str(k).lower() not in disabled}
    i18n = [str(cfg.get("i18ndir") or "i18n")]
    for code, lang in languages.items():
        if isinstance(lang, dict):
            for d in _as_list(lang.get("contentdir")):
                content.append(d)
                content_langs[safe_join(d) or "."] = str(code).lower()
            i18n += _as_list(lang.get("i18ndir"))
    static = _as_list(cfg.get("staticdir")) or ["static"]
    for i in range(11):
        static += _as_list(cfg.get(f"staticdir{i}"))
    assets = _as_list(cfg.get("assetdir")) or ["assets"]
    module = cfg.get("module") or {}
    mounts = module.get("mounts") if isinstance(module, dict) else None
    sub_mounts: dict[str, list[str]] = {"static": [], "assets": []}  # "sub=source" of mounts into a subfolder
    content_subs: dict[str, str] = {}  # content mount source -> the subfolder of content it is mounted at
    lang_mounts: dict[str, str] = {}  # content mount source -> the one language of the first mount of it
    content_mounts: list[str] = []  # "source=sub=codes" of every content mount, in order ("" codes: no lang)
    content_filters: list[str] = []  # source, includeFiles, excludeFiles of every content mount (\x1f, \x1e)
    file_mounts: list[str] = []  # "target=source" of a file mounted into content (an image into a bundle)
    if isinstance(mounts, list) and mounts:
        by_target: dict[str, list[str]] = {}
        for mount in mounts:
            if isinstance(mount, dict) and mount.get("source") and mount.get("target"):
                root_part, _, sub = str(mount["target"]).strip("/").partition("/")
                by_target.setdefault(root_part, [])
                source = safe_join(str(mount["source"]))
                if sub and root_part in sub_mounts:
                    sub_mounts[root_part].append(f"{safe_join(sub)}={source}")
                else:
                    by_target[root_part].append(source)
                if root_part == "content":
                    if sub:  # target content/docs: the source's pages are served under docs/
                        content_subs[source or "."] = safe_join(sub)
                        if source and (root / source).is_file():  # one file mounted at a content path
                            file_mounts.append(f"{safe_join(sub)}={source}")
                    # a mount of one language's content: lang (Hugo < 0.153) or sites.matrix.languages
                    sites = mount.get("sites")
                    matrix = sites.get("matrix") if isinstance(sites, dict) else None
                    langs = _as_list(mount.get("lang")) or (
                        _as_list(matrix.get("languages")) if isinstance(matrix, dict) else [])
                    if len(langs) == 1:
                        lang_mounts.setdefault(source or ".", langs[0].lower())
                    content_mounts.append(f"{source or '.'}={safe_join(sub)}="
                                          + ",".join(str(x).lower() for x in langs))
                    keys = {str(k).lower(): v for k, v in mount.items()}
                    content_filters.append("\x1f".join([source or ".", "\x1e".join(_as_list(keys.get("includefiles"))),
                                                        "\x1e".join(_as_list(keys.get("excludefiles")))]))
        # a mount of one language's files: those files are that language's, unless a mount without a language
        # (the default one's) holds them too: Hugo then builds them in both (a translation's fallback pages)
        plain = [m.split("=", 2)[0] for m in content_mounts if m.endswith("=")]
        for source, code in lang_mounts.items():
            if not any(is_within(source, p) for p in plain):
                content_langs[source] = code
        # a mount replaces the project's default folder of its component (Hugo module mounts docs)
        content = by_target.get("content", content)
        static = by_target.get("static", static)
        assets = by_target.get("assets", assets)
    themes_dir = str(cfg.get("themesdir") or "themes")
    # a theme's own folders stay mounted; a theme or imported module vendored with
    # `hugo mod vendor` lives in _vendor/<module path>/ (Hugo modules docs)
    imports = module.get("imports") if isinstance(module, dict) else None
    module_paths = [str(i.get("path")) for i in (imports if isinstance(imports, list) else [imports])
                    if isinstance(i, dict) and i.get("path")]
    themes = _as_list(cfg.get("theme"))
    for theme in dict.fromkeys(themes + module_paths):
        bases = [f"_vendor/{theme}"] if (root / "_vendor" / theme).is_dir() else []
        if (not bases and theme in themes) or (root / themes_dir / theme).is_dir():
            bases.append(f"{themes_dir}/{theme}")
        for base in bases:
            static.append(f"{base}/static")
            assets.append(f"{base}/assets")
            i18n.append(f"{base}/i18n")
    content_dirs = tuple(dict.fromkeys(safe_join(c) or "." for c in content))
    notes: tuple[str, ...] = ()
    if main is None and not cfg and not (root / "content").is_dir():
        # no Hugo configuration and no content/ folder: a content folder whose site is built elsewhere (Grafana's
        # docs/sources, mounted by the website's own Hugo project) is itself the content
        notes = ((f"no Hugo configuration or content folder in {root.name or root}: the folder is read as the "
                  "content of a site built elsewhere, its shortcodes as Hugo renders them"),)
        content_dirs = (".",)
    static_dirs = tuple(dict.fromkeys(safe_join(s) for s in static if safe_join(s)))
    include_dirs = tuple(f"{c}/includes" if c != "." else "includes" for c in content_dirs
                         if (root / c / "includes").is_dir())
    settings: dict[str, str] = {
        # Goldmark's definitionList extension (on unless markup.goldmark.extensions.definitionList = false)
        "definition_lists": str(_goldmark_extension(cfg, "definitionlist")).lower(),
        "assets_dirs": ";".join(dict.fromkeys(safe_join(a) for a in assets if safe_join(a))),
        "i18n_dirs": ";".join(dict.fromkeys(safe_join(d) for d in i18n if safe_join(d))),
        "static_mounts": ";".join(sub_mounts["static"]),
        "assets_mounts": ";".join(sub_mounts["assets"]),
        "ignore_files": "\n".join(_as_list(cfg.get("ignorefiles"))),
        "build_drafts": str(bool(cfg.get("builddrafts"))).lower(),
        "build_future": str(cfg.get("buildfuture") is True).lower(),
        "build_expired": str(cfg.get("buildexpired") is True).lower(),
        # front matter keys that date a page (Hugo's [frontmatter] publishDate/expiryDate, ":default" expanded)
        "publish_date_keys": ";".join(_date_keys(cfg, "publishdate", _PUBLISH_DATE_KEYS)),
        "expiry_date_keys": ";".join(_date_keys(cfg, "expirydate", _EXPIRY_DATE_KEYS)),
        "ugly_urls": str(cfg.get("uglyurls") is True).lower(),
        # Hugo lowercases the URL paths of content (disablePathToLower = false by default)
        "path_to_lower": str(cfg.get("disablepathtolower") is not True).lower(),
        "publish_dir": safe_join(str(cfg.get("publishdir") or "public")),
        # language codes a file name may carry (page.fr.md), the default language first
        "languages": ";".join(dict.fromkeys([default_lang, *(str(k).lower() for k in languages)])),
        "default_language_in_subdir": str(cfg.get("defaultcontentlanguageinsubdir") is True).lower(),
        # disableLanguages and languages.<l>.disabled: their content (page.no.md too) is not built
        "disabled_languages": ";".join(sorted(disabled)),
        "content_languages": ";".join(f"{d}={code}" for d, code in content_langs.items()),
        "content_mount_paths": ";".join(f"{d}={sub}" for d, sub in content_subs.items()),
        # single files mounted into content ("target=source;...": Docsy's background.jpg into a page bundle)
        "content_file_mounts": ";".join(file_mounts),
        # Goldmark attribute lists (markup.goldmark.parser.attribute: title on, block off by default)
        "goldmark_attribute_title": _goldmark_attribute(cfg, "title", True),
        "goldmark_attribute_block": _goldmark_attribute(cfg, "block", False),
        # Goldmark's passthrough extension (Hugo math): "open<TAB>close" pairs, one a line
        "passthrough_block": "\n".join(f"{o}\t{c}" for o, c in _passthrough_delimiters(cfg, "block")),
        "passthrough_inline": "\n".join(f"{o}\t{c}" for o, c in _passthrough_delimiters(cfg, "inline")),
        # every content mount when one is of a language (mounts are read in order: the first file wins a path)
        "content_mounts": ";".join(content_mounts) if lang_mounts else "",
        # the includeFiles/excludeFiles globs of the content mounts, when a mount has some
        "content_mount_filters": "\n".join(content_filters) if any(
            f.split("\x1f", 1)[1].strip("\x1f") for f in content_filters) else "",
        # the themes and modules the site is built with (theme, module imports, mount sources): a theme whose
        # shortcode shares its name with another theme's (Doks' and Hextra's callout) is told apart by them
        "theme_paths": ";".join(dict.fromkeys([*themes, *module_paths, *(
            str(mt["source"]) for mt in (mounts if isinstance(mounts, list) else [])
            if isinstance(mt, dict) and mt.get("source"))])),
    }
    codes = settings["languages"].split(";")
    chosen = _chosen_language(language, codes, disabled, main)
    if chosen != default_lang:
        settings["content_language"] = chosen
    base = str(cfg.get("baseurl") or "/")
    return SiteConfig(generator=GENERATOR, root=root, config_file=main, content_dirs=content_dirs,
                      static_dirs=static_dirs, include_dirs=include_dirs,
                      exclude=(settings["publish_dir"], "resources/_gen", "node_modules"),
                      base_url=url_base_path(base), settings={**settings, "base_url_full": base},
                      language=chosen if len(codes) > 1 else "",
                      notes=notes + (_unread_content_dirs(root, content_langs, chosen) if language is not None else ()))


def _goldmark_attribute(cfg: dict[str, Any], key: str, default: bool) -> str:
    """``"true"``/``"false"``: the site's ``markup.goldmark.parser.attribute.<key>``."""
    node: Any = cfg
    for part in ("markup", "goldmark", "parser", "attribute"):
        node = node.get(part) if isinstance(node, dict) else None
    value = node.get(key) if isinstance(node, dict) else None
    return str(value if isinstance(value, bool) else default).lower()


def _unread_content_dirs(root: Path, content_langs: dict[str, str], chosen: str) -> tuple[str, ...]:
    """Notes on the ``contentDir`` of the language read (``--language``) that murar
    cannot read: one leading out of the corpus root (``../x``, an absolute path, a
    symbolic link out) or that is no folder; that language's pages there are not
    read (its translations by file name elsewhere still are)."""
    notes: list[str] = []
    for folder, code in content_langs.items():
        if code != chosen:
            continue
        where = f"language {chosen}: its contentDir {folder}"
        if folder.startswith(("../", "/")) or folder == ".." or inside_root(root / folder, root).problem:
            notes.append(f"{where} leads out of the corpus root; its pages there are not read")
        elif not (root / folder).is_dir():
            notes.append(f"{where} is not a folder; no pages are read from it")
    return tuple(notes)


def _chosen_language(language: str | None, codes: list[str], disabled: set[str], config_file: str | None) -> str:
    """The language key read: ``language`` (case-insensitive, as Hugo lower-cases
    language keys) when it is one of ``codes`` (``defaultContentLanguage`` first),
    else the default. Raises :class:`ConfigError` for another or a disabled one."""
    if language is None:
        return codes[0]
    wanted = language.strip().lower()
    if wanted in codes:
        return wanted
    where = f"languages in {config_file or 'the Hugo configuration'}"
    state = " is disabled (disableLanguages or languages.<key>.disabled)" if wanted in disabled else \
        " is not a language of this Hugo site"
    raise ConfigError(f"language {language!r}{state}; it has {', '.join(codes)} ({where})")


# ------------------------------------------------------------------ shortcodes

_SHORTCODE = re.compile(
    r"\{\{(?:(?P<angle><)|%)\s*(?P<close>/)?\s*(?P<name>[A-Za-z0-9_][\w./-]*)"
    # (an unquoted '{{' ends the arguments: a tag never closed fails at the next tag, not at the
    # end of the page, so thousands of them stay linear)
    r"(?P<args>(?:\"(?:[^\"\\]|\\.)*\"|`[^`]*`|(?!\s*/?\s*[>%]\}\}|\{\{)[^\"`])*)"
    r"\s*(?P<self>/)?\s*(?(angle)>|%)\}\}",
    re.DOTALL,
)
_ESCAPED = re.compile(r"\{\{([<%])/\*(.*?)\*/([>%])\}\}", re.DOTALL)
_ESCAPED_END = re.compile(r"\*/[>%]\}\}")
_ARG = re.compile(r"""(?:([A-Za-z_][\w-]*)\s*=\s*)?("(?:[^"\\]|\\.)*"|`[^`]*`|'[^']*'|[^\s"'`]+)""")


@dataclass(slots=True)
class Shortcode:
    """One parsed shortcode tag: ``name``, positional ``args``, named ``params``."""

    name: str
    args: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)

    def get(self, *names: str, pos: int | None = None) -> str:
        """The first named parameter present among ``names``, else the positional ``pos``."""
        for name in names:
            if name in self.params:
                return self.params[name]
        if pos is not None and pos < len(self.args):
            return self.args[pos]
        return ""


@dataclass(frozen=True, slots=True)
class PageResource:
    """One resource of a page bundle (Hugo "Page resources"): the file ``rel``
    (relative to the project root), its ``name`` (the path inside the bundle
    unless front matter ``resources`` renames it) and the ``title`` front matter
    gives it (``""`` when none does)."""

    rel: str
    name: str
    title: str = ""


def parse_args(name: str, text: str) -> Shortcode:
    """Parse a shortcode's parameters (``key="v"``, ``key=v``, ``"positional"``, raw ```v```).
    In a quoted value only ``\\"`` is an escape (Hugo's shortcode lexer): any other backslash
    stays, for the Markdown the template renders it with (Docsy's card ``title="\\*1732"``)."""
    sc = Shortcode(name=name.lower())
    for m in _ARG.finditer(text):
        key, raw = m.group(1), m.group(2)
        if raw[:1] == '"' and raw[-1:] == '"' and len(raw) >= 2:
            value = raw[1:-1].replace('\\"', '"')
        elif raw[:1] in ("`", "'") and raw[-1:] == raw[:1] and len(raw) >= 2:
            value = raw[1:-1]
        else:
            value = raw
        if key:
            sc.params[key.lower()] = value
        else:
            sc.args.append(value)
    return sc


def _md_image(src: str, alt: str, caption: str, *, html_out: bool = False) -> str:
    """An image with its caption as title: Markdown, or an ``<img>`` in an HTML page."""
    alt = re.sub(r"\s+", " ", alt).strip()
    caption = re.sub(r"\s+", " ", caption).strip()
    if html_out:
        title = f' title="{html.escape(caption)}"' if caption else ""
        return f'<img src="{html.escape(src)}" alt="{html.escape(alt)}"{title}>'
    alt = alt.replace("[", "\\[").replace("]", "\\]")
    caption = caption.replace("\\", "\\\\").replace('"', '\\"')
    title = f' "{caption}"' if caption else ""
    return f"![{alt}](<{src}>{title})"


def _bold(text: str, *, html_out: bool = False) -> str:
    """A block label set in bold, followed by a space."""
    return f"<strong>{html.escape(text)}</strong> " if html_out else f"**{text}** "


def _card_head(sc: Shortcode, *, html_out: bool = False) -> str:
    """The labels of a card that wraps content, as Docsy's card.html shows them above
    it: its ``header`` and ``title`` in bold, then its ``subtitle``, followed by a
    space; ``""`` when it has none."""
    header, title = _label_text(sc.params.get("header", "")), _label_text(sc.params.get("title", ""))
    parts = [_bold(x, html_out=html_out).strip() for x in dict.fromkeys((header, title)) if x]
    subtitle = _strip_markup(sc.get("subtitle", "subheader"))
    line = " ".join([*parts, subtitle] if subtitle else parts)
    return f"{line} " if line else ""


_ATX_HEADING = re.compile(r"^([ \t]*)#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE_LINE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")


def _raw_html_block(text: str) -> str:
    """A ``{{< >}}`` shortcode's template output as one raw HTML block: Hugo inserts that
    output into the rendered page unparsed ("Shortcodes": ``{{< >}}`` output is not
    rendered as Markdown), where its template's blank lines (an action alone on a line
    leaves its indentation) mean nothing; read as Markdown, such a line ends the HTML
    block and the indented markup after it becomes an indented code block. Output not
    starting with a tag (a value, Markdown a template writes) is returned as it is."""
    body = text.strip()
    if not body.startswith("<"):
        return text
    start = text.index(body)  # (the white space around it kept as it is)
    inside = "\n".join(line for line in body.split("\n") if line.strip())
    return text[:start] + inside + text[start + len(body):]


def _headings_as_labels(text: str) -> str:
    """``text`` with its Markdown ATX headings (outside fenced code) set as bold
    lines: in a card a heading labels the card, it opens no section of the page."""
    fences = FenceTracker(_FENCE_LINE)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if fences.in_code(line) or "#" not in line:
            continue
        m = _ATX_HEADING.match(line)
        if m:
            lines[i] = f"{m.group(1)}**{m.group(2)}**"
    return "\n".join(lines)


def _code_span(text: str, *, html_out: bool = False) -> str:
    """Inline code (Markdown backticks, or ``<code>`` in an HTML page)."""
    if html_out:
        return f"<code>{html.escape(text)}</code>"
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{ticks}{text}{ticks}"


def _strip_markup(text: str) -> str:
    """Caption text without inline HTML tags (Hugo captions are Markdown/HTML)."""
    return re.sub(r"<[^>]+>", "", text).strip()


# a Goldmark attribute list: {#id .class name=value name="value"} (goldmark parser/attribute.go)
# (attributes apart by blanks, none holding a blank or a brace: one way to read a line, no backtracking)
_GM_ATTR = r"""(?:[#.][^\s{}"'=]+|[A-Za-z_:][\w.:-]*=(?:"[^"\n]*"|'[^'\n]*'|[^\s{}"']+))"""
_GM_ATTRS = re.compile(rf"\{{[ \t]*{_GM_ATTR}(?:[ \t]+{_GM_ATTR})*[ \t]*\}}")
_GM_FENCE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})")


def goldmark_attributes(text: str, *, titles: bool = True, blocks: bool = False) -> str:
    """``text`` without the Goldmark attribute lists Hugo reads as attributes, so they
    are not page text. ``titles`` (``markup.goldmark.parser.attribute.title``, on by
    default): a list ending an ATX heading (``## Install {#install .big}`` is the
    heading "Install" with that id). ``blocks`` (``attribute.block``, off by default):
    a line holding only a list (``{.lead}``) attaches to the block above it and ends
    it (Hugo's attributes extension; checked with hugo 0.168 on a paragraph, a list
    and a quote). Fenced code is left alone; a brace group that is no attribute list
    stays text. Linear in the lines."""
    if "{" not in text:
        return text
    fences = FenceTracker(_GM_FENCE)
    out: list[str] = []
    for line in text.split("\n"):
        if fences.in_code(line) or "{" not in line or len(line) > 2000:
            out.append(line)
            continue
        if titles and re.match(r" {0,3}#{1,6}[ \t]", line):
            brace = line.rfind("{")  # the list ends the heading: from its last opening brace
            tail = line[brace:].rstrip()
            if line[brace - 1:brace].isspace() and _GM_ATTRS.fullmatch(tail):
                out.append(line[:brace].rstrip())
                continue
        if blocks:
            lead = re.match(r"(?:[ \t]*>)*[ \t]*", line)
            quote = lead.group(0) if lead else ""
            rest = line[len(quote):].strip()
            if rest.startswith("{") and _GM_ATTRS.fullmatch(rest):
                out.append(quote.rstrip(" \t>") if quote.strip() else "")
                continue
        out.append(line)
    return "\n".join(out)


def _caption_text(text: str) -> str:
    """A shortcode caption as a reader sees it: Hugo markdownifies it, so Markdown
    links read as their text and emphasis marks go (:func:`inline_text`; HTML tags
    dropped as by :func:`_strip_markup`)."""
    return inline_text(_strip_markup(text)) if re.search(r"[*_`\[\\]", text) else _strip_markup(text)


def _label_text(text: str) -> str:
    """A block label (tab/card ``header``, ``title``) as plain text: without HTML tags
    and without Markdown strong emphasis (Docsy headers are ``markdownify``'d:
    ``header="**C**"``), so the label can be set in bold or in a tab marker."""
    return re.sub(r"(\*\*|__)(.+?)\1", r"\2", _strip_markup(text)).strip()


def _truthy(value: str | None) -> bool:
    """A shortcode boolean parameter (``text=true``, ``code="true"``)."""
    return (value or "").strip().lower() in ("true", "1", "yes")


def _has_fence(text: str) -> bool:
    """True when ``text`` holds a fenced code block of its own (a line opening with ``` or ~~~)."""
    return re.search(r"^[ \t]*(```|~~~)", text, re.MULTILINE) is not None


def _fence(code: str, lang: str, *, html_out: bool = False, indent: str = "") -> str:
    """``code`` as a fenced block (fence longer than any backtick run inside), on its own
    lines; in an HTML page a ``<pre><code>`` block. ``indent``: the whitespace the
    shortcode stands after on its line (a step of a list): the fence is indented as
    much, so it stays in that block, and the code loses its common indentation (Hugo's
    ``.InnerDeindent``, which the embedded ``highlight`` uses)."""
    if html_out:
        cls = f' class="language-{html.escape(lang.strip())}"' if lang.strip() else ""
        return f"\n<pre><code{cls}>{html.escape(code.strip(chr(10)))}</code></pre>\n"
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    ticks = "`" * max(3, longest + 1)
    if indent:
        lines = textwrap.dedent(code).strip("\n").split("\n")
        body = "\n".join(indent + line if line.strip() else "" for line in lines)
        return f"\n{indent}{ticks}{lang.strip()}\n{body}\n{indent}{ticks}\n"
    return f"\n{ticks}{lang.strip()}\n{code.strip(chr(10))}\n{ticks}\n"


#: a list item's first line: its marker and the spaces after it set the column of its content
_LIST_ITEM = re.compile(r"^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\S")
#: lines looked back from a shortcode for the list item it is indented under
_LIST_LOOKBACK = 200


def _line_indent(body: str, start: int) -> str:
    """The spaces before ``start`` on its line when nothing else stands there and they
    put it inside a list item (the nearest less indented line above is an item whose
    content starts at most that far in: a step's code), else ``""``: an indented line
    elsewhere is left as it was."""
    line_start = body.rfind("\n", 0, start) + 1
    prefix = body[line_start:start]
    if not prefix or prefix.strip(" ") or len(prefix) > 12:
        return ""
    end = line_start - 1
    for _ in range(_LIST_LOOKBACK):
        if end <= 0:
            return ""
        begin = body.rfind("\n", 0, end) + 1
        line = body[begin:end]
        end = begin - 1
        if not line.strip() or len(line) - len(line.lstrip(" ")) >= len(prefix):
            continue
        item = _LIST_ITEM.match(line)
        return prefix if item and len(item.group(1).expandtabs(4)) <= len(prefix) else ""
    return ""


class _LineIndents:
    """The lines of a page for range questions in constant time: the least indentation (in
    spaces) of the non-blank lines ``first`` to ``last - 1`` (a sparse table of minima), and
    whether one of them is indented with a tab (prefix counts). Built in O(n log n)."""

    def __init__(self, body: str) -> None:
        lines = body.split("\n")
        self._starts = [0]
        for line in lines[:-1]:
            self._starts.append(self._starts[-1] + len(line) + 1)
        blank = 1 << 30
        level = [len(x) - len(x.lstrip(" ")) if x.strip() else blank for x in lines]
        self._levels = [level]
        width = 1
        while width * 2 <= len(level):
            prev = self._levels[-1]
            self._levels.append([min(prev[i], prev[i + width]) for i in range(len(prev) - width)])
            width *= 2
        tabs = [0]
        for x in lines:
            tabs.append(tabs[-1] + ("\t" in x[:len(x) - len(x.lstrip())]))
        self._tabs = tabs

    def line_of(self, pos: int) -> int:
        """The 0-based line holding the character at ``pos``."""
        return bisect.bisect_right(self._starts, pos) - 1

    def least_indent(self, first: int, last: int) -> int:
        """The least indentation of the non-blank lines ``first``..``last - 1``; 0 when there are none."""
        if last <= first:
            return 0
        k = (last - first).bit_length() - 1
        row = self._levels[k]
        least = min(row[first], row[last - (1 << k)])
        return 0 if least == 1 << 30 else least

    def tab_indented(self, first: int, last: int) -> bool:
        """Whether one of the lines ``first``..``last - 1`` has a tab in its indentation."""
        return last > first and self._tabs[last] - self._tabs[first] > 0


def _deindent_inner(body: str, margin_of: Callable[[re.Match[str]], int | None]) -> str:
    """``body`` with the content of paired ``{{< >}}`` shortcodes moved left to the column
    ``margin_of(tag)`` gives (``None``: left alone), its lines' relative indentation kept.
    Hugo hands such a shortcode its content raw, and tab and callout templates render it on
    their own (Hextra's ``tab.html``/``callout.html``: ``.InnerDeindent | markdownify``),
    where murar reads it in the page: content indented under a list step (4 spaces and more
    past it) was read as a code block, its screenshot markup as text. One pass; a shortcode
    inside one moved is left to it."""
    tags = list(_SHORTCODE.finditer(body))
    closing = _closing_tags(tags)
    edits: list[tuple[int, int, str]] = []
    done = 0
    index: _LineIndents | None = None  # built on the first shortcode asked about
    for m in tags:
        if m.group("close") or m.group("self") or m.group("angle") is None or m.start() < done \
                or m.start() not in closing:
            continue
        margin = margin_of(m)
        if margin is None:
            continue
        close = closing[m.start()]
        index = index or _LineIndents(body)
        # the lines between the tag's line and the closing tag's: their least indentation, and whether one is
        # indented with a tab, looked up in the page's index (each set's own scan made nested sets quadratic)
        first, last = index.line_of(m.end()) + 1, index.line_of(close.start())
        shift = index.least_indent(first, last) - margin
        if shift <= 0 or index.tab_indented(first, last):
            continue
        lines = body[m.end():close.start()].split("\n")
        inner = lines[1:-1]
        edits.append((m.end(), close.start(), "\n".join([lines[0], *(x[shift:] for x in inner), lines[-1]])))
        done = close.end()
    pieces: list[str] = []
    pos = 0
    for start, end, text in edits:  # in order, apart
        pieces += [body[pos:start], text]
        pos = end
    return "".join([*pieces, body[pos:]])


#: characters of each of the last moved pieces a tab set's list step is looked for in
_STEP_LOOKBACK_CHARS = 50_000


def _tab_sets_in_steps(body: str) -> str:
    """``body`` with the content of each paired ``{{< >}}`` tab set opened inside a list
    step (:func:`_line_indent`) moved right to that step's column where it stands left of
    it, its lines' relative indentation kept. Hugo puts such a shortcode's output in the
    page where it stands, never read as Markdown there, so a tab set opened in a step is
    in that step however its content is indented (the OpenTelemetry docs write the tabs' code fences at the margin under
    a step's ``{{< tabpane >}}``), and the step goes on after it; read in place, a fence
    at the margin ended the list, and the step's later text (a heading, a table) became
    an indented code block. One pass; a set inside one moved goes with it."""
    tags = list(_SHORTCODE.finditer(body))
    closing = _closing_tags(tags)
    pieces: list[str] = []
    pos = done = 0
    for m in tags:
        if m.group("close") or m.group("self") or m.start() < done or m.start() not in closing \
                or m.group("name").lower() not in _TAB_SETS or m.group("angle") is None:
            continue
        # (the step is looked for above the set as already moved: a set earlier in the step, its
        # fences moved off the margin, does not end the step)
        indent = body[body.rfind("\n", 0, m.start()) + 1:m.start()]
        if not indent or indent.strip(" "):  # (at the margin or after text: in no step; nothing copied)
            continue
        # the text above, within a bounded reach (the page up to each set was copied for each set:
        # 20,000 sets not moved took seconds, quadratic)
        low_end = max(pos, m.start() - 4 * _STEP_LOOKBACK_CHARS)
        above = ("".join(x[-_STEP_LOOKBACK_CHARS:] for x in pieces[-4:]) if low_end == pos else "") \
            + body[low_end:m.start()]
        step = len(_line_indent(above, len(above)))
        if not step:
            continue
        close = closing[m.start()]
        lines = body[m.end():close.start()].split("\n")
        inner = lines[1:-1]  # the lines between the set's opening line and its closing tag's
        texts = [x for x in inner if _SHORTCODE.sub("", x).strip()]  # (lines of tags only: no content)
        low = min((len(x) - len(x.lstrip(" ")) for x in texts), default=step)
        if low >= step or any("\t" in x[:len(x) - len(x.lstrip())] for x in inner):
            continue
        pad = " " * (step - low)
        pieces += [body[pos:m.end()], "\n".join([lines[0], *(pad + x if x.strip() else x for x in inner), lines[-1]])]
        pos = done = close.start()
    return "".join([*pieces, body[pos:]])


def _tab_steps(body: str) -> dict[int, int]:
    """The column of the list step each tab of ``body`` is in (by its opening tag's
    start), through its tab set (:func:`_tab_sets_in_steps`); tabs of a set outside a
    list are left out."""
    tags = list(_SHORTCODE.finditer(body))
    closing = _closing_tags(tags)
    steps: dict[int, int] = {}
    open_sets: list[tuple[int, int]] = []  # (closing tag start, step column) of the sets open here
    for m in tags:
        while open_sets and open_sets[-1][0] <= m.start():
            open_sets.pop()
        name = m.group("name").lower()
        if m.group("close") or m.group("self"):
            continue
        if name in _TAB_SETS and m.start() in closing:
            open_sets.append((closing[m.start()].start(), len(_line_indent(body, m.start()))))
        elif name in _TAB_ITEMS and open_sets and open_sets[-1][1]:
            steps[m.start()] = open_sets[-1][1]
    return steps


def _closing_tags(tags: list[re.Match[str]]) -> dict[int, re.Match[str]]:
    """The closing tag of each opening one (by its start) among the shortcode ``tags`` of a
    text in order, nesting aware per name (a stack per name; one pass). An opening tag
    never closed has none: before, each one's closing tag was looked for to the end of
    the text (thousands of unclosed ones: quadratic)."""
    closing: dict[int, re.Match[str]] = {}
    open_tags: dict[str, list[re.Match[str]]] = {}
    for m in tags:
        name = m.group("name").lower()
        if m.group("close"):
            if open_tags.get(name):
                closing[open_tags[name].pop().start()] = m
        elif not m.group("self"):
            open_tags.setdefault(name, []).append(m)
    return closing


# --------------------------------------------------------------------- site


def _goldmark_extension(cfg: dict[str, Any], name: str) -> bool:
    """Whether Goldmark's extension ``name`` (lower case) is on: Hugo turns its extensions on by
    default (markup.goldmark.extensions); only an explicit ``false`` turns one off."""
    node: Any = cfg
    for key in ("markup", "goldmark", "extensions", name):
        if not isinstance(node, dict):
            return True
        node = next((v for k, v in node.items() if str(k).lower() == key), None)
    return node is not False


def _passthrough_delimiters(cfg: dict[str, Any], kind: str) -> list[tuple[str, str]]:
    """The ``kind`` (``block``/``inline``) delimiter pairs of Goldmark's passthrough extension
    when the site enables it (``markup.goldmark.extensions.passthrough``: ``enable: true``,
    ``delimiters.block: [['\\[', '\\]'], ['$$', '$$']]``; Hugo's "Mathematics" setup), else none."""
    node: Any = cfg
    for key in ("markup", "goldmark", "extensions", "passthrough"):
        node = next((v for k, v in node.items() if str(k).lower() == key), None) if isinstance(node, dict) else None
    if not isinstance(node, dict) or node.get("enable") is not True:
        return []
    delimiters = node.get("delimiters")
    pairs = delimiters.get(kind) if isinstance(delimiters, dict) else None
    out: list[tuple[str, str]] = []
    for pair in pairs if isinstance(pairs, list) else []:
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) and x.strip() for x in pair) \
                and not any(c in "\t\n" for x in pair for c in x):
            out.append((pair[0].strip(), pair[1].strip()))
    return out[:8]


_CODE_SPAN = re.compile(r"(`+[^`]*?`+)")


def passthrough_math(body: str, block: list[tuple[str, str]], inline: list[tuple[str, str]]) -> str:
    """``body`` with the text Goldmark's passthrough extension hands to the math renderer kept as
    written (Hugo "Mathematics": with the extension on, ``\\(a_1\\)`` and ``\\[ ... \\]`` are KaTeX
    source, not Markdown whose ``\\(`` is an escaped parenthesis and ``_`` emphasis), in murar's
    convention for formulas (:mod:`murar.ingest.markup.mathtext`): a line opening with a block
    delimiter, up to the line its closing one ends (at most 500 lines), is a ``$$`` block in a
    fence; an inline pair on one line is ``$...$`` in a code span. Fenced code and code spans
    stay as they are. The lines ending with a closing delimiter are listed once, so a page of
    unclosed openers is read in one pass."""
    if not block and not inline or not any(o in body for o, _ in [*block, *inline]):
        return body
    lines = body.split("\n")
    fences = FenceTracker(_GM_FENCE)
    ends: dict[str, list[int]] = {}  # closing delimiter -> the lines that end with it
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if fences.in_code(line):
            out.append(line)
            i += 1
            continue
        stripped = line.lstrip(" \t>")
        lead = line[:len(line) - len(stripped)]
        opened = next(((o, c) for o, c in block if stripped.startswith(o)), None)
        if opened is not None:
            open_, close = opened
            rest = stripped[len(open_):]
            found = None
            if rest.rstrip().endswith(close) and len(rest.strip()) >= len(close):
                found = (i, rest.rstrip().rfind(close))
            else:  # the next line that ends with the closing delimiter (listed once per delimiter)
                if close not in ends:
                    ends[close] = [k for k, ln in enumerate(lines) if ln.rstrip().endswith(close)]
                k = bisect.bisect_right(ends[close], i)
                if k < len(ends[close]) and ends[close][k] < i + 500:
                    j = ends[close][k]
                    found = (j, lines[j].rstrip().rfind(close))
            if found is not None:
                j, at = found
                parts = [rest, *lines[i + 1:j + 1]] if j > i else [rest]
                parts[-1] = parts[-1][:at] if j > i else rest[:at]
                out.extend(math_fence(lead, "\n".join(p.removeprefix(lead) for p in parts)))
                i = j + 1
                continue
        if any(o in line for o, _ in inline):
            pieces = _CODE_SPAN.split(line) if "`" in line else [line]  # code spans (odd items) stay
            for k in range(0, len(pieces), 2):
                for open_, close in inline:
                    pieces[k] = _inline_passthrough(pieces[k], open_, close)
            line = "".join(pieces)
        out.append(line)
        i += 1
    return "\n".join(out)


def _inline_passthrough(text: str, open_: str, close: str) -> str:
    """``text`` with each ``open_ ... close`` formula (at most 2,000 characters, no blank just
    inside its delimiters) as ``$...$`` in a code span; the closing delimiters are listed once,
    each opening one finds the next by bisection and reads at most 2,000 characters up to it
    (a line of openers far from any closer: linear, not one long slice per opener)."""
    if open_ not in text:
        return text
    closes = [m.start() for m in re.finditer(re.escape(close), text)]
    out: list[str] = []
    pos = 0
    while (at := text.find(open_, pos)) >= 0:
        k = bisect.bisect_left(closes, at + len(open_))
        if k == len(closes):
            break
        start = at + len(open_)
        inner = text[start:closes[k]] if closes[k] - start <= 2000 else ""  # the distance first: a
        if inner and inner == inner.strip():  # long slice per opener was quadratic
            out += [text[pos:at], math_code_span(inline_math(inner))]
            pos = closes[k] + len(close)
        else:
            out.append(text[pos:at + 1])
            pos = at + 1
    out.append(text[pos:])
    return "".join(out)


def _delimiter_pairs(setting: str) -> list[tuple[str, str]]:
    """The ``open<TAB>close`` lines of a passthrough setting as pairs."""
    return [(o, c) for o, _, c in (ln.partition("\t") for ln in setting.split("\n") if "\t" in ln)]


def published_name(name: str) -> str:
    """The URL segment Hugo publishes a content file or folder name at: lower case,
    spaces as hyphens (``Getting Started`` at ``getting-started``; unless ``disablePathToLower``)."""
    return name.lower().replace(" ", "-")


class HugoSite:
    """A Hugo project (see module doc). Build with :func:`load` (reads the config)
    or from a :class:`SiteConfig`; the constructor does no I/O."""

    def __init__(self, config: SiteConfig, params: dict[str, str] | None = None,
                 cascade: list[dict[str, Any]] | None = None) -> None:
        self._config = config
        self._params = dict(params or {})
        self._cascade: list[dict[str, Any]] = list(cascade or [])  # the site configuration's cascade
        self._root = config.root
        self._published = NameMatcher(config.root, published_name)  # URL paths
        self._ignore: list[re.Pattern[str]] | None = None
        self._included: frozenset[str] | None = None
        self._front: dict[str, dict[str, Any]] = {}
        self._toc_trees: dict[str, str] = {}  # page -> its Geekdoc toc-tree (drawn once)
        self._value_templates: dict[str, str | None] = {}  # shortcode -> its template, when it has actions
        self._shortcode_names: dict[str, dict[str, str]] = {}  # shortcode folder -> lower-case file name -> name
        self._data_files: dict[str, Any] = {}  # data file -> its content (None: absent or unreadable)
        self._indexes: dict[str, tuple[str, ...]] = {}
        self._langs = tuple(x for x in config.settings.get("languages", "en").split(";") if x) or ("en",)
        # the language read (--language), else defaultContentLanguage
        self._lang = config.settings.get("content_language") or self._langs[0]
        self._content_langs: list[tuple[str, str]] | None = None
        self._disabled = frozenset(x for x in config.settings.get("disabled_languages", "").split(";") if x)
        # content folder -> the content subfolder it is mounted at (module mounts target: content/docs/spec)
        self._content_mounted_at: dict[str, str] = dict(
            kv.split("=", 1) for kv in config.settings.get("content_mount_paths", "").split(";") if "=" in kv)
        self._doks = "doks" in config.settings.get("theme_paths", "").lower()  # a Doks (Thulite) site
        self._docsy = "docsy" in config.settings.get("theme_paths", "").lower()  # a Docsy site
        self._geekdoc = "geekdoc" in config.settings.get("theme_paths", "").lower()  # a Geekdoc site
        self._hextra = "hextra" in config.settings.get("theme_paths", "").lower()  # a Hextra site
        # a site on hugo-theme-learn or its fork Relearn (their children shortcode lists the child pages)
        self._learn = any("learn" in posixpath.basename(t.rstrip("/")).lower()
                          for t in config.settings.get("theme_paths", "").split(";"))
        # a Hugo Book site (its section shortcode lists the child pages)
        self._book = any(posixpath.basename(t.rstrip("/")).lower() in ("hugo-book", "book")
                         for t in config.settings.get("theme_paths", "").split(";"))
        # Goldmark's definition lists ('Term' then ': definition'), on by default
        self.markdown_plugins: tuple[str, ...] = (
            ("deflist",) if config.settings.get("definition_lists", "true") == "true" else ())
        self._i18n: dict[str, str] | None = None
        self._glossary: dict[str, dict[str, str]] | None = None
        self._bundle_files: dict[str, list[str]] = {}  # leaf bundle index -> its files (tab include=)
        self._resources: dict[str, list[PageResource]] = {}
        self._static_templates: dict[str, str | None] = {}  # site shortcode templates without actions
        # project content views (layouts/<type>/content.html) -> the lead parameter ("" none, None no file)
        self._lead_params: dict[str, str | None] = {}
        # shortcode -> the parameters its template draws as an <img>: (src, alt, caption); None: no image
        self._image_templates: dict[str, _TemplateImage | None] = {}
        self._include_templates: dict[str, tuple[str, str, str] | None] = {}
        self._glob_chars: dict[str, int] = {}  # characters of names tested against globs, per page
        self._boilerplates: dict[str, list[str]] = {}  # boilerplates folder -> its page files' names, sorted

    @property
    def config(self) -> SiteConfig:
        return self._config

    # ------------------------------------------------------------ classify
    def _ignore_patterns(self) -> list[re.Pattern[str]]:
        if self._ignore is None:
            pats: list[re.Pattern[str]] = []
            for raw in self._config.settings.get("ignore_files", "").splitlines():
                if (problem := regex_problem(raw)) is not None:  # Hugo's RE2 is linear, Python's re is not
                    log.warning("Hugo ignoreFiles: regular expression %r ignored: it %s", raw[:200], problem)
                else:
                    pats.append(re.compile(raw))
            self._ignore = pats
        return self._ignore

    def _content_dir_of(self, rel: str) -> str | None:
        for c in self._config.content_dirs:
            if is_within(rel, c):
                return c
        return None

    def _front_matter(self, rel: str) -> dict[str, Any]:
        if rel not in self._front:
            head = ""
            try:  # a page or _index.md symlinked out of the root is not read (its cascade neither)
                if inside_root(self._root / rel, self._root.resolve()).rel_path is not None:
                    with (self._root / rel).open("r", encoding="utf-8-sig", errors="replace") as fh:
                        head = fh.read(16_384)
            except OSError:
                head = ""
            self._front[rel] = split_front_matter(front_matter_as_hugo_reads_it(head))[0]
        return self._front[rel]

    def included_files(self) -> frozenset[str]:
        """Files pulled in by include shortcodes anywhere in the content, and by the site's
        own shortcodes whose template writes a file a parameter names (:meth:`_template_include`:
        the YugabyteDB docs' ``{{% includeMarkdown "x.md" %}}`` reads ``x.md`` beside the
        page), and by Kubernetes-style tabs' ``include=`` (:meth:`tab_include_target`);
        lazily scanned once."""
        if self._included is None:
            found: set[str] = set()
            md = frozenset(k for k, v in PAGE_MARKUP.items() if v == "markdown")
            for content in self._config.content_dirs:
                for rel in os_walk_files(self._root, content, md):
                    try:
                        text = (self._root / rel).read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    for m in _SHORTCODE.finditer(text):
                        name = m.group("name").lower()
                        if m.group("close"):
                            continue
                        if name in _TAB_ITEMS and "include" in m.group("args"):
                            # Kubernetes' tabs: a tab's include= file is shown in the page (tabs.html)
                            got = self.tab_include_target(
                                parse_args(m.group("name"), m.group("args")).params.get("include", ""), page_rel=rel)
                            if got:
                                found.add(got)
                            continue
                        if name not in INCLUDE_SHORTCODES:
                            reads = self._template_include(name, parse_args(m.group("name"), m.group("args")),
                                                           page_rel=rel)
                            got = self._template_include_target(*reads) if reads is not None else None
                            if got:
                                found.add(got)
                            continue
                        sc = parse_args(m.group("name"), m.group("args"))
                        target = sc.get("file", "path", "src", pos=0)
                        if target:
                            res = self.resolve_include(target, page_rel=rel)
                            if res.rel_path and not res.problem:
                                found.add(res.rel_path)
            self._included = frozenset(found)
        return self._included

    def classify(self, rel: str) -> FileClass:
        """Pages are content files under a content folder; files under ``includes``
        folders or pulled in by include shortcodes are includes; drafts,
        ``headless`` bundles, ``build.render: never`` and ``ignoreFiles`` matches
        are excluded; images and videos are assets; everything outside the
        content folders (layouts, themes, archetypes, the built ``public/``) is
        excluded. One language is ingested, ``defaultContentLanguage`` or the one
        chosen (``--language``): a content file of another configured language
        (:meth:`language_of`: a language code in its name, or its language's own
        ``contentDir``) is excluded as a translation. A page the chosen language
        has no translation of is not read in the default language instead: Hugo
        assigns a file without language code to the default language and builds
        each language from its own pages ("Translation by file name"; merging in
        another language's pages is a template's choice, ``lang.Merge``). Bundle
        resources do fall back (:meth:`resolve_asset`)."""
        suffix = suffix_of(rel)
        if any(is_within(rel, ex) for ex in self._config.exclude):
            return FileClass(role=FileRole.EXCLUDED, reason="Hugo build output or cache")
        if any(part[:1] in ("#", ".") or part.endswith("~") for part in rel.split("/")):
            # Hugo's file system skips names starting with "." or "#" or ending in "~" (editor files)
            return FileClass(role=FileRole.EXCLUDED, reason="hidden or editor temporary file (Hugo ignores it)")
        if suffix in IMAGE_SUFFIXES or suffix in VIDEO_SUFFIXES:
            return FileClass(role=FileRole.ASSET)
        content = self._content_dir_of(rel)
        if content is None:
            if suffix in ASSET_SUFFIXES:
                return FileClass(role=FileRole.ASSET)
            return FileClass(role=FileRole.EXCLUDED, reason="outside Hugo contentDir")
        markup = PAGE_MARKUP.get(suffix)
        if markup is None:
            if suffix in ASSET_SUFFIXES:
                return FileClass(role=FileRole.ASSET)
            return FileClass(role=FileRole.UNKNOWN, reason=f"unsupported file type {suffix or '(none)'}")
        for pat in self._ignore_patterns():
            if pat.search(rel) or pat.search("/" + rel):
                return FileClass(role=FileRole.EXCLUDED, markup=markup, reason=f"Hugo ignoreFiles {pat.pattern!r}")
        filtered = self._mount_filtered(rel)
        if filtered:
            return FileClass(role=FileRole.EXCLUDED, markup=markup, reason=filtered)
        lang = self.language_of(rel)
        fallback = lang != self._lang and self._mounted_for_language(rel)
        if fallback is not True and fallback:
            return FileClass(role=FileRole.EXCLUDED, markup=markup, reason=fallback)
        if lang != self._lang and not fallback:
            state = ", disabled" if lang in self._disabled else ""
            read = f"default language {self._lang}" if self._lang == self._langs[0] else \
                f"murar reads language {self._lang}"
            return FileClass(role=FileRole.EXCLUDED, markup=markup,
                             reason=f"translation (language {lang}{state}); {read}")
        if any(is_within(rel, inc) for inc in self._config.include_dirs) or rel in self.included_files():
            return FileClass(role=FileRole.INCLUDE, markup=markup)
        meta = self._front_matter(rel) if markup != "notebook" else {}
        if meta.get("draft") is True and self._config.settings.get("build_drafts") != "true":
            return FileClass(role=FileRole.EXCLUDED, markup=markup, reason="draft: true")
        if _never_rendered(meta):
            return FileClass(role=FileRole.EXCLUDED, markup=markup, reason="build options: never rendered")
        dated = self._unpublished(meta)
        if dated:
            return FileClass(role=FileRole.EXCLUDED, markup=markup, reason=dated)
        if self._in_headless_bundle(rel, content):
            return FileClass(role=FileRole.INCLUDE, markup=markup,
                             reason="headless bundle or cascaded build.render: never")
        if self._leaf_bundle_resource(rel, content):
            return FileClass(role=FileRole.INCLUDE, markup=markup,
                             reason="leaf bundle resource (Hugo renders no page for it)")
        return FileClass(role=FileRole.PAGE, markup=markup)

    def param(self, key: str, *, page_rel: str = "") -> str:
        """Hugo's ``param`` shortcode: the page's front matter value ``key`` (top
        level or under ``params``; a dotted key reaches into maps), else the site
        parameter (the default language's over the site's); keys are
        case-insensitive. ``""`` when unset. Never raises."""
        key = key.strip().lower()
        if not key:
            return ""
        if page_rel and (self._root / page_rel).is_file():
            lowered = self._page_params(page_rel)
            if key in lowered:
                return lowered[key]
            cascaded = self._cascaded_params(page_rel)
            if key in cascaded:
                return cascaded[key]
        return self._params.get(f"params.{key}", "")

    def _page_params(self, page_rel: str) -> dict[str, str]:
        """The page's own parameters, lower-cased dotted keys: its front matter's top-level keys and
        those under ``params`` (Hugo's ``.Param``/``.Params`` read both), flattened by :func:`_flatten`."""
        meta = self._front_matter(page_rel)
        page: dict[str, str] = {}
        _flatten("", {k: v for k, v in meta.items() if str(k).lower() != "params"}, page)
        if isinstance(meta.get("params"), dict):
            _flatten("", meta["params"], page)
        return {k.lower(): v for k, v in page.items()}

    def _cascaded_params(self, page_rel: str) -> dict[str, str]:
        """The front matter values ``cascade`` gives the page ``page_rel`` (flattened,
        lower-case keys, ``params`` maps merged in): the nearest section's first (a
        section page's own cascade reaches itself), then each ancestor's, then the
        site configuration's; an entry whose ``target`` leaves the page out gives
        nothing. Hugo front matter docs, "cascade" (checked with hugo 0.168: a
        ``{{% param %}}`` of a page reads a value an ancestor's ``_index.md`` cascades)."""
        content = self._content_dir_of(page_rel)
        if content is None:
            return {}
        branch = self.split_language(posixpath.splitext(posixpath.basename(page_rel))[0])[0] == "_index"
        path = self.logical_path(page_rel)
        kind = ("home" if path == "/" else "section") if branch else "page"
        cascades: list[Any] = []
        folder = posixpath.dirname(page_rel) or "."
        for _ in range(64):
            for cand in self._bundle_indexes(folder):
                if self.split_language(posixpath.splitext(posixpath.basename(cand))[0])[0] == "_index":
                    cascades.append(self._front_matter(cand).get("cascade"))
            if folder in (content, ".", ""):
                break
            folder = posixpath.dirname(folder) or "."
        cascades.append(self._cascade)
        found: dict[str, str] = {}
        for cascade in cascades:
            for entry in _cascade_entries(cascade, kind, path):
                flat: dict[str, str] = {}
                _flatten("", {k: v for k, v in entry.items() if str(k).lower() not in ("params", "target", "_target")},
                         flat)
                if isinstance(entry.get("params"), dict):
                    _flatten("", entry["params"], flat)
                for k, v in flat.items():
                    found.setdefault(k.lower(), v)
        return found

    @staticmethod
    def _html_page(page_rel: str) -> bool:
        """True when ``page_rel`` is an HTML content file (shortcode output there is HTML)."""
        return PAGE_MARKUP.get(suffix_of(page_rel)) == "html"

    def _read(self, rel: str, label: str, warnings: list[str], budget: PageCharBudget) -> str | None:
        """The text of the file ``rel`` a shortcode pulls in (:func:`read_include`: size-capped,
        the cut warned under ``label``), counted in the page's ``budget``; ``None`` with a
        warning when it cannot be read or the page is over its budget."""
        if budget.spent:
            return None  # (the page is over its budget: warned once)
        try:
            text = read_include(self._root / rel, label=label, warnings=warnings)
        except OSError as err:
            warnings.append(f"{label}: cannot read ({err})")
            return None
        return text if budget.spend(text, label, warnings) else None

    def callout(self, sc: Shortcode) -> str | None:
        """The label a callout shortcode's content is read with (:func:`callout_label`:
        an explicit title wins, else its kind as a word), ``""`` for a callout that
        shows no kind (a colour only), ``None`` when ``sc`` is no callout. As the
        themes take them: Hextra ``{{< callout type="info" >}}`` (its own Markdown
        output's kinds, :data:`_HEXTRA_CALLOUTS`), Hugo Book ``{{< hint info >}}``
        and Geekdoc ``{{< hint type=note title=... >}}`` (kind ``note`` by default),
        LoveIt/FixIt/PaperMod ``{{< admonition tip "Title" >}}`` (or ``type=``/``title=``),
        Relearn ``{{% notice note "Title" %}}`` (``style``/``title`` by name too; a
        style that is only a colour shows no title), Docsy ``{{% alert title=...
        color=... %}}``, the nginx theme's ``{{< call-out class="note" title=... >}}``
        (also positional), and kind-named shortcodes (:data:`_KIND_SHORTCODES`)."""
        name, title = sc.name, sc.params.get("title", "")
        if name == "callout":
            if "type" in sc.params or not (sc.params.get("context") or sc.args or self._doks):
                kind = sc.params.get("type", "").strip().lower() or "default"
                return callout_label(_HEXTRA_CALLOUTS.get(kind, kind), title)
            # Doks (doks-core callout): context= or the first argument, "note" by default
            kind = (sc.params.get("context") or sc.get(pos=0)).strip().lower() or "note"
            return callout_label(kind, title)
        if name in ("hint", "admonition"):
            kind = sc.get("type", pos=0).strip().lower()
            title = title or (sc.get(pos=1) if name == "admonition" else "")
            return callout_label("note" if kind in ("", "default") else kind, title)
        if name == "notice":
            kind, title = sc.get("style", pos=0).strip().lower(), sc.get("title", pos=1)
            if title and not title.strip():
                return ""  # title=" ": Relearn's way to show no title, even for a severity style
            if kind in _CALLOUT_KINDS and not title:
                title = self.translate(kind)
            return callout_label(kind, title) if title.strip() or kind in _CALLOUT_KINDS else ""
        if name == "alert":
            kind = (sc.params.get("color") or sc.params.get("type") or sc.params.get("context") or "").strip().lower()
            return callout_label(kind, title) if title.strip() or kind in _CALLOUT_KINDS else ""
        if name == "call-out":
            kind = next((c for c in sc.get("class", pos=0).lower().split() if c in _CALLOUT_KINDS), "")
            title = sc.get("title", pos=1)
            return callout_label(kind, title) if title.strip() or kind else ""
        if name in _KIND_SHORTCODES:
            return callout_label(name, title or self.translate(name))
        return None

    def translate(self, key: str) -> str:
        """The translation of ``key`` into the language read from the i18n folders
        (project ``i18n/``, then themes; files named after the language, e.g.
        ``i18n/en.toml`` or ``i18n/en/en.toml``), as Hugo's ``T`` function gives it:
        ``key = "text"`` or ``[key] other = "text"``; a key the language read
        (``--language``) does not translate takes the default language's text
        (Hugo multilingual docs, "Missing translations"). ``""`` when absent.
        Never raises."""
        if self._i18n is None:
            table: dict[str, str] = {}
            for lang in dict.fromkeys((self._lang, self._langs[0])):
                self._read_translations(lang, table)
            self._i18n = table
        return self._i18n.get(key.lower(), "")

    def _read_translations(self, lang: str, table: dict[str, str]) -> None:
        """Add the i18n strings of ``lang`` to ``table`` (a key already there is kept)."""
        for folder in self._config.settings.get("i18n_dirs", "i18n").split(";"):
            if not folder:
                continue
            # not out of the root: an i18nDir of ../x or /etc, a folder or file linked out
            found = os_walk_files(self._root, folder, (".toml", ".yaml", ".yml", ".json"), skip_dirs=())
            files = [self._root / rel for rel in found if PurePosixPath(rel).stem.lower() == lang]
            for path in files:
                if inside_root(path, self._root).problem:
                    continue
                try:
                    data = load_data_file(path)
                except (OSError, ValueError):
                    continue
                for k, v in data.items():
                    text = v.get("other") or v.get("one") if isinstance(v, dict) else v
                    if isinstance(text, str) and str(k).lower() not in table:
                        table[str(k).lower()] = text

    def glossary_entry(self, term_id: str, *, page_rel: str = "") -> str | None:
        """The file of the glossary entry ``term_id``: a content file in a
        ``glossary`` folder whose front matter ``id`` or file name is the id
        (case-insensitive), in the page's content folder first (its language),
        then the others; ``None`` when there is none. Never raises."""
        if self._glossary is None:
            found: dict[str, dict[str, str]] = {}
            md = frozenset(k for k, v in PAGE_MARKUP.items() if v == "markdown")
            for content in self._config.content_dirs:
                entries = found.setdefault(content, {})
                for rel in os_walk_files(self._root, content, md):
                    if "/glossary/" not in f"/{rel}":
                        continue
                    meta = self._front_matter(rel)
                    stem = posixpath.splitext(posixpath.basename(rel))[0]
                    if self.split_language(stem)[0] in ("index", "_index"):
                        continue
                    for key in (str(meta.get("id") or ""), stem):
                        if key:
                            entries.setdefault(key.lower(), rel)
            self._glossary = found
        own = self._content_dir_of(page_rel) if page_rel else None
        order = ([own] if own in self._glossary else []) + [c for c in self._glossary if c != own]
        for content in order:
            if content is not None and term_id.lower() in self._glossary[content]:
                return self._glossary[content][term_id.lower()]
        return None

    def glossary_term(self, term_id: str, *, page_rel: str = "") -> str:
        """The title of the glossary entry ``term_id`` (see :meth:`glossary_entry`),
        else ``term_id`` itself. Never raises."""
        rel = self.glossary_entry(term_id, page_rel=page_rel)
        title = self._front_matter(rel).get("title") if rel else None
        return title.strip() if isinstance(title, str) and title.strip() else term_id

    def _unpublished(self, meta: dict[str, Any]) -> str:
        """Why Hugo does not publish a page by its dates ("" when it does): a publish
        date in the future (first of ``publishDate``, ``pubdate``, ``published``,
        ``date`` by default) without ``buildFuture``, or an expiry date in the past
        (``expiryDate``, ``unpublishdate``) without ``buildExpired``."""
        settings = self._config.settings
        now = datetime.now(UTC)
        if settings.get("build_future") != "true":
            when = _first_date(meta, settings.get("publish_date_keys", ";".join(_PUBLISH_DATE_KEYS)))
            if when is not None and when > now:
                return f"publish date {when.date().isoformat()} is in the future (Hugo buildFuture off)"
        if settings.get("build_expired") != "true":
            when = _first_date(meta, settings.get("expiry_date_keys", ";".join(_EXPIRY_DATE_KEYS)))
            if when is not None and when <= now:
                return f"expired {when.date().isoformat()} (Hugo buildExpired off)"
        return ""

    def split_language(self, name: str) -> tuple[str, str | None]:
        """``(base name, language)`` of a content file name without its format
        suffix: ``about.fr`` is ``("about", "fr")`` when ``fr`` is a configured
        language (or the default one), else ``("about.fr", None)`` (Hugo
        multilingual docs, "Translation by file name": the code is a suffix of
        the file name; an unknown code stays part of the name)."""
        stem, dot, code = name.rpartition(".")
        if dot and stem and code.lower() in self._langs:
            return stem, code.lower()
        return name, None

    def language_of(self, rel: str) -> str:
        """The content language of the content file ``rel`` (lower case): the
        configured (or disabled: ``disableLanguages``, ``languages.<l>.disabled``)
        language code in its file name (``page.fr.md``, ``_index.de.md``),
        else the language whose own ``contentDir`` (or content mount with
        ``lang``) holds it (the innermost such folder), else the default content
        language (``defaultContentLanguage``, default ``en``). Hugo multilingual
        docs, "Translation by file name" and "Translation by content directory".
        Never raises."""
        stem = posixpath.splitext(posixpath.basename(rel))[0]
        code = self.split_language(stem)[1]
        if code:
            return code
        base, dot, suffix = stem.rpartition(".")
        if dot and base and suffix.lower() in self._disabled:  # a disabled language's file: not built
            return suffix.lower()
        if self._content_langs is None:
            pairs = (kv.split("=", 1) for kv in self._config.settings.get("content_languages", "").split(";")
                     if "=" in kv)
            # innermost folder first: content/fr inside a default language's content
            self._content_langs = sorted(((d, c) for d, c in pairs if d and c), key=lambda dc: -len(dc[0]))
        for folder, code in self._content_langs:
            if is_within(rel, folder):
                return code
        return self._langs[0]

    def _mount_filtered(self, rel: str) -> str:
        """Why the content file ``rel`` is in no content mount, or ``""``: each mount holding
        it leaves it out by its ``excludeFiles`` globs, or by ``includeFiles`` it does not
        match (Hugo module mounts docs, Hugo < 0.153; globs relative to the mount source,
        matched with a leading ``/`` as Hugo's hglob filename filter does, a folder
        matching leaving out all below it, case-insensitive)."""
        spec = self._config.settings.get("content_mount_filters", "")
        if not spec:
            return ""
        reasons: list[str] = []
        for row in spec.split("\n")[:500]:
            source, _, rest = row.partition("\x1f")
            includes, _, excludes = rest.partition("\x1f")
            if not is_within(rel, source):
                continue
            inner = "/" + (rel[len(source) + 1:] if source not in (".", "") else rel)
            excluded = _mount_glob_hit(inner, excludes)
            if excluded:
                reasons.append(f"Hugo mount {source} excludeFiles {excluded!r}")
            elif includes and not _mount_glob_hit(inner, includes):
                reasons.append(f"not in Hugo mount {source} includeFiles")
            else:
                return ""  # mounted by this mount
        return reasons[0] if reasons else ""

    def _mounted_for_language(self, rel: str) -> bool | str:
        """Whether the content file ``rel``, of another language than the one read, is
        also mounted for the language read: Hugo (< 0.153, ``lang`` on a mount; 0.153+
        ``sites.matrix``) builds a file reached through several content mounts in each
        mount's language, so a translation mounts the default language's folder as its
        fallback pages (``source: content/en/docs, target: content/docs, lang: ja``).
        A mount without a language is the default language's. ``True`` when it is, a
        reason string when it is but an earlier mount for that language holds a file at
        the same path (Hugo module docs: the first mount wins), ``False`` otherwise; a
        file name carrying a language code (``page.fr.md``) is only that language's."""
        spec = self._config.settings.get("content_mounts", "")
        stem = posixpath.splitext(posixpath.basename(rel))[0]
        if not spec or self.split_language(stem)[1]:
            return False
        mounts = [m.split("=", 2) for m in spec.split(";")[:500] if m.count("=") >= 2]
        filters = self._config.settings.get("content_mount_filters", "").split("\n")  # one row per mount, in order
        for i, (source, sub, codes) in enumerate(mounts):
            if not is_within(rel, source) or self._lang not in (codes.split(",") if codes else [self._langs[0]]):
                continue
            _, _, rest = filters[i].partition("\x1f") if len(filters) == len(mounts) else ("", "", "\x1f")
            includes, _, excludes = rest.partition("\x1f")
            inner = "/" + (rel[len(source) + 1:] if source not in (".", "") else rel)
            if _mount_glob_hit(inner, excludes) or (includes and not _mount_glob_hit(inner, includes)):
                continue  # this mount leaves the file out (excludeFiles: specs/* of a translation's fallback)
            inner = rel[len(source) + 1:] if source not in (".", "") else rel
            target = safe_join(sub, inner)
            for other, other_sub, other_codes in mounts[:i]:  # an earlier mount of the language read
                if self._lang not in (other_codes.split(",") if other_codes else [self._langs[0]]):
                    continue
                if other_sub and not is_within(target, other_sub):
                    continue
                twin = safe_join(other, target[len(other_sub) + 1:] if other_sub else target)
                if twin and twin != rel and (self._root / twin).is_file():
                    return f"fallback page of language {self._lang} shadowed by {twin} (an earlier Hugo mount)"
            return True
        return False

    def _bundle_indexes(self, folder: str) -> tuple[str, ...]:
        """The bundle index files in ``folder`` (``index.*``/``_index.*`` of any
        content format, with or without a language code), cached per folder."""
        if folder not in self._indexes:
            found: list[str] = []
            try:
                names = sorted(p.name for p in (self._root / folder).iterdir() if p.is_file())
            except OSError:
                names = []
            for name in names:
                stem, suffix = posixpath.splitext(name)
                if suffix.lower() in PAGE_MARKUP and self.split_language(stem)[0] in ("index", "_index"):
                    found.append(f"{folder}/{name}" if folder not in ("", ".") else name)
            self._indexes[folder] = tuple(found)
        return self._indexes[folder]

    def _in_headless_bundle(self, rel: str, content: str) -> bool:
        """True when ``rel`` is a headless (or never rendered) leaf bundle's index or
        resource, or a branch bundle or its descendant under a ``cascade`` that
        sets ``build.render: never``. A branch ``_index`` page's own ``headless`` or
        ``build`` options do not reach its descendants (Hugo build options docs:
        only ``cascade`` passes them down)."""
        branch = self.split_language(posixpath.splitext(posixpath.basename(rel))[0])[0] == "_index"
        path = self.logical_path(rel)
        kind = ("home" if path == "/" else "section") if branch else "page"
        if _cascades_never_rendered(self._cascade, kind, path):  # the site configuration's cascade
            return True
        top = content.strip("/") or "."
        folder = posixpath.dirname(rel) or "."
        while is_within(folder, content):
            for cand in self._bundle_indexes(folder):
                meta = self._front_matter(cand)
                leaf = self.split_language(posixpath.splitext(posixpath.basename(cand))[0])[0] == "index"
                if leaf and folder != top and (meta.get("headless") is True or _never_rendered(meta)):
                    return True
                if not leaf and _cascades_never_rendered(meta.get("cascade"), kind, path):
                    return True
            if folder in (top, ".", ""):
                break
            folder = posixpath.dirname(folder) or "."
        return False

    def logical_path(self, rel: str) -> str:
        """Hugo's logical path of a content file (what cascade ``target.path``
        matches): ``/`` + its path under the content folder (mount target
        included), lower case, without format suffix, language code or
        ``index``/``_index``; ``/`` for the home page."""
        content = self._content_dir_of(rel) or "."
        inner = rel[len(content) + 1:] if content not in (".", "") else rel
        mounted_at = self._content_mounted_at.get(content, "")
        if rel == content:
            inner, mounted_at = (mounted_at or posixpath.basename(rel)), ""
        stem = posixpath.splitext(safe_join(mounted_at, inner))[0]
        base = self.split_language(posixpath.basename(stem))[0]
        stem = safe_join(posixpath.dirname(stem), base)
        if base in ("index", "_index"):
            stem = posixpath.dirname(stem)
        return "/" + stem.strip("/").lower()

    def _leaf_bundle_resource(self, rel: str, content: str) -> bool:
        """True when ``rel`` sits in a leaf bundle (a folder, at any depth above it,
        holding an ``index.*`` file) and is not that bundle's index: Hugo's page
        bundles docs make every other file of a leaf bundle a page resource, with
        no page of its own (it can still be pulled in by a shortcode). The content
        folder itself counts: an ``index.md`` there (not ``_index.md``) makes the
        home page a leaf bundle, so Hugo publishes no other page of that content
        folder, ``_index.md`` included (Hugo warns "Using index.md in your content's
        root directory is usually incorrect for your home page")."""
        top = content.strip("/")
        top = "" if top == "." else top
        folder = posixpath.dirname(rel)
        while is_within(folder, top) if top else True:
            for cand in self._bundle_indexes(folder):
                stem = posixpath.splitext(posixpath.basename(cand))[0]
                if cand != rel and self.split_language(stem)[0] == "index":
                    return True
            if folder == top:
                return False
            folder = posixpath.dirname(folder)
        return False

    # -------------------------------------------------------------- assets
    def page_url_dir(self, page_rel: str) -> str:
        """The URL folder of a page, without the base path: the front matter ``url``
        when set, else ``a/b`` for ``content/a/b.md`` (``a`` with ``uglyURLs``) and
        ``content/a/b/index.md``; ``""`` for the home page. A language code in the
        file name (``b.fr.md``, ``index.fr.md``) is not part of the URL; a page of
        a language other than the default (by file name or by its language's
        ``contentDir``) is served under ``fr/`` (Hugo multilingual docs)."""
        meta = self._front_matter(page_rel) if (self._root / page_rel).is_file() else {}
        url = meta.get("url")
        if isinstance(url, str) and url.startswith("/"):
            path = strip_base(url, self._config.base_url).strip("/")
            return posixpath.dirname(path) if posixpath.splitext(path)[1] else path
        content = self._content_dir_of(page_rel) or "."
        inner = page_rel[len(content) + 1:] if content not in (".", "") else page_rel
        mounted_at = self._content_mounted_at.get(content, "")
        if page_rel == content:  # a file mounted as a page (source: README.md, target: content/_index.md)
            inner, mounted_at = (mounted_at or posixpath.basename(page_rel)), ""
        inner = safe_join(mounted_at, inner)
        stem, _ = posixpath.splitext(inner)
        base, lang = self.split_language(posixpath.basename(stem))
        stem = safe_join(posixpath.dirname(stem), base)
        lang = lang or dict(kv.split("=", 1) for kv in self._config.settings.get("content_languages", "").split(";")
                            if "=" in kv).get(content)
        prefix = ""
        if lang and (lang != self._langs[0] or self._config.settings.get("default_language_in_subdir") == "true"):
            prefix = lang  # a language's pages are served under /<lang>/
        if base in ("index", "_index"):
            return safe_join(prefix, posixpath.dirname(stem))
        if isinstance(meta.get("slug"), str) and meta["slug"].strip("/"):
            stem = safe_join(posixpath.dirname(stem), str(meta["slug"]).strip("/"))
        if self._config.settings.get("ugly_urls") == "true":
            return safe_join(prefix, posixpath.dirname(stem))
        return safe_join(prefix, stem)

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Resolve an asset link as Hugo serves it: page-relative (bundle resources),
        then relative to the page URL (front matter ``url``/``slug`` and ``uglyURLs``
        honoured) in the static and content folders; root-relative (``/x``, base
        path removed) from the static folders, then the content folders (published
        bundle resources); last, ``assets/`` (global resources, as Hugo's embedded
        image render hook looks them up). A link to the site's
        own ``baseURL`` host is local. A page-relative link a bundle of the
        language read does not hold is looked up in its translations' bundles
        (:meth:`linked_bundle_dirs`). Never raises."""
        target = local_link(link, self._own_url)
        if isinstance(target, ResolvedLink):
            return target
        link, path = target
        cands: list[str] = []
        if path.startswith("/"):
            site_path = strip_base(path, self._config.base_url).lstrip("/")
            cands += self._served_from("static", site_path)
            # content is served at its path, and a language's under /<lang>/ (bundle resources too)
            content_paths = [site_path, *self._without_language_prefix(site_path)]
            cands += [safe_join(c, inner) for p in content_paths for c, inner in self._content_served(p)]
            if self._config.settings.get("path_to_lower", "true") == "true" \
                    and first_existing(self._root, cands) is None:  # (folders listed only when needed)
                cands += [f for p in content_paths for c, inner in self._content_served(p)
                          if (f := self._published_as(c, inner))]
            cands += self._served_from("assets", site_path)
            cands += self._file_mounted(content_paths)
        else:
            cands.append(safe_join(posixpath.dirname(page_rel), path))
            if self._lang != self._langs[0]:
                cands += [safe_join(d, path) for d in self.linked_bundle_dirs(page_rel)]
            url_dir = self.page_url_dir(page_rel)
            cands += self._served_from("static", safe_join(url_dir, path))
            cands += [safe_join(c, inner) for c, inner in self._content_served(safe_join(url_dir, path))]
            cands += self._served_from("assets", safe_join(path))
            served = safe_join(url_dir, path)
            cands += self._file_mounted([served, *self._without_language_prefix(served)])
        return lookup(self._root, cands, link=link)

    def _file_mounted(self, content_paths: list[str]) -> list[str]:
        """The project files mounted as single files at these content paths (Hugo module
        mounts: ``source: img/bg.jpg``, ``target: content/tests/cover/background.jpg`` puts
        the image in that page bundle, served beside the page); the target matched as
        written, else lower-cased as Hugo serves it."""
        mounts = self._config.settings.get("content_file_mounts", "")
        if not mounts:
            return []
        out: list[str] = []
        for pair in mounts.split(";"):
            target, _, source = pair.partition("=")
            if target and source and any(p == target or p == target.lower() for p in content_paths):
                out.append(source)
        return out

    def _without_language_prefix(self, site_path: str) -> list[str]:
        """``site_path`` without its leading language folder, when it starts with
        one a language's pages are served under (Hugo multilingual docs: every
        language but the default one at ``/<lang>/``, the default one too with
        ``defaultContentLanguageInSubdir``), as ``[path]``; else ``[]``."""
        head, sep, rest = site_path.partition("/")
        code = head.lower()
        if not sep or not rest or len(self._langs) < 2 or code not in self._langs:
            return []
        if code == self._langs[0] and self._config.settings.get("default_language_in_subdir") != "true":
            return []
        return [rest]

    def _published_as(self, content_dir: str, site_path: str) -> str | None:
        """The file under ``content_dir`` that Hugo publishes at the lower-cased URL
        ``site_path`` when its folders are not lower case (``content/docs/Concepts/
        x.png`` is served at ``/docs/concepts/x.png``: Hugo lowercases content URL
        paths unless ``disablePathToLower``, and writes a space as a hyphen,
        ``Getting Started/`` at ``getting-started/``); each folder and then the
        file name matched exactly, else without regard to case and spaces (:class:`NameMatcher`). ``None`` when there is no
        such file, or ``site_path`` has capitals (not a lower-cased URL). Never raises."""
        if site_path != site_path.lower():
            return None
        parts = [p for p in site_path.split("/") if p]
        if not parts or any(p in (".", "..") for p in parts):
            return None
        return self._published.find(safe_join(content_dir, *parts))

    def linked_bundle_dirs(self, page_rel: str) -> list[str]:
        """The folders of the bundles ``page_rel``'s translations would sit in
        when languages have their own ``contentDir``: the page's folder moved from
        its language's content folder to each other one (default language
        first). Hugo multilingual docs, "Page bundles": "each Page Bundle inherits
        the resources of its linked translated pages' bundles except for the
        content files", a file of the page's own bundle first. Translation by
        file name shares one bundle folder, so it adds nothing."""
        langs = dict(kv.split("=", 1) for kv in self._config.settings.get("content_languages", "").split(";")
                     if "=" in kv)
        folders = [d for d in dict.fromkeys([*self._config.content_dirs, *langs]) if d and (self._root / d).is_dir()]
        own = max((d for d in folders if is_within(page_rel, d)), key=len, default=None)
        if own is None:
            return []
        inner = posixpath.dirname(page_rel[len(own) + 1:] if own not in (".", "") else page_rel)
        others = sorted((d for d in folders if d != own), key=lambda d: langs.get(d, self._langs[0]) != self._langs[0])
        return [safe_join(d, inner) for d in others]

    def _served_from(self, component: str, site_path: str) -> list[str]:
        """Project files that serve ``site_path`` (relative to the ``component``
        root, ``"static"`` or ``"assets"``): the component's folders, then mounts
        into a subfolder of it (``source: img``, ``target: static/images`` serves
        ``images/x.png`` from ``img/x.png``)."""
        dirs = self._config.static_dirs if component == "static" else [
            a for a in self._config.settings.get("assets_dirs", "").split(";") if a]
        out = [safe_join(d, site_path) for d in dirs]
        for pair in self._config.settings.get(f"{component}_mounts", "").split(";"):
            sub, _, source = pair.partition("=")
            if sub and source and (site_path == sub or site_path.startswith(sub + "/")):
                out.append(safe_join(source, site_path[len(sub):].lstrip("/")))
        return out

    def _content_served(self, site_path: str) -> list[tuple[str, str]]:
        """The content folders that can serve ``site_path`` (relative to the site root), each
        with the path inside it: a folder mounted at a subfolder of content (``source: spec``,
        ``target: content/docs/spec``, Hugo module mounts) serves only the paths under that
        subfolder (``docs/spec/img/x.png`` from ``spec/img/x.png``), never ``img/x.png``."""
        out: list[tuple[str, str]] = []
        for content in self._config.content_dirs:
            sub = self._content_mounted_at.get(content, "")
            if not sub:
                out.append((content, site_path))
            elif site_path == sub or site_path.startswith(sub + "/"):
                out.append((content, site_path[len(sub):].lstrip("/")))
        return out

    def _own_url(self, link: str) -> str | None:
        full = self._config.settings.get("base_url_full", "")
        if "://" not in full:
            return None
        mine, other = urlsplit(full), urlsplit(link)
        if other.netloc.lower() != mine.netloc.lower() or not other.netloc:
            return None
        return other.path or "/"

    def page_resources(self, page_rel: str) -> list[PageResource]:
        """The resources of the bundle whose index is ``page_rel`` (``index.*`` or
        ``_index.*``), in path order: the files beside it and in its subfolders
        (not in a nested bundle, not content pages), at most
        :data:`_MAX_RESOURCES`. Front matter ``resources`` entries (``src`` a glob
        on the path inside the bundle; ``name``, ``title`` with ``:counter``) name
        and title them, the first entry that sets a key winning for that key
        (Hugo "Page resources", metadata). ``[]`` for a page that is no bundle.
        Never raises."""
        if page_rel in self._resources:
            return self._resources[page_rel]
        found: list[PageResource] = []
        self._resources[page_rel] = found
        stem = posixpath.splitext(posixpath.basename(page_rel))[0]
        if self.split_language(stem)[0] not in ("index", "_index") or not (self._root / page_rel).is_file():
            return found
        folder = posixpath.dirname(page_rel)
        files: list[str] = []
        pending = deque([folder])
        visited = 0
        while pending and len(files) < _MAX_RESOURCES and visited < _MAX_RESOURCES:
            current = pending.popleft()
            visited += 1
            try:
                entries = sorted(self._root.joinpath(current).iterdir(), key=lambda e: e.name)
            except OSError:
                continue
            if current != folder and self._bundle_indexes(current):
                continue  # a nested bundle holds its own resources
            for entry in entries:
                rel = f"{current}/{entry.name}" if current not in ("", ".") else entry.name
                if entry.name.startswith((".", "#")) or entry.is_symlink():
                    continue
                if entry.is_dir():
                    pending.append(rel)
                elif suffix_of(rel) not in PAGE_MARKUP and len(files) < _MAX_RESOURCES:
                    files.append(rel)
        meta = self._front_matter(page_rel).get("resources")
        specs = [s for s in meta if isinstance(s, dict) and s.get("src")] if isinstance(meta, list) else []
        counters: dict[tuple[int, str], int] = {}
        for rel in files:
            path = rel[len(folder) + 1:] if folder not in ("", ".") else rel
            values: dict[str, str] = {}
            for i, spec in enumerate(specs[:100]):
                if not self._glob(page_rel, str(spec["src"]), path):
                    continue
                for key in ("name", "title"):
                    if key not in values and isinstance(spec.get(key), str):
                        counters[i, key] = counters.get((i, key), 0) + 1
                        values[key] = spec[key].replace(":counter", str(counters[i, key]))
            found.append(PageResource(rel=rel, name=values.get("name") or path, title=values.get("title", "")))
        return found

    def page_resource(self, pattern: str, *, page_rel: str) -> PageResource | None:
        """The first resource of the page's bundle whose name matches the glob
        ``pattern`` (case-insensitive), as Hugo's ``.Resources.GetMatch`` picks it
        (Geekdoc ``img``/``video`` ``name=``, a name front matter ``resources``
        gives); ``None`` when none does. Never raises."""
        pattern = pattern.strip()
        if not pattern:
            return None
        return next((r for r in self.page_resources(page_rel) if self._glob(page_rel, pattern, r.name)), None)

    def _glob(self, page_rel: str, pattern: str, name: str) -> bool:
        """:func:`_glob_match` of a resource ``name``, the characters tested charged to
        the page (:data:`_MAX_GLOB_CHARS`; past them nothing matches: 5,000 carousels
        over a bundle of 1,000 long file names stop matching)."""
        spent = self._glob_chars.get(page_rel, 0) + len(name) + 1
        self._glob_chars[page_rel] = spent
        return spent <= _MAX_GLOB_CHARS and _glob_match(pattern, name)

    def resolve_shortcode_src(self, src: str, *, page_rel: str) -> ResolvedLink:
        """Resolve an image shortcode's ``src`` the way Hugo's ``figure`` does: a page
        resource of the bundle (a name without suffix as a ``GetMatch`` pattern, as
        Docsy's ``imgproc``), then a global resource (``assets/``), then the link
        as the page would write it, then (theme ``img`` convention) a site path in
        the static folders even without a leading ``/``. Never raises."""
        src = src.strip()
        if not src or is_remote(src):
            return self.resolve_asset(src, page_rel=page_rel)
        path, _ = split_link(src)
        page_dir = posixpath.dirname(page_rel)
        cands = [] if path.startswith("/") else [safe_join(page_dir, path)]
        cands += self._served_from("assets", safe_join(path.lstrip("/")))
        found = first_existing(self._root, cands)
        if found:
            return ResolvedLink(rel_path=found)
        named = self.page_resource(path, page_rel=page_rel) if not path.startswith("/") else None
        if named is not None:  # a resource named in front matter (Geekdoc {{< img name="forest-1" >}})
            return ResolvedLink(rel_path=named.rel)
        if not suffix_of(path) and not path.startswith("/"):
            # a page resource named by a pattern (Docsy imgproc: Resources.GetMatch "**name*")
            bundle = self._root / page_dir
            matches = sorted(p for p in bundle.rglob(f"{path}*") if p.is_file()
                             and p.suffix.lower() in IMAGE_SUFFIXES) if bundle.is_dir() else []
            if matches:
                return ResolvedLink(rel_path=matches[0].relative_to(self._root).as_posix())
        res = self.resolve_asset(src, page_rel=page_rel)
        if res.rel_path and not res.problem:
            return res
        site = self._served_from("static", safe_join(path.lstrip("/")))
        found = first_existing(self._root, site)
        return ResolvedLink(rel_path=found) if found else res

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        """Resolve an ``include``/``readfile`` target: the include folders
        (``content/includes``), the page's folder, the content folders, then the
        project root; ``.md`` is tried when the target has no suffix. Never raises."""
        path, _ = split_link(target.strip().strip("\"'"))
        if not path:
            return ResolvedLink(problem="empty include target")
        rel = path.lstrip("/")
        bases = list(self._config.include_dirs)
        if not path.startswith("/"):
            bases.append(posixpath.dirname(page_rel))
        bases += list(self._config.content_dirs) + ["."]
        names = [rel] if suffix_of(rel) else [rel, rel + ".md"]
        cands = [safe_join(b, n) for b in bases for n in names]
        return lookup(self._root, cands, link=target)

    # ---------------------------------------------------------- preprocess
    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """Hugo page source to plain Markdown: TOML/JSON front matter turned into
        YAML (an HTML/AsciiDoc/rST content file's front matter removed, its ``title``
        given as ``<title>``, ``= Title`` or an rST title section), includes inlined,
        shortcodes rewritten (see :func:`rewrite_shortcodes`).
        Problems (missing includes or images) go to ``warnings``. Never raises."""
        text = front_matter_as_hugo_reads_it(text)
        meta, body, kind = split_front_matter(text)
        head = ""
        markup = PAGE_MARKUP.get(suffix_of(page_rel))
        title = str(meta.get("title") or "").strip() if kind else ""
        if markup in ("html", "asciidoc", "rst"):
            # Hugo reads the front matter itself; the markup never sees it: its title is given in the
            # markup's own way (HTML <title>, AsciiDoc "= Title", an rST title section) unless already there
            if markup == "html":
                head = f"<title>{html.escape(title)}</title>\n" if title else ""
            elif markup == "asciidoc" and title and not re.match(r"\s*(?://[^\n]*\n\s*)*= \S", body):
                head = f"= {title}\n\n"
            elif markup == "rst" and title and title not in body.lstrip()[:400].split("\n\n")[0]:
                rule = "=" * (len(title) + 2)
                head = f"{rule}\n {title}\n{rule}\n\n"
        elif kind in ("toml", "json"):
            head = yaml_front_matter(meta)
        elif kind == "yaml":
            head = text[: len(text) - len(body)]
        sink = warnings if warnings is not None else []
        lead_key = self._docsy_lead_param(page_rel, meta) if kind and self._docsy and markup == "markdown" else None
        lead = meta.get(lead_key) if lead_key else None
        if lead is None and lead_key:  # (front matter keys are case-insensitive in Hugo: headContent)
            lead = next((v for k, v in meta.items() if isinstance(k, str) and k.lower() == lead_key), None)
        home = posixpath.basename(page_rel).startswith("_index.") \
            and posixpath.dirname(page_rel) in self._config.content_dirs
        if isinstance(lead, str) and lead.strip() and not home:
            # Docsy shows the page's description as the lead paragraph under its title, rendered as
            # Markdown (layouts/docs/list.html, _default/content.html, blog/content.html:
            # `.Params.description | markdownify`); its home page (home.html) shows only the content
            body = " ".join(lead.split()) + "\n\n" + body
        body = self.rewrite_shortcodes(body, page_rel=page_rel, warnings=sink)
        if self._docsy and markup == "markdown" and kind:
            listing = self._docsy_section_index(page_rel, meta)
            body = body.rstrip() + listing if listing else body
        if markup == "markdown":
            # Hugo 0.132+ blockquote alerts: "> [!TYPE]" of any type, an optional +/- fold sign and (0.134+)
            # a title after it, which the themes' render hooks show instead of the type
            body = alert_markers(body, titled=True, kinds=None)
            settings = self._config.settings
            if settings.get("passthrough_block") or settings.get("passthrough_inline"):
                body = passthrough_math(body, _delimiter_pairs(settings.get("passthrough_block", "")),
                                        _delimiter_pairs(settings.get("passthrough_inline", "")))
            body = goldmark_attributes(body, titles=self._config.settings.get("goldmark_attribute_title") != "false",
                                       blocks=self._config.settings.get("goldmark_attribute_block") == "true")
        return head + body

    def _docsy_lead_param(self, page_rel: str, meta: dict[str, Any]) -> str | None:
        """The front matter parameter a Docsy site shows as the lead paragraph under a page's
        title: ``description`` (Docsy's ``_default/content.html``: ``{{ with .Params.description
        }}<div class="lead">``), unless the project writes its own content view
        (``layouts/<type>/content.html``, else ``layouts/_default/content.html``, the type being
        the front matter ``type`` or the page's top section, as Hugo looks templates up): then
        the parameter that template writes in its ``lead`` element (the YugabyteDB docs show
        ``headcontent``), or ``None`` when it writes no lead. Read once per template."""
        content = self._content_dir_of(page_rel)
        inner = posixpath.relpath(page_rel, content) if content not in (None, ".", "") else page_rel
        kind = str(meta.get("type") or (inner.split("/", 1)[0] if "/" in inner else "")).strip().lower()
        folders = [kind] if re.fullmatch(r"[\w.-]{1,100}", kind) else []
        for folder in [*folders, "_default"]:
            rel = f"layouts/{folder}/content.html"
            if rel not in self._lead_params:
                text = self._layout_text(self._root / rel) or ""
                found = _LEAD_PARAM.search(text) if text else None
                self._lead_params[rel] = None if not text else (
                    (found.group(1) or found.group(2) or "description").lower() if found else "")
            param = self._lead_params[rel]
            if param is not None:
                return param or None
        return "description"

    def _docsy_section_index(self, page_rel: str, meta: dict[str, Any]) -> str:
        """The list of child pages Docsy draws under a docs section page's content
        (``layouts/docs/list.html`` calls ``partials/section-index.html``): each page
        whose parent is this section, by weight, as its title and its description
        (``simple_list: true``: titles only; ``no_list: true``: none; children with
        ``hide_summary: true`` left out). Pages of the ``docs`` type only: the first
        folder under the content folder is ``docs`` or the front matter says
        ``type: docs``. Children are the section folder's own pages and its
        subfolders' ``_index``/``index`` pages, as :meth:`classify` publishes them;
        at most :data:`_SECTION_INDEX_MAX`. Hugo's ``ByWeight``: weighted pages first by
        weight, then by title and path (dates not compared). ``""`` when none."""
        folder, name = posixpath.split(page_rel)
        content = self._content_dir_of(page_rel)
        if not name.startswith("_index.") or content is None or meta.get("no_list") is True:
            return ""
        under = posixpath.relpath(folder, content).split("/")[0] if folder != content else ""
        if under != "docs" and str(meta.get("type", "")).lower() != "docs":
            return ""
        children: list[tuple[int, str, str, str]] = []
        for rel, child in self._section_children(page_rel):
            title = " ".join(str(child.get("title") or "").split())
            if not title or child.get("hide_summary") is True:
                continue
            desc = child.get("description")
            desc = " ".join(desc.split()) if isinstance(desc, str) and meta.get("simple_list") is not True else ""
            children.append((_weight(child), title, rel, desc))
        children.sort(key=lambda c: (c[0] == 0, c[0], c[1].lower(), c[2]))
        return "".join(f"\n\n**{title}**: {desc}" if desc else f"\n\n**{title}**"
                       for _, title, _, desc in children) + "\n" if children else ""

    def _section_children(self, page_rel: str) -> list[tuple[str, dict[str, Any]]]:
        """The pages Hugo gives a section page ``page_rel`` (``_index.*``) as ``.Pages``:
        the section folder's own pages and its subfolders' ``_index``/``index`` pages
        (``_index.<lang>.*`` of the language read, translation by file name), and the pages
        of a subfolder with neither (no section, no bundle: its pages are the section's),
        as :meth:`classify` publishes them, with their front matter (at most
        :data:`_SECTION_INDEX_MAX`, in file name order; none for another page)."""
        folder, name = posixpath.split(page_rel)
        if not name.startswith("_index.") or self._content_dir_of(page_rel) is None:
            return []
        children: list[tuple[str, dict[str, Any]]] = []
        folders = deque([(folder, 0)])
        listed = 0
        while folders and len(children) < _SECTION_INDEX_MAX and listed < _SECTION_INDEX_MAX * 4:
            here, depth = folders.popleft()
            try:
                entries = sorted(self._root.joinpath(here).iterdir(), key=lambda p: p.name)[:_SECTION_INDEX_MAX * 4]
            except OSError:
                continue
            listed += len(entries)
            for entry in entries:
                rel = f"{here}/{entry.name}"
                if entry.is_dir() and not entry.is_symlink():
                    # the subfolder's page: its index in the language read (_index.en.md), or with no code
                    index = next((f"{rel}/{n}{lang}{x}" for n in ("_index", "index") for lang in (f".{self._lang}", "")
                                  for x in PAGE_MARKUP if (entry / f"{n}{lang}{x}").is_file()), "")
                    if not index:
                        # a folder with neither _index nor index is no section and no bundle (Hugo: a section
                        # is a top-level folder or one with an _index file): its pages are this section's
                        if depth < _TOC_TREE_DEPTH:
                            folders.append((rel, depth + 1))
                        continue
                    rel = index
                elif entry.name.startswith(("_index.", "index.")) or not entry.is_file():
                    continue
                if len(children) >= _SECTION_INDEX_MAX or self.classify(rel).role != FileRole.PAGE \
                        or inside_root(self._root / rel, self._root.resolve()).problem:
                    continue  # (a file linked out of the corpus is never read)
                children.append((rel, self._front_matter(rel)))
        return children

    def _geekdoc_toc_tree(self, page_rel: str) -> str:
        """Geekdoc's ``{{< toc-tree >}}`` (``layouts/shortcodes/toc-tree.html``): the
        page's ``.Pages`` as a nested list, grouped by weight (ascending, unweighted
        as weight 0), by title within a group; each its title (``linkTitle``
        first, as ``partials/utils/title``) and ``: geekdocDescription``, then its own
        children unless ``geekdocFlatSection``; ``geekdocHidden`` pages left out
        (unless ``geekdocHiddenTocTree: false``). Nothing when the page's
        ``geekdocToC`` (else the site's) is ``0``/false. At most
        :data:`_TOC_TREE_DEPTH` levels and :data:`_TOC_TREE_MAX` pages in all; drawn
        once per page, however many times the page writes it."""
        if page_rel not in self._toc_trees:
            own = self._front_matter(page_rel).get("geekdocToC", self._params.get("params.geekdoctoc", 6))
            text = "" if own in (0, False, "0", "false") else self._toc_tree_levels(page_rel, 0, [_TOC_TREE_MAX])
            self._toc_trees[page_rel] = f"\n\n{text}\n\n" if text else ""
        return self._toc_trees[page_rel]

    def _toc_tree_levels(self, page_rel: str, depth: int, left: list[int]) -> str:
        """The lines of :meth:`_geekdoc_toc_tree` from ``depth`` down; ``left``: pages
        the tree may still list (shared by its levels)."""
        rows: list[tuple[int, str, str, dict[str, Any]]] = []
        for rel, child in self._section_children(page_rel):
            if child.get("geekdocHidden") is True and child.get("geekdocHiddenTocTree", True) is not False:
                continue
            # (each weight group .ByTitle: by title, not the linkTitle shown)
            rows.append((_weight(child), " ".join(str(child.get("title") or "").split()).lower(), rel, child))
        lines: list[str] = []
        for _, _, rel, child in sorted(rows, key=lambda r: (r[0], r[1], r[2])):
            if left[0] <= 0:
                break
            left[0] -= 1
            title = " ".join(str(child.get("linkTitle") or child.get("title") or "").split()) \
                or posixpath.basename(posixpath.dirname(rel) if posixpath.basename(rel).startswith(("_index.", "index."))
                                      else posixpath.splitext(rel)[0]).replace("-", " ").replace("_", " ").title()
            desc = child.get("geekdocDescription")
            desc = " ".join(str(desc).split()) if desc not in (None, "") else ""
            lines.append("  " * depth + f"- {title}" + (f": {desc}" if desc else ""))
            if depth + 1 < _TOC_TREE_DEPTH and child.get("geekdocFlatSection") is not True:
                sub = self._toc_tree_levels(rel, depth + 1, left) if left[0] > 0 else ""
                if sub:
                    lines.append(sub)
        return "\n".join(lines)

    def _theme_template_only(self, name: str) -> bool:
        """Whether the template Hugo uses for shortcode ``name`` is a theme's, not one the
        project wrote itself (``layouts/shortcodes/<name>.html`` of its own: its rules are unknown)."""
        return not any(self._shortcode_file(self._root / folder, name).is_file()
                       for folder in ("layouts/_shortcodes", "layouts/shortcodes"))

    def _book_section(self, page_rel: str, sc: Shortcode) -> str:
        """Hugo Book's ``{{< section >}}`` (``layouts/shortcodes/section.html``): the
        section page's ``.Pages`` as a definition list, each its title (``partials/docs/title``:
        ``title``, else the folder or file name humanized), with ``summary`` given its
        front matter ``description`` (the theme shows ``.Description``, else the page's
        summary, which murar does not compute); in Hugo's default order (weight, unweighted
        last, then title). At most :data:`_SECTION_INDEX_MAX` pages."""
        with_summary = "summary" in sc.params or "summary" in sc.args
        rows: list[tuple[int, str, str, str]] = []
        for rel, child in self._section_children(page_rel):
            title = " ".join(str(child.get("title") or "").split())
            if not title:
                base = posixpath.basename(posixpath.dirname(rel)) if posixpath.basename(rel).startswith(
                    ("_index.", "index.")) else posixpath.splitext(posixpath.basename(rel))[0]
                title = re.sub(r"[-_]+", " ", base).strip().title()
            desc = child.get("description") if with_summary else None
            rows.append((_weight(child), title, rel, " ".join(desc.split()) if isinstance(desc, str) else ""))
        rows.sort(key=lambda r: (r[0] == 0, r[0], r[1].lower(), r[2]))
        text = "\n\n".join(f"**{title}**" + (f": {desc}" if desc else "") for _, title, _, desc in rows)
        return f"\n\n{text}\n\n" if text else ""

    def _learn_children(self, page_rel: str, sc: Shortcode) -> str:
        """hugo-theme-learn's and Relearn's ``{{% children %}}`` (Relearn
        ``partials/shortcodes/children.html``; "Children" shortcode docs): the section
        page's child pages, each its ``title`` (with ``description=true`` its front matter
        ``description``), ``depth`` levels deep (default 1); pages with ``hidden: true``
        left out unless ``showhidden=true``; in Hugo's default order (weight, unweighted
        last, then title) or by title with ``sort=title``. ``style="li"`` (the default)
        gives a nested list, ``style="h2"`` ... ``"h6"`` headings of that level (one
        level lower per depth), any other style one paragraph per page. At most
        :data:`_TOC_TREE_DEPTH` levels and :data:`_TOC_TREE_MAX` pages. Nothing for a
        page that is no section (it has no child pages)."""
        try:
            depth = max(1, min(int(sc.get("depth") or 1), _TOC_TREE_DEPTH))
        except ValueError:
            depth = 1
        style = (sc.get("style") or "li").strip().lower()
        level = int(style[1]) if re.fullmatch(r"h[1-6]", style) else 0
        text = self._learn_children_levels(
            page_rel, 1, depth, [_TOC_TREE_MAX], style=style, level=level,
            description=_truthy(sc.get("description") or "false"), showhidden=_truthy(sc.get("showhidden") or "false"),
            by_title=(sc.get("sort") or "").strip().lower() == "title")
        return f"\n\n{text}\n\n" if text else ""

    def _learn_file_list(self, page_rel: str, sc: Shortcode, *, warnings: list[str]) -> str:
        """Relearn's ``{{% resources %}}`` and hugo-theme-learn's / Relearn's ``{{% attachments %}}``
        (their ``partials/shortcodes/resources.html`` and ``attachments.html``; shortcode docs): a
        box titled ``title`` (``title=" "``: none; else the kind of a severity ``style``, else
        "Resources" / "Attachments") listing one line per file: for ``resources`` the page bundle's
        resources (their front matter ``title``, else their name), for ``attachments`` the files of
        the folder named after the page's file with ``.files`` (``index.files``, ``_index.files``,
        ``page.files``, with a language code ``index.en.files``), those whose name the regular
        expression ``pattern`` finds (a pattern that may backtrack without bound lists nothing,
        with a warning), by name as Go sorts strings (bytewise), ``sort="desc"`` reversed. Nothing when no
        file is listed."""
        pattern = sc.get("pattern")
        problem = regex_problem(pattern) if pattern else None
        if problem:
            warnings.append(f"{sc.name} pattern {pattern[:80]!r}: {problem}; no file listed")
            return ""
        found = re.compile(pattern).search if pattern else None
        rows: list[tuple[str, str]] = []  # (name, shown)
        if sc.name == "resources":
            rows = [(r.name, r.title or r.name) for r in self.page_resources(page_rel)]
        else:
            folder, base = posixpath.split(page_rel)
            stem = posixpath.splitext(base)[0]
            for name in dict.fromkeys((stem, self.split_language(stem)[0])):
                files_dir = self._root / folder / f"{name}.files"
                if files_dir.is_dir():
                    if inside_root(files_dir, self._root.resolve()).problem:  # (a link out of the root: not listed)
                        warnings.append(f"{sc.name}: {folder}/{name}.files is outside the corpus root; not listed")
                        break
                    try:
                        entries = sorted(files_dir.iterdir(), key=lambda e: e.name)[:_MAX_RESOURCES]
                    except OSError:
                        entries = []
                    rows = [(e.name, e.name) for e in entries
                            if e.is_file() and not e.is_symlink() and not e.name.startswith(".")]
                    break
        rows = sorted(((n, t) for n, t in rows if found is None or found(n)),
                      key=lambda r: r[0], reverse=(sc.get("sort") or "asc").strip().lower() == "desc")
        if not rows:
            return ""
        style = (sc.get("style") or "").strip().lower()
        title = sc.get("title")
        if not title:
            default = "Resources" if sc.name == "resources" else "Attachments"
            title = (self.translate(style) or style.capitalize()) if style in _CALLOUT_KINDS else default
        label = _label_text(title)
        lines = "\n".join(f"- {' '.join(shown.split())}" for _, shown in rows)
        return (f"\n\n**{label}**\n\n" if label else "\n\n") + lines + "\n\n"

    def _learn_children_levels(self, page_rel: str, count: int, depth: int, left: list[int], *, style: str,
                               level: int, description: bool, showhidden: bool, by_title: bool) -> str:
        """The text of :meth:`_learn_children` from level ``count`` down; ``left``: pages
        the list may still show (shared by its levels)."""
        rows: list[tuple[int, str, str, dict[str, Any]]] = []
        for rel, child in self._section_children(page_rel):
            title = " ".join(str(child.get("title") or "").split())
            if (child.get("hidden") is True or not title) and not showhidden:
                continue
            rows.append((_weight(child), title, rel, child))
        key = (lambda r: (r[1].lower(), r[2])) if by_title else (lambda r: (r[0] == 0, r[0], r[1].lower(), r[2]))
        blocks: list[str] = []
        for weight, title, rel, child in sorted(rows, key=key):
            if left[0] <= 0:
                break
            left[0] -= 1
            desc = child.get("description") if description else None
            desc = " ".join(desc.split()) if isinstance(desc, str) else ""
            if style == "li":
                blocks.append("  " * (count - 1) + f"- {title}" + (f": {desc}" if desc else ""))
            elif level:
                blocks.append(f"{'#' * min(level - 1 + count, 6)} {title}" + (f"\n\n{desc}" if desc else ""))
            else:
                blocks.append(title + (f"\n\n{desc}" if desc else ""))
            if count < depth and left[0] > 0:
                sub = self._learn_children_levels(rel, count + 1, depth, left, style=style, level=level,
                                                  description=description, showhidden=showhidden, by_title=by_title)
                if sub:
                    blocks.append(sub)
        return ("\n" if style == "li" else "\n\n").join(blocks)

    def rewrite_shortcodes(self, body: str, *, page_rel: str, warnings: list[str],
                           _depth: int = 0, _stack: tuple[str, ...] = (),
                           _budget: PageCharBudget | None = None) -> str:
        """Rewrite every shortcode in ``body`` (a page or include body written in
        ``page_rel``); see the module doc for the rules. The files it pulls in count
        against one budget for the page (:data:`_MAX_INCLUDES`, :data:`_MAX_INCLUDED_CHARS`)."""
        budget = _budget if _budget is not None else PageCharBudget(
            _MAX_INCLUDED_CHARS, "{what} and the page's later includes left out: over {items} included files"
            " or {limit} included characters in the page", items=_MAX_INCLUDES)
        escaped: list[str] = []

        def protect(m: re.Match[str]) -> str:
            escaped.append("{{" + m.group(1) + m.group(2) + m.group(3) + "}}")
            return f"\x00HUGOESC{len(escaped) - 1}\x00"

        body = sub_closed(_ESCAPED, _ESCAPED_END, protect, body)  # 10,000 unclosed "{{</*": 5.4 s with .sub
        out: list[str] = []
        pos = 0
        h = self._html_page(page_rel)  # an HTML content page gets HTML, not Markdown
        panes: list[Shortcode] = []  # the open tab sets, innermost last
        pane_steps: list[str] = []  # the indentation of the list step each open set is in ("": none)
        tabs_seen: list[int] = []  # tabs met so far in each open set (Docsy's tab .Ordinal)
        body = _tab_sets_in_steps(body)
        tab_steps = _tab_steps(body)

        def margin_of(m: re.Match[str]) -> int | None:
            # a tab's content goes to the margin, after its tab marker (in a list step: the step's
            # column, where its set stands); a callout's stays in the block its tag opens (a list
            # step), at the tag's indentation
            name = m.group("name").lower()
            if name in _TAB_ITEMS:
                return tab_steps.get(m.start(), 0)
            if self.callout(parse_args(name, m.group("args"))) is None:
                return None
            before = body[body.rfind("\n", 0, m.start()) + 1:m.start()]
            return len(before) if not before.strip(" ") else None

        body = _deindent_inner(body, margin_of)
        tags = list(_SHORTCODE.finditer(body))
        closing = _closing_tags(tags)
        toc_trees = 0  # Geekdoc toc-trees met (each one draws every child page: bounded)
        after_inner: dict[int, str] = {}  # closing tag -> what a site template writes after the content
        for m in tags:
            if m.start() < pos:
                continue
            out.append(body[pos:m.start()])
            pos = m.end()
            name = m.group("name").lower()
            if m.group("close"):
                if m.start() in after_inner:  # the rest of the site template drawn around this content
                    out.append(after_inner.pop(m.start()))
                if name in _TAB_SETS:  # a tab set ends (murar.ingest.markup.tabs), in its list step
                    out.append(f"\n\n{set_close(pane_steps[-1] if pane_steps else '')}\n\n")
                    if panes:
                        panes.pop()
                        tabs_seen.pop()
                        pane_steps.pop()
                continue  # closing tags of reduced shortcodes
            if name == "comment" and not m.group("self") and (end := closing.get(m.start())) is not None:
                # Hugo's embedded comment shortcode (0.137.1+): what it encloses is left out of the page
                pos = end.end()
                continue
            sc = parse_args(name, m.group("args"))
            docsy_tab = name == "tab" and bool(panes) and panes[-1].name == "tabpane"
            step = pane_steps[-1] if pane_steps and name in _TAB_ITEMS else ""  # a tab's list step
            if name in _TAB_ITEMS and tabs_seen:
                tabs_seen[-1] += 1
            wants_inner = name in IMAGE_SHORTCODES or name in CODE_BLOCK_SHORTCODES or name in DIAGRAM_SHORTCODES \
                or name in ("highlight", "columns", "example") \
                or _image_param(sc) \
                or name.endswith(".inline") or "lang" in sc.params or "language" in sc.params \
                or _CARD.search(name) is not None
            close = None
            # a block's label; {{< tab "Linux" >}} gives it as the first argument, hugo-dynamic-tabs' tab
            # (Lotus Docs) as tabName
            label = sc.get("title", "name", "summary", "header", "heading", "tab", "tabname") or (
                sc.get("title", pos=0) if name in ("tab", "expand", "details") else "")  # {{% expand "Title" %}}
            if name in _TAB_SETS:
                # a tab set's name= is the id of its box (Kubernetes' tabs.html: the anchor its tabs link
                # to; Hugo Book's first argument), never drawn; Relearn's title= is written above the tabs
                label = sc.get("title")
            if name in _TAB_ITEMS and not label and panes:
                # a set that names its unnamed tabs in order: Hextra/Nextra {{< tabs items="A,B" >}}, Dapr
                # {{< tabs "Python" ".NET" >}} with {{% codetab %}}s (its tabs.html ranges over .Params)
                items = [x.strip() for x in panes[-1].params["items"].split(",")] \
                    if panes[-1].params.get("items") else panes[-1].args if panes[-1].name == "tabs" else []
                label = items[tabs_seen[-1] - 1] if 0 < tabs_seen[-1] <= len(items) else ""
            callout = None if m.group("self") else self.callout(sc)
            if label and callout is None and not wants_inner and not m.group("self") and m.start() in closing \
                    and name not in _TAB_ITEMS and name not in _TAB_SETS and name not in _NO_INNER \
                    and not sc.params.get("text") \
                    and (drawn_as := self._value_template(name, page_rel, sc, inner=_INNER_MARK)) is not None \
                    and drawn_as.count(_INNER_MARK) == 1:
                # a paired shortcode the project's template draws around its content: what that template
                # writes, not its name= or title= as a bold lead (a tab pane's name is its id, not text)
                label = ""
            if not m.group("self") and name not in _NO_INNER and (wants_inner or label or docsy_tab
                                                                   or callout is not None):
                close = closing.get(m.start())
            inner = body[m.end():close.start()] if close is not None else ""
            if name in INCLUDE_SHORTCODES:
                # the site's own include template may read the file under a path it builds
                # (readFile (printf "static/%s" (.Get 0))): that file when it is there
                reads = self._template_include(name, sc, built_path=True, page_rel=page_rel)
                target = self._template_include_target(*reads) if reads is not None else None
                if target:  # (its other parameters kept: code="true", lang=)
                    sc = Shortcode(name=name, args=["/" + target], params={
                        k: v for k, v in sc.params.items() if k not in ("file", "path", "src")})
                out.append(self._include(sc, page_rel=page_rel, warnings=warnings, depth=_depth, stack=_stack,
                                         budget=budget, indent=_line_indent(body, m.start())))
            elif name == "docs/shared" and sc.get("lookup"):
                # Grafana's docs (writers' toolkit, "docs/shared"): the file lookup= names in the shared/ folder
                # of the source project's content; this project's own is <content>/shared/
                target = self._shared_lookup(sc.get("lookup"), page_rel=page_rel)
                if target is None:
                    warnings.append(f"docs/shared {sc.get('lookup')!r} (source {sc.get('source') or '?'}): "
                                    "not in this project's shared/ folder")
                else:
                    out.append(self._include(Shortcode(name="include", args=["/" + target]), page_rel=page_rel,
                                             warnings=warnings, depth=_depth, stack=_stack, budget=budget))
            elif name == "boilerplate" and sc.get(pos=0):
                target = self._boilerplate(sc.get(pos=0), page_rel=page_rel)
                if target is None:
                    warnings.append(f"boilerplate {sc.get(pos=0)!r}: not found")
                else:
                    out.append(self._include(Shortcode(name="include", args=["/" + target]), page_rel=page_rel,
                                             warnings=warnings, depth=_depth, stack=_stack, budget=budget))
            elif name in _TAB_ITEMS and panes and close is None and sc.params.get("include", "").strip():
                # Kubernetes' tab include= (tabs.html): a tab without content shows that file
                label = label or f"Tab {tabs_seen[-1]}"  # (tab.html: T "tab_default" with its ordinal)
                out.append(f"\n\n{tab_start(_label_text(label), step)}\n\n{step}" + _bold(_label_text(label), html_out=h))
                out.append(self._tab_include(sc, page_rel=page_rel, warnings=warnings, depth=_depth, stack=_stack,
                                             budget=budget) + "\n\n")
            elif name in CODE_SAMPLE_SHORTCODES:
                out.append(self._code_sample(sc, page_rel=page_rel, warnings=warnings, budget=budget,
                                             indent=_line_indent(body, m.start())))
            elif close is None and (reads := self._template_include(name, sc, page_rel=page_rel)) is not None:
                # the site's own shortcode writing a file its argument names ({{< reuse "snippets/x.md" >}}:
                # resources.Get from assets/, or readFile from the project)
                target = self._template_include_target(*reads)
                if target is None:
                    warnings.append(f"{name} {reads[1]!r}: not found ({'assets' if reads[0] == 'assets' else 'project'})")
                else:
                    out.append(self._include(Shortcode(name="include", args=["/" + target]), page_rel=page_rel,
                                             warnings=warnings, depth=_depth, stack=_stack, budget=budget))
            elif close is None and _CARD.search(name) and label:
                # a card's image (Hextra card image=: remote, static or assets) above its title and subtitle
                subtitle = _strip_markup(sc.get("subtitle", "description", "text"))
                picture = self._card_picture(sc, label, subtitle, page_rel=page_rel, warnings=warnings)
                out.append("\n\n" + picture + _bold(_label_text(label), html_out=h) + subtitle + "\n\n")
            elif (pictures := self._resource_gallery(sc, page_rel=page_rel)) is not None:
                out.append(pictures)
                if close is not None:
                    pos = close.end()
            elif name in IMAGE_SHORTCODES or _image_param(sc):
                if (name not in IMAGE_SHORTCODES or sc.args) and (drawn := self._template_image(name, sc)) is not None \
                        and self._template_reads_path(name):
                    # the site's template looks the image up as a resource (a path it builds from src=, or
                    # Regis Philibert's {{< img "*glob*" "Caption" >}}: its alt and caption by position)
                    sc = drawn
                if close is not None and inner.strip() and self._template_inner_is_text(name):
                    # the site's template writes the content beside the picture, not as its caption (Falco's
                    # two_column_block_img: <img>, <h3>{{ .Get "header" }}</h3>, <p>{{ .Inner | markdownify }}):
                    # the picture with the parameter it writes as text as caption, then the content as text
                    drawn = self._template_image(name, sc)
                    if drawn is not None and drawn.params.get("caption") and not sc.get("caption", "title"):
                        sc = Shortcode(name=sc.name, args=sc.args, params={**sc.params,
                                                                           "caption": drawn.params["caption"]})
                    out.append(self._image(sc, "", page_rel=page_rel, warnings=warnings) + "\n\n")
                    continue  # (the content is read next, as the page's text; its closing tag goes)
                out.append(self._image(sc, inner, page_rel=page_rel, warnings=warnings))
                if close is not None:
                    pos = close.end()
            elif _CARD.search(name) is None and callout is None and name not in _TAB_SETS \
                    and name not in _TAB_ITEMS and (drawn := self._template_image(name, sc)) is not None:
                # the site's own shortcode drawing a parameter as its <img> ({{< thumb "/img/x.png" >}})
                out.append(self._image(drawn, "", page_rel=page_rel, warnings=warnings))
            elif name in VIDEO_SHORTCODES or _video_param(sc) or ("youtube" in name and sc.get("id", pos=0)):
                out.append(_video(self._named_video(sc, page_rel=page_rel)))
            elif name in DIAGRAM_SHORTCODES and close is not None:
                out.append(_fence(inner, name, html_out=h, indent=_line_indent(body, m.start())))
                pos = close.end()
            elif name == "highlight" and close is not None:
                out.append(_fence(inner, sc.get("lang", pos=0), html_out=h, indent=_line_indent(body, m.start())))
                pos = close.end()
            elif name in CODE_BLOCK_SHORTCODES and close is not None and not _has_fence(inner) and (
                    name != "text" or (re.fullmatch(r"[\w+#.-]+", sc.get("syntax", pos=0)) and "\n" in inner)):
                # (Istio's text names a language and holds lines; another theme's text may style a phrase)
                # (a code shortcode that wraps fenced blocks, as Grafana k6's {{< code >}}, stays Markdown)
                code = self._raw_includes(inner, page_rel=page_rel, warnings=warnings, budget=budget)
                if name == "text":  # Istio: {{< text bash >}} / {{< text syntax="yaml" >}} is a code block
                    lang = sc.get("syntax", "lang", pos=0)
                else:
                    lang = sc.params.get("lang") or (suffix_of(sc.params.get("file", "")).lstrip(".")
                                                     if name == "code" else _config_format(code))
                if name == "code" and sc.params.get("file"):
                    out.append(f"\n{_code_span(sc.params['file'], html_out=h)}:\n")
                out.append(_fence(code, lang, html_out=h, indent=_line_indent(body, m.start())))
                pos = close.end()
            elif (endpoint := _endpoint(sc)) is not None and name not in IMAGE_SHORTCODES:
                # an API endpoint shortcode: {{< endpoint "POST" "/_api/x" >}} (ArangoDB, Virtool docs),
                # {{< api-endpoint method="post" endpoint="https://host/api/v2/x" >}} (InfluxData docs)
                method, target = endpoint
                if "{{" in target:  # a shortcode nested in the parameter
                    target = self.rewrite_shortcodes(target, page_rel=page_rel, warnings=warnings,
                                                     _depth=_depth + 1, _stack=_stack, _budget=budget)
                out.append(_code_span(f"{method} {target}", html_out=h))
            elif name in _VERSION_NOTES and sc.get("version", pos=0):
                # gohugo.io and Bootstrap docs: the release that brought (or deprecated) a feature
                version = sc.get("version", pos=0).strip()
                version = f"v{version[1:]}" if version[:1] in "vV" and version[1:2].isdigit() else (
                    f"v{version}" if version[:1].isdigit() else version)
                wraps = not m.group("self") and m.start() in closing
                out.append(f"{_VERSION_NOTES[name]} {version}" + (" " if wraps else ""))
            elif docsy_tab and close is not None and not _docsy_tab_is_text(
                    sc, panes[-1], markdown_delims=m.group("angle") is None, inner=inner):
                # Docsy tabpane: a tab's content is code unless text=true (tab or tabpane)
                label = label or f"Tab {tabs_seen[-1] - 1}"  # Docsy's default header
                out.append(f"\n\n{tab_start(_label_text(label), step)}\n\n{step}" + _bold(_label_text(label), html_out=h))
                out.append(_fence(inner, _docsy_tab_lang(sc, panes[-1], label), html_out=h, indent=step))
                pos = close.end()
            elif name == "card" and close is not None and _truthy(sc.params.get("code")):
                # Docsy card code=true: the inner content is highlighted code
                if label:
                    out.append(_bold(_label_text(label), html_out=h))
                out.append(_fence(inner, sc.params.get("lang", ""), html_out=h))
                pos = close.end()
            elif name in ("ref", "relref"):
                out.append(sc.get("path", pos=0))
            elif name == "param":
                value = self.param(sc.get("name", pos=0), page_rel=page_rel)
                # charged to the page in characters: a short page calling it thousands of times on a long
                # value wrote tens of megabytes
                if budget.spend_chars(len(value), "shortcode 'param'", warnings, item=False):
                    out.append(value)
            elif name == "example" and close is not None and not _has_fence(inner) \
                    and sc.params.get("show_markup", "true").lower() != "false" and "<" in inner:
                # Bootstrap docs: {{< example >}} shows an HTML snippet rendered and as its markup
                out.append(_fence(inner, sc.params.get("lang", "html"), html_out=h))
                pos = close.end()
            elif name == "columns" and close is not None and _depth < _MAX_INCLUDE_DEPTH:
                # Hugo Book: columns are separated by a "<--->" line inside {{< columns >}} (nested ones count
                # as depth: 3,000 nested columns recursed until RecursionError; deeper ones are read in place)
                columns = re.sub(r"^[ \t]*<--->[ \t]*$", "", inner, flags=re.MULTILINE)
                out.append(self.rewrite_shortcodes(columns, page_rel=page_rel, warnings=warnings, _depth=_depth + 1,
                                                   _stack=_stack, _budget=budget))
                pos = close.end()
            elif name == "toc-tree" and self._geekdoc:
                toc_trees += 1
                if toc_trees <= _TOC_TREES_PER_TEXT:
                    out.append(self._geekdoc_toc_tree(page_rel))
                elif toc_trees == _TOC_TREES_PER_TEXT + 1:
                    warnings.append(f"toc-tree: more than {_TOC_TREES_PER_TEXT} in one text; the later ones are left out")
            elif close is None and (name == "children" and self._learn or name == "section" and self._book) \
                    and self._theme_template_only(name):
                # hugo-theme-learn / Relearn children, Hugo Book section: the section's child pages (a chapter
                # page often holds only this)
                toc_trees += 1
                if toc_trees <= _TOC_TREES_PER_TEXT:
                    out.append(self._learn_children(page_rel, sc) if name == "children"
                               else self._book_section(page_rel, sc))
                elif toc_trees == _TOC_TREES_PER_TEXT + 1:
                    warnings.append(f"children: more than {_TOC_TREES_PER_TEXT} in one text; the later ones are left out")
            elif close is None and name in ("resources", "attachments") and self._learn \
                    and self._theme_template_only(name):
                # Relearn resources / hugo-theme-learn and Relearn attachments: a box listing the page's files
                out.append(self._learn_file_list(page_rel, sc, warnings=warnings))
            elif name == "siteparam":  # Relearn: a site parameter only
                out.append(self._params.get(f"params.{sc.get('name', pos=0).strip().lower()}", ""))
            elif name == "heading" and sc.get("name", pos=0):
                # theme convention (Kubernetes, Docsy sites): an i18n heading, "## {{% heading "whatsnext" %}}"
                key = sc.get("name", pos=0)
                out.append(self.translate(f"{key}_heading") or self.translate(key)
                           or key.replace("_", " ").replace("-", " ").capitalize())
            elif name.endswith("-heading") and len(name) > 8 and close is None:
                # Kubernetes theme: {{% prerequisites-heading %}} is an <h2> with the i18n "<x>_heading" text
                key = name[:-8]
                out.append("## " + (self.translate(f"{key}_heading") or key.replace("-", " ").capitalize()))
            elif name == "feature-state" and sc.params.get("for_k8s_version"):
                label = self.translate("feature_state") or "FEATURE STATE:"
                version, state = sc.params["for_k8s_version"], sc.params.get("state", "")
                shown = f"Kubernetes {version} [{state}]" if state else f"Kubernetes {version}"
                out.append(f"{label} " + _code_span(shown, html_out=h))
            elif name == "glossary_tooltip":
                # Kubernetes convention: the visible word is `text`, else the glossary term's title
                out.append(sc.params.get("text") or self.glossary_term(sc.params.get("term_id", ""),
                                                                        page_rel=page_rel))
            elif name == "glossary_definition":
                out.append(self._glossary_definition(sc, page_rel=page_rel, warnings=warnings, depth=_depth,
                                                     stack=_stack, budget=budget))
            elif name == "filetree/container" and not m.group("self") and m.start() in closing:
                # Hextra's file tree: its folders and files, one a line, indented by depth, as a text block
                end = closing[m.start()]
                tree = _file_tree(body[m.end():end.start()], html_out=h)
                indent = _line_indent(body, m.start())  # (in a list step: the step's block)
                out.append(tree.replace("\n", "\n" + indent).rstrip(" ") if indent and not h else tree)
                pos = end.end()
            elif name.endswith(".inline"):
                if close is not None:  # an inline shortcode's body is a Go template, not content
                    pos = close.end()
            elif close is not None and _CARD.search(name) and _depth < _MAX_INCLUDE_DEPTH:
                # a card wrapping content: its image (Hugo Book card image=), its header, title and subtitle
                # (Docsy card.html: card-header, h5, h6), its content, then its footer; a heading in it
                # titles the card (a book-card/card div), not a section that runs on over the next cards
                picture = self._card_picture(sc, label, "", page_rel=page_rel, warnings=warnings)
                content = self.rewrite_shortcodes(inner if h else _headings_as_labels(inner), page_rel=page_rel,
                                                  warnings=warnings, _depth=_depth + 1, _stack=_stack,
                                                  _budget=budget)
                head = _card_head(sc, html_out=h)  # leads the paragraph the content opens with
                if head and re.match(r"[ \t]*(?:!\[|<img\b)", content.lstrip("\n")):
                    # (on a line of its own above a picture the content opens with: the card's picture,
                    # Docsy's portrait, stands in the card body, not inside the header's sentence)
                    head = head.rstrip() + "\n"
                out.append(picture + (("" if picture else "\n\n") + head + content.lstrip("\n") if head else content))
                if sc.params.get("footer", "").strip():
                    out.append(f"\n\n{sc.params['footer'].strip()}\n\n")
                pos = close.end()
            else:
                if name in _TAB_SETS and not m.group("self"):
                    pane_steps.append(_line_indent(body, m.start()))
                    out.append(f"\n\n{set_open(pane_steps[-1])}\n\n")
                    panes.append(sc)
                    tabs_seen.append(0)
                elif name in _TAB_ITEMS and label and close is not None:
                    out.append(f"\n\n{tab_start(_label_text(label), step)}\n\n{step}")
                if close is not None and _CARD.search(name):
                    # a card wrapping content (Hugo Book card image=) shows its image above it
                    out.append(self._card_picture(sc, label, "", page_rel=page_rel, warnings=warnings))
                # a label murar shows itself only on a paired shortcode; one without content ({{< item
                # title= body= >}}, a card of an index) is what its template writes, title and all
                shown_label = label if close is not None else ""
                static = None if callout is not None or shown_label or name in _TAB_SETS or name in _TAB_ITEMS \
                    else self._static_template(name)
                if static is None and close is None and not shown_label \
                        and (callout is None or m.start() not in closing) \
                        and name not in _TAB_SETS and name not in _TAB_ITEMS and not sc.params.get("text"):
                    # the site's own template printing a value of the page or site (a version from the URL), and
                    # around a paired shortcode's content (.Inner) its header and wrapper
                    pair = closing.get(m.start())
                    static = self._value_template(name, page_rel, sc, inner=_INNER_MARK if pair is not None else None)
                    if static is not None and pair is not None:
                        head, mark, tail = static.partition(_INNER_MARK)
                        if _INNER_MARK in tail:
                            static = None  # the content written twice: read the shortcode as before
                        elif mark:  # the content is read on as page text (a block of its own), the template's
                            static = head.rstrip() + "\x00HUGOGAP\x00"  # rest after it
                            after_inner[pair.start()] = "\n\n" + (_raw_html_block(tail.strip()) if m.group("angle")
                                                                   else tail.strip())
                        else:  # a template that does not write its content: Hugo shows none of it
                            pos = pair.end()
                if static is None and close is None and name == "term" and self._hextra:
                    # Hextra's term: the entry as written, its glossary definition only a tooltip (term.html)
                    out.append(_strip_markup(sc.get("entry", pos=0)))
                if static is None and close is None and name.rsplit("/", 1)[-1] == "badge":
                    # a theme's badge, no template of the site's: the words it shows (Hugo Book title= and
                    # value=, "Required" beside a parameter; Hextra's content= or its first argument)
                    words = [sc.params.get("title", ""), sc.params.get("value", "")]
                    shown = " ".join(w.strip() for w in words if w.strip()) or sc.get("content", pos=0)
                    out.append(_strip_markup(shown))
                if static is not None:
                    # the site's own shortcode template without actions: its text as is, its lines indented
                    # as the shortcode is when it opens its line (as Hugo does), so a list item keeps them
                    line_start = body.rfind("\n", 0, m.start()) + 1
                    indent = body[line_start:m.start()]
                    if indent and not indent.isspace():
                        indent = ""
                    if m.group("angle"):  # {{< >}}: Hugo puts the output in the page as is, never as Markdown
                        static = _raw_html_block(static)
                    if budget.spend_chars(len(static), f"shortcode {name!r}", warnings, item=False):
                        # (charged like param: a template printing .Page.Param may be called thousands of times)
                        out.append(static.rstrip("\n").replace("\n", "\n" + indent).replace("\x00HUGOGAP\x00",
                                                                                                 "\n\n"))
                if callout is not None and close is not None:
                    if callout:  # a callout's kind or title leads its text, as on every generator
                        line_start = body.rfind("\n", 0, m.start()) + 1
                        above = body.rfind("\n", 0, max(line_start - 1, 0)) + 1
                        if not h and line_start and line_start == m.start() and body[above:line_start].strip():
                            # opened under a line of text: the callout's box is a block of its own, not
                            # that paragraph's continuation (its <div> closes the paragraph in Hugo's page)
                            out.append("\n\n")
                        out.append(callout_lead(_label_text(callout), html_out=h))
                        # ... in the paragraph its content opens with, blank lines before it or not
                        gap = _BLANK_THEN_TEXT.match(body, m.end(), close.start())
                        pos = gap.end() if gap and not h else pos
                elif label and _label_text(label) and close is not None:
                    # (a title of blanks or of an icon's markup only shows none: Relearn badge/expand title=" ")
                    line_start = body.rfind("\n", 0, m.start()) + 1
                    above = body.rfind("\n", 0, max(line_start - 1, 0)) + 1
                    if not h and line_start and not body[line_start:m.start()].strip() \
                            and body[above:line_start].strip() and "\n" in inner.strip():
                        # a block (details, expand) opened on the line under a paragraph: its box is a block of
                        # its own (its <details>/<div> interrupts that paragraph), not the paragraph's last words
                        # (a tab's label in a list step: at the step's column)
                        out.append("\n\n" + step)
                    # with its subtitle (Blowfish timelineItem subheader=) after it
                    subtitle = _strip_markup(sc.get("subtitle", "subheader"))
                    out.append(_bold(_label_text(label), html_out=h) + (f"{subtitle} " if subtitle else ""))
                if close is None and sc.params.get("text") and name not in _TAB_SETS and name not in _TAB_ITEMS:
                    # an inline shortcode's visible text (button, tooltip); a callout taking its content as
                    # text= (Lotus Docs {{< alert context="warning" text="..." />}}) led by its kind or title
                    lead = self.callout(sc)
                    out.append((callout_lead(_label_text(lead), html_out=h) if lead else "") + sc.params["text"])
                lang = sc.params.get("lang") or sc.params.get("language") or ""
                # a Docsy text tab's or card's lang names no code language
                if lang and close is not None and not docsy_tab and name != "card" \
                        and not re.search(r"\{\{[<%]", inner) and not _has_fence(inner):
                    out.append(_fence(inner, lang, html_out=h))
                    pos = close.end()
        out.append(body[pos:])
        text = "".join(out)
        # the page may hold "\x00HUGOESC7\x00" itself: only the numbers handed out here are put back
        return re.sub("\x00HUGOESC(\\d{1,9})\x00", lambda m: escaped[int(m.group(1))]
                      if int(m.group(1)) < len(escaped) else m.group(0), text)

    def _static_template(self, name: str) -> str | None:
        """The output of the site's own shortcode template ``layouts/_shortcodes/<name>.html``
        (Hugo 0.146+) or ``layouts/shortcodes/<name>.html`` when it holds no template action:
        Go's text/template copies text outside ``{{ }}`` verbatim, so such a template renders
        as its text (Hugo "Create your own shortcodes"; a project's template is looked up
        before any theme's). ``{{/* comments */}}`` are dropped; a template with any other
        action, a theme's template, or one over 64 KB gives ``None`` (the shortcode is
        then reduced as before). Read once per name."""
        if name in self._static_templates:
            return self._static_templates[name]
        found: str | None = None
        if re.fullmatch(r"[\w.-]+(?:/[\w.-]+){0,8}", name) and ".." not in name \
                and len(self._static_templates) < 10_000:
            for folder in ("layouts/_shortcodes", "layouts/shortcodes"):
                path = self._shortcode_file(self._root / folder, name)
                if not path.is_file():
                    continue
                if inside_root(path, self._root.resolve()).problem:
                    break  # a template linked out of the corpus is never read
                try:
                    with path.open("r", encoding="utf-8", errors="replace") as fh:
                        text = fh.read(65_537)
                except OSError:
                    break
                if len(text) <= 65_536:
                    found = _without_template_comments(text)
                break
        self._static_templates[name] = found
        return found

    def _shortcode_file(self, folder: Path, name: str) -> Path:
        """The template file of shortcode ``name`` (lower case, as the page's tags are read)
        in the shortcode ``folder``: ``name.html``, else the file whose name matches it in
        any case (``currentVersion.html`` for ``{{< currentVersion >}}``: Hugo looks
        templates up by lower-cased name). The folder is listed once."""
        path = folder / f"{name}.html"
        if path.is_file():
            return path
        parent, _, stem = f"{name}.html".rpartition("/")
        where = folder / parent if parent else folder
        key = str(where)
        if key not in self._shortcode_names:
            names: dict[str, str] = {}
            if len(self._shortcode_names) < 1_000 and where.is_dir():
                try:
                    for _, entry in zip(range(5_000), where.iterdir()):
                        names.setdefault(entry.name.lower(), entry.name)
                except OSError:
                    pass
            self._shortcode_names[key] = names
        found = self._shortcode_names[key].get(stem)
        return where / found if found else path

    def _value_template(self, name: str, page_rel: str, sc: Shortcode | None = None,
                        inner: str | None = None) -> str | None:
        """The output of the site's (or its theme's) template for shortcode ``name`` when
        it only prints values of the page or the site (:func:`render_value_template`):
        Longhorn's ``{{- index (split .Page.RelPermalink "/") 2 -}}`` writes ``1.7.0`` on
        ``content/docs/1.7.0/x.md``, ``{{ .Site.Params.version }}`` the site parameter,
        ``<code>{{ .Get 0 }}</code>`` the shortcode's first argument (``sc``); ``inner``
        is what ``.Inner`` writes (a marker the caller replaces by the content).
        ``None`` when there is no such template or it does anything else. Hugo
        "Shortcode templates": ``.Page`` is the page that calls the shortcode."""
        if len(self._value_templates) >= 10_000:
            return None
        if name not in self._value_templates:
            own = self._template_text(name)
            self._value_templates[name] = own if "{{" in own else None
        text = self._value_templates[name]
        if text is None:
            return None
        def get(key: str | int) -> str:
            if sc is None:
                return ""
            return sc.get(pos=key) if isinstance(key, int) else sc.get(key.lower())

        params: Any = None
        if sc is not None:
            params = list(sc.args) if sc.args else dict(sc.params)
        def hugo_call(what: str, args: list[Any]) -> Any:
            key = str(args[0])
            if what == "Param":  # .Page.Param: the page's front matter value, else the site parameter
                return self.param(key, page_rel=page_rel) if len(args) == 1 else None
            words = self.translate(key) if len(args) == 1 else None  # T "key" (a data argument: not run)
            return None if words is None or "{{" in words else words

        return render_value_template(text, lambda field: self._template_field(field, page_rel), get, params, inner,
                                     hugo_call)

    def _site_data(self, keys: list[str]) -> Any:
        """``.Site.Data.<keys>``: the value in the site's data files (Hugo "Data sources":
        ``data/a.yaml`` is ``.Site.Data.a``, ``data/a/b.json`` is ``.Site.Data.a.b``; the
        project's ``data/`` before its themes'), as a template value; ``None`` when absent."""
        bases = ["", *(d[: -len("i18n")] for d in self._config.settings.get("i18n_dirs", "").split(";")
                       if d.endswith("/i18n"))]
        root = self._root.resolve()
        for base in bases[:50]:
            for i in range(min(len(keys), 8)):
                stem = "/".join(keys[: i + 1])
                for ext in (".yaml", ".yml", ".json", ".toml"):
                    path = self._root / f"{base}data" / f"{stem}{ext}"
                    rel = f"{base}data/{stem}{ext}"
                    if rel not in self._data_files:
                        data: Any = None
                        if len(self._data_files) < 1_000 and path.is_file() and not inside_root(path, root).problem:
                            try:
                                data = load_data_file(path) if path.stat().st_size <= 2_000_000 else None
                            except (OSError, ValueError):
                                data = None
                        self._data_files[rel] = data
                    value = self._data_files[rel]
                    if value is None:
                        continue
                    for key in keys[i + 1:]:
                        value = value.get(key) if isinstance(value, dict) else None
                    return None if value is None else data_value(value)
        return None

    def _template_field(self, field: str, page_rel: str) -> Any:
        """The value of ``field`` (``.Page.RelPermalink``, ``.Page.Params.x``, ``.Site.Params.x``,
        ``site.Params.x``, ``.Page.File.Dir`` ...) in a shortcode template that ``page_rel``
        calls, as Hugo gives it; ``None`` for a field murar does not know."""
        parts = field.lstrip(".").split(".")
        if parts[:2] == ["Page", "Site"]:
            parts = parts[1:]
        if parts[0] in ("Site", "site"):
            if len(parts) > 2 and parts[1] == "Params":
                return self._params.get("params." + ".".join(parts[2:]).lower())
            if len(parts) > 2 and parts[1] == "Data":
                return self._site_data(parts[2:])
            return None
        if parts[0] != "Page" or len(parts) < 2:
            return None
        what = parts[1:]
        content = self._content_dir_of(page_rel) or "."
        inner = page_rel[len(content) + 1:] if content not in (".", "") else page_rel
        if what == ["RelPermalink"]:
            if self._config.settings.get("ugly_urls") == "true":
                return None
            path = self.page_url_dir(page_rel).strip("/")
            base = self._config.base_url.strip("/")
            full = "/".join(x for x in (base, path) if x)
            return f"/{full}/" if full else "/"
        if what == ["Title"]:
            title = self._front_matter(page_rel).get("title")
            return title if isinstance(title, str) else None
        if what == ["Section"]:
            return inner.split("/", 1)[0] if "/" in inner else ""
        if what in (["Lang"], ["Language", "Lang"]):
            return self._lang
        if what[0] == "File" and len(what) == 2:
            folder, base_name = posixpath.split(inner)
            stem = self.split_language(posixpath.splitext(base_name)[0])[0]
            files = {"Dir": f"{folder}/" if folder else "", "LogicalName": base_name, "BaseFileName":
                     posixpath.splitext(base_name)[0], "ContentBaseName": posixpath.basename(folder)
                     if stem in ("index", "_index") and folder else stem,
                     "Ext": posixpath.splitext(base_name)[1].lstrip("."), "Path": inner}
            return files.get(what[1])
        if what[0] == "Params" and len(what) > 1:
            key = ".".join(what[1:]).lower()
            lowered = self._page_params(page_rel)
            return lowered.get(key, self._cascaded_params(page_rel).get(key))
        return None

    def _template_image(self, name: str, sc: Shortcode) -> Shortcode | None:
        """``sc`` as an image shortcode (``src``, ``alt``, ``caption``) when the site's
        own template for ``name`` (project ``layouts/shortcodes/<name>.html``, then its
        themes') draws one of its parameters as an ``<img src>``: ``<img src="{{ .Get 0
        }}">``, ``{{ $img := .Get "image" }}`` ... ``<img src="{{ $img | relURL }}">``,
        as Hugo renders it; ``alt`` is the parameter its ``alt`` shows, ``caption`` one
        it writes as an element's text (``<p>{{ .Get "caption" }}</p>``, ``{{ with .Get
        "title" }}<figcaption>{{ . }}``). ``None`` when it has no such template or the
        tag does not give that parameter."""
        if name not in self._image_templates:
            self._image_templates[name] = _image_template_params(self._template_text(name)) \
                if len(self._image_templates) < 10_000 else None
        found = self._image_templates[name]
        if found is None:
            return None

        def value(key: str) -> str:
            return sc.get(pos=int(key)) if key.isdigit() else sc.get(key.lower())

        if found.src.lower() in _DECORATION_PARAMS:  # an icon or logo beside the shortcode's own content
            return None
        src, alt, caption = (value(k) if k else "" for k in (found.src, found.alt, found.caption))
        if src and found.fmt:  # resources.Get (printf "images/%s" $src)
            src = found.fmt.replace("%s", src.strip(), 1) if found.fmt.count("%") == 1 else ""
        if found.lookup == "assets" and src:
            src = "/" + src.strip().lstrip("/")  # a path in the assets folders, not beside the page
        if not src or (suffix_of(split_link(src)[0]) not in IMAGE_SUFFIXES
                       and not (found.lookup == "page" and not is_remote(src))):
            return None  # (a page resource is looked up by a glob: "*dough*" names an image too)
        params = {"src": src, "alt": alt or caption, "caption": caption}
        return Shortcode(name=name, params={k: v for k, v in params.items() if v})

    def _template_inner_is_text(self, name: str) -> bool:
        """Whether the site's template for the image shortcode ``name`` writes the
        content between its tags (``.Inner``) as the page's text: it writes it, and
        has no ``<figcaption>`` (where a template such as Docsy's ``imgproc`` puts it
        as the picture's caption). ``False`` without such a template."""
        text = _drop_template_comments(self._template_text(name))
        return ".Inner" in text and "<figcaption" not in text.lower()

    def _template_reads_path(self, name: str) -> bool:
        """Whether the site's template for ``name`` looks its image up as a resource named
        by a parameter (``$.Page.Resources.GetMatch (.Get 0)``, ``resources.Get (printf
        "images/%s" (.Get "src"))``): the template's image is then the one to draw, not the
        parameter's value as written (:meth:`_template_image`)."""
        if name not in self._image_templates:
            return False
        found = self._image_templates[name]
        return found is not None and bool(found.fmt or found.lookup)

    def _template_include(self, name: str, sc: Shortcode, *, built_path: bool = False,
                          page_rel: str = "") -> tuple[str, str] | None:
        """``(where, path)`` when the site's own template for ``name`` writes the content
        of a file one of its parameters names, as Hugo renders it: ``resources.Get`` of
        the parameter then its ``.Content`` (Hugo "resources.Get": a global resource,
        a path in the ``assets`` folders; ``where`` is ``"assets"``), or ``readFile`` /
        ``os.ReadFile`` of it (a path from the project folder; ``"project"``); ``path``
        is the tag's value of that parameter. The Solo.io docs sites' ``reuse``
        shortcode (kgateway, agentgateway: ``{{< reuse "snippets/x.md" >}}``) is one.
        With ``built_path``, only a template that puts the parameter into a ``printf``
        format (``readFile (printf "static/%s" (.Get 0))``). A path the template builds in the
        calling page's folder (``print .Page.Dir (.Get 0)``) is in ``page_rel``'s folder
        under its content folder. ``None`` when the template does neither or the tag does
        not give the parameter."""
        if name not in self._include_templates:
            self._include_templates[name] = _include_template_param(self._template_text(name)) \
                if len(self._include_templates) < 10_000 else None
        found = self._include_templates[name]
        if found is None:
            return None
        where, key, fmt = found
        if built_path and not fmt:
            return None
        value = (sc.get(pos=int(key)) if key.isdigit() else sc.get(key.lower())).strip()
        if _PAGE_DIR in fmt:
            folder = self._template_field(".Page.File.Dir", page_rel) if page_rel else None
            if not isinstance(folder, str):
                return None
            fmt = fmt.replace(_PAGE_DIR, folder, 1)
        return (where, fmt.replace("%s", value, 1) if fmt else value) if value else None

    def _template_include_target(self, where: str, path: str) -> str | None:
        """The project-relative file a template include names (:meth:`_template_include`):
        an ``assets`` path in the assets folders and mounts, a ``project`` path from the
        project folder; ``None`` when there is none (or it leaves the corpus)."""
        rel = safe_join(path.split("?", 1)[0].split("#", 1)[0].lstrip("/"))
        if not rel:
            return None
        cands = self._served_from("assets", rel) if where == "assets" else [rel]
        return first_existing(self._root, cands)

    def _template_text(self, name: str) -> str:
        """The text of the template Hugo uses for shortcode ``name`` (the project's
        ``layouts/_shortcodes`` or ``layouts/shortcodes``, then each theme's), up to
        64 KB; ``""`` when there is none."""
        if not re.fullmatch(r"[\w.-]+(?:/[\w.-]+){0,8}", name) or ".." in name:
            return ""
        bases = ["", *(d[: -len("i18n")] for d in self._config.settings.get("i18n_dirs", "").split(";")
                       if d.endswith("/i18n"))]
        for base in bases[:50]:
            for folder in ("layouts/_shortcodes", "layouts/shortcodes"):
                text = self._layout_text(self._shortcode_file(self._root / f"{base}{folder}", name))
                if text is not None:
                    return text
        return ""

    def _layout_text(self, path: Path) -> str | None:
        """The first 64 KB of the template file ``path`` (undecodable bytes replaced);
        ``None`` when it is not a file inside the root (a link out of it); ``""`` when
        it cannot be read."""
        if not path.is_file() or inside_root(path, self._root.resolve()).problem:
            return None
        try:
            with path.open("r", encoding="utf-8", errors="replace") as fh:
                return fh.read(65_536)
        except OSError:
            return ""

    def _shared_lookup(self, lookup: str, *, page_rel: str) -> str | None:
        """The file Grafana's ``{{< docs/shared lookup="x/y.md" source="grafana" >}}``
        shows when it is this project's: ``shared/<lookup>`` in the nearest folder above
        the page, up to its content folder, that has it (Grafana's writers' toolkit: each
        project's shared content is the ``shared`` folder of its docs sources, a headless
        bundle; the content folder may be a folder above the docs sources when the site is
        built elsewhere). The project-relative path, or ``None`` (another project's shared
        content is not in the repository)."""
        rel = safe_join(lookup.strip().lstrip("/"))
        if not rel or suffix_of(rel) not in PAGE_MARKUP:
            return None
        content = max((c for c in self._config.content_dirs if is_within(page_rel, c)), key=len, default=".")
        folder, cands = posixpath.dirname(page_rel), []
        for _ in range(20):
            cands.append(safe_join(folder, f"shared/{rel}") if folder else safe_join(f"shared/{rel}"))
            if not folder or folder == content or not is_within(folder, content):
                break
            folder = posixpath.dirname(folder)
        return first_existing(self._root, [c for c in cands if c])

    def _boilerplate(self, name: str, *, page_rel: str) -> str | None:
        """The file ``{{< boilerplate NAME >}}`` shows (the Istio docs' shortcode, copied
        by Envoy Gateway and other sites: a resource of the headless ``boilerplates``
        bundle whose name starts with NAME, ``.Content`` rendered in place): in
        ``boilerplates/`` of the page's first content folder (Envoy Gateway's versioned
        ``/latest/boilerplates``), then of the content root, ``NAME.md`` before the first
        ``NAME*`` page file; else the page ``NAME`` beside the page (Istio's fallback).
        The project-relative path, or ``None``."""
        if not re.fullmatch(r"[\w.-]{1,200}", name) or name.startswith("."):
            return None
        content = max((c for c in self._config.content_dirs if is_within(page_rel, c)), key=len, default=None)
        if content is None:
            return None
        inner = posixpath.relpath(page_rel, content) if content != "." else page_rel
        folders = [f"{inner.split('/', 1)[0]}/boilerplates"] if "/" in inner else []
        folders.append("boilerplates")
        for folder in folders:
            base = self._root / content / folder
            if not base.is_dir() or inside_root(base, self._root.resolve()).problem:
                continue
            names = self._boilerplate_names(base)
            if f"{name}.md" in names:
                return safe_join(content, f"{folder}/{name}.md")
            first = bisect.bisect_left(names, name)
            if first < len(names) and names[first].startswith(name):
                return safe_join(content, f"{folder}/{names[first]}")
        beside = safe_join(posixpath.dirname(page_rel), f"{name}.md")
        return beside if beside and (self._root / beside).is_file() else None

    def _boilerplate_names(self, base: Path) -> list[str]:
        """The sorted names of the page files in a ``boilerplates`` folder (its first
        10,000 entries), listed once per site: a page may hold thousands of
        ``{{< boilerplate >}}`` calls."""
        key = str(base)
        if key not in self._boilerplates:
            try:
                self._boilerplates[key] = sorted(p.name for _, p in zip(range(10_000), base.iterdir())
                                                 if p.suffix in PAGE_MARKUP and p.is_file())
            except OSError:
                self._boilerplates[key] = []
        return self._boilerplates[key]

    def _include(self, sc: Shortcode, *, page_rel: str, warnings: list[str], depth: int,
                 stack: tuple[str, ...], budget: PageCharBudget, indent: str = "") -> str:
        """The file a shortcode includes: shown as code (``code="true"``, a ``language``, a
        file that is not Markdown or HTML; ``indent``: the shortcode's indentation in a
        list step, see :func:`_fence`), else its text with its shortcodes rewritten."""
        target = sc.get("file", "path", "src", pos=0)
        res = self.resolve_include(target, page_rel=page_rel)
        if res.problem or res.rel_path is None:
            warnings.append(f"include {target!r}: {res.problem or 'not found'}")
            return ""
        if res.rel_path in stack or depth >= _MAX_INCLUDE_DEPTH:
            warnings.append(f"include {target!r}: include cycle or nesting deeper than {_MAX_INCLUDE_DEPTH}")
            return ""
        raw = self._read(res.rel_path, f"include {target!r}", warnings, budget)
        if raw is None:
            return ""
        if _truthy(sc.params.get("code")):  # Docsy readfile code="true": the file as highlighted code
            return _fence(raw.rstrip(), sc.params.get("lang") or suffix_of(res.rel_path).lstrip("."),
                          html_out=self._html_page(page_rel), indent=indent)
        if sc.params.get("language") and not _truthy(sc.params.get("markdown")):
            # Geekdoc include language="CSS": the file highlighted in that language (markdown="true" renders it)
            return _fence(raw.rstrip(), sc.params["language"], html_out=self._html_page(page_rel), indent=indent)
        _, body, _ = split_front_matter(raw)
        body = rebase_links(body, from_rel=res.rel_path, to_rel=page_rel,
                            exists=lambda p: (self._root / p).is_file())
        if suffix_of(res.rel_path) not in (".md", ".markdown", ".mdown", ".html", ".htm", ""):
            return _fence(body.rstrip(), suffix_of(res.rel_path).lstrip("."), html_out=self._html_page(page_rel),
                          indent=indent)
        if sc.name == "include" and _truthy(sc.params.get("hidefirstheading") or (
                sc.get(pos=1) if self._learn else "")):
            # Relearn include hidefirstheading=true (also its second argument): the file's opening heading
            # is not shown (its <div class="include hide-first-heading"> hides that first child)
            body = _FIRST_HEADING.sub("", body, count=1)
        return self.rewrite_shortcodes(body, page_rel=page_rel, warnings=warnings, _depth=depth + 1,
                                       _stack=(*stack, res.rel_path), _budget=budget)

    def _glossary_definition(self, sc: Shortcode, *, page_rel: str, warnings: list[str], depth: int,
                             stack: tuple[str, ...], budget: PageCharBudget) -> str:
        """Kubernetes ``glossary_definition``: the glossary entry's text, its summary
        (before ``<!--more-->``) unless ``length="all"``, after ``prepend``."""
        term = sc.params.get("term_id", "")
        rel = self.glossary_entry(term, page_rel=page_rel)
        if rel is None or rel in stack or depth >= _MAX_INCLUDE_DEPTH:
            warnings.append(f"glossary definition {term!r}: no glossary entry" if rel is None
                            else f"glossary definition {term!r}: cycle or nesting deeper than {_MAX_INCLUDE_DEPTH}")
            return ""
        raw = self._read(rel, f"glossary definition {term!r}", warnings, budget)
        if raw is None:
            return ""
        body = split_front_matter(raw)[1].strip()
        short, more, rest = body.partition("<!--more-->")
        text = short.strip() if sc.params.get("length", "short") != "all" else (
            f"{short.strip()}\n\n{rest.strip()}" if more else body)
        prepend = sc.params.get("prepend", "").strip()
        if prepend and text:
            text = f"{prepend} {text[0].lower()}{text[1:]}"
        text = self.rewrite_shortcodes(text, page_rel=page_rel, warnings=warnings, _depth=depth + 1,
                                       _stack=(*stack, rel), _budget=budget)
        return f"\n\n{text.strip()}\n\n"

    def _raw_includes(self, code: str, *, page_rel: str, warnings: list[str], budget: PageCharBudget) -> str:
        """``code`` with each include shortcode in it replaced by the file's raw text
        (inside a code block a ``readfile`` shows the file, not its rendering)."""
        def raw(m: re.Match[str]) -> str:
            name = m.group("name").lower()
            if m.group("close") or name not in INCLUDE_SHORTCODES:
                return m.group(0)
            target = parse_args(name, m.group("args")).get("file", "path", "src", pos=0)
            res = self.resolve_include(target, page_rel=page_rel)
            if res.problem or res.rel_path is None:
                warnings.append(f"include {target!r}: {res.problem or 'not found'}")
                return ""
            text = self._read(res.rel_path, f"include {target!r}", warnings, budget)
            return "" if text is None else text.rstrip("\n")
        return _SHORTCODE.sub(raw, code)

    def tab_include_target(self, include: str, *, page_rel: str) -> str | None:
        """The file a Kubernetes-style ``{{< tab name="Bash" include="x.md" />}}`` shows
        (the project's ``tabs.html``): in a leaf bundle the first of its files whose path in
        the bundle matches ``**<include>*`` (``.Resources.GetMatch``), else the page
        ``<page folder>/<include>`` (``.Site.GetPage``, ``.md`` tried without a suffix);
        ``None`` when there is none. Never raises."""
        include = include.strip()
        if not include:
            return None
        folder = posixpath.dirname(page_rel)
        stem = posixpath.splitext(posixpath.basename(page_rel))[0]
        if self.split_language(stem)[0] == "index":
            if page_rel not in self._bundle_files:  # the bundle's files, listed once per page
                resources = [r.rel for r in self.page_resources(page_rel)]
                pages = [r for r in os_walk_files(self._root, folder, PAGE_MARKUP)[:_MAX_RESOURCES] if r != page_rel]
                self._bundle_files[page_rel] = sorted(set(resources) | set(pages))
            for rel in self._bundle_files[page_rel]:
                if self._glob(page_rel, f"**{include}*", rel[len(folder) + 1:] if folder else rel):
                    return rel
        names = [include] if suffix_of(include) else [include, include + ".md"]
        cands = [c for c in (safe_join(folder, n) for n in names) if c]
        return first_existing(self._root, cands)

    def _tab_include(self, sc: Shortcode, *, page_rel: str, warnings: list[str], depth: int,
                     stack: tuple[str, ...], budget: PageCharBudget) -> str:
        """A tab's ``include=`` file (:meth:`tab_include_target`): a content page's text, any other
        file highlighted as code (``codelang``, else its suffix), as the project's ``tabs.html`` does."""
        include = sc.params.get("include", "").strip()
        target = self.tab_include_target(include, page_rel=page_rel)
        if target is None:
            warnings.append(f"tab include {include!r}: not found")
            return ""
        params = {} if suffix_of(target) in PAGE_MARKUP else {
            "language": sc.params.get("codelang", "").strip() or suffix_of(target).lstrip(".") or "text"}
        return self._include(Shortcode(name="include", args=["/" + target], params=params), page_rel=page_rel,
                             warnings=warnings, depth=depth, stack=stack, budget=budget)

    def _code_sample(self, sc: Shortcode, *, page_rel: str, warnings: list[str], budget: PageCharBudget,
                     indent: str = "") -> str:
        """An example file shown as code (Kubernetes ``codenew``/``code_sample``:
        ``file`` is relative to ``<contentDir>/examples/``), labelled with its name;
        ``indent``: the shortcode's indentation in a list step (see :func:`_fence`)."""
        target = sc.get("file", pos=0).strip()
        cands = [safe_join(c, "examples", target.lstrip("/")) for c in self._config.content_dirs]
        found = first_existing(self._root, cands) if target else None
        if found is None:
            res = self.resolve_include(target, page_rel=page_rel)
            found = res.rel_path if res.rel_path and not res.problem else None
        if found is None:
            warnings.append(f"code sample {target!r}: not found (tried {', '.join(cands) or 'no file'})")
            return ""
        code = self._read(found, f"code sample {target!r}", warnings, budget)
        if code is None:
            return ""
        lang = sc.params.get("language") or sc.params.get("lang") or suffix_of(found).lstrip(".")
        h = self._html_page(page_rel)
        lead = indent if not h else ""
        return f"\n{lead}{_code_span(target, html_out=h)}:\n" + _fence(code.rstrip(), lang, html_out=h, indent=indent)

    def _card_picture(self, sc: Shortcode, label: str, caption: str, *, page_rel: str, warnings: list[str]) -> str:
        """A card's ``image`` parameter (a remote URL or an image path) as a picture on its
        own line (alt: the card's title, caption: ``caption``); ``""`` without one."""
        image = sc.params.get("image", "").strip()
        if not image or not (is_remote(image) or suffix_of(split_link(image)[0]) in IMAGE_SUFFIXES):
            return ""
        picture = self._image(Shortcode("img", params={"src": image, "alt": _label_text(label), "caption": caption}),
                              "", page_rel=page_rel, warnings=warnings)
        return f"\n\n{picture}\n\n"

    def _resource_gallery(self, sc: Shortcode, *, page_rel: str) -> str | None:
        """The pictures of a gallery or carousel that names its images by page
        resource globs, one per line: Blowfish ``{{< carousel images="{a.jpg,https://x/b.jpg}" >}}``
        or ``images="gallery/*"`` (its carousel.html: remote URLs as they are, the
        rest ``.Resources.Match``) and the gallery shortcode ``{{< gallery
        match="images/*" >}}`` (hugo-shortcode-gallery: ``.Resources.Match``, with
        ``sortOrder``), a resource's front matter title as caption; ``None`` for
        any other shortcode (a gallery of its own ``<img>`` tags is read as it is)."""
        if _GALLERY.search(sc.name) is None:
            return None
        spec = sc.params.get("images") or sc.params.get("match")
        if not spec:
            return None
        globs = [g.strip() for g in spec.strip().removeprefix("{").removesuffix("}").split(",")
                 if g.strip()] if "images" in sc.params else [spec.strip()]
        h = self._html_page(page_rel)
        pictures: list[str] = []
        resources = self.page_resources(page_rel)
        for glob in globs[:_MAX_RESOURCES]:
            if is_remote(glob):
                pictures.append(_md_image(glob, "", "", html_out=h))
                continue
            # glob tests on one page are bounded: thousands of galleries over a large bundle stop matching
            if self._glob_chars.get(page_rel, 0) > _MAX_GLOB_CHARS:
                break
            found = [r for r in resources if self._glob(page_rel, glob, r.name) and suffix_of(r.rel) in IMAGE_SUFFIXES]
            if sc.params.get("sortorder", "").lower() == "desc":
                found.reverse()
            pictures += [_md_image(relpath_from_page(r.rel, page_rel), _strip_markup(r.title),
                                   _strip_markup(r.title), html_out=h) for r in found]
        return f"\n\n{chr(10).join(pictures[:_MAX_RESOURCES])}\n\n" if pictures else ""

    def _named_video(self, sc: Shortcode, *, page_rel: str) -> Shortcode:
        """A video shortcode that names a page resource instead of giving its file
        (Geekdoc ``{{< video name="demo" >}}``: the name front matter ``resources``
        gives it; Doks ``{{< video src="demo" >}}``: the file name without its
        suffix, "matched against page bundle resources") with the file as ``src``
        and, without a title of its own, the resource's title; ``sc`` itself otherwise."""
        name, src = sc.params.get("name", ""), sc.get("src", "url", "file", pos=0)
        named: PageResource | None = None
        if name and not src:
            named = self.page_resource(name, page_rel=page_rel)
        elif src and sc.name not in ("youtube", "vimeo") and not is_remote(src) \
                and not suffix_of(split_link(src)[0]):
            want = src.strip().lower()
            named = next((r for r in self.page_resources(page_rel) if suffix_of(r.rel) in VIDEO_SUFFIXES
                          and posixpath.splitext(r.name)[0].lower() == want), None)
        if named is None or suffix_of(named.rel) not in VIDEO_SUFFIXES:
            return sc
        title = sc.get("title", "caption", "alt") or named.title
        params = {k: v for k, v in sc.params.items() if k not in ("url", "file")}
        return Shortcode(sc.name, [], {**params, "src": relpath_from_page(named.rel, page_rel), "title": title})

    def _image(self, sc: Shortcode, inner: str, *, page_rel: str, warnings: list[str]) -> str:
        src = sc.get("src", "image", "file", "name", "path", "url", pos=0)
        if not src and suffix_of(split_link(sc.params.get("link", ""))[0]) in IMAGE_SUFFIXES:
            src = sc.params["link"]  # Istio's image shortcode: {{< image link="./arch.svg" caption="..." >}}
        if not src:
            return inner
        # a caption is Markdown (Hugo's figure: caption | markdownify, attr | markdownify): its shown text
        caption = _caption_text(sc.get("caption", "title") or inner.strip())
        alt_default = caption
        if sc.name == "figure" and (sc.params.get("attr") or (sc.params.get("title") and sc.params.get("caption"))):
            # Hugo's figure (and Docsy's): a figcaption of title (h4), caption, then attr (the attribution)
            parts = (sc.params.get("title", ""), sc.params.get("caption", ""), sc.params.get("attr", ""))
            caption = " ".join(dict.fromkeys(x for x in (_caption_text(p) for p in parts) if x))
            alt_default = _caption_text(sc.params.get("caption", "")) or caption
        if not caption and not sc.get("alt") and src == sc.params.get("name"):
            # Geekdoc img: a resource named in front matter shows its title as alt text and caption
            named = self.page_resource(src, page_rel=page_rel)
            caption = alt_default = _strip_markup(named.title) if named is not None else ""
        alt = sc.get("alt") or alt_default
        res = self.resolve_shortcode_src(src, page_rel=page_rel)
        if res.url:
            link = res.url
        elif res.rel_path and not res.problem:
            link = relpath_from_page(res.rel_path, page_rel)
        else:
            link = src  # left for resolve_asset, which reports the paths it tried
        if _DARK_MODE_CLASSES & set(sc.params.get("class", "").split()):
            # Doks shows an img-darkmode image only in dark mode, its img-lightmode twin otherwise (its
            # stylesheet hides the other one): the light one is read, the dark one only counted
            link = split_link(link)[0] + "#only-dark"
        return _md_image(link, alt, caption, html_out=self._html_page(page_rel))


def _endpoint(sc: Shortcode) -> tuple[str, str] | None:
    """``(METHOD, path or URL)`` when a shortcode names an HTTP endpoint: a ``method``
    parameter or an HTTP method argument, with an ``endpoint``/``path``/``url``
    parameter or an argument that starts like a path or URL."""
    method = sc.params.get("method") or next((a for a in sc.args if a.upper() in _HTTP_METHODS), "")
    target = sc.params.get("endpoint") or sc.params.get("path") or sc.params.get("url") or next(
        (a for a in sc.args if a.upper() not in _HTTP_METHODS and a[:1] in "/h<{:" and a.strip()), "")
    if method.upper() not in _HTTP_METHODS or not target.strip():
        return None
    return method.upper(), target.strip()


def _config_format(text: str) -> str:
    """``json``, ``yaml`` or ``toml``: the format a configuration snippet is written in."""
    stripped = text.strip()
    if stripped.startswith(("{", "[{")):
        return "json"
    if re.search(r"^\s*\[[^\]\n]+\]\s*$|^\s*[\w.\"'-]+\s*=", stripped, re.MULTILINE):
        return "toml"
    return "yaml" if re.search(r"^\s*[\w.\"'-]+\s*:", stripped, re.MULTILINE) else "toml"


_COMMENT_OPEN = re.compile(r"\{\{-?\s*/\*")
_COMMENT_CLOSE = re.compile(r"\*/\s*-?\}\}")


def _without_template_comments(text: str) -> str | None:
    """``text`` with its Go template comments (``{{/* */}}``, ``{{- /* */ -}}``) removed, or
    ``None`` when it holds any other action (or an unclosed comment). One pass, linear."""
    out: list[str] = []
    pos = 0
    while (start := text.find("{{", pos)) >= 0:
        opener = _COMMENT_OPEN.match(text, start)
        closer = _COMMENT_CLOSE.search(text, opener.end()) if opener else None
        if closer is None:
            return None
        out.append(text[pos:start])
        pos = closer.end()
    return "".join(out) + text[pos:]


# a parameter in a template: .Get "name", $.Get 0, (.Get `name`); a variable set from one
_TPL_PARAM = r"""\(?\s*\$?\.Get\s+(?:"([\w-]{1,60})"|`([\w-]{1,60})`|(\d{1,2}))"""
_TPL_VAR = re.compile(r"\{\{-?\s*(\$[A-Za-z_]\w{0,60})\s*:?=\s*" + _TPL_PARAM)
# <img src="{{ .Get "src" }}">, "{{ relURL (.Get 0) }}", "{{ $img | relURL }}", or "{{ . }}" inside {{ with .Get "x" }}
_TPL_IMG_SRC = re.compile(r"""<img\b[^<>]{0,500}?\bsrc\s*=\s*["']?\{\{-?\s*(?:(?:relURL|absURL|safeURL)\s+)?(?:"""
                          + _TPL_PARAM + r"""|(\$[A-Za-z_]\w{0,60})|(\.)\s*[|}-])""")
_TPL_WITH = re.compile(r"\{\{-?\s*with\s+" + _TPL_PARAM + r"\s*-?\}\}")
_TPL_ALT = re.compile(r"""\balt\s*=\s*["']?\{\{-?\s*(?:""" + _TPL_PARAM + r"""|(\$[A-Za-z_]\w{0,60}))""")
# a parameter written as an element's text: >{{ .Get "caption" }}, or {{ with .Get "title" }}<p>{{ . }}
# (a variable written out, not one assigned: {{ $kind := .Get "content" }} writes nothing)
_TPL_TEXT = re.compile(r""">\s*\{\{-?\s*(?:""" + _TPL_PARAM + r"""|(\$[A-Za-z_]\w{0,60})(?![\w.])(?!\s*:?=))""")
_TPL_WITH_TEXT = re.compile(r"\{\{-?\s*with\s+" + _TPL_PARAM + r"""\s*-?\}\}[^{]{0,300}?>\s*\{\{-?\s*\.\s*[|}-]""")


# a file read from a parameter: resources.Get / readFile / os.ReadFile of (.Get x) or of a variable
_TPL_READ = re.compile(r"\b(resources\.Get|readFile|os\.ReadFile)\s+(?:\(\s*printf\s+\"([^\"{}%]{0,200}%s[^\"{}%]{0,200})\"\s+)?"
                       r"(?:" + _TPL_PARAM + r"|(\$[A-Za-z_]\w{0,60}))")
# a variable set to the value of the enclosing `with .Get x`: {{ with (.Get 0) }}{{ $asset = . }}
_TPL_DOT_VAR = re.compile(r"\{\{-?\s*(\$[A-Za-z_]\w{0,60})\s*:?=\s*\.\s*-?\}\}")
_TPL_PIPE_VAR = re.compile(r"\{\{-?\s*(\$[A-Za-z_]\w{0,60})\s*:?=\s*(\$[A-Za-z_]\w{0,60})(?![\w.])")
# a path in the page's folder: {{ $p := (print .Page.Dir (.Get 0)) | printf "./content/%s" }} (.Page.File.Dir,
# .Dir, path.Join, add), the folder relative to the content folder, as Hugo gives it
_TPL_DIR_VAR = re.compile(r"\{\{-?\s*(\$[A-Za-z_]\w{0,60})\s*:?=\s*\(?\s*(?:print|add|path\.Join)\s+\$?\.(?:Page\.)?"
                          r"(?:File\.)?Dir\s+" + _TPL_PARAM + r"\s*\)?\s*\)?\s*"
                          r"(?:\|\s*printf\s+\"([^\"{}%]{0,200}%s[^\"{}%]{0,200})\")?")
# a content view's lead: {{ with .Params.headcontent }}<div class="lead">{{ . | markdownify }}</div>, or
# <div class="lead">{{ .Description }} / {{ .Params.x }}
_LEAD_PARAM = re.compile(r"""\{\{-?\s*with\s+\$?\.(?:Params\.(\w{1,60})|Description)\s*-?\}\}\s*<\w+[^<>]{0,200}?\bclass\s*=\s*["'][^"']{0,100}\blead\b"""
                         r"""|\bclass\s*=\s*["'][^"']{0,100}\blead\b[^<>]{0,200}>\s*\{\{-?\s*\$?\.(?:Params\.(\w{1,60})|Description)\b""")
#: where a template include's format puts the calling page's folder (:func:`_include_template_param`)
_PAGE_DIR = "\x00HUGODIR\x00"
_TPL_WITH_PAREN = re.compile(r"\{\{-?\s*with\s+" + _TPL_PARAM + r"\s*\)?\s*-?\}\}")


def _drop_template_comments(text: str) -> str:
    """``text`` without its Go template comments (``{{/* */}}``); an unclosed one runs to the end. Linear."""
    out: list[str] = []
    pos = 0
    while (opener := _COMMENT_OPEN.search(text, pos)) is not None:
        closer = _COMMENT_CLOSE.search(text, opener.end())
        out.append(text[pos:opener.start()])
        if closer is None:
            return "".join(out)
        pos = closer.end()
    return "".join(out) + text[pos:]


def _include_template_param(text: str) -> tuple[str, str, str] | None:
    """``(where, parameter, format)`` of a shortcode template that writes a file's content:
    ``"assets"`` when it passes a parameter (by name, or position as digits) to
    ``resources.Get`` and writes a ``.Content``, ``"project"`` when it passes it to
    ``readFile``/``os.ReadFile``; ``format`` the ``printf`` format with one ``%s`` the
    parameter is put into first (``readFile (printf "static/%s" (.Get 0))``), ``""`` for
    none; the parameter may reach the call through variables
    (``{{ $f := .Get "file" }}``, ``{{ with .Get 0 }}{{ $f = . }}``, ``{{ $f = $f | trim }}``),
    or be joined to the calling page's folder first (``{{ $p := (print .Page.Dir (.Get 0)) | printf
    "./content/%s" }}``: the format then holds :data:`_PAGE_DIR` where that folder goes).
    ``None`` for any other template. Linear in the template (bounded scans)."""
    if ".Get" not in text or not re.search(r"resources\.Get|readFile|ReadFile", text):
        return None
    text = _drop_template_comments(text)
    variables: dict[str, str] = {}
    for _, m in zip(range(100), _TPL_VAR.finditer(text)):
        variables.setdefault(m.group(1), m.group(2) or m.group(3) or m.group(4))
    for _, m in zip(range(100), _TPL_DOT_VAR.finditer(text)):
        withs = [w for _, w in zip(range(200), _TPL_WITH_PAREN.finditer(text, 0, m.start()))]
        if withs and m.group(1) not in variables:
            variables[m.group(1)] = withs[-1].group(1) or withs[-1].group(2) or withs[-1].group(3)
    for _, m in zip(range(100), _TPL_PIPE_VAR.finditer(text)):  # $b := $a, $a = $a | strings.TrimPrefix "/"
        if m.group(2) in variables:
            variables.setdefault(m.group(1), variables[m.group(2)])
    in_dir: dict[str, str] = {}  # variable -> the format of a path in the page's folder
    for _, m in zip(range(100), _TPL_DIR_VAR.finditer(text)):
        variables.setdefault(m.group(1), m.group(2) or m.group(3) or m.group(4))
        in_dir.setdefault(m.group(1), (m.group(5) or "%s").replace("%s", _PAGE_DIR + "%s", 1))
    for _, m in zip(range(20), _TPL_READ.finditer(text)):
        param = m.group(3) or m.group(4) or m.group(5) or variables.get(m.group(6) or "", "")
        if not param:
            continue
        fmt = in_dir.get(m.group(6) or "", "") if not m.group(2) else m.group(2)
        if m.group(1) == "resources.Get":
            if ".Content" in text and _PAGE_DIR not in fmt:
                return "assets", param, fmt
        else:
            return "project", param, fmt
    return None


@dataclass(frozen=True, slots=True)
class _TemplateImage:
    """What a site shortcode template draws as its ``<img>`` (:func:`_image_template_params`):
    the parameters (a name, or a position as digits; ``""`` for none) giving its ``src``,
    ``alt`` and caption; ``lookup`` how the template finds the file: ``""`` the value is
    the link, ``"page"`` a page resource (``.Page.Resources.Get``/``GetMatch``: a name or
    glob in the page's bundle), ``"assets"`` a global resource (``resources.Get``: a path
    in the assets folders); ``fmt`` a ``printf`` format the value is put into first
    (``"images/%s"``), ``""`` for none."""

    src: str
    alt: str
    caption: str
    lookup: str = ""
    fmt: str = ""


# a resource looked up from a parameter or a variable, possibly through printf:
# $img := $.Page.Resources.GetMatch (.Get 0), $i := resources.Get (printf "images/%s" $src)
_TPL_RES_VAR = re.compile(r"\{\{-?\s*(\$[A-Za-z_]\w{0,60})\s*:?=\s*\(?\s*(resources|\$?\.Page\.Resources|\$?\.Resources)"
                          r"\.(?:GetMatch|Get)\s+(?:\(\s*)?(?:printf\s+\"([^\"{}]{0,200})\"\s+)?(?:"
                          + _TPL_PARAM + r"|(\$[A-Za-z_]\w{0,60}))")
# an image made from a resource: $small := $img.Resize "600x" (Fit, Fill, Crop, Process, Filter)
_TPL_DERIVED_VAR = re.compile(r"\{\{-?\s*(\$[A-Za-z_]\w{0,60})\s*:?=\s*\(?\s*(\$[A-Za-z_]\w{0,60})\."
                              r"(?:Resize|Fit|Fill|Crop|Process|Filter)\b")
_TPL_WITH_VAR = re.compile(r"\{\{-?\s*with\s+(\$[A-Za-z_]\w{0,60})\s*-?\}\}")
# <img src="{{ $img.RelPermalink }}">, "{{ ($img.Resize "600x").Permalink }}", "{{ .RelPermalink }}" in {{ with $img }}
_TPL_IMG_RES_SRC = re.compile(r"""<img\b[^<>]{0,500}?\bsrc\s*=\s*["']?\{\{-?\s*\(?\s*(?:(\$[A-Za-z_]\w{0,60})[^{}<>]{0,80}?|())"""
                              r"""\.(?:Rel)?Permalink\b""")
# alt="{{ . }}" inside {{ with .Get "alt" }}
_TPL_WITH_ALT = re.compile(r"\{\{-?\s*with\s+" + _TPL_PARAM + r"""\s*-?\}\}\s*alt\s*=\s*["']?\{\{-?\s*\.\s*[|}-]""")


def _image_template_params(text: str) -> _TemplateImage | None:
    """The parameters a shortcode template draws as its first ``<img src>``, its ``alt``
    and as an element's text (:class:`_TemplateImage`), the ``src`` written from the
    parameter (``<img src="{{ .Get 0 }}">``) or from the resource it names
    (``{{ $img := $.Page.Resources.GetMatch (.Get 0) }}`` ... ``<img src="{{
    $img.RelPermalink }}">``, an image resized from it, ``{{ with $img }}`` ... ``{{
    .RelPermalink }}``: Hugo "Page resources", "resources.Get"); ``None`` when it draws
    no parameter as an ``<img>``."""
    if "<img" not in text or ".Get" not in text:
        return None
    text = _drop_template_comments(text)
    variables: dict[str, str] = {}
    for _, m in zip(range(100), _TPL_VAR.finditer(text)):
        variables.setdefault(m.group(1), m.group(2) or m.group(3) or m.group(4))

    def param(m: re.Match[str] | None) -> str:
        if m is None:
            return ""
        return m.group(1) or m.group(2) or m.group(3) or variables.get(m.group(4) or "", "")

    drawn = _TPL_IMG_SRC.search(text)
    src = param(drawn)
    if drawn is not None and drawn.group(5):  # {{ . }}: the parameter of the innermost enclosing `with`
        withs = [w for _, w in zip(range(200), _TPL_WITH.finditer(text, 0, drawn.start()))]
        src = (withs[-1].group(1) or withs[-1].group(2) or withs[-1].group(3)) if withs else ""
    lookup = fmt = ""
    if not src:
        resources: dict[str, tuple[str, str, str]] = {}  # variable -> (parameter, lookup, printf format)
        for _, m in zip(range(100), _TPL_RES_VAR.finditer(text)):
            key = m.group(4) or m.group(5) or m.group(6) or variables.get(m.group(7) or "", "")
            if key:
                resources.setdefault(m.group(1), (key, "assets" if m.group(2) == "resources" else "page",
                                                  m.group(3) or ""))
        for _, m in zip(range(100), _TPL_DERIVED_VAR.finditer(text)):
            if m.group(2) in resources:
                resources.setdefault(m.group(1), resources[m.group(2)])
        shown_res = _TPL_IMG_RES_SRC.search(text)
        if shown_res is not None:
            name = shown_res.group(1) or ""
            if shown_res.group(2) is not None:  # {{ .RelPermalink }}: the resource of the innermost `with $x`
                withs = [w for _, w in zip(range(200), _TPL_WITH_VAR.finditer(text, 0, shown_res.start()))]
                name = withs[-1].group(1) if withs else ""
            if name in resources:
                src, lookup, fmt = resources[name]
    if not src:
        return None
    alt = param(_TPL_ALT.search(text))
    if not alt and (with_alt := _TPL_WITH_ALT.search(text)) is not None:
        alt = with_alt.group(1) or with_alt.group(2) or with_alt.group(3)
    shown = [p for _, m in zip(range(50), _TPL_TEXT.finditer(text)) if (p := param(m))]
    shown += [m.group(1) or m.group(2) or m.group(3) for _, m in zip(range(50), _TPL_WITH_TEXT.finditer(text))]
    caption = next((p for p in shown if p != src), "")
    return _TemplateImage(src, alt, caption, lookup, fmt)


def _docsy_tab_is_text(tab: Shortcode, pane: Shortcode, *, markdown_delims: bool, inner: str) -> bool:
    """Docsy ``tab`` in a ``tabpane``: text (Markdown/HTML) when ``text`` is set true on
    the tab, else on the pane; code when it is set false (Docsy tabpane docs: "By
    default, the tab's content is rendered as code block"). Unset, a tab written
    with ``{{% %}}`` (Docsy: "If your content is markdown, use the percent sign")
    or holding shortcodes or fenced code of its own is text: sites on Docsy
    releases before ``text`` (e.g. ``{{% tab header="Android" %}}`` with prose and
    ``highlight`` blocks) wrote Markdown tabs that way."""
    if "text" in tab.params:
        return _truthy(tab.params["text"])
    if "text" in pane.params:
        return _truthy(pane.params["text"])
    # a shortcode inside first: it stands near the start of a nested tab's content, which a fence search
    # would read to its end (nested tabs: quadratic)
    return markdown_delims or re.search(r"\{\{[<%]", inner) is not None or _has_fence(inner)


def _docsy_tab_lang(tab: Shortcode, pane: Shortcode, header: str) -> str:
    """A Docsy code tab's language: the tab's ``lang``, else its header when the pane
    has ``langEqualsHeader=true``, else the pane's ``lang``."""
    if tab.params.get("lang"):
        return tab.params["lang"]
    if _truthy(pane.params.get("langequalsheader")):
        return _label_text(header)
    return pane.params.get("lang", "")


def _file_tree(inner: str, *, html_out: bool = False) -> str:
    """The text of a Hextra ``filetree/container``: each ``filetree/folder`` (``name/``) and
    ``filetree/file`` (``name``) on its own line, indented two spaces a level, in a text block
    (the tree the theme draws); at most 2,000 entries."""
    lines: list[str] = []
    depth = 0
    for tag in _SHORTCODE.finditer(inner):
        kind = tag.group("name").lower()
        if kind not in ("filetree/folder", "filetree/file"):
            continue
        if tag.group("close"):
            depth = max(depth - 1, 0) if kind == "filetree/folder" else depth
            continue
        label = parse_args(kind, tag.group("args")).get("name", pos=0).strip()
        if label and len(lines) < 2000:
            lines.append("  " * min(depth, 20) + label + ("/" if kind == "filetree/folder" else ""))
        if kind == "filetree/folder" and not tag.group("self"):
            depth += 1
    if not lines:
        return ""
    if html_out:
        return "\n<pre>" + html.escape("\n".join(lines)) + "</pre>\n"
    return "\n\n```text\n" + "\n".join(lines) + "\n```\n\n"


def _image_param(sc: Shortcode) -> bool:
    """A shortcode whose ``src`` is an image file, or any ``src`` of an item of a gallery or
    carousel (Hextra's ``gallery-item``: remote pictures without a suffix, picsum.photos/id/1015/1600/1200)
    that names no other kind of file."""
    src = sc.params.get("src", "")
    if not src:
        return False
    suffix = suffix_of(split_link(src)[0])
    return suffix in IMAGE_SUFFIXES or (_GALLERY.search(sc.name) is not None and suffix not in ASSET_SUFFIXES
                                        and "images" not in sc.params and "match" not in sc.params)


def _video_param(sc: Shortcode) -> bool:
    """A shortcode whose ``src`` is a video file (Grafana's ``video-embed``, theme ``video`` variants)."""
    src = sc.params.get("src", "")
    return bool(src) and suffix_of(split_link(src)[0]) in VIDEO_SUFFIXES


def _video(sc: Shortcode) -> str:
    title = html.escape(sc.get("title", "caption", "alt", "label"))
    if "youtube" in sc.name:  # Hugo's youtube, Blowfish's youtubeLite (lite-youtube-embed): a video id
        vid = html.escape(sc.get("id", pos=0))
        return f'\n<iframe src="https://www.youtube.com/embed/{vid}" title="{title}"></iframe>\n' if vid else ""
    if sc.name == "vimeo":
        vid = html.escape(sc.get("id", pos=0))
        return f'\n<iframe src="https://player.vimeo.com/video/{vid}" title="{title}"></iframe>\n' if vid else ""
    src = html.escape(sc.get("src", "url", "file", pos=0))
    return f'\n<video src="{src}" title="{title}"></video>\n' if src else ""


def front_matter_as_hugo_reads_it(text: str) -> str:
    """``text`` with its YAML/TOML front matter closed where Hugo's page lexer closes
    it (``parser/pageparser``: the first line that *starts* with the opening
    ``---``/``+++``, the rest of that line being content), so a ``----`` or
    ``--- words`` closing line ends the front matter as on the built site; a
    closing line of dashes only leaves nothing (Hugo renders the leftover ``-`` as
    an empty list item). Unchanged otherwise."""
    m = _FM_OPEN.match(text)
    if not m:
        return text
    delim = m.group(2)
    close = (_FM_LOOSE_YAML if delim == "---" else _FM_LOOSE_TOML).search(text, m.end())
    if close is None or not close.group(1).strip():
        return text  # no closing line, or an exact one: read as written
    rest = close.group(1).strip()
    rest = "" if delim == "---" and not rest.strip("-") else rest
    return text[:close.start()] + delim + "\n" + (rest + "\n" if rest else "") + text[close.end():].lstrip("\r")


def _weight(meta: dict[str, Any]) -> int:
    """A page's ``weight`` front matter (0 when unset or not an integer)."""
    weight = meta.get("weight")
    return weight if isinstance(weight, int) and not isinstance(weight, bool) else 0


def _never_rendered(meta: dict[str, Any]) -> bool:
    """Build options that publish no page: ``render: never`` (or ``false``), or
    ``render: link`` (Hugo build options docs: a permalink but no rendered page)."""
    for key in ("build", "_build"):
        opts = meta.get(key)
        if isinstance(opts, dict):
            render = opts.get("render")
            if render is False or str(render).lower() in ("never", "false", "link"):
                return True
    return False


#: version note shortcodes ({{< new-in 0.120.0 >}}) and the words they stand for
_VERSION_NOTES = {"new-in": "New in", "added-in": "Added in", "deprecated-in": "Deprecated in"}
_HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
_PUBLISH_DATE_KEYS = ("publishdate", "pubdate", "published", "date")
_EXPIRY_DATE_KEYS = ("expirydate", "unpublishdate")


def _date_keys(cfg: dict[str, Any], which: str, default: tuple[str, ...]) -> list[str]:
    """The front matter keys of ``[frontmatter] <which>`` (``":default"`` is Hugo's
    own list; other ``:tokens`` such as ``:filename``/``:git`` are not front matter)."""
    front = cfg.get("frontmatter")
    keys = _as_list(front.get(which)) if isinstance(front, dict) and which in front else [":default"]
    out: list[str] = []
    for key in keys:
        out += list(default) if key.lower() == ":default" else [] if key.startswith(":") else [key.lower()]
    return list(dict.fromkeys(out))


def _first_date(meta: dict[str, Any], keys: str) -> datetime | None:
    """The first of ``keys`` (``;``-joined, lower case) set in ``meta`` as a UTC datetime."""
    lowered = {str(k).lower(): v for k, v in meta.items()}
    for key in keys.split(";"):
        value = lowered.get(key)
        if value in (None, ""):
            continue
        when: datetime | None = None
        if isinstance(value, datetime):
            when = value
        elif isinstance(value, date):
            when = datetime(value.year, value.month, value.day)
        elif isinstance(value, str):
            try:
                when = datetime.fromisoformat(value.strip())
            except ValueError:
                when = None
        if when is not None:
            return when if when.tzinfo else when.replace(tzinfo=UTC)
    return None


def _cascades_never_rendered(cascade: Any, kind: str, path: str) -> bool:
    """A ``cascade`` (a map or a list of maps, in a branch page's front matter or
    the site configuration) passes ``build.render: never`` to the page of ``kind``
    (``"page"``/``"section"``/``"home"``) at logical ``path`` (``/docs/intro``)
    when an entry's ``target`` (``_target``) allows it: no target, or ``kind``
    and ``path`` globs that match (``*``, ``**``, ``{a,b}``; ``environment`` is
    production). A target on other keys (``lang``, sites) is not assumed to match."""
    return any(_never_rendered(entry) for entry in _cascade_entries(cascade, kind, path))


def _mount_glob_hit(path: str, patterns: str) -> str:
    """The first of the ``\x1e``-joined mount globs that ``path`` (``/``-led, relative
    to the mount source) or a folder above it matches, ``""`` for none (at most 50)."""
    return next((p for p in patterns.split("\x1e")[:50]
                 if p and glob_match(path, "/" + p.lstrip("/"), HUGO, or_below=True)), "")


def _cascade_entries(cascade: Any, kind: str, path: str) -> list[dict[str, Any]]:
    """The entries of a ``cascade`` (a map or a list of maps) whose ``target``
    (``_target``) takes the page of ``kind`` at logical ``path``: no target, or
    ``kind`` and ``path`` globs that match (``*``, ``**``, ``{a,b}``;
    ``environment`` is production). A target on other keys (``lang``, sites) is
    not assumed to match."""
    entries = [cascade] if isinstance(cascade, dict) else cascade if isinstance(cascade, list) else []
    found: list[dict[str, Any]] = []
    for entry in entries[:100]:
        if not isinstance(entry, dict):
            continue
        target = entry.get("target") or entry.get("_target")
        if isinstance(target, dict) and not all(
                (value := {"kind": kind, "path": path, "environment": "production"}.get(str(key).lower()))
                is not None and _glob_match(str(want), value) for key, want in target.items()):
            continue
        found.append(entry)
    return found


def _glob_match(pattern: str, value: str) -> bool:
    """Hugo's glob match (gobwas/glob, :data:`murar.ingest.sites._glob.HUGO`:
    ``**`` any path, ``*`` one path part, ``{a,b}`` alternatives, a comma
    outside braces a comma, case-insensitive) of a value of at most 4,096
    characters; the pattern's outer spaces are dropped."""
    return len(value) <= 4096 and glob_match(value, pattern.strip(), HUGO)


def load(root: Path, config_file: str | None = None, *, environment: str = "production",
         variant: SiteVariant | None = None) -> HugoSite:
    """A :class:`HugoSite` for the Hugo project at ``root`` (config read now).

    ``config_file`` (the marker detection found, relative to ``root``) is not
    needed: Hugo's own precedence between the root file and ``config/`` is applied.
    ``variant.language`` reads that language's pages (and params, i18n strings)
    instead of ``defaultContentLanguage``'s (see :meth:`HugoSite.classify`).

    Raises:
        ConfigError: a config file is invalid, or the site has no such language
            (the message lists the ones it has).
    """
    config = load_config(root, environment=environment, language=variant.language if variant else None)
    cfg, _ = read_hugo_config(root.resolve(), environment=environment)
    params: dict[str, str] = {}
    if isinstance(cfg.get("params"), dict):
        _flatten("params", cfg["params"], params)
    # the language's params override the site's (Hugo multilingual configuration)
    languages = cfg.get("languages")
    read = config.settings.get("content_language") or str(cfg.get("defaultcontentlanguage") or "en").lower()
    lang_cfg = next((v for k, v in languages.items() if str(k).lower() == read and isinstance(v, dict)),
                    None) if isinstance(languages, dict) else None
    if lang_cfg is not None and isinstance(lang_cfg.get("params"), dict):
        _flatten("params", lang_cfg["params"], params)
    raw_cascade = cfg.get("cascade")
    cascade = [raw_cascade] if isinstance(raw_cascade, dict) else raw_cascade if isinstance(raw_cascade, list) else []
    return HugoSite(config, {k.lower(): v for k, v in params.items()},
                    [c for c in cascade if isinstance(c, dict)])
