"""Resolving links in documents to files inside the corpus root, safely.

Links resolve as documentation sites resolve them: relative to the page, or,
for a link starting with ``/`` (``/help/assets/x.png``), relative to the
nearest ancestor folder of the page that contains the link's first segment
(the repository folder in the Adobe docs layout). Nothing outside the corpus
root is ever returned.

Every converter and site profile resolves links through this module, so the
limits on hostile links live here, once: a link longer than
:data:`MAX_LINK_CHARS` characters, deeper than :data:`MAX_LINK_DEPTH` segments
or with a segment longer than :data:`MAX_SEGMENT_BYTES` bytes is refused before
the file system is touched (issue 11: ``OSError: File name too long`` on
``a/a/...(2,000 levels)/x.png``). Only ``http:``/``https:`` and protocol-relative
links are remote URLs; ``file:`` and other schemes are refused with a reason,
never kept as a URL.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

_REMOTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
_WEB = re.compile(r"^(?:https?:)?//", re.IGNORECASE)

#: Longest link path accepted, in characters (well under Linux ``PATH_MAX``, 4,096 bytes).
MAX_LINK_CHARS = 2048
#: Most ``/``-separated segments accepted in a link path.
MAX_LINK_DEPTH = 64
#: Longest single segment, in UTF-8 bytes (Linux ``NAME_MAX``).
MAX_SEGMENT_BYTES = 255
IMAGE_EXTS = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".tif", ".tiff"}


@dataclass(frozen=True, slots=True)
class ResolvedLink:
    """Where a link points: a file under the root (``rel_path``, posix, relative
    to the root), a remote ``url``, or nothing (``problem`` says why)."""

    rel_path: str | None = None
    url: str | None = None
    problem: str | None = None


def is_remote(link: str) -> bool:
    """True for ``http:``, ``https:``, ``data:``, protocol-relative links and other schemes."""
    return bool(_REMOTE.match(link.strip()))


def is_web_url(link: str) -> bool:
    """True for ``http:``, ``https:`` and protocol-relative (``//host/x``) links."""
    return bool(_WEB.match(link.strip()))


_SURROGATE = re.compile("[\ud800-\udfff]")


def link_path_problem(target: str, *, max_chars: int = MAX_LINK_CHARS, max_depth: int = MAX_LINK_DEPTH) -> str | None:
    """Why the link path ``target`` is refused before any file-system call, or ``None``.

    Limits: :data:`MAX_LINK_CHARS` characters, :data:`MAX_LINK_DEPTH` segments,
    :data:`MAX_SEGMENT_BYTES` bytes per segment, no NUL character, no character a file
    name cannot hold (a lone UTF-16 surrogate, ``import P from './\\ud800.md'``: the
    file-system call raised UnicodeEncodeError).
    """
    if "\x00" in target:
        return "link contains a NUL character"
    if _SURROGATE.search(target):
        try:
            os.fsencode(target)
        except UnicodeError:
            return "link path has a character no file name can hold (a lone surrogate)"
    if len(target) > max_chars:
        return f"link path longer than {max_chars} characters"
    segments = [p for p in target.split("/") if p]
    if len(segments) > max_depth:
        return f"link path deeper than {max_depth} segments"
    if any(len(p.encode("utf-8", "surrogatepass")) > MAX_SEGMENT_BYTES for p in segments):
        return f"link path segment longer than {MAX_SEGMENT_BYTES} bytes"
    return None


def inside_root(candidate: Path, root: Path) -> ResolvedLink:
    """``candidate`` resolved (symlinks followed) as a path relative to ``root``.

    ``root`` must already be resolved. Never raises: an unresolvable path or one
    outside ``root`` gives a ``problem`` (``"escapes the corpus root"``).
    """
    # the absolute path holds the root and page folders too: only the OS limits apply
    problem = link_path_problem(candidate.as_posix(), max_chars=4000, max_depth=1000)
    if problem:
        return ResolvedLink(problem=problem)
    try:
        resolved = candidate.resolve()
    except (OSError, RuntimeError, ValueError) as err:
        return ResolvedLink(problem=f"cannot resolve: {type(err).__name__}")
    if resolved != root and root not in resolved.parents:
        return ResolvedLink(problem="escapes the corpus root")
    return ResolvedLink(rel_path=resolved.relative_to(root).as_posix())


def resolve_link(link: str, *, page_rel: str, root: Path) -> ResolvedLink:
    """Resolve ``link`` written in the page ``page_rel`` (relative to ``root``).

    Never raises: a link escaping ``root`` gives ``problem="escapes the corpus root"``.
    """
    link = link.strip().strip("<>")
    if not link:
        return ResolvedLink(problem="empty link")
    if is_remote(link):
        if is_web_url(link):
            return ResolvedLink(url=link)
        scheme = link.split(":", 1)[0].lower()
        if scheme == "data":
            return ResolvedLink(problem="inline data URI image ignored")
        return ResolvedLink(problem=f"unsupported URL scheme {scheme!r}: not read, not kept")
    parts = urlsplit(link)
    target = unquote(parts.path)
    if not target:
        return ResolvedLink(problem="link without a path")
    problem = link_path_problem(target) or link_path_problem(page_rel)
    if problem:
        return ResolvedLink(problem=problem)
    root = root.resolve()
    page_dir = (root / page_rel).parent
    if target.startswith("/"):
        rel = PurePosixPath(target.lstrip("/"))
        first = rel.parts[0] if rel.parts else ""
        base = root
        probe = page_dir
        while True:
            try:
                found = (probe / first).exists()
            except (OSError, ValueError):
                found = False
            if found:
                base = probe
                break
            if probe == root or root not in probe.parents:
                break
            probe = probe.parent
        candidate = base / rel
    else:
        candidate = page_dir / target
    return inside_root(candidate, root)


@dataclass(frozen=True, slots=True)
class ImageCheck:
    """Result of checking a local image file: ``ok`` plus pixel size when known."""

    ok: bool
    problem: str | None = None
    width: int | None = None
    height: int | None = None


def check_image(path: Path, *, max_bytes: int = 50_000_000) -> ImageCheck:
    """Check that ``path`` is a readable image with a valid header (SVG: an ``<svg`` root).

    Only the header is decoded (fast); a file truncated after a valid header passes.

    Never raises. Size limits in bytes.
    """
    try:
        if not path.is_file():
            return ImageCheck(False, "file not found")
        size = path.stat().st_size
    except OSError as err:
        return ImageCheck(False, f"unreadable: {err}")
    if size == 0:
        return ImageCheck(False, "empty file")
    if size > max_bytes:
        return ImageCheck(False, f"file too large ({size} bytes)")
    if path.suffix.lower() == ".svg":
        try:
            head = path.read_bytes()[:2048].lower()
        except OSError as err:
            return ImageCheck(False, f"unreadable: {err}")
        if b"<svg" in head or head.lstrip().startswith(b"<?xml"):
            return ImageCheck(True)
        return ImageCheck(False, "not an SVG document")
    try:
        from PIL import Image, UnidentifiedImageError

        # header only: decoding every pixel of every screenshot would dominate ingest time
        with Image.open(path) as img:
            width, height = img.size
            if width <= 0 or height <= 0:
                return ImageCheck(False, "image has no pixels")
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as err:
        return ImageCheck(False, f"corrupt or not an image ({type(err).__name__})")
    except Exception as err:  # noqa: BLE001 - Pillow raises assorted errors on hostile files
        return ImageCheck(False, f"corrupt image ({type(err).__name__})")
    return ImageCheck(True, None, width, height)
