from __future__ import annotations

from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.errors import IndexNotFoundError
from murar.ingest.index import build_index, open_index
from murar.store import lance_versions


def _corpus(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("# Alpha\n\nAlpha explains journeys.\n\n## Steps\n\nClick Save.\n")
    (root / "docs" / "b.md").write_text("# Beta\n\nBeta explains audiences.\n")
    (root / "docs" / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    (root / "docs" / "license.md").write_text("# License\n\nMIT\n")
    return root / "docs"


def test_build_open_and_idempotent(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    idx = tmp_path / "idx"
    emb = HashingEmbedder()
    m1, r1 = build_index(corpus, idx, embedder=emb)
    assert m1.counts["pages"] == 2 and m1.counts["sections"] == 3
    assert [f.path for f in r1.failed] == ["broken.pdf"] or r1.failed[0].path == "broken.pdf"
    opened = open_index(idx)
    ids1 = sorted(s.id for s in opened.store.all_snippets())
    del opened  # a reader still open keeps its version (test_a_reader_keeps_its_version_through_an_ingest)
    m2, r2 = build_index(corpus, idx, embedder=emb)
    assert r2.reused_embeddings == r2.snippets + r2.images + r2.tables + r2.videos
    ids2 = sorted(s.id for s in open_index(idx).store.all_snippets())
    assert ids1 == ids2
    versions = [p for p in idx.iterdir() if p.name.startswith("v-")]
    assert len(versions) == 1 and versions[0].name == m2.version


def test_a_reader_keeps_its_version_through_an_ingest(tmp_path: Path) -> None:
    """A ``murar serve`` opened before an ingest went on reading a version the ingest had
    deleted (lance: "Not found"); the version stays while a reader holds it, and the next
    ingest after the reader is gone prunes it."""
    corpus = _corpus(tmp_path)
    idx = tmp_path / "idx"
    emb = HashingEmbedder()
    m1, _ = build_index(corpus, idx, embedder=emb)
    reader = open_index(idx)
    (corpus / "b.md").write_text("# Beta\n\nBeta explains audiences and segments.\n")
    m2, _ = build_index(corpus, idx, embedder=emb)
    assert (idx / m1.version).is_dir() and m2.version != m1.version
    assert len(reader.store.all_snippets()) == 3  # the old version still reads, whole
    assert len(open_index(idx).store.all_snippets()) == 3
    del reader
    (corpus / "b.md").write_text("# Beta\n\nBeta explains audiences.\n")
    m3, _ = build_index(corpus, idx, embedder=emb)
    assert sorted(p.name for p in idx.iterdir() if p.name.startswith("v-")) == [m3.version]


def test_killed_ingest_keeps_previous_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = _corpus(tmp_path)
    idx = tmp_path / "idx"
    emb = HashingEmbedder()
    m1, _ = build_index(corpus, idx, embedder=emb)

    def boom(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(lance_versions, "write_lance", boom)
    (corpus / "c.md").write_text("# Gamma\n\nNew page.\n")
    with pytest.raises(KeyboardInterrupt):
        build_index(corpus, idx, embedder=emb)
    opened = open_index(idx)
    assert opened.manifest.version == m1.version
    assert opened.store.counts()["pages"] == 2
    assert not list(idx.glob(".tmp-*"))


def test_a_full_disk_is_an_index_error_and_keeps_the_live_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC while writing a version (measured on a 600 KB tmpfs: lance's RuntimeError
    'LanceError(IO): No space left on device (os error 28)', with a traceback from the
    CLI) or while switching CURRENT: a typed IndexError_, the live version untouched and
    the half-written one removed."""
    import errno

    from murar.errors import IndexError_

    corpus = _corpus(tmp_path)
    idx = tmp_path / "idx"
    emb = HashingEmbedder()
    m1, _ = build_index(corpus, idx, embedder=emb)
    (corpus / "c.md").write_text("# Gamma\n\nNew page.\n")

    def full(*args: object, **kwargs: object) -> None:
        raise RuntimeError("lance error: LanceError(IO): No space left on device (os error 28), /src/writer.rs:191:9")

    with monkeypatch.context() as m:
        m.setattr(lance_versions, "write_lance", full)
        with pytest.raises(IndexError_, match="No space left on device \\(os error 28\\); the previous version"):
            build_index(corpus, idx, embedder=emb)

    def no_pointer(self: object, version: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(lance_versions.LanceWriter, "_switch", no_pointer)
        with pytest.raises(IndexError_, match="No space left on device; the previous version"):
            build_index(corpus, idx, embedder=emb)
    opened = open_index(idx)
    assert opened.manifest.version == m1.version and opened.store.counts()["pages"] == 2
    assert [p.name for p in idx.iterdir() if p.name.startswith(("v-", ".tmp-"))] == [m1.version]


def test_missing_index_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(IndexNotFoundError, match="murar ingest"):
        open_index(tmp_path / "nothing")


def test_symlink_escaping_root_is_skipped(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\nDo not index.\n")
    (corpus / "link.md").symlink_to(outside)
    _, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert any(f.path == "link.md" and f.status == "skipped" for f in report.files)
    texts = " ".join(s.text for s in open_index(tmp_path / "idx").store.all_snippets())
    assert "Do not index" not in texts


def test_a_table_section_is_found_by_its_rows(tmp_path: Path) -> None:
    """The facts of a table are searchable text of its section (ChunkingOptions.table_snippets)."""
    from murar.ingest.chunking import ChunkingOptions

    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "ids.md").write_text(
        "# Identities\n\nIntro text about identities.\n\n## Standard namespaces\n\nThe namespaces are:\n\n"
        "| Display name | ID | Code |\n|---|---|---|\n| Experience Cloud ID | 4 | ECID |\n"
        "| Apple advertising identifier | 20915 | IDFA |\n")
    emb = HashingEmbedder()
    build_index(corpus, tmp_path / "idx", embedder=emb)
    store = open_index(tmp_path / "idx").store
    qv = emb.embed(["Apple advertising identifier IDFA 20915"])[0]
    best, _ = store.search_snippets(qv, 1)[0]
    assert best.heading_path[-1] == "Standard namespaces"
    assert "Display name: Apple advertising identifier; ID: 20915; Code: IDFA" in best.text
    build_index(corpus, tmp_path / "idx2", embedder=emb, chunking=ChunkingOptions(table_snippets=False))
    texts = " ".join(s.text for s in open_index(tmp_path / "idx2").store.all_snippets())
    assert "20915" not in texts


def test_new_chunking_rules_rechunk_on_the_next_ingest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from murar.ingest import index as index_mod

    corpus = _corpus(tmp_path)
    idx = tmp_path / "idx"
    build_index(corpus, idx, embedder=HashingEmbedder())
    _, same = build_index(corpus, idx, embedder=HashingEmbedder())
    assert same.changes.get("unchanged") == 2
    monkeypatch.setattr(index_mod, "CHUNKER_VERSION", index_mod.CHUNKER_VERSION + 1)
    _, report = build_index(corpus, idx, embedder=HashingEmbedder())
    assert report.changes.get("changed") == 2 and not report.changes.get("unchanged")
