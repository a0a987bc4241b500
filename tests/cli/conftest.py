"""Fixtures of the CLI tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.embed import mpnet
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index


@pytest.fixture
def install_docs(tmp_path: Path) -> Path:
    """A two-section Markdown folder (install steps, journey canvas) to ingest."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.md").write_text(
        "# Install\n\n## Setup\n\nTo install the tool run pip install murar and then open the settings page.\n\n"
        "## Journeys\n\nA journey canvas holds custom events that you drag from the side panel.\n")
    return docs


class _NamedLikeMPNet(HashingEmbedder):
    """Vectors of the right size under mpnet's name: an index as `--embedder mpnet` records it."""

    def __init__(self) -> None:
        super().__init__(dim=mpnet.DIM)

    @property
    def name(self) -> str:
        return mpnet.NAME


@pytest.fixture
def mpnet_index(tmp_path: Path, install_docs: Path) -> Path:
    """``tmp_path/idx``: :func:`install_docs` indexed as an mpnet index records itself, without the model."""
    index = tmp_path / "idx"
    build_index(install_docs, index, embedder=_NamedLikeMPNet())
    return index
