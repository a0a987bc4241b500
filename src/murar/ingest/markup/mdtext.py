"""Helpers shared by the Markdown dialects (CommonMark + Adobe, MDX,
Python-Markdown, MyST): fenced code blocks followed line by line, the bold label
line a tab or an admonition becomes, the bold lead a callout's first paragraph
gets (GitHub-style alerts, theme callouts), and a markdown-it pipe table read
from its tokens.

A fence follows CommonMark ("Fenced code blocks"): a run of three or more
backticks or tildes opens a code block; a run of the same character at least
as long closes it. Each rewriter passes the pattern of the fence lines it
reads (how much indentation it allows), with the run in the group ``fence``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token

__all__ = ["DIRECTIVE_ADMONITION", "GITHUB_ALERTS", "MDX_FENCE", "FenceTracker", "admonition_label", "alert_markers",
           "callout_label", "callout_lead", "directive_admonitions", "directive_title", "inline_text", "label_lines",
           "outside_code", "read_table"]

#: a code fence line of MDX: MDX has no indented code (micromark with codeIndented disabled), so a fence
#: opens and closes at any indentation ("    ```html" four spaces in, under "1. Step" or on its own); group: fence
MDX_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")

#: a remark-directive container line (Docusaurus admonitions): ``:::tip``, ``:::tip Title``,
#: ``:::tip[Title]``, ``::::info{#id}``, ``:::tip{title="Title"}`` or a closing ``:::``; groups: indent,
#: colons, kind, [title], title, {attributes} (see :func:`directive_title`)
DIRECTIVE_ADMONITION = re.compile(r"^(\s*)(:{3,})\s*([A-Za-z][\w-]*)?(?:\[(.*?)\]|[ \t]+(.*?))?\s*(?:\{(.*)\})?\s*$")
_DIRECTIVE_TITLE_ATTR = re.compile(r"""(?:^|\s)title=(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`}]+))""")


def directive_title(m: re.Match[str]) -> str:
    """The title of the admonition whose opening line :data:`DIRECTIVE_ADMONITION`
    matched: its directive label (``:::tip[Title]``), the legacy text after the kind
    (``:::tip Title``), else its ``title`` attribute (``:::tip{title="Title"}``: the
    Docusaurus admonitions plugin passes ``directive.attributes.title`` on as the
    title, a label taking its place). ``""`` without one."""
    title = (m.group(4) or m.group(5) or "").strip()
    if not title and m.group(6):
        attr = _DIRECTIVE_TITLE_ATTR.search(m.group(6))
        title = next((g for g in attr.groups() if g is not None), "").strip() if attr else ""
    return title


_INLINE_MD = MarkdownIt("commonmark")


def inline_text(text: str, max_chars: int = 20_000) -> str:
    """The text a reader sees of a line of inline Markdown (``Display using **Blurred
    Vision**`` -> ``Display using Blurred Vision``; links as their text, images as their
    alt), whitespace collapsed; at most ``max_chars`` characters are parsed. Used where
    a generator renders Markdown into a caption (a Learn complex image's description,
    a pymdownx caption block)."""
    if not re.search(r"[*_`\[\\<&]", text):
        return re.sub(r"\s+", " ", text).strip()
    out: list[str] = []
    for token in _INLINE_MD.parseInline(text[:max_chars]):
        for child in token.children or []:
            if child.type in ("text", "code_inline", "image"):
                out.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                out.append(" ")
    return re.sub(r"\s+", " ", "".join(out)).strip()


class FenceTracker:
    """Follows the fenced code blocks of one text, fed its lines in order.

    ``opening`` matches a fence line at its start, the backtick or tilde run in
    the group named ``fence``.
    """

    def __init__(self, opening: re.Pattern[str]) -> None:
        self._opening = opening
        self._fence: str | None = None

    @property
    def inside(self) -> bool:
        """True between an opening fence and its closing one."""
        return self._fence is not None

    def in_code(self, line: str) -> bool:
        """True when ``line`` opens, is inside or closes a fenced code block (the
        rewriters copy such lines as they are)."""
        m = self._opening.match(line)
        if self._fence is not None:
            run = m.group("fence") if m else ""
            if run and run[0] == self._fence[0] and len(run) >= len(self._fence):
                self._fence = None
            return True
        if m:
            self._fence = m.group("fence")
            return True
        return False


def outside_code(lines: list[str], rewrite: Callable[[str], str], needle: str, fence: re.Pattern[str]) -> list[str]:
    """``rewrite`` applied to the parts of each line that contain ``needle`` and are
    neither in a fenced code block (``fence``: see :class:`FenceTracker`) nor in a code span."""
    fences = FenceTracker(fence)
    out: list[str] = []
    for line in lines:
        if fences.in_code(line) or needle not in line:
            out.append(line)
            continue
        parts = re.split(r"(`+[^`]*?`+)", line)
        out.append("".join(p if k % 2 or needle not in p else rewrite(p) for k, p in enumerate(parts)))
    return out


def admonition_label(kind: str, title: str = "") -> str:
    """The label an admonition is read with: ``("note", "Before you start")`` ->
    ``"Note: Before you start"``; without a title, or with a title that only
    repeats the kind -> ``"Note:"`` (``-`` in the kind reads as a space); a title
    that already starts with the kind and a colon, or that has every word of a
    kind of several words, is the label as it is (``("tip", "Tip: Click it")`` ->
    ``"Tip: Click it"``, ``("version-added", "Added in version 2.1")`` -> ``"Added in
    version 2.1"``, as the box shows it)."""
    name = kind.replace("-", " ").capitalize()
    title = title.strip()
    if title.lower().startswith(name.lower() + ":"):
        return title
    kind_words = name.lower().split()
    if len(kind_words) > 1 and set(kind_words) <= set(re.findall(r"\w+", title.lower())):
        return title
    return f"{name}: {title}" if title and title.lower() != kind.lower() else f"{name}:"


def directive_admonitions(text: str, fence: re.Pattern[str]) -> str:
    """``text`` with every admonition opening line (:data:`DIRECTIVE_ADMONITION`)
    as its bold label line (:func:`admonition_label`) and every closing ``:::``
    line blank; lines of fenced code (``fence``, see :class:`FenceTracker`) are
    left alone."""
    if ":::" not in text:
        return text
    fences = FenceTracker(fence)
    out: list[str] = []
    for line in text.split("\n"):
        m = None if fences.in_code(line) else DIRECTIVE_ADMONITION.match(line)
        if m and m.group(3):
            out.extend(label_lines(admonition_label(m.group(3), directive_title(m)), m.group(1)))
        elif m:
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


#: an abbreviation definition line (PHP Markdown Extra syntax, read by remark-abbr,
#: Python-Markdown's abbr and kramdown): ``*[HTML]: Hyper Text Markup Language``
ABBREVIATION_DEFINITION = re.compile(r"^[ \t]{0,3}\*\[[^\]\n]+\]:")


def drop_abbreviation_definitions(text: str, fence: re.Pattern[str]) -> str:
    """``text`` without its abbreviation definition lines
    (:data:`ABBREVIATION_DEFINITION`): the extensions that read them mark the
    abbreviation where it is used (``<abbr title>``) and output no definition.
    Lines of fenced code (``fence``, see :class:`FenceTracker`) are left alone."""
    if "*[" not in text:
        return text
    fences = FenceTracker(fence)
    return "\n".join(line for line in text.split("\n")
                     if fences.in_code(line) or not ABBREVIATION_DEFINITION.match(line))

#: the alert kinds GitHub renders ("Basic writing and formatting syntax", Alerts), any letter case
GITHUB_ALERTS = frozenset({"note", "tip", "important", "warning", "caution"})
#: a block quote line that opens with an alert marker: ``> [!NOTE]``, ``>[!tip]``, ``> [!WARNING]- Title``
_ALERT_MARKER = re.compile(r"^(?P<lead>[ \t]*(?:>[ \t]*)+)\[!(?P<kind>[A-Za-z][\w-]*)\](?P<sign>[+-]?)"
                           r"(?:[ \t]+(?P<rest>.*?))?[ \t]*$")
_QUOTED_FENCE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})")


