"""Local video files referenced by pages: where they are and whether they exist.

Docs embed demo videos from the site's own static folder (Docusaurus
``<video src={useBaseUrl('video/x.mp4')}>``, Markdown links to ``.mp4``, HTML
``<video><source src=...>``). A link that resolves to a file in the corpus is a
*local* video: it is linked like an image (relative to where the answer is
written, or served by the HTTP API) and can be transcribed by speech
recognition. Remote embeds (YouTube, Vimeo, Adobe TV) keep their URL only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from murar.ingest.paths import ResolvedLink

VIDEO_EXTS = frozenset({".mp4", ".webm", ".mov", ".m4v", ".ogv", ".ogg", ".mkv"})
VIDEO_MEDIA_TYPES = {".mp4": "video/mp4", ".m4v": "video/mp4", ".webm": "video/webm",
                     ".mov": "video/quicktime", ".ogv": "video/ogg", ".ogg": "video/ogg",
                     ".mkv": "video/x-matroska"}


@dataclass(frozen=True, slots=True)
class LocalVideo:
    """``path`` relative to the corpus root (``None`` for a remote video or an
    unresolvable link) and whether the file is there."""

    path: str | None = None
    exists: bool = True


def locate_video(url: str, link: ResolvedLink, root: Path, warnings: list[str]) -> LocalVideo:
    """The local file of a video link already resolved by the site (``link``).

    A remote URL gives ``LocalVideo()``; a local link whose file is missing gives
    ``exists=False`` and a warning naming the path tried. Never raises.
    """
    if link.url is not None or link.rel_path is None:
        if link.problem and link.url is None:
            warnings.append(f"video {url!r}: {link.problem}")
            return LocalVideo(path=None, exists=False)
        return LocalVideo()
    try:
        present = (root / link.rel_path).is_file()
    except OSError:
        present = False
    if not present:
        warnings.append(f"video {link.rel_path}: file not found")
    return LocalVideo(path=link.rel_path, exists=present)
