"""A small real corpus for API and integration tests: the Experience Cloud Debugger
docs (12 real Adobe pages with their screenshots), copied into a temp folder so
paths keep the ``AdobeDocs+experience-platform-docs/...`` form of ../shared/eval."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = "AdobeDocs+experience-platform-docs"


def copy_corpus(adobe_root: Path, dest: Path) -> Path:
    """Copy the one Adobe repository into ``dest/corpus``; returns ``dest/corpus``."""
    corpus = dest / "corpus"
    shutil.copytree(adobe_root / REPO, corpus / REPO)
    return corpus
