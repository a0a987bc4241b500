"""Tab sets in Markdown-family pages: markers between a line rewriter and the walker.

A tab set shows one tab at a time (Docusaurus ``<Tabs>``/``<TabItem>``, MkDocs
Material content tabs ``=== "Label"``, Adobe ``>[!BEGINTABS]``/``>[!TAB Label]``,
Hugo ``{{< tabs >}}``/``{{< tab >}}``, DocFX ``# [Label](#tab/id)``).
Markup modules and Site preprocessors that rewrite such syntax line by line
before markdown-it parses the page (:mod:`murar.ingest.adobe`,
:mod:`murar.ingest.markup.pymdown`, :mod:`murar.ingest.markup.mdx`,
:mod:`murar.ingest.sites.hugo`, :mod:`murar.ingest.sites.docfx`) write one marker line per event — a set opens,
a tab starts, the set closes — as an HTML comment on a line of its own, which
markdown-it reads as an ``html_block``; the Markdown walker turns it into
:meth:`~murar.ingest.markup.builder.PageBuilder.open_tab_set`,
:meth:`~murar.ingest.markup.builder.PageBuilder.tab` and
:meth:`~murar.ingest.markup.builder.PageBuilder.close_tab_set`. A marker adds no
text to the page. A hand-written marker in a page only groups that page's own
media, so a forged one changes nothing outside its page.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from murar.ingest.markup.builder import PageBuilder

__all__ = ["TAB_ITEMS", "TAB_SETS", "TabEvent", "apply_tab_marker", "parse_marker", "set_close", "set_open", "tab_start"]

_PREFIX = "murar-tabs"
_MARKER = re.compile(r"^\s*<!--\s*murar-tabs:(open|tab|close)(?::(.*?))?\s*-->\s*$", re.DOTALL)

#: directive names of a tab set and of one tab in it (sphinx-design, sphinx-tabs, sphinx-inline-tabs)
TAB_SETS = frozenset({"tab-set", "tabs"})
TAB_ITEMS = frozenset({"tab-item", "tab", "group-tab"})

TabEvent = tuple[Literal["open", "tab", "close"], str]


def _clean(label: str) -> str:
    return " ".join(label.replace("--", "- -").split())


def set_open(indent: str = "") -> str:
    """The marker line that opens a tab set."""
    return f"{indent}<!-- {_PREFIX}:open -->"


def tab_start(label: str, indent: str = "") -> str:
    """The marker line that starts the tab ``label`` of the innermost open set."""
    return f"{indent}<!-- {_PREFIX}:tab:{_clean(label)} -->"


def set_close(indent: str = "") -> str:
    """The marker line that closes the innermost open tab set."""
    return f"{indent}<!-- {_PREFIX}:close -->"


def parse_marker(html: str) -> TabEvent | None:
    """``("open" | "tab" | "close", label)`` for a marker block, else ``None``."""
    m = _MARKER.match(html)
    if not m:
        return None
    return m.group(1), (m.group(2) or "").strip()  # type: ignore[return-value]  # the pattern allows only these


def apply_tab_marker(builder: PageBuilder, html: str) -> bool:
    """Apply the marker ``html`` to ``builder``; ``False`` (nothing done) when it is no marker."""
    event = parse_marker(html)
    if event is None:
        return False
    kind, label = event
    if kind == "open":
        builder.open_tab_set()
    elif kind == "tab":
        builder.tab(label)
    else:
        builder.close_tab_set()
    return True
