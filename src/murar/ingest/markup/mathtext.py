"""Formulas as text: one convention for every generator.

Sphinx (``.. math::``, ``:math:``), MyST (``$...$``, ``$$...$$``, ``{math}``),
mystmd and MkDocs with ``pymdownx.arithmatex`` (``$...$``, ``$$...$$``,
``\\(...\\)``, ``\\[...\\]``) hand LaTeX source to MathJax or KaTeX, which the
reader sees typeset. murar keeps the LaTeX source, in the delimiters most
readers (and language models) know:

- inline math: ``$a^2 + b^2$``;
- display math: its own block ``$$ ... $$`` (the source's lines kept), followed
  by ``(1)`` when the generator numbers the equation (a labelled Sphinx/MyST
  equation, the number :mod:`murar.ingest.sites._xrefs` gives it).
"""

from __future__ import annotations

import re

__all__ = ["display_math", "inline_math", "math_code_span", "math_fence"]

_TICKS = re.compile(r"`+")


def inline_math(latex: str) -> str:
    """``latex`` as inline text ``$latex$`` (runs of whitespace one space);
    ``""`` for an empty formula."""
    body = " ".join(latex.split())
    return f"${body}$" if body else ""


def display_math(latex: str, number: str = "") -> str:
    """``latex`` as a display block: ``$$``, the source's non-blank lines, ``$$``,
    then `` (number)`` when the equation is numbered; ``""`` for an empty formula."""
    lines = [ln.rstrip() for ln in latex.strip("\n").splitlines() if ln.strip()]
    if not lines:
        return ""
    indent = min(len(ln) - len(ln.lstrip()) for ln in lines)
    body = "\n".join(ln[indent:] for ln in lines)
    tail = f" ({number})" if number else ""
    return f"$$\n{body}\n$${tail}"


def math_code_span(shown: str) -> str:
    """``shown`` (an :func:`inline_math` text) as a Markdown code span, so the parser reads its
    ``_``, ``*``, ``{...}`` and ``\\`` as written: fenced by one backtick more than its longest
    backtick run, padded with a space when it opens or ends with a backtick (CommonMark code spans)."""
    ticks = "`" * (max((len(r) for r in _TICKS.findall(shown)), default=0) + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{ticks}{pad}{shown}{pad}{ticks}"


def math_fence(indent: str, latex: str) -> list[str]:
    """A display formula (:func:`display_math` of ``latex``) as the lines of a ``~~~~~~`` fenced
    block indented by ``indent``; ``[]`` for an empty formula."""
    shown = display_math(latex)
    return [f"{indent}~~~~~~", *(f"{indent}{ln}" for ln in shown.split("\n")), f"{indent}~~~~~~"] if shown else []
