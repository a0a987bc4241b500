"""MyST Markdown pages (Jupyter Book, Sphinx + myst-parser) walked into a page.

markdown-it-py with the MyST plugins of mdit-py-plugins is the parser
(CommonMark + tables, front matter, ``(label)=`` targets, ``%`` comments,
``[^name]`` footnotes (the notes' text ends the page, the references go),
``{role}`text``` roles, ``:::`` colon fences, ``$$`` math, definition lists,
``{{ substitutions }}``, ``{width=...}`` inline attributes, ``[text]{.class}`` spans
(myst-parser's ``attrs_inline``: the text shows), ``:name: body`` field lists (``fieldlist``:
"name: body")). MyST directives (``` ```{name} argument``` fences and
``:::{name}`` colon fences, https://myst-parser.readthedocs.io/en/latest/syntax/roles-and-directives.html)
are read here:

- ``{figure}`` (the body is the author caption), ``{figure-md} label`` (an
  image line, Markdown or ``<img>``, then the caption), ``{image}``, raw ``<img>``
  and Markdown images become images, or videos when the file is one (mystmd
  "Videos": ``{figure} clip.mp4``); ``name.*`` is the best existing file of
  that name (Sphinx's and mystmd's image wildcard); ``<iframe>``/``<video>`` and
  ``{iframe}``/``{youtube}``/``{video}`` become videos;
- admonitions (``{note}``, ``{admonition} Title``, ...) become text led by
  their label; containers (``{tab-set}``, ``{dropdown}``, ``{card}``,
  ``{margin}``, ...) keep their body; ``{toctree}`` gives nothing;
- ``{list-table}``, ``{csv-table}``, ``{table}`` and pipe tables become tables;
- ``{include}`` is resolved by the Site and parsed at the include point (image
  paths in it resolve against the including page unless ``:relative-images:``,
  as MyST does); ``{literalinclude}`` and code fences become code text;
- ``{eval-rst}`` bodies go through the reStructuredText converter;
- roles reduce to their text (:func:`murar.ingest.markup.roles.role_text`);
- myst-parser's scheme autolinks show what Sphinx draws: ``<project:#label>`` and
  ``<project:page.md>`` the target's title, ``<path:file>`` the path,
  ``<inv:key#name>`` the name.

An unknown directive keeps its body as text, with a warning.
"""

from __future__ import annotations

import csv
import html
import io
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from docutils.nodes import make_id
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.field_list import fieldlist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin
from mdit_py_plugins.substitution import substitution_plugin

from murar.errors import IngestError
from murar.ingest.budget import PageCharBudget
from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.markup.amsmath import amsmath_rule
from murar.ingest.markup.autodoc import AUTODOC_DIRECTIVES
from murar.ingest.markup.builder import (
    MarkupOptions,
    PageBuilder,
    clean_text,
    is_video_embed,
    page_rel,
    peertube_embed_url,
    read_source,
)
from murar.ingest.markup.codeshown import code_caption, literalinclude_text, shown_code
from murar.ingest.markup.design import (
    ARTICLE_INFO_FIELDS,
    BUTTONS,
    CARDS,
    UNSHOWN_ARGUMENT,
    card_image_classes,
    code_set_label,
    code_tab_label,
    split_card,
    split_panels,
)
from murar.ingest.markup.mathtext import display_math, inline_math
from murar.ingest.markup.mdtext import GITHUB_ALERTS, read_table
from murar.ingest.markup.roles import (
    SPHINX_IMAGE_ORDER,
    VERSION_CHANGE_ALIASES,
    any_text,
    issue_role_prefixes,
    issue_text,
    role_text,
)
from murar.ingest.markup.tabs import TAB_ITEMS, TAB_SETS
from murar.ingest.mdlimits import add_nesting_room, cap_nesting
from murar.ingest.media_flags import is_inline_line, length_px
from murar.ingest.sites._xrefs import XrefIndex, block_lead, solution_lead
from murar.ingest.sites.base import VIDEO_EXTS, Site
from murar.schema import ImageItem, ParsedDocument, VideoItem, stable_id

__all__ = ["MystParser", "convert_myst", "convert_myst_text", "myst_markdown_it", "option_value"]

MAX_NESTING = 40
_DEFLIST_MARK = re.compile(r"^[:~][ \t]+\S")
_FENCE_OPEN = re.compile(r"^([ \t]*)(`{3,}|:{3,}|~{3,})")
_TARGET_LINE = re.compile(r"^[ \t]{0,3}\(([^()\n]{1,200})\)=[ \t]*$")
_OPTION_LABEL = re.compile(r"^[ \t]*:?(?:label|name):[ \t]+(\S{1,200})[ \t]*$")
_LABEL_DEF = re.compile(r"^[ \t]{0,3}\(([^()\n]{1,200})\)=[ \t]*$|^[ \t]*:?(?:label|name):[ \t]+(\S{1,200})[ \t]*$",
                        re.MULTILINE)


def _fence_end(lines: list[str], start: int) -> int:
    """The index after the fence opened at ``lines[start]`` closes (its character, at least
    as long, alone on a line), or the end of the text."""
    m = _FENCE_OPEN.match(lines[start])
    if m is None:
        return start + 1
    ch, size = m.group(2)[0], len(m.group(2))
    for j in range(start + 1, len(lines)):
        stripped = lines[j].strip()
        if len(stripped) >= size and stripped == ch * len(stripped):
            return j + 1
    return len(lines)


def _directive_opening(lines: list[str], i: int) -> int | None:
    """The line of the fence opening the directive whose option line ``i`` is (a fence
    line naming a directive, at most 40 lines up: a bare fence line closes a block)."""
    return next((k for k in range(i - 1, max(i - 40, -1), -1)
                 if _FENCE_OPEN.match(lines[k]) and lines[k].strip().lstrip("`:~").strip()), None)


def _embeds_label(line: str) -> bool:
    """True for the opening fence of an ``{embed}``: its ``:label:`` option names the content
    it shows when it has no argument (myst-directives embed), it defines no label."""
    m = _DIRECTIVE_INFO.match(line.strip().lstrip("`:~").strip())
    return m is not None and m.group(1).lower() == "embed"


def label_definitions(text: str) -> list[str]:
    """The MyST labels ``text`` defines, in order: ``(label)=`` targets and directives'
    ``label:``/``:label:``/``:name:`` options, an ``{embed}``'s own ``:label:`` aside."""
    out: list[str] = []
    for m in _LABEL_DEF.finditer(text):
        if m.group(2) is not None:
            above = text[max(0, m.start() - 8_000):m.start()].split("\n")[-41:]
            start = _directive_opening(above, len(above) - 1)
            if start is not None and _embeds_label(above[start]):
                continue
        out.append((m.group(1) or m.group(2)).strip())
    return out


def labelled_block(text: str, label: str) -> str | None:
    """The MyST source ``label`` names in ``text`` (mystmd ``{embed}``): the block after a
    ``(label)=`` line (a fenced directive whole, else the lines up to a blank one), or the
    fenced directive whose ``label:``/``:label:``/``:name:`` option it is; None when absent.
    One pass over the lines, plus the block's own."""
    lines = text.split("\n")
    key = label.strip().lower()
    for i, line in enumerate(lines):
        target = _TARGET_LINE.match(line)
        if target and target.group(1).strip().lower() == key:
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j >= len(lines):
                return None
            if _FENCE_OPEN.match(lines[j]):
                return "\n".join(lines[j:_fence_end(lines, j)])
            end = j
            while end < len(lines) and lines[end].strip():
                end += 1
            return "\n".join(lines[j:end])
        option = _OPTION_LABEL.match(line)
        if option and option.group(1).strip().lower() == key:
            start = _directive_opening(lines, i)
            if start is not None and not _embeds_label(lines[start]):
                return "\n".join(lines[start:_fence_end(lines, start)])
    return None
MAX_SUBSTITUTIONS = 2_000  # substitution values parsed on one page
#: characters the include, literalinclude, csv-table and embed directives of one page may read in all
#: (20 includes of a 980 KB file made 19,600,000 characters from a 600-byte page: 39 s)
MAX_INSERTED_CHARS = 10_000_000
#: notebooks whose cells one page keeps for its embeds of their cells (each read and parsed
#: once a page, not once an embed: 100 embeds of a 50 MB notebook were 100 reads and parses)
MAX_NOTEBOOKS_KEPT = 4
# Markdown in a substitution's value (read as inline MyST, not shown as written)
_INLINE_MARKUP = re.compile(r"[`*_\[\]{}$<\\]")
# "{name}" or the older "{name,class1,class2}" (classes after commas, myst-parser < 0.18)
_DIRECTIVE_INFO = re.compile(r"^\{([A-Za-z0-9][\w:.+-]*)(?:,[\w-]+)*\}\s*(.*)$", re.DOTALL)
_MD_IMAGE_LINE = re.compile(r"^\s*(?:!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>)\s*$", re.IGNORECASE)
_AT_REFERENCE = re.compile(r"(?<![\w@.])@([A-Za-z0-9_](?:[\w:.-]*\w)?)")
_OPTION_LINE = re.compile(r"^:([\w-]+):\s*(.*)$")
_ADMONITIONS = {"note", "tip", "hint", "important", "warning", "caution", "attention", "danger", "error",
                "seealso", "todo", "admonition", "versionadded", "versionchanged", "deprecated", "versionremoved"}
