"""Antora: component versions, modules, families and resource IDs.

Antora (https://docs.antora.org/antora/latest/) builds sites from *component
versions*: a folder holding ``antora.yml`` (``name``, ``version``,
``asciidoc.attributes``) and ``modules/<module>/`` folders whose *families*
are ``pages/`` (published pages), ``partials/`` and ``examples/`` (include
only), ``images/`` and ``attachments/`` (assets; ``assets/images/`` and
``assets/attachments/`` are the older layout and still accepted). Rules used:

- a ``.adoc`` file in ``pages/`` is a page, unless its name or a folder under
  ``pages/`` starts with ``_`` (Antora's hidden files, kept as includes); a page
  that another page includes is both (Antora publishes every file of the pages
  family, "Pages" in the Antora docs);
- an image target is a *resource ID* ``[version@][component:][module:][family$]path``
  resolved against the image family of the given (default: current) module of
  the given (default: current) component; a URL stays remote;
- an include target is a resource ID whose family is ``partial$``,
  ``example$``, ``page$`` (or ``image$``/``attachment$``), or a path relative
  to the including file;
- ``nav.adoc`` files are navigation, not pages;
- an ``antora.yml`` inside a component version's ``modules/`` folder is a file of
  that version (an example), not a component descriptor: Antora reads descriptors
  at a content source's start path only;
- when the playbook has a local content source (``url: .``, a path in the root), only
  the descriptors at its sources' ``start_path``/``start_paths`` (default: the source's
  root) are components; one elsewhere (a test fixture's ``antora.yml``) and its files
  are skipped with a reason naming the start paths;
- several versions of one component (``antora.yml`` files with the same
  ``name``): only the latest is read, the one Antora shows by default ("How
  Component Versions are Sorted": unversioned, then named versions, then semantic
  versions from the highest; the first that is not a ``prerelease``); the pages of
  the others are skipped with a reason naming their version. ``--docs-version X``
  (:class:`~murar.ingest.sites.base.SiteVariant`) reads version ``X`` of every
  component that has it and the latest of the others (a site aggregates
  components versioned apart: each keeps its own version list, "Component
  Version"). A resource ID with a
  version (``2.0@comp:page.adoc``) names that version; without one it is the
  current version in the current component and the latest version of another.

AsciiDoc attributes of a page (docs.antora.org, "AsciiDoc Configuration",
"Intrinsic Attributes"): Antora's defaults (``icons=font``, which the next two may
change), the playbook's ``asciidoc.attributes`` (site-wide;
``site.title``/``site.url`` as ``site-title``/``site-url``), then the component
descriptor's (a playbook attribute set without a trailing ``@`` is hard set and
wins); a value may reference attributes defined before it (``'{base}.1'``); a
value of ``false`` or ``~`` unsets. Antora's intrinsic attributes come last and
override both: ``env=site``, ``env-site``, ``site-gen=antora``,
``site-gen-antora``, ``partialsdir=partial$``, ``examplesdir=example$`` (so
``include::{partialsdir}/x.adoc[]`` is the partial ``x.adoc``) and the page
attributes (``page-component-name``, ``page-module``, ...).

``antora-playbook.yml`` (or the playbook file the site was opened with, else
the playbook a ``package.json`` script runs the CLI with: ``antora preview.yml``;
a playbook may have any name) and ``antora.yml`` are read as data (YAML, no tags).
"""

from __future__ import annotations

import json
import re
import stat
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Any

from murar.errors import ConfigError
from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.paths import ResolvedLink, inside_root, resolve_link
from murar.ingest.sites._common import os_walk_files, scan_include_targets
from murar.ingest.sites.base import (
    FileClass,
    FileRole,
    SiteConfig,
    SiteVariant,
    asset_or_unknown,
)

__all__ = ["AntoraComponent", "AntoraSite", "latest_versions", "parse_resource_id"]

_ADOC = (".adoc", ".asciidoc", ".asc")
_FAMILY_DIRS = {
    "image": ("images", "assets/images"),
    "attachment": ("attachments", "assets/attachments"),
    "partial": ("partials", "pages/_partials"),
    "example": ("examples", "pages/_examples"),
    "page": ("pages",),
}
_INCLUDE_RE = re.compile(r"^include::([^\[\n]+)\[", re.MULTILINE)
_RESOURCE_ID = re.compile(
    r"^(?:(?P<version>[^@:$/]+)@)?(?:(?P<component>[^@:$/]+):)?(?:(?P<module>[^@:$/]+):)?"
    r"(?:(?P<family>[a-z]+)\$)?(?P<path>.+)$")
