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
