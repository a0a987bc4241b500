"""sphinx-design components and other container directives as they render, shared
by the reST and MyST readers.

- a container directive's argument is text (a tab's label, a card's title) except
  where the directive reads it as something else (:data:`UNSHOWN_ARGUMENT`): a layout
  (sphinx-design ``grid`` "1 2 3", ``card-carousel`` "2", Sphinx ``hlist``), a
  condition (``only``, ``ifconfig``), class names (docutils ``container``, Sphinx
  ``rst-class``/``cssclass``, the ``div`` of Jupyter Book pages: ``{div} full-width``;
  mystmd's ``div`` takes no argument, only a ``class`` option), or nothing (sphinx-togglebutton's ``toggle``, whose
  argument its ``Toggle`` directive never reads);

- a card (``card``, ``grid-item-card``) splits its content into a header (lines
  before the first ``^^^`` line), a body and a footer (lines after the last ``+++``
  line); the rendered card reads image top, header, title, body, footer, image
  bottom (sphinx_design/cards.py ``CardDirective.split_content``/``create_card``);
- a button (``button-link``, ``button-ref``) shows its content as inline text, else
  its target (sphinx_design/badges_buttons.py ``_ButtonDirective.run``); a
  ``button-ref`` without content is an ``any`` cross-reference, so it shows the
  target's title;
- ``article-info`` shows its ``author``, ``date`` and ``read-time`` options
  (sphinx_design/article_info.py), each inline text beside an icon;
- ``tab-set-code`` is a tab set of its code blocks, each tab labelled by the block's
  language in capitals ("PYTHON"; "UNKNOWN" without one; sphinx_design/tabs.py
  ``TabSetCodeDirective``), anything else in it left out (:func:`code_set_label`);
- a sphinx-tabs ``code-tab`` is a tab of its ``tabs`` set holding one code block,
  labelled by its second argument, else by the name of the Pygments lexer its first
  argument names (``python`` -> "Python", ``c++`` -> "C++"; sphinx_tabs/tabs.py
  ``CodeTabDirective``, ``LEXER_MAP``) (:func:`code_tab_label`);
- a sphinx-panels ``panels`` block is a grid of cards: its content splits into panels at
  each line of three or more ``-``, each panel's leading ``:img-top:``/``:header:``...
  lines are its options, and the rest reads as a card (``^^^`` header, ``+++`` footer:
  sphinx-panels ``panels_delimiters`` default and ``RE_OPTIONS``) (:func:`split_panels`);
- classes given to a card (``class-card``, ``class-item`` on ``grid-item-card``,
  ``class-img-top``/``class-img-bottom``) reach its picture, so a card marked
  ``only-dark`` (Furo, pydata-sphinx-theme) holds a dark-mode twin.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

UNSHOWN_ARGUMENT = frozenset({"grid", "hlist", "card-carousel", "only", "ifconfig", "container", "rst-class",
                              "cssclass", "toggle", "div"})
CARDS = frozenset({"card", "grid-item-card"})
BUTTONS = frozenset({"button-link", "button-ref"})
ARTICLE_INFO_FIELDS = ("author", "date", "read-time")
_HEADER = re.compile(r"^\^{3,}\s*$")
_FOOTER = re.compile(r"^\+{3,}\s*$")
_CARD_CLASS_OPTIONS = ("class-card", "class-item")
# sphinx-panels: the panel separator (panels_delimiters[0]) and a panel's own option lines
_PANEL_SEPARATOR = re.compile(r"^-{3,}$")
_PANEL_OPTION = re.compile(r"^:(column|card|body|header|footer|img-top|img-bottom|img-top-cls|img-bottom-cls):"
                           r"\s*\+?\s*(.*)$")


@dataclass(frozen=True, slots=True)
class CardParts:
    """A card's content lines split as sphinx-design splits them: ``header`` and
    ``footer`` are ``None`` when the card has no ``^^^``/``+++`` line."""

    header: list[str] | None
    body: list[str]
    footer: list[str] | None


def split_card(lines: Sequence[str]) -> CardParts:
    """Split a card's (dedented) content lines at the first ``^^^`` line and the last
    ``+++`` line; one pass, linear in the number of lines."""
    header_at = footer_at = None
    for i, line in enumerate(lines):
        if header_at is None and _HEADER.match(line):
            header_at = i
        if _FOOTER.match(line):
            footer_at = i
    start = header_at + 1 if header_at is not None else 0
    end = footer_at if footer_at is not None else len(lines)
    return CardParts(
        header=list(lines[:header_at]) if header_at is not None else None,
        body=list(lines[start:end]),
        footer=list(lines[footer_at + 1:]) if footer_at is not None else None,
    )


@dataclass(frozen=True, slots=True)
class Panel:
    """One panel of a sphinx-panels ``panels`` block: its ``img-top``/``img-bottom``
    pictures (``""`` without one) and its content split as a card."""

    img_top: str
    img_bottom: str
    parts: CardParts


def split_panels(lines: Sequence[str]) -> list[Panel]:
    """A ``panels`` block's (dedented) content lines as its panels, in order: split at
    each line of three or more ``-`` (nothing else on it), each panel's leading option
    lines read (blank lines before them skipped), panels with no text left out. One
    pass, linear in the number of lines."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if _PANEL_SEPARATOR.match(line):
            blocks.append([])
        else:
            blocks[-1].append(line)
    panels: list[Panel] = []
    for block in blocks:
        i = 0
        while i < len(block) and not block[i].strip():
            i += 1
        options: dict[str, str] = {}
        while i < len(block) and (m := _PANEL_OPTION.match(block[i])):
            options[m.group(1)] = m.group(2).strip()
            i += 1
        rest = block[i:]
        if not any(line.strip() for line in rest) and not options.get("img-top") and not options.get("img-bottom"):
            continue
        panels.append(Panel(img_top=options.get("img-top", ""), img_bottom=options.get("img-bottom", ""),
                            parts=split_card(rest)))
    return panels


def card_image_classes(options: Mapping[str, Any], key: str) -> list[str]:
    """The classes a card's ``img-top``/``img-bottom``/``img-background`` picture
    carries in the page: the card's (``class-card``, ``class-item``) and the
    picture's own ``class-img-top``/``class-img-bottom``."""
    names = [*_CARD_CLASS_OPTIONS, "class-" + key]
    return [c for k in names for c in str(options.get(k) or "").split()]


def code_tab_label(argument: str) -> str:
    """The label sphinx-tabs gives ``.. code-tab:: ARGUMENT``: the words after the
    language, else the Pygments name of the language (the language as written when
    Pygments does not know it)."""
    lang, _, custom = argument.strip().partition(" ")
    if custom.strip():
        return custom.strip()
    if not lang:
        return ""
    try:
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound
    except ImportError:  # pragma: no cover - pygments comes with rich, a dependency
        return lang
    try:
        return str(get_lexer_by_name(lang).name)
    except ClassNotFound:
        return lang


def code_set_label(language: str) -> str:
    """The label sphinx-design's ``tab-set-code`` gives a code block of ``language``."""
    return (language.strip() or "unknown").upper()
