"""Real Sphinx (reST), Jupyter Book (MyST + notebooks) and Antora (AsciiDoc) corpora: ingested by their
generator's rules, a question is answered with the screenshot of the step (hashing embedder: resolution
and selection are under test, not MiniLM; ``benchmarks/docsites.py --quality`` measures MiniLM)."""

from __future__ import annotations

from pathlib import Path

import pytest
from extractive_answers import answer_images, docsite_corpus

from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index, open_index

pytestmark = pytest.mark.integration


def test_sphinx_answer_shows_the_reservation_screenshot(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsite_corpus(docsites_root, "sphinx-rst-glpi-doc")
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    # SOURCE.md: 76 content pages (+3 index pages; one included tab page is content of its includers),
    # 19 include files (+1), every local image reference that exists resolves (8 are broken upstream)
    assert report.site["generator"] == "sphinx" and report.pages == 78 and not report.failed
    assert sum(1 for f in report.files if f.status == "include") == 20
    assert report.assets.resolution_rate == 1.0, report.unresolved
    images = answer_images(tmp_path / "idx", "How do I add a reservation? Click on the desired date to display "
                                               "the reservation box and select the desired item.")
    paths = [i.path for i in images]
    assert "source/modules/tools/images/planning-add-reservation.png" in paths, paths
    assert all(i.exists and (corpus / str(i.path)).is_file() for i in images if i.path)


def test_jupyter_book_answer_shows_the_banner_figure(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsite_corpus(docsites_root, "myst-jupyterbook-teachbooks-manual")
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    # only_build_toc_files: the 47 TOC pages (40 MyST + 7 notebooks) of SOURCE.md's 64; 3 included files
    assert report.site["generator"] == "jupyterbook" and report.pages == 47 and not report.failed
    assert report.assets.resolution_rate == 1.0, report.unresolved
    images = answer_images(tmp_path / "idx", "How do I add an announcement banner at the top of my Jupyter Book?")
    assert [i.path for i in images][:1] == ["book/basic-features/banner_mude.png"]
    assert images[0].caption  # the {figure} body is the author caption
    # the notebook's stored plot output is written under the index assets
    outputs = list(open_index(tmp_path / "idx").assets_dir.glob("nb/*/cell*.png"))
    assert outputs and all(p.stat().st_size > 0 for p in outputs)


def test_antora_answer_shows_the_vsix_install_screenshot(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsite_corpus(docsites_root, "asciidoc-antora-kie-kogito-docs")
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    # SOURCE.md: 110 pages (one of them is also included by two others: Antora publishes it too), 18 partials
    assert report.site["generator"] == "antora" and report.pages == 110 and not report.failed
    assert report.assets.resolution_rate == 1.0, report.unresolved
    images = answer_images(tmp_path / "idx", "How do I install the Serverless Workflow editor in VS Code from a "
                                               "VSIX file?")
    paths = [i.path for i in images]
    assert ("serverlessworkflow/modules/ROOT/assets/images/tooling/serverless-workflow-editor/"
            "swf-editor-vscode-vsix-package.png") in paths, paths
