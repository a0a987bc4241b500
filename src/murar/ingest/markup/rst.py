"""reStructuredText pages (Sphinx flavour) parsed by docutils, walked into a page.

docutils (https://docutils.sourceforge.io/docs/ref/rst/) is the parser; this
module only decides what the doctree means for murar:

- ``section`` nodes start sections (the first one titles the page; its ids
  give the anchor, as Sphinx's HTML does);
- ``image`` nodes become images; a ``figure``'s caption paragraph is the
  author caption and its legend joins the text; substitution images
  (``.. |name| image::``) count where ``|name|`` is used;
- ``table`` nodes (``list-table``, ``csv-table``, grid and simple tables)
  become tables with their title as caption, spans expanded;
- admonitions become text led by their label ("Note: ...");
- ``raw:: html`` is read for ``<iframe>``/``<video>``/``<img>`` embeds; its ``:file:``
  is read through the Site, an ``.svg`` one being the page's picture;
- ``.. include::`` (and m2r2's ``.. mdinclude::`` of a Markdown file) is resolved
  by the Site and its content parsed at the include point (the included file is never a page); the included file's
  images resolve against the page, as Sphinx does;
- ``.. datatemplate:json|yaml|csv|nodata::`` (sphinxcontrib-datatemplates)
  renders its Jinja2 template with the data file and conf.py's settings, and
  ``.. jinja:: context`` (sphinx-jinja) with conf.py's ``jinja_contexts``
  (:mod:`murar.ingest.markup.datatemplates`); the output is parsed in its place;
  a ``code-block`` with ``:substitutions:`` (sphinx-substitution-extensions)
  shows its ``|name|`` substitutions replaced.

Sphinx's own directives and roles are not docutils'. They are registered for
the duration of one parse only (docutils keeps a module-level registry; the
previous registry is restored afterwards, under a lock): roles such as
``:guilabel:``, ``:menuselection:``, ``:ref:``, ``:doc:``, ``:kbd:`` reduce
to their text; ``toctree`` and other navigation directives produce nothing;
containers (``only``, ``tabs``, ``versionadded``, ``collapse``, ...) keep their
content; code directives keep their code. Under Sphinx settings (conf.py, a
Jupyter Book's ``sphinx.config``) the primary domain's object directives are
read without their prefix (``.. class:: Flask(...)`` is ``py:class``, its
signature kept as written), ``extlinks`` roles show their caption
(https://www.sphinx-doc.org/en/master/usage/domains/index.html), and
``|version|``, ``|release|`` and ``|today|`` read conf.py's values unless the
page defines them (Sphinx's default substitutions,
https://www.sphinx-doc.org/en/master/usage/restructuredtext/roles.html#substitutions); with
sphinxemoji a ``|:tada:|`` code is an emoji, which leaves the text unless it states a
value (a check mark: its character). A directive or role found nowhere
in these tables gets the generic handler too, with a warning, so unknown
extension markup never errors and never leaks into the text. docutils
messages become page warnings, never stderr.
"""

from __future__ import annotations

import ast
import contextlib
import datetime
import io
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles
from docutils.parsers.rst.directives.images import Figure as _DocutilsFigure
from docutils.parsers.rst.directives.images import Image as _DocutilsImage
from docutils.parsers.rst.directives.misc import Raw as _DocutilsRaw
from docutils.parsers.rst.directives.misc import Role as _DocutilsRole
from docutils.parsers.rst.directives.tables import CSVTable as _DocutilsCSVTable
from docutils.parsers.rst.languages import en as _en
from docutils.readers.standalone import Reader as _StandaloneReader
from docutils.statemachine import StringList
from docutils.transforms import Transform
from docutils.utils import SystemMessage
from selectolax.lexbor import LexborHTMLParser

from murar.errors import IngestError
from murar.ingest.budget import PageCharBudget
from murar.ingest.markup.autodoc import (
    AUTODOC_ALIASES,
    AUTODOC_DIRECTIVES,
    MAX_MEMBERS,
    AutodocConfig,
    assigned_name,
    autodoc_rst,
    autosummary_rst,
    autosummary_summary,
)
from murar.ingest.markup.builder import (
    MarkupOptions,
    PageBuilder,
    page_rel,
    peertube_embed_url,
    read_source,
)
from murar.ingest.markup.codeshown import code_caption, literalinclude_text, shown_code
from murar.ingest.markup.datatemplates import KINDS as DATATEMPLATE_KINDS
from murar.ingest.markup.datatemplates import (
    DataTemplateError,
    load_data,
    render,
    render_template,
)
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
from murar.ingest.markup.pyapi import follow_object, parse_module
from murar.ingest.markup.roles import (
    SPHINX_IMAGE_ORDER,
    VERSION_CHANGE_ALIASES,
    any_text,
    extlink_text,
    issue_role_prefixes,
    issue_text,
    role_text,
)
from murar.ingest.markup.tabs import TAB_ITEMS, TAB_SETS
from murar.ingest.mdlimits import MAX_TABLE_CELLS, MAX_TABLE_ROWS
from murar.ingest.media_flags import IMAGE_MARK, LAYOUT, length_px, marked_images_inline
from murar.ingest.sites._xrefs import PROOF_TYPES, XrefIndex, block_lead, solution_lead
from murar.ingest.sites.base import Site
from murar.schema import ParsedDocument

__all__ = ["convert_rst", "convert_rst_text", "parse_rst_into"]

_REGISTRY_LOCK = threading.RLock()
_MAX_API_SOURCE_CHARS = 5_000_000  # Python sources one page's autodoc directives may read
#: characters the directives of one page may bring into it in all: included files, files read by
#: csv-table/literalinclude/datatemplate/jinja/plot, and template output (40 includes of a 980 KB
#: file made 39,000,000 characters of reST from an 898-byte page: 94 s)
_MAX_INSERTED_CHARS = 10_000_000
_MAX_API_LINES = 40_000  # reST lines one page's autodoc directives may insert
_MAX_ALIAS_HOPS = 24  # re-exports followed to find an object's definition

# Sphinx directives with no content to keep (navigation, indexing, config)
_DROP_DIRECTIVES = frozenset({
    "toctree", "index", "highlight", "tabularcolumns", "default-domain",
    "sectionauthor", "moduleauthor", "codeauthor", "meta", "contents", "sectnum", "default-role",
    "literalinclude-options", "jupyter-execute-options", "bibliography", "tableofcontents",
    "post", "tags", "spelling:word-list", "spelling:word", "graphviz", "digraph", "graph", "inheritance-diagram",
    "mermaid", "plantuml", "uml", "doctest-skip", "testsetup", "testcleanup", "todolist",
})
# directives whose body is ordinary content: the title/argument is kept as text
_CONTAINER_DIRECTIVES = frozenset({
    "only", "ifconfig", "tabs", "tab", "group-tab", "tab-set", "tab-item", "tab-set-code",
    "collapse", "dropdown", "details", "card", "card-carousel", "grid", "grid-item", "grid-item-card", "panels",
    "link-button",
    "centered", "hlist", "glossary", "productionlist", "cssclass", "rst-class", "container", "div",
    "article-info", "button-link", "button-ref", "versionadded", "versionchanged", "deprecated",
    "versionremoved", *VERSION_CHANGE_ALIASES, "seealso", "todo", "admonition", "example", "exercise", "solution", "proof",
    "margin", "epigraph", "sidebar", "topic", "rubric", "describe", "object", "option", "envvar",
    "program", "confval", "event", "setting", "automodule", "autoclass", "autofunction", "automethod",
    "autoattribute", "autodata", "autoexception", "py:function", "py:class", "py:method", "py:attribute",
    "py:module", "py:data", "py:exception", "js:function", "c:function", "cpp:function", "http:get",
    "http:post", "http:put", "http:delete", "http:patch", "eval-rst", "cell", "list-grid",
    "nbinfo", "nbwarning", "toggle",
})
# containers whose extension gives them no argument: lines right under them are content
_NO_ARGUMENTS = frozenset({"tabs", "tab-set", "tab-set-code", "grid-item", "article-info", "hlist", "glossary",
                           "nbinfo", "nbwarning"})
_CODE_DIRECTIVES = frozenset({
    "code-block", "sourcecode", "code", "code-cell", "code-tab", "ipython", "jupyter-execute", "doctest", "testcode",
    "testoutput", "prompt", "console", "parsed-literal", "highlight-block",
})
_VIDEO_DIRECTIVES = {"youtube": "https://www.youtube.com/embed/{}", "vimeo": "https://player.vimeo.com/video/{}",
                     "video": "{}", "peertube": "{}"}  # (peertube: peertube_embed_url)
# object directives of Sphinx's domains (sphinx.domains.*): the primary domain's are also written
# without the prefix (conf.py primary_domain, "py" by default), so under Sphinx ``.. class:: Flask``
# documents a Python class (docutils' own ``class`` directive is ``rst-class`` there)
_DOMAIN_OBJECTS: dict[str, frozenset[str]] = {
    "py": frozenset({"function", "data", "exception", "class", "attribute", "property", "method",
                     "staticmethod", "classmethod", "decorator", "decoratormethod", "type"}),
    "c": frozenset({"member", "var", "function", "macro", "struct", "union", "enum", "enumerator", "type",
                    "alias"}),
    "cpp": frozenset({"class", "struct", "function", "member", "var", "type", "concept", "enum", "enum-struct",
                      "enum-class", "enumerator", "union", "alias"}),
    "js": frozenset({"function", "method", "class", "data", "attribute"}),
    "rst": frozenset({"directive", "directive:option", "role"}),
}
# their signature is shown as written (``url_for(endpoint, **values)`` is not inline markup)
_SIGNATURES = frozenset({"describe", "object", "option", "envvar", "confval", "program", "automodule", "autoclass",
                         "autofunction", "automethod", "autoattribute", "autodata", "autoexception"}
                        | {f"{d}:{n}" for d, ns in _DOMAIN_OBJECTS.items() for n in ns})
_VERSION_CHANGES = frozenset({"versionadded", "versionchanged", "deprecated", "versionremoved"})
_LABELS = {"versionadded": "New in version", "versionchanged": "Changed in version",
           "deprecated": "Deprecated since version", "versionremoved": "Removed in version",
           "seealso": "See also", "todo": "Todo"}
_DIRECTIVE_RE = re.compile(r"^[ \t]*\.\.[ \t]+(?:\|[^|]+\|[ \t]+)?([A-Za-z0-9][\w:.+-]*)::", re.MULTILINE)
_ROLE_RE = re.compile(r"(?<![\w`\\]):([A-Za-z][\w:.+-]*):`")
# ".. role:: name(base)" declares a role of the document (docutils "Custom Interpreted Text Roles")
_DECLARED_ROLE_RE = re.compile(r"^[ \t]*\.\.[ \t]+role::[ \t]+([A-Za-z][\w:.+-]*)", re.MULTILINE)
_KNOWN_DIRECTIVES = frozenset(directives._directive_registry) | frozenset(_en.directives)
_KNOWN_ROLES = frozenset(roles._role_registry) | frozenset(_en.roles)
_ADMONITIONS = (nodes.attention, nodes.caution, nodes.danger, nodes.error, nodes.hint, nodes.important,
                nodes.note, nodes.tip, nodes.warning)


