"""MDX pages (Markdown + JSX + ESM, as Docusaurus and other React doc sites write them).

An MDX page is turned into the Markdown and HTML the Markdown converter reads,
the way the rendered page reads (MDX documentation, "What is MDX?"; Docusaurus
"MDX and React", "Admonitions", "Tabs"):

- ``import``/``export`` statements (ESM, possibly over several lines) are
  dropped; ``import name from './x.png'`` binds an image used later as
  ``<img src={name} />``; ``import Part from './_part.mdx'`` binds a partial
  that is inlined where ``<Part />`` is used (its relative links rewritten to
  stay correct from the page; nested partials and cycles bounded; the
  partial's ``{props.name}`` reads as ``<Part name="..." />`` gives it);
- JSX components are reduced to their text: the tags go, the Markdown
  between them stays; ``title``/``label``/``header`` attributes are kept as a
  bold line; ``<TabItem>`` becomes its tab label followed by its content; an
  image component (``<Image img={require('./x.png')} />``, ``<ThemedImage
  sources={{light: ..., dark: ...}} />``: the light one) becomes an ``<img>``,
  and so does an imported SVG used as a component (``import Logo from
  './logo.svg'`` then ``<Logo />``: Docusaurus draws it inline, "Inline SVGs");
  a video player component (``<ReactPlayer url={require('./x.mp4').default} />``,
  ``<Video src=... />``, ``<YouTube url=... />``) whose ``url``/``src`` names
  a video file or a video host's page becomes a ``<video>``; a component that is a
  file of the site and renders an ``<iframe>`` (``<Arcade id="..." title="..." />``
  whose module writes ``src={`https://demo.arcade.software/${props.id}?embed`}``)
  becomes that ``<iframe>``, its ``src`` filled from the tag's attributes, and one
  that draws one of its props as its ``<img>`` (``<Thumbnail src="/img/x.png" />``
  whose module writes ``<img src={require(`@site/static${src}`).default} />``) is an
  image component (inside ``<figure>``, the ``<figcaption>`` is its caption);
- ``<CodeBlock language="js">{Source}</CodeBlock>`` whose ``Source`` is imported
  as text (``import Source from '!!raw-loader!./x.js'`` or ``'./x.js?raw'``)
  becomes a fenced code block holding that file (Docusaurus "Code blocks");
- ``:::note Title`` ... ``:::`` admonitions, and their JSX form ``<Admonition
  type="note" title="Title">``, become a bold "Note: Title" line followed by
  their content;
- JSX attribute expressions on HTML elements are evaluated when they are
  literals, imported names, ``require('./x.png').default`` (the file
  ``./x.png``, relative to the file that writes it, so a partial's stays its
  own) or base-URL helpers (``useBaseUrl('img/x.png')``: the site path
  ``/img/x.png``); :meth:`Site.resolve_asset` resolves the path;
  other expressions stay visible to the resolver, which records them as
  unsupported syntax; ``style={{...}}`` and event handlers are dropped;
- a ``{JavaScript expression}`` opening a line (an MDX flow expression, e.g.
  the render function of ``<BrowserOnly>``) is code, not text, and goes,
  unless it is a string literal (its text stays);
- an inline ``{expression}`` in text renders its value when murar knows it
  (a literal, an exported constant, a front matter value), nothing when it is
  ``props``/``frontMatter`` the page is not given or any other code (MDX 3);
  under MDX 1 (a Docusaurus 2 site, ``mdx.version`` 1) braces in text are text;
- data a page imports from a module of the site (``import { labels } from
  './homeData'``, ``export const labels = {...}`` there) is read as the literal it is:
  ``{labels.title}`` shows its string, in text and as a component's prop, and
  ``{cards.map((card) => <Card {...card} />)}`` draws the component once per item;
- MDX 2+ has no HTML blocks: Markdown right after a line of tags is Markdown,
  and so is the text of an element written on one line (``<summary>**Example
  values**</summary>`` is bold, ``<div>See [the guide](/x)</div>`` a link): it
  is given to the Markdown reader as the HTML MDX makes of it;
- components the site registers for every page (Docusaurus ``src/theme/MDXComponents``)
  are bound without an import, and a component is known by its module as well
  as by its name (``Shot`` from ``.../ZoomableImage`` is an image viewer);
- a ```` ```mdx-code-block ```` fence is not code: its content is read as
  MDX (Docusaurus unwraps it before compiling, for Markdown that other tools
  must show as code);
- ``<head>`` metadata blocks and ``{/* comments */}`` are removed.

Fenced code blocks are copied untouched. Paths are never guessed here: links
go to the :class:`~murar.ingest.sites.base.Site`.
"""

from __future__ import annotations

import bisect
import json
import posixpath
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from markdown_it import MarkdownIt

from murar.ingest.budget import PageCharBudget
from murar.ingest.frontmatter import parse_front_matter
from murar.ingest.markdown import (
    GENERATOR_PLUGINS,
    MarkdownOptions,
    convert_markdown_text,
)
from murar.ingest.markup.builder import page_rel, read_include, read_source
from murar.ingest.markup.mathtext import remark_math
from murar.ingest.markup.mdtext import (
    DIRECTIVE_ADMONITION,
    MDX_FENCE,
    FenceTracker,
    admonition_label,
    directive_title,
    label_lines,
)
from murar.ingest.markup.tabs import set_close, set_open, tab_start
from murar.ingest.media_flags import FlagOptions, length_px
from murar.ingest.sites import _jsconfig as js
from murar.ingest.sites._links import helper_path
from murar.ingest.sites.base import Site
from murar.schema import ParsedDocument

MAX_PARTIAL_DEPTH = 5
#: partials one page may inline, all depths together, and their characters in all (20 uses of a
#: 980 KB partial made 19,600,000 characters from a 300-byte page: 30 s; a partial using another
#: ten times, MAX_PARTIAL_DEPTH deep, is 10**depth inlines)
MAX_PARTIALS = 500
MAX_PARTIAL_CHARS = 10_000_000
MAX_TAG_CHARS = 2000
MAX_FAILED_TAGS = 20  # per line: after that the rest of the line is text
MAX_RAW_CHARS = 200_000  # a file imported as code text is read up to this many characters
MAX_LINE_CHARS = 20_000
#: characters the {expression} scans of one page may read in all (each scan reads up to
#: MAX_EXPRESSION_LINES lines: a page of unclosed braces rescans the same lines)
MAX_EXPRESSION_SCAN_CHARS = 5_000_000
MAX_EXPRESSION_LINES = 400  # a {JavaScript expression} that does not close within this many lines is text  # longer lines are left as text: JSX scanning stays linear on hostile input
_PROPS_EXPR = re.compile(r"\{\s*props\.([A-Za-z_$][\w$]*)\s*\}")
_MDX_CODE_BLOCK = re.compile(r"^ *(`{3,4}) *mdx-code-block\s*$")
_NOT_IN_EXPRESSION = re.compile(r"^\s{0,3}(?:#{1,6}\s|:::|`{3,}|~{3,})")
_ESM_START = re.compile(r"^(import|export)\b(?!\s*[-:=])")
_RAW_IMPORT = re.compile(r"^!{0,2}raw-loader!(.+)$")
_CODE_EXTS = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".json")


def _raw_code_block(names: list[str]) -> re.Pattern[str]:
    """``<CodeBlock ...>{Source}</CodeBlock>`` (or ``{`literal`}``, or plain text without
    tags or braces) written with any of ``names`` (``@theme/CodeBlock`` imported as
    ``Code``, a site component drawing its children in one): attributes, imported name,
    literal, text."""
    tags = "|".join(re.escape(n) for n in names)
    return re.compile(rf"<(?P<tag>{tags})\b([^<>]{{0,500}})>(?:\s*\{{\s*(?:([A-Za-z_$][\w$]*)|`((?:[^`\\]|\\.)*)`)"
                      r"\s*\}|([^<>{}]{0,5000}?[^<>{}\s]))\s*</(?P=tag)>", re.DOTALL)


# a JavaScript escape in a template literal: \u{1F600}, \u00e9, \x41, a line continuation, \n, \#
_JS_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r?\n)|(.))", re.DOTALL)
_JS_ESCAPED_CHARS = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _template_text(raw: str) -> str:
    """The string a template literal's ``raw`` text is (its "cooked" value, ECMAScript
    "Static Semantics: TV"): ``\\n`` a newline, ``\\u00e9`` é, a backslash before a
    line break nothing, any other escaped character itself (``\\#`` is ``#``,
    ``\\``` a backtick); ``${...}`` substitutions stay as written."""
    def repl(m: re.Match[str]) -> str:
        hexa = m.group(1) or m.group(2) or m.group(3)
        if hexa:
            point = int(hexa, 16)
            return chr(point) if point <= 0x10FFFF else ""
        if m.group(4) is not None:
            return ""
        return _JS_ESCAPED_CHARS.get(m.group(5), m.group(5))
    return _JS_ESCAPE.sub(repl, raw)


_THEME_CODE_BLOCK = re.compile(r"""\bimport\s+([A-Za-z_$][\w$]*)\s+from\s+(['"])@theme/CodeBlock\2""")


_TAB_ITEM_OPEN = re.compile(r"""<TabItem\b[^<>]{0,300}?\bvalue\s*=\s*(?:\{\s*)?(['"])([^'"]{1,100})\1""")
_TAB_ITEM_CLOSE = re.compile(r"</TabItem\s*>")


def _code_props(code: str) -> list[tuple[str, str, str]]:
    """``(prop, tab label, language)`` for each prop a component module draws as the child
    of its ``@theme/CodeBlock`` (``<CodeBlock className="language-bash">{props.bash}</CodeBlock>``),
    first occurrence of each, in module order; the label is the one its innermost enclosing
    ``<TabItem value=...>`` has in the module's ``values={[{label, value}]}`` (the value itself
    when not listed; ``""`` outside any tab)."""
    m = _THEME_CODE_BLOCK.search(code)
    if m is None:
        return []
    name = re.escape(m.group(1))
    block = re.compile(rf"<{name}\b([^<>]{{0,300}})>\s*\{{\s*(?:props\.)?([A-Za-z_$][\w$]*)\s*\}}\s*</{name}\s*>")
    labels: dict[str, str] = {}
    for t in _TABS_VALUES.finditer(code, 0, MAX_COMPONENT_CHARS):
        value = t.group(4) if t.group(4) is not None else t.group(6)
        labels.setdefault(value, t.group(2) if t.group(2) is not None else t.group(8))
    events = sorted([(o.start(), 1, o.group(2)) for _, o in zip(range(200), _TAB_ITEM_OPEN.finditer(code))]
                    + [(c.start(), 0, "") for _, c in zip(range(200), _TAB_ITEM_CLOSE.finditer(code))])
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for _, b in zip(range(50), block.finditer(code)):
        if b.group(2) in seen or b.group(2) == "children":
            continue
        seen.add(b.group(2))
        stack: list[str] = []
        for pos, is_open, value in events:
            if pos > b.start():
                break
            if is_open:
                stack.append(value)
            elif stack:
                stack.pop()
        lang = re.search(r"""\b(?:language\s*=\s*|className\s*=\s*(?=['"]language-))(['"])(?:language-)?([\w+#.-]*)\1""",
                         b.group(1))
        out.append((b.group(2), labels.get(stack[-1], stack[-1]) if stack else "", lang.group(2) if lang else ""))
    return out


def _draws_children_as_code(code: str) -> bool:
    """Whether a component module draws its children in ``@theme/CodeBlock``: it imports
    it and renders ``<CodeBlock ...>{expression}</CodeBlock>`` from its ``children``
    (``<CodeBlock className={className}>{children.replace('latest', version)}</CodeBlock>``,
    a code block with the site's version filled in)."""
    m = _THEME_CODE_BLOCK.search(code)
    if m is None or not re.search(r"\bchildren\b", code):
        return False
    return re.search(rf"<{re.escape(m.group(1))}\b[^<>]{{0,500}}>\s*\{{", code) is not None
_IMPORT = re.compile(r"""^import\s+(.+?)\s+from\s+(['"])([^'"]+)\2""", re.DOTALL)
_NAMED = re.compile(r"\{([^{}]{0,2000})\}")
# the <iframe> a site's own component renders and its src: a literal or a template literal
# filled from the component's props (`https://demo.arcade.software/${props.id}?embed`)
_COMPONENT_IFRAME = re.compile(r"""<iframe\b[^<]{0,2000}?\bsrc\s*=\s*(?:\{\s*(`[^`]{1,500}`|(?:props\.)?[A-Za-z_$][\w$]*)\s*\}"""
                               r"""|(["'])([^"']{1,500})\2)""", re.DOTALL)
