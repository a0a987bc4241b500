"""Helpers shared by the generator modules (Hugo, Jekyll, DocFX, Docusaurus,
MkDocs): front matter in YAML/TOML/JSON, ordered candidate lookup inside the
root, root-anchored exclude lists (globs: :mod:`murar.ingest.sites._glob`)
and the rebasing of relative links when an include is inlined into another page.

Nothing here guesses where a file lives: every candidate list is built by the
generator module from that generator's documented rules.
"""

from __future__ import annotations

import importlib
import json
import os
import posixpath
import re
import stat
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from murar.ingest.frontmatter import (
    FrontMatterError,
    load_yaml_safely,
    parse_front_matter,
)
from murar.ingest.markup.asciidoc_blocks import ATTR_ENTRY
from murar.ingest.paths import ResolvedLink, inside_root, is_remote, link_path_problem
from murar.ingest.sites._glob import glob_match

_MAX_CONFIG_CHARS = 2_000_000
#: values a YAML config or data file may hold once its aliases are expanded (a real one: hundreds)
_MAX_CONFIG_VALUES = 100_000

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".tif", ".tiff", ".avif",
                            ".ico"})
VIDEO_SUFFIXES = frozenset({".mp4", ".webm", ".mov", ".m4v", ".ogv", ".ogg", ".mkv"})
ASSET_SUFFIXES = IMAGE_SUFFIXES | VIDEO_SUFFIXES | frozenset({".pdf", ".zip", ".css", ".js", ".json", ".yaml",
                                                             ".yml", ".vtt", ".srt", ".woff", ".woff2", ".ttf",
                                                             ".eot", ".txt", ".xml", ".csv", ".scss", ".sass"})


def load_data_file(path: Path) -> dict[str, Any]:
    """Parse a YAML, TOML or JSON config file into a dict (``{}`` when empty). YAML
    anchors and aliases are read (Hugo, Jekyll and DocFX configs may use them: Docsy's
    ``hugo.yaml`` writes ``min: *hugoMinVersion``), the aliases adding at most
    :data:`_MAX_CONFIG_VALUES` values once expanded (the values written out do not count).

    Raises:
        ValueError: the file is not valid for its format (message names it).
        OSError: the file cannot be read.
    """
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    suffix = path.suffix.lower()
    try:
        if suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif suffix == ".json":
            data = json.loads(text) if text.strip() else {}
        else:
            data = load_yaml_safely(text, max_chars=_MAX_CONFIG_CHARS, unknown_tags="null",
                                    max_alias_values=_MAX_CONFIG_VALUES)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, FrontMatterError, RecursionError) as err:
        kind = {".toml": "TOML", ".json": "JSON"}.get(suffix, "YAML")  # .yml, .yaml and any other name: YAML
        raise ValueError(f"{path.name}: not valid {kind} ({err})") from err
    return data if isinstance(data, dict) else {}


def split_front_matter(text: str) -> tuple[dict[str, Any], str, str]:
    """Split a page's front matter in YAML (``---``), TOML (``+++``) or JSON (``{...}``).

    Returns ``(meta, body, kind)`` with ``kind`` one of ``"yaml"``, ``"toml"``,
    ``"json"`` or ``""`` (none). Invalid or refused front matter gives
    ``meta == {}`` and the body after it. Never raises. Parsing is
    :func:`murar.ingest.frontmatter.parse_front_matter` (no aliases, core tags only).
    """
    fm = parse_front_matter(text)
    return fm.meta, fm.body, fm.syntax


def read_front_matter(path: Path, limit: int = 16_384) -> dict[str, Any]:
    """The front matter of the page at ``path``, read from its first ``limit`` characters
    (:func:`split_front_matter`); ``{}`` when the file cannot be read or has none. Never raises."""
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as fh:
            head = fh.read(limit)
    except OSError:
        return {}
    return split_front_matter(head)[0]


