"""QA: `murar ingest DOCS --index /etc/passwd` (a file) ended in a FileExistsError traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.errors import IndexError_
from murar.ingest.index import build_index


@pytest.mark.parametrize("where", ["file", "file/sub"])
def test_index_path_that_cannot_be_a_folder_is_a_typed_error(tmp_path: Path, where: str) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nText.\n")
    (tmp_path / "file").write_text("not a folder\n")
    with pytest.raises(IndexError_, match="--index must name a folder"):
        build_index(corpus, tmp_path / where, embedder=HashingEmbedder())
    assert (tmp_path / "file").read_text() == "not a folder\n"


def test_python_api_ingest_prints_no_lance_warnings(tmp_path: Path) -> None:
    """QA: murar.build_index from Python printed four '[... WARN lance::dataset::write::insert]
    No existing dataset at ...' lines per ingest (the CLI silenced them, the library did not)."""
    import os
    import subprocess
    import sys

    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nText.\n")
    code = f"import murar; murar.build_index({str(corpus)!r}, {str(tmp_path / 'idx')!r}, embedder='hashing')"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANCE", "RUST_LOG"))}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2] / "src")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                         check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "WARN" not in out.stderr, out.stderr[-2000:]


def _built(tmp_path: Path) -> Path:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nInstall the agent.\n")
    build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    return tmp_path / "idx"


@pytest.mark.parametrize("pointer", [b"..", b".", b"\xff\xfe\x00garbage"])
def test_a_damaged_current_pointer_is_a_typed_error(tmp_path: Path, pointer: bytes) -> None:
    """CURRENT of '..' opened the index folder's parent as the version (its manifest.json, its
    lance/); bytes that are not UTF-8 ended in a UnicodeDecodeError traceback."""
    from murar.ingest.index import open_index

    idx = _built(tmp_path)
    (idx / "CURRENT").write_bytes(pointer)
    with pytest.raises(IndexError_, match="CURRENT"):
        open_index(idx)


def test_a_damaged_lance_table_is_a_typed_error(tmp_path: Path) -> None:
    """A truncated table file or a garbage table manifest ended in lance's RuntimeError (or a
    ValueError 'Table was not found') traceback at the first question."""
    from murar.ingest.index import open_index

    idx = _built(tmp_path)
    for f in idx.glob("v-*/lance/snippets.lance/_versions/*.manifest"):
        f.write_bytes(b"garbage\n")
    with pytest.raises(IndexError_, match="damaged"):
        open_index(idx)