class _Context:
    """Per-parse state reachable from directives through ``document.settings``."""

    def __init__(self, *, site: Site, page_rel: str, options: MarkupOptions, warnings: list[str]) -> None:
        self.site = site
        self.page_rel = page_rel
        self.opts = options
        self.warnings = warnings
        self.parents: dict[str, str] = {}   # included file -> file that included it
        self.include_count = 0
        self.inserted_chars = PageCharBudget(
            _MAX_INSERTED_CHARS,
            "{what}: over {limit} characters included, read or rendered in the page; skipped, and the later ones")
        self.unknown: list[str] = []
        self.unknown_used: set[str] = set()  # "directive name"/"role name" (lower case) the generic handler ran for
        self.blocks: dict[str, int] = {}  # sphinx-proof/sphinx-exercise blocks seen, by kind
        conf = getattr(site, "conf", None)  # a SphinxSite knows conf.py's todo_include_todos
        self.sphinx = conf is not None  # read under Sphinx settings (conf.py, a Jupyter Book's)
        self.todo = bool(getattr(conf, "values", {}).get("todo_include_todos"))
        # a primary domain only under Sphinx settings: a folder of rST without them follows
        # docutils (``.. class::`` sets a class attribute there)
        domain = getattr(conf, "primary_domain", None)
        added = tuple(getattr(conf, "object_types", None) or ())  # conf.py setup(): add_object_type
        # add_crossref_type's directives: a target and an index entry, nothing shown
        self.target_directives = frozenset(d.lower() for d in getattr(conf, "target_directives", None) or ())
        self.object_directives: frozenset[str] = (_DOMAIN_OBJECTS.get(domain or "", frozenset())
                                               | {directive.lower() for directive, _ in added}) - self.target_directives
        self.object_roles = frozenset(role.lower() for _, role in added)
        self.extlinks: dict[str, tuple[str, str | None]] = dict(getattr(conf, "extlinks", None) or {})
        self.extensions: tuple[str, ...] = tuple(getattr(conf, "extensions", None) or ())
        conf_values = getattr(conf, "values", None)
        self.issue_roles = issue_role_prefixes(conf_values if isinstance(conf_values, dict) else {},
                                               tuple(getattr(conf, "extensions", None) or ()))
        self.tags: tuple[str, ...] = tuple(getattr(conf, "tags", None) or ())  # conf.py's tags.add()
        values = getattr(conf, "values", None)
        self.substitutions = default_substitutions(values) if isinstance(values, dict) else {}
        self.autodoc = AutodocConfig.from_values(values if isinstance(values, dict) else {},
                                                 tuple(getattr(conf, "extensions", None) or ()))
        self.current_module = ""  # set by .. currentmodule:: / .. module:: / .. automodule::
        self.class_context: list[str] = []  # the autoclass contents being read, innermost last
        self.api_trees: dict[str, ast.Module | None] = {}  # module sources read for autodoc, by file
        self.api_chars_left = _MAX_API_SOURCE_CHARS
        self.api_lines_left = _MAX_API_LINES
        self.api_index: dict[Any, Any] = {}  # autodoc's member index per module/class node
        self.api_missing: list[str] = []  # autodoc objects whose source is not in the corpus

    def inserted(self, text: str, what: str) -> bool:
        """Whether ``text``, which a directive (``what``) brings into the page, fits the
        page's budget of :data:`_MAX_INSERTED_CHARS` characters (spent by it); past the
        budget ``False``, with one warning for the page."""
        return self.inserted_chars.spend(text, what, self.warnings)

    def conf_values(self) -> dict[str, Any]:
        """conf.py's literal settings (a Sphinx site), else ``{}``."""
        values = getattr(getattr(self.site, "conf", None), "values", None)
        return values if isinstance(values, dict) else {}

    def xrefs(self) -> tuple[XrefIndex | None, str]:
        """The site's labels and page titles (a Sphinx or Jupyter Book site) and the
        page's docname; ``(None, "")`` for a plain folder of reST."""
        get, name = getattr(self.site, "xrefs", None), getattr(self.site, "docname", None)
        if not callable(get) or not callable(name):
            return None, ""
        return get(), str(name(self.page_rel))


def default_substitutions(values: dict[str, Any], *, today: datetime.date | None = None) -> dict[str, str]:
    """Sphinx's default substitutions from conf.py ``values``: ``version`` and
    ``release`` (``""`` when conf.py does not set them as literals), and
    ``today``: conf.py's ``today``, else ``today`` (the ingest date by default)
    formatted with ``today_fmt`` (strftime, Sphinx's default ``"%b %d, %Y"``).

    Returns ``{name: text}`` for the three names; never raises (a bad
    ``today_fmt`` gives the default format).
    """
    def text(name: str) -> str:
        value = values.get(name)
        return value if isinstance(value, str) else ""

    day = today or datetime.date.today()
    fmt = values.get("today_fmt")
    try:
        formatted = day.strftime(fmt if isinstance(fmt, str) and fmt else "%b %d, %Y")
    except (ValueError, TypeError):
        formatted = day.strftime("%b %d, %Y")
    return {"version": text("version"), "release": text("release"), "today": text("today") or formatted}


class _DefaultSubstitutions(Transform):  # type: ignore[misc]
    """Defines each of Sphinx's default substitutions the document does not
    define itself, before docutils resolves ``|name|`` references (its
    ``Substitutions`` transform runs at priority 220)."""

    default_priority = 210

    def apply(self, **kwargs: Any) -> None:
        ctx = getattr(self.document.settings, "murar_context", None)
        for name, value in (ctx.substitutions.items() if isinstance(ctx, _Context) else ()):
            if name in self.document.substitution_names:
                continue
            definition = nodes.substitution_definition(value, nodes.Text(value))
            self.document.note_substitution_def(definition, name)


# a sphinxemoji code: the name of an emoji between colons (``|:tada:|``, ``|:+1:|``)
_EMOJI_CODE = re.compile(r":[a-z0-9_+-]{1,60}:")


class _EmojiSubstitutions(Transform):  # type: ignore[misc]
    """sphinxemoji (https://sphinxemojicodes.readthedocs.io): with the extension, a
    ``|:tada:|`` reference the document does not define itself is that emoji (its
    ``EmojiSubstitutions`` transform, priority 211, before docutils resolves substitutions).
    An emoji is a picture, not words: it leaves the text, as pymdownx.emoji's do
    (:mod:`murar.ingest.markup.pymdown`), except one that states a value (a check mark,
    a cross, a plus sign), which reads as its character; never docutils' error text."""

    default_priority = 211

    def apply(self, **kwargs: Any) -> None:
        from murar.ingest.markup.emoji import VALUE_EMOJI

        ctx = getattr(self.document.settings, "murar_context", None)
        if not isinstance(ctx, _Context) or "sphinxemoji.sphinxemoji" not in ctx.extensions:
            return
        for ref in list(self.document.findall(nodes.substitution_reference)):
            name = str(ref.get("refname", ""))
            if not _EMOJI_CODE.fullmatch(name) or name in self.document.substitution_defs:
                continue
            char = VALUE_EMOJI.get(name[1:-1], "")
            ref.replace_self(nodes.inline(ref.rawsource, char, classes=["emoji"]))


class _GlobalCitations(Transform):  # type: ignore[misc]  # docutils ships no types
    """Under Sphinx settings a citation is global: ``[Kane1985]_`` may cite the
    ``.. [Kane1985]`` of another document of the project (sphinx/domains/citation.py:
    its ``CitationReferenceTransform``, priority 619, makes every citation reference a
    cross-reference before docutils' ``DanglingReferences`` could call it an unknown
    target). A reference to a citation the page does not define shows as Sphinx draws
    it, ``[Kane1985]``, without docutils' "Unknown target name" error."""

    default_priority = 619

    def apply(self, **kwargs: Any) -> None:
        ctx = getattr(self.document.settings, "murar_context", None)
        if not isinstance(ctx, _Context) or not ctx.sphinx:
            return
        for ref in list(self.document.findall(nodes.citation_reference)):
            if str(ref.get("refname", "")) not in self.document.nameids:
                ref.replace_self(nodes.inline(ref.rawsource, f"[{ref.astext()}]"))


class _Reader(_StandaloneReader):  # type: ignore[misc]
    """docutils' standalone reader plus :class:`_DefaultSubstitutions`, :class:`_EmojiSubstitutions`
    and :class:`_GlobalCitations`."""

    def get_transforms(self) -> list[type[Transform]]:
        return [*super().get_transforms(), _DefaultSubstitutions, _EmojiSubstitutions, _GlobalCitations]


def _ctx(directive: Directive) -> _Context:
    ctx = getattr(directive.state.document.settings, "murar_context", None)
    assert isinstance(ctx, _Context)
    return ctx


def _source_rel(directive: Directive, ctx: _Context) -> str:
    """The file (relative to the site root) holding the directive's line."""
    try:
        src = directive.state_machine.input_lines.source(directive.lineno - directive.state_machine.input_offset - 1)
    except (IndexError, AttributeError):
        return ctx.page_rel
    if not src:
        return ctx.page_rel
    try:
        return Path(src).resolve().relative_to(ctx.site.config.root).as_posix()
    except (ValueError, OSError):
        return ctx.page_rel


class _AnyOptions(dict[str, Any]):
    """An option spec that accepts every option name (values kept as text)."""

    def __contains__(self, key: object) -> bool:
        return True

    def __bool__(self) -> bool:  # docutils only parses options when the spec is truthy
        return True

    def __getitem__(self, key: str) -> Any:
        return directives.unchanged


def _include_base(directive: Directive, ctx: _Context) -> str:
    """The file an include or literalinclude path is relative to: under Sphinx the document
    being built, even in a file it includes (sphinx.directives.other.Include and
    LiteralInclude resolve with env.relfn2path, from env.docname; checked with sphinx-build
    8.1 on a nested include), for a site that says so (``includes_from_document``); else,
    as docutils reads it, the file holding the directive."""
    return ctx.page_rel if getattr(ctx.site, "includes_from_document", False) else _source_rel(directive, ctx)


def _read_site_file(directive: Directive, target: str, what: str, *, from_document: bool = False
                    ) -> tuple[Path, str] | None:
    """``(path, text)`` of the file a directive names, resolved through the Site as an
    include is (relative to the file holding the directive, or with ``from_document`` to
    :func:`_include_base`; never outside the root) and read within the page's byte budget;
    ``None`` with a warning naming ``what`` when it cannot be resolved or read."""
    ctx = _ctx(directive)
    base = _include_base(directive, ctx) if from_document else _source_rel(directive, ctx)
    res = ctx.site.resolve_include(target, page_rel=base)
    path = ctx.site.config.root / res.rel_path if res.rel_path else None
    if path is None or not path.is_file():
        ctx.warnings.append(f"{what} {target!r}: {res.problem or f'file not found ({res.rel_path})'}")
        return None
    try:
        text = read_source(path, max_bytes=ctx.opts.max_bytes, warnings=ctx.warnings)
    except IngestError as err:
        ctx.warnings.append(f"{what} {target!r}: {err}")
        return None
    return (path, text) if ctx.inserted(text, f"{what} {target!r}") else None


