"""AsciiDoc pages (Antora or plain) rendered by asciidoc-py and walked into a page.

The AsciiDoc *preprocessor* (line directives, https://docs.asciidoctor.org/asciidoc/latest/directives/)
runs here, because its paths are the Site's business: ``include::`` targets
(resource IDs such as ``partial$x.adoc``, relative paths, ``{attribute}``
references) are resolved by the Site and inlined with their ``tag=``/``tags=``,
``lines=``, ``leveloffset=`` and ``indent=`` options; ``ifdef``/``ifndef``/
``ifeval`` (simple comparisons, never ``eval``) select lines. References to
attributes defined nowhere are kept as written (Asciidoctor's default
``attribute-missing: skip``; asciidoc-py would drop the whole line).

The block and inline grammar is asciidoc-py's (the ``asciidoc`` package from
PyPI, rendered to HTML5 in-process), hardened: no filter ever runs a command
(``[source]`` highlighters and graphviz blocks keep their text, ``a|`` cells are read
as text by :mod:`murar.ingest.markup.asciidoc_cells`),
``sys``/``eval``/``include`` system attributes and macros give nothing,
``conf-files`` is ignored. asciidoc-py keeps module-level state, so renders
are serialised by a lock and its patched functions are restored afterwards.

The HTML is then read into sections (``== Title``), images (block
``image::target[alt]`` with its ``.Title`` as the author caption, inline
``image:``), tables (``|===`` with its ``.Title``), admonitions ("Note: ..."),
code listings, lists and video blocks; every image target goes to the Site
(Antora resource IDs, ``imagesdir``).

Between the preprocessor and asciidoc-py, :mod:`murar.ingest.markup.asciidoc_blocks`
rewrites the lines where Asciidoctor's block rules differ from asciidoc-py's: a
table whose first line is followed by a blank line has that line as its header
row (Asciidoctor's implicit header row; asciidoc-py has none), and a list
continuation ``+`` followed by one blank line attaches the next block to the
item, unless that block is a section title (Asciidoctor would make the title a
paragraph of the item; asciidoc-py stops rendering there: murar keeps the section).
The preprocessor also substitutes attributes where Asciidoctor does and
asciidoc-py does not: in a backtick monospace span (```{name}```; ```+...+```
stays literal) and in a verbatim block whose ``subs`` turns attributes on
(``subs="attributes+"``, ``+attributes``, ``normal``); the ``subs`` entry is
then dropped, since asciidoc-py fails on Asciidoctor's incremental forms.

Tabs (the Asciidoctor Tabs extension, https://github.com/asciidoctor/asciidoctor-tabs,
which Antora sites load): a ``[tabs]`` example block holding a description list
is a tab set, each term the label of a tab and its description the pane
(consecutive terms share one pane: their labels are joined with " / "). Every
image and table in a pane records that tab and the set's labels; the page text
stays what asciidoc-py renders (the terms as lines of text, as before). The
extension wants the list to be the block's only content; here a block that
merely *starts* with the list is a tab set too, and whatever follows a term up
to the next one belongs to its tab, whether asciidoc-py renders it in the
term's description or beside the list.
"""

from __future__ import annotations

import contextlib
import io
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from html import escape as html_escape
from html import unescape as html_unescape
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

from selectolax.lexbor import LexborHTMLParser, LexborNode

from murar.errors import IngestError, MissingExtraError
from murar.ingest.budget import PageCharBudget
from murar.ingest.frontmatter import parse_front_matter
from murar.ingest.htmltext import BLOCK_TAGS, MAX_TREE_DEPTH, cap_depth, pre_text
from murar.ingest.markup.asciidoc_blocks import (
    ATTR_ENTRY,
    attached_paragraph_ends,
    auto_callouts,
    block_indents,
    compound_block_ends,
    continuation_runs,
    dangling_continuations,
    detached_continuations,
    fenced_code_blocks,
    implicit_table_headers,
    level5_titles,
    markdown_quotes,
    monospace_hard_breaks,
    quoted_attribute_values,
    section_ids,
    setext_titles,
    shorthand_tables,
    styled_verbatim_paragraphs,
    table_leading_blanks,
    text_after_attached_blocks,
    xref_texts,
)
from murar.ingest.markup.asciidoc_cells import cell_lines
from murar.ingest.markup.builder import (
    MarkupOptions,
    PageBuilder,
    clean_text,
    is_video_embed,
    page_rel,
    read_source,
)
from murar.ingest.mdlimits import bounded_int
from murar.ingest.media_flags import IMAGE_MARK, marked_images_inline, px_width
from murar.ingest.sites.base import Site
from murar.ingest.tables import parse_table_node
from murar.schema import ParsedDocument

__all__ = ["convert_asciidoc", "convert_asciidoc_text", "preprocess_asciidoc"]

_LOCK = threading.Lock()
_DIRECTIVE = re.compile(r"^(include|ifdef|ifndef|ifeval|endif)::([^\[]*)\[(.*)\]\s*$")
_ATTR_REF = re.compile(r"(\\?)\{([\w][\w-]*)\}")
# an inline macro the preprocessor rewrites (Pre.inline_macros), in an attribute's value
_MACRO_IN_VALUE = re.compile(r"xref:|<<|\b(?:kbd|btn|menu|icon|pass|stem):")
#: characters an attribute value, or a line after attribute substitution, may reach: ":a1: {a0}{a0}",
#: ":a2: {a1}{a1}"... doubles a value per line (60 lines: 2**60 characters, MemoryError)
MAX_ATTRIBUTE_CHARS = 100_000
MAX_SUBSTITUTED_CHARS = 1_000_000
#: characters the attribute references of one page may bring in all (300 lines of '{a9}', a value of
#: 100,000 characters, were 30,000,000 characters from an 8.5 KB page: 37 s); the later ones are
#: shown as written
MAX_PAGE_SUBSTITUTED_CHARS = 5_000_000
#: characters one page may include in all (the lines its includes select: a file included by tags
#: spends only those); 20 includes of a 980 KB file (19,600,000 characters) passed the 180 s budget,
#: asciidoc-py rendering some 10 to 25 s a MB
MAX_INCLUDED_CHARS = 2_000_000
_ENTRY_LINE = re.compile(r":!?[\w][\w-]*!?:")  # an attribute entry (its value is set, not shown)
_ATTR_REF_NAMES = re.compile(r"\{([\w][\w-]*)[}=?!@#$%^&*:]")
# a link whose URL starts with an attribute no entry sets: "{security-api-url}org/x/Y.html[`Y`]"
# (Spring, set by the build's generated antora.yml). Asciidoctor makes it a link once the reference
# is a URL (https://docs.asciidoctor.org/asciidoc/latest/macros/complex-urls/); unset, the line
# kept the whole construct where the site shows the link text
_UNSET_URL_LINK = re.compile(r"(?<![\w:/{\\])\{([\w][\w-]*)\}[^\s\[\]{}`]*\[([^\]\n]+)\]")
_KBD_BTN = re.compile(r"\b(?:kbd|btn):\[([^\]]*)\]")
_ICON = re.compile(r"""\bicon:([\w-]+)\[(?:[^\]]*?\balt=["']?([^"',\]]*)["']?)?[^\]]*\]""")
_MENU = re.compile(r"\bmenu:([^\[\s]+)\[([^\]]*)\]")
_XREF_ANGLE = re.compile(r"<<([\w:.#/-]+)(?:,\s*([^>]*))?>>")
# an image macro target up to its "[" (Asciidoctor's InlineImageMacroRx; a block macro's target cannot hold "["
# either in practice), at most 256 characters: the callers keep those holding a space inside
_SPACED_IMAGE = re.compile(r"(?<![\w:\\])(image::?)([^:\s\[\]][^\n\[\]]{0,255})\[")
_STEM_MACRO = re.compile(r"(?<![\w:])stem:\[")
_PASS_SUBS = re.compile(r"(?<![\w:])pass:([\w,]{1,200})\[")
# Asciidoctor's Markdown-style thematic break (its LayoutBreakRx: three of -, * or _, evenly spaced)
_MARKDOWN_BREAK = re.compile(r"^([-*_])( *)\1\2\1[ \t]*$")
# an attribute entry's value that is one pass macro ('pass:q[text]', 'pass:[text]')
_PASS_ENTRY = re.compile(r"^pass:([\w,]{0,200})\[(.*)\]$")
# a backtick monospace pair (constrained), whose text is what a reader sees
_MONO_PAIR = re.compile(r"(?<![\w`])`([^`\s](?:[^`\n]*?[^`\s])?)`(?![\w`])")
# Asciidoctor's substitution names and one-letter aliases (docs: subs/apply-subs-to-text, pass/pass-macro)
# as asciidoc-py names them; a name asciidoc-py has no counterpart for is left out
_PASS_SUB_NAMES = {"c": "specialcharacters", "specialchars": "specialcharacters",
                   "specialcharacters": "specialcharacters", "q": "quotes", "quotes": "quotes", "a": "attributes",
                   "attributes": "attributes", "r": "replacements", "replacements": "replacements", "m": "macros",
                   "macros": "macros", "p": "replacements2", "post_replacements": "replacements2", "n": "normal",
                   "normal": "normal", "v": "verbatim", "verbatim": "verbatim", "none": "none"}
_XREF_EMPTY = re.compile(r"\bxref:([^\[\s]+)\[\]")
# an xref to a resource of another version (Antora resource ID ``3.9@component::page.adoc``): asciidoc-py
# takes ``...@component`` for an email address and writes a broken link ('3.9@mule-runtime::x.adoc">text')
# (a version is a short token: the coordinate is matched with no backtracking across long runs)
_XREF_VERSIONED = re.compile(r"\bxref:([\w.+~-]{1,64}@[^\s\[\]]{1,1024})\[([^\[\]]{1,2048})\]")
# an xref target holding an attribute reference (``xref:{mc-version}@mc::index.adoc[]``): Asciidoctor
# substitutes attributes before macros, so the target is the value (the first run holds no brace: linear)
_XREF_TARGET_ATTR = re.compile(r"\bxref:([^\s\[\]{}]{0,1024}\{[\w-]{1,64}\}[^\s\[\]]{0,1024})\[")
# a link whose target is a passthrough (link:++https://host/a_b++[text], for a URL with characters the
# inline substitutions would change): Asciidoctor links the text (the URL when there is none)
_LINK_TEXT_AFTER = re.compile(r"([^\[\]]{0,2048})\]")


def _passthrough_links(line: str) -> str:
    """``line`` with each ``link:++target++[text]`` written as its text (the target when the
    brackets are empty); a target and a text are at most 2,048 characters each, so the work
    stays linear in the line."""
    out: list[str] = []
    pos = 0
    while (start := line.find("link:++", pos)) >= 0:
        if start and (line[start - 1].isalnum() or line[start - 1] == "_"):
            out.append(line[pos:start + 7])
            pos = start + 7
            continue
        end = line.find("++[", start + 7, start + 7 + 2048 + 3)
        text = _LINK_TEXT_AFTER.match(line, end + 3) if end > start + 7 else None
        if text is None:
            out.append(line[pos:start + 7])
            pos = start + 7
            continue
        out.append(line[pos:start])
        out.append(_link_text(text.group(1)) or line[start + 7:end])
        pos = text.end()
    out.append(line[pos:])
    return "".join(out)


