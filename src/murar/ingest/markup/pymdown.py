"""Python-Markdown with the extensions MkDocs sites configure (Material, pymdownx).

The page is read the way MkDocs renders it (Python-Markdown "Extensions",
PyMdown Extensions documentation, Material for MkDocs "Reference"):

- ``--8<--`` snippets (pymdownx.snippets) are replaced by the file they name,
  before anything else and inside code blocks too, as the preprocessor does:
  one-line form (``--8<-- "file.md"``), block form (a ``--8<--`` line, file
  names, a ``--8<--`` line), line ranges (``file.md:3:9``, ``file.md:1:3,6:8``),
  sections (``file.py:name``, between ``--8<-- [start:name]`` and
  ``--8<-- [end:name]``; marker lines never show), ``;--8<--`` escapes;
  the file is found by :meth:`Site.resolve_include` (snippets ``base_path``);
  the snippets of the site's ``auto_append`` list end every page;
- ``::: package.module.Object`` blocks (mkdocstrings) become the object's API
  text, read statically from its source (:mod:`murar.ingest.markup.pyapi`);
- keys (``++ctrl+c++``), mark, caret, tilde and critic inline syntax become
  the text a reader sees (:func:`_inline_marks`);
- pymdownx.inlinehilite's ``#!lang``/``:::lang`` prefix of an inline code span
  is not shown;
- ``[title][identifier]`` cross-references (mkdocs-autorefs, on with
  mkdocstrings) show their title;
- ``{!file!}`` includes (mdx_include, markdown-include) are replaced by the
  file, found by the site's ``resolve_markdown_include`` (the extension's
  ``base_path``), before snippets and inside code blocks too;
- ``{* file ln[3:6] hl[4] *}`` lines (markdown-include-variants, the FastAPI projects'
  extension, when configured) become the code block of the file (or of its ``ln`` line
  ranges), found by the site's ``resolve_variants_include``; the collapsed boxes of the
  other Python variants are not shown;
- ``=== "Tab"`` content tabs (pymdownx.tabbed) become the tab label as a bold
  line followed by the tab's (dedented) content;
- ``!!! note "Title"``, ``??? tip``, ``???+ info`` admonitions
  (admonition, pymdownx.details) and ``{ .class width=300 loading=lazy }``
  attribute lists (attr_list) after links and images are parsed by the
  mdit-py-plugins ``admon`` and ``attrs`` plugins; an admonition becomes
  "Kind: Title" followed by its body (a details block with a quoted title and no
  type, ``??? "Summary"``, by its summary alone; unquoted words after the type, ``!!! tip
  inline end``, are classes, not a title: :func:`_admonition_classes`); the other attribute lists (a heading's
  ``{ #id }``, a block's own line, after emphasis) are read before parsing
  (:func:`_attr_lists`);
- ``<figure markdown>`` (md_in_html): its ``<figcaption>`` is the caption of
  the Markdown images in it;
- images marked ``#only-dark`` (Material) are counted but not kept: the
  ``#only-light`` twin is the image of that step;
- ``/// tab | Title``, ``/// note | Title`` ... ``///`` blocks (pymdownx.blocks)
  become a bold label and their content; ``/// caption`` (``figure-caption``,
  ``table-caption``: numbered ``Figure 1.``) captions the images before it
  (pymdownx.blocks.caption); Material icon and emoji shortcodes
  (``:material-x:``, ``:smile:``) are dropped with pymdownx.emoji (an emoji that states a
  value, ``:white_check_mark:`` ``:x:`` ``:warning:``, keeps its character), abbreviation definitions
  (``*[HTML]: ...``) with abbr;
- ``+++ 2.0`` / ``+/- 2.0`` / ``--- 2.0`` version annotations (at any indent,
  with an optional ``"summary"``) become the admonition the
  ``markdown_version_annotations`` extension writes, titled "Added / Changed /
  Removed in version 2.0 — summary", when the site configures the extension
  (its README and preprocessor, markdown-version-annotations 1.0.1).

Links go to the :class:`~murar.ingest.sites.base.Site`; nothing here guesses paths.
"""

from __future__ import annotations

import ast
import bisect
import html
import json
import posixpath
import re
import textwrap
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from murar.ingest.budget import PageCharBudget
from murar.ingest.htmltext import BLANK_PRE_LINE, pre_depth
from murar.ingest.markdown import MarkdownOptions, convert_markdown_text
from murar.ingest.markup.builder import page_rel, read_include, read_source
from murar.ingest.markup.emoji import VALUE_EMOJI
from murar.ingest.markup.mathtext import inline_math, math_code_span, math_fence
from murar.ingest.markup.mdtext import (
    FenceTracker,
    admonition_label,
    inline_text,
    label_lines,
    outside_code,
)
from murar.ingest.markup.tabs import set_close, set_open, tab_start
from murar.ingest.mdlimits import bounded_int
from murar.ingest.paths import ResolvedLink
from murar.ingest.sites.base import Site
from murar.schema import ParsedDocument

MAX_SNIPPET_DEPTH = 4
#: characters the snippets and {!file!} includes of one page may read in all (20 snippets of a
#: 980 KB file made 19,600,000 characters from a 500-byte page: 46 s)
MAX_INCLUDED_CHARS = 10_000_000
MAX_TAB_DEPTH = 6
PLUGINS = ("admon", "attrs", "deflist", "footnote", "tasklists")
_FENCE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})")
_SNIPPET_LINE = re.compile(r"""^(\s*)(;?)-{1,}8<-{1,}\s+(['"]?)([^'"\s][^'"]*?)\3\s*$""")
_SNIPPET_FENCE = re.compile(r"^\s*-{1,}8<-{1,}\s*$")
# "{!file!}" includes: mdx_include ({!+ >file [ln:1-3] | utf-8 !}, "\{!" escapes), markdown-include ({!f!lines=1 3})
_MDX_INCLUDE = re.compile(r"(?P<escape>\\)?\{!(?:[+-])?(?P<indent>>)?[ \t]*(?P<path>[^\s|!\[\]{}][^|!\[\]{}\n]*?)[ \t]*"
                          r"(?:\[ln:(?P<lines>[^\]\s]+)\])?[ \t]*(?:\|[ \t]*[\w.-]+[ \t]*)?!\}")
_MD_INCLUDE = re.compile(r"\{![ \t]*(?P<path>[^\s!{}][^!{}\n]*?)[ \t]*!(?:lines=(?P<lines>[0-9 -]+))?\}")
# markdown-include-variants: "{* file config *}" alone on a line, configs "name[value]"
_VARIANTS_LINE = re.compile(r"^\{\*\s*(\S+)\s*(.*)\*\}$")
_VARIANTS_CONFIG = re.compile(r"(\w+)\[([^\]]+)\]")
_HEADING_START = re.compile(r"^#+", re.MULTILINE)  # markdown-include's HEADING_SYNTAX, per line
_HILITE_SHEBANG = re.compile(r"(?<!`)(`+)(?::{3,}|#!)[\w#.+-]*[ \t]+(?=\S)")
_REF_DEF_LINE = re.compile(r"""^\[[^\[\]\n]*\]:[ ]*\S+(?:[ ]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ ]*$""")
_KEYS = re.compile(r"\+\+((?:[\w-]+|\"[^\"\n]+\"|'[^'\n]+')(?:\+(?:[\w-]+|\"[^\"\n]+\"|'[^'\n]+'))*)\+\+")
_KEY_SPLIT = re.compile(r"\"[^\"\n]+\"|'[^'\n]+'|[\w-]+")
_KEY_NAMES = {"ctrl": "Ctrl", "alt": "Alt", "shift": "Shift", "cmd": "Cmd", "command": "Cmd", "meta": "Meta",
              "win": "Win", "windows": "Win", "super": "Super", "option": "Option", "opt": "Option",
              "enter": "Enter", "return": "Return", "esc": "Esc", "escape": "Esc", "del": "Del", "delete": "Del",
              "backspace": "Backspace", "tab": "Tab", "space": "Space", "spacebar": "Space", "up": "Up",
              "down": "Down", "left": "Left", "right": "Right", "home": "Home", "end": "End", "fn": "Fn",
              "insert": "Ins", "ins": "Ins", "page-up": "Page Up", "page-down": "Page Down",
              "arrow-up": "Up", "arrow-down": "Down", "arrow-left": "Left", "arrow-right": "Right"}
_MARK = re.compile(r"(?<![=\w])==(?=\S)(.{1,300}?)(?<=\S)==(?![=\w])")
_CARET_INS = re.compile(r"(?<!\^)\^\^(?=\S)(.{1,300}?)(?<=\S)\^\^(?!\^)")
_CARET_SUP = re.compile(r"(?<![\^\s])\^([^\s^]+)\^(?!\^)")
_TILDE_DEL = re.compile(r"(?<!~)~~(?=\S)(.{1,300}?)(?<=\S)~~(?!~)")
_TILDE_SUB = re.compile(r"(?<![~\s])~([^\s~]+)~(?!~)")
_CRITIC = re.compile(r"\{(\+\+|--|==)(.{0,500}?)\1\}")
_CRITIC_SUB = re.compile(r"\{~~([^~\n]{0,300})~>([^~\n]{0,300})~~\}")
_CRITIC_COMMENT = re.compile(r"\{>>.{0,500}?<<\}")
# (one letter: the shortcodes :a: :b: :m: :o: :v: :x: of the gemoji/Twemoji indexes)
_EMOJI = re.compile(r"(?<![\w:/]):(?:(?=[a-z0-9_+-]*[a-z])[a-z0-9_+-]{2,}|[+-]1|[abmovx]):(?![\w:/])(?:\{:?[^}\n]*\})?")
_REF_LINK = re.compile(r"(?<![!\]])\[([^\]\n]{0,500})\](?:\[([^\]\n]{0,500})\]|(?![(\[]))")
_AUTOREF = re.compile(r"(?<![!\\])\[((?:[^\[\]\n`]|`[^`\n]*`)+)\]\[([^\[\]\n]*)\]")
_AUTODOC = re.compile(r"^(\s*):::[ \t]+([A-Za-z_][\w.]*)[ \t]*$")
# Markdown extensions that render a CLI's reference from a '::: name' block (mkdocs-click, mkdocs-typer)
_CLI_BLOCKS = ("mkdocs-click", "mkdocs-typer", "mkdocs_click", "mkdocs_typer")
_CLI_BLOCK = re.compile(r"^(\s*):::[ \t]+(mkdocs-(?:click|typer))[ \t]*$")
_CLI_OPTION = re.compile(r"^[ \t]+:([\w-]+):(.*)$")
_MAX_SOURCE = 2_000_000
_MAX_ALIAS_HOPS = 24
#: characters of Python source the mkdocstrings blocks of one page may parse, each file once
#: (300 "::: pkg.mod.fN" blocks re-parsed a 1.9 MB module each time: the page hit the 180 s budget)
_MAX_API_SOURCE_CHARS = 10_000_000
_MAX_SELECTED_LINES = 100_000  # lines one snippet's line ranges may select
_MAX_VARIANT_RANGES = 100  # ln[...] ranges of one {* file *} line read
_SECTION_MARK = re.compile(r"^.*?-{1,}8<-{1,}[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([a-z][-_0-9a-z]*)[ \t]*\].*$",
                           re.IGNORECASE)