_COMPONENT_TITLE = re.compile(r"""\btitle\s*=\s*(?:\{\s*(?:props\.)?([A-Za-z_$][\w$]*)\s*\}|(["'])([^"']{0,300})\2)""")
_COMPONENT_IMG = re.compile(r"<img\b[^<>]{0,500}?\bsrc\s*=\s*\{([^{}]{1,300})\}")
# a prop a component plays: <video src={url}> or <source src={props.mp4} type="video/mp4" />
_COMPONENT_VIDEO_SRC = re.compile(r"<(?:video|source)\b[^<>]{0,500}?\bsrc\s*=\s*\{\s*(?:props\.)?([A-Za-z_$][\w$]*)\s*\}")
# a prop rendered as an element's child (<span>{label}</span>, or after another child expression:
# {icon && <img ... />}{text}</a>), and an array prop mapped to elements
# or after words of text in the element (<span>✍️ {tip}</span>, <b>Price</b>: {price})
_COMPONENT_CHILD = re.compile(r"(?:[>}]|>[^<>{}=]{1,100}?)\s*\{\s*(?:props\.)?([A-Za-z_$][\w$]*)\s*\}\s*[<{]")
_COMPONENT_MAP = re.compile(r"\{\s*(?:props\.)?([A-Za-z_$][\w$]*)\.map\(\s*\(?\s*([A-Za-z_$][\w$]*)")
# (a name starts where no name character stands before it: a search from inside a long name rescanned it)
# {items.map(([label, value], i) => ...)}: an array prop mapped with each item destructured
_COMPONENT_TUPLE_MAP = re.compile(r"\{\s*(?:props\.)?([A-Za-z_$][\w$]*)\.map\(\s*\(\s*\[([^\[\]]{1,200})\]")
# the items of the sidebar category the page is the index of (@docusaurus/theme-common)
_CATEGORY_ITEMS = re.compile(r"\s*useCurrentSidebarCategory\(\s*\)\s*\.\s*items\s*")
# <img src={require(`@site/img/${id}`).default}> or src={`/img/${name}.png`}: a path built from props
_COMPONENT_IMG_TEMPLATE = re.compile(r"<img\b[^<>]{0,500}?\bsrc\s*=\s*\{\s*(?:require\(\s*)?`([^`]{1,300})`\s*\)?"
                                     r"(?:\.default)?\s*\}")
# what may stand before a flow (block) element on its line: indentation, list markers, quote markers
_CONTAINER_PREFIX = re.compile(r"(?:[ \t]*(?:[-*+]|\d{1,9}[.)]|>)(?=[ \t]|$))*[ \t]*")
_TEMPLATE_SLOT = re.compile(r"\$\{\s*(?:props\.)?([A-Za-z_$][\w$]*)\s*\}")
_MODULE_EXTS = (".jsx", ".js", ".tsx", ".ts", "/index.jsx", "/index.js", "/index.tsx", "/index.ts")
MAX_COMPONENT_CHARS = 50_000  # a site's own component file is read up to this many characters
MAX_REEXPORT_HOPS = 4  # modules followed through re-exports to the one defining a component
MAX_CODE_COMPONENTS = 20  # site components a page uses that are read to learn whether they draw a code block
# the name of a component opened on a line (<PickVersion ...>)
_COMPONENT_OPEN = re.compile(r"<([A-Z][\w$]{0,100})")
# export { default as Term, Other } from './x' (the from part absent: names exported from imports)
# export * from './Term': every named export of that module
_STAR_EXPORT = re.compile(r"""\bexport\s*\*\s*from\s*(['"])([^'"\n]{1,300})\1""")
_REEXPORT = re.compile(r"""\bexport\s*\{([^{}]{0,2000})\}\s*(?:from\s*(['"])([^'"\n]{1,300})\2)?""")
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][\w.:-]*)")
_ATTR_NAME = re.compile(r"[^\s=/>{]+")
_ATTR_BARE = re.compile(r"[^\s>]+")
# {/* comment */} and <head>...</head> are cut by _drop_pairs (a lazy '.*?' regex is quadratic on
# thousands of openers that never close)
_JSX_COMMENT_OPEN, _JSX_COMMENT_CLOSE = re.compile(r"\{\s*/\*"), re.compile(r"\*/\s*\}")
# export const Shot = (...) => ..., export function Shot(...): a component the page declares
_LOCAL_COMPONENT = re.compile(r"export\s+(?:const\s+([A-Z][\w$]*)\s*=|function\s+([A-Z][\w$]*)\s*\()")
_EXPORT_CONST = re.compile(r"""export\s+const\s+([A-Za-z_$][\w$]*)\s*=\s*((['"`])[^'"`]*\3|-?\d+(?:\.\d+)?)\s*;?""")
# a line holding only tags (and the text between them): a block of its own in MDX
_FLOW_TAGS = re.compile(rf"<[A-Za-z/][^\n]{{0,{MAX_LINE_CHARS}}}>")
_BACKTICKS = re.compile(r"`+")
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
# an explicit heading id at the end of a heading line: ## Title {#my-id} (Docusaurus "Headings:
# explicit ids", read in MDX 3 pages too, markdown.mdx1Compat.headingIds)
_HEADING_ID = re.compile(r"\{#[^{}\s]+\}[ \t]*$")
# a heading element standing alone as a block: <h3>Node &amp; Watchman</h3>
_HTML_HEADING = re.compile(r" {0,3}<h([1-6])(?:\s[^<>\n]{0,300})?>((?:(?!</?h[1-6]\b)[^\n]){1,500})</h\1>[ \t]*",
                           re.IGNORECASE)
_HEAD_OPEN, _HEAD_CLOSE = re.compile(r"<head>", re.IGNORECASE), re.compile(r"</head>", re.IGNORECASE)
_IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif", ".bmp", ".mp4", ".webm", ".mov")
_LINK_ATTRS = {"src", "href", "poster", "srcset", "data-src"}
_TEXT_ATTRS = ("title", "label", "header", "heading", "name", "summary")
_IMAGE_COMPONENT = re.compile(r"Image|Img|Figure|Screenshot|Picture|Zoom|Photo", re.IGNORECASE)
_VIDEO_COMPONENT = re.compile(r"Video|Player|YouTube|Vimeo|Loom|Wistia", re.IGNORECASE)
_VIDEO_ATTRS = {"url", "src", "video", "videosrc", "videourl"}
_VIDEO_LINK = re.compile(r"youtube\.com/|youtube-nocookie\.com/|youtu\.be/|vimeo\.com/|loom\.com/|wistia"
                         r"|\.(?:mp4|webm|ogv|mov|m4v)(?:[?#]|$)", re.IGNORECASE)
# a player taking a video id plays it from the host its name or host=/platform= attribute names
_VIDEO_HOST_ATTRS = ("host", "platform", "provider", "service")
_VIDEO_ID_URLS = (("youtube", "https://www.youtube.com/watch?v="), ("vimeo", "https://vimeo.com/"))
_IMAGE_ATTRS = {"img", "src", "image", "sources", "source", "screenshot", "picture", "path", "url"}
_MD_IMAGE = re.compile(r"(!\[[^\]]*\]\()(\s*<?)([^)\s>]+)")
_HTML_SRC = re.compile(r"""(\b(?:src|href|poster)\s*=\s*)(["'])([^"']+)\2""")
_TABS_VALUES = re.compile(r"""\{\s*label\s*:\s*(['"`])(.*?)\1\s*,\s*value\s*:\s*(['"`])(.*?)\3\s*,?\s*\}"""
                          r"""|\{\s*value\s*:\s*(['"`])(.*?)\5\s*,\s*label\s*:\s*(['"`])(.*?)\7\s*,?\s*\}""")


@dataclass(slots=True)
class _Tag:
    start: int
    end: int
    name: str
    attrs: list[tuple[str, str | None, str]]  # (name, value, kind: "str" | "expr" | "bool")
    closing: bool
    self_closing: bool


def _drop_pairs(text: str, opener: re.Pattern[str], closer: re.Pattern[str]) -> str:
    """``text`` without each span from an ``opener`` match to the first ``closer``
    match after it (what ``re.sub(open + '.*?' + close, '', text, flags=DOTALL)``
    removes), in linear time: once an opener has no closer after it, none later has."""
    out: list[str] = []
    pos = 0
    while (m := opener.search(text, pos)) is not None:
        end = closer.search(text, m.end())
        if end is None:
            break
        out.append(text[pos:m.start()])
        pos = end.end()
    out.append(text[pos:])
    return "".join(out)

def _scan_tag(text: str, i: int) -> _Tag | None:
    """Parse a JSX/HTML tag starting at ``text[i] == '<'`` (attributes may hold
    quoted strings and ``{...}`` expressions with nested braces and ``>``)."""
    m = _TAG_NAME.match(text, i)
    if not m:
        return None
    closing = bool(m.group(1))
    name = m.group(2)
    j = m.end()
    attrs: list[tuple[str, str | None, str]] = []
    n = min(len(text), i + MAX_TAG_CHARS)  # a "tag" longer than this is text, and scanning stays linear
    while j < n:
        while j < n and text[j].isspace():
            j += 1
        if j >= n:
            return None
        if text[j] == ">":
            return _Tag(i, j + 1, name, attrs, closing, False)
        if text[j] == "/":  # self-closing; JSX allows space between / and > (<Part / >)
            k = j + 1
            while k < n and text[k] in " \t\n":
                k += 1
            if k < n and text[k] == ">":
                return _Tag(i, k + 1, name, attrs, closing, True)
            return None
        if text[j] == "{":  # spread {...props}
            k = _skip_braces(text, j)
            if k < 0:
                return None
            j = k
            continue
        am = _ATTR_NAME.match(text, j, n)
        if not am:
            return None
        aname = am.group(0)
        j = am.end()
        k = j
        while k < n and text[k] in " \t\n":
            k += 1
        if k < n and text[k] == "=":
            k += 1
            while k < n and text[k] in " \t\n":
                k += 1
            if k < n and text[k] in "\"'":
                q = text[k]
                e = text.find(q, k + 1, n)
                if e < 0:
                    return None
                attrs.append((aname, text[k + 1 : e], "str"))
                j = e + 1
            elif k < n and text[k] == "{":
                e = _skip_braces(text, k)
                if e < 0:
                    return None
                attrs.append((aname, text[k + 1 : e - 1].strip(), "expr"))
                j = e
            else:
                vm = _ATTR_BARE.match(text, k, n)
                attrs.append((aname, vm.group(0) if vm else "", "str"))
                j = vm.end() if vm else k
        else:
            attrs.append((aname, None, "bool"))
    return None


def _skip_braces(text: str, i: int) -> int:
    """Index just after the ``}`` matching ``text[i] == '{'`` (strings skipped), or -1."""
    depth = 0
    quote: str | None = None
    j = i
    end = min(len(text), i + MAX_TAG_CHARS)
    while j < end:
        c = text[j]
        if quote:
            if c == "\\":
                j += 2
                continue
            if c == quote:
                quote = None
        elif c in "'\"`":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def _bracket_delta(line: str) -> int:
    depth = 0
    quote: str | None = None
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "'\"`":
            quote = c
        elif line.startswith("//", i):
            break
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return depth