# a URL, not a resource ID (``ROOT:shot.png`` also looks like "scheme:path")
_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|//|data:|mailto:|javascript:)", re.IGNORECASE)
# a verbatim or comment block's delimiter line, and an imagesdir attribute entry (set or unset)
_BLOCK_DELIM = re.compile(r"^(-{4,}|\.{4,}|\+{4,}|/{4,}|`{3,})[ \t]*$")
_IMAGESDIR_ENTRY = re.compile(r"^:imagesdir!?:(?:[ \t].*)?$")
_SKIP_DIRS = {"node_modules", "build", "public", ".git", "_site"}
# Antora's intrinsic environment and family attributes (docs.antora.org, "Intrinsic Attributes";
# @antora/asciidoc-loader sets partialsdir/examplesdir to the family tokens)
_INTRINSIC = {"env": "site", "env-site": "", "site-gen": "antora", "site-gen-antora": "",
              "partialsdir": "partial$", "examplesdir": "example$"}
# the attributes @antora/asciidoc-loader sets by default, which a playbook or component may change
# (icons: font, so a callout shows its icon in place of the line comment guarding it)
_DEFAULTS = {"icons": "font"}


@dataclass(frozen=True, slots=True)
class ResourceId:
    """The parts of an Antora resource ID (``None`` where the ID omits them)."""

    component: str | None
    module: str | None
    family: str | None
    path: str
    version: str | None = None


def parse_resource_id(target: str) -> ResourceId:
    """Split ``[version@][component:][module:][family$]path``."""
    target = target.strip()
    if "::" in target.split("$", 1)[0]:  # component::path is the component's ROOT module
        target = target.replace("::", ":ROOT:", 1)
    m = _RESOURCE_ID.match(target)
    if not m:
        return ResourceId(None, None, None, target.strip())
    comp, mod = m.group("component"), m.group("module")
    if comp is not None and mod is None:  # one coordinate is the module
        comp, mod = None, comp
    return ResourceId(comp, mod, m.group("family"), m.group("path"), m.group("version"))


@dataclass(frozen=True, slots=True, kw_only=True)
class AntoraComponent:
    """One component version: ``dir`` relative to the site root (posix, ``""``
    for the root), its ``name``, and the AsciiDoc attributes of ``antora.yml``."""

    name: str
    dir: str
    attributes: dict[str, str] = field(default_factory=dict)
    title: str = ""
    version: str = ""
    display_version: str = ""
    prerelease: bool = False


_ATTR_REF = re.compile(r"(?<!\\)\{([\w][\w-]*)\}")
_PLAYBOOK_NAMES = ("antora-playbook.yml", "antora-playbook.yaml")
# a shell command's separators, and a word naming a YAML file
_SHELL_SEP = re.compile(r"&&|\|\||[;&|()]")
_YAML_WORD = re.compile(r"^[^-=][^=]*\.ya?ml$")


def _npm_playbooks(root: Path, warnings: list[str] | None = None) -> list[str]:
    """The playbook files the scripts of ``package.json`` at ``root`` run Antora
    with, in script order: the first ``.yml``/``.yaml`` word after ``antora`` in a
    command (Antora's playbook may have any name; the CLI takes it as its
    argument: ``antora --fetch preview.yml``, ``npx antora antora-playbook.yml``).
    A ``package.json`` that is not a regular file inside ``root`` (a symbolic link
    out of it, to ``/dev/zero``; a named pipe) is not opened, one nested deeper than
    the JSON parser goes is not read (both warned in ``warnings``); at most
    1,000,000 characters are read. Never raises."""
    path = root / "package.json"
    try:
        if not path.exists():
            return []
        if not _inside(root, "package.json") or not stat.S_ISREG(path.stat().st_mode):
            if warnings is not None:
                warnings.append("package.json: not a regular file inside the site; its scripts are not read")
            return []
        with path.open("rb") as fh:  # (a char is at most 4 bytes: the 1,000,000 characters read before)
            data = json.loads(fh.read(4_000_000).decode("utf-8", errors="replace")[:1_000_000])
    except RecursionError:
        if warnings is not None:
            warnings.append("package.json: nested too deep to read; its scripts are not read")
        return []
    except (OSError, ValueError):
        return []
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return []
    found: list[str] = []
    for command in scripts.values():
        if not isinstance(command, str):
            continue
        for part in _SHELL_SEP.split(command):
            words = [w.strip("\"'") for w in part.split()]
            at = next((i for i, w in enumerate(words) if w == "antora" or w.endswith("/antora")), None)
            if at is None:
                continue
            name = next((w for w in words[at + 1:] if _YAML_WORD.match(w)), None)
            if name and name not in found:
                found.append(name)
    return found