def yaml_front_matter(meta: dict[str, Any]) -> str:
    """Render ``meta`` as a YAML front matter block (``---`` ... ``---``, newline-terminated)."""
    dumped = yaml.safe_dump(_plain(meta), sort_keys=False, allow_unicode=True, default_flow_style=False)
    return f"---\n{dumped}---\n"


def _plain(value: Any) -> Any:
    """TOML dates and other types made YAML-safe (strings)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def matches_any(rel: str, patterns: Iterable[str]) -> bool:
    """True when the posix path ``rel`` (relative to the site root) is matched by
    one of the ``patterns``: equal to it, under it as a folder, or matching it as
    a glob (``**`` spans folders, ``*`` does not). Patterns are anchored at the
    site root, as Jekyll ``exclude`` and DocFX globs are."""
    for raw in patterns:
        pat = raw.strip()
        while pat.startswith("./"):
            pat = pat[2:]
        pat = pat.strip("/")
        if not pat:
            continue
        if rel == pat or rel.startswith(pat + "/") or glob_match(rel, pat, or_below=True):
            return True
    return False


def first_existing(root: Path, candidates: Iterable[str]) -> str | None:
    """First of the posix ``candidates`` (relative to ``root``) that is a file
    inside ``root``; ``None`` when none is. Never raises."""
    root_resolved = root.resolve()
    for cand in candidates:
        norm = posixpath.normpath(cand)
        if norm.startswith(("../", "/")) or norm == "..":
            continue
        path = root_resolved / norm
        try:
            if not path.is_file():
                continue
            real = path.resolve()
        except OSError:
            continue
        if real == root_resolved or root_resolved not in real.parents:
            continue
        return real.relative_to(root_resolved).as_posix()
    return None


class NameMatcher:
    """Files under ``root`` found folder by folder by a name key, for generators that
    publish or resolve a path other than as written: DocFX v3 matches a link without
    regard to case (``key=str.lower``); Hugo serves content at lower-cased URLs with
    spaces as hyphens (``Getting Started/`` at ``getting-started/``).

    Only folder listings are read, each once (cached per folder for the site's
    lifetime), so a name the file system refuses (too long, a NUL) is simply not
    found; no I/O in the constructor.
    """

    def __init__(self, root: Path, key: Callable[[str], str]) -> None:
        self._root = root
        self._key = key
        self._listings: dict[str, dict[str, str]] = {}  # folder -> its names, and "\0" + key(name) -> name

    def find(self, rel: str) -> str | None:
        """The file at the posix ``rel`` (relative to the root) with each folder and then
        the file name matched exactly, else by key (the first such entry in name order);
        ``None`` when there is none or ``rel`` leaves the root. Never raises."""
        norm = posixpath.normpath(rel)
        if norm in (".", "..") or norm.startswith(("../", "/")):
            return None
        here = ""
        for part in norm.split("/"):
            name = self._names(here).get(part) or self._names(here).get("\0" + self._key(part))
            if name is None:
                return None
            here = f"{here}/{name}" if here else name
        try:
            return here if (self._root / here).is_file() else None
        except (OSError, ValueError):
            return None

    def _names(self, folder: str) -> dict[str, str]:
        names = self._listings.get(folder)
        if names is None:
            names = {}
            try:
                for entry in sorted((self._root / folder).iterdir(), key=lambda e: e.name):
                    names[entry.name] = entry.name  # "\0" never begins a file name: the keyed entries
                    names.setdefault("\0" + self._key(entry.name), entry.name)
            except (OSError, ValueError):
                pass
            self._listings[folder] = names
        return names


def lookup(root: Path, candidates: list[str], *, link: str) -> ResolvedLink:
    """Resolve ``link`` to the first existing of ``candidates``; when none
    exists, ``rel_path`` is the first candidate inside the root (as written,
    normalised) and ``problem`` lists every such path tried. A candidate is inside
    when it resolves inside the root with symlinks followed
    (:func:`murar.ingest.paths.inside_root`): one behind a symlink leading out of
    the root is never returned, so no caller opens a path outside it. Never raises."""
    found = first_existing(root, candidates)
    if found is not None:
        return ResolvedLink(rel_path=found)
    inside = [posixpath.normpath(c) for c in candidates]
    inside = [c for c in dict.fromkeys(inside) if not (c.startswith(("../", "/")) or c == "..")]
    kept: list[str] = []
    refused: str | None = None  # why the first refused candidate was (escapes the root, a name too long)
    root_resolved = root.resolve() if inside else root
    for cand in inside:
        checked = inside_root(root_resolved / cand, root_resolved)
        if checked.rel_path is not None:
            kept.append(cand)
        elif refused is None:
            refused = checked.problem
    inside = kept
    if not inside:
        return ResolvedLink(problem=refused or "escapes the corpus root")
    return ResolvedLink(rel_path=inside[0], problem=f"file not found (tried {', '.join(inside)})")


def checked_rel(root: Path, rel: str) -> ResolvedLink:
    """``rel`` (posix, relative to the resolved ``root``) with symlinks followed, as
    a :class:`ResolvedLink` inside ``root``; a problem when it escapes ``root`` or
    cannot be resolved, or is refused before any file-system call (a name longer
    than the system allows, a NUL: :func:`murar.ingest.paths.link_path_problem`;
    such a path made ``is_file()`` raise). The file need not exist. Never raises."""
    problem = link_path_problem((root / rel).as_posix(), max_chars=4000, max_depth=1000)
    if problem:
        return ResolvedLink(problem=problem)
    try:
        resolved = (root / rel).resolve()
    except (OSError, RuntimeError, ValueError) as err:  # (UnicodeEncodeError)
        return ResolvedLink(problem=f"cannot resolve: {err}")
    if resolved != root and root not in resolved.parents:
        return ResolvedLink(problem="escapes the corpus root")
    return ResolvedLink(rel_path=resolved.relative_to(root).as_posix())


def sub_closed(pattern: re.Pattern[str], end: re.Pattern[str], repl: Callable[[re.Match[str]], str],
                text: str) -> str:
    """``pattern.sub(repl, text)`` for a block pattern ``open(.*?)close`` whose closing
    tag alone is ``end``: only the text up to the last closing tag is searched, so
    openers without a closer after them (Jekyll ``{% raw %}`` 5,000 times took 4.6 s) are not
    each scanned to the end of the text. The same matches, in linear time."""
    last = None
    for last in end.finditer(text):
        pass
    if last is None:
        return text
    return pattern.sub(repl, text[:last.end()]) + text[last.end():]


def split_link(link: str) -> tuple[str, str]:
    """``(path, suffix)`` of a local link: the unquoted path and the ``?query#fragment`` part."""
    parts = urlsplit(link.strip().strip("<>"))
    suffix = (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    return unquote(parts.path), suffix


def url_base_path(base_url: str) -> str:
    """The path prefix of a site base URL: ``https://x.org/docs`` -> ``/docs/``; ``""`` -> ``/``."""
    path = urlsplit(base_url.strip()).path if "://" in base_url else base_url.strip()
    path = "/" + path.strip("/")
    return path if path == "/" else path + "/"


def strip_base(path: str, base: str) -> str:
    """Remove the site base path ``base`` (``/docs/``) from a root-relative ``path``."""
    if base != "/" and (path + "/").startswith(base):
        return "/" + path[len(base):]
    return path


# Markdown images/links, HTML src/href attributes and DocFX-style source= attributes. A label is read
# back from its '](' to the nearest '[' (a '[' inside it starts the match there: the same text is
# rewritten), and an <...> destination holds no '<' (CommonMark): each '[' without a ']' after it
# scanned to the end of the text (40,000 '[' in an included file: 44 s), each '](<' to the line's end
_MD_LINK = re.compile(r"(!?\[(?:[^\[\]\\]|\\.)*\]\()\s*(<[^<>\n]*>|[^)\s]+)")
_ATTR = re.compile(r"""(\b(?:src|href|source|lightbox|poster)\s*=\s*)(["'])([^"'\n]*)\2""", re.IGNORECASE)
# a link reference definition (CommonMark: "[label]: destination", up to three spaces in, in a quote
# too), not a footnote's ("[^1]: text"); its destination may stand on the next line
_MD_DEF = re.compile(r"^((?:[ \t]{0,3}>)*[ \t]{0,3}\[(?!\^)(?:[^\[\]\\\n]|\\.){1,999}\]:[ \t]*(?:\n(?:[ \t]*>)*[ \t]*)?)"
                     r"(<[^<>\n]*>|[^\s<>]+)", re.MULTILINE)


def rebase_links(text: str, *, from_rel: str, to_rel: str, exists: Callable[[str], bool],
                 backslash_separates: bool = False) -> str:
    """Rewrite page-relative links in ``text`` (written in the file ``from_rel``)
    so that they point at the same files from the page ``to_rel``.

    Used when an include is inlined: DocFX, Jekyll ``include_relative`` and Hugo
    ``readfile`` content keep links relative to the file that holds them. Only
    links whose target exists relative to ``from_rel`` (``exists`` gets the
    root-relative posix path) are rewritten, inline ones and the destinations of link
    reference definitions (``[0]: ../media/a.png``, which ``![alt][0]`` uses) alike; root-relative, remote and anchor
    links are left alone. ``backslash_separates``: a ``\\`` in a link's path separates
    folders as ``/`` does (DocFX's file paths); the rebased link is written with ``/``.
    """
    src_dir = posixpath.dirname(from_rel)
    dst_dir = posixpath.dirname(to_rel)
    if src_dir == dst_dir:
        return text

    def rebase(link: str) -> str | None:
        bare = link[1:-1] if link.startswith("<") and link.endswith(">") else link
        if not bare or bare.startswith(("/", "#", "{", "$")) or is_remote(bare):
            return None
        path, suffix = split_link(bare)
        if not path:
            return None
        if backslash_separates:
            path = path.replace("\\", "/")
        target = posixpath.normpath(posixpath.join(src_dir, path))
        if target.startswith("..") or not exists(target):
            return None
        new = posixpath.relpath(target, dst_dir or ".") + suffix
        return f"<{new}>" if link.startswith("<") or " " in new else new

    def md(m: re.Match[str]) -> str:
        new = rebase(m.group(2))
        return m.group(0) if new is None else m.group(1) + new

    def attr(m: re.Match[str]) -> str:
        new = rebase(m.group(3))
        return m.group(0) if new is None else f"{m.group(1)}{m.group(2)}{new.strip('<>')}{m.group(2)}"

    if "]:" in text:
        text = _MD_DEF.sub(md, text)
    return _ATTR.sub(attr, _MD_LINK.sub(md, text))


def relpath_from_page(target: str, page_rel: str) -> str:
    """Posix path of the root-relative ``target`` as seen from the page ``page_rel``."""
    return posixpath.relpath(target, posixpath.dirname(page_rel) or ".")


def suffix_of(rel: str) -> str:
    """Lower-case suffix of a posix path (``""`` when none)."""
    return PurePosixPath(rel).suffix.lower()


def safe_join(*parts: str) -> str:
    """posix join and normalise, without leading ``./``."""
    joined = posixpath.normpath(posixpath.join(*[p for p in parts if p not in ("", ".")] or ["."]))
    return "" if joined == "." else joined


def is_within(rel: str, folder: str) -> bool:
    """True when the posix path ``rel`` is ``folder`` or under it (``folder`` ``"."``/``""``: always)."""
    folder = folder.strip("/")
    if folder in ("", "."):
        return True
    return rel == folder or rel.startswith(folder + "/")


_MAX_SCANNED_BYTES = 5_000_000  # of a file scanned for its includes (builder.MAX_INCLUDE_BYTES)
_ADOC_INCLUDE_LINE = re.compile(r"^include::([^\[\n]+)\[")
_ADOC_REF = re.compile(r"\{([A-Za-z0-9_][\w-]*)\}")
_ADOC_SUFFIXES = (".adoc", ".asciidoc", ".asc")
#: characters of one file read for its attribute entries; levels of includes followed; entries
#: and includes stepped through for one file (a fan of includes that include others)
MAX_ENTRY_FILE_CHARS = 500_000
MAX_ENTRY_INCLUDE_DEPTH = 4
MAX_ENTRY_STEPS = 5_000
MAX_ENTRY_VALUE_CHARS = 4_096


class AsciidocEntries:
    """The attribute entries (``:name: value``) an AsciiDoc file sets, with those of the
    AsciiDoc files it includes, in document order: Asciidoctor substitutes attribute
    references in an ``include::`` target before resolving it, and an entry in an included
    file (a shared ``_attributes.adoc``) sets the attribute for the rest of the including
    document (and may use the ones set before it). A value's references are substituted
    where it is defined; ``:name!:`` unsets. Each file is read once; at most
    :data:`MAX_ENTRY_INCLUDE_DEPTH` levels of includes and :data:`MAX_ENTRY_STEPS` entries
    and includes per file asked about, values of at most :data:`MAX_ENTRY_VALUE_CHARS`;
    cycles cut; never raises."""

    def __init__(self, root: Path, resolve: Callable[[str, str], ResolvedLink]) -> None:
        self._root = root
        self._resolve = resolve
        self._ops: dict[str, list[tuple[str, str, str]]] = {}
        self._resolved: dict[tuple[str, str], str | None] = {}
        self._last: tuple[str, dict[str, str]] | None = None  # the file asked about last (its targets come together)

    def of(self, rel: str) -> dict[str, str]:
        """name -> value for every entry ``rel`` (posix, relative to the root) and its includes set."""
        if self._last is None or self._last[0] != rel:
            attrs: dict[str, str] = {}
            self._run(rel, attrs, (rel,), [MAX_ENTRY_STEPS])
            self._last = (rel, attrs)
        return self._last[1]

    def _run(self, rel: str, attrs: dict[str, str], stack: tuple[str, ...], budget: list[int]) -> None:
        for kind, name, value in self._ops_of(rel):
            budget[0] -= 1
            if budget[0] < 0:
                return
            if kind == "set":
                expanded = self.expand(value, attrs)
                if expanded is None:
                    attrs.pop(name, None)  # longer than any path: left undefined (no target uses it)
                else:
                    attrs[name] = expanded
            elif kind == "unset":
                attrs.pop(name, None)
            elif len(stack) <= MAX_ENTRY_INCLUDE_DEPTH:
                target = self.expand(value, attrs)
                if target and "{" not in target and target.lower().endswith(_ADOC_SUFFIXES):
                    key = (posixpath.dirname(rel), target)  # a target resolves from the including file's folder
                    if key not in self._resolved:
                        self._resolved[key] = self._resolve(target, rel).rel_path
                    child = self._resolved[key]
                    if child is not None and child not in stack:
                        self._run(child, attrs, (*stack, child), budget)

    def _ops_of(self, rel: str) -> list[tuple[str, str, str]]:
        if rel not in self._ops:
            try:
                with (self._root / rel).open(encoding="utf-8", errors="replace") as fh:
                    text = fh.read(MAX_ENTRY_FILE_CHARS)
            except OSError:
                text = ""
            ops: list[tuple[str, str, str]] = []
            for line in text.splitlines():
                if line.startswith(":") and (m := ATTR_ENTRY.match(line)):
                    unset = bool(m.group(1) or m.group(3))
                    ops.append(("unset" if unset else "set", m.group(2), m.group(4) or ""))
                elif line.startswith("include::") and (inc := _ADOC_INCLUDE_LINE.match(line)):
                    ops.append(("include", "", inc.group(1).strip()))
            self._ops[rel] = ops
        return self._ops[rel]

    @staticmethod
    def expand(text: str, attrs: dict[str, str]) -> str | None:
        """``text`` with each ``{name}`` that ``attrs`` defines replaced (others kept);
        ``None`` when the text or the result is longer than :data:`MAX_ENTRY_VALUE_CHARS`
        (values built from values would otherwise grow without bound)."""
        if len(text) > MAX_ENTRY_VALUE_CHARS:
            return None
        if "{" not in text:
            return text
        out: list[str] = []
        size, pos = 0, 0
        for m in _ADOC_REF.finditer(text):
            part = text[pos:m.start()] + attrs.get(m.group(1), m.group(0))
            size += len(part)
            if size > MAX_ENTRY_VALUE_CHARS:
                return None
            out.append(part)
            pos = m.end()
        out.append(text[pos:])
        return None if size + len(text) - pos > MAX_ENTRY_VALUE_CHARS else "".join(out)


def scan_include_targets(
    root: Path,
    files: Iterable[str],
    pattern: re.Pattern[str],
    resolve: Callable[[str, str], ResolvedLink],
    *,
    expand: Callable[[str, str], str] | None = None,
    from_document: bool = False,
    scope: Callable[[str], str] | None = None,
) -> frozenset[str]:
    """Files (posix, relative to ``root``) that an include directive in one of
    ``files`` pulls in. ``pattern``'s first non-empty group is the target as
    written; ``expand(target, including_rel)`` may substitute attributes in it
    first (AsciiDoc ``{partialsdir}``); ``resolve(target, including_rel)``
    resolves it as the generator does. Targets that do not resolve inside the
    root, targets still holding an unexpanded ``{...}`` and ``<...>`` (a
    docutils standard include) are left out. Unreadable files are skipped;
    never raises.

    With ``from_document`` (Sphinx), an include written inside an included file
    resolves from the document being built: each file that no other includes is a
    document, and the includes of the files it pulls in (at any depth, read even
    when not in ``files``) resolve from it. At most 16 levels. ``scope(document)``: a
    key such that documents with equal keys resolve every include alike (their folder);
    with it each file's includes are resolved once per key, not once per document (1,000
    pages including one file of 500 includes: 500,000 path resolves, 49 s)."""
    written: dict[str, list[str]] = {}

    def targets_of(rel: str) -> list[str]:
        if rel not in written:
            try:
                with (root / rel).open("rb") as fh:  # as much as a page or include is read
                    text = fh.read(_MAX_SCANNED_BYTES).decode("utf-8", errors="replace")
            except OSError:
                text = ""
            out = []
            for m in pattern.finditer(text):
                target = next((g for g in m.groups() if g), "").strip()
                if expand is not None and "{" in target:
                    target = expand(target, rel)
                if target and "{" not in target and not target.startswith("<"):
                    out.append(target)
            written[rel] = out
        return written[rel]

    found: set[str] = set()
    includers: dict[str, set[str]] = {}
    files = list(files)
    for rel in files:
        for target in targets_of(rel):
            res = resolve(target, rel)
            if res.rel_path is not None:
                found.add(res.rel_path)
                includers.setdefault(res.rel_path, set()).add(rel)
    if not from_document:
        return frozenset(found)

    resolved: dict[tuple[str, str], list[str]] = {}  # (file, document's scope) -> the files its includes name

    def resolved_from(holder: str, doc: str) -> list[str]:
        key = (holder, scope(doc) if scope is not None else doc)
        if key not in resolved:
            resolved[key] = [r for t in targets_of(holder) if (r := resolve(t, doc).rel_path) is not None]
        return resolved[key]

    def included_from(docs: list[str]) -> set[str]:
        nested: set[str] = set()
        for doc in docs:
            seen, level = {doc}, [doc]
            for _ in range(16):
                nxt = []
                for holder in level:
                    for rel_path in resolved_from(holder, doc):
                        if rel_path not in seen:
                            seen.add(rel_path)
                            nested.add(rel_path)
                            nxt.append(rel_path)
                if not nxt:
                    break
                level = nxt
        return nested

    # the documents are the files nothing includes; a file that only unreached files include (files that
    # include each other) keeps the file-relative reading
    docs = [rel for rel in files if rel not in found]
    nested = included_from(docs)
    reached = nested | set(docs)
    return frozenset(nested | {t for t in found - nested if any(i not in reached for i in includers.get(t, ()))})


def os_walk_files(root: Path, folder: str, suffixes: Iterable[str], *,
                  skip_dirs: Iterable[str] = ("node_modules",), skip_hidden_files: bool = False) -> list[str]:
    """Posix paths (relative to ``root``) of files with one of ``suffixes`` under
    ``folder``, sorted. Hidden folders and folders named in ``skip_dirs`` are not
    entered; hidden files are left out with ``skip_hidden_files``. Folder
    symlinks are not followed, and a ``folder`` that leads out of ``root`` (``../x``,
    an absolute path, a symbolic link out: a config's ``contentDir``) gives nothing;
    nor does a file that is a symbolic link out of ``root`` (the page walk refuses it
    too: the scans these lists feed read every file), nor anything but a regular
    file (a named pipe, a socket, a device). Never raises."""
    base = root / folder if folder not in ("", ".") else root
    wanted, skipped = frozenset(suffixes), frozenset(skip_dirs)
    out: list[str] = []
    try:
        real_root, real_base = root.resolve(), base.resolve()
    except (OSError, RuntimeError, ValueError):
        return out
    if not base.is_dir() or (real_base != real_root and real_root not in real_base.parents):
        return out
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in skipped)
        for name in filenames:
            if PurePosixPath(name).suffix.lower() in wanted and not (skip_hidden_files and name.startswith(".")):
                path = Path(dirpath, name)
                if path.is_symlink():
                    try:
                        real = path.resolve()
                    except (OSError, RuntimeError):
                        continue
                    if real_root not in real.parents:
                        continue
                try:  # a regular file only: opening a named pipe called 'x.md' blocks the scan forever
                    if not stat.S_ISREG(path.stat().st_mode):
                        continue
                except OSError:
                    continue
                try:
                    out.append(path.relative_to(root).as_posix())
                except ValueError:  # not written under root: nothing to name it by
                    continue
    return sorted(out)


