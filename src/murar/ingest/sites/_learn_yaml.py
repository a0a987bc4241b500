"""Microsoft Learn structured YAML pages (FAQ, training units and modules) read as the Markdown page Learn shows.

A Learn docset's content globs select ``.yml`` files as well as Markdown. Most are
tables of contents or landing pages (link lists), but three YamlMime schemas (the
first line ``### YamlMime:<schema>``) are pages of text (:data:`PAGE_SCHEMAS`).

A file whose first line is
``### YamlMime:FAQ`` is an article: Learn's structured FAQ ("Create FAQ content",
Microsoft Learn contributor guide; the ``FAQ`` YamlMime schema of the Open
Publishing build) with

- ``metadata``: the page's metadata (``title`` for search results, ``monikerRange``...),
- ``title``: the page title (the ``<h1>``), else ``metadata.title``,
- ``summary``: Markdown shown under the title,
- ``sections``: a list of ``name`` (a heading; may be empty) and ``questions``, each
  ``question`` (plain text shown as a heading) with its ``answer`` (Markdown, with
  Learn's extensions: ``[!INCLUDE]``, ``:::image:::``, alerts ...),
- ``additionalContent``: Markdown shown after the questions.

:func:`faq_markdown` writes such a file as that Markdown page: front matter
(``title``, the metadata's ``monikerRange``), ``# title``, the summary, ``## name``
per named section, ``### question`` per question and its answer, then the
additional content.

Learn training content (the ``learn`` repositories' modules) is YAML too: a
``### YamlMime:ModuleUnit`` file is one unit page of a module, its ``title`` and
its ``content`` (Markdown, most often one ``[!include[](includes/unit.md)]`` that
holds the unit's text), then its ``quiz`` (``title``, ``questions[].content`` and
their ``choices[].content``); a ``### YamlMime:Module`` file is the module's
overview page: ``title``, ``summary``, ``abstract`` (what the learner will do) and
``prerequisites`` (Markdown). :func:`learn_markdown` writes each schema's Markdown;
the DocFX site then reads it as any other page.

The Azure Architecture Center writes each article as a ``### YamlMime:Architecture``
file (browse-card metadata, ``name``: the article's H1, ``content``: one
``[!include[](<article>-content.md)]``), its text in a ``-content.md`` file the
content globs exclude; it reads as ``# name`` and the content (AAC contributor
guide, "Markdown and YML templates").

A ``### YamlMime:Tutorial`` file is a step-by-step tutorial page: ``title``, then
``items``, each step's ``title`` (a heading) and ``content`` (Markdown, often an
include of the step's text).
"""

from __future__ import annotations

import re
from typing import Any

from murar.ingest.frontmatter import FrontMatterError, load_yaml_safely
from murar.ingest.sites._common import yaml_front_matter

__all__ = ["FAQ", "PAGE_SCHEMAS", "faq_markdown", "learn_markdown", "yaml_mime"]

FAQ = "FAQ"
MODULE = "Module"
MODULE_UNIT = "ModuleUnit"
ARCHITECTURE = "Architecture"
TUTORIAL = "Tutorial"
#: the YamlMime schemas whose files are pages of text
PAGE_SCHEMAS = frozenset({FAQ, MODULE, MODULE_UNIT, ARCHITECTURE, TUTORIAL})
#: characters of a FAQ file read as YAML (a longer one is refused with a warning)
MAX_FAQ_CHARS = 1_000_000
_MIME = re.compile(r"^#{3}[ \t]*YamlMime[ \t]*:[ \t]*(?P<name>[\w.-]+)")


def yaml_mime(head: str) -> str | None:
    """The YamlMime schema name a YAML file declares on its first non-blank line
    (``### YamlMime:FAQ`` -> ``"FAQ"``; a byte-order mark is skipped), else ``None``.
    Only the first 1,000 characters of ``head`` are read."""
    for line in head[:1000].lstrip("\ufeff").splitlines():
        if line.strip():
            m = _MIME.match(line.strip())
            return m.group("name") if m else None
    return None


def _text(value: Any) -> str:
    if value is None or isinstance(value, (dict, list)):
        return ""
    return str(value).strip("\n")


