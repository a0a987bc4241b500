"""Link helpers for JS-config generators (Docusaurus, VitePress): posix paths relative to the
site root, and the paths inside JSX helper expressions (``useBaseUrl``, ``require``)."""

from __future__ import annotations

import posixpath
import re

_WRAPPER = re.compile(
    r"""^\{?\s*(?P<fn>useBaseUrl|withBaseUrl|withBase|require|pathToRoot)\s*\(\s*(?P<q>['"`])(?P<path>[^'"`]*)(?P=q)"""
    r"""\s*(?:,[^)]*)?\)\s*(?:\.default)?\s*\}?$""")


def join_rel(base: str, rel: str) -> str:
    """``base/rel`` normalised (``.``/``..`` folded); ``"."`` for the root itself.
    The result may start with ``..`` when ``rel`` climbs above the root: callers check."""
    joined = posixpath.normpath(posixpath.join(base or ".", rel or "."))
    return "." if joined in ("", ".") else joined


def contained(rel: str, folder: str) -> bool:
    """True when the posix path ``rel`` is ``folder`` or inside it (``"."`` holds everything)."""
    if folder in (".", ""):
        return True
    return rel == folder or rel.startswith(folder.rstrip("/") + "/")


def helper_path(expr: str) -> str | None:
    """The path a JSX helper call names, ``None`` when ``expr`` is not one:
    ``useBaseUrl('img/x.png')`` (optionally in braces) -> ``/img/x.png`` (a
    base-URL helper takes a site path; Docusaurus ``useBaseUrl``, VitePress
    ``withBase``); ``require('./x.png').default`` -> ``./x.png``."""
    m = _WRAPPER.match(expr.strip())
    if not m:
        return None
    path = m.group("path").strip()
    if m.group("fn") in ("useBaseUrl", "withBaseUrl", "withBase") and not re.match(r"^[a-z][a-z0-9+.-]*:|^//", path):
        return "/" + path.lstrip("/")
    return path


def strip_wrappers(link: str) -> str:
    """The path inside a JSX/helper expression written where a link is expected.

    A helper call gives its path (:func:`helper_path`); quotes and braces
    around a literal are removed. Anything else is returned stripped.
    """
    text = link.strip().strip("<>").strip()
    path = helper_path(text)
    if path is not None:
        return path
    if text.startswith("{") and text.endswith("}"):
        inner = text[1:-1].strip()
        if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\"`":
            return inner[1:-1]
    return text