_LINK_MACRO = re.compile(r"\b((?:link:|mailto:|xref:|(?:https?|ftp|irc)://)[^\s\[\]]*)\[([^\[\]]+)\]")
# a link whose text is an inline image (Asciidoctor: a linked image): the image is what shows
_LINKED_IMAGE = re.compile(r"\b(?:link:|(?:https?|ftp)://)[^\s\[\]]*\[(image:[^\s\[\]]+\[[^\[\]]*\])(?:,[^\[\]]*)?\]")
# an inline or block image whose attribute list starts with a named attribute (no alt text)
#: a video block macro whose first attribute names a hosting service: the target is the video's ID there
_VIDEO_SERVICE = re.compile(r"^video::([^\s\[\]]+)\[[ \t]*(youtube|vimeo|wistia)[ \t]*(?=[,\]])", re.IGNORECASE)
#: the address Asciidoctor's HTML converter embeds for each service (convert_video, ``poster``)
_VIDEO_EMBED = {"youtube": "https://www.youtube.com/embed/{}", "vimeo": "https://player.vimeo.com/video/{}",
                "wistia": "https://fast.wistia.com/embed/iframe/{}"}
#: an image macro whose attribute list opens with a named attribute and names ``alt=``
_IMAGE_NAMED_ALT = re.compile(r"(?<![\w:])(image::?[^\s\[\]]+)\[(\s*[A-Za-z][\w-]*\s*=[^\]\n]*)\]")
_NAMED_ALT = re.compile(r"""(?:^|,)\s*alt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^,]*))""")
# an image macro's attribute list (no brackets inside), its comma-separated items (a quoted one may
# hold commas) and a named item
_IMAGE_ATTRLIST = re.compile(r"(?<![\w:\\])(image::?[^\s\[\]]+)\[([^\[\]\n]{1,1000})\]")
_ATTR_ITEM = re.compile(r"""\s*("[^"]*"|'[^']*'|[A-Za-z][\w-]*\s*=\s*(?:"[^"]*"|'[^']*'|[^,]*)|[^,]*)\s*(?:,|$)""")
_NAMED_ITEM = re.compile(r"""^\s*([A-Za-z][\w-]*)\s*=\s*(.*?)\s*$""", re.DOTALL)
# an unordered list item that is a checklist entry (Asciidoctor's CheckListRx: "[ ]", "[x]", "[*]")
_CHECKLIST = re.compile(r"^([ \t]*(?:\*{1,5}|-)[ \t]+)\[([ x*])\](?=[ \t]+\S)")
_INLINE_IMAGE_NAMED_FIRST = re.compile(r"(?<![\w:])(image::?[^\s\[\]]+)\[(?=\s*[A-Za-z][\w-]*\s*=)")
# a block image's title="..." attribute: its caption, as a .Title line gives it
_BLOCK_IMAGE_TITLE = re.compile(r"""^(image::[^\s\[\]]+\[.*?)(?:,\s*|(?<=\[))title\s*=\s*(?:"([^"]*)"|'([^']*)'|([^,\]]*))(.*\]\s*)$""")
_DOC_TITLE = re.compile(r"^=[ \t]+(\S.*)$")
# an escaped attribute reference (\{name}): the text '{name}'
_ESCAPED_REF = re.compile(r"\\(\{[\w][\w-]*\})")
_HEADING = re.compile(r"^(=+)([ \t]+\S.*)$")
_VERBATIM_DELIM = re.compile(r"^(-{4,}|\.{4,}|\+{4,}|/{4,})\s*$")
# a block macro (``name::target[attrs]`` alone on a line, starting a block) whose name neither
# Asciidoctor (image, video, audio, toc) nor asciidoc-py knows: an extension's block (Antora sites
# load extensions in the playbook: asciidoctor-kroki's ``plantuml::diagram.puml[]``, a Swagger UI's
# ``swagger_ui::spec.yaml[]``), rendered by code this reader does not have, never as its source line
_BLOCK_MACRO = re.compile(r"^([A-Za-z][\w-]{0,63})::(\S{0,1024})\[(.{0,2048})\]\s*$")
_KNOWN_BLOCK_MACROS = frozenset({"image", "video", "audio", "toc", "include", "ifdef", "ifndef", "ifeval", "endif",
                                 "sys", "sys2", "sys3", "eval", "eval3", "template", "unfloat", "graphviz",
                                 "latexmath", "asciimath", "stem"})
_TAG_LINE = re.compile(r"\b(tag|end)::([\w-]+)\[\]")
# asciidoc-py's delimited compound blocks (example ``====``, open ``--``, sidebar ``****``, quote ``____``)
_HEADING_SCOPES = frozenset({"exampleblock", "openblock", "sidebarblock", "quoteblock"})
_FIGURE_PREFIX = re.compile(r"^(?:Figure|Table|Example|Listing)\s+\d+\.\s+")
# attributes asciidoc-py defines itself (character replacements and friends) or from the document
# header (title, author, revision line): a reference to one is left to asciidoc-py. Names asciidoc-py
# leaves undefined unless an entry sets them (imagesdir, docfile, sectanchors, experimental, ...) are
# not here: asciidoc-py dropped a whole line referencing one ('image::a.png[link="{imagesdir}/a.png"]',
# Antora's lightbox link, lost the image), so unset they are kept as written like any other
_BUILTIN_ATTRS = frozenset({
    "amp", "apos", "asterisk", "backslash", "backtick", "blank", "brvbar", "caret", "cpp", "cxx", "deg", "empty",
    "endsb", "gt", "ldquo", "lsquo", "lt", "nbsp", "plus", "pp", "quot", "rdquo", "rsquo", "sp", "startsb", "tilde",
    "two-colons", "two-semicolons", "vbar", "wj", "zwsp", "docname", "doctitle", "localdate",
    "localtime", "docdate", "doctime", "asciidoc-version", "backend", "doctype", "basebackend",
    "filetype", "outfilesuffix", "toc-title", "toclevels", "source-highlighter",
    "revnumber", "revdate", "author", "email", "firstname", "lastname", "description", "keywords",
})
# character-replacement attributes (Asciidoctor's built-ins) by value, for attribute values
_CHAR_ATTRS = {
    "amp": "&", "apos": "'", "asterisk": "*", "backslash": "\\", "backtick": "`", "blank": "", "brvbar": "\u00a6",
    "caret": "^", "deg": "\u00b0", "empty": "", "gt": ">", "ldquo": "\u201c", "lsquo": "\u2018", "lt": "<",
    "nbsp": "\u00a0", "plus": "+", "quot": '"', "rdquo": "\u201d", "rsquo": "\u2019", "sp": " ", "tilde": "~",
    "vbar": "|", "wj": "\u2060", "zwsp": "\u200b", "cpp": "C++", "cxx": "C++", "pp": "++", "startsb": "[", "endsb": "]",
}
#: the character-replacement attributes asciidoc-py does not define (its asciidoc.conf has the others): a
#: line referencing one was dropped whole, as for any undefined attribute ('{startsb}q{endsb}'); they are
#: given to asciidoc-py with Asciidoctor's values
_CHAR_ATTRS_NOT_IN_ASCIIDOC_PY = {name: _CHAR_ATTRS[name] for name in (
    "apos", "asterisk", "backtick", "blank", "caret", "quot", "tilde", "vbar", "cpp", "cxx", "pp", "startsb",
    "endsb")}
# a backtick from {backtick} is text (Asciidoctor substitutes attributes after inline formatting); given to
# asciidoc-py as its character reference, so two of them do not make a monospace span ('({backtick} {backtick})'
# read as "(` )")
_CHAR_ATTRS_NOT_IN_ASCIIDOC_PY["backtick"] = "&#96;"
#: the caption labels asciidoc-py's templates need: unsetting one (':table-caption!:') made it drop the titles
_CAPTION_ATTRS = frozenset({"table-caption", "figure-caption", "example-caption"})
# the labels of admonitions (Asciidoctor "Admonitions": <name>-caption, set to localise them), passed on
# even when no text references them, since the admonition templates read them
_ADMONITION_CAPTIONS = frozenset({"note-caption", "tip-caption", "important-caption", "warning-caption",
                                  "caution-caption"})
#: what Asciidoctor defines when it converts to HTML, the output of every site generator reading AsciiDoc
#: (Asciidoctor docs, "Intrinsic attributes": backend, basebackend, doctype, filetype, outfilesuffix,
#: asciidoctor, asciidoctor-version; Document#update_backend_attributes adds backend-<name>,
#: basebackend-<name>, filetype-<name> and the -doctype-<doctype> pairs), so that
#: ``ifdef::backend-html5[]``, ``ifdef::basebackend-html[]`` and ``ifeval::["{backend}" == "html5"]`` hold;
#: never given to asciidoc-py, which defines its own for its html5 backend
_HTML_BACKEND_ATTRS = {
    "asciidoctor": "", "asciidoctor-version": "2.0.23", "backend": "html5", "backend-html5": "",
    "basebackend": "html", "basebackend-html": "", "filetype": "html", "filetype-html": "",
    "outfilesuffix": ".html", "doctype": "article",
}


def _doctype_attrs(attrs: dict[str, str]) -> None:
    """Set the ``doctype-<doctype>`` convenience attributes (and their backend pairs)
    for ``attrs["doctype"]``, unsetting those of any other doctype, as Asciidoctor
    does when the doctype is set."""
    for key in [k for k in attrs if k.startswith(("doctype-", "backend-html5-doctype-", "basebackend-html-doctype-"))]:
        del attrs[key]
    doctype = attrs.get("doctype", "article").strip() or "article"
    attrs.update({f"doctype-{doctype}": "", f"backend-html5-doctype-{doctype}": "",
                  f"basebackend-html-doctype-{doctype}": ""})


# attributes passed on the command line win over document entries: the values
# asciidoc-py's own configuration evaluates are never the document's
_FIXED_ATTRS: dict[str, str | None] = {
    "source-highlighter": "none", "footer-style": "none", "data-uri": None, "conf-files": "",
    "icons": None, "toc": None, "linkcss": "", "disable-javascript": "",
}
_BLOCKED_SYSTEM = frozenset({"eval", "eval3", "sys", "sys2", "sys3", "include"})


# ----------------------------------------------------------------- preprocess
def _link_text(attrlist: str) -> str:
    """The text of a link/xref macro's attribute list as Asciidoctor reads it: with
    named attributes (``Docs,window=_blank``, ``"a, b",role=x``) the first positional
    one, and without the trailing ``^`` that asks for a new window (``Docs^``).
    asciidoc-py shows the whole list as the text."""
    text = attrlist
    if "=" in text:
        m = re.match(r'\s*"((?:[^"\\]|\\.)*)"\s*(?:,|$)', text)
        if m:
            text = m.group(1)
        else:
            first = text.split(",", 1)[0]
            text = "" if "=" in first else first
    text = text.strip()
    return text[:-1].rstrip() if text.endswith("^") else text