# a JavaScript string literal (its body: a ' or " string holds the other quotes, a template
# literal without ${} holds any; escapes read by _template_text) or a number literal
_STRING_OR_NUMBER = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\$]|\\.|\$(?!\{))*)`"""
                               r"""|(-?\d+(?:\.\d+)?)""", re.DOTALL)


@dataclass(slots=True)
class _Scope:
    images: dict[str, str] = field(default_factory=dict)
    partials: dict[str, str] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)  # name -> file imported as text (raw-loader)
    # name -> the component its module exports (Shot from '.../ZoomableImage' is a ZoomableImage,
    # Warn from '@theme/Admonition' an Admonition): what the component is, whatever it is called
    kinds: dict[str, str] = field(default_factory=dict)
    # text of names an {expression} may show: export const NAME = 'literal', frontMatter.key
    values: dict[str, str] = field(default_factory=dict)
    # name -> the module a component is imported (or registered) from, to read a site's own component
    modules: dict[str, str] = field(default_factory=dict)
    # name -> the name its module exports it as (import { Term as T } from '...': T -> Term); a
    # name not here is the module's default export
    exports: dict[str, str] = field(default_factory=dict)
    # name -> the source of a component the page itself declares (export const Shot = ({src}) => <img ...>)
    local: dict[str, str] = field(default_factory=dict)

    def value(self, expr: str) -> str | None:
        """The text ``{expr}`` renders when it is a string or number literal or a known
        name (``version``, ``frontMatter.title``), else ``None``."""
        expr = expr.strip()
        lit = _STRING_OR_NUMBER.fullmatch(expr)
        if lit:
            return lit.group(4) if lit.group(4) is not None else _template_text(
                next(g for g in lit.groups() if g is not None))
        return self.values.get(expr)


ReadInclude = Callable[[str, str], tuple[str, str] | None]


class MdxTransformer:
    """MDX source of one page to Markdown (see the module doc).

    ``site`` resolves partial imports; ``read`` returns ``(rel, text)`` of a
    resolved partial or ``None`` (default: read from ``site.config.root``).
    ``warnings`` collects problems (missing partials, depth limit).
    """

    def __init__(self, site: Site, *, read: ReadInclude | None = None) -> None:
        self.site = site
        self.read = read or self._read
        self.warnings: list[str] = []
        self.partials_used: list[str] = []
        self._partial_chars = PageCharBudget(  # what the page may still inline
            MAX_PARTIAL_CHARS,
            "{what}: over {items} partials or {limit} characters inlined in the page; not inlined, nor the later ones",
            items=MAX_PARTIALS)
        # module -> (its file, its source); None: not a file of the site
        self._components: dict[str, tuple[str, str] | None] = {}
        # component source -> (props rendered as a child, array prop -> fields of its items rendered)
        self._text_props: dict[str, tuple[set[str], dict[str, set[str]]]] = {}
        self._tuples: dict[str, dict[str, tuple[list[int], str]]] = {}
        self._module_values: dict[tuple[str, str], Any] = {}  # (module, export) -> its literal data
        self._img_templates: dict[str, list[str]] = {}
        self._img_srcs: dict[str, list[tuple[str, str]]] = {}  # component source -> its <img> src expressions  # component source -> its <img> src path templates

    def _read(self, target: str, page_rel: str) -> tuple[str, str] | None:
        res = self.site.resolve_include(target, page_rel=page_rel)
        if res.rel_path is None:
            self.warnings.append(f"partial {target!r}: {res.problem}")
            return None
        path = self.site.config.root / res.rel_path
        try:
            return res.rel_path, read_include(path, label=f"partial {target!r}", warnings=self.warnings)
        except OSError as err:
            self.warnings.append(f"partial {target!r}: cannot read {res.rel_path} ({err})")
            return None

    def _global_components(self) -> dict[str, str]:
        """Components the site makes available on every page without an import
        (Docusaurus: a swizzled ``MDXComponents``), ``name -> module``."""
        components = getattr(self.site, "mdx_components", None)
        found = components() if callable(components) else None
        return found if isinstance(found, dict) else {}

    # ------------------------------------------------------------------ api
    def transform(self, text: str, *, page_rel: str, depth: int = 0, stack: tuple[str, ...] = (),
                  props: dict[str, str] | None = None) -> str:
        """Markdown for the MDX ``text`` of ``page_rel`` (front matter kept as is).
        ``props``: the string attributes a partial is used with; ``{props.name}``
        outside code reads as that value (nothing when it is not given)."""
        front = ""
        m = re.match(r"\A---[ \t]*\r?\n.*?\r?\n---[ \t]*(?:\r?\n|\Z)", text, re.DOTALL)
        if m:
            front, text = m.group(0), text[m.end():]
        text = _drop_pairs(text, _HEAD_OPEN, _HEAD_CLOSE)
        scope = _Scope()
        if front:
            for key, val in parse_front_matter(front).meta.items():
                if isinstance(val, str | int | float) and not isinstance(val, bool):
                    scope.values[f"frontMatter.{key}"] = str(val)
        exports_of = getattr(self.site, "mdx_component_exports", None)
        exports = exports_of() if callable(exports_of) else {}
        for name, module in self._global_components().items():  # page imports bind over them
            _bind_module(name, module, scope, export=exports.get(name, "default") if isinstance(exports, dict)
                         else "default")
        lines = unwrap_mdx_code_blocks(text.splitlines())
        math = getattr(self.site, "remark_math", None)
        if callable(math) and math(page_rel) is True:  # remark-math: $...$ is LaTeX, not JSX or Markdown
            lines = remark_math(lines, MDX_FENCE)
        if props is not None:
            lines = _fill_props(lines, props)
        lines = self._strip_esm(lines, scope, page_rel)
        code_tags = ["CodeBlock", *sorted(n for n, k in scope.kinds.items() if k == "CodeBlock" and n != "CodeBlock")]
        code_tags += self._code_block_components(lines, scope, page_rel, known=code_tags)
        if scope.raw or any(f"<{n}" in line for line in lines for n in code_tags):
            lines = self._raw_code_blocks(lines, scope, page_rel, code_tags[:20])
        out = self._body(lines, scope, page_rel=page_rel, depth=depth, stack=(*stack, page_rel))
        return front + out

    def _raw_code_blocks(self, lines: list[str], scope: _Scope, page_rel: str, tags: list[str]) -> list[str]:
        """``<CodeBlock language="js">{Source}</CodeBlock>`` where ``Source`` was imported
        as text (``'!!raw-loader!./x.js'``, ``'./x.js?raw'``) as a fenced block holding
        that file (Docusaurus "Code blocks": importing code snippets), and one holding a
        template literal (``{`const x = 1;`}``, "Usage in JSX") as a fenced block of its text."""

        def repl(m: re.Match[str]) -> str:
            if m.group(4) is not None:
                code = _template_text(m.group(4))
            elif m.group(5) is not None:
                code = textwrap.dedent(m.group(5).strip("\n"))
            else:
                target = scope.raw.get(m.group(3))
                if target is None:
                    return m.group(0)
                found = self._read_raw(target, page_rel)
                if found is None:
                    return "\n"
                code = found
            lang = re.search(r"""\b(?:language\s*=\s*|className\s*=\s*(?=['"]language-))"""
                             r"""(?:(['"])(?:language-)?([\w+#.-]*)\1|\{\s*(['"])([\w+#.-]*)\3\s*\})""", m.group(2))
            title = re.search(r"""\btitle\s*=\s*(['"])([^'"]*)\1""", m.group(2))
            fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", code)), default=0))
            head = f"**{title.group(2)}**\n\n" if title else ""
            info = (lang.group(2) or lang.group(4) or "") if lang else ""
            return f"\n\n{head}{fence}{info}\n{code.rstrip()}\n{fence}\n\n"

        # a fenced code block shows its <CodeBlock>{Source}</CodeBlock> lines as written (an
        # example of the syntax): only the text between fences is rewritten
        pattern = _raw_code_block(tags)
        out: list[str] = []
        run: list[str] = []
        fences = FenceTracker(MDX_FENCE)
        for line in lines:
            if fences.in_code(line):
                if run:
                    out += pattern.sub(repl, "\n".join(run)).split("\n")
                    run = []
                out.append(line)
            else:
                run.append(line)
        if run:
            out += pattern.sub(repl, "\n".join(run)).split("\n")
        return out

    def _code_block_components(self, lines: list[str], scope: _Scope, page_rel: str, *, known: list[str]) -> list[str]:
        """The site's own components used on the page that draw their children as a code
        block (:func:`_draws_children_as_code`): ``<PickVersion>{`curl .../latest/x.yaml`}</PickVersion>``
        shows that code, as the component renders it in ``@theme/CodeBlock``."""
        used = {m.group(1) for line in lines if "<" in line for m in _COMPONENT_OPEN.finditer(line)}
        found: list[str] = []
        for name in sorted(used - set(known))[:MAX_CODE_COMPONENTS]:
            if name not in scope.modules and name not in scope.local:
                continue
            code = self._component_code(_Tag(start=0, end=0, name=name, attrs=[], closing=False, self_closing=False),
                                        scope, page_rel)
            if code and _draws_children_as_code(code):
                found.append(name)
        return found

    def _read_raw(self, target: str, page_rel: str) -> str | None:
        """The text of a file imported as code; an extensionless target is tried with
        the extensions webpack resolves in a Docusaurus site (``.js``, ``.jsx``, ``.ts``...)."""
        root = self.site.config.root
        res = self.site.resolve_include(target, page_rel=page_rel)
        path = root / res.rel_path if res.rel_path else None
        if path is not None and not path.is_file() and not PurePosixPath(target).suffix:
            for ext in _CODE_EXTS:  # each candidate goes through the Site (inside the root)
                alt = self.site.resolve_include(target + ext, page_rel=page_rel)
                if alt.rel_path and (root / alt.rel_path).is_file():
                    path = root / alt.rel_path
                    break
        if path is None or not path.is_file():
            self.warnings.append(f"code import {target!r}: {res.problem or 'file not found'}")
            return None
        try:
            with path.open(encoding="utf-8", errors="replace") as fh:
                return fh.read(MAX_RAW_CHARS)
        except OSError as err:
            self.warnings.append(f"code import {target!r}: cannot read ({err})")
            return None

    # ------------------------------------------------------------------ ESM
    def _strip_esm(self, lines: list[str], scope: _Scope, page_rel: str) -> list[str]:
        out: list[str] = []
        fences = FenceTracker(MDX_FENCE)
        i = 0
        while i < len(lines):
            line = lines[i]
            if fences.in_code(line):
                out.append(line)
                i += 1
                continue
            if _ESM_START.match(line):
                stmt = [line]
                start = i
                depth = _bracket_delta(line)
                i += 1
                while i < len(lines) and (depth > 0 or (lines[i].strip() and not _ESM_START.match(lines[i])
                                                        and _continues(stmt[-1]))):
                    depth += _bracket_delta(lines[i])
                    stmt.append(lines[i])
                    i += 1
                if depth > 0 and i >= len(lines):
                    # its brackets never close (MDX fails to compile it): it ends at the first blank
                    # line, where MDX ends an ESM block, instead of taking the rest of the page with it
                    i = next((k for k in range(start + 1, len(lines)) if not lines[k].strip()), len(lines))
                    stmt = lines[start:i]
                    self.warnings.append(f"{line.strip()[:60]!r}: import/export never closes its brackets;"
                                         " ended at the next blank line")
                self._bind("\n".join(stmt), scope)
                out.append("")
                continue
            out.append(line)
            i += 1
        return out

    def _bind(self, stmt: str, scope: _Scope) -> None:
        const = _EXPORT_CONST.fullmatch(stmt.strip())
        if const:
            value = scope.value(const.group(2))
            if value is not None:
                scope.values[const.group(1)] = value
            return
        declared = _LOCAL_COMPONENT.match(stmt.strip())
        if declared and "<" in stmt:  # a component the page declares: read as a site component's source
            name = declared.group(1) or declared.group(2)
            for table in (scope.images, scope.partials, scope.kinds, scope.modules, scope.exports):
                table.pop(name, None)
            scope.local[name] = stmt[:MAX_COMPONENT_CHARS]
            return
        m = _IMPORT.match(stmt.strip())
        if not m:
            return
        names, target = m.group(1).strip(), m.group(3)
        named = _NAMED.search(names)
        code_module = not target.lower().split("?", 1)[0].endswith((*_IMAGE_EXTS, ".md", ".mdx"))
        if named and code_module and not _RAW_IMPORT.match(target):  # import { Arcade, Card as Tile } from '...'
            for part in named.group(1).split(",")[:50]:
                local = part.split(" as ")[-1].strip()
                if re.fullmatch(r"[A-Za-z_$][\w$]*", local):
                    _bind_module(local, target, scope, export=part.split(" as ")[0].strip())
        default = names.split(",", 1)[0].strip()
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", default):
            return
        raw = _RAW_IMPORT.match(target)
        if raw or target.endswith("?raw"):
            scope.raw[default] = raw.group(1) if raw else target[: -len("?raw")]
            return
        _bind_module(default, target, scope)

    # ------------------------------------------------------------------ body
    def _body(self, lines: list[str], scope: _Scope, *, page_rel: str, depth: int, stack: tuple[str, ...]) -> str:
        out: list[str] = []
        fences = FenceTracker(MDX_FENCE)
        tabs_labels: dict[str, str] = {}
        # MDX 1 (Docusaurus 2) ends a JSX block at a blank line, as CommonMark ends an HTML block
        mdx2 = self.site.config.settings.get("mdx.version") != "1"
        flow = False  # the last line was a tag line standing as a block (MDX "JSX flow")
        closed = False  # the last line closed a fenced code block
        lines = list(lines)  # (an expression's closing line is rewritten in place)
        scan_left = [MAX_EXPRESSION_SCAN_CHARS]
        i = 0
        while i < len(lines):
            line = lines[i]
            was_inside = fences.inside
            if fences.in_code(line):
                if flow and not was_inside:
                    out.append("")  # a fence right after a tag line is code (no HTML block holds it)
                flow = False
                closed = was_inside and not fences.inside
                out.append(line)
                i += 1
                continue
            # a {/* comment */} over several lines goes whole (bounded like tags)
            joined = 0
            while "{/*" in line and "*/}" not in line.split("{/*", 1)[1] and i + 1 < len(lines) and joined < 40:
                i += 1
                joined += 1
                line = line + "\n" + lines[i]
            # a {JavaScript expression} opening a line is code (MDX flow expression): only a string
            # literal is page text; a render function (<BrowserOnly>{() => ...}</BrowserOnly>) is not
            stripped = line.lstrip()
            if stripped.startswith("{") and not stripped.startswith("{/*"):
                end = _expression_end(lines, i, scan_left)
                if end is not None:
                    last, col = end
                    expr = "\n".join([line, *lines[i + 1 : last + 1]])
                    expr = expr[: len(expr) - len(lines[last]) + col] if last > i else line[:col]
                    shown = (scope.value(expr.strip()[1:-1]) or self._module_value(expr.strip()[1:-1], scope, page_rel)
                             or _mapped_strings(expr) or self._mapped_component(expr, scope, page_rel=page_rel,
                                                                               depth=depth, stack=stack))
                    # what follows the closing brace on its line is read on as usual (in place: a new list
                    # for each of 50,000 expression lines took 25 s)
                    lines[last] = shown + lines[last][col:]
                    i = last
                    continue
            # join a tag that spans several lines (bounded: a broken tag must not swallow the page)
            joined = 0
            while _open_tag_unfinished(line) and i + 1 < len(lines) and joined < 40:
                i += 1
                joined += 1
                line = line + " " + lines[i].strip()
            adm = DIRECTIVE_ADMONITION.match(line)
            if adm and (adm.group(3) or adm.group(2)):
                kind, title = adm.group(3), directive_title(adm)
                if kind:
                    out.extend(label_lines(admonition_label(kind, title)))
                else:
                    out.append("")
                flow = closed = False
                i += 1
                continue
            line = _drop_pairs(line, _JSX_COMMENT_OPEN, _JSX_COMMENT_CLOSE)
            heading = _HTML_HEADING.fullmatch(line)
            if heading and heading.group(2).strip() and (not out or not out[-1].strip()) and (
                    i + 1 >= len(lines) or not lines[i + 1].strip()):
                # a heading element as a block of its own (a blank line before and after it) is a
                # heading of the page as the reader sees it (a partial's <h2>Creating a new
                # application</h2>): the text under it is its section
                out.append("#" * int(heading.group(1)) + " " + heading.group(2).strip())
                flow = closed = False
                i += 1
                continue
            # MDX 2+ has no HTML blocks: a line of tags standing as a block (after a blank line or another
            # such line) ends at its line end, and the Markdown after it is read as Markdown; a blank
            # line keeps the Markdown reader from taking that Markdown into an HTML block
            stripped = line.strip()
            is_flow = mdx2 and bool(_FLOW_TAGS.fullmatch(stripped)) and (
                flow or closed or not out or not out[-1].strip() or bool(_ATX_HEADING.match(out[-1])))
            if flow and stripped and not is_flow:
                out.append("")
            flow, closed = is_flow, False
            rendered = self._tags(line, scope, page_rel=page_rel, depth=depth, stack=stack, tabs=tabs_labels)
            if is_flow:
                rendered = _element_markdown(rendered)
            if rendered.lstrip(" \t").startswith(("\n\n<img", "\n\n<figure>")) and out \
                    and out[-1].rstrip().endswith(">") and not out[-1].lstrip().startswith("</"):
                # an image component inside an HTML element (<figure> then <Shot /> then <figcaption>)
                # stays inside it, so the figure's caption is its caption
                rendered = rendered.strip(" \t\n")
            out.append(rendered)
            i += 1
        return "\n".join(out) + "\n"

    def _tags(self, line: str, scope: _Scope, *, page_rel: str, depth: int, stack: tuple[str, ...],
              tabs: dict[str, str]) -> str:
        if ("<" not in line and "{" not in line) or len(line) > MAX_LINE_CHARS:
            return line
        parts: list[str] = []
        i = 0
        failed = failed_expressions = 0
        n = len(line)
        runs: dict[int, list[int]] | None = None  # backtick runs by width: where each starts
        flow_start = _CONTAINER_PREFIX.match(line).end()  # type: ignore[union-attr]  # a tag here may be flow
        text_end = len(line.rstrip())
        # a heading's {#id} is its id, not an expression: kept for the Markdown reader (split_anchor)
        heading_id = _HEADING_ID.search(line) if _ATX_HEADING.match(line[flow_start:]) else None
        while i < n:
            c = line[i]
            if c == "`":  # a code span is literal text; an unmatched backtick run is text
                if runs is None:
                    runs = _backtick_runs(line)
                width = len(_BACKTICKS.match(line, i).group(0))  # type: ignore[union-attr]
                starts = runs[width]
                k = bisect.bisect_left(starts, i + width)
                end = starts[k] + width if k < len(starts) else i + width
                parts.append(line[i:end])
                i = end
                continue
            if c == "\\" and i + 1 < n and line[i + 1] in "{}<":
                parts.append(line[i : i + 2])  # \{ and \< are the characters themselves
                i += 2
                continue
            if c == "<" and (line.startswith("<>", i) or line.startswith("</>", i)):
                i += 2 if line[i + 1] == ">" else 3  # a JSX fragment draws nothing but its children
                continue
            if c == "<" and failed < MAX_FAILED_TAGS:
                tag = _scan_tag(line, i)
                if tag is None:
                    failed += 1
                else:
                    empty = None if tag.closing or tag.self_closing or not (tag.name[0].isupper() or "." in tag.name) \
                        else re.compile(rf"\s*</{re.escape(tag.name)}\s*>").match(line, tag.end)
                    if empty is not None:
                        # <Message caption="..."></Message>: no children, rendered as the self-closing form
                        tag = replace(tag, end=empty.end(), self_closing=True)
                    # MDX: an element with text beside it on its line is a text (inline) element, inside
                    # the paragraph; alone on its line(s) it is a flow (block) element
                    inline = i > flow_start or tag.end < text_end
                    parts.append(self._render_tag(tag, scope, page_rel=page_rel, depth=depth, stack=stack, tabs=tabs,
                                                  inline=inline))
                    i = tag.end
                    continue
            if c == "{" and heading_id is not None and i == heading_id.start():
                parts.append(line[i:])
                break
            if c == "{" and failed_expressions < MAX_FAILED_TAGS:
                end = _skip_braces(line, i)
                if end > 0:
                    parts.append(self._inline_expression(line[i:end], scope, page_rel))
                    i = end
                    continue
                failed_expressions += 1
            parts.append(c)
            i += 1
        return "".join(parts)

    def _module_data(self, name: str, scope: _Scope, page_rel: str) -> Any:
        """The value of the data ``name`` is imported as from a module of the site (``import
        { textLabels } from './homePageData'`` with ``export const textLabels = { ... }``): its
        literal (objects, arrays, strings, numbers; any other expression is ``None``), else
        ``None``."""
        module = scope.modules.get(name)
        if not module:
            return None
        found = self._module_file(module, page_rel)
        if found is None:
            return None
        export = scope.exports.get(name, "default")
        key = (found[0], export)
        if key not in self._module_values:
            code = found[1]
            if export == "default":
                m = re.search(r"\bexport\s+default\s+", code)
            else:
                m = re.search(rf"\bexport\s+(?:const|let|var)\s+{re.escape(export)}\s*=\s*", code)
            self._module_values[key] = _js_literal(code, m.end())[0] if m else None
        return self._module_values[key]

    def _module_value(self, expr: str, scope: _Scope, page_rel: str) -> str | None:
        """The text ``{expr}`` renders when it names a string (or number) of a site module's
        exported data, through its properties (``textLabels.title.prefix``), else ``None``."""
        m = re.fullmatch(r"\s*([A-Za-z_$][\w$]*)((?:\s*\.\s*[A-Za-z_$][\w$]*|\[\d{1,4}\]){0,10})\s*", expr)
        if m is None or m.group(1) not in scope.modules:
            return None
        value = self._module_data(m.group(1), scope, page_rel)
        for part in re.findall(r"[A-Za-z_$][\w$]*|\d+", m.group(2)):
            if isinstance(value, dict):
                value = value.get(part)
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                return None
        return value if isinstance(value, str) else None

    def _mapped_component(self, expr: str, scope: _Scope, *, page_rel: str, depth: int,
                          stack: tuple[str, ...]) -> str:
        """A flow expression rendering a component once per item of a site module's array
        (``{featureCards.map((card, index) => <IconCard key={index} {...card} />)}``): each item's
        string fields are the component's props, as the spread gives them; ``""`` otherwise."""
        m = _MAPPED_COMPONENT.fullmatch(expr.strip())
        if m is None or m.group(1) not in scope.modules:
            return ""
        items = self._module_data(m.group(1), scope, page_rel)
        if not isinstance(items, list):
            return ""
        out: list[str] = []
        for item in items[:200]:
            if not isinstance(item, dict):
                continue
            attrs: list[tuple[str, str | None, str]] = [
                (str(k), v, "str") for k, v in item.items() if isinstance(v, str) and re.fullmatch(r"[A-Za-z_$][\w$]*", str(k))]
            tag = _Tag(0, 0, m.group(3), attrs, closing=False, self_closing=True)
            out.append(self._render_tag(tag, scope, page_rel=page_rel, depth=depth, stack=stack, tabs={}))
        return "".join(out)

    def _inline_expression(self, expr: str, scope: _Scope, page_rel: str = "") -> str:
        """The text an inline ``{expression}`` (MDX "expression (text)") renders: a
        string or number literal, an exported constant or a front matter value
        (:meth:`_Scope.value`); ``{props.x}`` and ``{frontMatter.x}`` that are not
        given render nothing (undefined), and so does a comment. Any other
        expression is computed when the page renders: with MDX 2+ (Docusaurus 3)
        murar cannot know its value and leaves it out rather than show code; with
        MDX 1 (Docusaurus 2, ``mdx.version`` 1) braces in text were not
        expressions, so the text stays as written."""
        body = expr[1:-1]
        value = scope.value(body)
        if value is None and page_rel:
            value = self._module_value(body, scope, page_rel)
        if value is not None:
            return value
        if self.site.config.settings.get("mdx.version") == "1":
            return expr
        return ""
    def _render_tag(self, tag: _Tag, scope: _Scope, *, page_rel: str, depth: int, stack: tuple[str, ...],
                    tabs: dict[str, str], inline: bool = False) -> str:
        is_component = tag.name[0].isupper() or "." in tag.name
        if not is_component:
            if tag.closing:
                return f"</{tag.name}>"
            return self._html_tag(tag, scope)
        if tag.closing:
            return f"\n\n{set_close()}\n\n" if _is(tag, scope, "Tabs") else "\n"
        if any(kind == "expr" for _, _, kind in tag.attrs):
            # title={textLabels.setup.title}: a string of a module's exported data is that string
            tag = replace(tag, attrs=[(name, shown, "str") if kind == "expr" and value is not None
                                      and (shown := self._module_value(value, scope, page_rel)) is not None
                                      else (name, value, kind) for name, value, kind in tag.attrs])
        if tag.name in scope.partials:
            props = {name: text for name, value, kind in tag.attrs if (text := _attr_text((value, kind)))}
            return self._inline_partial(scope.partials[tag.name], page_rel=page_rel, depth=depth, stack=stack,
                                        props=props)
        if tag.name in scope.modules:
            # a site component that renders one imported Markdown file and nothing else
            # (export function IOSGuide() { return <IOSContent />; }, IOSContent imported from
            # './guide-ios.md'): webpack compiles that file with the MDX loader, so the component
            # shows its content, as a partial imported by the page would
            found = self._component_file(scope.modules[tag.name], page_rel,
                                         export=scope.exports.get(tag.name, "default"))
            target = _rendered_markdown(found[2], found[1]) if found is not None else None
            if found is not None and target is not None:
                return self._inline_partial(target, page_rel=found[0], depth=depth, stack=stack)
        attrs = {name: (value, kind) for name, value, kind in tag.attrs}
        svg = scope.images.get(tag.name)
        if svg is not None and svg.lower().split("?", 1)[0].endswith(".svg"):
            # an imported SVG used as a component is drawn inline (Docusaurus "Inline SVGs", SVGR)
            alt = next((t for t in (_attr_text(attrs.get(a)) for a in ("title", "alt", "aria-label")) if t), "")
            return f'\n\n<img src="{_escape(svg)}" alt="{_escape(alt)}" />\n\n'
        if _is(tag, scope, "Admonition") and _attr_text(attrs.get("type")):
            # @theme/Admonition: the JSX form of :::type Title (Docusaurus "Admonitions: usage in JSX")
            label = admonition_label(_attr_text(attrs.get("type")), _attr_text(attrs.get("title")))
            return "\n".join(["", *label_lines(label), ""])
        if _is(tag, scope, "Tabs"):
            values = attrs.get("values")
            if values and values[0]:
                listed = values[0]
                if values[1] == "expr" and not _TABS_VALUES.search(listed):
                    listed = self._module_array(listed.strip(), scope, page_rel)
                for mt in _TABS_VALUES.finditer(listed):
                    label = mt.group(2) if mt.group(2) is not None else mt.group(8)
                    value = mt.group(4) if mt.group(4) is not None else mt.group(6)
                    tabs[value] = label
            return "\n" if tag.self_closing else f"\n\n{set_open()}\n\n"
        if _is(tag, scope, "TabItem"):
            label = _attr_text(attrs.get("label"))
            value = _attr_text(attrs.get("value"))
            shown = label or tabs.get(value or "", "") or value or ""
            return f"\n\n{tab_start(shown)}\n\n**{shown}**\n\n" if shown else "\n"
        if (_is(tag, scope, "DocCardList") and "items" not in attrs) or any(
                kind == "expr" and _CATEGORY_ITEMS.fullmatch(value or "") for _, value, kind in tag.attrs):
            # the current category's cards: <DocCardList />, or any card list given the category's
            # items (<DocCardList items={useCurrentSidebarCategory().items} />, a site's own
            # <DocsCardList list={useCurrentSidebarCategory().items} />)
            return self._doc_cards(page_rel, stack)
        api = _openapi_element(tag, scope, attrs)
        if api is not None:
            return api
        video = self._component_video(tag, scope, page_rel) or self._component_iframe(tag, scope, page_rel)
        if video:
            return video
        texts = [t for t in (_attr_text(attrs.get(a)) for a in _TEXT_ATTRS) if t]
        code_props = self._component_code_props(tag, scope, page_rel) if not inline else ""
        if code_props:
            return code_props
        image, caption = self._component_image(tag, scope, page_rel)
        # the props it renders as text: beside its image too (a step's number and description
        # above its screenshot), the caption under the image not again above it
        texts += self._component_text_props(tag, scope, page_rel)
        if caption:
            texts = [t for t in texts if t != caption]
        out = ""
        if texts and inline and not image:
            # a text element stays in its paragraph: a self-closing one (a badge) shows its text there;
            # one wrapping words shows those words, its props being hover text (a glossary tooltip)
            return f" {_html_text(' — '.join(dict.fromkeys(texts)))} " if tag.self_closing else ""
        if texts:
            out = "\n\n**" + " — ".join(dict.fromkeys(texts)) + "**\n\n"
        if image:
            out += image
        if out:
            return out
        return "\n" if not tag.self_closing else ""

    def _component_image(self, tag: _Tag, scope: _Scope, page_rel: str) -> tuple[str, str]:
        """An image component (``<Image img={require('./x.png')} />`` of
        @theme/IdealImage, ``<ThemedImage sources={{light: useBaseUrl('/x.png'), dark: ...}} />``,
        ``<Figure src={shot} caption="..." />``) as an ``<img>`` tag: the first
        attribute that names an image file (the light variant of ``sources``), and its
        caption: ``caption=``, else a prop the site's component renders as text beside
        its ``<img>`` (``{title && <p className="caption">{title}</p>}``). ``("", "")``
        when it is no image."""
        drawn = self._component_img_prop(tag, scope, page_rel)
        src = self._component_img_template(tag, scope, page_rel)
        if not drawn and not src and not _IMAGE_COMPONENT.search(_names(tag, scope)):
            return "", ""  # DocsCard img=, Avatar src=: decoration
        attrs = {n.lower(): (v, k) for n, v, k in tag.attrs}
        alt = _attr_text(attrs.get("alt")) or _attr_text(attrs.get("title"))
        caption = _attr_text(attrs.get("caption"))
        code = self._component_code(tag, scope, page_rel)
        width = _img_tag_width(code, drawn)
        if not caption and code and "<img" in code and (width is None or width >= FlagOptions().tiny_side):
            # the caption is a prop it renders under its <img> (after it in the source); one it
            # renders above the image is text of its own (a step's title and description), and so
            # is all a card renders beside its icon (an <img> it sizes below the tiny size)
            under = {m.group(1) for _, m in zip(range(50), _COMPONENT_CHILD.finditer(code, code.find("<img")))}
            caption = next((t for n, v, k in tag.attrs if n in under and n != drawn
                            and (t := _attr_text((v, k)))), "")
        for name, value, kind in tag.attrs:
            low = name.lower()
            if src or value is None:
                continue
            if low not in _IMAGE_ATTRS and name != drawn:  # icon=, logo=, avatar= are decoration
                continue
            if kind == "str" and value.lower().split("?", 1)[0].endswith(_IMAGE_EXTS):
                src = value
            elif kind == "expr":
                expr = value.strip()
                if low == "sources":
                    m = re.search(r"\blight\s*:\s*(.+?)(?:,\s*dark\s*:|\}\s*$|$)", expr.strip("{} \n"))
                    expr = m.group(1).strip().rstrip(",") if m else ""
                if expr in scope.images:
                    src = scope.images[expr]
                elif re.match(r"^(require|useBaseUrl|withBaseUrl)\s*\(", expr):
                    src = helper_path(expr) or "{" + expr + "}"
                else:
                    lit = re.fullmatch(r"""(['"`])([^'"`]*)\1""", expr)
                    if lit and lit.group(2).lower().endswith(_IMAGE_EXTS):
                        src = lit.group(2)
        if not src:
            return "", ""
        size = f' width="{width}"' if width is not None else ""
        img = f'<img src="{_escape(src)}" alt="{_escape(alt or caption)}"{size} />'
        if caption:  # drawn under the image, as <figure><figcaption> is (ZoomImage caption=...)
            return f"\n\n<figure>{img}<figcaption>{_html_text(caption)}</figcaption></figure>\n\n", caption
        return f"\n\n{img}\n\n", ""

    def _module_array(self, expr: str, scope: _Scope, page_rel: str) -> str:
        """The source of the array literal a ``{expression}`` names in a module of the
        site: ``constants.platforms`` with ``import constants from
        '@site/core/TabsConstants'`` (or ``platforms`` imported by name) -> the ``[...]``
        of ``const platforms = [...]`` (or ``platforms: [...]``) in that module, as the
        bundler resolves it; ``""`` when it is no such name."""
        m = re.fullmatch(r"([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?", expr)
        module = scope.modules.get(m.group(1)) if m else None
        if m is None or not module:
            return ""
        name = m.group(2) or scope.exports.get(m.group(1), m.group(1))
        found = self._module_file(module, page_rel)
        if found is None:
            return ""
        code = found[1]
        decl = re.search(rf"(?:\b(?:const|let|var)\s+{re.escape(name)}\s*=|(?<![\w$.]){re.escape(name)}\s*:)\s*\[", code)
        if decl is None:
            return ""
        end = code.find("]", decl.end(), decl.end() + 5000)
        return code[decl.end() - 1:end + 1] if end >= 0 else ""

    def _component_video(self, tag: _Tag, scope: _Scope, page_rel: str = "") -> str:
        """A video player component (``<ReactPlayer url={require('./x.mp4').default} />``,
        ``<Video src="/video/x.webm" />``, ``<YouTube url="https://youtu.be/..." />``) as a
        ``<video>`` tag: its ``url``/``src`` names a video file or a video host's page; a
        YouTube embed taking the video's id (``<LiteYouTubeEmbed id="..." />`` of
        react-lite-youtube-embed, ``videoId=``) plays ``https://www.youtube.com/watch?v=<id>``."""
        drawn = self._component_video_props(tag, scope, page_rel)
        if not drawn and not _VIDEO_COMPONENT.search(_names(tag, scope)):
            return ""
        attrs = {n: (v, k) for n, v, k in tag.attrs}
        title = _attr_text(attrs.get("title")) or _attr_text(attrs.get("caption"))
        host = _names(tag, scope).lower()
        for key in _VIDEO_HOST_ATTRS:  # <VideoEmbed host="youtube" videoId="..." />
            host += " " + _attr_text(attrs.get(key)).lower()
        video_id = _attr_text(attrs.get("videoId")) or _attr_text(attrs.get("id"))
        for name, watch in _VIDEO_ID_URLS:
            if name in host and re.fullmatch(r"[\w-]{6,20}", video_id):
                return f'\n\n<video src="{watch}{video_id}" title="{_escape(title)}"></video>\n\n'
        for name, value, kind in tag.attrs:
            if (name.lower() not in _VIDEO_ATTRS and name not in drawn) or value is None:
                continue
            src = value.strip() if kind == "str" else ""
            if kind == "expr":
                expr = value.strip()
                lit = re.fullmatch(r"""(['"`])([^'"`]*)\1""", expr)
                src = scope.images.get(expr) or helper_path(expr) or (lit.group(2) if lit else "")
            if src and (_VIDEO_LINK.search(src) or name in drawn):
                return f'\n\n<video src="{_escape(src)}" title="{_escape(title)}"></video>\n\n'
        return ""

    def _component_video_props(self, tag: _Tag, scope: _Scope, page_rel: str) -> set[str]:
        """The attributes of ``tag`` that a component of the site renders as the ``src`` of
        its ``<video>`` or of a ``<source>`` in it (``<source src={mp4} type="video/mp4" />``
        of ``<VideoEmbed mp4={mp4} webm={webm} />``); empty when it is not a file of the site."""
        code = self._component_code(tag, scope, page_rel)
        if not code or "<video" not in code:
            return set()
        found = {m.group(1) for _, m in zip(range(20), _COMPONENT_VIDEO_SRC.finditer(code, 0, MAX_COMPONENT_CHARS))}
        return {name for name, value, _ in tag.attrs if name in found and value}

    def _doc_cards(self, page_rel: str, stack: tuple[str, ...]) -> str:
        """``<DocCardList />`` (@theme/DocCardList) on a category's index doc: each card's
        title as a bold line and its description (the Site's ``category_cards``; a
        partial's list is the cards of the page it is shown on)."""
        cards_of = getattr(self.site, "category_cards", None)
        cards = cards_of(stack[0] if stack else page_rel) if callable(cards_of) else None
        if not cards:
            return "\n"
        return "".join(f"\n\n**{_html_text(c.title)}**\n\n{_html_text(c.description)}" for c in cards) + "\n\n"

    def _component_iframe(self, tag: _Tag, scope: _Scope, page_rel: str) -> str:
        """A component of the site itself (``@site/src/components/Arcade``, a relative
        module) that renders an ``<iframe>`` (an embedded walkthrough or player: ``<Arcade
        id="..." title="..." />``) as that ``<iframe>``, its ``src`` template filled from the
        tag's attributes the way React renders it; ``""`` when the module is a package,
        renders no iframe, or the src needs a prop the tag does not give."""
        code = self._component_code(tag, scope, page_rel)
        m = _COMPONENT_IFRAME.search(code) if code else None
        if code is None or m is None:
            return ""
        props = {name: value for name, value, kind in tag.attrs if kind == "str" and value}
        if m.group(3) is not None:
            src = m.group(3)
        elif m.group(1).startswith("`"):
            slots = _TEMPLATE_SLOT.findall(m.group(1))
            if "${" in _TEMPLATE_SLOT.sub("", m.group(1)) or any(name not in props for name in slots):
                return ""
            src = _TEMPLATE_SLOT.sub(lambda s: props[s.group(1)], m.group(1)[1:-1])
        else:
            src = props.get(m.group(1).removeprefix("props."), "")
        if not src:
            return ""
        t = _COMPONENT_TITLE.search(m.group(0) + code[m.end():m.end() + 2000].split(">", 1)[0])
        title = (props.get(t.group(1), "") if t.group(1) else t.group(3)) if t else ""
        return f'\n\n<iframe src="{_escape(src)}" title="{_escape(title)}"></iframe>\n\n'

    def _component_img_template(self, tag: _Tag, scope: _Scope, page_rel: str) -> str:
        """The image path a component of the site builds from the tag's props for its
        ``<img>``: ``src={require(`@site/docs/img/${id}`).default}`` (or a template
        literal without ``require``) with each ``${prop}`` filled from the tag, as React
        and webpack resolve it (``<ZoomImage id="x.webp" />`` draws
        ``@site/docs/img/x.webp``); ``""`` when the component is not a file of the site,
        builds no such path, or a prop it needs is not given as a string."""
        code = self._component_code(tag, scope, page_rel)
        if not code or "<img" not in code or "${" not in code:
            return ""
        if code not in self._img_templates:  # read once per component, however many tags use it
            self._img_templates[code] = [m.group(1) for _, m in zip(
                range(20), _COMPONENT_IMG_TEMPLATE.finditer(code, 0, MAX_COMPONENT_CHARS))]
        props = {name: value for name, value, kind in tag.attrs if kind == "str" and value}
        for template in self._img_templates[code]:
            if any(name not in props for name in _TEMPLATE_SLOT.findall(template)) or \
                    "${" in _TEMPLATE_SLOT.sub("", template):
                continue
            path = _TEMPLATE_SLOT.sub(lambda s: props[s.group(1)], template)
            if path.lower().split("?", 1)[0].endswith(_IMAGE_EXTS):
                return path
        return ""

    def _component_text_props(self, tag: _Tag, scope: _Scope, page_rel: str) -> list[str]:
        """The text a component of the site itself renders from the tag's props, as React
        does: a prop written as an element's only child (``<span>{plan}</span>``,
        ``{props.label}``), and the fields of the objects of an array prop it maps to
        children (``{tags.map((tag) => <a>{tag.name}</a>)}`` with ``tags={[{ name:
        "Enterprise" }]}``). Only string values are known; ``[]`` when the component is
        not a file of the site. So is the entry of a table of the module that a prop selects
        (``const plan = PLANS[type]`` then ``{plan.label}`` or ``const { label } = plan`` and
        ``{label}``: ``<PlanBadge type="team" />`` shows the ``label`` of ``PLANS.team``)."""
        code = self._component_code(tag, scope, page_rel)
        if not code or "{" not in code:
            return []
        direct, mapped = self._child_props(code)
        out: list[str] = []
        for name, value, kind in tag.attrs:
            if value is None or name.lower() in _TEXT_ATTRS:
                continue
            if name in direct and (text := _attr_text((value, kind))):
                out.append(text)
            elif kind == "expr" and mapped.get(name):
                items = _array_items(value)
                # the fields of its objects the component writes as children ({tag.name})
                out.extend(_strings(field for item in items if isinstance(item, dict)
                                    for key, field in item.items() if key in mapped[name])[:50])
                if "" in mapped[name]:
                    # an array of strings, each rendered as an element (a card's feature list)
                    out.extend(_strings(items)[:50])
            if kind == "expr" and name in (rows := self._tuple_props(code)):
                # an array of arrays mapped with its items destructured (items.map(([label, value]) =>
                # <div><strong>{label}</strong>: {value}</div>)): a row of text per item
                shown, sep = rows[name]
                for row in [item for item in _array_items(value) if isinstance(item, list)][:100]:
                    cells = [cell.strip() if isinstance(cell, str) else "" for cell in row]
                    line = sep.join(cells[k] for k in shown if k < len(cells) and cells[k])
                    if line:
                        out.append(line)
        props = {name: value for name, value, kind in tag.attrs if kind == "str" and value}
        out.extend(_lookup_texts(code, props, direct))
        return out

    def _component_code_props(self, tag: _Tag, scope: _Scope, page_rel: str) -> str:
        """The code blocks a component of the site draws from the tag's props, as React
        renders it: each prop the module writes as the child of its ``@theme/CodeBlock``
        (``<CodeBlock className="language-bash">{props.bash}</CodeBlock>``) that the tag
        gives a string, as a fenced block in that language; inside the module's
        ``<TabItem value="nix">`` of ``<Tabs values={[{label: "Linux", value: "nix"}]}>``,
        a tab of that label (``<OsTabs bash="..." powershell="..." />``: one tab per
        command). A prop drawn in several places is shown at its first. ``""`` when it
        draws none of the tag's props."""
        code = self._component_code(tag, scope, page_rel)
        if not code or "@theme/CodeBlock" not in code:
            return ""
        drawn = _code_props(code)
        given = {name: text for name, value, kind in tag.attrs
                 if value is not None and (text := _attr_text((value, kind)) if kind != "expr"
                                           else (scope.value(value) or ""))}
        shown = [(label, lang, given[name]) for name, label, lang in drawn if name in given]
        if not shown:
            return ""
        tabbed = all(label for label, _, _ in shown)
        out = [f"\n\n{set_open()}\n\n"] if tabbed else ["\n\n"]
        for label, lang, text in shown:
            if tabbed:
                out.append(f"{tab_start(label)}\n\n**{label}**\n\n")
            fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0))
            out.append(f"{fence}{lang}\n{text.strip(chr(10))}\n{fence}\n\n")
        if tabbed:
            out.append(f"{set_close()}\n\n")
        return "".join(out)

    def _tuple_props(self, code: str) -> dict[str, tuple[list[int], str]]:
        """Of a component's source: each array prop it maps with the items destructured
        (``{items.map(([label, value], i) => <div><strong>{label}</strong>: {value}</div>)}``),
        with the positions of the item's values it renders as children, in the order it
        renders them, and the text it writes between the first two (``": "``, else a space)."""
        if code not in self._tuples:
            found: dict[str, tuple[list[int], str]] = {}
            for _, m in zip(range(20), _COMPONENT_TUPLE_MAP.finditer(code)):
                names = [n.strip() for n in m.group(2).split(",")]
                body = code[m.end():m.end() + 5000]
                at = {}
                for k, n in enumerate(names):
                    if re.fullmatch(r"[A-Za-z_$][\w$]*", n):
                        # a child, after a tag or text (not an attribute's value: key={i})
                        child = re.search(rf"(?<!=)(?<!=\s)\{{\s*{re.escape(n)}\s*\}}", body)
                        if child:
                            at[k] = child.start()
                shown = sorted(at, key=at.__getitem__)
                if not shown:
                    continue
                sep = " "
                if len(shown) > 1:
                    first, second = names[shown[0]], names[shown[1]]
                    between = re.search(rf"\{{\s*{re.escape(first)}\s*\}}(.{{0,100}}?)\{{\s*{re.escape(second)}\s*\}}", body,
                                        re.DOTALL)
                    if between:
                        text = re.sub(r"<[^<>]*>", "", between.group(1))
                        sep = re.sub(r"\s+", " ", text) if "{" not in text and text.strip() else " "
                found[m.group(1)] = (shown, sep)
            self._tuples[code] = found
        return self._tuples[code]

    def _child_props(self, code: str) -> tuple[set[str], dict[str, set[str]]]:
        """Of a component's source: the props it renders as an element's only child, and
        each array prop it maps to elements with the fields of its items rendered so."""
        if code not in self._text_props:  # read once per component, however many tags use it
            direct = {m.group(1) for k, m in zip(range(50), _COMPONENT_CHILD.finditer(code))}
            mapped: dict[str, set[str]] = {}
            for _, m in zip(range(20), _COMPONENT_MAP.finditer(code)):
                item = re.escape(m.group(2))
                child = re.compile(rf"[>}}]\s*\{{\s*{item}\.([A-Za-z_$][\w$]*)\s*\}}\s*[<{{]")
                fields = mapped.setdefault(m.group(1), set())
                fields.update(f.group(1) for _, f in zip(range(20), child.finditer(code, m.end(), m.end() + 5000)))
                # the item itself as a child (features.map((f) => <li>{f}</li>)): "" stands for it
                if re.compile(rf"[>}}]\s*\{{\s*{item}\s*\}}\s*[<{{]").search(code, m.end(), m.end() + 5000):
                    fields.add("")
            self._text_props[code] = (direct, mapped)
        return self._text_props[code]

    def _component_img_prop(self, tag: _Tag, scope: _Scope, page_rel: str) -> str:
        """The attribute of ``tag`` that a component of the site draws as its ``<img>``
        (``<img src={src} />``, ``src={props.shot}``, or a name computed from it:
        ``const resolved = require(`@site/static${src}`).default`` then ``<img src={resolved}>``),
        ``""`` when the component is not a file of the site or draws none of them."""
        code = self._component_code(tag, scope, page_rel)
        if not code or "<img" not in code:
            return ""
        names = {name for name, value, kind in tag.attrs if kind in ("str", "expr") and value}
        if code not in self._img_srcs:  # read once per component, however many tags use it
            srcs: list[tuple[str, str]] = []  # (src expression, the declaration of the name it is, if any)
            for _, m in zip(range(20), _COMPONENT_IMG.finditer(code, 0, MAX_COMPONENT_CHARS)):
                # a component draws a few images; a hostile file is not searched further
                var = re.fullmatch(r"\s*([A-Za-z_$][\w$]*)\s*", m.group(1))
                decl = re.search(rf"\b(?:const|let|var)\s+{re.escape(var.group(1))}\s*=\s*([^;\n]{{1,300}})",
                                 code) if var else None
                srcs.append((m.group(1), decl.group(1) if decl else ""))
            self._img_srcs[code] = srcs
        for expr, declared in self._img_srcs[code]:
            var = re.fullmatch(r"\s*([A-Za-z_$][\w$]*)\s*", expr)
            if var and var.group(1) not in names and declared:  # a name computed from a prop
                expr = declared
            used: list[str] = [n for n in re.findall(r"(?:props\.)?([A-Za-z_$][\w$]*)", expr) if n in names]
            if used:
                return used[0]
        return ""

    def _component_code(self, tag: _Tag, scope: _Scope, page_rel: str) -> str | None:
        """The source of the site's own component ``tag`` names (:meth:`_component_source`
        of the module it is imported or registered from), else ``None``."""
        if tag.name in scope.local:
            return scope.local[tag.name]
        module = scope.modules.get(tag.name)
        if not module:
            return None
        return self._component_source(module, page_rel, export=scope.exports.get(tag.name, "default"))

    def _component_source(self, module: str, page_rel: str, *, export: str = "default") -> str | None:
        """The source of a component module that is a file of the site (``@site/...``,
        ``./x``, ``/src/...``; webpack's extensions and ``index`` files tried), else ``None``.
        A module that re-exports ``export`` from another one (a components folder's
        ``index.js`` of ``export { default as Term } from './info/Term'``, or ``import Term
        from './Term'`` then ``export { Term }``) gives that module's source instead, as
        webpack resolves the import through it (up to :data:`MAX_REEXPORT_HOPS` modules)."""
        found = self._component_file(module, page_rel, export=export)
        return found[2] if found is not None else None

    def _component_file(self, module: str, page_rel: str, *, export: str = "default") -> tuple[str, str, str] | None:
        """``(rel_path, export, source)`` of the site module that defines the component
        ``module`` exports as ``export`` (see :meth:`_component_source`), ``export`` being
        the name that module gives it."""
        found = self._module_file(module, page_rel)
        for _ in range(MAX_REEXPORT_HOPS):
            if found is None:
                return None
            rel, code = found
            hop = _reexport(code, export)
            if hop is None and export != "default" and not _declares(code, export):
                # export * from './Term' (a TypeScript barrel): the module among them that declares it
                hop = next(((m.group(2), export) for _, m in zip(range(20), _STAR_EXPORT.finditer(code))
                            if (star := self._module_file(m.group(2), rel)) is not None
                            and (_declares(star[1], export) or _reexport(star[1], export) is not None)), None)
            if hop is None:
                return rel, export, code
            target, export = hop
            found = self._module_file(target, rel)
        return (found[0], export, found[1]) if found is not None else None

    def _module_file(self, module: str, page_rel: str) -> tuple[str, str] | None:
        """``(rel_path, source)`` of the site file ``module`` names from ``page_rel``, else ``None``.
        ``@theme/X`` is the site's own ``src/theme/X`` when it has one (a swizzled or
        custom theme component, which Docusaurus resolves before any theme's)."""
        if module.startswith("@theme/") and ".." not in module:
            module = "@site/src/theme/" + module[len("@theme/"):]
        if not module.startswith(("@site/", "./", "../", "/")):
            return None
        key = module if module.startswith(("@site/", "/")) else f"{PurePosixPath(page_rel).parent}|{module}"
        if key not in self._components:
            self._components[key] = None
            root = self.site.config.root
            for ext in ("", *_MODULE_EXTS):
                res = self.site.resolve_include(module + ext, page_rel=page_rel)
                if res.rel_path and PurePosixPath(res.rel_path).suffix in _CODE_EXTS and (root / res.rel_path).is_file():
                    try:
                        with (root / res.rel_path).open(encoding="utf-8", errors="replace") as fh:
                            self._components[key] = (res.rel_path, fh.read(MAX_COMPONENT_CHARS))
                    except OSError:
                        pass
                    break
        return self._components[key]

    def _html_tag(self, tag: _Tag, scope: _Scope) -> str:
        out = [f"<{tag.name}"]
        given = {name.lower() for name, _, _ in tag.attrs}
        for name, value, kind in tag.attrs:
            low = name.lower()
            if kind == "bool":
                out.append(f" {name}")
                continue
            if kind == "str":
                out.append(f' {"class" if low == "classname" else name}="{_escape(value or "")}"')
                continue
            expr = (value or "").strip()
            if low == "style" and tag.name.lower() == "img" and "width" not in given:
                # style={{ width: '20px' }} (React: a number is pixels) sizes the picture as width= does
                width = _style_width(expr)
                if width is not None:
                    out.append(f' width="{width}"')
                continue
            if low == "style" or low.startswith("on"):
                continue
            lit = re.fullmatch(r"""(['"`])([^'"`]*)\1""", expr)
            if lit:
                out.append(f' {name}="{_escape(lit.group(2))}"')
            elif low in _LINK_ATTRS and expr in scope.images:
                out.append(f' {name}="{_escape(scope.images[expr])}"')
            elif low in _LINK_ATTRS and (path := helper_path(expr)) is not None:
                out.append(f' {name}="{_escape(path)}"')
            elif low in _LINK_ATTRS or low == "alt" or low == "title":
                # left for the Site (useBaseUrl(...), require(...).default) or reported unsupported
                out.append(f' {name}="{_escape("{" + expr + "}")}"')
        out.append(" />" if tag.self_closing else ">")
        return "".join(out)

    def _inline_partial(self, target: str, *, page_rel: str, depth: int, stack: tuple[str, ...],
                        props: dict[str, str] | None = None) -> str:
        if depth >= MAX_PARTIAL_DEPTH:
            self.warnings.append(f"partial {target!r}: nested more than {MAX_PARTIAL_DEPTH} levels; not inlined")
            return "\n"
        found = self.read(target, page_rel)
        if found is None:
            return "\n"
        rel, text = found
        if rel in stack:
            self.warnings.append(f"partial {rel} includes itself; not inlined again")
            return "\n"
        if not self._partial_chars.spend(text, f"partial {rel}", self.warnings):
            return "\n"
        self.partials_used.append(rel)
        body = self.transform(text, page_rel=rel, depth=depth + 1, stack=stack, props=props or {})
        body = re.sub(r"\A---[ \t]*\r?\n.*?\r?\n---[ \t]*(?:\r?\n|\Z)", "", body, flags=re.DOTALL)
        body = rebase_links(body, from_rel=rel, to_rel=stack[0] if stack else page_rel)
        return "\n\n" + body.strip("\n") + "\n\n"


