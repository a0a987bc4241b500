"""The text of raw HTML laid out in blocks, as a browser shows it.

Raw HTML written in a page (a Markdown/MDX/MyST HTML block, a reST ``raw``
directive, an AsciiDoc passthrough, a notebook's HTML output) is read by
:func:`text_blocks`: each block-level element (``<p>``, ``<div>``, ``<li>``,
``<dt>``/``<dd>``, ``<summary>``, ``<blockquote>``, ...) starts and ends a
block, as it starts a new line box in a browser (CSS 2 "block formatting
context", the HTML rendering section's default ``display: block`` elements);
inline elements join without a space (``<b>4</b>2`` reads ``42``).

A ``<pre>`` element is one preformatted block wherever it stands (inside a
``<div>``, ``<details>``, ``<figure>``, a table cell...): its whitespace and
line breaks are kept as written (HTML "the pre element", CSS ``white-space:
pre``), a ``<br>`` or a block element inside it (old Pygments ``<div
class="line">``) is a line break, and a ``<pre>`` inside it belongs to it.
Outside ``<pre>``, a ``<br>`` is a line break inside its block and every other
run of whitespace is one space.

The walk uses an explicit stack (no recursion) and reads every node once:
linear in the size of the tree, however deep it nests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborNode

__all__ = ["BLANK_PRE_LINE", "BLOCK_TAGS", "MAX_TREE_DEPTH", "TextBlock", "cap_depth", "pre_depth", "pre_text",
           "text_blocks"]

# elements a browser lays out as blocks (display: block, list-item, table parts) by default
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "dir",
    "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hgroup", "hr", "legend", "li", "listing", "main", "menu", "nav", "ol", "p", "plaintext", "pre",
    "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "xmp",
})
# preformatted elements (HTML rendering: pre, listing, xmp, plaintext are white-space: pre)
_PRE_TAGS = frozenset({"pre", "listing", "xmp", "plaintext"})
_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title"})
_ASCII_WS = re.compile(r"[ \t\r\n\f]+")
_PRE_EVENT = re.compile(r"<(/?)pre(?=[\s/>]|$)", re.IGNORECASE)

MAX_TREE_DEPTH = 512
"""Elements an HTML fragment nests before deeper ones are read flat (Blink's and WebKit's
``maximumHTMLParserDOMTreeDepth``: a deeper element is attached beside, not inside, the
512th)."""
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)(?=[\s/>])[^<>]*?(/?)>")
_FOREIGN_ROOTS = frozenset({"svg", "math"})  # elements whose content honours "<x/>" (WHATWG: foreign elements)
_VOID_TAGS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                        "source", "track", "wbr"})


def cap_depth(html: str, max_depth: int = MAX_TREE_DEPTH) -> tuple[str, bool]:
    """``html`` with the start and end tags of elements nested deeper than ``max_depth``
    removed (their content stays, in the element at that depth), and whether any was.
    The HTML parser checks the stack of open elements at every tag: 100,000 nested
    ``<div>`` took minutes to parse. One pass over the tags; a fragment that nests no
    deeper is returned unchanged."""
    if html.count("<") <= max_depth:
        return html, False
    out: list[str] = []
    kept: list[tuple[str, bool]] = []  # the open elements, innermost last: name, written (True) or removed
    foreign: list[int] = []  # where in ``kept`` each open <svg>/<math> is
    depth = pos = 0
    changed = False
    for m in _TAG.finditer(html):
        name = m.group(2).lower()
        # "<div/>" opens a div (HTML ignores the self-closing flag on its own elements: it nests, and
        # 100,000 of them took minutes as well); in SVG and MathML, and on svg/math themselves, it closes
        if name in _VOID_TAGS or (m.group(3) and (foreign or name in _FOREIGN_ROOTS)):
            continue
        if m.group(1):
            # an end tag closes the nearest open element of its name and those inside it (left
            # open: "<li>", "<p>", "<div/>"), as the parser does; a stray one closes nothing
            at = next((k for k in range(len(kept) - 1, max(len(kept) - 65, -1), -1) if kept[k][0] == name), None)
            if at is None:
                continue
            written = kept[at][1]
            depth -= sum(1 for _, w in kept[at:] if w)
            del kept[at:]
            while foreign and foreign[-1] >= at:
                foreign.pop()
            if not written:
                out.append(html[pos:m.start()])
                pos = m.end()
            continue
        if name in _FOREIGN_ROOTS:
            foreign.append(len(kept))
        if depth >= max_depth:
            out.append(html[pos:m.start()])
            pos = m.end()
            kept.append((name, False))
            changed = True
        else:
            kept.append((name, True))
            depth += 1
    if not changed:
        return html, False
    out.append(html[pos:])
    return "".join(out), True


BLANK_PRE_LINE = "<span></span>"
"""What a blank source line inside a raw ``<pre>`` is written as where a Markdown reader
would end the HTML block at it: not blank (the block goes on), no text in the ``<pre>``,
and still an empty line of it when shown."""


def pre_depth(line: str, depth: int) -> int:
    """``depth`` (open ``<pre>`` elements before ``line`` of raw HTML source) after it."""
    for ev in _PRE_EVENT.finditer(line):
        depth = max(0, depth + (-1 if ev.group(1) else 1))
    return depth


@dataclass(frozen=True, slots=True)
class TextBlock:
    """One block of text. ``pre``: preformatted (the text as written, lines and
    indentation kept, trailing whitespace not stripped); otherwise its lines (one
    per ``<br>``) each have ASCII whitespace collapsed to one space and are stripped,
    and empty lines are dropped (a no-break space stays as written)."""

    text: str
    pre: bool = False


class _End:
    """A marker on the walk's stack: the element it names ends here."""

    __slots__ = ("pre",)

    def __init__(self, pre: bool) -> None:
        self.pre = pre