class _Pre:
    """The AsciiDoc preprocessor over one page and the files it includes."""

    def __init__(self, *, site: Site, page_rel: str, attrs: dict[str, str], options: MarkupOptions,
                 warnings: list[str]) -> None:
        self.site = site
        self.page_rel = page_rel
        self.attrs = dict(attrs)
        self.opts = options
        self.warnings = warnings
        self.includes = 0
        self.included_chars = PageCharBudget(
            MAX_INCLUDED_CHARS, "{what}: over {limit} included characters in the page; skipped, and the later ones")
        self.included: list[str] = []
        self.titles: dict[str, str] = {}

    def sub(self, text: str, limit: int = MAX_SUBSTITUTED_CHARS) -> str:
        """``text`` with its attribute references replaced by their values, cut at
        ``limit`` characters (a warning says so)."""
        out = _bounded_sub(text, lambda m: m.group(0) if m.group(1) else self.attrs.get(m.group(2), m.group(0)),
                           limit)
        if out is None:
            self.warnings.append(f"attribute substitution over {limit} characters cut: {text[:40]!r}")
            return _bounded_sub(text, lambda m: m.group(0) if m.group(1) else self.attrs.get(m.group(2), m.group(0)),
                                limit, cut=True) or ""
        return out

    def sub_chars(self, text: str) -> str:
        """:meth:`sub`, then a reference to a built-in character attribute the page does
        not define (``{backtick}``, ``{plus}``, ``{startsb}``) as its character, as
        Asciidoctor substitutes it where this preprocessor hands asciidoc-py text it will
        not substitute (a monospace span, a verbatim block with ``subs=attributes``)."""
        if "{" not in text:
            return text
        return _ATTR_REF.sub(lambda r: r.group(0) if r.group(1) or r.group(2) in self.attrs
                             else _CHAR_ATTRS.get(r.group(2), r.group(0)), self.sub(text))

    def mono(self, m: re.Match[str]) -> str:
        """A backtick monospace span (:data:`_MONOSPACE`) as Asciidoctor shows it: the
        normal substitutions run inside it, so an attribute reference is its value, a
        built-in character attribute (``{backtick}``, ``{plus}``) the character too
        (``default:{backtick}travel-sample{backtick}`` reads "default:`travel-sample`");
        a span whose text then holds a backtick is written as the HTML Asciidoctor
        makes (asciidoc-py's literal span would end at it)."""
        text = _mono_span(self.sub_chars(m.group(2)))  # (sub_chars returns text without "{" as it is)
        if "`" in text and "+++" not in text:
            return f"+++<code>{html_escape(text, quote=False).replace('`', '&#96;')}</code>+++"
        return m.group(1) + text + m.group(3)

    def pass_value(self, subs: str, text: str) -> str:
        """The value of an attribute entry ``:name: pass:SUBS[text]``: ``text`` with the
        substitutions ``SUBS`` names (``c``/``specialchars``, ``q``/``quotes``,
        ``a``/``attributes``; the one-letter aliases too) and no others, as a reader sees
        it: the inline formatting marks of ``quotes`` applied (their text is left), the
        special characters of ``c`` shown as written; without ``c`` the text passes as
        it is (HTML in it stays HTML, as in Asciidoctor)."""
        names = {_PASS_SUB_NAMES.get(n.strip(), n.strip()) for n in subs.split(",")}
        if "normal" in names:
            names |= {"specialcharacters", "quotes", "attributes"}
        if "attributes" in names:
            text = self.sub(text, MAX_ATTRIBUTE_CHARS)
        if "quotes" in names:
            text = _MONO_PAIR.sub(r"\1", _mono_quotes(text))
        if "specialcharacters" in names:
            text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return text[:MAX_ATTRIBUTE_CHARS]

    def condition(self, kind: str, target: str, expr: str) -> bool:
        if kind == "ifeval":
            # Asciidoctor substitutes the operands with attribute-missing 'drop': an undefined
            # attribute is the empty string there ("{x}" != "" is false when x is unset)
            return _ifeval(_ATTR_REF.sub(lambda m: m.group(0) if m.group(1) else self.attrs.get(m.group(2), ""), expr))
        names_any = [n for n in target.split(",") if n]
        names_all = [n for n in target.split("+") if n]
        if "," in target:
            hit = any(n in self.attrs for n in names_any)
        else:
            hit = all(n in self.attrs for n in names_all)
        return hit if kind == "ifdef" else not hit

    def run(self, text: str, *, file_rel: str, depth: int = 0, chain: tuple[str, ...] = (),
            in_verbatim: bool = False, with_subs: bool = False) -> list[str]:
        """Preprocess ``text`` (of ``file_rel``) into lines. ``in_verbatim``: the text is
        included into a listing or literal block, so only preprocessor directives act on it
        (``with_subs``: that block substitutes attributes)."""
        out: list[str] = []
        skip: list[bool] = []  # stack of "this branch is skipped"
        verbatim: str | None = "\0" if in_verbatim else None  # "\0": the including block, never closed here
        pending_subs = False  # the block attribute line above asked for attribute substitution
        verbatim_subs = with_subs  # the open verbatim block substitutes attributes
        pending_quotes = verbatim_quotes = False  # ... asked for / applies inline formatting (quotes)
        raw_lines = text.splitlines()
        source = iter(_join_attribute_continuations(raw_lines if in_verbatim else setext_titles(raw_lines)))
        pushed: list[str] = []  # the content of a single-line ifdef, read next as a line of its own
        while (line := pushed.pop() if pushed else next(source, None)) is not None:
            if verbatim is None and line.startswith("////") and line.strip("/") == "":
                verbatim = line.strip()
                out.append(line)
                continue
            if verbatim is not None and verbatim.startswith("/"):
                out.append(line)
                if line.strip() == verbatim:
                    verbatim = None
                continue
            m = _DIRECTIVE.match(line)
            if m:
                kind, target, rest = m.group(1), m.group(2).strip(), m.group(3)
                if kind == "endif":
                    if skip:
                        skip.pop()
                    continue
                if kind in ("ifdef", "ifndef", "ifeval"):
                    active = not any(skip)
                    cond = self.condition(kind, target, rest) if active else False
                    if rest and kind != "ifeval":  # single-line form: ifdef::attr[content]
                        if active and cond:
                            # a line of the document: an attribute entry there sets or unsets it
                            # (Red Hat modular assemblies: ifdef::context[:parent-context: {context}])
                            pushed.append(rest)
                        continue
                    skip.append(not cond)
                    continue
                if any(skip):
                    continue
                out.extend(self.include(target, rest, file_rel=file_rel, depth=depth, chain=chain,
                                        in_verbatim=verbatim is not None, with_subs=verbatim_subs))
                continue
            if any(skip):
                continue
            if verbatim is None:
                dm = _VERBATIM_DELIM.match(line)
                if dm:
                    verbatim = dm.group(1)
                    verbatim_subs, pending_subs = pending_subs and not verbatim.startswith("+"), False
                    verbatim_quotes, pending_quotes = pending_quotes and not verbatim.startswith("+"), False
                    out.append(line)
                    continue
                if "::" in line and (bm := _BLOCK_MACRO.match(line)) and bm.group(1) not in _KNOWN_BLOCK_MACROS:
                    head = len(out)
                    while head and (_BLOCK_ATTRS.match(out[head - 1]) or re.match(r"^\.[^.\s]", out[head - 1])):
                        head -= 1
                    if not head or not out[head - 1].strip():  # it starts a block (a paragraph's line is text)
                        del out[head:]  # its title and attribute lines go with it
                        continue
                if _BLOCK_ATTRS.match(line) and "subs" in line:
                    line, pending_subs, pending_quotes = _block_subs(line)
                    if not line:
                        continue
                elif line.strip() and not line.startswith((".", "[", "//")):
                    pending_subs = pending_quotes = False
                am = ATTR_ENTRY.match(line)
                if am:
                    name = am.group(2)
                    if name == "conf-files":
                        continue  # asciidoc-py would load configuration (filters) from it
                    if am.group(1) or am.group(3):
                        self.attrs.pop(name, None)
                        line = f":{name}!:"  # asciidoc-py knows only this form; it showed ":!name:" as text
                        if name in _CAPTION_ATTRS:
                            # asciidoc-py then drops the block's whole title ('.Details' over a table);
                            # Asciidoctor shows the title without its "Table 1." label, which the
                            # walker removes from every caption anyway
                            continue
                    elif (pm := _PASS_ENTRY.match(am.group(4) or "")) is not None:
                        # ':description: pass:q[The `LIMIT` clause]': the value with only the named
                        # substitutions applied (Asciidoctor, "Attribute Entry Substitutions"); asciidoc-py
                        # stopped the whole page at it ('illegal substitution option: q', 'missing tag')
                        self.attrs[name] = self.pass_value(pm.group(1), pm.group(2))
                        line = f":{name}: {self.escape_missing(self.attrs[name])}"
                    else:
                        self.attrs[name] = self.sub(am.group(4) or "", MAX_ATTRIBUTE_CHARS)
                        if "{" in (am.group(4) or ""):
                            # the value as it is here: asciidoc-py reads the entry where it stands,
                            # when the references in it may have other values (or none) at the end
                            line = f":{name}: {self.escape_missing(self.attrs[name])}"
                    if name == "doctype":
                        _doctype_attrs(self.attrs)
                    out.append(line)
                    continue
                if "{" in line and _BLOCK_ATTRS.match(line) and not line.startswith("[["):
                    # Asciidoctor substitutes attributes in a block attribute list, once: a reference the
                    # value brings (':tabs: {tabs}{tabs}') stays as written; asciidoc-py would expand it
                    # again on every pass over the list (doubling it: minutes), so it is escaped
                    line = _ATTR_REF.sub(lambda m: "\\" + m.group(0) if not m.group(1) and m.group(2) in self.attrs
                                         else m.group(0), self.sub(line))
                if "cols" in line and ("~" in line or "%" in line) and _BLOCK_ATTRS.match(line):
                    line = _COLS_AUTOWIDTH.sub(lambda m: re.sub(r"(?<=\d)%", "", m.group(0).replace("~", "")), line)
                if len(line) <= 8 and _MARKDOWN_BREAK.match(line) and (not out or not out[-1].strip()):
                    # Asciidoctor's Markdown-style thematic break ('---', '* * *', '___'), which
                    # asciidoc-py showed as text ("---") or as a list item ("* *")
                    out.append("'''")
                    continue
                if line.startswith("[discrete"):  # Asciidoctor's discrete heading is asciidoc-py's [float]
                    line = _DISCRETE.sub("[float", line)
                line = _mark_tabs(_shorthand(_defuse_backtick_run(line)))
                if "}" in line and "[" in line:
                    line = _UNSET_URL_LINK.sub(lambda m: m.group(0) if m.group(1) in self.attrs
                                               or m.group(1) in _CHAR_ATTRS or m.group(2).startswith("[")
                                               else _link_text(m.group(2)) or m.group(0), line)
                if "`" in line:
                    if "]`" in line:  # [role]`text`: the role goes (asciidoc-py showed "[role]")
                        line = _ROLE_BEFORE_MONO.sub("", line)
                    if "{" in line or "\\" in line or "&" in line or re.search(r"[#*_]", line):
                        line = _MONOSPACE.sub(self.mono, line)
                    line = _MONO_LITERAL.sub(r"`\1`", line)  # asciidoc-py's `...` is already literal
                if "[" in line and line.lstrip()[:1] in ("*", "-"):
                    # a checklist item (* [x] Done): Asciidoctor draws the box, ✓ or ❏ (a glyph of the
                    # icon font with icons=font); asciidoc-py showed "[x]" as text
                    line = _CHECKLIST.sub(lambda m: m.group(1) + ("❏" if m.group(2) == " " else "✓"), line)
                if line.startswith("video::") and len(line) <= 2000:
                    line = _VIDEO_SERVICE.sub(_video_service_url, line)
                if line.startswith("image::") and "title" in line and len(line) <= 2000:
                    titled = _BLOCK_IMAGE_TITLE.match(line)
                    if titled:  # image::x.png[Alt,title="Caption"]: the caption a .Title line gives
                        title = next(g for g in titled.group(2, 3, 4) if g is not None).strip()
                        line = titled.group(1) + titled.group(5)
                        if title and out and re.match(r"^\.[^.\s]", out[-1]):
                            out[-1] = "." + title
                        elif title:
                            out.append("." + title)
                if "{" in line:
                    line = self.macro_values(line)
                out.append(self.escape_missing(self.inline_macros(line, file_rel)))
            else:
                if line.strip() == verbatim:
                    verbatim, verbatim_subs, verbatim_quotes = None, False, False
                else:
                    if verbatim_subs:
                        line = self.sub_chars(line)
                    if verbatim_quotes:
                        line = _mono_quotes(line)
                out.append(line)
        return out

    def inline_macros(self, line: str, file_rel: str) -> str:
        """Asciidoctor inline macros asciidoc-py does not know, reduced to what a reader sees:
        ``kbd:[Ctrl+C]``, ``btn:[Save]``, ``menu:File[Save > As]``, ``icon:cog[]`` (``[cog]``), ``<<id,text>>``,
        ``xref:page.adoc[]`` (the target page's title, as Antora shows it), ``stem:[...]`` as the
        ``latexmath:``/``asciimath:`` macro the ``stem`` attribute names, ``pass:q,a[...]`` with
        the substitution names asciidoc-py knows (``quotes,attributes``), the text of an xref
        to another version's page (``xref:3.9@comp::page.adoc[text]``), link text
        with named attributes or a trailing ``^`` (see :func:`_link_text`), a link to a
        passthrough target (``link:++https://host/a_b++[text]``) as its text, and a
        link around an inline image (the image), an inline image whose attribute list
        starts with a named attribute (no alt: asciidoc-py read ``align=`` as the alt)."""
        if "icon:" in line:  # Asciidoctor's text form of an icon (icons not set to font): [name], or [alt]
            line = _ICON.sub(lambda m: f"[{m.group(2) or m.group(1)}]", line)
        if ":[" in line or "menu:" in line:
            line = _KBD_BTN.sub(lambda m: m.group(1), line)
            line = _MENU.sub(lambda m: " > ".join(p.strip() for p in [m.group(1), *m.group(2).split(">")] if p.strip()),
                             line)
        if "<<" in line:
            # <<id,text>> here; <<id>> (no text) gets its target's title in asciidoc_blocks.xref_texts
            line = _XREF_ANGLE.sub(lambda m: m.group(2).strip() if m.group(2) else m.group(0), line)
        if "xref:" in line:
            if "{" in line:
                line = _XREF_TARGET_ATTR.sub(lambda m: f"xref:{self.sub(m.group(1))}[", line)
            line = _XREF_EMPTY.sub(lambda m: self.xref_text(m.group(1), file_rel), line)
            if "@" in line:  # the link text is what a reader sees (Asciidoctor keeps it as written)
                line = _XREF_VERSIONED.sub(lambda m: m.group(2), line)
        if "image:" in line and " " in line:
            # a target with spaces (Asciidoctor's BlockMediaMacroRx/InlineImageMacroRx allow them; the
            # HTML converter writes them as %20), which asciidoc-py's image macros do not match
            line = _SPACED_IMAGE.sub(lambda m: m.group(0) if " " not in m.group(2) or m.group(2)[-1].isspace()
                                     else m.group(1) + m.group(2).replace(" ", "%20") + "[", line)
        if "[image:" in line:
            line = _LINKED_IMAGE.sub(lambda m: m.group(1), line)
        if "image:" in line and "," in line:
            # image:gear.png[Settings,16] / [Settings,width=16]: Asciidoctor's width (and height); asciidoc-py
            # dropped both, so an icon drawn 16 px wide was taken for a figure
            line = _IMAGE_ATTRLIST.sub(_image_size_attrs, line)
        if "image:" in line and "=" in line:
            if "alt" in line:  # image::x.png[alt=Architecture]: Asciidoctor's alt (asciidoc-py showed 'alt=...')
                line = _IMAGE_NAMED_ALT.sub(_alt_positional, line)
            # image:x.png[align="left"]: no alt given (Asciidoctor: the file name); asciidoc-py took 'align='
            line = _INLINE_IMAGE_NAMED_FIRST.sub(r"\1[,", line)
        if "link:++" in line:
            line = _passthrough_links(line)
        if "pass:" in line:
            line = _PASS_SUBS.sub(_pass_subs, line)
        if "stem:[" in line:
            # Asciidoctor's stem macro is the interpreter the stem attribute names (latexmath for
            # latexmath/latex/tex, else asciimath; docs: stem/stem, "stem attribute"); asciidoc-py
            # knows only the two named macros and left 'stem:[...]' as text
            kind = "latexmath" if self.attrs.get("stem", "").strip() in ("latexmath", "latex", "tex") else "asciimath"
            line = _STEM_MACRO.sub(kind + ":[", line)
        if "[" in line and ("^]" in line or "=" in line):
            line = _LINK_MACRO.sub(lambda m: f"{m.group(1)}[{_link_text(m.group(2))}]", line)
        return line

    def xref_text(self, target: str, file_rel: str) -> str:
        """What ``xref:target[]`` shows: a reference to an id of this page (``#id``, a
        target with no file extension: Asciidoctor's internal reference, or this page's
        own file with a fragment) as ``<<id>>``, whose text
        :func:`~murar.ingest.markup.asciidoc_blocks.xref_texts` fills in; a deep link to
        another page (``other.adoc#id``) as written, as Antora leaves it ("Page Link Text":
        the text is not populated when a fragment is given); a page's reftext or title
        otherwise (:meth:`page_title`)."""
        path, _, fragment = target.partition("#")
        if not path and fragment:
            return f"<<{fragment}>>"
        if not fragment and not re.search(r"[.:$/]", path):
            return f"<<{path}>>"
        if fragment:
            # Antora (convert-page-ref): a deep link to another page gets no title, its text is the
            # reference as written; to this very page it is an internal reference
            head, sep, tail = path.rpartition(":")
            res = self.site.resolve_include(path if "$" in path else f"{head}{sep}page${tail}", page_rel=file_rel)
            if res.rel_path is not None and res.rel_path == self.page_rel:
                return f"<<{fragment}>>"
            return target
        return self.page_title(target, file_rel)

    def page_title(self, target: str, file_rel: str) -> str:
        """The link text Antora gives an ``xref:`` to a page: the target page's ``reftext``
        (a ``:reftext:`` entry in its header, "Customize reftext and navtitle"), else its
        title (``= Title``, or a two-line one), else its file name in words."""
        page = target.split("#", 1)[0]
        fallback = re.sub(r"[-_]+", " ", PurePosixPath(re.split(r"[:$]", page)[-1]).stem).strip()
        if page not in self.titles:
            title = ""
            head, sep, tail = page.rpartition(":")
            rid = page if "$" in page else f"{head}{sep}page${tail}"
            res = self.site.resolve_include(rid, page_rel=file_rel)
            if res.rel_path is not None and (self.site.config.root / res.rel_path).is_file():
                try:
                    with (self.site.config.root / res.rel_path).open(encoding="utf-8", errors="replace") as fh:
                        top = [fh.readline().rstrip("\n") for _ in range(40)]
                    lines = setext_titles(top)  # a two-line title too
                    for i, line in enumerate(lines):
                        m = _DOC_TITLE.match(line)
                        if m:
                            title = self.sub(m.group(1).strip())
                            # the header's attribute entries: a reftext there is the link text (Antora)
                            for entry in lines[i + 1:]:
                                em = ATTR_ENTRY.match(entry)
                                if not em:
                                    if entry.strip() and not entry.startswith("//"):
                                        break
                                    continue
                                if em.group(2) == "reftext" and em.group(4) and not (em.group(1) or em.group(3)):
                                    title = self.sub(em.group(4).strip())
                            break
                except OSError:
                    title = ""
            self.titles[page] = title
        return self.titles[page] or fallback

    def macro_values(self, line: str) -> str:
        """``line`` with each reference to an attribute whose value holds an inline macro
        this preprocessor reads (``xref:``, ``<<id>>``, ``kbd:``/``btn:``/``menu:``,
        ``icon:``, ``pass:``, ``stem:``) replaced by that value: Asciidoctor substitutes
        attributes before macros (docs: subs, "Substitution order"), so an ``antora.yml``
        attribute ``hosted-docs: xref:hosted:index.adoc[]`` is a cross reference where
        ``{hosted-docs}`` is written (asciidoc-py showed ``[hosted:index.adoc]``)."""
        def repl(m: re.Match[str]) -> str:
            value = None if m.group(1) else self.attrs.get(m.group(2))
            return value if value is not None and _MACRO_IN_VALUE.search(value) else m.group(0)
        return _ATTR_REF.sub(repl, line)

    def escape_missing(self, line: str) -> str:
        """Keep ``{name}`` as written when ``name`` is defined nowhere (asciidoc-py drops such lines)."""
        def repl(m: re.Match[str]) -> str:
            if m.group(1) or m.group(2) in self.attrs or m.group(2) in _BUILTIN_ATTRS:
                return m.group(0)
            return "\\" + m.group(0)
        return _ATTR_REF.sub(repl, line)

    def include(self, target: str, attrlist: str, *, file_rel: str, depth: int, chain: tuple[str, ...],
                in_verbatim: bool = False, with_subs: bool = False) -> list[str]:
        raw = target
        target = self.sub(target)
        if re.match(r"^[a-z][a-z0-9+.-]*://", target, re.IGNORECASE):
            self.warnings.append(f"include {raw!r}: remote includes are not read")
            return []
        res = self.site.resolve_include(target, page_rel=file_rel)
        if res.rel_path is None:
            self.warnings.append(f"include {raw!r}: {res.problem or 'not resolved'}")
            return []
        path = self.site.config.root / res.rel_path
        if not path.is_file():
            if not _optional(attrlist):  # Asciidoctor drops a missing optional include silently
                self.warnings.append(f"include {raw!r}: file not found ({res.rel_path})")
            return []
        if res.rel_path in chain or res.rel_path == self.page_rel:
            self.warnings.append(f"include {raw!r}: include cycle; skipped")
            return []
        if depth >= self.opts.max_include_depth:
            self.warnings.append(f"include {raw!r}: nested deeper than {self.opts.max_include_depth}; skipped")
            return []
        self.includes += 1
        if self.includes > 500:
            self.warnings.append(f"include {raw!r}: more than 500 includes in one page; skipped")
            return []
        try:
            text = read_source(path, max_bytes=self.opts.max_bytes, warnings=self.warnings)
        except IngestError as err:
            self.warnings.append(f"include {raw!r}: {err}")
            return []
        self.included.append(res.rel_path)
        opts = _attrlist(attrlist)
        lines = _select(text.splitlines(), opts)
        if not self.included_chars.spend_chars(sum(len(line) + 1 for line in lines), f"include {raw!r}", self.warnings):
            return []
        offset = opts.get("leveloffset", "")
        if PurePosixPath(res.rel_path).suffix.lower() not in (".adoc", ".asciidoc", ".asc", ".txt"):
            return [self.sub_chars(ln) for ln in lines] if with_subs else lines  # code included into a listing
        inner = self.run("\n".join(lines), file_rel=res.rel_path, depth=depth + 1, chain=(*chain, file_rel),
                         in_verbatim=in_verbatim, with_subs=with_subs)
        return _leveloffset(inner, offset) if offset and not in_verbatim else inner


