"""Shared data of the store conformance tests: sections, snippets, media and vectors of two pages."""

from __future__ import annotations

import numpy as np

from murar.embed.base import l2_normalise
from murar.schema import ImageItem, Section, Snippet, TableItem, VideoItem
from murar.store.base import PageRecord, StoreWriter

DIM = 8


def _data() -> dict:
    sections = [
        Section(id=f"sec{i}", source_path=f"p{i // 2}.md", page_title="P", heading_path=("P", f"S{i}"),
                anchor=None, level=2, text=f"text {i}", ordinal=i)
        for i in range(4)
    ]
    snippets = [
        Snippet(id=f"sn{i}", section_id=f"sec{i % 4}", source_path=f"p{(i % 4) // 2}.md", page_title="P",
                heading_path=("P", f"S{i % 4}"), anchor=None, text=f"snippet {i}", position=i // 4, n_tokens=2)
        for i in range(10)
    ]
    media = [
        ImageItem(id="img0", section_id="sec0", source_path="p0.md", page_title="P", heading_path=("P", "S0"),
                  anchor=None, position=0, path="a.png", exists=True),
        ImageItem(id="img1", section_id="sec0", source_path="p0.md", page_title="P", heading_path=("P", "S0"),
                  anchor=None, position=1, path="gone.png", exists=False),
        TableItem(id="tab0", section_id="sec1", source_path="p0.md", page_title="P", heading_path=("P", "S1"),
                  anchor=None, position=0, headers=["A"], rows=[["1"]], markdown="|A|\n|-|\n|1|"),
        VideoItem(id="vid0", section_id="sec2", source_path="p1.md", page_title="P", heading_path=("P", "S2"),
                  anchor=None, position=0, url="https://video.tv.adobe.com/v/1"),
    ]
    rng = np.random.default_rng(0)
    return {
        "sections": sections,
        "snippets": snippets,
        "snippet_vectors": l2_normalise(rng.normal(size=(10, DIM))),
        "media": media,
        "media_vectors": l2_normalise(rng.normal(size=(4, DIM))),
    }


def pages_of(data: dict, *, tag: str = "h") -> list[PageRecord]:
    """The conformance data grouped into one :class:`PageRecord` per source path."""
    out = []
    for path in sorted({s.source_path for s in data["sections"]}):
        si = [i for i, s in enumerate(data["snippets"]) if s.source_path == path]
        mi = [i for i, m in enumerate(data["media"]) if m.source_path == path]
        out.append(PageRecord(
            source_path=path, content_hash=f"{tag}-{path}",
            sections=[s for s in data["sections"] if s.source_path == path],
            snippets=[data["snippets"][i] for i in si], snippet_vectors=data["snippet_vectors"][si],
            media=[data["media"][i] for i in mi], media_vectors=data["media_vectors"][mi],
        ))
    return out


def write_all(writer: StoreWriter, pages: list[PageRecord], version: str = "v-1") -> None:
    with writer.lock():
        vw = writer.begin(version, from_live=False, dim=DIM)
        for page in pages:
            vw.put_page(page)
        vw.commit({"dim": DIM, "version": version}, {})



#: snippet texts with words, for full-text search (ids and vectors as in :func:`_data`)
LEXICAL_TEXTS = (
    "Click Copy URL in the Server Calls tab to copy the request to the clipboard.",
    "The network panel lists every server call the page made.",
    "Installing the debugger: add the extension from the Chrome Web Store.",
    "Each server call shows its status code and its timing.",
    "Server settings are stored per server and per environment.",
    "A report suite collects the data of one server.",
    "Export the report as a spreadsheet for the team.",
    "The server answers with a JSON document.",
    "Schedule the export every morning.",
    "The server logs every request of the server.",
)


def lexical_data() -> dict:
    """:func:`_data` with :data:`LEXICAL_TEXTS` as snippet texts; snippet 5's section is headed ``Troubleshooting``."""
    from dataclasses import replace

    data = _data()
    data["snippets"] = [
        replace(s, text=t, heading_path=("P", "Troubleshooting") if i == 5 else s.heading_path)
        for i, (s, t) in enumerate(zip(data["snippets"], LEXICAL_TEXTS))
    ]
    return data
