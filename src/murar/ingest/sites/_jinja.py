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
  (rendered too, at most :data:`MAX_INCLUDE_DEPTH` deep);
- ``{% raw %}...{% endraw %}`` is kept as written; ``{# ... #}`` comments and
  every other ``{% ... %}`` tag go (their body stays), a line holding only a
  tag goes whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

MAX_INCLUDE_DEPTH = 4
MAX_OUTPUT_CHARS = 5_000_000

_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.DOTALL)
_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)
_TAG_LINE = re.compile(r"^[ \t]*\{%-?(.*?)-?%\}[ \t]*\n", re.MULTILINE)
_TAG = re.compile(r"\{%-?(.*?)-?%\}", re.DOTALL)
_EXPR = re.compile(r"\{\{-?(.*?)-?\}\}", re.DOTALL)
_SET = re.compile(r"^\s*set\s+([A-Za-z_]\w*)\s*=\s*(.+?)\s*$", re.DOTALL)
_INCLUDE = re.compile(r"""^\s*include\s+(["'])(.+?)\1""")
_STRING = re.compile(r"""^(["'])(.*)\1$""", re.DOTALL)
_PATH_PART = re.compile(r"""\.([A-Za-z_]\w*)|\[\s*(["'])(.*?)\2\s*\]|\[\s*(\d+)\s*\]""")


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
           warnings: list[str] | None = None, depth: int = 0) -> str:
    """``text`` with its Jinja2 markup reduced as the module doc says.

    ``variables``: the template's names (the caller's ``{% set %}`` values are
    added to a copy); ``include(name)``: the text of an included template, None
    when missing. ``warnings`` gets one line for the expressions not printed and
    one per missing include. Never raises; the output is bounded by
    :data:`MAX_OUTPUT_CHARS`.
    """
    if "{{" not in text and "{%" not in text and "{#" not in text:
        return text
    variables = dict(variables)
    raws: list[str] = []

    def keep_raw(m: re.Match[str]) -> str:
        raws.append(m.group(1))
        return f"\x00raw{len(raws) - 1}\x00"

    text = _RAW.sub(keep_raw, text)
    text = _COMMENT.sub("", text)
    unprinted: list[str] = []

    def tag(m: re.Match[str]) -> str:
        body = m.group(1).strip()
        setm = _SET.match(body)
        if setm:
            found, value = _lookup(setm.group(2), variables)
            if found:
                variables[setm.group(1)] = value
            return ""
        incm = _INCLUDE.match(body)
        if incm and include is not None:
            if depth >= MAX_INCLUDE_DEPTH:
                if warnings is not None:
                    warnings.append(f"macros: include {incm.group(2)!r} nested too deep; not included")
                return ""
            inner = include(incm.group(2))
            if inner is None:
                if warnings is not None:
                    warnings.append(f"macros: include {incm.group(2)!r} not found")
                return ""
            return render(inner, variables, include=include, warnings=warnings, depth=depth + 1)
        return ""

    def expr(m: re.Match[str]) -> str:
        body = m.group(1).strip()
        found, value = _lookup(body.split("|", 1)[0], variables)
        shown = _printable(value) if found else None
        if shown is None:
            unprinted.append(body)
            return ""
        return shown

    def whole_line_tag(m: re.Match[str]) -> str:
        out = tag(m)
        return out + "\n" if out else ""

    text = _TAG_LINE.sub(whole_line_tag, text)
    text = _TAG.sub(tag, text)
    text = _EXPR.sub(expr, text)[:MAX_OUTPUT_CHARS]
    if unprinted and warnings is not None and depth == 0:
        sample = ", ".join(repr(u[:40]) for u in unprinted[:3])
        warnings.append(f"macros: {len(unprinted)} expression(s) not rendered (site macros are not run): {sample}")
    return re.sub("\x00raw(\\d+)\x00", lambda r: raws[int(r.group(1))], text)