# ------------------------------------------------------------------ directives
class _CsvTable(_DocutilsCSVTable):  # type: ignore[misc]  # docutils ships no types
    """``csv-table`` whose ``:file:`` is read through the Site, as an include is (relative
    to the file holding the directive, ``/`` the source directory as Sphinx's
    ``sphinx.directives.patches.CSVTable`` reads it; never outside the root); ``:url:``
    is never fetched. Anything else is docutils' own csv-table."""

    def run(self) -> list[nodes.Node]:
        target = str(self.options.get("file") or "").strip()
        if "url" in self.options or not target:
            if "url" in self.options:
                _ctx(self).warnings.append(f"csv-table :url: {self.options['url']!r}: remote files are not read")
                return []
            return list(super().run())
        found = _read_site_file(self, target, "csv-table :file:")
        if found is None:
            return []
        path, text = found
        del self.options["file"]
        self.content = StringList(text.splitlines(), source=str(path))
        return list(super().run())

    def parse_csv_data_into_rows(self, csv_data: Any, dialect: Any, source: str) -> tuple[list[Any], int]:
        """docutils' rows, cut as a pipe table is (:func:`murar.ingest.mdlimits.cap_pipe_tables`):
        at most :data:`~murar.ingest.mdlimits.MAX_TABLE_ROWS` body rows and
        :data:`~murar.ingest.mdlimits.MAX_TABLE_CELLS` cells, with a warning. docutils
        parses every cell as a document of its own (a 200,000-line ``:file:`` took
        minutes)."""
        rows, max_cols = super().parse_csv_data_into_rows(csv_data, dialect, source)
        max_cols = min(max_cols, MAX_TABLE_CELLS)
        head = min(self.options.get("header-rows", 0), MAX_TABLE_ROWS)
        keep = head + min(MAX_TABLE_ROWS, max(1, MAX_TABLE_CELLS // max(1, max_cols)))
        if len(rows) > keep or any(len(row) > max_cols for row in rows[:keep]):
            _ctx(self).warnings.append(f"csv-table of {len(rows)} rows cut to its first {keep} rows "
                                       f"of at most {max_cols} cells")
            rows = [row[:max_cols] for row in rows[:keep]]
        return rows, max_cols


class _Include(Directive):  # type: ignore[misc]  # docutils ships no types
    """``.. include::`` through the Site; content parsed where it stands."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "literal": directives.flag, "code": directives.unchanged, "start-after": directives.unchanged,
        "end-before": directives.unchanged, "start-line": int, "end-line": int, "encoding": directives.encoding,
        "tab-width": int, "parser": directives.unchanged, "number-lines": directives.unchanged,
        "class": directives.unchanged, "name": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        target = self.arguments[0].strip()
        here = _source_rel(self, ctx)
        if target.startswith("<") and target.endswith(">"):
            return self._standard(target[1:-1].strip(), ctx)
        res = ctx.site.resolve_include(target, page_rel=_include_base(self, ctx))
        if res.rel_path is None:
            ctx.warnings.append(f"include {target!r}: {res.problem or 'remote includes are not read'}")
            return []
        path = ctx.site.config.root / res.rel_path
        if not path.is_file():
            ctx.warnings.append(f"include {target!r}: file not found ({res.rel_path})")
            return []
        chain = [here]
        while chain[-1] in ctx.parents and len(chain) < 64:
            chain.append(ctx.parents[chain[-1]])
        if res.rel_path in chain or res.rel_path == ctx.page_rel:
            ctx.warnings.append(f"include {target!r}: include cycle ({' <- '.join([res.rel_path, *chain])}); skipped")
            return []
        if len(chain) > ctx.opts.max_include_depth:
            ctx.warnings.append(f"include {target!r}: nested deeper than {ctx.opts.max_include_depth}; skipped")
            return []
        ctx.include_count += 1
        if ctx.include_count > 500:
            ctx.warnings.append(f"include {target!r}: more than 500 includes in one page; skipped")
            return []
        try:
            text = read_source(path, max_bytes=ctx.opts.max_bytes, warnings=ctx.warnings)
        except IngestError as err:
            ctx.warnings.append(f"include {target!r}: {err}")
            return []
        if not ctx.inserted(text, f"include {target!r}"):
            return []
        text = _slice(text, self.options)
        if "literal" in self.options or "code" in self.options:
            return [nodes.literal_block(text, text)]
        parser = str(self.options.get("parser") or "").lower()
        if "myst" in parser or "markdown" in parser:  # .. include:: README.md + :parser: myst_parser.sphinx_
            return [_MystInclude(text=text, rel=res.rel_path)]
        ctx.parents[res.rel_path] = here
        return _parse_in_place(self, text, source=str(path.resolve()))


    def _standard(self, name: str, ctx: _Context) -> list[nodes.Node]:
        """docutils' standard substitution sets (``<isonum.txt>``, ``<s5defs.txt>``), read
        from the docutils package itself (never from the corpus)."""
        from docutils.parsers.rst.directives.misc import Include

        base = Path(Include.standard_include_path).resolve()
        path = (base / name).resolve()
        if base not in path.parents or not path.is_file():
            ctx.warnings.append(f"include <{name}>: not a docutils standard include")
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
        self.state_machine.insert_input(StringList(text.splitlines(), source=str(path)), str(path))
        return []


def _slice(text: str, options: dict[str, Any]) -> str:
    lines = text.splitlines()
    start, end = options.get("start-line"), options.get("end-line")
    if isinstance(start, int) or isinstance(end, int):
        lines = lines[start:end]
    text = "\n".join(lines)
    after, before = options.get("start-after"), options.get("end-before")
    if after:
        i = text.find(after)
        text = text[i + len(after):] if i >= 0 else text
    if before:
        i = text.find(before)
        text = text[:i] if i >= 0 else text
    return text


def _code_caption(directive: Directive, caption: str) -> list[nodes.Node]:
    """A code block's caption as the paragraph above it, its inline markup read
    (Sphinx's ``container_wrapper``); nothing when there is no caption."""
    if not caption:
        return []
    para = nodes.paragraph()
    text_nodes, messages = directive.state.inline_text(caption, directive.lineno)
    para.extend(text_nodes)
    return [para, *messages]


def _parse_in_place(directive: Directive, text: str, source: str | None = None) -> list[nodes.Node]:
    """Parse ``text`` (reST a directive produced: an included file, a rendered template) as
    if it stood in the directive's place, as docutils' ``include`` does (``insert_input``);
    directives and roles in it that nobody knows get the generic handler first
    (:func:`_register_unknown`). ``source`` names the text in warnings (default: the page
    or file the directive stands in). Returns no nodes (the text joins the input)."""
    _register_unknown(text, _ctx(directive).unknown)
    if source is None:
        source, _ = directive.state_machine.get_source_and_line(directive.lineno)
    directive.state_machine.insert_input(StringList(text.splitlines(), source=source), source)
    return []


class _MdInclude(_Include):
    """``.. mdinclude:: ../README.md`` (m2r2, sphinx-mdinclude): an include whose file is
    Markdown, converted where it stands (``:start-line:``/``:end-line:`` as include's)."""

    def run(self) -> list[nodes.Node]:
        self.options["parser"] = "markdown"
        return super().run()


class _DataTemplate(Directive):  # type: ignore[misc]  # docutils ships no types
    """sphinxcontrib-datatemplates' ``datatemplate:json|yaml|csv|nodata`` (and the legacy
    ``datatemplate`` with ``:source:``): the template (the body, or ``:template:`` in
    ``templates_path``) rendered with the data file and conf.py's settings
    (:mod:`murar.ingest.markup.datatemplates`), parsed as reST in its place."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        source = (self.arguments[0] if self.arguments else str(self.options.get("source") or "")).strip()
        kind = self.name.lower().partition(":")[2] or PurePosixPath(source).suffix.lower().lstrip(".")
        kind = {"yml": "yaml"}.get(kind, kind)
        if kind not in DATATEMPLATE_KINDS or (kind != "nodata" and not source):
            ctx.warnings.append(f"{self.name}: no data file murar can read ({source or 'none given'}); skipped")
            return []
        template = "\n".join(self.content) if self.content else self._template_file(ctx)
        if template is None:
            return []
        raw = ""
        if kind != "nodata":
            found = _read_site_file(self, source, self.name, from_document=True)
            if found is None:
                return []
            raw = found[1]
        try:
            data = load_data(kind, raw, self.options) if kind != "nodata" else None
            text = render_template(template, data=data, config=ctx.conf_values())
        except DataTemplateError as err:
            ctx.warnings.append(f"{self.name} {source!r}: {err}")
            return []
        if not ctx.inserted(text, f"{self.name} {source!r}"):
            return []
        return _parse_in_place(self, text)

    def _template_file(self, ctx: _Context) -> str | None:
        """The ``:template:`` file, looked up in conf.py's ``templates_path`` folders (relative
        to conf.py's folder), as Sphinx's template loader finds it."""
        name = str(self.options.get("template") or "").strip().lstrip("/")
        conf = getattr(ctx.site, "conf", None)
        confdir = PurePosixPath(ctx.site.config.config_file or "conf.py").parent
        root = ctx.site.config.root.resolve()
        for folder in getattr(conf, "templates_path", ()) if name else ():
            path = (root / confdir / folder / name).resolve()
            if root in path.parents and path.is_file():
                try:
                    return read_source(path, max_bytes=ctx.opts.max_bytes, warnings=ctx.warnings)
                except IngestError as err:
                    ctx.warnings.append(f"{self.name} template {name!r}: {err}")
                    return None
        ctx.warnings.append(f"{self.name}: template {name or '(none)'!r} not found in templates_path; skipped")
        return None


class _Jinja(Directive):  # type: ignore[misc]  # docutils ships no types
    """sphinx-jinja's ``.. jinja:: context``: the body (or the ``:file:`` template, relative to
    the source directory) rendered with conf.py's ``jinja_contexts[context]`` and
    ``jinja_globals`` (:func:`murar.ingest.markup.datatemplates.render`), parsed as reST."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        values = ctx.conf_values()
        contexts = values.get("jinja_contexts")
        name = self.arguments[0].strip() if self.arguments else ""
        context = contexts.get(name) if isinstance(contexts, dict) and name else None
        glob = values.get("jinja_globals")
        variables = {**(glob if isinstance(glob, dict) else {}), **(context if isinstance(context, dict) else {})}
        template = "\n".join(self.content)
        source = str(self.options.get("file") or "").strip()
        if source:
            found = _read_site_file(self, "/" + source.lstrip("/"), "jinja template")
            if found is None:
                return []
            template = found[1]
        try:
            text = render(template, variables)
        except DataTemplateError as err:
            ctx.warnings.append(f"jinja {name!r}: {err}")
            return []
        if not ctx.inserted(text, f"jinja {name!r}"):
            return []
        return _parse_in_place(self, text)


class _LiteralInclude(Directive):  # type: ignore[misc]  # docutils ships no types
    """``.. literalinclude::``: the file's text as a code block (through the Site)."""

    required_arguments = 1
    final_argument_whitespace = True
    optional_arguments = 0
    has_content = False
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        found = _read_site_file(self, self.arguments[0].strip(), "literalinclude", from_document=True)
        if found is None:
            return []
        text = literalinclude_text(found[1], self.options)
        if text is None:
            ctx.warnings.append(f"literalinclude {self.arguments[0].strip()!r}: its options pick nothing in the file")
            return []
        text = text[: ctx.opts.max_code_chars]
        caption = code_caption("literalinclude", self.options, self.arguments[0])
        literal = nodes.literal_block(text, text)
        if self.options.get("language"):
            literal["language"] = str(self.options["language"]).strip()
        return [*_code_caption(self, caption), literal]


class _Role(_DocutilsRole):  # type: ignore[misc]  # docutils ships no types
    """docutils' ``role`` directive (a custom interpreted-text role, "reStructuredText
    Directives"): ``.. role:: raw-html(raw)`` with ``:format: html`` makes
    ``:raw-html:`<span>Fix</span>``` raw HTML, shown as its words, and a ``(raw)`` role of
    another format shows nothing in HTML; a role on no base is text in an inline. A base
    role docutils does not know (a Sphinx role murar reads as text) leaves the new name
    with murar's generic text handler, unwarned."""

    def run(self) -> list[nodes.Node]:
        match = self.argument_pattern.match(self.content[0]) if self.content else None
        base = match.group(3) if match else None
        if base and base.lower() not in roles._roles and base.lower() not in roles._role_registry:
            return []
        return list(super().run())


class _Drop(Directive):  # type: ignore[misc]  # docutils ships no types
    """A directive whose output is nothing (navigation, indexing)."""

    optional_arguments = 99
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        return []


class _DropFields(Directive):  # type: ignore[misc]  # docutils ships no types
    """``meta``: its body is a field list, not options (docutils "Metadata": a field name may
    carry attributes, ``:description property=og\\:description:``), so none are parsed as options
    (an option name of two words is docutils' 'Error in "meta" directive')."""

    optional_arguments = 99
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        return []


_CARD_IMAGE_OPTIONS = ("img-top", "img-bottom", "img-background")
# tags every HTML build has (Sphinx adds the builder's format, name, format_<format>, builder_<name>)
_HTML_TAGS = frozenset({"html", "format_html"})


def html_only(expression: str, tags: Sequence[str] = ()) -> bool:
    """Sphinx ``.. only::`` expression evaluated for an HTML build: Sphinx sets the tags
    of the builder (its format ``html``, its name, ``format_html``, ``builder_<name>``)
    and the ``tags`` given (conf.py's ``tags.add``, ``sphinx-build -t``); the builder is
    ``html`` unless ``tags`` name another (``dirhtml``/``builder_dirhtml``), so under the
    ``html`` builder ``singlehtml`` and ``dirhtml`` are false. ``and``/``or``/``not``/
    parentheses, never ``eval``. An expression it cannot read counts as true (the content
    is kept), and so does one nested deeper than Python's parser goes (``not`` 100,000
    times raised MemoryError, which lost the page)."""
    active = set(_HTML_TAGS) | set(tags)
    if not any(t.startswith("builder_") for t in tags):
        active |= {"builder_html"}

    try:
        tree = ast.parse(expression.strip() or "html", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True

    def ev(node: ast.AST) -> bool:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Name):
            return node.id in active
        if isinstance(node, ast.BoolOp):
            values = [ev(v) for v in node.values]
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not ev(node.operand)
        raise ValueError(type(node).__name__)

    try:
        return ev(tree)
    except (ValueError, RecursionError):
        return True


class _Unknown(Exception):
    """An ``ifconfig`` expression murar cannot evaluate."""


_IFCONFIG_STR_METHODS = frozenset({"startswith", "endswith", "lower", "upper", "strip"})
_COMPARE: dict[type, Any] = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b, ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
}


def ifconfig_true(expression: str, values: dict[str, Any]) -> bool:
    """sphinx.ext.ifconfig's ``.. ifconfig:: EXPR`` for an HTML build: ``EXPR`` is a
    Python expression over the configuration values (sphinx/ext/ifconfig.py evaluates
    it with them and ``builder``), its content shown when true. murar evaluates it
    without ``eval``, from conf.py's literal ``values`` (``builder`` is ``"html"``,
    ``language`` ``"en"`` when conf.py leaves it unset or ``None``, as Sphinx 5+ does):
    names, constants, comparisons, ``and``/``or``/``not``, literal tuples/lists/sets and
    ``str.startswith``/``endswith``/``lower``/``upper``/``strip``. An expression naming
    a value conf.py does not set as a literal (computed, or a default murar does not
    know), or using anything else, counts as true: the content is kept."""
    # Sphinx 5+ reads language None (or unset) as "en"
    names = {"builder": "html", **values, "language": values.get("language") or "en"}

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise _Unknown(node.id)
            return names[node.id]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return tuple(ev(e) for e in node.elts)
        if isinstance(node, ast.BoolOp):
            parts = [ev(v) for v in node.values]
            return all(parts) if isinstance(node.op, ast.And) else any(parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not ev(node.operand)
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = ev(right_node)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in _IFCONFIG_STR_METHODS and not node.keywords):
            target = ev(node.func.value)
            args = [ev(a) for a in node.args]
            if isinstance(target, str) and all(isinstance(a, (str, tuple)) for a in args):
                return getattr(target, node.func.attr)(*args)
        raise _Unknown(type(node).__name__)

    if len(expression) > 2_000:
        return True
    try:
        return bool(ev(ast.parse(expression.strip() or "True", mode="eval")))
    except (_Unknown, SyntaxError, ValueError, TypeError, KeyError, RecursionError, MemoryError):
        return True


class _Container(Directive):  # type: ignore[misc]  # docutils ships no types
    """A directive that wraps ordinary content: the argument becomes a lead
    paragraph (a tab's name, a version number), the body is parsed as rST."""

    optional_arguments = 99
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        name = VERSION_CHANGE_ALIASES.get(self.name.lower(), self.name.lower())
        ctx = _ctx(self)
        if name == "todo" and not ctx.todo:
            return []
        if name == "only" and not html_only(" ".join(self.arguments), ctx.tags):
            return []  # content for another builder (latex, epub...): not on the HTML site
        if name == "ifconfig" and not ifconfig_true(" ".join(self.arguments), ctx.conf_values()):
            return []
        box = nodes.container(classes=["murar-" + name.replace(":", "-")])
        arg = " ".join(self.arguments).strip()
        if name in TAB_SETS:
            box["murar_tab_set"] = True
        elif name in TAB_ITEMS:
            box["murar_tab"] = arg
            box["murar_new_set"] = "new-set" in self.options
        if name in UNSHOWN_ARGUMENT:
            arg = ""  # a layout ("2", "1 2 3 3"), a condition ("html", "not latex") or classes: not text
        label = _LABELS.get(name)
        lead = f"{label} {arg}".strip() if label else arg
        if name in ("exercise", "solution") or name.startswith("prf:"):
            if name == "exercise" and "hidden" in self.options:
                return []  # sphinx-exercise leaves it out of the page
            lead = _numbered_lead(ctx, name, arg)
        if (name in _SIGNATURES or name in ctx.object_directives) and arg:
            box += nodes.paragraph(arg, arg)  # an object's signature, shown as written
            lead = ""
        if name in ("centered", "rubric") and arg:
            # inline text, as sphinx.directives.other.Centered parses it (a |badge| substitution is a picture)
            para = nodes.paragraph(arg)
            text_nodes, messages = self.state.inline_text(arg, self.lineno)
            para.extend(text_nodes)
            box += para
            box.extend(messages)
            return [box]
        if name in _VERSION_CHANGES:
            return [self._version_change(box, str(label), arg)]
        if name == "tab-set-code":
            return [self._tab_set_code(box)]
        if name in BUTTONS:
            return [self._button(box, name, arg)]
        if name == "article-info":
            for key in ARTICLE_INFO_FIELDS:
                self._inline_para(box, str(self.options.get(key) or "").strip())
            return [box]
        if name in CARDS:
            return [self._card(box, arg)]
        if name == "panels":
            return [self._panels(box)]
        if name == "link-button":  # sphinx-panels: a button showing its :text:, else its link
            self._inline_para(box, str(self.options.get("text") or arg).strip())
            return [box]
        if lead:
            para = nodes.paragraph()
            text_nodes, messages = self.state.inline_text(lead, self.lineno)
            para.extend(text_nodes)
            box += para
            box.extend(messages)
        for key in _CARD_IMAGE_OPTIONS:  # sphinx-design cards show a picture from an option
            uri = str(self.options.get(key) or "").strip()
            if uri:
                box += nodes.image(uri=uri, alt=arg)
        if self.content and (name in _SIGNATURES or name in ctx.object_directives or name in ("only", "ifconfig")
                             or name not in _CONTAINER_DIRECTIVES):
            _parse_with_titles(self, box)  # Sphinx's object descriptions, only and ifconfig allow titles
        elif self.content:
            self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


    def _tab_set_code(self, box: nodes.container) -> nodes.container:
        """sphinx-design's ``tab-set-code`` (:mod:`murar.ingest.markup.design`): a tab set
        whose tabs are its code blocks, each labelled by its language in capitals; what
        is not a code block is left out (sphinx-design warns and drops it)."""
        inner = nodes.container()
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, inner)
        box["murar_tab_set"] = True
        for child in inner.children:
            if isinstance(child, nodes.literal_block):
                label = code_set_label(str(child.get("language") or ""))
                tab = nodes.container(classes=["murar-tab-item"])
                tab["murar_tab"] = label
                tab += nodes.paragraph("", label)
                tab += child.deepcopy()
                box += tab
        return box

    def _inline_para(self, box: nodes.container, text: str) -> None:
        """``text`` parsed as inline reST, a paragraph of ``box`` (nothing when empty)."""
        if not text:
            return
        para = nodes.paragraph()
        text_nodes, messages = self.state.inline_text(text, self.lineno)
        para.extend(text_nodes)
        box += para
        box.extend(messages)

    def _button(self, box: nodes.container, name: str, target: str) -> nodes.container:
        """sphinx-design's buttons (:mod:`murar.ingest.markup.design`): the content as
        inline text, else the target (a ``button-ref``'s: its title)."""
        if self.content:
            self._inline_para(box, "\n".join(self.content).strip())
        elif name == "button-ref":
            xrefs, docname = _ctx(self).xrefs()
            box += nodes.paragraph("", any_text(target, xrefs, docname=docname))
        elif target:
            box += nodes.paragraph("", target)
        return box

    def _card(self, box: nodes.container, title: str) -> nodes.container:
        """A sphinx-design card in its rendered order (:mod:`murar.ingest.markup.design`):
        pictures from ``img-background``/``img-top``, the ``^^^`` header, the title, the
        body, the ``+++`` footer, the ``img-bottom`` picture."""

        def picture(key: str) -> None:
            uri = str(self.options.get(key) or "").strip()
            if uri:
                box.append(nodes.image(uri=uri, alt=title, classes=card_image_classes(self.options, key)))

        def part(start: int, end: int) -> None:
            if end > start:  # a slice of the content keeps its source lines
                self.state.nested_parse(self.content[start:end], self.content_offset + start, box)

        parts = split_card(list(self.content))
        header = len(parts.header) if parts.header is not None else -1
        body_end = header + 1 + len(parts.body)
        picture("img-background")
        picture("img-top")
        part(0, max(header, 0))
        self._inline_para(box, title)
        part(header + 1, body_end)
        part(body_end + 1, len(self.content))
        picture("img-bottom")
        return box

    def _panels(self, box: nodes.container) -> nodes.container:
        """sphinx-panels ``panels``: each panel a card (picture, header, body, footer,
        picture), its separators and option lines no text (:func:`split_panels`)."""
        source = self.content.source(0) if self.content else None
        for panel in split_panels(list(self.content)):
            if panel.img_top:
                box.append(nodes.image(uri=panel.img_top, alt=""))
            for part in (panel.parts.header, panel.parts.body, panel.parts.footer):
                if part:
                    self.state.nested_parse(StringList(part, source), self.content_offset, box)
            if panel.img_bottom:
                box.append(nodes.image(uri=panel.img_bottom, alt=""))
        return box

    def _version_change(self, box: nodes.container, label: str, arg: str) -> nodes.container:
        """Sphinx's ``versionadded``/``versionchanged``/``deprecated``/``versionremoved``
        (sphinx.domains.changeset.VersionChange): the version is the first argument, the
        rest of the directive line a first paragraph; the label leads the first paragraph
        ("Changed in version 2.0: Text"), or stands alone with a full stop when there is
        no text ("New in version 2.0.")."""
        version, _, rest = arg.partition(" ")
        head = f"{label} {version}".strip()
        if rest.strip():
            para = nodes.paragraph()
            text_nodes, messages = self.state.inline_text(rest.strip(), self.lineno)
            para.extend(text_nodes)
            box += para
            box.extend(messages)
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, box)
        if len(box) and isinstance(box[0], nodes.paragraph):
            box[0].insert(0, nodes.Text(f"{head}: "))
        else:
            box.insert(0, nodes.paragraph("", f"{head}: " if len(box) else f"{head}."))
        return box


