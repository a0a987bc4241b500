"""Sphinx/MyST roles reduced to the text a reader sees on the built page.

Sphinx roles (https://www.sphinx-doc.org/en/master/usage/restructuredtext/roles.html)
render as text: ``:guilabel:`&Save``` shows "Save", ``:menuselection:`A --> B```
shows "A > B" (Sphinx draws an arrow), an icon role (``:octicon:``, ``:fas:``,
``:icon:``) shows nothing (a glyph), a cross-reference with an explicit
title (``:doc:`the guide </a/b>```) shows its title, one without shows its
target (``~`` keeps the last dotted part, ``!`` is dropped). MyST's
``{role}`text``` follows the same rules. A role of ``sphinx.ext.extlinks``
shows its caption pattern filled with the target (``:issue:`123``` with
caption ``"issue %s"`` shows "issue 123"), or the whole URL when the caption
is ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from murar.ingest.markup.mathtext import inline_math

if TYPE_CHECKING:
    from murar.ingest.sites._xrefs import XrefIndex

__all__ = ["ICON_ROLES", "LITERAL_ROLES", "SPHINX_IMAGE_ORDER", "VERSION_CHANGE_ALIASES", "extlink_text",
           "issue_role_prefixes", "issue_text", "role_text", "xref_text"]

# roles whose text is shown as written (no "title <target>" splitting)
LITERAL_ROLES = frozenset({"kbd", "samp", "code", "file", "command", "guilabel", "menuselection", "abbr",
                           "math", "literal", "regexp", "mimetype", "makevar", "dfn", "program", "sup", "sub",
                           "superscript", "subscript", "emphasis", "strong"})
# icon-font roles: a glyph, no text (sphinx-design's octicon/fab/fas/far/material-*, sphinx-icon's
# and sphinx-iconify's icon roles, sphinx-fontawesome's fa)
ICON_ROLES = frozenset({"octicon", "fa", "fab", "fas", "far", "icon", "iconify", "material-regular",
                        "material-outlined", "material-round", "material-sharp", "material-twotone"})
#: the extensions an ``image.*`` of a Sphinx page is looked for with, best first: the HTML builder's
#: supported_image_types (svg, png, gif, jpeg; sphinx/builders/html/__init__.py) as
#: post_process_images picks the first candidate of them, then the others murar reads
SPHINX_IMAGE_ORDER = ("svg", "png", "gif", "jpg", "jpeg", "webp")
#: Sphinx 7.3's hyphenated names of its version-change directives, the same directive as the old
#: names (sphinx/domains/changeset.py: ``add_directive('version-added', VersionChange)``, ...);
#: shared by the reST and MyST parsers, which read them under the old name
VERSION_CHANGE_ALIASES = {"version-added": "versionadded", "version-changed": "versionchanged",
                          "version-deprecated": "deprecated", "version-removed": "versionremoved"}


def explicit_target(text: str) -> tuple[str, str] | None:
    """``(title, target)`` of a role text written ``title <target>`` (either may be empty):
    the text ends with ``>`` (blanks after it aside), the target is what stands after the
    last ``<`` before it. Found by string search: the pattern ``^(.*?)\\s*<([^<>]*)>\\s*$``
    retried its blanks from each character of a long run of them (quadratic)."""
    body = text.rstrip()
    if not body.endswith(">"):
        return None
    lt = body.rfind("<", 0, len(body) - 1)
    if lt < 0 or ">" in body[lt + 1:-1]:
        return None
    return body[:lt].strip(), body[lt + 1:-1].strip()


#: sphinx-issues roles -> (the conf.py setting naming the separator shown before the number, its default)
_ISSUE_ROLES = {"issue": ("issues_prefix", "#"), "pr": ("issues_pr_prefix", "#"),
                "commit": ("issues_commit_prefix", "@"), "user": ("issues_user_prefix", "@")}
_EXTERNAL_REPO = re.compile(r"^(\w+)/(.+)([#@!])(\w+)$")


def issue_role_prefixes(values: dict[str, object], extensions: Sequence[str]) -> dict[str, str]:
    """The roles of sphinx-issues (``sphinx_issues`` in ``extensions``) with the separator
    each shows before its number or name (``issues_prefix`` and the like in conf.py, one of
    ``#@!``; ``#`` for issues and pull requests, ``@`` for commits and users by default),
    plus ``pypi`` (no separator). Empty without the extension."""
    if "sphinx_issues" not in extensions:
        return {}
    out = {"pypi": ""}
    for role, (setting, default) in _ISSUE_ROLES.items():
        value = values.get(setting)
        out[role] = value if isinstance(value, str) and value in ("#", "@", "!") else default
    return out


def issue_text(role: str, text: str, prefix: str) -> str:
    """What a sphinx-issues role shows (sphinx_issues ``IssueRole``, 5.0): ``:issue:`42,45```
    shows "#42, #45", ``:issue:`org/repo#7``` "org/repo#7", ``:commit:`1a2b3c4d5e``` "@1a2b3c4"
    (seven characters), ``:user:`ann``` "@ann", ``:pypi:`pkg``` "pkg"; an explicit title
    (``:user:`Ann <ann>```) is shown as written, an item ``-`` or ``0`` shows nothing."""
    text = text.replace("\x00", "")[:2000]
    if role == "pypi":
        explicit = explicit_target(text)
        return explicit[0] if explicit and explicit[0] else (explicit[1] if explicit else text.strip())
    shown: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if item in ("-", "0"):
            continue
        explicit = explicit_target(item)
        if explicit and explicit[0]:
            shown.append(explicit[0])
            continue
        target = explicit[1] if explicit else item
        repo = _EXTERNAL_REPO.match(target)
        number = (repo.group(4) if repo else target).lstrip("#@!")
        if role == "commit":
            number = number[:7]
        shown.append(f"{repo.group(1)}/{repo.group(2)}{prefix}{number}" if repo else f"{prefix}{number}")
    return ", ".join(shown)


def role_text(name: str, text: str, *, xrefs: XrefIndex | None = None, docname: str = "") -> str:
    """What the role ``name`` (``doc``, ``py:class``, ``guilabel``...) shows for ``text``.

    ``:pep:``/``:rfc:`` show "PEP 8" for ``8`` and for Sphinx's ``8#naming`` (an anchor
    docutils' own role rejects), or their explicit title; ``:cve:``/``:cwe:`` (Sphinx 8.1)
    "CVE 2020-15999", "CWE 787". With ``xrefs`` (the
    site's labels; ``docname`` the referring document) ``ref``, ``numref`` and
    ``doc`` show their target's title (:func:`xref_text`), sphinx-proof's ``prf:ref``
    the target's type and number ("Theorem 2", :meth:`XrefIndex.proof_ref_text`).
    """
    role = name.lower().split(":")[-1]
    text = text.replace("\x00", "")
    if role in ICON_ROLES:  # an icon shows a glyph, never its name
        return ""
    if role == "math":  # LaTeX a reader sees typeset (murar.ingest.markup.mathtext)
        return inline_math(text)
    explicit = explicit_target(text)
    if name.lower() == "prf:ref" and xrefs is not None:  # sphinx-proof: "Theorem 2"
        return xrefs.proof_ref_text(text)
    if role == "eq" and xrefs is not None and not explicit:
        return xrefs.eq_text(text.strip())
    if role in ("ref", "numref", "doc") and name.lower() in (role, "std:" + role):
        if xrefs is not None:
            return xref_text(role, text, xrefs, docname=docname)
        if role == "numref":  # no site: a {number}/%s template never shows as written
            title = explicit[0] if explicit else ""
            return " ".join(re.sub(r"\{number\}|%s|\{name\}", "", title).split()) or (
                explicit[1] if explicit else text.strip())
    shown = text
    if explicit and role not in LITERAL_ROLES:
        shown = explicit[0] or explicit[1]
    elif role in ("pep", "rfc"):
        shown = f"{role.upper()} {text.split('#', 1)[0].strip()}"
    elif role in ("cve", "cwe"):  # Sphinx 8.1's sphinx.roles.CVE/CWE: "CVE 2020-15999", "CWE 787"
        shown = f"{role.upper()} {text.strip()}"
    elif role == "doc":
        shown = shown.lstrip("~!").rsplit("/", 1)[-1]
    elif role not in LITERAL_ROLES and shown.startswith("~"):
        shown = shown[1:].rsplit(".", 1)[-1]
    elif role not in LITERAL_ROLES:
        shown = shown.lstrip("!")
    if role in ("samp", "file"):
        shown = _variable_parts(shown)
    if role in ("guilabel", "menuselection"):
        shown = _accelerators(shown)
    if role == "menuselection":
        shown = " > ".join(p.strip() for p in shown.split("-->"))
    return shown


# an accelerator mark: an '&' neither doubled nor before a blank (sphinx.roles.GUILabel.amp_re)
_ACCELERATOR = re.compile(r"(?<!&)&(?![&\s])")


def _accelerators(text: str) -> str:
    """``:guilabel:``/``:menuselection:`` text as Sphinx draws it (sphinx.roles.GUILabel,
    which MenuSelection extends): each accelerator ``&`` is dropped (its letter is
    underlined), an ``&`` before a blank stays ("Search & Replace"), and ``&&`` reads
    ``&`` after the first accelerator (before it Sphinx leaves the text as written)."""
    first, *rest = _ACCELERATOR.split(text)
    return first + "".join(span.replace("&&", "&") for span in rest)


_VARIABLE_PART = re.compile(r"(?<!\\)\{([^{}]+)(?<!\\)\}")


def _variable_parts(text: str) -> str:
    """``:samp:``/``:file:`` text as Sphinx shows it: a ``{variable}`` part is drawn
    emphasized, without its braces (``conf/{name}.py`` reads "conf/name.py"); a
    backslash-escaped brace is a brace (https://www.sphinx-doc.org/en/master/usage/restructuredtext/roles.html#role-samp)."""
    shown = _VARIABLE_PART.sub(r"\1", text)
    return shown.replace("\\{", "{").replace("\\}", "}")


def xref_text(role: str, text: str, xrefs: XrefIndex, *, docname: str = "") -> str:
    """What Sphinx shows for ``:ref:``/``:numref:``/``:doc:`` with role text ``text``
    (``target`` or ``title <target>``) in the document ``docname``: an explicit
    title as written (``numref``: its ``%s``/``{number}``/``{name}`` filled), else
    the target's title; the target as written (``doc``: its last path part) when
    the site does not define it."""
    explicit = explicit_target(text)
    title, target = (explicit[0], explicit[1]) if explicit else ("", text.strip())
    if role == "numref":
        return xrefs.numref_text(target, title or None)
    if title:
        return title
    if role == "doc":
        found = xrefs.doc_title(target.lstrip("~!"), docname=docname)
        return found or target.lstrip("~!").rsplit("/", 1)[-1]
    tgt = xrefs.target(target)
    if role == "ref" and tgt is not None and tgt.kind == "exercise" and tgt.number:
        # sphinx-exercise turns a ref to a numbered exercise into a numref ("Exercise 2";
        # post_transforms.UpdateReferencesToEnumerated); an unnumbered one shows its title
        return xrefs.numref_text(target, None)
    return tgt.title if tgt is not None and tgt.title else target


def any_text(target: str, xrefs: XrefIndex | None, *, docname: str = "") -> str:
    """What Sphinx shows for an ``any`` cross-reference without an explicit title
    (sphinx-design's ``button-ref``, ``bdg-ref``): a label's title, else a document's
    title, else the target as written."""
    target = target.strip()
    if xrefs is None or not target:
        return target
    tgt = xrefs.target(target)
    if tgt is not None and tgt.title:
        return tgt.title
    return xrefs.doc_title(target, docname=docname) or target


def extlink_text(url: str, caption: str | None, text: str) -> str:
    """What a ``sphinx.ext.extlinks`` role with pattern ``(url, caption)`` shows for ``text``.

    An explicit title (``:issue:`the bug <123>```) is shown as written; else the
    caption with ``%s`` replaced by the target, the caption followed by the
    target when it has no ``%s`` (the pre-4.0 prefix form), or the full URL
    when the caption is ``None`` (Sphinx's extlinks documentation).
    """
    text = text.replace("\x00", "")
    explicit = explicit_target(text)
    if explicit and explicit[0]:
        return explicit[0]
    part = explicit[1] if explicit else text.strip()
    if caption is None:
        return url.replace("%s", part) if "%s" in url else url + part
    return caption.replace("%s", part) if "%s" in caption else caption + part