_TAB = re.compile(r"""^(\s*)===[!+]*\s+(["'])(.*?)\2\s*$""")
# markdown-version-annotations: "+++ 1.0.0", "+/- 1.0.0", "--- 1.0.0", each with an optional "summary"
_VERSION = re.compile(r'^(\s*)(\+\+\+|\+/-|---)\s+([0-9.]+)\s*(?:"(.*)")?$')
_VERSION_ADMONITION = {"+++": ("version-added", "Added"), "+/-": ("version-changed", "Changed"),
                       "---": ("version-removed", "Removed")}
#: a SuperFences fence line with options (``key="value"`` pairs after the language), e.g. ```yaml tab="Docker"
_FENCE_OPTIONS = re.compile(r"""^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w#.+-]*)[ \t]+"""
                            r"""(?P<options>(?:[a-zA-Z]\w*=(?:"[^"\n]*"|'[^'\n]*')?[ \t]*)+)$""")
_FENCE_OPTION = re.compile(r"""([a-zA-Z]\w*)=(?:"([^"\n]*)"|'([^'\n]*)')?""")
# (the argument greedy, stripped by the callers: a lazy one before \s*$ rescanned a run of blanks from
# each of its characters, 34 s for one line with 100,000 blanks in its argument)
# pymdownx.blocks fences: three or more slashes; a nested block uses a different count
_BLOCK_OPEN = re.compile(r"^(\s*)/{3,}\s*([A-Za-z][\w-]*)\s*(?:\|(.*))?$")
_BLOCK_CLOSE = re.compile(r"^\s*/{3,}\s*$")
_BLOCK_OPTION = re.compile(r"^\s+[A-Za-z][\w-]*\s*:\s")
# fancyboxmd: "!![Title](src, width "Description")" (one bracket level inside the title and the link)
_FANCYBOX = re.compile(r"!!\[((?:[^\[\]\\\n]|\\.|\[[^\[\]\n]*\])*)\]\(((?:[^()\\\n]|\\.|\([^()\n]*\))*)\)")
_ICON = re.compile(r":(?:material|octicons|fontawesome|simple)-[a-z0-9-]+:(?:\{:?[^}\n]*\})?")


def _spaced(shortcode: re.Pattern[str]) -> re.Pattern[str]:
    """``shortcode`` with one space beside it, so that dropping it from
    ``**:icon: Label**`` leaves ``**Label**`` (bold), not ``** Label**``."""
    return re.compile(rf"[ \t]?(?:{shortcode.pattern})(?=\*\*|$)|(?:{shortcode.pattern})[ \t]?", re.MULTILINE)


_ICON_SPACED = _spaced(_ICON)
_EMOJI_SPACED = _spaced(_EMOJI)
# attr_list (Python-Markdown): "{: #id .class key=value }", the colon optional
# Each token is read once (atomic) and a class or bare word holds no comma, which separates them: a token
# that could also end at any comma ('{.a,.a,.a' 22 times: 1.8 s, doubling per comma) or be read two ways
# ('.a' as a class or a bare word) backtracked exponentially on a list that never closed
_ATTR_TOKEN = r"""(?>[.#][^\s{}="',]+|[\w:-]+=(?:"[^"\n]*"|'[^'\n]*'|[^\s}'"]+))"""
_ATTR_LIST = rf"\{{:?[ \t]*(?P<attrs>{_ATTR_TOKEN}(?:[ \t,]+{_ATTR_TOKEN})*)[ \t]*\}}"
# Python-Markdown's scanner also takes a bare word ("{ on-glb }": the attribute on-glb="on-glb")
_ATTR_WORD = r"""(?>[.#][^\s{}="',]+|[\w:-]+=(?:"[^"\n]*"|'[^'\n]*'|[^\s}'"]+)|[^\s{}="',][^\s{}="',]*)"""
_ANY_ATTR_LIST = rf"\{{:?[ \t]*(?P<attrs>{_ATTR_WORD}(?:[ \t,]+{_ATTR_WORD})*)[ \t]*\}}"
# the heading's text ends on a non-blank (or is empty): the lazy text no longer stops at every space of a run
_HEADING_ATTRS = re.compile(
    rf"^(?P<head>[ ]{{0,3}}#{{1,6}}[ \t](?:.*?(?<![ \t]))?)[ \t]+{_ANY_ATTR_LIST}[ \t]*#*[ \t]*$")
_LINE_ATTRS = re.compile(rf"^[ \t]*{_ATTR_LIST}[ \t]*$")
_LINE_ANY_ATTRS = re.compile(rf"^[ \t]*{_ANY_ATTR_LIST}[ \t]*$")
# trailing lists and cell lists, found at their '{' after a blank (the blanks before it are dropped with
# them, _drop_attrs): '[ \t]+{...}' searched again from every space of a long run
_TRAILING_ATTRS = re.compile(rf"(?<=[ \t]){_ATTR_LIST}[ \t]*$")
_TRAILING_ANY_ATTRS = re.compile(rf"(?<=[ \t]){_ANY_ATTR_LIST}[ \t]*$")
_CELL_ATTRS = re.compile(rf"(?<=[ \t]){_ANY_ATTR_LIST}[ \t]*(?=\|)")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\S")
_SPAN_ATTRS = re.compile(rf"(?<=[*_~=^)\]`]){_ANY_ATTR_LIST}")
_LINK_END = re.compile(r"\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)$")
_OLD_FORM = re.compile(rf"^{_ATTR_LIST}$")
_ATTR_ID = re.compile(r"(?:^|[ \t,])#([^\s{}=\"',]+)")
_ABBR = re.compile(r"^\*\[[^\]]+\]:")
_ESCAPED_PUNCT = re.compile(r"\\([!-/:-@\[-`{-~])")
_FIGCAPTION = re.compile(r"<figcaption\b([^>]{0,500})>(.{0,5000}?)</figcaption\s*>", re.IGNORECASE | re.DOTALL)
# md_in_html: an element whose opening tag has a markdown attribute ("1", "block", "span" or none)
_MARKDOWN_ATTR = re.compile(r"(?:^|\s)markdown(?:\s*=\s*[\"']?(?:1|block|span)\b|(?=[\s/]|$))", re.IGNORECASE)
_MD_IMAGE = re.compile(r"""!\[(?P<alt>[^\]\n]{0,500})\]\((?P<src><[^>\n]{0,2000}>|[^\s)]{1,2000})(?P<title>\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)""")
# a reference image in a figure ('![alt][ref]', '![alt][]', '![alt]' not followed by '(' or '['):
# given the figure's caption through the page's link definition
_MD_REF_IMAGE = re.compile(r"!\[(?P<alt>[^\]\n]{0,500})\](?:\[(?P<ref>[^\]\n]{0,500})\]|(?![(\[]))")
# a link reference definition: '[label]: url "title"', or '[label]:' with its URL on the next line
_LINK_DEFINITION = re.compile(r"""^ {0,3}\[(?P<label>[^\]\n]{1,999})\]:[ \t]*(?:(?P<url><[^>\n]{0,2000}>|\S{1,2000})"""
                               r"""(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*)?$""")
_MD_IN_HTML_OPEN = re.compile(r"""^(\s*)<([A-Za-z][\w-]*)\b([^>]*?)\s+markdown(?:=(["']?)[\w-]*\4)?([^>]*)>\s*$""")


def _width(line: str) -> int:
    expanded = line.replace("\t", "    ")
    return len(expanded) - len(expanded.lstrip(" "))