_BRACE = re.compile(r"\{([^{}]*)\}")
_MAX_START_PATH_CHARS = 10_000
# start path patterns (braces expanded, exclusions too) read from one playbook: each is tested
# against each component folder, so a playbook of thousands is cut here, with a warning
_MAX_START_PATTERNS = 512


def _csv(text: str) -> list[str]:
    """A comma-separated list, commas inside ``{...}`` kept (``docs, {api,cli}/docs``)."""
    parts, depth, cur = [], 0, ""
    for ch in text[:10_000]:
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth <= 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [*parts, cur]


def _braces(pattern: str, limit: int = 64) -> list[str]:
    """``pattern`` with its ``{a,b}`` alternatives expanded (as Antora's start path globs), at most
    ``limit`` patterns; an unclosed brace is kept as written. Expanded with a stack, not by
    recursion, within a bounded number of steps (thousands of braces in a row or nested
    thousands deep are no RecursionError), a pattern over 10,000 characters not at all."""
    if len(pattern) > _MAX_START_PATH_CHARS:
        return [pattern]
    out: list[str] = []
    stack = [pattern]
    for _ in range(limit * 64):
        if not stack or len(out) >= limit:
            break
        cur = stack.pop()
        m = _BRACE.search(cur)
        if m is None or "," not in m.group(1):
            out.append(cur)
            continue
        # (pushed in reverse: the first alternative's patterns come first, as written)
        stack.extend(reversed([cur[:m.start()] + alt + cur[m.end():] for alt in m.group(1).split(",")[:limit]]))
    return out[:limit]


def _inside(root: Path, rel: str) -> bool:
    """``rel`` names a file under ``root`` (no ``..`` out of it, no absolute path, no link out)."""
    return inside_root(root / rel, root).rel_path is not None


def _read_yaml(path: Path, warnings: list[str], what: str) -> dict[str, Any]:
    try:
        data: Any = load_yaml_safely(path.read_text(encoding="utf-8", errors="replace"), unknown_tags="null")
    except (OSError, FrontMatterError) as err:
        warnings.append(f"{path.name}: cannot read ({err}); {what}")
        return {}
    return data if isinstance(data, dict) else {}


def _merge_attributes(raw: Any, into: dict[str, str], *, hard: set[str] | None = None) -> None:
    """Add the ``asciidoc.attributes`` map ``raw`` of a playbook or component
    descriptor to ``into``, in order, as Antora does.

    A value may reference attributes already in ``into`` (``'{base}.1'``);
    references to unknown ones are kept as written. ``false`` or ``~`` unset
    the attribute; a trailing ``@`` on the name or value marks a soft set.
    Names in ``hard`` (attributes a playbook set without ``@``) are not
    changed. When ``hard`` is given, the names this map hard-sets are added to
    it. ``raw`` that is not a mapping is ignored.
    """
    if not isinstance(raw, dict):
        return
    for key, value in raw.items():
        name = str(key)
        soft = name.endswith("@") or (isinstance(value, str) and value.endswith("@"))
        name = name.rstrip("@")
        if not name or (hard is not None and name in hard and name in into):
            continue
        if value is False or value is None:
            into.pop(name, None)
            continue
        text = "" if value is True else value.rstrip("@") if isinstance(value, str) else str(value)
        into[name] = _ATTR_REF.sub(lambda m: into.get(m.group(1), m.group(0)), text)
        if hard is not None and not soft:
            hard.add(name)


def _read_component(path: Path, rel_dir: str, warnings: list[str],
                    site_attrs: dict[str, str] | None = None, hard: frozenset[str] = frozenset()) -> AntoraComponent:
    data = _read_yaml(path, warnings, "folder name used as component name")
    name = str(data.get("name") or PurePosixPath(rel_dir or ".").name or "ROOT")
    attrs: dict[str, str] = dict(site_attrs or {})
    asciidoc = data.get("asciidoc")
    _merge_attributes(asciidoc.get("attributes") if isinstance(asciidoc, dict) else None, attrs, hard=set(hard))
    # version: true (Antora 3) takes the git branch or tag name, unknown here; ~ or false: versionless
    raw_version = data.get("version")
    version = "" if raw_version is None or isinstance(raw_version, bool) or raw_version == "~" else str(raw_version)
    prerelease = data.get("prerelease")  # true, or a string appended to the version shown
    return AntoraComponent(name=name, dir=rel_dir, attributes=attrs, title=str(data.get("title") or name),
                           version=version, display_version=str(data.get("display_version") or version),
                           prerelease=bool(prerelease) and prerelease != "false")