_INLINE_HTML = MarkdownIt("commonmark", {"html": True})
# Markdown in the text between two tags of a line (emphasis, code, a link or an image, an escape)
_TEXT_MARKUP = re.compile(r">[^<>]*[*_`\[\\][^<>]*<")
_CODE_ELEMENT = re.compile(r"<(?:code|pre)\b", re.IGNORECASE)


def _element_markdown(line: str) -> str:
    """A line of HTML elements standing as a block, with the Markdown of their text as the
    HTML MDX 2+ renders it (``<summary>**Example values**</summary>`` ->
    ``<summary><strong>Example values</strong></summary>``): MDX reads the text of an
    element as Markdown, whereas the CommonMark reader murar hands the page to keeps an
    HTML block's text as written. Code elements are left as they are."""
    if "\n" in line or not _TEXT_MARKUP.search(line) or _CODE_ELEMENT.search(line):
        return line
    body = line.lstrip(" \t")
    return line[: len(line) - len(body)] + str(_INLINE_HTML.renderInline(body.rstrip()))


# width: '20px' / width: "1.5em" / width: 24 in a React style object (not maxWidth, minWidth)
_STYLE_WIDTH = re.compile(r"""(?<![\w$-])width\s*:\s*(?:(['"])([^'"\n]{1,20})\1|(\d{1,5}(?:\.\d{1,4})?)\s*[,}])""")