class _UnknownDirective(_Container):
    """The generic handler of a directive nobody knows (:class:`_Container`: content
    kept), noting that the page used it (a name written only in a code sample, as a
    tutorial on writing directives shows one, is no unknown name)."""

    def run(self) -> list[nodes.Node]:
        _ctx(self).unknown_used.add(f"directive {self.name.lower()}")
        return super().run()


class _CurrentModule(Directive):  # type: ignore[misc]  # docutils ships no types
    """``currentmodule``/``module`` (and their ``py:`` forms): no output (Sphinx's Python
    domain shows nothing for them); the module named is where later autodoc
    directives look names up (``None`` clears it)."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        arg = self.arguments[0].strip() if self.arguments else ""
        _ctx(self).current_module = "" if arg == "None" else arg
        return []


class _ClassContext(Directive):  # type: ignore[misc]  # docutils ships no types
    """murar's own marker around an ``autoclass``'s content (:data:`CLASS_CONTEXT`): with a
    class name it opens that class's content, without one it closes it. No output."""

    optional_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        stack = _ctx(self).class_context
        if self.arguments:
            stack.append(self.arguments[0].strip())
        elif stack:
            stack.pop()
        return []


class _ContentOnly(_Container):
    """A container directive that takes no argument (sphinx-tabs' ``tabs``, sphinx-design's
    ``tab-set``/``tab-set-code``/``grid-item``/``article-info``, Sphinx's ``hlist`` and
    ``glossary``): indented lines right under it, with no blank line, are content, as
    docutils reads a directive without arguments (``.. tabs::`` followed directly by
    `` .. code-tab:: gdscript GDScript`` holds that tab)."""

    optional_arguments = 0


_TOC_ENTRY = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.DOTALL)


class _NbGallery(Directive):  # type: ignore[misc]  # docutils ships no types
    """nbsphinx's ``nbgallery`` and ``nblinkgallery``: a toctree drawn as a gallery of
    thumbnails, each showing the title of a listed document (nbsphinx/__init__.py
    NbGallery, GalleryToc, doctree_resolved: the entry's explicit title or the
    document's), under the ``:caption:``. Read as the caption and a list of those
    titles; ``:glob:`` patterns and external links (not in a gallery) are left out."""

    optional_arguments = 0
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        xrefs, docname = ctx.xrefs()
        out: list[nodes.Node] = []
        caption = self.options.get("caption")
        if isinstance(caption, str) and caption.strip():
            out.append(nodes.paragraph("", caption.strip()))
        items = nodes.bullet_list()
        for raw in list(self.content)[:500]:
            entry = raw.strip()
            if (not entry or entry == "self" or len(entry) > 1_000
                    or "glob" in self.options and any(c in entry for c in "*?[")):
                continue
            m = _TOC_ENTRY.match(entry) if entry.endswith(">") else None
            title, target = (m.group(1).strip(), m.group(2).strip()) if m else ("", entry)
            if re.match(r"^[a-z][a-z0-9+.-]*://", target):
                continue
            if not title and xrefs is not None:
                title = xrefs.doc_title(target, docname=docname) or ""
            items += nodes.list_item("", nodes.paragraph("", title or target))
        if len(items):
            out.append(items)
        return out


#: the directive murar writes around an autoclass's content (:class:`_ClassContext`)
CLASS_CONTEXT = "murar-autodoc-class-content"
#: autodoc directives that document a member of a class: in an ``autoclass``'s content, the
#: name is looked up in that class (``.. automethod:: __init__`` under ``.. autoclass:: Gradebook``)
_CLASS_MEMBER_DIRECTIVES = frozenset({"automethod", "autoattribute", "autoproperty"})