_BLOCK_ATTRS = re.compile(r"^\[([^\[\]]*)\]\s*$")
_SUBS_ENTRY = re.compile(r"""\s*,?\s*\bsubs\s*=\s*("[^"]*"|'[^']*'|[^,\]]*)""")
# a backtick monospace span (not the literal ``+...+`` form): Asciidoctor substitutes attributes in it,
# asciidoc-py shows it as a literal
_MONO_LITERAL = re.compile(r"(?<![\w`\\])`\+([^`\n]*?)\+`(?![\w`])")
_MONOSPACE = re.compile(r"((?<![\w`\\])`)(?!\+)([^`\n]+?)(`(?![\w`]))")


# a table's cols="..." value: Asciidoctor's autowidth column width "~" (cols="2*.>~a") is an illegal
# column spec to asciidoc-py, which then lost the whole table (its cells' images too); without it the
# columns share the width, as they do in a table read as text; percentage widths ("33%,33%,33%") are
# proportions to Asciidoctor, while asciidoc-py reported an error when they do not add up to 100
_COLS_AUTOWIDTH = re.compile(r"""\bcols\s*=\s*(?:"[^"]*"|'[^']*'|[^,\]]*)""")
_ROLE_BEFORE_MONO = re.compile(r"(?<![\w\]\\])\[[\w.-]+\](?=`[^`\s])")
_MONO_QUOTES = (
    re.compile(r"\[[^\]\s]+\]#([^#\n]+?)#"),  # [role]#text#
    # the doubled (unconstrained) forms take any text up to the next pair, single marks included
    # (Asciidoctor's QUOTE_SUBS: ``__(.+?)__``), so ``__<secret_name>__`` is the emphasised "<secret_name>"
    re.compile(r"##([^\n]+?)##"),
    re.compile(r"(?<![\w#])#([^#\s](?:[^#\n]*?[^#\s])?)#(?![\w#])"),
    re.compile(r"\*\*([^\n]+?)\*\*"),
    re.compile(r"(?<![\w*])\*([^*\s](?:[^*\n]*?[^*\s])?)\*(?![\w*])"),
    re.compile(r"__([^\n]+?)__"),
    re.compile(r"(?<![\w_])_([^_\s](?:[^_\n]*?[^_\s])?)_(?![\w_])"),
)