def _style_width(expr: str) -> int | None:
    """The width in pixels a JSX ``style={{...}}`` object gives an element: ``width: '20px'``,
    ``'1.5em'`` (at 16 px), or a number (React adds ``px`` to a unitless number); ``None``
    for a percentage, ``auto``, a variable or no width."""
    m = _STYLE_WIDTH.search(expr)
    if m is None:
        return None
    return length_px(m.group(2)) if m.group(2) is not None else round(float(m.group(3)))


_IMG_TAG = re.compile(r"<img\b[^<>]{0,1000}>")
_STYLE_OBJECT = re.compile(r"\bstyle\s*=\s*\{\{([^<>]{0,500}?)\}\}")
_WIDTH_ATTR = re.compile(r"""\bwidth\s*=\s*(?:(['"])(\d{1,5})(?:px)?\1|\{\s*(\d{1,5})\s*\})""")


def _img_tag_width(code: str | None, drawn: str) -> int | None:
    """The width in pixels a component's source gives the ``<img>`` it draws (``style={{ width:
    '28px' }}``, ``width={24}``): its only ``<img>``, or the one whose ``src`` is the prop
    ``drawn`` or a template built from props; ``None`` when it sets none."""
    if not code or "<img" not in code:
        return None
    tags = [m.group(0) for _, m in zip(range(20), _IMG_TAG.finditer(code, 0, MAX_COMPONENT_CHARS))]
    if len(tags) > 1:
        src = re.compile(rf"\bsrc\s*=\s*\{{\s*(?:props\.)?{re.escape(drawn)}\b" if drawn else r"\bsrc\s*=\s*\{[^}]*`")
        tags = [t for t in tags if src.search(t)]
    if not tags:
        return None
    style = _STYLE_OBJECT.search(tags[0])
    width = _style_width(style.group(1)) if style else None
    attr = _WIDTH_ATTR.search(_STYLE_OBJECT.sub("", tags[0])) if width is None else None
    return int(attr.group(2) or attr.group(3)) if attr else width