def own_host_path(site_url: str, link: str) -> str | None:
    """The path of the URL ``link`` when it is on the host of ``site_url`` (the
    site's own published address, e.g. Jekyll ``url``, MkDocs ``site_url``), else
    ``None`` (also when ``site_url`` is not an absolute URL)."""
    if "://" not in site_url:
        return None
    mine, other = urlsplit(site_url), urlsplit(link)
    if not other.netloc or other.netloc.lower() != mine.netloc.lower():
        return None
    return other.path or "/"


def local_link(link: str, own_path: Callable[[str], str | None]) -> tuple[str, str] | ResolvedLink:
    """The steps every site's ``resolve_asset`` starts with.

    An empty link, a data URI, or a remote URL that is not on the site's own host
    (``own_path(url)`` gives the site-relative path of a URL on the site's own
    ``url``/``baseURL`` host, else ``None``) ends here as the final
    :class:`ResolvedLink`. Otherwise returns ``(link, path)``: the link (own-host
    URLs made site-relative) and its path without query or fragment. Never raises.
    """
    link = link.strip()
    if not link:
        return ResolvedLink(problem="empty link")
    if is_remote(link):
        own = own_path(link)
        if own is None:
            if link.lower().startswith("data:"):
                return ResolvedLink(problem="inline data URI image ignored")
            return ResolvedLink(url=link)
        link = own
    path, _ = split_link(link)
    if not path:
        return ResolvedLink(problem="link without a path")
    return link, path


