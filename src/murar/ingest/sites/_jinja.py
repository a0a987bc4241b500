"""What a page reads like after a Jinja2 pass that murar cannot run in full.

MkDocs' macros plugin (mkdocs-macros) and markdownextradata render every page
as a Jinja2 template before Markdown sees it. murar does not execute the site's
Python macros; it renders what is data and drops what is code:

- ``{{ name }}``, ``{{ a.b }}``, ``{{ a['b'] }}`` (filters after ``|`` ignored)
  print the variable when it is a string, number or boolean, a string literal
  prints itself; any other expression (a macro call, an unknown name) prints
  nothing and is counted;
- ``{% set name = "value" %}`` defines a variable for the rest of the page;
- ``{% include "file" %}`` inserts the file found by the caller's ``include``
  (rendered too, at most :data:`MAX_INCLUDE_DEPTH` deep and :data:`MAX_INCLUDES`
  times per page);
- ``{% raw %}...{% endraw %}`` is kept as written; ``{# ... #}`` comments and
  every other ``{% ... %}`` tag go (their body stays), a line holding only a
  tag goes whole.

A page that loops over its data or calls the template macros of a file it imports
(``{% for f in df_array %}{{ fns.card(f.name) }}{% endfor %}`` with
``{% import "_macros/x.html" as fns %}``: n8n's function references are nothing
else) cannot be reduced so: it is rendered by Jinja2 itself, in murar's bounded
sandbox (:class:`murar.ingest.markup.jinjabox.BoundedSandbox`), the imported and
included files read by the caller's ``include``; a name the data does not define
(a Python macro of the site) prints nothing, is an empty sequence to loop over,
and is counted as above. A page Jinja2 cannot render (a syntax error, a missing
file, over the budget) is reduced as above; one over the budget (steps, value sizes,
the sandbox's ranges, nesting, includes) is warned about. The sandbox of a site (its ``include``
and delimiters) is kept for all its pages, so the files they import are read and
compiled once; the budget, the names counted and the loads counted are each page's.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from jinja2 import BaseLoader, Environment, Template, TemplateNotFound, Undefined
from jinja2.utils import missing

from murar.ingest.markup.jinjabox import MAX_STEPS, BoundedSandbox, TemplateBudgetError

MAX_INCLUDE_DEPTH = 4
MAX_INCLUDES = 200  # includes rendered for one page, all depths together: a file including itself N times is N**depth
MAX_OUTPUT_CHARS = 5_000_000

@dataclass(frozen=True, slots=True)
class Delimiters:
    """The Jinja2 delimiters of the pages (mkdocs-macros' ``j2_block_start_string`` ...
    ``j2_comment_end_string`` options change them, e.g. ``[[% %]]`` and ``[[ ]]`` so that
    ``{{`` stays text); Jinja2's defaults unless set."""

    block_start: str = "{%"
    block_end: str = "%}"
    variable_start: str = "{{"
    variable_end: str = "}}"
    comment_start: str = "{#"
    comment_end: str = "#}"

    def in_text(self, text: str) -> bool:
        """True when ``text`` may hold Jinja2 markup (an opening delimiter occurs)."""
        return self.variable_start in text or self.block_start in text or self.comment_start in text


@dataclass(frozen=True, slots=True)
class _Patterns:
    """Opening and closing delimiters as patterns, scanned by _sub_spans (not one
    "open(.*?)close" regex: that is quadratic on a page of openers without a closer,
    such as 20,000 "{#")."""

    raw: tuple[re.Pattern[str], re.Pattern[str]]
    comment: tuple[re.Pattern[str], re.Pattern[str]]
    tag_line: re.Pattern[str]  # a tag alone on its line (one line: linear)
    tag: tuple[re.Pattern[str], re.Pattern[str]]
    expr: tuple[re.Pattern[str], re.Pattern[str]]


def _patterns(d: Delimiters) -> _Patterns:
    bs, be = re.escape(d.block_start), re.escape(d.block_end)
    return _Patterns(
        raw=(re.compile(rf"{bs}-?\s*raw\s*-?{be}"), re.compile(rf"{bs}-?\s*endraw\s*-?{be}")),
        comment=(re.compile(re.escape(d.comment_start)), re.compile(re.escape(d.comment_end))),
        tag_line=re.compile(rf"^[ \t]*{bs}-?(.*?)-?{be}[ \t]*\n", re.MULTILINE),
        tag=(re.compile(rf"{bs}-?"), re.compile(rf"-?{be}")),
        expr=(re.compile(rf"{re.escape(d.variable_start)}-?"), re.compile(rf"-?{re.escape(d.variable_end)}")))


_SET = re.compile(r"^\s*set\s+([A-Za-z_]\w*)\s*=\s*(.+?)\s*$", re.DOTALL)
_INCLUDE = re.compile(r"""^\s*include\s+(["'])(.+?)\1""")
_STRING = re.compile(r"""^(["'])(.*)\1$""", re.DOTALL)
_PATH_PART = re.compile(r"""\.([A-Za-z_]\w*)|\[\s*(["'])(.*?)\2\s*\]|\[\s*(\d+)\s*\]""")


def _sub_spans(text: str, delims: tuple[re.Pattern[str], re.Pattern[str]], fn: Callable[[str], str]) -> str:
    """``text`` with each span from an opener to the first closer after it replaced
    by ``fn(what lies between)``; an opener without a closer stays. Linear: the
    scan stops at the first opener that has no closer (none after it has one)."""
    opener, closer = delims
    out: list[str] = []
    pos = 0
    while (start := opener.search(text, pos)) and (stop := closer.search(text, start.end())):
        out += (text[pos:start.start()], fn(text[start.end():stop.start()]))
        pos = stop.end()
    out.append(text[pos:])
    return "".join(out)


def _lookup(expr: str, variables: dict[str, Any]) -> tuple[bool, Any]:
    """``(found, value)`` of a dotted/indexed variable path or a literal."""
    expr = expr.strip()
    lit = _STRING.match(expr)
    if lit:
        return True, lit.group(2)
    if re.fullmatch(r"-?\d+(?:\.\d+)?", expr):
        return True, expr
    head = re.match(r"[A-Za-z_]\w*", expr)
    if not head or head.group(0) not in variables:
        return False, None
    value: Any = variables[head.group(0)]
    pos = head.end()
    while pos < len(expr):
        part = _PATH_PART.match(expr, pos)
        if not part:
            return False, None
        key: Any = part.group(1) or part.group(3)
        if part.group(4) is not None:
            key = int(part.group(4))
        in_dict = isinstance(value, dict) and key in value
        in_list = isinstance(value, list) and isinstance(key, int) and -len(value) <= key < len(value)
        if not (in_dict or in_list):
            return False, None
        value = value[key]
        pos = part.end()
    return True, value


def _printable(value: Any) -> str | None:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def render(text: str, variables: dict[str, Any], *, include: Callable[[str], str | None] | None = None,
           warnings: list[str] | None = None, depth: int = 0, delimiters: Delimiters | None = None,
           _page: tuple[list[int], set[str]] | None = None) -> str:
    """``text`` with its Jinja2 markup reduced as the module doc says.

    ``variables``: the template's names (the caller's ``{% set %}`` values are
    added to a copy); ``include(name)``: the text of an included template, None
    when missing. ``delimiters``: the pages' Jinja2 delimiters (default Jinja2's).
    ``warnings`` gets one line for the expressions not printed and
    one per missing include or include over the limits. Never raises; the output
    is bounded by :data:`MAX_OUTPUT_CHARS`, includes by :data:`MAX_INCLUDE_DEPTH`
    and :data:`MAX_INCLUDES`; time is linear in the text and the included files.
    """
    delims = delimiters or Delimiters()
    if not delims.in_text(text):
        return text
    if depth == 0 and _needs_jinja(text, delims):
        rendered = _jinja_render(text, variables, include=include, warnings=warnings, delimiters=delims)
        if rendered is not None:
            return rendered
    pat = _patterns(delims)
    # what the whole page (all include depths) may still include: files, characters; the refusals warned about
    left, refused = _page if _page is not None else ([MAX_INCLUDES, MAX_OUTPUT_CHARS], set())
    variables = dict(variables)
    raws: list[str] = []

    def keep_raw(body: str) -> str:
        raws.append(body)
        return f"\x00raw{len(raws) - 1}\x00"

    text = _sub_spans(text, pat.raw, keep_raw)
    text = _sub_spans(text, pat.comment, lambda _: "")
    unprinted: list[str] = []

    def tag(body: str) -> str:
        body = body.strip()
        setm = _SET.match(body)
        if setm:
            found, value = _lookup(setm.group(2), variables)
            if found:
                variables[setm.group(1)] = value
            return ""
        incm = _INCLUDE.match(body)
        if incm and include is not None:
            name = incm.group(2)
            why = ("nested too deep" if depth >= MAX_INCLUDE_DEPTH else
                   f"over {MAX_INCLUDES} includes or {MAX_OUTPUT_CHARS} included characters in the page"
                   if left[0] <= 0 or left[1] <= 0 else "")
            if why:
                if warnings is not None and why not in refused:  # one warning per reason and page
                    warnings.append(f"macros: include {name!r} {why}; not included (nor the later ones so refused)")
                refused.add(why)
                return ""
            inner = include(name)
            if inner is None:
                if warnings is not None:
                    warnings.append(f"macros: include {name!r} not found")
                return ""
            left[0] -= 1
            left[1] -= len(inner)
            return render(inner[:MAX_OUTPUT_CHARS], variables, include=include, warnings=warnings, depth=depth + 1,
                          delimiters=delims, _page=(left, refused))
        return ""

    def expr(body: str) -> str:
        body = body.strip()
        found, value = _lookup(body.split("|", 1)[0], variables)
        shown = _printable(value) if found else None
        if shown is None:
            unprinted.append(body)
            return ""
        return shown

    def whole_line_tag(m: re.Match[str]) -> str:
        out = tag(m.group(1))
        return out + "\n" if out else ""

    text = pat.tag_line.sub(whole_line_tag, text)
    text = _sub_spans(text, pat.tag, tag)[:MAX_OUTPUT_CHARS]
    text = _sub_spans(text, pat.expr, expr)[:MAX_OUTPUT_CHARS]
    if unprinted and warnings is not None and depth == 0:
        sample = ", ".join(repr(u[:40]) for u in unprinted[:3])
        warnings.append(f"macros: {len(unprinted)} expression(s) not rendered (site macros are not run): {sample}")
    # a page may hold "\x00raw7\x00" itself: only the numbers handed out here are put back
    return re.sub("\x00raw(\\d{1,9})\x00", lambda r: raws[int(r.group(1))] if int(r.group(1)) < len(raws)
                  else r.group(0), text)


def _needs_jinja(text: str, delims: Delimiters) -> bool:
    """True when ``text`` has a ``for``, ``import``/``from`` or ``macro`` tag: what the
    reduced pass of :func:`render` cannot produce."""
    return re.search(rf"{re.escape(delims.block_start)}-?\s*(?:for|import|from|macro)\s", text) is not None


class _Loader(BaseLoader):
    """Templates an import or include names, read by the caller's ``include``."""

    def __init__(self, include: Callable[[str], str | None] | None) -> None:
        self._include = include

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool]]:
        text = self._include(template) if self._include is not None else None
        if text is None:
            raise TemplateNotFound(template)
        return text[:MAX_OUTPUT_CHARS], None, _always_current


