"""Tests of murar.ingest.quality."""

from __future__ import annotations

import pytest

PIL = pytest.importorskip("PIL")

from PIL import Image

from murar.ingest.quality import (
    ImageCandidate,
    ImageQualityFilter,
    QualityOptions,
    dhash,
    filter_images,
)


def _pattern(w: int, h: int, seed: int = 1) -> Image.Image:
    img = Image.new("L", (w, h))
    img.putdata([((x * seed * 7) ^ (y * 13)) % 256 for y in range(h) for x in range(w)])
    return img


def _cand(key: str, w: int, h: int, page: int | None = None, top: float = 300.0) -> ImageCandidate:
    return ImageCandidate(key=key, width=w, height=h, page=page, bbox=(10, top, 60, top + 40), page_height=800)


def test_single_image_checks() -> None:
    flt = ImageQualityFilter()
    assert flt.check(_cand("tiny", 20, 400)) == "tiny 20x400 px"
    assert flt.check(_cand("area", 40, 40)) == "tiny 40x40 px"
    assert flt.check(_cand("banner", 900, 60)).startswith("extreme aspect ratio")
    assert flt.check(_cand("blank", 100, 100), Image.new("L", (100, 100), 255)).startswith("blank")
    assert flt.check(_cand("ok", 100, 100), _pattern(100, 100)) is None


def test_repeated_images_dropped_deterministically() -> None:
    logo = _pattern(80, 80, seed=3)
    chart = _pattern(160, 100, seed=5)
    cands = [(_cand(f"logo-p{p}", 80, 80, page=p, top=5), logo.resize((80 + p, 80 + p))) for p in (1, 2, 3)]
    cands.append((_cand("chart", 160, 100, page=1), chart))
    kept, drops = filter_images(cands)
    assert [c.key for c in kept] == ["chart"]
    assert drops == [(f"logo-p{p}", "repeated on 3 pages (logo/header)") for p in (1, 2, 3)]


def test_margin_repeat_and_hook_and_disabled() -> None:
    img = _pattern(100, 100, seed=2)
    kept, drops = filter_images([(_cand("h1", 100, 100, page=1, top=2), img),
                                 (_cand("h2", 100, 100, page=2, top=2), img)])
    assert not kept and all(r == "repeated in page margin (header/footer)" for _, r in drops)
    hook_calls = []

    def hook(c: ImageCandidate, image: object) -> str | None:
        hook_calls.append(c.key)
        return "judge says illegible"

    flt = ImageQualityFilter(hook=hook)
    assert flt.check(_cand("x", 100, 100), img) == "judge says illegible" and hook_calls == ["x"]
    assert ImageQualityFilter(QualityOptions(enabled=False)).check(_cand("t", 1, 1)) is None


def test_dhash_is_scale_invariant() -> None:
    img = _pattern(120, 90, seed=4)
    assert (dhash(img) ^ dhash(img.resize((240, 180)))).bit_count() <= 4


def _chart(values: list[int]) -> Image.Image:
    """A bar chart of one fixed layout (frame, axes, grid) with the given bar heights."""
    from PIL import ImageDraw

    img = Image.new("L", (400, 300), 255)
    d = ImageDraw.Draw(img)
    d.rectangle([40, 20, 390, 270], outline=0)
    for y in range(40, 270, 40):
        d.line([40, y, 390, y], fill=200)
    for i, v in enumerate(values):
        x = 50 + i * 34
        d.rectangle([x, 270 - v, x + 22, 270], fill=60)
    return img


def test_look_alike_charts_are_kept_while_a_logo_is_dropped() -> None:
    import random

    rng = random.Random(7)
    base = [rng.randint(40, 200) for _ in range(10)]
    charts = [_chart([b + rng.randint(-25, 25) for b in base]) for _ in range(12)]
    logo = _pattern(120, 60, seed=5)
    cands = [(_cand(f"chart-p{p}", 400, 300, page=p), charts[p]) for p in range(12)]
    cands += [(_cand(f"logo-p{p}", 120, 60, page=p, top=5), logo.resize((120 + p % 3, 60))) for p in range(12)]
    _kept, drops = filter_images(cands)
    dropped = {k for k, _ in drops}
    assert dropped == {f"logo-p{p}" for p in range(12)}
    # the coarse hash alone groups the charts as one repeated picture (the behaviour before)
    _kept, old = filter_images(cands, QualityOptions(fine_distance=-1))
    assert any(k.startswith("chart") for k, _ in old)