# Asciidoctor's InlineLinkRx / InlineLinkMacroRx: a backslash before a URL scheme or a link/mailto
# macro (at the start, after a blank or one of >()[];"') stops the link and is not shown
_ESCAPED_URL = re.compile(r"""(?:^|(?<=[\s>()\[\];"']))\\(?=(?:https?|file|ftp|irc)://|(?:link|mailto):)""")


def _pass_subs(m: re.Match[str]) -> str:
    """``pass:q,a[`` with Asciidoctor's substitution names written as asciidoc-py's
    (``pass:quotes,attributes[``); asciidoc-py stopped the whole page at a name it did
    not know ('illegal passthrough macro subs option: q')."""
    names = list(dict.fromkeys(_PASS_SUB_NAMES[n] for n in m.group(1).split(",") if n in _PASS_SUB_NAMES))
    return f"pass:{','.join(names)}[" if names else "pass:["


def _video_service_url(m: re.Match[str]) -> str:
    """``video::rPQoq7ThGAU[youtube]`` as ``video::https://www.youtube.com/embed/rPQoq7ThGAU[``:
    Asciidoctor reads the target of a video whose ``poster`` is ``youtube``/``vimeo``/``wistia`` as
    that service's video ID (a YouTube target may list more IDs after the first, ``a,b``, or a
    playlist, ``id/list``); asciidoc-py took it for a file beside the page."""
    vid = re.split(r"[,/]", m.group(1))[0]
    return f"video::{_VIDEO_EMBED[m.group(2).lower()].format(vid)}["


def _image_size_attrs(m: re.Match[str]) -> str:
    """``image::x.png[Alt,300,200,role=thumb]`` as ``image::x.png["Alt",width="300",height="200",role="thumb"]``.

    Asciidoctor reads an image macro's positional attributes as ``alt``, ``width``, ``height``
    (docs.asciidoctor.org: images, "Image macro attributes"); asciidoc-py read only the alt and,
    after an unquoted alt, no named attribute either, so a declared width never reached the
    page (an icon shown 16 px wide counted as a figure). A list that opens with a named
    attribute is left to the rules for those (:func:`_alt_positional`)."""
    items = [it.group(1) for it in _ATTR_ITEM.finditer(m.group(2))][:20]
    while items and not items[-1].strip():  # (the pattern's empty match at the end)
        items.pop()
    if not items or _NAMED_ITEM.match(items[0]):
        return m.group(0)
    matched = [(it, _NAMED_ITEM.match(it)) for it in items]
    positional = [it for it, n in matched if n is None]
    named = [n for _, n in matched if n is not None]
    if len(positional) < 2 and not named:
        return m.group(0)
    out = ['"' + positional[0].strip().strip('"').replace('"', "") + '"']
    given = {n.group(1) for n in named}
    for key, value in zip(("width", "height"), positional[1:3]):
        if value.strip() and key not in given:
            out.append(f'{key}="{value.strip().strip(chr(34))}"')
    for n in named:
        out.append(f'{n.group(1)}="{n.group(2).strip().strip(chr(39)).strip(chr(34)).replace(chr(34), "")}"')
    return f"{m.group(1)}[{','.join(out)}]"


def _alt_positional(m: re.Match[str]) -> str:
    """``image::x.png[alt=Text,width=30]`` as ``image::x.png["Text",width=30]``: asciidoc-py
    reads only the first positional attribute as the alt text; Asciidoctor also the named
    ``alt`` (image macro attributes: ``alt``, ``width``, ``height``, by name or position)."""
    attrs = m.group(2)
    named = _NAMED_ALT.search(attrs)
    if named is None:
        return m.group(0)
    alt = next(g for g in named.groups() if g is not None).strip().replace('"', "")
    rest = _attrlist(attrs[:named.start()] + attrs[named.end():])
    # every value quoted: asciidoc-py reads a list with one unquoted word value (align=center) as one alt
    others = "".join(f',{k}="{v.replace(chr(34), "")}"' for k, v in rest.items())
    return f'{m.group(1)}["{alt}"{others}]'


def _mono_span(text: str) -> str:
    """A backtick monospace span's text as Asciidoctor shows it: :func:`_mono_quotes`,
    an escaped URL (```\\http://host/x```: the macros substitution runs inside
    monospace too) without its backslash, which asciidoc-py's literal span kept, and
    character references as their characters (:func:`_char_refs`)."""
    text = _mono_quotes(text)
    if "&" in text:
        text = _char_refs(text)
    return _ESCAPED_URL.sub("", text) if "\\" in text else text


# Asciidoctor's replacements substitution restores an HTML character reference its special
# characters substitution escaped: a named (&lt;), decimal (&#169;) or hex (&#x2014;) one
# (https://docs.asciidoctor.org/asciidoc/latest/subs/replacements/)
_CHAR_REF = re.compile(r"&(?:[a-zA-Z][a-zA-Z]+\d{0,2}|#\d\d\d{0,4}|#x[\da-fA-F][\da-fA-F][\da-fA-F]{0,3});")
# characters that would end or mark up the span if a reference were written as them
_SPAN_MARKUP = frozenset("`\\+{}[]#*_")


def _char_refs(text: str) -> str:
    """``&lt;=`` in a backtick monospace span as ``<=``, the character Asciidoctor shows
    (its replacements substitution runs inside monospace; asciidoc-py's literal span
    showed "&lt;="). A reference to a character that would end or mark up the span
    (a backtick, ``+``, ``#``), or one HTML does not name, stays as written."""
    def char(m: re.Match[str]) -> str:
        out = html_unescape(m.group(0))
        return m.group(0) if out == m.group(0) or any(c in _SPAN_MARKUP for c in out) else out
    return _CHAR_REF.sub(char, text)


def _mono_quotes(text: str) -> str:
    """The text of a backtick monospace span as Asciidoctor shows it: its inline
    formatting marks (``[role]#x#``, ``#x#``, ``*x*``, ``_x_`` and their doubled
    forms) applied, so only their text is left. Asciidoctor applies the normal
    substitutions inside monospace; asciidoc-py's backtick span is literal and showed
    the marks (```[in]#opendb pawn.g#``` read as "[in]#opendb pawn.g#")."""
    for pattern in _MONO_QUOTES:
        if any(ch in text for ch in "#*_"):
            text = pattern.sub(r"\1", text)
    return text


def _block_subs(line: str) -> tuple[str, bool, bool]:
    """A block attribute line without its ``subs=`` entry, whether that entry
    turns attribute substitution on (``attributes``, ``+attributes``,
    ``attributes+``, ``normal``) and whether it turns inline formatting on
    (``quotes``, ``+quotes``, ``quotes+``, ``normal``: the marks of ``*2.8*`` or
    ``[prompt]#mged>#`` in a literal block are applied, only their text is left).

    Asciidoctor's incremental forms (``attributes+``, ``-callouts``) make
    asciidoc-py fail on the whole page, and its ``[source]`` blocks ignore
    ``subs``; the preprocessor substitutes the block's attributes itself.
    """
    m = _SUBS_ENTRY.search(line)
    if not m:
        return line, False, False
    subs = [s.strip() for s in m.group(1).strip("\"'").split(",")]
    on = any(s.lstrip("+").rstrip("+") in ("attributes", "normal") and not s.startswith("-") for s in subs)
    quotes = any(s.lstrip("+").rstrip("+") in ("quotes", "normal") and not s.startswith("-") for s in subs)
    rest = line[: m.start()] + line[m.end():]
    rest = re.sub(r"^\[\s*,", "[", rest)
    return ("" if rest.strip() == "[]" else rest), on, quotes
_SHORTHAND = re.compile(r"([.#%])([^.#%]+)")


_BACKTICK_RUN = re.compile(r"^(\s*)(`{8,})")


def _defuse_backtick_run(line: str) -> str:
    """A line starting with 8 or more backticks, as ``{backtick}`` references.

    asciidoc-py's block regexes backtrack exponentially on such a line (20
    backticks: seconds; 30: hours; found by ``benchmarks/fuzz.py``, issue 11). No
    AsciiDoc or Asciidoctor construct starts with more than four backticks, and
    ``{backtick}`` renders the same characters.
    """
    m = _BACKTICK_RUN.match(line)
    if not m:
        return line
    return m.group(1) + "{backtick}" * len(m.group(2)) + line[m.end():]


