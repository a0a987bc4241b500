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

__all__ = ["display_math", "inline_math"]


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
