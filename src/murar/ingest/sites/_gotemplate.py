"""The output of a Go template that only prints values, for reading Hugo shortcodes.

A Hugo site's own shortcode template often prints one value computed from the page
or the site configuration: ``{{- index (split .Page.RelPermalink "/") 2 -}}`` (the
docs version a page's URL holds), ``{{ .Site.Params.version }}``, ``{{ .Page.Params.product
| upper }}``. Go's text/template copies text outside actions verbatim and writes each
action's value; ``{{-``/``-}}`` trim the white space beside an action; ``$name := ...``
sets a variable and writes nothing (pkg.go.dev/text/template, "Actions", "Pipelines",
"Variables"; Hugo "Functions" for the functions below).

:func:`render_value_template` renders such a template: variables, pipelines (``x | f``
passes ``x`` as the last argument of ``f``), parenthesised pipelines, string and number
literals, the shortcode's parameters (``.Get 0``, ``.Get "name"``), and the functions
``index``, ``split``, ``replace``, ``add``, ``markdownify``/``safeHTML`` (the text as is), ``lower``,
``upper``, ``title``, ``trim``, ``strings.TrimPrefix``/``TrimSuffix``/``TrimSpace``, ``path.Base``,
``path.Dir``, ``default``, ``printf`` (``%s``, ``%d``, ``%v``), ``delimit``/``strings.Join``,
``first``/``last``, ``len``, ``eq``/``ne``/``lt``/``le``/``gt``/``ge``/``not``/``and``/``or``/``in``, and
``{{ if }}``/``{{ else if }}``/``{{ else }}``/``{{ end }}`` (a branch not taken is not computed);
with a caller that computes them, Hugo's ``.Page.Param "key"`` and ``T``/``i18n "key"``.
Fields come from a caller's lookup (``.Page.RelPermalink``,
``.Site.Params.x``). Anything else (``range``, ``with``, ``partial``, an unknown
function or field, ``replaceRE``: a site's regular expression
could backtrack for ever) gives ``None``: the template is not
a value template, and the caller reads the shortcode as before; only where such a value
is written as a Markdown link's address or an HTML attribute's value, text no reader
sees, is it left empty and the rest rendered. Bounded: a template of
at most :data:`MAX_TEMPLATE_CHARS` characters and :data:`MAX_ACTIONS` actions, values
of at most :data:`MAX_VALUE_CHARS` characters."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

MAX_TEMPLATE_CHARS = 4_000
MAX_ACTIONS = 20
MAX_VALUE_CHARS = 10_000
MAX_DEPTH = 8  # nested parentheses

Value = str | int | bool | list[str] | dict[str, Any]
FieldLookup = Callable[[str], "Value | None"]
ParamLookup = Callable[["str | int"], str]
#: Hugo's methods and functions the caller computes: ("Param", [key]) for ``.Page.Param "key"``,
#: ("T", [key, ...]) for ``T``/``i18n``/``lang.Translate``; ``None`` when it cannot
HugoCall = Callable[[str, list["Value"]], "Value | None"]
_PARAM_METHODS = frozenset({".Page.Param", "$.Page.Param", ".Param", "$.Param"})
_TRANSLATE_FUNCS = frozenset({"T", "i18n", "lang.Translate"})

_ACTION = re.compile(r"\{\{(-\s)?(.*?)(\s-)?\}\}", re.DOTALL)
_TOKEN = re.compile(r"""\s*(?:(?P<str>"(?:[^"\\\n]|\\.){0,2000}"|`[^`]{0,2000}`)|(?P<num>-?\d{1,9})(?![\w.])"""
                    r"""|(?P<var>\$[A-Za-z_]\w{0,60})|(?P<field>(?:\$|site)?(?:\.[A-Za-z_]\w{0,60}){1,8}|\.)"""
                    r"""|(?P<name>[A-Za-z_]\w{0,60}(?:\.[A-Za-z_]\w{0,60})?)|(?P<op>[()|]|:?=))""")


class _NotValue(Exception):
    """The template does something a value template does not."""


