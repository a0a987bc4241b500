from __future__ import annotations

from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.ingest.image_ocr import OcrCache, ocr_images
from murar.ingest.index import build_index, open_index
from murar.ingest.ocr import FakeOcrEngine, OcrLine
from murar.schema import ImageItem


def _png(path: Path, colour: tuple[int, int, int]) -> None:
    from PIL import Image

    Image.new("RGB", (320, 200), colour).save(path)


def _corpus(root: Path) -> None:
    root.mkdir()
    _png(root / "shot.png", (250, 10, 10))
    _png(root / "copy.png", (250, 10, 10))  # the same picture under another name
    (root / "a.md").write_text("# A\n\nOpen the journey canvas.\n\n![](shot.png)\n\nThen the copy.\n\n![](copy.png)\n")


def test_ocr_text_joins_the_representation_and_is_cached_by_content(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    _corpus(corpus)
    engine = FakeOcrEngine([OcrLine("Create journey", (0, 0, 10, 10), 0.9), OcrLine("Publish", (0, 20, 10, 30), 0.9)])
    idx = tmp_path / "idx"
    build_index(corpus, idx, embedder=HashingEmbedder(), ocr=engine, ocr_cache=tmp_path / "ocr.json")
    assert engine.calls == 1  # two files, one content
    items = [m for m in open_index(idx).store.all_media() if isinstance(m, ImageItem)]
    assert len(items) == 2 and all(m.ocr_text == "Create journey Publish" for m in items)
    assert all("Create journey" in m.representation() for m in items)
    build_index(corpus, idx, embedder=HashingEmbedder(), ocr=engine, ocr_cache=tmp_path / "ocr.json")  # re-ingest: no OCR at all
    assert engine.calls == 1
    assert OcrCache(tmp_path / "ocr.json").get(items[0].content_hash) == "Create journey Publish"


def test_without_ocr_the_representation_has_no_screen_text(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    _corpus(corpus)
    idx = tmp_path / "idx"
    build_index(corpus, idx, embedder=HashingEmbedder())
    assert all(not m.ocr_text for m in open_index(idx).store.all_media())


def test_unreadable_and_flagged_images_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "bad.png").write_bytes(b"not a png")
    good = ImageItem(id="g", section_id="s", source_path="a.md", page_title="A", heading_path=("A",), anchor=None,
                     position=0, path="bad.png", content_hash="x")
    icon = ImageItem(id="i", section_id="s", source_path="a.md", page_title="A", heading_path=("A",), anchor=None,
                     position=1, path="bad.png", content_hash="y", flags=["inline"])
    stats = ocr_images([good, icon], tmp_path, FakeOcrEngine([]), OcrCache(tmp_path / "c.json"))
    assert (stats.computed, stats.reused, stats.skipped) == (0, 0, 1)


#: a 64 x 48 PNG whose header reads fine and whose data holds a chunk of garbage (a byte-mutated
#: file found by fuzzing): Pillow's load() raises SyntaxError('broken PNG file')
BROKEN_PNG = (Path(__file__).parents[1] / "fixtures" / "broken-chunk.png").read_bytes()


def test_an_image_that_breaks_while_decoding_or_is_huge_is_skipped(tmp_path: Path) -> None:
    """The broken PNG passes the ingest's image check (its header), then raised SyntaxError in
    OCR, which ended the whole ingest after every page was parsed. A picture larger than
    max_pixels is not decoded (a 300 KB 12,000 x 8,000 PNG took 17 s and 1.4 GB to OCR)."""
    from murar.ingest.paths import check_image

    (tmp_path / "broken.png").write_bytes(BROKEN_PNG)
    assert check_image(tmp_path / "broken.png").ok
    _png(tmp_path / "shot.png", (250, 10, 10))
    items = [ImageItem(id=name, section_id="s", source_path="a.md", page_title="A", heading_path=("A",),
                       anchor=None, position=0, path=f"{name}.png", content_hash=name) for name in ("broken", "shot")]
    engine = FakeOcrEngine([OcrLine("Publish", (0, 0, 10, 10), 0.9)])
    stats = ocr_images(items, tmp_path, engine, OcrCache(tmp_path / "c.json"))
    assert (stats.computed, stats.skipped) == (1, 1) and items[1].ocr_text == "Publish"
    stats = ocr_images(items[1:], tmp_path, engine, OcrCache(tmp_path / "d.json"), max_pixels=320 * 199)
    assert (stats.computed, stats.skipped, engine.calls) == (0, 1, 1)


def test_an_ocr_run_stopped_midway_keeps_what_it_read(tmp_path: Path) -> None:
    from PIL import Image

    class StopsAfterTwo(FakeOcrEngine):
        def recognize(self, image: Image.Image) -> list[OcrLine]:
            if self.calls >= 2:
                raise KeyboardInterrupt  # the user stops a long ingest
            return super().recognize(image)

    items = []
    for n in range(3):
        _png(tmp_path / f"s{n}.png", (n * 80, 10, 10))
        items.append(ImageItem(id=f"i{n}", section_id="s", source_path="a.md", page_title="A", heading_path=("A",),
                               anchor=None, position=n, path=f"s{n}.png", exists=True, content_hash=f"h{n}"))
    cache = OcrCache(tmp_path / "ocr.json")
    with pytest.raises(KeyboardInterrupt):  # the stop reaches the caller; what was read is on disk
        ocr_images(items, tmp_path, StopsAfterTwo([OcrLine("Publish", (0, 0, 9, 9), 0.9)]), cache, save_every=1)
    saved = OcrCache(tmp_path / "ocr.json")
    assert (saved.get("h0"), saved.get("h1"), saved.get("h2")) == ("Publish", "Publish", None)
