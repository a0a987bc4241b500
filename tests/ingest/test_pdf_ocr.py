"""OCR engine: missing extra and (when installed) a real scan."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from murar.errors import MissingExtraError
from murar.ingest import ocr


def test_missing_extra_raises_with_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(MissingExtraError, match=r"murar\[ocr\]"):
        ocr.RapidOcrEngine()


def test_sort_lines_reading_order() -> None:
    lines = [ocr.OcrLine("b", (100, 10, 150, 30), 0.9), ocr.OcrLine("c", (0, 50, 40, 70), 0.9),
             ocr.OcrLine("a", (0, 12, 40, 31), 0.9)]
    assert [ln.text for ln in ocr.sort_lines(lines)] == ["a", "b", "c"]


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.skipif(importlib.util.find_spec("rapidocr_onnxruntime") is None, reason="ocr extra missing")
def test_single_table_scan_with_rapidocr(pdf_root: Path, tmp_path: Path) -> None:
    from murar.ingest.pdf import PdfOptions, convert_pdf

    doc = convert_pdf(pdf_root / "unstructured" / "single_table.pdf", root=pdf_root, assets_dir=tmp_path,
                      options=PdfOptions(ocr=True))
    text = " ".join(s.text for s in doc.sections)
    assert "Chipper" in text and "64,058" in text
    assert "Chipper" in doc.media[0].ocr_text
