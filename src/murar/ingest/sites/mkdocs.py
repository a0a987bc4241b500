"""MkDocs (and Material for MkDocs) resolution rules.

From the MkDocs documentation ("Configuration": ``docs_dir``, ``exclude_docs``,
``draft_docs``, ``site_url``, ``markdown_extensions``, ``theme.custom_dir``; "Writing your docs":
file layout, ``index.md``/``README.md``, linking to images) and the
pymdownx.snippets documentation (``base_path``):

- pages are the ``.md`` files under ``docs_dir`` (default ``docs``, relative to
  ``mkdocs.yml``); ``README.md`` is the folder's index only when there is no
  ``index.md`` beside it; files matching ``exclude_docs`` (gitignore-style,
  relative to ``docs_dir``), dot files and the theme's ``custom_dir`` are not
  pages, nor are ``draft_docs`` matches (MkDocs 1.6: drafts ``mkdocs build`` leaves
  out); other files in ``docs_dir`` are static files copied as they are;
- image links resolve relative to the page file; a root-relative link
  (``/img/x.png``, or with the ``site_url`` path in front) is relative to
  ``docs_dir``, and so is an absolute URL on ``site_url`` itself
  (``https://docs.example.org/img/x.png``) when that file is in ``docs_dir``
  (MkDocs copies it there; otherwise the URL stays remote);
- ``--8<--`` snippets resolve against the snippets ``base_path`` list (default
  the folder of ``mkdocs.yml``; an entry that is a file is found by its name
  alone), then the page's folder; a file pulled in as a snippet is an include,
  not a page; ``auto_append`` snippets end every page; ``dedent_subsections``
  (``settings["snippets.dedent_subsections"] == "true"``) dedents the lines a
  line range or section picks.

A site built with ``mkdocs build -f NAME`` and no ``mkdocs.yml`` (Textual's
``mkdocs-online.yml`` inheriting ``mkdocs-common.yml``) is read from that ``mkdocs*.yml``
leaf: :func:`looks_like_mkdocs_config`.

ProperDocs (the ``properdocs`` package, MkDocs 1.6 continued under a new name) reads the
same configuration from ``properdocs.yml`` (or ``.yaml``), before an ``mkdocs.yml``
beside it (properdocs/config/base.py ``_open_config_file``: ``properdocs.yml``,
``properdocs.yaml``, ``mkdocs.yml``, ``mkdocs.yaml``, the first found): the same site.

``{!file!}`` includes (the mdx_include and markdown-include extensions) name a
file relative to the extension's ``base_path`` (default ``.``: the folder of
``mkdocs.yml``, where ``mkdocs`` runs): :meth:`MkDocsSite.resolve_markdown_include`.
``{* file *}`` lines (the markdown-include-variants extension of the FastAPI projects,
``markdown_include_variants``) name a file relative to the folder of ``mkdocs.yml``:
:meth:`MkDocsSite.resolve_variants_include`.

``::: package.module.Object`` blocks (the mkdocstrings plugin) are the API
documentation of that object, whose module is found by
:meth:`MkDocsSite.resolve_python_object` (mkdocstrings-python ``paths``).

With the markdownextradata plugin, pages are Jinja2 templates whose variables include its
data files (the ``data`` folders, else ``_data`` beside ``mkdocs.yml`` and in ``docs_dir``;
each file named by its path there): :meth:`MkDocsSite._extradata`.

The mkdocs-exclude plugin's ``glob`` and ``regex`` lists exclude files too
(paths relative to ``docs_dir``).

With Material's blog plugin, a post (a page under its ``post_dir``) marked
``draft: true`` (or dated after today under ``draft_if_future_date``) is not
built unless the plugin's ``draft`` option is on: :meth:`MkDocsSite._blog_draft`.

With mkdocs-static-i18n, the site is read in its default language (or the
locale asked for, ``--language``: :meth:`MkDocsSite._chosen_translation`): other
locales' pages (``page.fr.md``, or ``fr/page.md`` with ``docs_structure: folder``)
are translations, not pages of their own.

``docs_dir`` may be a symlink (followed), or a symlink checked out by git as a
one-line text file holding the target path (``core.symlinks=false``): that file
is read as the link it stands for. Pages use the ``pymdown`` markup
(:mod:`murar.ingest.markup.pymdown`: Python-Markdown extensions as MkDocs sites
configure them).

With the mkdocs-static-i18n plugin (``plugins: - i18n:``, see
:func:`i18n_languages`), only the default locale's pages are ingested:
translations (``page.fr.md`` with the suffix structure, ``docs/fr/...`` with
the folder structure) are excluded with their locale as the reason.
"""

from __future__ import annotations

import datetime
import fnmatch
import json
import os
import posixpath
import re
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from murar.errors import ConfigError
from murar.ingest.frontmatter import (
    FrontMatterError,
    load_yaml_safely,
    parse_front_matter,
)
from murar.ingest.markup.builder import read_include
from murar.ingest.markup.notebook import NotebookDisplay
from murar.ingest.markup.pymdown import include_targets
from murar.ingest.paths import ResolvedLink, inside_root, is_remote
from murar.ingest.sites import _include_markdown, _jinja
from murar.ingest.sites._common import checked_rel, read_front_matter, regex_problem
from murar.ingest.sites._glob import glob_match
from murar.ingest.sites._links import contained, join_rel
from murar.ingest.sites._xrefs import read_capped
from murar.ingest.sites.base import (
    FileClass,
    FileRole,
    SiteConfig,
    SiteVariant,
    asset_or_unknown,
)

#: mkdocs-macros' delimiter options (j2_<name>_string), named as :class:`_jinja.Delimiters` fields
_J2_DELIMITERS = ("block_start", "block_end", "variable_start", "variable_end", "comment_start", "comment_end")
_SNIPPET_LINE = re.compile(r"""^\s*(?:-{1,}8<-{1,})\s+(['"]?)([^'"\s][^'"]*?)\1\s*$""")
_SNIPPET_FENCE = re.compile(r"^\s*-{1,}8<-{1,}\s*$")
#: a file name suffix the mkdocs-static-i18n plugin reads as a locale even when no language
#: configures it: ISO 639-1 code, optional script and region (``zh``, ``zh-Hant-TW``, ``pt_BR``)
_LOCALE_FORM = re.compile(r"[a-z]{2}(?:-[A-Za-z]{4})?(?:-[A-Z]{2})?|[a-z]{2}_[A-Z]{2}")
# Python-Markdown extensions that replace "{!file!}" by the file (mdx_include; markdown-include)
_INCLUDE_EXTENSIONS = {"mdx_include": "mdx_include", "markdown_include.include": "markdown_include",
                       "markdown_include": "markdown_include"}


class _PermissiveLoader(yaml.SafeLoader):  # type: ignore[misc, unused-ignore]
    """SafeLoader that reads MkDocs' ``!!python/name:``, ``!ENV`` and other custom tags as plain values."""


#: how a ``!relative`` tag's value is kept (MkDocs 1.5+ "Paths relative to the current file or
#: site": ``!relative $config_dir/sub``, ``!relative $docs_dir``, or ``!relative`` alone for the
#: folder of the page being rendered); :func:`_relative_path` reads it
_RELATIVE = "\x00relative:"


def _any_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
        return _RELATIVE + str(value or "") if suffix == "relative" else value
    if isinstance(node, yaml.SequenceNode):
        items = loader.construct_sequence(node)
        return items[-1] if suffix == "ENV" and items else items  # !ENV [NAME, default] -> default
    return loader.construct_mapping(node)


_PermissiveLoader.add_multi_constructor("!", _any_tag)
_PermissiveLoader.add_multi_constructor("tag:yaml.org,2002:python/", _any_tag)


def _relative_path(value: str, site_dir: str, docs: str) -> str | None:
    """A ``!relative`` path (:data:`_RELATIVE`) as MkDocs resolves it (mkdocs/utils/yaml.py
    ``_construct_dir_placeholder``): ``$config_dir[/sub]`` from the folder of ``mkdocs.yml``
    (``site_dir``), ``$docs_dir[/sub]`` from ``docs``; ``None`` for the page's own folder."""
    prefix, _, rest = value.removeprefix(_RELATIVE).partition("/")
    if prefix == "$config_dir":
        return join_rel(site_dir, rest or ".")
    if prefix == "$docs_dir":
        return join_rel(docs, rest or ".")
    return None


#: data files the markdownextradata plugin's folders may give the pages (a real site: a dozen)
_MAX_DATA_FILES = 200
#: data folders of the markdownextradata plugin read (a real site: one or two)
_MAX_DATA_FOLDERS = 20

#: values a ``mkdocs.yml`` may hold once its YAML aliases are expanded (a real one: hundreds)
MAX_CONFIG_VALUES = 100_000


