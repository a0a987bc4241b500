"""OCR text of screenshots in the item representation (issue 9), cached by content hash.

A screenshot shows UI labels ("Create journey", "Publish") that the text
around it may not repeat. :func:`ocr_images` fills ``ImageItem.ocr_text`` of
every selectable local raster image with the text an :class:`OcrEngine`
recognises, so the item's representation (MuRAR section 2.3: content +
context) carries what the picture shows.

OCR costs ~0.6 s per screenshot on 2 cores, so results are kept in an
:class:`OcrCache` (a JSON file next to the index versions) keyed by the
image's content hash: a re-ingest, a renamed file or a copy of the same
picture never runs OCR again.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from murar.ingest.media_flags import is_selectable
from murar.ingest.ocr import OcrEngine, ocr_text
from murar.schema import AnyMedia, ImageItem

__all__ = ["OcrCache", "OcrStats", "ocr_images"]

_RASTER = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp")
#: pixels of the largest image OCR'd (a 1920 x 20,000 scrolling screenshot is 38 M). A
#: 12,000 x 8,000 PNG of 300 KB took 17 s and 1.4 GB to OCR (RapidOCR, 2 cores); Pillow
#: only warns below 179 M pixels.
MAX_OCR_PIXELS = 40_000_000


class OcrCache:
    """``content hash -> OCR text`` persisted as JSON at ``path`` (missing or corrupt file: empty cache)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._data: dict[str, str] = {}
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(raw, dict):
                self._data = {str(k): str(v) for k, v in raw.items()}
        except (OSError, ValueError):
            pass

    def get(self, digest: str) -> str | None:
        return self._data.get(digest)

    def put(self, digest: str, text: str) -> None:
        self._data[digest] = text

    def __len__(self) -> int:
        return len(self._data)

    def save(self) -> None:
        """Write atomically (temp file + rename)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self._data, ensure_ascii=False, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)


@dataclass(slots=True)
class OcrStats:
    """Images OCR'd now (``computed``), taken from the cache (``reused``), skipped (unreadable,
    or larger than :data:`MAX_OCR_PIXELS`)."""

    computed: int = 0
    reused: int = 0
    skipped: int = 0


def ocr_images(
    media: Sequence[AnyMedia],
    corpus_root: Path,
    engine: OcrEngine,
    cache: OcrCache,
    *,
    max_chars: int = 400,
    progress: Callable[[int], None] | None = None,
    save_every: int = 25,
    max_pixels: int = MAX_OCR_PIXELS,
) -> OcrStats:
    """Fill ``ocr_text`` of selectable local raster images (at most ``max_chars`` characters).

    Images without a content hash, flagged at ingest, remote or vector (SVG)
    are left alone. An unreadable image, or one of more than ``max_pixels``
    pixels, is skipped and counted. ``progress``
    gets 1 per image handled. The cache is saved after every ``save_every``
    images OCR'd (about 3 s each for 2-megapixel screenshots on 2 cores), so an
    ingest stopped during OCR keeps what was read. Never raises for a bad
    image; engine errors other than on one image propagate.
    """
    from PIL import Image, UnidentifiedImageError

    stats = OcrStats()
    todo = [m for m in media if isinstance(m, ImageItem) and m.exists and m.path and m.content_hash
            and is_selectable(m) and m.path.lower().endswith(_RASTER)]
    for item in todo:
        text = cache.get(item.content_hash)
        if text is None:
            assert item.path is not None
            try:
                with warnings.catch_warnings():  # the pixel limit below is ours
                    warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                    with Image.open(corpus_root / item.path) as img:
                        if img.width * img.height > max_pixels:
                            raise ValueError(f"{img.width} x {img.height} pixels")
                        img.load()
                        text = ocr_text(engine.recognize(img))[:max_chars]
            # Pillow's errors on a file whose header read fine: a bad chunk CRC is a SyntaxError
            # ('broken PNG file'), which ended the whole ingest after every page was parsed
            except (OSError, UnidentifiedImageError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError):
                stats.skipped += 1
                if progress is not None:
                    progress(1)
                continue
            cache.put(item.content_hash, text)
            stats.computed += 1
            if save_every > 0 and stats.computed % save_every == 0:
                cache.save()
        else:
            stats.reused += 1
        item.ocr_text = text
        if progress is not None:
            progress(1)
    return stats