def _always_current() -> bool:
    return True


class _SiteSandbox(BoundedSandbox):
    """The bounded sandbox of one site and delimiter set, kept for all its pages
    (:func:`_sandbox`): a file the pages import or include (``{% import "_macros/x.html"
    as fns %}``) is read and compiled once, then taken from Jinja2's template cache.
    What belongs to one page is set by :meth:`start` before each render: the step
    budget, the names counted as unknown, the page, and the loads: at most
    :data:`MAX_INCLUDES` imports and includes, each counted every time (a file included
    ten times is ten, a cached one counts too), past which the page is refused
    (:class:`TemplateBudgetError`: said, then reduced)."""

    def __init__(self, include: Callable[[str], str | None] | None, delimiters: Delimiters) -> None:
        super().__init__(autoescape=False, keep_trailing_newline=True, loader=_Loader(include),
                         block_start_string=delimiters.block_start, block_end_string=delimiters.block_end,
                         variable_start_string=delimiters.variable_start,
                         variable_end_string=delimiters.variable_end,
                         comment_start_string=delimiters.comment_start, comment_end_string=delimiters.comment_end)
        self.undefined = _unknown_class(self)
        self.unknown: list[str] = []
        self.page: Any = None
        self.loads = 0

    def start(self, page: Any) -> None:
        """Begin rendering a page (``page``: its ``page`` variable): a full budget, nothing counted."""
        self.steps_left = MAX_STEPS
        self.unknown = []
        self.page = page
        self.loads = 0

    def _load_template(self, name: str, globals: MutableMapping[str, Any] | None) -> Template:
        # every load, not every file: f0..f5 each including the next ten times is 10**6 loads of 7 files;
        # a budget error, not TemplateNotFound, which {% include ... ignore missing %} would swallow
        if self.loads >= MAX_INCLUDES:
            raise TemplateBudgetError(f"over {MAX_INCLUDES} includes or imports in the page")
        self.loads += 1
        return super()._load_template(name, globals)


