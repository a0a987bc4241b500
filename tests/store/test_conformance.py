"""Every store backend must pass these tests (STYLE.md habit 4)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from store_cases import DIM, _data, lexical_data, pages_of, write_all  # noqa: F401  (tests/store on sys.path)

from murar.store.base import Store
from murar.store.hybrid import RetrieverOptions, retrieve_snippets
from murar.store.lance import LanceStore
from murar.store.lance_versions import LanceWriter, current_version_dir
from murar.store.memory import MemoryStore


def _memory(tmp_path: Path, data: dict) -> Store:
    return MemoryStore(**data)


def _lance(tmp_path: Path, data: dict) -> Store:
    write_all(LanceWriter(tmp_path / "idx"), pages_of(data))
    return LanceStore(current_version_dir(tmp_path / "idx") / "lance")


def _postgres(tmp_path: Path, data: dict, url: str) -> Store:
    from murar.store.postgres import PgStore, PgWriter

    write_all(PgWriter(url), pages_of(data))
    return PgStore(url)


def _store_of(request: pytest.FixtureRequest, tmp_path: Path, data: dict) -> tuple[Store, dict]:
    """The store the fixture's param names ("memory", "lance", "postgres") written with ``data``, and ``data``."""
    if request.param == "postgres":
        return _postgres(tmp_path, data, request.getfixturevalue("pg_url")), data
    build: Callable[[Path, dict], Store] = _memory if request.param == "memory" else _lance
    return build(tmp_path, data), data


@pytest.fixture(params=["memory", "lance", "postgres"])
def store_and_data(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Store, dict]:
    return _store_of(request, tmp_path, _data())


def test_snippet_search_is_exact_cosine(store_and_data: tuple[Store, dict]) -> None:
    store, data = store_and_data
    q = data["snippet_vectors"][3]
    hits = store.search_snippets(q, 3)
    assert hits[0][0].id == "sn3"
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    expected = np.sort(data["snippet_vectors"] @ q)[::-1][:3]
    assert [round(s, 4) for _, s in hits] == [round(float(x), 4) for x in expected]
    assert store.search_snippets(q, 0) == []
    assert len(store.search_snippets(q, 100)) == 10


def test_media_by_section_and_lookup(store_and_data: tuple[Store, dict]) -> None:
    store, data = store_and_data
    items = store.media_in_section("sec0")
    assert [m.item.id for m in items] == ["img0", "img1"]
    assert np.allclose(items[0].vector, data["media_vectors"][0], atol=1e-6)
    assert store.media_in_section("nope") == []
    assert store.get_media("tab0").headers == ["A"]  # type: ignore[union-attr]
    assert store.get_media("missing") is None
    assert store.get_section("sec2").heading_path == ("P", "S2")  # type: ignore[union-attr]
    assert store.get_snippet("sn4").section_id == "sec0"  # type: ignore[union-attr]
    vecs = store.snippet_vectors(["sn2", "sn1"])
    assert np.allclose(vecs, data["snippet_vectors"][[2, 1]], atol=1e-6)


def test_media_search_filters_kinds_and_missing_files(store_and_data: tuple[Store, dict]) -> None:
    store, data = store_and_data
    q = data["media_vectors"][1]
    ids = [m.item.id for m in store.search_media(q, 10)]
    assert "img1" not in ids and set(ids) == {"img0", "tab0", "vid0"}
    assert "img1" in [m.item.id for m in store.search_media(q, 10, include_missing=True)]
    assert [m.item.id for m in store.search_media(q, 10, kinds=["table"])] == ["tab0"]


def test_counts(store_and_data: tuple[Store, dict]) -> None:
    store, _ = store_and_data
    assert store.counts() == {"pages": 2, "sections": 4, "snippets": 10, "images": 2, "tables": 1, "videos": 1}


def test_media_vector_lookup(store_and_data: tuple[Store, dict]) -> None:
    store, data = store_and_data
    assert np.allclose(store.media_vector("tab0"), data["media_vectors"][2], atol=1e-6)  # type: ignore[arg-type]
    assert store.media_vector("missing") is None