class _Autodoc(_Container):
    """``sphinx.ext.autodoc`` directives (``automodule``, ``autoclass``, ``autofunction``,
    ...) and sphinx-automodapi's ``automodapi``: the reST Sphinx inserts for the object
    (:func:`murar.ingest.markup.autodoc.autodoc_rst`, from the module source the site
    finds, :meth:`SphinxSite.resolve_python_object`), parsed where the directive stands
    with titles allowed, its images resolving against the page. An object whose source
    is not in the corpus keeps the signature as written, with a warning."""

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        name = AUTODOC_ALIASES.get(self.name.lower(), self.name.lower())
        arg = " ".join(self.arguments).strip()
        m = re.match(r"^([A-Za-z_][\w.]*)\s*(\(.*)?$", arg, re.DOTALL)
        if m is None:
            return super().run()
        identifier, signature = m.group(1), (m.group(2) or "").strip() or None
        is_module = name in ("automodule", "automodapi")
        module_opt = str(self.options.get("module") or "").strip()
        candidates = [identifier]
        if not is_module:
            base = module_opt or ctx.current_module
            if base:
                candidates.insert(0, f"{base}.{identifier}")
            if ctx.class_context and name in _CLASS_MEMBER_DIRECTIVES:
                # written in an autoclass's content: Sphinx documents it as a member of that class
                # first (the content is parsed with the class as the current py:class)
                candidates.insert(0, f"{ctx.class_context[-1]}.{identifier}")
        lines = None
        if ctx.api_lines_left <= 0:  # the page's autodoc budget is spent: nothing more is rendered
            ctx.warnings.append(f"line {self.lineno}: {name} {identifier}: the page's autodoc text is over"
                                f" {_MAX_API_LINES} lines; left out")
            return super().run()
        for candidate in candidates:
            lines = self._render(candidate, name, signature, ctx)
            if lines is not None:
                break
        if lines is None:
            ctx.api_missing.append(identifier)
            return super().run()
        ctx.api_lines_left -= max(len(lines), 1)
        if ctx.api_lines_left < 0:
            ctx.warnings.append(f"line {self.lineno}: {name} {identifier}: the page's autodoc text is over"
                                f" {_MAX_API_LINES} lines; left out")
            return super().run()
        if name == "automodule":
            ctx.current_module = identifier
        if self.content:  # content written under the directive follows the docstring
            inner = [f"   {ln}" if ln.strip() and not is_module else ln for ln in self.content]
            if name in ("autoclass", "autoexception"):  # read as that class's members (_ClassContext)
                inner = ["", f"   .. {CLASS_CONTEXT}:: {candidate}", "", *inner, "", f"   .. {CLASS_CONTEXT}::", ""]
            lines += inner
        page = str((ctx.site.config.root / ctx.page_rel).resolve())
        text = "\n".join(lines)
        _register_unknown(text, ctx.unknown)
        self.state_machine.insert_input(StringList(lines, source=page), page)
        return []

    def _render(self, identifier: str, name: str, signature: str | None, ctx: _Context) -> list[str] | None:
        finder = getattr(ctx.site, "resolve_python_object", None)
        if not callable(finder):
            return None
        options = dict(self.options)
        shown_as: list[tuple[str, str | None]] = []  # autodoc shows the name as documented, not where it is defined

        module_found: list[tuple[ast.Module, str]] = []  # a module met where an object is asked for
        last_resort: list[bool] = []  # set when that module is rendered after all

        def render(tree: ast.Module, path: list[str], module: str) -> list[str] | None:
            if not path and name not in ("automodule", "automodapi") and not last_resort:
                # a module where a class or function is asked for: autodoc imports the parent package
                # and takes the name it binds (the class 'from .Dial import *' binds over the
                # submodule Dial), which follow_object looks up next; the module is the last resort
                module_found.append((tree, module))
                if not shown_as:  # shown as documented: 'pkg.C' is C of the package pkg
                    parent, _, leaf = module.rpartition(".")
                    shown_as.append((parent, leaf))
                return None
            if not shown_as:
                shown_as.append((module, path[-1] if path else None))
            lines: list[str] | None = autodoc_rst(
                tree, path, directive=name, module=shown_as[0][0], options=options, config=ctx.autodoc,
                signature=signature, cache=ctx.api_index, shown=shown_as[0][1])
            return lines

        found = follow_object(identifier, find=finder, tree_of=lambda rel: self._tree(rel, ctx), render=render,
                              alias_of=assigned_name, max_hops=_MAX_ALIAS_HOPS)
        if found is None and module_found:
            tree, module = module_found[0]
            last_resort.append(True)  # the module, as murar read it before
            shown_as[:] = []
            return render(tree, [], module)
        return found

    def _summary_of(self, identifier: str, ctx: _Context) -> str | None:
        """The autosummary summary of ``identifier`` (followed through re-exports), or None."""
        finder = getattr(ctx.site, "resolve_python_object", None)
        if not callable(finder):
            return None
        return follow_object(identifier, find=finder, tree_of=lambda rel: self._tree(rel, ctx),
                             render=lambda tree, path, _module: autosummary_summary(tree, path, ctx.api_index),
                             alias_of=assigned_name, max_hops=_MAX_ALIAS_HOPS)

    @staticmethod
    def _tree(rel: str, ctx: _Context) -> ast.Module | None:
        if rel not in ctx.api_trees:
            try:
                source = (ctx.site.config.root / rel).read_text(encoding="utf-8", errors="replace")[:2_000_000]
            except OSError:
                return None
            if len(source) > ctx.api_chars_left:
                ctx.warnings.append(f"autodoc: the page's Python sources are over {_MAX_API_SOURCE_CHARS}"
                                    f" characters; {rel} not read")
                return None
            ctx.api_chars_left -= len(source)
            ctx.api_trees[rel] = parse_module(source)
        return ctx.api_trees[rel]



class _Autosummary(_Autodoc):
    """``sphinx.ext.autosummary``'s ``autosummary``: a table of the listed objects (names
    relative to ``currentmodule``; ``~`` shows the last part) with the first sentence of
    each docstring, read from the module source as autodoc reads it; an object whose
    source is not in the corpus keeps its name with no summary. At most
    :data:`murar.ingest.markup.autodoc.MAX_MEMBERS` rows."""

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        rows: list[tuple[str, str]] = []
        for raw in list(self.content)[:MAX_MEMBERS]:
            item = raw.strip()
            if not item or item.startswith(":") or not re.fullmatch(r"~?[A-Za-z_][\w.]*", item):
                continue
            short, item = item.startswith("~"), item.lstrip("~")
            summary = None
            if ctx.api_lines_left > 0:
                bases = [f"{ctx.current_module}.{item}"] if ctx.current_module else []
                for candidate in (*bases, item):
                    summary = self._summary_of(candidate, ctx)
                    if summary is not None:
                        break
                ctx.api_lines_left -= 2
            if summary is None:
                ctx.api_missing.append(item)
            rows.append((item.rsplit(".", 1)[-1] if short else item, summary or ""))
        if not rows:
            return []
        lines = autosummary_rst(rows)
        page = str((ctx.site.config.root / ctx.page_rel).resolve())
        _register_unknown("\n".join(lines), ctx.unknown)
        self.state_machine.insert_input(StringList(lines, source=page), page)
        return []

class _LabelledAdmonition(Directive):  # type: ignore[misc]  # docutils ships no types
    """Sphinx's ``seealso`` and ``todo`` (sphinx.ext.todo): admonitions that take no
    argument, so text on the directive line, and lines right under it, are content;
    read like the other admonitions ("See also: ...")."""

    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        name = self.name.lower()
        if name == "todo" and not _ctx(self).todo:
            return []
        label = _LABELS.get(name, name.capitalize())
        node = nodes.admonition("\n".join(self.content))
        node += nodes.title(label, label)
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class _BlogUpdate(Directive):  # type: ignore[misc]  # docutils ships no types
    """ABlog's ``.. update:: 20 Apr, 2014`` (ablog/post.py ``UpdateDirective``, an
    admonition whose title ABlog sets to "Updated on" and the date): read like the other
    admonitions, "Updated on 20 Apr, 2014: ...". (Its ``postlist``, a list of posts
    ABlog builds from the whole blog, shows nothing here, as ``toctree``.)"""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        label = f"Updated on {self.arguments[0].strip()}"
        node = nodes.admonition("\n".join(self.content))
        node += nodes.title(label, label)
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def _parse_with_titles(directive: Directive, box: nodes.Element) -> None:
    """Parse a directive's body into ``box`` allowing section titles, as Sphinx's
    ``nested_parse_with_titles`` does for object descriptions (a ``confval`` whose
    body has an "Examples" title): docutils alone reports "Unexpected section title"
    and drops it. The title stays as a paragraph of the body, not a page section."""
    state = directive.state
    memo = state.memo
    saved = memo.title_styles, memo.section_level
    memo.title_styles, memo.section_level = [], 0
    try:
        state.nested_parse(directive.content, directive.content_offset, box, match_titles=True)
    finally:
        memo.title_styles, memo.section_level = saved
    for section in list(box.findall(nodes.section)):
        if section.parent is None:
            continue
        replacement: list[nodes.Node] = []
        for child in section.children:
            if isinstance(child, nodes.title):
                replacement.append(nodes.paragraph(child.rawsource, "", *child.children))
            else:
                replacement.append(child)
        section.replace_self(replacement)