# admonitions docutils/Sphinx give no argument: a first-line text is content there
_CONTENT_ONLY = {"note", "tip", "hint", "important", "warning", "caution", "attention", "danger", "error",
                 "seealso", "todo"}
_LABELS = {"seealso": "See also", "versionadded": "New in version", "versionchanged": "Changed in version",
           "deprecated": "Deprecated since version", "versionremoved": "Removed in version"}
_CONTAINERS = {"tab-set", "tab-item", "tab-set-code", "dropdown", "card", "card-carousel", "grid", "grid-item",
               "grid-item-card", "margin", "aside", "sidebar", "topic", "container", "div", "only", "ifconfig", "tabs",
               "tab", "group-tab", "example", "proof", "epigraph", "pull-quote",
               "glossary", "rubric", "centered", "hlist", "button-link", "button-ref", "article-info",
               "details", "collapse", "panels", "tabbed", "list-grid", "cssclass", "rst-class", "hint-box", "toggle",
               "myst"}  # myst: mystmd's demo block (its source, then the result)
# directives whose content may hold sections: {include} (parsed in place), Sphinx's only and ifconfig
# (nested_parse with match_titles); the content of any other is parsed with no sections (myst-parser)
_TITLES_ALLOWED = {"include", "only", "ifconfig"}
_EXERCISES = {"exercise", "solution"}  # sphinx-exercise, with its gated "-start"/"-end" forms
# sphinx-proof's (and mystmd's) prf:<kind> directives (sphinx-proof "Syntax": each kind's block)
_PROOF_KINDS = frozenset({"axiom", "theorem", "lemma", "definition", "remark", "conjecture", "corollary",
                          "algorithm", "criterion", "example", "property", "observation", "proposition",
                          "assumption", "notation", "proof"})
_CODE = {"code", "code-block", "sourcecode", "code-cell", "ipython", "jupyter-execute", "doctest", "testcode", "testoutput",
         "math", "prompt", "mermaid", "graphviz", "plantuml"}
_DROP = {"toctree", "tableofcontents", "toc", "index", "bibliography", "highlight", "default-domain", "glue",
         "glue:any", "glue:figure", "glue:math", "glue:text", "contents", "meta", "tags", "post", "sectionauthor",
         "todolist", "testsetup", "testcleanup"}
_DEFAULT_URL_SCHEMES = frozenset({"http", "https", "mailto", "ftp"})  # myst-parser's myst_url_schemes
_MYSTMD_WILDCARD = ("mp4", "webm", "webp", "svg", "png", "gif", "jpg", "jpeg")
_VIDEOS = {"youtube": "https://www.youtube.com/embed/{}", "vimeo": "https://player.vimeo.com/video/{}",
           "iframe": "{}", "video": "{}", "peertube": "{}"}  # (peertube: peertube_embed_url)


def _keeps_label(t: Token) -> bool:
    """True when a ``(label)=`` passes over this block to the next one: a heading (which
    takes it), another target, a ``%`` comment or an ``{index}`` (docutils leaves targets
    to the next node that is not an Invisible one)."""
    if t.type in ("heading_open", "myst_target", "myst_line_comment", "front_matter"):
        return True
    if t.type in ("fence", "colon_fence"):
        d = _DIRECTIVE_INFO.match(t.info.strip())
        return d is not None and d.group(1).lower() == "index"
    return False


def myst_markdown_it() -> MarkdownIt:
    """The markdown-it parser configured for MyST (see module doc)."""
    return (add_nesting_room(MarkdownIt("commonmark", {"html": True})).enable("table")
            .use(front_matter_plugin).use(myst_block_plugin).use(myst_role_plugin).use(colon_fence_plugin)
            .use(dollarmath_plugin).use(deflist_plugin).use(substitution_plugin).use(attrs_plugin, spans=True)
            .use(footnote_plugin).use(amsmath_rule).use(fieldlist_plugin))


@dataclass(slots=True)
class _Directive:
    name: str
    argument: str
    options: dict[str, Any]
    body: str


def option_value(raw: str) -> str:
    """A ``:key: value`` option as myst-parser reads it: the option block is YAML,
    so a quoted value (``:start-after: 'begin -->'``) loses its quotes (``''`` in single
    quotes is one ``'``; ``\\"`` and ``\\\\`` in double quotes are escapes); other values as written."""
    value = raw.strip()
    if re.fullmatch(r"'(?:[^']|'')*'", value):  # one single-quoted scalar
        return value[1:-1].replace("''", "'")
    if re.fullmatch(r'"(?:[^"\\]|\\.)*"', value):  # one double-quoted scalar
        return re.sub(r'\\(["\\])', r"\1", value[1:-1])
    return raw  # anything else (csv-table's '"a", "b"' header) as written


def _split_directive(info: str, content: str) -> _Directive | None:
    m = _DIRECTIVE_INFO.match(info.strip())
    if not m:
        return None
    name, argument = m.group(1).lower(), m.group(2).strip()
    name = VERSION_CHANGE_ALIASES.get(name, name)
    options: dict[str, Any] = {}
    lines = content.split("\n")
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is not None:
            try:
                data = load_yaml_safely("\n".join(lines[1:end]), unknown_tags="null")
            except FrontMatterError:
                data = None
            if isinstance(data, dict):
                options = {str(k): v for k, v in data.items()}
            lines = lines[end + 1:]
    else:
        i = 0
        while i < len(lines) and _OPTION_LINE.match(lines[i].strip()) and lines[i].strip():
            om = _OPTION_LINE.match(lines[i].strip())
            assert om is not None
            options[om.group(1)] = option_value(om.group(2))
            i += 1
        lines = lines[i:]
    return _Directive(name=name, argument=argument, options=options, body="\n".join(lines).strip("\n"))


_ALERT_LEAD = re.compile(r"^\s*\[!([A-Za-z]+)\]\s*")


def _blockquote_admonition(tokens: list[Token], i: int) -> None:
    """mystmd's GitHub-style admonitions (myst-transforms admonitionBlockquoteTransform, "Callouts
    & Admonitions"): a block quote whose first paragraph opens with ``[!NOTE]`` (note, tip,
    important, warning, caution) or is led by a bold ``**Note**``/``**Warning**`` is that
    admonition: its first words read "Note: " instead of the marker (the tokens are changed)."""
    if i + 2 >= len(tokens) or tokens[i + 1].type != "paragraph_open" or tokens[i + 2].type != "inline":
        return
    children = [c for c in tokens[i + 2].children or [] if not (c.type == "text" and not c.content)]
    tokens[i + 2].children = children
    if children and children[0].type == "text" and (m := _ALERT_LEAD.match(children[0].content)):
        kind = m.group(1).lower()
        if kind in GITHUB_ALERTS:
            rest = children[0].content[m.end():]
            children[0].content = f"{kind.capitalize()}: {rest}"
            if not rest.strip() and len(children) > 1 and children[1].type in ("softbreak", "hardbreak"):
                del children[1]  # the marker's own line
    elif (len(children) >= 3 and children[0].type == "strong_open" and children[1].type == "text"
          and children[2].type == "strong_close" and children[1].content.strip().lower() in GITHUB_ALERTS):
        children[1].content = children[1].content.strip().capitalize() + ":"