def _truthy(v: Value) -> bool:
    """Go templates' truth: false, 0, "" and an empty list are false."""
    return v not in ("", 0, False, [])


def _str(v: Value) -> str:
    if isinstance(v, dict):
        raise _NotValue  # a whole map is not page text
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + " ".join(v) + "]"  # Go prints a slice as [a b c]
    return str(v)


def _index(coll: Value, *keys: Value) -> Value:
    for key in keys:
        if isinstance(coll, dict) and isinstance(key, str):
            found = data_value(coll.get(key, ""))  # a missing map key gives the zero value
            if found is None:
                raise _NotValue
            coll = found
            continue
        if not isinstance(coll, list) or not isinstance(key, int) or isinstance(key, bool):
            raise _NotValue
        if not 0 <= key < len(coll):
            raise _NotValue  # Hugo fails the build: "index out of range"
        coll = coll[key]
    return coll


def data_value(value: Any) -> Value | None:
    """A value read from a data file as a template value: text, a number, a list of
    scalars (as text), a map; ``None`` for anything else (a list of maps ...)."""
    if isinstance(value, bool | str | dict):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, list) and all(isinstance(x, str | int | float) and not isinstance(x, bool) for x in value):
        return [str(x) for x in value[:1000]]
    return None


def _ordered(a: Value, b: Value) -> int:
    """-1, 0 or 1 comparing two values of one basic kind (Go's lt/gt fail on mixed kinds)."""
    if isinstance(a, bool) or isinstance(b, bool) or type(a) is not type(b) or isinstance(a, list):
        raise _NotValue
    return (a > b) - (a < b)  # type: ignore[operator]


def _printf(fmt: Value, *args: Value) -> str:
    if not isinstance(fmt, str):
        raise _NotValue
    _fits(len(fmt) + sum(len(_str(a)) for a in args))
    it = iter(args)

    def repl(m: re.Match[str]) -> str:
        if m.group(0) == "%%":
            return "%"
        try:
            return _str(next(it))
        except StopIteration:
            raise _NotValue from None
    return re.sub(r"%%|%[sdv]", repl, fmt)


def _s(v: Value) -> str:
    if isinstance(v, list | dict):
        raise _NotValue
    return str(v)


def _fits(size: int) -> int:
    """``size`` (characters a function would make), or :class:`_NotValue` past
    :data:`MAX_VALUE_CHARS`: told before the value is made, not after (``replace $b ""
    $b`` of a 10,000-character ``$b`` made 100,000,000 characters, 0.1 s and 100 MB, for
    each call of the shortcode)."""
    if size > MAX_VALUE_CHARS:
        raise _NotValue
    return size


def _replace(s: Value, old: Value, new: Value, *n: Value) -> str:
    text, before, after = _s(s), _s(old), _s(new)
    hits = (text.count(before) if before else len(text) + 1)
    count = [int(_s(x)) for x in n[:1]]
    if count and count[0] >= 0:
        hits = min(hits, count[0])
    _fits(len(text) + hits * max(len(after) - len(before), 0))
    return text.replace(before, after, *count)


def _join(coll: Value, sep: Value) -> str:
    items = coll if isinstance(coll, list) else [_s(coll)]
    _fits(sum(len(x) for x in items) + len(_s(sep)) * len(items))
    return _s(sep).join(items)