class PymdownTransformer:
    """Python-Markdown source of one page to the CommonMark the converter reads.

    ``extensions`` are the site's configured extension names (only
    ``markdown_version_annotations`` changes what is done).
    """

    def __init__(self, site: Site, *, extensions: frozenset[str] = frozenset()) -> None:
        self.site = site
        self.extensions = extensions
        self.warnings: list[str] = []
        # mkdocstrings sources parsed for this page (file -> tree), and the characters it may still parse
        self._api_trees: dict[str, ast.Module | None] = {}
        self._api_chars_left = _MAX_API_SOURCE_CHARS
        self._included_chars = PageCharBudget(
            MAX_INCLUDED_CHARS,
            "{what}: over {limit} characters of snippets and includes in the page; not included, nor the later ones")

    def transform(self, text: str, *, page_rel: str) -> str:
        appended = self.site.config.settings.get("snippets.auto_append", "")
        for name in (n for n in appended.split("\n") if n.strip()):  # pymdownx.snippets auto_append
            text = f'{text.rstrip()}\n\n--8<-- "{name.strip()}"\n'
        if "markdown_include_variants" in self.extensions and "{*" in text:
            text = self.expand_include_variants(text, stack=(page_rel,))
        syntax = self.site.config.settings.get("include.syntax")
        if syntax and "{!" in text:
            text = self.expand_includes(text, syntax=syntax, depth=0, stack=(page_rel,))
        text = self.expand_snippets(text, page_rel=page_rel, depth=0, stack=(page_rel,))
        if "mkdocstrings" in self.site.config.settings.get("plugins", "").split() and ":::" in text:
            text = "\n".join(self._autodoc(text.split("\n")))
        generated = sorted({name.replace("_", "-") for name in _CLI_BLOCKS if name in self.extensions})
        if generated and ":::" in text:
            text = "\n".join(self._cli_blocks(text.split("\n"), generated))
        lines = _raw_pre_blank_lines(text.split("\n"))
        refs = _link_definitions(lines)  # the page's link reference definitions, read once
        lines = _md_in_html(lines, refs)
        if "pymdownx.blocks.caption" in self.extensions:
            types = json.loads(self.site.config.settings.get("caption.types") or "{}") or CAPTION_TYPES
            lines = _caption_blocks(lines, types, auto=self.site.config.settings.get("caption.auto") != "false")
        if "pymdownx.superfences" in self.extensions:
            lines = _fence_tabs(lines)
        lines = self._tabs(_blocks(lines))
        if "pymdownx.arithmatex" in self.extensions:  # before attr_list and caret read "{...}", "^"
            lines = _arithmatex(lines)
        lines = _code_annotations(lines, all_code="content.code.annotate" in
                                  self.site.config.settings.get("theme.features", "").split())
        lines = _admonition_classes(lines)
        plugins = self.site.config.settings.get("plugins", "").split()
        if "autorefs" in plugins or "mkdocstrings" in plugins:  # mkdocstrings turns autorefs on
            lines = _autorefs(lines, refs)
        if "markdown_version_annotations" in self.extensions:
            lines = [self._version(ln) for ln in lines]
        lines = _spaced_references(_reference_definitions(lines), refs)
        marker = self.site.config.settings.get("toc.marker", "[TOC]")
        if marker and marker in text:  # the toc extension draws the page's table of contents there
            lines = _toc_marker(lines, marker)
        if "attr_list" in self.extensions:
            lines = _attr_lists(lines)
        if "pymdownx.inlinehilite" in self.extensions:
            lines = _inline_hilite(lines)
        inline = [name for name in ("pymdownx.keys", "pymdownx.mark", "pymdownx.caret", "pymdownx.tilde",
                                    "pymdownx.critic") if name in self.extensions]
        if inline:
            lines = _inline_marks(lines, frozenset(inline))
        if "fancyboxmd" in self.extensions:
            lines = _fancybox(lines)
        mark = self.site.config.settings.get("video.mark")
        if mark:  # the mkdocs-video plugin: an image whose alt text is its mark is a video
            lines = _video_marks(lines, mark)
        if "abbr" in self.extensions:  # abbreviation definitions are not text of the page
            lines = [ln for ln in lines if not _ABBR.match(ln)]
        if "def_list" in self.extensions:
            lines = _termless_definitions(lines)
        if "pymdownx.emoji" in self.extensions:
            lines = _emoji(lines)
        out = "\n".join(_single_blank_lines(lines))
        return _ICON_SPACED.sub("", out) if "pymdownx.emoji" in self.extensions else out

    # ------------------------------------------------------------- snippets
    def expand_snippets(self, text: str, *, page_rel: str, depth: int, stack: tuple[str, ...]) -> str:
        if "8<-" not in text:
            return text
        out: list[str] = []
        lines = text.split("\n")
        i = 0
        fence = ""  # the code fence the line is in ("" outside one)
        while i < len(lines):
            line = lines[i]
            opened = _FENCE.match(line)
            if opened and (not fence or (opened.group("fence")[0] == fence[0]
                                         and len(opened.group("fence")) >= len(fence)
                                         and not line.strip().strip(fence[0]))):
                fence = "" if fence else opened.group("fence")
            if _SNIPPET_FENCE.match(line):
                j = i + 1
                names: list[str] = []
                while j < len(lines) and not _SNIPPET_FENCE.match(lines[j]):
                    names.append(lines[j].strip())
                    j += 1
                if j < len(lines):  # a closed block
                    for name in names:
                        if name and not name.startswith(";"):
                            out.append(self._snippet(name, "", page_rel=page_rel, depth=depth, stack=stack,
                                                     in_code=bool(fence)))
                    i = j + 1
                    continue
            m = _SNIPPET_LINE.match(line)
            if m:
                indent, escaped, name = m.group(1), m.group(2), m.group(4)
                if escaped:
                    out.append(line.replace(";", "", 1))
                else:
                    out.append(self._snippet(name, indent, page_rel=page_rel, depth=depth, stack=stack,
                                             in_code=bool(fence)))
                i += 1
                continue
            out.append(line)
            i += 1
        return "\n".join(out)

    def _snippet(self, spec: str, indent: str, *, page_rel: str, depth: int, stack: tuple[str, ...],
                 in_code: bool = False) -> str:
        """The text a ``--8<--`` line stands for. A whole ``.svg`` file pulled in outside a
        code block is SVG markup the browser draws where the line was (Material sites
        inline their diagrams so: ``<div class="x">`` then ``--8<-- "docs/images/a.svg"``):
        it is the page's picture, an ``<img>`` of that file, not its XML as text."""
        name, selector = _split_selector(spec)
        if depth >= MAX_SNIPPET_DEPTH:
            self.warnings.append(f"snippet {name!r}: nested more than {MAX_SNIPPET_DEPTH} levels; not included")
            return ""
        res = self.site.resolve_include(name, page_rel=page_rel)
        if (not in_code and not selector and res.rel_path is not None and res.rel_path.lower().endswith(".svg")
                and (self.site.config.root / res.rel_path).is_file()):
            link = posixpath.relpath(res.rel_path, posixpath.dirname(page_rel) or ".")
            return f'{indent}<img src="{html.escape(link)}" alt="" />'
        found = self._read_included("snippet", name, res, stack, problem=False)
        if found is None:
            return ""
        rel, body = found
        body_lines = _select_lines(body.split("\n"), selector)
        if body_lines is None:
            self.warnings.append(f"snippet {name!r}: section {selector[1:]!r} not found; not included")
            return ""
        if selector and self.site.config.settings.get("snippets.dedent_subsections") == "true":
            body_lines = textwrap.dedent("\n".join(body_lines)).split("\n")
        body = "\n".join(body_lines).rstrip("\n")
        body = self.expand_snippets(body, page_rel=page_rel, depth=depth + 1, stack=(*stack, rel))
        return "\n".join(indent + ln if ln else ln for ln in body.split("\n"))

    # ------------------------------------------------------ {!file!} includes
    def expand_includes(self, text: str, *, syntax: str, depth: int, stack: tuple[str, ...]) -> str:
        """Replace ``{!file!}`` includes (everywhere, code blocks too: the extensions
        are preprocessors) by the files they name, recursively.

        ``syntax`` is ``"mdx_include"`` (``{!+ >file [ln:2-5,9] | utf-8 !}``: ``>``
        indents every included line like the include's line, ``[ln:...]`` picks
        1-based inclusive line ranges, an empty bound or ``e`` being the last
        line; ``\\{!`` is a literal ``{!``) or ``"markdown_include"``
        (``{!file!lines=1 3 8-10}``). A missing, remote or unreadable file, or a
        nesting deeper than :data:`MAX_SNIPPET_DEPTH`, leaves nothing and a warning.
        """
        pattern = _MDX_INCLUDE if syntax == "mdx_include" else _MD_INCLUDE
        settings = self.site.config.settings
        offset = bounded_int(settings.get("include.heading_offset", "0"), 6) or 0 if syntax == "markdown_include" else 0
        inherit = syntax == "markdown_include" and settings.get("include.inherit_heading_depth") == "true"
        headings = [(h.start(), len(h.group(0))) for h in _HEADING_START.finditer(text)] if inherit else []

        def replace(m: re.Match[str]) -> str:
            if m.groupdict().get("escape"):
                return m.group(0)[1:]
            body = self._include_file(m.group("path"), syntax=syntax, depth=depth, stack=stack,
                                      lines=m.group("lines"))
            if offset or inherit:  # markdown-include headingOffset / inheritHeadingDepth
                line_start = text.rfind("\n", 0, m.start()) + 1
                before = bisect.bisect_left(headings, (line_start, 0))
                extra = offset + (headings[before - 1][1] if before else 0)
                if extra:
                    body = "\n".join("#" * extra + ln if ln.startswith("#") else ln for ln in body.split("\n"))
            if m.groupdict().get("indent"):
                line_start = text.rfind("\n", 0, m.start()) + 1
                lead = re.match(r"[ \t]*", text[line_start:m.start()])
                prefix = lead.group(0) if lead else ""
                body = "\n".join([body.split("\n")[0]] + [prefix + ln if ln else ln for ln in body.split("\n")[1:]])
            return body

        return pattern.sub(replace, text)

    def expand_include_variants(self, text: str, *, stack: tuple[str, ...]) -> str:
        """Replace ``{* file ln[3:6,8] hl[4] title["x"] *}`` lines (the markdown-include-variants
        extension of the FastAPI projects, markdown_include_variants/_main.py ``re_line``: a whole
        line, the file relative to where ``mkdocs`` runs, the folder of ``mkdocs.yml``) by the code
        block the extension writes for the file named: the whole file, or the ``ln`` line ranges
        (1-based, inclusive) with its "# Code above omitted 👆" / "# Code here omitted 👈" /
        "# Code below omitted 👇" lines around them. The other Python versions of the file it
        lists go in a collapsed "Other versions and variants" box, and the full file of an ``ln``
        include in a collapsed "Full file preview": neither is shown, so neither is kept. A file
        not found leaves nothing and a warning (the extension stops the build there)."""
        resolver = getattr(self.site, "resolve_variants_include", None)
        out: list[str] = []
        for line in text.split("\n"):
            m = _VARIANTS_LINE.match(line)
            if m is None:
                out.append(line)
                continue
            name = m.group(1)
            ranges: list[tuple[int, int]] = []
            title = ""
            for key, value in _VARIANTS_CONFIG.findall(m.group(2)):
                if key == "ln":
                    ranges.extend(_variant_ranges(value))
                elif key == "title" and len(value) >= 2 and value[0] == value[-1] == '"':
                    title = value[1:-1]
            if resolver is None:
                self.warnings.append(f"include {name!r}: unresolvable; not included")
                continue
            found = self._read_included("include", name, resolver(name), stack, problem=True)
            if found is None:
                continue
            lines = found[1].rstrip("\n").split("\n")
            if ranges and ranges != [(0, 0)]:
                body: list[str] = []
                # the ranges show at most the file's lines once over: ln[1:2000,1:2000,...] repeated
                # thousands of times on one line was millions of lines (minutes, gigabytes)
                picked = sorted(set(ranges))
                if len(picked) > _MAX_VARIANT_RANGES:
                    self.warnings.append(f"include {name!r}: over {_MAX_VARIANT_RANGES} ln ranges; the rest left out")
                    picked = picked[:_MAX_VARIANT_RANGES]
                budget = len(lines)
                for k, (start, end) in enumerate(picked):
                    chosen = lines[max(start, 1) - 1:end][:budget]
                    if not chosen and budget <= 0:
                        self.warnings.append(f"include {name!r}: ln ranges select more lines than the file has; "
                                             "the rest left out")
                        break
                    budget -= len(chosen)
                    if k == 0 and start > 1:
                        body += ["# Code above omitted 👆", ""]
                    if k:
                        body += ["", "# Code here omitted 👈", ""]
                    body += chosen
                if max(ranges)[1] < len(lines):
                    body += ["", "# Code below omitted 👇"]
            else:
                body = lines
            fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`{3,}", "\n".join(body))), default=0))
            out += ["", fence + "python" + (f' title="{title}"' if title else ""), *body, fence, ""]
        return "\n".join(out)

    def _read_included(self, kind: str, name: str, res: ResolvedLink, stack: tuple[str, ...], *,
                       problem: bool) -> tuple[str, str] | None:
        """``(rel_path, text)`` of the file a ``kind`` (``snippet``/``include``) named ``name``
        resolved to (``res``), or ``None`` with a warning: not found (with the resolver's problem when
        ``problem``), already on the inclusion ``stack`` (a cycle), unreadable, or past the page's
        :data:`MAX_INCLUDED_CHARS` (one warning)."""
        if res.rel_path is None or not (self.site.config.root / res.rel_path).is_file():
            detail = f" (tried {res.rel_path})" if res.rel_path else (f" ({res.problem})" if problem else "")
            self.warnings.append(f"{kind} {name!r} not found{detail}")
            return None
        if res.rel_path in stack:
            self.warnings.append(f"{kind} {res.rel_path} includes itself; not included again")
            return None
        if self._included_chars.spent:
            return None  # (the page is over its budget: warned once)
        try:
            text = read_include(self.site.config.root / res.rel_path, label=f"{kind} {name!r}", warnings=self.warnings)
        except OSError as err:
            self.warnings.append(f"{kind} {name!r}: cannot read ({err})")
            return None
        if not self._included_chars.spend(text, f"{kind} {name!r}", self.warnings):
            return None
        return res.rel_path, text

    def _include_file(self, name: str, *, syntax: str, depth: int, stack: tuple[str, ...], lines: str | None) -> str:
        name = name.strip()
        resolver = getattr(self.site, "resolve_markdown_include", None)
        if depth >= MAX_SNIPPET_DEPTH:
            self.warnings.append(f"include {name!r}: nested more than {MAX_SNIPPET_DEPTH} levels; not included")
            return ""
        if re.match(r"^[a-z][a-z0-9+.-]*://", name, re.IGNORECASE) or resolver is None:
            self.warnings.append(f"include {name!r}: remote or unresolvable; not included")
            return ""
        res: ResolvedLink = resolver(name)
        found = self._read_included("include", name, res, stack, problem=True)
        if found is None:
            return ""
        rel, body = found
        if lines:
            picked = _include_lines(body.split("\n"), lines, mdx=syntax == "mdx_include")
            body = "\n".join(picked)
        body = body.rstrip("\n")
        if "{!" in body:
            body = self.expand_includes(body, syntax=syntax, depth=depth + 1, stack=(*stack, rel))
        return body

    def _cli_blocks(self, lines: list[str], names: list[str]) -> list[str]:
        """A ``::: mkdocs-click`` (or ``mkdocs-typer``) block and its indented ``:option: value``
        lines: the extension replaces them with the reference it builds by importing the
        command (mkdocs_click/_extension.py, a BlockProcessor matching '::: mkdocs-click' and
        the option lines under it). Packages are never imported, so the block is left out with
        a warning; its option lines are not page text."""
        out: list[str] = []
        fences = FenceTracker(_FENCE)
        i = 0
        while i < len(lines):
            m = None if fences.in_code(lines[i]) else _CLI_BLOCK.match(lines[i])
            if m is None or m.group(2) not in names:
                out.append(lines[i])
                i += 1
                continue
            j = i + 1
            options: dict[str, str] = {}
            while j < len(lines) and (opt := _CLI_OPTION.match(lines[j])) is not None:
                options[opt.group(1)] = opt.group(2).strip()
                j += 1
            command = ":".join(filter(None, (options.get("module"), options.get("command"))))
            self.warnings.append(f"{m.group(2)} {command or '(no command)'}: the command reference is built by "
                                 "importing the package; not read")
            i = j
        return out

    # ------------------------------------------------------ mkdocstrings
    def _autodoc(self, lines: list[str]) -> list[str]:
        """mkdocstrings: a ``::: identifier`` line and the indented YAML options below
        it become the object's API documentation (:mod:`murar.ingest.markup.pyapi`,
        read from the module source the site finds); an object that cannot be
        found or read leaves nothing, with a warning (never the raw block)."""
        out: list[str] = []
        fences = FenceTracker(_FENCE)
        i = 0
        while i < len(lines):
            line = lines[i]
            m = None if fences.in_code(line) else _AUTODOC.match(line)
            if m is None:
                out.append(line)
                i += 1
                continue
            indent, identifier = m.group(1), m.group(2)
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or _width(lines[j]) > _width(indent)):
                j += 1
            while j > i + 1 and not lines[j - 1].strip():
                j -= 1
            options = _autodoc_options(lines[i + 1:j], self.site.config.settings.get("mkdocstrings.options", ""))
            rendered = self._render_api(identifier, options)
            out.extend(indent + ln if ln else ln for ln in (rendered or "").split("\n"))
            i = j
        return out

    def _render_api(self, identifier: str, options: dict[str, object]) -> str | None:
        from murar.ingest.markup.pyapi import (
            follow_object,
            parse_module,
            render_object,
        )

        handler = options.pop("__handler__", "python")
        finder = getattr(self.site, "resolve_python_object", None)
        if finder is None or handler != "python":
            self.warnings.append(f"mkdocstrings ::: {identifier}: no Python source to read; API text left out")
            return None
        unread: list[str] = []

        def tree_of(rel: str) -> ast.Module | None:
            if rel in self._api_trees:
                return self._api_trees[rel]
            try:
                source = (self.site.config.root / rel).read_text(encoding="utf-8", errors="replace")[:_MAX_SOURCE]
            except OSError as err:
                unread.append(f"mkdocstrings ::: {identifier}: cannot read {rel} ({err})")
                return None
            if self._api_chars_left < len(source):
                unread.append(f"mkdocstrings ::: {identifier}: the page's API sources are over"
                              f" {_MAX_API_SOURCE_CHARS} characters; {rel} not read, API text left out")
                return None
            self._api_chars_left -= len(source)
            self._api_trees[rel] = parse_module(source)
            return self._api_trees[rel]

        # a re-exported name is followed to its definition (explicit imports, then "import *")
        text = follow_object(identifier, find=finder, tree_of=tree_of, max_hops=_MAX_ALIAS_HOPS,
                             render=lambda tree, path, _module: render_object(tree, path, identifier=identifier,
                                                                              options=options))
        if text is None:
            self.warnings.extend(unread or [f"mkdocstrings ::: {identifier}: source not found; API text left out"])
        return text

    # ----------------------------------------------------------------- tabs
    def _tabs(self, lines: list[str], depth: int = 0) -> list[str]:
        if depth >= MAX_TAB_DEPTH:  # deeper tab sets stay as written (bounded work on hostile input)
            return lines
        out: list[str] = []
        fences = FenceTracker(_FENCE)
        in_set = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if fences.in_code(line):
                out.append(line)
                i += 1
                continue
            m = _TAB.match(line)
            if not m:
                out.append(line)
                i += 1
                continue
            base = _width(m.group(1))
            label = m.group(3).strip()
            # consecutive tabs at one indentation form a tab set; "===!" starts a new one
            if not in_set or "!" in line.split(m.group(2), 1)[0]:
                if in_set:
                    out.extend([set_close(m.group(1)), ""])
                out.extend(["", set_open(m.group(1)), ""])
            in_set = True
            out.extend([tab_start(label, m.group(1)), "", f"{m.group(1)}**{label}**", ""])
            i += 1
            body: list[str] = []
            while i < len(lines) and (not lines[i].strip() or _width(lines[i]) > base):
                body.append(lines[i])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            strip = min((_width(b) for b in body if b.strip()), default=base)
            shift = max(strip - base, 0)
            out.extend(self._tabs([_dedent(b, shift) for b in body], depth + 1))
            out.append("")
            nxt = _TAB.match(lines[i]) if i < len(lines) else None
            if nxt is None or _width(nxt.group(1)) != base:
                out.extend([set_close(m.group(1)), ""])
                in_set = False
        return out

    def _version(self, line: str) -> str:
        """The admonition a version annotation line stands for (its indented lines are its body)."""
        m = _VERSION.match(line)
        if not m:
            return line
        kind, word = _VERSION_ADMONITION[m.group(2)]
        title = f"{word} in version {m.group(3)}" + (f" — {m.group(4)}" if m.group(4) else "")
        return f'{m.group(1)}!!! {kind} "{title}"'



def _single_blank_lines(lines: list[str]) -> list[str]:
    """Runs of blank lines outside fenced code as one blank line. Python-Markdown reads
    an admonition, a details block or a content tab on across any number of blank
    lines while the next line is indented (``!!! tip``, two blank lines, then a tab
    set: Material shows the tabs in the tip); the parser's admonition plugin ends the
    block at the second blank line, and the indented rest became a code block."""
    out: list[str] = []
    fences = FenceTracker(_FENCE)
    for line in lines:
        if not fences.in_code(line) and not line.strip():
            if out and not out[-1].strip():
                continue
            line = ""
        out.append(line)
    return out


#: pymdownx.blocks.caption's default types: block name -> numbered prefix template
CAPTION_TYPES = {"caption": "", "figure-caption": "Figure {}.", "table-caption": "Table {}."}
_TAG_LINE = re.compile(r"^\s*</?[A-Za-z][^>]{0,500}>\s*$")
_CAPTION_NUMBER = re.compile(r"^\^?(\d{1,6}(?:\.\d{1,6}){0,5})(?=\s|$)")


def _caption_blocks(lines: list[str], types: dict[str, str], *, auto: bool) -> list[str]:
    """pymdownx.blocks.caption: ``/// caption`` (or ``figure-caption``, ``table-caption``,
    a configured type) ... ``///`` after a block makes that block a figure with the
    caption. After images, the caption is their caption (the title murar reads, as for
    ``<figcaption>``); after anything else it stays a paragraph. A type with a prefix
    template numbers its captions in page order (``Figure 1.``; ``auto``, the default)
    or by the block's own number (``/// figure-caption | 2``). An unclosed block is
    left as written."""
    out: list[str] = []
    fences = FenceTracker(_FENCE)
    counters: dict[str, int] = {}
    # the closing lines, found once (each unclosed opener scanned to the end: 30,000 took minutes)
    closes: dict[int, list[int]] = {}  # slashes in the fence -> its lines
    for n, ln in enumerate(lines):
        if _BLOCK_CLOSE.match(ln):
            closes.setdefault(_slashes(ln), []).append(n)
    titled: list[Any] = [-1, None]  # the last block whose images took a caption: (its last line, that line)
    i = 0
    while i < len(lines):
        line = lines[i]
        m = None if fences.in_code(line) else _BLOCK_OPEN.match(line)
        if m is None or m.group(2) not in types:
            out.append(line)
            i += 1
            continue
        same = closes.get(_slashes(line), [])
        after = bisect.bisect_right(same, i)
        if after == len(same):
            out.append(line)
            i += 1
            continue
        j = same[after]
        start = i + 1
        while start < j and _BLOCK_OPTION.match(lines[start]):  # its option lines (one slice: linear)
            start += 1
        body = lines[start:j]
        text = inline_text(" ".join(b.strip() for b in body if b.strip()))
        kind, argument = m.group(2), (m.group(3) or "").strip().lstrip("<>").strip()
        template = types[kind]
        if "{}" in template:
            own = _CAPTION_NUMBER.match(argument)
            number = own.group(1) if own else ""
            if not number and auto:
                counters[kind] = counters.get(kind, 0) + 1
                number = str(counters[kind])
            if number:
                text = f"{template.format(number)} {text}".strip()
        _attach_caption(out, text, m.group(1), titled)
        i = j + 1
    return out


def _slashes(line: str) -> int:
    """The number of slashes opening a pymdownx.blocks fence line."""
    stripped = line.lstrip()
    return len(stripped) - len(stripped.lstrip("/"))


def _attach_caption(out: list[str], caption: str, indent: str, titled: list[Any]) -> None:
    """``caption`` onto the Markdown images of the last block of ``out`` (their title),
    else a paragraph after it. ``titled`` is the last block whose images took a caption
    (``[its last line's index, that line]``): its images have their titles, so another
    caption after it changes nothing and the block is not read again (5,000 captions
    after a block of 20,000 image lines read it 5,000 times)."""
    k = len(out) - 1
    while k >= 0 and (not out[k].strip() or _TAG_LINE.match(out[k])):
        k -= 1
    if caption and k >= 0 and titled[0] == k and out[k] is titled[1]:
        return
    start = k
    while start > 0 and out[start - 1].strip() and not _TAG_LINE.match(out[start - 1]):
        start -= 1
    if caption and k >= 0 and any(_MD_IMAGE.search(ln) for ln in out[start:k + 1]):
        quoted = caption.replace("\\", "\\\\").replace('"', '\\"')
        for n in range(start, k + 1):
            out[n] = _MD_IMAGE.sub(lambda im: im.group(0) if im.group("title") else
                                   f'![{im.group("alt")}]({im.group("src")} "{quoted}")', out[n])
        titled[:] = [k, out[k]]
        return
    if caption:
        out.extend(["", indent + caption, ""])


def _fence_tabs(lines: list[str]) -> list[str]:
    """SuperFences' ``tab="Label"`` fence option (pymdown-extensions 5.0 to 7.x,
    which the sites that still write it pin; removed in 8.0): the fence is shown
    in a tab of that label (an empty label: the language; none: "Tab N"), and
    fences with a tab that follow each other with only blank lines between form
    one tab set (``SuperFencesTabPostProcessor`` groups consecutive tab
    paragraphs). Each such fence is rewritten as a ``=== "Label"`` content tab
    holding the fence (indented 4 spaces more), which :meth:`PymdownReader._tabs`
    then reads as any tab set. Lines in other fences are left alone; linear."""
    out: list[str] = []
    fence: str | None = None  # the fence run of an open non-tab fence
    i = 0
    while i < len(lines):
        line = lines[i]
        if fence is not None:
            stripped = line.strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                fence = None
            out.append(line)
            i += 1
            continue
        m = _FENCE_OPTIONS.match(line)
        options = {k: v1 or v2 for k, v1, v2 in _FENCE_OPTION.findall(m.group("options"))} if m else {}
        if m is None or "tab" not in options:
            opening = _FENCE.match(line)
            if opening:
                fence = opening.group("fence")
            out.append(line)
            i += 1
            continue
        indent, run, lang = m.group("indent"), m.group("fence"), m.group("lang")
        label = options["tab"] or lang or "Tab"
        rest = " ".join(f'{k}="{v}"' for k, v in options.items() if k != "tab" and v)
        out.extend([f'{indent}=== "{label.replace(chr(34), chr(39))}"', "",
                    f"{indent}    {run}{lang}{' ' + rest if rest else ''}"])
        i += 1
        while i < len(lines):  # the fence's lines, indented into the tab, up to its closing fence
            body = lines[i]
            out.append(f"    {body}" if body.strip() else "")
            i += 1
            stripped = body.strip()
            if stripped and set(stripped) == {run[0]} and len(stripped) >= len(run):
                break
        out.append("")
    return out


def _variant_ranges(spec: str) -> list[tuple[int, int]]:
    """An ``ln[...]`` value of markdown-include-variants (``3:6,8,10:11``) as (first, last)
    line pairs, 1-based and inclusive; a part that is not a number or a ``a:b`` pair is left out."""
    ranges: list[tuple[int, int]] = []
    for part in (p.strip() for p in spec.split(",")):
        start, _, end = part.partition(":")
        first, last = bounded_int(start.strip()), bounded_int((end if ":" in part else start).strip())
        if first is not None and last is not None:
            ranges.append((first, last))
    return ranges


def include_targets(text: str, syntax: str) -> list[str]:
    """The files the ``{!file!}`` includes of ``text`` name (``syntax``: ``"mdx_include"``
    or ``"markdown_include"``, see :meth:`PymdownReader.expand_includes`); escaped ones left out."""
    pattern = _MDX_INCLUDE if syntax == "mdx_include" else _MD_INCLUDE
    return [m.group("path") for m in pattern.finditer(text) if not m.groupdict().get("escape")]


def _blocks(lines: list[str]) -> list[str]:
    """pymdownx.blocks: ``/// tab | Title`` or ``/// note | Title`` ... ``///`` (three
    or more slashes: ``////`` around a nested block) become a bold label line and the
    block's content (its option lines dropped). An ``html`` block's argument is the
    element it wraps the content in (``div.result``, ``span[title=x]``): no label.

    Consecutive ``tab`` blocks (blank lines between them only, same nesting) are one
    tab set, as pymdownx.blocks.tab groups them; a tab with the option ``new: true``
    starts a new set. The set gets the tab markers of :mod:`murar.ingest.markup.tabs`
    (the page shows one tab at a time), like ``=== "Tab"`` content tabs."""
    out: list[str] = []
    fences = FenceTracker(_FENCE)
    stack: list[tuple[int, str]] = []  # (slash count, block kind) of the blocks open
    sets: list[tuple[int, str]] = []  # (nesting depth, indentation) of the tab sets open
    after_tab = False  # a tab of the innermost set has just closed: the next tab joins that set
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if fences.in_code(line):
            out.append(line)
            continue
        m = _BLOCK_OPEN.match(line)
        slashes = len(line.strip()) - len(line.strip().lstrip("/"))
        options: list[str] = []
        if m:
            while i < len(lines) and _BLOCK_OPTION.match(lines[i]):
                options.append(lines[i])
                i += 1
        joins = (m is not None and m.group(2) == "tab" and after_tab and bool(sets) and sets[-1][0] == len(stack)
                 and not any(re.match(r"\s*new\s*:\s*true\s*$", o, re.IGNORECASE) for o in options))
        if after_tab and line.strip() and not joins:
            out.extend([set_close(sets.pop()[1]), ""])
            after_tab = False
        if m:
            kind, title = m.group(2), (m.group(3) or "").strip()
            stack.append((slashes, kind))
            if kind == "html":
                out.append("")
            elif kind == "tab":
                if not joins:
                    sets.append((len(stack) - 1, m.group(1)))
                    out.extend(["", set_open(m.group(1)), ""])
                after_tab = False
                out.extend([tab_start(title or "Tab", m.group(1)), ""])
                out.extend(label_lines(title or "Tab", m.group(1)))
            else:
                label = title if kind in ("details", "admonition") and title else admonition_label(kind, title)
                out.extend(label_lines(label, m.group(1)))
            continue
        if _BLOCK_CLOSE.match(line):
            # the innermost block opened with as many slashes ends here
            n = next((k for k in range(len(stack) - 1, -1, -1) if stack[k][0] == slashes), len(stack) - 1)
            closed = stack[n][1] if stack else ""
            del stack[max(n, 0):]
            after_tab = closed == "tab" and bool(sets)
            out.append("")
            continue
        out.append(line)
    if after_tab:
        out.extend([set_close(sets.pop()[1]), ""])
    return out


# Python-Markdown's block-level elements (``Markdown.block_level_elements``): one opened at the start
# of a line is a raw HTML block up to its matching closing tag, blank lines included
_RAW_BLOCK_OPEN = re.compile(
    r"^<(address|article|aside|blockquote|body|canvas|center|colgroup|dd|details|div|dl|dt|fieldset|figcaption|"
    r"figure|footer|form|group|h[1-6]|header|hgroup|html|iframe|legend|li|main|map|math|menu|nav|noscript|object|"
    r"ol|option|output|p|progress|section|summary|table|tbody|td|tfoot|th|thead|tr|ul|video)(?=[\s/>]|$)",
    re.IGNORECASE)


def _raw_pre_blank_lines(lines: list[str]) -> list[str]:
    """A blank line inside a ``<pre>`` of a raw HTML block (Python-Markdown "Raw HTML": a
    block-level element opened at the start of a line is raw up to its closing tag, blank
    lines included; a ``<details>`` of command output) is content the browser shows as an
    empty line; CommonMark would end the HTML block there and read the rest as Markdown.
    It becomes an empty ``<span>`` line (not blank: the block goes on; no text in the
    ``<pre>``). Only a ``<pre>`` closed further down is read so, by its ``</pre>`` or by
    the closing tag of the raw block holding it (``<div><pre>`` ... ``</div>``: the HTML
    parser closes the open ``<pre>`` there, its lines still preformatted). One pass: linear."""
    closes = [n for n, line in enumerate(lines) if "</pre" in line.lower()]
    last_close = closes[-1] if closes else -1
    fences = FenceTracker(_FENCE)
    out: list[str] = []
    scope = ""  # the raw block element being read, "" outside one
    depth = in_pre = 0
    pending: list[int] = []  # blank lines of an unclosed <pre>: kept when its raw block closes
    for n, line in enumerate(lines):
        if not scope and fences.in_code(line):
            out.append(line)
            continue
        if not scope:
            m = _RAW_BLOCK_OPEN.match(line)
            if m is None:
                out.append(line)
                continue
            scope, depth, in_pre, pending = m.group(1).lower(), 0, 0, []
        if not line.strip():
            if in_pre and n >= last_close:
                pending.append(len(out))
            out.append(BLANK_PRE_LINE if in_pre and n < last_close else line)
            continue
        out.append(line)
        in_pre = pre_depth(line, in_pre)
        for ev in re.finditer(rf"<(/?){scope}(?=[\s/>]|$)", line, re.IGNORECASE):
            depth += -1 if ev.group(1) else 1
        if depth <= 0:
            for k in pending:
                out[k] = BLANK_PRE_LINE
            scope, pending = "", []
    return out


def _md_in_html(lines: list[str], refs: dict[str, str] | None = None) -> list[str]:
    """md_in_html: ``<figure markdown>`` ... ``</figure>`` with Markdown inside is
    opened up (blank lines around the inner Markdown) so the Markdown parses; an
    inner line less indented than the block holding the opening tag is put in it (a
    figure inside an admonition stays in its body), others keep their indentation
    (code in a fenced block, nested list items); tags shown in fenced code are left
    as written.

    A ``<figcaption>`` of such a figure (Material for MkDocs "Images: Image
    captions") is the caption of the Markdown images in it, as Python-Markdown
    renders ``<figure><img><figcaption>``: it becomes their title (the caption
    murar reads); a ``<figcaption markdown>`` is Markdown, read as the text it
    renders (a link as its text). A figure without a Markdown image keeps its
    caption as text."""
    out: list[str] = []
    open_tags: list[tuple[str, str]] = []  # (tag, indentation of its opening line)
    figure: list[str] | None = None  # the inner lines of the figure being read

    def blank_then(*added: str) -> None:
        # one blank line around the tags, never two: a second blank line ends an
        # admonition for the parser, where Python-Markdown would go on
        for line in ("", *added, ""):
            if line or (out and out[-1].strip()):
                out.append(line)

    def kept(line: str) -> str:
        # an inner line keeps its own indentation (a fenced block's code, a nested list item:
        # Python-Markdown parses it as written); one less indented than the block holding the
        # tag (an admonition's or a tab's body: steps of four columns) is put in that block
        base = (_width(open_tags[-1][1]) // 4) * 4 if open_tags else 0
        return " " * base + line.lstrip() if line.strip() and _width(line) < base else line

    fences = FenceTracker(_FENCE)
    for line in lines:
        if fences.in_code(line):  # an HTML example in a code block is code
            if figure is not None:
                figure.append(line)
            else:
                out.append(kept(line))
            continue
        m = _MD_IN_HTML_OPEN.match(line)
        if m and figure is None:
            tag = m.group(2).lower()
            open_tags.append((tag, m.group(1)))
            blank_then(f"{m.group(1)}<{m.group(2)}{m.group(3)}{m.group(5)}>")
            if tag == "figure":
                figure = []
            continue
        if open_tags and line.strip().lower() == f"</{open_tags[-1][0]}>":
            _tag, indent = open_tags.pop()
            if figure is not None:
                blank_then(*_figure_body(figure, indent, refs if refs is not None else _link_definitions(lines)))
                figure = None
            blank_then(indent + line.strip())
            continue
        if figure is not None:
            figure.append(line)
        else:
            out.append(kept(line))
    if figure is not None:  # never closed: kept as written
        out.extend(figure)
    return out


def _label(text: str) -> str:
    """A link label as CommonMark matches it: case folded, inner white space collapsed to one space."""
    return " ".join(text.split()).casefold()


def _link_definitions(lines: list[str]) -> dict[str, str]:
    """The page's link reference definitions (``[label]: url "title"``, up to three
    spaces in; the URL may be on the next line), label (:func:`_label`) to URL (``""``
    when it is on the next line); the first of a label wins. Lines in fenced code are
    code, not definitions. Read once per page, for every step that asks whether a label
    is defined (reference figures, autorefs, spaced references)."""
    refs: dict[str, str] = {}
    fences = FenceTracker(_FENCE)
    for line in lines:
        if fences.in_code(line) or "]:" not in line:
            continue
        m = _LINK_DEFINITION.match(line)
        if m:
            refs.setdefault(_label(m.group("label")), m.group("url") or "")
    return refs


def _figure_body(inner: list[str], indent: str, refs: dict[str, str] | None = None) -> list[str]:
    """The inner lines of a ``<figure markdown>``: its ``<figcaption>`` moved onto
    the Markdown images as their title (see :func:`_md_in_html`); a reference image
    (``[![Light mode][1]][1]``) takes it too, written inline with the URL its
    definition in the page (``refs``) gives. The lines lose only their common
    indentation, so a content tab's body (indented under ``=== "Tab"``) stays in it."""
    text = textwrap.dedent("\n".join(ln.rstrip() for ln in inner))
    caption = ""
    cap = _FIGCAPTION.search(text)
    if cap:
        caption = " ".join(re.sub(r"<[^>]+>", " ", cap.group(2)).split())
        if _MARKDOWN_ATTR.search(cap.group(1)):  # '<figcaption markdown>': its Markdown is rendered
            caption = inline_text(_REF_LINK.sub(  # a reference link ('[text][ref]', '[ref]') reads as its text
                lambda m: m.group(1) if m.group(2) is not None or _label(m.group(1)) in (refs or {}) else m.group(0),
                caption))
        text = text[:cap.start()] + text[cap.end():]
    quoted = caption.replace("\\", "\\\\").replace('"', '\\"')

    def inline_ref(im: re.Match[str]) -> str:
        url = (refs or {}).get(_label(im.group("ref") or im.group("alt")))
        return f'![{im.group("alt")}]({url} "{quoted}")' if url else im.group(0)

    if caption and refs and _MD_REF_IMAGE.search(text):
        text = _MD_REF_IMAGE.sub(inline_ref, text)
    if caption and _MD_IMAGE.search(text):
        text = _MD_IMAGE.sub(lambda im: im.group(0) if im.group("title") else
                             f'![{im.group("alt")}]({im.group("src")} "{quoted}")', text)
    elif caption:
        text = f"{text}\n\n{caption}"
    text = re.sub(r"\n{3,}", "\n\n", text.strip("\n"))
    return [indent + ln if ln else ln for ln in text.split("\n")]


def _include_lines(lines: list[str], spec: str, *, mdx: bool) -> list[str]:
    """The lines an include's line selection picks (1-based, inclusive).

    mdx_include (``[ln:2-5,9,7-]``): comma-separated parts, each ``a-b``, ``a`` or
    ``e``; an empty bound or ``e`` is the last line; ``a > b`` gives the lines
    reversed; a column after a dot (``2.5``) is ignored (whole lines); two empty
    lines separate the parts. markdown-include (``lines=1 3 8-10``):
    space-separated numbers and ranges, joined as they come."""
    count = len(lines)

    def index(bound: str) -> int:
        bound = bound.split(".", 1)[0].strip()
        n = bounded_int(bound) if bound.isdigit() else None
        if not bound or bound == "e" or n is None:
            return count
        return min(max(n, 1), max(count, 1))

    out: list[str] = []
    parts = spec.split(",") if mdx else spec.split()
    for k, part in enumerate(p for p in parts if p.strip()):
        if mdx and k:
            out.extend(["", ""])
        start_s, _, end_s = part.partition("-")
        start = index(start_s)
        end = index(end_s) if "-" in part else start
        if start <= end:
            out.extend(lines[start - 1:end])
        else:
            out.extend(reversed(lines[end - 1:start]))
    return out


def _autodoc_options(lines: list[str], site_options: str) -> dict[str, object]:
    """The options of a ``:::`` block (its ``options:`` mapping over the site's
    handler options; its ``handler`` under ``__handler__``); bad YAML gives the site's."""
    import json

    import yaml

    merged: dict[str, object] = {}
    try:
        base = json.loads(site_options) if site_options else {}
    except ValueError:
        base = {}
    if isinstance(base, dict):
        merged.update(base)
    body = textwrap.dedent("\n".join(lines))
    try:
        data = yaml.safe_load(body) if body.strip() else None
    except yaml.YAMLError:
        data = None
    if isinstance(data, dict):
        if isinstance(data.get("options"), dict):
            merged.update({str(k): v for k, v in data["options"].items()})
        if isinstance(data.get("handler"), str):
            merged["__handler__"] = data["handler"]
    return merged


def _autorefs(lines: list[str], defined: Collection[str] | None = None) -> list[str]:
    """mkdocs-autorefs: ``[title][identifier]`` and ``[identifier][]`` link to a
    heading or API object anywhere in the site; the reader sees the title. Such a
    reference with no ``[label]: url`` definition on the page (which Markdown would
    leave as bracketed text) becomes its title; defined references, code spans
    and fenced code stay as written. ``defined``: the page's labels
    (:func:`_link_definitions`, read from ``lines`` when not given)."""
    fences = FenceTracker(_FENCE)
    if defined is None:
        defined = _link_definitions(lines)

    out: list[str] = []
    for line in lines:
        if fences.in_code(line) or "][" not in line:
            out.append(line)
            continue
        spans = [m.span() for m in re.finditer(r"(`+)[^`]*?\1", line)]

        def title(m: re.Match[str], spans: list[tuple[int, int]] = spans) -> str:
            if any(a < m.start() < b for a, b in spans):  # inside a code span
                return m.group(0)
            return m.group(0) if _label(m.group(2) or m.group(1)) in defined else m.group(1)

        out.append(_AUTOREF.sub(title, line))
    return out


def _drop_shebang(m: re.Match[str]) -> str:
    rest = m.string[m.end():m.end() + 1]
    return m.group(1) + (" " if rest == "`" else "")  # a code span starting with ` keeps its padding


def _inline_hilite(lines: list[str]) -> list[str]:
    """pymdownx.inlinehilite: the mock shebang that opens an inline code span
    (`` `#!python range()` ``, `` `:::js var x` ``) names its language and is not
    shown; fenced code is left alone."""
    fences = FenceTracker(_FENCE)
    return [ln if fences.in_code(ln) or "`" not in ln else _HILITE_SHEBANG.sub(_drop_shebang, ln) for ln in lines]


def _toc_marker(lines: list[str], marker: str) -> list[str]:
    """Drop the toc extension's marker paragraphs (a line that is only ``[TOC]``, between
    blank lines, outside code): Python-Markdown replaces such a paragraph by the page's
    table of contents, navigation and no text of the page ("Table of Contents": ``marker``)."""
    fences = FenceTracker(_FENCE)
    out: list[str] = []
    for i, line in enumerate(lines):
        in_code = fences.in_code(line)
        alone = (i == 0 or not lines[i - 1].strip()) and (i + 1 == len(lines) or not lines[i + 1].strip())
        if not in_code and alone and line.strip() == marker:
            continue
        out.append(line)
    return out


def _reference_definitions(lines: list[str]) -> list[str]:
    """Python-Markdown takes a ``[label]: url "title"`` line as a link reference
    definition anywhere in a block, also right under paragraph text (CommonMark
    would not let it interrupt the paragraph, and show it): such a line gets a
    blank line before it, so it is read as the definition it is (the
    ``[//]: # "comment"`` idiom then hides its comment, as MkDocs does)."""
    fences = FenceTracker(_FENCE)
    out: list[str] = []
    for line in lines:
        if not fences.in_code(line) and _REF_DEF_LINE.match(line.strip()) and out and out[-1].strip() \
                and _width(out[-1]) == _width(line) and not _REF_DEF_LINE.match(out[-1].strip()):
            out.append("")  # the same block (also inside an admonition or a tab, indented alike)
        out.append(line)
    return out


# '[text]' then one space or the line break then '[label]' (Python-Markdown ReferenceInlineProcessor.RE_LINK
# '\s?\[([^\]]*)\]'); not an image's or a full reference's second bracket, not a footnote
_SPACED_REF = re.compile(r"(?<![\]\\])(\[(?!\^)[^\[\]\n]{0,500}\])[ \t](\[([^\[\]\n]{1,500})\])")
_LINE_END_REF = re.compile(r"(?<![\]\\])\[(?!\^)[^\[\]\n]{0,500}\]$")
# '[text][^1]': a link then a footnote marker (Python-Markdown's footnote pattern runs before the
# reference one, so '[text]' is a shortcut link); CommonMark reads '[^1]' as the link's label
_FOOTNOTED_REF = re.compile(r"(?<![\]\\!])\[((?!\^)[^\[\]\n]{1,500})\](?=\[\^[^\[\]\n]{1,500}\])")
_MAX_JOINED = 10_000  # a paragraph line is joined to the next only up to this length (linear work)
_LINE_START_REF = re.compile(r"^\[([^\[\]\n]{1,500})\](?!:)")


def _spaced_references(lines: list[str], defined: Collection[str] | None = None) -> list[str]:
    """Python-Markdown reads ``[text] [label]`` and ``[text]`` at a line's end with
    ``[label]`` starting the next line of the paragraph as one reference link (its
    pattern allows one whitespace character between the brackets: Material for
    MkDocs writes ``[colors]\n[palette.primary]``); CommonMark needs them adjacent
    and showed ``[colors] palette.primary``. When ``label`` is defined on the page
    the two are joined. ``[text][^1]`` is the link ``[text]`` and a footnote marker
    (the footnote pattern runs first); CommonMark took ``[^1]`` as the link's label
    and showed ``[text]``: the link gets its own label. Code spans and fenced code
    stay as written. ``defined``: the page's labels (:func:`_link_definitions`, read
    from ``lines`` when not given)."""
    if defined is None:
        defined = _link_definitions(lines)
    if not defined:
        return lines
    fences = FenceTracker(_FENCE)
    out: list[str] = []
    for line in lines:
        if fences.in_code(line) or "]" not in line:
            out.append(line)
            continue
        prev = out[-1] if out else ""
        start = _LINE_START_REF.match(line.strip())
        if (start and len(prev) < _MAX_JOINED and _label(start.group(1)) in defined and prev.strip()
                and _width(prev) == _width(line) and _LINE_END_REF.search(prev, max(0, len(prev) - 600))
                and not _REF_DEF_LINE.match(prev.strip()) and prev.count("`") % 2 == 0):
            line = out.pop() + line.strip()
        if "] [" in line or "]\t[" in line or "][^" in line:
            spans = [m.span() for m in re.finditer(r"(`+)[^`]*?\1", line)]

            def join(m: re.Match[str], spans: list[tuple[int, int]] = spans) -> str:
                if _label(m.group(3)) in defined and not any(a < m.start() < b for a, b in spans):
                    return m.group(1) + m.group(2)
                return m.group(0)

            def own_label(m: re.Match[str], spans: list[tuple[int, int]] = spans) -> str:
                if _label(m.group(1)) in defined and not any(a < m.start() < b for a, b in spans):
                    return f"[{m.group(1)}][{m.group(1)}]"  # the link by its own label, the marker after it
                return m.group(0)

            line = _FOOTNOTED_REF.sub(own_label, _SPACED_REF.sub(join, line))
        out.append(line)
    return out


def _key_name(key: str) -> str:
    key = key.strip().strip('"').strip("'")
    return _KEY_NAMES.get(key.lower(), key.upper() if len(key) == 1 else key.replace("-", " ").title())


def _inline_marks(lines: list[str], extensions: frozenset[str]) -> list[str]:
    """PyMdown inline syntax the CommonMark parser does not know, as the reader
    sees it: pymdownx.keys ``++ctrl+alt+del++`` -> "Ctrl+Alt+Del"; pymdownx.mark
    ``==text==``, pymdownx.caret ``^^text^^`` and ``x^2^``, pymdownx.tilde
    ``~~text~~`` and ``H~2~O`` -> their text; pymdownx.critic ``{++add++}``,
    ``{--del--}``, ``{==mark==}``, ``{>>comment<<}``, ``{~~old~>new~~}`` -> the
    text of the accepted change. Code spans and fenced code stay as written."""
    fences = FenceTracker(_FENCE)
    subs: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = []
    if "pymdownx.critic" in extensions:
        subs += [(_CRITIC_SUB, lambda m: m.group(2)), (_CRITIC_COMMENT, lambda m: ""),
                 (_CRITIC, lambda m: "" if m.group(1) == "--" else m.group(2))]
    if "pymdownx.keys" in extensions:
        subs.append((_KEYS, lambda m: "+".join(_key_name(k) for k in _KEY_SPLIT.findall(m.group(1)))))
    if "pymdownx.mark" in extensions:
        subs.append((_MARK, lambda m: m.group(1)))
    if "pymdownx.caret" in extensions:
        subs += [(_CARET_INS, lambda m: m.group(1)), (_CARET_SUP, lambda m: m.group(1))]
    if "pymdownx.tilde" in extensions:
        subs += [(_TILDE_DEL, lambda m: m.group(1)), (_TILDE_SUB, lambda m: m.group(1))]
    out: list[str] = []
    for line in lines:
        if fences.in_code(line) or not any(c in line for c in "+=^~{") or set(line.strip()) <= {"=", "-"}:
            out.append(line)
            continue
        # code spans stay as written: each is a placeholder while the marks are read, so that a
        # mark around one ('~~`OLD`~~') is still a pair
        spans: list[str] = []

        def hide(m: re.Match[str], spans: list[str] = spans) -> str:
            spans.append(m.group(0))
            return f"\x00{len(spans) - 1}\x00"

        def show(m: re.Match[str], spans: list[str] = spans) -> str:
            k = int(m.group(1))
            return spans[k] if k < len(spans) else m.group(0)

        masked = re.sub(r"`+[^`]*?`+", hide, line)
        for pattern, repl in subs:
            masked = pattern.sub(repl, masked)
        out.append(re.sub("\x00(\\d{1,9})\x00", show, masked))
    return out


_MATH_INLINE = re.compile(r"(?<![\\$])\$(?![\s$])((?:\\.|[^\\$\n])+?)(?<!\s)\$(?![\d$])"  # $x$ (smart_dollar)
                          r"|(?<!\\)\\\((.+?)\\\)")  # \(x\)
_MATH_BLOCK_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?:(?P<open>\$\$|\\\[)|\\begin\{(?P<env>[A-Za-z]+\*?)\})")
_MATH_CLOSE = {"$$": "$$", "\\[": "\\]"}


def _arithmatex(lines: list[str]) -> list[str]:
    """pymdownx.arithmatex: ``$$ ... $$``, ``\\[ ... \\]`` and ``\\begin{env} ... \\end{env}``
    blocks and ``$...$``/``\\(...\\)`` inline math are LaTeX that MathJax/KaTeX
    typesets; they are kept as their source (``$$``/``$`` delimited, the
    :mod:`murar.ingest.markup.mathtext` convention) in code the Markdown parser
    leaves alone (its ``_``, ``{...}``, ``\\`` are no emphasis, attribute lists or
    escapes). ``$5 or $10`` is no math (smart dollar: no blank inside the dollars)."""
    fences = FenceTracker(_FENCE)
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if fences.in_code(line):
            out.append(line)
            i += 1
            continue
        m = _MATH_BLOCK_OPEN.match(line)
        if m and (i == 0 or not lines[i - 1].strip() or m.group("env")):
            close = f"\\end{{{m.group('env')}}}" if m.group("env") else _MATH_CLOSE[m.group("open")]
            start = m.end() if not m.group("env") else m.start("indent") + len(m.group("indent"))
            rest = line[start:]
            found: int | None = None
            for j in range(i, min(len(lines), i + 500)):
                hay = rest if j == i else lines[j]
                at = hay.find(close, 1 if j == i and m.group("env") else 0)
                if at >= 0 and hay[at + len(close):].strip() in ("", "$$"):
                    found = j
                    break
            if found is not None:
                body = [rest] + lines[i + 1:found + 1] if found > i else [rest]
                last = body[-1]
                cut = last.rfind(close)
                body[-1] = last[:cut + len(close)] if m.group("env") else last[:cut]
                out.extend(math_fence(m.group("indent"), "\n".join(body)))
                i = found + 1
                continue
        if "$" in line or "\\(" in line:
            parts = re.split(r"(`+[^`]*?`+)", line)  # code spans stay as written
            for k in range(0, len(parts), 2):
                parts[k] = _MATH_INLINE.sub(_math_span, parts[k])
            line = "".join(parts)
        out.append(line)
        i += 1
    return out


def _math_span(m: re.Match[str]) -> str:
    return math_code_span(inline_math(m.group(1) if m.group(1) is not None else m.group(2)))


_ANNOTATION_MARK = re.compile(r"\((\d{1,3})\)!")
_COMMENT_MARK = re.compile(r"(?:#|//|--|;|%|/\*|<!--|\{#|\{/\*).*\(\d{1,3}\)")  # a marker in a comment
_ORDERED_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<num>\d{1,9})[.)](?P<gap>[ \t]+)(?=\S)")
# an admonition opener of several unquoted words: "!!! tip inline end" (every word a class)
_ADMONITION_CLASSES = re.compile(r"^([ \t]*)(!!!|\?\?\?\+?)[ \t]*([\w-]+)(?:[ \t]+[\w-]+)+[ \t]*$")
_ANNOTATE_ADMONITION = re.compile(r"^(?P<indent>[ \t]*)(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*?[ \t]+annotate\b")
_ANNOTATE_DIV = re.compile(r"""^[ \t]*<div\b[^>]*\bclass=["'][^"']*\bannotate\b[^"']*["'][^>]*>""")
_DIV_CLOSE = re.compile(r"^[ \t]*</div>")
_ANNOTATE_ATTR = re.compile(r"^[ \t]*\{:?[^{}\n]*(?<![\w-])\.annotate(?![\w-])[^{}\n]*\}[ \t]*$")


