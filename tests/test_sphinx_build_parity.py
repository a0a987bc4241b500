"""A Sphinx project ingested from its reST source and from the HTML the real ``sphinx-build``
makes of it: both give the same screenshots for the same questions (issue 8)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest
from extractive_answers import extractive_answer
from PIL import Image

from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index
from murar.schema import ImageItem

PAGES = {
    "conf.py": "project = 'Gadget'\nhtml_theme = 'alabaster'\nexclude_patterns = ['_build', 'parts']\n",
    "index.rst": "Gadget\n======\n\n.. toctree::\n\n   network\n   backup\n",
    "network.rst": """\
Network settings
================

Open the network panel from :menuselection:`Settings --> Network`.

.. figure:: shots/network-panel.png
   :alt: network panel

   The network panel lists every interface with its address.

Set a static address
--------------------

Click :guilabel:`Edit` next to the interface, choose *Static* and type the address.

.. image:: shots/static-address.png
   :alt: static address form

.. include:: parts/proxy.rst
""",
    "parts/proxy.rst": """\
Configure the proxy
-------------------

Type the proxy host and port in the proxy dialog and press |save|.

.. |save| image:: /shots/save-button.png

.. image:: /shots/proxy-dialog.png
   :alt: proxy dialog
""",
    "backup.rst": """\
Backups
=======

.. list-table:: Backup schedules
   :header-rows: 1

   * - Schedule
     - Retention
   * - nightly
     - 7 days

Restore a backup
----------------

Pick the archive in the restore wizard and confirm the restore.

.. image:: shots/restore-wizard.png
   :alt: restore wizard
""",
}

QUESTIONS = {
    "How do I set a static address: click Edit next to the interface and choose Static?": "static-address.png",
    "Where do I type the proxy host and port in the proxy dialog?": "proxy-dialog.png",
    "How do I restore a backup by picking the archive in the restore wizard?": "restore-wizard.png",
}


def _png(seed: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (640 + seed, 400), (seed * 40 % 255, 90, 160)).save(buf, format="PNG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sphinx")
    src = tmp_path_factory.mktemp("gadget") / "docs"
    for rel, text in PAGES.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    for i, name in enumerate(["network-panel", "static-address", "save-button", "proxy-dialog", "restore-wizard"]):
        (src / "shots").mkdir(exist_ok=True)
        (src / "shots" / f"{name}.png").write_bytes(_png(i))
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(src), str(src.parent / "html")],
                   check=True, capture_output=True, timeout=300)
    return src


def _picked(index: Path, question: str) -> list[str]:
    a = extractive_answer(index, question)
    return [PurePosixPath(str(b.item.path)).name for b in a.media if isinstance(b.item, ImageItem) and b.item.path]


def test_source_and_built_html_pick_the_same_screenshots(project: Path, tmp_path: Path) -> None:
    _m, src_report = build_index(project, tmp_path / "src-idx", embedder=HashingEmbedder())
    _m, html_report = build_index(project.parent / "html", tmp_path / "html-idx", embedder=HashingEmbedder())
    assert src_report.site["generator"] == "sphinx" and src_report.pages == 3
    assert src_report.assets.resolution_rate == 1.0 and html_report.assets.resolution_rate == 1.0
    assert src_report.images == html_report.images == 5  # figure, image, substitution image, include's image
    for question, expected in QUESTIONS.items():
        from_source = _picked(tmp_path / "src-idx", question)
        from_html = _picked(tmp_path / "html-idx", question)
        assert expected in from_source, (question, from_source)
        assert expected in from_html, (question, from_html)