_FUNCS: dict[str, Callable[..., Value]] = {
    "index": _index,
    "split": lambda s, sep: _s(s).split(_s(sep))[:1000] if _s(sep) else list(_s(s))[:1000],
    "replace": _replace,
    "lower": lambda s: _s(s).lower(), "strings.ToLower": lambda s: _s(s).lower(),
    "upper": lambda s: _s(s).upper(), "strings.ToUpper": lambda s: _s(s).upper(),
    "title": lambda s: _s(s).title(), "strings.Title": lambda s: _s(s).title(),
    "trim": lambda s, cut: _s(s).strip(_s(cut)), "strings.Trim": lambda s, cut: _s(s).strip(_s(cut)),
    "strings.TrimSpace": lambda s: _s(s).strip(),
    "strings.TrimPrefix": lambda pre, s: _s(s).removeprefix(_s(pre)),
    "strings.TrimSuffix": lambda suf, s: _s(s).removesuffix(_s(suf)),
    "strings.TrimLeft": lambda cut, s: _s(s).lstrip(_s(cut)), "strings.TrimRight": lambda cut, s: _s(s).rstrip(_s(cut)),
    "path.Base": lambda s: posixpath.basename(_s(s).rstrip("/")) or ("/" if _s(s).startswith("/") else "."),
    "path.Dir": lambda s: posixpath.dirname(_s(s)) or ".",
    "default": lambda d, *v: v[0] if v and v[0] not in ("", 0, []) else d,
    "printf": _printf,
    "delimit": lambda coll, sep, *last: _join(coll, sep),
    "strings.Join": _join,
    "first": lambda n, coll: coll[: int(n)] if isinstance(coll, list) else _s(coll)[: int(n)],
    "last": lambda n, coll: coll[-int(n):] if isinstance(coll, list) and int(n) else [],
    "len": lambda v: len(v),
    # Hugo's add sums numbers and joins strings ({{ add "1.57" ".0" }} is 1.57.0)
    "add": lambda a, b: a + b if isinstance(a, int) and isinstance(b, int) else _s(a) + _s(b),
    # the value as text (the shortcode's output is read as page text, its markup with it)
    # comparisons and logic (text/template "Functions"): eq is true when its first argument equals any other
    "eq": lambda a, *b: any(type(a) is type(x) and a == x for x in b),
    "ne": lambda a, b: not (type(a) is type(b) and a == b),
    "lt": lambda a, b: _ordered(a, b) < 0, "le": lambda a, b: _ordered(a, b) <= 0,
    "gt": lambda a, b: _ordered(a, b) > 0, "ge": lambda a, b: _ordered(a, b) >= 0,
    "not": lambda a: not _truthy(a),
    "and": lambda *a: next((x for x in a if not _truthy(x)), a[-1]),
    "or": lambda *a: next((x for x in a if _truthy(x)), a[-1]),
    "in": lambda coll, v: (v in coll) if isinstance(coll, list) else (_s(v) in _s(coll)),
    # Hugo urlize: a path segment of the text (lower case, blanks as hyphens)
    "urlize": lambda s: re.sub(r"[^\w\-./~]", "", re.sub(r"\s+", "-", _s(s).strip())).lower(),
    "markdownify": lambda s: _s(s), "safeHTML": lambda s: _s(s), "safeURL": lambda s: _s(s),
    "plainify": lambda s: re.sub(r"<[^<>]{0,500}>", "", _s(s)),
}