def _admonition_classes(lines: list[str]) -> list[str]:
    """An admonition opened with more than one word and no quoted title (``!!! tip inline``,
    ``??? note inline end``, ``!!! warning annotate``): Python-Markdown's admonition (and
    pymdownx.details) read every unquoted word as a CSS class (Material's ``inline``/``end``
    modifiers) and title the box with the first one capitalized (admonition.py ``RE`` and
    ``get_class_and_title``); the parser's plugin would take the words after the first as the
    title. The opener keeps its first word only; fenced code is left alone."""
    out: list[str] = []
    fences = FenceTracker(_FENCE)
    for line in lines:
        m = None if fences.in_code(line) else _ADMONITION_CLASSES.match(line)
        out.append(f"{m.group(1)}{m.group(2)} {m.group(3)}" if m else line)
    return out


def _code_annotations(lines: list[str], *, all_code: bool) -> list[str]:
    """Material for MkDocs annotations ("Code blocks" and "Annotations" references).

    In a code block with the ``annotate`` class (every code block when the theme
    feature ``content.code.annotate`` is on) a ``(1)`` in a comment is a marker,
    rendered as a bubble (``(1)!``: the comment is stripped too); the ordered list
    right after the block holds the annotations, shown on a click and hidden
    under the code. The same for a block with ``{ .annotate }`` and its ``(1)``
    markers in text, for an admonition with the ``annotate`` modifier (``!!! note
    annotate``) and a ``<div class="annotate" markdown>`` (the list after it).
    murar keeps the marker as ``(1)`` (the ``!`` dropped) and the
    list as the annotations' text next to the code, each item starting ``(1)``
    so that it reads as the note of its marker.
    """
    out: list[str] = []
    i = 0
    annotated_block = False
    admonition: int | None = None  # indent of an "annotate" admonition whose body is being passed
    in_div = False  # inside <div class="annotate" markdown>
    while i < len(lines):
        line = lines[i]
        if admonition is not None:
            if not line.strip() or len(line) - len(line.lstrip()) > admonition:
                out.append(line)
                i += 1
                continue
            admonition, annotated_block = None, True
        f = _FENCE.match(line)
        if f:
            fence = f.group("fence")
            info = line[f.end():]
            close = re.compile(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
            end = next((k for k in range(i + 1, len(lines)) if close.match(lines[k])), len(lines) - 1)
            block = lines[i:end + 1]
            if (all_code or re.search(r"(?<![\w-])\.annotate(?![\w-])", info)) and any(
                    _COMMENT_MARK.search(ln) for ln in block[1:-1]):
                block = [block[0], *(_ANNOTATION_MARK.sub(r"(\1)", ln) for ln in block[1:-1]), *block[-1:]]
                annotated_block = True
            out.extend(block)
            i = end + 1
            continue
        adm = _ANNOTATE_ADMONITION.match(line)
        if _ANNOTATE_ATTR.match(line) or adm or _ANNOTATE_DIV.match(line) or (in_div and _DIV_CLOSE.match(line)):
            annotated_block = bool(_ANNOTATE_ATTR.match(line)) or (in_div and bool(_DIV_CLOSE.match(line)))
            if adm:
                admonition = len(adm.group("indent"))
            in_div = bool(_ANNOTATE_DIV.match(line)) or (in_div and not _DIV_CLOSE.match(line))
            out.append(line)
            i += 1
            continue
        if annotated_block and line.strip():
            annotated_block = False
            m = _ORDERED_ITEM.match(line)
            if m:
                indent = m.group("indent")
                notes: list[str] = []
                while i < len(lines):
                    ln = lines[i]
                    item = _ORDERED_ITEM.match(ln)
                    if item and item.group("indent") == indent:
                        ln = f"{ln[:item.start('num')]}{item.group('num')}.{item.group('gap')}" \
                             f"({item.group('num')}) {ln[item.end():]}"
                    elif ln.strip() and len(ln) - len(ln.lstrip()) <= len(indent) and not item:
                        break
                    notes.append(ln)
                    i += 1
                out.extend(_code_annotations(notes, all_code=all_code))  # annotations nested in a note
                continue
        out.append(line)
        i += 1
    return out


def _emoji_text(match: re.Match[str]) -> str:
    """What an emoji shortcode (with the space :data:`_EMOJI_SPACED` took beside it) leaves in the
    text: an emoji that states a value its character (:data:`VALUE_EMOJI`), the others nothing."""
    found = _EMOJI.search(match.group(0))
    char = VALUE_EMOJI.get(found.group(0)[1:].partition(":")[0]) if found else None
    if found is None or char is None:
        return ""
    return match.group(0)[:found.start()] + char + match.group(0)[found.end():]


def _emoji(lines: list[str]) -> list[str]:
    """pymdownx.emoji: ``:smile:``/``:man_raising_hand:`` shortcodes become emoji
    images, not words; they go from the text (code spans and fences stay), except
    the check marks, crosses and warning signs that state a value (:func:`_emoji_text`)."""
    return outside_code(lines, lambda part: _EMOJI_SPACED.sub(_emoji_text, part), ":", _FENCE)


def emoji_shortcodes(text: str) -> str:
    """``text`` with its emoji shortcodes read as :func:`_emoji` reads them (a generator's emoji
    plugin draws them as pictures: Jekyll's jemoji as pymdownx.emoji does)."""
    return text if text.count(":") < 2 else "\n".join(_emoji(text.split("\n")))


def _fancybox_image(m: re.Match[str]) -> str:
    """One fancyboxmd image as the Markdown image the converter reads. As the
    extension's ``FancyBoxInlineProcessor`` builds it (fancyboxmd 1.1.0): the
    bracket text is the ``alt``; the link is read as Python-Markdown reads a link
    (a quoted title at its end), its part before the first comma is the ``src``
    (after it, the preview width); the figure caption is the quoted title when
    there is one (even ``""``), else the bracket text."""
    alt, link = m.group(1), m.group(2).strip()
    description: str | None = None
    if link[-1:] in ('"', "'"):
        opening = re.search(r"\s" + link[-1], link[:-1])
        if opening:
            description, link = link[opening.end():-1], link[: opening.start()].strip()
    src = link.split(",")[0].strip().strip("<>")
    caption = alt if description is None else description
    title = ' "' + caption.replace("\\", "\\\\").replace('"', '\\"') + '"' if caption.strip() else ""
    return f"![{alt}](<{src}>{title})" if src else m.group(0)[1:]


def _fancybox(lines: list[str]) -> list[str]:
    """fancyboxmd (``markdown_extensions: [fancyboxmd]``): ``!![Title](image.png "Description")``
    and ``!![Title](image.png, 600px)`` are figures of the image with a caption
    (:func:`_fancybox_image`), not a "!" before an image."""
    return outside_code(lines, lambda part: _FANCYBOX.sub(_fancybox_image, part), "!![", _FENCE)


def _video_marks(lines: list[str], mark: str) -> list[str]:
    """mkdocs-video (``plugins: [mkdocs-video]``): its ``on_page_content`` replaces
    every ``<img>`` whose ``alt`` is the plugin's ``mark`` (default ``type:video``)
    by an ``<iframe>`` (or, with ``is_video``, a ``<video>``) of the image's
    ``src``: ``![type:video](clip.mp4)`` is a video, never an image."""
    pattern = re.compile(r"!\[" + re.escape(mark) + r"\]\(\s*(<[^<>\n]*>|[^\s()]+)(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)")

    def video(m: re.Match[str]) -> str:
        src = m.group(1).strip("<>").strip()
        return f'<video src="{html.escape(src, quote=True)}"></video>' if src else m.group(0)

    return outside_code(lines, lambda part: pattern.sub(video, part), "![" + mark + "]", _FENCE)



def _drop_attrs(pattern: re.Pattern[str], line: str) -> str:
    """``line`` without the attribute lists ``pattern`` finds at their ``{`` and the run of
    spaces and tabs before each (what ``[ \\t]+{...}`` removed). Linear in the line."""
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(line):
        before = line[pos:m.start()]
        out.append(before.rstrip(" \t"))
        pos = m.end()
    if not out:
        return line
    out.append(line[pos:])
    return "".join(out)

def _attr_lists(lines: list[str]) -> list[str]:
    """attr_list (Python-Markdown "Attribute Lists"): ``{: #id .class key=value }``
    sets HTML attributes, it is not text. A list ending a heading line gives the
    heading its ``#id`` (kept as ``{#id}``, the anchor murar reads) and goes; a
    list alone on a line (the block's) or ending a line (a list item's, a table
    cell's) goes; one right after an emphasis closes (``*text*{ .x }``) goes, and
    so does the colon form (``[text][ref]{: .x }``) after a link, image or code
    span, which the parser's attrs plugin does not read (the other form there is
    the parser's). An escaped id (``{: #\\8.0 }``) is its text without the
    backslashes. Fenced
    code is left alone; braces holding anything but attributes stay as text."""
    out: list[str] = []
    fences = FenceTracker(_FENCE)
    for k, line in enumerate(lines):
        if fences.in_code(line) or "{" not in line:
            out.append(line)
            continue
        m = _HEADING_ATTRS.match(line)
        if m:
            ident = _ATTR_ID.search(m.group("attrs"))
            anchor = ident.group(1).replace("\\", "") if ident else ""
            out.append(m.group("head") + (f" {{#{anchor}}}" if anchor else ""))
            continue
        if _LINE_ATTRS.match(line):
            continue
        if (_LINE_ANY_ATTRS.match(line) and k > 0 and lines[k - 1].strip()
                and (k + 1 == len(lines) or not lines[k + 1].strip())):
            continue  # the block's own list, on its last line (Python-Markdown's BLOCK_RE)
        if _LIST_ITEM.match(line):  # a list item's text ends with its list (HEADER_RE on li)
            line = _drop_attrs(_TRAILING_ANY_ATTRS, line)
        elif line.lstrip().startswith("|") or line.rstrip().endswith("|"):  # table cells (td/th)
            line = _drop_attrs(_CELL_ATTRS, line)
        out.append(_SPAN_ATTRS.sub(_span_attrs, _drop_attrs(_TRAILING_ATTRS, line)))
    return out


def _span_attrs(m: re.Match[str]) -> str:
    """An attribute list right after an inline element (the tail of a link, image,
    code span or emphasis: Python-Markdown's INLINE_RE) goes, except the
    ``{ .x #y key=v }`` form the parser's attrs plugin reads itself after a link,
    image or code span. A list holding a bare word goes only after an element that
    really ends there: a link's ``](...)``, a closing backtick, a closing emphasis."""
    start = m.start()
    text = m.string
    before = text[start - 1] if start else ""
    written = m.group(0)
    if before != "`" and text.count("`", max(0, start - 2000), start) % 2:
        return written  # inside a code span ("`f(options={...})`"): code, never attributes
    if _OLD_FORM.match(written):
        if before in ")]`" and not written.startswith("{:"):
            # Python-Markdown reads backslash escapes inside the list (target=\_blank is "_blank");
            # the parser's attrs plugin reads the unescaped form, and showed the escaped one as text
            return _ESCAPED_PUNCT.sub(r"\1", written) if "\\" in written else written
        return ""
    prefix = text[max(0, start - 2000):start]
    if before == ")":
        closed = _LINK_END.search(prefix) is not None
    elif before == "]":
        closed = True
    elif before == "`":
        closed = prefix.count("`") % 2 == 0
    else:  # emphasis: a right-flanking closer, after text and with an opener before it
        closed = len(prefix) > 1 and not prefix[-2].isspace() and prefix.count(before) % 2 == 0
    return "" if closed else written


_DEFINITION = re.compile(r"^ {0,3}:[ \t]{1,3}(?=\S)")
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")


def _termless_definitions(lines: list[str]) -> list[str]:
    """def_list: a ``:   text`` definition right after a heading (blank lines between) has
    no term; Python-Markdown's ``DefListProcessor`` makes it a ``<dd>`` of its own (no
    paragraph before it to take terms from), with the lines indented under it as its
    content. The parser's deflist rule needs a term line, so the marker is removed and
    the indented lines under it dedented: the text reads as the page shows it. Other
    definitions are the parser's. An unindented line right under a line of the definition's
    text continues its paragraph (lazy continuation: ``:   Specifies the engine. Accepted
    values are`` wrapped onto ``and mariadb.``) and the definition goes on; one after a
    blank line ends it. Fenced code is left alone; one pass over the lines."""
    out: list[str] = []
    fences = FenceTracker(_FENCE)
    last = ""  # the last non-blank line before this one
    inside = False  # in the indented content of such a definition
    lazy = False  # the line before this one is paragraph text of the definition
    for line in lines:
        code = fences.in_code(line)
        if inside and (not line.strip() or line.startswith(("    ", "\t"))):
            # the definition's indented content, a fenced block in it too (under an admonition)
            out.append(_dedent(line, 4) if line.strip() else line)
            lazy = bool(line.strip()) and not code
            continue
        if code:
            out.append(line)
            last, inside = line, False
            continue
        if inside and lazy:
            out.append(line)
            last = line
            continue
        inside = False
        m = _DEFINITION.match(line)
        if m and _ATX_HEADING.match(last):
            out.append(line[m.end():])
            inside = lazy = True
        else:
            out.append(line)
        if line.strip():
            last = line
    return out


def _dedent(line: str, n: int) -> str:
    expanded = line.replace("\t", "    ")
    cut = 0
    while cut < n and cut < len(expanded) and expanded[cut] == " ":
        cut += 1
    return expanded[cut:]


def _split_selector(spec: str) -> tuple[str, str]:
    """``file.md:3:9`` -> (``file.md``, ``:3:9``); ``file.py:func`` -> (``file.py``, ``:func``);
    ``file.md`` -> (``file.md``, ``""``). Line ranges may be listed with commas
    (``file.md:1:3,6:8``)."""
    m = re.match(r"^(.*?\.[A-Za-z0-9]+)((?::-?\d*(?::-?\d*)?(?:,-?\d*(?::-?\d*)?)*)|:[A-Za-z][-_0-9A-Za-z]*)?$",
                 spec.strip())
    if not m:
        return spec.strip(), ""
    return m.group(1), m.group(2) or ""


def _line_index(value: str, count: int) -> int | None:
    """A 1-based snippet line number (negative: from the end) as a 0-based index; None when empty."""
    if not value or value == "-":
        return None
    n = bounded_int(value)
    if n is None:  # not a number: the whole file, as an empty bound
        return None
    return max(count + n, 0) if n < 0 else max(n - 1, 0)


def _select_lines(lines: list[str], selector: str) -> list[str] | None:
    """The lines of a snippet that ``selector`` picks (pymdownx.snippets "Snippet Lines"
    and "Snippet Sections"):

    - ``""``: the whole file;
    - ``:start:end`` (1-based, both inclusive, either side may be empty, negative
      counts from the end), several ranges joined with ``,``;
    - ``:name``: the lines between ``--8<-- [start:name]`` and ``--8<-- [end:name]``.

    Section marker lines (``--8<-- [start:x]``/``[end:x]``) are never part of the
    output, whatever was selected. Returns None when the named section is absent.
    Line numbers are clamped and at most 100,000 lines are selected.
    """
    if selector and not selector[1:2].isdigit() and selector[1:2] not in ("", ":", "-", ","):
        name = selector[1:].lower()
        out: list[str] = []
        inside = found = False
        for line in lines:
            m = _SECTION_MARK.match(line)
            if m is None:
                if inside:
                    out.append(line)
                continue
            if m.group(2).lower() == name:
                if m.group(1).lower() == "start":
                    inside = found = True
                elif inside:
                    break
        return out if found else None
    picked = lines
    if selector:
        picked = []
        for part in selector[1:].split(","):
            if len(picked) >= _MAX_SELECTED_LINES:  # ":1:-1,1:-1,..." repeats the file
                picked = picked[:_MAX_SELECTED_LINES]
                break
            bounds = (part.split(":", 1) + [""])[:2]
            start = _line_index(bounds[0], len(lines))
            end = _line_index(bounds[1], len(lines))
            picked.extend(lines[start or 0: None if end is None else end + 1])
    return [ln for ln in picked if not _SECTION_MARK.match(ln)]


def site_extensions(site: Site) -> frozenset[str]:
    """The Markdown extensions a site declares (MkDocs ``markdown_extensions``), else none."""
    names = site.config.settings.get("markdown_extensions", "")
    return frozenset(names.split())


def convert_pymdown(path: Path, *, site: Site, assets_dir: Path) -> ParsedDocument:
    """Convert one Python-Markdown page (an MkDocs page).

    Raises:
        IngestError: the file cannot be read, is binary, or is outside the site root.
    """

    root = site.config.root
    rel = page_rel(path, root)
    opts = MarkdownOptions(plugins=PLUGINS)
    warnings: list[str] = []
    text = read_source(path, max_bytes=opts.max_bytes, warnings=warnings)
    # the generator's page pass first (MkDocs plugins' on_page_markdown, e.g. macros),
    # then the Python-Markdown extensions (snippets are a Markdown preprocessor)
    text = site.preprocess(text, page_rel=rel, warnings=warnings)
    tr = PymdownTransformer(site, extensions=site_extensions(site))
    markdown = tr.transform(text, page_rel=rel)
    return convert_markdown_text(markdown, path=path, root=root, site=site, options=opts,
                                 warnings=warnings + tr.warnings, preprocessed=True)
