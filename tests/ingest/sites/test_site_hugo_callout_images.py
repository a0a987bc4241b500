"""Hugo box labels: a callout whose content opens with a picture (a Relearn ``notice`` holding a
screenshot) leads with its label on a line of its own (the theme draws the label in the box's
title bar, so the picture is no icon inside a sentence); a blank title shows no label."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

from murar.ingest.corpus import convert_file
from murar.ingest.sites import hugo
from murar.schema import ImageItem


def _png(width: int, height: int) -> bytes:
    """A valid blank PNG of that size."""
    raw = b"".join(b"\x00" + b"\xff" * (width * 3) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_screenshot_opening_a_callout_is_not_an_inline_icon(tmp_path: Path, write: Callable[..., Path]) -> None:
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    write(tmp_path, "content/docs/_index.md",
          "+++\ntitle = \"Docs\"\n+++\n\nIntro.\n\n{{% notice tip %}}\n![Settings dialog](shot.png)\n{{% /notice %}}\n\n"
          "{{% notice style=\"code\" title=\"Result\" %}}\n\n![Other dialog](other.png?width=20vw)\n"
          "{{% /notice %}}\n\n{{% notice note %}}\nPress ![gear](gear.png) to open it.\n{{% /notice %}}\n")
    for name in ("shot.png", "other.png", "gear.png"):
        write(tmp_path, f"content/docs/{name}", _png(300, 180))
    site = hugo.load(tmp_path)
    out = site.preprocess((tmp_path / "content/docs/_index.md").read_text(), page_rel="content/docs/_index.md")
    assert "**Tip:** \n![Settings dialog](shot.png)" in out
    # a callout opening with words still reads "**Note:** words"
    assert "**Note:** Press ![gear](gear.png)" in out
    doc = convert_file(tmp_path / "content/docs/_index.md", root=tmp_path, assets_dir=tmp_path / "a", site=site)
    flags = {m.alt: m.flags for m in doc.media if isinstance(m, ImageItem)}
    assert flags["Settings dialog"] == [] and flags["Other dialog"] == []
    assert flags["gear"] == ["inline"]  # an icon in a sentence stays one
    assert "Tip:" in doc.sections[0].text and "Result:" in doc.sections[0].text


def test_a_blank_title_shows_no_label(tmp_path: Path, write: Callable[..., Path]) -> None:
    """Relearn's way to show no title (``title=" "``, badge and expand alike): the content alone,
    no empty bold ``****`` left in the text; a real title still leads."""
    write(tmp_path, "hugo.toml", 'baseURL = "/"\ntheme = "hugo-theme-relearn"\n')
    site = hugo.load(tmp_path)
    out = site.preprocess('1. Step.\n\n    {{% badge style="warning" title=" " %}}Warning{{% /badge %}} Only for Hugo < 0.112\n\n'
                          '{{% badge title="Version" %}}6.0{{% /badge %}} and {{% expand title=" " %}}Hidden.{{% /expand %}}\n',
                          page_rel="content/a.md")
    assert "****" not in out and "** **" not in out
    assert "    Warning Only for Hugo < 0.112" in out and "**Version** 6.0" in out and "Hidden." in out
