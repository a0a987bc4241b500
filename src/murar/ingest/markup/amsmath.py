"""MyST's ``amsmath`` extension: a top-level LaTeX environment as a math block.

myst-parser (``myst_enable_extensions = ["amsmath"]``, on by default in Jupyter
Book) and mystmd read a block opening with ``\\begin{equation}`` (``align``,
``gather``, ``multline``, the matrix environments, ... and their starred forms)
up to the first line ending with the matching ``\\end{...}`` as display math, not
as a paragraph whose backslash escapes Markdown would eat. The rule follows
mdit_py_plugins.amsmath (same environments, same end test), but finds each
environment's closing line by a binary search in a per-source index built once, so
a page of many unclosed ``\\begin{...}`` lines stays linear instead of rescanning
the rest of the page from each one. The token is ``amsmath`` (content: the lines
of the environment), as the plugin's.
"""

from __future__ import annotations

import bisect
import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

__all__ = ["amsmath_rule"]

_ENVIRONMENTS = ("equation", "multline", "gather", "align", "alignat", "flalign", "matrix", "pmatrix", "bmatrix",
                 "Bmatrix", "vmatrix", "Vmatrix", "eqnarray")
_OPEN = re.compile(r"\\begin\{(" + "|".join(_ENVIRONMENTS) + r")(\*?)\}")
_CLOSE_AT_END = re.compile(r"\\end\{(" + "|".join(_ENVIRONMENTS) + r")(\*?)\}$")


def _closings(state: StateBlock) -> dict[str, list[int]]:
    """Line numbers of the lines ending with each ``\\end{env}`` (one pass per source,
    kept on the parse's ``env``)."""
    key = "murar_amsmath_closings"
    cached = state.env.get(key)
    if isinstance(cached, tuple) and cached[0] is state.src:
        return cached[1]  # type: ignore[no-any-return]
    found: dict[str, list[int]] = {}
    for line in range(state.lineMax):
        text = state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]].rstrip()
        m = _CLOSE_AT_END.search(text[-40:])
        if m:
            found.setdefault(m.group(0), []).append(line)
    state.env[key] = (state.src, found)
    return found


def _amsmath_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= 4:  # an indented code block
        return False
    first = state.src[state.bMarks[start_line] + state.tShift[start_line]:state.eMarks[start_line]]
    m = _OPEN.match(first)
    if not m:
        return False
    lines = _closings(state).get(f"\\end{{{m.group(1)}{m.group(2)}}}", [])
    i = bisect.bisect_left(lines, start_line)
    if i >= len(lines) or lines[i] >= end_line:
        return False
    state.line = lines[i] + 1
    if not silent:
        token = state.push("amsmath", "math", 0)
        token.block = True
        token.content = state.getLines(start_line, state.line, state.sCount[start_line], False)
        token.meta = {"environment": m.group(1), "numbered": m.group(2)}
        token.map = [start_line, lines[i]]
    return True


def amsmath_rule(md: MarkdownIt) -> None:
    """Add the ``amsmath`` block rule (before blockquotes; it may interrupt a
    paragraph, a blockquote, a list and a footnote, as in the plugin)."""
    md.block.ruler.before("blockquote", "amsmath", _amsmath_block,
                          {"alt": ["paragraph", "reference", "blockquote", "list", "footnote_def"]})
