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