class _Parser:
    def __init__(self, text: str, fields: FieldLookup, variables: dict[str, Value],
                 get: ParamLookup | None = None, params: Value | None = None, inner: str | None = None,
                 hugo: HugoCall | None = None) -> None:
        self.toks: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if text[pos:].strip():
                    raise _NotValue
                break
            kind = m.lastgroup or ""
            self.toks.append((kind, m.group(kind)))
            pos = m.end()
        self.i = 0
        self.fields = fields
        self.variables = variables
        self.get = get
        self.params = params
        self.inner = inner
        self.hugo = hugo

    def parse_all(self) -> Value:
        """The value of the whole action (a pipeline and nothing after it)."""
        value = self.pipeline()
        if self.peek() is not None:
            raise _NotValue
        return value

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def pipeline(self, depth: int = 0) -> Value:
        if depth > MAX_DEPTH:
            raise _NotValue
        value = self.command(None, depth)
        while (t := self.peek()) is not None and t == ("op", "|"):
            self.i += 1
            value = self.command(value, depth)
        return value

    def command(self, piped: Value | None, depth: int) -> Value:
        t = self.peek()
        if t is None:
            raise _NotValue
        if piped is not None and t[0] == "field" and t[1] in (".Scratch.Set", "$.Scratch.Set", ".Scratch.Get",
                                                              "$.Scratch.Get", ".Get", "$.Get"):
            raise _NotValue
        if t[0] == "field" and t[1] in (".Scratch.Set", "$.Scratch.Set", ".Scratch.Get", "$.Scratch.Get"):
            # the shortcode's scratch pad: Set writes nothing, Get reads what Set stored
            self.i += 1
            key = self.operand(depth)
            if not isinstance(key, str):
                raise _NotValue
            if t[1].endswith("Set"):
                self.variables["\x00scratch." + key] = self.operand(depth)
                value: Value = ""
            else:
                value = self.variables.get("\x00scratch." + key, "")
        elif t[0] == "field" and t[1] in (".Page.RenderString", "$.Page.RenderString"):
            # the page's Markdown renderer: the text is read as page Markdown anyway
            self.i += 1
            given = [self.operand(depth)] if self.peek() not in (None, ("op", "|"), ("op", ")")) else []
            if piped is not None:
                given.append(piped)
            if len(given) != 1:
                raise _NotValue
            value = _s(given[0])
        elif t[0] == "field" and t[1] in (".Get", "$.Get"):
            # the shortcode's parameter: .Get 0 (positional) or .Get "name"
            self.i += 1
            key = self.operand(depth)
            if self.get is None or not isinstance(key, str | int) or isinstance(key, bool) \
                    or self.peek() not in (None, ("op", "|"), ("op", ")")):
                raise _NotValue
            value = self.get(key)
        elif self.hugo is not None and (t[0] == "field" and t[1] in _PARAM_METHODS
                                        or t[0] == "name" and t[1] in _TRANSLATE_FUNCS):
            # Hugo's .Page.Param "key" (the page's parameter, else the site's) and T "key" (i18n)
            self.i += 1
            call_args: list[Value] = []
            while (a := self.peek()) is not None and a != ("op", "|") and a != ("op", ")"):
                call_args.append(self.operand(depth))
            if piped is not None:
                call_args.append(piped)
            if not call_args or not isinstance(call_args[0], str):
                raise _NotValue
            found = self.hugo("Param" if t[0] == "field" else "T", call_args)
            if found is None:
                raise _NotValue
            value = found
        elif t[0] == "name":
            func = _FUNCS.get(t[1])
            if func is None:
                raise _NotValue  # a function murar does not run (partial, .Get, if, range ...)
            self.i += 1
            args: list[Value] = []
            while (a := self.peek()) is not None and a != ("op", "|") and a != ("op", ")"):
                args.append(self.operand(depth))
            if piped is not None:
                args.append(piped)
            try:
                value = func(*args)
            except _NotValue:
                raise
            except (TypeError, ValueError, IndexError):
                raise _NotValue from None
        else:
            if piped is not None:
                raise _NotValue
            value = self.operand(depth)
        if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
            raise _NotValue
        return value

    def operand(self, depth: int) -> Value:
        t = self.peek()
        if t is None:
            raise _NotValue
        kind, text = t
        self.i += 1
        if kind == "str":
            if text.startswith("`"):
                return text[1:-1]
            return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text[1:-1])
        if kind == "num":
            return int(text)
        if kind == "var":
            if text not in self.variables:
                raise _NotValue
            return self.variables[text]
        if kind == "field" and text in (".Inner", "$.Inner", ".InnerDeindent", "$.InnerDeindent"):
            if self.inner is None:
                raise _NotValue
            return self.inner
        if kind == "field" and text in (".Params", "$.Params"):
            if self.params is None:
                raise _NotValue
            return self.params
        if kind == "field":
            found = self.fields(text[1:] if text.startswith("$.") else text)
            if found is None:
                raise _NotValue
            return found
        if (kind, text) == ("op", "("):
            value = self.pipeline(depth + 1)
            if self.peek() != ("op", ")"):
                raise _NotValue
            self.i += 1
            return value
        raise _NotValue