_SEMANTIC = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$")


def _version_rank(version: str) -> tuple[Any, ...]:
    """A key that sorts component versions as Antora lists them, newest first ("How
    Component Versions are Sorted"): the unversioned one (``~``: ``""`` here), then
    named versions in reverse alphabetical order, then semantic versions (an integer,
    or a number with a dot, optionally after ``v``) from highest to lowest, a
    ``-suffix`` prerelease below its release. Sort ascending by this key."""
    if not version:
        return (0,)
    m = _SEMANTIC.match(version)
    semantic = m is not None and ("." in version or version.isdigit())
    if not semantic or m is None:
        return (1, (*(-ord(ch) for ch in version), 0))
    numbers = tuple(-int(g or 0) for g in m.group(1, 2, 3))
    suffix = m.group(4)
    return (2, numbers, 1 if suffix else 0, (*(-ord(ch) for ch in suffix), 0))


def latest_versions(components: list[AntoraComponent]) -> dict[str, AntoraComponent]:
    """component name -> the version Antora treats as the latest (shown by default and
    used by resource IDs into another component that name no version): the first
    version in Antora's order (:func:`_version_rank`) that is not a prerelease, else
    the first one."""
    by_name: dict[str, list[AntoraComponent]] = {}
    for comp in components:
        by_name.setdefault(comp.name, []).append(comp)
    latest: dict[str, AntoraComponent] = {}
    for name, versions in by_name.items():
        ordered = sorted(versions, key=lambda c: (_version_rank(c.version), c.dir))
        latest[name] = next((c for c in ordered if not c.prerelease), ordered[0])
    return latest


