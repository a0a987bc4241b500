"""Image-quality filter (seed 001: drop logos, headers, tiny or illegible images).

Deterministic heuristics, applied in two steps so a converter can stream:

1. :meth:`ImageQualityFilter.check` looks at one image on its own: too small
   (``min_side`` px on a side or ``min_area`` px²), extreme aspect ratio
   (``max_aspect``:1, rules and banners), blank or low variance (grey-level
   standard deviation below ``min_stddev``), then the optional ``hook`` (an LLM
   or OCR judge) may veto it. It records the image's perceptual hash.
2. :meth:`ImageQualityFilter.repeated` is called once at the end and names the
   images whose perceptual hash occurs on ``repeat_pages`` or more pages, or
   twice or more inside the top/bottom margin band (running headers, footers,
   logos). Two images are "the same" only when their coarse 64-bit hash *and*
   a fine 256-bit hash agree: per-page charts of one layout (same axes and
   frame, different data) share the coarse hash but not the fine one, so they
   are kept while a logo (the same pixels on every page) is dropped (issue 9).

Drop reasons are short strings (``"tiny 20x400 px"``, ``"repeated on 5 pages"``)
that converters turn into ``ParsedDocument.warnings`` as
``"dropped image <name>: <reason>"``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pillow is an optional extra ("pdf")
    from PIL.Image import Image

__all__ = [
    "ImageCandidate",
    "ImageQualityFilter",
    "QualityHook",
    "QualityOptions",
    "dhash",
    "drop_warning",
    "filter_images",
    "hamming",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class QualityOptions:
    """Thresholds of the image-quality filter.

    Sizes are in pixels of the stored image; ``margin_band`` is a fraction of
    the page height (top and bottom); ``hash_distance`` is the largest Hamming
    distance (of 64 bits) at which two images count as the same picture;
    ``fine_distance`` the largest distance of their 256-bit hashes (``-1``:
    coarse hash only, the behaviour before issue 9).
    """

    min_side: int = 32
    min_area: int = 2500
    max_aspect: float = 8.0
    min_stddev: float = 4.0
    repeat_pages: int = 3
    margin_band: float = 0.08
    margin_repeats: int = 2
    hash_distance: int = 4
    fine_distance: int = 6
    enabled: bool = True


@dataclass(slots=True, kw_only=True)
class ImageCandidate:
    """One image seen by the filter.

    ``key`` names it in drop reasons (an item id or file name); ``page`` is
    1-based (``None`` outside PDFs); ``bbox`` is (x0, top, x1, bottom) in page
    units with ``page_height`` in the same units; ``width``/``height`` in
    pixels. ``hash`` is filled by :meth:`ImageQualityFilter.check`.
    """

    key: str
    width: int
    height: int
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    page_height: float | None = None
    hash: int | None = None
    fine_hash: int | None = None
    extra: dict[str, object] = field(default_factory=dict)


QualityHook = Callable[[ImageCandidate, "Image | None"], "str | None"]
"""An extra judge: returns a drop reason, or ``None`` to keep the image."""


def dhash(image: Image, size: int = 8) -> int:
    """Difference hash of ``image``: ``size*size`` bits comparing neighbouring
    pixels of a ``(size+1) x size`` grey thumbnail. Robust to scaling."""
    from PIL import Image as PILImage

    small = image.convert("L").resize((size + 1, size), PILImage.Resampling.BILINEAR)
    px = small.tobytes()
    bits = 0
    for row in range(size):
        for col in range(size):
            left = px[row * (size + 1) + col]
            right = px[row * (size + 1) + col + 1]
            bits = (bits << 1) | (1 if left > right else 0)
    return bits


def hamming(a: int, b: int) -> int:
    """Number of differing bits of two hashes."""
    return (a ^ b).bit_count()


def _stddev(image: Image) -> float:
    from PIL import ImageStat

    grey = image.convert("L")
    if grey.width * grey.height > 256 * 256:
        grey = grey.resize((min(grey.width, 256), min(grey.height, 256)))
    return float(ImageStat.Stat(grey).stddev[0])


def drop_warning(key: str, reason: str) -> str:
    """The warning text of a dropped image."""
    return f"dropped image {key}: {reason}"


class ImageQualityFilter:
    """Stateful filter over the images of one document (see module docstring).

    Constructing it does no I/O. Not thread-safe; one instance per document.
    """

    def __init__(self, options: QualityOptions | None = None, hook: QualityHook | None = None) -> None:
        self.options = options or QualityOptions()
        self.hook = hook
        self._seen: list[ImageCandidate] = []

    def check(self, candidate: ImageCandidate, image: Image | None = None) -> str | None:
        """Per-image checks; returns a drop reason or ``None`` (keep).

        ``image`` (pixels) enables the blank check and the perceptual hash;
        without it only the size and aspect checks run. Kept images are
        remembered for :meth:`repeated`.
        """
        o = self.options
        if not o.enabled:
            return None
        w, h = candidate.width, candidate.height
        if min(w, h) < o.min_side or w * h < o.min_area:
            return f"tiny {w}x{h} px"
        if max(w, h) / max(1, min(w, h)) > o.max_aspect:
            return f"extreme aspect ratio {w}x{h} px"
        if image is not None:
            sd = _stddev(image)
            if sd < o.min_stddev:
                return f"blank (grey stddev {sd:.1f})"
            candidate.hash = dhash(image)
            candidate.fine_hash = dhash(image, 16)
        if self.hook is not None:
            reason = self.hook(candidate, image)
            if reason:
                return reason
        self._seen.append(candidate)
        return None

    def _in_margin(self, c: ImageCandidate) -> bool:
        if c.bbox is None or not c.page_height:
            return False
        band = self.options.margin_band * c.page_height
        return c.bbox[3] <= band or c.bbox[1] >= c.page_height - band

    def _fine_match(self, a: ImageCandidate, b: ImageCandidate) -> bool:
        if self.options.fine_distance < 0 or a.fine_hash is None or b.fine_hash is None:
            return True
        return hamming(a.fine_hash, b.fine_hash) <= self.options.fine_distance

    def repeated(self) -> list[tuple[ImageCandidate, str]]:
        """Kept images that repeat across the document, with the reason.

        Groups images whose hashes are within ``hash_distance`` of the group's
        first member (in the order seen, so the result is deterministic).
        """
        o = self.options
        groups: list[list[ImageCandidate]] = []
        for c in self._seen:
            if c.hash is None:
                continue
            for g in groups:
                if g[0].hash is not None and hamming(g[0].hash, c.hash) <= o.hash_distance and self._fine_match(g[0], c):
                    g.append(c)
                    break
            else:
                groups.append([c])
        out: list[tuple[ImageCandidate, str]] = []
        for g in groups:
            if len(g) < 2:
                continue
            pages = {c.page for c in g if c.page is not None}
            margin = [c for c in g if self._in_margin(c)]
            if len(pages) >= o.repeat_pages:
                out.extend((c, f"repeated on {len(pages)} pages (logo/header)") for c in g)
            elif len(margin) >= o.margin_repeats:
                out.extend((c, "repeated in page margin (header/footer)") for c in margin)
        return out


def filter_images(
    candidates: Sequence[tuple[ImageCandidate, Image | None]],
    options: QualityOptions | None = None,
    hook: QualityHook | None = None,
) -> tuple[list[ImageCandidate], list[tuple[str, str]]]:
    """Run both filter steps over a whole list at once.

    Returns ``(kept, drops)`` where ``drops`` is a list of ``(key, reason)``
    in input order.
    """
    flt = ImageQualityFilter(options, hook)
    dropped: dict[str, str] = {}
    for cand, img in candidates:
        reason = flt.check(cand, img)
        if reason:
            dropped[cand.key] = reason
    for cand, reason in flt.repeated():
        dropped.setdefault(cand.key, reason)
    kept = [c for c, _ in candidates if c.key not in dropped]
    drops = [(c.key, dropped[c.key]) for c, _ in candidates if c.key in dropped]
    return kept, drops