# {['AI Agents', 'SSO'].map(label => (<span key={label}>{label}</span>))}: an array literal mapped to elements
_LITERAL_MAP_OPEN = re.compile(r"\{\s*(?=\[)")
_LITERAL_MAP = re.compile(r"\s*\.map\(\s*\(?\s*([A-Za-z_$][\w$]*)")
MAX_MAPPED_ARRAY_CHARS = 5000


def _array_items(expr: str) -> list[Any]:
    """The items of the array literal ``expr`` (a prop's expression), read by :func:`_js_literal`
    (a string holding the other quote, ``"Don't wait"``, is one item); ``[]`` when ``expr`` is
    not an array literal."""
    value = _js_literal(expr, 0)[0] if expr.lstrip().startswith("[") else None
    return value if isinstance(value, list) else []


def _strings(values: Iterable[Any]) -> list[str]:
    """The non-blank strings of ``values``, stripped (other values: names, calls, objects are not text)."""
    return [v.strip() for v in values if isinstance(v, str) and v.strip()]


def _mapped_strings(expr: str) -> str:
    """The text a flow expression mapping an array of strings to elements renders, each
    string being an element's child (``{['AI Agents', 'SSO'].map(label => <span>{label}</span>)}``
    shows "AI Agents · SSO"); ``""`` for any other expression (code, not text). The array
    (up to :data:`MAX_MAPPED_ARRAY_CHARS`) is read by :func:`_js_literal`."""
    expr = expr.strip()
    opened = _LITERAL_MAP_OPEN.match(expr)
    if opened is None:
        return ""
    items, end = _js_literal(expr, opened.end())
    m = _LITERAL_MAP.match(expr, end) if expr[end - 1:end] == "]" and end - opened.end() <= MAX_MAPPED_ARRAY_CHARS else None
    if m is None or not isinstance(items, list) or \
            not re.search(rf"[>}}]\s*\{{\s*{re.escape(m.group(1))}\s*\}}\s*[<{{]", expr[m.end():]):
        return ""
    texts = _strings(items)[:100]
    return "\n\n" + " · ".join(texts) + "\n\n" if texts else ""