def _load(text: str, schema: str, warnings: list[str]) -> dict[str, Any] | None:
    try:
        data = load_yaml_safely(text, max_chars=MAX_FAQ_CHARS)
    except FrontMatterError as err:
        warnings.append(f"Learn YamlMime:{schema} page not read: {err}")
        return None
    if not isinstance(data, dict):
        warnings.append(f"Learn YamlMime:{schema} page not read: not a YAML mapping")
        return None
    return data


def _head(data: dict[str, Any], title_key: str = "title") -> tuple[list[str], str]:
    """The front matter and ``# title`` lines of a Learn YAML page, and its title (the
    ``title_key`` field, else ``metadata.title``)."""
    raw_meta = data.get("metadata")
    metadata: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    title = " ".join(_text(data.get(title_key)).split()) or " ".join(_text(metadata.get("title")).split())
    meta: dict[str, Any] = {"title": title} if title else {}
    for key in ("monikerRange", "zone_pivot_groups", "zone_pivot_group_filename", "uid"):
        if isinstance(metadata.get(key), str):
            meta[key] = metadata[key]
    parts = [yaml_front_matter(meta) if meta else ""]
    if title:
        parts.append(f"# {title}\n")
    return parts, title


def learn_markdown(schema: str, text: str, warnings: list[str]) -> str:
    """The Markdown page of the Learn YAML file ``text`` declaring ``schema`` (one of
    :data:`PAGE_SCHEMAS`; see the module doc); ``""`` for another schema, or with a
    warning for a file that is not a YAML mapping. Never raises."""
    if schema == FAQ:
        return faq_markdown(text, warnings)
    if schema not in PAGE_SCHEMAS:
        return ""
    data = _load(text, schema, warnings)
    if data is None:
        return ""
    parts, _ = _head(data, "name" if schema == ARCHITECTURE else "title")
    if schema == MODULE:
        for key, heading in (("summary", ""), ("abstract", ""), ("prerequisites", "Prerequisites")):
            value = _text(data.get(key))
            if value.strip():
                parts.append((f"## {heading}\n\n" if heading else "") + value + "\n")
        return "\n".join(parts)
    if schema == TUTORIAL:
        items = data.get("items")
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            step = " ".join(_text(item.get("title")).split())
            if step:
                parts.append(f"## {step}\n")
            if _text(item.get("content")).strip():
                parts.append(_text(item.get("content")) + "\n")
        return "\n".join(parts)
    if _text(data.get("content")).strip():
        parts.append(_text(data.get("content")) + "\n")
    quiz = data.get("quiz")
    questions = quiz.get("questions") if isinstance(quiz, dict) else None
    if isinstance(quiz, dict) and isinstance(questions, list):
        parts.append(f"## {' '.join(_text(quiz.get('title')).split()) or 'Quiz'}\n")
        for question in questions:
            if not isinstance(question, dict) or not _text(question.get("content")).strip():
                continue
            parts.append(f"### {' '.join(_text(question.get('content')).split())}\n")
            choices = question.get("choices")
            lines = [f"- {' '.join(_text(c.get('content')).split())}" for c in
                     (choices if isinstance(choices, list) else []) if isinstance(c, dict) and _text(c.get("content"))]
            if lines:
                parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def faq_markdown(text: str, warnings: list[str]) -> str:
    """The Markdown page of the Learn FAQ file ``text`` (see the module doc).

    A file that is not YAML, or not a mapping, gives ``""`` with a warning; a
    question without text is skipped. Never raises."""
    data = _load(text, FAQ, warnings)
    if data is None:
        return ""
    parts, _ = _head(data)
    if _text(data.get("summary")).strip():
        parts.append(_text(data.get("summary")) + "\n")
    sections = data.get("sections")
    for section in sections if isinstance(sections, list) else []:
        if not isinstance(section, dict):
            continue
        name = " ".join(_text(section.get("name")).split())
        if name:
            parts.append(f"## {name}\n")
        questions = section.get("questions")
        for item in questions if isinstance(questions, list) else []:
            if not isinstance(item, dict):
                continue
            question = " ".join(_text(item.get("question")).split())
            if not question:
                continue
            parts.append(f"### {question}\n")
            answer = _text(item.get("answer"))
            if answer.strip():
                parts.append(answer + "\n")
    if _text(data.get("additionalContent")).strip():
        parts.append(_text(data.get("additionalContent")) + "\n")
    return "\n".join(parts)
