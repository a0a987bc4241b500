"""PostgreSQL specifics: HNSW indexes after the first version, the ANN path, per-version caches."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import psycopg
from store_cases import DIM, _data, pages_of, write_all

from murar.store.postgres import PgStore, PgWriter


def test_hnsw_indexes_and_ann_search(pg_url: str) -> None:
    data = _data()
    write_all(PgWriter(pg_url), pages_of(data))
    with psycopg.connect(pg_url) as conn:
        names = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%hnsw%'")}
    assert names == {"murar_snippets_hnsw", "murar_media_hnsw"}
    ann = PgStore(pg_url, exact_max_rows=0)  # always through the HNSW index
    for i in range(10):
        assert ann.search_snippets(data["snippet_vectors"][i], 1)[0][0].id == f"sn{i}"
    assert ann.search_media(data["media_vectors"][2], 1, kinds=["table"])[0].item.id == "tab0"


def test_cached_lookups_follow_the_live_version(pg_url: str) -> None:
    data = _data()
    writer = PgWriter(pg_url)
    write_all(writer, pages_of(data))
    store = PgStore(pg_url)
    q = data["snippet_vectors"][0]
    assert store.search_snippets(q, 1)[0][0].id == "sn0"
    assert [m.item.id for m in store.media_in_section("sec0")] == ["img0", "img1"]  # now cached for v1
    p0 = pages_of(data)[0]
    with writer.lock():
        vw = writer.begin("v-2", from_live=True, dim=DIM)
        vw.put_page(replace(p0, content_hash="h2", media=p0.media[:1], media_vectors=p0.media_vectors[:1]))
        vw.commit({"dim": DIM, "version": "v-2"}, {})
    assert [m.item.id for m in store.media_in_section("sec0")] == ["img0", "img1"]  # same question: v1
    assert store.search_snippets(q, 1)[0][0].id == "sn0"  # a new question pins v2
    assert [m.item.id for m in store.media_in_section("sec0")] == ["img0"]
    assert np.allclose(store.media_vector("img0"), data["media_vectors"][0], atol=1e-6)  # type: ignore[arg-type]
