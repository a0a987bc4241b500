"""Resolving links in documents to files inside the corpus root, safely.

Links resolve as documentation sites resolve them: relative to the page, or,
for a link starting with ``/`` (``/help/assets/x.png``), relative to the
nearest ancestor folder of the page that contains the link's first segment
(the repository folder in the Adobe docs layout). Nothing outside the corpus
root is ever returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

_REMOTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
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


def resolve_link(link: str, *, page_rel: str, root: Path) -> ResolvedLink:
    """Resolve ``link`` written in the page ``page_rel`` (relative to ``root``).

    Never raises: a link escaping ``root`` gives ``problem="escapes the corpus root"``.
    """
    link = link.strip().strip("<>")
    if not link:
        return ResolvedLink(problem="empty link")
    if is_remote(link):
        if link.lower().startswith("data:"):
            return ResolvedLink(problem="inline data URI image ignored")
        return ResolvedLink(url=link)
    parts = urlsplit(link)
    target = unquote(parts.path)
    if not target:
        return ResolvedLink(problem="link without a path")
    root = root.resolve()
    page_dir = (root / page_rel).parent
    if target.startswith("/"):
        rel = PurePosixPath(target.lstrip("/"))
        first = rel.parts[0] if rel.parts else ""
        base = root
        probe = page_dir
        while True:
            if (probe / first).exists():
                base = probe
                break
            if probe == root or root not in probe.parents:
                break
            probe = probe.parent
        candidate = base / rel
    else:
        candidate = page_dir / target
    try:
        resolved = candidate.resolve()
    except (OSError, RuntimeError) as err:
        return ResolvedLink(problem=f"cannot resolve: {err}")
    if resolved != root and root not in resolved.parents:
        return ResolvedLink(problem="escapes the corpus root")
    return ResolvedLink(rel_path=resolved.relative_to(root).as_posix())


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