def _shorthand(line: str) -> str:
    """Asciidoctor's block attribute shorthand (``[.role]``, ``[#id]``, ``[%header]``,
    ``[source%nowrap,java]``) in the long form asciidoc-py reads."""
    m = _BLOCK_ATTRS.match(line)
    if not m:
        return line
    parts = m.group(1).split(",", 1)
    first = parts[0].strip()
    if not first or first[0] == '"' or "=" in first or not re.search(r"[.#%]", first):
        return line
    style = re.split(r"[.#%]", first, maxsplit=1)[0]
    roles: list[str] = []
    ids: list[str] = []
    opts: list[str] = []
    for kind, value in _SHORTHAND.findall(first[len(style):]):
        (roles if kind == "." else ids if kind == "#" else opts).append(value.strip())
    out = [style] if style else []
    if roles:
        out.append(f'role="{" ".join(roles)}"')
    if ids:
        out.append(f'id="{ids[0]}"')
    if opts:
        out.append(f'options="{",".join(opts)}"')
        if "collapsible" in opts:  # a collapsible block's title is its toggle text: no "Example N." caption
            out.append('caption=""')
    rest = parts[1].strip() if len(parts) > 1 else ""
    return "[" + ", ".join([*out, rest] if rest else out) + "]"


_TABS_STYLE = re.compile(r"^\[tabs\s*(?:,.*)?\]\s*$")
#: the role a ``[tabs]`` block renders with, so the walker can tell it from an ordinary example block
_TABS_ROLE = "murar-tabs"
# elements the HTML walker descends into recursively; deeper ones are read flat (see _HtmlWalker.walk)
_MAX_WALK_DEPTH = 150


def _mark_tabs(line: str) -> str:
    """An Asciidoctor Tabs attribute line (``[tabs]``, ``[tabs, options="sync"]`` after
    :func:`_shorthand`) as ``[role="murar-tabs"]``.

    asciidoc-py has no ``tabs`` style: it renders such a block as a plain example
    block and ignores the whole attribute list (id and options included), so the
    role is the only difference in its HTML — a class on the ``exampleblock`` div.
    """
    return f'[role="{_TABS_ROLE}"]' if _TABS_STYLE.match(line) else line


_DISCRETE = re.compile(r"^\[discrete(?=[\],.#%])")
_ATTR_CONTINUED = re.compile(r"^:!?[\w][\w-]*!?:.*[ \t]\\$")


def _join_attribute_continuations(lines: list[str]) -> list[str]:
    """Attribute entries whose value goes on over lines ending in `` \\`` joined
    into one line, as Asciidoctor reads them ("Splitting values over multiple lines")."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        joined = 0
        while _ATTR_CONTINUED.match(line) and i + 1 < len(lines) and joined < 50:
            i += 1
            joined += 1
            line = line[:-1].rstrip() + " " + lines[i].strip()
        out.append(line)
        i += 1
    return out


def _optional(attrlist: str) -> bool:
    """Whether an include's attribute list marks it optional (``opts=optional``, ``%optional``)."""
    opts = _attrlist(attrlist)
    values = f"{opts.get('opts', '')},{opts.get('options', '')}"
    return "optional" in re.split(r"[,\s]+", values) or "%optional" in attrlist