_END_BLOCK = _End(pre=False)
_END_PRE = _End(pre=True)


def text_blocks(node: LexborNode, *, pre: bool = False) -> list[TextBlock]:
    """The text of ``node``'s children as a browser lays it out: a list of blocks in
    document order (blocks with no text are left out). ``pre``: ``node`` itself is
    preformatted (its whole text is one preformatted block). ``<img>`` reads as its
    alt text; script, style, noscript and template content is never text."""
    blocks: list[TextBlock] = []
    parts: list[str] = []  # non-empty strings only
    depth = 1 if pre else 0  # open preformatted elements
    broken = False  # in preformatted text: a block started or ended, the next text starts a line

    def add(piece: str) -> None:
        nonlocal broken
        if broken and parts and not parts[-1].endswith("\n") and not piece.startswith("\n"):
            parts.append("\n")
        broken = False
        parts.append(piece)

    def close() -> None:
        nonlocal broken
        text = "".join(parts)
        parts.clear()
        broken = False
        if depth:
            if text.strip():
                blocks.append(TextBlock(text, pre=True))
            return
        lines = (_ASCII_WS.sub(" ", ln).strip(" ") for ln in text.split("\n"))
        joined = "\n".join(ln for ln in lines if ln)
        if joined:
            blocks.append(TextBlock(joined))

    stack: list[LexborNode | _End] = list(node.iter(include_text=True))
    stack.reverse()
    while stack:
        item = stack.pop()
        if isinstance(item, _End):
            if item.pre and depth == 1:
                close()  # the outermost <pre> ends: its text is one preformatted block
                depth = 0
            elif item.pre or depth:
                depth -= 1 if item.pre else 0
                broken = True
            else:
                close()
            continue
        if item.is_text_node:
            text = item.text_content or ""
            # outside <pre> a source line break is whitespace; only <br> breaks a line
            if text:
                add(text if depth else text.replace("\n", " "))
            continue
        tag = item.tag or ""
        if tag.startswith("-") or tag in _SKIP_TAGS:
            continue
        if tag == "br":
            add("\n")
            continue
        if tag == "img":
            alt = (item.attributes.get("alt") or "").strip()
            if alt:
                add(f" {alt} ")
            continue
        if tag in BLOCK_TAGS:
            if depth:
                broken = True
            else:
                close()
            if tag in _PRE_TAGS:
                depth += 1
            stack.append(_END_PRE if tag in _PRE_TAGS else _END_BLOCK)
        kids: list[LexborNode | _End] = list(item.iter(include_text=True))
        kids.reverse()
        stack.extend(kids)
    close()
    return blocks


def pre_text(node: LexborNode) -> str:
    """The text of a ``<pre>`` element (or any element read as preformatted) as a browser
    shows it: whitespace and line breaks as written, ``<br>`` and block elements inside
    it line breaks."""
    return "".join(b.text for b in text_blocks(node, pre=True))
