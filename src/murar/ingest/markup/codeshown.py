"""The part of a code directive's body a Sphinx page shows, for reST and MyST alike.

Some code directives run their body and show only part of it, or nothing:

- IPython's ``ipython`` directive (``IPython/sphinxext/ipython_directive.py``): with
  the ``:suppress:`` option the block runs unseen; its pseudo-decorator lines
  (``@savefig plot.png width=4in``, ``@suppress``, ``@verbatim``, ``@doctest``) are
  instructions, never shown, and ``@suppress`` hides the input after it;
- sphinx.ext.doctest's ``doctest``, ``testcode`` and ``testoutput`` with ``:hide:``
  are tested but not shown.

Sphinx's ``code-block`` (``sourcecode``, ``code``) and ``literalinclude`` show a
``:caption:`` above the code (sphinx/directives/code.py ``container_wrapper``); an
empty ``literalinclude`` caption is the file name as written (:func:`code_caption`).
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping

__all__ = ["code_caption", "shown_code"]

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