def read_mkdocs_yml(path: Path, *, depth: int = 0, root: Path | None = None,
                    problems: list[str] | None = None) -> dict[str, Any]:
    """``mkdocs.yml`` as a dict (custom tags read as plain values; an ``INHERIT``
    parent merged under it, as MkDocs does, when it is inside ``root``, resolved);
    ``{}`` when unreadable, with why appended to ``problems`` when it is not YAML or
    not a mapping (MkDocs stops there; murar reads the site with the defaults).

    Raises:
        ConfigError: the file nests deeper than the YAML parser goes, or its aliases
            expand to more than :data:`MAX_CONFIG_VALUES` values (nine levels of nine
            aliases, the 'billion laughs', made an extension's options a MemoryError
            out of the site's loading)."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8-sig", errors="replace"), Loader=_PermissiveLoader)
    except OSError:
        return {}
    except yaml.YAMLError as err:
        if problems is not None:
            problems.append(f"{path.name} is not valid YAML ({' '.join(str(err).split())[:200]}); "
                            "MkDocs would stop here, the site is read with its defaults")
        return {}
    except (RecursionError, MemoryError) as err:
        raise ConfigError(f"{path.name} nests too deep to read ({type(err).__name__})") from err
    if not isinstance(data, dict):
        if problems is not None and data is not None:
            problems.append(f"{path.name} is not a mapping of settings; the site is read with its defaults")
        return {}
    if _expanded_size(data, MAX_CONFIG_VALUES) > MAX_CONFIG_VALUES:
        raise ConfigError(f"{path.name}: its YAML aliases expand to more than {MAX_CONFIG_VALUES} values; not read")
    parent = data.pop("INHERIT", None)
    if isinstance(parent, str) and depth < 5:
        inherited = path.parent / parent
        if root is not None and inside_root(inherited, root).problem:
            return data  # a parent out of the corpus root is not read
        return _deep_merge(read_mkdocs_yml(inherited, depth=depth + 1, root=root), data)
    return data


def _back_inside(root: Path, rel: str) -> str:
    """``rel`` (relative to ``root``) without a climb out of the root and back into it:
    ``../en/data`` read with the root at ``docs/en`` is ``data`` (the FastAPI language
    configs name their folders ``../en/...``, from ``docs/<lang>``). Left as it is when
    it really leaves the root."""
    if not rel.startswith(".."):
        return rel
    inner = os.path.relpath(os.path.normpath(os.path.join(root, rel)), root).replace(os.sep, "/")
    return rel if inner.startswith("..") else inner


def _deep_merge(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """``child`` merged into ``base`` as MkDocs merges a config into the one it
    ``INHERIT``s (MkDocs "Configuration inheritance": a deep merge, mergedeep's
    replace strategy): mappings are merged key by key, any other value (a list, a
    string) of the child replaces the parent's. Neither input is changed."""
    merged = dict(base)
    for key, value in child.items():
        old = merged.get(key)
        merged[key] = _deep_merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
    return merged


#: the Markdown extensions Zensical enables when its config names none (zensical/config.py
#: ``_apply_defaults``); ``toc`` and ``tables`` it always adds
ZENSICAL_DEFAULT_EXTENSIONS: dict[str, dict[str, Any]] = {
    "abbr": {}, "admonition": {}, "attr_list": {}, "def_list": {}, "footnotes": {}, "md_in_html": {},
    "toc": {"permalink": True}, "pymdownx.arithmatex": {"generic": True}, "pymdownx.betterem": {},
    "pymdownx.caret": {}, "pymdownx.details": {}, "pymdownx.emoji": {}, "pymdownx.highlight": {},
    "pymdownx.inlinehilite": {}, "pymdownx.keys": {}, "pymdownx.magiclink": {}, "pymdownx.mark": {},
    "pymdownx.smartsymbols": {}, "pymdownx.superfences": {"custom_fences": [{"name": "mermaid", "class": "mermaid"}]},
    "pymdownx.tabbed": {"alternate_style": True, "combine_header_slug": True},
    "pymdownx.tasklist": {"custom_checkbox": True}, "pymdownx.tilde": {},
}

#: the largest ``zensical.toml`` read (a real one: a few kB)
_MAX_TOML_BYTES = 2_000_000


def read_zensical_toml(path: Path, *, problems: list[str] | None = None) -> dict[str, Any]:
    """``zensical.toml`` as the dict :func:`read_mkdocs_yml` gives for ``mkdocs.yml``; ``{}``
    when unreadable, not TOML or over 2,000,000 bytes.

    As Zensical reads it (zensical/config.py ``parse_zensical_config``, ``_apply_defaults``,
    ``_convert_markdown_extensions``): the settings are the ``[project]`` table (the whole
    file without one); ``markdown_extensions`` is a table of ``{name: options}`` whose
    ``pymdownx``/``zensical`` keys are namespaces (``[project.markdown_extensions.pymdownx.tabbed]``
    is the ``pymdownx.tabbed`` extension, ``pymdownx.blocks.admonition`` one level deeper);
    without it, :data:`ZENSICAL_DEFAULT_EXTENSIONS`; ``toc`` and ``tables`` are always on."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(_MAX_TOML_BYTES + 1)
        if len(raw) > _MAX_TOML_BYTES:
            return {}
        data: Any = tomllib.loads(raw.decode("utf-8-sig", errors="replace"))
    except OSError:
        return {}
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as err:
        if problems is not None:
            problems.append(f"{path.name} is not valid TOML ({str(err)[:200]}); "
                            "Zensical would stop here, the site is read with its defaults")
        return {}
    project = data.get("project") if isinstance(data.get("project"), dict) else data
    if not isinstance(project, dict):
        return {}
    raw_exts = project.get("markdown_extensions")
    if raw_exts is None:
        exts: dict[str, Any] = {k: dict(v) for k, v in ZENSICAL_DEFAULT_EXTENSIONS.items()}
    elif isinstance(raw_exts, dict):
        exts = {}
        for name, opts in raw_exts.items():
            if name in ("pymdownx", "zensical") and isinstance(opts, dict):
                for sub, sub_opts in opts.items():
                    nested = sub in ("blocks", "extensions") and isinstance(sub_opts, dict)
                    for key, value in (sub_opts.items() if nested else [(None, sub_opts)]):
                        exts[".".join(str(p) for p in (name, sub, key) if p is not None)] = value
            else:
                exts[str(name)] = opts
    else:
        exts = {}
        for item in raw_exts if isinstance(raw_exts, list) else []:
            exts.update(item if isinstance(item, dict) else {str(item): {}})
    for always in ("toc", "tables"):
        exts.setdefault(always, {})
    project["markdown_extensions"] = [{str(k): v if isinstance(v, dict) else {}} for k, v in exts.items()]
    return project


def read_site_config(path: Path, *, root: Path | None = None, problems: list[str] | None = None) -> dict[str, Any]:
    """The site's config: :func:`read_zensical_toml` for a ``.toml`` file, else
    :func:`read_mkdocs_yml` (why it could not be read appended to ``problems``)."""
    if path.suffix.lower() == ".toml":
        return read_zensical_toml(path, problems=problems)
    return read_mkdocs_yml(path, root=root, problems=problems)


#: bytes a ``mkdocs*.yml`` that is not a default name may have to be taken for the config
_MAX_NAMED_CONFIG_BYTES = 2_000_000
#: the names MkDocs (and ProperDocs, Zensical) read without ``-f``
DEFAULT_CONFIG_FILES = ("zensical.toml", "properdocs.yml", "properdocs.yaml", "mkdocs.yml", "mkdocs.yaml")
_INHERIT_LINE = re.compile(r"(?m)^INHERIT\s*:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(?:#.*)?$")


def looks_like_mkdocs_config(path: Path) -> bool:
    """True when ``path`` is the config a site is built with. A default name
    (:data:`DEFAULT_CONFIG_FILES`) always is; another ``mkdocs*.yml``/``.yaml`` (one a
    site builds with ``mkdocs build -f mkdocs-online.yml``) only when no default-named
    config is beside it, it sets ``site_name`` (the one setting MkDocs requires) itself
    or through its ``INHERIT`` parent, and no sibling ``mkdocs*`` file inherits it (a
    base such as ``mkdocs-common.yml`` is not built by itself). Of several such
    leaves, one that sets ``site_url`` (the deployed site) is taken before one that
    does not, then the first by name. Never raises."""
    if path.name in DEFAULT_CONFIG_FILES:
        return True
    folder = path.parent
    try:
        if any((folder / name).is_file() for name in DEFAULT_CONFIG_FILES):
            return False  # the default config decides
        # a config over _MAX_NAMED_CONFIG_BYTES is none of these (each candidate reads its siblings:
        # a dozen mkdocs-N.yml of 100 MB were read and parsed whole for every candidate, 22 s)
        if path.stat().st_size > _MAX_NAMED_CONFIG_BYTES:
            return False
        siblings = sorted(p for p in (*folder.glob("mkdocs*.yml"), *folder.glob("mkdocs*.yaml"))
                          if p.is_file() and p != path and p.stat().st_size <= _MAX_NAMED_CONFIG_BYTES)[:50]
        inherited = set()
        for sib in siblings:
            with sib.open("rb") as fh:
                m = _INHERIT_LINE.search(fh.read(200_000).decode("utf-8", errors="replace"))
            if m:
                inherited.add(posixpath.normpath(m.group(1).strip()))
        if path.name in inherited:
            return False
        config = read_mkdocs_yml(path, root=folder)
    except (OSError, ConfigError):
        return False
    if not isinstance(config.get("site_name"), str):
        return False
    if config.get("site_url"):
        return True
    for sib in siblings:  # a sibling leaf that names the deployed site is the one built
        if sib.name in inherited:
            continue
        try:
            other = read_mkdocs_yml(sib, root=folder)
        except ConfigError:
            continue
        if isinstance(other.get("site_name"), str) and other.get("site_url"):
            return False
    return True


def _expanded_size(value: Any, limit: int) -> int:
    """How many values ``value`` holds, aliases counted each time they are used; counting
    stops past ``limit``."""
    count, stack = 0, [value]
    while stack and count <= limit:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return count


def _extensions(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``markdown_extensions`` as ``{name: options}`` (the list mixes names and one-key dicts).

    Python-Markdown's own extensions may be named in full (``markdown.extensions.abbr``);
    they are keyed by their short name (``abbr``), as Python-Markdown treats both alike.
    A bundle loads its members (:data:`_BUNDLES`): ``extra`` gives ``attr_list``, ``abbr``, ...
    """
    out: dict[str, dict[str, Any]] = {}
    raw = config.get("markdown_extensions") or []
    items = raw.items() if isinstance(raw, dict) else ((i, None) for i in raw)
    for item, opts in items:
        pairs = item.items() if isinstance(item, dict) else [(item, opts)]
        for name, value in pairs:
            out[str(name).removeprefix("markdown.extensions.")] = value if isinstance(value, dict) else {}
    for bundle, members in _BUNDLES.items():
        if bundle in out:
            for member in members:
                out.setdefault(member, {})
    return out