class _Thumbnail(Directive):  # type: ignore[misc]  # docutils ships no types
    """sphinxcontrib-images ``.. thumbnail:: path`` (body = caption): a figure."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        fig = nodes.figure()
        fig += nodes.image(uri=self.arguments[0].strip(), alt=str(self.options.get("alt") or ""))
        caption = " ".join(line.strip() for line in self.content).strip() or str(self.options.get("title") or "")
        if caption:
            fig += nodes.caption(caption, caption)
        return [fig]


class _Plot(Directive):  # type: ignore[misc]  # docutils ships no types
    """matplotlib's ``plot`` directive (matplotlib.sphinxext.plot_directive): the figures
    come from running the code, which murar never does, so what shows is the source when
    ``:include-source:`` (or conf.py ``plot_include_source``, default off) asks for it, and
    the caption: ``:caption:``, or the content when the code comes from a file (the
    argument, read from the source directory, or ``plot_basedir`` under conf.py's folder).
    Inline code without include-source is never page text."""

    optional_arguments = 2
    final_argument_whitespace = False
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        values = getattr(getattr(ctx.site, "conf", None), "values", None) or {}
        flag = self.options.get("include-source")
        if "include-source" in self.options:
            show = str(flag or "").strip().lower() not in ("false", "no", "0", "off")
        else:
            show = values.get("plot_include_source") is True
        content = "\n".join(self.content)
        caption = str(self.options.get("caption") or "").strip()
        code = ""
        if self.arguments:
            if not caption:
                caption = " ".join(content.split())
            if show:
                basedir = values.get("plot_basedir")
                target = ("/" + self.arguments[0].lstrip("/") if not isinstance(basedir, str) or not basedir
                          else f"/{basedir.strip('/')}/{self.arguments[0].lstrip('/')}")
                found = _read_site_file(self, target, "plot")
                code = found[1] if found else ""
        elif show:
            code = content
        out: list[nodes.Node] = []
        if code.strip():
            out.append(nodes.literal_block(code, code))
        if caption:
            out.append(nodes.paragraph(caption, caption))
        return out


class _MiniGallery(Directive):  # type: ignore[misc]  # docutils ships no types
    """sphinx-gallery's ``minigallery`` (sphinx_gallery/directives.py MiniGallery): the
    thumbnails of the example scripts its arguments and lines name, as a list of their
    titles, under an ``:add-heading:`` title (default 'Examples using ``obj``') inserted as
    a section title, as the extension inserts it. File paths and globs are matched from the
    source directory (inside the root, at most 100 files); object names list the examples
    the gallery run finds using them (backreferences), which murar cannot know: they give
    nothing (a warning), as a minigallery with no examples does."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        from murar.ingest.markup.gallery import example_title, thumbnail_list

        ctx = _ctx(self)
        objs = [*(self.arguments[0].split() if self.arguments else []), *(ln.strip() for ln in self.content)]
        objs = [o for o in objs if o][:50]
        root = ctx.site.config.root.resolve()
        srcdir = getattr(ctx.site, "srcdir", "")
        base = (root / srcdir).resolve() if isinstance(srcdir, str) else root
        files: list[Path] = []
        unknown: list[str] = []
        for obj in objs:
            try:
                found = [p.resolve() for _, p in zip(range(100), base.glob(obj), strict=False)]
            except (ValueError, NotImplementedError, OSError):
                found = []
            found = [p for p in found if p.suffix == ".py" and p.is_file() and p.is_relative_to(root)]
            if not found:
                unknown.append(obj)
            files += found
        if unknown:
            ctx.warnings.append(f"minigallery {' '.join(unknown)}: examples using an object are found by running "
                                "the gallery; not listed")
        titles = []
        for path in sorted(set(files))[:100]:
            try:
                titles.append(example_title(path.read_text(encoding="utf-8", errors="replace")[:2_000_000]))
            except OSError:
                continue
        body = thumbnail_list(titles)
        if not body:
            return []
        lines: list[str] = []
        if "add-heading" in self.options:
            heading = str(self.options.get("add-heading") or "").strip() or (
                f"Examples using ``{objs[0]}``" if len(objs) == 1 else "Examples using one of multiple objects")
            level = str(self.options.get("heading-level") or "^")[:1] or "^"
            lines += [heading, level * max(len(heading), 4), ""]
        lines += body.split("\n")
        page = str((ctx.site.config.root / ctx.page_rel).resolve())
        self.state_machine.insert_input(StringList(lines, source=page), page)
        return []


class _Code(Directive):  # type: ignore[misc]  # docutils ships no types
    """``code-block``/``sourcecode``/``code`` and friends: the body as code text, less
    what the directive hides (:func:`murar.ingest.markup.codeshown.shown_code`)."""

    optional_arguments = 99
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        text = shown_code(self.name, self.options, "\n".join(self.content))
        if not text.strip():
            return []
        if "substitutions" in self.options:
            text = self._substituted(text)
        if self.name.lower() == "code-tab":  # a tab of sphinx-tabs' tabs set, holding this code
            label = code_tab_label(" ".join(self.arguments))
            box = nodes.container(classes=["murar-code-tab"])
            box["murar_tab"] = label
            if label:
                box += nodes.paragraph("", label)
            box += nodes.literal_block(text, text)
            return [box]
        literal = nodes.literal_block(text, text)
        if self.arguments:
            literal["language"] = self.arguments[0].split()[0]
        return [*_code_caption(self, code_caption(self.name, self.options)), literal]


    def _substituted(self, text: str) -> str:
        """sphinx-substitution-extensions: a code block with the ``:substitutions:`` option
        shows ``|name|`` replaced by the text of the substitution defined so far (``rst_prolog``'s
        ``.. |version| replace:: 7.0``); an undefined one stays as written."""
        defs = self.state.document.substitution_defs

        def replace(m: re.Match[str]) -> str:
            node = defs.get(m.group(1))
            return node.astext() if node is not None else m.group(0)

        return _SUBSTITUTION_REF.sub(replace, text)


_SUBSTITUTION_REF = re.compile(r"\|([^|\s][^|\n]*?)\|")


class _Math(Directive):  # type: ignore[misc]  # docutils ships no types
    """Sphinx's ``math``: the argument and body as one display formula
    (:func:`murar.ingest.markup.mathtext.display_math`), with its number when
    labelled (``:label:``, or ``:name:`` as Sphinx reads it). The formula may start
    on the directive's line and the lines right under it (one argument, its line
    breaks kept, as Sphinx's ``MathDirective`` takes it)."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        latex = "\n\n".join(p for p in (*self.arguments[:1], "\n".join(self.content)) if p.strip())
        label = str(self.options.get("label") or self.options.get("name") or "").strip()
        number = ""
        if label:
            ctx = getattr(self.state.document.settings, "murar_context", None)
            xrefs = ctx.xrefs()[0] if isinstance(ctx, _Context) else None
            tgt = xrefs.target(label) if xrefs is not None else None
            number = tgt.number if tgt is not None and tgt.kind == "equation" else ""
        text = display_math(latex, number)
        return [nodes.math_block(text, text)] if text else []


_OPTION_LINE = re.compile(r"^:([\w-]+):\s*(.*)$")


def _stray_options(directive: Directive) -> bool:
    """Take ``:option: value`` lines that a blank line pushed into the content
    back as options (Sphinx drops such an image with an error; readers still
    see the screenshot in the source, so murar keeps it). True when the whole
    content was such options."""
    lines = [ln.strip() for ln in directive.content if ln.strip()]
    if not lines or not all(_OPTION_LINE.match(ln) for ln in lines):
        return False
    spec = directive.option_spec or {}
    for ln in lines:
        m = _OPTION_LINE.match(ln)
        assert m is not None
        name, value = m.group(1), m.group(2)
        conv = spec.get(name)
        if conv is None or name in directive.options:
            continue
        try:
            directive.options[name] = conv(value) if value else conv(None)
        except (ValueError, TypeError):
            continue
    _ctx(directive).warnings.append(
        f"line {directive.lineno}: {directive.name} options after a blank line were read as options")
    return True


class _Image(_DocutilsImage):  # type: ignore[misc]  # docutils ships no types
    """docutils' ``image``, tolerant of options separated by a blank line."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        if self.content:
            _stray_options(self)
            setattr(self, "content", StringList())  # noqa: B010 - docutils ships no types
        return list(super().run())


class _Figure(_DocutilsFigure):  # type: ignore[misc]  # docutils ships no types
    """docutils' ``figure``, tolerant of options separated by a blank line."""

    def run(self) -> list[nodes.Node]:
        if self.content and _stray_options(self):
            setattr(self, "content", StringList())  # noqa: B010 - docutils ships no types
        return list(super().run())


class _Raw(_DocutilsRaw):  # type: ignore[misc]  # docutils ships no types
    """docutils' ``raw`` whose ``:file:`` is read through the Site: relative to the file
    holding the directive (docutils' ``Raw.run`` joins it to that file's folder; an
    absolute path, which docutils reads from the disk, and a path out of the root are
    not read), within the page's byte budget, and inserted as if written in the page
    (https://docutils.sourceforge.io/docs/ref/rst/directives.html#raw-data-pass-through).
    An HTML ``:file:`` that is an SVG (``.svg``) is a picture the browser draws in
    the page, so it is the page's image (:class:`_RawPicture`). ``:url:`` is never
    fetched (a warning). Without either option it is docutils' own raw."""

    def run(self) -> list[nodes.Node]:
        ctx = _ctx(self)
        if "url" in self.options:
            ctx.warnings.append(f"raw :url: {self.options['url']!r}: remote files are not fetched")
            return []
        target = str(self.options.get("file") or "").strip()
        if not target:
            return list(super().run())
        fmt = " ".join(self.arguments[0].lower().split())
        if target.startswith("/"):
            ctx.warnings.append(f"raw :file: {target!r}: an absolute path (docutils reads it from the disk); "
                                "not read")
            return []
        if target.lower().endswith(".svg") and "html" in fmt.split():
            return [_RawPicture(link=target, base=_source_rel(self, ctx))]
        found = _read_site_file(self, target, "raw :file:")
        if found is None:
            return []
        node = nodes.raw("", found[1], format=fmt)
        node.source, node.line = self.state_machine.get_source_and_line(self.lineno)
        return [node]


class _RawPicture(nodes.General, nodes.Element):  # type: ignore[misc]  # docutils ships no types
    """An SVG file a ``raw:: html`` directive inserts: ``link`` as written, resolved against
    ``base`` (the file holding the directive, relative to the root)."""


class _MystInclude(nodes.General, nodes.Element):  # type: ignore[misc]  # docutils ships no types
    """Markdown pulled into a reST page with ``:parser: myst_parser.sphinx_``: read by the MyST walker."""


class _VideoNode(nodes.General, nodes.Element):  # type: ignore[misc]  # docutils ships no types
    """A video embed found by a Sphinx video extension directive."""


class _Video(Directive):  # type: ignore[misc]  # docutils ships no types
    """``.. youtube:: ID``, ``.. vimeo:: ID``, ``.. video:: path-or-url``."""

    required_arguments = 1
    optional_arguments = 99
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        arg = self.arguments[0].strip().split()[0]
        fmt = _VIDEO_DIRECTIVES.get(self.name.lower(), "{}")
        url = arg if arg.startswith(("http://", "https://", "//")) else fmt.format(arg)
        if self.name.lower() == "peertube":
            # a video ID on a PeerTube instance: the directive's :instance:, else conf.py's
            # peertube_instance (the setting of a project's own peertube extension, Blender's
            # manual), else sphinxcontrib-youtube's default; it was read as a local file
            ctx = getattr(self.state.document.settings, "murar_context", None)
            conf_instance = str(ctx.conf_values().get("peertube_instance") or "") if isinstance(ctx, _Context) else ""
            url = peertube_embed_url(arg, str(self.options.get("instance") or "") or conf_instance)
        return [_VideoNode(url=url, title=str(self.options.get("title") or self.options.get("alt") or ""))]


# ----------------------------------------------------------------------- roles
def _text_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
               options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """Any Sphinx role reduced to the text a reader sees (cross-references: their
    target's title from the site's labels, :func:`murar.ingest.markup.roles.xref_text`)."""
    xrefs = None
    docname = ""
    if name.lower().split(":")[-1] in ("ref", "numref", "doc", "eq"):
        ctx = getattr(inliner.document.settings, "murar_context", None)
        if isinstance(ctx, _Context):
            xrefs, docname = ctx.xrefs()
    shown = role_text(name, text, xrefs=xrefs, docname=docname)
    return [nodes.inline(rawtext, shown)], []


_text_role.options = {"class": directives.class_option}  # type: ignore[attr-defined]
_text_role.content = True  # type: ignore[attr-defined]


def _unknown_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
                  options: dict[str, Any] | None = None, content: Sequence[str] = ()
                  ) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """The generic handler of a role nobody knows (:func:`_text_role`), noting that the
    page used it (a name written only in a code sample is no unknown name)."""
    ctx = getattr(inliner.document.settings, "murar_context", None)
    if isinstance(ctx, _Context):
        ctx.unknown_used.add(f"role {name.lower()}")
    return _text_role(name, rawtext, text, lineno, inliner, options, content)


_unknown_role.options = _text_role.options  # type: ignore[attr-defined]
_unknown_role.content = True  # type: ignore[attr-defined]


def _issue_role(prefix: str) -> Any:
    """A role of sphinx-issues (:func:`murar.ingest.markup.roles.issue_text`)."""
    def role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
             options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        return [nodes.inline(rawtext, issue_text(name.lower(), text, prefix))], []
    return role


def _extlink_role(url: str, caption: str | None) -> Any:
    """A role of conf.py's ``extlinks``: its caption filled with the target (:func:`extlink_text`)."""
    def role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
             options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        return [nodes.inline(rawtext, extlink_text(url, caption, text))], []
    return role


def _numbered_lead(ctx: _Context, name: str, arg: str) -> str:
    """The header sphinx-proof and sphinx-exercise give a block: "Theorem 2 (Title)",
    "Proof.", "Exercise 2 (Title)", "Solution to Exercise 2 (Title)" (a solution's argument
    is its exercise's label); the number as the book counts it (``XrefIndex.block_number``),
    none without a site or for ``:nonumber:``."""
    xrefs, docname = ctx.xrefs()
    if name == "solution":
        return solution_lead(xrefs, arg)
    kind = "exercise" if name == "exercise" else name
    if kind == "prf:proof":
        return "Proof."
    ctx.blocks[kind] = ctx.blocks.get(kind, 0) + 1
    number = xrefs.block_number(docname, kind, ctx.blocks[kind]) if xrefs is not None else ""
    word = "Exercise" if kind == "exercise" else kind.partition(":")[2].capitalize()
    return block_lead(word, number, arg)


def _register_unknown(source: str, unknown: list[str]) -> None:
    """Give every directive and role used in ``source`` that neither docutils
    nor murar knows the generic handler (call inside :func:`_namespace`)."""
    for name in sorted(set(_DIRECTIVE_RE.findall(source))):
        low = name.lower()
        if low not in _KNOWN_DIRECTIVES and low not in directives._directives:
            directives._directives[low] = _UnknownDirective
            unknown.append(f"directive {name}")
    declared = {name.lower() for name in _DECLARED_ROLE_RE.findall(source)}
    for name in sorted(set(_ROLE_RE.findall(source))):
        low = name.lower()
        if low not in _KNOWN_ROLES and low not in roles._roles:
            if low not in declared:  # a role the page declares itself is no unknown name
                unknown.append(f"role {name}")
            roles._roles[low] = _unknown_role