class MystParser:
    """Feeds MyST Markdown into a :class:`PageBuilder` (one per page; notebooks
    feed every Markdown cell through the same parser)."""

    def __init__(self, builder: PageBuilder, *, site: Site, options: MarkupOptions,
                 substitutions: dict[str, str] | None = None) -> None:
        self.b = builder
        self.site = site
        self.opts = options
        self.md = myst_markdown_it()
        self.subs: dict[str, str] = dict(substitutions or {})
        self.meta: dict[str, Any] = {}
        self._chain: list[str] = [builder.rel]
        self._embeds = 0
        self._embedding: set[tuple[str, str]] = set()
        self._image_base: str | None = None  # file images resolve against (None: the page)
        self._label: str | None = None
        self._table_caption = ""
        self._tab_set_body = False  # the body fed next is a tab set's (its tabs open no set)
        self._includes = 0
        self._inserted_chars = PageCharBudget(
            MAX_INSERTED_CHARS,
            "{what}: over {limit} characters read into the page by its directives; skipped, and the later ones")
        self._depth = 0
        self._subs_open: list[str] = []  # block substitutions being fed (a loop is not followed)
        self._sub_expansions = 0  # substitution values parsed on this page (bounded: values may nest)
        self._heading_offset = 0  # {include} :heading-offset:
        self._rubric_headings = False  # in a directive's content (myst-parser: headings are rubrics)
        # called for every image link first; returns True when it handled the
        # link itself (notebook cell attachments, ``attachment:name.png``)
        self.image_hook: Callable[[str, str, str], bool] | None = None
        # myst-nb glue: called with (kind, key, caption) for {glue...} roles and
        # directives; returns the text to show (a figure it stores itself), None when
        # the key is not glued in this notebook
        self.glue_hook: Callable[[str, str, str], str | None] | None = None
        self._xref_index: XrefIndex | None | bool = False  # False: not looked up yet
        self._issue_roles: dict[str, str] | None = None  # sphinx-issues roles, looked up once
        self._formulas = 0  # display formulas seen on the page (mystmd numbers them all)
        self._blocks: dict[str, int] = {}  # sphinx-proof/sphinx-exercise blocks seen, by kind
        # link reference definitions of the page: one markdown-it env for the page and every
        # body parsed from it (directive bodies, includes, later notebook cells), as myst-parser
        # renders nested content with the document's env; only ``references`` is shared (the
        # footnote plugin would emit the page's notes again at the end of every nested parse)
        self._references: dict[str, Any] = {}
        self.assets_dir: Path | None = None  # where pictures murar writes go (embedded notebook outputs)
        # the cells of the notebooks this page embeds cells of, by path (the last MAX_NOTEBOOKS_KEPT)
        self._notebooks: OrderedDict[str, list[Any]] = OrderedDict()

    def _env(self) -> dict[str, Any]:
        """A markdown-it env for one parse, sharing the page's link reference definitions."""
        return {"references": self._references}

    # ------------------------------------------------------- cross-references
    def _eq_number(self, label: str) -> str:
        """The number of the display formula labelled ``label`` (``""`` when unnumbered or
        unknown); under mystmd, which numbers every display formula of a page, an
        unlabelled one's number is its place on the page."""
        self._formulas += 1
        xrefs = self._xrefs
        if not label.strip():
            return str(self._formulas) if xrefs is not None and xrefs.number_all_equations else ""
        tgt = xrefs.target(label.strip()) if xrefs is not None else None
        return tgt.number if tgt is not None and tgt.kind == "equation" else ""

    @property
    def _xrefs(self) -> XrefIndex | None:
        """The site's labels and page titles (Sphinx, Jupyter Book), read on first use."""
        if self._xref_index is False:
            get = getattr(self.site, "xrefs", None)
            self._xref_index = get() if callable(get) else None
        return self._xref_index if isinstance(self._xref_index, XrefIndex) else None

    def _docname(self) -> str:
        get = getattr(self.site, "docname", None)
        return str(get(self.b.rel)) if callable(get) else PurePosixPath(self.b.rel).with_suffix("").as_posix()

    def _role(self, name: str, content: str) -> str:
        glued = self._glue(name, content, "") if name.startswith("glue") else None
        if glued is not None:
            return glued
        if name.lower() == "sub-ref":
            return self._sub_ref(content.strip())
        if self._issue_roles is None:
            conf = getattr(self.site, "conf", None)
            values = getattr(conf, "values", None)
            self._issue_roles = issue_role_prefixes(values if isinstance(values, dict) else {},
                                                    tuple(getattr(conf, "extensions", None) or ()))
        if name.lower() in self._issue_roles:
            return issue_text(name.lower(), content, self._issue_roles[name.lower()])
        xrefs = self._xrefs if name.lower().split(":")[-1] in ("ref", "numref", "doc", "eq") else None
        return role_text(name, content, xrefs=xrefs, docname=self._docname() if xrefs else "")

    def _sub_ref(self, key: str) -> str:
        """myst-parser's ``{sub-ref}`name``` shows the document's substitution ``name``:
        Sphinx's ``version``/``release``/``today`` from the site's settings (empty when
        they are computed, not literals); others (``wordcount-words``) show nothing."""
        from murar.ingest.markup.rst import default_substitutions

        values = getattr(getattr(self.site, "conf", None), "values", None)
        subs = default_substitutions(values) if isinstance(values, dict) else {}
        return subs.get(key, "")

    def _url_schemes(self) -> frozenset[str]:
        """conf.py ``myst_url_schemes`` (a list, or a dict keyed by scheme), else
        myst-parser's default: the link schemes it renders as external URLs."""
        values = getattr(getattr(self.site, "conf", None), "values", None)
        given = values.get("myst_url_schemes") if isinstance(values, dict) else None
        if isinstance(given, (list, tuple, dict)):
            return frozenset(str(k).lower() for k in given)
        return _DEFAULT_URL_SCHEMES

    def _mystmd(self) -> bool:
        return PurePosixPath(self.site.config.config_file or "").name == "myst.yml"

    def _at_references(self, text: str) -> str:
        """mystmd's ``@label`` shorthand for labels the project defines: a cross-reference
        as ``[](#label)`` is (mystmd turns a citation whose key is a project label into that
        link), so a numbered figure reads "Figure 1" and a section its title; other ``@words``
        (citations, handles) as written."""
        xrefs = self._xrefs
        if xrefs is None:
            return text

        def sub(m: re.Match[str]) -> str:
            shown = xrefs.link_text(m.group(1), "")
            return shown or m.group(0)

        return _AT_REFERENCE.sub(sub, text)

    def _link_template(self, sink: list[str], start: int, href: str) -> None:
        """mystmd fills ``%s``/``{number}``/``{name}`` in a link's own text
        (``[Sec. %s](#intro)``) with the target's number and title."""
        label = href.strip().removeprefix("project:")
        if not label.startswith("#") or start > len(sink):
            return
        text = "".join(sink[start:])
        if "%s" not in text and "{" not in text:
            return
        xrefs = self._xrefs
        shown = xrefs.link_text(label[1:], text) if xrefs is not None and xrefs.mystmd else None
        if shown is not None and shown != text:
            del sink[start:]
            sink.append(shown)

    def _scheme_autolink(self, href: str) -> str | None:
        """What myst-parser shows for an autolink to a project file, a path or an inventory
        ("Cross-references": ``<project:#label>``, ``<project:page.md>`` show the target's
        title, ``<path:data/x.csv>`` the path, ``<inv:python#dict>`` the target); ``None``
        for any other autolink (a URL shows as written). Not mystmd's: it has no such schemes."""
        scheme, _, target = href.partition(":")
        if self._mystmd() or scheme.lower() not in ("project", "path", "inv"):
            return None
        if scheme.lower() == "project":
            return self._empty_link_text(target) or target
        if scheme.lower() == "path":
            return target
        name = target.partition("#")[2] or target  # inv:key:domain:type#name
        return name.rsplit(":", 1)[-1] if "#" not in target else name

    def _empty_link_text(self, href: str) -> str:
        """What myst-parser shows for a link without text (``[](#label)``,
        ``[](page.md)``, ``[](page.md#label)``): the target's title, as Sphinx
        renders the reference; the label (or the page's name) when unknown;
        nothing for an external URL (myst-parser shows the URL; murar keeps text only)."""
        href = href.strip().removeprefix("project:")
        scheme = re.match(r"^([a-z][\w+.-]*):", href, re.IGNORECASE)
        xrefs = self._xrefs
        if scheme and xrefs is not None and not self._mystmd() \
                and scheme.group(1).lower() not in self._url_schemes():
            # myst-parser reads a link whose scheme is not one of myst_url_schemes
            # ([](margin:block)) as an "any" cross-reference: a label, else a document
            return xrefs.link_text(href, "") or xrefs.doc_title(href, docname=self._docname()) or ""
        if not href or scheme:
            return ""
        path, _, frag = href.partition("#")
        if path:
            if xrefs is not None:
                shown = xrefs.link_text(frag, "") if frag else None
                if shown:
                    return shown
                title = xrefs.doc_title(path, docname=self._docname())
                if title:
                    return title
                if not frag and (shown := xrefs.link_text(path, "")):
                    return shown  # [](label): not a document, a label ("any" reference)
            return frag or PurePosixPath(path).stem
        if xrefs is not None:
            shown = xrefs.link_text(frag, "")
            if shown:
                return shown
        return frag

    # ---------------------------------------------------------------- entry
    def feed(self, text: str, *, file_rel: str | None = None, top: bool = False) -> None:
        """Parse ``text`` (written in ``file_rel``, default the page) into the builder.

        Directive bodies are fed recursively; nesting deeper than :data:`MAX_NESTING`
        levels is kept as plain text with a warning.
        """
        if self._depth >= MAX_NESTING:
            self.b.warnings.append(f"directives nested deeper than {MAX_NESTING} levels: kept as text")
            self.b.block(text[: self.opts.max_code_chars])
            return
        text, deep = cap_nesting(text)  # markdown-it drops the rest of a page past its nesting limit
        self.b.warnings.extend(deep)
        try:
            tokens = self.md.parse(text, self._env())
        except Exception as err:  # markdown-it is total; never lose the page on a plugin bug
            raise IngestError(f"{file_rel or self.b.rel}: cannot parse MyST: {err}") from err
        self._depth += 1
        pushed = file_rel is not None and file_rel != self._chain[-1]
        if pushed:
            assert file_rel is not None
            self._chain.append(file_rel)
        try:
            self._walk(tokens, top=top)
        finally:
            self._depth -= 1
            if pushed:
                self._chain.pop()

    # ---------------------------------------------------------------- blocks
    def _walk(self, tokens: list[Token], *, top: bool) -> None:
        """The blocks of ``tokens`` into the builder. A run of tabs outside any tab set
        (sphinx-inline-tabs' ``{tab}``: consecutive tabs are one set, ``:new-set:`` starts
        another) is a tab set that ends at the next block that is no such tab."""
        in_set_body, self._tab_set_body = self._tab_set_body, False
        bare_set = False
        i = 0
        while i < len(tokens):
            t = tokens[i]
            ty = t.type
            if t.level == 0 and t.nesting >= 0 and not in_set_body and ty not in ("myst_target", "front_matter"):
                d = _split_directive(t.info, t.content) if ty in ("fence", "colon_fence") else None
                bare_tab = d is not None and d.name.lower() in TAB_ITEMS
                if bare_set and (not bare_tab or (d is not None and "new-set" in d.options)):
                    self.b.end_paragraph()
                    self.b.close_tab_set()
                    bare_set = False
                if bare_tab and not bare_set:
                    self.b.end_paragraph()
                    self.b.open_tab_set()
                    bare_set = True
            if ty == "blockquote_open" and self._mystmd():
                _blockquote_admonition(tokens, i)
            if ty == "front_matter":
                if top:
                    self._front_matter(t.content)
            elif ty == "myst_target":
                self._label = t.content.strip()
            elif self._label is not None and t.level == 0 and t.nesting >= 0 and not _keeps_label(t):
                # a target names the block right after it (docutils PropagateTargets): another
                # block in between means it is not this heading's anchor
                self._label = None
            if ty == "myst_block_break" and t.level == 0 and self._markdown_cell_removed(t.content):
                # a text notebook's Markdown cell removed by its tags: up to the next cell
                i += 1
                while i < len(tokens) and not (tokens[i].level == 0 and (
                        tokens[i].type == "myst_block_break" or (tokens[i].type in ("fence", "colon_fence") and (
                            m := _DIRECTIVE_INFO.match(tokens[i].info.strip())) is not None
                            and m.group(1).lower() == "code-cell"))):
                    i += 1
                continue
            if ty == "heading_open":
                parts: list[str] = []
                self._inline(tokens[i + 1], parts, heading=True)
                title = clean_text("".join(parts))
                if (t.level > 0 or self._rubric_headings) and not self._mystmd():
                    # myst-parser makes a section only under the document or a section: a heading in
                    # a list, a quote or a directive's content is a rubric (render_heading), not a
                    # heading that takes the page's next blocks under it
                    self._label = None
                    self.b.end_paragraph()
                    self.b.block(title)
                    i += 3
                    continue
                anchor = self._label or (make_id(title) or None)
                self._label = None
                self.b.heading(min(6, int(t.tag[1]) + self._heading_offset), title, anchor)
                i += 3
                continue
            elif ty == "table_open":
                headers, rows, i = read_table(tokens, i, self._cell)
                self.b.table(headers, rows, self._table_caption)
                self._table_caption = ""
            elif ty == "inline":
                self._inline(t, self.b.cur.current)
            elif ty in ("paragraph_close", "list_item_close", "blockquote_close", "dt_close", "dd_close",
                        "fieldlist_body_close"):
                self.b.end_paragraph()
            elif ty == "fieldlist_name_close":  # a field reads "name: body" (docutils' field list)
                self.b.cur.current.append(": ")
            elif ty in ("fence", "colon_fence"):
                d = _split_directive(t.info, t.content)
                if d is None:
                    self.b.code(t.content)
                else:
                    self._directive(d)
            elif ty == "code_block":
                self.b.code(t.content)
            elif ty == "substitution_block":
                self._block_substitution(t.content.strip())
            elif ty in ("math_block", "math_block_label", "amsmath"):
                self.b.code(display_math(t.content, self._eq_number(t.info if ty == "math_block_label" else "")))
            elif ty == "html_block":
                self.b.html(t.content, image_base=self._image_base)
            i += 1
        if bare_set:
            self.b.end_paragraph()
            self.b.close_tab_set()

    def _front_matter(self, raw: str) -> None:
        try:
            data = load_yaml_safely(raw)
        except FrontMatterError as err:
            self.b.warnings.append(f"front matter ignored: {err}")
            return
        if not isinstance(data, dict):
            return
        self.meta = {str(k): v for k, v in data.items()}
        subs = data.get("substitutions")
        if isinstance(subs, dict):
            self.subs.update({str(k): str(v) for k, v in subs.items() if isinstance(v, (str, int, float))})
        title = data.get("title")
        if isinstance(title, str) and title.strip() and not self.b.title:
            self.b.title = clean_text(title)

    # ---------------------------------------------------------------- inline
    def _inline(self, tok: Token, sink: list[str], *, heading: bool = False) -> None:
        children = tok.children or []
        # the source line of each child: an image with words on its line is an icon in a
        # sentence (media_flags.INLINE), checked once per line
        line_of: list[int] = []
        line_text: dict[int, list[str]] = {}
        ln = 0
        for c in children:
            if c.type in ("softbreak", "hardbreak"):
                ln += 1
            line_of.append(ln)
            if c.type in ("text", "code_inline"):
                line_text.setdefault(ln, []).append(c.content)
        inline_line: dict[int, bool] = {}

        def in_sentence(k: int) -> bool:
            if line_of[k] not in inline_line:
                inline_line[line_of[k]] = is_inline_line(" ".join(line_text.get(line_of[k], [])), "")
            return inline_line[line_of[k]]

        depth_link = 0
        links: list[tuple[int, str]] = []  # (where the link text starts in sink, href) of open links
        shown_instead: set[int] = set()  # the text of autolinks shown as their target's title
        for k, c in enumerate(children):
            ty = c.type
            if k in shown_instead:
                continue
            if ty == "text" and "@" in c.content and self._mystmd():
                sink.append(self._at_references(c.content))
            elif ty in ("text", "code_inline"):
                sink.append(c.content)
            elif ty in ("math_inline", "math_single"):
                sink.append(inline_math(c.content))
            elif ty == "math_inline_double":
                sink.append(inline_math(c.content).join("$$") if c.content.strip() else "")
            elif ty in ("softbreak", "hardbreak"):
                sink.append(" ")
            elif ty == "myst_role":
                sink.append(self._role(str(c.meta.get("name", "")), c.content))
            elif ty == "substitution_inline":
                key = c.content.strip()
                if key in self.subs:
                    sink.append(self._inline_substitution(key, ()))
                    if not heading:  # (a heading keeps no picture, as for ![](...) in one)
                        self._substitution_pictures(key, in_sentence=in_sentence(k))
                else:
                    self.b.warnings.append(f"substitution {{{{ {key} }}}} is not defined")
            elif ty == "image":
                if heading:
                    sink.append(c.content)
                    continue
                self._image(str(c.attrs.get("src", "")), alt=c.content, caption=str(c.attrs.get("title") or ""),
                            inline=in_sentence(k), width=str(c.attrs.get("width") or ""))
            elif ty == "link_open":
                depth_link += 1
                href = str(c.attrs.get("href") or "")
                links.append((len(sink), href))
                if k + 1 < len(children) and children[k + 1].type == "link_close":
                    sink.append(self._empty_link_text(href))
                elif c.markup == "autolink" and (shown := self._scheme_autolink(href)) is not None:
                    sink.append(shown)
                    shown_instead.add(k + 1)
            elif ty == "link_close":
                depth_link -= 1
                if links:
                    start, href = links.pop()
                    self._link_template(sink, start, href)
            elif ty == "html_inline":
                tag = c.content.lower()
                if tag.startswith("<br"):
                    sink.append(" ")
                elif not heading and tag.startswith(("<img", "<iframe", "<video")):
                    self.b.html(c.content, inline=True, image_base=self._image_base, in_sentence=in_sentence(k))

    def _cell(self, tok: Token) -> str:
        cell: list[str] = []
        self._inline(tok, cell)
        return clean_text("".join(cell))

    def _image(self, src: str, *, alt: str, caption: str, inline: bool = False, classes: list[str] | None = None,
               width: str = "") -> None:
        """An image (``width``: the CSS length the page draws it at, ``:width:`` or ``{width=...}``)."""
        if self.image_hook is not None and self.image_hook(src, alt, caption):
            return
        if src.startswith("#") and PurePosixPath(self.site.config.config_file or "").name == "myst.yml":
            # mystmd: an image whose source is '#label' embeds what the label names (guide, Embed & Reuse)
            self.b.end_paragraph()
            sec, start = self.b.cur, len(self.b.cur.media)
            self._embed(src)
            if (caption or alt) and self.b.cur is sec:
                # "{figure} #label" with a body: the figure's caption (and :alt:) is the embedded
                # picture's ("Embed images into figures": it "contains figure metadata")
                for item, _ in sec.media[start:]:
                    if isinstance(item, (ImageItem, VideoItem)):
                        item.caption = clean_text(caption) or item.caption
                    if isinstance(item, ImageItem):
                        item.alt = item.alt or clean_text(alt)
            return
        path = src.split("?", 1)[0].split("#", 1)[0]
        if path.endswith(".*"):
            src = self._wildcard(src, path)
            path = src.split("?", 1)[0].split("#", 1)[0]
        if PurePosixPath(path).suffix.lower() in VIDEO_EXTS:
            # a video file in {figure}, {image} or ![](...) is embedded as a video (mystmd "Videos")
            self.b.end_paragraph()
            self.b.video(src, title=caption or alt)
            return
        self.b.image(src, alt=alt, caption=caption, page_rel=self._image_base, inline=inline, classes=classes or (),
                     declared_width=length_px(width))

    def _wildcard(self, src: str, path: str) -> str:
        """``image.*``: the best existing file of that name for a web page, as Sphinx
        (svg, png, gif, jpeg) or, for a ``myst.yml`` project, mystmd ("Multiple
        Images": a video, then webp, svg, png, ...) picks it; unchanged when none exists."""
        mystmd = PurePosixPath(self.site.config.config_file or "").name == "myst.yml"
        order = _MYSTMD_WILDCARD if mystmd else SPHINX_IMAGE_ORDER
        page = self._image_base or self.b.rel
        for ext in order:
            candidate = path[:-1] + ext
            res = self.site.resolve_asset(candidate, page_rel=page)
            if res.rel_path and (self.site.config.root / res.rel_path).is_file():
                return candidate + src[len(path):]
        return src

    # ------------------------------------------------------------- directives
    def _glue(self, kind: str, key: str, caption: str) -> str | None:
        if self.glue_hook is None:
            return None
        return self.glue_hook(kind, key.strip(), caption)

    def _markdown_figure(self, d: _Directive) -> bool:
        """myst-parser's Markdown figure (``{figure-md} label``, formerly a
        ``{figure}`` whose argument is a label): the body is an image, Markdown or
        ``<img>``, then the caption paragraph; mystmd's figure of several images (its
        subfigures, each an image line) gives each image that caption. False when the
        body holds no image."""
        lines = d.body.split("\n")
        at = [k for k, ln in enumerate(lines) if _MD_IMAGE_LINE.match(ln)]
        if not at:
            return False
        taken = set(at)
        caption = self._plain("\n".join(ln for k, ln in enumerate(lines) if k not in taken))
        self.b.end_paragraph()
        for k in at:  # mystmd: several images are the figure's subfigures, under its caption
            image = lines[k].strip()
            if image.startswith("!"):
                m = re.match(r"!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?", image)
                if m:
                    self._image(m.group(2), alt=m.group(1), caption=caption)
            else:
                self.b.html(f"<figure>{image}<figcaption>{html.escape(caption)}</figcaption></figure>",
                            inline=True, image_base=self._image_base)
        return True

    def _directive(self, d: _Directive) -> None:
        # myst-parser: a directive's content is parsed with no sections (nested_parse, match_titles
        # false): a heading in it is a rubric; {include} is parsed in place, Sphinx's only and ifconfig
        # allow titles
        saved = self._rubric_headings
        if d.name not in _TITLES_ALLOWED:
            self._rubric_headings = True
        try:
            self._directive_body(d)
        finally:
            self._rubric_headings = saved

    def _directive_body(self, d: _Directive) -> None:
        name = d.name
        markdown_figure = name == "figure-md" or (name == "figure" and d.body and not PurePosixPath(d.argument).suffix)
        if markdown_figure and self._markdown_figure(d):
            return
        if name.startswith("glue") and self.glue_hook is not None:
            self.b.end_paragraph()
            shown = self._glue(name, d.argument, self._plain(d.body))
            if shown:
                self.b.block(shown)
            elif shown is None:
                self.b.warnings.append(f"{{{name}}} {d.argument.strip()!r}: nothing glued under that name here")
        elif name in ("figure", "image", "thumbnail"):
            alt = str(d.options.get("alt") or "")
            caption = self._plain(d.body) if name in ("figure", "thumbnail") else ""
            self.b.end_paragraph()
            # a figure's :figclass: classes the whole figure (Furo's only-dark hides it with its picture)
            classes = [c for k in ("class", "figclass") for c in str(d.options.get(k) or "").split()]
            self._image(d.argument, alt=alt, caption=caption, classes=classes, width=str(d.options.get("width") or ""))
        elif name in _ADMONITIONS:
            label = _LABELS.get(name, name.capitalize())
            body = d.body
            if d.argument and name in _CONTENT_ONLY and not self._mystmd():
                # myst-parser (Sphinx, Jupyter Book 1): these take no argument, so text after
                # "{note}" is the first line of the content; mystmd reads it as a title
                body, title = d.argument + "\n" + body, ""
            else:
                title = self._plain(d.argument) if d.argument else ""  # a title is inline Markdown
            if name == "admonition":
                label = title or "Note"
                lead = label
            elif name in ("versionadded", "versionchanged", "deprecated", "versionremoved"):
                # Sphinx's VersionChange: the version, then the rest of the line as text;
                # the label ends with "." when nothing follows
                version, _, rest = d.argument.strip().partition(" ")
                lead = f"{label} {version}".strip()
                body = "\n".join(p for p in (rest.strip(), body) if p.strip())
                if not body.strip():
                    self.b.end_paragraph()
                    self.b.text(f"{lead}.")
                    self.b.end_paragraph()
                    return
            elif title and self._mystmd():
                # mystmd: a kind's title argument replaces the kind as the title (myst-spec
                # AdmonitionTitle: "Custom title for admonition, replaces kind as title")
                lead = title
            elif name in _CONTENT_ONLY and self._mystmd() and (opening := self._opening_title(body)) is not None:
                # mystmd: with no title argument, a heading or an all-bold paragraph opening
                # the body is the title (myst-transforms admonitionHeadersTransform; "Admonition
                # Titles" in the MyST guide): no heading of the page
                lead, body = opening
            else:
                lead = label + (f" {title}" if title else "")
            if name == "todo" and not self._todo():
                return
            self.b.end_paragraph()
            self.b.text(f"{lead}: ")
            self.feed(body)
            self.b.end_paragraph()
        elif name in _EXERCISES or name.removesuffix("-start") in _EXERCISES or name.removesuffix("-end") in _EXERCISES:
            self._exercise(d)
        elif name.partition(":")[0] in ("prf", "proof") and name.partition(":")[2] in _PROOF_KINDS:
            self._proof(d)
        elif name == "glossary":
            self._glossary(d.body)
        elif name == "embed":
            # myst-directives embed: with no argument, its :label: option names the content
            # (a warning in mystmd, "label should be provided as argument"); the argument wins
            self._embed(d.argument if d.argument.strip() else str(d.options.get("label") or ""))
        elif name == "link-button":  # sphinx-panels: a button showing its :text:, else its link
            self.b.end_paragraph()
            self.b.block(self._plain(str(d.options.get("text") or d.argument).strip()))
        elif name in _CONTAINERS:
            if name == "only":
                from murar.ingest.markup.rst import html_only

                if not html_only(d.argument, tuple(getattr(getattr(self.site, "conf", None), "tags", None) or ())):
                    return
            if name == "ifconfig":
                from murar.ingest.markup.rst import ifconfig_true

                values = getattr(getattr(self.site, "conf", None), "values", None)
                if not ifconfig_true(d.argument, values if isinstance(values, dict) else {}):
                    return
            self.b.end_paragraph()
            if name in CARDS or name in BUTTONS or name == "article-info":
                self._design(d)
                return
            if name == "tab-set-code":
                self._tab_set_code(d)
                return
            if name == "panels":
                self._panels(d.body)
                return
            if name in TAB_SETS:
                self.b.open_tab_set()
            elif name in TAB_ITEMS:
                self.b.tab(self._plain(d.argument))
            # a layout, a condition or classes (design.UNSHOWN_ARGUMENT): not text
            if d.argument and name not in UNSHOWN_ARGUMENT:
                self.b.block(self._plain(d.argument))
            for key in ("img-top", "img-bottom", "img-background"):  # sphinx-design cards
                if isinstance(d.options.get(key), str) and d.options[key].strip():
                    self._image(d.options[key].strip(), alt=self._plain(d.argument), caption="")
            self._tab_set_body = name in TAB_SETS  # its tabs: no set of their own
            self.feed(d.body)
            self._tab_set_body = False
            self.b.end_paragraph()
            if name in TAB_SETS:
                self.b.close_tab_set()
        elif name == "math":
            label = str(d.options.get("label") or d.options.get("name") or "").strip()
            self.b.code(display_math("\n\n".join(p for p in (d.argument, d.body) if p.strip()),
                                     self._eq_number(label)))
        elif name == "parsed-literal":
            self._parsed_literal(d.body)
        elif name == "code-cell" and self._cell_removed(d):
            return
        elif name == "code-tab":  # sphinx-tabs: a tab of its tabs set holding one code block
            label = code_tab_label(d.argument)
            self.b.end_paragraph()
            self.b.tab(label)
            self.b.block(label)
            if d.body.strip():
                self.b.code(d.body)
            self.b.end_paragraph()
        elif name in _CODE:
            shown = shown_code(name, d.options, d.body)
            if shown.strip():
                self.b.block(self._plain(code_caption(name, d.options)))
                self.b.code(shown)
        elif name in _DROP:
            return
        elif name == "include":
            self._include(d)
        elif name == "literalinclude":
            self._literalinclude(d)
        elif name == "eval-rst":
            self._eval_rst(d.body)
        elif name in AUTODOC_DIRECTIVES or name == "autosummary":
            # myst-parser runs Sphinx's autodoc directives; what they insert (the docstrings) is reST
            options = "".join(f"   :{k}:{' ' + str(v) if v not in (None, '', True) else ''}\n"
                              for k, v in d.options.items() if re.fullmatch(r"[\w-]+", str(k)))
            body = "".join(f"   {ln}\n" if ln.strip() else "\n" for ln in d.body.split("\n"))
            self._eval_rst(f".. {name}:: {d.argument.strip()}\n{options}\n{body}")
        elif name == "list-table":
            self._list_table(d)
        elif name == "csv-table":
            self._csv_table(d)
        elif name == "table":
            self._table_caption = self._plain(d.argument)
            self.feed(d.body)
            self._table_caption = ""
        elif name == "raw":
            self._raw(d)
        elif name in _VIDEOS:
            arg = d.argument.split()[0] if d.argument.split() else ""
            url = arg if arg.startswith(("http://", "https://", "//")) or name in ("iframe", "video") \
                else _VIDEOS[name].format(arg)
            if name == "peertube":  # sphinxcontrib-youtube's directive, as in reST (rst._Video)
                values = getattr(getattr(self.site, "conf", None), "values", None)
                conf_instance = str(values.get("peertube_instance") or "") if isinstance(values, dict) else ""
                url = peertube_embed_url(arg, str(d.options.get("instance") or "") or conf_instance)
            if name == "iframe" and not is_video_embed(url):
                return  # an interactive embed (quiz, applet), not a video
            # mystmd's {iframe}/{video} body is the figure caption (the video's title without :title:)
            self.b.video(url, title=str(d.options.get("title") or d.options.get("alt") or self._plain(d.body) or ""))
        else:
            self.b.warnings.append(f"directive {{{name}}}: not a known MyST/Sphinx directive; body kept as text")
            self.b.end_paragraph()
            if d.argument:
                self.b.block(self._plain(d.argument))
            self.feed(d.body)
            self.b.end_paragraph()

    def _exercise(self, d: _Directive) -> None:
        """sphinx-exercise's ``exercise`` ("Exercise 2 (Title)", numbered over the book like
        figures) and ``solution`` ("Solution to Exercise 2 (Title)": its argument is the
        exercise's label, never text), also in the gated form (``exercise-start`` ...
        ``exercise-end``, the content between them); ``:hidden:`` ones are not shown."""
        name = d.name
        if name.endswith("-end") or "hidden" in d.options:
            return
        base = name.removesuffix("-start")
        title = self._plain(d.argument) if d.argument and base == "exercise" else ""
        if base == "exercise":
            lead = block_lead("Exercise", self._block_number("exercise"), title)
        else:  # "Solution to Exercise 2 (Title)": the exercise its argument names
            lead = solution_lead(self._xrefs, d.argument)
        self.b.end_paragraph()
        self.b.block(lead)
        self.feed(d.body)
        self.b.end_paragraph()

    def _proof(self, d: _Directive) -> None:
        """sphinx-proof's ``prf:<kind>`` blocks (mystmd: also ``proof:<kind>``) lead with their
        kind, number and title as its HTML does ("Theorem 2 (Pythagoras)", "Definition 2.1",
        "Proof."; the number counted over the book like figures, none under mystmd or with
        ``:nonumber:``), then the body."""
        kind = d.name.partition(":")[2].lower()
        title = self._plain(d.argument) if d.argument else ""
        number = "" if kind == "proof" or d.name.partition(":")[0] != "prf" else self._block_number(f"prf:{kind}")
        lead = "Proof." if kind == "proof" else block_lead(kind.capitalize(), number, title)
        self.b.end_paragraph()
        self.b.block(lead)
        self.feed(d.body)
        self.b.end_paragraph()

    def _block_number(self, kind: str) -> str:
        """The number Sphinx gives the page's next sphinx-proof (``prf:<type>``) or
        sphinx-exercise block of ``kind``, counted over the book as figures are
        (``XrefIndex.block_number``); ``""`` when unnumbered or without a site."""
        self._blocks[kind] = self._blocks.get(kind, 0) + 1
        xrefs = self._xrefs
        return xrefs.block_number(self._docname(), kind, self._blocks[kind]) if xrefs is not None else ""

    def _todo(self) -> bool:
        conf = getattr(self.site, "conf", None)
        return bool(getattr(conf, "values", {}).get("todo_include_todos"))

    def _block_substitution(self, key: str) -> None:
        """A substitution alone on its lines is block content: myst-parser's
        ``render_substitution`` parses the value as MyST Markdown in isolation and
        puts its blocks there (myst-parser "Substitutions with Jinja2": a value
        holding a ``{note}`` or ``{image}`` directive, or a code fence, shows as
        that block). A value that refers to itself is reported, not followed."""
        if key not in self.subs:
            self.b.warnings.append(f"substitution {{{{ {key[:200]} }}}} is not defined")
            return
        if key in self._subs_open:
            self.b.warnings.append(f"substitution {{{{ {key[:200]} }}}} refers to itself; not expanded again")
            return
        if not self._may_expand(key):
            return
        self.b.end_paragraph()
        self._subs_open.append(key)
        try:
            self.feed(self.subs[key])
        finally:
            self._subs_open.pop()

    def _inline_substitution(self, key: str, seen: tuple[str, ...]) -> str:
        """The value of a substitution referred to inside a line: parsed as inline
        MyST (myst-parser's ``render_substitution``), so a code span or emphasis in
        it reads as text; one that refers to itself is reported, not followed."""
        if key in seen or len(seen) >= MAX_NESTING:
            why = "refers to itself" if key in seen else f"nested more than {MAX_NESTING} levels"
            self.b.warnings.append(f"substitution {{{{ {key[:200]} }}}} {why}; not expanded again")
            return ""
        value = self.subs[key]
        if not _INLINE_MARKUP.search(value):
            return value
        if not self._may_expand(key):
            return ""
        return self._plain(value, (*seen, key))

    def _substitution_pictures(self, key: str, *, in_sentence: bool) -> None:
        """The pictures of a substitution's value referred to inside a line (an ``<img>``
        tag, ``![alt](src)``): myst-parser renders the value as inline MyST where the
        reference stands (``render_substitution``), so they are images of the page there,
        their paths relative to it (QuPath's ``{{ icon_cog }}``: ``<img src="../images/icons/COG.png">``,
        a toolbar icon in a sentence). Their text is :meth:`_inline_substitution`'s."""
        value = self.subs[key]
        if "<img" not in value.lower() and "![" not in value:
            return
        if not self._may_expand(key):
            return
        for t in self.md.parseInline(value, self._env()):
            for c in t.children or []:
                if c.type == "image":
                    self._image(str(c.attrs.get("src", "")), alt=c.content, caption=str(c.attrs.get("title") or ""),
                                inline=in_sentence, width=str(c.attrs.get("width") or ""))
                elif c.type == "html_inline" and c.content.lower().startswith("<img"):
                    self.b.html(c.content, inline=True, image_base=self._image_base, in_sentence=in_sentence)

    def _may_expand(self, key: str) -> bool:
        """False (with one warning) past :data:`MAX_SUBSTITUTIONS` parsed values on
        the page: values referring to other values could otherwise multiply."""
        self._sub_expansions += 1
        if self._sub_expansions == MAX_SUBSTITUTIONS + 1:
            self.b.warnings.append(f"more than {MAX_SUBSTITUTIONS} substitution values parsed on this page; "
                                   f"{{{{ {key[:200]} }}}} and later ones left out")
        return self._sub_expansions <= MAX_SUBSTITUTIONS

    def _markdown_cell_removed(self, metadata: str) -> bool:
        """A text notebook's ``+++ {"tags": ["remove-cell"]}`` (jupytext's MyST format: the
        JSON metadata of the Markdown cell after the break) whose tags remove that cell, as
        myst-nb does; only in a page that is a notebook (jupytext/kernelspec front matter)."""
        if not metadata.strip().startswith("{") or not any(k in self.meta for k in ("jupytext", "kernelspec")):
            return False
        import json

        from murar.ingest.markup.notebook import NotebookDisplay

        try:
            data = json.loads(metadata[:10_000])
        except ValueError:
            return False
        tags = data.get("tags") if isinstance(data, dict) else None
        if not isinstance(tags, list):
            return False
        display = getattr(self.site, "notebook_display", None)
        shown = display() if callable(display) else NotebookDisplay()
        if not isinstance(shown, NotebookDisplay):
            shown = NotebookDisplay()
        return bool({str(t) for t in tags[:100]} & shown.remove_cell_tags)

    def _cell_removed(self, d: _Directive) -> bool:
        """A text notebook's ``{code-cell}`` whose ``:tags:`` remove its cell or its input
        (myst-nb and mystmd: ``remove-cell``, ``remove-input``; the site's own tags when
        it sets them, :class:`~murar.ingest.markup.notebook.NotebookDisplay`): its code
        is not on the page (murar keeps no outputs of text notebooks, which store none)."""
        from murar.ingest.markup.notebook import NotebookDisplay

        raw = d.options.get("tags")
        items = raw if isinstance(raw, list) else str(raw or "").strip().strip("[]").split(",")
        tags = {str(t).strip().strip("'\"") for t in items[:100]}
        display = getattr(self.site, "notebook_display", None)
        shown = display() if callable(display) else NotebookDisplay()
        if not isinstance(shown, NotebookDisplay):
            shown = NotebookDisplay()
        return bool(tags & (shown.remove_cell_tags | shown.remove_input_tags)) or not shown.show_input

    def _tab_set_code(self, d: _Directive) -> None:
        """sphinx-design's ``tab-set-code``: one tab per code block of its body (a fence,
        ``{code-block}``/``{code}``/``{literalinclude}``), labelled by its language in
        capitals; other blocks are left out, as sphinx-design drops them."""
        lines = d.body.split("\n")
        self.b.open_tab_set()
        for t in self.md.parse(d.body, self._env()):
            if t.type not in ("fence", "colon_fence") or t.level != 0 or t.map is None:
                continue
            info = t.info.strip()
            inner = _DIRECTIVE_INFO.match(info)
            if inner is None:
                language = info.split()[0] if info.split() else ""
            elif inner.group(1).lower() in ("code-block", "code", "sourcecode"):
                language = inner.group(2).split()[0] if inner.group(2).split() else ""
            elif inner.group(1).lower() == "literalinclude":
                found = re.search(r"^:language:[ \t]*(\S+)", t.content, re.MULTILINE)
                language = found.group(1) if found else ""
            else:
                continue
            label = code_set_label(language)
            self.b.end_paragraph()
            self.b.tab(label)
            self.b.block(label)
            self.feed("\n".join(lines[t.map[0]:t.map[1]]))
            self.b.end_paragraph()
        self.b.close_tab_set()

    def _design(self, d: _Directive) -> None:
        """sphinx-design's cards, buttons and ``article-info`` as they render
        (:mod:`murar.ingest.markup.design`)."""
        name = d.name.lower()
        if name == "article-info":
            for key in ARTICLE_INFO_FIELDS:
                self.b.block(self._plain(str(d.options.get(key) or "")))
            return
        if name in BUTTONS:
            if d.body.strip():
                self.b.block(self._plain(" ".join(d.body.split("\n"))))
            elif name == "button-ref":
                self.b.block(any_text(d.argument, self._xrefs, docname=self._docname() if self._xrefs else ""))
            else:
                self.b.block(d.argument.strip())
            return

        def picture(key: str) -> None:
            uri = str(d.options.get(key) or "").strip()
            if uri:
                self._image(uri, alt=self._plain(d.argument), caption="", classes=card_image_classes(d.options, key))

        parts = split_card(d.body.split("\n"))
        picture("img-background")
        picture("img-top")
        if parts.header is not None:
            self.feed("\n".join(parts.header))
            self.b.end_paragraph()
        elif d.options.get("header"):  # mystmd's card options (sphinx-design: ^^^ in the body)
            self.b.block(self._plain(str(d.options["header"])))
        if d.argument.strip():
            self.b.block(self._plain(d.argument))
        self.feed("\n".join(parts.body))
        self.b.end_paragraph()
        if parts.footer is not None:
            self.feed("\n".join(parts.footer))
            self.b.end_paragraph()
        elif d.options.get("footer"):
            self.b.block(self._plain(str(d.options["footer"])))
        picture("img-bottom")

    def _panels(self, body: str) -> None:
        """sphinx-panels ``{panels}``: each panel a card (picture, header, body, footer,
        picture), its separators and option lines no text (:func:`split_panels`)."""
        for panel in split_panels(body.split("\n")):
            self.b.end_paragraph()
            if panel.img_top:
                self._image(panel.img_top, alt="", caption="")
            for part in (panel.parts.header, panel.parts.body, panel.parts.footer):
                if part is not None:
                    self.feed("\n".join(part))
                    self.b.end_paragraph()
            if panel.img_bottom:
                self._image(panel.img_bottom, alt="", caption="")

    def _opening_title(self, body: str) -> tuple[str, str] | None:
        """The title mystmd takes from an admonition body with no title argument, and the
        body without it: its first block when that is a heading, or a paragraph that is
        one bold run (``**Title**``); None otherwise."""
        tokens = self.md.parse(body, self._env())
        if len(tokens) < 3 or not tokens[0].map:
            return None
        first, inline = tokens[0], tokens[1]
        end = first.map[1] if first.map else 0
        children = [c for c in inline.children or [] if not (c.type == "text" and not c.content.strip())]
        bold_line = (first.type == "paragraph_open" and len(children) >= 2 and children[0].type == "strong_open"
                     and children[-1].type == "strong_close" and sum(c.type == "strong_open" for c in children) == 1)
        if first.type != "heading_open" and not bold_line:
            return None
        parts: list[str] = []
        self._inline(inline, parts, heading=True)
        title = clean_text("".join(parts))
        if not title:
            return None
        return title, "\n".join(body.split("\n")[end:])

    def _plain(self, text: str, seen: tuple[str, ...] = ()) -> str:
        """Markdown ``text`` as plain text (roles reduced, images' alt kept)."""
        out: list[str] = []
        for t in self.md.parse(text, self._env()):
            if t.type == "inline":
                for c in t.children or []:
                    if c.type in ("text", "code_inline", "math_inline"):
                        out.append(c.content)
                    elif c.type == "myst_role":
                        out.append(self._role(str(c.meta.get("name", "")), c.content))
                    elif c.type == "substitution_inline":
                        key = c.content.strip()
                        out.append(self._inline_substitution(key, seen) if key in self.subs else "")
                    elif c.type in ("softbreak", "hardbreak"):
                        out.append(" ")
                out.append(" ")
        return clean_text("".join(out))

    def _resolve_file(self, what: str, target: str) -> tuple[str, str] | None:
        # myst-parser under Sphinx reads include/literalinclude paths from the document being built, also
        # inside an included file (checked with myst-parser 4.0 + Sphinx 8.1); csv-table is docutils'
        from_document = what in ("include", "literalinclude") and getattr(self.site, "includes_from_document", False)
        res = self.site.resolve_include(target, page_rel=self.b.rel if from_document else self._chain[-1])
        if res.rel_path is None:
            self.b.warnings.append(f"{what} {target!r}: {res.problem or 'remote files are not read'}")
            return None
        path = self.site.config.root / res.rel_path
        if not path.is_file():
            self.b.warnings.append(f"{what} {target!r}: file not found ({res.rel_path})")
            return None
        try:
            text = read_source(path, max_bytes=self.opts.max_bytes, warnings=self.b.warnings)
        except IngestError as err:
            self.b.warnings.append(f"{what} {target!r}: {err}")
            return None
        return (res.rel_path, text) if self._inserted(text, f"{what} {target!r}") else None

    def _raw(self, d: _Directive) -> None:
        """``{raw} html``: its body, or its ``:file:`` read as docutils' raw directive
        reads it (relative to the file holding the directive; myst-parser runs docutils'
        directive), an ``.svg`` file being the picture the browser draws in the page
        (as :class:`murar.ingest.markup.rst._Raw`); ``:url:`` is never fetched."""
        if "html" not in d.argument.lower().split():
            return
        if "url" in d.options:
            self.b.warnings.append(f"raw :url: {d.options['url']!r}: remote files are not fetched")
            return
        target = str(d.options.get("file") or "").strip()
        if not target:
            self.b.html(d.body, image_base=self._image_base)
        elif target.startswith("/"):
            self.b.warnings.append(f"raw :file: {target!r}: an absolute path (docutils reads it from the disk); "
                                   "not read")
        elif target.lower().endswith(".svg"):
            with self.b.written_in(self._chain[-1]):
                self.b.image(target, page_rel=self._chain[-1])
        else:
            found = self._resolve_file("raw :file:", target)
            if found is not None:
                self.b.html(found[1], image_base=self._image_base)

    def _inserted(self, text: str, what: str) -> bool:
        """Whether ``text``, which a directive (``what``) reads into the page, fits the
        page's budget of :data:`MAX_INSERTED_CHARS` characters (spent by it); past it
        ``False``, with one warning for the page."""
        return self._inserted_chars.spend(text, what, self.b.warnings)

    def _include(self, d: _Directive) -> None:
        target = d.argument.strip()
        found = self._resolve_file("include", target)
        if found is None:
            return
        rel, text = found
        if rel in self._chain:
            self.b.warnings.append(f"include {target!r}: include cycle ({' <- '.join([rel, *reversed(self._chain)])}); "
                                   "skipped")
            return
        if len(self._chain) > self.opts.max_include_depth:
            self.b.warnings.append(f"include {target!r}: nested deeper than {self.opts.max_include_depth}; skipped")
            return
        self._includes += 1
        if self._includes > 500:
            self.b.warnings.append(f"include {target!r}: more than 500 includes in one page; skipped")
            return
        text = _slice(text, d.options)
        if "literal" in d.options or "code" in d.options:
            self.b.code(text)
            return
        saved = self._image_base
        saved_offset = self._heading_offset
        if "relative-images" in d.options:
            self._image_base = rel
        try:
            self._heading_offset += int(str(d.options.get("heading-offset", 0)) or 0)
        except ValueError:
            self.b.warnings.append(f"include {target!r}: heading-offset is not a number")
        try:
            with self.b.written_in(rel):
                if PurePosixPath(rel).suffix.lower() == ".rst" or d.options.get("parser") in ("rst", "restructuredtext"):
                    self._eval_rst(text, file_rel=rel)
                else:
                    self.feed(text, file_rel=rel)
        finally:
            self._image_base = saved
            self._heading_offset = saved_offset

    def _embed(self, target: str) -> None:
        """mystmd's ``{embed}`` (https://mystmd.org/guide/embed): ``#label`` (or ``label``)
        shows the labelled content of any page of the project where the directive stands:
        the block right after a ``(label)=`` target, or the whole directive (a figure with its
        image and caption, a code block) whose ``label``/``name`` option it is. Images resolve
        against the page that holds the content. At most 100 embeds a page, never the page
        embedding itself again."""
        label = target.strip().split("#", 1)[-1].strip()
        find = getattr(self.site, "label_sources", None)
        rel = find().get(label.lower()) if callable(find) and label else None
        if rel is None:
            self.b.warnings.append(f"embed {target.strip()!r}: no such label in the project")
            return
        self._embeds += 1
        if self._embeds > 100 or (rel, label) in self._embedding:
            self.b.warnings.append(f"embed {target.strip()!r}: more than 100 embeds, or an embed of itself; skipped")
            return
        if rel.lower().endswith(".ipynb"):
            self._embed_cell(rel, label, target.strip())
            return
        try:
            text = read_source(self.site.config.root / rel, max_bytes=self.opts.max_bytes, warnings=self.b.warnings)
        except IngestError as err:
            self.b.warnings.append(f"embed {target.strip()!r}: {err}")
            return
        block = labelled_block(text, label)
        if block is None:
            self.b.warnings.append(f"embed {target.strip()!r}: the labelled content was not found in {rel}")
            return
        if not self._inserted(block, f"embed {target.strip()!r}"):
            return
        self._embedding.add((rel, label))
        saved = self._image_base
        self._image_base = rel  # the content's pictures are its own page's
        try:
            self.feed(block, file_rel=rel)
        finally:
            self._image_base = saved
            self._embedding.discard((rel, label))

    def _embed_cell(self, rel: str, label: str, target: str) -> None:
        """mystmd: the outputs of the notebook cell ``label`` names (its ``#| label:`` or
        metadata label; "Embed and Reuse Jupyter Outputs"), their pictures written under the
        index's assets folder."""
        from murar.ingest.markup.notebook import embed_cell_outputs, notebook_cells

        if self.assets_dir is None:
            self.b.warnings.append(f"embed {target!r}: a notebook output, and no assets folder to write it to")
            return
        cells = self._notebooks.get(rel)
        if cells is None:  # read and parsed once a page (of the last MAX_NOTEBOOKS_KEPT), not once an embed
            try:
                text = read_source(self.site.config.root / rel, max_bytes=max(self.opts.max_bytes, 50_000_000),
                                   warnings=self.b.warnings)
            except IngestError as err:
                self.b.warnings.append(f"embed {target!r}: {err}")
                return
            cells = self._notebooks[rel] = notebook_cells(text)
            while len(self._notebooks) > MAX_NOTEBOOKS_KEPT:
                self._notebooks.popitem(last=False)
        self._notebooks.move_to_end(rel)
        folder = f"nb/{stable_id(self.b.rel, 'embed', rel, label)}"
        if not embed_cell_outputs(cells, label, self.b, site=self.site, assets_dir=self.assets_dir,
                                  options=self.opts, folder=folder):
            self.b.warnings.append(f"embed {target!r}: the labelled cell was not found in {rel}")

    def _glossary(self, body: str) -> None:
        """Sphinx's ``glossary``: lines at the left margin are terms (several may share a
        definition; ``term : key`` gives an index key, not text), the indented block under
        them their definition, which myst-parser parses as Markdown (roles, directives)."""
        lines = body.split("\n")
        i = 0
        self.b.end_paragraph()
        if any(_DEFLIST_MARK.match(ln) for ln in lines):
            # mystmd's glossary is a definition list ("term" over ": definition"; mystmd guide, Glossaries)
            self.feed(body)
            self.b.end_paragraph()
            return
        while i < len(lines):
            if not lines[i].strip():
                i += 1
                continue
            terms: list[str] = []
            while i < len(lines) and lines[i].strip() and not lines[i][:1].isspace():
                terms.append(lines[i].strip().split(" : ", 1)[0])
                i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i][:1].isspace()):
                block.append(lines[i])
                i += 1
            cut = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
            for term in terms:
                self.b.block(self._plain(term))
            if not terms and block:  # indented text with no term above it: read as written
                self.feed("\n".join(block))
                continue
            self.feed("\n".join(b[cut:] for b in block))
            self.b.end_paragraph()

    def _parsed_literal(self, body: str) -> None:
        """A ``{parsed-literal}`` block as myst-parser renders it: docutils' ParsedLiteral reads
        its body with ``state.inline_text``, which myst-parser parses with MyST's inline rules, so
        a link shows its text and a role its text; lines and their indentation stay (code)."""
        lines: list[str] = []
        for line in body.split("\n"):
            stripped = line.lstrip()
            parts: list[str] = []
            if stripped:
                for tok in self.md.parseInline(stripped, self._env()):
                    self._inline(tok, parts)
            lines.append(line[: len(line) - len(stripped)] + "".join(parts))
        shown = "\n".join(lines).strip("\n")
        if shown.strip():
            self.b.code(shown)

    def _literalinclude(self, d: _Directive) -> None:
        found = self._resolve_file("literalinclude", d.argument.strip())
        if found is None:
            return
        options = {k: option_value(v) if isinstance(v, str) else v for k, v in d.options.items()}
        text = literalinclude_text(found[1], options)
        if text is None:
            self.b.warnings.append(f"literalinclude {d.argument.strip()!r}: its options pick nothing in the file")
            return
        self.b.block(self._plain(code_caption("literalinclude", d.options, d.argument)))
        self.b.code(text)

    def _eval_rst(self, body: str, *, file_rel: str | None = None) -> None:
        from murar.ingest.markup.rst import parse_rst_into

        depth = self.b.cur.level
        try:
            parse_rst_into(self.b, body, rel=file_rel or self._chain[-1], site=self.site, options=self.opts,
                           depth=depth)
        except IngestError as err:
            self.b.warnings.append(f"eval-rst block skipped: {err}")

    def _list_table(self, d: _Directive) -> None:
        rows: list[list[str]] = []
        tokens = self.md.parse(d.body, self._env())
        depth = 0
        row: list[str] | None = None
        cell: list[str] = []
        pictures: list[_Directive] = []
        for t in tokens:
            if t.type == "bullet_list_open":
                depth += 1
            elif t.type == "bullet_list_close":
                depth -= 1
                if depth == 0 and row is not None:
                    rows.append(row)
                    row = None
            elif t.type == "list_item_open" and depth == 1:
                if row is not None:
                    rows.append(row)
                row = []
            elif t.type == "list_item_open" and depth == 2:
                cell = []
            elif t.type == "list_item_close" and depth == 2 and row is not None:
                row.append(clean_text(" ".join(cell)))
            elif t.type == "inline" and depth >= 2:
                parts: list[str] = []
                self._inline(t, parts)
                cell.append("".join(parts))
            elif t.type in ("fence", "colon_fence") and depth >= 2:
                # a block in a cell: its text is the cell's (as docutils' astext), a figure's
                # or image's picture an item of its own beside the table (as in reST)
                sub = _split_directive(t.info, t.content)
                if sub is None or sub.name in _CODE:
                    cell.append((sub.body if sub is not None else t.content).strip())
                elif sub.name in ("figure", "image"):
                    if sub.name == "figure":
                        cell.append(self._plain(sub.body))
                    pictures.append(sub)
                else:
                    cell.append(self._plain(sub.body))
        try:
            n_head = int(str(d.options.get("header-rows", 0)))
        except ValueError:
            n_head = 0
        headers = rows[n_head - 1] if 0 < n_head <= len(rows) else []
        for picture in pictures:
            self._directive(picture)
        self.b.table(headers, rows[n_head:] if n_head > 0 else rows, self._plain(d.argument))

    def _csv_table(self, d: _Directive) -> None:
        def parse(text: str) -> list[list[str]]:
            reader = csv.reader(io.StringIO(text), skipinitialspace=True)
            return [[clean_text(c) for c in r] for r in reader if r]

        body = d.body
        if d.options.get("file"):
            found = self._resolve_file("csv-table", str(d.options["file"]))
            body = found[1] if found else ""
        rows = parse(body)
        headers = parse(str(d.options["header"]))[0] if d.options.get("header") else []
        try:
            n_head = int(str(d.options.get("header-rows", 0)))
        except ValueError:
            n_head = 0
        if not headers and 0 < n_head <= len(rows):
            headers, rows = rows[n_head - 1], rows[n_head:]
        self.b.table(headers, rows, self._plain(d.argument))