#: extensions that load others: Python-Markdown's ``extra`` (markdown/extensions/extra.py) and
#: pymdown-extensions' ``pymdownx.extra`` (its "Extra" page: betterem and superfences in place of
#: fenced_code)
_BUNDLES = {
    "extra": ("fenced_code", "footnotes", "attr_list", "def_list", "tables", "abbr", "md_in_html"),
    "pymdownx.extra": ("pymdownx.betterem", "pymdownx.superfences", "footnotes", "attr_list", "def_list",
                       "tables", "abbr", "md_in_html"),
}


def _plugins(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``plugins`` as ``{name: options}`` (a list of names and one-key dicts, or a dict)."""
    raw = config.get("plugins") or []
    items = raw.items() if isinstance(raw, dict) else ((i, None) for i in raw if isinstance(raw, list))
    out: dict[str, dict[str, Any]] = {}
    for item, opts in items:
        pairs = item.items() if isinstance(item, dict) else [(item, opts)]
        for name, value in pairs:
            out[str(name)] = value if isinstance(value, dict) else {}
    return out


def _plugin_options(config: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The options of the plugin ``name`` (:func:`_plugins`); ``{}`` when it is named
    without options, ``None`` when absent."""
    return _plugins(config).get(name)


def i18n_languages(config: dict[str, Any]) -> tuple[str, tuple[str, ...], str] | None:
    """``(default locale, every configured locale, docs_structure)`` of the
    mkdocs-static-i18n plugin (``plugins: - i18n:``), ``None`` without it or
    without two languages.

    Follows the plugin's documentation: v1 ``languages`` is a list of
    ``{locale, default, build, name}`` with one ``default: true`` language
    (``build_only_locale`` makes that locale the default; the ``null`` locale is
    a language switcher link, never built); the older v0.x form is
    ``default_language`` with ``languages`` as a mapping of locale to name (or
    options). ``docs_structure`` is ``suffix`` (default: ``page.fr.md``) or
    ``folder`` (``docs/fr/page.md``). Never raises."""
    opts = _plugin_options(config, "i18n")
    if not opts:
        return None
    raw = opts.get("languages")
    locales: list[str] = []
    default = ""
    if isinstance(raw, list):  # v1
        for lang in raw:
            if not isinstance(lang, dict) or not lang.get("locale") or str(lang["locale"]) == "null":
                continue
            locales.append(str(lang["locale"]))
            if lang.get("default") is True and not default:
                default = str(lang["locale"])
    elif isinstance(raw, dict):  # v0.x: default_language + {locale: name}
        locales = [str(k) for k in raw if str(k) != "null"]
        default = str(opts.get("default_language") or "")
    only = opts.get("build_only_locale")
    if isinstance(only, str) and only in locales:
        default = only
    if not default:
        return None
    locales = list(dict.fromkeys([default, *locales]))
    structure = "folder" if str(opts.get("docs_structure") or "suffix") == "folder" else "suffix"
    return (default, tuple(locales), structure) if len(locales) > 1 else None


def _git_symlink_target(root: Path, rel: str) -> str | None:
    """The target of ``rel`` when it is a git symlink checked out as a text file."""
    path = root / rel
    try:
        if not path.is_file() or path.stat().st_size > 1024:
            return None
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text or "\n" in text or text.startswith("/"):
        return None
    target = join_rel(posixpath.dirname(rel), text)
    if target.startswith("..") or not (root / target).is_dir():
        return None
    return target


# a list item of a literate-nav file: "* [Title](page.md)" (also "-", "+", "1.")
_NAV_LINK = re.compile(r"^[ \t]*(?:[-*+]|\d+\.)[ \t]+\[([^\]\n]{1,300})\]\(<?([^)\s>]{1,500})>?[^)\n]{0,300}\)",
                       re.MULTILINE)


def _post_day(value: Any) -> datetime.date | None:
    """A blog post's ``date`` as a day: a YAML date or timestamp, or the ISO text of one
    (front matter is read with core tags only, so dates stay text)."""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def _nav_titles(nav: Any, *, depth: int = 0, out: dict[str, str] | None = None) -> dict[str, str]:
    """``{page path relative to docs_dir: title}`` of the ``nav`` entries that give a
    page a title (``- Title: page.md``, at any section depth; the first one wins, as
    MkDocs titles a page from its first nav entry); URLs and untitled entries left out.
    Bounded: 12 levels, 5,000 entries."""
    out = {} if out is None else out
    if depth > 12 or not isinstance(nav, list):
        return out
    for item in nav:
        if len(out) >= 5000:
            break
        if not isinstance(item, dict):
            continue
        for title, value in item.items():
            if isinstance(value, str) and not is_remote(value) and value.strip():
                out.setdefault(posixpath.normpath(value.strip().lstrip("/")), str(title))
            elif isinstance(value, list):
                _nav_titles(value, depth=depth + 1, out=out)
    return out


def _nav_pages(nav: Any, *, depth: int = 0, out: list[str] | None = None) -> list[str]:
    """Every local page path a ``nav`` lists (titled or not), relative to ``docs_dir``, in
    nav order. Bounded: 12 levels, 5,000 entries."""
    out = [] if out is None else out
    if depth > 12 or not isinstance(nav, list):
        return out
    for item in nav:
        if len(out) >= 5000:
            break
        values = list(item.values()) if isinstance(item, dict) else [item]
        for value in values:
            if isinstance(value, str) and value.strip() and not is_remote(value):
                out.append(posixpath.normpath(value.strip().lstrip("/")))
            elif isinstance(value, list):
                _nav_pages(value, depth=depth + 1, out=out)
    return out


def _gitignore_match(rel: str, pattern: str) -> bool:
    """A gitignore-style pattern (as ``exclude_docs`` uses) against a path relative to docs_dir."""
    pat = pattern.strip()
    if not pat or pat.startswith(("#", "!")):
        return False
    anchored = pat.startswith("/") or "/" in pat.rstrip("/")
    body = pat.strip("/") if anchored else "**/" + pat.strip("/")
    return glob_match(rel, body, or_below=True)  # the path, or a file below it


class MkDocsSite:
    """A MkDocs site rooted at ``config.root`` (see the module doc for the rules)."""

    def __init__(self, config: SiteConfig) -> None:
        self._config = config
        self._docs = config.content_dirs[0] if config.content_dirs else "docs"
        self._aliases = tuple(config.content_dirs)
        self._snippet_bases = tuple(p for p in config.settings.get("snippets.base_path", ".").split("\n") if p)
        # base_path entries that are files (found by name alone), looked up once, not per snippet
        self._snippet_base_files = frozenset(b for b in self._snippet_bases if checked_rel(config.root, b).rel_path
                                             and (config.root / b).is_file())  # (a name too long is no file)
        self._custom_dir = config.settings.get("theme.custom_dir", "")
        self._snippets: set[str] | None = None
        self._default_locale = config.settings.get("i18n.default_locale", "")
        self._locales = frozenset(x for x in config.settings.get("i18n.locales", "").split(";") if x)
        self._folder_structure = config.settings.get("i18n.docs_structure") == "folder"
        # the locale read when it is not the default (--language); "" otherwise
        self._locale = config.settings.get("i18n.locale", "")
        self._fallback = config.settings.get("i18n.fallback_to_default") != "false"
        self._macro_vars: dict[str, Any] | None = None
        self._nav_titles: dict[str, Any] | None = None

    @classmethod
    def load(cls, root: Path, config_file: str | None, *, variant: SiteVariant | None = None) -> MkDocsSite:
        """Read ``config_file`` (``mkdocs.yml`` relative to ``root``; ``None``: defaults).

        ``variant.language`` reads that locale of the mkdocs-static-i18n plugin
        instead of its default one (see :meth:`_translation`).

        Raises:
            ConfigError: the language is not a locale of the plugin, or the site
                has no such plugin (the message lists the locales it has).
        """
        root = root.resolve()
        site_dir = PurePosixPath(config_file).parent.as_posix() if config_file else "."
        problems: list[str] = []
        data = read_site_config(root / config_file, root=root, problems=problems) if config_file else {}
        docs_name = str(data.get("docs_dir") or "docs")
        if docs_name.startswith(_RELATIVE):  # docs_dir: !relative $config_dir/sub (a folder of mkdocs.yml's)
            own = docs_name.startswith(_RELATIVE + "$config_dir")
            docs_name = (_relative_path(docs_name, ".", "docs") if own else None) or "docs"
        docs = join_rel(site_dir, docs_name)
        settings: dict[str, str] = {"docs_dir": docs_name}
        aliases = [docs]
        real = (root / docs)
        if real.is_symlink() or real.is_dir():
            target = os.path.relpath(real.resolve(), root).replace(os.sep, "/")
            if not target.startswith("..") and target != docs:
                aliases.append(target)
        else:
            text_link = _git_symlink_target(root, docs)
            if text_link is not None:
                aliases = [text_link]
                settings["docs_dir_link"] = f"{docs} -> {text_link} (git symlink checked out as a file)"
        if data.get("use_directory_urls") is False:
            settings["use_directory_urls"] = "false"
        exclude_raw = data.get("exclude_docs") or ""
        exclude = [ln.strip() for ln in str(exclude_raw).splitlines() if ln.strip()]
        # MkDocs 1.6 draft_docs: served by `mkdocs serve`, never built by `mkdocs build`
        drafts = [ln.strip() for ln in str(data.get("draft_docs") or "").splitlines() if ln.strip()]
        if drafts:
            settings["draft_docs"] = "\n".join(drafts)
        site_url = str(data.get("site_url") or "")
        base = "/"
        m = re.match(r"^[a-z][a-z0-9+.-]*://[^/]+(/.*)?$", site_url)
        if m and m.group(1):
            base = "/" + m.group(1).strip("/") + "/" if m.group(1).strip("/") else "/"
        if m:
            settings["site_url"] = site_url
        exts = _extensions(data)
        snippets = exts.get("pymdownx.snippets", {})
        bases = snippets.get("base_path", ["."])
        bases = [bases] if isinstance(bases, str) else [str(b) for b in bases or ["."]]
        joined = (_relative_path(b, site_dir, docs) if b.startswith(_RELATIVE) else join_rel(site_dir, b)
                  for b in bases)
        # "!relative" alone is the page's own folder, which the snippet lookup tries after the bases
        settings["snippets.base_path"] = "\n".join(b for b in joined if b is not None)
        append = snippets.get("auto_append") or []
        append = [append] if isinstance(append, str) else [str(a) for a in append if a]
        if append:
            settings["snippets.auto_append"] = "\n".join(append)
        if snippets.get("dedent_subsections") is True:
            settings["snippets.dedent_subsections"] = "true"
        settings["markdown_extensions"] = " ".join(exts)
        marker = exts.get("toc", {}).get("marker", "[TOC]")  # toc is always on; "" turns the marker off
        settings["toc.marker"] = marker.strip() if isinstance(marker, str) else "[TOC]"
        caption = exts.get("pymdownx.blocks.caption")
        if caption is not None:  # its caption types (name -> numbered prefix) and auto numbering
            raw_types = caption.get("types")
            if isinstance(raw_types, list):
                named = {str(t["name"]): str(t.get("prefix") or "") for t in raw_types
                         if isinstance(t, dict) and t.get("name")}
                named.update({t: "" for t in raw_types if isinstance(t, str)})
                settings["caption.types"] = json.dumps(named)
            if caption.get("auto") is False:
                settings["caption.auto"] = "false"
        for ext_name, syntax in _INCLUDE_EXTENSIONS.items():
            if ext_name in exts:  # {!file!} includes: base_path is relative to where mkdocs runs (mkdocs.yml)
                inc_base = exts[ext_name].get("base_path", ".")
                settings["include.syntax"] = syntax
                settings["include.base_path"] = join_rel(site_dir, str(inc_base or "."))
                opts = exts[ext_name]
                offset = opts.get("headingOffset")
                if syntax == "markdown_include" and isinstance(offset, int) and offset > 0:
                    settings["include.heading_offset"] = str(min(offset, 6))  # 7 '#' are no heading already
                if syntax == "markdown_include" and opts.get("inheritHeadingDepth") is True:
                    settings["include.inherit_heading_depth"] = "true"
                break
        if "markdown_include_variants" in exts:  # {* file *}: the file relative to where mkdocs runs
            settings["include_variants.base_path"] = site_dir
        plugins = _plugins(data)
        settings["plugins"] = " ".join(plugins)
        for name in ("exclude", "excluder"):  # mkdocs-exclude (and its fork): glob / regex lists
            for kind in ("glob", "regex"):
                values = plugins.get(name, {}).get(kind) or []
                values = [values] if isinstance(values, str) else [str(v) for v in values if isinstance(v, str)]
                if values:
                    settings[f"exclude_plugin.{kind}"] = "\n".join(values)
        handlers = plugins.get("mkdocstrings", {}).get("handlers") or {}
        python = handlers.get("python") if isinstance(handlers, dict) else None
        if "mkdocstrings" in plugins:  # mkdocstrings-python: "paths" (default ["."]) from mkdocs.yml's folder
            python = python if isinstance(python, dict) else {}
            paths = python.get("paths") or ["."]
            paths = [paths] if isinstance(paths, str) else [str(p) for p in paths if isinstance(p, (str, int))]
            joined_paths = (_relative_path(p, site_dir, docs) if p.startswith(_RELATIVE) else join_rel(site_dir, p)
                            for p in paths)
            settings["mkdocstrings.paths"] = "\n".join(p for p in joined_paths if p is not None)
            options = python.get("options") if isinstance(python.get("options"), dict) else {}
            settings["mkdocstrings.options"] = json.dumps(options, default=str)
        if "mkdocs-jupyter" in plugins:  # mkdocs-jupyter: notebooks (and jupytext scripts) are pages
            opts = plugins["mkdocs-jupyter"]
            for key, default in (("include", ["*.py", "*.ipynb", "*.md"]), ("ignore", [])):
                value = opts.get(key, default)
                value = [value] if isinstance(value, str) else value if isinstance(value, list) else default
                settings[f"jupyter.{key}"] = "\n".join(str(v) for v in value[:200] if isinstance(v, str) and v)
            if opts.get("ignore_h1_titles") is True:
                settings["jupyter.ignore_h1_titles"] = "true"
            if opts.get("show_input") is False or opts.get("no_input") is True:
                settings["jupyter.hide_input"] = "true"
            tag_config = opts.get("remove_tag_config")
            for key in ("remove_cell_tags", "remove_input_tags", "remove_all_outputs_tags"):
                tags = tag_config.get(key) if isinstance(tag_config, dict) else None
                # mkdocs-jupyter passes only the first tag of each list on to nbconvert ({conf_value[0]})
                if isinstance(tags, list) and tags and isinstance(tags[0], str):
                    settings[f"jupyter.{key}"] = tags[0]
        blog = next((plugins[n] for n in ("material/blog", "blog") if n in plugins), None)
        if blog is not None and blog.get("enabled", True) is not False:
            # Material's blog plugin: posts are the pages under post_dir ("{blog}/posts", blog_dir "blog")
            blog_dir = posixpath.normpath(str(blog.get("blog_dir") or "blog"))
            post_dir = str(blog.get("post_dir") or "{blog}/posts").replace("{blog}", blog_dir)
            settings["blog.post_dir"] = posixpath.normpath(post_dir)
            if blog.get("draft") is True:
                settings["blog.draft"] = "true"
            if blog.get("draft_if_future_date") is True:
                settings["blog.draft_if_future_date"] = "true"
        if "mkdocs-video" in plugins:  # mkdocs-video: images whose alt text is "mark" are videos
            mark = plugins["mkdocs-video"].get("mark")
            settings["video.mark"] = mark.strip() if isinstance(mark, str) and mark.strip() else "type:video"
        if "include-markdown" in plugins:  # mkdocs-include-markdown-plugin: its option defaults
            settings["include_markdown.options"] = json.dumps(plugins["include-markdown"], default=str)
        for plugin in ("macros", "markdownextradata"):  # pages are Jinja2 templates
            if plugin in plugins:
                opts = plugins[plugin]
                settings["macros.plugin"] = plugin
                settings["macros.include_dir"] = join_rel(site_dir, str(opts.get("include_dir") or docs_name))
                yamls = opts.get("include_yaml") or []
                yamls = [yamls] if isinstance(yamls, (str, dict)) else yamls
                names = [str(v) for y in yamls for v in (y.values() if isinstance(y, dict) else [y])]
                settings["macros.include_yaml"] = "\n".join(join_rel(site_dir, n) for n in names)
                if plugin == "markdownextradata":  # its data folders: "a,b" from mkdocs.yml's folder, else _data
                    data_opt = opts.get("data")
                    folders = ([join_rel(site_dir, f.strip()) for f in data_opt.split(",") if f.strip()]
                               if isinstance(data_opt, str) and data_opt.strip()
                               else [join_rel(site_dir, "_data"), join_rel(docs, "_data")])
                    # each folder once, at most _MAX_DATA_FOLDERS (4,000 spellings of one folder were
                    # 4,000 walks of it: 29 s before the first page)
                    folders = list(dict.fromkeys(f for f in (_back_inside(root, f) for f in folders)
                                                 if not f.startswith("..")))
                    if len(folders) > _MAX_DATA_FOLDERS:
                        problems.append(f"markdownextradata: {len(folders)} data folders; "
                                        f"the first {_MAX_DATA_FOLDERS} read")
                        folders = folders[:_MAX_DATA_FOLDERS]
                    settings["markdownextradata.data"] = "\n".join(folders)
                if opts.get("render_by_default") is False:
                    settings["macros.render_by_default"] = "false"
                delims = {k: str(opts[f"j2_{k}_string"]) for k in _J2_DELIMITERS
                          if plugin == "macros" and isinstance(opts.get(f"j2_{k}_string"), str) and opts[f"j2_{k}_string"]}
                jinja_opts = opts.get("jinja_options") if plugin == "markdownextradata" else None
                if isinstance(jinja_opts, dict):  # markdownextradata: jinja2.Environment options
                    delims.update({k: str(jinja_opts[f"{k}_string"]) for k in _J2_DELIMITERS
                                   if isinstance(jinja_opts.get(f"{k}_string"), str) and jinja_opts[f"{k}_string"]})
                if delims:
                    settings["macros.delimiters"] = json.dumps(delims)
                break
        theme = data.get("theme") or {}
        custom_name = str(theme.get("custom_dir") or "") if isinstance(theme, dict) else ""
        custom = _relative_path(custom_name, site_dir, docs) if custom_name.startswith(_RELATIVE) \
            else join_rel(site_dir, custom_name)
        if isinstance(theme, dict) and custom_name and custom:
            if contained(custom, docs) and aliases[0] != docs:  # under a docs_dir that is a link
                custom = join_rel(aliases[0], custom[len(docs):].lstrip("/"))
            settings["theme.custom_dir"] = custom
            settings["theme"] = str(theme.get("name") or "")
        elif isinstance(theme, str):
            settings["theme"] = theme
        features = theme.get("features") if isinstance(theme, dict) else None
        if isinstance(features, list):  # Material's feature flags (content.code.annotate, ...)
            settings["theme.features"] = " ".join(str(f) for f in features if isinstance(f, str))
        nav_titles = _nav_titles(data.get("nav"))
        if nav_titles:
            settings["nav.titles"] = json.dumps(nav_titles)
        converted = [p for p in _nav_pages(data.get("nav")) if p.endswith(".md")
                     and not join_rel(docs, p).startswith("..")  # never a look outside the root
                     and not (root / join_rel(docs, p)).exists() and (root / join_rel(docs, p[:-3] + ".ipynb")).is_file()]
        if converted:  # nav pages a pre-build step writes from the notebook beside them
            settings["nav.converted_notebooks"] = "\n".join(p[:-3] + ".ipynb" for p in converted)
        if "literate-nav" in plugins:  # mkdocs-literate-nav: the nav is written in Markdown files
            settings["literate_nav.file"] = str(plugins["literate-nav"].get("nav_file") or "SUMMARY.md")
        if "awesome-pages" in plugins:  # mkdocs-awesome-pages-plugin: per-folder .pages files
            settings["awesome_pages.file"] = str(plugins["awesome-pages"].get("filename") or ".pages")
        i18n = i18n_languages(data)
        locale = ""
        if i18n is not None:
            settings["i18n.default_locale"], locales, settings["i18n.docs_structure"] = i18n
            settings["i18n.locales"] = ";".join(locales)
            locale = i18n[0]
            if plugins.get("i18n", {}).get("fallback_to_default") is False:
                settings["i18n.fallback_to_default"] = "false"
        wanted = variant.language if variant is not None else None
        if wanted is not None and wanted != locale:
            if i18n is None:
                raise ConfigError(f"language {wanted!r}: this MkDocs site has no languages to choose from "
                                  f"(no mkdocs-static-i18n plugin with two languages in {config_file or 'mkdocs.yml'})")
            if wanted not in i18n[1] or not re.fullmatch(r"[A-Za-z0-9_-]+", wanted):
                raise ConfigError(f"language {wanted!r} is not a locale of this MkDocs site; it has "
                                  f"{', '.join(i18n[1])} (plugins: i18n: languages in {config_file or 'mkdocs.yml'})")
            settings["i18n.locale"] = locale = wanted
        config = SiteConfig(generator="mkdocs", root=root, config_file=config_file,
                            content_dirs=tuple(aliases), exclude=tuple(exclude), base_url=base,
                            settings=settings, language=locale, notes=tuple(problems))
        return cls(config)

    @property
    def config(self) -> SiteConfig:
        return self._config

    @property
    def extensions(self) -> frozenset[str]:
        """Names of the configured ``markdown_extensions``."""
        return frozenset(self._config.settings.get("markdown_extensions", "").split())

    def untitled_page_title(self, rel: str) -> str | None:
        """The title MkDocs gives the page ``rel`` when it has no ``title`` front matter
        and no level-1 heading (``Page.title``; Material then shows it as the page's
        ``<h1>``): its ``nav`` title, "Home" for the home page (``index.md``/``README.md``
        at the top of ``docs_dir``), else the file name with ``-``/``_`` as spaces,
        capitalized when all lowercase (``first-source.md`` -> "First source")."""
        docs = self._docs_of(rel)
        if docs is None:
            return None
        inner = self._unlocalized(rel[len(docs) + 1:] if docs != "." else rel)
        if self._nav_titles is None:
            try:
                loaded = json.loads(self._config.settings.get("nav.titles") or "{}")
            except ValueError:
                loaded = {}
            self._nav_titles = loaded if isinstance(loaded, dict) else {}
            if self._config.settings.get("literate_nav.file"):
                for page, title in self._literate_nav_titles(docs).items():
                    self._nav_titles.setdefault(page, title)
            if self._config.settings.get("awesome_pages.file"):
                for page, title in self._awesome_pages_titles(docs).items():
                    self._nav_titles.setdefault(page, title)
        if isinstance(self._nav_titles.get(inner), str):
            return str(self._nav_titles[inner])
        stem = PurePosixPath(inner).stem
        if inner.lower() in ("index.md", "readme.md"):
            return "Home"
        name = "index" if stem == "README" else stem
        title = name.replace("-", " ").replace("_", " ")
        return title.capitalize() if title.lower() == title else title

    def _unlocalized(self, inner: str) -> str:
        """The page path ``inner`` (below docs_dir) without its locale: mkdocs-static-i18n
        serves ``x.fr.md`` (suffix structure) or ``fr/x.md`` (folder structure) as the
        page ``x.md`` of that language, the path its ``nav`` entry and file-name title
        use (``nav: [SOGo: guide/sogo.md]`` titles ``guide/sogo.en.md``). Unchanged
        without the plugin."""
        if not self._default_locale:
            return inner
        if self._folder_structure:
            top, _, rest = inner.partition("/")
            return rest if rest and top in self._locales else inner
        path = PurePosixPath(inner)
        stem, dot, locale = path.stem.rpartition(".")
        if dot and stem and (locale in self._locales or _LOCALE_FORM.fullmatch(locale)):
            return posixpath.join(posixpath.dirname(inner), stem + path.suffix)
        return inner

    def _nav_files(self, docs: str, name: str) -> tuple[Path, list[Path]]:
        """The ``docs_dir`` folder and the files called ``name`` under it (a nav plugin's
        per-folder files), sorted, at most 200; none when the folder cannot be read."""
        base = self._config.root / docs if docs != "." else self._config.root
        try:
            return base, sorted(p for _, p in zip(range(200), base.rglob(name), strict=False) if p.is_file())
        except OSError:
            return base, []

    def _literate_nav_titles(self, docs: str) -> dict[str, str]:
        """``{page path relative to docs_dir: title}`` from mkdocs-literate-nav's nav files
        (``nav_file``, default ``SUMMARY.md``, in ``docs_dir`` and its folders): each list
        item's link ``[Title](page.md)`` titles that page, its path relative to the nav
        file's folder (mkdocs_literate_nav/parser.py NavParser: the link text is the nav
        title). The first title of a page wins; at most 200 nav files and 5,000 links."""
        out: dict[str, str] = {}
        base, navs = self._nav_files(docs, self._config.settings.get("literate_nav.file", "SUMMARY.md"))
        for nav in sorted(navs, key=lambda p: (len(p.parts), p.as_posix())):
            folder = nav.parent.relative_to(base).as_posix()
            text = read_capped(self._config.root, nav.relative_to(self._config.root).as_posix()) or ""
            for m in _NAV_LINK.finditer(text):
                target = m.group(2).strip().split("#", 1)[0]
                if not target or is_remote(target) or len(out) >= 5_000:
                    continue
                page = posixpath.normpath(posixpath.join(folder if folder != "." else "", target.lstrip("/")))
                out.setdefault(page, m.group(1).strip())
        return out

    def _awesome_pages_titles(self, docs: str) -> dict[str, str]:
        """``{page path relative to docs_dir: title}`` from mkdocs-awesome-pages-plugin's
        ``.pages`` files (its ``filename``): a ``nav`` entry ``- Title: page.md`` (also inside
        a ``- Section: [...]`` list) titles that page, relative to the file's folder
        (mkdocs_awesome_pages_plugin meta.MetaNavItem.from_yaml, navigation._nav sets
        item.title). At most 200 files, 12 levels, 5,000 entries."""
        out: dict[str, str] = {}
        base, metas = self._nav_files(docs, self._config.settings.get("awesome_pages.file", ".pages"))
        for meta in metas:
            folder = meta.parent.relative_to(base).as_posix()
            try:
                data = load_yaml_safely(read_capped(self._config.root, meta.relative_to(self._config.root)
                                                    .as_posix()) or "", unknown_tags="null")
            except FrontMatterError:
                continue
            nav = data.get("nav") if isinstance(data, dict) else None
            for page, title in _nav_titles(nav).items():
                if len(out) < 5_000:
                    out.setdefault(posixpath.normpath(posixpath.join("" if folder == "." else folder, page)), title)
        return out

    # ---------------------------------------------------------------- files
    def _docs_of(self, rel: str) -> str | None:
        return next((d for d in self._aliases if contained(rel, d)), None)

    def snippet_files(self) -> set[str]:
        """Files pulled into some page by ``--8<--`` or a ``{!file!}`` include
        (relative to the root): includes, not pages of their own."""
        if self._snippets is None:
            found: set[str] = set()
            root = self._config.root
            syntax = self._config.settings.get("include.syntax", "")
            for docs in self._aliases:
                folder = root / docs
                if not folder.is_dir():
                    continue
                for path in folder.rglob("*.md"):
                    rel = path.relative_to(root).as_posix()
                    if path.is_symlink() and self._checked(rel).rel_path is None:
                        continue  # a link out of the root (the walk refuses that page): not read
                    try:
                        text = path.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    if "8<-" in text:
                        for target in snippet_targets(text):
                            res = self.resolve_include(target, page_rel=rel)
                            if res.rel_path:
                                found.add(res.rel_path)
                    if syntax and "{!" in text:
                        for target in include_targets(text, syntax):
                            res = self.resolve_markdown_include(target)
                            if res.rel_path:
                                found.add(res.rel_path)
            for name in filter(str.strip, self._config.settings.get("snippets.auto_append", "").split("\n")):
                appended = self.resolve_include(name, page_rel="")
                if appended.rel_path and (root / appended.rel_path).is_file():
                    found.add(appended.rel_path)  # appended to every page, not a page itself
            self._snippets = found
        return self._snippets

    def classify(self, rel: str) -> FileClass:
        suffix = PurePosixPath(rel).suffix.lower()
        is_md = suffix in (".md", ".markdown")
        if is_md and self.snippet_files() and rel in self.snippet_files():
            return FileClass(role=FileRole.INCLUDE, markup="pymdown", reason="snippet pulled in with --8<-- or {!file!}")
        docs = self._docs_of(rel)
        link = self._config.settings.get("docs_dir_link", "")
        if link and rel == link.split(" -> ", 1)[0]:
            return FileClass(role=FileRole.EXCLUDED, reason=f"docs_dir link: {link}")
        if docs is None:
            if is_md:
                return FileClass(role=FileRole.EXCLUDED, reason=f"outside docs_dir ({self._docs})")
            return asset_or_unknown(rel)
        inner = rel[len(docs) + 1:] if docs != "." else rel
        if self._custom_dir and contained(rel, self._custom_dir):
            return FileClass(role=FileRole.EXCLUDED, reason="theme custom_dir (templates, not pages)")
        if any(part.startswith(".") for part in inner.split("/")):
            return FileClass(role=FileRole.EXCLUDED, reason="dot file (MkDocs excludes it)")
        if inner.split("/", 1)[0] == "templates" and "/" in inner:
            return FileClass(role=FileRole.EXCLUDED, reason="under docs_dir/templates/ (MkDocs excludes it)")
        if any(_gitignore_match(inner, pat) for pat in self._config.exclude):
            return FileClass(role=FileRole.EXCLUDED, reason="excluded by exclude_docs")
        drafts = self._config.settings.get("draft_docs", "")
        if drafts and any(_gitignore_match(inner, pat) for pat in drafts.split("\n")):
            return FileClass(role=FileRole.EXCLUDED, reason="a draft (draft_docs): not built by mkdocs build")
        if self._plugin_excluded(inner):
            return FileClass(role=FileRole.EXCLUDED, reason="excluded by the exclude plugin (glob/regex)")
        if not is_md:
            notebook = self._notebook_markup(inner, suffix)
            if notebook:
                return FileClass(role=FileRole.PAGE, markup=notebook)
            if suffix in (".html", ".htm"):
                return FileClass(role=FileRole.EXCLUDED, reason="static HTML in docs_dir (copied as is)")
            return asset_or_unknown(rel)
        draft = self._blog_draft(rel, inner)
        if draft:
            return FileClass(role=FileRole.EXCLUDED, markup="pymdown", reason=draft)
        translation = self._translation(rel, inner)
        if translation:
            return FileClass(role=FileRole.EXCLUDED, markup="pymdown", reason=translation)
        if PurePosixPath(rel).name.lower() == "readme.md" and (self._config.root / rel).with_name("index.md").is_file():
            return FileClass(role=FileRole.EXCLUDED, reason="README.md beside index.md (MkDocs uses index.md)")
        return FileClass(role=FileRole.PAGE, markup="pymdown")

    def _blog_draft(self, rel: str, inner: str) -> str:
        """Why the Markdown file ``rel`` is a blog post Material's blog plugin leaves out
        of the build ("" when it is not): a page whose path (below ``docs_dir``) starts
        with ``post_dir`` is a post, and a post is left out as a draft unless the plugin
        sets ``draft: true``: its front matter ``draft: true``, or, with
        ``draft_if_future_date``, a ``date`` after today when ``draft`` is not set
        (material/plugins/blog/plugin.py ``_resolve_posts``, ``_is_excluded``)."""
        settings = self._config.settings
        post_dir = settings.get("blog.post_dir")
        if not post_dir or settings.get("blog.draft") == "true" or not inner.startswith(post_dir):
            return ""
        meta = self._front_matter(rel)
        draft = meta.get("draft")
        if draft is True:
            return "draft post (Material blog plugin: draft: true, built only with the plugin's draft option)"
        if not isinstance(draft, bool) and settings.get("blog.draft_if_future_date") == "true":
            created = meta.get("date")
            created = created.get("created") if isinstance(created, dict) else created
            day = _post_day(created)
            if isinstance(day, datetime.date) and day > datetime.date.today():
                return "future post (Material blog plugin: draft_if_future_date, dated after today)"
        return ""

    def _front_matter(self, rel: str) -> dict[str, Any]:
        """The front matter of ``rel`` (from its first 16 KiB; ``{}`` when unreadable)."""
        return read_front_matter(self._config.root / rel)

    def _notebook_markup(self, inner: str, suffix: str) -> str | None:
        """The markup of a notebook page of the mkdocs-jupyter plugin (its ``should_include``):
        a ``.ipynb`` (``"notebook"``) or ``.py`` (a jupytext script, ``"percent"``) file whose
        path matches an ``include`` pattern (default ``*.py``, ``*.ipynb``) and no ``ignore``
        one, matched as ``PurePath.match`` does (from the right: ``*.ipynb`` in any folder);
        ``None`` without the plugin or for other files. A notebook is also a page when the ``nav``
        lists a Markdown page of its name that is not in ``docs_dir`` (``x.md`` for ``x.ipynb``):
        a step run before the build writes that page from it (nbconvert or jupytext, as sites
        built by Zensical, which has no notebook plugin, do), so the built site has it."""
        settings = self._config.settings
        if suffix == ".ipynb" and inner in settings.get("nav.converted_notebooks", "").split("\n"):
            return "notebook"
        if "jupyter.include" not in settings or suffix not in (".ipynb", ".py"):
            return None
        path = PurePosixPath(inner)

        def matches(key: str) -> bool:
            for pattern in filter(None, settings.get(key, "").split("\n")):
                try:
                    if path.match(pattern):
                        return True
                except ValueError:  # an empty or malformed pattern matches nothing
                    continue
            return False

        if not matches("jupyter.include") or matches("jupyter.ignore"):
            return None
        return "notebook" if suffix == ".ipynb" else "percent"

    def notebook_title(self, rel: str) -> str | None:
        """The title of a notebook page when mkdocs-jupyter's ``ignore_h1_titles`` is on (the
        plugin then leaves ``Page.title`` to MkDocs: :meth:`untitled_page_title`); ``None``
        otherwise (its first level-1 heading titles it, as the plugin sets it)."""
        if self._config.settings.get("jupyter.ignore_h1_titles") != "true":
            return None
        return self.untitled_page_title(rel)

    def notebook_display(self) -> NotebookDisplay:
        """What mkdocs-jupyter shows of a notebook (its nbconvert settings): every cell and
        its code unless ``show_input: false``/``no_input: true``; cells removed by tag only
        with ``remove_tag_config`` (nbconvert's TagRemovePreprocessor), never by Jupyter
        Book's ``remove-*`` tags."""
        settings = self._config.settings

        def tags(key: str) -> frozenset[str]:
            return frozenset(filter(None, [settings.get(f"jupyter.{key}", "")]))

        return NotebookDisplay(remove_cell_tags=tags("remove_cell_tags"), remove_input_tags=tags("remove_input_tags"),
                               remove_output_tags=tags("remove_all_outputs_tags"),
                               show_input=settings.get("jupyter.hide_input") != "true")

    def _plugin_excluded(self, inner: str) -> bool:
        """mkdocs-exclude: the path relative to ``docs_dir`` matches a ``glob``
        (fnmatch: ``*`` crosses folders) or a ``regex`` (matched at its start)."""
        settings = self._config.settings
        globs = [g for g in settings.get("exclude_plugin.glob", "").split("\n") if g]
        if any(fnmatch.fnmatchcase(inner, g) for g in globs):
            return True
        for pattern in filter(None, settings.get("exclude_plugin.regex", "").split("\n")):
            if regex_problem(pattern) is None and re.match(pattern, inner):  # none that may backtrack unbounded
                return True
        return False

    def _translation(self, rel: str, inner: str) -> str:
        """Why the Markdown file ``rel`` (``inner`` below docs_dir) is not a page of the
        default language under the mkdocs-static-i18n plugin ("" when it is one):
        with the suffix structure, ``x.fr.md`` for a locale other than the default
        (a configured one, or any suffix of a locale's form, ``zh``, ``pt-BR``,
        ``en_US``, which the plugin also takes for a locale), and ``x.en.md`` (the default locale's suffix) beside ``x.md``,
        which the default language uses; with the folder structure, any file
        under another configured locale's folder (``fr/x.md``). With another
        locale chosen, :meth:`_chosen_translation` decides."""
        if not self._default_locale:
            return ""
        if self._locale:
            return self._chosen_translation(rel, inner)
        default = self._default_locale
        if self._folder_structure:
            top = inner.split("/", 1)[0]
            if "/" in inner and top in self._locales and top != default:
                return f"translation (locale {top}); default locale {default}"
            return ""
        stem, dot, locale = PurePosixPath(inner).stem.rpartition(".")
        if not dot or not stem or (locale not in self._locales and not _LOCALE_FORM.fullmatch(locale)):
            return ""
        if locale != default:
            known = "" if locale in self._locales else ", not a configured locale"
            return f"translation (locale {locale}{known}); default locale {default}"
        plain = stem + PurePosixPath(inner).suffix
        if self._readable(posixpath.join(posixpath.dirname(rel), plain)):
            return f"{plain} is the default locale's page ({default})"
        return ""

    def _chosen_translation(self, rel: str, inner: str) -> str:
        """Why ``rel`` is not a page of the chosen locale ("" when it is one), as
        mkdocs-static-i18n builds a language (``reconfigure_files``): each page
        (the path without its locale suffix or folder) is read from its file of
        that locale (``x.fr.md``; ``fr/x.md`` with the folder structure), else,
        with ``fallback_to_default`` (the default), from its default-locale file
        (``x.md``, or ``x.en.md`` when there is no ``x.md``; ``en/x.md`` or
        ``x.md``); the files of other locales are not read."""
        chosen, default = self._locale, self._default_locale
        docs = rel[: len(rel) - len(inner)]
        if self._folder_structure:
            top, _, rest = inner.partition("/")
            if rest and top == chosen:
                return ""
            if rest and top in self._locales and top != default:
                return f"translation (locale {top}); murar reads locale {chosen}"
            norm = rest if rest and top == default else inner
            translated = f"{chosen}/{norm}"
        else:
            path = PurePosixPath(inner)
            stem, dot, locale = path.stem.rpartition(".")
            if dot and stem and (locale in self._locales or _LOCALE_FORM.fullmatch(locale)):
                if locale == chosen:
                    return ""
                if locale != default:
                    known = "" if locale in self._locales else ", not a configured locale"
                    return f"translation (locale {locale}{known}); murar reads locale {chosen}"
                plain = stem + path.suffix
                if self._readable(posixpath.join(posixpath.dirname(rel), plain)):
                    return f"{plain} is the default locale's page ({default})"
            else:
                stem = path.stem
            translated = posixpath.join(posixpath.dirname(inner), f"{stem}.{chosen}{path.suffix}")
        if self._readable(docs + translated):
            return f"read from its translation {docs + translated} (locale {chosen})"
        if not self._fallback:
            return f"no translation in locale {chosen} (mkdocs-static-i18n fallback_to_default: false)"
        return ""

    # ---------------------------------------------------------------- links
    def _checked(self, rel: str) -> ResolvedLink:
        return checked_rel(self._config.root, rel)

    def _readable(self, rel: str) -> bool:
        """True when ``rel`` is a file murar reads: a page's translation (or its
        default-locale twin) that is a symbolic link out of the root is not read by
        the walker, so it does not stand in for the page (the page was lost)."""
        return (self._config.root / rel).is_file() and not self._checked(rel).problem

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        target = link.strip().strip("<>").strip()
        if not target:
            return ResolvedLink(problem="empty link")
        if is_remote(target):
            if target.lower().startswith("data:"):
                return ResolvedLink(problem="inline data URI image ignored")
            own = self._own_file(target, page_rel=page_rel)
            return own if own is not None else ResolvedLink(url=target)
        from urllib.parse import unquote

        path = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not path:
            return ResolvedLink(problem="link without a path")
        if path.startswith("/"):
            base = self._config.base_url
            inner = path[len(base):] if base != "/" and path.startswith(base) else path.lstrip("/")
            docs = self._docs_of(page_rel) or self._aliases[0]
            return self._localized(self._checked(join_rel(docs, inner)))
        res = self._localized(self._checked(join_rel(posixpath.dirname(page_rel), path)))
        if res.rel_path is None or (self._config.root / res.rel_path).exists():
            return res
        url_dir = self._url_folder(page_rel)
        if url_dir is not None:
            alt = self._localized(self._checked(join_rel(url_dir, path)))
            if alt.rel_path and self._docs_of(alt.rel_path) and (self._config.root / alt.rel_path).exists():
                return alt
        return res

    def _own_file(self, url: str, *, page_rel: str) -> ResolvedLink | None:
        """The ``docs_dir`` file an absolute URL on the site's own ``site_url`` names
        (``https://docs.example.org/img/x.png`` with ``site_url: https://docs.example.org/``):
        MkDocs copies every file of ``docs_dir`` to the same path under the site, so the
        picture the browser loads from there is that file. ``None`` (the URL stays remote)
        for another host, a path outside ``site_url``'s, or no such file in ``docs_dir``."""
        from urllib.parse import unquote, urlsplit

        site_url = self._config.settings.get("site_url", "")
        if not site_url:
            return None
        try:  # a malformed site_url or URL ('https://[docs.example.org/') stays a remote URL
            mine, other = urlsplit(site_url), urlsplit(url)
        except ValueError:
            return None
        if other.scheme.lower() not in ("http", "https") or not other.netloc \
                or other.netloc.lower() != mine.netloc.lower():
            return None
        path = unquote(other.path)
        base = self._config.base_url
        if not path.startswith(base):
            return None
        docs = self._docs_of(page_rel) or self._aliases[0]
        res = self._localized(self._checked(join_rel(docs, path[len(base):])))
        return res if res.rel_path and (self._config.root / res.rel_path).is_file() else None

    def _url_folder(self, page_rel: str) -> str | None:
        """The folder a browser resolves the page's relative links against when it is
        not the page's own folder: with ``use_directory_urls`` (the default) a page
        ``a/b.md`` is written as ``a/b/index.html`` and served at ``a/b/`` (MkDocs
        "Configuration": use_directory_urls), so a link MkDocs does not rewrite (an
        ``<img src>`` in raw HTML, which Python-Markdown stashes untouched, or a
        Markdown link whose file does not exist, left as written with a warning) is
        relative to ``a/b/``. ``None`` for ``index.md``/``README.md`` pages (served
        at their own folder) and with ``use_directory_urls: false``."""
        if self._config.settings.get("use_directory_urls") == "false":
            return None
        stem, suffix = posixpath.splitext(page_rel)
        if suffix.lower() not in (".md", ".markdown") or posixpath.basename(stem).lower() in ("index", "readme"):
            return None
        return stem

    def _localized(self, res: ResolvedLink) -> ResolvedLink:
        """The locale's file for a resolved link (``res`` itself without the
        plugin, or when none of the candidates exists), as
        mkdocs-static-i18n's ``I18nFiles.get_file_from_path`` finds a linked
        file for the language being built: suffix structure ``img.fr.png``, then
        ``img.en.png`` (default locale), then ``img.png``; folder structure
        ``fr/img.png``, then ``en/img.png`` (with ``fallback_to_default``), then
        ``img.png`` (a link already under a locale folder is tried there first).
        The default locale's build looks up ``img.en.png`` before ``img.png`` alike."""
        if not self._default_locale or res.rel_path is None:
            return res
        docs = self._docs_of(res.rel_path)
        if docs is None:
            return res
        inner = res.rel_path[len(docs) + 1:] if docs != "." else res.rel_path
        chosen, default = self._locale or self._default_locale, self._default_locale
        cands: list[str] = []
        if self._folder_structure:
            top, _, rest = inner.partition("/")
            if rest and top in (chosen, default):
                other = default if top == chosen else chosen
                cands = [inner, *([f"{other}/{rest}"] if self._fallback and other != top else []), rest]
            else:
                cands = [f"{chosen}/{inner}", *([f"{default}/{inner}"] if self._fallback and chosen != default else []),
                         inner]
        else:
            path = PurePosixPath(inner)
            if path.suffix:
                cands = [str(path.with_suffix(f".{chosen}{path.suffix}")),
                         str(path.with_suffix(f".{default}{path.suffix}")), inner]
        for cand in cands:
            found = self._checked(join_rel(docs, cand))
            if found.rel_path and (self._config.root / found.rel_path).is_file():
                return found
        return res

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        name = target.strip()
        tried: ResolvedLink | None = None
        for base in (*self._snippet_bases, posixpath.dirname(page_rel)):
            if base in self._snippet_base_files:
                # a file in base_path is found by its name alone (pymdownx.snippets)
                if posixpath.basename(base) == name:
                    return self._checked(base)
                continue
            res = self._checked(join_rel(base, name))
            if res.rel_path and (self._config.root / res.rel_path).is_file():
                return res
            tried = tried or res
        return tried or ResolvedLink(problem=f"snippet not found: {name}")

    def resolve_python_object(self, identifier: str) -> tuple[str, list[str]] | None:
        """The source file of the module holding ``identifier`` (``pkg.mod.Class.method``)
        and the attribute path below it, as mkdocstrings-python finds it statically:
        the longest module prefix found as ``a/b.py`` or ``a/b/__init__.py`` under the
        handler's ``paths`` (relative to ``mkdocs.yml``'s folder, default ``.``), then
        under the root and its ``src`` folder (where the package griffe would find
        installed usually lives). None when not found inside the root, or for a name of more
        than 30 parts (each prefix is a file-system lookup: 2,000 parts took 20 s). Never raises."""
        parts = [p for p in identifier.strip().split(".") if p]
        if not parts or len(parts) > 30 or not all(p.isidentifier() for p in parts):
            return None
        bases = [b for b in self._config.settings.get("mkdocstrings.paths", ".").split("\n") if b]
        for base in dict.fromkeys([*bases, ".", "src"]):
            for cut in range(len(parts), 0, -1):
                stem = join_rel(base, "/".join(parts[:cut]))
                for rel in (f"{stem}.py", f"{stem}/__init__.py"):
                    res = self._checked(rel)
                    if res.rel_path and (self._config.root / res.rel_path).is_file():
                        return res.rel_path, parts[cut:]
        return None

    def resolve_markdown_include(self, target: str) -> ResolvedLink:
        """The file a ``{!target!}`` include (mdx_include, markdown-include) names:
        ``target`` relative to the extension's ``base_path`` (itself relative to
        the folder of ``mkdocs.yml``, where ``mkdocs`` runs), as those extensions
        resolve it. A problem when no such extension is configured or the path
        leaves the root; the file need not exist. Never raises."""
        return self._include_under("include.base_path", target, "no {!file!} include extension configured")

    def resolve_variants_include(self, target: str) -> ResolvedLink:
        """The file a ``{* target *}`` line (markdown-include-variants) names: ``target``
        relative to the folder of ``mkdocs.yml`` (where ``mkdocs`` runs; the extension opens
        ``Path(target)``). A problem when the extension is not configured or the path leaves
        the root; the file need not exist. Never raises."""
        return self._include_under("include_variants.base_path", target,
                                   "markdown_include_variants is not configured")

    def _include_under(self, setting: str, target: str, unconfigured: str) -> ResolvedLink:
        """``target`` joined to the base folder the site setting ``setting`` holds: the
        problem ``unconfigured`` without that setting, a problem when the path leaves the root."""
        base = self._config.settings.get(setting)
        if base is None:
            return ResolvedLink(problem=unconfigured)
        joined = join_rel(base, target.strip())
        if joined.startswith(".."):
            return ResolvedLink(problem=f"include escapes the corpus root: {target.strip()}")
        return self._checked(joined)

    def _macro_variables(self) -> dict[str, Any]:
        """The Jinja2 names every page sees (mkdocs-macros ``on_config``): ``config``
        (the whole ``mkdocs.yml``), ``extra`` and each ``extra`` key at the top,
        then the ``include_yaml`` files' keys. markdownextradata renders with every
        ``mkdocs.yml`` key at the top too (``{**config, **extra}``: ``{{ site_name }}``),
        its data files (:meth:`_extradata`) added to ``extra``."""
        if self._macro_vars is None:
            cfg = self._config
            data = read_site_config(cfg.root / cfg.config_file, root=cfg.root) if cfg.config_file else {}
            extra = data.get("extra") if isinstance(data.get("extra"), dict) else {}
            assert isinstance(extra, dict)
            top = data if cfg.settings.get("macros.plugin") == "markdownextradata" else {}
            variables: dict[str, Any] = {**top, "config": data, "extra": extra}
            for rel in filter(None, cfg.settings.get("macros.include_yaml", "").split("\n")):
                res = self._checked(rel)
                try:
                    loaded = load_yaml_safely((cfg.root / (res.rel_path or rel)).read_text(encoding="utf-8"),
                                              unknown_tags="null") if res.rel_path else None
                except (OSError, UnicodeDecodeError, FrontMatterError):
                    loaded = None
                if isinstance(loaded, dict):
                    variables.update(loaded)
            extra = {**extra, **self._extradata()}
            variables.update(extra)
            variables["extra"] = extra
            self._macro_vars = variables
        return self._macro_vars

    def _extradata(self) -> dict[str, Any]:
        """The data files of the markdownextradata plugin (markdownextradata/plugin.py
        ``on_pre_build``): every ``.yaml``, ``.yml`` and ``.json`` file under its data
        folders (the ``data`` option, comma-separated and relative to the folder of
        ``mkdocs.yml``; without it ``_data`` beside ``mkdocs.yml`` and in ``docs_dir``),
        named by its path in the folder without the suffix, a subfolder a nested name
        (``data/sponsors.yml`` -> ``sponsors``, ``data/team/core.yml`` -> ``team.core``).
        At most :data:`_MAX_DATA_FILES` files; one that is no mapping or list, or unreadable, is skipped."""
        out: dict[str, Any] = {}
        root = self._config.root
        read = 0
        for folder in filter(None, self._config.settings.get("markdownextradata.data", "").split("\n")):
            base = self._checked(folder).rel_path
            if base is None or not (root / base).is_dir():
                continue
            files = sorted(p for p in (root / base).rglob("*") if p.suffix.lower() in (".yaml", ".yml", ".json"))
            for path in files:
                if read >= _MAX_DATA_FILES:
                    return out
                read += 1
                rel = path.relative_to(root).as_posix()
                text = read_capped(root, rel)
                try:
                    loaded = (json.loads(text) if path.suffix.lower() == ".json"
                              else load_yaml_safely(text, unknown_tags="null")) if text is not None else None
                except (ValueError, FrontMatterError, RecursionError):
                    loaded = None
                if not isinstance(loaded, (dict, list)):
                    continue
                names = PurePosixPath(rel[len(base) + 1:]).with_suffix("").parts
                holder = out
                for name in names[:-1]:
                    nested = holder.get(name)
                    holder[name] = nested = nested if isinstance(nested, dict) else {}
                    holder = nested
                holder[names[-1]] = loaded
        return out

    def _macro_include(self, name: str) -> str | None:
        res = self._checked(join_rel(self._config.settings.get("macros.include_dir", self._docs), name))
        path = self._config.root / res.rel_path if res.rel_path else None
        try:
            return read_include(path, label=f"macros include {res.rel_path}") if path and path.is_file() else None
        except OSError:
            return None

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """With the macros (mkdocs-macros) or markdownextradata plugin, the page
        body is a Jinja2 template: it is rendered by :func:`murar.ingest.sites._jinja.render`
        with the ``mkdocs.yml`` variables (:meth:`_macro_variables`) and the page's
        front matter keys (``page.meta`` too); ``{% include %}`` reads from the
        plugin's ``include_dir`` (default ``docs_dir``). A page whose front matter
        says ``ignore_macros: true`` (or, with ``render_by_default: false``, does
        not say ``render_macros: true``) is left as written. With the
        include-markdown plugin, its ``{% include-markdown %}``/``{% include %}``
        directives are expanded (:mod:`murar.ingest.sites._include_markdown`);
        the plugins run in the order ``mkdocs.yml`` lists them, as MkDocs runs
        their ``on_page_markdown``. Snippets and Python-Markdown extensions are
        the ``pymdown`` markup's (:mod:`murar.ingest.markup.pymdown`)."""
        settings = self._config.settings
        plugins = settings.get("plugins", "").split()
        for plugin in plugins:  # the plugins' on_page_markdown, in the order mkdocs.yml lists them
            if plugin == "include-markdown" and "include_markdown.options" in settings:
                text = self._include_markdown(text, page_rel=page_rel, warnings=warnings)
            elif plugin == settings.get("macros.plugin"):
                text = self._macros(text, warnings)
        return text

    def _include_markdown(self, text: str, *, page_rel: str, warnings: list[str] | None) -> str:
        """The mkdocs-include-markdown-plugin directives of the page body expanded
        (:mod:`murar.ingest.sites._include_markdown`); the front matter is left alone."""
        try:
            raw = json.loads(self._config.settings["include_markdown.options"])
        except ValueError:
            raw = {}
        options = _include_markdown.options_from_config(raw if isinstance(raw, dict) else {})
        if options.opening_tag not in text:
            return text
        fm = parse_front_matter(text)
        head = text[: len(text) - len(fm.body)] if fm.body and text.endswith(fm.body) else ""
        docs = self._docs_of(page_rel) or self._aliases[0]
        body = _include_markdown.expand_page(text[len(head):], root=self._config.root, docs_dir=docs,
                                             page_rel=page_rel, options=options,
                                             warnings=warnings if warnings is not None else [])
        return head + body

    def _macros(self, text: str, warnings: list[str] | None = None) -> str:
        settings = self._config.settings
        # mkdocs-macros "Advanced usage": j2_block_start_string ... j2_comment_end_string
        delims = _jinja.Delimiters(**json.loads(settings.get("macros.delimiters") or "{}"))
        if not delims.in_text(text):
            return text
        fm = parse_front_matter(text)
        if fm.meta.get("ignore_macros") is True:
            return text
        if settings.get("macros.render_by_default") == "false" and fm.meta.get("render_macros") is not True:
            return text
        head = text[: len(text) - len(fm.body)] if fm.body and text.endswith(fm.body) else ""
        variables = {**self._macro_variables(), **fm.meta, "page": {"meta": fm.meta, "title": fm.meta.get("title")}}
        return head + _jinja.render(text[len(head):], variables, include=self._macro_include, warnings=warnings,
                                    delimiters=delims)


def snippet_targets(text: str) -> list[str]:
    """File names pulled in by ``--8<--`` in ``text`` (line form and block form),
    without line-range/section suffixes."""
    out: list[str] = []
    in_block = False
    for line in text.splitlines():
        if _SNIPPET_FENCE.match(line):
            in_block = not in_block
            continue
        if in_block:
            name = line.strip()
            if name and not name.startswith(";"):
                out.append(_strip_range(name))
            continue
        m = _SNIPPET_LINE.match(line)
        if m:
            out.append(_strip_range(m.group(2)))
    return out


def _strip_range(name: str) -> str:
    """``file.md:3:9`` / ``file.md:section`` -> ``file.md``."""
    m = re.match(r"^(.*?\.[A-Za-z0-9]+)(?::[^/]*)?$", name)
    return m.group(1) if m else name


def load(root: Path, config_file: str | None = None, *, variant: SiteVariant | None = None) -> MkDocsSite:
    """Registry factory: :meth:`MkDocsSite.load`."""
    return MkDocsSite.load(root, config_file, variant=variant)