@contextlib.contextmanager
def _namespace(source: str, ctx: _Context) -> Iterator[list[str]]:
    """Register murar's directive and role handlers for one parse; restore after.

    The primary domain's object directives (``ctx.object_directives``, with the object
    types conf.py's ``setup`` adds), their roles and conf.py's extlinks roles are
    registered too, so none warns or falls to docutils.

    Yields the names of unknown directives/roles that got the generic handler
    (included files add theirs to the same list).
    """
    unknown: list[str] = []
    with _REGISTRY_LOCK:
        saved_d, saved_r = dict(directives._directives), dict(roles._roles)
        try:
            directives._directives["include"] = _Include
            directives._directives["mdinclude"] = _MdInclude
            directives._directives["csv-table"] = _CsvTable
            directives._directives["literalinclude"] = _LiteralInclude
            directives._directives["image"] = _Image
            directives._directives["figure"] = _Figure
            directives._directives["raw"] = _Raw
            directives._directives["role"] = _Role
            for name in _DROP_DIRECTIVES:
                directives._directives[name] = _DropFields if name == "meta" else _Drop
            for name in _CONTAINER_DIRECTIVES - {"admonition", "sidebar", "topic", "rubric", "epigraph",
                                                 "container"}:
                directives._directives[name] = _ContentOnly if name in _NO_ARGUMENTS else _Container
            for name in _CODE_DIRECTIVES - {"code", "parsed-literal"}:
                directives._directives[name] = _Code
            for kind in PROOF_TYPES | {"proof"}:  # sphinx-proof's blocks: a numbered header, then the body
                directives._directives[f"prf:{kind}"] = _Container
            for name in _VIDEO_DIRECTIVES:
                directives._directives[name] = _Video
            directives._directives["thumbnail"] = _Thumbnail
            directives._directives["minigallery"] = _MiniGallery
            directives._directives["plot"] = _Plot
            directives._directives["nbgallery"] = directives._directives["nblinkgallery"] = _NbGallery
            directives._directives["seealso"] = directives._directives["todo"] = _LabelledAdmonition
            directives._directives["math"] = _Math
            for kind in ("", *(":" + k for k in DATATEMPLATE_KINDS)):
                directives._directives["datatemplate" + kind] = _DataTemplate
            if "ablog" in ctx.extensions:
                directives._directives["update"] = _BlogUpdate
                directives._directives["postlist"] = _Drop
            if "sphinx_jinja" in ctx.extensions:
                directives._directives["jinja"] = _Jinja
            for name in AUTODOC_DIRECTIVES:
                directives._directives[name] = _Autodoc
            directives._directives["autosummary"] = _Autosummary
            for name in ("currentmodule", "module", "py:currentmodule", "py:module"):
                directives._directives[name] = _CurrentModule
            directives._directives[CLASS_CONTEXT] = _ClassContext
            for name in ctx.object_directives:
                directives._directives[name] = _Container
            for name in ctx.target_directives:
                directives._directives[name] = _Drop
            for name, prefix in ctx.issue_roles.items():
                roles._roles[name] = _issue_role(prefix)
            for name, (url, caption) in ctx.extlinks.items():
                roles._roles[name.lower()] = _extlink_role(url, caption)
            for name in ctx.object_roles:
                roles._roles[name] = _text_role
            roles._roles["pep"] = roles._roles["rfc"] = _text_role  # Sphinx's: anchors allowed
            _register_unknown(source, unknown)
            yield unknown
        finally:
            directives._directives.clear()
            directives._directives.update(saved_d)
            roles._roles.clear()
            roles._roles.update(saved_r)


# sphinx-design's badge roles (sphinx_design/badges_buttons.py): bdg-<color>, -line, bdg-link-/bdg-ref- variants
_DESIGN_BADGE = re.compile(r"bdg(?:-link|-ref)?-(?:primary|secondary|success|info|warning|danger|light|muted|dark|"
                           r"white|black)(?:-line)?")
_SPHINX_ROLES = frozenset({
    "guilabel", "menuselection", "ref", "doc", "kbd", "term", "numref", "download", "abbr", "command",
    "file", "program", "option", "envvar", "samp", "dfn", "mimetype", "makevar", "manpage", "regexp",
    "any", "keyword", "token", "eq", "func", "meth", "class", "mod", "attr", "obj", "data", "exc",
    "const", "confval", "dudir", "durole", "py:func", "py:meth", "py:class", "py:mod", "py:attr",
    "py:obj", "py:data", "py:exc",
    "py:const", "sup", "sub", "math", "cite", "fa", "octicon", "bdg", "badge", "iconify", "icon", "button",
    "external+", "github", "issue", "pr", "pep", "rfc", "fab", "fas", "mailheader", "newsgroup", "cve", "cwe",
})


# ------------------------------------------------------------------------ walk
class _Walker:
    def __init__(self, builder: PageBuilder, ctx: _Context) -> None:
        self.b = builder
        self.ctx = ctx
        self._inline_images: dict[int, dict[int, bool]] = {}  # text element -> image -> in a sentence

    def walk(self, node: nodes.Node, depth: int = 0) -> None:
        if isinstance(node, nodes.Text):
            # astext(): docutils keeps a backslash-escaped character as NUL + character ("\\*args")
            self.b.text(node.astext())
            return
        if isinstance(node, (nodes.comment, nodes.substitution_definition, nodes.system_message,
                             nodes.target, nodes.pending, nodes.decoration, nodes.meta)):
            return
        if isinstance(node, nodes.section):
            self.section(node, depth)
            return
        if isinstance(node, nodes.figure):
            self.figure(node)
            return
        if isinstance(node, nodes.image):
            self.image(node, caption="")
            return
        if isinstance(node, nodes.table):
            self.table(node)
            return
        if isinstance(node, (nodes.literal_block, nodes.doctest_block, nodes.math_block)):
            self.b.code(node.astext())
            return
        if isinstance(node, nodes.raw):
            self.raw(node)
            return
        if isinstance(node, nodes.math):  # docutils' own :math: role
            self.b.text(inline_math(node.astext()))
            return
        if isinstance(node, _VideoNode):
            self.b.video(str(node.get("url", "")), title=str(node.get("title", "")))
            return
        if isinstance(node, _RawPicture):
            base = str(node.get("base", ""))
            with self.b.written_in(base):
                self.b.image(str(node.get("link", "")), page_rel=base)
            return
        if isinstance(node, _MystInclude):
            from murar.ingest.markup.myst import MystParser

            rel = str(node.get("rel", ""))
            with self.b.written_in(rel):
                MystParser(self.b, site=self.ctx.site, options=self.ctx.opts).feed(str(node.get("text", "")),
                                                                                  file_rel=rel)
            return
        if isinstance(node, nodes.container) and (node.get("murar_tab_set") or node.get("murar_tab") is not None):
            self.tab_container(node, depth)
            return
        if isinstance(node, nodes.problematic):
            self.b.text(re.sub(r"^[|`:]+|[|`_]+$", "", node.astext()))
            return
        if isinstance(node, (*_ADMONITIONS, nodes.admonition)):
            self.admonition(node, depth)
            return
        if isinstance(node, nodes.title):
            self.b.end_paragraph()
            self.children(node, depth)
            self.b.end_paragraph()
            return
        if isinstance(node, (nodes.footnote_reference, nodes.citation_reference)):
            return
        if isinstance(node, nodes.label) and isinstance(node.parent, (nodes.footnote, nodes.citation)):
            return
        if isinstance(node, (nodes.term, nodes.classifier)):
            self.term(node, depth)
            return
        if isinstance(node, nodes.field_name):
            self.field_name(node, depth)
            return
        self.children(node, depth)
        if isinstance(node, (nodes.Structural, nodes.Body, nodes.list_item, nodes.term, nodes.definition,
                             nodes.field_body, nodes.entry, nodes.line, nodes.caption,
                             nodes.legend, nodes.label, nodes.subtitle)) and not isinstance(node, nodes.Inline):
            self.b.end_paragraph()

    def term(self, node: nodes.term | nodes.classifier, depth: int) -> None:
        """A definition list term and its classifiers on one line, ``term : classifier``,
        as Sphinx's HTML shows them (basic.css puts ``:`` before each ``.classifier``)."""
        if isinstance(node, nodes.classifier):
            self.b.text(" : ")
        self.children(node, depth)
        if not isinstance(node.next_node(descend=False, siblings=True), nodes.classifier):
            self.b.end_paragraph()

    def field_name(self, node: nodes.field_name, depth: int) -> None:
        """A field list's name and the first line of its body on one line, ``name: body``,
        as Sphinx's HTML draws a field list (``dl.field-list``: a colon after each name,
        the body beside it; Blender's ':Menu: Mesh --> Merge' reference boxes). The same
        reading as MyST's field lists."""
        self.b.end_paragraph()
        self.children(node, depth)
        self.b.text(": ")

    def tab_container(self, node: nodes.container, depth: int) -> None:
        """A sphinx-design ``tab-set`` or sphinx-tabs ``tabs`` (its media are told
        apart by tab), or one ``tab-item``/``tab`` in it."""
        self.b.end_paragraph()
        if node.get("murar_tab_set"):
            self.b.open_tab_set()
            for child in node.children:  # its tabs: no set of their own
                self.walk(child, depth)
            self.b.close_tab_set()
        else:
            self.b.tab(str(node.get("murar_tab", "")))
            self.children(node, depth)
        self.b.end_paragraph()

    def children(self, node: nodes.Node, depth: int) -> None:
        self._siblings(node.children, depth)

    def _siblings(self, children: Iterable[nodes.Node], depth: int) -> None:
        """Walk ``children`` in order. A run of tabs outside any tab set (sphinx-inline-tabs'
        ``.. tab::``: consecutive tabs are one set, "Usage"; ``:new-set:`` starts another)
        is a tab set that ends at the first sibling that is no such tab, or with the parent."""
        in_set = False
        for child in children:
            bare_tab = isinstance(child, nodes.container) and child.get("murar_tab") is not None \
                and not child.get("murar_tab_set")
            if in_set and (not bare_tab or child.get("murar_new_set")):
                self.b.close_tab_set()
                in_set = False
            if bare_tab and not in_set:
                self.b.open_tab_set()
                in_set = True
            self.walk(child, depth)
        if in_set:
            self.b.close_tab_set()

    def document(self, doc: nodes.document, depth: int) -> None:
        """The whole doctree; a field list before any other content is Sphinx's
        file-wide metadata (``:orphan:``, ``:tocdepth:``), not text."""
        kept: list[nodes.Node] = []
        for child in doc.children:
            if not kept and isinstance(child, nodes.field_list):
                continue
            if not isinstance(child, (nodes.comment, nodes.target, nodes.substitution_definition)) or kept:
                kept.append(child)
            else:
                self.walk(child, depth)
        self._siblings(kept, depth)

    def section(self, node: nodes.section, depth: int) -> None:
        title_node = node.next_node(nodes.title)
        title = _title_text(title_node) if title_node is not None and title_node.parent is node else ""
        ids = node.get("ids") or []
        self.b.heading(depth + 1, title, ids[0] if ids else None)
        self._siblings((child for child in node.children if child is not title_node), depth + 1)

    def image(self, node: nodes.image, *, caption: str) -> None:
        uri = str(node.get("uri", "")).strip()
        if not uri:
            return
        if "*" in uri:  # Sphinx "image.*": pick the first existing candidate
            uri = self._wildcard(uri)
        with self.b.written_in(self._source_of(node)):
            # :width: ("16px", a bare number docutils writes as pixels, "1.5em" for an icon sized
            # to the text) is the size the HTML writer draws the picture at; % and :scale: are
            # left to the file's size
            self.b.image(uri, alt=_reader_alt(node), caption=caption, inline=self._in_sentence(node),
                         declared_width=length_px(str(node.get("width") or "")),
                         classes=[str(c) for c in node.get("classes", [])] + self._figure_classes(node))

    @staticmethod
    def _figure_classes(node: nodes.image) -> list[str]:
        """The classes of the figure holding ``node`` (its ``:figclass:``): a figure marked
        ``only-dark`` (Furo, pydata-sphinx-theme) is hidden with its picture."""
        parent = node.parent
        if isinstance(parent, nodes.reference):  # an image with :target: sits in a reference
            parent = parent.parent
        return [str(c) for c in parent.get("classes", [])] if isinstance(parent, nodes.figure) else []

    def _in_sentence(self, node: nodes.image) -> bool:
        """An image inside running text: a ``|name|`` substitution (or an image in a
        reference) in a paragraph, table cell or title with words on the same source
        line (:func:`murar.ingest.media_flags.is_inline_line`). A directive's image
        stands alone (its parent is a section, figure or list item, not text). Each
        text element is read once per page (a paragraph of 10,000 icons is linear)."""
        cur: nodes.Node | None = node.parent
        while isinstance(cur, nodes.Inline):
            cur = cur.parent
        if not isinstance(cur, nodes.TextElement):
            return False
        key = id(cur)
        if key not in self._inline_images:
            # the element's text with NUL where each image stands; an image's line is its sentence
            parts = [IMAGE_MARK if isinstance(n, nodes.image) else n.astext()
                     for n in cur.findall(lambda n: isinstance(n, (nodes.Text, nodes.image)))]
            images = [n for n in cur.findall(nodes.image)]
            flags = marked_images_inline("".join(parts))
            self._inline_images[key] = {id(img): f for img, f in zip(images, flags)}
        return self._inline_images[key].get(id(node), False)

    def _source_of(self, node: nodes.Node) -> str | None:
        """The file (relative to the root) a node was written in, when docutils knows."""
        cur: nodes.Node | None = node
        while cur is not None:
            src = getattr(cur, "source", None)
            if src:
                try:
                    return Path(src).resolve().relative_to(self.ctx.site.config.root).as_posix()
                except (ValueError, OSError):
                    return None
            cur = cur.parent
        return None

    def _wildcard(self, uri: str) -> str:
        """``image.*``: the existing file Sphinx's HTML builder shows (:data:`SPHINX_IMAGE_ORDER`,
        svg before png), as MyST's; ``image.png`` when none exists."""
        res = self.ctx.site.resolve_asset(uri.replace("*", "png"), page_rel=self.ctx.page_rel)
        if res.rel_path is None:
            return uri
        base = (self.ctx.site.config.root / res.rel_path).with_suffix("")
        for ext in SPHINX_IMAGE_ORDER:
            if base.with_suffix(f".{ext}").is_file():
                return uri.replace("*", ext)
        return uri.replace("*", "png")

    def figure(self, node: nodes.figure) -> None:
        cap = node.next_node(nodes.caption)
        caption = _title_text(cap) if cap is not None else ""
        # the figure's pictures; an icon in its caption (|icon| substitution) is an inline
        # picture of that line, never a picture of the figure with its caption
        images = [i for i in node.findall(nodes.image)
                  if not any(isinstance(a, (nodes.caption, nodes.legend)) for a in _ancestors(i, node))]
        self.b.end_paragraph()
        for img in images:
            self.image(img, caption=caption)
        if cap is not None:
            for img in cap.findall(nodes.image):
                self.image(img, caption="")
        for child in node.children:
            if isinstance(child, nodes.legend):
                self.walk(child)
        self.b.end_paragraph()

    def table(self, node: nodes.table) -> None:
        title = node.next_node(nodes.title)
        caption = _title_text(title) if title is not None and title.parent is node else ""
        headers: list[str] = []
        rows: list[list[str]] = []
        for group in node.findall(nodes.tgroup):
            head = group.next_node(nodes.thead)
            body = group.next_node(nodes.tbody)
            if head is not None:
                head_rows = _grid(head)
                if head_rows:
                    headers = head_rows[-1]
            if body is not None:
                rows.extend(_grid(body))
            break
        for img in node.findall(nodes.image):  # a figure in a cell keeps its caption
            fig = img.parent if isinstance(img.parent, nodes.figure) else None
            cap = fig.next_node(nodes.caption) if fig is not None else None
            self.image(img, caption=_title_text(cap) if cap is not None else "")
        item = self.b.table(headers, rows, caption)
        if item is not None and LAYOUT not in item.flags and _picture_grid(node):
            # its cells read their pictures' alt text, but none has a word of its own: a
            # grid setting pictures side by side (a sponsor-logo table), as media_flags says
            item.flags = [*item.flags, LAYOUT]

    def admonition(self, node: nodes.Element, depth: int) -> None:
        self.b.end_paragraph()
        if isinstance(node, nodes.admonition):
            title = node.next_node(nodes.title)
            # the words the title shows: an |icon| in it ('.. admonition:: |hard| Challenge')
            # is drawn, its alt is no title word
            label = _title_text(title) if title is not None else ""
            kids = [c for c in node.children if c is not title]
        else:
            label = node.tagname.capitalize()
            kids = list(node.children)
        if label:
            self.b.text(f"{label}: ")
        for child in kids:
            self.walk(child, depth)
        self.b.end_paragraph()

    def raw(self, node: nodes.raw) -> None:
        if "html" not in str(node.get("format", "")).lower():
            return
        if isinstance(node.parent, nodes.TextElement):
            # raw HTML inside a paragraph (a ``|br|`` or ``|new|`` substitution): its words
            # join the sentence, a <br> is a space, never a paragraph break; embeds are kept
            self.b.text(f" {_inline_html_words(node.astext())} ")
            self.b.html(node.astext(), inline=True)
            return
        self.b.html(node.astext())