def _slice(text: str, options: dict[str, Any]) -> str:
    lines = text.splitlines()
    try:
        start = int(options["start-line"]) if "start-line" in options else None
        end = int(options["end-line"]) if "end-line" in options else None
    except ValueError:
        start = end = None
    if start is not None or end is not None:
        lines = lines[start:end]
    text = "\n".join(lines)
    after, before = options.get("start-after"), options.get("end-before")
    if isinstance(after, str) and after:
        i = text.find(after)
        text = text[i + len(after):] if i >= 0 else text
    if isinstance(before, str) and before:
        i = text.find(before)
        text = text[:i] if i >= 0 else text
    return text


def site_substitutions(site: Site) -> dict[str, str]:
    """``myst_substitutions`` of the site's config (Sphinx conf.py or Jupyter Book
    ``parse.myst_substitutions``), text values only."""
    conf = getattr(site, "conf", None)
    values = getattr(conf, "values", None)
    subs = values.get("myst_substitutions") if isinstance(values, dict) else None
    if isinstance(subs, dict):
        return {str(k): str(v) for k, v in subs.items() if isinstance(v, (str, int, float))}
    return {}


def convert_myst_text(text: str, *, rel: str, site: Site, options: MarkupOptions | None = None,
                      warnings: list[str] | None = None, assets_dir: Path | None = None) -> ParsedDocument:
    """Parse MyST Markdown ``text`` of the page ``rel`` (relative to the site root).

    Raises:
        IngestError: the text cannot be parsed at all.
    """
    opts = options or MarkupOptions()
    builder = PageBuilder(rel=rel, site=site, options=opts)
    if warnings:
        builder.warnings.extend(warnings)
    parser = MystParser(builder, site=site, options=opts, substitutions=site_substitutions(site))
    parser.assets_dir = assets_dir
    parser.feed(site.preprocess(text, page_rel=rel, warnings=builder.warnings), top=True)
    return builder.finish(metadata=parser.meta)


def convert_myst(path: Path, *, site: Site, assets_dir: Path | None = None,
                 options: MarkupOptions | None = None) -> ParsedDocument:
    """Parse one MyST Markdown page (``path`` under ``site.config.root``).

    Raises:
        IngestError: the file is outside the site root, unreadable or binary.
    """
    opts = options or MarkupOptions()
    root = site.config.root
    rel = page_rel(path, root)
    warnings: list[str] = []
    text = read_source(path, max_bytes=opts.max_bytes, warnings=warnings)
    return convert_myst_text(text, rel=rel, site=site, options=opts, warnings=warnings, assets_dir=assets_dir)