# empty HTML elements (<a id="x"></a>, <span></span>) at the end of a title, each at most 200 characters
_EMPTY_TAIL_ELEMENT = re.compile(r"(?:\s*<([A-Za-z][\w-]{0,20})(?:\s[^<>]{0,200})?>\s*</\1\s*>)+\s*$")


def callout_label(kind: str, title: str = "") -> str:
    """The word a callout is read with: its ``title`` when it has one (as the
    themes show it instead of the kind; a trailing colon dropped, and an empty
    HTML element ending it, an anchor ``<a id="x"></a>`` a reader never sees),
    else its kind as a word (``"note"`` -> ``"Note"``, ``"see-also"`` -> ``"See also"``)."""
    if title.rstrip().endswith(">") and len(title) <= 2000:  # (a title line, not a page of tags)
        title = _EMPTY_TAIL_ELEMENT.sub("", title.strip())
    title = title.strip().rstrip(":").strip()
    return title or kind.replace("-", " ").replace("_", " ").strip().rstrip(":").strip().capitalize()


def callout_lead(label: str, *, html_out: bool = False) -> str:
    """``label`` as the bold lead of a callout's first paragraph, ``"**Note:** "``
    (``<strong>Note:</strong>`` in an HTML page), the way Jekyll notices, DocFX
    alerts and Hugo callouts are read; a label ending in ``?``/``!``/``.`` gets no colon."""
    label = label if label[-1:] in ("?", "!", ".") else label + ":"
    if html_out:
        return f"<strong>{html.escape(label)}</strong> "
    return f"**{label}** "