def _inline_html_words(html: str) -> str:
    """The words an inline HTML fragment shows (its pictures and scripts aside)."""
    root = LexborHTMLParser(html).body
    if root is None:
        return ""
    for el in root.css("img, iframe, video, script, style, template"):
        el.decompose()
    return " ".join(root.text(deep=True, separator=" ").split())


def _title_text(title: nodes.Element) -> str:
    """A section title's text as Sphinx takes it for the page, the TOC and references
    (``sphinx.util.nodes.clean_astext``): without image alts (a ``|icon|`` substitution
    in a heading shows a picture, not its name) and without raw markup. Figure captions
    and table titles read the same way (the words they show)."""
    parts = [t.astext() for t in title.findall(nodes.Text)
             if not any(isinstance(a, nodes.raw) for a in _ancestors(t, title))]
    return " ".join("".join(parts).split())


def _ancestors(node: nodes.Node, stop: nodes.Node) -> Iterator[nodes.Node]:
    cur = node.parent
    while cur is not None and cur is not stop:
        yield cur
        cur = cur.parent


def _grid(part: nodes.Element) -> list[list[str]]:
    """Rows of cell text with ``morecols``/``morerows`` spans expanded."""
    out: list[list[str]] = []
    pending: dict[int, tuple[str, int]] = {}  # column -> (text, rows left)
    for row in part.children:
        if not isinstance(row, nodes.row):
            continue
        cells: list[str] = []
        col = 0
        entries = [e for e in row.children if isinstance(e, nodes.entry)]
        ei = 0
        while ei < len(entries) or col in pending:
            if col in pending:
                text, left = pending[col]
                cells.append(text)
                if left <= 1:
                    del pending[col]
                else:
                    pending[col] = (text, left - 1)
                col += 1
                continue
            entry = entries[ei]
            ei += 1
            text = _cell_text(entry)
            span = int(entry.get("morecols", 0)) + 1
            down = int(entry.get("morerows", 0))
            for _ in range(span):
                cells.append(text)
                if down:
                    pending[col] = (text, down)
                col += 1
        out.append(cells)
    return out


def _picture_grid(table: nodes.table) -> bool:
    """The body cells of ``table`` hold pictures and no word besides them."""
    pictures = False
    for body in table.findall(nodes.tbody):
        for entry in body.findall(nodes.entry):
            bare = entry.deepcopy()
            for img in list(bare.findall(nodes.image)):
                pictures = True
                img.parent.remove(img)
            if bare.astext().strip():
                return False
    return pictures


def _cell_text(entry: nodes.Element) -> str:
    """A table cell's text: the words it shows, without the alt of an icon beside them
    (QGIS's menu tables: '|fileNew| :guilabel:`New`' reads 'New', as the paragraph does);
    a cell holding only pictures reads their alt text (a feature matrix's check mark, as
    the Markdown reader does)."""
    text = " ".join(" ".join(p.astext() for p in entry.children).split())
    if not any(True for _ in entry.findall(nodes.image)):
        return text
    bare = entry.deepcopy()
    for img in list(bare.findall(nodes.image)):
        img.parent.remove(img)
    words = " ".join(" ".join(p.astext() for p in bare.children).split())
    return words or text


class _MessageStream(io.StringIO):
    """docutils' warning stream: collected as page warnings, never stderr."""


def parse_rst_into(builder: PageBuilder, text: str, *, rel: str, site: Site, options: MarkupOptions,
                   depth: int = 0) -> None:
    """Parse reStructuredText ``text`` written in ``rel`` and feed it to ``builder``
    (used for whole pages and for MyST ``{eval-rst}`` blocks; ``depth`` is the
    section level the text sits at).

    Raises:
        IngestError: docutils gave up on the source (a severe error it cannot recover from),
            or read nothing of it: a line over its ``line_length_limit`` (10,000 characters;
            docutils' Parser.parse stops there, so Sphinx shows only that error).
    """
    ctx = _Context(site=site, page_rel=builder.rel, options=options, warnings=builder.warnings)
    ctx.current_module = builder.py_module
    stream = _MessageStream()
    source_path = str((site.config.root / rel).resolve())
    settings = {
        "report_level": 2, "halt_level": 5, "warning_stream": stream, "file_insertion_enabled": False,
        "raw_enabled": True, "doctitle_xform": False, "docinfo_xform": False, "sectsubtitle_xform": False,
        "syntax_highlight": "none", "input_encoding": "unicode", "murar_context": ctx,
        "character_level_inline_markup": False, "smart_quotes": False, "embed_stylesheet": False,
        "exit_status_level": 5, "traceback": True, "language_code": "en", "tab_width": 8,
    }
    with _namespace(text, ctx) as unknown:
        ctx.unknown = unknown
        try:
            doctree = publish_doctree(text, source_path=source_path, settings_overrides=settings,
                                      reader=_Reader())
        except SystemMessage as err:
            raise IngestError(f"{rel}: reStructuredText error: {err}") from err
        except (RecursionError, ValueError, TypeError, AttributeError, IndexError, KeyError) as err:
            raise IngestError(f"{rel}: docutils failed ({type(err).__name__}: {err})") from err
    builder.py_module = ctx.current_module
    for name in unknown:
        if name.lower() not in ctx.unknown_used:
            continue  # found only in a literal block (a code sample): the generic handler never ran
        # domain directives/roles (py:function, rst:directive, c:func) are Sphinx's own: no warning
        if (":" not in name.split(" ", 1)[1] and not any(name.endswith(" " + s) for s in _SPHINX_ROLES)
                and not (name.startswith("role ") and _DESIGN_BADGE.fullmatch(name[5:]))):
            builder.warnings.append(f"{name}: not a known Sphinx/docutils name; content kept as text")
    if ctx.api_missing:
        more = f" and {len(ctx.api_missing) - 1} more" if len(ctx.api_missing) > 1 else ""
        builder.warnings.append(f"autodoc: Python source of {ctx.api_missing[0]}{more} not found in the corpus;"
                                " docstrings left out, signatures kept as written")
    messages = stream.getvalue()
    too_long = re.search(r"\(\w+/\d\) Line (\d+) exceeds the line-length-limit", messages)
    if too_long:  # the document is only that error: no page at all, silently, before
        raise IngestError(f"{rel}: line {too_long.group(1)} is over docutils' line length limit (10,000 "
                          "characters); docutils, and so Sphinx, read nothing of it")
    for line in messages.splitlines():
        m = re.match(r"^(?:.*?):(\d*): \((\w+)/\d\) (.*)$", line)
        if m:
            where = f"line {m.group(1)}: " if m.group(1) else ""
            builder.warnings.append(f"{where}{m.group(2).lower()}: {m.group(3)}")
    # Sphinx's FilterSystemMessages transform: with keep_warnings off (its default) no docutils
    # report stays in the page; they are build warnings only (above), never a table cell's text
    # (each parent's children filtered once: removing the messages one by one was a list search
    # each, quadratic on a page of 100,000 unclosed inline markups)
    parents = {id(m.parent): m.parent for m in doctree.findall(nodes.system_message) if m.parent is not None}
    for parent in parents.values():
        parent.children = [c for c in parent.children if not isinstance(c, nodes.system_message)]
    _Walker(builder, ctx).document(doctree, depth)


def convert_rst_text(text: str, *, rel: str, site: Site, options: MarkupOptions | None = None,
                     warnings: list[str] | None = None) -> ParsedDocument:
    """Parse reStructuredText ``text`` of the page ``rel`` (relative to the site root).

    Returns the page's sections and media; parse problems are warnings.

    Raises:
        IngestError: docutils gave up on the source (a severe error it cannot recover from).
    """
    opts = options or MarkupOptions()
    builder = PageBuilder(rel=rel, site=site, options=opts)
    if warnings:
        builder.warnings.extend(warnings)
    text = site.preprocess(text, page_rel=rel, warnings=builder.warnings)
    parse_rst_into(builder, text, rel=rel, site=site, options=opts)
    return builder.finish()


def convert_rst(path: Path, *, site: Site, assets_dir: Path | None = None,
                options: MarkupOptions | None = None) -> ParsedDocument:
    """Parse one reStructuredText page (``path`` under ``site.config.root``).

    Raises:
        IngestError: the file is outside the site root, unreadable, binary, or
            docutils gave up on it.
    """
    opts = options or MarkupOptions()
    root = site.config.root
    rel = page_rel(path, root)
    warnings: list[str] = []
    text = read_source(path, max_bytes=opts.max_bytes, warnings=warnings)
    return convert_rst_text(text, rel=rel, site=site, options=opts, warnings=warnings)


def _reader_alt(node: nodes.image) -> str:
    """The image's alt text for a reader: ``""`` when it is only the name of the substitution
    that places it. docutils gives an image defined in ``.. |imgFitWidget3| image:: x.png`` the
    substitution's name as alt when no ``:alt:`` is written (``SubstitutionDef`` passes it as an
    option preset, docutils ``parsers/rst/states.py``), so Sphinx's HTML reads
    ``alt="imgFitWidget3"``: a handle for the author, not a description (it would be the caption
    shown in an answer). A name written as words (``|Save button|``) is kept, and so is an
    alt that merely equals the name of a substitution placing another picture."""
    alt = str(node.get("alt", ""))
    if not alt or any(c.isspace() for c in alt.strip()):
        return alt
    root: nodes.Node = node
    while root.parent is not None:
        root = root.parent
    names = getattr(root, "substitution_names", None)
    defs = getattr(root, "substitution_defs", None)
    if not isinstance(names, dict) or not isinstance(defs, dict):
        return alt
    definition = defs.get(names.get(nodes.whitespace_normalize_name(alt).lower(), ""))
    # the alt names the substitution that placed this very picture (same file), not another one
    placed = definition is not None and any(
        img.get("uri") == node.get("uri") for img in definition.findall(nodes.image))
    return "" if placed else alt