def _attrlist(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in re.finditer(r'([\w-]+)\s*=\s*("([^"]*)"|[^,]*)', text):
        out[m.group(1)] = m.group(3) if m.group(3) is not None else m.group(2).strip()
    return out


_MAX_SELECTED_LINES = 100_000  # lines one include may select (``lines=1..-1;1..-1;...`` repeats them)
_MAX_INDENT = 80


def _select(lines: list[str], opts: dict[str, str]) -> list[str]:
    """Apply ``lines=`` (``1..5;10..-1``), ``tag=``/``tags=`` and ``indent=``.
    Numbers are clamped (:func:`~murar.ingest.mdlimits.bounded_int`), at most
    :data:`_MAX_SELECTED_LINES` lines are selected and ``indent`` is at most
    :data:`_MAX_INDENT`."""
    if "lines" in opts:
        keep: list[str] = []
        for part in re.split(r"[;,]", opts["lines"]):
            if len(keep) >= _MAX_SELECTED_LINES:
                break
            m = re.match(r"^\s*(\d+)(?:\.\.(-?\d+))?\s*$", part)
            if not m:
                continue
            a = bounded_int(m.group(1)) or 0
            b = (bounded_int(m.group(2)) or 0) if m.group(2) else a
            keep.extend(lines[max(a - 1, 0): None if b == -1 else b])
        lines = keep[:_MAX_SELECTED_LINES]
    tags = opts.get("tags") or opts.get("tag")
    if tags:
        lines = _select_tags(lines, tags)
    if "indent" in opts and opts["indent"].isdigit():
        body = [ln for ln in lines if ln.strip()]
        strip = min((len(ln) - len(ln.lstrip(" ")) for ln in body), default=0)
        pad = " " * min(bounded_int(opts["indent"]) or 0, _MAX_INDENT)
        lines = [pad + ln[strip:] if ln.strip() else ln for ln in lines]
    return lines


def _select_tags(lines: list[str], spec: str) -> list[str]:
    """The lines an include's ``tag=``/``tags=`` keeps, by Asciidoctor's rules
    (Reader#preprocess_include_directive): ``a;b`` the named regions, ``!a`` all but
    that region (only negations imply ``**``), ``**`` every line, ``*`` every tagged
    region (untagged lines left out), combinable (``**;!secret``, ``*;!b``); tag
    directive lines are never kept; a region inherits the selection it sits in."""
    wanted: dict[str, bool] = {}
    for tag in re.split(r"[;,]", spec.strip().strip("\"'")):
        tag = tag.strip()
        if tag:
            wanted[tag.lstrip("!")] = not tag.startswith("!")
    wildcard: bool | None
    if "**" in wanted:
        base = wanted.pop("**")
        wildcard = wanted.pop("*") if "*" in wanted else base
    else:
        base = not any(wanted.values())
        wildcard = wanted.pop("*", None)
    keep: list[str] = []
    stack: list[tuple[str, bool]] = []
    select = base
    for line in lines:
        tm = _TAG_LINE.search(line) if "::" in line and "[]" in line else None
        if tm:
            kind, name = tm.group(1), tm.group(2)
            if kind == "end":
                if stack and stack[-1][0] == name:
                    stack.pop()
                    select = stack[-1][1] if stack else base
            elif name in wanted:
                select = wanted[name]
                stack.append((name, select))
            elif wildcard is not None:
                select = False if stack and not select else wildcard
                stack.append((name, select))
            continue
        if select:
            keep.append(line)
    return keep


def _leveloffset(lines: list[str], offset: str) -> list[str]:
    try:
        n = int(offset)
    except ValueError:
        return lines
    out = []
    for line in lines:
        m = _HEADING.match(line)
        if m:
            level = max(1, min(6, len(m.group(1)) + n))
            line = "=" * level + m.group(2)
        out.append(line)
    return out


def _ifeval(expr: str) -> bool:
    """Asciidoctor's ``ifeval`` comparison (``"a" == "b"``, ``{n} > 2``), without ``eval``."""
    m = re.match(r"^\s*(.+?)\s*(==|!=|<=|>=|<|>)\s*(.+?)\s*$", expr)
    if not m:
        return False

    def value(v: str) -> Any:
        v = v.strip()
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
            return v[1:-1]
        try:
            return float(v)
        except ValueError:
            return v

    a, op, b = value(m.group(1)), m.group(2), value(m.group(3))
    if type(a) is not type(b):
        a, b = str(a), str(b)
    try:
        return bool({"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op])
    except TypeError:
        return False


def _blocks_as_asciidoctor(lines: list[str], attrs: dict[str, str] | None = None) -> list[str]:
    """Preprocessed ``lines`` rewritten where Asciidoctor's block rules differ from
    asciidoc-py's (dangling and detached continuations, implicit table header rows, compound block ends,
    auto-numbered callouts, cross reference text, Markdown-style blockquotes and fenced
    code blocks, [source]/[listing]/[literal] paragraphs, CSV/DSV table shorthands, verbatim blocks' ``indent``, unquoted attribute values,
    level-5 section titles); ``attrs``:
    the attributes the page starts with (``xrefstyle``, ``sectnums``...)."""
    icons = (attrs or {}).get("icons") is not None  # the page's own entries are followed by auto_callouts
    return section_ids(shorthand_tables(level5_titles(xref_texts(auto_callouts(compound_block_ends(
        table_leading_blanks(implicit_table_headers(
        attached_paragraph_ends(dangling_continuations(continuation_runs(detached_continuations(text_after_attached_blocks(
        markdown_quotes(quoted_attribute_values(block_indents(monospace_hard_breaks(styled_verbatim_paragraphs(
        fenced_code_blocks(lines)))))))))))))), icons=icons), attrs))),
        {**_CHAR_ATTRS, **(attrs or {})})


def preprocess_asciidoc(text: str, *, site: Site, page_rel: str, attrs: dict[str, str] | None = None,
                        options: MarkupOptions | None = None, warnings: list[str] | None = None) -> str:
    """Run the AsciiDoc preprocessor on ``text`` (see module doc); never raises for bad content."""
    pre = _Pre(site=site, page_rel=page_rel, attrs=attrs or {}, options=options or MarkupOptions(),
               warnings=warnings if warnings is not None else [])
    return "\n".join(_blocks_as_asciidoctor(pre.run(text, file_rel=page_rel), attrs))


# --------------------------------------------------------------------- render
@contextlib.contextmanager
def _hardened(doc_attrs: dict[str, str] | None = None) -> Iterator[Any]:
    """asciidoc-py with no command execution (see module doc), one render at a time;
    ``doc_attrs``: the document's attributes, which its AsciiDoc cells inherit."""
    try:
        from asciidoc import asciidoc as engine
        from asciidoc.api import AsciiDocAPI
    except ImportError as err:  # pragma: no cover - core dependency
        raise MissingExtraError("asciidoc", "core") from err
    with _LOCK:
        saved_filter, saved_system = engine.filter_lines, engine.system

        def no_filter(filter_cmd: str, lines: Any, attrs: Any = None) -> Any:
            # filter output is inserted as HTML: give back escaped text, never the raw source
            if not filter_cmd or not str(filter_cmd).strip():
                return lines  # no filter (every table cell asks): already HTML, as asciidoc-py returns it
            if "asciidoc" in str(filter_cmd):  # an "a|" cell or [asciidoc] block: plain text of it
                return cell_lines(lines, doc_attrs)
            return [html_escape(str(line), quote=False) for line in lines]

        def guarded_system(name: str, args: str, is_macro: bool = False, attrs: Any = None) -> Any:
            if name in _BLOCKED_SYSTEM:
                return None
            return saved_system(name, args, is_macro, attrs)

        engine.filter_lines = no_filter
        engine.system = guarded_system
        try:
            yield AsciiDocAPI
        finally:
            engine.filter_lines, engine.system = saved_filter, saved_system


def _engine() -> Any:
    from asciidoc import asciidoc as engine

    return engine


def _bounded_sub(text: str, repl: Callable[[re.Match[str]], str], limit: int, *, cut: bool = False) -> str | None:
    """``_ATTR_REF.sub(repl, text)`` while it stays within ``limit`` characters; past
    it, None (or, with ``cut``, the first ``limit`` characters), without building
    the whole result."""
    out: list[str] = []
    size = pos = 0
    for m in _ATTR_REF.finditer(text):
        piece = repl(m)
        out += (text[pos:m.start()], piece)
        size += m.start() - pos + len(piece)
        pos = m.end()
        if size > limit:
            return "".join(out)[:limit] if cut else None
    out.append(text[pos:])
    size += len(text) - pos
    if size > limit:
        return "".join(out)[:limit] if cut else None
    return "".join(out)


def _page_references_bounded(lines: list[str], attrs: dict[str, str], warnings: list[str]) -> list[str]:
    """``lines`` with the attribute references past the page's budget escaped (shown as
    written): each reference to a defined attribute outside an attribute entry spends its
    value's length, at most :data:`MAX_PAGE_SUBSTITUTED_CHARS` in all (values are bounded
    one by one at :data:`MAX_ATTRIBUTE_CHARS`, not their number of uses); one warning
    when it runs out."""
    budget = PageCharBudget(MAX_PAGE_SUBSTITUTED_CHARS, "attribute references over {limit} substituted characters"
                            " in the page: {what} and the later ones shown as written")

    def spend(m: re.Match[str]) -> str:
        if m.group(1) or m.group(2) not in attrs:
            return m.group(0)
        return m.group(0) if budget.spend(attrs[m.group(2)], m.group(0), warnings) else "\\" + m.group(0)

    return [_ATTR_REF.sub(spend, line) if "{" in line and not _ENTRY_LINE.match(line) else line for line in lines]


def _value_refs(value: str, attrs: dict[str, str], depth: int = 4,
                _done: dict[tuple[str, int], str] | None = None) -> str:
    """An attribute ``value`` as asciidoc-py may be given it: references to other
    defined attributes replaced by their values (up to ``depth`` levels), the
    rest escaped so they show as written.

    asciidoc-py does not substitute inside a value passed to it, and drops the
    whole line of a reference whose value holds ``{name}``; Asciidoctor shows a
    missing attribute reference as written (``attribute-missing: skip``).
    The result is cut at :data:`MAX_ATTRIBUTE_CHARS` characters; each attribute is
    expanded once per level (a value of 30,000 references to one of 30,000
    references... is not expanded 30,000**4 times).
    """
    if "{" not in value:
        return value
    done = {} if _done is None else _done

    def sub(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(0)
        inner = attrs.get(m.group(2))
        if inner is None:
            return _CHAR_ATTRS.get(m.group(2), "\\" + m.group(0))
        if depth <= 0:
            return "\\" + m.group(0)
        key = (m.group(2), depth - 1)
        if key not in done:
            done[key] = _value_refs(inner, attrs, depth - 1, done)
        return done[key]

    return _bounded_sub(value, sub, MAX_ATTRIBUTE_CHARS, cut=True) or ""


# asciidoc-py's quote marks that Asciidoctor 2 knows only in compat-mode, turned off
_ASCIIDOCTOR_QUOTES = Path(__file__).with_name("asciidoctor_quotes.conf")
_COMPAT_MODE_ENTRY = re.compile(r"^:compat-mode:", re.MULTILINE)


def _render_attrs(lines: list[str], final: dict[str, str], initial: dict[str, str]) -> dict[str, str]:
    """The attributes handed to asciidoc-py, which override the page's own entries: the
    preprocessor's ``final`` values, except an attribute only the page defines (no site
    value in ``initial``) and defines more than once. asciidoc-py applies those entries
    where they stand, as Asciidoctor does (``:svc: Foo`` ... ``:svc: Bar``: "Foo" above
    the second entry); given the last value, it showed "Bar" everywhere."""
    entries = Counter(m.group(2) for line in lines if line.startswith(":") and (m := ATTR_ENTRY.match(line)))
    return {k: v for k, v in final.items() if entries[k] < 2 or k in initial}


def _render(text: str, attrs: dict[str, str], warnings: list[str]) -> tuple[str, bool]:
    """HTML of ``text`` and whether asciidoc-py stopped early (the HTML is then partial).

    Raises:
        IngestError: asciidoc-py produced nothing at all.
    """
    with _hardened(attrs) as api_cls:
        api = api_cls()
        api.options("--no-header-footer")
        if attrs.get("doctype") in ("book", "manpage"):  # asciidoc-py takes the doctype as an option only
            api.options("--doctype", attrs["doctype"])  # (a book may hold level-0 sections: parts)
        if "compat-mode" not in attrs and not _COMPAT_MODE_ENTRY.search(text):
            api.options("--conf-file", str(_ASCIIDOCTOR_QUOTES))  # 'x' is no emphasis outside compat-mode
        used = set(_ATTR_REF_NAMES.findall(text))  # passing only referenced ones keeps asciidoc-py fast
        for k, v in attrs.items():
            caption = k in _ADMONITION_CAPTIONS and f":{k}:" not in text  # (the page's own entry decides)
            if (k in used or caption) and k not in _FIXED_ATTRS and k not in _HTML_BACKEND_ATTRS \
                    and re.match(r"^[\w][\w-]*$", k):
                api.attributes[k] = _value_refs(v, attrs)
        for k in used & _CHAR_ATTRS_NOT_IN_ASCIIDOC_PY.keys():
            if k not in attrs:  # (a page or site may set its own value)
                api.attributes[k] = _CHAR_ATTRS_NOT_IN_ASCIIDOC_PY[k]
        api.attributes.update(_FIXED_ATTRS)
        out = io.StringIO()
        failed: BaseException | None = None
        try:
            api.execute(io.StringIO(text), out, backend="html5")
        except Exception as err:  # noqa: BLE001 - asciidoc-py exits 1 after any ERROR; output is written
            failed = err
        # asciidoc-py makes a fresh Message object per run: its list holds this run's messages only
        engine_messages = getattr(getattr(_engine(), "message", None), "messages", None)
        msgs = [str(m) for m in engine_messages] if isinstance(engine_messages, list) else []
        for msg in msgs:
            text_msg = msg.replace("asciidoc: ", "").replace("<stdin>: ", "")
            if "missing style:" in text_msg:
                continue  # [source,lang] and [tabs] render as plain listings/examples: not a problem
            warnings.append(text_msg[:300])
        if failed is not None and not out.getvalue().strip():
            raise IngestError(f"asciidoc-py failed: {msgs[-1] if msgs else type(failed).__name__}") from failed
        return out.getvalue(), any("FAILED" in m for m in msgs)


# ----------------------------------------------------------------------- walk
def _alt(img: LexborNode) -> str:
    """The alt text; asciidoc-py's default (the target itself, also under an
    ``imagesdir``) becomes Asciidoctor's (the file stem with ``-``/``_`` as spaces)."""
    src = img.attributes.get("src") or ""
    alt = img.attributes.get("alt") or ""
    # asciidoc-py's default alt is the macro's target, without the imagesdir its src starts with
    if not alt or alt == src or src.endswith("/" + alt):
        name = unquote(re.split(r"[:$]", src.split("?")[0])[-1])  # the path part of a resource ID
        return re.sub(r"[-_]+", " ", PurePosixPath(name).stem).strip()
    return alt


def _tab_panes(block: LexborNode) -> LexborNode | None:
    """The content ``<div>`` of a ``[tabs]`` example block that starts with a
    description list, else ``None`` (the block then stays an example block)."""
    content = next((c for c in _children(block) if "content" in (c.attributes.get("class") or "").split()), None)
    first = next(_children(content), None) if content is not None else None
    if first is None or first.tag != "div" or "dlist" not in (first.attributes.get("class") or "").split():
        return None
    return content


def _is_tab_term(dt: LexborNode, panes: LexborNode) -> bool:
    """Whether ``dt`` is a term of a description list right in ``panes`` (not a nested one)."""
    dl = dt.parent
    dlist = dl.parent if dl is not None else None
    return dl is not None and dl.tag == "dl" and dlist is not None and dlist.parent == panes


def _children(node: LexborNode) -> Iterator[LexborNode]:
    """The element children of ``node``."""
    child = node.child
    while child is not None:
        if child.is_element_node:
            yield child
        child = child.next


def _tab_label(dt: LexborNode) -> str | None:
    """The label of the tab a ``<dt>`` of a tab list starts: its term, joined with the
    terms right after it (one pane shown by several tabs); ``None`` for those later terms."""
    prev = dt.prev
    while prev is not None and not prev.is_element_node:
        prev = prev.prev
    if prev is not None and prev.tag == "dt":
        return None
    terms: list[str] = []
    node: LexborNode | None = dt
    while node is not None:
        if node.is_element_node:
            if node.tag != "dt":
                break
            terms.append(clean_text(node.text(separator=" ")))
        node = node.next
    return " / ".join(t for t in terms if t)


_CALLOUT_MARK = re.compile(r"<(\d{1,4})>")


def _titled_lone_image(node: LexborNode) -> tuple[str, LexborNode] | None:
    """(title, img) of a titled paragraph holding one inline image and nothing else
    (``.Create realm`` over ``image:create.png[]``): Asciidoctor draws the title right
    above the picture, so it reads as that picture's caption; else ``None``."""
    parts = list(_children(node))
    if len(parts) != 2 or parts[0].tag != "div" or "title" not in (parts[0].attributes.get("class") or "").split():
        return None
    para = parts[1]
    spans = list(_children(para)) if para.tag == "p" else []
    if len(spans) != 1 or spans[0].tag != "span" or "image" not in (spans[0].attributes.get("class") or "").split():
        return None
    imgs = spans[0].css("img")
    if len(imgs) != 1 or para.text(separator=" ").strip() != spans[0].text(separator=" ").strip():
        return None
    return clean_text(parts[0].text(separator=" ")), imgs[0]


# elements Asciidoctor writes inside a paragraph's text (an image's sentence runs through them)
_INLINE_TAGS = frozenset({"span", "a", "strong", "em", "b", "i", "code", "kbd", "mark", "sup", "sub", "small", "u",
                          "s", "del", "ins"})


class _HtmlWalker:
    def __init__(self, builder: PageBuilder) -> None:
        self.b = builder
        self.tab_panes: list[LexborNode] = []  # the content <div> of each open tab set, innermost last
        self.depth = 0  # elements being walked (walk() recurses)
        self._in_sentence: dict[int, dict[int, bool]] = {}  # text block -> its <img> -> words on its line

    def in_sentence(self, img: LexborNode) -> bool:
        """An image with words beside it in the text block it stands in, up to a
        ``<br>`` (an inline ``image:x[]`` macro in a sentence; as
        murar.ingest.html reads a rendered page). Each block
        is read once (a paragraph of 5,000 inline images is linear)."""
        block = img.parent
        for _ in range(50):
            if block is None or block.tag not in _INLINE_TAGS:
                break
            block = block.parent
        if block is None:
            return False
        if block.mem_id not in self._in_sentence:
            parts: list[str] = []
            images: list[int] = []
            for n in block.traverse(include_text=True):
                if n.is_text_node:  # HTML: a newline in text is a space; <br> ends a line
                    parts.append((n.text_content or "").replace(IMAGE_MARK, " ").replace("\n", " "))
                elif n.tag == "img":
                    parts.append(IMAGE_MARK)
                    images.append(n.mem_id)
                elif n.tag == "br":
                    parts.append("\n")
            self._in_sentence[block.mem_id] = dict(zip(images, marked_images_inline("".join(parts))))
        return self._in_sentence[block.mem_id].get(img.mem_id, False)

    def title_of(self, node: LexborNode) -> str:
        for child in node.iter():
            if child.tag == "div" and "title" in (child.attributes.get("class") or "").split():
                return _FIGURE_PREFIX.sub("", clean_text(child.text(separator=" ")))
        return ""

    def walk(self, node: LexborNode) -> None:
        if self.depth >= _MAX_WALK_DEPTH:
            # deeper than any page asciidoc-py renders (a hostile passthrough of thousands of
            # nested <div>): the rest is read as raw HTML is, without recursion
            self.b.html(node.html or "")
            return
        self.depth += 1
        try:
            for child in node.iter(include_text=True):
                self.visit(child)
        finally:
            self.depth -= 1

    def visit(self, node: LexborNode) -> None:
        tag = node.tag
        if tag == "-text":
            self.b.text(node.text_content or "")
            return
        if tag == "br":  # a line break inside a paragraph, which reads as one line
            self.b.text(" ")
            return
        if tag == "pre":  # passthrough <pre> (the listing blocks asciidoc-py writes are read below)
            self.b.end_paragraph()
            self.b.preformatted(pre_text(node))
            return
        if (tag == "div" and node.attributes.get("id") == "toc") or tag == "audio":
            # the table of contents a toc::[] macro places (Asciidoctor: a list of links to the page's
            # own sections; asciidoc-py: a "JavaScript must be enabled" placeholder) is navigation, and
            # the text inside <audio> is the fallback a browser without audio support shows
            return
        cls = (node.attributes.get("class") or "").split()
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.b.heading(int(tag[1]), node.text(separator=" "), node.attributes.get("id"))
            return
        if tag == "div" and _TABS_ROLE in cls and "exampleblock" in cls:
            panes = _tab_panes(node)
            if panes is not None:  # the page reads as the example block did; only the media learn their tab
                self.b.open_tab_set()
                self.tab_panes.append(panes)
                opened = self.b.open_container()
                self.walk(node)
                self.b.close_container(opened)
                self.tab_panes.pop()
                self.b.close_tab_set()
                self.b.end_paragraph()
                return
        if tag == "div" and _HEADING_SCOPES.intersection(cls):
            # a heading inside a delimited block is a discrete one (Asciidoctor permits no
            # section there): the text after the block is the section's around it again
            opened = self.b.open_container()
            self.walk(node)
            self.b.close_container(opened)
            self.b.end_paragraph()
            return
        if tag == "dt" and self.tab_panes and _is_tab_term(node, self.tab_panes[-1]):
            label = _tab_label(node)
            if label is not None:
                self.b.tab(label)
        if tag == "div" and "imageblock" in cls:
            self.b.end_paragraph()
            caption = self.title_of(node)
            for img in node.css("img"):
                self.b.image(img.attributes.get("src") or "", alt=_alt(img), caption=caption,
                             declared_width=px_width(img.attributes.get("width")))
            self.b.end_paragraph()
            return
        if tag == "div" and "paragraph" in cls:
            lone = _titled_lone_image(node)
            if lone is not None:
                self.b.end_paragraph()
                self.b.image(lone[1].attributes.get("src") or "", alt=_alt(lone[1]), caption=lone[0])
                self.b.end_paragraph()
                return
        if tag == "span" and "image" in cls:
            # an inline image macro (image:x[], one colon) with words beside it: an icon in a sentence
            for img in node.css("img"):
                self.b.image(img.attributes.get("src") or "", alt=_alt(img), inline=self.in_sentence(img),
                             declared_width=px_width(img.attributes.get("width")))
            return
        if tag == "img":
            self.b.image(node.attributes.get("src") or "", alt=_alt(node), inline=self.in_sentence(node))
            return
        if tag == "table" and "tableblock" in cls:
            cap = node.css_first("caption")
            caption = _FIGURE_PREFIX.sub("", clean_text(cap.text(separator=" "))) if cap else ""
            parsed = parse_table_node(node)
            for img in node.css("img"):
                self.b.image(img.attributes.get("src") or "", alt=_alt(img), caption=img.attributes.get("title") or "")
            self.b.table(parsed.headers, parsed.rows, caption)
            return
        if tag == "div" and "admonitionblock" in cls:
            self.b.end_paragraph()
            icon = node.css_first("td.icon")
            label = clean_text(icon.text(separator=" ")) if icon else ""
            content = node.css_first("td.content")
            first = next((c for c in content.iter() if c.tag != "-text"), None) if content is not None else None
            if label and first is not None and first.tag == "div" and "title" in (first.attributes.get("class") or ""):
                # [TIP] with a .Title: "Tip: Title" leads, as a titled admonition does on every generator
                self.b.text(f"{label}: {clean_text(first.text(separator=' '))}")
                self.b.end_paragraph()
                first.decompose()
            elif label:
                self.b.text(f"{label}: ")
            if content is not None:
                self.walk(content)
            self.b.end_paragraph()
            return
        if tag == "div" and ("listingblock" in cls or "literalblock" in cls):
            title = self.title_of(node)
            if title:
                self.b.block(title)
            pre = node.css_first("pre")
            if pre is not None:
                for mark in pre.css("b"):  # a callout: asciidoc-py's <b>&lt;1&gt;</b>, Asciidoctor's (1)
                    conum = _CALLOUT_MARK.fullmatch(mark.text().strip())
                    if conum:
                        mark.replace_with(f"({conum.group(1)})")
                self.b.code(pre.text())
            return
        if tag == "div" and "colist" in cls:
            # a callout list: each note after the number its code line shows, as Asciidoctor numbers it
            self.b.end_paragraph()
            items = node.css_first("ol")
            number = 0
            for item in _children(items) if items is not None else ():
                if item.tag != "li":
                    continue
                number += 1
                self.b.text(f"({number}) ")
                self.walk(item)
                self.b.end_paragraph()
            return
        if tag == "div" and "videoblock" in cls:
            for media in node.css("video, iframe"):
                src = media.attributes.get("src") or ""
                if src and (media.tag == "video" or is_video_embed(src)):
                    self.b.video(src, title=self.title_of(node))
            return
        if tag in ("video", "iframe"):
            src = node.attributes.get("src") or ""
            if src and (tag == "video" or is_video_embed(src)):
                self.b.video(src)
            return
        if tag in ("script", "style", "col", "colgroup"):
            return
        if tag == "div" and "title" in cls:
            self.b.end_paragraph()
            self.b.block(clean_text(node.text(separator=" ")))
            return
        self.walk(node)
        if tag in BLOCK_TAGS:  # a block (a passthrough <summary>, <section>...) ends its paragraph
            self.b.end_paragraph()


def _front_matter(text: str) -> tuple[str, str]:
    """``text`` without a YAML front matter block at its top, and that block's ``title``.

    The generators that publish AsciiDoc pages with front matter (Jekyll's
    jekyll-asciidoc, Hugo, Awestruct: jenkins.io's ``layout: section`` blocks) read it
    as the page's metadata, and Asciidoctor's ``skip-front-matter`` attribute does the
    same; converted as AsciiDoc it would be a thematic break, a paragraph of
    ``key: value`` lines, and a document title that is no longer the first line. A
    ``---`` block that is not a YAML mapping (two thematic breaks) stays text."""
    if not text.lstrip("\ufeff").startswith("---"):
        return text, ""
    fm = parse_front_matter(text)
    if fm.syntax != "yaml" or not isinstance(fm.meta, dict) or not fm.meta:
        return text, ""
    title = fm.meta.get("title")
    return fm.body, clean_text(str(title)) if isinstance(title, (str, int, float)) else ""


def convert_asciidoc_text(text: str, *, rel: str, site: Site, options: MarkupOptions | None = None,
                          warnings: list[str] | None = None) -> ParsedDocument:
    """Parse AsciiDoc ``text`` of the page ``rel`` (relative to the site root).

    The Site gives the attributes it defines (``attributes_for(rel)`` when it
    has one, e.g. Antora's ``antora.yml``).

    Raises:
        IngestError: asciidoc-py cannot render the page at all.
    """
    opts = options or MarkupOptions()
    builder = PageBuilder(rel=rel, site=site, options=opts)
    if warnings:
        builder.warnings.extend(warnings)
    attrs_for = getattr(site, "attributes_for", None)
    attrs: dict[str, str] = dict(attrs_for(rel)) if callable(attrs_for) else {}
    attrs.setdefault("docname", PurePosixPath(rel).stem)
    for key, value in _HTML_BACKEND_ATTRS.items():
        attrs.setdefault(key, value)
    _doctype_attrs(attrs)
    text = site.preprocess(text, page_rel=rel, warnings=builder.warnings)
    text, front_title = _front_matter(text)
    pre = _Pre(site=site, page_rel=rel, attrs=attrs, options=opts, warnings=builder.warnings)
    lines = _page_references_bounded(_blocks_as_asciidoctor(pre.run(text, file_rel=rel), attrs), pre.attrs,
                                     builder.warnings)
    comment: str | None = None  # the delimiter of the comment block open above the title
    for line in lines:
        if comment is not None:
            comment = None if line.strip() == comment else comment
            continue
        if line.startswith("////") and line.strip("/") == "":
            comment = line.strip()  # Asciidoctor skips comment blocks above the document title too
            continue
        m = _DOC_TITLE.match(line)
        if m:
            # an attribute value's character reference ('prod: Eclipse&#160;Che') is the character in
            # the HTML title, as a written one is (Asciidoctor's replacements keep references)
            # a reference to an attribute defined nowhere was escaped to stay as written (escape_missing);
            # Asciidoctor shows it without the backslash, as it shows a written '\{name}'
            builder.title = clean_text(html_unescape(_ESCAPED_REF.sub(r"\1", pre.sub(m.group(1)))))
            break
        if line.strip() and not line.startswith(("//", ":", "[")):
            break
    if not builder.title and front_title:
        builder.title = front_title
    html, stopped = "", True
    try:
        html, stopped = _render("\n".join(lines), _render_attrs(lines, pre.attrs, attrs), builder.warnings)
    except IngestError as err:
        builder.warnings.append(str(err))
    if stopped:
        # asciidoc-py gives up on the rest of a page at one construct it cannot parse (often an
        # attribute list): render once more without block attribute lines, keep the fuller result
        plain = [ln for ln in lines if not (_BLOCK_ATTRS.match(ln) and not ln.startswith("[["))]
        try:
            again, _ = _render("\n".join(plain), pre.attrs, [])
        except IngestError:
            again = ""
        if len(again) > len(html):
            builder.warnings.append("rendered again without block attribute lines after asciidoc-py stopped")
            html = again
        elif not html:
            raise IngestError(f"{rel}: asciidoc-py could not render the page")
    html, flattened = cap_depth(html)  # (a passthrough of 100,000 nested <div>: minutes of parsing)
    if flattened:
        builder.warnings.append(f"HTML nested deeper than {MAX_TREE_DEPTH} elements: the deeper ones are read "
                                "as text of the last (as browsers build the page)")
    tree = LexborHTMLParser(html)
    root = tree.body or tree.root
    if root is not None:
        if builder.title:
            builder.heading(1, builder.title, None)
        _HtmlWalker(builder).walk(root)
    return builder.finish()


def convert_asciidoc(path: Path, *, site: Site, assets_dir: Path | None = None,
                     options: MarkupOptions | None = None) -> ParsedDocument:
    """Parse one AsciiDoc page (``path`` under ``site.config.root``).

    Raises:
        IngestError: the file is outside the site root, unreadable, binary, or
            asciidoc-py cannot render it.
        MissingExtraError: the ``asciidoc`` package is not installed.
    """
    opts = options or MarkupOptions()
    root = site.config.root
    rel = page_rel(path, root)
    warnings: list[str] = []
    text = read_source(path, max_bytes=opts.max_bytes, warnings=warnings)
    return convert_asciidoc_text(text, rel=rel, site=site, options=opts, warnings=warnings)
