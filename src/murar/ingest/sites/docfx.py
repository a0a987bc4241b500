"""DocFX and Microsoft Learn (Open Publishing) sites.

Rules from the DocFX documentation (dotnet.github.io/docfx: "docfx.json",
"Markdown extensions") and the Microsoft Learn contributor guide:

- ``docfx.json`` ``build.content[]`` groups (``files`` globs, ``exclude`` globs,
  ``src`` folder, relative to the folder holding ``docfx.json``; ``{a,b}``
  alternatives, nested too, :data:`murar.ingest.sites._glob.DOCFX`; matched
  without regard to case; an exclude glob also covers what lies under a folder
  it matches) name the pages; ``build.resource[]`` the images. Markdown files outside the content
  globs are not pages; those pulled in by ``[!INCLUDE]`` (Learn keeps them in
  ``includes/`` folders, excluded from content) are includes. A file the content
  globs select is a page even when a page includes it (DocFX builds it too); an
  ``[!INCLUDE]`` in fenced code is an example, not an include. A repository with
  only ``.openpublishing.publish.config.json`` (no ``docfx.json``) uses each
  docset's ``build_source_folder`` with DocFX's default ``**/*.md`` globs.
  A selected ``.yml`` file declaring Learn's structured FAQ (``### YamlMime:FAQ``), a
  training unit (``ModuleUnit``), module overview (``Module``), step-by-step tutorial
  (``Tutorial``) or Architecture Center article (``Architecture``) is a page, read as
  the Markdown Learn shows for it
  (:mod:`murar.ingest.sites._learn_yaml`); other YAML (TOCs, landing pages) is not.
- Links resolve relative to the file that holds them (an include's links
  relative to the include); ``~/`` is the docset root; root-relative links are
  Learn site URLs ``/<docset base path>/<path in docset>`` (the base path is
  read from ``globalMetadata`` URLs such as ``breadcrumb_path`` when present; a base
  path is often several segments deep, ``/azure/devops/_img/x.png`` being
  ``_img/x.png`` of the docset, so a link whose first segment is no folder of the
  docset is also looked up without its first two to four segments);
  a file that is not found as written is matched without regard to case (DocFX
  v3, Learn's build engine, resolves ``media/ImAGe.PNG`` to ``media/image.png``),
  in an include's links too (relative to the include, not to the page).
- ``:::image type="content" source="..." alt-text="...":::`` is an image
  (``lightbox`` = its full-size link); ``type="complex"`` carries a long
  description up to ``:::image-end:::`` (kept as the caption);
  ``type="icon"`` is an icon (written as a 16-pixel ``<img class="icon">``, so the
  media flags mark it ``tiny``/``inline`` and it is never an answer image). The
  closing ``:::`` may touch the next word (``...yes-icon.png":::SQL Server``, Learn's
  "Applies to" lines): the icon still is one.
- ``![alt](clip.mp4)`` (a video file) and ``![alt](YouTube/Vimeo link)`` are
  videos (Markdig's MediaLinks extension, part of DocFX's Markdown pipeline).
- ``> [!NOTE]``/``[!TIP]``/``[!IMPORTANT]``/``[!WARNING]``/``[!CAUTION]`` alerts
  become a bold label; ``> [!VIDEO url]`` a video (whatever its URL); ``[!INCLUDE [title](path)]``
  the file's content at that place (inside quotes and lists too);
  ``[!code-lang[](path)]`` and ``:::code source=...:::`` a code block holding the
  part asked for (a named snippet, line ranges: :func:`code_snippet`);
  ``:::row:::``/``:::column:::``/``:::zone:::``/``::: moniker`` markers are dropped
  (their content is kept; a ``::: moniker range`` zone only when the page's
  default view shows it: :mod:`murar.ingest.sites._monikers`; the order of
  monikers is the docset's, so a numberless moniker that any file of the docset
  bounds from above, ``< azure-devops``, is the newest on every page of it, and so is the
  docset's one numberless moniker when a range caps a numbered line at its newest release
  (``visualstudio`` beside ``<= vs-2022``: Visual Studio 2026), on each page whose range holds it; a ``::: zone
  target="chromeless"``/``"pdf"`` zone not at all, as the Learn site shows only
  ``target="docs"`` ones); inline ``:::no-loc text="x":::`` is its text;
  ``::: zone pivot="id"`` zones are tabs labelled with
  the pivot titles of the zone pivot definition file (:func:`_zone_pivots`).
- Cross references ("Links and Cross References"): ``<xref:uid>``,
  ``<xref href="uid"/>``, ``[](xref:uid)`` and ``@uid`` read as the text DocFX
  shows: the title of the docset page with that ``uid``, or an API's name
  (:func:`xref_display`).
- Tabs (DocFX "Markdown" docs, section "Tabs"): headings ``# [Label](#tab/id)``
  (any level; ``#tab/id/condition`` for dependent tabs) are tab labels, not
  headings of the page; consecutive ones form a group that ends at a ``---``
  line or the end of the page (:func:`_tab_groups`). Each image in a tab records
  its label and the group's labels. Headings inside a tab belong to it: the next
  tab, and the text after the group's ``---``, are back in the section the group
  stands in, not under the previous tab's last heading.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

from murar.errors import ConfigError
from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.markup.builder import is_video_embed, read_include
from murar.ingest.markup.mdtext import (
    FenceTracker,
    alert_markers,
    inline_text,
    label_lines,
)
from murar.ingest.markup.tabs import set_close, set_open, tab_start
from murar.ingest.mdlimits import bounded_int
from murar.ingest.paths import ResolvedLink, is_remote
from murar.ingest.sites._common import (
    IMAGE_SUFFIXES,
    VIDEO_SUFFIXES,
    NameMatcher,
    is_within,
    load_data_file,
    lookup,
    os_walk_files,
    outside_fences,
    rebase_links,
    safe_join,
    split_front_matter,
    split_link,
    suffix_of,
)
from murar.ingest.sites._glob import DOCFX, glob_match
from murar.ingest.sites._learn_yaml import (
    MAX_FAQ_CHARS,
    PAGE_SCHEMAS,
    learn_markdown,
    yaml_mime,
)
from murar.ingest.sites._monikers import (
    default_view,
    holds_top,
    implied_top,
    numberless_bounds,
    zone_shown,
)
from murar.ingest.sites.base import FileClass, FileRole, SiteConfig

GENERATOR = "docfx"
CONFIG_FILES = ("docfx.json", ".openpublishing.publish.config.json")
PAGE_MARKUP = {".md": "markdown", ".markdown": "markdown"}
DEFAULT_FILES = ("**/*.md", "**/*.yml")
#: DocFX reads a file of this name (any case) as a table of contents, never as a page
MARKDOWN_TOC = "toc.md"
DEFAULT_EXCLUDE = ("**/obj/**", "**/includes/**", "_themes/**", "**/bin/**")
_MAX_INCLUDE_DEPTH = 8
#: segments of a Learn base path (``/azure/devops/``) tried before a root-relative link's path in the docset
_MAX_BASE_DEPTH = 4
#: includes inlined into one page at all depths, and their characters: without cycles, ten includes
#: of a file that includes the next one ten times, eight deep, are 10**8 includes
_MAX_INCLUDES = 200
_MAX_INCLUDED_CHARS = 5_000_000


@dataclass(frozen=True, slots=True)
class GlobGroup:
    """One ``build.content``/``build.resource`` entry: ``src`` (posix, relative to
    the site root), ``files`` and ``exclude`` globs relative to ``src``, and the
    ``docset`` (folder of its ``docfx.json``) it belongs to."""

    src: str
    files: tuple[str, ...]
    exclude: tuple[str, ...] = ()
    docset: str = "."
    dest: str = ""
    monikers: str = ""  # its ``group``'s ``groups.<name>.moniker_range``, or its ``version`` name

    def matches(self, rel: str) -> bool:
        """True when the root-relative ``rel`` is selected by this group."""
        if not is_within(rel, self.src):
            return False
        inner = rel[len(self.src) + 1:] if self.src not in ("", ".") else rel
        if not any(glob_match(inner, f, DOCFX) for f in self.files):
            return False
        return not any(glob_match(inner, x, DOCFX, or_below=True) for x in self.exclude)


def _strs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        values = [value]
    elif isinstance(value, list):
        values = [v for v in value if isinstance(v, str)]
    else:
        return ()
    return tuple(dict.fromkeys(values))


def _groups(entries: Any, docset: str, ranges: dict[str, str] | None = None) -> list[GlobGroup]:
    out: list[GlobGroup] = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, str):
            entry = {"files": [entry]}
        if not isinstance(entry, dict):
            continue
        files = _strs(entry.get("files"))
        if files:
            src = safe_join(docset, str(entry.get("src") or ""))
            dest = str(entry.get("dest") or "").strip("/") if isinstance(entry.get("dest"), str) else ""
            # "version" is DocFX's older name of "group" (FileMappingItem.GroupName: group ?? version); a
            # Learn docset versions its content with it, the version name being the files' moniker
            # (PowerShell DSC: "version": "dsc-2.0" and "dsc-3.0" at one dest, read as ?view=dsc-3.0)
            group = entry.get("group") if isinstance(entry.get("group"), str) else None
            version = entry.get("version") if isinstance(entry.get("version"), str) else None
            name = group or version
            monikers = (ranges or {}).get(name, "") if name else ""
            if not monikers and version and not group:
                monikers = version
            out.append(GlobGroup(src=src or ".", files=files, exclude=_strs(entry.get("exclude")), docset=docset,
                                 dest=dest, monikers=monikers))
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class DocfxSettings:
    """What :func:`load` read: the ``docsets`` (posix folders relative to the root),
    the ``content`` and ``resource`` glob groups and the Learn ``base_paths``."""

    docsets: tuple[str, ...]
    content: tuple[GlobGroup, ...]
    resource: tuple[GlobGroup, ...]
    base_paths: tuple[str, ...] = ()
    #: ``fileMetadata.monikerRange``: (docset, glob relative to it, moniker range)
    file_monikers: tuple[tuple[str, str, str], ...] = ()


def read_settings(root: Path, config_file: str | None) -> DocfxSettings:
    """Read ``docfx.json`` (or the Learn publish config) at ``config_file``
    (posix, relative to ``root``; ``None``: look for ``docfx.json`` at the root).

    Raises:
        ConfigError: the config is not valid JSON.
    """
    configs: list[str] = []
    if config_file is None:
        for name in CONFIG_FILES:
            if (root / name).is_file():
                config_file = name
                break
    if config_file is not None and Path(config_file).name == ".openpublishing.publish.config.json":
        data = _read_json(root, config_file)
        base = posixpath.dirname(config_file)
        docsets = []
        for ds in data.get("docsets_to_publish") or []:
            if isinstance(ds, dict):
                folder = safe_join(base, str(ds.get("build_source_folder") or "."))
                docsets.append(folder or ".")
                if (root / folder / "docfx.json").is_file():
                    configs.append(safe_join(folder, "docfx.json"))
        if not configs:
            groups = tuple(GlobGroup(src=d, files=DEFAULT_FILES, exclude=DEFAULT_EXCLUDE) for d in docsets or ["."])
            return DocfxSettings(docsets=tuple(docsets or ["."]), content=groups, resource=())
    elif config_file is not None:
        configs.append(config_file)
    if not configs:
        return DocfxSettings(docsets=(".",), content=(GlobGroup(src=".", files=DEFAULT_FILES,
                                                                exclude=DEFAULT_EXCLUDE),), resource=())
    content: list[GlobGroup] = []
    resource: list[GlobGroup] = []
    docsets = []
    bases: list[str] = []
    file_monikers: list[tuple[str, str, str]] = []
    for cfg in configs:
        data = _read_json(root, cfg)
        docset = posixpath.dirname(cfg) or "."
        docsets.append(docset)
        raw_build = data.get("build")
        build: dict[str, Any] = raw_build if isinstance(raw_build, dict) else {}
        raw_groups = build.get("groups")
        ranges = {name: str(g["moniker_range"]) for name, g in raw_groups.items()
                  if isinstance(g, dict) and isinstance(g.get("moniker_range"), str)} \
            if isinstance(raw_groups, dict) else {}
        content += _groups(build.get("content"), docset, ranges)
        resource += _groups(build.get("resource"), docset, ranges)
        file_meta = build.get("fileMetadata")
        by_glob = file_meta.get("monikerRange") if isinstance(file_meta, dict) else None
        if isinstance(by_glob, dict):
            file_monikers += [(docset, g, r) for g, r in by_glob.items() if isinstance(r, str)]
        meta = build.get("globalMetadata")
        if isinstance(meta, dict):
            for key in ("breadcrumb_path", "feedback_product_url", "_baseUrl"):
                value = meta.get(key)
                if isinstance(value, str) and value.startswith("/") and value.count("/") >= 2:
                    bases.append(value.split("/")[1])
    if not content:
        content = [GlobGroup(src=d, files=DEFAULT_FILES, exclude=DEFAULT_EXCLUDE) for d in docsets]
    return DocfxSettings(docsets=tuple(dict.fromkeys(docsets)), content=tuple(content), resource=tuple(resource),
                         base_paths=tuple(dict.fromkeys(bases)), file_monikers=tuple(file_monikers))


def _read_json(root: Path, rel: str) -> dict[str, Any]:
    try:
        data = json.loads((root / rel).read_text(encoding="utf-8-sig"))
    except OSError as err:
        raise ConfigError(f"cannot read DocFX config {rel}: {err}") from err
    except json.JSONDecodeError as err:
        raise ConfigError(f"DocFX config {rel} is not valid JSON: {err}") from err
    except RecursionError as err:  # nested deeper than the decoder goes: it stopped the whole ingest
        raise ConfigError(f"DocFX config {rel} nests too deep to read") from err
    return data if isinstance(data, dict) else {}


# ----------------------------------------------------------------- syntax

# (a title holds no "[" nor line end: "[!INCLUDE [" 10,000 times made each title scan to the end: >20 s)
_INCLUDE = re.compile(r"\[!INCLUDE\s*\[(?P<title>(?:[^\[\]\\\n]|\\.)*)\]\(\s*<?(?P<path>[^)>\s]+)>?(?:\s+\"[^\"]*\")?\s*\)\]",
                      re.IGNORECASE)
_CODE_REF = re.compile(r"\[!code(?:-(?P<lang>[\w+#-]+))?\s*\[[^\]]*\]\(\s*(?P<path>[^)\s?#]+)(?:\?(?P<query>[^)\s#]*))?"
                       r"(?:#(?P<frag>[^)\s]*))?(?:\s+\"[^\"]*\")?\s*\)\]",
                       re.IGNORECASE)
# (the attributes end at a non-blank: a run of blanks is taken whole or not at all, so a long run not
# followed by ':::' is passed over once; '[^\n]*?' then '\s*:::' tried the run from each of its characters)
_IMAGE = re.compile(r":::image\s++(?P<attrs>(?:\S|[^\S\n]++(?=\S))*?)\s*:::", re.IGNORECASE)
_IMAGE_END = re.compile(r":::image-end:::", re.IGNORECASE)
# snippet tag lines (DocFX CodeSnippetExtractor): a comment holding only <name> / </name>, or #region name
_SNIPPET_TAG = re.compile(r"^\s*(?://|#|'|--|;|%|::|REM\b|<!--|/\*|\(\*|\{-)\s*<(?P<end>/?)(?P<name>[\w.-]+)>\s*"
                          r"(?:-->|\*/|\*\)|-\})?\s*$", re.IGNORECASE)
_REGION = re.compile(r"^\s*(?:#|//\s*#?|'\s*#)\s*region\b\s*\"?(?P<name>[\w.-]*)\"?\s*$", re.IGNORECASE)
_END_REGION = re.compile(r"^\s*(?:#|//\s*#?|'\s*#)\s*end\s*region\b.*$", re.IGNORECASE)
_LINE_RANGE = re.compile(r"^L(?P<a>\d+)(?:-L(?P<b>\d+))?$", re.IGNORECASE)
_CODE_EXT = re.compile(r":::code\s+(?P<attrs>[^\n]*?)\s*:::", re.IGNORECASE)
_ATTR = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_VIDEO = re.compile(r"^(?P<lead>[ \t]*>[ \t]*)\[!VIDEO\s+(?P<url>[^\]\s]+)\s*\][ \t]*$", re.IGNORECASE | re.MULTILINE)
_DIV = re.compile(r"^(?P<lead>[ \t]*>[ \t]*)\[!div\b[^\]]*\][ \t]*", re.IGNORECASE | re.MULTILINE)
_MARKER = re.compile(r"^[ \t]*:::[ \t]*(?:row|row-end|column|column-end|zone|zone-end|moniker|moniker-end|"
                     r"no-loc|form)\b[^\n]*$", re.IGNORECASE | re.MULTILINE)
_MARKER_KIND = re.compile(r"^([ \t]*):::[ \t]*([A-Za-z-]+)")
# a tab: a heading whose only content is a link to "#tab/<id>[+<id>...][/<condition>]" (DocFX TabGroupAggregator)
_TAB_HEADING = re.compile(r"^(?P<indent>[ \t]*)#{1,6}[ \t]+\[(?P<label>(?:[^\]\\]|\\.)*)\]"
                          r"\(#tab/[A-Za-z0-9-]+(?:\+[A-Za-z0-9-]+)*(?:/[A-Za-z0-9-]*)?\)(?:[ \t]+#+)?[ \t]*$")
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_FENCE_ANY = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})")
_THEMATIC_BREAK = re.compile(r"^ {0,3}(?P<c>[-*_])(?:[ \t]*(?P=c)){2,}[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})")
# cross references (DocFX "Links and Cross References"): <xref:uid>, <xref href="uid"/>, [](xref:uid), @uid
_XREF_AUTOLINK = re.compile(r"<xref:(?P<uid>[^<>\s]+)>", re.IGNORECASE)  # [^<..]: "<xref:" x10,000 took 6 s
_XREF_TAG = re.compile(r"<xref\s[^>]*?\b(?:href|uid)\s*=\s*(?P<q>[\"'])(?P<uid>.*?)(?P=q)[^>]*?(?:/>|>\s*</xref>|>)",
                       re.IGNORECASE)
# an HTML link to a uid with nothing inside (DocFX makes <a href="xref:uid"> an <xref>, which shows
# its inner HTML, else the name its displayProperty asks for)
_XREF_ANCHOR = re.compile(r"<a\s[^<>]*?\bhref\s*=\s*(?P<q>[\"'])xref:(?P<uid>[^\"'<>]*)(?P=q)[^<>]*?(?:/>|>\s*</a>)",
                          re.IGNORECASE)
_XREF_CLOSE = re.compile(r"</xref\s*>", re.IGNORECASE)
_MAX_XREF_INNER = 2000  # characters searched for an <xref ...>'s closing tag
_XREF_EMPTY_LINK = re.compile(r"(?<!!)\[\s*\]\(\s*<?xref:(?P<uid>[^)\s>]+)>?\s*\)", re.IGNORECASE)
# shorthand (XrefInlineShortParser): @ then a letter, up to whitespace or one of "'<>[]|, or a
# punctuation mark .,;:!?~ followed by one of those or by another punctuation mark; or @"uid" / @'uid'
_XREF_SHORT = re.compile(r"(?<![\\\w@])@(?:(?P<q>[\"'])(?P<quid>[^\"'\n]+?)(?P=q)|"
                         r"(?P<uid>[A-Za-z](?:[^\s\"'<>\[\]|.,;:!?~]|[.,;:!?~](?=[^\s\"'<>\[\]|.,;:!?~]))*))")
_CODE_SPAN = re.compile(r"(`+)(?:.+?)(?<!`)\1(?!`)")
_ANY_FENCE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})")


def _attrs(text: str) -> dict[str, str]:
    return {m.group(1).lower(): m.group(2) if m.group(2) is not None else m.group(3) for m in _ATTR.finditer(text)}


def _md_image(src: str, alt: str, caption: str = "") -> str:
    alt = re.sub(r"\s+", " ", alt).replace("[", "\\[").replace("]", "\\]").strip()
    caption = re.sub(r"\s+", " ", caption).replace("\\", "\\\\").replace('"', '\\"').strip()
    title = f' "{caption}"' if caption else ""
    return f"![{alt}](<{src}>{title})"


def _tab_groups(body: str) -> str:
    """DocFX tabs (``# [Linux](#tab/linux)``, any heading level, dependent tabs
    ``#tab/<id>/<condition>`` too) as tab-set markers (:mod:`murar.ingest.markup.tabs`).

    DocFX renders such a heading as the label of a tab, never as a heading of the
    page; consecutive tabs form one group, which runs to the next thematic break
    (``---``, the tab-end marker, kept as the last tab's content) or the end of its
    container. Headings that are not tabs stay inside the current tab, as DocFX keeps
    them (its ``TabGroupAggregator`` groups the tab headings of any container block
    and closes a group at a thematic break or the container's end). Each tab heading
    becomes a marker and its label a bold line, the way the other markups show tab
    labels. A group inside a list item (Learn's steps: the tab headings indented with
    the item's content) keeps that indentation and ends at its ``---`` or at the first
    line indented less (the item's end); such headings were read as headings of the
    page, so every later section hung under the last tab's label. Fenced code is left
    as it is.
    """
    if "#tab/" not in body:
        return body
    fences = FenceTracker(_FENCE_ANY)
    out: list[str] = []
    group: str | None = None  # the indentation of the open group's tab headings
    prev = ""  # the previous line, "" after a block that a "---" cannot underline

    def close(at: str) -> None:
        out.extend(["", set_close(at), ""])

    for line in body.split("\n"):
        if fences.in_code(line):
            out.append(line)
            prev = ""
            continue
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if group and line.strip() and len(indent.expandtabs(4)) < len(group.expandtabs(4)):
            close(group)  # the list item holding the group has ended
            group = None
        m = _TAB_HEADING.match(line)
        if m and (group is None or len(m.group("indent").expandtabs(4)) >= len(group.expandtabs(4))):
            at = m.group("indent") if group is None else group
            label = m.group("label").strip()
            if group is None:
                out.extend(["", set_open(at)])
                group = at
            out.extend(["", tab_start(label, at), *label_lines(label, at)])
            prev = ""
            continue
        brk = _THEMATIC_BREAK.match(line[len(group):] if group and line.startswith(group) else line)
        # "---" under a paragraph line is a setext heading underline, not a break
        if group is not None and brk and (brk.group("c") != "-" or not prev.strip()) \
                and len(indent.expandtabs(4)) - len(group.expandtabs(4)) <= 3:
            out.append(line)
            close(group)
            group = None
            prev = ""
            continue
        out.append(line)
        prev = "" if _ATX_HEADING.match(line.lstrip(" \t")) else line
    if group is not None:
        out.extend(["", set_close(group)])
    return "\n".join(out)


#: the player of a Microsoft Learn video by its id (pages write ``> [!VIDEO <this>?id=<guid>]`` or the bare id)
LEARN_VIDEO_PLAYER = "https://learn-video.azurefd.net/vod/player?id="
_VIDEO_ID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def _video_embed(url: str) -> str:
    """The HTML of a ``> [!VIDEO url]`` (DocFX "Video": an embedded video player, whatever
    the URL): an ``<iframe>`` of the player; a ``<video>`` when the URL does not name a
    player (Learn's ``go.microsoft.com/fwlink`` and ``aka.ms`` redirects to one), so it is a
    video and not an embed the builder takes for an applet. A bare video id (a GUID,
    ``> [!VIDEO fd4468f4-6d56-...]``) is the Learn video player's
    (:data:`LEARN_VIDEO_PLAYER`), not a file next to the page."""
    if _VIDEO_ID.match(url):  # a Learn video's id: its player (the URL the older pages write out)
        url = LEARN_VIDEO_PLAYER + url
    tag = "iframe" if is_video_embed(url) else "video"
    return f'<{tag} src="{_escape_attr(url)}"></{tag}>'


def _escape_attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _line_prefix(text: str, start: int) -> str:
    """Prefix for the continuation lines of an include that starts at ``start``:
    the quote/indent before it (``"> "``, ``"   "``), spaces past a list marker
    (``"1. "`` -> ``"   "``), or ``""`` for an include inside running text."""
    lead = text[text.rfind("\n", 0, start) + 1:start]
    if not lead.strip(" \t>"):
        return lead
    m = re.fullmatch(r"([ \t>]*)([-*+]|\d+[.)])([ \t]+)", lead)
    if m:
        return m.group(1) + " " * (len(m.group(2)) + len(m.group(3)))
    return ""


def code_snippet(code: str, *, name: str = "", ranges: str = "", start: str = "", end: str = "") -> str | None:
    """The part of the source ``code`` a DocFX code snippet asks for ("Code Snippet":
    ``#tag``/``?name=``/``id``, ``#L12-L16``, ``?range=2-5,9``/``range``,
    ``?start=&end=``); ``code`` itself when nothing is asked; ``None`` when the
    named snippet is not in the file.

    A named snippet runs between comment lines ``<name>`` and ``</name>`` (``//``,
    ``#``, ``'``, ``--``, ``<!-- -->``, ``/* */`` ...) or ``#region name`` and
    its ``#endregion``; names match without case; the tag lines of other snippets
    inside it are left out and its common indentation is removed (as DocFX's
    ``CodeSnippetExtractor`` does). Line numbers count from 1; ranges are clamped
    to the file's lines, only the first 1000 comma-separated parts are read and a
    snippet holds at most 100,000 lines. Never raises."""
    lines = code.split("\n")
    if name:
        wanted = name.strip().lower()
        first = last = -1
        regions: list[str] = []
        for i, line in enumerate(lines):
            tag = _SNIPPET_TAG.match(line)
            region = None if tag else _REGION.match(line)
            if tag and tag.group("name").lower() == wanted:
                if not tag.group("end") and first < 0:
                    first = i + 1
                elif tag.group("end") and first >= 0:
                    last = i
                    break
            elif region:
                regions.append(region.group("name").lower())
                if regions[-1] == wanted and first < 0:
                    first = i + 1
            elif _END_REGION.match(line) and regions and regions.pop() == wanted and first >= 0:
                last = i
                break
        if first < 0:
            return None
        body = [ln for ln in lines[first:last if last >= 0 else len(lines)]
                if not (_SNIPPET_TAG.match(ln) or _REGION.match(ln) or _END_REGION.match(ln))]
        return _dedent(body)
    spans: list[tuple[int, int]] = []
    if ranges:
        for part in ranges.split(",")[:_MAX_RANGE_PARTS]:
            a, _, b = part.strip().partition("-")
            low = bounded_int(a) if a.strip().isdigit() else None
            if low is not None:
                high = bounded_int(b) if b.strip().isdigit() else None
                spans.append((low, high if high is not None else (len(lines) if b == "" and "-" in part else low)))
    elif start or end:
        begin = bounded_int(start) if start.isdigit() else None
        stop = bounded_int(end) if end.isdigit() else None
        spans.append((1 if begin is None else begin, len(lines) if stop is None else stop))
    if all(lo > hi for lo, hi in spans):
        return code
    picked: list[int] = []
    for lo, hi in spans:  # clamped to the file: "?range=1-999999999" is the whole file, not a billion numbers
        picked += range(max(lo, 1), min(hi, len(lines)) + 1)
        if len(picked) > _MAX_SNIPPET_LINES:
            picked = picked[:_MAX_SNIPPET_LINES]
            break
    return _dedent([lines[n - 1] for n in picked])


_MAX_RANGE_PARTS = 1000  # comma-separated parts of one ``range`` read
_MAX_SNIPPET_LINES = 100_000  # lines one snippet may pick (repeated ranges count again)


def _dedent(lines: list[str]) -> str:
    width = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
    return "\n".join(ln[width:] for ln in lines).strip("\n")


def xref_display(ref: str, titles: dict[str, str]) -> str:
    """The text DocFX shows for the cross reference ``ref`` (a uid with an optional
    ``#anchor`` and ``?text=``/``displayProperty=`` query; DocFX "Links and Cross
    References"): the ``text`` option; else the title of the docset page with that
    uid (``titles``: uid -> title); else, for an API uid, its ``name`` (the last
    segment: ``System.String.Format*`` -> ``Format``, generic arity and overload
    marks dropped, parameters by their short names), its ``fullName`` or
    ``nameWithType`` when ``displayProperty`` asks for it; else the uid. Never raises."""
    uid, _, query = ref.partition("?")
    options = {k.lower(): v[0] for k, v in parse_qs(query).items() if v}
    if options.get("text"):
        return options["text"].strip()
    uid = unquote(uid).strip()
    key = uid.split("#", 1)[0]
    if key in titles:
        return titles[key]
    head, _, params = key.rstrip("*").partition("(")
    prop = options.get("displayproperty", "").lower()
    parts = [re.sub(r"`+\d+$", "", p) for p in head.split(".") if p]
    if not parts:
        return uid
    shown = ".".join(parts) if prop == "fullname" else ".".join(parts[-2:]) if prop == "namewithtype" else parts[-1]
    if params:
        names = [re.sub(r"(?<=\w)`+\d+$", "", a.strip().split(".")[-1]) for a in params.rstrip(")").split(",")
                 if a.strip()]
        shown += f"({', '.join(names)})"
    return shown


def _xref_tags(part: str, titles: dict[str, str]) -> str:
    """``<xref href="uid"/>`` (or ``uid=``) as the text DocFX shows: the tag's inner
    HTML when it has any (``<xref href="uid">the widget</xref>`` reads 'the widget',
    XRefDetails.InnerHtml before the name), else :func:`xref_display` of the uid."""
    if "<xref" not in part.lower():
        return part
    out: list[str] = []
    pos = 0
    for m in _XREF_TAG.finditer(part):
        if m.start() < pos:  # inside an <xref>...</xref> already read
            continue
        out.append(part[pos:m.start()])
        pos = m.end()
        shown = xref_display(html.unescape(m.group("uid")), titles)
        if not m.group(0).endswith("/>") and not _XREF_CLOSE.search(m.group(0)):
            close = _XREF_CLOSE.search(part, pos, pos + _MAX_XREF_INNER)
            if close and "<xref" not in part[pos:close.start()].lower():
                inner = part[pos:close.start()]
                pos = close.end()
                if inner.strip():
                    out.append(inner)
                    continue
        out.append(_md_text(shown))
    out.append(part[pos:])
    return "".join(out)


def _md_text(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>])", r"\\\1", text)


def _outside_code(line: str, rewrite: Any) -> str:
    """``rewrite`` applied to the parts of ``line`` outside inline code spans."""
    out: list[str] = []
    pos = 0
    for m in _CODE_SPAN.finditer(line):
        out.extend([rewrite(line[pos:m.start()]), m.group(0)])
        pos = m.end()
    out.append(rewrite(line[pos:]))
    return "".join(out)


_ZONE_PIVOT = re.compile(r"^[ \t]*:::[ \t]*zone[ \t]+pivot[ \t]*=[ \t]*\"[^\"]*\"", re.IGNORECASE | re.MULTILINE)
_ZONE_START = re.compile(r"^(?P<indent>[ \t]*):::[ \t]*zone[ \t]+pivot[ \t]*=[ \t]*\"(?P<ids>[^\"]*)\"[^\n]*$",
                         re.IGNORECASE)
_ZONE_END = re.compile(r"^[ \t]*:::[ \t]*zone-end\b", re.IGNORECASE)


def _inline_include(body: str, start: int, end: int) -> bool:
    """True when the ``[!INCLUDE]`` at ``body[start:end]`` is inline: text precedes it
    on its line (besides quote and list markers) or follows it. DocFX parses such a
    file as inline content (its InclusionInline), so the spaces and line ends around
    the file's text ("`` Transact-SQL ``") are not part of the sentence."""
    line_start = body.rfind("\n", 0, start) + 1
    line_end = body.find("\n", end)
    after = body[end:] if line_end < 0 else body[end:line_end]
    return bool(after.strip()) or (bool(body[line_start:start].strip(" \t>")) and not _line_prefix(body, start))


def _indent_block(block: str, body: str, start: int) -> str:
    """A code block that replaces a directive at ``start`` of ``body``, its lines
    indented like the directive's line (a list item's or quote's prefix,
    :func:`_line_prefix`), so a snippet inside a numbered step stays in the step and
    the step's next paragraph is not read as an indented code block."""
    prefix = _line_prefix(body, start)
    if not block or not prefix:
        return block
    lines = block.strip("\n").split("\n")
    return "\n" + "\n".join((prefix + line) if line else prefix.rstrip() for line in lines) + "\n"


_NO_LOC = re.compile(r""":::no-loc\s+text\s*=\s*(?:"(?P<q>(?:[^"\\\n]|\\.)*)"|(?P<bare>[^\s:]+))\s*:::""", re.IGNORECASE)


def _no_loc(body: str) -> str:
    """Learn's ``:::no-loc text="Program.cs":::`` (a string kept out of localization,
    written inline) as its text (``\\"`` unescaped), outside fenced code and code spans."""
    if ":::no-loc" not in body.lower():
        return body

    def text(m: re.Match[str]) -> str:
        value = m.group("q") if m.group("q") is not None else m.group("bare")
        return _md_text(re.sub(r"\\(.)", r"\1", value))

    fences = FenceTracker(_FENCE_ANY)
    return "\n".join(line if fences.in_code(line) else _outside_code(line, lambda part: _NO_LOC.sub(text, part))
                     for line in body.split("\n"))


# a Markdown image (Markdig MediaLinks, on in DocFX's pipeline): ![alt](target "title")
_MD_IMAGE = re.compile(r'!\[(?P<alt>(?:[^\[\]\\\n]|\\.)*)\]\(\s*<?(?P<src>[^)\s>]+)>?(?:\s+"[^"\n]*")?\s*\)')


def _media_links(text: str) -> str:
    """Markdown images that Markdig's MediaLinks extension (in DocFX's Markdown
    pipeline, ``UseDocfxExtensions``) renders as players, written as the HTML it
    renders: a video file (``![Demo](media/run.mp4)``, by extension) as ``<video>``,
    a YouTube or Vimeo link as an ``<iframe>``; the alt text is the title. Other
    images are left as written."""
    def media(m: re.Match[str]) -> str:
        src = m.group("src")
        title = _escape_attr(re.sub(r"\\(.)", r"\1", m.group("alt")).strip())
        if suffix_of(split_link(src)[0]) in VIDEO_SUFFIXES:
            return f'<video src="{_escape_attr(src)}" title="{title}"></video>'
        if is_remote(src) and _HOSTED_VIDEO.search(src):
            return f'<iframe src="{_escape_attr(src)}" title="{title}"></iframe>'
        return m.group(0)

    return _MD_IMAGE.sub(media, text)


_HOSTED_VIDEO = re.compile(r"^https?://(?:www\.|m\.)?(?:youtube\.com/watch\?|youtu\.be/|vimeo\.com/\d)", re.IGNORECASE)


def _drop_markers(body: str) -> str:
    """The ``:::row:::``/``:::zone:::``/``::: moniker`` ... marker lines emptied,
    outside fenced code (a Markdown example of them in a code block stays).

    The content of a ``:::column:::`` is Markdown blocks however deep it is indented
    (the Learn "Columns" syntax indents it under the column marker): DocFX's
    NestedColumnParser opens the column as a container and its ``:::image`` lines
    parse at any indentation, so a column's lines are moved back to the indentation
    of their ``:::row:::`` (inside a list step, the step's), keeping their relative
    indentation; an image indented six spaces in a column was read as code."""
    if ":::" not in body:
        return body
    fences = FenceTracker(_FENCE_ANY)
    out: list[str] = []
    row_indent: str | None = None
    column: list[str] | None = None
    column_base = ""
    for line in body.split("\n"):
        if fences.in_code(line) or not _MARKER.fullmatch(line):
            (column if column is not None else out).append(line)
            continue
        kind = _MARKER_KIND.match(line)
        word = kind.group(2).lower() if kind else ""
        if column is not None and word in ("column", "column-end", "row", "row-end"):
            out.extend(_reindented(column, column_base))
            column = None
        if word == "row":
            row_indent = kind.group(1) if kind else ""
        elif word == "row-end":
            row_indent = None
        elif word == "column":
            column = []
            column_base = row_indent if row_indent is not None else (kind.group(1) if kind else "")
        out.append("")
    if column is not None:
        out.extend(_reindented(column, column_base))
    return "\n".join(out)


_MONIKER_START = re.compile(r"^[ \t>]*:::[ \t]*moniker[ \t]+range[ \t]*=[ \t]*(?:\"(?P<a>[^\"]*)\"|'(?P<b>[^']*)')[ \t]*(?::::)?[ \t]*$",
                            re.IGNORECASE)
_MONIKER_END = re.compile(r"^[ \t>]*:::[ \t]*moniker-end[ \t]*(?::::)?[ \t]*$", re.IGNORECASE)


def _range_texts(own: Any, text: str) -> list[str]:
    """The moniker ranges a file writes: its own range (``own``: its front matter's
    ``monikerRange``, a Learn YAML page's ``metadata.monikerRange``) and its ``::: moniker
    range`` zones, read as :func:`_moniker_zones` reads them (outside fenced code, where a
    range is an example)."""
    found = [own] if isinstance(own, str) and own.strip() else []
    if ":::" in text:
        fences = FenceTracker(_FENCE_ANY)
        for line in text.split("\n"):
            if not fences.in_code(line) and (m := _MONIKER_START.match(line)):
                found.append(m.group("a") if m.group("a") is not None else m.group("b") or "")
    return found


def _learn_range(text: str) -> Any:
    """A Learn YAML page's ``metadata.monikerRange`` (its front matter once written as
    Markdown, :func:`~murar.ingest.sites._learn_yaml.learn_markdown`); None when it has none."""
    if "monikerRange" not in text:
        return None
    try:
        data = load_yaml_safely(text, max_chars=MAX_FAQ_CHARS)
    except FrontMatterError:
        return None
    meta = data.get("metadata") if isinstance(data, dict) else None
    return meta.get("monikerRange") if isinstance(meta, dict) else None


def _moniker_zones(body: str, ranges: list[str], page_range: str | None, warnings: list[str] | None = None) -> str:
    """``body`` as a reader of the page's default view sees it: the ``::: moniker
    range="..."`` zones whose range leaves out the default version (see
    :mod:`murar.ingest.sites._monikers`; ``ranges`` are the page's config ranges) are
    removed, marker lines and all; the other zones stay, for :func:`_drop_markers` to
    unwrap. Zones do not nest (Learn); fenced code is left alone. A hidden zone with no
    ``::: moniker-end`` runs to the end of the page, as DocFX's ``TripleColonBlockParser``
    reads it, with its warning (``No "::: moniker-end" found``) in ``warnings``."""
    lines = body.split("\n")
    zone_ranges: list[str] = []
    fences = FenceTracker(_FENCE_ANY)
    for line in lines:
        if not fences.in_code(line) and (m := _MONIKER_START.match(line)):
            zone_ranges.append(m.group("a") if m.group("a") is not None else m.group("b") or "")
    if not zone_ranges:
        return body
    defaults = default_view([*ranges, *zone_ranges], page_range)
    out: list[str] = []
    hidden = False
    opened = 0  # the line of the zone being hidden
    fences = FenceTracker(_FENCE_ANY)
    for n, line in enumerate(lines):
        if fences.in_code(line):
            if not hidden:
                out.append(line)
            continue
        m = _MONIKER_START.match(line)
        if m:
            hidden = not zone_shown(m.group("a") if m.group("a") is not None else m.group("b") or "", defaults)
            if hidden:
                opened = n
                out.append("")
                continue
        elif hidden and _MONIKER_END.match(line):
            hidden = False
            out.append("")
            continue
        if not hidden:
            out.append(line)
    if hidden and warnings is not None:
        warnings.append(_unclosed_zone("moniker", opened))
    return "\n".join(out)


def _unclosed_zone(name: str, line: int) -> str:
    """The warning for a hidden ``::: name`` zone opened on 0-based ``line`` that runs to the end."""
    return (f'::: {name} on line {line + 1} has no "::: {name}-end": the rest of the page is in the zone '
            f"and hidden (DocFX: blocks should be explicitly closed)")


_TARGET_ZONE = re.compile(r"^[ \t>]*:::[ \t]*zone\b(?=[^\n]*\btarget[ \t]*=[ \t]*[\"']?(?P<target>[\w-]*))[^\n]*$",
                          re.IGNORECASE)
_ANY_ZONE_END = re.compile(r"^[ \t>]*:::[ \t]*zone-end\b[^\n]*$", re.IGNORECASE)


def _target_zones(body: str, warnings: list[str] | None = None) -> str:
    """``body`` as the Learn site shows it: a ``::: zone target="chromeless"`` (shown
    when the page is embedded in a product, such as the Azure portal) or
    ``target="pdf"`` (the PDF export) zone is removed up to its ``::: zone-end``;
    ``target="docs"`` zones stay for :func:`_drop_markers` to unwrap. DocFX's
    ``ZoneExtension`` permits these three targets and writes ``data-target``; zones do
    not nest. Fenced code is left alone. A hidden zone with no ``::: zone-end`` runs to
    the end of the page, with DocFX's warning in ``warnings``."""
    if "target" not in body:
        return body
    out: list[str] = []
    hidden = False
    opened = 0  # the line of the zone being hidden
    fences = FenceTracker(_FENCE_ANY)
    lines = body.split("\n")
    for n, line in enumerate(lines):
        if fences.in_code(line):
            if not hidden:
                out.append(line)
            continue
        m = _TARGET_ZONE.match(line)
        if m and m.group("target").lower() != "docs":
            hidden, opened = True, n
            out.append("")
            continue
        if hidden:
            if _ANY_ZONE_END.match(line):
                hidden = False
                out.append("")
            continue
        out.append(line)
    if hidden and warnings is not None:
        warnings.append(_unclosed_zone("zone", opened))
    return "\n".join(out)


def _reindented(lines: list[str], base: str) -> list[str]:
    """``lines`` with their common indentation replaced by ``base`` (blank lines emptied)."""
    expanded = [ln.expandtabs(4) for ln in lines]
    depth = min((len(ln) - len(ln.lstrip(" ")) for ln in expanded if ln.strip()), default=0)
    return [base + ln[depth:] if ln.strip() else "" for ln in expanded]


def _read_pivots(path: Path) -> dict[str, str] | None:
    """pivot id -> title of a zone pivot definition file; ``None`` when it is missing
    or unreadable (``{}`` when it parses but defines no pivot)."""
    if not path.is_file():
        return None
    try:
        data = load_data_file(path)
    except (OSError, ValueError):
        return None
    titles: dict[str, str] = {}
    groups = data.get("groups")
    for group in groups if isinstance(groups, list) else []:
        pivots = group.get("pivots") if isinstance(group, dict) else None
        for pivot in pivots if isinstance(pivots, list) else []:
            if isinstance(pivot, dict) and isinstance(pivot.get("id"), str):
                titles[pivot["id"]] = str(pivot.get("title") or pivot["id"]).strip()
    return titles


def _zone_pivots(body: str, titles: dict[str, str]) -> str:
    """Learn zone pivots (``::: zone pivot="a,b"`` ... ``::: zone-end``; one pivot's
    zones shown at a time, chosen at the top of the page) as tab-set markers
    (:mod:`murar.ingest.markup.tabs`): each zone is a tab labelled with its pivots'
    titles (``titles``, else the ids), zones that follow one another (only blank
    lines between) form one set; a bold label line starts each tab, as for DocFX
    tabs. Zones with ``target=`` and the other markers are left to the marker
    removal. Fenced code is left alone."""
    lines = body.split("\n")
    fences = FenceTracker(_FENCE_ANY)
    out: list[str] = []
    open_indent: str | None = None
    for i, line in enumerate(lines):
        if fences.in_code(line):
            out.append(line)
            continue
        start = _ZONE_START.match(line)
        if start:
            indent = start.group("indent")
            ids = [x.strip() for x in start.group("ids").split(",") if x.strip()]
            label = " / ".join(titles.get(x, x) for x in ids) or "Pivot"
            if open_indent is None:
                out.extend(["", set_open(indent)])
                open_indent = indent
            out.extend(["", tab_start(label, indent), *label_lines(label, indent)])
            continue
        if _ZONE_END.match(line) and open_indent is not None:
            following = next((ln for ln in lines[i + 1:] if ln.strip()), "")
            if not _ZONE_START.match(following):
                out.extend(["", set_close(open_indent), ""])
                open_indent = None
            continue
        out.append(line)
    if open_indent is not None:
        out.extend(["", set_close(open_indent)])
    return "\n".join(out)


def _include_targets(text: str) -> list[str]:
    """The paths of the ``[!INCLUDE]`` directives of ``text`` outside fenced code (an
    include written as an example in a code block is not followed, as DocFX)."""
    if _INCLUDE.search(text) is None:
        return []
    found: list[str] = []

    def collect(part: str) -> str:
        found.extend(m.group("path") for m in _INCLUDE.finditer(part))
        return part

    outside_fences(text, collect)
    return found


class DocfxSite:
    """A DocFX / Microsoft Learn docset (see module doc). The constructor does no I/O."""

    #: a heading inside a tab is part of that tab (DocFX "Tabs": the group holds everything up to
    #: its ``---``), so the next tab's text returns to the section the group stands in
    #: (:meth:`murar.ingest.markup.builder.PageBuilder.tab`)
    tabs_hold_headings = True

    def __init__(self, config: SiteConfig, settings: DocfxSettings) -> None:
        self._config = config
        self._settings = settings
        self._root = config.root
        self._included: frozenset[str] | None = None
        self._uids: dict[str, str] | None = None
        #: docset -> the numberless monikers its files bound from above and none from below (its newest)
        self._tops: dict[str, frozenset[str]] = {}
        #: docset -> the numberless moniker its ranges put above a numbered line without ``< name``
        #: (:func:`~murar.ingest.sites._monikers.implied_top`): the view of the pages whose range holds it
        self._implied: dict[str, str] = {}
        self._pivot_files: dict[str, dict[str, str] | None] = {}
        self._any_case = NameMatcher(config.root, str.lower)  # DocFX v3 matches a file link in any case
        self._shown: dict[str, list[GlobGroup]] = {}  # docset -> its content groups in the default view

    @property
    def config(self) -> SiteConfig:
        return self._config

    @property
    def settings(self) -> DocfxSettings:
        return self._settings

    def _docset_of(self, rel: str) -> str | None:
        """The docset folder ``rel`` belongs to: the deepest docset holding it, else the
        docset of a ``build.content``/``resource`` group whose ``src`` holds it (DocFX
        "docfx.json": ``src`` is relative to docfx.json and may leave its folder,
        ``"src": "../articles"``); ``None`` when neither does."""
        best: str | None = None
        for ds in self._settings.docsets:
            if is_within(rel, ds) and (best is None or len(ds) > len(best)):
                best = ds
        if best is None:
            for group in (*self._settings.content, *self._settings.resource):
                if group.src not in (".", "") and not group.src.startswith("../") and is_within(rel, group.src):
                    return group.docset
        return best

    def _scan_folders(self) -> list[str]:
        """The docset folders and the content ``src`` folders outside them."""
        folders = list(self._settings.docsets)
        for group in self._settings.content:
            if group.src.startswith("../") or any(is_within(group.src, f) for f in folders):
                continue
            folders.append(group.src)
        return folders

    def included_files(self) -> frozenset[str]:
        """Files pulled in by ``[!INCLUDE]`` from any Markdown file or Learn YAML page
        (:data:`~murar.ingest.sites._learn_yaml.PAGE_SCHEMAS`) of the docsets (scanned once)."""
        if self._included is None:
            self._scan()
        assert self._included is not None
        return self._included

    def uid_titles(self) -> dict[str, str]:
        """uid -> title of the docset's Markdown files with a ``uid`` in their front
        matter (the title: front matter ``title``, else the first ``# `` heading,
        else the uid); scanned once with :meth:`included_files`."""
        if self._uids is None:
            self._scan()
        assert self._uids is not None
        return self._uids

    def _scan(self) -> None:
        found: set[str] = set()
        uids: dict[str, str] = {}
        above: dict[str, set[str]] = {}
        below: dict[str, set[str]] = {}
        written: dict[str, list[str]] = {}  # docset -> every range its files write
        for ds in self._scan_folders():
            for rel in os_walk_files(self._root, ds, frozenset({*PAGE_MARKUP, ".yml", ".yaml"})):
                if suffix_of(rel) in (".yml", ".yaml") and not self._learn_page(rel):
                    continue  # a TOC, landing page or API reference: no includes of page text (first line read)
                try:  # as the page itself is read: a UTF-16 page by its byte-order mark (size-capped)
                    text = read_include(self._root / rel, label=rel)
                except OSError:
                    continue
                for target in _include_targets(text):
                    res = self.resolve_include(target, page_rel=rel)
                    if res.rel_path and not res.problem:
                        found.add(res.rel_path)
                docset = self._docset_of(rel) or "."
                meta, body = (split_front_matter(text.lstrip("\ufeff"))[:2] if text.lstrip("\ufeff").startswith("---")
                              else ({}, text))
                own = _learn_range(text) if suffix_of(rel) in (".yml", ".yaml") else meta.get("monikerRange")
                for rng in _range_texts(own, body):
                    written.setdefault(docset, []).append(rng)
                    up, down = numberless_bounds(rng)
                    above.setdefault(docset, set()).update(up)
                    below.setdefault(docset, set()).update(down)
                if meta:
                    uid = meta.get("uid")
                    if isinstance(uid, (str, int, float)) and str(uid).strip():
                        h1 = re.search(r"^ {0,3}#[ \t]+(.+?)[ \t#]*$", body, re.MULTILINE)
                        title = meta.get("title") if isinstance(meta.get("title"), str) else None
                        uids.setdefault(str(uid).strip(), (title or (h1.group(1) if h1 else "") or str(uid)).strip())
        self._included = frozenset(found)
        self._uids = uids
        self._tops = {ds: frozenset(tops - below.get(ds, set())) for ds, tops in above.items()}
        for ds, texts in written.items():
            # no file writes ``< name``, but ``<= vs-2022`` beside the docset's one numberless
            # moniker (``visualstudio``) puts that one above the line (_monikers.implied_top)
            if not self._tops.get(ds) and (top := implied_top(texts)):
                self._implied[ds] = top

    def classify(self, rel: str) -> FileClass:
        """Pages: Markdown selected by a ``build.content`` group (pulled in by
        ``[!INCLUDE]`` or not: DocFX builds every file its content globs select);
        includes: other Markdown pulled in by ``[!INCLUDE]`` or under an
        ``includes/`` folder; a Learn structured YAML page (``.yml`` starting ``### YamlMime:``
        ``FAQ``/``ModuleUnit``/``Module``/``Tutorial``/``Architecture``, selected by the
        content globs) is a Markdown page; other YAML
        (``toc.yml``, landing pages), Markdown TOCs (a file named ``toc.md`` in
        any case: DocFX's ``TocFileType.Markdown``) and unselected Markdown:
        excluded; images and videos: assets."""
        suffix = suffix_of(rel)
        if suffix in IMAGE_SUFFIXES or suffix in VIDEO_SUFFIXES:
            return FileClass(role=FileRole.ASSET)
        if self._docset_of(rel) is None:
            return FileClass(role=FileRole.EXCLUDED, reason="outside the DocFX docset")
        markup = PAGE_MARKUP.get(suffix)
        if suffix in (".yml", ".yaml") and self._learn_page(rel) and any(g.matches(rel) for g in self._settings.content):
            return FileClass(role=FileRole.PAGE, markup="markdown")  # Learn FAQ, training, AAC article
        if suffix in (".yml", ".yaml", ".json"):
            return FileClass(role=FileRole.EXCLUDED, reason="DocFX YAML/JSON (TOC, metadata or landing page)")
        if posixpath.basename(rel).lower() == MARKDOWN_TOC:
            return FileClass(role=FileRole.EXCLUDED, markup="markdown", reason="DocFX Markdown TOC (toc.md)")
        if markup is None:
            return FileClass(role=FileRole.UNKNOWN, reason=f"unsupported file type {suffix or '(none)'}")
        # a file the content globs select is built (published) by DocFX even when a page includes it
        group = next((g for g in self._settings.content if g.matches(rel)), None)
        if group is not None:
            other = self._default_version_of(rel, group)
            if other:
                return FileClass(role=FileRole.EXCLUDED, markup=markup,
                                 reason=f"another version ({group.monikers}) of {other}, the page of the default view")
            return FileClass(role=FileRole.PAGE, markup=markup)
        if "includes" in rel.split("/")[:-1] or rel in self.included_files():
            return FileClass(role=FileRole.INCLUDE, markup=markup)
        return FileClass(role=FileRole.EXCLUDED, markup=markup, reason="not selected by docfx.json build.content")

    def _learn_page(self, rel: str) -> bool:
        """True when the YAML file ``rel`` declares a Learn schema that is a page of text
        (``### YamlMime:FAQ``, ``ModuleUnit``, ``Module``, ``Tutorial`` or ``Architecture`` first,
        :mod:`murar.ingest.sites._learn_yaml`)."""
        try:
            with (self._root / rel).open("rb") as fh:
                head = fh.read(1000).decode("utf-8", errors="replace")
        except OSError:
            return False
        return yaml_mime(head) in PAGE_SCHEMAS

    def _default_version_of(self, rel: str, group: GlobGroup) -> str | None:
        """The file that the default view publishes at ``rel``'s URL when ``rel`` is a
        version it does not show: DocFX content ``groups`` with a ``moniker_range``
        publish the versions of one page from different folders (``"src":
        "./vs-2015"`` for ``vs-2015``, ``"src": "./"`` for ``>= vs-2019``) at the same
        URL, and a reader without ``?view=`` gets the newest
        (:mod:`murar.ingest.sites._monikers`). ``None`` when ``rel``'s group is in the
        default view, its range cannot be ordered, or no other group publishes that URL
        (the page then exists in its own versions only, and Learn shows it)."""
        if not group.monikers:
            return None
        shown = self._shown_groups(group.docset)
        if any(g is group for g in shown):
            return None
        inner = rel[len(group.src) + 1:] if group.src not in ("", ".") else rel
        for g in shown:
            if g.dest != group.dest:  # another output folder: another URL, both published
                continue
            twin = safe_join(g.src, inner) if g.src not in ("", ".") else inner
            if twin and twin != rel and g.matches(twin) and (self._root / twin).is_file():
                return twin
        return None

    def _shown_groups(self, docset: str) -> list[GlobGroup]:
        """The content groups of ``docset`` in its default view: without a
        ``moniker_range``, or with one the default view shows. Worked out once per docset
        (for every file, 400 groups x 500 files took 9 s)."""
        if docset not in self._shown:
            groups = [g for g in self._settings.content if g.docset == docset]
            defaults = default_view([g.monikers for g in groups if g.monikers])
            self._shown[docset] = [g for g in groups if not g.monikers or zone_shown(g.monikers, defaults)]
        return self._shown[docset]

    # ------------------------------------------------------------ resolution
    def resolve_asset(self, link: str, *, page_rel: str) -> ResolvedLink:
        """Relative to the file (DocFX), ``~/`` from the docset root, root-relative
        as a Learn URL ``/<docset base path>/<path>``, or as a site URL of a
        ``build.resource``/``content`` group with a ``dest`` (``/<dest>/<p>`` is
        ``<src>/<p>``: docfx.json "src"/"dest"). Never raises."""
        link = link.strip()
        if not link:
            return ResolvedLink(problem="empty link")
        if is_remote(link):
            if link.lower().startswith("data:"):
                return ResolvedLink(problem="inline data URI image ignored")
            return ResolvedLink(url=link)
        path, _ = split_link(link)
        if not path:
            return ResolvedLink(problem="link without a path")
        # DocFX splits a file path at '\\' as at '/' (Docfx.Common RelativePath), so a link written on
        # Windows, '..\\compositor\\media\\asset.png' (CommonMark keeps those backslashes), is a file
        path = path.replace("\\", "/")
        docset = self._docset_of(page_rel) or "."
        if path.startswith("~/"):
            cands = [safe_join(docset, path[2:])]
        elif path.startswith("/"):
            parts = path.lstrip("/").split("/")
            cands = []
            base_first = parts[0] in self._settings.base_paths or not (self._root / docset / parts[0]).is_dir()
            if base_first:
                cands.append(safe_join(docset, *parts[1:]))
            cands += [safe_join(docset, *parts), safe_join(*parts)]
            if base_first:
                # a Learn base path is often several segments deep (/azure/devops/<path in docset>, set in
                # the publishing service, not in the repository): the file is then a shorter tail of the URL
                cands += [safe_join(docset, *parts[k:]) for k in range(2, min(len(parts), _MAX_BASE_DEPTH + 1))]
            # a site URL: a resource/content group writes <src>/<p> at /<dest>/<p> (docfx.json "dest")
            site_path = "/".join(parts[1:]) if parts[0] in self._settings.base_paths else "/".join(parts)
            for group in (*self._settings.resource, *self._settings.content):
                if group.dest and is_within(site_path, group.dest):
                    cands.append(safe_join(group.src, site_path[len(group.dest):].lstrip("/")))
        else:
            cands = [safe_join(posixpath.dirname(page_rel), path)]
        found = lookup(self._root, cands, link=link)
        if found.problem and found.rel_path is not None:
            # DocFX resolves a file link without regard to case (v3, Learn's build: "media/ImAGe.PNG"
            # is media/image.png; v2 on Windows' file system): "dialog-v2.PNG" names dialog-v2.png
            for cand in cands:
                other = self._any_case.find(cand)
                if other is not None:
                    return lookup(self._root, [other], link=link)
        return found

    def resolve_include(self, target: str, *, page_rel: str) -> ResolvedLink:
        """``[!INCLUDE]`` targets resolve like links, relative to the including file."""
        return self.resolve_asset(target, page_rel=page_rel)

    # ------------------------------------------------------------ preprocess
    def preprocess(self, text: str, *, page_rel: str, warnings: list[str] | None = None) -> str:
        """DocFX Markdown extensions to CommonMark (see module doc); includes inlined
        with their links rebased to ``page_rel``; a Learn structured YAML page (FAQ,
        training unit or module, Architecture Center article) first written as its Markdown page
        (:func:`~murar.ingest.sites._learn_yaml.learn_markdown`).
        Problems go to ``warnings``.
        Never raises."""
        sink = warnings if warnings is not None else []
        if suffix_of(page_rel) in (".yml", ".yaml"):
            text = learn_markdown(yaml_mime(text) or "", text, sink)
        meta, body, _ = split_front_matter(text)
        head = text[: len(text) - len(body)]
        pivots = self._pivot_titles(page_rel, meta) if "zone" in body.lower() else {}
        own = meta.get("monikerRange")
        versions = self._config_ranges(page_rel, own if isinstance(own, str) else None)
        return head + self._rewrite(body, page_rel=page_rel, file_rel=page_rel, warnings=sink, depth=0,
                                    stack=(page_rel,), pivots=pivots, versions=versions)

    def _config_ranges(self, page_rel: str, own: str | None) -> tuple[list[str], str | None]:
        """The moniker ranges of the page's config (every ``groups`` ``moniker_range`` and
        ``fileMetadata.monikerRange`` of its docset) and the page's own range: front matter
        ``monikerRange`` (``own``), else the last ``fileMetadata.monikerRange`` glob
        matching it, else the ``moniker_range`` of its content groups (of each group that
        selects it, joined by ``||``)."""
        docset = self._docset_of(page_rel) or "."
        ranges = [g.monikers for g in self._settings.content if g.monikers and g.docset == docset]
        # the order of monikers is the docset's (one list in Learn's moniker service): a numberless one
        # that a file of the docset puts others below (``< azure-devops``) is the newest on every page
        if self._included is None:
            self._scan()
        ranges += [f"< {top}" for top in sorted(self._tops.get(docset, ()))]
        page = own
        for ds, pattern, rng in self._settings.file_monikers:
            if ds != docset:
                continue
            ranges.append(rng)
            inner = page_rel[len(ds) + 1:] if ds not in ("", ".") else page_rel
            if own is None and glob_match(inner, pattern, DOCFX):
                page = rng
        if page is None:
            # a file several groups select is built in each of them (one output per group): it
            # exists in every one of their ranges, and the default view is the newest of those
            mine = dict.fromkeys(g.monikers for g in self._settings.content if g.monikers and g.matches(page_rel))
            page = " || ".join(mine) if mine else None
        if (top := self._implied.get(docset)) and (page is None or holds_top(page, top)):
            # ``visualstudio`` beside ``<= vs-2022``: the newest, unless the page's own range leaves it
            # out (``monikerRange: vs-2022``), whose view is then its line's newest release
            ranges.append(f"< {top}")
        return [*ranges, *([own] if own else [])], page

    def _pivot_titles(self, page_rel: str, meta: dict[str, Any]) -> dict[str, str]:
        """pivot id -> title from the page's zone pivot definition file: front matter
        ``zone_pivot_group_filename`` (from the page's folder, else the docset root),
        else ``zone-pivot-groups.yml``/``.json`` at the docset root (Learn "zone
        pivots"; ``groups[].pivots[].id``/``title``). ``{}`` when none is found."""
        docset = self._docset_of(page_rel) or "."
        named = meta.get("zone_pivot_group_filename")
        cands = [safe_join(posixpath.dirname(page_rel), named), safe_join(docset, named)] if isinstance(named, str) \
            else []
        cands += [safe_join(docset, n) for n in ("zone-pivot-groups.yml", "zone-pivot-groups.json")]
        for rel in cands:
            if not rel or rel.startswith("../") or rel == "..":
                continue
            if rel not in self._pivot_files:
                self._pivot_files[rel] = _read_pivots(self._root / rel)
            if self._pivot_files[rel] is not None:
                return self._pivot_files[rel] or {}
        return {}

    def _rewrite(self, body: str, *, page_rel: str, file_rel: str, warnings: list[str], depth: int,
                 stack: tuple[str, ...], pivots: dict[str, str] | None = None,
                 versions: tuple[list[str], str | None] | None = None) -> str:
        body = self._inline_includes(body, page_rel=page_rel, file_rel=file_rel, warnings=warnings, depth=depth,
                                     stack=stack)
        if versions is not None and "moniker" in body.lower():
            body = _moniker_zones(body, *versions, warnings)
        if ":::" in body:
            body = _target_zones(body, warnings)
        body = outside_fences(body, lambda part: self._extensions(part, page_rel=page_rel, warnings=warnings))
        body = _no_loc(self._xrefs(body))
        if _ZONE_PIVOT.search(body):
            body = _zone_pivots(body, pivots or {})
        return _tab_groups(_drop_markers(body))

    def _extensions(self, body: str, *, page_rel: str, warnings: list[str]) -> str:
        """The block extensions (images, code snippets, alerts, videos, divs) of a part
        of the page outside fenced code (a Markdown example of them stays as written)."""
        body = self._images(body, page_rel=page_rel, warnings=warnings)
        if "](" in body:
            body = "\n".join(_outside_code(line, _media_links) if "![" in line else line for line in body.split("\n"))
        body = _CODE_REF.sub(lambda m: _indent_block(self._code_ref(m, page_rel, warnings), body, m.start()), body)
        body = _CODE_EXT.sub(lambda m: _indent_block(self._code_ext(_attrs(m.group("attrs")), page_rel, warnings),
                                                     body, m.start()), body)
        body = alert_markers(body)  # > [!NOTE] ...: "**Note:** ..." (text after the marker is the alert's)
        # the quote holding [!VIDEO] goes; its indentation stays, so a video in a list step stays in the step
        body = _VIDEO.sub(lambda m: f'\n{m.group("lead").split(">")[0]}{_video_embed(m.group("url"))}\n', body)
        return _DIV.sub(lambda m: m.group("lead"), body)

    def _xrefs(self, body: str) -> str:
        """Cross references as the text DocFX shows for them (:func:`xref_display`):
        ``<xref:uid>``, ``<xref href="uid"/>`` and ``[](xref:uid)`` always; the
        ``@uid`` shorthand when the uid is a docset page's or has a ``text`` option
        (DocFX shows an unresolved shorthand as written). ``[text](xref:uid)`` keeps its text.
        Code (fences, spans) is left alone."""
        if "xref" not in body.lower() and "@" not in body:
            return body
        titles = self.uid_titles()

        def short(m: re.Match[str]) -> str:
            ref = m.group("quid") or m.group("uid")
            key = unquote(ref.partition("?")[0]).split("#", 1)[0]
            if key in titles or parse_qs(ref.partition("?")[2]).get("text"):
                return _md_text(xref_display(ref, titles))
            return m.group(0)

        def rewrite(part: str) -> str:
            part = _XREF_AUTOLINK.sub(lambda m: _md_text(xref_display(m.group("uid"), titles)), part)
            part = _xref_tags(part, titles)
            if "xref:" in part.lower():
                part = _XREF_ANCHOR.sub(lambda m: _md_text(xref_display(html.unescape(m.group("uid")), titles)),
                                        part)
            part = _XREF_EMPTY_LINK.sub(lambda m: _md_text(xref_display(m.group("uid"), titles)), part)
            return _XREF_SHORT.sub(short, part) if "@" in part else part

        fences = FenceTracker(_ANY_FENCE)
        return "\n".join(line if fences.in_code(line) else _outside_code(line, rewrite) for line in body.split("\n"))

    def _inline_includes(self, body: str, *, page_rel: str, file_rel: str, warnings: list[str], depth: int,
                         stack: tuple[str, ...], left: list[int] | None = None) -> str:
        """``[!INCLUDE]`` directives outside fenced code replaced by the included files
        (:meth:`_expand_includes`); ``left`` is shared by the nested calls."""
        left = [_MAX_INCLUDES, _MAX_INCLUDED_CHARS, 1] if left is None else left  # 1: cycle warning still due
        return outside_fences(body, lambda part: self._expand_includes(part, page_rel=page_rel, file_rel=file_rel,
                                                                      warnings=warnings, depth=depth, stack=stack,
                                                                      left=left))

    def _expand_includes(self, body: str, *, page_rel: str, file_rel: str, warnings: list[str], depth: int,
                         stack: tuple[str, ...], left: list[int]) -> str:
        """``body`` with its ``[!INCLUDE]`` files inlined (nested ones too, at most
        :data:`_MAX_INCLUDE_DEPTH` deep, no cycle); ``left``: the includes and
        characters the page may still inline (:data:`_MAX_INCLUDES`,
        :data:`_MAX_INCLUDED_CHARS`) and whether the cycle warning is still due; an
        include over a limit is dropped with a warning."""
        out: list[str] = []
        pos = 0
        for m in _INCLUDE.finditer(body):
            out.append(body[pos:m.start()])
            pos = m.end()
            target = m.group("path")
            res = self.resolve_include(target, page_rel=file_rel)
            if res.rel_path is None or res.problem:
                warnings.append(f"include {target!r}: {res.problem or 'not found'}")
                continue
            if res.rel_path in stack or depth >= _MAX_INCLUDE_DEPTH:
                if left[2]:  # one warning for the page (a fan-out repeats it thousands of times)
                    warnings.append(f"include {target!r}: include cycle or nesting deeper than {_MAX_INCLUDE_DEPTH}"
                                    " (not inlined, nor the page's other such includes)")
                left[2] = 0
                continue
            if left[0] <= 0 or left[1] <= 0:
                if left[0] >= 0:  # one warning for the rest of the page
                    warnings.append(f"include {target!r} and the later ones not inlined: the page is over"
                                    f" {_MAX_INCLUDES} includes or {_MAX_INCLUDED_CHARS} included characters")
                left[0] = -1
                continue
            try:
                raw = read_include(self._root / res.rel_path, label=f"include {target!r}", warnings=warnings)
            except OSError as err:
                warnings.append(f"include {target!r}: cannot read ({err})")
                continue
            left[0] -= 1
            left[1] -= len(raw)
            _, inc, _ = split_front_matter(raw)
            # nested includes first, relative to the include itself (DocFX), then every link
            # of the expanded text rebased once to the page (rebasing first sent a nested
            # include to includes/includes/x.md)
            inc = self._inline_includes(inc, page_rel=res.rel_path, file_rel=res.rel_path, warnings=warnings,
                                        depth=depth + 1, stack=(*stack, res.rel_path), left=left)
            # a link the include writes in another case is the include's file too (DocFX v3 matches any case)
            inc = rebase_links(inc, from_rel=res.rel_path, to_rel=page_rel,
                               exists=lambda p: (self._root / p).is_file() or self._any_case.find(p) is not None,
                               backslash_separates=True).strip("\n")
            if _inline_include(body, m.start(), m.end()):
                inc = inc.strip()  # read as inline content: the paragraph's edges hold no spaces
            prefix = _line_prefix(body, m.start())
            lines = inc.split("\n")
            out.append("\n".join([lines[0], *[(prefix + line) if line.strip() else prefix.rstrip()
                                              for line in lines[1:]]]))
        out.append(body[pos:])
        return "".join(out)

    def _images(self, body: str, *, page_rel: str, warnings: list[str]) -> str:
        out: list[str] = []
        pos = 0
        # where the last ':::image-end:::' ends: a complex image after it has none (each searched to
        # the end of the page: 20,000 complex images without an end took 75 s)
        last_end = max((e.end() for e in _IMAGE_END.finditer(body)), default=-1)
        while True:
            m = _IMAGE.search(body, pos)
            if m is None:
                break
            out.append(body[pos:m.start()])
            pos = m.end()
            attrs = _attrs(m.group("attrs"))
            src = attrs.get("source", "")
            kind = attrs.get("type", "content").lower()
            alt = attrs.get("alt-text", "")
            if not src:
                warnings.append(f":::image without source ({m.group(0)[:60]!r})")
                continue
            if kind == "icon":
                out.append(f'<img src="{_escape_attr(src)}" alt="{_escape_attr(alt)}" width="16" height="16" '
                           f'class="icon">')
                continue
            caption = ""
            if kind == "complex" and pos < last_end:
                end = _IMAGE_END.search(body, pos)
                if end is not None:
                    caption = inline_text(re.sub(r"\s+", " ", body[pos:end.start()]).strip())
                    pos = end.end()
            image = _md_image(src, alt, caption)
            lightbox = attrs.get("lightbox", "")
            out.append(f"[{image}](<{lightbox}>)" if lightbox else image)
        out.append(body[pos:])
        return "".join(out)

    def _code(self, target: str, lang: str, page_rel: str, warnings: list[str], *, name: str = "", ranges: str = "",
              start: str = "", end: str = "") -> str:
        res = self.resolve_asset(target, page_rel=page_rel)
        if res.rel_path is None or res.problem:
            warnings.append(f"code snippet {target!r}: {res.problem or 'not found'}")
            return ""
        try:
            code = read_include(self._root / res.rel_path, label=f"code {res.rel_path}")
        except OSError:
            return ""
        part = code_snippet(code, name=name, ranges=ranges, start=start, end=end)
        if part is None:
            warnings.append(f"code snippet {target!r}: no snippet named {name!r} in {res.rel_path}")
            return ""
        return f"\n```{lang}\n{part.rstrip()}\n```\n"

    def _code_ref(self, m: re.Match[str], page_rel: str, warnings: list[str]) -> str:
        """``[!code-lang[](path?query#fragment "title")]``: the fragment is a line range
        (``L12-L16``) or a snippet name; the query ``name``, ``range``, ``start``/``end``."""
        query = {k.lower(): v[0] for k, v in parse_qs(m.group("query") or "").items() if v}
        frag = m.group("frag") or ""
        lines = _LINE_RANGE.match(frag)
        ranges = f"{lines.group('a')}-{lines.group('b') or lines.group('a')}" if lines else query.get("range", "")
        name = "" if lines else frag or query.get("name", "")
        return self._code(m.group("path"), m.group("lang") or "", page_rel, warnings, name=name, ranges=ranges,
                          start=query.get("start", ""), end=query.get("end", ""))

    def _code_ext(self, attrs: dict[str, str], page_rel: str, warnings: list[str]) -> str:
        src = attrs.get("source", "")
        return self._code(src, attrs.get("language", ""), page_rel, warnings, name=attrs.get("id", ""),
                          ranges=attrs.get("range", "")) if src else ""


def load(root: Path, config_file: str | None = None) -> DocfxSite:
    """A :class:`DocfxSite` for ``root`` with the ``docfx.json`` (or Learn publish
    config) at ``config_file`` (posix, relative to ``root``; ``None``: looked up at
    the root; none there: DocFX's default globs over the whole root).

    Raises:
        ConfigError: the config is not valid JSON.
    """
    root = root.resolve()
    settings = read_settings(root, config_file)
    found = config_file or next((n for n in CONFIG_FILES if (root / n).is_file()), None)
    docsets = settings.docsets
    include_dirs = tuple(safe_join(d, "includes") for d in docsets if (root / d / "includes").is_dir())
    config = SiteConfig(generator=GENERATOR, root=root, config_file=found, content_dirs=docsets,
                        static_dirs=(), include_dirs=include_dirs,
                        base_url="/" + settings.base_paths[0] + "/" if settings.base_paths else "/",
                        settings={"docsets": ";".join(docsets)})
    return DocfxSite(config, settings)
