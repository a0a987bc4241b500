"""Every store writer must pass these tests: writes, page updates, deletes, version switch."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from store_cases import DIM, _data, pages_of, write_all

from murar.embed.base import l2_normalise
from murar.errors import IndexError_
from murar.schema import ImageItem, Section, Snippet
from murar.store.base import PageRecord, Store, StoreWriter
from murar.store.lance import LanceStore
from murar.store.lance_versions import LanceWriter, current_version_dir


class Backend:
    """A writer and a way to open a reader on the live version."""

    def __init__(self, kind: str, tmp_path: Path, url: str | None) -> None:
        self.kind, self.tmp_path, self.url = kind, tmp_path, url

    def writer(self) -> StoreWriter:
        if self.kind == "lance":
            return LanceWriter(self.tmp_path / "idx")
        from murar.store.postgres import PgWriter

        assert self.url
        return PgWriter(self.url)

    def reader(self) -> Store:
        if self.kind == "lance":
            return LanceStore(current_version_dir(self.tmp_path / "idx") / "lance")
        from murar.store.postgres import PgStore

        assert self.url
        return PgStore(self.url)


@pytest.fixture(params=["lance", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    url = request.getfixturevalue("pg_url") if request.param == "postgres" else None
    return Backend(request.param, tmp_path, url)


def _new_p0() -> PageRecord:
    """A changed version of page p0.md: one section, one snippet, one image, new ids."""
    sec = Section(id="sec9", source_path="p0.md", page_title="P", heading_path=("P", "New"), anchor=None,
                  level=2, text="new text", ordinal=0)
    sn = Snippet(id="sn9", section_id="sec9", source_path="p0.md", page_title="P", heading_path=("P", "New"),
                 anchor=None, text="new snippet", position=0, n_tokens=2)
    img = ImageItem(id="img9", section_id="sec9", source_path="p0.md", page_title="P", heading_path=("P", "New"),
                    anchor=None, position=0, path="new.png", exists=True)
    rng = np.random.default_rng(9)
    return PageRecord(source_path="p0.md", content_hash="h2-p0.md", sections=[sec], snippets=[sn],
                      snippet_vectors=l2_normalise(rng.normal(size=(1, DIM))), media=[img],
                      media_vectors=l2_normalise(rng.normal(size=(1, DIM))))


def test_write_and_read_back_pages(backend: Backend) -> None:
    data = _data()
    w = backend.writer()
    assert w.live() is None
    write_all(w, pages_of(data))
    live = w.live()
    assert live is not None and live.version == "v-1" and live.manifest["dim"] == DIM
    assert {p: s.content_hash for p, s in live.pages.items()} == {"p0.md": "h-p0.md", "p1.md": "h-p1.md"}
    assert live.pages["p0.md"].counts == {"sections": 2, "snippets": 6, "images": 2, "tables": 1, "videos": 0}
    got = {p.source_path: p for p in w.live_pages(["p1.md", "absent.md"])}
    assert list(got) == ["p1.md"]
    p1 = got["p1.md"]
    assert [s.id for s in p1.sections] == ["sec2", "sec3"]
    idx = [i for i, s in enumerate(data["snippets"]) if s.source_path == "p1.md"]
    assert sorted(s.id for s in p1.snippets) == sorted(data["snippets"][i].id for i in idx)
    for s, v in zip(p1.snippets, p1.snippet_vectors):
        assert np.allclose(v, data["snippet_vectors"][int(s.id[2:])], atol=1e-6)
    assert backend.reader().counts()["snippets"] == 10


def test_replace_page_keeps_the_others(backend: Backend) -> None:
    data = _data()
    w = backend.writer()
    write_all(w, pages_of(data))
    with w.lock():
        vw = w.begin("v-2", from_live=True, dim=DIM)
        vw.put_page(_new_p0())
        vw.commit({"dim": DIM, "version": "v-2"}, {})
    store = backend.reader()
    assert store.get_section("sec0") is None and store.get_snippet("sn0") is None and store.get_media("img0") is None
    assert store.get_section("sec9") is not None and store.get_media("img9") is not None
    assert [m.item.id for m in store.media_in_section("sec9")] == ["img9"]
    assert store.get_snippet("sn2") is not None  # p1.md untouched (sec2 belongs to p1)
    assert store.counts() == {"pages": 2, "sections": 3, "snippets": 5, "images": 1, "tables": 0, "videos": 1}
    q = _new_p0().snippet_vectors[0]
    assert store.search_snippets(q, 1)[0][0].id == "sn9"
    live = w.live()
    assert live is not None and live.pages["p0.md"].content_hash == "h2-p0.md"


def test_delete_page(backend: Backend) -> None:
    w = backend.writer()
    write_all(w, pages_of(_data()))
    with w.lock():
        vw = w.begin("v-2", from_live=True, dim=DIM)
        vw.delete_page("p1.md")
        vw.delete_page("never-there.md")
        vw.commit({"dim": DIM, "version": "v-2"}, {})
    store = backend.reader()
    assert store.counts() == {"pages": 1, "sections": 2, "snippets": 6, "images": 2, "tables": 1, "videos": 0}
    assert store.get_media("vid0") is None
    live = w.live()
    assert live is not None and set(live.pages) == {"p0.md"}


def test_full_rebuild_starts_empty(backend: Backend) -> None:
    w = backend.writer()
    write_all(w, pages_of(_data()))
    with w.lock():
        vw = w.begin("v-2", from_live=False, dim=DIM)
        vw.put_page(_new_p0())
        vw.commit({"dim": DIM, "version": "v-2"}, {})
    assert backend.reader().counts() == {"pages": 1, "sections": 1, "snippets": 1, "images": 1, "tables": 0,
                                         "videos": 0}


def test_uncommitted_version_is_invisible_and_cleaned_up(backend: Backend) -> None:
    data = _data()
    w = backend.writer()
    write_all(w, pages_of(data))
    before = backend.reader().counts()
    with w.lock():
        vw = w.begin("v-2", from_live=True, dim=DIM)
        vw.put_page(_new_p0())
        vw.delete_page("p1.md")
        assert backend.reader().counts() == before  # a reader opened now still sees v-1
        vw.abort()
    assert backend.reader().counts() == before
    # a writer that died without abort (killed): the next one undoes its leftovers
    with w.lock():
        vw = w.begin("v-3", from_live=True, dim=DIM)
        vw.put_page(_new_p0())
    assert backend.reader().counts() == before
    assert (w.live() or pytest.fail("no live version")).version == "v-1"
    with w.lock():
        vw = w.begin("v-4", from_live=True, dim=DIM)
        changed = replace(pages_of(data)[1], content_hash="h3-p1.md")
        vw.put_page(changed)
        vw.commit({"dim": DIM, "version": "v-4"}, {})
    live = w.live()
    assert live is not None and live.version == "v-4"
    assert backend.reader().counts() == before  # v-3's replacement of p0 never became visible
    assert live.pages["p0.md"].content_hash == "h-p0.md" and live.pages["p1.md"].content_hash == "h3-p1.md"


def test_one_writer_at_a_time(backend: Backend) -> None:
    w1, w2 = backend.writer(), backend.writer()
    with w1.lock(), pytest.raises(IndexError_, match="another ingest"), w2.lock():
        pass
    with w2.lock():  # released
        pass


def test_large_lance_tables_get_an_ann_index(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    n = 400
    vecs = l2_normalise(rng.normal(size=(n, DIM))).astype(np.float32)
    sec = Section(id="s", source_path="big.md", page_title="B", heading_path=("B",), anchor=None, level=1,
                  text="", ordinal=0)
    sns = [Snippet(id=f"r{i}", section_id="s", source_path="big.md", page_title="B", heading_path=("B",),
                   anchor=None, text=f"row {i}", position=i, n_tokens=2) for i in range(n)]
    page = PageRecord(source_path="big.md", content_hash="h", sections=[sec], snippets=sns, snippet_vectors=vecs,
                      media=[], media_vectors=np.zeros((0, DIM), np.float32))
    write_all(LanceWriter(tmp_path / "idx", ann_min_rows=100), [page])
    vdir = current_version_dir(tmp_path / "idx")
    import lancedb

    indices = lancedb.connect(str(vdir / "lance")).open_table("snippets").list_indices()
    assert sorted(i.index_type for i in indices) == ["FTS", "IvfHnswSq"]  # full-text index on every snippets table
    store = LanceStore(vdir / "lance", exact_max_rows=100)  # searched by LanceDB through the index
    hits = [store.search_snippets(vecs[i], 1)[0][0].id for i in range(0, n, 40)]
    assert sum(h == f"r{i}" for h, i in zip(hits, range(0, n, 40))) >= 9