def _unknown_class(env: _SiteSandbox) -> type[Undefined]:
    """The Undefined of ``env``: what it counts goes to the page ``env`` renders."""

    class Unknown(Undefined):
        """A name the data does not define (a site's Python macro or variable): prints
        nothing, loops over nothing, and its attributes and calls are unknown too. A
        call, a name no data holds or an attribute of ``page`` murar does not know (its
        ``parent`` in the nav) is counted, not a key missing from a data item (Jinja2
        prints that as nothing on the site too)."""

        __slots__ = ()

        def _count(self, *, always: bool = False) -> None:
            # a name no data holds, or what murar's page does not know of MkDocs' page (its nav)
            if always or self._undefined_obj is missing or self._undefined_obj is env.page:
                env.unknown.append(self._undefined_name or "?")

        def __call__(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
            self._count(always=True)
            return ""

        def __getattr__(self, name: str) -> Any:
            if name.startswith("__"):
                raise AttributeError(name)
            return self

        def __str__(self) -> str:
            self._count()
            return ""

        def __iter__(self) -> Any:
            self._count()
            return iter(())

    return Unknown


#: the sandboxes kept, by (include, delimiters): a site's include is its bound method, so a
#: site (and its pages) has its own, for as long as it is among the last few used; the site
#: object itself holds none (sites are pickled into worker processes)
_SANDBOXES: OrderedDict[tuple[Callable[[str], str | None] | None, Delimiters], _SiteSandbox] = OrderedDict()
MAX_SANDBOXES = 4


def _sandbox(include: Callable[[str], str | None] | None, delimiters: Delimiters) -> _SiteSandbox:
    """The kept sandbox of ``include`` and ``delimiters``, made on first use."""
    key = (include, delimiters)
    env = _SANDBOXES.get(key)
    if env is None:
        env = _SANDBOXES[key] = _SiteSandbox(include, delimiters)
        while len(_SANDBOXES) > MAX_SANDBOXES:
            _SANDBOXES.popitem(last=False)
    _SANDBOXES.move_to_end(key)
    return env


def _jinja_render(text: str, variables: dict[str, Any], *, include: Callable[[str], str | None] | None,
                  warnings: list[str] | None, delimiters: Delimiters) -> str | None:
    """``text`` rendered by Jinja2 in the bounded sandbox (see the module doc) of the
    site's ``include`` and ``delimiters`` (:func:`_sandbox`); ``None`` when Jinja2
    cannot render it."""
    env = _sandbox(include, delimiters)
    env.start(variables.get("page"))
    out: list[str] = []
    size = 0
    try:
        for chunk in env.from_string(text).generate(**{str(k): v for k, v in variables.items()}):
            out.append(chunk)
            size += len(chunk)
            if size > MAX_OUTPUT_CHARS:
                break
    except (TemplateBudgetError, OverflowError, RecursionError) as err:  # over a bound: said, then reduced
        if warnings is not None:
            warnings.append(f"macros: the page's template is over murar's bounds ({type(err).__name__}: "
                            f"{str(err)[:100]}); rendered without its loops and macros")
        return None
    except Exception:  # noqa: BLE001 - any failure of the template: the reduced pass renders the page
        return None
    unknown = env.unknown
    if unknown and warnings is not None:
        sample = ", ".join(repr(u[:40]) for u in dict.fromkeys(unknown))
        warnings.append(f"macros: {len(unknown)} expression(s) not rendered (site macros are not run): {sample}")
    return "".join(out)[:MAX_OUTPUT_CHARS]
