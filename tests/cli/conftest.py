"""Fixtures of the CLI tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def install_docs(tmp_path: Path) -> Path:
    """A two-section Markdown folder (install steps, journey canvas) to ingest."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "install.md").write_text(
        "# Install\n\n## Setup\n\nTo install the tool run pip install murar and then open the settings page.\n\n"
        "## Journeys\n\nA journey canvas holds custom events that you drag from the side panel.\n")
    return docs