_FENCE_LINE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})")


def outside_fences(text: str, rewrite: Callable[[str], str]) -> str:
    """``rewrite`` applied to the parts of ``text`` outside fenced code blocks
    (```` ``` ````/``~~~`` fences, indented or in quotes too; a fence closes at a
    run of its character at least as long); code is kept as written, so a syntax
    example in a code block (a kramdown ``{: .note }``, a DocFX ``[!code]``) stays
    as it is. Never raises."""
    return "\n".join("\n".join(lines) if code else rewrite("\n".join(lines)) for code, lines in _fence_parts(text))


def blank_fences(text: str) -> str:
    """``text`` with every character of its fenced code blocks (the fences of
    :func:`outside_fences`) but line breaks made a space: the same length and lines,
    for finding markup that spans code blocks (a tab set whose panes hold code) at
    the offsets of ``text`` without reading markup shown as code. Never raises."""
    return "\n".join("\n".join(" " * len(line) for line in lines) if code else "\n".join(lines)
                     for code, lines in _fence_parts(text))


def _fence_parts(text: str) -> list[tuple[bool, list[str]]]:
    """``text``'s lines in runs: ``(True, lines)`` for a fenced code block with its fences,
    ``(False, lines)`` for the text between."""
    parts: list[tuple[bool, list[str]]] = []
    fence = ""
    for line in text.split("\n"):
        m = _FENCE_LINE.match(line)
        if fence:
            parts[-1][1].append(line)
            if m and m.group("fence")[0] == fence[0] and len(m.group("fence")) >= len(fence) \
                    and not line[m.end():].strip():
                fence = ""
            continue
        if m:
            fence = m.group("fence")
            parts.append((True, [line]))
            continue
        if not parts or parts[-1][0]:
            parts.append((False, []))
        parts[-1][1].append(line)
    return parts