# {cards.map((card, i) => (<IconCard key={i} {...card} />))}: a component drawn once per item, given its fields
_MAPPED_COMPONENT = re.compile(r"\{\s*([A-Za-z_$][\w$]*)\.map\(\s*\(?\s*([A-Za-z_$][\w$]*)\s*(?:,\s*[A-Za-z_$][\w$]*\s*)?\)?"
                               r"\s*=>\s*\(?\s*<([A-Z][\w$.]*)\b[^<>{}]*(?:\{[^{}<>]*\}[^<>{}]*)*?\{\s*\.\.\.\s*\2\s*\}"
                               r"[^<>]*/>\s*\)?\s*\)\s*\}", re.DOTALL)
_JS_TOKEN = re.compile(r"""\s*(?:(?://[^\n]*|/\*.*?\*/)\s*)*""", re.DOTALL)
MAX_JS_LITERAL_DEPTH = 20


def _js_literal(code: str, pos: int, depth: int = 0) -> tuple[Any, int]:
    """``(value, end)`` of the JavaScript literal at ``code[pos:]``: an object (a dict of its
    keys), an array, a string (a template literal without ``${}``), a number, ``true``/
    ``false``/``null``; any other expression (a name, a call) is ``None``, skipped up to
    the next ``,`` or closing bracket of its level."""
    pos = _JS_TOKEN.match(code, pos).end()  # type: ignore[union-attr]
    if pos >= len(code) or depth > MAX_JS_LITERAL_DEPTH:
        return None, pos
    c = code[pos]
    if c in "'\"`":
        m = re.compile(rf"{c}((?:[^{c}\\\n]|\\.){{0,5000}}){c}", re.DOTALL).match(code, pos)
        if m is None:
            return None, pos + 1
        text = m.group(1)
        text = re.sub(r"\\(.)", r"\1", text)
        return (None if c == "`" and "${" in text else text), m.end()
    if c in "[{":
        close = "]" if c == "[" else "}"
        items: list[Any] = []
        fields: dict[str, Any] = {}
        pos += 1
        for _ in range(2000):
            pos = _JS_TOKEN.match(code, pos).end()  # type: ignore[union-attr]
            if pos >= len(code) or code[pos] == close:
                return (items if c == "[" else fields), pos + 1
            start = pos
            if c == "{" and code.startswith("...", pos):  # ...spread: fields murar does not know
                _, pos = _js_literal(code, pos + 3, depth + 1)
            elif c == "{":
                key = re.compile(r"""(?:(['"])(.*?)\1|([A-Za-z_$][\w$]*)|(\d+))\s*(:)?""").match(code, pos)
                if key is None:
                    return fields, len(code)
                name = key.group(2) if key.group(1) else (key.group(3) or key.group(4))
                pos = key.end()
                # { icon, title }: shorthand names, no literal
                value, pos = _js_literal(code, pos, depth + 1) if key.group(5) else (None, pos)
                fields[name] = value
            else:
                value, pos = _js_literal(code, pos, depth + 1)
                items.append(value)
            pos = _JS_TOKEN.match(code, pos).end()  # type: ignore[union-attr]
            if pos < len(code) and code[pos] == ",":
                pos += 1
            elif pos == start:  # a stray closing bracket of another kind: the literal ends here
                break
        return (items if c == "[" else fields), pos
    num = re.compile(r"-?\d+(?:\.\d+)?").match(code, pos)
    if num:
        return num.group(0), num.end()
    word = re.compile(r"true|false|null|undefined").match(code, pos)
    if word and not re.match(r"[\w$]", code[word.end():word.end() + 1]):
        return {"true": True, "false": False}.get(word.group(0)), word.end()
    # any other expression: skipped to the end of its item (brackets balanced, strings skipped)
    level = 0
    while pos < len(code):
        ch = code[pos]
        if ch in "'\"`":
            _, pos = _js_literal(code, pos, MAX_JS_LITERAL_DEPTH)
            continue
        if ch in "([{":
            level += 1
        elif ch in ")]}":
            if level == 0:
                break
            level -= 1
        elif ch in ",;" and level == 0:
            break
        pos += 1
    return None, pos


# const plan = PLANS[type]: an entry of a table the component's prop selects
_TABLE_LOOKUP = re.compile(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*)\s*\[\s*(?:props\.)?([A-Za-z_$][\w$]*)\s*\]")


def _lookup_texts(code: str, props: dict[str, str], direct: set[str]) -> list[str]:
    """The strings a component renders from the entry of an object table of its module that a
    prop selects (``const plan = PLANS[type]``, ``PLANS = { team: { label: 'Team Plan' } }``):
    each field it writes as a child, ``{plan.label}`` or a name destructured from the entry
    (``const { label } = plan`` then ``{label}``); ``[]`` when there is none."""
    out: list[str] = []
    for _, m in zip(range(10), _TABLE_LOOKUP.finditer(code, 0, MAX_COMPONENT_CHARS)):
        var, table, prop = m.groups()
        if prop not in props:
            continue
        decl = re.search(rf"\b(?:const|let|var)\s+{re.escape(table)}\s*=\s*(?=\{{)", code)
        data = _js_literal(code, decl.end())[0] if decl else None
        entry = data.get(props[prop]) if isinstance(data, dict) else None
        if not isinstance(entry, dict):
            continue
        fields = re.findall(rf"\{{\s*{re.escape(var)}\.([A-Za-z_$][\w$]*)\s*\}}", code)
        destructured = re.search(rf"\{{([^{{}}]{{1,500}})\}}\s*=\s*{re.escape(var)}\b", code)
        for part in (destructured.group(1).split(",") if destructured else []):
            key, _, alias = part.partition(":")
            if (alias.strip() or key.strip()) in direct:
                fields.append(key.strip())
        out.extend(value for f in dict.fromkeys(fields) if isinstance(value := entry.get(f), str) and value.strip())
    return out


def _bind_module(name: str, module: str, scope: _Scope, *, export: str = "default") -> None:
    """Bind ``name`` imported (or registered) from ``module``: an image file, a Markdown
    partial, or a component known by the module it comes from (``@theme/Tabs`` -> Tabs,
    ``../components/zoom/ZoomableImage`` -> ZoomableImage; an ``index`` file by its folder),
    ``export`` being the name the module exports it as (``default`` for a default import)."""
    for table in (scope.images, scope.partials, scope.kinds, scope.modules, scope.exports):
        table.pop(name, None)
    if export != "default" and re.fullmatch(r"[A-Za-z_$][\w$]*", export):
        scope.exports[name] = export
    low = module.lower().split("?", 1)[0]
    if low.endswith(_IMAGE_EXTS):
        scope.images[name] = module
    elif low.endswith((".md", ".mdx")):
        scope.partials[name] = module
    else:
        scope.modules[name] = module
        parts = [p for p in module.split("?", 1)[0].split("/") if p]
        stem = parts[-1].rsplit(".", 1)[0] if parts else ""
        if stem == "index" and len(parts) > 1:
            stem = parts[-2]
        if stem and stem != name:
            scope.kinds[name] = stem


def _reexport(code: str, export: str) -> tuple[str, str] | None:
    """``(module, name)`` when the module source ``code`` re-exports its ``export``
    from another module rather than defining it: ``export { default as Term } from
    './Term'`` -> ``('./Term', 'default')``, ``export { Term } from './x'`` -> ``('./x',
    'Term')``, ``import Term from './Term'`` then ``export { Term }`` -> ``('./Term',
    'default')``; ``None`` otherwise."""
    for m in _REEXPORT.finditer(code):
        for part in m.group(1).split(",")[:200]:
            names = part.split(" as ")
            orig, alias = names[0].strip(), names[-1].strip()
            if alias != export or not re.fullmatch(r"[A-Za-z_$][\w$]*", orig):
                continue
            if m.group(3):
                return m.group(3), orig
            imp = re.search(rf"\bimport\s+{re.escape(orig)}\s*(?:,\s*\{{[^{{}}]{{0,2000}}\}}\s*)?"
                            r"""from\s*(['"])([^'"\n]{1,300})\1""", code)
            if imp:
                return imp.group(2), "default"
    return None


# the start of the function that is a module's export: export function Name( / const Name = (...) =>
# / const Name: FC = function ( (any const, exported or listed in an export { } later)
_FUNCTION_OPEN = (r"(?:\bfunction\s*\*?\s*{name}\s*\(|\b(?:const|let|var)\s+{name}\s*(?::[^=;]{{0,200}})?=\s*"
                  r"(?:async\s+)?(?:function\b[^(]{{0,100}})?\()")
# a render that is one self-closing element and nothing else: return <Content />; / (<Content />)
_ONE_ELEMENT = re.compile(r"\s*(?:return\b\s*)?\(?\s*<([A-Z][\w$]*)\s*/>\s*\)?\s*;?\s*")


