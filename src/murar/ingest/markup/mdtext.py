"""Helpers shared by the Markdown dialects (CommonMark + Adobe, MDX,
Python-Markdown, MyST): the label an admonition is read with, and a markdown-it
pipe table read from its tokens.
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.token import Token

__all__ = ["admonition_label", "read_table"]


def admonition_label(kind: str, title: str = "") -> str:
    """The label an admonition is read with: ``("note", "Before you start")`` ->
    ``"Note: Before you start"``; without a title, or with a title that only
    repeats the kind -> ``"Note:"`` (``-`` in the kind reads as a space)."""
    name = kind.replace("-", " ").capitalize()
    title = title.strip()
    return f"{name}: {title}" if title and title.lower() != kind.lower() else f"{name}:"


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