def _in_address(out: list[str], after: str) -> bool:
    """Whether the action just read writes a Markdown link's address (``[Support]({{ x }})``)
    or an HTML attribute's value (``href="{{ x }}"``): what precedes it in the output
    (``out``) ends with ``](`` or ``="``/``='`` and the template text right after it
    (``after``) closes that. Such a value is not text a reader sees, so a value this
    module cannot compute there (a ``partial`` giving a URL) leaves the address empty
    instead of failing the whole template, whose visible text is known."""
    tail = ""
    for piece in reversed(out):
        tail = piece[-2:] + tail
        if len(tail) >= 2:
            break
    tail = tail[-2:]
    return (tail == "](" and after == ")") or (tail in ('="', "='") and after == tail[1])


def render_value_template(text: str, fields: FieldLookup, get: ParamLookup | None = None,
                          params: Value | None = None, inner: str | None = None,
                          hugo: HugoCall | None = None) -> str | None:
    """The output of the Go template ``text`` when every action in it prints a value
    (or sets a variable) :mod:`this module <murar.ingest.sites._gotemplate>` can compute,
    ``fields`` giving each field (``".Page.RelPermalink"`` -> ``"/docs/1.7/x/"``, ``None``
    when unknown), ``get`` the shortcode's parameters (``.Get 0``, ``.Get "name"``) and
    ``params`` all of them (``.Params``: the positional ones as a list, else the named ones);
    ``.Scratch.Set``/``.Scratch.Get`` keep values between actions; ``inner`` is what
    ``.Inner`` writes (a paired shortcode's content: the caller passes a marker and puts
    the content there; ``.Page.RenderString`` and ``markdownify`` leave it as it is);
    ``hugo`` computes ``.Page.Param "key"`` and ``T "key"`` (:data:`HugoCall`);
    ``None`` otherwise, or when there is no action at all. Comments
    ``{{/* */}}`` write nothing. Never raises."""
    if len(text) > MAX_TEMPLATE_CHARS or text.count("{{") > MAX_ACTIONS:
        return None  # (also keeps the action scan linear: each "{{" looks ahead once)
    out: list[str] = []
    variables: dict[str, Value] = {}
    # each open {{ if }}: [its current branch is written, one of its branches was taken]
    frames: list[list[bool]] = []
    pos = 0
    actions = 0

    def value(pipeline: str) -> Value:
        return _Parser(pipeline, fields, variables, get, params, inner, hugo).parse_all()

    for m in _ACTION.finditer(text):
        actions += 1
        if actions > MAX_ACTIONS:
            return None
        before = text[pos:m.start()]
        if m.group(1):
            before = before.rstrip()
        live = all(f[0] for f in frames)
        if live:
            out.append(before)
        body = m.group(2).strip()
        pos = m.end()
        if m.group(3):
            while pos < len(text) and text[pos].isspace():
                pos += 1
        if body.startswith("/*") and body.endswith("*/"):
            continue
        word = re.match(r"(else\s+if|if|else|end|with|range|define|block|template|break|continue)\b", body)
        assign = None
        try:
            if word is not None:
                kind, rest = re.sub(r"\s+", " ", word.group(1)), body[word.end():]
                if kind == "if":  # a branch not written is not computed (its fields may be unknown)
                    taken = live and _truthy(value(rest))
                    frames.append([taken, taken])
                elif kind in ("else if", "else") and frames:
                    frame = frames.pop()
                    outer = all(f[0] for f in frames)
                    taken = outer and not frame[1] and (kind == "else" or _truthy(value(rest)))
                    frames.append([taken, frame[1] or taken])
                elif kind == "end" and frames:
                    frames.pop()
                else:
                    return None  # with, range, define ...: not a value template
                continue
            if not live:
                continue
            assign = re.match(r"(\$[A-Za-z_]\w{0,60})\s*:?=(?!=)\s*", body)
            if assign:
                variables[assign.group(1)] = value(body[assign.end():])
            else:
                out.append(_str(value(body)))
        except (_NotValue, RecursionError):
            if word is None and assign is None and _in_address(out, text[pos:pos + 1]):
                continue  # a link's address or an attribute's value the page does not show as text
            return None
    if not actions or frames:
        return None
    out.append(text[pos:])
    return "".join(out)