def alert_markers(text: str, *, titled: bool = False, kinds: frozenset[str] | None = GITHUB_ALERTS,
                  fence: re.Pattern[str] = _QUOTED_FENCE) -> str:
    """``text`` with the marker of each alert block quote made its bold lead
    (:func:`callout_lead`): ``> [!NOTE]`` -> ``> **Note:** ``, the kind in any
    letter case. GitHub renders the five :data:`GITHUB_ALERTS` with the marker
    alone on its line; DocFX also reads text after it, which stays as the
    alert's first words. With ``titled`` (Hugo 0.134+ blockquote render hooks,
    Obsidian) the text after the marker is the alert's title and a ``+``/``-``
    fold sign may follow the marker; ``kinds=None`` accepts any kind (Hugo passes
    any word to its render hook). Lines of fenced code (``fence``, see
    :class:`FenceTracker`) are left alone."""
    if "[!" not in text:
        return text
    fences = FenceTracker(fence)
    out: list[str] = []
    for line in text.split("\n"):
        m = None if fences.in_code(line) or "[!" not in line else _ALERT_MARKER.match(line)
        if m and (kinds is None or m.group("kind").lower() in kinds) and (titled or not m.group("sign")):
            rest = (m.group("rest") or "").strip()
            label = callout_label(m.group("kind"), rest if titled else "")
            line = m.group("lead") + callout_lead(label) + ("" if titled else rest)
        out.append(line)
    return "\n".join(out)


def label_lines(label: str, indent: str = "") -> list[str]:
    """``label`` as a bold paragraph of its own (blank lines around it), at ``indent``."""
    return ["", f"{indent}**{label}**", ""]


def read_table(tokens: list[Token], start: int, cell: Callable[[Token], str]) -> tuple[list[str], list[list[str]], int]:
    """The markdown-it pipe table opening at ``tokens[start]`` (``table_open``):
    ``(headers, body rows, index of its table_close)``. ``cell(inline_token)``
    gives the text of a cell (and may add the media written in it), called in
    reading order."""
    headers: list[str] = []
    rows: list[list[str]] = []
    row: list[str] | None = None
    head = False
    i = start + 1
    while i < len(tokens) and tokens[i].type != "table_close":
        ty = tokens[i].type
        if ty == "thead_open":
            head = True
        elif ty == "thead_close":
            head = False
        elif ty == "tr_open":
            row = []
        elif ty == "tr_close":
            if head:
                headers = row or []
            else:
                rows.append(row or [])
            row = None
        elif ty == "inline":
            text = cell(tokens[i])
            if row is not None:
                row.append(text)
        i += 1
    return headers, rows, i
