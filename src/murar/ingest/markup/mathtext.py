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

import bisect
import re

from murar.ingest.markup.mdtext import FenceTracker

__all__ = ["display_math", "inline_math", "math_code_span", "math_fence", "remark_math"]

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


# remark-math (micromark-extension-math) flow: an opening run of 2+ dollars (after the prefix of
# a container: indentation, "> "), an optional meta holding no dollar; closed by a run at least
# as long alone on its line
_MATH_FLOW_OPEN = re.compile(r"^(?P<lead>[ \t]*(?:>[ \t]?)*)(?P<run>\${2,})[ \t]*[^$]*$")
_MATH_FLOW_CLOSE = re.compile(r"^[ \t>]*\${2,}[ \t]*$")
_DOLLARS = re.compile(r"\$+")
_MAX_FLOW_LINES = 500  # a formula that does not close within this many lines is text
_MAX_TEXT_MATH = 2000  # characters an inline formula may hold
_MAX_CODE_SPAN = 20_000  # characters a code span is looked for in (a page of unmatched runs: linear)


def _text_math(par: str) -> str:
    """``par`` (a paragraph, lines joined by newlines) with each remark-math text formula
    (``$...$``, ``$$...$$``: a run of dollars closed by the next run of the same length, not
    escaped by a backslash, in no code span) as ``$...$`` in a code span."""
    if "$" not in par:
        return par
    out: list[str] = []
    i = pos = 0
    n = len(par)
    while i < n:
        c = par[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":  # a code span: its text is code (an unmatched run is text)
            run = len(_TICKS.match(par, i).group(0))  # type: ignore[union-attr]
            close = re.compile(rf"(?<!`)`{{{run}}}(?!`)").search(par, i + run, i + run + _MAX_CODE_SPAN)
            i = close.end() if close else i + run
            continue
        if c != "$":
            i += 1
            continue
        run = len(_DOLLARS.match(par, i).group(0))  # type: ignore[union-attr]
        close = re.compile(rf"(?<![$\\])\${{{run}}}(?!\$)").search(par, i + run, i + run + _MAX_TEXT_MATH)
        inner = par[i + run:close.start()] if close else ""
        if close is None or not inner.strip():
            i += run
            continue
        out += [par[pos:i], math_code_span(inline_math(inner))]
        i = pos = close.end()
    out.append(par[pos:])
    return "".join(out)


def remark_math(lines: list[str], fence: re.Pattern[str]) -> list[str]:
    """``lines`` of a Markdown/MDX page as remark-math reads them: a ``$$`` block (its own
    lines, closed by a ``$$`` line) as a :func:`math_fence`, an inline ``$...$`` formula as
    :func:`math_code_span`, so that neither the MDX reader (``{a}`` an expression) nor the
    Markdown one (``\\,`` an escape) changes the LaTeX. ``fence`` matches a code fence line
    (group ``fence``); fenced code stays as written."""
    fences = FenceTracker(fence)
    out: list[str] = []
    par: list[str] = []
    closers: list[int] | None = None

    def flush() -> None:
        if par:
            out.extend(_text_math("\n".join(par)).split("\n"))
            par.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if fences.in_code(line):
            flush()
            out.append(line)
            i += 1
            continue
        m = _MATH_FLOW_OPEN.match(line) if "$$" in line else None
        if m is not None:
            lead, run = m.group("lead"), m.group("run")
            close = re.compile(rf"^{re.escape(lead.rstrip())}[ \t>]*\${{{len(run)},}}[ \t]*$")
            if closers is None:  # the lines that may close a block, listed once
                closers = [k for k, ln in enumerate(lines) if _MATH_FLOW_CLOSE.match(ln)]
            first = bisect.bisect_right(closers, i)
            near = closers[first:bisect.bisect_left(closers, i + 1 + _MAX_FLOW_LINES, first)]
            end = next((k for k in near if close.match(lines[k])), None)
            if end is not None:
                flush()
                body = [ln[len(lead):] if ln.startswith(lead) else ln.lstrip(" \t>") for ln in lines[i + 1:end]]
                out.extend(math_fence(lead, "\n".join(body)))
                i = end + 1
                continue
        if line.strip():
            par.append(line)
        else:
            flush()
            out.append(line)
        i += 1
    flush()
    return out
