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
BROKEN_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000400000003008020000002e29eb480000023a49444154789ccdcf6d68cd7118"
    "87f1eb7b4cb646266442266442261332994c2693c96432211332994c2693c964322193c9844c269309994c0835994cc8844c"
    "2693c96465321d2fc8c31adb39fb3ffcee37f77dbfbb3ec21b54162c8c998651dec03b3ef478ca8215f5d16b5f90af137847"
    "8d237ce8f100373b2bfabd4186807b62586b7b3c3fd6b5ae8a796b9081070a18dcaa1ecfafabb487625f1b64687cacc0812d"
    "f778fe7c4a7a29eea5418686a7ead8af851e4f93ff7c5fc53f37c850ff42217dfed7d3140014f757c213830c75afd4ade73f"
    "7b9a0100458394f8c82043ed1b85766fbea7790050384449f70d32d4bc53ef2ecdf4fc1300140cd7c2bb0619aa3f28ac53d3"
    "9eff01802323957cdb2043d5270d08faaba70500903f5acb6e196478f659e1ed7ff7b40c00f2c629e5ba4186caaf1aaa9f3d"
    "ad0200b913947ac520c343af22be79693d00d83d4969970c3254b453e417af0f0020678ad22f186428ef20df0040f634659c"
    "35c8e03300c89aa1ccd3a618fc010099b39475d208839f0020638eb28fbb6ff01f00a4cf53ce51970d6d0200690bb4fb909b"
    "86b60280d4c5ca3de09ac1020090b25479fbdc3158030096ad50fe1e170c960180e4553ab2d36983950060e11a156c77d460"
    "3100485aa7c2adce19ac0700891b54b4d921832d002061938a373a61b00b00c46fd1f9f5b61b6c040071db54b2d65e83bd00"
    "2076874a57db68b01d00c4ecd2b59576199c0000d17b7573b92d06870040d47e952db1dee01c00187350e58b2c36380a0022"
    "0fab62be9506a70140c4313d9c6b99c1050030f4842a675b63700700849fd2b39916185c030003cea86a7a5b0d6e0280b073"
    "aa9eda2683cb00a0f745d54cf6dfe03e0008bdacda897e1a8c0000ddaeaa6ebc3f06530040c80dd58ff5d9f01d23d0bf102b"
    "2d1d690000000049454e44ae426082"
)


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