def regex_problem(pattern: str) -> str | None:
    """Why a regular expression from the site's configuration (sphinx-gallery's
    ``ignore_pattern``, searched in every example file name; Hugo's ``ignoreFiles`` and
    mkdocs-exclude's ``regex``, searched in every path) is not run, or None: it does
    not compile, or it may backtrack without bound (Python's ``re`` has no time limit: a
    repeat holding another repeat or alternatives, ``(a+)+$``, is exponential on a name of
    30 a's, and more than 3 repeats in a row, ``.*.*.*.*x``, a high power of the name's
    length; Go's RE2, which Hugo runs, is linear, Python's is not). Ignore patterns in use
    are a literal name or one or two ``.*``."""
    _parser: Any = importlib.import_module("re._parser")  # the module re compiles with (no public parse)
    c: Any = importlib.import_module("re._constants")

    try:
        parsed = _parser.parse(pattern)
    except (re.error, RecursionError, OverflowError) as err:
        return f"does not compile ({err})"
    repeats = 0
    stack: list[tuple[Any, bool]] = [(parsed, False)]  # (items, inside a repeat)
    while stack:
        items, inside = stack.pop()
        for op, av in items:
            if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[1] > 1:
                if inside:
                    return "repeats a repeat (it may backtrack without bound)"
                repeats += 1
                stack.append((av[2], True))
            elif op is c.BRANCH and inside:
                return "repeats alternatives (it may backtrack without bound)"
            elif op is c.GROUPREF or op is c.GROUPREF_EXISTS:
                return "refers back to a group (it may backtrack without bound)"
            else:
                subs = av if isinstance(av, (list, tuple)) else (av,)
                stack += [(x, inside) for x in subs if isinstance(x, _parser.SubPattern)]
                stack += [(x, inside) for part in subs if isinstance(part, list)
                          for x in part if isinstance(x, _parser.SubPattern)]
    return "has more than 3 repeats (it may backtrack without bound)" if repeats > 3 else None