@pytest.fixture(params=["memory", "lance", "postgres"])
def lexical_store(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Store, dict]:
    return _store_of(request, tmp_path, lexical_data())


def _ids(hits: list) -> list[str]:
    return [s.id for s, _ in hits]


def test_lexical_search_matches_terms_best_first(lexical_store: tuple[Store, dict]) -> None:
    store, _ = lexical_store
    hits = store.search_snippets_lexical("How do I copy the URL of a call?", 10)
    assert _ids(hits)[0] == "sn0"  # copy (twice) and url: only in sn0
    assert set(_ids(hits)) == {"sn0", "sn1", "sn3"}  # every match shares a term (copy, url or call)
    scores = [sc for _, sc in hits]
    assert scores == sorted(scores, reverse=True) and all(sc > 0 for sc in scores)
    assert len(store.search_snippets_lexical("How do I copy the URL of a call?", 2)) == 2


def test_lexical_search_stems_weights_rare_terms_and_reads_headings(lexical_store: tuple[Store, dict]) -> None:
    store, _ = lexical_store
    assert _ids(store.search_snippets_lexical("install extensions", 3))[0] == "sn2"  # install~installing
    # "server" is in most snippets, "spreadsheet" in one: the rare term decides (idf)
    assert _ids(store.search_snippets_lexical("server spreadsheet", 10))[0] == "sn6"
    assert _ids(store.search_snippets_lexical("troubleshooting", 10)) == ["sn5"]  # a heading word


def test_lexical_search_without_matches_is_empty(lexical_store: tuple[Store, dict]) -> None:
    store, _ = lexical_store
    assert store.search_snippets_lexical("the and of", 5) == []  # stop words only
    assert store.search_snippets_lexical("zebra", 5) == []
    assert store.search_snippets_lexical("", 5) == []
    assert store.search_snippets_lexical("copy", 0) == []


def test_retrievers_give_cosines_in_their_order(lexical_store: tuple[Store, dict]) -> None:
    store, data = lexical_store
    q = data["snippet_vectors"][7]  # dense favours sn7; the words favour sn0
    assert retrieve_snippets(store, q, "copy url", 3, RetrieverOptions(kind="dense")) == store.search_snippets(q, 3)
    for kind in ("lexical", "hybrid"):
        for fusion in ("rrf", "minmax"):
            hits = retrieve_snippets(store, q, "copy url", 3, RetrieverOptions(kind=kind, fusion=fusion))
            assert "sn0" in _ids(hits)
            for s, cosine in hits:
                i = int(s.id[2:])
                assert cosine == pytest.approx(float(data["snippet_vectors"][i] @ q), abs=1e-5)
    assert _ids(retrieve_snippets(store, q, "copy url", 3, RetrieverOptions(kind="lexical"))) == ["sn0"]
    hybrid = _ids(retrieve_snippets(store, q, "copy url", 3, RetrieverOptions(kind="hybrid")))
    assert hybrid[0] in ("sn0", "sn7") and {"sn0", "sn7"} <= set(hybrid) and len(hybrid) == 3
    # nothing lexical: hybrid is the dense order
    assert _ids(retrieve_snippets(store, q, "zebra", 3, RetrieverOptions(kind="hybrid"))) == _ids(store.search_snippets(q, 3))


def test_the_default_retriever_is_hybrid_minmax(lexical_store: tuple[Store, dict]) -> None:
    """With no retriever chosen, a question's exact words find their snippet although its
    embedding favours another (the measured default, ``murar.config.DEFAULT_RETRIEVER``)."""
    store, data = lexical_store
    q = data["snippet_vectors"][7]
    dense = _ids(retrieve_snippets(store, q, "copy url", 1, RetrieverOptions(kind="dense")))
    default = retrieve_snippets(store, q, "copy url", 3)
    assert RetrieverOptions().name == "hybrid-minmax"
    assert default == retrieve_snippets(store, q, "copy url", 3, RetrieverOptions(kind="hybrid", fusion="minmax"))
    assert dense == ["sn7"] and "sn0" in _ids(default)