def _rendered_markdown(code: str, export: str) -> str | None:
    """The Markdown file the component a module exports as ``export`` renders when its
    whole render is one element imported from a ``.md``/``.mdx`` file of that module
    (``import IOSContent from './guide-ios.md'`` then ``export function IOSGuide() {
    return <IOSContent />; }``, or ``export const IOSGuide = () => <IOSContent />``, or
    ``export default function () { return (<IOSContent />); }``), as the import names it;
    ``None`` for any other component."""
    if export == "default":
        named = re.search(r"\bexport\s+default\s+([A-Za-z_$][\w$]*)\s*;?\s*$", code, re.MULTILINE)
        if named and named.group(1) not in ("function", "async", "class"):
            start = re.search(_FUNCTION_OPEN.format(name=re.escape(named.group(1))), code)
        else:
            start = re.search(r"\bexport\s+default\s+(?:async\s+)?function\b\s*\*?\s*[A-Za-z_$]?[\w$]*\s*\(", code)
    elif re.fullmatch(r"[A-Za-z_$][\w$]*", export):
        start = re.search(_FUNCTION_OPEN.format(name=re.escape(export)), code)
    else:
        return None
    if start is None:
        return None
    depth, i = 1, start.end()  # past the parameters' own brackets
    while i < len(code) and depth and i < start.end() + 2000:
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        i += 1
    rest = re.match(r"\s*(?::\s*[\w$.<>\[\]| ]{1,100})?\s*(=>)?\s*", code[i:])
    if depth or rest is None:
        return None
    i += rest.end()
    if code[i : i + 1] == "{":
        body = js.object_at(code, i)
    elif rest.group(1) and code[i : i + 1] == "(":  # () => (\n  <Content />\n)
        end = code.find(")", i, i + 2000)
        body = code[i : end + 1] if end > 0 else None
    elif rest.group(1):
        body = code[i:].split("\n", 1)[0]
    else:
        return None
    element = _ONE_ELEMENT.fullmatch(body) if body is not None else None
    if element is None:
        return None
    imported = re.search(rf"""^\s*import\s+{re.escape(element.group(1))}\s+from\s*(['"])([^'"\n]{{1,300}}\.mdx?)\1""",
                         code, re.MULTILINE)
    return imported.group(2) if imported else None


def _declares(code: str, name: str) -> bool:
    """True when the module source ``code`` declares its export ``name`` itself
    (``export const Term =``, ``export function Term(``, ``export class Term``)."""
    return re.search(rf"\bexport\s+(?:async\s+)?(?:const|let|var|function\*?|class)\s+{re.escape(name)}\b",
                     code) is not None


def _is(tag: _Tag, scope: _Scope, kind: str) -> bool:
    """True when the component ``tag`` names is ``kind`` by its name or by its module."""
    return tag.name == kind or scope.kinds.get(tag.name) == kind


def _names(tag: _Tag, scope: _Scope) -> str:
    """The component's name and the name of what its module exports, for pattern tests."""
    return f"{tag.name} {scope.kinds.get(tag.name, '')}"


def _backtick_runs(line: str) -> dict[int, list[int]]:
    """The start of every run of backticks in ``line``, by run width (in order), so a
    code span's closing run (the next run of the same width) is found in log time."""
    runs: dict[int, list[int]] = {}
    for m in _BACKTICKS.finditer(line):
        runs.setdefault(m.end() - m.start(), []).append(m.start())
    return runs


def _fill_props(lines: list[str], props: dict[str, str]) -> list[str]:
    """``{props.name}`` outside fenced code replaced by ``props[name]`` ("" when absent)."""
    fences = FenceTracker(MDX_FENCE)
    out: list[str] = []
    for line in lines:
        if not fences.in_code(line) and "props" in line:
            line = _PROPS_EXPR.sub(lambda m: props.get(m.group(1), ""), line)
        out.append(line)
    return out


def unwrap_mdx_code_blocks(lines: list[str]) -> list[str]:
    """``lines`` with every ```` ```mdx-code-block ```` fence (3 or 4 backticks)
    replaced by its content: Docusaurus reads that content as MDX, not as code
    (``unwrapMdxCodeBlocks``, "MDX code blocks"), so imports, components and
    ``<Tabs>`` tags opened in one such block and closed in another work. A block
    ends at the first bare fence of its length; one that never ends, or that sits
    inside another fenced block (an example), stays code."""
    out: list[str] = []
    fences = FenceTracker(MDX_FENCE)
    # the bare fence lines of each length, in order (each block finds its end by bisection: a
    # search to the page end for each of 11,000 unclosed openers took 12.5 s on 200 KB)
    wrapped = any("mdx-code-block" in line for line in lines)
    closes = {ticks: [j for j, line in enumerate(lines) if wrapped and re.match(rf"^ *{ticks}\s*$", line)]
              for ticks in ("```", "````")}
    i = 0
    while i < len(lines):
        m = None if fences.inside else _MDX_CODE_BLOCK.match(lines[i])
        if m:
            after = closes[m.group(1)]
            at = bisect.bisect_right(after, i)
            end = after[at] if at < len(after) else None
            if end is not None:
                out.extend(["", *lines[i + 1 : end], ""])
                i = end + 1
                continue
        fences.in_code(lines[i])
        out.append(lines[i])
        i += 1
    return out


def _continues(prev: str) -> bool:
    """An ESM statement goes on to the next line when the previous one does not end it."""
    s = prev.rstrip()
    return bool(s) and not s.endswith(";") and (s.endswith((",", "(", "{", "[", "=", "=>", "+", "from")) or
                                                  bool(re.match(r"^(import|export)\s*\{?\s*$", s)))


def _expression_end(lines: list[str], i: int, scan_left: list[int]) -> tuple[int, int] | None:
    """Where the ``{`` expression opening ``lines[i]`` ends: ``(line index, column
    after its closing brace)``; ``None`` when it does not close within
    :data:`MAX_EXPRESSION_LINES` lines, or a Markdown heading, admonition or
    code fence comes first (the brace was text), or the page's ``scan_left``
    characters (:data:`MAX_EXPRESSION_SCAN_CHARS`; a line scanned spends its length and 16) are
    spent: 100,000 lines of ``{`` each scanned the 400 lines below (200 KB, 42 s). Strings and comments are
    skipped; an apostrophe inside a word (``don't`` in JSX text) opens no
    string, and a ``'`` or ``"`` left open at the end of a line is closed there
    (a template literal may span lines)."""
    depth = 0
    quote = ""
    for k in range(i, min(len(lines), i + MAX_EXPRESSION_LINES)):
        line = lines[k]
        scan_left[0] -= len(line) + 16  # (a line's own cost: 100,000 two-character lines)
        if scan_left[0] < 0:
            return None
        if len(line) > MAX_LINE_CHARS or (k > i and quote != "`" and _NOT_IN_EXPRESSION.match(line)):
            return None
        quote = "`" if quote == "`" else ""  # a template literal goes on; a ' or " string does not
        j = line.index("{") if k == i else 0
        while j < len(line):
            c = line[j]
            if quote:
                if c == "\\":
                    j += 1
                elif c == quote:
                    quote = ""
            elif c in "'\"`" and not (c == "'" and j and line[j - 1].isalnum()):
                quote = c
            elif line.startswith("//", j):
                break
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return k, j + 1
            j += 1
    return None


def _open_tag_unfinished(line: str) -> bool:
    """True when ``line`` opens a tag (``<name ...``) whose ``>`` is on a later line
    (only the last tag opening of the line can run past its end)."""
    if len(line) > MAX_LINE_CHARS:
        return False
    starts = [m.start() for m in re.finditer(r"<[A-Za-z]", line)]
    if not starts:
        return False
    last = starts[-1]
    if line[:last].count("`") % 2:
        return False
    rest = line[last:]
    return bool(re.match(r"<[A-Za-z][\w.:-]*(\s|$)", rest)) and _scan_tag(line, last) is None and \
        len(rest) < MAX_TAG_CHARS


_HEADING_LEVEL = re.compile(r"h([1-6])")


def _openapi_element(tag: _Tag, scope: _Scope, attrs: dict[str, tuple[str | None, str]]) -> str | None:
    """The text of the components docusaurus-openapi-docs writes into its generated
    API pages (``*.api.mdx``; docusaurus-theme-openapi-docs draws them), ``None`` for
    any other tag: ``<Heading as="h2" children="Request">`` (@theme/Heading given its
    text as a prop) a Markdown heading of that level; ``<MethodEndpoint method path>``
    ``GET /path`` in code; ``<ParamsItem param={{...}}>`` and ``<SchemaItem name
    schemaName required schema={{...}}>`` a list line ``name (in, type, required):
    description`` read from their JSON props."""
    if tag.closing:
        return None
    if _is(tag, scope, "Heading"):
        level = _HEADING_LEVEL.fullmatch(_attr_text(attrs.get("as")))
        text = _attr_text(attrs.get("children"))
        return f"\n\n{'#' * int(level.group(1))} {text}\n\n" if level and text else None
    if _is(tag, scope, "MethodEndpoint"):
        method, path = _attr_text(attrs.get("method")), _attr_text(attrs.get("path"))
        return f"\n\n`{method.upper()} {path}`\n\n" if method and path else None
    if _is(tag, scope, "ParamsItem"):
        param = _json_prop(attrs.get("param"))
        if not param or not isinstance(param.get("name"), str):
            return None
        found = param.get("schema")
        schema: dict[str, Any] = found if isinstance(found, dict) else {}
        facts = [str(param.get("in") or ""), str(schema.get("type") or ""),
                 "required" if param.get("required") is True else ""]
        return _api_item(param["name"], facts, param.get("description") or schema.get("description"))
    if _is(tag, scope, "SchemaItem"):
        name = _attr_text(attrs.get("name"))
        if not name:
            return None
        schema = _json_prop(attrs.get("schema")) or {}
        facts = [_attr_text(attrs.get("schemaName")), "required" if attrs.get("required", ("", ""))[0] == "true" else ""]
        return _api_item(name, facts, schema.get("description"))
    return None


def _json_prop(value: tuple[str | None, str] | None) -> dict[str, Any] | None:
    """A component prop written as a JSON object in braces (``param={{"in": "query"}}``:
    the generated pages write them so), else ``None``."""
    if value is None or value[0] is None or value[1] != "expr" or len(value[0]) > 100_000:
        return None
    try:
        data = json.loads(value[0].strip())
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _api_item(name: str, facts: list[str], description: Any) -> str:
    """One line of an API reference's parameter or schema list."""
    shown = ", ".join(f for f in facts if f)
    text = f"\n- `{name}`" + (f" ({shown})" if shown else "")
    if isinstance(description, str) and description.strip():
        text += ": " + " ".join(description.split())
    return text + "\n"


def _attr_text(value: tuple[str | None, str] | None) -> str:
    if value is None or value[0] is None:
        return ""
    text, kind = value[0], value[1]
    if kind == "expr":
        lit = re.fullmatch(r"""(['"`])([^'"`]*)\1""", text.strip())
        return lit.group(2).strip() if lit else ""
    return text.strip()


def _html_text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _escape(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;")


def rebase_links(text: str, *, from_rel: str, to_rel: str) -> str:
    """Rewrite relative image/HTML links in ``text`` (written in ``from_rel``) so
    they point at the same files when read from ``to_rel`` (both relative to the root)."""
    src_dir = PurePosixPath(from_rel).parent.as_posix()
    dst_dir = PurePosixPath(to_rel).parent.as_posix()
    if src_dir == dst_dir:
        return text

    def fix(link: str) -> str:
        if not link or link.startswith(("/", "#", "@", "{", "data:")) or re.match(r"^[a-z][a-z0-9+.-]*:|^//", link):
            return link
        return posixpath.relpath(posixpath.normpath(posixpath.join(src_dir, link)), dst_dir)

    text = _MD_IMAGE.sub(lambda m: m.group(1) + m.group(2) + fix(m.group(3)), text)
    return _HTML_SRC.sub(lambda m: m.group(1) + m.group(2) + fix(m.group(3)) + m.group(2), text)


def mdx_to_markdown(text: str, *, page_rel: str, site: Site) -> tuple[str, list[str]]:
    """Markdown for the MDX ``text`` of ``page_rel`` and the warnings raised."""
    tr = MdxTransformer(site)
    return tr.transform(text, page_rel=page_rel), tr.warnings


def convert_mdx(path: Path, *, site: Site, assets_dir: Path) -> ParsedDocument:
    """Convert one MDX page (``.mdx``, or ``.md`` on a site that reads Markdown as MDX).

    Raises:
        IngestError: the file cannot be read, is binary, or is outside the site root.
    """

    root = site.config.root
    rel = page_rel(path, root)
    warnings: list[str] = []
    # remark-gfm footnotes, as Docusaurus renders them; MDX has no indented code blocks
    opts = MarkdownOptions(plugins=(*GENERATOR_PLUGINS, "no-indented-code"))
    text = read_source(path, max_bytes=opts.max_bytes, warnings=warnings)
    markdown, mdx_warnings = mdx_to_markdown(text, page_rel=rel, site=site)
    return convert_markdown_text(markdown, path=path, root=root, site=site, options=opts,
                                 warnings=warnings + mdx_warnings)
