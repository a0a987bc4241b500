"""Optional OCR of page renders and figure crops (extra ``ocr``).

The PDF converter uses OCR for pages without a text layer (scans) and, when
asked, to fill ``ImageItem.ocr_text`` of figures. Engines follow the
:class:`OcrEngine` protocol; :class:`RapidOcrEngine` wraps
``rapidocr-onnxruntime`` (models shipped inside the wheel, ~0.6 s per
screenshot on 2 CPU cores), :class:`FakeOcrEngine` replays fixed lines for
tests.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from murar.errors import MissingExtraError

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["FakeOcrEngine", "OcrEngine", "OcrLine", "RapidOcrEngine", "ocr_text"]


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One recognised text line: ``bbox`` = (x0, y0, x1, y1) in pixels of the
    input image (top-left origin), ``score`` in [0, 1]."""

    text: str
    bbox: tuple[float, float, float, float]
    score: float


@runtime_checkable
class OcrEngine(Protocol):
    """Recognises text lines in an image."""

    def recognize(self, image: Image) -> list[OcrLine]:
        """Text lines of ``image`` in top-to-bottom, left-to-right order."""
        ...


class RapidOcrEngine:
    """OCR with ``rapidocr-onnxruntime`` (PP-OCR det + rec ONNX models).

    Raises:
        MissingExtraError: at construction when the package is not installed.
    """

    def __init__(self, *, min_score: float = 0.5) -> None:
        if importlib.util.find_spec("rapidocr_onnxruntime") is None:
            raise MissingExtraError("rapidocr-onnxruntime", "ocr")
        self.min_score = min_score
        self._engine: Any = None

    def load(self) -> None:
        """Load the ONNX models (done lazily by :meth:`recognize`)."""
        if self._engine is None:
            from rapidocr_onnxruntime import RapidOCR

            self._engine = RapidOCR()

    def recognize(self, image: Image) -> list[OcrLine]:
        import numpy as np

        self.load()
        arr = np.asarray(image.convert("RGB"))[:, :, ::-1]  # RGB -> BGR for OpenCV
        result, _ = self._engine(arr)
        lines: list[OcrLine] = []
        for box, text, score in result or []:
            xs = [float(p[0]) for p in box]
            ys = [float(p[1]) for p in box]
            if float(score) < self.min_score or not str(text).strip():
                continue
            lines.append(OcrLine(str(text).strip(), (min(xs), min(ys), max(xs), max(ys)), float(score)))
        return sort_lines(lines)


class FakeOcrEngine:
    """Returns the same lines for every image (tests)."""

    def __init__(self, lines: Sequence[OcrLine]) -> None:
        self.lines = list(lines)
        self.calls = 0

    def recognize(self, image: Image) -> list[OcrLine]:
        self.calls += 1
        return list(self.lines)


def sort_lines(lines: Sequence[OcrLine]) -> list[OcrLine]:
    """Order lines top-to-bottom, then left-to-right within a text row
    (rows: vertical centres closer than half a line height)."""
    rows: list[list[OcrLine]] = []
    for line in sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2):
        cy = (line.bbox[1] + line.bbox[3]) / 2
        h = line.bbox[3] - line.bbox[1]
        if rows:
            last = rows[-1][0]
            lcy = (last.bbox[1] + last.bbox[3]) / 2
            if abs(cy - lcy) < max(h, last.bbox[3] - last.bbox[1]) / 2:
                rows[-1].append(line)
                continue
        rows.append([line])
    return [ln for row in rows for ln in sorted(row, key=lambda ln: ln.bbox[0])]


def ocr_text(lines: Sequence[OcrLine]) -> str:
    """The text of ``lines`` joined with spaces."""
    return " ".join(ln.text for ln in lines)