class AntoraSite:
    """An Antora documentation set: every ``antora.yml`` under ``root`` is a
    component version (see module doc). Paths are relative to ``root``."""

    def __init__(self, root: Path, config_file: str | None = None, *, docs_version: str | None = None) -> None:
        self._root = root.resolve()
        self._config_file = config_file
        # the component version to read where a component has it (--docs-version); "~"/"_": unversioned
        self._wanted = None if docs_version is None else "" if docs_version in ("~", "_") else docs_version
        self._components: list[AntoraComponent] | None = None
        self._latest: dict[str, AntoraComponent] | None = None
        self._read: dict[str, AntoraComponent] | None = None
        self._includes: frozenset[str] | None = None
        self._config: SiteConfig | None = None
        self._site_attrs: tuple[dict[str, str], frozenset[str]] | None = None
        self._playbook_path: Path | None | bool = False  # False: not looked for yet
        # component version folders the playbook's content sources do not start at -> why skipped
        self._not_started: dict[str, str] = {}
        self.load_warnings: list[str] = []

    @classmethod
    def load(cls, root: Path, config_file: str | None, *, variant: SiteVariant | None = None) -> AntoraSite:
        """Registry factory (see :mod:`murar.ingest.sites.detect`); ``variant.docs_version``
        chooses the component version read (see :attr:`read`).

        Raises:
            ConfigError: no component has that version (the message lists each
                component's versions).
        """
        site = cls(root, config_file, docs_version=variant.docs_version if variant else None)
        if site._wanted is not None:
            _ = site.read  # the components are scanned now, so an unknown version fails here
        return site

    # ------------------------------------------------------------ components
    def _playbook(self) -> Path | None:
        """The playbook read (see :meth:`site_attributes`), or ``None``."""
        if self._playbook_path is False:
            names = [self._config_file] if self._config_file and PurePosixPath(self._config_file).name not in (
                "antora.yml",) else []
            first = next((n for n in (*names, *_PLAYBOOK_NAMES) if (self._root / n).is_file()), None)
            path = self._root / first if first is not None else None
            if first is not None and not _inside(self._root, first):  # a symbolic link out of the root
                self.load_warnings.append(f"{first}: a link out of the corpus root; site-wide attributes ignored")
                path = None
            elif first is None:
                path = next((self._root / n for n in _npm_playbooks(self._root, self.load_warnings)
                             if _inside(self._root, n) and (self._root / n).is_file()), None)
            self._playbook_path = path
        return self._playbook_path if isinstance(self._playbook_path, Path) else None

    def _start_paths(self) -> list[tuple[str, tuple[str, ...]]] | None:
        """The folders (relative to the root, ``fnmatch`` patterns, each with the patterns its source
        excludes: ``!docs/old``; ``{a,b}`` braces expanded) where the playbook's content sources
        start, or ``None`` when it tells nothing about this root.

        Antora reads a component descriptor at a content source's start path only
        (``start_path``/``start_paths``, default: the repository's root; docs.antora.org,
        "Content sources"): with ``url: .`` and no start path, an ``antora.yml`` in a
        subfolder (a test fixture, an example) is not a component of the site. Read only when
        a local source (``url`` a path, not a URL) is this root or a folder in it; the start
        paths of remote sources count too (one may be this repository under its web address)."""
        path = self._playbook()
        if path is None:
            return None
        content = _read_yaml(path, [], "").get("content")
        sources = content.get("sources") if isinstance(content, dict) else None
        if not isinstance(sources, list):
            return None
        found: list[tuple[str, tuple[str, ...]]] = []
        local = False
        count = 0  # start path patterns read
        for source in sources:
            if not isinstance(source, dict) or not isinstance(source.get("url"), str):
                continue
            url = source["url"].strip()
            raw = source.get("start_paths", source.get("start_path", ""))
            starts = [p.strip() for p in (_csv(raw) if isinstance(raw, str) else raw if isinstance(raw, list)
                                          else [""]) if isinstance(p, str)] or [""]
            base = ""
            if not re.match(r"^(?:[a-z][a-z0-9+.-]*://|git@|~)", url, re.IGNORECASE):
                try:
                    where = (path.parent / url).resolve()
                except (OSError, RuntimeError):
                    return None
                if where != self._root and self._root not in where.parents:
                    return None  # a local source outside this root: its start paths say nothing here
                base = where.relative_to(self._root).as_posix() if where != self._root else ""
                local = True
            expanded = [x for s in starts for x in _braces(s)]
            if count + len(expanded) > _MAX_START_PATTERNS:
                if count < _MAX_START_PATTERNS:  # (told once)
                    self.load_warnings.append(
                        f"{path.name}: content sources with more than {_MAX_START_PATTERNS} start path patterns; "
                        "the later ones are left out")
                expanded = expanded[:max(0, _MAX_START_PATTERNS - count)]
            count += len(expanded)
            folders = [PurePosixPath(base, x.lstrip("!").strip("/")).as_posix() for x in expanded]
            negated = [x.startswith("!") for x in expanded]
            folders = ["" if f == "." else f for f in folders]
            excluded = tuple(f for f, neg in zip(folders, negated) if neg)
            found.extend((f, excluded) for f, neg in zip(folders, negated) if not neg)
        return found if local else None

    def site_attributes(self) -> tuple[dict[str, str], frozenset[str]]:
        """The playbook's site-wide attributes and the names it hard-sets.

        The playbook is the file the site was opened with when it is not an
        ``antora.yml``, else ``antora-playbook.yml`` at the root, else the first
        playbook a ``package.json`` script at the root runs ``antora`` with
        (``"build": "antora preview.yml"``); none: empty.
        """
        if self._site_attrs is None:
            attrs: dict[str, str] = dict(_DEFAULTS)  # the playbook and the components may change these
            hard: set[str] = set()
            path = self._playbook()
            if path is not None:
                data = _read_yaml(path, self.load_warnings, "site-wide attributes ignored")
                site = data.get("site")
                if isinstance(site, dict):
                    for key in ("title", "url"):
                        if isinstance(site.get(key), str | int | float) and not isinstance(site.get(key), bool):
                            attrs[f"site-{key}"] = str(site[key])
                asciidoc = data.get("asciidoc")
                _merge_attributes(asciidoc.get("attributes") if isinstance(asciidoc, dict) else None, attrs, hard=hard)
            self._site_attrs = (attrs, frozenset(hard))
        return self._site_attrs

    @property
    def components(self) -> list[AntoraComponent]:
        """Component versions found under the root (deepest paths first)."""
        if self._components is None:
            found: list[AntoraComponent] = []
            candidates: list[tuple[Path, str]] = []
            for path in sorted(self._root.rglob("antora.yml")):
                rel_parts = path.relative_to(self._root).parts
                if any(p.startswith(".") or p in _SKIP_DIRS for p in rel_parts[:-1]):
                    continue
                candidates.append((path, PurePosixPath(*rel_parts[:-1]).as_posix() if len(rel_parts) > 1 else ""))
            dirs = {rel_dir for _, rel_dir in candidates}
            starts = self._start_paths()
            if starts is not None:
                def at_start(d: str, starts: list[tuple[str, tuple[str, ...]]] = starts) -> bool:
                    return any(fnmatchcase(d, s) and not any(fnmatchcase(d, x) for x in ex) for s, ex in starts)

                kept = [(p, d) for p, d in candidates if at_start(d)]
                if kept:  # (none at a start path: the playbook is not this site's; all are read)
                    playbook = self._playbook()
                    where = playbook.relative_to(self._root).as_posix() if playbook else "the playbook"
                    for d in dirs:
                        if not at_start(d):
                            self._not_started[d] = (
                                f"Antora component descriptor {d}/antora.yml is not at a start path of the content "
                                f"sources of {where} ({', '.join(repr(s or '.') for s, _ in starts)}): not read by Antora")
                    candidates = kept
            for path, rel_dir in candidates:
                # Antora reads a descriptor at a content source's start path only: one inside another
                # component version's modules/ folder is that version's file (an example of a descriptor)
                if any(rel_dir.startswith(f"{d}/modules/" if d else "modules/") for d in dirs if d != rel_dir):
                    continue
                site_attrs, hard = self.site_attributes()
                found.append(_read_component(path, rel_dir, self.load_warnings, site_attrs, hard))
            if not found and (self._root / "modules").is_dir():
                found.append(AntoraComponent(name=self._root.name, dir="", attributes=dict(self.site_attributes()[0])))
            found.sort(key=lambda c: -len(c.dir))
            self._components = found
        return self._components

    @property
    def latest(self) -> dict[str, AntoraComponent]:
        """component name -> its latest version (:func:`latest_versions`)."""
        if self._latest is None:
            self._latest = latest_versions(self.components)
        return self._latest

    @property
    def read(self) -> dict[str, AntoraComponent]:
        """component name -> the version whose pages are read: the chosen
        version (``docs_version``) when the component has it, else its latest.

        Raises:
            ConfigError: a version was chosen and no component has it (the
                message lists the versions of each component).
        """
        if self._read is None:
            read = dict(self.latest)
            if self._wanted is not None:
                chosen = {c.name: c for c in sorted(self.components, key=lambda c: c.dir) if c.version == self._wanted}
                if not chosen:
                    have: dict[str, list[str]] = {}
                    for comp in sorted(self.components, key=lambda c: _version_rank(c.version)):
                        have.setdefault(comp.name, []).append(comp.version or "~")
                    listed = "; ".join(f"{name}: {', '.join(v)}" for name, v in sorted(have.items()))
                    raise ConfigError(f"docs version {self._wanted or '~'!r} is not a version of any Antora "
                                      f"component of this site; it has {listed or 'no component'} "
                                      "(version in each antora.yml)")
                read.update(chosen)
            self._read = read
        return self._read

    def _locate(self, rel: str) -> tuple[AntoraComponent, str, str, str] | None:
        """``(component, module, family folder, path in family)`` of a file, or ``None``."""
        for comp in self.components:
            prefix = f"{comp.dir}/modules/" if comp.dir else "modules/"
            if not rel.startswith(prefix):
                continue
            parts = rel[len(prefix):].split("/")
            if len(parts) < 2:
                return None
            module = parts[0]
            rest = "/".join(parts[1:])
            for family_dirs in _FAMILY_DIRS.values():
                for fdir in sorted(family_dirs, key=len, reverse=True):
                    if rest.startswith(fdir + "/"):
                        return comp, module, fdir, rest[len(fdir) + 1:]
            return comp, module, "", rest
        return None

    def component_of(self, rel: str) -> AntoraComponent | None:
        """The component version holding ``rel``."""
        for comp in self.components:
            if not comp.dir or rel.startswith(comp.dir + "/"):
                return comp
        return None

    def attributes_for(self, rel: str) -> dict[str, str]:
        """AsciiDoc attributes Antora sets for a page (``name -> value``): the
        playbook's and the component's ``asciidoc.attributes``, then Antora's
        intrinsic attributes, which they cannot override (see the module doc)."""
        comp = self.component_of(rel)
        loc = self._locate(rel)
        attrs = dict(comp.attributes) if comp else dict(self.site_attributes()[0])
        attrs.update(_INTRINSIC)
        if comp is not None:  # Antora's intrinsic page attributes (docs.antora.org: page attributes)
            attrs.setdefault("page-component-name", comp.name)
            attrs.setdefault("page-component-title", comp.title or comp.name)
            if comp.version:
                attrs.setdefault("page-component-version", comp.version)
                attrs.setdefault("page-version", comp.version)
            if comp.display_version:
                attrs.setdefault("page-component-display-version", comp.display_version)
        if loc is not None:
            attrs.setdefault("page-module", loc[1])
            if loc[2] == "pages":
                attrs.setdefault("page-relative-src-path", loc[3])
        return attrs

    # -------------------------------------------------------------- config
    @property
    def config(self) -> SiteConfig:
        if self._config is None:
            comps = self.components
            pages: list[str] = []
            images: list[str] = []
            for comp in comps:
                base = self._root / comp.dir / "modules" if comp.dir else self._root / "modules"
                if not base.is_dir():
                    continue
                for mod in sorted(p for p in base.iterdir() if p.is_dir()):
                    rel_mod = mod.relative_to(self._root).as_posix()
                    if (mod / "pages").is_dir():
                        pages.append(f"{rel_mod}/pages")
                    images.extend(f"{rel_mod}/{d}" for d in _FAMILY_DIRS["image"] if (mod / d).is_dir())
            counts: dict[str, int] = {}
            for comp in comps:
                counts[comp.name] = counts.get(comp.name, 0) + 1
            versioned = [(name, c.version or "~") for name, c in sorted(self.read.items()) if counts.get(name, 0) > 1]
            self._config = SiteConfig(
                generator="antora", root=self._root, config_file=self._config_file,
                content_dirs=tuple(pages) or (".",), static_dirs=tuple(images),
                settings={"components": " ".join(f"{c.name}@{c.dir or '.'}" for c in comps)},
                docs_version=versioned[0][1] if len(versioned) == 1 else ", ".join(f"{n} {v}" for n, v in versioned),
            )
        return self._config

    # ------------------------------------------------------------- includes
    def include_targets(self) -> frozenset[str]:
        """Files pulled in by ``include::`` anywhere in the pages (computed once)."""
        if self._includes is None:
            files = os_walk_files(self._root, ".", _ADOC, skip_dirs=_SKIP_DIRS, skip_hidden_files=True)
            self._includes = scan_include_targets(
                self._root, files, _INCLUDE_RE, lambda target, rel: self.resolve_include(target, page_rel=rel),
                expand=self._substitute)
        return self._includes

    def _substitute(self, text: str, rel: str) -> str:
        attrs = self.attributes_for(rel)
        return re.sub(r"\{([\w-]+)\}", lambda m: attrs.get(m.group(1), m.group(0)), text)

    # ------------------------------------------------------------- protocol
    def classify(self, rel: str) -> FileClass:
        name = PurePosixPath(rel).name
        if name in _PLAYBOOK_NAMES or (name == "antora.yml" and any(
                rel == (f"{c.dir}/antora.yml" if c.dir else "antora.yml") for c in self.components)):
            return FileClass(role=FileRole.EXCLUDED, reason="Antora configuration (read for its rules)")
        is_adoc = name.lower().endswith(_ADOC)
        loc = self._locate(rel)
        if loc is None:
            _ = self.components  # (the folders not read are known once the components are)
            skipped = next((why for d, why in self._not_started.items() if rel.startswith(d + "/")), None)
            if skipped is not None and (is_adoc or name == "antora.yml"):
                return FileClass(role=FileRole.EXCLUDED, reason=skipped)
            if is_adoc:
                return FileClass(role=FileRole.EXCLUDED, reason="outside an Antora module (modules/<name>/pages)")
            return asset_or_unknown(rel)
        comp, _module, fdir, inner = loc
        read = self.read.get(comp.name, comp)
        if read is not comp and is_adoc:
            where = f"{read.version or '~'!r}, at {read.dir or '.'}"
            if self._wanted is None:
                why = f"is not its latest version ({where}); Antora shows the latest by default"
            elif read.version == self._wanted:
                why = f"is not the version read ({where}: the chosen docs version)"
            else:
                why = f"is not its latest version ({where}), read since it has no version {self._wanted or '~'!r}"
            return FileClass(role=FileRole.EXCLUDED, reason=(
                f"Antora component {comp.name!r} version {comp.version or '~'!r} {why}"))
        if fdir == "" and name == "nav.adoc":
            return FileClass(role=FileRole.EXCLUDED, reason="Antora navigation file")
        if not is_adoc:
            return asset_or_unknown(rel)
        if fdir in ("partials", "examples", "pages/_partials", "pages/_examples"):
            return FileClass(role=FileRole.INCLUDE, markup="asciidoc")
        if fdir != "pages":
            if rel in self.include_targets():
                return FileClass(role=FileRole.INCLUDE, markup="asciidoc")
            return FileClass(role=FileRole.EXCLUDED, reason="not in a module's pages family")
        if any(part.startswith("_") for part in inner.split("/")):
            return FileClass(role=FileRole.INCLUDE, markup="asciidoc")  # Antora hidden file
        # a page another page includes is still published by Antora: a page of its own as well
        return FileClass(role=FileRole.PAGE, markup="asciidoc")

    def _family_file(self, comp: AntoraComponent, module: str, family: str, path: str) -> str | None:
        base = f"{comp.dir}/modules/{module}" if comp.dir else f"modules/{module}"
        dirs = _FAMILY_DIRS.get(family, (family + "s",))
        candidates = [f"{base}/{d}/{path}" for d in dirs]
        for cand in candidates:
            if (self._root / cand).is_file():
                return cand
        # none there: the path in the family folder the module has (the report names where the file
        # was looked for: modules/x/assets/images/a.png in a module of the older layout)
        return next((c for c, d in zip(candidates, dirs, strict=True) if (self._root / base / d).is_dir()),
                    candidates[0] if candidates else None)

    def _resource(self, target: str, *, page_rel: str, default_family: str) -> ResolvedLink | None:
        """Resolve ``target`` as a resource ID; ``None`` when it is a plain relative path
        outside any module (the caller falls back to page-relative resolution)."""
        rid = parse_resource_id(target)
        here = self._locate(page_rel)
        comp = here[0] if here else self.component_of(page_rel)
        if rid.component is not None or rid.version is not None:
            # Antora: a version names that version; without one, the current version in the
            # current component, the latest version of another component
            name = rid.component or (comp.name if comp else None)
            if rid.version is not None:
                wanted = "" if rid.version in ("_", "~") else rid.version
                comp = next((c for c in self.components if c.name == name and c.version == wanted), None)
                if comp is None:
                    return ResolvedLink(problem=f"unknown Antora component version {rid.version}@{name}")
            elif comp is None or comp.name != name:
                comp = self.latest.get(name or "")
            if comp is None:
                return ResolvedLink(problem=f"unknown Antora component {rid.component!r}")
        module = rid.module or (here[1] if here else None)
        if comp is None or module is None:
            return None
        family = rid.family or default_family
        path = rid.path.split("#", 1)[0].split("?", 1)[0]
        rel = self._family_file(comp, module, family, path)
        if rel is None:
            return None
        # normalise ../ segments and keep the result inside the root
        return resolve_link(rel, page_rel="index", root=self._root)

    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        link = link.strip()
        if not link:
            return ResolvedLink(problem="empty link")
        if _URL.match(link):
            return resolve_link(link, page_rel=page_rel, root=self._root)
        res = self._resource(link, page_rel=page_rel, default_family="image")
        if res is not None and res.rel_path is not None and (self._root / res.rel_path).is_file():
            return res
        # a page-relative path (an explicit :imagesdir: or a file beside the page)
        local = resolve_link(link, page_rel=page_rel, root=self._root)
        if local.rel_path is not None and (self._root / local.rel_path).is_file():
            return local
        return res if res is not None else local

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        target = target.strip()
        rid = parse_resource_id(target)
        if rid.family is not None or rid.module is not None or rid.component is not None:
            res = self._resource(target, page_rel=page_rel, default_family="page")
            if res is not None:
                return res
        return resolve_link(target, page_rel=page_rel, root=self._root)

    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """The page as Antora reads it: an ``:imagesdir:`` entry (set so the page
        previews in an editor or on GitHub) removed, since Antora resolves every image
        target as a resource ID in the images family and never prefixes it with
        ``imagesdir`` (the entry "is stripped out when Antora builds", Dan Allen in
        couchbase/docs-server#432); kept when the page references ``{imagesdir}``
        itself, and inside listing, literal, passthrough and comment blocks."""
        if ":imagesdir:" not in text or "{imagesdir}" in text:
            return text
        out: list[str] = []
        fence: str | None = None
        for line in text.split("\n"):
            delim = _BLOCK_DELIM.match(line)
            if fence is None and delim:
                fence = delim.group(1)
            elif fence is not None and line.rstrip() == fence:
                fence = None
            elif fence is None and _IMAGESDIR_ENTRY.match(line):
                continue
            out.append(line)
        return "\n".join(out)
