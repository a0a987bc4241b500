"""The part of a code directive's body a Sphinx page shows, for reST and MyST alike.

Some code directives run their body and show only part of it, or nothing:

- IPython's ``ipython`` directive (``IPython/sphinxext/ipython_directive.py``): with
  the ``:suppress:`` option the block runs unseen; its pseudo-decorator lines
  (``@savefig plot.png width=4in``, ``@suppress``, ``@verbatim``, ``@doctest``) are
  instructions, never shown, and ``@suppress`` hides the input after it;
- sphinx.ext.doctest's ``doctest``, ``testcode`` and ``testoutput`` with ``:hide:``
  are tested but not shown.

``literalinclude`` shows the part of its file its options pick, applied in the order
of Sphinx's ``LiteralIncludeReader`` (sphinx/directives/code.py): ``pyobject``
(a class, function or ``Class.method`` with its decorators, found with :mod:`ast`,
never imported), ``start-at``/``start-after`` and ``end-at``/``end-before`` (the
first line containing the text; ``-at`` keeps that line), ``lines`` (``1,3-5,8-``),
``dedent`` (a number of characters, or common indentation when empty), ``prepend``
and ``append`` (:func:`literalinclude_text`).

Sphinx's ``code-block`` (``sourcecode``, ``code``) and ``literalinclude`` show a
``:caption:`` above the code (sphinx/directives/code.py ``container_wrapper``); an
empty ``literalinclude`` caption is the file name as written (:func:`code_caption`).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Container, Mapping

__all__ = ["code_caption", "literalinclude_text", "shown_code"]

_IPYTHON_DECORATOR = re.compile(r"^\s*@(savefig|suppress|verbatim|doctest)\b")
_HIDEABLE = frozenset({"doctest", "testcode", "testoutput"})
_CAPTIONED = frozenset({"code-block", "sourcecode", "code", "literalinclude"})


def code_caption(directive: str, options: Mapping[str, object], argument: str = "") -> str:
    """The caption Sphinx draws above the code of ``directive`` (its name, any case)
    with ``options``: the ``:caption:`` value as written (inline markup still to be
    read); for ``literalinclude`` an empty ``:caption:`` is its ``argument`` (the file
    name); ``""`` when there is none or the directive draws none."""
    if directive.lower() not in _CAPTIONED or "caption" not in options:
        return ""
    value = options.get("caption")
    caption = value.strip() if isinstance(value, str) else ""
    if not caption and directive.lower() == "literalinclude":
        return argument.strip()
    return caption


def shown_code(directive: str, options: Container[str], text: str) -> str:
    """The code ``directive`` (its name, any case) with ``options`` (their names) shows
    of its body ``text``: ``""`` when the block is hidden. One pass over the lines."""
    name = directive.lower()
    if ("hide" in options and name in _HIDEABLE) or (name == "ipython" and "suppress" in options):
        return ""
    if name != "ipython":
        return text
    kept: list[str] = []
    suppress_next = False
    for line in text.split("\n"):
        m = _IPYTHON_DECORATOR.match(line)
        if m:
            suppress_next = suppress_next or m.group(1) == "suppress"
            continue
        if suppress_next and line.strip():
            suppress_next = False
            continue
        kept.append(line)
    return "\n".join(kept)


_MAX_LINE_SPEC_PARTS = 1_000
_MAX_PICKED_LINES = 100_000


def _line_spec(spec: str, total: int) -> list[int] | None:
    """Sphinx's ``parse_line_num_spec``: ``"1,3-5,8-"`` as 0-based line indexes below
    ``total``; ``None`` when the spec cannot be read (Sphinx then fails the directive)."""
    out: list[int] = []
    for part in spec.split(",")[:_MAX_LINE_SPEC_PARTS]:
        part = part.strip()
        try:
            if part.startswith("-"):
                start, end = 1, int(part[1:])
            elif part.endswith("-"):
                start, end = int(part[:-1]), total
            elif "-" in part:
                a, b = part.split("-", 1)
                start, end = int(a), int(b)
            else:
                start = end = int(part)
        except ValueError:
            return None
        if start < 1 or end < start:
            return None
        out.extend(range(start - 1, min(end, total, start - 1 + _MAX_PICKED_LINES - len(out))))
        if len(out) >= _MAX_PICKED_LINES:  # repeated ranges ("1-,1-,...") never multiply a file
            break
    return out


def _pyobject_span(source: str, name: str) -> tuple[int, int] | None:
    """0-based ``(first, last + 1)`` lines of the class or function ``name``
    (``Class.method``) defined in ``source``, decorators included; ``None`` when the
    source does not parse or defines no such object."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    body: list[ast.stmt] = tree.body
    found: ast.stmt | None = None
    for part in name.split(".")[:20]:
        found = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                      and n.name == part), None)
        if found is None:
            return None
        body = found.body
    if found is None or found.end_lineno is None:
        return None
    first = min([found.lineno, *(d.lineno for d in getattr(found, "decorator_list", []))])
    return first - 1, found.end_lineno


def _first_containing(lines: list[str], text: str) -> int | None:
    return next((i for i, line in enumerate(lines) if text in line), None)


def literalinclude_text(text: str, options: Mapping[str, object]) -> str | None:
    """The part of a file's ``text`` a ``literalinclude`` with ``options`` shows (see the
    module docstring); ``None`` when an option names a part the file does not have
    (Sphinx reports an error and shows nothing). Linear in the file's size."""
    def opt(key: str) -> str | None:
        value = options.get(key)
        return value if isinstance(value, str) else ("" if key in options else None)

    lines = text.split("\n")
    pyobject = opt("pyobject")
    if pyobject:
        span = _pyobject_span(text, pyobject.strip())
        if span is None:
            return None
        lines = lines[span[0]:span[1]]
    start_at, start_after = opt("start-at"), opt("start-after")
    start = start_at if start_at else start_after
    if start:
        i = _first_containing(lines, start)
        if i is None:
            return None
        lines = lines[i:] if start_at else lines[i + 1:]
    end_at, end_before = opt("end-at"), opt("end-before")
    end = end_at if end_at else end_before
    if end:
        i = _first_containing(lines, end)
        if i is None:
            return None
        lines = lines[:i + 1] if end_at else lines[:i]
    spec = opt("lines")
    if spec:
        picked = _line_spec(spec, len(lines))
        if picked is None:
            return None
        lines = [lines[i] for i in picked]
    dedent = opt("dedent")
    if dedent is not None:
        if dedent.strip().isdigit():
            n = int(dedent.strip())
            lines = [line[n:] for line in lines]
        else:
            lines = textwrap.dedent("\n".join(lines)).split("\n")
    prepend, append = opt("prepend"), opt("append")
    if prepend:
        lines.insert(0, prepend)
    if append:
        lines.append(append)
    return "\n".join(lines)
